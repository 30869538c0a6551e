"""``to_json`` / ``from_json`` / ``save`` / ``load`` for every satrules estimator.

The file format (a versioned JSON schema, never pickle) lives in
:mod:`satrules.serialization`; this mixin only gives estimators the methods.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

__all__ = ["RuleFileMixin"]


class RuleFileMixin:
    """Give an estimator JSON rule-set file methods (see :mod:`satrules.serialization`)."""

    def to_json(self, **kwargs: Any) -> str:
        """Return the fitted estimator as rule-set file text (rules, binarization, provenance)."""
        from satrules import serialization

        return serialization.dumps(self, **kwargs)

    @classmethod
    def from_json(cls, text: str) -> Any:
        """Rebuild a fitted estimator from :meth:`to_json` text.

        Raises
        ------
        ValueError
            If the text is not a valid rule-set file of this estimator class.
        """
        from satrules import serialization

        est = serialization.loads(text)
        if not isinstance(est, cls):
            raise ValueError(f"the JSON holds a {type(est).__name__}, not a {cls.__name__}")
        return est

    def save(self, path: str | os.PathLike, **kwargs: Any) -> Path:
        """Write the fitted estimator to ``path`` atomically; return the path."""
        from satrules import serialization

        return serialization.save(self, path, **kwargs)

    def _check_loaded(self) -> None:
        """Refuse inconsistent fitted state read from a file (see ``_loaded``)."""
        from satrules.estimators._loaded import check_loaded

        check_loaded(self)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Any:
        """Read an estimator of this class from a rule-set file."""
        from satrules import serialization

        est = serialization.load(path)
        if not isinstance(est, cls):
            raise ValueError(f"{path} holds a {type(est).__name__}, not a {cls.__name__}")
        return est
