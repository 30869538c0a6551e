"""Reports and plots: per-rule statistics, sweep trade-offs, backend comparisons, one HTML page.

* :func:`rule_stats` — one row per learned rule: readable text, the class it
  predicts, its size, and on given data its coverage (fraction of samples it
  fires on) and accuracy (fraction of those samples whose label is the class it
  predicts).
* :func:`plot_rule_bars`, :func:`plot_tradeoff`, :func:`plot_backend_comparison`
  — matplotlib figures (the optional extra ``pip install "satrules[plot]"``).
  Figures are built with :class:`matplotlib.figure.Figure` directly, never
  through ``pyplot``, so no GUI backend or global state is involved.
* :func:`write_report` — ONE self-contained HTML page (inline CSS, plots as
  embedded base64 PNG, no scripts, no external links) that opens offline.
  Without matplotlib the page is still written, with a note instead of plots.

What "a rule fires" means per rule-set form:

* a **DNF** term (IMLI ``rule_type="dnf"``, IMLIB) fires when all its literals
  hold, and then predicts the positive class;
* a **CNF** clause (IMLI ``rule_type="cnf"``) fires when all its literals are
  false (the clause is violated), and then predicts the negative class — it is
  shown as the conjunction of the negated literals;
* a **decision rule** (CDPR) fires when the sample lies in its box, and predicts
  its own class.
"""

from __future__ import annotations

import base64
import html
import importlib.util
import io
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from satrules.metrics import balanced_accuracy

__all__ = ["PLOT_INSTALL", "figure_to_base64", "plot_backend_comparison", "plot_rule_bars",
           "plot_tradeoff", "render_html", "rule_masks", "rule_stats", "rules_text",
           "summary_metrics", "write_report"]

#: Install line shown when matplotlib is missing.
PLOT_INSTALL = 'pip install "satrules[plot]"'


def _require_matplotlib():
    if importlib.util.find_spec("matplotlib") is None:
        raise ImportError(f"plots need matplotlib: {PLOT_INSTALL}")
    from matplotlib.figure import Figure

    return Figure


# --------------------------------------------------------------------------- rule statistics


def _ruleset_parts(est: Any) -> list[tuple[Any, Any, Any]]:
    """(rule set, class it predicts when true, class it predicts when false) per rule set."""
    rules = est.rules_
    if isinstance(rules, dict):  # one-vs-rest: class c's rule set true -> c
        return [(rules[c], c, _Not(c)) for c in est.classes_ if c in rules]
    return [(rules, *_binary_labels(est))]


def _binary_labels(est: Any) -> tuple[Any, Any]:
    """(class predicted when a two-class rule set holds, class when it does not): the
    estimator's ``rule_class_`` and the other class, else ``classes_[-1]``, ``classes_[0]``."""
    if hasattr(est, "_binary_classes"):
        described, other = est._binary_classes()
        return est.classes_[described], est.classes_[other]
    return est.classes_[-1], est.classes_[0]


class _Not:
    """The label "not c" of a one-vs-rest CNF clause; equal to every class but ``c``."""

    def __init__(self, cls: Any) -> None:
        self.cls = cls

    def __eq__(self, other: Any) -> Any:
        return np.asarray(other) != self.cls

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return f"not {self.cls}"


def _ruleset_masks(est: Any, X: Any) -> tuple[list[str], list[Any], list[int], np.ndarray]:
    """Per-term (DNF) / per-clause (CNF) firing masks of binarized RuleSet estimators."""
    from satrules.rules import RuleSet

    Xb = est.binarizer_.transform(X)
    texts, labels, sizes, masks = [], [], [], []
    for rules, when_true, when_false in _ruleset_parts(est):
        conds = rules.conditions
        for rule in rules.rules:
            single = RuleSet([rule], kind=rules.kind, n_columns=rules.n_columns)
            if rules.kind == "dnf":
                masks.append(single.evaluate(Xb))
                lits, label = rule.literals, when_true
            else:  # a violated clause makes the CNF false
                masks.append(~single.evaluate(Xb))
                lits, label = rule.negate().literals, when_false
            texts.append(" AND ".join(lit.describe(conds) for lit in lits) or "TRUE")
            labels.append(label)
            sizes.append(len(rule))
    mask = np.array(masks, dtype=bool).reshape(len(masks), Xb.shape[0])
    return texts, labels, sizes, mask


