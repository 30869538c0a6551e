"""Round two of issue #12: numbers, sizes and time limits (rows 4, 8, 10, 11, 12, 13, 14).

Each test pins one row of ``docs/reliability.md`` ("Round two: numbers, sizes and
time limits") and failed before its fix.
"""

from __future__ import annotations

import pytest

from satrules import Status, solve
from satrules.backends.highs import HiGHSBackend, integer_bound
from satrules.ir import Model
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


def test_bruteforce_sums_weights_beyond_int64_exactly():
    """Row 11: three soft weights of 2**62 overflowed int64 in bruteforce's costs and message."""
    model = Model()
    xs = [int(v) for v in model.new_vars("x", 3)]
    model.add_hard(xs)                               # at least one x is true
    model.add_soft_units([-v for v in xs], 2**62)    # each true x costs 2**62
    model.add_soft([xs[0]], 2**62 + 1)               # x0 false costs one more
    sol = solve(model, backend="bruteforce")
    assert sol.status is Status.OPTIMAL
    assert sol.cost == sol.reported_cost == 2**62 and sol["x", 0]
    model.add_hard([xs[1]])
    model.add_hard([xs[2]])                          # x1 and x2 are forced: 2 * 2**62 at least
    sol = solve(model, backend="bruteforce")         # the worst cost 4 * 2**62 + 1 wrapped
    assert sol.cost == sol.reported_cost == 3 * 2**62 and sol["x", 0]
