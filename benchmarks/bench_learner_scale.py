"""Do the learners' defaults finish?  Fit time of ``IMLIClassifier()`` and ``IMLIBClassifier()``.

``--learners`` also takes ``cdpr-gra`` and ``cdpr-exact`` (``CDPRClassifier`` with that
method, defaults otherwise), with optional suffixes: ``-a0.7`` (α fixed at 0.7 instead of
chosen by cross-validation) and ``-gbdt`` / ``-hist`` / ``-rf`` (that miner), e.g.
``cdpr-exact-hist`` or ``cdpr-gra-gbdt-a0.7``; and ``imli-held-out``, ``imlib-held-out``
(``null_test="held-out"``).

Issue #11 asks that any data set up to 20,000 rows x 100 columns fits within 60 s
on 2 cores with the defaults.  This script fits both learners, with nothing but
``random_state`` set, on synthetic data of growing size (numeric columns from
``make_classification`` plus, with ``--messy``, a categorical column and 5 %
missing values), and records wall time, CPU time of the process, the numbers of
partitions and solves, and the training accuracy.

Usage::

    python benchmarks/bench_learner_scale.py                  # 1k .. 20k rows x 100 columns
    python benchmarks/bench_learner_scale.py --rows 20000 --cols 100 --repeat 3
    python benchmarks/bench_learner_scale.py --rows 20000 --classes 3 --messy \
        --out benchmarks/results/learner_scale_3classes
    python benchmarks/bench_learner_scale.py --rows 20000 --classes 20 --messy \
        --target intervals --out benchmarks/results/learner_scale_20intervals
    python benchmarks/bench_learner_scale.py --rows 1000,5000,20000 --messy \
        --learners cdpr-gra-a0.7,cdpr-gra --out benchmarks/results/learner_scale_cdpr
    python benchmarks/bench_learner_scale.py --rows 20000 --classes 20 --target intervals \
        --categorical 100 --levels 60 --out benchmarks/results/learner_scale_grouped
    python benchmarks/bench_learner_scale.py --rows 20000 --messy \
        --learners imli,imli-held-out,imlib,imlib-held-out \
        --out benchmarks/results/learner_scale_held_out

``--categorical K --levels L``: the last K columns become categories of L levels (their
values' quantile bins, named ``c0`` .. ``c{L-1}`` in a shuffled order), so that every
one of them is grouped by the defaults (``categories="grouped"``, one ladder per class).

Results: ``benchmarks/results/learner_scale.md`` (+ ``.csv``).  Wall time depends on
the machine's load; CPU time is the process's own.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.tables import dict_rows_table, write_csv  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def make_data(n_rows: int, n_cols: int, messy: bool, seed: int = 0, n_classes: int = 2,
              target: str = "classification", n_categorical: int = 0, n_levels: int = 60):
    """Return a DataFrame ``X`` and labels ``y`` (numeric; optionally a category and NaNs).

    ``target="classification"``: ``make_classification``'s (clusters; with many classes
    no class is separable by a few axis-parallel rules, so the rule learners return a
    constant).  ``"intervals"``: standard normal columns and the class of the interval of
    column 1 among ``n_classes`` cut at ``linspace(-2, 2, n_classes - 1)`` (learnable by
    one two-literal rule per class; column 0 is the categorical one with ``--messy``).
    """
    import pandas as pd
    from sklearn.datasets import make_classification

    if target == "intervals":
        X = np.random.default_rng(seed).normal(size=(n_rows, n_cols))
        y = np.digitize(X[:, min(1, n_cols - 1)], np.linspace(-2, 2, n_classes - 1))
    else:
        X, y = make_classification(n_rows, n_cols, n_informative=min(10, n_cols),
                                   n_classes=n_classes, random_state=seed)
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(n_cols)])
    names = np.random.default_rng(seed + 1).permutation([f"c{i}" for i in range(n_levels)])
    for i in range(max(n_cols - n_categorical, 0), n_cols):   # quantile bins, named at random
        bins = np.quantile(X[:, i], np.linspace(0, 1, n_levels + 1)[1:-1])
        frame[f"f{i}"] = names[np.digitize(X[:, i], bins)]
    if messy:
        rng = np.random.default_rng(seed)
        frame["f0"] = np.where(X[:, 0] > 0, "high", np.where(X[:, 0] > -1, "mid", "low"))
        frame = frame.mask(rng.random(frame.shape) < 0.05)
    return frame, y


def fit_one(name: str, X, y, seed: int) -> dict:
    from satrules import CDPRClassifier, IMLIBClassifier, IMLIClassifier

    if name.startswith("cdpr-"):   # cdpr-gra, cdpr-exact; -a0.7: alpha fixed at 0.7;
        method, *rest = name[5:].split("-")   # -hist, -gbdt, -rf: the miner
        params = {}
        for tok in rest:
            if tok in ("gbdt", "hist", "rf"):
                params["miner"] = tok
            elif tok.startswith("a"):
                params["alpha"] = float(tok[1:])
            else:
                raise SystemExit(f"unknown suffix {tok!r} in learner {name!r}")
        est = CDPRClassifier(method=method, random_state=seed, **params)
    else:
        base, _, option = name.partition("-")   # imli-held-out: null_test="held-out"
        if option not in ("", "held-out"):
            raise SystemExit(f"unknown learner {name!r}")
        est = {"imli": IMLIClassifier, "imlib": IMLIBClassifier}[base](
            random_state=seed, **({"null_test": "held-out"} if option else {}))
    wall, cpu = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, y)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if name.startswith("cdpr-"):
        return {"learner": name, "rows": len(y), "cols": X.shape[1],
                "classes": len(est.classes_), "wall_s": round(wall, 2),
                "cpu_s": round(cpu, 2), "partitions": "", "solves": "",
                "train_acc": round(est.score(X, y), 4),
                "literals": int(est.rules_.width.sum()), "alpha": est.alpha_}
    per_class = isinstance(est.rules_, dict)   # one-vs-rest: one rule set per class
    rules = list(est.rules_.values()) if per_class else [est.rules_]
    solutions = list(est.solutions_.values()) if per_class else [est.solutions_]
    return {"learner": name, "rows": len(y), "cols": X.shape[1],
            "classes": len(est.classes_), "wall_s": round(wall, 2),
            "cpu_s": round(cpu, 2), "partitions": est.n_partitions_,
            "solves": sum(map(len, solutions)), "train_acc": round(est.score(X, y), 4),
            "literals": sum(r.n_literals for r in rules)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default="1000,5000,20000")
    parser.add_argument("--cols", default="100")
    parser.add_argument("--learners", default="imli,imlib")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--messy", action="store_true",
                        help="a categorical column and 5 %% missing values")
    parser.add_argument("--classes", type=int, default=2,
                        help="classes of the target (one-vs-rest above 2)")
    parser.add_argument("--target", choices=("classification", "intervals"),
                        default="classification", help="see make_data")
    parser.add_argument("--categorical", type=int, default=0,
                        help="the last K columns as categories of --levels levels")
    parser.add_argument("--levels", type=int, default=60)
    parser.add_argument("--out", default=str(RESULTS / "learner_scale"))
    args = parser.parse_args(argv)
    rows = []
    for n_rows in map(int, args.rows.split(",")):
        for n_cols in map(int, args.cols.split(",")):
            X, y = make_data(n_rows, n_cols, args.messy, n_classes=args.classes,
                             target=args.target, n_categorical=args.categorical,
                             n_levels=args.levels)
            for name in args.learners.split(","):
                runs = [fit_one(name, X, y, seed) for seed in range(args.repeat)]
                row = dict(runs[0])
                for key in ("wall_s", "cpu_s"):
                    row[key] = float(np.median([r[key] for r in runs]))
                row["messy"] = args.messy
                print(row, flush=True)
                rows.append(row)
    out = Path(args.out)
    write_csv(out.with_suffix(".csv"), rows)
    out.with_suffix(".md").write_text(
        "# Default learners: fit time by data size\n\n"
        f"`python benchmarks/bench_learner_scale.py {' '.join(argv or sys.argv[1:])}` "
        "(medians over --repeat seeds; wall time depends on the machine's load, CPU time is "
        "the process's own).\n\n" + dict_rows_table(rows) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
