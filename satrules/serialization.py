"""Versioned JSON files for fitted rule sets: :func:`save`, :func:`load`, :func:`atomic_write`.

A *rule-set file* holds a fitted satrules estimator (or a bare
:class:`~satrules.rules.RuleSet`) together with everything needed to use it
again and to say where it came from:

``schema``, ``schema_version``
    ``"satrules.ruleset"`` and an integer; files from a newer satrules are
    refused with a message asking for an upgrade.
``rules_text``
    The rules as readable IF-THEN text (for people; ignored on load).
``estimator``
    Class path, ``get_params()`` and the fitted state (``rules_``,
    ``binarizer_`` with its thresholds, categories and feature names,
    ``classes_``, ``feature_names_in_``, ...).
``metrics``
    Whatever the caller measured (accuracy, coverage, sizes).
``provenance``
    satrules and Python versions, creation time, and the solver's backend,
    engine, status, cost, lower bound and wall time.

Values that JSON has no type for are written as small tagged objects
(``{"__ndarray__": ..., "dtype": ...}``, ``{"__tuple__": [...]}``, dataclasses
and ``to_dict``/``from_dict`` objects by class path).  **Nothing is ever
unpickled**: loading only rebuilds numpy arrays, scipy sparse matrices and
the satrules classes named in :data:`LOADABLE_CLASSES` (an explicit list), so a
rule-set file cannot run code.  Every field is checked on load: a malformed
one raises one :class:`SchemaError` naming it (``field
estimator.state.classes_: ...``), and a loaded estimator checks that the
copies of its state agree (the thresholds that are printed are the ones that
are evaluated).  Writes go to a temporary file in the target
directory that is renamed into place, so an error never leaves half a file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import enum
import fractions
import importlib
import json
import math
import os
import platform
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from satrules.exceptions import SatrulesError

__all__ = ["LOADABLE_CLASSES", "SCHEMA", "SCHEMA_VERSION", "SchemaError", "atomic_write",
           "dumps", "load", "loads", "save", "solution_provenance", "writes_through"]

#: Name stored in every rule-set file.
SCHEMA = "satrules.ruleset"
#: Version written by this satrules; files with a larger number are refused.
SCHEMA_VERSION = 1

# fitted attributes that are summarised (``provenance``) instead of stored: a
# Solution holds the whole IR model, which is not needed to predict
_SUMMARISED = {"solution_"}


class SchemaError(SatrulesError, ValueError):
    """A rule-set file is not valid JSON, not a satrules rule set, or of a newer schema."""


# --------------------------------------------------------------------------- atomic writes


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8",
                 newline: str | None = None) -> Iterator[Any]:
    """Open a temporary file next to ``path`` and rename it onto ``path`` on success.

    If the ``with`` block raises, the temporary file is removed and ``path`` is
    left as it was (absent or with its old content): no partial output.

    Only regular files are replaced.  A symbolic link is kept and the file it
    points to is replaced (atomically, in that file's directory).  A path that
    is (or links to) a device, FIFO or socket -- ``/dev/null``, ``/dev/stdout``,
    a named pipe -- is opened and written in place, since renaming onto it would
    destroy the node; there the no-partial-output promise cannot hold.  A
    directory raises :class:`IsADirectoryError`.

    Parameters
    ----------
    path : str or path-like
        Final destination.
    mode : {"w", "wb"}
        Text or binary.
    encoding, newline : str, optional
        As for :func:`open` (text mode only).

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> with atomic_write(os.path.join(d, "out.txt")) as fh:
    ...     _ = fh.write("done")
    >>> open(os.path.join(d, "out.txt")).read()
    'done'
    >>> try:
    ...     with atomic_write(os.path.join(d, "bad.txt")) as fh:
    ...         _ = fh.write("half")
    ...         raise RuntimeError("boom")
    ... except RuntimeError:
    ...     pass
    >>> sorted(os.listdir(d))
    ['out.txt']
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_write mode must be 'w' or 'wb', got {mode!r}")
    kwargs = {} if "b" in mode else {"encoding": encoding, "newline": newline}
    if writes_through(path):
        # a device, FIFO or socket: renaming a temporary file onto it would replace the
        # node itself (``--out /dev/null`` run as root), so write to it directly
        with open(path, mode, **kwargs) as fh:
            yield fh
        return
    target, directory = _target_and_directory(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        os.chmod(tmp, _file_mode(target))
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _target_and_directory(path: str | os.PathLike) -> tuple[Path, Path]:
    """The file :func:`atomic_write` replaces for ``path`` (a symbolic link's target) and
    its directory, which must exist."""
    target = Path(path)
    if target.is_symlink():  # replace the file the link points to, keep the link
        target = Path(os.path.realpath(target))
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise FileNotFoundError(f"output directory does not exist: {str(directory)!r}")
    return target, directory


def check_output(path: str | os.PathLike) -> None:
    """Raise, before any work, the error :func:`atomic_write` would raise at the end for
    ``path``: its directory does not exist or cannot be written to, or it is a directory.
    The command line checks every output path so, so that a long fit is not lost to a
    mistyped ``--out``.

    Examples
    --------
    >>> check_output("no/such/dir/rules.json")
    Traceback (most recent call last):
    ...
    FileNotFoundError: output directory does not exist: 'no/such/dir'
    """
    if writes_through(path):   # a device or FIFO: opened as it is
        return
    _, directory = _target_and_directory(path)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise PermissionError(f"output directory is not writable: {str(directory)!r}")


def writes_through(path: str | os.PathLike) -> bool:
    """True if ``path`` is (or links to) a device, FIFO or socket: written in place.

    Raises
    ------
    IsADirectoryError
        If ``path`` is a directory.
    """
    try:
        mode = os.stat(path).st_mode  # follows symbolic links
    except (FileNotFoundError, NotADirectoryError):
        return False
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(f"output path is a directory: {os.fspath(path)!r}")
    return not stat.S_ISREG(mode)


def _file_mode(target: Path) -> int:
    """Mode for the new file: the old file's, else what ``open`` would give (0o666 & ~umask)."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


# --------------------------------------------------------------------------- tagged values


def _class_path(obj: Any) -> str:
    cls = type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


#: The classes a file may name, by the path :func:`_class_path` writes.  An explicit
#: list, not a module prefix: ``satrules.serialization.Path`` is ``pathlib.Path`` and
#: ``satrules.mining.RandomForestClassifier`` is scikit-learn's, and neither may load.
#: A new class that files must hold is added here on purpose.
LOADABLE_CLASSES = frozenset({
    "satrules.binarize.ThresholdBinarizer",
    "satrules.cdpr.ExactResult",
    "satrules.encoders.cdprl.CDPRLAnswer",
    "satrules.encoders.cdprl.CDPRLLayout",
    "satrules.encoders.imlib.IMLIBLayout",
    "satrules.estimators.cdpr.CDPRClassifier",
    "satrules.estimators.cdpr._ColumnEncoder",
    "satrules.estimators.imli.IMLIClassifier",
    "satrules.estimators.imlib.IMLIBClassifier",
    "satrules.heuristics.gdy.GDYResult",
    "satrules.heuristics.gra.GRAResult",
    "satrules.ir.solution.Status",
    "satrules.layout.RuleLayout",
    "satrules.mining.Candidates",
    "satrules.mining.MinedRule",
    "satrules.rules.Condition",
    "satrules.rules.Literal",
    "satrules.rules.Rule",
    "satrules.rules.RuleSet",
})


def _resolve(path: str) -> type:
    """Import a class named in :data:`LOADABLE_CLASSES`, and check it is that class."""
    if not isinstance(path, str) or path not in LOADABLE_CLASSES:
        raise SchemaError(f"refusing to load class {str(path)[:80]!r}: not a loadable class "
                          "(only satrules classes listed in serialization.LOADABLE_CLASSES)")
    module, _, name = path.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise SchemaError(f"unknown class {path!r} in rule-set file: {exc}") from None
    if not isinstance(cls, type) or f"{cls.__module__}.{cls.__qualname__}" != path:
        raise SchemaError(f"refusing to load class {path!r}: not a loadable class")
    return cls


def _encode_float(x: float) -> Any:
    return x if math.isfinite(x) else {"__float__": repr(x)}


def _encode_array(arr: np.ndarray) -> dict:
    if arr.dtype == object:
        data = [_encode(v) for v in arr.ravel().tolist()]
    elif arr.dtype.kind == "f" and not np.isfinite(arr).all():
        data = [_encode_float(v) for v in arr.ravel().tolist()]
    elif arr.dtype.kind in "biufUS":
        data = arr.ravel().tolist()
        if arr.dtype.kind == "S":
            data = [v.decode("latin-1") for v in data]
    else:
        raise TypeError(f"cannot store numpy dtype {arr.dtype}")
    return {"__ndarray__": data, "dtype": arr.dtype.str if arr.dtype != object else "object",
            "shape": list(arr.shape)}


def _encode(value: Any) -> Any:
    """Turn ``value`` into JSON-compatible data; raise ``TypeError`` if it has no safe form."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return {"__enum__": _class_path(value), "value": _encode(value.value)}
    if isinstance(value, (int, np.integer)) and not isinstance(value, np.bool_):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (float, np.floating)):
        return _encode_float(float(value))
    if isinstance(value, fractions.Fraction):
        return {"__fraction__": str(value)}
    if isinstance(value, np.ndarray):
        return _encode_array(value)
    if isinstance(value, tuple):
        return {"__tuple__": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("__") for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"__items__": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, (set, frozenset)):
        return {"__set__": [_encode(v) for v in sorted(value, key=repr)],
                "frozen": isinstance(value, frozenset)}
    return _encode_object(value)


def _encode_object(value: Any) -> Any:
    module = type(value).__module__
    if module.startswith("scipy.sparse"):
        csr = value.tocsr()
        return {"__csr__": {"data": _encode_array(csr.data), "indices": csr.indices.tolist(),
                            "indptr": csr.indptr.tolist(), "shape": list(csr.shape)}}
    if not module.startswith("satrules."):
        raise TypeError(f"cannot store a {module}.{type(value).__qualname__} object")
    if _class_path(value) == "satrules.ir.solution.Solution":
        # a Solution holds its whole IR model; keep the summary, read back as a dict
        return {"__solution__": solution_provenance(value)}
    if hasattr(value, "to_dict") and hasattr(type(value), "from_dict"):
        return {"__object__": _class_path(value), "data": _encode(value.to_dict())}
    if dataclasses.is_dataclass(value):
        fields = {f.name: _encode(getattr(value, f.name))
                  for f in dataclasses.fields(value) if f.init}
        return {"__dataclass__": _class_path(value), "fields": fields}
    if hasattr(value, "get_params"):
        return encode_estimator(value)
    if hasattr(value, "__dict__") and not hasattr(type(value), "__slots__"):
        # a plain satrules object (e.g. mined candidate rules): its attributes
        return {"__instance__": _class_path(value),
                "attrs": {k: _encode(v) for k, v in vars(value).items()}}
    raise TypeError(f"cannot store a {_class_path(value)} object")


class _FieldError(SchemaError):
    """An error while decoding, with the path of the field it happened in."""

    def __init__(self, path: list, exc: BaseException) -> None:
        super().__init__(path, exc)
        self.path = path
        self.exc = exc

    def __str__(self) -> str:
        return self.describe()

    def describe(self) -> str:
        where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in self.path)
        what = str(self.exc) if isinstance(self.exc, SchemaError) else \
            f"{type(self.exc).__name__}: {self.exc}"
        return f"field {where.lstrip('.')}: {what}"


