"""How much do the learners' rules depend on ``random_state``?

``IMLIClassifier()``, ``IMLIBClassifier()`` and ``CDPRClassifier()`` default to
``random_state=None``, the scikit-learn convention: every fit draws a new seed.  IMLI and
IMLIB shuffle the training rows into partitions with it, CDPR seeds its tree ensemble and
its cross-validation folds with it.  This benchmark fixes one stratified 80/20 split per
data set (``--split-seed``) and fits each learner with its defaults and ``random_state``
0, 1, ..., ``--states`` - 1 on it, so that only the learner's own seed varies.

Reported per learner: over the data sets, the mean standard deviation and the mean and
largest range (max - min) of test accuracy over the seeds, and how many distinct rule
sets (by their text) the seeds give on average; then per data set the mean test accuracy,
its range and the distinct rule sets.

Data sets: the fifteen of :mod:`benchmarks.bench_learner_variants` (the learner sets), or
``--datasets`` (names of :mod:`benchmarks.datasets` or ``package/item:target`` sets,
loaded as :mod:`benchmarks.bench_smoke` loads them).

Usage::

    python benchmarks/bench_seed_spread.py                      # -> results/seed_spread.md
    python benchmarks/bench_seed_spread.py --datasets heplots/Bees:caste,MASS/birthwt:low \\
        --out seed_spread_small

Results: ``benchmarks/results/<out>.md`` and ``.csv`` (one row per learner, data set and
seed).  Fits run in ``--jobs`` processes (default 2).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import warnings
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_learner_variants import DATASETS, load_smoke  # noqa: E402
from benchmarks.datasets import load  # noqa: E402
from benchmarks.tables import markdown_table, write_csv  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
METHODS = ("imli", "imlib", "cdpr")


def run(job: tuple) -> dict:
    """Fit one learner with one ``random_state`` on the fixed split; return its row."""
    from sklearn.model_selection import train_test_split

    from satrules import CDPRClassifier, IMLIBClassifier, IMLIClassifier
    from satrules.report import rules_text

    method, dataset, split_seed, state = job
    X, y = load_smoke(dataset) if "/" in dataset else load(dataset)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, stratify=y,
                                                        random_state=split_seed)
    cls = {"imli": IMLIClassifier, "imlib": IMLIBClassifier, "cdpr": CDPRClassifier}[method]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = cls(random_state=state).fit(X_train, y_train)
        test_acc, train_acc = est.score(X_test, y_test), est.score(X_train, y_train)
    text = rules_text(est)
    return {"method": method, "dataset": dataset, "split_seed": split_seed, "state": state,
            "test_acc": round(float(test_acc), 4), "train_acc": round(float(train_acc), 4),
            "rules_hash": hashlib.sha256(text.encode()).hexdigest()[:12]}


def spread(rows: list[dict]) -> dict:
    """The test accuracies' mean, standard deviation and range, and the distinct rule
    sets, of one learner's rows on one data set.

    >>> spread([{"test_acc": 0.5, "rules_hash": "a"}, {"test_acc": 0.7, "rules_hash": "b"},
    ...         {"test_acc": 0.6, "rules_hash": "a"}])
    {'mean': 0.6, 'sd': 0.1, 'range': 0.2, 'distinct': 2}
    """
    acc = np.array([r["test_acc"] for r in rows])
    return {"mean": round(float(acc.mean()), 4),
            "sd": round(float(acc.std(ddof=1)) if len(acc) > 1 else 0.0, 4),
            "range": round(float(acc.max() - acc.min()), 4),
            "distinct": len({r["rules_hash"] for r in rows})}


def report(rows: list[dict], argv: list[str], n_states: int) -> str:
    methods = list(dict.fromkeys(r["method"] for r in rows))
    datasets = sorted(dict.fromkeys(r["dataset"] for r in rows))
    cells = {(m, d): spread([r for r in rows if (r["method"], r["dataset"]) == (m, d)])
             for m in methods for d in datasets}
    summary = []
    for m in methods:
        per = [(d, cells[m, d]) for d in datasets]
        widest = max(per, key=lambda p: p[1]["range"])
        summary.append([m, f"{np.mean([c['mean'] for _, c in per]):.4f}",
                        f"{np.mean([c['sd'] for _, c in per]):.4f}",
                        f"{np.mean([c['range'] for _, c in per]):.4f}",
                        f"{widest[1]['range']:.3f} ({widest[0]})",
                        f"{np.mean([c['distinct'] for _, c in per]):.1f} of {n_states}"])
    detail = [[d, *(f"{cells[m, d]['mean']:.3f} ± {cells[m, d]['sd']:.3f} "
                    f"[{cells[m, d]['range']:.3f}] {cells[m, d]['distinct']}"
                    for m in methods)] for d in datasets]
    return "\n".join([
        "# Test accuracy over the learners' own seeds", "",
        "Generated by `" + " ".join(["python benchmarks/bench_seed_spread.py", *argv])
        + f"` (protocol in its docstring: one split per data set, `random_state` 0-"
          f"{n_states - 1}, defaults otherwise).", "",
        markdown_table(["learner", "mean test acc", "mean sd over seeds",
                        "mean range", "largest range", "distinct rule sets"], summary), "",
        "## Per data set", "",
        "Mean ± sd [range] of test accuracy over the seeds, then the distinct rule sets.", "",
        markdown_table(["data set", *methods], detail), ""])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--states", type=int, default=10,
                        help="random_state 0 .. STATES-1 (default 10)")
    parser.add_argument("--split-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="seed_spread",
                        help="results/<out>.md and .csv (or a path without suffix)")
    args = parser.parse_args(argv)
    methods = args.methods.split(",")
    unknown = sorted(set(methods) - set(METHODS))
    if unknown:
        parser.error(f"unknown method(s) {unknown}; choose from {list(METHODS)}")
    if args.states < 2:
        parser.error("--states must be at least 2")
    jobs = [(m, d, args.split_seed, s) for d in args.datasets.split(",") for m in methods
            for s in range(args.states)]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            rows = pool.map(run, jobs, chunksize=1)
    else:
        rows = [run(job) for job in jobs]
    out = RESULTS / args.out
    write_csv(out.with_suffix(".csv"), rows, list(rows[0]))
    out.with_suffix(".md").write_text(report(rows, argv, args.states))
    print(out.with_suffix(".md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
