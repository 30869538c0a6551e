"""Tests of the IMLIB encoder (``satrules.encoders.imlib``): sizes, Example 1, exhaustive optima."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from satrules.backends.registry import available_backends, solve
from satrules.encoders.imlib import (
    decode_imlib,
    encode_imlib,
    estimate_imlib_size,
    hint_imlib,
    scale_fidelity,
    slots_from_rules,
)
from satrules.exceptions import EncodingError, ModelSizeError
from satrules.ir import Status, lower
from satrules.rules import Literal, Rule, RuleSet

EX1_X = np.array([[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]])
EX1_Y = np.array([1, 0, 0, 1])
#: every installed backend that runs without configuration (wcnf/portfolio need a command)
BACKENDS = available_backends(exclude={"wcnf", "portfolio"})
ENGINES = [b for b in BACKENDS if b != "bruteforce"]


# --------------------------------------------------------------------------- exhaustive oracle
def _rule_options(m: int, ell: int, distinct: bool):
    """Every slot tuple of one rule: (cols, positive) with col m = skipped, >= 1 used slot."""
    choices = [(m, False)] + [(j, pos) for j in range(m) for pos in (True, False)]
    out = []
    for slots in itertools.product(choices, repeat=ell):
        cols = np.array([c for c, _ in slots])
        used = cols[cols < m]
        if len(used) == 0 or (distinct and len(set(used.tolist())) < len(used)):
            continue
        out.append((cols, np.array([p for _, p in slots])))
    return out


def _covers(cols, positive, X):
    m = X.shape[1]
    ok = np.ones(len(X), dtype=bool)
    for c, p in zip(cols, positive, strict=True):
        if c < m:
            ok &= X[:, c] == p
    return ok


def exhaustive_optimum(X, y, k, ell, lam, objective, prior=None, distinct=False, weights=None):
    """Minimum of the documented objective over every rule set (slot tuples), by enumeration.

    ``weights``: each row's errors count that many times (all 1 when None).

    exact:  |R| + λ·errors (first partition); changed slots + polarity flips of
            previously used slots that stay used + λ·errors (with a prior).
    paper:  2·|R| + λ·(uncovered positives + Σ_negatives rules covering it) (first
            partition); 2·changed slots + the same error term (with a prior).
    """
    X = np.asarray(X, dtype=bool)
    y = np.asarray(y, dtype=bool)
    w = np.ones(len(y), dtype=np.int64) if weights is None else np.asarray(weights)
    m = X.shape[1]
    opts = _rule_options(m, ell, distinct)
    cover = np.array([_covers(c, p, X) for c, p in opts])           # (R, n)
    used = np.array([int((c < m).sum()) for c, _ in opts])
    combos = np.stack(np.meshgrid(*[np.arange(len(opts))] * k, indexing="ij"),
                      axis=-1).reshape(-1, k)                       # every rule set
    cov = cover[combos]                                             # (C, k, n)
    if prior is None:
        size = used[combos].sum(axis=1) * (2 if objective == "paper" else 1)
    else:
        pcols, ppos = slots_from_rules(prior, k, ell, m)
        anchor = np.zeros((k, len(opts)), dtype=np.int64)           # cost of option r at rule o
        for o in range(k):
            for r, (cols, pos) in enumerate(opts):
                changed = int((cols != pcols[o]).sum())
                flips = int(((pcols[o] < m) & (cols < m) & (pos != ppos[o])).sum())
                anchor[o, r] = 2 * changed if objective == "paper" else changed + flips
        size = anchor[np.arange(k), combos].sum(axis=1)
    if objective == "paper":
        err = (~cov.any(axis=1) & y) @ w + cov[:, :, ~y].sum(axis=1) @ w[~y]
    else:
        err = (cov.any(axis=1) != y) @ w
    return int((size + lam * err).min())


def rule_objective(rules, X, y, lam, objective, weights=None):
    """The first-partition objective of a decoded rule set (same definitions as above)."""
    X = np.asarray(X, dtype=bool)
    y = np.asarray(y, dtype=bool)
    w = np.ones(len(y), dtype=np.int64) if weights is None else np.asarray(weights)
    cov = np.array([RuleSet([r], "dnf", X.shape[1]).evaluate(X) for r in rules.rules])
    if objective == "paper":
        return 2 * rules.n_literals + lam * (int((~cov.any(axis=0) & y) @ w)
                                             + int(cov[:, ~y].sum(axis=0) @ w[~y]))
    return rules.n_literals + lam * int((cov.any(axis=0) != y) @ w)


# --------------------------------------------------------------------------- strategies
@st.composite
def tiny_problems(draw, max_n=6, max_m=4, max_k=2, max_l=2):
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(1, max_m))
    X = np.array(draw(st.lists(st.lists(st.booleans(), min_size=m, max_size=m),
                               min_size=n, max_size=n)), dtype=bool)
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    k = draw(st.integers(1, max_k))
    ell = draw(st.integers(1, max_l))
    lam = draw(st.sampled_from([1, 2, 3, 5]))
    return X, y, k, ell, lam


@st.composite
def rule_sets(draw, k, ell, m):
    """A DNF with 1..k rules of 1..ell literals (repeats and contradictions allowed)."""
    rules = []
    for _ in range(draw(st.integers(1, k))):
        size = draw(st.integers(1, ell))
        rules.append(Rule(tuple(Literal(draw(st.integers(0, m - 1)), draw(st.booleans()))
                                for _ in range(size))))
    return RuleSet(rules, "dnf", m)


# --------------------------------------------------------------------------- sizes
@pytest.mark.parametrize(("k", "ell", "n_vars", "n_hard", "n_soft"),
                         [(1, 1, 13, 44, 8), (1, 2, 22, 83, 12), (2, 2, 44, 166, 22)])
def test_paper_sizes_on_example_1(k, ell, n_vars, n_hard, n_soft):
    """Paper mode matches §3.2's 13/44/8, 22/83/12, 44/166/22 with pairwise-equivalent counts.

    The model holds each exactly-one (A + B) as ONE cardinality over N = m + 1 = 4
    literals instead of the paper's 1 + N(N-1)/2 = 7 clauses, so its own hard-clause
    count is ``n_hard - 7·k·l``; lowering it pairwise restores the paper's count
    exactly, and the sequential counter gives 46/87/174 (§3.9).
    """
    enc = encode_imlib(EX1_X, EX1_Y, k, ell, 10, objective="paper")
    stats = enc.model.stats()
    n_slots = k * ell
    assert stats["n_vars"] == n_vars
    assert stats["n_cardinality"] == n_slots
    assert all(c.op == "==" and c.bound == 1 and len(c.lits) == 4
               for c in enc.model.cardinalities)
    assert stats["n_hard"] + n_slots * (1 + 4 * 3 // 2) == n_hard
    assert stats["n_soft"] == n_soft
    pairwise = lower(enc.model, keep={"clause", "soft"}, card_encoding="pairwise").stats()
    assert pairwise["n_hard"] == n_hard and pairwise["n_soft"] == n_soft
    seq = lower(enc.model, keep={"clause", "soft"}, card_encoding="seqcounter").stats()
    assert seq["n_hard"] == {44: 46, 83: 87, 166: 174}[n_hard]


def test_estimate_matches_model_sizes():
    """The size estimate used by the guard bounds the model's counts (exact without reduce).

    It charges k η-clauses to every sample, positives take one, so the full encoding
    has exactly (k - 1)·n+ clauses fewer; the reduced one has fewer still.
    """
    rng = np.random.default_rng(0)
    X, y = rng.random((9, 5)) < 0.5, rng.random(9) < 0.5
    for reduce in (False, True):
        enc = encode_imlib(X, y, 2, 3, 10, reduce=reduce)
        est = estimate_imlib_size(9, 5, 2, 3, reduce=reduce)
        stats = enc.model.stats()
        assert stats["n_vars"] == est["n_vars"]
        slack = est["n_hard"] - stats["n_hard"] - stats["n_cardinality"]
        if reduce:
            assert slack > 0
        else:
            assert slack == (2 - 1) * int(y.sum())
        assert stats["n_soft"] <= est["n_soft"]


def test_reduce_cuts_hard_clauses():
    """The polarity-aware reduction emits half of E and fewer F/G clauses."""
    rng = np.random.default_rng(1)
    X, y = rng.random((12, 6)) < 0.5, rng.random(12) < 0.5
    full = encode_imlib(X, y, 2, 2, 5).model.stats()["n_hard"]
    red = encode_imlib(X, y, 2, 2, 5, reduce=True).model.stats()["n_hard"]
    assert red < full - 2 * 2 * 6 * 12 // 2


def test_size_guard_raises_with_advice():
    """An encoding above max_clauses raises ModelSizeError naming how to shrink it."""
    X = np.zeros((50, 40), dtype=bool)
    with pytest.raises(ModelSizeError, match="smaller partitions") as info:
        encode_imlib(X, np.zeros(50, dtype=bool), 3, 4, 10, max_clauses=10_000)
    assert "n_thresholds" in str(info.value) and "max_clauses" in str(info.value)
    encode_imlib(X[:2, :2], np.zeros(2, dtype=bool), 1, 1, 10, max_clauses=10_000)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"n_rules": 0}, "n_rules"),
    ({"max_literals_per_rule": 1.5}, "max_literals_per_rule"),
    ({"objective": "printed"}, "objective"),
    ({"data_fidelity": 0}, "data_fidelity"),
    ({"data_fidelity": "10"}, "data_fidelity"),
])
def test_bad_parameters_raise(kwargs, match):
    """Malformed parameters raise EncodingError (a ValueError) naming the parameter."""
    args = {"n_rules": 1, "max_literals_per_rule": 1, "data_fidelity": 10, "objective": "exact"}
    args.update(kwargs)
    with pytest.raises(EncodingError, match=match):
        encode_imlib(EX1_X, EX1_Y, **args)


def test_bad_data_raise():
    """Non-binary features, mismatched labels and empty feature sets are refused."""
    with pytest.raises(EncodingError, match="0/1"):
        encode_imlib([[0, 2]], [1])
    with pytest.raises(EncodingError, match="shape"):
        encode_imlib(EX1_X, [1, 0])
    with pytest.raises(EncodingError, match="no columns"):
        encode_imlib(np.zeros((3, 0)), [1, 0, 1])


def test_scale_fidelity_keeps_ratio():
    """Real-valued λ becomes an integer pair with the same ratio."""
    assert scale_fidelity(7) == (1, 7)
    size_w, err_w = scale_fidelity(0.75)
    assert err_w / size_w == 0.75


# --------------------------------------------------------------------------- Example 1
@pytest.mark.parametrize(("objective", "cost"), [("paper", 2), ("exact", 1)])
def test_example_1_bruteforce(objective, cost):
    """Example 1 (k = l = 1, λ = 10) costs 2 with the paper's C and 1 exactly; R = ¬x2."""
    enc = encode_imlib(EX1_X, EX1_Y, 1, 1, 10, objective=objective)
    sol = solve(enc.model, backend="bruteforce")
    assert sol.status is Status.OPTIMAL and sol.cost == cost
    rules = decode_imlib(enc.layout, sol)
    assert rules.rules == (Rule((Literal(1, negated=True),)),)
    assert rules.evaluate(EX1_X).tolist() == [True, False, False, True]


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize(("objective", "k", "ell", "cost"), [
    ("paper", 1, 2, 2), ("paper", 2, 2, 4), ("exact", 1, 2, 1), ("exact", 2, 2, 2)])
