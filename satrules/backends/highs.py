"""HiGHS backend: the IR as a 0-1 integer program solved by ``highspy``.

Formulation (ALGORITHMS.md §1, issue 6): one binary column per model
variable, a literal ``x`` is the column ``x`` and ``not x`` is ``1 - x``.

* hard clause ``C``: ``sum(lit in C) >= 1``;
* soft unit ``(lit, w)``: objective ``w * (1 - lit)`` (no extra column);
* soft clause ``(C, w)`` with two or more literals: a binary relaxation column
  ``r`` with cost ``w`` and the row ``sum(lit in C) + r >= 1``;
* cardinality ``sum(lits) op k``: one row;
* graph constraint: one row ``a + b <= 1`` per edge (``graph="pairwise"``) or
  one row ``sum(lits in Q) <= 1`` per clique ``Q`` of the greedy edge-clique
  cover :func:`satrules.ir.lowering.clique_cover` (``graph="clique"``, the
  default: tighter in the LP relaxation and smaller).

"OPTIMAL" means exactly optimal: the relative gap tolerance is 0 and the
absolute one 0.99, so with integer weights the proven bound and the incumbent
differ by less than one and the bound rounds up to the incumbent.  The bound
is reported as ``Solution.lower_bound`` (rounded up); if it does not meet the
cost, :func:`~satrules.ir.make_solution` withdraws the optimality claim.
Objective coefficients are doubles, so models whose soft weights sum to more
than ``2**53`` are refused.

With a time limit (counted from the call: building the MIP is spent from it) HiGHS
runs on a daemon thread with interrupt callbacks that stop it where it polls them;
some phases (root cut separation, the feasibility-jump heuristic, presolve) poll
rarely and overran a 5 s limit by 5 s, and even a polled stop ends up to 0.3 s
late (the 36k-row CDPRL model, issue 13).  So HiGHS is told to stop a grace period
(1 s, at most a tenth of the limit) before the limit, and the answer is taken at
the limit less a small reserve for reading and checking it (0.25 s, at most 5 %):
from HiGHS's own result when it has stopped, otherwise from the last incumbent it
reported (FEASIBLE) or UNKNOWN, while HiGHS ends on its thread when its phase
does (issue #12 row 12).  The whole call thus ends within the limit up to the
time to check the answer.  Without a limit HiGHS runs on the thread as well, so that
Ctrl-C reaches the main thread at once and stops HiGHS at its next poll
(:func:`~satrules.backends.base.join_or_stop`).
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from satrules.backends.base import (
    BackendBase,
    check_time_limit,
    hint_values,
    join_or_stop,
    start_daemon,
    stop_margin,
)
from satrules.exceptions import BackendError, EncodingError
from satrules.ir import Model, Solution, Status, make_solution
from satrules.ir.constraints import KINDS, literal_values
from satrules.ir.lowering import clique_cover

__all__ = ["HiGHSBackend", "MIP", "build_mip", "MAX_WEIGHT_SUM"]

#: Largest total soft weight HiGHS can represent exactly (doubles).
MAX_WEIGHT_SUM = 2**53
#: Absolute MIP gap: below 1, so an integer objective is proven exactly optimal.
_ABS_GAP = 0.99
#: HiGHS ``presolve_rule_off`` bit of the probing rule (see _options).
_NO_PROBING = 2**15
_INF = math.inf
_BANNER_LOCK = threading.Lock()
_banner_done = False

#: HiGHS model status name -> (status with an incumbent, status without one).
_STATUS = {
    "kOptimal": (Status.OPTIMAL, Status.UNKNOWN),
    "kInfeasible": (Status.UNSATISFIABLE, Status.UNSATISFIABLE),
    # every column is bounded, so "unbounded or infeasible" can only be infeasible
    "kUnboundedOrInfeasible": (Status.UNSATISFIABLE, Status.UNSATISFIABLE),
    "kTimeLimit": (Status.FEASIBLE, Status.UNKNOWN),
    "kIterationLimit": (Status.FEASIBLE, Status.UNKNOWN),
    "kSolutionLimit": (Status.FEASIBLE, Status.UNKNOWN),
    "kInterrupt": (Status.FEASIBLE, Status.UNKNOWN),
    "kHighsInterrupt": (Status.FEASIBLE, Status.UNKNOWN),
    "kMemoryLimit": (Status.FEASIBLE, Status.UNKNOWN),
    "kObjectiveBound": (Status.FEASIBLE, Status.UNKNOWN),
    "kObjectiveTarget": (Status.FEASIBLE, Status.UNKNOWN),
    "kUnknown": (Status.FEASIBLE, Status.UNKNOWN),
}


@dataclass
class MIP:
    """A 0-1 program ``min cost @ x + offset`` s.t. ``row_lower <= A x <= row_upper``.

    ``A`` is row-wise CSR (``start``, ``index``, ``value``); columns
    ``0..n_vars-1`` are the model's variables ``1..n_vars`` and the rest are
    relaxation columns of the non-unit soft clauses listed in ``relaxed``.
    """

    n_vars: int
    cost: np.ndarray
    offset: float
    row_lower: np.ndarray
    row_upper: np.ndarray
    start: np.ndarray
    index: np.ndarray
    value: np.ndarray
    relaxed: np.ndarray  # soft-clause positions owning the relaxation columns

    @property
    def n_cols(self) -> int:
        return len(self.cost)

    @property
    def n_rows(self) -> int:
        return len(self.row_lower)


class _Rows:
    """Accumulates linear rows over literals as COO triples plus bounds."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []
        self.cols: list[np.ndarray] = []
        self.vals: list[np.ndarray] = []
        self.lower: list[np.ndarray] = []
        self.upper: list[np.ndarray] = []
        self.n = 0

    def add(self, lits: np.ndarray, offsets: np.ndarray, lower: np.ndarray,
            upper: np.ndarray) -> None:
        """Add ``lower <= sum(lits of row) <= upper`` per CSR row (negatives as ``1 - x``)."""
        n_rows = len(offsets) - 1
        if n_rows == 0:
            return
        lens = np.diff(offsets)
        row = np.repeat(np.arange(n_rows, dtype=np.int64), lens)
        neg = lits < 0
        n_neg = np.bincount(row[neg], minlength=n_rows).astype(float)
        self.rows.append(row + self.n)
        self.cols.append(np.abs(lits) - 1)
        self.vals.append(np.where(neg, -1.0, 1.0))
        self.lower.append(np.asarray(lower, dtype=float) - n_neg)
        self.upper.append(np.asarray(upper, dtype=float) - n_neg)
        self.n += n_rows

    def csr(self, n_cols: int) -> tuple[np.ndarray, ...]:
        from scipy.sparse import coo_matrix

        if not self.n:
            empty = np.zeros(0)
            return empty, empty, np.zeros(1, dtype=np.int32), np.zeros(0, dtype=np.int32), empty
        rows, cols = np.concatenate(self.rows), np.concatenate(self.cols)
        mat = coo_matrix((np.concatenate(self.vals), (rows, cols)), shape=(self.n, n_cols)).tocsr()
        mat.sum_duplicates()  # x or x counts twice; x or not x cancels to a constant
        mat.eliminate_zeros()
        return (np.concatenate(self.lower), np.concatenate(self.upper),
                mat.indptr.astype(np.int32), mat.indices.astype(np.int32),
                mat.data.astype(float))


