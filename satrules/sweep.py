"""Parameter sweeps: a grid of parameters × repeated random train/test splits → one tidy table.

:func:`run_sweep` runs the protocols of the papers (IMLIB's k × λ × partition
size × l, CDPR's α, β, γ, δ, λ, ...) for any scikit-learn classifier: every
(grid point, split) pair is one independent task run through :mod:`joblib`,
so the same call runs serially, on local processes (``backend="loky"``), or
on a cluster through a joblib backend registered by a cluster engine:

.. code-block:: python

    from dask.distributed import Client
    import joblib
    client = Client("scheduler-address:8786")         # or LocalCluster()
    with joblib.parallel_backend("dask"):
        table = run_sweep(est, grid, X, y, n_splits=10, random_state=0, backend=None)

Ray works the same way after ``from ray.util.joblib import register_ray;
register_ray()`` and ``joblib.parallel_backend("ray")``.

Determinism: the split seeds are drawn once from ``random_state`` before any
task starts, and each task's estimator gets the split seed as its own
``random_state`` (unless the grid sets it), so the table is identical —
apart from the ``fit_time``/``predict_time`` columns — whatever ``n_jobs``
and joblib backend run it.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from satrules._progress import progress
from satrules.exceptions import warn
from satrules.metrics import balanced_accuracy

__all__ = ["METRIC_COLUMNS", "TIMING_COLUMNS", "can_stratify", "run_sweep", "solver_status",
           "split_seeds", "write_table"]

#: Columns measured per task (besides ``param_*``, ``split`` and ``seed``).
METRIC_COLUMNS = ("train_accuracy", "test_accuracy", "test_balanced_accuracy", "test_coverage",
                  "n_rules", "n_literals", "max_rule_size", "solver_status", "error")
#: Columns that depend on the machine's speed (excluded when comparing runs).
TIMING_COLUMNS = ("fit_time", "predict_time")


def split_seeds(n_splits: int, random_state: int | np.random.RandomState | None) -> list[int]:
    """Draw the ``n_splits`` split seeds from ``random_state`` (one RNG draw, up front).

    Examples
    --------
    >>> split_seeds(3, 0) == split_seeds(3, 0)
    True
    >>> len(set(split_seeds(5, 1)))
    5
    """
    from sklearn.utils import check_random_state

    if n_splits < 1:
        raise ValueError(f"n_splits must be >= 1, got {n_splits}")
    rng = check_random_state(random_state)
    seeds: list[int] = []
    while len(seeds) < n_splits:  # distinct seeds, in draw order
        seed = int(rng.randint(2**31 - 1))
        if seed not in seeds:
            seeds.append(seed)
    return seeds


def can_stratify(y: Any, test_size: float) -> bool:
    """Whether a train/test split of the labels ``y`` holding out ``test_size`` of the rows
    can be stratified: every class has two rows or more, and the test and the training
    rows each number at least the classes (scikit-learn refuses a stratified split of 33
    rows in 8 classes, whose 7 test rows cannot hold every class).

    Examples
    --------
    >>> can_stratify(["a", "b"] * 10, 0.2), can_stratify(["a", "b", "b"] * 10 + ["c"], 0.2)
    (True, False)
    >>> can_stratify(list("abcdefgh") * 4 + ["a"], 0.2)
    False
    """
    import math

    _, counts = np.unique(np.asarray(y), return_counts=True)
    n_test = math.ceil(test_size * len(y))
    return bool(counts.min() >= 2 and min(n_test, len(y) - n_test) >= len(counts))


def solver_status(est: Any) -> str | None:
    """Status of the estimator's exact solves (``OPTIMAL``, ...), ``"heuristic"``, or None.

    IMLI/IMLIB solve one problem per partition (``solutions_``): one status when
    they all agree, else the counts, e.g. ``"OPTIMAL:3,UNKNOWN:1"`` (a partition
    that timed out keeps the previous partition's rules).  CDPR has a status for
    the exact method only (``result_``); GRA/GDY give ``"heuristic"``.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> from satrules.ir import Status
    >>> solver_status(NS(solutions_=[NS(status=Status.OPTIMAL)] * 2))
    'OPTIMAL'
    >>> solver_status(NS(solutions_={"a": [NS(status=Status.OPTIMAL)],
    ...                              "b": [NS(status=Status.UNKNOWN)]}))
    'OPTIMAL:1,UNKNOWN:1'
    """
    sols = getattr(est, "solutions_", None)
    if isinstance(sols, dict):
        sols = [s for part in sols.values() for s in part]
    if sols:
        names = [str(getattr(s.status, "value", s.status)) for s in sols]
        counts = {name: names.count(name) for name in dict.fromkeys(names)}
        if len(counts) == 1:
            return names[0]
        return ",".join(f"{name}:{n}" for name, n in counts.items())
    for attr in ("solution_", "result_"):
        status = getattr(getattr(est, attr, None), "status", None)
        if status is not None:
            return str(getattr(status, "value", status))
    return "heuristic" if hasattr(est, "result_") else None


def _rule_stats(est: Any, X_test: Any) -> dict[str, Any]:
    """Sizes of the learned rule set and the fraction of test rows on which a rule fires."""
    from satrules.report import rule_masks

    out: dict[str, Any] = {"n_rules": None, "n_literals": None, "max_rule_size": None,
                           "test_coverage": None, "solver_status": solver_status(est)}
    try:
        _, _, sizes, mask = rule_masks(est, X_test)
    except TypeError:  # not a satrules rule learner: no rules to measure
        return out
    out.update(n_rules=len(sizes), n_literals=int(sum(sizes)),
               max_rule_size=int(max(sizes, default=0)),
               test_coverage=float(mask.any(axis=0).mean()) if mask.size else 0.0)
    return out


def _run_task(estimator: Any, params: Mapping[str, Any], X: Any, y: Any, seed: int,
              test_size: float, stratify: bool, error_score: str | float,
              record: bool) -> tuple[dict[str, Any], list[tuple[type, str]]]:
    """:func:`_fit_task`, and the warnings it raised as ``(category, text)`` when
    ``record`` (else none), for :func:`run_sweep` to show once in the calling process:
    raised in a joblib worker, each printed once per task on the worker's stderr, with
    joblib's source line."""
    if not record:
        return _fit_task(estimator, params, X, y, seed, test_size, stratify, error_score), []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        row = _fit_task(estimator, params, X, y, seed, test_size, stratify, error_score)
    return row, [(w.category, str(w.message)) for w in caught]


def _fit_task(estimator: Any, params: Mapping[str, Any], X: Any, y: Any, seed: int,
              test_size: float, stratify: bool, error_score: str | float) -> dict[str, Any]:
    """Fit and score one (grid point, split) task; pure function of its arguments."""
    from sklearn.base import clone
    from sklearn.model_selection import train_test_split

    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=test_size, random_state=seed, stratify=y if stratify else None)
    est = clone(estimator)
    params = dict(params)
    if "random_state" in est.get_params() and "random_state" not in params:
        params["random_state"] = seed
    est.set_params(**params)
    row: dict[str, Any] = {"error": ""}
    start = time.perf_counter()
    try:
        est.fit(X_train, y_train)
        row["fit_time"] = time.perf_counter() - start
        start = time.perf_counter()
        pred_test = est.predict(X_test)
        row["predict_time"] = time.perf_counter() - start
        row["train_accuracy"] = float(np.mean(est.predict(X_train) == np.asarray(y_train)))
        row["test_accuracy"] = float(np.mean(pred_test == np.asarray(y_test)))
        # the mean of the classes' recalls: what class_weight="balanced" aims at
        row["test_balanced_accuracy"] = balanced_accuracy(y_test, pred_test)
        row.update(_rule_stats(est, X_test))
        if getattr(est, "alpha_", None) is not None:   # CDPR: alpha="cv" chooses it
            row["alpha_chosen"] = float(est.alpha_)
    except Exception as exc:
        if error_score == "raise":
            raise
        row.update(fit_time=time.perf_counter() - start, predict_time=None,
                   train_accuracy=error_score, test_accuracy=error_score,
                   test_balanced_accuracy=error_score, error=f"{type(exc).__name__}: {exc}")
    return row


