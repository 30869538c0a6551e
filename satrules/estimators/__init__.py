"""scikit-learn estimators.  ``ALL`` lists every estimator class (for the estimator checks)."""

from __future__ import annotations

import importlib

_MODULES = {
    "IMLIClassifier": "satrules.estimators.imli",
    "IMLIBClassifier": "satrules.estimators.imlib",
    "CDPRClassifier": "satrules.estimators.cdpr",
}


def _all() -> list[type]:
    found = []
    for name, module in _MODULES.items():
        try:
            found.append(getattr(importlib.import_module(module), name))
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
    return found


#: Every estimator class satrules provides.
ALL = _all()

__all__ = ["ALL", *[cls.__name__ for cls in ALL]]


def __getattr__(name):
    if name in _MODULES:
        return getattr(importlib.import_module(_MODULES[name]), name)
    raise AttributeError(name)
