"""Issue 4 row 4 for the in-process backends (rc2, cpsat, bruteforce): time limits hold.

The promise: the answer comes back within ``time_limit + 2 s`` (RC2: its
interrupt lands after the current core is processed, then a SAT call of at
most ``min(1, time_limit / 4)`` s looks for any hard-feasible assignment;
CP-SAT: model building and lowering are outside its own clock; bruteforce:
the clock is checked between chunks of 32768 assignments).  The answer is
FEASIBLE with a verified assignment, or UNKNOWN without one.  These tests check
what the limit must cause, never a wall time (see ``tests/timing.py``); the wall
times are measured by ``benchmarks/bench_time_limits.py --suite``.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from satrules import Status, solve
from satrules.exceptions import EncodingError
from satrules.ir import Model
from tests.backends.conftest import hard_model, unprovable_model
from tests.timing import VirtualClock, wait_until

IN_PROCESS = ["rc2", "cpsat", "bruteforce"]


def _bruteforce_hard() -> Model:
    """20 variables and 80 random 3-clauses: the full 2**20 sweep takes seconds."""
    rng = np.random.default_rng(5)
    m = Model()
    m.new_vars("x", 20)
    m.add_clauses(rng.integers(1, 21, size=(80, 3)) * rng.choice([-1, 1], size=(80, 3)))
    m.add_soft_units(np.arange(1, 21) * rng.choice([-1, 1], size=20), rng.integers(1, 9, 20))
    return m


@pytest.mark.parametrize("backend", ["rc2", "cpsat"])
@pytest.mark.parametrize("limit", [0.3, 1.5])
def test_limit_is_honoured(backend, limit):
    """On a model no engine proves in minutes (:func:`unprovable_model`) the call answers
    -- had it ignored the limit, it would not answer at all -- with FEASIBLE (verified,
    cost is the IR's, bound <= cost) or UNKNOWN.  No wall time is asserted; it is
    measured by ``benchmarks/bench_time_limits.py --suite``."""
    model = unprovable_model()
    sol = solve(model, backend=backend, time_limit=limit)
    assert sol.status in (Status.FEASIBLE, Status.UNKNOWN), sol.status
    if sol.status.is_feasible:
        assert model.evaluate(sol.values)
        assert sol.cost == model.cost(sol.values)
        assert sol.lower_bound is None or sol.lower_bound <= sol.cost
    else:
        assert sol.values is None


@pytest.mark.parametrize("limit", [0.3, 1.5])
def test_bruteforce_stops_when_its_clock_says(monkeypatch, limit):
    """Brute force checks its clock after every chunk of 32,768 assignments (32 chunks
    here).  On a virtual clock that moves 0.1 s per reading it stops after the chunk
    that crosses the limit: the answer is no proof, and a FEASIBLE one is verified."""
    from satrules.backends import bruteforce

    model = _bruteforce_hard()
    clock = VirtualClock(step=0.1)
    monkeypatch.setattr(bruteforce, "time", clock)
    sol = solve(model, backend="bruteforce", time_limit=limit)
    assert clock.reads <= round(limit / 0.1) + 3   # start, a check per chunk, the wall time
    assert sol.status in (Status.FEASIBLE, Status.UNKNOWN), sol.status
    if sol.status.is_feasible:
        assert model.evaluate(sol.values)
        assert sol.cost == model.cost(sol.values)


@pytest.mark.parametrize("backend", IN_PROCESS)
def test_limit_does_not_spoil_easy_models(backend):
    """A generous limit on an easy model still gives the proven optimum."""
    m = Model()
    xs = m.new_vars("x", 6)
    m.add_cardinality(xs, "==", 2)
    m.add_soft_units(xs, [1, 2, 3, 4, 5, 6])
    sol = solve(m, backend=backend, time_limit=30)
    assert sol.status is Status.OPTIMAL and sol.cost == 1 + 2 + 3 + 4


def test_rc2_interrupt_leaves_no_timer_and_next_solve_is_clean():
    """After an interrupted RC2 run no timer thread survives, and the next solve (fresh
    solver) finds the optimum normally."""
    before = {t.ident for t in threading.enumerate()}
    solve(hard_model(), backend="rc2", time_limit=0.3)

    def extra():
        return [t for t in threading.enumerate() if t.ident not in before and t.is_alive()]

    assert wait_until(lambda: not extra()), extra()
    m = Model()
    x = m.new_var("x")
    m.add_soft([x], 3)
    m.add_soft([-x], 1)
    sol = solve(m, backend="rc2", time_limit=5)
    assert sol.status is Status.OPTIMAL and sol.cost == 1


@pytest.mark.parametrize("backend", IN_PROCESS)
@pytest.mark.parametrize("limit", [0, -1, float("nan")])
def test_non_positive_limit_is_rejected(backend, limit):
    """A zero, negative or NaN time limit is a clear error, not an instant UNKNOWN."""
    with pytest.raises(EncodingError, match="time_limit"):
        solve(Model(), backend=backend, time_limit=limit)


def test_bruteforce_limit_holds_without_feasible_assignments(monkeypatch):
    """Regression: bruteforce skipped its clock check on chunks without a feasible
    assignment, so an unsatisfiable 20-variable model ignored the limit.  Now, on a
    virtual clock that moves 0.1 s per reading, it stops after the third chunk of 32
    with UNKNOWN (not UNSATISFIABLE: the sweep did not finish)."""
    from satrules.backends import bruteforce

    m = _bruteforce_hard()
    m.add_hard([1])
    m.add_hard([-1])
    clock = VirtualClock(step=0.1)
    monkeypatch.setattr(bruteforce, "time", clock)
    sol = solve(m, backend="bruteforce", time_limit=0.25)
    assert sol.status is Status.UNKNOWN and clock.reads <= 5
