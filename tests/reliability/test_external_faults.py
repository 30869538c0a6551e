"""Issue 4 row 3: external solver faults, each with its status, message and clean-up proven.

Every fake solver is a small Python script written to ``tmp_path``.  After each
run the test checks the process table (``/proc``: the child, and any process it
started, is gone or a zombie) and that the private temporary directory was
removed.  A time limit is tested by what it must cause (the status, the
``timed_out``/``killed`` flags, the message) on a solver that would run for a minute
or more on its own, never by a wall time (``tests/timing.py``); the wall times are
measured by ``benchmarks/bench_time_limits.py --suite``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import tracemalloc
from pathlib import Path

import pytest

from satrules.backends.wcnf_external import ExternalWCNFBackend, _launch_argv
from satrules.ir import Status
from tests.strategies import three_vars
from tests.timing import PATIENCE, HeldClock, alive, wait_until


def fake(tmp_path: Path, body: str, name: str = "solver.py", executable: bool = True) -> str:
    path = tmp_path / name
    path.write_text(f"#!{sys.executable}\nimport os, signal, subprocess, sys, time\n{body}\n")
    path.chmod(0o755 if executable else 0o644)
    return str(path)


def run(command, model=None, **kwargs):
    """Solve with the external backend; check that no process or temp dir is left."""
    time_limit = kwargs.pop("time_limit", None)
    backend = ExternalWCNFBackend(command, **kwargs)
    sol = backend.solve(model or three_vars(), time_limit=time_limit)
    pid = backend.last_run["pid"]
    if pid is not None:
        assert sol.options["pid"] == pid
        assert not alive(pid)
    assert not os.path.exists(backend.last_run["tmpdir"])
    return sol


def test_binary_missing(tmp_path):
    """A solver path that does not exist: ERROR 'solver not found'."""
    sol = run([str(tmp_path / "no-such-solver")])
    assert sol.status is Status.ERROR and "solver not found" in sol.message


def test_not_executable(tmp_path):
    """A solver file without the execute bit: ERROR 'not executable'."""
    sol = run([fake(tmp_path, "print('s UNKNOWN')", executable=False)])
    assert sol.status is Status.ERROR and "not executable" in sol.message


def test_non_zero_exit_without_output(tmp_path):
    """Exit code 3 and nothing on stdout: ERROR naming the code and the stderr tail."""
    sol = run([fake(tmp_path, "sys.stderr.write('cannot parse input\\n'); sys.exit(3)")])
    assert sol.status is Status.ERROR
    assert "exited with code 3" in sol.message and "cannot parse input" in sol.message


def test_non_zero_exit_is_ignored_when_the_answer_is_valid(tmp_path):
    """Exit codes are not standard (Open-WBO exits 30 on optimum): a valid answer stands."""
    sol = run([fake(tmp_path, "print('o 2\\ns OPTIMUM FOUND\\nv 101'); sys.exit(30)")])
    assert sol.status is Status.OPTIMAL and sol.cost == 2
    assert "exited with code 30" in sol.message


def test_crash_mid_output(tmp_path):
    """A segfault in the middle of the v line: the partial line is dropped, ERROR says so."""
    body = ("sys.stdout.write('o 2\\ns OPTIMUM FOUND\\nv 10'); sys.stdout.flush();"
            "os.kill(os.getpid(), signal.SIGSEGV)")
    sol = run([fake(tmp_path, body)])
    assert sol.status is Status.ERROR
    assert "no v line" in sol.message and "SIGSEGV" in sol.message
    assert "middle of a line" in sol.message


def test_crash_after_a_complete_model_is_feasible(tmp_path):
    """A crash after a full model line (no s line): that model is returned as FEASIBLE."""
    body = ("sys.stdout.write('o 3\\nv 011\\n'); sys.stdout.flush();"
            "os.kill(os.getpid(), signal.SIGKILL)")
    sol = run([fake(tmp_path, body)])
    assert sol.status is Status.FEASIBLE and sol.cost == 3 == sol.reported_cost
    assert "SIGKILL" in sol.message


@pytest.mark.parametrize("v_line, fragment", [
    ("v 10", "has 2 values, expected 3"),
    ("v 1011", "has 4 values, expected 3"),
    ("v 1 -2 4", "out of range"),
    ("v 1 -2 zz", "unparseable v line"),
])
def test_truncated_or_inconsistent_v_line(tmp_path, v_line, fragment):
    """Wrong-length or out-of-range v lines are ERROR with the reason."""
    sol = run([fake(tmp_path, f"print('o 2\\ns OPTIMUM FOUND\\n{v_line}')")])
    assert sol.status is Status.ERROR
    assert "invalid v line" in sol.message and fragment in sol.message


def test_o_value_disagreeing_with_ir_cost(tmp_path):
    """An o value that is not the IR cost of the printed model: ERROR naming both costs."""
    sol = run([fake(tmp_path, "print('o 1\\ns OPTIMUM FOUND\\nv 101')")])
    assert sol.status is Status.ERROR
    assert "reported cost 1 but the assignment costs 2" in sol.message


def test_infeasible_model_is_rejected(tmp_path):
    """A model violating a hard clause is caught by the IR check: ERROR, never returned."""
    sol = run([fake(tmp_path, "print('o 1\\ns OPTIMUM FOUND\\nv 001')")])
    assert sol.status is Status.ERROR and sol.values is None
    assert "violates the model" in sol.message


def test_garbage_output(tmp_path):
    """Output that is not MSE at all: ERROR quoting it."""
    sol = run([fake(tmp_path, "print('Segmentation fault (core dumped)')")])
    assert sol.status is Status.ERROR and "unrecognised solver output" in sol.message
    sol = run([fake(tmp_path, "print('s MAYBE')")])
    assert sol.status is Status.ERROR and "unrecognised status line" in sol.message


def limit_from_ready(monkeypatch, tmp_path: Path) -> str:
    """Count the backend's time limit from when the fake solver writes the returned file.

    The fake writes it once its handlers are installed and its model printed, so what
    happens at the limit does not depend on how long a loaded machine took to start it.
    """
    from satrules.backends import wcnf_external

    ready = tmp_path / "ready"
    monkeypatch.setattr(wcnf_external, "time", HeldClock(ready.exists))
    return str(ready)


def test_anytime_solver_prints_best_model_on_sigterm(tmp_path, monkeypatch):
    """A solver that answers SIGTERM with its best model: FEASIBLE, stopped by the limit."""
    ready = limit_from_ready(monkeypatch, tmp_path)
    body = ("def stop(*_):\n"
            "    print('o 3\\nv 011', flush=True); sys.exit(0)\n"
            "signal.signal(signal.SIGTERM, stop)\n"
            "print('c searching', flush=True)\n"
            f"open({ready!r}, 'w').close()\n"
            "time.sleep(60)")
    sol = run([fake(tmp_path, body)], time_limit=1.0, grace=PATIENCE)
    assert sol.status is Status.FEASIBLE and sol.cost == 3
    assert sol.options["timed_out"] and not sol.options["killed"]


def test_solver_ignoring_sigterm_is_killed(tmp_path, monkeypatch):
    """SIGTERM ignored: SIGKILL after the grace period; the model printed earlier is FEASIBLE."""
    ready = limit_from_ready(monkeypatch, tmp_path)
    body = ("signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "print('o 3\\nv 011', flush=True)\n"
            f"open({ready!r}, 'w').close()\n"
            "time.sleep(60)")
    sol = run([fake(tmp_path, body)], time_limit=0.5, grace=0.5)
    assert sol.status is Status.FEASIBLE and sol.cost == 3
    assert sol.options["timed_out"] and sol.options["killed"]
    assert "SIGKILL" in sol.message


def test_timeout_without_model_is_unknown(tmp_path):
    """Nothing printed before the limit: UNKNOWN, not ERROR."""
    sol = run([fake(tmp_path, "time.sleep(60)")], time_limit=0.5, grace=0.5)
    assert sol.status is Status.UNKNOWN and "time limit" in sol.message


def test_descendants_are_killed(tmp_path):
    """Processes the solver starts (same process group) do not outlive the solve."""
    pidfile = tmp_path / "grandchild.pid"
    body = (f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)'])\n"
            f"open({str(pidfile)!r}, 'w').write(str(p.pid))\n"
            "print('o 2\\ns OPTIMUM FOUND\\nv 101', flush=True)")
    sol = run([fake(tmp_path, body)])
    assert sol.status is Status.OPTIMAL and sol.cost == 2
    assert "left running" in sol.message  # it held stdout open after the solver exited
    grandchild = int(pidfile.read_text())
    assert wait_until(lambda: not alive(grandchild)), "the grandchild survived"


def test_timeout_with_descendant_holding_the_output(tmp_path, monkeypatch):
    """At the limit the solver dies on SIGTERM but its child, which ignores SIGTERM, keeps
    stdout open: the child is killed too, the earlier model is FEASIBLE, and the message
    names both events."""
    ready = limit_from_ready(monkeypatch, tmp_path)
    pidfile, ignoring = tmp_path / "grandchild.pid", tmp_path / "ignoring"
    child = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
             f"open({str(ignoring)!r}, 'w').close(); time.sleep(3600)")
    body = (f"p = subprocess.Popen([sys.executable, '-c', {child!r}])\n"
            f"while not os.path.exists({str(ignoring)!r}): time.sleep(0.01)\n"
            f"open({str(pidfile)!r}, 'w').write(str(p.pid))\n"
            "print('o 3\\nv 011', flush=True)\n"
            f"open({ready!r}, 'w').close()\n"
            "time.sleep(60)")
    sol = run([fake(tmp_path, body)], time_limit=0.5, grace=2.0)
    assert sol.status is Status.FEASIBLE and sol.cost == 3
    assert "time limit" in sol.message and "left running" in sol.message
    grandchild = int(pidfile.read_text())
    assert wait_until(lambda: not alive(grandchild)), "the grandchild survived"


def test_flood_of_output_keeps_memory_bounded(tmp_path):
    """40 MB without a newline then a valid answer: the long line is dropped, memory stays
    near ``max_line_bytes`` (1 MiB here), and the answer is still read."""
    body = ("chunk = b'x' * (1 << 20)\n"
            "for _ in range(40):\n"
            "    sys.stdout.buffer.write(chunk)\n"
            "sys.stdout.buffer.write(b'\\no 2\\ns OPTIMUM FOUND\\nv 101\\n')")
    tracemalloc.start()
    try:
        sol = run([fake(tmp_path, body)], max_line_bytes=1 << 20)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sol.status is Status.OPTIMAL and sol.cost == 2
    assert "discarded" in sol.message
    assert peak < 8 << 20


def test_endless_flood_is_stopped_by_the_time_limit(tmp_path):
    """A solver printing comment lines forever is stopped at the limit: UNKNOWN."""
    body = "line = 'c spam ' * 20 + '\\n'\nwhile True:\n    sys.stdout.write(line * 100)"
    sol = run([fake(tmp_path, body)], time_limit=1.0, grace=0.5)
    assert sol.status is Status.UNKNOWN and sol.options["timed_out"]


def test_keyboard_interrupt_kills_child_and_cleans_up(tmp_path):
    """Ctrl-C during a solve: the child is killed, the temp dir removed, the interrupt raised."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are delivered to the main thread only")

    def interrupt(*_):
        raise KeyboardInterrupt

    ready = tmp_path / "ready"
    body = f"print('c busy', flush=True)\nopen({str(ready)!r}, 'w').close()\ntime.sleep(60)"
    backend = ExternalWCNFBackend([fake(tmp_path, body)])

    def press_ctrl_c():   # once the solver runs, however long a loaded machine took
        if wait_until(ready.exists):
            os.kill(os.getpid(), signal.SIGALRM)

    old = signal.signal(signal.SIGALRM, interrupt)
    presser = threading.Thread(target=press_ctrl_c, daemon=True)
    try:
        with pytest.raises(KeyboardInterrupt):
            presser.start()
            backend.solve(three_vars())
    finally:
        presser.join()
        signal.signal(signal.SIGALRM, old)
    assert backend.last_run["pid"] is not None
    assert not alive(backend.last_run["pid"])
    assert not os.path.exists(backend.last_run["tmpdir"])


