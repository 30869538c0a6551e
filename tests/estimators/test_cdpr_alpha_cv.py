"""``CDPRClassifier(alpha="cv")``: the minimum rule accuracy chosen by cross-validation.

The scores ``alpha_cv_`` are recomputed here through the public API: on numeric data
without missing values the column encoder is the identity, so a fold of the
cross-validation is a plain fit on the fold's training rows, seeded as the estimator
seeds it (the fold split takes the first number of the generator, each fold's fit the
numbers after it).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.model_selection import StratifiedKFold

from satrules import CDPRClassifier
from satrules.estimators.cdpr import ALPHA_GRID, CV_SMALL_FOLDS, CV_SMALL_ROWS

SMALL = {"n_estimators": 8, "max_depth": 3}


def wine():
    X, y = load_wine(return_X_y=True)
    return X, y


def seeded_after_one_draw(seed: int) -> np.random.RandomState:
    rng = np.random.RandomState(seed)
    rng.randint(2**31 - 1)
    return rng


@pytest.mark.parametrize("method, n_folds, step", [("gra", 3, 1), ("local", 3, 1),
                                                    ("gra", 5, 1), ("gra", 10, 2)])
def test_cv_scores_are_held_out_accuracies_of_fixed_alpha_fits(method, n_folds, step):
    """The scores and the held-out counts, recomputed from fixed-alpha fits on the folds
    (5 folds: the ``_cv_folds`` experiment hook; 10 folds: the default on 150 training
    rows or fewer, here every second row of wine's 178)."""
    X, y = wine()
    X, y = X[::step], y[::step]
    default = CV_SMALL_FOLDS if len(y) <= CV_SMALL_ROWS else CDPRClassifier._cv_folds
    cls = CDPRClassifier if n_folds == default else type(
        "Folds", (CDPRClassifier,), {"_cv_folds": n_folds})
    clf = cls(alpha="cv", method=method, random_state=3, **SMALL).fit(X, y)
    fold_seed = np.random.RandomState(3).randint(2**31 - 1)
    folds = StratifiedKFold(n_folds, shuffle=True, random_state=int(fold_seed))
    right = dict.fromkeys(ALPHA_GRID, 0)
    out_of_fold = {alpha: np.empty_like(y) for alpha in ALPHA_GRID}
    constant = np.empty_like(y)
    for train, test in folds.split(X, y):
        constant[test] = np.bincount(y[train]).argmax()
        for alpha in ALPHA_GRID:
            fold = CDPRClassifier(alpha=alpha, method=method, random_state=seeded_after_one_draw(3),
                                  null_test=False, **SMALL).fit(X[train], y[train])
            out_of_fold[alpha][test] = fold.predict(X[test])
            right[alpha] += int((fold.predict(X[test]) == y[test]).sum())
    assert clf.alpha_cv_ == pytest.approx({a: right[a] / len(y) for a in ALPHA_GRID}, abs=1e-12)
    best = max(clf.alpha_cv_.values())
    assert clf.alpha_cv_[clf.alpha_] == best
    assert len(set(clf.alpha_cv_.values())) > 1   # the values do tell apart on this data
    # the held-out null test counts the chosen value's out-of-fold predictions
    right_now = out_of_fold[clf.alpha_] == y
    held_out = clf.null_test_["held_out"]
    assert held_out["fixed"] == int(np.sum(right_now & (constant != y)))
    assert held_out["broken"] == int(np.sum(~right_now & (constant == y)))
    assert held_out["constant_accuracy"] == pytest.approx(np.mean(constant == y))
    assert held_out["passed"] and clf.null_test_["passed"] and len(clf.rules_) > 0


def test_the_final_fit_is_the_fit_with_the_chosen_alpha():
    X, y = wine()
    clf = CDPRClassifier(alpha="cv", random_state=0, **SMALL).fit(X, y)
    fixed = CDPRClassifier(alpha=clf.alpha_, random_state=0, **SMALL).fit(X, y)
    assert str(clf.rules_) == str(fixed.rules_)
    assert clf.default_ == fixed.default_
    np.testing.assert_array_equal(clf.region_counts_, fixed.region_counts_)
    np.testing.assert_array_equal(clf.predict(X), fixed.predict(X))
    assert fixed.alpha_ == clf.alpha_ and fixed.alpha_cv_ is None


def test_ties_go_to_the_value_nearest_the_default_then_the_lower():
    # one feature tells the classes apart: every rule is exact, whatever alpha
    X = np.repeat(np.arange(12.0), 5)[:, None]
    y = (X[:, 0] >= 6).astype(int)
    clf = CDPRClassifier(alpha="cv", random_state=0, **SMALL).fit(X, y)
    assert set(clf.alpha_cv_.values()) == {1.0}
    assert clf.alpha_ == 0.7
    assert CDPRClassifier(alpha=[0.9, 0.5], random_state=0, **SMALL).fit(X, y).alpha_ == 0.5
    assert CDPRClassifier(alpha=[0.9, 0.8], random_state=0, **SMALL).fit(X, y).alpha_ == 0.8


def test_a_list_of_one_value_is_that_value():
    X, y = wine()
    one = CDPRClassifier(alpha=[0.8], random_state=0, **SMALL).fit(X, y)
    fixed = CDPRClassifier(alpha=0.8, random_state=0, **SMALL).fit(X, y)
    assert one.alpha_ == 0.8 and one.alpha_cv_ is None
    assert str(one.rules_) == str(fixed.rules_)


@pytest.mark.parametrize("alpha", ["auto", [], [1.5], [0.7, True], -0.1, 2, "0.7", [[0.7]]])
def test_a_bad_alpha_is_refused(alpha):
    X, y = wine()
    with pytest.raises(ValueError, match="alpha must be a number in"):
        CDPRClassifier(alpha=alpha).fit(X, y)


def test_a_class_of_one_row_falls_back_with_a_warning():
    X, y = wine()
    y = y.copy()
    y[0] = 7   # a class with a single row
    with pytest.warns(UserWarning, match="a single training row, too few to cross-validate"):
        clf = CDPRClassifier(alpha="cv", random_state=0, **SMALL).fit(X, y)
    assert clf.alpha_ == 0.7 and clf.alpha_cv_ is None


def test_weighted_cv_scores_weigh_the_held_out_rows():
    X, y = wine()
    plain = CDPRClassifier(alpha="cv", random_state=0, **SMALL).fit(X, y)
    weighted = CDPRClassifier(alpha="cv", class_weight={0: 5}, random_state=0,
                              **SMALL).fit(X, y)
    assert weighted.weighted_ and set(weighted.alpha_cv_) == set(ALPHA_GRID)
    assert all(0 <= v <= 1 for v in weighted.alpha_cv_.values())
    assert weighted.alpha_cv_ != plain.alpha_cv_


def test_a_cv_fit_survives_a_file(tmp_path):
    X, y = wine()
    clf = CDPRClassifier(alpha="cv", random_state=0, **SMALL).fit(X, y)
    back = CDPRClassifier.load(clf.save(tmp_path / "rules.json"))
    assert back.alpha == "cv" and back.alpha_ == clf.alpha_
    assert back.alpha_cv_ == clf.alpha_cv_
    np.testing.assert_array_equal(back.predict(X), clf.predict(X))


def test_the_exact_method_cross_validates_with_its_local_search():
    X, y = wine()
    exact = CDPRClassifier(alpha="cv", method="exact", backend="rc2", random_state=1,
                           **SMALL).fit(X, y)
    local = CDPRClassifier(alpha="cv", method="local", random_state=1, **SMALL).fit(X, y)
    assert exact.alpha_cv_ == local.alpha_cv_ and exact.alpha_ == local.alpha_
    fixed = CDPRClassifier(alpha=exact.alpha_, method="exact", backend="rc2", random_state=1,
                           **SMALL).fit(X, y)
    assert exact.result_.status.value == "OPTIMAL"
    assert str(exact.rules_) == str(fixed.rules_)


def test_large_training_sets_cross_validate_on_a_sample(monkeypatch):
    """Above CV_MAX_ROWS rows the scores are held-out accuracies on a sample of that size
    (so each is a multiple of 1/sample size) that keeps at least 3 rows of every class."""
    import satrules.estimators.cdpr as cdpr

    X, y = wine()
    y = y.copy()
    y[:4] = 3   # a class of 4 rows: its share of a 60-row sample would be 1
    full = CDPRClassifier(alpha="cv", random_state=0, **SMALL).fit(X, y)
    monkeypatch.setattr(cdpr, "CV_MAX_ROWS", 60)
    sampled = CDPRClassifier(alpha="cv", random_state=0, **SMALL).fit(X, y)
    sizes = {n for n in range(58, 64)
             if all(abs(v * n - round(v * n)) < 1e-9 for v in sampled.alpha_cv_.values())}
    assert sizes and max(sizes) <= 63
    assert sampled.alpha_cv_ != full.alpha_cv_
    rows = cdpr._class_sample(y, 60, 3, np.random.RandomState(0))
    assert np.all(np.diff(rows) > 0) and np.bincount(y[rows]).min() >= 3
    assert abs(len(rows) - 60) <= 3


def test_rules_that_fail_on_held_out_rows_are_turned_down():
    """On labels independent of the features, rules chosen on the training rows can pass
    the training-row null test (alpha=0.9: 15 fixed, 0 broken); out of fold they get as
    many rows wrong as right, and alpha="cv" turns them down (as the held-out test of a
    fixed alpha turns down those of 0.9)."""
    from satrules.report import rules_text

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = np.where(rng.random(300) < 0.62, "no", "yes")
    params = dict(gamma=6, n_estimators=10, max_depth=3, random_state=0, miner="gbdt")
    strict = CDPRClassifier(alpha=0.9, **params).fit(X, y)
    assert strict.null_test_["fixed"] == 15 and strict.null_test_["broken"] == 0
    assert strict.null_test_["training_passed"] and not strict.null_test_["passed"]
    assert strict.held_out_test_ == strict.null_test_["held_out"]
    assert len(strict.rules_) == 0
    clf = CDPRClassifier(alpha="cv", **params).fit(X, y)
    verdict = clf.null_test_
    assert verdict["training_passed"] and not verdict["held_out"]["passed"]
    fixed, broken = verdict["held_out"]["fixed"], verdict["held_out"]["broken"]
    assert fixed / (fixed + broken) < 0.6   # about as many rows broken as fixed
    assert not verdict["passed"] and len(clf.rules_) == 0 and len(clf.rejected_rules_) > 0
    assert (clf.predict(X) == "no").all()
    assert "on the rows held out in a cross-validation" in rules_text(clf)
    kept = CDPRClassifier(alpha="cv", null_test=False, **params).fit(X, y)
    assert kept.null_test_ is None and len(kept.rules_) > 0


def test_held_out_level_moves_only_the_held_out_verdict():
    """``_held_out_significance`` (an experiment hook) sets the held-out test's level
    alone: the same folds give the same counts, and the verdict follows
    :func:`~satrules.estimators._polish.significant` at that level, with the
    training-row test unchanged."""
    from satrules.estimators._polish import significant

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = np.where(rng.random(300) < 0.62, "no", "yes")
    params = dict(gamma=6, n_estimators=10, max_depth=3, random_state=0, miner="gbdt")
    default = CDPRClassifier(alpha="cv", **params).fit(X, y)
    lenient = type("Lenient", (CDPRClassifier,), {"_held_out_significance": 0.0})(
        alpha="cv", **params).fit(X, y)
    held, again = default.null_test_["held_out"], lenient.null_test_["held_out"]
    assert (held["fixed"], held["broken"]) == (again["fixed"], again["broken"])
    assert held["fixed"] > held["broken"]   # so z = 0 passes where z = 2 does not
    assert not held["passed"] and again["passed"]
    assert again["passed"] == bool(significant(again["fixed"], again["broken"], 0.0))
    assert default.null_test_["training_passed"] == lenient.null_test_["training_passed"]
    assert lenient.null_test_["passed"] and len(lenient.rules_) > 0
    assert lenient.alpha_ == default.alpha_
