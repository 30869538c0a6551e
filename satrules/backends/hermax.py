"""hermax backend: native MaxSAT engines (UWrMaxSat, EvalMaxSAT, Open-WBO, ...) in process.

The model is lowered to hard clauses plus soft units (cardinalities and graphs
into clauses, non-unit soft clauses relaxed).  hermax's ``set_soft(lit, w)``
is last-wins, so soft units are first merged per literal by summing their
weights (the IR rule: identical softs add up); a variable soft in both
polarities pays ``min(w+, w-)`` whatever its value, so that part becomes a
constant offset and only the difference reaches the engine.

Time limits (ALGORITHMS.md §10: most engines raise ``NotImplementedError`` on
``solve(time_limit=...)``):

* engines with a terminate callback (UWrMaxSat, CASHWMaxSAT) run in process, on a
  thread of their own while the main thread waits where Ctrl-C reaches it, and stop at
  the limit (or at Ctrl-C) with their incumbent (``FEASIBLE``);
* every other engine runs, when a limit is given, in a child process killed at the
  limit (``UNKNOWN``: they report no incumbent; starting the child costs about a second
  of the budget on a loaded machine, 0.3 s on an idle one).  Without a limit the complete
  ones run in process;
* the incomplete engines (Loandra, Open-WBO-Inc, TT-Open-WBO-Inc) need a limit.  hermax
  runs each in a worker process of its own session, which outlived the caller: after a
  Ctrl-C, or when the caller was killed, it went on searching (for hours, seen).  They
  now run in the child too, so the worker is killed with the child at the limit and at
  Ctrl-C, and dies with it when the caller is killed (:func:`_workers_die_with_me`).
  hermax 1.2.10 keeps no incumbent of theirs when stopped (measured on three random
  models that none of them ends within 5 s), so they answer only when they end before
  the limit.

Incomplete engines can never claim ``OPTIMAL``: their OPTIMUM is downgraded to
``FEASIBLE`` (Open-WBO-Inc has been seen claiming OPTIMUM at cost 11 where the
optimum is 3).  Every answer is re-checked on the original model by
:func:`~satrules.ir.make_solution`, so a wrong cost claim or an assignment that
breaks a hard constraint raises :class:`~satrules.exceptions.BackendError`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import io
import json
import os
import signal
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from satrules.backends._child import DIE_WITH_PARENT_SOURCE
from satrules.backends._child import start as start_child
from satrules.backends.base import (
    SIGNAL_CHECK,
    BackendBase,
    check_time_limit,
    join_or_stop,
    start_daemon,
    wait_awake,
)
from satrules.exceptions import BackendError, EncodingError
from satrules.ir import Model, Solution, Status, make_solution
from satrules.ir.lowering import lower

__all__ = ["HermaxBackend", "ENGINES", "EngineSpec", "merge_soft_units", "DEFAULT_ENGINE"]

_INT64_MAX = np.iinfo(np.int64).max


@dataclass(frozen=True)
class EngineSpec:
    """Where a hermax engine class lives and how it can be stopped."""

    module: str
    cls: str
    complete: bool = True  # False: OPTIMUM claims are downgraded to FEASIBLE
    terminate: bool = False  # supports set_terminate (stops with an incumbent)
    worker: bool = False  # hermax runs it in a worker process (hermax.internal.subprocess_oneshot)

    def load(self) -> type:
        return getattr(importlib.import_module(self.module), self.cls)


#: Engine name -> spec.  Names are matched ignoring case, ``-`` and ``_``, so
#: ``engine="UWrMaxSAT"`` and ``engine="uwrmaxsat"`` are the same engine.
ENGINES: dict[str, EngineSpec] = {
    "uwrmaxsat": EngineSpec("hermax.incremental", "UWrMaxSAT", terminate=True),
    "cashwmaxsat": EngineSpec("hermax.non_incremental", "CASHWMaxSAT", terminate=True),
    "evalmaxsat": EngineSpec("hermax.incremental", "EvalMaxSAT"),
    "openwbo": EngineSpec("hermax.non_incremental", "OpenWBO"),
    "openwbo_oll": EngineSpec("hermax.non_incremental", "OpenWBOOLL"),
    "cgss": EngineSpec("hermax.non_incremental", "CGSS"),
    "wmaxcdcl": EngineSpec("hermax.non_incremental", "WMaxCDCL"),
    "loandra": EngineSpec("hermax.non_incremental.incomplete", "Loandra", complete=False,
                          worker=True),
    "openwbo_inc": EngineSpec("hermax.non_incremental.incomplete", "OpenWBOInc",
                              complete=False, worker=True),
    "tt_openwbo_inc": EngineSpec("hermax.non_incremental.incomplete", "TTOpenWBOInc",
                                 complete=False, worker=True),
}
#: The default engine (fastest complete engine in benchmarks/results/engines.md).
DEFAULT_ENGINE = "uwrmaxsat"

#: hermax SolveStatus code -> (status, whether an assignment comes with it).
_STATUS = {
    0: (Status.UNKNOWN, False),  # INTERRUPTED: stopped before any model
    10: (Status.FEASIBLE, True),  # INTERRUPTED_SAT: stopped with an incumbent
    20: (Status.UNSATISFIABLE, False),  # UNSAT
    30: (Status.OPTIMAL, True),  # OPTIMUM
    40: (Status.ERROR, False),  # ERROR
    60: (Status.UNKNOWN, False),  # UNKNOWN
}


def _normalise(name: str) -> str:
    return name.lower().replace("-", "").replace("_", "")


def resolve_engine(name: str) -> str:
    """Return the canonical engine name for ``name`` (case, ``-`` and ``_`` ignored)."""
    wanted = _normalise(name)
    for key in ENGINES:
        if _normalise(key) == wanted:
            return key
    raise EncodingError(f"unknown hermax engine {name!r}; choose one of {sorted(ENGINES)}")


def merge_soft_units(n_vars: int, lits: np.ndarray, weights: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, int]:
    """Merge soft units per literal; return ``(lits, weights, offset)``.

    Duplicate literals add up; a variable soft in both polarities keeps only
    the difference on the heavier side and ``min(w+, w-)`` moves to ``offset``
    (paid by every assignment).  The result is ordered by variable.

    Examples
    --------
    >>> lits, w, off = merge_soft_units(3, np.array([1, 1, -2, 2, -3]), np.array([2, 3, 4, 1, 5]))
    >>> lits.tolist(), w.tolist(), off
    ([1, -2, -3], [5, 3, 5], 1)
    """
    may_overflow = len(weights) and (
        weights.dtype == object or int(weights.max()) > _INT64_MAX // len(weights))
    if may_overflow and sum(int(w) for w in weights.tolist()) > _INT64_MAX:
        raise BackendError("hermax: soft weights sum beyond the 64-bit range the engines use")
    w = np.asarray(weights, dtype=np.int64)
    pos = np.zeros(n_vars + 1, dtype=np.int64)
    neg = np.zeros(n_vars + 1, dtype=np.int64)
    np.add.at(pos, lits[lits > 0], w[lits > 0])
    np.add.at(neg, -lits[lits < 0], w[lits < 0])
    both = np.minimum(pos, neg)
    offset = int(both.sum())
    pos -= both
    neg -= both
    var = np.arange(n_vars + 1, dtype=np.int64)
    out_lits = np.where(pos > 0, var, -var)
    out_w = pos + neg  # one of them is 0 after the subtraction
    keep = out_w > 0
    return out_lits[keep], out_w[keep], offset


def _lowered_arrays(model: Model) -> dict[str, Any]:
    """Return the clauses + merged soft units the engine sees, as plain arrays."""
    low = lower(model, keep={"clause", "soft"}, unit_soft=True)
    soft = low.soft
    lits, weights, offset = merge_soft_units(low.n_vars, soft.lits, soft.weights)
    hard = low.hard
    return {"n_vars": low.n_vars, "hard_lits": hard.lits, "hard_offsets": hard.offsets,
            "soft_lits": lits, "soft_weights": weights, "offset": offset}


def _run_engine(spec: EngineSpec, data: dict[str, Any], deadline: float | None,
                use_terminate: bool, stop: threading.Event | None = None
                ) -> tuple[int, int | None, list[int] | None]:
    """Build and solve one engine; return ``(status code, engine cost, model lits)``.

    ``deadline`` is a ``time.monotonic()`` instant fixed when the solve began, so
    the time spent lowering and loading clauses counts against the limit.  With
    ``use_terminate``, the engine's terminate callback ends the search at the deadline or
    once ``stop`` is set.
    """
    solver = spec.load()()
    try:
        lits = data["hard_lits"].tolist()
        bounds = data["hard_offsets"].tolist()
        for i in range(len(bounds) - 1):  # the engine API takes one clause per call
            solver.add_clause(lits[bounds[i]: bounds[i + 1]])
        for lit, weight in zip(data["soft_lits"].tolist(), data["soft_weights"].tolist(),
                               strict=True):
            solver.set_soft(lit, weight)
        if use_terminate and (deadline is not None or stop is not None):
            keep = _SigintKeeper()   # Python's SIGINT handler, as it is now

            def terminate() -> bool:
                keep.restore()   # the engine installs its own as its search starts
                return (stop is not None and stop.is_set()) or \
                    (deadline is not None and time.monotonic() > deadline)

            solver.set_terminate(terminate)
        solver.solve()
        code = int(solver.get_status())
        if not _STATUS.get(code, (Status.ERROR, False))[1]:
            return code, None, None
        return code, int(solver.get_cost()), [int(v) for v in solver.get_model()]
    finally:
        close = getattr(solver, "close", None)
        if close is not None:
            close()


def _run_stoppable(spec: EngineSpec, data: dict[str, Any], deadline: float | None
                   ) -> tuple[int, int | None, list[int] | None]:
    """:func:`_run_engine` for an engine with a terminate callback, on a daemon thread.

    The main thread waits in Python (:func:`~satrules.backends.base.join_or_stop`), so
    Ctrl-C reaches it, sets ``stop`` and the callback ends the search.  Before, the engine
    ran on the main thread and called the callback there: the ``KeyboardInterrupt`` was
    raised inside it, through the engine's C++ code -- UWrMaxSat died with SIGSEGV and
    CASHWMaxSAT went on searching -- and without a limit Ctrl-C waited for the proof.
    """
    stop = threading.Event()
    with _python_keeps_sigint():
        done = start_daemon(lambda: _run_engine(spec, data, deadline, True, stop),
                            "satrules-hermax", stop=stop.set)
        # the callback ends the search at the deadline; the engine's SIGINT handler,
        # installed as its search starts, is replaced by Python's at every step
        while not join_or_stop(done, SIGNAL_CHECK):
            _reinstall_sigint()
    return done.outcome()


class _SigintKeeper:
    """The process's C-level SIGINT action when made; :meth:`restore` puts it back.

    UWrMaxSat and CASHWMaxSAT install a SIGINT handler of their own as their search
    starts; a Ctrl-C that reached it killed the process (UWrMaxSat: SIGSEGV, or a silent
    exit) or was ignored (CASHWMaxSAT).  Their terminate callback, which runs on the
    engine's thread, puts Python's back with ``sigaction`` (thread-safe, unlike
    ``signal.signal``).  The action is kept as raw bytes, so no ``struct sigaction``
    layout is assumed; where there is no ``sigaction`` this does nothing.
    """

    def __init__(self) -> None:
        self._libc = self._saved = None
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            saved = ctypes.create_string_buffer(1024)   # larger than any struct sigaction
            if libc.sigaction(int(signal.SIGINT), None, saved) == 0:
                self._libc, self._saved = libc, saved
        except (OSError, AttributeError, ValueError):   # no libc sigaction (Windows)
            pass

    def restore(self) -> None:
        if self._libc is not None:
            self._libc.sigaction(int(signal.SIGINT), self._saved, None)


def _reinstall_sigint() -> None:
    """Give SIGINT back to Python's handler if an engine took it (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        return
    handler = signal.getsignal(signal.SIGINT)   # what Python set, whatever the C level has
    if handler is not None:
        signal.signal(signal.SIGINT, handler)