def test_example_1_larger(backend, objective, k, ell, cost):
    """§3.9: (k, l) = (1, 2) costs 2 and (2, 2) costs 4 in paper mode (1 and 2 exactly)."""
    enc = encode_imlib(EX1_X, EX1_Y, k, ell, 10, objective=objective)
    sol = solve(enc.model, backend=backend, time_limit=30)
    assert sol.status is Status.OPTIMAL and sol.cost == cost
    assert decode_imlib(enc.layout, sol).evaluate(EX1_X).tolist() == [True, False, False, True]


@pytest.mark.parametrize("objective", ["paper", "exact"])
def test_example_1_incremental(objective):
    """Partitions P1 = (X3, X2), P2 = (X4, X1): P1 learns ¬x2, P2 keeps it at anchor cost 0."""
    p1, p2 = [2, 1], [3, 0]
    enc1 = encode_imlib(EX1_X[p1], EX1_Y[p1], 1, 1, 10, objective=objective)
    sol1 = solve(enc1.model, backend="bruteforce")
    r1 = decode_imlib(enc1.layout, sol1)
    assert sol1.cost == (2 if objective == "paper" else 1)
    assert r1.rules[0].literals[0].negated
    enc2 = encode_imlib(EX1_X[p2], EX1_Y[p2], 1, 1, 10, objective=objective, prior=r1)
    assert enc2.layout.anchored
    # the prior realised on P2 is a feasible warm start costing the anchored objective
    assert enc2.hint is not None and enc2.model.evaluate(enc2.hint)
    sol2 = solve(enc2.model, backend="bruteforce")
    r2 = decode_imlib(enc2.layout, sol2)
    assert sol2.cost == exhaustive_optimum(EX1_X[p2], EX1_Y[p2], 1, 1, 10, objective, prior=r1)
    assert r2.evaluate(EX1_X[p2]).all()
    if objective == "exact":
        # the anchors fix column and polarity, and ¬x2 fits P2: nothing changes
        assert sol2.cost == 0 and r2 == r1


