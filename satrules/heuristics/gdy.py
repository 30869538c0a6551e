"""GDY: CDPRL-MO (seed eq. 5) maximised by FastInterlaceGreedy or by plain greedy.

The objective (ALGORITHMS.md §6.1) is

    g(S) = coverage(S) + lam * (N - mean-overlap(S)),
    mean-overlap(S) = sum_{r != s in S} overlap(r, s) / |S|**2   (ordered pairs),

with ``mean-overlap`` of the empty set and of singletons 0, so
``g(empty) = lam * N``.  ``g`` is non-negative but neither monotone nor
submodular (§6.2: three identical rules are a counterexample), so FIG's 1/4
guarantee does not carry over: GDY is a heuristic and its ratio is measured in
``benchmarks/report_cdpr_ratios.py``, not asserted.

``algorithm="fig"`` is FastInterlaceGreedy (Kuhnle, NeurIPS 2019) as written
in §6.4: two disjoint solutions grown in alternation, each taking the next
rule whose gain reaches its own geometrically decreasing threshold (factor
``1 - rho``, stop at ``rho * M / gamma``), run once from empty sets and once
from the best singleton; the best of the four (and of the empty set) wins.
``M`` is the largest singleton *gain* by default (``threshold="gain"``), not
the largest ``g({x})``, whose constant ``lam * N`` would stop FIG after one or
two rules on real data (errata §11).
``algorithm="greedy"`` adds the rule of largest gain while the gain is
positive and ``|S| < gamma``.

Gains are vectorised: each solution keeps ``|cover(r) & covered|`` and
``sum_{s in S} overlap(r, s)`` for every rule ``r``, updated with one sparse
matrix-vector product per added rule (a gather over the added rule's samples,
:class:`~satrules.heuristics.submodular.Incidence`), so every candidate's
``g(S + r)`` costs O(1).  Rules with an empty cover are dropped first (they would lower the
mean overlap without covering anything, and their overlap-rate is 0/0).

References
----------
Seed 000, eq. 5 and Algorithm "GDY"; A. Kuhnle, "Interlaced Greedy Algorithm for
Maximization of Submodular Functions in Nearly Linear Time", NeurIPS 2019.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from satrules.heuristics.submodular import Incidence, check_gamma

__all__ = ["GDYResult", "gdy_select"]

_ALGORITHMS = ("fig", "greedy")
_THRESHOLDS = ("gain", "value")


@dataclass(frozen=True)
class GDYResult:
    """Answer of :func:`gdy_select`.

    Attributes
    ----------
    selected : list of int
        Rule indices in the order they were added.
    coverage : int
        Samples covered by the selected rules.
    objective : float
        ``g(selected)``.
    """

    selected: list[int]
    coverage: int
    objective: float


class _Growing:
    """One solution under construction with the per-rule state that makes gains O(1)."""

    def __init__(self, inc: Incidence, lam: float) -> None:
        self.inc = inc
        self.sizes = inc.sizes
        self.n_samples = inc.total   # N: the samples' total weight
        self.lam = lam
        self.members: list[int] = []
        self.in_set = np.zeros(inc.n_rules, dtype=bool)
        self.covered = np.zeros(inc.n_samples, dtype=bool)
        self.inter = np.zeros(inc.n_rules, dtype=np.int64)  # |cover(r) & covered|
        self.ov_with = np.zeros(inc.n_rules, dtype=np.int64)  # sum_{s in S} overlap(r, s)
        self.cov = 0
        self.pair_sum = 0  # sum over ordered pairs r != s of overlap(r, s)

    def value(self) -> float:
        k = len(self.members)
        mean = self.pair_sum / (k * k) if k else 0.0
        return self.cov + self.lam * (self.n_samples - mean)

    def gains(self) -> np.ndarray:
        """Return ``g(S + r) - g(S)`` for every rule ``r`` (meaningless for members)."""
        k = len(self.members) + 1
        cov = self.cov + self.sizes - self.inter
        mean = (self.pair_sum + 2 * self.ov_with) / (k * k)
        return cov + self.lam * (self.n_samples - mean) - self.value()

    def add(self, r: int) -> None:
        members = self.inc.cover(r)
        fresh = members[~self.covered[members]]
        self.inter += self.inc.overlaps(fresh)
        self.pair_sum += 2 * int(self.ov_with[r])
        self.ov_with += self.inc.overlaps(members)
        self.covered[fresh] = True
        self.cov += self.inc.weight(fresh)
        self.members.append(r)
        self.in_set[r] = True


def _add_next(sol: _Growing, other: _Growing, pos: int, tau: float, stop: float,
              gamma: int, usable: np.ndarray, rho: float) -> tuple[int, float]:
    """FIG's ADD (§6.4): take the first rule from ``pos`` on whose gain reaches ``tau``."""
    if len(sol.members) >= gamma:
        return 0, 0.0  # finished; a threshold of 0 is below ``stop`` and ends this side
    gains = sol.gains()
    free = usable & ~sol.in_set & ~other.in_set
    while tau >= stop:
        hit = np.flatnonzero(free[pos:] & (gains[pos:] >= tau))
        if hit.size:
            idx = pos + int(hit[0])
            sol.add(idx)
            return idx, tau
        tau *= 1.0 - rho
        pos = 0
    return 0, tau


