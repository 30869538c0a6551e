"""Sample weights in the CDPR selection: a sample of weight w is w copies of it.

Every selector (GRA static and marginal, GDY, the local search, the exact encoder and
``solve_exact``) is run on a weighted instance and on the unweighted instance with each
sample repeated ``w`` times; the answers must agree, and the exact optimum must equal
the exhaustive optimum of the repeated instance.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from satrules import covers as covers_module
from satrules.backends.registry import solve
from satrules.cdpr import solve_exact
from satrules.covers import Incidence, check_sample_weight
from satrules.encoders.cdprl import decode_cdprl, encode_cdprl
from satrules.exceptions import EncodingError
from satrules.heuristics import exhaustive_cdprl, gdy_select, gra_select, is_feasible
from satrules.heuristics.local import local_select

BETAS = [0, 0.25, 1 / 3, 0.5, 2 / 3, 1.0]


@st.composite
def weighted_instances(draw, max_rules=6, max_samples=7, max_weight=4):
    n_rules = draw(st.integers(1, max_rules))
    n_samples = draw(st.integers(1, max_samples))
    covers = draw(arrays(bool, (n_rules, n_samples)))
    weights = np.array(draw(st.lists(st.integers(1, max_weight), min_size=n_samples,
                                     max_size=n_samples)))
    return covers, weights, draw(st.sampled_from(BETAS)), draw(st.integers(0, 4))


def repeated(covers, weights):
    """The unweighted instance: sample i repeated weights[i] times."""
    return np.repeat(covers, weights, axis=1)


@settings(max_examples=150, deadline=None)
@given(inst=weighted_instances(), strict=st.booleans())
def test_gra_weighted_is_gra_on_repeated_samples(inst, strict):
    covers, w, beta, gamma = inst
    for selection in ("static", "marginal"):
        got = gra_select(covers, beta, gamma, selection, strict, sample_weight=w)
        want = gra_select(repeated(covers, w), beta, gamma, selection, strict)
        assert (got.selected, got.coverage, got.gains) == \
            (want.selected, want.coverage, want.gains)


@settings(max_examples=150, deadline=None)
@given(inst=weighted_instances(), lam=st.sampled_from([0.0, 0.5, 1.0, 2.0]),
       algorithm=st.sampled_from(["fig", "greedy"]))
def test_gdy_weighted_is_gdy_on_repeated_samples(inst, lam, algorithm):
    covers, w, _, gamma = inst
    got = gdy_select(covers, gamma, lam, algorithm=algorithm, sample_weight=w)
    want = gdy_select(repeated(covers, w), gamma, lam, algorithm=algorithm)
    assert (got.selected, got.coverage) == (want.selected, want.coverage)
    assert got.objective == pytest.approx(want.objective)


@settings(max_examples=100, deadline=None)
@given(inst=weighted_instances(), strict=st.booleans(), kicks=st.integers(0, 3))
def test_local_weighted_is_local_on_repeated_samples(inst, strict, kicks):
    covers, w, beta, gamma = inst
    got = local_select(covers, beta, gamma, strict=strict, n_kicks=kicks, sample_weight=w)
    want = local_select(repeated(covers, w), beta, gamma, strict=strict, n_kicks=kicks)
    assert (got.selected, got.coverage) == (want.selected, want.coverage)


@settings(max_examples=150, deadline=None)
@given(inst=weighted_instances(), strict=st.booleans(), reduce=st.booleans(),
       clique=st.booleans())
def test_encoder_weighted_optimum_is_the_repeated_optimum(inst, strict, reduce, clique):
    """The weighted model (brute force) reaches the exhaustive optimum of the repeated
    instance, and its answer is feasible there with the coverage it reports."""
    covers, w, beta, gamma = inst
    big = repeated(covers, w)
    enc = encode_cdprl(covers, beta, gamma, strict=strict, reduce=reduce, clique=clique,
                       sample_weight=w)
    ans = decode_cdprl(enc.layout, solve(enc.model, backend="bruteforce", time_limit=30))
    best, _ = exhaustive_cdprl(big, beta, gamma, strict)
    assert ans.coverage == ans.bound == best
    assert is_feasible(big, ans.selected, beta, gamma, strict)
    assert int(big[ans.selected].any(axis=0).sum()) == ans.coverage


@settings(max_examples=60, deadline=None)
@given(inst=weighted_instances(max_rules=7, max_samples=8),
       backend=st.sampled_from(["rc2", "cpsat"]), hint=st.sampled_from(["best", "gra", None]),
       branch=st.booleans())
def test_solve_exact_weighted_is_the_repeated_optimum(inst, backend, hint, branch):
    covers, w, beta, gamma = inst
    big = repeated(covers, w)
    res = solve_exact(covers, beta, gamma, backend=backend, hint=hint, branch=branch,
                      lp=False, sample_weight=w)
    best, _ = exhaustive_cdprl(big, beta, gamma)
    assert res.status.name == "OPTIMAL"
    assert res.coverage == res.bound == best
    assert is_feasible(big, res.selected, beta, gamma)
    assert int(big[res.selected].any(axis=0).sum()) == res.coverage


def test_unit_weights_change_nothing():
    rng = np.random.default_rng(0)
    covers = rng.random((12, 40)) < 0.3
    ones = np.ones(40, dtype=int)
    assert gra_select(covers, 0.5, 4, sample_weight=ones) == gra_select(covers, 0.5, 4)
    assert local_select(covers, 0.5, 4, sample_weight=ones) == local_select(covers, 0.5, 4)
    a, b = solve_exact(covers, 0.5, 4, sample_weight=ones), solve_exact(covers, 0.5, 4)
    assert (a.selected, a.coverage, a.bound) == (b.selected, b.coverage, b.bound)


def test_a_heavy_sample_changes_the_choice():
    """Two disjoint rules, room for one: the heavier side wins."""
    covers = np.array([[1, 1, 0], [0, 0, 1]], dtype=bool)
    assert gra_select(covers, 0.5, 1).selected == [0]
    assert gra_select(covers, 0.5, 1, sample_weight=[1, 1, 5]).selected == [1]
    res = solve_exact(covers, 0.5, 1, backend="rc2", sample_weight=[1, 1, 5])
    assert (res.selected, res.coverage) == ([1], 5)


@pytest.mark.parametrize("dense_cells", [0, 1 << 18])
def test_incidence_weighted_counts_with_the_csc_gather(monkeypatch, dense_cells):
    """Past the products, overlaps are gathered from a CSC copy: weighted all the same;
    and on the dense copy of a small matrix, by column sums or a product."""
    monkeypatch.setattr(covers_module, "_DENSE_CELLS", dense_cells)
    rng = np.random.default_rng(1)
    covers = rng.random((30, 200)) < 0.1
    w = rng.integers(1, 9, 200)
    inc = Incidence(covers, w)
    assert (inc._dense is not None) == (dense_cells > 0)
    for _ in range(40):   # past _PRODUCTS_BEFORE_CSC, both the gather and product paths
        samples = np.flatnonzero(rng.random(200) < rng.choice([0.02, 0.9]))
        assert inc.overlaps(samples).tolist() == (covers[:, samples] @ w[samples]).tolist()
    assert inc.sizes.tolist() == (covers @ w).tolist() and inc.total == int(w.sum())


@pytest.mark.parametrize("weights, match", [
    ([1, 0, 1], "positive integers; sample 1 has 0"),
    ([1, 1.5, 1], "sample 1 has 1.5"),
    ([1, np.nan, 1], "sample 1 has nan"),
    ([True, True, True], "positive integers, one per sample"),
    ([1, 1], "3 positive integers"),
    ([1, 2**61, 1], "scale the weights down"),
    ([2**62, 2**62, 2**62], "scale the weights down"),   # an int64 sum would wrap
])
def test_bad_sample_weight(weights, match):
    with pytest.raises(ValueError, match=match):
        check_sample_weight(weights, 3)
    with pytest.raises(EncodingError, match=match):
        encode_cdprl(np.ones((2, 3), dtype=bool), 0.5, 1, sample_weight=weights)
