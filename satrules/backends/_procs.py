"""Find and kill every process an external solver started, also detached ones (Linux ``/proc``).

A solver started with ``start_new_session`` leads its own session and process
group, so one ``killpg`` reaches the processes it starts -- unless one of them
calls ``setsid()`` or ``setpgid()``.  :class:`Tracker` follows such processes by
parent links (while the solver lives), session id, and a marker variable every
descendant inherits in its environment.  Without ``/proc`` (not Linux) it finds
nothing and the process-group kill is all there is.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Sequence

__all__ = ["MARKER", "Tracker", "format_pids"]

#: Environment variable set for the solver; its descendants inherit it unless they clear it.
MARKER = "SATRULES_SOLVER_RUN"


def format_pids(pids: Sequence[int]) -> str:
    return ", ".join(map(str, sorted(pids)[:10])) + (", ..." if len(pids) > 10 else "")


def _proc_table() -> dict[int, tuple[int, int, int, int]]:
    """``pid -> (ppid, process group, session, start time)`` of live processes (``/proc``)."""
    table = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return table
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        # the command name may hold spaces and parentheses: split after the last ")"
        fields = stat.rsplit(b")", 1)[-1].split()
        if len(fields) > 19 and fields[0] not in (b"Z", b"X"):
            table[int(entry)] = (int(fields[1]), int(fields[2]), int(fields[3]),
                                 int(fields[19]))
    return table


def _has_marker(pid: int, marker: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return marker in fh.read().split(b"\0")
    except OSError:  # gone, or another user's process (not ours to kill)
        return False


class Tracker:
    """Find every process the solver started, also those that left its process group.

    A descendant is a process whose parent is the solver or a known descendant, or
    that is in the solver's session (``start_new_session`` makes the solver a session
    leader).  A process that calls ``setsid()`` and is orphaned when the solver exits
    loses both links, so :meth:`scan` runs while the solver lives, and the final scan
    also recognises the marker variable every descendant inherits in its environment.
    A process that detaches between two scans *and* clears its environment cannot be
    found; :meth:`kill_all` reports the descendants it could not kill.
    """

    def __init__(self, root: int, token: str, after_kill: float = 1.0) -> None:
        self.root = root
        self.after_kill = after_kill
        self.marker = f"{MARKER}={token}".encode()
        self.known: dict[int, int] = {}  # pid -> start time (guards against pid reuse)
        self._last = -1e9
        self._cost = 0.0  # seconds the last full scan took
        # descendants start after the solver: only younger processes' environments are read
        self._born = _proc_table().get(root, (0, 0, 0, 0))[3]

    def scan(self, every: float = 0.0, environ: bool = False) -> dict:
        """Add the solver's descendants to :attr:`known`; return the process table.

        Skipped (returning ``{}``) if the last scan is less than ``every`` seconds old,
        or less than 20 times its own duration: a host with thousands of processes
        is scanned less often, so scanning never takes more than about 5% of a core.
        """
        now = time.monotonic()
        if now - self._last < max(every, 20 * self._cost if every else 0.0):
            return {}
        self._last = now
        table = _proc_table()
        self._cost = time.monotonic() - now
        me = os.getpid()
        roots = {self.root, *self.known}
        marked = set()
        if environ:
            marked = {pid for pid, (_, _, _, start) in table.items()
                      if start >= self._born and pid not in roots and pid != me
                      and _has_marker(pid, self.marker)}
        grew = True
        while grew:
            grew = False
            for pid, (ppid, _, sid, start) in table.items():
                if pid in roots or pid == me:
                    continue
                if ppid in roots or sid == self.root or pid in marked:
                    self.known[pid] = start
                    roots.add(pid)
                    grew = True
        return table

    def kill_all(self) -> tuple[list[int], list[int]]:
        """SIGKILL every descendant still alive; return ``(detached, survivors)``.

        ``detached`` are the killed ones outside the solver's process group (which the
        group kill alone would have missed).
        """
        killed: set[int] = set()
        detached: set[int] = set()  # outside the solver's group: only this kill reached them
        denied: set[int] = set()
        for _ in range(3):  # a descendant may fork while the others are being killed
            table = self.scan(environ=True)
            targets = [pid for pid, start in self.known.items()
                       if pid in table and table[pid][3] == start]
            if not targets:
                break
            for pid in targets:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed.add(pid)
                    if table[pid][1] != self.root:
                        detached.add(pid)
                except ProcessLookupError:
                    pass
                except PermissionError:  # e.g. a setuid helper: say so, never claim it died
                    denied.add(pid)
        wait_until = time.monotonic() + self.after_kill
        survivors = list(killed)
        while survivors and time.monotonic() < wait_until:
            table = _proc_table()
            survivors = [pid for pid in survivors
                         if pid in table and table[pid][3] == self.known[pid]]
            if survivors:
                time.sleep(0.02)
        return sorted(detached - set(survivors)), sorted(set(survivors) | denied)
