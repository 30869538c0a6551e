"""The backend protocol and shared helpers for backend modules."""

from __future__ import annotations

import atexit
import importlib.metadata
import importlib.util
import math
import numbers
import threading
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from satrules.exceptions import BackendError, BackendUnavailableError, EncodingError
from satrules.ir import Model, Solution

__all__ = ["Backend", "BackendBase", "check_time_limit", "hint_values", "join_or_stop",
           "package_version", "parse_backend_specs", "start_daemon", "stop_engines",
           "wait_awake"]

#: Seconds the interpreter waits at exit for engine threads still running
#: (:func:`_wait_for_engines`).
EXIT_GRACE = 60.0
#: Seconds an engine asked to stop by a KeyboardInterrupt is given to return before the
#: interrupt is re-raised (it then ends on its daemon thread).  Leaving the interpreter
#: while CP-SAT still ran on its thread aborted the process ("terminate called without
#: an active exception").
INTERRUPT_GRACE = 2.0
#: Longest a wait of the main thread blocks at once (:func:`wait_awake`), in seconds: a
#: Ctrl-C whose signal did not interrupt the blocking call is acted on this late at most.
SIGNAL_CHECK = 0.25

T = TypeVar("T")


@runtime_checkable
class Backend(Protocol):
    """What every backend provides.

    ``name`` is the canonical registry name, ``native`` the IR kinds handled
    without lowering, ``install`` the command that installs the engine.
    Engine options are keyword arguments of the constructor; ``solve`` takes
    the options common to all backends.
    """

    name: ClassVar[str]
    native: ClassVar[frozenset[str]]
    install: ClassVar[str]

    @classmethod
    def available(cls) -> bool: ...

    @classmethod
    def version(cls) -> str: ...

    def solve(self, model: Model, *, time_limit: float | None = None, seed: int | None = None,
              hint: Mapping | None = None) -> Solution: ...


class BackendBase:
    """Convenience base: availability from an importable module, version from a distribution."""

    name: ClassVar[str] = ""
    native: ClassVar[frozenset[str]] = frozenset({"clause", "soft"})
    install: ClassVar[str] = "pip install satrules"
    module: ClassVar[str | None] = None  # import name of the engine package
    distribution: ClassVar[str | None] = None  # its PyPI distribution name
    #: Most variables the engine is given (``None``: no limit).  Engines allocate per
    #: variable *number*, used or not, so one literal ``2147483647`` asked for 2**31 of
    #: everything (issue #12 row 8); the limits are measured, see docs/reliability.md.
    max_vars: ClassVar[int | None] = None
    #: Measured memory per variable, quoted in the refusal.
    bytes_per_var: ClassVar[int] = 0

    def __init__(self, **options: Any) -> None:
        self.options = options

    @classmethod
    def available(cls) -> bool:
        return cls.module is None or importlib.util.find_spec(cls.module) is not None

    @classmethod
    def version(cls) -> str:
        return package_version(cls.distribution) if cls.distribution else ""

    @classmethod
    def check_var_count(cls, model: Model) -> None:
        """Raise :class:`BackendError` before allocating if ``model`` has too many variables.

        Examples
        --------
        >>> class Tiny(BackendBase):
        ...     name, max_vars, bytes_per_var = "tiny", 2, 100
        >>> m = Model(); xs = m.new_vars("x", 5)
        >>> Tiny.check_var_count(m)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        satrules.exceptions.BackendError: tiny: variable 5 is beyond the 2 variables this ...
        """
        n = model.n_vars
        if cls.max_vars is None or n <= cls.max_vars:
            return
        need = _human_bytes(n * cls.bytes_per_var) if cls.bytes_per_var else "too much memory"
        raise BackendError(
            f"{cls.name}: variable {n} is beyond the {cls.max_vars} variables this backend "
            f"accepts (engines allocate for every variable number up to the largest: about "
            f"{need} here); number the variables densely from 1"
        )

    @classmethod
    def require(cls) -> None:
        """Raise :class:`BackendUnavailableError` (naming the install line) if unavailable."""
        if not cls.available():
            raise BackendUnavailableError(
                f"backend {cls.name!r} needs {cls.module!r}, which is not installed: {cls.install}"
            )


def _human_bytes(n: int) -> str:
    for unit, size in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"


