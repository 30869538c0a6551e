"""Issue 4 row 1 for the CLI: bad CSV input fails with a message naming the problem, exit
code 1, and no partial output file (an existing output file keeps its old content)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from satrules.cli import main

CDPR = ["--method", "cdpr-gra", "--gamma", "3", "--n-estimators", "5", "--max-depth", "2"]


@pytest.fixture
def good_csv(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=80), "b": rng.integers(0, 3, 80),
                          "color": rng.choice(["red", "green", "blue"], 80)})
    frame["label"] = np.where(frame.a > 0, "yes", "no")
    path = tmp_path / "good.csv"
    frame.to_csv(path, index=False)
    return path


def _bad_files(tmp_path):
    files = {
        "missing-target": ("a,b\n1,2\n3,4\n", "target column 'label' is not in"),
        "empty": ("", "empty"),
        "header-only": ("a,label\n", "no data rows"),
        "duplicate-columns": ("a,a,label\n1,2,x\n3,4,y\n", "duplicate column names: a"),
        "ragged": ("a,label\n1,x\n2,y,extra,more\n", "cannot read CSV file"),
        "nan-target": ("a,label\n1,x\n2,\n3,y\n", "missing value"),
        "only-target": ("label\nx\ny\n", "no feature column"),
    }
    out = {}
    for name, (text, match) in files.items():
        path = tmp_path / f"{name}.csv"
        path.write_text(text)
        out[name] = (path, match)
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\xff\xfe\x00\x01garbage\x00\x9c" * 20)
    out["binary"] = (binary, "cannot read CSV file")
    return out


@pytest.mark.parametrize("case", ["missing-target", "empty", "header-only", "duplicate-columns",
                                  "ragged", "nan-target", "only-target", "binary"])
def test_learn_rejects_bad_csv_without_output(case, tmp_path, capsys):
    """Each broken CSV gives exit 1, a message naming the problem, and no rules file."""
    path, match = _bad_files(tmp_path)[case]
    out = tmp_path / "rules.json"
    code = main(["learn", str(path), "--target", "label", *CDPR, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert match in err
    assert not out.exists()


def test_learn_missing_file(tmp_path, capsys):
    """A CSV path that does not exist is exit 1 naming the file."""
    code = main(["learn", str(tmp_path / "nope.csv"), "--target", "y", *CDPR])
    assert code == 1 and "nope.csv" in capsys.readouterr().err


def test_failed_learn_keeps_existing_output(good_csv, tmp_path, capsys):
    """A failing learn leaves an existing rules file exactly as it was."""
    out = tmp_path / "rules.json"
    out.write_text("old content")
    code = main(["learn", str(good_csv), "--target", "nope", *CDPR, "--out", str(out)])
    assert code == 1 and out.read_text() == "old content"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.csv", "rules.json"]


def test_unknown_method_parameter_is_named(good_csv, tmp_path, capsys):
    """A parameter the method does not have is exit 1 naming it (here --n-rules for CDPR,
    named by its flag since 2026-12-07)."""
    out = tmp_path / "rules.json"
    code = main(["learn", str(good_csv), "--target", "label", *CDPR, "--n-rules", "2",
                 "--out", str(out)])
    assert code == 1 and "--n-rules does not apply to --method cdpr-gra" in \
        capsys.readouterr().err
    assert not out.exists()


def _learn(good_csv, tmp_path):
    rules = tmp_path / "rules.json"
    assert main(["learn", str(good_csv), "--target", "label", *CDPR, "--out", str(rules)]) == 0
    return rules


def test_predict_rejects_wrong_columns_without_output(good_csv, tmp_path, capsys):
    """Predicting on data with other columns fails naming the problem; no predictions file."""
    rules = _learn(good_csv, tmp_path)
    other = tmp_path / "other.csv"
    pd.DataFrame({"x": [1.0, 2.0], "y": [3.0, 4.0]}).to_csv(other, index=False)
    out = tmp_path / "pred.csv"
    capsys.readouterr()
    assert main(["predict", str(rules), str(other), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "feature" in err.lower() or "column" in err.lower()
    assert not out.exists()


@pytest.mark.parametrize("mutate, match", [
    (lambda d: d.update(schema_version=7), "upgrade satrules"),
    (lambda d: d.update(schema="something else"), "not a satrules rule-set file"),
    (lambda d: d["estimator"].update({"__estimator__": "os.system"}), "only satrules classes"),
])
def test_predict_rejects_bad_rules_file(good_csv, tmp_path, capsys, mutate, match):
    """Newer, foreign or tampered rule-set files are refused with a clear message."""
    rules = _learn(good_csv, tmp_path)
    doc = json.loads(rules.read_text())
    mutate(doc)
    rules.write_text(json.dumps(doc))
    out = tmp_path / "pred.csv"
    capsys.readouterr()
    assert main(["predict", str(rules), str(good_csv), "--out", str(out)]) == 1
    assert match in capsys.readouterr().err
    assert not out.exists()


def test_predict_rejects_non_json_rules(good_csv, tmp_path, capsys):
    """A rules file that is not JSON (e.g. a pickle) is refused, never unpickled."""
    import pickle

    rules = tmp_path / "rules.json"
    rules.write_bytes(pickle.dumps({"a": 1}))
    assert main(["predict", str(rules), str(good_csv)]) == 1
    assert "rule-set file" in capsys.readouterr().err


def test_report_and_sweep_errors_leave_no_output(good_csv, tmp_path, capsys):
    """report without the target column and sweep with an unknown grid parameter write nothing."""
    rules = _learn(good_csv, tmp_path)
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b,color\n1,2,red\n")
    html = tmp_path / "r.html"
    assert main(["report", str(rules), str(bad), "--out", str(html)]) == 1
    assert "target column 'label'" in capsys.readouterr().err and not html.exists()
    table = tmp_path / "s.csv"
    assert main(["sweep", str(good_csv), "--target", "label", "--method", "cdpr-gra",
                 "--grid", "bogus=1,2", "--out", str(table)]) == 1
    assert "bogus" in capsys.readouterr().err and not table.exists()
