"""Read and write weighted (partial) MaxSAT files in the WCNF formats.

Two formats (ALGORITHMS.md §7.1-7.2):

``"2022"`` (MaxSAT Evaluation 2022 and later)
    no ``p`` line; a hard clause is ``h 1 -2 0``, a soft clause is
    ``<weight> 1 -2 0`` with a positive integer weight.
``"legacy"``
    ``p wcnf <nvars> <nclauses> <top>``, then ``<weight> <lits> 0``; a clause
    whose weight is at least ``top`` is hard.  The writer uses
    ``top = sum of soft weights + 1``.

:func:`write_wcnf` lowers cardinality and graph constraints to clauses first,
renders the clause arrays in chunks without a Python loop per clause, and
writes paths atomically (a temporary file in the same directory, then
:func:`os.replace`).  The same model always gives a byte-identical file: hard
clauses first, then soft clauses, each in insertion order.

:func:`read_wcnf` streams the file in blocks.  Blocks of plain clause lines
are parsed with numpy; a block holding anything else (comments, the ``p``
line, unusual tokens, an error) is parsed line by line, which also produces the
error messages.  It reads both formats plus the older ``p wcnf nv nc`` (no
``top``: every clause is soft) and ``p cnf nv nc`` (every clause is hard), and
accepts comments, blank lines, tautologies, repeated literals, empty soft
clauses and weights beyond 64 bits.

Malformed input raises :class:`~satrules.exceptions.EncodingError` (a
``ValueError``) whose message starts with ``<file>:<line>:``.  Rejected:
non-positive weights, a non-integer token, a clause without its terminating
``0``, anything after that ``0`` on the same line, a literal beyond the
declared variable count (or beyond ``max_vars``), an integer of more than
4000 characters, a malformed, repeated or late ``p`` line, an ``h`` line in a
``p``-line file, a clause count that differs from the ``p`` line's, a corrupt
compressed file, and -- a decision, since the legacy format
only *conventionally* requires it -- a legacy ``top`` that is not above the
sum of the soft weights: such a file is ambiguous (a soft clause could carry
a weight at least ``top``), so it is rejected rather than guessed at.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import lzma
import os
import re
import tempfile
from collections.abc import Iterator
from typing import IO, Any

import numpy as np

from satrules.exceptions import EncodingError
from satrules.ir.constraints import ClauseArray
from satrules.ir.lowering import lower
from satrules.ir.model import Model

__all__ = ["FORMATS", "MAX_VARS", "read_wcnf", "write_wcnf"]

#: Accepted values of ``format``.
FORMATS = ("2022", "legacy")
#: Default cap on the variable count of a file read (literals above it are rejected).
MAX_VARS = 2**31 - 1

_WRITE_CHUNK = 1 << 16  # clauses per rendered chunk
_TABLE_LIMIT = 1 << 20  # literal cells cached for |lit| <= this (16 MiB)
_READ_BLOCK = 1 << 20  # bytes per read block
_LONG_LINE = 1 << 20  # longer lines are tokenised in windows (bounded temporaries)
_INT64_MAX = np.iinfo(np.int64).max


# ---------------------------------------------------------------------------- writing
def write_wcnf(model: Model, path_or_file: Any, format: str = "2022") -> None:
    """Write ``model`` as a WCNF file.

    Parameters
    ----------
    model : Model
        Cardinality and graph constraints are lowered to clauses first
        (:func:`satrules.ir.lowering.lower` with ``keep={"clause", "soft"}``),
        so the file may have more variables than ``model``.
    path_or_file : str, os.PathLike or file object
        A path is written atomically: the text goes to a temporary file in the
        same directory, which replaces ``path`` only when complete.  A file
        object (text or binary) is written at its current position.
    format : {"2022", "legacy"}
        ``"2022"``: ``h`` lines for hard clauses, no ``p`` line.
        ``"legacy"``: ``p wcnf nv nc top`` with ``top = sum of soft weights + 1``.

    Raises
    ------
    EncodingError
        For an unknown ``format``.

    Examples
    --------
    >>> import io
    >>> m = Model(); x, y = m.new_var("x"), m.new_var("y")
    >>> m.add_hard([x, y]); m.add_soft([-x], 2); m.add_soft([-y], 3)
    >>> buf = io.StringIO(); write_wcnf(m, buf); print(buf.getvalue(), end="")
    c WCNF 2022 written by satrules: 2 variables, 1 hard, 2 soft clauses
    h 1 2 0
    2 -1 0
    3 -2 0
    >>> buf = io.StringIO(); write_wcnf(m, buf, format="legacy"); print(buf.getvalue(), end="")
    c WCNF legacy written by satrules: 2 variables, 1 hard, 2 soft clauses
    p wcnf 2 3 6
    6 1 2 0
    2 -1 0
    3 -2 0
    """
    if format not in FORMATS:
        raise EncodingError(f"unknown WCNF format {format!r}; use one of {FORMATS}")
    low = lower(model, keep={"clause", "soft"})
    if hasattr(path_or_file, "write"):
        _write_stream(low, path_or_file, format)
        return
    path = os.fspath(path_or_file)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".satrules-", suffix=".wcnf.part", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            _write_stream(low, fh, format)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_stream(low: Model, fh: IO, format: str) -> None:
    binary = isinstance(fh, (io.RawIOBase, io.BufferedIOBase)) or "b" in getattr(fh, "mode", "")
    for data in _wcnf_bytes(low, format):
        fh.write(data if binary else data.decode("ascii"))


def wcnf_chunks(model: Model, format: str = "2022") -> Iterator[str]:
    """Yield the WCNF text of an already lowered model (clauses and softs only), in chunks.

    Examples
    --------
    >>> m = Model(); x = m.new_var(); m.add_soft([x], 2**70)
    >>> "".join(wcnf_chunks(m)).splitlines()[1]
    '1180591620717411303424 1 0'
    """
    for data in _wcnf_bytes(model, format):
        yield data.decode("ascii")


def _wcnf_bytes(model: Model, format: str) -> Iterator[bytes]:
    if model.cardinalities or model.graphs:
        raise EncodingError("wcnf_chunks needs a lowered model; use write_wcnf")
    hard, soft = model.hard, model.soft
    nv = model.n_vars
    yield (f"c WCNF {format} written by satrules: {nv} variables, {len(hard)} hard, "
           f"{len(soft)} soft clauses\n").encode()
    if format == "legacy":
        top = model.soft_weight_sum() + 1
        yield f"p wcnf {nv} {len(hard) + len(soft)} {top}\n".encode()
        hard_prefix = _text_cells([f"{top} ".encode()])
    else:
        hard_prefix = _text_cells([b"h "])
    limit = min(nv, _TABLE_LIMIT)
    table = _literal_cells(limit) if len(hard) or len(soft) else None
    yield from _render(hard, table, limit, lambda s, e: hard_prefix)
    weights = soft.weights
    yield from _render(soft, table, limit, lambda s, e: _weight_cells(weights[s:e]))


# -- byte-cell rendering ----------------------------------------------------------------
# Every token (a clause's prefix, each literal, the terminator) is rendered as text
# followed by its separator and zero-padded to whole uint64 "cells"; a chunk of lines is
# a matrix of cells, and squeezing out the zero bytes in one pass gives the text (text
# bytes are never zero).  Literal cells come from a cached table, so writing is a few
# numpy gathers and copies per chunk, with no Python loop per clause or literal.
_TERM = np.frombuffer(b"0\n".ljust(8, b"\0"), dtype=np.uint64)[0]
_CELL_CACHE: dict[int, np.ndarray] = {}  # the largest literal table built so far


def _int_bytes(values: np.ndarray, suffix: bytes) -> np.ndarray:
    """Render int64 values as zero-padded rows of text + ``suffix`` (uint8, width % 8 == 0)."""
    values = np.asarray(values, dtype=np.int64)
    neg = values < 0
    mag = np.abs(values)
    n_dig = 1 + np.searchsorted(_POW10[1:], mag, side="right")
    length = neg + n_dig + len(suffix)
    width = max(8, -(-int(length.max(initial=1)) // 8) * 8)
    out = np.zeros((len(values), width), dtype=np.uint8)
    rows = np.arange(len(values))
    out[rows[neg], 0] = ord("-")
    last = neg + n_dig - 1
    for j in range(int(n_dig.max(initial=1))):
        active = n_dig > j
        out[rows[active], last[active] - j] = ord("0") + mag[active] % 10
        mag = mag // 10
    for i, byte in enumerate(suffix):
        out[rows, last + 1 + i] = byte
    return out


def _cells(matrix: np.ndarray) -> np.ndarray:
    """View a uint8 matrix whose width is a multiple of 8 as uint64 cells."""
    return np.ascontiguousarray(matrix).view(np.uint64)


def _text_cells(texts: list[bytes]) -> np.ndarray:
    """Cells of arbitrary byte strings (numpy pads fixed-width bytes with zeros)."""
    width = max(8, -(-max(len(t) for t in texts) // 8) * 8)
    raw = np.array(texts, dtype=f"S{width}")
    return raw.view(np.uint8).reshape(len(texts), width).view(np.uint64)


def _weight_cells(weights: np.ndarray) -> np.ndarray:
    if weights.dtype == object:  # beyond 64 bits: Python formats each weight
        return _text_cells([b"%d " % int(w) for w in weights.tolist()])
    return _cells(_int_bytes(weights, b" "))


def _literal_cells(n: int) -> np.ndarray:
    """Cells of ``f"{lit} "`` for ``-n <= lit <= n`` (row ``lit + n``).

    The largest table built so far is cached and sliced for smaller ``n``.
    """
    for half, table in _CELL_CACHE.items():
        if half >= n:
            return table[half - n : half + n + 1]
    table = _cells(_int_bytes(np.arange(-n, n + 1, dtype=np.int64), b" "))
    table.setflags(write=False)
    _CELL_CACHE.clear()
    _CELL_CACHE[n] = table
    return table


def _render(clauses: ClauseArray, table, half: int, prefix_cells) -> Iterator[bytes]:
    """Yield the lines of ``clauses`` in chunks of ``_WRITE_CHUNK`` clauses."""
    n = len(clauses)
    for s in range(0, n, _WRITE_CHUNK):
        e = min(n, s + _WRITE_CHUNK)
        offs = clauses.offsets[s : e + 1]
        lits = clauses.lits[offs[0] : offs[-1]]
        if len(lits) and int(np.abs(lits).max()) > half:  # beyond the table: render directly
            lit = _cells(_int_bytes(lits, b" "))
        else:
            lit = table[lits + half]
        yield _render_chunk(prefix_cells(s, e), lit, offs - offs[0])


def _render_chunk(prefix: np.ndarray, lit: np.ndarray, offs: np.ndarray) -> bytes:
    """Lay one chunk's cells out line by line and squeeze out the padding."""
    n = len(offs) - 1
    lens = np.diff(offs)
    pc, lc = prefix.shape[1], lit.shape[1]
    width = int(lens[0])
    if np.all(lens == width):  # equal lengths: one row per line, filled by slices
        grid = np.empty((n, pc + width * lc + 1), dtype=np.uint64)
        grid[:, :pc] = prefix
        grid[:, pc : pc + width * lc] = lit.reshape(n, width * lc)
        grid[:, -1] = _TERM
    else:  # one row per token: prefix, literals, terminator
        grid = np.zeros((len(lit) + 2 * n, max(pc, lc)), dtype=np.uint64)
        starts = offs[:-1] + 2 * np.arange(n)
        ends = starts + lens + 1
        is_lit = np.ones(len(grid), dtype=bool)
        is_lit[starts] = False
        is_lit[ends] = False
        grid[starts, :pc] = prefix
        grid[is_lit, :lc] = lit
        grid[ends, 0] = _TERM
    raw = grid.view(np.uint8).ravel()
    return raw[raw != 0].tobytes()


