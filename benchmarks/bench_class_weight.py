"""Class weights: IMLI and IMLIB with ``class_weight="balanced"`` on the binary learner
sets, against the same learners unweighted and a decision tree, logistic regression and
a random forest with and without scikit-learn's ``class_weight="balanced"``.

Protocol: the binary data sets of :mod:`benchmarks.bench_learners` (missing values left
in, ``rownames`` and ID columns dropped), stratified 80/20 splits with seeds 0, 1, 2,
defaults otherwise (the comparison methods with ``bench_learners``' preprocessing).  Per
split: test balanced accuracy (the mean of the two classes' recalls), the recall and
precision of the rarer class (rarer in the training rows), test accuracy, literals and
fit seconds.  A method named ``<m>-bal`` is ``<m>`` with ``class_weight="balanced"``.

Usage::

    python benchmarks/bench_class_weight.py              # -> results/class_weight.md, .csv
    python benchmarks/bench_class_weight.py --datasets caravan,pima --methods imli,imli-bal
    python benchmarks/bench_class_weight.py --methods cdpr-gra,cdpr-gra-bal,rf,rf-bal \
        --out benchmarks/results/class_weight_cdpr
    python benchmarks/bench_class_weight.py --methods cdpr-exact,cdpr-exact-bal \
        --out benchmarks/results/class_weight_cdpr_exact
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_learners import DATASETS, _split, _timed_fit, make, sizes  # noqa: E402
from benchmarks.datasets import MULTICLASS  # noqa: E402
from benchmarks.tables import markdown_table, run_split_benchmark  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
SEEDS = (0, 1, 2)
METHODS = ("imli", "imli-bal", "imlib", "imlib-bal", "tree", "tree-bal", "lr", "lr-bal",
           "rf", "rf-bal")
#: not in the default run; ``--methods`` may name them
EXTRA = ("cdpr-gra", "cdpr-gra-bal", "cdpr-exact", "cdpr-exact-bal")
BINARY = tuple(d for d in DATASETS if d not in MULTICLASS)


def make_weighted(method: str, seed: int):
    """``make(method)``, with ``class_weight="balanced"`` for a ``-bal`` name."""
    base, balanced = (method[:-4], True) if method.endswith("-bal") else (method, False)
    est = make(base, seed)
    if balanced:
        target = est.steps[-1][1] if hasattr(est, "steps") else est
        target.set_params(class_weight="balanced")
    return est


def run_one(dataset: str, method: str, seed: int, data) -> dict:
    from sklearn.metrics import balanced_accuracy_score, precision_score, recall_score

    X_train, X_test, y_train, y_test = _split(data, seed)
    est = make_weighted(method, seed)
    fit_time = _timed_fit(est, X_train, y_train)
    labels, counts = np.unique(y_train, return_counts=True)
    rare = labels[np.argmin(counts)]
    pred = est.predict(X_test)
    _, n_literals, _ = sizes(est, X_test)
    return {"dataset": dataset, "method": method, "seed": seed,
            "rare_share": round(float(counts.min() / counts.sum()), 4),
            "balanced_acc": round(balanced_accuracy_score(y_test, pred), 4),
            "rare_recall": round(recall_score(y_test, pred, pos_label=rare), 4),
            "rare_precision": round(precision_score(y_test, pred, pos_label=rare,
                                                    zero_division=0), 4),
            "test_acc": round(float(np.mean(pred == np.asarray(y_test))), 4),
            "literals": n_literals, "fit_time": round(fit_time, 2)}


def summarise(rows: list[dict], command: str) -> str:
    methods = [m for m in dict.fromkeys(METHODS + EXTRA) if any(r["method"] == m for r in rows)]
    sets = sorted({r["dataset"] for r in rows})
    full = [d for d in sets if all(any(r["dataset"] == d and r["method"] == m for r in rows)
                                   for m in methods)]
    share = {d: np.mean([r["rare_share"] for r in rows if r["dataset"] == d]) for d in full}

    def mean(method, key, dataset=None, where=None):
        vals = [r[key] for r in rows if r["method"] == method and r["dataset"] in full
                and (dataset is None or r["dataset"] == dataset)
                and (where is None or where(r["dataset"]))]
        vals = [v for v in vals if v != "" and v is not None]
        return float(np.mean(vals)) if vals else float("nan")

    def fmt(v, spec=".3f"):
        return "" if np.isnan(v) else format(v, spec)

    rare_sets = [d for d in full if share[d] < 0.25]
    summary = [[m, len(full), fmt(mean(m, "balanced_acc")),
                fmt(mean(m, "balanced_acc", where=lambda d: d in rare_sets)),
                fmt(mean(m, "rare_recall")), fmt(mean(m, "rare_precision")),
                fmt(mean(m, "test_acc")), fmt(mean(m, "literals"), ".1f"),
                fmt(mean(m, "fit_time"), ".2f")] for m in methods]
    per_set = [[d, f"{share[d]:.3f}", *(fmt(mean(m, "balanced_acc", d)) for m in methods)]
               for d in sorted(full, key=lambda d: share[d])]
    recall = [[d, f"{share[d]:.3f}", *(fmt(mean(m, "rare_recall", d)) for m in methods)]
              for d in sorted(full, key=lambda d: share[d])]
    return "\n".join([
        "# Class weights: balanced accuracy on the binary learner sets",
        "",
        f"Generated by `{command}` (protocol in its docstring: binary data sets, missing "
        "values left in, stratified 80/20 splits, seeds 0-2, defaults; `-bal`: "
        "`class_weight=\"balanced\"`).  `balanced acc`: the mean of the two classes' test "
        "recalls; `rare`: the class rarer in the training rows; `bal. acc, rare < 25 %`: "
        f"over the {len(rare_sets)} sets whose rarer class is under a quarter of the rows "
        f"({', '.join(rare_sets)}).",
        "",
        "## Summary (mean over data sets and seeds)",
        "",
        markdown_table(["method", "data sets", "balanced acc", "bal. acc, rare < 25 %",
                        "rare recall", "rare precision", "test acc", "literals",
                        "fit s"], summary),
        "",
        "## Test balanced accuracy per data set (rarest class first)",
        "",
        markdown_table(["dataset", "rare share", *methods], per_set),
        "",
        "## Test recall of the rarer class per data set",
        "",
        markdown_table(["dataset", "rare share", *methods], recall),
        "",
    ])


def main(argv=None) -> int:
    return run_split_benchmark(argv, doc=__doc__, script="bench_class_weight.py", datasets=BINARY,
                               methods=METHODS, seeds=SEEDS, out=RESULTS / "class_weight",
                               run_one=run_one, summarise=summarise)


if __name__ == "__main__":
    sys.exit(main())
