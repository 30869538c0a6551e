"""The single name -> backend table, :func:`get_backend`, :func:`available_backends`, :func:`solve`.

Backends are listed by canonical name with the module that defines them;
modules are imported only when a backend is asked for, so ``import satrules``
never needs an engine.  ``backend="auto"`` asks :func:`choose_backend`, which
picks per model by the rule documented there.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

from satrules.backends.base import check_time_limit
from satrules.exceptions import BackendUnavailableError, EncodingError
from satrules.ir import Model, Solution

__all__ = ["BACKENDS", "WEIGHT_LIMITS", "available_backends", "choose_backend", "get_backend",
           "solve", "describe_backends"]

#: canonical name -> "module:Class", in the documented order of preference.
BACKENDS: dict[str, str] = {
    "rc2": "satrules.backends.rc2:RC2Backend",
    "cpsat": "satrules.backends.cpsat:CPSATBackend",
    "highs": "satrules.backends.highs:HiGHSBackend",
    "hermax": "satrules.backends.hermax:HermaxBackend",
    "wcnf": "satrules.backends.wcnf_external:ExternalWCNFBackend",
    "portfolio": "satrules.backends.portfolio:PortfolioBackend",
    "staged": "satrules.backends.staged:StagedBackend",
    "bruteforce": "satrules.backends.bruteforce:BruteForceBackend",
}

#: Backends that need a user-supplied command or other configuration to run, or that
#: start processes, so ``auto`` never picks them.
_NEEDS_CONFIG = {"wcnf", "portfolio"}


def _load(name: str):
    module, _, cls = BACKENDS[name].partition(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:  # the backend module itself is not part of this build
            return None
        raise
    return getattr(mod, cls)


def get_backend(name: str):
    """Return the backend class registered under ``name``.

    Raises
    ------
    ValueError
        For an unknown name (the message lists the available backends).
    BackendUnavailableError
        When the backend's engine is not installed (the message gives the install line).
    """
    if name not in BACKENDS:
        raise EncodingError(
            f"unknown backend {name!r}; available: {', '.join(available_backends()) or 'none'}"
            f" (or 'auto')"
        )
    cls = _load(name)
    if cls is None:
        raise BackendUnavailableError(f"backend {name!r} is not part of this satrules build")
    if not cls.available():
        raise BackendUnavailableError(
            f"backend {name!r} is not available: {cls.install}"
        )
    return cls


def available_backends(exclude: Iterable[str] = ()) -> list[str]:
    """Return the names of the backends whose engines are installed, in registry order.

    Examples
    --------
    >>> "bruteforce" in available_backends()
    True
    """
    exclude = set(exclude)
    names = []
    for name in BACKENDS:
        if name in exclude:
            continue
        cls = _load(name)
        if cls is not None and cls.available():
            names.append(name)
    return names


#: MaxSAT engines for clause-heavy models, fastest first (benchmarks/results/engines.md).
_MAXSAT_ORDER = ("rc2", "hermax", "cpsat", "bruteforce")
#: Engines for models with graph constraints (coverage-style), fastest first.
_GRAPH_ORDER = ("highs", "cpsat", "hermax", "rc2", "bruteforce")
#: Largest total soft weight each engine represents exactly (absent: unbounded).
WEIGHT_LIMITS = {"highs": 2**53, "hermax": 2**63 - 1}


def _usable(name: str, weight_sum: int) -> bool:
    limit = WEIGHT_LIMITS.get(name)
    if limit is not None and weight_sum > limit:
        return False
    cls = _load(name)
    return cls is not None and cls.available()


def choose_backend(model: Model | None = None, time_limit: float | None = None,
                   selection: bool | None = None) -> str:
    """Return the backend ``"auto"`` uses for ``model`` (solved within ``time_limit``).

    ``selection=True`` says that ``model`` is a selection model (CDPRL) even when it has
    no conflict edge (a large β); ``None`` infers it from the graph constraints.

    Rule:
      models with a conflict graph (CDPRL-style: graph + cardinality + soft units), and
      selection models without one
        -> highs, else cpsat, hermax, rc2, bruteforce;
      all other models (clause-heavy MaxSAT: IMLI, IMLIB)
        without a time limit -> rc2, else hermax (UWrMaxSat), cpsat, bruteforce;
        with a time limit -> staged when rc2 and cpsat are both installed (RC2 for
        10 % of the limit, then UWrMaxSat, if hermax is installed, for half of
        the rest, then CP-SAT warm-started with the best assignment so far; best
        bound kept), else the order above;
      engines are skipped when not installed, and when the soft weights exceed what
      they represent exactly (highs: 2**53, hermax: 2**63 - 1).
      Evidence at a 60 s limit (benchmarks/results/engines.md, docs/backends.md):
      HiGHS with clique rows proved all 8 CDPRL optima (pima, biopsy, titanic,
      credit; beta 0.1 and 0.6) in at most 3.4 s, no other configuration more
      than 3 of 8.  A CDPRL model without conflict edges (Ecdat/Benefits,
      alpha 0.6, gamma 6) had RC2 still searching after about 15 CPU minutes, where
      HiGHS proved the optimum in 2-3.5 minutes (benchmarks/bench_cdpr_no_edges.py).
      On IMLI/IMLIB no single engine wins: RC2 is the fastest on easy partitions
      (0.1-4.7 s; on the learners' 16-64-row partitions a median 7x faster than
      CP-SAT and 3.7x faster than UWrMaxSat, benchmarks/results/imli_c.md) but its
      answer at a time limit is poor
      (IMLI pima n=150: cost 484 vs optimum 218); UWrMaxSat proved the most
      (9 of 12 IMLI/IMLIB partitions) but its answers at the limit were the
      worst (IMLI pima n=300: 1960 vs CP-SAT's 578); CP-SAT kept the best
      incumbents where nobody proved the optimum.  staged matched the most
      proofs (IMLI 4 of 7, IMLIB 5 of 5) with incumbents near CP-SAT's (606 there).

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); x = m.new_vars("x", 2); m.add_graph(x, [[0, 1]]); m.add_soft_units(x, 1)
    >>> choose_backend(m) in available_backends()
    True
    """
    has_graph = (model is not None and bool(model.graphs)) if selection is None \
        else bool(selection)
    weight_sum = model.soft_weight_sum() if model is not None else 0
    if (not has_graph and time_limit is not None and _usable("rc2", weight_sum)
            and _usable("cpsat", weight_sum)):
        return "staged"
    for name in _GRAPH_ORDER if has_graph else _MAXSAT_ORDER:
        if _usable(name, weight_sum):
            return name
    raise BackendUnavailableError("no backend is available; pip install python-sat ortools")


def describe_backends() -> list[dict[str, Any]]:
    """Return one row per registered backend: name, availability, version, native kinds."""
    rows = []
    for name in BACKENDS:
        cls = _load(name)
        ok = cls is not None and cls.available()
        rows.append({
            "name": name,
            "available": ok,
            "version": cls.version() if ok else "",
            "native": sorted(cls.native) if cls is not None else [],
            "install": cls.install if cls is not None else "",
        })
    return rows


def solve(model: Model, backend: str = "auto", *, time_limit: float | None = None,
          seed: int | None = None, hint: Mapping | None = None, **options: Any) -> Solution:
    """Solve ``model`` with the named backend and return a verified :class:`Solution`.

    Parameters
    ----------
    model : Model
    backend : str
        A registry name (see :func:`available_backends`) or ``"auto"``.
    time_limit : float, optional
        Wall-clock seconds; at the limit the best assignment found is returned
        as FEASIBLE, or UNKNOWN without one.  ``None`` or ``float("inf")``: no limit.
    seed : int, optional
        Random seed for engines that take one.
    hint : mapping, optional
        ``{var or key: bool}`` warm start for engines that take hints.
    **options
        Engine options of the chosen backend.

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); x = m.new_var("x"); m.add_soft([x], 1); m.add_soft([-x], 3)
    >>> sol = solve(m, backend="bruteforce")
    >>> sol.status.value, sol.cost, sol["x"]
    ('OPTIMAL', 1, False)
    """
    time_limit = check_time_limit(time_limit)
    name = choose_backend(model, time_limit) if backend == "auto" else backend
    cls = get_backend(name)
    return cls(**options).solve(model, time_limit=time_limit, seed=seed, hint=hint)
