"""Public CDPR API (satrules.cdpr): solve_exact, gra, gdy -- results, options, cross-checks."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from satrules.backends.registry import available_backends
from satrules.cdpr import ExactResult, gdy, gra, local, solve_exact
from satrules.exceptions import ModelSizeError
from satrules.heuristics import coverage, exhaustive_cdprl, is_feasible
from satrules.ir import Status
from tests.strategies import cdpr_worked_example as worked_example

ENGINES = available_backends(exclude={"wcnf", "portfolio"})
BETAS = [0, 0.25, 1 / 3, 0.5, 2 / 3, 1.0]


def test_solve_exact_result_fields():
    """The result carries sorted selected indices, coverage, status, proven bound and solution."""
    res = solve_exact(worked_example(), 0.5, 3, backend="bruteforce", hint=None, branch=False)
    assert isinstance(res, ExactResult)
    assert res.status is Status.OPTIMAL
    assert res.selected == sorted(res.selected)
    assert res.coverage == res.bound == 10 and res.gap == 0
    assert res.solution.status is res.status and res.solution.backend == "bruteforce"
    assert res.layout.stats["rules_in"] == 5
    assert res.hint == []


@pytest.mark.parametrize("backend", ENGINES)
def test_worked_example_on_every_backend(backend):
    """§4.4: every available backend proves OPT 10 (strict) and 9 (non-strict)."""
    for strict, want in ((True, 10), (False, 9)):
        for reduce in (True, False):
            res = solve_exact(worked_example(), 0.5, 3, backend=backend, strict=strict,
                              reduce=reduce, hint=None, time_limit=30,
                              branch=False)
            assert res.status is Status.OPTIMAL
            assert res.coverage == res.bound == want
            assert is_feasible(worked_example(), res.selected, 0.5, 3, strict)


def test_paper_mode_returns_the_papers_rules():
    """reduce=False keeps every candidate, so the returned rules are among the input's optima."""
    covers = np.vstack([worked_example(), worked_example()[:1]])  # rule 5 duplicates rule 0
    res = solve_exact(covers, 0.5, 3, backend="bruteforce", reduce=False, hint=None)
    assert res.layout.stats["rules_kept"] == 6
    assert res.coverage == 10
    reduced = solve_exact(covers, 0.5, 3, backend="bruteforce")
    assert reduced.layout.stats["removed_identical"] == 1 and reduced.coverage == 10


def test_hints():
    """hint="gra" warm-starts with GRA's (marginal) answer; a rule list is taken as given."""
    res = solve_exact(worked_example(), 0.5, 3, backend="bruteforce", hint="gra")
    assert res.hint == gra(worked_example(), 0.5, 3, selection="marginal").selected
    res = solve_exact(worked_example(), 0.5, 3, backend="bruteforce", hint=[0, 2, 4])
    assert res.hint == [0, 2, 4] and res.coverage == 10
    with pytest.raises(ValueError, match="hint"):
        solve_exact(worked_example(), 0.5, 3, backend="bruteforce", hint="gdy")
    res = solve_exact(worked_example(), 0.5, 3, backend="bruteforce")
    assert res.hint == local(worked_example(), 0.5, 3).selected  # the default is "best"
    with pytest.raises(ValueError, match="hint"):
        solve_exact(worked_example(), 0.5, 3, backend="bruteforce", hint=[0, 7])


def test_size_guard_is_reachable_through_the_api():
    """max_size reaches the encoder's guard (issue 4 row 5)."""
    with pytest.raises(ModelSizeError, match="max_size"):
        solve_exact(worked_example(), 0.5, 3, backend="bruteforce", max_size=5)


def test_wrappers_match_the_heuristics_modules():
    """gra/gdy are the heuristics with the documented defaults."""
    from satrules.heuristics import gdy_select, gra_select

    covers = worked_example()
    assert gra(covers, 0.5, 3) == gra_select(covers, 0.5, 3, selection="static")
    assert gra(covers, 0.5, 3, "marginal") == gra_select(covers, 0.5, 3, selection="marginal")
    assert gdy(covers, 3, 0.5) == gdy_select(covers, 3, 0.5, rho=0.1, algorithm="fig")