def _graph_rows(model: Model, graph: str) -> tuple[np.ndarray, np.ndarray]:
    """Return the at-most-one rows of all graph constraints as CSR literals."""
    parts: list[np.ndarray] = []
    for g in model.graphs:
        lits = np.asarray(g.lits, dtype=np.int64)
        if not len(g.edges):
            continue
        if graph == "pairwise":
            parts.extend(g.edge_literals())
        else:
            parts.extend(lits[clique] for clique in clique_cover(len(lits), g.edges))
    lens = np.fromiter((len(p) for p in parts), dtype=np.int64, count=len(parts))
    offsets = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    flat = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return flat, offsets


def build_mip(model: Model, graph: str = "clique") -> MIP:
    """Return the 0-1 program of ``model`` (see the module docstring).

    Examples
    --------
    >>> m = Model(); x, y = m.new_var("x"), m.new_var("y")
    >>> m.add_hard([x, -y]); m.add_soft([x, y], 3); m.add_soft([-x], 2)
    >>> mip = build_mip(m)
    >>> mip.n_cols, mip.n_rows, mip.cost.tolist(), mip.offset
    (3, 2, [2.0, 0.0, 3.0], 0.0)
    """
    if graph not in ("clique", "pairwise"):
        raise EncodingError(f"graph must be 'clique' or 'pairwise', got {graph!r}")
    n = model.n_vars
    soft = model.soft
    weights = np.asarray(soft.weights.tolist(), dtype=float) if len(soft) else np.zeros(0)
    lengths = soft.lengths
    unit = lengths == 1
    relaxed = np.flatnonzero(~unit)
    cost = np.zeros(n + len(relaxed))
    # soft unit (lit, w) costs w * (1 - lit): +w on x for "not x", -w on x plus w for "x"
    unit_lits = soft.lits[soft.offsets[:-1][unit]]
    unit_w = weights[unit]
    np.add.at(cost, np.abs(unit_lits) - 1, np.where(unit_lits < 0, unit_w, -unit_w))
    offset = float(unit_w[unit_lits > 0].sum())
    cost[n:] = weights[relaxed]
    rows = _Rows()
    hard = model.hard
    rows.add(hard.lits, hard.offsets, np.ones(len(hard)), np.full(len(hard), _INF))
    _add_relaxed_rows(rows, soft, relaxed, n)
    _add_cardinality_rows(rows, model)
    flat, offsets = _graph_rows(model, graph)
    n_amo = len(offsets) - 1
    rows.add(flat, offsets, np.full(n_amo, -_INF), np.ones(n_amo))
    lower, upper, start, index, value = rows.csr(len(cost))
    return MIP(n, cost, offset, lower, upper, start, index, value, relaxed)


