"""A DataFrame whose column names are not strings (``pd.DataFrame(array)``: 0, 1, ...):
as in scikit-learn, its columns are known by position.  The rules print ``x0 > 0.5``
(IMLI and IMLIB printed ``0 > 0.5``, which reads as arithmetic; CDPR already printed
``x0``), the fit equals the fit on the same values as an array, and the rule set reads
such a frame by position (it looked for a column named ``'0'`` and failed)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from satrules.estimators import CDPRClassifier, IMLIBClassifier, IMLIClassifier

ESTIMATORS = [
    lambda: IMLIClassifier(random_state=0),
    lambda: IMLIBClassifier(random_state=0),
    lambda: CDPRClassifier(random_state=0),
]


def _data(n=240):
    rng = np.random.default_rng(5)
    a = np.round(rng.normal(size=n), 2)
    b = rng.integers(0, 5, n)
    return np.c_[a, b], np.where(a + (b > 2) > 0.5, "yes", "no")


@pytest.mark.parametrize("make", ESTIMATORS)
def test_int_named_frame_fits_as_the_array_does(make):
    values, y = _data()
    frame = pd.DataFrame(values)            # columns 0 and 1
    on_frame, on_array = make().fit(frame, y), make().fit(values, y)
    text = str(on_frame.rules_)
    assert text == str(on_array.rules_)
    assert "x0" in text and re.search(r"(^|[(\s])\d+ (>|<=|=)", text) is None
    assert not hasattr(on_frame, "feature_names_in_")
    np.testing.assert_array_equal(on_frame.predict(frame), on_array.predict(values))
    np.testing.assert_array_equal(on_frame.predict(values), on_frame.predict(frame))
    assert (on_frame.predict(frame) == y).mean() > 0.9


@pytest.mark.parametrize("make", ESTIMATORS[:2])
def test_rule_set_reads_an_int_named_frame_by_position(make):
    values, y = _data()
    frame = pd.DataFrame(values, columns=[7, 3])   # names that are not positions
    est = make().fit(frame, y)
    rules = est.rules_
    np.testing.assert_array_equal(rules.binarize(frame), rules.binarize(values))
    np.testing.assert_array_equal(rules.evaluate(rules.binarize(frame)),
                                  est.predict(frame) == "yes")


def test_string_named_frame_keeps_its_names():
    values, y = _data()
    frame = pd.DataFrame(values, columns=["a", "b"])
    est = IMLIClassifier(random_state=0).fit(frame, y)
    assert "a >" in str(est.rules_) and "x0" not in str(est.rules_)
    assert est.feature_names_in_.tolist() == ["a", "b"]
