"""Polishing the selected rules on the whole training set (``polish=True``, issue #11).

``polish_rules`` must never raise the whole-training-set objective, must keep the
learner's limits (rules, literals per rule), must stop at a local optimum of its
move set (checked here by trying every single move by brute force), and must
treat a CNF exactly like the DNF of its negation.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules import IMLIBClassifier, IMLIClassifier
from satrules.estimators._polish import polish_rules, prune_rules, significant
from satrules.rules import Literal, Rule, RuleSet


def _objective(rules, X, y, lam, w=1.0):
    return lam * np.count_nonzero(rules.evaluate(X) != y) + w * rules.n_literals


def _neighbours(rules, n_cols, max_literals, max_rules, replace=False):
    """Every rule set one polish move away (brute force, DNF)."""
    terms = [list(r.literals) for r in rules.rules]
    lits = [Literal(c, neg) for c in range(n_cols) for neg in (False, True)]
    out = []
    for j, t in enumerate(terms):
        if len(t) > 1:
            for i in range(len(t)):
                out.append(terms[:j] + [t[:i] + t[i + 1:]] + terms[j + 1:])
        if max_literals is None or len(t) < max_literals:
            out.extend(terms[:j] + [t + [lit]] + terms[j + 1:] for lit in lits)
        out.append(terms[:j] + terms[j + 1:])
        if replace:
            for i in range(len(t)):
                out.extend(terms[:j] + [t[:i] + t[i + 1:] + [lit]] + terms[j + 1:]
                           for lit in lits)
    if max_rules is None or len(terms) < max_rules:
        out.extend(terms + [[lit]] for lit in lits)
    return [RuleSet([Rule(tuple(t)) for t in ts], "dnf", n_cols) for ts in out]


@st.composite
def _instances(draw):
    n, m = draw(st.integers(4, 24)), draw(st.integers(1, 4))
    X = np.array(draw(st.lists(st.lists(st.booleans(), min_size=m, max_size=m),
                               min_size=n, max_size=n)))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    k = draw(st.integers(0, 3))
    terms = [draw(st.lists(st.builds(Literal, st.integers(0, m - 1), st.booleans()),
                           min_size=1, max_size=3)) for _ in range(k)]
    lam = draw(st.sampled_from([1, 2, 5, 10]))
    max_literals = draw(st.sampled_from([None, 1, 3]))
    max_rules = draw(st.sampled_from([None, 3]))
    return X, y, RuleSet([Rule(tuple(t)) for t in terms], "dnf", m), lam, max_literals, max_rules


@settings(max_examples=200, deadline=None)
@given(_instances(), st.sampled_from([0.0, 1.0, 2.0]), st.booleans(),
       st.sampled_from(["exact", "normal"]))
def test_polish_is_a_local_optimum_and_never_worse(instance, min_z, replace, sign_test):
    """No single move the polisher may take (one that passes the min_z sign test) lowers
    the objective any further; with min_z = 0 that is every move."""
    X, y, start, lam, max_literals, max_rules = instance
    polished = polish_rules(start, X, y, lam, max_literals=max_literals, max_rules=max_rules,
                            min_z=min_z, replace=replace, sign_test=sign_test)
    value = _objective(polished, X, y, lam)
    assert value <= _objective(start, X, y, lam)
    if max_literals is not None and all(len(r) <= max_literals for r in start.rules):
        assert all(len(r) <= max_literals for r in polished.rules)
    if max_rules is not None and start.n_rules <= max_rules:
        assert polished.n_rules <= max_rules
    now = polished.evaluate(X)
    for other in _neighbours(polished, X.shape[1], max_literals, max_rules, replace):
        if _objective(other, X, y, lam) < value - 1e-9:
            flipped = other.evaluate(X) != now
            fixed = int(np.count_nonzero(flipped & (now != y)))
            broken = int(np.count_nonzero(flipped)) - fixed
            assert not significant(fixed, broken, min_z, sign_test), (other, fixed, broken)


def _parts_pass(rules, X, y, min_z, sign_test, w=None, literals=True):
    """Brute force: does every rule, and every literal of a rule of two or more (unless
    ``literals`` is false), change some predictions, and pass the sign test on the rows
    it changes?  With row weights ``w``, the weighted sign test."""
    now = rules.evaluate(X)
    terms = [list(r.literals) for r in rules.rules]
    without = [terms[:j] + terms[j + 1:] for j in range(len(terms))]
    without += [] if not literals else [terms[:j] + [t[:i] + t[i + 1:]] + terms[j + 1:]
                for j, t in enumerate(terms) if len(t) > 1 for i in range(len(t))]
    for ts in without:
        other = RuleSet([Rule(tuple(t)) for t in ts], "dnf", rules.n_columns).evaluate(X)
        flipped = other != now
        if w is not None:
            if not (flipped.any() and significant(
                    w[flipped & (now == y)].sum(), w[flipped & (now != y)].sum(), min_z,
                    variance=(w[flipped] ** 2).sum())):
                return False
            continue
        fixed = int(np.count_nonzero(flipped & (now == y)))
        broken = int(np.count_nonzero(flipped)) - fixed
        if not (fixed + broken and significant(fixed, broken, min_z, sign_test)):
            return False
    return True


@settings(max_examples=200, deadline=None)
@given(_instances(), st.sampled_from([1.0, 2.0]), st.sampled_from(["exact", "normal"]))
def test_prune_keeps_only_significant_parts(instance, min_z, sign_test):
    """After pruning, every rule and literal changes some predictions and passes the sign
    test on them (checked by brute force); the rules are sub-rules of the input's, and
    pruning again changes nothing.  min_z = 0 changes nothing at all."""
    X, y, start, *_ = instance
    pruned = prune_rules(start, X, y, min_z, sign_test)
    assert _parts_pass(pruned, X, y, min_z, sign_test)
    kept = [set(r.literals) for r in start.rules]
    assert all(any(set(r.literals) <= k for k in kept) for r in pruned.rules)
    assert prune_rules(pruned, X, y, min_z, sign_test) == pruned
    assert prune_rules(start, X, y, 0.0) == start
    cnf = prune_rules(start.negate(), X, ~y, min_z, sign_test)
    assert np.array_equal(cnf.evaluate(X), ~pruned.evaluate(X))


@settings(max_examples=100, deadline=None)
@given(_instances(), st.sampled_from([1.0, 2.0]), st.sampled_from(["exact", "normal"]))
def test_prune_of_rules_only_keeps_the_literals(instance, min_z, sign_test):
    """``literals=False`` drops whole rules, never a literal: the result is a subset of the
    input's rules, each of which passes the sign test on the rows only it covers."""
    X, y, start, *_ = instance
    pruned = prune_rules(start, X, y, min_z, sign_test, literals=False)
    assert _parts_pass(pruned, X, y, min_z, sign_test, literals=False)
    assert all(rule in start.rules for rule in pruned.rules)
    assert prune_rules(pruned, X, y, min_z, sign_test, literals=False) == pruned


