"""The IR model: variables, hard and soft clauses, cardinality and graph constraints.

The objective is always to *minimise* the total weight of falsified soft
clauses (the *cost*).  Identical soft clauses stay separate, so their weights
add up.  Insertion order is preserved, so the same calls always give the same
model (and a byte-identical WCNF file).
"""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

import numpy as np

from satrules.exceptions import EncodingError
from satrules.ir.constraints import (
    Cardinality,
    Clause,
    ClauseArray,
    GraphConstraint,
    SoftClause,
)
from satrules.ir.varpool import VarPool

__all__ = ["Model", "as_values"]

_INT64_MAX = np.iinfo(np.int64).max
_OPS = ("<=", ">=", "==")


def _as_int_array(values: Any, what: str) -> np.ndarray:
    """Return ``values`` as a 1-D int64 array, refusing bools, floats and overflow."""
    if isinstance(values, np.ndarray):
        arr = values
    else:
        try:
            arr = np.asarray(list(values) if not isinstance(values, (list, tuple)) else values)
        except TypeError as exc:
            raise EncodingError(f"{what} must be a sequence of integers, got {values!r}") from exc
    if arr.size == 0:
        return np.zeros(arr.shape, dtype=np.int64)
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or arr.dtype == object):
        raise EncodingError(f"{what} must be integers, got dtype {arr.dtype}")
    if arr.dtype == object:
        if not all(isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in arr.flat):
            raise EncodingError(f"{what} must be integers, got {values!r}")
        try:
            arr = arr.astype(np.int64)
        except OverflowError as exc:
            raise EncodingError(f"{what}: literal out of the 64-bit range") from exc
    elif arr.dtype == np.uint64 and arr.size and int(arr.max()) > _INT64_MAX:
        raise EncodingError(f"{what}: literal out of the 64-bit range")
    return arr.astype(np.int64, copy=False)


def _as_weights(weights: Any, n: int) -> np.ndarray:
    """Return ``n`` positive integer weights as int64, or object when one exceeds 64 bits."""
    if isinstance(weights, numbers.Integral) and not isinstance(weights, bool):
        if weights <= 0:
            raise EncodingError(f"soft weights must be positive integers, got {weights}")
        if weights > _INT64_MAX:
            return np.full(n, int(weights), dtype=object)
        return np.full(n, int(weights), dtype=np.int64)
    if isinstance(weights, (bool, float, np.floating)) or weights is None:
        raise EncodingError(f"soft weights must be positive integers, got {weights!r}")
    if isinstance(weights, np.ndarray):
        arr = weights
    else:
        vals = list(weights)
        # a list mixing weights >= 2**63 with small ones would become float64 in numpy
        big = any(isinstance(w, numbers.Integral) and not isinstance(w, bool) and w > _INT64_MAX
                  for w in vals)
        arr = np.array(vals, dtype=object) if big else np.asarray(vals)
    if arr.ndim != 1 or len(arr) != n:
        raise EncodingError(f"expected {n} weights, got shape {arr.shape}")
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if arr.dtype == object:
        vals = arr.tolist()
        if not all(isinstance(w, numbers.Integral) and not isinstance(w, bool) for w in vals):
            raise EncodingError("soft weights must be positive integers")
        if min(vals) <= 0:
            raise EncodingError(f"soft weights must be positive integers, got {min(vals)}")
        if max(vals) > _INT64_MAX:
            return np.array([int(w) for w in vals], dtype=object)
        return np.array(vals, dtype=np.int64)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
        raise EncodingError(f"soft weights must be positive integers, got dtype {arr.dtype}")
    if arr.min() <= 0:
        raise EncodingError(f"soft weights must be positive integers, got {arr.min()}")
    if arr.dtype == np.uint64 and int(arr.max()) > _INT64_MAX:
        return np.array([int(w) for w in arr.tolist()], dtype=object)
    return arr.astype(np.int64, copy=False)