def _add_relaxed_rows(rows: _Rows, soft: Any, relaxed: np.ndarray, n: int) -> None:
    """Soft clause ``(C, w)``: ``sum(C) + r >= 1`` with relaxation column ``r``."""
    if not len(relaxed):
        return
    lens = soft.lengths[relaxed]
    starts = soft.offsets[:-1][relaxed]
    new_offsets = np.zeros(len(relaxed) + 1, dtype=np.int64)
    np.cumsum(lens + 1, out=new_offsets[1:])
    flat = np.empty(int(new_offsets[-1]), dtype=np.int64)
    rep = np.repeat(np.arange(len(relaxed)), lens)
    within = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
    flat[new_offsets[:-1][rep] + within] = soft.lits[starts[rep] + within]
    # relaxation columns are numbered after the variables: literal n + 1 + j is column n + j
    flat[new_offsets[1:] - 1] = n + 1 + np.arange(len(relaxed))
    rows.add(flat, new_offsets, np.ones(len(relaxed)), np.full(len(relaxed), _INF))


def _add_cardinality_rows(rows: _Rows, model: Model) -> None:
    cards = model.cardinalities
    if not cards:
        return
    lens = np.fromiter((len(c.lits) for c in cards), dtype=np.int64, count=len(cards))
    offsets = np.zeros(len(cards) + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    flat = np.fromiter((lit for c in cards for lit in c.lits), dtype=np.int64,
                       count=int(lens.sum()))
    bound = np.array([c.bound for c in cards], dtype=float)
    is_le = np.array([c.op == "<=" for c in cards])
    is_ge = np.array([c.op == ">=" for c in cards])
    lower = np.where(is_le, -_INF, bound)
    upper = np.where(is_ge, _INF, bound)
    rows.add(flat, offsets, lower, upper)


def _construct_silently(highspy: Any, log: bool) -> Any:
    """Return ``highspy.Highs()``, hiding the banner the first construction prints.

    HiGHS writes its banner from C++ to file descriptor 1 in the constructor,
    before any option can be set, and only once per process; redirecting the
    descriptor around that first call is the only way to keep ``log=False`` quiet.
    """
    global _banner_done
    with _BANNER_LOCK:
        if _banner_done or log:
            _banner_done = True
            return highspy.Highs()
        sys.stdout.flush()
        saved = os.dup(1)
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 1)
                h = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        _banner_done = True
        return h


