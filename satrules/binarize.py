"""Binarize mixed tabular data into 0/1 columns, each described by a readable condition.

:class:`ThresholdBinarizer` turns numpy arrays and pandas DataFrames (mixed
dtypes allowed) into a 0/1 matrix ``Xb`` whose column ``c`` means
``conditions_[c]`` (a :class:`satrules.rules.Condition`):

* **constant** feature (one distinct value): dropped;
* **binary** feature (two distinct values ``lo < hi``): one column ``x == hi``
  (its negated literal reads ``x != hi``);
* **categorical** feature (strings, pandas ``category`` columns, or columns named in
  ``categorical_features``) with three or more values: one-hot columns ``x == v``;
* **ordinal** (numeric) feature: threshold columns ``x <= t`` (negation
  ``x > t``).  Thresholds are the sorted distinct values without the maximum
  when there are at most ``n_thresholds + 1`` of them, otherwise the quantiles
  at ``i / (n_thresholds + 1)``, ``i = 1..n_thresholds``, without duplicates and
  without values ``>=`` the maximum (those columns would be constant; if none is
  left, the largest value below the maximum), as in pyrulelearn's ``_discretize``
  -- except that quantiles are taken with ``method="lower"`` (an observed value,
  so conditions read ``age <= 41``, not ``age <= 40.73``).  A threshold with more
  than four significant digits is then moved up to the shortest decimal below the
  next observed value (:func:`short_threshold`): it separates the same training
  rows, and the number printed is the number stored;
* **ordered category** (a pandas ``category`` column with ``ordered=True``, such as the
  output of ``pd.cut``): threshold columns as for an ordinal feature, on the rank of
  each level among the column's categories, at observed levels, printed as levels
  (``stage <= II``, negation ``stage > II``); at transform a value that is not one of
  the levels reads as a missing value (with a warning);
* **date** feature (``datetime64`` values, date or datetime objects, pandas ``Period``
  values -- the day the period starts --, or strings that are all ISO 8601 dates such as
  ``2004-01-31``): threshold columns as for an ordinal
  feature, on the days since 1970-01-01, at observed days, printed as dates
  (``visit <= 2004-01-31``); at transform the values must be dates too;
* **duration** feature (``timedelta64`` values, timedelta objects, or strings that are
  all durations as pandas writes them, ``3 days 04:00:00``): threshold columns on the
  number of days, at observed durations, printed as durations (``stay <= 3 days``,
  ``wait > 06:00:00``; a column whose every value is hours and minutes, ``13:30``, prints
  so: ``time <= 13:30``); at transform the values must be durations too;
* **quantity** feature (strings that are all numbers written alike with a currency sign,
  a unit or thousands separators: ``$1,250.50``, ``13.5%``, ``36 months``; see
  :func:`satrules.rules.quantity_unit`): threshold columns as for an ordinal feature, on
  the numbers, printed in the column's own writing (``income > $52,500``, ``rate <=
  13.5%``); at transform the values must be written the same way (a plain number is an
  error: ``0.135`` for ``13.5%`` would be misread);
* **grouped category** (``categories="grouped"``): a categorical feature of at least
  :data:`GROUP_MIN_LEVELS` levels becomes threshold columns on its levels ranked by
  their rate of the second class, printed as sets (``state in {CA, NY}``, negation
  ``state not in {CA, NY}``) instead of one column per level; see
  :func:`group_levels`.  With more than two classes, one such ladder per class (its
  levels ranked by their rate of that class), so that each one-vs-rest problem sees
  the ladder of its own class (:meth:`ThresholdBinarizer.class_columns`).  Only when its
  levels and the class are associated (chi-square p-value below :data:`GROUP_MAX_P`,
  divided by the number of classes when there are more than two);
* **ID-like** feature (more categories than ``max_levels``, ``rownames``, a row
  number): dropped with a warning and listed in ``dropped_features_``.

Missing values (``NaN``, ``None``, ``pd.NA``) are allowed by default
(``missing="category"``): a categorical or binary feature gets one more one-hot
value ``<missing>`` (read ``x is missing``); a numeric feature with missing values
gets an ``x is missing`` column and, for each threshold, both ``x <= t`` and
``x > t`` columns, both 0 on a missing row -- so the literals ``x <= t`` and
``x > t`` are both false for a missing value, while their negations (read
``(x > t or x is missing)``) hold.  A numeric feature without missing values in
fit has only ``x <= t`` columns: a missing value at transform reads as above every
threshold (with a warning).  ``missing="error"`` raises a ``ValueError`` instead.
``±inf`` is always an error.  See docs/messy_data.md.

At ``transform`` time an **unseen category** sets every one-hot column of its
feature to 0 (so it satisfies every ``x != v`` literal and no ``x == v``
literal); an unseen value of a binary feature likewise reads ``x != hi``.
Numbers outside the fitted range fall naturally on one side of every threshold;
a string in a feature that was numeric in fit is an error naming it.

Examples
--------
>>> import numpy as np
>>> from satrules.binarize import ThresholdBinarizer
>>> X = np.array([[25, 0], [40, 1], [61, 1], [33, 0]])
>>> tb = ThresholdBinarizer(n_thresholds=2).fit(X)
>>> tb.get_feature_names_out().tolist()
['x0 <= 33', 'x0 <= 40', 'x1 = 1']
>>> tb.transform(X).tolist()
[[1, 1, 0], [0, 1, 1], [0, 0, 1], [1, 1, 0]]
"""

from __future__ import annotations

import itertools
import math
import numbers
import re
from collections import Counter
from decimal import ROUND_CEILING, Decimal
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from satrules.exceptions import warn
from satrules.rules import (
    MISSING,
    Condition,
    category_matches,
    date_days,
    date_order,
    duration_days,
    duration_form,
    format_quantity,
    grouped_ranks,
    level_key,
    level_ranks,
    missing_mask,
    number_or_none,
    quantity_numbers,
    quantity_parts,
    quantity_unit,
    spelling_note,
    spelling_variants,
    written_as,
)

__all__ = ["ThresholdBinarizer", "FeatureTypeError", "MISSING", "ID_COLUMN_NAMES",
           "inspect_column", "duplicate_names", "category_columns", "ordered_levels",
           "category_matches", "checkable_frame", "dense_input",
           "numeric_values", "short_threshold", "shortest_decimal"]

#: Column names that are row labels written out by R or pandas, never features.
ID_COLUMN_NAMES = frozenset({"rownames", "Unnamed: 0"})

#: Share of the non-missing values of a string column that must parse as numbers for the
#: column to count as "numeric with a few bad values" (an error) rather than categorical.
NUMERIC_SHARE = 0.9


class FeatureTypeError(ValueError, TypeError):
    """A column holds values that are neither numbers nor strings (or mixes them)."""


def _is_frame(X: Any) -> bool:
    return hasattr(X, "columns") and hasattr(X, "iloc")


def duplicate_names(names: list[str]) -> list[str]:
    """Return the sorted names that occur more than once (linear time)."""
    return sorted(name for name, count in Counter(names).items() if count > 1)


def dense_input(X: Any) -> Any:
    """``X`` as a dense array when it is a scipy sparse matrix or array; else ``X`` itself.

    Every column is binarized densely (its thresholds come from its sorted values, zeros
    included), so a sparse ``X`` -- e.g. the output of scikit-learn's ``OneHotEncoder``,
    sparse by default -- is read as the dense array it stands for.  The memory is that of
    the dense array: ``n_samples x n_features`` values of its dtype.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> dense_input(sp.csr_matrix([[0, 1], [2, 0]])).tolist()
    [[0, 1], [2, 0]]
    """
    import scipy.sparse as sp

    return X.toarray() if sp.issparse(X) else X


def _split_columns(X: Any) -> tuple[list[np.ndarray], list[str] | None]:
    """Return the columns of ``X`` as 1-D arrays, and the DataFrame's column names (None
    for an array, or for a frame whose names are not all strings: as in scikit-learn,
    such columns are known by position and print as ``x0``, ``x1``, ... rather than as
    ``0 > 0.5``)."""
    X = dense_input(X)
    if _is_frame(X):
        names = [str(c) for c in X.columns]
        dups = duplicate_names(names)
        if dups:
            raise ValueError(f"duplicate column names: {dups}")
        named = all(isinstance(c, str) for c in X.columns)
        return _frame_columns(X), names if named else None
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(
            f"Expected 2D array, got {arr.ndim}D array instead; reshape your data "
            "(array.reshape(-1, 1) for a single feature)"
        )
    if np.iscomplexobj(arr):
        raise ValueError("Complex data not supported")
    return list(np.asfortranarray(arr).T), None   # contiguous columns (see _frame_columns)


def _is_category(dtype: Any) -> bool:
    """Whether ``dtype`` is pandas' ``category`` dtype (without importing pandas)."""
    return getattr(dtype, "name", None) == "category"


def category_columns(X: Any) -> set[int]:
    """Positions of the unordered pandas ``category`` columns of a DataFrame (empty for
    other input).

    Such a column is categorical whatever its values: ``pd.Categorical([1, 2, 3])`` is
    one-hot encoded, not cut at thresholds.  Ordered ones are :func:`ordered_levels`.

    Examples
    --------
    >>> import pandas as pd
    >>> category_columns(pd.DataFrame({"a": [1, 2], "b": pd.Categorical(["x", "y"])}))
    {1}
    """
    if not _is_frame(X):
        return set()
    return {c for c, dtype in enumerate(X.dtypes)
            if _is_category(dtype) and not getattr(dtype, "ordered", False)}


def ordered_levels(X: Any) -> dict[int, tuple]:
    """The ordered pandas ``category`` columns of a DataFrame: position -> levels, lowest
    first (as :func:`satrules.rules.level_key` stores them); empty for other input.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"a": [1, 2], "stage": pd.Categorical(
    ...     ["II", "I"], categories=["I", "II", "III"], ordered=True)})
    >>> ordered_levels(df)
    {1: ('I', 'II', 'III')}
    """
    if not _is_frame(X):
        return {}
    return {c: tuple(level_key(v) for v in dtype.categories)
            for c, dtype in enumerate(X.dtypes)
            if _is_category(dtype) and getattr(dtype, "ordered", False)}


def checkable_frame(X: Any) -> Any:
    """``X`` with any ``datetime64``, ``category`` or True/False (``bool``, ``boolean``)
    column of a DataFrame as Python objects, so that scikit-learn's input check can hold
    it in one object array with the other columns: numpy cannot promote ``datetime64``
    and ``float64`` to a common type, scikit-learn casts a frame that mixes ``category``
    with ``bool`` or nullable columns to ``float64``, which fails on category names, and
    it casts ``bool`` beside numbers to ``float64``, whose ``1.0`` would print
    ``flag = 1`` where the column says ``True``.  A frame without columns
    becomes an empty ``(n_rows, 0)`` array, which scikit-learn refuses by its shape
    ("Found array with 0 feature(s)"; the frame itself fails on its empty list of
    dtypes with "at least one array or dtype is required"), and a scipy sparse matrix a
    dense array (:func:`dense_input`).  Other input is returned as it is.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"b": pd.Categorical(["x", None]), "c": [True, False]})
    >>> checkable_frame(df).dtypes.tolist()
    [dtype('O'), dtype('O')]
    >>> checkable_frame(df.iloc[:, :0]).shape
    (2, 0)
    """
    if not _is_frame(X):
        return dense_input(X)
    if not X.shape[1]:
        return np.empty(X.shape)
    plain = [c for c, dtype in zip(X.columns, X.dtypes, strict=True)
             if getattr(dtype, "kind", None) in ("M", "m", "b") or _is_category(dtype)]
    return X.astype(dict.fromkeys(plain, object)) if plain else X


def _frame_columns(X: Any) -> list[np.ndarray]:
    """Return a DataFrame's columns as 1-D arrays, reading plain numeric dtypes in blocks.

    One ``to_numpy`` per numpy dtype instead of one pandas call per column: on a
    10,000-column frame the per-column calls dominated the binarizer's own work.
    """
    dtypes = list(X.dtypes)
    cols: list[Any] = [None] * len(dtypes)
    groups: dict[np.dtype, list[int]] = {}
    for c, dtype in enumerate(dtypes):
        if isinstance(dtype, np.dtype) and dtype.kind in "biuf":
            groups.setdefault(dtype, []).append(c)
    for dtype, idx in groups.items():
        # column-major, so that each column is contiguous: every per-column pass (NaN
        # mask, sort, comparisons) then reads its own rows, not one value per cache line
        block = np.asfortranarray(X.iloc[:, idx].to_numpy(dtype=dtype))
        for k, c in enumerate(idx):
            cols[c] = block[:, k]
    for c, col in enumerate(cols):
        if col is None:   # strings, categoricals, extension dtypes: as pandas gives them
            cols[c] = X.iloc[:, c].to_numpy()
    return cols


_parse_number = number_or_none   # a number or a numeric string as a float, else None


