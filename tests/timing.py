"""Waiting for events in tests, a process-liveness check, and a virtual clock.

No test asserts a wall time: CI machines are shared and slow, so a test whose
result depends on how fast the machine is would flake.  A time limit is tested
by what it must cause, which load cannot change:

* the engine or solver process is *given* no more than the limit (a recording
  stand-in, or a :class:`VirtualClock` in place of the module's clock);
* a call on a model no machine can finish within the limit answers FEASIBLE or
  UNKNOWN, never a proof -- and a call that ignored its limit would not answer at
  all, which fails the run (``faulthandler_timeout`` in ``pyproject.toml`` then
  prints where it hangs);
* a stand-in engine that blocks until released is still blocked when the call
  answers, so the call did not wait for it.

The wall times themselves (an answer within ``limit + 2 s``) are measured by
``benchmarks/bench_time_limits.py --suite``.

:func:`wait_until` polls for an event (a process gone, a file written).  Its
``patience`` is a give-up for a test that already failed, never a speed bound:
a passing test returns as soon as the event happens.
"""

from __future__ import annotations

import time
from pathlib import Path

#: Seconds :func:`wait_until` polls before it gives up (spent only when the event
#: never comes, i.e. when the test fails anyway).
PATIENCE = 120.0


def wait_until(predicate, patience: float = PATIENCE) -> bool:
    """Poll ``predicate`` every 50 ms until it is true; False if it never was."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())


def alive(pid: int) -> bool:
    """True if ``pid`` is a running (not zombie) process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


class VirtualClock:
    """A stand-in for the :mod:`time` module whose clocks move only as a test says.

    ``monotonic``, ``perf_counter`` and ``time`` read the virtual time and then move
    it on by ``step`` seconds; :meth:`advance` moves it by hand; ``sleep`` moves it
    without waiting.  Set it as a module's ``time`` attribute (``monkeypatch.setattr(
    module, "time", VirtualClock())``) and that module's time checks see exactly the
    time the test scripts, whatever the machine's load.
    """

    def __init__(self, step: float = 0.0, start: float = 1000.0):
        self.now, self.step, self.reads = float(start), float(step), 0

    def _read(self) -> float:
        self.reads += 1
        now = self.now
        self.now += self.step
        return now

    monotonic = perf_counter = time = _read

    def advance(self, seconds: float) -> None:
        self.now += float(seconds)

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)


class HeldClock:
    """A stand-in for the :mod:`time` module whose clocks stand still until ``ready()``.

    From the first reading until ``ready()`` is true, ``monotonic``/``perf_counter``/
    ``time`` return the same instant; then they move with the real monotonic clock.  A
    time limit counted on it starts when the test's fake solver says it is ready
    (handlers installed, model printed), however long a loaded machine took to start
    it; the waits in between still use real time, so nothing spins.
    """

    def __init__(self, ready):
        self.ready, self.held_at, self.released_at = ready, None, None

    def _read(self) -> float:
        real = time.monotonic()
        if self.held_at is None:
            self.held_at = real
        if self.released_at is None:
            if not self.ready():
                return self.held_at
            self.released_at = real
        return self.held_at + (real - self.released_at)

    monotonic = perf_counter = time = _read

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)
