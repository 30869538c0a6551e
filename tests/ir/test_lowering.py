"""Lowering passes are checked by counting (STYLE.md §7).

For a lowered formula, the set of input-variable assignments that extend to a
model (found with a SAT call under assumptions, since auxiliaries may be
many) must equal the set of models of the original constraint; so the counts
agree too, and for distinct literals they equal the binomial sums.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from satrules.backends.bruteforce import BruteForceBackend
from satrules.ir import Model, lower, lower_cardinality, lower_graph, relax_soft
from satrules.ir.lowering import (
    CARD_ENCODINGS,
    choose_card_encoding,
    clique_cover,
    merge_exactly_one_softs,
)
from tests.strategies import tiny_models

ENCODINGS = [e for e in CARD_ENCODINGS]
LITERAL_PATTERNS = [
    (1, 2, 3, 4, 5, 6),
    (1, 2, 3),
    (-1, 2, -3, 4),
    (1, 1, 2),
    (1, -1, 2, 3),
    (-2, -2, -2, 1),
    (1, -1),
    (4,),
    (),
]


def _assignments(n_vars: int) -> np.ndarray:
    """All 2**n assignments as bool rows indexed by variable (column 0 unused)."""
    rows = np.array(list(itertools.product([False, True], repeat=n_vars)), dtype=bool)
    return np.hstack([np.zeros((len(rows), 1), dtype=bool), rows.reshape(len(rows), n_vars)])


def _extendable(lowered: Model, n_in: int) -> set[int]:
    """Indices of input assignments that extend to a model of the lowered hard clauses."""
    assert not lowered.cardinalities and not lowered.graphs
    clauses = [list(c) for c in lowered.hard]
    if any(not c for c in clauses):
        return set()
    found = set()
    with Solver(name="g3", bootstrap_with=clauses) as sat:
        for i, row in enumerate(_assignments(n_in)):
            assumptions = [v if row[v] else -v for v in range(1, n_in + 1)]
            if sat.solve(assumptions=assumptions):
                found.add(i)
    return found


def _models(model: Model) -> set[int]:
    """Indices of assignments of the model's own variables satisfying its hard part."""
    return {i for i, row in enumerate(_assignments(model.n_vars)) if model.evaluate(row)}


def _card_model(lits, op, bound) -> Model:
    m = Model()
    m.new_vars("x", 6)
    m.add_cardinality(list(lits), op, bound)
    return m


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("op", ["<=", ">=", "=="])
def test_cardinality_encodings_by_counting(encoding, op):
    """Every encoding x op x bound (-1..n+1) over up to 6 literals, with repeated and
    complementary literals, has exactly the original constraint's projected models."""
    for lits in LITERAL_PATTERNS:
        for bound in range(-1, len(lits) + 2):
            m = _card_model(lits, op, bound)
            low = lower_cardinality(m, encoding)
            assert low.n_input_vars == 6 and not low.cardinalities
            assert _extendable(low, 6) == _models(m), (lits, op, bound)


@pytest.mark.parametrize("n, k", [(6, 0), (6, 1), (6, 2), (5, 3), (6, 6)])
def test_distinct_literal_counts_are_binomial_sums(n, k):
    """For n distinct literals: #(sum <= k) = sum_{i<=k} C(n,i), #(== k) = C(n,k),
    #(>= k) = sum_{i>=k} C(n,i) -- under the default ("auto") encoding."""
    want = {"<=": sum(comb(n, i) for i in range(k + 1)), "==": comb(n, k),
            ">=": sum(comb(n, i) for i in range(k, n + 1))}
    for op, count in want.items():
        m = Model()
        xs = m.new_vars("x", n)
        m.add_cardinality(xs, op, k)
        assert len(_extendable(lower_cardinality(m), n)) == count


