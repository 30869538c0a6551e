"""Backends: each turns an IR model into a verified :class:`~satrules.ir.Solution`.

Solver-specific code lives only in this package; see ``docs/adding_a_backend.md``.
"""

from satrules.backends.registry import (
    BACKENDS,
    available_backends,
    choose_backend,
    describe_backends,
    get_backend,
    solve,
)

__all__ = [
    "BACKENDS",
    "available_backends",
    "choose_backend",
    "describe_backends",
    "get_backend",
    "solve",
]
