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

__all__ = ["check_loaded"]

_KINDS = ("constant", "binary", "categorical", "ordinal")


def _fail(message: str) -> None:
    from satrules.serialization import SchemaError

    raise SchemaError(message)


def check_loaded(est: Any) -> None:
    """Raise ``SchemaError`` naming the attribute if ``est``'s loaded state is inconsistent."""
    classes = getattr(est, "classes_", None)
    if classes is not None:
        _check_classes(est, classes)
    conditions = None
    binarizer = getattr(est, "binarizer_", None)
    if binarizer is not None:
        conditions = _check_binarizer(binarizer)
    rules = getattr(est, "rules_", None)
    if isinstance(rules, dict):
        if classes is not None and set(rules) != set(classes.tolist()):
            _fail(f"rules_ has rule sets for {sorted(map(str, rules))} but classes_ is "
                  f"{[str(c) for c in classes]}")
        for label, ruleset in rules.items():
            _check_ruleset(f"rules_[{label!r}]", ruleset, conditions)
    elif hasattr(rules, "n_columns"):
        if classes is not None and len(classes) != 2:
            _fail(f"classes_ has {len(classes)} entries but rules_ is one two-class rule set")
        _check_ruleset("rules_", rules, conditions)
    elif hasattr(rules, "labels") and hasattr(rules, "lo"):
        _check_candidates(rules, classes)
    default = getattr(est, "default_", None)
    if default is not None and classes is not None and default not in classes.tolist():
        _fail(f"default_ {default!r} is not one of classes_ {classes.tolist()}")


def _check_classes(est: Any, classes: Any) -> None:
    if not isinstance(classes, np.ndarray) or classes.ndim != 1:
        _fail("classes_ must be a one-dimensional array")
    if len(classes) < 2:
        _fail(f"classes_ has {len(classes)} entr{'y' if len(classes) == 1 else 'ies'}; a "
              "classifier needs at least 2")
    if len(set(classes.tolist())) != len(classes):
        _fail(f"classes_ has duplicate entries: {classes.tolist()}")
    counts = getattr(est, "class_counts_", None)
    if counts is not None and len(counts) != len(classes):
        _fail(f"classes_ has {len(classes)} entries but class_counts_ has {len(counts)}")


def _check_binarizer(binarizer: Any) -> list | None:
    """Check the specs and return the conditions they define (the one source of truth)."""
    specs, names = getattr(binarizer, "_specs", None), getattr(binarizer, "_names", None)
    if specs is None or names is None:
        return getattr(binarizer, "conditions_", None)
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
        if kind == "ordinal":
            thresholds = np.asarray(values, dtype=float) if isinstance(values, np.ndarray) \
                else None
            if thresholds is None or thresholds.ndim != 1:
                _fail(f"{where}: ordinal thresholds must be a one-dimensional array")
            if not np.isfinite(thresholds).all():
                _fail(f"{where}: threshold {thresholds[~np.isfinite(thresholds)][0]} is not "
                      "a finite number")
            if (np.diff(thresholds) <= 0).any():
                _fail(f"{where}: thresholds must increase, got {thresholds.tolist()}")
        elif kind == "categorical" and not isinstance(values, list):
            _fail(f"{where}: categories must be a list")
        expected.extend(binarizer._feature_conditions(f, name, kind, values, with_missing))
    stored = getattr(binarizer, "conditions_", None)
    if stored is not None:
        _same_conditions("binarizer_.conditions_", stored, "binarizer_._specs", expected)
    return expected


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


def _check_candidates(cands: Any, classes: Any) -> None:
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
    if classes is not None:
        labels = np.asarray(cands.labels)
        if len(labels) and (labels.min() < 0 or labels.max() >= len(classes)):
            _fail(f"rules_.labels must index classes_ ({len(classes)} classes)")
        names = getattr(cands, "class_names", None)
        if names is not None and tuple(names) != tuple(classes.tolist()):
            _fail(f"rules_.class_names {list(names)} differ from classes_ {classes.tolist()}")
