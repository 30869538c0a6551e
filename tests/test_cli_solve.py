"""``satrules solve`` and ``satrules convert``, run in-process through ``main``."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from satrules import read_wcnf, write_wcnf
from satrules.cli import main
from satrules.ir import Model
from tests.backends.test_wcnf_external import RC2, needs_rc2

EXAMPLE = Path(__file__).resolve().parents[1] / "satrules" / "data" / "example.wcnf"


def _run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def _lines(out, tag):
    return [line[2:] for line in out if line.startswith(tag + " ")]


def _check_model_line(out, path, cost):
    """The v line is a 0/1 string over the file's variables whose IR cost is ``cost``."""
    model = read_wcnf(path)
    (bits,) = _lines(out, "v")
    assert len(bits) == model.n_vars and set(bits) <= {"0", "1"}
    values = [False] + [b == "1" for b in bits]
    assert model.evaluate(values) and model.cost(values) == cost


def _fake_solver(tmp_path, body: str, name: str = "fake_solver.py") -> str:
    path = tmp_path / name
    path.write_text(f"#!{sys.executable}\nimport sys, time\n{body}\n")
    path.chmod(0o755)
    return str(path)


def test_solve_example_prints_mse_output(capsys):
    """``satrules solve --example`` (the README Quickstart command) prints the optimum 1."""
    code, out, err = _run(["solve", "--example"], capsys)
    assert code == 0, err
    assert out[0].startswith("c ")
    assert _lines(out, "o") == ["1"] and _lines(out, "s") == ["OPTIMUM FOUND"]
    assert [line[:1] for line in out[-3:]] == ["o", "s", "v"]
    _check_model_line(out, EXAMPLE, 1)


@pytest.mark.parametrize("backend", ["bruteforce", "auto"])
def test_solve_file_with_backend(backend, capsys):
    """A named backend solves a file; the comment lines name the backend used."""
    code, out, _ = _run(["solve", str(EXAMPLE), "--backend", backend], capsys)
    assert code == 0
    assert any(line.startswith("c backend: ") for line in out)
    if backend != "auto":
        assert f"c backend: {backend} (exhaustive search)" in out
    _check_model_line(out, EXAMPLE, 1)


@needs_rc2
@pytest.mark.parametrize("format", ["2022", "legacy"])
def test_solver_cmd_implies_wcnf_backend(format, capsys):
    """--solver-cmd runs the external backend with that command, in either file dialect."""
    cmd = shlex.join([sys.executable, RC2, "-vv"])
    code, out, err = _run(["solve", str(EXAMPLE), "--solver-cmd", cmd, "--format", format,
                           "--timeout", "60"], capsys)
    assert code == 0, err
    assert "c backend: wcnf (rc2.py)" in out
    _check_model_line(out, EXAMPLE, 1)


def test_format_option_reaches_the_solver(tmp_path, capsys):
    """--format legacy hands the solver a file with a p line (the fake solver checks it)."""
    solver = _fake_solver(tmp_path, (
        "text = open(sys.argv[-1]).read()\n"
        "ok = any(l.startswith('p wcnf ') for l in text.splitlines())\n"
        "print('o 0\\ns OPTIMUM FOUND\\nv 1' if ok else 'garbage')"))
    m = Model()
    m.add_soft([m.new_var()], 1)
    path = tmp_path / "one.wcnf"
    write_wcnf(m, path)
    code, out, _ = _run(["solve", str(path), "--solver-cmd", solver, "--format", "legacy"],
                        capsys)
    assert code == 0 and _lines(out, "v") == ["1"]
    code, _, err = _run(["solve", str(path), "--solver-cmd", solver], capsys)
    assert code == 1 and "unrecognised solver output" in err


def test_unsat_file_has_no_model_line(tmp_path, capsys):
    """UNSATISFIABLE is an answer (exit 0) without o and v lines."""
    path = tmp_path / "unsat.wcnf"
    path.write_text("h 1 0\nh -1 0\n3 1 0\n")
    code, out, _ = _run(["solve", str(path), "--backend", "bruteforce"], capsys)
    assert code == 0
    assert _lines(out, "s") == ["UNSATISFIABLE"]
    assert not _lines(out, "v") and not _lines(out, "o")


def test_timeout_without_model_is_unknown(tmp_path, capsys):
    """A solver that prints nothing before --timeout gives 's UNKNOWN' and exit 0."""
    solver = _fake_solver(tmp_path, "time.sleep(30)")
    code, out, _ = _run(["solve", str(EXAMPLE), "--solver-cmd", solver, "--timeout", "0.5"],
                        capsys)
    assert code == 0
    assert _lines(out, "s") == ["UNKNOWN"]
    assert any("time limit" in line for line in out)


@pytest.mark.parametrize("argv, fragment", [
    (["solve"], "FILE or --example"),
    (["solve", str(EXAMPLE), "--example"], "FILE or --example"),
    (["solve", "/nonexistent/file.wcnf"], "No such file"),
    (["solve", str(EXAMPLE), "--backend", "wcnf"], "--solver-cmd"),
    (["solve", str(EXAMPLE), "--backend", "nosuch"], "unknown backend"),
    (["solve", str(EXAMPLE), "--solver-cmd", "x", "--backend", "cpsat"], "cannot be combined"),
    (["solve", str(EXAMPLE), "--timeout", "-1", "--backend", "bruteforce"], "time_limit"),
    (["solve", str(EXAMPLE), "--solver-cmd", "/nonexistent/solver"], "solver not found"),
])
def test_solve_errors_exit_non_zero_with_message(argv, fragment, capsys):
    """Bad arguments, files and solvers give exit 1 and a clear message on stderr."""
    code, _, err = _run(argv, capsys)
    assert code == 1
    assert err.startswith("satrules solve: error: ")
    assert fragment in err


def test_malformed_file_error_names_file_and_line(tmp_path, capsys):
    """A malformed WCNF file is reported with its name and line number."""
    path = tmp_path / "bad.wcnf"
    path.write_text("h 1 0\n2 1 2\n")
    code, out, err = _run(["solve", str(path), "--backend", "bruteforce"], capsys)
    assert code == 1 and not out
    assert f"{path}:2: missing the terminating 0" in err


@pytest.mark.parametrize("format", ["legacy", "2022"])
def test_convert_round_trip(format, tmp_path, capsys):
    """convert IN OUT writes the dialect asked for; converting back keeps every clause."""
    out_path = tmp_path / f"out_{format}.wcnf"
    code, _, err = _run(["convert", str(EXAMPLE), str(out_path), "--format", format], capsys)
    assert code == 0, err
    text = out_path.read_text()
    assert ("\np wcnf 12 20 " in text) == (format == "legacy")
    back = tmp_path / "back.wcnf"
    assert main(["convert", str(out_path), str(back)]) == 0
    a, b = read_wcnf(EXAMPLE), read_wcnf(back)
    assert a.hard_clauses() == b.hard_clauses() and a.soft_clauses() == b.soft_clauses()


def test_convert_to_stdout_and_failure_leaves_no_file(tmp_path, capsys):
    """'-' writes to stdout; a malformed input exits 1 and creates no output file."""
    code, out, _ = _run(["convert", str(EXAMPLE), "-", "--format", "legacy"], capsys)
    assert code == 0 and out[1] == "p wcnf 12 20 47"
    bad = tmp_path / "bad.wcnf"
    bad.write_text("h 1 0 5\n")
    target = tmp_path / "never.wcnf"
    code, _, err = _run(["convert", str(bad), str(target)], capsys)
    assert code == 1 and "bad.wcnf:1: content after the terminating 0" in err
    assert not target.exists()
