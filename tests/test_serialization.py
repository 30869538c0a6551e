"""Rule-set files: versioned JSON round trips, clear errors, no pickle, atomic writes."""

from __future__ import annotations

import json
import os
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules import serialization as ser
from satrules.ir import Status
from satrules.rules import Condition, Literal, Rule, RuleSet


@st.composite
def rule_sets(draw):
    n_columns = draw(st.integers(1, 6))
    lits = st.builds(Literal, st.integers(0, n_columns - 1), st.booleans())
    rules = draw(st.lists(st.lists(lits, max_size=4).map(lambda x: Rule(tuple(x))), max_size=4))
    conds = None
    if draw(st.booleans()):
        conds = [Condition(f"f{c} é", "<=", draw(st.floats(-1e6, 1e6)), group=c)
                 for c in range(n_columns)]
    return RuleSet(rules, kind=draw(st.sampled_from(["dnf", "cnf"])), n_columns=n_columns,
                   conditions=conds)


@settings(max_examples=60, deadline=None)
@given(rs=rule_sets())
def test_ruleset_round_trip(rs):
    """A rule set (with or without conditions) comes back equal and evaluates identically."""
    again = ser.loads(ser.dumps(rs))
    assert again == rs
    Xb = np.indices((2,) * rs.n_columns).reshape(rs.n_columns, -1).T
    assert (again.evaluate(Xb) == rs.evaluate(Xb)).all()


@settings(max_examples=60, deadline=None)
@given(value=st.recursive(
    st.none() | st.booleans() | st.integers(-2**80, 2**80) | st.text(max_size=5)
    | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=4) | st.integers(), inner, max_size=3),
    max_leaves=10))
def test_tagged_values_round_trip(value):
    """Nested lists, tuples, dicts with any keys, huge ints and floats survive JSON unchanged."""
    text = json.dumps(ser._encode(value), allow_nan=False)
    assert ser._decode(json.loads(text)) == value


@pytest.mark.parametrize("arr", [
    np.array([1.5, np.nan, -np.inf, np.inf]),
    np.arange(6, dtype=np.int32).reshape(2, 3),
    np.array([True, False]),
    np.array(["a", "bé"]),
    np.array(["x", 3, None], dtype=object),
    np.zeros((0, 4)),
])
def test_arrays_keep_dtype_shape_and_values(arr):
    """numpy arrays (non-finite floats, strings, object arrays, empty) keep dtype and shape."""
    text = json.dumps(ser._encode(arr), allow_nan=False)
    back = ser._decode(json.loads(text))
    assert back.dtype == arr.dtype and back.shape == arr.shape
    if arr.dtype.kind == "f":
        assert np.array_equal(back, arr, equal_nan=True)
    else:
        assert back.tolist() == arr.tolist()


def test_enum_set_and_sparse_round_trip():
    """Status enums, sets and scipy CSR matrices are rebuilt with their types."""
    from scipy import sparse

    m = sparse.csr_matrix(np.array([[True, False], [False, True]]))
    value = {"status": Status.FEASIBLE, "s": {1, 2}, "f": frozenset({"a"}), "m": m}
    back = ser._decode(json.loads(json.dumps(ser._encode(value))))
    assert back["status"] is Status.FEASIBLE
    assert back["s"] == {1, 2} and back["f"] == frozenset({"a"})
    assert (back["m"] != m).nnz == 0 and back["m"].dtype == m.dtype


def _doc(**changes):
    doc = json.loads(ser.dumps(RuleSet([[Literal(0)]], n_columns=1)))
    doc.update(changes)
    return json.dumps(doc)


def test_newer_schema_is_refused_with_upgrade_hint():
    """A file from a newer satrules names both versions and says to upgrade."""
    with pytest.raises(ser.SchemaError, match=r"version 99.*up to 1.*upgrade"):
        ser.loads(_doc(schema_version=99))