def test_choose_card_encoding_rule():
    """The auto rule (bench_cardinality.py): pairwise for at-most/exactly-one over <= 5
    literals, seqcounter up to an effective bound of 5 (min(k, N-k) for >= and ==),
    kmtotalizer above."""
    assert choose_card_encoding(5, 1) == "pairwise"
    assert choose_card_encoding(5, 1, "==") == "pairwise"
    assert choose_card_encoding(5, 1, ">=") == "seqcounter"
    assert choose_card_encoding(6, 1) == "seqcounter"
    assert choose_card_encoding(1000, 5) == "seqcounter"
    assert choose_card_encoding(1000, 6) == "kmtotalizer"
    assert choose_card_encoding(1000, 997, ">=") == "seqcounter"
    assert choose_card_encoding(1000, 500, "==") == "kmtotalizer"


def test_auto_encoding_is_no_larger_than_the_worst():
    """Sanity on sizes: auto never picks an encoding more than 1.5x the smallest one, for
    the grid the benchmark measured (the rule's claim, checked on clause counts)."""
    for n, op, k in [(10, "<=", 1), (50, "==", 1), (200, "<=", 2), (200, "<=", 50),
                     (50, ">=", 48), (50, ">=", 2), (60, "==", 30)]:
        sizes = {}
        for enc in ("seqcounter", "kmtotalizer", "totalizer", "mtotalizer", "cardnetwrk",
                    "sortnetwrk"):
            m = Model()
            m.add_cardinality(m.new_vars("x", n), op, k)
            sizes[enc] = len(lower_cardinality(m, enc).hard)
        m = Model()
        m.add_cardinality(m.new_vars("x", n), op, k)
        assert len(lower_cardinality(m, "auto").hard) <= 1.5 * min(sizes.values()), (n, op, k)


def _pysat_one_by_one(model: Model, encoding: str) -> tuple[list[list[int]], int]:
    """The clauses and variable count of PySAT's CardEnc called once per constraint."""
    from pysat.card import CardEnc, EncType

    clauses, top = [], model.n_vars
    for card in model.cardinalities:
        name = choose_card_encoding(len(card.lits), card.bound, card.op) \
            if encoding == "auto" else encoding
        func = CardEnc.atmost if card.op == "<=" else CardEnc.equals
        cnf = func(lits=list(card.lits), bound=1, top_id=top, encoding=getattr(EncType, name))
        clauses += cnf.clauses
        top = max(top, cnf.nv)
    return clauses, top


@pytest.mark.parametrize("encoding", ["auto", "pairwise", "seqcounter"])
def test_at_most_one_runs_match_pysat_clause_for_clause(encoding):
    """The vectorised at-most-one / exactly-one lowering emits PySAT's own clauses, in
    PySAT's order, with PySAT's auxiliary numbering (runs of equal shapes, shapes
    changing, both operators, mixed signs), so the lowered WCNF is unchanged."""
    rng = np.random.default_rng(0)
    for trial in range(40):
        m = Model()
        xs = m.new_vars("x", 60)
        for _ in range(int(rng.integers(1, 7))):
            n = int(rng.choice([3, 4, 5, 6, 7, 12, 30]))
            lits = rng.choice(xs, size=n, replace=False) * rng.choice([-1, 1], size=n)
            m.add_cardinality(lits.tolist(), str(rng.choice(["<=", "=="])), 1)
        low = lower_cardinality(m, encoding)
        want, top = _pysat_one_by_one(m, encoding)
        assert [list(c) for c in low.hard] == want, trial
        assert low.n_vars == top and low.n_input_vars == 60


def test_at_most_one_runs_keep_order_around_other_cardinalities():
    """A run of at-most-ones is flushed before a constraint PySAT lowers itself, so the
    clause order (and the auxiliary numbering) follows the constraint order."""
    m = Model()
    xs = m.new_vars("x", 10)
    m.add_cardinality(xs[:6], "==", 1)
    m.add_cardinality(xs[2:9], "<=", 3)          # seqcounter through PySAT
    m.add_cardinality(xs[3:], "<=", 1)
    m.add_cardinality([1, 1, 2, 3], "<=", 1)     # a repeated variable: PySAT path
    low = lower_cardinality(m)
    assert _extendable(low, 10) == _models(m)
    from pysat.card import CardEnc, EncType

    top, want = 10, []
    for lits, op, k in [(xs[:6], "==", 1), (xs[2:9], "<=", 3), (xs[3:], "<=", 1)]:
        func = CardEnc.equals if op == "==" else CardEnc.atmost
        cnf = func(lits=[int(v) for v in lits], bound=k, top_id=top,
                   encoding=EncType.seqcounter)
        want += cnf.clauses
        top = max(top, cnf.nv)
    assert [list(c) for c in low.hard][:len(want)] == want


