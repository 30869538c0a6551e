"""IMLIB: balanced DNF rule sets with at most ``l`` literals per rule (MaxSAT encoding).

Formulation (Ferreira Júnior & Rocha, seed 002, eqs. 15-25; ``ALGORITHMS.md`` §3).
A rule set is ``R = R_0 ∨ … ∨ R_{k-1}``; each rule is a conjunction of ``l``
*slots*, and each slot holds one literal over the ``m`` binary columns of ``Xb``
or is skipped (``*``).  Variables (IR key, paper symbol):

``("u", o, d, j)``  ``u_{o,d}^j``, slot ``d`` of rule ``o`` holds column ``j``;
                    ``j = m`` stands for the paper's ``*`` (the slot is skipped).
``("p", o, d)``     ``p_{o,d}``, polarity: true gives ``x_j``, false ``¬x_j``.
``("e", o, d, i)``  ``e_{o,d,i}``, the slot's literal is true on sample ``i``
                    (a skipped slot counts as true).
``("z", o, i)``     ``z_{o,i}``, rule ``o`` covers sample ``i``.
``("eta", i)``      ``η_i``, sample ``i`` is misclassified (``objective="exact"`` only).

Constraints (all built with numpy and the bulk adders):

* **A + B** (eqs. 15-16): exactly one ``u`` per slot, as *one* IR cardinality
  ``Σ_j u[o][d][j] == 1`` (the paper's pairwise clauses are quadratic in ``m``;
  a backend or :func:`~satrules.ir.lower` picks the encoding).
* **C** (eq. 17), soft, size: ``objective="paper"`` adds both printed families,
  ``(¬u[o][d][j])`` for ``j < m`` and ``(u[o][d][*])``, so a used slot costs 2
  (§3.5).  ``objective="exact"`` keeps one unit ``(u[o][d][*])`` per slot.
* **D** (eq. 18): ``⋁_d ¬u[o][d][*]``, every rule holds a literal.
* **E** (eq. 19): ``u[o][d][j] → (p[o][d] ↔ s)`` with ``s = e`` if ``x_ij = 1``
  and ``s = ¬e`` otherwise (two clauses each, §3.3).
* **F** (eq. 20): ``u[o][d][*] → e[o][d][i]``.
* **G** (eq. 21): ``z[o][i] ↔ ⋀_d e[o][d][i]``.
* **H, I** (eqs. 22-23), soft, errors.  ``"paper"``: ``(⋁_o z[o][i])`` for
  positives and ``(¬z[o][i])`` per rule for negatives, so a negative covered by
  two rules costs ``2λ`` (§3.6).  ``"exact"``: hard ``(η_i ∨ ⋁_o z[o][i])`` for
  positives, ``(¬z[o][i] ∨ η_i)`` for negatives, and one soft ``(¬η_i)`` per sample.
* **C′** (eq. 25), with ``prior``: the size family is replaced by anchors to the
  previous rule set.  ``"paper"`` copies every ``u`` (a moved slot costs 2, the
  polarity is free, §3.7).  ``"exact"`` adds one unit ``(u[o][d][j_prev])`` per
  slot and, for slots that held a literal, one unit fixing ``p`` to its previous
  value: the cost is the number of changed slots plus polarity flips.

Optimum, ``objective="exact"`` (proven by the brute-force tests): without a prior
``w_size·Σ_o|R_o| + w_err·errors`` over rule sets with ``1 ≤ |R_o| ≤ l``
(``|R_o|`` counts slots, so a repeated literal counts twice); with a prior
``w_size·(changed slots + flipped polarities) + w_err·errors``.  ``w_err / w_size``
is ``data_fidelity`` (see :func:`scale_fidelity`).  With ``sample_weight`` (positive
integers ``w_i``), every error soft of sample ``i`` weighs ``w_i`` times as much, so
``errors`` above becomes the weight of the misclassified samples (and, for ``"paper"``,
the H and I terms are weighted the same way; tested against the exhaustive optimum).

Options: ``reduce=True`` keeps only the halves of E and G (and F for negatives)
that the objective needs (§3.3, same optimum; ``e``/``z`` then stop being
functional, so decode from ``u``/``p`` only, which :func:`decode_imlib` does);
``distinct_features=True`` adds ``Σ_d u[o][d][j] ≤ 1`` (no column twice in a
rule, §3.8); ``symmetry_breaking=True`` (first partition only) orders the
slots of each rule by column with skipped slots last and fixes ``p`` false on
skipped slots, which removes the ``l!`` slot permutations without changing the
optimum.

References
----------
A. C. Ferreira Júnior, T. A. Rocha. "An Incremental MaxSAT-based Model to Learn
Interpretable and Balanced Classification Rules", arXiv:2403.16418 (2024).
B. Ghosh, K. S. Meel. "IMLI: An Incremental Framework for MaxSAT-Based Learning
of Interpretable Classification Rules", AIES 2019.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from satrules.encoders.imli import sample_weights
from satrules.exceptions import EncodingError, ModelSizeError
from satrules.ir import Model, Solution
from satrules.layout import Encoding
from satrules.rules import Literal, Rule, RuleSet

__all__ = [
    "IMLIBLayout",
    "OBJECTIVES",
    "DEFAULT_MAX_CLAUSES",
    "encode_imlib",
    "decode_imlib",
    "estimate_imlib_size",
    "hint_imlib",
    "scale_fidelity",
    "slots_from_rules",
]

#: The two objectives: the clauses as printed, or the corrected |R| + λ·errors.
OBJECTIVES = ("exact", "paper")
#: Default limit on the number of hard clauses (cardinalities count as one).
DEFAULT_MAX_CLAUSES = 5_000_000


@dataclass(frozen=True, eq=False)
class IMLIBLayout:
    """Where the IMLIB variables live: the encoder-decoder contract.

    Attributes
    ----------
    u : ndarray of shape (k, l, m + 1)
        Slot-choice variables; index ``m`` is the skip symbol ``*``.
    p : ndarray of shape (k, l)
        Polarity variables.
    e : ndarray of shape (k, l, n)
        Slot-satisfied variables.
    z : ndarray of shape (k, n)
        Coverage variables.
    eta : ndarray of shape (n,) or None
        Error variables (``objective="exact"`` only).
    n_features : int
        ``m``, the number of binary columns.
    objective : str
    size_weight, error_weight : int
        The weight of one slot (or anchor) and of one error.
    """

    u: np.ndarray
    p: np.ndarray
    e: np.ndarray
    z: np.ndarray
    eta: np.ndarray | None
    n_features: int
    objective: str
    size_weight: int
    error_weight: int
    anchored: bool
    X: np.ndarray
    y: np.ndarray

    @property
    def scale(self) -> Fraction:
        """Model cost = ``scale`` x (``|R| + λ·errors``), as in ``RuleLayout.scale``."""
        return Fraction(self.size_weight)

    @property
    def n_rules(self) -> int:
        """``k``."""
        return int(self.u.shape[0])

    @property
    def max_literals_per_rule(self) -> int:
        """``l``."""
        return int(self.u.shape[1])


def scale_fidelity(data_fidelity: Any) -> tuple[int, int]:
    """Return integer ``(size_weight, error_weight)`` whose ratio is ``data_fidelity``.

    Integers map to ``(1, λ)``; other positive reals are approximated by a
    fraction with denominator at most 1000.

    Examples
    --------
    >>> scale_fidelity(10), scale_fidelity(2.5)
    ((1, 10), (2, 5))
    """
    if isinstance(data_fidelity, bool) or not isinstance(data_fidelity, numbers.Real):
        raise EncodingError(f"data_fidelity must be a positive number, got {data_fidelity!r}")
    if not data_fidelity > 0 or not np.isfinite(float(data_fidelity)):
        raise EncodingError(f"data_fidelity must be a positive number, got {data_fidelity!r}")
    if isinstance(data_fidelity, numbers.Integral):
        return 1, int(data_fidelity)
    frac = Fraction(float(data_fidelity)).limit_denominator(1000)
    if frac <= 0:
        raise EncodingError(f"data_fidelity {data_fidelity!r} is too small (below 1/1000)")
    return int(frac.denominator), int(frac.numerator)


def estimate_imlib_size(n_samples: int, n_features: int, n_rules: int,
                        max_literals_per_rule: int, *, reduce: bool = False) -> dict[str, int]:
    """Return upper bounds on the numbers of variables, hard and soft clauses and literals.

    Hard clauses count each exactly-one cardinality as one constraint.  The
    variable count is exact for ``objective="exact"`` (the paper's has ``n``
    fewer: no η); without ``reduce`` the hard count exceeds the
    model's by ``(k - 1)·n+`` (η clauses of positives).

    Examples
    --------
    >>> estimate_imlib_size(4, 3, 1, 1)["n_vars"]   # 13 of the paper + 4 η (exact objective)
    17
    """
    n, m, k, slots = n_samples, n_features, n_rules, n_rules * max_literals_per_rule
    e_clauses = (1 if reduce else 2) * slots * m * n
    return {
        "n_vars": slots * (m + 2 + n) + k * n + n,
        "n_hard": slots + k + e_clauses + slots * n + k * n * (max_literals_per_rule + 1) + k * n,
        "n_soft": slots * (m + 1) + k * n,
        "n_literals": 3 * e_clauses + 2 * slots * n * 2 + k * n * (max_literals_per_rule + 2),
    }


def _zero_one(a: np.ndarray) -> bool:
    """Whether every entry of ``a`` is 0 or 1 (min/max for integers: ``np.isin`` costs
    more than the rest of a 16-row partition's input checks)."""
    if np.issubdtype(a.dtype, np.integer):
        return bool(a.min() >= 0 and a.max() <= 1)
    return bool(np.isin(a, (0, 1)).all())


def _check_inputs(Xb: Any, y: Any, n_rules: Any, max_literals_per_rule: Any,
                  objective: str) -> tuple[np.ndarray, np.ndarray]:
    X = np.asarray(Xb)
    if X.ndim != 2:
        raise EncodingError(f"Xb must be a 2-D binary matrix, got shape {X.shape}")
    if X.dtype != bool:
        if X.size and not _zero_one(X):
            raise EncodingError("Xb must hold only 0/1 (or bool) values")
        X = X.astype(bool)
    t = np.asarray(y)
    if t.shape != (X.shape[0],):
        raise EncodingError(f"y must have shape ({X.shape[0]},), got {t.shape}")
    if t.dtype != bool:
        if t.size and not _zero_one(t):
            raise EncodingError("y must hold only 0/1 (or bool) labels")
        t = t.astype(bool)
    for name, val in (("n_rules", n_rules), ("max_literals_per_rule", max_literals_per_rule)):
        if isinstance(val, bool) or not isinstance(val, numbers.Integral) or val < 1:
            raise EncodingError(f"{name} must be a positive integer, got {val!r}")
    if objective not in OBJECTIVES:
        raise EncodingError(f"objective must be one of {OBJECTIVES}, got {objective!r}")
    if X.shape[1] == 0:
        raise EncodingError("Xb has no columns: IMLIB needs at least one binary feature")
    return X, t


def slots_from_rules(rules: RuleSet, n_rules: int, max_literals_per_rule: int,
                     n_features: int) -> tuple[np.ndarray, np.ndarray]:
    """Return the slot matrix of a DNF rule set: column per slot (``m`` = skip) and polarity.

    Rule ``o``'s literals fill slots ``0..|R_o|-1`` in order; rules beyond
    ``len(rules)`` and slots beyond a rule's length are skipped.  Inside one
    rule the slots are interchangeable, so any order gives the same optima.

    Examples
    --------
    >>> rs = RuleSet([Rule((Literal(1, negated=True),))], kind="dnf", n_columns=3)
    >>> cols, pos = slots_from_rules(rs, 1, 2, 3)
    >>> cols.tolist(), pos.tolist()
    ([[1, 3]], [[False, False]])
    """
    if getattr(rules, "kind", "dnf") != "dnf":
        raise EncodingError("an IMLIB prior must be a DNF rule set")
    rule_list = list(rules.rules)
    if len(rule_list) > n_rules:
        raise EncodingError(f"the prior has {len(rule_list)} rules, more than n_rules={n_rules}")
    cols = np.full((n_rules, max_literals_per_rule), n_features, dtype=np.int64)
    pos = np.zeros((n_rules, max_literals_per_rule), dtype=bool)
    for o, rule in enumerate(rule_list):
        lits = list(rule.literals)
        if len(lits) > max_literals_per_rule:
            raise EncodingError(
                f"prior rule {o} has {len(lits)} literals, more than "
                f"max_literals_per_rule={max_literals_per_rule}"
            )
        for d, lit in enumerate(lits):
            if not 0 <= lit.column < n_features:
                raise EncodingError(
                    f"prior literal column {lit.column} is outside 0..{n_features - 1}")
            cols[o, d] = lit.column
            pos[o, d] = not lit.negated
    return cols, pos


def _rows(*cols: np.ndarray) -> np.ndarray:
    """Stack broadcast literal arrays into a 2-D clause matrix (one clause per row)."""
    arrs = np.broadcast_arrays(*cols)
    return np.stack([a.reshape(-1) for a in arrs], axis=1)


def encode_imlib(Xb: Any, y: Any, n_rules: int = 1, max_literals_per_rule: int = 2,
                 data_fidelity: Any = 10, objective: str = "exact", prior: RuleSet | None = None,
                 *, reduce: bool = False, distinct_features: bool = False,
                 symmetry_breaking: bool = False,
                 max_clauses: int | None = DEFAULT_MAX_CLAUSES,
                 sample_weight: Any = None) -> Encoding:
    """Encode IMLIB learning of a DNF over the columns of ``Xb`` as an IR model.

    Parameters
    ----------
    Xb : array-like of shape (n_samples, n_features)
        Binary features (0/1 or bool); no complement columns are needed.
    y : array-like of shape (n_samples,)
        Binary labels; 1/True marks the positive class the DNF should cover.
    n_rules : int
        ``k``, the number of rules (each holds at least one literal).
    max_literals_per_rule : int
        ``l``, the slots per rule.
    data_fidelity : int or float
        ``λ``, the cost of one error relative to one literal (:func:`scale_fidelity`).
    objective : {"exact", "paper"}
        ``"exact"`` (default): the optimum is the stated ``|R| + λ·errors``;
        ``"paper"``: the clauses as printed in the seed (see the module docstring).
    prior : RuleSet, optional
        The previous partition's rule set (raw, as :func:`decode_imlib` returns
        it): replaces the size family by the C′ anchors.
    reduce : bool
        Emit only the polarity-needed halves of E/F/G (same optimum, fewer clauses).
    distinct_features : bool
        Forbid a column twice in one rule (``Σ_d u[o][d][j] ≤ 1``).
    symmetry_breaking : bool
        Order the slots of each rule (ignored with a ``prior``, where slot
        positions carry anchor costs).
    max_clauses : int or None
        Refuse encodings whose estimated hard-clause count exceeds this.
    sample_weight : array-like of shape (n_samples,) of positive int, optional
        Row weights: every error soft of row ``i`` (``η_i``; with the paper's
        objective, its H or I clauses) weighs ``sample_weight[i]`` times as much.
        None: every row weighs 1.

    Returns
    -------
    Encoding
        ``model``, ``layout`` (an :class:`IMLIBLayout`) and, with a ``prior`` that
        is feasible here, ``hint``: the prior realised on these samples (a warm start).

    Raises
    ------
    EncodingError
        On malformed input.
    ModelSizeError
        When the estimate exceeds ``max_clauses``.

    Examples
    --------
    >>> from satrules.backends.registry import solve
    >>> X = [[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]]
    >>> enc = encode_imlib(X, [1, 0, 0, 1], n_rules=1, max_literals_per_rule=1)
    >>> sol = solve(enc.model, backend="bruteforce")
    >>> sol.cost, str(decode_imlib(enc.layout, sol).rules[0].literals[0].column)
    (1, '1')
    """
    X, t = _check_inputs(Xb, y, n_rules, max_literals_per_rule, objective)
    size_w, err_w = scale_fidelity(data_fidelity)
    n, m = X.shape
    row_err = err_w * sample_weights(sample_weight, n)   # each row's error weight
    k, ell = int(n_rules), int(max_literals_per_rule)
    est = estimate_imlib_size(n, m, k, ell, reduce=reduce)
    if max_clauses is not None and est["n_hard"] > max_clauses:
        raise ModelSizeError(
            f"the IMLIB encoding would have about {est['n_hard']:,} hard clauses "
            f"(limit max_clauses={max_clauses:,}; n_samples={n}, n_features={m}, "
            f"n_rules={k}, max_literals_per_rule={ell}); use smaller partitions, fewer "
            f"rules or slots, fewer binary features (n_thresholds), or raise max_clauses"
        )
    model = Model()
    u = model.new_vars("u", (k, ell, m + 1))
    p = model.new_vars("p", (k, ell))
    e = model.new_vars("e", (k, ell, n))
    z = model.new_vars("z", (k, n))
    eta = model.new_vars("eta", n) if objective == "exact" else None
    skip = u[:, :, m]
    pos, neg = t, ~t

    # A + B (eqs. 15-16): exactly one choice per slot, as a cardinality constraint.
    model.add_cardinalities(u.reshape(k * ell, m + 1), "==", 1)
    # D (eq. 18): every rule holds at least one literal.
    model.add_clauses(-skip)
    _add_e(model, u[:, :, :m], p, e, X, t, reduce)
    # F (eq. 20): a skipped slot is satisfied (only negatives need it when reduced).
    f_samples = neg if reduce else np.ones(n, dtype=bool)
    model.add_clauses(_rows(-skip[:, :, None], e[:, :, f_samples]))
    # G (eq. 21): z <-> AND_d e; the reduction keeps z -> e for positives only
    # and (AND e) -> z for negatives only.
    g1 = pos if reduce else np.ones(n, dtype=bool)
    g2 = neg if reduce else np.ones(n, dtype=bool)
    model.add_clauses(_rows(-z[:, None, g1], e[:, :, g1]))
    gz = z[:, g2]                                   # (k, n2)
    ge = -np.moveaxis(e[:, :, g2], 1, 2)            # (k, n2, l)
    model.add_clauses(np.concatenate([gz[:, :, None], ge], axis=2).reshape(-1, ell + 1))
    if distinct_features:
        _add_distinct(model, u[:, :, :m])
    if symmetry_breaking and prior is None:
        _add_symmetry_breaking(model, u, p)
    _add_objective(model, u, p, z, eta, t, objective, prior, size_w, row_err)
    layout = IMLIBLayout(u=u, p=p, e=e, z=z, eta=eta, n_features=m, objective=objective,
                         size_weight=size_w, error_weight=err_w, anchored=prior is not None,
                         X=X, y=t)
    if prior is None:
        return Encoding(model, layout, None)
    return _PriorHintEncoding(model, layout, prior)


class _PriorHintEncoding(Encoding):
    """An :class:`Encoding` whose ``hint`` (the prior realised here) is built on first use.

    Estimators usually warm-start from the best rules so far and only fall back to
    this hint, and RC2 takes no hint at all: building and checking it was a quarter
    of the encoding time of a 16-row partition (issue #11 item 5).
    """

    def __init__(self, model: Model, layout: IMLIBLayout, prior: RuleSet) -> None:
        object.__setattr__(self, "model", model)
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "_prior", prior)
        object.__setattr__(self, "_hint", ...)

    @property
    def hint(self) -> dict[int, bool] | None:
        """The prior's rules as a complete feasible assignment, or None when infeasible."""
        if self._hint is ...:
            values = _hint_values(self.layout, self._prior, self.model.n_vars)
            # checked as a bool array: converting the dict form costs more than the check;
            # it fails e.g. on a repeated column under distinct_features
            hint = _hint_dict(self.layout, values) if self.model.evaluate(values) else None
            object.__setattr__(self, "_hint", hint)
        return self._hint


