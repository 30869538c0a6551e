"""Row weights in IMLI and IMLIB (``sample_weight``, ``class_weight``).

Every count the learners make becomes a weight sum: polishing and pruning (checked by
brute force over every move, with the weighted sign test), the class order (checked
over every order), the null test, the region counts behind ``predict_proba`` (checked
row by row); equal weights give the unweighted fit bit for bit, and rows of weight 0
are the same as rows left out.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from satrules import IMLIBClassifier, IMLIClassifier
from satrules.backends.registry import available_backends
from satrules.estimators._base import _ordered_predict, choose_class_order
from satrules.estimators._polish import polish_rules, prune_rules, significant
from satrules.estimators._weights import fit_weights, partition_weights
from tests.estimators.test_polish import _instances, _neighbours, _parts_pass
from tests.estimators.test_proba import table

BACKEND = "rc2" if "rc2" in available_backends() else "auto"
LEARNERS = [IMLIClassifier, IMLIBClassifier]


def fast(make, **params):
    return make(backend=BACKEND, n_thresholds=3, random_state=0, **params)


def quiet_fit(est, X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, y, **kw)


# --------------------------------------------------------------------- polishing
def _weighted_objective(rules, X, y, lam, w):
    return lam * float(w[rules.evaluate(X) != y].sum()) + rules.n_literals


@settings(max_examples=150, deadline=None)
@given(_instances(), st.sampled_from([0.0, 1.0, 2.0]), st.booleans(), st.data())
def test_weighted_polish_is_a_local_optimum_and_never_worse(instance, min_z, replace, data):
    """With weights, no move that passes the weighted sign test lowers the weighted
    objective any further (every move tried by brute force).  Weights such as 0.1 are
    not exact binary fractions: a sum of squares computed as a difference can then fall
    a rounding error below 0, which must neither warn nor fail a move that flips no row."""
    X, y, start, lam, max_literals, max_rules = instance
    w = np.array(data.draw(st.lists(st.sampled_from([0.25, 1.0, 3.0, 0.1, 0.7]),
                                    min_size=len(y), max_size=len(y))))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        polished = polish_rules(start, X, y, lam, max_literals=max_literals,
                                max_rules=max_rules, min_z=min_z, replace=replace,
                                sample_weight=w)
    value = _weighted_objective(polished, X, y, lam, w)
    assert value <= _weighted_objective(start, X, y, lam, w) + 1e-9
    now = polished.evaluate(X)
    for other in _neighbours(polished, X.shape[1], max_literals, max_rules, replace):
        if _weighted_objective(other, X, y, lam, w) < value - 1e-9:
            flipped = other.evaluate(X) != now
            fixed, broken = flipped & (now != y), flipped & (now == y)
            assert not significant(w[fixed].sum(), w[broken].sum(), min_z,
                                   variance=(w[flipped] ** 2).sum()), other


@settings(max_examples=100, deadline=None)
@given(_instances(), st.data())
def test_integer_weights_polish_like_repeated_rows(instance, data):
    """Without the sign test (min_z = 0), a row of weight k polishes like k copies of it."""
    X, y, start, lam, max_literals, max_rules = instance
    k = np.array(data.draw(st.lists(st.integers(1, 3), min_size=len(y), max_size=len(y))))
    weighted = polish_rules(start, X, y, lam, max_literals=max_literals, max_rules=max_rules,
                            replace=True, sample_weight=k.astype(float))
    repeated = polish_rules(start, np.repeat(X, k, axis=0), np.repeat(y, k), lam,
                            max_literals=max_literals, max_rules=max_rules, replace=True)
    assert weighted == repeated


@settings(max_examples=100, deadline=None)
@given(_instances(), st.data())
def test_weighted_prune_keeps_only_significant_parts(instance, data):
    """After weighted pruning every rule and literal passes the weighted sign test on the
    rows it changes (brute force)."""
    X, y, start, *_ = instance
    w = np.array(data.draw(st.lists(st.sampled_from([0.5, 1.0, 4.0]), min_size=len(y),
                                    max_size=len(y))))
    pruned = prune_rules(start, X, y, 2.0, sample_weight=w)
    assert _parts_pass(pruned, X, y, 2.0, "exact", w)


def test_weighted_sign_test_counts_a_heavy_row_once():
    """A row of weight 6 is one observation: it alone never passes, six rows of 1 do."""
    assert not significant(6.0, 0.0, 2.0, variance=36.0)
    assert significant(6.0, 0.0, 2.0, variance=6.0)


# ------------------------------------------------------------------ class order
@settings(max_examples=100, deadline=None)
@given(st.integers(2, 4).flatmap(lambda c: st.tuples(
    st.just(c),
    st.lists(st.tuples(st.lists(st.booleans(), min_size=c, max_size=c),
                       st.integers(0, c - 1), st.sampled_from([0.5, 1.0, 2.5])),
             min_size=1, max_size=25))))
def test_weighted_class_order_is_the_best_over_every_order(case):
    n_classes, rows = case
    fires = np.array([r[0] for r in rows], dtype=bool)
    y = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows])
    order, default = choose_class_order(fires, y, np.bincount(y, minlength=n_classes), w)
    got = w[_ordered_predict(fires, order, default) == y].sum()
    best = max(w[_ordered_predict(fires, np.array(p), d) == y].sum()
               for p in itertools.permutations(range(n_classes)) for d in range(n_classes))
    assert got == pytest.approx(best)


# ------------------------------------------------------------------- estimators
@pytest.mark.parametrize("make", LEARNERS)
def test_equal_weights_give_the_unweighted_fit(make):
    X, y = table(1, 120, 2, 0.2)
    plain = quiet_fit(fast(make), X, y)
    for kw in ({"sample_weight": np.full(len(y), 2.5)},
               {"sample_weight": 3}):
        est = quiet_fit(fast(make), X, y, **kw)
        assert est.to_text() == plain.to_text() and not est.weighted_
    est = quiet_fit(fast(make, class_weight={"k0": 2, "k1": 2}), X, y)
    assert est.to_text() == plain.to_text()
    assert np.array_equal(est.region_counts_, plain.region_counts_)


@pytest.mark.parametrize("make", LEARNERS)
def test_rows_of_weight_zero_are_rows_left_out(make):
    X, y = table(2, 120, 2, 0.2)
    w = np.where(np.arange(len(y)) % 3 == 0, 0.0, 1.0)
    keep = w > 0
    weighted = quiet_fit(fast(make), X, y, sample_weight=w)
    dropped = quiet_fit(fast(make), X[keep], y[keep])
    assert weighted.to_text() == dropped.to_text()
    assert np.array_equal(weighted.predict(X), dropped.predict(X))


def rare_class_table():
    """400 rows, 40 of class "rare"; x0 holds on all of them and on 60 others."""
    rng = np.random.default_rng(0)
    y = np.array(["common"] * 360 + ["rare"] * 40)
    x0 = np.r_[np.ones(60), np.zeros(300), np.ones(40)]
    X = pd.DataFrame({"x0": x0, "noise": rng.integers(0, 2, 400)})
    return X, y


@pytest.mark.parametrize("make", LEARNERS)
def test_balanced_weights_find_a_rare_class(make):
    """Unweighted, x0 costs 60 errors where predicting "common" costs 40, so no rule;
    balanced, a rare row weighs 9 common ones and the rule x0 is learned."""
    X, y = rare_class_table()
    plain = quiet_fit(fast(make), X, y)
    assert (plain.predict(X) == "common").all()
    balanced = quiet_fit(fast(make, class_weight="balanced"), X, y)
    assert balanced.weighted_
    assert np.array_equal(balanced.predict(X) == "rare", X["x0"].to_numpy() == 1)
    # the same through sample_weight
    w = np.where(y == "rare", 9.0, 1.0)
    assert np.array_equal(quiet_fit(fast(make), X, y, sample_weight=w).predict(X),
                          balanced.predict(X))


@pytest.mark.parametrize("make", LEARNERS)
@given(seed=st.integers(0, 10**6), noise=st.sampled_from([0.0, 0.2, 0.4]),
       n_classes=st.sampled_from([2, 3]))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_weighted_fit_is_never_worse_than_a_constant_and_proba_uses_weights(
        make, seed, noise, n_classes):
    """The weighted training objective is at most that of predicting one class (binary);
    predict_proba reads the weight sums of each region's rows, and a binary fit predicts
    its most probable class."""
    X, y = table(seed, 90, n_classes, noise)
    rng = np.random.default_rng(seed)
    w = rng.choice([0.5, 1.0, 4.0], len(y))
    est = quiet_fit(fast(make, n_rules=2), X, y, sample_weight=w)
    scaled = w / w.mean()
    pred = est.predict(X)
    if n_classes == 2:
        errors = scaled[pred != y].sum()
        constant = min(scaled[y != c].sum() for c in est.classes_)
        assert est.data_fidelity * errors + est.rules_.n_literals <= \
            est.data_fidelity * constant + 1e-9
        assert (est.classes_[est.predict_proba(X).argmax(axis=1)] == pred).all()
    regions = est._regions(est._evaluate(est.binarizer_.transform(X)))
    for r in range(est._n_regions()):
        for k, c in enumerate(est.classes_):
            assert est.region_counts_[r, k] == pytest.approx(scaled[(regions == r) &
                                                                    (y == c)].sum())


@pytest.mark.parametrize("make", LEARNERS)
def test_weighted_model_survives_a_file(make, tmp_path):
    X, y = rare_class_table()
    est = quiet_fit(fast(make, class_weight="balanced"), X, y)
    path = tmp_path / "model.json"
    est.save(path)
    loaded = type(est).load(path)
    assert np.allclose(loaded.predict_proba(X), est.predict_proba(X))


@pytest.mark.parametrize("bad, match", [
    ({"class_weight": "equal"}, "class_weight must be None, 'balanced' or a dict"),
    ({"class_weight": {"k0": -1}}, r"class_weight\['k0'\] must be a non-negative number"),
    ({"class_weight": {"k9": 2}}, "class_weight names 'k9', not a class of y"),
])
def test_bad_class_weight_is_refused(bad, match):
    X, y = table(0, 40, 2, 0.0)
    with pytest.raises(ValueError, match=match):
        fast(IMLIClassifier, **bad).fit(X, y)


@pytest.mark.parametrize("weights, match", [
    (np.r_[1.0, -1.0, np.ones(38)], "sample_weight must be non-negative and finite; row 1"),
    (np.r_[np.nan, np.ones(39)], "row 0 has nan"),
    (np.ones(39), "sample_weight must hold 40 numbers"),
    (np.array(["a"] * 40), "sample_weight must hold 40 numbers"),
    (np.zeros(40), "weights are all zero"),
])
def test_bad_sample_weight_is_refused(weights, match):
    X, y = table(0, 40, 2, 0.0)
    with pytest.raises(ValueError, match=match):
        fast(IMLIBClassifier).fit(X, y, sample_weight=weights)


def test_weight_helpers():
    y_idx = np.array([0, 0, 0, 1])
    assert fit_weights(np.array([0, 1]), y_idx, None, None) is None
    assert fit_weights(np.array([0, 1]), y_idx, None, {1: 3}).tolist() == [1, 1, 1, 3]
    assert partition_weights(np.array([1.0, 0.004, 2.346])).tolist() == [100, 1, 235]
