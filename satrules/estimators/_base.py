"""Shared base of the incremental MaxSAT rule classifiers (IMLI, IMLIB).

Subclass API
------------
:class:`IncrementalRuleClassifier` does validation, binarization, stratified
partitioning, the time budget, warm starts, anytime handling, one-vs-rest and
prediction.  A subclass only stores its parameters in ``__init__`` (every
parameter unchanged, scikit-learn style) and implements:

``_encode_partition(self, Xb, y, prior, rng) -> Encoding``
    Encode one partition.  ``Xb`` is the binarized partition (0/1 uint8,
    ``n x len(conditions)``), ``y`` a bool vector (True = the class the rule
    set predicts), ``prior`` the previous partition's rule set (already passed
    through :meth:`_prior_rules`) or ``None`` for the first partition, ``rng``
    a ``numpy.random.RandomState``.  Return an object with ``.model`` (an IR
    :class:`~satrules.ir.Model`) and optionally ``.hint`` (``{var: bool}``
    warm start or ``None``), e.g. :class:`satrules.layout.Encoding`.
``_decode(self, encoding, solution) -> RuleSet``
    Read the rules out of a feasible solution.

Optional hooks: ``_check_params(self)`` (raise ``ValueError`` on bad
parameters; called first in ``fit``), ``_prior_rules(self, rules)`` (what the
next partition anchors to; default ``rules.simplify(remove_rules=False)``,
i.e. the §2.7 pruning keeping the rules one-to-one) and
``_final_rules(self, rules)`` (default ``rules.simplify()``, §3.8).

Parameters the base reads from ``self``: ``n_partitions``, ``partition_size``,
``n_passes``, ``anchor``, ``n_thresholds``, ``thresholds``, ``categories``,
``max_levels``,
``data_fidelity``, ``backend``, ``time_limit``, ``random_state``, ``multi_class``.
Optional hooks for the selection: ``_literal_weight(self)`` (default 1) and
``_hint_rules(self, encoding, rules)`` (a warm start realising ``rules``, or None).

Partitions: the training rows are shuffled with ``random_state`` and split per
class with ``numpy.array_split``, so every partition keeps the class ratio
(ALGORITHMS.md §2.6) -- unless that ratio would leave a partition fewer than
``MIN_RARE_PER_PARTITION`` rows of the rarer class on average (a one-vs-rest class
of 5 %, a rare binary label): then the rarer class fills a quarter of every
partition (:func:`balanced_partitions`), a departure from the papers.  With
ratio-keeping partitions, 20 classes of 20,000 x 100 scored IMLIB 0.09 and IMLI 0.47
in test (docs/benchmarks.md).

Each partition is encoded over its distinct columns (:func:`distinct_columns`): of
columns equal on its rows (the thresholds of a feature between two of its values,
say) one stands for all, so its optimum keeps its cost and its solve is smaller (one
pass over 300 classes of 20,000 x 100: IMLI 72.7 -> 34.5 s); the anchor's and the
warm start's columns always stay.  Of those, a column with a better and a worse one on
the partition (:func:`undominated_columns`: its literals can be swapped for another
column's at no cost) goes too, unless a subclass's encoding forbids a column twice in
a rule (``_prune_dominated``): 964 -> 207 columns per partition on 2,000 x 300.

``partition_size`` (rows per partition), when set, overrides ``n_partitions``
(``ceil(n / partition_size)`` partitions); ``n_partitions="auto"`` means
``ceil(n / AUTO_PARTITION_SIZE)``.

Passes and selection: the partitions are solved ``n_passes`` times (each pass
reshuffles them); every partition's decoded rules, after ``_final_rules``, are a
candidate, as are the two constant rule sets (always false, always true).  The
fit returns the candidate with the lowest objective on the **whole** training
set, ``data_fidelity * errors + literal weight * literals`` (ties go to the later
candidate), so it is never worse on its training data than predicting one
class; ``best_partition_`` and ``fit_history_`` record where it came from.  Each
solve is warm-started with the best rules so far realised on its partition
(``_hint_rules``), falling back to the encoder's own hint.

Several fits (``n_init``): each draws its own partition shuffles in turn from
``random_state`` and ends in its own rules.  Their rules are pooled and the subset
of the lowest whole-training objective, no more rules than the largest fit has, is
found exactly (:mod:`satrules.encoders.subset`, one small selection model per class);
it is kept when the predictions it makes beat the best fit's and pass the null test,
otherwise the fit of the lowest objective is kept.

Time budget: ``time_limit`` is the total for one ``fit``, binarization
included.  Each solve gets the time left divided by the number of solves left
(partitions x passes x one-vs-rest problems x fits, plus one pool solve per class
with several fits), so time a fast partition leaves
unused carries over; once the time is up no further partition is started.  A
partition that times out with a solution (``FEASIBLE``) contributes the best
rules found: the engine's answer, or the warm start when that costs less; one
that ends ``UNKNOWN`` adds no candidate and keeps the previous anchors.

Multi-class (``multi_class="ovr"``): one rule set per class (that class against
the rest).  ``predict`` returns the first class of ``class_order_`` whose rule
set fires, and ``default_class_`` when none fires.  The order and the default
are chosen after the rule sets, to maximise training accuracy: every order and
default for up to :data:`EXHAUSTIVE_CLASSES` classes, otherwise the classes by
training precision of their rules, improved by swapping neighbours (ties keep
the order by class frequency).  On the 4-class hpc data this lifted IMLI's test
accuracy from 0.59 to 0.66 against "the most frequent firing class wins".  With
:data:`OVR_WEIGHT_CLASSES` (6) classes or more, a class's rows weigh
:data:`OVR_POSITIVE_WEIGHT` (3) times a row of the rest in its own problem, so that a
rule right on half of the rows it covers is kept (on the rows it takes, the ordered
predictions would mostly be wrong anyway); the partition solves weigh rows as the user
does (:data:`OVR_WEIGHT_IN_SOLVES`).  ``multi_class="error"`` refuses more than
two classes.
"""

from __future__ import annotations

import copy
import math
import numbers
import time
import warnings
from abc import ABCMeta, abstractmethod
from collections.abc import Mapping
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, check_random_state

from satrules._progress import progress, quiet_progress
from satrules.backends.registry import choose_backend, solve
from satrules.binarize import ThresholdBinarizer, duplicate_names
from satrules.encoders.subset import decode_subset, encode_subset, hint_subset
from satrules.estimators._checks import (
    PlainLabelsScoreMixin,
    check_label_types,
    check_missing_labels,
    plain_labels,
    validate_columns,
)
from satrules.estimators._explain import ExplainMixin, append_by_group, first_true, pick
from satrules.estimators._json import RuleFileMixin
from satrules.estimators._polish import (
    SIGN_TESTS,
    beats_constant,
    column_ones,
    polish_rules,
    prune_rules,
)
from satrules.estimators._proba import RegionProbaMixin
from satrules.estimators._weights import (
    check_class_weight,
    class_index,
    fit_weights,
    kept_weights,
    partition_weights,
    scaled_fidelity,
)
from satrules.exceptions import BackendError, warn
from satrules.ir import Status, make_solution
from satrules.ir.gcpause import paused_gc
from satrules.metrics import region_counts
from satrules.rules import Literal, Rule, RuleSet

__all__ = ["AUTO_PARTITION_SIZE", "IncrementalRuleClassifier", "backend_spec", "distinct_columns",
           "split_partitions", "balanced_partitions", "undominated_columns"]

#: Rows per partition when ``n_partitions="auto"`` (seed 002 used 8 or 16 rows;
#: pyrulelearn's reference figures use 16-row batches).
AUTO_PARTITION_SIZE = 16

#: one-vs-rest: each class solves at least this many partitions per pass, however many
#: classes share ``max_partitions`` (benchmarks/results/many_classes.md: 5 per pass cost a
#: 20-class target 14 points of test accuracy)
MIN_PARTITIONS_PER_CLASS = 25
#: ... but a pass of a one-vs-rest fit does at most this much work in all, counted in
#: units of one solve's fixed cost (see ``SOLVE_OVERHEAD_CLAUSES``), before the floor above
#: gives way: 20 classes of 20,000 x 100 took IMLIB 106 s with the floor alone, over the
#: 60 s of issue #11; with 1,000 units 50 classes still took IMLI 59 s, as balanced
#: partitions make its solves slower (benchmarks/results/learner_scale_*classes.md)
PASS_WORK = 700
#: one solve costs about as much as loading this many clauses (RC2 on 16-row partitions:
#: ~14 ms plus ~0.9 us per hard clause, measured on IMLI and IMLIB at 20,000 x 100)
SOLVE_OVERHEAD_CLAUSES = 15_000


def _solve_units(clauses: int) -> float:
    """The work of one solve of a ``clauses``-clause encoding, in units of a solve's fixed
    cost (what ``PASS_WORK`` counts)."""
    return 1 + clauses / SOLVE_OVERHEAD_CLAUSES

#: partitions are balanced (:func:`balanced_partitions`) when the stratified split would
#: give them fewer rows of the rarer class than this on average
MIN_RARE_PER_PARTITION = 2
#: ... and the rarer class then fills this share of every partition (half: many-class
#: accuracy alike, hpc's one-vs-rest 2 points worse, fits 30 % slower; docs/benchmarks.md)
RARE_SHARE = 0.25
#: from the second pass on, this share of every partition's rows is drawn from the rows
#: the best rules so far get wrong (:func:`error_partitions`; 0: random partitions only)
ERROR_SHARE = 0.0

#: ``null_test="held-out"``: the folds of its cross-validation, and the most training
#: rows it uses (a sample, every class kept, above)
HELD_OUT_FOLDS = 3
HELD_OUT_MAX_ROWS = 5_000
#: ... but ``HELD_OUT_SMALL_FOLDS`` folds on at most ``HELD_OUT_SMALL_ROWS`` training rows,
#: where a fold's fit on two thirds of them finds the rules too weakly: on 40 sets of
#: 60-149 rows (seeds 0-4) IMLI's held-out test cost 0.78 points of test accuracy with 3
#: folds and none with 10 (+0.12), with no more rules on noise tables of 60-150 rows;
#: on the 120-240 training rows of the two-class pool's smaller sets, 10 folds gained
#: nothing (docs/benchmarks.md, "The held-out test on small sets")
HELD_OUT_SMALL_ROWS = 150
HELD_OUT_SMALL_FOLDS = 10
#: ... the z level of its sign test, as a share of ``significance`` (z = 1 at the default
#: 2), and each fold's ``n_init``.  Against ``significance`` itself and the estimator's
#: own ``n_init`` (session 65), on the 100 two-class sets:
#: IMLI's cost in test accuracy against the default fell from 0.52 to 0.34 points and its
#: CPU time from 3.0 to 1.7 times the default's, and rules on 120 tables of pure noise
#: went from 1 to 2 (IMLIB: 0.45 to 0.27 points, 2.9 to 1.6 times, 1 table either way;
#: docs/benchmarks.md)
HELD_OUT_LEVEL = 0.5
HELD_OUT_N_INIT = 1
#: ... and the share of ``time_limit`` the fit's own solves get, before the folds (about
#: two thirds of its work together)
HELD_OUT_FIT_SHARE = 0.5

#: ``n_init="auto"``: this many independent fits, their rules pooled (the best of
#: three gained 0.1-0.7 points of test accuracy for IMLI and IMLIB on every pool of data
#: sets measured; docs/benchmarks.md, "Several fits") ...
AUTO_INITS = 3
#: ... when (classes learned) x (rows) x (binary columns) is at most this, fewer above:
#: a two-class 20,000 x 100 table (~900 binary columns, 18 million) gets three fits, a
#: 3-class one (54 million) one, so that every default fit stays within issue #11's 60 s
INIT_CELLS = 60_000_000