def _add_e(model: Model, u_real: np.ndarray, p: np.ndarray, e: np.ndarray, X: np.ndarray,
           t: np.ndarray, reduce: bool) -> None:
    """E (eq. 19): ``u → (p ↔ s)`` as ``(¬u ∨ ¬p ∨ s)`` and ``(¬u ∨ p ∨ ¬s)``.

    ``s = e`` where ``x_ij = 1`` and ``¬e`` otherwise.  The first clause says
    "literal true → e", the second "literal false → ¬e" exactly when ``x = 1``; for
    ``x = 0`` the roles swap.  The reduction keeps "false → ¬e" for positives
    and "true → e" for negatives (§3.3).
    """
    k, ell, m = u_real.shape
    uu = u_real[:, :, :, None]                      # (k, l, m, 1)
    pp = p[:, :, None, None]                        # (k, l, 1, 1)
    ee = e[:, :, None, :]                           # (k, l, 1, n)
    xt = X.T[None, None, :, :]                      # (1, 1, m, n)
    s = np.where(xt, ee, -ee)                       # (k, l, m, n)
    c1 = _rows(-uu, -pp, s)                         # literal true -> e   (when x = 1)
    c2 = _rows(-uu, pp, -s)                         # literal false -> ~e (when x = 1)
    if not reduce:
        model.add_clauses(np.stack([c1, c2], axis=1).reshape(-1, 3))
        return
    # keep c2 ("false -> ~e") on positives with x=1 and c1 on positives with x=0
    # (for x=0, c1 reads "p -> ~e"), and the mirror on negatives.
    xb = np.broadcast_to(xt, s.shape).reshape(-1)
    tb = np.broadcast_to(t[None, None, None, :], s.shape).reshape(-1)
    take_c1 = xb != tb                              # positives with x=0, negatives with x=1
    model.add_clauses(np.where(take_c1[:, None], c1, c2))