def as_values(assignment: Any, n_vars: int) -> np.ndarray:
    """Return an assignment as a bool array indexed by variable (index 0 unused).

    ``assignment`` may be a mapping ``var -> bool``, a bool array of length
    ``n_vars + 1`` indexed by variable, or an iterable of signed literals (a
    DIMACS model).  Variables it does not mention are false.
    """
    values = np.zeros(n_vars + 1, dtype=bool)
    if isinstance(assignment, Mapping):
        if assignment:
            keys = np.fromiter((int(k) for k in assignment), dtype=np.int64, count=len(assignment))
            vals = np.fromiter((bool(v) for v in assignment.values()), dtype=bool,
                               count=len(assignment))
            inside = (keys >= 1) & (keys <= n_vars)
            values[keys[inside]] = vals[inside]
        return values
    arr = np.asarray(assignment)
    if arr.dtype == bool:
        if arr.ndim != 1 or len(arr) < n_vars + 1:
            raise EncodingError(
                f"a bool assignment needs length n_vars + 1 = {n_vars + 1}, got {arr.shape}"
            )
        values[1:] = arr[1 : n_vars + 1]
        return values
    lits = _as_int_array(arr.ravel(), "assignment")
    lits = lits[(lits != 0) & (np.abs(lits) <= n_vars)]
    values[lits[lits > 0]] = True
    values[-lits[lits < 0]] = False
    return values


