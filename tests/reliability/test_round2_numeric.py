"""Round two of issue #12: numbers, sizes and time limits (rows 4, 8, 10, 11, 12, 13, 14).

Each test pins one row of ``docs/reliability.md`` ("Round two: numbers, sizes and
time limits") and failed before its fix.
"""

from __future__ import annotations

import math
import threading

import pytest

from satrules import Status, available_backends, solve
from satrules.backends.highs import HiGHSBackend, integer_bound
from satrules.backends.registry import get_backend
from satrules.cli import main
from satrules.exceptions import EncodingError
from satrules.ir import Model
from tests.backends.conftest import BACKEND_OPTIONS
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


def _thread_errors(monkeypatch) -> list:
    """Collect exceptions raised in threads (a Timer's OverflowError never reached the caller)."""
    seen: list = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(args.exc_value))
    return seen


@pytest.mark.parametrize("backend", available_backends())
def test_infinite_time_limit_means_no_limit(backend, monkeypatch):
    """Row 10: ``time_limit=inf`` is no limit, for every backend, via ``solve`` and the class.

    It was an ``OverflowError`` in rc2's timer thread (and in staged, portfolio, ...).
    """
    seen = _thread_errors(monkeypatch)
    options = BACKEND_OPTIONS.get(backend, {})
    model = either_or_model(3, 2)
    sol = solve(model, backend=backend, time_limit=math.inf, **options)
    assert sol.status is Status.OPTIMAL and sol.cost == 2
    if backend not in ("portfolio", "wcnf"):   # those two are checked through solve() only
        sol = get_backend(backend)(**options).solve(model, time_limit=float("inf"))
        assert sol.status is Status.OPTIMAL and sol.cost == 2
    assert not seen


@pytest.mark.parametrize("bad", [0, -1.0, math.nan, -math.inf, "5", True])
def test_meaningless_time_limits_are_refused(bad):
    """Row 10: zero, negative, NaN, strings and bools are an EncodingError naming the value."""
    with pytest.raises(EncodingError, match="time_limit must be positive"):
        solve(either_or_model(3, 2), backend="bruteforce", time_limit=bad)
    with pytest.raises(EncodingError, match="time_limit must be positive"):
        get_backend("bruteforce")().solve(either_or_model(3, 2), time_limit=bad)


def test_cli_timeout_inf_solves(tmp_path, capsys, monkeypatch):
    """Row 10: ``satrules solve model.wcnf --backend rc2 --timeout inf`` answers OPTIMUM FOUND."""
    seen = _thread_errors(monkeypatch)
    path = tmp_path / "m.wcnf"
    path.write_text("h 1 2 0\n3 -1 0\n2 -2 0\n")
    assert main(["solve", str(path), "--backend", "rc2", "--timeout", "inf"]) == 0
    out = capsys.readouterr().out
    assert "s OPTIMUM FOUND" in out and "o 2" in out
    assert not seen
