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
from satrules.rules import duration_days, format_duration, format_hours_minutes

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
    for odd in (["3 days", "soon"], ["12", "13"], ["3 hours"], ["7:61"], ["02:75:00"],
                ["02:09:06", "2 h"], ["7:41", "soon"], ["7:41", "02:09:06"], ["7:41:"]):
        assert duration_days(np.array(odd, dtype=object)) is None
    # hours and minutes, when every value is written so (or when fit read them so)
    assert duration_days(np.array(["7:41", " 13:30", "123:05"], dtype=object)).tolist() == \
        [461 / 1440, 810 / 1440, (123 * 60 + 5) / 1440]
    assert duration_days(np.array(["7:41", "02:09:06"], dtype=object), "hm").tolist() == \
        [461 / 1440, (2 * 3600 + 9 * 60 + 6) / 86400]
    assert [format_hours_minutes(d) for d in (461 / 1440, 0, 1.5, 0.5 / 1440)] == \
        ["7:41", "0:00", "36:00", "0:00"]
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


def capture_times(n: int = 300, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Times of day written hours:minutes (Stat2Data/Hawks' ``CaptureTime``: ``13:30``),
    some missing, whose label flips at 13:00 (3 % flipped)."""
    rng = np.random.default_rng(seed)
    minutes = rng.integers(6 * 60, 20 * 60, n)
    X = pd.DataFrame({"time": [f"{m // 60}:{m % 60:02d}" for m in minutes],
                      "noise": rng.normal(size=n).round(2)})
    X.loc[rng.random(n) < 0.05, "time"] = None
    y = np.where((minutes > 13 * 60) ^ (rng.random(n) < 0.03), "late", "early")
    return X, y


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier, CDPRClassifier])
def test_hours_and_minutes_are_durations_printed_so(cls, tmp_path):
    """A column of ``h:mm`` strings is a duration, not an identifier (it was dropped as one
    before 2026-12-04): rules cut it at an observed time printed as it is written, a file
    keeps that, and predict reads ``h:mm`` among the other duration forms."""
    X, y = capture_times()
    # CDPR: the exact-split miner, whose first rule here is the 13:00 cut (the default
    # miner's rules print alike: test_binned_miner_prints_observed_hours_and_minutes)
    params = {"gamma": 4, "n_estimators": 10, "max_depth": 3, "miner": "gbdt"} \
        if cls is CDPRClassifier else {"backend": BACKEND}
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # no column dropped
        est = cls(random_state=0, **params).fit(X, y)
    text = str(est.rules_)
    observed = set(X["time"].dropna())
    cuts = re.findall(r"time (?:<=|>) (\d+:\d{2})\b", text) + \
        re.findall(r"(\d+:\d{2}) < time", text)
    assert cuts and all(c in observed for c in cuts), text
    assert any(12 * 60 + 45 <= int(c.split(":")[0]) * 60 + int(c.split(":")[1]) <= 13 * 60 + 15
               for c in cuts), text
    assert not re.search(r"\d:\d{2}:\d{2}", text), text   # no seconds
    assert est.score(X, y) >= 0.9
    again = cls.load(est.save(tmp_path / "m.json"))
    assert str(again.rules_) == text
    assert (again.predict(X) == est.predict(X)).all()
    late = pd.DataFrame({"time": ["18:00", "18:00:00"], "noise": [0.0] * 2})
    early = late.assign(time=["7:00", "07:00:00"])
    assert (again.predict(late) == "late").all() and (again.predict(early) == "early").all()
    spans = pd.DataFrame({"time": pd.to_timedelta([18, 7], unit="h"), "noise": [0.0] * 2})
    assert again.predict(spans).tolist() == ["late", "early"]
    with pytest.raises(FeatureTypeError, match=r"'time' held durations in fit but holds "
                                               r"non-duration value\(s\) \['noon'\]"):
        est.predict(pd.DataFrame({"time": ["noon", "7:00"], "noise": [0.0, 0.0]}))


def test_binned_miner_prints_observed_hours_and_minutes():
    """CDPR's default miner (binned boosting) moves its bounds onto observed times too."""
    X, y = capture_times()
    text = str(CDPRClassifier(random_state=0).fit(X, y).rules_)
    cuts = re.findall(r"(\d+:\d{2})\b", text)
    assert cuts and set(cuts) <= set(X["time"].dropna()), text


def test_hours_and_minutes_mixed_with_seconds_read_only_in_the_fitted_form():
    """At fit, ``h:mm`` among ``h:mm:ss`` is not read (``22:07`` may be minutes and
    seconds there); a feature fitted on ``h:mm:ss`` refuses ``h:mm`` at predict, naming
    it, and one fitted on ``h:mm`` reads both."""
    X = pd.DataFrame({"t": ["1:00:00", "2:00:00", "3:00:00", "4:00:00"] * 5})
    tb = ThresholdBinarizer().fit(X)
    assert tb.feature_kinds_["t"] == "duration"
    assert all(c.unit == "duration" for c in tb.conditions_)
    with pytest.raises(FeatureTypeError, match=r"non-duration value\(s\) \['2:30'\]"):
        tb.transform(pd.DataFrame({"t": ["2:30", "1:00:00"]}))
    hm = ThresholdBinarizer().fit(pd.DataFrame({"t": ["1:00", "2:00", "3:00", "4:00"] * 5}))
    assert {c.unit for c in hm.conditions_} == {"duration:hm"}
    assert [c.describe() for c in hm.conditions_] == ["t <= 1:00", "t <= 2:00", "t <= 3:00"]
    mixed = pd.DataFrame({"t": ["2:30", "2:30:00", "1:59:59"]})
    assert hm.transform(mixed).tolist() == [[0, 0, 1], [0, 0, 1], [0, 1, 1]]


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
    # Stat2Data/Hawks' CaptureTime: 906 of 908 written 13:30, one 9.12 and one blank
    clock = [f"{9 + i % 8}:{i % 60:02d}" for i in range(118)] + ["9.12", " "]
    with pytest.warns(UserWarning, match=r"118 of its 120 values are hours and minutes "
                                         r"\(such as '9:00'\) but not all \(such as "
                                         r"'(9\.12| )'\)"):
        assert ThresholdBinarizer().fit(pd.DataFrame({"t": clock, "x": np.arange(120) % 7})
                                        ).feature_kinds_["t"] == "dropped"
    # names are dropped with no such note
    names = pd.DataFrame({"who": [f"person {i}" for i in range(121)],
                          "x": np.linspace(0, 1, 121) ** 2})
    with pytest.warns(UserWarning) as record:
        ThresholdBinarizer().fit(names)
    assert "values are" not in str(record[0].message)
