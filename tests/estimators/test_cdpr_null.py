"""CDPRClassifier's null test: the selection must beat the constant default class."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer

from satrules.estimators._polish import significant
from satrules.estimators.cdpr import CDPRClassifier
from satrules.report import rules_text
from satrules.serialization import dumps, loads


def _small(**kw):
    # a fixed alpha: cross-validated, the null test's verdict in the folds would choose it;
    # the exact-split miner, whose rules these scenarios were built on
    params = dict(n_estimators=10, max_depth=3, gamma=6, random_state=0, alpha=0.7,
                  miner="gbdt")
    params.update(kw)
    return CDPRClassifier(**params)


def _noise(n=300, seed=0):
    """Labels independent of the features (62 % 'no'): any rule fitting them is noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = np.where(rng.random(n) < 0.62, "no", "yes")
    return X, y


def _counts(clf, X, y, constant):
    """Training rows the classifier gets right and ``constant`` wrong, and the converse."""
    right, right_before = clf.predict(X) == y, y == constant
    return int(np.sum(right & ~right_before)), int(np.sum(~right & right_before))


def _training(test):
    """The training-row part of a ``null_test_`` record (its ``held_out`` part aside)."""
    return {"fixed": test["fixed"], "broken": test["broken"],
            "passed": test.get("training_passed", test["passed"])}


def test_noise_rules_are_turned_down():
    """On labels independent of the features the mined rules fit the training rows a little
    better than the majority class, but not significantly: the classifier predicts the
    majority class everywhere, keeps the selection in ``rejected_rules_`` and says so."""
    X, y = _noise()
    kept = _small(null_test=False).fit(X, y)
    assert len(kept.rules_) > 0 and kept.score(X, y) > np.mean(y == "no")
    fixed, broken = _counts(kept, X, y, "no")

    clf = _small().fit(X, y)
    assert _training(clf.null_test_) == {"fixed": fixed, "broken": broken, "passed": False}
    assert not significant(fixed, broken, 2.0) and not clf.null_test_["passed"]
    assert len(clf.rules_) == 0 and clf.coverage_rate(X) == 0.0
    assert len(clf.rejected_rules_) == len(kept.rules_)
    assert str(clf.rejected_rules_) == str(kept.rules_)
    assert clf.default_ == "no" and np.all(clf.predict(X) == "no")
    text = rules_text(clf)
    assert text.startswith("Always no:") and "null_test=False keeps them" in text


def test_real_rules_pass():
    """On breast cancer the selection is far better than the majority class: it is kept,
    and the recorded counts are those of its training predictions."""
    X, y = load_breast_cancer(return_X_y=True)
    clf = _small().fit(X, y)
    majority = int(np.bincount(y).argmax())
    fixed, broken = _counts(clf, X, y, majority)
    assert _training(clf.null_test_) == {"fixed": fixed, "broken": broken, "passed": True}
    assert clf.null_test_["held_out"]["passed"] and clf.null_test_["passed"]
    assert clf.null_test_["held_out"]["fixed"] > 100
    assert fixed > 100 and clf.rejected_rules_ is None and len(clf.rules_) > 0
    assert np.array_equal(clf.predict(X), _small(null_test=False).fit(X, y).predict(X))


def test_constant_is_the_given_default_class():
    """With ``default_class`` the null test compares against that class: against the
    minority class "yes", rules predicting "no" fix many rows and pass."""
    X, y = _noise()
    fixed, broken = _counts(_small(default_class="yes", null_test=False).fit(X, y), X, y, "yes")
    tested = _small(default_class="yes").fit(X, y)
    assert _training(tested.null_test_) == {"fixed": fixed, "broken": broken, "passed": True}
    assert tested.null_test_["passed"] and tested.null_test_["held_out"]["passed"]
    assert fixed > broken + 30 and len(tested.rules_) > 0


