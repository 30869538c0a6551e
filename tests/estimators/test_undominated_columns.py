"""A partition is encoded without the columns another dominates on both sides
(:func:`undominated_columns`): every encoder's optimum keeps its cost (with and without
an anchor, weights, symmetry breaking), the anchor's and warm start's columns stay, and
the kept columns are exactly the maxima and minima of the order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules import IMLIBClassifier, IMLIClassifier
from satrules.backends.registry import solve
from satrules.encoders.imli import decode_imli, encode_imli, hint_imli
from satrules.encoders.imlib import encode_imlib
from satrules.estimators._base import (
    _ColumnView,
    _dominated_by_masks,
    _dominated_by_pairs,
    _packed_columns,
    distinct_columns,
    undominated_columns,
)
from tests.strategies import random_rules


def _partition(n_rows, seed):
    """Threshold columns of a few features (nested, as a binarizer makes them) and
    random columns, and labels."""
    rng = np.random.default_rng(seed)
    blocks = []
    for _ in range(int(rng.integers(1, 3))):
        values = rng.integers(0, 5, n_rows)
        cuts = np.sort(rng.choice(5, int(rng.integers(1, 4)), replace=False))
        blocks.append(values[:, None] > cuts[None, :])
    blocks.append(rng.integers(0, 2, size=(n_rows, int(rng.integers(0, 3)))).astype(bool))
    Xb = np.concatenate(blocks, axis=1).astype(np.uint8)
    return Xb[:, rng.permutation(Xb.shape[1])], rng.integers(0, 2, n_rows).astype(bool), rng


def _view(Xb, y, keep):
    """The estimator's two steps: distinct columns, then the undominated ones."""
    subset = undominated_columns(Xb, y, distinct_columns(Xb, keep), keep)
    return _ColumnView(Xb.shape[1], subset)


@settings(max_examples=80, deadline=None)
@given(n_rows=st.integers(1, 7), seed=st.integers(0, 2**16), n_rules=st.integers(1, 2),
       kind=st.sampled_from(["dnf", "cnf"]), anchored=st.booleans(), weighted=st.booleans(),
       symmetry=st.booleans())
def test_imli_optimum_over_undominated_columns(n_rows, seed, n_rules, kind, anchored,
                                               weighted, symmetry):
    Xb, y, rng = _partition(n_rows, seed)
    prior = random_rules(rng, Xb.shape[1], n_rules, kind) if anchored else None
    weights = rng.integers(1, 4, n_rows) if weighted else None
    view = _view(Xb, y, (prior,))
    kwargs = dict(n_rules=n_rules, rule_type=kind, sample_weight=weights,
                  symmetry_breaking=symmetry)
    full = encode_imli(Xb, y, prior=prior, **kwargs)
    small = encode_imli(view.take(Xb), y, prior=view.narrow(prior), **kwargs)
    a, b = solve(full.model, backend="rc2"), solve(small.model, backend="rc2")
    assert a.cost == b.cost
    if not symmetry:   # (hint_imli cannot realise rules under symmetry breaking)
        realised = hint_imli(full.layout, view.widen(decode_imli(small.layout, b)))
        assert full.model.evaluate(realised) and full.model.cost(realised) == a.cost


@settings(max_examples=60, deadline=None)
@given(n_rows=st.integers(1, 6), seed=st.integers(0, 2**16),
       objective=st.sampled_from(["exact", "paper"]), anchored=st.booleans(),
       n_rules=st.integers(1, 2), symmetry=st.booleans(), weighted=st.booleans())
def test_imlib_optimum_over_undominated_columns(n_rows, seed, objective, anchored, n_rules,
                                                symmetry, weighted):
    Xb, y, rng = _partition(n_rows, seed)
    prior = random_rules(rng, Xb.shape[1], n_rules) if anchored else None
    weights = rng.integers(1, 4, n_rows) if weighted else None
    view = _view(Xb, y, (prior,))
    kwargs = dict(n_rules=n_rules, max_literals_per_rule=2, objective=objective,
                  symmetry_breaking=symmetry, sample_weight=weights)
    full = encode_imlib(Xb, y, prior=prior, **kwargs)
    small = encode_imlib(view.take(Xb), y, prior=view.narrow(prior), **kwargs)
    a, b = solve(full.model, backend="rc2"), solve(small.model, backend="rc2")
    assert a.cost == b.cost


def _better(Xb, y, j, k):
    """Column k is at least as good as column j: its ones a superset on y's rows and a
    subset on the others."""
    col = Xb.astype(bool)
    return bool(np.all(col[y, k] >= col[y, j]) and np.all(col[~y, k] <= col[~y, j]))