class HiGHSBackend(BackendBase):
    """Solve IR models as 0-1 integer programs with HiGHS.

    Parameters
    ----------
    graph : {"clique", "pairwise"}
        Rows for graph constraints: one per clique of a greedy edge-clique
        cover (default; tighter LP) or one per edge.
    threads : int
        HiGHS threads (default 1; results are reproducible with 1 thread and
        a fixed seed when no time limit cuts the search).
    log : bool
        Show HiGHS output (default False: silent).
    progress : callable, optional
        Called as ``progress(cost, bound, nodes, seconds)`` while HiGHS runs its MIP
        search, from HiGHS's thread, at each poll of its interrupt callback: the
        incumbent's cost (``None`` before the first), HiGHS's proven lower bound on the
        cost (``None`` before the first), the branch-and-bound nodes and HiGHS's run time.
        What :class:`~satrules.CDPRClassifier` shows on a terminal while it proves a
        selection optimal.  An exception it raises is ignored (a display must not end a
        solve).
    **options
        Further HiGHS options by name (e.g. ``presolve="off"``).

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); xs = m.new_vars("x", 3)
    >>> m.add_graph(xs, [[0, 1], [1, 2], [0, 2]]); m.add_soft_units(xs, [1, 2, 3])
    >>> sol = HiGHSBackend().solve(m)
    >>> sol.status.value, sol.cost
    ('OPTIMAL', 3)
    """

    name = "highs"
    native = KINDS
    max_vars = 2**24  # measured: about 450 bytes per variable (docs/reliability.md)
    bytes_per_var = 450
    install = 'pip install highspy   (a satrules dependency: pip install satrules)'
    module = "highspy"
    distribution = "highspy"

    def __init__(self, *, graph: str = "clique", threads: int = 1, log: bool = False,
                 progress: Callable[..., Any] | None = None, **options: Any) -> None:
        super().__init__(graph=graph, threads=threads, log=log, **options)
        if graph not in ("clique", "pairwise"):
            raise EncodingError(f"graph must be 'clique' or 'pairwise', got {graph!r}")
        if progress is not None and not callable(progress):
            raise EncodingError(f"highs: progress must be callable, got {progress!r}")
        self.graph, self.threads, self.log = graph, int(threads), bool(log)
        self.progress = progress
        self.extra = options

    def solve(self, model: Model, *, time_limit: float | None = None, seed: int | None = None,
              hint: Mapping | None = None) -> Solution:
        start = time.perf_counter()  # the limit covers everything below (issue #12 row 12)
        time_limit = check_time_limit(time_limit)  # inf: no limit
        self.check_var_count(model)  # before any per-variable allocation
        self.require()
        import highspy

        total = model.soft_weight_sum()
        if total > MAX_WEIGHT_SUM:
            raise BackendError(
                f"highs: the soft weights sum to {total} > 2**53, outside the range of "
                "integers a double holds exactly; use a MaxSAT backend (rc2, hermax) instead."
            )
        mip = build_mip(model, self.graph)
        h = _construct_silently(highspy, self.log)
        opts = self._options(time_limit, seed)
        for key, val in opts.items():
            if h.setOptionValue(key, val) != highspy.HighsStatus.kOk:
                raise BackendError(f"highs: cannot set option {key}={val!r}")
        h.passModel(_to_lp(highspy, mip))
        if hint:
            h.setSolution(_hint_solution(highspy, model, mip, hint_values(model, hint)))
        watch = _Watch(*(_deadlines(start, time_limit) if time_limit is not None
                         else (_INF, None)), progress=self.progress)
        if not _run_watched(h, watch):
            return self._overrun_answer(model, mip, watch, opts, start)
        answer = self._answer(model, h, mip, opts, start, started=bool(hint))
        if answer is not None:
            return answer
        # HiGHS 1.16 can return a start solution as optimal with an objective below its
        # own cost (tests/backends/test_highs.py, the pooled rules of three IMLI fits):
        # the claim is false, so solve again without the start, in the time left
        h.clearSolver()
        h.passModel(_to_lp(highspy, mip))
        if _run_watched(h, watch):
            return self._answer(model, h, mip, opts, start)
        return self._overrun_answer(model, mip, watch, opts, start)

    def _options(self, time_limit: float | None, seed: int | None) -> dict[str, Any]:
        opts: dict[str, Any] = {
            "output_flag": self.log,
            "mip_rel_gap": 0.0,
            "mip_abs_gap": _ABS_GAP,
            "threads": self.threads,
        }
        if time_limit is not None:
            opts["time_limit"] = float(time_limit)
            # presolve probing checks the clock too rarely: on an IMLI encoding (15,735
            # rows) it ran 8.4 s past a 5 s limit; rule 2**15 switches probing off
            opts["presolve_rule_off"] = _NO_PROBING
        if seed is not None:
            opts["random_seed"] = int(seed) % (2**31 - 1)
        opts.update(self.extra)
        return opts

    def _answer(self, model: Model, h: Any, mip: MIP, opts: dict, start: float,
                started: bool = False) -> Solution | None:
        """The solution HiGHS holds; None when it ``started`` from a hint and claims an
        optimum whose objective is not the cost of its assignment (a false claim)."""
        status_name = h.getModelStatus().name
        info = h.getInfo()
        has_point = info.primal_solution_status == 2  # kSolutionStatusFeasible
        common = dict(backend=self.name, engine="HiGHS MIP", engine_version=self.version(),
                      options={**opts, "graph": self.graph})
        if status_name == "kModelEmpty":
            status_name, has_point = "kOptimal", True
        if status_name not in _STATUS:
            return make_solution(model, Status.ERROR, wall_time=time.perf_counter() - start,
                                 message=f"HiGHS model status {status_name}", **common)
        with_point, without = _STATUS[status_name]
        status = with_point if has_point else without
        wall = time.perf_counter() - start
        if not status.is_feasible:
            return make_solution(model, status, wall_time=wall,
                                 message=f"HiGHS model status {status_name}", **common)
        values = _column_values(model, mip, h.getSolution().col_value)
        reported = round(info.objective_function_value) if mip.n_cols else 0
        if started and status is Status.OPTIMAL and reported != model.cost(values):
            return None
        bound = info.mip_dual_bound if mip.n_cols else float(reported)
        # an incumbent short of optimal may keep a relaxation column at 1 although its
        # clause is satisfied: its objective is then above the IR cost, which is no error
        return make_solution(model, status, values,
                             reported_cost=reported if status is Status.OPTIMAL else None,
                             lower_bound=_lower_bound(model, values, bound), wall_time=wall,
                             message=f"HiGHS model status {status_name}; objective {reported}",
                             **common)

    def _overrun_answer(self, model: Model, mip: MIP, watch: _Watch, opts: dict,
                        start: float) -> Solution:
        """Answer from the last incumbent HiGHS reported, while it finishes in the background."""
        common = dict(backend=self.name, engine="HiGHS MIP", engine_version=self.version(),
                      options={**opts, "graph": self.graph})
        message = ("HiGHS overran the time limit it was given (the limit less a grace "
                   "period) in a phase that does not check its clock; answered with its last "
                   "incumbent (the engine stops in a background thread)")
        wall = time.perf_counter() - start
        if watch.best is None:
            return make_solution(model, Status.UNKNOWN, wall_time=wall, message=message,
                                 **common)
        values = _column_values(model, mip, watch.best)
        return make_solution(model, Status.FEASIBLE, values,
                             lower_bound=_lower_bound(model, values, watch.bound),
                             wall_time=wall, message=message, **common)


