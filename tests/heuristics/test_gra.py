"""GRA (ALGORITHMS.md §5): feasibility, the seed's slips, and the seed's false guarantees pinned."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from satrules.heuristics import (
    conflicting_pairs,
    coverage,
    exhaustive_cdprl,
    gra_select,
    is_feasible,
    rate_exceeds,
)
from tests.strategies import cdpr_worked_example as worked_example
from tests.strategies import covers_from_sets

BETAS = [0, 0.1, 0.25, 1 / 3, 0.5, 2 / 3, 0.9, 1.0]


def marginal_in_only_counterexample():
    """§5.2: A = 10 samples, B = 5 others, C = 3 of A + 3 of B + 1 new; beta 1/2, gamma 3."""
    return covers_from_sets([range(0, 10), range(10, 15), [0, 1, 2, 10, 11, 12, 15]], 16)


def theorem_5_1_counterexample():
    """§5.4: A = {0..9}, B1 = {0} + 8 new, B2 = {1} + 8 new; gamma 2, beta 1/10."""
    return covers_from_sets([range(0, 10), [0, *range(10, 18)], [1, *range(18, 26)]], 26)


def corollary_1_static_counterexample():
    """§5.4: A_i = core(9) + {a_i}, i = 1..3, and three disjoint B_j of 9; beta 0.9, gamma 3."""
    core = list(range(9))
    sets = [core + [9 + i] for i in range(3)]
    sets += [list(range(12 + 9 * j, 21 + 9 * j)) for j in range(3)]
    return covers_from_sets(sets, 39)


@st.composite
def cover_instances(draw, max_rules=7, max_samples=10):
    """Random tiny covers with a beta from a fixed grid and gamma in 0..4."""
    n_rules = draw(st.integers(1, max_rules))
    n_samples = draw(st.integers(1, max_samples))
    covers = draw(arrays(bool, (n_rules, n_samples)))
    beta = draw(st.sampled_from(BETAS))
    gamma = draw(st.integers(0, 4))
    return covers, beta, gamma


def test_worked_example_static_pick_order():
    """§4.4: static strict GRA picks r1, r2, r5 and covers all 10 samples (the optimum)."""
    res = gra_select(worked_example(), 0.5, 3)
    assert res.selected == [0, 1, 4]
    assert res.coverage == 10
    assert res.gains == [6, 4, 2]


def test_worked_example_non_strict_changes_answer():
    """With the seed's >= test, {r1, r2} conflict (rate 1/2): GRA covers 9, not 10."""
    res = gra_select(worked_example(), 0.5, 3, strict=False)
    assert res.coverage == 9
    assert is_feasible(worked_example(), res.selected, 0.5, 3, strict=False)
    assert not is_feasible(worked_example(), [0, 1, 4], 0.5, 3, strict=False)


def test_rate_equal_to_beta_is_allowed_when_strict():
    """A rate exactly equal to beta (3/6 = 0.5, 1/10 = 0.1) passes strict, fails non-strict."""
    assert not rate_exceeds(3, 6, 0.5)[()] and rate_exceeds(3, 6, 0.5, strict=False)[()]
    assert not rate_exceeds(1, 10, 0.1)[()] and rate_exceeds(1, 10, 0.1, strict=False)[()]
    assert not rate_exceeds(3, 10, 0.3)[()]  # 0.3 * 10 is not exactly 3.0 in floating point


def _seed_loop_picks(covers, beta, gamma):
    """Picks of the seed's Algorithm 1 loop read literally: ``while V or |S| <= gamma``.

    Picking from an empty graph adds nothing (there is no vertex to add), so
    that case stops to keep the transcription finite.
    """
    sizes = covers.sum(axis=1)
    alive = np.ones(len(covers), dtype=bool)
    picks = []
    while alive.any() or len(picks) <= gamma:
        if not alive.any():
            break
        v = int(np.argmax(np.where(alive, sizes, -1)))
        picks.append(v)
        overlap = (covers & covers[v]).sum(axis=1)
        alive &= ~rate_exceeds(overlap, sizes, beta, strict=False)
        alive[v] = False
    return picks


def test_seed_loop_ignores_gamma_while_graph_is_non_empty():
    """Erratum 1: 5 disjoint rules, gamma 2 -- the seed's "or" loop picks all 5, gra_select 2."""
    covers = np.eye(5, dtype=bool)
    assert len(_seed_loop_picks(covers, 0.5, 2)) == 5
    for selection in ("static", "marginal"):
        assert len(gra_select(covers, 0.5, 2, selection=selection).selected) == 2


