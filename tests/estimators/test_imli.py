"""Tests for IMLIClassifier: learning, partitions, warm start, anytime, OvR, determinism."""

from __future__ import annotations

import pickle
import warnings
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split

import satrules.estimators._base as base
from satrules.backends.registry import available_backends
from satrules.backends.registry import solve as real_solve
from satrules.estimators.imli import IMLIClassifier
from satrules.estimators.imlib import IMLIBClassifier
from satrules.ir import Status, make_solution
from satrules.rules import RuleSet
from tests.timing import VirtualClock

EX1_X = np.array([[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]])
EX1_Y = np.array([1, 0, 0, 1])
ENGINES = [b for b in ("rc2", "cpsat") if b in available_backends()]


def noisy_data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, 5))
    y = (X[:, 0] & X[:, 1]) | X[:, 2]
    flip = rng.random(n) < 0.1
    return X, np.where(flip, 1 - y, y)


@pytest.mark.parametrize("backend", ENGINES + ["bruteforce"])
def test_example1_any_label_type(backend):
    """Example 1 learns R = NOT x2 for string labels and predicts the training labels
    (four rows are too few to pass the default null test, so it is off)."""
    y = np.where(EX1_Y == 1, "pos", "neg")
    clf = IMLIClassifier(n_rules=1, backend=backend, null_test=False).fit(EX1_X, y)
    assert list(clf.classes_) == ["neg", "pos"]
    assert str(clf.rules_) == "IF (x1 != 1)\nTHEN pos"   # the rule set names its class
    assert clf.predict(EX1_X).tolist() == y.tolist()
    assert clf.solution_.status is Status.OPTIMAL and clf.solution_.cost == 1
    assert clf.score(EX1_X, y) == 1.0


@pytest.mark.parametrize("rule_type", ["dnf", "cnf"])
def test_rules_are_consistent_with_predictions(rule_type):
    """predict() is exactly the learned rule set evaluated on the binarized data."""
    X, y = noisy_data()
    clf = IMLIClassifier(n_rules=2, rule_type=rule_type, partition_size=20, random_state=0,
                         backend=ENGINES[0]).fit(X, y)
    assert clf.rules_.kind == rule_type
    assert len(clf.solutions_) == 3 * clf.n_passes_ == 6   # 3 partitions, 2 passes
    pred = clf.rules_.evaluate(clf.binarizer_.transform(X))
    assert np.array_equal(clf.predict(X), clf.classes_[pred.astype(int)])
    assert clf.score(X, y) >= 0.8


def test_dataframe_feature_names_in_rules():
    """Rules print with the DataFrame's column names; predict checks the names."""
    X, y = noisy_data()
    df = pd.DataFrame(X, columns=["a", "b", "c", "d", "e"])
    clf = IMLIClassifier(n_rules=2, backend=ENGINES[0]).fit(df, y)
    assert list(clf.feature_names_in_) == list(df.columns)
    assert "c = 1" in str(clf.rules_)
    with pytest.warns(UserWarning, match="feature names"):
        from_numpy = clf.predict(df.to_numpy())
    assert np.array_equal(clf.predict(df), from_numpy)


@pytest.mark.parametrize("backend", ENGINES)
def test_determinism(backend):
    """Same data, parameters, backend and random_state give the same rules (issue 4 row 7)."""
    X, y = noisy_data(80, seed=3)
    params = {"n_rules": 2, "partition_size": 16, "random_state": 7, "backend": backend}
    first = IMLIClassifier(**params).fit(X, y).rules_
    for _ in range(2):
        assert IMLIClassifier(**params).fit(X, y).rules_ == first


def test_clone_refit_and_pickle():
    """clone gives an unfitted copy; refitting is idempotent; a pickled model predicts the same."""
    X, y = noisy_data()
    clf = IMLIClassifier(n_rules=2, partition_size=20, random_state=1, backend=ENGINES[0])
    a = clf.fit(X, y).rules_
    assert clf.fit(X, y).rules_ == a
    assert not hasattr(clone(clf), "rules_")
    back = pickle.loads(pickle.dumps(clf))
    assert np.array_equal(back.predict(X), clf.predict(X)) and back.rules_ == a


