"""Tests for CDPRClassifier: scikit-learn contract, methods, resolution, default rule, exactness."""

from __future__ import annotations

import itertools
import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.utils.estimator_checks import parametrize_with_checks

from satrules import metrics
from satrules.cdpr import gra
from satrules.estimators.cdpr import CDPRClassifier
from satrules.ir import Status


@parametrize_with_checks([CDPRClassifier(n_estimators=5, max_depth=3, random_state=0)],
                         expected_failed_checks=lambda est: est._EXPECTED_FAILED_CHECKS)
def test_sklearn_checks(estimator, check):
    """CDPRClassifier passes every scikit-learn estimator check but the two on row weights
    its ``_EXPECTED_FAILED_CHECKS`` names, with the reasons."""
    check(estimator)


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    return X, np.where(y == 0, "malignant", "benign")


def _small(**kw):
    params = dict(n_estimators=10, max_depth=3, gamma=6, random_state=0)
    params.update(kw)
    return CDPRClassifier(**params)


@pytest.mark.parametrize("method", ["gra", "gdy", "exact"])
def test_rule_set_respects_constraints(cancer, method):
    """The selected rules lie in B_{α,δ}, number at most γ, and (GRA, exact) every ordered pair's
    training overlap-rate is ≤ β; predictions equal the rules with the default rule."""
    X, y = cancer
    clf = _small(method=method, alpha=0.8, beta=0.5, delta=3).fit(X, y)
    rules = clf.rules_
    assert len(rules) >= 1 and len(rules) <= 6
    assert np.all(rules.accuracy >= 0.8) and np.all(rules.width <= 3)
    if method != "gdy":
        assert metrics.max_overlap_rate(rules.covers) <= 0.5
    pred = clf.predict(X)
    covered = metrics.covered(rules.cover(X.to_numpy()))
    assert np.all(pred[~covered] == clf.default_)
    assert clf.coverage_rate(X) == pytest.approx(covered.mean())


@pytest.mark.parametrize("beta", [0.0, 0.3, 0.6])
def test_exact_matches_enumeration_and_dominates_gra(cancer, beta):
    """On a small candidate pool, the exact method's coverage equals the best coverage over all
    feasible subsets (|S| ≤ γ, every ordered overlap-rate ≤ β), found by enumeration, and is at
    least GRA's."""
    X, y = cancer
    params = dict(alpha=0.95, delta=2, gamma=3, beta=beta, n_estimators=6, max_depth=2)
    clf = _small(method="exact", backend="cpsat", **params).fit(X, y)
    assert clf.result_.status is Status.OPTIMAL
    pool = _pool_covers(clf, X, y)
    assert 5 <= pool.shape[0] <= 16
    best = 0
    for size in range(1, 4):
        for subset in itertools.combinations(range(pool.shape[0]), size):
            if metrics.max_overlap_rate(pool, list(subset)) <= beta:
                best = max(best, metrics.coverage(pool, list(subset)))
    assert clf.result_.coverage == best
    greedy = _small(method="gra", **params).fit(X, y)
    assert best >= greedy.result_.coverage


def test_pickle_and_clone_round_trip(cancer):
    """A pickled fitted classifier predicts the same; clone gives an unfitted copy."""
    X, y = cancer
    clf = _small().fit(X, y)
    again = pickle.loads(pickle.dumps(clf))
    assert np.array_equal(again.predict(X), clf.predict(X))
    assert not hasattr(clone(clf), "rules_")


def test_rules_print_with_feature_and_class_names(cancer):
    """rules_ prints one IF-THEN line per rule with DataFrame column names and class labels."""
    X, y = cancer
    clf = _small().fit(X, y)
    lines = str(clf.rules_).splitlines()
    assert len(lines) == len(clf.rules_)
    for line in lines:
        assert line.startswith("IF ") and line.split(" THEN ")[1] in {"malignant", "benign"}
        assert any(name in line for name in X.columns)


def test_multiclass_and_resolution_modes():
    """Multi-class data: rules of several classes; each resolve mode follows its definition on
    samples matched by rules of different classes."""
    X, y = load_iris(return_X_y=True)
    base = CDPRClassifier(n_estimators=10, max_depth=3, beta=0.9, alpha=0.6, random_state=0)
    for resolve in ("accuracy", "coverage", "vote"):
        clf = clone(base).set_params(resolve=resolve).fit(X, y)
        assert len(set(clf.rules_.labels.tolist())) == 3
        covers = clf.rules_.cover(X)
        prio = clf.rules_.support if resolve == "coverage" else clf.rules_.accuracy
        want = metrics.predict_rules(covers, clf.classes_[clf.rules_.labels], clf.default_,
                                     priority=prio,
                                     resolve="vote" if resolve == "vote" else "priority")
        assert np.array_equal(clf.predict(X), want)
        assert clf.score(X, y) > 0.7  # "coverage" trusts broad, less accurate rules


def test_default_class_is_majority_of_uncovered_training_samples(cancer):
    """default_class=None takes the majority class of the uncovered training samples; an
    explicit default_class is used as given; an unknown one is a ValueError."""
    X, y = cancer
    clf = _small(gamma=1).fit(X, y)
    uncovered = ~metrics.covered(clf.rules_.covers)
    assert uncovered.any()
    values, counts = np.unique(y[uncovered], return_counts=True)
    assert clf.default_ == values[counts.argmax()]
    forced = _small(gamma=1, default_class="malignant").fit(X, y)
    assert forced.default_ == "malignant"
    with pytest.raises(ValueError, match="default_class"):
        _small(default_class="other").fit(X, y)


