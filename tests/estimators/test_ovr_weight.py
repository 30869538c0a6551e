"""One-vs-rest with many classes: a class's rows weigh more in its own problem.

Pairs of classes that no column tells apart are the case the weight is for: each pair's
rule is right on exactly half the rows it covers, so in the unweighted two-class problem
it saves as many errors as it makes and is turned down, while in the ordered predictions
it gets half of those rows right instead of none.
"""

from __future__ import annotations

import numpy as np
import pytest

from satrules import IMLIBClassifier, IMLIClassifier
from satrules.estimators._base import OVR_POSITIVE_WEIGHT, OVR_WEIGHT_CLASSES


def _paired_classes(n_regions: int, per_class: int = 40):
    """``n_regions`` regions, one indicator column each; every region holds two classes
    in equal numbers, so the best accuracy any rules reach is one half."""
    region = np.repeat(np.arange(n_regions), 2 * per_class)
    X = (region[:, None] == np.arange(n_regions)).astype(int)
    y = 2 * region + np.tile(np.repeat([0, 1], per_class), n_regions)
    return X, y


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_pairs_of_classes_get_their_rule(cls):
    X, y = _paired_classes(4)   # 8 classes
    assert len(np.unique(y)) >= OVR_WEIGHT_CLASSES
    model = cls(random_state=0, n_init=1, null_test=False).fit(X, y)
    assert np.mean(model.predict(X) == y) == pytest.approx(0.5)
    # every class but at most one of each pair has its region as its rule
    described = [c for c, rules in model.rules_.items() if rules.n_rules]
    assert len(described) >= 4


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_without_the_weight_the_pairs_go_unnamed(cls):
    """The hook set to 1 (every row alike, the default before) loses the pairs: the test
    above can fail."""
    X, y = _paired_classes(4)
    unweighted = type("Unweighted", (cls,), {"_ovr_positive": 1.0})
    model = unweighted(random_state=0, n_init=1, null_test=False).fit(X, y)
    assert np.mean(model.predict(X) == y) < 0.5
    assert OVR_POSITIVE_WEIGHT > 1


def test_few_classes_are_not_weighted():
    """Below ``OVR_WEIGHT_CLASSES`` classes each problem keeps the rows' own weights, so
    fits of 3-5 classes are the unweighted ones."""
    X, y = _paired_classes(2)   # 4 classes
    model = IMLIClassifier(random_state=0, n_init=1, null_test=False).fit(X, y)
    unweighted = type("Unweighted", (IMLIClassifier,), {"_ovr_positive": 1.0})
    same = unweighted(random_state=0, n_init=1, null_test=False).fit(X, y)
    assert {c: str(r) for c, r in model.rules_.items()} == \
        {c: str(r) for c, r in same.rules_.items()}
    positive = y == 0
    assert model._problem_weights(None, positive) is None
    weights = np.linspace(0.5, 1.5, len(y))
    assert model._problem_weights(weights, positive) is weights


def test_problem_weights_scale_the_class_rows_only():
    X, y = _paired_classes(3)   # 6 classes
    model = IMLIClassifier(random_state=0, n_init=1, null_test=False, polish=False,
                           n_passes=1).fit(X, y)
    positive = y == 2
    weights = np.linspace(0.5, 1.5, len(y))
    got = model._problem_weights(weights, positive)
    np.testing.assert_allclose(got[positive], OVR_POSITIVE_WEIGHT * weights[positive])
    np.testing.assert_allclose(got[~positive], weights[~positive])
    ones = model._problem_weights(None, positive)
    np.testing.assert_allclose(ones, np.where(positive, OVR_POSITIVE_WEIGHT, 1.0))


@pytest.mark.parametrize("user_weights", [False, True])
def test_partition_solves_weigh_rows_as_the_user_does(monkeypatch, user_weights):
    """The heavier class rows weigh in the whole-training choice and polishing, not in
    the partition solves (:data:`OVR_WEIGHT_IN_SOLVES`): each partition is encoded with
    the user's weights (none: unweighted), while the hook turned on passes the class's
    rows three times heavier, so the test can fail."""
    import satrules.estimators.imli as imli_module
    from satrules.estimators._base import OVR_WEIGHT_IN_SOLVES

    assert OVR_WEIGHT_IN_SOLVES is False
    X, y = _paired_classes(3)   # 6 classes
    sw = np.where(np.arange(len(y)) % 2, 2.0, 1.0) if user_weights else None

    def encoded(cls):
        seen = []
        real = cls._encode_partition

        def spy(self, *args, **kwargs):
            seen.append(kwargs.get("sample_weight"))
            return real(self, *args, **kwargs)

        monkeypatch.setattr(cls, "_encode_partition", spy)
        model = cls(random_state=0, n_init=1, null_test=False, n_passes=1).fit(
            X, y, sample_weight=sw)
        monkeypatch.undo()
        return model, seen

    model, seen = encoded(imli_module.IMLIClassifier)
    assert seen and np.mean(model.predict(X) == y) == pytest.approx(0.5)
    if not user_weights:
        assert all(w is None for w in seen)
    else:   # the user's weights alone: in the ratio 2 : 1 at most
        assert all(w is not None and w.max() <= 2 * w.min() for w in seen)
    weighted = type("Weighted", (imli_module.IMLIClassifier,), {"_ovr_weight_in_solves": True})
    _, heavy = encoded(weighted)
    ratios = {round(w.max() / w.min(), 6) for w in heavy if w is not None}
    assert any(r >= OVR_POSITIVE_WEIGHT - 1e-6 for r in ratios)
