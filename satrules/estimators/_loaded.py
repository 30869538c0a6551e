"""Check the fitted state of an estimator read from a rule-set file.

A rule-set file keeps some facts in more than one place: a threshold is in the
binarizer's specs (what ``predict`` evaluates), in the binarizer's conditions
and in the rule set's conditions (what ``report`` and ``rules_text`` print).
An edited file whose copies disagree would print one rule and apply another,
so it is refused, as are non-finite thresholds, ``classes_`` that do not fit the
rules, and literals or labels out of range.  Attributes that are absent are not
checked (``satrules encode`` stores an estimator whose rules are still to come).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from satrules.binarize import GROUPED_CLASSES
from satrules.rules import DATE_ORDERS, HOURS_MINUTES, MISSING, is_quantity_unit, number_or_none

__all__ = ["check_loaded"]

_KINDS = ("constant", "binary", "categorical", "ordinal", "date", "duration", "quantity",
          "ordered", "grouped", GROUPED_CLASSES, "dropped")


def _fail(message: str) -> None:
    from satrules.serialization import SchemaError

    raise SchemaError(message)


def check_loaded(est: Any) -> None:
    """Raise ``SchemaError`` naming the attribute if ``est``'s loaded state is inconsistent."""
    classes = getattr(est, "classes_", None)
    if classes is not None or getattr(est, "rules_", None) is not None:
        _check_classes(est, classes)
    _check_features("", est)
    conditions = None
    binarizer = getattr(est, "binarizer_", None)
    if binarizer is not None:
        if not hasattr(binarizer, "transform") or not hasattr(binarizer, "get_params"):
            _fail(f"binarizer_ must be a binarizer, got {type(binarizer).__name__}")
        _check_features("binarizer_.", binarizer, like=est)
        conditions = _check_binarizer(binarizer)
    encoder = getattr(est, "encoder_", None)
    if encoder is not None:
        _check_encoder(encoder, est)
    from satrules.rules import RuleSet

    rules = getattr(est, "rules_", None)
    # what turns raw columns into the rules' inputs: a binarizer for rule sets, the
    # column encoder for mined rules; predict cannot run without it
    needs = "encoder_" if rules is not None and not isinstance(rules, (dict, RuleSet)) \
        else "binarizer_"
    if rules is not None and getattr(est, needs, None) is None:
        _fail(f"missing fitted attribute {needs!r} (needed to predict with rules_)")
    if isinstance(rules, dict):
        if classes is not None and set(rules) != set(classes.tolist()):
            _fail(f"rules_ has rule sets for {sorted(map(str, rules))} but classes_ is "
                  f"{[str(c) for c in classes]}")
        for label, ruleset in rules.items():
            if not isinstance(ruleset, RuleSet):
                _fail(f"rules_[{label!r}] must be a rule set, got {type(ruleset).__name__}")
            _check_ruleset(f"rules_[{label!r}]", ruleset, conditions)
    elif isinstance(rules, RuleSet):
        if classes is not None and len(classes) != 2:
            _fail(f"classes_ has {len(classes)} entries but rules_ is one two-class rule set")
        _check_ruleset("rules_", rules, conditions)
        described = getattr(est, "rule_class_", None)
        if described is not None and classes is not None \
                and described not in classes.tolist():
            _fail(f"rule_class_ {described!r} is not one of classes_ {classes.tolist()}")
    elif rules is not None:
        from satrules.mining import Candidates  # here: it imports scikit-learn's ensembles

        if not isinstance(rules, Candidates):
            _fail(f"rules_ must be a rule set, a dict of rule sets or mined rules, got "
                  f"{type(rules).__name__}")
        _check_candidates(rules, classes)
    order = getattr(est, "class_order_", None)
    if order is not None and classes is not None:
        listed = np.asarray(order).tolist()
        if not isinstance(listed, list) or len(listed) != len(classes) \
                or set(listed) != set(classes.tolist()):
            _fail(f"class_order_ {listed!r} is not an order of classes_ {classes.tolist()}")
        fallback = getattr(est, "default_class_", None)
        if fallback not in classes.tolist():
            _fail(f"default_class_ {fallback!r} is not one of classes_ {classes.tolist()}")
    default = getattr(est, "default_", None)
    if default is not None and classes is not None and default not in classes.tolist():
        _fail(f"default_ {default!r} is not one of classes_ {classes.tolist()}")
    counts = getattr(est, "region_counts_", None)
    if counts is not None and classes is not None and rules is not None \
            and hasattr(est, "_n_regions"):
        shape = (est._n_regions(), len(classes))
        if not isinstance(counts, np.ndarray) or counts.dtype.kind not in "iuf" \
                or counts.shape != shape or (counts < 0).any() \
                or not np.isfinite(counts).all():
            _fail(f"region_counts_ must be a {shape[0]} x {shape[1]} array of counts (one "
                  "row per way the rules classify, one column per class), got "
                  + (f"shape {counts.shape}" if isinstance(counts, np.ndarray)
                     else type(counts).__name__))


