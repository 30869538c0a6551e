"""Polish a learned rule set on the whole training set (IMLI / IMLIB ``polish=True``).

The incremental learners solve their objective ``λ·errors + literals`` exactly,
but only on one small partition at a time, and keep the partition answer that
scores best on the whole training set.  That answer is rarely a local optimum
of the whole-training-set objective itself: one literal more or less often
fixes several errors at once.  :func:`polish_rules` hill-climbs on that
objective with single-literal moves,

* remove one literal from a rule (of two or more literals),
* add one literal (either polarity) to a rule, within ``max_literals`` per rule,
* replace one literal of a rule by another (``replace=True``: e.g. ``age > 30`` by
  ``age > 40``, a move that removal and addition one at a time rarely find, since the
  intermediate rule is usually worse),
* drop a whole rule,
* add a one-literal rule, within ``max_rules``,

taking the move that lowers the objective most, until none does.  The
estimators pass ``max_rules`` = the selected rule count plus their ``extra_rules``
(default 2), and their ``significance`` as ``min_z``: a rule is added only when the
rows it changes pass the sign test (on thousands of rows, a rule that fits a handful
of them would overfit).  Every move
strictly lowers the objective, so the result is never worse on the training
data than the input and the loop ends.  A CNF is polished through its De
Morgan dual (a DNF of the negated literals for the negated labels: same errors,
same literal count).  The work of one round is a few boolean matrix products
over the rows still undecided by the other rules (numpy), so polishing costs
milliseconds next to the partition solves.  Deterministic: ties go to the
first move in a fixed order (rules in order; removals, then additions by
column, positive before negated; drops; new rules).
"""

from __future__ import annotations

import time

import numpy as np

from satrules.rules import Literal, Rule, RuleSet

__all__ = ["beats_constant", "polish_rules", "prune_rules", "significant"]


def _term_cover(X: np.ndarray, lits: list[Literal]) -> np.ndarray:
    pos = [lit.column for lit in lits if not lit.negated]
    neg = [lit.column for lit in lits if lit.negated]
    return X[:, pos].all(axis=1) & ~X[:, neg].any(axis=1)


