"""Issue 4 row 3: external solver faults, each with its status, message and clean-up proven.

Every fake solver is a small Python script written to ``tmp_path``.  After each
run the test checks the process table (``/proc``: the child, and any process it
started, is gone or a zombie) and that the private temporary directory was
removed.  Slack for time limits: ``time_limit + grace + 1.5`` seconds.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from satrules.backends.wcnf_external import ExternalWCNFBackend
from satrules.ir import Status
from tests.strategies import three_vars
from tests.timing import SLACK, alive


def fake(tmp_path: Path, body: str, name: str = "solver.py", executable: bool = True) -> str:
    path = tmp_path / name
    path.write_text(f"#!{sys.executable}\nimport os, signal, subprocess, sys, time\n{body}\n")
    path.chmod(0o755 if executable else 0o644)
    return str(path)


def run(command, model=None, **kwargs):
    """Solve with the external backend; check that no process or temp dir is left."""
    time_limit = kwargs.pop("time_limit", None)
    backend = ExternalWCNFBackend(command, **kwargs)
    start = time.monotonic()
    sol = backend.solve(model or three_vars(), time_limit=time_limit)
    elapsed = time.monotonic() - start
    pid = backend.last_run["pid"]
    if pid is not None:
        assert sol.options["pid"] == pid
        assert not alive(pid)
    assert not os.path.exists(backend.last_run["tmpdir"])
    return sol, elapsed


def test_binary_missing(tmp_path):
    """A solver path that does not exist: ERROR 'solver not found'."""
    sol, _ = run([str(tmp_path / "no-such-solver")])
    assert sol.status is Status.ERROR and "solver not found" in sol.message


def test_not_executable(tmp_path):
    """A solver file without the execute bit: ERROR 'not executable'."""
    sol, _ = run([fake(tmp_path, "print('s UNKNOWN')", executable=False)])
    assert sol.status is Status.ERROR and "not executable" in sol.message


def test_non_zero_exit_without_output(tmp_path):
    """Exit code 3 and nothing on stdout: ERROR naming the code and the stderr tail."""
    sol, _ = run([fake(tmp_path, "sys.stderr.write('cannot parse input\\n'); sys.exit(3)")])
    assert sol.status is Status.ERROR
    assert "exited with code 3" in sol.message and "cannot parse input" in sol.message


def test_non_zero_exit_is_ignored_when_the_answer_is_valid(tmp_path):
    """Exit codes are not standard (Open-WBO exits 30 on optimum): a valid answer stands."""
    sol, _ = run([fake(tmp_path, "print('o 2\\ns OPTIMUM FOUND\\nv 101'); sys.exit(30)")])
    assert sol.status is Status.OPTIMAL and sol.cost == 2
    assert "exited with code 30" in sol.message


def test_crash_mid_output(tmp_path):
    """A segfault in the middle of the v line: the partial line is dropped, ERROR says so."""
    body = ("sys.stdout.write('o 2\\ns OPTIMUM FOUND\\nv 10'); sys.stdout.flush();"
            "os.kill(os.getpid(), signal.SIGSEGV)")
    sol, _ = run([fake(tmp_path, body)])
    assert sol.status is Status.ERROR
    assert "no v line" in sol.message and "SIGSEGV" in sol.message
    assert "middle of a line" in sol.message


def test_crash_after_a_complete_model_is_feasible(tmp_path):
    """A crash after a full model line (no s line): that model is returned as FEASIBLE."""
    body = ("sys.stdout.write('o 3\\nv 011\\n'); sys.stdout.flush();"
            "os.kill(os.getpid(), signal.SIGKILL)")
    sol, _ = run([fake(tmp_path, body)])
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
    sol, _ = run([fake(tmp_path, f"print('o 2\\ns OPTIMUM FOUND\\n{v_line}')")])
    assert sol.status is Status.ERROR
    assert "invalid v line" in sol.message and fragment in sol.message


def test_o_value_disagreeing_with_ir_cost(tmp_path):
    """An o value that is not the IR cost of the printed model: ERROR naming both costs."""
    sol, _ = run([fake(tmp_path, "print('o 1\\ns OPTIMUM FOUND\\nv 101')")])
    assert sol.status is Status.ERROR
    assert "reported cost 1 but the assignment costs 2" in sol.message


def test_infeasible_model_is_rejected(tmp_path):
    """A model violating a hard clause is caught by the IR check: ERROR, never returned."""
    sol, _ = run([fake(tmp_path, "print('o 1\\ns OPTIMUM FOUND\\nv 001')")])
    assert sol.status is Status.ERROR and sol.values is None
    assert "violates the model" in sol.message


def test_garbage_output(tmp_path):
    """Output that is not MSE at all: ERROR quoting it."""
    sol, _ = run([fake(tmp_path, "print('Segmentation fault (core dumped)')")])
    assert sol.status is Status.ERROR and "unrecognised solver output" in sol.message
    sol, _ = run([fake(tmp_path, "print('s MAYBE')")])
    assert sol.status is Status.ERROR and "unrecognised status line" in sol.message


def test_anytime_solver_prints_best_model_on_sigterm(tmp_path):
    """A solver that answers SIGTERM with its best model: FEASIBLE within the limit."""
    body = ("def stop(*_):\n"
            "    print('o 3\\nv 011', flush=True); sys.exit(0)\n"
            "signal.signal(signal.SIGTERM, stop)\n"
            "print('c searching', flush=True)\n"
            "time.sleep(60)")
    sol, elapsed = run([fake(tmp_path, body)], time_limit=1.0, grace=2.0)
    assert sol.status is Status.FEASIBLE and sol.cost == 3
    assert sol.options["timed_out"] and not sol.options["killed"]
    assert elapsed < 1.0 + SLACK


def test_solver_ignoring_sigterm_is_killed(tmp_path):
    """SIGTERM ignored: SIGKILL after the grace period; the model printed earlier is FEASIBLE."""
    body = ("signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "print('o 3\\nv 011', flush=True)\n"
            "time.sleep(60)")
    sol, elapsed = run([fake(tmp_path, body)], time_limit=0.5, grace=0.5)
    assert sol.status is Status.FEASIBLE and sol.cost == 3
    assert sol.options["timed_out"] and sol.options["killed"]
    assert "SIGKILL" in sol.message
    assert elapsed < 0.5 + 0.5 + SLACK


def test_timeout_without_model_is_unknown(tmp_path):
    """Nothing printed before the limit: UNKNOWN, not ERROR."""
    sol, elapsed = run([fake(tmp_path, "time.sleep(60)")], time_limit=0.5, grace=0.5)
    assert sol.status is Status.UNKNOWN and "time limit" in sol.message
    assert elapsed < 0.5 + SLACK


def test_descendants_are_killed(tmp_path):
    """Processes the solver starts (same process group) do not outlive the solve."""
    pidfile = tmp_path / "grandchild.pid"
    body = (f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
            f"open({str(pidfile)!r}, 'w').write(str(p.pid))\n"
            "print('o 2\\ns OPTIMUM FOUND\\nv 101', flush=True)")
    sol, elapsed = run([fake(tmp_path, body)])
    assert sol.status is Status.OPTIMAL and sol.cost == 2
    assert "left running" in sol.message  # it held stdout open after the solver exited
    assert elapsed < 0.5 + 1.0 + SLACK
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + SLACK
    while alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(grandchild)


def test_timeout_with_descendant_holding_the_output(tmp_path):
    """At the limit the solver dies on SIGTERM but its child, which ignores SIGTERM, keeps
    stdout open: the child is killed too, the earlier model is FEASIBLE, and the message
    names both events."""
    pidfile = tmp_path / "grandchild.pid"
    child = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"
    body = (f"p = subprocess.Popen([sys.executable, '-c', {child!r}])\n"
            "time.sleep(0.3)\n"
            f"open({str(pidfile)!r}, 'w').write(str(p.pid))\n"
            "print('o 3\\nv 011', flush=True)\n"
            "time.sleep(60)")
    sol, elapsed = run([fake(tmp_path, body)], time_limit=0.5, grace=2.0)
    assert sol.status is Status.FEASIBLE and sol.cost == 3
    assert "time limit" in sol.message and "left running" in sol.message
    assert elapsed < 0.5 + 0.5 + 1.0 + SLACK
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + SLACK
    while alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(grandchild)


def test_flood_of_output_keeps_memory_bounded(tmp_path):
    """40 MB without a newline then a valid answer: the long line is dropped, memory stays
    near ``max_line_bytes`` (1 MiB here), and the answer is still read."""
    body = ("chunk = b'x' * (1 << 20)\n"
            "for _ in range(40):\n"
            "    sys.stdout.buffer.write(chunk)\n"
            "sys.stdout.buffer.write(b'\\no 2\\ns OPTIMUM FOUND\\nv 101\\n')")
    tracemalloc.start()
    try:
        sol, _ = run([fake(tmp_path, body)], max_line_bytes=1 << 20)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sol.status is Status.OPTIMAL and sol.cost == 2
    assert "discarded" in sol.message
    assert peak < 8 << 20


def test_endless_flood_is_stopped_by_the_time_limit(tmp_path):
    """A solver printing comment lines forever is stopped at the limit: UNKNOWN."""
    body = "line = 'c spam ' * 20 + '\\n'\nwhile True:\n    sys.stdout.write(line * 100)"
    sol, elapsed = run([fake(tmp_path, body)], time_limit=1.0, grace=0.5)
    assert sol.status is Status.UNKNOWN and sol.options["timed_out"]
    assert elapsed < 1.0 + 0.5 + SLACK


def test_keyboard_interrupt_kills_child_and_cleans_up(tmp_path):
    """Ctrl-C during a solve: the child is killed, the temp dir removed, the interrupt raised."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are delivered to the main thread only")

    def interrupt(*_):
        raise KeyboardInterrupt

    backend = ExternalWCNFBackend([fake(tmp_path, "print('c busy', flush=True)\ntime.sleep(60)")])
    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.7)
    try:
        with pytest.raises(KeyboardInterrupt):
            backend.solve(three_vars())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert backend.last_run["pid"] is not None
    assert not alive(backend.last_run["pid"])
    assert not os.path.exists(backend.last_run["tmpdir"])
