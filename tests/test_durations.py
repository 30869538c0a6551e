"""Duration columns (``timedelta64``, timedelta objects, pandas' duration strings): cut at
thresholds on the number of days and printed as durations, in the binarizer and all
three estimators (they were refused before 2026-12-03).

Data are generated here; docs/messy_data.md states the semantics.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.backends.registry import available_backends
from satrules.binarize import FeatureTypeError, ThresholdBinarizer
from satrules.estimators import CDPRClassifier, IMLIBClassifier, IMLIClassifier
from satrules.rules import duration_days, format_duration

BACKEND = next(b for b in ("rc2", "cpsat", "bruteforce") if b in available_backends())


def stays(n: int = 300, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Hospital stays in hours (some missing) whose label flips at 3 days (3 % flipped)."""
    rng = np.random.default_rng(seed)
    hours = rng.integers(1, 24 * 6, n)
    y = np.where((hours > 72) ^ (rng.random(n) < 0.03), "long", "short")
    X = pd.DataFrame({"stay": pd.to_timedelta(hours, unit="h"),
                      "noise": rng.normal(size=n).round(2)})
    X.loc[rng.random(n) < 0.05, "stay"] = pd.NaT
    return X, y


def as_strings(X: pd.DataFrame) -> pd.DataFrame:
    """``stay`` as a CSV file holds it: pandas' text, empty where missing."""
    return X.assign(stay=X["stay"].astype(str).where(X["stay"].notna(), None))


@settings(max_examples=40, deadline=None)
@given(minutes=st.lists(st.one_of(st.none(), st.integers(0, 20_000)), min_size=3,
                        max_size=30))
def test_columns_are_conditions_on_the_raw_durations(minutes):
    """Every column is its condition evaluated on the raw values (timedelta64 and their
    strings alike), and every threshold prints as an observed duration."""
    known = [m for m in minutes if m is not None]
    if len(set(known)) + (None in minutes) < 2:
        return
    X = pd.DataFrame({"d": pd.to_timedelta(pd.Series(minutes, dtype="float64"), unit="min")})
    tb = ThresholdBinarizer(n_thresholds=3).fit(X)
    assert tb.feature_kinds_["d"] == "duration"
    Xb = tb.transform(X)
    assert (tb.transform(as_strings(X.rename(columns={"d": "stay"})).rename(
        columns={"stay": "d"})) == Xb).all()
    shown = {format_duration(m / 1440) for m in known}
    for c, cond in enumerate(tb.conditions_):
        assert (Xb[:, c] == cond.holds(X["d"].to_numpy())).all()
        if cond.op != "==":
            assert cond.describe().split(" ", 2)[2] in shown


def test_duration_text_and_parsing():
    assert [format_duration(d) for d in (3, 1.5, 0.25, 0)] == \
        ["3 days", "1 days 12:00:00", "06:00:00", "0 days"]
    assert duration_days(np.array(["3 days", "0 days 06:00:00", "-1 days +12:00:00"],
                                  dtype=object)).tolist() == [3.0, 0.25, -0.5]
    # hours:minutes:seconds (fpp3/boston_marathon, gt/pizzaplace), any number of hours
    assert duration_days(np.array(["02:09:06", "123:45:00", "0:00:30.5"],
                                  dtype=object)).tolist() == \
        [(2 * 3600 + 9 * 60 + 6) / 86400, 123.75 / 24, 30.5 / 86400]
    for odd in (["3 days", "soon"], ["12", "13"], ["3 hours"], ["7:41"], ["02:75:00"],
                ["02:09:06", "2 h"]):
        assert duration_days(np.array(odd, dtype=object)) is None
    # strings that are not all durations stay categorical
    X = pd.DataFrame({"d": ["3 days", "4 days", "a week"] * 5})
    assert ThresholdBinarizer().fit(X).feature_kinds_["d"] == "categorical"


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier, CDPRClassifier])
def test_estimators_learn_durations_and_keep_them_in_a_file(cls, tmp_path):
    X, y = stays()
    params = {"gamma": 4, "n_estimators": 10, "max_depth": 3} if cls is CDPRClassifier \
        else {"backend": BACKEND}
    est = cls(random_state=0, **params).fit(X, y)
    text = str(est.rules_)
    assert re.search(r"stay (<=|>) 3 days", text), text
    assert est.score(X, y) >= 0.9
    again = cls.load(est.save(tmp_path / "m.json"))
    assert str(again.rules_) == text
    assert (again.predict(as_strings(X)) == est.predict(X)).all()
    with pytest.raises(FeatureTypeError, match=r"'stay' held durations in fit but holds "
                                               r"non-duration value\(s\) \['soon'\]"):
        est.predict(pd.DataFrame({"stay": ["soon"], "noise": [0.0]}))


