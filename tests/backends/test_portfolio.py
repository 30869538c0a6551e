"""Tests of the portfolio backend: answers re-verified, first proof wins, no orphan processes."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings

from satrules.backends import registry
from satrules.backends.hermax import HermaxBackend
from satrules.backends.portfolio import PortfolioBackend
from satrules.exceptions import BackendUnavailableError, EncodingError
from satrules.ir import Model, Status
from tests.backends.conftest import unprovable_model
from tests.strategies import tiny_models
from tests.timing import PATIENCE, wait_until

needs_hermax = pytest.mark.skipif(not HermaxBackend.available(),
                                  reason="hermax is not installed (pip install 'satrules[hermax]')")


def _alive_in_groups(pgids: list[int]) -> list[int]:
    """Return the pids of live (non-zombie) processes whose process group is one of ``pgids``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        state, pgrp = fields[0], int(fields[2])
        if pgrp in pgids and state != "Z":
            found.append(int(entry.name))
    return found


def _pid_alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie awaiting its reaper does not count)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _all_gone(pids) -> bool:
    """Whether every pid is gone (polled: a SIGKILL takes a moment to be delivered)."""
    return wait_until(lambda: not any(_pid_alive(pid) for pid in pids))


@settings(max_examples=5, deadline=None)
@given(model=tiny_models(max_vars=5))
def test_portfolio_agrees_with_brute_force(model):
    """A portfolio's verified answer has the brute-force optimum (members: bruteforce, rc2).
    The limit (600 s) must cover starting the members' processes on a loaded machine."""
    want = registry.solve(model, backend="bruteforce")
    got = registry.solve(model, backend="portfolio", backends=["bruteforce", "rc2"],
                         time_limit=600)
    assert got.status.is_feasible == want.status.is_feasible
    if want.status.is_feasible:
        assert got.status is Status.OPTIMAL and got.cost == want.cost
        assert model.evaluate(got.values)
    else:
        assert got.status is Status.UNSATISFIABLE


def _descendants_of(pids: list[int]) -> set[int]:
    """Return the live descendants of ``pids`` (through /proc parent links)."""
    from satrules.backends.hermax import _descendants

    return {child for pid in pids for child in _descendants(pid)}


@needs_hermax
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to list processes")
def test_first_proof_wins_and_no_orphans_remain(tmp_path):
    """A member proves the optimum first; the slow members -- EvalMaxSAT with its engine child
    and Loandra with hermax's worker in a session of its own -- are killed with everything they
    started.  The winner is a scripted external solver (``wcnf``) that claims its answer only
    once a sampler thread has seen both slow members' processes of their own, so the race
    always has grandchildren to kill, however loaded the machine (before, UWrMaxSat won on
    its own schedule and the grandchildren might not have started yet).  Neither real engine
    proves :func:`unprovable_model` in minutes."""
    model = unprovable_model()
    start = registry.solve(model, backend="cpsat", max_deterministic_time=0.2)
    assert start.status is Status.FEASIBLE   # the scripted winner's "optimum"
    bits = "".join("1" if v else "0" for v in start.values[1:])
    go = tmp_path / "go"
    winner = tmp_path / "winner.py"
    winner.write_text(f"#!{sys.executable}\nimport os, time\n"
                      f"while not os.path.exists({str(go)!r}):\n    time.sleep(0.01)\n"
                      f"print('o {start.cost}\\ns OPTIMUM FOUND\\nv {bits}', flush=True)\n")
    winner.chmod(0o755)
    backend = PortfolioBackend(backends=[("wcnf", {"command": [str(winner)]}),
                                         ("hermax", {"engine": "evalmaxsat"}),
                                         ("hermax", {"engine": "loandra"})])
    seen: set[int] = set()
    both = threading.Event()
    done = threading.Event()

    def sample():
        give_up = time.monotonic() + PATIENCE   # a failing test: let the winner end it
        while not done.is_set():
            pids = list(backend.last_pids)
            seen.update(_descendants_of(pids))
            if len(pids) == 3 and all(_descendants_of([pid]) for pid in pids[1:]):
                both.set()   # both slow members run processes of their own: let it win
            if both.is_set() or time.monotonic() > give_up:
                go.touch()
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        sol = backend.solve(model, time_limit=3600)
    finally:
        done.set()
        sampler.join()
    assert both.is_set(), "a slow member never started a process of its own"
    assert sol.status is Status.OPTIMAL and sol.engine.startswith("wcnf")
    assert sol.cost == model.cost(sol.values) == start.cost
    assert len(backend.last_pids) == 3
    assert seen, "no member had started a process of its own: the test pins nothing"
    assert _all_gone(backend.last_pids)
    assert _all_gone(seen)
    assert _alive_in_groups(backend.last_pids) == []