def _fig_run(make, seed: int | None, big_m: float, stop: float, gamma: int,
             usable: np.ndarray, rho: float) -> tuple[_Growing, _Growing]:
    first, second = make(), make()
    if seed is not None:
        first.add(seed)
        second.add(seed)
    tau1 = tau2 = big_m
    pos1 = pos2 = 0
    while tau1 >= stop or tau2 >= stop:
        pos1, tau1 = _add_next(first, second, pos1, tau1, stop, gamma, usable, rho)
        pos2, tau2 = _add_next(second, first, pos2, tau2, stop, gamma, usable, rho)
    return first, second


def _greedy(make, gamma: int, usable: np.ndarray) -> _Growing:
    sol = make()
    while len(sol.members) < gamma:
        gains = np.where(usable & ~sol.in_set, sol.gains(), -np.inf)
        r = int(np.argmax(gains))
        if not gains[r] > 0:
            break
        sol.add(r)
    return sol


def gdy_select(covers: Any, gamma: int, lam: float, rho: float = 0.1,
               algorithm: str = "fig", threshold: str = "gain",
               sample_weight: Any = None) -> GDYResult:
    """Select at most ``gamma`` rules maximising ``g`` (coverage minus scaled mean overlap).

    Parameters
    ----------
    covers : array-like or scipy.sparse matrix, shape (n_rules, n_samples)
        Boolean cover matrix.
    gamma : int
        Maximum number of rules.
    lam : float
        Weight ``lambda >= 0`` of the overlap term.
    rho : float
        FIG's threshold decay ``0 < rho < 1`` (the seed's rho, Kuhnle's epsilon).
    algorithm : {"fig", "greedy"}
        FastInterlaceGreedy (the seed's GDY) or plain greedy.
    threshold : {"gain", "value"}
        FIG's ``M`` (start and stop of its thresholds, stop ``rho * M / gamma``).
        ``"gain"`` (default): the largest singleton gain ``g({x}) - g(empty) = |cover(x)|``,
        i.e. FIG run on ``g - g(empty)``, which has the same gains; it picks
        the 3-12 rules the paper reports.  ``"value"``: the literal
        ``max g({x}) = |cover(x)| + lam N``; the constant ``lam N`` then sits in
        every threshold and FIG stops after one or two rules once ``lam N`` dwarfs
        the covers (``docs/cdpr_paper_errata.md`` §11).
    sample_weight : array-like of int, optional
        Positive integer weight per sample: a sample of weight ``w`` counts as ``w``
        samples in coverage, overlaps and ``N``.

    Returns
    -------
    GDYResult
        The best of FIG's four solutions and the empty set (ties: the first
        in the order A, B, D, E, empty), or the greedy solution.

    Examples
    --------
    >>> covers = [[1, 1, 1, 0, 0, 0], [0, 0, 1, 1, 0, 0], [0, 0, 0, 0, 1, 1]]
    >>> res = gdy_select(covers, gamma=2, lam=1.0)
    >>> sorted(res.selected), res.coverage, res.objective
    ([0, 2], 5, 11.0)
    """
    if algorithm not in _ALGORITHMS:
        raise ValueError(f"algorithm must be one of {_ALGORITHMS}, got {algorithm!r}")
    if threshold not in _THRESHOLDS:
        raise ValueError(f"threshold must be one of {_THRESHOLDS}, got {threshold!r}")
    gamma = check_gamma(gamma)
    if not float(lam) >= 0 or not np.isfinite(float(lam)):
        raise ValueError(f"lam must be a finite number >= 0, got {lam!r}")
    if not 0 < float(rho) < 1:
        raise ValueError(f"rho must lie strictly between 0 and 1, got {rho!r}")
    inc = Incidence(covers, sample_weight)
    sizes = inc.sizes
    usable = sizes > 0
    n_samples = inc.total

    def make() -> _Growing:
        return _Growing(inc, float(lam))

    empty = make()
    if algorithm == "greedy" or gamma == 0 or not usable.any():
        best = _greedy(make, gamma, usable) if usable.any() else empty
        return GDYResult(list(best.members), best.cov, float(best.value()))
    singles = np.where(usable, sizes + float(lam) * n_samples, -np.inf)
    a0 = int(np.argmax(singles))
    # "gain": FIG on f(S) = g(S) - g(empty), whose singletons are worth |cover(x)|; "value":
    # M = max g({x}) literally, which carries the constant lam * N into every threshold
    big_m = float(singles[a0]) - (float(lam) * n_samples if threshold == "gain" else 0.0)
    # M >= 1 here (a usable rule covers a sample), so §6.4's "M <= 0" edge case cannot occur
    stop = float(rho) * big_m / gamma
    a_sol, b_sol = _fig_run(make, None, big_m, stop, gamma, usable, float(rho))
    d_sol, e_sol = _fig_run(make, a0, big_m, stop, gamma, usable, float(rho))
    candidates = [a_sol, b_sol, d_sol, e_sol, empty]
    values = [c.value() for c in candidates]
    best = candidates[int(np.argmax(values))]
    return GDYResult(list(best.members), best.cov, float(best.value()))
