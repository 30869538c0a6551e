"""One-vs-rest combination: priority order and default class chosen on training data.

``choose_class_order`` must give the best training accuracy over every order (up to
``EXHAUSTIVE_CLASSES`` classes), the estimators must predict with the order they
report (``class_order_``, ``default_class_``, ``to_text``), and files keep it.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules import IMLIBClassifier, IMLIClassifier
from satrules.estimators._base import EXHAUSTIVE_CLASSES, _ordered_predict, choose_class_order
from satrules.serialization import SchemaError


def _best_accuracy(fires, y):
    n = fires.shape[1]
    return max(np.count_nonzero(_ordered_predict(fires, np.array(p), d) == y)
               for p in itertools.permutations(range(n)) for d in range(n))


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 4).flatmap(lambda c: st.tuples(
    st.just(c),
    st.lists(st.tuples(st.lists(st.booleans(), min_size=c, max_size=c), st.integers(0, c - 1)),
             min_size=1, max_size=30))))
def test_order_and_default_are_the_best_on_training_data(case):
    n_classes, rows = case
    fires = np.array([r[0] for r in rows], dtype=bool)
    y = np.array([r[1] for r in rows])
    counts = np.bincount(y, minlength=n_classes)
    order, default = choose_class_order(fires, y, counts)
    assert sorted(order.tolist()) == list(range(n_classes))
    got = np.count_nonzero(_ordered_predict(fires, order, default) == y)
    assert got == _best_accuracy(fires, y)


def test_many_classes_use_precision_and_swaps():
    """Above EXHAUSTIVE_CLASSES: a valid order, never worse than by class frequency."""
    rng = np.random.default_rng(0)
    n_classes = EXHAUSTIVE_CLASSES + 2
    y = rng.integers(0, n_classes, 300)
    fires = (rng.random((300, n_classes)) < 0.3) | (np.eye(n_classes, dtype=bool)[y]
                                                   & (rng.random((300, 1)) < 0.7))
    counts = np.bincount(y, minlength=n_classes)
    order, default = choose_class_order(fires, y, counts)
    assert sorted(order.tolist()) == list(range(n_classes))
    by_count = np.argsort(-counts, kind="stable")
    assert np.count_nonzero(_ordered_predict(fires, order, default) == y) >= \
        np.count_nonzero(_ordered_predict(fires, by_count, int(by_count[0])) == y)


def _reference_order(fires, y, counts):
    """The neighbour-swap search on the full ``fires`` (before classes that never fire
    were skipped): every swap evaluated on every column."""
    n = fires.shape[1]
    start = np.argsort(-counts, kind="stable")
    none = ~fires.any(axis=1)
    votes = np.bincount(y[none], minlength=n) if none.any() else counts
    default = int(start[np.argmax(votes[start])])
    hits = np.array([np.count_nonzero(fires[:, c] & (y == c)) for c in range(n)])
    fired = fires.sum(axis=0)
    precision = np.where(fired > 0, hits / np.maximum(fired, 1), 0.0)
    order = start[np.argsort(-precision[start], kind="stable")]

    def accuracy(o):
        return np.count_nonzero(_ordered_predict(fires, o, default) == y)

    score, improved = accuracy(order), True
    while improved:
        improved = False
        for i in range(n - 1):
            trial = order.copy()
            trial[i], trial[i + 1] = trial[i + 1], trial[i]
            if accuracy(trial) > score:
                order, score, improved = trial, accuracy(trial), True
    return order, default


@settings(max_examples=150, deadline=None)
@given(n_classes=st.integers(EXHAUSTIVE_CLASSES + 1, 12), n_rows=st.integers(1, 80),
       seed=st.integers(0, 2**16))
def test_classes_that_never_fire_are_skipped_without_changing_the_order(n_classes, n_rows,
                                                                        seed):
    """Many classes, some of whose rules never fire (300 unlearnable classes: all of
    them): the same order and default as the search that evaluates every swap."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n_rows)
    rate = rng.random(n_classes) * (rng.random(n_classes) < 0.6)
    fires = rng.random((n_rows, n_classes)) < rate
    counts = np.bincount(y, minlength=n_classes)
    order, default = choose_class_order(fires, y, counts)
    ref_order, ref_default = _reference_order(fires, y, counts)
    assert order.tolist() == ref_order.tolist() and default == ref_default


def _three_classes():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(240, 3))
    y = np.where(X[:, 0] > 0.6, "a", np.where(X[:, 1] > 0, "b", "c"))
    return X, y


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_estimator_predicts_with_its_reported_order(cls):
    X, y = _three_classes()
    clf = cls(backend="rc2", random_state=0).fit(X, y)
    assert sorted(clf.class_order_.tolist()) == sorted(clf.classes_.tolist())
    assert clf.default_class_ in clf.classes_
    fires = clf._fires(X)
    index = {c: i for i, c in enumerate(clf.classes_)}
    order = np.array([index[c] for c in clf.class_order_])
    expect = clf.classes_[_ordered_predict(fires, order, index[clf.default_class_])]
    assert (clf.predict(X) == expect).all()
    text = clf.to_text()
    assert f"when none fires, {clf.default_class_}" in text
    assert str([str(c) for c in clf.class_order_]) in text
    # the chosen order is at least as good on the training data as "most frequent first"
    counts = np.argsort(-clf.class_counts_, kind="stable")
    y_idx = np.array([index[c] for c in y])
    assert (expect == y).sum() >= (_ordered_predict(fires, counts, int(counts[0])) == y_idx).sum()


def test_order_survives_a_file_and_bad_orders_are_refused():
    X, y = _three_classes()
    clf = IMLIClassifier(backend="rc2", random_state=0).fit(X, y)
    loaded = IMLIClassifier.from_json(clf.to_json())
    assert loaded.class_order_.tolist() == clf.class_order_.tolist()
    assert loaded.default_class_ == clf.default_class_
    assert (loaded.predict(X) == clf.predict(X)).all()
    clf.class_order_ = np.array(["a", "a", "b"], dtype=object)
    with pytest.raises(SchemaError, match="class_order_"):
        IMLIClassifier.from_json(clf.to_json())


def test_binary_has_no_order():
    X, y = _three_classes()
    clf = IMLIClassifier(backend="rc2", random_state=0).fit(X, y == "a")
    assert clf.class_order_ is None and clf.default_class_ is None
