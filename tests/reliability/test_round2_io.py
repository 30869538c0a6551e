"""Issue 12 (round two), file rows 1, 5, 6, 7, 9: output paths that are not regular
files, tampered or malformed rule-set files, and scoring against missing labels."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from satrules import serialization
from satrules.cli import main
from satrules.ir import Model
from satrules.ir.wcnf import write_wcnf
from satrules.serialization import SchemaError

IMLI = ["--method", "imli", "--backend", "rc2", "--n-partitions", "1", "--test-size", "0"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """A CSV whose label is `a > 3`, and a rule-set file learned from it (IF a > 3)."""
    folder = tmp_path_factory.mktemp("round2")
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"a": rng.integers(0, 7, 40).astype(float),
                          "b": rng.integers(0, 3, 40).astype(float)})
    frame["label"] = np.where(frame.a > 3, "yes", "no")
    csv = folder / "d.csv"
    frame.to_csv(csv, index=False)
    rules = folder / "rules.json"
    assert main(["learn", str(csv), "--target", "label", *IMLI, "--out", str(rules)]) == 0
    return csv, rules


def small_wcnf(tmp_path: Path) -> Path:
    m = Model()
    x = m.new_vars("x", 2)
    m.add_hard([x[0], x[1]])
    m.add_soft([-x[0]], 2)
    path = tmp_path / "m.wcnf"
    write_wcnf(m, path)
    return path


class FifoReader:
    """Read everything written to a FIFO (in a thread, as `cat fifo` would)."""

    def __init__(self, path: Path):
        self.data = b""
        self.thread = threading.Thread(target=self._read, args=(path,), daemon=True)
        self.thread.start()

    def _read(self, path):
        with open(path, "rb") as fh:
            self.data = fh.read()

    def result(self) -> bytes:
        self.thread.join(30)
        assert not self.thread.is_alive(), "nothing closed the FIFO"
        return self.data


# ----------------------------------------------------------------------------- row 1


def test_convert_to_fifo_writes_through(tmp_path):
    """Row 1: `convert x.wcnf FIFO` writes into the FIFO; the FIFO is not replaced."""
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    assert main(["convert", str(small_wcnf(tmp_path)), str(fifo)]) == 0
    assert b"h 1 2 0" in reader.result()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_learn_out_to_fifo_writes_through(data, tmp_path):
    """Row 1: `learn --out FIFO` streams the rule-set file into the FIFO."""
    csv, _ = data
    fifo = tmp_path / "rules.fifo"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    assert main(["learn", str(csv), "--target", "label", *IMLI, "--out", str(fifo)]) == 0
    assert json.loads(reader.result())["schema"] == "satrules.ruleset"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_out_through_symlink_keeps_the_link(data, tmp_path):
    """Row 1: an output path that is a symlink stays a symlink; its target gets the text
    (predict --out and convert; a dangling link creates its target)."""
    csv, rules = data
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    assert main(["predict", str(rules), str(csv), "--out", str(link)]) == 0
    assert link.is_symlink() and "prediction" in real.read_text()
    dangling = tmp_path / "model-link.wcnf"
    dangling.symlink_to(tmp_path / "made.wcnf")
    assert main(["convert", str(small_wcnf(tmp_path)), str(dangling)]) == 0
    assert dangling.is_symlink() and "h 1 2 0" in (tmp_path / "made.wcnf").read_text()


def _fake_null(tmp_path: Path) -> Path:
    """A character device like /dev/null (major 1, minor 3) inside tmp_path, or skip."""
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot create a character device here ({exc})")
    return node


def test_out_to_character_device_keeps_the_device(data, tmp_path):
    """Row 1: `--out` of learn/predict/report and convert's output, given a character
    device (a private copy of /dev/null), write to it and leave it a device."""
    csv, rules = data
    node = _fake_null(tmp_path)
    commands = [
        ["learn", str(csv), "--target", "label", *IMLI, "--out", str(node)],
        ["predict", str(rules), str(csv), "--out", str(node)],
        ["report", str(rules), str(csv), "--out", str(node)],
        ["convert", str(small_wcnf(tmp_path)), str(node)],
    ]
    for args in commands:
        assert main(args) == 0, args[0]
        assert stat.S_ISCHR(os.lstat(node).st_mode), f"{args[0]} replaced the device"
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)  # the real one was never touched


def test_encode_out_to_device_keeps_device_and_layout_hash(data, tmp_path):
    """Row 1: `encode --out DEVICE --layout layout.json` leaves the device a device and
    hashes what it wrote (a device cannot be read back)."""
    csv, _ = data
    node = _fake_null(tmp_path)
    layout = tmp_path / "layout.json"
    assert main(["encode", str(csv), "--target", "label", "--method", "imli",
                 "--out", str(node), "--layout", str(layout)]) == 0
    assert stat.S_ISCHR(os.lstat(node).st_mode)
    regular = tmp_path / "m.wcnf"
    assert main(["encode", str(csv), "--target", "label", "--method", "imli",
                 "--out", str(regular), "--layout", str(tmp_path / "l2.json")]) == 0
    from satrules.commands.encode import sha256

    assert json.loads(layout.read_text())["wcnf_sha256"] == sha256(str(regular))


def test_out_to_directory_is_a_clear_error(data, tmp_path, capsys):
    """Row 1: a directory as output is refused by name (exit 1), nothing is replaced."""
    assert main(["convert", str(small_wcnf(tmp_path)), str(tmp_path)]) == 1
    assert "is a directory" in capsys.readouterr().err


def _commands(csv: Path, rules: Path, wcnf: Path, bad: str) -> dict[str, list[str]]:
    return {
        "learn": ["learn", str(csv), "--target", "label", *IMLI, "--out", bad],
        "sweep": ["sweep", str(csv), "--target", "label", "--method", "imli",
                  "--grid", "n_rules=1,2", "--n-splits", "2", "--out", bad],
        "encode --out": ["encode", str(csv), "--target", "label", "--method", "imli",
                         "--out", bad],
        "encode --layout": ["encode", str(csv), "--target", "label", "--method", "imli",
                            "--out", str(wcnf.with_name("e.wcnf")), "--layout", bad],
        "predict": ["predict", str(rules), str(csv), "--out", bad],
        "report": ["report", str(rules), str(csv), "--out", bad],
        "convert": ["convert", str(wcnf), bad],
    }


@pytest.mark.parametrize("command", ["learn", "sweep", "encode --out", "encode --layout",
                                     "predict", "report", "convert"])
def test_unwritable_output_is_refused_before_the_work(data, tmp_path, command, capsys,
                                                      monkeypatch):
    """Row 1: an output path in a directory that does not exist is refused before the
    command reads its data or fits anything (it was refused when writing, after the fit:
    a long learn or sweep lost to a mistyped --out); nothing is written."""
    import importlib

    csv, rules = data
    bad = str(tmp_path / "no_such_dir" / "out.file")
    argv = _commands(csv, rules, small_wcnf(tmp_path), bad)[command]
    monkeypatch.setattr(importlib.import_module(f"satrules.commands.{argv[0]}"), "run",
                        lambda args: pytest.fail("the command ran before its output "
                                                 "path was checked"))
    assert main(argv) == 1
    assert "output directory does not exist" in capsys.readouterr().err
    assert not (tmp_path / "no_such_dir").exists()


def test_sweep_to_parquet_without_pyarrow_is_refused_first(data, tmp_path, capsys,
                                                          monkeypatch):
    """Row 1: without pyarrow, ``sweep --out t.parquet`` fails before the sweep, not after."""
    import importlib.util

    import satrules.commands.sweep

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pyarrow" else real(name, *a))
    monkeypatch.setattr(satrules.commands.sweep, "run",
                        lambda args: pytest.fail("the sweep ran"))
    csv, _ = data
    out = tmp_path / "t.parquet"
    assert main(["sweep", str(csv), "--target", "label", "--method", "imli",
                 "--grid", "n_rules=1,2", "--out", str(out)]) == 1
    assert "needs pyarrow" in capsys.readouterr().err
    assert not out.exists()


# ----------------------------------------------------------------------------- row 5


def _tampered(rules: Path, tmp_path: Path, edit) -> Path:
    doc = json.loads(rules.read_text())
    edit(doc["estimator"]["state"])
    out = tmp_path / "tampered.json"
    out.write_text(json.dumps(doc))
    return out


def _conditions(state):
    return state["rules_"]["data"]["conditions"]


def _bin_conditions(state):
    return [c["data"] for c in state["binarizer_"]["state"]["conditions_"]]


def _specs(state):
    return state["binarizer_"]["state"]["_specs"]


def test_rules_file_is_as_learned(data):
    """Row 5 baseline: the untampered file loads and predicts `a > 3`."""
    _, rules = data
    est = serialization.load(rules)
    X = pd.DataFrame({"a": [3.0, 5.0], "b": [0.0, 0.0]})
    assert est.predict(X).tolist() == ["no", "yes"]


def _edit_threshold_everywhere_but(where):
    """Move the rule's threshold 3 -> 4 in every copy except ``where``."""
    def edit(state):
        copies = {"rules": _conditions(state), "binarizer": _bin_conditions(state)}
        for name, conds in copies.items():
            if name != where:
                for c in conds:
                    if c["feature"] == "a" and c["value"] == 3.0:
                        c["value"] = 4.0
        if where != "specs":
            for spec in _specs(state):
                values = spec["__tuple__"][1]["__ndarray__"]
                values[:] = [4.0 if v == 3.0 else v for v in values]
    return edit


