"""``null_test="held-out"`` of IMLI and IMLIB (their default since 2026-12-07): the rules
must also beat the constant on rows held out in a 3-fold cross-validation of the learner
on the training rows (10-fold on ``HELD_OUT_SMALL_ROWS`` rows or fewer).

On labels drawn independently of X the training-row test is passed by rules chosen on
those very rows (they fit the noise); the out-of-fold predictions of fits that never saw
the rows do not beat the constant, and the rules are turned down.  On a real signal the
test passes and the rules are those of the fit with the training-row test alone
(``null_test=True``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_wine

import satrules.estimators._base as base
from satrules import IMLIBClassifier, IMLIClassifier

MAKERS = [
    lambda **kw: IMLIClassifier(backend="rc2", **kw),
    lambda **kw: IMLIBClassifier(backend="rc2", **kw),
]


def _noise(seed: int, n: int = 300, p: int = 10):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, p)), columns=[f"x{i}" for i in range(p)])
    return X, np.where(rng.random(n) < 0.5, "no", "yes")


@pytest.mark.parametrize("make", MAKERS)
def test_rules_fitted_to_noise_are_turned_down(make):
    """On these noise tables the training-row test keeps rules (the defect the held-out
    test answers); the held-out test, the default, turns them down, records why, and says
    so in the text."""
    kept_by_training = 0
    for seed in range(3):
        X, y = _noise(seed)
        plain = make(random_state=seed, null_test=True).fit(X, y)
        kept_by_training += plain.rules_.n_literals > 0
        clf = make(random_state=seed).fit(X, y)
        assert clf.null_test == "held-out"
        assert clf.rules_.n_literals == 0
        record = clf.best_partition_
        if "held_out_test" in record:   # turned down here, not by the training rows
            verdict = record["held_out_test"]
            assert verdict["passed"] is False and verdict["fixed"] + verdict["broken"] > 0
            assert record["not_significant"]["held_out_test"] == verdict
            assert "not significantly better on rows held out" in clf.to_text()
        majority = max(set(y), key=list(y).count)
        assert (clf.predict(X) == majority).all()
    assert kept_by_training >= 2


@pytest.mark.parametrize("make", MAKERS)
def test_a_real_signal_keeps_the_training_tested_fit(make):
    """Breast cancer: the held-out test passes by far, and the rules, their record and
    the predictions are those of the fit tested on its training rows alone
    (``null_test=True``; the folds draw after the fit)."""
    X, y = load_breast_cancer(return_X_y=True)
    plain = make(random_state=0, null_test=True).fit(X, y)
    clf = make(random_state=0).fit(X, y)
    verdict = clf.best_partition_.pop("held_out_test")
    assert verdict["passed"] and verdict["fixed"] > 5 * verdict["broken"]
    assert verdict["folds"] == 3
    assert clf.rules_ == plain.rules_
    assert clf.best_partition_ == plain.best_partition_
    assert (clf.predict(X) == plain.predict(X)).all()


@pytest.mark.parametrize("n, folds", [(180, 3), (150, 10), (90, 10)])
def test_the_folds_fit_on_rows_they_then_predict_not(monkeypatch, n, folds):
    """Each fold is fitted (binarization included) on the other folds' rows, with the
    test off, and predicts its own; every row is predicted once.  Above
    ``HELD_OUT_SMALL_ROWS`` (150) training rows there are 3 folds, on that many or fewer
    10, so that a fold's fit is not starved of rows."""
    seen = []
    real_fit = base.IncrementalRuleClassifier.fit

    def recording(self, X, y, sample_weight=None):
        if self.null_test is False:
            seen.append(set(X.index))
        return real_fit(self, X, y, sample_weight)

    monkeypatch.setattr(base.IncrementalRuleClassifier, "fit", recording)
    X, y = _noise(5, n=n)
    X["x0"] += np.where(y == "yes", 1.5, 0.0)   # a signal: the test is made, and passed
    clf = IMLIClassifier(random_state=0, backend="rc2", null_test="held-out").fit(X, y)
    assert len(seen) == folds
    assert clf.best_partition_["held_out_test"]["folds"] == folds
    held = [set(X.index) - rows for rows in seen]
    assert all(abs(len(h) - n / folds) <= 1 for h in held)
    assert set().union(*held) == set(X.index)


