"""A proven lower bound on a model's optimal cost from its LP relaxation (HiGHS).

The LP is the relaxation of :func:`satrules.backends.highs.build_mip` (every
column in ``[0, 1]``).  Rows are generated lazily: the LP starts with the rows
that bound a sum from above (cardinality ``<=``, conflict cliques, equalities)
and, each round, adds the ``batch`` covering rows (``sum >= k``: clauses,
relaxed soft clauses) its solution violates most, until none is violated.  On
the CDPRL model of diamonds (1,500 rules, 53,940 rows) this needs about half of
the rows and solves the root LP 1.9-2.3 times faster than the full LP (issue 13,
``benchmarks/bench_cdpr_perf.py --root-lp``); the final LP equals the full one.

The bound does not trust the LP's optimality: after every round it is computed
from the row duals ``y`` alone, as the Lagrangian value
``offset + sum_i y_i b_i + sum_j min(0, c_j - (A^T y)_j)`` (``b_i`` the row's
lower side where ``y_i > 0``, its upper side where ``y_i < 0``; duals of
infinite sides are dropped), which is a lower bound on the cost of every 0-1
(indeed every ``[0, 1]``) point satisfying the rows, whatever ``y`` is.  Rows not
yet in the LP have dual 0, so every finished round gives a valid bound, and a
time limit that stops the loop early still leaves the last one.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from satrules.backends.base import check_time_limit
from satrules.backends.highs import (
    HiGHSBackend,
    _construct_silently,
    _Watch,
    build_mip,
    run_on_thread,
)
from satrules.ir import Model

__all__ = ["LPBound", "load_relaxation", "lp_bound"]

#: Relative slack taken off the dual bound before rounding up (floating-point sums of up
#: to millions of terms; the bound stays proven with this margin).
_SLACK = 1e-7


@dataclass(frozen=True)
class LPBound:
    """What :func:`lp_bound` proved.

    Attributes
    ----------
    cost : int or None
        A proven lower bound on the model's optimal cost (None when no LP round finished
        within the limit).
    complete : bool
        Whether the loop ended with no violated row, i.e. ``cost`` is the full LP bound.
    rounds : int
        LP solves done.
    rows, n_rows : int
        Rows in the last LP; rows of the full LP.
    seconds : float
        Wall time of the call.
    """

    cost: int | None
    complete: bool
    rounds: int
    rows: int
    n_rows: int
    seconds: float


def lp_bound(model: Model, *, time_limit: float | None = None, batch: int = 2000,
             graph: str = "clique") -> LPBound:
    """Return a proven lower bound on the optimal cost of ``model`` from its LP relaxation.

    Parameters
    ----------
    model : Model
        Any IR model (soft weights integer, as always).
    time_limit : float, optional
        Wall seconds for the whole call, building included; the bound of the last
        finished round is returned when it runs out.
    batch : int, default=2000
        Violated covering rows added per round (2,000 was the fastest of 2,000 and 5,000
        on the diamonds CDPRL models).
    graph : {"clique", "pairwise"}
        How conflict graphs become rows (as in the HiGHS backend).

    Returns
    -------
    LPBound

    Examples
    --------
    Choose at most one of three items, each worth 2 when chosen:

    >>> m = Model()
    >>> xs = m.new_vars("x", 3)
    >>> m.add_cardinality(xs, "<=", 1)
    >>> m.add_soft_units(xs, [2, 2, 2])
    >>> res = lp_bound(m)
    >>> res.cost, res.complete
    (4, True)
    """
    start = time.perf_counter()
    time_limit = check_time_limit(time_limit)
    if batch < 1:
        raise ValueError(f"batch must be a positive number of rows, got {batch!r}")
    HiGHSBackend.require()
    import highspy
    from scipy.sparse import csr_matrix

    mip = build_mip(model, graph)
    if mip.n_cols == 0:  # nothing to decide: the cost is the constant
        return LPBound(math.ceil(mip.offset - _SLACK * max(1.0, abs(mip.offset))), True, 0,
                       0, mip.n_rows, time.perf_counter() - start)
    mat = csr_matrix((mip.value, mip.index, mip.start), shape=(mip.n_rows, mip.n_cols))
    lower, upper, cost = mip.row_lower, mip.row_upper, mip.cost
    lazy = np.isinf(upper) & np.isfinite(lower)  # covering rows: sum >= k
    active = ~lazy
    h = _construct_silently(highspy, False)
    for key, val in {"output_flag": False, "threads": 1, "solver": "simplex"}.items():
        h.setOptionValue(key, val)
    load_relaxation(h, mip, mat, np.flatnonzero(active))
    watch = _Watch(math.inf, None)   # runs on a thread: Ctrl-C stops HiGHS at its next poll
    watch.subscribe(h)
    order = np.flatnonzero(active)  # LP row position -> model row
    best: int | None = None
    rounds = 0

    def result(complete: bool) -> LPBound:
        return LPBound(best, complete, rounds, int(active.sum()), mip.n_rows,
                       time.perf_counter() - start)

    while True:
        if time_limit is not None:
            left = time_limit - (time.perf_counter() - start)
            if left <= 0:
                return result(False)
            # HiGHS compares its limit with its run time summed over all runs of ``h``
            h.setOptionValue("time_limit", h.getRunTime() + left)
        run_on_thread(h, watch)
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return result(False)
        rounds += 1
        sol = h.getSolution()
        duals = np.zeros(mip.n_rows)
        duals[order] = np.asarray(sol.row_dual, dtype=float)
        found = _dual_bound(mat, lower, upper, cost, mip.offset, duals)
        best = found if best is None else max(best, found)
        x = np.asarray(sol.col_value, dtype=float)
        candidates = np.flatnonzero(lazy & ~active)
        slack = lower[candidates] - mat[candidates] @ x
        violated = slack > 1e-7
        if not violated.any():
            return result(True)
        pick = candidates[violated][np.argsort(-slack[violated], kind="stable")[:batch]]
        sub = mat[pick]
        h.addRows(len(pick), lower[pick], upper[pick], sub.nnz,
                  sub.indptr[:-1].astype(np.int32), sub.indices.astype(np.int32),
                  sub.data.astype(float))
        active[pick] = True
        order = np.concatenate([order, pick])


def load_relaxation(h, mip, mat, rows: np.ndarray) -> None:
    """Give the ``highspy.Highs`` object ``h`` the LP relaxation of ``mip`` on ``rows``.

    ``mat`` is ``mip``'s matrix as a ``scipy.sparse.csr_matrix``; every column gets the
    bounds ``[0, 1]`` and no integrality.
    """
    import highspy

    sub = mat[rows]
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = mip.n_cols, len(rows)
    lp.col_cost_, lp.offset_ = mip.cost, mip.offset
    lp.col_lower_, lp.col_upper_ = np.zeros(mip.n_cols), np.ones(mip.n_cols)
    lp.row_lower_, lp.row_upper_ = mip.row_lower[rows], mip.row_upper[rows]
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = mip.n_cols, len(rows)
    lp.a_matrix_.start_ = sub.indptr.astype(np.int32)
    lp.a_matrix_.index_ = sub.indices.astype(np.int32)
    lp.a_matrix_.value_ = sub.data.astype(float)
    h.passModel(lp)


def _dual_bound(mat, lower, upper, cost, offset, duals) -> int:
    """Return the Lagrangian lower bound of the 0-1 program for row multipliers ``duals``.

    Valid for any multipliers: a positive one prices the row's lower side, a negative one
    its upper side, and one on an infinite side is dropped.  Both signs of ``duals`` are
    tried (solvers differ in their sign convention) and the better bound is kept.

    Examples
    --------
    >>> from scipy.sparse import csr_matrix
    >>> mat = csr_matrix(np.array([[1.0, 1.0]]))   # x0 + x1 >= 1, cost x0 + 2 x1
    >>> lo, up = np.array([1.0]), np.array([np.inf])
    >>> _dual_bound(mat, lo, up, np.array([1.0, 2.0]), 0.0, np.array([1.0]))
    1
    """
    best = -math.inf
    for y in (duals, -duals):
        y = np.where((y > 0) & np.isinf(lower), 0.0, y)
        y = np.where((y < 0) & np.isinf(upper), 0.0, y)
        side = np.where(y > 0, lower, np.where(y < 0, upper, 0.0))
        reduced = cost - mat.T @ y
        value = offset + float(np.dot(y, side)) + float(np.minimum(reduced, 0.0).sum())
        best = max(best, value)
    return math.ceil(best - _SLACK * max(1.0, abs(best)))
