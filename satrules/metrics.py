"""Rule and rule-set quality metrics of the CDPR paper (seed 000, §3.1), on any data.

Every function takes ``covers``, a boolean rules × samples matrix (numpy or scipy.sparse; see
:func:`as_covers`), computed on whatever data is being measured (training or test), and an
optional ``selected`` list of row indices (the rule set S; all rows when omitted).

Conventions for the undefined cases (ALGORITHMS.md §12, erratum 9): the overlap-rate of a rule
with an empty cover, the accuracy of a rule with an empty cover and the coverage-rate of zero
samples are ``nan``; the mean overlap of fewer than two rules is 0.

Examples
--------
>>> covers = np.array([[1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 0, 0]], dtype=bool)
>>> coverage(covers), coverage_rate(covers, [0])
(4, 0.75)
>>> overlap_rate(covers, [0, 1])
array([[1.        , 0.66666667],
       [0.66666667, 1.        ]])
>>> mean_overlap(covers, [0, 1])
1.0
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = [
    "as_covers", "cover_size", "covered", "coverage", "coverage_rate", "overlap",
    "overlap_rate", "max_overlap_rate", "mean_overlap", "rule_accuracy", "predict_rules",
    "rule_set_accuracy", "rule_size", "max_width", "deciding_rules", "region_counts",
    "region_proba", "balanced_accuracy",
]


def as_covers(covers) -> sp.csr_matrix:
    """Return ``covers`` as a boolean CSR matrix of shape (n_rules, n_samples)."""
    if sp.issparse(covers):
        out = sp.csr_matrix(covers)
        if out.dtype != bool:
            out = out.astype(bool)
        return out
    array = np.asarray(covers)
    if array.ndim != 2:
        raise ValueError(f"covers must be 2-D (rules x samples), got shape {array.shape}")
    return sp.csr_matrix(array.astype(bool))


def _rows(covers, selected) -> sp.csr_matrix:
    covers = as_covers(covers)
    if selected is None:
        return covers
    return covers[np.asarray(selected, dtype=np.intp)]


def cover_size(covers, selected=None) -> np.ndarray:
    """Return ``|cover(r)|`` for each (selected) rule."""
    return np.asarray(_rows(covers, selected).sum(axis=1)).ravel().astype(np.int64)


def covered(covers, selected=None) -> np.ndarray:
    """Return the boolean mask of samples in ``⋃_{r ∈ S} cover(r)``."""
    rows = _rows(covers, selected)
    return np.asarray(rows.sum(axis=0)).ravel() > 0


def coverage(covers, selected=None) -> int:
    """Return ``coverage(S) = |⋃_{r ∈ S} cover(r)|``."""
    return int(covered(covers, selected).sum())


def coverage_rate(covers, selected=None) -> float:
    """Return ``coverage(S) / N`` (``nan`` when there are no samples)."""
    n_samples = as_covers(covers).shape[1]
    return coverage(covers, selected) / n_samples if n_samples else float("nan")


def overlap(covers, selected=None) -> np.ndarray:
    """Return the symmetric matrix ``overlap(r_i, r_j) = |cover(r_i) ∩ cover(r_j)|`` (int).

    The diagonal holds ``|cover(r_i)|``.
    """
    rows = _rows(covers, selected).astype(np.int64)
    return np.asarray((rows @ rows.T).toarray(), dtype=np.int64)


def overlap_rate(covers, selected=None) -> np.ndarray:
    """Return the directed matrix ``overlap(r_i, r_j) / |cover(r_i)|`` (row i normalises).

    Rows of rules with an empty cover are ``nan``.
    """
    ov = overlap(covers, selected).astype(np.float64)
    size = np.diag(ov).copy()
    with np.errstate(invalid="ignore", divide="ignore"):
        return ov / size[:, None]


def max_overlap_rate(covers, selected=None) -> float:
    """Return ``max_{i ≠ j} overlap-rate(r_i, r_j)`` over ordered pairs (0 for < 2 rules).

    A rule set satisfies CDPRL's overlap constraint iff this is ``≤ β``.  Rules with an empty
    cover have no defined rate and are ignored.
    """
    rates = overlap_rate(covers, selected)
    if rates.shape[0] < 2:
        return 0.0
    np.fill_diagonal(rates, -np.inf)
    rates = rates[np.isfinite(rates)]
    return float(rates.max()) if rates.size else 0.0


def mean_overlap(covers, selected=None) -> float:
    """Return ``Σ_{i ≠ j} overlap(r_i, r_j) / |S|²`` over ordered pairs (seed eq. 5).

    0 when ``|S| < 2``.
    """
    ov = overlap(covers, selected)
    size = ov.shape[0]
    if size < 2:
        return 0.0
    return float(ov.sum() - np.trace(ov)) / size**2


def rule_accuracy(covers, labels, y, selected=None) -> np.ndarray:
    """Return ``|correct-cover(r)| / |cover(r)|`` per rule (``nan`` for an empty cover).

    ``labels[r]`` is rule r's class and ``y`` the samples' classes, in the same coding.
    """
    rows = _rows(covers, selected)
    labels = np.asarray(labels)
    if selected is not None:
        labels = labels[np.asarray(selected, dtype=np.intp)]
    y = np.asarray(y)
    coo = rows.tocoo()
    correct = np.bincount(coo.row, weights=(y[coo.col] == labels[coo.row]),
                          minlength=rows.shape[0])
    size = np.asarray(rows.sum(axis=1)).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        return correct / size


def predict_rules(covers, labels, default, selected=None, priority=None, resolve="priority"):
    """Classify samples with a rule set and a default rule.

    Parameters
    ----------
    covers : rules × samples boolean matrix
    labels : array of shape (n_rules,)
        Class of each rule (non-negative ints when ``resolve="vote"``).
    default : label
        Class of samples covered by no selected rule.
    selected : sequence of int, optional
    priority : array of shape (n_selected,), optional
        Score of each selected rule; a sample takes the class of its covering rule with the
        highest score, ties to the earlier rule.  Defaults to the order of ``selected``.
    resolve : {"priority", "vote"}
        ``"vote"``: the class covering the sample most often; ties go to the class whose best
        covering rule has the highest priority.

    Returns
    -------
    ndarray of shape (n_samples,)

    Examples
    --------
    >>> covers = np.array([[1, 1, 0, 0], [0, 1, 1, 0]], dtype=bool)
    >>> predict_rules(covers, [1, 0], default=0).tolist()
    [1, 1, 0, 0]
    >>> predict_rules(covers, [1, 0], default=0, priority=[0.5, 0.9]).tolist()
    [1, 0, 0, 0]
    """
    rows = _rows(covers, selected)
    labels = np.asarray(labels)
    if selected is not None:
        labels = labels[np.asarray(selected, dtype=np.intp)]
    n_rules, n_samples = rows.shape
    out = np.full(n_samples, default, dtype=np.result_type(labels, np.asarray(default)))
    if n_rules == 0:
        return out
    dense, scored = _ranked(rows, priority)
    hit = dense.any(axis=0)
    if resolve == "priority":
        out[hit] = labels[scored.argmax(axis=0)[hit]]
        return out
    if resolve != "vote":
        raise ValueError(f"resolve must be 'priority' or 'vote', got {resolve!r}")
    classes, code = np.unique(labels, return_inverse=True)
    onehot = np.zeros((n_rules, len(classes)), dtype=np.int64)
    onehot[np.arange(n_rules), code] = 1
    votes = dense.T.astype(np.int64) @ onehot
    best = np.zeros((n_samples, len(classes)), dtype=np.int64)
    for k in range(len(classes)):
        best[:, k] = (scored * onehot[:, k][:, None]).max(axis=0)
    score = votes * (n_rules + 1) + best  # votes dominate, then the best rule's rank
    out[hit] = classes[score.argmax(axis=1)[hit]]
    return out


def _ranked(rows: sp.csr_matrix, priority) -> tuple[np.ndarray, np.ndarray]:
    """The dense covers and the covers times each rule's rank (larger = preferred,
    ``1..n_rules``; ``priority`` as in :func:`predict_rules`)."""
    n_rules = rows.shape[0]
    rank = np.empty(n_rules, dtype=np.int64)
    best_first = (np.arange(n_rules) if priority is None
                  else np.argsort(-np.asarray(priority, dtype=float), kind="stable"))
    rank[best_first] = np.arange(n_rules, 0, -1)
    dense = rows.toarray()
    return dense, dense * rank[:, None]


def deciding_rules(covers, priority=None) -> np.ndarray:
    """Return, for each sample, the index of the rule whose class :func:`predict_rules`
    gives it with ``resolve="priority"`` (-1 when no rule covers it).

    Examples
    --------
    >>> covers = np.array([[1, 1, 0, 0], [0, 1, 1, 0]], dtype=bool)
    >>> deciding_rules(covers, priority=[0.5, 0.9]).tolist()
    [0, 1, 1, -1]
    """
    rows = as_covers(covers)
    if rows.shape[0] == 0:
        return np.full(rows.shape[1], -1, dtype=np.intp)
    dense, scored = _ranked(rows, priority)
    return np.where(dense.any(axis=0), scored.argmax(axis=0), -1).astype(np.intp)


def region_counts(region, y, n_regions: int, n_classes: int,
                  sample_weight=None) -> np.ndarray:
    """Return the ``n_regions x n_classes`` counts of samples per region and class.

    A *region* is a way a rule set classifies a sample (the rule that decided it, or no
    rule); ``region`` and ``y`` hold each sample's region and class index.  With
    ``sample_weight`` the counts are the samples' weight sums (floats).

    Examples
    --------
    >>> region_counts([0, 0, 1, 1, 1], [0, 1, 1, 1, 0], 2, 2).tolist()
    [[1, 1], [1, 2]]
    """
    region, y = np.asarray(region, dtype=np.intp), np.asarray(y, dtype=np.intp)
    counts = np.bincount(region * n_classes + y, minlength=n_regions * n_classes,
                         weights=sample_weight).reshape(n_regions, n_classes)
    return counts.astype(np.int64) if sample_weight is None else counts


def region_proba(counts, region, predicted=None) -> np.ndarray:
    """Return each sample's class probabilities from its region's training samples
    (``counts`` from :func:`region_counts`): the class counts plus a prior of one sample
    of every class and, when ``predicted`` gives each region's predicted class index,
    one more of that class.  A region of few samples stays near its prior, no class gets
    probability 0 or 1, and a tie (an empty region too) goes to the predicted class.

    Examples
    --------
    >>> region_proba([[1, 1], [1, 2]], [1, 0]).round(2).tolist()
    [[0.4, 0.6], [0.5, 0.5]]
    >>> region_proba([[1, 1], [1, 2]], [1, 0], predicted=[0, 1]).round(2).tolist()
    [[0.33, 0.67], [0.6, 0.4]]
    """
    counts = np.asarray(counts, dtype=float) + 1.0
    if predicted is not None:
        counts[np.arange(len(counts)), np.asarray(predicted, dtype=np.intp)] += 1.0
    return (counts / counts.sum(axis=1, keepdims=True))[np.asarray(region, dtype=np.intp)]


def rule_set_accuracy(covers, labels, y, default, selected=None, priority=None,
                      resolve="priority") -> float:
    """Return RSA: the fraction of samples the rule set (with its default rule) classifies right.

    Arguments as in :func:`predict_rules`; ``nan`` when there are no samples.
    """
    y = np.asarray(y)
    if y.size == 0:
        return float("nan")
    pred = predict_rules(covers, labels, default, selected, priority, resolve)
    return float(np.mean(pred == y))


def rule_size(selected) -> int:
    """Return ``rule-size(S) = |S|``."""
    return len(selected)


def max_width(widths, selected=None) -> int:
    """Return ``max_{r ∈ S} width(r)`` (0 for an empty rule set)."""
    widths = np.asarray(widths)
    if selected is not None:
        widths = widths[np.asarray(selected, dtype=np.intp)]
    return int(widths.max()) if widths.size else 0


def balanced_accuracy(y, pred) -> float:
    """Return the mean over the classes of ``y`` of the fraction of their rows ``pred``
    gets right (what ``class_weight="balanced"`` aims at); NaN without rows.

    Examples
    --------
    >>> balanced_accuracy([0, 0, 0, 1], [0, 0, 1, 1])
    0.8333333333333333
    """
    y, pred = np.asarray(y), np.asarray(pred)
    if len(y) == 0:
        return float("nan")
    return float(np.mean([np.mean(pred[y == c] == c) for c in np.unique(y)]))