def _add_distinct(model: Model, u_real: np.ndarray) -> None:
    """``Σ_d u[o][d][j] ≤ 1`` for every rule and column (§3.8 end)."""
    k, ell, m = u_real.shape
    if ell < 2:
        return
    if ell <= 5:
        # pairwise at-most-one: the encoding lowering picks for <= 5 literals anyway
        a, b = np.triu_indices(ell, 1)
        model.add_clauses(_rows(-u_real[:, a, :], -u_real[:, b, :]))
        return
    for o in range(k):
        for j in range(m):
            model.add_cardinality(u_real[o, :, j], "<=", 1)


def _add_symmetry_breaking(model: Model, u: np.ndarray, p: np.ndarray) -> None:
    """Sort each rule's slots by column (skip = m last) and fix ``p`` false when skipped.

    ``u[o][d+1][j'] → ⋁_{j ≤ j'} u[o][d][j]`` for ``j' < m``.  The first-partition
    objectives depend only on each rule's multiset of literals, so some optimum
    is sorted and the optimum is unchanged.
    """
    k, ell, m1 = u.shape
    m = m1 - 1
    model.add_clauses(_rows(-u[:, :, m], -p))
    if ell < 2 or m == 0:
        return
    jp = np.arange(m)
    lengths = jp + 2                                # ¬u[d+1][j'] plus j'+1 literals
    per_block = int(lengths.sum())
    offs_one = np.concatenate([[0], np.cumsum(lengths)])
    heads = -u[:, 1:, :m]                           # (k, l-1, m)
    prev = u[:, :-1, :m]                            # (k, l-1, m)
    # the literals of clause j' are [head_j', prev_0 .. prev_j']
    tri_rows, tri_cols = np.nonzero(np.tril(np.ones((m, m), dtype=bool)))
    n_blocks = k * (ell - 1)
    flat = np.empty((n_blocks, per_block), dtype=np.int64)
    head_pos = offs_one[:-1]
    body_pos = offs_one[tri_rows] + 1 + tri_cols
    flat[:, head_pos] = heads.reshape(n_blocks, m)
    flat[:, body_pos] = prev.reshape(n_blocks, m)[:, tri_cols]
    offsets = np.concatenate([[0], (offs_one[1:][None, :] +
                                    per_block * np.arange(n_blocks)[:, None]).reshape(-1)])
    model.add_clauses(flat.reshape(-1), offsets)