def test_multiclass_one_vs_rest():
    """Three classes: one rule set per class; predictions follow the documented tie rule."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(90, 1))
    y = np.array(["a", "b", "c"])[X[:, 0]]
    clf = IMLIClassifier(backend=ENGINES[0]).fit(np.hstack([X, rng.integers(0, 2, (90, 1))]), y)
    assert set(clf.rules_) == {"a", "b", "c"} and all(
        isinstance(r, RuleSet) for r in clf.rules_.values())
    assert clf.score(np.hstack([X, np.zeros((90, 1))]), y) == 1.0
    with pytest.raises(ValueError, match="needs 2 classes, got 3"):
        IMLIClassifier(multi_class="error").fit(X, y)


def recording_solve(calls, status_for=None):
    """A solve() double that records its arguments and can downgrade a status."""
    def fake(model, backend="auto", *, time_limit=None, seed=None, hint=None, **kw):
        sol = real_solve(model, backend=backend, time_limit=None, seed=seed, hint=hint)
        calls.append({"model": model, "hint": hint, "time_limit": time_limit, "sol": sol})
        status = status_for(len(calls)) if status_for else None
        if status is Status.UNKNOWN:
            return make_solution(model, Status.UNKNOWN, backend="fake")
        if status is Status.FEASIBLE:
            return make_solution(model, Status.FEASIBLE, sol.values, backend="fake")
        return sol
    return fake


def test_warm_start_hints_are_feasible_and_budget_is_split(monkeypatch):
    """Partitions >= 2 get a complete feasible hint; the per-solve limits sum to <= time_limit."""
    calls = []
    monkeypatch.setattr(base, "solve", recording_solve(calls))
    X, y = noisy_data(64)
    # the partitions' solves alone: the held-out test's folds are fits of their own
    clf = IMLIClassifier(n_rules=2, partition_size=16, time_limit=40, random_state=0,
                         null_test=True, backend=ENGINES[0]).fit(X, y)
    n = len(calls)
    # 4 partitions, 2 passes, 3 inits, then the choice among the rules of the 3 fits
    assert n == 8 * clf.n_init_ + 1 == 25
    for call in calls:
        assert call["model"].evaluate(call["hint"])
        # the hint is a feasible rule set (the best so far): its cost bounds the optimum
        assert call["sol"].cost <= call["model"].cost(call["hint"])
    limits = [c["time_limit"] for c in calls]
    # each solve gets (time left) / (solves left): if every solve used its whole limit the
    # fit would end exactly at time_limit
    assert all(0 < t * (n - i) <= 40 + 1e-6 for i, t in enumerate(limits))
    assert limits[0] == pytest.approx(40 / n, abs=0.5)


def test_anytime_unknown_keeps_previous_rules(monkeypatch):
    """A partition ending UNKNOWN keeps the previous partition's rules; FEASIBLE ones are used."""
    calls, decoded = [], []
    monkeypatch.setattr(base, "solve", recording_solve(
        calls, lambda i: Status.UNKNOWN if i == 2 else Status.FEASIBLE))
    real_decode = IMLIClassifier._decode

    def recording_decode(self, encoding, solution):
        decoded.append(real_decode(self, encoding, solution))
        return decoded[-1]

    monkeypatch.setattr(IMLIClassifier, "_decode", recording_decode)
    X, y = noisy_data(32)
    clf = IMLIClassifier(n_rules=2, n_partitions=2, n_passes=1, n_init=1, random_state=0,
                         null_test=True, backend=ENGINES[0])   # no folds decoded too
    clf.fit(X, y)
    assert [s.status for s in clf.solutions_] == [Status.FEASIBLE, Status.UNKNOWN]
    assert len(decoded) == 1   # only the FEASIBLE partition is decoded
    assert [e["objective"] is None for e in clf.fit_history_] == [False, True]
    conds = clf.binarizer_.conditions_
    if clf.best_partition_["constant"] is None:
        assert clf.best_partition_["partition"] == 0
        assert clf.rules_ == decoded[0].named(conds).simplify().named(conds)