def _one_level_per_number(cats: list) -> list:
    """``cats`` (sorted distinct levels) without those that read as the same number as an
    earlier one: :func:`~satrules.rules.category_matches` reads a value that is no level
    as the one level of its number, so ``'1.'`` beside ``'1'`` is the level ``'1'``, as a
    condition's :meth:`~satrules.rules.Condition.holds` reads it too (kept as a level of
    its own, the binarizer and ``holds`` disagreed on it).

    >>> _one_level_per_number(["$", "1", "1.", "2", "x"])
    ['$', '1', '2', 'x']
    """
    seen: set[float] = set()
    kept = []
    for cat in cats:
        num = number_or_none(cat)
        if num is not None and np.isfinite(num):
            if num in seen:
                continue
            seen.add(num)
        kept.append(cat)
    return kept


def _value_counts(values: np.ndarray) -> Counter | None:
    """How often each value occurs in a text column (None for a numeric dtype or
    unhashable values): counted once for the readers of :func:`inspect_column`."""
    if values.dtype.kind not in "OUS":
        return None
    try:
        return Counter(values.tolist())
    except TypeError:   # unhashable values (lists, dicts): _as_numeric names them
        return None


def _as_numeric(values: np.ndarray, name: str,
                counts: Counter | None = None) -> np.ndarray | None:
    """Return ``values`` (no missing entries) as float64, or None for a categorical column.
    ``counts``: :func:`_value_counts` of ``values``, when the caller has them.

    Raises
    ------
    FeatureTypeError
        When at least ``NUMERIC_SHARE`` of the values are numbers (or numeric strings) and
        the rest are not: a numeric column with a few bad values, named with up to five of
        them; or when the values are neither numbers nor strings.
    """
    if values.dtype.kind in "biuf":
        return values.astype(np.float64)
    if values.dtype.kind not in "USO":
        raise FeatureTypeError(f"column {name!r} has unsupported dtype {values.dtype}")
    try:
        return np.asarray(values, dtype=np.float64)
    except (ValueError, TypeError):
        pass
    # parse each distinct value once (Counter hashes the rows in C), not once per row
    if counts is None:
        counts = _value_counts(values)
    if counts is None:
        kinds = sorted({type(v).__name__ for v in values})
        raise FeatureTypeError(f"column {name!r} holds non-numeric, non-string values "
                               f"(types {kinds}); every argument must be a string or a number")
    parsed = {v: _parse_number(v) for v in counts}
    others = sorted({type(v).__name__ for v, num in parsed.items()
                     if num is None and not isinstance(v, str)})
    if others:
        raise FeatureTypeError(
            f"column {name!r} holds non-numeric, non-string values "
            f"(types {others}); every argument must be a string or a number"
        )
    bad = [v for v, num in parsed.items() if num is None]
    n_numbers = len(values) - sum(counts[v] for v in bad)
    if n_numbers == 0:
        return None
    if n_numbers >= NUMERIC_SHARE * len(values):
        raise FeatureTypeError(
            f"column {name!r} is numeric ({n_numbers} of {len(values)} values are numbers) "
            f"but holds {len(values) - n_numbers} non-numeric value(s): "
            f"{[str(v) for v in bad[:5]]}{' ...' if len(bad) > 5 else ''}; replace them "
            f"with numbers or NaN (for a CSV: pandas.read_csv(..., na_values={[str(bad[0])]})), "
            f"or, if they are levels of their own, make the column categorical "
            f"(X[{name!r}] = X[{name!r}].astype('category'))"
        )
    if all(isinstance(v, str) for v in values):
        return None
    kinds = sorted({type(v).__name__ for v in values})
    raise FeatureTypeError(
        f"column {name!r} mixes value types {kinds}; use numbers or strings only"
    )


def _check_stray_quantities(values: np.ndarray, name: str, counts: Counter | None) -> None:
    """Raise :class:`FeatureTypeError` when at least ``NUMERIC_SHARE`` of the string
    ``values`` are numbers written alike with a unit (:func:`quantity_unit`) and the rest
    are not numbers at all (``n/a``, ``?``): a quantity column with a few bad values, named
    with up to five of them.  Numbers written with other units (``1 year`` among ``2
    years``) make a categorical column, as before quantities were read.  ``counts``:
    :func:`_value_counts` of ``values``."""
    if counts is None:   # unhashable values: _as_numeric names them
        return
    allowed = (1 - NUMERIC_SHARE) * len(values)
    parsed, n_unparsed = {}, 0
    for value, count in counts.items():
        parts = quantity_parts(value) if isinstance(value, str) else None
        if parts is None:
            n_unparsed += count
            if n_unparsed > allowed:   # most string columns stop here, on their first values
                return
        else:
            parsed[value] = parts
    units = Counter()
    for value, (before, _, after) in parsed.items():
        units[before, after] += counts[value]
    if not units:
        return
    (before, after), n_written = units.most_common(1)[0]
    if len(units) > 1 or n_written == len(values) or not (
            before or after or any("," in p[1] for p in parsed.values())):
        return   # units that differ (1 year, 2 years): a category, not a broken number
    alike, odd = list(parsed), [v for v in counts if v not in parsed]
    raise FeatureTypeError(
        f"column {name!r} holds numbers written like {alike[0]!r} ({n_written} of "
        f"{len(values)} values) but {len(values) - n_written} value(s) that are not "
        f"numbers: {[str(v) for v in odd[:5]]}{' ...' if len(odd) > 5 else ''}; replace "
        f"them with numbers written alike or NaN (for a CSV: pandas.read_csv(..., "
        f"na_values={[str(odd[0])]}))")


def _comma_note(counts: Counter) -> str:
    """For the warning on a column dropped as ID-like: a note when its values are numbers
    written with a decimal comma (:func:`comma_decimal_example`), else ''."""
    example = comma_decimal_example(counts, text=True)
    if example is None:
        return ""
    if comma_decimal_example([example]) is not None:   # a plain number
        return (f"; its values are numbers written with a decimal comma (such as "
                f"{example!r}): read them as numbers, {COMMA_ADVICE}")
    return (f"; its values are numbers written with a decimal comma (such as {example!r}): "
            "write them with decimal points to use them as quantities (satrules learn reads "
            "such ';' files as they are)")


def _almost_read(values: np.ndarray, counts: Counter) -> str:
    """For the warning on a column dropped as ID-like: a note when at least
    ``NUMERIC_SHARE`` of its values are written as dates or as durations
    (:func:`satrules.rules.written_as`), but not all (so the column was not read as such),
    with one value of each side; else ''.  ``counts``: :func:`_value_counts` of ``values``."""
    first = list(itertools.islice(counts, 100))   # a quick look first: names stop here
    if sum(not isinstance(v, str) or written_as(v) is None for v in first) > len(first) // 4:
        return ""
    allowed = (1 - NUMERIC_SHARE) * len(values)
    forms, n_other, other = Counter(), 0, None
    for value, count in counts.items():   # stops once too many values are neither
        form = written_as(value) if isinstance(value, str) else None
        if form is None:
            n_other, other = n_other + count, other if other is not None else value
            if n_other > allowed:
                return ""
        else:
            forms[form] += count
    if other is None and len(forms) > 1:   # two forms (38:31:00 and 22:07): the rarer one
        minor = min(forms, key=forms.get)
        other = next(v for v in counts if isinstance(v, str) and written_as(v) == minor)
    if not forms or other is None:
        return ""
    form, n_read = forms.most_common(1)[0]
    if n_read < NUMERIC_SHARE * len(values):
        return ""
    read = next(v for v in counts if isinstance(v, str) and written_as(v) == form)
    forms_named = {"date": "dates", "duration": "durations",
                   "hours:minutes": "hours and minutes"}
    return (f"; {n_read} of its {len(values)} values are {forms_named[form]} (such as "
            f"{read!r}) but not "
            f"all (such as {other!r}): write them alike to use the column")


#: a number written with a decimal comma, maybe with dots grouping thousands, maybe with a
#: short text around it (``4,5``, ``1.797,4``; ``€ 1.250,50``, ``13,5 %``): the number
_COMMA_NUMBER = re.compile(r"(\D{0,5}?)\s*([+-]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?)\s*(\D{0,20})")
#: ... whose comma cannot be a thousands separator (``4,5``, ``1,2345``, ``1.234,5``)
_DECIMAL_MARK = re.compile(r",(?:\d{1,2}|\d{4,})(?!\d)|\.\d{3},\d")
#: how to read plain such numbers, for the notes below
COMMA_ADVICE = "e.g. pandas.read_csv(..., decimal=',', thousands='.')"


def warn_comma_categories(found: dict[str, str]) -> None:
    """Warn about categorical features whose values are plain numbers written with a
    decimal comma (``found``: name -> an example value); nothing when there are none."""
    if found:
        warn("categorical feature(s) whose values are numbers written with a decimal comma, "
             "used as categories: " + "; ".join(f"{name!r} (such as {example!r})"
                                               for name, example in found.items()) +
             f"; read them as numbers to use them as such, {COMMA_ADVICE}")


def comma_decimal_example(values, text: bool = False) -> str | None:
    """A value of ``values`` showing that they are numbers written with a decimal comma,
    or None.  True when every value is a string written as such a number (``4,5``,
    ``1.797,4``; with ``text``, also with a short text around it: ``€ 1.250,50``) and
    some comma cannot group thousands (``12,000`` alone could, so it gives None).

    Examples
    --------
    >>> comma_decimal_example(["1.797,4", "2.700,7", "950"])
    '1.797,4'
    >>> comma_decimal_example(["12,000", "1,250"]) is None   # US thousands, or not?
    True
    >>> comma_decimal_example(["€ 4.327,11"]), comma_decimal_example(["€ 4.327,11"], text=True)
    (None, '€ 4.327,11')
    """
    example = None
    for value in values:
        match = _COMMA_NUMBER.fullmatch(value) if isinstance(value, str) else None
        if match is None or (not text and (match[1] or match[3])):
            return None
        if example is None and _DECIMAL_MARK.search(match[2]):
            example = str(value)
    return example


def missing_code(distinct: np.ndarray) -> tuple[float, float, float] | None:
    """The number among the sorted ``distinct`` values of a numeric column that looks
    like a code for a missing value, as ``(code, lowest other, highest other)``, or None.

    A code is written with nines only (``99``, ``999``, ``-999``, ``9999``; at least two
    digits), lies beyond every other value and is set well apart from them: its distance
    to the nearest is at least half their range and a tenth of the code itself, with at
    least two other distinct values.  Survey and statistics exports write a missing
    value so (Ecdat/PatentsHGH's industry codes 1-21 and ``-999``), and a learner would
    read it as a number: a rule ``x > 510`` that means "x is missing".

    >>> missing_code(np.array([-999.0, 1.0, 2.0, 21.0]))
    (-999.0, 1.0, 21.0)
    >>> missing_code(np.array([92.0, 93.0, 94.0, 95.0, 99.0])) is None   # the year '99
    True
    >>> missing_code(np.array([20.0, 45.0, 85.0, 99.0])) is None   # an age of 99
    True
    """
    if len(distinct) < 3:
        return None
    for code, others, gap in ((distinct[0], distinct[1:], distinct[1] - distinct[0]),
                              (distinct[-1], distinct[:-1], distinct[-1] - distinct[-2])):
        digits = f"{abs(code):.0f}" if code == np.round(code) else ""   # inf: "inf"
        if len(digits) >= 2 and set(digits) == {"9"}:
            span = max(others[-1] - others[0], 1.0)
            if gap >= max(span / 2, abs(code) / 10):
                return float(code), float(others[0]), float(others[-1])
    return None


def note_missing_code(found: dict[str, tuple], name: str, numeric: np.ndarray,
                      distinct: np.ndarray) -> None:
    """Record in ``found`` the :func:`missing_code` of feature ``name`` (its values
    ``numeric``, their sorted ``distinct`` values) with its count of rows, if it has one;
    :func:`warn_missing_codes` then names them all at once."""
    code = missing_code(distinct)
    if code is not None:
        found[name] = (*code, int(np.count_nonzero(numeric == code[0])))


def warn_missing_codes(found: dict[str, tuple]) -> None:
    """Warn about numeric features with a value that looks like a missing-value code
    (``found``: name -> :func:`missing_code`'s answer and its count of rows); nothing
    when there are none."""
    if found:
        def number(value: float) -> str:
            return f"{value:.0f}" if value == round(value) else f"{value:g}"

        codes = list(dict.fromkeys(number(item[0]) for item in found.values()))
        warn(
            "numeric feature(s) with a value that looks like a code for a missing value, "
            "read as a number: " + "; ".join(
                f"{name!r} has {count} row(s) of {number(code)}, far from its other values "
                f"({number(low)} to {number(high)})"
                for name, (code, low, high, count) in found.items()) +
            "; if it codes a missing value, replace it by NaN (for a CSV: "
            f"pandas.read_csv(..., na_values={codes}))")


