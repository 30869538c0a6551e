"""``explain``: every row's prediction and the rule that decided it, for all estimators.

The property checked on random data: the prediction is ``predict``'s, and the rule named
is the one the rule set's semantics makes decisive (the first term that holds, the first
clause that fails, the first class of the priority order whose rules hold, CDPR's
deciding rule), with the text that rule prints.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.backends.registry import available_backends
from satrules.estimators.cdpr import CDPRClassifier
from satrules.estimators.imli import IMLIClassifier
from satrules.estimators.imlib import IMLIBClassifier
from satrules.metrics import deciding_rules

BACKEND = next(b for b in ("rc2", "cpsat", "bruteforce") if b in available_backends())
MAKERS = {
    "imli-dnf": lambda: IMLIClassifier(backend=BACKEND, partition_size=16, n_rules=2,
                                       null_test=False, random_state=0),
    "imli-cnf": lambda: IMLIClassifier(backend=BACKEND, partition_size=16, n_rules=2,
                                       rule_type="cnf", null_test=False, random_state=0),
    "imlib": lambda: IMLIBClassifier(backend=BACKEND, partition_size=16, n_rules=2,
                                     null_test=False, random_state=0),
    "imli-class0": lambda: IMLIClassifier(backend=BACKEND, partition_size=16, n_rules=2,
                                          rule_class=0, null_test=False, random_state=0),
    "cdpr": lambda: CDPRClassifier(alpha=0.6, n_estimators=5, null_test=False,
                                   random_state=0),
    "cdpr-vote": lambda: CDPRClassifier(alpha=0.6, n_estimators=5, resolve="vote",
                                        null_test=False, random_state=0),
}


def _data(seed: int, n_classes: int, n: int = 60):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 4, n).astype(float),
                      "c": rng.choice(["red", "blue", "green"], n)})
    X.loc[rng.random(n) < 0.1, "a"] = np.nan
    score = X["a"].fillna(0) + (X["c"] == "red") - 0.3 * X["b"] + rng.normal(0, .5, n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1]))
    return X.set_axis(np.arange(100, 100 + n)), y


def _check_incremental(est, X, why):
    Xb = est.binarizer_.transform(X)
    if len(est.classes_) == 2:
        described = est._binary_classes()[0]
        sets = {est.classes_[described]: est.rules_}
        rows_of = {est.classes_[described]: np.ones(len(X), dtype=bool)}
        tie_rows = {est.classes_[described]: [False] * len(X)}
        tie_names = {est.classes_[described]: [""] * len(X)}
    else:
        sets = {c: est.rules_[c] for c in est.classes_}
        fires = np.stack([sets[c].evaluate(Xb) for c in est.classes_], axis=1)
        order, _ = est._class_order()
        first = np.where(fires[:, order].any(axis=1), order[fires[:, order].argmax(axis=1)],
                         -1)
        rows_of = {c: first == i for i, c in enumerate(est.classes_)}
        names = [[str(est.classes_[c]) for c in order if fires[r, c] and c != first[r]]
                 for r in range(len(X))]
        tie_rows = {c: [len(names[r]) > 0 for r in np.flatnonzero(rows_of[c])]
                    for c in est.classes_}
        tie_names = {c: [", ".join(names[r]) for r in np.flatnonzero(rows_of[c])]
                     for c in est.classes_}
        assert (why["rule"].to_numpy()[first < 0] == -1).all()
        assert (why["reason"].to_numpy()[first < 0] == "no class's rules hold").all()
    for label, rules in sets.items():
        rows = rows_of[label]
        values = rules.rule_values(Xb[rows])
        rule, reason = why["rule"].to_numpy()[rows], why["reason"].to_numpy()[rows]
        if rules.never_true or rules.always_true:
            assert (rule == -1).all() and all(r.startswith("always ") for r in reason)
            continue
        k = 0
        for v, r, text in zip(values, rule, reason, strict=True):
            decisive = v if rules.kind == "dnf" else ~v    # a term holds, a clause fails
            text, _, tie = text.partition(" (the rules for ")
            if r < 0:
                assert not decisive.any()
                assert text == (f"no rule for {label} holds" if rules.kind == "dnf" else
                                f"every clause for {label} holds")
            else:
                assert decisive[r] and not decisive[:r].any()
                assert text == (rules.rule_text(r) if rules.kind == "dnf" else
                                rules.failed_text(r))
            assert bool(tie) == (len(est.classes_) > 2 and bool(tie_rows[label][k]))
            if tie:
                assert tie == f"{tie_names[label][k]} hold too; {label} comes first)"
            k += 1


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n_classes=st.sampled_from([2, 3]),
       name=st.sampled_from(sorted(MAKERS)))
def test_explain_names_the_deciding_rule(seed, n_classes, name):
    """On random data, two or three classes, every estimator: ``explain`` predicts what
    ``predict`` predicts, keeps ``X``'s index, and names the decisive rule and its text."""
    if name == "imli-class0" and n_classes > 2:
        n_classes = 2                  # rule_class names one class of two
    X, y = _data(seed, n_classes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = MAKERS[name]().fit(X, y)
    why = est.explain(X)
    assert list(why.columns) == ["prediction", "rule", "reason"]
    assert why.index.equals(X.index)
    np.testing.assert_array_equal(why["prediction"].to_numpy(), est.predict(X))
    if isinstance(est, CDPRClassifier):
        covers = est.rule_covers(X)
        texts = [rule.body() for rule in est.rules_]
        rule = why["rule"].to_numpy()
        if est.resolve != "vote":
            np.testing.assert_array_equal(rule, deciding_rules(covers, est._priority()))
        dense = covers.toarray().astype(bool)
        for i, (r, text) in enumerate(zip(rule, why["reason"], strict=True)):
            if r < 0:
                assert text == "no rule covers the row" and not dense[:, i].any()
            else:
                assert dense[r, i] and text.startswith(texts[r])
                assert est.classes_[est.rules_.labels[r]] == why["prediction"].iloc[i]
    else:
        _check_incremental(est, X, why)


def test_explain_texts_on_a_known_rule():
    """A rule the data force (``x > 1``, or ``x <= 1`` for the CNF clause ``x > 1`` that
    fails), with the ELSE sentences, and a constant rule set's sentence."""
    X = pd.DataFrame({"x": np.repeat([0.0, 1.0, 2.0, 3.0], 5)})
    y = np.where(X["x"] >= 2, "yes", "no")
    dnf = IMLIClassifier(n_rules=1, backend=BACKEND, random_state=0).fit(X, y)
    assert dnf.explain(X.iloc[[0, 19]]).to_dict("list") == {
        "prediction": ["no", "yes"], "rule": [-1, 0],
        "reason": ["no rule for yes holds", "x > 1"]}
    cnf = IMLIClassifier(n_rules=1, rule_type="cnf", backend=BACKEND,
                         random_state=0).fit(X, y)
    assert cnf.explain(X.iloc[[0, 19]]).to_dict("list") == {
        "prediction": ["no", "yes"], "rule": [0, -1],
        "reason": ["x <= 1", "every clause for yes holds"]}
    noise = np.random.default_rng(0).permutation(y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        const = IMLIClassifier(n_rules=1, backend=BACKEND, random_state=0).fit(X, noise)
    assert const.rules_.never_true or const.rules_.always_true
    assert set(const.explain(X)["reason"]) == {"always no: no rule predicts yes"} or \
        set(const.explain(X)["reason"]) == {"always yes: no rule predicts no"}


@pytest.mark.parametrize("resolve", ["accuracy", "vote"])
def test_cdpr_without_rules(resolve):
    """CDPR whose null test turned every rule down (labels of noise) explains every row
    by its default class (the vote used to fail on the empty rule list)."""
    rng = np.random.default_rng(0)
    X, y = pd.DataFrame({"a": rng.normal(size=200)}), rng.integers(0, 2, 200)
    est = CDPRClassifier(resolve=resolve, random_state=0).fit(X, y)
    assert len(est.rules_) == 0
    why = est.explain(X)
    assert (why["rule"] == -1).all() and (why["reason"] == "no rule covers the row").all()
    np.testing.assert_array_equal(why["prediction"], est.predict(X))


@pytest.mark.parametrize("name", ["imlib", "cdpr"])
def test_explain_after_save_and_load(name, tmp_path):
    """A model read back from its JSON file explains its rows as the fitted one does."""
    X, y = _data(5, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = MAKERS[name]().fit(X, y)
    path = tmp_path / "model.json"
    est.save(path)
    loaded = type(est).load(path)
    pd.testing.assert_frame_equal(loaded.explain(X), est.explain(X))


def test_cli_predict_explain(tmp_path, capsys):
    """``satrules predict --explain`` adds the ``rule`` and ``reason`` columns."""
    from satrules.cli import main

    X, y = _data(7, 2)
    train, rules, preds = tmp_path / "train.csv", tmp_path / "rules.json", tmp_path / "p.csv"
    X.assign(label=y).to_csv(train, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["learn", str(train), "--target", "label", "--method", "imli",
                     "--backend", BACKEND, "--test-size", "0", "--quiet", "--out",
                     str(rules)]) == 0
    assert main(["predict", str(rules), str(train), "--explain", "--out", str(preds)]) == 0
    out = pd.read_csv(preds)
    est = IMLIClassifier.load(rules)
    why = est.explain(X.reset_index(drop=True))
    np.testing.assert_array_equal(out["rule"], why["rule"])
    np.testing.assert_array_equal(out["reason"], why["reason"])
    np.testing.assert_array_equal(out["prediction"], why["prediction"])
    assert "label" not in out.columns
    assert main(["predict", str(rules), str(train), "--explain", "--keep-target", "--out",
                 str(preds)]) == 0
    kept = pd.read_csv(preds)
    assert list(kept.columns) == [*X.columns, "label", "prediction", "rule", "reason"]
    np.testing.assert_array_equal(kept["label"], y)