def test_all_unknown_falls_back_to_majority(monkeypatch):
    """If no partition yields a solution, a warning is given and the majority class predicted."""
    monkeypatch.setattr(base, "solve", recording_solve([], lambda i: Status.UNKNOWN))
    X, y = noisy_data(30)
    with pytest.warns(RuntimeWarning, match="no partition produced a solution"):
        clf = IMLIClassifier(backend=ENGINES[0], polish=False).fit(X, y)
    majority = np.bincount(y).argmax()
    assert (clf.predict(X) == majority).all()
    # polishing starts from that constant and can only do better on the training data
    with pytest.warns(RuntimeWarning, match="then polished"):
        polished = IMLIClassifier(backend=ENGINES[0]).fit(X, y)
    assert polished.score(X, y) >= clf.score(X, y)


def test_symmetry_breaking_same_training_objective():
    """Symmetry breaking on/off reaches the same optimal cost on the first partition."""
    X, y = noisy_data(40, seed=5)
    costs = [IMLIClassifier(n_rules=2, symmetry_breaking=s, backend=ENGINES[0], random_state=0)
             .fit(X, y).solution_.cost for s in (False, True)]
    assert costs[0] == costs[1]


@pytest.mark.parametrize("backend", ENGINES)
def test_real_time_limit_is_honoured(backend, monkeypatch):
    """time_limit=2 s covers the whole fit, on a clock that moves only when a partition is
    solved (0.8 s each, whatever the machine's load): every engine call is given at most
    its share of what is left, no partition is started after the deadline (so three are
    solved), the fit says the limit was reached, and its rules are what it predicts."""
    from satrules.estimators import _polish

    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 8))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=400) > 0).astype(int)
    clock, given = VirtualClock(), []

    def engine(model, *, time_limit=None, **kwargs):
        given.append((time_limit, clock.now))
        sol = real_solve(model, time_limit=time_limit, **kwargs)
        clock.advance(0.8)
        return sol

    monkeypatch.setattr(base, "time", clock)
    monkeypatch.setattr(_polish, "time", clock)
    monkeypatch.setattr(base, "solve", engine)
    start = clock.now
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # the fit's own time: with null_test="held-out" it gets half the limit
        # (test_held_out_null.py tests that share)
        clf = IMLIClassifier(n_rules=3, time_limit=2.0, backend=backend, random_state=0,
                             null_test=True)
        clf.fit(X, y)
    assert len(given) == 3 and clf.time_limit_reached_
    assert all(0 < limit <= start + 2.0 - at for limit, at in given), given
    statuses = {s.status for s in clf.solutions_}
    assert statuses <= {Status.UNKNOWN, Status.FEASIBLE, Status.OPTIMAL}
    if statuses <= {Status.UNKNOWN}:   # no solution in time (heavily loaded machine)
        assert any("no partition produced" in str(w.message) for w in caught)
        assert len(set(clf.predict(X).tolist())) == 1
    else:
        pred = clf.rules_.evaluate(clf.binarizer_.transform(X))
        assert np.array_equal(clf.predict(X), clf.classes_[pred.astype(int)])


def test_breast_cancer_accuracy():
    """On scikit-learn's breast cancer data IMLI reaches a sensible held-out accuracy."""
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
    clf = IMLIClassifier(n_rules=2, partition_size=32, random_state=0,
                         backend=ENGINES[0]).fit(Xtr, ytr)
    assert clf.score(Xte, yte) >= 0.85
    assert clf.rules_.n_literals <= 20


