"""Cover matrices and exact overlap-rate tests: one home for both CDPR layers (STYLE.md §2).

A *cover matrix* is a boolean ``n_rules x n_samples`` matrix (numpy or
scipy.sparse): entry ``(r, i)`` is true when sample ``i`` satisfies the
condition of rule ``r`` (ALGORITHMS.md §4.1).  The exact encoder
(:mod:`satrules.encoders.cdprl`) and the heuristics (:mod:`satrules.heuristics`)
both read covers through :func:`as_cover_matrix` and ``beta`` through
:func:`beta_fraction`, so they agree on every rate.

Overlap-rate tests are exact: ``beta`` is turned into a fraction ``p / q``
once and ``overlap / |cover(r)| > beta`` is evaluated as the integer test
``overlap * q > p * |cover(r)|``, so a rate equal to ``beta`` is never
misjudged by floating-point rounding (strict versus non-strict changes optima,
ALGORITHMS.md §4.4).

Samples may carry positive integer weights (``sample_weight``): a sample of weight
``w`` then counts as ``w`` identical samples everywhere -- in coverage, in cover
sizes and overlaps, hence in every overlap rate -- so a weighted instance has the
answers of the unweighted one with each sample repeated ``w`` times.

This module imports numpy and scipy only; errors are ``ValueError`` (the
encoder re-raises them as :class:`~satrules.exceptions.EncodingError`, a
``ValueError`` subclass).
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
    "check_sample_weight",
    "rate_exceeds",
]

_MAX_DENOMINATOR = 10**6
#: The largest total sample weight: every overlap-rate test ``overlap * q > p * size``
#: (``p <= q <= _MAX_DENOMINATOR``) then stays exact in int64, and weight sums in float64.
_MAX_TOTAL_WEIGHT = 2**62 // _MAX_DENOMINATOR
#: Overlap queries answered by matrix-vector products before a CSC copy is built.
_PRODUCTS_BEFORE_CSC = 16
#: A query touching more than ``nnz / _GATHER_SHARE`` entries is a product, not a gather
#: (on diamonds, 2.6M nonzeros, a lower threshold made the local search slower).
_GATHER_SHARE = 4
#: A cover matrix of at most this many cells is also kept dense (``float32``, or
#: ``float64`` with weights: 2 MB at most): on the few-hundred-row tables of a
#: cross-validated fit, the sparse paths' fixed cost per query dominated the local search.
_DENSE_CELLS = 1 << 18
#: On a dense matrix, a query of at most ``n_samples / _DENSE_GATHER`` samples sums their
#: columns; a larger one is a matrix-vector product.
_DENSE_GATHER = 16


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


def check_sample_weight(sample_weight: Any, n_samples: int) -> np.ndarray | None:
    """Return ``sample_weight`` as int64 positive weights, one per sample (None stays None).

    Raises
    ------
    ValueError
        If the weights are not ``n_samples`` positive integers (integral floats are
        accepted; booleans are not), or if they sum to more than about 4.6e12 (beyond
        that, overlap-rate tests would overflow int64).

    Examples
    --------
    >>> check_sample_weight([1, 3.0, 2], 3).tolist()
    [1, 3, 2]
    """
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight)
    if w.dtype == bool or w.dtype.kind not in "iuf" or w.shape != (n_samples,):
        raise ValueError(f"sample_weight must hold {n_samples} positive integers, one per "
                         f"sample, got {w.dtype} {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w != np.round(w)) or np.any(w < 1):
        bad = int(np.flatnonzero(~np.isfinite(w) | (w != np.round(w)) | (w < 1))[0])
        raise ValueError(f"sample_weight must hold positive integers; sample {bad} has "
                         f"{w[bad]}")
    total = float(w.astype(np.float64).sum())   # no int64 wrap-around on huge weights
    if total > _MAX_TOTAL_WEIGHT:
        raise ValueError(f"sample_weight sums to {total:.3g}, more than "
                         f"{_MAX_TOTAL_WEIGHT:.3g}: scale the weights down")
    return w.astype(np.int64)


class Incidence:
    """A cover matrix with fast "how many of these samples does each rule cover" queries.

    ``overlaps(samples)`` is one sparse matrix-vector product (``O(nnz)``).
    After :data:`_PRODUCTS_BEFORE_CSC` queries a CSC copy is built once (it
    costs about thirty products) and later queries gather the CSC columns of
    the given samples instead, costing ``sum of their degrees`` -- for GRA's
    picks ``|cover(v)| * (rules per sample)``, far below ``nnz``.  A matrix of at most
    :data:`_DENSE_CELLS` cells (a few hundred candidates on a few hundred rows, as in each
    fold of a cross-validated fit) is answered from a dense copy instead, by summing the
    given samples' columns or by one small product: the sparse paths' fixed cost per
    query was most of the local search's time there.

    With ``sample_weight`` every count is a weight sum (``sizes``, ``overlaps``,
    ``weight``, ``total``): a sample of weight ``w`` counts as ``w`` samples.
    """

    def __init__(self, covers: Any, sample_weight: Any = None) -> None:
        self.rows = as_cover_matrix(covers)
        self.n_rules, self.n_samples = self.rows.shape
        self.weights = check_sample_weight(sample_weight, self.n_samples)
        # float32 counts are exact below 2**24; weight sums stay below 2**53
        # (check_sample_weight), exact in float64
        small = self.weights is None and self.n_samples < 2**24
        self._dtype = np.float32 if small else np.float64
        self._counts = sp.csr_matrix((np.ones(self.rows.nnz, dtype=self._dtype),
                                      self.rows.indices, self.rows.indptr), shape=self.rows.shape)
        if self.weights is None:
            self.sizes = np.diff(self.rows.indptr).astype(np.int64)
            self.total = self.n_samples
        else:
            self.sizes = np.rint(self._counts @ self.weights.astype(np.float64)).astype(np.int64)
            self.total = int(self.weights.sum())
        self._cols: sp.csc_matrix | None = None
        self._queries = 0
        self._dense: np.ndarray | None = None
        self._covers: list[np.ndarray] | None = None
        if self.n_rules * self.n_samples <= _DENSE_CELLS:
            self._dense = self.rows.toarray().astype(self._dtype)
            self._covers = np.split(self.rows.indices, self.rows.indptr[1:-1])

    def weight(self, samples: np.ndarray) -> int:
        """Return the number (the total weight) of the distinct ``samples``."""
        return len(samples) if self.weights is None else int(self.weights[samples].sum())

    def cover(self, rule: int) -> np.ndarray:
        """Return the samples rule ``rule`` covers (sorted)."""
        if self._covers is not None:
            return self._covers[rule]
        return self.rows.indices[self.rows.indptr[rule]:self.rows.indptr[rule + 1]]

    def overlaps(self, samples: np.ndarray) -> np.ndarray:
        """Return ``|cover(r) & samples|`` (a weight sum with ``sample_weight``) for every
        rule ``r`` (``samples`` distinct)."""
        if self._dense is not None:   # sums of integers below 2**24 (2**53): exact
            if len(samples) * _DENSE_GATHER <= self.n_samples:
                block = self._dense[:, samples]
                sums = (block.sum(axis=1) if self.weights is None
                        else block @ self.weights[samples].astype(self._dtype))
            else:
                vec = np.zeros(self.n_samples, dtype=self._dtype)
                vec[samples] = 1 if self.weights is None else self.weights[samples]
                sums = self._dense @ vec
            return np.rint(sums).astype(np.int64)
        self._queries += 1
        if self._cols is None and self._queries > _PRODUCTS_BEFORE_CSC:
            self._cols = self.rows.tocsc()
        if self._cols is not None:
            indptr = self._cols.indptr
            starts = indptr[samples]
            lens = indptr[samples + 1] - starts
            total = int(lens.sum())
            if total == 0:
                return np.zeros(self.n_rules, dtype=np.int64)
        if self._cols is None or total > self.rows.nnz // _GATHER_SHARE:
            # a gather of most of the matrix allocates several nnz-long arrays;
            # one product reads it once (the local search's fills from an empty set)
            vec = np.zeros(self.n_samples, dtype=self._dtype)
            vec[samples] = 1 if self.weights is None else self.weights[samples]
            return np.rint(self._counts @ vec).astype(np.int64)
        shift = np.repeat(starts - (np.cumsum(lens) - lens), lens)
        rules = self._cols.indices[shift + np.arange(total)]
        if self.weights is None:
            return np.bincount(rules, minlength=self.n_rules).astype(np.int64)
        w = np.repeat(self.weights[samples].astype(np.float64), lens)
        return np.rint(np.bincount(rules, weights=w, minlength=self.n_rules)).astype(np.int64)


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