@pytest.mark.parametrize("where", ["specs", "binarizer", "rules"])
def test_edited_threshold_is_refused(data, tmp_path, where, capsys):
    """Row 5: a threshold edited in one copy but not another (what `report` prints vs
    what `predict` evaluates) is refused with the field named, by predict and report."""
    csv, rules = data
    bad = _tampered(rules, tmp_path, _edit_threshold_everywhere_but(where))
    with pytest.raises(SchemaError, match="disagree|differ"):
        serialization.load(bad)
    assert main(["predict", str(bad), str(csv)]) == 1
    assert main(["report", str(bad), str(csv), "--out", str(tmp_path / "r.html")]) == 1
    assert "conditions" in capsys.readouterr().err


def test_consistently_edited_threshold_is_used_everywhere(data, tmp_path):
    """Row 5: the same threshold edited in every copy is what predict uses and prints."""
    _, rules = data
    good = _tampered(rules, tmp_path, _edit_threshold_everywhere_but(None))
    est = serialization.load(good)
    X = pd.DataFrame({"a": [4.0, 4.5], "b": [0.0, 0.0]})
    assert est.predict(X).tolist() == ["no", "yes"]
    from satrules.report import rules_text

    assert "a > 4" in rules_text(est)


def test_nan_threshold_is_refused(data, tmp_path):
    """Row 5: a NaN threshold (in every copy, so they agree) is refused by name."""
    def edit(state):
        for c in _conditions(state) + _bin_conditions(state):
            if c["value"] == 3.0:
                c["value"] = float("nan")
        for spec in _specs(state):
            values = spec["__tuple__"][1]["__ndarray__"]
            values[:] = [{"__float__": "nan"} if v == 3.0 else v for v in values]
    _, rules = data
    doc = json.loads(rules.read_text())
    edit(doc["estimator"]["state"])
    bad = tmp_path / "nan.json"
    bad.write_text(json.dumps(doc))  # json writes NaN as a bare NaN token; Python reads it
    with pytest.raises(SchemaError, match="threshold"):
        serialization.load(bad)


