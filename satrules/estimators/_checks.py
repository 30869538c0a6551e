"""Input checks shared by the estimators (labels) that scikit-learn's helpers word poorly."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = ["check_label_types"]


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