def test_lowering_leaves_the_input_untouched():
    """A pass returns a new model; the input keeps its constraints, keys and size."""
    m = Model()
    xs = m.new_vars("x", 6)
    m.add_cardinality(xs, "<=", 2)
    m.add_graph(xs, [[0, 1], [1, 2]])
    before = m.stats()
    low = lower(m, keep={"clause", "soft"})
    assert m.stats() == before and m.kinds() == {"cardinality", "graph"}
    assert low.kinds() == {"clause"}
    assert low.n_input_vars == 6 and low.n_vars > 6
    assert low.var(("x", 3)) == m.var(("x", 3))


@st.composite
def _graphs(draw):
    n = draw(st.integers(2, 6))
    lits = draw(st.lists(st.integers(1, 5).flatmap(lambda v: st.sampled_from([v, -v])),
                         min_size=n, max_size=n))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
                          .filter(lambda e: e[0] != e[1]), max_size=12))
    m = Model()
    m.new_vars("x", 5)
    m.add_graph(lits, np.array(edges, dtype=np.int64).reshape(-1, 2))
    return m


@settings(max_examples=60, deadline=None)
@given(model=_graphs(), method=st.sampled_from(["pairwise", "clique"]))
def test_graph_lowering_by_counting(model, method):
    """Pairwise and clique-cover lowering into clauses keep exactly the projected models."""
    low = lower_graph(model, method)
    assert not low.graphs
    assert _extendable(lower_cardinality(low), 5) == _models(model)


@settings(max_examples=60, deadline=None)
@given(model=_graphs())
def test_clique_cover_to_cardinality_by_counting(model):
    """Clique at-most-ones kept as cardinalities (CP-SAT's form) add no variables and keep
    exactly the models."""
    low = lower_graph(model, "clique", to_cardinality=True)
    assert low.n_vars == model.n_vars and not low.graphs
    assert _models(low) == _models(model)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 7), data=st.data())
def test_clique_cover_covers_every_edge_with_cliques(n, data):
    """Every edge lies in some returned clique, and every returned clique is a clique."""
    pairs = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
                               .filter(lambda e: e[0] != e[1]), max_size=15))
    edges = {tuple(sorted(e)) for e in pairs}
    cliques = clique_cover(n, np.array(sorted(edges), dtype=np.int64).reshape(-1, 2))
    covered = {pair for c in cliques for pair in itertools.combinations(c.tolist(), 2)}
    assert edges <= covered
    assert covered <= edges


@settings(max_examples=60, deadline=None)
@given(model=tiny_models(max_vars=5, max_soft=5))
def test_relax_soft_preserves_the_optimum(model):
    """Relaxing non-unit soft clauses leaves only unit softs and keeps the optimal cost."""
    relaxed = relax_soft(model)
    assert np.all(relaxed.soft.lengths == 1) or len(relaxed.soft) == 0
    want = BruteForceBackend().solve(model)
    got = BruteForceBackend().solve(relaxed)
    assert got.status is want.status and got.cost == want.cost
    assert relaxed.soft_weight_sum() == model.soft_weight_sum()


@settings(max_examples=40, deadline=None)
@given(model=tiny_models(max_vars=5),
       keep=st.sampled_from([{"clause", "soft"}, {"clause", "soft", "cardinality"},
                             {"clause", "soft", "graph"}]))
def test_lower_keeps_projected_models(model, keep):
    """``lower`` for every backend capability set keeps exactly the projected models."""
    low = lower_cardinality(lower(model, keep=keep), "seqcounter")
    full = lower_graph(low, "pairwise") if low.graphs else low
    assert _extendable(full, model.n_vars) == _models(model)