@pytest.mark.parametrize("classes", [["no"], ["no", "yes", "maybe"], ["no", "no"]])
def test_classes_of_wrong_length_are_refused(data, tmp_path, classes):
    """Row 5: `classes_` with one, three, or duplicate entries for a two-class rule set."""
    def edit(state):
        state["classes_"] = {"__ndarray__": classes, "dtype": "object",
                             "shape": [len(classes)]}
    _, rules = data
    with pytest.raises(SchemaError, match="classes_"):
        serialization.load(_tampered(rules, tmp_path, edit))


# ----------------------------------------------------------------------------- row 6


def test_predict_on_all_nan_target_prints_no_accuracy(data, tmp_path, capsys):
    """Row 6: a label column that is entirely empty gives no accuracy line, and says why."""
    csv, rules = data
    frame = pd.read_csv(csv)
    frame["label"] = np.nan
    unlabeled = tmp_path / "unlabeled.csv"
    frame.to_csv(unlabeled, index=False)
    assert main(["predict", str(rules), str(unlabeled), "--out", str(tmp_path / "p.csv")]) == 0
    err = capsys.readouterr().err
    assert "accuracy" not in err.replace("no accuracy", "")
    assert "no accuracy" in err and "missing" in err


def test_predict_scores_only_labelled_rows(data, tmp_path, capsys):
    """Row 6: with some labels missing, accuracy is over the labelled rows, and says so."""
    csv, rules = data
    frame = pd.read_csv(csv)
    frame.loc[:9, "label"] = np.nan
    part = tmp_path / "part.csv"
    frame.to_csv(part, index=False)
    assert main(["predict", str(rules), str(part), "--out", str(tmp_path / "p.csv")]) == 0
    err = capsys.readouterr().err
    assert "accuracy on 'label': 1.0000 (30 labelled rows; 10 without a label)" in err