@contextlib.contextmanager
def _python_keeps_sigint():
    """Restore Python's SIGINT handler after an in-process engine ran.

    UWrMaxSat and CASHWMaxSAT install a SIGINT handler of their own when their search
    starts; CASHWMaxSAT leaves it in place, so that before, after one of its solves Ctrl-C
    no longer raised ``KeyboardInterrupt`` anywhere in the process.
    """
    try:
        yield
    finally:
        _reinstall_sigint()


_ARRAYS = ("hard_lits", "hard_offsets", "soft_lits", "soft_weights")


def _pack(data: dict[str, Any]) -> bytes:
    """Return the engine's clauses (:func:`_lowered_arrays`) as ``numpy.savez`` bytes:
    64-bit integers only (the merged weights fit, :func:`merge_soft_units`), no pickle.

    Examples
    --------
    >>> data = {"n_vars": 2, "hard_lits": np.array([1, -2]), "hard_offsets": np.array([0, 2]),
    ...         "soft_lits": np.array([-1]), "soft_weights": np.array([5]), "offset": 3}
    >>> back = _unpack(_pack(data))
    >>> back["n_vars"], back["soft_weights"].tolist(), back["offset"]
    (2, [5], 3)
    """
    buf = io.BytesIO()
    np.savez(buf, n_vars=np.array([data["n_vars"]], dtype=np.int64),
             offset=np.array([data["offset"]], dtype=np.int64),
             **{key: np.asarray(data[key], dtype=np.int64) for key in _ARRAYS})
    return buf.getvalue()


