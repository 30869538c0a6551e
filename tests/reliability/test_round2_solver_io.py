"""Issue 12 (round two), solver I/O rows 2, 3, 15, 16, 17, 18.

Fake solvers are small Python scripts written to ``tmp_path``.  Process tests
poll for process death (``tests/timing.wait_until``) and never assert how
fast anything happened.  Signals go to a CLI run as a subprocess (no shell).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from satrules.backends.wcnf_external import ExternalWCNFBackend, parse_solver_output
from satrules.cli import main
from satrules.ir import Model, Status
from satrules.ir.wcnf import write_wcnf
from tests.strategies import three_vars
from tests.timing import PATIENCE, alive, wait_until

ROOT = Path(__file__).resolve().parents[2]


def fake(tmp_path: Path, body: str, name: str = "solver.py") -> str:
    path = tmp_path / name
    path.write_text(f"#!{sys.executable}\nimport os, signal, subprocess, sys, time\n{body}\n")
    path.chmod(0o755)
    return str(path)


def printing(tmp_path: Path, text: str, code: int = 0, name: str = "solver.py") -> str:
    """A fake solver printing ``text`` and exiting with ``code``."""
    return fake(tmp_path, f"sys.stdout.write({text!r}); sys.stdout.flush(); sys.exit({code})",
                name)


def solve_with(command, model=None, **kwargs):
    backend = ExternalWCNFBackend(command, **kwargs)
    sol = backend.solve(model or three_vars())
    assert not os.path.exists(backend.last_run["tmpdir"])
    return sol


# ----------------------------------------------------------------------------- row 2


def test_unsat_claim_after_valid_model_is_an_error(tmp_path):
    """Row 2: `o 2`, `v 101`, `s UNSATISFIABLE` contradict each other: ERROR naming the
    contradiction, never UNSATISFIABLE."""
    sol = solve_with([printing(tmp_path, "o 2\nv 101\ns UNSATISFIABLE\n")])
    assert sol.status is Status.ERROR
    assert "contradict" in sol.message and "UNSATISFIABLE" in sol.message


def test_unsat_claim_with_invalid_model_is_an_error(tmp_path):
    """Row 2: an UNSAT claim next to a model that violates the hard clauses is still
    contradictory output (the solver printed a model it says cannot exist): ERROR."""
    sol = solve_with([printing(tmp_path, "o 1\nv 001\ns UNSATISFIABLE\n")])
    assert sol.status is Status.ERROR and "contradict" in sol.message


def test_cli_solve_reports_the_contradiction(tmp_path, capsys):
    """Row 2 through `satrules solve --solver-cmd`: exit 1 and `s UNKNOWN`, not UNSAT/0."""
    wcnf = tmp_path / "m.wcnf"
    write_wcnf(three_vars(), wcnf)
    solver = printing(tmp_path, "o 3\nv 100\ns UNSATISFIABLE\n")
    code = main(["solve", str(wcnf), "--solver-cmd", solver])
    out, err = capsys.readouterr()
    s_lines = [line for line in out.splitlines() if line.startswith("s ")]
    assert code == 1 and s_lines == ["s UNKNOWN"]
    assert "contradict" in err


def test_non_zero_exit_downgrades_optimum(tmp_path):
    """Row 2: exit code 1 after a full OPTIMUM answer is FEASIBLE at best, code in message."""
    sol = solve_with([printing(tmp_path, "o 2\ns OPTIMUM FOUND\nv 101\n", code=1)])
    assert sol.status is Status.FEASIBLE and sol.cost == 2
    assert "exited with code 1" in sol.message and "not trusted" in sol.message


def test_conventional_exit_codes_keep_their_status(tmp_path):
    """Row 2: the MSE-family codes that agree with the s line (30 optimum, 10 satisfiable,
    20 unsatisfiable; Open-WBO, Sat4j) are not a failure."""
    sol = solve_with([printing(tmp_path, "o 2\ns OPTIMUM FOUND\nv 101\n", code=30)])
    assert sol.status is Status.OPTIMAL
    m = Model()
    x = m.new_var("x")
    m.add_hard([x])
    m.add_hard([-x])
    sol = solve_with([printing(tmp_path, "s UNSATISFIABLE\n", code=20)], model=m)
    assert sol.status is Status.UNSATISFIABLE


def test_unsat_with_failure_exit_is_not_trusted(tmp_path):
    """Row 2: `s UNSATISFIABLE` followed by a crash exit code is UNKNOWN with the code."""
    sol = solve_with([printing(tmp_path, "s UNSATISFIABLE\n", code=3)])
    assert sol.status is Status.UNKNOWN
    assert "exited with code 3" in sol.message


# ----------------------------------------------------------------------------- row 3


def test_multi_line_signed_v_starting_with_a_bare_one():
    """Row 3: `v 1` / `v -2` / `v -3 0` is one signed model (x1 true), not a bit string."""
    out = parse_solver_output("o 2\ns OPTIMUM FOUND\nv 1\nv -2\nv -3 0\n", 3)
    assert out["error"] is None
    assert out["values"][1:].tolist() == [True, False, False]


def test_multi_line_signed_v_through_the_backend(tmp_path):
    """Row 3 end to end: `v 1` / `v -2` / `v 3 0` is OPTIMAL with cost 2."""
    sol = solve_with([printing(tmp_path, "o 2\ns OPTIMUM FOUND\nv 1\nv -2\nv 3 0\n")])
    assert sol.status is Status.OPTIMAL and sol.cost == 2


def test_short_bit_strings_still_read_as_bits():
    """Row 3: a lone `v 101` (and a repeated bit-string answer) is still a bit string."""
    out = parse_solver_output("o 3\nv 011\no 2\nv 101\n", 3)
    assert out["error"] is None and out["o"] == 2
    assert out["values"][1:].tolist() == [True, False, True]


def test_o_line_without_a_new_model_keeps_the_previous_one():
    """Row 3: `o 5` after a complete signed model (not followed by a model) keeps that model
    and its own o value instead of an empty assignment."""
    out = parse_solver_output("o 2\nv 1 -2 3 0\no 1\n", 3)
    assert out["error"] is None and out["o"] == 2
    assert out["values"][1:].tolist() == [True, False, True]


# ----------------------------------------------------------------------------- row 18


def test_relative_solver_path_and_relative_script(tmp_path, monkeypatch):
    """Row 18: `./f.py` and `python3 f.py` resolve against the caller's working directory."""
    printing(tmp_path, "o 2\ns OPTIMUM FOUND\nv 101\n", name="f.py")
    monkeypatch.chdir(tmp_path)
    sol = solve_with("./f.py")
    assert sol.status is Status.OPTIMAL, sol.message
    sol = solve_with([sys.executable, "f.py"])
    assert sol.status is Status.OPTIMAL, sol.message


