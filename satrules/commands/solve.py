"""``satrules solve``: solve a WCNF file and print MaxSAT Evaluation output.

Output: ``c`` comment lines (file, backend, engine, time, remarks), then ``o COST``,
``s OPTIMUM FOUND | SATISFIABLE | UNSATISFIABLE | UNKNOWN`` and the model as one
``v`` line of ``0``/``1`` characters (character ``i`` is variable ``i + 1``).
Exit code 0 for an answer (any ``s`` status), 1 with a message on stderr when
the file is malformed or the backend fails.
"""

from __future__ import annotations

import argparse
import importlib.resources
import sys

import numpy as np

from satrules.backends.registry import solve
from satrules.exceptions import EncodingError
from satrules.ir import Solution, Status
from satrules.ir.wcnf import FORMATS, read_wcnf

__all__ = ["register", "run", "mse_lines"]

_S_LINE = {
    Status.OPTIMAL: "OPTIMUM FOUND",
    Status.FEASIBLE: "SATISFIABLE",
    Status.UNSATISFIABLE: "UNSATISFIABLE",
    Status.UNKNOWN: "UNKNOWN",
    Status.ERROR: "UNKNOWN",
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "solve", help="solve a WCNF file and print MaxSAT Evaluation output",
        description="Solve a weighted MaxSAT file (2022 or legacy WCNF; .gz/.bz2/.xz too) "
                    "and print MaxSAT Evaluation output: c comments, o COST, s STATUS, "
                    "v 0/1 string.")
    p.add_argument("file", nargs="?", help="the WCNF file")
    p.add_argument("--example", action="store_true",
                   help="solve the example bundled with satrules (an IMLI encoding)")
    p.add_argument("--backend", default="auto",
                   help="backend name (see `satrules backends`; default auto)")
    p.add_argument("--solver-cmd", metavar="CMD",
                   help='external MaxSAT solver command, e.g. "rc2.py -vv"; split like a '
                        "shell would split it, but never run through a shell; the WCNF path "
                        "is appended (or replaces {file}); implies --backend wcnf")
    p.add_argument("--timeout", type=float, metavar="S", help="wall-clock limit in seconds")
    p.add_argument("--format", choices=FORMATS, default="2022",
                   help="WCNF dialect written for the external solver (default 2022)")
    p.add_argument("--seed", type=int, help="random seed for engines that take one")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.example == bool(args.file):
        raise EncodingError("give either a WCNF FILE or --example")
    backend, options = args.backend, {}
    if args.solver_cmd is not None:
        if backend not in ("auto", "wcnf"):
            raise EncodingError(f"--solver-cmd runs the 'wcnf' backend; it cannot be combined "
                                f"with --backend {backend}")
        backend, options = "wcnf", {"command": args.solver_cmd, "format": args.format}
    if args.example:
        ref = importlib.resources.files("satrules").joinpath("data", "example.wcnf")
        with importlib.resources.as_file(ref) as path:
            model, name = read_wcnf(path), "example.wcnf (bundled)"
    else:
        model, name = read_wcnf(args.file), args.file
    sol = solve(model, backend=backend, time_limit=args.timeout, seed=args.seed, **options)
    for line in mse_lines(sol, name):
        print(line)
    if sol.status is Status.ERROR:
        print(f"satrules solve: error: backend {sol.backend!r} failed: {sol.message}",
              file=sys.stderr)
        return 1
    return 0


def mse_lines(sol: Solution, name: str = "") -> list[str]:
    """Return the MaxSAT Evaluation output lines for ``sol``.

    Examples
    --------
    >>> from satrules.ir import Model
    >>> m = Model(); x, y = m.new_var(), m.new_var(); m.add_soft([x], 2); m.add_soft([-y], 1)
    >>> for line in mse_lines(solve(m, backend="bruteforce"))[-3:]:
    ...     print(line)
    o 0
    s OPTIMUM FOUND
    v 10
    """
    lines = []
    if name:
        lines.append(f"c file: {name}")
    engine = f" ({sol.engine})" if sol.engine else ""
    lines.append(f"c backend: {sol.backend}{engine}")
    lines.append(f"c wall time: {sol.wall_time:.3f} s")
    if sol.lower_bound is not None and sol.status is not Status.OPTIMAL:
        lines.append(f"c lower bound: {sol.lower_bound}")
    for part in filter(None, (sol.message or "").splitlines()):
        lines.append(f"c {part}")
    if sol.status is Status.ERROR:
        lines.append("c error: the backend failed (see stderr)")
    if sol.status.is_feasible:
        lines.append(f"o {sol.cost}")
    lines.append(f"s {_S_LINE[sol.status]}")
    if sol.status.is_feasible:
        bits = (sol.values[1:].astype(np.uint8) + ord("0")).tobytes().decode("ascii")
        lines.append(f"v {bits}")
    return lines
