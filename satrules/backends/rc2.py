"""The ``rc2`` backend: PySAT's core-guided RC2 MaxSAT solver, in process.

Every cardinality and graph constraint is lowered to clauses first
(:func:`satrules.ir.lowering.lower`), so any PySAT SAT solver can serve as the
oracle.  Soft clauses keep their weights as Python ints, so weights beyond
64 bits are solved exactly.

Time limits
-----------
RC2 is core-guided: until it reaches the optimum it only raises a *lower*
bound and holds no incumbent.  The limit counts from the call, so lowering and
building RC2 (7.8 s for 10**6 clauses) are spent from it.  With ``time_limit``
RC2 is built and run on a daemon thread (:class:`_Watched`); at the deadline
``RC2.interrupt()`` is called (or, while RC2 is still being built, it is marked so
that it never starts), RC2 finishes processing the core at hand and ``compute``
returns ``None``.  The backend then runs one plain SAT call on the hard part,
also watched, until ``min(0.5, time_limit / 4)`` seconds have passed or ``time_limit
+ 1`` s is reached, with the solver's phases set to satisfy the heaviest soft units
first: when that call finds a model, the answer is FEASIBLE with that model (its
cost is whatever the IR says: a heuristic incumbent, with no optimisation behind
it) and the lower bound RC2 had proven when it was interrupted; otherwise the
answer is UNKNOWN.  A step that does not stop within 1 s of the limit (building
RC2, processing a large core, building the second SAT solver) is abandoned: the
answer is UNKNOWN and the thread ends on its own when that step does.  So the
answer comes within ``time_limit + 1.5`` s (issue #12 row 13).
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from satrules.backends.base import (
    BackendBase,
    check_time_limit,
    hint_values,
    join_or_stop,
    package_version,
    start_daemon,
)
from satrules.exceptions import BackendError, EncodingError
from satrules.ir import Model, Solution, Status, make_solution
from satrules.ir.constraints import ClauseArray
from satrules.ir.lowering import CARD_ENCODINGS, GRAPH_ENCODINGS, lower

__all__ = ["RC2Backend"]

_BLO = ("basic", "div", "cluster", "full")


#: PySAT solver classes whose clauses can be added by the C function directly:
#: class name -> (attribute holding the solver handle, ``pysolvers`` function)
_RAW_ADD = {"Glucose3": ("glucose", "glucose3_add_cl"),
            "Glucose4": ("glucose", "glucose41_add_cl")}


def _add_hard(oracle: Any, hard: list) -> bool:
    """Add ``hard`` to a PySAT ``Solver`` as ``Solver(bootstrap_with=hard)`` would, but with
    the C function mapped over the clauses (no Python frame per clause: 7.3 million
    clauses of a 20,000 x 1,000 IMLIB fit took 7.2 s through ``add_clause``).  Return
    False, adding nothing, when the solver is not one of :data:`_RAW_ADD`."""
    import pysolvers

    inner = getattr(oracle, "solver", None)
    spec = _RAW_ADD.get(type(inner).__name__)
    handle = getattr(inner, spec[0], None) if spec else None
    add = getattr(pysolvers, spec[1], None) if spec else None
    if handle is None or add is None:
        return False
    # the solver's own add_clause marks the formula unsatisfiable when a clause makes
    # it so; Glucose ignores every clause after that, so stopping there is the same
    if not all(map(functools.partial(add, handle), hard)):
        inner.status = False
    return True


def _fast_rc2(base: type) -> type:
    """``base`` (RC2 or RC2Stratified) that bootstraps its SAT solver through
    :func:`_add_hard`.  When every soft clause is a unit, ``RC2.init`` adds no clause of
    its own to the solver, so the solver receives the same clauses in the same order as
    before: the same search, the same answers.  Otherwise, or for another SAT solver,
    ``RC2.init`` runs as it is."""

    class FastRC2(base):
        def init(self, formula: Any, incr: bool = False) -> None:
            hard = formula.hard
            if self.process or not hard or hasattr(formula, "atms") or \
                    any(len(cl) != 1 for cl in formula.soft):
                super().init(formula, incr=incr)
                return
            formula.hard = []
            try:
                super().init(formula, incr=incr)
            finally:
                formula.hard = hard
            if not _add_hard(self.oracle, hard):
                self.oracle.append_formula(hard)

    FastRC2.__name__ = FastRC2.__qualname__ = f"Fast{base.__name__}"
    return FastRC2


@functools.cache
def _rc2_classes() -> tuple[type, type]:
    """(RC2, RC2Stratified) with the fast bootstrap of :func:`_fast_rc2`."""
    from pysat.examples.rc2 import RC2, RC2Stratified

    return _fast_rc2(RC2), _fast_rc2(RC2Stratified)


def _clause_lists(clauses: ClauseArray) -> list[list[int]]:
    """Return the clauses as lists of Python ints (the form PySAT takes), in order.

    Encoders emit long runs of equally long clauses; each run becomes one 2-D
    ``tolist()`` (a single C call) instead of one Python slice per clause.
    """
    offsets = clauses.offsets
    lengths = np.diff(offsets)
    if not len(lengths):
        return []
    starts = np.flatnonzero(np.diff(lengths)) + 1        # where a run of equal lengths begins
    bounds = np.concatenate([[0], starts, [len(lengths)]]).tolist()
    out: list[list[int]] = []
    lits = clauses.lits
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        width = int(lengths[a])
        if width == 0:
            out.extend([] for _ in range(b - a))
        else:
            out.extend(lits[offsets[a]:offsets[b]].reshape(-1, width).tolist())
    return out


@functools.cache
def _pysat_version() -> str:
    # read once: importlib.metadata scans the installed distributions on every call,
    # 0.4 ms per solve (6 % of an IMLIB fit of 16-row partitions, issue #11 item 5)
    return package_version("python-sat")


@functools.cache
def _interruptible(solver: str) -> bool:
    """Return whether PySAT can interrupt ``solver`` (needed for time limits)."""
    from pysat.solvers import Solver

    with Solver(name=solver) as probe:
        try:
            probe.interrupt()
            probe.clear_interrupt()
        except NotImplementedError:
            return False
    return True


def _prefer_softs(oracle: Any, wcnf: Any) -> None:
    """Set the SAT solver's phases to satisfy the heaviest soft units first (a cheap
    incumbent heuristic; solvers without phase support are left as they are)."""
    units = sorted(((w, cl[0]) for cl, w in zip(wcnf.soft, wcnf.wght, strict=True)
                    if len(cl) == 1), reverse=True)
    phases, seen = [], set()
    for _, lit in units:
        if abs(lit) not in seen:
            seen.add(abs(lit))
            phases.append(lit)
    try:
        oracle.set_phases(phases)
    except (NotImplementedError, AttributeError, TypeError):
        pass


class RC2Backend(BackendBase):
    """Solve IR models with PySAT's RC2 (or RC2Stratified) MaxSAT algorithm.

    Parameters
    ----------
    solver : str, default "g3"
        Any PySAT SAT solver name (``g3``, ``g4``, ``cd19``, ``mc``, ...).
    stratified : bool or "auto", default "auto"
        Use :class:`~pysat.examples.rc2.RC2Stratified` (weight stratification
        and hardening).  ``"auto"`` stratifies when the soft weights are not
        all equal, as the ``rc2.py`` command line does with ``-l``.
    blo : str, default "div"
        Stratification rule (``basic``, ``div``, ``cluster``, ``full``); only
        used when stratified.
    exhaust, minz, adapt : bool, default False
        Core exhaustion, heuristic core minimisation, and detection of
        intrinsic at-most-one constraints among soft literals.
    trim : int, default 0
        Trim each core up to this many times.
    card_encoding : str, default "auto"
        Cardinality-to-CNF encoding (:data:`satrules.ir.lowering.CARD_ENCODINGS`).
    graph_encoding : str, default "pairwise"
        Graph-to-CNF encoding (``"pairwise"`` or ``"clique"``).
    merge_softs : bool, default True
        Merge the soft units over each exactly-one constraint into the fewest soft
        clauses with the same cost on every feasible assignment
        (:func:`~satrules.ir.lowering.merge_exactly_one_softs`): the same optima, far
        fewer and smaller cores (building and running RC2 on the partitions of an
        IMLIB ``objective="paper"`` fit takes about a third less CPU on pima and
        credit, ``docs/benchmarks.md``).  Among tied optima RC2 returns others than
        without the merge; on 15 data sets x 5 seeds the IMLIB ``objective="paper"``
        rules learned from them are as accurate (mean test accuracy 0.7665 merged
        against 0.7669 unmerged, 0.7667 merged without ``hint_phases``) with 31 % less
        CPU (``benchmarks/results/variants_imlib-paper.md``).  An earlier measurement
        (five data sets x 3 seeds, commit 1787cdb) had found the merged rules 1.5-2.8
        points worse; the larger sample does not reproduce it.
    hint_phases : bool, default True
        With a ``hint``, set the SAT solver's phases (preferred values) to it, so RC2's
        satisfying assignments start from the hint: among tied optima it then returns
        one close to the hint.  The optimum itself never changes.  The incremental
        learners hint every partition with the best rules so far.

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); x, y = m.new_var("x"), m.new_var("y")
    >>> m.add_hard([x, y]); m.add_soft([-x], 2); m.add_soft([-y], 1)
    >>> sol = RC2Backend().solve(m)
    >>> sol.status.value, sol.cost, sol["y"], sol.lower_bound
    ('OPTIMAL', 1, True, 1)
    """

    name = "rc2"
    native = frozenset({"clause", "soft"})
    max_vars = 2**24  # measured: about 310 bytes per variable (docs/reliability.md)
    bytes_per_var = 310
    install = 'pip install python-sat   (a satrules dependency: pip install satrules)'
    module = "pysat"
    distribution = "python-sat"

    def __init__(self, *, solver: str = "g3", stratified: bool | str = "auto", blo: str = "div",
                 exhaust: bool = False, minz: bool = False, adapt: bool = False, trim: int = 0,
                 card_encoding: str = "auto", graph_encoding: str = "pairwise",
                 merge_softs: bool = True, hint_phases: bool = True) -> None:
        if stratified not in (True, False, "auto"):
            raise EncodingError(f"stratified must be True, False or 'auto', got {stratified!r}")
        if blo not in _BLO:
            raise EncodingError(f"blo must be one of {_BLO}, got {blo!r}")
        if card_encoding not in CARD_ENCODINGS:
            raise EncodingError(f"card_encoding must be one of {CARD_ENCODINGS}")
        if graph_encoding not in GRAPH_ENCODINGS:
            raise EncodingError(f"graph_encoding must be one of {GRAPH_ENCODINGS}")
        if not isinstance(trim, int) or isinstance(trim, bool) or trim < 0:
            raise EncodingError(f"trim must be a non-negative int, got {trim!r}")
        super().__init__(solver=solver, stratified=stratified, blo=blo, exhaust=bool(exhaust),
                         minz=bool(minz), adapt=bool(adapt), trim=trim,
                         card_encoding=card_encoding, graph_encoding=graph_encoding,
                         merge_softs=bool(merge_softs), hint_phases=bool(hint_phases))

    def solve(self, model: Model, *, time_limit: float | None = None, seed: int | None = None,
              hint: Mapping | None = None) -> Solution:
        """Return the optimum of ``model`` (or the best answer within ``time_limit``).

        ``seed`` is accepted for the common interface.  A ``hint`` sets the SAT
        solver's phases (``hint_phases``): RC2's satisfying assignments start from it.
        """
        start = time.perf_counter()  # the limit covers everything below (issue #12 row 13)
        time_limit = check_time_limit(time_limit)  # inf: no limit
        self.check_var_count(model)  # before any per-variable allocation
        self.require()
        if time_limit is not None and not _interruptible(self.options["solver"]):
            raise EncodingError(
                f"rc2: PySAT cannot interrupt the SAT solver {self.options['solver']!r} "
                "(CaDiCaL, Kissat and Lingeling have no limited solve), so a time_limit "
                "cannot be honoured; use solver='g3' (or g4, m22, mc, ...) or no time_limit"
            )
        deadline = None if time_limit is None else start + time_limit
        opts = self.options
        lowered = lower(model, keep=self.native, card_encoding=opts["card_encoding"],
                        graph_encoding=opts["graph_encoding"], merge_softs=opts["merge_softs"])
        common = dict(backend=self.name, engine="RC2", engine_version=self.version(),
                      options=dict(opts))
        hard = lowered.hard
        if len(hard) and np.any(hard.lengths == 0):
            return make_solution(model, Status.UNSATISFIABLE, wall_time=time.perf_counter() - start,
                                 message="an empty hard clause", **common)
        wcnf, offset, stratify = self._formula(lowered)
        common["options"]["stratified"] = stratify
        phases = None
        if hint and opts["hint_phases"]:
            phases = [v if val else -v for v, val in hint_values(model, hint).items()]
        outcome = self._run(wcnf, stratify, deadline, phases)
        wall = time.perf_counter() - start
        if outcome["model"] is not None:
            return make_solution(model, Status.OPTIMAL, outcome["model"],
                                 reported_cost=outcome["cost"] + offset,
                                 lower_bound=outcome["cost"] + offset, wall_time=wall, **common)
        if not outcome["interrupted"]:
            return make_solution(model, Status.UNSATISFIABLE, wall_time=wall, **common)
        bound = outcome["bound"] + offset
        if outcome["abandoned"]:
            return make_solution(model, Status.UNKNOWN, lower_bound=bound, wall_time=wall,
                                 message=f"time limit {time_limit} s reached: RC2 did not stop "
                                 f"within {_GRACE:g} s (building its solver or processing a "
                                 "core); it finishes in a background thread", **common)
        return self._after_timeout(model, wcnf, time_limit, bound, start, common)

    # ------------------------------------------------------------------ helpers
    def _formula(self, lowered: Model) -> tuple[Any, int, bool]:
        """Return (PySAT WCNF, constant cost of empty soft clauses, whether to stratify)."""
        from pysat.formula import WCNF

        soft = lowered.soft
        weights = soft.weight_list()
        if any(w <= 0 for w in weights):  # PySAT would silently make a 0-weight clause hard
            raise BackendError("rc2: a soft weight is not positive; the IR should prevent this")
        clauses = _clause_lists(soft)
        offset = sum(w for cl, w in zip(clauses, weights, strict=True) if not cl)
        pairs = [(cl, w) for cl, w in zip(clauses, weights, strict=True) if cl]
        wcnf = WCNF()
        wcnf.nv = lowered.n_vars
        wcnf.hard = _clause_lists(lowered.hard)
        wcnf.soft = [cl for cl, _ in pairs]
        wcnf.wght = [w for _, w in pairs]
        wcnf.topw = sum(wcnf.wght) + 1
        stratify = self.options["stratified"]
        if stratify == "auto":
            stratify = len(set(wcnf.wght)) > 1
        # RC2Stratified fails on a formula without soft clauses (pysat 1.9.dev24)
        return wcnf, offset, bool(stratify) and bool(wcnf.soft)

    def _run(self, wcnf: Any, stratify: bool, deadline: float | None,
             phases: list[int] | None = None) -> dict[str, Any]:
        """Build and run RC2; with a deadline on a watched thread (see :class:`_Watched`)."""
        RC2, RC2Stratified = _rc2_classes()
        opts = self.options
        kwargs = dict(solver=opts["solver"], adapt=opts["adapt"], exhaust=opts["exhaust"],
                      minz=opts["minz"], trim=opts["trim"])

        def build() -> Any:
            if stratify:
                rc2 = RC2Stratified(wcnf, blo=opts["blo"], **kwargs)
            else:
                rc2 = RC2(wcnf, **kwargs)
            if phases:  # a SAT solver without phase support keeps its own phases
                with contextlib.suppress(NotImplementedError, AttributeError, TypeError):
                    rc2.oracle.set_phases(phases)
            return rc2

        def compute(rc2: Any) -> tuple[Any, int]:
            return rc2.compute(expect_interrupt=deadline is not None), int(rc2.cost)

        state = {"bound": 0}

        def interrupt(rc2: Any) -> None:
            # the cost RC2 has accumulated from fully extracted cores is a proven lower bound
            state["bound"] = int(rc2.cost)
            rc2.interrupt()

        watched = _Watched(build, compute, interrupt)
        try:
            finished = watched.run(deadline, None if deadline is None else deadline + _GRACE)
        except NotImplementedError as exc:  # e.g. Lingeling has no limited solve in PySAT
            raise EncodingError(f"rc2: SAT solver {opts['solver']!r} cannot run RC2: {exc}") \
                from exc
        if finished and not watched.stopped and watched.result[0] is None:
            return {"model": None, "interrupted": False, "abandoned": False}
        if finished and watched.result is not None and watched.result[0] is not None:
            found, cost = watched.result
            return {"model": found, "cost": cost, "interrupted": False, "abandoned": False}
        return {"model": None, "interrupted": True, "abandoned": not finished,
                "bound": state["bound"]}

    def _after_timeout(self, model: Model, wcnf: Any, time_limit: float, bound: int,
                       start: float, common: dict) -> Solution:
        """Return FEASIBLE with any model of the hard part found quickly, else UNKNOWN."""
        from pysat.solvers import Solver

        # aim to answer by time_limit + 1 s: RC2 may already have overrun its limit while
        # finishing the core it was processing when interrupted
        answer_by = start + time_limit + _GRACE
        stop_at = min(time.perf_counter() + min(0.5, time_limit / 4), answer_by)
        message = f"time limit {time_limit} s reached by RC2 (lower bound {bound})"
        if stop_at - time.perf_counter() < 0.01:
            return make_solution(model, Status.UNKNOWN, lower_bound=bound,
                                 wall_time=time.perf_counter() - start, message=message,
                                 **common)

        def search(oracle: Any) -> tuple[bool | None, list[int] | None]:
            _prefer_softs(oracle, wcnf)
            sat = oracle.solve_limited(expect_interrupt=True)
            return sat, (oracle.get_model() or []) if sat else None

        def build() -> Any:
            oracle = Solver(name=self.options["solver"])
            if not _add_hard(oracle, wcnf.hard):
                oracle.append_formula(wcnf.hard)
            return oracle

        # building the oracle re-reads every hard clause (seconds for 10**6): watched too
        watched = _Watched(build, search, lambda oracle: oracle.interrupt())
        finished = watched.run(stop_at, answer_by + 0.5)
        sat, found = watched.result if finished and watched.result else (None, None)
        wall = time.perf_counter() - start
        if sat is False:  # None means interrupted; False is a proof
            return make_solution(model, Status.UNSATISFIABLE, wall_time=wall, **common)
        if found is None:
            return make_solution(model, Status.UNKNOWN, lower_bound=bound, wall_time=wall,
                                 message=message, **common)
        return make_solution(model, Status.FEASIBLE, found, lower_bound=bound, wall_time=wall,
                             message=message + "; assignment is any model of the hard part",
                             **common)

    @classmethod
    def version(cls) -> str:
        """Return the python-sat version."""
        return _pysat_version()


#: Seconds past the time limit before RC2 is abandoned to a background thread (issue #12
#: row 13: building RC2 for 10**6 clauses took 7.8 s before the clock even started, and a
#: core being processed is not interruptible).
_GRACE = 1.0


class _Watched:
    """Run ``work(build())`` on a daemon thread, interrupt it at a deadline, give up later.

    ``build`` makes a PySAT object (RC2 or a SAT solver; both have ``interrupt`` and
    ``delete``).  At ``stop_at`` ``on_stop(obj)`` interrupts it, or, while it is still
    being built, marks it so ``work`` never starts.  At ``give_up_at`` the caller stops
    waiting; the thread ends by itself when the step in progress does (PySAT releases
    the GIL while it solves, and the object is deleted by the thread that made it).
    """

    def __init__(self, build: Any, work: Any, on_stop: Any) -> None:
        self.build, self.work, self.on_stop = build, work, on_stop
        self.obj: Any = None
        self.result: Any = None
        self.stopped = False
        self.lock = threading.Lock()

    def _main(self) -> Any:
        obj = self.build()
        with self.lock:
            self.obj, stopped = obj, self.stopped
        try:
            return None if stopped else self.work(obj)
        finally:
            with self.lock:
                self.obj = None
            obj.delete()

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            if self.obj is not None:
                self.on_stop(self.obj)

    def run(self, stop_at: float | None, give_up_at: float | None) -> bool:
        """Return True if the work finished (then ``result`` holds its value)."""
        if stop_at is None:
            self.result = self._main()
            return True
        done = start_daemon(self._main, "satrules-rc2", stop=self.stop, wait_at_exit=False)
        if not join_or_stop(done, max(stop_at - time.perf_counter(), 0.0)):
            self.stop()
            if not join_or_stop(done, max(give_up_at - time.perf_counter(), 0.0)):
                return False
        self.result = done.outcome()   # the work's exception, raised here
        return True
