"""Several independent fits, their rules pooled (``n_init``).

A fit's rules depend on its shuffles of the partitions; ``n_init`` fits draw their
shuffles in turn from ``random_state``.  The fit of the lowest whole-training objective
(the earlier on a tie) is the one kept, unless a subset of the rules of all the fits
(no more than the largest fit has) has a lower objective and passes the null test; then
that subset, the lowest there is, is kept.  Experiments: ``_init_choice = "objective"``
keeps the best fit as it is; ``"medoid"``, the fit whose training predictions agree with
the others' on the most rows.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import satrules.estimators._base as base
from satrules import IMLIBClassifier, IMLIClassifier
from satrules.rules import RuleSet

#: the fits of these tests make the null test on the training rows only (null_test=True,
#: unless a test sets it): the held-out test's folds are fits of their own, whose inits
#: the recordings would see
MAKERS = [
    lambda **kw: IMLIClassifier(backend="rc2", **{"null_test": True, **kw}),
    lambda **kw: IMLIClassifier(backend="rc2", rule_type="cnf", **{"null_test": True, **kw}),
    lambda **kw: IMLIBClassifier(backend="rc2", **{"null_test": True, **kw}),
]


def _data(seed: int, n: int = 120, classes: int = 2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    score = X[:, 0] + 0.7 * X[:, 1] + rng.normal(scale=0.8, size=n)   # noisy: fits differ
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, classes + 1)[1:-1]))
    return X, np.array(["a", "b", "c", "d"])[y]


def _recording_inits(monkeypatch):
    """Record the inits every group of classes made, as (class -> rules) dicts."""
    seen = []
    real = base.IncrementalRuleClassifier._kept_init

    def recording(self, inits, *args, **kwargs):
        seen.append([{c: fit[0] for c, fit in init.items()} for init in inits])
        return real(self, inits, *args, **kwargs)

    monkeypatch.setattr(base.IncrementalRuleClassifier, "_kept_init", recording)
    return seen


@pytest.mark.parametrize("choice", ["objective", "medoid"])
@pytest.mark.parametrize("make", MAKERS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_kept_fit_is_the_best_of_three(make, choice, seed):
    """Two classes: three fits are made, and the estimator predicts as the fit of the
    lowest ``data_fidelity * errors + literal weight * literals`` on the training rows
    (medoid: whose training predictions agree with the other two's on the most rows),
    the first such."""
    with pytest.MonkeyPatch.context() as mp:
        seen = _recording_inits(mp)
        mp.setattr(base.IncrementalRuleClassifier, "_init_choice", choice)
        X, y = _data(seed)
        clf = make(n_init=3, random_state=seed).fit(X, y)
    (inits,) = seen
    assert clf.n_init_ == 3 and len(inits) == 3
    Xb = clf.binarizer_.transform(X)
    # binary: the rules describe classes_[1]
    predicted = np.array([np.where(init[1].evaluate(Xb), "b", "a") for init in inits])
    if choice == "medoid":
        agree = [sum(int((p == q).sum()) for q in predicted) for p in predicted]
        kept = agree.index(max(agree))
    else:
        cost = [clf.data_fidelity * int((p != y).sum())
                + clf._literal_weight() * init[1].n_literals
                for p, init in zip(predicted, inits, strict=True)]
        kept = cost.index(min(cost))
    assert clf.best_partition_["init"] == kept
    assert (clf.predict(X) == predicted[kept]).all()
    assert clf.rules_.rules == inits[kept][1].rules


def test_one_vs_rest_keeps_every_class_from_the_same_fit(monkeypatch):
    """More classes: the fits are judged on their combined predictions, so every class's
    rules come from the one fit kept."""
    seen = _recording_inits(monkeypatch)
    monkeypatch.setattr(base.IncrementalRuleClassifier, "_init_choice", "objective")
    X, y = _data(4, n=160, classes=3)
    clf = IMLIClassifier(n_init=3, null_test=True, random_state=0, backend="rc2").fit(X, y)
    (inits,) = seen
    kept = {record["init"] for record in clf.best_partition_.values()}
    assert len(kept) == 1
    (k,) = kept
    assert all(clf.rules_[label].rules == inits[k][c].rules
               for c, label in enumerate(clf.classes_))


def test_one_init_is_the_single_fit():
    """``n_init=1`` makes one fit, and the first of three draws exactly as it does."""
    X, y = _data(7)
    one = IMLIClassifier(n_init=1, random_state=3, backend="rc2").fit(X, y)
    assert one.n_init_ == 1 and one.best_partition_["init"] == 0
    with pytest.MonkeyPatch.context() as mp:
        seen = _recording_inits(mp)
        IMLIClassifier(n_init=3, random_state=3, backend="rc2").fit(X, y)
    assert len(seen[0]) == 3 and seen[0][0][1].rules == one.rules_.rules


def test_auto_makes_three_fits_on_small_data_and_one_on_large():
    """``n_init="auto"``: three fits while (classes learned) x rows x binary columns is at
    most ``INIT_CELLS``, as many as fit below it above, at least one."""
    est = IMLIClassifier()
    assert est._n_inits(500, 100, 1) == 3
    assert est._n_inits(20_000, 895, 1) == 3             # two classes, 20,000 x 100
    assert est._n_inits(20_000, 895, 3) == 1             # three classes of it
    assert est._n_inits(20_000, 8_995, 1) == 1           # 1,000 features
    assert est._n_inits(1, 1, 1) == base.AUTO_INITS
    cells = base.INIT_CELLS // 2
    assert est._n_inits(cells, 1, 1) == 2
    assert IMLIClassifier(n_init=5)._n_inits(20_000, 8_995, 3) == 5


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "many", None])
def test_bad_n_init_is_refused(bad):
    X, y = _data(1, n=40)
    with pytest.raises(ValueError, match="n_init must be a positive integer"):
        IMLIClassifier(n_init=bad).fit(X, y)


def test_a_passed_deadline_makes_no_further_fits(monkeypatch):
    """A time limit that has passed ends the first fit and makes no other."""
    seen = _recording_inits(monkeypatch)
    X, y = _data(2)
    with pytest.warns(RuntimeWarning, match="no partition produced a solution"):
        clf = IMLIClassifier(n_init=3, time_limit=1e-9, random_state=0).fit(X, y)
    assert clf.time_limit_reached_ and len(seen[0]) == 1
    assert clf.best_partition_["init"] == 0 and clf.fit_history_ == []


def test_rule_class_auto_fits_each_class_as_it_alone_would():
    """``rule_class="auto"`` with three fits: each class's fits draw as a fit of that class
    alone does, so the rules kept are that fit's."""
    X, y = _data(5)
    auto = IMLIClassifier(n_init=3, rule_class="auto", random_state=1, backend="rc2").fit(X, y)
    alone = IMLIClassifier(n_init=3, rule_class=auto.rule_class_, random_state=1,
                           backend="rc2").fit(X, y)
    assert auto.to_text() == alone.to_text()
    assert auto.best_partition_["init"] == alone.best_partition_["init"]


def test_cli_n_init(tmp_path, capsys):
    """``satrules learn --n-init``: a whole number or ``auto``; the file keeps it."""
    import pandas as pd

    from satrules.cli import main
    from satrules.serialization import load

    X, y = _data(3, n=80)
    path = tmp_path / "d.csv"
    pd.DataFrame(X, columns=list("pqrs")).assign(label=y).to_csv(path, index=False)
    out = tmp_path / "rules.json"
    assert main(["learn", str(path), "--target", "label", "--method", "imli", "--n-init",
                 "1", "--backend", "rc2", "--quiet", "--out", str(out)]) == 0
    clf = load(out)
    assert clf.n_init == 1 and clf.n_init_ == 1
    capsys.readouterr()
    assert main(["learn", str(path), "--target", "label", "--method", "imli", "--n-init",
                 "0"]) == 2
    assert "expected a positive whole number or auto, got '0'" in capsys.readouterr().err


def test_row_weights_judge_the_fits_by_their_weighted_errors(monkeypatch):
    """With ``sample_weight``, the fit kept has the lowest ``data_fidelity *`` (weight of the
    rows it gets wrong) ``+ literals``, the weighted objective every candidate is judged by."""
    seen = _recording_inits(monkeypatch)
    monkeypatch.setattr(base.IncrementalRuleClassifier, "_init_choice", "objective")
    X, y = _data(11)
    w = np.random.default_rng(0).uniform(0.2, 3.0, size=len(y))
    clf = IMLIClassifier(n_init=3, null_test=True, random_state=2,
                         backend="rc2").fit(X, y, sample_weight=w)
    (inits,) = seen
    Xb = clf.binarizer_.transform(X)
    weights = w / w.mean()   # the rows' weights as the fit uses them (mean 1)
    cost = [clf.data_fidelity * weights[np.where(init[1].evaluate(Xb), "b", "a") != y].sum()
            + init[1].n_literals for init in inits]
    assert clf.best_partition_["init"] == int(np.argmin(cost))


def _pool_optimum(clf, inits, c, Xb, target, weights=None):
    """The lowest objective over the subsets of the rules ``inits`` found for class ``c``
    (no more than the largest fit has), by exhaustive search."""
    kind = inits[0][c].kind
    pool = list({frozenset(r.literals): r for init in inits for r in init[c].rules}.values())
    most = max(init[c].n_rules for init in inits)
    return min(clf._objective(RuleSet(subset, kind, Xb.shape[1]), Xb, target, weights)
               for k in range(min(most, len(pool)) + 1)
               for subset in itertools.combinations(pool, k))


@pytest.mark.parametrize("make", MAKERS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_pool_gives_the_best_subset_of_all_the_fits_rules(make, seed):
    """Two classes, no null test: the rules kept are the subset of every fit's rules of the
    lowest objective, when it is lower than the best fit's; else the best fit's rules."""
    with pytest.MonkeyPatch.context() as mp:
        seen = _recording_inits(mp)
        X, y = _data(seed)
        clf = make(n_init=3, random_state=seed, null_test=False).fit(X, y)
    (inits,) = seen
    Xb = clf.binarizer_.transform(X)
    target = y == "b"
    best = min(clf._objective(init[1], Xb, target) for init in inits)
    optimum = _pool_optimum(clf, inits, 1, Xb, target)
    record = clf.best_partition_
    assert record["objective"] == clf._objective(clf.rules_, Xb, target)
    pool = {frozenset(r.literals) for init in inits for r in init[1].rules}
    assert {frozenset(r.literals) for r in clf.rules_.rules} <= pool
    assert clf.rules_.n_rules <= max(init[1].n_rules for init in inits)
    if optimum < best:
        assert record["objective"] == optimum and record["pooled_from"] == best
    else:
        assert record["objective"] == best and "pooled_from" not in record
        assert clf.rules_.rules == inits[record["init"]][1].rules


def test_the_pool_is_often_better_than_every_fit(monkeypatch):
    """The pooled rules beat the best fit on some of these noisy sets (so the test above
    tests both branches)."""
    pooled = 0
    for seed in range(6):
        clf = IMLIClassifier(n_init=3, random_state=seed, backend="rc2").fit(*_data(seed))
        pooled += "pooled_from" in clf.best_partition_
    assert 0 < pooled < 6


def test_pooled_rules_that_fail_the_null_test_are_not_kept(monkeypatch):
    """Pooled rules are kept only when they pass the null test; else the best fit is."""
    seen = _recording_inits(monkeypatch)
    X, y = _data(0)
    real = base.IncrementalRuleClassifier._null_test
    calls = []

    def failing_pool(self, fitted, records, *args):
        calls.append(dict(records))
        if any("pooled_from" in record for record in records.values()):
            fitted[1] = fitted[1].__class__([], fitted[1].kind, fitted[1].n_columns)
            records[1] = {"not_significant": records[1]}
            return None
        return real(self, fitted, records, *args)

    monkeypatch.setattr(base.IncrementalRuleClassifier, "_null_test", failing_pool)
    clf = IMLIClassifier(n_init=3, null_test=True, random_state=0, backend="rc2").fit(X, y)
    assert any("pooled_from" in r for call in calls for r in call.values())
    (inits,) = seen
    assert "pooled_from" not in clf.best_partition_
    assert clf.rules_.rules == inits[clf.best_partition_["init"]][1].rules


def test_the_pool_in_one_vs_rest_lowers_the_combined_objective(monkeypatch):
    """More classes: each class's rules come from the pool of that class's rules, and the
    predictions they make together cost no more than the best fit's."""
    seen = _recording_inits(monkeypatch)
    X, y = _data(4, n=160, classes=3)
    clf = IMLIClassifier(n_init=3, null_test=True, random_state=1, backend="rc2").fit(X, y)
    (inits,) = seen
    Xb = clf.binarizer_.transform(X)
    y_idx = np.searchsorted(clf.classes_, y)
    kept = {c: clf.rules_[label] for c, label in enumerate(clf.classes_)}
    costs = [clf._combined_cost(init, Xb, y_idx, None) for init in inits]
    assert clf._combined_cost(kept, Xb, y_idx, None) <= min(costs)
    for c in kept:
        pool = {frozenset(r.literals) for init in inits for r in init[c].rules}
        assert {frozenset(r.literals) for r in kept[c].rules} <= pool
    assert any("pooled_from" in r for r in clf.best_partition_.values())


def test_the_weighted_pool_is_the_best_weighted_subset(monkeypatch):
    """With ``sample_weight``, the pool is judged by the weighted objective."""
    seen = _recording_inits(monkeypatch)
    X, y = _data(11)
    w = np.random.default_rng(0).uniform(0.2, 3.0, size=len(y))
    clf = IMLIClassifier(n_init=3, random_state=2, backend="rc2",
                         null_test=False).fit(X, y, sample_weight=w)
    (inits,) = seen
    Xb = clf.binarizer_.transform(X)
    weights = w / w.mean()
    target = y == "b"
    best = min(clf._objective(init[1], Xb, target, weights) for init in inits)
    optimum = _pool_optimum(clf, inits, 1, Xb, target, weights)
    assert clf.best_partition_["objective"] == pytest.approx(min(best, optimum))


def test_the_pool_is_solved_by_the_selection_engine(monkeypatch):
    """The choice among the fits' rules is a selection model: whatever engine solves the
    partitions, it goes to the one ``"auto"`` picks for selection models (RC2's cores
    stalled on it on noisy data), and it is warm-started with the best fit's rules."""
    from satrules.backends.registry import choose_backend

    calls = []
    real = base.solve

    def recording(model, backend="auto", **kw):
        calls.append((model, backend, kw.get("hint")))
        return real(model, backend=backend, **kw)

    monkeypatch.setattr(base, "solve", recording)
    X, y = _data(6)
    clf = IMLIClassifier(n_init=3, null_test=True, random_state=0, backend="rc2").fit(X, y)
    model, backend, hint = calls[-1]
    assert len(calls) == len(clf.fit_history_) * 3 + 1
    assert {b for _, b, _ in calls[:-1]} == {"rc2"}
    assert backend == choose_backend(model, None, selection=True) != "rc2"
    assert model.evaluate(hint)


@pytest.mark.parametrize("make", MAKERS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_rule_one_fit_found_can_be_priced_out_of_the_pool(make, seed):
    """Experiment ``_pool_single``: a rule only one fit found costs that many errors more
    in the pool's choice.  Priced far above every error, the pooled rules (kept whenever
    the null test allows) are rules two or more fits found; with none, the constant."""
    with pytest.MonkeyPatch.context() as mp:
        seen = _recording_inits(mp)
        mp.setattr(base.IncrementalRuleClassifier, "_pool_single", 1e4)
        X, y = _data(seed)
        clf = make(n_init=3, random_state=seed).fit(X, y)
    (inits,) = seen
    found = {}
    for init in inits:
        for rule in init[1].rules:
            found[frozenset(rule.literals)] = found.get(frozenset(rule.literals), 0) + 1
    if "pooled_from" in clf.best_partition_:
        assert all(found[frozenset(rule.literals)] >= 2 for rule in clf.rules_.rules)
    else:   # turned down by the null test: the best fit, as without the experiment
        assert "not_significant" in clf.best_partition_ or any(
            clf.rules_.rules == init[1].rules for init in inits)


def test_polishing_the_pool_never_raises_its_objective(monkeypatch):
    """Experiment ``_pool_polish``: the pooled rules are polished again before they are
    compared with the best fit, so (without the null test, which could turn either down)
    the objective kept is at most the one kept without it, and polished pooled rules are
    kept on some of these noisy sets."""
    pooled = 0
    for seed in range(6):
        X, y = _data(seed)
        plain = IMLIClassifier(n_init=3, random_state=seed, backend="rc2",
                               null_test=False).fit(X, y)
        with monkeypatch.context() as mp:
            mp.setattr(base.IncrementalRuleClassifier, "_pool_polish", True)
            polished = IMLIClassifier(n_init=3, random_state=seed, backend="rc2",
                                      null_test=False).fit(X, y)
        objective = polished.best_partition_["objective"]
        assert objective <= plain.best_partition_["objective"] + 1e-9
        pooled += "pooled_from" in polished.best_partition_
    assert pooled