# ---------------------------------------------------------------------------- reading
_INT_RE = re.compile(rb"-?[0-9]+\Z")
_ALLOWED = np.zeros(256, dtype=bool)
_ALLOWED[[ord(c) for c in "0123456789- \t\r\nh"]] = True
_POW10 = 10 ** np.arange(19, dtype=np.int64)
_MAX_DIGITS = 4000  # below Python's int-from-string limit (4300 digits)


class _Reader:
    """State of one :func:`read_wcnf` call."""

    def __init__(self, name: str, max_vars: int) -> None:
        self.name = name
        self.max_vars = max_vars
        self.model = Model()
        self.mode: str | None = None  # "2022", "wcnf" (with top), "wcnf_notop", "cnf"
        self.nv: int | None = None  # declared by a p line
        self.nc = 0
        self.top: int | None = None
        self.p_line = 0
        self.n_clauses = 0

    def error(self, lineno: int, message: str) -> EncodingError:
        return EncodingError(f"{self.name}:{lineno}: {message}")

    @property
    def var_limit(self) -> int:
        return self.max_vars if self.nv is None else self.nv

    # -- block level ---------------------------------------------------------
    def feed(self, block: bytes, first_line: int) -> None:
        """Parse ``block`` (whole lines) whose first line has number ``first_line``."""
        if not block:
            return
        if len(block) > _LONG_LINE and _longest_line(block) > _LONG_LINE:
            # _fast builds several int64 arrays per *byte*: 29 bytes of memory per byte
            # of a 20 MB line; _slow hands such a line to the windowed _long_clause
            self._slow(block, first_line)
            return
        fast = self._fast(block)
        if fast is not None:
            self._add(*fast)
            return
        # comments and the p line sit at the top: parse up to the last line holding an
        # unusual byte line by line, and try the vectorised path on the rest
        unusual = np.flatnonzero(~_ALLOWED[np.frombuffer(block, dtype=np.uint8)])
        cut = block.find(b"\n", int(unusual[-1])) if len(unusual) else -1
        if 0 <= cut < len(block) - 1:
            head = block[: cut + 1]
            self._slow(head, first_line)
            tail = block[cut + 1 :]
            fast = self._fast(tail)
            if fast is not None:
                self._add(*fast)
            else:
                self._slow(tail, first_line + head.count(b"\n"))
            return
        self._slow(block, first_line)

    def _add(self, hard_lits, hard_offs, soft_lits, soft_offs, weights, n_lines, max_abs) -> None:
        if n_lines == 0:
            return
        if self.mode is None:
            self.mode = "2022"
        self.n_clauses += n_lines
        pool = self.model.pool
        if max_abs > pool.top:
            pool.top = int(max_abs)  # fresh anonymous variables, without an id array
        if len(hard_offs) > 1:
            self.model.add_clauses(hard_lits, hard_offs)
        if len(soft_offs) > 1:
            self.model.add_soft_clauses(soft_lits, weights, soft_offs)

    # -- vectorised path -------------------------------------------------------
    def _fast(self, block: bytes):
        """Parse plain clause lines with numpy; ``None`` when anything needs the slow path."""
        arr = np.frombuffer(block, dtype=np.uint8)
        counts = np.bincount(arr, minlength=256)
        if counts[~_ALLOWED].any():
            return None
        # +1 where a token ends, -1 where one starts (one pass over the bytes)
        space = arr <= ord(" ")  # the only allowed bytes up to 32 are the white spaces
        edge = np.diff(space.view(np.int8), prepend=np.int8(1), append=np.int8(1))
        starts = np.flatnonzero(edge == -1)
        ends = np.flatnonzero(edge == 1)
        n_tok = len(starts)
        if n_tok == 0:
            return (None, np.zeros(1, np.int64), None, np.zeros(1, np.int64), None, 0, 0)
        first = arr[starts]
        tok_len = ends - starts
        is_h = first == ord("h")
        is_neg = first == ord("-")
        # '-' and 'h' only as a token's first byte; 'h' alone; '-' followed by digits
        if (int(is_h.sum()) != int(counts[ord("h")])
                or int(is_neg.sum()) != int(counts[ord("-")])
                or np.any(is_h & (tok_len != 1)) or np.any(is_neg & (tok_len < 2))):
            return None
        # tokens beyond 18 digits may only be weights (Python ints, parsed one by one below)
        long = (tok_len - is_neg) > 18
        if long.any() and (np.any(long & is_neg) or int(tok_len.max()) > _MAX_DIGITS):
            return None
        # token values: sum of digit * 10**(position from the token's end)
        tok_pos = _token_bytes(starts, tok_len)
        tok_offs = _offsets(tok_len)
        contrib = arr[tok_pos].astype(np.int64) - ord("0")
        contrib[tok_offs[:-1][is_neg | is_h]] = 0
        exponent = np.repeat(ends - 1, tok_len) - tok_pos
        if long.any():
            contrib[np.repeat(long, tok_len)] = 0
            np.minimum(exponent, 18, out=exponent)
        contrib *= _POW10[exponent]
        val = np.add.reduceat(contrib, tok_offs[:-1])
        val[is_neg] *= -1
        val[long] = 1  # a non-zero placeholder: never a terminator
        # group tokens by line
        line_of_tok = np.searchsorted(np.flatnonzero(arr == ord("\n")), starts)
        new_line = np.ones(n_tok, dtype=bool)
        new_line[1:] = line_of_tok[1:] != line_of_tok[:-1]
        line_first = np.flatnonzero(new_line)
        line_end = np.append(line_first[1:], n_tok)
        n_lines = len(line_first)
        with_head = self.mode != "cnf"
        body_start = line_first + with_head
        if np.any(body_start >= line_end):
            return None  # a line without a body: no terminating 0
        # exactly one 0 per line, and it is the line's last token
        is_zero = (val == 0) & ~is_h
        if with_head:
            is_zero[line_first] = False
        if int(is_zero.sum()) != n_lines or not np.all(is_zero[line_end - 1]):
            return None
        is_head = np.zeros(n_tok, dtype=bool)
        if with_head:
            is_head[line_first] = True
            if np.any(is_h & ~is_head) or (self.mode not in (None, "2022") and is_h.any()):
                return None
            if np.any(long & ~is_head):
                return None  # a literal beyond 64 bits: the slow path reports it
            weights = val[line_first]
            if long.any():
                weights = weights.astype(object)
                for k in np.flatnonzero(long[line_first]).tolist():
                    tok = line_first[k]
                    weights[k] = int(block[starts[tok] : ends[tok]])
            hard_line = is_h[line_first]
            if np.any((weights <= 0) & ~hard_line):
                return None
            if self.mode == "wcnf" and (weights.dtype == object or self.top <= _INT64_MAX):
                hard_line = np.asarray(weights >= self.top, dtype=bool)
            elif self.mode == "wcnf_notop":
                hard_line = np.zeros(n_lines, dtype=bool)
        else:
            if is_h.any() or long.any():
                return None
            weights = np.zeros(n_lines, dtype=np.int64)
            hard_line = np.ones(n_lines, dtype=bool)
        is_lit = ~is_head & ~is_zero
        lits = val[is_lit]
        max_abs = int(np.abs(lits).max()) if len(lits) else 0
        if max_abs > self.var_limit:
            return None
        lens = line_end - body_start - 1
        lit_line = np.repeat(np.arange(n_lines), lens)
        hard_mask = hard_line[lit_line]
        hard_offs = _offsets(lens[hard_line])
        soft_offs = _offsets(lens[~hard_line])
        return (lits[hard_mask], hard_offs, lits[~hard_mask], soft_offs,
                weights[~hard_line], n_lines, max_abs)

    # -- line-by-line path ------------------------------------------------------
    def _slow(self, block: bytes, first_line: int) -> None:
        hard: list[list[int]] = []
        soft: list[list[int]] = []
        weights: list[int] = []
        max_abs = 0
        n_lines = 0
        for i, raw in enumerate(block.split(b"\n")):
            lineno = first_line + i
            if len(raw) > _LONG_LINE and self._long_line(raw, lineno):
                # added directly, after what this block held before it (file order)
                self._add(*_slow_arrays(hard, soft, weights), n_lines, max_abs)
                hard, soft, weights, max_abs, n_lines = [], [], [], 0, 0
                continue
            toks = raw.split()
            if not toks or toks[0][:1] == b"c":
                continue
            if toks[0] == b"p":
                self._p_line(toks, lineno)
                continue
            if self.mode is None:
                self.mode = "2022"
            weight, lits = self._clause(toks, lineno)
            n_lines += 1
            if lits:
                max_abs = max(max_abs, max(abs(lit) for lit in lits))
            if weight is None:
                hard.append(lits)
            else:
                soft.append(lits)
                weights.append(weight)
        self._add(*_slow_arrays(hard, soft, weights), n_lines, max_abs)

    def _long_line(self, raw: bytes, lineno: int) -> bool:
        """Parse and add one line longer than ``_LONG_LINE``; False for a p line (not handled).

        Issue #12 row 14: ``raw.split()`` made a Python object per token (18.6 s and
        956 MB for a 100 MB line before its error).  Here the body is tokenised by
        numpy in windows of about ``_LONG_LINE`` bytes, so the extra memory is 8 bytes
        per literal plus one window's temporaries.  Errors and their order are those
        of :meth:`_clause`.
        """
        head = re.match(rb"[ \t\r\x0b\x0c]*(\S*)", raw)
        first = head.group(1)
        if not first or first[:1] == b"c":
            return True  # blank or comment: nothing to add
        if first[:1] == b"p":
            return False  # a (malformed) p line: the token path says why
        if self.mode is None:
            self.mode = "2022"
        weight: int | None = None
        body_start = 0
        if self.mode != "cnf":
            weight, _ = self._clause([first, b"0"], lineno)
            body_start = head.end()
        values, long_tokens = _window_values(raw, body_start, lineno, self)
        zeros = np.flatnonzero(values == 0)
        if not len(zeros):
            raise self.error(lineno, "missing the terminating 0")
        if zeros[0] != len(values) - 1:
            raise self.error(lineno, "content after the terminating 0")
        lits = values[:-1]
        limit = self.var_limit
        beyond = np.flatnonzero(np.abs(lits) > min(limit, _INT64_MAX - 1))
        if len(beyond):
            pos = int(beyond[0])
            lit = long_tokens.get(pos, int(lits[pos]))
            what = "the declared variable count" if self.nv is not None else "max_vars"
            raise self.error(lineno, f"literal {lit} is beyond {what} ({limit})")
        max_abs = int(np.abs(lits).max()) if len(lits) else 0
        offs = np.array([0, len(lits)], dtype=np.int64)
        empty, none = np.zeros(0, np.int64), np.zeros(1, np.int64)
        if weight is None:
            self._add(lits, offs, empty, none, None, 1, max_abs)
        else:
            self._add(empty, none, lits, offs, _weight_array([weight]), 1, max_abs)
        return True

    def _int(self, tok: bytes, lineno: int, what: str) -> int:
        if not _INT_RE.match(tok):
            shown = tok[:40].decode("ascii", "backslashreplace")
            raise self.error(lineno, f"{what}: {shown!r} is not an integer")
        if len(tok) > _MAX_DIGITS:
            raise self.error(lineno, f"{what}: an integer of {len(tok)} characters is too long "
                             f"(at most {_MAX_DIGITS})")
        return int(tok)

    def _p_line(self, toks: list[bytes], lineno: int) -> None:
        if self.p_line:
            raise self.error(lineno, f"second p line (the first is on line {self.p_line})")
        if self.mode is not None:
            raise self.error(lineno, "p line after the first clause")
        kind = toks[1] if len(toks) > 1 else b""
        if kind == b"cnf" and len(toks) == 4:
            self.mode = "cnf"
        elif kind == b"wcnf" and len(toks) == 4:
            self.mode = "wcnf_notop"
        elif kind == b"wcnf" and len(toks) == 5:
            self.mode = "wcnf"
        else:
            raise self.error(lineno, "malformed p line; expected 'p wcnf NVARS NCLAUSES [TOP]' "
                             "or 'p cnf NVARS NCLAUSES'")
        nv = self._int(toks[2], lineno, "p line variable count")
        nc = self._int(toks[3], lineno, "p line clause count")
        if nv < 0 or nc < 0:
            raise self.error(lineno, "p line counts must be non-negative")
        if nv > self.max_vars:
            raise self.error(lineno, f"p line declares {nv} variables, more than max_vars "
                             f"= {self.max_vars}")
        if self.mode == "wcnf":
            self.top = self._int(toks[4], lineno, "p line top weight")
            if self.top <= 0:
                raise self.error(lineno, f"p line top weight must be positive, got {self.top}")
        self.nv, self.nc, self.p_line = nv, nc, lineno
        self.model.pool.top = max(self.model.pool.top, nv)

    def _clause(self, toks: list[bytes], lineno: int) -> tuple[int | None, list[int]]:
        """Return ``(weight or None for hard, literals)`` of one clause line."""
        weight: int | None = None
        body = toks
        if self.mode != "cnf":
            head, body = toks[0], toks[1:]
            if head == b"h":
                if self.mode != "2022":
                    raise self.error(lineno, "'h' line in a file with a p line (legacy format "
                                     "marks hard clauses with the top weight)")
            else:
                weight = self._int(head, lineno, "weight")
                if weight <= 0:
                    raise self.error(lineno, f"weight must be a positive integer, got {weight}")
                if self.mode == "wcnf" and weight >= self.top:
                    weight = None
        values = [self._int(tok, lineno, "literal") for tok in body]
        if 0 not in values:
            raise self.error(lineno, "missing the terminating 0")
        end = values.index(0)
        if end != len(values) - 1:
            raise self.error(lineno, "content after the terminating 0")
        lits = values[:-1]
        limit = self.var_limit
        for lit in lits:
            if abs(lit) > limit:
                what = ("the declared variable count" if self.nv is not None
                        else "max_vars")
                raise self.error(lineno, f"literal {lit} is beyond {what} ({limit})")
        return weight, lits

    def finish(self) -> Model:
        if self.p_line:
            if self.n_clauses != self.nc:
                raise self.error(self.p_line, f"p line declares {self.nc} clauses but the file "
                                 f"has {self.n_clauses}")
            if self.mode == "wcnf":
                total = self.model.soft_weight_sum()
                if self.top <= total:
                    raise self.error(self.p_line, f"top weight {self.top} is not above the sum "
                                     f"of the soft weights ({total}); such a legacy file is "
                                     "ambiguous and is rejected")
        return self.model


