"""Tests for the IMLI encoder (ALGORITHMS.md §2): exact clauses, sizes, optima, anchors."""

from __future__ import annotations

import importlib.util
import itertools
import os
import stat
import sys
import types
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.backends.registry import available_backends, solve
from satrules.encoders.imli import decode_imli, encode_imli, estimate_imli_size
from satrules.exceptions import EncodingError, ModelSizeError
from satrules.ir import Status
from satrules.rules import Literal, RuleSet
from tests.timing import PATIENCE

EX1_X = np.array([[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]])
EX1_Y = np.array([1, 0, 0, 1])
EXACT_BACKENDS = [b for b in available_backends() if b not in ("wcnf", "portfolio")]


def clause_multiset(clauses):
    return Counter(tuple(sorted(c.lits)) for c in clauses)


def test_example1_exact_formula():
    """Example 1 (§2.10) encodes to exactly the listed 10 hard and 10 soft clauses, 12 vars."""
    enc = encode_imli(EX1_X, EX1_Y, n_rules=1, rule_type="dnf", data_fidelity=10)
    m = enc.model
    assert m.n_vars == 12
    assert Counter((tuple(c.lits), c.weight) for c in m.soft_clauses()) == Counter(
        [((-j,), 1) for j in range(1, 7)] + [((-j,), 10) for j in range(7, 11)]
    )
    want = [(7, 11), (-11, -3), (-11, -4), (-11, -5), (8, 2, 4, 6), (9, 2, 3, 4),
            (10, 12), (-12, -1), (-12, -5), (-12, -6)]
    assert clause_multiset(m.hard_clauses()) == Counter(tuple(sorted(c)) for c in want)
    assert m.var(("z", 0, 0)) == 11 and m.var(("z", 3, 0)) == 12
    assert m.var(("b", 0, 1)) == 2 and m.var(("eta", 2)) == 9


@pytest.mark.parametrize("backend", EXACT_BACKENDS)
def test_example1_optimum_and_rule(backend):
    """Example 1: optimum cost 1 with R = NOT x2 (k=1); cost 2 with k=2 (§2.10)."""
    enc = encode_imli(EX1_X, EX1_Y, n_rules=1, rule_type="dnf", data_fidelity=10)
    sol = solve(enc.model, backend=backend)
    assert sol.status is Status.OPTIMAL and sol.cost == 1
    rules = decode_imli(enc.layout, sol)
    assert rules.kind == "dnf" and str(rules) == "IF (NOT x1)\nTHEN positive"
    assert np.array_equal(rules.evaluate(EX1_X), EX1_Y.astype(bool))
    if backend != "bruteforce":
        enc2 = encode_imli(EX1_X, EX1_Y, n_rules=2, rule_type="dnf", data_fidelity=10)
        assert solve(enc2.model, backend=backend).cost == 2


@pytest.mark.parametrize("backend", EXACT_BACKENDS)
def test_example1_incremental_partition2(backend):
    """Example 1 incremental: P1 = (X3, X2) gives cost 1, P2 = (X4, X1) anchored costs 0."""
    p1, p2 = [2, 1], [3, 0]
    enc1 = encode_imli(EX1_X[p1], EX1_Y[p1], 1, "dnf", 10)
    sol1 = solve(enc1.model, backend=backend)
    assert sol1.cost == 1
    assert not decode_imli(enc1.layout, sol1).evaluate(EX1_X[p1]).any()
    # P1 has two optima of cost 1, (NOT x2) and (x1); the seed continues from (NOT x2)
    prior = RuleSet([[Literal(1, True)]], "dnf", 3)
    enc2 = encode_imli(EX1_X[p2], EX1_Y[p2], 1, "dnf", 10, prior=prior)
    # anchors (NOT b1)(b2)(NOT b3)(NOT b4)(NOT b5)(NOT b6), weight 1
    anchors = [c.lits for c in enc2.model.soft_clauses() if c.weight == 1]
    assert anchors == [(-1,), (2,), (-3,), (-4,), (-5,), (-6,)]
    sol2 = solve(enc2.model, backend=backend, hint=enc2.hint)
    assert sol2.cost == 0 and decode_imli(enc2.layout, sol2) == prior
    # the hint is a complete feasible assignment of the anchored model with cost 0
    assert enc2.model.evaluate(enc2.hint) and enc2.model.cost(enc2.hint) == 0


