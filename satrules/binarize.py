"""Binarize mixed tabular data into 0/1 columns, each described by a readable condition.

:class:`ThresholdBinarizer` turns numpy arrays and pandas DataFrames (mixed
dtypes allowed) into a 0/1 matrix ``Xb`` whose column ``c`` means
``conditions_[c]`` (a :class:`satrules.rules.Condition`):

* **constant** feature (one distinct value): dropped;
* **binary** feature (two distinct values ``lo < hi``): one column ``x == hi``
  (its negated literal reads ``x != hi``);
* **categorical** feature (strings, or columns named in ``categorical_features``)
  with three or more values: one-hot columns ``x == v``;
* **ordinal** (numeric) feature: threshold columns ``x <= t`` (negation
  ``x > t``).  Thresholds are the sorted distinct values without the maximum
  when there are at most ``n_thresholds + 1`` of them, otherwise the quantiles
  at ``i / (n_thresholds + 1)``, ``i = 1..n_thresholds``, without duplicates and
  without values ``>=`` the maximum (those columns would be constant), as in
  pyrulelearn's ``_discretize`` -- except that quantiles are taken with
  ``method="lower"`` (always an observed value, so conditions read ``age <= 41``,
  not ``age <= 40.73``).

Missing values (``NaN``, ``None``, ``pd.NA``) raise a ``ValueError`` by default.
With ``missing="category"`` they become their own category ``"<missing>"``: for a
categorical or binary feature one more one-hot value, for a numeric feature an
extra ``x == <missing>`` column (its threshold columns are 0 on missing rows,
so threshold literals treat a missing value as above every threshold).
``±inf`` is always an error.

At ``transform`` time an **unseen category** sets every one-hot column of its
feature to 0 (so it satisfies every ``x != v`` literal and no ``x == v``
literal); an unseen value of a binary feature likewise reads ``x != hi``.
Numbers outside the fitted range fall naturally on one side of every threshold.

Examples
--------
>>> import numpy as np
>>> from satrules.binarize import ThresholdBinarizer
>>> X = np.array([[25, 0], [40, 1], [61, 1], [33, 0]])
>>> tb = ThresholdBinarizer(n_thresholds=2).fit(X)
>>> tb.get_feature_names_out().tolist()
['x0 <= 33', 'x0 <= 40', 'x1 = 1']
>>> tb.transform(X).tolist()
[[1, 1, 0], [0, 1, 1], [0, 0, 1], [1, 1, 0]]
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from satrules.rules import MISSING, Condition, missing_mask

__all__ = ["ThresholdBinarizer", "FeatureTypeError", "MISSING"]


class FeatureTypeError(ValueError, TypeError):
    """A column holds values that are neither numbers nor strings (or mixes them)."""


def _is_frame(X: Any) -> bool:
    return hasattr(X, "columns") and hasattr(X, "iloc")


def _split_columns(X: Any) -> tuple[list[np.ndarray], list[str] | None]:
    """Return the columns of ``X`` as 1-D arrays, and the DataFrame's column names (or None)."""
    if hasattr(X, "toarray") or type(X).__module__.startswith("scipy.sparse"):
        raise TypeError("sparse input is not supported by ThresholdBinarizer; pass a dense array")
    if _is_frame(X):
        names = [str(c) for c in X.columns]
        dups = sorted({n for n in names if names.count(n) > 1})
        if dups:
            raise ValueError(f"duplicate column names: {dups}")
        cols = [X.iloc[:, c].to_numpy() for c in range(X.shape[1])]
        return cols, names
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(
            f"Expected 2D array, got {arr.ndim}D array instead; reshape your data "
            "(array.reshape(-1, 1) for a single feature)"
        )
    if np.iscomplexobj(arr):
        raise ValueError("Complex data not supported")
    return [arr[:, c] for c in range(arr.shape[1])], None


def _as_numeric(values: np.ndarray, name: str) -> np.ndarray | None:
    """Return ``values`` as float64, or None when they are all strings (a categorical)."""
    if values.dtype.kind in "biuf":
        return values.astype(np.float64)
    if values.dtype.kind in "USO":
        try:
            return np.asarray(values, dtype=np.float64)
        except ValueError:
            if all(isinstance(v, str) for v in values):
                return None
            kinds = sorted({type(v).__name__ for v in values})
            raise FeatureTypeError(
                f"column {name!r} mixes value types {kinds}; use numbers or strings only"
            ) from None
        except TypeError as exc:
            raise FeatureTypeError(
                f"column {name!r} holds non-numeric, non-string values: {exc}"
            ) from None
    raise FeatureTypeError(f"column {name!r} has unsupported dtype {values.dtype}")


