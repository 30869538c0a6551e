"""The ``cpsat`` backend: Google OR-Tools CP-SAT, in process.

Mapping (ALGORITHMS.md §1 and §9):

* hard clause -> ``add_bool_or``; an empty hard clause makes the model infeasible;
* soft unit ``(lit, w)`` -> objective term ``w * not(lit)``; a non-unit soft
  clause ``(C, w)`` -> a fresh bool ``r`` with ``r <-> not C`` (``add_bool_or(C + [r])``
  and ``add_bool_and(not C).only_enforce_if(r)``) and the term ``w * r``, so the
  objective of every incumbent equals its IR cost; an empty soft clause is a
  constant cost;
* cardinality -> ``add_at_most_one`` / ``add_exactly_one`` when the bound is 1
  over distinct variables, a linear constraint otherwise;
* graph -> lowered to at-most-one constraints over a greedy clique cover of
  the edges (``graph_encoding="clique"``, the default) or to pairwise clauses.
  Measured (``benchmarks/results/backends.md``): no difference beyond noise
  (coverage 150x30: 1.23 s clique vs 1.26 s pairwise; CDPRL 40 rules: both
  at the 10 s limit with cost 64); clique is kept as it gives CP-SAT fewer,
  stronger constraints without relying on presolve to find the cliques.

Objective range: CP-SAT rejects an objective whose coefficients could sum
beyond about ``2**61`` ("possible integer overflow", verified on ortools
9.15).  When the soft weight sum exceeds :data:`MAX_OBJECTIVE` the weights are
divided by their greatest common divisor if that brings the sum in range
(exact: the optimum and every cost are scaled by the same integer); otherwise
the backend raises :class:`~satrules.exceptions.BackendError`.  It never
rounds a weight.

Optimality: ``absolute_gap_limit`` is set to 0.5 and ``relative_gap_limit``
to 0, so on an integer objective CP-SAT only stops with OPTIMAL when the bound
equals the objective; the backend re-checks ``best_objective_bound`` and
reports it as the lower bound.  CP-SAT reports both as floats computed through the
sum of the weights, so their rounding error scales with that sum, not with the
optimum (86 came back as 86.0000038 for weights summing to 5.3e10): a float within 16
units in the last place of the weight sum of an integer is that integer (see
``_integer_bound``), and when the (rescaled) weight sum reaches ``2**46``, where that
tolerance nears 0.5, neither the engine's cost nor its bound is reported; the cost is
always the IR's.

Determinism: one worker and ``random_seed=0`` unless asked otherwise; with a
wall-clock limit the result may still depend on timing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from functools import reduce
from typing import Any

import numpy as np

from satrules.backends.base import (
    BackendBase,
    check_time_limit,
    hint_values,
    join_or_stop,
    package_version,
    start_daemon,
    stop_margin,
)
from satrules.exceptions import BackendError, EncodingError
from satrules.ir import Model, Solution, Status, make_solution
from satrules.ir.lowering import GRAPH_ENCODINGS, lower

__all__ = ["CPSATBackend", "MAX_OBJECTIVE"]

#: Largest soft weight sum handed to CP-SAT (2**61 passes its overflow check, 2**62 fails).
MAX_OBJECTIVE = 2**61
#: CP-SAT reports objective and bound as floats, computed through the offset of the negated
#: soft literals (sum of weights); only below this weight sum is their rounding error
#: (:func:`_tolerance`) safely below 0.5.
_FLOAT_EXACT = 2**46


def _tolerance(weight_sum: int) -> float:
    """How far CP-SAT's float objective and bound may be from the integers they stand
    for: 16 units in the last place of the weight sum they are computed through.

    >>> _tolerance(53251447417) < 1e-3, 0.25 <= _tolerance(2**46) < 0.26
    (True, True)
    """
    return 16 * math.ulp(float(weight_sum)) + 1e-9


def _integer_bound(bound: float, tolerance: float) -> int:
    """CP-SAT's float bound on an integer objective, as the integer bound it proves.

    A float within ``tolerance`` of an integer is that integer; any other is rounded up.
    A fixed epsilon is not enough: with weights summing to 5.3e10 the optimum 86 came
    back as 86.0000038, and ``ceil`` made it a bound above the optimum.

    >>> _integer_bound(86.00000381469727, 1e-4), _integer_bound(2.5, 1e-4)
    (86, 3)
    >>> _integer_bound(3.001, 1e-4)
    4
    """
    near = round(bound)
    if abs(bound - near) <= tolerance:
        return int(near)
    return math.ceil(bound)


def _status_map() -> dict[int, Status]:
    from ortools.sat.python import cp_model

    return {
        cp_model.OPTIMAL: Status.OPTIMAL,
        cp_model.FEASIBLE: Status.FEASIBLE,
        cp_model.INFEASIBLE: Status.UNSATISFIABLE,
        cp_model.UNKNOWN: Status.UNKNOWN,
        cp_model.MODEL_INVALID: Status.ERROR,
    }


def objective_scale(weights: list[int]) -> int:
    """Return the divisor bringing the weight sum within :data:`MAX_OBJECTIVE` (1 if none needed).

    Raises
    ------
    BackendError
        If even dividing by the gcd of the weights leaves the sum too large.

    Examples
    --------
    >>> objective_scale([3, 4])
    1
    >>> objective_scale([2**70, 3 * 2**70]) == 2**70
    True
    """
    total = sum(weights)
    if total <= MAX_OBJECTIVE:
        return 1
    g = reduce(math.gcd, weights)
    if total // g <= MAX_OBJECTIVE:
        return g
    raise BackendError(
        f"cpsat: the soft weights sum to {total} (about 2**{total.bit_length() - 1}), beyond "
        f"CP-SAT's 64-bit objective range (2**61), and their gcd {g} does not bring them in "
        "range; use the rc2 backend, which handles weights of any size"
    )


class CPSATBackend(BackendBase):
    """Solve IR models with OR-Tools CP-SAT.

    Parameters
    ----------
    workers : int, default 1
        ``num_workers`` (0 means all cores).  One worker with a fixed seed is reproducible.
    log : bool, default False
        Print CP-SAT's search log.
    graph_encoding : {"clique", "pairwise"}, default "clique"
        How graph constraints reach CP-SAT (at-most-one per clique, or one clause per edge).
    **parameters
        Any further ``CpSolver.parameters`` field, e.g. ``max_deterministic_time=5.0``.

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); xs = m.new_vars("x", 3)
    >>> m.add_cardinality(xs, "<=", 1); m.add_soft_units(xs, [1, 2, 3])
    >>> sol = CPSATBackend().solve(m)
    >>> sol.status.value, sol.cost, sol[("x", 2)], sol.lower_bound
    ('OPTIMAL', 3, True, 3)
    """

    name = "cpsat"
    native = frozenset({"clause", "soft", "cardinality"})
    max_vars = 2**22  # measured: about 860 bytes per variable (docs/reliability.md)
    bytes_per_var = 860
    install = 'pip install ortools   (a satrules dependency: pip install satrules)'
    module = "ortools"
    distribution = "ortools"

    def __init__(self, *, workers: int = 1, log: bool = False, graph_encoding: str = "clique",
                 **parameters: Any) -> None:
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 0:
            raise EncodingError(f"workers must be a non-negative int, got {workers!r}")
        if graph_encoding not in GRAPH_ENCODINGS:
            raise EncodingError(f"graph_encoding must be one of {GRAPH_ENCODINGS}")
        super().__init__(workers=workers, log=bool(log), graph_encoding=graph_encoding,
                         **parameters)

    def solve(self, model: Model, *, time_limit: float | None = None, seed: int | None = None,
              hint: Mapping | None = None) -> Solution:
        """Return the optimum of ``model`` (or the best answer within ``time_limit``)."""
        start = time.perf_counter()  # the limit covers everything below (issue #12 row 13)
        time_limit = check_time_limit(time_limit)  # inf: no limit
        self.check_var_count(model)  # before any per-variable allocation
        self.require()
        from ortools.sat.python import cp_model

        deadline = None if time_limit is None else start + time_limit
        lowered = lower(model, keep=self.native, graph_encoding=self.options["graph_encoding"])
        weights = lowered.soft.weight_list()
        scale = objective_scale(weights)
        solver = cp_model.CpSolver()
        built = _build(lowered, [w // scale for w in weights], deadline)
        remaining = None if deadline is None else deadline - time.perf_counter()
        # CP-SAT is told to stop a little early: a stop takes it up to 0.9 s under load
        stop = None if deadline is None else deadline - stop_margin(time_limit)
        params = self._parameters(
            solver, None if stop is None else max(stop - time.perf_counter(), 0.01), seed)
        if built is None or (remaining is not None and remaining <= 0):
            return make_solution(model, Status.UNKNOWN, wall_time=time.perf_counter() - start,
                                 backend=self.name, engine="CP-SAT",
                                 engine_version=self.version(), options=params,
                                 message="time limit reached while building the CP-SAT model")
        cp, xs, offset = built
        hinted = hint_values(model, hint)
        for var, value in hinted.items():
            cp.add_hint(xs[var], value)
        code = _solve_watched(solver, cp, stop, deadline)
        wall = time.perf_counter() - start
        common = dict(wall_time=wall, backend=self.name, engine="CP-SAT",
                      engine_version=self.version(), options=params)
        if code is None:
            return make_solution(model, Status.UNKNOWN, **common, message=(
                f"time limit reached: CP-SAT did not stop within {_GRACE:g} s of it (loading "
                "or presolving); it stops in a background thread"))
        status = _status_map()[code]
        if status is Status.ERROR:
            return make_solution(model, status, message=f"CP-SAT: {cp.validate()}", **common)
        if not status.is_feasible:
            msg = "time limit reached without a solution" if status is Status.UNKNOWN else ""
            return make_solution(model, status, message=msg, **common)
        values = np.zeros(lowered.n_vars + 1, dtype=bool)
        values[1:] = [solver.boolean_value(x) for x in xs[1:]]
        reported = lower_bound = None
        if sum(weights) // scale < _FLOAT_EXACT:
            objective, bound = solver.objective_value, solver.best_objective_bound
            if status is Status.OPTIMAL and objective - bound >= 0.5:
                status = Status.FEASIBLE  # a gap limit stopped the search, not a proof
            reported = (round(objective) + offset) * scale
            lower_bound = (_integer_bound(bound, _tolerance(sum(weights) // scale))
                           + offset) * scale
        # else: the floats may be off by more than 1 (e.g. 2**60 + 1 - 2**60 == 0.0), so
        # neither is reported; CP-SAT's own integer search still decides OPTIMAL exactly
        message = f"weights divided by their gcd {scale}" if scale > 1 else ""
        return make_solution(model, status, values, reported_cost=reported,
                             lower_bound=lower_bound, message=message, **common)

    def _parameters(self, solver: Any, time_limit: float | None, seed: int | None) -> dict:
        """Set the solver parameters; return them as the options record."""
        params = {
            "num_workers": self.options["workers"],
            "random_seed": 0 if seed is None else int(seed) % (2**31),
            "log_search_progress": self.options["log"],
            "absolute_gap_limit": 0.5,
            "relative_gap_limit": 0.0,
            # CP-SAT's own SIGINT handler ended the search and swallowed Ctrl-C without a
            # limit, and aborted the process (std::bad_function_call) on its thread
            "catch_sigint_signal": False,
        }
        if time_limit is not None:
            params["max_time_in_seconds"] = float(time_limit)
        extra = {k: v for k, v in self.options.items()
                 if k not in ("workers", "log", "graph_encoding")}
        params.update(extra)
        for key, value in params.items():
            try:
                setattr(solver.parameters, key, value)
            except (AttributeError, TypeError, ValueError) as exc:
                raise EncodingError(f"cpsat: bad parameter {key}={value!r}: {exc}") from exc
        params["graph_encoding"] = self.options["graph_encoding"]
        return params

    @classmethod
    def version(cls) -> str:
        """Return the ortools version."""
        return package_version("ortools")


#: Seconds past the limit before CP-SAT is left to stop in the background (issue #12 row
#: 13: its loading and presolve of 10**6 clauses overran a 4.5 s limit by 2.3 s).
_GRACE = 1.0
#: Clauses added between two looks at the clock while building.
_CLOCK_EVERY = 4096


def _solve_watched(solver: Any, cp: Any, stop: float | None,
                   deadline: float | None) -> int | None:
    """Return CP-SAT's status code, or None if it ran past ``deadline + _GRACE``.

    CP-SAT releases the GIL while it solves; at ``stop`` (a little before the deadline)
    ``stop_search`` asks it to stop, and a solver still busy a grace period after the
    deadline is left to finish on its thread.  Without a deadline it runs on the thread
    all the same, so that Ctrl-C reaches the main thread (:func:`join_or_stop`).
    """
    done = start_daemon(lambda: solver.solve(cp), "satrules-cpsat", stop=solver.stop_search)
    if deadline is None or stop is None:
        finished = join_or_stop(done, None)
    else:
        finished = join_or_stop(done, max(stop - time.perf_counter(), 0.0))
        if not finished:
            solver.stop_search()
            finished = join_or_stop(done, max(deadline + _GRACE - time.perf_counter(), 0.0))
    return done.outcome() if finished else None


def _build(lowered: Model, weights: list[int],
           deadline: float | None = None) -> tuple[Any, list, int] | None:
    """Return (CpModel, bool var per IR variable (index 0 unused), constant objective offset).

    Returns None as soon as the clock passes ``deadline`` (building 10**6 clauses takes
    about 10 s of Python; it counts against the time limit).
    """
    from ortools.sat.python import cp_model

    def late(i: int) -> bool:
        return deadline is not None and i % _CLOCK_EVERY == 0 and time.perf_counter() > deadline

    cp = cp_model.CpModel()
    xs: list[Any] = [None] + [cp.new_bool_var(f"x{v}") for v in range(1, lowered.n_vars + 1)]
    negs: list[Any] = [None] + [x.Not() for x in xs[1:]]

    def lit(code: int) -> Any:
        return xs[code] if code > 0 else negs[-code]

    hard = lowered.hard
    flat, bounds = hard.lits.tolist(), hard.offsets.tolist()
    for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:], strict=True)):
        if late(i):
            return None
        cp.add_bool_or([lit(code) for code in flat[a:b]])
    for card in lowered.cardinalities:
        _add_cardinality(cp, [lit(code) for code in card.lits], card)
    soft = lowered.soft
    flat, bounds = soft.lits.tolist(), soft.offsets.tolist()
    terms, coeffs, offset = [], [], 0
    for i, (a, b, weight) in enumerate(zip(bounds[:-1], bounds[1:], weights, strict=True)):
        if late(i):
            return None
        if b == a:
            offset += weight  # an empty soft clause is always falsified
        elif b == a + 1:
            terms.append(lit(-flat[a]))  # paid when the literal is false
            coeffs.append(weight)
        else:
            relax = cp.new_bool_var("")
            lits = [lit(code) for code in flat[a:b]]
            cp.add_bool_or([*lits, relax])
            # relax <-> clause falsified: without the reverse direction an incumbent cut by
            # the time limit may pay for satisfied clauses, and its objective would exceed
            # the IR cost (a spurious cost mismatch)
            cp.add_bool_and([x.Not() for x in lits]).only_enforce_if(relax)
            terms.append(relax)
            coeffs.append(weight)
    if terms:
        cp.minimize(cp_model.LinearExpr.weighted_sum(terms, coeffs))
    return cp, xs, offset


def _add_cardinality(cp: Any, lits: list, card: Any) -> None:
    """Add one cardinality constraint; dedicated at-most/exactly-one when it applies."""
    if not lits:  # an empty sum is 0: the constraint is a constant
        if not card.holds(np.zeros(1, dtype=bool)):
            cp.add_bool_or([])
        return
    distinct = len({abs(code) for code in card.lits}) == len(card.lits)
    if card.bound == 1 and distinct and card.op == "<=":
        cp.add_at_most_one(lits)
    elif card.bound == 1 and distinct and card.op == "==":
        cp.add_exactly_one(lits)
    else:
        total = sum(lits)
        {"<=": lambda: cp.add(total <= card.bound), ">=": lambda: cp.add(total >= card.bound),
         "==": lambda: cp.add(total == card.bound)}[card.op]()