#: Seconds a fit runs before its progress bar appears (on a terminal only).
PROGRESS_DELAY = 2.0


#: up to this many classes, every priority order and default is tried (5! * 5 = 600)
EXHAUSTIVE_CLASSES = 5

#: One-vs-rest with at least ``OVR_WEIGHT_CLASSES`` classes: in each class's problem a
#: row of that class weighs ``OVR_POSITIVE_WEIGHT`` times a row of the rest.  A rule
#: covering two classes that no condition tells apart is right on half its rows: in the
#: two-class problem it then costs as many errors as it saves and is turned down, yet in
#: the ordered predictions it gets those rows right that would otherwise all be wrong
#: (lme4/VerbAgg, 24 items of which pairs share every column: IMLIB 0.25 -> 0.50).  With
#: fewer classes more of the rows a rule takes would be right without it: on 16 sets of
#: 3-5 classes a weight of 3 cost IMLI 0.3 and IMLIB 0.9 points; on 19 sets of 6-30
#: classes it gained 1.6 and 1.2, on 40 of 12-60 classes 3.4 and 3.9 (a weight of 2:
#: less on three of those four; docs/benchmarks.md, "Heavier rows of a class in
#: one-vs-rest")
OVR_WEIGHT_CLASSES = 6
OVR_POSITIVE_WEIGHT = 3.0
#: ... in the choice of a class's rules on the whole training set, their polishing and
#: the pool of the fits, but not in the partition solves, which weigh rows as the user
#: does: the partitions already hold a rare class at a quarter of their rows
#: (:data:`RARE_SHARE`), and weighing its rows three times on top made IMLIB's solves
#: up to twice as slow for the same accuracy (52 sets of 6-60 classes: IMLI +0.05, IMLIB
#: -0.11 points against weighted solves, each within its standard error; IMLIB's slowest
#: fit 52 -> 36 s of CPU; docs/benchmarks.md, "The weight outside the partition solves")
OVR_WEIGHT_IN_SOLVES = False
#: A pass in which no partition's rules beat the better constant rule set on the whole
#: training set ends that problem's passes (an experiment, off: on 52 sets of 6-60
#: classes it saved IMLI 17 % of its CPU and IMLIB 20 %, and cost IMLIB 0.45 ± 0.21
#: points of test accuracy, ahead on 7 sets and behind on 14; a second pass's other
#: partitions find rules the first did not; docs/benchmarks.md, "A pass without rules")
STOP_WITHOUT_RULES = False


def _ordered_predict(fires: np.ndarray, order: np.ndarray, default: int,
                     labels: np.ndarray | None = None) -> np.ndarray:
    """Class index per row: the first class of ``order`` whose column of ``fires`` holds
    (``labels[j]``: the class of ``order[j]``, when ``fires`` has a column per class of
    a subset)."""
    ranked = fires[:, order]
    labels = order if labels is None else labels
    if not len(labels):
        return np.full(len(fires), default)
    return np.where(ranked.any(axis=1), labels[ranked.argmax(axis=1)], default)


def _rule_reasons(rules: RuleSet, Xb: np.ndarray, label: Any) -> tuple[np.ndarray, np.ndarray]:
    """For rows ``Xb``: the index and text of the term that holds first (DNF) or of the
    clause that fails first (CNF, its negation), and a sentence where there is none."""
    values = rules.rule_values(Xb)
    if rules.kind == "dnf":
        rule = first_true(values)
        texts = [rules.rule_text(i) for i in range(rules.n_rules)]
        return rule, pick(texts, rule, f"no rule for {label} holds")
    rule = first_true(~values)
    texts = [rules.failed_text(i) for i in range(rules.n_rules)]
    return rule, pick(texts, rule, f"every clause for {label} holds")


