"""GRA (GraphRules, seed 000 Algorithm 1) with the seed's slips fixed (ALGORITHMS.md §5.3).

Fixes relative to the seed: the loop runs ``while V != {} and |S| < gamma``
(not "or", not ``<=``); the edge test is ``> beta`` by default (``strict``);
rules with an empty cover are dropped first; ties go to the lowest index.

Two pick rules:

* ``selection="static"`` (the paper): pick the largest ``|cover(v)|``.
  Removing only the *in*-neighbours of each pick (rules ``r`` with
  ``rate(r, v)`` too high) is then enough for feasibility (proof in §5.2),
  and removing both directions gives the same output.
* ``selection="marginal"`` (classic greedy): pick the largest
  ``|cover(v) \\ covered|`` and stop when it is 0.  Only removal in **both**
  directions is feasible; ``removal="in"`` is allowed only to reproduce the
  seed's mistake (its counterexamples are pinned in the tests).

The overlap graph is never built: each pick needs the overlaps of every rule
with the picked one only -- one sparse matrix-vector product, computed as a
gather over the CSC columns of the picked rule's samples -- so the whole run
costs at most ``O(gamma * nnz(covers))`` (in fact
``O(sum over picks of |cover(v)| * rules per sample)``) after one CSC copy.

References
----------
Seed 000: "Learning High Coverage Discriminative Parsimonious Rulesets", Algorithm 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from satrules.heuristics.submodular import (
    Incidence,
    beta_fraction,
    check_gamma,
    rate_exceeds,
)

__all__ = ["GRAResult", "gra_select"]

_SELECTIONS = ("static", "marginal")
_REMOVALS = ("in", "both")


@dataclass(frozen=True)
class GRAResult:
    """Answer of :func:`gra_select`.

    Attributes
    ----------
    selected : list of int
        Rule indices in pick order.
    coverage : int
        Number (total weight) of samples covered by the selected rules.
    gains : list of int
        The pick criterion at each pick (``|cover|`` or the marginal gain).
    """

    selected: list[int]
    coverage: int
    gains: list[int]


def _check(selection: str, removal: str | None) -> str:
    if selection not in _SELECTIONS:
        raise ValueError(f"selection must be one of {_SELECTIONS}, got {selection!r}")
    if removal is None:
        return "in" if selection == "static" else "both"
    if removal not in _REMOVALS:
        raise ValueError(f"removal must be one of {_REMOVALS} or None, got {removal!r}")
    return removal


def gra_select(covers: Any, beta: Any, gamma: int, selection: str = "static",
               strict: bool = True, removal: str | None = None,
               stop_at_zero: bool = True, sample_weight: Any = None) -> GRAResult:
    """Select at most ``gamma`` rules greedily, removing conflicting rules after each pick.

    Parameters
    ----------
    covers : array-like or scipy.sparse matrix, shape (n_rules, n_samples)
        Boolean cover matrix.
    beta : float or Fraction
        Overlap-rate bound (a pair conflicts when its rate is above ``beta``
        in either direction).
    gamma : int
        Maximum number of rules.
    selection : {"static", "marginal"}
        Pick by ``|cover(v)|`` (the seed) or by the number of newly covered samples.
    strict : bool
        Conflict when the rate is ``> beta`` (default, matches the constraint)
        or ``>= beta`` (the seed's Algorithm 1).
    removal : {"in", "both"} or None
        Which neighbours of a pick are removed. ``None``: ``"in"`` for static
        (the seed's rule, feasible there), ``"both"`` for marginal (the only
        feasible choice there).
    stop_at_zero : bool
        With marginal selection, stop when the best marginal gain is 0
        (default).  ``False`` keeps picking while rules remain, as the seed's
        loop does; only useful to reproduce the seed's counterexamples.
    sample_weight : array-like of int, optional
        Positive integer weight per sample: a sample of weight ``w`` counts as ``w``
        samples in covers, overlaps, rates and coverage (:mod:`satrules.covers`).

    Returns
    -------
    GRAResult

    Examples
    --------
    The worked example of ALGORITHMS.md §4.4 (samples 0..9):

    >>> import numpy as np
    >>> covers = np.zeros((5, 10), dtype=bool)
    >>> for r, cov in enumerate([range(0, 6), range(4, 8), range(6, 9), range(0, 2), range(8, 10)]):
    ...     covers[r, list(cov)] = True
    >>> res = gra_select(covers, 0.5, 3)
    >>> res.selected, res.coverage
    ([0, 1, 4], 10)
    """
    removal = _check(selection, removal)
    gamma = check_gamma(gamma)
    beta_fraction(beta)  # validate once, before any work
    inc = Incidence(covers, sample_weight)
    sizes = inc.sizes
    alive = sizes > 0
    covered = np.zeros(inc.n_samples, dtype=bool)
    inter = np.zeros(inc.n_rules, dtype=np.int64)  # |cover(r) & covered|, marginal only
    selected: list[int] = []
    gains: list[int] = []
    while len(selected) < gamma and alive.any():
        crit = sizes if selection == "static" else sizes - inter
        score = np.where(alive, crit, -1)
        v = int(np.argmax(score))  # first maximum: ties go to the lowest index
        if selection == "marginal" and stop_at_zero and score[v] <= 0:
            break
        selected.append(v)
        gains.append(int(score[v]))
        members = inc.cover(v)
        overlap = inc.overlaps(members)  # overlap(r, v) for every r: one gather per pick
        drop = rate_exceeds(overlap, sizes, beta, strict)  # in-neighbours: rate(r, v)
        if removal == "both":
            drop |= rate_exceeds(overlap, sizes[v], beta, strict)  # rate(v, r)
        if selection == "marginal":
            inter += inc.overlaps(members[~covered[members]])
        covered[members] = True
        alive &= ~drop
        alive[v] = False
    return GRAResult(selected=selected, coverage=inc.weight(np.flatnonzero(covered)),
                     gains=gains)