#: HiGHS is told to stop :func:`~satrules.backends.base.stop_margin` before the limit (1 s, at
#: most a tenth of it): its root cut separation, heuristics and presolve check the clock
#: too rarely (5 s overruns, issue #12 row 12), and a polled stop still took up to 0.3 s
#: (issue 13).
#: Seconds before the limit (at most _ANSWER_SHARE of it) kept for reading and checking
#: the answer (0.04-0.07 s on the 36k-row, 1.66M-nonzero CDPRL model of issue 13).
_ANSWER_RESERVE = 0.25
_ANSWER_SHARE = 0.05


def _deadlines(start: float, time_limit: float) -> tuple[float, float]:
    """Return ``(stop, answer_by)``: when HiGHS is told to stop, when the answer is taken.

    Examples
    --------
    >>> _deadlines(100.0, 60.0), _deadlines(0.0, 2.0)
    ((159.0, 159.75), (1.8, 1.9))
    """
    stop = start + time_limit - stop_margin(time_limit)
    answer_by = start + time_limit - min(_ANSWER_RESERVE, _ANSWER_SHARE * time_limit)
    return stop, answer_by


class _Watch:
    """What HiGHS's callbacks (run on its thread) report: the last incumbent and the bound."""

    def __init__(self, deadline: float, answer_by: float | None,
                 progress: Callable[..., Any] | None = None) -> None:
        self.deadline = deadline  # time.perf_counter() value: HiGHS is stopped from then
        self.answer_by = answer_by  # the answer is taken then, whether HiGHS stopped or not
        # (None: no limit; HiGHS runs until it ends or a KeyboardInterrupt stops it)
        self.best: np.ndarray | None = None
        self.bound = -_INF
        self.progress = progress

    def subscribe(self, h: Any) -> None:
        """Subscribe to the callbacks of ``h`` that stop it and report incumbents."""
        h.cbMipImprovingSolution.subscribe(self.improving)
        for callback in (h.cbMipInterrupt, h.cbSimplexInterrupt, h.cbIpmInterrupt):
            callback.subscribe(self.interrupt)
        if self.progress is not None:
            h.cbMipInterrupt.subscribe(self.report)

    def report(self, event: Any) -> None:
        """Pass the MIP search's state to ``progress`` (see :class:`HiGHSBackend`)."""
        out = event.data_out
        cost, bound = float(out.mip_primal_bound), float(out.mip_dual_bound)
        with contextlib.suppress(Exception):   # a display must not end the solve
            self.progress(round(cost) if math.isfinite(cost) else None,
                          bound if math.isfinite(bound) else None,
                          int(out.mip_node_count), float(out.running_time))

    def stop(self) -> None:
        """Stop HiGHS at its next poll (Ctrl-C)."""
        self.deadline = -_INF

    def interrupt(self, event: Any) -> None:
        if time.perf_counter() > self.deadline:
            event.interrupt()

    def improving(self, event: Any) -> None:
        out = event.data_out
        self.best = np.array(out.mip_solution, dtype=float)
        self.bound = float(out.mip_dual_bound)