@pytest.mark.parametrize("text, match", [
    ("{not json", "not a JSON"),
    ("[1, 2]", "not a satrules rule-set file"),
    (json.dumps({"schema": "other"}), "not a satrules rule-set file"),
    (None, "invalid schema_version"),
    ("kind", "without its data"),
])
def test_invalid_files_raise_schema_error(text, match):
    """Broken, foreign or incomplete files raise SchemaError (a ValueError) saying why."""
    if text is None:
        text = _doc(schema_version="1")
    elif text == "kind":
        text = _doc(kind="estimator")
    with pytest.raises(ValueError, match=match):
        ser.loads(text)


@pytest.mark.parametrize("path", ["os.system", "builtins.eval", "subprocess.Popen",
                                  "satrules.nonexistent.Thing"])
def test_classes_outside_satrules_are_refused(path):
    """Loading never imports or calls anything outside satrules' own classes."""
    doc = json.loads(_doc())
    doc["rules"] = {"__object__": path, "data": {}}
    with pytest.raises(ser.SchemaError, match="refusing|unknown class"):
        ser.loads(json.dumps(doc))


def test_load_never_unpickles(tmp_path, monkeypatch):
    """No load path touches pickle: loading works with pickle disabled."""
    def boom(*args, **kwargs):
        raise AssertionError("pickle used")

    monkeypatch.setattr(pickle, "loads", boom)
    monkeypatch.setattr(pickle, "load", boom)
    rs = RuleSet([[Literal(1, True)]], n_columns=2)
    path = ser.save(rs, tmp_path / "r.json")
    assert ser.load(path) == rs


def test_file_is_versioned_and_readable(tmp_path):
    """The file names its schema and version, the satrules version and the rules as text."""
    import satrules

    rs = RuleSet([[Literal(0)]], n_columns=1,
                 conditions=[Condition("age", "<=", 40, 0)])
    doc = json.loads(ser.save(rs, tmp_path / "r.json", metrics={"acc": 0.5}).read_text())
    assert doc["schema"] == ser.SCHEMA and doc["schema_version"] == ser.SCHEMA_VERSION
    assert doc["provenance"]["satrules_version"] == satrules.__version__
    assert "age <= 40" in doc["rules_text"] and doc["metrics"] == {"acc": 0.5}


@pytest.mark.parametrize("name", ["IMLIClassifier", "IMLIBClassifier"])
def test_a_file_older_than_extra_rules_loads_with_the_fit_it_had(name, tmp_path):
    """A file written before ``extra_rules`` existed (no such parameter) was fitted
    without extra rules: it loads with ``extra_rules=0``, so a refit of its parameters
    is the fit it records; a newer file keeps the value it names."""
    import satrules

    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    y = np.array([0, 1, 1, 1] * 3)
    est = getattr(satrules, name)(backend="rc2", null_test=False).fit(X, y)
    doc = json.loads(ser.save(est, tmp_path / "new.json").read_text())
    assert ser.load(tmp_path / "new.json").extra_rules == 2
    del doc["estimator"]["params"]["extra_rules"]
    (tmp_path / "old.json").write_text(json.dumps(doc))
    old = ser.load(tmp_path / "old.json")
    assert old.extra_rules == 0
    assert (old.predict(X) == est.predict(X)).all()


class _Unsavable:
    """A fitted-looking estimator whose state has no JSON form."""

    rules_ = RuleSet([], n_columns=0)
    classes_ = np.array([0, 1])

    def __init__(self):
        self.weird_ = object()

    def get_params(self, deep=False):
        return {}


def test_failed_save_leaves_no_file_and_keeps_old_content(tmp_path):
    """An error while saving leaves the destination as it was (absent or old content)."""
    fresh, old = tmp_path / "fresh.json", tmp_path / "old.json"
    old.write_text("previous")
    for path in (fresh, old):
        with pytest.raises(TypeError, match="weird_"):
            ser.save(_Unsavable(), path)
    assert not fresh.exists() and old.read_text() == "previous"
    assert sorted(os.listdir(tmp_path)) == ["old.json"]


