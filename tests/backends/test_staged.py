"""Tests of the staged backend: stages in order, shared limit, merged bounds, answers re-checked."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from satrules.backends import registry
from satrules.backends.base import BackendBase
from satrules.backends.staged import _MARGIN, _MARGIN_SHARE, _MIN_STAGE, StagedBackend
from satrules.exceptions import BackendError, BackendUnavailableError, EncodingError
from satrules.ir import Model, Solution, Status, make_solution
from satrules.ir.constraints import KINDS
from tests.backends.conftest import unprovable_model
from tests.strategies import either_or_model, tiny_models


def _toy() -> Model:
    """x or y hard; soft: not x (3), not y (1): optimum y=1, x=0, cost 1."""
    return either_or_model(3, 1)


class _Fake(BackendBase):
    """A scripted stage: returns ``answer(model)`` and records what it was given."""

    name = "fake"
    native = KINDS
    calls: list = []
    answer = None

    def solve(self, model, *, time_limit=None, seed=None, hint=None):
        type(self).calls.append({"time_limit": time_limit, "hint": hint, "seed": seed})
        return type(self).answer(model)


class FakeA(_Fake):
    calls: list = []


class FakeB(_Fake):
    calls: list = []


@pytest.fixture
def fakes(monkeypatch):
    """Register FakeA / FakeB as backends 'fake_a' / 'fake_b' for one test."""
    monkeypatch.setitem(registry.BACKENDS, "fake_a", f"{__name__}:FakeA")
    monkeypatch.setitem(registry.BACKENDS, "fake_b", f"{__name__}:FakeB")
    FakeA.calls, FakeB.calls = [], []
    return FakeA, FakeB


def _answer(status, values=None, bound=None, check=True):
    """A stage answer; with ``check=False`` it bypasses make_solution (a lying engine)."""
    def build(model):
        if not check:
            vals = np.zeros(model.n_vars + 1, dtype=bool)
            vals[1:] = values
            return Solution(Status(status), vals, 0, model, 0, bound)
        return make_solution(model, Status(status), None if values is None else
                             {i + 1: v for i, v in enumerate(values)}, lower_bound=bound)
    return build


@settings(max_examples=25, deadline=None)
@given(model=tiny_models(max_vars=6))
def test_agrees_with_brute_force_with_and_without_limit(model):
    """Staged rc2 -> cpsat gives the brute-force optimum, with or without a time limit."""
    want = registry.solve(model, backend="bruteforce")
    for limit in (None, 20):
        got = registry.solve(model, backend="staged", time_limit=limit)
        assert got.status.is_feasible == want.status.is_feasible
        if want.status.is_feasible:
            assert got.status is Status.OPTIMAL and got.cost == want.cost


def test_first_stage_proof_ends_the_run():
    """When RC2 proves the optimum, CP-SAT never runs."""
    sol = StagedBackend().solve(_toy(), time_limit=10)
    assert sol.status is Status.OPTIMAL and sol.cost == 1
    assert sol.engine == "RC2" and "cpsat" not in sol.message


def test_unprovable_model_answer_is_in_time_and_verified():
    """On a model no engine proves in minutes, the answer comes (a stage that ignored its
    limit would make it hang; the wall time is measured by ``benchmarks/
    bench_time_limits.py --suite``) from the stages in
    their order (RC2, then CP-SAT last; under load a stage may use up the limit, so the
    later ones are skipped, or still be running 1.5 s past it, so it is abandoned --
    which stages finish depends on the machine, so
    :func:`test_every_stage_runs_when_none_proves` checks that with scripted stages); a
    FEASIBLE answer is verified and the cheapest of the stages'
    incumbents, and the bound is the best any stage proved.  (On a loaded machine no
    stage may find an incumbent in 3 s: then the answer is UNKNOWN with the merged bound
    -- never a wrong one.)"""
    model = unprovable_model()
    sol = StagedBackend().solve(model, time_limit=3.0)
    ran = sol.engine.split(" -> ")
    notes = sol.message.split("; ")
    assert len(notes) == len(ran)
    # each note starts with its stage's name: the stages ran in order, and only the last
    # may have been abandoned (still running 1.5 s past the limit, under load)
    stages = [name for name, _ in StagedBackend().stages]   # rc2, hermax if installed, cpsat
    assert [note.split(":")[0] for note in notes] == stages[:len(notes)]
    assert stages[0] == "rc2" and stages[-1] == "cpsat"
    assert not any("abandoned" in note for note in notes[:-1])
    assert sol.status in (Status.FEASIBLE, Status.UNKNOWN)
    costs = [int(n.split("cost ")[1].split(",")[0]) for n in notes if "cost " in n]
    bounds = [int(n.split("bound ")[1]) for n in notes if "bound " in n]
    if sol.status is Status.FEASIBLE:
        assert model.evaluate(sol.assignment) and sol.cost == model.cost(sol.values)
        assert sol.cost == min(costs)
    else:
        assert costs == [] and sol.values is None
    if bounds:
        assert sol.lower_bound == max(bounds)


def test_every_stage_runs_when_none_proves(fakes):
    """No stage proves its answer: every stage runs, in order, each warm-started with the
    best incumbent so far, and the engine string and the notes list them all."""
    a, b = fakes
    a.answer = staticmethod(_answer("FEASIBLE", [True, True], bound=0))   # cost 4
    b.answer = staticmethod(_answer("FEASIBLE", [False, True], bound=0))  # cost 1
    sol = StagedBackend(stages=["fake_a", "fake_b", "fake_a"]).solve(_toy(), time_limit=10)
    assert sol.engine == "fake_a -> fake_b -> fake_a"
    assert len(a.calls) == 2 and len(b.calls) == 1
    assert b.calls[0]["hint"] == {1: True, 2: True}    # a's incumbent
    assert a.calls[1]["hint"] == {1: False, 2: True}   # b's, the cheaper
    assert len(sol.message.split("; ")) == 3
    assert sol.status is Status.FEASIBLE and sol.cost == 1 and sol.lower_bound == 0


def test_bounds_of_two_stages_prove_optimality_together(fakes):
    """Stage A finds the optimum without proof; stage B proves the bound without a model:
    merged, the answer is OPTIMAL.  B gets A's incumbent as its hint."""
    a, b = fakes
    a.answer = staticmethod(_answer("FEASIBLE", [False, True], bound=0))
    b.answer = staticmethod(_answer("UNKNOWN", bound=1))
    sol = StagedBackend(stages=["fake_a", "fake_b"]).solve(_toy(), time_limit=5, seed=7)
    assert sol.status is Status.OPTIMAL and sol.cost == 1 and sol.lower_bound == 1
    assert b.calls[0]["hint"] == {1: False, 2: True} and b.calls[0]["seed"] == 7
    # stages share the limit less a margin for an engine's late answer; a share is at
    # least _MIN_STAGE seconds
    margin = min(_MARGIN, _MARGIN_SHARE * 5)
    want = max((5 - margin) * 0.1, _MIN_STAGE)
    assert a.calls[0]["time_limit"] == pytest.approx(want, abs=0.06)
    assert 4.0 < b.calls[0]["time_limit"] <= 5.0 - margin  # all that is left
    StagedBackend(stages=["fake_a", "fake_b"]).solve(_toy(), time_limit=50)
    assert a.calls[1]["time_limit"] == pytest.approx((50 - _MARGIN) * 0.1, abs=0.06)


