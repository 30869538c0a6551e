"""``satrules report``: one self-contained HTML page for a saved rule set on a data set."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    from satrules.commands.learn import add_na_argument, add_unlabelled_argument

    p = sub.add_parser(
        "report", help="write an offline HTML report of a rule set on a data set",
        description="Evaluate rules.json on DATA.csv and write ONE self-contained HTML page: "
                    "the rules as a table with per-rule coverage and accuracy, overall "
                    "metrics, provenance, and embedded PNG plots (needs the `plot` extra: "
                    "pip install \"satrules[plot]\"; without it the page has no plots).  "
                    "Columns are matched by name, as predict matches them: columns the "
                    "rules were not trained on (an --exclude'd or weight column) are "
                    "ignored with a note.")
    p.add_argument("rules", metavar="rules.json")
    p.add_argument("data", metavar="DATA.csv")
    p.add_argument("--target", help="label column (default: the one saved in rules.json)")
    p.add_argument("--sweep", metavar="results.csv",
                   help="a `satrules sweep` table: adds the trade-off plot")
    p.add_argument("--benchmarks", nargs="+", metavar="CSV",
                   help="benchmark CSVs with backend and time columns: adds the backend "
                        "comparison plot")
    p.add_argument("--title", help="page title")
    p.add_argument("--out", required=True, metavar="report.html")
    add_na_argument(p)
    add_unlabelled_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import pandas as pd

    from satrules import serialization
    from satrules.commands.learn import read_table
    from satrules.commands.predict import (
        _saved_target,
        _training_columns,
        saved_comma_columns,
        saved_na_values,
    )
    from satrules.report import write_report

    est = serialization.load(args.rules)
    if not hasattr(est, "predict"):
        raise ValueError(f"{args.rules} holds a bare rule set without its binarization")
    target = args.target or _saved_target(args.rules)
    if target is None:
        raise ValueError("give --target: rules.json does not name the label column")
    X, y = read_table(args.data, target, saved_na_values(args.rules, args.na_values),
                      saved_comma_columns(args.rules), drop_unlabelled=args.drop_unlabelled)
    X = _training_columns(est, X, args.data)   # as predict: --exclude'd or weight columns
    sweep = pd.read_csv(args.sweep) if args.sweep else None
    metrics = write_report(est, X, y, args.out, sweep=sweep, benchmarks=args.benchmarks,
                           title=args.title)
    print(f"accuracy {metrics['accuracy']:.4f}, coverage {metrics['coverage']:.4f} on "
          f"{metrics['n_samples']} rows; wrote {args.out}", file=sys.stderr)
    return 0
