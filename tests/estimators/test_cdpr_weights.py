"""Row weights in CDPR (``sample_weight``, ``class_weight``).

A row of weight w counts as w rows in the candidates' class and accuracy, the coverage
every method maximises (checked against the selection on the rows' integer weights),
the default class, the null test and the region counts; equal weights give the
unweighted fit exactly and rows of weight 0 are rows left out.
"""

from __future__ import annotations

import numpy as np
import pytest

from satrules import CDPRClassifier
from satrules.estimators._weights import partition_weights
from tests.estimators.test_proba import table
from tests.estimators.test_weights import quiet_fit, rare_class_table

METHODS = ["gra", "gdy", "local", "exact"]


def fast(**params):
    return CDPRClassifier(n_estimators=8, max_depth=3, random_state=0,
                          **{"backend": "rc2", **params})


def state(est):
    return str(est.rules_), est.default_, est.region_counts_.tolist()


@pytest.mark.parametrize("method", METHODS)
def test_equal_weights_give_the_unweighted_fit(method):
    X, y = table(1, 150, 3, 0.2)
    plain = quiet_fit(fast(method=method), X, y)
    for kw in ({"sample_weight": np.full(len(y), 2.5)}, {"sample_weight": 3}):
        est = quiet_fit(fast(method=method), X, y, **kw)
        assert state(est) == state(plain) and not est.weighted_
    est = quiet_fit(fast(method=method, class_weight={"k0": 2, "k1": 2, "k2": 2}), X, y)
    assert state(est) == state(plain) and not est.weighted_


@pytest.mark.parametrize("method", ["gra", "exact"])
def test_rows_of_weight_zero_are_rows_left_out(method):
    X, y = table(2, 150, 2, 0.2)
    w = np.where(np.arange(len(y)) % 3 == 0, 0.0, 1.0)
    keep = w > 0
    weighted = quiet_fit(fast(method=method), X, y, sample_weight=w)
    dropped = quiet_fit(fast(method=method), X[keep], y[keep])
    assert state(weighted) == state(dropped)
    assert np.array_equal(weighted.predict(X), dropped.predict(X))


@pytest.mark.parametrize("method", METHODS)
def test_balanced_weights_find_a_rare_class(method):
    """Unweighted, x0 = 1 holds on 40 rare and 60 common rows: right on 40 % as "rare",
    below alpha, so every row is "common".  Balanced, a rare row weighs 9 common ones:
    x0 = 1 is right on 86 % of its weight as "rare" and is selected."""
    X, y = rare_class_table()
    plain = quiet_fit(fast(method=method), X, y)
    assert (plain.predict(X) == "common").all()
    balanced = quiet_fit(fast(method=method, class_weight="balanced"), X, y)
    assert balanced.weighted_
    assert np.array_equal(balanced.predict(X) == "rare", X["x0"].to_numpy() == 1)
    w = np.where(y == "rare", 9.0, 1.0)
    assert np.array_equal(quiet_fit(fast(method=method), X, y, sample_weight=w).predict(X),
                          balanced.predict(X))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_weighted_selection_counts_and_regions(method, seed):
    """The selection's coverage is the integer-weighted coverage of its rules; the
    candidates' accuracies and labels, the default class and the region counts are
    weight sums (checked row by row)."""
    X, y = table(seed, 120, 3, 0.3)
    w = np.random.default_rng(seed).choice([0.5, 1.0, 4.0], len(y))
    est = quiet_fit(fast(method=method, null_test=False), X, y, sample_weight=w)
    scaled = w / w.mean()
    ints = partition_weights(scaled)
    covers = est.rules_.covers.toarray()
    assert est.weighted_
    assert est.result_.coverage == int(ints[covers.any(axis=0)].sum())
    y_idx = np.searchsorted(est.classes_, y)
    for r in range(len(est.rules_)):
        sums = np.bincount(y_idx[covers[r]], weights=scaled[covers[r]], minlength=3)
        assert est.rules_.labels[r] == sums.argmax()
        assert est.rules_.accuracy[r] == pytest.approx(sums.max() / sums.sum())
        assert est.rules_.accuracy[r] >= est.alpha_
    uncovered = ~covers.any(axis=0)
    rows = uncovered if uncovered.any() else np.ones(len(y), dtype=bool)
    sums = np.bincount(y_idx[rows], weights=scaled[rows], minlength=3)
    assert est.default_ == est.classes_[sums.argmax()]
    regions = est._regions(est.rules_.covers)
    for region in range(est._n_regions()):
        for k in range(3):
            assert est.region_counts_[region, k] == pytest.approx(
                scaled[(regions == region) & (y_idx == k)].sum())


