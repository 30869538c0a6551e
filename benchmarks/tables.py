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