def test_each_partition_anchors_to_pruned_rules(monkeypatch):
    """§2.7: after every partition the decoded rules are pruned (one '<=' and one '>' per
    feature per term, rules kept one-to-one) and the next partition anchors to them
    (each partition is encoded over its distinct, undominated columns: compared over all
    columns)."""
    import satrules.estimators.imli as imli_mod
    priors, decoded, subsets = [], [], []
    real_encode, real_decode = imli_mod.encode_imli, IMLIClassifier._decode
    real_subset = base.undominated_columns   # the last step: the columns encoded

    def recording_subset(*args, **kwargs):
        subsets.append(real_subset(*args, **kwargs))
        return subsets[-1]

    def recording_encode(*args, **kwargs):
        priors.append(kwargs.get("prior"))
        return real_encode(*args, **kwargs)

    def recording_decode(self, encoding, solution):
        decoded.append(real_decode(self, encoding, solution))
        return decoded[-1]

    monkeypatch.setattr(imli_mod, "encode_imli", recording_encode)
    monkeypatch.setattr(IMLIClassifier, "_decode", recording_decode)
    monkeypatch.setattr(base, "undominated_columns", recording_subset)
    rng = np.random.default_rng(1)
    X = rng.normal(size=(96, 3))
    y = (X[:, 0] > 0.3).astype(int)
    clf = IMLIClassifier(n_rules=2, partition_size=16, n_thresholds=6, data_fidelity=5,
                         n_init=1, null_test=True,   # no folds' partitions recorded too
                         random_state=0, backend=ENGINES[0]).fit(X, y)
    conds = clf.binarizer_.conditions_
    assert priors[0] is None and len(priors) == 12   # 6 partitions, 2 passes
    assert len(subsets) == 12 and any(s is not None for s in subsets)
    whole = [base._ColumnView(len(conds), s) for s in subsets]
    for rules, prior, at, then in zip(decoded[:-1], priors[1:], whole[:-1], whole[1:],
                                      strict=True):
        rules, prior = at.widen(rules), then.widen(prior).named(conds)
        assert prior == rules.named(conds).simplify(remove_rules=False)
        assert prior.n_rules == 2
        for term in prior.rules:
            seen = Counter((conds[lit.column].group, lit.negated) for lit in term
                           if conds[lit.column].op == "<=")
            assert max(seen.values(), default=0) <= 1
    assert clf.score(X, y) >= 0.85


def test_to_text_names_the_classes():
    """to_text() reads IF-THEN-ELSE with the class labels (binary and one-vs-rest)."""
    X = pd.DataFrame({"age": [20, 30, 40, 50, 60, 70], "smoker": ["y", "n", "y", "n", "y", "n"]})
    y = np.array(["low", "low", "low", "high", "high", "high"])
    clf = IMLIClassifier(n_rules=1, backend=ENGINES[0], null_test=False).fit(X, y)   # 6 rows
    assert clf.to_text() == "IF (age <= 40)\nTHEN low\nELSE high"
    assert clf.predict(X).tolist() == y.tolist()


def test_size_guard_reaches_the_user():
    """Too large a partition is refused before any clause is built, naming partition_size."""
    from satrules.exceptions import ModelSizeError
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(40_000, 100), dtype=np.int8)
    y = rng.integers(0, 2, size=40_000)
    with pytest.raises(ModelSizeError, match="partition_size"):
        IMLIClassifier(n_rules=3, n_partitions=1, backend=ENGINES[0]).fit(X, y)
    small_X, small_y = noisy_data(60)
    with pytest.raises(ModelSizeError, match="max_clauses=100"):
        IMLIClassifier(max_clauses=100, n_partitions=1, backend=ENGINES[0]).fit(small_X, small_y)
    with pytest.raises(ValueError, match="max_clauses"):
        IMLIClassifier(max_clauses=0).fit(small_X, small_y)


def test_to_text_one_vs_rest():
    """The one-vs-rest text has one block per class and states the tie rule."""
    X = np.array([[0], [1], [2]] * 4)
    y = np.array(["a", "b", "c"] * 4)
    text = IMLIClassifier(backend=ENGINES[0], null_test=False).fit(X, y).to_text()
    assert text.count("THEN ") == 3 and "When several classes fire" in text


@pytest.mark.parametrize("kind", ["dnf", "cnf"])
def test_to_text_one_vs_rest_names_a_class_no_rule_predicts(kind):
    """A class whose rules never fire reads 'No rule predicts <class>.', not 'IF FALSE'."""
    from satrules.rules import RuleSet
    X = np.array([[0], [1], [2]] * 4)
    y = np.array(["a", "b", "c"] * 4)
    clf = IMLIClassifier(backend=ENGINES[0], rule_type=kind, null_test=False).fit(X, y)
    old = clf.rules_["b"]
    never = [] if kind == "dnf" else [[]]
    clf.rules_["b"] = RuleSet(never, kind, old.n_columns, old.conditions, label="b")
    text = clf.to_text()
    assert "No rule predicts b." in text and "FALSE" not in text
    assert text.count("THEN ") == 2 and "When several classes fire" in text
    # the CLI's printer (satrules learn / decode / demo) words it the same way
    from satrules.report import rules_text
    cli = rules_text(clf)
    assert "No rule predicts b." in cli and "FALSE" not in cli and cli.count("THEN ") == 2


