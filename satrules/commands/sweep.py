"""``satrules sweep``: a parameter grid × repeated random splits → one tidy CSV table."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

_SPEC_KEYS = {"method", "grid", "params", "n_splits", "test_size", "random_state", "target"}


def load_spec(text_or_path: str) -> dict[str, Any]:
    """Read a sweep spec: a JSON object given inline or as a file name.

    Keys: ``grid`` (``{"param": [values, ...]}`` or a list of such dicts),
    optional ``method``, ``params`` (fixed parameters), ``n_splits``,
    ``test_size``, ``random_state``, ``target``.

    Examples
    --------
    >>> load_spec('{"method": "cdpr-gra", "grid": {"gamma": [2, 4]}, "n_splits": 3}')["grid"]
    {'gamma': [2, 4]}
    """
    text = text_or_path
    if not text_or_path.lstrip().startswith(("{", "[")):
        with open(text_or_path, encoding="utf-8") as fh:
            text = fh.read()
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"sweep spec is not valid JSON: {exc}") from None
    if isinstance(spec, list):
        spec = {"grid": spec}
    if not isinstance(spec, dict):
        raise ValueError("sweep spec must be a JSON object")
    unknown = sorted(set(spec) - _SPEC_KEYS)
    if unknown:
        raise ValueError(f"unknown sweep spec key(s): {', '.join(unknown)}; "
                         f"allowed: {', '.join(sorted(_SPEC_KEYS))}")
    grid = spec.get("grid", {})
    grids = grid if isinstance(grid, list) else [grid]
    for g in grids:
        if not isinstance(g, dict) or not all(isinstance(v, list) and v for v in g.values()):
            raise ValueError("sweep grid must map each parameter to a non-empty list of values")
    return spec


def register(sub: argparse._SubParsersAction) -> None:
    from satrules.commands.learn import (
        METHODS,
        add_na_argument,
        add_ordered_argument,
        add_unlabelled_argument,
    )

    p = sub.add_parser(
        "sweep", help="run a parameter grid over repeated random splits",
        description="Fit every grid point on --n-splits random stratified train/test splits "
                    "(the same splits for every point) and write one row per (point, split) "
                    "to a CSV (or .parquet) table.  Runs in parallel with --n-jobs through "
                    "joblib.")
    p.add_argument("data", metavar="DATA.csv")
    p.add_argument("--target", help="label column (or `target` in the spec)")
    p.add_argument("--method", choices=list(METHODS), help="learning method (or in the spec)")
    p.add_argument("--spec", metavar="JSON|FILE",
                   help='sweep spec, e.g. \'{"grid": {"gamma": [2, 5, 10], "beta": [0.2, 0.6]}}\'')
    p.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="one grid axis (values read as JSON when they parse); repeatable")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="fixed estimator parameter; repeatable")
    p.add_argument("--n-splits", type=int, help="random splits (default 5)")
    p.add_argument("--test-size", type=float, help="held-out fraction (default 0.2)")
    p.add_argument("--random-state", type=int, help="seed of the splits (default 0)")
    p.add_argument("--n-jobs", type=int, default=1, help="parallel tasks (-1: all cores)")
    add_ordered_argument(p)
    add_na_argument(p)
    add_unlabelled_argument(p)
    p.add_argument("--out", required=True, metavar="results.csv", help=".csv or .parquet")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def _axis(item: str) -> tuple[str, list]:
    name, sep, raw = item.partition("=")
    if not sep or not name.strip() or not raw:
        raise ValueError(f"--grid expects NAME=V1,V2,..., got {item!r}")
    return name.strip(), [_value(v) for v in raw.split(",")]


def run(args: argparse.Namespace) -> int:
    from satrules.commands.learn import declare_columns, make_estimator, method_params, read_table
    from satrules.sweep import run_sweep, write_table

    spec = load_spec(args.spec) if args.spec else {}
    method = args.method or spec.get("method")
    target = args.target or spec.get("target")
    if method is None or target is None:
        raise ValueError("sweep needs --method and --target (on the command line or in --spec)")
    grid = spec.get("grid", {})
    axes = dict(_axis(item) for item in args.grid)
    if axes:
        grid = [{**g, **axes} for g in grid] if isinstance(grid, list) else {**grid, **axes}
    if not grid:
        raise ValueError("empty grid: give --grid NAME=V1,V2 or a spec with \"grid\"")
    fixed = dict(spec.get("params", {}))
    fixed.update(method_params(args, method))
    est = make_estimator(method, fixed)
    for g in grid if isinstance(grid, list) else [grid]:
        make_estimator(method, {**fixed, **g})  # unknown grid parameters fail here, early
    X, y = read_table(args.data, target, args.na_values, drop_unlabelled=args.drop_unlabelled)
    X = declare_columns(X, args, target)
    table = run_sweep(
        est, grid, X, y,
        n_splits=args.n_splits or spec.get("n_splits", 5),
        test_size=args.test_size or spec.get("test_size", 0.2),
        random_state=args.random_state if args.random_state is not None
        else spec.get("random_state", 0),
        n_jobs=args.n_jobs, quiet=args.quiet)
    write_table(table, args.out)
    params = [c for c in table.columns if c.startswith("param_")]
    summary = table.groupby(params, sort=False)[["test_accuracy"]].agg(["mean", "std"])
    print(summary.to_string())
    print(f"wrote {len(table)} rows to {args.out}", file=sys.stderr)
    return 0
