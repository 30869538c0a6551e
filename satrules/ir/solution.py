"""Solver answers: :class:`Status`, :class:`Solution` and the checked :func:`make_solution`."""

from __future__ import annotations

import enum
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from satrules.exceptions import BackendError
from satrules.ir.model import Model, as_values

__all__ = ["Status", "Solution", "make_solution"]


class Status(enum.Enum):
    """Outcome of a solve.

    ``OPTIMAL``: the assignment is proven optimal.  ``FEASIBLE``: it satisfies
    the hard part but optimality is not proven (e.g. a time limit struck).
    ``UNSATISFIABLE``: the hard part has no model.  ``UNKNOWN``: nothing was
    found in time.  ``ERROR``: the engine failed (see ``Solution.message``).
    """

    OPTIMAL = "OPTIMAL"
    FEASIBLE = "FEASIBLE"
    UNSATISFIABLE = "UNSATISFIABLE"
    UNKNOWN = "UNKNOWN"
    ERROR = "ERROR"

    @property
    def is_feasible(self) -> bool:
        """True for OPTIMAL and FEASIBLE: an assignment satisfying the hard part exists."""
        return self in (Status.OPTIMAL, Status.FEASIBLE)


@dataclass(frozen=True, eq=False)
class Solution:
    """A verified answer for one :class:`~satrules.ir.Model`.

    Attributes
    ----------
    status : Status
    values : numpy.ndarray or None
        Bool array indexed by variable (index 0 unused) over the model's own
        variables, or ``None`` when there is no assignment.
    cost : int or None
        The IR's own cost of ``values`` (sum of weights of falsified soft clauses).
    reported_cost : int or None
        What the engine claimed, kept for cross-checking only.
    lower_bound : int or None
        Best proven lower bound on the optimal cost, when the engine gives one.
    wall_time : float
        Seconds spent in the backend.
    backend, engine, engine_version : str
    options : dict
        The options the engine ran with.
    message : str
        Human-readable remark (why ERROR or UNKNOWN, for example).
    """

    status: Status
    values: np.ndarray | None
    cost: int | None
    model: Model = field(repr=False)
    reported_cost: int | None = None
    lower_bound: int | None = None
    wall_time: float = 0.0
    backend: str = ""
    engine: str = ""
    engine_version: str = ""
    options: dict = field(default_factory=dict)
    message: str = ""

    @property
    def assignment(self) -> dict[int, bool]:
        """The assignment as ``{var: bool}`` (empty without one)."""
        if self.values is None:
            return {}
        return {i: bool(v) for i, v in enumerate(self.values.tolist()) if i}

    def value(self, var_or_key: int | Hashable) -> bool:
        """Return the value of a variable given by id or by semantic key."""
        if self.values is None:
            raise BackendError(f"no assignment: status {self.status.value}")
        if isinstance(var_or_key, (int, np.integer)) and not isinstance(var_or_key, bool):
            var = int(var_or_key)
        else:
            var = self.model.var(var_or_key)
        return bool(self.values[var])

    def __getitem__(self, var_or_key: int | Hashable) -> bool:
        return self.value(var_or_key)

    def lits(self) -> list[int]:
        """Return the assignment as a DIMACS model (signed literals, one per variable)."""
        if self.values is None:
            return []
        v = np.arange(1, len(self.values), dtype=np.int64)
        return np.where(self.values[1:], v, -v).tolist()

    @property
    def gap(self) -> float | None:
        """Relative gap ``(cost - lower_bound) / max(cost, 1)``, when both are known."""
        if self.cost is None or self.lower_bound is None:
            return None
        return (self.cost - self.lower_bound) / max(self.cost, 1)


def make_solution(
    model: Model,
    status: Status,
    values: Any = None,
    *,
    reported_cost: int | None = None,
    lower_bound: int | None = None,
    wall_time: float = 0.0,
    backend: str = "",
    engine: str = "",
    engine_version: str = "",
    options: Mapping | None = None,
    message: str = "",
    check_reported_cost: bool = True,
) -> Solution:
    """Build a :class:`Solution` after checking the answer against ``model``.

    The assignment (restricted to ``model``'s own variables) must satisfy
    every hard constraint of ``model``; the cost is recomputed by the IR.

    Raises
    ------
    BackendError
        If a feasible status comes without an assignment, if the assignment
        violates a hard constraint, if the engine's reported cost differs from
        the IR's (with ``check_reported_cost``), or if a proven lower bound
        exceeds the cost of an OPTIMAL answer.

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); x = m.new_var("x"); m.add_soft([x], 3)
    >>> make_solution(m, Status.OPTIMAL, {x: True}).cost
    0
    >>> make_solution(m, Status.OPTIMAL, {x: False}, reported_cost=0)
    Traceback (most recent call last):
    ...
    satrules.exceptions.BackendError: engine reported cost 0 but the assignment costs 3
    """
    status = Status(status)
    opts = dict(options or {})
    if not status.is_feasible:
        return Solution(status, None, None, model, reported_cost, lower_bound, wall_time,
                        backend, engine, engine_version, opts, message)
    if values is None:
        raise BackendError(f"{backend or 'engine'} claimed {status.value} without an assignment")
    vals = as_values(values, model.n_vars)
    bad = model.violations(vals)
    if bad:
        raise BackendError(
            f"{backend or 'engine'} returned an assignment that violates the model: "
            + "; ".join(bad)
        )
    cost = model.cost(vals)
    if check_reported_cost and reported_cost is not None and int(reported_cost) != cost:
        raise BackendError(
            f"engine reported cost {reported_cost} but the assignment costs {cost}"
        )
    if lower_bound is not None:
        lower_bound = int(lower_bound)
        if lower_bound > cost:
            raise BackendError(f"engine's lower bound {lower_bound} exceeds the cost {cost}")
        if status is Status.OPTIMAL and lower_bound != cost:
            status = Status.FEASIBLE
            message = (message + "; " if message else "") + (
                f"optimality claim withdrawn: bound {lower_bound} < cost {cost}"
            )
    elif status is Status.OPTIMAL:
        lower_bound = cost
    vals.setflags(write=False)
    return Solution(status, vals, cost, model,
                    None if reported_cost is None else int(reported_cost), lower_bound,
                    wall_time, backend, engine, engine_version, opts, message)
