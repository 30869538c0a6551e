"""Tests for satrules.mining: leaf rules of tree ensembles, intervals, covers, labels, B_{α,δ}."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer, load_iris

from satrules import mining
from satrules.mining import Candidates, MinedRule, _shorten_bounds, mine_rules


def _path_conditions(tree, n_features, every_node=False):
    """Reference: walk every root-to-leaf path recursively, returning (leaf, lo, hi), or
    (node, lo, hi) for every node but the root (``every_node``)."""
    t = tree.tree_
    out = []

    def walk(node, lo, hi):
        if (node and every_node) or t.children_left[node] < 0:
            out.append((node, lo.copy(), hi.copy()))
        if t.children_left[node] < 0:
            return
        f, thr = t.feature[node], t.threshold[node]
        left_hi = hi.copy()
        left_hi[f] = min(hi[f], thr)
        walk(t.children_left[node], lo, left_hi)
        right_lo = lo.copy()
        right_lo[f] = max(lo[f], thr)
        walk(t.children_right[node], right_lo, hi)

    walk(0, np.full(n_features, -np.inf), np.full(n_features, np.inf))
    return out


@pytest.fixture(scope="module")
def cancer():
    return load_breast_cancer(return_X_y=True)


@pytest.mark.parametrize("miner", ["gbdt", "rf"])
def test_rules_are_the_leaf_paths_without_duplicates(cancer, miner):
    """Every rule is one leaf path (merged intervals, thresholds as mining._shorten_bounds
    stores them) of the ensemble; every leaf path is a rule; no two rules are equal."""
    X, y = cancer
    cands = mine_rules(X, y, miner=miner, n_estimators=8, max_depth=3, random_state=0)
    got = {tuple(np.r_[lo, hi]) for lo, hi in zip(cands.lo, cands.hi, strict=True)}
    assert len(got) == len(cands)
    from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
    cls = GradientBoostingClassifier if miner == "gbdt" else RandomForestClassifier
    model = cls(n_estimators=8, max_depth=3, random_state=0).fit(X, y)
    paths = [(lo, hi) for tree in np.ravel(model.estimators_)
             for _, lo, hi in _path_conditions(tree, X.shape[1])]
    lo, hi = np.array([p[0] for p in paths]), np.array([p[1] for p in paths])
    _shorten_bounds(lo, hi, X)
    want = {tuple(np.r_[a, b]) for a, b in zip(lo, hi, strict=True)}
    assert got == want


@pytest.mark.parametrize("multiclass", [False, True])
def test_hist_rules_are_the_leaf_paths_of_the_boosted_trees(cancer, multiclass):
    """miner="hist": the intervals read from HistGradientBoostingClassifier's trees are
    their leaf paths (each row's leaf values, found by the intervals, sum to the model's
    own raw prediction), and the rules are those paths, shortened, without duplicates,
    with covers, majority labels and accuracies read from the intervals."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    X, y = load_iris(return_X_y=True) if multiclass else cancer
    model = HistGradientBoostingClassifier(
        max_iter=6, max_depth=3, learning_rate=0.1, max_leaf_nodes=None, min_samples_leaf=1,
        early_stopping=False, random_state=0).fit(X, y)
    trees = mining._tree_arrays(model)
    assert len(trees) == 6 * (3 if multiclass else 1)
    lo, hi, is_leaf, offsets = mining._leaf_intervals(trees, X.shape[1])
    values = np.concatenate([p.nodes["value"] for rounds in model._predictors for p in rounds])
    raw = np.tile(np.ravel(model._baseline_prediction), (len(X), 1)).astype(float)
    n_trees_per_round = 3 if multiclass else 1
    for k, _ in enumerate(trees):
        nodes = np.arange(offsets[k], offsets[k + 1])
        leaves = nodes[is_leaf[nodes]]
        inside = np.all((X[:, None, :] > lo[leaves][None]) & (X[:, None, :] <= hi[leaves][None]),
                        axis=2)
        assert (inside.sum(axis=1) == 1).all()   # each row in exactly one leaf
        raw[:, k % n_trees_per_round] += values[leaves][inside.argmax(axis=1)]
    assert np.allclose(raw, model._raw_predict(X))
    cands = mine_rules(X, y, miner="hist", n_estimators=6, max_depth=3, random_state=0)
    _shorten_bounds(lo, hi, X)
    want = {tuple(np.r_[a, b]) for a, b in zip(lo[is_leaf], hi[is_leaf], strict=True)}
    got = [tuple(np.r_[a, b]) for a, b in zip(cands.lo, cands.hi, strict=True)]
    assert len(set(got)) == len(got) and set(got) == want
    dense, classes = cands.covers.toarray(), np.unique(y)
    assert np.array_equal(dense, cands.cover(X).toarray())
    for r in range(len(cands)):
        counts = np.bincount(np.searchsorted(classes, y[dense[r]]), minlength=len(classes))
        assert cands.labels[r] == counts.argmax()
        assert cands.accuracy[r] == pytest.approx(counts.max() / counts.sum())


