"""Hypothesis strategies that build tiny IR models (small enough for brute force)."""

from __future__ import annotations

from hypothesis import strategies as st

from satrules.ir import Model


@st.composite
def literals(draw, n_vars: int, min_size: int = 0, max_size: int = 4):
    """A list of non-zero literals over variables 1..n_vars."""
    return draw(st.lists(
        st.integers(1, n_vars).flatmap(lambda v: st.sampled_from([v, -v])),
        min_size=min_size, max_size=max_size,
    ))


@st.composite
def tiny_models(draw, max_vars: int = 6, max_hard: int = 6, max_soft: int = 6,
                cardinality: bool = True, graph: bool = True, big_weights: bool = False):
    """A random model: hard/soft clauses, optional cardinalities and a graph."""
    n = draw(st.integers(1, max_vars))
    m = Model()
    m.new_vars("x", n)
    for _ in range(draw(st.integers(0, max_hard))):
        m.add_hard(draw(literals(n, min_size=1, max_size=3)))
    wmax = 2**70 if big_weights else 9
    for _ in range(draw(st.integers(0, max_soft))):
        m.add_soft(draw(literals(n, min_size=1, max_size=3)), draw(st.integers(1, wmax)))
    if cardinality:
        for _ in range(draw(st.integers(0, 2))):
            lits = draw(literals(n, min_size=1, max_size=n + 1))
            op = draw(st.sampled_from(["<=", ">=", "=="]))
            m.add_cardinality(lits, op, draw(st.integers(0, len(lits))))
    if graph and draw(st.booleans()):
        lits = draw(literals(n, min_size=2, max_size=n + 1))
        pairs = draw(st.lists(st.tuples(st.integers(0, len(lits) - 1),
                                        st.integers(0, len(lits) - 1))
                              .filter(lambda e: e[0] != e[1]), max_size=6))
        m.add_graph(lits, pairs)
    return m