def _run_watched(h: Any, watch: _Watch) -> bool:
    """Run HiGHS on a thread until ``watch.answer_by``; False if it is still running.

    HiGHS releases the GIL while it runs; the interrupt callbacks stop it at the next
    point where it polls them, and the incumbent callback keeps the answer at hand.
    Without a limit HiGHS runs on the thread all the same: the main thread then waits
    in Python, where Ctrl-C reaches it (HiGHS run on the main thread let a Ctrl-C wait
    until the proof ended, minutes on large CDPRL models).
    """
    watch.subscribe(h)
    return run_on_thread(h, watch)


def run_on_thread(h: Any, watch: _Watch) -> bool:
    """Run ``h`` (already :meth:`_Watch.subscribe`-d) on a thread, as :func:`_run_watched`."""
    if watch.answer_by is not None:
        # HiGHS's own limit counts from here: building and passing the model are spent
        h.setOptionValue("time_limit", max(watch.deadline - time.perf_counter(), 0.01))
    done = start_daemon(h.run, "satrules-highs", stop=watch.stop)
    if not join_or_stop(done, None if watch.answer_by is None
                        else max(watch.answer_by - time.perf_counter(), 0.0)):
        return False
    done.outcome()   # an exception of HiGHS's run, raised here
    return True


def _column_values(model: Model, mip: MIP, col_value: Any) -> np.ndarray:
    values = np.zeros(model.n_vars + 1, dtype=bool)
    values[1:] = np.asarray(col_value, dtype=float)[: mip.n_vars] > 0.5
    return values