@pytest.mark.parametrize("miner", ["gbdt", "rf"])
def test_all_nodes_give_every_path_but_the_roots(cancer, miner):
    """nodes="all": the rules are the paths to every node but the roots (an inner node's
    path is a shorter rule than its leaves'), without duplicates, with covers, labels and
    accuracies counted on the training rows; nodes="leaves" gives a subset of them."""
    X, y = cancer
    cands = mine_rules(X, y, miner=miner, n_estimators=8, max_depth=3, random_state=0,
                       nodes="all")
    got = [tuple(np.r_[lo, hi]) for lo, hi in zip(cands.lo, cands.hi, strict=True)]
    assert len(set(got)) == len(got)
    from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
    cls = GradientBoostingClassifier if miner == "gbdt" else RandomForestClassifier
    model = cls(n_estimators=8, max_depth=3, random_state=0).fit(X, y)
    paths = [(lo, hi) for tree in np.ravel(model.estimators_)
             for _, lo, hi in _path_conditions(tree, X.shape[1], every_node=True)]
    lo, hi = np.array([p[0] for p in paths]), np.array([p[1] for p in paths])
    _shorten_bounds(lo, hi, X)
    want = {tuple(np.r_[a, b]) for a, b in zip(lo, hi, strict=True)}
    if miner == "rf":   # a bootstrap may leave a node no training row: no rule
        want = {w for w in want if np.all((X > w[:X.shape[1]]) & (X <= w[X.shape[1]:]),
                                          axis=1).any()}
    assert set(got) == want
    assert min(cands.width) < max(cands.width)
    leaves = mine_rules(X, y, miner=miner, n_estimators=8, max_depth=3, random_state=0)
    assert {tuple(np.r_[a, b]) for a, b in zip(leaves.lo, leaves.hi, strict=True)} <= set(got)
    dense = cands.covers.toarray()
    assert np.array_equal(dense, cands.cover(X).toarray())
    for r in range(len(cands)):
        counts = np.bincount(y[dense[r]], minlength=2)
        assert cands.labels[r] == counts.argmax()
        assert cands.accuracy[r] == pytest.approx(counts.max() / counts.sum())


def test_multiclass_gbdt_uses_every_class_trees_and_majority_labels():
    """Multi-class: rules come from each class's trees; each label is the majority class of
    the rule's training cover and accuracy is that majority's share."""
    X, y = load_iris(return_X_y=True)
    cands = mine_rules(X, y, n_estimators=5, max_depth=2, random_state=0)
    assert set(cands.labels.tolist()) == {0, 1, 2}
    dense = cands.covers.toarray()
    for r in range(len(cands)):
        counts = np.bincount(y[dense[r]], minlength=3)
        assert cands.labels[r] == counts.argmax()
        assert cands.accuracy[r] == pytest.approx(counts.max() / counts.sum())
        assert cands.support[r] == counts.sum()


@pytest.mark.parametrize(("dense_cells", "passes"), [(0, 0), (0, 10**9), (1 << 22, 0)],
                         ids=["sorted", "by-rule", "dense"])
