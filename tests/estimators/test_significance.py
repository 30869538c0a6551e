"""The sign test against the constant rule sets (``null_test=True``, issue #11).

Rules that beat the best constant rule set ("always true" / "always false") by a
few training rows are noise; the estimators replace them by that constant unless
the rows they correct outnumber the rows they spoil by ``significance`` standard
deviations.  On AER/Affairs (601 rows) IMLI's rules were 1-2 training rows better
than the majority class and 5-9 points worse on the test split.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from satrules import IMLIBClassifier, IMLIClassifier
from satrules.estimators._polish import significant

ESTIMATORS = [
    lambda **kw: IMLIClassifier(backend="rc2", null_test=True, **kw),
    lambda **kw: IMLIClassifier(backend="rc2", rule_type="cnf", null_test=True, **kw),
    lambda **kw: IMLIBClassifier(backend="rc2", n_rules=1, max_literals_per_rule=2,
                                 null_test=True, **kw),
]


def _flips_against_constant(clf, X, y):
    """(corrected, spoilt) training rows of clf's rules against the better constant."""
    Xb = clf.binarizer_.transform(X)
    target = y == clf.classes_[1]
    now = clf.rules_.evaluate(Xb)
    then = np.full(len(y), target.mean() > 0.5)    # the better constant on these rows
    flipped = now != then
    fixed = int(np.count_nonzero(flipped & (then != target)))
    return fixed, int(np.count_nonzero(flipped)) - fixed


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(30, 120), make=st.sampled_from(ESTIMATORS),
       signal=st.floats(0.0, 1.0))
def test_rules_kept_only_when_significant(seed, n, make, signal):
    """Whatever the data: the returned rules pass the sign test against the better
    constant, or they are that constant (and the record says which rules it replaced)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, 4))
    y = np.where(rng.random(n) < signal, X[:, 0] & X[:, 1], rng.random(n) < 0.3).astype(int)
    if len(set(y)) < 2:
        y[0] = 1 - y[0]
    if np.mean(y) == 0.5:   # keep the better constant unique
        y[0] = 1 - y[0]
    clf = make(partition_size=8, random_state=seed).fit(X, y)
    record = clf.best_partition_
    majority = max(np.mean(y), 1 - np.mean(y))
    if "not_significant" in record:
        assert record["constant"] is not None and record["not_significant"]["constant"] is None
        assert clf.score(X, y) == pytest.approx(majority)
        assert record["not_significant"]["objective"] < record["objective"]
    else:
        fixed, spoilt = _flips_against_constant(clf, X, y)
        assert fixed == spoilt == 0 or significant(fixed, spoilt, 2.0)


def test_noise_gives_the_majority_class():
    """Labels independent of X: where the default selection fits the noise,
    the default predicts the majority class and records the rules it turned down."""
    for seed in range(40):
        rng = np.random.default_rng(seed)
        X = rng.integers(0, 2, size=(150, 12))
        y = (rng.random(150) < 0.3).astype(int)
        raw = IMLIClassifier(backend="rc2", random_state=seed).fit(X, y)   # null_test off
        if raw.rules_.n_literals and raw.score(X, y) > max(y.mean(), 1 - y.mean()):
            break
    else:
        pytest.fail("no seed where the raw selection fits the noise")
    clf = IMLIClassifier(backend="rc2", random_state=seed, null_test=True).fit(X, y)
    assert clf.rules_.n_literals == 0
    assert (clf.predict(X) == 0).all()
    assert clf.best_partition_["not_significant"]["objective"] < clf.best_partition_["objective"]


def test_signal_is_kept():
    """A real rule on 200 rows passes easily: the default keeps it."""
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, size=(200, 4))
    y = X[:, 0] & X[:, 1]
    clf = IMLIClassifier(backend="rc2", random_state=0, null_test=True).fit(X, y)
    assert "not_significant" not in clf.best_partition_
    assert clf.score(X, y) == 1.0


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf"), True, "2"])
def test_bad_significance_is_refused(bad):
    X, y = np.eye(4, dtype=int), np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match="significance"):
        IMLIClassifier(significance=bad).fit(X, y)


def test_null_test_is_off_by_default():
    """The default keeps rules that are only slightly better than the constant."""
    assert IMLIClassifier().null_test is False and IMLIBClassifier().null_test is False


@settings(max_examples=200, deadline=None)
@given(fixed=st.integers(0, 60), broken=st.integers(0, 60),
       z=st.sampled_from([0.0, 1.0, 2.0, 3.0]))
@example(fixed=4, broken=0, z=2.0)
@example(fixed=0, broken=0, z=2.0)
def test_exact_sign_test_is_the_binomial_tail(fixed, broken, z):
    """``SIGN_TEST = "exact"`` (a benchmark variant): a flip set passes when no row flips, or
    when more rows are fixed than broken and P(Binomial(n, 1/2) >= fixed) is at most the
    normal tail beyond z, computed here by summing the binomial terms; z = 0 keeps the
    normal rule.  At z = 2, 4 of 4 (p = 1/16) fails where the normal test passes."""
    import math

    import satrules.estimators._polish as polish

    polish.SIGN_TEST = "exact"
    try:
        got = bool(significant(fixed, broken, z))
    finally:
        polish.SIGN_TEST = "normal"
    n = fixed + broken
    if z == 0:
        assert got == (fixed >= broken)
        return
    tail = sum(math.comb(n, k) for k in range(fixed, n + 1)) / 2 ** n
    level = 0.5 * math.erfc(z / math.sqrt(2))
    assert got == (n == 0 or (fixed > broken and tail <= level * (1 + 1e-9)))
    if (fixed, broken, z) == (4, 0, 2.0):
        assert not got and significant(fixed, broken, z)   # the normal test passes it
