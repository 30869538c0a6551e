"""Portfolio backend: race several backends in separate processes on one model.

Each member runs in a child process (a fresh interpreter that never re-runs the
caller's script: :mod:`satrules.backends._child`) that leads a new session and
process group, so that engines which
start processes of their own (hermax's incomplete engines) die with it.  The
model travels as plain arrays (``numpy.savez``, read with ``allow_pickle=False``)
and answers come back as JSON, so nothing is unpickled from a member.  The parent
returns the first proven answer (``OPTIMAL`` or ``UNSATISFIABLE``) or, at the
time limit, the cheapest incumbent any member reported, and kills every
remaining process group before returning -- also when it is interrupted -- and
removes the members' temporary files (each member's ``TMPDIR`` is a private
directory of the parent's).
Whatever a member sends back is re-verified on the original model with
:func:`~satrules.ir.make_solution`.

Timing: members get the time left until the shared deadline (minus a small
margin for reporting) when they start, and the parent waits at most
``time_limit + GRACE`` seconds in total.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from multiprocessing.connection import wait
from typing import Any

import numpy as np

from satrules.backends._child import start as start_child
from satrules.backends.base import BackendBase, hint_values, parse_backend_specs, wait_awake
from satrules.backends.hermax import kill_process_tree
from satrules.exceptions import EncodingError
from satrules.ir import Model, Solution, Status, make_solution
from satrules.ir.constraints import KINDS

__all__ = ["PortfolioBackend", "DEFAULT_MEMBERS", "GRACE"]

#: Members used when ``backends`` is not given (those installed are kept).
DEFAULT_MEMBERS: tuple[Any, ...] = ("rc2", "cpsat", "highs", ("hermax", {"engine": "uwrmaxsat"}))
#: Seconds the parent waits past the time limit for the members' last reports.
GRACE = 1.5
#: Seconds a member keeps in hand to encode and send its answer.
_REPORT_MARGIN = 0.3


def _member_main(conn: Any, name: str, options: dict, deadline: float | None,
                 seed: int | None, hint: list | None,
                 scratch: str | None = None) -> None:
    """Child entry (a new session and process group): read the model, solve, send a
    plain-data answer.

    Temporary files go to ``scratch``, a directory the parent removes: a member is
    killed without warning, so its own clean-up (e.g. the ``wcnf`` backend's
    temporary WCNF file) may never run.
    """
    if scratch is not None:
        os.environ["TMPDIR"] = scratch  # for processes the member starts
        tempfile.tempdir = scratch
    try:
        from satrules.backends.registry import solve

        model = decode_model(conn.recv_bytes())
        if hint is not None:   # [[variable id, value], ...]: the model carries no names
            hint = {int(var): bool(value) for var, value in hint}

        limit = None
        if deadline is not None:
            limit = max(deadline - time.time() - _REPORT_MARGIN, 0.05)
        sol = solve(model, backend=name, time_limit=limit, seed=seed, hint=hint, **options)
        values = None if sol.values is None else "".join("1" if v else "0" for v in sol.values)
        answer = {"status": sol.status.value, "values": values,
                  "reported_cost": sol.reported_cost, "lower_bound": sol.lower_bound,
                  "engine": sol.engine, "engine_version": sol.engine_version,
                  "message": sol.message, "backend": sol.backend}
        conn.send_bytes(json.dumps(answer).encode())
    except Exception as exc:  # reported to the parent as this member's ERROR
        conn.send_bytes(json.dumps({"status": Status.ERROR.value,
                                    "message": f"{type(exc).__name__}: {exc}"}).encode())
    finally:
        conn.close()


def encode_model(model: Model) -> bytes:
    """Return ``model``'s constraints as ``numpy.savez`` bytes (no pickle, no keys).

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); xs = m.new_vars("x", 3); m.add_hard(xs); m.add_soft([-xs[0]], 2**70)
    >>> m.add_cardinality(xs, "<=", 1); m.add_graph(xs, [[0, 1]])
    >>> back = decode_model(encode_model(m))
    >>> back.stats() == m.stats()
    True
    """
    hard, soft = model.hard, model.soft
    cards, graphs = model.cardinalities, model.graphs
    arrays = {
        "n_vars": np.array([model.n_vars], dtype=np.int64),
        "hard_lits": hard.lits, "hard_offsets": hard.offsets,
        "soft_lits": soft.lits, "soft_offsets": soft.offsets,
        # decimal strings keep weights of any size without object arrays
        "soft_weights": np.array([str(w) for w in soft.weight_list()], dtype=np.str_),
        "card_ops": np.array([c.op for c in cards], dtype=np.str_),
        "card_bounds": np.array([c.bound for c in cards], dtype=np.int64),
        "card_sizes": np.array([len(c.lits) for c in cards], dtype=np.int64),
        "card_lits": np.array([lit for c in cards for lit in c.lits], dtype=np.int64),
    }
    for i, graph in enumerate(graphs):
        arrays[f"graph{i}_lits"] = np.array(graph.lits, dtype=np.int64)
        arrays[f"graph{i}_edges"] = np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2)
    arrays["n_graphs"] = np.array([len(graphs)], dtype=np.int64)
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def decode_model(data: bytes) -> Model:
    """Rebuild a model written by :func:`encode_model` (``allow_pickle=False``)."""
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        model = Model()
        model.new_aux(int(z["n_vars"][0]))
        if len(z["hard_offsets"]) > 1:
            model.add_clauses(z["hard_lits"], z["hard_offsets"])
        if len(z["soft_offsets"]) > 1:
            model.add_soft_clauses(z["soft_lits"], [int(w) for w in z["soft_weights"]],
                                   z["soft_offsets"])
        start = 0
        for op, bound, size in zip(z["card_ops"].tolist(), z["card_bounds"].tolist(),
                                   z["card_sizes"].tolist(), strict=True):
            model.add_cardinality(z["card_lits"][start:start + size], op, int(bound))
            start += size
        for i in range(int(z["n_graphs"][0])):
            model.add_graph(z[f"graph{i}_lits"], z[f"graph{i}_edges"])
    return model


def _send_quietly(conn: Any, payload: bytes) -> None:
    # the member may be killed (or the pipe closed) before it reads the model
    with contextlib.suppress(OSError, ValueError, TypeError):
        conn.send_bytes(payload)


def _parse_members(backends: Sequence[Any] | None) -> list[tuple[str, dict]]:
    members = parse_backend_specs(backends, owner="portfolio", default=DEFAULT_MEMBERS)
    if backends is not None and not members:
        raise EncodingError("portfolio needs at least one member backend")
    return members


class PortfolioBackend(BackendBase):
    """Run several backends in parallel processes; keep the first proof or the best incumbent.

    Parameters
    ----------
    backends : sequence, optional
        Member backends: names or ``(name, options)`` pairs, e.g.
        ``["rc2", ("hermax", {"engine": "cashwmaxsat"}), ("highs", {"graph": "pairwise"})]``.
        Default: the installed ones among :data:`DEFAULT_MEMBERS`.

    Attributes
    ----------
    last_pids : list of int
        Process ids (= process-group ids) of the members of the last solve.

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); x = m.new_var("x"); m.add_soft([x], 1); m.add_soft([-x], 3)
    >>> sol = PortfolioBackend(backends=["bruteforce"]).solve(m)
    >>> sol.status.value, sol.cost, sol.backend
    ('OPTIMAL', 1, 'portfolio')
    """

    name = "portfolio"
    native = KINDS
    install = "(built in; members need their own engines)"

    def __init__(self, *, backends: Sequence[Any] | None = None) -> None:
        super().__init__(backends=backends)
        self.members = _parse_members(backends)
        self.last_pids: list[int] = []

    def solve(self, model: Model, *, time_limit: float | None = None, seed: int | None = None,
              hint: Mapping | None = None) -> Solution:
        start = time.perf_counter()
        deadline = None if time_limit is None else time.time() + time_limit
        procs, conns, senders = [], {}, []
        self.last_pids = []
        scratch = tempfile.mkdtemp(prefix="satrules-portfolio-")
        try:
            payload = encode_model(model)
            # by variable id: the members' models (plain arrays) carry no names
            hints = hint_values(model, hint)
            for name, opts in self.members:
                # killed in `finally`, with all it started
                pairs = None if hint is None else [list(p) for p in hints.items()]
                proc, parent = start_child(_member_main,
                                           (name, opts, deadline, seed, pairs, scratch))
                procs.append(proc)   # first: an interrupt from here on still kills it
                conns[parent] = (name, opts)
                self.last_pids.append(proc.pid)
                # the model goes through the pipe from a thread: a large model blocks the
                # writer until the child has started and reads it, and children start slowly
                sender = threading.Thread(target=_send_quietly, args=(parent, payload),
                                          daemon=True)
                sender.start()
                senders.append(sender)
            answers = self._collect(model, conns, deadline)
        finally:
            for proc in procs:
                kill_process_tree(proc)
            for sender in senders:
                sender.join(5)  # a dead member's pipe makes a pending send fail at once
            for conn in conns:
                conn.close()
            shutil.rmtree(scratch, ignore_errors=True)
        return self._choose(model, answers, time.perf_counter() - start, time_limit)

    def _collect(self, model: Model, conns: dict, deadline: float | None) -> list[tuple]:
        """Gather answers until one is proven, all have answered, or the deadline passes."""
        answers: list[tuple] = []
        pending = set(conns)
        while pending:
            timeout = None if deadline is None else max(deadline + GRACE - time.time(), 0.0)
            ready = wait_awake(functools.partial(wait, list(pending)), timeout)
            if not ready:
                break
            for conn in ready:
                pending.discard(conn)
                name, _ = conns[conn]
                try:
                    raw = json.loads(conn.recv_bytes())
                    if raw.get("values") is not None:
                        raw["values"] = np.frombuffer(raw["values"].encode(), np.uint8) == 49
                except (EOFError, ConnectionError):   # closed, or reset by a dead member
                    raw = {"status": Status.ERROR.value, "message": "member process died"}
                answers.append((name, raw))
                if raw["status"] in (Status.OPTIMAL.value, Status.UNSATISFIABLE.value):
                    return answers
        return answers

    def _choose(self, model: Model, answers: list[tuple], wall: float,
                time_limit: float | None) -> Solution:
        common = dict(backend=self.name, wall_time=wall,
                      options={"backends": [[n, o] for n, o in self.members],
                               "time_limit": time_limit})
        checked = []
        for name, raw in answers:
            status = Status(raw["status"])
            if status.is_feasible or status is Status.UNSATISFIABLE:
                # re-verify in the parent: a member's answer is a claim like any engine's
                sol = make_solution(model, status, raw["values"],
                                    reported_cost=raw["reported_cost"],
                                    lower_bound=raw["lower_bound"],
                                    engine=f"{name}: {raw['engine']}",
                                    engine_version=raw["engine_version"],
                                    message=f"won by {name}", **common)
                checked.append(sol)
        feasible = [s for s in checked if s.status.is_feasible]
        # a verified assignment refutes any member's UNSATISFIABLE claim
        proven = [s for s in checked if s.status is Status.OPTIMAL
                  or (s.status is Status.UNSATISFIABLE and not feasible)]
        if proven:
            return proven[0]
        notes = "; ".join(f"{n}: {r['status']} {r.get('message', '')}".strip()
                          for n, r in answers)
        if feasible:
            best = min(feasible, key=lambda s: s.cost)
            bounds = [s.lower_bound for s in checked if s.lower_bound is not None]
            lower = max(bounds) if bounds else None
            status = Status.OPTIMAL if lower == best.cost else Status.FEASIBLE
            return make_solution(model, status, best.values, lower_bound=lower,
                                 engine=best.engine, engine_version=best.engine_version,
                                 message=f"best incumbent ({best.engine}); {notes}", **common)
        errors = [r for _, r in answers if r["status"] == Status.ERROR.value]
        status = Status.ERROR if errors and len(errors) == len(answers) == len(self.members) \
            else Status.UNKNOWN
        return make_solution(model, status, message=notes or "no member answered in time",
                             **common)
