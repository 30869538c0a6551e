"""Fit time against the reference implementations (issue #11, item 5).

Two comparisons, each on the five data sets of ``/work/shared/reference/DATASETS.md``
(seed-0 split of :func:`benchmarks.datasets.split`), both sides fitted on the **same**
0/1 matrix: satrules' :class:`~satrules.binarize.ThresholdBinarizer` (4 thresholds)
fitted on the training rows.

``imli``   satrules :class:`~satrules.IMLIClassifier` against pyrulelearn 1.1.1's
           ``fit(recursive=False)`` at equal passes and batches: pyrulelearn cuts the
           training rows into ``2**floor(log2(n / 16))`` batches and makes 2 passes;
           satrules gets ``n_partitions`` = that count, ``n_passes=2``,
           ``n_init=1`` (one fit, as pyrulelearn makes), ``max_partitions=None``,
           ``null_test=True`` (no held-out folds, which pyrulelearn does not fit
           either; the default since 2026-12-07 adds 3 single fits on two thirds of the
           rows, about 1.7 times the time), backend ``rc2``.  pyrulelearn runs its ``open-wbo``
           through the shell; here that is the Python wrapper of
           ``_pyrulelearn_shim.py`` (UWrMaxSat via hermax), whose CPU time is counted
           through ``RUSAGE_CHILDREN``.  ``prl_native_wall_s`` subtracts the wrapper's
           measured start-up per solver call (a native binary would pay less).
``imlib``  satrules :class:`~satrules.IMLIBClassifier` with ``objective="paper"``
           against the public IMLIB code (``models/imlib.py`` of
           github.com/cacajr/decision_set_models, imported from ``--dsm``, default
           ``/tmp/dsm``; the part is skipped with a message when it is absent) at equal
           parameters (satrules with ``n_init=1`` and ``null_test=True``, as for
           ``imli``): ``k`` (``max_rule_set_size``), ``l`` (``max_size_each_rule``),
           ``λ`` (``rules_accuracy_weight``, size weight 1), 16-row partitions
           (``number_lines_per_partition``) and one pass (the public code makes one;
           ``--imlib-passes`` changes satrules' side).  Both use RC2 (PySAT, Glucose 3);
           satrules' RC2 merges the unit softs of each exactly-one (same optima, see
           ``docs/benchmarks.md``).
           The public code receives the 0/1 matrix as a DataFrame: its binarizer keeps
           every two-valued column as one 0/1 column (complemented, which IMLIB's free
           polarity makes equivalent) and drops constant columns.

Every fit is repeated ``--repeats`` times (default 3); the table gives the median wall
time (``time.perf_counter``) and the median CPU time (``time.process_time`` plus the CPU
of child processes), and the ratios reference / satrules of both.  The machine this
was written on is shared, so run it under ``nice -n 10`` and read the CPU ratios as the
more stable figure.

Usage::

    nice -n 10 python benchmarks/bench_reference_speed.py
    nice -n 10 python benchmarks/bench_reference_speed.py --parts imlib --datasets pima
    # satrules side only, reference timings reused from an earlier CSV:
    nice -n 10 python benchmarks/bench_reference_speed.py --reference-csv old.csv --tag after

Results: ``benchmarks/results/reference_speed[_<tag>].csv`` and ``.md``.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import resource
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.datasets import load, split  # noqa: E402
from benchmarks.tables import markdown_table, write_csv  # noqa: E402
from satrules import IMLIBClassifier, IMLIClassifier  # noqa: E402
from satrules.binarize import ThresholdBinarizer  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
DATASETS = ("breast_cancer", "biopsy", "pima", "titanic", "credit")
REF_FIELDS = ("ref_wall_s", "ref_cpu_s", "ref_extra_s", "ref_objective", "ref_test_acc")


def _cpu() -> float:
    """CPU seconds of this process and its finished children (pyrulelearn's solver calls)."""
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + child.ru_utime + child.ru_stime


def timed(fit, repeats: int) -> tuple[float, float, object]:
    """Run ``fit()`` ``repeats`` times; return median wall s, median CPU s, last result."""
    walls, cpus, result = [], [], None
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), _cpu()
        result = fit()
        walls.append(time.perf_counter() - w0)
        cpus.append(_cpu() - c0)
    return statistics.median(walls), statistics.median(cpus), result


def binarized(name: str):
    """Seed-0 split of ``name`` binarized by a ThresholdBinarizer fitted on the training rows."""
    X, y = load(name)
    Xtr, Xte, ytr, yte = split(X, y, seed=0)
    binarizer = ThresholdBinarizer(n_thresholds=4).fit(Xtr)
    return (binarizer.transform(Xtr).astype(np.int64), binarizer.transform(Xte).astype(np.int64),
            np.asarray(ytr, dtype=np.int64), np.asarray(yte, dtype=np.int64))


