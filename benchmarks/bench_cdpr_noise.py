"""CDPRClassifier on labels independent of the features: how often do its rules survive?

The null test (``null_test=True``) should turn down rules that do not predict better than
the default class.  This benchmark draws ``--n`` tables of pure noise (300 rows, ``--rows``, 4-10
normal features, labels drawn independently of them with a majority share of 0.5 or
0.62, seed = the draw's number) and fits ``CDPRClassifier`` with its defaults (only
``random_state`` set) for every ``alpha`` of ``--alphas`` and miner of ``--miners``.
It counts the fits whose rules pass the sign test on the training rows
(``null_test_["training_passed"]``), the fits whose rules pass the test on the rows
held out in the cross-validation (``null_test_["held_out"]``; there is none when
``alpha`` is fixed), and the fits that keep rules (both tests passed, by the selection or
by its first rules, ``null_test_["prefix"]``; the latter are also counted apart): on noise
every kept rule set is a false positive.  ``--held-out-levels`` adds, for each level z given,
the fits that would keep the whole selection with the held-out test at z instead of
``significance`` (the training-row test unchanged): the held-out counts do not depend
on the level, so they are read from the same fits.  ``--prefixes off`` (or
``bonferroni``) does not try a turned-down selection's first rules (or tries each at
the level divided among them).  ``--cv-folds`` sets the folds of the
cross-validation on tables of any size (an experiment hook,
``CDPRClassifier._cv_folds``; by default 3, and 10 on 150 rows or fewer).

Usage::

    python benchmarks/bench_cdpr_noise.py                 # -> results/cdpr_noise.md
    python benchmarks/bench_cdpr_noise.py --alphas cv --n 100 --held-out-levels 1,0 \
        --out cdpr_noise_levels

Results: ``benchmarks/results/cdpr_noise.md`` (+ ``.csv``, one row per draw and setting).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.tables import markdown_table, write_csv  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def noise(seed: int, rows: int = 300) -> tuple[np.ndarray, np.ndarray]:
    """``rows`` rows of 4-10 normal features and labels independent of them."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, 4 + seed % 7))
    y = np.where(rng.random(rows) < (0.62 if seed % 2 else 0.5), "no", "yes")
    return X, y


def fit_one(seed: int, alpha, miner: str, cv_folds: int | None = None,
            prefixes: str = "on", rows: int = 300) -> dict:
    from satrules import CDPRClassifier

    X, y = noise(seed, rows)
    # --cv-folds: that many folds on tables of any size
    hooks = {} if cv_folds is None else {"_cv_folds": cv_folds, "_cv_small_rows": 0}
    if prefixes != "on":
        hooks.update(_held_out_prefixes=prefixes != "off",
                     _prefix_bonferroni=prefixes == "bonferroni")
    cls = type("CDPRVariant", (CDPRClassifier,), hooks) if hooks else CDPRClassifier
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = cls(alpha=alpha, miner=miner, random_state=seed).fit(X, y)
    test = est.null_test_
    held = test.get("held_out")
    return {"seed": seed, "alpha": alpha, "miner": miner, "alpha_used": est.alpha_,
            "training_passed": bool(test.get("training_passed", test["passed"])),
            "held_out_passed": "" if held is None else bool(held["passed"]),
            "held_out_fixed": "" if held is None else held["fixed"],
            "held_out_broken": "" if held is None else held["broken"],
            "kept": bool(len(est.rules_) > 0),
            "first_rules_kept": bool(len(est.rules_) > 0 and est.rejected_rules_ is not None)}


def kept_at(row: dict, z: float) -> bool:
    """Whether the fit of ``row`` keeps rules with the held-out test at level ``z``."""
    from satrules.estimators._polish import significant

    if row["held_out_fixed"] == "":
        return bool(row["kept"])
    fixed, broken = int(row["held_out_fixed"]), int(row["held_out_broken"])
    return bool(row["training_passed"]) and bool(fixed + broken) and bool(
        significant(fixed, broken, z, "exact"))


def report(rows: list[dict], argv: list[str], levels: tuple = ()) -> str:
    settings = list(dict.fromkeys((r["alpha"], r["miner"]) for r in rows))
    lines = []
    for alpha, miner in settings:
        chosen = [r for r in rows if (r["alpha"], r["miner"]) == (alpha, miner)]
        held = [r["held_out_passed"] for r in chosen if r["held_out_passed"] != ""]
        lines.append([alpha, miner, len(chosen),
                      sum(r["training_passed"] for r in chosen),
                      f"{sum(held)} of {len(held)}" if held else "no test",
                      sum(r["kept"] for r in chosen),
                      sum(r.get("first_rules_kept", False) for r in chosen),
                      *(sum(kept_at(r, z) for r in chosen) for z in levels)])
    return "\n".join([
        "# CDPR on noise: rules kept on labels independent of the features", "",
        "Generated by `" + " ".join(["python benchmarks/bench_cdpr_noise.py", *argv])
        + "` (protocol in its docstring).  Every kept rule set is a false positive.", "",
        markdown_table(["alpha", "miner", "fits", "pass on training rows",
                        "pass held out", "rules kept", "of which first rules only",
                        *(f"kept, held out at z = {z:g}" for z in levels)], lines), ""])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30, help="noise tables (seeds 0..n-1)")
    parser.add_argument("--alphas", default="cv,0.7",
                        help="comma-separated: numbers, or cv")
    parser.add_argument("--miners", default="hist,gbdt")
    parser.add_argument("--cv-folds", type=int, default=None,
                        help="folds of the cross-validation (default: the estimator's)")
    parser.add_argument("--prefixes", choices=("on", "off", "bonferroni"), default="on",
                        help="a turned-down selection's first rules: tried (the "
                             "default), not tried, or tried at a Bonferroni level")
    parser.add_argument("--held-out-levels", default="",
                        help="comma-separated z levels of the held-out test to count "
                             "the kept rules at as well")
    parser.add_argument("--rows", type=int, default=300, help="rows of each table")
    parser.add_argument("--out", default="cdpr_noise",
                        help="results/<out>.md and .csv (or a path without suffix)")
    args = parser.parse_args(argv)
    alphas = [a if a == "cv" else float(a) for a in args.alphas.split(",")]
    rows = [fit_one(seed, alpha, miner, args.cv_folds, args.prefixes, args.rows)
            for alpha in alphas for miner in args.miners.split(",") for seed in range(args.n)]
    out = RESULTS / args.out
    write_csv(out.with_suffix(".csv"), rows, list(rows[0]))
    levels = tuple(float(z) for z in args.held_out_levels.split(",") if z)
    out.with_suffix(".md").write_text(report(rows, argv, levels))
    print(out.with_suffix(".md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