def test_cli_relative_solver_cmd(tmp_path, monkeypatch, capsys):
    """Row 18: `satrules solve m.wcnf --solver-cmd "python3 f.py"` from the file's folder."""
    printing(tmp_path, "o 2\ns OPTIMUM FOUND\nv 101\n", name="f.py")
    write_wcnf(three_vars(), tmp_path / "m.wcnf")
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "m.wcnf", "--solver-cmd", f"{sys.executable} f.py"]) == 0
    assert "s OPTIMUM FOUND" in capsys.readouterr().out


def test_solver_temp_files_go_to_the_private_directory(tmp_path, monkeypatch):
    """Row 18: the solver runs in the caller's directory but TMPDIR points at the private
    temporary directory, so its scratch files are removed with it."""
    solver = fake(tmp_path, "import tempfile\n"
                            "open(os.path.join(tempfile.gettempdir(), 'scratch'), 'w')\n"
                            "print(os.getcwd(), file=sys.stderr)\n"
                            "print('o 2\\ns OPTIMUM FOUND\\nv 101')")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    backend = ExternalWCNFBackend([solver])
    sol = backend.solve(three_vars())
    assert sol.status is Status.OPTIMAL
    assert not os.path.exists(backend.last_run["tmpdir"])
    assert list(work.iterdir()) == []


# ----------------------------------------------------------------------------- row 17