def test_paper_anchor_leaves_polarity_free():
    """C′ does not anchor p: flipping the polarity of an anchored slot is free (paper only)."""
    X = np.array([[1], [0]])
    y = np.array([1, 0])
    prior = RuleSet([[Literal(0, negated=True)]], "dnf", 1)   # ¬x0, wrong on both samples
    paper = encode_imlib(X, y, 1, 1, 10, objective="paper", prior=prior)
    exact = encode_imlib(X, y, 1, 1, 10, objective="exact", prior=prior)
    sol_p = solve(paper.model, backend="bruteforce")
    sol_e = solve(exact.model, backend="bruteforce")
    assert sol_p.cost == 0 and sol_e.cost == 1
    for enc, sol in ((paper, sol_p), (exact, sol_e)):
        assert decode_imlib(enc.layout, sol).rules == (Rule((Literal(0),)),)


# --------------------------------------------------------------------------- exhaustive optima
def _check_against_exhaustive(backend, X, y, k, ell, lam, objective, prior, options,
                              weights=None):
    enc = encode_imlib(X, y, k, ell, lam, objective=objective, prior=prior,
                       sample_weight=weights, **options)
    if backend == "bruteforce":
        assume(enc.model.n_vars <= 17)   # 2**17 assignments keep the oracle fast
    sol = solve(enc.model, backend=backend, time_limit=30)
    want = exhaustive_optimum(X, y, k, ell, lam, objective, prior,
                              distinct=options.get("distinct_features", False),
                              weights=weights)
    assert sol.status is Status.OPTIMAL
    assert sol.cost == want
    rules = decode_imlib(enc.layout, sol)
    assert rules.n_rules == k and all(1 <= len(r) <= ell for r in rules.rules)
    if prior is None:
        assert rule_objective(rules, X, y, lam, objective, weights) == sol.cost
    if objective == "exact" and not options.get("reduce"):
        # η agrees with evaluating the decoded rule set on every sample
        eta = np.asarray(sol.values)[enc.layout.eta]
        assert eta.tolist() == (rules.evaluate(X) != y).tolist()


