"""Reports: per-rule statistics are right, plots are built, and the HTML page is one
self-contained offline file (no scripts, no external resources, plots as embedded PNG)."""

from __future__ import annotations

import base64
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import balanced_accuracy_score

from satrules import report
from satrules.binarize import ThresholdBinarizer
from satrules.rules import Literal, Rule, RuleSet

PNG = b"\x89PNG\r\n\x1a\n"


class _Fitted:
    """A stand-in for a fitted IMLI classifier over 0/1 features (binary: one column each)."""

    def __init__(self, rules, n_features, classes=(0, 1)):
        grid = np.indices((2,) * n_features).reshape(n_features, -1).T
        self.binarizer_ = ThresholdBinarizer().fit(grid)
        self.classes_ = np.array(classes)
        self.rules_ = rules.named(self.binarizer_.conditions_)

    def predict(self, X):
        return self.classes_[self.rules_.evaluate(self.binarizer_.transform(X)).astype(int)]


@st.composite
def fitted_and_data(draw):
    n_features = draw(st.integers(1, 4))
    lits = st.builds(Literal, st.integers(0, n_features - 1), st.booleans())
    rules = draw(st.lists(st.lists(lits, min_size=1, max_size=3, unique_by=lambda x: x.column)
                          .map(lambda x: Rule(tuple(x))), min_size=1, max_size=3))
    kind = draw(st.sampled_from(["dnf", "cnf"]))
    n = draw(st.integers(1, 20))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n_features,
                                        max_size=n_features), min_size=n, max_size=n)))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    return _Fitted(RuleSet(rules, kind, n_features), n_features), X, y


@settings(max_examples=60, deadline=None)
@given(case=fitted_and_data())
def test_rule_stats_match_direct_evaluation(case):
    """coverage = fraction of rows a rule fires on; accuracy = share of those labelled with the
    class it predicts (DNF term true -> positive; CNF clause false -> negative)."""
    est, X, y = case
    stats = report.rule_stats(est, X, y)
    rules = est.rules_
    Xb = est.binarizer_.transform(X)
    assert len(stats) == rules.n_rules
    for r, rule in enumerate(rules.rules):
        sat = RuleSet([rule], rules.kind, rules.n_columns).evaluate(Xb)
        fires = sat if rules.kind == "dnf" else ~sat
        label = 1 if rules.kind == "dnf" else 0
        row = stats.iloc[r]
        assert row.n_covered == fires.sum() and row.predicts == label
        assert row.coverage == pytest.approx(fires.mean())
        if fires.any():
            assert row.accuracy == pytest.approx((y[fires] == label).mean())
        else:
            assert np.isnan(row.accuracy)
    metrics = report.summary_metrics(est, X, y)
    # a DNF is true iff some term fires; a CNF is false iff some clause fires
    fired = stats.n_covered.sum() > 0
    assert (metrics["coverage"] > 0) == fired
    assert metrics["accuracy"] == pytest.approx((est.predict(X) == y).mean())
    pred = est.predict(X)
    assert metrics["balanced_accuracy"] == pytest.approx(
        balanced_accuracy_score(y, pred) if len(np.unique(y)) > 1 else (pred == y).mean())
    assert metrics["n_literals"] == rules.n_literals


def test_cnf_rules_read_as_negated_conjunctions():
    """A CNF clause (a OR NOT b) is shown as its violation: 'a != 1 AND b = 1' -> negative."""
    est = _Fitted(RuleSet([[Literal(0), Literal(1, True)]], "cnf", 2), 2, classes=("no", "yes"))
    stats = report.rule_stats(est, np.array([[0, 1], [1, 1]]), np.array(["no", "yes"]))
    assert stats.text.tolist() == ["x0 != 1 AND x1 = 1"]
    assert stats.predicts.tolist() == ["no"] and stats.accuracy.tolist() == [1.0]


@pytest.fixture(scope="module")
def cdpr_fitted():
    from sklearn.datasets import load_breast_cancer

    from satrules import CDPRClassifier

    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X = X.iloc[:, :8]
    return CDPRClassifier(gamma=4, n_estimators=8, max_depth=2, random_state=0).fit(X, y), X, y


def test_cdpr_rule_stats_agree_with_its_covers(cdpr_fitted):
    """For CDPR the masks are the classifier's own covers and coverage is coverage_rate."""
    est, X, y = cdpr_fitted
    stats = report.rule_stats(est, X, y)
    assert len(stats) == len(est.rules_)
    assert stats.n_covered.tolist() == np.asarray(est._covers(X).sum(axis=1)).ravel().tolist()
    assert report.summary_metrics(est, X, y)["coverage"] == pytest.approx(est.coverage_rate(X))
    assert stats.predicts.tolist() == [est.classes_[r.label] for r in est.rules_]


