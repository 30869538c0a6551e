"""WCNF reading and writing: goldens, round trips, dialects and malformed input."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import re
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules import read_wcnf, solve, write_wcnf
from satrules.exceptions import EncodingError
from satrules.ir import Model, lower
from satrules.ir import wcnf as wcnf_module
from tests.strategies import tiny_models

DATA = Path(__file__).resolve().parent.parent / "data"
_LINE = re.compile(r"^(.*):(\d+): ")


def golden_model() -> Model:
    """A small clause model: a tautology, a repeated literal, an empty soft clause, an unused
    variable and a weight beyond 64 bits.  (Cardinality and graph constraints are left out
    so that the goldens pin the writer, not the lowering passes' encoding choices; those
    are covered by the optimum-preserving round trips below.)"""
    m = Model()
    x = m.new_vars("x", 6)
    m.add_hard([x[0], -x[1], x[2]])
    m.add_clauses([[x[3], x[4]], [-x[0], -x[4]], [x[2], -x[2]], [x[3], x[3], -x[1]]])
    m.add_soft([-x[0]], 3)
    m.add_soft([x[1], x[2]], 2**70)
    m.add_soft_units(-x[2:5], [1, 5, 1])
    m.add_soft([], 7)
    m.add_soft_clauses([[x[0], x[1], -x[3], x[4]]], [12])
    return m


def _text(model: Model, format: str) -> str:
    buf = io.StringIO()
    write_wcnf(model, buf, format=format)
    return buf.getvalue()


def _optimum(model: Model) -> tuple[bool, int | None]:
    sol = solve(model, backend="bruteforce")
    return sol.status.is_feasible, sol.cost


@pytest.mark.parametrize("format", ["2022", "legacy"])
def test_golden_files_are_byte_identical(format, tmp_path):
    """The golden model writes exactly the stored golden file (catches writer/lowering drift)."""
    out = tmp_path / f"golden_{format}.wcnf"
    write_wcnf(golden_model(), out, format=format)
    assert out.read_bytes() == (DATA / f"golden_{format}.wcnf").read_bytes()


@pytest.mark.parametrize("format", ["2022", "legacy"])
def test_golden_files_keep_the_optimum(format):
    """Reading a golden file back gives the original model's optimum (cost and feasibility)."""
    back = read_wcnf(DATA / f"golden_{format}.wcnf")
    assert _optimum(back) == _optimum(golden_model())
    assert back.soft.weight_list() == golden_model().soft.weight_list()


def test_bundled_example_has_documented_optimum():
    """The packaged example (used by ``satrules solve --example``) has optimum cost 1."""
    m = read_wcnf(DATA.parent.parent / "satrules" / "data" / "example.wcnf")
    assert (m.n_vars, len(m.hard), len(m.soft)) == (12, 10, 10)
    assert _optimum(m) == (True, 1)


@settings(max_examples=60, deadline=None)
@given(model=tiny_models(max_vars=5, big_weights=True), format=st.sampled_from(["2022", "legacy"]))
def test_round_trip_preserves_optimum(model, format):
    """write -> read keeps feasibility and the optimal cost (weights up to 2**70, all kinds)."""
    back = read_wcnf(io.StringIO(_text(model, format)))
    if back.n_vars > 20:
        return  # lowering added too many auxiliaries for the oracle
    assert _optimum(back) == _optimum(model)


@settings(max_examples=60, deadline=None)
@given(model=tiny_models(max_vars=6, cardinality=False, graph=False, big_weights=True),
       format=st.sampled_from(["2022", "legacy"]))
def test_clause_models_round_trip_exactly(model, format):
    """Models of clauses only read back with the same clauses, weights and order."""
    back = read_wcnf(io.StringIO(_text(model, format)))
    assert [c.lits for c in back.hard_clauses()] == [c.lits for c in model.hard_clauses()]
    assert back.soft_clauses() == model.soft_clauses()
    assert back.n_vars <= model.n_vars
    if format == "legacy":
        assert back.n_vars == model.n_vars
    if back.n_vars == model.n_vars:  # 2022 files drop trailing unused variables
        assert _text(back, format) == _text(model, format)


def test_same_model_same_bytes_and_path_or_file(tmp_path):
    """Writing twice, to a path or to text/binary file objects, gives identical bytes."""
    m = golden_model()
    a, b = tmp_path / "a.wcnf", tmp_path / "b.wcnf"
    write_wcnf(m, a)
    write_wcnf(m, str(b))
    raw = io.BytesIO()
    write_wcnf(m, raw)
    with open(tmp_path / "c.wcnf", "w") as fh:
        write_wcnf(m, fh)
    assert a.read_bytes() == b.read_bytes() == raw.getvalue() == (tmp_path / "c.wcnf").read_bytes()


