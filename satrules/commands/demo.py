"""``satrules demo``: every learner on scikit-learn's breast cancer data, side by side.

The data ship with scikit-learn (nothing is downloaded).  One stratified
train/test split; each method is fitted on the training part and scored on
the test part; the table is followed by each method's rules.  IMLI and IMLIB
run with their defaults; CDPR mines a small forest and its exact method uses
CP-SAT, as it always has (``auto`` picks HiGHS, which may print another optimal
selection of the same coverage).  No solve has a time limit
unless ``--time-limit`` is given, so the table is the same on every machine;
the run takes a few seconds on two cores (printed under the table).
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

#: Per-method parameters of the demo: the learners' defaults, a small forest for CDPR.
DEMO_PARAMS: dict[str, dict[str, Any]] = {
    "imli": {},
    "imlib": {},
    "cdpr-gra": {"gamma": 8, "n_estimators": 20, "max_depth": 3},
    "cdpr-gdy": {"gamma": 8, "n_estimators": 20, "max_depth": 3},
    # CP-SAT, as since the first demo, so the printed table stays the same
    "cdpr-exact": {"gamma": 8, "n_estimators": 20, "max_depth": 3, "backend": "cpsat"},
}

# no fit time in the table: it is the same on every machine (the time is printed below it)
_COLUMNS = ["method", "test_accuracy", "test_coverage", "n_rules", "n_literals",
            "max_rule_size", "solver_status"]


def load_data():
    """Breast cancer data as a DataFrame and labels ``"benign"`` / ``"malignant"``."""
    from sklearn.datasets import load_breast_cancer

    data = load_breast_cancer(as_frame=True)
    y = np.asarray(data.target_names)[data.target.to_numpy()]
    return data.data, y


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo", help="compare every method on the bundled breast cancer data",
        description="Learn with IMLI, IMLIB and CDPR (GRA, GDY, exact) on scikit-learn's "
                    "breast cancer data (569 samples, 30 features; nothing is downloaded) "
                    "and print one table (test accuracy and coverage, sizes, fit time, "
                    "solver status) followed by each method's rules.")
    p.add_argument("--methods", nargs="+", choices=list(DEMO_PARAMS), default=list(DEMO_PARAMS),
                   help="methods to run (default: all)")
    p.add_argument("--backend", default=None, help="solver backend for the exact methods "
                                                   "(default: auto)")
    p.add_argument("--time-limit", type=float, default=None,
                   help="seconds per method's fit (default: none, so the table is the same on "
                        "every machine)")
    p.add_argument("--test-size", type=float, default=0.25, help="default 0.25")
    p.add_argument("--random-state", type=int, default=0, help="default 0")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar (drawn on stderr, "
                                                         "only on a terminal)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from satrules._progress import progress, quiet_progress
    from satrules.commands.learn import fit_and_score, format_table, make_estimator, split
    from satrules.report import rules_text

    X, y = load_data()
    X_train, X_test, y_train, y_test = split(X, y, args.test_size, args.random_state)
    print(f"breast cancer: {len(y_train)} training and {len(y_test)} test samples, "
          f"{X.shape[1]} features; positive class for IMLI/IMLIB: "
          f"{sorted(set(y))[-1]}\n")
    rows, fitted = [], {}
    for method in progress(args.methods, desc="demo", quiet=args.quiet):
        params = dict(DEMO_PARAMS[method])
        est = make_estimator(method)
        accepted = est.get_params()
        params.update(random_state=args.random_state)
        if args.time_limit is not None:
            params["time_limit"] = args.time_limit
        if args.backend:
            params["backend"] = args.backend
        est.set_params(**{k: v for k, v in params.items() if k in accepted})
        with quiet_progress(args.quiet):
            row = fit_and_score(est, X_train, y_train, X_test, y_test)
        rows.append({"method": method, **row})
        fitted[method] = est
    print(format_table(rows, _COLUMNS))
    print(f"\nfit time: {sum(r['fit_time'] for r in rows):.1f} s in total on this machine")
    print("\ncoverage: fraction of test samples on which at least one rule fires (the rest "
          "get the default class);\nsolver_status: status of the exact solves (one per IMLI/IMLIB "
          "partition, counted when they differ), or 'heuristic' for GRA/GDY.")
    for method, est in fitted.items():
        print(f"\n== {method} ==")
        print(rules_text(est))
    return 0
