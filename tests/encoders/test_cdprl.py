"""Exact CDPRL encoder (ALGORITHMS.md §4): optimum, reductions, signatures, size guard, hints."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from satrules.backends.registry import available_backends, solve
from satrules.encoders.cdprl import (
    conflict_bound,
    coverage_upper_bound,
    decode_cdprl,
    encode_cdprl,
    estimate_cdprl_size,
    hint_cdprl,
    trivial_bound,
)
from satrules.encoders.cdprl_bounds import best_bound
from satrules.exceptions import EncodingError, ModelSizeError
from satrules.heuristics import coverage, exhaustive_cdprl, gra_select, is_feasible
from satrules.ir import Status, make_solution
from tests.strategies import cdpr_worked_example as worked_example
from tests.strategies import covers_from_sets

BETAS = [0, 0.25, 1 / 3, 0.5, 2 / 3, 1.0]
ENGINES = available_backends(exclude={"bruteforce", "wcnf", "portfolio"})


def _signatures(enc):
    """Return {frozenset of input rules: weight} for the encoded sample groups."""
    lay = enc.layout
    out = {}
    for g in range(len(lay.y)):
        rows = lay.group_rules.indices[lay.group_rules.indptr[g]:lay.group_rules.indptr[g + 1]]
        out[frozenset(lay.rules[rows].tolist())] = int(lay.group_weights[g])
    return out


def _exact(covers, beta, gamma, backend="bruteforce", **kwargs):
    enc = encode_cdprl(covers, beta, gamma, **kwargs)
    sol = solve(enc.model, backend=backend, time_limit=30)
    return enc, sol, decode_cdprl(enc.layout, sol)


@st.composite
def small_instances(draw, max_rules=6, max_samples=9):
    """Covers small enough that x + y variables stay within brute force's 20."""
    n_rules = draw(st.integers(1, max_rules))
    n_samples = draw(st.integers(1, max_samples))
    covers = draw(arrays(bool, (n_rules, n_samples)))
    return covers, draw(st.sampled_from(BETAS)), draw(st.integers(0, 4))


def test_worked_example_optimum_strict_and_non_strict():
    """§4.4: OPT 10 with > beta, 9 with >= beta (the seed's Algorithm 1 test)."""
    for reduce in (True, False):
        for clique in (True, False):
            _, sol, ans = _exact(worked_example(), 0.5, 3, reduce=reduce, clique=clique)
            assert sol.status is Status.OPTIMAL
            assert ans.coverage == ans.bound == 10
            assert ans.selected in ([0, 1, 4], [0, 2, 4])
            _, _, ans = _exact(worked_example(), 0.5, 3, strict=False, reduce=reduce,
                               clique=clique)
            assert ans.coverage == 9 and ans.selected == [0, 2]


def test_worked_example_signatures_and_conflicts():
    """§4.4: 6 weighted groups without reductions; r4 dominated by r1, then 5 groups."""
    enc = encode_cdprl(worked_example(), 0.5, 3, reduce=False)
    assert _signatures(enc) == {
        frozenset({0, 3}): 2, frozenset({0}): 2, frozenset({0, 1}): 2,
        frozenset({1, 2}): 2, frozenset({2, 4}): 1, frozenset({4}): 1,
    }
    assert enc.layout.stats["edges"] == 2  # {r1, r4} and {r2, r3}
    enc = encode_cdprl(worked_example(), 0.5, 3)
    assert enc.layout.rules.tolist() == [0, 1, 2, 4]
    assert enc.layout.stats["removed_dominated"] == 1
    assert _signatures(enc) == {
        frozenset({0}): 4, frozenset({0, 1}): 2, frozenset({1, 2}): 2,
        frozenset({2, 4}): 1, frozenset({4}): 1,
    }
    strict_false = encode_cdprl(worked_example(), 0.5, 3, strict=False, reduce=False)
    assert strict_false.layout.stats["edges"] == 4  # also {r1, r2} and {r3, r5}