def rules_text(est: Any) -> str:
    """Readable IF-THEN text of a fitted estimator's rules, naming the predicted classes.

    One-vs-rest rule sets are printed one per class; CDPR rules print as they are
    (each names its class) followed by the default class.
    """
    from satrules.rules import RuleSet

    rules = getattr(est, "rules_", None)
    if isinstance(rules, RuleSet):
        return rules.binary_text(*_binary_labels(est))
    if isinstance(rules, dict):
        # one-vs-rest: a class whose rules never fire says so rather than "IF FALSE"
        parts = [r.class_text(when_true) for r, when_true, _ in _ruleset_parts(est)]
        if hasattr(est, "_class_order"):
            # prediction: the first firing class in priority order, else the default class
            order, default = est._class_order()
            if all(r.never_true for r in rules.values()):
                parts.append(f"Always {est.classes_[default]}.")
            else:
                parts.append(f"ELSE {est.classes_[default]}  (when several fire: the first "
                             f"of {', '.join(str(est.classes_[i]) for i in order)})")
        return "\n\n".join(parts)
    default = getattr(est, "default_", None)
    rejected = getattr(est, "rejected_rules_", None)
    if rejected is not None:   # CDPR's null test turned the selection down
        verdict = getattr(est, "null_test_", None) or {}
        held_out = verdict.get("held_out") or {"passed": True}
        where = " or ".join(
            ([] if verdict.get("training_passed", False) else ["on the training data"])
            + ([] if held_out["passed"] else ["on the rows held out in a cross-validation"]))
        constant = default   # the null test's constant, unless first rules were kept
        if len(rules):
            constant = getattr(est, "default_class", None)
            constant = "the majority class" if constant is None else constant
        worse = f"not significantly better {where} than predicting {constant} for every row"
        if len(rules) == 0:
            first = verdict.get("prefix")
            return (f"Always {default}: the {len(rejected)} rules selected were {worse}" +
                    ("" if first is None else f", nor were the first {first['rules']}") +
                    "; null_test=False keeps them.")
        return (f"{rules}\nELSE {default}\n(the first {len(rules)} of the {len(rejected)} "
                f"rules selected, which passed the null test: all {len(rejected)} together "
                f"were {worse}; null_test=False keeps all {len(rejected)}.)")
    text = str(rules)
    return text + (f"\nELSE {default}" if default is not None else "")


def _candidate_masks(est: Any, X: Any) -> tuple[list[str], list[Any], list[int], np.ndarray]:
    """Per-rule masks of a decision-rule estimator (CDPR) through its own rule covers."""
    rules = est.rules_
    # the estimator's own cover method applies its input checks and column encoding
    # (CDPRClassifier.rule_covers); bare candidate rules read X as it is
    covers = est.rule_covers(X) if hasattr(est, "rule_covers") else rules.cover(X)
    mask = np.asarray(covers.todense() if hasattr(covers, "todense") else covers, dtype=bool)
    texts, labels, sizes = [], [], []
    for rule in rules:
        text = str(rule)
        body = text[3:] if text.startswith("IF ") else text
        texts.append(body.rsplit(" THEN ", 1)[0])
        labels.append(est.classes_[rule.label])
        sizes.append(rule.width)
    return texts, labels, sizes, mask


