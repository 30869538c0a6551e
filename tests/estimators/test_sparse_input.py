"""A scipy sparse ``X`` is read as the dense array it stands for, by every estimator.

scikit-learn's ``OneHotEncoder`` returns a sparse matrix by default, so
``make_pipeline(OneHotEncoder(), IMLIClassifier())`` hands the learner sparse input;
it was refused ("Sparse data was passed for X, but dense data is required").
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from satrules.binarize import ThresholdBinarizer
from satrules.estimators.cdpr import CDPRClassifier
from satrules.estimators.imli import IMLIClassifier
from satrules.estimators.imlib import IMLIBClassifier

LEARNERS = {
    "imli": lambda: IMLIClassifier(backend="rc2", partition_size=32, random_state=0),
    "imlib": lambda: IMLIBClassifier(backend="rc2", partition_size=32, random_state=0),
    "cdpr": lambda: CDPRClassifier(alpha=0.7, random_state=0),
}


def _data(seed=0, n=120):
    rng = np.random.default_rng(seed)
    X = np.where(rng.random((n, 6)) < 0.7, 0.0, rng.integers(1, 4, (n, 6)).astype(float))
    y = (X[:, 0] > 0) & (X[:, 1] < 2) | (X[:, 2] == 3)
    return X, y.astype(int)


def _text(est):
    return est.to_text() if hasattr(est, "to_text") else str(est.rules_)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_sparse_fit_and_predict_match_dense(name, fmt):
    """Fitted on a sparse matrix (any format), a learner finds the rules it finds on the
    dense array, and predicts the same on sparse and dense rows."""
    X, y = _data()
    Xs = sp.csr_matrix(X).asformat(fmt)
    dense, sparse = LEARNERS[name]().fit(X, y), LEARNERS[name]().fit(Xs, y)
    assert _text(sparse) == _text(dense)
    np.testing.assert_array_equal(sparse.predict(Xs), dense.predict(X))
    np.testing.assert_array_equal(dense.predict(Xs), dense.predict(X))
    np.testing.assert_allclose(sparse.predict_proba(Xs), dense.predict_proba(X))


def test_sparse_array_class_and_binarizer():
    """scipy's newer sparse *array* classes work as the matrices do, in the binarizer too."""
    X, y = _data(1)
    Xs = sp.csr_array(X)
    np.testing.assert_array_equal(ThresholdBinarizer().fit(Xs, y).transform(Xs),
                                  ThresholdBinarizer().fit(X, y).transform(X))
    est = IMLIClassifier(backend="rc2", partition_size=32, random_state=0)
    np.testing.assert_array_equal(est.fit(Xs, y).predict(Xs), est.fit(X, y).predict(X))


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_pipeline_after_one_hot_encoder(name):
    """OneHotEncoder's default (sparse) output feeds every learner; the rules then read
    the encoded columns, and the pipeline's accuracy is that of the dense encoding."""
    rng = np.random.default_rng(2)
    colour = rng.choice(["red", "green", "blue"], 150)
    size = rng.choice(["S", "M", "L", "XL"], 150)
    X = pd.DataFrame({"colour": colour, "size": size})
    y = ((colour == "red") | (size == "XL")).astype(int)
    sparse = make_pipeline(OneHotEncoder(), LEARNERS[name]()).fit(X, y)
    dense = make_pipeline(OneHotEncoder(sparse_output=False), LEARNERS[name]()).fit(X, y)
    assert sp.issparse(sparse[0].transform(X))
    np.testing.assert_array_equal(sparse.predict(X), dense.predict(X))
    assert sparse.score(X, y) == dense.score(X, y) == 1.0
