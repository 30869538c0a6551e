"""``predict_proba``: each row gets the smoothed class frequencies of the training rows
the rules classified the same way (its region), computed here again by brute force."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import cross_val_score

from satrules.backends.registry import available_backends
from satrules.estimators import CDPRClassifier, IMLIBClassifier, IMLIClassifier
from satrules.serialization import SchemaError

BACKEND = "rc2" if "rc2" in available_backends() else "auto"


def learners():
    fast = dict(backend=BACKEND, n_thresholds=3, random_state=0)
    return [IMLIClassifier(n_rules=2, **fast), IMLIBClassifier(n_rules=2, **fast),
            CDPRClassifier(gamma=4, n_estimators=10, max_depth=3, random_state=0),
            CDPRClassifier(gamma=4, n_estimators=10, max_depth=3, random_state=0,
                           resolve="vote"),
            CDPRClassifier(gamma=4, n_estimators=10, max_depth=3, random_state=0,
                           resolve="coverage")]


def ids(est):
    return type(est).__name__ + getattr(est, "resolve", "")


def table(seed: int, n: int, n_classes: int, noise: float):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 5, n),
                      "c": rng.choice(["u", "v", "w"], n)})
    score = X["a"] + 0.5 * X["b"] + (X["c"] == "u")
    edges = np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1])
    y = np.searchsorted(edges, score)
    flip = rng.random(n) < noise
    y[flip] = rng.integers(0, n_classes, flip.sum())
    return X, np.array([f"k{v}" for v in y])


def brute_regions(est, X) -> list:
    """Each row's region, from the rules' own evaluation, one row at a time."""
    if isinstance(est, CDPRClassifier):
        covers = est.rule_covers(X).toarray()
        priority = est.rules_.support if est.resolve == "coverage" else est.rules_.accuracy
        pred = est.predict(X)
        out = []
        for i in range(len(X)):
            hits = [r for r in range(covers.shape[0]) if covers[r, i]]
            if not hits:
                out.append("none")
            elif est.resolve == "vote":
                out.append(("class", pred[i]))
            else:   # the highest priority, ties to the earlier rule
                out.append(("rule", max(hits, key=lambda r: (priority[r], -r))))
        return out
    Xb = est.binarizer_.transform(X)
    if not isinstance(est.rules_, dict):
        return [bool(v) for v in est.rules_.evaluate(Xb)]
    out = []
    for i in range(len(X)):
        firing = [c for c in est.class_order_ if est.rules_[c].evaluate(Xb[i:i + 1])[0]]
        out.append(firing[0] if firing else "none")
    return out


@pytest.mark.parametrize("est", learners(), ids=ids)
@given(seed=st.integers(0, 10**6), n_classes=st.sampled_from([2, 3]),
       noise=st.sampled_from([0.0, 0.2, 0.5]))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_probabilities_are_smoothed_frequencies_of_the_rows_classified_alike(
        est, seed, n_classes, noise):
    """On fresh rows, each row's probabilities are (count of class k among the training
    rows of its region + 1 + [k is the class predicted there]) / (rows + classes + 1),
    regions worked out by brute force."""
    X, y = table(seed, 90, n_classes, noise)
    new, _ = table(seed + 1, 40, n_classes, noise)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, y)
    train_regions, pred_train = brute_regions(est, X), est.predict(X)
    proba, pred = est.predict_proba(new), est.predict(new)
    classes = est.classes_.tolist()
    assert proba.shape == (len(new), len(classes))
    assert np.allclose(proba.sum(axis=1), 1.0) and (proba > 0).all() and (proba < 1).all()
    for i, region in enumerate(brute_regions(est, new)):
        members = [j for j, r in enumerate(train_regions) if r == region]
        if members:   # a region's training rows all get one prediction: the region's
            assert len({pred_train[j] for j in members}) == 1
        counts = np.array([sum(y[j] == c for j in members) for c in classes], dtype=float)
        counts += 1.0
        counts[classes.index(pred[i])] += 1.0
        assert np.allclose(proba[i], counts / counts.sum()), (region, members)


@pytest.mark.parametrize("make", [IMLIClassifier, IMLIBClassifier])
@given(seed=st.integers(0, 10**6), noise=st.sampled_from([0.0, 0.2, 0.4]))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_binary_rule_sets_predict_their_most_probable_class(make, seed, noise):
    """A binary IMLI or IMLIB fit is never worse on its training rows than predicting one
    class, so in neither region does another class lead: the predicted class is the most
    probable one on every row."""
    X, y = table(seed, 80, 2, noise)
    est = make(n_rules=2, backend=BACKEND, n_thresholds=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, y)
    rows = pd.concat([X, table(seed + 1, 40, 2, noise)[0]])
    assert (est.classes_[est.predict_proba(rows).argmax(axis=1)] == est.predict(rows)).all()


@pytest.mark.parametrize("est", learners(), ids=ids)
def test_probabilities_rank_rows_for_roc_auc_and_survive_a_file(est, tmp_path):
    """``roc_auc`` scoring works through scikit-learn (it needs ``predict_proba``), the
    AUC beats chance on a learnable target, and a saved and loaded model gives the same
    probabilities."""
    X, y = table(3, 200, 2, 0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        auc = cross_val_score(est, X, y, cv=3, scoring="roc_auc")
        est.fit(X, y)
    assert auc.mean() > 0.7
    assert roc_auc_score(y, est.predict_proba(X)[:, 1]) > 0.7
    path = est.save(tmp_path / "m.json")
    loaded = type(est).load(path)
    assert np.array_equal(loaded.predict_proba(X), est.predict_proba(X))


def _edit_state(path, change):
    doc = json.loads(path.read_text())

    def walk(node):
        if isinstance(node, dict):
            if "region_counts_" in node:
                change(node)
                return True
            return any(walk(v) for v in node.values())
        if isinstance(node, list):
            return any(walk(v) for v in node)
        return False

    assert walk(doc)
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize("est", learners()[:3], ids=ids)
def test_files_without_or_with_wrong_counts(est, tmp_path):
    """A file written before the counts were kept still predicts, and ``predict_proba``
    says to fit again; counts of the wrong shape are refused when the file is read."""
    X, y = table(5, 120, 3, 0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, y)
    old = est.save(tmp_path / "old.json")
    _edit_state(old, lambda node: node.pop("region_counts_"))
    loaded = type(est).load(old)
    assert (loaded.predict(X) == est.predict(X)).all()
    with pytest.raises(ValueError, match="no region_counts_.*fit it again"):
        loaded.predict_proba(X)
    bad = est.save(tmp_path / "bad.json")

    def drop_a_row(node):
        counts = node["region_counts_"]
        rows, cols = counts["shape"]
        counts["shape"][0] = rows - 1
        del counts["__ndarray__"][-cols:]

    _edit_state(bad, drop_a_row)
    with pytest.raises(SchemaError, match="region_counts_ must be a"):
        type(est).load(bad)
