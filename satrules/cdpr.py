"""CDPR rule selection (seed 000): exact CDPRL, the GRA heuristic and GDY.

All three take ``covers``, a boolean ``n_rules x n_samples`` matrix (numpy
or scipy.sparse) whose entry ``(r, i)`` says that rule ``r`` covers sample
``i``, and return an object with ``.selected`` (rule indices) and
``.coverage`` (samples covered by the selected rules).

* :func:`solve_exact` -- maximise coverage subject to ``|S| <= gamma`` and
  ``overlap-rate <= beta`` in both directions (ALGORITHMS.md §4): local-search
  warm start, combinatorial bounds, a branch and bound on the largest selected
  rule, then the IR model on any backend; ``.status``, ``.bound`` and
  ``.bound_source`` say how far it is proven (``docs/cdpr_at_scale.md``).
* :func:`gra` -- GraphRules with the seed's slips fixed (§5.3).
* :func:`gdy` -- the relaxed objective ``g`` maximised by FIG or greedy (§6).
* :func:`local` -- swap/exchange local search seeded by GRA and GDY (feasible
  for CDPRL; the default warm start of :func:`solve_exact`).

"What the CDPR paper gets wrong" (``docs/cdpr_paper_errata.md``) lists the
seed's errors that these functions fix or avoid.

Examples
--------
The worked example of ALGORITHMS.md §4.4 (10 samples, beta = 1/2, gamma = 3):

>>> import numpy as np
>>> covers = np.zeros((5, 10), dtype=bool)
>>> for r, cov in enumerate([range(0, 6), range(4, 8), range(6, 9), range(0, 2), range(8, 10)]):
...     covers[r, list(cov)] = True
>>> res = solve_exact(covers, 0.5, 3, backend="bruteforce")
>>> res.status.value, res.coverage, res.bound
('OPTIMAL', 10, 10)
>>> solve_exact(covers, 0.5, 3, backend="bruteforce", strict=False).coverage
9
>>> gra(covers, 0.5, 3).selected
[0, 1, 4]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from satrules.backends.highs import HiGHSBackend, integer_bound
from satrules.backends.lp_relaxation import lp_bound
from satrules.backends.registry import choose_backend, solve
from satrules.encoders.cdprl import (
    DEFAULT_MAX_SIZE,
    CDPRLAnswer,
    CDPRLLayout,
    decode_cdprl,
    encode_cdprl,
    hint_cdprl,
)
from satrules.encoders.cdprl_bounds import rule_bounds
from satrules.exceptions import BackendError
from satrules.heuristics.bnb import BnBResult, branch_and_bound
from satrules.heuristics.gdy import GDYResult, gdy_select
from satrules.heuristics.gra import GRAResult, gra_select
from satrules.heuristics.local import LocalResult, local_select
from satrules.ir import Solution, Status, make_solution

__all__ = ["ExactResult", "GDYResult", "GRAResult", "LocalResult", "gdy", "gra", "local",
           "solve_exact"]

#: Share of ``time_limit`` the default warm start (the local search) may use: at a 60 s
#: limit 12 s, so the exact answer is not below what the stand-alone local search finds in
#: its benchmark's 10 s (with a tenth, 53,713 against its 53,824 on diamonds, issue 13).
_WARM_SHARE = 0.2
#: Share of the remaining time the branch and bound may use before the backend: it proves
#: the diamonds gamma = 5 rows in 1-14 s; at gamma = 12 it does not finish, and the backend's
#: root LP (8 s of dual simplex on diamonds acc >= 0.9) needs the rest (issue 13).
_BRANCH_SHARE = 0.5
#: Share of the remaining time the LP bound (``lp``) may use before the backend: the lazy
#: root LP takes 2-4 s on the diamonds acc >= 0.9 models (up to 25 s at a load of 4) and
#: is not needed at gamma = 5, where the branch and bound proves the optimum before it.
#: With HiGHS as the backend it cost at most 0.02 points of gap and, under load, turned a
#: 17.7 % gap (HiGHS's root LP unfinished) into 0.33 % (issue 13).
_LP_SHARE = 1 / 3
#: Node budget of the branch and bound when there is no time limit.  The diamonds gamma = 5
#: proofs need 209-3,887 nodes; where it does not finish the engine proves the optimum,
#: and a larger budget only delays it: with 100,000 nodes the default exact CDPRClassifier
#: spent 36 of its 40 CPU s on benefits in a search that failed (with 10,000: 7.7 s in all,
#: swisslabor 25 -> 4.3 s, credit 56 -> 37 s, same rules on the 15 learner data sets).
_BRANCH_NODES = 10_000
#: Seconds (at most 2 % of the limit) kept back from the backend for decoding its answer.
_AFTER_SOLVE = 1.0
#: HiGHS ``presolve_rule_off`` mask: rules 5-19 (dominated columns ... probing, enumeration,
#: column stuffing) off.  On the diamonds CDPRL model (36k rows, 1.66M nonzeros) presolve
#: removed nothing, yet with only probing off it ran 103 s of a 15 s limit (probing and
#: enumeration off: 9 s; rules 5-19 off: 5 s); the cheap rules 0-4 stay on.
_HIGHS_RULES_OFF = sum(1 << rule for rule in range(5, 20))


@dataclass(frozen=True)
class ExactResult:
    """Answer of :func:`solve_exact`.

    Attributes
    ----------
    selected : list of int
        Selected rule indices (sorted); empty when no answer was found.
    coverage : int
        Samples covered by ``selected``.
    status : Status
        The backend's status: OPTIMAL (``coverage == bound``), FEASIBLE
        (time limit struck), or UNKNOWN / ERROR (nothing found).
    bound : int
        Proven upper bound on the optimal coverage: the optimum when OPTIMAL,
        else the best of the engine's bound, the branch and bound's, the LP
        relaxation's and the combinatorial bounds
        (:func:`satrules.encoders.cdprl_bounds.best_bound`: trivial,
        submodular, conflict-aware).
    bound_source : str
        Which bound ``bound`` is: ``"optimal"`` (the engine's proof),
        ``"engine"`` (its dual bound), ``"branch"`` (the branch and bound),
        ``"lp"`` (the LP relaxation, see ``lp``), ``"trivial"``,
        ``"submodular"`` or ``"conflict"`` (combinatorial, proven without the
        engine).
    solution : Solution
        The verified IR solution.
    layout : CDPRLLayout
        The encoder's layout (``layout.stats`` has the reduction counts).
    hint : list of int
        The warm-start rules (before the branch and bound; empty without a hint).
    """

    selected: list[int]
    coverage: int
    status: Status
    bound: int
    solution: Solution = field(repr=False)
    layout: CDPRLLayout = field(repr=False)
    hint: list[int] = field(default_factory=list)
    bound_source: str = ""

    @property
    def gap(self) -> float:
        """Relative optimality gap ``(bound - coverage) / max(bound, 1)``."""
        return (self.bound - self.coverage) / max(self.bound, 1)


def solve_exact(covers: Any, beta: Any, gamma: int, backend: str = "auto",
                time_limit: float | None = None, strict: bool = True,
                hint: str | Sequence[int] | None = "best", reduce: bool = True,
                clique: bool = True, *, accuracy: Any = None, seed: int | None = None,
                max_size: int | None = DEFAULT_MAX_SIZE, branch: bool = True,
                lp: bool | str = "auto", sample_weight: Any = None,
                progress: Callable[[int | None, int | None, float], Any] | None = None,
                **engine_options: Any) -> ExactResult:
    """Select at most ``gamma`` rules of maximum coverage with every overlap-rate ``<= beta``.

    Parameters
    ----------
    covers : array-like or scipy.sparse matrix, shape (n_rules, n_samples)
        Boolean cover matrix of the candidate rules.
    beta : float or Fraction
        Overlap-rate bound (both directions of every selected pair).
    gamma : int
        Maximum number of rules.
    backend : str
        Backend name or ``"auto"`` (:func:`satrules.available_backends`).
    time_limit : float, optional
        Seconds for the whole call: encoding, the warm start, the
        combinatorial bounds and the backend (which counts its own model
        building and presolve) all come out of it; the backend gets what is
        left.  At the limit the best answer is FEASIBLE.
    strict : bool
        ``> beta`` conflicts (default, the constraint) or ``>= beta`` (the seed's Algorithm 1).
    hint : "best", "gra", sequence of int, or None
        Warm start.  ``"best"`` (default): the local search of :func:`local`
        (seeded by GRA and GDY, at most a fifth of ``time_limit``); ``"gra"``:
        GRA's marginal answer; a sequence: the given rule indices; ``None``:
        no warm start.  With a warm start the answer is never worse than it:
        an engine answer below the warm start (or none) is replaced by the
        warm start, FEASIBLE, with the engine's proven bound kept.  When a
        combinatorial bound already equals the warm start's coverage, the
        warm start is returned as OPTIMAL without calling the backend.
    reduce : bool
        Apply the optimum-preserving rule reductions 3-4 (may change *which*
        optimal rules are returned; turn off to reproduce the paper).
    clique : bool
        Post the conflict graph as clique at-most-ones where cliques exist.
    accuracy : array-like of float, optional
        Per-rule accuracy (tie-break when rules have identical covers).
    seed : int, optional
        Backend seed (and the local search's).
    max_size : int or None
        Size guard (:func:`satrules.encoders.cdprl.estimate_cdprl_size`).
    branch : bool
        Before the backend, run the branch and bound on the largest selected
        rule (:func:`satrules.heuristics.bnb.branch_and_bound`) on the kept
        rules and sample groups, with half of the remaining time (or
        10,000 nodes without a limit).  When it finishes, its answer is
        OPTIMAL without a backend call (``bound_source="branch"``); otherwise
        its best set becomes the warm start and its bound is kept when it is
        the smallest.  ``False`` hands the model to the backend directly.
    lp : bool or "auto"
        Before the backend, bound the optimum by the model's LP relaxation
        (:func:`satrules.backends.lp_relaxation.lp_bound`: HiGHS's dual
        simplex with coverage rows generated lazily, at most a third of the
        remaining time; ``bound_source="lp"`` when it is the smallest).
        ``"auto"`` (default): when HiGHS is installed; ``True``: always (an
        error without HiGHS).  CP-SAT reports no LP bound within a minute on
        the diamonds models of issue 13, and HiGHS's own MIP did not finish
        its root LP there under load; this bound is proven either way.
    sample_weight : array-like of int, optional
        Positive integer weight per sample: a sample of weight ``w`` counts as ``w``
        samples in coverage, cover sizes and overlap rates (the warm start, the bounds
        and the model alike), so the optimum is that of the instance with each sample
        repeated ``w`` times; ``coverage`` and ``bound`` are weight sums.
    progress : callable, optional
        Called as ``progress(coverage, bound, seconds)`` while HiGHS searches (the
        backend ``"auto"`` picks for selection models; other engines do not report):
        the incumbent's coverage and HiGHS's proven upper bound on the optimum
        (``None`` before the first), and HiGHS's run time.  From HiGHS's thread, often:
        what :class:`~satrules.CDPRClassifier` shows on a terminal.
    **engine_options
        Passed to the backend constructor.  With ``backend="highs"``, the
        costly presolve rules 5-19 (probing, enumeration, ...) are switched
        off (``presolve_rule_off``) unless given.

    Returns
    -------
    ExactResult

    Raises
    ------
    ModelSizeError
        If the estimated model size exceeds ``max_size``.

    Notes
    -----
    Small and medium instances are solved to proven optimality. At the seed
    paper's scale (about 1,500 tree-mined candidates over 50,000 rows), CP-SAT
    and HiGHS often do not prove optimality within 60 s, because the LP
    relaxation is weak there. The answer is then FEASIBLE: at least as good as
    the warm start, with the best proven bound and its source
    (``docs/cdpr_at_scale.md``, ``benchmarks/results/cdpr_perf_selection.md``).

    Examples
    --------
    >>> res = solve_exact([[1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 0, 1]], 0.5, 2,
    ...                   backend="bruteforce", hint="gra")
    >>> res.selected, res.coverage, res.status.value, res.hint
    ([0, 2], 4, 'OPTIMAL', [0, 2])
    """
    start = time.perf_counter()
    if lp not in (True, False, "auto"):
        raise ValueError(f"lp must be True, False or 'auto', got {lp!r}")
    enc = encode_cdprl(covers, beta, gamma, strict=strict, reduce=reduce, clique=clique,
                       accuracy=accuracy, max_size=max_size, sample_weight=sample_weight)
    warm = _warm_start(covers, beta, gamma, strict, hint, time_limit, seed, sample_weight)
    hint_map = hint_cdprl(enc.layout, warm) if hint is not None else None
    begun = _feasible_start(enc, hint_map)
    if begun is not None:
        ans = decode_cdprl(enc.layout, begun)  # computes the combinatorial bounds
        if ans.bound <= ans.coverage:  # proven optimal without an engine
            return _proven(enc, hint_map, ans, warm, start,
                           f"warm start proven optimal by the {ans.bound_source} bound")
    else:
        rule_bounds(enc.layout)  # memoised: computed inside the budget, not after the solve
    searched = None
    if branch:
        searched = _branch(enc.layout, beta, strict, warm if begun is not None else [],
                           _remaining(time_limit, start, _BRANCH_SHARE))
        if searched.optimal or searched.coverage > (0 if begun is None else ans.coverage):
            warm_map = hint_cdprl(enc.layout, enc.layout.rules[searched.selected])
            begun, hint_map = make_solution(enc.model, Status.FEASIBLE, warm_map), warm_map
        if searched.optimal:
            ans = decode_cdprl(enc.layout, begun)
            ans = CDPRLAnswer(ans.selected, ans.coverage, ans.coverage, "branch")
            return _proven(enc, hint_map, ans, warm, start,
                           f"proven optimal by branch and bound ({searched.nodes} nodes)")
    name = choose_backend(enc.model, _remaining(time_limit, start, 1.0), selection=True) \
        if backend == "auto" else backend
    lp_cost = _lp_cost(enc.model, lp, _remaining(time_limit, start, _LP_SHARE))
    budget = _remaining(time_limit, start, 1.0)
    if budget is not None:  # keep room for decoding and the bounds after the engine returns
        budget = max(budget - min(_AFTER_SOLVE, 0.02 * float(time_limit)), 0.01)
    if name == "highs":  # presolve overran 15 s limits by up to 145 s (_HIGHS_RULES_OFF)
        engine_options = {"presolve_rule_off": _HIGHS_RULES_OFF, **engine_options}
        if progress is not None:
            engine_options["progress"] = _coverage_progress(progress, enc.layout.total_weight)
    sol = solve(enc.model, backend=name, time_limit=budget, seed=seed, hint=hint_map,
                **engine_options)
    ans = decode_cdprl(enc.layout, sol)
    if begun is not None and sol.status is not Status.OPTIMAL:
        sol, ans = _keep_better_hint(enc, sol, ans, begun)
    bound, source = ans.bound, ans.bound_source
    if searched is not None and sol.status is not Status.OPTIMAL and searched.bound < bound:
        bound, source = max(searched.bound, ans.coverage), "branch"
    if lp_cost is not None and sol.status is not Status.OPTIMAL \
            and enc.layout.total_weight - lp_cost < bound:
        bound, source = max(enc.layout.total_weight - lp_cost, ans.coverage), "lp"
    return ExactResult(selected=ans.selected, coverage=ans.coverage, status=sol.status,
                       bound=bound, solution=sol, layout=enc.layout, hint=warm,
                       bound_source=source)


def _coverage_progress(progress, total: int):
    """HiGHS's ``progress(cost, bound, nodes, seconds)`` as ``progress(coverage, bound,
    seconds)`` in coverage units (coverage = the total weight less the cost)."""
    def report(cost, bound, nodes, seconds):
        progress(None if cost is None else total - cost,
                 None if bound is None else total - integer_bound(bound), seconds)
    return report


def _remaining(time_limit: float | None, start: float, share: float) -> float | None:
    """Return ``share`` of what is left of ``time_limit`` (None without a limit)."""
    if time_limit is None:
        return None
    return max(share * (float(time_limit) - (time.perf_counter() - start)), 0.01)


def _lp_cost(model, lp, budget: float | None) -> int | None:
    """Return the LP relaxation's lower bound on the cost of ``model`` (None: not run)."""
    if lp is False or (lp == "auto" and not HiGHSBackend.available()):
        return None
    return lp_bound(model, time_limit=budget).cost


def _branch(layout, beta, strict, warm, budget) -> BnBResult:
    """Run the branch and bound on the kept rules and sample groups of ``layout``."""
    pos = layout.position[np.asarray(warm, dtype=np.int64)] if len(warm) else np.zeros(0, int)
    return branch_and_bound(layout.group_rules.T.tocsr(), beta, layout.gamma, strict=strict,
                            weights=layout.group_weights, incumbent=pos[pos >= 0],
                            time_limit=budget,
                            max_nodes=_BRANCH_NODES if budget is None else None)


def _proven(enc, hint_map, ans, warm, start, message) -> ExactResult:
    """Return ``hint_map`` as OPTIMAL, proven without the backend."""
    sol = make_solution(enc.model, Status.OPTIMAL, hint_map,
                        wall_time=time.perf_counter() - start, message=message)
    return ExactResult(selected=ans.selected, coverage=ans.coverage, status=Status.OPTIMAL,
                       bound=ans.coverage, solution=sol, layout=enc.layout, hint=warm,
                       bound_source=ans.bound_source)


def _warm_start(covers, beta, gamma, strict, hint, time_limit, seed,
                sample_weight=None) -> list[int]:
    """Return the warm-start rules named by ``hint`` (see :func:`solve_exact`)."""
    if hint is None:
        return []
    if isinstance(hint, str):
        if hint == "best":
            share = None if time_limit is None else _WARM_SHARE * float(time_limit)
            return local_select(covers, beta, gamma, strict=strict, time_limit=share,
                                n_kicks=20 if share is None else None,
                                random_state=0 if seed is None else seed,
                                sample_weight=sample_weight).selected
        if hint == "gra":
            return gra_select(covers, beta, gamma, selection="marginal",
                              strict=strict, sample_weight=sample_weight).selected
        raise ValueError(f"hint must be 'best', 'gra', a sequence of rule indices or None, "
                         f"got {hint!r}")
    return [int(r) for r in hint]


def _feasible_start(enc, hint_map) -> Solution | None:
    """Return the warm start as a verified FEASIBLE solution, or None if it is not feasible."""
    if hint_map is None:
        return None
    try:
        return make_solution(enc.model, Status.FEASIBLE, hint_map)
    except BackendError:  # a user-given hint may break a conflict or gamma
        return None


def _keep_better_hint(enc, sol: Solution, ans, begun: Solution):
    """Return the warm start as a FEASIBLE answer when the engine found nothing better.

    The warm start was verified on the model by ``make_solution`` like any
    engine answer; the engine's proven lower bound on the cost is kept.
    """
    start = decode_cdprl(enc.layout, begun)
    if sol.values is not None and ans.coverage >= start.coverage:
        return sol, ans
    better = make_solution(
        enc.model, Status.FEASIBLE, begun.assignment, lower_bound=sol.lower_bound,
        wall_time=sol.wall_time, backend=sol.backend, engine=sol.engine,
        engine_version=sol.engine_version, options=sol.options,
        message=f"engine status {sol.status.value}: no answer better than the warm start")
    return better, decode_cdprl(enc.layout, better)


def local(covers: Any, beta: Any, gamma: int, strict: bool = True, start: Any = None,
          n_kicks: int | None = 20, time_limit: float | None = None,
          random_state: int | None = 0, n_anchors: int = 30,
          sample_weight: Any = None) -> LocalResult:
    """Run the swap/exchange local search seeded by GRA and GDY (always feasible).

    See :func:`satrules.heuristics.local.local_select`.

    Examples
    --------
    >>> local([[1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 0, 1]], 0.5, 2).selected
    [0, 2]
    """
    return local_select(covers, beta, gamma, strict=strict, start=start, n_kicks=n_kicks,
                        time_limit=time_limit, random_state=random_state, n_anchors=n_anchors,
                        sample_weight=sample_weight)


def gra(covers: Any, beta: Any, gamma: int, selection: str = "static", strict: bool = True,
        removal: str | None = None, stop_at_zero: bool = True,
        sample_weight: Any = None) -> GRAResult:
    """Run GRA (seed 000, Algorithm 1, corrected as in ALGORITHMS.md §5.3).

    See :func:`satrules.heuristics.gra.gra_select`: ``selection="static"``
    reproduces the paper (largest cover first, in-neighbour removal),
    ``"marginal"`` is the classic greedy with removal in both directions.
    ``.selected`` is in pick order.

    Examples
    --------
    >>> gra([[1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 0, 1]], 0.5, 2).selected
    [0, 2]
    """
    return gra_select(covers, beta, gamma, selection=selection, strict=strict, removal=removal,
                      stop_at_zero=stop_at_zero, sample_weight=sample_weight)


def gdy(covers: Any, gamma: int, lam: float, rho: float = 0.1,
        algorithm: str = "fig", threshold: str = "gain", sample_weight: Any = None) -> GDYResult:
    """Run GDY: maximise ``g(S) = coverage(S) + lam (N - mean-overlap(S))``, ``|S| <= gamma``.

    See :func:`satrules.heuristics.gdy.gdy_select`; ``algorithm="fig"`` is
    FastInterlaceGreedy with decay ``rho``, ``"greedy"`` plain greedy;
    ``threshold`` is FIG's reading of ``M`` (``"gain"``, the default, or the
    seed-literal ``"value"``).  GDY has no overlap-rate constraint: overlap is
    only penalised.

    Examples
    --------
    >>> res = gdy([[1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 0, 1]], 2, lam=0.5)
    >>> sorted(res.selected), res.coverage
    ([0, 2], 4)
    """
    return gdy_select(covers, gamma, lam, rho=rho, algorithm=algorithm, threshold=threshold,
                      sample_weight=sample_weight)
