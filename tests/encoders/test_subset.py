"""The rule-subset formulation (:mod:`satrules.encoders.subset`): its optimum equals an
exhaustive search over subsets of the candidates, on every exact backend."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.backends.registry import available_backends, solve
from satrules.encoders.subset import decode_subset, encode_subset, hint_subset
from satrules.exceptions import EncodingError
from satrules.ir import Status

EXACT_BACKENDS = [b for b in available_backends() if b not in ("wcnf", "portfolio")]


def objective(values, t, sizes, lam, w_f, weights, chosen):
    """``lam * (weight of the rows the union of ``chosen`` gets wrong) + w_f * literals``."""
    fires = values[:, list(chosen)].any(axis=1) if chosen else np.zeros(len(t), dtype=bool)
    return lam * weights[fires != t].sum() + w_f * sizes[list(chosen)].sum()


def exhaustive(values, t, sizes, lam, w_f, weights, max_rules):
    p = values.shape[1]
    return min(objective(values, t, sizes, lam, w_f, weights, chosen)
               for k in range(min(p, max_rules) + 1)
               for chosen in itertools.combinations(range(p), k))


@st.composite
def tiny(draw):
    n = draw(st.integers(0, 8))
    p = draw(st.integers(0, 5))
    values = np.array(draw(st.lists(st.lists(st.booleans(), min_size=p, max_size=p),
                                    min_size=n, max_size=n)), dtype=bool).reshape(n, p)
    t = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    sizes = np.array(draw(st.lists(st.integers(0, 3), min_size=p, max_size=p)),
                     dtype=np.int64)
    weights = np.array(draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)),
                       dtype=np.int64)
    return values, t, sizes, weights, draw(st.integers(0, 4)), \
        draw(st.sampled_from([1, 3, 10])), draw(st.sampled_from([1, 2]))


@pytest.mark.parametrize("backend", EXACT_BACKENDS)
@settings(max_examples=40, deadline=None)
@given(data=tiny())
def test_optimum_equals_exhaustive_search(backend, data):
    """cost + offset is the objective of the candidates decoded, and the least over every
    subset of at most ``max_rules`` candidates."""
    values, t, sizes, weights, max_rules, lam, w_f = data
    enc = encode_subset(values, t, sizes, lam, w_f, max_rules, sample_weight=weights)
    sol = solve(enc.model, backend=backend, time_limit=20)
    assert sol.status is Status.OPTIMAL
    chosen = decode_subset(enc.layout, sol)
    assert len(chosen) <= max_rules
    assert sol.cost + enc.layout.offset == objective(values, t, sizes, lam, w_f, weights,
                                                     chosen)
    assert sol.cost + enc.layout.offset == exhaustive(values, t, sizes, lam, w_f, weights,
                                                      max_rules)


@settings(max_examples=40, deadline=None)
@given(data=tiny(), draw=st.data())
def test_hint_is_feasible_and_costs_its_objective(data, draw):
    values, t, sizes, weights, max_rules, lam, w_f = data
    p = values.shape[1]
    chosen = sorted(draw.draw(st.sets(st.integers(0, max(p - 1, 0)), max_size=min(p, max_rules)))
                    ) if p else []
    enc = encode_subset(values, t, sizes, lam, w_f, max_rules, sample_weight=weights)
    hint = hint_subset(enc.layout, chosen)
    assert set(hint) == set(range(1, enc.model.n_vars + 1))
    assert enc.model.evaluate(hint)
    assert enc.model.cost(hint) + enc.layout.offset == objective(
        values, t, sizes, lam, w_f, weights, chosen)


def test_fractional_weights_are_scaled():
    values = np.array([[1, 0], [0, 1], [1, 1]], dtype=bool)
    t = np.array([1, 0, 1])
    enc = encode_subset(values, t, [1, 1], data_fidelity=2.5, feature_weight=1)
    assert enc.layout.scale == 2
    sol = solve(enc.model, backend="bruteforce")
    assert decode_subset(enc.layout, sol) == [0]
    assert (sol.cost + enc.layout.offset) / enc.layout.scale == 1   # one literal, no error


@pytest.mark.parametrize("kwargs, message", [
    ({"values": [[2]], "t": [1], "sizes": [1]}, "values must hold only 0/1"),
    ({"values": [[1]], "t": [1, 0], "sizes": [1]}, r"t must have shape \(1,\)"),
    ({"values": [[1]], "t": [1], "sizes": [-1]}, "sizes must be 1 non-negative integers"),
    ({"values": [[1]], "t": [1], "sizes": [1], "sample_weight": [0]},
     "sample_weight must be 1 positive integers"),
    ({"values": [[1]], "t": [1], "sizes": [1], "max_rules": -1},
     "max_rules must be a non-negative integer"),
    ({"values": [1, 0], "t": [1], "sizes": [1]}, "values must be a 2-D"),
])
def test_bad_input_is_refused(kwargs, message):
    with pytest.raises(EncodingError, match=message):
        encode_subset(**kwargs)


def test_bad_hint_is_refused():
    enc = encode_subset(np.array([[1, 0]], dtype=bool), [1], [1, 1])
    with pytest.raises(EncodingError, match="hint candidates must lie in 0..1"):
        hint_subset(enc.layout, [2])
