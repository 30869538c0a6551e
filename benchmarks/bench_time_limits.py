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

``--suite`` runs instead the calls whose wall times the test suite does not assert
(``tests/timing.py``: a test's result may not depend on the machine's load), each in
a fresh child process, and reports the call's own wall time against ``limit + 2`` s:

* ``limit-<backend>[-<engine>]-<t>``: ``solve(unprovable_model(), backend,
  time_limit=t)`` (``tests/backends/conftest.py``; no engine proves it in minutes) for
  every backend
  and the three hermax engines of ``tests/backends/test_hermax.py``; ``limit-
  bruteforce-0.2``: the unsatisfiable 20-variable model on the real clock; ``portfolio
  -2``: uwrmaxsat and evalmaxsat as a portfolio; ``highs-coverage-1``: the coverage
  model of ``tests/backends/test_highs.py``;
* ``wcnf-<fault>``: the external backend on fake solvers that sleep for a minute:
  one answers SIGTERM with its model, one ignores SIGTERM (killed after a 0.5 s
  grace), one prints nothing, one floods its output;
* ``imli-<engine>-2``: ``IMLIClassifier(n_rules=3, time_limit=2)`` on 400 x 8 (the
  whole fit); ``cdpr-2000x10``: ``CDPRClassifier(n_estimators=20)`` with defaults and
  no limit; ``metrics-2000x50k``: the four metrics on 2,000 sparse rules x 50,000
  samples.

Usage::

    nice -n 10 python benchmarks/bench_time_limits.py                 # all cases
    nice -n 10 python benchmarks/bench_time_limits.py --suite         # the tests' cases
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
import time
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


# -- the test suite's cases (--suite) ------------------------------------------------

def _limit_case(backend: str, limit: float, engine: str | None = None):
    def run():
        from satrules import solve
        from tests.backends.conftest import BACKEND_OPTIONS, unprovable_model

        options = dict(BACKEND_OPTIONS.get(backend, {}))
        if engine:
            options["engine"] = engine
        model = unprovable_model()
        start = time.perf_counter()
        sol = solve(model, backend=backend, time_limit=limit, **options)
        return limit, time.perf_counter() - start, sol.status.value
    return run


def _bruteforce_unsat():
    import numpy as np

    from satrules import solve
    from satrules.ir import Model

    rng = np.random.default_rng(5)
    m = Model()
    m.new_vars("x", 20)
    m.add_clauses(rng.integers(1, 21, size=(80, 3)) * rng.choice([-1, 1], size=(80, 3)))
    m.add_hard([1])
    m.add_hard([-1])
    start = time.perf_counter()
    sol = solve(m, backend="bruteforce", time_limit=0.2)
    return 0.2, time.perf_counter() - start, sol.status.value


def _portfolio():
    from satrules.backends.portfolio import PortfolioBackend
    from tests.backends.conftest import unprovable_model

    backend = PortfolioBackend(backends=[("hermax", {"engine": "uwrmaxsat"}),
                                         ("hermax", {"engine": "evalmaxsat"})])
    model = unprovable_model()
    start = time.perf_counter()
    sol = backend.solve(model, time_limit=2.0)
    return 2.0, time.perf_counter() - start, sol.status.value


def _highs_coverage():
    from satrules.backends import registry
    from tests.backends.test_highs import _hard_coverage_model

    model = _hard_coverage_model()
    start = time.perf_counter()
    sol = registry.solve(model, backend="highs", time_limit=1.0)
    return 1.0, time.perf_counter() - start, sol.status.value


_FAKES = {
    "sigterm-answers": ("def stop(*_):\n    print('o 3\\nv 011', flush=True); sys.exit(0)\n"
                        "signal.signal(signal.SIGTERM, stop)\ntime.sleep(60)", 1.0, 2.0),
    "sigterm-ignored": ("signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                        "print('o 3\\nv 011', flush=True)\ntime.sleep(60)", 0.5, 0.5),
    "no-model": ("time.sleep(60)", 0.5, 0.5),
    "flood": ("line = 'c spam ' * 20 + '\\n'\nwhile True:\n    sys.stdout.write(line * 100)",
              1.0, 0.5),
}


def _fake_solver(fault: str):
    def run():
        from satrules.backends.wcnf_external import ExternalWCNFBackend
        from tests.strategies import three_vars

        body, limit, grace = _FAKES[fault]
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "solver.py"
            path.write_text(f"#!{sys.executable}\nimport signal, sys, time\n{body}\n")
            path.chmod(0o755)
            backend = ExternalWCNFBackend([str(path)], grace=grace)
            start = time.perf_counter()
            sol = backend.solve(three_vars(), time_limit=limit)
            return limit + grace, time.perf_counter() - start, sol.status.value
    return run


def _imli(engine: str):
    def run():
        import numpy as np

        from satrules import IMLIClassifier

        rng = np.random.default_rng(0)
        X = rng.normal(size=(400, 8))
        y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=400) > 0).astype(int)
        start = time.perf_counter()
        clf = IMLIClassifier(n_rules=3, time_limit=2.0, backend=engine, random_state=0)
        clf.fit(X, y)
        return 2.0, time.perf_counter() - start, f"limit reached: {clf.time_limit_reached_}"
    return run


