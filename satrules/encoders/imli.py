"""IMLI: the incremental MaxSAT formulation of interpretable CNF/DNF rule learning.

Formulation (ALGORITHMS.md §2; Ghosh & Meel 2019, seed 002 eqs. 12-14).  Input:
a binary matrix ``Xb`` (n x m) and labels ``y``.  The encoder appends the
complement of every column, ``A = [Xb, 1 - Xb]`` (q = 2m columns; column ``j < m``
is literal ``x_j``, column ``j + m`` is ``NOT x_j``), and learns a CNF
``M = C_1 AND ... AND C_k`` over ``A`` for the target ``t``: ``t = y`` for
``rule_type="cnf"`` and ``t = 1 - y`` for ``rule_type="dnf"``, whose rule set is
then ``NOT M`` (§2.5, De Morgan).

Variables (IR keys, paper symbols):

* ``("b", o, j)`` = ``b[o][j]``: column ``j`` appears in clause ``o`` (k x q);
* ``("eta", i)`` = ``eta_i``: sample ``i`` may be misclassified (n);
* ``("z", i, o)`` = ``z[i][o]``, only for samples with ``t_i = 0``: clause ``o``
  is false on sample ``i`` (Tseitin auxiliary, k per such sample);
* ``("lex", o, j)`` (only with ``symmetry_breaking``): rows ``o`` and ``o + 1``
  of ``b`` agree on columns ``0..j``.

Clauses (eq. 12 as CNF, §2.3), with ``S_i = {j : A_ij = 1}``:

* hard, ``t_i = 1``: ``eta_i OR OR_{j in S_i} b[o][j]`` for every ``o``;
* hard, ``t_i = 0``: ``eta_i OR z[i][0] OR ... OR z[i][k-1]`` and
  ``NOT z[i][o] OR NOT b[o][j]`` for every ``o`` and ``j in S_i``;
* soft: ``NOT eta_i`` with weight ``lambda`` (eq. 13), ``lambda * w_i`` with row
  weights ``sample_weight``;
* soft, first partition: ``NOT b[o][j]`` with weight ``w_f``; later partitions
  (eq. 14, §2.6) replace them with anchors ``b[o][j]`` / ``NOT b[o][j]`` copying
  the previous (pruned, §2.7) rules, so the cost is
  ``w_f * Hamming(b, b_prev) + lambda * errors``.

Sizes (§2.9): ``k q + n + k n0`` variables, ``k n1 + n0 + k m n0`` hard clauses
and ``k q + n`` soft units, where ``n1``/``n0`` count ``t = 1``/``t = 0``.

Symmetry breaking (optional, first partition only): the k clauses are
interchangeable, so requiring the rows of ``b`` to be in non-increasing
lexicographic order keeps an optimal solution (sort the rows of any optimum,
permuting the matching ``z`` columns).  With anchors the rows are no longer
interchangeable, so the option is ignored when ``prior`` is given.

Non-integer ``data_fidelity`` / ``feature_weight`` are scaled to integers by the
least common multiple of their denominators; ``layout.scale`` records it.

References
----------
Ghosh, B. & Meel, K. S. (2019). IMLI: An Incremental Framework for MaxSAT-Based
Learning of Interpretable Classification Rules. AIES 2019.
Ferreira Junior, A. & Rocha, A. (2024). An Incremental MaxSAT-based Model to Learn
Interpretable and Balanced Classification Rules (arXiv 2403.16418), Example 1.

Examples
--------
>>> import numpy as np
>>> from satrules import solve
>>> X = np.array([[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]])
>>> y = np.array([1, 0, 0, 1])
>>> enc = encode_imli(X, y, n_rules=1, rule_type="dnf", data_fidelity=10)
>>> sol = solve(enc.model, backend="bruteforce")
>>> sol.cost
1
>>> print(decode_imli(enc.layout, sol))
IF (NOT x1)
THEN positive
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np

from satrules.exceptions import EncodingError, ModelSizeError
from satrules.ir import Model, Solution
from satrules.layout import Encoding, RuleLayout
from satrules.rules import Literal, RuleSet

__all__ = ["encode_imli", "decode_imli", "hint_imli", "estimate_imli_size", "sample_weights",
           "DEFAULT_MAX_CLAUSES"]

#: Default refusal threshold on the number of hard + soft clauses of one encoding.
DEFAULT_MAX_CLAUSES = 5_000_000


def _as_fraction(value: Any, name: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise EncodingError(f"{name} must be a positive number, got {value!r}")
    frac = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    if not frac > 0:
        raise EncodingError(f"{name} must be a positive number, got {value!r}")
    return frac


def _integer_weights(data_fidelity: Any, feature_weight: Any) -> tuple[int, int, Fraction]:
    """Return (lambda, w_f) as integers and the scale applied to reach them."""
    lam = _as_fraction(data_fidelity, "data_fidelity")
    w_f = _as_fraction(feature_weight, "feature_weight")
    scale = lcm(lam.denominator, w_f.denominator)
    if scale > 10**6:
        raise EncodingError(
            f"data_fidelity={data_fidelity!r} and feature_weight={feature_weight!r} need a "
            f"weight scale of {scale}; use simpler ratios"
        )
    return int(lam * scale), int(w_f * scale), Fraction(scale)


def _check_data(Xb: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    X = np.asarray(Xb)
    if X.ndim != 2:
        raise EncodingError(f"Xb must be a 2-D 0/1 matrix, got shape {X.shape}")
    if X.size and not np.isin(X, (0, 1)).all():
        raise EncodingError("Xb must hold only 0/1 (or bool) values")
    t = np.asarray(y).reshape(-1) if np.ndim(y) else np.asarray(y)
    if t.shape != (X.shape[0],):
        raise EncodingError(f"y must have shape ({X.shape[0]},), got {np.shape(y)}")
    if t.size and not np.isin(t, (0, 1)).all():
        raise EncodingError("y must hold only 0/1 (or bool) labels")
    if X.shape[1] == 0:
        raise EncodingError("Xb has no columns: IMLI needs at least one binary feature")
    return X.astype(bool), t.astype(bool)


def estimate_imli_size(n_samples: int, n_columns: int, n_rules: int, n_negative: int,
                       symmetry_breaking: bool = False) -> dict[str, int]:
    """Return the exact sizes of an IMLI encoding (ALGORITHMS.md §2.9) before building it.

    ``n_negative`` counts the samples with target ``t = 0`` (``y = 1`` in DNF mode).

    Examples
    --------
    >>> estimate_imli_size(4, 3, 1, 2)
    {'n_vars': 12, 'n_hard': 10, 'n_soft': 10, 'n_clauses': 20, 'n_literals': 34}
    """
    k, m, n, n0 = n_rules, n_columns, n_samples, n_negative
    n1, q = n - n0, 2 * m
    n_vars = k * q + n + k * n0
    n_hard = k * n1 + n0 + k * m * n0
    n_lits = k * n1 * (1 + m) + n0 * (1 + k) + 2 * k * m * n0
    if symmetry_breaking and k > 1:
        n_vars += (k - 1) * q
        n_hard += 3 * (k - 1) * q
        n_lits += (k - 1) * (11 * q - 3)
    n_soft = k * q + n
    return {"n_vars": n_vars, "n_hard": n_hard, "n_soft": n_soft,
            "n_clauses": n_hard + n_soft, "n_literals": n_lits + n_soft}


def _prior_matrix(prior: Any, n_rules: int, m: int, rule_type: str) -> np.ndarray:
    """Return the previous partition's b matrix (k x 2m, encoded CNF space) from ``prior``."""
    if isinstance(prior, RuleSet):
        if prior.n_columns != m:
            raise EncodingError(f"prior has {prior.n_columns} columns, the data has {m}")
        encoded = prior if prior.kind == "cnf" else prior.negate()
        if (prior.kind == "dnf") != (rule_type == "dnf"):
            raise EncodingError(f"prior is a {prior.kind} rule set but rule_type={rule_type!r}")
        if encoded.n_rules > n_rules:
            raise EncodingError(f"prior has {encoded.n_rules} rules, more than n_rules={n_rules}")
        b = np.zeros((n_rules, 2 * m), dtype=bool)
        for o, rule in enumerate(encoded.rules):
            for lit in rule:
                b[o, lit.column + m * lit.negated] = True
        return b
    b = np.asarray(prior)
    if b.shape != (n_rules, 2 * m) or b.dtype != bool:
        raise EncodingError(
            f"prior must be a RuleSet or a bool matrix of shape ({n_rules}, {2 * m}), "
            f"got {b.dtype} {b.shape}"
        )
    return b


