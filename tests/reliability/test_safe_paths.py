"""Issue 4 row 6: no shell, safe paths.

File names and solver paths with spaces, quotes, ``;``, ``$()``, backticks and
non-ASCII characters work, and run nothing else.  The names carry shell
payloads that would create a file in ``HOME`` (``$(cd; touch pwned_home)`` and
the same in backticks; a file name cannot hold ``/``).  ``HOME`` points into
``tmp_path`` and so does the temporary directory: had any shell expanded a
payload, a ``pwned*`` file would appear under ``tmp_path``.  Each test proves
none does.
"""

from __future__ import annotations

import shlex
import sys
import tempfile
from pathlib import Path

import pytest

from satrules import read_wcnf, write_wcnf
from satrules.backends.wcnf_external import ExternalWCNFBackend
from satrules.cli import main
from satrules.ir import Status
from tests.backends.test_wcnf_external import EXAMPLE, RC2, needs_rc2

WEIRD = "dir with space 'sq' \"dq\" ; $(cd; touch pwned_home) `cd; touch pwned_tick` & | ü€ 日本"


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A weird directory, HOME and the temp dir inside tmp_path, and tmp_path as cwd."""
    home = tmp_path / "home"
    home.mkdir()
    temp = tmp_path / "tmp" / WEIRD
    temp.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.chdir(tmp_path)
    weird = tmp_path / WEIRD
    weird.mkdir()
    yield weird
    assert not [p for p in tmp_path.rglob("pwned*")], "a shell payload was executed"


def _wrapper(directory: Path, name: str) -> str:
    """A solver script at a weird path that runs python-sat's rc2.py on its last argument."""
    path = directory / name
    path.write_text(
        f"#!{sys.executable}\n"
        "import os, runpy, sys\n"
        "assert os.path.isfile(sys.argv[-1]), sys.argv\n"
        f"sys.argv = [{RC2!r}, '-vv', sys.argv[-1]]\n"
        f"runpy.run_path({RC2!r}, run_name='__main__')\n", encoding="utf-8")
    path.chmod(0o755)
    return str(path)


@needs_rc2
def test_solver_and_temp_paths_with_shell_syntax(sandbox):
    """A solver at a weird path, fed a WCNF in a weird temp dir, solves and runs nothing else."""
    solver = _wrapper(sandbox, "solver $(cd; touch pwned_home) ;`cd; touch pwned_tick`é.py")
    backend = ExternalWCNFBackend([solver])
    sol = backend.solve(read_wcnf(EXAMPLE))
    assert (sol.status, sol.cost) == (Status.OPTIMAL, 1), sol.message
    assert WEIRD in sol.options["command"][-1]  # the WCNF itself sat in the weird temp dir
    # the same command given as one string is split, never run by a shell
    sol = ExternalWCNFBackend(shlex.join([solver])).solve(read_wcnf(EXAMPLE))
    assert (sol.status, sol.cost) == (Status.OPTIMAL, 1), sol.message


def test_shell_metacharacters_in_a_command_string_stay_literal(sandbox):
    """'echo hi; touch pwned' and '$(...)' are arguments to echo, not shell commands."""
    for command in ("echo hi; cd; touch pwned_semicolon", "echo $(cd; touch pwned_home)",
                    "echo `cd; touch pwned_tick` && cd && touch pwned_and | touch pwned_pipe"):
        sol = ExternalWCNFBackend(command).solve(read_wcnf(EXAMPLE))
        assert sol.status is Status.ERROR
        assert "unrecognised solver output" in sol.message
        assert "touch" in sol.message  # echo printed the payload as text


@needs_rc2
def test_cli_with_weird_model_and_solver_paths(sandbox, capsys):
    """``satrules solve`` on a weird model path with a weird --solver-cmd path works."""
    model_path = sandbox / "model ; $(cd; touch pwned_home) 'q' ü.wcnf"
    model_path.write_bytes(EXAMPLE.read_bytes())
    solver = _wrapper(sandbox, "my solver `cd; touch pwned_tick`.py")
    code = main(["solve", str(model_path), "--solver-cmd", shlex.join([solver]),
                 "--format", "legacy"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert "o 1" in out and "s OPTIMUM FOUND" in out


def test_read_write_convert_weird_file_names(sandbox):
    """WCNF files with shell syntax and non-ASCII in their names round-trip."""
    src = sandbox / "in $(cd; touch pwned_home) ;.wcnf"
    dst = sandbox / "out `cd; touch pwned_tick` \"x\" 日本.wcnf"
    write_wcnf(read_wcnf(EXAMPLE), src)
    assert main(["convert", str(src), str(dst), "--format", "legacy"]) == 0
    back = read_wcnf(dst)
    assert back.soft_clauses() == read_wcnf(EXAMPLE).soft_clauses()
    bad = sandbox / "bad ; $(cd; touch pwned_home).wcnf"
    bad.write_text("h 1 x 0\n")
    with pytest.raises(ValueError) as info:
        read_wcnf(bad)
    assert str(info.value).startswith(f"{bad}:1: ")
