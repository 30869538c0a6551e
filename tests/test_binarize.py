"""Tests for ThresholdBinarizer: feature types, conditions, missing values, unseen categories."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.base import clone

from satrules import binarize
from satrules.binarize import ThresholdBinarizer
from satrules.rules import Literal, RuleSet


def frame():
    return pd.DataFrame({
        "age": [25.0, 33, 40, 61, 52, 47],
        "pain": ["typ", "atyp", "none", "asym", "asym", "typ"],
        "sex": ["m", "f", "m", "m", "f", "f"],
        "flag": [True, False, True, True, False, True],
        "const": [7, 7, 7, 7, 7, 7],
    })


def test_feature_types_and_conditions():
    """Constant dropped, binary one column, categorical one-hot, ordinal <= thresholds."""
    tb = ThresholdBinarizer(n_thresholds=2).fit(frame())
    assert tb.feature_kinds_ == {"age": "ordinal", "pain": "categorical", "sex": "binary",
                                 "flag": "binary", "const": "constant"}
    names = tb.get_feature_names_out().tolist()
    assert names == ["age <= 33", "age <= 47", "pain = asym", "pain = atyp", "pain = none",
                     "pain = typ", "sex = m", "flag = True"]
    Xb = tb.transform(frame())
    assert Xb.dtype == np.uint8 and Xb.shape == (6, 8)
    assert Xb[:, 2:6].sum(axis=1).tolist() == [1] * 6          # one-hot
    assert Xb[:, 0].tolist() == [1, 1, 0, 0, 0, 0]
    assert list(tb.feature_names_in_) == list(frame().columns)


def test_negated_literals_read_as_conditions():
    """A negated threshold literal prints '>' and a negated one-hot literal prints '!='."""
    tb = ThresholdBinarizer(n_thresholds=2).fit(frame())
    rs = RuleSet([[Literal(1, True), Literal(2, True)]], "dnf", len(tb.conditions_),
                 tb.conditions_)
    assert str(rs) == "IF (age > 47 AND pain != asym)\nTHEN positive"


@settings(max_examples=50, deadline=None)
@given(values=st.lists(st.floats(-100, 100, allow_nan=False), min_size=2, max_size=40),
       n_thresholds=st.integers(1, 6))
def test_thresholds_are_monotone_and_bounded(values, n_thresholds):
    """Thresholds ascend, number at most n_thresholds, never constant columns; columns monotone."""
    X = np.array(values)[:, None]
    if len(np.unique(X)) < 2:
        return
    tb = ThresholdBinarizer(n_thresholds=n_thresholds).fit(X)
    Xb = tb.transform(X)
    assert Xb.shape[1] >= 1 and Xb.shape[1] <= max(n_thresholds, 1)
    if tb.feature_kinds_["x0"] == "ordinal":
        thresholds = [c.value for c in tb.conditions_]
        assert thresholds == sorted(set(thresholds)) and thresholds[-1] < X.max()
        assert (np.diff(Xb.astype(int), axis=1) >= 0).all()      # x <= t rises with t
    assert (Xb.min(axis=0) == 0).all() and (Xb.max(axis=0) == 1).all()


def test_unseen_category_sets_all_one_hot_columns_to_zero():
    """An unseen category at transform sets every one-hot column of its feature to 0."""
    tb = ThresholdBinarizer().fit(frame())
    new = frame().iloc[:1].copy()
    new["pain"] = "never-seen"
    new["sex"] = "x"
    row = tb.transform(new)[0]
    cols = [i for i, c in enumerate(tb.conditions_) if c.feature in ("pain", "sex")]
    assert row[cols].tolist() == [0] * len(cols)


def test_missing_values():
    """Missing values are a category by default (error only when asked): an 'is missing'
    column, and on a missing row both 'age <= t' and 'age > t' are 0 (issue #11 item 3)."""
    df = frame()
    df.loc[2, "age"] = np.nan
    df.loc[3, "pain"] = None
    with pytest.raises(ValueError, match="missing"):
        ThresholdBinarizer(missing="error").fit(df)
    tb = ThresholdBinarizer().fit(df)
    descr = tb.get_feature_names_out().tolist()
    assert "age is missing" in descr and "pain is missing" in descr
    Xb = tb.transform(df)
    col = descr.index("age is missing")
    assert Xb[:, col].tolist() == [0, 0, 1, 0, 0, 0]
    le = [i for i, c in enumerate(tb.conditions_) if c.feature == "age" and c.op == "<="]
    gt = [i for i, c in enumerate(tb.conditions_) if c.feature == "age" and c.op == ">"]
    assert len(le) == len(gt) >= 1
    assert Xb[2, le + gt].tolist() == [0] * (len(le) + len(gt))
    ok = np.arange(6) != 2   # elsewhere the two columns are complements
    assert (Xb[ok][:, le] + Xb[ok][:, gt] == 1).all()
    # the negated literals say that they include missing values
    assert tb.conditions_[le[0]].describe(negated=True).endswith("or age is missing)")


def test_numpy_and_object_arrays():
    """Numeric object arrays behave like float arrays; string object columns are categorical."""
    X = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 1.0]])
    a = ThresholdBinarizer().fit(X).transform(X)
    b = ThresholdBinarizer().fit(X.astype(object)).transform(X.astype(object))
    assert np.array_equal(a, b)
    Xs = np.array([["a", 1], ["b", 2], ["c", 3]], dtype=object)
    tb = ThresholdBinarizer().fit(Xs)
    assert tb.feature_kinds_ == {"x0": "categorical", "x1": "ordinal"}


