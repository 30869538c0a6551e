"""An engine's exception on its thread reaches the caller (``start_daemon``/``EngineRun``).

The in-process engines run on daemon threads (``satrules.backends.base.start_daemon``) so
that Ctrl-C reaches the main thread.  What the engine call raises there must be raised by
the solve, with and without a time limit, not printed by the thread and followed by an
answer read from an engine that never finished.
"""

from __future__ import annotations

import pytest

from satrules.backends import registry
from satrules.backends.base import join_or_stop, start_daemon
from satrules.ir import Model


class EngineBroke(RuntimeError):
    pass


def _broken(*args, **kwargs):
    raise EngineBroke("the engine broke")


def _model() -> Model:
    m = Model()
    a, b = m.new_var("a"), m.new_var("b")
    m.add_hard([a, b])
    m.add_soft([-a], weight=2)
    m.add_soft([-b], weight=1)
    return m


def test_the_event_hands_back_the_value_or_the_exception():
    ok = start_daemon(lambda: 42, "test-ok", stop=lambda: None)
    assert join_or_stop(ok, None) and ok.outcome() == 42
    bad = start_daemon(lambda: _broken(), "test-bad", stop=lambda: None)
    assert join_or_stop(bad, None)
    with pytest.raises(EngineBroke, match="the engine broke"):
        bad.outcome()


def _break(monkeypatch, backend: str) -> None:
    if backend == "highs":
        highspy = pytest.importorskip("highspy")
        monkeypatch.setattr(highspy.Highs, "run", _broken)
    elif backend == "cpsat":
        cp_model = pytest.importorskip("ortools.sat.python.cp_model")
        monkeypatch.setattr(cp_model.CpSolver, "solve", _broken)
    else:
        rc2 = pytest.importorskip("pysat.examples.rc2")
        monkeypatch.setattr(rc2.RC2, "compute", _broken)
        monkeypatch.setattr(rc2.RC2Stratified, "compute", _broken)


@pytest.mark.parametrize("limit", [None, 600.0])
@pytest.mark.parametrize("backend", ["highs", "cpsat", "rc2"])
def test_an_engine_error_on_its_thread_reaches_the_caller(monkeypatch, backend, limit):
    if backend not in registry.available_backends():
        pytest.skip(f"{backend} is not installed")
    _break(monkeypatch, backend)
    with pytest.raises(EngineBroke, match="the engine broke"):
        registry.solve(_model(), backend=backend, time_limit=limit)


def test_a_staged_stage_error_reaches_the_caller(monkeypatch):
    _break(monkeypatch, "rc2")
    with pytest.raises(EngineBroke, match="the engine broke"):
        registry.solve(_model(), backend="staged", stages=["rc2"], time_limit=600.0)