@st.composite
def exactly_one_models(draw):
    """Exactly-one groups (literals of either sign, possibly overlapping) with unit softs on
    their literals, a few other softs and hard clauses: what merge_exactly_one_softs rewrites."""
    n = draw(st.integers(2, 7))
    m = Model()
    xs = m.new_vars("x", n)
    for _ in range(draw(st.integers(1, 2))):
        size = draw(st.integers(2, n))
        chosen = draw(st.permutations(range(n)))[:size]
        m.add_cardinality([int(xs[v]) * draw(st.sampled_from([1, -1])) for v in chosen], "==", 1)
    lit = st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v]))
    for _ in range(draw(st.integers(0, 8))):
        m.add_soft([draw(lit)], draw(st.integers(1, 5)))
    for _ in range(draw(st.integers(0, 2))):
        m.add_soft(draw(st.lists(lit, min_size=2, max_size=3)), draw(st.integers(1, 5)))
    for _ in range(draw(st.integers(0, 2))):
        m.add_hard(draw(st.lists(lit, min_size=1, max_size=3)))
    return m


@settings(max_examples=200, deadline=None)
@given(model=exactly_one_models())
def test_merge_exactly_one_softs_keeps_every_feasible_cost(model):
    """Merging the unit softs of exactly-one groups leaves the hard part as it is and the
    cost of every feasible assignment unchanged (so optima and lower bounds too)."""
    merged = merge_exactly_one_softs(model)
    assert merged.n_vars == model.n_vars and merged.cardinalities == model.cardinalities
    assert len(merged.soft) <= len(model.soft)
    for bits in itertools.product([False, True], repeat=model.n_vars):
        values = np.array([False, *bits])
        assert merged.evaluate(values) == model.evaluate(values)
        if model.evaluate(values):
            assert merged.cost(values) == model.cost(values)


def test_merge_exactly_one_softs_on_imlib_slots():
    """IMLIB's paper objective (a used slot costs 2; with a prior, a moved slot costs 2)
    becomes one unit of weight 2 per slot; other softs are kept in order."""
    m = Model()
    u, v, err = m.new_vars("u", 4), m.new_vars("v", 4), m.new_var("err")
    m.add_cardinality(u, "==", 1)
    m.add_cardinality(v, "==", 1)
    m.add_soft_units([-u[0], -u[1], -u[2], u[3]], 1)       # first partition: skip is u[3]
    m.add_soft_units([-v[0], v[1], -v[2], -v[3]], 1)       # anchored to column 1
    m.add_soft([-err], 10)
    merged = merge_exactly_one_softs(m)
    got = [(list(c), w) for c, w in zip(merged.soft, merged.soft.weight_list(), strict=True)]
    assert got == [([-int(err)], 10), ([int(u[3])], 2), ([int(v[1])], 2)]


def test_merge_exactly_one_softs_adds_the_constant_and_keeps_cheaper_groups():
    """A cost every choice pays becomes an empty soft clause; a group whose merged form
    would not have fewer softs is left alone; 64-bit overflowing weights disable the pass."""
    m = Model()
    x = m.new_vars("x", 3)
    m.add_cardinality(x, "==", 1)
    m.add_soft_units(x, 4)                                 # any choice falsifies two: 8
    merged = merge_exactly_one_softs(m)
    got = [(list(c), w) for c, w in zip(merged.soft, merged.soft.weight_list(), strict=True)]
    assert got == [([], 8)]
    one = Model()
    y = one.new_vars("y", 3)
    one.add_cardinality(y, "==", 1)
    one.add_soft_units([-y[0], -y[1]], [1, 2])            # two units, two distinct costs
    assert merge_exactly_one_softs(one).soft.weight_list() == [1, 2]
    big = Model()
    z = big.new_vars("z", 2)
    big.add_cardinality(z, "==", 1)
    big.add_soft_units(z, np.array([2**70, 1], dtype=object))
    assert merge_exactly_one_softs(big).soft.weight_list() == [2**70, 1]
