"""Lowering passes: pure ``Model -> Model`` rewrites into the kinds a backend handles.

Each pass returns a *new* model whose variables ``1..model.n_input_vars`` are
the input's own and whose higher variables are auxiliaries; the input is never
modified.  Every pass preserves the set of optimal costs, and the projection
of its models onto the input variables is exactly the input's set of models
(checked by model counting in ``tests/ir/test_lowering.py``).

Passes
------
:func:`lower_graph`
    graph constraints into pairwise clauses, or into at-most-one cardinalities
    over a greedy edge-clique cover (:func:`clique_cover`).
:func:`lower_cardinality`
    cardinality constraints into CNF with one of PySAT's encodings.
:func:`relax_soft`
    non-unit soft clauses ``(C, w)`` into a hard ``C or r`` and a soft unit
    ``(not r, w)``.
:func:`merge_exactly_one_softs`
    the soft units over the literals of an exactly-one constraint into the
    fewest soft clauses with the same cost on every assignment that satisfies it.
:func:`lower`
    the composition a backend asks for with ``keep=backend.native``.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from satrules.exceptions import EncodingError, UnsupportedConstraintError
from satrules.ir.constraints import KINDS, Cardinality, GraphConstraint
from satrules.ir.model import Model

_INT64_MAX = np.iinfo(np.int64).max

__all__ = [
    "CARD_ENCODINGS",
    "GRAPH_ENCODINGS",
    "lower",
    "lower_cardinality",
    "lower_graph",
    "relax_soft",
    "merge_exactly_one_softs",
    "clique_cover",
    "choose_card_encoding",
]

#: Cardinality encodings (PySAT ``EncType`` names) plus ``"auto"``.
CARD_ENCODINGS = (
    "auto", "pairwise", "seqcounter", "sortnetwrk", "cardnetwrk", "bitwise", "ladder",
    "totalizer", "mtotalizer", "kmtotalizer",
)
#: Graph encodings.
GRAPH_ENCODINGS = ("pairwise", "clique")
_AT_MOST_ONE_ONLY = {"pairwise", "bitwise", "ladder"}


def choose_card_encoding(n_lits: int, bound: int, op: str = "<=") -> str:
    """Return the encoding ``"auto"`` uses for ``sum of n_lits literals <op> bound``.

    Rule (from ``benchmarks/bench_cardinality.py``, results in
    ``benchmarks/results/cardinality.md``):

    * at-most-one / exactly-one over at most 5 literals: ``pairwise``
      (``N(N-1)/2`` clauses, no auxiliaries: 10 clauses for N = 5 against 11
      for the sequential counter);
    * effective bound at most 5: ``seqcounter``.  For bound 1 it is the smallest
      encoding (N = 1000: 2996 clauses, against 3996 kmtotalizer, 4000 ladder,
      10000 bitwise, 509477 totalizer); for bound 2 it is smaller than
      kmtotalizer (N = 200: 988 vs 1335 clauses) and for bound 5 within 30 %
      (2140 vs 1676), while RC2 solved the tight ``sum <= 5`` of 50 unit softs
      fastest with it (0.46 s, every other encoding 2.3-3.6 s) and it was the
      fastest or tied on the small max-coverage models;
    * larger bounds: ``kmtotalizer``, the smallest there (N = 1000, k = 250:
      28739 clauses against 51291 mtotalizer, 57590 cardnetwrk, 375500 seqcounter).

    The *effective* bound is ``bound`` for ``<=`` and ``min(bound, N - bound)``
    for ``>=`` and ``==``: PySAT encodes ``>= k`` on the negations, and its
    sizes are symmetric (``>= 2`` and ``>= 48`` of 50 both cost 146
    seqcounter clauses).

    Examples
    --------
    >>> choose_card_encoding(5, 1), choose_card_encoding(6, 1), choose_card_encoding(50, 3)
    ('pairwise', 'seqcounter', 'seqcounter')
    >>> choose_card_encoding(50, 20), choose_card_encoding(50, 48, ">=")
    ('kmtotalizer', 'seqcounter')
    """
    effective = bound if op == "<=" else min(bound, n_lits - bound)
    if bound == 1 and op in ("<=", "==") and n_lits <= 5:
        return "pairwise"
    if effective <= 5:
        return "seqcounter"
    return "kmtotalizer"


def _normalise_card_lits(out: Model, lits: tuple[int, ...]) -> list[int]:
    """Return literals over distinct variables, copying repeated variables into fresh ones.

    PySAT's encodings assume distinct variables; ``x + x`` or ``x + not x``
    would be miscounted, so every repeat becomes a fresh ``a <-> lit``.
    """
    if len({abs(lit) for lit in lits}) == len(lits):   # the usual case: nothing to copy
        return list(lits)
    seen: set[int] = set()
    result = []
    for lit in lits:
        if abs(lit) in seen:
            a = int(out.new_aux(1)[0])
            out.add_clauses([[-a, lit], [a, -lit]])
            result.append(a)
        else:
            seen.add(abs(lit))
            result.append(lit)
    return result


def _card_trivial(out: Model, lits: list[int], op: str, bound: int) -> bool:
    """Handle bounds that need no encoding; return True when handled."""
    n = len(lits)
    lo = bound if op in (">=", "==") else None
    hi = bound if op in ("<=", "==") else None
    if (hi is not None and hi < 0) or (lo is not None and lo > n):
        out.add_hard([])  # no assignment can satisfy it
        return True
    if hi is not None and hi == 0:
        if lits:
            out.add_clauses(np.array(lits, dtype=np.int64).reshape(-1, 1) * -1)
        if lo is None or lo <= 0:
            return True
    if lo is not None and lo == n:
        if lits:
            out.add_clauses(np.array(lits, dtype=np.int64).reshape(-1, 1))
        if hi is None or hi >= n:
            return True
    lo_free = lo is None or lo <= 0
    hi_free = hi is None or hi >= n
    return lo_free and hi_free


def lower_cardinality(model: Model, encoding: str = "auto") -> Model:
    """Return a model with every cardinality constraint replaced by CNF clauses.

    Parameters
    ----------
    model : Model
    encoding : str
        One of :data:`CARD_ENCODINGS`.  ``pairwise``, ``bitwise`` and ``ladder``
        apply to bounds of 1 only; other bounds fall back to ``"auto"``.

    Examples
    --------
    >>> m = Model(); xs = m.new_vars("x", 4); m.add_cardinality(xs, "<=", 1)
    >>> low = lower_cardinality(m, "seqcounter")
    >>> low.kinds(), low.n_input_vars, low.n_vars > 4
    (frozenset({'clause'}), 4, True)
    """
    if encoding not in CARD_ENCODINGS:
        raise EncodingError(
            f"unknown cardinality encoding {encoding!r}; use one of {CARD_ENCODINGS}"
        )
    if not model.cardinalities:
        return model.derived()
    from pysat.card import CardEnc, EncType  # pysat is a runtime dependency, not a backend

    out = model.derived(keep=("clause", "soft", "graph"))
    run: list[tuple[int, ...]] = []     # consecutive at-most/exactly-one cards of one shape
    run_key = None
    for card in model.cardinalities:
        key = _at_most_one_key(card, encoding)
        if run and key != run_key:
            _add_at_most_one_run(out, run, run_key)
            run = []
        if key is not None:
            run.append(card.lits)
            run_key = key
            continue
        lits = _normalise_card_lits(out, card.lits)
        if _card_trivial(out, lits, card.op, card.bound):
            continue
        name = encoding
        if name == "auto" or (name in _AT_MOST_ONE_ONLY and card.bound != 1):
            name = choose_card_encoding(len(lits), card.bound, card.op)
        enc = getattr(EncType, name)
        func = {"<=": CardEnc.atmost, ">=": CardEnc.atleast, "==": CardEnc.equals}[card.op]
        cnf = func(lits=lits, bound=card.bound, top_id=out.n_vars, encoding=enc)
        top = max(cnf.nv, out.n_vars)
        if top > out.n_vars:
            out.new_aux(top - out.n_vars)
        if cnf.clauses:
            out.add_clauses(cnf.clauses)
    if run:
        _add_at_most_one_run(out, run, run_key)
    return out


def _at_most_one_key(card: Cardinality, encoding: str) -> tuple[int, str, str] | None:
    """Return ``(n, op, encoding)`` when :func:`_add_at_most_one_run` can lower ``card``.

    That is ``sum <= 1`` or ``sum == 1`` over at least 3 distinct variables with the
    pairwise or sequential-counter encoding (what ``"auto"`` picks for them); anything
    else (None) goes through PySAT one constraint at a time.
    """
    n = len(card.lits)
    if card.bound != 1 or card.op == ">=" or n < 3:
        return None
    name = encoding
    if name == "auto":
        name = choose_card_encoding(n, 1, card.op)
    if name not in ("pairwise", "seqcounter"):
        return None
    if len({abs(lit) for lit in card.lits}) != n:   # repeats need _normalise_card_lits
        return None
    return n, card.op, name


def _add_at_most_one_run(out: Model, run: list[tuple[int, ...]],
                         key: tuple[int, str, str]) -> None:
    """Add the CNF of ``len(run)`` same-shape at-most-one (or exactly-one) constraints.

    The clauses, their order and the auxiliary numbering are exactly those of PySAT's
    ``CardEnc.atmost``/``CardEnc.equals`` called once per constraint in turn
    (``tests/ir/test_lowering.py`` compares them), but built for the whole run with
    numpy instead of PySAT's per-literal Python code: an IMLIB partition has one
    exactly-one over every column per slot.

    ``equals`` puts the at-least-one clause ``(x_1 ∨ … ∨ x_n)`` first.  ``pairwise``:
    ``(¬x_i ∨ ¬x_j)`` for ``i < j`` in lexicographic order.  ``seqcounter`` (Sinz
    2005, bound 1) with auxiliaries ``s_1 … s_{n-1}``: ``(¬x_1 ∨ s_1)``, then for
    ``1 < i < n`` the three clauses ``(¬s_{i-1} ∨ s_i)``, ``(¬x_i ∨ ¬s_{i-1})``,
    ``(¬x_i ∨ s_i)``, and last ``(¬x_n ∨ ¬s_{n-1})``.
    """
    n, op, name = key
    x = np.array(run, dtype=np.int64)                    # (r, n)
    r = len(x)
    if name == "pairwise":
        a, b = np.triu_indices(n, 1)
        pairs = np.stack([-x[:, a], -x[:, b]], axis=2)   # (r, n(n-1)/2, 2)
    else:
        s = out.new_aux(r * (n - 1)).reshape(r, n - 1)  # PySAT's top_id + 1, ... per card
        middle = np.stack([np.stack([-s[:, :-1], s[:, 1:]], axis=2),
                           np.stack([-x[:, 1:-1], -s[:, :-1]], axis=2),
                           np.stack([-x[:, 1:-1], s[:, 1:]], axis=2)], axis=2)
        pairs = np.concatenate([np.stack([-x[:, :1], s[:, :1]], axis=2),
                                middle.reshape(r, 3 * (n - 2), 2),
                                np.stack([-x[:, -1:], -s[:, -1:]], axis=2)], axis=1)
    n_pairs = pairs.shape[1]
    if op == "<=":
        out.add_clauses(pairs.reshape(-1, 2))
        return
    # exactly one: per constraint the at-least-one clause, then its at-most-one clauses
    flat = np.concatenate([x, pairs.reshape(r, -1)], axis=1).reshape(-1)
    per_card = np.concatenate([[0, n], n + 2 * np.arange(1, n_pairs + 1)])
    offsets = np.concatenate([(per_card[:-1][None, :] +
                               (n + 2 * n_pairs) * np.arange(r)[:, None]).reshape(-1),
                              [len(flat)]])
    out.add_clauses(flat, offsets)


def clique_cover(n_nodes: int, edges: np.ndarray) -> list[np.ndarray]:
    """Return cliques (arrays of node positions) that together cover every edge.

    Greedy and deterministic (ALGORITHMS.md §4.3): take the smallest uncovered
    edge, grow it with common neighbours ordered by how many uncovered edges
    they add, remove the covered pairs, repeat.

    Examples
    --------
    >>> edges = np.array([[0, 1], [0, 2], [1, 2], [2, 3]])
    >>> [c.tolist() for c in clique_cover(4, edges)]
    [[0, 1, 2], [2, 3]]
    """
    adj: list[set[int]] = [set() for _ in range(n_nodes)]
    for a, b in np.asarray(edges, dtype=np.int64).tolist():
        adj[a].add(b)
        adj[b].add(a)
    uncovered: list[set[int]] = [set(s) for s in adj]
    cliques: list[np.ndarray] = []
    for a in range(n_nodes):
        while uncovered[a]:
            b = min(uncovered[a])
            clique = [a, b]
            members = {a, b}
            cand = sorted(adj[a] & adj[b])
            cand.sort(key=lambda w: (-sum(1 for x in members if x in uncovered[w]), w))
            for w in cand:
                if all(w in adj[x] for x in members):
                    clique.append(w)
                    members.add(w)
            for x in clique:
                uncovered[x] -= members
            cliques.append(np.array(sorted(clique), dtype=np.int64))
    return cliques


def lower_graph(model: Model, method: str = "pairwise", *, to_cardinality: bool = False) -> Model:
    """Return a model with every graph constraint replaced.

    ``method="pairwise"`` gives one clause ``(not a or not b)`` per edge.
    ``method="clique"`` covers the edges with cliques (:func:`clique_cover`)
    and gives one at-most-one per clique: a cardinality constraint when
    ``to_cardinality`` (for backends with native at-most-one), otherwise its
    clauses (pairwise for cliques of 2, a sequential counter above).
    """
    if method not in GRAPH_ENCODINGS:
        raise EncodingError(f"unknown graph encoding {method!r}; use one of {GRAPH_ENCODINGS}")
    if not model.graphs:
        return model.derived()
    out = model.derived(keep=("clause", "soft", "cardinality"))
    amo: list[Cardinality] = []
    for graph in model.graphs:
        _lower_one_graph(out, graph, method, amo)
    if not amo:
        return out
    if to_cardinality:
        for card in amo:
            out.add_cardinality(card.lits, "<=", 1)
        return out
    tmp = out.derived(keep=("clause", "soft"))
    for card in amo:
        tmp.add_cardinality(card.lits, "<=", 1)
    low = lower_cardinality(tmp, "auto")
    low._n_input_vars = model.n_input_vars
    for card in out.cardinalities:
        low._cards.append(card)
    return low


def _lower_one_graph(out: Model, graph: GraphConstraint, method: str,
                     amo: list[Cardinality]) -> None:
    edge_lits = graph.edge_literals()
    if len(edge_lits) == 0:
        return
    if method == "pairwise":
        out.add_clauses(-edge_lits)
        return
    lits = np.asarray(graph.lits, dtype=np.int64)
    pairs = []
    for clique in clique_cover(len(lits), graph.edges):
        if len(clique) == 2:
            pairs.append(-lits[clique])
        else:
            amo.append(Cardinality(tuple(lits[clique].tolist()), "<=", 1))
    if pairs:
        out.add_clauses(np.vstack(pairs))


def relax_soft(model: Model) -> Model:
    """Return a model whose soft clauses are all units.

    Each non-unit soft clause ``(C, w)`` becomes the hard clause ``C or r`` and
    the soft unit ``(not r, w)`` with a fresh ``r``; unit soft clauses are kept.
    """
    soft = model.soft
    lengths = soft.lengths
    if np.all(lengths == 1):
        return model.derived()
    out = model.derived(keep=("clause", "cardinality", "graph"))
    unit = lengths == 1
    if np.any(unit):
        starts = soft.offsets[:-1][unit]
        out.add_soft_units(soft.lits[starts], soft.weights[unit])
    idx = np.flatnonzero(~unit)
    relax = out.new_aux(len(idx))
    # hard: C_i + [r_i], built in CSR without a Python loop per clause
    lens = lengths[idx]
    new_offsets = np.zeros(len(idx) + 1, dtype=np.int64)
    np.cumsum(lens + 1, out=new_offsets[1:])
    flat = np.empty(int(new_offsets[-1]), dtype=np.int64)
    src_starts = soft.offsets[:-1][idx]
    # positions of the original literals inside the new flat array
    rep = np.repeat(np.arange(len(idx)), lens)
    within = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
    flat[new_offsets[:-1][rep] + within] = soft.lits[src_starts[rep] + within]
    flat[new_offsets[1:] - 1] = relax
    out.add_clauses(flat, new_offsets)
    out.add_soft_units(-relax, soft.weights[idx])
    # keep the soft order stable: relaxed softs follow the unit ones
    return out


def merge_exactly_one_softs(model: Model) -> Model:
    """Return a model whose soft units over each exactly-one group are merged.

    Under a hard ``g_0 + … + g_n == 1`` (distinct variables), soft units on the
    group's literals cost, when ``g_t`` is the true one,
    ``cost(t) = Σ_s wpos_s − wpos_t + wneg_t`` (``wpos_t``: weight of the units
    ``(g_t)``, ``wneg_t``: of the units ``(¬g_t)``).  With ``d_t = cost(t) − min cost``
    the same function is ``min cost`` (an empty soft clause, a constant) plus one
    soft clause ``(⋁_{t: d_t = 0} g_t)`` of weight ``D`` when every non-zero ``d_t``
    equals ``D``, or else the units ``(¬g_t)`` of weight ``d_t``.  A group is
    rewritten only when that gives fewer soft clauses than it had.

    So every assignment satisfying the hard part costs exactly what it costs in
    ``model``: same optima, same lower bounds.  IMLIB (``objective="paper"``) puts
    ``m + 1`` unit softs on every slot's exactly-one (a used slot costs 2, one
    moved from its anchor too); merged, each slot is one unit of weight 2, and
    RC2 no longer builds a totalizer over ``m + 1`` literals per changed slot.

    Variables, hard clauses, cardinalities and graphs are kept; the rewritten
    softs follow the untouched ones.  A variable in several groups has its
    units counted in the first.  Models whose weights exceed 64 bits are
    returned unchanged.

    Examples
    --------
    >>> m = Model(); u = m.new_vars("u", 3); m.add_cardinality(u, "==", 1)
    >>> m.add_soft_units([-u[0], -u[1], u[2]], 1)    # a used slot costs 2
    >>> low = merge_exactly_one_softs(m)
    >>> [(list(c), w) for c, w in zip(low.soft, low.soft.weight_list())]
    [([3], 2)]
    """
    soft = model.soft
    groups = [card.lits for card in model.cardinalities if card.op == "==" and card.bound == 1
              and len(card.lits) >= 2 and len({abs(lit) for lit in card.lits}) == len(card.lits)]
    if not groups or not len(soft) or soft.weights.dtype == object \
            or model.soft_weight_sum() > _INT64_MAX:
        return model.derived()
    lengths = soft.lengths
    unit_idx = np.flatnonzero(lengths == 1)
    if not len(unit_idx):
        return model.derived()
    # var -> (group, position, sign of the group's literal); the first group wins
    sizes = np.array([len(g) for g in groups], dtype=np.int64)
    glits = np.fromiter((lit for g in groups for lit in g), dtype=np.int64, count=int(sizes.sum()))
    gid = np.repeat(np.arange(len(groups)), sizes)
    gstart = np.concatenate([[0], np.cumsum(sizes)])
    gvar = np.abs(glits)
    first = np.full(model.n_vars + 1, -1, dtype=np.int64)
    order = np.arange(len(glits))[::-1]              # reversed: the first occurrence is kept
    first[gvar[order]] = order
    ulits = soft.lits[soft.offsets[:-1][unit_idx]]
    slot = first[np.abs(ulits)]                      # flat group position of each unit, or -1
    mine = slot >= 0
    unit_idx, ulits, slot = unit_idx[mine], ulits[mine], slot[mine]
    if not len(unit_idx):
        return model.derived()
    weights = soft.weights[unit_idx].astype(np.int64)
    positive = ulits == glits[slot]                  # (g_t), else (¬g_t)
    wpos = np.zeros(len(glits), dtype=np.int64)
    wneg = np.zeros(len(glits), dtype=np.int64)
    np.add.at(wpos, slot[positive], weights[positive])
    np.add.at(wneg, slot[~positive], weights[~positive])
    unit_group = gid[slot]
    n_units = np.bincount(unit_group, minlength=len(groups))
    # per group, all at once (reduceat over the group boundaries): cost(t), its minimum,
    # d_t = cost(t) - min, and which form (one clause or units) has fewer softs
    starts = gstart[:-1]
    cost = np.add.reduceat(wpos, starts)[gid] - wpos + wneg
    low = np.minimum.reduceat(cost, starts)
    d = cost - low[gid]
    nonzero = d > 0
    n_nonzero = np.add.reduceat(nonzero.astype(np.int64), starts)
    d_max = np.maximum.reduceat(d, starts)
    d_min = np.minimum.reduceat(np.where(nonzero, d, d_max[gid]), starts)   # over d_t > 0
    one = (n_nonzero > 0) & (d_min == d_max) & (n_nonzero >= sizes - n_nonzero)
    rewrite = (n_units >= 2) & (np.where(one, 1, n_nonzero) < n_units)
    if not rewrite.any():
        return model.derived()
    keep = np.ones(len(soft), dtype=bool)
    keep[unit_idx[rewrite[unit_group]]] = False
    # the new softs in group order: (OR of the zero-cost literals) of weight D, or the
    # units (not g_t) of weight d_t
    take = rewrite[gid] & np.where(one[gid], ~nonzero, nonzero)
    pos = np.flatnonzero(take)
    pos_group = gid[pos]
    in_one = one[pos_group]
    new_lits = np.where(in_one, glits[pos], -glits[pos])
    opens = ~in_one | np.concatenate([[True], pos_group[1:] != pos_group[:-1]])
    heads = np.flatnonzero(opens)
    new_offsets = np.append(heads, len(pos))
    new_weights = np.where(in_one, d_max[pos_group], d[pos])[heads]
    constant = int(low[rewrite].sum())
    out = model.derived(keep=("clause", "cardinality", "graph"))
    kept = np.flatnonzero(keep)
    if len(kept):
        starts, ends = soft.offsets[:-1][kept], soft.offsets[1:][kept]
        offsets = np.zeros(len(kept) + 1, dtype=np.int64)
        np.cumsum(ends - starts, out=offsets[1:])
        # the kept clauses' literal positions, without a Python loop per clause
        take = np.arange(int(offsets[-1])) + np.repeat(starts - offsets[:-1], ends - starts)
        out.add_soft_clauses(soft.lits[take], soft.weights[kept], offsets)
    if len(pos):
        out.add_soft_clauses(new_lits, new_weights, new_offsets)
    if constant:
        out.add_soft([], constant)                   # the cost every assignment pays
    return out


def lower(
    model: Model,
    keep: Iterable[str] = KINDS,
    *,
    card_encoding: str = "auto",
    graph_encoding: str = "pairwise",
    unit_soft: bool = False,
    merge_softs: bool = False,
) -> Model:
    """Return ``model`` rewritten so that it only uses the kinds in ``keep``.

    Parameters
    ----------
    model : Model
    keep : iterable of str
        The backend's native kinds (``"clause"`` and ``"soft"`` are required).
    card_encoding : str
        Encoding for cardinalities that must become clauses (:data:`CARD_ENCODINGS`).
    graph_encoding : str
        ``"pairwise"`` or ``"clique"`` (:data:`GRAPH_ENCODINGS`).
    unit_soft : bool
        Also relax non-unit soft clauses into units (:func:`relax_soft`).
    merge_softs : bool
        First merge the soft units over each exactly-one cardinality
        (:func:`merge_exactly_one_softs`: same cost on every feasible assignment).

    Examples
    --------
    >>> m = Model(); xs = m.new_vars("x", 3)
    >>> m.add_graph(xs, [[0, 1], [1, 2]]); m.add_soft_units(xs, 1)
    >>> low = lower(m, keep={"clause", "soft"})
    >>> sorted(low.kinds()), low.stats()["n_hard"]
    (['clause', 'soft'], 2)
    """
    keep = frozenset(keep)
    if not {"clause", "soft"} <= keep:
        raise UnsupportedConstraintError("every backend must handle 'clause' and 'soft' natively")
    out = merge_exactly_one_softs(model) if merge_softs else model.derived()
    if "graph" not in keep and out.graphs:
        out = lower_graph(out, graph_encoding, to_cardinality="cardinality" in keep)
    if "cardinality" not in keep and out.cardinalities:
        out = lower_cardinality(out, card_encoding)
    if unit_soft:
        out = relax_soft(out)
    out._n_input_vars = model.n_input_vars
    return out


