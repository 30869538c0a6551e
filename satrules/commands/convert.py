"""``satrules convert``: rewrite a WCNF file in the 2022 or the legacy dialect."""

from __future__ import annotations

import argparse
import sys

from satrules.ir.wcnf import FORMATS, read_wcnf, write_wcnf
from satrules.serialization import atomic_write

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert", help="convert a WCNF file between the 2022 and the legacy format",
        description="Read a WCNF file (either dialect, .gz/.bz2/.xz too) and write it in "
                    "the chosen dialect; OUT is replaced atomically if it is a regular file "
                    "(a device, FIFO or the target of a link is written, not replaced; "
                    "'-' writes to stdout).")
    p.add_argument("input", metavar="IN", help="WCNF file to read")
    p.add_argument("output", metavar="OUT", help="file to write, or - for stdout")
    p.add_argument("--format", choices=FORMATS, default="2022",
                   help="dialect to write (default 2022)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    model = read_wcnf(args.input)
    if args.output == "-":
        write_wcnf(model, sys.stdout, format=args.format)
        return 0
    # atomic for a regular file; devices, FIFOs and links are written through, not replaced
    with atomic_write(args.output, "wb") as fh:
        write_wcnf(model, fh, format=args.format)
    s = model.stats()
    print(f"c wrote {args.output} ({args.format}): {s['n_vars']} variables, "
          f"{s['n_hard']} hard, {s['n_soft']} soft clauses", file=sys.stderr)
    return 0
