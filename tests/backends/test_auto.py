"""Tests of ``backend="auto"``: the documented per-model rule, its fallbacks and the CLI."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from satrules.backends import registry
from satrules.cli import main
from satrules.ir import Model, Status
from tests.strategies import tiny_models


def _clause_model(weight: int = 1) -> Model:
    m = Model()
    xs = m.new_vars("x", 3)
    m.add_hard(xs)
    m.add_soft_units(-xs, weight)
    return m


def _graph_model(weight: int = 1, edges: bool = True) -> Model:
    m = Model()
    xs = m.new_vars("x", 3)
    if edges:
        m.add_graph(xs, [[0, 1], [1, 2]])
    m.add_cardinality(xs, "<=", 2)
    m.add_soft_units(xs, weight)
    return m


@pytest.fixture
def only(monkeypatch):
    """Pretend that only the named backends are installed."""
    real = registry._load

    def use(*names):
        def fake_load(name):
            cls = real(name)
            if cls is None or name in names:
                return cls
            return type(f"Missing{cls.__name__}", (cls,), {"available": classmethod(
                lambda c: False)})
        monkeypatch.setattr(registry, "_load", fake_load)
    return use


@pytest.mark.parametrize(("installed", "clause_pick", "timed_pick", "graph_pick"), [
    (("rc2", "cpsat", "highs", "hermax", "staged", "bruteforce"), "rc2", "staged", "highs"),
    (("rc2", "cpsat", "staged", "bruteforce"), "rc2", "staged", "cpsat"),
    (("hermax", "cpsat", "staged", "bruteforce"), "hermax", "hermax", "cpsat"),
    (("hermax", "bruteforce"), "hermax", "hermax", "hermax"),
    (("rc2", "highs", "staged", "bruteforce"), "rc2", "rc2", "highs"),
    (("cpsat", "staged", "bruteforce"), "cpsat", "cpsat", "cpsat"),
    (("bruteforce",), "bruteforce", "bruteforce", "bruteforce"),
])
def test_rule_and_fallbacks(only, installed, clause_pick, timed_pick, graph_pick):
    """Graph models go to highs; clause models to rc2, or under a time limit to staged (RC2
    then CP-SAT) when both are installed; each falls back in the documented order."""
    only(*installed)
    assert registry.choose_backend(_clause_model()) == clause_pick
    assert registry.choose_backend(_clause_model(), time_limit=10) == timed_pick
    assert registry.choose_backend(_graph_model()) == graph_pick
    assert registry.choose_backend(_graph_model(), time_limit=10) == graph_pick
    # a selection model without conflict edges (CDPRL at a large beta) is still one
    no_edges = _graph_model(edges=False)
    assert registry.choose_backend(no_edges) == clause_pick
    for limit in (None, 10):
        assert registry.choose_backend(no_edges, limit, selection=True) == graph_pick


def test_solve_exact_without_conflict_edges_uses_the_selection_order(monkeypatch):
    """beta = 1 leaves no conflict edge; solve_exact still asks for the selection engines
    (RC2 searched for more than 20 CPU minutes on such a model, Ecdat/Benefits)."""
    import numpy as np

    import satrules.cdpr as cdpr

    seen = []
    real = cdpr.choose_backend

    def spy(model, time_limit=None, selection=None):
        seen.append((bool(model.graphs), selection))
        return real(model, time_limit, selection=selection)

    monkeypatch.setattr(cdpr, "choose_backend", spy)
    rng = np.random.default_rng(3)
    covers = rng.random((12, 30)) < 0.3
    res = cdpr.solve_exact(covers, 1.0, 3, branch=False, seed=0)
    assert res.status is Status.OPTIMAL
    assert seen == [(False, True)]


def test_auto_never_picks_configured_backends(only):
    """wcnf and portfolio need configuration or are meta-backends: auto never picks them."""
    only("wcnf", "portfolio", "staged", "bruteforce")
    assert registry.choose_backend(_clause_model()) == "bruteforce"
    assert registry.choose_backend(_clause_model(), time_limit=10) == "bruteforce"
    assert registry.choose_backend(_graph_model()) == "bruteforce"


def test_weights_beyond_an_engine_range_skip_it(only):
    """Soft weights above 2**53 skip highs; above 2**63 - 1 skip hermax."""
    only("cpsat", "highs", "hermax", "bruteforce")
    assert registry.choose_backend(_graph_model(2**53)) == "cpsat"
    assert registry.choose_backend(_graph_model(2**40)) == "highs"
    assert registry.choose_backend(_clause_model(2**62)) == "cpsat"
    assert registry.choose_backend(_clause_model(2**40)) == "hermax"


def test_no_model_uses_the_maxsat_order(only):
    """Without a model, auto answers for a clause model."""
    only("rc2", "hermax")
    assert registry.choose_backend() == "rc2"
    only("hermax", "highs")
    assert registry.choose_backend() == "hermax"


@settings(max_examples=25, deadline=None)
@given(model=tiny_models(max_vars=6))
def test_auto_agrees_with_brute_force(model):
    """Whatever auto picks on this machine gives the brute-force optimum."""
    want = registry.solve(model, backend="bruteforce")
    got = registry.solve(model, backend="auto", time_limit=20)
    assert got.backend == registry.choose_backend(model, time_limit=20)
    assert got.status.is_feasible == want.status.is_feasible
    if want.status.is_feasible:
        assert got.status is Status.OPTIMAL and got.cost == want.cost


def test_cli_prints_the_rule(capsys):
    """`satrules backends` shows the rule text and what auto picks here for both model kinds."""
    assert main(["backends"]) == 0
    out = capsys.readouterr().out
    assert "auto rule:" in out and "conflict graph" in out and "engines.md" in out
    assert f"clauses + soft: {registry.choose_backend(_clause_model())}" in out
    assert f"clauses + soft, time limit: {registry.choose_backend(_clause_model(), 60)}" in out
    assert f"with a conflict graph: {registry.choose_backend(_graph_model())}" in out
