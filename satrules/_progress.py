"""Progress bars on stderr for long work (IMLI partitions, sweeps, large encodings,
the proof of an exact CDPR selection).

Bars are drawn with :mod:`tqdm` when it is installed, only when stderr is a
terminal, and never when the caller asked for quiet output — either by passing
``quiet=True`` or, for loops deep inside library code (IMLI partitions), by
running inside :func:`quiet_progress` (what the CLI's ``--quiet`` does).
Everywhere else :func:`progress` hands the iterable back unchanged, so wrapping
a loop costs nothing in tests, pipes and CI logs.  Work that is not a loop (one
long solve) reports through :func:`status_line`: one line of text that the work
rewrites as it goes.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib.util
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

__all__ = ["progress", "progress_enabled", "quiet_progress", "status_line"]

T = TypeVar("T")

# set by quiet_progress(); a context variable, so threads and tasks do not leak it
_QUIET: contextvars.ContextVar[bool] = contextvars.ContextVar("satrules_quiet", default=False)


@contextlib.contextmanager
def quiet_progress(quiet: bool = True) -> Iterator[None]:
    """Disable (or, with ``quiet=False``, leave enabled) every bar drawn inside the block.

    Examples
    --------
    >>> with quiet_progress():
    ...     progress_enabled()
    False
    """
    token = _QUIET.set(quiet or _QUIET.get())
    try:
        yield
    finally:
        _QUIET.reset(token)


def progress_enabled(quiet: bool = False, stream=None) -> bool:
    """Return whether a progress bar should be drawn.

    Parameters
    ----------
    quiet : bool
        The user's ``--quiet`` flag; ``True`` always disables bars.
    stream : file object, optional
        Where the bar would go (default ``sys.stderr``).

    Returns
    -------
    bool
        ``True`` only when not quiet, ``stream`` is a TTY and tqdm is installed.

    Examples
    --------
    >>> progress_enabled(quiet=True)
    False
    """
    if quiet or _QUIET.get():
        return False
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    if isatty is None or not isatty():
        return False
    return importlib.util.find_spec("tqdm") is not None


def progress(iterable: Iterable[T], *, desc: str = "", total: int | None = None,
             quiet: bool = False, stream=None, delay: float = 0.0) -> Iterator[T] | Iterable[T]:
    """Wrap ``iterable`` in a tqdm bar on stderr when :func:`progress_enabled` says so.

    Parameters
    ----------
    iterable : iterable
        The work items.
    desc : str
        Label shown left of the bar.
    total : int, optional
        Number of items when ``iterable`` has no ``len``.
    quiet : bool
        Disable the bar.
    stream : file object, optional
        Destination (default ``sys.stderr``); stdout is never used, so piped
        results stay clean.
    delay : float
        Seconds before the bar appears (short loops then draw nothing).

    Returns
    -------
    iterable
        ``iterable`` itself when no bar is drawn, else a tqdm iterator over it.

    Examples
    --------
    >>> list(progress(range(3), desc="steps", quiet=True))
    [0, 1, 2]
    """
    stream = sys.stderr if stream is None else stream
    if not progress_enabled(quiet, stream):
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, desc=desc, total=total, file=stream, leave=False, dynamic_ncols=True,
                delay=delay)


#: Seconds between two redraws of a :func:`status_line` (its updates may come far more
#: often: HiGHS reports at every poll of its interrupt callback).
STATUS_EVERY = 0.5


@contextlib.contextmanager
def status_line(desc: str, *, quiet: bool = False, stream=None,
                delay: float = 0.0) -> Iterator[Callable[[str], None] | None]:
    """One line on stderr that a long piece of work rewrites (a tqdm bar without a total).

    Yields ``None`` when :func:`progress_enabled` says no (then the work need not format
    its reports), else a function ``show(text)`` that sets the text after ``desc``.
    ``show`` may be called from any thread, and as often as wished: the line is redrawn
    at most every :data:`STATUS_EVERY` seconds, with the time elapsed, and first after
    ``delay`` seconds (with the latest text, even when no report comes after the delay:
    a phase that does not report is still seen).  The line is removed when the block ends.

    Examples
    --------
    >>> with status_line("proving", quiet=True) as show:
    ...     show is None
    True
    """
    stream = sys.stderr if stream is None else stream
    if not progress_enabled(quiet, stream):
        yield None
        return
    from tqdm.auto import tqdm

    lock = threading.Lock()
    start = time.monotonic()
    state: dict = {"bar": None, "last": -STATUS_EVERY, "closed": False, "text": None}

    def draw(now: float) -> None:   # under the lock
        state["last"] = now
        if state["bar"] is None:   # drawn only once the delay has passed
            state["bar"] = tqdm(total=None, desc=desc, file=stream, leave=False,
                                dynamic_ncols=True, bar_format="{desc}{postfix} [{elapsed}]")
        state["bar"].set_postfix_str(state["text"], refresh=True)

    def show(text: str) -> None:
        now = time.monotonic()
        with lock:
            state["text"] = text
            if state["closed"] or now - start < delay or now - state["last"] < STATUS_EVERY:
                return
            draw(now)

    def at_delay() -> None:   # the latest text, even if no report comes after the delay
        with lock:
            if not state["closed"] and state["text"] is not None and state["bar"] is None:
                draw(time.monotonic())

    timer = threading.Timer(delay, at_delay)
    timer.daemon = True
    timer.start()
    try:
        yield show
    finally:
        timer.cancel()
        with lock:   # an engine thread still reporting finds the line closed
            state["closed"] = True
            if state["bar"] is not None:
                state["bar"].close()
