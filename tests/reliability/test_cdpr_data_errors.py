"""Reliability of CDPRClassifier (issue 4): bad data (row 1), time limits (row 4), determinism
(row 7).  Every bad input is a ValueError whose message names the problem."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification

import satrules.estimators.cdpr as cdpr_module
from satrules.estimators.cdpr import CDPRClassifier
from satrules.ir import Status


def _clf(**kw):
    params = dict(n_estimators=5, max_depth=3, random_state=0)
    params.update(kw)
    return CDPRClassifier(**params)


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"age": rng.uniform(20, 70, 120), "city": rng.choice(["a", "b", "c"], 120),
                      "income": rng.normal(size=120)})
    y = np.where((X["age"] > 45) ^ (X["city"] == "b"), "yes", "no")
    return X, y


@pytest.mark.parametrize("value, word", [(np.inf, "inf"), (-np.inf, "inf")])
def test_inf_in_numeric_columns(frame, value, word):
    """±inf in fit or predict raises ValueError naming the value and the column (NaN is a
    missing value, allowed: tests/test_messy_data.py)."""
    X, y = frame
    bad = X.copy()
    bad.loc[3, "income"] = value
    with pytest.raises(ValueError, match=rf"(?s){word}.*'income'"):
        _clf().fit(bad, y)
    clf = _clf().fit(X, y)
    with pytest.raises(ValueError, match=rf"(?s){word}.*'income'"):
        clf.predict(bad)


def test_missing_value_in_categorical_column(frame):
    """A missing category (None) is the category '<missing>', not an error (issue #11)."""
    X, y = frame
    bad = X.copy()
    bad["city"] = bad["city"].astype(object)
    bad.loc[5, "city"] = None
    clf = _clf().fit(bad, y)
    assert ("city", "<missing>") in clf.encoder_.indicators.values()
    assert len(clf.predict(bad)) == len(bad)


def test_empty_input_and_length_mismatch(frame):
    """No samples, no features, or X/y of different lengths raise ValueError."""
    X, y = frame
    with pytest.raises(ValueError, match="0 sample"):
        _clf().fit(X.iloc[:0], y[:0])
    with pytest.raises(ValueError, match="0 feature"):
        _clf().fit(np.zeros((10, 0)), np.arange(10) % 2)
    with pytest.raises(ValueError, match="0 feature"):
        _clf().fit(X.iloc[:, :0], y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        _clf().fit(X, y[:-1])


def test_single_class(frame):
    """One class in y raises ValueError naming the class and the count needed (as IMLI's
    and IMLIB's do)."""
    X, _ = frame
    with pytest.raises(ValueError, match=r"only 1 class \('yes'\).*at least 2 classes"):
        _clf().fit(X, np.full(len(X), "yes"))


def test_wrong_columns_at_predict(frame):
    """Predicting with a different number of columns, or other column names, raises."""
    X, y = frame
    clf = _clf().fit(X, y)
    with pytest.raises(ValueError, match="missing:\n- income"):
        clf.predict(X[["age", "city"]])
    with pytest.raises(ValueError, match="feature names"):
        clf.predict(X.rename(columns={"income": "salary"}))
    numeric = _clf().fit(X[["age", "income"]].to_numpy(), y)
    with pytest.raises(ValueError, match="3 features"):
        numeric.predict(X.assign(extra=1.0)[["age", "income", "extra"]].to_numpy())


def test_unseen_category_at_predict(frame):
    """handle_unknown="error": a category not seen in fit raises ValueError naming the column
    and the value (the default, "ignore", never crashes: tests/test_messy_data.py)."""
    X, y = frame
    clf = _clf(handle_unknown="error").fit(X, y)
    bad = X.copy()
    bad.loc[0, "city"] = "zanzibar"
    with pytest.raises(ValueError, match=r"unseen categories \['zanzibar'\] in column 'city'"):
        clf.predict(bad)


def test_unseen_category_ignored_on_request(frame):
    """handle_unknown="ignore": an unseen category matches no `col = v` condition and every
    `col != v` condition, so it is classified like a row whose indicators are all 0."""
    X, y = frame
    clf = _clf(handle_unknown="ignore", n_estimators=20).fit(X, y)
    bad = X.copy()
    bad.loc[:9, "city"] = "zanzibar"
    covers = clf.rules_.cover(clf.encoder_.transform(bad.to_numpy(dtype=object), "ignore"))
    indicators = [j for j, (col, _) in clf.encoder_.indicators.items() if col == "city"]
    encoded = clf.encoder_.transform(bad.to_numpy(dtype=object), "ignore")
    assert np.all(encoded[:10][:, indicators] == 0)
    assert np.array_equal(clf.predict(bad)[10:], clf.predict(X)[10:])
    assert covers.shape == (len(clf.rules_), len(X))


def test_non_numeric_values_in_a_numeric_column_at_predict(frame):
    """Text in a column that was numeric in fit raises ValueError naming the column."""
    X, y = frame
    clf = _clf().fit(X, y)
    bad = X.astype({"age": object})
    bad.loc[0, "age"] = "old"
    with pytest.raises(ValueError, match="'age' was numeric"):
        clf.predict(bad)


def test_object_columns_are_supported_not_rejected(frame):
    """Non-numeric object columns are one-hot encoded (documented), so fit succeeds and the
    rules read `city = b` / `city != b`."""
    X, y = frame
    clf = _clf(n_estimators=20).fit(X, y)
    assert clf.score(X, y) > 0.9
    assert "city" in str(clf.rules_)


def test_only_constant_columns(frame):
    """Only constant columns raise ValueError saying so."""
    _, y = frame
    with pytest.raises(ValueError, match="constant"):
        _clf().fit(np.ones((len(y), 3)), y)


def test_duplicate_column_names(frame):
    """Duplicate DataFrame column names raise ValueError naming the column."""
    X, y = frame
    bad = X.copy()
    bad.columns = ["age", "city", "age"]
    with pytest.raises(ValueError, match="age"):
        _clf().fit(bad, y)


def test_exact_honours_time_limit(monkeypatch):
    """method="exact" with time_limit=1: the engine is given no more than what is left of
    the limit, and the answer is its best (FEASIBLE or OPTIMAL), which satisfies the CDPRL
    constraints.  The budget is checked, not a wall time, so load cannot flake the test;
    that engines keep their budgets is measured by benchmarks/bench_time_limits.py."""
    from satrules import cdpr

    budgets, engine = [], cdpr.solve

    def recording_engine(*args, time_limit=None, **kwargs):
        budgets.append(time_limit)
        return engine(*args, time_limit=time_limit, **kwargs)

    monkeypatch.setattr(cdpr, "solve", recording_engine)
    X, y = make_classification(1000, 10, n_informative=6, flip_y=0.1, random_state=0)
    clf = CDPRClassifier(method="exact", n_estimators=20, max_depth=5, delta=5, alpha=0.6,
                         gamma=12, beta=0.6, backend="cpsat", time_limit=1, random_state=0)
    clf.fit(X, y)
    res = clf.result_
    assert res.status in (Status.FEASIBLE, Status.OPTIMAL)
    assert budgets and all(b is not None and 0 < b <= 1 for b in budgets), budgets
    assert len(clf.rules_) <= 12


def test_exact_without_solution_falls_back_to_the_warm_start(frame, monkeypatch):
    """When the exact backend finds nothing in time (UNKNOWN), fit warns and keeps its warm
    start (the local search, issue 13) instead of returning an empty or unchecked rule set."""
    X, y = frame

    class _Unknown:
        status = Status.UNKNOWN
        selected, coverage = [], 0

    monkeypatch.setattr(cdpr_module, "solve_exact", lambda *a, **k: _Unknown())
    with pytest.warns(RuntimeWarning, match="no solution.*local search"):
        clf = _clf(method="exact", time_limit=0.01).fit(X, y)
    local_clf = _clf(method="local").fit(X, y)
    assert str(clf.rules_) == str(local_clf.rules_) and len(clf.rules_) > 0


@pytest.mark.parametrize("method", ["gra", "gdy", "local", "exact"])
def test_deterministic_for_fixed_random_state(frame, method):
    """Same data, parameters, backend (CP-SAT, seeded, one worker) and random_state give the
    same rules on every run, and a refit reproduces them."""
    X, y = frame
    runs = [str(_clf(method=method, backend="cpsat", n_estimators=15).fit(X, y).rules_)
            for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]


def test_defaults_fit_a_moderate_dataset():
    """fit on 2,000 x 10 with the default gbdt miner (no time limit) returns rules that beat
    the majority class on their training data; its wall time (seconds) is measured by
    ``benchmarks/bench_time_limits.py --suite``, not asserted here."""
    X, y = make_classification(2000, 10, random_state=1)
    clf = CDPRClassifier(n_estimators=20, random_state=0).fit(X, y)
    assert 0 < len(clf.rules_) <= clf.gamma_ == 10
    assert np.mean(clf.predict(X) == y) > max(np.mean(y), 1 - np.mean(y))
