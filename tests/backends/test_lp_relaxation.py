"""The LP-relaxation bound (issue 13): proven on any model, the full LP's value when complete."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from satrules import Status, solve
from satrules.backends.highs import HiGHSBackend, build_mip
from satrules.ir import make_solution
from tests.strategies import tiny_models

pytestmark = pytest.mark.skipif(not HiGHSBackend.available(), reason="highspy is not installed")


def _full_lp(model) -> float:
    """The LP relaxation's optimum with every row (HiGHS, no lazy rows)."""
    import highspy

    from satrules.backends.lp_relaxation import load_relaxation

    mip = build_mip(model)
    mat = sp.csr_matrix((mip.value, mip.index, mip.start), shape=(mip.n_rows, mip.n_cols))
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    load_relaxation(h, mip, mat, np.arange(mip.n_rows))
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    return h.getInfo().objective_function_value


@settings(max_examples=80, deadline=None)
@given(model=tiny_models(max_vars=6))
def test_bound_never_exceeds_the_optimum(model):
    """On tiny random models the bound is at most brute force's optimal cost, and with
    batch 1 (one lazy row a round) it still ends complete at the full LP's value."""
    from satrules.backends.lp_relaxation import lp_bound

    want = solve(model, backend="bruteforce")
    res = lp_bound(model, batch=1)
    if want.status is Status.UNSATISFIABLE:
        return  # any bound (or none) is valid
    assert res.cost is not None and res.complete
    assert res.cost <= want.cost
    assert res.cost == int(np.ceil(_full_lp(model) - 1e-6))
    assert res.rows <= res.n_rows


@settings(max_examples=40, deadline=None)
@given(model=tiny_models(max_vars=6), seed=st.integers(0, 2**16))
def test_lagrangian_bound_is_valid_for_any_multipliers(model, seed):
    """The dual bound does not rely on the LP being solved: random row multipliers give a
    bound at most the optimum too."""
    from satrules.backends.lp_relaxation import _dual_bound

    want = solve(model, backend="bruteforce")
    if want.status is Status.UNSATISFIABLE:
        return
    mip = build_mip(model)
    mat = sp.csr_matrix((mip.value, mip.index, mip.start), shape=(mip.n_rows, mip.n_cols))
    duals = np.random.default_rng(seed).normal(0, 3, mip.n_rows)
    assert _dual_bound(mat, mip.row_lower, mip.row_upper, mip.cost, mip.offset,
                       duals) <= want.cost


@settings(max_examples=30, deadline=None)
@given(covers=arrays(bool, st.tuples(st.integers(2, 8), st.integers(2, 14))),
       beta=st.sampled_from([0.0, 0.25, 0.5]), gamma=st.integers(1, 4))
def test_cdprl_coverage_bound_is_above_the_exhaustive_optimum(covers, beta, gamma):
    """On CDPRL models: total coverable - LP cost >= the best coverage of any feasible set."""
    from satrules.backends.lp_relaxation import lp_bound
    from satrules.encoders.cdprl import encode_cdprl
    from satrules.heuristics import exhaustive_cdprl

    enc = encode_cdprl(covers, beta, gamma)
    res = lp_bound(enc.model, batch=2)
    assert res.complete
    assert enc.layout.total_weight - res.cost >= exhaustive_cdprl(covers, beta, gamma)[0]


def test_lazy_rows_are_fewer_than_all_rows():
    """On a CDPRL model with many sample groups, the loop ends without every coverage row."""
    from satrules.backends.lp_relaxation import lp_bound
    from satrules.encoders.cdprl import encode_cdprl

    covers = np.random.default_rng(3).random((60, 400)) < 0.1
    enc = encode_cdprl(covers, 0.2, 5)
    res = lp_bound(enc.model, batch=20)
    assert res.complete and res.rounds > 1
    assert res.rows < res.n_rows
    assert res.cost == int(np.ceil(_full_lp(enc.model) - 1e-6))


def test_no_time_left_gives_no_bound_and_bad_batch_is_refused():
    from satrules.backends.lp_relaxation import lp_bound
    from satrules.encoders.cdprl import encode_cdprl

    enc = encode_cdprl(np.random.default_rng(3).random((20, 100)) < 0.2, 0.2, 3)
    res = lp_bound(enc.model, time_limit=1e-9)
    assert res.cost is None and not res.complete and res.rounds == 0
    with pytest.raises(ValueError, match="batch"):
        lp_bound(enc.model, batch=0)


def test_solve_exact_reports_the_lp_bound_when_the_engine_proves_nothing(monkeypatch):
    """With an engine that returns only a feasible answer and no bound (as CP-SAT does at
    the diamonds scale), the LP bound is the one reported (``bound_source="lp"``); with
    ``lp=False`` it is not computed."""
    import satrules.cdpr as cdpr
    from satrules.backends.lp_relaxation import lp_bound
    from satrules.heuristics import exhaustive_cdprl

    def no_proof(model, backend, time_limit, seed, hint, **options):
        return make_solution(model, Status.FEASIBLE, hint, backend=backend)

    monkeypatch.setattr(cdpr, "solve", no_proof)
    covers = np.random.default_rng(1).random((14, 60)) < 0.15
    res = cdpr.solve_exact(covers, 0.3, 3, backend="cpsat", branch=False)
    want = exhaustive_cdprl(covers, 0.3, 3)[0]
    lp_cov = res.layout.total_weight - lp_bound(cdpr.encode_cdprl(covers, 0.3, 3).model).cost
    assert res.status is Status.FEASIBLE
    assert res.bound_source == "lp" and res.bound == max(lp_cov, res.coverage) >= want
    off = cdpr.solve_exact(covers, 0.3, 3, backend="cpsat", branch=False, lp=False)
    assert off.bound_source != "lp" and off.bound >= want
    assert off.bound > res.bound  # the combinatorial bounds alone are weaker here
    # also before HiGHS (its root LP did not finish under load on diamonds, issue 13)
    highs = cdpr.solve_exact(covers, 0.3, 3, backend="highs", branch=False)
    assert highs.bound_source == "lp" and highs.bound == res.bound
    # "auto" without HiGHS installed: no LP bound, no error
    monkeypatch.setattr(cdpr.HiGHSBackend, "available", classmethod(lambda cls: False))
    assert cdpr.solve_exact(covers, 0.3, 3, backend="cpsat", branch=False).bound == off.bound
    with pytest.raises(ValueError, match="lp must be"):
        cdpr.solve_exact(covers, 0.3, 3, lp="yes")
