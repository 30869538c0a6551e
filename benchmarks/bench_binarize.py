"""Time ThresholdBinarizer ``fit`` and ``transform`` on long and wide frames.

Shapes from issue #11 item 2: 10,000 rows x 48 columns (long), 200 rows x 10,000
columns and 48 rows x 10,000 columns (wide).  Each frame mixes numeric columns
(float, a share ``--missing`` of them missing) and a string column every eighth
feature, as a pandas DataFrame (the case where column-name checks used to cost
``O(n_columns**2)``).  Reports the best of ``--repeat`` runs, in seconds, one
process.  A numeric feature with missing values gets twice the threshold columns
(``x <= t`` and ``x > t``), so ``--missing 0`` compares like with like across versions.

``--strings`` times a table of strings only, as a CSV export gives them (20,000 rows): 50
four-level categories (``--levels`` sets their levels), 10 name columns (one distinct
value per row, dropped as ID-like) and 10 amounts written ``$12,345.67`` (quantities
since 2026-12-03, ID-like before): the cost of telling dates, durations, numbers and
quantities from categories.

``--thresholds tree`` (the learners' default) or ``both`` fits on labels that depend on
two of the numeric columns, so every numeric column also gets the cuts of a one-feature
decision tree; ``--shapes`` replaces the default shapes (``ROWSxCOLUMNS,...``).

``--raw`` adds the time of ``RuleSet.binarize`` over the fitted conditions (how a bare
rule set, without its estimator, reads raw data: ``RuleSet.evaluate_raw``).

Usage::

    nice -n 10 python benchmarks/bench_binarize.py                 # 5 % missing, best of 3
    nice -n 10 python benchmarks/bench_binarize.py --missing 0
    nice -n 10 python benchmarks/bench_binarize.py --strings
    python benchmarks/bench_binarize.py --thresholds tree --shapes 20000x100,20000x1000
    python benchmarks/bench_binarize.py --strings --levels 40 --raw

Prints a markdown table; nothing is written to disk.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd

from satrules.binarize import ThresholdBinarizer
from satrules.rules import RuleSet

SHAPES = [(10_000, 48), (200, 10_000), (48, 10_000)]


def frame(n_rows: int, n_cols: int, missing: float = 0.05, seed: int = 0) -> pd.DataFrame:
    """Return a mixed frame: numeric columns with a share ``missing`` of NaN, every 8th column
    a 4-level string."""
    rng = np.random.default_rng(seed)
    data = {}
    for c in range(n_cols):
        if c % 8 == 7:
            data[f"c{c}"] = rng.choice(["a", "b", "c", "d"], size=n_rows)
        else:
            col = rng.normal(size=n_rows)
            col[rng.random(n_rows) < missing] = np.nan
            data[f"c{c}"] = col
    return pd.DataFrame(data)


def string_frame(n_rows: int = 20_000, seed: int = 0, levels: int = 4) -> pd.DataFrame:
    """Return a table of strings: 50 categories of ``levels`` levels, 10 names (ID-like),
    10 dollar amounts."""
    rng = np.random.default_rng(seed)
    names = ["alpha", "beta", "gamma", "delta"] if levels == 4 else \
        [f"level {i}" for i in range(levels)]
    data = {f"cat{c}": rng.choice(names, n_rows) for c in range(50)}
    for c in range(10):
        data[f"name{c}"] = [f"person {i}" for i in rng.permutation(n_rows)]
        data[f"amount{c}"] = [f"${v:,.2f}" for v in rng.uniform(0, 1e5, n_rows)]
    return pd.DataFrame(data)


def best_of(func, repeat: int) -> float:
    """Return the least wall time of ``repeat`` calls of ``func``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--missing", type=float, default=0.05,
                        help="share of missing values in the numeric columns")
    parser.add_argument("--strings", action="store_true",
                        help="time the table of strings (see the module docstring) instead")
    parser.add_argument("--levels", type=int, default=4,
                        help="levels of each category column of --strings (default 4)")
    parser.add_argument("--thresholds", choices=["quantile", "tree", "both"],
                        default="quantile", help="how numeric columns are cut (tree and "
                        "both fit on drawn labels)")
    parser.add_argument("--shapes", default=None,
                        help="ROWSxCOLUMNS,... instead of the default shapes")
    parser.add_argument("--raw", action="store_true",
                        help="also time RuleSet.binarize over the fitted conditions")
    args = parser.parse_args(argv)
    shapes = SHAPES if args.shapes is None else \
        [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
    raw_head = (" raw (s) |", "---:|") if args.raw else ("", "")
    print("| rows | columns | fit (s) | transform (s) |" + raw_head[0] + " output columns |")
    print("|---:|---:|---:|---:|" + raw_head[1] + "---:|")
    frames = [lambda: string_frame(levels=args.levels)] if args.strings else [
        lambda n_rows=n_rows, n_cols=n_cols: frame(n_rows, n_cols, args.missing)
        for n_rows, n_cols in shapes]
    for make in frames:
        X = make()
        n_rows, n_cols = X.shape
        tb = ThresholdBinarizer(missing="category", thresholds=args.thresholds)
        warnings.simplefilter("ignore")   # the ID-like columns' warning
        y = None
        if args.thresholds != "quantile":   # labels from two numeric columns and noise
            rng = np.random.default_rng(1)
            y = (X["c0"].fillna(0) + X["c1"].fillna(0) + rng.normal(size=n_rows)) > 0
        fit_s = best_of(lambda: tb.fit(X, y), args.repeat)  # noqa: B023 - called at once
        tr_s = best_of(lambda: tb.transform(X), args.repeat)  # noqa: B023
        raw = ""
        if args.raw:
            bare = RuleSet([], "dnf", len(tb.conditions_), tb.conditions_)
            raw = f" {best_of(lambda: bare.binarize(X), args.repeat):.3f} |"  # noqa: B023
        print(f"| {n_rows} | {n_cols} | {fit_s:.3f} | {tr_s:.3f} |{raw} "
              f"{len(tb.conditions_)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