def _at(key: Any, fn: Any, *args: Any) -> Any:
    """Call ``fn(*args)``; an error in it names ``key`` as the field it is in."""
    try:
        return fn(*args)
    except _FieldError as exc:
        exc.path.insert(0, key)
        raise
    except RecursionError:
        raise
    except Exception as exc:  # any malformed value: reported once, with its field
        raise _FieldError([key], exc) from None


def _field(d: dict, key: str, kind: type | tuple = object) -> Any:
    """``d[key]``, required and of type ``kind`` (a missing or wrong field is named)."""
    if not isinstance(d, dict) or key not in d:
        raise SchemaError(f"missing field {key!r}")
    value = d[key]
    if not isinstance(value, kind):
        raise _FieldError([key], SchemaError(f"expected {_kind_name(kind)}, got "
                                             f"{type(value).__name__}"))
    return value


def _kind_name(kind: type | tuple) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {dict: "an object", list: "a list", str: "a string", int: "an integer"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


_DECODERS: dict[str, Any] = {}


def _decoder(tag: str):
    def register(fn):
        _DECODERS[tag] = fn
        return fn
    return register


@_decoder("__float__")
def _(d: dict) -> float:
    return float(_field(d, "__float__", str))


@_decoder("__solution__")
def _(d: dict) -> dict:
    return _decode(d["__solution__"])


@_decoder("__fraction__")
def _(d: dict) -> fractions.Fraction:
    return _at("__fraction__", fractions.Fraction, _field(d, "__fraction__", str))


@_decoder("__ndarray__")
def _(d: dict) -> np.ndarray:
    dtype, values = _field(d, "dtype", str), _field(d, "__ndarray__", list)
    shape = tuple(_field(d, "shape", list))
    if not all(isinstance(n, int) and n >= 0 for n in shape) or math.prod(shape) != len(values):
        raise SchemaError(f"shape {list(shape)} does not hold {len(values)} values")
    if dtype == "object":
        items = [_at(i, _decode, v) for i, v in enumerate(values)]
        arr = np.empty(len(items), dtype=object)
        arr[:] = items
        return arr.reshape(shape)
    if np.dtype(dtype).kind not in "biufUS":
        raise SchemaError(f"dtype {dtype!r} is not stored in rule-set files")
    data = [_at(i, _decode, v) if isinstance(v, dict) else v for i, v in enumerate(values)]
    return np.asarray(data, dtype=np.dtype(dtype)).reshape(shape)


@_decoder("__tuple__")
def _(d: dict) -> tuple:
    return tuple(_decode(_field(d, "__tuple__", list)))


@_decoder("__items__")
def _(d: dict) -> dict:
    out = {}
    for i, item in enumerate(_field(d, "__items__", list)):
        if not isinstance(item, list) or len(item) != 2:
            raise _FieldError(["__items__", i], SchemaError("expected a [key, value] pair"))
        key, value = _at(i, _decode, item)
        out[key] = value
    return out


@_decoder("__set__")
def _(d: dict):
    items = _decode(_field(d, "__set__", list))
    return frozenset(items) if d.get("frozen") else set(items)


@_decoder("__enum__")
def _(d: dict):
    cls = _resolve(_field(d, "__enum__", str))
    if not issubclass(cls, enum.Enum):
        raise SchemaError(f"{d['__enum__']!r} is not an enum")
    return _at("value", cls, _decode(_field(d, "value")))


@_decoder("__csr__")
def _(d: dict):
    from scipy import sparse

    c = _field(d, "__csr__", dict)
    return _at("__csr__", lambda: sparse.csr_matrix(
        (_at("data", _decode, _field(c, "data")),
         np.asarray(_field(c, "indices", list), dtype=np.int64),
         np.asarray(_field(c, "indptr", list), dtype=np.int64)),
        shape=tuple(_field(c, "shape", list))))


@_decoder("__object__")
def _(d: dict):
    cls = _resolve(_field(d, "__object__", str))
    if not hasattr(cls, "from_dict"):
        raise SchemaError(f"{d['__object__']!r} has no from_dict")
    return _at("data", lambda: cls.from_dict(_decode(_field(d, "data"))))


@_decoder("__dataclass__")
def _(d: dict):
    cls = _resolve(_field(d, "__dataclass__", str))
    if not dataclasses.is_dataclass(cls):
        raise SchemaError(f"{d['__dataclass__']!r} is not a dataclass")
    fields = _field(d, "fields", dict)
    return _at("fields", lambda: cls(**{k: _at(k, _decode, v) for k, v in fields.items()}))


@_decoder("__instance__")
def _(d: dict):
    cls = _resolve(_field(d, "__instance__", str))
    obj = cls.__new__(cls)  # no __init__: the stored attributes are the state
    obj.__dict__.update(_at("attrs", _check_attrs, _field(d, "attrs", dict)))
    return obj


def _check_attrs(attrs: dict) -> dict:
    out = {}
    for name, value in attrs.items():
        if not (isinstance(name, str) and name.isidentifier() and not name.startswith("__")):
            raise SchemaError(f"invalid attribute name {name!r}")
        out[name] = _at(name, _decode, value)
    return out


@_decoder("__estimator__")
def _(d: dict):
    return decode_estimator(d)


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_at(i, _decode, v) for i, v in enumerate(value)]
    if not isinstance(value, dict):
        return value
    for tag, fn in _DECODERS.items():
        if tag in value:
            return fn(value)
    return {k: _at(k, _decode, v) for k, v in value.items()}


