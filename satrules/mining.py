"""Candidate rule mining from tree ensembles (CDPR's rule set A and its filter B_{α,δ}).

Each **leaf** of each tree of a fitted ensemble gives one rule: the conjunction of the
split conditions on its root-to-leaf path (with ``nodes="all"``, every node but a root
gives one too: its path from the root is a shorter, more general rule than its
leaves').  Conditions on the same feature are merged into one interval ``lo < x <= hi``,
so a rule's *width* is the number of distinct features it constrains.  The rule's class
is the majority class of the **training** samples that reach the node (ties go to the
lower class index); for gradient boosting this is not the leaf's regression value.
Rules with identical conditions are merged (keeping the first in tree order), so the
candidates are duplicate-free.  Gradient boosting (as in the CDPR paper,
multi-class: the trees of every class) and random forests are supported.

Trees compare ``float32(x) <= threshold`` (scikit-learn casts X to float32).  Each
threshold is stored as the shortest decimal that splits the training values, as given,
the way the tree split them (:func:`_shorten_bounds`), and :meth:`Candidates.cover`
compares the values as given with it, so covers computed from the intervals equal the
covers read from ``apply()`` on the training data, and a rule prints the numbers it
evaluates (``concavity error > 0.01401``, not the float32 value ``0.014010000043``).

Missing values (NaN) fail every condition on their feature (``x <= t`` and ``x > t``
alike).  The ensemble cannot take NaN, so it is grown on a copy with NaN replaced by a
value below the feature's minimum (a heuristic that only shapes the candidates); the
rules' covers, classes and accuracies are then computed from the intervals on the data
with its NaN, so they follow the missing-value semantics exactly.  A split of that
stand-in leaves a lower bound below every value; where the interval has an upper bound as
well, it is dropped (``age <= 31``, not ``-0.5 < age <= 31``: the upper bound excludes
the missing values already); where it has none, and the feature has a missing-value
indicator column (``indicators``), the bound becomes ``age is not missing`` on that column
(not ``age > 17.5`` when the youngest is 18), which the training rows read alike.

References
----------
Seed 000, "Learning High Coverage Discriminative Parsimonious Rulesets", §3.1 and §6.1.
"""

from __future__ import annotations