def _check_classes(est: Any, classes: Any) -> None:
    if not isinstance(classes, np.ndarray) or classes.ndim != 1:
        _fail("classes_ must be a one-dimensional array (the rules' class labels)")
    if len(classes) < 2:
        _fail(f"classes_ has {len(classes)} entr{'y' if len(classes) == 1 else 'ies'}; a "
              "classifier needs at least 2")
    if len(set(classes.tolist())) != len(classes):
        _fail(f"classes_ has duplicate entries: {classes.tolist()}")
    counts = getattr(est, "class_counts_", None)
    if counts is not None and len(counts) != len(classes):
        _fail(f"classes_ has {len(classes)} entries but class_counts_ has {len(counts)}")


def _check_features(prefix: str, obj: Any, like: Any = None) -> None:
    """``n_features_in_`` and ``feature_names_in_`` are well formed (and match ``like``'s)."""
    n = getattr(obj, "n_features_in_", None)
    if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 1):
        _fail(f"{prefix}n_features_in_ must be a positive integer, got {n!r}")
    names = getattr(obj, "feature_names_in_", None)
    if names is not None:
        if not isinstance(names, np.ndarray) or names.ndim != 1 \
                or not all(isinstance(v, str) for v in names.tolist()):
            _fail(f"{prefix}feature_names_in_ must be a one-dimensional array of strings")
        if n is not None and len(names) != n:
            _fail(f"{prefix}feature_names_in_ has {len(names)} names for n_features_in_ = {n}")
    if like is not None:
        for attr in ("n_features_in_", "feature_names_in_"):
            mine, theirs = getattr(obj, attr, None), getattr(like, attr, None)
            if mine is not None and theirs is not None and \
                    np.asarray(mine).tolist() != np.asarray(theirs).tolist():
                _fail(f"{prefix}{attr} differs from the estimator's {attr}")