_options = st.fixed_dictionaries({
    "reduce": st.booleans(),
    "distinct_features": st.booleans(),
    "symmetry_breaking": st.booleans(),
})


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("objective", ["exact", "paper"])
@settings(max_examples=40, deadline=None)
@given(problem=tiny_problems(), options=_options)
def test_first_partition_matches_exhaustive(backend, objective, problem, options):
    """The optimum equals the exhaustive minimum over rule sets with 1 <= |R_o| <= l.

    exact: |R| + λ·errors; paper: the clause-level objective 2·|R| + λ·(uncovered
    positives + rule-coverings of negatives).  Holds with every option (reduction,
    distinct features, symmetry breaking), and the decoded rules attain it.
    """
    if backend == "bruteforce":
        problem = (problem[0][:3, :2], problem[1][:3], 1, problem[3], problem[4])
    _check_against_exhaustive(backend, *problem, objective, None, options)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("objective", ["exact", "paper"])
@settings(max_examples=30, deadline=None)
@given(data=st.data(), options=_options)
def test_anchored_partition_matches_exhaustive(backend, objective, data, options):
    """With a prior, the optimum is the documented anchor distance + λ·errors.

    exact: changed slots + polarity flips of slots used before and after; paper:
    2 per changed slot (every u copied, polarity free).  Symmetry breaking is
    ignored with a prior, so the anchored optimum is never cut off.
    """
    X, y, k, ell, lam = data.draw(tiny_problems(max_n=5, max_m=3))
    if backend == "bruteforce":
        X, y, k = X[:2, :2], y[:2], 1
    prior = data.draw(rule_sets(k, ell, X.shape[1]))
    _check_against_exhaustive(backend, X, y, k, ell, lam, objective, prior, options)


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("objective", ["exact", "paper"])
@settings(max_examples=25, deadline=None)
@given(data=st.data(), options=_options)
def test_weighted_rows_match_exhaustive(backend, objective, data, options):
    """With ``sample_weight``, the optimum is the exhaustive minimum with each row's errors
    counted ``w_i`` times (first partition and anchored)."""
    X, y, k, ell, lam = data.draw(tiny_problems(max_n=5, max_m=3))
    weights = np.array(data.draw(st.lists(st.integers(1, 4), min_size=len(y),
                                          max_size=len(y))))
    prior = data.draw(st.none() | rule_sets(k, ell, X.shape[1]))
    _check_against_exhaustive(backend, X, y, k, ell, lam, objective, prior, options, weights)