def _add_objective(model: Model, u: np.ndarray, p: np.ndarray, z: np.ndarray,
                   eta: np.ndarray | None, t: np.ndarray, objective: str,
                   prior: RuleSet | None, size_w: int, err_w: np.ndarray) -> None:
    """Soft part: size (C) or anchors (C′), then errors (H, I or η); ``err_w`` holds
    each row's error weight."""
    k, ell, m1 = u.shape
    m = m1 - 1
    skip = u[:, :, m]
    if prior is None:
        if objective == "paper":
            # C (eq. 17) as printed: both families, a used slot costs 2 (§3.5)
            model.add_soft_units(-u[:, :, :m].reshape(-1), size_w)
        model.add_soft_units(skip.reshape(-1), size_w)
    else:
        cols, positive = slots_from_rules(prior, k, ell, m)
        chosen = np.take_along_axis(u, cols[:, :, None], axis=2)[:, :, 0]
        if objective == "paper":
            # C′ (eq. 25): copy every u of the previous partition, p left free (§3.7)
            was = np.zeros(u.shape, dtype=bool)
            np.put_along_axis(was, cols[:, :, None], True, axis=2)
            model.add_soft_units(np.where(was, u, -u).reshape(-1), size_w)
        else:
            used = cols < m
            lits = np.concatenate([chosen.reshape(-1),
                                   np.where(positive, p, -p)[used].reshape(-1)])
            model.add_soft_units(lits, size_w)
    pos, neg = t, ~t
    if objective == "paper":
        # H (eq. 22) per positive, I (eq. 23) per (rule, negative)
        if pos.any():
            model.add_soft_clauses(z[:, pos].T, err_w[pos])
        if neg.any():   # rows of (negative, rule) pairs, one weight per negative
            model.add_soft_units(-z[:, neg].T.reshape(-1), np.repeat(err_w[neg], k))
        return
    # exact (§3.6): η_i is implied by the error, one soft (¬η_i) per sample
    if pos.any():
        model.add_clauses(np.concatenate([eta[pos][:, None], z[:, pos].T], axis=1))
    if neg.any():
        model.add_clauses(_rows(-z[:, neg], eta[None, neg]))
    model.add_soft_units(-eta, err_w)


