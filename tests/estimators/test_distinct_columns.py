"""A partition is encoded over its distinct columns (:func:`distinct_columns`): the
optimum of every encoder keeps its cost, the anchor and warm start keep their columns,
and the rules decoded from the smaller encoding, widened back, score as well on the
partition's rows as the full encoding's."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.backends.registry import solve
from satrules.encoders.imli import decode_imli, encode_imli, hint_imli
from satrules.encoders.imlib import decode_imlib, encode_imlib, hint_imlib
from satrules.estimators._base import _ColumnView, distinct_columns
from tests.strategies import random_rules


def _partition(draw_rows, seed):
    """A small 0/1 matrix whose columns repeat (as the thresholds of a feature do when
    a partition has few rows), and labels."""
    rng = np.random.default_rng(seed)
    n_rows, n_base = draw_rows, int(rng.integers(1, 5))
    base = rng.integers(0, 2, size=(n_rows, n_base), dtype=np.uint8)
    copies = rng.integers(0, n_base, size=int(rng.integers(0, 5)))
    Xb = np.concatenate([base, base[:, copies]], axis=1)[:, rng.permutation(n_base + len(copies))]
    return Xb, rng.integers(0, 2, n_rows).astype(bool), rng


def _errors(rules, Xb, y):
    return int(np.count_nonzero(rules.evaluate(Xb) != y))


@settings(max_examples=60, deadline=None)
@given(n_rows=st.integers(1, 7), seed=st.integers(0, 2**16), n_rules=st.integers(1, 2),
       kind=st.sampled_from(["dnf", "cnf"]), anchored=st.booleans())
def test_imli_optimum_over_distinct_columns(n_rows, seed, n_rules, kind, anchored):
    Xb, y, rng = _partition(n_rows, seed)
    prior = random_rules(rng, Xb.shape[1], n_rules, kind) if anchored else None
    view = _ColumnView(Xb.shape[1], distinct_columns(Xb, (prior,)))
    full = encode_imli(Xb, y, n_rules=n_rules, rule_type=kind, prior=prior)
    small = encode_imli(view.take(Xb), y, n_rules=n_rules, rule_type=kind,
                        prior=view.narrow(prior))
    a, b = solve(full.model, backend="rc2"), solve(small.model, backend="rc2")
    assert a.cost == b.cost
    # the smaller encoding's rules, widened, are an optimum of the full encoding
    realised = hint_imli(full.layout, view.widen(decode_imli(small.layout, b)))
    assert full.model.evaluate(realised) and full.model.cost(realised) == a.cost


@settings(max_examples=40, deadline=None)
@given(n_rows=st.integers(1, 6), seed=st.integers(0, 2**16),
       objective=st.sampled_from(["exact", "paper"]), anchored=st.booleans())
def test_imlib_optimum_over_distinct_columns(n_rows, seed, objective, anchored):
    Xb, y, rng = _partition(n_rows, seed)
    prior = random_rules(rng, Xb.shape[1], 1) if anchored else None
    view = _ColumnView(Xb.shape[1], distinct_columns(Xb, (prior,)))
    kwargs = dict(n_rules=1, max_literals_per_rule=2, objective=objective)
    full = encode_imlib(Xb, y, prior=prior, **kwargs)
    small = encode_imlib(view.take(Xb), y, prior=view.narrow(prior), **kwargs)
    a, b = solve(full.model, backend="rc2"), solve(small.model, backend="rc2")
    assert a.cost == b.cost
    if not anchored:   # (with an anchor, hint_imlib may place the literals in other slots
        # than the anchor's and pay for changes: so it does on the full encoding's optimum)
        realised = hint_imlib(full.layout, view.widen(decode_imlib(small.layout, b)))
        assert full.model.evaluate(realised) and full.model.cost(realised) == a.cost


@settings(max_examples=200, deadline=None)
@given(n_rows=st.one_of(st.integers(0, 20), st.integers(60, 140)), seed=st.integers(0, 2**16))
def test_one_column_per_pattern_and_the_kept_rules_columns(n_rows, seed):
    """One column of every distinct pattern (the middle one of its group), plus the
    columns of the rules to keep; None when nothing would be dropped.  Up to 64 rows the
    patterns are one 64-bit word each, beyond that several."""
    Xb, _, rng = _partition(max(n_rows, 1), seed)
    Xb = Xb[:n_rows]
    keep = random_rules(rng, Xb.shape[1], 2)
    for rules in (None, keep):
        cols = distinct_columns(Xb, (rules, None))
        chosen = np.arange(Xb.shape[1]) if cols is None else cols
        patterns = {Xb[:, c].tobytes() for c in range(Xb.shape[1])}
        assert {Xb[:, c].tobytes() for c in chosen} == patterns
        used = {lit.column for r in (rules.rules if rules else ()) for lit in r.literals}
        assert used <= set(chosen.tolist())
        assert list(chosen) == sorted(set(chosen.tolist()))
        if rules is None and cols is not None:
            assert len(cols) == len(patterns)
            for c in cols:
                group = [j for j in range(Xb.shape[1])
                         if np.array_equal(Xb[:, j], Xb[:, c])]
                assert c == group[(len(group) - 1) // 2]
