"""The satrules intermediate representation (IR).

Encoders write a :class:`Model`; backends read it.  See ``STYLE.md`` §3.
"""

from satrules.ir.constraints import (
    KINDS,
    Cardinality,
    Clause,
    ClauseArray,
    GraphConstraint,
    SoftClause,
)
from satrules.ir.lowering import clique_cover, lower, lower_cardinality, lower_graph, relax_soft
from satrules.ir.model import Model, as_values
from satrules.ir.solution import Solution, Status, make_solution
from satrules.ir.varpool import VarPool

__all__ = [
    "KINDS",
    "Cardinality",
    "Clause",
    "ClauseArray",
    "GraphConstraint",
    "Model",
    "SoftClause",
    "Solution",
    "Status",
    "VarPool",
    "as_values",
    "clique_cover",
    "lower",
    "lower_cardinality",
    "lower_graph",
    "make_solution",
    "read_wcnf",
    "relax_soft",
    "write_wcnf",
]


def __getattr__(name):
    if name in ("read_wcnf", "write_wcnf"):
        from satrules.ir import wcnf

        return getattr(wcnf, name)
    raise AttributeError(f"module 'satrules.ir' has no attribute {name!r}")