def test_more_classes_are_tested_on_their_combined_predictions():
    """Wine (3 classes): the held-out test passes, once for all classes (the same verdict
    in every class's record), and the rules are the default fit's."""
    X, y = load_wine(return_X_y=True)
    plain = IMLIClassifier(random_state=1).fit(X, y)
    clf = IMLIClassifier(random_state=1, null_test="held-out").fit(X, y)
    verdicts = [record.pop("held_out_test") for record in clf.best_partition_.values()]
    assert verdicts[0]["passed"] and all(v == verdicts[0] for v in verdicts)
    assert clf.rules_ == plain.rules_


def test_weighted_rows_reach_the_folds(monkeypatch):
    """With row weights (here a class weight) each fold gets its rows' weights as
    ``sample_weight`` and no class weight of its own (it would count twice)."""
    seen = []
    real_fit = base.IncrementalRuleClassifier.fit

    def recording(self, X, y, sample_weight=None):
        if self.null_test is False:
            seen.append((self.class_weight, sample_weight))
        return real_fit(self, X, y, sample_weight)

    monkeypatch.setattr(base.IncrementalRuleClassifier, "fit", recording)
    X, y = _noise(6, n=90)
    IMLIClassifier(random_state=0, backend="rc2", null_test="held-out",
                   class_weight={"yes": 3.0}).fit(X, y)
    assert len(seen) == base.HELD_OUT_SMALL_FOLDS
    for class_weight, weights in seen:
        assert class_weight is None and weights is not None and len(set(weights)) == 2


def test_a_class_of_one_row_skips_the_test_with_a_warning():
    """Nothing can be held out of a class of one row: the rules keep the training-row
    verdict, with a warning and the reason recorded."""
    X, y = load_breast_cancer(return_X_y=True)
    y = np.where(y == 1, "benign", "malignant").astype(object)
    y[0] = "rare"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf = IMLIClassifier(random_state=0, null_test="held-out").fit(X, y)
    assert any("held-out test was not made" in str(w.message) for w in caught)
    records = clf.best_partition_.values()
    assert all(r["held_out_test"] == {"skipped": "a class has a single training row"}
               for r in records)


@pytest.mark.parametrize("significance", [2.0, 3.0])
def test_the_folds_are_single_fits_tested_at_half_the_level(monkeypatch, significance):
    """Each fold is one fit (``n_init=1``, whatever the estimator's ``n_init``), and the
    out-of-fold predictions are held to the sign test at half of ``significance`` (z = 1
    at the default 2), while the training-row test keeps ``significance`` itself."""
    inits, levels = [], []
    real_fit, real_beats = base.IncrementalRuleClassifier.fit, base.beats_constant

    def recording_fit(self, X, y, sample_weight=None):
        if self.null_test is False:
            inits.append(self.n_init)
        return real_fit(self, X, y, sample_weight)

    def recording_beats(predicted, y, constant, min_z, *args):
        levels.append(min_z)
        return real_beats(predicted, y, constant, min_z, *args)

    monkeypatch.setattr(base.IncrementalRuleClassifier, "fit", recording_fit)
    monkeypatch.setattr(base, "beats_constant", recording_beats)
    X, y = load_breast_cancer(return_X_y=True)
    clf = IMLIClassifier(random_state=0, backend="rc2", n_init=3, significance=significance,
                         null_test="held-out").fit(X, y)
    assert inits == [1, 1, 1]
    # the training rows' tests (the fits, the pool), then the held-out test last
    assert levels[-1] == significance / 2 and set(levels[:-1]) == {significance}
    assert clf.best_partition_["held_out_test"]["passed"]


@pytest.mark.parametrize("bad", ["yes", "held_out", 1.5, None])
def test_bad_null_test_is_refused(bad):
    X, y = _noise(0, n=40, p=2)
    with pytest.raises(ValueError, match="null_test must be True, False or 'held-out'"):
        IMLIClassifier(null_test=bad).fit(X, y)


def test_the_option_survives_a_model_file(tmp_path):
    X, y = load_breast_cancer(return_X_y=True)
    clf = IMLIBClassifier(random_state=0, null_test="held-out").fit(X, y)
    back = IMLIBClassifier.load(clf.save(tmp_path / "m.json"))
    assert back.null_test == "held-out"
    assert back.best_partition_["held_out_test"] == clf.best_partition_["held_out_test"]
    assert (back.predict(X) == clf.predict(X)).all()