def _images(page):
    found = re.findall(r"<img[^>]*src='([^']*)'", page)
    return [base64.b64decode(src.split("base64,", 1)[1], validate=True) for src in found]


def test_html_report_is_self_contained(cdpr_fitted, tmp_path):
    """One file: no scripts, no links, no remote URLs; every image is an embedded PNG."""
    est, X, y = cdpr_fitted
    sweep = pd.DataFrame({"param_gamma": [2, 2, 4, 4], "test_coverage": [.5, .6, .8, .85],
                          "test_accuracy": [.9, .88, .86, .87]})
    bench = tmp_path / "bench.csv"
    pd.DataFrame({"backend": ["rc2", "cpsat", "rc2"], "wall_time": [.1, .2, .3]}).to_csv(bench)
    out = tmp_path / "report.html"
    metrics = report.write_report(est, X, y, out, sweep=sweep, benchmarks=[bench], title="T<&>")
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    for forbidden in ("<script", "<link", "http://", "https://", "src='http", "@import"):
        assert forbidden not in page
    images = _images(page)
    assert len(images) == 3 and all(img.startswith(PNG) for img in images)
    assert "T&lt;&amp;&gt;" in page
    for rule in est.rules_:
        text = str(rule)[3:].rsplit(" THEN ", 1)[0]
        assert text.replace("<", "&lt;").replace(">", "&gt;") in page
    assert f"{metrics['accuracy']:.4g}" in page
    # the confusion matrix counts every row once
    block = page.split("<h2>Confusion matrix</h2>", 1)[1].split("</table>", 1)[0]
    counts = [int(c) for c in re.findall(r"<td class=\"num\">(\d+)</td>", block)]
    assert sum(counts) == len(y)


def test_report_without_matplotlib_still_written(cdpr_fitted, tmp_path, monkeypatch):
    """Without the plot extra the page is written with a note naming the install line."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    est, X, y = cdpr_fitted
    out = tmp_path / "r.html"
    report.write_report(est, X, y, out)
    page = out.read_text()
    assert "<img" not in page and report.PLOT_INSTALL.replace('"', "&quot;") in page
    with pytest.raises(ImportError, match="satrules\\[plot\\]"):
        report.plot_rule_bars(report.rule_stats(est, X, y))


def test_backend_comparison_needs_columns():
    """A benchmark table without a backend or time column is a ValueError naming the columns."""
    with pytest.raises(ValueError, match="no time column"):
        report.plot_backend_comparison(pd.DataFrame({"backend": ["a"], "cost": [1]}))
    fig = report.plot_backend_comparison(pd.DataFrame({"solver": ["a", "b"], "seconds": [1, 2]}))
    assert sorted(line.get_label() for line in fig.axes[0].lines) == ["a", "b"]


def test_tradeoff_falls_back_to_literals():
    """Without measured coverage the trade-off plot uses rule-set size on the x axis."""
    t = pd.DataFrame({"param_k": [1, 2], "test_coverage": [None, None],
                      "n_literals": [3, 5], "test_accuracy": [.8, .9]})
    assert report.plot_tradeoff(t).axes[0].get_xlabel() == "n_literals"


def test_rules_text_names_classes():
    """Rules print with the class they predict and the default class."""
    est = _Fitted(RuleSet([[Literal(0)]], "dnf", 1), 1, classes=("ham", "spam"))
    assert report.rules_text(est) == "IF (x0 = 1)\nTHEN spam\nELSE ham"


def test_backend_comparison_counts_only_proven_runs(tmp_path):
    """With a status column, timed-out runs are not plotted as solved."""
    path = tmp_path / "b.csv"
    pd.DataFrame({"backend": ["rc2", "rc2", "cpsat"], "status": ["OPTIMAL", "UNKNOWN", "OPTIMAL"],
                  "time_s": [0.1, 60.0, 0.2]}).to_csv(path, index=False)
    fig = report.plot_backend_comparison(path)
    lines = {line.get_label(): line.get_ydata().tolist() for line in fig.axes[0].lines}
    assert lines == {"rc2": [0.1], "cpsat": [0.2]}
    assert fig.axes[0].get_xlabel() == "instances solved to optimality"
