"""Staged backend: run backends one after another in this process, sharing one time limit.

The sequential counterpart of :mod:`satrules.backends.portfolio`.  The first stage
(by default RC2, the fastest prover on the learners' easy partitions) gets a share of
the time limit; if it has not proven the optimum (or infeasibility) by then, the
next stage (by default UWrMaxSat from hermax, which proved the most IMLI/IMLIB
partitions, when hermax is installed) gets half of what is left, and the last (CP-SAT,
which kept the best incumbents on hard IMLI partitions: ``benchmarks/results/engines.md``)
gets the rest, each warm-started with the best assignment found so far (for the
engines that take a hint).  The answer is the cheapest verified
assignment of any stage, with the best lower bound any stage proved; when that bound
reaches the incumbent's cost the answer is OPTIMAL even if no single stage proved it.

Without a time limit the first stage runs to the end.  A complete engine then proves
the optimum and the later stages never run: staging only matters under a limit.
Nothing runs in another process, so there is no start-up cost (which makes the
portfolio a poor choice for the many small models of a partitioned learner).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from satrules.backends.base import (
    BackendBase,
    check_time_limit,
    join_or_stop,
    parse_backend_specs,
    start_daemon,
)
from satrules.exceptions import BackendError, EncodingError
from satrules.ir import Model, Solution, Status, make_solution
from satrules.ir.constraints import KINDS

__all__ = ["StagedBackend", "DEFAULT_STAGES"]

#: Stages used when ``stages`` is not given (the installed ones are kept, in this order).
DEFAULT_STAGES: tuple[Any, ...] = ("rc2", ("hermax", {"engine": "uwrmaxsat"}), "cpsat")
#: Seconds kept in hand after the last stage's limit for an engine's late answer (the
#: watchdogs allow about 1 s, rarely used), merging and verification; at most a tenth of
#: the limit, so that the short limits of partitioned learners keep their search time.
#: The ``time_limit + 2`` s promise itself rests on ``_GIVE_UP``.
_MARGIN = 0.5
_MARGIN_SHARE = 0.1
#: Shortest time a stage is given (when that much is left).  With the limit counted from
#: the call, RC2's 10 % of a learner partition's 1.25 s (0.11 s) no longer sufficed under
#: load, while it proved the same partitions in 0.2-1 s when given them.
_MIN_STAGE = 1.0
#: Seconds past the overall limit after which a stage still running is abandoned (it ends
#: on its own thread): the answer comes within ``time_limit + 2`` s whatever a stage does
#: (issue #12 row 13: 8.1 s for a 5 s limit; hermax took 24.9 s of a 9 s share).
_GIVE_UP = 1.5


def _parse_stages(stages: Sequence[Any] | None) -> list[tuple[str, dict]]:
    parsed = parse_backend_specs(stages, owner="staged", default=DEFAULT_STAGES)
    if not parsed:
        if stages is None:
            raise EncodingError("staged: none of the default stages (rc2, hermax, cpsat) is "
                                "installed")
        raise EncodingError("staged needs at least one stage backend")
    return parsed


class StagedBackend(BackendBase):
    """Run backends in sequence within one time limit; keep the best answer and bound.

    Parameters
    ----------
    stages : sequence, optional
        Stage backends, in order: names or ``(name, options)`` pairs, e.g.
        ``["rc2", ("hermax", {"engine": "uwrmaxsat"})]``.  Default: the installed ones
        among :data:`DEFAULT_STAGES` (RC2, then hermax's UWrMaxSat, then CP-SAT).  A stage
        whose engine cannot represent the model's total soft weight exactly
        (:data:`~satrules.backends.registry.WEIGHT_LIMITS`) is skipped.
    first_share : float, default 0.1
        Fraction of ``time_limit`` given to the first stage, in (0, 1].  Each later
        stage gets an equal part of what is left when it starts, the last one all of it.

    Notes
    -----
    Each stage's answer is verified by the IR before it is merged, and the merged answer
    is verified again.  ``Solution.engine`` lists the stages that ran; ``message`` gives
    each one's status and time.

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); x = m.new_var("x"); m.add_soft([x], 1); m.add_soft([-x], 3)
    >>> sol = StagedBackend(stages=["bruteforce"]).solve(m, time_limit=5)
    >>> sol.status.value, sol.cost, sol.backend
    ('OPTIMAL', 1, 'staged')
    """

    name = "staged"
    native = KINDS
    install = "(built in; stages need their own engines)"

    def __init__(self, *, stages: Sequence[Any] | None = None, first_share: float = 0.1) -> None:
        if isinstance(first_share, bool) or not isinstance(first_share, (int, float)) or not (
                0 < first_share <= 1):
            raise EncodingError(f"first_share must be a number in (0, 1], got {first_share!r}")
        super().__init__(stages=stages, first_share=float(first_share))
        self.stages = _parse_stages(stages)

    @classmethod
    def available(cls) -> bool:
        try:
            _parse_stages(None)
        except EncodingError:
            return False
        return True

    def solve(self, model: Model, *, time_limit: float | None = None, seed: int | None = None,
              hint: Mapping | None = None) -> Solution:
        """Run the stages in order until one proves its answer or the time is used up."""
        from satrules.backends.registry import WEIGHT_LIMITS, get_backend

        start = time.perf_counter()
        time_limit = check_time_limit(time_limit)  # inf: no limit
        weight_sum = model.soft_weight_sum()
        stages = [(n, o) for n, o in self.stages if weight_sum <= WEIGHT_LIMITS.get(n, weight_sum)]
        if not stages:
            raise EncodingError(f"staged: the soft weights sum to {weight_sum}, beyond what every "
                                f"stage ({', '.join(n for n, _ in self.stages)}) represents")
        deadline = None if time_limit is None else start + time_limit
        best: Solution | None = None
        bound: int | None = None
        ran, notes, statuses = [], [], []
        for i, (name, opts) in enumerate(stages):
            limit = None
            if deadline is not None:
                left = deadline - time.perf_counter() - min(_MARGIN, _MARGIN_SHARE * time_limit)
                if left <= 0.01:
                    break
                rest = len(stages) - i
                share = self.options["first_share"] if i == 0 else 1.0 / rest
                # at least _MIN_STAGE s (or all that is left): a share of a short limit is
                # too little for any engine once building its model counts against it
                limit = left if rest == 1 else max(left * share, min(left, _MIN_STAGE))
            stage_hint = hint if best is None else best.assignment  # warm start
            backend = get_backend(name)(**opts)
            sol = _run_stage(lambda b=backend, lim=limit, h=stage_hint: b.solve(
                model, time_limit=lim, seed=seed, hint=h), deadline)
            if sol is None:
                ran.append(name)
                notes.append(f"{name}: abandoned {_GIVE_UP:g} s past the time limit")
                break
            ran.append(sol.engine or name)
            statuses.append(sol.status)
            notes.append(f"{name}: {sol.status.value} in {sol.wall_time:.2f} s"
                         + ("" if sol.cost is None else f", cost {sol.cost}")
                         + ("" if sol.lower_bound is None else f", bound {sol.lower_bound}"))
            if sol.status is Status.UNSATISFIABLE and best is not None:
                raise BackendError(f"staged: {name} claims UNSATISFIABLE, but an earlier stage "
                                   f"found a verified assignment of cost {best.cost}")
            if sol.status in (Status.OPTIMAL, Status.UNSATISFIABLE):
                return self._finish(model, sol.status, sol, sol.lower_bound, start, ran, notes)
            if sol.lower_bound is not None:
                bound = sol.lower_bound if bound is None else max(bound, sol.lower_bound)
            if sol.status is Status.FEASIBLE and (best is None or sol.cost < best.cost):
                best = sol
            if best is not None and bound is not None and bound >= best.cost:
                break  # the stages' bounds together prove the incumbent optimal
        if best is None:
            errors = statuses and all(st is Status.ERROR for st in statuses)
            status = Status.ERROR if errors else Status.UNKNOWN
            return self._finish(model, status, None, bound, start, ran, notes)
        status = Status.OPTIMAL if bound is not None and bound >= best.cost else Status.FEASIBLE
        return self._finish(model, status, best, bound, start, ran, notes)

    def _finish(self, model: Model, status: Status, sol: Solution | None, bound: int | None,
                start: float, ran: list[str], notes: list[str]) -> Solution:
        values = None if sol is None else sol.values
        return make_solution(model, status, values, lower_bound=bound,
                             wall_time=time.perf_counter() - start, backend=self.name,
                             engine=" -> ".join(ran), engine_version="",
                             options={"stages": [n for n, _ in self.stages],
                                      "first_share": self.options["first_share"]},
                             message="; ".join(notes))


def _run_stage(call: Any, deadline: float | None) -> Solution | None:
    """Return ``call()``, or None if it is still running ``_GIVE_UP`` s past ``deadline``."""
    if deadline is None:
        return call()
    # Ctrl-C while waiting stops the stage's engine too (join_or_stop -> stop_engines)
    done = start_daemon(call, "satrules-staged", stop=lambda: None, wait_at_exit=False)
    if not join_or_stop(done, max(deadline + _GIVE_UP - time.perf_counter(), 0.0)):
        return None
    return done.outcome()