def test_categorical_features_forces_one_hot():
    """categorical_features one-hot encodes integer codes instead of thresholds."""
    X = np.array([[0], [1], [2], [1]])
    tb = ThresholdBinarizer(categorical_features=[0]).fit(X)
    assert tb.get_feature_names_out().tolist() == ["x0 = 0", "x0 = 1", "x0 = 2"]
    with pytest.raises(ValueError, match="unknown feature"):
        ThresholdBinarizer(categorical_features=["nope"]).fit(X)


def test_params_are_checked_in_fit_and_clone_works():
    """Bad parameters raise in fit (not __init__); clone keeps parameters."""
    tb = ThresholdBinarizer(n_thresholds=0)
    with pytest.raises(ValueError, match="n_thresholds"):
        tb.fit(frame())
    with pytest.raises(ValueError, match="missing"):
        ThresholdBinarizer(missing="drop").fit(frame())
    assert clone(ThresholdBinarizer(n_thresholds=3)).get_params()["n_thresholds"] == 3


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n_thresholds=st.integers(1, 5))
def test_raw_evaluation_matches_transform(seed, n_thresholds):
    """RuleSet.binarize(raw X) through the conditions equals ThresholdBinarizer.transform(X),
    including missing values and unseen categories, for DataFrames and arrays."""
    rng = np.random.default_rng(seed)
    n = 12
    df = pd.DataFrame({
        "num": rng.normal(size=n).round(1),
        "cat": rng.choice(["a", "b", "c"], size=n).astype(object),
        "bin": rng.choice([3, 8], size=n),
    })
    df.loc[rng.random(n) < 0.2, "num"] = np.nan
    df.loc[rng.random(n) < 0.2, "cat"] = None
    tb = ThresholdBinarizer(n_thresholds=n_thresholds, missing="category").fit(df)
    rs = RuleSet([], "dnf", len(tb.conditions_), tb.conditions_)
    new = df.copy()
    new.loc[0, "cat"] = "unseen"
    new.loc[1, "num"] = 99.0
    assert np.array_equal(rs.binarize(new), tb.transform(new))
    num_only = df[["num", "bin"]].to_numpy()
    tb2 = ThresholdBinarizer(n_thresholds=n_thresholds, missing="category").fit(num_only)
    rs2 = RuleSet([], "dnf", len(tb2.conditions_), tb2.conditions_)
    assert np.array_equal(rs2.binarize(num_only), tb2.transform(num_only))


