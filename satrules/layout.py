"""The encoder-decoder contract: which variable means "rule r uses literal slot j".

An encoder returns an :class:`Encoding` (the IR model plus a :class:`RuleLayout`);
its decode function reads a :class:`~satrules.ir.Solution` only through the
layout.  A layout whose variables describe a CNF but whose user-facing rule set
is a DNF (IMLI's DNF-by-negation, ALGORITHMS.md §2.5) sets ``encoded_kind="cnf"``
and ``kind="dnf"``; :meth:`RuleLayout.decode` then applies De Morgan.

Examples
--------
>>> import numpy as np
>>> from satrules.ir import Model, Status, make_solution
>>> from satrules.rules import Literal
>>> m = Model()
>>> use = m.new_vars("b", (1, 2))
>>> layout = RuleLayout(use=use, slot_literals=(Literal(0), Literal(0, True)),
...                     encoded_kind="cnf", kind="dnf", n_columns=1)
>>> sol = make_solution(m, Status.OPTIMAL, {int(use[0, 1]): True})
>>> print(layout.decode(sol))
IF (x0)
THEN positive
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from satrules.ir import Model, Solution
from satrules.rules import Literal, Rule, RuleSet

__all__ = ["Encoding", "RuleLayout"]


@dataclass(frozen=True)
class RuleLayout:
    """Where a formulation keeps its rules in the IR model.

    Parameters
    ----------
    use : ndarray of int, shape (n_rules, n_slots)
        ``use[r, j]`` is the variable "rule ``r`` contains ``slot_literals[j]``".
    slot_literals : tuple of Literal
        The literal each slot stands for (over ``n_columns`` binarized columns).
    encoded_kind : {"cnf", "dnf"}
        The kind of formula the ``use`` variables describe.
    kind : {"cnf", "dnf"}
        The kind of the decoded rule set (negated from ``encoded_kind`` when different).
    n_columns : int
    error_vars : ndarray of int, shape (n_samples,)
        Per-sample error variables (``("eta", i)`` in IMLI), possibly empty.
    scale : Fraction
        Model cost = ``scale`` x (the real-valued objective).
    extra : dict
        Formulation-specific data (documented by each encoder).
    """

    use: np.ndarray
    slot_literals: tuple[Literal, ...]
    encoded_kind: str
    kind: str
    n_columns: int
    error_vars: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    scale: Fraction = Fraction(1)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def n_rules(self) -> int:
        return int(self.use.shape[0])

    def use_matrix(self, solution: Solution) -> np.ndarray:
        """Return the bool matrix ``(n_rules, n_slots)`` of used slots in ``solution``."""
        if solution.values is None:
            raise ValueError(f"solution has no assignment (status {solution.status.value})")
        return np.asarray(solution.values)[self.use]

    def rules_from_matrix(self, matrix: np.ndarray) -> RuleSet:
        """Return the rule set whose rule ``r`` holds the slots set in ``matrix[r]``."""
        rules = [Rule(tuple(self.slot_literals[j] for j in np.flatnonzero(row)))
                 for row in np.asarray(matrix, dtype=bool)]
        encoded = RuleSet(rules, self.encoded_kind, self.n_columns)
        return encoded if self.kind == self.encoded_kind else encoded.negate()

    def decode(self, solution: Solution) -> RuleSet:
        """Return the rule set encoded in ``solution`` (negated to ``kind`` when needed)."""
        return self.rules_from_matrix(self.use_matrix(solution))


@dataclass(frozen=True)
class Encoding:
    """An encoded learning problem: the IR ``model``, its ``layout`` and an optional ``hint``.

    ``hint`` maps variables to values of a complete feasible assignment (for
    example the previous partition's rules extended to this partition), for
    backends that take warm starts; it is ``None`` when there is none.
    """

    model: Model
    layout: RuleLayout
    hint: dict[int, bool] | None = None
