"""Selection of the rules across partitions and passes (issue #11, item 1).

The estimators keep, among the rule sets every partition produced and the two
constant rule sets, the one with the lowest objective on the whole training set;
they record where it came from, and warm-start every solve with it.
"""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import satrules.estimators._base as base
from satrules import IMLIBClassifier, IMLIClassifier
from satrules.backends.registry import solve as real_solve

ESTIMATORS = [
    lambda **kw: IMLIClassifier(backend="rc2", **kw),
    lambda **kw: IMLIClassifier(backend="rc2", rule_type="cnf", n_rules=2, **kw),
    lambda **kw: IMLIBClassifier(backend="rc2", n_rules=1, max_literals_per_rule=2, **kw),
]


def _objective(clf, X, y):
    Xb = clf.binarizer_.transform(X)
    errors = int((clf.rules_.evaluate(Xb) != (y == clf.classes_[1])).sum())
    return clf.data_fidelity * errors + clf._literal_weight() * clf.rules_.n_literals


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(8, 40), make=st.sampled_from(ESTIMATORS),
       skew=st.floats(0.05, 0.95))
def test_never_worse_than_one_class_on_training_data(seed, n, make, skew):
    """Training accuracy >= the majority rate, whatever the data (the constant rule sets are
    candidates), and the returned rules have the lowest recorded objective, or they are the
    better constant and the rules the null test turned down had it."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, 3))
    y = (rng.random(n) < skew).astype(int)
    if len(set(y)) < 2:
        y[0] = 1 - y[0]
    clf = make(partition_size=6, random_state=seed).fit(X, y)
    majority = max(np.mean(y), 1 - np.mean(y))
    assert clf.score(X, y) >= majority - 1e-12
    obj = _objective(clf, X, y)
    assert obj == clf.best_partition_["objective"]
    if "not_significant" in clf.best_partition_:
        assert clf.best_partition_["constant"] is not None
        obj = clf.best_partition_["not_significant"]["objective"]
    recorded = [e["objective"] for e in clf.fit_history_ if e["objective"] is not None]
    assert all(obj <= o for o in recorded)


def test_best_partition_is_recorded_and_consistent():
    """best_partition_ names a (pass, partition) whose recorded objective is the minimum."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    clf = IMLIClassifier(n_rules=2, partition_size=16, random_state=0, backend="rc2",
                         polish=False).fit(X, y)
    best = clf.best_partition_
    assert clf.n_passes_ == 2 and clf.n_partitions_ == 8 and len(clf.fit_history_) == 16
    assert set(best) == {"pass", "partition", "constant", "objective", "init",
                         "held_out_test"}
    assert best["held_out_test"]["passed"] is (best["constant"] is None or
                                               best["held_out_test"]["passed"])
    assert clf.n_init_ == 3 and best["init"] in (0, 1, 2)   # the history is the init kept's
    if best["constant"] is None:
        entry = [e for e in clf.fit_history_
                 if (e["pass"], e["partition"]) == (best["pass"], best["partition"])]
        assert entry[0]["objective"] == best["objective"] == min(
            e["objective"] for e in clf.fit_history_ if e["objective"] is not None)
    assert _objective(clf, X, y) == best["objective"]


