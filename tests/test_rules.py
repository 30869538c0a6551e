"""Tests for satrules.rules: semantics, De Morgan, simplification, text and round trips."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.rules import MISSING, Condition, Literal, Rule, RuleSet


def all_inputs(m: int) -> np.ndarray:
    """Every 0/1 row over m columns."""
    return np.array(list(itertools.product([0, 1], repeat=m)), dtype=np.int8).reshape(-1, m)


def brute_eval(rs: RuleSet, Xb: np.ndarray) -> np.ndarray:
    """Reference evaluation, one row and one literal at a time."""
    out = []
    for row in Xb:
        vals = [[bool(row[lit.column]) != lit.negated for lit in rule] for rule in rs.rules]
        if rs.kind == "dnf":
            out.append(any(all(v) for v in vals))
        else:
            out.append(all(any(v) for v in vals))
    return np.array(out, dtype=bool)


literals = st.builds(Literal, st.integers(0, 3), st.booleans())
rule_lists = st.lists(st.lists(literals, max_size=4), max_size=3)


def test_empty_semantics():
    """Empty DNF term true, empty CNF clause false, no terms false, no clauses true."""
    X = all_inputs(2)
    assert RuleSet([Rule(())], "dnf", 2).evaluate(X).all()
    assert not RuleSet([Rule(())], "cnf", 2).evaluate(X).any()
    assert not RuleSet([], "dnf", 2).evaluate(X).any()
    assert RuleSet([], "cnf", 2).evaluate(X).all()


@settings(max_examples=80, deadline=None)
@given(rules=rule_lists, kind=st.sampled_from(["dnf", "cnf"]))
def test_evaluate_matches_reference_and_negation(rules, kind):
    """Vectorised evaluate equals the literal-by-literal reference; negate() is the complement."""
    rs = RuleSet(rules, kind, 4)
    X = all_inputs(4)
    got = rs.evaluate(X)
    assert np.array_equal(got, brute_eval(rs, X))
    neg = rs.negate()
    assert neg.kind != kind
    assert np.array_equal(neg.evaluate(X), ~got)
    assert neg.negate() == rs


@settings(max_examples=80, deadline=None)
@given(rules=rule_lists, kind=st.sampled_from(["dnf", "cnf"]))
def test_simplify_without_conditions_equivalent(rules, kind):
    """Literal-level simplification keeps evaluation identical on all 2^m inputs."""
    rs = RuleSet(rules, kind, 4)
    X = all_inputs(4)
    for remove in (True, False):
        simple = rs.simplify(remove_rules=remove)
        assert np.array_equal(simple.evaluate(X), rs.evaluate(X))
        assert simple.n_literals <= rs.n_literals
    assert rs.simplify(remove_rules=False).n_rules == rs.n_rules


# An ordinal feature with thresholds 1, 2, 3 (columns 0..2), a categorical with values a, b, c
# (columns 3..5) and a binary feature (column 6).
CONDS = [Condition("x", "<=", t, 0) for t in (1, 2, 3)] + \
        [Condition("c", "==", v, 1, "categorical") for v in "abc"] + \
        [Condition("flag", "==", 1, 2, "binary")]


def consistent_inputs() -> np.ndarray:
    """Every binarized row the binarizer can produce for CONDS (incl. unseen categories)."""
    rows = []
    for x in (0.5, 1, 1.5, 2, 2.5, 3, 4):
        for cat in ("a", "b", "c", "unseen"):
            for flag in (0, 1):
                rows.append([x <= 1, x <= 2, x <= 3, cat == "a", cat == "b", cat == "c", flag])
    return np.array(rows, dtype=np.int8)


cond_literals = st.builds(Literal, st.integers(0, 6), st.booleans())


@settings(max_examples=100, deadline=None)
@given(rules=st.lists(st.lists(cond_literals, max_size=5), max_size=4),
       kind=st.sampled_from(["dnf", "cnf"]))
def test_simplify_with_conditions_equivalent(rules, kind):
    """Threshold/one-hot simplification keeps evaluation identical on all consistent inputs."""
    assert_simplifies_equivalently(RuleSet(rules, kind, 7, CONDS), consistent_inputs())


def assert_simplifies_equivalently(rs: RuleSet, X: np.ndarray) -> None:
    """With and without removing rules, ``rs.simplify()`` evaluates as ``rs`` on the rows
    ``X``, is no longer, and simplifies no further."""
    for remove in (True, False):
        simple = rs.simplify(remove_rules=remove)
        assert np.array_equal(simple.evaluate(X), rs.evaluate(X))
        assert simple.n_literals <= rs.n_literals
        assert simple.simplify(remove_rules=remove).n_literals == simple.n_literals


def test_simplify_examples_5_6_7():
    """Seed Examples 5-7: tightest threshold kept, contradictory term dropped, duplicates merged."""
    gt1, gt2, le3 = Literal(0, True), Literal(1, True), Literal(2)
    # Ex 5: x > 1 AND x > 2 -> x > 2
    assert RuleSet([[gt1, gt2]], "dnf", 7, CONDS).simplify().rules == (Rule((gt2,)),)
    # §2.7 in a CNF clause: x > 1 OR x > 2 -> x > 1
    assert RuleSet([[gt1, gt2]], "cnf", 7, CONDS).simplify().rules == (Rule((gt1,)),)
    # Ex 6: x <= 1 AND x > 2 is empty -> term removed; flag AND NOT flag likewise
    rs = RuleSet([[Literal(0), gt2], [Literal(6), Literal(6, True)], [le3]], "dnf", 7, CONDS)
    assert rs.simplify().rules == (Rule((le3,)),)
    # Ex 7: duplicates
    assert RuleSet([[le3, le3]], "dnf", 7, CONDS).simplify().rules == (Rule((le3,)),)
    # c == a AND c == b impossible; c == a AND c != b -> c == a
    assert RuleSet([[Literal(3), Literal(4)]], "dnf", 7, CONDS).simplify().n_rules == 0
    assert RuleSet([[Literal(3), Literal(4, True)]], "dnf", 7, CONDS).simplify().rules == \
        (Rule((Literal(3),)),)


def test_simplify_all_removed_is_always_false_dnf():
    """If every term is contradictory the DNF is empty, i.e. always false."""
    rs = RuleSet([[Literal(0), Literal(0, True)]], "dnf", 1).simplify()
    assert rs.n_rules == 0 and not rs.evaluate(all_inputs(1)).any()


def test_text_and_dict_round_trip():
    """str() reads as conditions; to_dict survives JSON and from_dict rebuilds an equal set."""
    rs = RuleSet([[Literal(0, True), Literal(4)], [Literal(6, True)]], "dnf", 7, CONDS)
    text = str(rs)
    assert text == "IF (x > 1 AND c = b)\nOR (flag != 1)\nTHEN positive"
    back = RuleSet.from_dict(json.loads(json.dumps(rs.to_dict())))
    assert back == rs and str(back) == text
    assert (rs.n_rules, rs.n_literals, rs.max_rule_size) == (2, 3, 2)
    assert str(RuleSet([], "dnf", 1)) == "IF FALSE\nTHEN positive"
    assert str(RuleSet([], "cnf", 1)) == "IF TRUE\nTHEN positive"
    # two-class text names the class a constant rule set always predicts
    for kind, always in (("dnf", "no"), ("cnf", "yes")):
        for rules in ([], [Rule([])]):
            text = RuleSet(rules, kind, 1).binary_text("yes", "no")
            other = "no" if always == "yes" else "yes"
            if not rules:
                assert text == f"Always {always}: no rule predicts {other}."
            else:    # an empty term / clause: the other constant
                assert text == f"Always {other}: no rule predicts {always}."
    assert RuleSet([[Literal(0)]], "cnf", 1).binary_text("yes", "no") == \
        "IF (x0)\nTHEN yes\nELSE no"


def test_named_attaches_conditions():
    """named() keeps the rules and only changes the printed names."""
    rs = RuleSet([[Literal(2)]], "cnf", 7)
    assert str(rs) == "IF (x2)\nTHEN positive"
    assert str(rs.named(CONDS)) == "IF (x <= 3)\nTHEN positive"
    assert rs.named(CONDS).rules == rs.rules


def test_bad_input_errors():
    """Malformed rule sets raise ValueError naming the problem."""
    with pytest.raises(ValueError, match="kind"):
        RuleSet([], "xnf", 1)
    with pytest.raises(ValueError, match="column 3"):
        RuleSet([[Literal(3)]], "dnf", 2)
    with pytest.raises(ValueError, match="non-negative"):
        Literal(-1)
    with pytest.raises(ValueError, match="conditions"):
        RuleSet([], "dnf", 2, CONDS)
    with pytest.raises(ValueError, match="2 columns"):
        RuleSet([], "dnf", 2).evaluate(np.zeros((3, 3)))


@pytest.mark.parametrize("kind", ["dnf", "cnf"])
def test_simplify_prunes_nullable_above_thresholds_equivalently(kind):
    """'>' columns of a feature with missing values: simplify keeps one literal per family
    ('x > t', '(x <= t or x is missing)') and stays equivalent on every kind of row."""
    conds = [Condition("age", ">", t, 0, nullable=True) for t in (10, 20, 30)] + \
        [Condition("age", "==", MISSING, 0, "categorical")]
    vals = [5, 15, 25, 35, None]
    Xb = np.array([[0 if v is None else int(v > t) for t in (10, 20, 30)] + [int(v is None)]
                   for v in vals], dtype=np.uint8)
    rng = np.random.default_rng(0)
    for _ in range(300):
        rules = [Rule(tuple(Literal(int(j), bool(rng.integers(2)))
                            for j in rng.choice(4, rng.integers(1, 4))))
                 for _ in range(rng.integers(1, 3))]
        rs = RuleSet(rules, kind, 4, conds)
        for simple in (rs.simplify(), rs.simplify(remove_rules=False)):
            assert np.array_equal(rs.evaluate(Xb), simple.evaluate(Xb))
    term = RuleSet([Rule((Literal(0, True), Literal(1, True)))], "dnf", 4, conds)
    assert term.simplify().n_literals == 1


# a feature with missing values: 'age <= t' (columns 0-2) and 'age > t' (3-5), both 0 on a
# missing age, and 'age is missing' (6)
NULLABLE = [Condition("age", "<=", t, 0, nullable=True) for t in (10, 20, 30)] + \
    [Condition("age", ">", t, 0, nullable=True) for t in (10, 20, 30)] + \
    [Condition("age", "==", MISSING, 0, "categorical")]
NULLABLE_ROWS = np.array(
    [[0 if v is None else int(v <= t) for t in (10, 20, 30)]
     + [0 if v is None else int(v > t) for t in (10, 20, 30)] + [int(v is None)]
     for v in (5, 10, 15, 20, 25, 30, 35, None)], dtype=np.uint8)


@settings(max_examples=300, deadline=None)
@given(rules=st.lists(st.lists(st.builds(Literal, st.integers(0, 6), st.booleans()),
                               min_size=1, max_size=4), max_size=3),
       kind=st.sampled_from(["dnf", "cnf"]))
def test_simplify_settles_missing_equivalently(rules, kind):
    """Both threshold columns of a feature with missing values and its missing column,
    in any mix: the simplified rules evaluate as the originals on every kind of row, are
    no longer, and simplify no further."""
    assert_simplifies_equivalently(RuleSet(rules, kind, 7, NULLABLE), NULLABLE_ROWS)


def test_simplify_reads_a_settled_negation_as_the_other_column():
    """'NOT (age > 10) AND age <= 30' (a threshold false on a missing age settles the
    'or age is missing' of the negation) is 'age <= 10': one literal, as carData/Chile's
    'statusquo <= -0.986 AND statusquo <= 0.9543' should have printed; likewise with
    'age is not missing'.  In a CNF clause, 'age <= 30' beside a literal true on a
    missing age is '(age <= 30 or age is missing)', which absorbs the tighter bound;
    terms with an empty interval across the two kinds of column are dropped."""
    term = RuleSet([[Literal(3, True), Literal(2)]], "dnf", 7, NULLABLE).simplify()
    assert term.to_text() == "IF (age <= 10)\nTHEN positive"
    term = RuleSet([[Literal(4, True), Literal(6, True)]], "dnf", 7, NULLABLE).simplify()
    assert term.to_text() == "IF (age <= 20)\nTHEN positive"
    clause = RuleSet([[Literal(0), Literal(5, True)]], "cnf", 7, NULLABLE).simplify()
    assert clause.to_text() == "IF ((age <= 30 or age is missing))\nTHEN positive"
    empty = RuleSet([[Literal(0), Literal(4)], [Literal(5)]], "dnf", 7, NULLABLE).simplify()
    assert empty.to_text() == "IF (age > 30)\nTHEN positive"
    always = RuleSet([[Literal(0, True), Literal(5, True)]], "cnf", 7, NULLABLE).simplify()
    assert always.n_rules == 0   # a clause that always holds: no constraint


# ------------------------------------------------------------- category matching
_LEVELS = st.one_of(st.integers(-3, 12), st.sampled_from([0.5, 2.0, 12.0, True]),
                    st.sampled_from(["3", "12", "12.0", "007", "7", "x", "other", MISSING]))


def _number(value):
    if isinstance(value, bool | int | float):
        return float(value)
    try:
        return float(value)
    except ValueError:
        return None


@settings(max_examples=200, deadline=None)
@given(values=st.lists(_LEVELS, max_size=12), cats=st.lists(_LEVELS, max_size=6))
def test_category_matches_equal_first_then_the_one_same_number(values, cats):
    """A value is the first category it equals; a value equal to none is the category
    that reads as the same number when exactly one does; else it matches nothing."""
    from satrules.rules import category_matches

    block = category_matches(np.array(values, dtype=object), cats)
    assert block.shape == (len(values), len(cats))
    for value, row in zip(values, block, strict=True):
        equal = [c for c, cat in enumerate(cats) if cat == value]
        if equal:
            expected = {equal[0]}
        else:
            num = _number(value)
            same = [c for c, cat in enumerate(cats)
                    if num is not None and _number(cat) == num]
            same_numbers = {_number(cats[c]) for c in same}
            alike = [c for c, cat in enumerate(cats) if _number(cat) in same_numbers]
            expected = set(same) if len(alike) == 1 else set()
        assert set(np.flatnonzero(row)) == expected, (value, cats)


@settings(max_examples=100, deadline=None)
@given(fit=st.lists(_LEVELS.filter(lambda v: v != MISSING), min_size=2, max_size=12),
       new=st.lists(st.one_of(_LEVELS.filter(lambda v: v != MISSING), st.none()),
                    min_size=1, max_size=12))
def test_raw_binarize_agrees_with_the_binarizer_on_categories(fit, new):
    """``RuleSet.binarize`` (raw evaluation of bare rule sets) reads a category column as
    the binarizer that made its conditions does, also for levels such as ``2`` and ``"2"``
    of one column, numbers read as text, unseen and missing values.  (Not the text
    ``"<missing>"`` itself, which the binarizer reads as a missing value.)"""
    import pandas as pd

    from satrules.binarize import ThresholdBinarizer

    def others(n, shift):   # an ordered category, amounts of money, numbers (some missing)
        size = pd.Categorical([("S", None, "M", "L")[(i + shift) % 4] for i in range(n)],
                              categories=["S", "M", "L"], ordered=True)
        money = [None if (i + shift) % 5 == 0 else f"${(i + shift) * 1250.5:,.2f}"
                 for i in range(n)]
        return {"size": size, "money": pd.Series(money, dtype=object),
                "n": np.where(np.arange(n) % 3 == 1, np.nan, np.arange(n) - shift)}

    train = pd.DataFrame({"c": pd.Series(fit, dtype=object).astype("category"),
                          **others(len(fit), 0)})
    tb = ThresholdBinarizer(max_levels=None).fit(train)
    test = pd.DataFrame({"c": pd.Series(new, dtype=object), **others(len(new), 1)})
    rs = RuleSet([], "dnf", len(tb.conditions_), tb.conditions_)
    np.testing.assert_array_equal(rs.binarize(test), tb.transform(test))


def test_raw_binarize_reads_a_repeated_category_condition_in_each_copy():
    """Hand-made conditions may name one category twice: each copy holds where it holds
    (the feature's one-hot conditions are read together, once)."""
    conds = [Condition("c", "==", "a", 0, "categorical"),
             Condition("c", "==", "b", 0, "categorical"),
             Condition("c", "==", "a", 0, "categorical")]
    rs = RuleSet([], "dnf", 3, conds)
    got = rs.binarize(np.array([["a"], ["b"], [None], ["z"]], dtype=object))
    assert got.tolist() == [[1, 0, 1], [0, 1, 0], [0, 0, 0], [0, 0, 0]]
    assert got.tolist() == np.stack([c.holds(np.array(["a", "b", None, "z"], dtype=object))
                                     for c in conds], axis=1).tolist()


def test_one_hot_levels_of_one_feature_print_as_one_set():
    """Two or more ``c != v`` of one one-hot feature in a DNF term print as ``c not in
    {...}`` and two or more ``c = v`` in a CNF clause as ``c in {...}``, at the first's
    place; the set reads as the literals do on every value: a level fit never saw and a
    missing value are not in the set.  One exclusion, or the missing-value column, keeps
    its own text."""
    import pandas as pd

    from satrules.binarize import ThresholdBinarizer

    train = pd.DataFrame({"c": pd.Series(["a", "b", "c", None, "a", "c"], dtype=object),
                          "x": [1.0, 2, 3, 4, 5, 6]})
    tb = ThresholdBinarizer(categories="onehot").fit(train)
    col = {(c.feature, c.value): i for i, c in enumerate(tb.conditions_)}
    a, b, cc, missing, x5 = (col[k] for k in (("c", "a"), ("c", "b"), ("c", "c"),
                                              ("c", "<missing>"), ("x", 5.0)))
    n = len(tb.conditions_)
    dnf = RuleSet([[Literal(b, True), Literal(x5, True), Literal(a, True)],
                   [Literal(cc, True), Literal(missing, True)]], "dnf", n, tb.conditions_)
    assert dnf.to_text().splitlines()[:2] == ["IF (c not in {a, b} AND x > 5)",
                                              "OR (c != c AND c is not missing)"]
    cnf = RuleSet([[Literal(a), Literal(missing), Literal(b)], [Literal(x5, True)]],
                  "cnf", n, tb.conditions_)
    assert cnf.to_text().splitlines()[:2] == ["IF (c in {a, b} OR c is missing)",
                                              "AND (x > 5)"]
    new = pd.DataFrame({"c": pd.Series(["a", "b", "c", "zz", None], dtype=object),
                        "x": [6.0] * 5})
    # c not in {a, b}: c, an unseen level and a missing value; c in {a, b} or missing
    first = RuleSet(dnf.rules[:1], "dnf", n, tb.conditions_)
    assert first.evaluate_raw(new).tolist() == [False, False, True, True, True]
    assert cnf.evaluate_raw(new).tolist() == [True, True, False, False, True]
    # levels that are numbers print in the set as each does alone (2, not 2.0)
    numbers = ThresholdBinarizer(categories="onehot").fit(
        pd.DataFrame({"k": pd.Series([1.0, 2.0, 3.0, 2.0, 1.0, 3.0], dtype="category")}))
    conds = numbers.conditions_
    rs = RuleSet([[Literal(0, True), Literal(1, True)], [Literal(2, True)]], "dnf",
                 len(conds), conds)
    assert rs.to_text().splitlines()[:2] == ["IF (k not in {1, 2})", "OR (k != 3)"]


def test_level_sets_quote_levels_that_hold_commas():
    """A set whose levels hold commas (income brackets, ``20,800 to 28,600``) cannot be
    read when its members are only separated by commas: every member is then quoted, a
    quote inside doubled; plain levels stay bare."""
    from satrules.rules import level_set_text

    conds = [Condition("income", "==", "2,600 to 5,200", 0, "categorical"),
             Condition("income", "==", "Above 36,400", 0, "categorical"),
             Condition("income", "==", 'Under "2,600"', 0, "categorical"),
             Condition("town", "==", "Leeds", 1, "categorical"),
             Condition("town", "==", "York", 1, "categorical")]
    rs = RuleSet([[Literal(0, True), Literal(1, True), Literal(2, True), Literal(3, True),
                   Literal(4, True)]], "dnf", 5, conds)
    assert rs.to_text().splitlines()[0] == (
        'IF (income not in {"2,600 to 5,200", "Above 36,400", "Under ""2,600"""} AND '
        'town not in {Leeds, York})')
    assert level_set_text("s", [" a", "b"]) == 's in {" a", "b"}'
    assert level_set_text("s", ["a{1}", "b"]) == 's in {"a{1}", "b"}'


def test_a_level_with_edge_spaces_prints_in_quotes():
    """medicaldata/opt pads its text to a width (``No `` with a trailing space): a bare
    ``Use.Tob != No `` hides that the level is not ``No``, so a single level that starts
    or ends with a space, or is empty, prints in quotes; plain levels and levels with
    commas stay bare when alone, and ordered levels follow the same rule."""
    conds = [Condition("tob", "==", "No ", 0, "categorical"),
             Condition("tob", "==", "", 0, "categorical"),
             Condition("income", "==", "Above 36,400", 1, "categorical"),
             Condition("town", "==", 'Le"eds', 2, "categorical"),
             Condition("stage", "<=", 0.0, 3, "ordinal", levels=(" I", "II"))]
    texts = [c.describe() for c in conds]
    assert texts == ['tob = "No "', 'tob = ""', "income = Above 36,400", 'town = Le"eds',
                     'stage <= " I"']
    assert conds[0].describe(negated=True) == 'tob != "No "'
    assert conds[4].describe(negated=True) == 'stage > " I"'
