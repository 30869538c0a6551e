"""GDY (ALGORITHMS.md §6): the objective g, its non-submodularity, FIG and greedy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from satrules.heuristics import (
    coverage,
    exhaustive_cdprl,
    exhaustive_gdy,
    gdy_objective,
    gdy_select,
)

covers_st = arrays(bool, st.tuples(st.integers(1, 7), st.integers(1, 9)))


def test_non_submodularity_fixture():
    """§6.2 / erratum 5: identical a, b, e; N = 2, lam = 1: D(e|{a}) = -1 < D(e|{a,b}) = -1/3."""
    covers = np.ones((3, 2), dtype=bool)  # a, b, e
    a, b, e = 0, 1, 2
    assert gdy_objective(covers, [a], 1) == 4
    assert gdy_objective(covers, [a, e], 1) == 3
    assert gdy_objective(covers, [a, b], 1) == 3
    assert gdy_objective(covers, [a, b, e], 1) == pytest.approx(8 / 3)
    gain_small = gdy_objective(covers, [a, e], 1) - gdy_objective(covers, [a], 1)
    gain_large = gdy_objective(covers, [a, b, e], 1) - gdy_objective(covers, [a, b], 1)
    assert gain_small == pytest.approx(-1)
    assert gain_large == pytest.approx(-1 / 3)
    assert gain_small < gain_large  # diminishing returns fail: g is not submodular


def test_objective_conventions():
    """§6.1: g(empty) = lam N, a singleton has mean overlap 0, ordered pairs over |S|^2."""
    covers = np.array([[1, 1, 0, 0], [0, 1, 1, 0]], dtype=bool)
    assert gdy_objective(covers, [], 2.0) == 8.0
    assert gdy_objective(covers, [1], 2.0) == 2 + 8.0
    # ordered pairs: 2 * overlap 1 = 2, over |S|^2 = 4 -> mean overlap 0.5
    assert gdy_objective(covers, [0, 1], 2.0) == 3 + 2.0 * (4 - 0.5)


@settings(max_examples=80, deadline=None)
@given(covers=covers_st, gamma=st.integers(0, 4), lam=st.sampled_from([0.0, 0.1, 0.5, 1.0, 3.0]),
       rho=st.sampled_from([0.05, 0.1, 0.3]), algorithm=st.sampled_from(["fig", "greedy"]))
def test_answer_is_valid_and_never_beats_the_optimum(covers, gamma, lam, rho, algorithm):
    """|S| <= gamma, distinct non-empty rules, reported values right, g(empty) <= g(S) <= max g."""
    res = gdy_select(covers, gamma, lam, rho=rho, algorithm=algorithm)
    assert len(res.selected) <= gamma
    assert len(set(res.selected)) == len(res.selected)
    assert all(covers[r].any() for r in res.selected)
    assert res.coverage == coverage(covers, res.selected)
    assert res.objective == pytest.approx(gdy_objective(covers, res.selected, lam))
    assert res.objective >= gdy_objective(covers, [], lam) - 1e-9
    best, _ = exhaustive_gdy(covers, gamma, lam)
    assert res.objective <= best + 1e-9
    # GDY only penalises overlap, so its coverage is at most the unconstrained optimum (beta = 1)
    assert res.coverage <= exhaustive_cdprl(covers, 1.0, gamma)[0]


@settings(max_examples=40, deadline=None)
@given(covers=covers_st, gamma=st.integers(1, 4), rho=st.sampled_from([0.05, 0.1, 0.2]))
def test_fig_quarter_guarantee_when_g_is_coverage(covers, gamma, rho):
    """With lam = 0, g is coverage (monotone submodular): FIG reaches (1/4 - rho) OPT."""
    res = gdy_select(covers, gamma, 0.0, rho=rho)
    best, _ = exhaustive_gdy(covers, gamma, 0.0)
    assert res.objective >= (0.25 - rho) * best - 1e-9


@settings(max_examples=30, deadline=None)
@given(covers=covers_st, gamma=st.integers(0, 4), algorithm=st.sampled_from(["fig", "greedy"]))
def test_deterministic_and_input_format_independent(covers, gamma, algorithm):
    """Same input, same answer; sparse and dense inputs agree."""
    first = gdy_select(covers, gamma, 0.5, algorithm=algorithm)
    assert gdy_select(covers, gamma, 0.5, algorithm=algorithm) == first
    assert gdy_select(sp.csr_matrix(covers), gamma, 0.5, algorithm=algorithm) == first
    assert gdy_select(sp.csc_matrix(covers), gamma, 0.5, algorithm=algorithm) == first


def test_overlap_penalty_prefers_disjoint_rules():
    """A large lam trades coverage for no overlap ({0, 1} covers 10 with overlap 2, {0, 2} 8).

    With the literal threshold reading (``threshold="value"``) FIG's stop threshold
    rho * M / gamma includes lam * N, so with rho = 0.1 it never takes the second rule's
    gain of 2; the default reading (M = the largest singleton *gain*) does.
    """
    covers = np.zeros((3, 12), dtype=bool)
    covers[0, 0:6] = True
    covers[1, 4:10] = True  # overlaps rule 0 on 2 samples
    covers[2, 10:12] = True  # disjoint from both
    for algorithm in ("fig", "greedy"):
        low = gdy_select(covers, 2, 0.0, rho=0.01, algorithm=algorithm)
        high = gdy_select(covers, 2, 5.0, rho=0.01, algorithm=algorithm)
        assert sorted(low.selected) == [0, 1] and low.coverage == 10
        assert sorted(high.selected) == [0, 2] and high.coverage == 8
    assert gdy_select(covers, 2, 5.0, threshold="value").selected == [0]
    assert sorted(gdy_select(covers, 2, 5.0).selected) == [0, 2]


def test_fig_threshold_reading_picks_enough_rules():
    """Issue 13 item 5: with lam * N in M (the literal reading) FIG stops after one rule on six
    disjoint rules (lam 100); with M = the largest singleton gain it picks several, as the
    paper reports (3-12 rules)."""
    covers = np.zeros((6, 60), dtype=bool)
    for rule in range(6):
        covers[rule, 10 * rule:10 * rule + 10] = True
    assert len(gdy_select(covers, 5, 100.0, threshold="value").selected) == 1
    res = gdy_select(covers, 5, 100.0)
    assert len(res.selected) >= 3 and res.coverage == 10 * len(res.selected)


def test_greedy_stops_when_no_gain_is_positive():
    """Greedy stops early when every addition lowers g (identical rules, large lam)."""
    covers = np.ones((3, 4), dtype=bool)
    res = gdy_select(covers, 3, 1.0, algorithm="greedy")
    assert res.selected == [0]


def test_empty_inputs():
    """No usable rule or gamma = 0 gives the empty set with g = lam N."""
    assert gdy_select(np.zeros((2, 3), dtype=bool), 2, 1.0).selected == []
    res = gdy_select(np.ones((2, 3), dtype=bool), 0, 1.0)
    assert res.selected == [] and res.objective == 3.0


@pytest.mark.parametrize("kwargs, match", [
    ({"algorithm": "lazy"}, "algorithm"),
    ({"threshold": "max"}, "threshold"),
    ({"rho": 0.0}, "rho"),
    ({"rho": 1.0}, "rho"),
    ({"lam": -1.0}, "lam"),
    ({"lam": float("inf")}, "lam"),
    ({"gamma": -2}, "gamma"),
])
def test_bad_arguments_raise(kwargs, match):
    """Invalid algorithm, rho, lam or gamma raise ValueError naming the argument."""
    args = {"gamma": 2, "lam": 1.0, **kwargs}
    with pytest.raises(ValueError, match=match):
        gdy_select(np.eye(3, dtype=bool), **args)
