"""Subcommands of the ``satrules`` command line, one module each (see :mod:`satrules.cli`)."""
