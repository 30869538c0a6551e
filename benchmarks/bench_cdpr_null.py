"""CDPRClassifier's null test on and off: the measurement behind ``null_test=True``.

Fits ``CDPRClassifier(method=m, random_state=seed)`` with ``null_test=False`` and with
the default ``null_test=True`` (the same mining and selection; the test only decides
whether the selected rules or the constant default class predict) on

* ``bench``: the fifteen data sets of :mod:`benchmarks.bench_learners`, as it loads them
  (missing values left in, row names and ID columns dropped);
* ``unseen``: the eight sets of :mod:`benchmarks.bench_unseen` (an ID column and missing
  values left in);
* ``more``: its eighteen ``--more`` sets,

stratified 80/20 splits with seeds 0-2 (the splits of those benchmarks), and reports per
method and group the mean test accuracy with the test off and on, their paired
difference ± its standard error over the splits, how many fits the test turned down, and
on how many sets (mean over the seeds) each is below the majority rate; then every set
where a fit was turned down.

Usage::

    python benchmarks/bench_cdpr_null.py                       # GRA (the default method)
    python benchmarks/bench_cdpr_null.py --methods exact --out cdpr_null_exact
    python benchmarks/bench_cdpr_null.py --groups unseen --seeds 0 --out /tmp/quick
    python benchmarks/bench_cdpr_null.py --methods gra-a0.7 --out cdpr_null_fixed

A method ``gra-a0.7`` fixes ``alpha`` at 0.7 (the default chooses it by cross-validation).
Each row also records whether the selection passed the test on the training rows alone
and the test accuracy that test alone would give.

Results: ``benchmarks/results/<out>.md`` and ``.csv`` (default ``cdpr_null``; one row per
method, set and seed).  Rows are saved after every split; ``--resume`` skips those done.
"""

from __future__ import annotations

import argparse
import csv
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_unseen  # noqa: E402
from bench_learners import DATASETS, _split  # noqa: E402

from benchmarks.datasets import load_raw  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
GROUPS = ("bench", "unseen", "more")
FIELDS = ("method", "group", "set", "seed", "majority", "acc_off", "acc_on", "fixed",
          "broken", "passed", "rules", "training_passed", "acc_training_only")


def data_sets(groups):
    """Yield ``(group, name, X, y)`` in a fixed order: each held-out group draws its missing
    values from a fresh generator, as ``bench_unseen`` does (same data, same splits)."""
    if "bench" in groups:
        for name in DATASETS:
            X, y = load_raw(name)
            yield "bench", name, X, np.asarray(y)
    held_out = {"unseen": [(p, n, t, ()) for p, n, t in bench_unseen.SETS],
                "more": list(bench_unseen.MORE_SETS)}
    for group, sets in held_out.items():
        if group not in groups:
            continue
        rng = np.random.default_rng(0)
        for package, name, target, drop in sets:
            X, y = bench_unseen.load(package, name, target, rng, drop)
            yield group, f"{package}/{name}", X, y


