"""The ``rc2`` backend: PySAT's core-guided RC2 MaxSAT solver, in process.

Every cardinality and graph constraint is lowered to clauses first
(:func:`satrules.ir.lowering.lower`), so any PySAT SAT solver can serve as the
oracle.  Soft clauses keep their weights as Python ints, so weights beyond
64 bits are solved exactly.

Time limits
-----------
RC2 is core-guided: until it reaches the optimum it only raises a *lower*
bound and holds no incumbent.  With ``time_limit`` a :class:`threading.Timer`
calls ``RC2.interrupt()``; RC2 then finishes processing the core at hand
(PySAT lets heuristic SAT calls finish, so the overrun is usually small) and
``compute`` returns ``None``.  The backend then runs one plain SAT call on the
hard part, interrupted after ``min(0.5, time_limit / 4)`` seconds (or sooner, to
answer by ``time_limit + 1`` s; skipped when RC2 itself overran that), with
the solver's phases set to satisfy the heaviest soft units first: when that
call finds a model, the answer is FEASIBLE with that model (its cost is
whatever the IR says: a heuristic incumbent, with no optimisation behind it) and the lower bound
RC2 had proven when the timer fired; otherwise the answer is UNKNOWN.  So
the wall time stays below ``time_limit + 1`` s plus RC2's overrun on the
core it was processing (measured up to about 2 s on large cores under heavy load).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from satrules.backends.base import BackendBase, check_time_limit, package_version
from satrules.exceptions import BackendError, EncodingError
from satrules.ir import Model, Solution, Status, make_solution
from satrules.ir.constraints import ClauseArray
from satrules.ir.lowering import CARD_ENCODINGS, GRAPH_ENCODINGS, lower

__all__ = ["RC2Backend"]

_BLO = ("basic", "div", "cluster", "full")


def _clause_lists(clauses: ClauseArray) -> list[list[int]]:
    """Return the clauses as lists of Python ints (the form PySAT takes)."""
    flat = clauses.lits.tolist()
    bounds = clauses.offsets.tolist()
    return [flat[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


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
                 card_encoding: str = "auto", graph_encoding: str = "pairwise") -> None:
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
                         card_encoding=card_encoding, graph_encoding=graph_encoding)

    def solve(self, model: Model, *, time_limit: float | None = None, seed: int | None = None,
              hint: Mapping | None = None) -> Solution:
        """Return the optimum of ``model`` (or the best answer within ``time_limit``).

        ``seed`` and ``hint`` are accepted for the common interface; RC2 uses neither.
        """
        time_limit = check_time_limit(time_limit)  # inf: no limit
        self.check_var_count(model)  # before any per-variable allocation
        self.require()
        if time_limit is not None and not _interruptible(self.options["solver"]):
            raise EncodingError(
                f"rc2: PySAT cannot interrupt the SAT solver {self.options['solver']!r} "
                "(CaDiCaL, Kissat and Lingeling have no limited solve), so a time_limit "
                "cannot be honoured; use solver='g3' (or g4, m22, mc, ...) or no time_limit"
            )
        start = time.perf_counter()
        opts = self.options
        lowered = lower(model, keep=self.native, card_encoding=opts["card_encoding"],
                        graph_encoding=opts["graph_encoding"])
        common = dict(backend=self.name, engine="RC2", engine_version=self.version(),
                      options=dict(opts))
        hard = lowered.hard
        if len(hard) and np.any(hard.lengths == 0):
            return make_solution(model, Status.UNSATISFIABLE, wall_time=time.perf_counter() - start,
                                 message="an empty hard clause", **common)
        wcnf, offset, stratify = self._formula(lowered)
        common["options"]["stratified"] = stratify
        outcome = self._run(wcnf, stratify, time_limit)
        wall = time.perf_counter() - start
        if outcome["model"] is not None:
            return make_solution(model, Status.OPTIMAL, outcome["model"],
                                 reported_cost=outcome["cost"] + offset,
                                 lower_bound=outcome["cost"] + offset, wall_time=wall, **common)
        if not outcome["interrupted"]:
            return make_solution(model, Status.UNSATISFIABLE, wall_time=wall, **common)
        return self._after_timeout(model, wcnf, time_limit, outcome["bound"] + offset, start,
                                   common)

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

    def _run(self, wcnf: Any, stratify: bool, time_limit: float | None) -> dict[str, Any]:
        """Run RC2 under an optional interrupt timer."""
        from pysat.examples.rc2 import RC2, RC2Stratified

        opts = self.options
        kwargs = dict(solver=opts["solver"], adapt=opts["adapt"], exhaust=opts["exhaust"],
                      minz=opts["minz"], trim=opts["trim"])
        if stratify:
            rc2 = RC2Stratified(wcnf, blo=opts["blo"], **kwargs)
        else:
            rc2 = RC2(wcnf, **kwargs)
        state = {"interrupted": False, "bound": 0}

        def _interrupt() -> None:
            # the cost RC2 has accumulated from fully extracted cores is a proven lower bound
            state["bound"] = int(rc2.cost)
            state["interrupted"] = True
            rc2.interrupt()

        timer = None
        if time_limit is not None:
            timer = threading.Timer(float(time_limit), _interrupt)
            timer.daemon = True
            timer.start()
        try:
            found = rc2.compute(expect_interrupt=timer is not None)
            cost = int(rc2.cost)
        except NotImplementedError as exc:  # e.g. Lingeling has no limited solve in PySAT
            raise EncodingError(f"rc2: SAT solver {opts['solver']!r} cannot run RC2: {exc}") \
                from exc
        finally:
            if timer is not None:
                timer.cancel()
            rc2.delete()
        if found is not None:
            return {"model": found, "cost": cost, "interrupted": False, "bound": cost}
        return {"model": None, "cost": None, "interrupted": state["interrupted"],
                "bound": state["bound"]}

    def _after_timeout(self, model: Model, wcnf: Any, time_limit: float, bound: int,
                       start: float, common: dict) -> Solution:
        """Return FEASIBLE with any model of the hard part found quickly, else UNKNOWN."""
        from pysat.solvers import Solver

        # aim to answer by time_limit + 1 s: RC2 may already have overrun its limit while
        # finishing the core it was processing when interrupted
        remaining = time_limit + 1.0 - (time.perf_counter() - start)
        budget = min(0.5, time_limit / 4, remaining)
        found = sat = None
        if budget < 0.01:
            return make_solution(model, Status.UNKNOWN, lower_bound=bound,
                                 wall_time=time.perf_counter() - start,
                                 message=f"time limit {time_limit} s reached by RC2 "
                                         f"(lower bound {bound})", **common)
        with Solver(name=self.options["solver"], bootstrap_with=wcnf.hard) as oracle:
            _prefer_softs(oracle, wcnf)
            timer = threading.Timer(budget, oracle.interrupt)
            timer.daemon = True
            timer.start()
            try:
                sat = oracle.solve_limited(expect_interrupt=True)
                if sat:
                    found = oracle.get_model() or []
            finally:
                timer.cancel()
        wall = time.perf_counter() - start
        if sat is False:  # None means interrupted; False is a proof
            return make_solution(model, Status.UNSATISFIABLE, wall_time=wall, **common)
        message = f"time limit {time_limit} s reached by RC2 (lower bound {bound})"
        if found is None:
            return make_solution(model, Status.UNKNOWN, lower_bound=bound, wall_time=wall,
                                 message=message, **common)
        return make_solution(model, Status.FEASIBLE, found, lower_bound=bound, wall_time=wall,
                             message=message + "; assignment is any model of the hard part",
                             **common)

    @classmethod
    def version(cls) -> str:
        """Return the python-sat version."""
        return package_version("python-sat")