def _add_symmetry_breaking(model: Model, b: np.ndarray) -> np.ndarray:
    """Require rows of ``b`` in non-increasing lexicographic order (rows o >=lex o + 1).

    Returns the prefix-equality auxiliaries (empty when k < 2).
    """
    k, q = b.shape
    if k < 2:
        return np.zeros((0, q), dtype=np.int64)
    eq = model.new_vars("lex", (k - 1, q))   # eq[o, j]: rows o, o+1 agree on columns 0..j
    u, v = b[:-1], b[1:]
    prev = np.concatenate([np.zeros((k - 1, 1), dtype=np.int64), eq[:, :-1]], axis=1)
    first = np.zeros((k - 1, q), dtype=bool)
    first[:, 0] = True
    # prefix equal up to j-1 (or j == 0) -> u_j >= v_j
    ge = np.stack([-prev, u, -v], axis=-1).reshape(-1, 3)
    # prefix equal up to j-1 and u_j == v_j -> eq_j (both values)
    both1 = np.stack([-prev, -u, -v, eq], axis=-1).reshape(-1, 4)
    both0 = np.stack([-prev, u, v, eq], axis=-1).reshape(-1, 4)
    flat_first = first.reshape(-1)
    # for j == 0 there is no prefix literal: drop the placeholder 0 column
    for clauses in (ge, both1, both0):
        head = clauses[flat_first][:, 1:]
        tail = clauses[~flat_first]
        model.add_clauses(head)
        if len(tail):
            model.add_clauses(tail)
    return eq