def test_cheaper_incumbent_of_a_later_stage_wins(fakes):
    """The answer is the cheapest verified assignment of any stage."""
    a, b = fakes
    a.answer = staticmethod(_answer("FEASIBLE", [True, True], bound=0))
    b.answer = staticmethod(_answer("FEASIBLE", [False, True]))
    sol = StagedBackend(stages=["fake_a", "fake_b"]).solve(_toy(), time_limit=5)
    assert sol.status is Status.FEASIBLE and sol.cost == 1 and sol.lower_bound == 0


def test_a_lying_stage_is_caught(fakes):
    """An assignment that breaks a hard clause, passed off as OPTIMAL, raises BackendError."""
    a, _ = fakes
    a.answer = staticmethod(_answer("OPTIMAL", [False, False], bound=0, check=False))
    with pytest.raises(BackendError, match="violates"):
        StagedBackend(stages=["fake_a", "fake_b"]).solve(_toy(), time_limit=5)


def test_a_bound_above_another_stage_cost_is_caught(fakes):
    """A stage bound above a verified cost of another stage is a contradiction, not a proof."""
    a, b = fakes
    a.answer = staticmethod(_answer("FEASIBLE", [False, True]))  # cost 1
    b.answer = staticmethod(_answer("UNKNOWN", bound=2))
    with pytest.raises(BackendError, match="lower bound 2 exceeds the cost 1"):
        StagedBackend(stages=["fake_a", "fake_b"]).solve(_toy(), time_limit=5)