def _slow_arrays(hard: list, soft: list, weights: list) -> tuple:
    """The ``_add`` arguments (all but the line count and largest literal) of parsed lines."""
    hard_flat = [lit for c in hard for lit in c]
    soft_flat = [lit for c in soft for lit in c]
    return (np.array(hard_flat, dtype=np.int64), _offsets([len(c) for c in hard]),
            np.array(soft_flat, dtype=np.int64), _offsets([len(c) for c in soft]),
            _weight_array(weights))


def _longest_line(block: bytes) -> int:
    ends = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == ord("\n"))
    bounds = np.concatenate(([-1], ends, [len(block)]))
    return int(np.diff(bounds).max()) - 1


_SPACE_RE = re.compile(rb"[ \t\r\x0b\x0c]")
_SPACE = np.zeros(256, dtype=bool)
_SPACE[list(b" \t\r\x0b\x0c")] = True  # what bytes.split() splits on (no newline here)
_DIGIT = np.zeros(256, dtype=bool)
_DIGIT[list(b"0123456789")] = True


def _window_values(raw: bytes, begin: int, lineno: int, reader: _Reader):
    """Return the int64 values of the integer tokens of ``raw[begin:]``, read in windows.

    Tokens of more than 18 digits become ``_INT64_MAX`` in the array and their exact
    value goes to the returned ``{index: int}``.  The first non-integer or too long
    token raises the error :meth:`_Reader._int` gives for it.
    """
    arr = np.frombuffer(raw, dtype=np.uint8)
    parts: list[np.ndarray] = []
    long_tokens: dict[int, int] = {}
    n_done = 0
    pos = begin
    while pos < len(arr):
        end = min(len(arr), pos + _LONG_LINE)
        if end < len(arr) and not _SPACE[arr[end]]:  # never cut a token
            space = _SPACE_RE.search(raw, end)
            stop = space.start() if space else len(arr)
            if stop - end > _MAX_DIGITS:
                # a token too long to be read crosses the window's end: the tokens before
                # it are checked first (error order), then it raises with its full length
                cut = raw.rfind(b" ", pos, end)
                cut = max(cut, *(raw.rfind(c, pos, end) for c in (b"\t", b"\r", b"\x0b",
                                                                      b"\x0c")))
                cut = max(cut + 1, pos)
                if cut > pos:
                    _token_values(raw, arr[pos:cut], pos, lineno, reader)
                reader._int(raw[cut:stop], lineno, "literal")
            end = stop
        vals, longs = _token_values(raw, arr[pos:end], pos, lineno, reader)
        long_tokens.update({n_done + k: v for k, v in longs.items()})
        parts.append(vals)
        n_done += len(vals)
        pos = end
    values = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return values, long_tokens