# --------------------------------------------------------------------------- estimators


def encode_estimator(est: Any) -> dict:
    """Return the tagged form of a fitted satrules estimator (parameters and fitted state).

    Every instance attribute that is not a constructor argument is stored
    (fitted ``name_`` attributes and private fitted helpers), except those in
    ``_SUMMARISED`` (the solver's ``Solution``, summarised in the provenance
    block).  An attribute without a safe JSON form raises ``TypeError`` naming
    it, so a file never silently lacks state that prediction needs.
    """
    params = est.get_params(deep=False)
    state = {}
    for name, value in vars(est).items():
        # everything but the constructor arguments: fitted ``name_`` attributes and
        # private fitted helpers (e.g. the binarizer's per-feature specs)
        if name in params or name in _SUMMARISED or name.startswith("__"):
            continue
        try:
            state[name] = _encode(value)
        except TypeError as exc:
            raise TypeError(f"cannot save fitted attribute {name!r}: {exc}") from None
    params = {k: _encode(v) for k, v in params.items()}
    return {"__estimator__": _class_path(est), "params": params, "state": state}


def decode_estimator(d: dict) -> Any:
    """Rebuild an estimator written by :func:`encode_estimator` (no refit, no pickle).

    Every field is checked: a missing or malformed one raises :class:`SchemaError`
    naming it, and an estimator that defines ``_check_loaded`` then checks that its
    fitted state is consistent (what is printed is what is evaluated).
    """
    cls = _resolve(_field(d, "__estimator__", str))
    if not hasattr(cls, "get_params"):
        raise SchemaError(f"{d['__estimator__']!r} is not an estimator")
    params = {k: _at(k, _decode, v) for k, v in _field(d, "params", dict).items()}
    state = _at("state", _check_attrs, _field(d, "state", dict))
    unknown = sorted(set(params) - set(cls().get_params(deep=False)))
    if unknown:
        raise SchemaError(f"field params: {cls.__name__} has no parameter "
                          f"{', '.join(map(repr, unknown))}")
    # a parameter added since the file was written gets the value the fit had then
    for name, value in getattr(cls, "_OLDER_FILE_PARAMS", {}).items():
        params.setdefault(name, value)
    est = cls(**params)
    for name, value in state.items():
        setattr(est, name, value)
    check = getattr(est, "_check_loaded", None)
    if check is not None:
        _at("state", check)
    return est


