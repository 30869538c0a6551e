"""True/False feature columns: read as the levels ``False`` and ``True`` by all three
estimators, printed ``flag = True`` (not ``flag = 1`` or ``flag > 0``), with or without
missing values, and matched at predict by a batch that writes them 0/1 or as text."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from satrules.binarize import ThresholdBinarizer
from satrules.estimators import CDPRClassifier, IMLIBClassifier, IMLIClassifier

ESTIMATORS = [
    lambda: IMLIClassifier(random_state=0),
    lambda: IMLIBClassifier(random_state=0),
    lambda: CDPRClassifier(random_state=0),
]


def _data(n=240, missing=False, dtype=bool):
    rng = np.random.default_rng(3)
    flag = rng.random(n) < 0.5
    g = np.round(rng.random(n) * 10, 1)
    X = pd.DataFrame({"flag": flag, "g": g})
    y = np.where(flag & (g > 3), "yes", "no")
    if missing:
        X["flag"] = X["flag"].astype(object)
        X.loc[:5, "flag"] = None
    if dtype == "boolean":
        X["flag"] = X["flag"].astype("boolean")
    return X, y


@pytest.mark.parametrize("missing", [False, True])
def test_binarizer_reads_true_false_as_levels(missing):
    X, _ = _data(missing=missing)
    tb = ThresholdBinarizer().fit(X)
    names = [name for name in tb.get_feature_names_out() if name.startswith("flag")]
    if missing:   # levels False, True and missing: one column each, no thresholds
        assert tb.feature_kinds_["flag"] == "categorical"
        assert names == ["flag = False", "flag = True", "flag is missing"]
    else:
        assert tb.feature_kinds_["flag"] == "binary"
        assert names == ["flag = True"]
    Xb = tb.transform(X)
    col = names.index("flag = True")
    first = [c for c, name in enumerate(tb.get_feature_names_out()) if name.startswith("flag")]
    assert Xb[:, first[col]].tolist() == (X["flag"] == True).astype(int).tolist()  # noqa: E712


@pytest.mark.parametrize("make", ESTIMATORS)
@pytest.mark.parametrize("missing", [False, True])
def test_rules_print_true_false_and_read_other_spellings(make, missing):
    X, y = _data(missing=missing)
    model = make().fit(X, y)
    text = str(model.rules_)
    assert "flag" in text   # the label depends on it
    assert "flag = 1" not in text and "flag != 1" not in text and "flag > 0" not in text
    assert "flag <= 0" not in text
    assert "True" in text or "False" in text
    expected = model.predict(X)
    as_numbers = X.assign(flag=X["flag"].map({True: 1, False: 0}))
    as_text = X.assign(flag=X["flag"].map({True: "TRUE", False: "FALSE"}).astype(object))
    assert model.predict(as_numbers).tolist() == expected.tolist()
    assert model.predict(as_text).tolist() == expected.tolist()


@pytest.mark.parametrize("make", ESTIMATORS)
def test_nullable_boolean_column(make):
    """pandas' ``boolean`` dtype with <NA> reads as the object column with None."""
    X, y = _data(missing=True, dtype="boolean")
    X_obj, _ = _data(missing=True)
    assert str(make().fit(X, y).rules_) == str(make().fit(X_obj, y).rules_)


def test_cdpr_bool_beside_numbers_is_not_cast_to_float():
    """scikit-learn's input check casts a ``bool`` column beside numbers to 0.0/1.0; the
    rules must still name the levels."""
    X, y = _data()
    model = CDPRClassifier(random_state=0).fit(X, y)
    assert model.encoder_.kinds[0] == "categorical"
    assert model.encoder_.categories[0].tolist() == ["False", "True"]