def _token_values(raw: bytes, win: np.ndarray, offset: int, lineno: int, reader: _Reader):
    """Values of the whitespace-separated integer tokens of one window (see _window_values)."""
    space = _SPACE[win]
    edge = np.diff(space.view(np.int8), prepend=np.int8(1), append=np.int8(1))
    starts = np.flatnonzero(edge == -1)
    lens = np.flatnonzero(edge == 1) - starts
    if not len(starts):
        return np.zeros(0, dtype=np.int64), {}
    tok_of_byte = np.repeat(np.arange(len(starts)), lens)
    body = win[~space]
    neg = body[_offsets(lens)[:-1]] == ord("-")
    ok_byte = _DIGIT[body]
    ok_byte[_offsets(lens)[:-1][neg]] = True  # a leading minus
    bad = ~np.logical_and.reduceat(ok_byte, _offsets(lens)[:-1]) | (neg & (lens < 2))
    bad |= lens > _MAX_DIGITS
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        start = offset + int(starts[k])
        reader._int(raw[start : start + int(lens[k])], lineno, "literal")  # raises
    digits = body.astype(np.int64) - ord("0")
    digits[_offsets(lens)[:-1][neg]] = 0
    long = (lens - neg) > 18
    exponent = np.repeat(np.cumsum(lens) - 1, lens) - np.arange(len(body))
    digits[long[tok_of_byte]] = 0
    np.minimum(exponent, 18, out=exponent)
    vals = np.add.reduceat(digits * _POW10[exponent], _offsets(lens)[:-1])
    vals[neg] *= -1
    longs = {}
    for k in np.flatnonzero(long).tolist():
        start = offset + int(starts[k])
        longs[k] = int(raw[start : start + int(lens[k])])
        vals[k] = _INT64_MAX if longs[k] else 0
    return vals, longs


