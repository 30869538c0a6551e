"""Rule objects: :class:`Condition`, :class:`Literal`, :class:`Rule` and :class:`RuleSet`.

A rule set is a DNF (``kind="dnf"``: an OR of terms, each an AND of literals)
or a CNF (``kind="cnf"``: an AND of clauses, each an OR of literals) over the
columns of a binarized matrix ``Xb`` (``n_samples x n_columns``, values 0/1).
A :class:`Literal` is one column (``Xb[:, column] == 1``) or its negation.

Empty semantics (pinned by the tests):

* an empty DNF term is **true**, and a DNF with no terms is always **false**;
* an empty CNF clause is **false**, and a CNF with no clauses is always **true**.

The binarizer (:class:`satrules.binarize.ThresholdBinarizer`) describes each
column by a :class:`Condition` (``feature <= value`` for ordinal thresholds,
``feature == value`` for one-hot and binary columns).  A negated literal reads
as the opposite condition (``>`` / ``!=``).  :meth:`RuleSet.simplify` uses the
conditions to drop redundant thresholds, implied one-hot literals and
contradictory terms (ALGORITHMS.md §2.7 and §3.8).

Examples
--------
>>> import numpy as np
>>> from satrules.rules import Condition, Literal, Rule, RuleSet
>>> conds = [Condition("age", "<=", 40, group=0), Condition("smoker", "==", "yes", group=1)]
>>> rs = RuleSet([Rule((Literal(0, negated=True), Literal(1)))], kind="dnf", n_columns=2,
...              conditions=conds)
>>> print(rs)
IF (age > 40 AND smoker = yes)
THEN positive
>>> rs.evaluate(np.array([[0, 1], [1, 1], [0, 0]])).tolist()
[True, False, False]
>>> print(rs.negate())
IF (age <= 40 OR smoker != yes)
THEN positive
"""

from __future__ import annotations

import contextlib
import datetime
import numbers
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Condition", "Literal", "Rule", "RuleSet", "MISSING"]

#: The category that stands for a missing value (``ThresholdBinarizer(missing="category")``).
MISSING = "<missing>"

#: :meth:`RuleSet.simplify` writes a negated threshold whose ``or x is missing`` the rule
#: settles as the other side's column (:meth:`RuleSet._settle_missing`); False only to
#: measure it (``benchmarks/bench_learner_variants.py``, variant ``no-settle``)
SETTLE_MISSING = True

_NEGATED_OP = {"<=": ">", ">": "<=", "==": "!="}
_SHOWN_OP = {"<=": "<=", ">": ">", "==": "=", "!=": "!="}

#: an ISO 8601 date, optionally with a time and a UTC offset: 2004-01-31, 2004-01-31 13:45,
#: 2004-01-31T13:45:10, 2004-01-31T13:45:10Z (how R and JSON exports write times), +01:00
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d*)?)?"
                       r"(?: ?(?:Z|[+-]\d{2}(?::?\d{2})?))?)?")