def _cnf_cost(b: np.ndarray, A: np.ndarray, t: np.ndarray, lam: np.ndarray, w_f: int) -> int:
    """Return ``w_f * |b| + sum of lam over the errors`` of the CNF whose clause o holds
    the columns b[o] (``lam``: each row's error weight)."""
    truth = ((A.astype(np.int64) @ b.T.astype(np.int64)) > 0).all(axis=1)
    return w_f * int(b.sum()) + int(lam[truth != t].sum())


def sample_weights(sample_weight: Any, n: int) -> np.ndarray:
    """Return ``sample_weight`` checked as ``n`` positive integers (all ones when None).

    Examples
    --------
    >>> sample_weights([1, 3], 2).tolist(), sample_weights(None, 2).tolist()
    ([1, 3], [1, 1])
    """
    if sample_weight is None:
        return np.ones(n, dtype=np.int64)
    w = np.asarray(sample_weight)
    if w.shape != (n,) or w.dtype.kind not in "iu" or (n and w.min() < 1):
        raise EncodingError(f"sample_weight must hold {n} positive integers, one per row, "
                            f"got {w.dtype} {w.shape}")
    return w.astype(np.int64)


def _initial_rules(A: np.ndarray, t: np.ndarray, k: int, lam: np.ndarray, w_f: int) -> np.ndarray:
    """Return a cheap first-partition warm start: the best of three feasible rule sets.

    (a) every clause empty (the CNF is false everywhere), (b) every clause the
    tautology ``x_0 OR NOT x_0`` (true everywhere), (c) greedy one-literal
    clauses, each minimizing the errors of the CNF built so far.  Rows are in
    non-increasing lexicographic order, so the start also satisfies symmetry breaking.
    """
    n, q = A.shape
    m = q // 2
    empty = np.zeros((k, q), dtype=bool)
    tautology = empty.copy()
    tautology[:, [0, m]] = True
    greedy = empty.copy()
    current = np.ones(n, dtype=bool)
    for o in range(k):
        candidate = current[:, None] & A                       # n x q: CNF after adding {j}
        j = int(np.argmin(lam @ (candidate != t[:, None])))
        greedy[o, j] = True
        current = candidate[:, j]
    options = [empty, tautology, greedy]
    best = min(options, key=lambda b: _cnf_cost(b, A, t, lam, w_f))
    order = sorted(range(k), key=lambda o: tuple(best[o].tolist()), reverse=True)
    return best[order]


def _hint(b_prior: np.ndarray, A: np.ndarray, t: np.ndarray, b: np.ndarray,
          eta: np.ndarray, z_vars: np.ndarray) -> dict[int, bool]:
    """Extend the prior rules to a complete feasible assignment of this partition."""
    true_clause = (A.astype(np.int64) @ b_prior.T.astype(np.int64)) > 0   # n x k
    all_true = true_clause.all(axis=1) if b_prior.shape[0] else np.ones(len(t), dtype=bool)
    err = np.where(t, ~all_true, all_true)
    hint = dict(zip(b.reshape(-1).tolist(), b_prior.reshape(-1).tolist(), strict=True))
    hint.update(zip(eta.tolist(), err.tolist(), strict=True))
    hint.update(zip(z_vars.reshape(-1).tolist(), (~true_clause[~t]).reshape(-1).tolist(),
                    strict=True))
    return hint


