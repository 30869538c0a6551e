"""Input checks shared by the estimators: labels that scikit-learn's helpers word poorly,
and ``X`` checked without copying a mixed DataFrame into one object array."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
from sklearn.utils.validation import check_array, check_X_y, validate_data

from satrules.binarize import checkable_frame
from satrules.rules import missing_mask

__all__ = ["PlainLabelsScoreMixin", "check_label_types", "check_missing_labels", "plain_labels",
           "validate_columns"]


def _label_kind(value: Any) -> str:
    if isinstance(value, str | np.str_):
        return "str"
    if isinstance(value, numbers.Number):   # bool, int, float, numpy scalars: one kind
        return "number"
    return type(value).__name__


def check_label_types(y: Any) -> None:
    """Raise a ``ValueError`` naming the types when the labels ``y`` mix kinds (``[1, "a"]``).

    Numbers of different types (``1`` and ``2.0``) count as one kind; strings as another.
    scikit-learn reports such labels as "Unknown label type: unknown", which does not say
    what is wrong; the message keeps that prefix (scikit-learn's estimator checks match it).

    Examples
    --------
    >>> check_label_types(np.array([1, 2.0, 1]))
    >>> check_label_types(np.array([1, "a", 2.0], dtype=object))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Unknown label type: y mixes label types ['number', 'str'] (e.g. 1, 'a'); ...
    """
    y = np.asarray(y)
    if y.dtype.kind != "O" or y.ndim != 1:
        return
    first: dict[str, Any] = {}
    for value in y.tolist():
        first.setdefault(_label_kind(value), value)
    if len(first) > 1:
        kinds = sorted(first)
        examples = ", ".join(repr(first[k]) for k in kinds)
        raise ValueError(f"Unknown label type: y mixes label types {kinds} (e.g. {examples}); "
                         "use labels of one type, e.g. y.astype(str)")


def plain_labels(y: Any) -> Any:
    """Return the labels ``y`` with an object array of numbers or booleans as a numeric or
    boolean array, as :func:`numpy.asarray` types a list of them, and pandas' nullable
    ``boolean``, ``Int64`` or ``Float64`` labels as the numpy ``bool``, ``int64`` or
    ``float64`` array of the same values; other labels unchanged.

    pandas keeps a True/False column that has missing values as ``object``, and so it stays
    once those rows are dropped (``satrules learn --drop-unlabelled``, ``y.dropna()``);
    scikit-learn cannot read such labels ("Unknown label type: unknown").  It reads
    nullable labels as floats: True/False labels would be the classes ``0.0`` and ``1.0``
    (``THEN 1.0``).  Run after :func:`check_missing_labels`; labels of mixed kinds are
    left to :func:`check_label_types`.

    Examples
    --------
    >>> import pandas as pd
    >>> plain_labels(pd.Series([True, False], dtype="boolean")).dtype
    dtype('bool')
    >>> plain_labels(np.array([True, False, True], dtype=object)).dtype
    dtype('bool')
    >>> plain_labels(np.array([1, 2.5], dtype=object)).tolist()
    [1.0, 2.5]
    >>> plain_labels(np.array(["a", "b"], dtype=object)).dtype
    dtype('O')
    """
    numpy_dtype = getattr(getattr(y, "dtype", None), "numpy_dtype", None)   # pandas masked
    if numpy_dtype is not None and numpy_dtype.kind in "biuf":
        return np.asarray(y, dtype=numpy_dtype)
    arr = np.asarray(y)
    if arr.dtype.kind != "O" or arr.ndim != 1 or len(arr) == 0 or \
            not all(_label_kind(value) == "number" for value in arr.tolist()):
        return y
    return np.asarray(arr.tolist())


class PlainLabelsScoreMixin:
    """``score`` that reads the labels as ``fit`` does (:func:`plain_labels`): True/False
    labels held in an ``object`` array score as they fit, where scikit-learn's
    ``accuracy_score`` refuses them ("a mix of unknown and binary targets")."""

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """Return the mean accuracy on ``X`` and the labels ``y`` (weighted by
        ``sample_weight`` when given), as :meth:`sklearn.base.ClassifierMixin.score`."""
        from sklearn.metrics import accuracy_score

        return float(accuracy_score(plain_labels(np.asarray(y)), self.predict(X),
                                    sample_weight=sample_weight))


def check_missing_labels(y: Any) -> None:
    """Raise a ``ValueError`` naming the positions when some labels ``y`` are missing.

    scikit-learn's own check says only "Input contains NaN", without saying that the
    labels, not ``X``, hold it.  ``None`` passes (scikit-learn reports a missing ``y``).

    Examples
    --------
    >>> check_missing_labels(["a", "b", "a"])
    >>> check_missing_labels(["a", None, "b", float("nan")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: y has 2 missing label(s) (NaN or None), at positions [1, 3]; drop those ...
    """
    if y is None:
        return
    labels = np.asarray(y, dtype=object)
    if labels.ndim == 2 and labels.shape[1] == 1:
        labels = labels[:, 0]
    if labels.ndim != 1:
        return
    where = np.flatnonzero(missing_mask(labels))
    if where.size:
        shown = where[:10].tolist()
        more = f" and {where.size - 10} more" if where.size > 10 else ""
        raise ValueError(f"y has {where.size} missing label(s) (NaN or None), at positions "
                         f"{shown}{more}; drop those rows (e.g. keep = y.notna(); "
                         "X[keep], y[keep]) or give them a class")


def _is_sparse(dtype: Any) -> bool:
    return type(dtype).__name__ == "SparseDtype"


def _dense(frame: Any) -> Any:
    """``frame`` with its sparse columns dense (scikit-learn turns an all-sparse frame
    into a scipy matrix and refuses it; the binarizer reads every column densely)."""
    if not any(_is_sparse(dtype) for dtype in frame.dtypes):
        return frame
    return frame.apply(lambda col: col.sparse.to_dense() if _is_sparse(col.dtype) else col)


def validate_columns(estimator: Any, X: Any, y: Any = "no_validation", *,
                     reset: bool) -> Any:
    """scikit-learn's ``validate_data`` for an estimator that reads ``X`` column by column.

    Returns what ``validate_data(estimator, X, y, dtype=None, ensure_all_finite=False,
    reset=reset)`` returns (``X`` when ``y`` is left out, else ``(X, y)``), raises what
    it raises for a classifier fitted with ``y=None``, and records
    ``n_features_in_`` and ``feature_names_in_`` the same way, except that a DataFrame
    ``X`` is returned as it is (its dtypes, e.g. ordered categories, mean something to
    the binarizer).  Its columns are checked one group of equal dtype at a time, so
    that a frame mixing numbers with strings is never copied into one object array: at
    20,000 rows x 1,000 columns that array holds 20 million Python objects, and building
    it took 2-9 s of a 30 s fit.  The checks are scikit-learn's own (no complex
    columns, named; at least one row and one column, ``y`` one-dimensional and as long
    as ``X``); sparse columns are checked as dense ones.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn.base import BaseEstimator
    >>> est = BaseEstimator()
    >>> df = pd.DataFrame({"age": [30.0, None], "city": ["Oslo", "Rome"]})
    >>> X, y = validate_columns(est, df, [0, 1], reset=True)
    >>> X is df, y.tolist(), est.n_features_in_, est.feature_names_in_.tolist()
    (True, [0, 1], 2, ['age', 'city'])
    >>> validate_columns(est, df, [0, 1, 1], reset=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Found input variables with inconsistent numbers of samples: [2, 3]
    """
    frame = checkable_frame(X)   # datetimes and categories as objects, as scikit-learn needs
    if not (hasattr(frame, "columns") and hasattr(frame, "iloc")):
        return validate_data(estimator, frame, y, dtype=None, ensure_all_finite=False,
                             reset=reset)
    # feature names and their number, checked (reset=False) or recorded (reset=True); a
    # missing y (None) is refused here, with scikit-learn's words
    validate_data(estimator, frame, y, skip_check_array=True, reset=reset)
    complex_columns = [str(name) for name, dtype in zip(frame.columns, frame.dtypes,
                                                         strict=True)
                       if getattr(dtype, "kind", None) == "c"]
    if complex_columns:   # named, not scikit-learn's print of the whole block
        raise ValueError(f"Complex data not supported: column(s) {complex_columns}")
    groups: dict[Any, list[int]] = {}
    for c, dtype in enumerate(frame.dtypes):
        groups.setdefault(dtype, []).append(c)
    blocks = [_dense(frame.iloc[:, idx]) for idx in groups.values()]
    if len(blocks) < 2 or not len(frame):   # one dtype or no rows: errors name its shape
        blocks = [_dense(frame)]
    params = {"dtype": None, "ensure_all_finite": False, "estimator": estimator}
    for block in blocks[1:]:
        check_array(block, input_name="X", **params)
    if isinstance(y, str) and y == "no_validation":
        check_array(blocks[0], input_name="X", **params)
        return X
    _, y = check_X_y(blocks[0], y, **params)
    return X, y