def test_interval_cover_equals_tree_cover_on_new_data(cancer, monkeypatch, dense_cells,
                                                      passes):
    """Covers recomputed from the intervals on new rows equal the covers given by the trees'
    own leaf assignment (apply) whenever the new values are values seen in training
    (thresholds move only inside gaps between training values), including the training
    values on either side of every split; the dense, the by-rule and the sorted
    evaluation paths."""
    monkeypatch.setattr(mining, "_DENSE_CELLS", dense_cells)
    monkeypatch.setattr(mining, "_PASSES_PER_SORT", passes)
    from sklearn.ensemble import GradientBoostingClassifier
    X, y = cancer
    cands = mine_rules(X[:400], y[:400], n_estimators=10, max_depth=3, random_state=1)
    assert (cands.cover(X[:400]) != cands.covers).nnz == 0
    model = GradientBoostingClassifier(n_estimators=10, max_depth=3, random_state=1)
    model.fit(X[:400], y[:400])
    rng = np.random.default_rng(0)
    train = X[:400]
    Xnew = np.column_stack([rng.choice(train[:, f], 200) for f in range(X.shape[1])])
    trees = list(np.ravel(model.estimators_))
    for tree in trees[:3]:  # the training values just below and just above each split
        t = tree.tree_
        for node in np.flatnonzero(t.children_left >= 0):
            col = np.unique(train[:, t.feature[node]])   # training values, as given
            p = np.searchsorted(col.astype(np.float32).astype(np.float64), t.threshold[node],
                                side="right")
            rows = rng.choice(len(Xnew), 6, replace=False)
            Xnew[rows[:3], t.feature[node]] = col[p - 1]
            Xnew[rows[3:], t.feature[node]] = col[min(p, len(col) - 1)]
    short = {}
    for tree in trees:
        for _, lo, hi in _path_conditions(tree, X.shape[1]):
            lo2, hi2 = lo[None, :].copy(), hi[None, :].copy()
            _shorten_bounds(lo2, hi2, train)   # the thresholds as mine_rules stores them
            short[tuple(np.r_[lo, hi])] = tuple(np.r_[lo2[0], hi2[0]])
    index = {tuple(np.r_[lo, hi]): r for r, (lo, hi) in
             enumerate(zip(cands.lo, cands.hi, strict=True))}
    want = np.zeros((len(cands), len(Xnew)), dtype=bool)
    leaves = model.apply(Xnew).reshape(len(Xnew), -1).astype(int)
    for k, tree in enumerate(trees):
        for leaf, lo, hi in _path_conditions(tree, X.shape[1]):
            key = short[tuple(np.r_[lo, hi])]
            if key in index:
                want[index[key], leaves[:, k] == leaf] = True
    assert np.array_equal(cands.cover(Xnew).toarray(), want)


def test_deterministic_for_fixed_random_state(cancer):
    """The same data and random_state give the same candidates, in the same order."""
    X, y = cancer
    a = mine_rules(X, y, miner="rf", n_estimators=5, max_depth=3, random_state=3)
    b = mine_rules(X, y, miner="rf", n_estimators=5, max_depth=3, random_state=3)
    assert np.array_equal(a.lo, b.lo) and np.array_equal(a.hi, b.hi)
    assert np.array_equal(a.labels, b.labels) and (a.covers != b.covers).nnz == 0


@settings(max_examples=40, deadline=None)
@given(alpha=st.floats(0, 1), delta=st.integers(0, 4))
def test_filter_is_exactly_b_alpha_delta(cancer, alpha, delta):
    """filter(α, δ) keeps exactly the rules with accuracy ≥ α and width ≤ δ."""
    X, y = cancer
    cands = _small(X, y)
    keep = cands.filter(alpha, delta)
    mask = (cands.accuracy >= alpha) & (cands.width <= delta)
    assert np.array_equal(keep, np.flatnonzero(mask))
    sub = cands.subset(keep)
    assert len(sub) == len(keep) and np.all(sub.width <= delta)


