"""Exceptions raised by satrules, and the way it warns.

Every error satrules raises on purpose derives from :class:`SatrulesError`, so
``except SatrulesError`` catches all of them.  Errors about user input also
derive from :class:`ValueError` so that generic input-checking code (and
scikit-learn's estimator checks) treat them as bad values.

Warnings go through :func:`warn`.  A fit warns from deep inside the library (the
binarizer, the column encoder, the partition loop); ``warnings.warn`` with a fixed
``stacklevel`` would name a line of satrules, which tells a user nothing about which
of their calls it was.  :func:`warn` names the caller of satrules' outermost frame on
the stack instead: the user's ``fit`` or ``predict`` line, or the library that called
satrules (scikit-learn's ``cross_val_score``), never code that satrules itself called
on the way (scikit-learn's ``set_output`` wrapper around ``fit_transform``).
"""

from __future__ import annotations

import os
import sys
import warnings

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


#: the package's directory, with a trailing separator
_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn(message, category)`` attributed to the code that called satrules
    (see the module notes).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn("a note")
    >>> caught[0].filename.startswith("<doctest")   # the line above, not this module
    True
    """
    frame, level, outermost = sys._getframe(1), 2, 1   # level 1 is this function
    while frame is not None:   # satrules' outermost frame: code between (scikit-learn's
        if os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):   # set_output
            outermost = level                                    # wrapper) is not the caller
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=outermost + 1)