def _check_encoder(encoder: Any, est: Any) -> None:
    """CDPR's column encoder: names and categories, and the column names they define."""
    names, cats = getattr(encoder, "names", None), getattr(encoder, "categories", None)
    if not isinstance(names, list) or not all(isinstance(v, str) for v in names):
        _fail("encoder_.names must be a list of strings")
    n = getattr(est, "n_features_in_", len(names))
    if len(names) != n:
        _fail(f"encoder_.names has {len(names)} names for n_features_in_ = {n}")
    if not isinstance(cats, list) or len(cats) != len(names) or not all(
            c is None or (isinstance(c, np.ndarray) and c.ndim == 1
                          and all(isinstance(v, str) for v in c.tolist())) for c in cats):
        _fail("encoder_.categories must hold, per feature, None (numeric) or an array of "
              "category strings")
    # column kinds (numeric / categorical / dropped ID-like) and the missing-value
    # indicators of numeric columns; files saved before they existed have neither
    kinds = getattr(encoder, "kinds", None) or \
        ["numeric" if c is None else "categorical" for c in cats]
    nullable = getattr(encoder, "nullable", None) or [False] * len(kinds)
    if not isinstance(kinds, list) or len(kinds) != len(names) or not all(
            k in ("numeric", "date", "duration", "quantity", "ordered", "binary",
                  "categorical", "grouped", "dropped") for k in kinds):
        _fail("encoder_.kinds must hold, per feature, 'numeric', 'date', 'duration', "
              "'quantity', 'ordered', 'binary', 'categorical', 'grouped' or 'dropped'")
    if any(k == "binary" and (c is None or len(c) != 1 or number_or_none(c[0]) is None)
           for c, k in zip(cats, kinds, strict=True)):
        _fail("encoder_.categories must hold, for a binary feature, its higher value (one "
              "number as text)")
    grouped = getattr(encoder, "grouped", None) or [None] * len(kinds)
    if not isinstance(grouped, list) or len(grouped) != len(kinds) or any(
            (found is not None) != (k == "grouped") or (found is not None and not _grouping(
                found, getattr(est, "classes_", None)))
            for found, k in zip(grouped, kinds, strict=True)):
        _fail("encoder_.grouped must hold, per grouped feature, its levels (a tuple of "
              "strings), the class labels of its columns (a tuple of classes_) and the "
              "levels' rates (levels x labels, in [0, 1]), and None for every other")
    units = getattr(encoder, "units", None) or [None] * len(kinds)
    if not isinstance(units, list) or len(units) != len(kinds) or any(
            (unit is not None) != (k == "quantity") or (unit is not None and (
                not isinstance(unit, str) or not is_quantity_unit(unit)))
            for unit, k in zip(units, kinds, strict=True)):
        _fail("encoder_.units must hold the unit (a text with '{}' for the number) of each "
              "quantity feature and None for every other")
    orders = getattr(encoder, "date_orders", None) or [None] * len(kinds)
    if not isinstance(orders, list) or len(orders) != len(kinds) or any(
            order is not None and (k != "date" or order not in DATE_ORDERS)
            for order, k in zip(orders, kinds, strict=True)):
        _fail(f"encoder_.date_orders must hold, per feature, None or (for a date feature) "
              f"one of {list(DATE_ORDERS)}")
    forms = getattr(encoder, "duration_forms", None) or [None] * len(kinds)
    if not isinstance(forms, list) or len(forms) != len(kinds) or any(
            form is not None and (k != "duration" or form != HOURS_MINUTES)
            for form, k in zip(forms, kinds, strict=True)):
        _fail(f"encoder_.duration_forms must hold, per feature, None or (for a duration "
              f"feature written as hours and minutes) {HOURS_MINUTES!r}")
    levels = getattr(encoder, "levels", None) or [None] * len(kinds)
    if not isinstance(levels, list) or len(levels) != len(kinds) or any(
            (lv is not None) != (k == "ordered") or (lv is not None and (
                not isinstance(lv, tuple) or not lv)) for lv, k in zip(levels, kinds,
                                                                         strict=True)):
        _fail("encoder_.levels must hold the levels (a non-empty tuple) of each ordered "
              "feature and None for every other")
    if not isinstance(nullable, list) or len(nullable) != len(names) or not all(
            isinstance(v, bool) for v in nullable):
        _fail("encoder_.nullable must hold one bool per feature")
    from satrules.estimators.cdpr import grouped_column_names

    columns, indicators = [], {}
    for name, values, kind, has_missing, found in zip(names, cats, kinds, nullable, grouped,
                                                      strict=True):
        if kind == "dropped":
            continue
        if kind == "grouped":
            columns.extend(grouped_column_names(name, found[1]))
            continue
        if kind in ("numeric", "date", "duration", "quantity", "ordered"):
            columns.append(name)
            values = np.array([MISSING]) if has_missing else None
        for value in values.tolist() if values is not None else []:
            indicators[len(columns)] = (name, value)
            columns.append(f"{name}={value}")
    if list(getattr(encoder, "feature_names", [])) != columns:
        _fail("encoder_.feature_names disagree with encoder_.names and encoder_.categories")
    stored = getattr(encoder, "indicators", None)
    if not isinstance(stored, dict) or {k: tuple(v) for k, v in stored.items()} != indicators:
        _fail("encoder_.indicators disagree with encoder_.names and encoder_.categories")
    rules = getattr(est, "rules_", None)
    lo = getattr(rules, "lo", None)
    if isinstance(lo, np.ndarray) and lo.ndim == 2 and lo.shape[1] != len(columns):
        _fail(f"rules_ thresholds cover {lo.shape[1]} columns but encoder_ defines "
              f"{len(columns)}")
    names_in_rules = getattr(rules, "feature_names", None)
    if names_in_rules is not None and list(names_in_rules) != columns:
        _fail("rules_.feature_names differ from the columns encoder_ defines")
    in_rules = getattr(rules, "indicators", None)
    if isinstance(in_rules, dict) and {k: tuple(v) for k, v in in_rules.items()} != indicators:
        _fail("rules_.indicators differ from the one-hot columns encoder_ defines")
    sets = getattr(rules, "grouped", None) or {}
    want = encoder.grouped_features() if rules is not None else {}
    if not isinstance(sets, dict) or set(sets) != set(want) or any(
            not isinstance(sets[f], tuple) or len(sets[f]) != 3
            or tuple(sets[f][:2]) != want[f][:2]
            or not np.array_equal(np.asarray(sets[f][2], dtype=float), want[f][2])
            for f in want):
        _fail("rules_.grouped differs from the grouped columns encoder_ defines")