def objective(pred: np.ndarray, y: np.ndarray, n_literals: int, lam: int) -> int:
    """``Σ|R| + λ·errors`` on the training rows."""
    return int(n_literals + lam * int((np.asarray(pred, dtype=bool) != y.astype(bool)).sum()))


# --------------------------------------------------------------------------- IMLI
def part_imli(name: str, k: int, lam: int, batch: int, repeats: int, run_ref: bool) -> dict:
    from _pyrulelearn_shim import PyRuleLearn, spawn_overhead

    Xtr, Xte, ytr, yte = binarized(name)
    n = len(ytr)
    batches = 2 ** math.floor(math.log2(n / batch)) if n >= batch else 1
    passes = 1 if batches == 1 else 2
    row = {"part": "imli", "dataset": name, "n_train": n, "n_columns": Xtr.shape[1], "k": k,
           "l": "", "lambda": lam, "partitions": batches, "passes": passes}

    def sat_fit():
        return IMLIClassifier(n_rules=k, data_fidelity=lam, n_partitions=batches,
                              n_passes=passes, n_init=1, max_partitions=None,
                              null_test=True, backend="rc2", random_state=0).fit(Xtr, ytr)

    wall, cpu, clf = timed(sat_fit, repeats)
    row.update(sat_wall_s=wall, sat_cpu_s=cpu,
               sat_solve_s=sum(s.wall_time or 0.0 for s in clf.solutions_),
               sat_objective=objective(clf.predict(Xtr), ytr, clf.rules_.n_literals, lam),
               sat_test_acc=float((clf.predict(Xte) == yte).mean()))
    if run_ref:
        holder = {}

        def ref_fit():
            holder["m"] = PyRuleLearn(n_rules=k, data_fidelity=lam, batchsize=batch).fit(Xtr, ytr)
            return holder["m"]

        wall, cpu, prl = timed(ref_fit, repeats)
        overhead = spawn_overhead(prl._dir, repeats=3)
        row.update(ref_wall_s=wall, ref_cpu_s=cpu,
                   ref_extra_s=max(wall - prl.n_solver_calls_ * overhead, 0.0),
                   ref_objective=prl.objective(Xtr, ytr),
                   ref_test_acc=float((prl.predict(Xte) == yte).mean()))
    return row


