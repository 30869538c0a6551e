"""Proven upper bounds on the optimal CDPRL coverage, read from a :class:`CDPRLLayout`.

Three bounds, each valid without any engine (ALGORITHMS.md §4.3.6):

* :func:`trivial_bound` -- the ``gamma`` largest covers;
* :func:`coverage_upper_bound` -- submodularity (Nemhauser, Wolsey & Fisher
  1978), conflicts ignored;
* :func:`conflict_bound` -- conflict-aware: for each rule taken as the
  *largest* selected one, its cover plus the ``gamma - 1`` largest marginal
  gains ``|cover(s) - cover(r)|`` of the rules ``s`` that are compatible with
  it and not larger (in the order size descending, index ascending).  Every
  optimal set has a largest rule, so the maximum over ``r`` is a bound.

:func:`best_bound` takes the smallest and says which one it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:  # the layout imports this module for decoding
    from satrules.encoders.cdprl import CDPRLLayout

__all__ = ["best_bound", "conflict_bound", "coverage_upper_bound", "rule_bounds",
           "trivial_bound"]

#: Rows of the dense overlap block formed at once by :func:`rule_bounds`.
_BLOCK_CELLS = 4_000_000


def trivial_bound(layout: CDPRLLayout) -> int:
    """Return ``min(covered samples, sum of the gamma largest covers)`` (§4.3.6)."""
    top = np.sort(layout.sizes)[::-1][:layout.gamma]
    return int(min(layout.total_weight, int(top.sum())))


def coverage_upper_bound(layout: CDPRLLayout, chosen: Any = None) -> int:
    """Return a proven upper bound on the optimal coverage from submodularity.

    Coverage ``f`` is monotone submodular, and dropping the conflicts only
    enlarges the feasible sets, so for **any** rule set ``S``
    ``OPT <= f(S) + (sum of the gamma largest gains f(S + r) - f(S))``
    (Nemhauser, Wolsey & Fisher 1978).  The bound is taken as the minimum over
    ``S`` = every prefix of the conflict-free greedy and ``S = chosen`` (a bool
    mask over the kept rules); ``S`` empty gives the sum of the gamma largest
    covers.  It costs one sparse product per greedy step.
    """
    gamma = layout.gamma
    weights = layout.group_weights.astype(np.int64)
    by_rule = layout.group_rules.T.tocsr().astype(np.int64)
    if by_rule.shape[0] == 0 or gamma == 0:
        return 0

    def bound_at(uncovered: np.ndarray) -> tuple[int, np.ndarray]:
        gains = by_rule @ (weights * uncovered)
        top = np.partition(gains, -min(gamma, len(gains)))[-min(gamma, len(gains)):]
        value = int(weights[uncovered == 0].sum())
        return value + int(top.sum()), gains

    best = layout.total_weight
    if chosen is not None:
        hit = (layout.group_rules @ np.asarray(chosen, dtype=np.int64)) > 0
        best = min(best, bound_at((~hit).astype(np.int64))[0])
    uncovered = np.ones(len(weights), dtype=np.int64)
    for _ in range(gamma + 1):
        value, gains = bound_at(uncovered)
        best = min(best, value)
        rule = int(np.argmax(gains))
        if gains[rule] == 0:
            break
        start, stop = by_rule.indptr[rule], by_rule.indptr[rule + 1]
        uncovered[by_rule.indices[start:stop]] = 0
    return int(best)


def rule_bounds(layout: CDPRLLayout) -> np.ndarray:
    """Return, per kept rule ``r``, a bound on any feasible set whose largest rule is ``r``.

    ``bound[r] = |cover(r)| + (sum of the gamma - 1 largest |cover(s) - cover(r)|)``
    over the rules ``s`` ranked after ``r`` (size descending, then position)
    that do not conflict with ``r``; capped at the covered samples.  Formed
    in dense row blocks of the weighted overlap matrix (``O(n_rules**2)``
    cells in total, a few million at a time).  Memoised in ``layout.cache``.
    """
    if "rule_bounds" in layout.cache:
        return layout.cache["rule_bounds"]
    n = len(layout.rules)
    gamma = layout.gamma
    out = np.zeros(n, dtype=np.int64)
    if n == 0 or gamma == 0:
        layout.cache["rule_bounds"] = out
        return out
    by_rule = layout.group_rules.T.tocsr().astype(np.int64)
    weighted = by_rule.multiply(layout.group_weights.astype(np.int64)[None, :]).tocsr()
    sizes = layout.sizes.astype(np.int64)
    rank = np.empty(n, dtype=np.int64)
    rank[np.lexsort((np.arange(n), -sizes))] = np.arange(n)
    edges = layout.edges
    adj = sp.csr_matrix((np.ones(2 * len(edges), dtype=bool),
                         (np.r_[edges[:, 0], edges[:, 1]], np.r_[edges[:, 1], edges[:, 0]])),
                        shape=(n, n))
    k = min(gamma - 1, n - 1)
    block = max(1, _BLOCK_CELLS // max(n, 1))
    for lo in range(0, n, block):
        rows = np.arange(lo, min(lo + block, n))
        ov = (weighted[rows] @ by_rule.T).toarray()
        gain = sizes[None, :] - ov
        allowed = (rank[None, :] > rank[rows, None]) & ~adj[rows].toarray()
        gain = np.where(allowed, gain, 0)
        top = (np.partition(gain, gain.shape[1] - k, axis=1)[:, gain.shape[1] - k:].sum(axis=1)
               if k > 0 else 0)
        out[rows] = sizes[rows] + top
    out = np.minimum(out, layout.total_weight)
    layout.cache["rule_bounds"] = out
    return out


def conflict_bound(layout: CDPRLLayout) -> int:
    """Return the conflict-aware bound ``max_r rule_bounds(layout)[r]`` (0 without rules)."""
    bounds = rule_bounds(layout)
    return int(bounds.max()) if len(bounds) else 0


def best_bound(layout: CDPRLLayout, chosen: Any = None) -> tuple[int, str]:
    """Return the smallest of the three bounds and its name.

    ``chosen`` (a bool mask over the kept rules) is passed to
    :func:`coverage_upper_bound`.  Names: ``"trivial"``, ``"submodular"``,
    ``"conflict"``.
    """
    # a plain string key: the layout (cache included) is saved with fitted estimators
    picked = "" if chosen is None else ",".join(map(str, np.flatnonzero(chosen).tolist()))
    key = f"best_bound:{'-' if chosen is None else picked}"
    if key not in layout.cache:
        found = [(trivial_bound(layout), "trivial"),
                 (coverage_upper_bound(layout, chosen), "submodular"),
                 (conflict_bound(layout), "conflict")]
        layout.cache[key] = list(min(found, key=lambda item: item[0]))
    bound, source = layout.cache[key]
    return int(bound), str(source)
