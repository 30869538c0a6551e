"""``satrules encode``: write a learning problem as a WCNF file for any external MaxSAT solver.

The whole CSV is encoded as ONE problem (no incremental partitions): IMLI or
IMLIB over the binarized columns, or the exact CDPRL selection over the rules
mined from the data.  ``--layout`` writes what ``satrules decode`` needs to
turn the solver's answer back into a fitted rule set: the formulation's layout,
the binarizer (or column encoder and candidate rules), the classes, the
estimator parameters and a SHA-256 of the WCNF file so a layout cannot be used
with another model by mistake.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

import numpy as np

from satrules.commands.learn import CDPR_LIMIT_FLAGS, CDPR_MINING_FLAGS, tagged

#: Layout file schema (versioned like rule-set files).
LAYOUT_SCHEMA = "satrules.layout"
LAYOUT_VERSION = 1

_FLAGS = [
    ("--n-rules", "n_rules", int, "k, number of rules (imli, imlib; default 2)"),
    ("--rule-type", "rule_type", str, "cnf or dnf (imli; default dnf)"),
    ("--data-fidelity", "data_fidelity", float, "lambda, weight of an error (default 10)"),
    ("--max-literals", "max_literals_per_rule", int, "l, literals per rule (imlib; default 3)"),
    ("--n-thresholds", "n_thresholds", int,
     "thresholds per numeric feature (default 4; more tree cuts for many classes)"),
    ("--thresholds", "thresholds", str,
     "tree (default), quantile or both: where the thresholds go (imli, imlib)"),
    ("--categories", "categories", str,
     "grouped (default: levels of a categorical feature of 10 or more grouped by their "
     "rate of the class) or onehot (imli, imlib)"),
    ("--class-weight", "class_weight", None,
     "balanced or a JSON object '{\"CLASS\": WEIGHT}': row weights by class"),
    ("--alpha", "alpha", None,
     "minimum candidate accuracy (cdprl): a number, or cv (the default) to choose it as "
     "--method cdpr-exact chooses it, by cross-validation"),
    *tagged(CDPR_LIMIT_FLAGS + CDPR_MINING_FLAGS, "cdprl"),
    ("--null-test", "null_test", None,
     "True (default) or False: keep the decoded rules only if they beat the constant "
     "default class on the training rows and on rows held out in a cross-validation "
     "(cdprl; on a few dozen rows the held-out test turns most rules down)"),
]
_ESTIMATOR = {"imli": "IMLIClassifier", "imlib": "IMLIBClassifier", "cdprl": "CDPRClassifier"}


def register(sub: argparse._SubParsersAction) -> None:
    from satrules.commands.learn import (
        add_na_argument,
        add_ordered_argument,
        add_unlabelled_argument,
        alpha_value,
        bool_value,
        class_weight_value,
    )

    p = sub.add_parser(
        "encode", help="export a learning problem as WCNF for an external MaxSAT solver",
        description="Encode DATA.csv (the whole file, as one problem) with IMLI, IMLIB or the "
                    "exact CDPRL model and write it as a WCNF file; --layout writes what "
                    "`satrules decode` needs to read the solver's answer back as rules.")
    p.add_argument("data", metavar="DATA.csv")
    p.add_argument("--target", required=True, help="label column")
    p.add_argument("--method", required=True, choices=list(_ESTIMATOR))
    p.add_argument("--positive", help="class the IMLI/IMLIB rules predict (default: the last "
                                      "class in sorted order; required with > 2 classes)")
    for flag, dest, kind, text in _FLAGS:
        p.add_argument(flag, dest=f"param_{dest}",
                       type=kind or {"class_weight": class_weight_value,
                                     "alpha": alpha_value, "null_test": bool_value}[dest],
                       default=None, help=text,
                       metavar=flag.lstrip("-").upper().replace("-", "_"))
    p.add_argument("--weight-column", metavar="NAME",
                   help="a numeric column of row weights, not a feature: each row's error "
                        "softs weigh data_fidelity times its weight (imli, imlib), or a row "
                        "counts that many times (cdprl)")
    p.add_argument("--random-state", type=int, default=0, help="seed of the rule mining (cdprl)")
    add_ordered_argument(p)
    add_na_argument(p)
    add_unlabelled_argument(p)
    p.add_argument("--format", choices=["2022", "legacy"], default="2022",
                   help="WCNF dialect (default: MaxSAT Evaluation 2022)")
    p.add_argument("--out", required=True, metavar="model.wcnf")
    p.add_argument("--layout", metavar="layout.json", help="write the decoding layout here")
    p.set_defaults(func=run)


def _params(args: argparse.Namespace, est: Any) -> dict[str, Any]:
    given = {dest: getattr(args, f"param_{dest}") for _, dest, _, _ in _FLAGS
             if getattr(args, f"param_{dest}") is not None}
    unknown = sorted(set(given) - set(est.get_params()))
    if unknown:
        raise ValueError(f"method {args.method} has no parameter {', '.join(unknown)}")
    return given


def _binary_target(y: np.ndarray, positive: str | None) -> tuple[np.ndarray, np.ndarray]:
    """Return (classes_ as [negative, positive], bool y) for a one-class-against-rest problem."""
    classes = np.unique(y)
    if len(classes) < 2:
        raise ValueError(f"the target has only 1 class ({classes[0]!r})")
    if positive is None:
        if len(classes) > 2:
            raise ValueError(f"the target has {len(classes)} classes; choose the one the rules "
                             f"predict with --positive (one of {', '.join(map(str, classes))})")
        return classes, y == classes[1]
    match = [c for c in classes if str(c) == positive]
    if not match:
        raise ValueError(f"--positive {positive!r} is not a class of the target "
                         f"({', '.join(map(str, classes))})")
    pos = match[0]
    if len(classes) == 2:
        return np.array([c for c in classes if c != pos] + [pos], dtype=object), y == pos
    return np.array([f"not {pos}", pos], dtype=object), y == pos


def _row_weights(est: Any, X, y, weights):
    """The rows to encode and their weights (None: unweighted) as ``est.fit`` weighs them
    (``satrules.estimators._weights``): class and row weights multiplied, rows of weight
    0 left out, scaled to a mean of 1 (the solve rounds them with ``partition_weights``)."""
    from satrules.estimators._weights import fit_weights, kept_weights

    classes, y_idx = np.unique(y, return_inverse=True)
    keep, scaled = kept_weights(fit_weights(
        classes, y_idx, None if weights is None else weights.to_numpy(), est.class_weight))
    return (X, y, scaled) if keep is None else (X[keep], y[keep], scaled)


def _encode_rules(args, X, y, weights=None):
    """IMLI / IMLIB: binarize, encode; return (model, skeleton estimator, layout, extra)."""
    from satrules.commands.learn import make_estimator
    from satrules.estimators._weights import partition_weights, scaled_fidelity

    est = make_estimator(args.method)
    params = _params(args, est)
    est.set_params(**params)
    X, y, scaled = _row_weights(est, X, y, weights)
    solve_weights = None if scaled is None else partition_weights(scaled)
    fidelity = est.data_fidelity if solve_weights is None else \
        scaled_fidelity(est.data_fidelity)
    classes, target = _binary_target(y, args.positive)
    binarizer = est._new_binarizer()
    Xb = binarizer.fit_transform(X, target)   # grouped levels: out-of-fold, as fit reads them
    if args.method == "imli":
        from satrules.encoders.imli import encode_imli

        enc = encode_imli(Xb, target, n_rules=est.n_rules, rule_type=est.rule_type,
                          data_fidelity=fidelity, feature_weight=est.feature_weight,
                          sample_weight=solve_weights)
    else:
        from satrules.encoders.imlib import encode_imlib

        enc = encode_imlib(Xb, target, n_rules=est.n_rules,
                           max_literals_per_rule=est.max_literals_per_rule,
                           data_fidelity=fidelity, sample_weight=solve_weights)
    est.binarizer_ = binarizer
    est.classes_ = classes
    est.class_counts_ = np.array([int((~target).sum()), int(target.sum())])
    est.n_features_in_ = X.shape[1]
    if all(isinstance(c, str) for c in X.columns):
        est.feature_names_in_ = np.asarray(X.columns, dtype=object)
    return enc.model, est, enc.layout, {}


def _encode_cdprl(args, X, y, weights=None):
    """CDPRL: the candidate rules CDPRClassifier.fit mines, then the exact selection model
    (rows weighed as ``fit`` weighs them)."""
    from sklearn.utils import check_random_state

    from satrules.commands.learn import make_estimator
    from satrules.encoders.cdprl import encode_cdprl
    from satrules.estimators._weights import partition_weights

    if args.positive is not None:
        raise ValueError("--positive applies to imli and imlib only")
    est = make_estimator("cdpr-gra")
    est.set_params(**_params(args, est), random_state=args.random_state, method="local")
    # a local-search fit validates the data and parameters, fits the column encoder
    # (encoder_) and chooses alpha_ as the exact method's fit chooses it (alpha="cv"
    # cross-validates with the local search); the candidate pool is then mined again
    est.fit(X, y, sample_weight=None if weights is None else weights.to_numpy())
    X, y, scaled = _row_weights(est, X, y, weights)
    classes = est.classes_
    y_index = np.searchsorted(classes, y)
    # mined as fit mines them: the first seed fit drew, the bounds moved as fit moves them,
    # the trees and the counts on grouped features' out-of-fold rates
    encoded, whole = est._training_rows(X.to_numpy(dtype=object), y_index)
    cands = est._mine(encoded, y_index, scaled, check_random_state(args.random_state), whole)
    pool = cands.filter(est.alpha_, est.delta)
    enc = encode_cdprl(cands.covers[pool], est.beta, est.gamma_,
                       accuracy=cands.accuracy[pool],
                       sample_weight=None if scaled is None else partition_weights(scaled))
    est.set_params(method="exact")
    # decode sets them from the answer (the null test's too, on the decoded rules)
    for name in ("rules_", "result_", "default_", "null_test_", "rejected_rules_"):
        delattr(est, name)
    extra = {"pool": cands.subset(pool), "y_index": y_index, "weights": scaled}
    return enc.model, est, enc.layout, extra


class _HashingWriter:
    """A binary file wrapper that keeps the SHA-256 of everything written through it."""

    mode = "wb"

    def __init__(self, fh: Any) -> None:
        self.fh = fh
        self.digest = hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.digest.update(data)
        return self.fh.write(data)


def sha256(path: str) -> str:
    """Hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def run(args: argparse.Namespace) -> int:
    import satrules
    from satrules import serialization as ser
    from satrules.commands.learn import declare_columns, pop_weights, read_table
    from satrules.ir.wcnf import write_wcnf

    X, y = read_table(args.data, args.target, args.na_values,
                      drop_unlabelled=args.drop_unlabelled)
    X = declare_columns(X, args, args.target)
    weights = None
    if args.weight_column is not None:
        X, weights = pop_weights(X, args.weight_column, args.data)
    if args.method == "cdprl":
        model, skeleton, layout, extra = _encode_cdprl(args, X, y, weights)
    else:
        model, skeleton, layout, extra = _encode_rules(args, X, y, weights)
    doc = None
    if args.layout:  # build the layout text before writing anything
        doc = {"schema": LAYOUT_SCHEMA, "schema_version": LAYOUT_VERSION,
               "satrules_version": satrules.__version__, "method": args.method,
               "n_vars": model.n_vars, "estimator": ser.encode_estimator(skeleton),
               "layout": ser._encode(layout), "extra": ser._encode(extra),
               "data": args.data, "target": args.target}
    in_place = ser.writes_through(args.out)  # a device or FIFO is written, never removed
    with ser.atomic_write(args.out, "wb") as fh:
        # hashed while written: a FIFO or device cannot be read back
        out = _HashingWriter(fh)
        write_wcnf(model, out, format=args.format)
    if doc is not None:
        doc["wcnf_sha256"] = out.digest.hexdigest()
        try:
            with ser.atomic_write(args.layout) as fh:
                json.dump(doc, fh, allow_nan=False)
        except BaseException:
            import os

            if not in_place:  # no half result: the WCNF without its layout is removed
                os.unlink(args.out)
            raise
    print(f"wrote {args.out}: {model.n_vars} variables, {len(model.hard)} hard and "
          f"{len(model.soft)} soft clauses before lowering"
          + (f"; layout in {args.layout}" if args.layout else ""), file=sys.stderr)
    return 0