def _check_binarizer(binarizer: Any) -> list | None:
    """Check the specs and return the conditions they define (the one source of truth)."""
    if not hasattr(binarizer, "conditions_"):
        _fail("binarizer_ is not fitted (no conditions_)")
    specs, names = getattr(binarizer, "_specs", None), getattr(binarizer, "_names", None)
    if not isinstance(specs, list) or not isinstance(names, list) or len(specs) != len(names):
        _fail("binarizer_._specs and binarizer_._names must be lists of the same length")
    n_features = getattr(binarizer, "n_features_in_", len(names))
    if n_features != len(names):
        _fail(f"binarizer_.n_features_in_ is {n_features} but there are {len(names)} "
              "feature specs")
    expected = []
    for f, (name, spec) in enumerate(zip(names, specs, strict=True)):
        where = f"binarizer_._specs[{f}] ({name!r})"
        if not isinstance(spec, tuple) or len(spec) != 3 or spec[0] not in _KINDS \
                or not isinstance(spec[2], bool):
            _fail(f"{where} must be (kind, values, has_missing) with kind one of {_KINDS}")
        kind, values, with_missing = spec
        if kind == GROUPED_CLASSES:   # ((class label, levels, ranks), ...), one per class
            if not (isinstance(values, tuple) and values
                    and all(isinstance(v, tuple) and len(v) == 3 for v in values)):
                _fail(f"{where}: a feature grouped per class must hold (class, levels, "
                      "thresholds) triples")
            labels = [v[0] for v in values]
            if len(set(map(repr, labels))) != len(labels):
                _fail(f"{where}: class {labels} repeated among its ladders")
            for label, levels, ranks in values:
                _check_ranks(f"{where} (class {label!r})", levels, ranks)
            expected.extend(binarizer._feature_conditions(f, name, kind, values, with_missing))
            continue
        if kind in ("ordered", "grouped"):   # (levels, thresholds on their ranks)
            if not (isinstance(values, tuple) and len(values) == 2
                    and isinstance(values[0], tuple) and values[0]):
                _fail(f"{where}: an {kind} feature's values must be (levels, thresholds)")
            levels, values = values
        if kind == "date" and isinstance(values, tuple):   # (order, thresholds)
            if len(values) != 2 or values[0] not in DATE_ORDERS:
                _fail(f"{where}: a date feature's values must be thresholds or (order, "
                      f"thresholds) with the order one of {list(DATE_ORDERS)}")
            order, values = values
        if kind == "duration" and isinstance(values, tuple):   # ("hm", thresholds)
            if len(values) != 2 or values[0] != HOURS_MINUTES:
                _fail(f"{where}: a duration feature's values must be thresholds or "
                      f"({HOURS_MINUTES!r}, thresholds)")
            order, values = values
        if kind == "quantity":   # (the unit's text, thresholds)
            if not (isinstance(values, tuple) and len(values) == 2
                    and isinstance(values[0], str) and is_quantity_unit(values[0])):
                _fail(f"{where}: a quantity feature's values must be (unit, thresholds), the "
                      "unit a text with '{}' for the number")
            unit, values = values
        if kind in ("ordinal", "date", "duration", "quantity", "ordered", "grouped"):
            thresholds = np.asarray(values, dtype=float) if isinstance(values, np.ndarray) \
                else None
            if thresholds is None or thresholds.ndim != 1:
                _fail(f"{where}: ordinal thresholds must be a one-dimensional array")
            if not np.isfinite(thresholds).all():
                _fail(f"{where}: threshold {thresholds[~np.isfinite(thresholds)][0]} is not "
                      "a finite number")
            if (np.diff(thresholds) <= 0).any():
                _fail(f"{where}: thresholds must increase, got {thresholds.tolist()}")
            if kind in ("ordered", "grouped"):
                _check_ranks(where, levels, thresholds)
                values = (levels, values)
            if kind == "quantity":
                values = (unit, values)
            if kind in ("date", "duration") and isinstance(spec[1], tuple):
                values = (order, values)
        elif kind == "categorical" and not isinstance(values, list):
            _fail(f"{where}: categories must be a list")
        expected.extend(binarizer._feature_conditions(f, name, kind, values, with_missing))
    stored = getattr(binarizer, "conditions_", None)
    if stored is not None:
        _same_conditions("binarizer_.conditions_", stored, "binarizer_._specs", expected)
    return expected