def _unpack(raw: bytes) -> dict[str, Any]:
    """Read :func:`_pack`'s bytes back (``allow_pickle=False``)."""
    with np.load(io.BytesIO(raw), allow_pickle=False) as z:
        data = {key: z[key] for key in _ARRAYS}
        data["n_vars"], data["offset"] = int(z["n_vars"][0]), int(z["offset"][0])
    return data


def _child_main(conn: Any, spec: dict) -> None:
    """Child process entry: read the clauses, solve in process, send the answer.

    The clauses arrive as :func:`_pack` bytes and the answer leaves as JSON: nothing
    crosses the pipe pickled.  The child leads a session of its own
    (:func:`satrules.backends._child.start`); when its parent is a portfolio member, the
    member's :func:`kill_process_tree` finds it as a descendant, and it dies with the
    member in any case (:func:`~satrules.backends._child.die_with_parent`).  The worker
    process a hermax incomplete engine starts is killed with the child
    (:func:`kill_process_tree`) and dies with it (:func:`_workers_die_with_me`).
    """
    try:
        if spec.get("worker"):
            _workers_die_with_me()
        data = _unpack(conn.recv_bytes())
        answer = ["ok", list(_run_engine(EngineSpec(**spec), data, None, False))]
    except Exception as exc:  # sent to the parent, which reports Status.ERROR
        answer = ["error", f"{type(exc).__name__}: {exc}"]
    try:
        conn.send_bytes(json.dumps(answer).encode())
    finally:
        conn.close()


