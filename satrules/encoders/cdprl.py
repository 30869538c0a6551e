"""Exact CDPRL (seed 000) as an IR model, and its decoder (ALGORITHMS.md §4).

Formulation (§4.2), maximising covered samples::

    maximise   sum_g w_g * y_g
    s.t.       y_g -> OR_{r in R(g)} x_r          hard clause (-y_g | x_r ...)   (coverage)
               sum_r x_r <= gamma                 cardinality                   (size)
               not (x_r and x_s)                  graph constraint / at-most-one (overlap-rate)
                                                  for every conflicting pair

Variable keys (paper symbols):

* ``("x", j)`` -- ``x_r``: the ``j``-th kept candidate rule is selected;
  ``layout.rules[j]`` is its index in the input ``covers``.
* ``("y", g)`` -- ``y_g``: sample group ``g`` is covered; it stands for
  ``layout.group_weights[g]`` samples with the same cover signature.

Soft units ``(y_g)`` weigh ``w_g``, so ``coverage = sum(w) - cost`` at an
optimum (``layout.total_weight`` is that constant offset).

A pair ``{r, s}`` conflicts when ``overlap / min(|cover(r)|, |cover(s)|)``
breaks ``beta`` (``> beta``, or ``>= beta`` when not ``strict``): the rate
bound must hold in both directions (§4.1).  The conflict graph comes from one
sparse product ``C C^T``; with ``clique=True`` its edges are covered greedily
by cliques (§4.3.5): cliques of three or more rules become at-most-one
cardinality constraints and the remaining edges one IR graph constraint.

Size reductions, all keeping the optimal coverage (§4.3):

1. samples no candidate covers are dropped (their ``y`` is 0) -- always;
2. samples with identical cover signatures share one ``y`` whose weight is
   their count -- always (vectorised: columns are hashed, then compared);
3. (``reduce``) of rules with identical covers one is kept: the more accurate
   (``accuracy``), then the lower index;
4. (``reduce``) rule ``r`` is dropped when some kept ``s`` has
   ``cover(r) <= cover(s)`` and ``N(s) - {r} <= N(r)`` (neighbourhoods in the
   conflict graph): any solution can swap ``r`` for ``s``.  Without the
   neighbourhood condition this would be wrong.

Reductions 3-4 keep the optimal *value* but may change *which* rules are
returned; turn them off to reproduce the paper.

References
----------
Seed 000: "Learning High Coverage Discriminative Parsimonious Rulesets" (CDPRL, §3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from satrules.covers import as_cover_matrix, beta_fraction, check_gamma, check_sample_weight
from satrules.encoders.cdprl_bounds import (
    best_bound,
    conflict_bound,
    coverage_upper_bound,
    rule_bounds,
    trivial_bound,
)
from satrules.exceptions import EncodingError, ModelSizeError
from satrules.ir import Model, Solution, clique_cover

__all__ = [
    "DEFAULT_MAX_SIZE",
    "CDPRLEncoding",
    "CDPRLLayout",
    "CDPRLAnswer",
    "decode_cdprl",
    "encode_cdprl",
    "conflict_bound",
    "coverage_upper_bound",
    "rule_bounds",
    "estimate_cdprl_size",
    "hint_cdprl",
    "trivial_bound",
]

#: Default limit on the estimated model size (conflict pairs + coverage literals).
DEFAULT_MAX_SIZE = 50_000_000
_HASH_SEED = 20260129


@dataclass(frozen=True)
class CDPRLLayout:
    """What the CDPRL variables mean (the encoder-decoder contract).

    Attributes
    ----------
    rules : ndarray of int
        ``rules[j]`` is the input index of the rule behind ``("x", j)`` (ascending).
    x, y : ndarray of int
        Variable ids of ``x_r`` (per kept rule) and ``y_g`` (per sample group).
    group_weights : ndarray of int
        Samples per group (their total weight with ``sample_weight``).
    group_rules : scipy.sparse.csr_matrix
        Groups x kept rules: the cover signature of each group.
    total_weight : int
        Samples covered by at least one candidate (``sum(group_weights)``).
    sizes : ndarray of int
        ``|cover|`` of each kept rule (a weight sum with ``sample_weight``).
    gamma : int
    position : ndarray of int
        For each input rule, the kept rule that may replace it in any solution
        (itself, an identical-cover twin, or its dominator), ``-1`` for an
        empty cover.
    stats : dict
        Counts: rules in/kept, removed by reductions 3 and 4, samples, groups,
        conflict edges, cliques.
    edges : ndarray of int, shape (n_edges, 2)
        Conflicting pairs of kept rules (positions, ``a < b``).
    """

    rules: np.ndarray
    x: np.ndarray
    y: np.ndarray
    group_weights: np.ndarray
    group_rules: sp.csr_matrix
    total_weight: int
    sizes: np.ndarray
    gamma: int
    position: np.ndarray
    stats: dict
    edges: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    cache: dict = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class CDPRLEncoding:
    """An encoded CDPRL instance: the IR ``model`` and its ``layout``."""

    model: Model
    layout: CDPRLLayout


@dataclass(frozen=True)
class CDPRLAnswer:
    """A decoded answer: selected input rule indices, their coverage and a proven upper bound."""

    selected: list[int]
    coverage: int
    bound: int
    bound_source: str = ""


# ---------------------------------------------------------------------- helpers
def _as_csr(covers: Any) -> sp.csr_matrix:
    try:
        return as_cover_matrix(covers)
    except ValueError as exc:
        raise EncodingError(str(exc)) from exc


def _beta_fraction(beta: Any) -> tuple[int, int]:
    try:
        return beta_fraction(beta)
    except ValueError as exc:
        raise EncodingError(str(exc)) from exc


def _segment_hash(indptr: np.ndarray, indices: np.ndarray, n_keys: int,
                  rng: np.random.Generator) -> np.ndarray:
    """Return a random 64-bit sum per CSR segment (wrap-around arithmetic)."""
    salt = rng.integers(0, np.iinfo(np.int64).max, size=n_keys, dtype=np.int64).astype(np.uint64)
    csum = np.zeros(len(indices) + 1, dtype=np.uint64)
    np.cumsum(salt[indices], out=csum[1:])
    return csum[indptr[1:]] - csum[indptr[:-1]]


def _group_identical(indptr: np.ndarray, indices: np.ndarray,
                     n_keys: int) -> tuple[np.ndarray, np.ndarray]:
    """Group identical CSR segments (rows of a sorted-index CSR matrix).

    Returns ``(group, first)``: ``group[i]`` numbers segment ``i``'s group by
    first occurrence and ``first[g]`` is the first segment of group ``g``.
    Segments are hashed twice, then every segment is compared with its
    group's first one, so the grouping is exact (a hash collision falls back
    to exact grouping by tuples).
    """
    n = len(indptr) - 1
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    rng = np.random.default_rng(_HASH_SEED)
    lengths = np.diff(indptr).astype(np.uint64)
    keys = np.stack([lengths, _segment_hash(indptr, indices, n_keys, rng),
                     _segment_hash(indptr, indices, n_keys, rng)], axis=1)
    _, first_seen, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    order = np.argsort(first_seen, kind="stable")  # renumber groups by first occurrence
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    group, first = rank[inverse], first_seen[order]
    lens = np.diff(indptr)
    rep = first[group]
    owner = np.repeat(np.arange(n), lens)
    within = np.arange(len(indices)) - np.repeat(indptr[:-1], lens)
    if np.array_equal(indices, indices[indptr[rep][owner] + within]):
        return group.astype(np.int64), first.astype(np.int64)
    seen: dict[tuple, int] = {}  # collision: exact grouping (practically never reached)
    group = np.array([seen.setdefault(tuple(indices[indptr[i]:indptr[i + 1]].tolist()), len(seen))
                      for i in range(n)], dtype=np.int64)
    _, first = np.unique(group, return_index=True)
    return group, first.astype(np.int64)


def estimate_cdprl_size(covers: Any) -> dict[str, int]:
    """Estimate the CDPRL model size before building it (no product is formed).

    Returns upper bounds on the number of conflict pairs (rule pairs sharing a
    sample: ``sum_i C(deg_i, 2)``, capped by ``n(n-1)/2``), of sample groups
    (covered samples), of coverage-clause literals (``nnz + groups``), and
    ``size`` = pairs + literals, which ``max_size`` limits.

    Examples
    --------
    >>> estimate_cdprl_size([[1, 1, 0], [0, 1, 1]])
    {'rules': 2, 'pairs': 1, 'groups': 3, 'literals': 7, 'size': 8}
    """
    mat = _as_csr(covers)
    mat = mat[np.diff(mat.indptr) > 0]
    deg = np.bincount(mat.indices, minlength=mat.shape[1]).astype(np.int64)
    n = mat.shape[0]
    pairs = int(min((deg * (deg - 1) // 2).sum(), n * (n - 1) // 2))
    groups = int(np.count_nonzero(deg))
    literals = int(mat.nnz) + groups
    return {"rules": n, "pairs": pairs, "groups": groups, "literals": literals,
            "size": pairs + literals}


def _weighted_sizes(mat: sp.csr_matrix, w: np.ndarray | None) -> np.ndarray:
    """``|cover(r)|`` per rule: a weight sum with sample weights ``w``."""
    if w is None:
        return np.diff(mat.indptr).astype(np.int64)
    return np.asarray(mat.astype(np.int64) @ w).ravel()


def _conflict_edges(mat: sp.csr_matrix, p: int, q: int, strict: bool,
                    w: np.ndarray | None = None):
    """Return ``(edges (E, 2) with a < b, overlap matrix)`` from one sparse product
    (overlaps and sizes are weight sums with sample weights ``w``)."""
    counts = mat.astype(np.int32) if w is None else mat.astype(np.int64)
    right = counts if w is None else counts.multiply(w[None, :]).tocsr()
    ov = (right @ counts.T).tocoo()
    sizes = _weighted_sizes(mat, w)
    upper = ov.row < ov.col
    a, b, o = ov.row[upper].astype(np.int64), ov.col[upper].astype(np.int64), ov.data[upper]
    small = np.minimum(sizes[a], sizes[b])
    o = o.astype(np.int64)
    # ALGORITHMS.md §4.1: conflict iff overlap / min(|cover(a)|, |cover(b)|) breaks beta
    bad = (o * q > p * small) if strict else (o * q >= p * small)
    return np.stack([a[bad], b[bad]], axis=1), ov


def _identical_covers(mat: sp.csr_matrix, accuracy: np.ndarray | None) -> np.ndarray:
    """Reduction 3: for each rule, the rule kept for its cover (best accuracy, then index)."""
    group, _ = _group_identical(mat.indptr, mat.indices, mat.shape[1])
    n = mat.shape[0]
    acc = np.zeros(n) if accuracy is None else -np.asarray(accuracy, dtype=float)
    order = np.lexsort((np.arange(n), acc, group))  # by group, then accuracy desc, then index
    best = np.empty(group.max() + 1 if n else 0, dtype=np.int64)
    is_head = np.ones(n, dtype=bool)
    is_head[1:] = group[order][1:] != group[order][:-1]
    best[group[order][is_head]] = order[is_head]
    return best[group]


def _dominated(mat: sp.csr_matrix, edges: np.ndarray, ov,
               w: np.ndarray | None = None) -> np.ndarray:
    """Reduction 4: return ``dominator`` (``-1`` = kept) for rules of distinct covers."""
    n = mat.shape[0]
    sizes = _weighted_sizes(mat, w)
    dominator = np.full(n, -1, dtype=np.int64)
    # cover(r) <= cover(s)  <=>  overlap(r, s) == |cover(r)| (weights are positive)
    sub = (ov.row != ov.col) & (ov.data.astype(np.int64) == sizes[ov.row])
    cand_r, cand_s = ov.row[sub].astype(np.int64), ov.col[sub].astype(np.int64)
    if cand_r.size == 0:
        return dominator
    order = np.lexsort((cand_s, cand_r))
    cand_r, cand_s = cand_r[order], cand_s[order]
    alive = np.ones(n, dtype=bool)
    adj = sp.csr_matrix((np.ones(2 * len(edges), dtype=np.int32),
                         (np.r_[edges[:, 0], edges[:, 1]], np.r_[edges[:, 1], edges[:, 0]])),
                        shape=(n, n))
    while True:
        live = sp.csr_matrix((alive.astype(np.int32), (np.arange(n), np.arange(n))),
                             shape=(n, n))
        cur = (live @ adj @ live).tocsr()
        deg = np.asarray(cur.sum(axis=1)).ravel()
        ok = alive[cand_r] & alive[cand_s]
        r, s = cand_r[ok], cand_s[ok]
        if r.size == 0:
            return dominator
        common = np.asarray(cur[r].multiply(cur[s]).sum(axis=1)).ravel()
        # N(s) - {r} <= N(r): every neighbour of s other than r is a neighbour of r
        holds = deg[s] - np.asarray(cur[s, r]).ravel() == common
        removed = False
        # Removing a third rule t keeps the condition of every other pair (both
        # neighbourhoods lose t), so one pass may remove many rules, as long as
        # each removal's dominator is still present.
        for rr, ss in zip(r[holds].tolist(), s[holds].tolist(), strict=True):
            if alive[rr] and alive[ss]:
                alive[rr] = False
                dominator[rr] = ss
                removed = True
        if not removed:
            return dominator


def _resolve(pointer: np.ndarray) -> np.ndarray:
    """Follow ``pointer`` chains (``-1`` = stop) to their ends, vectorised by doubling."""
    target = np.where(pointer < 0, np.arange(len(pointer)), pointer)
    while True:
        nxt = target[target]
        if np.array_equal(nxt, target):
            return target
        target = nxt


def _check_gamma(gamma: Any) -> int:
    try:
        return check_gamma(gamma)
    except ValueError as exc:
        raise EncodingError(str(exc)) from exc


def _reduce_rules(mat: sp.csr_matrix, p: int, q: int, strict: bool, reduce: bool,
                  accuracy: np.ndarray | None, w: np.ndarray | None = None):
    """Return (kept input indices, position per input rule, edges among kept, stats)."""
    n_in = mat.shape[0]
    nonempty = np.flatnonzero(np.diff(mat.indptr) > 0)
    pointer = np.full(n_in, -1, dtype=np.int64)
    pointer[nonempty] = nonempty
    stats = {"identical": 0, "dominated": 0}
    cand = nonempty
    if reduce and cand.size:
        acc = None if accuracy is None else np.asarray(accuracy, dtype=float)[cand]
        best = cand[_identical_covers(mat[cand], acc)]
        pointer[cand] = best
        stats["identical"] = int(np.count_nonzero(best != cand))
        cand = np.unique(best)
    sub = mat[cand]
    edges, ov = _conflict_edges(sub, p, q, strict, w)
    if reduce and cand.size:
        dominator = _dominated(sub, edges, ov, w)
        gone = dominator >= 0
        stats["dominated"] = int(np.count_nonzero(gone))
        pointer[cand[gone]] = cand[dominator[gone]]
        if gone.any():
            keep = ~gone
            new_pos = np.cumsum(keep) - 1
            ok = keep[edges[:, 0]] & keep[edges[:, 1]]
            edges = new_pos[edges[ok]]
            cand = cand[keep]
    final = _resolve(pointer)
    position = np.full(n_in, -1, dtype=np.int64)
    has = pointer >= 0
    position[has] = np.searchsorted(cand, final[has])
    return cand, position, edges, stats


def _add_conflicts(model: Model, x: np.ndarray, edges: np.ndarray, clique: bool) -> int:
    """Post the conflict graph on ``x``; return the number of at-most-one cliques used."""
    if len(edges) == 0:
        return 0
    if not clique:
        model.add_graph(x, edges)
        return 0
    pairs, n_cliques = [], 0
    for members in clique_cover(len(x), edges):
        if len(members) == 2:
            pairs.append(members)
        else:  # §4.3.5: one at-most-one replaces |Q|(|Q|-1)/2 edges and is LP-tighter
            model.add_cardinality(x[members], "<=", 1)
            n_cliques += 1
    if pairs:
        model.add_graph(x, np.vstack(pairs))
    return n_cliques


def encode_cdprl(covers: Any, beta: Any, gamma: int, *, strict: bool = True,
                 reduce: bool = True, clique: bool = True, accuracy: Any = None,
                 max_size: int | None = DEFAULT_MAX_SIZE,
                 sample_weight: Any = None) -> CDPRLEncoding:
    """Encode ``max coverage(S) s.t. |S| <= gamma, overlap-rate <= beta`` as an IR model.

    Parameters
    ----------
    covers : array-like or scipy.sparse matrix, shape (n_rules, n_samples)
        Boolean cover matrix of the candidate rules.
    beta : float or Fraction
        Overlap-rate bound, read as an exact decimal fraction.
    gamma : int
        Maximum number of rules.
    strict : bool
        Conflict when a rate is ``> beta`` (default) or ``>= beta`` (the seed's Algorithm 1).
    reduce : bool
        Apply reductions 3 (identical covers) and 4 (dominated rules).
    clique : bool
        Cover the conflict edges with cliques and post at-most-ones (§4.3.5).
    accuracy : array-like of float, optional
        Per-rule accuracy, the tie-break of reduction 3.
    max_size : int or None
        Refuse instances whose estimate (:func:`estimate_cdprl_size`) exceeds it.
    sample_weight : array-like of int, optional
        Positive integer weight per sample: a sample of weight ``w`` counts as ``w``
        samples in coverage (its group's soft weight), cover sizes and overlaps, so
        the optimum is that of the instance with each sample repeated ``w`` times.

    Returns
    -------
    CDPRLEncoding

    Raises
    ------
    ModelSizeError
        If the size estimate exceeds ``max_size``.
    EncodingError
        For a bad ``beta``, ``gamma``, ``covers`` or ``accuracy``.

    Examples
    --------
    >>> from satrules.backends.registry import solve
    >>> covers = [[1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 0, 1]]
    >>> enc = encode_cdprl(covers, beta=0.5, gamma=2)
    >>> ans = decode_cdprl(enc.layout, solve(enc.model, backend="bruteforce"))
    >>> ans.selected, ans.coverage, ans.bound
    ([0, 2], 4, 4)
    """
    mat = _as_csr(covers)
    p, q = _beta_fraction(beta)
    gamma = _check_gamma(gamma)
    if accuracy is not None and np.shape(accuracy) != (mat.shape[0],):
        raise EncodingError(f"accuracy needs one value per rule ({mat.shape[0]}), "
                            f"got shape {np.shape(accuracy)}")
    try:
        w = check_sample_weight(sample_weight, mat.shape[1])
    except ValueError as exc:
        raise EncodingError(str(exc)) from exc
    est = estimate_cdprl_size(mat)
    if max_size is not None and est["size"] > max_size:
        raise ModelSizeError(
            f"the CDPRL model would hold about {est['size']:,} elements ({est['pairs']:,} "
            f"candidate conflict pairs, {est['literals']:,} coverage literals over "
            f"{est['groups']:,} sample groups, {est['rules']:,} rules) > max_size={max_size:,}; "
            "use fewer candidates (raise alpha, lower delta), a sample of the rows, "
            "the GRA heuristic, or a larger max_size")
    rules, position, edges, red = _reduce_rules(mat, p, q, strict, reduce, accuracy, w)
    kept = mat[rules]
    # §4.3.1-2: groups of samples with the same cover signature, uncovered samples dropped
    csc = kept.tocsc()
    csc.sort_indices()
    covered = np.flatnonzero(np.diff(csc.indptr) > 0)
    sig = csc[:, covered]
    group, first = _group_identical(sig.indptr, sig.indices, kept.shape[0])
    weights = np.bincount(group, minlength=len(first)).astype(np.int64) if w is None else \
        np.bincount(group, weights=w[covered], minlength=len(first)).round().astype(np.int64)
    group_rules = sig[:, first].T.tocsr()
    group_rules.sort_indices()

    model = Model()
    x = model.new_vars("x", len(rules))
    y = model.new_vars("y", len(first))
    # §4.2 coverage: (-y_g | x_r for r in R(g)), built in CSR form
    lens = np.diff(group_rules.indptr) + 1
    offsets = np.zeros(len(first) + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    flat = np.empty(int(offsets[-1]), dtype=np.int64)
    heads = offsets[:-1]
    flat[heads] = -y
    body = np.ones(len(flat), dtype=bool)
    body[heads] = False
    flat[body] = x[group_rules.indices]
    if len(first):
        model.add_clauses(flat, offsets)
    if gamma < len(rules):
        model.add_cardinality(x, "<=", gamma)
    n_cliques = _add_conflicts(model, x, edges, clique)
    if len(first):
        model.add_soft_units(y, weights)
    stats = {"rules_in": mat.shape[0], "rules_kept": len(rules),
             "removed_identical": red["identical"], "removed_dominated": red["dominated"],
             "samples": mat.shape[1], "samples_covered": int(weights.sum()),
             "groups": len(first), "edges": len(edges), "cliques": n_cliques}
    layout = CDPRLLayout(rules=rules, x=x, y=y, group_weights=weights, group_rules=group_rules,
                         total_weight=int(weights.sum()),
                         sizes=_weighted_sizes(kept, w), gamma=gamma,
                         position=position, stats=stats, edges=edges)
    return CDPRLEncoding(model=model, layout=layout)


def decode_cdprl(layout: CDPRLLayout, solution: Solution) -> CDPRLAnswer:
    """Read the selected rules, their true coverage and a proven upper bound from ``solution``.

    The coverage is recomputed from the selected rules (a non-optimal answer
    may leave a covered group's ``y`` false).  The bound is the optimum when
    the status is OPTIMAL, else the smallest of ``total_weight - lower_bound``
    (when the engine proved a lower bound on the cost) and the combinatorial
    bounds of :func:`satrules.encoders.cdprl_bounds.best_bound` (trivial,
    submodular, conflict-aware); ``bound_source`` names the winner.  An
    UNSATISFIABLE or UNKNOWN answer selects nothing.
    """
    if solution.values is None or not solution.status.is_feasible:
        bound, source = best_bound(layout)
        return CDPRLAnswer(selected=[], coverage=0, bound=bound, bound_source=source)
    chosen = solution.values[layout.x]
    hit = (layout.group_rules @ chosen.astype(np.int64)) > 0
    cov = int(layout.group_weights[hit].sum())
    if solution.status.name == "OPTIMAL":
        bound, source = layout.total_weight - int(solution.cost), "optimal"
    else:
        bound, source = best_bound(layout, chosen)
        if solution.lower_bound is not None and (
                layout.total_weight - int(solution.lower_bound) < bound):
            bound, source = layout.total_weight - int(solution.lower_bound), "engine"
    return CDPRLAnswer(selected=sorted(layout.rules[chosen].tolist()), coverage=cov,
                       bound=max(bound, cov), bound_source=source)


def hint_cdprl(layout: CDPRLLayout, selected: Any) -> dict[int, bool]:
    """Return a warm-start hint ``{var: bool}`` for the rules ``selected`` (input indices).

    Each rule is mapped to the kept rule that replaces it (reductions 3-4 keep
    feasibility under that swap); rules with an empty cover are skipped.  The
    ``y`` of each group the mapped rules cover is set true.
    """
    sel = np.asarray(selected, dtype=np.int64).reshape(-1)
    if sel.size and (sel.min() < 0 or sel.max() >= len(layout.position)):
        raise EncodingError(f"hint rule indices must lie in 0..{len(layout.position) - 1}, "
                            f"got {sel.min()}..{sel.max()}")
    pos = layout.position[sel] if sel.size else sel
    chosen = np.zeros(len(layout.rules), dtype=bool)
    chosen[pos[pos >= 0]] = True
    hit = (layout.group_rules @ chosen.astype(np.int64)) > 0
    hint = dict(zip(layout.x.tolist(), chosen.tolist(), strict=True))
    hint.update(zip(layout.y.tolist(), hit.tolist(), strict=True))
    return hint