def _weight_array(weights: list[int]) -> np.ndarray:
    """Python int weights as int64, or as objects when one exceeds 64 bits.

    (``np.asarray`` would turn a list mixing values in ``[2**63, 2**64)`` with
    small ones into float64, losing precision.)
    """
    if weights and max(weights) > _INT64_MAX:
        return np.array(weights, dtype=object)
    return np.array(weights, dtype=np.int64)


def _token_bytes(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Return the byte positions of all tokens, in order (``starts[i] + 0..lengths[i]-1``)."""
    total = int(lengths.sum())
    shift = np.repeat(starts - _offsets(lengths)[:-1], lengths)
    return np.arange(total, dtype=np.int64) + shift


def _offsets(lengths) -> np.ndarray:
    lengths = np.asarray(lengths, dtype=np.int64)
    offs = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offs[1:])
    return offs


def _read_block(stream, reader: _Reader, line: int, compressed: bool):
    """Read the next block; a corrupt compressed file is an error naming the line reached."""
    try:
        return stream.read(_READ_BLOCK)
    except (EOFError, lzma.LZMAError, OSError) as exc:
        if not compressed or isinstance(exc, (FileNotFoundError, PermissionError)):
            raise
        raise reader.error(line, f"cannot decompress the file ({exc})") from None


def _open(path_or_file: Any) -> tuple[IO[bytes] | IO[str], str, bool]:
    """Return ``(stream, name, owned)`` for a path (compressed by extension) or a file object."""
    if hasattr(path_or_file, "read"):
        return path_or_file, str(getattr(path_or_file, "name", "<stream>")), False
    path = os.fspath(path_or_file)
    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open, ".lzma": lzma.open}.get(
        os.path.splitext(str(path))[1].lower(), open)
    return opener(path, "rb"), os.fsdecode(path), True


def read_wcnf(path: Any, *, max_vars: int = MAX_VARS) -> Model:
    """Read a WCNF file (2022 or legacy format) into a :class:`Model`.

    Parameters
    ----------
    path : str, os.PathLike or file object
        ``.gz``, ``.bz2`` and ``.xz`` paths are decompressed on the fly.
    max_vars : int
        Refuse literals (and ``p`` lines) beyond this many variables.

    Returns
    -------
    Model
        Anonymous variables ``1..n`` (``n`` from the ``p`` line, or the largest
        variable used in a 2022 file), hard and soft clauses in file order.

    Raises
    ------
    EncodingError
        A ``ValueError`` whose message starts with ``<file>:<line>:`` for
        malformed input (see the module docstring for the list).

    Examples
    --------
    >>> import io
    >>> m = read_wcnf(io.BytesIO(b"c demo\\nh 1 2 0\\n2 -1 0\\n3 -2 0\\n"))
    >>> m.n_vars, len(m.hard), m.soft.weight_list()
    (2, 1, [2, 3])
    >>> read_wcnf(io.BytesIO(b"h 1 2 0\\n0 -1 0\\n"))
    Traceback (most recent call last):
    ...
    satrules.exceptions.EncodingError: <stream>:2: weight must be a positive integer, got 0
    """
    stream, name, owned = _open(path)
    reader = _Reader(name, max_vars)
    compressed = isinstance(stream, (gzip.GzipFile, bz2.BZ2File, lzma.LZMAFile))
    line = 1
    # the unfinished last line, grown in place: ``carry + data`` copied a long line
    # once per block (quadratic; a 400 MB line had not been read after 100 s)
    carry = bytearray()
    try:
        while True:
            data = _read_block(stream, reader, line, compressed)
            if isinstance(data, str):
                data = data.encode("utf-8", "surrogateescape")
            if not data:
                break
            cut = data.rfind(b"\n")
            if cut < 0:
                carry += data
                continue
            if carry:
                carry += data[: cut + 1]
                block = bytes(carry)
            else:
                block = data[: cut + 1]
            carry = bytearray(data[cut + 1 :])
            reader.feed(block, line)
            line += block.count(b"\n")
        reader.feed(bytes(carry), line)
    finally:
        if owned:
            stream.close()
    return reader.finish()