def test_rules_that_fix_almost_nothing_are_turned_down():
    """One "yes" row among 299 "no": a rule isolating it fixes one row and is turned down."""
    X, _ = _noise()
    y = np.array(["yes"] + ["no"] * (len(X) - 1))
    clf = _small(alpha=0.9).fit(X, y)
    # a class of one row: nothing to hold out, the training-row test alone
    assert clf.null_test_ == {"fixed": 1, "broken": 0, "passed": False}
    assert clf.held_out_test_ is None
    assert len(clf.rules_) == 0 and np.all(clf.predict(X) == "no")


def test_rules_that_change_nothing_are_turned_down():
    """Rules whose training predictions all equal the constant's (stumps cannot isolate a
    "yes" row at the centre of the data, so every rule says "no") are turned down too, as
    in the IMLI and IMLIB estimators."""
    X, _ = _noise()
    X[0] = 0.0
    y = np.array(["yes"] + ["no"] * (len(X) - 1))
    clf = _small(alpha=0.9, max_depth=1).fit(X, y)
    assert set(clf.rejected_rules_.labels.tolist()) == {0}      # every rule says "no"
    assert clf.null_test_ == {"fixed": 0, "broken": 0, "passed": False}
    assert len(clf.rules_) == 0 and rules_text(clf).startswith("Always no:")


@pytest.mark.parametrize("off", [{"null_test": False}, {"significance": 0}])
def test_off(off):
    """``null_test=False`` or ``significance=0`` turns the test off."""
    X, y = _noise()
    clf = _small(**off).fit(X, y)
    assert clf.null_test_ is None and clf.rejected_rules_ is None and len(clf.rules_) > 0


@pytest.mark.parametrize("params, match", [
    ({"null_test": "yes"}, "null_test must be True or False"),
    ({"significance": -1}, "significance must be a finite number >= 0"),
    ({"significance": float("nan")}, "significance must be a finite number >= 0"),
    ({"significance": True}, "significance must be a finite number >= 0"),
    ({"sign_test": "t"}, "sign_test must be one of"),
])
def test_bad_parameters_are_named(params, match):
    X, y = _noise(60)
    with pytest.raises(ValueError, match=match):
        _small(**params).fit(X, y)


def test_rejected_model_round_trips_through_a_rule_file():
    """A model whose selection was turned down saves and loads with the same predictions,
    text and null-test record."""
    X, y = _noise()
    clf = _small().fit(X, y)
    back = loads(dumps(clf))
    assert back.null_test_ == clf.null_test_
    assert str(back.rejected_rules_) == str(clf.rejected_rules_)
    assert np.array_equal(back.predict(X), clf.predict(X))
    assert rules_text(back) == rules_text(clf)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), n=st.integers(20, 120), p=st.floats(0.2, 0.8),
       signal=st.booleans(), method=st.sampled_from(["gra", "gdy"]))
def test_never_worse_than_the_constant_on_training_rows(seed, n, p, signal, method):
    """With the null test on, the training accuracy is at least that of predicting the
    majority class for every row (strictly more whenever a rule is kept)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = rng.random(n) < p
    if signal:
        y ^= X[:, 0] > 0.5
    if y.all() or not y.any():
        y[0] = not y[0]
    clf = CDPRClassifier(n_estimators=5, max_depth=2, gamma=4, method=method,
                         random_state=seed).fit(X, y)
    constant = np.mean(y == np.bincount(y.astype(int)).argmax())
    accuracy = clf.score(X, y)
    assert accuracy >= constant
    if len(clf.rules_):   # the selection passed, or its first rules did
        kept = clf.null_test_ if clf.rejected_rules_ is None else clf.null_test_["prefix"]
        assert accuracy > constant and kept["passed"]


def _one_real_rule(n=200, seed=3):
    """One real region (``x0 > 0.8``: 85 % "yes" against 30 % elsewhere) among noise: the
    default GRA selection of 10 rules fails the held-out test, its first rule passes."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    y = np.where(np.where(X[:, 0] > 0.8, rng.random(n) < 0.85, rng.random(n) < 0.3),
                 "yes", "no")
    return X, y