def polish_rules(rules: RuleSet, Xb: np.ndarray, y: np.ndarray, data_fidelity: float,
                 literal_weight: float = 1.0, max_literals: int | None = None,
                 max_rules: int | None = None, deadline: float | None = None,
                 max_moves: int = 1000, min_z: float = 0.0, replace: bool = False,
                 sign_test: str = "exact", sample_weight: np.ndarray | None = None,
                 new_rule_z: float | None = None,
                 known_ones: np.ndarray | None = None) -> RuleSet:
    """Return ``rules`` improved by single-literal moves on ``(Xb, y)``.

    The objective is ``data_fidelity * errors + literal_weight * literals``, as in the
    learners' selection of the best partition rules (with ``sample_weight``, an error
    on row ``i`` counts ``sample_weight[i]``).

    Parameters
    ----------
    rules : RuleSet
        A DNF or CNF over the columns of ``Xb``.
    Xb : ndarray of shape (n_samples, n_columns), 0/1 or bool
    y : ndarray of shape (n_samples,), bool
        The labels the rule set should predict (true = the rule set holds).
    data_fidelity, literal_weight : float
        Cost of one error and of one literal.
    max_literals : int, optional
        Most literals in one rule (IMLIB's bound); no bound when None.
    max_rules : int, optional
        Most rules; a one-literal rule may be added while there are fewer.
    deadline : float, optional
        ``time.monotonic()`` value after which no further move is made.
    max_moves : int
        Most moves (a safety bound; each move lowers the objective).
    min_z : float
        Significance a move needs, as a z value: a sign test on the ``fixed`` wrong
        predictions it corrects and the ``broken`` right ones it spoils (see
        :func:`significant`; 0 takes every move that lowers the objective).  The
        estimators pass their ``significance`` (default 2: with the exact test, 6 rows
        corrected and none spoilt, 8 and 1, 12 and 3...) so that no move rests on a
        handful of rows of a large training set.
    replace : bool
        Also try replacing one literal of a rule by another (same literal count).
    sign_test : {"exact", "normal"}
        How the sign test is computed (see :func:`significant`).
    sample_weight : ndarray of shape (n_samples,), optional
        Positive row weights: errors and the sign test's ``fixed`` and ``broken`` are
        weighted sums (the test then is the weighted one of :func:`significant`).
    new_rule_z : float, optional
        The level a new rule must pass instead of ``min_z``.
    known_ones : ndarray of shape (n_columns,), optional
        The ones of each column of ``Xb`` (unweighted rows): given, a new rule's counts
        while no rule covers a row read it instead of summing ``Xb`` again (one-vs-rest
        fits polish every class on the same ``Xb``).  With ``sample_weight`` of a few
        distinct values, the count of the most common one is derived from it.

    Returns
    -------
    RuleSet
        Same kind, columns, conditions and label; never a higher objective.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1, 1], [1, 0], [0, 1], [0, 0]])
    >>> y = np.array([True, False, False, False])
    >>> start = RuleSet([[Literal(0)]], "dnf", 2)          # x0: one error
    >>> print(polish_rules(start, X, y, data_fidelity=10))  # x0 AND x1: none
    IF (x0 AND x1)
    THEN positive
    """
    X = np.asarray(Xb).astype(bool, copy=False)
    y = np.asarray(y).astype(bool, copy=False)
    if rules.kind == "cnf":   # a CNF for y is the negation of a DNF for ~y
        dual = polish_rules(rules.negate(), X, ~y, data_fidelity, literal_weight,
                            max_literals, max_rules, deadline, max_moves, min_z, replace,
                            sign_test, sample_weight, new_rule_z, known_ones)
        out = dual.negate()
        return RuleSet(out.rules, out.kind, out.n_columns, rules.conditions, rules.label)
    lam, w = float(data_fidelity), float(literal_weight)
    terms = [list(rule.literals) for rule in rules.rules]
    n_cols = X.shape[1]
    weights = _Weights(len(y), sample_weight)
    for _ in range(max_moves):
        if deadline is not None and time.monotonic() >= deadline:
            break
        move = _best_move(X, y, terms, lam, w, n_cols, max_literals, max_rules, min_z,
                          replace, sign_test, weights,
                          min_z if new_rule_z is None else new_rule_z, known_ones)
        if move is None:
            break
        kind, j, arg = move
        if kind == "remove":
            terms[j] = terms[j][:arg] + terms[j][arg + 1:]
        elif kind == "add":
            terms[j] = terms[j] + [arg]
        elif kind == "replace":
            t, lit = arg
            terms[j] = terms[j][:t] + terms[j][t + 1:] + [lit]
        elif kind == "drop":
            terms.pop(j)
        else:   # new rule
            terms.append([arg])
    return RuleSet([Rule(tuple(t)) for t in terms], "dnf", rules.n_columns, rules.conditions,
                   rules.label)


