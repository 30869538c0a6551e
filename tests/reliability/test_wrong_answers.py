"""Issue 4 row 8: a wrong answer from an engine is caught by the IR check and raised.

A deliberately corrupted backend (test double registered under its own name)
and real engines with a corrupted result (monkeypatched) must all end in a
``BackendError`` from ``make_solution`` -- never in a returned ``Solution``.
"""

from __future__ import annotations

import numpy as np
import pytest

from satrules import solve
from satrules.backends import registry
from satrules.backends.base import BackendBase
from satrules.exceptions import BackendError
from satrules.ir import Model, Status, make_solution


def _model() -> Model:
    """At least one and at most one of x, y, z; costs 2, 1, 3 when true: optimum 1 (y).

    Negating any answer makes two variables true, which is infeasible.
    """
    m = Model()
    x, y, z = m.new_var("x"), m.new_var("y"), m.new_var("z")
    m.add_hard([x, y, z])
    m.add_cardinality([x, y, z], "<=", 1)
    m.add_soft([-x], 2)
    m.add_soft([-y], 1)
    m.add_soft([-z], 3)
    return m


class CorruptBackend(BackendBase):
    """A backend that lies in the way chosen by ``fault``."""

    name = "corrupt"
    native = frozenset({"clause", "soft", "cardinality", "graph"})
    install = "pip install nothing"

    def __init__(self, fault: str = "infeasible") -> None:
        super().__init__(fault=fault)

    def solve(self, model, *, time_limit=None, seed=None, hint=None):
        fault = self.options["fault"]
        both = np.ones(model.n_vars + 1, dtype=bool)  # violates the cardinality
        neither = np.zeros(model.n_vars + 1, dtype=bool)  # violates the hard clause
        only_y = {model.var("y"): True}
        answers = {
            "infeasible": dict(status=Status.OPTIMAL, values=both),
            "infeasible_feasible": dict(status=Status.FEASIBLE, values=neither),
            "wrong_cost": dict(status=Status.OPTIMAL, values=only_y, reported_cost=0),
            "bound_above_cost": dict(status=Status.OPTIMAL, values=only_y, lower_bound=5),
            "no_assignment": dict(status=Status.OPTIMAL, values=None),
        }
        return make_solution(model, backend=self.name, **answers[fault])


@pytest.fixture
def corrupt_registered(monkeypatch):
    monkeypatch.setitem(registry.BACKENDS, "corrupt",
                        "tests.reliability.test_wrong_answers:CorruptBackend")


@pytest.mark.parametrize("fault, match", [
    ("infeasible", "violates the model: cardinality #0"),
    ("infeasible_feasible", "violates the model: hard clause #0"),
    ("wrong_cost", "reported cost 0 but the assignment costs 1"),
    ("bound_above_cost", "lower bound 5 exceeds the cost 1"),
    ("no_assignment", "without an assignment"),
])
def test_corrupted_backend_is_caught(corrupt_registered, fault, match):
    """Each kind of lie (infeasible values, wrong cost, impossible bound, missing values)
    raises BackendError through the public ``solve``; nothing is returned."""
    with pytest.raises(BackendError, match=match):
        solve(_model(), backend="corrupt", fault=fault)


def test_honest_double_passes(corrupt_registered, monkeypatch):
    """Control: the same double answering correctly is accepted (the check is not blanket)."""
    monkeypatch.setattr(CorruptBackend, "solve", lambda self, model, **kw: make_solution(
        model, Status.OPTIMAL, {model.var("y"): True}, reported_cost=1, backend="corrupt"))
    sol = solve(_model(), backend="corrupt")
    assert sol.status is Status.OPTIMAL and sol.cost == 1


@pytest.mark.parametrize("stratified", [False, True])
def test_rc2_with_a_corrupted_model_is_caught(monkeypatch, stratified):
    """RC2 returning a flipped model (an infeasible one) raises instead of returning."""
    from pysat.examples import rc2 as rc2_module

    cls = rc2_module.RC2Stratified if stratified else rc2_module.RC2
    original = cls.compute

    def flipped(self, expect_interrupt=False):
        found = original(self, expect_interrupt=expect_interrupt)
        return [-lit for lit in found]

    monkeypatch.setattr(cls, "compute", flipped)
    with pytest.raises(BackendError, match="violates the model"):
        solve(_model(), backend="rc2", stratified=stratified)


@pytest.mark.parametrize("stratified", [False, True])
def test_rc2_with_a_wrong_cost_is_caught(monkeypatch, stratified):
    """RC2 reporting a cost that differs from its model's raises."""
    from pysat.examples import rc2 as rc2_module

    cls = rc2_module.RC2Stratified if stratified else rc2_module.RC2
    original = cls.compute

    def lying(self, expect_interrupt=False):
        found = original(self, expect_interrupt=expect_interrupt)
        self.cost += 1
        return found

    monkeypatch.setattr(cls, "compute", lying)
    with pytest.raises(BackendError, match="reported cost"):
        solve(_model(), backend="rc2", stratified=stratified)


def test_cpsat_with_corrupted_values_is_caught(monkeypatch):
    """CP-SAT values negated after the solve (an infeasible assignment) raise."""
    from ortools.sat.python import cp_model

    original = cp_model.CpSolver.boolean_value
    monkeypatch.setattr(cp_model.CpSolver, "boolean_value",
                        lambda self, lit: not original(self, lit))
    with pytest.raises(BackendError, match="violates the model"):
        solve(_model(), backend="cpsat")


def test_cpsat_with_a_wrong_objective_is_caught(monkeypatch):
    """A CP-SAT objective value that disagrees with the assignment's IR cost raises."""
    from ortools.sat.python import cp_model

    monkeypatch.setattr(cp_model.CpSolver, "objective_value", property(lambda self: 7.0))
    monkeypatch.setattr(cp_model.CpSolver, "best_objective_bound", property(lambda self: 7.0))
    with pytest.raises(BackendError, match="reported cost"):
        solve(_model(), backend="cpsat")