# --------------------------------------------------------------------------- IMLIB
def part_imlib(name: str, k: int, ell: int, lam: int, rows_per_part: int, passes: int,
               repeats: int, dsm: Path | None) -> dict:
    Xtr, Xte, ytr, yte = binarized(name)
    n = len(ytr)
    row = {"part": "imlib", "dataset": name, "n_train": n, "n_columns": Xtr.shape[1], "k": k,
           "l": ell, "lambda": lam, "partitions": math.ceil(n / rows_per_part),
           "passes": passes}

    def sat_fit():
        return IMLIBClassifier(n_rules=k, max_literals_per_rule=ell, data_fidelity=lam,
                               objective="paper", partition_size=rows_per_part, n_passes=passes,
                               n_init=1, max_partitions=None, null_test=True,
                               backend="rc2", random_state=0).fit(Xtr, ytr)

    wall, cpu, clf = timed(sat_fit, repeats)
    row.update(sat_wall_s=wall, sat_cpu_s=cpu,
               sat_solve_s=sum(s.wall_time or 0.0 for s in clf.solutions_),
               sat_objective=objective(clf.predict(Xtr), ytr, clf.rules_.n_literals, lam),
               sat_test_acc=float((clf.predict(Xte) == yte).mean()))
    if dsm is not None:
        if str(dsm) not in sys.path:
            sys.path.insert(0, str(dsm))
        from models.imlib import IMLIB

        cols = [f"c{j}" for j in range(Xtr.shape[1])]
        Xdf, ys = pd.DataFrame(Xtr, columns=cols), pd.Series(ytr)

        def ref_fit():
            model = IMLIB(max_rule_set_size=k, max_size_each_rule=ell, rules_size_weight=1,
                          rules_accuracy_weight=lam, number_lines_per_partition=rows_per_part,
                          balance_instances=True, balance_instances_seed=0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")   # pandas FutureWarnings in its binarizer
                model.fit(Xdf, ys)
            return model

        wall, cpu, ref = timed(ref_fit, repeats)
        pred = np.array([ref.predict(x) for x in pd.DataFrame(Xte, columns=cols).values])
        train_pred = np.array([ref.predict(x) for x in Xdf.values])
        row.update(ref_wall_s=wall, ref_cpu_s=cpu,
                   ref_extra_s=ref.get_total_time_solver_solutions(),
                   ref_objective=objective(train_pred, ytr, ref.get_sum_rules_size(), lam),
                   ref_test_acc=float((pred == yte).mean()))
    return row


# --------------------------------------------------------------------------- output
def add_ratios(row: dict) -> dict:
    if row.get("ref_wall_s") not in (None, ""):
        row["ratio_wall"] = float(row["ref_wall_s"]) / row["sat_wall_s"]
        row["ratio_cpu"] = float(row["ref_cpu_s"]) / row["sat_cpu_s"]
    return row


def write(rows: list[dict], tag: str, argv: list[str], start_load: str) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    stem = "reference_speed" + (f"_{tag}" if tag else "")
    write_csv(RESULTS / f"{stem}.csv", rows)
    lines = [
        "# Fit time against the reference implementations (issue #11, item 5)", "",
        f"Command: `nice -n 10 python benchmarks/bench_reference_speed.py {' '.join(argv)}`; "
        f"machine load average (1/5/15 min) at the start: {start_load}, when written: "
        f"{_load()} on {os.cpu_count()} shared cores.  Medians of the repeats; `ratio_*` = "
        "reference / satrules (above 1: satrules is faster).  `ref_extra_s`: for IMLI, "
        "pyrulelearn's wall time less its Python solver wrapper's start-up per call; for "
        "IMLIB, the public code's own RC2 `compute()` time (its "
        "`get_total_time_solver_solutions`).  `sat_solve_s`: the sum of satrules' "
        "per-partition solve times (lowering and RC2, last repeat).", ""]
    cols = ["part", "dataset", "n_train", "n_columns", "partitions", "passes", "sat_wall_s",
            "sat_cpu_s", "ref_wall_s", "ref_cpu_s", "ratio_wall", "ratio_cpu", "ref_extra_s",
            "sat_solve_s", "sat_objective", "ref_objective", "sat_test_acc", "ref_test_acc"]

    def fmt(v):
        return f"{v:.3f}" if isinstance(v, float) else ("" if v is None else v)

    lines.append(markdown_table(cols, ([fmt(r.get(c)) for c in cols] for r in rows)))
    (RESULTS / f"{stem}.md").write_text("\n".join(lines) + "\n")


def _load() -> str:
    return ", ".join(f"{v:.1f}" for v in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", default="imli,imlib")
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--k", type=int, default=2)
    parser.add_argument("--l", type=int, default=3, dest="ell")
    parser.add_argument("--lam", type=int, default=10)
    parser.add_argument("--batch", type=int, default=16, help="rows per batch / partition")
    parser.add_argument("--imlib-passes", type=int, default=1)
    parser.add_argument("--dsm", default="/tmp/dsm",
                        help="directory holding the public IMLIB code (models/imlib.py)")
    parser.add_argument("--reference-csv", default=None,
                        help="reuse the reference timings of this CSV (satrules side only)")
    parser.add_argument("--tag", default="", help="suffix of the result file names")
    args = parser.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    parts = args.parts.split(",")
    old = {}
    if args.reference_csv:
        with open(args.reference_csv, newline="") as fh:
            old = {(r["part"], r["dataset"]): r for r in csv.DictReader(fh)}
    dsm = Path(args.dsm)
    if "imlib" in parts and not args.reference_csv and not (dsm / "models" / "imlib.py").exists():
        print(f"[imlib] public IMLIB code not found under {dsm} (models/imlib.py): the "
              "reference side is skipped; see the module docstring", flush=True)
        dsm = None
    rows, start_load = [], _load()
    for name in args.datasets.split(","):
        for part in parts:
            if part == "imli":
                row = part_imli(name, args.k, args.lam, args.batch, args.repeats,
                                run_ref=not old)
            elif part == "imlib":
                row = part_imlib(name, args.k, args.ell, args.lam, args.batch,
                                 args.imlib_passes, args.repeats, None if old else dsm)
            else:
                raise SystemExit(f"unknown part {part!r}")
            if old and (part, name) in old:
                row.update({f: old[(part, name)].get(f, "") for f in REF_FIELDS})
            rows.append(add_ratios(row))
            print(f"[{part}] {name}: satrules {row['sat_wall_s']:.2f} s wall "
                  f"{row['sat_cpu_s']:.2f} s CPU; reference {row.get('ref_wall_s', '-')} wall "
                  f"{row.get('ref_cpu_s', '-')} CPU; ratios {row.get('ratio_wall', '-')} / "
                  f"{row.get('ratio_cpu', '-')}", flush=True)
            write(rows, args.tag, argv, start_load)


if __name__ == "__main__":
    main()