def prune_rules(rules: RuleSet, Xb: np.ndarray, y: np.ndarray, min_z: float,
                sign_test: str = "exact", sample_weight: np.ndarray | None = None,
                literals: bool = True) -> RuleSet:
    """Return ``rules`` without the literals and rules that do not pay their way.

    The partition solves and polishing add a literal whenever it lowers the objective
    on the rows they see; polishing's sign test guards its own moves, but not what the
    solver put in.  Here every literal and every rule is tested as a polishing move that
    added it would be (:func:`significant`): a literal on the rows only it keeps out of
    its rule's cover (the negatives among them it gets right, the positives it gets
    wrong), a rule on the rows only it covers (positives right, negatives wrong).  The
    least significant part that fails is removed, and the test is repeated until every
    part passes.  ``min_z = 0`` returns ``rules`` unchanged.

    Parameters
    ----------
    rules : RuleSet
        A DNF or CNF over the columns of ``Xb``.
    Xb : ndarray of shape (n_samples, n_columns), 0/1 or bool
    y : ndarray of shape (n_samples,), bool
        The labels the rule set should predict.
    min_z : float
        The level of the sign test, as a z value.
    sign_test : {"exact", "normal"}
    sample_weight : ndarray of shape (n_samples,), optional
        Positive row weights (the weighted sign test of :func:`significant`).
    literals : bool
        Test the literals too; False tests (and drops) whole rules only.

    Returns
    -------
    RuleSet
        Same kind, columns, conditions and label; its rules are subsets of the input's.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.zeros((20, 2), dtype=bool)
    >>> X[:10, 0] = True                      # x0 holds on the ten positives
    >>> X[9, 1] = True                        # x1 on one of them, which is negative
    >>> y = np.arange(20) < 9
    >>> start = RuleSet([[Literal(0), Literal(1, True)]], "dnf", 2)
    >>> print(prune_rules(start, X, y, min_z=2.0))   # NOT x1 fixes one row only
    IF (x0)
    THEN positive
    """
    if min_z <= 0:
        return rules
    X = np.asarray(Xb).astype(bool, copy=False)
    y = np.asarray(y).astype(bool, copy=False)
    if rules.kind == "cnf":
        out = prune_rules(rules.negate(), X, ~y, min_z, sign_test, sample_weight,
                          literals).negate()
        return RuleSet(out.rules, out.kind, out.n_columns, rules.conditions, rules.label)
    weights = _Weights(len(y), sample_weight)
    terms = [list(rule.literals) for rule in rules.rules]
    while terms:
        covers = [_term_cover(X, t) for t in terms]
        worst, worst_z = None, np.inf
        for j, term in enumerate(terms):
            others = np.zeros(len(y), dtype=bool)
            for i, c in enumerate(covers):
                if i != j:
                    others |= c
            alone = covers[j] & ~others
            parts = [(("drop", j, None), weights.total(alone & y), weights.total(alone & ~y))]
            for t in range(len(term) if literals and len(term) > 1 else 0):
                freed = _term_cover(X, term[:t] + term[t + 1:]) & ~covers[j] & ~others
                parts.append((("remove", j, t), weights.total(freed & ~y),
                              weights.total(freed & y)))
            for move, fixed, broken in parts:
                if fixed[1] + broken[1] and weights.significant(fixed, broken, min_z,
                                                                sign_test):
                    continue
                var = fixed[1] + broken[1]
                z = (fixed[0] - broken[0]) / np.sqrt(var) if var else -np.inf
                if z < worst_z:
                    worst, worst_z = move, z
        if worst is None:
            break
        kind, j, t = worst
        if kind == "drop":
            terms.pop(j)
        else:
            terms[j] = terms[j][:t] + terms[j][t + 1:]
    return RuleSet([Rule(tuple(t)) for t in terms], "dnf", rules.n_columns, rules.conditions,
                   rules.label)


#: :class:`_Weights` sums columns per distinct weight when the rows have at most this many
_WEIGHT_LEVELS = 8


class _Weights:
    """Row weights as the (sum, sum of squares) pair every count of a move needs.

    Every count of the polishing and pruning moves is a pair: the sum of the rows'
    weights (the errors, ``fixed`` and ``broken``) and the sum of their squares (the
    variance of the weighted sign test).  Without weights both are row counts and the
    sign test is the unweighted one of :func:`significant`.
    """

    def __init__(self, n: int, sample_weight: np.ndarray | None) -> None:
        self.weighted = sample_weight is not None
        w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        if w.shape != (n,) or not (np.isfinite(w).all() and (w > 0).all()):
            raise ValueError(f"sample_weight must hold {n} positive finite weights")
        self.pair = np.stack([w, w * w], axis=1)          # n x 2
        # a few distinct weights (one-vs-rest's heavier class, class weights): each
        # column's sums as counts of ones per weight, summed as bytes (a float product
        # copies the rows to floats: 43 of 62 s of a 20-class fit of 20,000 rows)
        levels = np.unique(w) if self.weighted else None
        self.levels = levels if levels is not None and len(levels) <= _WEIGHT_LEVELS \
            else None

    def total(self, mask: np.ndarray) -> np.ndarray:
        """(weight, squared weight) summed over the rows of ``mask``: shape (2,)."""
        return self.pair[mask].sum(axis=0)

    def columns(self, XS: np.ndarray, rows: np.ndarray,
                ones: np.ndarray | None = None) -> np.ndarray:
        """(weight, squared weight) summed per column over the rows where it is 1: (2, m).

        ``XS`` is boolean.  Without weights both are the column's count of ones, summed as
        bytes (several times faster than a float product, which copies ``XS`` to floats).
        ``ones``: the ones per column of ``XS``, already counted; with a few distinct
        weights the most common weight's count is then ``ones`` minus the others' (a
        one-vs-rest problem copies only its class's rows).
        """
        if not self.weighted and XS.dtype == np.bool_:
            return self.ones_pair(column_ones(XS) if ones is None else ones)
        if self.levels is not None and XS.dtype == np.bool_:
            w = self.pair[rows, 0]
            at = [w == v for v in self.levels]
            sizes = [np.count_nonzero(a) for a in at]
            most = int(np.argmax(sizes)) if ones is not None else -1
            counts = [None if k == most or not sizes[k] else column_ones(XS[a])
                      for k, a in enumerate(at)]
            if most >= 0:   # exact: whole numbers
                counts[most] = ones - sum(c for c in counts if c is not None)
            out = np.zeros((2, XS.shape[1]))
            for v, c in zip(self.levels, counts, strict=True):
                if c is not None:
                    out += np.array([[v], [v * v]]) * c
            return out
        return self.pair[rows].T @ XS

    @staticmethod
    def ones_pair(ones: np.ndarray) -> np.ndarray:
        """Unweighted counts of ones as :meth:`columns` returns them: (2, m) floats."""
        return np.stack([ones, ones]).astype(np.float64)

    def grouped_columns(self, X: np.ndarray, rows: np.ndarray, group: np.ndarray,
                        n_groups: int) -> list[np.ndarray]:
        """:meth:`columns` of ``X[rows[group == g]]`` for each ``g < n_groups``.

        The rows are copied out of ``X`` once, sorted by group (stably: each group keeps
        its rows' order, so every sum is the one :meth:`columns` makes), and each group
        is a slice of that copy, instead of one copy per group.
        """
        order = np.argsort(group, kind="stable")
        rows, group = rows[order], group[order]
        XS = X[rows]
        bounds = np.searchsorted(group, np.arange(n_groups + 1))
        return [self.columns(XS[lo:hi], rows[lo:hi])
                for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]

    def significant(self, fixed: np.ndarray, broken: np.ndarray, min_z: float,
                    sign_test: str):
        """:func:`significant` on (weight, squared weight) pairs (leading axis of 2)."""
        return significant(fixed[0], broken[0], min_z, sign_test,
                           variance=fixed[1] + broken[1] if self.weighted else None)