def check_time_limit(time_limit: float | None) -> float | None:
    """Return ``time_limit`` as positive finite seconds, or ``None`` for no limit.

    ``float("inf")`` means no limit (it once reached ``threading.Timer`` and the
    engines as an ``OverflowError`` in a thread, issue #12 row 10).  Zero,
    negative, NaN and non-numbers are refused.

    Raises
    ------
    EncodingError
        If ``time_limit`` is not ``None``, ``inf`` or a positive number.

    Examples
    --------
    >>> check_time_limit(float("inf")) is None, check_time_limit(2)
    (True, 2.0)
    """
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real) \
            or not time_limit > 0:
        raise EncodingError(f"time_limit must be positive seconds (or inf for no limit), "
                            f"got {time_limit!r}")
    return None if math.isinf(time_limit) else float(time_limit)


def stop_margin(time_limit: float) -> float:
    """Return how many seconds before ``time_limit`` an engine is asked to stop.

    One second, at most a tenth of the limit: engines stop only where they poll their
    clock, and HiGHS (up to 0.3 s, more in rarely polling phases) and CP-SAT (up to
    0.9 s under load) answered late when asked at the limit itself (issue 13).

    Examples
    --------
    >>> stop_margin(60.0), stop_margin(2.0)
    (1.0, 0.2)
    """
    return min(1.0, 0.1 * time_limit)


class EngineRun(threading.Event):
    """The event :func:`start_daemon` returns: set when the engine call has returned, and
    holding what it returned (``result``) or raised (``error``)."""

    def __init__(self) -> None:
        super().__init__()
        self.result: Any = None
        self.error: BaseException | None = None

    def outcome(self) -> Any:
        """Return the engine call's value, or raise its exception on the caller's thread
        (only once the event is set)."""
        if self.error is not None:
            raise self.error
        return self.result


def start_daemon(target: Callable[[], Any], name: str, stop: Callable[[], None],
                 wait_at_exit: bool = True) -> EngineRun:
    """Run the engine call ``target`` on a new daemon thread; return the event set when it
    has returned, which then holds its value or exception (:meth:`EngineRun.outcome`).
    ``stop()`` asks the engine to stop (from any thread); with ``wait_at_exit`` the
    interpreter waits for it at exit (:func:`_wait_for_engines`: C++ engines torn down
    while they run abort the process; RC2's SAT solvers do not, and a core RC2 cannot
    interrupt may run on for long).

    The event, not ``Thread.join``, tells whether the engine ended: in Python 3.11 a
    ``join`` cut short by Ctrl-C can leave the thread marked as ended while it still
    runs, and a second ``join`` then returns at once.
    """
    done = EngineRun()

    def run() -> None:
        try:
            done.result = target()
        except BaseException as exc:  # re-raised on the caller's thread by outcome()
            done.error = exc
        finally:
            with _RUNNING_LOCK:
                _RUNNING.pop(done, None)
                _WAIT_AT_EXIT.discard(done)
            done.set()

    with _RUNNING_LOCK:
        _RUNNING[done] = stop
        if wait_at_exit:
            _WAIT_AT_EXIT.add(done)
    try:
        threading.Thread(target=run, name=name, daemon=True).start()
    except BaseException:
        with _RUNNING_LOCK:
            _RUNNING.pop(done, None)
            _WAIT_AT_EXIT.discard(done)
        raise
    return done


def join_or_stop(done: threading.Event, timeout: float | None) -> bool:
    """Wait for an engine started by :func:`start_daemon`; return whether it ended.

    ``timeout`` is in seconds (``None``: until it ends).  The main thread waits here
    rather than inside the engine, so Ctrl-C (``KeyboardInterrupt``, or SIGTERM at the
    CLI) reaches Python at once even without a time limit.  Every engine still running
    is then asked to stop (:func:`stop_engines`: an interrupt stops the whole process's
    work, also the engine a ``staged`` stage runs on a thread of its own), this
    one is given :data:`INTERRUPT_GRACE` seconds to return, and the interrupt is
    re-raised.  A second Ctrl-C cuts that wait short.

    Examples
    --------
    >>> run = start_daemon(lambda: 42, "demo", stop=lambda: None)
    >>> join_or_stop(run, None), run.outcome()
    (True, 42)
    """
    try:
        return wait_awake(done.wait, timeout)
    except BaseException:
        stop_engines()
        done.wait(INTERRUPT_GRACE)
        raise


