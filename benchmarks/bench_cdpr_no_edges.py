"""Exact CDPR on a selection model without conflict edges: which engine proves it.

Ecdat/Benefits, seed-2 split, the 5 CV folds of ``bench_learners`` at the grid point
alpha 0.6, gamma 6 (the default beta leaves no conflict edge).  ``backend="auto"``
picked RC2 for such models until 2026-12-01 (they have no graph constraint, so they
looked like MaxSAT models); one of these fits had RC2 still searching after about
15 CPU minutes.  HiGHS proves every fold: 1.5-1.8 s on three, 118 s and 207 s on the
other two (load 4 on 2 cores).

Usage::

    python benchmarks/bench_cdpr_no_edges.py highs         # or rc2, cpsat, auto
    python benchmarks/bench_cdpr_no_edges.py rc2 300       # with a time limit (s)
"""

import sys
import time
import warnings
from pathlib import Path

from sklearn.model_selection import StratifiedKFold, train_test_split

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.datasets import load_raw  # noqa: E402
from satrules import CDPRClassifier  # noqa: E402


def main(argv: list[str]) -> None:
    backend = argv[0] if argv else "auto"
    limit = float(argv[1]) if len(argv) > 1 else None
    X, y = load_raw("benefits")
    X_train, _, y_train, _ = train_test_split(X, y, test_size=0.2, stratify=y, random_state=2)
    folds = StratifiedKFold(5, shuffle=True, random_state=2).split(X_train, y_train)
    for i, (tr, _) in enumerate(folds):
        start = time.perf_counter()
        est = CDPRClassifier(method="exact", alpha=0.6, gamma=6, random_state=2,
                             backend=backend, time_limit=limit)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X_train.iloc[tr], y_train[tr])
        r = est.result_
        print(f"fold {i} {backend}: {time.perf_counter() - start:.1f} s, {r.status.value}, "
              f"coverage {r.coverage}, bound {r.bound} ({r.bound_source})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
