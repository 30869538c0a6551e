"""Every engine backend agrees with the brute-force oracle on tiny random models."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings

from satrules import Status, solve
from satrules.exceptions import BackendError
from tests.backends.conftest import BACKEND_OPTIONS, BIG_WEIGHTS, engine_backends
from tests.strategies import (
    either_or_model,
    float_bound_model,
    offset_noise_model,
    tiny_models,
)

BACKENDS = engine_backends()


def _check_agreement(backend: str, model) -> None:
    # under a limit, to exercise the time-limited paths; 600 s, far beyond what a tiny model
    # needs even when a loaded machine is slow to start the external solver's process
    want = solve(model, backend="bruteforce")
    got = solve(model, backend=backend, time_limit=600, **BACKEND_OPTIONS[backend])
    assert got.status.is_feasible == want.status.is_feasible, got.message
    if not want.status.is_feasible:
        assert got.status is Status.UNSATISFIABLE
        return
    assert got.status is Status.OPTIMAL, got.message
    assert model.evaluate(got.assignment)
    assert got.cost == want.cost
    assert got.cost == model.cost(got.assignment)
    assert got.reported_cost in (None, got.cost)
    assert got.lower_bound in (None, got.cost)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=60, deadline=None)
@given(model=tiny_models(max_vars=6))
def test_backend_agrees_with_brute_force(backend, model):
    """Status, optimal cost and a feasible assignment match exhaustive search.

    The models mix hard and soft clauses (incl. empty, repeated and
    tautological ones), cardinalities with repeated and complementary
    literals under every operator, and conflict graphs.
    """
    _check_agreement(backend, model)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=30, deadline=None)
@given(model=tiny_models(max_vars=5, cardinality=False, graph=False, big_weights=True))
# found by hypothesis: HiGHS rounded its exact bound 2**50 down to 2**50 - 1 (issue #12 row 4)
@example(model=either_or_model(2**50, 2**50 + 1))
@example(model=either_or_model(2**53 - 3, 1))
# CP-SAT's float bound 87639201967.00002 was rounded up to a bound above the optimum
@example(model=float_bound_model())
@example(model=offset_noise_model())   # ... and 86.0000038 to 87 for weights summing to 5e10
def test_big_weights_exact_or_refused(backend, model):
    """Weights up to 2**70: backends claiming big weights agree exactly; others may only refuse.

    Pins "never a wrong answer": a backend (or external engine) without 64-bit
    headroom must raise a ``BackendError`` naming the weight range, or return
    ERROR with a message -- never round a weight or return a wrong optimum.
    """
    try:
        got = solve(model, backend=backend, time_limit=600, **BACKEND_OPTIONS[backend])
    except BackendError as exc:
        assert backend not in BIG_WEIGHTS, exc
        assert "64-bit" in str(exc) or "range" in str(exc)
        return
    if got.status is Status.ERROR:
        assert backend not in BIG_WEIGHTS, got.message
        assert got.message
        return
    _check_agreement(backend, model)
