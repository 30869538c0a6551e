"""``satrules learn``: fit a rule learner on a CSV file, print the rules and scores, save them.

This module also holds the helpers the other learner commands share (reading a
CSV file, building an estimator from ``--method`` and its parameters, scoring,
plain-text tables).
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import json
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

#: ``--method`` name -> (module, class, fixed parameters).  Every other parameter
#: keeps the estimator's own default, so ``satrules learn`` and the Python API
#: learn the same rules from the same data.
METHODS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "imli": ("satrules.estimators.imli", "IMLIClassifier", {}),
    "imlib": ("satrules.estimators.imlib", "IMLIBClassifier", {}),
    "cdpr-gra": ("satrules.estimators.cdpr", "CDPRClassifier", {"method": "gra"}),
    "cdpr-gdy": ("satrules.estimators.cdpr", "CDPRClassifier", {"method": "gdy"}),
    "cdpr-exact": ("satrules.estimators.cdpr", "CDPRClassifier", {"method": "exact"}),
}

# (flag, estimator parameter, type, help); a flag is passed on only when given, and is an
# error for a method whose estimator has no such parameter
def class_weight_value(text: str) -> Any:
    """``--class-weight``: ``balanced``, or a JSON object ``{"class": weight, ...}``.

    Examples
    --------
    >>> class_weight_value("balanced"), class_weight_value('{"yes": 5}')
    ('balanced', {'yes': 5})
    """
    if text == "balanced":
        return text
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(
            f"expected balanced or a JSON object such as '{{\"yes\": 5}}', got {text!r}")
    return value


def alpha_value(text: str) -> Any:
    """``--alpha``: a number, ``cv``, or comma-separated numbers to choose from by
    cross-validation.

    Examples
    --------
    >>> alpha_value("0.8"), alpha_value("cv"), alpha_value("0.7,0.9")
    (0.8, 'cv', [0.7, 0.9])
    """
    if text.strip() == "cv":
        return "cv"
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number, cv or numbers separated by commas (0.7,0.8,0.9), got "
            f"{text!r}") from None
    return values[0] if len(values) == 1 and "," not in text else values


def positive_or_auto(text: str) -> Any:
    """``--n-init``, ``--gamma``: a positive whole number or ``auto``.

    >>> positive_or_auto("auto"), positive_or_auto("5")
    ('auto', 5)
    """
    if text.strip() == "auto":
        return "auto"
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number or auto, got "
                                         f"{text!r}")
    return value


def bool_value(text: str) -> bool:
    """``true`` / ``false`` (any case; also ``1`` / ``0``, ``yes`` / ``no``).

    >>> bool_value("False"), bool_value("1")
    (False, True)
    """
    value = text.strip().lower()
    if value in ("true", "1", "yes"):
        return True
    if value in ("false", "0", "no"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


#: CDPR flags that ``satrules learn`` and ``satrules encode`` share, as (flag, parameter,
#: type, help); each command tags the help with its name for the method
#: (:func:`tagged`).  The limits on the chosen rules:
CDPR_LIMIT_FLAGS: list[tuple[str, str, Any, str]] = [
    ("--beta", "beta", float, "maximum overlap rate"),
    ("--gamma", "gamma", positive_or_auto,
     "maximum number of rules (auto: 10, or one fewer than the classes when there are "
     "more than 11)"),
    ("--delta", "delta", int, "maximum rule width"),
]
#: and the mining of the candidate rules.
CDPR_MINING_FLAGS: list[tuple[str, str, Any, str]] = [
    ("--n-estimators", "n_estimators", int, "trees mined for candidates"),
    ("--max-depth", "max_depth", int, "depth of the mined trees"),
    ("--nodes", "nodes", str,
     "leaves (default: a candidate per leaf, as the paper) or all (a candidate per node but "
     "the roots, so that shorter rules stand beside their leaves')"),
    ("--miner", "miner", str,
     "hist (default: boosting on binned features), gbdt (exact splits, the paper's) or rf: "
     "the trees mined"),
]


def tagged(flags: list[tuple[str, str, Any, str]], tag: str) -> list[tuple[str, str, Any, str]]:
    """``flags`` with ``(tag)`` after each help text.

    >>> tagged([("--gamma", "gamma", int, "maximum number of rules")], "CDPR")[0][3]
    'maximum number of rules (CDPR)'
    """
    return [(flag, dest, kind, f"{text} ({tag})") for flag, dest, kind, text in flags]


_PARAM_FLAGS: list[tuple[str, str, Any, str]] = [
    ("--n-rules", "n_rules", int, "number of rules k (IMLI, IMLIB)"),
    ("--extra-rules", "extra_rules", int,
     "rules polishing may add to the k, each passing the sign test (IMLI, IMLIB; "
     "default 2)"),
    ("--rule-type", "rule_type", str, "cnf or dnf (IMLI)"),
    ("--rule-class", "rule_class", str,
     "the class two-class rules describe, IF rules THEN this class, or auto: the class "
     "whose rules fit the training rows better, for twice the time (IMLI, IMLIB; default: "
     "the later label in sorted order)"),
    ("--data-fidelity", "data_fidelity", float, "weight of one error, lambda (IMLI, IMLIB)"),
    ("--n-partitions", "n_partitions", int,
     "number of incremental partitions (IMLI, IMLIB; default: 16-row partitions)"),
    ("--partition-size", "partition_size", int, "samples per partition (IMLI, IMLIB)"),
    ("--n-passes", "n_passes", int, "passes over the partitions (IMLI, IMLIB; default 2)"),
    ("--n-init", "n_init", positive_or_auto,
     "independent fits, their rules pooled and the best subset kept (IMLI, IMLIB; "
     "default auto: 3 on small and medium data, fewer on large; 1 is the papers' "
     "single fit)"),
    ("--max-literals", "max_literals_per_rule", int, "literals per rule l (IMLIB)"),
    ("--n-thresholds", "n_thresholds", int, "thresholds per numeric feature (IMLI, IMLIB)"),
    ("--thresholds", "thresholds", str,
     "where the thresholds go: tree (default; cuts of a one-feature tree on the labels), "
     "quantile or both (IMLI, IMLIB)"),
    ("--categories", "categories", str,
     "grouped (default: a categorical feature of 10 or more levels becomes a few "
     "'x in {...}' columns grouping its levels by their rate of the class, one set of "
     "columns per class for more classes; CDPR's trees see each level's rate of each "
     "class, so that a rule names a set of levels) or onehot (a column per level)"),
    ("--class-weight", "class_weight", class_weight_value,
     "balanced (a rare class counts as much as a common one) or a JSON object "
     "'{\"CLASS\": WEIGHT}': a misclassified row of that class costs WEIGHT times as much "
     "(IMLI, IMLIB), or counts WEIGHT times (CDPR)"),
    ("--alpha", "alpha", alpha_value,
     "minimum rule accuracy (CDPR): a number, cv (the default) to choose it among "
     "0.6-0.9 by cross-validation on the training rows, or 0.7,0.8,0.9 among those values"),
    *tagged(CDPR_LIMIT_FLAGS, "CDPR"),
    ("--lam", "lam", float, "GDY overlap weight lambda (CDPR)"),
    *tagged(CDPR_MINING_FLAGS, "CDPR"),
    ("--backend", "backend", str, "solver backend (see `satrules backends`; default auto)"),
    ("--time-limit", "time_limit", float,
     "seconds for the whole fit (default: none, so results do not depend on machine speed)"),
]


#: cell texts read as missing: pandas' default markers except ``None``, which in a CSV
#: file is a word (``exercise = None``), not a Python object (pandas writes those as
#: empty cells); R's ``read.csv`` reads only ``NA`` as missing
NA_MARKERS: tuple[str, ...] = (
    "", "NA", "N/A", "n/a", "NaN", "nan", "-NaN", "-nan", "NULL", "null", "<NA>",
    "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "1.#IND", "1.#QNAN",
)


#: field separators ``read_table`` recognises, in order of preference on a tie
SEPARATORS: tuple[str, ...] = (",", ";", "\t", "|")

#: encodings tried in turn: UTF-8 (a byte-order mark allowed), then Windows-1252 (Excel's
#: western default), then Latin-1 (which decodes any bytes)
ENCODINGS: tuple[str, ...] = ("utf-8-sig", "cp1252", "latin-1")

#: a number as written where the comma is the decimal mark: ``4,5``, ``-0,25``, ``12``,
#: ``1.234,5`` (dots group thousands)
_DECIMAL_COMMA = r"\s*[+-]?(\d{1,3}(\.\d{3})+|\d+)?(,\d+)?([eE][+-]?\d+)?\s*"
#: such a number with a text before and after it (``13,5 %``, ``€ 1.250,50``)
_QUANTITY_COMMA = r"^(\D*?)([+-]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?)(\D*)$"


def _uncompressed(path: str, data: bytes) -> bytes:
    """``data``, the bytes of the file ``path``, uncompressed when they are gzip, bzip2,
    xz or a zip archive of one file (as ``pandas.read_csv`` reads ``data.csv.gz``),
    recognised by their first bytes whatever the file's name.

    Raises
    ------
    ValueError
        For a corrupt archive, a zip archive of several files, an Excel workbook (of
        either format) or a Parquet file, each named.
    """
    import bz2
    import gzip
    import lzma
    import zipfile

    # bzip2: "BZh", the block size, then the block magic (a CSV header may start "BZh")
    bzip2 = data[:3] == b"BZh" and data[3:4].isdigit() and \
        data[4:10] == b"\x31\x41\x59\x26\x53\x59"
    kind, read = ("gzip", gzip.decompress) if data.startswith(b"\x1f\x8b") else \
        ("xz", lzma.decompress) if data.startswith(b"\xfd7zXZ\x00") else \
        ("bzip2", bz2.decompress) if bzip2 else (None, None)
    if kind is not None:
        try:
            return read(data)
        except (OSError, EOFError, ValueError, lzma.LZMAError) as exc:
            raise ValueError(f"cannot read CSV file {path!r}: its {kind} compression is "
                             f"corrupt or cut short ({exc})") from None
    if data.startswith(b"PAR1") and data.endswith(b"PAR1"):
        raise ValueError(f"{path!r} is a Parquet file; satrules reads CSV files (write one "
                         "with pandas.read_parquet(path).to_csv('data.csv', index=False))")
    if data.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):   # OLE2: Office 97-2003
        raise ValueError(f"{path!r} is an Office 97-2003 document (an Excel .xls workbook?); "
                         "satrules reads CSV files: save the sheet as CSV (UTF-8)")
    if not data.startswith(b"PK\x03\x04"):
        return data
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = [n for n in archive.namelist() if not n.endswith("/")]
            if "[Content_Types].xml" in names:
                raise ValueError(
                    f"{path!r} is an Office document (an Excel workbook?); satrules reads CSV "
                    "files: save the sheet as CSV (UTF-8), or write one with "
                    "pandas.read_excel(path).to_csv('data.csv', index=False)")
            if len(names) != 1:
                raise ValueError(f"cannot read CSV file {path!r}: a zip archive of "
                                 f"{len(names)} files {names[:5]}; a zip must hold one CSV "
                                 "file")
            return archive.read(names[0])
    except zipfile.BadZipFile as exc:
        raise ValueError(f"cannot read CSV file {path!r}: its zip archive is corrupt "
                         f"({exc})") from None


def _read_text(path: str) -> str:
    """The file's text (uncompressed first: :func:`_uncompressed`), decoded once with the
    first of :data:`ENCODINGS` that decodes it all (warning when not UTF-8); a file with
    NUL bytes is refused (binary, or UTF-16)."""
    with open(path, "rb") as fh:
        data = _uncompressed(path, fh.read())
    if b"\x00" in data:
        raise ValueError(f"cannot read CSV file {path!r}: it holds NUL bytes, so it is not "
                         "text in a one-byte encoding (binary, or UTF-16 text: save it as "
                         "a UTF-8 CSV)")
    for encoding in ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if encoding != ENCODINGS[0]:
            import warnings

            warnings.warn(f"CSV file {path!r} is not UTF-8; read it as {encoding} (save it "
                          "as UTF-8 to be sure of its accented letters)", UserWarning,
                          stacklevel=3)
        return text
    raise AssertionError("Latin-1 decodes any bytes")  # pragma: no cover


def _csv_header(path: str, text: str) -> tuple[list[str], str]:
    """The header's column names and the separator: the one of :data:`SEPARATORS` that
    splits the header record of ``text`` (the file ``path``) into the most fields (``,``
    when none splits it)."""
    best: tuple[list[str], str] = ([], ",")
    for sep in SEPARATORS:
        try:   # the first record: a quoted name may hold a line break
            fields = next(csv.reader(io.StringIO(text, newline=""), delimiter=sep), [])
        except csv.Error as exc:
            raise ValueError(f"cannot read CSV file {path!r}: {exc}") from None
        if len(fields) > len(best[0]):
            best = (fields, sep)
    return best


def _decimal_commas(frame: Any, force: Sequence[str] = ()) -> tuple[Any, list[str]]:
    """``frame`` with every text column whose values are all numbers written with a
    decimal comma (``4,5``, ``1.234,5``; at least one comma) read as numbers, and every
    text column of such numbers written with a unit (``13,5 %``, ``€ 1.250,50``) rewritten
    with decimal points (``13.5 %``, ``€ 1250.50``) when that makes it a quantity
    (:func:`satrules.rules.quantity_unit`); also the names of the columns so read.

    The columns named in ``force`` (read as text) are read that way even without a
    comma: a batch whose amounts are all whole (``€ 1.250``, ``1.234``) is read as the
    training file was, dots grouping thousands.
    """
    from pandas.api.types import is_object_dtype, is_string_dtype

    from satrules.rules import quantity_unit

    done = []
    for name in frame.columns:
        column = frame[name]
        if not (is_object_dtype(column) or is_string_dtype(column)):
            continue
        text = column.dropna().astype(str)
        if not len(text) or not (name in force or text.str.contains(",").any()):
            continue
        if text.str.fullmatch(_DECIMAL_COMMA).all() and text.str.contains(r"\d").all():
            frame[name] = column.str.replace(".", "", regex=False) \
                .str.replace(",", ".", regex=False).astype(float)
            done.append(name)
            continue
        parts = text.str.extract(_QUANTITY_COMMA)
        if parts[1].isna().any():
            continue
        rewritten = parts[0] + parts[1].str.replace(".", "", regex=False) \
            .str.replace(",", ".", regex=False) + parts[2]
        if quantity_unit(rewritten.to_numpy(dtype=object)) is not None:
            frame.loc[text.index, name] = rewritten
            done.append(name)
    return frame, done


def read_table(path: str, target: str | None = None, na_values: Sequence[str] = (),
               comma_columns: Sequence[str] = (), drop_unlabelled: bool = False):
    """Read a CSV file with a header; return ``(X, y)`` (``y`` is None without ``target``).
    The file may be compressed (gzip, bzip2, xz, or a zip of one file: ``data.csv.gz``).

    Empty cells and the usual markers (``NA``, ``NaN``, ``NULL``, ``N/A``...: see
    :data:`NA_MARKERS`) are missing values, and so are the cell texts in ``na_values``
    (``--na-values``: ``.`` as SAS and Stata write a missing value, ``?``, ``-``); the
    word ``None`` is a category.

    The separator is the one of ``,``, ``;``, tab and ``|`` that splits the header into
    the most fields.  In a file not separated by commas, a column whose values are all
    numbers with a decimal comma (``4,5``, as Excel writes them where the comma is the
    decimal mark) is numeric.  The names of the columns read with decimal commas are in
    ``X.attrs["comma_columns"]`` (``satrules learn --out`` saves them); the columns in
    ``comma_columns`` are read that way whatever their values, so ``1.234`` in a later
    batch is 1234 when the training file wrote ``1.234,5``.  The file is read as UTF-8,
    or, when it is not valid UTF-8, as Windows-1252 (then Latin-1), with a warning.

    A row whose ``target`` is missing is an error, or with ``drop_unlabelled``
    (``--drop-unlabelled``) is left out with a warning that names how many; the rows
    kept keep their positions in the file as the index of ``X``.

    Raises
    ------
    ValueError
        Unreadable or empty file, duplicate column names, a missing target
        column, missing target values (without ``drop_unlabelled``; with it, when no
        row has a label), or no feature column left.
    OSError
        The file does not exist or cannot be opened.
    """
    import pandas as pd

    text = _read_text(path)
    header, sep = _csv_header(path, text)
    if not header:
        raise ValueError(f"CSV file {path!r} is empty (no header row)")
    seen, dupes = set(), []
    for name in header:
        if name in seen and name not in dupes:
            dupes.append(name)
        seen.add(name)
    if dupes:
        raise ValueError(f"CSV file {path!r} has duplicate column names: {', '.join(dupes)}")
    force = [name for name in comma_columns if name in header] if sep != "," else []
    try:
        frame = pd.read_csv(io.StringIO(text, newline=""), sep=sep, skipinitialspace=True,
                            keep_default_na=False, dtype=dict.fromkeys(force, str),
                            na_values=list(NA_MARKERS) + [str(v) for v in na_values])
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read CSV file {path!r}: {exc}") from None
    if len(frame) == 0:
        raise ValueError(f"CSV file {path!r} has a header but no data rows")
    commas = []
    if sep != ",":
        frame, commas = _decimal_commas(frame, force)
    frame.attrs["comma_columns"] = [name for name in commas if name != target]
    if target is None:
        return frame, None
    if target not in frame.columns:
        raise ValueError(f"target column {target!r} is not in {path!r}; "
                         f"{column_hint(target, frame.columns)}")
    y = frame[target]
    if y.isna().any():
        rows = (np.flatnonzero(y.isna().to_numpy()) + 1).tolist()
        shown = ", ".join(map(str, rows[:5])) + (", ..." if len(rows) > 5 else "")
        where = (f"target column {target!r} has {len(rows)} missing value(s), in data "
                 f"row(s) {shown} (counted from 1 after the header)")
        if not drop_unlabelled:
            raise ValueError(f"{where}; a row without a label cannot be learned from or "
                             f"scored: remove those rows or fill in their labels (or pass "
                             f"--drop-unlabelled to leave them out)")
        if len(rows) == len(y):
            raise ValueError(f"{where}: no row has a label")
        import warnings

        warnings.warn(f"{where}: left out (--drop-unlabelled); {len(y) - len(rows)} "
                      f"labelled row(s) used", UserWarning, stacklevel=2)
        frame, y = frame[y.notna()], y[y.notna()]
    _check_whole_labels(y, target)
    X = frame.drop(columns=[target])
    X.attrs["comma_columns"] = [name for name in commas if name != target]
    if X.shape[1] == 0:
        raise ValueError(f"CSV file {path!r} has no feature column besides the target")
    return X, y.to_numpy()


def _check_whole_labels(y, target: str) -> None:
    """Raise a ``ValueError`` naming the column when the labels are numbers that are not
    all whole (``4.02``, ``4.4``: a quantity, which scikit-learn calls an "Unknown label
    type: continuous" without naming the column)."""
    import pandas as pd

    if not pd.api.types.is_float_dtype(y.dtype):
        return
    values = y.to_numpy(dtype=float)
    odd = np.unique(values[np.isfinite(values) & (values != np.round(values))])
    if len(odd):
        shown = ", ".join(f"{v:g}" for v in odd[:3]) + (", ..." if len(odd) > 3 else "")
        raise ValueError(
            f"target column {target!r} holds numbers that are not whole ({shown}; "
            f"{y.nunique()} distinct values): the rule learners predict classes, not a "
            f"quantity; to learn classes, write them as text or whole numbers, or cut the "
            f"quantity into classes (e.g. a column high = {target} > t)")


def column_hint(name: str, columns: Sequence[Any]) -> str:
    """The end of a message about a column ``name`` that is not among ``columns``: the
    column it most likely means, when one is the same up to spaces and case or close in
    spelling (``'Outcome '``, whose trailing space a list of the columns hides), and the
    columns themselves.

    Examples
    --------
    >>> column_hint("Outcome", ["Age", "Outcome "])
    "did you mean 'Outcome ' (spaces or case differ)? columns are: 'Age', 'Outcome '"
    >>> column_hint("outcom", ["Age", "Outcome"])
    "did you mean 'Outcome'? columns are: 'Age', 'Outcome'"
    """
    import difflib

    names = [str(c) for c in columns]
    listed = ", ".join(repr(c) for c in names[:50]) + (", ..." if len(names) > 50 else "")
    key = name.strip().casefold()
    alike = [c for c in names if c.strip().casefold() == key]
    if alike:
        return f"did you mean {alike[0]!r} (spaces or case differ)? columns are: {listed}"
    close = difflib.get_close_matches(key, [c.strip().casefold() for c in names], n=1,
                                      cutoff=0.75)
    if close:
        guess = next(c for c in names if c.strip().casefold() == close[0])
        return f"did you mean {guess!r}? columns are: {listed}"
    return f"columns are: {listed}"


def declare_ordered(X, specs: Sequence[str]):
    """Return ``X`` with each column named in ``specs`` (``"NAME=LOW,MID,HIGH"``, levels
    lowest first) as an ordered pandas ``category`` column of those levels, which the
    learners cut at thresholds between levels (``stage <= II``) instead of one-hot
    encoding.

    Values are matched to levels by their text (:func:`satrules.rules.level_key`: ``3``,
    ``3.0`` and ``"3"`` are the level ``3``); missing cells stay missing.

    Raises
    ------
    ValueError
        A spec without ``=`` or levels, a level given twice, a column that is not in
        ``X``, or a value that is not one of the levels (named).

    Examples
    --------
    >>> import pandas as pd
    >>> X = declare_ordered(pd.DataFrame({"grade": ["B", "A", None, "C"]}), ["grade=C,B,A"])
    >>> X["grade"].cat.categories.tolist(), X["grade"].cat.ordered
    (['C', 'B', 'A'], True)
    """
    import pandas as pd

    from satrules.rules import level_ranks, missing_mask

    X = X.copy()
    for spec in specs:
        name, eq, text = spec.partition("=")
        levels = [v.strip() for v in text.split(",")]
        if not eq or not name or not all(levels):
            raise ValueError(f"--ordered {spec!r}: write NAME=LEVEL1,LEVEL2,... (lowest "
                             "first, at least one level)")
        if len(set(levels)) != len(levels):
            raise ValueError(f"--ordered {spec!r}: a level is given twice")
        if name not in X.columns:
            raise ValueError(f"--ordered {spec!r}: no column {name!r}; "
                             f"{column_hint(name, X.columns)}")
        values = X[name].to_numpy(dtype=object)
        ranks = level_ranks(values, levels)   # NaN: missing, or not a level
        odd = list(dict.fromkeys(map(str, values[np.isnan(ranks) & ~missing_mask(values)])))
        if odd:
            raise ValueError(f"--ordered {spec!r}: column {name!r} holds value(s) that are "
                             f"not among the levels: {odd[:5]}{' ...' if len(odd) > 5 else ''}")
        codes = np.where(np.isnan(ranks), -1, ranks).astype(int)
        X[name] = pd.Categorical.from_codes(codes, categories=levels, ordered=True)
    return X


def declare_categorical(X, names: Sequence[str]):
    """Return ``X`` with each column of ``names`` as an unordered pandas ``category``
    column of its values' text (:func:`satrules.rules.level_key`: ``3.0`` read from a
    CSV column of whole numbers with empty cells is the level ``3``), which every
    learner one-hot encodes (``grade = 3``) instead of cutting at thresholds, and
    which holds a few words among numbers (``other`` in a column of school grades)
    without the error of a numeric column with bad values.  Missing cells stay missing.

    Raises
    ------
    ValueError
        A name that is not a column of ``X`` (the columns are listed).

    Examples
    --------
    >>> import pandas as pd
    >>> X = declare_categorical(pd.DataFrame({"grade": [9.0, 10.0, None, "other"]}),
    ...                         ["grade"])
    >>> X["grade"].tolist(), X["grade"].cat.ordered
    (['9', '10', nan, 'other'], False)
    """
    import pandas as pd

    from satrules.rules import level_key

    X = X.copy()
    for name in names:
        if name not in X.columns:
            raise ValueError(f"--categorical {name!r}: no column {name!r}; "
                             f"{column_hint(name, X.columns)}")
        # one level text per distinct value (missing values: code -1, kept missing)
        codes, distinct = pd.factorize(X[name].to_numpy(dtype=object))
        texts = np.array([level_key(v) for v in distinct] + [None], dtype=object)
        X[name] = pd.Categorical(texts[codes])
    return X


def declare_columns(X, args: argparse.Namespace, target: str | None = None):
    """``X`` without the columns of ``--exclude`` (:func:`exclude_columns`) and with the
    columns of ``--categorical`` and ``--ordered`` declared (:func:`declare_categorical`,
    :func:`declare_ordered`); a column in two of these options is an error, and so are the
    weight column excluded and the label column ``target`` declared categorical or
    ordered."""
    ordered = {spec.partition("=")[0] for spec in args.ordered}
    given = {"--exclude": set(args.exclude), "--categorical": set(args.categorical),
             "--ordered": ordered}
    weight = getattr(args, "weight_column", None)
    if weight is not None:
        given["--weight-column"] = {weight}
    flags = list(given)
    for flag in ("--categorical", "--ordered"):
        if target is not None and target in given[flag]:
            raise ValueError(f"{flag} {target!r} is the label column (--target): {flag} "
                             "declares a feature column; the classes are read as they are")
    for i, first in enumerate(flags):
        for second in flags[i + 1:]:
            both = sorted(given[first] & given[second])
            if both:
                raise ValueError(f"column(s) {both} given both as {first} and {second}; "
                                 "choose one")
    X = exclude_columns(X, args.exclude, target)
    return declare_ordered(declare_categorical(X, args.categorical), args.ordered)


def exclude_columns(X, names: Sequence[str], target: str | None = None):
    """Return ``X`` without the columns ``names``: columns a user knows are not features
    (a column that gives the label away, such as a date of death beside a survival label,
    or one that is known only after the outcome).

    Raises
    ------
    ValueError
        A name that is the label column ``target``, or that is not a column of ``X`` (the
        columns are listed, with the likely one).

    Examples
    --------
    >>> import pandas as pd
    >>> exclude_columns(pd.DataFrame({"age": [30], "weeks": [38]}), ["weeks"]).columns.tolist()
    ['age']
    """
    for name in names:
        if target is not None and name == target:
            raise ValueError(f"--exclude {name!r} is the label column (--target): it is "
                             "never a feature")
        if name not in X.columns:
            raise ValueError(f"--exclude {name!r}: no column {name!r}; "
                             f"{column_hint(name, X.columns)}")
    return X.drop(columns=list(dict.fromkeys(names)))


def add_ordered_argument(p: argparse.ArgumentParser) -> None:
    """The ``--ordered NAME=LOW,...,HIGH``, ``--categorical NAME`` and ``--exclude NAME``
    options of the commands that fit on a CSV file."""
    p.add_argument("--ordered", action="append", default=[], metavar="NAME=LOW,...,HIGH",
                   help="a column whose values are ordered levels (lowest first), cut at "
                        "thresholds between them (stage <= II) instead of one-hot encoded; "
                        "repeat for more columns")
    p.add_argument("--categorical", action="append", default=[], metavar="NAME",
                   help="a column whose values are categories, one-hot encoded (grade = 3) "
                        "even if they are numbers, or numbers with a few words (e.g. "
                        "'other'); repeat for more columns")
    p.add_argument("--exclude", action="append", default=[], metavar="NAME",
                   help="a column that is not a feature, left out of the fit (e.g. one that "
                        "gives the label away, or is known only after it); predict ignores "
                        "it too; repeat for more columns")


def add_unlabelled_argument(p: argparse.ArgumentParser) -> None:
    """The ``--drop-unlabelled`` option of the commands that read a target column."""
    p.add_argument("--drop-unlabelled", action="store_true",
                   help="leave out the rows whose label is missing (a warning says how "
                        "many) instead of stopping with an error that names them")


def add_na_argument(p: argparse.ArgumentParser) -> None:
    """The ``--na-values TEXT`` option of the commands that read a CSV file."""
    p.add_argument("--na-values", action="append", default=[], metavar="TEXT",
                   help="a cell text that means a missing value, besides empty cells and NA, "
                        "NaN, NULL, N/A... (e.g. '.', as SAS and Stata write one); repeat "
                        "for more (a file saved by learn keeps them for predict and report)")


def make_estimator(method: str, params: Mapping[str, Any] | None = None):
    """Return an unfitted estimator for ``method`` with ``params`` (validated by name: an
    unknown one is a ``ValueError`` naming the close parameter it likely means).

    Examples
    --------
    >>> make_estimator("imli", {"n_rules": 3}).n_rules
    3
    >>> make_estimator("imli", {"n_rule": 3})
    Traceback (most recent call last):
    ...
    ValueError: method imli has no parameter n_rule (did you mean n_rules?); its parameters are: ...
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    module, name, fixed = METHODS[method]
    cls = getattr(importlib.import_module(module), name)
    est = cls(**fixed)
    params = dict(params or {})
    valid = est.get_params()
    unknown = sorted(set(params) - set(valid))
    if unknown:
        import difflib

        def named(param: str) -> str:
            close = difflib.get_close_matches(param, list(valid), n=1, cutoff=0.75)
            return param + (f" (did you mean {close[0]}?)" if close else "")

        raise ValueError(f"method {method} has no parameter "
                         f"{', '.join(map(named, unknown))}; its parameters are: "
                         f"{', '.join(sorted(valid))}")
    return est.set_params(**params)


def add_method_arguments(p: argparse.ArgumentParser, methods: Sequence[str] = tuple(METHODS),
                         default: str | None = None) -> None:
    """Add ``--method``, the per-method parameter flags and ``--param NAME=VALUE``."""
    p.add_argument("--method", choices=list(methods), default=default, required=default is None,
                   help="learning method")
    g = p.add_argument_group("method parameters (given only when set; see the estimators)")
    for flag, dest, kind, text in _PARAM_FLAGS:
        g.add_argument(flag, dest=f"param_{dest}", type=kind, default=None, help=text,
                       metavar=flag.lstrip("-").upper().replace("-", "_"))
    g.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="any other estimator parameter; VALUE is read as JSON when it parses "
                        "(e.g. --param resolve=vote --param n_thresholds=8); repeatable")


def method_params(args: argparse.Namespace, method: str | None = None) -> dict[str, Any]:
    """Collect the parameters given on the command line (flags and ``--param``).  With
    ``method``, a flag of another method's parameter is an error naming the flag and
    what it is for (``--max-literals`` with ``--method imli``), not the estimator
    parameter it sets."""
    params = {dest: getattr(args, f"param_{dest}") for _, dest, _, _ in _PARAM_FLAGS
              if getattr(args, f"param_{dest}", None) is not None}
    if params and method is not None and method in METHODS:
        valid = make_estimator(method).get_params()
        for flag, dest, _, text in _PARAM_FLAGS:
            if dest in params and dest not in valid:
                raise ValueError(f"{flag} does not apply to --method {method} ({flag}: "
                                 f"{text})")
    for item in getattr(args, "param", []) or []:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--param expects NAME=VALUE, got {item!r}")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        params[name.strip()] = value
    return params


def pop_weights(X, column: str, path: str):
    """Return ``X`` without the weight column, and the column (non-negative numbers)."""
    import pandas as pd

    if column not in X.columns:
        raise ValueError(f"--weight-column {column!r} is not a column of {path!r}; "
                         f"{column_hint(column, X.columns)}")
    raw = X[column]
    weights = pd.to_numeric(raw, errors="coerce").astype(float)
    bad = ~np.isfinite(weights.to_numpy()) | (weights.to_numpy() < 0)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        value = raw.iloc[row]
        shown = repr(value) if isinstance(value, str) else str(value)   # nan, not np.float64(nan)
        raise ValueError(f"--weight-column {column!r} must hold finite non-negative numbers; "
                         f"data row {X.index[row] + 1} has {shown}")   # the file's row
    return X.drop(columns=[column]), weights


def split(X, y, test_size: float, random_state: int | None):
    """Train/test split, stratified when it can be (:func:`satrules.sweep.can_stratify`)."""
    from sklearn.model_selection import train_test_split

    from satrules.sweep import can_stratify

    if not 0 <= test_size < 1:
        raise ValueError(f"--test-size must be in [0, 1), got {test_size}")
    if test_size == 0:
        return X, X.iloc[:0], y, y[:0]
    stratify = y if can_stratify(y, test_size) else None
    parts = train_test_split(X, y, test_size=test_size, random_state=random_state,
                             stratify=stratify)
    classes, counts = np.unique(y, return_counts=True)
    if len(classes) > 1 and len(np.unique(parts[2])) == 1:   # a class of one row, held out
        rare = ", ".join(f"{c!r} ({k} row{'s' if k > 1 else ''})"
                         for c, k in zip(classes, counts, strict=True) if c != parts[2][0])
        raise ValueError(f"the training rows hold only the class {parts[2][0]!r}: the test "
                         f"rows took every row of {rare}; a rule learner needs two classes "
                         f"to tell apart (pass --test-size 0 to train on every row, or "
                         f"another --random-state)")
    return parts


def score(est: Any, X, y) -> dict[str, Any]:
    """Accuracy and coverage on ``(X, y)`` (empty dict for an empty set)."""
    from satrules.report import summary_metrics

    return summary_metrics(est, X, y) if len(y) else {}


def format_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """Return a plain-text table (floats with 3 decimals, None as '-')."""
    def cell(v):
        if v is None:
            return "-"
        if isinstance(v, (float, np.floating)):
            return "-" if np.isnan(v) else f"{v:.3f}"
        return str(v)

    body = [[cell(r.get(c)) for c in columns] for r in rows]
    widths = [max(len(c), *(len(b[i]) for b in body)) if body else len(c)
              for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(v.ljust(w) for v, w in zip(b, widths, strict=True)) for b in body]
    return "\n".join(line.rstrip() for line in lines)


def fit_and_score(est: Any, X_train, y_train, X_test, y_test,
                  sample_weight=None) -> dict[str, Any]:
    """Fit ``est`` (with ``sample_weight`` when given); return the metrics row printed by
    ``learn`` and ``demo``."""
    from satrules.sweep import solver_status

    start = time.perf_counter()
    if sample_weight is None:
        est.fit(X_train, y_train)
    else:
        est.fit(X_train, y_train, sample_weight=sample_weight)
    fit_time = time.perf_counter() - start
    train, test = score(est, X_train, y_train), score(est, X_test, y_test)
    chosen = {} if getattr(est, "alpha_cv_", None) is None else {   # --alpha cv
        "alpha_chosen": est.alpha_,
        "alpha_cv_accuracy": " ".join(f"{a:g}:{v:.3f}" for a, v in est.alpha_cv_.items())}
    return {
        "train_accuracy": train.get("accuracy"), "test_accuracy": test.get("accuracy"),
        "train_balanced_accuracy": train.get("balanced_accuracy"),
        "test_balanced_accuracy": test.get("balanced_accuracy"),
        "train_coverage": train.get("coverage"), "test_coverage": test.get("coverage"),
        "n_rules": train.get("n_rules"), "n_literals": train.get("n_literals"),
        "max_rule_size": train.get("max_rule_size"), "fit_time": round(fit_time, 3),
        "solver_status": solver_status(est) or "-", "n_train": len(y_train), "n_test": len(y_test),
        **chosen,
    }


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "learn", help="learn a rule set from a CSV file",
        description="Fit a rule learner on DATA.csv (header row; numeric and categorical "
                    "columns), print the rules, train/test accuracy, coverage and sizes, and "
                    "save a rule-set JSON file.")
    p.add_argument("data", metavar="DATA.csv", help="training data with a header row")
    p.add_argument("--target", required=True, help="name of the label column")
    add_method_arguments(p)
    p.add_argument("--test-size", type=float, default=0.2,
                   help="fraction held out for the test scores (0 = none; default 0.2)")
    p.add_argument("--random-state", type=int, default=0,
                   help="seed of the split and of the learner (default 0)")
    p.add_argument("--solver-cmd", metavar="CMD",
                   help='external MaxSAT solver for the exact solves, e.g. "rc2.py -vv" (the '
                        "'wcnf' backend: split like a shell would, never run through one)")
    add_ordered_argument(p)
    add_na_argument(p)
    add_unlabelled_argument(p)
    p.add_argument("--weight-column", metavar="NAME",
                   help="a numeric column of row weights (e.g. survey weights), not a "
                        "feature: a misclassified row costs its weight (IMLI, IMLIB), or a "
                        "row counts that many times (CDPR)")
    p.add_argument("--out", metavar="rules.json", help="write the fitted rule set here")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from satrules import serialization
    from satrules._progress import quiet_progress
    from satrules.report import rules_text

    X, y = read_table(args.data, args.target, args.na_values,
                      drop_unlabelled=args.drop_unlabelled)
    comma_columns = X.attrs["comma_columns"]   # saved: predict reads them the same way
    X = declare_columns(X, args, args.target)
    weights = None
    if args.weight_column is not None:
        X, weights = pop_weights(X, args.weight_column, args.data)
    params = method_params(args, args.method)
    if args.solver_cmd is not None:
        if params.get("backend", "auto") not in ("auto", "wcnf"):
            raise ValueError(f"--solver-cmd runs the 'wcnf' backend; it cannot be combined "
                             f"with --backend {params['backend']}")
        params["backend"] = ("wcnf", {"command": args.solver_cmd})
    est = make_estimator(args.method, params)
    if "random_state" in est.get_params() and "random_state" not in params:
        est.set_params(random_state=args.random_state)
    X_train, X_test, y_train, y_test = split(X, y, args.test_size, args.random_state)
    with quiet_progress(args.quiet):
        row = fit_and_score(est, X_train, y_train, X_test, y_test,
                            None if weights is None else weights.loc[X_train.index])
    print(rules_text(est))
    print()
    print(format_table([{"metric": k, "value": v} for k, v in row.items()],
                       ["metric", "value"]))
    if args.out:
        serialization.save(est, args.out, metrics=row, extra={
            "command": "learn", "data": args.data, "target": args.target,
            "method": args.method, "test_size": args.test_size,
            "random_state": args.random_state,
            **({"na_values": list(args.na_values)} if args.na_values else {}),
            **({"weight_column": args.weight_column} if weights is not None else {}),
            **({"exclude": list(args.exclude)} if args.exclude else {}),
            **({"comma_columns": comma_columns} if comma_columns else {})})
        print(f"\nsaved {args.out}", file=sys.stderr)
    return 0