def test_quantiles_all_at_the_maximum_still_give_a_threshold():
    """[0, 1, 2, 2, 2] with one threshold: the median is the maximum (a constant column),
    so the threshold falls back to the largest value below it instead of losing the
    feature (found by hypothesis: 'every feature is constant')."""
    tb = ThresholdBinarizer(n_thresholds=1).fit(np.array([[0.0], [1], [2], [2], [2]]))
    assert tb.get_feature_names_out().tolist() == ["x0 <= 1"]


# ---------------------------------------------------------------- supervised thresholds
@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.floats(-100, 100, allow_nan=False), min_size=2, max_size=40),
       labels=st.lists(st.sampled_from("abc"), min_size=40, max_size=40),
       n_thresholds=st.integers(1, 6), method=st.sampled_from(["tree", "both"]))
def test_tree_thresholds_separate_as_the_tree_does(values, labels, n_thresholds, method):
    """thresholds="tree": at most n_thresholds cuts, each an observed value's column that
    splits the rows exactly as the one-feature tree's split does; "both" adds them to the
    quantiles.  Columns stay non-constant and ascending."""
    from sklearn.tree import DecisionTreeClassifier

    X = np.array(values)[:, None]
    y = np.array(labels[:len(values)])
    if len(np.unique(X)) < 2:
        return
    tb = ThresholdBinarizer(n_thresholds=n_thresholds, thresholds=method).fit(X, y)
    Xb = tb.transform(X)
    assert (Xb.min(axis=0) == 0).all() and (Xb.max(axis=0) == 1).all()
    if tb.feature_kinds_["x0"] != "ordinal":
        return
    cuts = [c.value for c in tb.conditions_]
    assert cuts == sorted(set(cuts)) and cuts[-1] < X.max()
    quantile = {c.value for c in ThresholdBinarizer(n_thresholds=n_thresholds).fit(X).conditions_}
    leaf = max(binarize.TREE_MIN_ROWS, 1, int(np.ceil(binarize.TREE_MIN_LEAF * len(y))))
    tree = DecisionTreeClassifier(max_leaf_nodes=n_thresholds + 1, min_samples_leaf=leaf,
                                  random_state=0).fit(X, y)
    splits = tree.tree_.threshold[tree.tree_.feature >= 0]
    by_tree = {tuple(X[:, 0] <= s) for s in splits}
    columns = {tuple(Xb[:, j].astype(bool)) for j in range(Xb.shape[1])}
    assert by_tree <= columns                           # every tree split is a column
    if method == "tree":
        assert len(cuts) <= n_thresholds
        assert columns == by_tree or (not by_tree and set(cuts) == quantile)
    else:
        assert quantile <= set(cuts)