def test_loop_stops_at_gamma_picks():
    """Erratum 1: the loop is `|S| < gamma` -- never gamma + 1 picks, even with room left."""
    covers = np.eye(6, dtype=bool)  # six disjoint rules, no conflicts
    for gamma in range(0, 8):
        for selection in ("static", "marginal"):
            res = gra_select(covers, 0.5, gamma, selection=selection)
            assert len(res.selected) == min(gamma, 6)


def test_loop_stops_when_graph_is_empty():
    """Erratum 1: with every rule removed the loop ends instead of picking from nothing."""
    covers = np.ones((4, 5), dtype=bool)  # identical rules: all conflict at beta < 1
    res = gra_select(covers, 0.5, 10)
    assert res.selected == [0]


def test_empty_covers_are_never_picked():
    """Rules with an empty cover (rate 0/0) are dropped before the loop."""
    covers = np.zeros((3, 4), dtype=bool)
    covers[1, 0] = True
    for selection in ("static", "marginal"):
        assert gra_select(covers, 0.5, 3, selection=selection).selected == [1]
    assert gra_select(np.zeros((2, 3), dtype=bool), 0.5, 2).selected == []


def test_ties_go_to_lowest_index():
    """Equal criteria are broken by the lowest rule index (deterministic output)."""
    covers = covers_from_sets([[0, 1], [2, 3], [4, 5]], 6)
    assert gra_select(covers, 0.5, 2).selected == [0, 1]
    assert gra_select(covers[::-1], 0.5, 2).selected == [0, 1]


def test_marginal_stops_at_zero_gain():
    """Marginal selection stops when the best marginal gain is 0."""
    covers = covers_from_sets([[0, 1, 2, 3], [0, 1], [2, 3]], 4)
    res = gra_select(covers, 1.0, 3, selection="marginal")
    assert res.selected == [0]


def test_marginal_in_only_counterexample_is_infeasible():
    """§5.2 / erratum 3: marginal picks A, B, C with in-only removal; rate(B, C) = 3/5 > 1/2."""
    covers = marginal_in_only_counterexample()
    bad = gra_select(covers, 0.5, 3, selection="marginal", removal="in")
    assert bad.selected == [0, 1, 2]
    assert not is_feasible(covers, bad.selected, 0.5, 3)
    assert conflicting_pairs(covers, bad.selected, 0.5) == [(1, 2)]
    good = gra_select(covers, 0.5, 3, selection="marginal")
    assert good.selected == [0, 1]
    assert is_feasible(covers, good.selected, 0.5, 3)


def test_marginal_in_only_worked_example_gamma_4_is_infeasible():
    """§5.2: on §4.4 with gamma 4 marginal+in-only adds r2 with zero gain; rate(r3, r2) = 2/3.

    The seed's loop has no zero-gain stop, so the fixture runs with ``stop_at_zero=False``.
    """
    covers = worked_example()
    bad = gra_select(covers, 0.5, 4, selection="marginal", removal="in", stop_at_zero=False)
    assert bad.selected == [0, 2, 4, 1]
    assert bad.gains == [6, 3, 1, 0]
    assert not is_feasible(covers, bad.selected, 0.5, 4)
    assert conflicting_pairs(covers, bad.selected, 0.5) == [(1, 2)]
    for stop in (True, False):
        good = gra_select(covers, 0.5, 4, selection="marginal", stop_at_zero=stop)
        assert is_feasible(covers, good.selected, 0.5, 4)
        assert good.coverage == 10


def test_theorem_5_1_counterexample():
    """Erratum 4: Theorem 5.1's bound 0.609 * 18 = 10.97 exceeds GRA's coverage 10."""
    covers = theorem_5_1_counterexample()
    beta, gamma = 0.1, 2
    opt, best = exhaustive_cdprl(covers, beta, gamma)
    assert (opt, best) == (18, [1, 2])
    sizes = covers.sum(axis=1)
    ov = covers.astype(int) @ covers.T.astype(int)
    # directed edges r -> s when rate(r, s) > beta: B1 -> A and B2 -> A only
    edges = rate_exceeds(ov, sizes[:, None], beta) & ~np.eye(3, dtype=bool)
    assert sorted(zip(*np.nonzero(edges), strict=True)) == [(1, 0), (2, 0)]
    for selection in ("static", "marginal"):
        res = gra_select(covers, beta, gamma, selection=selection)
        assert res.selected == [0] and res.coverage == 10
        d = int(edges[:, res.selected].sum(axis=0).min())  # min in-degree of the picks
        assert d == 2
        bound = 1 - (1 - (1 - beta) / (gamma * (1 + d * beta))) ** gamma
        assert bound == pytest.approx(0.609375)
        assert res.coverage < bound * opt  # the theorem's claim fails