def test_exec_format_error_is_a_start_error(tmp_path):
    """An executable file that is no program: ERROR 'cannot start solver', with the reason."""
    path = tmp_path / "solver.bin"
    path.write_bytes(b"\x00\x01 not a program")
    path.chmod(0o755)
    sol = run([str(path)])
    assert sol.status is Status.ERROR and "cannot start solver" in sol.message
    assert "Exec format error" in sol.message


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc and prctl")
def test_the_solver_starts_with_sigpipe_and_sigxfsz_not_ignored():
    """The solver is started through a Python launcher (so that it dies with its caller),
    and Python ignores SIGPIPE and SIGXFSZ, which an exec passes on: the launcher gives
    them their default back, as ``Popen`` does for a program it starts itself."""
    status = subprocess.run(_launch_argv(["cat", "/proc/self/status"]), capture_output=True,
                            text=True, timeout=PATIENCE, check=True).stdout
    ignored = int(next(line for line in status.splitlines()
                       if line.startswith("SigIgn:")).split()[1], 16)
    for sig in (signal.SIGPIPE, signal.SIGXFSZ):
        assert not ignored & (1 << (sig - 1)), f"{sig.name} is ignored in the solver"


KILLED_CALLER = textwrap.dedent("""
    import sys
    from satrules.backends.wcnf_external import ExternalWCNFBackend
    from satrules.ir import Model

    model = Model()
    x = model.new_var("x")
    model.add_soft([x], 1)
    ExternalWCNFBackend([sys.argv[1]]).solve(model)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux parent-death signal")
def test_the_solver_dies_with_a_killed_caller(tmp_path):
    """SIGKILL to the caller (the OOM killer, a notebook's restart, a harness timeout)
    leaves it no chance to clean up.  Before, the solver -- in a session of its own --
    then ran on as an orphan until it ended by itself; it now dies with its caller
    (``PR_SET_PDEATHSIG``, set by the launcher before it becomes the solver)."""
    ready = tmp_path / "ready"
    body = f"open({str(ready)!r}, 'w').write(str(os.getpid()))\ntime.sleep(600)"
    caller = subprocess.Popen([sys.executable, "-c", KILLED_CALLER, fake(tmp_path, body)])
    try:
        assert wait_until(lambda: ready.exists() and ready.read_text()), "no solver ran"
        solver = int(ready.read_text())
    finally:
        caller.kill()
        caller.wait(PATIENCE)
    assert wait_until(lambda: not alive(solver)), f"the solver {solver} outlived its caller"