def test_unsat_claim_after_a_verified_assignment_is_caught(fakes):
    """A later stage claiming UNSATISFIABLE after an earlier one found a model is a lie."""
    a, b = fakes
    a.answer = staticmethod(_answer("FEASIBLE", [True, True]))
    b.answer = staticmethod(_answer("UNSATISFIABLE"))
    with pytest.raises(BackendError, match="claims UNSATISFIABLE"):
        StagedBackend(stages=["fake_a", "fake_b"]).solve(_toy(), time_limit=5)


def test_no_answer_from_any_stage(fakes):
    """No stage with a model: UNKNOWN with the best bound; all stages ERROR: ERROR."""
    a, b = fakes
    a.answer = staticmethod(_answer("UNKNOWN", bound=0))
    b.answer = staticmethod(_answer("UNKNOWN"))
    sol = StagedBackend(stages=["fake_a", "fake_b"]).solve(_toy(), time_limit=5)
    assert sol.status is Status.UNKNOWN and sol.values is None and sol.lower_bound == 0
    a.answer = b.answer = staticmethod(_answer("ERROR"))
    sol = StagedBackend(stages=["fake_a", "fake_b"]).solve(_toy(), time_limit=5)
    assert sol.status is Status.ERROR


def test_unsat_proof_of_first_stage_is_final():
    m = Model()
    x = m.new_var("x")
    m.add_clauses([[x], [-x]])
    sol = StagedBackend().solve(m, time_limit=5)
    assert sol.status is Status.UNSATISFIABLE and sol.engine == "RC2"


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"first_share": 0}, "first_share"),
    ({"first_share": 1.5}, "first_share"),
    ({"first_share": True}, "first_share"),
    ({"stages": "rc2"}, r"write \['rc2'\]"),
    ({"stages": ["staged"]}, "cannot contain itself"),
    ({"stages": ["no-such"]}, "not a registered backend"),
    ({"stages": []}, "at least one"),
])
def test_bad_options_are_named(kwargs, match):
    with pytest.raises(EncodingError, match=match):
        StagedBackend(**kwargs)


def test_missing_stage_engine_names_install_line(monkeypatch):
    """An explicitly named stage that is not installed raises with its install line."""
    cls = registry._load("cpsat")
    monkeypatch.setattr(cls, "available", classmethod(lambda c: False))
    with pytest.raises(BackendUnavailableError, match="pip install"):
        StagedBackend(stages=["rc2", "cpsat"])
    names = [name for name, _ in StagedBackend().stages]  # the default keeps what is installed
    assert names[0] == "rc2" and "cpsat" not in names


def test_stages_that_cannot_hold_the_weights_are_skipped(fakes, monkeypatch):
    """A stage whose engine cannot represent the total soft weight is skipped; if none can,
    the error names the weight sum."""
    a, b = fakes
    monkeypatch.setitem(registry.WEIGHT_LIMITS, "fake_a", 3)
    a.answer = b.answer = staticmethod(_answer("FEASIBLE", [False, True]))
    sol = StagedBackend(stages=["fake_a", "fake_b"]).solve(_toy(), time_limit=5)  # weights 4
    assert a.calls == [] and len(b.calls) == 1 and sol.cost == 1
    with pytest.raises(EncodingError, match="sum to 4"):
        StagedBackend(stages=["fake_a"]).solve(_toy(), time_limit=5)