@pytest.mark.parametrize("weights", [[0, 1, 1, 1], [1, 1, 1], [1.5, 1, 1, 1], [True] * 4])
def test_bad_sample_weight_is_refused(weights):
    with pytest.raises(EncodingError, match="sample_weight must hold 4 positive integers"):
        encode_imlib(EX1_X, EX1_Y, 1, 1, 10, sample_weight=weights)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_hint_is_feasible_and_costs_the_objective(data):
    """hint_imlib realises any rule set: feasible, and its cost is the rule set's objective."""
    X, y, k, ell, lam = data.draw(tiny_problems())
    objective = data.draw(st.sampled_from(["exact", "paper"]))
    rules = data.draw(rule_sets(k, ell, X.shape[1]))
    assume(rules.n_rules == k)
    enc = encode_imlib(X, y, k, ell, lam, objective=objective)
    hint = hint_imlib(enc.layout, rules)
    assert enc.model.evaluate(hint)
    assert enc.model.cost(hint) == rule_objective(rules, X, y, lam, objective)


def test_prior_validation():
    """A prior with too many rules, too long rules or a CNF is refused."""
    two = RuleSet([[Literal(0)], [Literal(1)]], "dnf", 3)
    with pytest.raises(EncodingError, match="rules"):
        encode_imlib(EX1_X, EX1_Y, 1, 1, prior=two)
    with pytest.raises(EncodingError, match="literals"):
        encode_imlib(EX1_X, EX1_Y, 1, 1, prior=RuleSet([[Literal(0), Literal(1)]], "dnf", 3))
    with pytest.raises(EncodingError, match="DNF"):
        encode_imlib(EX1_X, EX1_Y, 2, 1, prior=RuleSet([[Literal(0)]], "cnf", 3))


