"""Row weights of the IMLI and IMLIB estimators: ``sample_weight`` and ``class_weight``.

A row's weight multiplies the cost of misclassifying it, everywhere the learners count
errors: the partition solves (``λ·w_i`` per row, :func:`partition_weights`), the choice
of the best rules on the whole training set, polishing and pruning, the null test, the
class order of a one-vs-rest fit and the region counts behind ``predict_proba``.  The
weights are scaled to a mean of 1 over the training rows, so ``data_fidelity`` keeps its
meaning: the cost of misclassifying a row of average weight.  Rows of weight 0 are left
out of the fit; when every row weighs the same the fit is the unweighted one, bit for
bit.
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["WEIGHT_RESOLUTION", "check_class_weight", "class_index", "fit_weights",
           "kept_weights", "partition_weights", "scaled_fidelity"]

#: The partition solves see each weight rounded to 1/WEIGHT_RESOLUTION of the mean weight
#: (and at least that much); the whole-training-set objective uses the exact weights.
WEIGHT_RESOLUTION = 100


def check_class_weight(class_weight: Any) -> None:
    """Raise ValueError unless ``class_weight`` is None, ``"balanced"`` or a dict of
    non-negative finite numbers."""
    if class_weight is None or (isinstance(class_weight, str) and class_weight == "balanced"):
        return
    if not isinstance(class_weight, dict):
        raise ValueError(f"class_weight must be None, 'balanced' or a dict {{class: weight}}, "
                         f"got {class_weight!r}")
    for label, value in class_weight.items():
        if isinstance(value, bool) or not isinstance(value, numbers.Real) \
                or not np.isfinite(float(value)) or value < 0:
            raise ValueError(f"class_weight[{label!r}] must be a non-negative number, "
                             f"got {value!r}")


def class_index(classes: np.ndarray, label: Any) -> int | None:
    """The position of ``label`` in ``classes``, or None when no class is ``label``.

    A class may also be named by its text (``"1"`` for ``1``), as a JSON object or a
    command line must name it.

    Examples
    --------
    >>> import numpy as np
    >>> class_index(np.array([0, 1]), "1"), class_index(np.array(["a", "b"]), "c")
    (1, None)
    """
    label = label.item() if isinstance(label, np.generic) else label
    known = {c: i for i, c in enumerate(classes.tolist())}
    index = known.get(label)
    if index is None and isinstance(label, str):
        index = {str(c): i for c, i in known.items()}.get(label)
    return index


def fit_weights(classes: np.ndarray, y_idx: np.ndarray, sample_weight: Any,
                class_weight: Any) -> np.ndarray | None:
    """Return each training row's weight (``sample_weight`` times its class's weight), or
    None when there are no weights or every row weighs the same.

    ``"balanced"`` weighs class ``c`` by ``n_samples / (n_classes * n_c)``; a dict names
    the weight of each class it lists (others weigh 1).  The result is not yet scaled;
    rows of weight 0 stay in it (the caller leaves them out).

    Examples
    --------
    >>> import numpy as np
    >>> y_idx = np.array([0, 0, 0, 1])          # classes "a", "a", "a", "b"
    >>> fit_weights(np.array(["a", "b"]), y_idx, None, "balanced")
    array([0.66666667, 0.66666667, 0.66666667, 2.        ])
    >>> fit_weights(np.array(["a", "b"]), y_idx, [2, 2, 2, 2], None)
    """
    check_class_weight(class_weight)
    n = len(y_idx)
    w = np.ones(n)
    if sample_weight is not None:
        if isinstance(sample_weight, numbers.Real) and not isinstance(sample_weight, bool):
            sample_weight = np.full(n, float(sample_weight))
        sw = np.asarray(sample_weight)
        if sw.dtype.kind not in "iuf" or sw.shape != (n,):
            raise ValueError(f"sample_weight must hold {n} numbers, one per row of X, got "
                             f"{sw.dtype} {sw.shape}")
        sw = sw.astype(float)
        bad = ~np.isfinite(sw) | (sw < 0)
        if bad.any():
            raise ValueError(f"sample_weight must be non-negative and finite; row "
                             f"{int(np.flatnonzero(bad)[0])} has {float(sw[bad][0])}")
        w = sw
    if class_weight is not None:
        if class_weight == "balanced":
            counts = np.bincount(y_idx, minlength=len(classes))
            per_class = n / (len(classes) * np.maximum(counts, 1))
        else:
            per_class = np.ones(len(classes))
            for label, value in class_weight.items():
                index = class_index(classes, label)
                if index is None:
                    raise ValueError(f"class_weight names {label!r}, not a class of y "
                                     f"{classes.tolist()}")
                per_class[index] = float(value)
        w = w * per_class[y_idx]
    if not (w > 0).any():
        raise ValueError("the row weights are all zero (sample_weight times class_weight): "
                         "nothing to learn from")
    return None if np.all(w == w[0]) else w


def kept_weights(weights: np.ndarray | None) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Return ``(keep, scaled)`` for :func:`fit_weights`' answer: the mask of the rows a
    fit keeps (None: all) and their weights scaled to a mean of 1 (None when they are
    all equal: the unweighted fit).

    Examples
    --------
    >>> keep, scaled = kept_weights(np.array([0.0, 1.0, 3.0]))
    >>> keep.tolist(), scaled.tolist()
    ([False, True, True], [0.5, 1.5])
    >>> kept_weights(np.array([0.0, 2.0, 2.0]))[1] is None
    True
    """
    if weights is None:
        return None, None
    keep = weights > 0   # a row of weight 0 is left out of the fit
    scaled = weights[keep] / weights[keep].mean()   # data_fidelity: an average row's error
    return (None if keep.all() else keep), (None if np.all(scaled == scaled[0]) else scaled)


def partition_weights(weights: np.ndarray) -> np.ndarray:
    """Return the scaled weights (mean 1) as the positive integers a partition solve
    weighs its rows' errors by: ``round(w * WEIGHT_RESOLUTION)``, at least 1.

    Examples
    --------
    >>> partition_weights(np.array([0.5, 1.5, 0.001])).tolist()
    [50, 150, 1]
    """
    return np.maximum(np.rint(weights * WEIGHT_RESOLUTION), 1).astype(np.int64)


def scaled_fidelity(data_fidelity: Any) -> Fraction:
    """The ``data_fidelity`` a partition encoding with :func:`partition_weights` needs, so
    that one error of a row of weight ``w`` still costs ``data_fidelity * w`` literals.

    Examples
    --------
    >>> scaled_fidelity(10)
    Fraction(1, 10)
    """
    value = Fraction(str(data_fidelity)) if isinstance(data_fidelity, float) \
        else Fraction(data_fidelity)
    return value / WEIGHT_RESOLUTION
