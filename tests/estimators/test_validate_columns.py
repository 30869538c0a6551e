"""``validate_columns``: scikit-learn's input check, without one object array per frame.

It must accept and refuse exactly what ``validate_data`` on the whole frame accepts and
refuses (same messages), record the same feature names, and hand scikit-learn's array
check only frames of one dtype (a mixed frame as one array is 20 million Python
objects at 20,000 x 1,000).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import validate_data

import satrules.estimators._checks as checks
from satrules.binarize import checkable_frame
from satrules.estimators._checks import validate_columns


class _Classifier(ClassifierMixin, BaseEstimator):
    pass


N = 6
Y = np.array([0, 1] * (N // 2))

FRAMES = {
    "float and str": pd.DataFrame({"f": np.arange(N, dtype=float),
                                   "s": list("abcabc"), "g": np.arange(N) * 0.5}),
    "nullable int with NA": pd.DataFrame({"a": pd.array([1, None, 3, 4, 5, 6], dtype="Int64"),
                                          "b": np.arange(N)}),
    "nullable bool and category": pd.DataFrame({
        "a": pd.array([True, None, False, True, True, False], dtype="boolean"),
        "c": pd.Categorical(list("xyxyxy"))}),
    "ordered category": pd.DataFrame({"stage": pd.Categorical(
        list("IIIIII"), categories=["I", "II"], ordered=True), "x": np.arange(N)}),
    "datetime and int": pd.DataFrame({"d": pd.date_range("2020", periods=N),
                                      "x": np.arange(N)}),
    "mixed objects with NaN": pd.DataFrame({"o": [1, "a", 2.0, None, 3, "b"],
                                            "f": [np.nan, 1, 2, 3, 4, np.inf]}),
    "one column": pd.DataFrame({"f": np.arange(N, dtype=float)}),
    "no rows": pd.DataFrame({"a": np.array([], dtype=float), "b": np.array([], dtype=object)}),
    "no columns": pd.DataFrame(index=range(N)),
}


def _outcome(call):
    try:
        out = call()
    except Exception as error:   # noqa: BLE001 - the outcome compared is the error itself
        return type(error), str(error)
    return out


@pytest.mark.parametrize("name", sorted(FRAMES))
@pytest.mark.parametrize("labels", ["good", "short", "none", "column"])
def test_same_verdict_as_validate_data(name, labels):
    X = FRAMES[name]
    y = {"good": Y[:len(X)], "short": Y[:max(len(X) - 1, 0)], "none": None,
         "column": Y[:len(X)].reshape(-1, 1)}[labels]
    old, new = _Classifier(), _Classifier()
    with pytest.warns() if labels == "column" and len(X) and len(X.columns) else _nothing():
        want = _outcome(lambda: validate_data(old, checkable_frame(X), y, dtype=None,
                                              ensure_all_finite=False))
    with pytest.warns() if labels == "column" and len(X) and len(X.columns) else _nothing():
        got = _outcome(lambda: validate_columns(new, X, y, reset=True))
    if isinstance(want, tuple) and isinstance(want[0], type):
        assert got == want
        return
    X_got, y_got = got
    assert X_got is X
    np.testing.assert_array_equal(y_got, want[1])
    assert new.n_features_in_ == old.n_features_in_
    np.testing.assert_array_equal(new.feature_names_in_, old.feature_names_in_)
    # predict's check: same columns pass, other columns are refused in the same words
    assert validate_columns(new, X, reset=False) is X
    renamed = X.rename(columns=lambda c: f"{c}_x")
    assert _outcome(lambda: validate_columns(new, renamed, reset=False)) == \
        _outcome(lambda: validate_data(old, checkable_frame(renamed), reset=False,
                                       dtype=None, ensure_all_finite=False))


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def test_arrays_are_checked_as_validate_data_checks_them():
    est, old = _Classifier(), _Classifier()
    rows = [[1, "a"], [2, "b"]]
    X, y = validate_columns(est, rows, ["u", "v"], reset=True)
    X_old, _ = validate_data(old, rows, ["u", "v"], dtype=None, ensure_all_finite=False)
    np.testing.assert_array_equal(X, X_old)
    assert X.dtype == X_old.dtype and y.tolist() == ["u", "v"]
    assert est.n_features_in_ == 2 and not hasattr(est, "feature_names_in_")
    with pytest.raises(ValueError, match="expecting 2 features"):
        validate_columns(est, [[1.0]], reset=False)


def test_sparse_columns_are_checked_dense():
    X = pd.DataFrame({"s": pd.arrays.SparseArray([0, 1, 0, 0, 1, 0]), "t": list("abcabc")})
    assert validate_columns(_Classifier(), X, Y, reset=True)[0] is X
    assert validate_columns(_Classifier(), X[["s"]], Y, reset=True)[0].shape == (N, 1)


def test_complex_columns_are_refused():
    X = pd.DataFrame({"z": np.arange(N) * 1j, "s": list("abcabc")})
    with pytest.raises(ValueError, match=r"Complex data not supported: column\(s\) \['z'\]$"):
        validate_columns(_Classifier(), X, Y, reset=True)


def test_scikit_learn_sees_one_dtype_at_a_time(monkeypatch):
    seen = []

    def spy(real):
        def wrapped(X, *args, **kwargs):
            seen.append(X.dtypes.nunique())
            return real(X, *args, **kwargs)
        return wrapped

    monkeypatch.setattr(checks, "check_array", spy(checks.check_array))
    monkeypatch.setattr(checks, "check_X_y", spy(checks.check_X_y))
    X = pd.DataFrame({"f": np.arange(N, dtype=float), "s": list("abcabc"),
                      "i": np.arange(N), "c": pd.Categorical(list("xyxyxy"))})
    validate_columns(_Classifier(), X, Y, reset=True)
    # float, int, the category (as objects) and the strings (objects or pandas' str)
    assert seen == [1] * checkable_frame(X).dtypes.nunique()