def test_prune_removes_a_literal_resting_on_one_row():
    """The solver's 'AND NOT x1' that keeps one negative row out is dropped; the rule
    itself (nine right, one wrong) stays."""
    X = np.zeros((20, 2), dtype=bool)
    X[:10, 0] = True
    X[9, 1] = True
    y = np.arange(20) < 9
    start = RuleSet([[Literal(0), Literal(1, True)]], "dnf", 2)
    assert prune_rules(start, X, y, 2.0) == RuleSet([[Literal(0)]], "dnf", 2)


def test_min_z_refuses_a_move_resting_on_few_rows():
    """A literal that fixes 3 rows and spoils none lowers the objective but is not
    significant at min_z = 2 (3 < 2 * sqrt(3); exactly, p = 1/8); at min_z = 0 it is taken."""
    X = np.zeros((40, 2), dtype=int)
    X[:20, 0] = 1                          # the rule (x0) covers rows 0-19
    X[:17, 1] = 1                          # x1 keeps 17 of them
    y = np.zeros(40, dtype=bool)
    y[:17] = True                          # rows 17-19 are the rule's 3 errors
    start = RuleSet([[Literal(0)]], "dnf", 2)
    # x0 AND x1 (3 fixed), then x1 alone (one literal fewer, same rows)
    assert polish_rules(start, X, y, 10) == RuleSet([[Literal(1)]], "dnf", 2)
    assert polish_rules(start, X, y, 10, min_z=2.0) == start
    assert polish_rules(start, X, y, 10, min_z=2.0, sign_test="normal") == start


