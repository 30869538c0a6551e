"""Cover matrices, overlap rates, the CDPRL constraint check and the relaxed objective ``g``.

Shared by GRA (:mod:`satrules.heuristics.gra`) and GDY
(:mod:`satrules.heuristics.gdy`).  A *cover matrix* is a boolean
``n_rules x n_samples`` matrix (numpy or scipy.sparse): entry ``(r, i)`` is
true when sample ``i`` satisfies the condition of rule ``r``
(ALGORITHMS.md §4.1).

Overlap-rate tests are exact: ``beta`` is turned into a fraction ``p / q``
once and ``overlap / |cover(r)| > beta`` is evaluated as the integer test
``overlap * q > p * |cover(r)|``, so a rate equal to ``beta`` is never
misjudged by floating-point rounding (strict versus non-strict changes optima,
ALGORITHMS.md §4.4).
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sp

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

_MAX_DENOMINATOR = 10**6
#: Overlap queries answered by matrix-vector products before a CSC copy is built.
_PRODUCTS_BEFORE_CSC = 16


def as_cover_matrix(covers: Any) -> sp.csr_matrix:
    """Return ``covers`` as a canonical boolean CSR matrix (sorted indices, no explicit zeros).

    Parameters
    ----------
    covers : array-like or scipy.sparse matrix, shape (n_rules, n_samples)
        Non-zero entries mean "rule covers sample".

    Raises
    ------
    ValueError
        If ``covers`` is not two-dimensional.

    Examples
    --------
    >>> as_cover_matrix([[1, 0, 1], [0, 0, 0]]).nnz
    2
    """
    if sp.issparse(covers):
        mat = sp.csr_matrix(covers)
    else:
        arr = np.asarray(covers)
        if arr.ndim != 2:
            raise ValueError(f"covers must be a 2-D rules x samples matrix, got shape {arr.shape}")
        mat = sp.csr_matrix(arr != 0)
    if mat.ndim != 2:
        raise ValueError(f"covers must be a 2-D rules x samples matrix, got shape {mat.shape}")
    if mat.dtype != bool:
        mat = sp.csr_matrix(mat != 0)
    mat.eliminate_zeros()
    mat.sort_indices()
    return mat


class Incidence:
    """A cover matrix with fast "how many of these samples does each rule cover" queries.

    ``overlaps(samples)`` is one sparse matrix-vector product (``O(nnz)``).
    After :data:`_PRODUCTS_BEFORE_CSC` queries a CSC copy is built once (it
    costs about thirty products) and later queries gather the CSC columns of
    the given samples instead, costing ``sum of their degrees`` -- for GRA's
    picks ``|cover(v)| * (rules per sample)``, far below ``nnz``.
    """

    def __init__(self, covers: Any) -> None:
        self.rows = as_cover_matrix(covers)
        self.n_rules, self.n_samples = self.rows.shape
        self.sizes = np.diff(self.rows.indptr).astype(np.int64)
        # float32 counts are exact below 2**24; wider data beyond that
        dtype = np.float32 if self.n_samples < 2**24 else np.float64
        self._dtype = dtype
        self._counts = sp.csr_matrix((np.ones(self.rows.nnz, dtype=dtype), self.rows.indices,
                                      self.rows.indptr), shape=self.rows.shape)
        self._cols: sp.csc_matrix | None = None
        self._queries = 0

    def cover(self, rule: int) -> np.ndarray:
        """Return the samples rule ``rule`` covers (sorted)."""
        return self.rows.indices[self.rows.indptr[rule]:self.rows.indptr[rule + 1]]

    def overlaps(self, samples: np.ndarray) -> np.ndarray:
        """Return ``|cover(r) & samples|`` for every rule ``r`` (``samples`` distinct)."""
        self._queries += 1
        if self._cols is None and self._queries > _PRODUCTS_BEFORE_CSC:
            self._cols = self.rows.tocsc()
        if self._cols is None:
            vec = np.zeros(self.n_samples, dtype=self._dtype)
            vec[samples] = 1
            return np.rint(self._counts @ vec).astype(np.int64)
        indptr = self._cols.indptr
        starts = indptr[samples]
        lens = indptr[samples + 1] - starts
        total = int(lens.sum())
        if total == 0:
            return np.zeros(self.n_rules, dtype=np.int64)
        shift = np.repeat(starts - (np.cumsum(lens) - lens), lens)
        rules = self._cols.indices[shift + np.arange(total)]
        return np.bincount(rules, minlength=self.n_rules).astype(np.int64)


def beta_fraction(beta: Any) -> tuple[int, int]:
    """Return ``beta`` as an exact fraction ``(p, q)`` (floats are read as the decimal meant).

    ``0.1`` becomes ``(1, 10)``, not the binary expansion of 0.1.

    Raises
    ------
    ValueError
        If ``beta`` is negative, not a number, or not finite.

    Examples
    --------
    >>> beta_fraction(0.1), beta_fraction(Fraction(2, 3)), beta_fraction(1)
    ((1, 10), (2, 3), (1, 1))
    """
    if isinstance(beta, bool) or not isinstance(beta, (numbers.Real, np.floating, np.integer)):
        raise ValueError(f"beta must be a real number >= 0, got {beta!r}")
    if not np.isfinite(float(beta)) or beta < 0:
        raise ValueError(f"beta must be a finite real number >= 0, got {beta!r}")
    frac = Fraction(beta) if isinstance(beta, (Fraction, numbers.Integral)) else (
        Fraction(str(float(beta))))
    frac = frac.limit_denominator(_MAX_DENOMINATOR)
    return frac.numerator, frac.denominator


def check_gamma(gamma: Any) -> int:
    """Return ``gamma`` as an int after checking it is a non-negative integer."""
    if isinstance(gamma, bool) or not isinstance(gamma, (numbers.Integral, np.integer)):
        raise ValueError(f"gamma must be a non-negative integer, got {gamma!r}")
    if gamma < 0:
        raise ValueError(f"gamma must be a non-negative integer, got {gamma}")
    return int(gamma)


def rate_exceeds(overlap: Any, size: Any, beta: Any, strict: bool = True) -> np.ndarray:
    """Return where ``overlap / size`` breaks the bound: ``> beta`` (strict) or ``>= beta``.

    ``strict=True`` matches the CDPRL constraint ``overlap-rate <= beta``; the
    seed's Algorithm 1 uses ``>=`` (``strict=False``).  Zero overlaps never
    conflict (a rate of 0 is allowed even with ``beta = 0`` in non-strict mode,
    because rules that share no sample cannot overlap).

    Examples
    --------
    >>> rate_exceeds([3, 3, 4], [6, 6, 6], 0.5).tolist()
    [False, False, True]
    >>> rate_exceeds([3], [6], 0.5, strict=False).tolist()
    [True]
    """
    p, q = beta_fraction(beta)
    ov = np.asarray(overlap, dtype=np.int64)
    size = np.asarray(size, dtype=np.int64)
    if strict:
        return (ov * q > p * size) & (ov > 0)
    return (ov * q >= p * size) & (ov > 0)


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