def exhaustive_optimum(X, y, k, rule_type, lam, w_f, weights=None):
    """min over all k-tuples of rules (subsets of the 2m literals) of w_f*size + lam*errors
    (each row's error counted ``weights[i]`` times)."""
    w = np.ones(len(y), dtype=np.int64) if weights is None else np.asarray(weights)
    n, m = X.shape
    A = np.concatenate([X, 1 - X], axis=1).astype(bool)
    subsets = np.array(list(itertools.product([0, 1], repeat=2 * m)), dtype=bool)  # S x q
    size = subsets.sum(axis=1)
    if rule_type == "dnf":   # term true iff all its literals hold
        truth = ((~A[None, :, :]) & subsets[:, None, :]).sum(axis=2) == 0      # S x n
    else:                    # clause true iff some literal holds
        truth = (A[None, :, :] & subsets[:, None, :]).any(axis=2)
    best = None
    for combo in itertools.product(range(len(subsets)), repeat=k):
        vals = truth[list(combo)]
        pred = vals.any(axis=0) if rule_type == "dnf" else vals.all(axis=0)
        obj = w_f * int(size[list(combo)].sum()) + lam * int(w[pred != y.astype(bool)].sum())
        best = obj if best is None else min(best, obj)
    return best


@st.composite
def tiny_data(draw):
    n = draw(st.integers(1, 6))
    m = draw(st.integers(1, 4))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m),
                               min_size=n, max_size=n)), dtype=np.int8)
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.int8)
    k = draw(st.integers(1, 2 if m <= 2 else 1))
    return X, y, k, draw(st.sampled_from(["dnf", "cnf"])), draw(st.sampled_from([1, 3, 10])), \
        draw(st.sampled_from([1, 2]))


@pytest.mark.parametrize("backend", [b for b in EXACT_BACKENDS if b != "bruteforce"])
@settings(max_examples=40, deadline=None)
@given(data=tiny_data())
def test_optimum_equals_exhaustive_search(backend, data):
    """Decoded optimum: cost == w_f*size + lambda*errors == exhaustive optimum; eta agrees."""
    X, y, k, rule_type, lam, w_f = data
    enc = encode_imli(X, y, k, rule_type, lam, w_f)
    sol = solve(enc.model, backend=backend, time_limit=20)
    assert sol.status is Status.OPTIMAL
    rules = decode_imli(enc.layout, sol)
    pred = rules.evaluate(X)
    errors = pred != y.astype(bool)
    assert sol.cost == w_f * rules.n_literals + lam * int(errors.sum())
    assert sol.cost == exhaustive_optimum(X, y, k, rule_type, lam, w_f)
    eta = np.array([sol[("eta", i)] for i in range(len(y))])
    assert np.array_equal(eta, errors)


@pytest.mark.parametrize("backend", [b for b in EXACT_BACKENDS if b != "bruteforce"])
@settings(max_examples=30, deadline=None)
@given(data=tiny_data(), draw=st.data())
def test_weighted_optimum_equals_exhaustive_search(backend, data, draw):
    """With ``sample_weight``: cost == w_f*size + lambda * (weight of the rows misclassified),
    the exhaustive optimum of that objective."""
    X, y, k, rule_type, lam, w_f = data
    weights = np.array(draw.draw(st.lists(st.integers(1, 4), min_size=len(y),
                                          max_size=len(y))))
    enc = encode_imli(X, y, k, rule_type, lam, w_f, sample_weight=weights)
    sol = solve(enc.model, backend=backend, time_limit=20)
    assert sol.status is Status.OPTIMAL
    rules = decode_imli(enc.layout, sol)
    errors = rules.evaluate(X) != y.astype(bool)
    assert sol.cost == w_f * rules.n_literals + lam * int(weights[errors].sum())
    assert sol.cost == exhaustive_optimum(X, y, k, rule_type, lam, w_f, weights)


