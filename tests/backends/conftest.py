"""Shared backend-test configuration: which backends to test, with which options.

``BACKEND_OPTIONS`` holds the engine options each backend is tested with; the
external ``wcnf`` backend runs python-sat's own ``rc2.py`` script in a child
process.  ``BIG_WEIGHTS`` says which backends claim exact answers for weights
beyond 64 bits (the others must then either answer exactly or raise a clear
``BackendError``).  :func:`hard_model` gives an instance no backend solves in
a few seconds; :func:`unprovable_model` one no engine proves in minutes, for the
time-limit tests (which then need no wall clock: ``tests/timing.py``).
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from satrules import available_backends
from satrules.ir import Model


def _rc2_script() -> str | None:
    """Return the path of python-sat's ``rc2.py`` console script, if installed."""
    found = shutil.which("rc2.py")
    if found:
        return found
    local = Path(sys.executable).parent / "rc2.py"
    return str(local) if local.exists() else None


_RC2_SCRIPT = _rc2_script()

#: Engine options each backend is tested with.
BACKEND_OPTIONS: dict[str, dict] = {
    "rc2": {},
    "cpsat": {},
    "highs": {},
    "hermax": {},
    "bruteforce": {},
    "staged": {},
    "wcnf": {"command": [sys.executable, _RC2_SCRIPT or "rc2.py", "-vv"]},
}

#: Backends that claim exact answers for soft weights beyond 64 bits.  ``wcnf`` writes
#: them exactly, but the engine tested here (python-sat's rc2.py, whose C parser says
#: "invalid integer weight") does not read them, so it is held to "refuse, never wrong".
BIG_WEIGHTS = {"rc2", "bruteforce"}


def _wcnf_param():
    """The external backend, skipped with a reason when it cannot run here."""
    if importlib.util.find_spec("satrules.backends.wcnf_external") is None:
        reason = "satrules.backends.wcnf_external is not part of this build yet"
        return pytest.param("wcnf", marks=pytest.mark.skip(reason=reason))
    if _RC2_SCRIPT is None:
        reason = "python-sat's rc2.py console script is not installed"
        return pytest.param("wcnf", marks=pytest.mark.skip(reason=reason))
    return "wcnf"


def engine_backends() -> list:
    """Every available backend except the oracle, plus the external one (maybe skipped)."""
    names = available_backends(exclude={"bruteforce", "wcnf", "portfolio"})
    return [*names, _wcnf_param()]


def hard_model(n_vars: int = 250, seed: int = 1) -> Model:
    """Return a random weighted partial MaxSAT instance (hard 3-SAT at ratio 4, 2n soft units).

    Neither RC2 nor CP-SAT proves its optimum within 3 s on this machine
    (measured: RC2 bound 3794 vs. 12514, CP-SAT bound 5082 vs. 10519).
    """
    rng = np.random.default_rng(seed)
    m = Model()
    m.new_vars("x", n_vars)
    n_hard = 4 * n_vars
    vars3 = np.argsort(rng.random((n_hard, n_vars)), axis=1)[:, :3] + 1
    m.add_clauses(vars3 * rng.choice([-1, 1], size=(n_hard, 3)))
    n_soft = 2 * n_vars
    units = rng.integers(1, n_vars + 1, size=n_soft) * rng.choice([-1, 1], size=n_soft)
    m.add_soft_units(units, rng.integers(1, 101, size=n_soft))
    return m


def unprovable_model(n_vars: int = 150, seed: int = 1) -> Model:
    """Return random weighted Max-3-SAT over satisfiable hard 3-SAT: no engine proves it.

    Hard: random 3-clauses at ratio 3 (satisfiable, so engines find incumbents).  Soft:
    ``10 * n_vars`` random 3-clauses with weights 1-9, whose optimum no relaxation or
    core bound comes near.  Measured with a 60 s limit on 2 cores (``benchmarks/
    bench_time_limits.py --suite`` runs it at the tests' limits): CP-SAT cost 621,
    bound 0; RC2 cost 1100, bound 57.  (:func:`hard_model`, by contrast, CP-SAT proves
    in about 7 s.)  So a time-limited call on it answers FEASIBLE or UNKNOWN on any
    machine, and a call that ignored its limit would not answer.
    """
    rng = np.random.default_rng(seed)
    m = Model()
    m.new_vars("x", n_vars)
    n_hard, n_soft = 3 * n_vars, 10 * n_vars
    hard = np.argsort(rng.random((n_hard, n_vars)), axis=1)[:, :3] + 1
    m.add_clauses(hard * rng.choice([-1, 1], size=(n_hard, 3)))
    soft = np.argsort(rng.random((n_soft, n_vars)), axis=1)[:, :3] + 1
    m.add_soft_clauses(soft * rng.choice([-1, 1], size=(n_soft, 3)),
                       rng.integers(1, 10, size=n_soft))
    return m
