"""Polish a learned rule set on the whole training set (IMLI / IMLIB ``polish=True``).

The incremental learners solve their objective ``λ·errors + literals`` exactly,
but only on one small partition at a time, and keep the partition answer that
scores best on the whole training set.  That answer is rarely a local optimum
of the whole-training-set objective itself: one literal more or less often
fixes several errors at once.  :func:`polish_rules` hill-climbs on that
objective with single-literal moves,

* remove one literal from a rule (of two or more literals),
* add one literal (either polarity) to a rule, within ``max_literals`` per rule,
* drop a whole rule,
* add a one-literal rule, within ``max_rules``,

taking the move that lowers the objective most, until none does.  The
estimators pass ``max_rules`` = the selected rule count, so they only refine the
rules the solver found and never grow one from nothing (on thousands of rows a
rule fitting a handful of them overfits).  Every move
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

__all__ = ["polish_rules"]


def _term_cover(X: np.ndarray, lits: list[Literal]) -> np.ndarray:
    pos = [lit.column for lit in lits if not lit.negated]
    neg = [lit.column for lit in lits if lit.negated]
    return X[:, pos].all(axis=1) & ~X[:, neg].any(axis=1)


def polish_rules(rules: RuleSet, Xb: np.ndarray, y: np.ndarray, data_fidelity: float,
                 literal_weight: float = 1.0, max_literals: int | None = None,
                 max_rules: int | None = None, deadline: float | None = None,
                 max_moves: int = 1000) -> RuleSet:
    """Return ``rules`` improved by single-literal moves on ``(Xb, y)``.

    The objective is ``data_fidelity * errors + literal_weight * literals``, as in the
    learners' selection of the best partition rules.

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
                            max_literals, max_rules, deadline, max_moves)
        out = dual.negate()
        return RuleSet(out.rules, out.kind, out.n_columns, rules.conditions, rules.label)
    lam, w = float(data_fidelity), float(literal_weight)
    terms = [list(rule.literals) for rule in rules.rules]
    n_cols = X.shape[1]
    for _ in range(max_moves):
        if deadline is not None and time.monotonic() >= deadline:
            break
        move = _best_move(X, y, terms, lam, w, n_cols, max_literals, max_rules)
        if move is None:
            break
        kind, j, arg = move
        if kind == "remove":
            terms[j] = terms[j][:arg] + terms[j][arg + 1:]
        elif kind == "add":
            terms[j] = terms[j] + [arg]
        elif kind == "drop":
            terms.pop(j)
        else:   # new rule
            terms.append([arg])
    return RuleSet([Rule(tuple(t)) for t in terms], "dnf", rules.n_columns, rules.conditions,
                   rules.label)


def _literal_errors(XS: np.ndarray, yS: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Errors on rows ``XS`` of a term reduced to one literal per column: (positive, negated).

    A positive literal on column c keeps the rows where c is 1: its errors are the
    negatives kept plus the positives lost; a negated literal keeps the rows where c is 0.
    """
    n_pos = np.count_nonzero(yS)
    ones_pos = XS[yS].sum(axis=0)        # positives where the column is 1
    ones_neg = XS.sum(axis=0) - ones_pos  # negatives where the column is 1
    return ones_neg + (n_pos - ones_pos), (len(yS) - n_pos - ones_neg) + ones_pos


def _best_move(X, y, terms, lam, w, n_cols, max_literals, max_rules):
    """Return the move that lowers the objective most, or None (a local optimum)."""
    covers = [_term_cover(X, t) for t in terms]
    union = np.zeros(len(y), dtype=bool)
    for c in covers:
        union |= c
    n_lits = sum(len(t) for t in terms)
    current = lam * np.count_nonzero(union != y) + w * n_lits
    best_value, best = current, None

    def consider(value, move):
        nonlocal best_value, best
        if value < best_value - 1e-9:
            best_value, best = value, move

    for j, term in enumerate(terms):
        others = np.zeros(len(y), dtype=bool)
        for i, c in enumerate(covers):
            if i != j:
                others |= c
        fixed = np.count_nonzero(others & ~y)   # rows the other rules decide (wrongly)
        free = ~others
        for t in range(len(term) if len(term) > 1 else 0):   # the last one: "drop"
            cover = _term_cover(X, term[:t] + term[t + 1:])
            consider(lam * (fixed + np.count_nonzero(free & (cover != y))) + w * (n_lits - 1),
                     ("remove", j, t))
        if max_literals is None or len(term) < max_literals:
            inside = free & covers[j]
            # rows outside this rule and the others are errors iff positive
            base = fixed + np.count_nonzero(free & ~covers[j] & y)
            for errs, negated in zip(_literal_errors(X[inside], y[inside]), (False, True),
                                     strict=True):
                c = int(np.argmin(errs))
                consider(lam * (base + errs[c]) + w * (n_lits + 1),
                         ("add", j, Literal(c, negated)))
    for j in range(len(terms)):
        union_j = np.zeros(len(y), dtype=bool)
        for i, c in enumerate(covers):
            if i != j:
                union_j |= c
        consider(lam * np.count_nonzero(union_j != y) + w * (n_lits - len(terms[j])),
                 ("drop", j, None))
    if (max_rules is None or len(terms) < max_rules) and n_cols:
        fixed = np.count_nonzero(union & ~y)
        for errs, negated in zip(_literal_errors(X[~union], y[~union]), (False, True),
                                 strict=True):
            c = int(np.argmin(errs))
            consider(lam * (fixed + errs[c]) + w * (n_lits + 1), ("new", None, Literal(c, negated)))
    return best