class Model:
    """A weighted partial MaxSAT model with cardinality and graph constraints.

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model()
    >>> use = [m.new_var(("b", 0, j)) for j in range(3)]
    >>> err = m.new_var(("eta", 7))
    >>> m.add_hard([use[0], use[2], err])
    >>> m.add_soft([-err], weight=10)
    >>> for v in use:
    ...     m.add_soft([-v], weight=1)
    >>> m.add_cardinality(use, "<=", 2)
    >>> a = {use[0]: True, use[1]: False, use[2]: False, err: False}
    >>> m.evaluate(a), m.cost(a)
    (True, 1)
    >>> m.stats()["n_soft"]
    4
    """

    def __init__(self) -> None:
        self.pool = VarPool()
        self._hard: list[ClauseArray] = []
        self._soft: list[ClauseArray] = []
        self._hard_cache: ClauseArray | None = None
        self._soft_cache: ClauseArray | None = None
        self._cards: list[Cardinality] = []
        self._graphs: list[GraphConstraint] = []
        #: Variables ``1..n_input_vars`` are the model's own; higher ones are
        #: auxiliaries added by lowering (``None``: all variables are inputs).
        self._n_input_vars: int | None = None

    # ------------------------------------------------------------------ variables
    @property
    def n_vars(self) -> int:
        """Number of variables (the highest id)."""
        return self.pool.top

    @property
    def n_input_vars(self) -> int:
        """Number of variables that belong to the model before lowering."""
        return self.pool.top if self._n_input_vars is None else self._n_input_vars

    def new_var(self, key: Hashable | None = None) -> int:
        """Return a fresh variable, optionally registered under a semantic ``key``."""
        return self.pool.new(key)

    def new_vars(self, name: Hashable, shape: int | tuple[int, ...]) -> np.ndarray:
        """Return an int64 array of fresh variables with keys ``(name, *index)``."""
        return self.pool.new_block(name, shape)

    def new_aux(self, n: int) -> np.ndarray:
        """Return ``n`` fresh anonymous variables (auxiliaries) as an int64 array."""
        return self.pool.new_anonymous(n)

    def var(self, key: Hashable) -> int:
        """Return the variable registered under ``key`` (``KeyError`` if none)."""
        return self.pool.id(key)

    def key(self, var: int) -> Hashable | None:
        """Return the key of variable ``var`` (``None`` for an anonymous one)."""
        return self.pool.key(var)

    # ------------------------------------------------------------------ adders
    def _check_lits(self, lits: np.ndarray, what: str) -> None:
        if lits.size == 0:
            return
        if np.any(lits == 0):
            raise EncodingError(f"{what}: 0 is not a literal")
        big = int(np.abs(lits).max())
        if big > self.pool.top:
            raise EncodingError(
                f"{what}: literal {big} refers to a variable that does not exist "
                f"(the model has {self.pool.top}); create it with new_var first"
            )

    def _csr(self, clauses: Any, offsets: Any, what: str) -> tuple[np.ndarray, np.ndarray]:
        if offsets is None:
            if isinstance(clauses, np.ndarray) and clauses.ndim == 2:
                flat = _as_int_array(clauses.reshape(-1), what)
                offs = np.arange(0, flat.size + 1, max(clauses.shape[1], 1), dtype=np.int64)
                if clauses.shape[1] == 0:
                    offs = np.zeros(clauses.shape[0] + 1, dtype=np.int64)
            elif isinstance(clauses, list) and all(type(c) is list for c in clauses):
                # lists of lists (e.g. PySAT's cardinality encodings): one flat conversion
                lengths = np.fromiter(map(len, clauses), dtype=np.int64, count=len(clauses))
                offs = np.zeros(len(clauses) + 1, dtype=np.int64)
                np.cumsum(lengths, out=offs[1:])
                flat = _as_int_array([lit for c in clauses for lit in c], what)
            else:
                rows = [_as_int_array(c, what).reshape(-1) for c in clauses]
                lengths = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
                offs = np.zeros(len(rows) + 1, dtype=np.int64)
                np.cumsum(lengths, out=offs[1:])
                flat = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        else:
            flat = _as_int_array(clauses, what).reshape(-1)
            offs = _as_int_array(offsets, "offsets").reshape(-1)
            if len(offs) == 0 or offs[0] != 0 or offs[-1] != len(flat) or np.any(np.diff(offs) < 0):
                raise EncodingError(
                    f"{what}: offsets must start at 0, be non-decreasing and end at {len(flat)}"
                )
        self._check_lits(flat, what)
        return np.ascontiguousarray(flat, dtype=np.int64), offs

    def add_hard(self, lits: Iterable[int]) -> None:
        """Add one hard clause (the disjunction of ``lits``; empty means unsatisfiable)."""
        arr = _as_int_array(lits, "hard clause").reshape(-1)
        self._check_lits(arr, "hard clause")
        self._hard.append(ClauseArray(arr.copy(), np.array([0, len(arr)], dtype=np.int64)))
        self._hard_cache = None

    def add_soft(self, lits: Iterable[int], weight: int) -> None:
        """Add one soft clause that costs ``weight`` (a positive int) when falsified."""
        arr = _as_int_array(lits, "soft clause").reshape(-1)
        self._check_lits(arr, "soft clause")
        w = _as_weights(weight, 1)
        self._soft.append(ClauseArray(arr.copy(), np.array([0, len(arr)], dtype=np.int64), w))
        self._soft_cache = None

    def add_clauses(self, clauses: Any, offsets: Any = None) -> None:
        """Add many hard clauses at once.

        ``clauses`` is a 2-D int array (one clause per row), a list of
        sequences, or -- with ``offsets`` -- a flat literal array in CSR form
        (clause ``i`` is ``clauses[offsets[i]:offsets[i+1]]``).
        """
        flat, offs = self._csr(clauses, offsets, "hard clauses")
        if len(offs) > 1:
            self._hard.append(ClauseArray(flat, offs))
            self._hard_cache = None

    def add_soft_clauses(self, clauses: Any, weights: Any, offsets: Any = None) -> None:
        """Add many soft clauses at once (same forms as :meth:`add_clauses`)."""
        flat, offs = self._csr(clauses, offsets, "soft clauses")
        w = _as_weights(weights, len(offs) - 1)
        if len(offs) > 1:
            self._soft.append(ClauseArray(flat, offs, w))
            self._soft_cache = None

    def add_soft_units(self, lits: Any, weights: Any) -> None:
        """Add one soft unit clause per literal; ``weights`` is an int or one int per literal."""
        arr = _as_int_array(lits, "soft units").reshape(-1)
        self._check_lits(arr, "soft units")
        w = _as_weights(weights, len(arr))
        if len(arr):
            offs = np.arange(len(arr) + 1, dtype=np.int64)
            self._soft.append(ClauseArray(arr.copy(), offs, w))
            self._soft_cache = None

    def add_cardinality(self, lits: Iterable[int], op: str, bound: int) -> None:
        """Add the hard constraint ``sum(lits) op bound`` (``op`` is ``<=``, ``>=`` or ``==``)."""
        if op not in _OPS:
            raise EncodingError(f"cardinality operator must be one of {_OPS}, got {op!r}")
        if not isinstance(bound, numbers.Integral) or isinstance(bound, bool):
            raise EncodingError(f"cardinality bound must be an integer, got {bound!r}")
        arr = _as_int_array(lits, "cardinality").reshape(-1)
        self._check_lits(arr, "cardinality")
        self._cards.append(Cardinality(tuple(arr.tolist()), op, int(bound)))

    def add_cardinalities(self, lits: Any, op: str, bound: int) -> None:
        """Add one ``sum(row) op bound`` per row of the 2-D literal array ``lits``.

        The same constraints, in row order, as :meth:`add_cardinality` per row, with
        one validation for the whole array.

        Examples
        --------
        >>> m = Model(); u = m.new_vars("u", (2, 3)); m.add_cardinalities(u, "==", 1)
        >>> [c.lits for c in m.cardinalities]
        [(1, 2, 3), (4, 5, 6)]
        """
        if op not in _OPS:
            raise EncodingError(f"cardinality operator must be one of {_OPS}, got {op!r}")
        if not isinstance(bound, numbers.Integral) or isinstance(bound, bool):
            raise EncodingError(f"cardinality bound must be an integer, got {bound!r}")
        arr = np.asarray(lits)
        if arr.ndim != 2:
            raise EncodingError(f"cardinalities need a 2-D literal array, got shape {arr.shape}")
        flat = _as_int_array(arr.reshape(-1), "cardinality")
        self._check_lits(flat, "cardinality")
        bound = int(bound)
        self._cards.extend(Cardinality(tuple(row), op, bound)
                           for row in flat.reshape(arr.shape).tolist())

    def add_graph(self, lits: Iterable[int], edges: Any) -> None:
        """Add a conflict graph: for each edge ``(a, b)``, not both ``lits[a]`` and ``lits[b]``.

        ``edges`` is an ``(n_edges, 2)`` array of positions in ``lits``, or a
        networkx graph whose nodes are positions.
        """
        arr = _as_int_array(lits, "graph literals").reshape(-1)
        self._check_lits(arr, "graph literals")
        if hasattr(edges, "edges") and callable(edges.edges):
            edges = list(edges.edges())
        e = _as_int_array(edges, "graph edges")
        if e.size == 0:
            e = np.zeros((0, 2), dtype=np.int64)
        if e.ndim != 2 or e.shape[1] != 2:
            raise EncodingError(f"graph edges must have shape (n_edges, 2), got {e.shape}")
        if e.size and (e.min() < 0 or e.max() >= len(arr)):
            raise EncodingError(
                f"graph edges must index the {len(arr)} literals, got {e.min()}..{e.max()}"
            )
        if np.any(e[:, 0] == e[:, 1]):
            raise EncodingError("graph edges must join two different positions (no self-loops)")
        e = np.sort(e, axis=1)
        e.setflags(write=False)
        self._graphs.append(GraphConstraint(tuple(arr.tolist()), e))

    # ------------------------------------------------------------------ views
    @property
    def hard(self) -> ClauseArray:
        """All hard clauses, in insertion order."""
        if self._hard_cache is None:
            self._hard_cache = ClauseArray.concat(self._hard, soft=False)
            self._hard = [self._hard_cache] if len(self._hard_cache) else []
        return self._hard_cache

    @property
    def soft(self) -> ClauseArray:
        """All soft clauses with their weights, in insertion order."""
        if self._soft_cache is None:
            self._soft_cache = ClauseArray.concat(self._soft, soft=True)
            self._soft = [self._soft_cache] if len(self._soft_cache) else []
        return self._soft_cache

    @property
    def cardinalities(self) -> tuple[Cardinality, ...]:
        """Cardinality constraints, in insertion order."""
        return tuple(self._cards)

    @property
    def graphs(self) -> tuple[GraphConstraint, ...]:
        """Graph (conflict) constraints, in insertion order."""
        return tuple(self._graphs)

    def hard_clauses(self) -> list[Clause]:
        """Hard clauses as :class:`Clause` objects (small models and tests)."""
        return [Clause(c) for c in self.hard]

    def soft_clauses(self) -> list[SoftClause]:
        """Soft clauses as :class:`SoftClause` objects (small models and tests)."""
        s = self.soft
        return [SoftClause(c, w) for c, w in zip(s, s.weight_list(), strict=True)]

    def kinds(self) -> frozenset[str]:
        """Return the IR kinds this model uses."""
        present = set()
        if len(self.hard):
            present.add("clause")
        if len(self.soft):
            present.add("soft")
        if self._cards:
            present.add("cardinality")
        if self._graphs:
            present.add("graph")
        return frozenset(present)

    def soft_weight_sum(self) -> int:
        """Total weight of all soft clauses (an upper bound on the cost), as a Python int."""
        w = self.soft.weights
        if w.dtype == object:
            return int(sum(w.tolist()))
        if len(w) and int(w.max()) > _INT64_MAX // max(len(w), 1):
            return int(sum(int(x) for x in w.tolist()))
        return int(w.sum())

    # ------------------------------------------------------------------ semantics
    def violations(self, assignment: Any, limit: int = 5) -> list[str]:
        """Return up to ``limit`` descriptions of hard constraints ``assignment`` violates."""
        values = as_values(assignment, self.n_vars)
        found: list[str] = []
        hard = self.hard
        bad = np.flatnonzero(~hard.satisfied(values))
        for i in bad[:limit]:
            found.append(f"hard clause #{int(i)} {list(hard.clause(int(i)))}")
        for i, card in enumerate(self._cards):
            if len(found) >= limit:
                break
            if not card.holds(values):
                found.append(f"cardinality #{i} ({card.op} {card.bound})")
        for i, graph in enumerate(self._graphs):
            if len(found) >= limit:
                break
            if not graph.holds(values):
                found.append(f"graph constraint #{i}")
        return found[:limit]

    def evaluate(self, assignment: Any) -> bool:
        """Return whether ``assignment`` satisfies every hard constraint.

        ``assignment`` is a mapping ``var -> bool``, a bool array indexed by
        variable, or a list of signed literals; unmentioned variables are false.
        """
        values = as_values(assignment, self.n_vars)
        if not bool(np.all(self.hard.satisfied(values))):
            return False
        return all(c.holds(values) for c in self._cards) and all(
            g.holds(values) for g in self._graphs
        )

    def cost(self, assignment: Any) -> int:
        """Return the total weight of the soft clauses ``assignment`` falsifies."""
        values = as_values(assignment, self.n_vars)
        soft = self.soft
        falsified = ~soft.satisfied(values)
        w = soft.weights[falsified]
        if w.dtype == object or (len(w) and int(w.max()) > _INT64_MAX // max(len(w), 1)):
            return int(sum(int(x) for x in w.tolist()))
        return int(w.sum())

    def stats(self) -> dict[str, int]:
        """Return size figures: variables, clauses by kind, literals, edges, weights."""
        hard, soft = self.hard, self.soft
        return {
            "n_vars": self.n_vars,
            "n_input_vars": self.n_input_vars,
            "n_hard": len(hard),
            "n_soft": len(soft),
            "n_cardinality": len(self._cards),
            "n_graph": len(self._graphs),
            "n_graph_edges": int(sum(len(g.edges) for g in self._graphs)),
            "n_literals": int(len(hard.lits) + len(soft.lits)
                              + sum(len(c.lits) for c in self._cards)),
            "soft_weight_sum": self.soft_weight_sum(),
            "max_weight": int(max(soft.weights.tolist())) if len(soft) else 0,
        }

    # ------------------------------------------------------------------ copies
    def copy(self) -> Model:
        """Return an independent copy (clause arrays are immutable and shared)."""
        new = Model()
        pool = new.pool
        pool.top = self.pool.top
        pool._by_key = dict(self.pool._by_key)
        pool._by_var = dict(self.pool._by_var)
        pool._blocks = dict(self.pool._blocks)
        pool._block_starts = list(self.pool._block_starts)
        pool._block_list = list(self.pool._block_list)
        new._hard = [self.hard] if len(self.hard) else []
        new._soft = [self.soft] if len(self.soft) else []
        new._cards = list(self._cards)
        new._graphs = list(self._graphs)
        new._n_input_vars = self._n_input_vars
        return new

    def derived(self, *, keep: Iterable[str] = ("clause", "soft", "cardinality", "graph")) -> Model:
        """Return a copy holding only the listed kinds; later variables count as auxiliaries.

        Lowering passes start from this: the copy's ``n_input_vars`` is frozen
        to this model's, so every variable the pass adds is an auxiliary.
        """
        keep = set(keep)
        new = self.copy()
        new._n_input_vars = self.n_input_vars
        if "clause" not in keep:
            new._hard = []
            new._hard_cache = None
        if "soft" not in keep:
            new._soft = []
            new._soft_cache = None
        if "cardinality" not in keep:
            new._cards = []
        if "graph" not in keep:
            new._graphs = []
        return new

    def __repr__(self) -> str:
        s = self.stats()
        return (
            f"Model(n_vars={s['n_vars']}, n_hard={s['n_hard']}, n_soft={s['n_soft']}, "
            f"n_cardinality={s['n_cardinality']}, n_graph={s['n_graph']})"
        )
