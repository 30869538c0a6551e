"""Swap/exchange local search for CDPRL, seeded by GRA and GDY.

Every answer is feasible for CDPRL (``|S| <= gamma``, every overlap-rate
``<= beta`` in both directions).  Starting points are GRA (static and
marginal), GDY's picks repaired to feasibility (kept in pick order when
compatible with the rules kept so far), and an optional given rule list; each
is filled greedily and then improved by best-improvement moves:

* **add** a rule compatible with all of ``S`` when ``|S| < gamma``;
* **swap** one selected rule ``s`` for an unselected rule ``r`` compatible
  with ``S - {s}``;
* **eject and insert**: insert a rule that conflicts with two or more
  selected ones, remove those and refill greedily (an ejection chain of
  length one), tried when no add or swap improves;
* **drop and refill**: remove one selected rule and refill greedily without
  it (one out, several in), tried last when at least two places are free
  after the drop.

The value of every move is computed for all rules at once: with ``U`` the
uncovered samples and ``U_s`` the samples only ``s`` covers,
``gain(add r) = |cover(r) & U|`` and
``gain(swap s -> r) = |cover(r) & U| + |cover(r) & U_s| - |U_s|``, each one
gather over the CSC columns of the samples involved
(:class:`~satrules.covers.Incidence`).  At a local optimum the search is
kicked (iterated local search): a few selected rules are dropped at random,
the set is refilled with a randomised greedy (one of the three largest gains
at each step) and improved again; the best set seen is kept.
The number of kicks (``n_kicks``) bounds the work; ``time_limit`` can cut it
short, and the result is deterministic for a fixed ``random_state`` when the
time limit does not strike.

Alternating with the kicks (one each in turn, so a time limit cuts neither
off), **anchor restarts** leave the basin of the seeds on purpose:
for each of the ``n_anchors`` largest rules ``a``, the search starts from
``{a}`` with only rules no larger than ``a`` allowed (``a`` is taken as the
largest selected rule, the branching of :mod:`satrules.heuristics.bnb`),
fills and climbs there, then climbs again with every rule allowed.  At small
``beta`` on tree-mined candidates the seeds all keep one very large rule that
conflicts with most of a better, nearly disjoint set of leaves; replacing it
takes many moves that each lose coverage, which no add, swap, ejection or
kick finds (diamonds acc >= 0.9 and flights at beta = 0.1, gamma = 12 in
``benchmarks/results/cdpr_perf_selection.md``: 1.97 % and 1.15 % below the
best known before the restarts).

References
----------
Seed 000 (CDPRL, GRA, GDY); H. R. Lourenço, O. C. Martin, T. Stützle,
"Iterated Local Search", Handbook of Metaheuristics, 2003.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from satrules.covers import Incidence, beta_fraction, check_gamma, rate_exceeds
from satrules.heuristics.gdy import gdy_select
from satrules.heuristics.gra import gra_select

__all__ = ["LocalResult", "local_select"]

#: Ejection candidates evaluated exactly per round (see _eject).
_EJECT_TRIES = 8
#: A kick's refill picks at random among this many largest gains.
_RANDOM_TOP = 3
#: Anchor restarts by default (the largest rules, see the module docstring).
_N_ANCHORS = 30


@dataclass(frozen=True)
class LocalResult:
    """Answer of :func:`local_select`.

    Attributes
    ----------
    selected : list of int
        Selected rule indices (sorted).
    coverage : int
        Samples covered by ``selected``.
    start : str
        The starting point the best answer came from (``"gra-static"``,
        ``"gra-marginal"``, ``"gdy"``, ``"given"``), ``"anchor"`` when an
        anchor restart found it, or ``"kick"`` when a kick found it.
    seeds : dict
        Coverage of each starting point before the search (after repair).
    moves : int
        Improving moves applied in total.
    kicks : int
        Kicks run.
    """

    selected: list[int]
    coverage: int
    start: str
    seeds: dict = field(default_factory=dict)
    moves: int = 0
    kicks: int = 0


class _State:
    """A feasible selection with the per-rule counts that price every move at once."""

    def __init__(self, inc: Incidence, beta: Any, strict: bool, conflict_cache: dict) -> None:
        self.inc = inc
        self.beta = beta
        self.strict = strict
        self.cache = conflict_cache
        self.usable = inc.sizes > 0

    def conflicts(self, rule: int) -> np.ndarray:
        """Return the rules that may not be selected with ``rule`` (itself included)."""
        bad = self.cache.get(rule)
        if bad is None:
            sizes = self.inc.sizes
            ov = self.inc.overlaps(self.inc.cover(rule))
            bad = (rate_exceeds(ov, sizes, self.beta, self.strict)
                   | rate_exceeds(ov, sizes[rule], self.beta, self.strict))
            bad[rule] = True
            self.cache[rule] = bad
        return bad

    def counts(self, selected: list[int]) -> np.ndarray:
        """Return how many rules of ``selected`` cover each sample."""
        if not selected:
            return np.zeros(self.inc.n_samples, dtype=np.int64)
        return np.bincount(np.concatenate([self.inc.cover(rule) for rule in selected]),
                           minlength=self.inc.n_samples)

    def n_conflicts(self, selected: list[int]) -> np.ndarray:
        total = np.zeros(self.inc.n_rules, dtype=np.int32)
        for rule in selected:
            total += self.conflicts(rule)
        return total

    def gain_uncovered(self, cnt: np.ndarray) -> np.ndarray:
        """Return ``|cover(r) & U|`` for every rule ``r``."""
        # gathered over the uncovered samples: near an optimum they are the few
        return self.inc.overlaps(np.flatnonzero(cnt == 0))

    def fill(self, selected: list[int], gamma: int, rng=None) -> list[int]:
        """Add the compatible rule of largest marginal gain while it is positive.

        With ``rng``, each step takes one of the :data:`_RANDOM_TOP` largest
        positive gains at random instead (the kicks' randomised refill).
        """
        selected = list(selected)
        cnt = self.counts(selected)
        nconf = self.n_conflicts(selected)
        gain_u = self.gain_uncovered(cnt) if len(selected) < gamma else None
        while len(selected) < gamma:
            gain = np.where((nconf == 0) & self.usable, gain_u, 0)
            rule = int(np.argmax(gain))
            if gain[rule] <= 0:
                break
            if rng is not None:
                top = np.argsort(-gain, kind="stable")[:_RANDOM_TOP]
                top = top[gain[top] > 0]
                rule = int(top[rng.integers(len(top))])
            selected.append(rule)
            members = self.inc.cover(rule)
            # gains fall by the newly covered samples only: one small gather per step,
            # not a gather over every uncovered sample
            gain_u = gain_u - self.inc.overlaps(members[cnt[members] == 0])
            cnt[members] += 1
            nconf += self.conflicts(rule)
        return selected

    def best_move(self, selected: list[int], gamma: int):
        """Return ``(gain, out, in)`` of the best improving move, or None at a local optimum."""
        cnt = self.counts(selected)
        nconf = self.n_conflicts(selected)
        free = self.usable & (nconf == 0)
        gain_u = self.gain_uncovered(cnt)
        best = (0, None, None)
        if len(selected) < gamma:
            gain = np.where(free, gain_u, 0)
            rule = int(np.argmax(gain))
            if gain[rule] > best[0]:
                best = (int(gain[rule]), None, rule)
        for out in selected:
            members = self.inc.cover(out)
            only = members[cnt[members] == 1]
            ok = self.usable & (nconf - self.conflicts(out) == 0)
            ok[out] = False
            if not ok.any():
                continue
            gain = gain_u + self.inc.overlaps(only) - self.inc.weight(only)
            gain = np.where(ok, gain, 0)
            rule = int(np.argmax(gain))
            if gain[rule] > best[0]:
                best = (int(gain[rule]), out, rule)
        return None if best[1] is None and best[2] is None else best

    def coverage(self, selected: list[int]) -> int:
        return self.inc.weight(np.flatnonzero(self.counts(selected)))


def _refill_without(state: _State, selected: list[int], out: int, gamma: int) -> list[int]:
    """Drop ``out`` and refill greedily without it (a one-out, many-in move)."""
    saved = bool(state.usable[out])
    state.usable[out] = False
    try:
        return state.fill([r for r in selected if r != out], gamma)
    finally:
        state.usable[out] = saved


def _climb(state: _State, selected: list[int], gamma: int, deadline: float | None):
    """Apply improving moves until none improves; return ``(set, moves)``.

    Best-improvement add/swap first; at their local optimum, each selected
    rule is tried out with a greedy refill (it frees room for several
    smaller compatible rules, which no single swap finds).
    """
    selected = state.fill(selected, gamma)
    moves = 0
    while deadline is None or time.perf_counter() < deadline:
        move = state.best_move(selected, gamma)
        if move is not None:
            _, out, rule = move
            if out is not None:
                selected.remove(out)
            selected.append(rule)
            moves += 1
            continue
        trial = _eject(state, selected, gamma)
        if trial is None and len(selected) < gamma:
            current = state.coverage(selected)
            for out in list(selected):
                # a refill with room for two or more rules: more than a swap
                candidate = _refill_without(state, selected, out, gamma)
                if state.coverage(candidate) > current:
                    trial = candidate
                    break
        if trial is None:
            break
        selected = trial
        moves += 1
    return selected, moves


def _eject(state: _State, selected: list[int], gamma: int) -> list[int] | None:
    """Insert a rule that conflicts with two or more selected ones, eject those, refill.

    Candidates are ranked by the swap formula summed over the rules they
    eject (exact for one ejection, an estimate beyond); the best
    :data:`_EJECT_TRIES` are evaluated exactly after a greedy refill.
    Return the first improving set, or None.
    """
    cnt = state.counts(selected)
    nconf = state.n_conflicts(selected)
    score = state.gain_uncovered(cnt).astype(np.float64)
    for out in selected:
        members = state.inc.cover(out)
        only = members[cnt[members] == 1]
        score += np.where(state.conflicts(out),
                          state.inc.overlaps(only) - state.inc.weight(only), 0)
    cand = np.flatnonzero(state.usable & (nconf >= 2))
    if cand.size == 0:
        return None
    cand = cand[np.argsort(-score[cand], kind="stable")[:_EJECT_TRIES]]
    current = state.coverage(selected)
    for rule in cand.tolist():
        bad = state.conflicts(rule)
        trial = state.fill([s for s in selected if not bad[s]] + [rule], gamma)
        if state.coverage(trial) > current:
            return trial
    return None


def _anchors(state: _State, n_anchors: int) -> list[int]:
    """Return the ``n_anchors`` largest usable rules (ties: lower index first)."""
    usable = np.flatnonzero(state.usable)
    order = usable[np.lexsort((usable, -state.inc.sizes[usable]))]
    return order[:int(n_anchors)].tolist()


def _anchored_climb(state: _State, anchor: int, gamma: int, deadline: float | None):
    """Climb from ``{anchor}`` with only rules no larger than it, then with all rules.

    Return ``(set, moves)``.  Ties in size are broken by index, as in the
    branch and bound's ranking, so each set has exactly one largest rule.
    """
    sizes = state.inc.sizes
    rank_key = (sizes < sizes[anchor]) | ((sizes == sizes[anchor])
                                         & (np.arange(len(sizes)) >= anchor))
    saved = state.usable
    state.usable = saved & rank_key
    try:
        sel, moves = _climb(state, [anchor], gamma, deadline)
    finally:
        state.usable = saved
    sel, more = _climb(state, sel, gamma, deadline)
    return sel, moves + more


def _schedule(anchors: list[int], kick_budget):
    """Yield ``"anchor"`` and ``"kick"`` alternately until both run out (anchors first)."""
    left = len(anchors)
    kicks_left = True
    while left or kicks_left:
        if left:
            left -= 1
            yield "anchor"
        if kicks_left:
            if next(kick_budget, None) is None:
                kicks_left = False
            else:
                yield "kick"


def _kick(state: _State, current: list[int], gamma: int, rng, deadline: float | None):
    """Drop a random part of ``current``, refill at random avoiding it, climb."""
    drop = rng.choice(len(current), size=rng.integers(1, max(len(current) // 2, 1) + 1),
                      replace=False)
    trial = [r for i, r in enumerate(current) if i not in set(drop.tolist())]
    # refill avoiding the dropped rules first, so the kick leaves the basin
    banned = [current[i] for i in drop.tolist()]
    saved = state.usable[banned].copy()
    state.usable[banned] = False
    trial = state.fill(trial, gamma, rng)
    state.usable[banned] = saved
    return _climb(state, trial, gamma, deadline)


def _repair(state: _State, order: list[int]) -> list[int]:
    """Keep the rules of ``order`` compatible with every rule kept before them."""
    kept: list[int] = []
    nconf = np.zeros(state.inc.n_rules, dtype=np.int32)
    for rule in order:
        if state.usable[rule] and nconf[rule] == 0:
            kept.append(rule)
            nconf += state.conflicts(rule)
    return kept


def local_select(covers: Any, beta: Any, gamma: int, strict: bool = True,
                 start: Any = None, n_kicks: int | None = 20,
                 time_limit: float | None = None,
                 lam: float = 1.0, random_state: int | None = 0,
                 n_anchors: int = _N_ANCHORS, sample_weight: Any = None) -> LocalResult:
    """Select at most ``gamma`` compatible rules by swap/exchange local search.

    Parameters
    ----------
    covers : array-like or scipy.sparse matrix, shape (n_rules, n_samples)
        Boolean cover matrix.
    beta : float or Fraction
        Overlap-rate bound (both directions of every selected pair).
    gamma : int
        Maximum number of rules.
    strict : bool
        Conflict when a rate is ``> beta`` (default) or ``>= beta`` (the seed's Algorithm 1).
    start : sequence of int, optional
        An extra starting point (repaired to feasibility in the given order).
    n_kicks : int or None
        Kicks of the iterated local search after the starting points are
        improved; ``None``: kick until ``time_limit`` (which is then required).
    time_limit : float, optional
        Seconds; the search stops early (with the best set so far) when it is used up.
    lam : float
        GDY's overlap weight for the GDY starting point.
    random_state : int or None
        Seed of the kicks.
    n_anchors : int
        Anchor restarts (module docstring), from the ``n_anchors`` largest
        rules down, alternating with the kicks; deterministic, cut short only
        by ``time_limit``.
    sample_weight : array-like of int, optional
        Positive integer weight per sample: a sample of weight ``w`` counts as ``w``
        samples in covers, overlaps, rates and coverage.

    Returns
    -------
    LocalResult
        Never worse than any starting point.

    Examples
    --------
    >>> import numpy as np
    >>> covers = np.zeros((5, 10), dtype=bool)
    >>> for r, cov in enumerate([range(0, 6), range(4, 8), range(6, 9), range(0, 2), range(8, 10)]):
    ...     covers[r, list(cov)] = True
    >>> res = local_select(covers, 0.5, 3)
    >>> res.selected, res.coverage
    ([0, 1, 4], 10)
    """
    gamma = check_gamma(gamma)
    beta_fraction(beta)  # validate once, before any work
    if n_kicks is None and time_limit is None:
        raise ValueError("n_kicks=None (kick until the time limit) needs a time_limit")
    if n_kicks is not None and int(n_kicks) < 0:
        raise ValueError(f"n_kicks must be >= 0, got {n_kicks!r}")
    if int(n_anchors) < 0:
        raise ValueError(f"n_anchors must be >= 0, got {n_anchors!r}")
    deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
    inc = Incidence(covers, sample_weight)
    state = _State(inc, beta, strict, {})
    seeds: dict[str, list[int]] = {}
    if gamma > 0 and state.usable.any():
        w = inc.weights
        seeds["gra-static"] = gra_select(inc.rows, beta, gamma, strict=strict,
                                         sample_weight=w).selected
        seeds["gra-marginal"] = gra_select(inc.rows, beta, gamma, selection="marginal",
                                           strict=strict, sample_weight=w).selected
        seeds["gdy"] = _repair(state, gdy_select(inc.rows, gamma, lam,
                                                 sample_weight=w).selected)
        if start is not None:
            seeds["given"] = _repair(state, [int(r) for r in np.asarray(start).reshape(-1)])
    seed_cov = {name: state.coverage(sel) for name, sel in seeds.items()}
    best, best_cov, best_from, moves = [], 0, "", 0
    seen: set[tuple[int, ...]] = set()
    for name, sel in seeds.items():
        if tuple(sorted(sel)) in seen:
            continue
        seen.add(tuple(sorted(sel)))
        sel, n = _climb(state, sel, gamma, deadline)
        moves += n
        cov = state.coverage(sel)
        if cov > best_cov:
            best, best_cov, best_from = sel, cov, name
    rng = np.random.default_rng(random_state)
    anchors = _anchors(state, n_anchors) if gamma > 0 else []
    kick_budget = (itertools.count() if n_kicks is None else iter(range(int(n_kicks))))
    current, kicks, n_done = list(best), 0, 0
    # anchor restarts and kicks alternate, so a time limit cuts neither off entirely
    for step in _schedule(anchors, kick_budget if best else iter(())):
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if step == "anchor":
            trial, n = _anchored_climb(state, anchors[n_done], gamma, deadline)
            n_done += 1
        else:
            kicks += 1
            trial, n = _kick(state, current, gamma, rng, deadline)
        moves += n
        cov = state.coverage(trial)
        if cov >= state.coverage(current):
            current = trial
        if cov > best_cov:
            best, best_cov, best_from = list(trial), cov, step
    return LocalResult(selected=sorted(int(r) for r in best), coverage=best_cov,
                       start=best_from, seeds=seed_cov, moves=moves, kicks=kicks)
