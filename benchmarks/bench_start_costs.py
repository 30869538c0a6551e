"""What starting a solver process costs: one tiny model solved again and again.

Each case solves a two-variable model (which every engine answers at once) ``--repeat``
times in this process and reports the median and the minimum wall time of one call, so
that what is left is the cost of the processes a call starts:

* ``wcnf-*``: the ``wcnf`` backend running ``true`` (which prints nothing, so the answer
  is ``UNKNOWN``: the cost of the process alone) and ``rc2.py -vv`` (PySAT's script, a
  real solver, itself a Python program); on Linux the
  solver is started through a launcher that sets the parent-death signal
  (``satrules.backends.wcnf_external._launch_argv``); ``--no-launcher`` starts it
  directly, as before 2026-12-05;
* ``hermax-*``: hermax engines under a time limit (30 s, never reached): EvalMaxSAT runs
  in satrules' child process, the incomplete engines too since 2026-12-05 (before, in
  hermax's worker process only); ``hermax-evalmaxsat-in-process`` is EvalMaxSAT without a
  limit, which runs in process.

Usage::

    python benchmarks/bench_start_costs.py                  # every case, 7 calls each
    python benchmarks/bench_start_costs.py --no-launcher --cases wcnf-true wcnf-rc2
    PYTHONPATH=/tmp/old python benchmarks/bench_start_costs.py --cases hermax-loandra

(the last form measures another checkout, e.g. ``git worktree add /tmp/old 704c3ac``).
Prints a markdown table; nothing is written.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time


def _model():
    from satrules.ir import Model

    m = Model()
    x, y = m.new_var("x"), m.new_var("y")
    m.add_hard([x, y])
    m.add_soft([-x], 2)
    m.add_soft([-y], 1)
    return m


def _cases() -> dict[str, dict]:
    cases = {"wcnf-true": dict(backend="wcnf", command=[shutil.which("true") or "true"]),
             "wcnf-rc2": dict(backend="wcnf", command=[shutil.which("rc2.py") or "rc2.py", "-vv"])}
    for engine in ("evalmaxsat", "loandra", "openwbo_inc", "tt_openwbo_inc"):
        cases[f"hermax-{engine}"] = dict(backend="hermax", engine=engine, time_limit=30)
    cases["hermax-evalmaxsat-in-process"] = dict(backend="hermax", engine="evalmaxsat")
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", help="cases to run (default: all)")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--no-launcher", action="store_true",
                        help="start external solvers directly (no parent-death launcher)")
    args = parser.parse_args(argv)
    import satrules
    from satrules.backends import registry

    if args.no_launcher:
        from satrules.backends import wcnf_external

        wcnf_external._launch_argv = lambda argv: argv
    model = _model()
    registry.solve(model, backend="rc2")   # imports warm
    cases = _cases()
    print(f"satrules from {satrules.__file__}; launcher "
          f"{'off' if args.no_launcher else 'on (Linux)'}; {args.repeat} calls per case\n")
    print("| case | answer | median s | min s |")
    print("|---|---|---|---|")
    for name in args.cases or list(cases):
        options = dict(cases[name])
        walls, status = [], None
        for _ in range(args.repeat):
            start = time.perf_counter()
            status = registry.solve(model, **options).status.value
            walls.append(time.perf_counter() - start)
        print(f"| {name} | {status} | {statistics.median(walls):.3f} | {min(walls):.3f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