def solution_provenance(solution: Any) -> dict:
    """Summarise a :class:`~satrules.ir.Solution` (or ``None``) as plain JSON data.

    Examples
    --------
    >>> import satrules
    >>> m = satrules.Model(); x = m.new_var("x"); m.add_soft([x], 3)
    >>> p = solution_provenance(satrules.solve(m, backend="bruteforce"))
    >>> p["backend"], p["status"], p["cost"]
    ('bruteforce', 'OPTIMAL', 0)
    """
    if solution is None:
        return {}
    status = getattr(solution, "status", None)
    out = {
        "backend": getattr(solution, "backend", ""),
        "engine": getattr(solution, "engine", ""),
        "engine_version": getattr(solution, "engine_version", ""),
        "status": status.value if isinstance(status, enum.Enum) else status,
        "cost": _encode(getattr(solution, "cost", None)),
        "lower_bound": _encode(getattr(solution, "lower_bound", None)),
        "wall_time": _encode(getattr(solution, "wall_time", None)),
    }
    try:
        out["options"] = _encode(dict(getattr(solution, "options", {}) or {}))
    except TypeError:
        out["options"] = {k: repr(v) for k, v in (solution.options or {}).items()}
    return out


def _provenance(obj: Any) -> dict:
    import satrules

    prov = {
        "satrules_version": satrules.__version__,
        "python": platform.python_version(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }
    solution = getattr(obj, "solution_", None)
    if solution is None:  # CDPR keeps the exact method's Solution in result_.solution
        solution = getattr(getattr(obj, "result_", None), "solution", None)
    loaded = getattr(obj, "provenance_", None) or {}
    if solution is not None:
        prov["solver"] = solution_provenance(solution)
    elif "solver" in loaded:  # re-saving a loaded estimator keeps where its rules came from
        prov["solver"] = loaded["solver"]
    elif hasattr(obj, "result_"):
        prov["solver"] = {"status": "heuristic"}
    return prov


# --------------------------------------------------------------------------- public API


def dumps(obj: Any, *, metrics: dict | None = None, extra: dict | None = None) -> str:
    """Return the rule-set file text for a fitted estimator or a ``RuleSet``.

    Parameters
    ----------
    obj : estimator or RuleSet
        A fitted satrules estimator (anything with ``rules_``) or a rule set.
    metrics : dict, optional
        Measured figures to keep with the rules (e.g. ``{"test_accuracy": 0.93}``).
    extra : dict, optional
        Further JSON-compatible information (stored under ``"extra"``).

    Returns
    -------
    str
        Indented JSON.

    Raises
    ------
    ValueError
        When ``obj`` is an unfitted estimator.
    TypeError
        When ``obj`` holds fitted state with no safe JSON form.
    """
    doc: dict[str, Any] = {"schema": SCHEMA, "schema_version": SCHEMA_VERSION}
    if hasattr(obj, "get_params"):
        rules = getattr(obj, "rules_", None)
        if rules is None:
            raise ValueError(f"{type(obj).__name__} is not fitted; call fit before saving")
        from satrules.report import rules_text

        state = encode_estimator(obj)  # first: unsavable state fails before anything else
        doc["kind"] = "estimator"
        doc["rules_text"] = rules_text(obj)
        doc["estimator"] = state
    else:
        doc["kind"] = "ruleset"
        doc["rules_text"] = str(obj)
        doc["rules"] = _encode(obj)
    doc["metrics"] = _encode(dict(metrics or {}))
    doc["provenance"] = _provenance(obj)
    if extra:
        doc["extra"] = _encode(dict(extra))
    return json.dumps(doc, indent=1, allow_nan=False, ensure_ascii=False) + "\n"


def loads(text: str, *, source: str = "<string>") -> Any:
    """Rebuild the estimator or ``RuleSet`` from rule-set file text (see :func:`load`)."""
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SchemaError(f"{source}: not a JSON rule-set file ({exc})") from None
    except RecursionError:
        raise SchemaError(f"{source}: invalid rule-set file: values nested too deeply") \
            from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise SchemaError(f"{source}: not a satrules rule-set file (missing \"schema\": "
                          f"\"{SCHEMA}\")")
    version = doc.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SchemaError(f"{source}: invalid schema_version {version!r}")
    if version > SCHEMA_VERSION:
        raise SchemaError(
            f"{source}: written with rule-set schema version {version}, but this satrules "
            f"reads versions up to {SCHEMA_VERSION}; upgrade satrules (pip install -U satrules)")
    for name in ("metrics", "provenance", "extra"):
        if name in doc and not isinstance(doc[name], dict):
            raise SchemaError(f"{source}: invalid rule-set file: field {name}: expected an "
                              f"object, got {type(doc[name]).__name__}")
    kind = doc.get("kind")
    key = {"estimator": "estimator", "ruleset": "rules"}.get(kind)
    if key is None or key not in doc:
        raise SchemaError(f"{source}: invalid rule-set file: kind {kind!r} without its data")
    try:
        obj = _at(key, _decode, doc[key])
        if kind == "estimator":
            if not hasattr(obj, "get_params"):
                raise _FieldError([key], SchemaError("does not hold an estimator"))
            if getattr(obj, "rules_", None) is None:  # save() refuses unfitted estimators
                raise _FieldError([key, "state"], SchemaError("missing fitted attribute "
                                                              "'rules_'"))
            obj.provenance_ = _at("provenance", _decode, doc.get("provenance", {}))
            obj.metrics_ = _at("metrics", _decode, doc.get("metrics", {}))
    except _FieldError as exc:
        raise SchemaError(f"{source}: invalid rule-set file: {exc.describe()}") from None
    except RecursionError:
        raise SchemaError(f"{source}: invalid rule-set file: values nested too deeply") \
            from None
    except SchemaError as exc:
        raise SchemaError(f"{source}: {exc}") from None
    return obj


def save(obj: Any, path: str | os.PathLike, *, metrics: dict | None = None,
         extra: dict | None = None) -> Path:
    """Write a fitted estimator or ``RuleSet`` to ``path`` as a versioned JSON rule-set file.

    The file is written atomically (temporary file + rename), so a failure
    leaves no partial output.  See the module docstring for the layout.

    Parameters
    ----------
    obj : estimator or RuleSet
    path : str or path-like
    metrics, extra : dict, optional
        See :func:`dumps`.

    Returns
    -------
    pathlib.Path
        ``path``.

    Examples
    --------
    >>> import os, tempfile
    >>> from satrules.rules import Literal, RuleSet
    >>> rs = RuleSet([[Literal(0), Literal(2, negated=True)]], kind="dnf", n_columns=3)
    >>> path = os.path.join(tempfile.mkdtemp(), "rules.json")
    >>> _ = save(rs, path, metrics={"train_accuracy": 1.0})
    >>> load(path) == rs
    True
    """
    text = dumps(obj, metrics=metrics, extra=extra)
    with atomic_write(path) as fh:
        fh.write(text)
    return Path(path)


def load(path: str | os.PathLike) -> Any:
    """Read a rule-set file written by :func:`save`.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    estimator or RuleSet
        A fitted estimator (with ``provenance_`` and ``metrics_`` from the
        file) ready to ``predict``, or the bare rule set.

    Raises
    ------
    SchemaError
        (a ``ValueError``) for a file that is not JSON, not a satrules rule
        set, refers to a class outside satrules, or has a newer schema version.
    OSError
        When the file cannot be read.
    """
    with open(path, encoding="utf-8", errors="strict") as fh:
        try:
            text = fh.read()
        except UnicodeDecodeError as exc:
            raise SchemaError(f"{os.fspath(path)}: not a text rule-set file ({exc})") from None
    return loads(text, source=os.fspath(path))