def encode_imli(Xb: Any, y: Any, n_rules: int = 1, rule_type: str = "cnf",
                data_fidelity: Any = 10, feature_weight: Any = 1, prior: Any = None, *,
                symmetry_breaking: bool = False,
                max_clauses: int | None = DEFAULT_MAX_CLAUSES,
                sample_weight: Any = None) -> Encoding:
    """Encode one IMLI partition as an IR model.

    Parameters
    ----------
    Xb : array-like of shape (n_samples, n_columns), 0/1
        Binarized features (without complements; the encoder adds them).
    y : array-like of shape (n_samples,), 0/1 or bool
        The class the rule set must predict true.
    n_rules : int
        Number of clauses (CNF) or terms (DNF), ``k``.
    rule_type : {"cnf", "dnf"}
    data_fidelity : positive number
        ``lambda``, the weight of one misclassified sample.
    feature_weight : positive number
        ``w_f``, the weight of one literal (or, with a prior, of one change).
    prior : RuleSet or bool ndarray of shape (n_rules, 2 * n_columns), optional
        The previous partition's rules: anchors replace the sparsity softs (§2.6)
        and ``Encoding.hint`` holds the prior extended to this partition (without a
        prior, the hint is the cheapest of: all clauses empty, all clauses
        tautologies, greedy one-literal clauses).
    symmetry_breaking : bool
        Add lexicographic-order clauses among the k rules (first partition only).
    max_clauses : int or None
        Refuse (``ModelSizeError``) when the encoding would exceed this many clauses.
    sample_weight : array-like of shape (n_samples,) of positive int, optional
        Row weights: misclassifying row ``i`` costs ``lambda * sample_weight[i]``
        (the soft unit ``NOT eta_i`` weighs that much).  None: every row weighs 1.

    Returns
    -------
    Encoding
        ``layout.extra`` holds ``"eta"`` (n,), ``"z"`` (n0, k) variable arrays and
        ``"target"`` (the ``t`` vector).

    Raises
    ------
    EncodingError
        On malformed data or parameters.
    ModelSizeError
        When the estimated clause count exceeds ``max_clauses``.
    """
    X, yb = _check_data(Xb, y)
    if isinstance(n_rules, bool) or not isinstance(n_rules, numbers.Integral) or n_rules < 1:
        raise EncodingError(f"n_rules must be a positive integer, got {n_rules!r}")
    if rule_type not in ("cnf", "dnf"):
        raise EncodingError(f"rule_type must be 'cnf' or 'dnf', got {rule_type!r}")
    lam, w_f, scale = _integer_weights(data_fidelity, feature_weight)
    k = int(n_rules)
    n, m = X.shape
    t = ~yb if rule_type == "dnf" else yb
    sym = bool(symmetry_breaking) and prior is None
    size = estimate_imli_size(n, m, k, int((~t).sum()), sym)
    if max_clauses is not None and size["n_clauses"] > max_clauses:
        raise ModelSizeError(
            f"the IMLI encoding would have {size['n_clauses']:,} clauses "
            f"({size['n_literals']:,} literals; n_samples={n}, n_columns={m}, n_rules={k}), "
            f"above max_clauses={max_clauses:,}; use smaller partitions (more partitions / a "
            "smaller partition_size), fewer rules or fewer thresholds (n_thresholds)"
        )
    b_prior = None if prior is None else _prior_matrix(prior, k, m, rule_type)
    row_lam = lam * sample_weights(sample_weight, n)          # each row's error weight

    A = np.concatenate([X, ~X], axis=1)                       # n x q, exactly m ones per row
    cols = np.nonzero(A)[1].reshape(n, m)                     # S_i, ascending per row
    model = Model()
    b = model.new_vars("b", (k, 2 * m))
    eta = model.new_vars("eta", n)
    neg_idx = np.flatnonzero(~t)
    z_vars = np.array([[model.new_var(("z", int(i), o)) for o in range(k)] for i in neg_idx],
                      dtype=np.int64).reshape(len(neg_idx), k)

    # soft units: b's first (sparsity eq. 13 or anchors eq. 14), then the eta's
    if b_prior is None:
        model.add_soft_units(-b.reshape(-1), w_f)
    else:
        model.add_soft_units(np.where(b_prior, b, -b).reshape(-1), w_f)
    model.add_soft_units(-eta, row_lam)

    pos_idx = np.flatnonzero(t)
    # t_i = 1: every clause o true on A_i, or eta_i          (n1*k clauses of 1 + m literals)
    pos_cl = np.concatenate([
        np.broadcast_to(eta[pos_idx][:, None, None], (len(pos_idx), k, 1)),
        b[np.arange(k)[None, :, None], cols[pos_idx][:, None, :]],
    ], axis=2).reshape(-1, 1 + m)
    model.add_clauses(pos_cl)
    # t_i = 0: some clause false (z), or eta_i               (n0 clauses of 1 + k literals)
    model.add_clauses(np.concatenate([eta[neg_idx][:, None], z_vars], axis=1))
    # z[i][o] -> no column of S_i in clause o                (n0*k*m binary clauses)
    nz = np.broadcast_to(-z_vars[:, :, None], (len(neg_idx), k, m))
    nb = -b[np.arange(k)[None, :, None], cols[neg_idx][:, None, :]]
    model.add_clauses(np.stack([nz, nb], axis=-1).reshape(-1, 2))
    lex = _add_symmetry_breaking(model, b) if sym else np.zeros(0, dtype=np.int64)

    slots = tuple(Literal(j) for j in range(m)) + tuple(Literal(j, True) for j in range(m))
    layout = RuleLayout(use=b, slot_literals=slots, encoded_kind="cnf", kind=rule_type,
                        n_columns=m, error_vars=eta, scale=scale,
                        extra={"eta": eta, "z": z_vars, "target": t, "X": X, "lambda": lam,
                               "feature_weight": w_f, "symmetry_breaking": sym})
    # warm start: the prior extended to this partition, or (first partition) a cheap
    # feasible rule set, so an anytime engine starts from (and keeps) a sensible point
    start = _initial_rules(A, t, k, row_lam, w_f) if b_prior is None else b_prior
    hint = _hint(start, A, t, b, eta, z_vars)
    if lex.size:   # prefix-equality auxiliaries of the (lexicographically sorted) start rows
        same = np.cumprod(start[:-1] == start[1:], axis=1).astype(bool)
        hint.update(zip(lex.reshape(-1).tolist(), same.reshape(-1).tolist(), strict=True))
    return Encoding(model, layout, hint)