def column_ones(X: np.ndarray) -> np.ndarray:
    """The ones in each column of the boolean ``X``, summed as bytes (several times faster
    than a float product, which copies ``X`` to floats).

    >>> column_ones(np.array([[True, False], [True, True]])).tolist()
    [2, 1]
    """
    return np.add.reduce(X.view(np.uint8), axis=0, dtype=np.int64)


def _literal_counts(XS: np.ndarray, yS: np.ndarray, weights: _Weights, inside: np.ndarray,
                    ones: np.ndarray | None = None):
    """Per column of ``XS`` (the rows of ``inside``): the weight of the positives and of
    the negatives where it is 1, and the class totals ((2, m) and (2, 1) pairs).
    ``ones``: the ones per column of ``XS``, already counted (each row once)."""
    rows = np.flatnonzero(inside)
    ones_pos = weights.columns(XS[yS], rows[yS])
    every = weights.columns(XS, rows, ones)
    ones_neg = every - ones_pos
    n_pos = weights.total(rows[yS])[:, None]
    n_neg = weights.total(rows)[:, None] - n_pos
    return ones_pos, ones_neg, n_pos, n_neg


SIGN_TESTS = ("exact", "normal")


def significant(fixed, broken, min_z: float, sign_test: str = "exact", variance=None):
    """Whether flipping predictions that correct ``fixed`` rows and spoil ``broken`` pays.

    A one-sided sign test at the level of a normal tail beyond ``min_z``:

    * ``"exact"``: the p-value P(Binomial(fixed + broken, 1/2) >= fixed) is at most
      the normal tail beyond ``min_z`` (0.0228 for 2), and ``fixed > broken``.  For
      ``min_z = 2``: 6 rows corrected and none spoilt pass (p = 1/64), 4 or 5 and
      none do not (p = 1/16, 1/32); 8 and 1 pass, 12 and 3 pass.
    * ``"normal"``: the z approximation ``fixed - broken >= min_z * sqrt(fixed + broken)``,
      which is generous at small counts (4 corrected and none spoilt pass, p = 1/16).
    * weighted rows (``variance`` given): ``fixed`` and ``broken`` are the rows'
      weight sums and ``variance`` the sum of their squared weights; the test is the
      normal approximation ``fixed - broken >= min_z * sqrt(variance)`` of the weighted
      sign test (each flipped row's weight counts + or - with probability 1/2), whatever
      ``sign_test`` says; a tie within rounding (1e-9 of the weights flipped) passes.
      With unit weights it is the ``"normal"`` test.

    No flip at all always passes, and ``min_z = 0`` passes whenever ``fixed >= broken``.

    Parameters
    ----------
    fixed, broken : int, float or array
        Rows (or row weights) the flip corrects and spoils (arrays are tested
        element-wise).
    min_z : float
        The level, as a z value (>= 0).
    sign_test : {"exact", "normal"}
    variance : float or array, optional
        The sum of the squared weights of the flipped rows (weighted rows only).

    Returns
    -------
    bool or ndarray of bool

    Examples
    --------
    >>> bool(significant(6, 0, 2.0)), bool(significant(5, 0, 2.0))
    (True, False)
    >>> bool(significant(4, 0, 2.0, sign_test="normal"))
    True
    >>> bool(significant(4 * 3.0, 0, 2.0, variance=4 * 9.0))   # four rows of weight 3
    True
    >>> bool(significant(0.0, 0.0, 2.0, variance=-1e-13))     # no flip (rounding below 0)
    True
    >>> bool(significant(0.7, 0.0, 1.0, variance=0.49000000000000005))   # a tie, rounded
    True
    """
    if sign_test not in SIGN_TESTS:
        raise ValueError(f"sign_test must be one of {SIGN_TESTS}, got {sign_test!r}")
    fixed, broken = np.asarray(fixed, dtype=float), np.asarray(broken, dtype=float)
    if variance is not None:   # a sum of squares, computed as a difference: >= -1e-12
        spread = min_z * np.sqrt(np.maximum(np.asarray(variance, dtype=float), 0.0))
        # weight sums are computed as differences too: a tie (z = min_z) passes however
        # they were rounded, so that the same flips get the same verdict however summed
        slack = 1e-9 * np.maximum(1.0, np.abs(fixed) + np.abs(broken))
        return fixed - broken >= spread - slack
    if sign_test == "exact" and min_z > 0:
        from scipy.stats import binom, norm

        n = fixed + broken
        p = binom.sf(fixed - 1, n, 0.5)
        return (n == 0) | ((fixed > broken) & (p <= norm.sf(min_z)))
    return fixed - broken >= min_z * np.sqrt(fixed + broken)


