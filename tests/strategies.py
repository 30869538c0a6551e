"""Hypothesis strategies that build tiny IR models (small enough for brute force)."""

from __future__ import annotations

import random

import numpy as np
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


def float_bound_model() -> Model:
    """Return: x (hard); soft (x or not x), not x, not x with weights 20935261115, 1 and
    87639201966 -- optimum 87639201967, which CP-SAT reported as the float bound
    87639201967.00002 (found by hypothesis under ``pytest -n 4``)."""
    m = Model()
    x = m.new_var("x")
    m.add_hard([x])
    m.add_soft([x, -x], 20935261115)
    m.add_soft([-x], 1)
    m.add_soft([-x], 87639201966)
    return m


def offset_noise_model() -> Model:
    """Return: softs x (53251447202), (x or not x) (129), not x (86), no hard clause --
    optimum 86, which CP-SAT reported as the float 86.0000038: its rounding error scales
    with the weight sum (found by hypothesis under ``pytest -n 4``)."""
    m = Model()
    x = m.new_var("x")
    m.add_soft([x], 53251447202)
    m.add_soft([x, -x], 129)
    m.add_soft([-x], 86)
    return m


def either_or_model(weight_x: int, weight_y: int) -> Model:
    """Return: x or y (hard); soft not x (``weight_x``), not y (``weight_y``).

    The optimum sets only the cheaper variable and costs ``min(weight_x, weight_y)``.
    """
    m = Model()
    x, y = m.new_var("x"), m.new_var("y")
    m.add_hard([x, y])
    m.add_soft([-x], weight_x)
    m.add_soft([-y], weight_y)
    return m


def covers_from_sets(sets, n_samples: int) -> np.ndarray:
    """A rules x samples bool cover matrix from one iterable of sample indices per rule."""
    out = np.zeros((len(sets), n_samples), dtype=bool)
    for r, members in enumerate(sets):
        out[r, list(members)] = True
    return out


def cdpr_worked_example() -> np.ndarray:
    """ALGORITHMS.md §4.4: r1={1..6}, r2={5..8}, r3={7,8,9}, r4={1,2}, r5={9,10} (0-based)."""
    return covers_from_sets([range(0, 6), range(4, 8), range(6, 9), range(0, 2), range(8, 10)], 10)


def random_maxsat(n_vars: int = 90, n_soft: int = 600, seed: int = 1) -> Model:
    """Random weighted Max-3-SAT: hard enough that no engine proves it within a second."""
    rng = random.Random(seed)
    m = Model()
    m.new_vars("x", n_vars)
    for _ in range(n_soft):
        m.add_soft([rng.choice([1, -1]) * rng.randint(1, n_vars) for _ in range(3)],
                   rng.randint(1, 5))
    return m


def three_vars() -> Model:
    """x1 or x2 (hard); soft: not x1 (2), not x2 (3), x3 (1). Optimum 2 with v = 101."""
    m = Model()
    x = m.new_vars("x", 3)
    m.add_hard([x[0], x[1]])
    m.add_soft([-x[0]], 2)
    m.add_soft([-x[1]], 3)
    m.add_soft([x[2]], 1)
    return m


def random_rules(rng: np.random.Generator, n_columns: int, n_rules: int, kind: str = "dnf"):
    """A RuleSet of ``n_rules`` rules of one or two literals on distinct random columns."""
    from satrules.rules import Literal, Rule, RuleSet

    def literals():
        size = min(n_columns, int(rng.integers(1, 3)))
        return tuple(Literal(int(c), bool(rng.integers(0, 2)))
                     for c in rng.choice(n_columns, size, replace=False))
    return RuleSet([Rule(literals()) for _ in range(n_rules)], kind, n_columns)