_CACHE = {}


def _small(X, y):
    if "c" not in _CACHE:
        _CACHE["c"] = mine_rules(X, y, n_estimators=10, max_depth=4, random_state=0)
    return _CACHE["c"]


def test_width_counts_distinct_features(cancer):
    """Two splits on the same feature merge into one interval: width counts features, and
    width ≤ max_depth."""
    X, y = cancer
    cands = mine_rules(X, y, n_estimators=20, max_depth=4, random_state=0)
    assert np.all(cands.width <= 4)
    two_sided = np.isfinite(cands.lo) & np.isfinite(cands.hi)
    assert two_sided.any()  # some path splits one feature twice
    for r in np.flatnonzero(two_sided.any(axis=1))[:5]:
        assert cands[r].width == cands.width[r] < len(_path_of(cands, r))


def _path_of(cands, r):
    # number of bounds (a two-sided interval counts twice)
    return np.flatnonzero(np.isfinite(cands.lo[r])).tolist() + np.flatnonzero(
        np.isfinite(cands.hi[r])).tolist()


def test_rule_text_names_features_intervals_and_indicators():
    """Rules print as IF-THEN text with feature names, both interval forms and one-hot
    columns as `col = value` / `col != value`."""
    rule = MinedRule(((0, 1.5, 3.0), (1, 0.5, np.inf), (2, -np.inf, 0.5)), 0,
                     ("age", "sex=m", "city=paris"), ("no", "yes"),
                     {1: ("sex", "m"), 2: ("city", "paris")})
    assert str(rule) == "IF 1.5 < age <= 3 AND sex = m AND city != paris THEN no"
    assert str(MinedRule((), 1, ("a",), ("no", "yes"))) == "IF TRUE THEN yes"
    assert len({rule, rule}) == 1  # hashable despite the indicators dict


def test_string_labels_and_feature_names():
    """Labels may be strings; rules use class names and feature names."""
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    cands = mine_rules(X, ["b", "b", "m", "m"], n_estimators=1, max_depth=1, random_state=0,
                       feature_names=["size"])
    assert str(cands) == "IF size <= 2 THEN b\nIF size > 2 THEN m"
    assert isinstance(cands.subset([1]), Candidates)