def test_corollary_1_fails_for_static_selection():
    """Erratum 4: with no edges, static GRA gets 12 < (1 - (2/3)^3) * 28 = 19.7; marginal 28."""
    covers = corollary_1_static_counterexample()
    beta, gamma = 0.9, 3
    assert conflicting_pairs(covers, range(6), beta) == []  # E is empty
    opt, _ = exhaustive_cdprl(covers, beta, gamma)
    assert opt == 28
    bound = 1 - (1 - 1 / gamma) ** gamma
    static = gra_select(covers, beta, gamma)
    assert static.selected == [0, 1, 2] and static.coverage == 12
    assert static.coverage < bound * opt
    marginal = gra_select(covers, beta, gamma, selection="marginal")
    assert marginal.coverage == 28


@settings(max_examples=80, deadline=None)
@given(inst=cover_instances(), strict=st.booleans(), selection=st.sampled_from(
    ["static", "marginal"]), stop=st.booleans())
def test_output_is_feasible_and_never_beats_exact(inst, strict, selection, stop):
    """Every GRA answer (static in-only, marginal both) is feasible and covers at most OPT."""
    covers, beta, gamma = inst
    res = gra_select(covers, beta, gamma, selection=selection, strict=strict, stop_at_zero=stop)
    assert is_feasible(covers, res.selected, beta, gamma, strict)
    assert res.coverage == coverage(covers, res.selected)
    opt, _ = exhaustive_cdprl(covers, beta, gamma, strict)
    assert res.coverage <= opt


@settings(max_examples=80, deadline=None)
@given(inst=cover_instances(), strict=st.booleans())
def test_static_in_only_equals_both_directions(inst, strict):
    """§5.2 proof: with static picks, removing out-neighbours too changes nothing."""
    covers, beta, gamma = inst
    in_only = gra_select(covers, beta, gamma, strict=strict, removal="in")
    both = gra_select(covers, beta, gamma, strict=strict, removal="both")
    assert in_only == both


@settings(max_examples=60, deadline=None)
@given(covers=arrays(bool, st.tuples(st.integers(1, 7), st.integers(1, 10))),
       gamma=st.integers(1, 4), beta=st.sampled_from([0.5, 2 / 3, 1.0]))
def test_corollary_1_holds_for_marginal_on_edge_free_instances(covers, gamma, beta):
    """§5.4: with E empty, marginal GRA is the greedy: f(S) >= (1 - (1 - 1/gamma)^gamma) OPT."""
    nonempty = np.flatnonzero(covers.any(axis=1))
    if conflicting_pairs(covers, nonempty, beta):
        beta = 1.0  # a rate never exceeds 1, so with the strict test the graph is empty
    assert conflicting_pairs(covers, nonempty, beta) == []
    opt, _ = exhaustive_cdprl(covers, beta, gamma)
    res = gra_select(covers, beta, gamma, selection="marginal")
    assert res.coverage >= (1 - (1 - 1 / gamma) ** gamma) * opt - 1e-9


@settings(max_examples=30, deadline=None)
@given(inst=cover_instances())
def test_sparse_and_dense_inputs_agree(inst):
    """A scipy.sparse cover matrix gives the same answer as the dense one."""
    covers, beta, gamma = inst
    for selection in ("static", "marginal"):
        dense = gra_select(covers, beta, gamma, selection=selection)
        for fmt in (sp.csr_matrix, sp.csc_matrix, sp.coo_matrix):
            assert gra_select(fmt(covers), beta, gamma, selection=selection) == dense


def test_one_product_per_pick_scales():
    """The per-pick product handles 2,000 rules x 20,000 samples (tree-like covers) quickly."""
    rng = np.random.default_rng(0)
    n_trees, leaves, n_samples = 20, 100, 20_000
    rows = (np.arange(n_trees)[:, None] * leaves
            + rng.integers(0, leaves, size=(n_trees, n_samples))).ravel()
    cols = np.tile(np.arange(n_samples), n_trees)
    covers = sp.csr_matrix((np.ones(len(rows), dtype=bool), (rows, cols)),
                           shape=(n_trees * leaves, n_samples))
    res = gra_select(covers, 0.3, 10, selection="marginal")
    assert len(res.selected) == 10
    assert is_feasible(covers, res.selected, 0.3, 10)


@pytest.mark.parametrize("kwargs, match", [
    ({"selection": "best"}, "selection"),
    ({"removal": "out"}, "removal"),
    ({"beta": -0.1}, "beta"),
    ({"beta": float("nan")}, "beta"),
    ({"gamma": -1}, "gamma"),
    ({"gamma": 1.5}, "gamma"),
])
def test_bad_arguments_raise(kwargs, match):
    """Invalid selection, removal, beta or gamma raise ValueError naming the argument."""
    args = {"beta": 0.5, "gamma": 2, **kwargs}
    with pytest.raises(ValueError, match=match):
        gra_select(worked_example(), **args)
