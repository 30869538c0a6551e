"""``satrules backends``: list backends with availability, versions and the ``auto`` rule."""

from __future__ import annotations

import argparse
import inspect

from satrules.backends.registry import choose_backend, describe_backends
from satrules.exceptions import BackendUnavailableError
from satrules.ir import Model


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("backends", help="list solver backends and their availability")
    p.set_defaults(func=run)


def auto_rule_text() -> str:
    """Return the ``Rule:`` section of :func:`choose_backend`'s docstring."""
    doc = inspect.getdoc(choose_backend) or ""
    rule = doc.split("Rule:", 1)[-1].split("Examples\n", 1)[0]
    return inspect.cleandoc(rule)


def _auto_examples() -> list[tuple[str, str]]:
    """What ``auto`` picks here for a clause-only model (with and without a time limit) and
    for a model with a graph."""
    clause = Model()
    xs = clause.new_vars("x", 2)
    clause.add_hard(xs)
    clause.add_soft_units(-xs, 1)
    graph = Model()
    ys = graph.new_vars("y", 2)
    graph.add_graph(ys, [[0, 1]])
    graph.add_soft_units(ys, 1)
    picks = []
    cases = (("clauses + soft", clause, None), ("clauses + soft, time limit", clause, 60.0),
             ("with a conflict graph", graph, None))
    for label, model, limit in cases:
        try:
            picks.append((label, choose_backend(model, limit)))
        except BackendUnavailableError as exc:
            picks.append((label, f"none ({exc})"))
    return picks


def run(args: argparse.Namespace) -> int:
    rows = describe_backends()
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        state = f"available  {r['version']}" if r["available"] else f"missing    {r['install']}"
        print(f"{r['name']:<{width}}  {state}  native: {', '.join(r['native'])}")
    print()
    print("auto rule:")
    for line in auto_rule_text().splitlines():
        print(f"  {line}")
    print("auto picks here:")
    for label, name in _auto_examples():
        print(f"  {label}: {name}")
    return 0