def test_legacy_header_uses_soft_sum_plus_one():
    """Legacy files declare ``p wcnf nv nc top`` with top = sum of soft weights + 1."""
    m = Model()
    x = m.new_vars("x", 3)
    m.add_hard([x[0]])
    m.add_soft_units(x, [2, 2**64, 5])
    lines = _text(m, "legacy").splitlines()
    top = 2 + 2**64 + 5 + 1
    assert lines[1] == f"p wcnf 3 4 {top}"
    assert lines[2] == f"{top} 1 0"
    assert lines[4] == f"{2**64} 2 0"


def test_unknown_format_is_rejected():
    """A format other than 2022/legacy is a ValueError naming the choices."""
    with pytest.raises(ValueError, match="legacy"):
        write_wcnf(Model(), io.StringIO(), format="dimacs")


def test_atomic_write_leaves_old_file_and_no_temp(tmp_path, monkeypatch):
    """An error while writing keeps the previous file intact and removes the temporary file."""
    target = tmp_path / "model.wcnf"
    target.write_text("old content\n")

    def broken(model, format="2022"):
        yield b"c first chunk\n"
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(wcnf_module, "_wcnf_bytes", broken)
    with pytest.raises(RuntimeError, match="disk on fire"):
        write_wcnf(golden_model(), target)
    assert target.read_text() == "old content\n"
    assert sorted(os.listdir(tmp_path)) == ["model.wcnf"]


def test_written_file_gets_normal_permissions(tmp_path):
    """The atomically written file is not left with the temporary file's private mode."""
    target = tmp_path / "m.wcnf"
    write_wcnf(golden_model(), target)
    mask = os.umask(0o022)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask


def test_large_model_writes_in_chunks(monkeypatch):
    """Chunked rendering (many chunks, literals beyond the string table) equals plain text."""
    monkeypatch.setattr(wcnf_module, "_WRITE_CHUNK", 7)
    monkeypatch.setattr(wcnf_module, "_TABLE_LIMIT", 5)
    rng = np.random.default_rng(3)
    m = Model()
    m.new_vars("x", 12)
    lits = rng.integers(1, 13, size=(40, 3)) * rng.choice([-1, 1], size=(40, 3))
    m.add_clauses(lits)
    m.add_soft_clauses(lits[:25, :2], rng.integers(1, 9, size=25))
    want = ["h " + " ".join(map(str, row)) + " 0" for row in lits.tolist()]
    want += [f"{w} {a} {b} 0" for (a, b), w in zip(lits[:25, :2].tolist(),
                                                   m.soft.weight_list(), strict=True)]
    assert _text(m, "2022").splitlines()[1:] == want


def _reference_text(model: Model, format: str) -> str:
    """The WCNF text written the obvious way, one Python line per clause (the spec)."""
    low = lower(model, keep={"clause", "soft"})
    hard, soft = low.hard_clauses(), low.soft_clauses()
    head = (f"c WCNF {format} written by satrules: {low.n_vars} variables, {len(hard)} hard, "
            f"{len(soft)} soft clauses\n")
    top = sum(c.weight for c in soft) + 1
    prefix = f"{top} " if format == "legacy" else "h "
    if format == "legacy":
        head += f"p wcnf {low.n_vars} {len(hard) + len(soft)} {top}\n"
    lines = [prefix + "".join(f"{lit} " for lit in c.lits) + "0" for c in hard]
    lines += [f"{c.weight} " + "".join(f"{lit} " for lit in c.lits) + "0" for c in soft]
    return head + "".join(line + "\n" for line in lines)


@st.composite
def uneven_models(draw):
    """Clause models with empty, short and long clauses and mixed weight sizes."""
    n = draw(st.integers(1, 40))
    m = Model()
    m.new_vars("x", n)
    lits = st.lists(st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v])), max_size=12)
    for clause in draw(st.lists(lits, max_size=30)):
        m.add_hard(clause)
    weights = st.one_of(st.integers(1, 9), st.integers(1, 2**62), st.integers(1, 2**80))
    for clause, weight in draw(st.lists(st.tuples(lits, weights), max_size=30)):
        m.add_soft(clause, weight)
    return m


@settings(max_examples=80, deadline=None)
@given(model=st.one_of(uneven_models(), tiny_models(max_vars=6, big_weights=True)),
       format=st.sampled_from(["2022", "legacy"]),
       chunk=st.sampled_from([1, 3, 1 << 16]), table=st.sampled_from([2, 1 << 19]))
def test_writer_matches_reference_text(model, format, chunk, table):
    """The vectorised writer (equal-length and mixed chunks, literals inside and beyond the
    cached table, weights beyond 64 bits, any chunking) produces exactly the obvious
    one-line-per-clause text."""
    with mock.patch.object(wcnf_module, "_WRITE_CHUNK", chunk), \
            mock.patch.object(wcnf_module, "_TABLE_LIMIT", table), \
            mock.patch.dict(wcnf_module._CELL_CACHE, clear=True):
        assert _text(model, format) == _reference_text(model, format)