def test_unfitted_estimator_is_refused():
    """Saving an estimator without rules_ is a ValueError naming the fix."""
    from sklearn.tree import DecisionTreeClassifier

    with pytest.raises(ValueError, match="not fitted"):
        ser.dumps(DecisionTreeClassifier())


def test_atomic_write_missing_directory(tmp_path):
    """Writing into a missing directory is a FileNotFoundError naming it."""
    with pytest.raises(FileNotFoundError, match="does not exist"):
        with ser.atomic_write(tmp_path / "nope" / "x.txt"):
            pass


def test_binarizer_round_trip_transforms_identically():
    """A fitted ThresholdBinarizer (thresholds, categories, names) is rebuilt without refitting."""
    import pandas as pd

    from satrules.binarize import ThresholdBinarizer

    X = pd.DataFrame({"age": [21.0, 35, 47, 52, 60, 33], "city": ["a", "b", "c", "a", "b", None],
                      "flag": [0, 1, 0, 1, 1, 0]})
    tb = ThresholdBinarizer(n_thresholds=3, missing="category").fit(X)
    back = ser._decode(json.loads(json.dumps(ser._encode(tb), allow_nan=False)))
    X_new = pd.DataFrame({"age": [10.0, 70], "city": ["zzz", "c"], "flag": [1, 0]})
    assert (back.transform(X) == tb.transform(X)).all()
    assert (back.transform(X_new) == tb.transform(X_new)).all()
    assert back.conditions_ == tb.conditions_
    assert list(back.feature_names_in_) == ["age", "city", "flag"]


def _fitted_estimators():
    """Every satrules estimator, fitted fast on a small mixed-type data set (binary and 3-class)."""
    import pandas as pd

    import satrules.estimators as E

    rng = np.random.default_rng(4)
    X = pd.DataFrame({"num": rng.normal(size=60), "cat": rng.choice(["p", "q", "r"], 60),
                      "int": rng.integers(0, 5, 60)})
    y2 = np.where((X.num > 0) | (X.cat == "p"), "yes", "no")
    y3 = np.select([X.num > 0.5, X.cat == "q"], ["hi", "mid"], "lo")
    small = {"n_rules": 1, "max_literals_per_rule": 2, "backend": "rc2", "n_estimators": 5,
             "max_depth": 2, "gamma": 3, "random_state": 0}
    out = []
    for cls in E.ALL:
        for y in (y2, y3):
            est = cls()
            est.set_params(**{k: v for k, v in small.items() if k in est.get_params()})
            out.append(pytest.param(est, X, y, id=f"{cls.__name__}-{len(set(y))}class"))
    return out


@pytest.mark.parametrize("est, X, y", _fitted_estimators())
def test_estimator_round_trip_predicts_identically(est, X, y, tmp_path):
    """A saved and loaded estimator predicts exactly as the original, keeps its parameters,
    rules text, metrics and the solver's provenance."""
    est.fit(X, y)
    path = ser.save(est, tmp_path / "m.json", metrics={"train_accuracy": est.score(X, y)})
    back = ser.load(path)
    assert type(back) is type(est) and back.get_params() == est.get_params()
    assert (back.predict(X) == est.predict(X)).all()
    doc = json.loads(path.read_text())
    from satrules.report import rules_text

    assert doc["rules_text"] == rules_text(est) == rules_text(back)
    assert back.metrics_ == {"train_accuracy": est.score(X, y)}
    solver = back.provenance_["solver"]
    assert solver["status"] in ("OPTIMAL", "FEASIBLE", "heuristic")
    if hasattr(est, "solution_"):
        assert solver["backend"] == "rc2" and solver["cost"] == est.solution_.cost
    again = ser.load(ser.save(back, tmp_path / "again.json"))     # re-saving keeps provenance
    assert again.provenance_["solver"] == solver
    assert (again.predict(X) == est.predict(X)).all()
