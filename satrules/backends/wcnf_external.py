"""Run any MaxSAT-Evaluation-style solver binary on a temporary WCNF file.

The backend writes the (lowered) model to a WCNF file in a private temporary
directory, starts the solver *without a shell* (an argument list; the file path
is appended, or substituted for ``{file}``), reads its standard output
incrementally with bounded memory, enforces the wall-clock ``time_limit``
(SIGTERM to the solver's process group, then SIGKILL after ``grace`` seconds)
and parses the answer as in ALGORITHMS.md §7.3:

* ``s OPTIMUM FOUND`` -> OPTIMAL, ``s SATISFIABLE`` -> FEASIBLE,
  ``s UNSATISFIABLE`` -> UNSATISFIABLE; ``s UNKNOWN`` or no ``s`` line ->
  FEASIBLE when a ``v`` line was read, else UNKNOWN;
* contradictory output -- ``s UNSATISFIABLE`` together with a ``v`` line -- is
  an ERROR whose message says whether the printed model satisfies the hard
  clauses (then it refutes the claim);
* a claim is trusted only when the exit code does not contradict it: 0, or
  the MSE-family code that confirms it (30 optimum, 10 satisfiable, 20
  unsatisfiable).  After any other exit an OPTIMUM answer is FEASIBLE and an
  UNSATISFIABLE claim UNKNOWN, with the exit code in the message;
* ``v`` lines in both forms: one string of ``0``/``1`` characters (character
  ``i`` is variable ``i + 1``), or signed literals, possibly over several lines
  (unmentioned variables are false; ``v 1`` / ``v -2`` / ``v -3 0`` is one
  signed model);
* the ``o`` value printed before the model is kept as ``reported_cost``; the
  cost is always recomputed by the IR, and a disagreement is an ERROR.

The solver runs in the caller's working directory (relative paths in its
command work), with ``TMPDIR`` set to the private temporary directory.

Every failure -- missing or non-executable binary, a crash,
a wrong-length or out-of-range ``v`` line, an ``o`` that disagrees with the
model's cost, garbage output -- becomes ``Status.ERROR`` with a message saying
what happened (``FEASIBLE`` when a valid model was still read).  The child
process group is killed and the temporary directory removed in every case,
including a ``KeyboardInterrupt`` in the caller, which is re-raised.  Processes
the solver started that left its process group (``setsid()``) are found
through ``/proc`` and killed as well; any that cannot be killed are named in
the message.  On Linux the solver also dies with the caller when the caller is killed
outright (SIGKILL), through the parent-death signal its launcher sets
(:func:`_launch_argv`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.spawn import get_executable
from typing import Any

import numpy as np

from satrules.backends._child import DIE_WITH_PARENT_SOURCE
from satrules.backends._procs import MARKER, Tracker, format_pids
from satrules.backends.base import BackendBase
from satrules.exceptions import BackendError, EncodingError
from satrules.ir import Model, Solution, Status, lower, make_solution
from satrules.ir.wcnf import FORMATS, write_wcnf

__all__ = ["ExternalWCNFBackend", "parse_solver_output"]

#: Default cap on one line of solver output (16 MiB, a signed v line of about two
#: million variables); longer lines are discarded, which bounds memory.
MAX_LINE_BYTES = 1 << 24
_STDERR_TAIL = 2000
_READ_SIZE = 1 << 16
_AFTER_KILL = 1.0  # seconds to drain output after SIGKILL before giving up on the pipe
_AFTER_EXIT = 0.5  # seconds the output may stay open after the solver itself exited
_POLL = 0.2  # how often a silent solver is checked for having exited

_STATUS = {
    "OPTIMUM FOUND": Status.OPTIMAL,
    "SATISFIABLE": Status.FEASIBLE,
    "UNSATISFIABLE": Status.UNSATISFIABLE,
    "UNKNOWN": Status.UNKNOWN,
}


class _OutputParser:
    """Incremental parser of MSE solver output that keeps only the latest answer.

    Memory is bounded: a line longer than ``max_line_bytes`` is discarded
    (and noted), and multi-line signed ``v`` output is capped at
    ``max_v_lits`` literals.
    """

    def __init__(self, max_line_bytes: int = MAX_LINE_BYTES, max_v_lits: int | None = None):
        self.max_line_bytes = max_line_bytes
        self.max_v_lits = max_v_lits
        self.status: str | None = None
        self.o: int | None = None  # latest o value
        self.v_o: int | None = None  # the o value printed before the latest model
        self.v_bits: bytes | None = None
        self.v_chunks: list[np.ndarray] = []
        self.v_kind: str | None = None  # "bits" or "lits"
        self.v_error: str | None = None
        self.notes: list[str] = []
        self.garbage: list[str] = []
        self.n_garbage = 0
        self._buf = bytearray()
        self._skipping = False
        self._closed = False  # the current model is complete: the next v line starts anew
        self._pending: list[bytes] = []  # 0/1-only v bodies of this model that may be literals

    @property
    def seen_anything(self) -> bool:
        return self.status is not None or self.o is not None or self.v_kind is not None

    def feed(self, data: bytes) -> None:
        start = 0
        while True:
            nl = data.find(b"\n", start)
            if nl < 0:
                if not self._skipping:
                    self._buf += data[start:]
                    if len(self._buf) > self.max_line_bytes:
                        self._overlong(self._buf)
                return
            piece = data[start:nl]
            start = nl + 1
            if self._skipping:
                self._skipping = False
                continue
            if self._buf:
                self._buf += piece
                line = bytes(self._buf)
                self._buf.clear()
            else:
                line = piece
            if len(line) > self.max_line_bytes:
                self._overlong(line)
                self._skipping = False
            else:
                self.line(line)

    def _overlong(self, line: bytes | bytearray) -> None:
        is_v = bytes(line[:64]).lstrip()[:1] == b"v"
        self._buf.clear()
        self._skipping = True
        self.notes.append(f"an output line longer than {self.max_line_bytes} bytes was discarded")
        if is_v:
            self.v_kind = "lits"
            self.v_error = f"a v line longer than max_line_bytes ({self.max_line_bytes}) was cut"

    def finish(self, complete: bool) -> None:
        """Handle a last line without a newline; parse it only if the solver exited normally."""
        if self._buf:
            if complete:
                self.line(bytes(self._buf))
            else:
                self.notes.append("output ended in the middle of a line (ignored)")
            self._buf.clear()

    def line(self, line: bytes) -> None:
        parts = line.split(None, 1)
        if not parts:
            return
        tag, rest = parts[0], (parts[1].strip() if len(parts) > 1 else b"")
        if tag == b"c":
            return
        if tag == b"s":
            self.status = rest.decode("ascii", "replace").upper()
        elif tag == b"o":
            try:
                self.o = int(rest)
            except ValueError:
                self.notes.append(f"unparseable o line {line[:60]!r}")
            # a new solution starts: the next v line begins a new model, but the model
            # printed so far stays the answer until one follows (a solver killed right
            # after an o line has printed no model for it)
            self._closed = True
        elif tag == b"v":
            self._v(rest)
        else:
            self.n_garbage += 1
            if len(self.garbage) < 3:
                self.garbage.append(line[:80].decode("ascii", "replace"))

    def _v(self, body: bytes) -> None:
        """Read one ``v`` body: a bit string, or (part of) a signed literal list.

        A body of only ``0``/``1`` characters is ambiguous: ``v 1`` may be the bit
        string of a one-variable model or the literal ``1`` opening a multi-line
        signed model (``v 1`` / ``v -2`` / ``v -3 0``).  It is read as a bit string
        until a signed line follows in the same model, which turns the pending
        ones (those that can be literals: no leading zero, at most 18 digits) back
        into literals.
        """
        if self._closed:
            self._closed, self._pending = False, []
            if self.v_kind == "lits":
                self.v_chunks = []
        if body and not body.strip(b"01") and not (self.v_kind == "lits" and self.v_chunks):
            self.v_kind, self.v_bits, self.v_chunks = "bits", body, []
            self.v_o, self.v_error = self.o, None
            if body[:1] == b"1" and len(body) <= 18:
                self._pending.append(body)
                if self.max_v_lits is not None and len(self._pending) > self.max_v_lits:
                    del self._pending[0]
            else:
                self._pending = []
            return
        try:
            lits = np.array(body.split(), dtype=np.bytes_).astype(np.int64)
        except (ValueError, OverflowError):
            self.v_kind, self.v_error = "lits", f"unparseable v line {body[:60]!r}"
            self._pending = []
            return
        if self.v_kind != "lits" or not self.v_chunks:
            self.v_error = None
            self.v_chunks = []
            if self._pending:  # the bit-string-looking lines before were literals
                self.v_chunks.append(np.array([int(b) for b in self._pending], np.int64))
        self._pending = []
        self.v_kind, self.v_bits, self.v_o = "lits", None, self.o
        self.v_chunks.append(lits[lits != 0])
        if len(lits) and lits[-1] == 0:
            self._closed = True  # the terminating 0: a later v line is a new model
        total = sum(len(c) for c in self.v_chunks)
        if self.max_v_lits is not None and total > self.max_v_lits:
            self.v_chunks = []
            self.v_error = f"v output has more than {self.max_v_lits} literals"

    def values(self, n_vars: int, n_used: int) -> tuple[np.ndarray | None, str | None]:
        """Return ``(values, None)``, ``(None, error)`` or ``(None, None)`` (no v line)."""
        if self.v_error:
            return None, self.v_error
        if self.v_kind == "bits":
            bits = np.frombuffer(self.v_bits, dtype=np.uint8) == ord("1")
            if not n_used <= len(bits) <= n_vars:
                expect = f"{n_vars}" if n_used == n_vars else f"{n_used} to {n_vars}"
                return None, f"v line has {len(bits)} values, expected {expect}"
            values = np.zeros(n_vars + 1, dtype=bool)
            values[1 : len(bits) + 1] = bits
            return values, None
        if self.v_kind == "lits":
            lits = np.concatenate(self.v_chunks) if self.v_chunks else np.zeros(0, np.int64)
            bad = np.abs(lits) > n_vars
            if bad.any():
                return None, (f"v line literal {int(lits[bad][0])} is out of range "
                              f"(the WCNF has {n_vars} variables)")
            values = np.zeros(n_vars + 1, dtype=bool)
            pos = np.zeros(n_vars + 1, dtype=bool)
            neg = np.zeros(n_vars + 1, dtype=bool)
            pos[lits[lits > 0]] = True
            neg[-lits[lits < 0]] = True
            both = np.flatnonzero(pos & neg)
            if len(both):
                return None, f"v line sets variable {int(both[0])} both true and false"
            values[pos] = True
            return values, None
        return None, None


def parse_solver_output(text: str | bytes, n_vars: int, n_used: int | None = None) -> dict:
    """Parse complete MSE solver output; return status, ``o`` value and the model.

    Parameters
    ----------
    text : str or bytes
        What the solver printed.
    n_vars : int
        Variables of the WCNF the solver read.
    n_used : int, optional
        Fewest values a bit-string ``v`` line may have (default ``n_vars``).

    Returns
    -------
    dict
        ``status`` (the ``s`` text or None), ``o`` (the ``o`` value printed
        before the model), ``values`` (bool array indexed by variable, or None)
        and ``error`` (why the ``v`` output was rejected, or None).

    Examples
    --------
    >>> out = parse_solver_output("c hi\\no 5\\no 3\\ns OPTIMUM FOUND\\nv 1 -2\\nv 3 0\\n", 3)
    >>> out["status"], out["o"], out["values"][1:].tolist()
    ('OPTIMUM FOUND', 3, [True, False, True])
    >>> parse_solver_output("s SATISFIABLE\\nv 0110\\n", 3)["error"]
    'v line has 4 values, expected 3'
    """
    if isinstance(text, str):
        text = text.encode()
    parser = _OutputParser(max_v_lits=2 * n_vars + 16)
    parser.feed(text)
    parser.finish(True)
    values, error = parser.values(n_vars, n_vars if n_used is None else n_used)
    return {"status": parser.status, "o": parser.v_o, "values": values, "error": error}


@dataclass
class _Run:
    """What happened to one solver process."""

    argv: list[str]
    pid: int | None = None
    returncode: int | None = None
    timed_out: bool = False
    killed: bool = False
    orphans: bool = False  # the solver exited leaving processes that held its output open
    detached: list[int] = field(default_factory=list)  # killed outside the process group
    survivors: list[int] = field(default_factory=list)  # descendants that could not be killed
    start_error: str | None = None
    stderr: bytearray = field(default_factory=bytearray)

    def describe(self, time_limit: float | None, grace: float) -> str:
        parts = []
        if self.timed_out:
            text = f"time limit of {time_limit:g} s reached: sent SIGTERM"
            parts.append(text + (f", then SIGKILL after {grace:g} s" if self.killed else ""))
        elif self.returncode is not None and self.returncode < 0:
            try:
                name = signal.Signals(-self.returncode).name
            except ValueError:
                name = str(-self.returncode)
            parts.append(f"solver died from signal {name}")
        elif self.returncode:
            parts.append(f"solver exited with code {self.returncode}")
        if self.orphans:
            parts.append("killed processes the solver left running with its output open")
        if self.detached:
            parts.append(f"killed {len(self.detached)} descendant process(es) that had left "
                         f"the solver's process group (pid {format_pids(self.detached)})")
        if self.survivors:
            parts.append(f"{len(self.survivors)} descendant process(es) could not be killed "
                         f"and may still be running (pid {format_pids(self.survivors)})")
        return "; ".join(parts)

    def stderr_tail(self) -> str:
        text = bytes(self.stderr[-_STDERR_TAIL:]).decode("utf-8", "replace").strip()
        return f"; stderr: {text[-300:]}" if text else ""


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


class _GuardedPopen(subprocess.Popen):
    """A ``Popen`` that kills its child when its own constructor is interrupted.

    ``Popen.__init__`` forks, then waits for the exec to succeed; a ``KeyboardInterrupt``
    (or a SIGTERM turned into ``Terminated`` at the CLI) in that window escapes the
    constructor with the child already running, and no caller ever holds the object
    that could kill it: the solver, in a session of its own, ran on as an orphan.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().__init__(*args, **kwargs)
        except BaseException:
            # a child that failed to exec has been reaped (returncode set) by Popen
            if getattr(self, "_child_created", False) and self.returncode is None:
                _signal_group(self.pid, signal.SIGKILL)
                with contextlib.suppress(OSError):  # before its setsid: not a group yet
                    os.kill(self.pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(self.pid, 0)
                self.returncode = -signal.SIGKILL
            raise


#: First bytes on the solver's standard error when :data:`_LAUNCH` could not exec it.
_LAUNCH_FAILED = b"satrules-launch-failed:"   # also written out in _LAUNCH
#: What starts the solver on Linux (:func:`_launch_argv`): ask Linux to SIGKILL the process
#: when the thread that started it dies -- kept across the exec, so the solver itself dies
#: with its caller, even one killed by SIGKILL -- then become the solver.  Python ignores
#: SIGPIPE and SIGXFSZ, which an exec would pass on; ``Popen`` restores them, so does this.
#: Imports only the standard library (``-S``: no site packages are read).
_LAUNCH = "import os, signal, sys\nparent = int(sys.argv[1])\n" + DIE_WITH_PARENT_SOURCE + """\
for name in ("SIGPIPE", "SIGXFSZ"):
    if hasattr(signal, name):
        signal.signal(getattr(signal, name), signal.SIG_DFL)
try:
    os.execvp(sys.argv[2], sys.argv[2:])
except OSError as exc:
    os.write(2, b"satrules-launch-failed:%d %s" % (exc.errno, os.fsencode(exc.strerror or "")))
    os._exit(127)
"""


def _launch_argv(args: list[str]) -> list[str]:
    """The command that starts ``args`` so that the solver dies with this process.

    On Linux the solver is started through :data:`_LAUNCH` (about 25 ms): its pid, process
    group, session and output are the solver's own after the exec, so nothing else
    changes; processes the solver starts itself are not covered (the caller's clean-up
    kills them, unless the caller itself is killed).  Elsewhere, or without a Python
    executable to run it, ``args`` unchanged.
    """
    executable = get_executable()   # the interpreter multiprocessing would use, like _child's
    if not sys.platform.startswith("linux") or not executable:
        return args
    return [executable, "-S", "-c", _LAUNCH, str(os.getpid()), *args]


def _launch_error(run: _Run, program: str) -> str | None:
    """The start error :data:`_LAUNCH` reported (it could not exec ``program``), if any."""
    if run.returncode != 127 or not run.stderr.startswith(_LAUNCH_FAILED):
        return None
    code, _, text = bytes(run.stderr[len(_LAUNCH_FAILED):]).decode(
        "utf-8", "replace").partition(" ")
    return _start_error(program, int(code) if code.isdigit() else None,
                        f"[Errno {code}] {text}")


def _start_error(program: str, code: int | None, detail: str) -> str:
    """The message for a solver that could not be started (``code``: its ``errno``)."""
    if code == errno.ENOENT:
        return f"solver not found: {program!r}"
    if code == errno.EACCES:
        return f"solver is not executable (permission denied): {program!r}"
    return f"cannot start solver {program!r}: {detail}"


def _drain(stream, sink: bytearray) -> None:
    """Read ``stream`` to EOF keeping only the last bytes (runs in a thread)."""
    while True:
        chunk = stream.read1(_READ_SIZE) if hasattr(stream, "read1") else stream.read(_READ_SIZE)
        if not chunk:
            return
        sink += chunk
        if len(sink) > 2 * _STDERR_TAIL:
            del sink[:-_STDERR_TAIL]


class ExternalWCNFBackend(BackendBase):
    """Solve with an external MaxSAT solver binary through a temporary WCNF file.

    Parameters
    ----------
    command : list of str or str
        The solver command as an argument list (a string is split with
        :func:`shlex.split`; no shell is ever involved).  The WCNF path is
        appended as the last argument unless an argument contains ``{file}``,
        which is replaced by the path.
    format : {"2022", "legacy"}
        WCNF dialect of the temporary file.
    grace : float
        Seconds between SIGTERM and SIGKILL once the time limit is reached
        (anytime solvers print their best model on SIGTERM).
    max_line_bytes : int
        Longest output line kept (longer lines are discarded, bounding memory).

    Attributes
    ----------
    last_run : dict
        ``pid``, ``tmpdir`` and ``argv`` of the latest run (for diagnostics and
        tests), set as soon as they are known.

    Examples
    --------
    >>> import sys
    >>> from satrules.ir import Model
    >>> m = Model(); x = m.new_var("x"); m.add_soft([x], 4)
    >>> script = "print('o 0'); print('s OPTIMUM FOUND'); print('v 1')"
    >>> sol = ExternalWCNFBackend([sys.executable, "-c", script, "{file}"]).solve(m)
    >>> sol.status.value, sol.cost, sol["x"], sol.reported_cost
    ('OPTIMAL', 0, True, 0)
    """

    name = "wcnf"
    native = frozenset({"clause", "soft"})
    install = "pip install satrules (built in; name the solver with command=[...] or --solver-cmd)"

    def __init__(self, command: Sequence[str] | str | None = None, *, format: str = "2022",
                 grace: float = 2.0, max_line_bytes: int = MAX_LINE_BYTES) -> None:
        super().__init__(command=command, format=format, grace=grace,
                         max_line_bytes=max_line_bytes)
        self.command = command
        self.format = format
        self.grace = grace
        self.max_line_bytes = max_line_bytes
        self.last_run: dict[str, Any] = {}

    @classmethod
    def available(cls) -> bool:
        return True  # a generic runner: the solver binary is given per call

    @classmethod
    def version(cls) -> str:
        return "generic"

    def _argv(self) -> list[str]:
        if self.command is None or (not isinstance(self.command, str) and not self.command):
            raise EncodingError(
                "the 'wcnf' backend needs the solver command: pass command=[...] "
                "(e.g. solve(model, backend='wcnf', command=['rc2.py', '-vv'])) or use "
                "'satrules solve --solver-cmd'"
            )
        argv = shlex.split(self.command) if isinstance(self.command, str) else [
            os.fspath(a) for a in self.command]
        if not argv:
            raise EncodingError("the 'wcnf' backend got an empty solver command")
        if self.format not in FORMATS:
            raise EncodingError(f"unknown WCNF format {self.format!r}; use one of {FORMATS}")
        if not self.grace > 0:
            raise EncodingError(f"grace must be positive seconds, got {self.grace!r}")
        return argv

    def solve(self, model: Model, *, time_limit: float | None = None, seed: int | None = None,
              hint: Mapping | None = None) -> Solution:
        """Write ``model``, run the solver and return its checked answer.

        ``seed`` and ``hint`` are ignored: the MSE command line has no standard for them.
        """
        argv = self._argv()
        start = time.monotonic()
        low = lower(model, keep=self.native)
        tmpdir = tempfile.mkdtemp(prefix="satrules-wcnf-")
        self.last_run = {"tmpdir": tmpdir, "pid": None, "argv": None, "descendants": []}
        try:
            path = os.path.join(tmpdir, "model.wcnf")
            write_wcnf(low, path, format=self.format)
            if any("{file}" in a for a in argv):
                args = [a.replace("{file}", path) for a in argv]
            else:
                args = [*argv, path]
            self.last_run["argv"] = args
            deadline = None if time_limit is None else start + time_limit
            n_vars = low.n_vars
            parser = _OutputParser(self.max_line_bytes, max_v_lits=2 * n_vars + 16)
            run = self._run(args, tmpdir, deadline, parser)
            return self._answer(model, low, parser, run, time_limit,
                                time.monotonic() - start)
        finally:
            shutil.rmtree(tmpdir, ignore_errors=True)

    # -- the process -------------------------------------------------------------
    def _run(self, args: list[str], tmpdir: str, deadline: float | None,
             parser: _OutputParser) -> _Run:
        """Run the solver in the caller's working directory (relative paths in the command
        mean what they meant to the caller) with ``TMPDIR`` set to the private temporary
        directory (scratch files are removed with it) and a marker in its environment
        that its descendants inherit (how detached ones are found: ``backends._procs``).
        """
        run = _Run(argv=args)
        token = f"{os.getpid()}-{os.path.basename(tmpdir)}"
        env = dict(os.environ, TMPDIR=tmpdir, **{MARKER: token})
        try:
            proc = _GuardedPopen(_launch_argv(args), stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, env=env, start_new_session=True,
                                 close_fds=True)
        except OSError as exc:   # where the solver is started without the launcher
            run.start_error = _start_error(args[0], exc.errno, str(exc))
            return run
        # everything after the start is inside the try: a SIGTERM turned into Terminated
        # while the tracker scans /proc or the reader starts (slow on a loaded machine)
        # must still kill the solver (it once survived `pytest -n 4` on two busy cores)
        tracker = reader = None
        try:
            run.pid = self.last_run["pid"] = proc.pid
            tracker = Tracker(proc.pid, token, after_kill=_AFTER_KILL)
            thread = threading.Thread(target=_drain, args=(proc.stderr, run.stderr),
                                      daemon=True)
            thread.start()
            reader = thread   # only a started thread can be joined
            self._pump(proc, parser, deadline, run, tracker)
        except BaseException:  # KeyboardInterrupt included: never leave the solver running
            _signal_group(proc.pid, signal.SIGKILL)
            proc.wait()
            raise
        finally:
            if tracker is not None:
                tracker.scan()  # last look at the solver's children before it is reaped
            if proc.poll() is None:
                _signal_group(proc.pid, signal.SIGKILL)
                proc.wait()
            _signal_group(proc.pid, signal.SIGKILL)  # descendants left in the group
            if tracker is not None:
                run.detached, run.survivors = tracker.kill_all()
                self.last_run["descendants"] = sorted(tracker.known)
            if reader is not None:
                reader.join(timeout=_AFTER_KILL)
            proc.stdout.close()
            if reader is None or not reader.is_alive():  # else a descendant holds the pipe
                proc.stderr.close()
        run.returncode = proc.returncode
        run.start_error = _launch_error(run, args[0])
        parser.finish(complete=run.returncode == 0 and not run.timed_out)
        return run

    def _pump(self, proc: subprocess.Popen, parser: _OutputParser, deadline: float | None,
              run: _Run, tracker: Tracker) -> None:
        """Read output until EOF and exit, enforcing the deadline (SIGTERM, then SIGKILL).

        When the solver exits but its output stays open (a process it started
        holds the pipe), the group is killed after a short drain period.
        """
        fd = proc.stdout.fileno()
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        term_at = kill_at = exit_at = None
        eof = False
        try:
            while True:
                now = time.monotonic()
                if exit_at is None:
                    tracker.scan(every=_POLL / 2)  # learn descendants while the solver lives
                if exit_at is None and proc.poll() is not None:
                    exit_at = now
                if deadline is not None and term_at is None and exit_at is None \
                        and now >= deadline:
                    run.timed_out = True
                    _signal_group(proc.pid, signal.SIGTERM)
                    term_at = now
                if kill_at is None and (
                        (term_at is not None and now >= term_at + self.grace)
                        or (exit_at is not None and now >= exit_at + _AFTER_EXIT)):
                    run.killed = exit_at is None
                    run.orphans = exit_at is not None
                    _signal_group(proc.pid, signal.SIGKILL)
                    kill_at = now
                if kill_at is not None and now >= kill_at + _AFTER_KILL:
                    return  # the pipe is held open outside the group: stop reading
                if eof:
                    if exit_at is not None:
                        return
                    try:
                        proc.wait(self._timeout(now, deadline, term_at, kill_at, exit_at,
                                                _POLL))
                    except subprocess.TimeoutExpired:
                        pass
                    continue
                if sel.select(self._timeout(now, deadline, term_at, kill_at, exit_at, _POLL)):
                    data = os.read(fd, _READ_SIZE)
                    if data:
                        parser.feed(data)
                    else:
                        eof = True
        finally:
            sel.close()

    def _timeout(self, now, deadline, term_at, kill_at, exit_at, cap=None) -> float | None:
        """Seconds until the next event of :meth:`_pump` (``None``: no event pending)."""
        if kill_at is not None:
            wake = kill_at + _AFTER_KILL
        elif term_at is not None:
            wake = term_at + self.grace
        elif exit_at is not None:
            wake = exit_at + _AFTER_EXIT
        else:
            wake = deadline
        timeout = None if wake is None else max(0.0, wake - now)
        if cap is not None and exit_at is None:
            timeout = cap if timeout is None else min(timeout, cap)
        return timeout

    # -- the answer ----------------------------------------------------------------
    def _answer(self, model: Model, low: Model, parser: _OutputParser, run: _Run,
                time_limit: float | None, wall: float) -> Solution:
        engine = _engine_name(run.argv)
        options = {"command": run.argv, "format": self.format, "grace": self.grace,
                   "time_limit": time_limit, "pid": run.pid, "returncode": run.returncode,
                   "timed_out": run.timed_out, "killed": run.killed}
        common = dict(wall_time=wall, backend=self.name, engine=engine,
                      engine_version="", options=options)
        if run.start_error:
            return make_solution(model, Status.ERROR, message=run.start_error, **common)
        what = run.describe(time_limit, self.grace)
        notes = [n for n in [what, *parser.notes] if n]

        def message(*extra: str) -> str:
            return "; ".join([*extra, *notes])

        status_text = parser.status
        status = _STATUS.get(status_text) if status_text is not None else None
        if status_text is not None and status is None:
            return make_solution(model, Status.ERROR, message=message(
                f"unrecognised status line 's {status_text[:40]}'") + run.stderr_tail(), **common)
        n_used = _max_var(low)
        if status is Status.UNSATISFIABLE:
            if parser.v_kind is not None:
                return make_solution(model, Status.ERROR, message=message(
                    _contradiction(model, parser, low.n_vars, n_used)), **common)
            if not _exit_agrees(run, status):
                return make_solution(model, Status.UNKNOWN, message=message(
                    "the solver printed 's UNSATISFIABLE' but did not exit normally, so "
                    "the claim is not trusted") + run.stderr_tail(), **common)
            return make_solution(model, status, message=message(), **common)
        values, error = parser.values(low.n_vars, n_used)
        if error:
            return make_solution(model, Status.ERROR, message=message(
                f"solver printed an invalid v line: {error}"), **common)
        if values is None:
            return self._no_model(model, parser, run, status, message, common)
        status = Status.OPTIMAL if status is Status.OPTIMAL else Status.FEASIBLE
        if status is Status.OPTIMAL and not _exit_agrees(run, status):
            # a solver that failed after printing its answer may not have finished the
            # proof (or printed a stale line): keep the verified model, not the claim
            status = Status.FEASIBLE
            notes.append("the optimality claim is not trusted after that exit")
        try:
            return make_solution(model, status, values[: model.n_vars + 1],
                                 reported_cost=parser.v_o, message=message(), **common)
        except BackendError as exc:
            return make_solution(model, Status.ERROR, message=message(
                f"the solver's answer was rejected by the IR check: {exc}"), **common)

    def _no_model(self, model, parser, run, status, message, common) -> Solution:
        if status in (Status.OPTIMAL, Status.FEASIBLE):
            return make_solution(model, Status.ERROR, message=message(
                f"solver reported 's {parser.status}' but printed no v line (some solvers "
                "print one only when asked, e.g. rc2.py -vv)"), **common)
        if not parser.seen_anything and parser.n_garbage:
            return make_solution(model, Status.ERROR, message=message(
                f"unrecognised solver output ({parser.n_garbage} lines), e.g. "
                f"{parser.garbage[0]!r}") + run.stderr_tail(), **common)
        if not parser.seen_anything and not run.timed_out and run.returncode != 0:
            return make_solution(model, Status.ERROR, message=message(
                "the solver printed no answer") + run.stderr_tail(), **common)
        extra = "no model before the time limit" if run.timed_out else "no model printed"
        return make_solution(model, Status.UNKNOWN, message=message(extra), **common)


#: Exit codes of the MSE-family conventions (Open-WBO ``MaxTypes.h``, Sat4j) that
#: confirm an ``s`` line; ALGORITHMS.md §7.3.  0 confirms anything.
_AGREEING_EXIT = {Status.OPTIMAL: 30, Status.FEASIBLE: 10, Status.UNSATISFIABLE: 20}


def _exit_agrees(run: _Run, status: Status) -> bool:
    """True if the solver's exit code does not cast doubt on the status it printed."""
    return run.returncode in (0, _AGREEING_EXIT.get(status))


def _contradiction(model: Model, parser: _OutputParser, n_vars: int, n_used: int) -> str:
    """Describe output that claims UNSATISFIABLE and prints a model as well."""
    head = "contradictory solver output: it printed 's UNSATISFIABLE' and a model (v line)"
    values, error = parser.values(n_vars, n_used)
    if values is None:
        return f"{head} that is itself invalid ({error})"
    assignment = values[: model.n_vars + 1]
    if model.evaluate(assignment):
        return (f"{head} that satisfies every hard clause (cost {model.cost(assignment)}), "
                "which refutes the UNSATISFIABLE claim")
    return f"{head} that violates a hard clause"


def _max_var(model: Model) -> int:
    """Largest variable occurring in the model's clauses (what a 2022 file tells a solver)."""
    best = 0
    for arr in (model.hard.lits, model.soft.lits):
        if len(arr):
            best = max(best, int(np.abs(arr).max()))
    return best


def _engine_name(argv: list[str]) -> str:
    name = os.path.basename(argv[0])
    if name.startswith("python") and len(argv) > 1 and not argv[1].startswith("-"):
        return os.path.basename(argv[1])
    return name
