"""The ``satrules`` command line.

Each subcommand lives in its own module of :mod:`satrules.commands` with a
``register(subparsers)`` function that adds its parser and sets ``func``
(``func(args) -> int``).  ``main`` discovers them, so adding a command touches
no other file.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import pkgutil
import re
import shlex
import signal
import sys
import threading
import warnings
from collections.abc import Iterator

import satrules
import satrules.commands
from satrules.exceptions import SatrulesError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser with every discovered subcommand."""
    parser = argparse.ArgumentParser(
        prog="satrules",
        description="Learn interpretable rule sets and solve MaxSAT models.",
    )
    parser.add_argument("--version", action="version", version=f"satrules {satrules.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = sorted(m.name for m in pkgutil.iter_modules(satrules.commands.__path__)
                   if not m.name.startswith("_"))
    for name in names:
        importlib.import_module(f"satrules.commands.{name}").register(sub)
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: unwind like Ctrl-C so every cleanup path runs.

    A subclass of :class:`KeyboardInterrupt` because that is what the backends'
    clean-up code (kill the solver or the portfolio members, remove temporary
    files) already handles; the default action of these signals would end the
    process at once and leave external solvers running.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def _terminate_like_interrupt() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into :class:`Terminated` while a command runs."""
    if threading.current_thread() is not threading.main_thread():
        yield  # handlers can only be installed from the main thread
        return
    wanted = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    old = {}
    try:
        for sig in wanted:
            if signal.getsignal(sig) is signal.SIG_IGN:
                continue  # nohup and friends: an ignored signal stays ignored
            old[sig] = signal.signal(sig, _raise_terminated)
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def _plain_warnings(command: str):
    """Show warnings as ``satrules CMD: warning: ...`` lines, not as library source lines,
    with their advice for pandas users given as this command line's options
    (:func:`_command_line_hint`)."""
    original = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        print(f"satrules {command}: warning: {_command_line_hint(str(message), command)}",
              file=file or sys.stderr)

    warnings.showwarning = show
    try:
        yield
    finally:
        warnings.showwarning = original


def _flag_names(message: str) -> str:
    """``message``, when it opens with an estimator parameter ``satrules learn`` sets by a
    flag (the estimators' checks do: ``rule_class applies to two classes``), opening with
    that flag instead (``--rule-class``).  Elsewhere a name stays (a list of parameters
    for ``--param``).

    >>> _flag_names("rule_class applies to two classes"), _flag_names("see n_rules")
    ('--rule-class applies to two classes', 'see n_rules')
    """
    from satrules.commands.learn import _PARAM_FLAGS

    for flag, dest, _, _ in _PARAM_FLAGS:
        if re.match(rf"{re.escape(dest)}(?![\w=])", message):
            return flag + message[len(dest):]
    return message


def _command_line_hint(message: str, command: str | None = None) -> str:
    """``message`` with its advice for pandas users (``pandas.read_csv(..., na_values=['.'])``,
    ``X['grade'] = X['grade'].astype('category')``) given as the option that does the same
    here (``--na-values .``, ``--categorical grade``), and for ``learn`` the estimator
    parameters its flags set named by their flags (:func:`_flag_names`)."""
    if command == "learn":
        message = _flag_names(message)

    def option(match: re.Match) -> str:
        try:
            values = ast.literal_eval(match.group(1))
        except (ValueError, SyntaxError):   # a value with "])" in it: keep the advice as is
            return match.group(0)
        return "(here: " + " ".join(f"--na-values {shlex.quote(str(v))}" for v in values) + ")"

    def categorical(match: re.Match) -> str:
        try:
            name = ast.literal_eval(match.group(1))
        except (ValueError, SyntaxError):
            return match.group(0)
        return f"(here: --categorical {shlex.quote(str(name))})"

    message = re.sub(r"\(X\[('.*?'|\".*?\")\] = X\[\1\]\.astype\('category'\)\)",
                     categorical, message)
    return re.sub(r"\(for a CSV: pandas\.read_csv\(\.\.\., na_values=(\[.*?\])\)\)", option,
                  message)


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse an output path that cannot be written (``--out``, ``encode --layout``, or
    ``convert``'s OUT) before the command does its work, not after
    (:func:`satrules.serialization.check_output`); a sweep to ``.parquet`` also needs
    pyarrow."""
    from satrules.serialization import check_output

    for name in ("out", "output", *(["layout"] if args.command == "encode" else [])):
        path = getattr(args, name, None)
        if isinstance(path, str) and path != "-":
            check_output(path)
            if args.command == "sweep":
                from satrules.sweep import check_table_path

                check_table_path(path)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (0 success, 1 failure, 2 usage)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits on --help and usage errors
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        _check_outputs(args)
        with _terminate_like_interrupt(), _plain_warnings(args.command):
            return int(args.func(args) or 0)
    except (SatrulesError, ValueError, OSError) as exc:
        print(f"satrules {args.command}: error: "
              f"{_command_line_hint(str(exc), args.command)}",
              file=sys.stderr)
        return 1
    except Terminated as exc:
        name = signal.Signals(exc.signum).name
        print(f"satrules {args.command}: terminated by {name}", file=sys.stderr)
        return 128 + exc.signum
    except KeyboardInterrupt:
        print(f"satrules {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