def test_categorical_columns_are_one_hot_and_printed_readably():
    """Object columns are one-hot encoded and print as `col = value` / `col != value`."""
    rng = np.random.default_rng(0)
    city = rng.choice(["paris", "rome", "oslo"], 200)
    age = rng.uniform(20, 60, 200)
    y = np.where((city == "rome") | (age > 50), "yes", "no")
    X = pd.DataFrame({"city": city, "age": age})
    clf = CDPRClassifier(n_estimators=10, max_depth=2, random_state=0).fit(X, y)
    text = str(clf.rules_)
    assert "city = rome" in text or "city != rome" in text
    assert clf.score(X, y) > 0.95


def test_gra_selection_variant_is_passed_through(cancer):
    """selection="marginal" gives GRA's marginal-gain answer on the filtered pool."""
    X, y = cancer
    clf = _small(selection="marginal", alpha=0.9).fit(X, y)
    assert clf.result_.selected == gra(
        _pool_covers(clf, X, y), clf.beta, clf.gamma, selection="marginal").selected


def _pool_covers(clf, X, y):
    from satrules.mining import mine_rules
    rng = np.random.RandomState(clf.random_state)
    enc = clf.encoder_.transform(X.to_numpy())
    cands = mine_rules(enc, np.unique(y, return_inverse=True)[1], n_estimators=clf.n_estimators,
                       max_depth=clf.max_depth, random_state=int(rng.randint(2**31 - 1)),
                       miner=clf.miner)
    return cands.covers[cands.filter(clf.alpha, clf.delta)]


@pytest.mark.parametrize("bad", [dict(alpha=1.5), dict(beta=-0.1), dict(gamma=0),
                                 dict(gamma="all"), dict(gamma=True), dict(gamma=2.5),
                                 dict(delta=-1), dict(method="ilp"), dict(resolve="first"),
                                 dict(handle_unknown="skip"), dict(miner="xgboost"),
                                 dict(nodes="inner")])
def test_bad_parameters_raise_in_fit(cancer, bad):
    """Invalid parameters raise ValueError naming the parameter, in fit (not __init__)."""
    X, y = cancer
    clf = _small(**bad)
    with pytest.raises(ValueError, match=next(iter(bad))):
        clf.fit(X, y)


@pytest.mark.parametrize("method", ["gra", "exact"])
def test_gamma_auto_gives_every_class_but_one_a_rule(method):
    """``gamma="auto"``: 10 rules with up to 11 classes; with 14 classes that an interval
    of one column each tells apart, 13 rules (``gamma_``), where 10 leave four classes
    to the default class."""
    rng = np.random.default_rng(0)
    codes = np.repeat(np.arange(14), 30)
    X = pd.DataFrame({"x": codes + rng.uniform(-0.3, 0.3, len(codes)),
                      "noise": rng.normal(size=len(codes))})
    y = np.array([f"c{k:02d}" for k in range(14)])[codes]
    kw = dict(random_state=0, method=method, backend="highs")
    auto = CDPRClassifier(gamma="auto", **kw).fit(X, y)
    ten = CDPRClassifier(gamma=10, **kw).fit(X, y)
    assert (auto.gamma_, ten.gamma_) == (13, 10)
    assert len(auto.rules_) == 13 and len(ten.rules_) == 10
    assert np.mean(auto.predict(X) == y) > 0.95 > 11 / 14 > np.mean(ten.predict(X) == y)
    few = CDPRClassifier(gamma="auto", **kw).fit(X[codes < 11], y[codes < 11])
    assert few.gamma_ == 10


def test_exact_fit_shows_its_proof_on_a_terminal(cancer, monkeypatch):
    """On a terminal, an exact fit shows a "CDPR exact selection" line (after the progress
    delay) with the coverage found; inside quiet_progress() (the CLI's --quiet), nothing."""
    import sys

    import satrules._progress as progress
    import satrules.estimators.cdpr as cdpr_module
    from satrules._progress import quiet_progress
    from tests.estimators.test_selection import _Terminal

    X, y = cancer
    monkeypatch.setattr(cdpr_module, "PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(progress, "STATUS_EVERY", 0.0)
    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    shown = _small(method="exact").fit(X, y)
    assert "CDPR exact selection" in term.getvalue() and "covered" in term.getvalue()
    quiet = _Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    with quiet_progress():
        silent = _small(method="exact").fit(X, y)
    assert quiet.getvalue() == ""
    assert str(shown.rules_) == str(silent.rules_)


def test_to_text_lists_the_rules_then_the_default(cancer, tmp_path):
    """``to_text`` is the text ``satrules learn`` prints: one line per selected rule with
    its class, in ``rules_`` order, then ``ELSE`` the default class; a saved and loaded
    model prints the same; an unfitted one raises NotFittedError."""
    from sklearn.exceptions import NotFittedError

    from satrules import load
    from satrules.report import rules_text

    X, y = cancer
    clf = _small().fit(X, y)
    lines = clf.to_text().splitlines()
    assert lines == rules_text(clf).splitlines()
    assert len(lines) == len(clf.rules_) + 1 and lines[-1] == f"ELSE {clf.default_}"
    for line, label in zip(lines, clf.classes_[clf.rules_.labels], strict=False):
        assert line.startswith("IF ") and line.endswith(f" THEN {label}")
    clf.save(tmp_path / "rules.json")
    assert load(tmp_path / "rules.json").to_text() == clf.to_text()
    with pytest.raises(NotFittedError):
        CDPRClassifier().to_text()