#: What hermax's worker process runs when started by :func:`_workers_die_with_me`: ask
#: Linux to SIGKILL it when its parent (the engine's child process) dies, then hermax's
#: own worker.  It imports nothing of satrules, whose path the worker may not have.
_WORKER_BOOT = ("import runpy, sys\nparent = int(sys.argv.pop(1))\n" + DIE_WITH_PARENT_SOURCE
                + 'runpy.run_module("hermax.internal.solver_worker_main", run_name="__main__", '
                  "alter_sys=True)\n")


def _workers_die_with_me() -> None:
    """Have the worker processes hermax starts from now on die with this process.

    hermax runs its incomplete engines in a worker that leads a session of its own and
    outlived its parent: after a Ctrl-C (``subprocess`` leaves the worker running when
    ``communicate`` is interrupted) or when the parent was killed, it went on searching.
    Called only in the engine's child process (:func:`_child_main`), whose hermax module
    is its own: the worker command becomes :data:`_WORKER_BOOT`, which adds
    ``PR_SET_PDEATHSIG`` (the child runs the engine on its main thread, so the signal
    comes when the child ends).  A hermax whose worker command is not the one known is
    left as it is; the child's kill at the limit still reaches the worker
    (:func:`kill_process_tree`).
    """
    try:
        from hermax.internal import subprocess_oneshot as oneshot
    except ImportError:
        return
    known = getattr(oneshot, "_worker_cmd", None)
    command = known() if callable(known) else None
    if not command or command[1:] != ["-m", "hermax.internal.solver_worker_main"]:
        return
    me = str(os.getpid())
    oneshot._worker_cmd = lambda: [command[0], "-c", _WORKER_BOOT, me]