def _grid(param_grid: Mapping[str, Sequence] | Sequence[Mapping[str, Sequence]]) -> list[dict]:
    from sklearn.model_selection import ParameterGrid

    return list(ParameterGrid(param_grid))


def run_sweep(estimator: Any, param_grid: Mapping[str, Sequence] | Sequence[Mapping],
              X: Any, y: Any, *, n_splits: int = 5, test_size: float = 0.2,
              random_state: int | None = 0, n_jobs: int | None = None,
              backend: str | None = "loky", stratify: bool = True,
              error_score: str | float = "raise", quiet: bool = True):
    """Run every grid point on ``n_splits`` random train/test splits; return a tidy table.

    Parameters
    ----------
    estimator : scikit-learn classifier
        Cloned for every task; never fitted in place.
    param_grid : dict or list of dicts
        As for :class:`sklearn.model_selection.ParameterGrid`.
    X, y : array-like or DataFrame
        The data.
    n_splits : int
        Number of random splits (the same splits for every grid point).
    test_size : float
        Fraction of each split held out for testing.
    random_state : int, optional
        Seed of the split seeds; also the source of each task's estimator seed.
    n_jobs : int, optional
        Parallel tasks (joblib semantics; ``None`` means 1 unless a
        ``joblib.parallel_config`` says otherwise).
    backend : str, optional
        joblib backend (``"loky"``, ``"threading"``, ``"dask"``, ...).  ``None``
        uses the active ``joblib.parallel_backend(...)`` context.
    stratify : bool
        Stratify the splits by ``y``, when they can be (:func:`can_stratify`).
    error_score : "raise" or float
        ``"raise"`` stops at the first failing fit; a number records it as the
        accuracy of failed tasks, with the exception text in ``error``.
    quiet : bool
        Disable the progress bar (it is drawn on stderr only on a terminal).

    A warning the fits raise (an ID-like column dropped, a time limit reached) is shown
    once, in the calling process, however many tasks raise it, when the tasks run in
    this process or on ``"loky"`` or ``"multiprocessing"`` workers; before 2026-12-07 it
    was shown once per task, and a loky worker printed it with joblib's source line.

    Returns
    -------
    pandas.DataFrame
        One row per (grid point, split) in grid-major order, with columns
        ``param_<name>`` for every swept parameter, ``split``, ``seed``,
        ``train_accuracy``, ``test_accuracy``, ``test_balanced_accuracy`` (the mean of the
        classes' test recalls), ``test_coverage``, ``n_rules``,
        ``n_literals``, ``max_rule_size``, ``solver_status``, ``fit_time``,
        ``predict_time`` and ``error``; for CDPR also ``alpha_chosen``, the minimum rule
        accuracy the rules were selected with (the value ``alpha="cv"`` chose).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 3)); y = (X[:, 0] > 0).astype(int)
    >>> table = run_sweep(DecisionTreeClassifier(), {"max_depth": [1, 2]}, X, y, n_splits=2)
    >>> table[["param_max_depth", "split"]].values.tolist()
    [[1, 0], [1, 1], [2, 0], [2, 1]]
    >>> bool((table.test_accuracy > 0.8).all())
    True
    """
    import joblib
    import pandas as pd

    if not 0 < test_size < 1:
        raise ValueError(f"test_size must be in (0, 1), got {test_size}")
    grid = _grid(param_grid)
    seeds = split_seeds(n_splits, random_state)
    stratify = stratify and can_stratify(y, test_size)
    tasks = [(g, s) for g in range(len(grid)) for s in range(n_splits)]
    kwargs = {"n_jobs": n_jobs} if backend is None else {"n_jobs": n_jobs, "backend": backend}
    # warnings are recorded per task and shown once each, here; not in threads, where
    # catch_warnings (process-wide state) is unsafe
    record = backend in ("loky", "multiprocessing") or joblib.effective_n_jobs(n_jobs) == 1
    calls = (joblib.delayed(_run_task)(estimator, grid[g], X, y, seeds[s], test_size, stratify,
                                       error_score, record) for g, s in tasks)
    results = joblib.Parallel(return_as="generator", **kwargs)(calls)
    rows, shown = [], set()
    for (g, s), (result, caught) in zip(tasks, progress(results, desc="sweep",
                                                        total=len(tasks), quiet=quiet),
                                        strict=True):
        for category, text in caught:
            if (category, text) not in shown:
                shown.add((category, text))
                warn(text, category)
        row = {f"param_{k}": _cell(v) for k, v in grid[g].items()}
        row.update(split=s, seed=seeds[s])
        row.update(result)
        rows.append(row)
    columns = sorted({k for row in rows for k in row if k.startswith("param_")})
    columns += ["split", "seed", *[c for c in METRIC_COLUMNS if c != "error"],
                *(["alpha_chosen"] if any("alpha_chosen" in row for row in rows) else []),
                *TIMING_COLUMNS, "error"]
    return pd.DataFrame(rows, columns=columns)


