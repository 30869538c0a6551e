"""Ctrl-C stops an in-process engine, with or without a time limit, and the process exits cleanly.

Before: HiGHS without a limit ran on the main thread, so Ctrl-C waited until the proof
ended (a CDPR exact fit of 20,000 rows: minutes); CP-SAT's own SIGINT handler ended its
search and swallowed the interrupt without a limit, and aborted the interpreter
(``std::bad_function_call``) when CP-SAT ran on its thread under a limit; after the
interrupt, leaving the interpreter while CP-SAT still ran aborted it too ("terminate
called without an active exception"), as it did under HiGHS.  A staged solve (each
stage on a thread of its own) left its stage's engine running after Ctrl-C.

Each case runs in a child interpreter, so that an abort at exit is seen: the child
solves a random Max-3-SAT model that no engine proves within minutes, and sends itself
SIGINT once the engine's thread (or, for RC2 on the main thread, the call) has started.
Nothing is timed: the child's timeout only ends a run that has already failed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from satrules.backends import registry
from tests.backends.conftest import BACKEND_OPTIONS
from tests.timing import PATIENCE, alive, wait_until

#: Both children start so: SIGINT handled, and a random Max-3-SAT model no engine proves
#: within minutes.
MODEL = textwrap.dedent("""
    import os, signal, sys, threading, time
    import numpy as np
    from satrules.ir import Model

    signal.signal(signal.SIGINT, signal.default_int_handler)  # not ignored in a child
    rng = np.random.default_rng(0)
    model = Model()
    xs = model.new_vars("x", 120)
    for _ in range(1200):
        vs, signs = rng.choice(120, 3, replace=False), rng.random(3) < 0.5
        model.add_soft([xs[v] if s else -xs[v] for v, s in zip(vs, signs)], 1)
