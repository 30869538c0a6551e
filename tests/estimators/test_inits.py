"""Several independent fits, the best kept (``n_init``).

A fit's rules depend on its shuffles of the partitions; ``n_init`` fits draw their
shuffles in turn from ``random_state`` and the one kept is the fit of the lowest
whole-training objective (the earlier on a tie), or, with the ``_init_choice = "medoid"``
experiment, the fit whose training predictions agree with the others' on the most rows.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import satrules.estimators._base as base
from satrules import IMLIBClassifier, IMLIClassifier

MAKERS = [
    lambda **kw: IMLIClassifier(backend="rc2", **kw),
    lambda **kw: IMLIClassifier(backend="rc2", rule_type="cnf", **kw),
    lambda **kw: IMLIBClassifier(backend="rc2", **kw),
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
    X, y = _data(4, n=160, classes=3)
    clf = IMLIClassifier(n_init=3, random_state=0, backend="rc2").fit(X, y)
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
    X, y = _data(11)
    w = np.random.default_rng(0).uniform(0.2, 3.0, size=len(y))
    clf = IMLIClassifier(n_init=3, random_state=2, backend="rc2").fit(X, y, sample_weight=w)
    (inits,) = seen
    Xb = clf.binarizer_.transform(X)
    weights = w / w.mean()   # the rows' weights as the fit uses them (mean 1)
    cost = [clf.data_fidelity * weights[np.where(init[1].evaluate(Xb), "b", "a") != y].sum()
            + init[1].n_literals for init in inits]
    assert clf.best_partition_["init"] == int(np.argmin(cost))
