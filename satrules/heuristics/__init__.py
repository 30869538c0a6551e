"""Heuristics for CDPR rule selection: GRA (GraphRules) and GDY (CDPRL-MO with FIG).

They map numpy / scipy.sparse cover matrices (rules x samples, boolean) to
selected rule indices; they import no backend and no IR (STYLE.md §2), so the
exact solver can use their answers as warm-start hints.

* :func:`~satrules.heuristics.gra.gra_select` -- ALGORITHMS.md §5.3.
* :func:`~satrules.heuristics.gdy.gdy_select` -- ALGORITHMS.md §6.1 and §6.4.
* :func:`~satrules.heuristics.local.local_select` -- swap/exchange local search
  seeded by both (always feasible for CDPRL).
* :func:`~satrules.heuristics.bnb.branch_and_bound` -- exact CDPRL search on the
  largest selected rule (numpy only; :func:`satrules.cdpr.solve_exact` runs it).
* :mod:`~satrules.heuristics.submodular` -- cover matrices, overlap rates,
  the relaxed objective ``g`` and the feasibility check shared by both.
"""

from satrules.heuristics.bnb import BnBResult, branch_and_bound
from satrules.heuristics.gdy import GDYResult, gdy_select
from satrules.heuristics.gra import GRAResult, gra_select
from satrules.heuristics.local import LocalResult, local_select
from satrules.heuristics.submodular import (
    as_cover_matrix,
    conflicting_pairs,
    coverage,
    exhaustive_cdprl,
    exhaustive_gdy,
    gdy_objective,
    is_feasible,
    rate_exceeds,
)

__all__ = [
    "BnBResult",
    "GDYResult",
    "GRAResult",
    "LocalResult",
    "as_cover_matrix",
    "branch_and_bound",
    "conflicting_pairs",
    "coverage",
    "exhaustive_cdprl",
    "exhaustive_gdy",
    "gdy_objective",
    "gdy_select",
    "gra_select",
    "is_feasible",
    "local_select",
    "rate_exceeds",
]