# ----------------------------------------------------------------------------- row 7


@pytest.mark.parametrize("payload", [
    {"__enum__": "satrules.serialization.Path", "value": "/etc/passwd"},
    {"__instance__": "satrules.mining.RandomForestClassifier", "attrs": {}},
    {"__dataclass__": "satrules.serialization.dataclasses", "fields": {}},
    {"__object__": "satrules.rules.np", "data": {}},
])
def test_only_listed_classes_load(payload):
    """Row 7: names imported into a satrules module (pathlib.Path, scikit-learn's forest)
    are not satrules classes and are refused, though their path starts with `satrules.`."""
    with pytest.raises(SchemaError, match="not a loadable class"):
        serialization._decode(payload)


# ----------------------------------------------------------------------------- row 9


def _doc(rules: Path) -> dict:
    return json.loads(rules.read_text())


def _cases():
    """(name, edit of the rule-set document, fragment the message must contain)."""
    def state(doc):
        return doc["estimator"]["state"]

    def deep(doc):
        pass  # the text is built by _deep_text: json itself cannot write such a list

    return [
        ("index", lambda d: state(d)["rules_"]["data"]["rules"].__setitem__(0, [[99, False]]),
         "rules_"),
        ("tuple", lambda d: _specs(state(d)).__setitem__(0, {"__tuple__": ["ordinal"]}),
         "_specs"),
        ("zero-division", lambda d: state(d).__setitem__("x_", {"__fraction__": "1/0"}), "x_"),
        ("type", lambda d: d["estimator"].__setitem__("params", [1, 2]), "params"),
        ("attribute", lambda d: state(d).__setitem__("rules_", {"__object__":
                                                                "satrules.rules.RuleSet",
                                                                "data": [1]}), "rules_"),
        ("missing-state", lambda d: d["estimator"].pop("state"), "state"),
        ("deep", deep, "nested"),
        ("rules-type", lambda d: state(d).__setitem__("rules_", 2.5), "rules_"),
        ("no-rules", lambda d: state(d).pop("rules_"), "rules_"),
        ("binarizer-type", lambda d: state(d).__setitem__("binarizer_", 1), "binarizer_"),
        ("binarizer-none", lambda d: state(d).__setitem__("binarizer_", None), "binarizer_"),
        ("classes-none", lambda d: state(d).__setitem__("classes_", None), "classes_"),
        ("names-none", lambda d: state(d)["binarizer_"]["state"].__setitem__("_names", None),
         "_names"),
        ("feature-names", lambda d: state(d).__setitem__("feature_names_in_", 3.0),
         "feature_names_in_"),
        ("provenance", lambda d: d.__setitem__("provenance", "yesterday"), "provenance"),
        ("metrics", lambda d: d.__setitem__("metrics", [0.9]), "metrics"),
        ("ndarray-shape", lambda d: state(d).__setitem__(
            "classes_", {"__ndarray__": [1, 2], "dtype": "<i8", "shape": [3]}), "classes_"),
        ("bad-dtype", lambda d: state(d).__setitem__(
            "classes_", {"__ndarray__": [1, 2], "dtype": "O!", "shape": [2]}), "classes_"),
    ]


@pytest.mark.parametrize("name, edit, field", _cases(), ids=[c[0] for c in _cases()])
def test_malformed_file_gives_one_clear_error(data, tmp_path, name, edit, field, capsys):
    """Row 9: every malformed file is one SchemaError naming the field (never a raw
    IndexError, RecursionError, ZeroDivisionError, TypeError or AttributeError), and the
    CLI exits 1 with that message."""
    csv, rules = data
    doc = _doc(rules)
    edit(doc)
    bad = tmp_path / "bad.json"  # a neutral name: the message must name the field itself
    text = json.dumps(doc) if name != "deep" else _deep_text(rules)
    bad.write_text(text)
    with pytest.raises(SchemaError) as info:
        serialization.load(bad)
    assert field in str(info.value)
    assert main(["predict", str(bad), str(csv)]) == 1
    assert field in capsys.readouterr().err


@pytest.fixture(scope="module")
def cdpr_rules(data, tmp_path_factory):
    """A CDPR rule-set file learned on the same CSV plus a categorical column."""
    csv, _ = data
    folder = tmp_path_factory.mktemp("round2cdpr")
    frame = pd.read_csv(csv)
    frame["c"] = np.where(frame.b > 0, "red", "blue")
    path = folder / "c.csv"
    frame.to_csv(path, index=False)
    rules = folder / "cdpr.json"
    assert main(["learn", str(path), "--target", "label", "--method", "cdpr-gra",
                 "--n-estimators", "3", "--test-size", "0", "--out", str(rules)]) == 0
    return path, rules