def decode_imlib(layout: IMLIBLayout, solution: Solution) -> RuleSet:
    """Return the DNF a solution encodes, read from ``u`` and ``p`` only.

    The rule set is raw: rule ``o`` lists its used slots in slot order, repeated
    or contradictory literals included (simplify it with ``RuleSet.simplify``).

    Raises
    ------
    EncodingError
        If the solution carries no assignment.
    """
    if solution.values is None:
        raise EncodingError(f"cannot decode a solution without an assignment "
                            f"(status {solution.status.value})")
    values = np.asarray(solution.values)
    m = layout.n_features
    chosen = np.argmax(values[layout.u], axis=2)    # exactly one true per slot
    positive = values[layout.p]
    rules = []
    for o in range(chosen.shape[0]):
        used = np.flatnonzero(chosen[o] < m)
        rules.append(Rule(tuple(Literal(int(chosen[o, d]), negated=not bool(positive[o, d]))
                                for d in used)))
    return RuleSet(rules, kind="dnf", n_columns=m)


def hint_imlib(layout: IMLIBLayout, rules: RuleSet) -> dict[int, bool]:
    """Return a complete assignment (``{var: bool}``) that realises ``rules``; a warm start.

    The assignment satisfies every hard constraint of the encoding (rules with
    at most ``l`` literals; with ``symmetry_breaking`` the slots must be sorted
    and ``distinct_features`` needs distinct columns), and ``e``, ``z`` and
    ``η`` take their functional values.
    """
    return _hint_dict(layout, _hint_values(layout, rules))