def test_cli_learns_durations_from_a_csv(tmp_path, capsys):
    from satrules.cli import main

    X, y = stays()
    as_strings(X).assign(outcome=y).to_csv(tmp_path / "stays.csv", index=False)
    assert main(["learn", str(tmp_path / "stays.csv"), "--target", "outcome", "--method",
                 "imli", "--backend", BACKEND, "--quiet"]) == 0
    assert re.search(r"stay (<=|>) 3 days", capsys.readouterr().out)


def test_race_times_are_durations_printed_as_times():
    """Finishing times written hours:minutes:seconds (a marathon's results) cut at a time."""
    rng = np.random.default_rng(0)
    seconds = rng.integers(2 * 3600, 5 * 3600, 200)
    X = pd.DataFrame({"time": [f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"
                               for s in seconds]})
    y = np.where(seconds <= 3 * 3600, "fast", "slow")
    est = IMLIClassifier(backend=BACKEND, random_state=0).fit(X, y)
    assert est.binarizer_.feature_kinds_ == {"time": "duration"}
    assert re.search(r"time (<=|>) 0[23]:\d{2}:\d{2}\b", est.to_text()), est.to_text()
    assert est.score(X, y) >= 0.97


def test_dates_still_win_over_durations():
    """ISO date strings are dates, pandas duration strings durations, numbers numbers."""
    X = pd.DataFrame({"a": ["2004-01-31", "2004-02-01"] * 5, "b": ["1 days", "2 days"] * 5,
                      "c": [1, 2] * 5})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kinds = ThresholdBinarizer().fit(X).feature_kinds_
    assert kinds == {"a": "date", "b": "duration", "c": "binary"}


def test_a_column_almost_all_durations_says_so_when_dropped():
    """Stat2Data/Marathon's `Time`: 1,122 times written 38:31:00 and four written 22:07.
    The column is not read as durations, and the warning that drops it says why."""
    times = [f"{m}:{s:02d}:00" for m, s in zip(range(30, 90), range(60), strict=False)] * 2
    X = pd.DataFrame({"time": times + ["22:07"], "x": np.linspace(0, 1, len(times) + 1) ** 2})
    with pytest.warns(UserWarning, match=r"'time': .*an identifier, not a category; 120 of its "
                                         r"121 values are durations \(such as '30:00:00'\) but "
                                         r"not all \(such as '22:07'\): write them alike"):
        tb = ThresholdBinarizer().fit(X)
    assert tb.feature_kinds_["time"] == "dropped"
    days = [f"{1 + i % 12}/{1 + i % 28}/{2000 + i // 12}" for i in range(120)] + ["soon"]
    with pytest.warns(UserWarning, match=r"120 of its 121 values are dates \(such as "
                                         r"'1/1/2000'\) but not all \(such as 'soon'\)"):
        ThresholdBinarizer().fit(X.assign(time=days))
    # names are dropped with no such note
    names = pd.DataFrame({"who": [f"person {i}" for i in range(121)],
                          "x": np.linspace(0, 1, 121) ** 2})
    with pytest.warns(UserWarning) as record:
        ThresholdBinarizer().fit(names)
    assert "values are" not in str(record[0].message)