def beats_constant(predicted, y, constant, min_z: float, sign_test: str = "exact",
                   sample_weight=None) -> tuple[float, float, bool]:
    """The null test: do predictions beat predicting ``constant`` for every row?

    Returns ``(fixed, broken, passed)``: the rows ``predicted`` gets right and the
    constant gets wrong, the converse (row counts, or weight sums with
    ``sample_weight``), and whether they pass :func:`significant` (never when they flip
    no row at all).

    Examples
    --------
    >>> beats_constant(np.array([1, 1, 0, 0]), np.array([1, 1, 0, 0]), 0, 0.0)
    (2, 0, True)
    >>> beats_constant(np.zeros(4), np.array([1, 0, 0, 0]), 0, 2.0)
    (0, 0, False)
    """
    right, right_before = np.asarray(predicted) == y, np.asarray(y) == constant
    if sample_weight is None:
        fixed = int(np.count_nonzero(right & ~right_before))
        broken = int(np.count_nonzero(~right & right_before))
        return fixed, broken, bool(fixed + broken and
                                   significant(fixed, broken, min_z, sign_test))
    weights = _Weights(len(right), sample_weight)
    fixed_pair, broken_pair = weights.total(right & ~right_before), \
        weights.total(~right & right_before)
    passed = bool(fixed_pair[1] + broken_pair[1] and
                  weights.significant(fixed_pair, broken_pair, min_z, sign_test))
    return float(fixed_pair[0]), float(broken_pair[0]), passed


