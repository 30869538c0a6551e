"""Run pyrulelearn 1.1.1 offline: module stubs and a fake ``open-wbo`` binary.

pyrulelearn imports ``Orange``, ``feature_engine.discretisers`` and ``cplex`` at
module top without declaring them; :func:`install_stubs` puts empty stand-in
modules into ``sys.modules`` (the code paths the benchmark uses never touch
them).  pyrulelearn runs a MaxSAT binary named ``open-wbo`` from ``PATH`` through
the shell and reads the last ``v`` line as signed integers;
:func:`make_open_wbo` writes a small executable wrapper that reads the legacy
WCNF file, solves it with a hermax engine (UWrMaxSat by default, RC2 as a
fallback) and prints ``o``/``s``/``v`` lines (DATASETS.md, "Running pyrulelearn").

The wrapper is a Python process, so every call pays an interpreter start-up
that a native binary would not; :func:`spawn_overhead` measures it on an empty
instance so the benchmark can report pyrulelearn's time with and without it.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import numpy as np

_WRAPPER = r'''#!{python}
"""Fake open-wbo for pyrulelearn: solve a legacy WCNF with hermax and print MSE lines."""
import os
import sys

from pysat.formula import WCNF


def main(argv):
    path = next(a for a in argv[1:] if not a.startswith("-"))
    wcnf = WCNF(from_file=path)
    engine = "{engine}"
    if engine == "uwrmaxsat":
        from hermax.incremental import UWrMaxSAT as Solver
    else:
        from hermax.non_incremental import RC2 as Solver
    solver = Solver(formula=wcnf)
    solver.solve()
    model = solver.get_model() or []
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "costs.log"), "a") as log:
        log.write(f"{{solver.get_cost()}}\n")
    print("o", solver.get_cost())
    print("s OPTIMUM FOUND")
    print("v " + " ".join(str(lit) for lit in model))
    return 0


sys.exit(main(sys.argv))
'''


def install_stubs() -> None:
    """Put empty ``Orange``, ``feature_engine.discretisers`` and ``cplex`` modules in place."""
    for name in ("Orange", "feature_engine", "feature_engine.discretisers", "cplex"):
        if name not in sys.modules:
            sys.modules[name] = types.ModuleType(name)
    sys.modules["feature_engine"].discretisers = sys.modules["feature_engine.discretisers"]


def make_open_wbo(directory: str | os.PathLike, engine: str = "uwrmaxsat") -> Path:
    """Write an executable ``open-wbo`` wrapper into ``directory`` and return its path."""
    path = Path(directory) / "open-wbo"
    path.write_text(_WRAPPER.format(python=sys.executable, engine=engine))
    path.chmod(path.stat().st_mode | stat.S_IEXEC | stat.S_IXGRP | stat.S_IXOTH)
    return path


def spawn_overhead(directory: str | os.PathLike, repeats: int = 5) -> float:
    """Return the median seconds of one wrapper call on a trivial instance."""
    wcnf = Path(directory) / "trivial.wcnf"
    wcnf.write_text("p wcnf 1 2 3\n3 1 0\n1 -1 0\n")
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([str(Path(directory) / "open-wbo"), str(wcnf)], check=True,
                       capture_output=True)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


class PyRuleLearn:
    """pyrulelearn's IMLI (``fit(recursive=False)``, the paper's algorithm) behind the stubs.

    Parameters mirror pyrulelearn: ``n_rules`` (num_clause), ``data_fidelity``,
    ``batchsize`` (rows per partition), ``rule_type`` ("DNF"/"CNF"), ``timeout``.
    """

    def __init__(self, n_rules: int = 1, data_fidelity: int = 10, batchsize: int = 16,
                 rule_type: str = "DNF", timeout: int = 1000, engine: str = "uwrmaxsat"):
        self.n_rules = n_rules
        self.data_fidelity = data_fidelity
        self.batchsize = batchsize
        self.rule_type = rule_type
        self.timeout = timeout
        self.engine = engine
        self._dir = tempfile.mkdtemp(prefix="pyrulelearn_")
        make_open_wbo(self._dir, engine)
        install_stubs()

    def fit(self, Xb: np.ndarray, y: np.ndarray) -> PyRuleLearn:
        """Fit on a 0/1 matrix (pyrulelearn appends complements itself); returns self."""
        from pyrulelearn.imli import imli

        self.model_ = imli(num_clause=self.n_rules, data_fidelity=self.data_fidelity,
                           weight_feature=1, solver="open-wbo", rule_type=self.rule_type,
                           batchsize=self.batchsize, work_dir=self._dir, timeout=self.timeout)
        log = Path(self._dir) / "costs.log"
        log.write_text("")
        old_path = os.environ.get("PATH", "")
        os.environ["PATH"] = self._dir + os.pathsep + old_path
        try:
            start = time.perf_counter()
            self.model_.fit(np.asarray(Xb, dtype=int), np.asarray(y, dtype=int), recursive=False)
            self.fit_time_ = time.perf_counter() - start
        finally:
            os.environ["PATH"] = old_path
        self.batch_costs_ = [int(v) for v in log.read_text().split()]
        self.n_solver_calls_ = int(self.model_.iterations) * (1 if self.model_.iterations == 1
                                                              else 2)
        return self

    def predict(self, Xb: np.ndarray) -> np.ndarray:
        """Predict 0/1 labels with the learned rules."""
        return np.asarray(self.model_.predict(np.asarray(Xb, dtype=int)), dtype=int)

    def rule_sizes(self) -> list[int]:
        """Literals per learned rule (clauses for CNF, terms for DNF)."""
        return [len(rule) for rule in self.model_.get_selected_column_index()]

    def objective(self, Xb: np.ndarray, y: np.ndarray) -> int:
        """``Σ|rules| + λ·errors`` of the final rules on ``(Xb, y)``."""
        errors = int((self.predict(Xb) != np.asarray(y, dtype=int)).sum())
        return sum(self.rule_sizes()) + self.data_fidelity * errors