def test_weighted_null_test_uses_the_heaviest_class():
    """x says nothing of y ("a" on 70 % of the rows either side).  With "b" rows weighing
    4, both rules of x predict "b" (63 % of their weight); the constant of the null test
    is then "b", the heaviest class, not "a", the most frequent: the rules change no
    prediction, so they are turned down and every row gets "b"."""
    x = np.repeat([0.0, 1.0], 150)
    y = np.tile(np.r_[["a"] * 105, ["b"] * 45], 2)
    w = np.where(y == "b", 4.0, 1.0)
    est = quiet_fit(fast(alpha=0.6), x[:, None], y, sample_weight=w)
    test = est.null_test_
    assert (test["fixed"], test["broken"], test["training_passed"], test["passed"]) == \
        (0.0, 0.0, False, False)
    assert len(est.rules_) == 0 and len(est.rejected_rules_) > 0
    assert (est.predict(x[:, None]) == "b").all()
    plain = quiet_fit(fast(alpha=0.6), x[:, None], y)
    assert (plain.predict(x[:, None]) == "a").all()


def test_weighted_model_survives_a_file(tmp_path):
    X, y = rare_class_table()
    est = quiet_fit(fast(class_weight="balanced"), X, y)
    path = tmp_path / "model.json"
    est.save(path)
    loaded = CDPRClassifier.load(path)
    assert np.array_equal(loaded.predict(X), est.predict(X))
    assert np.allclose(loaded.predict_proba(X), est.predict_proba(X))


def test_a_class_of_weight_zero_keeps_its_place():
    """A class whose rows all weigh 0 is never predicted, and the other classes' rules
    keep their names (the miner numbers only the classes it sees)."""
    X, y = table(0, 150, 3, 0.1)
    w = np.where(y == "k1", 0.0, 1.0)
    est = quiet_fit(fast(), X, y, sample_weight=w)
    kept = y != "k1"
    dropped = quiet_fit(fast(), X[kept], y[kept])
    assert list(est.classes_) == ["k0", "k1", "k2"] and "k1" not in est.predict(X)
    assert str(est.rules_) == str(dropped.rules_)
    assert np.array_equal(est.predict(X), dropped.predict(X))
    with pytest.raises(ValueError, match="leave rows of one class only"):
        fast().fit(X, y, sample_weight=(y == "k0").astype(float))


@pytest.mark.parametrize("kw, match", [
    ({"class_weight": "equal"}, "class_weight must be None, 'balanced' or a dict"),
    ({"class_weight": {"k9": 2}}, "class_weight names 'k9', not a class of y"),
    ({"sample_weight": np.r_[1.0, -1.0, np.ones(38)]}, "non-negative and finite; row 1"),
    ({"sample_weight": np.zeros(40)}, "weights are all zero"),
])
def test_bad_weights_are_refused(kw, match):
    X, y = table(0, 40, 2, 0.0)
    params = {k: v for k, v in kw.items() if k == "class_weight"}
    fit_kw = {k: v for k, v in kw.items() if k == "sample_weight"}
    with pytest.raises(ValueError, match=match):
        fast(**params).fit(X, y, **fit_kw)


@pytest.mark.parametrize("method", ["gra", "exact"])
def test_hist_miner_takes_weights(method):
    """miner="hist" (binned boosting): equal weights give the unweighted fit, and balanced
    weights find the rare class as the other miners do."""
    X, y = table(1, 150, 3, 0.2)
    plain = quiet_fit(fast(method=method, miner="hist"), X, y)
    est = quiet_fit(fast(method=method, miner="hist"), X, y, sample_weight=np.full(len(y), 2.5))
    assert state(est) == state(plain)
    X, y = rare_class_table()
    balanced = quiet_fit(fast(method=method, miner="hist", class_weight="balanced"), X, y)
    assert np.array_equal(balanced.predict(X) == "rare", X["x0"].to_numpy() == 1)