def decode_imli(layout: RuleLayout, solution: Solution) -> RuleSet:
    """Return the rule set (``layout.kind``) that ``solution`` selects through the b variables.

    Errors are not read from ``eta`` (a non-optimal solution may set it needlessly);
    evaluate the returned rule set instead.
    """
    return layout.decode(solution)


def hint_imli(layout: RuleLayout, rules: RuleSet) -> dict[int, bool] | None:
    """Return a complete feasible assignment of ``layout``'s encoding realising ``rules``.

    A warm start, for example the best rules found so far on earlier
    partitions.  Returns None when ``rules`` has more rules than the
    encoding's ``n_rules`` or is of the other kind, or when symmetry breaking
    is on (its order auxiliaries would need the rules sorted).

    Examples
    --------
    >>> import numpy as np
    >>> from satrules.rules import Literal, Rule, RuleSet
    >>> X = np.array([[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]])
    >>> enc = encode_imli(X, np.array([1, 0, 0, 1]), n_rules=1, rule_type="dnf")
    >>> start = RuleSet([Rule((Literal(1, negated=True),))], "dnf", 3)
    >>> hint = hint_imli(enc.layout, start)
    >>> enc.model.evaluate(hint), enc.model.cost(hint)
    (True, 1)
    """
    extra = layout.extra
    if extra.get("symmetry_breaking") or rules.kind != layout.kind:
        return None
    try:
        b_rules = _prior_matrix(rules, layout.n_rules, layout.n_columns, layout.kind)
    except EncodingError:
        return None
    # rows past the given rules would be empty clauses (false); the tautology x0 OR NOT x0
    # keeps the rule set's meaning instead
    b_rules[rules.n_rules:, [0, layout.n_columns]] = True
    X = extra["X"]
    A = np.concatenate([X, ~X], axis=1)
    return _hint(b_rules, A, extra["target"], layout.use, extra["eta"], extra["z"])
