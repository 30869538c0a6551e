"""Would a cross-validated null test help IMLI and IMLIB?  The measurement behind keeping
the null test on the training rows.

The estimators' null test (``null_test=True``) compares the final rules with a constant
prediction of the majority class on the training rows they were chosen on, so it is
optimistic: now and then rules that passed it are a few test rows worse than the
constant.  A cross-validated check would catch those, at the price of refitting.  This
benchmark measures what it would buy.

For every set and seed it fits the estimator with its defaults on the training rows
(test accuracy as today), then makes 3-fold stratified out-of-fold predictions on the
training rows (each fold predicted by the same estimator fitted on the other two) and
counts the rows they get right and the fold's constant (its training folds' majority
class) gets wrong (``fixed``), and the converse (``broken``).  Each candidate rule then
replaces the fitted rules by the constant (the training majority) when:

* ``oof <= constant``: the out-of-fold predictions are no better than the constant
  (``fixed <= broken``);
* ``oof z < 1`` / ``oof z < 2``: their sign-test statistic
  ``(fixed - broken) / sqrt(fixed + broken)`` is below 1 / 2.

Fits that are already constant are never changed.  Reported per method and group: the
mean test accuracy today and under each rule, the paired difference ± its standard error
over the splits, the fits each rule would replace, and the sets whose mean test accuracy
is below the majority rate.

The sets are those of :mod:`benchmarks.bench_cdpr_null` (``bench``: the fifteen of the
learner benchmark; ``unseen`` and ``more``: held-out sets with an ID column and missing
values left in), stratified 80/20 with seeds 0-2.

Usage::

    python benchmarks/bench_null_cv.py                         # IMLI and IMLIB
    python benchmarks/bench_null_cv.py --methods imlib-paper --out null_cv_paper
    python benchmarks/bench_null_cv.py --groups bench --seeds 0 --out /tmp/quick

Results: ``benchmarks/results/<out>.md`` and ``.csv`` (default ``null_cv``; one row per
method, set and seed).  Rows are saved after every split; ``--resume`` skips those done.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cdpr_null import split_loop  # noqa: E402
from bench_learners import _split, make  # noqa: E402

FOLDS = 3
FIELDS = ("method", "group", "set", "seed", "majority", "acc", "acc_const", "constant",
          "fixed", "broken")
#: name -> predicate on (fixed, broken): replace the rules by the constant?
RULES = {
    "oof <= constant": lambda f, b: f <= b,
    "oof z < 1": lambda f, b: _z(f, b) < 1,
    "oof z < 2": lambda f, b: _z(f, b) < 2,
}


def _z(fixed: int, broken: int) -> float:
    return (fixed - broken) / np.sqrt(fixed + broken) if fixed + broken else 0.0


def _majority(y):
    values, counts = np.unique(y, return_counts=True)
    return values[np.argmax(counts)]


def run(method, group, name, X, y, seed) -> dict:
    from sklearn.model_selection import StratifiedKFold

    X_tr, X_te, y_tr, y_te = _split((X, y), seed)
    y_tr, y_te = np.asarray(y_tr), np.asarray(y_te)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = make(method, seed).fit(X_tr, y_tr)
        fixed = broken = 0
        folds = StratifiedKFold(FOLDS, shuffle=True, random_state=seed)
        for inner, held in folds.split(X_tr, y_tr):
            fold = make(method, seed).fit(X_tr.iloc[inner], y_tr[inner])
            right = fold.predict(X_tr.iloc[held]) == y_tr[held]
            right_const = y_tr[held] == _majority(y_tr[inner])
            fixed += int(np.count_nonzero(right & ~right_const))
            broken += int(np.count_nonzero(~right & right_const))
        constant = len(np.unique(est.predict(X_tr))) == 1
    return {"method": method, "group": group, "set": name, "seed": seed,
            "majority": float(pd.Series(y_te).value_counts(normalize=True).max()),
            "acc": float(np.mean(est.predict(X_te) == y_te)),
            "acc_const": float(np.mean(y_te == _majority(y_tr))),
            "constant": constant, "fixed": fixed, "broken": broken}


def report(rows: list[dict], command: str) -> str:
    d = pd.DataFrame(rows)
    d["constant"] = d.constant.astype(str) == "True"
    lines = ["# IMLI and IMLIB: a cross-validated null test", "",
             f"`{command}` (protocol in its docstring; test accuracy).  `today`: the "
             "estimators as they are (null test on the training rows); each other column: "
             "today's rules replaced by the constant when the rule of its name holds.  "
             "Cells: mean test accuracy, paired difference to today ± its standard error, "
             "fits replaced, sets below the majority rate.", "",
             "| method | group | sets | splits | today | " + " | ".join(RULES) + " |",
             "|---|---|---|---|---|" + "---|" * len(RULES)]

    def below(acc):
        per_set = pd.DataFrame({"set": d_g.set, "acc": acc, "maj": d_g.majority})
        per_set = per_set.groupby("set").mean()
        return int((per_set.acc < per_set.maj - 1e-9).sum())

    for (method, group), d_g in d.groupby(["method", "group"], sort=False):
        cells = [f"{d_g.acc.mean():.4f}, below {below(d_g.acc)}"]
        for rule in RULES.values():
            replace = ~d_g.constant & np.array([rule(int(f), int(b)) for f, b in
                                                zip(d_g.fixed, d_g.broken, strict=True)])
            acc = np.where(replace, d_g.acc_const, d_g.acc)
            diff = acc - d_g.acc
            se = diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("nan")
            cells.append(f"{acc.mean():.4f} ({diff.mean():+.4f} ± {se:.4f}), "
                         f"{int(replace.sum())} replaced, below {below(acc)}")
        lines.append(f"| {method} | {group} | {d_g.set.nunique()} | {len(d_g)} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return split_loop(argv, doc=__doc__, script="bench_null_cv.py", methods="imli,imlib",
                      out="null_cv", run_split=run, report_fn=report, fields=FIELDS,
                      floats=("majority", "acc", "acc_const"))


if __name__ == "__main__":
    raise SystemExit(main())
