"""Swap/exchange local search (satrules.heuristics.local): feasible, never below its seeds,
never above the exhaustive optimum, and better than GRA where a swap is needed."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from satrules.heuristics import exhaustive_cdprl, gra_select, is_feasible
from satrules.heuristics.local import local_select
from tests.strategies import cdpr_worked_example as worked_example
from tests.strategies import covers_from_sets

BETAS = [0, 0.1, 0.25, 1 / 3, 0.5, 2 / 3, 1.0]


@settings(max_examples=150, deadline=None)
@given(covers=arrays(bool, st.tuples(st.integers(1, 10), st.integers(1, 16))),
       beta=st.sampled_from(BETAS), gamma=st.integers(0, 4), strict=st.booleans(),
       kicks=st.integers(0, 5))
def test_local_is_feasible_between_seeds_and_optimum(covers, beta, gamma, strict, kicks):
    """Feasible; >= GRA static and marginal (its seeds); <= the exhaustive optimum."""
    res = local_select(covers, beta, gamma, strict=strict, n_kicks=kicks)
    assert is_feasible(covers, res.selected, beta, gamma, strict)
    assert res.coverage == int(covers[res.selected].any(axis=0).sum()) if res.selected else (
        res.coverage == 0)
    for selection in ("static", "marginal"):
        assert res.coverage >= gra_select(covers, beta, gamma, selection, strict).coverage
    assert res.coverage <= exhaustive_cdprl(covers, beta, gamma, strict)[0]
    assert res.coverage >= max(res.seeds.values(), default=0)


def test_swap_beats_gra():
    """GRA takes the big rule A, which blocks B1 and B2; one swap A -> B1 then B2 covers more."""
    # A = 0..9, B1 = {0} + 10..17, B2 = {1} + 18..25 (beta 1/10: A conflicts with both B)
    covers = covers_from_sets([range(0, 10), [0, *range(10, 18)], [1, *range(18, 26)]], 26)
    assert gra_select(covers, 0.1, 2, "marginal").coverage == 10
    res = local_select(covers, 0.1, 2, n_kicks=0)
    assert res.coverage == exhaustive_cdprl(covers, 0.1, 2)[0] == 18
    assert res.selected == [1, 2]


#: Leaf labels of four depth-2 "trees" over 40 samples (generated, then frozen here):
#: each tree's leaves partition the samples; every non-empty leaf is a candidate rule.
_TREES = ["0000022022000032033000000022123202231320",
          "0111110110100010000011000011201101101101",
          "1111311102021111111111122111111111111130",
          "3212112333332213302033101323301233121220"]


def tree_leaf_covers() -> np.ndarray:
    """Covers of the non-empty leaves of :data:`_TREES` (15 rules x 40 samples)."""
    labels = np.array([[int(c) for c in tree] for tree in _TREES])
    rows = [labels[t] == leaf for t in range(len(_TREES)) for leaf in range(4)]
    covers = np.array(rows)
    return covers[covers.any(axis=1)]


def test_anchor_restart_leaves_the_largest_rule():
    """Regression (issue 13, beta 0.1): kicks stayed at 38 of 40; an anchor restart finds 40.

    The three leaves of tree 1 (19, 20 and 1 samples) cover all 40 samples,
    but every seed starts from the largest rule (31 samples, a leaf of tree 2),
    which overlaps each of them by more than 10 %; adds, swaps, ejections and
    500 kicks never give it up.  Restarting with the second-largest rule as the
    largest allowed one reaches the optimum without a kick.
    """
    covers = tree_leaf_covers()
    optimum, _ = exhaustive_cdprl(covers, 0.1, 3)
    assert optimum == 40
    for seed in range(3):
        assert local_select(covers, 0.1, 3, n_kicks=500, n_anchors=0,
                            random_state=seed).coverage == 38
    res = local_select(covers, 0.1, 3, n_kicks=0)
    assert res.coverage == optimum and res.start == "anchor"
    assert is_feasible(covers, res.selected, 0.1, 3)


def test_given_start_is_repaired_and_kept():
    """A conflicting start is repaired in order; the answer is never below it."""
    res = local_select(worked_example(), 0.5, 3, start=[0, 3, 2], n_kicks=0)
    assert "given" in res.seeds
    assert is_feasible(worked_example(), res.selected, 0.5, 3)
    assert res.coverage == 10


def test_deterministic_for_a_seed():
    """The same random_state gives the same answer (the kicks are seeded)."""
    rng = np.random.default_rng(3)
    covers = rng.random((40, 200)) < 0.1
    one = local_select(covers, 0.3, 5, n_kicks=10, random_state=7)
    two = local_select(covers, 0.3, 5, n_kicks=10, random_state=7)
    assert one == two


def test_bad_arguments():
    """gamma, beta, n_kicks and n_anchors are checked before any work."""
    with pytest.raises(ValueError, match="gamma"):
        local_select(worked_example(), 0.5, -1)
    with pytest.raises(ValueError, match="beta"):
        local_select(worked_example(), -0.5, 2)
    with pytest.raises(ValueError, match="n_kicks"):
        local_select(worked_example(), 0.5, 2, n_kicks=-1)
    with pytest.raises(ValueError, match="n_anchors"):
        local_select(worked_example(), 0.5, 2, n_anchors=-1)
    with pytest.raises(ValueError, match="time_limit"):
        local_select(worked_example(), 0.5, 2, n_kicks=None)


def test_kicks_until_the_time_limit():
    """n_kicks=None kicks until time_limit; the answer stays feasible and >= GRA."""
    rng = np.random.default_rng(4)
    covers = rng.random((30, 120)) < 0.15
    res = local_select(covers, 0.3, 4, n_kicks=None, time_limit=0.3)
    assert is_feasible(covers, res.selected, 0.3, 4)
    assert res.coverage >= gra_select(covers, 0.3, 4, "marginal").coverage


@settings(max_examples=60, deadline=None)
@given(shape=st.tuples(st.integers(1, 40), st.integers(1, 120)),
       density=st.sampled_from([0.05, 0.2, 0.5]), weights=st.none() | st.integers(2, 6),
       beta=st.sampled_from(BETAS), gamma=st.integers(0, 6), strict=st.booleans(),
       seed=st.integers(0, 2**16))
def test_dense_and_sparse_counts_give_the_same_answers(shape, density, weights, beta, gamma,
                                                        strict, seed):
    """A small cover matrix is counted on a dense copy (``covers._DENSE_CELLS``): GRA, GDY
    and the local search (every move, kick and restart) answer as on the sparse matrix."""
    from unittest import mock

    from satrules import covers as covers_module
    from satrules.heuristics import gdy_select

    rng = np.random.default_rng(seed)
    covers = rng.random(shape) < density
    w = None if weights is None else rng.integers(1, weights + 1, shape[1])

    def answers():
        res = local_select(covers, beta, gamma, strict=strict, n_kicks=5, n_anchors=5,
                           random_state=seed, sample_weight=w)
        return ((res.selected, res.coverage, res.start, res.seeds, res.moves, res.kicks),
                [gra_select(covers, beta, gamma, sel, strict, sample_weight=w).selected
                 for sel in ("static", "marginal")],
                gdy_select(covers, gamma, 1.0, sample_weight=w).selected)

    with mock.patch.object(covers_module, "_DENSE_CELLS", 0):
        sparse = answers()
    with mock.patch.object(covers_module, "_DENSE_CELLS", 1 << 18):
        dense = answers()
    assert dense == sparse