def test_a_fold_that_cannot_read_its_held_out_rows_predicts_its_constant():
    """A column of hours and minutes with one blank: the whole fit drops it (not all
    values are times), but the fold whose training rows miss the blank reads durations
    and cannot read the blank when it predicts.  That fold's rows get its constant (no
    rule), and the fit goes on."""
    rng = np.random.default_rng(0)
    n = 90
    times = [f"{h}:{m:02d}" for h, m in zip(rng.integers(8, 18, n), rng.integers(0, 60, n),
                                             strict=True)]
    times[5] = " "
    x = rng.normal(size=n)
    X, y = pd.DataFrame({"x": x, "t": times}), np.where(x > 0, "a", "b")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = IMLIClassifier(random_state=0).fit(X, y)
        clf = IMLIClassifier(random_state=0, null_test="held-out").fit(X, y)
    verdict = clf.best_partition_.pop("held_out_test")
    assert verdict["passed"] and verdict["fixed"] + verdict["broken"] < n
    assert clf.rules_ == plain.rules_


def test_large_data_is_tested_on_a_sample_that_keeps_every_class(monkeypatch):
    """Above ``HELD_OUT_MAX_ROWS`` rows the cross-validation runs on a sample of that
    many, a rare class kept (at least one row per fold)."""
    seen = []
    real_fit = base.IncrementalRuleClassifier.fit

    def recording(self, X, y, sample_weight=None):
        if self.null_test is False:
            seen.append(list(y))
        return real_fit(self, X, y, sample_weight)

    monkeypatch.setattr(base.IncrementalRuleClassifier, "fit", recording)
    monkeypatch.setattr(base, "HELD_OUT_MAX_ROWS", 60)
    # 3 folds on the sample (true of any real sample: HELD_OUT_MAX_ROWS is 5,000)
    monkeypatch.setattr(base.IncrementalRuleClassifier, "_held_out_small_rows", 0)
    X, y = _noise(7, n=300)
    y = y.astype(object)
    y[:4] = "rare"
    IMLIClassifier(random_state=0, backend="rc2", null_test="held-out").fit(X, y)
    assert len(seen) == 3
    assert all(len(labels) <= 45 and "rare" in labels for labels in seen)


def test_rule_class_auto_turned_down_predicts_the_majority():
    """``rule_class="auto"`` learns rules for both classes; turned down, the fit predicts
    the majority class on every row, whichever class's (constant) rules are kept."""
    for seed in range(3):
        X, y = _noise(seed)
        clf = IMLIClassifier(random_state=seed, backend="rc2", rule_class="auto",
                             null_test="held-out").fit(X, y)
        majority = max(set(y), key=list(y).count)
        assert clf.rules_.n_literals == 0
        assert (clf.predict(X) == majority).all()


def test_a_time_limit_is_shared_between_the_fit_and_its_folds(monkeypatch):
    """Under ``time_limit`` the fit's own solves get half of it (the folds, single fits of
    two thirds of the rows, are about two thirds of its work) and each fold an equal
    share of what is left.  The clock is a fake
    that moves only when a fold ends (by the whole of its share), so nothing here depends
    on the machine's speed."""
    clock = [1000.0]
    monkeypatch.setattr(base.time, "monotonic", lambda: clock[0])
    deadlines, limits = [], []
    real_fit_binary = base.IncrementalRuleClassifier._fit_binary
    real_fit = base.IncrementalRuleClassifier.fit

    def recording_binary(self, Xb, y, n_parts, rng, budget, *args, **kwargs):
        if self.null_test == "held-out":
            deadlines.append(budget["deadline"])
        return real_fit_binary(self, Xb, y, n_parts, rng, budget, *args, **kwargs)

    def recording_fit(self, X, y, sample_weight=None):
        if self.null_test is not False:
            return real_fit(self, X, y, sample_weight)
        limits.append(self.time_limit)
        fitted = real_fit(self, X, y, sample_weight)
        clock[0] += self.time_limit
        return fitted

    monkeypatch.setattr(base.IncrementalRuleClassifier, "_fit_binary", recording_binary)
    monkeypatch.setattr(base.IncrementalRuleClassifier, "fit", recording_fit)
    X, y = load_breast_cancer(return_X_y=True)
    clf = IMLIClassifier(random_state=0, backend="rc2", null_test="held-out",
                         time_limit=90.0).fit(X, y)
    assert deadlines and set(deadlines) == {1045.0}
    assert limits == [30.0, 30.0, 30.0]   # the fit took no (fake) time
    assert clf.best_partition_["held_out_test"]["passed"]
    assert clf.time_limit_reached_ is False


