"""The backend contract: every registered backend, same promises (STYLE.md §7).

Runs for every name in the registry; a backend whose module is not part of
this build, or whose engine is not installed, is skipped with that reason.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from satrules import Status, solve
from satrules.backends import registry
from satrules.backends.registry import BACKENDS, get_backend
from satrules.exceptions import BackendUnavailableError, EncodingError
from satrules.ir import Model
from tests.backends.conftest import BACKEND_OPTIONS, unprovable_model
from tests.timing import VirtualClock


def _registered():
    params = []
    for name, target in BACKENDS.items():
        module = target.partition(":")[0]
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            params.append(pytest.param(name, marks=pytest.mark.skip(
                reason=f"{module} is not part of this build")))
            continue
        cls = getattr(mod, target.partition(":")[2])
        if not cls.available():
            params.append(pytest.param(name, marks=pytest.mark.skip(
                reason=f"engine of {name!r} not installed: {cls.install}")))
        elif name == "wcnf" and "rc2.py" in BACKEND_OPTIONS["wcnf"]["command"][1:2]:
            params.append(pytest.param(name, marks=pytest.mark.skip(
                reason="python-sat's rc2.py script is not installed")))
        else:
            params.append(name)
    return params


REGISTERED = _registered()


def _solve(model, backend, **kwargs):
    return solve(model, backend=backend, **kwargs, **BACKEND_OPTIONS.get(backend, {}))


@pytest.mark.parametrize("backend", REGISTERED)
def test_empty_model_is_optimal_at_zero(backend):
    """A model without variables or constraints is OPTIMAL with cost 0."""
    sol = _solve(Model(), backend)
    assert sol.status is Status.OPTIMAL
    assert sol.cost == 0
    assert sol.backend == backend


@pytest.mark.parametrize("backend", REGISTERED)
def test_unused_variables_and_soft_only(backend):
    """Variables in no constraint are still part of the answer; soft-only optimum is found."""
    m = Model()
    x, _, z = m.new_var("x"), m.new_var("unused"), m.new_var("z")
    m.add_soft([x], 4)
    m.add_soft([-x, -z], 1)
    m.add_soft([z], 2)
    sol = _solve(m, backend)
    assert sol.status is Status.OPTIMAL
    assert sol.cost == 1
    assert len(sol.values) == m.n_vars + 1


@pytest.mark.parametrize("backend", REGISTERED)
def test_unsat_hard_clauses(backend):
    """Contradictory hard clauses give UNSATISFIABLE with no assignment."""
    m = Model()
    x, y = m.new_var("x"), m.new_var("y")
    m.add_clauses([[x, y], [-x, y], [x, -y], [-x, -y]])
    m.add_soft([x], 1)
    sol = _solve(m, backend)
    assert sol.status is Status.UNSATISFIABLE
    assert sol.values is None and sol.cost is None


@pytest.mark.parametrize("backend", REGISTERED)
def test_unsat_cardinality(backend):
    """An unsatisfiable cardinality (>= 3 of 2 literals) gives UNSATISFIABLE."""
    m = Model()
    xs = m.new_vars("x", 2)
    m.add_cardinality(xs, ">=", 3)
    assert _solve(m, backend).status is Status.UNSATISFIABLE


@pytest.mark.parametrize("backend", REGISTERED)
def test_time_limit_is_honoured(backend, monkeypatch):
    """On a model no machine proves within the limit, the call answers FEASIBLE or UNKNOWN.

    :func:`unprovable_model` is far from proven after minutes by every engine; brute force
    (20 variables, 32 chunks of assignments) runs on a virtual clock that moves 0.1 s
    per reading, so it stops after the third chunk.  Had a backend ignored its limit,
    it would not answer at all (or answer OPTIMAL, for brute force).  A FEASIBLE
    answer carries a verified assignment whose cost is the IR's.  No wall time is
    asserted: ``benchmarks/bench_time_limits.py --suite`` measures them.
    """
    if backend == "bruteforce":
        from satrules.backends import bruteforce

        rng = np.random.default_rng(0)
        model = Model()
        model.new_vars("x", 20)
        model.add_clauses(rng.integers(1, 21, size=(60, 3)) * rng.choice([-1, 1], size=(60, 3)))
        model.add_soft_units(np.arange(1, 21), 1)
        monkeypatch.setattr(bruteforce, "time", VirtualClock(step=0.1))
    else:
        model = unprovable_model()
    sol = _solve(model, backend, time_limit=0.25 if backend == "bruteforce" else 1.0)
    assert sol.status in (Status.FEASIBLE, Status.UNKNOWN), sol.status
    if sol.status.is_feasible:
        assert model.evaluate(sol.assignment)
        assert sol.cost == model.cost(sol.values)
        assert sol.lower_bound is None or sol.lower_bound <= sol.cost
    else:
        assert sol.values is None


@pytest.mark.parametrize("backend", [b for b in BACKENDS if b != "bruteforce"])
def test_missing_engine_names_install_line(backend, monkeypatch):
    """When the engine is missing, solving raises BackendUnavailableError with the install line."""
    cls = registry._load(backend)
    if cls is None:
        pytest.skip(f"{backend} is not part of this build")
    monkeypatch.setattr(cls, "available", classmethod(lambda c: False))
    m = Model()
    m.add_soft([m.new_var("x")], 1)
    with pytest.raises(BackendUnavailableError) as info:
        solve(m, backend=backend, **BACKEND_OPTIONS.get(backend, {}))
    assert cls.install in str(info.value)
    if getattr(cls, "module", None):  # a backend with an engine package of its own
        assert "pip install" in cls.install
    assert isinstance(info.value, ImportError)
    assert backend not in registry.available_backends()


def test_unknown_backend_lists_available_ones():
    """An unknown name is an error that lists every available backend."""
    with pytest.raises(EncodingError) as info:
        solve(Model(), backend="no-such-solver")
    message = str(info.value)
    assert "no-such-solver" in message
    for name in registry.available_backends():
        assert name in message
    with pytest.raises(ValueError):
        get_backend("RC2")  # one canonical name per backend, no aliases