def _check_ranks(where: str, levels: Any, ranks: Any) -> None:
    """Thresholds on the ranks of ordered or grouped ``levels``: non-empty levels,
    increasing whole ranks below their number."""
    if not (isinstance(levels, tuple) and levels):
        _fail(f"{where}: the thresholds need the levels they rank")
    ranks = np.asarray(ranks, dtype=float) if isinstance(ranks, np.ndarray) else None
    if ranks is None or ranks.ndim != 1:
        _fail(f"{where}: thresholds on ranks must be a one-dimensional array")
    if not np.isfinite(ranks).all() or (np.diff(ranks) <= 0).any() \
            or (ranks != np.round(ranks)).any() or (ranks < 0).any() \
            or (ranks >= len(levels)).any():
        _fail(f"{where}: thresholds must be increasing ranks of the {len(levels)} levels, "
              f"got {ranks.tolist()}")


def _same_conditions(name: str, got: list, source: str, want: list) -> None:
    if len(got) != len(want):
        _fail(f"{name} has {len(got)} conditions but {source} defines {len(want)}")
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        if a != b:
            _fail(f"{name}[{i}] ({_describe(a)}) and {source} ({_describe(b)}) disagree: "
                  "the file was edited in one place only")


def _describe(cond: Any) -> str:
    try:
        return cond.describe()
    except Exception:  # a malformed condition: show what it holds
        return repr(cond)


def _check_ruleset(name: str, ruleset: Any, conditions: list | None) -> None:
    n_columns = ruleset.n_columns
    if conditions is not None and n_columns != len(conditions):
        _fail(f"{name} has {n_columns} columns but the binarizer defines {len(conditions)}")
    for r, rule in enumerate(ruleset.rules):
        for lit in rule.literals:
            if lit.column >= n_columns:
                _fail(f"{name}: rule {r} uses column {lit.column}, out of range "
                      f"({n_columns} columns)")
    if conditions is not None and ruleset.conditions is not None:
        _same_conditions(f"{name}.conditions", list(ruleset.conditions),
                         "binarizer_._specs", conditions)


