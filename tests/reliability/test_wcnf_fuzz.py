"""Issue 4 row 2: the WCNF parser on hostile input returns a Model or a line-numbered ValueError.

Random bytes, truncated and mutated valid files, huge numbers and very long
lines; never another exception.  The vectorised block parser is also checked
against the line-by-line parser: same model, or the very same error message.
"""

from __future__ import annotations

import io
import re
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from satrules import read_wcnf
from satrules.exceptions import EncodingError
from satrules.ir import Model
from satrules.ir import wcnf as wcnf_module
from tests.ir.test_wcnf import golden_model

_ERR = re.compile(r"^<stream>:(\d+): \S")
_GOLDEN = {}


def _golden_text(format: str) -> bytes:
    if format not in _GOLDEN:
        buf = io.BytesIO()
        wcnf_module.write_wcnf(golden_model(), buf, format=format)
        _GOLDEN[format] = buf.getvalue()
    return _GOLDEN[format]


def _outcome(data: bytes):
    """Read ``data``; return the model's clauses or the error message (after checking it)."""
    try:
        m = read_wcnf(io.BytesIO(data))
    except ValueError as exc:
        assert isinstance(exc, EncodingError), repr(exc)
        found = _ERR.match(str(exc))
        assert found, str(exc)
        line = int(found.group(1))
        assert line >= 1 and line <= data.count(b"\n") + 1
        return str(exc)
    assert isinstance(m, Model)
    m.stats()
    return (m.n_vars, [c.lits for c in m.hard_clauses()], m.soft_clauses())


def _slow_outcome(data: bytes):
    """The same read with the vectorised path switched off."""
    with mock.patch.object(wcnf_module._Reader, "_fast", lambda self, block: None):
        return _outcome(data)


_TOKENS = ["h", "c", "p", "wcnf", "cnf", "0", "0", "0", "1", "-1", "2", "-2", "3", "7", "-0",
           "12", "x", "1.5", "+3", "9" * 19, "9" * 25, "-" + "9" * 20, "\t", "\r", "--1", "h1",
           "1h", "\xe9"]
lines = st.lists(st.sampled_from(_TOKENS), max_size=7).map(" ".join)
documents = st.lists(lines, max_size=12).map(lambda ls: "\n".join(ls).encode("utf-8"))


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=400))
def test_random_bytes(data):
    """Arbitrary bytes: a Model or an EncodingError starting '<file>:<line>:'."""
    _outcome(data)


@settings(max_examples=100, deadline=None)
@given(data=documents)
def test_token_soup_fast_and_slow_paths_agree(data):
    """WCNF-like token soup: both parsers give the same model or the same error message."""
    assert _outcome(data) == _slow_outcome(data)


@settings(max_examples=60, deadline=None)
@given(format=st.sampled_from(["2022", "legacy"]), cut=st.floats(0, 1))
def test_truncated_files(format, cut):
    """A valid file cut anywhere reads as a model or fails with a line number; legacy files
    cut before their last clause are rejected (the p line's clause count no longer holds)."""
    text = _golden_text(format)
    data = text[: int(cut * len(text))]
    result = _outcome(data)
    if format == "legacy" and b"\np" in data and data.count(b"\n") < text.count(b"\n") - 1:
        assert isinstance(result, str)
    assert result == _slow_outcome(data)


@settings(max_examples=60, deadline=None)
@given(format=st.sampled_from(["2022", "legacy"]), data=st.data())
def test_mutated_tokens(format, data):
    """Replacing one token of a valid file with a hostile one never escapes the contract."""
    toks = _golden_text(format).split(b" ")
    i = data.draw(st.integers(0, len(toks) - 1))
    toks[i] = data.draw(st.sampled_from(
        [b"0", b"-5", b"x", b"99999999999999999999999999", b"-9223372036854775808", b"h",
         b"1\n", b"\n", b"", b"p wcnf 1 1 1", b"\x00", b"1e3"]))
    mutated = b" ".join(toks)
    assert _outcome(mutated) == _slow_outcome(mutated)


def test_huge_numbers():
    """Weights far beyond 64 bits are read exactly; literals beyond max_vars are refused."""
    big = 10**40
    m = read_wcnf(io.BytesIO(f"{big} 1 0\n{big} -1 0\n".encode()))
    assert m.soft.weight_list() == [big, big]
    assert "beyond max_vars" in _outcome(f"h {10**30} 0\n".encode())
    assert "beyond max_vars" in _outcome(b"h -9223372036854775808 0\n")
    assert "more than max_vars" in _outcome(f"p wcnf {10**30} 0 1\n".encode())


def test_very_long_lines():
    """A clause of 200k literals, a 2 MB comment and a 100k-digit number are handled."""
    long_clause = "h " + " ".join(str(v) for v in range(1, 200_001)) + " 0\n"
    m = read_wcnf(io.BytesIO(long_clause.encode()))
    assert m.n_vars == 200_000 and len(m.hard.lits) == 200_000
    m = read_wcnf(io.BytesIO(b"c " + b"x" * 2_000_000 + b"\nh 1 0\n"))
    assert len(m.hard) == 1
    weight = "7" * 1000
    m = read_wcnf(io.BytesIO(f"{weight} 1 0\n".encode()))
    assert m.soft.weight_list() == [int(weight)]
    assert "too long" in _outcome(("7" * 100_000 + " 1 0\n").encode())
    assert "too long" in _outcome(("h " + "7" * 100_000 + " 0\n").encode())