@settings(max_examples=80, deadline=None)
@given(_instances())
def test_cnf_is_polished_as_its_dual(instance):
    """A CNF for y is polished exactly as the DNF of its negation for ~y."""
    X, y, start, lam, max_literals, max_rules = instance
    cnf = start.negate()
    polished = polish_rules(cnf, X, y, lam, max_literals=max_literals, max_rules=max_rules)
    dual = polish_rules(start, X, ~y, lam, max_literals=max_literals, max_rules=max_rules)
    assert polished.kind == "cnf"
    assert np.array_equal(polished.evaluate(X), ~dual.evaluate(X))
    assert _objective(polished, X, y, lam) == _objective(dual, X, ~y, lam)


def test_polish_finds_the_missing_literal():
    """x0 alone makes 20 errors; x0 AND x1 none: one added literal fixes them."""
    X = np.array(list(itertools.product([0, 1], repeat=3)) * 10)
    y = X[:, 0].astype(bool) & X[:, 1].astype(bool)
    start = RuleSet([[Literal(0)]], "dnf", 3)
    polished = polish_rules(start, X, y, data_fidelity=10)
    assert polished == RuleSet([[Literal(0), Literal(1)]], "dnf", 3)


def test_polish_respects_the_deadline():
    """A deadline already past leaves the rules as they are."""
    X = np.array(list(itertools.product([0, 1], repeat=3)) * 10)
    y = X[:, 0].astype(bool) & X[:, 1].astype(bool)
    start = RuleSet([[Literal(0)]], "dnf", 3)
    assert polish_rules(start, X, y, data_fidelity=10, deadline=0.0) == start


