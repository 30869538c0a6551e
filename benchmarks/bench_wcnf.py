"""WCNF write and read rates of :func:`satrules.write_wcnf` / :func:`satrules.read_wcnf`.

Generates random clause models (hard 3-literal clauses, soft units and soft
2-literal clauses with weights in 1..1000, 20-literal clauses, weights beyond 64
bits), writes each to a file on disk in both dialects and reads it back, and
reports clauses per second (best of ``--repeat`` runs; one process, one core:
numpy's element-wise kernels are single-threaded).  The issue's target is at
least 2 million short clauses per second for writing.

Usage::

    python benchmarks/bench_wcnf.py            # 2 million clauses per instance (about 2 min)
    python benchmarks/bench_wcnf.py --quick    # 200 000 clauses per instance (seconds)

Writes ``benchmarks/results/wcnf_io.csv`` and ``benchmarks/results/wcnf_io.md``
(``wcnf_io_quick.*`` with ``--quick``).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from tables import dict_rows_table, write_csv  # the script's folder is on sys.path

from satrules import Model, read_wcnf, write_wcnf

RESULTS = Path(__file__).resolve().parent / "results"


def instance(kind: str, n_clauses: int, n_vars: int, seed: int = 0) -> Model:
    """Return a random clause model of ``n_clauses`` clauses of the given kind."""
    rng = np.random.default_rng(seed)
    m = Model()
    m.new_vars("x", n_vars)

    def lits(width: int, n: int) -> np.ndarray:
        return rng.integers(1, n_vars + 1, size=(n, width)) * rng.choice([-1, 1], size=(n, width))

    if kind == "hard3":
        m.add_clauses(lits(3, n_clauses))
    elif kind == "soft_units":
        m.add_soft_units(lits(1, n_clauses).ravel(), rng.integers(1, 1001, size=n_clauses))
    elif kind == "mixed":  # half hard 3-clauses, a quarter soft units, a quarter soft pairs
        half, quarter = n_clauses // 2, n_clauses // 4
        m.add_clauses(lits(3, half))
        m.add_soft_units(lits(1, quarter).ravel(), rng.integers(1, 1001, size=quarter))
        rest = n_clauses - half - quarter
        m.add_soft_clauses(lits(2, rest), rng.integers(1, 1001, size=rest))
    elif kind == "hard20":
        m.add_clauses(lits(20, n_clauses))
    elif kind == "soft_big_weights":
        weights = [2**70 + int(w) for w in rng.integers(1, 1001, size=n_clauses)]
        m.add_soft_units(lits(1, n_clauses).ravel(), weights)
    else:
        raise ValueError(kind)
    return m


def best_time(repeat: int, func, *args, **kwargs) -> tuple[float, float]:
    """Return the best wall-clock and the best CPU seconds over ``repeat`` calls."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        func(*args, **kwargs)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_wall, best_cpu


def run(n_clauses: int, repeat: int, quick: bool) -> list[dict]:
    kinds = [("hard3", n_clauses), ("soft_units", n_clauses), ("mixed", n_clauses),
             ("hard20", n_clauses // 5), ("soft_big_weights", n_clauses // 10)]
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-wcnf-") as tmp:
        for kind, n in kinds:
            model = instance(kind, n, n_vars=100_000)
            for format in ("2022", "legacy"):
                path = os.path.join(tmp, f"{kind}_{format}.wcnf")
                t_write = best_time(repeat, write_wcnf, model, path, format=format)
                size = os.path.getsize(path)
                t_read = best_time(repeat, read_wcnf, path)
                back = read_wcnf(path)
                assert len(back.hard) + len(back.soft) == n, "round trip lost clauses"
                rows.append({
                    "instance": kind, "format": format, "clauses": n,
                    "literals": int(len(model.hard.lits) + len(model.soft.lits)),
                    "mbytes": round(size / 1e6, 1),
                    "write_wall_s": round(t_write[0], 3),
                    "write_cpu_s": round(t_write[1], 3),
                    "write_clauses_per_cpu_s": int(n / t_write[1]),
                    "write_clauses_per_wall_s": int(n / t_write[0]),
                    "read_wall_s": round(t_read[0], 3),
                    "read_cpu_s": round(t_read[1], 3),
                    "read_clauses_per_cpu_s": int(n / t_read[1]),
                })
                print(rows[-1], flush=True)
    return rows


def save(rows: list[dict], quick: bool, argv: list[str]) -> None:
    RESULTS.mkdir(exist_ok=True)
    stem = "wcnf_io_quick" if quick else "wcnf_io"
    write_csv(RESULTS / f"{stem}.csv", rows)
    cols = list(rows[0])
    lines = [
        "# WCNF write/read rates",
        "",
        "Command: `" + " ".join(["python benchmarks/bench_wcnf.py", *argv]) + "`",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, "
        f"numpy {np.__version__}; one process, single-threaded; best of the repeats; "
        "files on local disk; write time includes lowering and the atomic rename, read "
        "time builds the full Model.  The machine's 2 cores were shared with other jobs "
        f"(load average {os.getloadavg()[0]:.1f} at the end), so wall-clock rates are "
        "depressed; the CPU-second rates (time.process_time of this process) are what one "
        "dedicated core gives.",
        "",
        dict_rows_table(rows, cols),
    ]
    short = [r["write_clauses_per_cpu_s"] for r in rows
             if r["instance"] in ("hard3", "soft_units", "mixed")]
    lines += ["", f"Short clauses (hard3, soft_units, mixed): write rate "
              f"{min(short):,} to {max(short):,} clauses per CPU second on one core "
              "(target: 2,000,000)."]
    (RESULTS / f"{stem}.md").write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 000 clauses per instance")
    parser.add_argument("--clauses", type=int, help="clauses per instance (overrides --quick)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (best kept)")
    args = parser.parse_args(argv)
    n = args.clauses or (200_000 if args.quick else 2_000_000)
    rows = run(n, args.repeat, args.quick)
    save(rows, args.quick, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
