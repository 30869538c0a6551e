"""Branch and bound on the largest selected rule (satrules.heuristics.bnb): exact on random
instances, weights equal repeated columns, and an interrupted search states a valid bound."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from satrules.heuristics import exhaustive_cdprl, gra_select, is_feasible
from satrules.heuristics.bnb import branch_and_bound

BETAS = [0, 0.1, 0.25, 1 / 3, 0.5, 2 / 3, 1.0]


@settings(max_examples=200, deadline=None)
@given(covers=arrays(bool, st.tuples(st.integers(1, 12), st.integers(1, 16))),
       beta=st.sampled_from(BETAS), gamma=st.integers(0, 5), strict=st.booleans())
def test_branch_and_bound_equals_brute_force(covers, beta, gamma, strict):
    """Finished search: OPT of subset enumeration, feasible answer, bound == coverage."""
    want, _ = exhaustive_cdprl(covers, beta, gamma, strict)
    res = branch_and_bound(covers, beta, gamma, strict=strict)
    assert res.optimal and res.coverage == res.bound == want
    assert is_feasible(covers, res.selected, beta, gamma, strict)


@settings(max_examples=100, deadline=None)
@given(covers=arrays(bool, st.tuples(st.integers(1, 10), st.integers(1, 8))),
       reps=st.lists(st.integers(1, 4), min_size=8, max_size=8),
       beta=st.sampled_from(BETAS), gamma=st.integers(1, 4))
def test_weights_equal_repeated_columns(covers, reps, beta, gamma):
    """A column of weight w counts (and overlaps) like w identical samples."""
    weights = np.asarray(reps[:covers.shape[1]])
    repeated = np.repeat(covers, weights, axis=1)
    want, _ = exhaustive_cdprl(repeated, beta, gamma)
    res = branch_and_bound(covers, beta, gamma, weights=weights)
    assert res.optimal and res.coverage == want


@settings(max_examples=100, deadline=None)
@given(covers=arrays(bool, st.tuples(st.integers(2, 12), st.integers(2, 16))),
       beta=st.sampled_from(BETAS), gamma=st.integers(1, 5), nodes=st.integers(1, 6))
def test_interrupted_search_keeps_incumbent_and_a_valid_bound(covers, beta, gamma, nodes):
    """Stopped after a few nodes: answer >= the incumbent, bound >= OPT >= answer."""
    start = gra_select(covers, beta, gamma, selection="marginal")
    res = branch_and_bound(covers, beta, gamma, incumbent=start.selected, max_nodes=nodes)
    want, _ = exhaustive_cdprl(covers, beta, gamma)
    assert start.coverage <= res.coverage <= want <= res.bound <= covers.any(axis=0).sum()
    assert is_feasible(covers, res.selected, beta, gamma)
    if res.optimal:
        assert res.coverage == want
