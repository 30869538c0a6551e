"""Rule subset: the candidate rules whose union has the lowest whole-data objective.

IMLI and IMLIB make several fits (``n_init``) and pool their rules; this
formulation chooses, from that pool, the rule set of the lowest objective
``lambda * errors + w_f * literals`` on the whole training set, with at most
``max_rules`` rules.  Input: ``values`` (n x p, bool), ``values[i, r]`` = candidate
term ``r`` holds on row ``i``; labels ``t``; each candidate's literal count
``s_r``; optional row weights ``w_i`` (positive integers).  The rule set predicts
``OR_{r selected} values[i, r]``.  A CNF's clauses are passed negated, with the
negated labels (De Morgan: the same errors and literals).

Rows with the same labels and values are one group ``g`` of weight ``W_g`` (their
count or weight sum); ``P_g`` are the candidates that hold on it.

Variables (IR keys):

* ``("x", r)``: candidate ``r`` is selected (p);
* ``("e", g)``: negative group ``g``, held by two or more candidates, is covered
  (an error).

Clauses:

* soft, positive group with ``P_g`` non-empty: ``OR_{r in P_g} x_r``, weight
  ``lambda * W_g`` (a positive group no candidate holds is an error whatever is
  chosen: ``layout.offset`` counts it);
* negative group, ``P_g = {r}``: soft ``NOT x_r`` of weight ``lambda * W_g``;
  ``|P_g| >= 2``: hard ``NOT x_r OR e_g`` for ``r`` in ``P_g`` and soft ``NOT e_g``
  of weight ``lambda * W_g``;
* soft ``NOT x_r`` of weight ``w_f * s_r`` (rules with literals);
* cardinality ``sum_r x_r <= max_rules`` (when it binds).

So ``cost + layout.offset`` is the objective (times ``layout.scale``: non-integer
weights are scaled to integers as in :mod:`satrules.encoders.imli`).  The model
has ``p + (negative groups)`` variables, so it stays small even on many rows.

Examples
--------
>>> import numpy as np
>>> from satrules import solve
>>> values = np.array([[1, 0], [1, 1], [0, 1], [0, 0]], dtype=bool)
>>> t = np.array([1, 1, 0, 0])
>>> enc = encode_subset(values, t, sizes=[2, 1], data_fidelity=10)
>>> sol = solve(enc.model, backend="bruteforce")
>>> decode_subset(enc.layout, sol), sol.cost + enc.layout.offset
([0], 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from satrules.encoders.imli import _integer_weights
from satrules.exceptions import EncodingError
from satrules.ir import Model, Solution

__all__ = ["SubsetEncoding", "SubsetLayout", "encode_subset", "decode_subset", "hint_subset"]


@dataclass(frozen=True)
class SubsetLayout:
    """What the rule-subset variables mean (the encoder-decoder contract).

    Attributes
    ----------
    x : ndarray of int
        Variable id of ``("x", r)`` for every candidate ``r``.
    e : ndarray of int
        Variable id of ``("e", g)`` for the negative groups held by two or more
        candidates (``e_groups``), in order.
    e_groups : ndarray of bool, shape (len(e), p)
        The candidates that hold on each of those groups.
    offset : int
        Scaled cost no choice avoids: the positive rows no candidate holds.
    scale : Fraction
        The factor that made the weights integers (objective = (cost + offset) / scale).
    """

    x: np.ndarray
    e: np.ndarray
    e_groups: np.ndarray
    offset: int
    scale: Fraction


@dataclass(frozen=True)
class SubsetEncoding:
    """An encoded rule subset problem: the IR ``model`` and its ``layout``."""

    model: Model
    layout: SubsetLayout


def _check(values: Any, t: Any, sizes: Any, sample_weight: Any,
           max_rules: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    V = np.asarray(values)
    if V.ndim != 2:
        raise EncodingError(f"values must be a 2-D 0/1 matrix, got shape {V.shape}")
    if V.size and not np.isin(V, (0, 1)).all():
        raise EncodingError("values must hold only 0/1 (or bool) entries")
    t = np.asarray(t).reshape(-1)
    if t.shape != (V.shape[0],):
        raise EncodingError(f"t must have shape ({V.shape[0]},), got {np.shape(t)}")
    if t.size and not np.isin(t, (0, 1)).all():
        raise EncodingError("t must hold only 0/1 (or bool) labels")
    s = np.asarray(sizes).reshape(-1)
    if s.shape != (V.shape[1],) or (s.size and (s.dtype.kind not in "iu" or s.min() < 0)):
        raise EncodingError(f"sizes must be {V.shape[1]} non-negative integers (one per "
                            f"candidate), got {sizes!r}")
    w = np.ones(len(t), dtype=np.int64) if sample_weight is None else \
        np.asarray(sample_weight).reshape(-1)
    if w.shape != t.shape or (w.size and (w.dtype.kind not in "iu" or w.min() < 1)):
        raise EncodingError(f"sample_weight must be {len(t)} positive integers, got "
                            f"{sample_weight!r}")
    if max_rules is not None and (isinstance(max_rules, bool) or not isinstance(
            max_rules, (int, np.integer)) or max_rules < 0):
        raise EncodingError(f"max_rules must be a non-negative integer, got {max_rules!r}")
    return V.astype(bool), t.astype(bool), s.astype(np.int64), w.astype(np.int64)


def encode_subset(values: Any, t: Any, sizes: Any, data_fidelity: Any = 10,
                  feature_weight: Any = 1, max_rules: int | None = None,
                  sample_weight: Any = None) -> SubsetEncoding:
    """Encode the choice of at most ``max_rules`` candidate rules of the lowest objective.

    Parameters
    ----------
    values : array-like of shape (n_samples, n_candidates), 0/1
        ``values[i, r]``: candidate term ``r`` holds on row ``i``.
    t : array-like of shape (n_samples,), 0/1
        The labels the union of the chosen terms should predict.
    sizes : array-like of int, shape (n_candidates,)
        Each candidate's literal count.
    data_fidelity, feature_weight : positive numbers
        ``lambda`` (cost of an error) and ``w_f`` (cost of a literal).
    max_rules : int, optional
        Most candidates chosen (None: no bound).
    sample_weight : array-like of positive int, optional
        Each row's error weight (default 1).

    Returns
    -------
    SubsetEncoding
    """
    V, t, s, w = _check(values, t, sizes, sample_weight, max_rules)
    lam, w_f, scale = _integer_weights(data_fidelity, feature_weight)
    n, p = V.shape
    model = Model()
    x = model.new_vars("x", p)
    # one group per distinct (label, values) row: pack the bits, then unique rows
    keys = np.packbits(np.concatenate([t[:, None], V], axis=1), axis=1)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    weight = np.bincount(inverse.ravel(), weights=w, minlength=len(first)).astype(np.int64)
    g_t, g_v = t[first], V[first]
    held = g_v.sum(axis=1)
    offset = int(lam * weight[g_t & (held == 0)].sum())
    pos = np.flatnonzero(g_t & (held > 0))
    if len(pos):
        rows, cols = np.nonzero(g_v[pos])
        model.add_soft_clauses(x[cols], lam * weight[pos],
                               np.concatenate([[0], np.cumsum(held[pos])]))
    single = np.flatnonzero(~g_t & (held == 1))
    if len(single):
        model.add_soft_units(-x[g_v[single].argmax(axis=1)], lam * weight[single])
    multi = np.flatnonzero(~g_t & (held >= 2))
    e = model.new_vars("e", len(multi)) if len(multi) else np.zeros(0, dtype=np.int64)
    if len(multi):
        rows, cols = np.nonzero(g_v[multi])
        model.add_clauses(np.stack([-x[cols], e[rows]], axis=1))
        model.add_soft_units(-e, lam * weight[multi])
    costly = np.flatnonzero(s > 0)
    if len(costly):
        model.add_soft_units(-x[costly], w_f * s[costly])
    bound = p if max_rules is None else int(max_rules)
    if bound < p:
        model.add_cardinality(x.tolist(), "<=", bound)
    layout = SubsetLayout(x=x, e=e, e_groups=g_v[multi], offset=offset, scale=scale)
    return SubsetEncoding(model=model, layout=layout)


def decode_subset(layout: SubsetLayout, solution: Solution) -> list[int]:
    """The candidates ``solution`` selects (ascending); none when it has no values."""
    if solution.values is None or not solution.status.is_feasible:
        return []
    return np.flatnonzero(solution.values[layout.x]).tolist()


def hint_subset(layout: SubsetLayout, selected: Any) -> dict[int, bool]:
    """A complete feasible assignment (warm start) that selects the candidates ``selected``
    (at most ``max_rules`` of them)."""
    chosen = np.zeros(len(layout.x), dtype=bool)
    sel = np.asarray(selected, dtype=np.int64).reshape(-1)
    if sel.size and (sel.min() < 0 or sel.max() >= len(layout.x)):
        raise EncodingError(f"hint candidates must lie in 0..{len(layout.x) - 1}, got "
                            f"{sel.tolist()}")
    chosen[sel] = True
    covered = (layout.e_groups & chosen).any(axis=1)
    hint = dict(zip(layout.x.tolist(), chosen.tolist(), strict=True))
    hint.update(zip(layout.e.tolist(), covered.tolist(), strict=True))
    return hint