def _attrs(doc, name):
    return doc["estimator"]["state"][name]["attrs"]


@pytest.mark.parametrize("name, edit, field", [
    ("categories", lambda d: _attrs(d, "encoder_").__setitem__("categories", [1, 2, 3]),
     "encoder_.categories"),
    ("indicators", lambda d: _attrs(d, "rules_").__setitem__("indicators", 5),
     "rules_.indicators"),
    ("labels", lambda d: _attrs(d, "rules_")["labels"]["__ndarray__"].__setitem__(0, 9),
     "rules_.labels"),
    ("no-lo", lambda d: _attrs(d, "rules_").pop("lo"), "lo"),
    ("no-encoder", lambda d: d["estimator"]["state"].pop("encoder_"), "encoder_"),
    ("accuracy-shape", lambda d: _attrs(d, "rules_")["accuracy"].update(
        shape=[len(_attrs(d, "rules_")["accuracy"]["__ndarray__"]), 1]), "rules_.accuracy"),
    ("class-names", lambda d: _attrs(d, "rules_")["class_names"].__setitem__(
        "__tuple__", ["a", "b"]), "class_names"),
])
def test_malformed_cdpr_file_gives_one_clear_error(cdpr_rules, tmp_path, name, edit, field):
    """Row 9 for CDPR files (mined rules and the column encoder), found by fuzzing: one
    SchemaError naming the attribute instead of a raw error at predict time."""
    csv, rules = cdpr_rules
    assert main(["predict", str(rules), str(csv)]) == 0  # the untouched file is fine
    doc = _doc(rules)
    edit(doc)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(SchemaError) as info:
        serialization.load(bad)
    assert field in str(info.value)


def test_malformed_extra_block_is_named(data, tmp_path, capsys):
    """Row 9: an `extra` block that is not an object (read by predict and report for the
    saved target) is one clear error naming `extra`, not an AttributeError."""
    csv, rules = data
    doc = _doc(rules)
    doc["extra"] = [1, 2]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert main(["predict", str(bad), str(csv)]) == 1
    assert main(["report", str(bad), str(csv), "--out", str(tmp_path / "r.html")]) == 1
    err = capsys.readouterr().err
    assert "field extra" in err and "Traceback" not in err


def _deep_text(rules: Path) -> str:
    doc = _doc(rules)
    text = json.dumps(doc)
    # json.dumps itself recurses: splice the deep list into the text
    return text[:-1] + ', "deep": ' + "[" * 100_000 + "]" * 100_000 + "}"


def test_missing_state_is_not_called_missing_schema(data, tmp_path, capsys):
    """Row 9: a file without `state` says `state`, not `schema`."""
    csv, rules = data
    doc = _doc(rules)
    del doc["estimator"]["state"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert main(["predict", str(bad), str(csv)]) == 1
    err = capsys.readouterr().err
    assert "state" in err and "schema" not in err



def _json_paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _json_paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _json_paths(item, (*path, i))


def test_random_field_mutations_never_escape_as_raw_errors(data, cdpr_rules, tmp_path, capsys):
    """Row 9 beyond the named cases: 200 seeded mutations of random fields of an IMLI and
    a CDPR file (a value replaced by another type, or by another field's value) either
    still predict or fail with exit 1 and a message; no other exception escapes."""
    import random

    replacements = [None, 0, -1, 7, 1e300, "zz", [], {}, [1], {"a": 1}, True, 2.5, [[1]]]
    rng = random.Random(12)
    sources = [(data[0], _doc(data[1])), (cdpr_rules[0], _doc(cdpr_rules[1]))]
    bad = tmp_path / "bad.json"
    for _ in range(200):
        csv, original = rng.choice(sources)
        doc = json.loads(json.dumps(original))
        paths = [p for p in _json_paths(doc) if p and p[0] == "estimator"]
        path = rng.choice(paths)
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if rng.random() < 0.7:
            parent[path[-1]] = rng.choice(replacements)
        else:
            other = doc
            for key in rng.choice(paths):
                other = other[key]
            parent[path[-1]] = json.loads(json.dumps(other))
        bad.write_text(json.dumps(doc))
        code = main(["predict", str(bad), str(csv)])
        err = capsys.readouterr().err
        assert code in (0, 1), (path, err)
        assert code == 0 or "error:" in err, (path, err)