# ---------------------------------------------------------------------------- dialects
@pytest.mark.parametrize("text, hard, soft", [
    ("c comment\np wcnf 3 3 10\n10 1 -2 0\n4 2 0\n3 -3 1 0\n",
     [(1, -2)], [((2,), 4), ((-3, 1), 3)]),
    ("p wcnf 2 2\n10 1 -2 0\n4 2 0\n", [], [((1, -2), 10), ((2,), 4)]),
    ("p cnf 2 2\n1 -2 0\n2 0\n", [(1, -2), (2,)], []),
    ("c x\n\nh 1 -1 0\n  5\t2 2 -1 0\r\n7 0\nc end\n", [(1, -1)], [((2, 2, -1), 5), ((), 7)]),
    ("h 0\n", [()], []),
    (f"{2**80} 1 0\nh -1 0\n", [(-1,)], [((1,), 2**80)]),
    (f"{2**63 + 5} 1 0\n3 -1 0\n", [], [((1,), 2**63 + 5), ((-1,), 3)]),
    (f"p wcnf 1 2 {2**80 + 1}\n{2**80} 1 0\n{2**80 + 1} -1 0\n", [(-1,)], [((1,), 2**80)]),
])
def test_dialects_and_oddities_are_read(text, hard, soft):
    """Legacy with/without top, p cnf, comments, blank lines, tabs, CRLF, tautologies,
    repeated literals, empty clauses and weights beyond 64 bits are all read as written."""
    m = read_wcnf(io.BytesIO(text.encode()))
    assert [c.lits for c in m.hard_clauses()] == hard
    assert [(c.lits, c.weight) for c in m.soft_clauses()] == soft


def test_p_line_declares_unused_variables():
    """A legacy file's variable count comes from the p line, used or not."""
    assert read_wcnf(io.BytesIO(b"p wcnf 7 1 3\n1 2 0\n")).n_vars == 7
    assert read_wcnf(io.BytesIO(b"h 1 0\n2 -4 0\n")).n_vars == 4


def test_read_paths_compressed_and_text_streams(tmp_path):
    """Paths (str and PathLike), .gz files and text-mode streams give the same model."""
    text = _text(golden_model(), "2022")
    plain = tmp_path / "g.wcnf"
    plain.write_text(text)
    packed = tmp_path / "g.wcnf.gz"
    with gzip.open(packed, "wt") as fh:
        fh.write(text)
    models = [read_wcnf(plain), read_wcnf(str(plain)), read_wcnf(packed),
              read_wcnf(io.StringIO(text))]
    for m in models[1:]:
        assert m.soft_clauses() == models[0].soft_clauses()
        assert m.hard_clauses() == models[0].hard_clauses()


@settings(max_examples=40, deadline=None)
@given(model=tiny_models(max_vars=6, cardinality=False, graph=False),
       block=st.integers(1, 64), comment_every=st.integers(0, 4))
def test_block_boundaries_and_slow_path_agree(model, block, comment_every):
    """Tiny read blocks and interleaved comments (line-by-line path) give the same model."""
    lines = _text(model, "2022").splitlines(keepends=True)
    if comment_every:
        lines = [ln for i, ln in enumerate(lines)
                 for ln in ([ln, "c note\n"] if i % comment_every == 0 else [ln])]
    data = "".join(lines).encode()
    old = wcnf_module._READ_BLOCK
    wcnf_module._READ_BLOCK = block
    try:
        back = read_wcnf(io.BytesIO(data))
    finally:
        wcnf_module._READ_BLOCK = old
    assert back.hard_clauses() == model.hard_clauses()
    assert back.soft_clauses() == model.soft_clauses()


def test_error_line_numbers_across_blocks(monkeypatch):
    """Line numbers in errors stay right when the file is read in many small blocks."""
    monkeypatch.setattr(wcnf_module, "_READ_BLOCK", 5)
    text = "h 1 2 0\n" * 30 + "3 1 x 0\n"
    with pytest.raises(EncodingError, match=r"^<stream>:31: literal: 'x'"):
        read_wcnf(io.BytesIO(text.encode()))