def _cdpr():
    from sklearn.datasets import make_classification

    from satrules import CDPRClassifier

    X, y = make_classification(2000, 10, random_state=1)
    start = time.perf_counter()
    clf = CDPRClassifier(n_estimators=20, random_state=0).fit(X, y)
    return None, time.perf_counter() - start, f"{len(clf.rules_)} rules"


def _metrics():
    import numpy as np
    import scipy.sparse as sp

    from satrules import metrics

    rng = np.random.default_rng(0)
    rows = rng.integers(0, 2000, 1_000_000)
    cols = rng.integers(0, 50_000, 1_000_000)
    covers = sp.csr_matrix((np.ones(rows.size, dtype=bool), (rows, cols)), shape=(2000, 50_000))
    labels, y = rng.integers(0, 2, 2000), rng.integers(0, 2, 50_000)
    start = time.perf_counter()
    metrics.coverage_rate(covers)
    metrics.rule_accuracy(covers, labels, y)
    metrics.max_overlap_rate(covers, list(range(12)))
    metrics.rule_set_accuracy(covers, labels, y, 0, list(range(12)), resolve="vote")
    return None, time.perf_counter() - start, "computed"


def _suite() -> dict:
    cases = {}
    for backend, limits in (("rc2", (0.3, 1.5)), ("cpsat", (0.3, 1.5)), ("highs", (1.0,)),
                            ("hermax", (1.0,)), ("staged", (3.0,)), ("wcnf", (1.0,)),
                            ("portfolio", (1.0,))):
        for limit in limits:
            cases[f"limit-{backend}-{limit:g}"] = _limit_case(backend, limit)
    for engine in ("uwrmaxsat", "evalmaxsat", "loandra"):
        cases[f"limit-hermax-{engine}-1"] = _limit_case("hermax", 1.0, engine)
    cases["limit-bruteforce-0.2"] = _bruteforce_unsat
    cases["portfolio-2"] = _portfolio
    cases["highs-coverage-1"] = _highs_coverage
    for fault in _FAKES:
        cases[f"wcnf-{fault}"] = _fake_solver(fault)
    for engine in ("rc2", "cpsat"):
        cases[f"imli-{engine}-2"] = _imli(engine)
    cases["cdpr-2000x10"] = _cdpr
    cases["metrics-2000x50k"] = _metrics
    return cases


def _run_suite_case(name: str, tree: Path, kill_after: float) -> str:
    """Run one suite case in a fresh child process; its row of the table."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", name]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                              timeout=kill_after, cwd=tree)
    except subprocess.TimeoutExpired:
        return f"| {name} | | no answer after {kill_after:g} s (killed) | | |"
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("| ")]
    return lines[-1] if lines else f"| {name} | | failed: {proc.stderr.strip()[-200:]} | | |"


def _one(name: str) -> None:
    """Run one suite case in this process and print its row."""
    sys.path.insert(0, os.getcwd())
    limit, wall, outcome = _suite()[name]()
    if limit is None:
        print(f"| {name} | - | {wall:.2f} s | - | {outcome} |")
    else:
        verdict = "yes" if wall <= limit + 2 else "**no**"
        print(f"| {name} | {limit:g} s | {wall:.2f} s | {verdict} | {outcome} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", help="names of the cases to run (default: all)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="source tree to measure")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "satrules-tl",
                        help="folder for the generated instance files (reused)")
    parser.add_argument("--kill-after", type=float, default=150.0)
    parser.add_argument("--suite", action="store_true",
                        help="run the test suite's time-limited calls instead (see above)")
    parser.add_argument("--one", help=argparse.SUPPRESS)   # one suite case, in this process
    args = parser.parse_args(argv)
    if args.one:
        _one(args.one)
        return 0
    if args.suite:
        names = args.cases or list(_suite())
        print("| case | limit (+ grace) | call | within limit + 2 s | answer |")
        print("|---|---|---|---|---|")
        for name in names:
            print(_run_suite_case(name, args.tree.resolve(), args.kill_after), flush=True)
        return 0
    args.work.mkdir(parents=True, exist_ok=True)
    _write_files(args.work, args.tree)
    cases = _cases(args.work)
    for name in args.cases or list(cases):
        print(f"| {name} | {_run(cases[name], args.tree.resolve(), args.kill_after)} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
