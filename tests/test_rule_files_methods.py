"""Rule-set file methods on RuleSet and on every estimator (issue 5 item 2)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer

from satrules import CDPRClassifier, IMLIBClassifier, IMLIClassifier
from satrules.rules import Literal, Rule, RuleSet


def test_ruleset_save_load_round_trip(tmp_path):
    """RuleSet.save writes a versioned JSON file and RuleSet.load rebuilds an equal rule set."""
    rs = RuleSet([Rule((Literal(0), Literal(2, True))), Rule((Literal(1),))], "dnf", 3)
    path = tmp_path / "rules.json"
    rs.save(path)
    doc = json.loads(path.read_text())
    assert doc["schema"] == "satrules.ruleset"
    back = RuleSet.load(path)
    assert back == rs
    Xb = np.array([[1, 0, 0], [0, 0, 0], [1, 0, 1], [0, 1, 1]], dtype=bool)
    np.testing.assert_array_equal(back.evaluate(Xb), rs.evaluate(Xb))


@pytest.mark.parametrize("cls, params", [
    (IMLIClassifier, {"backend": "rc2", "partition_size": 64, "n_rules": 1}),
    (IMLIBClassifier, {"backend": "rc2", "partition_size": 32, "n_rules": 1,
                       "max_literals_per_rule": 2}),
    (CDPRClassifier, {"n_estimators": 5, "max_depth": 3, "gamma": 4, "random_state": 0}),
])
def test_estimator_to_json_from_json_predicts_identically(cls, params, tmp_path):
    """to_json/from_json and save/load give an estimator with identical predictions."""
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:200, :6], y[:200]
    est = cls(**params).fit(X, y)
    again = cls.from_json(est.to_json())
    np.testing.assert_array_equal(again.predict(X), est.predict(X))
    path = tmp_path / "est.json"
    est.save(path)
    np.testing.assert_array_equal(cls.load(path).predict(X), est.predict(X))


def test_from_json_refuses_another_estimator_class():
    """Loading an IMLI file as a CDPRClassifier is a clear ValueError."""
    X, y = load_breast_cancer(return_X_y=True)
    est = IMLIClassifier(backend="rc2", partition_size=64).fit(X[:100, :4], y[:100])
    with pytest.raises(ValueError, match="not a CDPRClassifier"):
        CDPRClassifier.from_json(est.to_json())