def _layout_vars(layout: IMLIBLayout) -> list[np.ndarray]:
    arrays = [layout.u, layout.p, layout.e, layout.z]
    return arrays if layout.eta is None else [*arrays, layout.eta]


def _hint_values(layout: IMLIBLayout, rules: RuleSet, n_vars: int | None = None) -> np.ndarray:
    """:func:`hint_imlib` as a bool array indexed by variable (index 0 unused)."""
    k, ell, m1 = layout.u.shape
    m = m1 - 1
    cols, positive = slots_from_rules(rules, k, ell, m)
    u_val = np.zeros(layout.u.shape, dtype=bool)
    np.put_along_axis(u_val, cols[:, :, None], True, axis=2)
    X = layout.X
    # e[o][d][i]: skipped slots are true; otherwise the literal's value on sample i
    xcol = X[:, np.minimum(cols, m - 1)]            # (n, k, l)
    lit = np.where(positive[None], xcol, ~xcol)
    e_val = np.where((cols == m)[None], True, lit).transpose(1, 2, 0)   # (k, l, n)
    z_val = e_val.all(axis=1)
    if n_vars is None:
        n_vars = max(int(arr.max()) for arr in _layout_vars(layout) if arr.size)
    values = np.zeros(n_vars + 1, dtype=bool)
    for arr, val in ((layout.u, u_val), (layout.p, positive), (layout.e, e_val),
                     (layout.z, z_val)):
        values[arr] = val
    if layout.eta is not None:
        values[layout.eta] = z_val.any(axis=0) != layout.y
    return values


def _hint_dict(layout: IMLIBLayout, values: np.ndarray) -> dict[int, bool]:
    """The ``{var: bool}`` form of a hint array, over the layout's variables."""
    variables = np.concatenate([arr.reshape(-1) for arr in _layout_vars(layout)])
    return dict(zip(variables.tolist(), values[variables].tolist(), strict=True))