def test_feasible_answer_worse_than_warm_start_is_replaced(monkeypatch):
    """Anytime: a time-limited FEASIBLE answer costing more than the warm start (the previous
    rules) is replaced by the warm start, so a partition never makes the rules worse on it."""
    calls = []

    def bad_second(model, backend="auto", *, time_limit=None, seed=None, hint=None, **kw):
        sol = real_solve(model, backend=backend, seed=seed, hint=hint)
        calls.append({"model": model, "hint": hint})
        if len(calls) != 2:
            return sol
        # a feasible but poor assignment: every literal in every clause, every z false
        values = {}
        for var in range(1, model.n_vars + 1):
            key = model.key(var)
            values[var] = key[0] == "b"
        eta = [v for v in range(1, model.n_vars + 1) if model.key(v)[0] == "eta"]
        for v in eta:
            values[v] = True
        return make_solution(model, Status.FEASIBLE, values, backend="fake")

    monkeypatch.setattr(base, "solve", bad_second)
    X, y = noisy_data(40)
    clf = IMLIClassifier(n_rules=1, n_partitions=2, random_state=0, backend=ENGINES[0])
    clf.fit(X, y)
    second = clf.solutions_[1]
    hint = calls[1]["hint"]
    assert second.status is Status.FEASIBLE and "warm start" in second.message
    assert second.cost == calls[1]["model"].cost(hint)
    assert all(second[v] == val for v, val in hint.items())


@pytest.mark.parametrize("cls_name", ["IMLIClassifier", "IMLIBClassifier"])
def test_tree_thresholds_let_the_rules_find_a_cut(cls_name):
    """thresholds="tree" (the default) reaches the binarizer: a label that flips at x = 0.1,
    between two quantiles, is learnt exactly with it and not with thresholds="quantile";
    the rule text shows the cut."""
    import satrules

    cls = getattr(satrules, cls_name)
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"x": rng.normal(size=300), "noise": rng.normal(size=300)})
    y = np.where(X["x"] > 0.1, "up", "down")
    params = {"n_rules": 1, "backend": ENGINES[0], "random_state": 0}
    tree = cls(**params).fit(X, y)
    assert tree.get_params()["thresholds"] == "tree" and tree.binarizer_.thresholds == "tree"
    assert tree.score(X, y) == 1.0
    assert "x > 0.1" in tree.to_text()
    quantile = cls(thresholds="quantile", **params).fit(X, y)
    assert quantile.binarizer_.thresholds == "quantile" and quantile.score(X, y) < 1.0