def test_thresholds_print_short_and_split_the_training_data_like_the_trees():
    """A stored threshold is a short decimal in the gap between neighbouring training
    values: read on the values as given, it splits every training value as the tree's
    threshold does on their float32 copies, and the rule text prints that stored number."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 3)) / 7
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    cands = mine_rules(X, y, n_estimators=5, max_depth=3, random_state=0)
    from sklearn.ensemble import GradientBoostingClassifier
    model = GradientBoostingClassifier(n_estimators=5, max_depth=3, random_state=0).fit(X, y)
    x32 = X.astype(np.float32).astype(np.float64)
    for tree in np.ravel(model.estimators_):
        t = tree.tree_
        for node in np.flatnonzero(t.children_left >= 0):
            f, thr = t.feature[node], t.threshold[node]
            stored = np.r_[cands.lo[:, f], cands.hi[:, f]]
            stored = stored[np.isfinite(stored)]
            d = stored[np.argmin(np.abs(stored - thr))]
            assert np.array_equal(x32[:, f] <= thr, X[:, f] <= d)
            assert len(Decimal(repr(float(d))).normalize().as_tuple().digits) <= 6
    text = str(cands)
    finite = np.r_[cands.lo[np.isfinite(cands.lo)], cands.hi[np.isfinite(cands.hi)]]
    assert all(repr(float(d)) in text for d in finite[:10] if not float(d).is_integer())


def test_bad_arguments_raise():
    """A single class or an unknown miner is a ValueError naming the problem."""
    X = np.zeros((4, 2))
    with pytest.raises(ValueError, match="2 classes"):
        mine_rules(X, [1, 1, 1, 1])
    with pytest.raises(ValueError, match="miner"):
        mine_rules(X, [0, 1, 0, 1], miner="xgb")
    with pytest.raises(ValueError, match="nodes"):
        mine_rules(X, [0, 1, 0, 1], nodes="inner")
    cands = mine_rules(X + np.arange(4)[:, None], [0, 1, 0, 1], n_estimators=1, max_depth=1)
    with pytest.raises(ValueError, match="shape"):
        cands.cover(np.zeros((3, 5)))
    # NaN is a missing value: it fails every condition on its feature (no error)
    assert cands.cover(np.full((3, 2), np.nan)).shape == (len(cands), 3)


@pytest.mark.parametrize("miner", ["gbdt", "hist", "rf"])
def test_bounds_read_on_the_data_as_given_give_the_covers(cancer, miner):
    """A person who reads a rule's printed bounds and applies them to the data as given
    (float64, not scikit-learn's float32 copy) gets the rule's cover.  Before, a bound was
    chosen on float32 values: `worst concave points > 0.112` covered the rows whose value
    is exactly 0.112 (float32(0.112) > 0.112), which the printed rule says it does not."""
    X, y = cancer
    cands = mine_rules(X, y, miner=miner, n_estimators=20, max_depth=3, random_state=0)
    read = np.ones((len(cands), len(X)), dtype=bool)
    for f in range(X.shape[1]):
        read &= (X[:, f][None, :] > cands.lo[:, [f]]) & (X[:, f][None, :] <= cands.hi[:, [f]])
    assert np.array_equal(read, cands.covers.toarray())
    finite = np.r_[cands.lo[np.isfinite(cands.lo)], cands.hi[np.isfinite(cands.hi)]]
    assert max(len(Decimal(repr(float(d))).normalize().as_tuple().digits) for d in finite) <= 5


@pytest.mark.parametrize("miner", ["gbdt", "hist", "rf"])
def test_no_lower_bound_below_every_value_beside_an_upper_bound(cancer, miner, monkeypatch):
    """With missing values the trees grow on a stand-in below each feature's minimum, and
    a split of it left `-0.5 < age <= 31`-like bounds (`-4:48 < time <= 12:01` on times of
    day).  Such a bound beside a finite upper bound is opened: no rule keeps one, and the
    rules, covers, classes and accuracies are those the bounds gave (rules that became
    equal merge)."""
    X, y = cancer
    X = X[:, :3].copy()
    X[np.random.default_rng(0).random(X.shape) < 0.3] = np.nan
    cands = mine_rules(X, y, miner=miner, n_estimators=50, max_depth=3, random_state=0)
    monkeypatch.setattr(mining, "_open_low_bounds", lambda lo, hi, X: None)
    kept = mine_rules(X, y, miner=miner, n_estimators=50, max_depth=3, random_state=0)
    least = np.nanmin(X, axis=0)
    def low(c):   # finite lower bounds below every value, beside a finite upper bound
        return np.isfinite(c.lo) & np.isfinite(c.hi) & (c.lo < least)

    assert not low(cands).any()
    assert low(kept).any()   # there was something to open

    def rules(c):
        lo = np.where(low(c), -np.inf, c.lo)
        return {(lo[i].tobytes(), c.hi[i].tobytes(), c.covers[i].toarray().tobytes(),
                 int(c.labels[i]), float(np.nan_to_num(c.accuracy[i], nan=-1.0)))
                for i in range(len(c))}

    assert rules(cands) == rules(kept)
    read = np.ones((len(cands), len(X)), dtype=bool)
    with np.errstate(invalid="ignore"):
        for f in range(X.shape[1]):
            free = (np.isinf(cands.lo[:, f]) & np.isinf(cands.hi[:, f]))[:, None]
            read &= free | ((X[:, f][None, :] > cands.lo[:, [f]]) &
                            (X[:, f][None, :] <= cands.hi[:, [f]]))
    assert np.array_equal(read, cands.covers.toarray())



@pytest.mark.parametrize("miner", ["gbdt", "hist", "rf"])
def test_a_lower_bound_alone_below_every_value_reads_not_missing(miner, monkeypatch):
    """A split of the stand-in for missing values with no upper bound (``age > 17.5`` when
    the youngest is 18) says "not missing": with a missing-value indicator column it is
    that condition (``age is not missing``), no bound on the feature; no rule keeps such a
    bound, and the training covers, classes and accuracies are those of the bounds (rules
    that became equal merge; ``test_messy_data`` checks predict on a value below the
    minimum)."""
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.integers(18, 80, 600), rng.random(600), rng.normal(size=600)])
    X[rng.random(X.shape) < 0.3] = np.nan
    y = np.where(np.isnan(X[:, 0]) | (X[:, 1] <= 0.5), "a", "b")   # a missing age: a
    X = np.hstack([X, np.isnan(X).astype(float)])   # the indicators, as CDPR's encoder
    names = ["a", "b", "c", "a=<missing>", "b=<missing>", "c=<missing>"]
    indicators = {3 + f: (names[f], mining.MISSING) for f in range(3)}
    kw = {"miner": miner, "n_estimators": 50, "max_depth": 3, "random_state": 0,
          "feature_names": names, "indicators": indicators}
    cands = mine_rules(X, y, **kw)
    monkeypatch.setattr(mining, "_not_missing_bounds", lambda *args: None)
    kept = mine_rules(X, y, **kw)
    least = np.nanmin(X, axis=0)[:3]

    def alone(c):   # finite lower bounds below every value, no upper bound
        return np.isfinite(c.lo[:, :3]) & np.isinf(c.hi[:, :3]) & (c.lo[:, :3] < least)

    assert not alone(cands).any()
    assert alone(kept).any()   # there was something to rewrite
    texts = [str(rule) for rule in cands]
    assert any(" is not missing" in t for t in texts), texts

    def rules(c):   # the same rules but for the text (rules that became equal merge)
        return {(c.covers[i].toarray().tobytes(), int(c.labels[i]),
                 float(np.nan_to_num(c.accuracy[i], nan=-1.0))) for i in range(len(c))}

    assert rules(cands) == rules(kept)

@settings(max_examples=20, deadline=None)
@given(n_levels=st.integers(3, 8), seed=st.integers(0, 2**16), miner=st.sampled_from(
    ["hist", "gbdt"]))
def test_the_conditions_left_unprinted_are_implied(n_levels, seed, miner):
    """A CDPR rule prints without ``col != w`` beside ``col = v`` and without ``x is not
    missing`` beside a bound on ``x``: on the training rows and on new rows (unseen
    levels, missing values), the printed conditions alone cover exactly what all of them
    cover."""
    import pandas as pd

    from satrules.estimators import CDPRClassifier

    rng = np.random.default_rng(seed)
    n = 150
    cat = rng.choice([f"c{i}" for i in range(n_levels)] + [None], n).astype(object)
    x = rng.normal(size=n).round(2)
    x[rng.random(n) < 0.15] = np.nan
    y = np.where(np.isin(cat, ["c0", "c1"]) ^ (np.nan_to_num(x) > 0.5), "a", "b")
    X = pd.DataFrame({"cat": cat, "x": x})
    est = CDPRClassifier(miner=miner, n_estimators=10, null_test=False,
                         random_state=0).fit(X, y)
    new = pd.DataFrame({"cat": [f"c{i}" for i in range(n_levels)] + ["unseen", None, "c0"],
                        "x": list(rng.normal(size=n_levels).round(2)) + [0.1, np.nan, np.nan]})
    rules = est.rules_
    for frame in (X, new):
        encoded = est.encoder_.transform(frame.to_numpy(dtype=object))
        full = rules.cover(encoded).toarray()
        lo, hi = np.full_like(rules.lo, -np.inf), np.full_like(rules.hi, np.inf)
        for r, rule in enumerate(rules):
            for f, low, high in rule.shown_conditions():
                lo[r, f], hi[r, f] = low, high
        printed = Candidates(lo, hi, rules.labels, rules.covers, rules.accuracy,
                             rules.feature_names, rules.class_names).cover(encoded).toarray()
        assert (printed == full).all()


def test_several_exclusions_of_one_column_print_as_one_set():
    """``s != NY AND s != CA`` prints ``s not in {CA, NY}`` (where the first of them
    stood), a single exclusion and ``s is not missing`` print as they are, and a rule with
    ``s = TX`` prints that alone (the rest implied)."""
    names = ("s=NY", "age", "s=CA", "s=<missing>", "t=a", "s=TX")
    indicators = {0: ("s", "NY"), 2: ("s", "CA"), 3: ("s", "<missing>"), 4: ("t", "a"),
                  5: ("s", "TX")}
    ne, eq = (-np.inf, 0.0), (0.0, np.inf)

    def text(*conditions):
        return MinedRule(tuple(conditions), 1, names, ("no", "yes"), indicators).body()

    assert text((0, *ne), (1, 3.0, np.inf), (2, *ne), (3, *ne), (4, *ne)) == \
        "s not in {CA, NY} AND age > 3 AND s is not missing AND t != a"
    assert text((0, *ne), (1, 3.0, np.inf)) == "s != NY AND age > 3"
    assert text((0, *ne), (2, *ne), (5, *eq)) == "s = TX"


def test_candidates_index_by_int_or_slice():
    """Candidates (a CDPR model's ``rules_``) sliced give candidates (``rules_[:3]``: the
    first three), an int gives one rule (negative from the end), and anything else a
    TypeError that names what indexes them."""
    X, y = load_breast_cancer(return_X_y=True)
    cands = mine_rules(X, y, miner="gbdt", n_estimators=3, max_depth=2, random_state=0)
    first = cands[:3]
    assert isinstance(first, Candidates) and len(first) == 3
    assert [str(r) for r in first] == [str(cands[i]) for i in range(3)]
    assert str(cands[-1]) == str(cands[len(cands) - 1])
    assert str(cands[np.int64(1)]) == str(cands[1])
    assert len(cands[::2]) == (len(cands) + 1) // 2 and len(cands[len(cands):]) == 0
    with pytest.raises(IndexError):
        cands[len(cands)]
    with pytest.raises(TypeError, match="an int or a slice"):
        cands[np.array([0, 1])]
    with pytest.raises(TypeError, match="an int or a slice"):
        cands[True]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16), n_rules=st.integers(1, 12), n_features=st.integers(1, 5),
       n_samples=st.integers(0, 60))
def test_the_three_cover_paths_agree_with_the_intervals(seed, n_rules, n_features,
                                                        n_samples):
    """``Candidates.cover`` reads the same rows through its dense, by-rule and sorted paths:
    the rows with ``lo < x <= hi`` on every constrained feature, a missing value failing
    its feature's conditions; on values with ties, bounds equal to values, and rules
    without conditions."""
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 6, (n_samples, n_features)).astype(float)
    X[rng.random(X.shape) < 0.1] = np.nan
    lo = np.where(rng.random((n_rules, n_features)) < 0.5, -np.inf,
                  rng.integers(-1, 6, (n_rules, n_features)).astype(float))
    hi = np.where(rng.random((n_rules, n_features)) < 0.5, np.inf,
                  lo + rng.integers(0, 4, (n_rules, n_features)))
    cands = Candidates(lo, hi, np.zeros(n_rules, dtype=int),
                       sp.csr_matrix((n_rules, n_samples), dtype=bool), np.ones(n_rules),
                       [f"x{f}" for f in range(n_features)], ["a", "b"])
    with np.errstate(invalid="ignore"):
        truth = np.all((X[None] > lo[:, None]) & (X[None] <= hi[:, None])
                       | ~(np.isfinite(lo) | np.isfinite(hi))[:, None], axis=2)
    for cells, passes in [(1 << 22, 0), (0, 10**9), (0, 0)]:   # dense, by rule, sorted
        with pytest.MonkeyPatch.context() as m:
            m.setattr(mining, "_DENSE_CELLS", cells)
            m.setattr(mining, "_PASSES_PER_SORT", passes)
            np.testing.assert_array_equal(cands.cover(X).toarray(), truth)
