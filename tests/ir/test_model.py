"""The IR Model: validation, bulk adders, big weights, copies, semantics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.exceptions import EncodingError
from satrules.ir import Model
from tests.strategies import literals, tiny_models


def _model(n=4) -> Model:
    m = Model()
    m.new_vars("x", n)
    return m


@pytest.mark.parametrize("adder", [
    lambda m: m.add_hard([1, 0]),
    lambda m: m.add_soft([0], 1),
    lambda m: m.add_clauses([[1, 2], [0, 3]]),
    lambda m: m.add_soft_units([1, 0], 1),
    lambda m: m.add_cardinality([1, 0], "<=", 1),
    lambda m: m.add_graph([1, 0], [[0, 1]]),
])
def test_zero_literal_is_rejected(adder):
    """0 is not a literal in any adder."""
    with pytest.raises(EncodingError, match="0 is not a literal"):
        adder(_model())


@pytest.mark.parametrize("adder", [
    lambda m: m.add_hard([5]),
    lambda m: m.add_soft([-7], 1),
    lambda m: m.add_clauses(np.array([[1, 2], [3, 9]])),
    lambda m: m.add_soft_clauses([[1], [2, -5]], [1, 1]),
    lambda m: m.add_soft_units([5], 1),
    lambda m: m.add_cardinality([1, 6], ">=", 1),
    lambda m: m.add_graph([1, 5], [[0, 1]]),
])
def test_unknown_variable_is_rejected(adder):
    """A literal over a variable that was never created is an error naming it."""
    with pytest.raises(EncodingError, match="does not exist"):
        adder(_model())


@pytest.mark.parametrize("weight", [0, -1, 1.0, 2.5, True, False, None, "3", np.float64(2)])
def test_bad_weights_are_rejected(weight):
    """Soft weights must be positive ints: zero, negatives, floats, bools, None, str refused."""
    m = _model()
    with pytest.raises(EncodingError):
        m.add_soft([1], weight)
    with pytest.raises(EncodingError):
        m.add_soft_units([1, 2], weight)
    assert len(m.soft) == 0


@pytest.mark.parametrize("weights", [[1, 0], [3, -2], [1.0, 2.0], [True, True], [1, 2, 3]])
def test_bad_weight_arrays_are_rejected(weights):
    """Arrays of weights: any non-positive, float, bool entry or a wrong length is refused."""
    with pytest.raises(EncodingError):
        _model().add_soft_clauses([[1], [2]], weights)


def test_bad_cardinality_and_graph_arguments():
    """Unknown operator, non-int bound, malformed edges and self-loops are refused."""
    m = _model()
    with pytest.raises(EncodingError):
        m.add_cardinality([1, 2], "<", 1)
    with pytest.raises(EncodingError):
        m.add_cardinality([1, 2], "<=", 1.5)
    with pytest.raises(EncodingError):
        m.add_graph([1, 2], [[0, 2]])
    with pytest.raises(EncodingError):
        m.add_graph([1, 2], [[1, 1]])
    with pytest.raises(EncodingError):
        m.add_graph([1, 2], [0, 1, 1])
    with pytest.raises(EncodingError):
        m.add_clauses([1, 2, 3], offsets=[0, 2, 1, 3])


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_bulk_adders_equal_single_adders(data):
    """add_clauses / add_soft_clauses / add_soft_units build the same clauses, weights and
    costs as one add_hard / add_soft call per clause, in every input form."""
    n = 5
    hard = data.draw(st.lists(literals(n, 1, 3), max_size=6))
    soft = data.draw(st.lists(literals(n, 1, 3), max_size=6))
    weights = data.draw(st.lists(st.integers(1, 2**66), min_size=len(soft), max_size=len(soft)))
    units = data.draw(literals(n, 0, 5))
    unit_w = data.draw(st.integers(1, 50))
    single, bulk, csr = _model(n), _model(n), _model(n)
    for c in hard:
        single.add_hard(c)
    for c, w in zip(soft, weights, strict=True):
        single.add_soft(c, w)
    for lit in units:
        single.add_soft([lit], unit_w)
    bulk.add_clauses(hard)
    bulk.add_soft_clauses(soft, weights)
    bulk.add_soft_units(np.array(units, dtype=np.int64), unit_w)
    flat = [lit for c in hard for lit in c]
    offsets = np.cumsum([0] + [len(c) for c in hard])
    csr.add_clauses(np.array(flat, dtype=np.int64), offsets)
    csr.add_soft_clauses([lit for c in soft for lit in c], weights,
                         offsets=np.cumsum([0] + [len(c) for c in soft]))
    csr.add_soft_units(units, [unit_w] * len(units))
    for other in (bulk, csr):
        assert list(other.hard) == list(single.hard)
        assert list(other.soft) == list(single.soft)
        assert other.soft.weight_list() == single.soft.weight_list()
    rng = np.random.default_rng(len(hard))
    for _ in range(5):
        a = rng.random(n + 1) < 0.5
        assert bulk.cost(a) == csr.cost(a) == single.cost(a)
        assert bulk.evaluate(a) == single.evaluate(a)


def test_two_dimensional_clause_array():
    """A 2-D int array adds one clause per row."""
    m = _model()
    m.add_clauses(np.array([[1, -2], [3, 4]]))
    assert list(m.hard) == [(1, -2), (3, 4)]


def test_big_weights_are_exact():
    """Weights beyond 64 bits are stored as Python ints and costs add up exactly."""
    m = _model(2)
    m.add_soft([1], 2**70)
    m.add_soft_units([1, 2], [2**64 + 1, 3])
    m.add_soft([2], 2**63 - 1)
    assert m.soft.weights.dtype == object
    assert m.soft_weight_sum() == 2**70 + 2**64 + 1 + 3 + 2**63 - 1
    assert m.cost({1: False, 2: True}) == 2**70 + 2**64 + 1
    assert m.stats()["max_weight"] == 2**70


def test_int64_weights_sum_without_overflow():
    """Many int64 weights near 2**62 are summed exactly, not wrapped around."""
    m = _model(4)
    m.add_soft_units([1, 2, 3, 4], 2**62)
    assert m.soft_weight_sum() == 2**64
    assert m.cost({}) == 2**64


def test_identical_softs_add_up():
    """Identical soft clauses stay separate; their weights add up in the cost."""
    m = _model(1)
    m.add_soft([1], 2)
    m.add_soft([1], 3)
    assert len(m.soft) == 2 and m.cost({1: False}) == 5


def test_copy_is_independent():
    """Adding to a copy (variables, clauses, constraints) never changes the original."""
    m = _model(3)
    m.add_hard([1, 2])
    m.add_soft([3], 1)
    c = m.copy()
    c.new_var("y")
    c.add_hard([-1])
    c.add_soft([4], 7)
    c.add_cardinality([1, 2, 3], "<=", 1)
    c.add_graph([1, 2], [[0, 1]])
    assert m.n_vars == 3 and len(m.hard) == 1 and len(m.soft) == 1
    assert not m.cardinalities and not m.graphs
    assert "y" not in m.pool and c.var("y") == 4
    assert c.var(("x", 2)) == m.var(("x", 2)) == 3


def test_semantics_cardinality_graph_and_violations():
    """evaluate covers every kind; violations names the broken constraint."""
    m = _model(3)
    m.add_cardinality([1, 2, 3], "==", 1)
    m.add_graph([1, -2], [[0, 1]])
    assert m.evaluate({2: True})
    assert not m.evaluate({1: True})  # 1 and -2 both true: graph edge
    assert m.violations({1: True}) == ["graph constraint #0"]
    assert m.violations({}) == ["cardinality #0 (== 1)"]
    assert m.kinds() == {"cardinality", "graph"}


def test_assignment_forms_agree():
    """Mapping, bool array and signed-literal list describe the same assignment."""
    m = _model(3)
    m.add_soft_units([1, -2, 3], [1, 2, 4])
    forms = [{1: True, 2: True}, np.array([False, True, True, False]), [1, 2, -3]]
    assert {m.cost(a) for a in forms} == {2 + 4}


@settings(max_examples=30, deadline=None)
@given(model=tiny_models())
def test_stats_are_consistent(model):
    """stats() counts match the views."""
    s = model.stats()
    assert s["n_hard"] == len(model.hard) and s["n_soft"] == len(model.soft)
    assert s["n_cardinality"] == len(model.cardinalities)
    assert s["soft_weight_sum"] == sum(model.soft.weight_list())
    assert s["n_vars"] == model.n_vars == model.n_input_vars


def test_weight_list_mixing_64bit_overflow_and_small_weights():
    """A list mixing a weight in [2**63, 2**64) with small ones keeps exact ints (not float64)."""
    from satrules.ir import Model

    m = Model()
    x = m.new_var("x")
    m.add_soft_units([x, x], [2**63 + 5, 3])
    assert m.soft.weight_list() == [2**63 + 5, 3]
    assert m.cost({x: False}) == 2**63 + 8


def test_add_cardinalities_is_add_cardinality_per_row():
    """The bulk adder gives the same constraints in the same order as one call per row,
    and refuses what add_cardinality refuses."""
    rows = [[1, -2, 3], [-4, 5, 6]]
    one, bulk = Model(), Model()
    for m in (one, bulk):
        m.new_vars("x", 6)
    for row in rows:
        one.add_cardinality(row, "==", 1)
    bulk.add_cardinalities(np.array(rows), "==", 1)
    assert bulk.cardinalities == one.cardinalities
    for lits, op, bound in (([[1, 7]], "<=", 1), ([[0, 1]], "<=", 1), ([[1, 2]], "<", 1),
                            ([[1, 2]], "<=", 1.5), ([1, 2], "<=", 1)):
        with pytest.raises(EncodingError):
            bulk.add_cardinalities(np.array(lits), op, bound)