def test_default_thresholds_separate_many_classes_cut_from_one_feature():
    """An 8-class target that is one feature cut into intervals: the default
    ``n_thresholds="auto"`` gives each boundary its cut, so one-vs-rest rules get nearly
    every training row right; with four cuts at most five of the intervals can be told
    apart."""
    import pandas as pd

    rng = np.random.default_rng(1)
    X = pd.DataFrame({"signal": rng.uniform(0, 8, 480), "noise": rng.normal(size=480)})
    y = np.floor(X["signal"]).astype(int).astype(str).to_numpy()
    auto = IMLIClassifier(random_state=0, backend=ENGINES[0]).fit(X, y)
    four = IMLIClassifier(random_state=0, backend=ENGINES[0], n_thresholds=4).fit(X, y)
    assert auto.score(X, y) >= 0.95
    assert four.score(X, y) <= 0.75


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_many_classes_encode_each_class_over_its_own_thresholds(cls, monkeypatch):
    """With ``K > 5`` classes the binarizer cuts each feature up to ``K - 1`` times, but
    each one-vs-rest problem is encoded over the thresholds that split it
    (``class_columns``; each partition then over the distinct ones among them), and the
    rules it returns index the full columns."""
    import pandas as pd

    rng = np.random.default_rng(2)
    X = pd.DataFrame({"signal": rng.uniform(0, 8, 320), "noise": rng.normal(size=320)})
    y = np.floor(X["signal"]).astype(int).astype(str).to_numpy()
    widths, encoded = [], []
    original, distinct = cls._encode_partition, base.distinct_columns

    def spy(self, Xb, y_part, prior, rng_, **kwargs):   # sample_weight: weighted classes
        encoded.append(Xb.shape[1])
        return original(self, Xb, y_part, prior, rng_, **kwargs)

    def spy_distinct(Xb, keep=()):
        widths.append(Xb.shape[1])
        return distinct(Xb, keep)

    monkeypatch.setattr(cls, "_encode_partition", spy)
    monkeypatch.setattr(base, "distinct_columns", spy_distinct)
    est = cls(random_state=0, backend=ENGINES[0], n_passes=1, max_partitions=3).fit(X, y)
    full = len(est.binarizer_.conditions_)
    Xb = est.binarizer_.transform(X)
    expected = {len(est.binarizer_.class_columns(Xb, y == c)) for c in est.classes_}
    assert full > 12 and max(widths) < full and set(widths) <= expected
    assert len(encoded) == len(widths) and all(map(int.__le__, encoded, widths))
    for rules in est.rules_.values():
        assert rules.n_columns == full
        assert rules.conditions == tuple(est.binarizer_.conditions_)
    assert est.score(X, y) >= 0.9


