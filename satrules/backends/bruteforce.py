"""Exhaustive reference solver: tries every assignment (models of at most 20 variables)."""

from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np

from satrules.backends.base import BackendBase, check_time_limit
from satrules.exceptions import BackendError
from satrules.ir import Model, Solution, Status, make_solution

__all__ = ["BruteForceBackend", "MAX_VARS"]

MAX_VARS = 20
_CHUNK = 1 << 15
_INT64_MAX = 2**63 - 1


class BruteForceBackend(BackendBase):
    """Enumerate all ``2**n_vars`` assignments and keep the cheapest feasible one.

    The oracle of the test suite: it handles every IR kind natively, uses no
    engine and refuses models with more than 20 variables.  Ties are broken by
    the lowest assignment in binary order (variable 1 is the lowest bit).

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); x, y = m.new_var("x"), m.new_var("y")
    >>> m.add_hard([x, y]); m.add_soft([-x], 2); m.add_soft([-y], 1)
    >>> sol = BruteForceBackend().solve(m)
    >>> sol.status.value, sol.cost, sol["y"]
    ('OPTIMAL', 1, True)
    """

    name = "bruteforce"
    native = frozenset({"clause", "soft", "cardinality", "graph"})
    install = "(built in)"

    @classmethod
    def version(cls) -> str:
        return "1"

    def solve(self, model: Model, *, time_limit: float | None = None, seed: int | None = None,
              hint: Mapping | None = None) -> Solution:
        time_limit = check_time_limit(time_limit)  # inf: no limit
        n = model.n_vars
        if n > MAX_VARS:
            raise BackendError(f"bruteforce refuses models over {MAX_VARS} variables (got {n})")
        start = time.perf_counter()
        soft = model.soft
        weights = soft.weights
        if model.soft_weight_sum() > _INT64_MAX:
            # a sum of int64 weights would wrap (three weights of 2**62 summed to -2**63 and
            # won the argmin): exact Python ints instead
            weights = weights.astype(object)
        best_cost, best_row = None, None
        total = 1 << n
        timed_out = False
        for lo in range(0, total, _CHUNK):
            rows = np.arange(lo, min(total, lo + _CHUNK), dtype=np.int64)
            values = np.zeros((len(rows), n + 1), dtype=bool)
            if n:
                values[:, 1:] = (rows[:, None] >> np.arange(n)) & 1
            ok = _all_hard(model, values)
            if ok.any():
                falsified = ~_satisfied(soft.lits, soft.offsets, values[ok])
                costs = falsified.astype(object) @ weights if weights.dtype == object else (
                    falsified.astype(np.int64) @ weights
                )
                i = int(np.argmin(costs)) if weights.dtype != object else min(
                    range(len(costs)), key=lambda j: costs[j])
                if best_cost is None or costs[i] < best_cost:
                    best_cost, best_row = costs[i], values[ok][i]
            # checked after every chunk, feasible or not, so sparse models stop in time too
            if time_limit is not None and time.perf_counter() - start > time_limit:
                timed_out = lo + _CHUNK < total
                break
        wall = time.perf_counter() - start
        common = dict(wall_time=wall, backend=self.name, engine="exhaustive search",
                      engine_version="1")
        if best_row is None:
            status = Status.UNKNOWN if timed_out else Status.UNSATISFIABLE
            return make_solution(model, status, **common)
        status = Status.FEASIBLE if timed_out else Status.OPTIMAL
        return make_solution(model, status, best_row, reported_cost=int(best_cost), **common)


def _satisfied(lits: np.ndarray, offsets: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Return (n_assignments, n_clauses) bools: clause has a true literal."""
    n_clauses = len(offsets) - 1
    out = np.zeros((values.shape[0], n_clauses), dtype=bool)
    if n_clauses == 0 or values.shape[0] == 0:
        return out
    lit_true = values[:, np.abs(lits)] ^ (lits < 0)
    csum = np.zeros((values.shape[0], len(lits) + 1), dtype=np.int32)
    np.cumsum(lit_true, axis=1, out=csum[:, 1:])
    return (csum[:, offsets[1:]] - csum[:, offsets[:-1]]) > 0


def _all_hard(model: Model, values: np.ndarray) -> np.ndarray:
    ok = _satisfied(model.hard.lits, model.hard.offsets, values).all(axis=1)
    for card in model.cardinalities:
        lits = np.asarray(card.lits, dtype=np.int64)
        total = (values[:, np.abs(lits)] ^ (lits < 0)).sum(axis=1)
        ok &= {"<=": total <= card.bound, ">=": total >= card.bound,
               "==": total == card.bound}[card.op]
    for graph in model.graphs:
        edge = graph.edge_literals()
        if len(edge):
            a = values[:, np.abs(edge[:, 0])] ^ (edge[:, 0] < 0)
            b = values[:, np.abs(edge[:, 1])] ^ (edge[:, 1] < 0)
            ok &= ~np.any(a & b, axis=1)
    return ok