def rule_masks(estimator: Any, X: Any) -> tuple[list[str], list[Any], list[int], np.ndarray]:
    """Return (rule texts, predicted class per rule, sizes, firing mask ``n_rules x n_samples``).

    Parameters
    ----------
    estimator : fitted satrules estimator
        An IMLI/IMLIB classifier (``rules_`` is a :class:`~satrules.rules.RuleSet`
        over ``binarizer_`` columns) or a CDPR classifier (``rules_`` holds
        decision rules with a ``cover`` method).
    X : array-like or DataFrame
        Data in the estimator's input format.
    """
    from satrules.rules import RuleSet

    rules = getattr(estimator, "rules_", None)
    if isinstance(rules, RuleSet) or (
            isinstance(rules, dict) and all(isinstance(r, RuleSet) for r in rules.values())):
        return _ruleset_masks(estimator, X)
    if hasattr(getattr(estimator, "rules_", None), "cover"):
        return _candidate_masks(estimator, X)
    raise TypeError(f"cannot read the rules of a {type(estimator).__name__}")


def rule_stats(estimator: Any, X: Any, y: Any):
    """Return per-rule coverage and accuracy on ``(X, y)`` as a DataFrame.

    Returns
    -------
    pandas.DataFrame
        Columns ``rule`` (1-based), ``text``, ``predicts``, ``size``,
        ``n_covered``, ``coverage`` (``n_covered / n_samples``) and ``accuracy``
        (fraction of covered samples labelled ``predicts``; NaN when the rule
        covers nothing).

    Examples
    --------
    >>> import numpy as np
    >>> from satrules.rules import Literal, RuleSet
    >>> from satrules.binarize import ThresholdBinarizer
    >>> class Fitted:  # a stand-in for a fitted IMLI classifier
    ...     classes_ = np.array([0, 1])
    ...     binarizer_ = ThresholdBinarizer().fit(np.array([[0], [1]]))
    ...     rules_ = RuleSet([[Literal(0)]], "dnf", 1, binarizer_.conditions_)
    >>> X = np.array([[0], [1], [1], [1]]); y = np.array([0, 1, 1, 0])
    >>> rule_stats(Fitted(), X, y)[["text", "predicts", "n_covered", "accuracy"]].values.tolist()
    [['x0 = 1', 1, 3, 0.6666666666666666]]
    """
    import pandas as pd

    texts, labels, sizes, mask = rule_masks(estimator, X)
    y = np.asarray(y)
    n_samples = mask.shape[1] if mask.ndim == 2 else len(y)
    if len(y) != n_samples:
        raise ValueError(f"X has {n_samples} rows but y has {len(y)}")
    n_covered = mask.sum(axis=1) if len(texts) else np.zeros(0, dtype=int)
    # labels[r] == y also works for the "not c" label of a one-vs-rest CNF clause
    hits = np.array([(mask[r] & (labels[r] == y)).sum() for r in range(len(texts))],
                    dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        accuracy = np.where(n_covered > 0, hits / np.maximum(n_covered, 1), np.nan)
    return pd.DataFrame({
        "rule": np.arange(1, len(texts) + 1), "text": texts,
        "predicts": [lab if not isinstance(lab, _Not) else str(lab) for lab in labels],
        "size": sizes, "n_covered": n_covered.astype(int),
        "coverage": n_covered / max(n_samples, 1), "accuracy": accuracy,
    })


def summary_metrics(estimator: Any, X: Any, y: Any) -> dict[str, Any]:
    """Return accuracy, coverage and rule-set sizes of ``estimator`` on ``(X, y)``.

    ``coverage`` is the fraction of samples on which at least one rule fires
    (the rest get the default prediction): for IMLI/IMLIB a DNF term is true or
    a CNF clause is false; for CDPR a decision rule matches.  ``balanced_accuracy``
    is the mean over the classes of ``y`` of the fraction of their rows predicted
    right (what ``class_weight="balanced"`` aims at).
    """
    y = np.asarray(y)
    pred = estimator.predict(X)
    _, _, sizes, mask = rule_masks(estimator, X)
    fired = mask.any(axis=0) if mask.size else np.zeros(len(y), dtype=bool)
    return {
        "n_samples": int(len(y)),
        "accuracy": float(np.mean(pred == y)) if len(y) else float("nan"),
        "balanced_accuracy": balanced_accuracy(y, pred),
        "coverage": float(fired.mean()) if len(y) else float("nan"),
        "n_rules": len(sizes),
        "n_literals": int(sum(sizes)),
        "max_rule_size": int(max(sizes, default=0)),
    }


# --------------------------------------------------------------------------- plots


def figure_to_base64(fig: Any, dpi: int = 100) -> str:
    """Return the figure as a base64-encoded PNG (for ``<img src="data:image/png;base64,...">``)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _short(text: str, width: int = 48) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def plot_rule_bars(stats: Any, title: str = "Per-rule coverage and accuracy"):
    """Horizontal bars of each rule's coverage and accuracy (from :func:`rule_stats`).

    Examples
    --------
    >>> import pandas as pd
    >>> stats = pd.DataFrame({"rule": [1, 2], "text": ["a", "b"], "predicts": [1, 1],
    ...                       "coverage": [0.4, 0.1], "accuracy": [0.9, 0.7]})
    >>> fig = plot_rule_bars(stats)
    >>> len(fig.axes[0].patches)
    4
    """
    Figure = _require_matplotlib()
    n = len(stats)
    fig = Figure(figsize=(8, 1.2 + 0.45 * max(n, 1)))
    ax = fig.add_subplot()
    pos = np.arange(n)
    ax.barh(pos - 0.2, stats["coverage"], height=0.4, label="coverage", color="#4c78a8")
    ax.barh(pos + 0.2, np.nan_to_num(stats["accuracy"].astype(float)), height=0.4,
            label="accuracy", color="#f58518")
    ax.set_yticks(pos, [f"R{r}: {_short(str(t))} → {p}"
                        for r, t, p in zip(stats["rule"], stats["text"], stats["predicts"],
                                           strict=True)])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("fraction")
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def _group_means(table: Any, x: str, y: str):
    params = [c for c in table.columns if c.startswith("param_")]
    data = table.copy()
    for c in params:
        data[c] = data[c].astype(str)
    grouped = data.groupby(params, sort=False) if params else data.groupby(lambda _: "all")
    agg = grouped[[x, y]].agg(["mean", "std"]).reset_index()
    agg.columns = ["_".join(filter(None, map(str, c))) if isinstance(c, tuple) else c
                   for c in agg.columns]
    return agg, params


def plot_tradeoff(table: Any, x: str | None = None, y: str = "test_accuracy",
                  title: str = "Trade-off over the sweep"):
    """Mean (± std over splits) of ``y`` against ``x`` for every grid point of a sweep table.

    Parameters
    ----------
    table : pandas.DataFrame
        A :func:`satrules.sweep.run_sweep` table.
    x : str, optional
        Default ``"test_coverage"``, or ``"n_literals"`` when coverage was not
        measured.
    y : str
        Default ``"test_accuracy"``.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"param_beta": [1, 1, 2, 2], "test_coverage": [.5, .6, .8, .9],
    ...                   "test_accuracy": [.9, .95, .85, .8]})
    >>> fig = plot_tradeoff(t)
    >>> fig.axes[0].get_xlabel(), len(fig.axes[0].texts)
    ('test_coverage', 2)
    """
    Figure = _require_matplotlib()
    if x is None:
        has_cov = "test_coverage" in table and table["test_coverage"].notna().any()
        x = "test_coverage" if has_cov else "n_literals"
    table = table.copy()
    table[[x, y]] = table[[x, y]].astype(float)
    agg, params = _group_means(table, x, y)
    fig = Figure(figsize=(7, 5))
    ax = fig.add_subplot()
    ax.errorbar(agg[f"{x}_mean"], agg[f"{y}_mean"], xerr=agg[f"{x}_std"].fillna(0),
                yerr=agg[f"{y}_std"].fillna(0), fmt="o", color="#4c78a8", ecolor="#9ecae9",
                capsize=3)
    for _, row in agg.iterrows():
        label = ", ".join(f"{p[6:]}={row[p]}" for p in params)
        ax.annotate(label, (row[f"{x}_mean"], row[f"{y}_mean"]), fontsize=7,
                    textcoords="offset points", xytext=(4, 4))
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    return fig


_BACKEND_COLUMNS = ("backend", "engine", "solver", "method")
_TIME_COLUMNS = ("wall_time", "time", "seconds", "time_s", "solve_time", "fit_time", "runtime")


def _pick(columns: Sequence[str], wanted: Iterable[str], what: str) -> str:
    for name in wanted:
        if name in columns:
            return name
    raise ValueError(f"no {what} column among {list(columns)}; pass it explicitly")


def plot_backend_comparison(tables: Any, backend_col: str | None = None,
                            time_col: str | None = None, title: str = "Backend comparison"):
    """Cactus plot from benchmark CSVs: per backend, solve times sorted against instances solved.

    With a ``status`` column only proven runs (``OPTIMAL``/``UNSATISFIABLE``) count.

    Parameters
    ----------
    tables : DataFrame, path, or sequence of them
        Benchmark tables (``benchmarks/results/*.csv``), concatenated.
    backend_col, time_col : str, optional
        Column names; by default the first of ``backend/engine/solver/method``
        and of ``wall_time/time/seconds/...`` present.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"backend": ["rc2", "rc2", "cpsat"], "wall_time": [0.1, 0.3, 0.2]})
    >>> fig = plot_backend_comparison(t)
    >>> sorted(line.get_label() for line in fig.axes[0].lines)
    ['cpsat', 'rc2']
    """
    import pandas as pd

    Figure = _require_matplotlib()
    if isinstance(tables, (str, os.PathLike, pd.DataFrame)):
        tables = [tables]
    frames = [t if isinstance(t, pd.DataFrame) else pd.read_csv(t) for t in tables]
    data = pd.concat(frames, ignore_index=True)
    backend_col = backend_col or _pick(data.columns, _BACKEND_COLUMNS, "backend")
    time_col = time_col or _pick(data.columns, _TIME_COLUMNS, "time")
    solved = "instances"
    if "status" in data.columns:  # a run counts only when it proved its answer
        data = data[data["status"].astype(str).isin(["OPTIMAL", "UNSATISFIABLE"])]
        solved = "instances solved to optimality"
    fig = Figure(figsize=(7, 5))
    ax = fig.add_subplot()
    for name, group in data.groupby(backend_col, sort=True):
        times = np.sort(pd.to_numeric(group[time_col], errors="coerce").dropna().to_numpy())
        ax.plot(np.arange(1, len(times) + 1), times, marker="o", markersize=3, label=str(name))
    ax.set_xlabel(solved)
    ax.set_ylabel(f"{time_col} (s, sorted)")
    ax.set_yscale("log")
    ax.set_title(title)
    ax.grid(alpha=0.3, which="both")
    ax.legend()
    return fig


# --------------------------------------------------------------------------- HTML

_CSS = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1000px;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;
text-align:left;vertical-align:top}th{background:#f0f0f0}td.num{text-align:right}
pre{background:#f7f7f7;padding:1em;overflow-x:auto}img{max-width:100%}.note{color:#a33}"""


def _cell(value: Any) -> str:
    if isinstance(value, (float, np.floating)):
        return "" if np.isnan(value) else f"{value:.4g}"
    return html.escape(str(value))


def _table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for row in rows:
        cells = []
        for c in columns:
            v = row.get(c, "")
            cls = ' class="num"' if isinstance(v, (int, float, np.number)) else ""
            cells.append(f"<td{cls}>{_cell(v)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def render_html(*, title: str, rules_text: str, stats: Any, metrics: Mapping[str, Any],
                plots: Mapping[str, str], provenance: Mapping[str, Any] | None = None,
                notes: Sequence[str] = (), confusion: Any = None) -> str:
    """Return the self-contained report page (no scripts, no external resources).

    ``plots`` maps a caption to a base64 PNG (:func:`figure_to_base64`);
    ``confusion`` is an optional DataFrame (true classes x predicted classes).
    """
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
             f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>", "<h2>Metrics</h2>",
             _table([{"metric": k, "value": v} for k, v in metrics.items()], ["metric", "value"]),
             "<h2>Rules</h2>", f"<pre>{html.escape(rules_text)}</pre>",
             _table(stats.to_dict("records"), list(stats.columns))]
    for note in notes:
        parts.append(f"<p class='note'>{html.escape(note)}</p>")
    if plots:
        parts.append("<h2>Plots</h2>")
    for caption, b64 in plots.items():
        parts.append(f"<figure><img alt='{html.escape(caption, quote=True)}' "
                     f"src='data:image/png;base64,{b64}'><figcaption>{html.escape(caption)}"
                     f"</figcaption></figure>")
    if confusion is not None:
        parts.append("<h2>Confusion matrix</h2><p>rows: true class, columns: predicted</p>")
        labels = [str(c) for c in confusion.columns]
        rows = [{"true": str(idx), **{lab: int(v) for lab, v in zip(labels, row, strict=True)}}
                for idx, row in zip(confusion.index, confusion.to_numpy(), strict=True)]
        parts.append(_table(rows, ["true", *labels]))
    if provenance:
        flat = _flatten(provenance)
        parts.append("<h2>Provenance</h2>")
        parts.append(_table([{"field": k, "value": v} for k, v in flat.items()],
                            ["field", "value"]))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _flatten(d: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        if isinstance(v, Mapping):
            out.update(_flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def write_report(estimator: Any, X: Any, y: Any, path: str | os.PathLike, *,
                 sweep: Any = None, benchmarks: Any = None, title: str | None = None,
                 provenance: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Write the HTML report of a fitted estimator evaluated on ``(X, y)`` to ``path``.

    Parameters
    ----------
    estimator : fitted satrules estimator
    X, y : data to evaluate on
    path : str or path-like
        Output HTML file (written atomically).
    sweep : DataFrame, optional
        A sweep table; adds the trade-off plot.
    benchmarks : DataFrame, path or list, optional
        Benchmark CSVs; adds the backend comparison plot.
    title : str, optional
    provenance : dict, optional
        Defaults to the estimator's ``provenance_`` (set by
        :func:`satrules.serialization.load`).

    Returns
    -------
    dict
        The summary metrics shown on the page.
    """
    from satrules.serialization import atomic_write

    stats = rule_stats(estimator, X, y)
    metrics = summary_metrics(estimator, X, y)
    plots: dict[str, str] = {}
    notes: list[str] = []
    try:
        plots["Per-rule coverage and accuracy"] = figure_to_base64(plot_rule_bars(stats))
        if sweep is not None:
            plots["Coverage–accuracy trade-off over the sweep"] = figure_to_base64(
                plot_tradeoff(sweep))
        if benchmarks is not None:
            plots["Backend comparison"] = figure_to_base64(plot_backend_comparison(benchmarks))
    except ImportError as exc:
        plots.clear()
        notes.append(f"Plots omitted: {exc}")
    if provenance is None:
        provenance = getattr(estimator, "provenance_", None)
    import pandas as pd

    confusion = pd.crosstab(pd.Series(np.asarray(y), name="true"),
                            pd.Series(np.asarray(estimator.predict(X)), name="predicted"))
    page = render_html(title=title or f"satrules report: {type(estimator).__name__}",
                       rules_text=rules_text(estimator), stats=stats, metrics=metrics,
                       plots=plots, provenance=provenance, notes=notes, confusion=confusion)
    with atomic_write(path) as fh:
        fh.write(page)
    return metrics