def wait_awake(wait_for: Callable[[float], T], timeout: float | None) -> T:
    """Call ``wait_for(step)`` with steps of :data:`SIGNAL_CHECK` seconds at most until it
    returns something true or ``timeout`` seconds (``None``: no limit) have passed.

    Return its last answer.  Python runs a signal handler (Ctrl-C's ``KeyboardInterrupt``)
    only in the main thread and between bytecodes: a blocking call is cut short only if
    the signal lands on the main thread while it is inside that call.  A SIGINT that
    landed on another thread, or on the main thread just before it entered the call,
    left the handler pending until the call returned -- a portfolio given ``time_limit=600``
    ignored Ctrl-C for ten minutes.  Waiting in steps bounds that delay.

    Examples
    --------
    >>> import threading
    >>> done = threading.Event(); timer = threading.Timer(0.3, done.set); timer.start()
    >>> wait_awake(done.wait, None)
    True
    >>> wait_awake(threading.Event().wait, 0.1)
    False
    """
    end = None if timeout is None else time.monotonic() + timeout
    while True:
        step = SIGNAL_CHECK if end is None else min(SIGNAL_CHECK, end - time.monotonic())
        answer = wait_for(max(step, 0.0))
        if answer or (end is not None and time.monotonic() >= end):
            return answer


def stop_engines() -> None:
    """Ask every engine started by :func:`start_daemon` and still running to stop."""
    with _RUNNING_LOCK:
        stops = list(_RUNNING.values())
    for stop in stops:
        stop()


#: the engine threads still running (:func:`start_daemon`): their ``done`` event and stop
_RUNNING: dict[threading.Event, Callable[[], None]] = {}
#: ... of which those the interpreter waits for at exit
_WAIT_AT_EXIT: set[threading.Event] = set()
_RUNNING_LOCK = threading.Lock()


@atexit.register
def _wait_for_engines() -> None:
    """At interpreter exit, give engines still running :data:`EXIT_GRACE` seconds to end.

    They were asked to stop (a time limit, Ctrl-C) but may be in a phase that checks
    rarely; an interpreter torn down under a running HiGHS or CP-SAT aborted ("terminate
    called without an active exception", exit code 134).
    """
    with _RUNNING_LOCK:
        pending = list(_WAIT_AT_EXIT)
    end = time.monotonic() + EXIT_GRACE
    for done in pending:
        done.wait(max(end - time.monotonic(), 0.0))


def package_version(distribution: str) -> str:
    """Return the installed version of a distribution, or ``""``."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return ""


def hint_values(model: Model, hint: Mapping[int | Hashable, bool] | None) -> dict[int, bool]:
    """Return a hint given by variable ids or semantic keys as ``{var: bool}``."""
    if not hint:
        return {}
    out = {}
    for k, v in hint.items():
        var = int(k) if isinstance(k, int) and not isinstance(k, bool) else model.var(k)
        out[var] = bool(v)
    return out


def parse_backend_specs(items: Sequence[Any] | None, *, owner: str,
                        default: Sequence[Any]) -> list[tuple[str, dict]]:
    """Return ``[(name, options), ...]`` for the backends a meta-backend runs.

    ``items`` holds names or ``(name, options)`` pairs; an explicitly named backend that is
    not installed raises :class:`BackendUnavailableError` (with its install line).  With
    ``items=None`` the installed ones of ``default`` are kept, possibly none.

    Examples
    --------
    >>> parse_backend_specs(["bruteforce", ("rc2", {"solver": "g4"})], owner="staged",
    ...                     default=())
    [('bruteforce', {}), ('rc2', {'solver': 'g4'})]
    """
    from satrules.backends.registry import BACKENDS, get_backend

    if isinstance(items, str):
        raise EncodingError(f"{owner}: expected a sequence of backend names, got the string "
                            f"{items!r}; write [{items!r}]")
    specs = []
    for item in default if items is None else items:
        name, opts = (item, {}) if isinstance(item, str) else (item[0], dict(item[1]))
        if name == owner or name not in BACKENDS:
            raise EncodingError(f"{owner}: {name!r} is not a registered backend "
                                f"(and a {owner} backend cannot contain itself)")
        if items is None:
            try:
                get_backend(name)
            except BackendError:  # defaults: keep what is installed
                continue
        else:
            get_backend(name)  # raises BackendUnavailableError with the install line
        specs.append((name, opts))
    return specs
