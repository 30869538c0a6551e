"""``satrules decode``: read an external MaxSAT solver's answer back into rules.

The solver output (``s``/``o``/``v`` lines of the MaxSAT Evaluation format;
``v`` as literals or as a bit string) is checked on the WCNF itself — every
hard clause must hold and the ``o`` value must equal the cost recomputed from
the soft clauses — before the layout written by ``satrules encode`` turns it
into a fitted rule set.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "decode", help="turn an external solver's output back into rules",
        description="Check SOLUTION.txt (an MSE-format solver output) against model.wcnf "
                    "and decode it with the layout written by `satrules encode`: print the "
                    "rules and, with --out, save a rule-set file for `satrules predict`.")
    p.add_argument("wcnf", metavar="model.wcnf")
    p.add_argument("solution", metavar="SOLUTION.txt")
    p.add_argument("--layout", required=True, metavar="layout.json")
    p.add_argument("--out", metavar="rules.json", help="save the decoded rule set here")
    p.set_defaults(func=run)


def _load_layout(path: str) -> dict:
    from satrules.commands.encode import LAYOUT_SCHEMA, LAYOUT_VERSION

    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not a JSON layout file ({exc})") from None
    if not isinstance(doc, dict) or doc.get("schema") != LAYOUT_SCHEMA:
        raise ValueError(f"{path}: not a satrules layout file (written by `satrules encode`)")
    if not isinstance(doc.get("schema_version"), int) or doc["schema_version"] > LAYOUT_VERSION:
        raise ValueError(f"{path}: layout schema version {doc.get('schema_version')!r} is not "
                         f"supported (this satrules reads up to {LAYOUT_VERSION}); upgrade "
                         f"satrules")
    return doc


# replays the solver's saved output; the wcnf backend appends its WCNF path (ignored)
_REPLAY = "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())"


def _solution(model, path: str):
    """Check the saved output exactly as a live external solver's output is checked.

    The ``wcnf`` backend runs a tiny "solver" that prints the saved file, then
    parses ``s``/``o``/``v`` and verifies the answer with ``make_solution``
    (hard clauses hold, ``o`` equals the recomputed cost).
    """
    from satrules import solve
    from satrules.ir import Status

    with open(path, "rb"):  # a missing or unreadable file is reported by name
        pass
    # absolute: the replay must not depend on the directory the "solver" runs in
    replay = os.path.abspath(path)
    sol = solve(model, backend="wcnf", command=[sys.executable, "-c", _REPLAY, replay],
                time_limit=None)
    if sol.status is Status.ERROR:
        raise ValueError(f"{path}: {sol.message}")
    if sol.values is None:
        raise ValueError(f"{path}: no model (v line) in the solver output (status "
                         f"{sol.status.value}{': ' + sol.message if sol.message else ''})")
    return sol


def _rules_estimator(doc, est, layout, sol):
    if doc["method"] == "imli":
        from satrules.encoders.imli import decode_imli as decode_fn
    else:
        from satrules.encoders.imlib import decode_imlib as decode_fn
    conditions = est.binarizer_.conditions_
    est.rules_ = decode_fn(layout, sol).named(conditions).simplify().named(conditions)
    return est


def _cdprl_estimator(doc, est, layout, sol, extra):
    from satrules.encoders.cdprl import decode_cdprl

    answer = decode_cdprl(layout, sol)
    pool, y_index = extra["pool"], extra["y_index"]
    weights = extra.get("weights")   # the rows' scaled weights of a weighted encode
    est.result_ = answer
    est.rules_ = pool.subset(np.asarray(answer.selected, dtype=np.intp))
    # the default class, the null test (on the rows held out in the cross-validation the
    # preliminary fit made, too) and the region counts, as fit sets them
    est._conclude(y_index, None if weights is None else np.asarray(weights),
                  held_out=getattr(est, "held_out_test_", None))
    return est


def run(args: argparse.Namespace) -> int:
    from satrules import serialization as ser
    from satrules.commands.encode import sha256
    from satrules.ir.wcnf import read_wcnf
    from satrules.report import rules_text

    doc = _load_layout(args.layout)
    if doc.get("wcnf_sha256") != sha256(args.wcnf):
        raise ValueError(f"{args.layout} was written for a different WCNF file than "
                         f"{args.wcnf} (SHA-256 differs); re-run `satrules encode`")
    model = read_wcnf(args.wcnf)
    sol = _solution(model, args.solution)
    try:
        est = ser.decode_estimator(doc["estimator"])
        layout = ser._decode(doc["layout"])
        extra = ser._decode(doc.get("extra", {}))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{args.layout}: invalid layout file ({exc})") from None
    if doc["method"] == "cdprl":
        est = _cdprl_estimator(doc, est, layout, sol, extra)
    else:
        est = _rules_estimator(doc, est, layout, sol)
    est.solution_ = sol
    print(rules_text(est))
    print(f"\nsolver answer: {sol.status.value}, cost {sol.cost} (checked on {args.wcnf})")
    if args.out:
        ser.save(est, args.out, extra={"command": "decode", "data": doc.get("data"),
                                       "target": doc.get("target"), "method": doc["method"]})
        print(f"saved {args.out}", file=sys.stderr)
    return 0
