"""Child processes that run a satrules function without re-running the caller's script.

The hermax backend (for the engines it runs out of process) and the portfolio
backend solve in child processes.  multiprocessing's ``spawn`` start method,
used until 2026-12-03, imports the parent's ``__main__`` again in every child: a
user's script without an ``if __name__ == "__main__":`` guard ran a second time in
each engine process -- printing twice, repeating its work, and failing with
multiprocessing's ``RuntimeError`` when it reached its next solve, so the engine
was reported dead (and a portfolio raised ``ConnectionResetError``); a script
piped to ``python -`` could not start one at all.  :func:`start` starts a fresh
interpreter that imports only what the function needs, with the parent's
``sys.path``, and talks to it over a socket pair wrapped in
:class:`multiprocessing.connection.Connection` (so ``send``/``recv``/``poll`` and
:func:`multiprocessing.connection.wait` work as before).  The call arrives as JSON
(nothing is unpickled to start a child); what the two then exchange is each
backend's business (the portfolio's members answer in JSON).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.spawn import get_executable
from typing import Any

__all__ = ["Child", "DIE_WITH_PARENT_SOURCE", "die_with_parent", "start"]

#: :func:`die_with_parent` as Python source, for processes that cannot import satrules
#: (hermax's worker, the launcher of an external solver): the name ``parent`` must hold
#: the parent's pid.  ``PR_SET_PDEATHSIG`` is kept across an exec.
DIE_WITH_PARENT_SOURCE = """\
try:
    import ctypes, os
    if ctypes.CDLL(None).prctl(1, 9, 0, 0, 0) == 0 and os.getppid() != parent:
        os._exit(1)   # 1 = PR_SET_PDEATHSIG, 9 = SIGKILL; the parent died before it took
except (OSError, AttributeError):   # no libc prctl: not Linux
    pass
"""

#: What the child runs: read the parent's ``sys.path``, ask to die with the parent, then
#: read the call and make it.
_BOOT = """\
import json, sys
from multiprocessing.connection import Connection
conn = Connection(int(sys.argv[1]))
sys.path[:] = json.loads(conn.recv_bytes())
from satrules.backends._child import die_with_parent
die_with_parent(int(sys.argv[2]))
import importlib
module, name, args = json.loads(conn.recv_bytes())
getattr(importlib.import_module(module), name)(conn, *args)
"""


class Child:
    """A started child process, with the parts of ``multiprocessing.Process`` used here.

    ``pid``, :meth:`is_alive`, :meth:`kill`, :meth:`join` and :attr:`exitcode`
    (negative: killed by that signal) behave as ``multiprocessing.Process``'s.
    """

    def __init__(self, popen: subprocess.Popen):
        self._popen = popen
        self.pid = popen.pid

    def is_alive(self) -> bool:
        return self._popen.poll() is None

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self._popen.kill()

    def join(self, timeout: float | None = None) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._popen.wait(timeout)

    @property
    def exitcode(self) -> int | None:
        return self._popen.poll()


def start(target: Callable[..., Any], args: tuple = ()) -> tuple[Child, Connection]:
    """Run ``target(conn, *args)`` in a fresh Python process; return it and the parent's end.

    ``target`` must be a module-level function of an importable module, and
    ``args`` plain data that JSON carries (strings, numbers, booleans, None, lists,
    dicts with string keys; tuples arrive as lists, paths as strings).  Only
    ``target``'s module (and what it imports) is loaded in the child, never the
    caller's ``__main__``.  Standard input is
    ``/dev/null``; output is the parent's.  The child leads a new session (and process
    group) from its first instruction, so a Ctrl-C at a terminal, which reaches the
    whole foreground process group, reaches only the parent, which kills its children
    as the interrupt unwinds it (before, a child still starting printed its own
    ``KeyboardInterrupt`` traceback, or "can't initialize signals", under the parent's).
    On Linux the child is killed if the parent dies, even by SIGKILL
    (:func:`die_with_parent`).
    A child that died before it read the call shows as a closed pipe to the
    caller's ``recv``; if sending the call is interrupted, the child is killed
    before the interrupt goes on.

    Examples
    --------
    >>> child, conn = start(_echo_pid)
    >>> int(conn.recv_bytes()) == child.pid
    True
    >>> child.join(); conn.close(); child.exitcode
    0
    """
    call = json.dumps([target.__module__, target.__qualname__, list(args)],
                      default=_plain).encode()   # before any process starts
    mine, theirs = socket.socketpair()
    try:
        # the interpreter multiprocessing would use (multiprocessing.set_executable works)
        popen = subprocess.Popen([get_executable(), "-c", _BOOT, str(theirs.fileno()),
                                  str(os.getpid())],
                                 pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                                 start_new_session=True)
    except BaseException:
        mine.close()
        raise
    finally:
        theirs.close()
    child, conn = Child(popen), Connection(mine.detach())
    try:
        conn.send_bytes(json.dumps(list(sys.path)).encode())
        conn.send_bytes(call)
    except OSError:   # the child already died: the caller's recv reports it
        pass
    except BaseException:
        child.kill()
        child.join()
        conn.close()
        raise
    return child, conn


def die_with_parent(parent: int) -> None:
    """Have Linux SIGKILL this process when ``parent`` dies, even by SIGKILL (no clean-up).

    ``prctl(PR_SET_PDEATHSIG)``; elsewhere a no-op.  Processes this one starts itself
    are not covered (the parent's normal clean-up kills them).
    """
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) != 0:  # 1 = PR_SET_PDEATHSIG
            return
    except (OSError, AttributeError):  # no libc prctl: not Linux
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def _plain(value: Any) -> str:
    """JSON for what it does not carry itself: a path as its string, else a clear error."""
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    raise TypeError(f"cannot send a {type(value).__name__} to a child process: its arguments "
                    "must be plain data (strings, numbers, lists, dicts)")


def _echo_pid(conn: Connection) -> None:
    """Send this process's pid (the example of :func:`start`)."""
    conn.send_bytes(str(os.getpid()).encode())
    conn.close()