def _check_finite(numeric: np.ndarray, name: str) -> None:
    if np.isinf(numeric).any():
        raise ValueError(f"infinity (inf) in feature {name!r}; remove or clip it")


def shortest_decimal(low: float, high: float) -> float:
    """Return the decimal with the fewest significant digits ``d``, ``low <= d < high``.

    ``low`` must be finite and below ``high`` (which may be ``inf``); ``low`` itself when
    no shorter number fits.

    Examples
    --------
    >>> shortest_decimal(711.3, 715.8), shortest_decimal(0.01401, 0.01412)
    (712.0, 0.0141)
    >>> shortest_decimal(2.0, 3.0), shortest_decimal(48.70833, math.inf)
    (2.0, 50.0)
    """
    exact = Decimal(repr(float(low)))
    for sig in range(1, 18):
        step = Decimal(1).scaleb(exact.adjusted() - sig + 1)
        cand = float(exact.quantize(step, rounding=ROUND_CEILING))
        if low <= cand < high:
            return cand
    return float(low)


def short_threshold(t: float, above: float) -> float:
    """Return a short decimal ``d`` with ``t <= d < above`` (``t`` itself if already short).

    ``t`` is an observed value and ``above`` the next observed value, so ``x <= d`` holds on
    exactly the same training values as ``x <= t``: the printed threshold and the stored one
    are the same number and the rule evaluates as it reads.
    """
    if not math.isfinite(t):
        return t
    if len(Decimal(repr(float(t))).normalize().as_tuple().digits) <= 4:
        return float(t)   # 41, 0.5, 12.25: print as observed
    return shortest_decimal(t, above)


#: thresholds per numeric feature for ``n_thresholds="auto"`` (more for a tree on many
#: classes: one fewer than the number of classes)
AUTO_THRESHOLDS = 4

#: how :class:`ThresholdBinarizer` places the thresholds of a numeric feature
THRESHOLD_METHODS = ("quantile", "tree", "both")
#: how ``ThresholdBinarizer(categories=...)`` encodes a categorical feature
CATEGORY_ENCODINGS = ("onehot", "grouped")
#: ``categories="grouped"`` groups a categorical feature of at least this many levels
#: (its missing value counted as one); fewer stay one-hot (see docs/benchmarks.md,
#: "Grouped levels")
GROUP_MIN_LEVELS = 10
#: a level's rate is smoothed towards the overall rate by this many pseudo-rows
GROUP_SMOOTHING = 10.0
#: the training rows' columns of a grouped feature come from the rates of the other folds
GROUP_FOLDS = 5
#: a categorical feature is grouped only when the chi-square test of its levels against
#: the class gives a p-value below this (:func:`group_levels`); with K > 2 classes, each
#: class's ladder needs a p-value below this / K (Bonferroni over the K tests)
GROUP_MAX_P = 0.01
#: the spec kind of a feature grouped once per class (labels of more than two classes)
GROUPED_CLASSES = "grouped_classes"


def _quantile_cuts(values: np.ndarray, distinct: np.ndarray, n_thresholds: int) -> np.ndarray:
    if len(distinct) <= n_thresholds + 1:
        return distinct[:-1]
    probs = np.arange(1, n_thresholds + 1) / (n_thresholds + 1)
    cuts = np.unique(np.quantile(values, probs, method="lower"))
    cuts = cuts[cuts < distinct[-1]]
    if not cuts.size:   # every quantile is the maximum ([0, 1, 2, 2, 2]): split below it
        cuts = distinct[-2:-1]
    return cuts


#: smallest leaf of the one-feature trees behind ``thresholds="tree"``, a fraction of the
#: rows: 1 % lets a cut isolate a rare tail (ISLR/Default, 3.3 % positive); 5 %, 2 % and 1 %
#: are equally accurate on the 15 learner data sets, 1 % is better on held-out ones
#: (docs/benchmarks.md, "Supervised thresholds")
TREE_MIN_LEAF = 0.01

#: the same floor in rows (a leaf of 1 % of 155 rows is 2 rows); floors of 5 and 10 rows
#: were no better on held-out sets (docs/benchmarks.md, "Cuts chosen on the labels")
TREE_MIN_ROWS = 1


# -- the cuts of a one-feature best-first Gini tree, computed with numpy ------------
#
# :func:`tree_split_values` returns the split thresholds that scikit-learn's
# ``DecisionTreeClassifier(max_leaf_nodes=L, min_samples_leaf=m)`` finds on one numeric
# column without sample weights, but without building a tree: the column is sorted once and
# every candidate split of a node is scored at once from cumulative class counts.  On 20,000
# rows this is several times faster than the estimator, whose input checks and per-node
# sorting dominate on one column, and the binarizer calls it once per numeric column.
#
# It follows scikit-learn's rules step by step, so the thresholds are the same:
#
# * the values are cast to float32 (the trees' dtype); two sorted neighbours closer than
#   ``1e-7`` are never split apart;
# * a node is split where the weighted Gini impurity of its children is lowest (its
#   "proxy" ``-n_right * gini_right - n_left * gini_left``, computed in the same order of
#   floating-point operations), the first such position on ties, each child keeping at
#   least ``min_samples_leaf`` rows;
# * a node is a leaf when it is pure (impurity at most the machine epsilon), smaller than
#   ``2 * min_samples_leaf`` rows, or has no valid split;
# * nodes are expanded best-first by impurity improvement, at most ``max_leaf_nodes - 1``
#   of them, taken from a binary heap ordered as the C++ standard library's
#   ``push_heap``/``pop_heap`` order it (which decides ties between equal improvements);
# * a threshold is the midpoint of the two values around the split (the lower value when
#   the midpoint rounds up to the upper one).
#
# The tests compare it with ``DecisionTreeClassifier`` on drawn columns, ties included.

_EPSILON = np.finfo(np.float64).eps
_FEATURE_THRESHOLD = np.float32(1e-7)
#: :func:`tree_split_values` keeps one cumulative count per class up to this many
#: classes, running sums over the rows beyond (:func:`_class_squares_rows`)
_TREE_LOOP_CLASSES = 8


def _sift_up(heap: list, hole: int, item) -> None:
    """Move ``item`` from ``hole`` up past smaller parents (libstdc++'s ``__push_heap``)."""
    parent = (hole - 1) // 2
    while hole > 0 and heap[parent][0] < item[0]:
        heap[hole] = heap[parent]
        hole = parent
        parent = (hole - 1) // 2
    heap[hole] = item


def _push_heap(heap: list, item) -> None:
    """libstdc++'s ``std::push_heap`` with ``comp(a, b) = a.improvement < b.improvement``."""
    heap.append(item)
    _sift_up(heap, len(heap) - 1, item)


