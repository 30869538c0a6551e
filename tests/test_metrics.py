"""Tests for satrules.metrics against set-based definitions (seed 000 §3.1, ALGORITHMS.md §4.1)."""

from __future__ import annotations

import sys

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules import metrics


@st.composite
def instances(draw):
    n_rules = draw(st.integers(1, 6))
    n_samples = draw(st.integers(1, 12))
    bits = draw(st.lists(st.booleans(), min_size=n_rules * n_samples,
                         max_size=n_rules * n_samples))
    covers = np.array(bits, dtype=bool).reshape(n_rules, n_samples)
    selected = draw(st.lists(st.integers(0, n_rules - 1), unique=True, max_size=n_rules))
    labels = np.array(draw(st.lists(st.integers(0, 2), min_size=n_rules, max_size=n_rules)))
    y = np.array(draw(st.lists(st.integers(0, 2), min_size=n_samples, max_size=n_samples)))
    return covers, selected, labels, y


def _sets(covers):
    return [set(np.flatnonzero(row).tolist()) for row in covers]


@settings(max_examples=80, deadline=None)
@given(inst=instances(), sparse=st.booleans())
def test_set_metrics_match_definitions(inst, sparse):
    """coverage, coverage-rate, overlap, directed overlap-rate, max overlap-rate and mean
    overlap equal their set definitions, for dense and sparse covers alike."""
    covers, selected, _, _ = inst
    sets = _sets(covers)
    arg = sp.csr_matrix(covers) if sparse else covers
    union = set().union(*(sets[r] for r in selected))
    assert metrics.coverage(arg, selected) == len(union)
    assert metrics.coverage_rate(arg, selected) == pytest.approx(len(union) / covers.shape[1])
    assert np.array_equal(np.flatnonzero(metrics.covered(arg, selected)), sorted(union))
    ov = metrics.overlap(arg, selected)
    rate = metrics.overlap_rate(arg, selected)
    pairs_rate, pairs_sum = [], 0
    for a, i in enumerate(selected):
        for b, j in enumerate(selected):
            assert ov[a, b] == len(sets[i] & sets[j])
            if sets[i]:
                assert rate[a, b] == pytest.approx(len(sets[i] & sets[j]) / len(sets[i]))
                if a != b:
                    pairs_rate.append(rate[a, b])
            else:
                assert np.isnan(rate[a, b])
            if a != b:
                pairs_sum += len(sets[i] & sets[j])
    assert metrics.max_overlap_rate(arg, selected) == pytest.approx(max(pairs_rate, default=0))
    want_mean = pairs_sum / len(selected) ** 2 if len(selected) >= 2 else 0.0
    assert metrics.mean_overlap(arg, selected) == pytest.approx(want_mean)
    assert metrics.rule_size(selected) == len(selected)


@settings(max_examples=80, deadline=None)
@given(inst=instances(), use_priority=st.booleans(), vote=st.booleans())
def test_rule_set_prediction_matches_definition(inst, use_priority, vote):
    """Each sample takes the class of its best covering rule (or, with vote, the most frequent
    covering class, ties to the best rule), else the default; RSA is the share correct."""
    covers, selected, labels, y = inst
    rng = np.random.default_rng(len(selected))
    priority = rng.random(len(selected)) if use_priority else None
    pred = metrics.predict_rules(covers, labels, 9, selected, priority,
                                 "vote" if vote else "priority")
    prio = priority if use_priority else -np.arange(len(selected), dtype=float)
    for i in range(covers.shape[1]):
        hits = [a for a, r in enumerate(selected) if covers[r, i]]
        if not hits:
            assert pred[i] == 9
            continue
        best = min(hits, key=lambda a: (-prio[a], a))
        if not vote:
            assert pred[i] == labels[selected[best]]
            continue
        counts = {}
        for a in hits:
            counts[labels[selected[a]]] = counts.get(labels[selected[a]], 0) + 1
        top = max(counts.values())
        tied = {c for c, n in counts.items() if n == top}
        winner = min((a for a in hits if labels[selected[a]] in tied),
                     key=lambda a: (-prio[a], a))
        assert pred[i] == labels[selected[winner]]
    rsa = metrics.rule_set_accuracy(covers, labels, y, 9, selected, priority,
                                    "vote" if vote else "priority")
    assert rsa == pytest.approx(np.mean(pred == y))


@settings(max_examples=60, deadline=None)
@given(inst=instances())
def test_rule_accuracy_matches_definition(inst):
    """accuracy(r) = |correct-cover(r)| / |cover(r)|, nan for an empty cover."""
    covers, selected, labels, y = inst
    acc = metrics.rule_accuracy(sp.csr_matrix(covers), labels, y)
    for r, row in enumerate(covers):
        if row.any():
            assert acc[r] == pytest.approx(np.mean(y[row] == labels[r]))
        else:
            assert np.isnan(acc[r])
    sub = metrics.rule_accuracy(covers, labels, y, selected)
    assert np.array_equal(np.isnan(sub), np.isnan(acc[selected]))


def test_edge_cases():
    """Empty rule sets, zero samples and widths: the documented conventions."""
    covers = np.zeros((2, 0), dtype=bool)
    assert np.isnan(metrics.coverage_rate(covers))
    assert np.isnan(metrics.rule_set_accuracy(covers, [0, 1], [], 0))
    assert metrics.coverage(np.ones((2, 3), dtype=bool), []) == 0
    assert metrics.mean_overlap(np.ones((2, 3), dtype=bool), [1]) == 0.0
    assert metrics.max_width([3, 1, 4]) == 4 and metrics.max_width([3, 1, 4], [1]) == 1
    assert metrics.max_width([3], []) == 0
    assert metrics.cover_size(np.eye(3, dtype=bool), [2, 0]).tolist() == [1, 1]
    with pytest.raises(ValueError, match="2-D"):
        metrics.as_covers(np.ones(3))
    with pytest.raises(ValueError, match="resolve"):
        metrics.predict_rules(np.ones((1, 2), dtype=bool), [0], 0, resolve="random")


def test_large_sparse_is_vectorised():
    """Metrics on 2,000 rules x 50,000 samples (sparse) make fewer than 10,000 Python
    function calls in all: a loop over samples (or over rules, each of which costs
    several calls) would make more.  Counted, not timed, so load cannot change it; the
    seconds are measured by ``benchmarks/bench_time_limits.py --suite``."""
    rng = np.random.default_rng(0)
    rows = rng.integers(0, 2000, 1_000_000)
    cols = rng.integers(0, 50_000, 1_000_000)
    covers = sp.csr_matrix((np.ones(rows.size, dtype=bool), (rows, cols)), shape=(2000, 50_000))
    labels = rng.integers(0, 2, 2000)
    y = rng.integers(0, 2, 50_000)
    sel = list(range(12))
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        calls += event == "call"

    sys.setprofile(count)
    try:
        coverage = metrics.coverage_rate(covers)
        metrics.rule_accuracy(covers, labels, y)
        metrics.max_overlap_rate(covers, sel)
        metrics.rule_set_accuracy(covers, labels, y, 0, sel, resolve="vote")
    finally:
        sys.setprofile(None)
    assert coverage == np.mean(np.bincount(cols, minlength=50_000) > 0) > 0.99
    assert 0 < calls < 10_000, calls
