"""scikit-learn's estimator checks over every estimator in ``satrules.estimators.ALL``.

Each estimator is checked with small, fast settings (rc2 when available, small
partitions); the expected failures are the ones each class lists, with a reason,
in its ``_EXPECTED_FAILED_CHECKS``.
"""

from __future__ import annotations

from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from satrules.backends.registry import available_backends
from satrules.estimators import ALL

_BACKEND = "rc2" if "rc2" in available_backends() else "auto"
#: fast settings, applied when the estimator has the parameter
_FAST = {"backend": _BACKEND, "partition_size": 32, "n_thresholds": 2, "n_rules": 1,
         "n_estimators": 5, "max_depth": 3}


def _instances():
    out = []
    for cls in ALL:
        est = cls()
        params = est.get_params()
        out.append(est.set_params(**{k: v for k, v in _FAST.items() if k in params}))
        if "thresholds" in params:     # the labels reach the binarizer in every check
            out.append(clone(out[-1]).set_params(thresholds="both"))
        if "alpha" in params:   # CDPR with a fixed alpha (the default cross-validates it)
            out.append(clone(out[-1]).set_params(alpha=0.7))
    return out


def _expected_failures(estimator):
    return dict(getattr(estimator, "_EXPECTED_FAILED_CHECKS", {}))


@parametrize_with_checks(_instances(), expected_failed_checks=_expected_failures)
def test_sklearn_compatible(estimator, check):
    """Every estimator passes scikit-learn's API checks (expected failures listed with reasons)."""
    check(estimator)
