"""The learner CLI in process: learn / predict / sweep / report / demo — exit codes and files."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from satrules import serialization
from satrules.cli import main

METHOD_ARGS = {
    "imli": ["--n-rules", "1", "--backend", "rc2"],
    "imlib": ["--n-rules", "1", "--max-literals", "2", "--backend", "rc2"],
    "cdpr-gra": ["--gamma", "3", "--n-estimators", "5", "--max-depth", "2"],
    "cdpr-gdy": ["--gamma", "3", "--n-estimators", "5", "--max-depth", "2"],
    "cdpr-exact": ["--gamma", "3", "--n-estimators", "5", "--max-depth", "2",
                   "--backend", "rc2", "--time-limit", "20"],
}


@pytest.fixture(scope="module")
def csv_path(tmp_path_factory):
    """Mixed numeric/categorical data with a readable rule behind the label."""
    rng = np.random.default_rng(7)
    n = 120
    frame = pd.DataFrame({"age": rng.integers(20, 80, n), "income": rng.normal(50, 15, n).round(1),
                          "city": rng.choice(["Lyon", "Porto", "Kyiv"], n)})
    frame["bought"] = np.where((frame.age > 45) & (frame.city != "Kyiv"), "yes", "no")
    path = tmp_path_factory.mktemp("data") / "shop data.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("method", list(METHOD_ARGS))
def test_learn_then_predict(method, csv_path, tmp_path, capsys):
    """learn prints rules and scores and saves a file; predict reproduces the model's output."""
    rules = tmp_path / "rules.json"
    code = main(["learn", str(csv_path), "--target", "bought", "--method", method,
                 *METHOD_ARGS[method], "--test-size", "0.25", "--out", str(rules)])
    out = capsys.readouterr().out
    assert code == 0
    assert "IF " in out and "test_accuracy" in out and "test_coverage" in out
    doc = json.loads(rules.read_text())
    assert doc["metrics"]["n_train"] == 90 and doc["metrics"]["n_test"] == 30
    assert doc["extra"]["method"] == method and doc["extra"]["target"] == "bought"
    assert 0.6 <= doc["metrics"]["test_accuracy"] <= 1
    preds = tmp_path / "pred.csv"
    assert main(["predict", str(rules), str(csv_path), "--out", str(preds)]) == 0
    table = pd.read_csv(preds)
    frame = pd.read_csv(csv_path)
    est = serialization.load(rules)
    assert len(table) == len(frame) and "bought" not in table.columns
    assert (table.prediction.to_numpy() == est.predict(frame.drop(columns="bought"))).all()
    assert "accuracy on 'bought'" in capsys.readouterr().err


def test_learn_generic_param_and_seed(csv_path, tmp_path, capsys):
    """--param passes any estimator parameter (JSON-typed); --random-state reaches the learner."""
    rules = tmp_path / "r.json"
    assert main(["learn", str(csv_path), "--target", "bought", "--method", "cdpr-gra",
                 "--param", "resolve=vote", "--param", "n_estimators=4", "--random-state", "3",
                 "--out", str(rules)]) == 0
    est = serialization.load(rules)
    assert est.resolve == "vote" and est.n_estimators == 4 and est.random_state == 3


