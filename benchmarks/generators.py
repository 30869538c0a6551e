"""Instance generators for the backend benchmarks (seeded, vectorised, IR only).

* :func:`random_wpms` -- random weighted partial MaxSAT: hard 3-clauses at a
  given clause/variable ratio and weighted soft units or short soft clauses;
* :func:`coverage` -- coverage-style maximum coverage: pick at most ``k`` of
  ``n_sets`` candidate sets (rules) so that the weight of covered elements
  (samples) is maximal, with a conflict graph between overlapping candidates
  (the CDPRL shape: cardinality + graph + soft units);
* :func:`at_most_k` -- the cardinality micro-benchmark model: soft units that
  all want to be true under one ``sum <= k`` or ``== 1`` constraint.
"""

from __future__ import annotations

import numpy as np

from satrules.ir import Model

__all__ = ["random_wpms", "coverage", "at_most_k"]


def random_wpms(n_vars: int, ratio: float = 3.0, n_soft: int | None = None,
                max_weight: int = 100, soft_len: int = 1, seed: int = 0) -> Model:
    """Return a random weighted partial MaxSAT model.

    ``round(ratio * n_vars)`` hard clauses of 3 distinct variables with random
    signs, and ``n_soft`` (default ``2 * n_vars``) soft clauses of ``soft_len``
    literals with weights uniform in ``1..max_weight``.
    """
    rng = np.random.default_rng(seed)
    m = Model()
    m.new_vars("x", n_vars)
    n_hard = int(round(ratio * n_vars))
    n_soft = 2 * n_vars if n_soft is None else n_soft
    vars3 = np.argsort(rng.random((n_hard, n_vars)), axis=1)[:, :3] + 1
    m.add_clauses(vars3 * rng.choice([-1, 1], size=(n_hard, 3)))
    soft_vars = np.argsort(rng.random((n_soft, n_vars)), axis=1)[:, :soft_len] + 1
    soft = soft_vars * rng.choice([-1, 1], size=(n_soft, soft_len))
    m.add_soft_clauses(soft, rng.integers(1, max_weight + 1, size=n_soft))
    return m


def coverage(n_elements: int, n_sets: int, k: int, density: float = 0.1,
             overlap: int = 2, seed: int = 0) -> Model:
    """Return a max-coverage model with a cardinality bound and a conflict graph.

    Variables ``("s", j)`` select candidate set ``j`` and ``("c", i)`` mean
    element ``i`` is covered; hard ``c_i -> OR_{j covers i} s_j``; soft unit
    ``(c_i, w_i)``; ``sum s <= k``; two candidates sharing more than
    ``overlap`` elements conflict (graph edge).
    """
    rng = np.random.default_rng(seed)
    member = rng.random((n_sets, n_elements)) < density
    m = Model()
    s = m.new_vars("s", n_sets)
    c = m.new_vars("c", n_elements)
    width = max(int(member.sum(axis=0).max()), 1)
    rows = np.zeros((n_elements, width + 1), dtype=np.int64)
    rows[:, 0] = -c
    # element i's clause: -c_i or s_j for each covering j, padded by repeating -c_i
    order = np.argsort(~member.T, axis=1, kind="stable")[:, :width]
    covers = np.take_along_axis(member.T, order, axis=1)
    rows[:, 1:] = np.where(covers, s[order], -c[:, None])
    m.add_clauses(rows)
    m.add_soft_units(c, rng.integers(1, 10, size=n_elements))
    m.add_cardinality(s, "<=", k)
    shared = member.astype(np.int64) @ member.T.astype(np.int64)
    a, b = np.nonzero(np.triu(shared > overlap, 1))
    if len(a):
        m.add_graph(s, np.stack([a, b], axis=1))
    return m


def at_most_k(n_lits: int, k: int, op: str = "<=", seed: int = 0) -> Model:
    """Return ``sum(x) op k`` over ``n_lits`` variables with random soft units ``(x_i, w_i)``."""
    rng = np.random.default_rng(seed)
    m = Model()
    xs = m.new_vars("x", n_lits)
    m.add_cardinality(xs, op, k)
    m.add_soft_units(xs, rng.integers(1, 20, size=n_lits))
    return m