def choose_class_order(fires: np.ndarray, y: np.ndarray, counts: np.ndarray,
                       sample_weight: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """Return the priority order and default class maximising training accuracy
    (weighted by ``sample_weight``, one weight per row, when given).

    Parameters
    ----------
    fires : ndarray of bool, shape (n_samples, n_classes)
        Whether each class's one-vs-rest rule set fires on each training row.
    y : ndarray of int, shape (n_samples,)
        Class indices.
    counts : ndarray of int, shape (n_classes,)
        Training rows per class (ties keep the most frequent classes first).

    Returns
    -------
    order : ndarray of int
        Class indices, first priority first.
    default : int
        The class when no rule set fires.

    Examples
    --------
    >>> import numpy as np
    >>> fires = np.array([[1, 1, 0], [1, 1, 0], [1, 0, 0], [0, 0, 0]], dtype=bool)
    >>> order, default = choose_class_order(fires, np.array([1, 1, 0, 2]), np.array([2, 1, 1]))
    >>> order.tolist(), default
    ([1, 0, 2], 2)
    """
    import itertools

    n_classes = fires.shape[1]
    start = np.argsort(-np.asarray(counts), kind="stable")
    # a class whose rules never fire changes no prediction wherever it stands: the
    # accuracies read only the classes that fire (300 classes of 20,000 rows: 3 s less)
    fired = fires.sum(axis=0)
    active = fired > 0
    narrow = fires[:, active]
    column = np.cumsum(active) - 1   # class index -> its column of ``narrow``

    def accuracy(order, default):
        kept = order[active[order]]
        right = _ordered_predict(narrow, column[kept], default, kept) == y
        return int(np.count_nonzero(right)) if w is None else float(w[right].sum())

    w = sample_weight
    # the default only decides the rows where nothing fires: their majority class
    none = ~fires.any(axis=1)
    if none.any():
        votes = np.bincount(y[none], weights=None if w is None else w[none],
                            minlength=n_classes)
    else:
        votes = counts if w is None else np.bincount(y, weights=w, minlength=n_classes)
    default = int(start[np.argmax(np.asarray(votes)[start])])
    if n_classes <= EXHAUSTIVE_CLASSES:
        best, best_score = start, accuracy(start, default)
        for perm in itertools.permutations(start.tolist()):
            order = np.array(perm)
            score = accuracy(order, default)
            if score > best_score:
                best, best_score = order, score
        return best, default
    # many classes: by the training precision of each class's rules, then neighbour swaps
    # (a swap with a class that never fires changes no accuracy, so is never taken)
    right = fires[np.arange(len(y)), y].astype(float)
    if w is not None:
        right, fired = right * w, w @ fires
    hits = np.bincount(y, weights=right, minlength=n_classes)
    precision = np.where(fired > 0, hits / np.maximum(fired, 1e-300), 0.0)
    order = start[np.argsort(-precision[start], kind="stable")]
    score = accuracy(order, default)
    improved = True
    while improved:
        improved = False
        for i in range(n_classes - 1):
            if not (active[order[i]] and active[order[i + 1]]):
                continue
            trial = order.copy()
            trial[i], trial[i + 1] = trial[i + 1], trial[i]
            value = accuracy(trial, default)
            if value > score:
                order, score, improved = trial, value, True
    return order, default


def split_partitions(y: np.ndarray, n_partitions: int, rng: np.random.RandomState) -> list:
    """Return ``n_partitions`` index arrays that keep the class ratio of ``y``.

    Examples
    --------
    >>> parts = split_partitions(np.array([0, 0, 0, 0, 1, 1]), 2, np.random.RandomState(0))
    >>> [int((p < 4).sum()) for p in parts], [int((p >= 4).sum()) for p in parts]
    ([2, 2], [1, 1])
    """
    chunks = [[] for _ in range(n_partitions)]
    for cls in np.unique(y):
        idx = rng.permutation(np.flatnonzero(y == cls))
        for part, piece in zip(chunks, np.array_split(idx, n_partitions), strict=True):
            part.append(piece)
    parts = [np.sort(np.concatenate(p)) for p in chunks]
    return [p for p in parts if len(p)]


def error_partitions(parts: list, wrong: np.ndarray, share: float,
                     rng: np.random.RandomState) -> list:
    """Return ``parts`` with ``share`` of each partition's rows replaced by rows of
    ``wrong`` (the rows the best rules so far get wrong), each partition keeping its size.

    >>> parts = [np.arange(4), np.arange(4, 8)]
    >>> [len(p) for p in error_partitions(parts, np.array([1, 6]), 0.5, np.random.RandomState(0))]
    [4, 4]
    """
    if share <= 0 or len(wrong) == 0:
        return parts
    out = []
    for part in parts:
        k = min(len(wrong), round(share * len(part)))
        extra = rng.choice(wrong, k, replace=False)
        rest = rng.permutation(np.setdiff1d(part, extra))[:len(part) - k]
        out.append(np.concatenate([rest, extra]))
    return out


def _bool_view(Xb: np.ndarray) -> np.ndarray:
    """The binarizer's 0/1 ``uint8`` output as ``bool`` without a copy (polishing and
    pruning read bool; a copy of 20,000 x 10,000 costs ~0.1 s, once per class)."""
    return Xb.view(np.bool_) if Xb.dtype == np.uint8 else Xb


def balanced_partitions(y: np.ndarray, n_partitions: int,
                        rng: np.random.RandomState) -> list:
    """Return ``n_partitions`` index arrays in which the rarer class of the boolean ``y``
    fills ``RARE_SHARE`` (a quarter) of each partition (its rows reused across partitions
    when there are too few); the other class fills the rest, each of its rows in at most
    one partition.
    Only when the stratified split would give a partition fewer than
    ``MIN_RARE_PER_PARTITION`` rows of the rarer class on average; otherwise, and when
    ``y`` has one class, the stratified :func:`split_partitions`.

    A 16-row partition of a class of 5 % holds one example of it or none, and a solve
    over one positive learns nothing that generalises; the partitions only propose
    candidate rules, which are judged on the whole training set, so a balanced
    partition costs nothing in the objective the fit minimises.  (Balancing every
    partition, whatever the ratio, measured no better on the binary learner sets:
    mean test accuracy -0.003 to +0.001, slower fits; see docs/benchmarks.md.)

    Examples
    --------
    >>> y = np.array([True] * 2 + [False] * 14)
    >>> parts = balanced_partitions(y, 2, np.random.RandomState(0))
    >>> [len(p) for p in parts], [int(y[p].sum()) for p in parts]
    ([8, 8], [2, 2])
    """
    y = np.asarray(y, dtype=bool)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    rare, common = (pos, neg) if len(pos) <= len(neg) else (neg, pos)
    size = math.ceil(len(y) / n_partitions)
    n_rare = min(int(size * RARE_SHARE), len(rare))
    if len(rare) == 0 or len(rare) >= MIN_RARE_PER_PARTITION * n_partitions \
            or len(rare) >= n_rare * n_partitions:
        return split_partitions(y, n_partitions, rng)
    rare = rng.permutation(rare)
    common = rng.permutation(common)
    # partition i: n_rare rare rows (distinct, as n_rare <= len(rare)) and the first
    # size - n_rare rows of the i-th of the common rows' np.array_split chunks; built as
    # one padded matrix sorted row by row (a loop over 1,250 partitions took 6 ms)
    take = (np.arange(n_rare)[None, :] + n_rare * np.arange(n_partitions)[:, None]) % len(rare)
    q, r = divmod(len(common), n_partitions)
    i = np.arange(n_partitions)
    starts = i * q + np.minimum(i, r)
    kept = np.minimum(q + (i < r), size - n_rare)
    width = size - n_rare
    offsets = np.arange(width)[None, :]
    pad = len(y)   # sorts after every row index
    block = np.where(offsets < kept[:, None],
                     common[np.minimum(starts[:, None] + offsets, len(common) - 1)]
                     if len(common) else pad, pad)
    matrix = np.sort(np.concatenate([rare[take], block], axis=1), axis=1)
    lengths = n_rare + kept
    return [row[:n] for row, n in zip(matrix, lengths.tolist(), strict=True) if n]


def distinct_columns(Xb: np.ndarray, keep: tuple = ()) -> np.ndarray | None:
    """Return one column per distinct 0/1 pattern of ``Xb``'s columns, plus every column
    a rule set of ``keep`` uses (``None`` entries ignored), ascending; None when every
    column is already kept.

    A partition of 16 rows cannot tell apart the thresholds of a feature that fall
    between two of its values, nor a column from one equal to it on those rows; a
    literal on either has the same truth on every row of the partition and costs the
    same, so a partition's optimum keeps its cost over the distinct columns alone.  On
    20,000 x 100 (895 columns) a 16-row partition has about 490 distinct ones, and its
    solve takes less than half the time.  Of each group of equal columns the middle one
    (by index) stands for it: for thresholds of one feature, the one nearest the middle
    of the gap between the partition's values.  The columns of the rules in ``keep``
    (an anchor, a warm start) stay, so those rules can still be realised exactly.

    Examples
    --------
    >>> Xb = np.array([[1, 1, 1, 0, 0], [0, 0, 0, 1, 1]], dtype=np.uint8)
    >>> distinct_columns(Xb).tolist()                 # columns 0-2 alike, 3-4 alike
    [1, 3]
    >>> distinct_columns(Xb, (RuleSet([Rule((Literal(2),))], "dnf", 5),)).tolist()
    [1, 2, 3]
    >>> distinct_columns(np.eye(3, dtype=np.uint8)) is None
    True
    """
    n_columns = Xb.shape[1]
    if n_columns < 2:
        return None
    _, group = _unique_words(_packed_columns(Xb), return_inverse=True)
    group = group.ravel()
    by_group = np.lexsort((np.arange(n_columns), group))   # each group's columns ascending
    sizes = np.bincount(group)
    firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    chosen = np.zeros(n_columns, dtype=bool)
    chosen[by_group[firsts + (sizes - 1) // 2]] = True
    for rules in keep:
        if rules is not None:
            chosen[[lit.column for rule in rules.rules for lit in rule.literals]] = True
    if chosen.all():
        return None
    return np.flatnonzero(chosen)


def _packed_columns(rows: np.ndarray) -> np.ndarray:
    """Each column of the 0/1 matrix ``rows`` as bits: an array (n_columns, words) of uint64."""
    packed = np.packbits(rows.astype(bool), axis=0)            # (ceil(n / 8), n_columns)
    words = np.zeros((max(8, -(-len(packed) // 8) * 8), packed.shape[1]), dtype=np.uint8)
    words[:len(packed)] = packed
    return np.ascontiguousarray(words.T).view(np.uint64)


def _unique_words(bits: np.ndarray, **options):
    """``np.unique`` over the rows of ``bits`` (n_columns, words), as 1-D integers when
    there is one word (partitions of up to 64 rows): 8 times faster than ``axis=0``."""
    if bits.shape[1] == 1:
        return np.unique(bits[:, 0], **options)
    return np.unique(bits, axis=0, **options)


#: partitions of at most this many rows may count supersets over all 2**rows patterns
_MASK_ROWS = 20


def _dominated_by_pairs(unique: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For distinct bit patterns ``unique`` (q, words): whether another pattern holds
    each one's bits (``has_better``), and whether each holds another's (``has_worse``);
    one blocked subset test per pair."""
    q = len(unique)
    has_better = np.zeros(q, dtype=bool)
    has_worse = np.zeros(q, dtype=bool)
    step = max(1, (1 << 22) // q)                     # a few MB of booleans per block
    for a in range(0, q, step):
        x = unique[a:a + step]
        within = np.ones((len(x), q), dtype=bool)     # [i, j]: x[i]'s bits are within j's
        for w in range(unique.shape[1]):
            xw = x[:, w][:, None]
            within &= (xw & unique[:, w][None, :]) == xw
        within[np.arange(len(x)), np.arange(a, a + len(x))] = False
        has_better[a:a + step] = within.any(axis=1)
        has_worse |= within.any(axis=0)
    return has_better, has_worse


def _dominated_by_masks(columns: np.ndarray, n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_dominated_by_pairs` for the distinct 0/1 columns of a matrix of few rows:
    each column is a number below ``2**n_rows``, and the patterns present among the
    supersets (subsets) of every number are counted by a sum over one bit at a time
    (``n_rows`` passes over ``2**n_rows`` counts, instead of a test per pair)."""
    codes = (columns.astype(np.int64) << np.arange(n_rows, dtype=np.int64)[:, None]).sum(axis=0)
    above = np.zeros(1 << n_rows, dtype=np.int32)
    above[codes] = 1
    below = above.copy()
    for b in range(n_rows):   # index = high * 2^(b+1) + bit_b * 2^b + low
        up = above.reshape(-1, 2, 1 << b)
        up[:, 0, :] += up[:, 1, :]      # supersets: add the count with bit b set
        down = below.reshape(-1, 2, 1 << b)
        down[:, 1, :] += down[:, 0, :]  # subsets: add the count with bit b clear
    return above[codes] > 1, below[codes] > 1


def undominated_columns(Xb: np.ndarray, y: np.ndarray, columns: np.ndarray | None = None,
                        keep: tuple = ()) -> np.ndarray | None:
    """Return the columns of ``columns`` (ascending; all when None) that no other of them
    dominates on both sides, plus those a rule set of ``keep`` uses; ``columns`` itself
    when that is all of them.

    Column ``j'`` is *better* than column ``j`` when it is 1 on every row of class ``y``
    where ``j`` is, and 0 on every other row where ``j`` is 0 (its ones are a superset on
    ``y``'s rows and a subset on the others), *worse* the other way round.  In a rule of
    any of the incremental learners (a clause or a term, for either class), the literal
    ``x_j'`` can replace ``x_j`` when ``j'`` is better, and ``NOT x_j'`` can replace ``NOT
    x_j`` when ``j'`` is worse, without raising the partition's objective: every rule's
    truth can only move towards the rows it should hold on, sizes stay, and an anchor's or
    a warm start's literals are never the ones replaced (their columns stay).  So a column
    with a better and a worse one can go, and the partition's optimum keeps its cost over
    the columns that are best or worst (the maxima and minima of the order; of equal
    columns the first).  Not valid under a constraint that no column appears twice in a
    rule (IMLIB's ``distinct_features``).

    Flipping the bits of the rows not of class ``y`` turns *better* into *superset*, so
    one subset test per pair of columns decides both sides (on partitions of at most
    :data:`_MASK_ROWS` rows with many columns, a count of the patterns above and below
    each of the ``2**rows`` ones does, which is cheaper: 7 against 46 ms a partition of
    17 rows and 2,900 distinct columns).  Of the thresholds of one
    feature only those next to a change of class among the partition's sorted values
    remain: on 16-row partitions of 2,000 x 300 (2,695 binary columns, 964 distinct per
    partition) 207 do.

    Examples
    --------
    >>> Xb = np.array([[1, 1, 0], [1, 0, 0], [0, 0, 1], [1, 1, 1]], dtype=np.uint8)
    >>> y = np.array([True, True, False, False])
    >>> undominated_columns(Xb, y).tolist()       # column 1 is between columns 0 and 2
    [0, 2]
    >>> undominated_columns(Xb, y, keep=(RuleSet([Rule((Literal(1),))], "dnf", 3),)) is None
    True
    """
    cols = np.arange(Xb.shape[1]) if columns is None else np.asarray(columns)
    if len(cols) < 2:
        return columns
    flipped = Xb[:, cols].astype(bool) ^ ~np.asarray(y, dtype=bool)[:, None]
    n_rows = len(flipped)
    bits = _packed_columns(flipped)                   # j' better than j: bits[j] within bits[j']
    # equal columns: the first of each stands for the others (dominated both ways by it)
    _, first = _unique_words(bits, return_index=True)
    q = len(first)
    if n_rows <= _MASK_ROWS and n_rows << n_rows < q * q:
        has_better, has_worse = _dominated_by_masks(flipped[:, first], n_rows)
    else:
        has_better, has_worse = _dominated_by_pairs(bits[first])
    chosen = np.zeros(len(cols), dtype=bool)
    chosen[first[~(has_better & has_worse)]] = True
    used = [lit.column for rules in keep if rules is not None
            for rule in rules.rules for lit in rule.literals]
    chosen |= np.isin(cols, used)
    return columns if chosen.all() else cols[chosen]


def backend_spec(backend: Any) -> tuple[str, dict]:
    """Return ``(name, options)`` for an estimator's ``backend`` parameter.

    ``backend`` is a backend name (``"auto"``, ``"rc2"``...) or a pair
    ``(name, options)`` whose options go to the backend's constructor, e.g.
    ``("wcnf", {"command": ["open-wbo"]})`` for an external MaxSAT solver.

    Examples
    --------
    >>> backend_spec("rc2")
    ('rc2', {})
    >>> backend_spec(("wcnf", {"command": ["uwrmaxsat", "-m"]}))
    ('wcnf', {'command': ['uwrmaxsat', '-m']})
    """
    if isinstance(backend, str):
        return backend, {}
    if isinstance(backend, (tuple, list)) and len(backend) == 2 and \
            isinstance(backend[0], str) and isinstance(backend[1], Mapping):
        if backend[0] == "auto" and backend[1]:
            raise ValueError("backend options need a named backend, not 'auto'")
        return backend[0], dict(backend[1])
    raise ValueError(f"backend must be a backend name, 'auto', or a pair (name, options dict), "
                     f"got {backend!r}")


def _keep_better_hint(model, sol, hint):
    """Return the warm start as the answer when it beats an engine's time-limited answer.

    Anytime: a FEASIBLE answer at the time limit can be worse than the warm start
    (the previous partition's rules extended to this partition), e.g. from an
    engine that ignores hints; the best of the two is kept.
    """
    if not hint or not model.evaluate(hint) or model.cost(hint) >= sol.cost:
        return sol
    return make_solution(model, Status.FEASIBLE, hint, lower_bound=sol.lower_bound,
                         wall_time=sol.wall_time, backend=sol.backend, engine=sol.engine,
                         engine_version=sol.engine_version, options=sol.options,
                         message="kept the warm start: it costs less than the engine's answer "
                                 "at the time limit")


def _check_unique_columns(X: Any) -> None:
    """Refuse a DataFrame with duplicate column names, naming them."""
    if hasattr(X, "columns"):
        names = [str(c) for c in X.columns]
        dups = duplicate_names(names)   # linear: names.count was O(n_columns**2)
        if dups:
            raise ValueError(f"duplicate column names: {dups}")


def _where_tested(record: dict) -> str:
    """Where the null test turned the rules of a fit record down: ``"on rows held out"``
    (``null_test="held-out"``) or ``"on the training data"``."""
    held_out = record.get("held_out_test") or {}
    return "on rows held out" if held_out.get("passed") is False else "on the training data"


def held_out_folds(n_rows: int, folds: int, small_rows: int) -> int:
    """The folds of a held-out cross-validation on ``n_rows`` training rows:
    ``HELD_OUT_SMALL_FOLDS`` on ``small_rows`` or fewer (folds of two thirds of so few rows
    judge the rules too harshly), else ``folds``.  IMLI's and IMLIB's
    ``null_test="held-out"`` and CDPR's cross-validation share this rule.

    >>> held_out_folds(120, 3, 150), held_out_folds(151, 3, 150), held_out_folds(120, 3, 0)
    (10, 3, 3)
    """
    return HELD_OUT_SMALL_FOLDS if n_rows <= small_rows else folds


def _class_sample(y_index: np.ndarray, size: int, least: int,
                  rng: np.random.RandomState) -> np.ndarray:
    """Indices of about ``size`` rows drawn at random from ``rng``, sorted, each class in
    its share of the rows but at least ``least`` of its rows (all of them when it has
    fewer)."""
    chosen = []
    for c in np.unique(y_index):
        rows = np.flatnonzero(y_index == c)
        take = min(len(rows), max(least, int(round(size * len(rows) / len(y_index)))))
        chosen.append(rng.choice(rows, take, replace=False))
    return np.sort(np.concatenate(chosen))


def _bonferroni(z: float, m: int) -> float:
    """The z level of a one-sided test at ``z``'s level divided among ``m`` tests."""
    from scipy.stats import norm

    return float(norm.isf(norm.sf(z) / m)) if z > 0 else z


class IncrementalRuleClassifier(ExplainMixin, RegionProbaMixin, RuleFileMixin,
                                PlainLabelsScoreMixin, ClassifierMixin, BaseEstimator,
                                metaclass=ABCMeta):
    """Base class: fit rule sets partition by partition with a MaxSAT encoder (see module)."""

    #: polishing also replaces literals (benchmarks/bench_learner_variants.py measures
    #: the learners without it through a subclass)
    _polish_replace = True
    #: polishing also starts from the empty rule set and keeps the better end (an
    #: experiment measured by benchmarks/bench_learner_variants.py; off by default)
    _polish_from_empty = False
    #: polishing also starts from the best rules a partition found when a constant rule set
    #: won the selection (an experiment: ``polish-found`` in bench_learner_variants)
    _polish_found = False
    #: every literal and rule of the final rules must pass the sign test on its own
    #: marginal effect (:func:`~satrules.estimators._polish.prune_rules`; an experiment);
    #: ``"rules"``: only whole rules must pass it
    _prune = False
    #: the null test's level corrected for the number of candidate literals (an experiment)
    _null_per_column = False
    #: a rule polishing adds must pass that corrected level (an experiment)
    _new_rule_per_column = False
    #: parameters added after model files were first written, with the value that gives
    #: the behaviour of the files' fits; a file without one loads with that value
    _OLDER_FILE_PARAMS = {"extra_rules": 0, "n_init": 1}
    #: what ``n_init`` fits give: ``"pool"``, the best subset of all their rules when it
    #: beats the fit of the lowest whole-training objective, else that fit;
    #: ``"objective"``, that fit; ``"medoid"``, the most typical fit (the last two are
    #: experiments; docs/benchmarks.md)
    _init_choice = "pool"
    #: the most rules the pool may keep: ``"fits"``, as many as the largest of the fits
    #: has; ``"limit"``, ``n_rules + extra_rules`` (an experiment: as accurate, 0.8 more
    #: literals, docs/benchmarks.md "Rules pooled from the fits")
    _pool_bound = "fits"
    #: the pooled rules polished again before they are compared with the best fit (an
    #: experiment: ``pool-polish`` in bench_learner_variants)
    _pool_polish = False
    #: a rule only one of the fits found costs this many errors more in the pool's
    #: choice, which then replaces the best fit whenever the null test allows (an
    #: experiment: ``pool-single-1``, ``pool-single-2`` in bench_learner_variants)
    _pool_single = 0.0
    #: ``null_test="held-out"``: the level of the held-out sign test as a share of
    #: ``significance`` and the ``n_init`` of each fold (``None``: this estimator's);
    #: hooks for the variants of bench_learner_variants (``held-out-null-s65``: 1 and None)
    _held_out_level: float = HELD_OUT_LEVEL
    _held_out_n_init: int | None = HELD_OUT_N_INIT
    #: ... and its number of folds (``held-out-null-5folds``, ``-10folds``), and on how
    #: many training rows at most it takes ``HELD_OUT_SMALL_FOLDS`` (0: never,
    #: ``held-out-null-3folds``, the test before 2026-12-07)
    _held_out_folds: int = HELD_OUT_FOLDS
    _held_out_small_rows: int = HELD_OUT_SMALL_ROWS
    #: a rare class fills a quarter of every partition (:func:`balanced_partitions`);
    #: off, partitions keep the class ratio, as in the papers
    _balance_partitions = True
    #: one-vs-rest with ``OVR_WEIGHT_CLASSES`` classes or more: a row of the class a
    #: problem describes weighs this much more than a row of the rest in that problem's
    #: fit (hooks for ``ovr-positive-*`` of bench_learner_variants; 1: every row alike)
    _ovr_positive: float = OVR_POSITIVE_WEIGHT
    _ovr_weight_classes: int = OVR_WEIGHT_CLASSES
    #: ... and whether the partition solves weigh them too (hook of
    #: ``ovr-solve-unweighted`` and ``ovr-solve-weighted`` of bench_learner_variants;
    #: :data:`OVR_WEIGHT_IN_SOLVES`)
    _ovr_weight_in_solves: bool = OVR_WEIGHT_IN_SOLVES
    #: a pass whose partitions found no rules better on the whole training set than
    #: the better constant rule set ends the passes of that problem (hook of
    #: ``stop-without-rules`` and ``no-stop-without-rules`` of bench_learner_variants;
    #: :data:`STOP_WITHOUT_RULES`)
    _stop_without_rules: bool = STOP_WITHOUT_RULES

    @property
    def _prune_dominated(self) -> bool:
        """Encode each partition without the columns another dominates on both sides
        (:func:`undominated_columns`; same optimum).  A subclass whose encoding can
        forbid a column twice in a rule turns it off then."""
        return True

    #: scikit-learn estimator checks this family is known to fail, with the reason.
    _EXPECTED_FAILED_CHECKS: dict[str, str] = {
        "check_sample_weight_equivalence_on_dense_data":
            "a weight of 2 is not the same as a repeated row: the repeat changes the random "
            "partitions, and the weighted sign test counts one row of weight 2 as one "
            "observation, not two",
    }
    _EXPECTED_FAILED_CHECKS["check_sample_weight_equivalence_on_sparse_data"] = \
        _EXPECTED_FAILED_CHECKS["check_sample_weight_equivalence_on_dense_data"]

    # ------------------------------------------------------------------ hooks
    def _check_params(self) -> None:
        """Raise ``ValueError`` on invalid parameters (subclasses extend)."""

    @abstractmethod
    def _encode_partition(self, Xb, y, prior, rng, sample_weight=None):
        """Return the encoding of one partition (see the module docstring); ``sample_weight``:
        its rows' integer weights (:func:`~satrules.estimators._weights.partition_weights`),
        or None."""

    @abstractmethod
    def _decode(self, encoding, solution) -> RuleSet:
        """Return the rule set a feasible ``solution`` of ``encoding`` selects."""

    def _prior_rules(self, rules: RuleSet) -> RuleSet:
        return rules.simplify(remove_rules=False)

    def _final_rules(self, rules: RuleSet) -> RuleSet:
        return rules.simplify()

    # ------------------------------------------------------------- validation
    def _check_common_params(self) -> None:
        def positive_int(name, value, allow_none=False, least=1):
            if value is None and allow_none:
                return
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
                    or value < least:
                kind = "a positive integer" if least == 1 else f"an integer >= {least}"
                raise ValueError(f"{name} must be {kind}, got {value!r}")

        if self.n_partitions != "auto":
            positive_int("n_partitions", self.n_partitions)
        positive_int("partition_size", self.partition_size, allow_none=True)
        positive_int("n_passes", self.n_passes)
        if not (isinstance(self.n_init, str) and self.n_init == "auto"):
            positive_int("n_init", self.n_init)
        positive_int("extra_rules", getattr(self, "extra_rules", 0), least=0)
        z = getattr(self, "significance", 0.0)
        if isinstance(z, bool) or not isinstance(z, numbers.Real) or not z >= 0 \
                or not math.isfinite(z):
            raise ValueError(f"significance must be a finite number >= 0, got {z!r}")
        if getattr(self, "sign_test", "exact") not in SIGN_TESTS:
            raise ValueError(f"sign_test must be one of {SIGN_TESTS}, got "
                             f"{self.sign_test!r}")
        positive_int("max_partitions", self.max_partitions, allow_none=True)
        if not (isinstance(self.n_thresholds, str) and self.n_thresholds == "auto"):
            positive_int("n_thresholds", self.n_thresholds)
        if self.time_limit is not None and (isinstance(self.time_limit, bool) or
                                            not isinstance(self.time_limit, numbers.Real)
                                            or not self.time_limit > 0):
            raise ValueError(f"time_limit must be positive seconds or None, got "
                             f"{self.time_limit!r}")
        if not isinstance(self.null_test, bool) and self.null_test != "held-out":
            raise ValueError(f"null_test must be True, False or 'held-out', got "
                             f"{self.null_test!r}")
        if self.anchor not in ("previous", "best"):
            raise ValueError(f"anchor must be 'previous' or 'best', got {self.anchor!r}")
        if self.multi_class not in ("ovr", "error"):
            raise ValueError(f"multi_class must be 'ovr' or 'error', got {self.multi_class!r}")
        check_class_weight(getattr(self, "class_weight", None))
        backend_spec(self.backend)

    def _n_partitions(self, n_samples: int, n_columns: int) -> int:
        if self.partition_size is not None:
            return max(1, math.ceil(n_samples / self.partition_size))
        if self.n_partitions == "auto":
            return max(1, math.ceil(n_samples / self._auto_rows(n_columns)))
        return min(self.n_partitions, n_samples)

    def _auto_rows(self, n_columns: int) -> int:
        """Rows per partition for ``n_partitions="auto"``: AUTO_PARTITION_SIZE, fewer when an
        encoding of that many rows would exceed the size guard (many binary columns)."""
        rows = AUTO_PARTITION_SIZE
        while rows > 1 and not self._encoding_fits(rows, n_columns):
            rows //= 2
        if not self._encoding_fits(rows, n_columns):
            raise ValueError(
                f"even a one-row partition over {n_columns:,} binary columns exceeds the "
                "encoding size limit; use fewer thresholds (n_thresholds), fewer rules, or "
                "drop features")
        return rows

    def _encoding_fits(self, rows: int, n_columns: int) -> bool:
        """Whether one partition of ``rows`` rows passes the encoder's size guard (subclasses)."""
        return True

    def _encoding_clauses(self, rows: int, n_columns: int) -> int | None:
        """About how many clauses encode one partition (``None``: unknown; subclasses)."""
        return None

    def _solved_per_pass(self, n_parts: int, n_targets: int = 1,
                         clauses: int | None = None) -> int:
        """Partitions solved in each pass for one of ``n_targets`` one-vs-rest problems: all
        of them, or their share of ``max_partitions`` drawn at random (so a fit of K classes
        solves about as many partitions as a binary one), but at least
        ``MIN_PARTITIONS_PER_CLASS`` -- unless the ``n_targets`` classes' solves of
        ``clauses`` clauses each would exceed ``PASS_WORK`` in all."""
        if self.max_partitions is None:
            return n_parts
        share = math.ceil(self.max_partitions / n_targets)
        floor = min(self.max_partitions, MIN_PARTITIONS_PER_CLASS)
        if n_targets > 1 and clauses is not None:
            work = _solve_units(clauses)
            floor = min(floor, int(PASS_WORK // (n_targets * work)))
        return min(n_parts, max(share, floor))

    def _n_inits(self, n_rows: int, n_columns: int, n_targets: int) -> int:
        """Independent fits (inits) to make: ``n_init``, or for ``"auto"`` ``AUTO_INITS``
        when the data are small enough (``n_targets * n_rows * n_columns`` at most
        ``INIT_CELLS``; fewer above, as many as fit in that bound, at least one)."""
        if self.n_init != "auto":
            return int(self.n_init)
        cells = max(1, n_targets * n_rows * n_columns)
        return max(1, min(AUTO_INITS, INIT_CELLS // cells))

    def _n_passes(self, n_parts: int) -> int:
        """Passes over the partitions; one when there is one partition (a repeat adds nothing)."""
        return 1 if n_parts == 1 else int(self.n_passes)

    def _one_vs_rest_passes(self, n_passes: int, clauses: list) -> int:
        """Passes of a fit of ``len(clauses)`` one-vs-rest problems whose partitions encode
        in ``clauses`` clauses each: ``n_passes``, unless one solve per class already
        exceeds ``PASS_WORK`` -- then as many as ``n_passes * PASS_WORK`` units allow, at
        least one (300 classes of 20,000 x 100: 600 solves took IMLI 93 s with two
        passes; docs/benchmarks.md).

        Examples
        --------
        >>> from satrules import IMLIClassifier
        >>> est = IMLIClassifier()
        >>> est._one_vs_rest_passes(2, [15_000] * 100)   # 200 units: two passes
        2
        >>> est._one_vs_rest_passes(2, [15_000] * 500)   # 1,000 units: one pass
        1
        """
        if len(clauses) < 2 or any(c is None for c in clauses):
            return n_passes
        units = sum(map(_solve_units, clauses))
        if units <= PASS_WORK:
            return n_passes
        return max(1, min(n_passes, int(n_passes * PASS_WORK // units)))

    # -------------------------------------------------------------------- fit
    def _new_binarizer(self) -> ThresholdBinarizer:
        """An unfitted binarizer with this estimator's settings (``fit``, ``satrules encode``)."""
        return ThresholdBinarizer(n_thresholds=self.n_thresholds, max_levels=self.max_levels,
                                  thresholds=self.thresholds,
                                  categories=getattr(self, "categories", "onehot"))

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> IncrementalRuleClassifier:
        """Learn the rule set(s) from ``X`` (array or DataFrame) and labels ``y``.

        ``sample_weight`` (one non-negative number per row, optional) multiplies each
        row's cost of a misclassification, on top of ``class_weight``; rows of weight 0
        are left out (see ``class_weight``).
        """
        start = time.monotonic()   # time_limit covers the whole fit, binarization included
        deadline = None if self.time_limit is None else start + self.time_limit
        # null_test="held-out" fits three folds of two thirds of the rows after the fit
        # (ten of nine tenths on small data), each a single fit: the fit itself gets
        # HELD_OUT_FIT_SHARE of the time limit
        end = deadline if deadline is None or self.null_test != "held-out" else \
            start + self.time_limit * HELD_OUT_FIT_SHARE
        self._check_common_params()
        self._check_params()
        _check_unique_columns(X)
        check_missing_labels(y)
        y = plain_labels(y)   # before scikit-learn reads nullable labels as floats
        X, y = validate_columns(self, X, y, reset=True)   # a DataFrame stays one
        check_label_types(y)
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(
                f"y has only 1 class ({self.classes_.tolist()[0]!r}); Classifier can't train "
                "when only one class is present"
            )
        if len(self.classes_) > 2 and self.multi_class == "error":
            raise ValueError(f"{type(self).__name__} with multi_class='error' needs 2 classes, "
                             f"got {len(self.classes_)}")
        described = self._described_class()
        keep, weights = kept_weights(fit_weights(self.classes_, y_idx, sample_weight,
                                                 getattr(self, "class_weight", None)))
        if keep is not None:
            X, y, y_idx = X.iloc[keep] if hasattr(X, "iloc") else X[keep], y[keep], y_idx[keep]
        self.weighted_ = weights is not None
        rng = check_random_state(self.random_state)
        self.binarizer_ = self._new_binarizer()
        Xb = self.binarizer_.fit_transform(X, y)
        self.class_counts_ = np.bincount(y_idx, minlength=len(self.classes_))
        ovr = len(self.classes_) > 2
        # two classes: the described one, or both with rule_class="auto" (each fitted as
        # if it were the only one, then the lower whole-training objective is kept)
        targets = list(range(len(self.classes_))) if ovr else \
            [0, 1] if described is None else [described]
        n_problems = len(targets) if ovr else 1
        n_parts = self._n_partitions(len(y_idx), Xb.shape[1])
        self.n_partitions_ = n_parts
        # many classes: each one-vs-rest problem sees only the thresholds that split it,
        # and of a category grouped once per class (categories="grouped"), its own ladder
        narrow = ovr and (self.binarizer_.n_tree_thresholds_ > self.binarizer_.n_thresholds_
                          or "grouped" in self.binarizer_.feature_kinds_.values())
        counts = Xb.sum(axis=0, dtype=np.int64) if narrow else None   # once, not per class
        columns = {c: self.binarizer_.class_columns(Xb, y_idx == c, column_counts=counts,
                                                    label=self.classes_[c])
                   if narrow else None for c in targets}
        # polishing sees every threshold but, of a grouped feature, its own class's ladder
        # too (another class's column of the same levels reads other out-of-fold rates)
        own = {c: self.binarizer_.own_columns(self.classes_[c]) if narrow else None
               for c in targets}
        rows = math.ceil(len(y_idx) / n_parts)
        clauses = {c: self._encoding_clauses(
            rows, Xb.shape[1] if columns[c] is None else len(columns[c])) for c in targets}
        per_pass = {c: self._solved_per_pass(n_parts, n_problems, clauses[c])
                    for c in targets}
        self.n_passes_ = self._one_vs_rest_passes(self._n_passes(n_parts),
                                                  list(clauses.values())[:n_problems])
        per_init = sum(per_pass.values()) * self.n_passes_
        self.n_init_ = n_init = self._n_inits(len(y_idx), Xb.shape[1], len(targets))
        total = per_init * n_init
        # one bar for the whole fit (one-vs-rest and every init included), shown on a
        # terminal when the fit is still running after PROGRESS_DELAY s
        bar = progress(range(total), total=total, delay=PROGRESS_DELAY,
                       desc="partitions" if len(targets) == 1 else
                       f"partitions ({len(targets)} classes)" if ovr else
                       "partitions (rules for each class)")
        # with several fits, one more (small) solve per class chooses from their rules
        pooled = len(targets) if n_init > 1 and self._init_choice == "pool" else 0
        budget = {"deadline": end, "left": total + pooled, "stopped": False,
                  "steps": iter(bar), "passes": self.n_passes_}
        # the classes learned and judged together: one-vs-rest, all of them; two classes,
        # the one described -- or with rule_class="auto" each class on its own, drawing
        # as a fit of it alone would
        groups = [targets] if ovr or len(targets) == 1 else [[c] for c in targets]
        kept = {}   # class -> (rules, solutions, record) of the init kept for its group
        draws = {}   # group's first class -> its random state after its fits
        try:
            for group in groups:
                draw = draws[group[0]] = rng if len(groups) == 1 else copy.deepcopy(rng)
                inits = []
                for k in range(n_init):
                    if k > 0 and (budget["stopped"] or (
                            end is not None and time.monotonic() >= end)):
                        budget["stopped"] = True
                        break
                    init = {}
                    for c in group:
                        budget["per_pass"] = per_pass[c]
                        problem = self._problem_weights(weights, y_idx == c)
                        init[c] = self._fit_binary(
                            Xb, y_idx == c, n_parts, draw, budget, columns[c], problem,
                            own[c],
                            solve_weights=problem if self._ovr_weight_in_solves else weights)
                        init[c][2]["init"] = k
                    if self._null_test_on():
                        fitted = {c: init[c][0] for c in group}
                        records = {c: init[c][2] for c in group}
                        self._null_test(fitted, records, Xb, y_idx, weights)
                        init = {c: (fitted[c], init[c][1], records[c]) for c in group}
                    inits.append(init)
                chosen = inits[self._kept_init(inits, Xb, y_idx, weights)]
                if self._init_choice == "pool" and len(inits) > 1:
                    chosen = self._pooled_init(inits, chosen, Xb, y_idx, weights, budget, own)
                kept.update(chosen)
        finally:
            close = getattr(bar, "close", None)
            if close is not None:
                close()
        if self.null_test == "held-out" and self._null_test_on():
            # rule_class="auto": each class's rules tested as a fit of it alone tests them
            # (its folds describe it; the time left shared between the two)
            for k, group in enumerate(groups):
                share = deadline if deadline is None or len(groups) == 1 else \
                    time.monotonic() + (deadline - time.monotonic()) / (len(groups) - k)
                part = {c: kept[c] for c in group}
                if self._held_out_null_test(part, X, y_idx, Xb, weights, draws[group[0]],
                                            share, None if len(groups) == 1
                                            else self.classes_.tolist()[group[0]]):
                    budget["stopped"] = True   # a fold stopped at its share of the limit
                kept.update(part)
        self._conclude(kept, Xb, y_idx, weights, targets, described, ovr)
        self.time_limit_reached_ = budget["stopped"]
        return self

    def _problem_weights(self, weights: np.ndarray | None,
                         positive: np.ndarray) -> np.ndarray | None:
        """The row weights of the problem of one class (``positive``: its rows):
        one-vs-rest with ``_ovr_weight_classes`` classes or more, ``weights`` (None: all
        1) with that class's rows ``_ovr_positive`` times heavier
        (:data:`OVR_POSITIVE_WEIGHT`); otherwise, two classes included, ``weights``."""
        factor = float(self._ovr_positive)
        n_classes = len(self.classes_)
        if factor == 1.0 or n_classes <= 2 or n_classes < self._ovr_weight_classes:
            return weights
        base = np.ones(len(positive)) if weights is None else weights
        return np.where(positive, base * factor, base)

    def _combined_predictions(self, fitted: dict, Xb: np.ndarray, y: np.ndarray,
                              weights: np.ndarray | None = None) -> np.ndarray:
        """The class index the rules of ``fitted`` (class index -> rules) predict for each
        row of ``Xb``: two classes, the class described where its rules hold and the other
        elsewhere; one-vs-rest, in the class order and with the default that suit the
        training labels ``y`` best (:func:`choose_class_order`), as the fit concludes."""
        if len(fitted) == 1:
            (c,) = fitted
            return np.where(fitted[c].evaluate(Xb), c, 1 - c)
        fires = np.stack([fitted[c].evaluate(Xb) for c in fitted], axis=1)
        return _ordered_predict(fires, *choose_class_order(fires, y, self.class_counts_,
                                                           weights))

    def _kept_init(self, inits: list, Xb: np.ndarray, y_idx: np.ndarray,
                   weights: np.ndarray | None) -> int:
        """The index of the init to keep among ``inits`` (each: class -> (rules,
        solutions, record) for the classes of one group), the earlier on a tie: the one
        of the lowest whole-training objective of its predictions (``data_fidelity *``
        the rows it gets wrong ``+`` the literal weight ``*`` its literals), or with
        ``_init_choice = "medoid"`` the one whose training predictions agree with the
        others' on the most rows."""
        if len(inits) == 1:
            return 0
        rules = [{c: fit[0] for c, fit in init.items()} for init in inits]
        if self._init_choice == "medoid":
            predicted = np.array([self._combined_predictions(r, Xb, y_idx, weights)
                                  for r in rules])
            return int(np.argmax([np.count_nonzero(predicted == p) for p in predicted]))
        return int(np.argmin([self._combined_cost(r, Xb, y_idx, weights) for r in rules]))

    def _pooled_init(self, inits: list, chosen: dict, Xb: np.ndarray, y_idx: np.ndarray,
                     weights: np.ndarray | None, budget: dict, own: dict | None = None) -> dict:
        """The best rules of the pool of every fit's rules: for each class of ``chosen``
        (class -> (rules, solutions, record), the fit kept), the subset of the rules all
        ``inits`` found for it with the lowest whole-training objective, no more of them
        than the largest fit has (``_pool_bound``; :mod:`satrules.encoders.subset`,
        solved exactly); kept instead of ``chosen`` when the predictions they make
        together have a lower objective and pass the null test.  A deadline that has
        passed, or a solve without an answer, keeps ``chosen``."""
        if budget["stopped"] or (budget["deadline"] is not None
                                 and time.monotonic() >= budget["deadline"]):
            return chosen
        fitted = {}
        for c, (rules, _, _) in chosen.items():
            pooled = self._pooled_rules([init[c][0] for init in inits], rules, Xb,
                                        y_idx == c, self._problem_weights(weights, y_idx == c),
                                        budget)
            if pooled is None:   # no answer within the time limit
                return chosen
            if self._pool_polish and getattr(self, "polish", False):
                pooled = self._polished(pooled, pooled.n_rules + int(self.extra_rules),
                                        _bool_view(Xb), y_idx == c, weights,
                                        None if own is None else own[c], budget["deadline"])
            fitted[c] = pooled
        before = {c: fit[0] for c, fit in chosen.items()}
        if not self._pool_single and self._combined_cost(fitted, Xb, y_idx, weights) >= \
                self._combined_cost(before, Xb, y_idx, weights):
            return chosen
        records = {c: {**chosen[c][2], "pooled_from": chosen[c][2]["objective"],
                       "objective": self._objective(fitted[c], Xb, y_idx == c, weights)}
                   for c in chosen}
        if self._null_test_on():
            self._null_test(fitted, records, Xb, y_idx, weights)
            if any("not_significant" in record for record in records.values()):
                return chosen
        return {c: (fitted[c], chosen[c][1], records[c]) for c in chosen}

    def _combined_cost(self, fitted: dict, Xb: np.ndarray, y_idx: np.ndarray,
                       weights: np.ndarray | None) -> float:
        """The whole-training objective of the predictions the rules of ``fitted`` (class
        index -> rules) make together: ``data_fidelity *`` the rows (their weight) they get
        wrong ``+`` the literal weight ``*`` their literals."""
        wrong = self._combined_predictions(fitted, Xb, y_idx, weights) != y_idx
        errors = np.count_nonzero(wrong) if weights is None else float(wrong @ weights)
        return float(self.data_fidelity) * errors + self._literal_weight() * sum(
            rules.n_literals for rules in fitted.values())

    def _pooled_rules(self, sets: list, kept: RuleSet, Xb: np.ndarray, y: np.ndarray,
                      weights: np.ndarray | None, budget: dict) -> RuleSet | None:
        """The subset of the rules of ``sets`` (one class's rule sets, one per fit) of the
        lowest objective on ``(Xb, y)``, the rules ``kept`` as the solve's warm start;
        None when the solve found no answer within the time limit."""
        kind, m = kept.kind, Xb.shape[1]
        index, terms = {}, []   # each distinct rule once (its literals, in any order)
        found = {}   # how many fits found each
        for rules in sets:
            for rule in rules.rules:
                key = frozenset(rule.literals)
                found[key] = found.get(key, 0) + 1
                if key not in index:
                    index[key] = len(terms)
                    terms.append(rule)
        values, target = RuleSet(terms, kind, m).rule_values(Xb), y
        if kind == "cnf":   # De Morgan: a CNF fails where one of its clauses fails
            values, target = ~values, ~y
        fidelity, row_weights = (self.data_fidelity, None) if weights is None else \
            (scaled_fidelity(self.data_fidelity), partition_weights(weights))
        most = max(r.n_rules for r in sets) if self._pool_bound == "fits" else \
            int(self.n_rules) + int(getattr(self, "extra_rules", 0))
        extra = round(float(self._pool_single) * float(self.data_fidelity)
                      / self._literal_weight())
        sizes = [len(rule) + (extra if found[frozenset(rule.literals)] == 1 else 0)
                 for rule in terms]
        enc = encode_subset(values, target, sizes, fidelity,
                            self._literal_weight(), most, sample_weight=row_weights)
        hint = hint_subset(enc.layout, [index[frozenset(rule.literals)] for rule in kept.rules])
        # a selection model, whatever engine solves the partitions: solved by the one
        # "auto" picks for selection models (HiGHS first).  RC2 was still searching after
        # minutes on a noisy 9,262-row set (AER/STAR), where thousands of errors make as
        # many cores; HiGHS took 0.35 s, CP-SAT 0.22 s.
        time_limit = self._solve_time(budget)
        name = choose_backend(enc.model, time_limit, selection=True)
        with paused_gc():
            sol = solve(enc.model, backend=name, time_limit=time_limit, seed=0, hint=hint)
        budget["left"] -= 1
        if sol.status is Status.ERROR:
            raise BackendError(f"{sol.backend or name} returned {sol.status.value} on the "
                               f"pooled rules: {sol.message}")
        if not sol.status.is_feasible:
            return None
        chosen = decode_subset(enc.layout, sol)
        return RuleSet([terms[i] for i in chosen], kind, m).named(self.binarizer_.conditions_)

    def _conclude(self, fits: dict, Xb: np.ndarray, y_idx: np.ndarray,
                  weights: np.ndarray | None, targets: list, described: int | None,
                  ovr: bool) -> None:
        """Set the fitted attributes from ``fits`` (class -> (rules, solutions, record));
        the records are copied, not changed."""
        fitted = {c: f[0] for c, f in fits.items()}
        solutions = {c: f[1] for c, f in fits.items()}
        records = {c: dict(f[2]) for c, f in fits.items()}
        if not ovr:   # labelled: print(rules_) names the class it predicts
            if described is None:   # "auto": the lower objective; classes_[1] on a tie
                described = min((1, 0), key=lambda c: records[c]["objective"])
                records[described]["other_class_objective"] = records[1 - described]["objective"]
            self.rule_class_ = self.classes_.tolist()[described]   # a plain label, for files
            self.rules_ = fitted[described].labelled(self.rule_class_)
            self.solutions_, record = solutions[described], records[described]
            self.fit_history_ = record.pop("history")
            self.best_partition_ = record
        else:
            self.rule_class_ = None
            self.rules_ = {self.classes_[c]: fitted[c].labelled(self.classes_[c]) for c in targets}
            self.solutions_ = {self.classes_[c]: solutions[c] for c in targets}
            self.fit_history_ = {self.classes_[c]: records[c].pop("history") for c in targets}
            self.best_partition_ = {self.classes_[c]: records[c] for c in targets}
        fires = self._evaluate(Xb)   # the final rules on the training rows, once
        if len(self.classes_) == 2:
            self.class_order_, self.default_class_ = None, None
        else:
            order, default = choose_class_order(fires, y_idx, self.class_counts_, weights)
            self.class_order_, self.default_class_ = self.classes_[order], self.classes_[default]
        self.region_counts_ = region_counts(self._regions(fires), y_idx, self._n_regions(),
                                            len(self.classes_), weights)
        last = solutions[targets[-1] if ovr else described]
        self.solution_ = last[-1] if last else None

    def _null_test_on(self) -> bool:
        """Whether the final rules must pass the sign test against a constant prediction."""
        return bool(getattr(self, "null_test", False)) and \
            float(getattr(self, "significance", 0.0)) > 0

    def _level(self, per_column: bool, n_columns: int) -> float:
        """``significance``, or (``per_column``: the ``_new_rule_per_column`` and
        ``_null_per_column`` experiments) that level Bonferroni-corrected for the
        ``2 * n_columns`` literals the rules are chosen from."""
        z = float(getattr(self, "significance", 0.0))
        return _bonferroni(z, 2 * n_columns) if per_column and n_columns >= 1 else z

    def _null_test(self, fitted: dict, records: dict, Xb: np.ndarray, y: np.ndarray,
                   weights: np.ndarray | None = None) -> None:
        """Replace the rules of every class by a constant prediction of the most frequent
        class unless the predictions they make together beat it in the sign test (rows
        they get right and it gets wrong, against the converse); also when they change no
        training prediction.  Rules that beat the majority class by a few training rows
        are noise: on AER/Affairs they were 1-2 rows better in training and 2-5 points
        worse in test.  One-vs-rest is tested once, on the combined predictions (testing
        each class against its own constant cost 3-5 points on carData/Womenlf).
        ``fitted`` and ``records`` (class index -> rules / fit record) change in place.
        With row ``weights``, the constant is the class of the largest weight and the test
        is the weighted sign test (:func:`~satrules.estimators._polish.significant`)."""
        if all(r.never_true or r.always_true for r in fitted.values()):
            return   # already a constant
        predicted = self._combined_predictions(fitted, Xb, y, weights)
        totals = self.class_counts_ if weights is None else \
            np.bincount(y, weights=weights, minlength=len(self.class_counts_))
        majority = int(np.argmax(totals))
        if beats_constant(predicted, y, majority, self._level(self._null_per_column,
                                                             Xb.shape[1]),
                          self.sign_test, weights)[2]:
            return
        self._to_constant(fitted, records, Xb, y, weights, majority)

    def _to_constant(self, fitted: dict, records: dict, Xb: np.ndarray, y: np.ndarray,
                     weights: np.ndarray | None, majority: int) -> None:
        """Replace the rules of every class of ``fitted`` by a constant prediction of the
        class ``majority`` (binary: that constant rule set; one-vs-rest: no class fires),
        each class's record kept under ``"not_significant"``; in place."""
        false, true = self._trivial_rule_sets(Xb.shape[1])
        for c in fitted:
            const = true if len(fitted) == 1 and majority == c else false
            history = records[c].pop("history")
            records[c] = {"pass": None, "partition": None,
                          "constant": "always true" if const is true else "always false",
                          "objective": self._objective(const, Xb, y == c, weights),
                          "history": history,
                          "not_significant": records[c]}
            fitted[c] = const.named(self.binarizer_.conditions_)

    def _held_out_null_test(self, kept: dict, X: Any, y_idx: np.ndarray, Xb: np.ndarray,
                            weights: np.ndarray | None, rng: np.random.RandomState,
                            deadline: float | None, described: Any = None) -> bool:
        """``null_test="held-out"``: the rules of ``kept`` (class -> (rules, solutions,
        record)) must also beat the constant on rows they were not learned on.  Return
        whether a fold stopped at the time limit (each gets an equal share of the time
        left).

        A stratified ``HELD_OUT_FOLDS``-fold cross-validation of this estimator on the
        training rows (``HELD_OUT_SMALL_FOLDS``-fold on ``HELD_OUT_SMALL_ROWS`` rows or
        fewer; a sample of ``HELD_OUT_MAX_ROWS`` of them at most, every class kept), each
        fold fitted with these parameters, ``null_test=False`` and
        ``n_init=HELD_OUT_N_INIT`` on its own rows (binarization included), gives
        out-of-fold predictions; they are held to the sign test at z = ``HELD_OUT_LEVEL
        * significance`` against each fold's constant (the most frequent class of its
        training rows, by weight).  When they fail it, every class's rules become the
        constant of the whole training set, as when the training-row test fails.  The
        verdict is recorded in each class's record as ``"held_out_test"`` (``fixed``,
        ``broken``, ``passed`` and the number of ``folds``; or ``"skipped"`` with the
        reason, and the rules kept, when a class has a single row or the time limit
        leaves no time).  ``described``: the label the folds describe (``rule_class``;
        None: this estimator's).  ``kept`` changes in place."""
        from sklearn.base import clone
        from sklearn.model_selection import StratifiedKFold

        fitted = {c: fit[0] for c, fit in kept.items()}
        records = {c: dict(fit[2]) for c, fit in kept.items()}
        if "not_significant" in next(iter(records.values())) or \
                all(r.never_true or r.always_true for r in fitted.values()):
            return False   # already a constant
        rows = np.arange(len(y_idx)) if len(y_idx) <= HELD_OUT_MAX_ROWS else \
            _class_sample(y_idx, HELD_OUT_MAX_ROWS, self._held_out_folds, rng)   # all classes
        labels = y_idx[rows]
        counts = np.bincount(labels)
        w = np.ones(len(rows)) if weights is None else weights[rows]
        skipped, stopped = None, False
        if counts[counts > 0].min() < 2:
            skipped = "a class has a single training row"
        elif deadline is not None and time.monotonic() >= deadline:
            skipped, stopped = "the time limit left no time", True
        verdict: dict = {"skipped": skipped}
        if skipped is None:
            n_folds = held_out_folds(len(rows), self._held_out_folds, self._held_out_small_rows)
            folds = StratifiedKFold(min(n_folds, int(counts[counts > 0].min())),
                                    shuffle=True, random_state=int(rng.randint(2**31 - 1)))
            predicted, constant = labels.copy(), labels.copy()
            take = X.iloc if hasattr(X, "iloc") else X
            # two classes: folds, and a fold's constant on a tie, by which class the rules
            # describe, not by how the labels sort (rule_class="a" is then exactly the fit
            # on labels renamed so that "a" sorts last; the default describes classes_[1])
            two = len(self.classes_) == 2
            d = (self._described_class() if described is None
                 else self.classes_.tolist().index(described)) if two else None
            strata = (labels == d).astype(int) if two else labels
            splits = list(folds.split(np.zeros(len(rows)), strata))
            # one bar for the folds (after PROGRESS_DELAY s on a terminal); theirs quiet
            bar = progress(range(len(splits)), total=len(splits), delay=PROGRESS_DELAY,
                           desc="held-out null test (folds)")
            ticks = iter(bar)
            for k, (train, test) in enumerate(splits):
                next(ticks, None)
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    verdict, stopped = {"skipped": "the time limit left no time"}, True
                    break
                fold = clone(self).set_params(
                    null_test=False, class_weight=None,
                    **({} if described is None else {"rule_class": described}),
                    n_init=self.n_init if self._held_out_n_init is None
                    else self._held_out_n_init,
                    random_state=int(rng.randint(2**31 - 1)),
                    time_limit=None if left is None else left / (len(splits) - k))
                share = np.bincount(labels[train], weights=w[train],
                                    minlength=len(self.classes_))
                constant[test] = int(np.argmax(share)) if not two else \
                    d if share[d] > share[1 - d] else 1 - d
                with warnings.catch_warnings(), quiet_progress():   # the fit's own
                    warnings.simplefilter("ignore")                 # warnings were given
                    try:
                        fold.fit(take[rows[train]], self.classes_[labels[train]],
                                 sample_weight=None if weights is None else w[train])
                        predicted[test] = np.searchsorted(
                            self.classes_, fold.predict(take[rows[test]]))
                        stopped = stopped or fold.time_limit_reached_
                    except ValueError:   # every column constant on the fold's rows, or
                        # a value its binarizer cannot read (a blank in a column of
                        # durations there): no rule, the fold's constant
                        predicted[test] = constant[test]
            else:
                fixed, broken, passed = beats_constant(
                    predicted, labels, constant,
                    self._held_out_level * float(self.significance),
                    self.sign_test,
                    None if weights is None else w)
                verdict = {"fixed": fixed, "broken": broken, "passed": passed,
                           "folds": len(splits)}
            close = getattr(bar, "close", None)
            if close is not None:
                close()
        if verdict.get("skipped"):
            warn(f"null_test='held-out': the held-out test was not made "
                 f"({verdict['skipped']}); the rules passed the training-row test",
                 RuntimeWarning)
        for record in records.values():   # turned down, under "not_significant" too
            record["held_out_test"] = verdict
        if not verdict.get("passed", True):
            majority = int(np.argmax(np.bincount(y_idx, weights=weights,
                                                 minlength=len(self.classes_))))
            # two classes: each class's rules on their own (rule_class="auto" keeps
            # both), as the training-row test judges them
            for group in [list(kept)] if len(self.classes_) > 2 else [[c] for c in kept]:
                part = {c: fitted[c] for c in group}
                part_records = {c: records[c] for c in group}
                self._to_constant(part, part_records, Xb, y_idx, weights, majority)
                fitted.update(part)
                records.update(part_records)
        for c in kept:
            records[c]["held_out_test"] = verdict
            kept[c] = (fitted[c], kept[c][1], records[c])
        return stopped

    def _solve_time(self, budget: dict) -> float | None:
        if budget["deadline"] is None:
            return None
        left = budget["deadline"] - time.monotonic()
        return max(left / max(budget["left"], 1), 0.01)

    def _objective(self, rules: RuleSet, Xb: np.ndarray, y: np.ndarray,
                   weights: np.ndarray | None = None) -> float:
        """Return ``data_fidelity * errors + literal_weight * literals`` on ``(Xb, y)``
        (with row ``weights``, ``errors`` is the weight of the rows misclassified)."""
        wrong = rules.evaluate(Xb) != y
        errors = int(np.count_nonzero(wrong)) if weights is None else float(weights[wrong].sum())
        return float(self.data_fidelity) * errors + self._literal_weight() * rules.n_literals

    def _literal_weight(self) -> float:
        """The cost of one literal in the whole-training-set objective (subclasses override)."""
        return 1.0

    def _max_literals(self) -> int | None:
        """The most literals one rule may hold (``None``: no bound; IMLIB overrides)."""
        return None

    def _trivial_rule_sets(self, n_columns: int) -> list[RuleSet]:
        """Return the two constant rule sets (always false, always true) of this learner's kind."""
        kind = getattr(self, "rule_type", "dnf")
        empty = RuleSet([], kind, n_columns)              # DNF: false, CNF: true
        one_empty = RuleSet([Rule(())], kind, n_columns)  # DNF: true, CNF: false
        return [empty, one_empty] if kind == "dnf" else [one_empty, empty]

    def _hint_rules(self, encoding, rules: RuleSet) -> dict | None:
        """Return a warm start of ``encoding`` realising ``rules``, or None (subclasses)."""
        return None

    def _warm_start(self, enc, best: RuleSet | None) -> dict | None:
        """The best rules so far as a feasible start of ``enc``, else the encoder's own hint
        (also when ``best`` is None: it uses a column the partitions do not see)."""
        hint = self._hint_rules(enc, best) if best is not None and best.n_rules else None
        if hint is not None and enc.model.evaluate(hint):
            return hint
        return getattr(enc, "hint", None)

    def _fit_binary(self, Xb: np.ndarray, y: np.ndarray, n_parts: int,
                    rng: np.random.RandomState, budget: dict,
                    columns: np.ndarray | None = None,
                    weights: np.ndarray | None = None,
                    polish_columns: np.ndarray | None = None, *,
                    solve_weights: np.ndarray | None) -> tuple[RuleSet, list, dict]:
        """Learn one rule set for ``y`` (bool); return it, the solutions and a fit record.

        Every partition's rules are a candidate; the one with the lowest objective on the
        whole training set wins, the two constant rule sets included (so the result is
        never worse on the training data than predicting one class).  ``columns``: the
        partitions are encoded over these columns of ``Xb`` only (the rules returned
        index all of them; :meth:`ThresholdBinarizer.class_columns`).  ``weights``: each
        row's weight (mean 1), or None.  ``polish_columns``: the columns polishing may use
        (None: all of them).  ``solve_weights``: the row weights of the partition solves
        (None: every row alike): ``weights``, or the user's alone when ``weights`` hold
        one-vs-rest's heavier class (:meth:`_problem_weights`).
        """
        conditions = self.binarizer_.conditions_
        view = _ColumnView(Xb.shape[1], columns)
        best, best_obj, best_at = None, math.inf, None
        solve_weights = None if solve_weights is None else partition_weights(solve_weights)
        for r, rules in enumerate(self._trivial_rule_sets(Xb.shape[1])):
            obj = self._objective(rules, Xb, y, weights)
            if obj < best_obj:
                best, best_obj = rules, obj
                best_at = {"pass": None, "partition": None,
                           "constant": ("always false", "always true")[r]}
        constant_obj = best_obj
        prior, best_prior, solutions, history = None, None, [], []
        found, found_obj = None, math.inf   # the best rules a partition found
        anchor_best = self.anchor == "best"
        name, options = backend_spec(self.backend)
        n_passes = budget["passes"]     # set by fit (fewer for very many classes)
        per_pass = budget["per_pass"]   # this class's share, set by fit
        steps = budget["steps"]         # the fit's progress bar
        for p in range(n_passes):
            parts = (balanced_partitions if self._balance_partitions else split_partitions)(
                y, n_parts, rng)
            if per_pass < len(parts):   # large data: a random subset of the partitions
                keep = np.sort(rng.choice(len(parts), per_pass, replace=False))
                parts = [parts[j] for j in keep]
            if p > 0 and ERROR_SHARE > 0:
                parts = error_partitions(parts, np.flatnonzero(best.evaluate(Xb) != y),
                                         ERROR_SHARE, rng)
            for i, part in enumerate(parts):
                next(steps, None)
                if budget["deadline"] is not None and time.monotonic() >= budget["deadline"]:
                    budget["stopped"] = True
                    break
                # a solve allocates ~10^4 short lists per partition; pausing the cyclic
                # GC halves the CPU of a small partition (satrules/ir/gcpause.py)
                with paused_gc():
                    rows = view.rows(Xb, part)
                    anchor = view.narrow(best_prior if anchor_best else prior)
                    start = view.narrow(best)
                    # one column per pattern the partition's rows tell apart, then only
                    # those without both a better and a worse one (same optimum)
                    subset = distinct_columns(rows, (anchor, start))
                    if self._prune_dominated:
                        subset = undominated_columns(rows, y[part], subset, (anchor, start))
                    distinct = _ColumnView(rows.shape[1], subset)
                    args = (distinct.take(rows), y[part], distinct.narrow(anchor), rng)
                    enc = self._encode_partition(*args) if solve_weights is None else \
                        self._encode_partition(*args, sample_weight=solve_weights[part])
                    hint = self._warm_start(enc, distinct.narrow(start))
                    sol = solve(enc.model, backend=name, time_limit=self._solve_time(budget),
                                seed=int(rng.randint(2**31 - 1)), hint=hint, **options)
                budget["left"] -= 1
                if sol.status is Status.FEASIBLE:
                    sol = _keep_better_hint(enc.model, sol, hint)
                solutions.append(sol)
                if sol.status is Status.ERROR or sol.status is Status.UNSATISFIABLE:
                    raise BackendError(f"{sol.backend or name} returned "
                                       f"{sol.status.value} on a partition: {sol.message}")
                entry = {"pass": p, "partition": i, "status": sol.status.value,
                         "objective": None}
                history.append(entry)
                if not sol.status.is_feasible:   # UNKNOWN: keep the previous anchors
                    continue
                rules = view.widen(distinct.widen(self._decode(enc, sol))).named(conditions)
                prior = self._prior_rules(rules)
                candidate = self._final_rules(rules)
                entry["objective"] = obj = self._objective(candidate, Xb, y, weights)
                if obj <= best_obj:   # ties go to the later rules (refined over more data)
                    best, best_obj, best_prior = candidate, obj, prior
                    best_at = {"pass": p, "partition": i, "constant": None}
                if obj <= found_obj:
                    found, found_obj = candidate, obj
            else:
                if self._stop_without_rules and p + 1 < n_passes and found_obj >= constant_obj:
                    # nothing better than a constant: the passes left are not solved
                    skipped = len(parts) * (n_passes - p - 1)
                    budget["left"] -= skipped
                    for _ in range(skipped):
                        next(steps, None)
                    break
                continue
            break   # the deadline passed
        record = {**best_at, "objective": best_obj, "history": history}
        polish = bool(getattr(self, "polish", False))
        z = float(getattr(self, "significance", 0.0))
        Xbool = _bool_view(Xb)
        if polish:
            starts = [(best, best.n_rules + int(self.extra_rules))]
            if self._polish_from_empty:   # also when best is empty (max_rules was 0)
                starts.append((RuleSet([], best.kind, Xb.shape[1]), int(self.n_rules)))
            if self._polish_found and best_at["constant"] is not None and found is not None:
                starts.append((found, found.n_rules))
            for start, max_rules in starts:
                polished = self._polished(start, max_rules, Xbool, y, weights,
                                          polish_columns, budget["deadline"],
                                          budget.setdefault("column_ones", {}))
                obj = self._objective(polished, Xb, y, weights)
                if obj < record["objective"]:   # never worse on the training data
                    record["polished_from"] = best_obj
                    best, record["objective"] = polished, obj
        if self._prune and z > 0:
            pruned = self._final_rules(prune_rules(best, Xbool, y, z, self.sign_test, weights,
                                                   literals=self._prune != "rules"))
            if pruned.n_literals != best.n_literals:
                record["pruned_from"] = record["objective"]
                best, record["objective"] = pruned, self._objective(pruned, Xb, y, weights)
        if not any(s.status.is_feasible for s in solutions):
            warn("no partition produced a solution within the time limit; the rule set is "
                 "the better of 'always true' and 'always false' on the training data" +
                 (", then polished" if polish else ""), RuntimeWarning)
        return best.named(conditions), solutions, record

    def _polished(self, start: RuleSet, max_rules: int, Xbool: np.ndarray, y: np.ndarray,
                  weights: np.ndarray | None, polish_columns: np.ndarray | None,
                  deadline: float | None, ones_cache: dict | None = None) -> RuleSet:
        """``start`` polished on the training rows ``Xbool`` (bool) for ``y``, with at most
        ``max_rules`` rules, over the columns ``polish_columns`` (None: all of them; all of
        them too when ``start`` uses another).  ``ones_cache``: a dict kept for the fit,
        where the ones per column of ``Xbool`` are counted once for all its classes."""
        seen = _ColumnView(Xbool.shape[1], polish_columns)
        narrowed = seen.narrow(start)
        pview = seen if narrowed is not None else _ColumnView(Xbool.shape[1], None)
        Xp = pview.take(Xbool)
        ones = None
        if ones_cache is not None and Xp is Xbool:
            # every class of a one-vs-rest fit polishes on the same Xb: count its columns'
            # ones once (what a new rule reads while no rule covers a row)
            key = (Xbool.__array_interface__["data"][0], Xbool.shape)
            if key not in ones_cache:
                ones_cache[key] = column_ones(Xbool)
            ones = ones_cache[key]
        return self._final_rules(pview.widen(polish_rules(
            start if narrowed is None else narrowed, Xp, y,
            self.data_fidelity, self._literal_weight(),
            max_literals=self._max_literals(), max_rules=max_rules, deadline=deadline,
            min_z=float(getattr(self, "significance", 0.0)), replace=self._polish_replace,
            sign_test=self.sign_test, sample_weight=weights,
            new_rule_z=self._level(self._new_rule_per_column, Xbool.shape[1]),
            known_ones=ones)))

    # ---------------------------------------------------------------- predict
    def _binarized(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "rules_")
        _check_unique_columns(X)
        return self.binarizer_.transform(validate_columns(self, X, reset=False))

    def _fires(self, X: Any) -> np.ndarray:
        return self._evaluate(self._binarized(X))

    def _explanations(self, X: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Predictions, deciding rule indices and reasons (see :meth:`explain`)."""
        Xb = self._binarized(X)
        if isinstance(self.rules_, RuleSet):
            described, other = self._binary_classes()
            positive, negative = self.classes_[described], self.classes_[other]
            rule, reason = _rule_reasons(self.rules_, Xb, positive)
            # a DNF holds where a term does, a CNF where no clause fails
            holds = rule >= 0 if self.rules_.kind == "dnf" else rule < 0
            if self.rules_.never_true or self.rules_.always_true:
                shown = negative if self.rules_.never_true else positive
                hidden = positive if self.rules_.never_true else negative
                rule = np.full(len(Xb), -1, dtype=np.intp)
                reason = np.full(len(Xb), f"always {shown}: no rule predicts {hidden}",
                                 dtype=object)
            return np.where(holds, positive, negative), rule, reason
        fires = self._evaluate(Xb)
        order, default = self._class_order()
        chosen = _ordered_predict(fires, order, default)
        decided = fires.any(axis=1)
        rule = np.full(len(Xb), -1, dtype=np.intp)
        reason = np.full(len(Xb), "no class's rules hold", dtype=object)
        for c in np.unique(chosen[decided]):
            rows = decided & (chosen == c)
            rule[rows], reason[rows] = _rule_reasons(self.rules_[self.classes_[c]], Xb[rows],
                                                     self.classes_[c])
        def tie(pattern: np.ndarray) -> str:   # a tie the priority order broke
            firing = [c for c in order if pattern[c]]
            others = ", ".join(str(self.classes_[c]) for c in firing[1:])
            return f" (the rules for {others} hold too; {self.classes_[firing[0]]} comes first)"

        ties = np.flatnonzero(fires.sum(axis=1) > 1)
        append_by_group(reason, ties, fires[ties], tie)
        return self.classes_[chosen], rule, reason

    def _evaluate(self, Xb: np.ndarray) -> np.ndarray:
        """Whether each class's rules fire on each binarized row (one column when binary)."""
        if isinstance(self.rules_, RuleSet):
            return self.rules_.evaluate(Xb)[:, None]
        return np.stack([self.rules_[c].evaluate(Xb) for c in self.classes_], axis=1)

    def _regions(self, fires: np.ndarray) -> np.ndarray:
        """Each row's region (see ``predict_proba``): binary, whether the rules fire;
        one-vs-rest, the position in the class order of the first class whose rules fire,
        or the number of classes when none fires."""
        if fires.shape[1] == 1:
            return fires[:, 0].astype(np.intp)
        order, _ = self._class_order()
        ranked = fires[:, order]
        return np.where(ranked.any(axis=1), ranked.argmax(axis=1), len(order))

    def _n_regions(self) -> int:
        return 2 if len(self.classes_) == 2 else len(self.classes_) + 1

    def _described_class(self) -> int | None:
        """The index in ``classes_`` of the class two-class rules describe (``rule_class``;
        ``classes_[1]`` when it is None; None for ``"auto"``: both are tried).
        ``ValueError`` when ``rule_class`` names no class, or is set for more than two
        classes."""
        label = getattr(self, "rule_class", None)
        if label is None:
            return 1
        if len(self.classes_) != 2:
            raise ValueError(f"rule_class applies to two classes; y has {len(self.classes_)} "
                             "(one-vs-rest learns rules for every class); leave it unset (None)")
        try:
            index = class_index(self.classes_, label)
        except TypeError:   # unhashable
            index = None
        if isinstance(label, str) and label == "auto":
            if index is not None:
                raise ValueError("rule_class='auto' is ambiguous: y has a class 'auto'; "
                                 "rename it to choose the class the rules describe")
            return None
        if index is None:
            raise ValueError(f"rule_class={label!r} is not a class of y "
                             f"{self.classes_.tolist()}")
        return index

    def _binary_classes(self) -> tuple[int, int]:
        """(described, other): the class indices a two-class rule set predicts when it
        holds and when it does not (``rule_class_``; ``classes_[1]`` and ``classes_[0]``
        for files written before it)."""
        label = getattr(self, "rule_class_", None)
        index = 1 if label is None else class_index(self.classes_, label)
        return index, 1 - index

    def _region_classes(self) -> np.ndarray:
        """The class index each region predicts."""
        if len(self.classes_) == 2:
            return np.array(self._binary_classes()[::-1])
        order, default = self._class_order()
        return np.append(order, default)

    def _proba_regions(self, X: Any) -> np.ndarray:
        return self._regions(self._fires(X))

    def predict(self, X: Any) -> np.ndarray:
        """Return the predicted class of every row of ``X``."""
        fires = self._fires(X)
        if fires.shape[1] == 1:
            return self.classes_[self._region_classes()[fires[:, 0].astype(np.intp)]]
        order, default = self._class_order()
        return self.classes_[_ordered_predict(fires, order, default)]

    def _class_order(self) -> tuple[np.ndarray, int]:
        """Class indices in priority order and the default's index (one-vs-rest)."""
        if getattr(self, "class_order_", None) is not None:
            index = {c: i for i, c in enumerate(self.classes_.tolist())}
            return (np.array([index[c] for c in np.asarray(self.class_order_).tolist()]),
                    index[np.asarray(self.default_class_).tolist()])
        # files written before class_order_: the most frequent firing class wins
        order = np.argsort(-np.asarray(self.class_counts_), kind="stable")
        return order, int(order[0])

    def to_text(self) -> str:
        """Return the learned rules as readable IF-THEN-ELSE text with the class labels.

        Binary: ``IF <rules> THEN <rule_class_> ELSE <the other class>``, or ``Always
        <class>: no rule predicts <other class>.`` for constant rules (saying so when
        ``null_test`` chose them over the rules learned).  One-vs-rest:
        one block per class (``No rule predicts <class>.`` for a class whose rules never
        fire, rather than ``IF FALSE``), then the documented tie rule (or, when the null
        test turned all the rules down or no class's rules can fire, the class always
        predicted).
        """
        check_is_fitted(self, "rules_")
        if isinstance(self.rules_, RuleSet):
            described, other = self._binary_classes()
            text = self.rules_.binary_text(self.classes_[described], self.classes_[other])
            record = getattr(self, "best_partition_", None) or {}
            if "not_significant" in record:
                text += (f"\n(The rules learned were not significantly better "
                         f"{_where_tested(record)}; null_test=False keeps them.)")
            return text
        order, default = self._class_order()

        blocks = [self.rules_[self.classes_[i]].class_text(self.classes_[i]) for i in order]
        records = (getattr(self, "best_partition_", None) or {}).values()
        if records and all("not_significant" in r for r in records):
            return "\n\n".join(blocks) + (
                f"\n\nAlways {self.classes_[default]}: the rules learned were not "
                f"significantly better {_where_tested(next(iter(records)))}; "
                "null_test=False keeps them.")
        if all(r.never_true for r in self.rules_.values()):   # as report.rules_text says
            return "\n\n".join(blocks) + f"\n\nAlways {self.classes_[default]}."
        return "\n\n".join(blocks) + (
            "\n\nWhen several classes fire, the first of "
            f"{[str(self.classes_[i]) for i in order]} wins; when none fires, "
            f"{self.classes_[default]}."
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = True
        tags.input_tags.allow_nan = True   # missing values are a category (binarize.py)
        tags.input_tags.sparse = True      # read as the dense array (binarize.dense_input)
        return tags


class _ColumnView:
    """Partitions encoded over a subset of the binary columns (or all of them): moves
    rule sets between the full column indices and the subset's."""

    def __init__(self, n_columns: int, columns: np.ndarray | None) -> None:
        self.n_columns, self.columns = n_columns, columns
        if columns is not None:
            self.index = np.full(n_columns, -1, dtype=np.int64)
            self.index[columns] = np.arange(len(columns))

    def rows(self, Xb: np.ndarray, part: np.ndarray) -> np.ndarray:
        """The partition's rows of ``Xb``, restricted to the subset."""
        return Xb[part] if self.columns is None else Xb[np.ix_(part, self.columns)]

    def take(self, X: np.ndarray) -> np.ndarray:
        """The subset's columns of ``X`` (every row)."""
        return X if self.columns is None else X[:, self.columns]

    def _moved(self, rules: RuleSet, where: np.ndarray, n_columns: int) -> RuleSet:
        return RuleSet([Rule(tuple(Literal(int(where[lit.column]), lit.negated)
                                   for lit in rule.literals)) for rule in rules.rules],
                       rules.kind, n_columns)

    def narrow(self, rules: RuleSet | None) -> RuleSet | None:
        """``rules`` over the subset's columns; None when one of them is outside it."""
        if rules is None or self.columns is None:
            return rules
        if any(self.index[lit.column] < 0 for rule in rules.rules for lit in rule.literals):
            return None
        return self._moved(rules, self.index, len(self.columns))

    def widen(self, rules: RuleSet) -> RuleSet:
        """Rules decoded over the subset, over all the columns."""
        return rules if self.columns is None else \
            self._moved(rules, self.columns, self.n_columns)