def test_constant_rule_set_wins_on_noise():
    """Pure noise with a 90 % majority: 'always false' beats any rule with a literal."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(60, 6))
    y = np.zeros(60, dtype=int)
    y[rng.choice(60, 6, replace=False)] = 1
    clf = IMLIClassifier(n_rules=2, partition_size=8, data_fidelity=1, random_state=0,
                         backend="rc2").fit(X, y)
    # the constant (or a partition's rules equivalent to it: ties go to the later rules)
    assert clf.best_partition_["objective"] == 6 and clf.rules_.n_literals == 0
    assert (clf.predict(X) == 0).all()


class _Stopping(IMLIClassifier):
    _stop_without_rules = True


class _NotStopping(IMLIClassifier):
    _stop_without_rules = False


def test_a_pass_without_rules_ends_the_passes(monkeypatch):
    """With the experiment ``_stop_without_rules`` on (off by default: it cost accuracy,
    docs/benchmarks.md "A pass without rules"), a pass in which no partition's rules beat
    a constant ends the passes.  The solves it skips leave the fit's count of solves left
    (which shares a time limit), so the next fit's first solve gets the share it would
    get after those solves."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(60, 6))
    y = np.zeros(60, dtype=int)
    y[rng.choice(60, 6, replace=False)] = 1
    seen = []

    def solve_time(self, budget):   # the solves left, read where a time limit would be
        seen.append(budget["left"])
        return None

    monkeypatch.setattr(base.IncrementalRuleClassifier, "_solve_time", solve_time)
    params = dict(n_rules=2, partition_size=8, data_fidelity=1, random_state=0,
                  backend="rc2", n_init=2, null_test=True)
    stopping = _Stopping(**params).fit(X, y)
    n = stopping.n_partitions_
    assert n == 8 and stopping.n_passes_ == 2 and stopping.rules_.n_literals == 0
    assert [e["pass"] for e in stopping.fit_history_] == [0] * n   # one pass of 8
    # 2 inits x 2 passes x 8 partitions + the pool's solve; each init's second pass skipped
    assert seen == [33 - i for i in range(n)] + [17 - i for i in range(n)] + [1]
    seen.clear()
    full = _NotStopping(**params).fit(X, y)
    assert [e["pass"] for e in full.fit_history_] == [0] * n + [1] * n
    assert seen == [33 - i for i in range(4 * n)] + [1]
    # rules that beat the constant: every pass is solved
    X = rng.normal(size=(64, 3))
    y = (X[:, 0] > 0).astype(int)
    learned = _Stopping(partition_size=16, random_state=0, backend="rc2").fit(X, y)
    assert learned.rules_.n_literals > 0
    assert [e["pass"] for e in learned.fit_history_] == [0] * 4 + [1] * 4


@pytest.mark.parametrize("make", ESTIMATORS[:1] + ESTIMATORS[2:])
def test_solves_are_hinted_with_the_best_rules_so_far(monkeypatch, make):
    """Every solve after a learned best gets that best rule set as its warm start."""
    calls = []

    def recording(model, backend="auto", *, time_limit=None, seed=None, hint=None, **kw):
        calls.append(hint)
        return real_solve(model, backend=backend, time_limit=time_limit, seed=seed, hint=hint)

    realised = []
    real_warm = base.IncrementalRuleClassifier._warm_start

    def recording_warm(self, enc, best):
        hint = real_warm(self, enc, best)
        realised.append((best, self._hint_rules(enc, best) if best.n_rules else None, hint))
        return hint

    monkeypatch.setattr(base, "solve", recording)
    monkeypatch.setattr(base.IncrementalRuleClassifier, "_warm_start", recording_warm)
    rng = np.random.default_rng(5)
    X = rng.normal(size=(64, 3))
    y = (X[:, 0] > 0).astype(int)
    # the fit's own solves (null_test=True: no held-out folds, fits of their own)
    clf = make(partition_size=16, random_state=0, null_test=True).fit(X, y)
    # 4 parts x 2 passes x 3 fits, then the choice among the fits' rules (its own hint)
    assert clf.n_init_ == 3 and len(realised) == 24 and len(calls) == 25
    hinted = [(best, own, hint) for best, own, hint in realised if own is not None]
    assert hinted, "no solve was warm-started with learned rules"
    assert all(hint == own for _, own, hint in hinted)   # the best rules, on this partition


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_long_fit_shows_a_progress_bar_on_a_terminal(monkeypatch):
    """On a terminal, a fit shows a 'partitions' bar on stderr (after PROGRESS_DELAY s);
    inside quiet_progress() (the CLI's --quiet) it shows none."""
    from satrules._progress import quiet_progress

    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    monkeypatch.setattr(base, "PROGRESS_DELAY", 0.0)
    rng = np.random.default_rng(2)
    X = rng.normal(size=(64, 3))
    y = (X[:, 0] > 0).astype(int)
    IMLIClassifier(partition_size=16, random_state=0, backend="rc2").fit(X, y)
    # 4 partitions x 2 passes x 3 inits
    assert "partitions" in term.getvalue() and "/24 " in term.getvalue()
    quiet = _Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    with quiet_progress():
        IMLIClassifier(partition_size=16, random_state=0, backend="rc2").fit(X, y)
    assert quiet.getvalue() == ""