def _check_finite(numeric: np.ndarray, name: str) -> None:
    if np.isinf(numeric).any():
        raise ValueError(f"feature {name!r} contains infinity (inf); remove or clip it")


def _thresholds(values: np.ndarray, n_thresholds: int) -> np.ndarray:
    """Return the ascending thresholds of a numeric feature (pyrulelearn ``_discretize``)."""
    distinct = np.unique(values)
    if len(distinct) <= n_thresholds + 1:
        return distinct[:-1]
    probs = np.arange(1, n_thresholds + 1) / (n_thresholds + 1)
    cuts = np.unique(np.quantile(values, probs, method="lower"))
    return cuts[cuts < distinct[-1]]


class ThresholdBinarizer(TransformerMixin, BaseEstimator):
    """Binarize numeric, binary and categorical features into 0/1 condition columns.

    Parameters
    ----------
    n_thresholds : int, default=4
        Maximum number of quantile thresholds per numeric feature.
    categorical_features : "auto" or list of str / int, default="auto"
        Features to one-hot encode.  ``"auto"``: the columns holding strings.
        A list names (or indexes) numeric columns to treat as categorical too.
    missing : {"error", "category"}, default="error"
        ``"error"`` raises a ``ValueError`` on missing values; ``"category"``
        treats a missing value as its own category (see the module notes).

    Attributes
    ----------
    conditions_ : list of Condition
        The meaning of each output column.
    feature_kinds_ : dict
        Input feature name -> ``"constant"``, ``"binary"``, ``"categorical"`` or ``"ordinal"``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when fitted on a DataFrame.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [30, 50, 70, 40], "pain": ["a", "b", "c", "a"],
    ...                    "sex": ["m", "f", "m", "m"], "k": [1, 1, 1, 1]})
    >>> tb = ThresholdBinarizer().fit(df)
    >>> [c.describe() for c in tb.conditions_]
    ['age <= 30', 'age <= 40', 'age <= 50', 'pain = a', 'pain = b', 'pain = c', 'sex = m']
    >>> tb.feature_kinds_["k"]
    'constant'
    >>> tb.transform(pd.DataFrame({"age": [45], "pain": ["z"], "sex": ["f"], "k": [1]})).tolist()
    [[0, 0, 1, 0, 0, 0, 0]]
    """

    def __init__(self, n_thresholds: int = 4, categorical_features: Any = "auto",
                 missing: str = "error") -> None:
        self.n_thresholds = n_thresholds
        self.categorical_features = categorical_features
        self.missing = missing

    # ------------------------------------------------------------------ helpers
    def _check_params(self) -> None:
        if not isinstance(self.n_thresholds, numbers.Integral) or self.n_thresholds < 1:
            raise ValueError(f"n_thresholds must be a positive int, got {self.n_thresholds!r}")
        if self.missing not in ("error", "category"):
            raise ValueError(f"missing must be 'error' or 'category', got {self.missing!r}")

    def _forced_categorical(self, names: list[str]) -> set[int]:
        spec = self.categorical_features
        if isinstance(spec, str) and spec == "auto":
            return set()
        forced = set()
        for item in spec:
            if isinstance(item, numbers.Integral) and 0 <= item < len(names):
                forced.add(int(item))
            elif str(item) in names:
                forced.add(names.index(str(item)))
            else:
                raise ValueError(f"categorical_features: unknown feature {item!r}")
        return forced

    def _clean(self, col: np.ndarray, name: str, fitting: bool) -> tuple[np.ndarray, np.ndarray]:
        """Return (values with missing entries replaced, missing mask), checking NaN/inf."""
        miss = missing_mask(col)
        if miss.any() and self.missing == "error":
            raise ValueError(
                f"feature {name!r} has {int(miss.sum())} missing value(s) (NaN); impute them or "
                "use ThresholdBinarizer(missing='category')"
            )
        if col.dtype.kind == "f" and np.isinf(col).any():
            raise ValueError(f"feature {name!r} contains infinity (inf); remove or clip it")
        return col, miss

    # ---------------------------------------------------------------------- fit
    def fit(self, X: Any, y: Any = None) -> ThresholdBinarizer:
        """Learn thresholds and categories from ``X``; return ``self``."""
        self._check_params()
        cols, frame_names = _split_columns(X)
        n_samples = len(cols[0]) if cols else (X.shape[0] if hasattr(X, "shape") else 0)
        if not cols or n_samples == 0:
            raise ValueError(
                f"empty input: got {n_samples} sample(s) and {len(cols)} feature(s); "
                "need at least one of each"
            )
        names = frame_names if frame_names is not None else [f"x{c}" for c in range(len(cols))]
        forced = self._forced_categorical(names)
        self.n_features_in_ = len(cols)
        if frame_names is not None:
            self.feature_names_in_ = np.asarray(frame_names, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self._names = names
        self._specs: list[tuple[str, Any, bool]] = []  # (kind, values, has missing column)
        self.conditions_: list[Condition] = []
        self.feature_kinds_: dict[str, str] = {}
        for f, (col, name) in enumerate(zip(cols, names, strict=True)):
            col, miss = self._clean(col, name, fitting=True)
            kind, values, with_missing = self._fit_feature(col[~miss], miss.any(), name,
                                                           f in forced)
            self._specs.append((kind, values, with_missing))
            self.feature_kinds_[name] = kind
            self.conditions_.extend(self._feature_conditions(f, name, kind, values, with_missing))
        if not self.conditions_:
            raise ValueError(
                "every feature is constant (no column left after binarization); "
                "a rule learner needs at least one varying feature"
            )
        return self

    def _fit_feature(self, vals: np.ndarray, has_missing: bool, name: str,
                     categorical: bool) -> tuple[str, Any, bool]:
        numeric = None if categorical and vals.dtype.kind not in "biuf" else \
            _as_numeric(vals, name)
        if categorical or numeric is None:
            cats = sorted(set(vals.tolist()), key=lambda v: (str(type(v)), v))
            if has_missing:
                cats.append(MISSING)
            if len(cats) <= 1:
                return "constant", None, False
            if len(cats) == 2:
                return "binary", cats[1], False  # column "x == second category"
            return "categorical", cats, False
        _check_finite(numeric, name)
        distinct = np.unique(numeric)
        n_distinct = len(distinct) + int(has_missing)
        if n_distinct <= 1:
            return "constant", None, False
        if len(distinct) == 2 and not has_missing:
            return "binary", distinct[1].item(), False
        if len(distinct) <= 1:  # one number plus missing: the missing column alone
            return "ordinal", np.zeros(0), True
        return "ordinal", _thresholds(numeric, self.n_thresholds), has_missing

    @staticmethod
    def _feature_conditions(f: int, name: str, kind: str, values: Any,
                            with_missing: bool) -> list[Condition]:
        if kind == "constant":
            return []
        if kind == "binary":
            return [Condition(name, "==", values, f, "binary")]
        if kind == "categorical":
            return [Condition(name, "==", v, f, "categorical") for v in values]
        conds = [Condition(name, "<=", float(t), f, "ordinal") for t in values]
        if with_missing:
            conds.append(Condition(name, "==", MISSING, f, "categorical"))
        return conds

    # ---------------------------------------------------------------- transform
    def transform(self, X: Any) -> np.ndarray:
        """Return the 0/1 matrix (uint8, ``n_samples x len(conditions_)``) for ``X``."""
        check_is_fitted(self, "conditions_")
        cols, frame_names = _split_columns(X)
        if len(cols) != self.n_features_in_:
            raise ValueError(
                f"X has {len(cols)} features, but ThresholdBinarizer was fitted with "
                f"{self.n_features_in_} features"
            )
        fitted_names = getattr(self, "feature_names_in_", None)
        if frame_names is not None and fitted_names is not None \
                and list(frame_names) != list(fitted_names):
            raise ValueError(
                f"feature names at transform {frame_names} differ from those seen in fit "
                f"{list(fitted_names)}"
            )
        n_samples = len(cols[0])
        blocks = [np.zeros((n_samples, 0), dtype=np.uint8)]
        for col, name, (kind, values, with_missing) in zip(cols, self._names, self._specs,
                                                           strict=True):
            if kind == "constant":
                continue
            col, miss = self._clean(col, name, fitting=False)
            blocks.append(self._transform_feature(col, miss, kind, values, with_missing, name))
        return np.concatenate(blocks, axis=1)

    @staticmethod
    def _transform_feature(col, miss, kind, values, with_missing, name) -> np.ndarray:
        if kind == "ordinal":
            numeric = np.full(len(col), np.nan)
            numeric[~miss] = _as_numeric(col[~miss], name)
            _check_finite(numeric[~miss], name)
            with np.errstate(invalid="ignore"):
                block = numeric[:, None] <= np.asarray(values, dtype=float)[None, :]
            if with_missing:
                block = np.concatenate([block, miss[:, None]], axis=1)
            return block.astype(np.uint8)
        cats = [values] if kind == "binary" else values
        obj = col.astype(object)
        obj[miss] = MISSING
        block = np.zeros((len(col), len(cats)), dtype=np.uint8)
        for c, cat in enumerate(cats):  # one vectorised comparison per category
            block[:, c] = obj == cat
        return block

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        """Return the readable condition of each output column."""
        check_is_fitted(self, "conditions_")
        return np.asarray([c.describe() for c in self.conditions_], dtype=object)