def test_column_view_moves_rules_between_the_full_columns_and_a_subset():
    """``_ColumnView``: narrow then widen gives the rules back; rules on a column outside
    the subset narrow to None, which the warm start treats as "no rules to start from"."""
    from satrules.estimators._base import _ColumnView
    from satrules.rules import Literal, Rule

    view = _ColumnView(6, np.array([1, 3, 4]))
    rules = RuleSet([Rule((Literal(3), Literal(1, negated=True))), Rule((Literal(4),))], "dnf", 6)
    small = view.narrow(rules)
    assert small.n_columns == 3
    assert [[(lit.column, lit.negated) for lit in r.literals] for r in small.rules] == \
        [[(1, False), (0, True)], [(2, False)]]
    assert view.widen(small).rules == rules.rules and view.widen(small).n_columns == 6
    assert view.narrow(RuleSet([Rule((Literal(2),))], "dnf", 6)) is None
    assert view.narrow(None) is None
    assert view.rows(np.arange(24).reshape(4, 6), np.array([0, 2])).tolist() == \
        [[1, 3, 4], [13, 15, 16]]
    assert IMLIClassifier()._warm_start(type("E", (), {"hint": {1: True}})(), None) == {1: True}


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_one_vs_rest_classes_share_max_partitions(cls, monkeypatch):
    """Each of ``K`` one-vs-rest problems solves ``ceil(max_partitions / K)`` partitions per
    pass, but at least ``MIN_PARTITIONS_PER_CLASS``, so a fit of a few classes solves about
    as many as a binary one."""
    monkeypatch.setattr(base, "MIN_PARTITIONS_PER_CLASS", 2)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(240, 3))
    y = np.digitize(X[:, 0], [-0.5, 0.5])               # 3 classes
    est = cls(random_state=0, backend=ENGINES[0], partition_size=8, max_partitions=7,
              n_passes=2).fit(X, y)
    assert est.n_partitions_ == 30
    assert {len(s) for s in est.solutions_.values()} == {2 * 3}   # ceil(7 / 3) = 3 per pass
    binary = cls(random_state=0, backend=ENGINES[0], partition_size=8, max_partitions=7,
                 n_passes=2).fit(X, y == 1)
    assert len(binary.solutions_) == 2 * 7
    every = cls(random_state=0, backend=ENGINES[0], partition_size=8, max_partitions=None,
                n_passes=1).fit(X, y)
    assert {len(s) for s in every.solutions_.values()} == {30}
    monkeypatch.setattr(base, "MIN_PARTITIONS_PER_CLASS", 5)   # the floor: 5 per pass
    floor = cls(random_state=0, backend=ENGINES[0], partition_size=8, max_partitions=7,
                n_passes=2).fit(X, y)
    assert {len(s) for s in floor.solutions_.values()} == {2 * 5}
    # the floor gives way when the classes' solves together exceed PASS_WORK: one unit
    # per solve here (a huge SOLVE_OVERHEAD_CLAUSES), so 13 units leave 13 // 3 = 4 each
    monkeypatch.setattr(base, "SOLVE_OVERHEAD_CLAUSES", 10**12)
    monkeypatch.setattr(base, "PASS_WORK", 13)
    capped = cls(random_state=0, backend=ENGINES[0], partition_size=8, max_partitions=7,
                 n_passes=2).fit(X, y)
    assert {len(s) for s in capped.solutions_.values()} == {2 * 4}
    monkeypatch.setattr(base, "PASS_WORK", 1)   # never below the share of max_partitions
    shared = cls(random_state=0, backend=ENGINES[0], partition_size=8, max_partitions=7,
                 n_passes=2).fit(X, y)
    # ... and one solve per class (3 units) already exceeds PASS_WORK: one pass
    assert shared.n_passes_ == 1
    assert {len(s) for s in shared.solutions_.values()} == {3}
    assert {h["pass"] for hist in shared.fit_history_.values() for h in hist} == {0}
    monkeypatch.setattr(base, "PASS_WORK", 4)   # 3 units (and a bit) fit: both passes
    both = cls(random_state=0, backend=ENGINES[0], partition_size=8, max_partitions=7,
               n_passes=2).fit(X, y)
    assert both.n_passes_ == 2 and {len(s) for s in both.solutions_.values()} == {2 * 3}
    binary = cls(random_state=0, backend=ENGINES[0], partition_size=8, max_partitions=7,
                 n_passes=2).fit(X, y == 1)   # one problem: no floor, no work bound
    assert len(binary.solutions_) == 2 * 7


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_very_many_classes_make_fewer_passes(cls):
    """``_one_vs_rest_passes``: ``n_passes`` while one solve per class fits in
    ``PASS_WORK``; beyond, as many passes as ``n_passes * PASS_WORK`` units allow, at
    least one; a binary fit, or an unknown encoding size, keeps ``n_passes``."""
    est = cls()
    clauses = base.SOLVE_OVERHEAD_CLAUSES   # two units per solve
    assert est._one_vs_rest_passes(3, [clauses] * (base.PASS_WORK // 2)) == 3
    assert est._one_vs_rest_passes(3, [clauses] * (base.PASS_WORK // 2 + 1)) == 2
    assert est._one_vs_rest_passes(3, [clauses] * base.PASS_WORK) == 1
    assert est._one_vs_rest_passes(3, [clauses] * (10 * base.PASS_WORK)) == 1
    assert est._one_vs_rest_passes(3, [10**9]) == 3
    assert est._one_vs_rest_passes(3, [None] * 10**4) == 3


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_partition_floor_gives_way_to_large_encodings(cls):
    """``_solved_per_pass``: the floor of ``MIN_PARTITIONS_PER_CLASS`` holds for small
    encodings and shrinks for large ones, so that many classes of wide data stay bounded;
    the share of ``max_partitions`` is always kept."""
    est = cls(max_partitions=100)
    small, large = est._encoding_clauses(16, 40), est._encoding_clauses(16, 900)
    assert small < large
    assert est._solved_per_pass(1250, 20, small) == base.MIN_PARTITIONS_PER_CLASS
    work = 1 + large / base.SOLVE_OVERHEAD_CLAUSES
    expect = max(5, min(25, int(base.PASS_WORK // (20 * work))))
    assert est._solved_per_pass(1250, 20, large) == expect
    assert est._solved_per_pass(1250, 1000, large) == 1   # ceil(100 / 1000)
    assert est._solved_per_pass(1250, 1, large) == 100    # binary: max_partitions
    assert est._solved_per_pass(10, 1, large) == 10       # never more than there are
    assert est._solved_per_pass(1250, 20, None) == base.MIN_PARTITIONS_PER_CLASS
    # beyond the share of max_partitions, a pass does at most PASS_WORK in all
    for k in (3, 8, 20, 50, 100):
        share = est._solved_per_pass(1250, k, large)
        assert share >= -(-100 // k)
        assert share == -(-100 // k) or k * share * work <= base.PASS_WORK or share == 25
