"""Cardinality encodings: clauses, auxiliary variables and solve time per encoding.

Two tables:

* ``sizes``: clauses and auxiliary variables of
  :func:`satrules.ir.lowering.lower_cardinality` per encoding, for
  ``sum(x) <= k`` (k = 1, 2, 5, N/4) and ``sum(x) == 1`` over N = 5..1000;
* ``solve``: RC2 and CP-SAT wall time on the lowered clauses, per encoding, on
  "tight" models (``sum(x) op k`` with unit soft units ``(x_i, 1)``) and on
  small max-coverage models (cardinality + conflict graph + weighted softs,
  the CDPRL shape); CP-SAT on the native constraint is the reference row.

Every OPTIMAL cost is asserted equal across encodings.  Results go to
``benchmarks/results/cardinality{_quick}.md`` and one CSV per table; they set
the rule of :func:`satrules.ir.lowering.choose_card_encoding`.

Usage::

    python benchmarks/bench_cardinality.py            # about 4 min on one free core
    python benchmarks/bench_cardinality.py --quick    # about 1 min
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generators import coverage  # noqa: E402
from tables import dict_rows_table, write_csv  # noqa: E402

from satrules import solve  # noqa: E402
from satrules.ir import Model  # noqa: E402
from satrules.ir.lowering import (  # noqa: E402
    choose_card_encoding,
    lower_cardinality,
    lower_graph,
)

RESULTS = Path(__file__).resolve().parent / "results"
AMO_ONLY = ("pairwise", "bitwise", "ladder")
GENERAL = ("seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "mtotalizer", "kmtotalizer")


def _size_cases():
    for n in (5, 10, 50, 200, 1000):
        yield n, "==", 1
        yield n, "<=", 1
        for k in sorted({2, 5, n // 4}):
            if 1 < k < n:
                yield n, "<=", k


def _solve_cases(quick: bool):
    """(label, model): tight at-most-k with unit softs, and small max-coverage models."""
    sizes = (10, 30) if quick else (10, 30, 50)
    for n in sizes:
        for op, k in (("==", 1), ("<=", 1), ("<=", 2), ("<=", 5)):
            if k < n:
                yield f"tight n={n} {op} {k}", tight(n, op, k), k
    covers = ((100, 20, 3),) if quick else ((100, 20, 3), (120, 24, 3), (80, 30, 5))
    for n_el, n_sets, k in covers:
        model = lower_graph(coverage(n_el, n_sets, k, density=0.08, overlap=3, seed=1))
        yield f"coverage {n_el}x{n_sets} <= {k}", model, k


def tight(n: int, op: str, k: int) -> Model:
    """``sum(x) op k`` with unit soft units ``(x_i, 1)``: the bound is tight at the optimum."""
    m = Model()
    xs = m.new_vars("x", n)
    m.add_cardinality(xs, op, k)
    m.add_soft_units(xs, 1)
    return m


def _encodings(k: int):
    return (AMO_ONLY + GENERAL) if k == 1 else GENERAL


def run_sizes() -> list[dict]:
    rows = []
    for n, op, k in _size_cases():
        m = Model()
        xs = m.new_vars("x", n)
        m.add_cardinality(xs, op, k)
        for enc in _encodings(k):
            low = lower_cardinality(m, enc)
            rows.append(dict(n=n, op=op, k=k, encoding=enc, clauses=len(low.hard),
                             aux_vars=low.n_vars - n, auto=choose_card_encoding(n, k)))
    return rows


def _timed(model, backend, limit):
    start = time.perf_counter()
    sol = solve(model, backend=backend, time_limit=limit)
    return sol, time.perf_counter() - start


def run_solves(quick: bool, limit: float) -> list[dict]:
    rows = []
    for label, model, k in _solve_cases(quick):
        ref, ref_time = _timed(model, "cpsat", limit)
        rows.append(dict(instance=label, encoding="native (CP-SAT only)", clauses="",
                         aux_vars="", rc2_s="", rc2_status="", cpsat_s=round(ref_time, 3),
                         cpsat_status=ref.status.value, cost=ref.cost))
        for enc in _encodings(k):
            low = lower_cardinality(model, enc)
            rc2, rc2_time = _timed(low, "rc2", limit)
            cps, cps_time = _timed(low, "cpsat", limit)
            costs = {s.cost for s in (rc2, cps, ref) if s.status.value == "OPTIMAL"}
            assert len(costs) <= 1, (label, enc, costs)  # encodings keep the optimum
            rows.append(dict(instance=label, encoding=enc, clauses=len(low.hard),
                             aux_vars=low.n_vars - model.n_vars, rc2_s=round(rc2_time, 3),
                             rc2_status=rc2.status.value, cpsat_s=round(cps_time, 3),
                             cpsat_status=cps.status.value, cost=min(costs) if costs else ""))
            print(f"{label:28s} {enc:12s} clauses={len(low.hard):6d} rc2={rc2_time:6.2f}s "
                  f"{rc2.status.value:9s} cpsat={cps_time:6.2f}s {cps.status.value}", flush=True)
    return rows


def write(tables: dict[str, list[dict]], stem: str, command: str) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    lines = [f"# Cardinality encodings\n\nCommand: `{command}` (per-solve limit in seconds "
             "as given; OPTIMAL costs of all encodings are asserted equal)\n"]
    for name, rows in tables.items():
        write_csv(RESULTS / f"{stem}_{name}.csv", rows)
        lines += [f"\n## {name}\n", dict_rows_table(rows)]
    (RESULTS / f"{stem}.md").write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer solve instances")
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds per solve")
    args = parser.parse_args(argv)
    tables = {"sizes": run_sizes(), "solve": run_solves(args.quick, args.time_limit)}
    command = "python benchmarks/bench_cardinality.py" + (" --quick" if args.quick else "")
    write(tables, "cardinality_quick" if args.quick else "cardinality", command)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
