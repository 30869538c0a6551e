"""Engine benchmark: every backend x engine on the learners' real encodings plus random models.

Families (``--family``, default all):

* ``imli``   -- IMLI DNF encodings (k = 2, lambda = 10) of the first n training rows of
  pima / breast_cancer / credit, binarized with ``ThresholdBinarizer(n_thresholds=4)``
  (the partitions IMLI solves; several sizes n);
* ``imlib``  -- IMLIB encodings (k = 2, l = 2) of the first n rows of the same data;
* ``cdprl``  -- exact CDPRL on GBDT candidate rules (``satrules.mining.mine_rules``,
  100 trees of depth 4, kept if accuracy >= 0.9 and width <= 4) mined from pima / biopsy /
  titanic (/ credit), gamma = 8, tight beta = 0.1 and loose beta = 0.6; conflicts posted
  as an IR graph so that each backend chooses pairwise or clique rows itself;
* ``random`` -- ``benchmarks.generators``: random weighted partial MaxSAT and a
  coverage model (cardinality + conflict graph + soft units).

Configurations: rc2; cpsat with clique / pairwise graphs; highs with clique / pairwise graphs;
hermax with each complete engine and Loandra (anytime); and the two meta-backends, ``staged``
(RC2 for 10 % of the limit, then UWrMaxSat for half the rest, then CP-SAT warm-started: what
``auto`` picks for clause models under a time limit; ``staged/rc2+cpsat`` leaves out
UWrMaxSat) and ``portfolio`` (rc2, cpsat, highs and hermax/uwrmaxsat raced in
processes; on two cores they share the CPU).

Per run: status, wall time, cost, own lower bound, and the final gap against the best bound any
configuration proved on that instance (``gap = (cost - best_bound) / max(cost, 1)``).  Writes
``benchmarks/results/engines_<family>.csv`` and regenerates ``engines.md`` (all families found).

Usage::

    python benchmarks/bench_engines.py --quick               # 5 s limit, smaller instance set
    python benchmarks/bench_engines.py --family cdprl        # 60 s limit (the full run)
    python benchmarks/bench_engines.py --quick --family imli --limit 10
    python benchmarks/bench_engines.py --quick --family imli --limit 30 --tag _30s \\
        --configs rc2 hermax/uwrmaxsat hermax/cashwmaxsat cpsat/clique
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.datasets import load  # noqa: E402
from benchmarks.generators import coverage, random_wpms  # noqa: E402
from benchmarks.tables import markdown_table  # noqa: E402
from satrules.backends.registry import available_backends, solve  # noqa: E402
from satrules.exceptions import SatrulesError  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
FAMILIES = ("imli", "imlib", "cdprl", "random")

#: (label, backend, options)
CONFIGS = [
    ("rc2", "rc2", {}),
    ("cpsat/clique", "cpsat", {"graph_encoding": "clique"}),
    ("cpsat/pairwise", "cpsat", {"graph_encoding": "pairwise"}),
    ("highs/clique", "highs", {"graph": "clique"}),
    ("highs/pairwise", "highs", {"graph": "pairwise"}),
    ("hermax/uwrmaxsat", "hermax", {"engine": "uwrmaxsat"}),
    ("hermax/cashwmaxsat", "hermax", {"engine": "cashwmaxsat"}),
    ("hermax/evalmaxsat", "hermax", {"engine": "evalmaxsat"}),
    ("hermax/openwbo", "hermax", {"engine": "openwbo"}),
    ("hermax/openwbo_oll", "hermax", {"engine": "openwbo_oll"}),
    ("hermax/cgss", "hermax", {"engine": "cgss"}),
    ("hermax/wmaxcdcl", "hermax", {"engine": "wmaxcdcl"}),
    ("hermax/loandra", "hermax", {"engine": "loandra"}),
    # meta-backends: stages in one process (the default: RC2, UWrMaxSat, CP-SAT; and the first
    # version, RC2 then CP-SAT); all default members raced in processes
    ("staged", "staged", {}),
    ("staged/rc2+cpsat", "staged", {"stages": ["rc2", "cpsat"]}),
    ("portfolio", "portfolio", {}),
]
#: Run only when named in ``--configs``: the portfolio's processes take every core, which would
#: slow whatever else runs on the machine (run it alone).
OPT_IN = {"portfolio"}


def _binarized(name: str):
    from satrules.binarize import ThresholdBinarizer

    X, y = load(name)
    Xb = ThresholdBinarizer(n_thresholds=4).fit(X).transform(X).astype(bool)
    return Xb, np.asarray(y).astype(bool)


def imli_instances(quick: bool):
    from satrules.encoders.imli import encode_imli

    sizes = {"pima": [50, 150], "breast_cancer": [100]} if quick else {
        "pima": [50, 150, 300], "breast_cancer": [100, 200], "credit": [200, 400]}
    for name, ns in sizes.items():
        Xb, y = _binarized(name)
        for n in ns:
            enc = encode_imli(Xb[:n], y[:n], n_rules=2, rule_type="dnf", data_fidelity=10)
            yield f"imli/{name}/n={n}", enc.model


def imlib_instances(quick: bool):
    from satrules.encoders.imlib import encode_imlib

    sizes = {"pima": [30, 60]} if quick else {"pima": [30, 60, 100], "breast_cancer": [40, 80]}
    for name, ns in sizes.items():
        Xb, y = _binarized(name)
        for n in ns:
            enc = encode_imlib(Xb[:n], y[:n], n_rules=2, max_literals_per_rule=2)
            yield f"imlib/{name}/n={n}", enc.model


def cdprl_instances(quick: bool):
    from satrules.encoders.cdprl import encode_cdprl
    from satrules.mining import mine_rules

    names = ["pima", "biopsy", "titanic"] if quick else ["pima", "biopsy", "titanic", "credit"]
    for name in names:
        X, y = load(name)
        A = pd.get_dummies(X, dtype=float).to_numpy(dtype=float)
        cands = mine_rules(A, y, n_estimators=100, max_depth=4, random_state=0)
        pool = cands.filter(0.9, 4)  # B_{alpha, delta}: accuracy >= 0.9, width <= 4
        for beta in (0.1, 0.6):
            enc = encode_cdprl(cands.covers[pool], beta, 8, clique=False)
            yield f"cdprl/{name}/r={len(pool)}/beta={beta}", enc.model


def random_instances(quick: bool):
    yield "random/wpms/n=150", random_wpms(150, ratio=3.0, seed=0)
    yield "random/coverage/200x60", coverage(200, 60, 8, seed=0)
    if not quick:
        yield "random/wpms/n=300", random_wpms(300, ratio=3.5, seed=1)
        yield "random/coverage/600x150", coverage(600, 150, 10, seed=1)


GENERATORS = {"imli": imli_instances, "imlib": imlib_instances, "cdprl": cdprl_instances,
              "random": random_instances}


def run_one(model, backend: str, options: dict, limit: float) -> dict:
    t0 = time.perf_counter()
    try:
        sol = solve(model, backend=backend, time_limit=limit, seed=0, **options)
    except SatrulesError as exc:
        return {"status": "ERROR", "time": time.perf_counter() - t0, "cost": None,
                "lower_bound": None, "message": str(exc)[:120]}
    return {"status": sol.status.value, "time": time.perf_counter() - t0, "cost": sol.cost,
            "lower_bound": sol.lower_bound, "message": sol.message[:120]}


def run_family(family: str, quick: bool, limit: float, configs=None,
               out: Path | None = None) -> pd.DataFrame:
    """Run every configuration on every instance of ``family``.

    When ``out`` is given the rows written so far are saved there after every run, so a long
    run that is interrupted keeps what it measured.
    """
    have = set(available_backends())
    rows = []
    for label, model in GENERATORS[family](quick):
        stats = model.stats()
        for name, backend, options in CONFIGS:
            if backend not in have or (configs and name not in configs) or (
                    name in OPT_IN and not (configs and name in configs)):
                continue
            res = run_one(model, backend, options, limit)
            rows.append({"family": family, "instance": label, "config": name,
                         "n_vars": stats["n_vars"], "n_hard": stats["n_hard"],
                         "n_soft": stats["n_soft"], "n_edges": stats["n_graph_edges"],
                         "limit": limit, **res})
            print(f"{label:32s} {name:20s} {res['status']:9s} {res['time']:7.2f}s "
                  f"cost={res['cost']} lb={res['lower_bound']}", flush=True)
            if out is not None:  # atomic, so a concurrent write_markdown never reads half a file
                tmp = out.with_suffix(".part")
                add_gaps(pd.DataFrame(rows)).to_csv(tmp, index=False)
                tmp.replace(out)
    frame = pd.DataFrame(rows)
    return add_gaps(frame)


def add_gaps(frame: pd.DataFrame) -> pd.DataFrame:
    """Add ``best_bound`` (best proven bound on the instance) and the final ``gap``.

    The best bound is taken over every row of ``frame`` with the same instance label (the
    label fixes the model), whatever its time limit, so gaps in the merged table use every
    bound any run proved.
    """
    if frame.empty:
        return frame
    bound = frame["lower_bound"].astype(float)
    opt = frame["cost"].where(frame["status"] == "OPTIMAL").astype(float)
    best = pd.concat([bound, opt], axis=1).max(axis=1).groupby(frame["instance"]).transform("max")
    frame["best_bound"] = best
    cost = frame["cost"].astype(float)
    frame["gap"] = ((cost - best) / cost.clip(lower=1)).round(4)
    return frame


def summarise(frame: pd.DataFrame) -> pd.DataFrame:
    """Per family x config: runs, optimal count, median time to optimum, mean gap, unsolved."""
    rows = []
    for (family, limit, config), grp in frame.groupby(["family", "limit", "config"], sort=False):
        opt = grp[grp["status"] == "OPTIMAL"]
        rows.append({"family": family, "limit_s": limit, "config": config, "runs": len(grp),
                     "optimal": len(opt),
                     "median_time_opt": round(float(opt["time"].median()), 2) if len(opt) else None,
                     "total_time": round(float(grp["time"].sum()), 1),
                     "mean_gap": round(float(grp["gap"].fillna(1.0).mean()), 4),
                     "no_answer": int((~grp["status"].isin(["OPTIMAL", "FEASIBLE"])).sum())})
    return pd.DataFrame(rows)


def grid(frame: pd.DataFrame, limit: float = 60.0) -> str:
    """Markdown table configuration x family at ``limit``: proofs (median s), mean gap."""
    summary = summarise(frame[frame["limit"] == limit])
    if summary.empty:
        return ""
    cells: dict[str, dict[str, str]] = {}
    for r in summary.itertuples(index=False):
        med = "" if pd.isna(r.median_time_opt) else f" ({r.median_time_opt:g} s)"
        cells.setdefault(r.config, {})[r.family] = (
            f"{r.optimal}/{r.runs}{med}, gap {r.mean_gap:.2f}")
    return markdown_table(["configuration", *FAMILIES],
                          [[cfg, *(d.get(f, "–") for f in FAMILIES)] for cfg, d in cells.items()])


def to_markdown(frame: pd.DataFrame) -> str:
    """Render a frame as a GitHub markdown table (no ``tabulate`` dependency)."""
    def cell(v):
        return "" if v is None or (isinstance(v, float) and np.isnan(v)) else str(v)

    return markdown_table(list(frame.columns),
                          ([cell(v) for v in row] for row in frame.itertuples(index=False)))


def write_markdown() -> None:
    frames = [pd.read_csv(p) for p in sorted(RESULTS.glob("engines_*.csv"))]
    if not frames:
        return
    frame = add_gaps(pd.concat(frames, ignore_index=True))
    summary = summarise(frame)
    lines = ["# Engine benchmark (benchmarks/bench_engines.py)", "",
             "Two cores; one thread per engine.  The 60 s runs ran two benchmark processes at a "
             "time (the portfolio alone); the shorter ones shared the machine with other jobs "
             "(load average up to about 11), so their times are noisier.  Commands: see the "
             "script header and docs/backends.md.",
             "`gap` = (cost - best bound proven by any run on the instance) / cost; an "
             "unanswered run counts as gap 1 in `mean_gap`.", "",
             "## At the 60 s limit: proofs / instances (median s to a proof), mean gap", "",
             grid(frame), "",
             "## Summary per family and configuration", "",
             to_markdown(summary), "",
             "## All runs", "",
             to_markdown(frame[["instance", "limit", "config", "n_vars", "n_hard", "n_edges",
                                "status", "time", "cost", "lower_bound", "gap"]]
                         .round({"time": 2})), ""]
    (RESULTS / "engines.md").write_text("\n".join(lines))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", choices=FAMILIES, action="append")
    parser.add_argument("--quick", action="store_true", help="5 s limit, fewer instances")
    parser.add_argument("--limit", type=float, help="time limit per run (default 60, quick 5)")
    parser.add_argument("--configs", nargs="+", help="only these configurations (labels)")
    parser.add_argument("--tag", default="", help="suffix of the CSV name (engines_<family><tag>)")
    args = parser.parse_args(argv)
    limit = args.limit or (5.0 if args.quick else 60.0)
    RESULTS.mkdir(parents=True, exist_ok=True)
    warnings.filterwarnings("ignore")
    for family in args.family or FAMILIES:
        out = RESULTS / f"engines_{family}{args.tag}.csv"
        frame = run_family(family, args.quick, limit, args.configs, out=out)
        frame.to_csv(out, index=False)
        write_markdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
