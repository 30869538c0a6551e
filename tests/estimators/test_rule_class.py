"""``rule_class``: which class two-class IMLI / IMLIB rules describe.

Describing class ``a`` must be exactly the fit on labels renamed so that ``a`` sorts last
(the default describes ``classes_[1]``): the same rules, predictions, probabilities and
records, with the class names where they belong.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.estimators import IMLIBClassifier, IMLIClassifier
from satrules.report import rule_masks, rules_text
from satrules.serialization import SchemaError, dumps, loads

FAST = dict(backend="rc2", n_thresholds=3, random_state=0)
MAKERS = {"imli-dnf": lambda **kw: IMLIClassifier(n_rules=2, **FAST, **kw),
          "imli-cnf": lambda **kw: IMLIClassifier(n_rules=2, rule_type="cnf", **FAST, **kw),
          "imlib": lambda **kw: IMLIBClassifier(n_rules=2, max_literals_per_rule=2, **FAST,
                                                **kw)}


def data(seed: int, n: int = 60) -> tuple[pd.DataFrame, np.ndarray]:
    """Two numbers, a category and a noisy label that depends on them."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"age": rng.integers(20, 80, n).astype(float),
                      "dose": rng.normal(size=n).round(2),
                      "arm": rng.choice(["a", "b", "c"], n)})
    signal = (X["age"] > 50) & (X["arm"] != "c") | (X["dose"] > 1)
    flip = rng.random(n) < 0.1
    return X, np.where(signal ^ flip, "sick", "well")


@pytest.mark.parametrize("make", MAKERS.values(), ids=MAKERS.keys())
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_describing_a_class_is_the_fit_on_labels_renamed_to_sort_last(make, seed):
    X, y = data(seed)
    est = make(rule_class="sick").fit(X, y)          # "sick" sorts first: classes_[0]
    renamed = np.where(y == "sick", "z sick", "well")   # now it sorts last
    ref = make().fit(X, renamed)
    assert est.rule_class_ == "sick" and ref.rule_class_ == "z sick"
    assert est.classes_.tolist() == ["sick", "well"]     # classes_ stay sorted
    assert est.rules_.rules == ref.rules_.rules and est.rules_.kind == ref.rules_.kind
    assert est.rules_.label == "sick"
    back = {"z sick": "sick", "well": "well"}
    assert est.predict(X).tolist() == [back[v] for v in ref.predict(X).tolist()]
    np.testing.assert_allclose(est.predict_proba(X), ref.predict_proba(X)[:, ::-1])
    assert est.best_partition_ == ref.best_partition_
    assert est.to_text() == ref.to_text().replace("z sick", "sick")
    assert rules_text(est) == est.to_text().split("\n(")[0]
    # each rule's class (a CNF clause that fails predicts the other class)
    assert [str(c) for c in rule_masks(est, X)[1]] == \
        [str(c).replace("z sick", "sick") for c in rule_masks(ref, X)[1]]


@pytest.mark.parametrize("make", MAKERS.values(), ids=MAKERS.keys())
def test_none_describes_the_later_class(make):
    X, y = data(1)
    default, named = make().fit(X, y), make(rule_class="well").fit(X, y)
    assert default.rule_class_ == named.rule_class_ == "well"
    assert default.to_text() == named.to_text()
    assert (default.predict(X) == named.predict(X)).all()
    assert "THEN well" in default.to_text() or default.to_text().startswith("Always")


def test_a_class_may_be_named_by_its_text():
    """Integer labels named as on a command line (``--rule-class 0``)."""
    X, y = data(2)
    codes = (y == "sick").astype(int)                  # sick = 1, the default class
    est = IMLIClassifier(**FAST, rule_class="0").fit(X, codes)
    assert est.rule_class_ == 0 and isinstance(est.rule_class_, int)
    assert "THEN 0" in est.to_text()
    assert set(est.predict(X).tolist()) <= {0, 1}