def _pop_heap(heap: list):
    """libstdc++'s ``std::pop_heap`` then ``pop_back``: the record of largest improvement."""
    n = len(heap)
    if n > 1:
        value = heap[n - 1]
        heap[n - 1] = heap[0]
        length, hole, child = n - 1, 0, 0
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if heap[child][0] < heap[child - 1][0]:
                child -= 1
            heap[hole] = heap[child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            heap[hole] = heap[child - 1]
            hole = child - 1
        _sift_up(heap, hole, value)
    return heap.pop()


def _tree_gini(sq: np.ndarray, n: np.ndarray) -> np.ndarray:
    return 1.0 - sq / (n * n)


def tree_split_values(values: np.ndarray, y: np.ndarray, max_leaf_nodes: int,
                      min_samples_leaf: int) -> np.ndarray:
    """Return the split thresholds of a one-feature best-first Gini tree, ascending.

    Parameters
    ----------
    values : ndarray of shape (n_samples,)
        A numeric column without missing values.
    y : ndarray of shape (n_samples,)
        Class labels.  Only which rows share a class matters; integers from 0 to
        ``n_samples`` (e.g. ``np.unique(labels, return_inverse=True)[1]``) are used as
        they are, which saves sorting the labels on every call.
    max_leaf_nodes : int
        Most leaves (at least 2); the tree makes at most ``max_leaf_nodes - 1`` splits.
    min_samples_leaf : int
        Fewest rows in a leaf (at least 1).

    Returns
    -------
    ndarray of float64
        The thresholds ``t`` of the split nodes (rows with ``value <= t`` go left),
        ascending; as ``DecisionTreeClassifier(max_leaf_nodes=max_leaf_nodes,
        min_samples_leaf=min_samples_leaf).fit(values.reshape(-1, 1), y)`` finds them.

    Examples
    --------
    >>> import numpy as np
    >>> tree_split_values(np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 1, 1]), 2, 1)
    array([2.5])
    """
    if max_leaf_nodes < 2 or min_samples_leaf < 1:
        raise ValueError("max_leaf_nodes must be >= 2 and min_samples_leaf >= 1")
    with np.errstate(over="ignore"):   # beyond float32's range: +-inf, as in the trees
        v = np.asarray(values, dtype=np.float32)
    codes = np.asarray(y).reshape(-1)
    if codes.shape != v.shape:
        raise ValueError(f"y has {codes.size} labels for {v.size} values")
    if codes.size and (codes.dtype.kind not in "iu" or codes.min() < 0
                       or codes.max() > codes.size):   # not small codes: encode them
        codes = np.unique(codes, return_inverse=True)[1].reshape(-1)
    order = np.argsort(v)   # the order among equal values changes no count below
    fv = v[order]
    n = len(fv)
    codes = codes[order]
    # split positions p (rows [.., p) go left): where a value exceeds its predecessor
    # by more than the feature threshold (scikit-learn's next_p, in float32)
    gaps = np.flatnonzero(fv[1:] > fv[:-1] + _FEATURE_THRESHOLD) + 1
    present = np.flatnonzero(np.bincount(codes)) if n else np.zeros(0, dtype=np.int64)
    squares = _class_squares_loop(codes, present) if len(present) <= _TREE_LOOP_CLASSES \
        else _class_squares_rows(codes)
    total = float(n)

    def node(start: int, end: int, imp: float):
        """(improvement, start, end, pos, impurity_left, impurity_right); pos < 0: leaf."""
        size = end - start
        if size < 2 or size < 2 * min_samples_leaf or imp <= _EPSILON:
            return (0.0, start, end, -1, imp, imp)
        lo = np.searchsorted(gaps, start + min_samples_leaf, side="left")
        hi = np.searchsorted(gaps, end - min_samples_leaf, side="right")
        pos = gaps[lo:hi]
        if not pos.size:
            return (0.0, start, end, -1, imp, imp)
        n_left = (pos - start).astype(np.float64)
        n_right = (end - pos).astype(np.float64)
        sq_left, sq_right = squares(start, end, pos)
        g_left = _tree_gini(sq_left, n_left)
        g_right = _tree_gini(sq_right, n_right)
        proxy = -n_right * g_right - n_left * g_left
        k = int(np.argmax(proxy))
        p, wl, wr, il, ir = int(pos[k]), n_left[k], n_right[k], g_left[k], g_right[k]
        w = float(size)
        improvement = (w / total) * (imp - (wr / w * ir) - (wl / w * il))
        if improvement + _EPSILON < 0.0:
            return (0.0, start, end, -1, imp, imp)
        return (float(improvement), start, end, p, float(il), float(ir))

    heap: list = []
    if n:
        sizes = np.bincount(codes).astype(np.int64)    # whole numbers: an exact sum
        _push_heap(heap, node(0, n, float(_tree_gini(float(np.dot(sizes, sizes)), total))))
    splits = []
    budget = max_leaf_nodes - 1
    while heap:
        _, start, end, p, il, ir = _pop_heap(heap)
        if p < 0 or budget <= 0:
            continue
        budget -= 1
        lower, upper = float(fv[p - 1]), float(fv[p])
        threshold = lower / 2.0 + upper / 2.0
        if threshold == upper or np.isinf(threshold):
            threshold = lower
        splits.append(threshold)
        _push_heap(heap, node(start, p, il))
        _push_heap(heap, node(p, end, ir))
    return np.sort(np.array(splits, dtype=np.float64))


def _class_squares_loop(codes: np.ndarray, present: np.ndarray):
    """``squares(start, end, pos)`` of :func:`tree_split_values` for few classes: the
    sums over the classes of the squared class counts of the sorted rows ``[start, p)``
    and ``[p, end)``, for each ``p`` of ``pos``, from one cumulative count per class."""
    # cum[c][p]: the rows of class c among the first p sorted rows
    cum = [np.concatenate(([0.0], np.cumsum(codes == c, dtype=np.float64))) for c in present]

    def squares(start: int, end: int, pos: np.ndarray):
        sq_left = sq_right = 0.0
        for col in cum:    # the class counts left of p, and right (the rest, exactly)
            left = col[pos] - col[start]
            right = (col[end] - col[start]) - left
            sq_left = sq_left + left * left
            sq_right = sq_right + right * right
        return sq_left, sq_right

    return squares


def _class_squares_rows(codes: np.ndarray):
    """:func:`_class_squares_loop` for many classes, in time linear in the segment
    whatever the number of classes: a class count going from ``k`` to ``k + 1`` adds
    ``2k + 1`` to the sum of squares, so the sums at every split position are running
    sums over the segment's rows.  The counts are whole numbers, so the sums are exact
    and equal the loop's."""
    width = int(codes.max()) + 1 if codes.size else 1
    by_class = np.argsort(codes, kind="stable")
    first = np.searchsorted(codes[by_class], np.arange(width))
    rank = np.empty(len(codes), dtype=np.int64)       # rows of its class before a row
    rank[by_class] = np.arange(len(codes)) - first[codes[by_class]]

    def squares(start: int, end: int, pos: np.ndarray):
        local = codes[start:end]
        before = rank[start:end] - np.bincount(codes[:start], minlength=width)[local]
        after = np.bincount(local, minlength=width)[local] - 1 - before
        left = np.cumsum(2 * before + 1)              # left[j]: rows start .. start + j
        right = np.cumsum((2 * after + 1)[::-1])[::-1]    # right[j]: start + j .. end - 1
        return (left[pos - start - 1].astype(np.float64),
                right[pos - start].astype(np.float64))

    return squares


def _tree_cuts(values: np.ndarray, distinct: np.ndarray, y: np.ndarray,
               n_thresholds: int) -> np.ndarray:
    """The cuts of a one-feature decision tree with ``n_thresholds + 1`` leaves of at least
    :data:`TREE_MIN_LEAF` of the rows and :data:`TREE_MIN_ROWS` rows each, moved down to
    observed values (same rows on each side).  ``y`` holds class codes; the cuts are
    scikit-learn's ``DecisionTreeClassifier``'s (:func:`tree_split_values`)."""
    leaf = max(TREE_MIN_ROWS, 1, int(np.ceil(TREE_MIN_LEAF * len(values))))
    split = tree_split_values(values, y, n_thresholds + 1, leaf)
    return np.unique(distinct[np.searchsorted(distinct, split, side="right") - 1])


def _thresholds(values: np.ndarray, n_thresholds: int, y: np.ndarray | None = None,
                method: str = "quantile", short: bool = True,
                n_tree: int | None = None) -> np.ndarray:
    """Return the ascending thresholds of a numeric feature.

    ``"quantile"`` is pyrulelearn's ``_discretize``; ``"tree"`` takes the cuts of a
    one-feature decision tree on the labels ``y`` (the quantiles when it finds none);
    ``"both"`` the union of the two.  Each threshold is an observed value moved up to the
    shortest decimal below the next observed value (:func:`short_threshold`), so it
    prints briefly and separates the same training rows; ``short=False`` keeps the
    observed values (dates: a threshold is a day that occurs in the data).  The tree
    makes at most ``n_tree`` cuts (default ``n_thresholds``).
    """
    distinct = np.unique(values)
    cuts = _quantile_cuts(values, distinct, n_thresholds)
    if method != "quantile" and len(distinct) > 1:
        tree = _tree_cuts(values, distinct, y, n_thresholds if n_tree is None else n_tree)
        tree = tree[tree < distinct[-1]]
        if method == "both":
            cuts = np.union1d(cuts, tree)
        elif tree.size:
            cuts = tree
    if not short:
        return np.asarray(cuts, dtype=np.float64)
    above = distinct[np.searchsorted(distinct, cuts, side="right")]
    return np.array([short_threshold(float(t), float(u)) for t, u in zip(cuts, above,
                                                                          strict=True)])


def _gini(n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Gini impurity times the row count of segments of ``n`` rows, ``p`` positive."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n > 0, 2.0 * p * (n - p) / np.maximum(n, 1), 0.0)


def _ladders_cuts(ladders: list[tuple[np.ndarray, np.ndarray, int, int]], n_cuts: int,
                  min_leaf: int) -> list[set[int]]:
    """Per ladder, the indices of the ``n_cuts`` thresholds a best-first Gini tree on the
    binary target keeps; all ladders at once (one-vs-rest asks once per class).

    ``ladders[l] = (below, below_pos, total, total_pos)``: rows / positives at or below
    each threshold of ladder ``l`` (ascending), and its rows / positives in all.  Each
    step splits, per ladder, the segment where a cut lowers the Gini impurity most (each
    side keeping ``min_leaf`` rows; the first on ties); a ladder with no such cut stops.
    A ladder where no cut qualifies gets an even spacing.  See
    :meth:`ThresholdBinarizer.class_columns`."""
    n_lad = len(ladders)
    if not n_lad:
        return []
    lengths = np.array([len(b) for b, _, _, _ in ladders])
    width = int(lengths.max()) + 2                  # cumulative index: 0, thresholds, total
    cols = np.arange(width)
    tail = cols[None, :] > lengths[:, None]         # at or past each ladder's total
    cum = np.zeros((n_lad, width))
    cum_pos = np.zeros((n_lad, width))
    for i, (below, below_pos, total, total_pos) in enumerate(ladders):
        cum[i, 1:len(below) + 1], cum_pos[i, 1:len(below) + 1] = below, below_pos
        cum[i, tail[i]], cum_pos[i, tail[i]] = total, total_pos
    bound = tail.copy()                             # segment edges: 0 and the total (and padding)
    bound[:, 0] = True
    chosen: list[set[int]] = [set() for _ in range(n_lad)]
    active = np.ones(n_lad, dtype=bool)
    rows = np.arange(n_lad)
    for _ in range(n_cuts):
        lo = np.maximum.accumulate(np.where(bound, cols, 0), axis=1)
        # the last column is a boundary of every ladder, so every hi is a column
        hi = np.minimum.accumulate(np.where(bound, cols, width)[:, ::-1], axis=1)[:, ::-1]
        n_lo, p_lo = np.take_along_axis(cum, lo, 1), np.take_along_axis(cum_pos, lo, 1)
        n_hi, p_hi = np.take_along_axis(cum, hi, 1), np.take_along_axis(cum_pos, hi, 1)
        n_l, p_l, n_r, p_r = cum - n_lo, cum_pos - p_lo, n_hi - cum, p_hi - cum_pos
        gain = _gini(n_hi - n_lo, p_hi - p_lo) - _gini(n_l, p_l) - _gini(n_r, p_r)
        gain[bound | (n_l < min_leaf) | (n_r < min_leaf)] = -1.0
        best = np.argmax(gain, axis=1)
        take = active & (gain[rows, best] > 1e-12)
        if not take.any():
            break
        bound[rows[take], best[take]] = True
        for i in np.flatnonzero(take):
            chosen[i].add(int(best[i]) - 1)         # threshold i splits at cum index i + 1
        active = take
    for i, t in enumerate(lengths.tolist()):
        if not chosen[i]:   # nothing splits the target: an even spacing
            chosen[i] = {int(j) for j in np.linspace(0, t - 1, n_cuts + 2)[1:-1].round()}
    return chosen


def _level_limit(max_levels: Any, n_present: int, grouped: bool = False) -> int | None:
    """The most levels a categorical column of ``n_present`` values may have (None: no
    limit).  ``"auto"``: ``max(10, min(50, n // 2))``, or with ``grouped`` (levels the
    labels may group, ``categories="grouped"``) ``max(10, n // 2)``."""
    if max_levels is None:
        return None
    if isinstance(max_levels, str):   # "auto"
        return max(10, n_present // 2 if grouped else min(50, n_present // 2))
    return int(max_levels)


#: Column names that say "identifier": ``id`` as a word (``ID``, ``patient_id``,
#: ``Customer ID``, ``id.code``), at the end of a camel-case name (``PassengerId``,
#: ``customerID``; not ``paid`` or ``fluid``), after a common prefix (``pid``:
#: survival/gbsg's patient numbers, ``ptid``, ``subjid``, ``hhid``; ``childid``,
#: ``schoolid``, ``townid``, ``distid``: the groups of panel and multilevel data), a
#: number after a word that names a unit (``villnum``: causaldata/thornton_hiv's
#: villages, ``provnum``, ``persnum``, ``patnr``, ``schoolNR``, ``idno``, ``bib_num``,
#: ``obs_number``; not ``rad_num``, ``childNum``, ``Number`` or ``BlanksNumber``), or a
#: word that names the unit measured (``subject``, ``Subject``, ``patient``; ``Student``:
#: Stat2Data/MathPlacement's student numbers became rules ``Student > 1350``).
_ID_NAME = re.compile(
    r"(^|[_\s.])[iI][dD]$|^[iI][dD]([_\s.]|$)|[a-z]I[dD]$"
    r"|(^|[_\s.])(?i:(p|pt|pat|patient|pers|person|subj|subject|cust|customer|hh|h|house"
    r"|household|fam|family|obs|rec|case|user|u|emp|employee|stud|student|mem|member"
    r"|child|kid|sch|school|s|dist|district|town|county|city|state|geo|unit|site|plot"
    r"|study|org|firm|int|group|grp)id)$"
    r"|(^|[_\s.])(?i:(id|p|pt|pat|patient|pers|person|subj|subject|cust|customer|hh|house"
    r"|household|fam|family|obs|rec|case|emp|employee|stud|student|pupil|mem|member|sch"
    r"|school|class|vill|village|prov|provider|doc|seq|bib|int|interview|group|grp)"
    r"[_.]?(num|no|nr|number))$"
    r"|^(?i:subject|patient|participant|respondent|individual|student|pupil|person)$")

#: Distinct values from which an integer column named like an identifier is dropped even
#: when its rows share them (a group identifier: one child's repeated records).
GROUP_ID_LEVELS = 20


def _text_levels(kind: str, values: Any) -> Any:
    """The levels seen in fit of a feature of ``kind`` fitted as ``values`` (see
    :meth:`ThresholdBinarizer._fit_feature`), or None for a feature without levels."""
    if kind == "categorical":
        return values
    if kind == "binary":
        return [values]
    if kind == "grouped":
        return values[0]
    if kind == GROUPED_CLASSES:   # one ladder per class, each of the same levels
        return values[0][1]
    return None


def inspect_column(values: np.ndarray, name: str, *, max_levels: Any = "auto",
                   categorical: bool = False, grouped: bool = False) -> tuple[str, Any]:
    """Classify one column: ``("numeric", floats)``, ``("date", days)``, ``("duration",
    days)``, ``("quantity", (unit, floats))``, ``("categorical", None)`` or ``("id", why)``.

    A **date** column holds only dates (``datetime64``, date or datetime objects, pandas
    ``Period`` values, or ISO 8601 strings such as ``2004-01-31``; see
    :func:`satrules.rules.date_days`); its values are returned as days since 1970-01-01,
    and it is never ID-like.

    ``values`` are the column's non-missing values.  A column is **ID-like** (to be
    dropped) when it is categorical with more distinct values than the level limit
    (``max_levels``; ``"auto"``: ``max(10, min(50, n // 2))`` for ``n`` non-missing
    values, i.e. more than 50 levels or more than half the rows distinct), when it is
    named ``rownames`` or ``Unnamed: 0`` (row labels from R or pandas), or when it is a
    numeric column of at least 20 distinct integers, one per row, in increasing or
    decreasing row order (a row number), or integers in a column named like an identifier
    (``ID``, ``patient_id``, ``id.code``: MASS/biopsy's sample codes; ``PassengerId``,
    ``pid``: survival/gbsg's patient numbers; ``childid``, ``Subject``) when more than
    half of them are distinct (a record number) or at least :data:`GROUP_ID_LEVELS` = 20
    are (a group number shared by rows: HLMdiag/autism's ``childid``, 155 children in 604
    rows); the same holds for codes in such a column that are numbers with a few others
    (carData/Blackmore's ``subject``: ``100``, ``207a``), which would otherwise be refused
    as a numeric column with bad values.
    ``max_levels=None`` turns all of these off.  ``grouped``: the labels may group the
    levels (``categories="grouped"``), so ``"auto"`` allows up to half the rows distinct
    (:func:`_level_limit`); the caller drops the column when they do not group it.

    Raises
    ------
    FeatureTypeError
        For a numeric column with a few non-numeric values (see :func:`_as_numeric`),
        unless it is named like an identifier as above.
    """
    if max_levels is not None and name in ID_COLUMN_NAMES:
        return "id", "row labels written by R or pandas, not a feature"
    if _is_boolean(values):   # True/False: levels, printed ``flag = True``, not ``flag = 1``
        return "categorical", None
    if not categorical and values.dtype.kind in "MOU":
        days = date_days(values)
        if days is not None:
            return "date", days
    if not categorical and values.dtype.kind in "mOU":
        days = duration_days(values)
        if days is not None:
            return "duration", days
    if not categorical and values.dtype.kind in "OU":
        quantity = quantity_unit(values)
        if quantity is not None:
            return "quantity", quantity
    counts = _value_counts(values)   # once, for the numbers, strays, levels and notes
    try:
        numeric = None if categorical and values.dtype.kind not in "biuf" else \
            _as_numeric(values, name, counts)
    except FeatureTypeError:
        why = _identifier_codes(values, name, counts, max_levels)
        if why is None:
            raise
        return "id", why
    if not categorical and numeric is None:
        _check_stray_quantities(values, name, counts)
    if categorical or numeric is None:
        n_levels = len(counts) if counts is not None else len(set(values.tolist()))
        limit = _level_limit(max_levels, len(values), grouped)
        if limit is not None and n_levels > limit:
            return "id", (f"{n_levels} distinct values in {len(values)} rows (more than "
                          f"max_levels={limit}): an identifier, not a category"
                          + ("" if categorical or counts is None
                             else _almost_read(values, counts) or _comma_note(counts)))
        return "categorical", None
    if max_levels is not None and len(numeric) >= 20 and np.all(numeric == np.round(numeric)):
        steps = np.diff(numeric)
        if (steps > 0).all() or (steps < 0).all():
            return "id", (f"{len(numeric)} distinct integers in row order: a row number, "
                          "not a feature")
        if _ID_NAME.search(name):
            n_distinct = len(np.unique(numeric))
            if n_distinct > len(numeric) // 2:
                return "id", (f"integers named like an identifier, {n_distinct} distinct "
                              f"in {len(numeric)} rows: a record number, not a feature")
            if n_distinct >= GROUP_ID_LEVELS:
                return "id", (
                    f"integers named like an identifier, {n_distinct} distinct in "
                    f"{len(numeric)} rows, so rows share them (the records of one subject "
                    "or group): a group number, not a feature (to use its values as "
                    "categories, pass it as a pandas 'category' column"
                    + ("" if n_distinct <= _level_limit(max_levels, len(numeric))
                       else f" with max_levels >= {n_distinct}")
                    + "; to measure accuracy on new groups, split the rows by group, e.g. "
                    "with sklearn's GroupKFold)")
    return "numeric", numeric


def _is_boolean(values: np.ndarray) -> bool:
    """Whether ``values`` (no missing entries) are all ``True``/``False``: a ``bool``
    column, or an ``object`` one (pandas keeps a True/False column with missing values as
    ``object``; ``pandas.read_csv`` reads ``TRUE``/``FALSE`` and ``True``/``False``
    cells so)."""
    if values.dtype.kind == "b":
        return True
    if values.dtype.kind != "O" or len(values) == 0:
        return False
    import pandas as pd

    return pd.api.types.infer_dtype(values, skipna=True) == "boolean"


def _identifier_codes(values: np.ndarray, name: str, counts: Counter | None,
                      max_levels: Any) -> str | None:
    """Why a column that :func:`_as_numeric` refuses (numbers with a few other values) is
    an identifier, or None when it is not: named like one (:data:`_ID_NAME`), at least 20
    values, and more than half of them distinct or at least :data:`GROUP_ID_LEVELS`, as
    for integers.  Record codes are numbers with a letter here and there (carData/Blackmore's
    ``subject``: ``100``, ``207a``, ``207b``; DAAG/hotspots' ``ID``: ``15A``), so the
    stray values say "identifier" rather than "a numeric column with bad values"."""
    if max_levels is None or counts is None or len(values) < 20 or not _ID_NAME.search(name):
        return None
    n_distinct = len(counts)
    if n_distinct <= len(values) // 2 and n_distinct < GROUP_ID_LEVELS:
        return None
    strays = sorted((v for v in counts if _parse_number(v) is None), key=str)
    if not all(isinstance(v, str) for v in strays):   # not codes: the error stands
        return None
    codes = [repr(v) for v in strays[:3]]
    return (f"codes named like an identifier, {n_distinct} distinct in {len(values)} rows "
            f"(numbers and {', '.join(codes)}{' ...' if len(strays) > 3 else ''}): "
            "a record or group code, not a feature (to use its values as categories, pass "
            "it as a pandas 'category' column"
            + ("" if n_distinct <= _level_limit(max_levels, len(values))
               else f" with max_levels >= {n_distinct}") + ")")


def _level_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct :func:`~satrules.rules.level_key` of ``values`` (sorted) and each
    row's index into them; one key per distinct value, not per row (a missing value is a
    value here)."""
    import pandas as pd

    raw, distinct = pd.factorize(np.asarray(values, dtype=object), use_na_sentinel=False)
    names, key_codes = np.unique(np.array([level_key(v) for v in distinct], dtype=object),
                                 return_inverse=True)
    return names, key_codes.reshape(-1)[raw]


def _fold_ids(n_rows: int) -> np.ndarray:
    """Each row's fold among :data:`GROUP_FOLDS` (a fixed shuffle that depends on the
    number of rows only, as scikit-learn's ``KFold(shuffle=True, random_state=0)``)."""
    from sklearn.model_selection import KFold

    fold = np.zeros(n_rows, dtype=np.int64)
    if n_rows >= 2:
        splits = KFold(min(GROUP_FOLDS, n_rows), shuffle=True, random_state=0)
        for f, (_, held) in enumerate(splits.split(np.zeros((n_rows, 1)))):
            fold[held] = f
    return fold


def _smoothed(pos: np.ndarray, n: np.ndarray, pos_total: np.ndarray,
              n_total: np.ndarray) -> np.ndarray:
    """Rates ``pos / n`` smoothed towards ``pos_total / n_total`` by
    :data:`GROUP_SMOOTHING` pseudo-rows (0.5 as the prior when ``n_total`` is 0);
    the arrays broadcast."""
    with np.errstate(invalid="ignore", divide="ignore"):
        prior = np.where(n_total > 0, pos_total / np.maximum(n_total, 1), 0.5)
    return (pos + GROUP_SMOOTHING * prior) / (n + GROUP_SMOOTHING)


def _association_p(n: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """p-values of Pearson's chi-square test that the levels and a 0/1 class are
    independent, one per column of ``pos`` (the levels x 2 table of rows ``n`` per level
    and ``pos[:, k]`` of them in class ``k``; 1.0 when the class or its rest is empty)."""
    from scipy.stats import chi2

    total = n.sum()
    share = pos.sum(axis=0) / max(total, 1)
    seen = n > 0
    spread = np.where((share > 0) & (share < 1), share * (1 - share), 1.0)
    dev = (pos - n[:, None] * share[None, :]) ** 2
    stat = (dev[seen] / (n[seen, None] * spread[None, :])).sum(axis=0)
    p = chi2.sf(stat, max(int(seen.sum()) - 1, 1))
    return np.where((share > 0) & (share < 1), p, 1.0)


def level_rates(values: np.ndarray, y: np.ndarray, n_classes: int, classes: list[int],
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each level's smoothed rate of each class code in ``classes`` (that class against
    the rest of ``y``'s ``n_classes``), each training row's **out-of-fold** rate, and the
    p-value of the association test, with one factorization, one set of folds and one
    count table for all the classes (see :func:`group_levels`).

    Returns
    -------
    names : ndarray of str
        The levels' keys (:func:`~satrules.rules.level_key`, missing as ``"<missing>"``
        when ``values`` writes it so), sorted.
    rates : ndarray of shape (n_levels, len(classes))
        Each level's rate on every training row.
    train_rates : ndarray of shape (n_rows, len(classes))
        Each row's level's rate on the other :data:`GROUP_FOLDS` - 1 folds.
    p_values : ndarray of shape (len(classes),)
        Pearson's chi-square test of levels x (class, rest).

    Examples
    --------
    >>> x = np.array(list("aabbbc") * 20, dtype=object)
    >>> names, rates, _, p = level_rates(x, np.isin(x, ["a"]) * 1, 2, [1])
    >>> names.tolist(), rates[:, 0].round(2).tolist(), bool(p[0] < 0.01)
    (['a', 'b', 'c'], [0.87, 0.05, 0.11], True)
    """
    names, codes = _level_codes(values)
    n_levels, n_rows = len(names), len(codes)
    y = np.asarray(y, dtype=np.int64)
    fold = _fold_ids(n_rows)
    n_folds = int(fold.max()) + 1 if n_rows else 1
    cell = (codes * n_folds + fold) * n_classes + y   # (level, fold, class) of each row
    table = np.bincount(cell, minlength=n_levels * n_folds * n_classes).reshape(
        n_levels, n_folds, n_classes).astype(np.float64)
    n_lf = table.sum(axis=2)                         # rows per level and fold
    table = table[:, :, classes]
    n_l, n_f = n_lf.sum(axis=1), n_lf.sum(axis=0)    # per level; per fold
    pos_l, pos_f = table.sum(axis=1), table.sum(axis=0)   # (level, class); (fold, class)
    rates = _smoothed(pos_l, n_l[:, None], pos_l.sum(axis=0)[None, :], n_l.sum())
    if n_rows >= 2:   # each row reads its level's rate on the other folds
        oof = _smoothed(pos_l[:, None, :] - table, (n_l[:, None] - n_lf)[:, :, None],
                        (pos_f.sum(axis=0)[None, :] - pos_f)[None, :, :],
                        (n_f.sum() - n_f)[None, :, None])
        train_rates = oof[codes, fold]
    else:
        train_rates = rates[codes]
    return names, rates, train_rates, _association_p(n_l, pos_l)


def _ladders(values: np.ndarray, y: np.ndarray, n_classes: int, classes: list[int],
             n_thresholds: int, n_tree: int | None, max_p: float) -> list[tuple]:
    """:func:`group_levels` for each class code in ``classes`` (that class against the
    rest of ``y``'s ``n_classes``), the rates from one :func:`level_rates`; a class is
    cut only if its p-value is below ``max_p``.  Returns ``(levels, rank_cuts,
    rate_cuts, train_rates)`` per class."""
    names, rates, train_rates, p_values = level_rates(values, y, n_classes, classes)
    y = np.asarray(y, dtype=np.int64)
    out = []
    for i, (k, p) in enumerate(zip(classes, p_values, strict=True)):
        rate, rows = rates[:, i], train_rates[:, i]
        order = np.lexsort((names, rate))    # by rate, ties by text
        levels = tuple(names[order].tolist())
        if p >= max_p:   # nothing to group
            out.append((levels, np.empty(0), np.empty(0), rows))
            continue
        rate_cuts = _thresholds(rows, n_thresholds, (y == k).astype(np.int64),
                                "tree", short=False, n_tree=n_tree)
        ranks = np.searchsorted(rate[order], rate_cuts, side="right") - 1.0
        keep = (ranks >= 0) & (ranks < len(names) - 1)
        ranks, first = np.unique(ranks[keep], return_index=True)
        out.append((levels, ranks, rate_cuts[keep][first], rows))
    return out


def _grouped_ops(ranks: np.ndarray, n_levels: int) -> list[str]:
    """Per rank cut of a grouped feature, the side its column names: ``"<="`` (the levels up
    to the cut) unless the levels above it are fewer (``">"``), so that the set printed
    (``x in {...}``) is the shorter one."""
    return ["<=" if r + 1 <= n_levels - r - 1 else ">" for r in np.asarray(ranks)]


def _grouped_columns(numbers: np.ndarray, cuts: Any, ops: list[str]) -> np.ndarray:
    """The 0/1 columns ``numbers <= cut`` or ``numbers > cut`` (per ``ops``); NaN (a level
    not seen in fit) is in no set."""
    cuts = np.asarray(cuts, dtype=float)[None, :]
    below = np.array([op == "<=" for op in ops])[None, :]
    with np.errstate(invalid="ignore"):
        held = np.where(below, numbers[:, None] <= cuts, numbers[:, None] > cuts)
    return held.astype(np.uint8)


def group_levels(values: np.ndarray, y: np.ndarray, n_thresholds: int,
                 n_tree: int | None = None, max_p: float | None = None,
                 ) -> tuple[tuple, np.ndarray, np.ndarray, np.ndarray]:
    """Rank the levels of a categorical feature by their rate of the second class and cut
    the ranks where a one-feature tree would, so that a few columns ``x in {...}`` stand
    for many one-hot ones.

    A level's rate is its share of rows of class 1, smoothed towards the overall share by
    :data:`GROUP_SMOOTHING` pseudo-rows; the levels are ranked by it (ties by their text).
    The cuts are chosen on **out-of-fold** rates: each training row gets its level's rate
    on the other :data:`GROUP_FOLDS` - 1 folds (a fixed shuffle), as scikit-learn's
    ``TargetEncoder`` does, so that a level seen on a row or two cannot look predictive
    by its own label; the tree on those rates (:func:`_thresholds`, ``"tree"``) gives
    rate thresholds, each then read as the last level whose whole-training rate is at
    most it.

    No cut at all unless the levels and the class are associated: Pearson's chi-square
    test of the levels x (class 1, other) table must give a p-value below
    :data:`GROUP_MAX_P`.  On a balanced panel (one row per state and quarter, the state
    the class, the quarter the feature) the levels tell nothing, yet a random split makes
    the quarters whose row of a state was held out the state's lowest-rate ones, and the
    ladder would learn which rows the split held out (fpp3/aus_accommodation: 18 points
    on the test split that new quarters would not keep); the test sees no association.

    Parameters
    ----------
    values : ndarray of object
        The feature's training values, a missing value written as ``"<missing>"``.
    y : ndarray of int
        Class codes 0 / 1.
    n_thresholds, n_tree : int
        As for :func:`_thresholds`.
    max_p : float, optional
        The p-value the test must stay below (default :data:`GROUP_MAX_P`).

    Returns
    -------
    levels : tuple of str
        The levels (:func:`~satrules.rules.level_key`), lowest rate first.
    rank_cuts : ndarray of float
        Ascending ranks (0 to ``len(levels) - 2``): column ``j`` names the levels up to
        rank ``rank_cuts[j]``, or those above it when they are fewer (the
        :class:`~satrules.rules.Condition` op ``"<="`` or ``">"``).
    rate_cuts : ndarray of float
        The rate thresholds behind them.
    train_rates : ndarray of float
        The out-of-fold rate of each training row: its column ``j`` is ``train_rates <=
        rate_cuts[j]`` (or ``>``, as the op says).

    Examples
    --------
    >>> rng = np.random.RandomState(0)
    >>> x = rng.choice(list("abcdefghijkl"), 600).astype(object)
    >>> y = np.isin(x, list("aeiou")).astype(int)
    >>> levels, ranks, _, _ = group_levels(x, y, 4)
    >>> sorted(levels[int(ranks[-1]) + 1:])    # the levels of the highest rates
    ['a', 'e', 'i']
    """
    positive = (np.asarray(y) == 1).astype(np.int64)
    return _ladders(values, positive, 2, [1], n_thresholds, n_tree,
                    GROUP_MAX_P if max_p is None else max_p)[0]


class ThresholdBinarizer(TransformerMixin, BaseEstimator):
    """Binarize numeric, binary and categorical features into 0/1 condition columns.

    Parameters
    ----------
    n_thresholds : int or "auto", default=4
        Maximum number of thresholds per numeric feature.  ``"auto"``: 4, except that a
        one-feature tree on labels of ``K > 5`` classes (``thresholds="tree"`` or
        ``"both"``) may cut ``K - 1`` times, so that every class can have its own
        interval (the fitted number is ``n_tree_thresholds_``).
    categorical_features : "auto" or list of str / int, default="auto"
        Features to one-hot encode.  ``"auto"``: the columns holding strings, and the
        unordered pandas ``category`` columns whatever their values (an *ordered* one is
        cut at thresholds between its levels).  A list names (or indexes) numeric
        columns to treat as categorical too, or ordered ``category`` columns to one-hot
        encode instead (unordered ``category`` columns always are).
    missing : {"category", "error"}, default="category"
        ``"category"``: a missing value is its own category (an ``x is missing``
        column; see the module notes for what the other literals say about it);
        ``"error"`` raises a ``ValueError`` on missing values.
    max_levels : int, "auto" or None, default="auto"
        A categorical column with more distinct values than this is an identifier
        (a name, a ticket number) and is dropped with a warning instead of becoming
        one ``x = v`` column per row.  ``"auto"``: ``max(10, min(50, n // 2))`` for
        ``n`` non-missing values (more than 50 levels, or more than half the rows
        distinct, but never fewer than 10 levels kept); with ``categories="grouped"``,
        a feature of more than 50 levels is kept (up to half the rows distinct) when
        the labels group its levels, and dropped as before when they do not.  ``None``
        keeps every column.  Columns named ``rownames`` / ``Unnamed: 0`` and numeric
        row numbers (at least 20 distinct integers in increasing or decreasing row
        order) are dropped too, unless ``max_levels=None``.
    thresholds : {"quantile", "tree", "both"}, default="quantile"
        Where a numeric feature's thresholds go: at quantiles (pyrulelearn's
        ``_discretize``; no labels needed), at the cuts of a one-feature decision tree on
        the labels ``y`` given to :meth:`fit` (at most ``n_thresholds``, leaves of at
        least :data:`TREE_MIN_LEAF` = 1 % of the rows, rows missing the feature left
        out; the quantiles when the tree does not split), or both.
    categories : {"onehot", "grouped"}, default="onehot"
        ``"onehot"``: a categorical feature becomes one ``x = v`` column per level.
        ``"grouped"``: a categorical feature of at least :data:`GROUP_MIN_LEVELS` levels
        becomes instead a few columns ``x in {...}``: its levels ranked by their rate of
        the second class, cut where a one-feature tree would (:func:`group_levels`; a
        missing value is a level like the others), when a chi-square test finds its
        levels and the class associated (p-value below :data:`GROUP_MAX_P`).  Needs
        ``fit(X, y)``.  With more than two classes, one ladder of such columns per class,
        its levels ranked by their rate of that class against the rest
        (:meth:`class_columns` gives each one-vs-rest problem its own class's ladder).
        :meth:`fit_transform` gives the training rows the columns of their levels'
        *out-of-fold* rates (so that a rare level's own label does not make it look
        predictive); :meth:`transform` reads every row by its level, and a level not
        seen in fit is in no group.

    Attributes
    ----------
    conditions_ : list of Condition
        The meaning of each output column.
    feature_kinds_ : dict
        Input feature name -> ``"constant"``, ``"binary"``, ``"categorical"``,
        ``"ordinal"``, ``"date"``, ``"duration"``, ``"quantity"`` (numbers written with a
        unit, ``13.5%``), ``"ordered"`` (an ordered category), ``"grouped"`` (a category
        of grouped levels) or ``"dropped"``.
    dropped_features_ : dict
        Input feature name -> why it was dropped as ID-like (empty when none was).
    n_thresholds_, n_tree_thresholds_ : int
        The most quantile cuts and the most tree cuts per numeric feature (the two
        differ only for ``n_thresholds="auto"`` with tree cuts on more than 5 classes).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when fitted on a DataFrame.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [30, 50, 70, 40], "pain": ["a", "b", "c", "a"],
    ...                    "sex": ["m", "f", "m", "m"], "k": [1, 1, 1, 1]})
    >>> tb = ThresholdBinarizer().fit(df)
    >>> [c.describe() for c in tb.conditions_]
    ['age <= 30', 'age <= 40', 'age <= 50', 'pain = a', 'pain = b', 'pain = c', 'sex = m']
    >>> tb.feature_kinds_["k"]
    'constant'
    >>> tb.transform(pd.DataFrame({"age": [45], "pain": ["z"], "sex": ["f"], "k": [1]})).tolist()
    [[0, 0, 1, 0, 0, 0, 0]]
    """

    def __init__(self, n_thresholds: int = 4, categorical_features: Any = "auto",
                 missing: str = "category", max_levels: Any = "auto",
                 thresholds: str = "quantile", categories: str = "onehot") -> None:
        self.n_thresholds = n_thresholds
        self.categorical_features = categorical_features
        self.missing = missing
        self.max_levels = max_levels
        self.thresholds = thresholds
        self.categories = categories

    # ------------------------------------------------------------------ helpers
    def _check_params(self) -> None:
        n = self.n_thresholds
        if not (isinstance(n, str) and n == "auto") and (
                isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1):
            raise ValueError(f"n_thresholds must be a positive int or 'auto', got {n!r}")
        if self.missing not in ("error", "category"):
            raise ValueError(f"missing must be 'error' or 'category', got {self.missing!r}")
        if self.thresholds not in THRESHOLD_METHODS:
            raise ValueError(f"thresholds must be one of {', '.join(THRESHOLD_METHODS)}, got "
                             f"{self.thresholds!r}")
        if not isinstance(self.categories, str) or self.categories not in CATEGORY_ENCODINGS:
            raise ValueError(f"categories must be one of {', '.join(CATEGORY_ENCODINGS)}, "
                             f"got {self.categories!r}")
        levels = self.max_levels
        if not (levels is None or (isinstance(levels, str) and levels == "auto") or
                (isinstance(levels, numbers.Integral) and not isinstance(levels, bool)
                 and levels >= 1)):
            raise ValueError(f"max_levels must be a positive int, 'auto' or None, got "
                             f"{levels!r}")

    def _forced_categorical(self, names: list[str]) -> set[int]:
        spec = self.categorical_features
        if isinstance(spec, str) and spec == "auto":
            return set()
        forced = set()
        index = {name: i for i, name in enumerate(names)}
        for item in spec:
            if isinstance(item, numbers.Integral) and 0 <= item < len(names):
                forced.add(int(item))
            elif str(item) in index:
                forced.add(index[str(item)])
            else:
                raise ValueError(f"categorical_features: unknown feature {item!r}")
        return forced

    def _clean(self, col: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
        """Return (values, missing mask), refusing missing values when asked and infinity."""
        miss = missing_mask(col)
        if miss.any() and self.missing == "error":
            raise ValueError(
                f"feature {name!r} has {int(miss.sum())} missing value(s) (NaN); impute them or "
                "use ThresholdBinarizer(missing='category')"
            )
        if col.dtype.kind == "f" and np.isinf(col).any():
            raise ValueError(f"infinity (inf) in feature {name!r}; remove or clip it")
        return col, miss

    # ---------------------------------------------------------------------- fit
    def fit(self, X: Any, y: Any = None) -> ThresholdBinarizer:
        """Learn thresholds and categories from ``X`` (and ``y`` for ``thresholds="tree"``
        or ``"both"``, or ``categories="grouped"``); return ``self``."""
        self._fit(X, y)
        return self

    def fit_transform(self, X: Any, y: Any = None, **fit_params: Any) -> np.ndarray:
        """Fit, then return the 0/1 matrix of ``X``: :meth:`transform`'s, except that the
        columns of a grouped feature (``categories="grouped"``) hold each row's
        out-of-fold rate against the cuts (:func:`group_levels`), not its level's rate
        on every row."""
        grouped = self._fit(X, y)
        out = self.transform(X)
        columns_of: dict[int, list[int]] = {}   # one pass over the conditions
        for c, cond in enumerate(self.conditions_):
            if cond.grouped:
                columns_of.setdefault(cond.group, []).append(c)
        for f, ladders in grouped.items():
            start = 0
            for train_rates, rate_cuts in ladders:   # in the order of the conditions
                columns = columns_of[f][start:start + len(rate_cuts)]
                start += len(rate_cuts)
                ops = [self.conditions_[c].op for c in columns]
                out[:, columns] = _grouped_columns(train_rates, rate_cuts, ops)
        return out

    def _fit(self, X: Any, y: Any) -> dict:
        """Fit; return, per grouped feature, the list (one item per ladder) of its rows'
        out-of-fold rates and rate cuts."""
        self._check_params()
        cols, frame_names = _split_columns(X)
        n_samples = len(cols[0]) if cols else (X.shape[0] if hasattr(X, "shape") else 0)
        if not cols or n_samples == 0:
            raise ValueError(
                f"empty input: got {n_samples} sample(s) and {len(cols)} feature(s); "
                "need at least one of each"
            )
        supervised = [f"{name}={value!r} {does}" for name, value, unsupervised, does in (
            ("thresholds", self.thresholds, "quantile", "chooses cuts from the labels"),
            ("categories", self.categories, "onehot", "groups levels by the labels"))
            if value != unsupervised]
        codes = None
        if supervised:
            if y is None:
                raise ValueError(f"{' and '.join(supervised)}: call fit(X, y)")
            y = np.asarray(y)
            if len(y) != n_samples:
                raise ValueError(f"y has {len(y)} labels for {n_samples} samples")
            # class codes: the one-feature trees only ask which rows share a class
            codes = np.unique(y, return_inverse=True)[1].reshape(-1)
        labels = None if self.thresholds == "quantile" else codes
        group = self.categories == "grouped" and codes is not None
        auto = isinstance(self.n_thresholds, str)
        self.n_thresholds_ = AUTO_THRESHOLDS if auto else int(self.n_thresholds)
        self.n_tree_thresholds_ = self.n_thresholds_ if labels is None or not auto else \
            max(AUTO_THRESHOLDS, len(np.unique(labels)) - 1)
        names = frame_names if frame_names is not None else [f"x{c}" for c in range(len(cols))]
        forced = self._forced_categorical(names)
        ordered = {f: levels for f, levels in ordered_levels(X).items() if f not in forced}
        forced |= category_columns(X)
        self.n_features_in_ = len(cols)
        if frame_names is not None:
            self.feature_names_in_ = np.asarray(frame_names, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self._names = names
        self._specs: list[tuple[str, Any, bool]] = []  # (kind, values, has missing column)
        self.conditions_: list[Condition] = []
        self._ladder_layouts: dict = {}   # class_columns' ladders, per n_cuts
        self.feature_kinds_: dict[str, str] = {}
        self.dropped_features_: dict[str, str] = {}
        self._comma_categories: dict[str, str] = {}   # numbers written with decimal commas
        self._missing_codes: dict[str, tuple] = {}   # numbers such as -999 (missing_code)
        grouped = {}
        for f, (col, name) in enumerate(zip(cols, names, strict=True)):
            col, miss = self._clean(col, name)
            y_known = None if labels is None else labels[~miss]
            if f in ordered:
                kind, values, with_missing = self._fit_ordered(
                    ordered[f], col[~miss], miss.any(), y_known)
            else:
                kind, values, with_missing = self._fit_feature(
                    col[~miss], miss.any(), name, f in forced, y_known, group)
            if group and kind == "categorical" and len(values) >= GROUP_MIN_LEVELS:
                obj = col.astype(object)
                obj[miss] = MISSING
                kind, values, grouped[f] = self._group_feature(obj, y, codes, kind, values)
                if not grouped[f]:
                    del grouped[f]
                n_present = int((~miss).sum())
                limit = _level_limit(self.max_levels, n_present)
                n_levels = len(values) - int(with_missing)
                if kind == "categorical" and limit is not None and n_levels > limit:
                    kind, values, with_missing = "dropped", (
                        f"{n_levels} distinct values in {n_present} rows (more than "
                        f"max_levels={limit}), which the labels do not group: an "
                        "identifier, not a category"), False
            if kind == "dropped":
                self.dropped_features_[name] = values
                values = None
            self._specs.append((kind, values, with_missing))
            self.feature_kinds_[name] = "grouped" if kind == GROUPED_CLASSES else kind
            self.conditions_.extend(self._feature_conditions(f, name, kind, values, with_missing))
        warn_comma_categories(self._comma_categories)
        warn_missing_codes(self._missing_codes)
        if self.dropped_features_:
            warn("dropped ID-like column(s) (set max_levels=None to keep them): " +
                 "; ".join(f"{name!r}: {why}" for name, why in self.dropped_features_.items()))
        if not self.conditions_:
            raise ValueError(
                "every feature is constant or ID-like (no column left after binarization); "
                "a rule learner needs at least one varying feature"
            )
        return grouped

    def _group_feature(self, values: np.ndarray, y: np.ndarray, codes: np.ndarray,
                       kind: str, categories: Any) -> tuple[str, Any, list]:
        """Group the levels of a categorical feature (``values``, missing as
        ``"<missing>"``) by the labels: the spec kind and values, and per ladder the
        training rows' out-of-fold rates and the rate cuts (empty: the feature stays
        one-hot).  Two classes: one ladder, kind ``"grouped"``, ``(levels, rank_cuts)``.
        More: one ladder per class that splits it (that class against the rest, at most
        ``n_thresholds_`` cuts, its test at :data:`GROUP_MAX_P` / K), kind
        :data:`GROUPED_CLASSES`, a tuple of ``(class label,
        levels, rank_cuts)``."""
        if codes.max() == 1:
            levels, rank_cuts, rate_cuts, rates = group_levels(
                values, codes, self.n_thresholds_, self.n_tree_thresholds_)
            if not len(rank_cuts):
                return kind, categories, []
            return "grouped", (levels, rank_cuts), [(rates, rate_cuts)]
        labels = np.unique(y)
        ladders, reads = [], []
        # one ladder per class: the test's level divided among the K tests (Bonferroni),
        # so that a feature unrelated to the class is grouped as rarely as with two
        per_class = _ladders(values, codes, len(labels), list(range(len(labels))),
                             self.n_thresholds_, None, GROUP_MAX_P / len(labels))
        for label, (levels, rank_cuts, rate_cuts, rates) in zip(
                labels.tolist(), per_class, strict=True):   # plain labels, for rule files
            if len(rank_cuts):
                ladders.append((label, levels, rank_cuts))
                reads.append((rates, rate_cuts))
        if not ladders:
            return kind, categories, []
        return GROUPED_CLASSES, tuple(ladders), reads

    def _fit_feature(self, vals: np.ndarray, has_missing: bool, name: str,
                     categorical: bool, y: np.ndarray | None = None,
                     grouped: bool = False) -> tuple[str, Any, bool]:
        if len(vals) == 0:   # every value missing: nothing to tell rows apart
            return "constant", None, False
        kind, numeric = inspect_column(vals, name, max_levels=self.max_levels,
                                       categorical=categorical, grouped=grouped)
        if kind == "id":
            return "dropped", numeric, False
        unit = None
        if kind == "quantity":   # numbers written with a unit: thresholds printed in it
            unit, numeric = numeric
        if kind == "categorical":
            cats = sorted(set(vals.tolist()), key=lambda v: (str(type(v)), v))
            example = None if categorical else comma_decimal_example(cats)
            if example is not None:
                self._comma_categories[name] = example
            cats = _one_level_per_number(cats)
            if has_missing:
                cats.append(MISSING)
            if len(cats) <= 1:
                return "constant", None, False
            if len(cats) == 2:
                return "binary", cats[1], False  # column "x == second category"
            return "categorical", cats, False
        _check_finite(numeric, name)
        distinct = np.unique(numeric)
        n_distinct = len(distinct) + int(has_missing)
        if n_distinct <= 1:
            return "constant", None, False
        if kind in ("date", "duration"):   # thresholds at observed values, even for two
            cuts = np.zeros(0) if len(distinct) <= 1 else \
                _thresholds(numeric, self.n_thresholds_, y, self.thresholds, short=False,
                            n_tree=self.n_tree_thresholds_)
            # how numeric dates were ordered, or that durations were hours and minutes
            form = date_order(vals) if kind == "date" else duration_form(vals)
            return kind, cuts if form is None else (form, cuts), has_missing
        if kind == "quantity":   # a threshold even for two values: it prints in the unit
            cuts = np.zeros(0) if len(distinct) <= 1 else \
                _thresholds(numeric, self.n_thresholds_, y, self.thresholds,
                            n_tree=self.n_tree_thresholds_)
            return kind, (unit, cuts), has_missing or len(distinct) <= 1
        if len(distinct) == 2 and not has_missing:
            return "binary", distinct[1].item(), False
        note_missing_code(self._missing_codes, name, numeric, distinct)
        if len(distinct) <= 1:  # one number plus missing: the missing column alone
            return "ordinal", np.zeros(0), True
        return "ordinal", _thresholds(numeric, self.n_thresholds_, y, self.thresholds,
                                      n_tree=self.n_tree_thresholds_), has_missing

    def _fit_ordered(self, levels: tuple, vals: np.ndarray, has_missing: bool,
                     y: np.ndarray | None = None) -> tuple[str, Any, bool]:
        """An ordered category: thresholds on the ranks of its levels, at observed levels."""
        ranks = level_ranks(vals, levels)
        distinct = np.unique(ranks)
        if len(distinct) + int(has_missing) <= 1:
            return "constant", None, False
        cuts = np.zeros(0) if len(distinct) <= 1 else \
            _thresholds(ranks, self.n_thresholds_, y, self.thresholds, short=False,
                        n_tree=self.n_tree_thresholds_)
        return "ordered", (levels, cuts), has_missing

    @staticmethod
    def _feature_conditions(f: int, name: str, kind: str, values: Any,
                            with_missing: bool) -> list[Condition]:
        if kind in ("constant", "dropped"):
            return []
        if kind == "binary":
            return [Condition(name, "==", values, f, "binary")]
        if kind == "categorical":
            return [Condition(name, "==", v, f, "categorical") for v in values]
        if kind == "grouped":
            levels, ranks = values
            return [Condition(name, op, float(r), f, "ordinal", levels=levels, grouped=True)
                    for r, op in zip(ranks, _grouped_ops(ranks, len(levels)), strict=True)]
        if kind == GROUPED_CLASSES:   # one ladder per class, in class order
            return [cond for _, levels, ranks in values
                    for cond in ThresholdBinarizer._feature_conditions(
                        f, name, "grouped", (levels, ranks), with_missing)]
        # with missing values, "x <= t" and "x > t" are separate columns, both 0 on a
        # missing row, so both literals read as they are written (module notes)
        unit = kind if kind in ("date", "duration") else ""
        if kind == "quantity":
            unit, values = values
        if kind in ("date", "duration") and isinstance(values, tuple):   # (order, cuts) of
            form, values = values                     # numeric dates, ("hm", cuts) of hours
            unit = f"{kind}:{form}"                   # and minutes
        levels, values = values if kind == "ordered" else ((), values)
        conds = [Condition(name, "<=", float(t), f, "ordinal", nullable=with_missing, unit=unit,
                           levels=levels) for t in values]
        if with_missing:
            conds += [Condition(name, ">", float(t), f, "ordinal", nullable=True, unit=unit,
                                levels=levels) for t in values]
            conds.append(Condition(name, "==", MISSING, f, "categorical", levels=levels))
        return conds

    # ---------------------------------------------------------------- transform
    def transform(self, X: Any) -> np.ndarray:
        """Return the 0/1 matrix (uint8, ``n_samples x len(conditions_)``) for ``X``."""
        check_is_fitted(self, "conditions_")
        cols, frame_names = _split_columns(X)
        if len(cols) != self.n_features_in_:
            raise ValueError(
                f"X has {len(cols)} features, but ThresholdBinarizer was fitted with "
                f"{self.n_features_in_} features"
            )
        fitted_names = getattr(self, "feature_names_in_", None)
        if frame_names is not None and fitted_names is not None \
                and list(frame_names) != list(fitted_names):
            raise ValueError(
                f"feature names at transform {frame_names} differ from those seen in fit "
                f"{list(fitted_names)}"
            )
        n_samples = len(cols[0])
        out = np.zeros((n_samples, len(self.conditions_)), dtype=np.uint8)
        start = 0
        unexpected, unknown, variants = [], {}, {}
        for col, name, (kind, values, with_missing) in zip(cols, self._names, self._specs,
                                                           strict=True):
            if kind in ("constant", "dropped"):
                continue
            col, miss = self._clean(col, name)
            levels = _text_levels(kind, values)
            if levels is not None:   # "No" at predict where fit saw "No "
                variants[name] = spelling_variants(col[~miss], levels)
            if kind in _THRESHOLD_KINDS and not with_missing and miss.any():
                unexpected.append(name)
            ranks = None
            if kind == "ordered":   # ranks once: for the warning and for the columns
                ranks = level_ranks(col, values[0])
                odd = ~miss & np.isnan(ranks)
                if odd.any():
                    unknown[name] = list(dict.fromkeys(map(str, col[odd])))[:5]
            block = self._transform_feature(col, miss, kind, values, with_missing, name,
                                            ranks)
            out[:, start:start + block.shape[1]] = block
            start += block.shape[1]
        if unexpected:
            warn(f"missing values in numeric feature(s) {unexpected} that had none in fit: "
                 "every 'x <= t' is false there, so each 'x > t' literal holds (read as "
                 "above every threshold); fit on data with missing values to get "
                 "'x is missing'")
        if unknown:
            warn("value(s) that are not levels of ordered categorical feature(s): " +
                 "; ".join(f"{name!r}: {vals}" for name, vals in unknown.items()) +
                 " -- read as missing values")
        note = spelling_note(variants)
        if note:
            warn(note)
        return out

    @staticmethod
    def _transform_feature(col, miss, kind, values, with_missing, name,
                           ranks=None) -> np.ndarray:
        if kind in _THRESHOLD_KINDS:
            if kind == "ordered":   # ranks: level_ranks; a value that is not a level
                numeric = ranks    # reads as missing
                miss, values = np.isnan(numeric), values[1]
            else:
                numeric = np.full(len(col), np.nan)
                if kind == "quantity":
                    unit, values = values
                    numeric[~miss] = quantity_values(col[~miss], name, unit)
                elif kind == "date" and isinstance(values, tuple):   # (order, cuts)
                    order, values = values
                    numeric[~miss] = date_values(col[~miss], name, order)
                elif kind == "duration" and isinstance(values, tuple):   # ("hm", cuts)
                    form, values = values
                    numeric[~miss] = duration_values(col[~miss], name, form)
                else:
                    numeric[~miss] = _VALUES[kind](col[~miss], name)
            cuts = np.asarray(values, dtype=float)[None, :]
            with np.errstate(invalid="ignore"):   # NaN compares False: 0 in both directions
                parts = [numeric[:, None] <= cuts]
                if with_missing:
                    parts += [numeric[:, None] > cuts, miss[:, None]]
            return np.concatenate(parts, axis=1).astype(np.uint8)
        if kind == "grouped":   # a level not seen in fit: NaN, in no group
            levels, cuts = values
            return _grouped_columns(grouped_ranks(col, levels), cuts,
                                    _grouped_ops(cuts, len(levels)))
        if kind == GROUPED_CLASSES:
            return np.concatenate([_grouped_columns(grouped_ranks(col, levels), cuts,
                                                    _grouped_ops(cuts, len(levels)))
                                   for _, levels, cuts in values], axis=1)
        cats = [values] if kind == "binary" else values
        obj = col.astype(object)
        obj[miss] = MISSING
        return category_matches(obj, cats)

    def own_columns(self, label: Any) -> np.ndarray | None:
        """Return the columns the rules of class ``label`` may read: every column but the
        grouped ladders of the other classes (``categories="grouped"`` with more than two
        classes: another class's column of the same levels reads other out-of-fold
        rates), as ascending indices, or None when that is every column.

        Examples
        --------
        >>> import pandas as pd
        >>> X = pd.DataFrame({"st": [f"s{i % 12}" for i in range(360)]})
        >>> y = np.where(X.st.isin(["s1", "s2"]), "a", np.where(X.st == "s3", "b", "c"))
        >>> b = ThresholdBinarizer(categories="grouped").fit(X, y)
        >>> [b.conditions_[c].describe() for c in b.own_columns("b")]
        ['st = s3']
        """
        check_is_fitted(self, "conditions_")
        columns = self._own_mask(label)
        return None if columns.all() else np.flatnonzero(columns).astype(np.int64)

    def _own_mask(self, label: Any) -> np.ndarray:
        """:meth:`own_columns` as a mask (every column for ``label=None``)."""
        columns = np.ones(len(self.conditions_), dtype=bool)
        if label is not None:
            for c, owner_label in self._class_ladder_columns():
                if owner_label != label:
                    columns[c] = False
        return columns

    def class_columns(self, Xb: np.ndarray, y: np.ndarray, n_cuts: int | None = None,
                      column_counts: np.ndarray | None = None,
                      label: Any = None) -> np.ndarray | None:
        """Return the columns one binary problem needs: every threshold ladder cut back to
        the ``n_cuts`` thresholds (default ``n_thresholds_``) that best split ``y``, and,
        of the features grouped once per class (``categories="grouped"`` with more than
        two classes), only the ladder of class ``label``.

        ``n_thresholds="auto"`` gives a target of ``K > 5`` classes up to ``K - 1``
        thresholds per feature, so that every class can be told apart; one class
        against the rest, as one-vs-rest learns it, needs far fewer.  Per ladder longer
        than ``n_cuts``, the thresholds are chosen as a one-feature tree on ``y`` would
        choose them, restricted to the ladder: best first by Gini decrease, each side
        holding at least :data:`TREE_MIN_LEAF` of the rows (when no split qualifies, the
        first ``n_cuts`` cuts of an even spacing).  Both columns of a kept threshold
        (``<=`` and, with missing values, ``>``) and every other column are kept.

        Parameters
        ----------
        Xb : ndarray of shape (n_samples, n_columns)
            This binarizer's output on the training rows.
        y : array-like of bool, shape (n_samples,)
            The binary target.
        n_cuts : int, optional
            Thresholds kept per ladder.
        column_counts : ndarray of shape (n_columns,), optional
            ``Xb.sum(axis=0)``, when already computed: one-vs-rest asks once per class,
            and on 20,000 rows x 10,000 columns each sum takes about 0.1 s.
        label : optional
            The class ``y`` marks (one of the labels given to :meth:`fit`): the grouped
            ladders of the other classes are left out.  None keeps every ladder.

        Returns
        -------
        ndarray of int or None
            The ascending column indices, or None when every column is kept.

        Examples
        --------
        >>> import numpy as np
        >>> x = np.arange(100).reshape(-1, 1) / 10
        >>> b = ThresholdBinarizer(n_thresholds=9, thresholds="quantile").fit(x)
        >>> [c.describe() for c in b.conditions_][:3]
        ['x0 <= 0.9', 'x0 <= 1.9', 'x0 <= 2.9']
        >>> middle = (x[:, 0] > 2) & (x[:, 0] < 6.5)    # one class of several
        >>> cols = b.class_columns(b.transform(x), middle, n_cuts=2)
        >>> [b.conditions_[c].describe() for c in cols]
        ['x0 <= 1.9', 'x0 <= 6.9']
        """
        check_is_fitted(self, "conditions_")
        n_cuts = self.n_thresholds_ if n_cuts is None else int(n_cuts)
        y = np.asarray(y, dtype=bool)
        Xb = np.asarray(Xb)
        columns = self._own_mask(label)
        layout = self._ladder_layout(n_cuts)
        if layout is None:
            return None if columns.all() else np.flatnonzero(columns).astype(np.int64)
        ladders, missing, members, owner, offsets = layout
        ones = Xb.sum(axis=0, dtype=np.int64) if column_counts is None else \
            np.asarray(column_counts, dtype=np.int64)
        if ones.shape != (Xb.shape[1],):
            raise ValueError(f"column_counts has shape {ones.shape}, expected "
                             f"({Xb.shape[1]},): one count per column of Xb")
        pos = Xb[y].sum(axis=0, dtype=np.int64)
        n_rows, n_pos = len(y), int(y.sum())
        min_leaf = max(TREE_MIN_ROWS, 1, int(np.ceil(TREE_MIN_LEAF * n_rows)))
        cuts = _ladders_cuts(
            [(ones[cs], pos[cs], n_rows - (0 if m < 0 else int(ones[m])),
              n_pos - (0 if m < 0 else int(pos[m]))) for cs, m in zip(ladders, missing,
                                                                        strict=True)],
            n_cuts, min_leaf)
        # a threshold not kept drops every column of it (<= and, with missing values, >)
        dropped = np.ones(offsets[-1], dtype=bool)
        dropped[[offsets[l] + i for l, keep in enumerate(cuts) for i in keep]] = False
        columns[members[dropped[owner]]] = False
        return np.flatnonzero(columns).astype(np.int64)

    def _class_ladder_columns(self) -> list[tuple[int, Any]]:
        """``(column, class label)`` of every column of a feature grouped once per class,
        worked out once per fit (one-vs-rest asks twice per class)."""
        cache = self.__dict__.setdefault("_ladder_layouts", {})   # emptied by fit
        if "class_ladders" not in cache:
            cache["class_ladders"] = self._find_class_ladder_columns()
        return cache["class_ladders"]

    def _find_class_ladder_columns(self) -> list[tuple[int, Any]]:
        pairs, start = [], 0
        if not any(spec[0] == GROUPED_CLASSES for spec in self._specs):
            return pairs
        for f, (name, (kind, values, with_missing)) in enumerate(
                zip(self._names, self._specs, strict=True)):
            if kind == GROUPED_CLASSES:
                for label, _, ranks in values:
                    pairs.extend((start + j, label) for j in range(len(ranks)))
                    start += len(ranks)
            else:
                start += len(self._feature_conditions(f, name, kind, values, with_missing))
        return pairs

    def _ladder_layout(self, n_cuts: int) -> tuple | None:
        """The threshold ladders longer than ``n_cuts``, for :meth:`class_columns`, worked
        out once per fit (one-vs-rest asks once per class; over 30,000 conditions a
        pass over them took 30 ms): the ``<=`` columns of each ladder by ascending
        threshold, its feature's missing-value column (-1: none), and every ordinal
        column (``members``) with the global index of its threshold (``owner``; the
        thresholds of ladder ``l`` are ``offsets[l]`` onwards); None when no ladder is
        longer than ``n_cuts``."""
        cache = self.__dict__.setdefault("_ladder_layouts", {})   # emptied by fit
        key = n_cuts
        if key in cache:
            return cache[key]
        ladders: dict[int, list[int]] = {}
        for c, cond in enumerate(self.conditions_):   # grouped levels are no ladder: their
            if cond.kind == "ordinal" and cond.op == "<=" and not cond.grouped:   # cuts are few
                ladders.setdefault(cond.group, []).append(c)
        long = {g: sorted(cs, key=lambda c: self.conditions_[c].value)
                for g, cs in ladders.items() if len(cs) > n_cuts}
        if not long:
            cache[key] = None
            return None
        missing = {cond.group: c for c, cond in enumerate(self.conditions_)
                   if cond.kind == "categorical" and cond.value is MISSING}
        threshold = {}   # (group, value) -> global index of the threshold
        offsets = [0]
        for g, cs in long.items():
            for i, c in enumerate(cs):
                threshold[(g, self.conditions_[c].value)] = offsets[-1] + i
            offsets.append(offsets[-1] + len(cs))
        pairs = [(c, threshold[(cond.group, cond.value)])
                 for c, cond in enumerate(self.conditions_)
                 if cond.kind == "ordinal" and not cond.grouped
                 and (cond.group, cond.value) in threshold]
        members = np.array([c for c, _ in pairs], dtype=np.int64)
        owner = np.array([t for _, t in pairs], dtype=np.int64)
        layout = ([np.array(cs, dtype=np.int64) for cs in long.values()],
                  [missing.get(g, -1) for g in long], members, owner, np.array(offsets))
        cache[key] = layout
        return layout

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        """Return the readable condition of each output column."""
        check_is_fitted(self, "conditions_")
        return np.asarray([c.describe() for c in self.conditions_], dtype=object)


def numeric_values(values: np.ndarray, name: str) -> np.ndarray:
    """Return the non-missing ``values`` of a feature numeric in fit as floats, or raise."""
    if values.dtype.kind in "biuf":
        numeric = values.astype(np.float64)
    else:
        try:
            numeric = np.asarray(values, dtype=np.float64)
        except (ValueError, TypeError):
            bad = list(dict.fromkeys(str(v) for v in values if _parse_number(v) is None))
            raise FeatureTypeError(
                f"feature {name!r} was numeric in fit but holds non-numeric value(s) "
                f"{bad[:5]}{' ...' if len(bad) > 5 else ''}; pass numbers, or NaN for missing "
                f"(for a CSV: pandas.read_csv(..., na_values={bad[:1]}))"
            ) from None
    _check_finite(numeric, name)
    return numeric


def _unread(values: np.ndarray, reads: Any) -> list[str]:
    """The first six distinct ``values`` that ``reads`` (a reader of one-value arrays, None
    when it cannot read them) cannot read, as text: what a refusal names."""
    bad = []
    for v in dict.fromkeys(values.tolist()):   # each distinct value read once
        if reads(np.array([v], dtype=object)) is None:
            bad.append(str(v))
            if len(bad) > 5:
                break
    return bad


def duration_values(values: np.ndarray, name: str, form: str | None = None) -> np.ndarray:
    """Return the non-missing ``values`` of a feature that held durations in fit as days,
    or raise :class:`FeatureTypeError` naming the values that are not durations.
    ``form``: ``"hm"`` when fit read them as hours and minutes (``13:30``), which then
    read so among other forms too (:func:`satrules.rules.duration_days`)."""
    days = duration_days(values, form)
    if days is None:
        bad = _unread(values, lambda one: duration_days(one, form))
        if not bad:   # each reads alone, not together: hours:minutes among other forms
            bad = [str(v) for v in dict.fromkeys(values.tolist())
                   if duration_form(np.array([v], dtype=object)) is not None][:6]
        raise FeatureTypeError(
            f"feature {name!r} held durations in fit but holds non-duration value(s) "
            f"{bad[:5]}{' ...' if len(bad) > 5 else ''}; pass timedelta64 or timedelta values, "
            "or strings such as '3 days 04:00:00' (hours and minutes such as '13:30' only "
            "when every value is written so; or NaN / NaT for missing)")
    return days


def date_values(values: np.ndarray, name: str, order: str | None = None) -> np.ndarray:
    """Return the non-missing ``values`` of a feature that held dates in fit as days since
    1970-01-01, or raise :class:`FeatureTypeError` naming the values that are not dates.
    ``order``: how fit read dates written in numbers (``"mdy"``, ``"dmy"``; None when it
    saw none, and such dates are then read in the order the values tell, if they do)."""
    days = date_days(values, order)
    if days is None:
        bad = _unread(values, lambda one: date_days(one, order))
        if not bad:   # dates in numbers whose orders disagree (6/24/2009 and 24/6/2009)
            bad = [str(v) for v in dict.fromkeys(values.tolist())][:6]
        raise FeatureTypeError(
            f"feature {name!r} held dates in fit but holds non-date value(s) {bad[:5]}"
            f"{' ...' if len(bad) > 5 else ''}; pass ISO 8601 dates (2004-01-31), dates "
            f"with a month name (Feb-2018), datetime64 or datetime values (or NaN / NaT for "
            f"missing)" + (f"; dates in numbers are read {'month' if order == 'mdy' else 'day'}"
                           " first, as in fit" if order else ""))
    return days


def quantity_values(values: np.ndarray, name: str, unit: str) -> np.ndarray:
    """Return the non-missing ``values`` of a feature that held numbers written as
    ``unit`` in fit (:func:`satrules.rules.quantity_unit`) as floats, or raise
    :class:`FeatureTypeError` naming the values written otherwise."""
    numbers = quantity_numbers(values, unit)
    if numbers is None:
        bad = _unread(values, lambda one: quantity_numbers(one, unit))
        example = format_quantity("12000" if "{:," in unit else "12", unit)
        raise FeatureTypeError(
            f"feature {name!r} held numbers written as {example!r} in fit but holds "
            f"value(s) written otherwise: {bad[:5]}{' ...' if len(bad) > 5 else ''}; write "
            f"them as in fit (a plain number is not read: its unit is unknown), or NaN for "
            "missing")
    return numbers


#: the feature kinds binarized as threshold ladders, and how each reads its values
_THRESHOLD_KINDS = ("ordinal", "date", "duration", "quantity", "ordered")
_VALUES = {"ordinal": numeric_values, "date": date_values, "duration": duration_values}
