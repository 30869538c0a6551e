"""The documentation builds with warnings as errors, its reliability table is true
(every test it names exists and every reliability test file is listed), and the
examples in the README and the tutorials print the output the pages show."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_sphinx_build_without_warnings(tmp_path):
    """`sphinx-build -W` succeeds; the CLI page shows live --help, the API page has docstrings."""
    pytest.importorskip("sphinx")   # the `test` extra should carry the `docs` extra's packages
    pytest.importorskip("myst_parser")
    pytest.importorskip("numpydoc")
    out = tmp_path / "html"
    # listed before the build: benchmark scripts may add result files while it runs
    results = sorted((ROOT / "benchmarks" / "results").glob("*.md"))
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    cli = (out / "cli.html").read_text(encoding="utf-8")
    assert "usage: satrules learn" in cli and "--target" in cli and "usage: satrules demo" in cli
    api = (out / "api.html").read_text(encoding="utf-8")
    assert "IMLIClassifier" in api and "run_sweep" in api and "atomic_write" in api
    for page in ("concepts", "tutorials/imli", "tutorials/imlib", "tutorials/cdpr", "sweeps",
                 "external_solver", "benchmarks", "reliability", "imlib_objective",
                 "cdpr_paper_errata", "backends", "files"):
        assert (out / f"{page}.html").exists(), page
    bench = (out / "benchmarks.html").read_text(encoding="utf-8")
    for path in results:
        assert path.name in bench


def _reliability_refs():
    text = (DOCS / "reliability.md").read_text(encoding="utf-8")
    return text, re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`", text)


def test_reliability_table_names_existing_tests():
    """Each `path::test` in docs/reliability.md is a real test function in that file."""
    _, refs = _reliability_refs()
    assert len(refs) >= 15
    for path, name in refs:
        file = ROOT / path
        assert file.exists(), path
        if name:
            assert re.search(rf"^def {name}\(", file.read_text(encoding="utf-8"), re.M), \
                f"{path}::{name}"


def test_reliability_table_lists_every_reliability_test_file():
    """No file in tests/reliability/ is missing from the docs table."""
    _, refs = _reliability_refs()
    listed = {path for path, _ in refs}
    folder = ROOT / "tests" / "reliability"
    files = {f"tests/reliability/{p.name}" for p in folder.glob("test_*.py")}
    assert files <= listed, sorted(files - listed)


def test_tutorials_show_the_code_they_ran():
    """Every tutorial has a Python block followed by its recorded output."""
    for name in ("imli", "imlib", "cdpr"):
        text = (DOCS / "tutorials" / f"{name}.md").read_text(encoding="utf-8")
        assert "```python" in text and "Output:" in text and "test accuracy" in text


def _recorded_examples() -> list[tuple[str, str, str]]:
    """(page, code, recorded output) of every Python block followed by its output: the
    tutorials' ```` ```python ```` + ``Output:`` + ```` ```text ```` pairs and the README's
    Python example with the plain block after it."""
    found = []
    for name in ("imli", "imlib", "cdpr"):
        text = (DOCS / "tutorials" / f"{name}.md").read_text(encoding="utf-8")
        pairs = re.findall(r"```python\n(.*?)```\s*\nOutput:\s*\n+```text\n(.*?)```", text,
                           re.S)
        found += [(f"tutorials/{name}.md", code, out) for code, out in pairs]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found += [("README.md", code, out) for code, out in
              re.findall(r"```python\n(.*?)```\n\n```\n(.*?)```", readme, re.S)]
    return found


def test_every_tutorial_and_the_readme_record_an_example():
    pages = [page for page, _, _ in _recorded_examples()]
    assert {"tutorials/imli.md", "tutorials/imlib.md", "tutorials/cdpr.md",
            "README.md"} <= set(pages), pages


@pytest.mark.parametrize("page, code, recorded",
                         [pytest.param(*e, id=f"{e[0]}-{i}")
                          for i, e in enumerate(_recorded_examples())])
def test_recorded_examples_print_what_the_docs_show(page, code, recorded, capsys):
    """The examples' printed output in the docs is what the code prints today (no default
    depends on a time limit, so it is the same on every machine): a change of defaults
    or of rule text must regenerate the pages in the same change."""
    exec(compile(code, page, "exec"), {"__name__": "__doc_example__"})
    assert capsys.readouterr().out.strip() == recorded.strip()
