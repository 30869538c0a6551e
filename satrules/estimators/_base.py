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
``n_thresholds``, ``backend``, ``time_limit``, ``random_state``,
``multi_class``.

Partitions: the training rows are shuffled with ``random_state`` and split per
class with ``numpy.array_split``, so every partition keeps the class ratio
(ALGORITHMS.md §2.6).  ``partition_size`` (rows per partition), when set,
overrides ``n_partitions`` (``ceil(n / partition_size)`` partitions);
``n_partitions="auto"`` means ``ceil(n / AUTO_PARTITION_SIZE)``.

Time budget: ``time_limit`` is the total for one ``fit``.  Each solve gets the
time left divided by the number of solves left (partitions x one-vs-rest
problems), so time a fast partition leaves unused carries over.  A partition
that times out with a solution (``FEASIBLE``) contributes the best rules found:
the engine's answer, or the warm start (``encoding.hint``: the previous rules
extended to this partition) when that costs less; one that ends ``UNKNOWN``
keeps the previous partition's rules.

Multi-class (``multi_class="ovr"``): one rule set per class (that class against
the rest).  ``predict`` returns, among the classes whose rule set fires, the one
most frequent in training; when none fires, the most frequent class.
``multi_class="error"`` refuses more than two classes.
"""

from __future__ import annotations

import math
import numbers
import time
import warnings
from abc import ABCMeta, abstractmethod
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, check_random_state, validate_data

from satrules._progress import progress
from satrules.backends.registry import solve
from satrules.binarize import ThresholdBinarizer, duplicate_names
from satrules.estimators._checks import check_label_types
from satrules.estimators._json import RuleFileMixin
from satrules.exceptions import BackendError
from satrules.ir import Status, make_solution
from satrules.rules import Rule, RuleSet

__all__ = ["AUTO_PARTITION_SIZE", "IncrementalRuleClassifier", "split_partitions"]

#: Rows per partition when ``n_partitions="auto"`` (seed 002 used 8 or 16 rows;
#: pyrulelearn's reference figures use 16-row batches).
AUTO_PARTITION_SIZE = 16


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


class IncrementalRuleClassifier(RuleFileMixin, ClassifierMixin, BaseEstimator, metaclass=ABCMeta):
    """Base class: fit rule sets partition by partition with a MaxSAT encoder (see module)."""

    #: scikit-learn estimator checks this family is known to fail, with the reason.
    _EXPECTED_FAILED_CHECKS: dict[str, str] = {}

    # ------------------------------------------------------------------ hooks
    def _check_params(self) -> None:
        """Raise ``ValueError`` on invalid parameters (subclasses extend)."""

    @abstractmethod
    def _encode_partition(self, Xb, y, prior, rng):
        """Return the encoding of one partition (see the module docstring)."""

    @abstractmethod
    def _decode(self, encoding, solution) -> RuleSet:
        """Return the rule set a feasible ``solution`` of ``encoding`` selects."""

    def _prior_rules(self, rules: RuleSet) -> RuleSet:
        return rules.simplify(remove_rules=False)

    def _final_rules(self, rules: RuleSet) -> RuleSet:
        return rules.simplify()

    # ------------------------------------------------------------- validation
    def _check_common_params(self) -> None:
        def positive_int(name, value, allow_none=False):
            if value is None and allow_none:
                return
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")

        if self.n_partitions != "auto":
            positive_int("n_partitions", self.n_partitions)
        positive_int("partition_size", self.partition_size, allow_none=True)
        positive_int("n_thresholds", self.n_thresholds)
        if self.time_limit is not None and (isinstance(self.time_limit, bool) or
                                            not isinstance(self.time_limit, numbers.Real)
                                            or not self.time_limit > 0):
            raise ValueError(f"time_limit must be positive seconds or None, got "
                             f"{self.time_limit!r}")
        if self.multi_class not in ("ovr", "error"):
            raise ValueError(f"multi_class must be 'ovr' or 'error', got {self.multi_class!r}")
        if not isinstance(self.backend, str):
            raise ValueError(f"backend must be a backend name or 'auto', got {self.backend!r}")

    def _n_partitions(self, n_samples: int) -> int:
        if self.partition_size is not None:
            return max(1, math.ceil(n_samples / self.partition_size))
        if self.n_partitions == "auto":
            return max(1, math.ceil(n_samples / AUTO_PARTITION_SIZE))
        return min(self.n_partitions, n_samples)

    # -------------------------------------------------------------------- fit
    def fit(self, X: Any, y: Any) -> IncrementalRuleClassifier:
        """Learn the rule set(s) from ``X`` (array or DataFrame) and labels ``y``."""
        self._check_common_params()
        self._check_params()
        _check_unique_columns(X)
        X_checked, y = validate_data(self, X, y, dtype=None, ensure_all_finite=False)
        check_label_types(y)
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(
                f"y has only 1 class ({self.classes_[0]!r}); Classifier can't train when only "
                "one class is present"
            )
        if len(self.classes_) > 2 and self.multi_class == "error":
            raise ValueError(f"{type(self).__name__} with multi_class='error' needs 2 classes, "
                             f"got {len(self.classes_)}")
        rng = check_random_state(self.random_state)
        self.binarizer_ = ThresholdBinarizer(n_thresholds=self.n_thresholds)
        Xb = self.binarizer_.fit_transform(X if hasattr(X, "columns") else X_checked)
        self.class_counts_ = np.bincount(y_idx, minlength=len(self.classes_))
        targets = [1] if len(self.classes_) == 2 else list(range(len(self.classes_)))
        n_parts = self._n_partitions(len(y_idx))
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        budget = {"deadline": deadline, "left": len(targets) * n_parts}
        fitted, solutions = {}, {}
        for c in targets:
            fitted[c], solutions[c] = self._fit_binary(Xb, y_idx == c, n_parts, rng, budget)
        if len(self.classes_) == 2:   # labelled: print(rules_) names the class it predicts
            self.rules_, self.solutions_ = fitted[1].labelled(self.classes_[1]), solutions[1]
        else:
            self.rules_ = {self.classes_[c]: fitted[c].labelled(self.classes_[c]) for c in targets}
            self.solutions_ = {self.classes_[c]: solutions[c] for c in targets}
        self.solution_ = solutions[targets[-1]][-1] if solutions[targets[-1]] else None
        return self

    def _solve_time(self, budget: dict) -> float | None:
        if budget["deadline"] is None:
            return None
        left = budget["deadline"] - time.monotonic()
        return max(left / max(budget["left"], 1), 0.01)

    def _fit_binary(self, Xb: np.ndarray, y: np.ndarray, n_parts: int,
                    rng: np.random.RandomState, budget: dict) -> tuple[RuleSet, list]:
        """Learn one rule set for ``y`` (bool) over the partitions; return it and the solutions."""
        conditions = self.binarizer_.conditions_
        rules, prior, solutions = None, None, []
        for part in progress(split_partitions(y, n_parts, rng), desc="partitions",
                             total=n_parts):
            enc = self._encode_partition(Xb[part], y[part], prior, rng)
            sol = solve(enc.model, backend=self.backend, time_limit=self._solve_time(budget),
                        seed=int(rng.randint(2**31 - 1)), hint=getattr(enc, "hint", None))
            budget["left"] -= 1
            if sol.status is Status.FEASIBLE:
                sol = _keep_better_hint(enc.model, sol, getattr(enc, "hint", None))
            solutions.append(sol)
            if sol.status is Status.ERROR or sol.status is Status.UNSATISFIABLE:
                raise BackendError(f"{sol.backend or self.backend} returned {sol.status.value} "
                                   f"on a partition: {sol.message}")
            if sol.status.is_feasible:   # OPTIMAL, or FEASIBLE at the time limit (anytime)
                rules = self._decode(enc, sol).named(conditions)
                prior = self._prior_rules(rules)
            # UNKNOWN: keep the previous partition's rules and anchors
        if rules is None:
            warnings.warn("no partition produced a solution within the time limit; the rule "
                          "set predicts the majority class", RuntimeWarning, stacklevel=3)
            majority = y.mean() >= 0.5
            return RuleSet([Rule(())] if majority else [], "dnf", len(conditions),
                           conditions), solutions
        return self._final_rules(rules).named(conditions), solutions

    # ---------------------------------------------------------------- predict
    def _fires(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "rules_")
        _check_unique_columns(X)
        X_checked = validate_data(self, X, reset=False, dtype=None, ensure_all_finite=False)
        Xb = self.binarizer_.transform(X if hasattr(X, "columns") else X_checked)
        if isinstance(self.rules_, RuleSet):
            return self.rules_.evaluate(Xb)[:, None]
        return np.stack([self.rules_[c].evaluate(Xb) for c in self.classes_], axis=1)

    def predict(self, X: Any) -> np.ndarray:
        """Return the predicted class of every row of ``X``."""
        fires = self._fires(X)
        if fires.shape[1] == 1:
            return self.classes_[fires[:, 0].astype(int)]
        # among the classes whose rules fire, the most frequent in training; else the majority
        order = np.argsort(-self.class_counts_, kind="stable")
        ranked = fires[:, order]
        first = np.where(ranked.any(axis=1), ranked.argmax(axis=1), 0)
        return self.classes_[order[first]]

    def to_text(self) -> str:
        """Return the learned rules as readable IF-THEN-ELSE text with the class labels.

        Binary: ``IF <rules> THEN <classes_[1]> ELSE <classes_[0]>``.  One-vs-rest:
        one block per class, then the documented tie rule.
        """
        check_is_fitted(self, "rules_")
        if isinstance(self.rules_, RuleSet):
            return self.rules_.to_text(positive=str(self.classes_[1])) + \
                f"\nELSE {self.classes_[0]}"
        blocks = [self.rules_[c].to_text(positive=str(c)) for c in self.classes_]
        order = np.argsort(-self.class_counts_, kind="stable")
        return "\n\n".join(blocks) + (
            "\n\nWhen several classes fire, the first of "
            f"{[str(self.classes_[i]) for i in order]} wins; when none fires, "
            f"{self.classes_[order[0]]}."
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = True
        tags.input_tags.allow_nan = True   # missing values are a category (binarize.py)
        return tags
