"""Round two of issue #12: numbers, sizes and time limits (rows 4, 8, 10, 11, 12, 13, 14).

Each test pins one row of ``docs/reliability.md`` ("Round two: numbers, sizes and
time limits") and failed before its fix.
"""

from __future__ import annotations

import pytest

from satrules import Status, solve
from satrules.backends.highs import HiGHSBackend, integer_bound
from tests.strategies import either_or_model

needs_highs = pytest.mark.skipif(not HiGHSBackend.available(), reason="highspy is not installed")


@pytest.mark.parametrize("bound, want", [
    (2.0**50, 2**50),
    (2.0**51 + 0.5, 2**51 + 1),
    (2.0**52 + 1, 2**52 + 1),           # odd: bound - 0.5 rounds to the even 2**52
    (2.0**53 - 1, 2**53 - 1),
    (12.000000001, 12),
    (11.9999999, 12),
    (11.5, 12),
])
def test_highs_integer_bound_is_exact_at_every_magnitude(bound, want):
    """Row 4: a double bound on an integer objective rounds to the right integer up to 2**53."""
    assert integer_bound(bound) == want


@needs_highs
@pytest.mark.parametrize("weight, other", [
    (2**50, 2**50 + 1), (2**51 + 1, 2**51 + 2), (2**52 - 3, 2**52 - 2), (2**53 - 9, 9),
])
def test_highs_proves_big_weight_optimum(weight, other):
    """Row 4: HiGHS claimed OPTIMAL with bound 2**50 - 1 below cost 2**50 (withdrawn to FEASIBLE).

    The hypothesis example of ``test_big_weights_exact_or_refused[highs]``, made deterministic.
    """
    model = either_or_model(weight, other)
    sol = solve(model, backend="highs", time_limit=30)
    assert sol.status is Status.OPTIMAL, sol.message
    assert sol.cost == min(weight, other) == sol.lower_bound