def _detaching_solver(pidfile: Path) -> str:
    """Body of a fake solver whose child calls setsid(), closes the solver's output, writes
    its pid to ``pidfile`` and sleeps; the solver then answers the three_vars optimum."""
    child = ("import os, sys, time; os.setsid(); os.close(1); os.close(2); "
             f"open({str(pidfile)!r} + '.tmp', 'w').write(str(os.getpid())); "
             f"os.rename({str(pidfile)!r} + '.tmp', {str(pidfile)!r}); time.sleep(120)")
    return (f"p = subprocess.Popen([sys.executable, '-c', {child!r}], "
            "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
            f"while not os.path.exists({str(pidfile)!r}):\n    time.sleep(0.01)\n"
            "print('o 2\\ns OPTIMUM FOUND\\nv 101', flush=True)")


def test_setsid_descendant_is_found_and_killed(tmp_path):
    """Row 17: a grandchild that calls setsid() (leaving the solver's session and process
    group) and closes the solver's output is killed too, and the message says so."""
    pidfile = tmp_path / "detached.pid"
    body = _detaching_solver(pidfile)
    backend = ExternalWCNFBackend([fake(tmp_path, body)])
    try:
        sol = backend.solve(three_vars())
        detached = int(pidfile.read_text())
        assert wait_until(lambda: not alive(detached)), "setsid() descendant survived"
        assert sol.status is Status.OPTIMAL
        assert "descendant" in sol.message
    finally:
        if pidfile.exists():
            try:
                os.kill(int(pidfile.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass


# ----------------------------------------------------------------------------- rows 15, 16


def _default_signals() -> None:
    """In the child: SIGTERM and SIGHUP at their default disposition.

    The CLI leaves an ignored signal ignored (as under ``nohup``), and a test run
    started with ``nohup`` hands an ignored SIGHUP down to every child: the SIGHUP
    case then waited for the CLI until its timeout.
    """
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def _cli(args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "satrules.cli", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_default_signals)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_signal_to_cli_solve_kills_solver_and_removes_temp_file(tmp_path, sig):
    """Rows 15: SIGTERM or SIGHUP to `satrules solve --solver-cmd` kills the solver and
    removes its temporary WCNF, like SIGINT; exit code 128 + signal."""
    info = tmp_path / "solver.info"
    solver = fake(tmp_path, "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                            f"open({str(info)!r} + '.tmp', 'w').write("
                            "f'{os.getpid()} {sys.argv[-1]}')\n"
                            f"os.rename({str(info)!r} + '.tmp', {str(info)!r})\n"
                            "time.sleep(120)")
    write_wcnf(three_vars(), tmp_path / "m.wcnf")
    proc = _cli(["solve", "m.wcnf", "--solver-cmd", solver], tmp_path)
    try:
        assert wait_until(info.exists), "the fake solver did not start"
        pid_text, wcnf_path = info.read_text().split(" ", 1)
        pid = int(pid_text)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=PATIENCE)
        assert proc.returncode == 128 + sig, err
        assert wait_until(lambda: not alive(pid)), "the solver survived"
        assert not os.path.exists(wcnf_path)
        assert signal.Signals(sig).name in err.decode()
    finally:
        proc.kill()
        proc.wait()


def test_sigterm_to_portfolio_solve_kills_members(tmp_path):
    """Row 16: `timeout` (SIGTERM) on `satrules solve --backend portfolio` leaves no member
    or member-started process running, and no member's temporary file."""
    pids = tmp_path / "pids"
    pids.mkdir()
    scratch = tmp_path / "tmp"  # TMPDIR of the CLI: the temp files of the whole run
    scratch.mkdir()
    solver = fake(tmp_path, f"open(os.path.join({str(pids)!r}, str(os.getpid())), 'w')\n"
                            "time.sleep(120)")
    runner = tmp_path / "runner.py"
    runner.write_text(
        "import sys\n"
        "import satrules.backends.portfolio as portfolio\n"
        f"portfolio.DEFAULT_MEMBERS = (('wcnf', {{'command': [{solver!r}]}}),) * 2\n"
        "if __name__ == '__main__':\n"
        "    from satrules.cli import main\n"
        "    sys.exit(main(['solve', 'm.wcnf', '--backend', 'portfolio']))\n")
    write_wcnf(three_vars(), tmp_path / "m.wcnf")
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(scratch))
    proc = subprocess.Popen([sys.executable, str(runner)], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert wait_until(lambda: len(list(pids.iterdir())) == 2), "members did not start"
        members = [int(line.split()[0]) for line in _children(proc.pid)]
        solvers = [int(p.name) for p in pids.iterdir()]
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=PATIENCE)
        assert proc.returncode == 128 + signal.SIGTERM, err
        for pid in members + solvers:
            assert wait_until(lambda pid=pid: not alive(pid)), f"process {pid} survived"
        assert not any(scratch.iterdir()), "a member left temporary files"
    finally:
        proc.kill()
        proc.wait()


def _children(ppid: int) -> list[str]:
    """``"pid ppid"`` of the running children of ``ppid`` (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == ppid and alive(int(entry)):
                out.append(f"{entry} {ppid}")
    return out


def test_cli_decode_with_relative_paths(tmp_path, monkeypatch, capsys):
    """Row 18: the documented `satrules decode model.wcnf sol.txt --layout layout.json`,
    run from the folder holding the files, reads the relative solution file."""
    import numpy as np
    import pandas as pd

    from satrules import solve
    from satrules.commands.solve import mse_lines
    from satrules.ir.wcnf import read_wcnf

    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"a": rng.integers(0, 4, 20), "c": rng.integers(0, 2, 20)})
    frame["t"] = np.where(frame.a >= 2, "on", "off")
    frame.to_csv(tmp_path / "d.csv", index=False)
    monkeypatch.chdir(tmp_path)
    assert main(["encode", "d.csv", "--target", "t", "--method", "imli",
                 "--out", "model.wcnf", "--layout", "layout.json"]) == 0
    sol = solve(read_wcnf("model.wcnf"), backend="rc2")
    Path("sol.txt").write_text("\n".join(mse_lines(sol)) + "\n")
    capsys.readouterr()
    assert main(["decode", "model.wcnf", "sol.txt", "--layout", "layout.json"]) == 0, \
        capsys.readouterr().err
    assert "IF " in capsys.readouterr().out


def test_sigkill_to_portfolio_parent_kills_members(tmp_path):
    """Row 16, the signal that cannot be handled: when the process running a portfolio
    is SIGKILLed, its members die with it (Linux parent-death signal)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("parent-death signals are Linux only")
    ready = tmp_path / "ready"
    ready.mkdir()
    solver = fake(tmp_path, f"open(os.path.join({str(ready)!r}, str(os.getpid())), 'w')\n"
                            "time.sleep(120)")
    runner = tmp_path / "runner.py"
    runner.write_text(
        "from satrules.backends.portfolio import PortfolioBackend\n"
        "from satrules.ir import Model\n"
        "if __name__ == '__main__':\n"
        "    m = Model(); x = m.new_var('x'); m.add_soft([x], 1)\n"
        f"    PortfolioBackend(backends=[('wcnf', {{'command': [{solver!r}]}})] * 2).solve(m)\n")
    scratch = tmp_path / "tmp"  # a SIGKILLed parent cannot remove its temporary files
    scratch.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(scratch))
    proc = subprocess.Popen([sys.executable, str(runner)], cwd=tmp_path, env=env)
    solvers, members = [], []
    try:
        assert wait_until(lambda: len(list(ready.iterdir())) == 2), "members did not start"
        solvers = [int(p.name) for p in ready.iterdir()]
        members = [int(line.split()[0]) for line in _children(proc.pid)]
        proc.kill()
        proc.wait()
        for pid in members:
            assert wait_until(lambda pid=pid: not alive(pid)), f"member {pid} survived"
    finally:
        proc.kill()
        proc.wait()
        for pid in solvers + members:  # solvers: not covered by the parent-death signal
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_descendant_that_cannot_be_killed_is_named(tmp_path, monkeypatch):
    """Row 17, the honest message: a descendant the kill cannot reach (here: os.kill
    refused, as for another user's process) is named as possibly still running, never
    reported as killed."""
    import satrules.backends._procs as procs

    pidfile = tmp_path / "detached.pid"
    body = _detaching_solver(pidfile)
    real_kill = os.kill

    def refuse(pid, sig):
        if pidfile.exists() and pid == int(pidfile.read_text()):
            raise PermissionError(1, "Operation not permitted")
        return real_kill(pid, sig)

    monkeypatch.setattr(procs.os, "kill", refuse)
    try:
        sol = ExternalWCNFBackend([fake(tmp_path, body)]).solve(three_vars())
        detached = int(pidfile.read_text())
        assert sol.status is Status.OPTIMAL
        assert "could not be killed" in sol.message and str(detached) in sol.message
        assert "killed 1 descendant" not in sol.message
    finally:
        monkeypatch.undo()
        if pidfile.exists():
            try:
                os.kill(int(pidfile.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_tracker_finds_detached_process_by_environment_marker():
    """Row 17, the last resort: a process with no parent or session link left to the
    solver (orphaned after setsid()) is still found by the marker it inherited in its
    environment, and killed."""
    from satrules.backends._procs import MARKER, Tracker, _has_marker

    sleeper = [sys.executable, "-c", "import time; time.sleep(120)"]
    root = subprocess.Popen(sleeper, start_new_session=True)
    stray = subprocess.Popen(sleeper, start_new_session=True,
                             env=dict(os.environ, **{MARKER: "run-42"}))
    try:
        # precondition: the stray's environment (with the marker) is visible in /proc; on
        # a loaded machine that can lag its start a little
        wait_until(lambda: _has_marker(stray.pid, f"{MARKER}=run-42".encode()))
        detached, survivors = Tracker(root.pid, "run-42").kill_all()
        assert detached == [stray.pid] and survivors == []
        stray.wait(timeout=PATIENCE)
        assert alive(root.pid)  # the solver itself is not the tracker's to kill
    finally:
        for proc in (root, stray):
            proc.kill()
            proc.wait()


def test_interrupt_inside_popen_still_kills_the_solver(tmp_path, monkeypatch):
    """A ``KeyboardInterrupt`` (or SIGTERM as ``Terminated``) that lands inside
    ``subprocess.Popen`` after the fork -- while it waits for the exec -- escapes the
    constructor before the backend holds the process; the solver is killed anyway
    (``_GuardedPopen``).  With a plain ``Popen`` it ran on, in a session of its own."""
    import subprocess

    from satrules.backends import wcnf_external

    solver = fake(tmp_path, "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                            "time.sleep(120)")
    forked = []
    real = subprocess.Popen._close_pipe_fds

    def interrupted(self, *args, **kwargs):   # runs in the parent just after the fork
        real(self, *args, **kwargs)
        forked.append(self.pid)
        raise KeyboardInterrupt

    monkeypatch.setattr(subprocess.Popen, "_close_pipe_fds", interrupted)
    backend = wcnf_external.ExternalWCNFBackend([solver])
    with pytest.raises(KeyboardInterrupt):
        backend.solve(three_vars())
    monkeypatch.undo()
    assert len(forked) == 1
    assert wait_until(lambda: not alive(forked[0])), "the solver survived"
    assert not os.path.exists(backend.last_run["tmpdir"])


@pytest.mark.parametrize("where", ["tracker", "reader"])
def test_interrupt_while_setting_up_the_solver_still_kills_it(tmp_path, monkeypatch, where):
    """Row 15: a SIGTERM (as ``Terminated``, a ``KeyboardInterrupt``) that arrives after the
    solver started but while the backend is still setting up (the tracker's first /proc
    scan, the stderr reader's start: slow on a loaded machine) kills the solver too.  It
    once survived ``pytest -n 4`` on two busy cores."""
    import threading

    from satrules.backends import wcnf_external

    info = tmp_path / "solver.pid"
    solver = fake(tmp_path, "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                            f"open({str(info)!r} + '.tmp', 'w').write(str(os.getpid()))\n"
                            f"os.rename({str(info)!r} + '.tmp', {str(info)!r})\n"
                            "time.sleep(120)")

    def interrupted(*args, **kwargs):   # the signal arrives once the solver is running
        assert wait_until(info.exists), "the fake solver did not start"
        raise KeyboardInterrupt

    if where == "tracker":
        monkeypatch.setattr(wcnf_external, "Tracker", interrupted)
    else:
        monkeypatch.setattr(threading.Thread, "start", interrupted)
    backend = ExternalWCNFBackend([solver])
    with pytest.raises(KeyboardInterrupt):
        backend.solve(three_vars())
    assert wait_until(lambda: not alive(int(info.read_text()))), "the solver survived"
    assert not os.path.exists(backend.last_run["tmpdir"])