@pytest.mark.parametrize("make", [
    lambda **kw: IMLIClassifier(backend="rc2", n_rules=2, **kw),
    lambda **kw: IMLIClassifier(backend="rc2", rule_type="cnf", n_rules=2, **kw),
    lambda **kw: IMLIBClassifier(backend="rc2", n_rules=2, max_literals_per_rule=2, **kw),
])
def test_estimators_polish_never_worse_and_keep_limits(make):
    """polish=True never has a higher whole-training objective than polish=False, and
    keeps the estimator's limits; best_partition_ records the objective before."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(160, 4))
    y = ((X[:, 0] > 0) & (X[:, 1] > -0.5) | (X[:, 2] > 1.2)).astype(int)
    # one fit each: with several, the rules chosen from all the fits' rules are polished
    # rules too, and the choice may differ
    plain = make(partition_size=8, random_state=0, polish=False, n_init=1).fit(X, y)
    polished = make(partition_size=8, random_state=0, n_init=1).fit(X, y)
    assert polished.best_partition_["objective"] <= plain.best_partition_["objective"]
    if "polished_from" in polished.best_partition_:
        assert polished.best_partition_["polished_from"] == plain.best_partition_["objective"]
        assert polished.best_partition_["objective"] < plain.best_partition_["objective"]
    # refines, and grows by extra_rules at most
    assert polished.rules_.n_rules <= plain.rules_.n_rules + polished.extra_rules
    if isinstance(polished, IMLIBClassifier):
        assert polished.rules_.max_rule_size <= 2
    Xb = polished.binarizer_.transform(X)
    lam = polished.data_fidelity
    value = lam * np.count_nonzero(polished.rules_.evaluate(Xb) != y.astype(bool)) \
        + polished.rules_.n_literals
    assert value == polished.best_partition_["objective"]


def test_estimators_grow_a_rule_from_nothing_only_with_extra_rules(monkeypatch):
    """With 'always false' selected (every solve UNKNOWN here) and ``extra_rules=0``,
    polishing keeps it: no rule is grown from nothing unless extra rules are allowed
    (before the sign test guarded the moves, such rules made caravan fall below the
    majority rate)."""
    import warnings

    import satrules.estimators._base as base
    from satrules.ir import Status, make_solution

    monkeypatch.setattr(base, "solve", lambda model, *a, **k: make_solution(
        model, Status.UNKNOWN, backend="fake"))
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(120, 3))
    X[:, 0] = rng.random(120) < 0.12
    y = X[:, 0].copy()                       # ~12 % positive: 'always false' is selected,
    y[:3] = 1 - y[:3]                        # and the rule (x0) would beat it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        clf = IMLIClassifier(n_rules=2, random_state=0, extra_rules=0).fit(X, y)
        grown = IMLIClassifier(n_rules=2, random_state=0).fit(X, y)
    assert clf.best_partition_["constant"] == "always false"
    assert clf.rules_.n_rules == 0 and not clf.predict(X).any()
    # with the default extra_rules=2 polishing grows the significant rule x0 from nothing
    assert [[(lit.column, lit.negated) for lit in r.literals] for r in grown.rules_.rules] \
        == [[(0, False)]]
    assert grown.best_partition_["objective"] < clf.best_partition_["objective"]


@pytest.mark.parametrize("base", [IMLIClassifier, IMLIBClassifier])
def test_extra_rules_grow_the_rules_two_are_too_few_for(base):
    """The label is x0 OR x1 OR x2 OR x3: with one rule per solve, polishing adds the
    other three only when ``extra_rules`` allows them, one rule per allowed extra, and
    ``extra_rules=0`` keeps the selected count."""
    rng = np.random.default_rng(3)
    X = (rng.random((400, 6)) < 0.15).astype(int)
    y = X[:, :4].any(axis=1).astype(int)
    fits = {extra: base(n_rules=1, extra_rules=extra, backend="rc2", random_state=0,
                        rule_class=1).fit(X, y) for extra in (0, 1, 3)}
    assert fits[0].rules_.n_rules == 1
    assert fits[1].rules_.n_rules == 2
    assert fits[3].rules_.n_rules == 4 and fits[3].score(X, y) == 1.0
    objectives = [fits[e].best_partition_["objective"] for e in (0, 1, 3)]
    assert objectives[0] > objectives[1] > objectives[2]


def test_extra_rules_add_nothing_on_noise():
    """On labels drawn independently of X no added rule passes the sign test: the fit
    with ``extra_rules=5`` is the fit with 0."""
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, size=(600, 12))
    y = rng.integers(0, 2, size=600)
    plain = IMLIClassifier(extra_rules=0, backend="rc2", random_state=0,
                           null_test=False).fit(X, y)
    grown = IMLIClassifier(extra_rules=5, backend="rc2", random_state=0,
                           null_test=False).fit(X, y)
    assert grown.rules_ == plain.rules_


@settings(max_examples=60, deadline=None)
@given(_instances(), st.sampled_from([1.0, 2.0]))
def test_new_rule_z_holds_only_new_rules_to_its_level(instance, min_z):
    """``new_rule_z=None`` is ``min_z``; an unreachable level adds no rule; the Bonferroni
    level of the
    ``_new_rule_per_column`` experiment is ``significance`` for one test and grows with
    the number of tests."""
    from satrules.estimators._base import _bonferroni

    X, y, start, lam, max_literals, _ = instance
    room = start.n_rules + 2
    plain = polish_rules(start, X, y, lam, max_literals=max_literals, max_rules=room,
                         min_z=min_z)
    assert polish_rules(start, X, y, lam, max_literals=max_literals, max_rules=room,
                        min_z=min_z, new_rule_z=min_z) == plain
    never = polish_rules(start, X, y, lam, max_literals=max_literals, max_rules=room,
                         min_z=min_z, new_rule_z=np.inf)
    assert never.n_rules <= start.n_rules
    assert _bonferroni(min_z, 1) == pytest.approx(min_z)
    assert min_z < _bonferroni(min_z, 10) < _bonferroni(min_z, 1000)


@pytest.mark.parametrize("value", [-1, 1.5, True, "2"])
def test_bad_extra_rules_are_named(value):
    with pytest.raises(ValueError, match="extra_rules"):
        IMLIClassifier(extra_rules=value).fit(np.eye(4), [0, 1, 0, 1])


def test_replace_moves_a_literal_that_removal_and_addition_cannot():
    """With one literal per rule and one rule, only a replacement gets from x0 to x1."""
    X = np.array([[1, 1], [1, 1], [1, 1], [1, 1], [0, 1], [0, 1], [1, 0], [0, 0]])
    y = X[:, 1].astype(bool)
    start = RuleSet([[Literal(0)]], "dnf", 2)
    kept = polish_rules(start, X, y, 10, max_literals=1, max_rules=1)
    assert kept == start
    moved = polish_rules(start, X, y, 10, max_literals=1, max_rules=1, replace=True)
    assert moved == RuleSet([[Literal(1)]], "dnf", 2)


@pytest.mark.parametrize("target", ["or", "and"])
@pytest.mark.parametrize("base", [IMLIClassifier, IMLIBClassifier])
def test_polishing_from_the_empty_rule_set_too_is_never_worse(base, target, monkeypatch):
    """The benchmark's ``polish-empty`` experiment (``_polish_from_empty``): with every
    solve UNKNOWN, a constant is selected: 'always true' for y = x0 OR x1 (75 % positive;
    polishing it cannot move, x0 alone is no better), 'always false' for y = x0 AND
    (x1 OR x2) (37.5 %: no rule, so polishing it alone may add none).  Building from no
    rule with the estimator's ``n_rules`` finds y exactly (OR) or the rule x0 (AND: a
    local optimum of the greedy moves, 7/8 of the rows right).  The better end is kept:
    never a higher whole-training objective, the estimator's limits kept.  (With
    ``extra_rules`` polishing 'always false' may add rules itself: the experiment is
    measured against ``extra_rules=0``.)"""
    import warnings

    import satrules.estimators._base as base_module
    from satrules.ir import Status, make_solution

    monkeypatch.setattr(base_module, "solve", lambda model, *a, **k: make_solution(
        model, Status.UNKNOWN, backend="fake"))
    X = np.array(list(itertools.product([0, 1], repeat=3)) * 25)
    y = ((X[:, 0] | X[:, 1]) if target == "or" else (X[:, 0] & (X[:, 1] | X[:, 2])))
    y = y.astype(int)
    kw = {"n_rules": 2, "random_state": 0, "extra_rules": 0}   # extra rules: see below
    if base is IMLIBClassifier:
        kw["max_literals_per_rule"] = 1 if target == "or" else 2
    variant = type("FromEmpty", (base,), {"_polish_from_empty": True})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        plain = base(**kw).fit(X, y)
        both = variant(**kw).fit(X, y)
    assert plain.best_partition_["constant"] == ("always true" if target == "or"
                                                 else "always false")
    assert plain.rules_.n_literals == 0
    assert both.best_partition_["objective"] < plain.best_partition_["objective"]
    assert both.score(X, y) == (1.0 if target == "or" else 0.875)
    assert both.rules_.n_rules <= 2
    Xb = both.binarizer_.transform(X)
    value = both.data_fidelity * np.count_nonzero(both.rules_.evaluate(Xb) != y.astype(bool)) \
        + both.rules_.n_literals
    assert value == both.best_partition_["objective"]


@settings(max_examples=50, deadline=None)
@given(bits=st.lists(st.lists(st.booleans(), min_size=5, max_size=5), max_size=30),
       as_int=st.booleans())
def test_unweighted_column_counts_equal_the_unit_weight_product(bits, as_int):
    """Without weights, the per-column (weight, squared weight) sums are byte counts;
    they equal the product with unit weights, for boolean and integer columns."""
    from satrules.estimators._polish import _Weights

    XS = np.array(bits, dtype=bool).reshape(-1, 5)
    XS = XS.astype(int) if as_int else XS
    rows = np.arange(len(XS))
    got = _Weights(len(XS), None).columns(XS, rows)
    want = np.ones((len(XS), 2)).T @ XS
    assert got.shape == (2, 5) and got.dtype == np.float64
    np.testing.assert_array_equal(got, want)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), n=st.integers(1, 60), m=st.integers(1, 6),
       levels=st.lists(st.sampled_from([0.25, 0.5, 1.0, 1.5, 3.0, 7.0 / 3.0]), min_size=1,
                       max_size=4))
def test_weighted_column_counts_by_level_equal_the_weighted_product(data, n, m, levels):
    """With a few distinct weights (one-vs-rest's heavier class), the per-column sums
    are counts of ones per weight; they equal the float product of the weights: exactly
    for weights that are sums of halves, within rounding otherwise."""
    from satrules.estimators._polish import _Weights, column_ones

    X = np.array(data.draw(st.lists(st.booleans(), min_size=n * m, max_size=n * m)),
                 dtype=bool).reshape(n, m)
    sw = np.array(data.draw(st.lists(st.sampled_from(levels), min_size=n, max_size=n)))
    rows = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), max_size=n))), dtype=int)
    weights = _Weights(n, sw)
    assert weights.levels is not None
    got = weights.columns(X[rows], rows)
    want = np.stack([sw, sw * sw], axis=1)[rows].T @ X[rows].astype(float)
    assert got.shape == (2, m)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    if all((2 * v).is_integer() for v in levels):
        np.testing.assert_array_equal(got, want)
    # the fit-wide ones given, the most common weight's count is derived from them: the
    # same sums to the bit
    np.testing.assert_array_equal(weights.columns(X[rows], rows, column_ones(X[rows])), got)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.integers(1, 40), m=st.integers(1, 6), weighted=st.booleans())
def test_grouped_column_counts_equal_one_count_per_group(data, n, m, weighted):
    """The replace move's four groups counted from one sorted copy: each group's sums are
    exactly those of :meth:`_Weights.columns` on that group's rows (same row order, so
    the same floating-point sums when weighted), empty groups included."""
    from satrules.estimators._polish import _Weights

    X = np.array(data.draw(st.lists(st.booleans(), min_size=n * m, max_size=n * m)),
                 dtype=bool).reshape(n, m)
    rows = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), max_size=n))), dtype=int)
    group = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(rows),
                                        max_size=len(rows))), dtype=np.uint8)
    sw = np.array(data.draw(st.lists(st.floats(0.1, 10), min_size=n, max_size=n))) \
        if weighted else None
    weights = _Weights(n, sw)
    got = weights.grouped_columns(X, rows, group, 4)
    assert len(got) == 4
    for g in range(4):
        want = weights.columns(X[rows[group == g]], rows[group == g])
        assert got[g].shape == (2, m)
        np.testing.assert_array_equal(got[g], want)


@settings(max_examples=120, deadline=None)
@given(_instances(), st.sampled_from([0.0, 2.0]), st.booleans(), st.booleans())
def test_counted_column_ones_polish_as_counting_them_again(instance, min_z, cnf, empty):
    """``known_ones`` (one-vs-rest fits count them once for all classes) gives the rules
    polishing gives without it, DNF or CNF, from the empty rule set or from others."""
    X, y, start, lam, max_literals, max_rules = instance
    if empty:
        start = RuleSet([], "dnf", X.shape[1])
    if cnf:
        start = start.negate()
    ones = X.sum(axis=0)
    plain = polish_rules(start, X, y, lam, max_literals=max_literals, max_rules=max_rules,
                         min_z=min_z, replace=True)
    counted = polish_rules(start, X, y, lam, max_literals=max_literals,
                           max_rules=max_rules, min_z=min_z, replace=True,
                           known_ones=ones)
    assert counted.rules == plain.rules and counted.kind == plain.kind


def test_one_vs_rest_counts_the_column_ones_once(monkeypatch):
    """Every class of a one-vs-rest fit polishes on the same binarized rows, and their
    ones per column are counted once for all of them (300 classes of 20,000 rows: 103 s
    of CPU before, 29 s after; benchmarks/results/learner_scale_300classes.md)."""
    import satrules.estimators._base as base

    seen = []
    real = base.IncrementalRuleClassifier._polished

    def recording(self, *args, **kwargs):
        out = real(self, *args, **kwargs)
        cache = args[7] if len(args) > 7 else kwargs.get("ones_cache")
        seen.append((id(cache), len(cache)))
        return out

    monkeypatch.setattr(base.IncrementalRuleClassifier, "_polished", recording)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(240, 4))
    y = np.digitize(X[:, 0] + 0.3 * rng.normal(size=240), [-0.6, 0.0, 0.6])
    IMLIClassifier(n_init=1, null_test=True, random_state=0, backend="rc2").fit(X, y)
    assert len(seen) >= 4   # every class polished, on one cache holding one count
    assert len({cache for cache, _ in seen}) == 1 and {n for _, n in seen} == {1}