def test_rule_class_auto_shares_the_time_left_between_the_two_tests(monkeypatch):
    """``rule_class="auto"`` tests each class's rules as a fit of that class alone would
    (folds that describe it): the first test gets half of the time left after the fit,
    the second all that is left then.  The clock moves only when a fold ends."""
    clock = [1000.0]
    monkeypatch.setattr(base.time, "monotonic", lambda: clock[0])
    limits, described = [], []
    real_fit = base.IncrementalRuleClassifier.fit

    def recording_fit(self, X, y, sample_weight=None):
        if self.null_test is not False:
            return real_fit(self, X, y, sample_weight)
        limits.append(self.time_limit)
        described.append(self.rule_class)
        fitted = real_fit(self, X, y, sample_weight)
        clock[0] += self.time_limit
        return fitted

    monkeypatch.setattr(base.IncrementalRuleClassifier, "fit", recording_fit)
    X, y = load_breast_cancer(return_X_y=True)
    clf = IMLIClassifier(random_state=0, backend="rc2", rule_class="auto",
                         null_test="held-out", time_limit=90.0).fit(X, y)
    assert limits == [15.0] * 6 and described == [0] * 3 + [1] * 3
    assert clf.best_partition_["held_out_test"]["passed"]
    assert clf.time_limit_reached_ is False


def test_the_folds_show_one_bar_and_no_bars_of_their_own(monkeypatch):
    """On a terminal the folds show one 'held-out null test (folds)' bar, after the fit's
    own 'partitions' bar; the fold fits' bars stay quiet."""
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    monkeypatch.setattr(base, "PROGRESS_DELAY", 0.0)
    X, y = load_breast_cancer(return_X_y=True)
    IMLIClassifier(random_state=0, backend="rc2", n_init=1,
                   null_test="held-out").fit(X[:200], y[:200])
    out = term.getvalue()
    assert out.count("held-out null test (folds)") >= 1 and "/3 " in out
    # the fit's bar (n_init=1: 13 partitions x 2 passes) and no fold's (9 partitions each)
    assert "partitions" in out and "/26 " in out and "/18 " not in out


@pytest.mark.parametrize("seed", [7750, 19, 3])
def test_describing_a_class_is_the_fit_on_labels_renamed_to_sort_last(seed):
    """The held-out test's folds and its fold constants on a tie follow the class the
    rules describe, not the sorting of the labels: ``rule_class="sick"`` ("sick" sorts
    first) gives the record of the default fit on labels renamed so that it sorts last,
    held-out verdict included (they differed on these seeds when the folds were
    stratified on the sorted labels)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"age": rng.integers(20, 80, 60).astype(float),
                      "dose": rng.normal(size=60).round(2),
                      "arm": rng.choice(["a", "b", "c"], 60)})
    signal = (X["age"] > 50) & (X["arm"] != "c") | (X["dose"] > 1)
    y = np.where(signal ^ (rng.random(60) < 0.1), "sick", "well")
    for make in (lambda **kw: IMLIClassifier(n_rules=2, rule_type="cnf", **kw),
                 lambda **kw: IMLIBClassifier(n_rules=2, max_literals_per_rule=2, **kw)):
        est = make(rule_class="sick", null_test="held-out", backend="rc2", n_thresholds=3,
                   random_state=0).fit(X, y)
        ref = make(null_test="held-out", backend="rc2", n_thresholds=3,
                   random_state=0).fit(X, np.where(y == "sick", "z sick", "well"))
        assert "held_out_test" in est.best_partition_
        assert est.best_partition_ == ref.best_partition_
        assert est.to_text() == ref.to_text().replace("z sick", "sick")
