"""The external ``wcnf`` backend against real solver processes and its output parser.

Real engines, each in its own process: python-sat's ``rc2.py`` console script
(``-vv`` makes it print a ``v`` line, ALGORITHMS.md §8) and hermax's compiled
engines through ``tests/fixtures/hermax_mse.py``.  Fault injection with fake
solvers lives in ``tests/reliability/test_external_faults.py``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings

from satrules import read_wcnf, solve
from satrules.backends.wcnf_external import ExternalWCNFBackend, parse_solver_output
from satrules.ir import Model, Status
from tests.strategies import tiny_models

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "satrules" / "data" / "example.wcnf"
HERMAX_MSE = ROOT / "tests" / "fixtures" / "hermax_mse.py"


def rc2_script() -> str | None:
    """Path of python-sat's ``rc2.py`` (next to the interpreter first, then on PATH)."""
    local = Path(sys.executable).parent / "rc2.py"
    if local.exists():
        return str(local)
    return shutil.which("rc2.py")


RC2 = rc2_script()
needs_rc2 = pytest.mark.skipif(RC2 is None, reason="python-sat's rc2.py script is not installed")
needs_hermax = pytest.mark.skipif(importlib.util.find_spec("hermax") is None,
                                  reason="hermax (pip install hermax) is not installed")


def rc2_cmd(*extra: str) -> list[str]:
    return [sys.executable, RC2, "-vv", *extra]


def hermax_cmd(*extra: str) -> list[str]:
    return [sys.executable, str(HERMAX_MSE), *extra]


def _agrees(model: Model, command: list[str]) -> None:
    want = solve(model, backend="bruteforce")
    backend = ExternalWCNFBackend(command)
    got = backend.solve(model, time_limit=60)
    assert got.status is not Status.ERROR, got.message
    assert got.status.is_feasible == want.status.is_feasible, got.message
    if want.status is Status.OPTIMAL:
        assert got.status is Status.OPTIMAL
        assert model.evaluate(got.values)
        assert got.cost == want.cost == model.cost(got.values)
        assert got.reported_cost == got.cost
    else:
        assert got.status is Status.UNSATISFIABLE and got.values is None
    assert not os.path.exists(backend.last_run["tmpdir"])


# ---------------------------------------------------------------------------- real engines
@needs_rc2
@pytest.mark.parametrize("extra", [[], ["--vnew"]])
@pytest.mark.parametrize("format", ["2022", "legacy"])
def test_rc2_script_solves_example(extra, format, monkeypatch):
    """rc2.py in a child process finds the example's optimum 1 (signed and 0/1 v lines);
    ``wall_time`` is the span of the whole call on the backend's clock (read through a
    recording clock, so the check does not depend on the machine's speed)."""
    import time
    import types

    from satrules.backends import wcnf_external

    readings = []

    def monotonic():
        readings.append(time.monotonic())
        return readings[-1]

    monkeypatch.setattr(wcnf_external, "time", types.SimpleNamespace(monotonic=monotonic))
    backend = ExternalWCNFBackend(rc2_cmd(*extra), format=format)
    sol = backend.solve(read_wcnf(EXAMPLE))
    assert sol.status is Status.OPTIMAL, sol.message
    assert (sol.cost, sol.reported_cost) == (1, 1)
    assert sol.backend == "wcnf" and sol.engine == "rc2.py"
    assert sol.options["returncode"] == 0 and sol.options["pid"] > 0
    assert sol.options["command"][-1].endswith("model.wcnf")
    assert sol.wall_time == readings[-1] - readings[0]   # first and last reading of solve
    assert not os.path.exists(backend.last_run["tmpdir"])


@needs_rc2
def test_rc2_without_vv_is_an_error_that_says_why():
    """rc2.py without -vv prints no v line: ERROR whose message points at -vv."""
    sol = ExternalWCNFBackend([sys.executable, RC2]).solve(read_wcnf(EXAMPLE))
    assert sol.status is Status.ERROR
    assert "no v line" in sol.message and "-vv" in sol.message


@needs_rc2
def test_registry_string_command_and_file_placeholder():
    """solve(backend='wcnf') takes a shlex-split string; '{file}' is substituted in place."""
    m = read_wcnf(EXAMPLE)
    sol = solve(m, backend="wcnf", command=f"{sys.executable} {RC2} -vv")
    assert (sol.status, sol.cost) == (Status.OPTIMAL, 1)
    sol = solve(m, backend="wcnf", command=[sys.executable, RC2, "-vv", "--", "{file}"])
    assert (sol.status, sol.cost) == (Status.OPTIMAL, 1)
    assert sol.options["command"][:4] == [sys.executable, RC2, "-vv", "--"]
    assert len(sol.options["command"]) == 5  # substituted, not appended