def _lower_bound(model: Model, values: np.ndarray, bound: float) -> int | None:
    """The integer bound implied by HiGHS's, never above the incumbent's cost."""
    if not math.isfinite(bound):
        return None
    return max(min(integer_bound(bound), model.cost(values)), 0)


def integer_bound(bound: float) -> int:
    """Return the integer lower bound implied by HiGHS's double ``bound`` on an integer objective.

    The bound may carry float noise either way.  Noise below an integer is removed
    by rounding up; a fractional part of at most ``slack`` above an integer is
    taken as noise.  The slack is capped at 0.25, and the comparison is exact
    (``bound - floor(bound)`` is exact for doubles): the former
    ``ceil(bound - 1e-6 - 4 * ulp(bound))`` subtracted 1 or more from ``2**50`` on,
    and near ``2**52`` ``bound - 0.5`` itself rounds to an even neighbour, so exact
    bounds such as ``2**50`` came back as ``2**50 - 1`` and withdrew a correct
    optimality claim (issue #12, row 4).

    Examples
    --------
    >>> integer_bound(2.0**50), integer_bound(2.0**52 + 1), integer_bound(7.0000000001)
    (1125899906842624, 4503599627370497, 7)
    >>> integer_bound(6.9999999), integer_bound(6.4)
    (7, 7)
    """
    slack = min(0.25, 1e-6 + 4 * math.ulp(bound))
    whole = math.floor(bound)
    return whole if bound - whole <= slack else whole + 1


def _to_lp(highspy: Any, mip: MIP) -> Any:
    lp = highspy.HighsLp()
    lp.num_col_ = mip.n_cols
    lp.num_row_ = mip.n_rows
    lp.col_cost_ = mip.cost
    lp.offset_ = mip.offset
    lp.col_lower_ = np.zeros(mip.n_cols)
    lp.col_upper_ = np.ones(mip.n_cols)
    lp.row_lower_ = mip.row_lower
    lp.row_upper_ = mip.row_upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_ = mip.n_cols
    lp.a_matrix_.num_row_ = mip.n_rows
    lp.a_matrix_.start_ = mip.start
    lp.a_matrix_.index_ = mip.index
    lp.a_matrix_.value_ = mip.value
    lp.integrality_ = [highspy.HighsVarType.kInteger] * mip.n_cols
    return lp


def _hint_solution(highspy: Any, model: Model, mip: MIP, hint: dict[int, bool]) -> Any:
    """Return a full column vector from a partial hint (unhinted variables false)."""
    values = np.zeros(model.n_vars + 1, dtype=bool)
    for var, val in hint.items():
        if 1 <= var <= model.n_vars:
            values[var] = val
    col = np.zeros(mip.n_cols)
    col[: mip.n_vars] = values[1:]
    if len(mip.relaxed):
        soft = model.soft
        sat = _clauses_satisfied(soft.lits, soft.offsets, values)
        col[mip.n_vars:] = ~sat[mip.relaxed]
    sol = highspy.HighsSolution()
    sol.col_value = col.tolist()
    return sol


def _clauses_satisfied(lits: np.ndarray, offsets: np.ndarray, values: np.ndarray) -> np.ndarray:
    true = literal_values(lits, values).astype(np.int64)
    csum = np.zeros(len(true) + 1, dtype=np.int64)
    np.cumsum(true, out=csum[1:])
    return (csum[offsets[1:]] - csum[offsets[:-1]]) > 0
