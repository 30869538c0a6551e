"""Sphinx configuration for the satrules documentation.

Pages are MyST Markdown; the API reference comes from the numpydoc docstrings
through autodoc.  Two small directives keep pages in step with the code:
``satrules-cli`` prints the live ``--help`` of a subcommand, and
``satrules-results`` includes the benchmark tables found under
``benchmarks/results/*.md``.  Build with warnings as errors::

    sphinx-build -W -b html docs docs/_build/html
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.statemachine import StringList

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import satrules  # noqa: E402

project = "satrules"
author = "satrules developers"
copyright = "2026, satrules developers"  # noqa: A001 (Sphinx's name)
release = version = satrules.__version__

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
html_theme = "alabaster"
html_static_path: list[str] = []
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
suppress_warnings = ["myst.header"]


class CLIHelp(Directive):
    """``satrules-cli NAME``: the current ``satrules NAME --help`` text as a literal block."""

    required_arguments = 0
    optional_arguments = 1

    def run(self):
        from satrules.cli import build_parser

        argv = [self.arguments[0], "--help"] if self.arguments else ["--help"]
        out = io.StringIO()
        old = os.environ.get("COLUMNS")
        os.environ["COLUMNS"] = "96"
        try:
            with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
                build_parser().parse_args(argv)
        finally:
            if old is None:
                os.environ.pop("COLUMNS", None)
            else:
                os.environ["COLUMNS"] = old
        text = out.getvalue().rstrip()
        return [nodes.literal_block(text, text, language="text")]


class BenchmarkResults(Directive):
    """``satrules-results GLOB``: include every matching ``benchmarks/results`` Markdown file.

    Each file's first heading becomes a bold caption (nested content cannot open
    sections), followed by the rest of the file parsed as MyST Markdown.
    """

    required_arguments = 0
    optional_arguments = 1
    option_spec = {"empty": directives.unchanged}

    def run(self):
        pattern = self.arguments[0] if self.arguments else "*.md"
        files = sorted((ROOT / "benchmarks" / "results").glob(pattern))
        lines: list[str] = []
        for path in files:
            self.state.document.settings.record_dependencies.add(str(path))
            lines.append(f"**{path.name}**")
            lines.append("")
            for line in path.read_text(encoding="utf-8").splitlines():
                match = re.match(r"^#+\s+(.*)$", line)
                lines.append(f"**{match.group(1)}**" if match else line)
            lines.append("")
        if not files:
            lines = [self.options.get("empty") or f"No results matching `{pattern}` yet."]
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="benchmarks/results"),
                                self.content_offset, container)
        return container.children


_BARS = re.compile(r"(?<![\\`|])\|([^|\s`][^|`]*?)\|(?![_|])")


def _escape_bars(app, what, name, obj, options, lines):
    """Docstrings write set sizes as ``|A|``; keep them literal, not RST substitutions."""
    for i, line in enumerate(lines):
        if not line.lstrip().startswith(("|", "+")):
            lines[i] = _BARS.sub(r"\\|\1\\|", line)


def _skip_routing(app, what, name, obj, skip, options):
    """scikit-learn's generated metadata-routing setters cite its own glossary: skip them."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("autodoc-process-docstring", _escape_bars)
    app.connect("autodoc-skip-member", _skip_routing)
    app.add_directive("satrules-cli", CLIHelp)
    app.add_directive("satrules-results", BenchmarkResults)
    return {"parallel_read_safe": True}