def test_first_rules_kept_when_the_whole_selection_fails():
    """A turned-down greedy selection's first rules are kept when they pass both tests,
    with the default class of the rows they leave uncovered."""
    X, y = _one_real_rule()
    clf = CDPRClassifier(n_estimators=20, random_state=0).fit(X, y)
    verdict, first = clf.null_test_, clf.null_test_["prefix"]
    assert not verdict["passed"] and not verdict["held_out"]["passed"]
    assert first["passed"] and first["training_passed"] and first["held_out"]["passed"]
    k = first["rules"]
    assert 0 < k < len(clf.rejected_rules_) and k == clf.held_out_test_["prefix"]
    assert str(clf.rules_) == str(clf.rejected_rules_[:k])
    # the first rules as a classifier of their own: same predictions, same default
    alone = copy.copy(clf)
    alone.rules_ = clf.rejected_rules_[:k]
    covered = np.asarray(alone.rule_covers(X).sum(axis=0)).ravel() > 0
    values, counts = np.unique(y[~covered], return_counts=True)
    assert clf.default_ == values[counts.argmax()]
    constant = "no"
    fixed, broken = _counts(clf, X, y, constant)
    assert (fixed, broken) == (first["fixed"], first["broken"]) and fixed > broken
    text = rules_text(clf)
    assert text.startswith("IF ") and f"the first {k} of the {len(clf.rejected_rules_)}" in text
    back = loads(dumps(clf))
    assert back.null_test_ == clf.null_test_ and np.array_equal(back.predict(X),
                                                                clf.predict(X))


def test_first_rules_not_tried_without_a_greedy_order_or_when_off():
    """The exact and local methods' selections have no pick order, and the experiment
    switch turns the prefixes off: the whole selection is turned down as before."""
    X, y = _one_real_rule()
    for clf in (CDPRClassifier(n_estimators=20, random_state=0, method="local"),
                type("NoPrefixes", (CDPRClassifier,), {"_held_out_prefixes": False})(
                    n_estimators=20, random_state=0)):
        clf.fit(X, y)
        assert "prefix" not in (clf.null_test_ or {})
        assert clf.held_out_test_ is None or "prefix" not in clf.held_out_test_
        if clf.rejected_rules_ is not None:
            assert len(clf.rules_) == 0


def test_held_out_prefix_choice():
    """Among the first-k predictions that pass the held-out test, the most accurate wins,
    ties to fewer rules; none passing gives no prefix."""
    labels = np.array(["a"] * 30 + ["b"] * 30)
    constant = np.full(60, "a")
    full = constant.copy()                      # the whole selection: no better
    good = labels.copy()                        # every row right
    worse = labels.copy()
    worse[30:40] = "a"                          # 20 of 30 "b" rows right
    folds = [(np.arange(0, 30), {1: worse[:30], 2: good[:30], 3: good[:30]}),
             (np.arange(30, 60), {1: worse[30:], 2: good[30:], 3: good[30:]})]
    clf = CDPRClassifier()
    chosen = clf._held_out_prefix(folds, full, labels, constant, 2.0, None)
    assert chosen["prefix"] == 2 and chosen["prefix_test"]["accuracy"] == 1.0
    assert chosen["prefix_test"]["fixed"] == 30 and chosen["prefix_test"]["broken"] == 0
    nothing = [(test, {1: constant[test]}) for test, _ in folds]
    assert clf._held_out_prefix(nothing, full, labels, constant, 2.0, None) == {}


def test_text_when_the_first_rules_fail_too():
    """When the first rules were tried and failed as well, the text says so."""
    X, y = _one_real_rule()
    clf = CDPRClassifier(n_estimators=20, random_state=0).fit(X, y)
    k = clf.null_test_["prefix"]["rules"]
    clf.null_test_["prefix"]["passed"] = False          # as if the training test failed
    clf.rules_, clf.default_ = clf.rejected_rules_[:0], "no"
    assert rules_text(clf) == (
        f"Always no: the {len(clf.rejected_rules_)} rules selected were not significantly "
        "better on the rows held out in a cross-validation than predicting no for every "
        f"row, nor were the first {k}; null_test=False keeps them.")
