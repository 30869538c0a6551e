"""Ordered pandas ``category`` columns (``ordered=True``, ``pd.cut``): cut at thresholds
between their levels, printed as levels, in the binarizer and all three estimators.

Data are generated here; docs/messy_data.md states the semantics.
"""

from __future__ import annotations

import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.backends.registry import available_backends
from satrules.binarize import ThresholdBinarizer, _thresholds, ordered_levels
from satrules.estimators import CDPRClassifier, IMLIBClassifier, IMLIClassifier
from satrules.rules import Condition, level_key, level_ranks
from satrules.serialization import SchemaError

BACKEND = next(b for b in ("rc2", "cpsat", "bruteforce") if b in available_backends())
STAGES = ["I", "II", "III", "IV"]


def staged(n: int = 300, seed: int = 0, missing: float = 0.0):
    """``stage`` (ordered I < II < III < IV; the label is ``stage >= III`` with 3 % flipped)
    and a noise column."""
    rng = np.random.default_rng(seed)
    rank = rng.integers(0, 4, n)
    y = np.where((rank >= 2) ^ (rng.random(n) < 0.03), "late", "early")
    stage = pd.Categorical(np.array(STAGES)[rank], categories=STAGES, ordered=True)
    X = pd.DataFrame({"stage": stage, "noise": rng.normal(size=n).round(2)})
    if missing:
        X.loc[rng.random(n) < missing, "stage"] = None
    return X, y


@settings(max_examples=60, deadline=None)
@given(n_levels=st.integers(2, 7), data=st.data(),
       method=st.sampled_from(["quantile", "tree", "both"]))
def test_columns_are_thresholds_on_the_ranks(n_levels, data, method):
    """Every column is its condition evaluated on the raw values, the thresholds are the
    ones the column of ranks would get, each prints as an observed level, and the
    missing-value columns follow the module's semantics."""
    levels = [f"L{i}" for i in range(n_levels)][::-1]     # declared order, not sorted order
    n = data.draw(st.integers(4, 40))
    ranks = data.draw(st.lists(st.integers(-1, n_levels - 1), min_size=n, max_size=n))
    values = [None if r < 0 else levels[r] for r in ranks]
    X = pd.DataFrame({"s": pd.Categorical(values, categories=levels, ordered=True)})
    y = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    present = sorted({r for r in ranks if r >= 0})
    if len(present) + any(r < 0 for r in ranks) <= 1:   # constant: no column at all
        with pytest.raises(ValueError, match="every feature is constant"):
            ThresholdBinarizer(n_thresholds=3, thresholds=method).fit(X, y)
        return
    tb = ThresholdBinarizer(n_thresholds=3, thresholds=method).fit(X, y)
    assert tb.feature_kinds_["s"] == "ordered"
    Xb = tb.transform(X)
    raw = X["s"].to_numpy()
    for c, cond in enumerate(tb.conditions_):
        assert (Xb[:, c] == cond.holds(raw)).all()
        if cond.op != "==":
            assert cond.describe().split()[-1] in {levels[r] for r in present}
    known = np.array([r for r in ranks if r >= 0], dtype=float)
    want = _thresholds(known, 3, y[np.array(ranks) >= 0], method, short=False) \
        if len(present) > 1 else np.zeros(0)
    cuts = sorted({float(c.value) for c in tb.conditions_ if c.op != "=="})
    assert cuts == want.tolist()


def test_levels_print_in_their_order_and_unknown_levels_read_as_missing():
    X = pd.DataFrame({"stage": pd.Categorical(["I", "II", "III", "II", None, "IV", "I"],
                                              categories=STAGES, ordered=True)})
    tb = ThresholdBinarizer().fit(X)
    assert tb.get_feature_names_out().tolist() == [
        "stage <= I", "stage <= II", "stage <= III", "stage > I", "stage > II",
        "stage > III", "stage is missing"]
    odd = pd.DataFrame({"stage": ["III", "V"]})   # plain strings too; V is no level
    with pytest.warns(UserWarning, match=r"not levels of ordered.*'stage': \['V'\]"):
        out = tb.transform(odd)
    assert out.tolist() == [[0, 0, 1, 1, 1, 0, 0], [0, 0, 0, 0, 0, 0, 1]]   # V: missing
    assert [c.holds(odd["stage"].to_numpy()).tolist() for c in tb.conditions_] == \
        out.T.tolist()