def test_model_shape_and_offset():
    """Variables ("x", j) and ("y", g); soft units on y; coverage = total weight - cost."""
    enc, sol, ans = _exact(worked_example(), 0.5, 3, reduce=False, clique=False)
    model, lay = enc.model, enc.layout
    assert model.var(("x", 0)) == lay.x[0] and model.var(("y", 0)) == lay.y[0]
    assert model.n_vars == 5 + 6
    assert lay.total_weight == 10 == model.soft_weight_sum()
    assert sorted(model.kinds()) == ["cardinality", "clause", "graph", "soft"]
    assert ans.coverage == lay.total_weight - sol.cost


def test_uncovered_samples_are_dropped():
    """§4.3.1: a sample no rule covers gets no y; total weight counts covered samples only."""
    covers = covers_from_sets([[0, 1], [1, 2]], 6)
    enc = encode_cdprl(covers, 0.5, 2)
    assert enc.layout.total_weight == 3
    assert enc.layout.stats["samples"] == 6 and enc.layout.stats["samples_covered"] == 3


@settings(max_examples=60, deadline=None)
@given(inst=small_instances(), strict=st.booleans(), reduce=st.booleans(), clique=st.booleans())
def test_exact_equals_exhaustive_search(inst, strict, reduce, clique):
    """Brute force on the IR model finds the subset-enumeration optimum; the answer is feasible."""
    covers, beta, gamma = inst
    enc, sol, ans = _exact(covers, beta, gamma, strict=strict, reduce=reduce, clique=clique)
    want, _ = exhaustive_cdprl(covers, beta, gamma, strict)
    assert sol.status is Status.OPTIMAL
    assert ans.coverage == ans.bound == want
    assert ans.coverage == coverage(covers, ans.selected)
    assert is_feasible(covers, ans.selected, beta, gamma, strict)
    assert enc.layout.total_weight - sol.cost == want


@pytest.mark.parametrize("backend", ENGINES)
@settings(max_examples=25, deadline=None)
@given(inst=small_instances(max_rules=9, max_samples=14), strict=st.booleans(),
       clique=st.booleans())
def test_every_backend_agrees_with_exhaustive_search(backend, inst, strict, clique):
    """Each available engine proves the same optimum as subset enumeration, with a feasible set."""
    covers, beta, gamma = inst
    _, sol, ans = _exact(covers, beta, gamma, backend=backend, strict=strict, clique=clique)
    want, _ = exhaustive_cdprl(covers, beta, gamma, strict)
    assert sol.status is Status.OPTIMAL
    assert ans.coverage == ans.bound == want
    assert is_feasible(covers, ans.selected, beta, gamma, strict)


@pytest.mark.skipif("cpsat" not in ENGINES, reason="needs the cpsat backend")
@settings(max_examples=30, deadline=None)
@given(covers=arrays(bool, st.tuples(st.integers(5, 14), st.integers(5, 30)),
                     elements=st.booleans()),
       beta=st.sampled_from(BETAS), gamma=st.integers(1, 5), strict=st.booleans())
def test_reductions_keep_the_optimum(covers, beta, gamma, strict):
    """Reductions 3-4 (identical, dominated) and clique at-most-ones keep the optimal coverage."""
    covers = np.vstack([covers, covers[:2]])  # force identical covers
    plain = _exact(covers, beta, gamma, backend="cpsat", strict=strict, reduce=False,
                   clique=False)[2]
    reduced = _exact(covers, beta, gamma, backend="cpsat", strict=strict)[2]
    assert plain.coverage == reduced.coverage
    assert is_feasible(covers, reduced.selected, beta, gamma, strict)


def test_identical_covers_keep_the_most_accurate():
    """§4.3.3: of identical covers one stays: highest accuracy, then lowest index."""
    covers = covers_from_sets([[0, 1], [0, 1], [2], [0, 1]], 3)
    enc = encode_cdprl(covers, 0.5, 2, accuracy=[0.5, 0.9, 0.7, 0.9])
    assert enc.layout.rules.tolist() == [1, 2]
    assert enc.layout.position.tolist() == [0, 0, 1, 0]
    assert encode_cdprl(covers, 0.5, 2).layout.rules.tolist() == [0, 2]