""")

CHILD = MODEL + textwrap.dedent("""
    from satrules.backends import registry

    backend, limit = sys.argv[1], None if sys.argv[2] == "none" else float(sys.argv[2])

    def press_ctrl_c():   # once the engine runs, however long a loaded machine took
        if backend != "rc2":   # rc2 without a limit runs on the main thread
            while not any(t.name.startswith("satrules-") for t in threading.enumerate()):
                time.sleep(0.05)
        time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=press_ctrl_c, daemon=True).start()
    try:
        sol = registry.solve(model, backend=backend, time_limit=limit)
        print("answered", sol.status.value, flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
""")


@pytest.mark.parametrize("backend, limit", [
    ("highs", "none"), ("highs", "600"), ("cpsat", "none"), ("cpsat", "600"),
    ("rc2", "none"), ("rc2", "600"), ("staged", "600"),
])
def test_ctrl_c_stops_the_engine_and_the_process_exits_cleanly(backend, limit):
    if backend not in registry.available_backends():
        pytest.skip(f"{backend} is not installed")
    run = subprocess.run([sys.executable, "-c", CHILD, backend, limit], capture_output=True,
                         text=True, timeout=PATIENCE)
    assert run.stdout.strip() == "interrupted", (run.stdout, run.stderr[-2000:])
    assert run.returncode == 0, run.stderr[-2000:]


HERMAX_CHILD = MODEL + textwrap.dedent("""
    import satrules.backends.hermax as hermax
    from satrules.backends import registry

    engine, limit = sys.argv[1], None if sys.argv[2] == "none" else float(sys.argv[2])
    calls = [0]
    restore = hermax._SigintKeeper.restore

    def counted(self):   # the terminate callback: the engine's search is running
        calls[0] += 1
        restore(self)

    hermax._SigintKeeper.restore = counted

    def press_ctrl_c():   # once the search runs (the engine has set its own handler)
        while calls[0] < 100:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=press_ctrl_c, daemon=True).start()
    try:
        sol = registry.solve(model, backend="hermax", engine=engine, time_limit=limit)
        print("answered", sol.status.value, flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
""")


@pytest.mark.parametrize("limit", ["none", "600"])
@pytest.mark.parametrize("engine", ["uwrmaxsat", "cashwmaxsat"])
def test_ctrl_c_stops_a_hermax_engine_with_a_terminate_callback(engine, limit):
    """UWrMaxSat and CASHWMaxSAT set a SIGINT handler of their own as their search starts.
    Before, they ran on the main thread: Ctrl-C killed the process (UWrMaxSat, SIGSEGV)
    or was ignored (CASHWMaxSAT), and without a limit nothing stopped them.  They now
    run on a thread whose terminate callback puts Python's handler back and ends the
    search once the interrupt has asked it to.  The child interrupts itself after the
    callback's 100th call, when the engine's own handler would have been set; a Ctrl-C
    in the moment between that and the callback's next call still reaches the engine's
    handler (one run in 24 beside four busy loops, when the signal came 0.5 s after the
    engine's thread started)."""
    if "hermax" not in registry.available_backends():
        pytest.skip("hermax is not installed")
    run = subprocess.run([sys.executable, "-c", HERMAX_CHILD, engine, limit],
                         capture_output=True, text=True, timeout=PATIENCE)
    assert run.stdout.strip() == "interrupted", (run.stdout, run.stderr[-2000:])
    assert run.returncode == 0, run.stderr[-2000:]


AFTER_ENGINE_CHILD = textwrap.dedent("""
    import os, signal, sys, time
    from satrules.backends import registry
    from satrules.ir import Model

    signal.signal(signal.SIGINT, signal.default_int_handler)  # not ignored in a child
    model = Model()
    x, y = model.new_var("x"), model.new_var("y")
    model.add_hard([x, y]); model.add_soft([-x], 2); model.add_soft([-y], 1)
    print(registry.solve(model, backend="hermax", engine=sys.argv[1]).status.value, flush=True)
    try:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(100):   # the handler runs at the next bytecode; 10 s to be sure
            time.sleep(0.1)
        print("not interrupted", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
""")


@pytest.mark.parametrize("engine", ["uwrmaxsat", "cashwmaxsat", "evalmaxsat"])
def test_ctrl_c_still_raises_after_a_hermax_solve(engine):
    """UWrMaxSat and CASHWMaxSAT install a SIGINT handler of their own when they search;
    CASHWMaxSAT left it in place, so after one of its solves Ctrl-C never again raised
    ``KeyboardInterrupt`` in the process.  Python's handler is now put back."""
    if "hermax" not in registry.available_backends():
        pytest.skip("hermax is not installed")
    run = subprocess.run([sys.executable, "-c", AFTER_ENGINE_CHILD, engine],
                         capture_output=True, text=True, timeout=PATIENCE)
    assert run.stdout.split() == ["OPTIMAL", "interrupted"], (run.stdout, run.stderr[-2000:])
    assert run.returncode == 0, run.stderr[-2000:]


WORKER_CHILD = MODEL + textwrap.dedent("""
    from satrules.backends import registry
    from satrules.backends.hermax import _descendants

    engine, press = sys.argv[1], sys.argv[2] == "press"

    def worker():   # hermax's worker process, a descendant of this one
        for pid in _descendants(os.getpid()):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    if b"hermax.internal.solver_worker_main" in fh.read():
                        return pid
            except OSError:
                pass

    def found_then_press():   # once the worker runs, however long a loaded machine took
        while (pid := worker()) is None:
            time.sleep(0.05)
        print("worker", pid, flush=True)
        if press:
            os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=found_then_press, daemon=True).start()
    try:
        sol = registry.solve(model, backend="hermax", engine=engine, time_limit=600)
        print("answered", sol.status.value, flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
""")


needs_linux_hermax = pytest.mark.skipif(
    not sys.platform.startswith("linux") or "hermax" not in registry.available_backends(),
    reason="hermax on Linux (/proc) only")


@needs_linux_hermax
@pytest.mark.parametrize("engine", ["loandra", "openwbo_inc", "tt_openwbo_inc"])
def test_ctrl_c_stops_a_hermax_incomplete_engine_and_its_worker(engine):
    """hermax runs its incomplete engines in a worker process of its own session.  Before,
    a Ctrl-C stopped the call, and the worker went on searching until its limit (600 s
    here) or for good: ``subprocess`` leaves a child running when its ``communicate`` is
    interrupted.  The engine now runs in satrules' child process, killed with everything
    it started as the interrupt unwinds the call."""
    run = subprocess.run([sys.executable, "-c", WORKER_CHILD, engine, "press"],
                         capture_output=True, text=True, timeout=PATIENCE)
    lines = run.stdout.split("\n")
    assert lines[0].startswith("worker ") and lines[1] == "interrupted", \
        (run.stdout, run.stderr[-2000:])
    assert run.returncode == 0, run.stderr[-2000:]
    worker = int(lines[0].split()[1])
    # the call waits for the kernel to end the worker, at most 5 s; on a loaded machine
    # that may not be enough, and the worker must still die long before its 600 s limit
    assert wait_until(lambda: not alive(worker)), \
        f"hermax's worker {worker} outlived the interrupted call"


@needs_linux_hermax
def test_a_killed_caller_leaves_no_hermax_worker():
    """Killed by SIGKILL (the OOM killer, a notebook's restart, a harness timeout), the
    caller can clean nothing up.  Before, hermax's worker then searched on for hours; it
    now dies with the engine's child process, which dies with the caller
    (``PR_SET_PDEATHSIG`` both times)."""
    child = subprocess.Popen([sys.executable, "-c", WORKER_CHILD, "loandra", "wait"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline()   # blocks until the worker runs, or the child ends
        assert line.startswith("worker "), (line, child.stderr.read()[-2000:] if
                                            child.poll() is not None else "")
        worker = int(line.split()[1])
    finally:
        child.kill()
        child.communicate(timeout=PATIENCE)
    assert wait_until(lambda: not alive(worker)), \
        f"hermax's worker {worker} outlived its killed caller"


PORTFOLIO_CHILD = MODEL + textwrap.dedent("""
    from satrules.backends.portfolio import PortfolioBackend

    wait = float(sys.argv[1])
    backend = PortfolioBackend(backends=["rc2", "cpsat"])

    def press_ctrl_c():   # a terminal's Ctrl-C reaches the whole foreground process group
        while len(backend.last_pids) < 2:   # once both members exist (still importing)
            time.sleep(0.01)
        time.sleep(wait)
        os.killpg(os.getpgid(0), signal.SIGINT)

    threading.Thread(target=press_ctrl_c, daemon=True).start()
    try:
        backend.solve(model, time_limit=600)
        print("answered", flush=True)
    except KeyboardInterrupt:
        print("interrupted", *backend.last_pids, flush=True)
""")


@pytest.mark.parametrize("wait", [0.0, 3.0])
def test_ctrl_c_at_a_terminal_stops_a_portfolio_quietly(wait):
    """A terminal's Ctrl-C goes to every process of the foreground group, the members
    too.  The parent unwinds and kills them; the members print nothing (before, one
    still importing printed its own KeyboardInterrupt traceback) and none is left."""
    from tests.timing import alive, wait_until

    for name in ("rc2", "cpsat"):
        if name not in registry.available_backends():
            pytest.skip(f"{name} is not installed")
    run = subprocess.run([sys.executable, "-c", PORTFOLIO_CHILD, str(wait)],
                         capture_output=True, text=True, timeout=PATIENCE,
                         start_new_session=True)   # its own group, as a terminal's job
    words = run.stdout.split()
    assert words[:1] == ["interrupted"] and len(words) == 3, (run.stdout, run.stderr[-2000:])
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Traceback" not in run.stderr and "KeyboardInterrupt" not in run.stderr, \
        run.stderr[-2000:]
    assert wait_until(lambda: not any(alive(int(pid)) for pid in words[1:]))


LATE_CHILD = MODEL + textwrap.dedent("""
    import json
    from satrules.backends import registry

    backend, options = sys.argv[1], json.loads(sys.argv[2])
    main = threading.main_thread().ident

    def waiting_in_solve():   # the main thread sits in a blocking wait inside the solve
        frame = sys._current_frames().get(main)
        names = []
        while frame is not None:
            names.append(frame.f_code.co_name)
            frame = frame.f_back
        return names[:1] in (["select"], ["wait"]) and "solve" in names

    def press_ctrl_c():
        while not waiting_in_solve():
            time.sleep(0.01)
        time.sleep(0.5)   # inside the blocking call by now; if not, the test is only weaker
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=press_ctrl_c, daemon=True).start()
    # from here on SIGINT lands on the helper thread only: the main thread's blocking
    # call is not cut short, as when the signal lands on another thread or just before it
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        sol = registry.solve(model, backend=backend, time_limit=600, **options)
        print("answered", sol.status.value, flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
""")


@pytest.mark.parametrize("backend, options", [
    ("portfolio", {"backends": ["rc2", "cpsat"]}), ("hermax", {"engine": "evalmaxsat"}),
    ("cpsat", {}), ("highs", {}), ("rc2", {}), ("staged", {}), ("wcnf", None),
])
def test_ctrl_c_that_does_not_interrupt_the_main_threads_wait_still_stops_the_solve(
        backend, options):
    """A SIGINT that lands on another thread (or on the main thread just before it enters
    a blocking call) leaves Python's handler pending until that call returns.  Before,
    the portfolio waited for its members in one call as long as the time limit, so such
    a Ctrl-C was acted on after ten minutes (it failed a CI run, under load, once in six
    tries); the waits now return every :data:`~satrules.backends.base.SIGNAL_CHECK`
    seconds.  The child blocks SIGINT in its main thread, so that the signal surely
    lands on a helper thread; nothing is timed (a hang fails at the child's timeout)."""
    needed = options["backends"] if backend == "portfolio" else [backend]
    for name in needed:
        if name not in registry.available_backends():
            pytest.skip(f"{name} is not installed")
    if options is None:
        options = BACKEND_OPTIONS[backend]
    run = subprocess.run([sys.executable, "-c", LATE_CHILD, backend, json.dumps(options)],
                         capture_output=True, text=True, timeout=PATIENCE)
    assert run.stdout.strip() == "interrupted", (run.stdout, run.stderr[-2000:])
    assert run.returncode == 0, run.stderr[-2000:]