def _grouping(found: Any, classes: Any) -> bool:
    """Whether ``found`` is a grouped feature of CDPR's encoder: ``(levels, class labels,
    rates)`` as :class:`~satrules.estimators.cdpr._ColumnEncoder` keeps it."""
    if not isinstance(found, tuple) or len(found) != 3:
        return False
    levels, labels, rates = found
    return (isinstance(levels, tuple) and len(levels) > 0
            and all(isinstance(v, str) for v in levels) and len(set(levels)) == len(levels)
            and isinstance(labels, tuple) and len(labels) > 0
            and (classes is None or all(label in classes.tolist() for label in labels))
            and isinstance(rates, np.ndarray) and rates.dtype.kind == "f"
            and rates.shape == (len(levels), len(labels))
            and bool(((rates >= 0) & (rates <= 1)).all()))


_CANDIDATE_ATTRS = ("lo", "hi", "labels", "covers", "accuracy", "feature_names", "class_names",
                    "indicators", "width", "support")


def _check_candidates(cands: Any, classes: Any) -> None:
    missing = [a for a in _CANDIDATE_ATTRS if not hasattr(cands, a)]
    if missing:
        _fail(f"rules_ lacks {', '.join(missing)}")
    for attr in ("lo", "hi", "labels", "accuracy", "width", "support"):
        value, ndim = getattr(cands, attr), 2 if attr in ("lo", "hi") else 1
        if not isinstance(value, np.ndarray) or value.ndim != ndim \
                or value.dtype.kind not in "biuf":
            _fail(f"rules_.{attr} must be a numeric {'matrix' if ndim == 2 else 'vector'}")
    if not hasattr(cands.covers, "shape") or len(cands.covers.shape) != 2:
        _fail("rules_.covers must be a sparse matrix")
    if not isinstance(cands.indicators, dict):
        _fail("rules_.indicators must be an object")
    lo, hi = np.asarray(cands.lo, dtype=float), np.asarray(cands.hi, dtype=float)
    if lo.shape != hi.shape or lo.ndim != 2:
        _fail("rules_.lo and rules_.hi must be matrices of the same shape")
    if np.isnan(lo).any() or np.isnan(hi).any():
        _fail("rules_: a rule has a NaN threshold (rules_.lo / rules_.hi)")
    n_rules = lo.shape[0]
    for attr in ("labels", "accuracy", "support", "width"):
        values = getattr(cands, attr, None)
        if values is not None and len(values) != n_rules:
            _fail(f"rules_.{attr} has {len(values)} entries for {n_rules} rules")
    if cands.covers.shape[0] != n_rules:
        _fail(f"rules_.covers has {cands.covers.shape[0]} rows for {n_rules} rules")
    levels = getattr(cands, "levels", None) or {}
    for f, lv in levels.items() if isinstance(levels, dict) else [(None, None)]:
        if not isinstance(f, int) or not 0 <= f < lo.shape[1] or not isinstance(lv, tuple) \
                or not lv:
            _fail("rules_.levels must map feature indices to their (non-empty) levels")
        bounds = np.concatenate([lo[:, f], hi[:, f]])
        bounds = bounds[np.isfinite(bounds)]
        if (bounds >= len(lv)).any():
            _fail(f"rules_: ordered feature {f} has a bound at rank {int(bounds.max())}, "
                  f"beyond its {len(lv)} level(s)")
    clock = getattr(cands, "hours_minutes", None) or ()
    if not isinstance(clock, tuple) or any(
            not isinstance(f, int) or f not in getattr(cands, "durations", ()) for f in clock):
        _fail("rules_.hours_minutes must hold indices of duration features (rules_.durations)")
    units = getattr(cands, "units", None) or {}
    if not isinstance(units, dict) or any(
            not isinstance(f, int) or not 0 <= f < lo.shape[1] or not isinstance(unit, str)
            or not is_quantity_unit(unit) for f, unit in units.items()):
        _fail("rules_.units must map feature indices to unit texts with '{}' for the number")
    if classes is not None:
        labels = np.asarray(cands.labels)
        if len(labels) and (labels.min() < 0 or labels.max() >= len(classes)):
            _fail(f"rules_.labels must index classes_ ({len(classes)} classes)")
        names = getattr(cands, "class_names", None)
        if names is not None and tuple(names) != tuple(classes.tolist()):
            _fail(f"rules_.class_names {list(names)} differ from classes_ {classes.tolist()}")