def test_one_vs_rest_fit_shows_one_bar_for_all_classes(monkeypatch):
    """A K-class fit shows one 'partitions (K classes)' bar over every class's solves, not
    K bars that each start their delay anew (300 classes of 20,000 rows: 600 solves of
    two per class, each bar too short to appear, so a 90 s fit showed nothing)."""
    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    monkeypatch.setattr(base, "PROGRESS_DELAY", 0.0)
    rng = np.random.default_rng(2)
    X = rng.normal(size=(64, 3))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    clf = IMLIClassifier(partition_size=16, random_state=0, backend="rc2").fit(X, y)
    solves = sum(len(h) for h in clf.fit_history_.values())
    assert solves == 24   # 3 classes x 4 partitions x 2 passes (in the init kept)
    out = term.getvalue()   # ... x 3 inits
    assert clf.n_init_ == 3
    assert "partitions (3 classes)" in out and "/72 " in out and "/8 " not in out \
        and "/24 " not in out


def test_max_partitions_caps_the_solves_per_pass():
    """25 partitions, max_partitions=5: five partitions solved per pass, drawn anew each pass;
    None solves them all."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] > 0).astype(int)
    clf = IMLIClassifier(partition_size=16, max_partitions=5, random_state=0,
                         backend="rc2").fit(X, y)
    assert clf.n_partitions_ == 25 and len(clf.solutions_) == 10
    assert all(0 <= e["partition"] < 5 for e in clf.fit_history_)
    full = IMLIClassifier(partition_size=16, max_partitions=None, n_passes=1, random_state=0,
                          backend="rc2").fit(X, y)
    assert len(full.solutions_) == 25
    with pytest.raises(ValueError, match="max_partitions"):
        IMLIClassifier(max_partitions=0).fit(X, y)


def test_auto_partitions_shrink_so_every_encoding_fits():
    """Defaults never raise a size error: with many binary columns the automatic partitions
    get fewer rows so that each encoding passes the size guard (here 10,000 columns)."""
    from satrules.encoders.imli import estimate_imli_size

    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(64, 10_000))
    y = X[:, 0].copy()
    clf = IMLIClassifier(n_rules=2, max_clauses=200_000, backend="rc2", max_partitions=2,
                         n_passes=1, random_state=0).fit(X, y)
    rows = -(-64 // clf.n_partitions_)
    assert clf.n_partitions_ > 4   # fewer than 16 rows per partition
    assert estimate_imli_size(rows, 10_000, 2, rows)["n_clauses"] <= 200_000
    assert clf.score(X, y) >= max(y.mean(), 1 - y.mean())
    with pytest.raises(ValueError, match="one-row partition"):
        IMLIClassifier(max_clauses=10).fit(X[:, :50], y)


def test_time_limit_counts_binarization(monkeypatch):
    """time_limit covers the whole fit: a clock that passes the deadline during binarization
    means no partition is started, the fit says so and predicts the majority class."""
    class Clock:
        now = 0.0

        def monotonic(self):
            return self.now

    clock = Clock()

    real_fit_transform = base.ThresholdBinarizer.fit_transform

    def slow_fit_transform(self, X, y=None, **params):
        clock.now += 100.0   # binarization "takes" 100 s of a 15 s budget
        return real_fit_transform(self, X, y, **params)

    monkeypatch.setattr(base.ThresholdBinarizer, "fit_transform", slow_fit_transform)
    rng = np.random.default_rng(1)
    X = rng.normal(size=(48, 3))
    y = (X[:, 0] > 0.5).astype(int)
    monkeypatch.setattr(base, "time", clock)
    with pytest.warns(RuntimeWarning, match="no partition produced a solution"):
        clf = IMLIClassifier(time_limit=15, partition_size=16, backend="rc2").fit(X, y)
    assert clf.time_limit_reached_ and clf.solutions_ == [] and clf.fit_history_ == []
    assert (clf.predict(X) == np.bincount(y).argmax()).all()
