"""``tree_split_values`` finds the splits scikit-learn's one-feature tree finds."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier

from satrules.binarize import tree_split_values


def _sklearn_splits(values, y, max_leaf_nodes, min_samples_leaf):
    tree = DecisionTreeClassifier(max_leaf_nodes=max_leaf_nodes,
                                  min_samples_leaf=min_samples_leaf, random_state=0)
    tree.fit(np.asarray(values, dtype=float).reshape(-1, 1), y)
    return np.sort(tree.tree_.threshold[tree.tree_.feature >= 0])


# values on a coarse grid (many ties between candidate splits and between nodes'
# improvements), spread at the 1e-7 scale of the trees' feature threshold, or wide
_SCALES = st.sampled_from([1.0, 0.5, 1e-7, 3e-8, 1e6])


def _draw_column(data, n, n_classes, levels, scale):
    """``n`` values on the grid ``scale * (-levels .. levels)`` and ``n`` labels of
    ``n_classes`` classes."""
    grid = data.draw(st.lists(st.integers(-levels, levels), min_size=n, max_size=n))
    labels = data.draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n))
    return np.array(grid) * scale, np.array(labels)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), n=st.integers(1, 120), n_classes=st.integers(1, 4),
       levels=st.integers(1, 12), scale=_SCALES, max_leaf_nodes=st.integers(2, 9),
       min_samples_leaf=st.integers(1, 8))
def test_same_splits_as_the_tree(data, n, n_classes, levels, scale, max_leaf_nodes,
                                 min_samples_leaf):
    values, y = _draw_column(data, n, n_classes, levels, scale)
    want = _sklearn_splits(values, y, max_leaf_nodes, min_samples_leaf)
    got = tree_split_values(values, y, max_leaf_nodes, min_samples_leaf)
    np.testing.assert_array_equal(got, want)
    # any labels: only which rows share a class matters
    named = np.array(["no", "yes", "maybe", "n/a"])[y]
    np.testing.assert_array_equal(tree_split_values(values, named, max_leaf_nodes,
                                                    min_samples_leaf), want)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(2, 150), n_classes=st.integers(9, 40),
       levels=st.integers(1, 40), scale=_SCALES, max_leaf_nodes=st.integers(2, 40),
       min_samples_leaf=st.integers(1, 6))
def test_same_splits_with_many_classes(data, n, n_classes, levels, scale, max_leaf_nodes,
                                       min_samples_leaf):
    """More than eight classes take running sums over the rows instead of one count per
    class (:func:`satrules.binarize._class_squares_rows`): the same splits."""
    values, y = _draw_column(data, n, n_classes, levels, scale)
    want = _sklearn_splits(values, y, max_leaf_nodes, min_samples_leaf)
    np.testing.assert_array_equal(
        tree_split_values(values, y, max_leaf_nodes, min_samples_leaf), want)
    # sparse codes (classes 0, 7, 14, ...) count as the same classes
    np.testing.assert_array_equal(
        tree_split_values(values, y * 7, max_leaf_nodes, min_samples_leaf), want)


@pytest.mark.parametrize("seed", range(4))
def test_same_splits_on_continuous_columns(seed):
    """Thousands of distinct values, the binarizer's leaf floor of 1 % of the rows."""
    rng = np.random.default_rng(seed)
    n = 3000
    x = rng.normal(size=n) * 10.0 ** rng.integers(-3, 4)
    if seed % 2:
        x[rng.random(n) < 0.3] = 0.0     # a spike of equal values
    y = (x + rng.normal(size=n) * x.std() > 0).astype(int) + (rng.random(n) < 0.2)
    leaf = int(np.ceil(0.01 * n))
    np.testing.assert_array_equal(tree_split_values(x, y, 5, leaf),
                                  _sklearn_splits(x, y, 5, leaf))
    # 60 classes and 59 splits, as the one-vs-rest binarizer asks of 60 classes
    many = np.floor((x / x.std() + rng.normal(size=n)) * 12).astype(int) % 60
    np.testing.assert_array_equal(tree_split_values(x, many, 60, leaf),
                                  _sklearn_splits(x, many, 60, leaf))


@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(2, 20), n_classes=st.integers(2, 3),
       levels=st.integers(1, 8), max_leaf_nodes=st.integers(3, 12))
def test_same_splits_on_mirrored_halves(data, n, n_classes, levels, max_leaf_nodes):
    """Two copies of a column, far apart: their nodes' improvements tie exactly, and the
    tree expands them in the order of its binary heap."""
    grid = data.draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))
    labels = data.draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n))
    values = np.concatenate([grid, np.array(grid) + 100]).astype(float)
    y = np.concatenate([labels, labels])
    np.testing.assert_array_equal(tree_split_values(values, y, max_leaf_nodes, 1),
                                  _sklearn_splits(values, y, max_leaf_nodes, 1))


# found by mutating the code: a split that lowers no impurity is still made while leaves
# remain; nodes of equal improvement leave the heap in the C++ library's order
_CASES = [
    ([5, 3, 0, 3, 2, 1, 2, 5], [1, 0, 1, 1, 0, 0, 0, 0], 6, [0.5, 2.5, 4.0]),
    ([2, 3, 4, 5, 3, 4, 0, 7, 0, 6, 5, 1, 1, 0, 1, 6, 7, 4] * 2,
     [2, 0, 1, 1, 0, 0, 0, 2, 2, 0, 0, 1, 1, 1, 1, 0, 2, 1] * 2, 11,
     [0.5, 1.5, 2.5, 6.5, 53.5, 100.5, 101.5, 102.5, 103.5, 106.5]),
]


@pytest.mark.parametrize("values, y, max_leaf_nodes, want", _CASES)
def test_zero_improvement_and_heap_ties(values, y, max_leaf_nodes, want):
    values = np.array(values, dtype=float)
    if len(values) > 20:
        values[len(values) // 2:] += 100
    got = tree_split_values(values, np.array(y), max_leaf_nodes, 1)
    assert got.tolist() == want
    np.testing.assert_array_equal(got, _sklearn_splits(values, y, max_leaf_nodes, 1))


def test_no_split_on_a_constant_or_pure_column():
    assert tree_split_values(np.ones(10), np.arange(10) % 2, 4, 1).size == 0
    assert tree_split_values(np.arange(10.0), np.zeros(10, dtype=int), 4, 1).size == 0
    assert tree_split_values(np.arange(10.0), np.arange(10) % 2, 4, 6).size == 0  # leaf


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="max_leaf_nodes"):
        tree_split_values(np.arange(4.0), np.arange(4) % 2, 1, 1)
    with pytest.raises(ValueError, match="3 labels for 4 values"):
        tree_split_values(np.arange(4.0), np.arange(3), 2, 1)


def test_large_integer_labels_are_encoded():
    """Labels far above the row count are classes like any others (no huge count array)."""
    values = np.arange(6.0)
    np.testing.assert_array_equal(
        tree_split_values(values, np.array([10**12] * 3 + [5] * 3), 2, 1), [2.5])