@needs_hermax
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to list processes")
def test_time_limit_returns_best_incumbent_and_kills_everything():
    """No member proves :func:`unprovable_model` (not in minutes): the answer comes -- a portfolio
    that ignored its limit would not answer -- as the cheapest verified incumbent (or
    UNKNOWN), and every member process group is gone.  Its wall time is measured by
    ``benchmarks/bench_time_limits.py --suite``."""
    model = unprovable_model()
    backend = PortfolioBackend(backends=[("hermax", {"engine": "uwrmaxsat"}),
                                         ("hermax", {"engine": "evalmaxsat"})])
    sol = backend.solve(model, time_limit=2.0)
    assert sol.status in (Status.FEASIBLE, Status.UNKNOWN)
    if sol.status.is_feasible:
        assert model.evaluate(sol.values) and sol.cost == model.cost(sol.values)
    assert _all_gone(backend.last_pids)
    assert _alive_in_groups(backend.last_pids) == []


def test_unsat_is_a_proof():
    """UNSATISFIABLE from a member ends the race as a proven answer."""
    m = Model()
    x = m.new_var("x")
    m.add_hard([x])
    m.add_hard([-x])
    sol = registry.solve(m, backend="portfolio", backends=["bruteforce"])
    assert sol.status is Status.UNSATISFIABLE


def test_member_errors_are_reported():
    """A member that raises (bruteforce over 20 variables) gives Status.ERROR with its message."""
    m = Model()
    xs = m.new_vars("x", 25)
    m.add_soft_units(xs, 1)
    sol = registry.solve(m, backend="portfolio", backends=["bruteforce"], time_limit=20)
    assert sol.status is Status.ERROR and "20 variables" in sol.message


def test_members_are_validated():
    """Unknown members and the portfolio itself are refused; missing engines name the install."""
    with pytest.raises(EncodingError):
        PortfolioBackend(backends=["nosuch"])
    with pytest.raises(EncodingError):
        PortfolioBackend(backends=["portfolio"])
    with pytest.raises(EncodingError):
        PortfolioBackend(backends=[])


def test_missing_member_engine(monkeypatch):
    """A member whose engine is absent raises BackendUnavailableError with the install line."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "highspy" else real(name, *a))
    with pytest.raises(BackendUnavailableError, match=r"pip install highspy"):
        PortfolioBackend(backends=["highs"])
    assert all(name != "highs" for name, _ in PortfolioBackend().members)


def test_verified_assignment_refutes_an_unsat_claim():
    """If one member returns a verified assignment, another member's UNSAT claim is not
    returned (the answer is the feasible one, never UNSATISFIABLE)."""
    m = Model()
    x = m.new_var("x")
    m.add_soft([x], 2)
    backend = PortfolioBackend(backends=["bruteforce"])
    feasible = {"status": "FEASIBLE", "values": [False, True], "reported_cost": 0,
                "lower_bound": None, "engine": "e1", "engine_version": "", "message": ""}
    unsat = {"status": "UNSATISFIABLE", "values": None, "reported_cost": None,
             "lower_bound": None, "engine": "e2", "engine_version": "", "message": ""}
    sol = backend._choose(m, [("a", feasible), ("b", unsat)], 0.0, None)
    assert sol.status is Status.FEASIBLE and sol.cost == 0 and sol["x"]


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to list processes")
def test_interrupt_right_after_a_member_starts_still_kills_it(monkeypatch):
    """A KeyboardInterrupt (Ctrl-C, or SIGTERM at the CLI) that arrives just after a member
    process started -- here raised when the thread that sends it the model starts --
    still kills the member and removes the scratch directory.  Before the member was
    recorded first, it escaped the clean-up and, not daemonic, stayed blocked reading the
    model it was never sent."""
    import tempfile
    import threading

    import satrules.backends.portfolio as pf

    started, scratch = [], []
    real_start = pf.start_child
    real_mkdtemp = tempfile.mkdtemp

    def start_child(*args):
        child, conn = real_start(*args)
        started.append(child.pid)
        return child, conn

    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    def mkdtemp(*args, **kwargs):
        scratch.append(real_mkdtemp(*args, **kwargs))
        return scratch[-1]

    monkeypatch.setattr(pf, "start_child", start_child)
    monkeypatch.setattr(threading.Thread, "start", interrupted)
    monkeypatch.setattr(pf.tempfile, "mkdtemp", mkdtemp)
    model = Model()
    model.add_soft([model.new_var("x")], weight=1)
    backend = PortfolioBackend(backends=[("rc2", {}), ("rc2", {})])
    with pytest.raises(KeyboardInterrupt) as kept:   # kept: the traceback holds the pipe
        backend.solve(model, time_limit=30)
    monkeypatch.undo()
    assert len(started) == 1, "the interrupt came before or after the first member started"
    assert _all_gone(started), kept.typename
    assert scratch and not Path(scratch[0]).exists()


def test_hint_by_variable_name_reaches_the_members():
    """A hint keyed by variable names (as every backend takes it) reaches the members as
    variable ids: their models are plain arrays without names, so each member raised
    KeyError and the portfolio answered ERROR before."""
    m = Model()
    xs = m.new_vars("x", 3)
    m.add_hard(xs)
    m.add_soft([-xs[0]], 2)
    m.add_soft([-xs[1]], 1)
    sol = registry.solve(m, backend="portfolio", backends=["rc2", "cpsat"],
                         hint={("x", 1): True, ("x", 0): False}, time_limit=600)
    assert sol.status is Status.OPTIMAL and sol.cost == 0, sol.message
