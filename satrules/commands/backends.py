"""``satrules backends``: list backends with availability, versions and the ``auto`` rule."""

from __future__ import annotations

import argparse

from satrules.backends.registry import choose_backend, describe_backends


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("backends", help="list solver backends and their availability")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rows = describe_backends()
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        state = f"available  {r['version']}" if r["available"] else f"missing    {r['install']}"
        print(f"{r['name']:<{width}}  {state}  native: {', '.join(r['native'])}")
    print()
    print(f"auto: {choose_backend.__doc__.split('Rule:', 1)[-1].strip()}")
    return 0
