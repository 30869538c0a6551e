"""Result-file helpers shared by the benchmark scripts: GitHub markdown tables and CSV files."""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any


def markdown_table(columns: Sequence[Any], rows: Iterable[Sequence[Any]]) -> str:
    """Return a GitHub markdown table (no ``tabulate`` dependency); cells are ``str()``-ed.

    >>> print(markdown_table(["a", "b"], [[1, 2]]))
    | a | b |
    |---|---|
    | 1 | 2 |
    """
    lines = ["| " + " | ".join(map(str, columns)) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
    return "\n".join(lines)


def dict_rows_table(rows: Sequence[dict], columns: Sequence[str] | None = None) -> str:
    """:func:`markdown_table` of dict rows, columns from the first row unless given."""
    cols = list(rows[0]) if columns is None else list(columns)
    return markdown_table(cols, [[r.get(c, "") for c in cols] for r in rows])


def write_csv(path: Path, rows: Sequence[dict], fieldnames: Sequence[str] | None = None) -> None:
    """Write dict rows to ``path`` (header from the first row unless given; missing = empty).

    The rows go to a temporary file first, which then replaces ``path``: an
    interrupted run never leaves a half-written CSV.
    """
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(fieldnames or rows[0]), restval="")
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)


def run_split_benchmark(argv, *, doc: str, script: str, datasets: Sequence[str],
                        methods: Sequence[str], seeds: Sequence[int], out: Path,
                        run_one, summarise) -> int:
    """The command line of a per-split benchmark: ``--datasets``, ``--methods``, ``--out``;
    ``run_one(dataset, method, seed, data)`` per split (``data`` from
    ``benchmarks.datasets.load_raw``), printed as it comes, then ``out``.csv and the
    ``summarise(rows, command)`` report as ``out``.md."""
    import argparse
    import sys

    from benchmarks.datasets import load_raw

    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--datasets", default=",".join(datasets))
    ap.add_argument("--methods", default=",".join(methods))
    ap.add_argument("--out", default=str(out),
                    help="output path without suffix (.csv and .md are written)")
    args = ap.parse_args(argv)
    rows = []
    for dataset in args.datasets.split(","):
        data = load_raw(dataset)
        for method in args.methods.split(","):
            for seed in seeds:
                row = run_one(dataset, method, seed, data)
                print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
                rows.append(row)
    path = Path(args.out)
    write_csv(path.with_suffix(".csv"), rows)
    given = sys.argv[1:] if argv is None else list(argv)
    command = f"python benchmarks/{script}" + ("" if not given else " " + " ".join(given))
    path.with_suffix(".md").write_text(summarise(rows, command))
    print(f"wrote {path.with_suffix('.md')}")
    return 0
