"""Memory and time each backend spends per variable *number* (issue #12 row 8).

A WCNF file ``h N 0`` uses one variable but numbers it ``N``; every engine allocates
for all of ``1..N``.  This script solves that two-clause model for a few ``N`` per
backend, each in a fresh child process capped at 6 GB of address space, and prints
the wall time and peak resident memory.  The per-variable figures set the
``max_vars`` limits of the backends (docs/reliability.md, round two, row 8).

Usage::

    nice -n 10 python benchmarks/bench_var_counts.py                  # N = 1e6 and 4e6
    nice -n 10 python benchmarks/bench_var_counts.py --n 1000000 --backends rc2
"""

from __future__ import annotations

import argparse
import subprocess
import sys

CHILD = r"""
import resource, sys, time
backend, n = sys.argv[1], int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_AS, (6 * 2**30, 6 * 2**30))
from satrules import solve
from satrules.backends.registry import get_backend
from satrules.ir import Model
cls = get_backend(backend)
cls.max_vars = None  # measure what the limit protects against
m = Model()
m.new_vars("x", n)
m.add_hard([n])
m.add_soft([-n], 1)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
try:
    sol = solve(m, backend=backend, time_limit=120)
    out = sol.status.value
except BaseException as exc:  # MemoryError and friends are the finding
    out = type(exc).__name__
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{time.perf_counter() - t:.2f} {peak / 1024:.0f} {(peak - base) * 1024 / n:.0f} {out}")
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1_000_000, 4_000_000])
    parser.add_argument("--backends", nargs="+", default=["rc2", "cpsat", "highs", "hermax"])
    args = parser.parse_args(argv)
    print("| backend | variables | seconds | peak RSS MB | bytes per variable | status |")
    print("|---|---|---|---|---|---|")
    for backend in args.backends:
        for n in args.n:
            proc = subprocess.run([sys.executable, "-c", CHILD, backend, str(n)],
                                  capture_output=True, text=True, timeout=600)
            fields = proc.stdout.split() or ["-", "-", "-", f"exit {proc.returncode}"]
            print(f"| {backend} | {n} | " + " | ".join(fields) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
