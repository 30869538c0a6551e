"""VarPool: ids in request order, keys both ways, blocks as O(1) families."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.exceptions import EncodingError
from satrules.ir import Model, VarPool


def test_ids_follow_request_order_and_keys_map_both_ways():
    """Singles, anonymous and block variables share one counter; lookups invert each other."""
    pool = VarPool()
    a = pool.new(("a", 0))
    anon = pool.new_anonymous(2)
    block = pool.new_block("b", (2, 3))
    c = pool.new("c")
    assert (a, anon.tolist(), block.tolist(), c) == (1, [2, 3], [[4, 5, 6], [7, 8, 9]], 10)
    assert pool.top == len(pool) == 10
    assert pool.key(2) is None and pool.key(10) == "c"
    for (i, j), var in np.ndenumerate(block):
        assert pool.id(("b", i, j)) == var
        assert pool.key(int(var)) == ("b", i, j)


@settings(max_examples=40, deadline=None)
@given(shapes=st.lists(st.lists(st.integers(0, 4), min_size=0, max_size=3), max_size=4))
def test_blocks_round_trip(shapes):
    """Every block element's key maps back to its id, for any shapes (incl. empty and 0-d)."""
    pool = VarPool()
    blocks = [pool.new_block(f"f{i}", tuple(s)) for i, s in enumerate(shapes)]
    expected_top = sum(int(np.prod(s)) if s else 1 for s in shapes)
    assert pool.top == expected_top
    for i, ids in enumerate(blocks):
        for index, var in np.ndenumerate(ids):
            assert pool.key(int(var)) == (f"f{i}", *index)
            assert pool.id((f"f{i}", *index)) == var


def test_key_errors():
    """Duplicate keys, a second block of one family, and keys inside a block family are
    refused; unknown keys and out-of-range ids raise KeyError."""
    pool = VarPool()
    pool.new("x")
    pool.new_block("b", 3)
    with pytest.raises(EncodingError):
        pool.new("x")
    with pytest.raises(EncodingError):
        pool.new_block("b", 2)
    with pytest.raises(EncodingError):
        pool.new(("b", 7))
    pool.new(("s", 0))
    with pytest.raises(EncodingError):
        pool.new_block("s", 2)
    with pytest.raises(EncodingError):
        pool.new_block("neg", (-1,))
    for key in [("b", 3), ("b", -1), ("b", 0, 0), "nope"]:
        with pytest.raises(KeyError):
            pool.id(key)
        assert key not in pool
    for var in (0, pool.top + 1):
        with pytest.raises(KeyError):
            pool.key(var)


def test_model_exposes_the_pool():
    """Model.new_var / new_vars / new_aux / var / key delegate to one pool per model."""
    m1, m2 = Model(), Model()
    xs = m1.new_vars("x", 3)
    assert m2.new_var(("x", 0)) == 1 and m1.var(("x", 2)) == xs[2] == 3
    aux = m1.new_aux(2)
    assert m1.key(int(aux[0])) is None and m1.n_vars == 5
