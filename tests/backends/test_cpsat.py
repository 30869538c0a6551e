"""CP-SAT backend specifics: weight range, gcd rescaling, bounds, hints, determinism."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules import Status, solve
from satrules.backends.cpsat import MAX_OBJECTIVE, CPSATBackend, objective_scale
from satrules.exceptions import BackendError, EncodingError
from satrules.ir import Model
from tests.backends.conftest import hard_model
from tests.strategies import tiny_models

pytest.importorskip("ortools")


def _pick_one(weights) -> Model:
    m = Model()
    xs = m.new_vars("x", len(weights))
    m.add_soft_units(xs, np.array(weights, dtype=object))
    m.add_cardinality(xs, "==", 1)
    return m


@settings(max_examples=30, deadline=None)
@given(base=st.integers(1, 2**40).map(lambda b: b * 2**40),
       factors=st.lists(st.integers(1, 1000), min_size=2, max_size=5))
def test_gcd_rescaling_is_exact(base, factors):
    """Weights beyond CP-SAT's range with a large common divisor are solved exactly:
    exactly one x_i may be true, so the cost is the sum minus the largest weight."""
    weights = [base * f for f in factors]
    model = _pick_one(weights)
    sol = solve(model, backend="cpsat")
    assert sol.status is Status.OPTIMAL
    assert sol.cost == sum(weights) - max(weights)
    if sum(weights) > MAX_OBJECTIVE:
        assert "gcd" in sol.message


def test_weights_out_of_range_raise_clearly():
    """Coprime weights summing past 2**61 raise a BackendError naming the range, not an answer."""
    model = _pick_one([2**62 + 1, 2**62 + 2, 3])
    with pytest.raises(BackendError, match="64-bit objective range"):
        solve(model, backend="cpsat")


def test_objective_scale():
    """The divisor is 1 in range, the gcd when it suffices, and an error otherwise."""
    assert objective_scale([MAX_OBJECTIVE]) == 1
    assert objective_scale([6 * 2**62, 4 * 2**62]) == 2**63
    with pytest.raises(BackendError):
        objective_scale([2**62, 2**62 + 1])


@settings(max_examples=25, deadline=None)
@given(model=tiny_models(max_vars=5))
def test_graph_encodings_agree(model):
    """Clique-cover at-most-ones and pairwise clauses give the same optimum."""
    clique = solve(model, backend="cpsat", graph_encoding="clique")
    pairwise = solve(model, backend="cpsat", graph_encoding="pairwise")
    assert clique.status is pairwise.status
    assert clique.cost == pairwise.cost


def _two_of_four() -> Model:
    m = Model()
    xs = m.new_vars("x", 4)
    m.add_cardinality(xs, "<=", 2)
    m.add_soft_units(xs, [5, 1, 3, 2])
    return m


def test_lower_bound_and_options_are_reported():
    """OPTIMAL answers carry bound == cost; the solver parameters are recorded."""
    sol = solve(_two_of_four(), backend="cpsat", seed=7)
    assert (sol.status, sol.cost, sol.lower_bound, sol.reported_cost) == (
        Status.OPTIMAL, 3, 3, 3)
    assert sol.options["num_workers"] == 1
    assert sol.options["random_seed"] == 7
    assert sol.options["absolute_gap_limit"] == 0.5
    assert sol.engine == "CP-SAT" and sol.engine_version


def test_cpsat_is_told_to_stop_before_the_limit():
    """CP-SAT's own limit ends before the caller's: its stop takes time (issue 13)."""
    m = _two_of_four()
    sol = solve(m, backend="cpsat", time_limit=60.0)
    assert sol.status is Status.OPTIMAL
    assert 0 < sol.options["max_time_in_seconds"] <= 60.0 - 1.0
    short = solve(m, backend="cpsat", time_limit=2.0)
    assert 0 < short.options["max_time_in_seconds"] <= 2.0 - 0.2


def test_hint_by_key_is_accepted_and_optimum_kept():
    """A (bad) hint given by semantic keys does not change the optimum."""
    m = Model()
    xs = m.new_vars("x", 3)
    m.add_cardinality(xs, "==", 1)
    m.add_soft_units(xs, [1, 2, 3])
    sol = solve(m, backend="cpsat", hint={("x", 0): True, ("x", 1): False})
    assert sol.cost == 3 and sol[("x", 2)]


def test_fixed_seed_one_worker_is_deterministic():
    """Same model, seed and one worker give the same assignment (deterministic time limit)."""
    model = hard_model(120, seed=3)
    runs = [solve(model, backend="cpsat", seed=5, max_deterministic_time=0.3)
            for _ in range(2)]
    assert runs[0].status is runs[1].status
    assert np.array_equal(runs[0].values, runs[1].values)


def test_time_limit_feasible_with_bound():
    """Cut by a (deterministic, so load-independent) limit, CP-SAT returns FEASIBLE with
    its proven bound below the cost."""
    model = hard_model()
    sol = solve(model, backend="cpsat", max_deterministic_time=0.5)
    assert sol.status is Status.FEASIBLE
    assert sol.lower_bound is not None and sol.lower_bound < sol.cost


@pytest.mark.parametrize("bad", [{"workers": -1}, {"graph_encoding": "tree"},
                                 {"no_such_parameter": 1}])
def test_bad_options_are_rejected(bad):
    """Invalid options raise EncodingError."""
    m = Model()
    m.add_soft([m.new_var("x")], 1)
    with pytest.raises(EncodingError):
        CPSATBackend(**bad).solve(m)


def test_cardinality_with_repeated_and_complementary_literals():
    """x + x + not x <= 1 forces x false (it counts 2 when x is true); == 1 with x, not x holds."""
    m = Model()
    x = m.new_var("x")
    m.add_cardinality([x, x, -x], "<=", 1)
    m.add_soft([x], 1)
    assert solve(m, backend="cpsat").cost == 1
    m2 = Model()
    y = m2.new_var("y")
    m2.add_cardinality([y, -y], "==", 1)
    m2.add_soft([y], 1)
    assert solve(m2, backend="cpsat").cost == 0


def test_incumbent_objective_equals_ir_cost_with_non_unit_softs():
    """Regression: with non-unit soft clauses an incumbent cut by the time limit used to
    pay for relaxation literals of satisfied clauses, so CP-SAT's objective exceeded the IR
    cost and make_solution raised "engine reported cost ...".  Now r <-> not C is exact."""
    rng = np.random.default_rng(2)
    n = 150
    m = Model()
    m.new_vars("x", n)
    vars3 = np.argsort(rng.random((2 * n, n)), axis=1)[:, :3] + 1
    m.add_clauses(vars3 * rng.choice([-1, 1], size=(2 * n, 3)))
    pairs = np.argsort(rng.random((2 * n, n)), axis=1)[:, :2] + 1
    m.add_soft_clauses(pairs * rng.choice([-1, 1], size=(2 * n, 2)),
                       rng.integers(1, 101, size=2 * n))
    for limit in (0.05, 0.2, 1.0):  # deterministic seconds: same incumbents under any load
        sol = solve(m, backend="cpsat", max_deterministic_time=limit, seed=0)
        assert sol.status is Status.FEASIBLE
        assert sol.reported_cost == sol.cost == m.cost(sol.values)


def test_float_objective_is_not_trusted_beyond_2_53():
    """Regression: with weights near 2**60 CP-SAT's float objective lost the small terms
    (reported 0 for a cost of 1) and make_solution raised.  Beyond 2**53 no engine cost or
    bound is reported; the optimum is still exact."""
    m = Model()
    x = m.new_var("x")
    m.add_soft([x], 2**60)
    m.add_soft([-x], 1)
    m.add_soft([x], 2**59 + 3)
    sol = solve(m, backend="cpsat")
    assert sol.status is Status.OPTIMAL
    assert sol.cost == 1 and sol["x"]
    assert sol.reported_cost is None
    assert sol.lower_bound == 1  # make_solution: OPTIMAL without a bound means bound == cost
