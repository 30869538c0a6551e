"""Issue 4 row 1 (data errors) for ThresholdBinarizer and IMLIClassifier.

Every bad input raises a ``ValueError`` whose message names the problem; unseen
categories at predict time follow the documented behaviour instead of crashing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from satrules.backends.registry import available_backends
from satrules.binarize import ThresholdBinarizer
from satrules.estimators.imli import IMLIClassifier

BACKEND = next(b for b in ("rc2", "cpsat", "bruteforce") if b in available_backends())


def good_frame():
    return pd.DataFrame({"age": [20.0, 30, 40, 50, 60, 70],
                         "color": ["red", "blue", "green", "red", "blue", "green"]})


Y = np.array([0, 1, 0, 1, 1, 0])


def imli():
    return IMLIClassifier(backend=BACKEND)


def binarizer():
    return ThresholdBinarizer()


def fit_any(est, X, y):
    return est.fit(X) if isinstance(est, ThresholdBinarizer) else est.fit(X, y)


BOTH = [binarizer, imli]


@pytest.mark.parametrize("make", BOTH)
@pytest.mark.parametrize("value, match", [(np.inf, "inf"), (-np.inf, "inf")])
def test_nan_and_inf(make, value, match):
    """+-inf in X raises ValueError naming the value (fit and predict); NaN is a missing
    value, allowed by default (tests/test_messy_data.py), refused with missing="error"."""
    X = np.arange(12, dtype=float).reshape(6, 2)
    bad = X.copy()
    bad[2, 1] = value
    with pytest.raises(ValueError, match=match):
        fit_any(make(), bad, Y)
    est = fit_any(make(), X, Y)
    method = est.transform if isinstance(est, ThresholdBinarizer) else est.predict
    with pytest.raises(ValueError, match=match):
        method(bad)


def test_nan_raises_only_when_asked():
    """ThresholdBinarizer(missing="error") refuses NaN, naming it (fit and transform)."""
    X = np.arange(12, dtype=float).reshape(6, 2)
    bad = X.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        ThresholdBinarizer(missing="error").fit(bad)
    with pytest.raises(ValueError, match="NaN"):
        ThresholdBinarizer(missing="error").fit(X).transform(bad)


@pytest.mark.parametrize("make", BOTH)
@pytest.mark.parametrize("shape", [(0, 2), (6, 0)])
@pytest.mark.parametrize("frame", [False, True])
def test_empty_input(make, shape, frame):
    """Zero samples or zero features raise ValueError mentioning the empty dimension, for
    an array and for a DataFrame (a frame without columns failed in scikit-learn's check
    with "at least one array or dtype is required")."""
    X = np.zeros(shape)
    if frame:
        X = pd.DataFrame(X, columns=[f"c{j}" for j in range(shape[1])])
    with pytest.raises(ValueError, match=r"(?i)empty|0 sample|0 feature"):
        fit_any(make(), X, Y[: shape[0]])


def test_single_class():
    """A single class in y raises ValueError naming it (as a plain value, not numpy's
    ``np.str_('yes')``)."""
    with pytest.raises(ValueError, match="only 1 class"):
        imli().fit(good_frame(), np.zeros(6))
    with pytest.raises(ValueError, match=r"only 1 class \('yes'\)"):
        imli().fit(good_frame(), np.array(["yes"] * 6))


def test_length_mismatch():
    """X and y with different lengths raise ValueError giving both lengths."""
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[6, 5\]"):
        imli().fit(good_frame(), Y[:5])


@pytest.mark.parametrize("make", BOTH)
def test_wrong_number_of_columns_at_predict(make):
    """A different number of columns at predict/transform raises ValueError with both counts."""
    X = np.arange(12, dtype=float).reshape(6, 2)
    est = fit_any(make(), X, Y)
    method = est.transform if isinstance(est, ThresholdBinarizer) else est.predict
    with pytest.raises(ValueError, match="3 features"):
        method(np.zeros((2, 3)))


@pytest.mark.parametrize("make", BOTH)
def test_wrong_column_names_at_predict(make):
    """Different DataFrame column names at predict/transform raise ValueError."""
    est = fit_any(make(), good_frame(), Y)
    renamed = good_frame().rename(columns={"age": "AGE"})
    method = est.transform if isinstance(est, ThresholdBinarizer) else est.predict
    with pytest.raises(ValueError, match="feature names"):
        method(renamed)


@pytest.mark.parametrize("make", BOTH)
def test_unseen_category_is_documented_not_an_error(make):
    """An unseen category at predict sets all its one-hot columns to 0 (documented)."""
    est = fit_any(make(), good_frame(), Y)
    new = good_frame().iloc[:2].copy()
    new["color"] = ["purple", "red"]
    if isinstance(est, ThresholdBinarizer):
        out = est.transform(new)
        cols = [i for i, c in enumerate(est.conditions_) if c.feature == "color"]
        assert out[0, cols].tolist() == [0, 0, 0] and out[1, cols].sum() == 1
    else:
        assert est.predict(new).shape == (2,)


@pytest.mark.parametrize("make", BOTH)
def test_only_constant_columns(make):
    """Only constant features raise ValueError saying every feature is constant."""
    X = pd.DataFrame({"a": [1] * 6, "b": ["x"] * 6})
    with pytest.raises(ValueError, match="every feature is constant"):
        fit_any(make(), X, Y)


@pytest.mark.parametrize("make", BOTH)
@pytest.mark.parametrize("values, match", [
    ([{"k": 1}, {"k": 2}, {}, {}, {}, {}], "non-numeric"),
    (["a", 1, "b", 2.5, "c", "d"], "mixes value types"),
])
def test_non_numeric_object_columns(make, values, match):
    """Object columns that are neither all numbers nor all strings raise ValueError."""
    X = pd.DataFrame({"ok": [1.0, 2, 3, 4, 5, 6], "bad": pd.Series(values, dtype=object)})
    with pytest.raises(ValueError, match=match):
        fit_any(make(), X, Y)


@pytest.mark.parametrize("make", BOTH)
def test_duplicate_column_names(make):
    """Duplicate DataFrame column names raise ValueError listing them."""
    X = pd.DataFrame(np.arange(12).reshape(6, 2), columns=["a", "a"])
    with pytest.raises(ValueError, match=r"duplicate column names: \['a'\]"):
        fit_any(make(), X, Y)
