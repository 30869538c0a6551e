"""RC2 backend specifics: options, weights, empty clauses, time-limit answers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules import Status, solve
from satrules.backends.base import package_version
from satrules.backends.rc2 import RC2Backend
from satrules.exceptions import BackendError, EncodingError
from satrules.ir import Model
from satrules.ir.constraints import ClauseArray
from tests.backends.conftest import hard_model
from tests.strategies import tiny_models

pytest.importorskip("pysat")

OPTION_SETS = [
    {"solver": "g4"},
    {"solver": "cd19", "stratified": True, "blo": "cluster"},
    {"solver": "m22", "stratified": False, "exhaust": True, "minz": True},
    {"adapt": True, "trim": 2},
    {"card_encoding": "totalizer", "graph_encoding": "clique"},
    {"card_encoding": "sortnetwrk", "stratified": True, "blo": "full"},
    {"merge_softs": False},
    {"hint_phases": False},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
@settings(max_examples=25, deadline=None)
@given(model=tiny_models(max_vars=5))
def test_options_keep_the_optimum(options, model):
    """Every option combination (SAT solver, stratification, exhaust, minz, adapt, trim,
    encodings) gives the brute-force status and optimal cost."""
    want = solve(model, backend="bruteforce")
    got = solve(model, backend="rc2", **options)
    assert got.status is want.status
    assert got.cost == want.cost
    assert got.options["solver"] == options.get("solver", "g3")


@settings(max_examples=30, deadline=None)
@given(weights=st.lists(st.integers(1, 2**100), min_size=2, max_size=5))
def test_weights_beyond_64_bits_are_exact(weights):
    """Soft weights up to 2**100 (x_i wanted true, at most one may be) cost exactly
    the sum of all but the largest weight."""
    m = Model()
    xs = m.new_vars("x", len(weights))
    m.add_soft_units(xs, np.array(weights, dtype=object))
    m.add_cardinality(xs, "<=", 1)
    sol = solve(m, backend="rc2")
    assert sol.status is Status.OPTIMAL
    assert sol.cost == sum(weights) - max(weights)
    assert sol.reported_cost == sol.cost == sol.lower_bound


def test_empty_soft_clause_is_a_constant_cost():
    """An empty soft clause never reaches PySAT; its weight is added to the cost."""
    m = Model()
    x = m.new_var("x")
    m.add_soft([], 5)
    m.add_soft([x], 2)
    sol = solve(m, backend="rc2")
    assert (sol.status, sol.cost, sol["x"], sol.reported_cost) == (Status.OPTIMAL, 5, True, 5)


def test_empty_hard_clause_is_unsat():
    """An empty hard clause makes the model UNSATISFIABLE."""
    m = Model()
    m.add_soft([m.new_var("x")], 1)
    m.add_hard([])
    assert solve(m, backend="rc2").status is Status.UNSATISFIABLE


def test_zero_weight_never_reaches_pysat():
    """A zero weight that bypassed the IR checks is refused: PySAT would make it hard."""
    m = Model()
    x = m.new_var("x")
    m.add_soft([x], 1)
    m._soft = [ClauseArray(np.array([x]), np.array([0, 1]), np.array([0]))]
    m._soft_cache = None
    with pytest.raises(BackendError, match="not positive"):
        RC2Backend().solve(m)


@pytest.mark.parametrize("bad", [{"stratified": "yes"}, {"blo": "none"}, {"trim": -1},
                                 {"card_encoding": "magic"}, {"graph_encoding": "tree"}])
def test_bad_options_are_rejected(bad):
    """Invalid options raise EncodingError before any solving."""
    with pytest.raises(EncodingError):
        RC2Backend(**bad)


def test_stratified_auto_follows_weights():
    """``stratified="auto"`` stratifies only when the weights differ; the choice is recorded."""
    m = Model()
    xs = m.new_vars("x", 3)
    m.add_soft_units(xs, 1)
    assert solve(m, backend="rc2").options["stratified"] is False
    m.add_soft([-xs[0]], 2)
    assert solve(m, backend="rc2").options["stratified"] is True


def test_engine_metadata():
    """Engine name and version (python-sat's) are recorded."""
    sol = solve(Model(), backend="rc2")
    assert sol.engine == "RC2"
    assert sol.engine_version == package_version("python-sat") != ""


def test_time_limit_answer_has_a_sound_bound():
    """At the limit RC2 returns a hard-feasible assignment (FEASIBLE) whose cost is at least
    the lower bound proven so far, or UNKNOWN; the message says the limit struck."""
    model = hard_model()
    sol = solve(model, backend="rc2", time_limit=0.5)
    assert sol.status in (Status.FEASIBLE, Status.UNKNOWN)
    assert "time limit" in sol.message
    assert sol.lower_bound is not None and sol.lower_bound >= 0
    if sol.status is Status.FEASIBLE:
        assert model.evaluate(sol.values)
        assert sol.lower_bound <= sol.cost


@pytest.mark.parametrize("solver", ["cd19", "ks"])
def test_time_limit_with_an_uninterruptible_solver_is_refused(solver):
    """CaDiCaL / Kissat cannot be interrupted by PySAT: a time limit with them is a clear
    error up front (it would otherwise be silently ignored); without a limit cd19 works."""
    m = Model()
    m.add_soft([m.new_var("x")], 1)
    with pytest.raises(EncodingError, match="cannot interrupt"):
        solve(m, backend="rc2", solver=solver, time_limit=5)
    if solver == "cd19":
        assert solve(m, backend="rc2", solver=solver).cost == 0


def test_solver_without_limited_solve_is_a_clear_error():
    """Lingeling has no limited solve in PySAT, which RC2 always uses: a clear EncodingError."""
    m = Model()
    m.add_soft([m.new_var("x")], 1)
    with pytest.raises(EncodingError, match="cannot run RC2"):
        solve(m, backend="rc2", solver="lgl")


def test_merged_softs_give_the_same_optimum_on_imlib_partitions():
    """merge_softs (one soft per IMLIB slot instead of m + 1) keeps every partition's
    optimal cost, reported cost and lower bound, with and without an anchor."""
    from satrules.encoders.imlib import decode_imlib, encode_imlib

    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(12, 6))
    y = X[:, 0] ^ (X[:, 1] & X[:, 2])
    prior = None
    for part in (slice(0, 6), slice(6, 12)):
        enc = encode_imlib(X[part], y[part], n_rules=2, max_literals_per_rule=2,
                           objective="paper", prior=prior)
        plain = solve(enc.model, backend="rc2", merge_softs=False)
        merged = solve(enc.model, backend="rc2")   # merged by default
        assert merged.options["merge_softs"] and not plain.options["merge_softs"]
        assert merged.status is plain.status is Status.OPTIMAL
        assert merged.cost == plain.cost == merged.reported_cost == merged.lower_bound
        prior = decode_imlib(enc.layout, merged)


