"""IMLI and IMLIB on labels independent of the features: how often do they return rules?

On such labels every rule is a false discovery: it describes the training rows' noise
and predicts new rows no better than the majority class.  A reader of the rules (a
clinician, a credit officer) cannot tell them from real ones.  This benchmark draws
``--n`` tables for each size of ``--rows`` and number of features of ``--features``
(normal features, with every third table also a 4-level categorical one; labels drawn
independently of them, majority share 0.5 or 0.62; seed = the draw's number), fits each
method of ``--methods`` with its defaults (only ``random_state`` set), and counts the
fits that return at least one literal.  It also reports the mean training and test
accuracy (test: 2,000 fresh rows of the same distribution) and the mean fit time.

Methods: ``imli``, ``imlib`` (defaults since 2026-12-07: ``null_test="held-out"``, the
rules must beat the constant on the training rows and on rows held out in a 3-fold
cross-validation, 10-fold on 150 rows or fewer), ``imli-training-null`` and
``imlib-training-null`` (``null_test=True``: the test on the training rows only, the
default before), ``cdpr`` (``CDPRClassifier()``, whose default null test is on training
and held-out rows).  ``imli-held-out`` and ``imlib-held-out`` (``null_test="held-out"``)
are the defaults now, named so in results written before.  Experiments (``imli-`` or
``imlib-`` and a suffix of :data:`SUFFIXES`): ``held-out-s65`` (the held-out test as
session 65 made it: at z = 2, each fold with the learner's ``n_init``), ``held-out-z1``
and ``held-out-z0`` (so at z = 1 or 0), ``held-out-1init`` (at z = 2, each fold a single
fit), ``held-out-z1-1init`` (z = 1, single fits: ``null_test="held-out"`` from session
66 to 2026-12-07), ``held-out-5folds`` and ``held-out-10folds`` (that test with 5 or 10
folds instead of 3), ``held-out-3folds`` (the held-out test with 3 folds on small tables
too; the experiments above all take 3 folds there, as they were measured),
``per-column`` (the training-row test's level Bonferroni-corrected for the ``2 ×
columns`` candidate literals).

Usage::

    python benchmarks/bench_noise_rules.py                 # -> results/noise_rules.md
    python benchmarks/bench_noise_rules.py --n 5 --rows 100 --out /tmp/quick

Results: ``benchmarks/results/<out>.md`` and ``.csv`` (one row per table and method).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_learner_variants import VARIANTS  # noqa: E402
from benchmarks.tables import markdown_table, write_csv  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
METHODS = ("imli", "imlib", "imli-training-null", "imlib-training-null", "cdpr")
TEST_ROWS = 2_000


def noise(seed: int, rows: int, features: int) -> tuple[pd.DataFrame, np.ndarray]:
    """``rows`` training and ``TEST_ROWS`` test rows of ``features`` normal features (and
    a 4-level categorical one when ``seed % 3 == 0``), labels independent of them.

    >>> X, y = noise(0, 10, 2)
    >>> X.shape, sorted(set(y)) <= ["no", "yes"]
    ((2010, 3), True)
    """
    rng = np.random.default_rng(seed)
    n = rows + TEST_ROWS
    X = pd.DataFrame(rng.normal(size=(n, features)),
                     columns=[f"x{i}" for i in range(features)])
    if seed % 3 == 0:
        X["group"] = rng.choice(["a", "b", "c", "d"], size=n)
    y = np.where(rng.random(n) < (0.62 if seed % 2 else 0.5), "no", "yes")
    return X, y


#: method suffixes (after ``imli-`` or ``imlib-``): the parameters and the class
#: attributes (experiments, off by default) they set; ``held-out...`` are the
#: ``held-out-null...`` variants of :mod:`benchmarks.bench_learner_variants`, one table
SUFFIXES = {
    "": ({}, {}),
    **{"held-out" + name[len("held-out-null"):]:
       ({k: v for k, v in params.items() if not k.startswith("_")},
        {k: v for k, v in params.items() if k.startswith("_")})
       for name, params in VARIANTS.items() if name.startswith("held-out-null")},
    "training-null": (VARIANTS["training-null"], {}),
    "per-column": ({}, {"_null_per_column": True}),
}


def make(method: str, seed: int):
    """The estimator of ``method`` with its defaults (and a suffix's changes)."""
    from satrules import CDPRClassifier, IMLIBClassifier, IMLIClassifier

    if method == "cdpr":
        return CDPRClassifier(random_state=seed)
    name, _, suffix = method.partition("-")
    if name not in ("imli", "imlib") or suffix not in SUFFIXES:
        raise ValueError(f"unknown method {method!r}")
    cls = IMLIClassifier if name == "imli" else IMLIBClassifier
    params, attrs = SUFFIXES[suffix]
    if attrs:
        cls = type(f"{cls.__name__}Variant", (cls,), attrs)
    return cls(random_state=seed, **params)


def literals(est) -> int:
    """Literals of the fitted rules (0: a constant prediction)."""
    rules = est.rules_
    if isinstance(rules, dict):
        return sum(r.n_literals for r in rules.values())
    if hasattr(rules, "n_literals"):
        return int(rules.n_literals)
    return int(sum(len(rule.conditions) for rule in rules))   # CDPR's MinedRule list


def fit_one(method: str, seed: int, rows: int, features: int) -> dict:
    X, y = noise(seed, rows, features)
    est = make(method, seed)
    start = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X.iloc[:rows], y[:rows])
    seconds = time.process_time() - start
    return {"method": method, "rows": rows, "features": features, "seed": seed,
            "literals": literals(est),
            "train_acc": float(np.mean(est.predict(X.iloc[:rows]) == y[:rows])),
            "test_acc": float(np.mean(est.predict(X.iloc[rows:]) == y[rows:])),
            "test_majority": float(max(np.mean(y[rows:] == "no"), np.mean(y[rows:] == "yes"))),
            "cpu_s": round(seconds, 3)}


