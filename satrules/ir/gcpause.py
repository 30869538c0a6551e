"""Pause Python's cyclic garbage collector around allocation-heavy, cycle-free work.

One partition solve builds tens of thousands of short Python lists (the clause
lists PySAT takes, PySAT's own bookkeeping, warm-start dictionaries).  Each of
them counts towards the collector's allocation threshold, and the full
collections they trigger walk every tracked object of the process (about 10^5
once pandas and scikit-learn are imported).  On an IMLIB partition of 16 rows
that cost more CPU than the encoding, lowering and RC2 solve together (breast
cancer, ``benchmarks/bench_reference_speed.py``).  None of these objects form
reference cycles, so reference counting frees them all; pausing the collector
only postpones the collection of unrelated cyclic garbage to the end of the block.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["paused_gc"]


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Disable the cyclic garbage collector inside the block; restore its state after.

    Nested and re-entrant use is safe: only the outermost block that found the
    collector enabled enables it again.

    Examples
    --------
    >>> import gc
    >>> with paused_gc():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
