"""paused_gc: the collector is off inside the block and its previous state comes back."""

from __future__ import annotations

import gc

import pytest

from satrules.ir.gcpause import paused_gc


def test_paused_gc_restores_an_enabled_collector_even_on_error():
    assert gc.isenabled()
    with pytest.raises(RuntimeError), paused_gc():
        assert not gc.isenabled()
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_paused_gc_nests_and_leaves_a_disabled_collector_disabled():
    with paused_gc():
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()   # the inner block must not re-enable it
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()   # the caller's choice is kept
    finally:
        gc.enable()


def test_fit_leaves_the_collector_as_it_found_it():
    """The estimators pause the collector per partition and turn it back on after."""
    import numpy as np

    from satrules import IMLIBClassifier

    X = np.array([[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]] * 4)
    y = np.array([1, 0, 0, 1] * 4)
    IMLIBClassifier(n_rules=1, max_literals_per_rule=1, partition_size=8,
                    backend="rc2", random_state=0).fit(X, y)
    assert gc.isenabled()