@settings(max_examples=60, deadline=None)
@given(model=tiny_models(max_vars=5), bits=st.lists(st.booleans(), min_size=5, max_size=5),
       merge=st.booleans())
def test_a_hint_steers_phases_but_keeps_the_optimum(model, bits, merge):
    """Phases set from any hint, feasible or not, never change the optimal cost."""
    want = solve(model, backend="bruteforce")
    hint = {v: bits[v - 1] for v in range(1, model.n_vars + 1)}
    got = solve(model, backend="rc2", hint=hint, merge_softs=merge)
    assert got.status is want.status
    assert got.cost == want.cost


def test_a_hint_picks_among_tied_optima():
    """Two optima of equal cost: the hinted one is returned whichever it is (RC2's SAT
    solver starts from the hint's phases); with ``hint_phases=False`` the hint is ignored."""
    m = Model()
    x, y = m.new_var("x"), m.new_var("y")
    m.add_hard([x, y])
    m.add_hard([-x, -y])
    for want_x in (True, False):
        got = solve(m, backend="rc2", hint={x: want_x, y: not want_x})
        assert got.status is Status.OPTIMAL and got["x"] is want_x and got["y"] is not want_x
    plain = solve(m, backend="rc2")["x"]
    for want_x in (True, False):
        assert solve(m, backend="rc2", hint={x: want_x, y: not want_x},
                     hint_phases=False)["x"] is plain


@st.composite
def _wcnfs(draw):
    n = draw(st.integers(1, 6))
    lit = st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v]))
    hard = draw(st.lists(st.lists(lit, min_size=1, max_size=3), max_size=12))
    unit_softs = draw(st.booleans())
    soft = draw(st.lists(st.lists(lit, min_size=1, max_size=1 if unit_softs else 3),
                         min_size=1, max_size=8))
    weights = draw(st.lists(st.integers(1, 5), min_size=len(soft), max_size=len(soft)))
    return n, hard, soft, weights


@settings(max_examples=200, deadline=None)
@given(case=_wcnfs(), solver=st.sampled_from(["g3", "g4", "m22"]), stratified=st.booleans())
def test_fast_bootstrap_finds_what_pysat_rc2_finds(case, solver, stratified):
    """The backend's RC2 adds the hard clauses through the SAT solver's C function: it
    returns the very model and cost of PySAT's own RC2 (the same clauses in the same
    order), unsatisfiable hard clauses included; other solvers and soft clauses that
    are not units take PySAT's path."""
    from pysat.examples.rc2 import RC2, RC2Stratified
    from pysat.formula import WCNF

    from satrules.backends.rc2 import _rc2_classes

    n, hard, soft, weights = case

    def formula():
        wcnf = WCNF()
        for cl in hard:
            wcnf.append(list(cl))
        for cl, w in zip(soft, weights, strict=True):
            wcnf.append(list(cl), weight=w)
        wcnf.nv = max(wcnf.nv, n)
        return wcnf

    fast, plain = _rc2_classes()[stratified], (RC2, RC2Stratified)[stratified]
    with fast(formula(), solver=solver) as a, plain(formula(), solver=solver) as b:
        got, want = a.compute(), b.compute()
        assert got == want
        assert (a.cost if got is not None else None) == (b.cost if want is not None else None)