@pytest.mark.parametrize("weights", [[0, 1, 1, 1], [1, 1, 1], [1.5, 1, 1, 1]])
def test_bad_sample_weight_is_refused(weights):
    with pytest.raises(EncodingError, match="sample_weight must hold 4 positive integers"):
        encode_imli(EX1_X, EX1_Y, 1, "dnf", 10, sample_weight=weights)


@settings(max_examples=30, deadline=None)
@given(data=tiny_data())
def test_bruteforce_backend_agrees_when_small(data):
    """The bruteforce oracle (<= 20 vars) finds the same optimum as the exhaustive rule search."""
    X, y, k, rule_type, lam, w_f = data
    enc = encode_imli(X, y, k, rule_type, lam, w_f)
    if enc.model.n_vars > 20:
        return
    sol = solve(enc.model, backend="bruteforce")
    assert sol.cost == exhaustive_optimum(X, y, k, rule_type, lam, w_f)


@settings(max_examples=40, deadline=None)
@given(data=tiny_data(), prior_bits=st.lists(st.booleans(), min_size=16, max_size=16))
def test_sizes_match_section_2_9_and_hint_is_feasible(data, prior_bits):
    """Model sizes equal §2.9 / estimate_imli_size; a prior's hint satisfies the hard part."""
    X, y, k, rule_type, lam, w_f = data
    n, m = X.shape
    t = (1 - y) if rule_type == "dnf" else y
    n0 = int((t == 0).sum())
    enc = encode_imli(X, y, k, rule_type, lam, w_f)
    # without a prior the hint is a feasible rule set no worse than the trivial ones
    # (every clause empty: lam * n1; every clause a tautology: 2k w_f + lam * n0)
    assert enc.model.evaluate(enc.hint)
    assert enc.model.cost(enc.hint) <= min(lam * (n - n0), 2 * k * w_f + lam * n0)
    hint_rules = enc.layout.rules_from_matrix(
        np.asarray([enc.hint[v] for v in enc.layout.use.reshape(-1)]).reshape(k, -1))
    hint_errors = int((hint_rules.evaluate(X) != y.astype(bool)).sum())
    assert enc.model.cost(enc.hint) == w_f * hint_rules.n_literals + lam * hint_errors
    sym_enc = encode_imli(X, y, k, rule_type, lam, w_f, symmetry_breaking=True)
    assert sym_enc.model.evaluate(sym_enc.hint) and len(sym_enc.hint) == sym_enc.model.n_vars
    st_ = enc.model.stats()
    est = estimate_imli_size(n, m, k, n0)
    assert enc.model.n_vars == est["n_vars"] == k * 2 * m + n + k * n0
    assert len(enc.model.hard_clauses()) == est["n_hard"] == k * (n - n0) + n0 + k * m * n0
    assert len(enc.model.soft_clauses()) == est["n_soft"] == k * 2 * m + n
    assert st_["n_vars"] == est["n_vars"]
    prior = np.array(prior_bits[: k * 2 * m], dtype=bool).reshape(k, 2 * m)
    enc_p = encode_imli(X, y, k, rule_type, lam, w_f, prior=prior)
    assert enc_p.model.evaluate(enc_p.hint)
    # the hint's cost is lambda * (errors of the prior rules) on this data
    rules = enc_p.layout.rules_from_matrix(prior)
    errors = int((rules.evaluate(X) != y.astype(bool)).sum())
    assert enc_p.model.cost(enc_p.hint) == lam * errors