def test_tree_thresholds_find_the_cut_the_quantiles_miss():
    """A label that flips at x = 0.1: the quantiles straddle it, the tree puts a threshold
    on it; labels of any type, rows with a missing x left out of the tree."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=400)
    y = np.where(x > 0.1, "yes", "no")
    x[:20] = np.nan
    df = pd.DataFrame({"x": x})
    names = ThresholdBinarizer(thresholds="tree").fit(df, y).get_feature_names_out().tolist()
    assert "x <= 0.1" in names
    assert "x <= 0.1" not in ThresholdBinarizer().fit(df).get_feature_names_out().tolist()


def test_tree_thresholds_isolate_a_rare_tail():
    """A class of 3 % of the rows above x = 0.97 (as defaults on ISLR/Default, 3.3 %
    positive, above a balance): the tree's leaves may be as small as
    ``TREE_MIN_LEAF`` = 1 % of the rows, so a threshold falls on the tail's edge
    (with 5 % leaves the top leaf held 50 rows and no cut came above x = 0.95)."""
    x = np.arange(1000) / 1000
    y = np.where(x > 0.97, "default", "paid")
    names = ThresholdBinarizer(thresholds="tree").fit(x[:, None], y).get_feature_names_out()
    assert "x0 <= 0.97" in names.tolist()


def test_tree_leaves_have_a_floor_in_rows(monkeypatch):
    """``TREE_MIN_ROWS`` bounds the leaves in rows as well: with a floor of 40 rows the
    30-row tail above can no longer have a leaf of its own, and no cut falls above it."""
    x = np.arange(1000) / 1000
    y = np.where(x > 0.97, "default", "paid")
    monkeypatch.setattr(binarize, "TREE_MIN_ROWS", 40)
    tb = ThresholdBinarizer(thresholds="tree").fit(x[:, None], y)
    assert max(c.value for c in tb.conditions_) <= 0.96


def test_tree_thresholds_need_labels_and_a_known_method():
    """thresholds="tree" without y, a y of the wrong length or an unknown method: errors
    that say what is wrong."""
    with pytest.raises(ValueError, match="chooses cuts from the labels: call fit"):
        ThresholdBinarizer(thresholds="tree").fit(frame())
    with pytest.raises(ValueError, match="labels for"):
        ThresholdBinarizer(thresholds="both").fit(frame(), [0, 1])
    with pytest.raises(ValueError, match="thresholds must be one of quantile, tree, both"):
        ThresholdBinarizer(thresholds="entropy").fit(frame())


finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300)


@settings(max_examples=300, deadline=None)
@given(low=finite, gap=st.floats(min_value=0, max_value=1e300), open_top=st.booleans())
def test_shortest_decimal_is_in_range_and_no_longer_than_low(low, gap, open_top):
    """``shortest_decimal(low, high)`` lies in ``[low, high)`` and has no more significant
    digits than ``low``; ``short_threshold`` keeps a value of at most four digits."""
    from decimal import Decimal

    high = np.inf if open_top else low + gap
    if not low < high:
        high = np.nextafter(low, np.inf)
    d = binarize.shortest_decimal(low, high)

    def digits(x):
        return len(Decimal(repr(float(x))).normalize().as_tuple().digits)

    assert low <= d < high
    assert digits(d) <= digits(low)
    t = binarize.short_threshold(low, high)
    assert low <= t < high and (t == low if digits(low) <= 4 else True)


def test_auto_thresholds_give_a_tree_one_cut_per_class_boundary():
    """``n_thresholds="auto"``: four quantile cuts, but a tree on ``K > 5`` classes may cut
    ``K - 1`` times; a binary target keeps four."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"signal": rng.uniform(0, 8, 800), "noise": rng.normal(size=800)})
    y = np.floor(X["signal"]).astype(int).astype(str).to_numpy()   # 8 classes
    tb = ThresholdBinarizer(n_thresholds="auto", thresholds="tree").fit(X, y)
    assert (tb.n_thresholds_, tb.n_tree_thresholds_) == (4, 7)
    cuts = [c.value for c in tb.conditions_ if c.feature == "signal"]
    assert np.allclose(cuts, np.arange(1, 8), atol=0.05)   # one cut at each class boundary
    assert len([c for c in tb.conditions_ if c.feature == "noise"]) <= 7
    quantile = ThresholdBinarizer(n_thresholds="auto").fit(X, y)
    assert quantile.n_tree_thresholds_ == 4
    assert len([c for c in quantile.conditions_ if c.feature == "signal"]) == 4
    binary = ThresholdBinarizer(n_thresholds="auto", thresholds="tree").fit(X, y == "3")
    assert binary.n_tree_thresholds_ == 4
    with pytest.raises(ValueError, match="positive int or 'auto'"):
        ThresholdBinarizer(n_thresholds="many").fit(X, y)