def test_without_missing_values_in_fit_a_missing_value_reads_above_every_level():
    X = pd.DataFrame({"stage": pd.Categorical(["I", "II", "III", "IV"] * 3,
                                              categories=STAGES, ordered=True)})
    tb = ThresholdBinarizer().fit(X)
    with pytest.warns(UserWarning, match="missing values in numeric"):
        out = tb.transform(pd.DataFrame({"stage": [None, "I"]}))
    assert out.tolist() == [[0, 0, 0], [1, 1, 1]]


def test_unordered_categories_stay_one_hot_and_can_be_asked_for():
    X, _ = staged(40)
    unordered = X.assign(stage=X["stage"].cat.as_unordered())
    assert ThresholdBinarizer().fit(unordered).feature_kinds_["stage"] == "categorical"
    forced = ThresholdBinarizer(categorical_features=["stage"]).fit(X)
    assert forced.feature_kinds_["stage"] == "categorical"
    assert ordered_levels(X) == {0: tuple(STAGES)} and ordered_levels(X.to_numpy()) == {}


def test_cut_intervals_are_levels():
    """``pd.cut`` gives ordered intervals: stored by their text, so a saved model reads
    them back alike."""
    ages = pd.cut(np.array([5, 15, 25, 35, 45, 55, 65, 75]), [0, 20, 40, 80])
    tb = ThresholdBinarizer().fit(pd.DataFrame({"age": ages}))
    assert tb.get_feature_names_out().tolist() == ["age <= (0, 20]", "age <= (20, 40]"]
    assert level_key(pd.Interval(0, 20)) == "(0, 20]"
    assert level_ranks(np.asarray(ages), tb.conditions_[0].levels).tolist() == \
        [0, 0, 1, 1, 2, 2, 2, 2]


def test_condition_checks_its_rank_and_round_trips():
    cond = Condition("stage", ">", 1.0, group=0, nullable=True, levels=tuple(STAGES))
    assert cond.describe(negated=True) == "(stage <= II or stage is missing)"
    assert Condition.from_dict(cond.to_dict()) == cond
    for bad in ({"op": "<=", "value": 4.0}, {"op": "<=", "value": 1.5},
                {"op": "==", "value": 1.0}):
        with pytest.raises(ValueError, match="rank of a level"):
            Condition("stage", bad["op"], bad["value"], group=0, levels=tuple(STAGES))


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_imli_and_imlib_learn_a_level_threshold_and_keep_it_in_a_file(cls, tmp_path):
    X, y = staged(missing=0.05)
    est = cls(backend=BACKEND, random_state=0, null_test=True).fit(X, y)
    text = str(est.rules_)
    assert "stage > II" in text or "stage <= II" in text, text
    assert est.score(X, y) >= 0.9
    again = cls.load(est.save(tmp_path / "m.json"))
    assert str(again.rules_) == text
    strings = X.assign(stage=X["stage"].astype(object))
    assert (again.predict(strings) == est.predict(X)).all()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert len(est.predict(pd.DataFrame({"stage": ["V"], "noise": [0.0]}))) == 1


def test_imli_file_with_a_rank_beyond_the_levels_is_refused():
    X, y = staged(80)
    est = IMLIClassifier(backend=BACKEND, random_state=0).fit(X, y)
    f = est.binarizer_._names.index("stage")
    kind, (levels, cuts), missing = est.binarizer_._specs[f]
    est.binarizer_._specs[f] = (kind, (levels, cuts + 10), missing)
    with pytest.raises(SchemaError, match="ranks of the 4 levels"):
        IMLIClassifier.from_json(est.to_json())


def test_cdpr_prints_levels_and_keeps_them_in_a_file(tmp_path):
    X, y = staged(missing=0.05)
    est = CDPRClassifier(gamma=4, n_estimators=10, max_depth=3, random_state=0).fit(X, y)
    text = str(est.rules_)
    assert "stage > II" in text or "stage <= II" in text, text
    assert "stage > -" not in text and "stage <= -" not in text
    again = CDPRClassifier.load(est.save(tmp_path / "c.json"))
    assert str(again.rules_) == text
    doc = json.loads(est.to_json())     # the file edited to drop the rules' top levels

    def cut(node):   # rules_.levels: {"__items__": [[feature, {"__tuple__": levels}]]}
        if isinstance(node, dict):
            if isinstance(node.get("levels"), dict):
                node["levels"]["__items__"][0][1]["__tuple__"] = ["I"]
            for v in node.values():
                cut(v)
        elif isinstance(node, list):
            for v in node:
                cut(v)

    cut(doc)
    with pytest.raises(SchemaError, match=r"beyond its 1 level\(s\)"):
        CDPRClassifier.from_json(json.dumps(doc))
    assert (again.predict(X.assign(stage=X["stage"].astype(object))) == est.predict(X)).all()
    # an unknown level fails every interval on the feature, like a missing value
    odd = pd.DataFrame({"stage": ["V", None], "noise": [0.0, 0.0]})
    cover = est.rule_covers(odd).toarray()
    assert (cover[:, 0] == cover[:, 1]).all()   # V reads as missing
    est.set_params(handle_unknown="error")
    with pytest.raises(ValueError, match=r"\['V'\] in column 'stage' are not among its"):
        est.predict(odd)