@pytest.mark.parametrize("backend", [b for b in EXACT_BACKENDS if b != "bruteforce"])
@settings(max_examples=30, deadline=None)
@given(data=tiny_data())
def test_symmetry_breaking_keeps_optimum(backend, data):
    """Lexicographic symmetry breaking among the k rules keeps the optimal cost."""
    X, y, k, rule_type, lam, w_f = data
    k = 2 if X.shape[1] <= 3 else k
    plain = solve(encode_imli(X, y, k, rule_type, lam, w_f).model, backend=backend)
    enc = encode_imli(X, y, k, rule_type, lam, w_f, symmetry_breaking=True)
    sym = solve(enc.model, backend=backend)
    assert sym.cost == plain.cost
    b = np.asarray(sym.values)[enc.layout.use].astype(int)
    for o in range(k - 1):   # rows in non-increasing lexicographic order
        assert tuple(b[o]) >= tuple(b[o + 1])


def test_symmetry_breaking_excludes_unsorted_rows():
    """With symmetry breaking an unsorted b matrix (row 0 <lex row 1) is infeasible."""
    X = np.array([[0, 1], [1, 0]])
    y = np.array([1, 0])
    enc = encode_imli(X, y, 2, "cnf", 10, symmetry_breaking=True)
    b = enc.layout.use
    model = enc.model
    # brute force over the b's only: every feasible completion has sorted rows
    lex_vars = [v for v in range(1, model.n_vars + 1)
                if isinstance(model.key(v), tuple) and model.key(v)[0] == "lex"]
    assert len(lex_vars) == 4
    sol = solve(model, backend=EXACT_BACKENDS[0])
    assert sol.status is Status.OPTIMAL
    assign = dict.fromkeys(range(1, model.n_vars + 1), False)
    assign[int(b[1, 0])] = True     # row 0 = 0000 < row 1 = 1000
    for v in lex_vars:              # no setting of the lex auxiliaries rescues it
        assign[v] = False
    feasible = False
    for bits in itertools.product([False, True], repeat=len(lex_vars)):
        assign.update(zip(lex_vars, bits, strict=True))
        feasible |= model.evaluate(assign)
    assert not feasible


def test_size_guard_raises_with_estimate():
    """Above max_clauses the encoder refuses with the estimate and how to reduce it."""
    X = np.random.default_rng(0).integers(0, 2, size=(50, 10))
    y = np.arange(50) % 2
    with pytest.raises(ModelSizeError, match=r"would have 665 clauses.*partition"):
        encode_imli(X, y, 2, "cnf", 10, max_clauses=600)
    assert encode_imli(X, y, 2, "cnf", 10, max_clauses=None).model.n_vars > 0


def test_fractional_weights_are_scaled():
    """data_fidelity 2.5 and feature_weight 1 scale by 2: costs are 2x the real objective."""
    enc = encode_imli(EX1_X, EX1_Y, 1, "dnf", 2.5, 1)
    assert enc.layout.scale == 2
    weights = sorted({c.weight for c in enc.model.soft_clauses()})
    assert weights == [2, 5]


@pytest.mark.parametrize("bad, match", [
    ({"n_rules": 0}, "n_rules"), ({"rule_type": "xnf"}, "rule_type"),
    ({"data_fidelity": 0}, "data_fidelity"), ({"feature_weight": -1}, "feature_weight"),
    ({"prior": np.zeros((2, 6), dtype=bool)}, "prior"),
])
def test_bad_parameters(bad, match):
    """Invalid parameters raise EncodingError naming the parameter."""
    kwargs = {"n_rules": 1, "rule_type": "dnf", "data_fidelity": 10, **bad}
    with pytest.raises(EncodingError, match=match):
        encode_imli(EX1_X, EX1_Y, **kwargs)


