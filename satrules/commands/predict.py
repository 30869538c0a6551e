"""``satrules predict``: apply a saved rule set to a CSV file."""

from __future__ import annotations

import argparse
import sys

import numpy as np


def register(sub: argparse._SubParsersAction) -> None:
    from satrules.commands.learn import add_na_argument

    p = sub.add_parser(
        "predict", help="predict with a saved rule set",
        description="Load rules.json (from `satrules learn`) and predict every row of "
                    "DATA.csv.  Columns are matched by name (extra columns are ignored with a "
                    "note; a missing one is an error); missing values and unseen categories "
                    "are allowed (docs/messy_data.md).  A label column, if present, is ignored "
                    "for prediction and used for the accuracy line (over the rows that have a "
                    "label; none if every label is missing).")
    p.add_argument("rules", metavar="rules.json")
    p.add_argument("data", metavar="DATA.csv")
    p.add_argument("--out", metavar="predictions.csv",
                   help="write the input rows with a `prediction` column (else stdout)")
    p.add_argument("--proba", action="store_true",
                   help="also write each class's probability, a column `P(<class>)` per "
                        "class: the class frequencies of the training rows the rules "
                        "classified the same way, smoothed (docs/concepts.md)")
    p.add_argument("--explain", action="store_true",
                   help="also write why: a column `rule` (the index of the rule that decided "
                        "the row, -1 for none) and a column `reason` (that rule's conditions "
                        "as the row meets them, or why no rule decided)")
    p.add_argument("--keep-target", action="store_true",
                   help="keep the label column in the output (it is left out by default), "
                        "e.g. to read labels, predictions and --explain reasons side by side")
    p.add_argument("--target", help="label column to drop and score against "
                                    "(default: the target saved in rules.json, if present)")
    add_na_argument(p)
    p.set_defaults(func=run)


def saved_comma_columns(path: str) -> list:
    """The columns ``satrules learn`` read with decimal commas (saved in the file at
    ``path``), to be read so again."""
    saved = _saved_extra(path).get("comma_columns", [])
    if not (isinstance(saved, list) and all(isinstance(v, str) for v in saved)):
        raise ValueError(f"{path}: invalid rule-set file: field extra.comma_columns: expected "
                         "a list of strings")
    return saved


def run(args: argparse.Namespace) -> int:
    from satrules import serialization
    from satrules.commands.learn import column_hint, read_table

    est = serialization.load(args.rules)
    if not hasattr(est, "predict"):
        raise ValueError(f"{args.rules} holds a bare rule set without its binarization; "
                         "it cannot predict raw data")
    frame, _ = read_table(args.data, na_values=saved_na_values(args.rules, args.na_values),
                          comma_columns=saved_comma_columns(args.rules))
    target = args.target
    if target is None:
        target = _saved_target(args.rules)
    y, labels = None, None
    if target is not None and target in frame.columns:
        y = frame[target].to_numpy()
        labels = frame[target]
        frame = frame.drop(columns=[target])
    elif args.target is not None:
        raise ValueError(f"target column {target!r} is not in {args.data!r}; "
                         f"{column_hint(target, frame.columns)}")
    columns = _training_columns(est, frame, args.data)
    why = None
    if args.explain:
        if not hasattr(est, "explain"):
            raise ValueError(f"{args.rules} holds a model that cannot explain its predictions")
        why = est.explain(columns)   # its predictions are predict's: the rows are read once
    pred = est.predict(columns) if why is None else why["prediction"].to_numpy()
    out = frame.copy()
    if args.keep_target and labels is not None:
        out[target] = labels
    out["prediction"] = pred
    if args.proba:
        proba = est.predict_proba(columns)
        for k, label in enumerate(est.classes_.tolist()):
            out[f"P({label})"] = proba[:, k].round(6)
    if why is not None:
        out["rule"], out["reason"] = why["rule"].to_numpy(), why["reason"].to_numpy()
    if args.out:
        with serialization.atomic_write(args.out, newline="") as fh:
            out.to_csv(fh, index=False)
        print(f"wrote {len(out)} predictions to {args.out}", file=sys.stderr)
    else:
        out.to_csv(sys.stdout, index=False)
    if y is not None:
        print(_accuracy_line(target, pred, y), file=sys.stderr)
    return 0


def _training_columns(est, frame, path: str):
    """Return ``frame``'s columns the rules were trained on, in training order.

    A column the rules need but the file lacks is an error naming it; columns not seen in
    training (an ID, a note) are ignored with a note on stderr, as their order is.
    """
    names = getattr(est, "feature_names_in_", None)
    if names is None:
        return frame
    names = [str(name) for name in names]
    lacking = [name for name in names if name not in frame.columns]
    if lacking:
        from satrules.commands.learn import column_hint

        raise ValueError(f"{path!r} lacks column(s) the rules were trained on: {lacking}; "
                         f"for {lacking[0]!r}, {column_hint(lacking[0], frame.columns)}")
    known = set(names)
    extra = [str(col) for col in frame.columns if str(col) not in known]
    if extra:
        print(f"note: ignoring column(s) not seen in training: {extra}", file=sys.stderr)
    return frame[names]


def _accuracy_line(target: str, pred: np.ndarray, y: np.ndarray) -> str:
    """Accuracy over the rows that have a label (a missing label is not a wrong one)."""
    import pandas as pd

    labelled = ~pd.isna(y)
    n_missing = int((~labelled).sum())
    if not labelled.any():
        return (f"no accuracy: every value of the label column {target!r} is missing "
                f"({n_missing} rows)")
    acc = float(np.mean(pred[labelled] == y[labelled]))
    if n_missing:
        return (f"accuracy on {target!r}: {acc:.4f} ({int(labelled.sum())} labelled rows; "
                f"{n_missing} without a label)")
    return f"accuracy on {target!r}: {acc:.4f} ({len(y)} rows)"


def _saved_extra(path: str) -> dict:
    """The ``extra`` object of a rule-set file (what ``satrules learn`` noted: the target,
    the ``--na-values``...), empty when there is none."""
    import json

    with open(path, encoding="utf-8") as fh:
        extra = json.load(fh).get("extra")  # the file has loaded: it is a JSON object
    if extra is not None and not isinstance(extra, dict):
        raise ValueError(f"{path}: invalid rule-set file: field extra: expected an object, "
                         f"got {type(extra).__name__}")
    return extra or {}


def _saved_target(path: str) -> str | None:
    target = _saved_extra(path).get("target")
    return target if isinstance(target, str) else None


def saved_na_values(path: str, given: list) -> list:
    """The ``--na-values`` of ``satrules learn`` saved in the file at ``path``, then those
    ``given`` on this command line."""
    saved = _saved_extra(path).get("na_values")
    if saved is not None and not (isinstance(saved, list)
                                  and all(isinstance(v, str) for v in saved)):
        raise ValueError(f"{path}: invalid rule-set file: field extra.na_values: expected a "
                         "list of strings")
    return list(dict.fromkeys([*(saved or []), *given]))
