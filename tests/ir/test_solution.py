"""Solution and make_solution: answers are checked against the original model."""

from __future__ import annotations

import numpy as np
import pytest

from satrules.exceptions import BackendError
from satrules.ir import Model, Status, make_solution


def _model():
    m = Model()
    x, y = m.new_var("x"), m.new_var("y")
    m.add_hard([x, y])
    m.add_soft([-x], 3)
    m.add_soft([-y], 1)
    return m, x, y


def test_cost_is_recomputed_and_lookups_work():
    """The IR computes the cost; values are read by id or key; lits() is a DIMACS model."""
    m, x, y = _model()
    sol = make_solution(m, Status.OPTIMAL, {y: True}, reported_cost=1, backend="t")
    assert sol.cost == 1 and sol.lower_bound == 1 and sol.reported_cost == 1
    assert sol["y"] and not sol[x] and sol.lits() == [-1, 2]
    assert sol.assignment == {1: False, 2: True}
    assert not sol.values.flags.writeable


def test_infeasible_assignment_is_an_error():
    """An assignment that violates a hard constraint raises, naming the violated clause."""
    m, x, y = _model()
    with pytest.raises(BackendError, match="violates"):
        make_solution(m, Status.FEASIBLE, {x: False, y: False})


def test_wrong_reported_cost_is_an_error():
    """An engine cost that differs from the IR's raises."""
    m, x, y = _model()
    with pytest.raises(BackendError, match="reported cost"):
        make_solution(m, Status.OPTIMAL, [x, -y], reported_cost=1)


def test_feasible_status_needs_an_assignment():
    """OPTIMAL/FEASIBLE without values raises; other statuses carry none."""
    m, _, _ = _model()
    with pytest.raises(BackendError):
        make_solution(m, Status.OPTIMAL, None)
    for status in (Status.UNSATISFIABLE, Status.UNKNOWN, Status.ERROR):
        sol = make_solution(m, status, message="why")
        assert sol.values is None and sol.cost is None and not sol.status.is_feasible
        with pytest.raises(BackendError):
            sol["x"]


def test_lower_bounds_are_checked():
    """A bound above the cost raises; OPTIMAL with a smaller bound is downgraded to FEASIBLE."""
    m, x, y = _model()
    with pytest.raises(BackendError, match="lower bound"):
        make_solution(m, Status.FEASIBLE, {y: True}, lower_bound=2)
    sol = make_solution(m, Status.OPTIMAL, {x: True}, lower_bound=1)
    assert sol.status is Status.FEASIBLE and "withdrawn" in sol.message
    assert sol.gap == pytest.approx(2 / 3)


def test_values_are_projected_onto_the_model():
    """Extra (auxiliary) variables in the engine's answer are dropped."""
    m, x, y = _model()
    values = np.array([False, False, True, True, True])  # two extra auxiliaries
    sol = make_solution(m, Status.OPTIMAL, values)
    assert len(sol.values) == m.n_vars + 1 and sol.cost == 1


def test_status_feasibility():
    """Only OPTIMAL and FEASIBLE are feasible."""
    assert [s for s in Status if s.is_feasible] == [Status.OPTIMAL, Status.FEASIBLE]
