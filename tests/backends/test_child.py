"""Child processes never re-run the caller's script (satrules.backends._child).

Found on 2026-12-03: with multiprocessing's ``spawn``, a user's script without an
``if __name__ == "__main__":`` guard ran again inside every engine process of the
portfolio backend and of hermax's out-of-process engines; the engine was then
reported dead (``ERROR``) or a ``ConnectionResetError`` escaped the portfolio, and a
script piped to ``python -`` could not start one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from satrules.backends import _child
from satrules.backends.hermax import HermaxBackend
from tests.timing import PATIENCE, alive, wait_until

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""\
    from satrules import solve
    from satrules.ir import Model

    print("the script runs", flush=True)
    m = Model()
    x = m.new_var("x")
    m.add_soft([x], 2)
    m.add_soft([-x], 1)
    sol = solve(m, backend="portfolio", backends=["rc2", "cpsat"], time_limit=600)
    print(sol.status.value, sol.cost, flush=True)
    {hermax}
    """)
HERMAX = ('sol = solve(m, backend="hermax", engine="evalmaxsat", time_limit=600)\n'
          'print(sol.status.value, sol.cost, flush=True)')


def _run(args: list[str], stdin: str | None = None) -> list[str]:
    proc = subprocess.run([sys.executable, *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=10 * PATIENCE)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.splitlines()


@pytest.mark.parametrize("how", ["file", "stdin"])
def test_unguarded_script_runs_once_and_gets_its_answers(tmp_path, how):
    """A script with no main guard, run from a file or piped to ``python -``, runs once;
    its portfolio solve (and hermax's EvalMaxSAT, in a child under a limit) is OPTIMAL."""
    text = SCRIPT.format(hermax=HERMAX if HermaxBackend.available() else "")
    if how == "file":
        path = tmp_path / "user_script.py"
        path.write_text(text)
        out = _run([str(path)])
    else:
        out = _run(["-"], stdin=text)
    answers = 2 if HermaxBackend.available() else 1
    assert out == ["the script runs"] + ["OPTIMAL 1"] * answers


def test_child_gets_the_parents_sys_path(tmp_path, monkeypatch):
    """A function of a module the parent found through a ``sys.path`` entry it added at run
    time (as a notebook or a benchmark does) is found by the child too."""
    (tmp_path / "elsewhere_mod.py").write_text(
        "import os\n"
        "def answer(conn, x):\n"
        "    conn.send((x * 2, os.getpid()))\n"
        "    conn.close()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import elsewhere_mod

    child, conn = _child.start(elsewhere_mod.answer, (21,))
    try:
        assert conn.recv() == (42, child.pid)
    finally:
        conn.close()
        child.join(PATIENCE)
    assert child.exitcode == 0


def test_interrupt_while_sending_the_call_kills_the_child(monkeypatch):
    """Ctrl-C while the call is being sent: the child is killed before the interrupt goes
    on (it is not yet the caller's to kill)."""
    from multiprocessing.connection import Connection

    started, real_popen, real_send = [], subprocess.Popen, Connection.send_bytes

    def popen(*args, **kwargs):
        started.append(real_popen(*args, **kwargs))
        return started[-1]

    def send_bytes(self, data):
        real_send(self, data)
        raise KeyboardInterrupt

    monkeypatch.setattr(_child.subprocess, "Popen", popen)
    monkeypatch.setattr(Connection, "send_bytes", send_bytes)
    with pytest.raises(KeyboardInterrupt):
        _child.start(_child._echo_pid)
    monkeypatch.undo()
    assert len(started) == 1
    assert wait_until(lambda: not alive(started[0].pid))


def test_child_dies_with_a_sigkilled_parent(tmp_path):
    """A parent killed by SIGKILL cannot clean up: its children (a hermax engine, a
    portfolio member) die with it all the same (Linux parent-death signal)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("parent-death signals are Linux only")
    (tmp_path / "sleeper_mod.py").write_text(
        "import os, time\n"
        "def sleep(conn):\n"
        "    conn.send(os.getpid())\n"
        "    time.sleep(3600)\n")
    pidfile = tmp_path / "child.pid"
    (tmp_path / "runner.py").write_text(
        "import time\n"
        "import sleeper_mod\n"
        "from satrules.backends._child import start\n"
        "child, conn = start(sleeper_mod.sleep)\n"
        f"open({str(pidfile) + '.tmp'!r}, 'w').write(str(conn.recv()))\n"
        f"import os; os.rename({str(pidfile) + '.tmp'!r}, {str(pidfile)!r})\n"
        "time.sleep(3600)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen([sys.executable, str(tmp_path / "runner.py")], cwd=tmp_path,
                              env=env)
    child = None
    try:
        assert wait_until(pidfile.exists), "the child did not start"
        child = int(pidfile.read_text())
        assert alive(child)
        parent.kill()
        parent.wait()
        assert wait_until(lambda: not alive(child)), "the child outlived its parent"
    finally:
        parent.kill()
        parent.wait()
        if child is not None and alive(child):
            os.kill(child, 9)