@pytest.mark.parametrize("command", ["learn", "sweep"])
def test_misspelled_param_names_the_one_meant(command, csv_path, tmp_path, capsys):
    """A --param (or --grid) naming no parameter of the method fails before any fit, with
    the parameter it likely means, and writes nothing."""
    out = tmp_path / ("r.json" if command == "learn" else "r.csv")
    spelled = ["--param", "n_rule=1"] if command == "learn" else ["--grid", "n_rule=1,2"]
    assert main([command, str(csv_path), "--target", "bought", "--method", "imli",
                 *spelled, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "has no parameter n_rule (did you mean n_rules?)" in err
    assert not out.exists()


@pytest.mark.parametrize(("method", "flag"), [("imli", ["--max-literals", "3"]),
                                              ("cdpr-gra", ["--n-rules", "2"]),
                                              ("imlib", ["--gamma", "4"])])
def test_flag_of_another_method_is_named(method, flag, csv_path, tmp_path, capsys):
    """A method flag the chosen method does not take is an error naming the flag and the
    method it is for, not the estimator parameter behind it; nothing is written."""
    out = tmp_path / "r.json"
    assert main(["learn", str(csv_path), "--target", "bought", "--method", method, *flag,
                 "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{flag[0]} does not apply to --method {method}" in err
    assert "has no parameter" not in err
    assert not out.exists()


def test_predict_to_stdout(csv_path, tmp_path, capsys):
    """Without --out, predict writes CSV with a prediction column to stdout."""
    rules = tmp_path / "r.json"
    assert main(["learn", str(csv_path), "--target", "bought", *sum([["--method", "cdpr-gdy"],
                 METHOD_ARGS["cdpr-gdy"]], []), "--out", str(rules)]) == 0
    capsys.readouterr()
    assert main(["predict", str(rules), str(csv_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(",prediction") and len(lines) == 121


@pytest.mark.parametrize("method", ["imli", "cdpr-gra"])
def test_predict_writes_class_probabilities(method, csv_path, tmp_path, capsys):
    """--proba adds a P(<class>) column per class, the saved model's predict_proba rounded
    to six places, after the prediction column."""
    rules = tmp_path / "r.json"
    assert main(["learn", str(csv_path), "--target", "bought", "--method", method,
                 *METHOD_ARGS[method], "--out", str(rules)]) == 0
    capsys.readouterr()
    assert main(["predict", str(rules), str(csv_path), "--proba"]) == 0
    from io import StringIO

    table = pd.read_csv(StringIO(capsys.readouterr().out))
    assert list(table.columns[-3:]) == ["prediction", "P(no)", "P(yes)"]
    est = serialization.load(rules)
    frame = pd.read_csv(csv_path).drop(columns="bought")
    assert np.allclose(table[["P(no)", "P(yes)"]].to_numpy(), est.predict_proba(frame),
                       atol=1e-6)


def test_sweep_command_writes_tidy_csv(csv_path, tmp_path, capsys):
    """sweep: grid from --spec and --grid, n_splits rows per point, summary on stdout."""
    out = tmp_path / "sweep.csv"
    spec = json.dumps({"grid": {"gamma": [2, 4]}, "params": {"n_estimators": 5},
                       "n_splits": 2, "random_state": 1})
    assert main(["sweep", str(csv_path), "--target", "bought", "--method", "cdpr-gra",
                 "--spec", spec, "--grid", "beta=0.3,0.6", "--out", str(out), "--quiet"]) == 0
    table = pd.read_csv(out)
    assert len(table) == 2 * 2 * 2
    assert {"param_gamma", "param_beta", "split", "test_accuracy", "n_rules"} <= set(table)
    assert "test_accuracy" in capsys.readouterr().out


def test_sweep_spec_file_and_validation(csv_path, tmp_path, capsys):
    """A spec file works; unknown spec keys and empty grids are errors naming them."""
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"method": "cdpr-gdy", "target": "bought", "n_splits": 1,
                                "grid": [{"gamma": [2]}, {"gamma": [3], "lam": [0.5]}]}))
    out = tmp_path / "s.csv"
    assert main(["sweep", str(csv_path), "--spec", str(spec), "--out", str(out)]) == 0
    assert len(pd.read_csv(out)) == 2
    spec.write_text(json.dumps({"method": "cdpr-gdy", "target": "bought", "grdi": {}}))
    assert main(["sweep", str(csv_path), "--spec", str(spec), "--out", str(out)]) == 1
    assert "grdi" in capsys.readouterr().err


def test_report_command(csv_path, tmp_path, capsys):
    """report writes one HTML page with the rules, metrics and embedded plots."""
    rules, html = tmp_path / "r.json", tmp_path / "report.html"
    assert main(["learn", str(csv_path), "--target", "bought", "--method", "imli",
                 *METHOD_ARGS["imli"], "--out", str(rules)]) == 0
    assert main(["report", str(rules), str(csv_path), "--out", str(html)]) == 0
    page = html.read_text()
    assert "<h2>Rules</h2>" in page and "data:image/png;base64," in page
    assert "solver.status" in page and "OPTIMAL" in page


def test_demo_runs_every_method(capsys):
    """The README's first command: every method, one table, each method's rules.

    No solve has a time limit, so the table is the same on every machine: run twice, it is
    identical (the fit time is printed below the table, not in it)."""
    assert main(["demo", "--quiet", "--methods", "imli", "imlib"]) == 0
    first = capsys.readouterr().out.split("\n\n")[1]
    assert main(["demo", "--quiet"]) == 0
    out = capsys.readouterr().out
    table = out.split("\n\n")[1].splitlines()
    rows_of = [line.split() for line in first.splitlines()]
    assert [line.split() for line in table[2:4]] == rows_of[2:4]
    assert table[0].split()[:3] == ["method", "test_accuracy", "test_coverage"]
    assert "fit_time" not in table[0]
    rows = {line.split()[0]: line.split() for line in table[2:]}
    assert set(rows) == {"imli", "imlib", "cdpr-gra", "cdpr-gdy", "cdpr-exact"}
    for method, row in rows.items():
        assert 0.85 <= float(row[1]) <= 1, method         # honest, but not a broken learner
        # no time limit: every exact solve is proven optimal
        statuses = {part.split(":")[0] for part in row[-1].split(",")}
        assert statuses <= {"OPTIMAL", "heuristic"}, row[-1]
        assert (row[-1] == "heuristic") == method.startswith(("cdpr-gra", "cdpr-gdy"))
        assert f"== {method} ==" in out
    assert "malignant" in out and "benign" in out


# ----------------------------------------------------------------- encode / decode


@pytest.fixture(scope="module")
def tiny_csv(tmp_path_factory):
    """Small enough for every formulation to solve in well under a second."""
    rng = np.random.default_rng(11)
    n = 24
    frame = pd.DataFrame({"a": rng.integers(0, 4, n), "b": rng.choice(["x", "y", "z"], n),
                          "c": rng.integers(0, 2, n)})
    frame["t"] = np.where((frame.a >= 2) | (frame.b == "x"), "on", "off")
    frame.loc[0, "t"] = "on" if frame.loc[0, "t"] == "off" else "off"   # one noisy label
    path = tmp_path_factory.mktemp("tiny") / "tiny.csv"
    frame.to_csv(path, index=False)
    return path


def _external_solve(wcnf, style="bits", corrupt=None):
    """Play an external MaxSAT solver: RC2 on the file, printed in MSE format."""
    from satrules import solve
    from satrules.ir.wcnf import read_wcnf

    model = read_wcnf(wcnf)
    sol = solve(model, backend="rc2")
    values = sol.values.copy()
    cost = sol.cost
    if corrupt == "cost":
        cost += 1
    elif corrupt == "hard":
        values[1:] = ~values[1:]  # flips every variable: breaks some hard clause
    if style == "bits":
        v = "v " + "".join("1" if x else "0" for x in values[1:])
    else:
        v = "v " + " ".join(str(i if values[i] else -i) for i in range(1, len(values))) + " 0"
    return f"c fake solver\no {cost}\ns OPTIMUM FOUND\n{v}\n", sol


@pytest.mark.parametrize("method, extra", [("imli", ["--n-rules", "1"]),
                                           ("imlib", ["--n-rules", "1", "--max-literals", "2"]),
                                           ("imlib", ["--n-rules", "1", "--max-literals", "2",
                                                      "--thresholds", "tree"]),
                                           # no null test: on 24 rows its held-out
                                           # part turns every rule down
                                           ("cdprl", ["--gamma", "3", "--n-estimators", "4",
                                                      "--alpha", "0.7", "--null-test",
                                                      "false"])])
@pytest.mark.parametrize("style", ["bits", "literals"])
def test_encode_solve_decode_predict(method, extra, style, tiny_csv, tmp_path, capsys):
    """WCNF out, external answer in (bit string or literal list): checked, decoded, usable."""
    wcnf, layout, sol_txt, rules = (tmp_path / n for n in
                                    ("m.wcnf", "layout.json", "sol.txt", "rules.json"))
    assert main(["encode", str(tiny_csv), "--target", "t", "--method", method, *extra,
                 "--out", str(wcnf), "--layout", str(layout)]) == 0
    text, sol = _external_solve(wcnf, style)
    sol_txt.write_text(text)
    capsys.readouterr()
    assert main(["decode", str(wcnf), str(sol_txt), "--layout", str(layout),
                 "--out", str(rules)]) == 0
    out = capsys.readouterr().out
    assert "IF " in out and f"cost {sol.cost}" in out and "OPTIMAL" in out
    est = serialization.load(rules)
    frame = pd.read_csv(tiny_csv)
    pred = est.predict(frame.drop(columns="t"))
    assert set(pred) <= {"on", "off"}
    # the same problem fitted in process reaches the same optimum as the external answer
    from satrules.commands.learn import make_estimator

    X, y = frame.drop(columns="t"), frame.t.to_numpy()
    if method == "cdprl":
        clf = make_estimator("cdpr-exact", {"gamma": 3, "n_estimators": 4, "random_state": 0,
                                            "backend": "rc2", "alpha": 0.7,
                                            "null_test": False}).fit(X, y)
        assert est.result_.coverage == clf.result_.coverage
        assert (pred == clf.predict(X)).all() or est.result_.selected != clf.result_.selected
        # the training rows are in the layout: the class counts per region are kept
        assert est.region_counts_.sum() == len(frame)
        if est.result_.selected == clf.result_.selected:
            assert np.allclose(est.predict_proba(X), clf.predict_proba(X))
    else:
        params = {"n_rules": 1, "backend": "rc2", "n_partitions": 1}
        if method == "imlib":
            params["max_literals_per_rule"] = 2
        if "--thresholds" in extra:
            params["thresholds"] = extra[extra.index("--thresholds") + 1]
        clf = make_estimator(method, params).fit(X, y)
        assert clf.binarizer_.conditions_ == est.binarizer_.conditions_
        with pytest.raises(ValueError, match="satrules decode"):   # no training rows here
            est.predict_proba(X)
        assert clf.solution_.cost == sol.cost
    assert main(["predict", str(rules), str(tiny_csv)]) == 0


@pytest.mark.parametrize("corrupt, match", [("cost", "cost"), ("hard", "hard")])
def test_decode_rejects_wrong_answers(corrupt, match, tiny_csv, tmp_path, capsys):
    """An o value that disagrees with the IR cost, or a v line violating a hard clause, is an
    error (exit 1) and no rules file is written."""
    wcnf, layout, sol_txt, rules = (tmp_path / n for n in
                                    ("m.wcnf", "layout.json", "sol.txt", "rules.json"))
    assert main(["encode", str(tiny_csv), "--target", "t", "--method", "imli",
                 "--out", str(wcnf), "--layout", str(layout)]) == 0
    sol_txt.write_text(_external_solve(wcnf, corrupt=corrupt)[0])
    capsys.readouterr()
    assert main(["decode", str(wcnf), str(sol_txt), "--layout", str(layout),
                 "--out", str(rules)]) == 1
    assert match in capsys.readouterr().err.lower()
    assert not rules.exists()


def test_decode_rejects_mismatched_layout_and_missing_model(tiny_csv, tmp_path, capsys):
    """A layout from another encode, or an output without a v line, is refused."""
    a, b = tmp_path / "a.wcnf", tmp_path / "b.wcnf"
    la, lb = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["encode", str(tiny_csv), "--target", "t", "--method", "imli",
                 "--out", str(a), "--layout", str(la)]) == 0
    assert main(["encode", str(tiny_csv), "--target", "t", "--method", "imli", "--n-rules", "3",
                 "--out", str(b), "--layout", str(lb)]) == 0
    sol = tmp_path / "s.txt"
    sol.write_text(_external_solve(a)[0])
    capsys.readouterr()
    assert main(["decode", str(a), str(sol), "--layout", str(lb)]) == 1
    assert "different WCNF" in capsys.readouterr().err
    sol.write_text("s UNSATISFIABLE\n")
    assert main(["decode", str(a), str(sol), "--layout", str(la)]) == 1
    assert "no model" in capsys.readouterr().err


def test_encode_needs_positive_for_multiclass(tmp_path, capsys):
    """IMLI/IMLIB encode one class against the rest: > 2 classes need --positive."""
    path = tmp_path / "three.csv"
    pd.DataFrame({"a": [0, 1, 2, 3, 0, 1], "t": ["p", "q", "r", "p", "q", "r"]}).to_csv(
        path, index=False)
    out = tmp_path / "m.wcnf"
    assert main(["encode", str(path), "--target", "t", "--method", "imli",
                 "--out", str(out)]) == 1
    assert "--positive" in capsys.readouterr().err and not out.exists()
    assert main(["encode", str(path), "--target", "t", "--method", "imli", "--positive", "q",
                 "--out", str(out)]) == 0
    assert out.read_text().count("\n") > 0


@pytest.mark.parametrize("method", ["imli", "imlib", "cdpr-gra"])
def test_learn_and_report_three_classes(method, tmp_path, capsys):
    """Multi-class targets (one-vs-rest rule sets for IMLI/IMLIB) learn, predict and report."""
    rng = np.random.default_rng(5)
    n = 90
    frame = pd.DataFrame({"u": rng.integers(0, 6, n), "v": rng.choice(["a", "b"], n)})
    frame["cls"] = np.select([frame.u <= 1, frame.u <= 3], ["low", "mid"], "high")
    data = tmp_path / "three.csv"
    frame.to_csv(data, index=False)
    rules, html = tmp_path / "r.json", tmp_path / "r.html"
    extra = ["--backend", "rc2"] if method != "cdpr-gra" else ["--n-estimators", "5"]
    assert main(["learn", str(data), "--target", "cls", "--method", method, *extra,
                 "--out", str(rules)]) == 0
    out = capsys.readouterr().out
    if method != "cdpr-gra":   # one rule set per class, each printed with its class
        assert all(f"THEN {c}" in out for c in ("low", "mid", "high"))
    assert json.loads(rules.read_text())["metrics"]["test_accuracy"] >= 0.8
    assert main(["report", str(rules), str(data), "--out", str(html)]) == 0
    page = html.read_text()
    for cls in ("low", "mid", "high"):
        assert cls in page


def test_learn_and_encode_take_gamma_auto(tmp_path, capsys):
    """``--gamma auto`` reaches CDPR as ``gamma="auto"`` in learn and encode (14 classes:
    13 rules, and the exported model bounds the rules at 13); anything else but a
    positive whole number is refused, naming the flag."""
    rng = np.random.default_rng(0)
    codes = np.repeat(np.arange(14), 30)
    frame = pd.DataFrame({"x": codes + rng.uniform(-0.3, 0.3, len(codes)),
                          "cls": [f"c{k:02d}" for k in codes]})
    data = tmp_path / "many.csv"
    frame.to_csv(data, index=False)
    rules = tmp_path / "r.json"
    assert main(["learn", str(data), "--target", "cls", "--method", "cdpr-gra", "--gamma",
                 "auto", "--test-size", "0", "--out", str(rules)]) == 0
    assert serialization.load(rules).gamma_ == 13
    capsys.readouterr()
    wcnf, layout = tmp_path / "m.wcnf", tmp_path / "layout.json"
    assert main(["encode", str(data), "--target", "cls", "--method", "cdprl", "--gamma",
                 "auto", "--out", str(wcnf), "--layout", str(layout)]) == 0
    sol_txt, decoded = tmp_path / "sol.txt", tmp_path / "decoded.json"
    sol_txt.write_text(_external_solve(wcnf, "literals")[0])
    assert main(["decode", str(wcnf), str(sol_txt), "--layout", str(layout),
                 "--out", str(decoded)]) == 0
    assert len(serialization.load(decoded).rules_) == 13
    for bad in ("0", "many"):
        assert main(["learn", str(data), "--target", "cls", "--method", "cdpr-gra",
                     "--gamma", bad]) == 2
        assert "argument --gamma" in capsys.readouterr().err


def test_warnings_print_as_plain_cli_lines(tmp_path):
    """A warning during a command (an ID-like column dropped) prints as one
    'satrules learn: warning: ...' line, not as a library source line."""
    import subprocess
    import sys

    rng = np.random.default_rng(0)
    n = 80
    frame = pd.DataFrame({"name": [f"person {i}" for i in range(n)],
                          "x": rng.normal(size=n)})
    frame["t"] = (frame["x"] > 0).astype(int)
    frame.to_csv(tmp_path / "d.csv", index=False)
    proc = subprocess.run([sys.executable, "-m", "satrules.cli", "learn", str(tmp_path / "d.csv"),
                           "--target", "t", "--method", "imli", "--backend", "rc2", "--quiet"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "satrules learn: warning: dropped ID-like column(s)" in proc.stderr
    assert "UserWarning" not in proc.stderr and ".py:" not in proc.stderr


def test_encode_help_states_the_estimators_defaults():
    """Every "default X" in ``satrules encode``'s flag help is the value the estimator it
    builds really has (the help said k 1 and l 2 while the estimators used 2 and 3)."""
    import re

    from satrules.commands.encode import _FLAGS
    from satrules.commands.learn import make_estimator

    checked = 0
    for _, dest, _, text in _FLAGS:
        methods = [m for m in ("imli", "imlib") if re.search(rf"\b{m}\b", text)] or \
            ([] if re.search(r"\bcdprl\b", text) else ["imli", "imlib"])   # CDPR's own
        match = re.search(r"default (\w+)\)", text) or re.search(r"(\w+) \(default\)", text)
        if not match or dest in ("alpha", "beta", "gamma", "delta"):
            continue
        for method in methods:
            params = make_estimator(method).get_params()
            if dest in params:
                assert str(params[dest]).removesuffix(".0") == match.group(1), (dest, method)
                checked += 1
    assert checked >= 6


def _european_csv(path, encoding="utf-8"):
    """A file as Excel writes it where the comma is the decimal mark: ``;`` separators,
    decimal commas, accented city names."""
    rng = np.random.default_rng(3)
    n = 90
    score = rng.uniform(0, 10, n).round(1)
    city = rng.choice(["Zürich", "Genève", "Bern"], n)
    label = np.where(score > 5, "ja", "nein")
    lines = ["score;city;label"] + [f"{s:.1f}".replace(".", ",") + f";{c};{t}"
                                    for s, c, t in zip(score, city, label, strict=True)]
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode(encoding))
    return score, city


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252"])
def test_read_table_reads_semicolons_decimal_commas_and_windows_text(encoding, tmp_path):
    from satrules.commands.learn import read_table

    path = tmp_path / "europe.csv"
    score, city = _european_csv(path, encoding)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        X, y = read_table(str(path), "label")
    assert X.columns.tolist() == ["score", "city"]
    assert X["score"].dtype == float and np.allclose(X["score"], score)
    assert X["city"].tolist() == city.tolist()
    assert any("not UTF-8" in str(w.message) for w in caught) == (encoding != "utf-8")


@pytest.mark.parametrize("compression", ["gzip", "bz2", "xz", "zip"])
def test_read_table_reads_compressed_files(compression, tmp_path):
    """A compressed CSV (data.csv.gz, as pandas reads it) is read as the plain file, by
    its first bytes whatever its name; learn and predict take it alike."""
    from satrules.commands.learn import read_table

    path = tmp_path / "europe.csv"
    _european_csv(path)
    packed = tmp_path / "europe.data"   # no telling extension
    pd.read_csv(path, sep=";", dtype=str, keep_default_na=False).to_csv(
        packed, sep=";", index=False, compression={"method": compression,
                                                   **({"archive_name": "europe.csv"}
                                                      if compression == "zip" else {})})
    X, y = read_table(str(path), "label")
    X2, y2 = read_table(str(packed), "label")
    pd.testing.assert_frame_equal(X, X2)
    assert y.tolist() == y2.tolist()
    rules = tmp_path / "r.json"
    assert main(["learn", str(packed), "--target", "label", "--method", "imli", "--n-rules",
                 "1", "--backend", "rc2", "--out", str(rules), "-q"]) == 0
    assert main(["predict", str(rules), str(packed), "--out", str(tmp_path / "p.csv")]) == 0


@pytest.mark.parametrize(("name", "content", "message"), [
    ("cut.csv.gz", lambda: __import__("gzip").compress(b"a,y\n1,0\n2,1\n" * 50)[:-12],
     "gzip compression is corrupt or cut short"),
    ("two.zip", lambda: _zip({"a.csv": "a,y\n1,0\n", "b.csv": "a,y\n2,1\n"}),
     "a zip archive of 2 files"),
    ("book.xlsx", lambda: _zip({"[Content_Types].xml": "<Types/>", "xl/workbook.xml": "<w/>"}),
     "Excel workbook"),
    ("t.parquet", lambda: b"PAR1" + bytes(range(1, 40)) + b"PAR1", "is a Parquet file"),
    ("old.xls", lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100), "Excel .xls"),
])
def test_files_that_are_not_csv_are_named(name, content, message, tmp_path, capsys):
    path = tmp_path / name
    path.write_bytes(content())
    assert main(["learn", str(path), "--target", "y", "--method", "imli", "-q"]) == 1
    err = capsys.readouterr().err
    assert message in err and "NUL bytes" not in err


def _zip(members: dict[str, str]) -> bytes:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for member, text in members.items():
            archive.writestr(member, text)
    return buffer.getvalue()


def test_learn_from_a_semicolon_csv_cuts_the_decimal_comma_column(tmp_path, capsys):
    path = tmp_path / "europe.csv"
    _european_csv(path)
    assert main(["learn", str(path), "--target", "label", "--method", "imli",
                 "--n-rules", "1", "--backend", "rc2", "--out", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "score <=" in out or "score >" in out, out


@pytest.mark.parametrize("sep", ["\t", "|"])
def test_read_table_other_separators_and_quoted_separators(sep, tmp_path):
    from satrules.commands.learn import read_table

    path = tmp_path / "t.csv"
    path.write_text(f'name{sep}note{sep}y\n"a;b"{sep}"x, y"{sep}1\nc{sep}d{sep}0\n')
    X, y = read_table(str(path), "y")
    assert X.columns.tolist() == ["name", "note"] and X["note"].tolist() == ["x, y", "d"]
    comma = tmp_path / "c.csv"
    comma.write_text('name,note,y\n"a;b;c","1,5",1\nd,"2,5",0\n')
    X, _ = read_table(str(comma), "y")
    assert X["name"].tolist() == ["a;b;c", "d"]
    assert X["note"].tolist() == ["1,5", "2,5"]   # in a comma file a comma is no decimal mark


def test_decimal_commas_with_thousands_dots_and_text_with_commas(tmp_path):
    from satrules.commands.learn import read_table

    path = tmp_path / "d.csv"
    path.write_text("a;b;c;y\n1.234,5;4,5;x,1;0\n12;-0,25;y,2;1\n3,0;1e3;z;0\n")
    X, _ = read_table(str(path), "y")
    assert X["a"].tolist() == [1234.5, 12.0, 3.0]
    assert X["b"].tolist() == [4.5, -0.25, 1000.0]
    assert X["c"].tolist() == ["x,1", "y,2", "z"]   # not numbers: stays text


def test_decimal_commas_with_a_unit_are_quantities(tmp_path):
    """A ';' file as Excel writes it in much of Europe: 13,5 % and € 1.250,50 are read with
    decimal points, as quantities; units that differ keep the text as written."""
    from satrules.binarize import ThresholdBinarizer
    from satrules.commands.learn import read_table

    path = tmp_path / "eu.csv"
    path.write_text("rate;amount;dose;y\n13,5 %;€ 1.250,50;1,5 mg;1\n7 %;€ 980,00;2 g;0\n"
                    "22,25 %;€ 12.000,00;1,5 mg;1\n9,9 %;;2 g;0\n", encoding="utf-8")
    X, _ = read_table(str(path), "y")
    assert X["rate"].tolist() == ["13.5 %", "7 %", "22.25 %", "9.9 %"]
    assert X["amount"].tolist()[:3] == ["€ 1250.50", "€ 980.00", "€ 12000.00"]
    assert X["dose"].tolist() == ["1,5 mg", "2 g", "1,5 mg", "2 g"]   # mg and g: a category
    tb = ThresholdBinarizer().fit(X)
    assert tb.feature_kinds_ == {"rate": "quantity", "amount": "quantity", "dose": "binary"}
    assert "amount <= €980" in tb.get_feature_names_out()


def test_read_table_reads_named_columns_with_decimal_commas_without_a_comma(tmp_path):
    """comma_columns: whole numbers written with thousands dots (1.234, € 3.500) in those
    columns are 1234 and € 3500, as in a training file that wrote 1.234,5; other columns
    are read as before, and the names read that way are in X.attrs."""
    from satrules.commands.learn import read_table

    path = tmp_path / "batch.csv"
    path.write_text("level;amount;other;y\n1.234;€ 3.500;1.5;0\n2.100;€ 980;2.25;1\n",
                    encoding="utf-8")
    X, _ = read_table(str(path), "y")   # no comma anywhere: read as pandas reads it
    assert X["level"].tolist() == [1.234, 2.1] and X.attrs["comma_columns"] == []
    X, _ = read_table(str(path), "y", comma_columns=["level", "amount", "gone"])
    assert X["level"].tolist() == [1234.0, 2100.0]
    assert X["amount"].tolist() == ["€ 3500", "€ 980"]
    assert X["other"].tolist() == [1.5, 2.25]
    assert X.attrs["comma_columns"] == ["level", "amount"]


def test_predict_reads_a_batch_as_learn_read_its_file(tmp_path, capsys):
    """learn on a ';' file that writes 1.234,5 and € 1.250,50 saves which columns it read
    with decimal commas; predict and report read a later batch of whole amounts (€ 3.500;
    1.200: no comma) the same way.  Before, the batch was read as 3.5 and 1.2, and the
    predictions were silently those of other values."""
    rng = np.random.default_rng(0)
    amount = rng.integers(500, 5000, 300) + rng.integers(0, 100, 300) / 100
    level = rng.integers(100, 3000, 300) + rng.integers(0, 10, 300) / 10
    label = (amount > 2000).astype(int)

    def eu(v):   # 1234.5 -> "1.234,50"
        return f"{v:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")

    rows = [f"€ {eu(a)};{eu(b)};{t}" for a, b, t in zip(amount, level, label, strict=True)]
    (tmp_path / "train.csv").write_text("amount;level;y\n" + "\n".join(rows) + "\n",
                                        encoding="utf-8")
    rules = str(tmp_path / "r.json")
    assert main(["learn", str(tmp_path / "train.csv"), "--target", "y", "--method", "imli",
                 "--backend", "rc2", "--quiet", "--out", rules]) == 0
    capsys.readouterr()
    assert json.loads((tmp_path / "r.json").read_text())["extra"]["comma_columns"] == \
        ["amount", "level"]
    batch, commas = tmp_path / "batch.csv", tmp_path / "commas.csv"
    batch.write_text("amount;level;y\n€ 3.500;1.200;1\n€ 1.000;2.000;0\n", encoding="utf-8")
    commas.write_text("amount;level;y\n€ 3.500,00;1.200,00;1\n€ 1.000,00;2.000,00;0\n",
                      encoding="utf-8")
    predictions = []
    for path in (batch, commas):
        assert main(["predict", rules, str(path)]) == 0
        out = capsys.readouterr().out.splitlines()
        predictions.append([line.rsplit(",", 1)[1] for line in out[1:]])
    assert predictions[0] == predictions[1] == ["1", "0"]
    assert main(["report", rules, str(batch), "--out", str(tmp_path / "r.html")]) == 0
    assert "accuracy 1.0000" in capsys.readouterr().err
    doc = json.loads((tmp_path / "r.json").read_text())
    doc["extra"]["comma_columns"] = "amount"
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    assert main(["predict", str(tmp_path / "bad.json"), str(batch)]) == 1
    assert "extra.comma_columns: expected a list of strings" in capsys.readouterr().err


def test_na_values_option_reads_placeholders_as_missing(tmp_path, capsys):
    """A '.' among numbers (SAS and Stata's missing value: medicaldata/opt) is refused
    with a hint that names the command-line option; --na-values reads it as missing in
    learn, predict and sweep."""
    rng = np.random.default_rng(0)
    a = rng.normal(size=60).round(2)
    frame = pd.DataFrame({"a": a.astype(str), "y": np.where(a > 0, "yes", "no")})
    frame.loc[[3, 17], "a"] = "."
    frame.to_csv(tmp_path / "dots.csv", index=False)
    data, rules = str(tmp_path / "dots.csv"), str(tmp_path / "r.json")
    assert main(["learn", data, "--target", "y", "--method", "imli", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "holds 2 non-numeric value(s): ['.']" in err and "(here: --na-values .)" in err
    assert main(["learn", data, "--target", "y", "--method", "imli", "--na-values", ".",
                 "--backend", "rc2", "--quiet", "--out", rules]) == 0
    capsys.readouterr()
    assert main(["predict", rules, data]) == 0   # the saved model keeps '.'
    predicted = capsys.readouterr().out.splitlines()
    assert len(predicted) == 61 and predicted[0].endswith("prediction")
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["extra"]["na_values"] == ["."]
    del doc["extra"]["na_values"]   # a model saved without them: predict names the '.'
    (tmp_path / "bare.json").write_text(json.dumps(doc))
    assert main(["predict", str(tmp_path / "bare.json"), data]) == 1
    err = capsys.readouterr().err
    assert "non-numeric value(s) ['.']" in err and "(here: --na-values .)" in err
    assert main(["predict", str(tmp_path / "bare.json"), data, "--na-values", "."]) == 0
    assert main(["sweep", data, "--target", "y", "--method", "imli", "--na-values", ".",
                 "--n-splits", "1", "--param", "backend=rc2", "--grid", "n_rules=1",
                 "--out", str(tmp_path / "s.csv")]) == 0


def test_command_line_hint_quotes_values_and_never_fails():
    from satrules.cli import _command_line_hint

    advice = "replace them (for a CSV: pandas.read_csv(..., na_values={}))"
    assert _command_line_hint(advice.format("['.']")) == "replace them (here: --na-values .)"
    assert _command_line_hint(advice.format("['no data']")).endswith("--na-values 'no data')")
    odd = advice.format("['x'") + "]"   # not a list literal: the advice is kept as it is
    assert _command_line_hint(odd) == odd


def test_learn_errors_name_the_flag_not_the_parameter(tmp_path, capsys):
    """An estimator's check of a parameter learn set by a flag names the flag
    (``--rule-class``, not ``rule_class``); a list of parameter names stays as it is."""
    path = tmp_path / "three.csv"
    pd.DataFrame({"a": range(30), "y": ["p", "q", "r"] * 10}).to_csv(path, index=False)
    assert main(["learn", str(path), "--target", "y", "--method", "imli",
                 "--rule-class", "p"]) == 1
    err = capsys.readouterr().err
    assert "error: --rule-class applies to two classes" in err and "rule_class" not in err
    assert main(["learn", str(path), "--target", "y", "--method", "imli",
                 "--param", "n_rule=2"]) == 1
    assert "(did you mean n_rules?)" in capsys.readouterr().err


@pytest.fixture()
def rare_csv(tmp_path):
    """400 rows, 40 "yes"; flag = 1 on all of them and on 60 "no" rows.  Also written
    with a weight column (9 on the "yes" rows) and a text column, as rare_weighted.csv."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"flag": np.r_[np.ones(60), np.zeros(300), np.ones(40)].astype(int),
                          "noise": rng.integers(0, 2, 400),
                          "answer": ["no"] * 360 + ["yes"] * 40})
    frame.to_csv(tmp_path / "rare.csv", index=False)
    frame.assign(survey_weight=np.r_[np.ones(360), np.full(40, 9.0)],
                 comment="ok").to_csv(tmp_path / "rare_weighted.csv", index=False)
    return tmp_path / "rare.csv"


@pytest.mark.parametrize("weighting", [["--class-weight", "balanced"],
                                       ["--class-weight", '{"yes": 9}'],
                                       ["--weight-column", "survey_weight"]])
def test_learn_weighs_rows(weighting, rare_csv, tmp_path, capsys):
    """Unweighted, no rule beats "always no" here; weighted, the rule flag = 1 is learned.
    The weight column is not a feature (it would give the answer away), and predict
    ignores it."""
    data = rare_csv.with_name("rare_weighted.csv") if "--weight-column" in weighting \
        else rare_csv
    rules = tmp_path / "rules.json"
    assert main(["learn", str(data), "--target", "answer", "--method", "imli", "--n-rules",
                 "1", "--backend", "rc2", "--test-size", "0", *weighting,
                 "--out", str(rules)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("IF (flag")
    est = serialization.load(rules)
    assert "survey_weight" not in est.feature_names_in_.tolist()
    assert main(["predict", str(rules), str(data), "--out", str(tmp_path / "p.csv")]) == 0
    pred = pd.read_csv(tmp_path / "p.csv").prediction
    assert ((pred == "yes") == (pd.read_csv(data).flag == 1)).all()


def test_learn_without_weights_keeps_the_majority(rare_csv, capsys):
    assert main(["learn", str(rare_csv), "--target", "answer", "--method", "imli",
                 "--n-rules", "1", "--backend", "rc2", "--test-size", "0"]) == 0
    assert "Always no" in capsys.readouterr().out


@pytest.mark.parametrize("args, match", [
    (["--weight-column", "nope"], "--weight-column 'nope' is not a column"),
    (["--weight-column", "comment"],
     "must hold finite non-negative numbers; data row 1 has 'ok'"),
    (["--class-weight", "heavy"], "expected balanced or a JSON object"),
])
def test_learn_refuses_bad_weights(args, match, rare_csv, capsys):
    base = ["learn", str(rare_csv.with_name("rare_weighted.csv")), "--target", "answer"]
    if "--method" not in args:
        base += ["--method", "imli"]
    assert main(base + args) != 0
    assert match in capsys.readouterr().err


@pytest.mark.parametrize("method", ["imli", "imlib"])
@pytest.mark.parametrize("weighting", [["--class-weight", "balanced"],
                                       ["--weight-column", "survey_weight"]])
def test_encode_weighs_rows_as_a_one_partition_fit(method, weighting, rare_csv, tmp_path,
                                                   capsys):
    """The exported problem weighs the rows as a one-partition fit does: its optimum is that
    fit's solve cost, and decoding the answer gives the weighted rule flag = 1."""
    data = rare_csv.with_name("rare_weighted.csv") if "--weight-column" in weighting \
        else rare_csv
    wcnf, layout, sol_txt, rules = (tmp_path / n for n in
                                    ("m.wcnf", "layout.json", "sol.txt", "rules.json"))
    assert main(["encode", str(data), "--target", "answer", "--method", method,
                 "--n-rules", "1", *weighting, "--out", str(wcnf),
                 "--layout", str(layout)]) == 0
    text, sol = _external_solve(wcnf, "literals")
    sol_txt.write_text(text)
    assert main(["decode", str(wcnf), str(sol_txt), "--layout", str(layout),
                 "--out", str(rules)]) == 0
    assert capsys.readouterr().out.startswith("IF (flag")
    from satrules.commands.learn import make_estimator

    frame = pd.read_csv(data)
    X = frame.drop(columns=["answer", "survey_weight"], errors="ignore")
    y = frame.answer.to_numpy()
    params = {"n_rules": 1, "backend": "rc2", "n_partitions": 1}
    if "--class-weight" in weighting:
        clf = make_estimator(method, {**params, "class_weight": "balanced"}).fit(X, y)
    else:
        clf = make_estimator(method, params).fit(X, y, sample_weight=frame.survey_weight)
    assert clf.weighted_ and clf.solution_.cost == sol.cost


@pytest.mark.parametrize("weighting", [["--class-weight", "balanced"],
                                       ["--weight-column", "survey_weight"]])
def test_cdpr_weighs_rows_in_learn_and_encode(weighting, rare_csv, tmp_path, capsys):
    """CDPR counts a row of weight w as w rows: unweighted, flag = 1 is right on 40 % of
    its rows as "yes" and never selected; weighted, it is.  The exported CDPRL problem
    is weighed alike: its optimum is the exact fit's coverage, and decoding the answer
    gives that fit's rules, default and region counts."""
    data = rare_csv.with_name("rare_weighted.csv") if "--weight-column" in weighting \
        else rare_csv
    base = ["--target", "answer", "--gamma", "3", "--n-estimators", "4"]
    assert main(["learn", str(rare_csv), *base, "--method", "cdpr-exact", "--test-size",
                 "0", "--backend", "rc2"]) == 0
    assert "flag" not in capsys.readouterr().out.split("metric")[0]
    assert main(["learn", str(data), *base, "--method", "cdpr-exact", "--test-size", "0",
                 "--backend", "rc2", *weighting]) == 0
    rules_text = capsys.readouterr().out.split("metric")[0]
    assert "IF flag = 1" in rules_text and "THEN yes" in rules_text
    wcnf, layout, sol_txt, rules = (tmp_path / n for n in
                                    ("m.wcnf", "layout.json", "sol.txt", "rules.json"))
    assert main(["encode", str(data), *base, "--method", "cdprl", *weighting,
                 "--out", str(wcnf), "--layout", str(layout)]) == 0
    text, _ = _external_solve(wcnf, "literals")
    sol_txt.write_text(text)
    assert main(["decode", str(wcnf), str(sol_txt), "--layout", str(layout),
                 "--out", str(rules)]) == 0
    est = serialization.load(rules)
    from satrules.commands.learn import make_estimator

    frame = pd.read_csv(data)
    X = frame.drop(columns=["answer", "survey_weight"], errors="ignore")
    y = frame.answer.to_numpy()
    params = {"gamma": 3, "n_estimators": 4, "random_state": 0, "backend": "rc2"}
    if "--class-weight" in weighting:
        clf = make_estimator("cdpr-exact", {**params, "class_weight": "balanced"}).fit(X, y)
    else:
        clf = make_estimator("cdpr-exact", params).fit(X, y, sample_weight=frame.survey_weight)
    assert clf.weighted_ and est.result_.coverage == clf.result_.coverage
    assert (est.predict(X) == clf.predict(X)).all() and est.default_ == clf.default_
    assert np.allclose(est.region_counts_, clf.region_counts_)


@pytest.mark.parametrize("command", ["learn", "encode"])
@pytest.mark.parametrize("value, shown", [(-1.5, "-1.5"), (np.inf, "inf"), (np.nan, "nan")])
def test_weight_column_names_the_data_row(command, value, shown, rare_csv, tmp_path, capsys):
    """A bad weight is reported with its data row in the file (not its row in the training
    split) and as written (inf, nan; not a numpy repr); nothing is written."""
    frame = pd.read_csv(rare_csv)
    frame["w"] = 1.0
    frame.loc[6, "w"] = value
    frame.to_csv(tmp_path / "w.csv", index=False)
    out = tmp_path / ("rules.json" if command == "learn" else "m.wcnf")
    assert main([command, str(tmp_path / "w.csv"), "--target", "answer", "--method", "imli",
                 "--weight-column", "w", "--out", str(out)]) != 0
    err = capsys.readouterr().err
    assert f"must hold finite non-negative numbers; data row 7 has {shown}\n" in err
    assert not out.exists()


def export_cdprl(data, tmp_path, *extra):
    """``encode --method cdprl`` of the CSV ``data`` (target ``label``, gamma 3, 4 trees of
    the exact-split miner), an external answer, ``decode``: the decoded model."""
    wcnf, layout, sol_txt, rules = (tmp_path / n for n in
                                    ("m.wcnf", "layout.json", "sol.txt", "rules.json"))
    base = ["--target", "label", "--gamma", "3", "--n-estimators", "4", "--miner", "gbdt"]
    assert main(["encode", str(data), *base, "--method", "cdprl", *extra,
                 "--out", str(wcnf), "--layout", str(layout)]) == 0
    sol_txt.write_text(_external_solve(wcnf, "literals")[0])
    assert main(["decode", str(wcnf), str(sol_txt), "--layout", str(layout),
                 "--out", str(rules)]) == 0
    return serialization.load(rules)


def test_encode_cdprl_with_a_class_of_weight_zero(tmp_path, capsys):
    """A class whose rows all weigh 0 keeps its name in the exported rules: the decoded
    model is the in-process exact fit with the same weights."""
    from satrules.commands.learn import make_estimator
    from tests.estimators.test_proba import table

    X, y = table(0, 150, 3, 0.1)
    frame = X.assign(label=y, w=np.where(y == "k1", 0.0, 1.0))
    data = tmp_path / "three.csv"
    frame.to_csv(data, index=False)
    # the exact-split miner: its pool here has one optimum, so the selections agree rule
    # for rule (the binned miner's has several of equal coverage, and the engines differ)
    est = export_cdprl(data, tmp_path, "--weight-column", "w")
    capsys.readouterr()
    clf = make_estimator("cdpr-exact", {"gamma": 3, "n_estimators": 4, "random_state": 0,
                                        "backend": "rc2", "miner": "gbdt"}
                         ).fit(X, y, sample_weight=frame.w)
    assert est.result_.coverage == clf.result_.coverage
    assert str(est.rules_) == str(clf.rules_) and "k1" not in est.predict(X)


@pytest.mark.parametrize("alpha, grid", [("cv", (0.6, 0.7, 0.8, 0.9)), ("0.6,0.9", (0.6, 0.9))])
def test_learn_chooses_alpha_by_cross_validation(alpha, grid, csv_path, tmp_path, capsys):
    """--alpha cv (or a list) prints the value chosen and each value's held-out accuracy,
    and the saved rules are the estimator's fit with that choice."""
    rules = tmp_path / "rules.json"
    assert main(["learn", str(csv_path), "--target", "bought", "--method", "cdpr-gra",
                 "--n-estimators", "5", "--alpha", alpha, "--out", str(rules)]) == 0
    out = capsys.readouterr().out
    est = serialization.load(rules)
    assert tuple(est.alpha_cv_) == grid and est.alpha_ in grid
    assert f"alpha_chosen             {est.alpha_:.3f}" in out
    assert "alpha_cv_accuracy        " + " ".join(
        f"{a:g}:{v:.3f}" for a, v in est.alpha_cv_.items()) in out


def test_learn_refuses_a_bad_alpha(csv_path, capsys):
    assert main(["learn", str(csv_path), "--target", "bought", "--method", "cdpr-gra",
                 "--alpha", "high"]) == 2
    assert "expected a number, cv or numbers separated by commas" in capsys.readouterr().err


def _encode_decode_cdprl(csv_path, tmp_path, alpha: str):
    """``encode --method cdprl --alpha ALPHA``, an external answer, ``decode``: the decoded
    model, and the in-process exact fit with the same parameters."""
    from satrules.commands.learn import alpha_value, make_estimator

    wcnf, layout, sol_txt, rules = (tmp_path / n for n in
                                    ("m.wcnf", "layout.json", "sol.txt", "rules.json"))
    assert main(["encode", str(csv_path), "--target", "bought", "--method", "cdprl",
                 "--gamma", "3", "--n-estimators", "4", "--alpha", alpha,
                 "--out", str(wcnf), "--layout", str(layout)]) == 0
    sol_txt.write_text(_external_solve(wcnf, "literals")[0])
    assert main(["decode", str(wcnf), str(sol_txt), "--layout", str(layout),
                 "--out", str(rules)]) == 0
    frame = pd.read_csv(csv_path)
    X, y = frame.drop(columns="bought"), frame.bought.to_numpy()
    clf = make_estimator("cdpr-exact", {"gamma": 3, "n_estimators": 4, "random_state": 0,
                                        "backend": "rc2", "alpha": alpha_value(alpha)}
                         ).fit(X, y)
    return serialization.load(rules), clf


def test_encode_cdprl_with_alpha_chosen_by_cross_validation(csv_path, tmp_path, capsys):
    """``encode --alpha cv`` chooses alpha as the in-process exact fit does (cross-validated
    with the local search), so the exported optimum is that fit's."""
    est, clf = _encode_decode_cdprl(csv_path, tmp_path, "cv")
    assert est.alpha_ == clf.alpha_ and est.alpha_cv_ == clf.alpha_cv_
    assert est.result_.coverage == clf.result_.coverage
    assert main(["encode", str(csv_path), "--target", "bought", "--method", "cdprl",
                 "--alpha", "most", "--out", str(tmp_path / "m.wcnf")]) == 2
    assert "expected a number, cv or numbers" in capsys.readouterr().err


def test_encode_cdprl_with_a_fixed_alpha_keeps_the_held_out_null_test(csv_path, tmp_path):
    """A fixed ``--alpha`` gets the held-out null test too: ``decode`` applies the verdict
    of the cross-validation ``encode`` made, which is the in-process exact fit's."""
    est, clf = _encode_decode_cdprl(csv_path, tmp_path, "0.7")
    assert clf.held_out_test_ is not None and est.alpha_cv_ is None
    assert est.held_out_test_ == clf.held_out_test_
    assert est.null_test_["held_out"] == clf.null_test_["held_out"]
    assert est.null_test_["passed"] == (est.null_test_["training_passed"]
                                        and clf.held_out_test_["passed"])
    assert est.result_.coverage == clf.result_.coverage


def test_q_is_short_for_quiet(csv_path, tmp_path):
    """``-q`` is ``--quiet`` in learn, sweep and demo (what a user types first)."""
    from satrules.cli import build_parser

    parser = build_parser()
    learn = parser.parse_args(["learn", str(csv_path), "--target", "bought", "--method",
                               "imli", "--out", str(tmp_path / "r.json"), "-q"])
    sweep = parser.parse_args(["sweep", str(csv_path), "--target", "bought", "--method",
                               "imli", "--out", str(tmp_path / "r.csv"), "-q"])
    assert learn.quiet and sweep.quiet and parser.parse_args(["demo", "-q"]).quiet


@pytest.mark.parametrize("method", ["imli", "imlib"])
def test_learn_passes_extra_rules(method, tiny_csv, tmp_path, capsys):
    """``--extra-rules N`` reaches the estimator (and its saved file); the default is 2."""
    for flags, expected in (([], 2), (["--extra-rules", "0"], 0), (["--extra-rules", "5"], 5)):
        out = tmp_path / f"{method}{expected}.json"
        assert main(["learn", str(tiny_csv), "--target", "t", "--method", method,
                     "--backend", "rc2", "-q", *flags, "--out", str(out)]) == 0
        est = serialization.load(out)
        assert est.extra_rules == expected
        assert est.rules_.n_rules <= est.n_rules + expected
    capsys.readouterr()


@pytest.mark.parametrize("nodes", ["leaves", "all"])
def test_learn_passes_nodes_to_cdpr(nodes, csv_path, tmp_path, capsys):
    """--nodes reaches CDPRClassifier: the saved rules are its fit with that value, and
    the candidates of every node hold more rules than the leaves'."""
    from satrules.commands.learn import make_estimator, read_table

    rules = tmp_path / "rules.json"
    assert main(["learn", str(csv_path), "--target", "bought", "--method", "cdpr-gra",
                 "--n-estimators", "5", "--nodes", nodes, "--test-size", "0",
                 "--out", str(rules)]) == 0
    capsys.readouterr()
    est = serialization.load(rules)
    frame, y = read_table(str(csv_path), "bought")
    clf = make_estimator("cdpr-gra", {"n_estimators": 5, "nodes": nodes,
                                      "random_state": est.random_state}).fit(frame, y)
    assert est.nodes == nodes and str(est.rules_) == str(clf.rules_)
    leaves = make_estimator("cdpr-gra", {"n_estimators": 5, "nodes": "leaves",
                                         "random_state": est.random_state}).fit(frame, y)
    assert (clf.candidates_ > leaves.candidates_) == (nodes == "all")


def test_encode_cdprl_with_every_node(csv_path, tmp_path):
    """``encode --method cdprl --nodes all`` exports the candidates of every tree node:
    the decoded model keeps ``nodes="all"`` and is the in-process exact fit with it."""
    from satrules.commands.learn import make_estimator, read_table

    frame, y = read_table(str(csv_path), "bought")
    data = tmp_path / "shop.csv"
    frame.assign(label=y).to_csv(data, index=False)
    est = export_cdprl(data, tmp_path, "--nodes", "all")
    clf = make_estimator("cdpr-exact", {"gamma": 3, "n_estimators": 4, "random_state": 0,
                                        "backend": "rc2", "miner": "gbdt", "nodes": "all"}
                         ).fit(frame, y)
    assert est.nodes == "all" and est.candidates_ == clf.candidates_
    assert est.result_.coverage == clf.result_.coverage


def test_learn_and_sweep_split_small_data_of_many_classes(tmp_path, capsys):
    """33 rows of 8 classes (stevedata/wvs_usa_educat): the 7 test rows cannot hold every
    class, so the split is not stratified; it failed with scikit-learn's "The test_size = 7
    should be greater or equal to the number of classes = 8"."""
    rng = np.random.default_rng(0)
    y = np.array(list("abcdefgh") * 4 + ["a"])
    data = tmp_path / "small.csv"
    pd.DataFrame({"x": rng.normal(size=len(y)), "label": y}).to_csv(data, index=False)
    assert main(["learn", str(data), "--target", "label", "--method", "imli", "--backend",
                 "rc2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "n_train                  26" in out and "n_test                   7" in out
    assert main(["sweep", str(data), "--target", "label", "--method", "imli", "--grid",
                 "n_rules=1", "--n-splits", "2", "--param", "backend=rc2", "--quiet",
                 "--out", str(tmp_path / "sweep.csv")]) == 0
    table = pd.read_csv(tmp_path / "sweep.csv")
    assert len(table) == 2 and table["error"].isna().all()


def test_learn_refuses_a_target_of_numbers_that_are_not_whole(tmp_path, capsys):
    """A target of doses (medicaldata/theoph: 4.02, 4.4, ...) is a quantity: the error names
    the column and its values instead of scikit-learn's "Unknown label type: continuous";
    whole numbers, even read as floats because of a missing label, are classes."""
    rng = np.random.default_rng(1)
    x = rng.normal(size=60)
    data = tmp_path / "dose.csv"
    pd.DataFrame({"x": x, "dose": rng.choice([4.02, 4.4, 5.5], 60)}).to_csv(data, index=False)
    learn = ["learn", str(data), "--target", "dose", "--method", "imli", "--backend", "rc2",
             "--quiet"]
    assert main(learn) == 1
    assert ("target column 'dose' holds numbers that are not whole (4.02, 4.4, 5.5; 3 "
            "distinct values)") in capsys.readouterr().err
    grade = np.where(x > 0, 2.0, 1.0)
    grade[5] = np.nan
    pd.DataFrame({"x": x, "dose": grade}).to_csv(data, index=False)
    assert main([*learn, "--drop-unlabelled"]) == 0


def test_learn_says_when_the_test_rows_took_a_class_of_one_row(tmp_path, capsys):
    """openintro/epa2012's ``fuel_cell`` is ``N`` in 241 rows and ``Y`` in one: a split
    that holds out that row leaves one class to learn; the error says so and how to go on,
    not scikit-learn's bare "y has only 1 class"."""
    data = tmp_path / "rare.csv"
    y = ["N"] * 40 + ["Y"]
    x = np.random.default_rng(0).normal(size=41).round(2)
    pd.DataFrame({"x": x, "fuel_cell": y}).to_csv(data, index=False)
    learn = ["learn", str(data), "--target", "fuel_cell", "--method", "imli", "--backend",
             "rc2", "--quiet"]
    failed = []
    for seed in range(10):
        if main([*learn, "--random-state", str(seed)]) == 1:
            failed.append(seed)
            assert ("the training rows hold only the class 'N': the test rows took every row "
                    "of 'Y' (1 row); a rule learner needs two classes") in capsys.readouterr().err
    assert failed and len(failed) < 10   # some splits keep the row in training
    assert main([*learn, "--test-size", "0"]) == 0