def test_decode_refuses_missing_assignment():
    """Decoding an UNKNOWN/UNSAT solution raises instead of inventing rules."""
    enc = encode_imlib(EX1_X, EX1_Y, 1, 1)
    from satrules.ir import make_solution

    with pytest.raises(EncodingError, match="without an assignment"):
        decode_imlib(enc.layout, make_solution(enc.model, Status.UNKNOWN))


def test_encoding_is_deterministic():
    """The same input gives the same clauses (byte-identical models)."""
    rng = np.random.default_rng(3)
    X, y = rng.random((7, 4)) < 0.5, rng.random(7) < 0.5
    a = encode_imlib(X, y, 2, 2, 5, symmetry_breaking=True, distinct_features=True).model
    b = encode_imlib(X, y, 2, 2, 5, symmetry_breaking=True, distinct_features=True).model
    assert np.array_equal(a.hard.lits, b.hard.lits)
    assert np.array_equal(a.soft.lits, b.soft.lits)
    assert np.array_equal(a.soft.weights, b.soft.weights)


def test_doc_example_overlapping_rules():
    """docs/imlib_objective.md: the paper's I cannot tell A = x0 ∨ x1 from B = x0 ∨ ¬x0.

    A makes one error (a negative covered by both rules), B two; the stated objective
    gives 3 and 4, the paper's clauses 6 and 6; the exact optimum is 3.
    """
    X = np.array([[1, 1], [1, 0], [0, 1], [1, 1], [0, 0]])
    y = np.array([1, 1, 1, 0, 0])
    a = RuleSet([[Literal(0)], [Literal(1)]], "dnf", 2)
    b = RuleSet([[Literal(0)], [Literal(0, negated=True)]], "dnf", 2)
    costs = {}
    for objective in ("paper", "exact"):
        enc = encode_imlib(X, y, 2, 1, 1, objective=objective)
        costs[objective] = [enc.model.cost(hint_imlib(enc.layout, r)) for r in (a, b)]
        assert solve(enc.model, backend=ENGINES[0] if ENGINES else "bruteforce").cost == (
            6 if objective == "paper" else 3)
    assert costs == {"paper": [6, 6], "exact": [3, 4]}


@pytest.mark.parametrize("objective", ["exact", "paper"])
def test_prior_hint_is_hint_imlib_or_none_when_infeasible(objective):
    """The encoder's own warm start (checked as a bool array) is exactly hint_imlib's
    assignment when feasible, and None when the prior breaks distinct_features."""
    prior = RuleSet([Rule((Literal(1, negated=True), Literal(2)))], kind="dnf", n_columns=3)
    enc = encode_imlib(EX1_X, EX1_Y, n_rules=1, max_literals_per_rule=2, objective=objective,
                       prior=prior)
    assert enc.hint == hint_imlib(enc.layout, prior)
    assert enc.model.evaluate(enc.hint)
    twice = RuleSet([Rule((Literal(1), Literal(1)))], kind="dnf", n_columns=3)
    enc = encode_imlib(EX1_X, EX1_Y, n_rules=1, max_literals_per_rule=2, objective=objective,
                       prior=twice, distinct_features=True)
    assert enc.hint is None
    assert not enc.model.evaluate(hint_imlib(enc.layout, twice))


def test_prior_hint_is_built_only_when_read(monkeypatch):
    """The prior's warm start is built on first access of ``hint`` and once (issue #11
    item 5: estimators mostly warm-start from their best rules, RC2 takes no hint)."""
    import satrules.encoders.imlib as imlib_module

    calls = []
    build = imlib_module._hint_values
    monkeypatch.setattr(imlib_module, "_hint_values",
                        lambda *args: calls.append(1) or build(*args))
    prior = RuleSet([Rule((Literal(1, negated=True),))], kind="dnf", n_columns=3)
    enc = encode_imlib(EX1_X, EX1_Y, n_rules=1, max_literals_per_rule=2, prior=prior)
    assert calls == []
    assert enc.hint == enc.hint == hint_imlib(enc.layout, prior)
    assert calls == [1, 1]      # the first read, then hint_imlib's own call above