@pytest.mark.parametrize("seed", range(6))
def test_class_columns_keep_the_cuts_a_tree_on_the_ladder_keeps(seed):
    """Per ladder, ``class_columns`` keeps the thresholds a best-first Gini tree on the
    binary target picks among the ladder's thresholds (here scikit-learn's, fitted on the
    interval index of each row, with the same smallest leaf)."""
    from sklearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng(seed)
    n = 600
    x = rng.uniform(0, 12, n)
    p = rng.uniform(0, 1, 12)[np.floor(x).astype(int)]   # each unit interval its own rate
    target = rng.uniform(size=n) < p
    tb = ThresholdBinarizer(n_thresholds=11, thresholds="quantile").fit(x.reshape(-1, 1))
    Xb = tb.transform(x.reshape(-1, 1))
    cols = tb.class_columns(Xb, target, n_cuts=3)
    kept = sorted(tb.conditions_[c].value for c in cols)
    ladder = np.array(sorted(c.value for c in tb.conditions_))
    interval = np.searchsorted(ladder, x, side="left")   # rows at or below ladder[i] -> i
    leaf = max(1, int(np.ceil(binarize.TREE_MIN_LEAF * n)))
    tree = DecisionTreeClassifier(max_leaf_nodes=4, min_samples_leaf=leaf, random_state=0)
    tree.fit(interval.reshape(-1, 1), target)
    split = tree.tree_.threshold[tree.tree_.feature >= 0]
    assert kept == sorted(ladder[np.floor(split).astype(int)].tolist())


def test_class_columns_keep_other_columns_and_both_sides_of_a_kept_threshold():
    """Columns that are not an ordinal ladder stay; with missing values both the ``<=`` and
    the ``>`` column of a kept threshold stay; short ladders give None."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.uniform(0, 10, 400), "colour": rng.choice(list("abc"), 400)})
    X.loc[::7, "x"] = np.nan
    target = (X["x"] > 6).to_numpy()
    tb = ThresholdBinarizer(n_thresholds=9, thresholds="quantile").fit(X)
    Xb = tb.transform(X)
    cols = tb.class_columns(Xb, target, n_cuts=1)
    described = [tb.conditions_[c].describe() for c in cols]
    kept = [c for c in cols if tb.conditions_[c].kind == "ordinal"]
    assert len(kept) == 2 and {tb.conditions_[c].op for c in kept} == {"<=", ">"}
    assert len({tb.conditions_[c].value for c in kept}) == 1
    assert abs(tb.conditions_[kept[0]].value - 6) < 1.2
    assert "colour = a" in described
    assert any(tb.conditions_[c].value is binarize.MISSING for c in cols)
    assert sum(tb.conditions_[c].feature == "colour" for c in cols) == 3
    assert tb.class_columns(Xb, target, n_cuts=9) is None


def test_class_columns_take_precomputed_column_counts():
    """One-vs-rest passes ``Xb.sum(axis=0)`` once for every class: the same columns as
    counting inside; counts of the wrong shape are refused with a message naming them."""
    rng = np.random.default_rng(1)
    x = rng.normal(size=(500, 3))
    y = np.digitize(x[:, 1], [-1, 0, 1])
    tb = ThresholdBinarizer(n_thresholds=12, thresholds="quantile").fit(x)
    Xb = tb.transform(x)
    counts = Xb.sum(axis=0)
    for c in range(4):
        expected = tb.class_columns(Xb, y == c, n_cuts=2)
        assert expected is not None
        np.testing.assert_array_equal(
            tb.class_columns(Xb, y == c, n_cuts=2, column_counts=counts), expected)
    with pytest.raises(ValueError, match="column_counts has shape"):
        tb.class_columns(Xb, y == 0, n_cuts=2, column_counts=counts[:-1])


def test_class_columns_follow_a_refit():
    """The ladders ``class_columns`` works out once per fit are worked out anew by the
    next ``fit``: after a refit on other data, the columns of the new conditions."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=(400, 3))
    y = np.digitize(x[:, 0], [-1, 0, 1])
    tb = ThresholdBinarizer(n_thresholds=10, thresholds="quantile").fit(x)
    first = tb.class_columns(tb.transform(x), y == 1, n_cuts=2)
    x2 = np.column_stack([x, rng.normal(size=(400, 2))])
    tb.fit(x2)
    Xb2 = tb.transform(x2)
    again = tb.class_columns(Xb2, y == 1, n_cuts=2)
    fresh = ThresholdBinarizer(n_thresholds=10, thresholds="quantile").fit(x2)
    np.testing.assert_array_equal(again, fresh.class_columns(Xb2, y == 1, n_cuts=2))
    assert len(again) > len(first)
    assert tb.class_columns(Xb2, y == 1, n_cuts=20) is None   # every ladder short enough