def test_bad_data():
    """Non-binary data or labels and shape mismatches raise EncodingError."""
    with pytest.raises(EncodingError, match="0/1"):
        encode_imli(EX1_X * 2, EX1_Y)
    with pytest.raises(EncodingError, match="labels"):
        encode_imli(EX1_X, EX1_Y * 3)
    with pytest.raises(EncodingError, match="shape"):
        encode_imli(EX1_X, EX1_Y[:2])
    with pytest.raises(EncodingError, match="no columns"):
        encode_imli(np.zeros((3, 0)), np.zeros(3))


def test_prior_rule_set_round_trip():
    """A RuleSet prior anchors exactly its own literals (DNF negated to the CNF space)."""
    prior = RuleSet([[]], "dnf", 3)   # empty term -> empty CNF clause: all anchors negative
    enc = encode_imli(EX1_X, EX1_Y, 1, "dnf", 10, prior=prior)
    assert [c.lits for c in enc.model.soft_clauses()][:6] == [(-j,) for j in range(1, 7)]
    with pytest.raises(EncodingError, match="rule_type"):
        encode_imli(EX1_X, EX1_Y, 1, "cnf", 10, prior=prior)


# --------------------------------------------------------------------------- pyrulelearn
FAKE_OPEN_WBO = """#!{python}
import os, sys
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF
path = [a for a in sys.argv[1:] if not a.startswith("-")][0]
wcnf = WCNF(from_file=path)
with RC2(wcnf) as rc2:
    model = rc2.compute()
    cost = rc2.cost
with open(os.environ["FAKE_OWBO_COSTS"], "a") as fh:
    fh.write(f"{{cost}}\\n")
print("o", cost)
print("s OPTIMUM FOUND")
print("v " + " ".join(str(v) for v in model))
"""


def _importable(name):
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@pytest.fixture
def pyrulelearn_imli(tmp_path, monkeypatch):
    """pyrulelearn's imli class with stub modules and a fake `open-wbo` (RC2) on PATH."""
    if importlib.util.find_spec("pyrulelearn") is None:
        pytest.skip("pyrulelearn is not installed (test-only reference implementation)")
    for name in ("Orange", "feature_engine", "feature_engine.discretisers", "cplex"):
        if name not in sys.modules and not _importable(name):
            monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    import pyrulelearn.imli

    script = tmp_path / "bin" / "open-wbo"
    script.parent.mkdir()
    script.write_text(FAKE_OPEN_WBO.format(python=sys.executable))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{script.parent}{os.pathsep}{os.environ['PATH']}")
    costs = tmp_path / "costs.txt"
    monkeypatch.setenv("FAKE_OWBO_COSTS", str(costs))
    work = tmp_path / "work"
    work.mkdir()
    return pyrulelearn.imli.imli, str(work), costs


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("rule_type", ["DNF", "CNF"])
def test_cost_equals_pyrulelearn(pyrulelearn_imli, seed, rule_type):
    """IMLI's optimal cost on one partition equals pyrulelearn's (fit(recursive=False))."""
    imli_cls, work, costs = pyrulelearn_imli
    rng = np.random.default_rng(seed)
    n, m, k = 12, 5, 1 + seed % 2
    X = rng.integers(0, 2, size=(n, m))
    y = (X[:, 0] | (X[:, 1] & rng.integers(0, 2, size=n))).astype(int)
    ref = imli_cls(num_clause=k, data_fidelity=5, weight_feature=1, rule_type=rule_type,
                   batchsize=n, work_dir=work, timeout=PATIENCE)  # its fit-wide limit
    ref.fit(X, y, recursive=False)
    first_cost = int(costs.read_text().split()[0])
    enc = encode_imli(X, y, k, rule_type.lower(), 5, 1)
    sol = solve(enc.model, backend=EXACT_BACKENDS[0])
    assert sol.status is Status.OPTIMAL
    assert sol.cost == first_cost
