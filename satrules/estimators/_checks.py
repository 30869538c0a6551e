"""Input checks shared by the estimators (labels) that scikit-learn's helpers word poorly."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from satrules.rules import missing_mask

__all__ = ["check_label_types", "check_missing_labels"]


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
