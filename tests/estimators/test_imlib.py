"""Tests for IMLIBClassifier: Example 1, both objectives, balance bound, partitions, OvR."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris

from satrules.backends.registry import available_backends
from satrules.encoders.imlib import decode_imlib, encode_imlib
from satrules.estimators.imlib import IMLIBClassifier
from satrules.rules import RuleSet

EX1_X = np.array([[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]])
EX1_Y = np.array([1, 0, 0, 1])
ENGINES = [b for b in ("rc2", "cpsat") if b in available_backends()]
FAST = "rc2" if "rc2" in available_backends() else "auto"


def noisy_data(n=60, seed=0, m=5):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, m))
    y = (X[:, 0] & X[:, 1]) | X[:, 2]
    flip = rng.random(n) < 0.1
    return X, np.where(flip, 1 - y, y)


@pytest.mark.parametrize("backend", [*ENGINES, "bruteforce"])
@pytest.mark.parametrize(("objective", "cost"), [("exact", 1), ("paper", 2)])
def test_example1(backend, objective, cost):
    """Example 1 (k = l = 1, λ = 10) learns R = ¬x2 at cost 1 (exact) / 2 (paper), any labels
    (four rows are too few to pass the default null test, so it is off)."""
    y = np.where(EX1_Y == 1, "pos", "neg")
    clf = IMLIBClassifier(n_rules=1, max_literals_per_rule=1, objective=objective,
                          backend=backend, null_test=False).fit(EX1_X, y)
    assert list(clf.classes_) == ["neg", "pos"]
    assert str(clf.rules_) == "IF (x1 != 1)\nTHEN pos"   # the rule set names its class
    assert clf.solution_.cost == cost
    assert clf.predict(EX1_X).tolist() == y.tolist()


@pytest.mark.parametrize("objective", ["exact", "paper"])
@pytest.mark.parametrize(("k", "ell"), [(1, 1), (2, 2), (3, 2)])
def test_rules_respect_k_and_l(objective, k, ell):
    """The learned rule set has at most k rules of at most l literals each (balance)."""
    X, y = noisy_data(80, seed=k)
    clf = IMLIBClassifier(n_rules=k, max_literals_per_rule=ell, objective=objective,
                          partition_size=20, backend=FAST, random_state=0).fit(X, y)
    assert clf.rules_.n_rules <= k
    assert clf.rules_.max_rule_size <= ell
    assert len(clf.solutions_) == 4 * 2   # 4 partitions, 2 passes


def test_single_partition_optimum_is_stated_objective():
    """One partition, exact objective: the final solution's cost is |R_raw| + λ·errors."""
    X, y = noisy_data(40, seed=3)
    clf = IMLIBClassifier(n_rules=2, max_literals_per_rule=2, data_fidelity=5, n_partitions=1,
                          backend=FAST, reduce=False).fit(X, y)
    raw = decode_imlib(encode_imlib(clf.binarizer_.transform(X), y, 2, 2, 5).layout,
                       clf.solution_)
    errors = int((raw.evaluate(clf.binarizer_.transform(X)) != y.astype(bool)).sum())
    assert clf.solution_.cost == raw.n_literals + 5 * errors
    # simplification never changes predictions
    assert (clf.predict(X) == raw.evaluate(clf.binarizer_.transform(X))).all()


def test_learns_the_target_concept():
    """Noise-free (x0 AND x1) OR x2 is recovered exactly with k = 2, l = 2 (one exact solve)."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(40, 4))
    y = (X[:, 0] & X[:, 1]) | X[:, 2]
    clf = IMLIBClassifier(n_rules=2, max_literals_per_rule=2, n_partitions=1,
                          backend=FAST).fit(X, y)
    assert clf.score(X, y) == 1.0
    assert clf.rules_.n_literals == 3 and clf.rules_.max_rule_size == 2


def test_partitions_anchor_and_refit_is_deterministic():
    """Same random_state gives the same rules; clone refits identically; pickling keeps them."""
    X, y = noisy_data(64, seed=5)
    clf = IMLIBClassifier(n_rules=2, max_literals_per_rule=2, partition_size=16,
                          backend=FAST, random_state=7).fit(X, y)
    again = clone(clf).fit(X, y)
    assert again.rules_ == clf.rules_
    assert clf.fit(X, y).rules_ == again.rules_
    restored = pickle.loads(pickle.dumps(clf))
    assert (restored.predict(X) == clf.predict(X)).all()
    # the first partition pays for size (u*), later ones for anchors on u and polarity p
    families = [{sol.model.key(abs(int(lit)))[0] for lit in sol.model.soft.lits}
                for sol in clf.solutions_]
    assert families[0] == {"u", "eta"}
    assert all(f == {"u", "p", "eta"} for f in families[1:])


def test_multiclass_one_vs_rest():
    """Three classes give one rule set per class; predictions are valid class labels."""
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    clf = IMLIBClassifier(n_rules=1, max_literals_per_rule=2, n_thresholds=3,
                          partition_size=50, backend=FAST, random_state=0).fit(X, names)
    assert set(clf.rules_) == set(names)
    assert all(isinstance(r, RuleSet) and r.max_rule_size <= 2 for r in clf.rules_.values())
    assert set(clf.predict(X)) <= set(names)
    assert clf.score(X, names) > 0.8
    with pytest.raises(ValueError, match="2 classes"):
        clf.set_params(multi_class="error").fit(X, names)


def test_dataframe_feature_names_in_rules():
    """DataFrame columns name the conditions of the learned rules."""
    X, y = noisy_data(40, seed=2)
    df = pd.DataFrame(X, columns=["a", "b", "c", "d", "e"])
    clf = IMLIBClassifier(n_rules=2, max_literals_per_rule=2, backend=FAST).fit(df, y)
    assert list(clf.feature_names_in_) == ["a", "b", "c", "d", "e"]
    assert "c" in str(clf.rules_)


@pytest.mark.parametrize(("params", "match"), [
    ({"max_literals_per_rule": 0}, "max_literals_per_rule"),
    ({"n_rules": 1.5}, "n_rules"),
    ({"data_fidelity": -1}, "data_fidelity"),
    ({"objective": "printed"}, "objective"),
    ({"partition_size": 0}, "partition_size"),
])
def test_bad_parameters_raise_in_fit(params, match):
    """Invalid parameters raise ValueError in fit (not in __init__, so clone works)."""
    clf = IMLIBClassifier(**params)
    clone(clf)
    with pytest.raises(ValueError, match=match):
        clf.fit(EX1_X, EX1_Y)


def test_time_limit_keeps_best_rules():
    """A tiny total time limit still returns a usable rule set (anytime)."""
    X, y = noisy_data(200, seed=4, m=8)
    clf = IMLIBClassifier(n_rules=3, max_literals_per_rule=3, partition_size=50,
                          backend=FAST, time_limit=2, random_state=0).fit(X, y)
    assert clf.predict(X).shape == (200,)
    assert clf.rules_.max_rule_size <= 3