@needs_rc2
def test_rc2_unsat_and_cardinality_models():
    """UNSAT hard parts are UNSATISFIABLE; cardinality/graph kinds are lowered before writing."""
    m = Model()
    x = m.new_var("x")
    m.add_hard([x])
    m.add_hard([-x])
    assert ExternalWCNFBackend(rc2_cmd()).solve(m).status is Status.UNSATISFIABLE
    m = Model()
    xs = m.new_vars("x", 5)
    m.add_soft_units(xs, [3, 1, 4, 1, 5])
    m.add_cardinality(xs, "<=", 2)
    m.add_graph(xs, [[0, 4]])
    sol = ExternalWCNFBackend(rc2_cmd()).solve(m)
    assert sol.status is Status.OPTIMAL and sol.cost == 5
    assert len(sol.values) == m.n_vars + 1  # projected onto the input variables


@needs_rc2
@settings(max_examples=30, deadline=None)
@given(model=tiny_models(max_vars=5))
def test_rc2_script_agrees_with_brute_force(model):
    """On random tiny models (all IR kinds) rc2.py via WCNF matches brute force exactly."""
    _agrees(model, rc2_cmd())


@needs_hermax
def test_hermax_engines_solve_example():
    """Compiled hermax engines (EvalMaxSAT, OpenWBO) in their own process find the optimum."""
    for extra in ([], ["--engine", "OpenWBO", "--old-v"]):
        sol = ExternalWCNFBackend(hermax_cmd(*extra)).solve(read_wcnf(EXAMPLE))
        assert (sol.status, sol.cost, sol.reported_cost) == (Status.OPTIMAL, 1, 1), sol.message
        assert sol.engine == "hermax_mse.py"


@needs_hermax
@settings(max_examples=10, deadline=None)
@given(model=tiny_models(max_vars=5))
def test_hermax_engine_agrees_with_brute_force(model):
    """EvalMaxSAT (C++) in a child process matches brute force on random tiny models."""
    _agrees(model, hermax_cmd())


# ---------------------------------------------------------------------------- configuration
def test_missing_command_is_a_value_error_naming_the_option():
    """Without a command the backend refuses with a ValueError that names ``command``."""
    with pytest.raises(ValueError, match="command=") as info:
        solve(Model(), backend="wcnf")
    assert "--solver-cmd" in str(info.value)
    with pytest.raises(ValueError, match="empty"):
        ExternalWCNFBackend("   ").solve(Model())
    with pytest.raises(ValueError, match="format"):
        ExternalWCNFBackend(["x"], format="opb").solve(Model())


def test_generic_runner_is_always_available():
    """The backend is a generic runner: always available, never picked by ``auto``."""
    assert ExternalWCNFBackend.available()
    assert ExternalWCNFBackend.version() == "generic"


# ---------------------------------------------------------------------------- parser
def test_parser_bit_string_and_o_before_model():
    """A 0/1 v line gives the values; the o printed before it is the reported cost."""
    out = parse_solver_output("c x\no 7\no 4\ns SATISFIABLE\nv 0110\n", 4)
    assert out["status"] == "SATISFIABLE" and out["o"] == 4
    assert out["values"][1:].tolist() == [False, True, True, False]


def test_parser_multi_line_signed_model_and_new_solution_reset():
    """Signed v lines may span lines (trailing 0 ignored); an o line starts a new model."""
    text = "o 9\nv 1 2 3\no 5\nv -1 2\nv -3 0\n"
    out = parse_solver_output(text, 3)
    assert out["o"] == 5
    assert out["values"][1:].tolist() == [False, True, False]


def test_parser_missing_variables_are_false_and_short_bits_allowed_down_to_used():
    """Unmentioned variables are false; a bit string may stop at the last used variable."""
    assert parse_solver_output("v 2\n", 3)["values"][1:].tolist() == [False, True, False]
    out = parse_solver_output("v 01\n", 3, n_used=2)
    assert out["error"] is None and out["values"][1:].tolist() == [False, True, False]


@pytest.mark.parametrize("text, fragment", [
    ("v 0101\n", "has 4 values, expected 3"),
    ("v 01\n", "has 2 values, expected 3"),
    ("v 1 -4\n", "literal -4 is out of range"),
    ("v 1 2 -1\n", "both true and false"),
    ("v 1 x 3\n", "unparseable v line"),
])
def test_parser_rejects_bad_models(text, fragment):
    """Wrong-length bit strings, out-of-range, contradictory or garbled literals are errors."""
    out = parse_solver_output(text, 3)
    assert out["values"] is None
    assert fragment in out["error"]


def test_parser_caps_line_length():
    """A line beyond ``max_line_bytes`` is dropped, and a dropped v line is an error."""
    from satrules.backends.wcnf_external import _OutputParser

    parser = _OutputParser(max_line_bytes=100)
    parser.feed(b"c " + b"x" * 500 + b"\ns OPTIMUM FOUND\nv ")
    parser.feed(b"1" * 300)
    parser.feed(b"1" * 300 + b"\nc after\n")
    parser.finish(True)
    assert parser.status == "OPTIMUM FOUND"
    assert len(parser._buf) == 0
    values, error = parser.values(600, 600)
    assert values is None and "max_line_bytes" in error
    assert len(parser.notes) == 2
