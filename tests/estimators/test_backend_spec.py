"""Estimators and ``satrules learn`` take a backend with options (issue #12, row 19)."""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pytest

from satrules import IMLIBClassifier, IMLIClassifier
from satrules.cli import main
from satrules.estimators._base import backend_spec

needs_rc2_script = pytest.mark.skipif(shutil.which("rc2.py") is None,
                                      reason="python-sat's rc2.py script is not on PATH")


def _data(n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, 3))
    y = ((X[:, 0] > 0) & (X[:, 1] < 2)).astype(int)
    return X, y


@needs_rc2_script
@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_external_solver_through_the_estimator(cls):
    """backend=("wcnf", {"command": [...]}) runs an external solver process; it proves every
    partition optimal, with the in-process RC2's optimum on the first partition (later
    partitions anchor to whichever optimum each engine returned, so they may differ)."""
    X, y = _data()
    ext = cls(partition_size=20, random_state=0,
              backend=("wcnf", {"command": ["rc2.py", "-vv"]})).fit(X, y)
    ref = cls(partition_size=20, random_state=0, backend="rc2").fit(X, y)
    assert {s.backend for s in ext.solutions_} == {"wcnf"}
    assert all(s.status.value == "OPTIMAL" for s in ext.solutions_)
    assert ext.solutions_[0].cost == ref.solutions_[0].cost
    assert len(ext.solutions_) == len(ref.solutions_)


@needs_rc2_script
def test_learn_takes_a_solver_command(tmp_path, capsys):
    """`satrules learn --solver-cmd` solves every partition with the external command and the
    saved rule file loads back."""
    X, y = _data(60)
    frame = pd.DataFrame(X, columns=["a", "b", "c"]).assign(label=y)
    frame.to_csv(tmp_path / "d.csv", index=False)
    out = tmp_path / "rules.json"
    assert main(["learn", str(tmp_path / "d.csv"), "--target", "label", "--method", "imli",
                 "--solver-cmd", "rc2.py -vv", "--out", str(out), "--quiet"]) == 0
    assert "OPTIMAL" in capsys.readouterr().out
    assert main(["predict", str(out), str(tmp_path / "d.csv")]) == 0


def test_solver_command_conflicts_with_another_backend(tmp_path):
    """--solver-cmd with --backend cpsat is refused with a message naming both."""
    X, y = _data()
    pd.DataFrame(X, columns=["a", "b", "c"]).assign(label=y).to_csv(tmp_path / "d.csv",
                                                                     index=False)
    assert main(["learn", str(tmp_path / "d.csv"), "--target", "label", "--method", "imli",
                 "--solver-cmd", "rc2.py", "--backend", "cpsat"]) != 0


@pytest.mark.parametrize("bad", [3, ("rc2",), ("rc2", "x"), ("auto", {"a": 1}), [1, {}]])
def test_bad_backend_specs_are_refused(bad):
    """Anything but a name or a (name, options dict) pair is a ValueError naming 'backend'."""
    with pytest.raises(ValueError, match="backend"):
        backend_spec(bad)
    X, y = _data()
    with pytest.raises(ValueError, match="backend"):
        IMLIClassifier(backend=bad).fit(X, y)