def report(rows: list[dict], argv: list[str]) -> str:
    df = pd.DataFrame(rows)
    lines = [
        "# IMLI and IMLIB on labels independent of the features",
        "",
        f"Generated by `python benchmarks/bench_noise_rules.py {' '.join(argv)}` (protocol "
        "in its docstring).  `with rules`: the fits that returned at least one literal "
        "(each a false discovery); accuracies are means, the test rows fresh draws of the "
        "same distribution; `CPU s`: mean process time per fit.",
        "",
    ]
    table = []
    for (n, p, method), g in df.groupby(["rows", "features", "method"], sort=False):
        table.append([n, p, method, f"{int((g.literals > 0).sum())}/{len(g)}",
                      f"{g.literals.mean():.2f}", f"{g.train_acc.mean():.3f}",
                      f"{g.test_acc.mean():.3f}", f"{g.test_majority.mean():.3f}",
                      f"{g.cpu_s.mean():.2f}"])
    lines.append(markdown_table(["rows", "features", "method", "with rules", "literals",
                                 "train acc", "test acc", "test majority", "CPU s"], table))
    lines += ["", "## All sizes together", ""]
    total = []
    for method, g in df.groupby("method", sort=False):
        total.append([method, f"{int((g.literals > 0).sum())}/{len(g)}",
                      f"{g.test_acc.mean():.4f}", f"{g.test_majority.mean():.4f}",
                      f"{g.cpu_s.mean():.2f}"])
    lines.append(markdown_table(["method", "with rules", "test acc", "test majority",
                                 "CPU s"], total))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20, help="tables per size (seeds 0..n-1)")
    parser.add_argument("--rows", default="100,300,1000", help="training rows, comma-separated")
    parser.add_argument("--features", default="2,10", help="numeric features, comma-separated")
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--out", default="noise_rules",
                        help="results/<out>.md and .csv (or a path)")
    args = parser.parse_args(argv)
    out = Path(args.out) if "/" in args.out else RESULTS / args.out
    rows = []
    for n in (int(v) for v in args.rows.split(",")):
        for p in (int(v) for v in args.features.split(",")):
            for method in args.methods.split(","):
                for seed in range(args.n):
                    rows.append(fit_one(method, seed, n, p))
                done = [r for r in rows if (r["rows"], r["features"], r["method"])
                        == (n, p, method)]
                print(f"{n} x {p} {method}: {sum(r['literals'] > 0 for r in done)}/"
                      f"{len(done)} with rules", flush=True)
    write_csv(out.with_suffix(".csv"), rows)
    out.with_suffix(".md").write_text(report(rows, argv))
    print(out.with_suffix(".md"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
