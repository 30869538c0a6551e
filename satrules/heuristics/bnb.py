"""Branch and bound on the largest selected rule: an exact CDPRL search without an engine.

Rules are ranked by cover size (descending, then index).  Every feasible set
is enumerated once, as a chain of picks in rank order: the first pick is its
largest rule, each later pick is ranked after the previous one and compatible
with every pick so far.  A node (picks ``S``, covered weight ``c``, ``k``
places left) is bounded by

    c + (sum of the k largest gains |cover(t) - covered|)

over the rules ``t`` still allowed (ranked after the last pick, compatible
with all of ``S``).  Coverage is submodular, so every completion of the node
covers at most that; a node whose bound does not beat the incumbent is cut.
At the root this is the conflict-aware bound of
:func:`satrules.encoders.cdprl_bounds.rule_bounds` (one level per pick).

Gains are kept per rule and updated by one weighted gather per pick (the
fresh columns of the picked rule), and a child is only opened when the
parent's gains already allow it to beat the incumbent (a cheap suffix
top-``k`` test), so the search touches few rules on tree-mined candidates:
on the diamonds sets of ``benchmarks/bench_cdpr_perf.py`` fewer than 50 of
about 1,400 rules can be the largest rule of a better set than the local
search's.

The search works on a weighted matrix (``weights[j]`` samples behind column
``j``), such as the sample groups of the exact encoder, and stops at
``time_limit`` with the best set found and a proven bound.

References
----------
Seed 000 (CDPRL); G. L. Nemhauser, L. A. Wolsey, M. L. Fisher, "An analysis of
approximations for maximizing submodular set functions", 1978 (the bound).
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from satrules.covers import as_cover_matrix, check_gamma, rate_exceeds

__all__ = ["BnBResult", "branch_and_bound"]


@dataclass(frozen=True)
class BnBResult:
    """Answer of :func:`branch_and_bound`.

    Attributes
    ----------
    selected : list of int
        Best rule indices found (sorted); the incumbent if nothing beat it.
    coverage : int
        Their covered weight.
    bound : int
        Proven upper bound on the optimum (``== coverage`` when ``optimal``).
    optimal : bool
        The search finished: ``coverage`` is the optimum.
    nodes : int
        Nodes opened.
    """

    selected: list[int]
    coverage: int
    bound: int
    optimal: bool
    nodes: int


class _Search:
    """The search state shared by every node (matrices, conflicts, incumbent, clock)."""

    def __init__(self, mat: sp.csr_matrix, weights: np.ndarray, beta: Any, strict: bool,
                 deadline: float | None) -> None:
        self.rows = mat
        self.cols = mat.tocsc()
        self.weights = weights
        self.n_rules = mat.shape[0]
        self.sizes = np.asarray(mat @ weights).ravel().astype(np.int64)
        self.counts = np.diff(mat.indptr).astype(np.int64)
        order = np.lexsort((np.arange(self.n_rules), -self.sizes))
        self.rank = np.empty(self.n_rules, dtype=np.int64)
        self.rank[order] = np.arange(self.n_rules)
        self.order = order
        self.beta, self.strict = beta, strict
        self.deadline = deadline
        self.max_nodes: int | None = None
        self.conf: dict[int, np.ndarray] = {}
        self.best: list[int] = []
        self.best_cov = 0
        self.nodes = 0
        self.timed_out = False
        self.by_col = sp.csr_matrix(mat.T, dtype=np.float32)
        #: nodes with at least this many places left also get the (costlier) union bound
        self.union_from = 3

    def cover(self, rule: int) -> np.ndarray:
        return self.rows.indices[self.rows.indptr[rule]:self.rows.indptr[rule + 1]]

    def overlap(self, cols: np.ndarray, weighted: bool) -> np.ndarray:
        """Return ``sum of weights (or counts) of cols`` covered by each rule (one gather)."""
        indptr = self.cols.indptr
        starts, lens = indptr[cols], indptr[cols + 1] - indptr[cols]
        total = int(lens.sum())
        if total == 0:
            return np.zeros(self.n_rules, dtype=np.int64)
        shift = np.repeat(starts - (np.cumsum(lens) - lens), lens)
        rules = self.cols.indices[shift + np.arange(total)]
        w = np.repeat(self.weights[cols], lens) if weighted else None
        return np.rint(np.bincount(rules, weights=w, minlength=self.n_rules)).astype(np.int64)

    def conflicts(self, rule: int) -> np.ndarray:
        bad = self.conf.get(rule)
        if bad is None:
            ov = self.overlap(self.cover(rule), weighted=True)
            bad = (rate_exceeds(ov, self.sizes, self.beta, self.strict)
                   | rate_exceeds(ov, self.sizes[rule], self.beta, self.strict))
            bad[rule] = True
            self.conf[rule] = bad
        return bad

    def reachable(self, cand: np.ndarray, covered: np.ndarray) -> int:
        """Return the uncovered weight covered by at least one rule of ``cand``."""
        mask = np.zeros(self.n_rules, dtype=np.float32)
        mask[cand] = 1
        hit = (self.by_col @ mask) > 0
        return int(self.weights[hit & ~covered].sum())

    def out_of_time(self) -> bool:
        if (self.deadline is not None and time.perf_counter() >= self.deadline) or (
                self.max_nodes is not None and self.nodes >= self.max_nodes):
            self.timed_out = True
        return self.timed_out


def _suffix_top(values: np.ndarray, k: int) -> np.ndarray:
    """Return ``out[i] = sum of the k largest of values[i+1:]`` (values in rank order)."""
    out = np.zeros(len(values), dtype=np.int64)
    if k <= 0:
        return out
    heap: list[int] = []
    total = 0
    for i in range(len(values) - 1, -1, -1):
        out[i] = total
        v = int(values[i])
        if v <= 0:
            continue
        if len(heap) < k:
            heapq.heappush(heap, v)
            total += v
        elif v > heap[0]:
            total += v - heapq.heappushpop(heap, v)
    return out


def _expand(st: _Search, picks: list[int], covered: np.ndarray, cov: int, gains: np.ndarray,
            allowed: np.ndarray, k: int) -> int:
    """Search below one node; return a proven bound on its subtree (exact if not timed out)."""
    st.nodes += 1
    if cov > st.best_cov:
        st.best, st.best_cov = list(picks), cov
    cand = np.flatnonzero(allowed & (gains > 0))
    if k == 0 or cand.size == 0:
        return cov
    cand = cand[np.argsort(st.rank[cand], kind="stable")]
    g = gains[cand]
    if k >= st.union_from:
        # no completion covers more than the uncovered weight some allowed rule reaches
        reachable = st.reachable(cand, covered)
        if cov + reachable <= st.best_cov:
            return cov + reachable
    else:
        reachable = None
    if k == 1:
        i = int(np.argmax(g))
        if cov + int(g[i]) > st.best_cov:
            st.best, st.best_cov = [*picks, int(cand[i])], cov + int(g[i])
        return cov + int(g[i])
    # a child t can reach at most cov + g(t) + (k - 1 largest gains ranked after t)
    reach = cov + g + _suffix_top(g, k - 1)
    if reachable is not None:
        reach = np.minimum(reach, cov + reachable)
    subtree = cov
    for pos in range(len(cand)):
        if reach[pos] <= st.best_cov:
            subtree = max(subtree, int(reach[pos]))
            continue
        if st.out_of_time():
            return max(subtree, int(reach[pos:].max()))
        rule = int(cand[pos])
        members = st.cover(rule)
        fresh = members[~covered[members]]
        child_gains = gains - st.overlap(fresh, weighted=True)
        child_allowed = allowed & ~st.conflicts(rule) & (st.rank > st.rank[rule])
        covered[fresh] = True
        found = _expand(st, [*picks, rule], covered, cov + int(gains[rule]), child_gains,
                        child_allowed, k - 1)
        covered[fresh] = False
        subtree = max(subtree, found)
    return subtree


def branch_and_bound(covers: Any, beta: Any, gamma: int, strict: bool = True,
                     weights: Any = None, incumbent: Any = None,
                     time_limit: float | None = None,
                     max_nodes: int | None = None) -> BnBResult:
    """Maximise covered weight over feasible sets of at most ``gamma`` rules, exactly.

    Parameters
    ----------
    covers : array-like or scipy.sparse matrix, shape (n_rules, n_columns)
        Boolean cover matrix (columns may be sample groups).
    beta : float or Fraction
        Overlap-rate bound; rates are measured in weighted samples.
    gamma : int
        Maximum number of rules.
    strict : bool
        Conflict when a rate is ``> beta`` (default) or ``>= beta``.
    weights : array-like of int, optional
        Samples behind each column (default 1).
    incumbent : sequence of int, optional
        A feasible set to beat (for example the local search's answer); it is
        returned when nothing better exists.  It is not checked here.
    time_limit : float, optional
        Seconds; at the limit the best set and a proven bound are returned
        with ``optimal=False``.
    max_nodes : int, optional
        Stop the same way after this many nodes (deterministic, unlike the clock).

    Returns
    -------
    BnBResult

    Examples
    --------
    >>> res = branch_and_bound([[1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 0, 1]], 0.5, 2)
    >>> res.selected, res.coverage, res.bound, res.optimal
    ([0, 2], 4, 4, True)
    """
    gamma = check_gamma(gamma)
    mat = as_cover_matrix(covers)
    w = (np.ones(mat.shape[1], dtype=np.int64) if weights is None
         else np.asarray(weights, dtype=np.int64).reshape(-1))
    deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
    st = _Search(mat, w, beta, strict, deadline)
    st.max_nodes = max_nodes
    if incumbent is not None and len(incumbent):
        picked = np.asarray(incumbent, dtype=np.int64).reshape(-1)
        hit = np.asarray(mat[picked].sum(axis=0)).ravel() > 0
        st.best, st.best_cov = sorted(picked.tolist()), int(w[hit].sum())
    allowed = st.counts > 0
    covered = np.zeros(mat.shape[1], dtype=bool)
    bound = _expand(st, [], covered, 0, st.sizes.copy(), allowed, gamma)
    # every column some rule covers is the last resort (a timed-out top level can exceed it)
    bound = min(max(bound, st.best_cov), int(w[np.diff(st.cols.indptr) > 0].sum()))
    optimal = not st.timed_out
    return BnBResult(selected=sorted(int(r) for r in st.best), coverage=st.best_cov,
                     bound=st.best_cov if optimal else bound, optimal=optimal, nodes=st.nodes)