def _one_ladder_cuts(below, below_pos, total, total_pos, n_cuts, min_leaf):
    """Reference: best-first Gini splits of one ladder, segment by segment, in exact
    rational arithmetic; None when a step has two best cuts (an exact tie, which float
    arithmetic may break either way)."""
    from fractions import Fraction

    cum = [0, *map(int, below), int(total)]
    cum_pos = [0, *map(int, below_pos), int(total_pos)]

    def gini(n, p):
        return Fraction(2 * p * (n - p), n) if n > 0 else Fraction(0)

    chosen, bounds = set(), [0, len(below) + 1]
    while len(chosen) < n_cuts:
        gains = {}
        for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
            for i in range(lo + 1, hi):
                n_l, n_r = cum[i] - cum[lo], cum[hi] - cum[i]
                if n_l >= min_leaf and n_r >= min_leaf:
                    gains[i] = gini(cum[hi] - cum[lo], cum_pos[hi] - cum_pos[lo]) \
                        - gini(n_l, cum_pos[i] - cum_pos[lo]) \
                        - gini(n_r, cum_pos[hi] - cum_pos[i])
        top = max(gains.values(), default=Fraction(0))
        if top <= 0:
            break
        best = [i for i, g in gains.items() if g == top]
        if len(best) > 1:
            return None
        chosen.add(best[0] - 1)
        bounds = sorted([*bounds, best[0]])
    if not chosen:
        chosen = {int(i) for i in np.linspace(0, len(below) - 1, n_cuts + 2)[1:-1].round()}
    return chosen


@st.composite
def _ladders(draw):
    ladders = []
    for _ in range(draw(st.integers(1, 5))):
        # integer rows / positives per interval: the cumulative counts of a real ladder
        n = draw(st.lists(st.integers(0, 12), min_size=2, max_size=12))
        p = [draw(st.integers(0, k)) for k in n]
        cum, cum_p = np.cumsum(n), np.cumsum(p)
        ladders.append((cum[:-1], cum_p[:-1], int(cum[-1]), int(cum_p[-1])))
    return ladders


@given(_ladders(), st.integers(1, 4), st.integers(1, 6))
@settings(max_examples=300, deadline=None)
def test_ladders_cuts_equal_one_ladder_at_a_time(ladders, n_cuts, min_leaf):
    """All ladders at once (vectorised, as one-vs-rest uses it) keep the same thresholds as
    an exact best-first search of each ladder alone (exact ties left out: distinct gains
    of these small counts differ by far more than float error)."""
    expected = [_one_ladder_cuts(*lad, n_cuts, min_leaf) for lad in ladders]
    assume(None not in expected)
    assert binarize._ladders_cuts(ladders, n_cuts, min_leaf) == expected


def test_columns_are_read_contiguous():
    """Each column the binarizer reads is one contiguous array (a strided one costs a
    cache line per value in every per-column pass), from a mixed frame and a C array."""
    from satrules.binarize import _split_columns

    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(50, 6)), columns=list("abcdef"))
    frame.insert(2, "s", ["x", "y"] * 25)
    array = np.ascontiguousarray(rng.normal(size=(50, 6)))
    for X in (frame, array, np.asfortranarray(array)):
        cols, _ = _split_columns(X)
        assert all(c.flags["C_CONTIGUOUS"] for c in cols)
    np.testing.assert_array_equal(np.stack(_split_columns(array)[0], axis=1), array)
    np.testing.assert_array_equal(_split_columns(frame)[0][3], frame["c"].to_numpy())