import math
import warnings
from contextlib import nullcontext
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from sklearn.ensemble import (
    GradientBoostingClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from threadpoolctl import threadpool_limits

from satrules.binarize import shortest_decimal
from satrules.rules import (
    MISSING,
    format_day,
    format_duration,
    format_hours_minutes,
    format_quantity,
    level_set_text,
)

__all__ = ["MinedRule", "Candidates", "mine_rules"]

#: the tree ensembles :func:`mine_rules` mines
MINERS = ("gbdt", "hist", "rf")
#: the tree nodes whose paths :func:`mine_rules` makes candidate rules
NODES = ("leaves", "all")
_DENSE_CELLS = 1 << 22  # Candidates.cover evaluates densely up to this many rule-sample pairs
#: beyond that, Candidates.cover reads each rule's conditions over all rows (one pass per
#: rule and feature) while the rules hold at most this many conditions per feature they
#: constrain, and sorts each feature once otherwise.  On 1M normal values an argsort took
#: 190 ms and a pass 0.6 ms, so the bound is a cautious one: a fitted rule set at predict
#: is far below it, thousands of mined candidates far above
_PASSES_PER_SORT = 8


def _fmt(value: float) -> str:
    # bounds are short decimals already (_shorten_bounds): print them exactly
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def _shorten_bounds(lo: np.ndarray, hi: np.ndarray, X: np.ndarray) -> None:
    """Replace every split threshold, in place, by a short decimal that splits ``X`` alike.

    A tree threshold ``t`` (a midpoint such as ``48.708333``) sends ``float32(x) <= t``
    left.  With ``a`` the largest training value (as given, NaN ignored) sent left and
    ``b`` the smallest sent right, any ``d`` with ``a <= d < b`` sends the same training
    rows left as ``x <= d`` on the values as given; ``d`` is the decimal with the fewest
    significant digits there (:func:`satrules.binarize.shortest_decimal`: ``48.7``,
    ``2`` between the integers 2 and 3).  So the printed rule is the evaluated rule, read
    on the data as they are, and the training covers, classes and accuracies are the
    trees'; only a new value strictly between two neighbouring training values can fall
    on the other side of ``d`` than of ``t``.  When no training value is sent left (a
    split below the minimum, from the stand-in for missing values), ``d`` is ``t``
    rounded to the fewest digits below ``b``.
    """
    for f in range(X.shape[1]):
        col = X[:, f]
        distinct = np.unique(col[~np.isnan(col)])
        bounds = np.concatenate([lo[:, f], hi[:, f]])
        cuts = np.unique(bounds[np.isfinite(bounds)])
        if not cuts.size:
            continue
        as_tree = distinct.astype(np.float32).astype(np.float64)   # what the trees compared
        pos = np.searchsorted(as_tree, cuts, side="right")
        short = np.array([_short_cut(float(t), distinct, int(p))
                          for t, p in zip(cuts, pos, strict=True)])
        for arr in (lo, hi):
            finite = np.isfinite(arr[:, f])
            arr[finite, f] = short[np.searchsorted(cuts, arr[finite, f])]


def _least(X: np.ndarray) -> np.ndarray:
    """Each column's smallest value, NaN ignored (NaN for a column of NaN only)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # all-NaN columns
        return np.nanmin(X, axis=0)


def _open_low_bounds(lo: np.ndarray, hi: np.ndarray, least: np.ndarray) -> None:
    """Open, in place, every lower bound below all of a feature's training values
    (``least``, :func:`_least`) on an interval whose upper bound is finite: ``-0.5 < age
    <= 31`` becomes ``age <= 31``.  Such a bound comes from a split of the stand-in for
    missing values (module notes) and only excludes the missing values, which fail the
    upper bound as well, so no training cover changes; a new value below the training
    minimum is then covered, as the printed rule says.  (With no upper bound, ``x > lo``
    says "x is not missing": :func:`_not_missing_bounds`.)"""
    below = np.isfinite(lo) & np.isfinite(hi) & (lo < least[None, :])
    lo[below] = -np.inf


def _not_missing_bounds(lo: np.ndarray, hi: np.ndarray, least: np.ndarray, feature_names,
                        indicators) -> None:
    """Rewrite, in place, every lower bound below all of a feature's training values on an
    interval without an upper bound (``age > 17.5`` when the youngest is 18: a split of
    the stand-in for missing values, which says "age is not missing") as that: no bound on
    the feature, and ``age is not missing`` on its missing-value indicator column (an
    ``indicators`` entry ``(name, MISSING)``), when it has one.  The training covers are
    the same (a missing age fails both); the rule no longer reads as a cut at 17.5, and a
    new age below the training minimum is covered, as "not missing" says.  ``least``:
    each feature's smallest training value (:func:`_least`).

    >>> X = np.array([[18.0, 0.0], [30.0, 0.0], [np.nan, 1.0]])
    >>> lo, hi = np.array([[17.5, -np.inf]]), np.array([[np.inf, np.inf]])
    >>> _not_missing_bounds(lo, hi, _least(X), ["age", "age=<missing>"],
    ...                     {1: ("age", MISSING)})
    >>> lo.tolist(), hi.tolist()
    ([[-inf, -inf]], [[inf, 0.0]])
    """
    names = names_of(feature_names, len(least))
    column = {names.index(name): c for c, (name, value) in (indicators or {}).items()
              if value == MISSING and name in names}
    for f, c in column.items():
        rows = np.flatnonzero(np.isfinite(lo[:, f]) & np.isinf(hi[:, f]) & (lo[:, f] < least[f]))
        lo[rows, f] = -np.inf
        hi[rows, c] = np.minimum(hi[rows, c], 0.0)


def _short_cut(t: float, distinct: np.ndarray, pos: int) -> float:
    """The short threshold for the cut ``t`` that sends ``distinct[:pos]`` left."""
    above = float(distinct[pos]) if pos < len(distinct) else math.inf
    if pos > 0:
        return shortest_decimal(float(distinct[pos - 1]), above)
    for sig in range(1, 18):   # nothing left of the cut: any short number below `above`
        d = float(f"{t:.{sig}g}")
        if d < above:
            return d
    return float(np.nextafter(above, -math.inf))


@dataclass(frozen=True)
class MinedRule:
    """One IF-THEN rule with interval conditions ``lo < x[feature] <= hi``.

    Attributes
    ----------
    conditions : tuple of (int, float, float)
        ``(feature, lo, hi)`` triples sorted by feature; ``-inf``/``inf`` mark an open side.
    label : int
        Index of the predicted class.
    feature_names : tuple of str
    class_names : tuple
    indicators : dict
        Feature index -> ``(column, value)`` for one-hot indicator columns, printed as
        ``column = value`` / ``column != value``.
    accuracy : float
        Training accuracy (correct cover / cover).
    support : int
        Training cover size.

    Examples
    --------
    >>> rule = MinedRule(((0, 41.0, np.inf), (2, -np.inf, 2.5)), 1, ("age", "sex", "pain"),
    ...                  ("benign", "malignant"))
    >>> print(rule)
    IF age > 41 AND pain <= 2.5 THEN malignant
    >>> rule.width
    2
    """

    conditions: tuple
    label: int
    feature_names: tuple
    class_names: tuple
    indicators: dict = field(default_factory=dict, hash=False)
    accuracy: float = float("nan")
    support: int = 0
    #: indices of date features (days since 1970-01-01), whose bounds print as dates
    dates: frozenset = frozenset()
    #: index of each ordered categorical feature (level ranks) -> its levels, lowest first
    levels: dict = field(default_factory=dict, hash=False)
    #: indices of duration features (days), whose bounds print as durations
    durations: frozenset = frozenset()
    #: index of each quantity feature (numbers written with a unit, ``13.5%``) -> the
    #: unit's text with ``{}`` for the number, in which its bounds print
    units: dict = field(default_factory=dict, hash=False)
    #: indices of duration features written as hours and minutes (``13:30``), whose
    #: bounds print so
    hours_minutes: frozenset = frozenset()
    #: index of each grouped categorical column -> ``(feature name, levels, each level's
    #: rate)``: an interval on it holds on the levels whose rate lies in it
    grouped: dict = field(default_factory=dict, hash=False)

    @property
    def width(self) -> int:
        """Number of features the rule constrains."""
        return len(self.conditions)

    def _condition_text(self, feature: int, lo: float, hi: float) -> str:
        name = self.feature_names[feature]
        if feature in self.indicators and (np.isinf(lo) or np.isinf(hi)):
            column, value = self.indicators[feature]
            if value == MISSING:
                return f"{column} is {'' if np.isinf(hi) else 'not '}missing"
            # an indicator is 0/1 and trees split it at 0.5: "x > t" means "= value"
            return f"{column} {'=' if np.isinf(hi) else '!='} {value}"
        fmt = format_day if feature in self.dates else \
            format_hours_minutes if feature in self.hours_minutes else \
            format_duration if feature in self.durations else _fmt
        if feature in self.units:
            def fmt(value, unit=self.units[feature]):
                return format_quantity(_fmt(value), unit)
        if feature in self.levels:   # bounds are whole ranks (see CDPRClassifier.fit)
            return self._level_text(name, self.levels[feature], lo, hi)
        if np.isinf(lo):
            return f"{name} <= {fmt(hi)}"
        if np.isinf(hi):
            return f"{name} > {fmt(lo)}"
        return f"{fmt(lo)} < {name} <= {fmt(hi)}"

    @staticmethod
    def _level_text(name: str, levels: tuple, lo: float, hi: float) -> str:
        """``lo < rank <= hi`` on the ranks of ``levels``, read as levels; a bound below
        the lowest rank (the trees' stand-in for missing values lies there) means only
        "is a level", i.e. not missing."""
        if hi < 0:
            return f"{name} < {levels[0]}"   # no level: holds on no row
        low = None if lo < 0 else str(levels[int(lo)])
        if np.isinf(hi):
            return f"{name} is not missing" if low is None else f"{name} > {low}"
        high = str(levels[int(hi)])
        return f"{name} <= {high}" if low is None else f"{low} < {name} <= {high}"

    def shown_conditions(self) -> tuple:
        """The conditions :meth:`body` prints: all but those another one implies, on
        every row, fit's or new: ``col != w`` beside ``col = v`` (or ``col is missing``)
        of the same one-hot column, and ``x is not missing`` beside a bound on ``x``
        (a missing value fails every bound).  The trees split one indicator column at
        a time, so ``state != CA AND state != NY AND state = TX`` is one condition
        read three times; :attr:`width` still counts the conditions mined.

        >>> rule = MinedRule(((0, -np.inf, 0.0), (1, 0.0, np.inf), (2, -np.inf, 3.0),
        ...                   (3, -np.inf, 0.0)), 1, ("s=CA", "s=TX", "x", "x=<missing>"),
        ...                  ("no", "yes"), {0: ("s", "CA"), 1: ("s", "TX"),
        ...                                  3: ("x", "<missing>")})
        >>> rule.body()
        's = TX AND x <= 3'
        >>> rule.width
        4
        """
        equal = {self.indicators[f][0] for f, lo, hi in self.conditions
                 if f in self.indicators and np.isinf(hi) and np.isfinite(lo)}
        bounded = {self.feature_names[f] for f, _, _ in self.conditions
                   if f not in self.indicators and f not in self.grouped}
        shown = []
        for f, lo, hi in self.conditions:
            if f in self.indicators and np.isinf(lo) and np.isfinite(hi):   # != / not missing
                column, value = self.indicators[f]
                if column in equal or (value == MISSING and column in bounded):
                    continue
            shown.append((f, lo, hi))
        return tuple(shown)

    def body(self) -> str:
        """The rule's conditions joined by ``AND`` (``TRUE`` when it has none), those
        another implies left out (:meth:`shown_conditions`); the sets of one grouped
        feature (one column per class) printed as the one set they all hold on, and two
        or more ``col != v`` of one one-hot column as ``col not in {...}`` (true, as
        they are, for a level fit never saw and for a missing value).

        >>> MinedRule(((0, 41.0, np.inf),), 1, ("age",), ("no", "yes")).body()
        'age > 41'
        >>> MinedRule(((0, -np.inf, 0.0), (1, 3.0, np.inf), (2, -np.inf, 0.0)), 1,
        ...           ("s=NY", "age", "s=CA"), ("no", "yes"),
        ...           {0: ("s", "NY"), 2: ("s", "CA")}).body()
        's not in {CA, NY} AND age > 3'
        """
        shown = self.shown_conditions()
        excluded: dict[str, list] = {}   # one-hot column -> the values of its != conditions
        for f, lo, hi in shown:
            if f in self.indicators and np.isinf(lo) and np.isfinite(hi) \
                    and self.indicators[f][1] != MISSING:
                excluded.setdefault(self.indicators[f][0], []).append(self.indicators[f][1])
        texts, sets, merged = [], {}, set()
        for f, lo, hi in shown:
            if f in self.grouped:   # a feature's sets (one per class column): their meet
                column, levels, rates = self.grouped[f]
                members = grouped_members(levels, rates, lo, hi)
                if column in sets:
                    sets[column][:] = [v for v in sets[column] if v in members]
                    continue
                sets[column] = members
                texts.append((column, None))
            elif f in self.indicators and len(excluded.get(self.indicators[f][0], ())) > 1 \
                    and np.isinf(lo) and self.indicators[f][1] != MISSING:
                column = self.indicators[f][0]
                if column not in merged:   # at the first of them
                    merged.add(column)
                    texts.append((None, level_set_text(column, excluded[column],
                                                       negated=True)))
            else:
                texts.append((None, self._condition_text(f, lo, hi)))
        return " AND ".join(text if column is None else level_set_text(column, sets[column])
                            for column, text in texts) or "TRUE"

    def __str__(self) -> str:
        return f"IF {self.body()} THEN {self.class_names[self.label]}"


class Candidates:
    """A duplicate-free set of interval rules with their training statistics.

    Parameters
    ----------
    lo, hi : ndarray of shape (n_rules, n_features)
        Interval bounds (``-inf``/``inf`` where a feature is unconstrained).
    labels : ndarray of shape (n_rules,)
        Class index of each rule.
    covers : scipy.sparse.csr_matrix of shape (n_rules, n_samples), bool
        Training covers.
    accuracy : ndarray of shape (n_rules,)
        Training accuracy of each rule.
    feature_names, class_names : sequence
    indicators : dict, optional
        Feature index -> ``(column, value)`` for one-hot indicator columns.
    dates : iterable of int, optional
        Indices of date features (values are days since 1970-01-01), printed as dates.
    durations : iterable of int, optional
        Indices of duration features (values are days), printed as durations.
    hours_minutes : iterable of int, optional
        Those of ``durations`` written as hours and minutes (``13:30``), printed so.
    units : dict, optional
        Index of each quantity feature (numbers written with a unit) -> the unit's text
        with ``{}`` for the number (``"{}%"``); its bounds print in it.
    levels : dict, optional
        Index of each ordered categorical feature (values are the ranks of its levels)
        -> its levels, lowest first; a bound prints as the level of its rank.
    grouped : dict, optional
        Index of each grouped categorical column (values are a level's rate of a class)
        -> ``(feature name, levels, each level's rate)``; an interval prints as the set
        of levels whose rate lies in it.

    Attributes
    ----------
    width : ndarray of int
        Number of constrained features per rule.
    support : ndarray of int
        Training cover size per rule.
    """

    def __init__(self, lo, hi, labels, covers, accuracy, feature_names, class_names,
                 indicators=None, dates=(), levels=None, durations=(), units=None,
                 hours_minutes=(), grouped=None):
        self.lo = np.asarray(lo, dtype=np.float64)
        self.hi = np.asarray(hi, dtype=np.float64)
        self.labels = np.asarray(labels, dtype=np.intp)
        self.covers = sp.csr_matrix(covers, dtype=bool)
        self.accuracy = np.asarray(accuracy, dtype=np.float64)
        self.feature_names = tuple(str(name) for name in feature_names)
        self.class_names = tuple(class_names)
        self.indicators = dict(indicators or {})
        self.dates = tuple(sorted(int(f) for f in dates))
        self.durations = tuple(sorted(int(f) for f in durations))
        self.hours_minutes = tuple(sorted(int(f) for f in hours_minutes))
        self.levels = {int(f): tuple(lv) for f, lv in (levels or {}).items()}
        self.units = {int(f): str(unit) for f, unit in (units or {}).items()}
        self.grouped = {int(f): (str(name), tuple(levels), np.asarray(rates, dtype=float))
                        for f, (name, levels, rates) in (grouped or {}).items()}
        self.width = (np.isfinite(self.lo) | np.isfinite(self.hi)).sum(axis=1)
        self.support = np.asarray(self.covers.sum(axis=1)).ravel().astype(np.int64)

    def __len__(self) -> int:
        return self.lo.shape[0]

    def __getitem__(self, index: int | slice) -> MinedRule | Candidates:
        """The rule at ``index`` (an int, negative from the end), or for a slice the
        candidates it takes (:meth:`subset`).

        Examples
        --------
        >>> import numpy as np
        >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
        >>> cands = mine_rules(X, np.array([0, 0, 1, 1]), miner="gbdt", n_estimators=1,
        ...                    max_depth=1, random_state=0)
        >>> print(cands[-1])
        IF x0 > 1 THEN 1
        >>> len(cands[:1]), len(cands[5:])
        (1, 0)
        """
        if isinstance(index, slice):
            return self.subset(np.arange(len(self))[index])
        if not isinstance(index, (int, np.integer)) or isinstance(index, (bool, np.bool_)):
            raise TypeError(f"candidates are indexed by an int or a slice, got "
                            f"{type(index).__name__}; use subset() for arrays of indices")
        constrained = np.flatnonzero(np.isfinite(self.lo[index]) | np.isfinite(self.hi[index]))
        conditions = tuple((int(f), float(self.lo[index, f]), float(self.hi[index, f]))
                           for f in constrained)
        return MinedRule(conditions, int(self.labels[index]), self.feature_names,
                         self.class_names, self.indicators, float(self.accuracy[index]),
                         int(self.support[index]), frozenset(getattr(self, "dates", ())),
                         dict(getattr(self, "levels", {})),
                         frozenset(getattr(self, "durations", ())),
                         dict(getattr(self, "units", {})),
                         frozenset(getattr(self, "hours_minutes", ())),
                         dict(getattr(self, "grouped", {})))

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"Candidates(n_rules={len(self)}, n_features={self.lo.shape[1]})"

    def __str__(self) -> str:
        return "\n".join(str(rule) for rule in self)

    def subset(self, index) -> Candidates:
        """Return the candidates at ``index`` (int array or boolean mask), in that order."""
        index = np.asarray(index)
        if index.dtype == bool:
            index = np.flatnonzero(index)
        return Candidates(self.lo[index], self.hi[index], self.labels[index],
                          self.covers[index], self.accuracy[index], self.feature_names,
                          self.class_names, self.indicators, getattr(self, "dates", ()),
                          getattr(self, "levels", None), getattr(self, "durations", ()),
                          getattr(self, "units", None), getattr(self, "hours_minutes", ()),
                          getattr(self, "grouped", None))

    def filter(self, alpha: float = 0.0, delta: int | None = None) -> np.ndarray:
        """Return the indices of B_{α,δ}: accuracy ≥ ``alpha`` and width ≤ ``delta``.

        Rules with an empty training cover are excluded (their accuracy is undefined).
        """
        keep = (self.support > 0) & (self.accuracy >= alpha)
        if delta is not None:
            keep &= self.width <= delta
        return np.flatnonzero(keep)

    def cover(self, X) -> sp.csr_matrix:
        """Evaluate every rule on ``X``: a bool CSR matrix of shape (n_rules, n_samples).

        ``X`` is read as it is (float64; the bounds were chosen so that the training rows
        fall as in the trees, which compared float32).  A NaN fails every condition on
        its feature.  Small problems
        (``n_rules * n_samples <= 2**22``) are evaluated densely, feature by feature.  Larger
        ones sort each constrained feature once, so every interval condition is a contiguous
        range of that order (``searchsorted``, vectorised over rules); a rule's cover is read
        from its narrowest range and filtered by its other conditions, which costs about
        ``n log n`` per feature plus the size of each rule's narrowest range instead of
        ``n_rules x n_samples``.  A few rules on many rows (a fitted rule set at predict)
        are read condition by condition instead (:data:`_PASSES_PER_SORT`): one pass over
        the rows per condition costs less than sorting every feature they use.
        """
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.lo.shape[1]:
            raise ValueError(f"X has shape {X.shape}, expected (n_samples, {self.lo.shape[1]})")
        constrained = np.isfinite(self.lo) | np.isfinite(self.hi)
        if len(self) * X.shape[0] > _DENSE_CELLS and \
                constrained.sum() <= _PASSES_PER_SORT * constrained.any(axis=0).sum():
            return self._cover_by_rule(X, constrained)
        columns = np.ascontiguousarray(X.T)  # one contiguous row per feature
        if len(self) * X.shape[0] <= _DENSE_CELLS:
            return self._cover_dense(columns)
        return self._cover_sorted(columns)

    def _cover_dense(self, columns):
        inside = np.ones((len(self), columns.shape[1]), dtype=bool)
        constrained = np.isfinite(self.lo) | np.isfinite(self.hi)
        for f in np.flatnonzero(constrained.any(axis=0)):
            rows = np.flatnonzero(constrained[:, f])
            x = columns[f][None, :]
            # NaN compares False on both sides: a missing value fails the condition
            inside[rows] &= (x > self.lo[rows, f][:, None]) & (x <= self.hi[rows, f][:, None])
        return sp.csr_matrix(inside)

    def _cover_by_rule(self, X, constrained):
        n_samples = X.shape[0]
        # the features the rules read, each copied out of X once (not all of X.T)
        columns = {f: np.ascontiguousarray(X[:, f])
                   for f in np.flatnonzero(constrained.any(axis=0))}
        pieces = []
        for rule in range(len(self)):
            inside = np.ones(n_samples, dtype=bool)
            for f in np.flatnonzero(constrained[rule]):
                x = columns[f]   # NaN compares False on both sides: the condition fails
                inside &= (x > self.lo[rule, f]) & (x <= self.hi[rule, f])
            pieces.append(np.flatnonzero(inside))
        return _rows_matrix(pieces, n_samples)

    def _cover_sorted(self, columns):
        n_rules, n_samples = len(self), columns.shape[1]
        constrained = np.isfinite(self.lo) | np.isfinite(self.hi)
        # samples with lo < x <= hi are order[f, start:stop] of feature f
        order = np.zeros(columns.shape, dtype=np.int64)
        start = np.zeros(self.lo.shape, dtype=np.int64)
        stop = np.zeros(self.lo.shape, dtype=np.int64)
        for f in np.flatnonzero(constrained.any(axis=0)):
            order[f] = np.argsort(columns[f], kind="stable")
            ranked = columns[f][order[f]]
            start[:, f] = np.searchsorted(ranked, self.lo[:, f], side="right")
            stop[:, f] = np.searchsorted(ranked, self.hi[:, f], side="right")
        span = np.where(constrained, stop - start, n_samples + 1)
        narrowest = span.argmin(axis=1)
        everything = np.arange(n_samples)
        pieces = []
        for rule in range(n_rules):
            f = narrowest[rule]
            if not constrained[rule, f]:
                pieces.append(everything)
                continue
            hits = order[f, start[rule, f]:stop[rule, f]]
            for g in np.flatnonzero(constrained[rule]):
                if g != f and hits.size:
                    x = columns[g, hits]
                    hits = hits[(x > self.lo[rule, g]) & (x <= self.hi[rule, g])]
            pieces.append(np.sort(hits))
        return _rows_matrix(pieces, n_samples)


def _rows_matrix(pieces: list[np.ndarray], n_samples: int) -> sp.csr_matrix:
    """The bool CSR matrix whose row ``r`` is true at the sorted columns ``pieces[r]``."""
    indptr = np.zeros(len(pieces) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([piece.size for piece in pieces])
    indices = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
    return sp.csr_matrix((np.ones(indices.size, dtype=bool), indices, indptr),
                         shape=(len(pieces), n_samples))


def _ensemble(miner, n_estimators, max_depth, learning_rate, random_state):
    if miner == "hist":   # the same boosting on binned features; no early stop, so it
        return HistGradientBoostingClassifier(   # grows n_estimators rounds as gbdt does
            max_iter=n_estimators, max_depth=max_depth, learning_rate=learning_rate,
            max_leaf_nodes=None, min_samples_leaf=1, l2_regularization=0.0,
            early_stopping=False, random_state=random_state)
    if miner == "gbdt":
        return GradientBoostingClassifier(n_estimators=n_estimators, max_depth=max_depth,
                                          learning_rate=learning_rate,
                                          random_state=random_state)
    if miner == "rf":
        return RandomForestClassifier(n_estimators=n_estimators, max_depth=max_depth,
                                      random_state=random_state, n_jobs=1)
    raise ValueError(f"miner must be 'gbdt', 'hist' or 'rf', got {miner!r}")


def _tree_arrays(model) -> list[tuple]:
    """``(left, right, feature, threshold, n_samples)`` of every tree of a fitted
    ensemble (children -1 at a leaf; a row goes left when ``x <= threshold``), in the
    order of ``estimators_`` ravelled (gbdt, rf) or of the boosting rounds, each round's
    trees in class order (hist)."""
    if isinstance(model, HistGradientBoostingClassifier):
        arrays = []
        for predictor in (p for rounds in model._predictors for p in rounds):
            nodes = predictor.nodes
            leaf = nodes["is_leaf"].astype(bool)
            arrays.append((np.where(leaf, -1, nodes["left"].astype(np.int64)),
                           np.where(leaf, -1, nodes["right"].astype(np.int64)),
                           nodes["feature_idx"].astype(np.int64),
                           nodes["num_threshold"].astype(np.float64),
                           nodes["count"].astype(np.int64)))
        return arrays
    return [(t.tree_.children_left, t.tree_.children_right, t.tree_.feature,
             t.tree_.threshold, t.tree_.n_node_samples) for t in np.ravel(model.estimators_)]


def _leaf_intervals(trees, n_features):
    """Interval bounds of every node of every tree (:func:`_tree_arrays`), propagated
    level by level (vectorised)."""
    sizes = np.array([len(t[0]) for t in trees])
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    left = np.concatenate([np.where(t[0] >= 0, t[0] + o, -1)
                           for t, o in zip(trees, offsets[:-1], strict=True)])
    right = np.concatenate([np.where(t[1] >= 0, t[1] + o, -1)
                            for t, o in zip(trees, offsets[:-1], strict=True)])
    feature = np.concatenate([t[2] for t in trees])
    threshold = np.concatenate([t[3] for t in trees])
    lo = np.full((offsets[-1], n_features), -np.inf)
    hi = np.full((offsets[-1], n_features), np.inf)
    frontier = offsets[:-1]
    while frontier.size:
        frontier = frontier[left[frontier] >= 0]
        kids_left, kids_right = left[frontier], right[frontier]
        f, t = feature[frontier], threshold[frontier]
        lo[kids_left], hi[kids_left] = lo[frontier], hi[frontier]
        lo[kids_right], hi[kids_right] = lo[frontier], hi[frontier]
        # left: x <= t tightens hi; right: x > t tightens lo (merging into one interval)
        hi[kids_left, f] = np.minimum(hi[kids_left, f], t)
        lo[kids_right, f] = np.maximum(lo[kids_right, f], t)
        frontier = np.concatenate([kids_left, kids_right])
    is_leaf = left < 0
    return lo, hi, is_leaf, offsets


def mine_rules(X, y, *, miner="gbdt", n_estimators=50, max_depth=3, learning_rate=0.1,
               random_state=None, feature_names=None, indicators=None,
               sample_weight=None, nodes="leaves") -> Candidates:
    """Mine the leaf (or node) rules of a tree ensemble fitted to ``(X, y)``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features), numeric
    y : array-like of shape (n_samples,)
        Class labels (any sortable values; at least two classes).
    miner : {"gbdt", "hist", "rf"}
        Gradient boosting (every class's trees), the same on binned features
        (scikit-learn's ``HistGradientBoostingClassifier``: at most 255 bins per feature,
        cut at quantiles, so the thresholds are coarser on features of more distinct
        values; several times faster on large data), or a random forest.
    n_estimators, max_depth, learning_rate : ensemble parameters (``learning_rate``: gbdt only).
    random_state : int, RandomState or None
    feature_names : sequence of str, optional
        Defaults to ``x0, x1, ...``.
    indicators : dict, optional
        Feature index -> ``(column, value)`` for one-hot columns (for printing only).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative row weights: the ensemble is fitted with them, and each rule's
        class and accuracy are read from the weight sums of the rows it covers
        (``covers`` and ``support`` still count rows).
    nodes : {"leaves", "all"}
        Which nodes give rules: the leaves (the paper's rule set A), or every node but
        the roots, so that the path to an inner node gives a shorter, more general rule
        beside its leaves' rules.

    Returns
    -------
    Candidates
        Rules in first-occurrence order (tree by tree, leaves in node order), with training
        covers, labels (indices into ``np.unique(y)``), widths and accuracies.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0]])
    >>> cands = mine_rules(X, [0, 0, 1, 1], n_estimators=1, max_depth=1, random_state=0,
    ...                    feature_names=["age", "sex"])
    >>> [str(rule) for rule in cands]
    ['IF age <= 2 THEN 0', 'IF age > 2 THEN 1']
    >>> cands.covers.toarray().astype(int)
    array([[1, 1, 0, 0],
           [0, 0, 1, 1]])
    """
    if nodes not in NODES:
        raise ValueError(f"nodes must be one of {NODES}, got {nodes!r}")
    X = np.asarray(X, dtype=np.float64)
    classes, y_index = np.unique(np.asarray(y), return_inverse=True)
    n_samples, n_features = X.shape
    if len(classes) < 2:
        raise ValueError(f"rule mining needs at least 2 classes, got {len(classes)}")
    nan = np.isnan(X)
    X_raw = X
    if nan.any():   # grow the trees on NaN -> below the minimum (module notes)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)   # all-NaN columns
            low = np.nan_to_num(np.nanmin(X, axis=0), nan=0.0) - 1.0
        X = np.where(nan, low[None, :], X)
    sw = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if sw is not None and sw.shape != (n_samples,):
        raise ValueError(f"sample_weight must hold {n_samples} weights, got shape {sw.shape}")
    model = _ensemble(miner, n_estimators, max_depth, learning_rate, random_state)
    # hist on one OpenMP thread: its sums do not depend on the machine's core count (so
    # neither do the rules), and a loaded machine does not make its threads spin (20,000
    # x 100 beside another process: 0.9 s on one thread, 8.8 s on two)
    with threadpool_limits(1, user_api="openmp") if miner == "hist" else nullcontext():
        model.fit(X, y_index, sample_weight=sw)
    trees = _tree_arrays(model)
    lo, hi, is_leaf, offsets = _leaf_intervals(trees, n_features)
    _shorten_bounds(lo, hi, X_raw)
    if nan.any():   # a lower bound below every value, from the stand-in, with an upper
        least = _least(X_raw)   # bound too, excludes only NaN, as that does; without: not NaN
        _open_low_bounds(lo, hi, least)
        _not_missing_bounds(lo, hi, least, feature_names, indicators)
    n_classes = len(classes)
    if miner == "hist" or nodes == "all":   # the rules' covers and counts from their
        size = np.concatenate([t[4] for t in trees])   # intervals (hist has no apply())
        chosen = is_leaf | (nodes == "all")   # all: every node but a root that splits
        chosen[offsets[:-1]] = is_leaf[offsets[:-1]]   # (a root's rule is empty)
        return _interval_candidates(lo, hi, np.flatnonzero(chosen & (size > 0)), X_raw,
                                    y_index, sw, classes, feature_names, indicators)
    # leaf of every sample in every tree, as global node ids (tree order = estimators_ ravel order)
    leaves = model.apply(X).reshape(n_samples, -1).astype(np.int64) + offsets[:-1][None, :]
    counts = np.bincount((leaves * n_classes + y_index[:, None]).ravel(),
                         minlength=offsets[-1] * n_classes).reshape(-1, n_classes)
    leaf_ids = np.flatnonzero(is_leaf & (counts.sum(axis=1) > 0))
    if sw is not None:   # the classes' weight sums per leaf
        counts = np.bincount((leaves * n_classes + y_index[:, None]).ravel(),
                             weights=np.repeat(sw, leaves.shape[1]),
                             minlength=offsets[-1] * n_classes).reshape(-1, n_classes)
    keys = np.hstack([lo[leaf_ids], hi[leaf_ids]])
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    rule_of_node = np.full(offsets[-1], -1)
    rule_of_node[leaf_ids] = rank[inverse.ravel()]
    rule_nodes = leaf_ids[first[order]]
    rows = rule_of_node[leaves].ravel()
    cols = np.repeat(np.arange(n_samples), leaves.shape[1])
    covers = sp.csr_matrix((np.ones(rows.size, dtype=np.int32), (rows, cols)),
                           shape=(len(order), n_samples))
    covers.sum_duplicates()
    covers.data[:] = 1
    covers = covers.astype(bool)
    # a duplicate rule's leaves all see the same training samples, so counts of its first leaf
    # are the rule's counts
    rule_counts = counts[rule_nodes]
    if nan.any():   # covers and counts from the intervals, where NaN fails its conditions
        covers, rule_counts = _interval_counts(lo[rule_nodes], hi[rule_nodes], X_raw, y_index,
                                               sw, classes, feature_names)
    return _labelled(lo[rule_nodes], hi[rule_nodes], covers, rule_counts, classes,
                     feature_names, indicators)


def _interval_counts(lo, hi, X, y_index, sw, classes, feature_names):
    """Covers of the interval rules ``lo``, ``hi`` on ``X`` (NaN fails a condition) and
    each rule's weight of each class among the rows it covers."""
    covers = Candidates(lo, hi, np.zeros(len(lo)), sp.csr_matrix((len(lo), X.shape[0]),
                                                                 dtype=bool),
                        np.zeros(len(lo)), names_of(feature_names, X.shape[1]),
                        classes.tolist()).cover(X)
    weight = np.ones(X.shape[0]) if sw is None else sw
    counts = np.column_stack([np.asarray(covers[:, y_index == c].astype(np.float64)
                                         @ weight[y_index == c]).ravel()
                              for c in range(len(classes))])
    return covers, counts


def _labelled(lo, hi, covers, counts, classes, feature_names, indicators) -> Candidates:
    """The rules with their majority class and its share of their covered weight."""
    labels = counts.argmax(axis=1)
    with np.errstate(invalid="ignore"):   # a rule no row satisfies: NaN, filtered out
        accuracy = counts[np.arange(len(labels)), labels] / counts.sum(axis=1)
    return Candidates(lo, hi, labels, covers, accuracy, names_of(feature_names, lo.shape[1]),
                      classes.tolist(), indicators)


def _interval_candidates(lo, hi, leaf_ids, X, y_index, sw, classes, feature_names,
                         indicators) -> Candidates:
    """The distinct rules of the leaves ``leaf_ids`` (first occurrence first), with covers,
    classes and accuracies computed from their intervals on ``X`` (NaN fails them)."""
    keys = np.hstack([lo[leaf_ids], hi[leaf_ids]])
    _, first = np.unique(keys, axis=0, return_index=True)
    nodes = leaf_ids[np.sort(first)]
    covers, counts = _interval_counts(lo[nodes], hi[nodes], X, y_index, sw, classes,
                                      feature_names)
    return _labelled(lo[nodes], hi[nodes], covers, counts, classes, feature_names, indicators)


def grouped_members(levels: tuple, rates: np.ndarray, lo: float, hi: float) -> list[str]:
    """The ``levels`` whose rate lies in ``(lo, hi]``: the set a grouped column's
    interval names.

    >>> grouped_members(("a", "b", "c"), np.array([0.1, 0.5, 0.9]), 0.3, np.inf)
    ['b', 'c']
    """
    rates = np.asarray(rates, dtype=float)
    return [levels[i] for i in np.flatnonzero((rates > lo) & (rates <= hi)).tolist()]


def names_of(feature_names, n_features: int) -> list[str]:
    """Return ``feature_names`` as a list, or ``x0, x1, ...`` when it is None."""
    return (list(feature_names) if feature_names is not None
            else [f"x{j}" for j in range(n_features)])
