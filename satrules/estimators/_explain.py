"""Why each row gets its class: the rule that decided it, as text (``explain``).

A rule set is read by a person, and so is its verdict on one case: for every row,
``explain`` gives the predicted class (the one ``predict`` gives), the index of the
rule that decided it and the text of that rule as the row satisfies it.

* IMLI and IMLIB, DNF: the first term that holds (``worst radius > 16.8 AND ...``), or
  ``no rule for <class> holds`` for the ELSE class.
* IMLI, CNF (``rule_type="cnf"``): the first clause that fails, read as what is true of
  the row (``x <= 3 OR city = Oslo`` fails: ``x > 3 AND city != Oslo``), or ``every
  clause for <class> holds``.
* one-vs-rest: the same, for the first class of the priority order whose rules hold
  (naming the classes whose rules hold too: ``(the rules for virginica hold too;
  versicolor comes first)``), or ``no class's rules hold`` for the default class.
* CDPR: the rule that decides the row (``resolve``: the most accurate or widest rule
  covering it), or ``no rule covers the row`` for the default class; with
  ``resolve="vote"``, the best rule of the winning class and how many more voted so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["ExplainMixin", "append_by_group", "first_true", "pick"]


def first_true(values: np.ndarray) -> np.ndarray:
    """Per row of the boolean ``values`` (n x k), the first column that is true; -1 when
    none is.

    >>> first_true(np.array([[False, True, True], [False, False, False]])).tolist()
    [1, -1]
    """
    if values.shape[1] == 0:
        return np.full(len(values), -1, dtype=np.intp)
    return np.where(values.any(axis=1), values.argmax(axis=1), -1).astype(np.intp)


def pick(texts: list[str], index: np.ndarray, otherwise: str) -> np.ndarray:
    """``texts[index[i]]`` for each row, ``otherwise`` where ``index`` is -1 (object array).

    >>> pick(["a", "b"], np.array([1, -1, 0]), "none").tolist()
    ['b', 'none', 'a']
    """
    table = np.array([*texts, otherwise], dtype=object)
    return table[np.where(index >= 0, index, len(texts))]


def append_by_group(reason: np.ndarray, rows: np.ndarray, keys: np.ndarray, suffix) -> None:
    """Append ``suffix(key)`` to ``reason[r]`` for each row index ``r`` of ``rows``, where
    ``key`` is the row's line of ``keys`` (one line per row of ``rows``): the text is made
    once per distinct key, not once per row (``explain`` on a million rows).

    >>> reason = np.array(["a", "b", "c"], dtype=object)
    >>> append_by_group(reason, np.array([0, 2]), np.array([[1], [2]]), lambda k: f"+{k[0]}")
    >>> reason.tolist()
    ['a+1', 'b', 'c+2']
    """
    if not len(rows):
        return
    distinct, group = np.unique(keys, axis=0, return_inverse=True)
    group = group.ravel()
    for g, key in enumerate(distinct):
        where = rows[group == g]
        reason[where] = reason[where] + suffix(key)


class ExplainMixin:
    """``explain`` for an estimator that defines ``_explanations(X)``: the predictions,
    the deciding rule's index (-1: none) and the reason of every row."""

    def explain(self, X: Any):
        """Return, for every row of ``X``, its predicted class and the rule that decided it.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        pandas.DataFrame
            Indexed like ``X`` when it is a DataFrame (else 0 .. n - 1), with columns

            * ``prediction``: the class :meth:`predict` gives the row;
            * ``rule``: the index of the rule that decided it, -1 when none did (the
              ELSE or default class, or a CNF whose clauses all hold); IMLI and IMLIB
              count within the rule set of the class the rules describe
              (``rules_``, or ``rules_[class]`` one-vs-rest), CDPR within ``rules_``;
            * ``reason``: the text of that rule as the row satisfies it (for a CNF
              clause that fails, its negation), or a sentence saying why no rule
              decided (see :mod:`satrules.estimators._explain`).

        Examples
        --------
        >>> import numpy as np
        >>> from satrules import IMLIClassifier
        >>> X = np.array([[0], [0], [0], [1], [1], [1]])
        >>> y = np.array([0, 0, 0, 1, 1, 1])
        >>> clf = IMLIClassifier(n_rules=1, null_test=False).fit(X, y)
        >>> clf.explain(X[[0, 3]])
           prediction  rule               reason
        0           0    -1  no rule for 1 holds
        1           1     0               x0 = 1
        """
        import pandas as pd

        prediction, rule, reason = self._explanations(X)
        index = X.index if hasattr(X, "columns") and hasattr(X, "index") else None
        return pd.DataFrame({"prediction": prediction, "rule": rule, "reason": reason},
                            index=index)
