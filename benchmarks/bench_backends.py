"""Backends head to head: time to optimum, cost and status on generated instances.

Instances (all seeded, see ``generators.py``): random weighted partial MaxSAT
at two sizes, coverage-style max-coverage models (cardinality + conflict
graph), and the learner encodings that exist in this build (IMLI, IMLIB,
CDPRL on a synthetic planted-rule dataset).  Every available engine backend is
run (bruteforce, wcnf and portfolio excluded) plus the CP-SAT variant with
pairwise graph clauses, which measures the ``graph_encoding`` default.  The
WCNF write rate (short clauses per second, one core) is measured at the end
when ``satrules.ir.wcnf`` exists.

Every OPTIMAL cost is asserted equal across backends.  Results go to
``benchmarks/results/backends{_quick}.csv`` and ``.md``.

Usage::

    python benchmarks/bench_backends.py            # about 3-5 min on one free core
    python benchmarks/bench_backends.py --quick    # about 1 min
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generators import coverage, random_wpms  # noqa: E402
from tables import dict_rows_table, markdown_table, write_csv  # noqa: E402

from satrules import available_backends, solve  # noqa: E402
from satrules.ir import Model  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def _planted(n_samples: int, n_features: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Binary data whose label is (x0 and not x1) or x2, with 5 % label noise."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n_samples, n_features)) < 0.5).astype(np.int8)
    y = ((X[:, 0] & (1 - X[:, 1])) | X[:, 2]).astype(bool)
    flip = rng.random(n_samples) < 0.05
    return X, np.where(flip, ~y, y)


def _learner_instances(quick: bool):
    """Learner encodings on planted data, when the encoders exist in this build."""
    X, y = _planted(60 if quick else 120, 8, seed=3)
    makers = []
    if importlib.util.find_spec("satrules.encoders.imli"):
        from satrules.encoders.imli import encode_imli
        makers.append(("imli k=2 dnf", lambda: encode_imli(X, y, n_rules=2, rule_type="dnf")))
    if importlib.util.find_spec("satrules.encoders.imlib"):
        from satrules.encoders.imlib import encode_imlib
        makers.append(("imlib k=2 l=2", lambda: encode_imlib(X, y, n_rules=2,
                                                              max_literals_per_rule=2)))
    if importlib.util.find_spec("satrules.encoders.cdprl"):
        from satrules.encoders.cdprl import encode_cdprl
        rng = np.random.default_rng(4)
        covers = rng.random((40, 150)) < 0.1
        makers.append(("cdprl 40 rules", lambda: encode_cdprl(covers, beta=0.2, gamma=5)))
    for label, make in makers:
        try:
            yield label, make().model
        except Exception as exc:  # an encoder API change must not stop the benchmark
            print(f"skipping {label}: {type(exc).__name__}: {exc}", file=sys.stderr)


def instances(quick: bool):
    yield "wpms n=60", random_wpms(60, ratio=2.0, seed=1)
    yield "wpms n=150 len2", random_wpms(150, ratio=2.0, soft_len=2, seed=2)
    yield "coverage 100x20 k=3", coverage(100, 20, 3, density=0.08, overlap=3, seed=1)
    if not quick:
        yield "wpms n=300", random_wpms(300, ratio=1.5, seed=3)
        yield "coverage 150x30 k=4", coverage(150, 30, 4, density=0.08, overlap=3, seed=1)
    yield from _learner_instances(quick)


def _variants():
    for name in available_backends(exclude={"bruteforce", "wcnf", "portfolio"}):
        yield name, name, {}
        if name == "cpsat":
            yield "cpsat[graph=pairwise]", "cpsat", {"graph_encoding": "pairwise"}


def _warm_up() -> None:
    """Solve a one-variable model with every backend so engine imports are not timed."""
    m = Model()
    m.add_soft([m.new_var("x")], 1)
    for _, backend, options in _variants():
        solve(m, backend=backend, **options)


def run(quick: bool, limit: float) -> list[dict]:
    _warm_up()
    rows = []
    for label, model in instances(quick):
        stats = model.stats()
        optimal = set()
        for shown, backend, options in _variants():
            start = time.perf_counter()
            try:
                sol = solve(model, backend=backend, time_limit=limit, seed=0, **options)
                status, cost, bound = sol.status.value, sol.cost, sol.lower_bound
            except Exception as exc:  # an engine refusing an instance is a result too
                status, cost, bound = f"error: {type(exc).__name__}", "", ""
            elapsed = time.perf_counter() - start
            if status == "OPTIMAL":
                optimal.add(cost)
            rows.append(dict(instance=label, n_vars=stats["n_vars"], n_hard=stats["n_hard"],
                             n_soft=stats["n_soft"], n_card=stats["n_cardinality"],
                             graph_edges=stats["n_graph_edges"], backend=shown,
                             status=status, cost=cost, lower_bound=bound,
                             time_s=round(elapsed, 3)))
            print(f"{label:22s} {shown:24s} {status:10s} cost={cost!s:8s} "
                  f"bound={bound!s:8s} {elapsed:7.2f}s", flush=True)
        assert len(optimal) <= 1, (label, optimal)  # every proven optimum agrees
    return rows


def write_rate(n_clauses: int = 2_000_000) -> dict | None:
    """Clauses per second of ``write_wcnf`` on 2-literal clauses (2022 format, one core)."""
    if importlib.util.find_spec("satrules.ir.wcnf") is None:
        return None
    from satrules.ir.wcnf import write_wcnf

    rng = np.random.default_rng(0)
    m = Model()
    m.new_vars("x", 10_000)
    m.add_clauses(rng.integers(1, 10_001, size=(n_clauses, 2)) * rng.choice([-1, 1],
                                                                          size=(n_clauses, 2)))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.wcnf")
        wall, cpu = time.perf_counter(), time.process_time()
        write_wcnf(m, path)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        size = os.path.getsize(path)
    return dict(clauses=n_clauses, wall_s=round(wall, 3), cpu_s=round(cpu, 3),
                clauses_per_s_wall=int(n_clauses / wall), clauses_per_s_cpu=int(n_clauses / cpu),
                megabytes=round(size / 1e6, 1))


def write(rows: list[dict], rate: dict | None, stem: str, command: str, limit: float) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    write_csv(RESULTS / f"{stem}.csv", rows)
    lines = [f"# Backends\n\nCommand: `{command}` (time limit {limit} s per solve; "
             "time_s is wall clock including lowering and model building; engines are warmed "
             "up first so imports are not timed)\n",
             dict_rows_table(rows)]
    if rate:
        lines += ["\n## WCNF write rate\n", markdown_table(list(rate), [list(rate.values())])]
    (RESULTS / f"{stem}.md").write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, smaller instances")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per solve")
    args = parser.parse_args(argv)
    rows = run(args.quick, args.time_limit)
    rate = write_rate()
    if rate:
        print(f"WCNF write rate: {rate}")
    command = "python benchmarks/bench_backends.py" + (" --quick" if args.quick else "")
    write(rows, rate, "backends_quick" if args.quick else "backends", command,
          args.time_limit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