def test_cdpr_bounds_below_the_lowest_level_read_not_missing():
    from satrules.mining import MinedRule

    rule = MinedRule(((0, -1.0, np.inf),), 0, ("stage",), ("a", "b"),
                     levels={0: tuple(STAGES)})
    assert str(rule) == "IF stage is not missing THEN a"
    rule = MinedRule(((0, 0.0, 2.0),), 0, ("stage",), ("a", "b"), levels={0: tuple(STAGES)})
    assert str(rule) == "IF I < stage <= III THEN a"


def test_cli_declares_ordered_columns_of_a_csv(tmp_path, capsys):
    """``satrules learn --ordered`` turns CSV columns into ordered levels (whole numbers
    read as floats match their levels), refuses values that are not levels, and
    ``satrules predict`` reads the saved levels back."""
    from satrules.cli import main

    X, y = staged(missing=0.05)
    X["likert"] = np.where(np.arange(len(X)) % 7 == 0, np.nan,
                           np.arange(len(X)) % 5 + 1)     # floats 1.0 .. 5.0 with blanks
    X.assign(outcome=y).to_csv(tmp_path / "d.csv", index=False)
    args = ["learn", str(tmp_path / "d.csv"), "--target", "outcome", "--method", "imli",
            "--backend", BACKEND, "--ordered", "stage=I,II,III,IV",
            "--ordered", "likert=1,2,3,4,5", "--out", str(tmp_path / "r.json")]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "stage > II" in out or "stage <= II" in out, out
    assert main(["predict", str(tmp_path / "r.json"), str(tmp_path / "d.csv")]) == 0
    accuracy = re.search(r"accuracy on 'outcome': ([\d.]+)", capsys.readouterr().err)
    assert accuracy and float(accuracy.group(1)) >= 0.9
    for spec, message in (("stage=I,II,III", r"not among the levels: \['IV'\]"),
                          ("stage", "write NAME=LEVEL1"), ("stage=I,I", "given twice"),
                          ("grade=A,B", "no column 'grade'")):
        assert main(args[:-4] + ["--ordered", spec]) == 1
        assert re.search(message, capsys.readouterr().err)


def test_encode_and_sweep_take_ordered_columns(tmp_path, capsys):
    """``satrules encode`` writes the levels into the layout (so ``decode`` prints them)
    and ``satrules sweep`` fits with them."""
    from satrules.cli import main

    X, y = staged(60)
    X.assign(outcome=y).to_csv(tmp_path / "d.csv", index=False)
    assert main(["encode", str(tmp_path / "d.csv"), "--target", "outcome", "--method",
                 "imli", "--ordered", "stage=I,II,III,IV", "--out", str(tmp_path / "m.wcnf"),
                 "--layout", str(tmp_path / "l.json")]) == 0
    def levels(node):   # every "levels" list in the layout file
        if isinstance(node, dict):
            return ([node["levels"]] if "levels" in node else []) + \
                [lv for v in node.values() for lv in levels(v)]
        return [lv for v in node for lv in levels(v)] if isinstance(node, list) else []

    found = levels(json.loads((tmp_path / "l.json").read_text()))
    assert found and all(lv == STAGES for lv in found)
    assert main(["sweep", str(tmp_path / "d.csv"), "--target", "outcome", "--method", "imli",
                 "--grid", "n_rules=1", "--n-splits", "1", "--param", f"backend={BACKEND}",
                 "--ordered", "stage=I,II,III", "--out", str(tmp_path / "s.csv"),
                 "--quiet"]) == 1
    assert "not among the levels: ['IV']" in capsys.readouterr().err