@settings(max_examples=40, deadline=None)
@given(covers=arrays(bool, st.tuples(st.integers(1, 6), st.integers(1, 9))),
       beta=st.sampled_from(BETAS), gamma=st.integers(0, 4), strict=st.booleans())
def test_every_method_is_feasible_and_exact_is_best(covers, beta, gamma, strict):
    """Exact = subset enumeration; GRA (both) is feasible and <= exact; GDY <= exact at beta 1."""
    want, _ = exhaustive_cdprl(covers, beta, gamma, strict)
    exact = solve_exact(covers, beta, gamma, backend="bruteforce", strict=strict, hint="gra")
    assert exact.status is Status.OPTIMAL and exact.coverage == exact.bound == want
    assert is_feasible(covers, exact.selected, beta, gamma, strict)
    for selection in ("static", "marginal"):
        res = gra(covers, beta, gamma, selection, strict)
        assert is_feasible(covers, res.selected, beta, gamma, strict)
        assert res.coverage <= exact.coverage
    unconstrained = exhaustive_cdprl(covers, 1.0, gamma)[0]
    for algorithm in ("fig", "greedy"):
        res = gdy(covers, gamma, 0.5, algorithm=algorithm)
        assert len(res.selected) <= gamma
        assert res.coverage == coverage(covers, res.selected) <= unconstrained


@pytest.mark.skipif(len(available_backends(exclude={"bruteforce", "wcnf", "portfolio"})) < 2,
                    reason="needs two engines")
@settings(max_examples=20, deadline=None)
@given(covers=arrays(bool, st.tuples(st.integers(2, 12), st.integers(2, 25))),
       beta=st.sampled_from(BETAS), gamma=st.integers(1, 5))
def test_backends_agree_beyond_brute_force(covers, beta, gamma):
    """On instances too big for brute force every engine proves the same optimum."""
    engines = available_backends(exclude={"bruteforce", "wcnf", "portfolio"})
    results = [solve_exact(sp.csr_matrix(covers), beta, gamma, backend=name, time_limit=30,
                           hint=None, branch=False) for name in engines]
    assert all(r.status is Status.OPTIMAL for r in results)
    assert len({r.coverage for r in results}) == 1
    assert all(is_feasible(covers, r.selected, beta, gamma) for r in results)


@pytest.mark.skipif("cpsat" not in ENGINES, reason="needs the cpsat backend")
def test_time_limit_answer_is_honest():
    """Under a tiny time limit the answer is feasible (or empty) and bound >= coverage."""
    rng = np.random.default_rng(11)
    covers = rng.random((300, 2000)) < 0.05
    res = solve_exact(covers, 0.2, 8, backend="cpsat", time_limit=0.05, hint="gra", branch=False)
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)  # the warm start is always there
    assert res.coverage >= coverage(covers, res.hint)
    assert res.bound >= res.coverage
    assert res.bound <= res.layout.total_weight
    assert is_feasible(covers, res.selected, 0.2, 8)
    if res.status is Status.OPTIMAL:
        assert res.bound == res.coverage


@settings(max_examples=40, deadline=None)
@given(covers=arrays(bool, st.tuples(st.integers(1, 8), st.integers(1, 12))),
       beta=st.sampled_from(BETAS), gamma=st.integers(0, 4), strict=st.booleans())
def test_default_warm_start_is_the_best_heuristic(covers, beta, gamma, strict):
    """Issue 13 item 3: the default hint is the local search; the answer never falls below it."""
    res = solve_exact(covers, beta, gamma, backend="bruteforce", strict=strict)
    best = local(covers, beta, gamma, strict=strict)
    assert res.hint == best.selected
    assert res.status is Status.OPTIMAL
    assert res.coverage == res.bound == exhaustive_cdprl(covers, beta, gamma, strict)[0]
    assert res.coverage >= best.coverage


