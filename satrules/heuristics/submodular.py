"""Coverage, the CDPRL constraint check, the relaxed objective ``g`` and exhaustive oracles.

Shared by GRA (:mod:`satrules.heuristics.gra`), GDY
(:mod:`satrules.heuristics.gdy`) and the local search
(:mod:`satrules.heuristics.local`).  Cover matrices, ``beta`` fractions and
the exact rate test live in :mod:`satrules.covers` (one home shared with the
exact encoder) and are re-exported here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from satrules.covers import (
    Incidence,
    as_cover_matrix,
    beta_fraction,
    check_gamma,
    rate_exceeds,
)

__all__ = [
    "Incidence",
    "as_cover_matrix",
    "beta_fraction",
    "check_gamma",
    "conflicting_pairs",
    "coverage",
    "exhaustive_cdprl",
    "exhaustive_gdy",
    "gdy_objective",
    "is_feasible",
    "rate_exceeds",
]


def coverage(covers: Any, selected: Any) -> int:
    """Return ``|union of cover(r) for r in selected|``.

    Examples
    --------
    >>> coverage([[1, 1, 0], [0, 1, 1], [0, 0, 0]], [0, 1])
    3
    """
    mat = as_cover_matrix(covers)
    sel = np.asarray(selected, dtype=np.int64).reshape(-1)
    if sel.size == 0:
        return 0
    return int(np.count_nonzero(np.asarray(mat[sel].sum(axis=0)).ravel()))


def _overlaps(mat: sp.csr_matrix, sel: np.ndarray) -> np.ndarray:
    """Return the dense ``|sel| x |sel|`` matrix of pairwise overlaps."""
    sub = mat[sel].astype(np.int64)
    return np.asarray((sub @ sub.T).todense(), dtype=np.int64)


def conflicting_pairs(covers: Any, selected: Any, beta: Any, strict: bool = True) -> list:
    """Return the pairs ``(r, s)`` of ``selected`` (``r < s``) that break ``overlap-rate <= beta``.

    The pair conflicts when the rate is too high in **either** direction,
    i.e. when ``overlap / min(|cover(r)|, |cover(s)|)`` breaks the bound.
    Meant for checking answers (``len(selected)`` small); the exact encoder
    builds the whole conflict graph with one sparse product instead.

    Examples
    --------
    >>> covers = [[1, 1, 1, 1, 1, 1, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0, 0, 0]]
    >>> conflicting_pairs(covers, [0, 1], 0.5)
    [(0, 1)]
    """
    mat = as_cover_matrix(covers)
    sel = np.unique(np.asarray(selected, dtype=np.int64).reshape(-1))
    if sel.size < 2:
        return []
    ov = _overlaps(mat, sel)
    size = np.diag(ov)
    bad = rate_exceeds(ov, size[:, None], beta, strict) | rate_exceeds(ov, size[None, :], beta,
                                                                       strict)
    i, j = np.nonzero(np.triu(bad, k=1))
    return [(int(sel[a]), int(sel[b])) for a, b in zip(i, j, strict=True)]


def is_feasible(covers: Any, selected: Any, beta: Any, gamma: int, strict: bool = True) -> bool:
    """Return whether ``selected`` is a feasible CDPRL answer.

    Feasible means: distinct valid rule indices, at most ``gamma`` of them, no
    rule with an empty cover (its overlap-rate is 0/0), and every ordered pair
    within the overlap-rate bound.

    Examples
    --------
    >>> covers = [[1, 1, 1, 1, 1, 1, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 1, 1]]
    >>> is_feasible(covers, [0, 2], 0.5, 2), is_feasible(covers, [0, 1], 0.5, 2)
    (True, False)
    """
    mat = as_cover_matrix(covers)
    sel = np.asarray(selected, dtype=np.int64).reshape(-1)
    if len(np.unique(sel)) != len(sel) or len(sel) > gamma:
        return False
    if sel.size and (sel.min() < 0 or sel.max() >= mat.shape[0]):
        return False
    if sel.size and np.any(np.diff(mat.indptr)[sel] == 0):
        return False
    return not conflicting_pairs(mat, sel, beta, strict)


def gdy_objective(covers: Any, selected: Any, lam: float) -> float:
    """Return ``g(S) = coverage(S) + lam * (N - mean-overlap(S))`` (seed eq. 5, ALGORITHMS.md §6.1).

    ``mean-overlap(S)`` sums ``overlap(r, s)`` over **ordered** pairs ``r != s``
    of ``S`` and divides by ``|S|**2``; ``mean-overlap`` of the empty set and of
    a singleton is 0, so ``g(empty) = lam * N``.  ``N`` is the number of
    samples (columns of ``covers``).

    Examples
    --------
    >>> cov = [[1, 1], [1, 1], [1, 1]]          # three identical rules, N = 2
    >>> gdy_objective(cov, [], 1), gdy_objective(cov, [0], 1), gdy_objective(cov, [0, 1], 1)
    (2.0, 4.0, 3.0)
    """
    mat = as_cover_matrix(covers)
    n_samples = mat.shape[1]
    sel = np.asarray(selected, dtype=np.int64).reshape(-1)
    if sel.size == 0:
        return float(lam * n_samples)
    ov = _overlaps(mat, sel)
    pair_sum = int(ov.sum() - np.trace(ov))
    cov = coverage(mat, sel)
    return float(cov + lam * (n_samples - pair_sum / len(sel) ** 2))


_MAX_EXHAUSTIVE = 16


def _subsets(n_rules: int, gamma: int) -> np.ndarray:
    """Return every subset of at most ``gamma`` of ``n_rules`` rules as bool rows."""
    if n_rules > _MAX_EXHAUSTIVE:
        raise ValueError(f"exhaustive search is limited to {_MAX_EXHAUSTIVE} rules, "
                         f"got {n_rules}")
    codes = np.arange(1 << n_rules, dtype=np.int64)
    masks = ((codes[:, None] >> np.arange(n_rules)) & 1).astype(bool)
    return masks[masks.sum(axis=1) <= gamma]


def _best(masks: np.ndarray, values: np.ndarray) -> tuple[Any, list[int]]:
    i = int(np.argmax(values))  # first maximum: the smallest subset code among the best
    return values[i].item(), np.flatnonzero(masks[i]).tolist()


def exhaustive_cdprl(covers: Any, beta: Any, gamma: int,
                     strict: bool = True) -> tuple[int, list[int]]:
    """Return the optimal CDPRL coverage and one optimal subset by enumerating all subsets.

    The test oracle for tiny instances (at most 16 rules); independent of the
    IR and of every backend.  Rules with an empty cover are never selected.

    Examples
    --------
    >>> exhaustive_cdprl([[1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 0, 1]], 0.5, 2)
    (4, [0, 2])
    """
    mat = as_cover_matrix(covers)
    gamma = check_gamma(gamma)
    n = mat.shape[0]
    masks = _subsets(n, gamma)
    dense = mat.toarray().astype(np.int64)
    ov = dense @ dense.T
    size = np.diag(ov)
    conflict = rate_exceeds(ov, size[:, None], beta, strict) | rate_exceeds(
        ov, size[None, :], beta, strict)
    np.fill_diagonal(conflict, size == 0)  # an empty-cover rule conflicts with itself
    m_int = masks.astype(np.int64)
    bad = ((m_int @ conflict.astype(np.int64)) * m_int).sum(axis=1) > 0
    cov = ((m_int @ dense) > 0).sum(axis=1)
    return _best(masks, np.where(bad, -1, cov))


def exhaustive_gdy(covers: Any, gamma: int, lam: float) -> tuple[float, list[int]]:
    """Return ``max g(S)`` over ``|S| <= gamma`` and one maximiser, by enumeration.

    Rules with an empty cover are excluded, as in :func:`~satrules.heuristics.gdy.gdy_select`.

    Examples
    --------
    >>> exhaustive_gdy([[1, 1, 0], [0, 1, 1]], 2, lam=1.0)
    (5.5, [0, 1])
    """
    mat = as_cover_matrix(covers)
    gamma = check_gamma(gamma)
    masks = _subsets(mat.shape[0], gamma)
    masks = masks[~masks[:, np.diff(mat.indptr) == 0].any(axis=1)]
    dense = mat.toarray().astype(np.int64)
    ov = dense @ dense.T
    np.fill_diagonal(ov, 0)
    m_int = masks.astype(np.int64)
    pair_sum = ((m_int @ ov) * m_int).sum(axis=1)
    k = masks.sum(axis=1)
    mean = np.where(k > 0, pair_sum / np.maximum(k, 1) ** 2, 0.0)
    cov = ((m_int @ dense) > 0).sum(axis=1)
    return _best(masks, (cov + lam * (mat.shape[1] - mean)).astype(float))
