"""IR constraint kinds.

Four kinds make up every model (their names are the strings backends list in
``native``):

``"clause"``
    hard disjunction of literals;
``"soft"``
    disjunction with a positive integer weight, paid when it is falsified;
``"cardinality"``
    hard ``sum(lits) <op> bound`` with ``op`` one of ``<=``, ``>=``, ``==``;
``"graph"``
    hard conflict graph over literals: no two endpoints of an edge are both true.

Clauses are stored in bulk as :class:`ClauseArray` (CSR: flat literals and
offsets), never as one Python object each; :class:`Clause` and
:class:`SoftClause` are the views handed out when iterating.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "KINDS",
    "Clause",
    "SoftClause",
    "Cardinality",
    "GraphConstraint",
    "ClauseArray",
]

KINDS = frozenset({"clause", "soft", "cardinality", "graph"})


@dataclass(frozen=True)
class Clause:
    """A hard clause: at least one literal is true."""

    lits: tuple[int, ...]
    kind = "clause"


@dataclass(frozen=True)
class SoftClause:
    """A soft clause: costs ``weight`` when no literal is true."""

    lits: tuple[int, ...]
    weight: int
    kind = "soft"


@dataclass(frozen=True)
class Cardinality:
    """Hard ``sum(lits) op bound`` over literals (a literal counts 1 when true)."""

    lits: tuple[int, ...]
    op: str
    bound: int
    kind = "cardinality"

    def holds(self, values: np.ndarray) -> bool:
        """Return whether the constraint holds under ``values`` (bool array indexed by var)."""
        total = int(literal_values(np.asarray(self.lits, dtype=np.int64), values).sum())
        return _OPS[self.op](total, self.bound)


@dataclass(frozen=True, eq=False)
class GraphConstraint:
    """Conflict graph: for every edge ``(a, b)``, ``lits[a]`` and ``lits[b]`` are not both true.

    ``edges`` is an ``(n_edges, 2)`` int64 array of positions in ``lits``.
    """

    lits: tuple[int, ...]
    edges: np.ndarray = field(repr=False)
    kind = "graph"

    def holds(self, values: np.ndarray) -> bool:
        """Return whether no edge has both endpoints true under ``values``."""
        if len(self.edges) == 0:
            return True
        node = literal_values(np.asarray(self.lits, dtype=np.int64), values)
        return not bool(np.any(node[self.edges[:, 0]] & node[self.edges[:, 1]]))

    def edge_literals(self) -> np.ndarray:
        """Return the edges as an ``(n_edges, 2)`` array of literals."""
        lits = np.asarray(self.lits, dtype=np.int64)
        return lits[self.edges] if len(self.edges) else np.zeros((0, 2), dtype=np.int64)


_OPS = {
    "<=": lambda total, bound: total <= bound,
    ">=": lambda total, bound: total >= bound,
    "==": lambda total, bound: total == bound,
}


def literal_values(lits: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Return the truth value of each literal given a bool array indexed by variable."""
    return values[np.abs(lits)] ^ (lits < 0)


class ClauseArray:
    """Clauses in CSR form: ``lits[offsets[i]:offsets[i+1]]`` is clause ``i``.

    ``weights`` is ``None`` for hard clauses, else one positive int per clause
    (int64, or an object array of Python ints when a weight exceeds 64 bits).
    """

    __slots__ = ("lits", "offsets", "weights")

    def __init__(self, lits: np.ndarray, offsets: np.ndarray, weights: np.ndarray | None = None):
        self.lits = lits
        self.offsets = offsets
        self.weights = weights

    @classmethod
    def empty(cls, soft: bool = False) -> ClauseArray:
        weights = np.zeros(0, dtype=np.int64) if soft else None
        return cls(np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64), weights)

    @classmethod
    def concat(cls, parts: list[ClauseArray], soft: bool) -> ClauseArray:
        if not parts:
            return cls.empty(soft)
        if len(parts) == 1:
            return parts[0]
        lits = np.concatenate([p.lits for p in parts])
        lengths = np.concatenate([np.diff(p.offsets) for p in parts])
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        weights = None
        if soft:
            if any(p.weights.dtype == object for p in parts):
                weights = np.concatenate([p.weights.astype(object) for p in parts])
            else:
                weights = np.concatenate([p.weights for p in parts])
        return cls(lits, offsets, weights)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @property
    def lengths(self) -> np.ndarray:
        """Number of literals of each clause."""
        return np.diff(self.offsets)

    def clause(self, i: int) -> tuple[int, ...]:
        """Return clause ``i`` as a tuple of ints."""
        return tuple(self.lits[self.offsets[i] : self.offsets[i + 1]].tolist())

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        flat = self.lits.tolist()
        bounds = self.offsets.tolist()
        for i in range(len(bounds) - 1):
            yield tuple(flat[bounds[i] : bounds[i + 1]])

    def weight_list(self) -> list[int]:
        """Return the weights as Python ints (empty for hard clauses)."""
        return [] if self.weights is None else [int(w) for w in self.weights.tolist()]

    def satisfied(self, values: np.ndarray) -> np.ndarray:
        """Return a bool array: whether each clause has a true literal under ``values``."""
        n = len(self)
        if n == 0:
            return np.zeros(0, dtype=bool)
        lit_true = literal_values(self.lits, values).astype(np.int64)
        csum = np.zeros(len(lit_true) + 1, dtype=np.int64)
        np.cumsum(lit_true, out=csum[1:])
        return (csum[self.offsets[1:]] - csum[self.offsets[:-1]]) > 0
