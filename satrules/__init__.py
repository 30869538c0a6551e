"""satrules: interpretable IF-THEN rule sets learned with exact and heuristic optimisation.

One intermediate representation (:class:`Model`) of weighted hard/soft clauses,
cardinality and graph constraints; formulations (IMLI, IMLIB, CDPRL) write it,
backends (RC2, CP-SAT, HiGHS, hermax, any external MaxSAT solver) solve it,
and every answer is re-checked by the IR before it is returned.

Examples
--------
>>> import satrules
>>> m = satrules.Model()
>>> x, y = m.new_var("x"), m.new_var("y")
>>> m.add_hard([x, y]); m.add_soft([-x], 2); m.add_soft([-y], 3)
>>> sol = satrules.solve(m, backend="bruteforce")
>>> sol.status is satrules.Status.OPTIMAL, sol.cost
(True, 2)
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

# public name -> module that defines it (imported on first use, so `import
# satrules` stays light and never needs an optional engine)
_EXPORTS = {
    "Model": "satrules.ir",
    "Status": "satrules.ir",
    "Solution": "satrules.ir",
    "read_wcnf": "satrules.ir.wcnf",
    "write_wcnf": "satrules.ir.wcnf",
    "solve": "satrules.backends.registry",
    "available_backends": "satrules.backends.registry",
    "get_backend": "satrules.backends.registry",
    "save": "satrules.serialization",
    "load": "satrules.serialization",
    "SatrulesError": "satrules.exceptions",
    "BackendError": "satrules.exceptions",
    "BackendUnavailableError": "satrules.exceptions",
    "EncodingError": "satrules.exceptions",
    "ThresholdBinarizer": "satrules.binarize",
    "Literal": "satrules.rules",
    "Rule": "satrules.rules",
    "RuleSet": "satrules.rules",
    "IMLIClassifier": "satrules.estimators.imli",
    "IMLIBClassifier": "satrules.estimators.imlib",
    "CDPRClassifier": "satrules.estimators.cdpr",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'satrules' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(__all__)
