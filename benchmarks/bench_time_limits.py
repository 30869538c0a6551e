"""Time limits counted end to end, and reading long WCNF lines (issue #12 rows 12-14).

Each case runs in a fresh child process under ``/usr/bin/time`` and reports the whole
call's wall time (the promise is an answer within ``limit + 2`` s of the solve call;
the process figure also holds Python start-up and reading the file) and the peak
resident memory.  Cases:

* ``highs-50k``: ``satrules solve`` on 50,000 weighted soft 2-clauses over 5,000
  variables, ``--backend highs --timeout 5`` (row 12);
* ``imli-highs``: ``IMLIClassifier(n_rules=3, backend="highs", time_limit=3)`` on
  one partition of 3,000 samples x 12 features (row 12);
* ``1m-<backend>``: ``satrules solve`` on 800,000 hard 3-clauses and 200,000 soft
  units, ``--timeout 15``, for rc2, cpsat, staged and auto (row 13);
* ``read-100mb-line``: ``read_wcnf`` of a 100 MB file holding one clause line with
  no terminating 0 (an error), and ``read-400mb-gz``: a gzip expanding to one valid
  400 MB clause line (row 14).

Usage::

    nice -n 10 python benchmarks/bench_time_limits.py                 # all cases
    nice -n 10 python benchmarks/bench_time_limits.py --cases read-100mb-line
    nice -n 10 python benchmarks/bench_time_limits.py --tree /path/to/old/checkout

``--tree`` runs the cases against another source tree (for before/after figures);
``--kill-after`` (default 150 s) stops a case that hangs and reports it as such.
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def _write_files(work: Path, tree: Path) -> None:
    """Write the instance files once (with this tree's writer; the format is stable)."""
    sys.path.insert(0, str(ROOT))
    from satrules.ir import Model, write_wcnf

    rng = np.random.default_rng(1)
    if not (work / "soft50k.wcnf").exists():
        m = Model()
        m.new_vars("x", 5000)
        lits = rng.integers(1, 5001, size=(50_000, 2)) * rng.choice([-1, 1], size=(50_000, 2))
        m.add_soft_clauses(lits, rng.integers(1, 10, size=50_000))
        write_wcnf(m, work / "soft50k.wcnf")
    if not (work / "clauses1m.wcnf").exists():
        m = Model()
        m.new_vars("x", 200_000)
        hard = rng.integers(1, 200_001, size=(800_000, 3)) * rng.choice([-1, 1], (800_000, 3))
        m.add_clauses(hard)
        units = rng.integers(1, 200_001, size=200_000) * rng.choice([-1, 1], 200_000)
        m.add_soft_units(units, rng.integers(1, 101, size=200_000))
        write_wcnf(m, work / "clauses1m.wcnf")
    if not (work / "line100mb.wcnf").exists():
        chunk = b"12345 -678 " * 100_000                      # 1.1 MB
        with open(work / "line100mb.wcnf", "wb") as fh:
            fh.write(b"h ")
            for _ in range(91):
                fh.write(chunk)
    if not (work / "line400mb.wcnf.gz").exists():
        chunk = b"12345 -678 " * 100_000
        with gzip.open(work / "line400mb.wcnf.gz", "wb", compresslevel=1) as fh:
            fh.write(b"h ")
            for _ in range(364):
                fh.write(chunk)
            fh.write(b"0\n")


_IMLI = """
import numpy as np, time
from satrules import IMLIClassifier
rng = np.random.default_rng(0)
X = rng.random((3000, 12)); y = ((X[:, 0] > .5) ^ (X[:, 1] > .7) | (X[:, 2] < .1)).astype(int)
t = time.perf_counter()
IMLIClassifier(n_rules=3, backend="highs", time_limit=3, random_state=0).fit(X, y)
print(f"fit {time.perf_counter() - t:.2f} s")
"""

_READ = """
import sys, time
from satrules.ir import read_wcnf
t = time.perf_counter()
try:
    m = read_wcnf(sys.argv[1]); out = f"model, {len(m.hard.lits)} literals"
except ValueError as exc:
    out = str(exc)[-60:]
print(f"read {time.perf_counter() - t:.2f} s: {out}")
"""


def _cases(work: Path) -> dict[str, list[str]]:
    cli = [sys.executable, "-m", "satrules.cli", "solve"]
    cases = {
        "highs-50k": cli + [str(work / "soft50k.wcnf"), "--backend", "highs", "--timeout", "5"],
        "imli-highs": [sys.executable, "-c", _IMLI],
        "read-100mb-line": [sys.executable, "-c", _READ, str(work / "line100mb.wcnf")],
        "read-400mb-gz": [sys.executable, "-c", _READ, str(work / "line400mb.wcnf.gz")],
    }
    for backend in ("rc2", "cpsat", "staged", "auto"):
        cases[f"1m-{backend}"] = cli + [str(work / "clauses1m.wcnf"), "--backend", backend,
                                        "--timeout", "15"]
    return cases


def _run(cmd: list[str], tree: Path, kill_after: float) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    timed = ["/usr/bin/time", "-f", "TIME %e s, peak %M kB"] + cmd
    try:
        proc = subprocess.run(timed, capture_output=True, text=True, env=env,
                              timeout=kill_after, cwd=tree)
    except subprocess.TimeoutExpired:
        return f"no answer after {kill_after:g} s (killed)"
    notes = [ln for ln in proc.stdout.splitlines()
             if ln.startswith(("c wall time", "s ", "fit ", "read "))]
    total = [ln for ln in proc.stderr.splitlines() if ln.startswith("TIME")]
    err = [ln for ln in proc.stderr.splitlines() if "error" in ln.lower()][-1:]
    return "; ".join(notes + err + [t.replace("TIME ", "process ") for t in total])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", help="names of the cases to run (default: all)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="source tree to measure")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "satrules-tl",
                        help="folder for the generated instance files (reused)")
    parser.add_argument("--kill-after", type=float, default=150.0)
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    _write_files(args.work, args.tree)
    cases = _cases(args.work)
    for name in args.cases or list(cases):
        print(f"| {name} | {_run(cases[name], args.tree.resolve(), args.kill_after)} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