def _send_quietly(conn: Any, payload: bytes) -> None:
    # the child may be killed (or the pipe closed) before it reads everything
    with contextlib.suppress(OSError, ValueError, TypeError):
        conn.send_bytes(payload)


def _descendants(pid: int) -> list[int]:
    """Return the pids of all descendants of ``pid`` (Linux ``/proc``; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return []
    for entry in entries:
        fields = _stat_fields(entry)
        if fields is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kill_process_tree(proc: Any) -> None:
    """Kill a child process, every process it started, and its group if it leads one; reap it.

    The child is stopped first so that it starts nothing new while its
    descendants are collected; descendants are found through ``/proc``
    because some engines (hermax's incomplete ones) put their workers in a
    session of their own, out of reach of a process-group kill.  Returns once
    the killed descendants have ended too (at most 5 s more), not as soon as
    the signals are sent.
    """
    pid = proc.pid
    killed: list[int] = []
    if pid is not None and proc.is_alive():
        try:
            os.kill(pid, signal.SIGSTOP)
            for child in _descendants(pid):
                try:
                    os.kill(child, signal.SIGKILL)
                    killed.append(child)
                except (ProcessLookupError, PermissionError):
                    pass
            if os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    if proc.is_alive():
        proc.kill()
    proc.join(5)
    # a descendant is not ours to reap: wait until the kernel has ended it, so that the
    # call returns with nothing of it running (a loaded machine may take a moment)
    deadline = time.monotonic() + 5.0
    while killed and time.monotonic() < deadline:
        killed = [child for child in killed if _running(child)]
        if killed:
            time.sleep(0.01)


def _stat_fields(pid: int | str) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state, parent pid, ...),
    or None when the process is gone (or there is no ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            stat = fh.read()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()


def _running(pid: int) -> bool:
    """True while ``pid`` is a process that has not ended (a zombie has; Linux ``/proc``)."""
    fields = _stat_fields(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def _run_in_child(spec: EngineSpec, data: dict[str, Any], deadline: float
                  ) -> tuple[str, Any]:
    """Run the engine in a child process; kill it (and all it started) at the limit.

    The clauses go through the pipe from a thread (as :func:`_pack` bytes; the answer
    comes back as JSON): a large payload would block
    the writer until the child has started and reads it, and a slow start must
    not push the answer past the limit.
    """
    # never re-runs the caller's script; the spec travels as its fields
    proc, parent = start_child(_child_main, (dataclasses.asdict(spec),))
    sender = None
    try:   # from here on a KeyboardInterrupt (or SIGTERM at the CLI) still kills the child
        thread = threading.Thread(target=_send_quietly, args=(parent, _pack(data)),
                                  daemon=True)
        thread.start()
        sender = thread
        if wait_awake(parent.poll, max(deadline - time.monotonic(), 0.0)):
            try:
                kind, payload = json.loads(parent.recv_bytes())
                return kind, payload
            except (EOFError, ConnectionError):  # closed, or reset by a child that died
                proc.join(1)
                return "error", f"the engine process died (exit code {proc.exitcode})"
        return "timeout", None
    finally:
        kill_process_tree(proc)
        if sender is not None:
            sender.join(5)  # the dead child's pipe makes a pending send fail at once
        parent.close()


class HermaxBackend(BackendBase):
    """Solve IR models with a MaxSAT engine from the ``hermax`` wheel.

    Parameters
    ----------
    engine : str
        One of :data:`ENGINES` (default ``"uwrmaxsat"``); case, ``-`` and
        ``_`` are ignored, so hermax's class names work too.

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); x, y = m.new_var("x"), m.new_var("y")
    >>> m.add_hard([x, y]); m.add_soft([-x], 2); m.add_soft([-y], 1); m.add_soft([-y], 2)
    >>> sol = HermaxBackend(engine="UWrMaxSAT").solve(m)
    >>> sol.status.value, sol.cost, sol["x"]
    ('OPTIMAL', 2, True)
    """

    name = "hermax"
    native = frozenset({"clause", "soft"})
    max_vars = 2**24  # measured: about 270 bytes per variable (docs/reliability.md)
    bytes_per_var = 270
    install = 'pip install "satrules[hermax]"'
    module = "hermax"
    distribution = "hermax"

    def __init__(self, *, engine: str = DEFAULT_ENGINE) -> None:
        super().__init__(engine=engine)
        self.engine = resolve_engine(engine)

    def solve(self, model: Model, *, time_limit: float | None = None, seed: int | None = None,
              hint: Mapping | None = None) -> Solution:
        """Solve ``model``; ``seed`` and ``hint`` are ignored (no hermax engine takes them)."""
        time_limit = check_time_limit(time_limit)  # inf: no limit
        self.check_var_count(model)  # before any per-variable allocation
        self.require()
        spec = ENGINES[self.engine]
        if not spec.complete and time_limit is None:
            raise BackendError(
                f"hermax engine {self.engine!r} is incomplete (anytime) and never stops by "
                "itself; give a time_limit"
            )
        start = time.perf_counter()
        deadline = None if time_limit is None else time.monotonic() + time_limit
        data = _lowered_arrays(model)
        common = dict(backend=self.name, engine=f"hermax.{spec.cls}",
                      engine_version=self.version(),
                      options={"engine": self.engine, "time_limit": time_limit})
        in_child = time_limit is not None and not spec.terminate
        if not len(data["hard_offsets"]) > 1 and not len(data["soft_lits"]):
            # nothing to decide (some engines, e.g. CGSS, call an empty formula UNSAT)
            kind, payload = "ok", (30, 0, [])
        elif in_child:
            kind, payload = _run_in_child(spec, data, deadline)
        else:
            try:
                if spec.terminate:
                    kind, payload = "ok", _run_stoppable(spec, data, deadline)
                else:
                    with _python_keeps_sigint():
                        kind, payload = "ok", _run_engine(spec, data, deadline, False)
            except NotImplementedError as exc:
                kind, payload = "error", f"{type(exc).__name__}: {exc}"
        wall = time.perf_counter() - start
        if kind == "timeout":
            why = ("hermax keeps no incumbent of an incomplete engine stopped by its time "
                   "limit" if spec.worker else "it has no anytime interface")
            return make_solution(model, Status.UNKNOWN, wall_time=wall, message=(
                f"time limit {time_limit} s: {spec.cls} was stopped without an incumbent "
                f"({why})"), **common)
        if kind == "error":
            return make_solution(model, Status.ERROR, wall_time=wall, message=payload, **common)
        return self._answer(model, spec, data, payload, wall, common)

    def _answer(self, model: Model, spec: EngineSpec, data: dict[str, Any],
                payload: tuple, wall: float, common: dict) -> Solution:
        code, cost, lits = payload
        status, has_model = _STATUS.get(code, (Status.ERROR, False))
        message = f"hermax status {code}"
        if not has_model:
            return make_solution(model, status, wall_time=wall, message=message, **common)
        if status is Status.OPTIMAL and not spec.complete:
            status = Status.FEASIBLE
            message += "; incomplete engine: optimality not proven"
        values = np.zeros(model.n_vars + 1, dtype=bool)
        arr = np.asarray(lits, dtype=np.int64)
        arr = arr[(arr > 0) & (arr <= model.n_vars)]
        values[arr] = True
        # the engine's cost is over the lowered model: an incumbent may pay for a relaxation
        # variable whose clause holds, so only an optimum's cost must equal the IR's
        return make_solution(model, status, values, reported_cost=cost + data["offset"],
                             wall_time=wall, message=message,
                             check_reported_cost=status is Status.OPTIMAL, **common)