def test_dominance_needs_the_neighbourhood_condition():
    """§4.3.4: r = {0} lies inside s = {0, 1}, but s conflicts with t = {1..6} and r does not.

    The only optimum is {r, t} (7); dropping r because its cover is inside s's
    would leave 6, so the neighbourhood condition must keep r.
    """
    covers = covers_from_sets([[0], [0, 1], range(1, 7)], 7)
    beta, gamma = 0.25, 2
    assert exhaustive_cdprl(covers, beta, gamma) == (7, [0, 2])
    enc, _, ans = _exact(covers, beta, gamma)
    assert 0 in enc.layout.rules.tolist()
    assert ans.coverage == 7 and ans.selected == [0, 2]


def test_dominance_chain_is_removed_one_at_a_time():
    """§4.3.4: r < s < t with no other conflicts: r and s go, t stays, optimum unchanged."""
    covers = covers_from_sets([[0], [0, 1], [0, 1, 2], [5]], 6)
    enc, _, ans = _exact(covers, 0.5, 2)
    assert enc.layout.rules.tolist() == [2, 3]
    assert enc.layout.position.tolist() == [0, 0, 0, 1]
    assert ans.coverage == 4 == exhaustive_cdprl(covers, 0.5, 2)[0]


@settings(max_examples=40, deadline=None)
@given(inst=small_instances(max_rules=8, max_samples=12))
def test_signature_groups_partition_the_covered_samples(inst):
    """§4.3.2: each group's signature equals the signature of the samples it stands for."""
    covers, beta, gamma = inst
    enc = encode_cdprl(covers, beta, gamma, reduce=False)
    lay = enc.layout
    kept = covers[lay.rules]
    sample_sigs = {}
    for i in np.flatnonzero(kept.any(axis=0)):
        key = frozenset(lay.rules[np.flatnonzero(kept[:, i])].tolist())
        sample_sigs[key] = sample_sigs.get(key, 0) + 1
    assert _signatures(enc) == sample_sigs
    assert lay.total_weight == int(kept.any(axis=0).sum())


@settings(max_examples=40, deadline=None)
@given(inst=small_instances(max_rules=8, max_samples=12), strict=st.booleans())
def test_gra_hint_is_a_feasible_assignment(inst, strict):
    """hint_cdprl maps a feasible GRA answer (through reductions) onto a model of the IR."""
    covers, beta, gamma = inst
    enc = encode_cdprl(covers, beta, gamma, strict=strict)
    for selection in ("static", "marginal"):
        picked = gra_select(covers, beta, gamma, selection=selection, strict=strict).selected
        hint = hint_cdprl(enc.layout, picked)
        assert enc.model.evaluate(hint)
        assert enc.layout.total_weight - enc.model.cost(hint) >= 0


def test_size_estimate_bounds_the_model_and_guard_refuses():
    """The estimate bounds edges and groups; above max_size a ModelSizeError gives the figures."""
    rng = np.random.default_rng(3)
    covers = rng.random((30, 200)) < 0.2
    est = estimate_cdprl_size(covers)
    enc = encode_cdprl(covers, 0.3, 5, reduce=False, clique=False)
    assert enc.layout.stats["edges"] <= est["pairs"]
    assert enc.layout.stats["groups"] <= est["groups"]
    with pytest.raises(ModelSizeError, match=r"max_size=100.*alpha"):
        encode_cdprl(covers, 0.3, 5, max_size=100)
    assert encode_cdprl(covers, 0.3, 5, max_size=None).layout.stats["rules_in"] == 30


def test_sparse_input_and_determinism():
    """Sparse and dense covers give identical models; the same input gives the same model."""
    rng = np.random.default_rng(5)
    covers = rng.random((12, 40)) < 0.3
    a = encode_cdprl(covers, 0.4, 4).model
    for other in (encode_cdprl(covers, 0.4, 4).model,
                  encode_cdprl(sp.csr_matrix(covers), 0.4, 4).model,
                  encode_cdprl(sp.coo_matrix(covers), 0.4, 4).model):
        assert np.array_equal(a.hard.lits, other.hard.lits)
        assert np.array_equal(a.soft.weights, other.soft.weights)
        assert a.cardinalities == other.cardinalities
        assert [g.edges.tolist() for g in a.graphs] == [g.edges.tolist() for g in other.graphs]


