"""The ``satrules`` command line.

Each subcommand lives in its own module of :mod:`satrules.commands` with a
``register(subparsers)`` function that adds its parser and sets ``func``
(``func(args) -> int``).  ``main`` discovers them, so adding a command touches
no other file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import satrules
import satrules.commands
from satrules.exceptions import SatrulesError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser with every discovered subcommand."""
    parser = argparse.ArgumentParser(
        prog="satrules",
        description="Learn interpretable rule sets and solve MaxSAT models.",
    )
    parser.add_argument("--version", action="version", version=f"satrules {satrules.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = sorted(m.name for m in pkgutil.iter_modules(satrules.commands.__path__)
                   if not m.name.startswith("_"))
    for name in names:
        importlib.import_module(f"satrules.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (0 success, 1 failure, 2 usage)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits on --help and usage errors
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (SatrulesError, ValueError, OSError) as exc:
        print(f"satrules {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"satrules {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