# ---------------------------------------------------------------------------- malformed
MALFORMED = [
    ("h 1 0\n-3 1 0\n", 2, "weight must be a positive integer"),
    ("h 1 0\n0 1 0\n", 2, "weight must be a positive integer"),
    ("h 1 2\n", 1, "missing the terminating 0"),
    ("5\n", 1, "missing the terminating 0"),
    ("h\n", 1, "missing the terminating 0"),
    ("h 1 0 2\n", 1, "content after the terminating 0"),
    ("h 1 0 0\n", 1, "content after the terminating 0"),
    ("p wcnf 2 1 9\n3 1 -3 0\n", 2, "beyond the declared variable count"),
    ("p cnf 2 1\n1 5 0\n", 2, "beyond the declared variable count"),
    ("h 1 a 0\n", 1, "is not an integer"),
    ("h 1 1.5 0\n", 1, "is not an integer"),
    ("h 1 1_0 0\n", 1, "is not an integer"),
    ("2.5 1 0\n", 1, "is not an integer"),
    ("h 1 +2 0\n", 1, "is not an integer"),
    ("h 1 0\nx 1 0\n", 2, "is not an integer"),
    ("p wcnf 2 2 5\n3 1 0\n2 -1 0\n", 1, "not above the sum of the soft weights"),
    ("p wcnf 2 2 3\n5 1 0\n", 1, "declares 2 clauses but the file has 1"),
    ("p wcnf 2\n1 1 0\n", 1, "malformed p line"),
    ("p maxsat 2 1 3\n1 1 0\n", 1, "malformed p line"),
    ("p wcnf 2 1 x\n1 1 0\n", 1, "is not an integer"),
    ("p wcnf 2 1 0\n1 1 0\n", 1, "top weight must be positive"),
    ("p wcnf -2 1 3\n", 1, "non-negative"),
    ("h 1 0\np wcnf 1 1 2\n", 2, "p line after the first clause"),
    ("p wcnf 1 1 3\np wcnf 1 1 3\n", 2, "second p line"),
    ("p wcnf 1 1 3\nh 1 0\n", 2, "'h' line in a file with a p line"),
    (f"h {2**40} 0\n", 1, "beyond max_vars"),
    (f"p wcnf {2**40} 0 1\n", 1, "more than max_vars"),
    ("h 1 0\n\xff 1 0\n", 2, "is not an integer"),
]


@pytest.mark.parametrize("text, line, fragment", MALFORMED)
def test_malformed_input_names_file_and_line(text, line, fragment, tmp_path):
    """Each malformed case raises a ValueError starting with '<file>:<line>:' and saying why."""
    path = tmp_path / "bad model.wcnf"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(ValueError) as info:
        read_wcnf(path)
    assert isinstance(info.value, EncodingError)
    found = _LINE.match(str(info.value))
    assert found, str(info.value)
    assert found.group(1) == str(path)
    assert int(found.group(2)) == line
    assert fragment in str(info.value)


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_corrupt_compressed_file_is_a_value_error(suffix, tmp_path):
    """A damaged or truncated compressed file is an EncodingError naming the file."""
    path = tmp_path / f"broken.wcnf{suffix}"
    path.write_bytes(b"this is not compressed data at all" * 10)
    with pytest.raises(EncodingError, match=r"broken\.wcnf.*:1: cannot decompress"):
        read_wcnf(path)
    packed = tmp_path / f"cut.wcnf{suffix}"
    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}[suffix]
    with opener(packed, "wb") as fh:
        fh.write(b"h 1 2 0\n" * 1000)
    packed.write_bytes(packed.read_bytes()[:-20])
    with pytest.raises(EncodingError, match="cannot decompress"):
        read_wcnf(packed)


@pytest.mark.parametrize("format", ["2022", "legacy"])
def test_big_weights_stay_on_the_vectorised_path(format):
    """Weights beyond 64 bits are read exactly without falling back to line-by-line parsing
    (the p line and comment are parsed by line; the clause block must not be)."""
    m = Model()
    x = m.new_vars("x", 4)
    m.add_hard([x[0], x[1]])
    m.add_soft_units(np.tile(x, 50), [2**64 + 7 * i for i in range(200)])
    text = _text(m, format).encode()
    head_lines = 2 if format == "legacy" else 1
    head = b"".join(text.splitlines(keepends=True)[:head_lines])
    calls = []
    real_slow = wcnf_module._Reader._slow

    def watched(self, block, first_line):
        calls.append(block)
        return real_slow(self, block, first_line)

    with mock.patch.object(wcnf_module._Reader, "_slow", watched):
        back = read_wcnf(io.BytesIO(text))
    assert calls == [head]
    assert back.soft.weight_list() == m.soft.weight_list()
    assert [c.lits for c in back.hard_clauses()] == [(1, 2)]


def test_max_vars_is_configurable():
    """``max_vars`` caps literals; the same file reads with a larger cap."""
    with pytest.raises(EncodingError, match="beyond max_vars"):
        read_wcnf(io.BytesIO(b"h 1 9 0\n"), max_vars=8)
    assert read_wcnf(io.BytesIO(b"h 1 9 0\n"), max_vars=9).n_vars == 9
