"""Exceptions raised by satrules.

Every error satrules raises on purpose derives from :class:`SatrulesError`, so
``except SatrulesError`` catches all of them.  Errors about user input also
derive from :class:`ValueError` so that generic input-checking code (and
scikit-learn's estimator checks) treat them as bad values.
"""

from __future__ import annotations

__all__ = [
    "SatrulesError",
    "EncodingError",
    "BackendError",
    "BackendUnavailableError",
    "UnsupportedConstraintError",
    "ModelSizeError",
]


class SatrulesError(Exception):
    """Base class of every satrules error."""


class EncodingError(SatrulesError, ValueError):
    """A model or encoding request is malformed (bad literal, weight, key, bound)."""


class ModelSizeError(EncodingError):
    """An encoding would exceed the configured size limit (estimate given in the message)."""


class BackendError(SatrulesError, RuntimeError):
    """A solver engine failed or returned an answer that the IR check rejected."""


class BackendUnavailableError(BackendError, ImportError):
    """The engine behind a backend is not installed (the message names the install line)."""


class UnsupportedConstraintError(BackendError):
    """A backend was handed an IR constraint kind it neither handles nor can lower."""