def test_optimality_proven_by_a_bound_skips_the_engine():
    """When a combinatorial bound meets the warm start, it is OPTIMAL without a backend call."""
    res = solve_exact(worked_example(), 0.5, 3, backend="bruteforce")
    assert res.status is Status.OPTIMAL and res.coverage == res.bound == 10
    assert res.solution.backend == "" and "proven optimal" in res.solution.message
    assert res.bound_source in ("trivial", "submodular", "conflict")


@pytest.mark.skipif("cpsat" not in ENGINES, reason="needs the cpsat backend")
def test_time_limited_answer_is_never_below_the_warm_start():
    """Issue 13 item 3: at a tiny limit the answer is >= the local search and >= GRA."""
    rng = np.random.default_rng(5)
    covers = rng.random((200, 1500)) < 0.05
    res = solve_exact(covers, 0.2, 8, backend="cpsat", time_limit=0.5, seed=0)
    assert res.status.is_feasible
    assert res.coverage >= coverage(covers, res.hint)
    assert res.coverage >= gra(covers, 0.2, 8, "marginal").coverage
    assert res.coverage <= res.bound and res.bound_source
    assert is_feasible(covers, res.selected, 0.2, 8)


@pytest.mark.skipif("cpsat" not in ENGINES, reason="needs the cpsat backend")
def test_time_limit_covers_the_whole_call(monkeypatch):
    """Issue 13 item 4: encoding, warm start, bounds and solve fit in the limit.

    On a virtual clock that moves 1.9 s while the model is encoded, the engine is left at
    most the last 0.1 s of a 2 s limit, and the answer is still feasible (the warm
    start).  A clock of our own, not the wall's, so load cannot flake the test; the wall
    times are measured by benchmarks/bench_time_limits.py.
    """
    from types import SimpleNamespace

    from satrules import cdpr

    now = [0.0]
    budgets = []
    encode, engine = cdpr.encode_cdprl, cdpr.solve

    def slow_encode(*args, **kwargs):
        enc = encode(*args, **kwargs)
        now[0] += 1.9
        return enc

    def recording_engine(*args, time_limit=None, **kwargs):
        budgets.append(time_limit)
        return engine(*args, time_limit=time_limit, **kwargs)

    monkeypatch.setattr(cdpr, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    monkeypatch.setattr(cdpr, "encode_cdprl", slow_encode)
    monkeypatch.setattr(cdpr, "solve", recording_engine)
    rng = np.random.default_rng(6)
    covers = rng.random((300, 4000)) < 0.04
    res = solve_exact(covers, 0.2, 10, backend="cpsat", time_limit=2, seed=0)
    assert budgets and all(b is not None and b <= 0.1 + 1e-9 for b in budgets), budgets
    assert res.status.is_feasible


def test_local_wrapper_and_estimator_method():
    """cdpr.local is the heuristic; CDPRClassifier(method="local") selects with it."""
    from sklearn.datasets import load_breast_cancer

    from satrules.estimators.cdpr import CDPRClassifier
    from satrules.heuristics.local import local_select

    assert local(worked_example(), 0.5, 3) == local_select(worked_example(), 0.5, 3)
    X, y = load_breast_cancer(return_X_y=True)
    clf = CDPRClassifier(gamma=4, beta=0.3, n_estimators=5, method="local",
                         random_state=0).fit(X, y)
    gra_clf = CDPRClassifier(gamma=4, beta=0.3, n_estimators=5, method="gra",
                             random_state=0).fit(X, y)
    assert len(clf.rules_) <= 4
    assert clf.result_.coverage >= gra_clf.result_.coverage
    assert clf.result_.coverage == int(clf.rules_.covers.toarray().any(axis=0).sum())


@pytest.mark.skipif("cpsat" not in ENGINES, reason="needs the cpsat backend")
def test_branch_and_bound_proves_what_the_engine_proves():
    """Issue 13 item 2: on 40 x 200 random covers the search proves the engine's optimum.

    The engine runs without a limit (about 3 s each, alone): with 30 s it once answered
    FEASIBLE, its bound 1 above the optimum, under four busy loops and ``pytest -n 4``."""
    for seed in range(3):
        covers = np.random.default_rng(seed).random((40, 200)) < 0.08
        res = solve_exact(covers, 0.2, 4, backend="cpsat")
        engine = solve_exact(covers, 0.2, 4, backend="cpsat", hint=None, branch=False)
        assert engine.status is Status.OPTIMAL
        assert res.status is Status.OPTIMAL and res.coverage == res.bound == engine.coverage
        assert res.bound_source == "branch" and res.solution.backend == ""
        assert is_feasible(covers, res.selected, 0.2, 4)


@pytest.mark.skipif("highs" not in ENGINES, reason="needs the highs backend")
def test_highs_runs_with_costly_presolve_rules_off():
    """Issue 13 (c): HiGHS gets presolve rules 5-19 (probing, enumeration, ...) off unless
    the caller sets presolve_rule_off; the answer is unchanged."""
    mask = sum(1 << rule for rule in range(5, 20))
    res = solve_exact(worked_example(), 0.5, 3, backend="highs", hint=None, branch=False)
    assert res.solution.options["presolve_rule_off"] == mask and res.coverage == 10
    res = solve_exact(worked_example(), 0.5, 3, backend="highs", hint=None, branch=False,
                      presolve_rule_off=0)
    assert res.solution.options["presolve_rule_off"] == 0 and res.coverage == 10


@pytest.mark.parametrize("dense_cells", [0, 1 << 18])
def test_incidence_overlaps_agree_on_every_path(monkeypatch, dense_cells):
    """covers.Incidence.overlaps: product, gather and the large-query product give one
    answer, on the sparse matrix and on its dense copy (column sums or product)."""
    from satrules import covers as covers_module
    from satrules.covers import Incidence

    monkeypatch.setattr(covers_module, "_DENSE_CELLS", dense_cells)
    rng = np.random.default_rng(5)
    covers = rng.random((30, 200)) < 0.2
    inc = Incidence(covers)
    assert (inc._dense is not None) == (dense_cells > 0)
    queries = [rng.choice(200, size=size, replace=False) for size in (0, 3, 40, 150, 200) * 8]
    for samples in queries:  # past 16 queries the CSC gather (and for large ones the product)
        want = covers[:, samples].sum(axis=1)
        np.testing.assert_array_equal(inc.overlaps(samples), want)


@pytest.mark.skipif("highs" not in ENGINES, reason="highspy is not installed")
def test_interior_point_root_passes_through_engine_options():
    """Issue 13: an interior-point LP for HiGHS's MIP (``mip_lp_solver="ipm"``) is an engine
    option of solve_exact, recorded on the solution; it proves the same optimum."""
    rng = np.random.default_rng(0)
    covers = rng.random((30, 200)) < 0.1
    ipm = solve_exact(covers, 0.3, 4, backend="highs", branch=False, hint=None,
                      mip_lp_solver="ipm")
    simplex = solve_exact(covers, 0.3, 4, backend="highs", branch=False, hint=None)
    assert ipm.solution.options["mip_lp_solver"] == "ipm"
    assert ipm.status is Status.OPTIMAL and simplex.status is Status.OPTIMAL
    assert ipm.coverage == simplex.coverage


@pytest.mark.skipif("highs" not in available_backends(), reason="highspy is not installed")
def test_solve_exact_reports_coverage_between_incumbent_and_bound():
    """``progress`` gets HiGHS's search in coverage units: every incumbent covers at most
    the optimum, every bound is at least it."""
    rng = np.random.default_rng(0)
    covers = rng.random((40, 200)) < 0.08
    seen = []
    res = solve_exact(covers, 0.3, 5, backend="highs", hint=None, branch=False, lp=False,
                      progress=lambda *report: seen.append(report))
    assert res.status is Status.OPTIMAL
    covered = [c for c, _, _ in seen if c is not None]
    bounds = [b for _, b, _ in seen if b is not None]
    assert covered and bounds
    assert all(c <= res.coverage for c in covered) and all(b >= res.coverage for b in bounds)
    again = solve_exact(covers, 0.3, 5, backend="highs", hint=None, branch=False, lp=False)
    assert again.coverage == res.coverage