_DAY_NS = 86_400 * 10**9
#: month names (English, full or abbreviated) -> month number, for dates such as Feb-2018
_MONTHS = {name: i for i, month in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"), 1) for name in (month, month[:3])} | {"sept": 9}
#: a duration as pandas writes one: 3 days, 3 days 04:00:00, 0 days 00:30:00.5, -1 days
#: +23:00:00; or hours:minutes:seconds, 02:09:06 (a race time, a time of day)
_DURATION = re.compile(r"-?\d+ days?(?: [+-]?\d{2}:\d{2}:\d{2}(?:\.\d+)?)?"
                       r"|\d+:[0-5]\d:[0-5]\d(?:\.\d+)?")
#: hours and minutes without seconds, 13:30, 9:05, 123:45 (a time of day, an elapsed
#: time); a column reads so only when every value is written so (:func:`duration_form`)
_HOURS_MINUTES = re.compile(r"\d{1,3}:[0-5]\d")
#: the form name of such a column (:class:`Condition` unit ``"duration:hm"``)
HOURS_MINUTES = "hm"
#: a number written with a currency sign, a unit or thousands separators ($1,250.50, 13.5%,
#: 36 months): (text before, the number, text after), the texts without digits
_QUANTITY = re.compile(r"(\D*?)([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+)(\D*)")
#: the longest unit text after a quantity's number (``36 months``, ``120 mg/dl``)
_QUANTITY_SUFFIX = 20


def _temporal(values: np.ndarray, kind: str, text: re.Pattern, types: Any) -> tuple:
    """``(days, None)`` when ``values`` settle the question alone (none: zero days; numpy
    dtype ``kind``: its days; anything else that is neither all strings matching
    ``text`` nor all objects of ``types``: None), else ``(None, values as a list)`` for
    pandas to parse."""
    if len(values) == 0:   # nothing to contradict (a test split of missing values)
        return np.zeros(0), None
    if values.dtype.kind == kind:
        unit = "datetime64[ns]" if kind == "M" else "timedelta64[ns]"
        return values.astype(unit).astype(np.int64) / _DAY_NS, None
    if values.dtype.kind not in "OU":
        return None, None
    items = values.tolist()
    try:   # types checked once per distinct value, not once per row
        distinct = set(items)
    except TypeError:   # unhashable values (lists) are neither
        return None, None
    if all(isinstance(v, str) for v in distinct):
        return (None, items) if all(text.fullmatch(v) for v in distinct) else (None, None)
    return (None, items) if all(isinstance(v, types) for v in distinct) else (None, None)


def date_days(values: np.ndarray, order: str | None = None) -> np.ndarray | None:
    """Return non-missing date ``values`` as days since 1970-01-01 (float64), or None.

    Dates are numpy ``datetime64`` values, ``datetime.date`` / ``datetime.datetime`` /
    ``pandas.Timestamp`` objects (time zones converted to UTC), ``pandas.Period`` objects
    (the day the period starts: ``2018-02`` is 2018-02-01), or ISO 8601 strings
    (``2004-01-31``, optionally with a time ``13:45`` or ``13:45:10``, and then optionally
    a UTC offset, ``Z`` or ``+01:00``, converted to UTC), or strings with an English month
    name and a four-digit year (``Feb-2018``, ``1993 May``, ``5 January 2020``, ``Jan 5,
    2020``: the first of the month when no day is given), or with day and month in numbers
    and a four-digit year (``6/24/2009``, ``24.06.2009``, optionally with a time ``9:00``)
    read in ``order``, ``"mdy"`` (month first) or ``"dmy"``; ``order=None`` takes the order
    the values tell (:func:`date_order`), or in numbers year first with slashes or dots
    (``2016/01/05``, ``2016.1.5 00:47:36``).  None when any value is none of these or is not
    a valid date.

    Examples
    --------
    >>> date_days(np.array(["1970-01-02", "1970-01-03 12:00"], dtype=object)).tolist()
    [1.0, 2.5]
    >>> date_days(np.array(["1970-01-02T00:00:00Z", "1970-01-03T13:00+01:00"],
    ...                    dtype=object)).tolist()
    [1.0, 2.5]
    >>> date_days(np.array(["Jan-1970", "3 January 1970", "Jan 3, 1970"], dtype=object)).tolist()
    [0.0, 2.0, 2.0]
    >>> date_days(np.array(["1/13/1970", "1/2/1970"], dtype=object)).tolist()   # month first
    [12.0, 1.0]
    >>> date_days(np.array(["1/2/1970"], dtype=object)) is None   # which comes first?
    True
    >>> date_days(np.array(["1/2/1970"], dtype=object), order="dmy").tolist()
    [31.0]
    >>> date_days(np.array(["1970/01/02", "1970.1.3 12:00"], dtype=object)).tolist()
    [1.0, 2.5]
    >>> date_days(np.array(["1970-01-02", "soon"], dtype=object)) is None
    True
    """
    import pandas as pd

    days, items = _temporal(values, "M", _ISO_DATE, datetime.date | np.datetime64 | pd.Period)
    if days is None and items is None:
        items = _written_dates(values, order)
    if items is None:
        return days
    starts = {v: v.start_time for v in set(items) if isinstance(v, pd.Period)}
    if starts:   # a period is the day it starts
        items = [starts.get(v, v) for v in items]
    options = {"format": "ISO8601"} if isinstance(items[0], str) else {}
    try:
        stamps = pd.to_datetime(pd.Series(items, dtype=object), utc=True, **options)
    except (ValueError, TypeError, OverflowError):
        return None
    return stamps.dt.tz_localize(None).to_numpy("datetime64[ns]").astype(np.int64) / _DAY_NS


def _month_name_date(text: str) -> str | None:
    """``text`` as an ISO date when it is a date with a month name and a four-digit year
    (``Feb-2018``, ``1993 May``, ``5 January 2020``, ``Jan 5, 2020``; the first of the
    month when no day is given), else None."""
    parts = re.split(r"[\s,./-]+", text.strip())
    if not 2 <= len(parts) <= 3:
        return None
    months = [_MONTHS[p.lower()] for p in parts if p.lower() in _MONTHS]
    years = [p for p in parts if len(p) == 4 and p.isdigit()]
    days = [p for p in parts if len(p) <= 2 and p.isdigit()]
    if len(months) != 1 or len(years) != 1 or len(days) != len(parts) - 2:
        return None
    return f"{years[0]}-{months[0]:02d}-{int(days[0]) if days else 1:02d}"


#: a date written day and month in numbers, in either order, then a four-digit year, and
#: optionally a time: 6/24/2009, 24.06.2009, 12/17/1991 0:00:00, 9/6/2017 9:00
_NUMERIC_DATE = re.compile(r"(\d{1,2})([/.-])(\d{1,2})\2(\d{4})"
                           r"(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?")
#: a date written year first in numbers with slashes or dots, and optionally a time:
#: 2016/01/01, 2016/1/5 00:47:36, 2016.01.05 (openintro/mn_police_use_of_force's
#: response_datetime); year, month and day in that order, so no order to tell
_YEAR_FIRST_DATE = re.compile(r"(\d{4})([/.])(\d{1,2})\2(\d{1,2})"
                              r"(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?")
#: the orders a numeric date may be written in
DATE_ORDERS = ("mdy", "dmy")
#: the units of a condition other than a quantity's text
_UNITS = ("", "date", "date:mdy", "date:dmy", "duration", "duration:hm")


def date_order(values: np.ndarray) -> str | None:
    """The order of day and month in the dates of ``values`` written in numbers
    (``6/24/2009``): ``"mdy"`` when some first number is above 12 and no second one is,
    ``"dmy"`` the other way round, None when the values do not tell (``5/6/2016`` alone)
    or hold no such date.

    >>> date_order(np.array(["6/24/2009", "4/8/2007"], dtype=object))
    'mdy'
    >>> date_order(np.array(["24.06.2009", "2009-01-01"], dtype=object))
    'dmy'
    """
    if values.dtype.kind not in "OU":
        return None
    try:
        distinct = set(values.tolist())
    except TypeError:
        return None
    found = [_NUMERIC_DATE.fullmatch(v.strip()) for v in distinct if isinstance(v, str)]
    found = [m for m in found if m]
    if not found:
        return None
    first = max(int(m.group(1)) for m in found) > 12
    second = max(int(m.group(3)) for m in found) > 12
    return None if first == second else "dmy" if first else "mdy"


def _numeric_date(match: re.Match, order: str) -> str:
    """A :data:`_NUMERIC_DATE` match, read in ``order``, or a :data:`_YEAR_FIRST_DATE`
    match (``order="ymd"``), as an ISO date (and time).

    >>> _numeric_date(_YEAR_FIRST_DATE.fullmatch("2016/1/5 0:47:36"), "ymd")
    '2016-01-05 00:47:36'
    """
    year, month, day = (1, 3, 4) if order == "ymd" else \
        (4, 3, 1) if order == "dmy" else (4, 1, 3)
    text = f"{match.group(year)}-{int(match.group(month)):02d}-{int(match.group(day)):02d}"
    if match.group(5) is not None:
        text += f" {int(match.group(5)):02d}:{match.group(6)}:{match.group(7) or '00'}"
    return text


def _written_dates(values: np.ndarray, order: str | None = None) -> list | None:
    """The string ``values`` with the dates not written as ISO 8601 rewritten so: dates
    with a month name (:func:`_month_name_date`), or with day and month in numbers read in
    ``order`` (``None``: the order the values tell, :func:`date_order`); None unless every
    value is such a date or an ISO one."""
    if len(values) == 0 or values.dtype.kind not in "OU":
        return None
    items = values.tolist()
    try:
        distinct = set(items)
    except TypeError:
        return None
    iso = {}
    for v in distinct:   # most string columns fail on their first values
        if not isinstance(v, str):
            return None
        iso_date = _ISO_DATE.fullmatch(v)
        year_first = None if iso_date else _YEAR_FIRST_DATE.fullmatch(v.strip())
        match = None if iso_date or year_first else _NUMERIC_DATE.fullmatch(v.strip())
        if year_first is not None:
            iso[v] = _numeric_date(year_first, "ymd")
        elif match is not None:
            order = order or date_order(values)
            if order is None:
                return None
            iso[v] = _numeric_date(match, order)
        else:
            iso[v] = v if iso_date else _month_name_date(v)
            if iso[v] is None:
                return None
    return [iso[v] for v in items]


def written_as(text: str) -> str | None:
    """``"date"``, ``"duration"`` or ``"hours:minutes"`` when ``text`` is written as a
    date, a duration or hours and minutes as this module reads them (by its form alone:
    ``2004-02-31`` passes), else None.

    >>> written_as("6/24/2009"), written_as("02:09:06"), written_as("22:07"), written_as("7")
    ('date', 'duration', 'hours:minutes', None)
    """
    text = text.strip()
    if _ISO_DATE.fullmatch(text) or _NUMERIC_DATE.fullmatch(text) \
            or _YEAR_FIRST_DATE.fullmatch(text) or _month_name_date(text):
        return "date"
    if _DURATION.fullmatch(text):
        return "duration"
    return "hours:minutes" if _HOURS_MINUTES.fullmatch(text) else None


def duration_form(values: np.ndarray) -> str | None:
    """:data:`HOURS_MINUTES` (``"hm"``) when every one of the non-missing ``values`` is a
    string of hours and minutes (``13:30``, ``9:05``; no seconds), else None.

    Such a column is read as a duration of hours and minutes (:func:`duration_days`) and
    its thresholds print in that form (:func:`format_hours_minutes`), so the rules read
    as the data is written, whether the values are times of day or elapsed times.

    >>> duration_form(np.array(["13:30", "9:05"], dtype=object)), duration_form(
    ...     np.array(["13:30", "13:30:00"], dtype=object))
    ('hm', None)
    """
    if len(values) == 0 or values.dtype.kind not in "OU":
        return None
    try:
        distinct = set(values.tolist())
    except TypeError:
        return None
    return HOURS_MINUTES if all(isinstance(v, str) and _HOURS_MINUTES.fullmatch(v.strip())
                                for v in distinct) else None


def _hours_minutes_days(values: np.ndarray) -> np.ndarray:
    """Days of hours-and-minutes strings (all of them checked by :func:`duration_form`)."""
    distinct = {v: v.strip().split(":") for v in set(values.tolist())}
    minutes = {v: int(h) * 60 + int(m) for v, (h, m) in distinct.items()}
    return np.array([minutes[v] for v in values.tolist()], dtype=np.float64) / 1440.0


def duration_days(values: np.ndarray, form: str | None = None) -> np.ndarray | None:
    """Return non-missing duration ``values`` as days (float64), or None.

    Durations are numpy ``timedelta64`` values, ``datetime.timedelta`` /
    ``pandas.Timedelta`` objects, or strings as pandas writes them (``3 days``,
    ``3 days 04:00:00``, ``0 days 00:30:00``: how a ``timedelta64`` column reaches a CSV
    file) or as hours:minutes:seconds (``02:09:06``: a race time, a time of day).  Strings
    that are *all* hours and minutes (``13:30``, ``9:05``; :func:`duration_form`) read as
    such; mixed with other forms they do not (``22:07`` among ``38:31:00`` may be
    minutes and seconds).  ``form="hm"``: the feature was read as hours and minutes in
    fit, so hours-and-minutes strings read so among the other forms too.  None when any
    value is none of these.

    Examples
    --------
    >>> duration_days(np.array(["1 days 12:00:00", "0 days 06:00:00"], dtype=object)).tolist()
    [1.5, 0.25]
    >>> duration_days(np.array(["06:00:00", "36:00:00"], dtype=object)).tolist()
    [0.25, 1.5]
    >>> duration_days(np.array(["3 days", "soon"], dtype=object)) is None
    True
    >>> duration_days(np.array(["13:30", "6:00"], dtype=object)).tolist()
    [0.5625, 0.25]
    """
    if duration_form(values) is not None:
        return _hours_minutes_days(values)
    if form == HOURS_MINUTES and values.dtype.kind in "OU" and len(values):
        clock = np.array([isinstance(v, str) and _HOURS_MINUTES.fullmatch(v.strip()) is not None
                          for v in values.tolist()])
        if clock.any():
            rest = duration_days(values[~clock])
            if rest is None:
                return None
            days = np.empty(len(values))
            days[clock], days[~clock] = _hours_minutes_days(values[clock]), rest
            return days
    days, items = _temporal(values, "m", _DURATION, datetime.timedelta | np.timedelta64)
    if items is None:
        return days
    import pandas as pd

    try:
        spans = pd.to_timedelta(pd.Series(items, dtype=object))
    except (ValueError, TypeError, OverflowError):
        return None
    return spans.to_numpy("timedelta64[ns]").astype(np.int64) / _DAY_NS


def format_duration(days: float) -> str:
    """A duration of ``days`` as pandas writes it, without a zero time or zero days.

    >>> format_duration(3.0), format_duration(1.5), format_duration(0.25)
    ('3 days', '1 days 12:00:00', '06:00:00')
    """
    import pandas as pd

    text = str(pd.Timedelta(round(float(days) * _DAY_NS), unit="ns"))
    if text.endswith(" 00:00:00"):
        return text[:-9]
    return text[7:] if text.startswith("0 days ") else text


def format_hours_minutes(days: float) -> str:
    """A duration of ``days`` written as hours and minutes, as :func:`duration_form`
    columns are (``13:30``; seconds rounded away, so a threshold prints as the observed
    value it is).

    >>> format_hours_minutes(0.5625), format_hours_minutes(0.25), format_hours_minutes(5.25)
    ('13:30', '6:00', '126:00')
    """
    minutes = int(round(float(days) * 1440))
    return f"{'-' if minutes < 0 else ''}{abs(minutes) // 60}:{abs(minutes) % 60:02d}"


def quantity_parts(text: str) -> tuple[str, str, str] | None:
    """``(text before, number, text after)`` of a quantity string, the texts stripped of
    spaces, or None.  Before the number only currency signs may stand (``$``, ``€ ``: a
    word there names a code, ``Zone 3``, not an amount), after a sign of the number
    (``-$5``); after it any short text without digits (``%``, ``months``, ``mg/dl``).

    >>> quantity_parts("-$1,250.50"), quantity_parts("Zone 3")
    (('$', '-1,250.50', ''), None)
    """
    match = _QUANTITY.fullmatch(text.strip())
    if match is None:
        return None
    before, number, after = match.group(1).strip(), match.group(2), match.group(3).strip()
    if before[:1] in ("-", "+") and number[:1] not in ("-", "+"):   # -$5: a negative amount
        number, before = before[0] + number, before[1:].strip()
    if any(unicodedata.category(c) != "Sc" for c in before) or len(after) > _QUANTITY_SUFFIX \
            or "{" in before + after or "}" in before + after:
        return None
    return before, number, after


def quantity_unit(values: np.ndarray) -> tuple[str, np.ndarray] | None:
    """Return ``(unit, numbers)`` when the non-missing ``values`` are all numbers written
    alike with a currency sign, a unit or thousands separators, else None.

    ``unit`` is the text around the number with ``{}`` in its place (``{:,}`` when the
    numbers are written with thousands separators): ``"${:,}"`` for ``$1,250.50``,
    ``"{}%"`` for ``13.5%``, ``"{} months"`` for ``36 months``.  Every value must carry the
    same text before and after its number (spaces aside).  Plain numbers, written alike
    or not, are not quantities (None): :func:`numeric_values` reads them; nor is a single
    distinct value, which shows no unit: medicaldata/indo_rct's ``brush`` is ``0_no`` in
    601 rows and ``1_yes`` in one, and a training split without that row read ``_no`` as
    a unit, then refused ``1_yes`` at predict.

    Examples
    --------
    >>> unit, numbers = quantity_unit(np.array(["$1,250.50", "$980", "$12,000"], dtype=object))
    >>> unit, numbers.tolist()
    ('${:,}', [1250.5, 980.0, 12000.0])
    >>> quantity_unit(np.array(["13.5%", "7%"], dtype=object))[0]
    '{}%'
    >>> quantity_unit(np.array(["13.5%", "7 percent"], dtype=object)) is None
    True
    >>> quantity_unit(np.array(["0_no", "0_no"], dtype=object)) is None
    True
    """
    if len(values) == 0 or values.dtype.kind not in "OU":
        return None
    try:
        distinct = set(values.tolist())
    except TypeError:   # unhashable values (lists): not quantities
        return None
    if len(distinct) < 2 or not all(isinstance(v, str) for v in distinct):
        return None
    parts = {}
    for v in distinct:   # most string columns fail on their first values
        parts[v] = quantity_parts(v)
        if parts[v] is None:
            return None
    affixes = {(p[0], p[2]) for p in parts.values()}
    grouped = any("," in p[1] for p in parts.values())
    if len(affixes) != 1:
        return None
    before, after = affixes.pop()
    if not (before or after or grouped):
        return None
    space = " " if after and after[0].isalnum() else ""
    unit = f"{before}{'{:,}' if grouped else '{}'}{space}{after}"
    number = {v: float(p[1].replace(",", "")) for v, p in parts.items()}
    return unit, np.array([number[v] for v in values.tolist()], dtype=np.float64)


def is_quantity_unit(unit: str) -> bool:
    """Whether ``unit`` is a quantity's text, as :func:`quantity_unit` writes it."""
    mark = "{:,}" if "{:,}" in unit else "{}"
    rest = unit.replace(mark, "", 1)
    return mark in unit and "{" not in rest and "}" not in rest and \
        not any(c.isdigit() for c in rest)


def quantity_numbers(values: np.ndarray, unit: str) -> np.ndarray | None:
    """Return the non-missing ``values`` of a quantity feature as numbers, or None.

    Every value must be a string written with ``unit``'s text (spaces and thousands
    separators aside: ``$1,250`` reads where fit saw only ``$980``); None when one is
    not.  A plain number is not read: ``0.135`` for a feature written ``13.5%`` would be
    misread, so it is for the caller to refuse.

    >>> quantity_numbers(np.array(["$1,250", "$980", "$ 5"], dtype=object), "${:,}").tolist()
    [1250.0, 980.0, 5.0]
    >>> quantity_numbers(np.array(["12%", "12 kg"], dtype=object), "{}%") is None
    True
    """
    if len(values) == 0:   # nothing to contradict (a test split of missing values)
        return np.zeros(0)
    if values.dtype.kind not in "OU":
        return None
    mark = "{:,}" if "{:,}" in unit else "{}"
    before, _, after = unit.partition(mark)
    parsed = {}
    try:
        distinct = set(values.tolist())
    except TypeError:   # unhashable values (lists): not quantities
        return None
    for v in distinct:
        parts = quantity_parts(v) if isinstance(v, str) else None
        if parts is None or (parts[0], parts[2]) != (before.strip(), after.strip()):
            return None
        parsed[v] = float(parts[1].replace(",", ""))
    return np.array([parsed[v] for v in values.tolist()], dtype=np.float64)


def format_quantity(number: str, unit: str) -> str:
    """The text of ``number`` (as :meth:`Condition.describe` writes numbers) in ``unit``.

    >>> format_quantity("12500", "${:,}"), format_quantity("13.5", "{}%")
    ('$12,500', '13.5%')
    >>> format_quantity("-5", "${:,}")   # the sign before a currency sign
    '-$5'
    """
    mark = "{:,}" if "{:,}" in unit else "{}"
    if mark == "{:,}":
        match = re.fullmatch(r"(-?)(\d+)(\.\d+)?", number)
        if match:
            number = f"{match.group(1)}{int(match.group(2)):,}{match.group(3) or ''}"
    before, _, after = unit.partition(mark)
    if before and number.startswith("-"):
        return f"-{before}{number[1:]}{after}"
    return f"{before}{number}{after}"


def format_day(days: float) -> str:
    """The date (and time, unless it is midnight) ``days`` after 1970-01-01.

    >>> format_day(12418.0), format_day(12418.5)
    ('2004-01-01', '2004-01-01 12:00:00')
    """
    stamp = np.datetime64(round(float(days) * _DAY_NS), "ns")
    text = str(stamp.astype("datetime64[s]")).replace("T", " ")
    return text[:10] if text.endswith("00:00:00") else text


def _plain(value: Any) -> Any:
    """Return ``value`` as a plain Python scalar (JSON-friendly), keeping its meaning."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def level_key(value: Any) -> str:
    """The key a level of an ordered category is stored and looked up by: its text, a
    whole number written without a decimal point.  So a model written to JSON and read
    back maps values alike, and a level declared as ``3`` matches ``3``, ``3.0`` (a CSV
    column of whole numbers with missing cells is read as floats) and ``"3"``; a
    ``pd.cut`` interval is its text.

    >>> import pandas as pd
    >>> level_key(np.int64(3)), level_key(3.0), level_key("low"), level_key(pd.Interval(0, 5))
    ('3', '3', 'low', '(0, 5]')
    """
    value = _plain(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def level_ranks(values: np.ndarray, levels: Any) -> np.ndarray:
    """Return the rank of each of ``values`` among the ordered ``levels`` (float64; NaN for a
    missing value or one that is not a level).

    >>> level_ranks(np.array(["low", "high", None, "odd"], dtype=object),
    ...             ("low", "mid", "high")).tolist()
    [0.0, 2.0, nan, nan]
    """
    import pandas as pd

    rank = {level_key(v): float(i) for i, v in enumerate(levels)}
    codes, distinct = pd.factorize(np.asarray(values, dtype=object))   # missing: code -1
    table = np.array([rank.get(level_key(v), np.nan) for v in distinct] + [np.nan])
    return table[codes]   # one lookup per distinct value, not per row


def _value_text(value: Any) -> str:
    """A condition's value as its text prints it: a whole float without its ``.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    return str(value)


def _quoted(text: str) -> str:
    """``text`` in double quotes, a double quote inside it doubled."""
    return '"' + text.replace('"', '""') + '"'


def _level_text(text: str) -> str:
    """A level's text as a condition prints it: in double quotes (:func:`_quoted`) when it
    is empty or starts or ends with a space, which bare text would hide (``"No "`` of a
    file padded to a width is not the level ``No``)."""
    return text if text and text == text.strip() else _quoted(text)


def level_set_text(feature: str, members: Any, negated: bool = False) -> str:
    """``feature in {a, b}`` (or ``not in``), the members numbers by value (2 before 11),
    then text, the numbers in it by value too (s8 before s10).  When a member holds a
    comma, a brace or a double quote, or starts or ends with a space, every member is
    written in double quotes (a quote inside doubled), so that each can be told apart.

    >>> level_set_text("zip", ["11", "s10", "b", "2", "s8"], negated=True)
    'zip not in {2, 11, b, s8, s10}'
    >>> print(level_set_text("income", ["Above 36,400", "28,600 to 36,400"]))
    income in {"28,600 to 36,400", "Above 36,400"}

    A set of one level prints as one-hot conditions do, ``x = a`` (``x != a``), and the
    level ``<missing>`` alone as ``x is missing`` (``x is not missing``): the same rows,
    a level not seen in fit included.

    >>> level_set_text("model", ["grand prix"]), level_set_text("zip", ["b"], negated=True)
    ('model = grand prix', 'zip != b')
    """
    if len(members) == 1:
        member = _plain(next(iter(members)))
        if isinstance(member, str) and member == MISSING:
            return f"{feature} is {'not ' if negated else ''}missing"
        return f"{feature} {'!=' if negated else '='} {_level_text(_value_text(member))}"
    def natural(text: str) -> list:
        return [(0, int(part), "") if part.isdecimal() else (1, 0, part)
                for part in re.split(r"(\d+)", text) if part]

    texts = [str(v) for v in sorted(members, key=lambda v: (
        number_or_none(v) is None, number_or_none(v) or 0.0, natural(str(v)), str(v)))]
    if any(text != text.strip() or any(c in text for c in ',{}"') for text in texts):
        texts = [_quoted(text) for text in texts]
    return f"{feature} {'not in' if negated else 'in'} {{{', '.join(texts)}}}"


def grouped_ranks(values: np.ndarray, levels: Any) -> np.ndarray:
    """Ranks of ``values`` among grouped ``levels`` (:func:`level_ranks`), a missing value
    read as the level ``"<missing>"`` (NaN when that is no level, as for an unseen value).

    >>> grouped_ranks(np.array(["b", None, "z"], dtype=object), ("a", "b", MISSING)).tolist()
    [1.0, 2.0, nan]
    """
    values = np.asarray(values)
    return level_ranks(np.where(missing_mask(values), MISSING, values.astype(object)), levels)


def number_or_none(value: Any) -> float | None:
    """``value`` as a float when it is a number (``True`` is 1) or a numeric string, else
    None.

    >>> number_or_none("2.5"), number_or_none(3), number_or_none("x")
    (2.5, 3.0, None)
    """
    if isinstance(value, numbers.Real | np.bool_):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


_TRUTH_TEXTS = {"True": 1.0, "TRUE": 1.0, "true": 1.0, "False": 0.0, "FALSE": 0.0,
                "false": 0.0}


def _number_or_truth(value: Any) -> float | None:
    """:func:`number_or_none`, with the texts ``True`` and ``False`` (as Python, R and
    lower case write them) read as 1 and 0, as ``True`` and ``False`` themselves are."""
    if isinstance(value, str) and value in _TRUTH_TEXTS:
        return _TRUTH_TEXTS[value]
    return number_or_none(value)


def _same_number(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` read as the same number (:func:`_number_or_truth`), as
    :func:`category_matches` matches a value to a level of another spelling."""
    num = _number_or_truth(a)
    return num is not None and num == _number_or_truth(b)


def spelling_variants(values: Any, levels: Any) -> dict[str, str]:
    """The texts among ``values`` that are no level of ``levels`` but equal exactly one
    text level once spaces at either end are stripped and case is ignored, each mapped to
    that level (``{"No": "No "}``: a file padded to a width in fit, not at predict).

    Such a value is read as any value not seen in fit is -- it matches no level -- so the
    transforms warn about it (:func:`spelling_note`); not so a value that reads as the
    same number as its level (``TRUE`` for ``True``), which :func:`category_matches`
    matches.

    Examples
    --------
    >>> spelling_variants(np.array(["No", "yes", "Maybe", "no "], dtype=object),
    ...                   ["No ", "Yes", "<missing>"])
    {'No': 'No ', 'yes': 'Yes', 'no ': 'No '}
    """
    import pandas as pd

    by_key: dict[str, list[str]] = {}
    for level in levels:
        if isinstance(level, str) and level != MISSING:
            by_key.setdefault(level.strip().casefold(), []).append(level)
    if not by_key:
        return {}
    seen = {level for group in by_key.values() for level in group}
    out: dict[str, str] = {}
    for value in pd.unique(np.asarray(values, dtype=object)):
        if isinstance(value, str) and value not in seen:
            match = by_key.get(value.strip().casefold(), ())
            if len(match) == 1 and not _same_number(value, match[0]):   # TRUE is True
                out[str(value)] = str(match[0])
    return out


def spelling_note(variants: dict[str, dict[str, str]]) -> str:
    """The warning about :func:`spelling_variants` of each feature (``{name: {value:
    level}}``), or ``""`` when there are none.

    >>> spelling_note({"smoker": {"No": "No "}})[:70]
    "feature 'smoker': value(s) 'No' differ from the level(s) 'No ' seen in"
    """
    def shown(texts: list) -> str:
        more = f" ... ({len(texts)} in all)" if len(texts) > 5 else ""
        return ", ".join(map(repr, texts[:5])) + more

    return "; ".join(
        f"feature {name!r}: value(s) {shown(list(found))} differ from the level(s) "
        f"{shown(list(found.values()))} seen in fit only in spaces or case: as values not "
        f"seen in fit, they match no level (every '{name} = level' is false for them); "
        f"make them match to read them as those levels"
        for name, found in variants.items() if found)


def category_matches(values: np.ndarray, cats: Any) -> np.ndarray:
    """One 0/1 column per category of ``cats``: which of ``values`` are that category.

    A value is the category it equals (``==``, so ``2``, ``2.0`` and ``True`` equal
    ``2``, ``2`` and ``1`` as Python says).  A value that equals no category but reads as
    a number is the category that reads as the same number, when exactly one does: the
    level ``"12"`` of a column read as text in fit (a CSV column whose ``other`` cells
    made it text) is the value ``12`` or ``12.0`` of the same column read as numbers at
    predict (a CSV without those cells), which it never matched before 2026-12-05 --
    every condition on the column was silently false.  The texts ``True`` and ``False``
    (also ``TRUE``, ``true``, ...) read as 1 and 0 here, so the level ``"True"`` of a
    True/False column (CDPR keeps levels as text) is the value ``1`` of a batch that
    writes the column 0/1.  Other values match nothing (an unseen category).

    Parameters
    ----------
    values : ndarray of shape (n,)
        The column (missing values already replaced by a category, e.g. ``MISSING``).
    cats : sequence
        The categories seen in fit.

    Returns
    -------
    ndarray of shape (n, len(cats)), uint8

    Examples
    --------
    >>> category_matches(np.array([12, 9.0, "x", "other", 4], dtype=object),
    ...                  ["9", "12", "other"]).tolist()
    [[0, 1, 0], [1, 0, 0], [0, 0, 0], [0, 0, 1], [0, 0, 0]]
    >>> category_matches(np.array(["1", "0", "True"]), ["False", "True"]).tolist()
    [[0, 1], [1, 0], [0, 1]]
    """
    import pandas as pd

    obj = np.asarray(values, dtype=object)
    block = np.zeros((len(obj), len(cats)), dtype=np.uint8)
    try:
        codes, distinct = pd.factorize(obj, use_na_sentinel=False)
        exact: dict[Any, int] = {}
        for c, cat in enumerate(cats):
            exact.setdefault(cat, c)
    except TypeError:   # unhashable values: one comparison per category, as before
        for c, cat in enumerate(cats):
            block[:, c] = obj == cat
        return block
    by_number: dict[float, int] = {}
    for c, cat in enumerate(cats):
        num = _number_or_truth(cat)
        if num is not None and np.isfinite(num):
            by_number[num] = -1 if num in by_number else c   # -1: two categories read alike
    table = np.full(len(distinct) + 1, -1, dtype=np.int64)
    for d, value in enumerate(distinct):
        c = exact.get(value, -1)
        if c < 0:
            num = _number_or_truth(value)
            c = by_number.get(num, -1) if num is not None else -1
        table[d] = c
    index = table[codes]
    rows = np.flatnonzero(index >= 0)
    block[rows, index[rows]] = 1
    return block


def missing_mask(values: np.ndarray) -> np.ndarray:
    """Return where ``values`` is missing (NaN, None, pd.NA)."""
    if values.dtype.kind == "f":
        return np.isnan(values)
    if values.dtype.kind in "biuSU":
        return np.zeros(len(values), dtype=bool)
    try:
        import pandas as pd
        return np.asarray(pd.isna(values), dtype=bool)
    except ImportError:  # pragma: no cover - pandas is normally installed
        return np.array([v is None or (isinstance(v, float) and v != v) for v in values], bool)


@dataclass(frozen=True)
class Condition:
    """What one binarized column means: ``feature op value``.

    Parameters
    ----------
    feature : str
        Name of the input feature.
    op : {"<=", ">", "=="}
        ``"<="`` (or ``">"``) for an ordinal threshold column, ``"=="`` for a
        one-hot or binary column.  The negated literal reads ``">"`` (``"<="``) /
        ``"!="``.
    value : object
        The threshold (a number) or the category.
    group : int
        Index of the input feature; columns with the same ``group`` come from
        the same feature (one threshold ladder or one one-hot block).
    kind : {"ordinal", "categorical", "binary"}
        How the feature was binarized.  One-hot columns of a ``"categorical"``
        group are mutually exclusive, which :meth:`RuleSet.simplify` uses.
    nullable : bool, default=False
        The feature had missing values in training: this threshold column is 0
        on a missing value, so the *negated* literal holds there and reads
        ``(age > 40 or age is missing)``.
    unit : str, default=""
        ``"date"``: the feature holds dates and the threshold is a number of days since
        1970-01-01, printed as a date (``visit <= 2004-01-31``); ``"date:mdy"`` /
        ``"date:dmy"``: the same, with dates written in numbers read month first / day
        first (``6/24/2009``, :func:`date_order`).  ``"duration"``: the
        feature holds durations and the threshold is a number of days, printed as a
        duration (``stay <= 3 days``, ``wait > 06:00:00``); ``"duration:hm"``: the
        same, for a feature written as hours and minutes, printed so (``time <= 13:30``,
        :func:`duration_form`).  A text with ``{}`` (or
        ``{:,}``, for thousands separators) in it: the feature holds numbers written with
        that text, as :func:`quantity_unit` found them (``"${:,}"``, ``"{}%"``,
        ``"{} months"``), and the threshold prints the same way (``income > $52,500``).
    levels : tuple, default=()
        For an ordered category (a pandas ``category`` column with ``ordered=True``): its
        levels, lowest first (as :func:`level_key` stores them).  The threshold is then
        the rank of a level and prints as that level (``stage <= II``).  A value that is
        not one of the levels reads as a missing value: neither ``<=`` nor ``>`` any
        level, and ``stage is missing`` (which carries the levels too) holds.
    grouped : bool, default=False
        An unordered category whose ``levels`` are ranked by their rate of the described
        class (``ThresholdBinarizer(categories="grouped")``): ``<=`` a rank means "one of
        the levels up to that rank", ``>`` "one of the levels above it", and either prints
        as that set (``state in {CA, NY}``; the negation ``state not in {CA, NY}``).  A
        missing value is the level ``"<missing>"`` when that is one of the levels; a
        value that is no level is in no set, so the negation holds there.

    Examples
    --------
    >>> c = Condition("age", "<=", 41.5, group=0)
    >>> c.describe(), c.describe(negated=True)
    ('age <= 41.5', 'age > 41.5')
    >>> Condition("age", ">", 40, group=0, nullable=True).describe(negated=True)
    '(age <= 40 or age is missing)'
    >>> Condition("age", "==", MISSING, group=0, kind="categorical").describe()
    'age is missing'
    >>> Condition("visit", "<=", 12418.0, group=0, unit="date").describe(negated=True)
    'visit > 2004-01-01'
    >>> Condition("stage", "<=", 1.0, group=0, levels=("I", "II", "III")).describe()
    'stage <= II'
    >>> Condition("rate", "<=", 13.5, group=0, unit="{}%").describe(negated=True)
    'rate > 13.5%'
    >>> c = Condition("state", "<=", 1, group=0, levels=("NY", "CA", "TX"), grouped=True)
    >>> c.describe(), c.describe(negated=True)
    ('state in {CA, NY}', 'state not in {CA, NY}')
    >>> c.holds(np.array(["CA", "TX", "ZZ"], dtype=object)).tolist()
    [1, 0, 0]
    >>> Condition("zip", ">", 0, group=0, levels=("7", "11", "2"), grouped=True).describe()
    'zip in {2, 11}'
    """

    feature: str
    op: str
    value: Any
    group: int
    kind: str = "ordinal"
    nullable: bool = False
    unit: str = ""
    levels: tuple = ()
    grouped: bool = False

    def __post_init__(self) -> None:
        if self.grouped and (not self.levels or self.op not in ("<=", ">")):
            raise ValueError(f"Condition on grouped levels of {self.feature!r} needs the "
                             f"levels and op '<=' or '>', got {self.op} with "
                             f"{len(self.levels)} level(s)")
        if self.unit not in _UNITS and not is_quantity_unit(self.unit):
            raise ValueError(f"Condition unit must be one of {list(_UNITS)} or a text with "
                             f"'{{}}' for the number, got {self.unit!r}")
        if self.levels:
            object.__setattr__(self, "levels", tuple(level_key(v) for v in self.levels))
            rank = _plain(self.value)
            if not self.is_missing_indicator and (
                    self.op == "==" or self.unit or not isinstance(rank, (int, float)) or
                    rank != int(rank) or not 0 <= rank < len(self.levels)):
                raise ValueError(
                    f"Condition on the ordered levels of {self.feature!r}: the threshold "
                    f"must be the rank of a level (0..{len(self.levels) - 1}) with op '<=' "
                    f"or '>' (or the missing-value indicator), got {self.op} {self.value!r}")
        if self.op not in _NEGATED_OP:
            raise ValueError(f"Condition op must be '<=', '>' or '==', got {self.op!r}")
        if self.kind not in ("ordinal", "categorical", "binary"):
            raise ValueError(
                f"Condition kind must be ordinal/categorical/binary, got {self.kind!r}")

    def describe(self, negated: bool = False, missing_settled: bool = False) -> str:
        """Return the readable text of this condition, or of its negation.

        ``missing_settled``: the rule it is printed in already says whether the feature
        is missing (``x is not missing`` in the same AND, ``x is missing`` in the same
        OR), so a negated threshold of a nullable feature reads ``x > t``, not
        ``(x > t or x is missing)``.
        """
        op = _NEGATED_OP[self.op] if negated else self.op
        value = _plain(self.value)
        if self.is_missing_indicator:
            return f"{self.feature} is {'not ' if negated else ''}missing"
        if self.unit.startswith("date") and self.op != "==":
            shown = format_day(value)
        elif self.unit == "duration" and self.op != "==":
            shown = format_duration(value)
        elif self.unit == "duration:hm" and self.op != "==":
            shown = format_hours_minutes(value)
        elif self.grouped:
            return level_set_text(self.feature, self.grouped_members, negated)
        elif self.levels:
            shown = _level_text(str(self.levels[int(value)]))
        elif isinstance(value, str):
            shown = _level_text(value)
        else:
            shown = _value_text(value)
        if self.unit not in _UNITS and self.op != "==":
            shown = format_quantity(shown, self.unit)
        text = f"{self.feature} {_SHOWN_OP[op]} {shown}"
        if negated and self.nullable and self.op != "==" and not missing_settled:
            return f"({text} or {self.feature} is missing)"
        return text

    @property
    def grouped_members(self) -> tuple:
        """The levels a grouped condition names (``x in {...}``): those up to its rank
        (``<=``) or above it (``>``)."""
        cut = int(_plain(self.value)) + 1
        return self.levels[:cut] if self.op == "<=" else self.levels[cut:]

    @property
    def is_missing_indicator(self) -> bool:
        """Whether this is the ``x is missing`` condition."""
        value = _plain(self.value)
        return self.op == "==" and isinstance(value, str) and value == MISSING

    def holds(self, values: Any) -> np.ndarray:
        """Return where this condition holds on raw feature ``values`` (1-D), as uint8.

        Same semantics as :class:`~satrules.binarize.ThresholdBinarizer`: a missing
        value is neither ``<=`` nor ``>`` a threshold and only equals the ``"<missing>"``
        category; an unseen category equals no value.
        """
        values = np.asarray(values)
        if self.op in ("<=", ">"):
            return self.compare(self.numbers(values))
        miss = missing_mask(values)
        if isinstance(self.value, str) and self.value == MISSING:
            if self.levels:   # not a level: missing
                return np.isnan(level_ranks(values, self.levels)).astype(np.uint8)
            return miss.astype(np.uint8)
        obj = values.astype(object)
        return (category_matches(obj, [self.value])[:, 0].astype(bool) & ~miss).astype(np.uint8)

    def numbers(self, values: np.ndarray) -> np.ndarray:
        """Return the raw feature ``values`` (1-D) as the numbers a threshold condition
        compares (float, NaN where missing): ranks of ordered levels, days of dates and
        durations, the numbers of quantities, or the values themselves.  Conditions on one
        feature with the same ``unit`` and ``levels`` read it alike, so
        :meth:`RuleSet.binarize` reads it once for all of them.

        Examples
        --------
        >>> cond = Condition("size", "<=", 1, 0, levels=("S", "M", "L"))
        >>> cond.numbers(np.array(["L", "S", None], dtype=object)).tolist()
        [2.0, 0.0, nan]
        >>> cond.compare(cond.numbers(np.array(["L", "S", None], dtype=object))).tolist()
        [0, 1, 0]
        """
        values = np.asarray(values)
        miss = missing_mask(values)
        numeric = np.full(len(values), np.nan)
        if self.grouped:   # a missing value is the level "<missing>" (when it is one)
            numeric = grouped_ranks(values, self.levels)
        elif self.levels:
            numeric = level_ranks(values, self.levels)
        elif self.unit.startswith("date") or self.unit.startswith("duration"):
            unit = self.unit[:4] if self.unit.startswith("date") else "duration"
            days = date_days(values[~miss], self.unit[5:] or None) if unit == "date" \
                else duration_days(values[~miss], self.unit[9:] or None)
            if days is None:
                raise ValueError(f"feature {self.feature!r} holds {unit}s, but some "
                                 f"values are not {unit}s" + (
                                     " (ISO 8601 strings such as 2004-01-31, datetime64 "
                                     "or datetime objects)" if unit == "date" else
                                     " (timedelta64, timedelta objects or strings such "
                                     "as '3 days 04:00:00')"))
            numeric[~miss] = days
        elif self.unit:   # a quantity: numbers written with the unit's text
            known = quantity_numbers(values[~miss], self.unit)
            if known is None:
                raise ValueError(f"feature {self.feature!r} holds numbers written as "
                                 f"{self.unit!r}, but some values are not written so")
            numeric[~miss] = known
        else:
            numeric[~miss] = values[~miss].astype(np.float64)
        return numeric

    def compare(self, numeric: np.ndarray) -> np.ndarray:
        """Return where this threshold condition holds on :meth:`numbers` (uint8; false
        on NaN)."""
        with np.errstate(invalid="ignore"):
            held = numeric <= float(self.value) if self.op == "<=" else \
                numeric > float(self.value)
        return held.astype(np.uint8)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict (see :meth:`from_dict`)."""
        data = {"feature": str(self.feature), "op": self.op, "value": _plain(self.value),
                "group": int(self.group), "kind": self.kind}
        if self.nullable:   # written only when set, so older files read unchanged
            data["nullable"] = True
        if self.unit:
            data["unit"] = self.unit
        if self.levels:
            data["levels"] = list(self.levels)
        if self.grouped:
            data["grouped"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Condition:
        """Rebuild a condition written by :meth:`to_dict`."""
        return cls(data["feature"], data["op"], data["value"], int(data["group"]),
                   data.get("kind", "ordinal"), bool(data.get("nullable", False)),
                   str(data.get("unit", "")), tuple(data.get("levels", ())),
                   bool(data.get("grouped", False)))


@dataclass(frozen=True, order=True)
class Literal:
    """Binarized column ``column`` (``negated=False``) or its negation.

    Examples
    --------
    >>> Literal(3), ~Literal(3)
    (Literal(column=3, negated=False), Literal(column=3, negated=True))
    """

    column: int
    negated: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.column, numbers.Integral) or isinstance(self.column, bool) \
                or self.column < 0:
            raise ValueError(f"Literal column must be a non-negative int, got {self.column!r}")
        object.__setattr__(self, "column", int(self.column))
        object.__setattr__(self, "negated", bool(self.negated))

    def __invert__(self) -> Literal:
        return Literal(self.column, not self.negated)

    def describe(self, conditions: Sequence[Condition] | None = None,
                 missing_settled: bool = False) -> str:
        """Return the readable text (``age > 41``), or ``x3`` / ``NOT x3`` without conditions
        (``missing_settled``: see :meth:`Condition.describe`)."""
        if conditions is not None:
            return conditions[self.column].describe(self.negated, missing_settled)
        return f"NOT x{self.column}" if self.negated else f"x{self.column}"


@dataclass(frozen=True)
class Rule:
    """A term (in a DNF) or a clause (in a CNF): a tuple of :class:`Literal` objects.

    Examples
    --------
    >>> r = Rule((Literal(0), Literal(2, True)))
    >>> len(r), r.columns
    (2, (0, 2))
    """

    literals: tuple[Literal, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        lits = tuple(self.literals)
        if not all(isinstance(lit, Literal) for lit in lits):
            raise ValueError("Rule literals must be Literal objects")
        object.__setattr__(self, "literals", lits)

    def __len__(self) -> int:
        return len(self.literals)

    def __iter__(self):
        return iter(self.literals)

    @property
    def columns(self) -> tuple[int, ...]:
        """Columns of the literals, in order."""
        return tuple(lit.column for lit in self.literals)

    def negate(self) -> Rule:
        """Return the rule with every literal negated (De Morgan's literal part)."""
        return Rule(tuple(~lit for lit in self.literals))


def _merge_level_sets(rule: Any, conds: Sequence[Condition], texts: list[str],
                      dnf: bool) -> list[str]:
    """``texts`` (one per literal of ``rule``) with the grouped-level literals of one feature
    (of one ladder or of several, one per class) printed as one set: in a DNF term their
    AND, in a CNF clause their OR, as ``x in {...}`` or, when a level not seen in fit
    satisfies it (all negated in an AND, any in an OR), ``x not in {...}``; at the first
    such literal's place.  ``zip in {a, b, c} AND zip not in {a}`` prints ``zip in {b,
    c}``.  Likewise two or more one-hot levels of one feature: ``x != a AND x != b`` in a
    DNF term prints ``x not in {a, b}`` (true, as they are, for a level fit never saw and
    for a missing value), ``x = a OR x = b`` in a CNF clause ``x in {a, b}``."""
    lits = list(rule)
    features: dict[tuple, list[int]] = {}
    for i, lit in enumerate(lits):
        cond = conds[lit.column]
        if cond.grouped:
            features.setdefault((cond.feature, cond.group), []).append(i)
    drop: set[int] = set()
    for (feature, _), where in features.items():
        names = conds[lits[where[0]].column].levels
        if len(where) < 2 or any(set(conds[lits[i].column].levels) != set(names)
                                 for i in where):
            continue
        held = []
        for i in where:
            inside = set(conds[lits[i].column].grouped_members)
            held.append(np.array([v in inside for v in names]) ^ lits[i].negated)
        both = np.logical_and.reduce(held) if dnf else np.logical_or.reduce(held)
        if both.all() or not both.any():   # constant on the levels: leave it as written
            continue
        negated = [lits[i].negated for i in where]
        unseen = all(negated) if dnf else any(negated)   # a level not seen in fit
        members = [v for v, h in zip(names, both, strict=True) if h != unseen]
        texts[where[0]] = level_set_text(feature, members, negated=unseen)
        drop.update(where[1:])
    # one-hot levels of one feature: two or more exclusions in a DNF term (``x != a AND
    # x != b``), or two or more levels in a CNF clause (``x = a OR x = b``)
    onehot: dict[tuple, list[int]] = {}
    for i, lit in enumerate(lits):
        cond = conds[lit.column]
        if cond.kind == "categorical" and cond.op == "==" and not cond.grouped \
                and not cond.is_missing_indicator and lit.negated == dnf:
            onehot.setdefault((cond.feature, cond.group), []).append(i)
    for (feature, _), where in onehot.items():
        if len(where) > 1:
            members = [_value_text(_plain(conds[lits[i].column].value)) for i in where]
            texts[where[0]] = level_set_text(feature, members, negated=dnf)
            drop.update(where[1:])
    return [text for i, text in enumerate(texts) if i not in drop]


class RuleSet:
    """A DNF or CNF rule set over ``n_columns`` binarized columns.

    Parameters
    ----------
    rules : iterable of Rule (or of iterables of Literal)
        The terms (DNF) or clauses (CNF).
    kind : {"dnf", "cnf"}
    n_columns : int
        Number of binarized columns (without complements).
    conditions : sequence of Condition, optional
        One per column (the binarizer's ``conditions_``): readable names and the
        threshold / one-hot structure used by :meth:`simplify`.
    label : str, optional
        The class the rule set predicts when it holds (the estimators set it), named by
        :meth:`to_text`; without it the text says ``THEN positive``.

    Examples
    --------
    >>> import numpy as np
    >>> rs = RuleSet([[Literal(1, True)]], kind="dnf", n_columns=3)
    >>> print(rs)
    IF (NOT x1)
    THEN positive
    >>> rs.evaluate(np.array([[0, 0, 1], [0, 1, 0]])).tolist()
    [True, False]
    >>> rs.n_rules, rs.n_literals, rs.max_rule_size
    (1, 1, 1)
    >>> RuleSet.from_dict(rs.to_dict()) == rs
    True
    """

    def __init__(self, rules: Iterable[Rule | Iterable[Literal]], kind: str = "dnf",
                 n_columns: int = 0, conditions: Sequence[Condition] | None = None,
                 label: str | None = None) -> None:
        if kind not in ("dnf", "cnf"):
            raise ValueError(f"RuleSet kind must be 'dnf' or 'cnf', got {kind!r}")
        self.rules = tuple(r if isinstance(r, Rule) else Rule(tuple(r)) for r in rules)
        self.kind = kind
        self.n_columns = int(n_columns)
        if conditions is not None:
            conditions = tuple(conditions)
            if len(conditions) != self.n_columns:
                raise ValueError(f"{len(conditions)} conditions for {self.n_columns} columns")
        self.conditions = conditions
        self.label = None if label is None else str(label)
        for rule in self.rules:
            for lit in rule.literals:
                if lit.column >= self.n_columns:
                    raise ValueError(
                        f"literal on column {lit.column} but the rule set has "
                        f"{self.n_columns} columns"
                    )

    # ------------------------------------------------------------------ metrics
    @property
    def n_rules(self) -> int:
        """Number of terms (DNF) or clauses (CNF)."""
        return len(self.rules)

    @property
    def n_literals(self) -> int:
        """Total number of literals over all rules."""
        return sum(len(rule) for rule in self.rules)

    @property
    def max_rule_size(self) -> int:
        """Number of literals of the largest rule (0 for an empty rule set)."""
        return max((len(rule) for rule in self.rules), default=0)

    @property
    def never_true(self) -> bool:
        """True when the rule set is false on every row by its form alone: a DNF
        without terms, or a CNF with an empty clause.

        Examples
        --------
        >>> from satrules.rules import Literal, Rule, RuleSet
        >>> RuleSet([], kind="dnf", n_columns=2).never_true
        True
        >>> RuleSet([Rule([Literal(0)])], kind="dnf", n_columns=2).never_true
        False
        >>> RuleSet([Rule([])], kind="cnf", n_columns=2).never_true
        True
        """
        if self.kind == "dnf":
            return not self.rules
        return any(not len(rule) for rule in self.rules)

    @property
    def always_true(self) -> bool:
        """True when the rule set holds on every row by its form alone: a DNF with an
        empty term, or a CNF without clauses.

        Examples
        --------
        >>> from satrules.rules import Literal, Rule, RuleSet
        >>> RuleSet([Rule([])], kind="dnf", n_columns=2).always_true
        True
        >>> RuleSet([], kind="cnf", n_columns=2).always_true
        True
        >>> RuleSet([Rule([Literal(0)])], kind="cnf", n_columns=2).always_true
        False
        """
        if self.kind == "cnf":
            return not self.rules
        return any(not len(rule) for rule in self.rules)

    # --------------------------------------------------------------- semantics
    def evaluate(self, Xb: Any) -> np.ndarray:
        """Return the rule set's truth value on every row of the binarized matrix ``Xb``.

        Parameters
        ----------
        Xb : array-like of shape (n_samples, n_columns), values 0/1

        Returns
        -------
        ndarray of bool, shape (n_samples,)
        """
        Xb = np.asarray(Xb)
        if Xb.ndim != 2 or Xb.shape[1] != self.n_columns:
            raise ValueError(f"expected a 2-D matrix with {self.n_columns} columns, got {Xb.shape}")
        def columns(idx: list[int]) -> np.ndarray:
            # cast only the columns a rule reads: casting a whole 20,000 x 3,800 uint8
            # matrix was 18 ms of every whole-training-set objective
            sub = Xb[:, idx]
            return sub if sub.dtype == bool else sub.astype(bool)

        # rules are short: index their columns (O(n * literals)) instead of an n x m product
        dnf = self.kind == "dnf"
        out = np.full(len(Xb), not dnf)
        for rule in self.rules:
            pos = columns([lit.column for lit in rule.literals if not lit.negated])
            neg = columns([lit.column for lit in rule.literals if lit.negated])
            if dnf:   # term: every positive literal on a 1 and every negative literal on a 0
                out |= pos.all(axis=1) & ~neg.any(axis=1)
            else:     # clause: some positive literal on a 1 or some negative literal on a 0
                out &= pos.any(axis=1) | ~neg.all(axis=1)
        return out

    def rule_values(self, Xb: Any) -> np.ndarray:
        """Return each rule's truth value (a DNF's terms, a CNF's clauses) on every row.

        Parameters
        ----------
        Xb : array-like of shape (n_samples, n_columns), values 0/1

        Returns
        -------
        ndarray of bool, shape (n_samples, n_rules)
            The rule set's value is ``any`` of a row's (DNF) or ``all`` of them (CNF).

        Examples
        --------
        >>> rs = RuleSet([[Literal(0)], [Literal(1, True)]], "dnf", 2)
        >>> rs.rule_values(np.array([[1, 1], [0, 0], [0, 1]])).tolist()
        [[True, False], [False, True], [False, False]]
        """
        Xb = np.asarray(Xb)
        if Xb.ndim != 2 or Xb.shape[1] != self.n_columns:
            raise ValueError(f"expected a 2-D matrix with {self.n_columns} columns, got {Xb.shape}")
        return np.stack([RuleSet([rule], self.kind, self.n_columns).evaluate(Xb)
                         for rule in self.rules], axis=1) if self.rules else \
            np.zeros((len(Xb), 0), dtype=bool)

    def rule_text(self, index: int) -> str:
        """The text of rule ``index`` as :meth:`to_text` prints it, without parentheses:
        its literals joined by ``AND`` (a DNF term) or ``OR`` (a CNF clause).

        Examples
        --------
        >>> RuleSet([[Literal(0), Literal(1, True)]], "cnf", 2).rule_text(0)
        'x0 OR NOT x1'
        """
        rule = self.rules[index]
        if not len(rule):
            return "TRUE" if self.kind == "dnf" else "FALSE"
        return (" AND " if self.kind == "dnf" else " OR ").join(self._literal_texts(rule))

    def failed_text(self, index: int) -> str:
        """What is true of a row on which clause ``index`` of a CNF fails: every one of its
        literals is false, so the text is the clause's negation, a conjunction of the
        negated literals (``x <= 3 OR city = Oslo`` fails: ``x > 3 AND city != Oslo``).

        Examples
        --------
        >>> RuleSet([[Literal(0), Literal(1, True)]], "cnf", 2).failed_text(0)
        'NOT x0 AND x1'
        """
        if self.kind != "cnf":
            raise ValueError("failed_text is for the clauses of a CNF")
        return RuleSet([self.rules[index].negate()], "dnf", self.n_columns,
                       self.conditions).rule_text(0)

    def binarize(self, X: Any) -> np.ndarray:
        """Return the 0/1 matrix of ``X``'s raw features through the attached conditions.

        ``X`` is a DataFrame (columns found by feature name) or an array (column
        = the condition's ``group``, the input feature index).

        Examples
        --------
        >>> rs = RuleSet([[Literal(0, True)]], "dnf", 1, [Condition("age", "<=", 40, 0)])
        >>> rs.evaluate_raw(np.array([[30], [50]])).tolist()
        [False, True]
        """
        if self.conditions is None:
            raise ValueError("raw evaluation needs conditions; use named(conditions) first")
        frame = hasattr(X, "columns") and hasattr(X, "iloc")
        if frame and not all(isinstance(c, str) for c in X.columns):
            frame = False   # columns named 0, 1, ...: known by position, as in fit
        arr = None if frame else np.asarray(X)
        if arr is not None and arr.ndim != 2:
            raise ValueError(f"expected a 2-D array of raw features, got shape {arr.shape}")
        cols: list = [None] * len(self.conditions)
        # the one-hot conditions of a feature: one category_matches call for all its levels
        onehot: dict[Any, list[int]] = {}
        numbers: dict[tuple, np.ndarray] = {}
        for j, cond in enumerate(self.conditions):
            if frame:
                if cond.feature not in X.columns:
                    raise ValueError(f"X has no column {cond.feature!r}")
            elif cond.group >= arr.shape[1]:
                raise ValueError(f"X has {arr.shape[1]} columns; the rules read column "
                                 f"{cond.group} ({cond.feature!r})")
            key = cond.feature if frame else cond.group
            if cond.op in ("<=", ">"):   # each feature read as numbers once per reading
                reading = (key, cond.unit, tuple(cond.levels or ()), cond.grouped)
                if reading not in numbers:
                    numbers[reading] = cond.numbers(X[key].to_numpy() if frame
                                                    else arr[:, key])
                cols[j] = cond.compare(numbers[reading])
            elif not cond.levels and not cond.is_missing_indicator:
                onehot.setdefault(key, []).append(j)
            else:
                cols[j] = cond.holds(X[key].to_numpy() if frame else arr[:, key])
        for key, members in onehot.items():
            values = X[key].to_numpy() if frame else arr[:, key]
            cats = [self.conditions[j].value for j in members]
            held = category_matches(values.astype(object), cats)
            held[missing_mask(values)] = 0
            first: dict[Any, int] = {}   # a condition repeated reads its first copy's column
            for c, cat in enumerate(cats):
                with contextlib.suppress(TypeError):
                    first.setdefault(cat, c)
            for c, j in enumerate(members):
                with contextlib.suppress(TypeError):
                    c = first.get(cats[c], c)
                cols[j] = held[:, c]
        n = len(X)
        return np.stack(cols, axis=1) if cols else np.zeros((n, 0), dtype=np.uint8)

    def evaluate_raw(self, X: Any) -> np.ndarray:
        """Return the rule set's truth value on raw (not binarized) data, via the conditions."""
        return self.evaluate(self.binarize(X))

    def negate(self) -> RuleSet:
        """Return the logical negation (De Morgan): a DNF becomes a CNF and back."""
        return RuleSet([rule.negate() for rule in self.rules],
                       kind="cnf" if self.kind == "dnf" else "dnf",
                       n_columns=self.n_columns, conditions=self.conditions)

    def named(self, conditions: Sequence[Condition] | None) -> RuleSet:
        """Return the same rules with ``conditions`` attached (for readable text)."""
        return RuleSet(self.rules, kind=self.kind, n_columns=self.n_columns,
                       conditions=conditions, label=self.label)

    def labelled(self, label: Any) -> RuleSet:
        """Return the same rules naming ``label`` as the class they predict (see :meth:`to_text`).

        Examples
        --------
        >>> print(RuleSet([[Literal(0)]], "dnf", 1).labelled("malignant"))
        IF (x0)
        THEN malignant
        """
        return RuleSet(self.rules, kind=self.kind, n_columns=self.n_columns,
                       conditions=self.conditions, label=label)

    def simplify(self, remove_rules: bool = True) -> RuleSet:
        """Return a logically equivalent, smaller rule set (ALGORITHMS.md §2.7, §3.8).

        Inside each rule: repeated literals are kept once; with conditions, a
        negated threshold of a feature with missing values whose ``or x is missing``
        the rule settles is read as the other side's column (:meth:`_settle_missing`),
        only the tightest threshold per feature and direction is kept (in a
        DNF term the smallest ``<=`` and the largest ``>``; in a CNF clause the
        largest ``<=`` and the smallest ``>``) and one-hot literals implied by
        another literal of the same group are dropped.  With ``remove_rules``
        (default), a DNF term that can never hold (``a AND NOT a``, an empty
        threshold interval, two values of one categorical) is deleted, as is a
        CNF clause that always holds; identical and subsumed rules are deleted;
        and a DNF containing an always-true term (a CNF containing an
        always-false clause) becomes that single empty rule.
        ``remove_rules=False`` keeps the rules one-to-one (used to anchor the
        next IMLI partition).

        Equivalence holds on every 0/1 input for the literal-only steps, and on
        every input the binarizer can produce for the condition-based steps
        (threshold columns of one feature are monotone, one-hot columns of one
        categorical group have at most one 1).

        Examples
        --------
        >>> c = [Condition("age", "<=", 18, 0), Condition("age", "<=", 20, 0)]
        >>> rs = RuleSet([[Literal(0, True), Literal(1, True)], [Literal(0), Literal(1, True)]],
        ...              "dnf", 2, c)
        >>> print(rs.simplify())
        IF (age > 20)
        THEN positive
        """
        rules = [self._simplify_rule(rule) for rule in self.rules]
        if not remove_rules:
            return RuleSet([r for r, _ in rules], self.kind, self.n_columns, self.conditions,
                           self.label)
        kept: list[Rule] = []
        for rule, trivial in rules:
            if trivial:  # term always false (DNF) / clause always true (CNF): no effect
                continue
            if len(rule) == 0:  # term always true / clause always false: decides everything
                return RuleSet([rule], self.kind, self.n_columns, self.conditions, self.label)
            kept.append(rule)
        return RuleSet(_drop_subsumed(kept), self.kind, self.n_columns, self.conditions,
                       self.label)

    def _simplify_rule(self, rule: Rule) -> tuple[Rule, bool]:
        """Return (pruned rule, whether it is trivial: a false term / a true clause)."""
        lits = sorted(set(rule.literals), key=rule.literals.index)
        if self.conditions is not None and SETTLE_MISSING:
            lits = self._settle_missing(lits)
        chosen = set(lits)
        trivial = any(~lit in chosen for lit in lits)
        if self.conditions is not None:
            conjunctive = self.kind == "dnf"
            groups: dict[int, list[Literal]] = {}
            for lit in lits:
                groups.setdefault(self.conditions[lit.column].group, []).append(lit)
            for members in groups.values():
                drop, empty = self._prune_group(members, conjunctive)
                chosen -= drop
                trivial = trivial or empty
        return Rule(tuple(lit for lit in lits if lit in chosen)), trivial

    def _settle_missing(self, lits: list[Literal]) -> list[Literal]:
        """``lits`` with each threshold literal whose ``or x is missing`` the rule settles
        written as the threshold column of the other side.

        A threshold column of a feature with missing values is 0 on a missing value, so
        its negation reads ``(x <= t or x is missing)``.  In a DNF term that also holds a
        literal false on a missing ``x`` (a threshold column, ``x is not missing``), the
        ``or x is missing`` never matters: ``NOT (x > t)`` is then the column ``x <= t``,
        which the term's other bounds on ``x`` may imply (``x <= 1 AND x <= 5`` keeps
        ``x <= 1``).  In a CNF clause with a literal true on a missing ``x``, dually, a
        threshold column ``x <= t`` is ``NOT (x > t)``.  Equal on every row the
        binarizer makes; a threshold without its other side's column stays as it is.
        """
        conds = self.conditions
        dnf = self.kind == "dnf"

        def threshold(cond: Condition) -> bool:
            return cond.nullable and cond.op in ("<=", ">")

        settled = {conds[lit.column].group for lit in lits
                   if (threshold(conds[lit.column]) and lit.negated != dnf)
                   or (conds[lit.column].is_missing_indicator and lit.negated == dnf)}
        if not any(threshold(conds[lit.column]) and lit.negated == dnf
                   and conds[lit.column].group in settled for lit in lits):
            return lits
        if getattr(self, "_other_sides", None) is None:   # (group, op, value) -> column
            self._other_sides = {(c.group, c.op, c.value): j for j, c in enumerate(conds)
                                 if threshold(c)}
        out = []
        for lit in lits:
            cond = conds[lit.column]
            if threshold(cond) and lit.negated == dnf and cond.group in settled:
                other = self._other_sides.get(
                    (cond.group, ">" if cond.op == "<=" else "<=", cond.value))
                if other is not None:
                    lit = Literal(other, not dnf)
            out.append(lit)
        return list(dict.fromkeys(out))

    def _prune_group(self, members: list[Literal], conjunctive: bool) -> tuple[set, bool]:
        """Prune the literals of one feature; return (dropped, rule is trivial)."""
        conds = self.conditions
        ordinal = [lit for lit in members if conds[lit.column].op == "<="]
        onehot = [lit for lit in members if conds[lit.column].op == "==" and
                  conds[lit.column].kind == "categorical"]
        drop: set[Literal] = set()
        trivial = False
        if ordinal:
            le = [lit for lit in ordinal if not lit.negated]   # x <= t
            gt = [lit for lit in ordinal if lit.negated]       # x > t
            value = lambda lit: conds[lit.column].value  # noqa: E731
            if conjunctive:   # AND: x <= min, x > max; empty when max(gt) >= min(le)
                keep_le = min(le, key=value) if le else None
                keep_gt = max(gt, key=value) if gt else None
                trivial = bool(le and gt and value(keep_gt) >= value(keep_le))
            else:             # OR: x <= max, x > min; tautology when min(gt) <= max(le)
                keep_le = max(le, key=value) if le else None
                keep_gt = min(gt, key=value) if gt else None
                trivial = bool(le and gt and value(keep_gt) <= value(keep_le))
            drop |= {lit for lit in ordinal if lit is not keep_le and lit is not keep_gt}
        # '>' columns (features with missing values): 'x > t' and its negation
        # '(x <= t or x is missing)'; within each of the two families the tightest literal
        # implies the others in an AND (the loosest is implied by them in an OR)
        above = [lit for lit in members if conds[lit.column].op == ">"]
        for family, tighter_is_larger in (([lit for lit in above if not lit.negated], True),
                                          ([lit for lit in above if lit.negated], False)):
            if len(family) > 1:
                pick = max if tighter_is_larger == conjunctive else min
                keep = pick(family, key=lambda lit: conds[lit.column].value)
                drop |= {lit for lit in family if lit is not keep}
        # across the two kinds of column: 'x <= b AND x > a' with a >= b holds on no row
        # (a missing x fails both), '(x > a or x is missing) OR (x <= b or x is missing)'
        # with a <= b on every row
        sides = [[conds[lit.column].value for lit in ordinal if lit.negated != conjunctive],
                 [conds[lit.column].value for lit in above if lit.negated != conjunctive]]
        if all(sides):
            trivial = trivial or (max(sides[1]) >= min(sides[0]) if conjunctive
                                  else min(sides[0]) <= max(sides[1]))
        drop_missing, trivial_missing = self._prune_missing(members, conjunctive)
        drop |= drop_missing
        trivial = trivial or trivial_missing
        if onehot:
            eq = [lit for lit in onehot if not lit.negated]   # x == v
            ne = [lit for lit in onehot if lit.negated]       # x != v
            eq_vals = {conds[lit.column].value for lit in eq}
            ne_vals = {conds[lit.column].value for lit in ne}
            if conjunctive:
                if len(eq_vals) > 1:      # x == a AND x == b (a != b): impossible
                    trivial = True
                elif eq:                  # x == a implies x != b for every b != a
                    drop |= {lit for lit in ne if conds[lit.column].value not in eq_vals}
            else:
                if len(ne_vals) > 1:      # x != a OR x != b (a != b): always true
                    trivial = True
                elif ne:                  # x == b implies x != a, so (x == b) is absorbed
                    drop |= {lit for lit in eq if conds[lit.column].value not in ne_vals}
        return drop, trivial

    def _prune_missing(self, members: list[Literal], conjunctive: bool) -> tuple[set, bool]:
        """Prune an ``x is missing`` literal implied or contradicted by a threshold literal.

        A threshold column of a nullable feature is 0 on a missing value, so a positive
        threshold literal implies ``x is not missing`` and its negation holds when ``x`` is
        missing.  In a DNF term (AND): a positive threshold literal makes ``x is not
        missing`` redundant and ``x is missing`` impossible.  In a CNF clause (OR): a
        negated threshold literal absorbs ``x is missing`` and makes ``x is not missing``
        a tautology.
        """
        conds = self.conditions
        missing = [lit for lit in members if conds[lit.column].op == "==" and
                   isinstance(conds[lit.column].value, str) and
                   conds[lit.column].value == MISSING]
        nullable = [lit for lit in members if conds[lit.column].op != "==" and
                    conds[lit.column].nullable]
        if not missing or not nullable:
            return set(), False
        if conjunctive and any(not lit.negated for lit in nullable):
            return {lit for lit in missing if lit.negated}, any(not m.negated for m in missing)
        if not conjunctive and any(lit.negated for lit in nullable):
            return {lit for lit in missing if not lit.negated}, any(m.negated for m in missing)
        return set(), False

    # ----------------------------------------------------------------- text / io
    def to_text(self, positive: str | None = None) -> str:
        """Return readable IF-THEN text; ``positive`` names what the rule set predicts.

        ``positive=None`` (default) uses the rule set's :attr:`label` (the class an
        estimator's rule set predicts), or ``"positive"`` for a bare rule set.
        """
        if positive is None:
            positive = "positive" if self.label is None else self.label
        joiner, outer = (" AND ", "\nOR ") if self.kind == "dnf" else (" OR ", "\nAND ")
        parts = ["(" + joiner.join(self._literal_texts(rule)) + ")"
                 if len(rule) else ("(TRUE)" if self.kind == "dnf" else "(FALSE)")
                 for rule in self.rules]
        if not parts:
            parts = ["FALSE" if self.kind == "dnf" else "TRUE"]
        return "IF " + outer.join(parts) + f"\nTHEN {positive}"

    def _literal_texts(self, rule: Rule) -> list[str]:
        """The text of each literal of ``rule``; a negated threshold of a nullable feature
        drops its ``or x is missing`` where the rule settles it (``x is not missing`` in a
        DNF term, ``x is missing`` in a CNF clause), and in a DNF term also where another
        literal is a threshold that is false on a missing value (``x <= 8 AND x > 2``,
        not ``x <= 8 AND (x > 2 or x is missing)``)."""
        conds = self.conditions
        if conds is None:
            return [lit.describe() for lit in rule]
        dnf = self.kind == "dnf"
        settled = {conds[lit.column].group for lit in rule
                   if (conds[lit.column].is_missing_indicator and lit.negated == dnf)
                   or (dnf and not lit.negated and conds[lit.column].nullable
                       and conds[lit.column].op in ("<=", ">"))}
        texts = [lit.describe(conds, conds[lit.column].group in settled) for lit in rule]
        return _merge_level_sets(rule, conds, texts, dnf)

    def class_text(self, label: Any) -> str:
        """Text of a one-vs-rest rule set for class ``label``: :meth:`to_text`, or
        ``No rule predicts <label>.`` when the rule set never holds (rather than
        ``IF FALSE``).

        Examples
        --------
        >>> from satrules.rules import RuleSet
        >>> RuleSet([], kind="dnf", n_columns=2).class_text("A")
        'No rule predicts A.'
        """
        return f"No rule predicts {label}." if self.never_true else \
            self.to_text(positive=str(label))

    def binary_text(self, positive: Any, negative: Any) -> str:
        """Text of a two-class rule set: ``IF ... THEN positive ELSE negative``, or one
        sentence naming the class always predicted when the rule set is constant by its
        form (rather than ``IF FALSE``/``IF TRUE``).

        Examples
        --------
        >>> from satrules.rules import Literal, Rule, RuleSet
        >>> print(RuleSet([[Literal(0)]], "dnf", 2).binary_text("sick", "well"))
        IF (x0)
        THEN sick
        ELSE well
        >>> RuleSet([], kind="dnf", n_columns=2).binary_text("sick", "well")
        'Always well: no rule predicts sick.'
        """
        if self.never_true:
            return f"Always {negative}: no rule predicts {positive}."
        if self.always_true:
            return f"Always {positive}: no rule predicts {negative}."
        return self.to_text(positive=str(positive)) + f"\nELSE {negative}"

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return (f"RuleSet(kind={self.kind!r}, n_columns={self.n_columns}, n_rules={self.n_rules},"
                f" n_literals={self.n_literals})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RuleSet):
            return NotImplemented
        return (self.kind, self.n_columns, self.rules, self.conditions) == \
            (other.kind, other.n_columns, other.rules, other.conditions)

    def __hash__(self) -> int:
        return hash((self.kind, self.n_columns, self.rules))

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-friendly dict (see :meth:`from_dict`)."""
        return {
            "kind": self.kind,
            "n_columns": self.n_columns,
            "rules": [[[lit.column, lit.negated] for lit in rule] for rule in self.rules],
            "conditions": None if self.conditions is None
            else [c.to_dict() for c in self.conditions],
            **({} if self.label is None else {"label": self.label}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Rebuild a rule set written by :meth:`to_dict`."""
        conds = data.get("conditions")
        return cls(
            [Rule(tuple(Literal(int(c), bool(n)) for c, n in rule)) for rule in data["rules"]],
            kind=data["kind"], n_columns=int(data["n_columns"]),
            conditions=None if conds is None else [Condition.from_dict(c) for c in conds],
            label=data.get("label"),
        )

    def save(self, path: Any) -> Any:
        """Write the rule set to ``path`` as a versioned JSON rule-set file (atomically).

        The schema lives in :mod:`satrules.serialization`; imported here on use.
        """
        from satrules import serialization

        return serialization.save(self, path)

    @classmethod
    def load(cls, path: Any) -> RuleSet:
        """Read a rule set written by :meth:`save` (never unpickles anything)."""
        from satrules import serialization

        obj = serialization.load(path)
        if not isinstance(obj, cls):
            raise ValueError(f"{path} holds a {type(obj).__name__}, not a RuleSet")
        return obj


def _drop_subsumed(rules: list[Rule]) -> list[Rule]:
    """Drop duplicate rules and rules whose literals contain another rule's literals.

    In a DNF, term A subset of term B means B implies A, so B is redundant; in a
    CNF, clause A subset of clause B means A implies B, so B is redundant.
    """
    sets = [frozenset(rule.literals) for rule in rules]
    keep = []
    for i, s in enumerate(sets):
        redundant = any(
            (t < s) or (t == s and j < i) for j, t in enumerate(sets) if j != i
        )
        if not redundant:
            keep.append(rules[i])
    return keep