def test_degenerate_inputs():
    """No rules, only empty covers, gamma 0: coverage 0, proven optimal."""
    for covers, gamma in ((np.zeros((0, 4), dtype=bool), 2),
                          (np.zeros((3, 4), dtype=bool), 2),
                          (np.eye(3, dtype=bool), 0)):
        enc, sol, ans = _exact(covers, 0.5, gamma)
        assert sol.status is Status.OPTIMAL
        assert ans.selected == [] and ans.coverage == 0 == ans.bound


def test_trivial_bound_without_a_proof():
    """Without OPTIMAL or a lower bound, the bound is min(covered, sum of gamma largest covers)."""
    enc = encode_cdprl(worked_example(), 0.5, 2)
    assert trivial_bound(enc.layout) == 10  # 6 + 4
    enc = encode_cdprl(worked_example(), 0.5, 1)
    assert trivial_bound(enc.layout) == 6


@pytest.mark.parametrize("kwargs", [{"beta": -1}, {"beta": "0.5"}, {"gamma": -1},
                                    {"gamma": 2.0}, {"accuracy": [1.0, 0.5]}])
def test_bad_arguments_raise(kwargs):
    """Bad beta, gamma or accuracy shape raise EncodingError (a ValueError)."""
    args = {"beta": 0.5, "gamma": 2, **kwargs}
    with pytest.raises(EncodingError):
        encode_cdprl(worked_example(), **args)


@settings(max_examples=50, deadline=None)
@given(inst=small_instances(max_rules=8, max_samples=12), strict=st.booleans(),
       data=st.data())
def test_submodular_bound_is_a_valid_upper_bound(inst, strict, data):
    """coverage_upper_bound(S) >= OPT for any S, and <= the trivial bound."""
    covers, beta, gamma = inst
    enc = encode_cdprl(covers, beta, gamma, strict=strict)
    n_kept = len(enc.layout.rules)
    chosen = np.array(data.draw(st.lists(st.booleans(), min_size=n_kept, max_size=n_kept)),
                      dtype=bool)
    want, _ = exhaustive_cdprl(covers, beta, gamma, strict)
    for mask in (None, chosen):
        bound = coverage_upper_bound(enc.layout, mask)
        assert want <= bound <= trivial_bound(enc.layout)


@settings(max_examples=150, deadline=None)
@given(inst=small_instances(max_rules=8, max_samples=12), strict=st.booleans(),
       reduce=st.booleans())
def test_conflict_bound_is_a_valid_upper_bound(inst, strict, reduce):
    """conflict_bound >= OPT (brute force), with and without the reductions; every per-rule
    bound is >= the best feasible set whose largest rule is that rule."""
    covers, beta, gamma = inst
    enc = encode_cdprl(covers, beta, gamma, strict=strict, reduce=reduce)
    want, _ = exhaustive_cdprl(covers, beta, gamma, strict)
    assert want <= conflict_bound(enc.layout) <= enc.layout.total_weight
    bound, source = best_bound(enc.layout)
    assert want <= bound and source in ("trivial", "submodular", "conflict")


def test_conflict_bound_beats_submodularity():
    """A and A' (10 samples each, 9 shared) conflict at beta 1/2; OPT with gamma 2 is A + C = 12.

    Submodularity ignores the conflict and allows A + A' + C's gains (13); the conflict-aware
    bound takes A as the largest rule and only C as its compatible partner: 12 = OPT.
    """
    covers = covers_from_sets([range(0, 10), [*range(0, 9), 10], [11, 12]], 13)
    enc = encode_cdprl(covers, 0.5, 2, reduce=False)
    assert exhaustive_cdprl(covers, 0.5, 2)[0] == 12
    assert coverage_upper_bound(enc.layout) == 13
    assert conflict_bound(enc.layout) == 12
    assert best_bound(enc.layout) == (12, "conflict")
    feasible = make_solution(enc.model, Status.FEASIBLE, hint_cdprl(enc.layout, [2]))
    ans = decode_cdprl(enc.layout, feasible)  # a FEASIBLE answer states the best bound
    assert (ans.coverage, ans.bound, ans.bound_source) == (2, 12, "conflict")
