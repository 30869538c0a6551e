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
from satrules.estimators.cdpr import ALPHA_GRID

SMALL = {"n_estimators": 8, "max_depth": 3}


def wine():
    X, y = load_wine(return_X_y=True)
    return X, y


def seeded_after_one_draw(seed: int) -> np.random.RandomState:
    rng = np.random.RandomState(seed)
    rng.randint(2**31 - 1)
    return rng


@pytest.mark.parametrize("method", ["gra", "local"])
def test_cv_scores_are_held_out_accuracies_of_fixed_alpha_fits(method):
    X, y = wine()
    clf = CDPRClassifier(alpha="cv", method=method, random_state=3, **SMALL).fit(X, y)
    fold_seed = np.random.RandomState(3).randint(2**31 - 1)
    folds = StratifiedKFold(3, shuffle=True, random_state=int(fold_seed))
    right = dict.fromkeys(ALPHA_GRID, 0)
    for train, test in folds.split(X, y):
        for alpha in ALPHA_GRID:
            fold = CDPRClassifier(alpha=alpha, method=method, random_state=seeded_after_one_draw(3),
                                  **SMALL).fit(X[train], y[train])
            right[alpha] += int((fold.predict(X[test]) == y[test]).sum())
    assert clf.alpha_cv_ == pytest.approx({a: right[a] / len(y) for a in ALPHA_GRID}, abs=1e-12)
    best = max(clf.alpha_cv_.values())
    assert clf.alpha_cv_[clf.alpha_] == best
    assert len(set(clf.alpha_cv_.values())) > 1   # the values do tell apart on this data


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