@settings(max_examples=300, deadline=None)
@given(n_rows=st.integers(0, 9), seed=st.integers(0, 2**16), with_keep=st.booleans())
def test_the_kept_columns_are_the_maxima_and_minima(n_rows, seed, with_keep):
    """By the definition, pair by pair: a column goes iff another is strictly better (or
    equal and earlier) and another strictly worse (or equal and earlier), unless a rule
    to keep uses it."""
    rng = np.random.default_rng(seed)
    n_columns = int(rng.integers(1, 9))
    Xb = rng.integers(0, 2, (n_rows, n_columns)).astype(np.uint8)
    if n_columns > 1 and rng.random() < 0.3:
        Xb[:, -1] = Xb[:, 0]
    y = rng.integers(0, 2, n_rows).astype(bool)
    keep = random_rules(rng, n_columns, 1) if with_keep else None
    used = {lit.column for rule in keep.rules for lit in rule.literals} if keep else set()
    expected = []
    for j in range(n_columns):
        def above(k, j=j):
            return _better(Xb, y, j, k) and (not _better(Xb, y, k, j) or k < j)

        def below(k, j=j):
            return _better(Xb, y, k, j) and (not _better(Xb, y, j, k) or k < j)
        others = [k for k in range(n_columns) if k != j]
        if j in used or not (any(map(above, others)) and any(map(below, others))):
            expected.append(j)
    got = undominated_columns(Xb, y, keep=(keep,))
    assert (list(range(n_columns)) if got is None else got.tolist()) == expected
    subset = np.arange(0, n_columns, 2)    # only among the given columns
    got = undominated_columns(Xb, y, subset, (None,))
    assert set(got.tolist()) <= set(subset.tolist())


@settings(max_examples=200, deadline=None)
@given(n_rows=st.integers(0, 12), seed=st.integers(0, 2**16))
def test_superset_counts_agree_with_the_pair_test(n_rows, seed):
    """The two ways of finding a better and a worse column (counts over all 2**rows
    patterns for few rows, a subset test per pair otherwise) agree with the definition."""
    rng = np.random.default_rng(seed)
    drawn = rng.random((n_rows, int(rng.integers(1, 80)))) < rng.random()
    distinct = list({c.tobytes(): c for c in drawn.T}.values())   # one column if no rows
    X = np.array(distinct).T if n_rows else np.zeros((0, 1), dtype=bool)
    within = np.array([[i != j and bool(np.all(X[:, i] <= X[:, j]))
                        for j in range(X.shape[1])] for i in range(X.shape[1])])
    want = (within.any(axis=1), within.any(axis=0))
    for got in (_dominated_by_masks(X, n_rows), _dominated_by_pairs(_packed_columns(X))):
        assert got[0].tolist() == want[0].tolist() and got[1].tolist() == want[1].tolist()


def test_many_rows_and_columns_use_several_words_and_blocks():
    """More than 64 rows of a class (two words of bits) and more columns than one block;
    against the pair-by-pair subset test on the flipped bits."""
    rng = np.random.default_rng(3)
    values = rng.integers(0, 40, size=(150, 30))
    Xb = np.concatenate([values > c for c in range(0, 40, 4)], axis=1).astype(np.uint8)
    Xb = np.concatenate([Xb] * 20, axis=1)   # 6,000 columns, each repeated
    y = (values[:, 0] + values[:, 1] + rng.integers(0, 20, 150)) > 45
    got = undominated_columns(Xb, y)
    flipped = (Xb.astype(bool) ^ ~y[:, None])[:, :300]
    within = np.array([[np.all(flipped[:, i] <= flipped[:, j]) for j in range(300)]
                       for i in range(300)])
    np.fill_diagonal(within, False)
    expected = np.flatnonzero(~(within.any(axis=1) & within.any(axis=0)))
    assert got.tolist() == expected.tolist()   # the repeats (later copies) all go


@pytest.mark.parametrize("cls, params, expected", [
    (IMLIClassifier, {}, True), (IMLIBClassifier, {}, True),
    (IMLIBClassifier, {"distinct_features": True}, False)])
def test_pruning_is_off_when_a_column_may_not_repeat(cls, params, expected):
    assert cls(**params)._prune_dominated is expected


def test_a_fit_encodes_fewer_columns(monkeypatch):
    """On breast cancer, a default fit's partitions are encoded over less than half as
    many columns as without the pruning."""
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    widths = {}
    original = IMLIClassifier._encode_partition
    for prune in (True, False):
        seen = []

        def spy(self, Xb, *args, seen=seen, **kwargs):
            seen.append(Xb.shape[1])
            return original(self, Xb, *args, **kwargs)
        monkeypatch.setattr(IMLIClassifier, "_encode_partition", spy)
        monkeypatch.setattr(IMLIClassifier, "_prune_dominated", prune)
        IMLIClassifier(random_state=0, polish=False, n_passes=1).fit(X, y)
        widths[prune] = np.mean(seen)
        monkeypatch.undo()
    assert widths[True] < 0.5 * widths[False]


def test_with_distinct_features_the_pruning_would_raise_the_optimum():
    """Why IMLIB's ``distinct_features`` turns it off: there, a rule cannot hold a
    column twice, so the dominated columns are not interchangeable (a drawn example)."""
    Xb, y, _ = _partition(6, 63)
    view = _view(Xb, y, ())
    kwargs = dict(n_rules=2, max_literals_per_rule=2, objective="exact",
                  distinct_features=True)
    full = solve(encode_imlib(Xb, y, **kwargs).model, backend="rc2")
    pruned = solve(encode_imlib(view.take(Xb), y, **kwargs).model, backend="rc2")
    assert pruned.cost > full.cost