def _best_move(X, y, terms, lam, w, n_cols, max_literals, max_rules, min_z, replace=False,
               sign_test="exact", weights=None, new_rule_z=None, known_ones=None):
    """Return the move that lowers the objective most, or None (a local optimum).

    Only moves whose flipped predictions pass :func:`significant` are considered.  Every
    count is a (weight, squared weight) pair (:class:`_Weights`); the objective reads the
    first.
    """
    weights = _Weights(len(y), None) if weights is None else weights
    covers = [_term_cover(X, t) for t in terms]
    union = np.zeros(len(y), dtype=bool)
    for c in covers:
        union |= c
    wrong = union != y
    # per rule, the rows the other rules cover (used by every move on that rule)
    all_others = []
    for j in range(len(terms)):
        others = np.zeros(len(y), dtype=bool)
        for i, c in enumerate(covers):
            if i != j:
                others |= c
        all_others.append(others)
    n_lits = sum(len(t) for t in terms)
    n_wrong = weights.total(wrong)[:, None]
    current = lam * n_wrong[0, 0] + w * n_lits
    best_value, best = current, None

    def consider(value, move):
        nonlocal best_value, best
        if value < best_value - 1e-9:
            best_value, best = value, move

    def consider_mask(prediction, literals, move):
        flipped = prediction != union
        fixed = weights.total(flipped & wrong)
        broken = weights.total(flipped) - fixed
        if weights.significant(fixed, broken, min_z, sign_test):
            consider(lam * weights.total(prediction != y)[0] + w * literals, move)

    def consider_columns(fixed, broken, errors, literals, make, z=min_z):
        # the best column (either polarity) among those whose flips are significant
        for f, b, err, negated in zip(fixed, broken, errors, (False, True), strict=True):
            value = np.where(weights.significant(f, b, z, sign_test), lam * err[0],
                             np.inf)
            c = int(np.argmin(value))
            if np.isfinite(value[c]):
                consider(value[c] + w * literals, make(Literal(c, negated)))

    for j, term in enumerate(terms):
        others = all_others[j]
        for t in range(len(term) if len(term) > 1 else 0):   # the last one: "drop"
            consider_mask(others | _term_cover(X, term[:t] + term[t + 1:]), n_lits - 1,
                          ("remove", j, t))
        if max_literals is None or len(term) < max_literals:
            # a literal added to rule j un-covers some of the rows only it covers: the
            # negatives among them are fixed, the positives broken
            inside = covers[j] & ~others
            ones_pos, ones_neg, n_pos, n_neg = _literal_counts(X[inside], y[inside],
                                                               weights, inside)
            base = n_wrong - n_neg      # errors outside those rows
            fixed = (n_neg - ones_neg, ones_neg)        # negatives un-covered
            broken = (n_pos - ones_pos, ones_pos)       # positives un-covered
            # errors among those rows after the move: negatives kept + positives lost
            errors = (base + ones_neg + n_pos - ones_pos, base + (n_neg - ones_neg) + ones_pos)
            consider_columns(fixed, broken, errors, n_lits + 1,
                             lambda lit, j=j: ("add", j, lit))
        for t in range(len(term) if replace else 0):
            # literal t replaced by column c: only rows the reduced rule covers alone can
            # flip; there the prediction becomes column c (or its negation)
            inside = _term_cover(X, term[:t] + term[t + 1:]) & ~others
            rows = np.flatnonzero(inside)
            cur, bad = union[inside], wrong[inside]
            # the groups: wrong and covered (a), wrong and not (b), right and covered
            # (c), right and not (d)
            group = 2 * (~bad).view(np.uint8) + (~cur).view(np.uint8)
            sa, sb, sc, sd = weights.grouped_columns(X, rows, group, 4)
            na, nb, nc, nd = (weights.total(rows[group == g])[:, None] for g in range(4))
            fixed = (na - sa + sb, sa + nb - sb)      # wrong rows whose prediction flips
            broken = (nc - sc + sd, sc + nd - sd)     # right rows whose prediction flips
            errors = tuple(n_wrong - f + b for f, b in zip(fixed, broken, strict=True))
            consider_columns(fixed, broken, errors, n_lits,
                             lambda lit, j=j, t=t: ("replace", j, (t, lit)))
    for j in range(len(terms)):
        consider_mask(all_others[j], n_lits - len(terms[j]), ("drop", j, None))
    if (max_rules is None or len(terms) < max_rules) and n_cols:
        outside = ~union
        # no rule yet (or none that covers a row): every row, without copying X
        every = not union.any()
        ones_pos, ones_neg, n_pos, n_neg = _literal_counts(
            X if every else X[outside], y if every else y[outside], weights, outside,
            known_ones if every else None)
        base = n_wrong - n_pos             # errors among the covered rows
        fixed = (ones_pos, n_pos - ones_pos)               # positives newly covered
        broken = (ones_neg, n_neg - ones_neg)              # negatives newly covered
        errors = (base + ones_neg + n_pos - ones_pos, base + (n_neg - ones_neg) + ones_pos)
        consider_columns(fixed, broken, errors, n_lits + 1, lambda lit: ("new", None, lit),
                         min_z if new_rule_z is None else new_rule_z)
    return best
