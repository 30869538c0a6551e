"""Class probabilities of a rule-set classifier, from the training rows classified alike.

A rule set classifies a row in one of a few ways, its *regions*: binary IMLI/IMLIB
rules fire or do not; one-vs-rest, the first class of ``class_order_`` whose rules
fire decides, or no class's rules fire; CDPR, the rule that decides (with
``resolve="vote"``, the class the vote gives), or no rule covers the row.  ``fit``
counts the training rows of each class in each region (``region_counts_``), and
``predict_proba`` gives a row its region's class frequencies, smoothed by a prior of
one row of every class and one more of the class the rules predict there
(:func:`satrules.metrics.region_proba`).  So a rule set has as many distinct
probability vectors as it has regions, and a ROC curve has that many points.  The
most probable class is the predicted one, ties and empty regions included, except in
a region where at least two more training rows belong to another class; the
probabilities then say so rather than hide it.  A binary IMLI or IMLIB fit never has
such a region (its rules are never worse on the training rows than predicting one
class); one-vs-rest and CDPR rarely do.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.utils.validation import check_is_fitted

from satrules.metrics import region_proba

__all__ = ["RegionProbaMixin"]


class RegionProbaMixin:
    """``predict_proba`` for an estimator that defines ``_proba_regions(X)`` (each row's
    region index), ``_n_regions()`` and ``_region_classes()`` (the class index each
    region predicts), and stores ``region_counts_`` in ``fit``."""

    def predict_proba(self, X: Any) -> np.ndarray:
        """Return the class probabilities of every row of ``X``.

        A row's probabilities are the class frequencies of the training rows that the
        rules classified the same way (by the same rule, or by none), smoothed by a prior
        of one row of every class and one more of the class predicted there (see the
        module :mod:`satrules.estimators._proba`).  Columns follow ``classes_``.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)

        Raises
        ------
        ValueError
            When the estimator has no ``region_counts_``: an IMLI or IMLIB model built by
            ``satrules decode`` from a solver's answer, or read from a file written
            before satrules kept the counts; fit it again.

        Examples
        --------
        >>> import numpy as np
        >>> from satrules import IMLIClassifier
        >>> X = np.array([[0], [0], [0], [1], [1], [1]])
        >>> y = np.array([0, 0, 1, 1, 1, 1])
        >>> clf = IMLIClassifier(n_rules=1, null_test=False).fit(X, y)
        >>> clf.predict(X).tolist()
        [0, 0, 0, 1, 1, 1]
        >>> clf.predict_proba(X).round(2).tolist()[2:4]
        [[0.67, 0.33], [0.17, 0.83]]
        """
        check_is_fitted(self, "rules_")
        counts = getattr(self, "region_counts_", None)
        if counts is None:
            raise ValueError(
                f"this {type(self).__name__} has no region_counts_, the training rows' "
                "class counts behind predict_proba (a model from `satrules decode`, or saved "
                "before satrules kept them, has none); fit it again to use predict_proba")
        return region_proba(counts, self._proba_regions(X), self._region_classes())