def run(method, group, name, X, y, seed) -> dict:
    from satrules import CDPRClassifier

    X_tr, X_te, y_tr, y_te = _split((X, y), seed)
    selection, _, alpha = method.partition("-a")   # gra-a0.7: alpha fixed at 0.7
    params = {"alpha": float(alpha)} if alpha else {}
    fits = {}
    for on in (False, True):
        est = CDPRClassifier(method=selection, null_test=on, random_state=seed, **params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits[on] = est.fit(X_tr, y_tr)
    record = fits[True].null_test_ or {"fixed": "", "broken": "", "passed": ""}
    acc_off, acc_on = fits[False].score(X_te, y_te), fits[True].score(X_te, y_te)
    # the training-row test alone keeps the selection (the off fit's) when it passes, and
    # predicts the constant (the on fit's, turned down) when it fails
    training = record.get("training_passed", record["passed"])
    return {"method": method, "group": group, "set": name, "seed": seed,
            "majority": float(pd.Series(y_te).value_counts(normalize=True).max()),
            "acc_off": acc_off, "acc_on": acc_on,
            "fixed": record["fixed"], "broken": record["broken"], "passed": record["passed"],
            "rules": len(fits[False].rules_), "training_passed": training,
            "acc_training_only": acc_off if training is True else acc_on}


def report(rows: list[dict], command: str) -> str:
    d = pd.DataFrame(rows)
    d["diff"] = d.acc_on - d.acc_off
    d["rejected"] = d.passed.astype(str) == "False"
    if "acc_training_only" not in d:   # rows written before the held-out test
        d["acc_training_only"] = d.acc_on
    d["acc_training_only"] = pd.to_numeric(d.acc_training_only).fillna(d.acc_on)
    lines = ["# CDPRClassifier: null test off and on", "",
             f"`{command}` (protocol in its docstring; test accuracy).", "",
             "`training rows only`: the classifier the training-row test alone would give "
             "(the selection when that test passes, else the constant); before 2026-12-04 "
             "it was `null_test=True` for a fixed `alpha` (`gra-a0.7`: α fixed at 0.7).", "",
             "| method | group | sets | splits | null_test=False | null_test=True | "
             "paired difference | fits turned down | sets below majority (off / on) | "
             "training rows only | on vs training rows only |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (method, group), g in d.groupby(["method", "group"], sort=False):
        per_set = g.groupby("set")[["acc_off", "acc_on", "majority"]].mean()
        below = [int((per_set[c] < per_set.majority - 1e-9).sum()) for c in ("acc_off", "acc_on")]
        se = g["diff"].std(ddof=1) / np.sqrt(len(g)) if len(g) > 1 else float("nan")
        vs = g.acc_on - g.acc_training_only
        se_vs = vs.std(ddof=1) / np.sqrt(len(g)) if len(g) > 1 else float("nan")
        lines.append(f"| {method} | {group} | {len(per_set)} | {len(g)} | "
                     f"{g.acc_off.mean():.4f} | {g.acc_on.mean():.4f} | "
                     f"{g['diff'].mean():+.4f} ± {se:.4f} | {int(g.rejected.sum())} | "
                     f"{below[0]} / {below[1]} | {g.acc_training_only.mean():.4f} | "
                     f"{vs.mean():+.4f} ± {se_vs:.4f} |")
    lines += ["", "## Sets where a fit was turned down", "",
              "Mean over the seeds; `down`: the seeds whose selection the test turned down "
              "(fixed / broken training rows against the constant).", "",
              "| method | set | majority | null_test=False | null_test=True | down |",
              "|---|---|---|---|---|---|"]
    for (method, name), g in d.groupby(["method", "set"], sort=False):
        down = g[g.rejected]
        if down.empty:
            continue
        seeds = ", ".join(f"{int(r.seed)} ({r.fixed}/{r.broken})" for r in down.itertuples())
        lines.append(f"| {method} | {name} | {g.majority.mean():.3f} | {g.acc_off.mean():.3f} "
                     f"| {g.acc_on.mean():.3f} | {seeds} |")
    return "\n".join(lines) + "\n"


def split_loop(argv, *, doc: str, script: str, methods: str, out: str, run_split, report_fn,
               fields, floats) -> int:
    """The command line both null-test benchmarks share: ``--methods``, ``--groups``,
    ``--seeds``, ``--out``, ``--resume``; ``run_split(method, group, name, X, y, seed)``
    makes one row (saved after every split), ``report_fn(rows, command)`` the page."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--methods", default=methods, help="comma-separated methods")
    parser.add_argument("--groups", default=",".join(GROUPS), help="comma-separated groups")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--out", default=out, help="results file stem")
    parser.add_argument("--resume", action="store_true", help="skip splits already in the CSV")
    args = parser.parse_args(argv)
    command = " ".join([f"python benchmarks/{script}",
                        *(argv if argv is not None else sys.argv[1:])])
    path = RESULTS / f"{args.out}.csv"
    rows = []
    if args.resume and path.exists():
        with open(path, newline="") as fh:
            rows = list(csv.DictReader(fh))
        for r in rows:
            for k in floats:
                r[k] = float(r[k])
    done = {(r["method"], r["set"], str(r["seed"])) for r in rows}
    groups = set(args.groups.split(","))
    for group, name, X, y in data_sets(groups):
        for method in args.methods.split(","):
            for seed in map(int, args.seeds.split(",")):
                if (method, name, str(seed)) in done:
                    continue
                rows.append(run_split(method, group, name, X, y, seed))
                print(rows[-1], flush=True)
                with open(path, "w", newline="") as fh:
                    writer = csv.DictWriter(fh, fieldnames=fields)
                    writer.writeheader()
                    writer.writerows(rows)
    text = report_fn(rows, command)
    (RESULTS / f"{args.out}.md").write_text(text)
    print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    return split_loop(argv, doc=__doc__, script="bench_cdpr_null.py", methods="gra",
                      out="cdpr_null", run_split=run, report_fn=report, fields=FIELDS,
                      floats=("majority", "acc_off", "acc_on", "acc_training_only"))


if __name__ == "__main__":
    raise SystemExit(main())