def _cell(value: Any) -> Any:
    """Parameter value as a table cell (objects such as estimators become their repr)."""
    if value is None or isinstance(value, (bool, int, float, str, np.generic)):
        return value
    return repr(value)


def check_table_path(path: str | os.PathLike) -> None:
    """Raise when :func:`write_table` cannot write the format ``path`` names: ``.parquet``
    without pyarrow installed."""
    import importlib.util

    if os.fspath(path).endswith(".parquet") and importlib.util.find_spec("pyarrow") is None:
        raise ValueError("writing .parquet needs pyarrow (pip install pyarrow); "
                         "use a .csv file name instead")


def write_table(table, path: str | os.PathLike) -> None:
    """Write a sweep table atomically: ``.parquet`` (needs pyarrow) or CSV otherwise.

    Examples
    --------
    >>> import os, tempfile, pandas as pd
    >>> path = os.path.join(tempfile.mkdtemp(), "t.csv")
    >>> write_table(pd.DataFrame({"a": [1, 2]}), path)
    >>> open(path).read().splitlines()
    ['a', '1', '2']
    """
    from satrules.serialization import atomic_write

    path = os.fspath(path)
    check_table_path(path)
    if path.endswith(".parquet"):
        with atomic_write(path, "wb") as fh:
            table.to_parquet(fh, index=False)
        return
    with atomic_write(path, newline="") as fh:
        table.to_csv(fh, index=False)