def test_a_constant_prediction_is_the_majority_whichever_class_is_described():
    """With no signal the null test returns the majority class, whether the rules
    describe it (always true) or the other class (always false)."""
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"noise": rng.normal(size=80)})
    y = np.where(np.arange(80) < 60, "common", "rare")
    for described in ("common", "rare"):
        est = IMLIClassifier(**FAST, rule_class=described).fit(X, y)
        assert (est.predict(X) == "common").all(), described
        assert est.to_text().startswith("Always common")


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_bad_rule_class_raises_naming_it(cls):
    X, y = data(4)
    with pytest.raises(ValueError, match=r"rule_class='ill' is not a class of y "
                                         r"\['sick', 'well'\]"):
        cls(**FAST, rule_class="ill").fit(X, y)
    with pytest.raises(ValueError, match=r"rule_class=\['sick'\] is not a class"):
        cls(**FAST, rule_class=["sick"]).fit(X, y)
    three = np.where(X["arm"] == "c", "other", y)
    with pytest.raises(ValueError, match="rule_class applies to two classes; y has 3"):
        cls(**FAST, rule_class="sick").fit(X, three)
    assert cls(**FAST).fit(X, three).rule_class_ is None


def test_saved_and_loaded_with_the_described_class():
    X, y = data(5)
    est = IMLIBClassifier(**FAST, rule_class="sick").fit(X, y)
    again = loads(dumps(est))
    assert again.rule_class_ == "sick" and again.to_text() == est.to_text()
    assert (again.predict(X) == est.predict(X)).all()
    np.testing.assert_allclose(again.predict_proba(X), est.predict_proba(X))
    text = dumps(est).replace('"rule_class_": "sick"', '"rule_class_": "ill"')
    with pytest.raises(SchemaError, match=r"rule_class_ 'ill' is not one of classes_"):
        loads(text)


def test_files_written_before_rule_class_describe_the_later_class():
    X, y = data(6)
    est = IMLIClassifier(**FAST).fit(X, y)
    expected = est.predict(X)
    del est.rule_class_                       # as a file of an earlier satrules holds it
    assert (est.predict(X) == expected).all()
    assert "THEN well" in est.to_text() or est.to_text().startswith("Always")


def test_cli_rule_class(tmp_path, capsys):
    from satrules.cli import main

    X, y = data(7, n=80)
    path = tmp_path / "d.csv"
    X.assign(status=y).to_csv(path, index=False)
    assert main(["learn", str(path), "--target", "status", "--method", "imlib",
                 "--rule-class", "sick", "--backend", "rc2", "--quiet"]) == 0
    assert "THEN sick\nELSE well" in capsys.readouterr().out
    assert main(["learn", str(path), "--target", "status", "--method", "imli",
                 "--rule-class", "auto", "--backend", "rc2", "--quiet"]) == 0
    assert re.search(r"THEN (sick\nELSE well|well\nELSE sick)|Always", capsys.readouterr().out)
    assert main(["learn", str(path), "--target", "status", "--method", "imli",
                 "--rule-class", "ill", "--quiet"]) != 0
    assert "rule_class='ill' is not a class of y" in capsys.readouterr().err


@pytest.mark.parametrize("make", MAKERS.values(), ids=MAKERS.keys())
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_auto_keeps_the_description_of_the_lower_objective(make, seed):
    """``rule_class="auto"`` is exactly the plain fit of the class it keeps, and that
    fit's whole-training objective is the lower (``classes_[1]``'s on a tie)."""
    X, y = data(seed)
    auto = make(rule_class="auto").fit(X, y)
    plain = {c: make(rule_class=c).fit(X, y) for c in ("sick", "well")}
    kept, other = auto.rule_class_, ({"sick", "well"} - {auto.rule_class_}).pop()
    assert auto.to_text() == plain[kept].to_text()
    assert (auto.predict(X) == plain[kept].predict(X)).all()
    assert auto.fit_history_ == plain[kept].fit_history_
    objective = auto.best_partition_["objective"]
    assert objective == plain[kept].best_partition_["objective"]
    assert auto.best_partition_["other_class_objective"] == \
        plain[other].best_partition_["objective"]
    assert objective < plain[other].best_partition_["objective"] or \
        (objective == plain[other].best_partition_["objective"] and kept == "well")


def test_auto_is_refused_where_it_is_ambiguous_or_meaningless():
    X, y = data(8)
    with pytest.raises(ValueError, match="rule_class='auto' is ambiguous: y has a class 'auto'"):
        IMLIClassifier(**FAST, rule_class="auto").fit(X, np.where(y == "sick", "auto", y))
    three = np.where(X["arm"] == "c", "other", y)
    with pytest.raises(ValueError, match="rule_class applies to two classes"):
        IMLIBClassifier(**FAST, rule_class="auto").fit(X, three)
