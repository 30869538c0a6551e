"""Variable pool: semantic keys <-> positive integer variables.

A :class:`VarPool` hands out variables ``1, 2, 3, ...`` in request order.  A
variable may carry a *key*: any hashable value, by convention a tuple whose
first item names the variable family (``("b", o, j)``).  Families created in
bulk with :meth:`VarPool.new_block` are stored as one block (a name, a shape
and a first id), so millions of keyed variables cost O(1) memory each family.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np

from satrules.exceptions import EncodingError

__all__ = ["VarPool"]


@dataclass(frozen=True)
class _Block:
    name: Hashable
    shape: tuple[int, ...]
    start: int  # id of the element at index (0, ..., 0)
    size: int

    def key_of(self, var: int) -> tuple:
        idx = np.unravel_index(var - self.start, self.shape) if self.shape else ()
        return (self.name, *(int(i) for i in idx))

    def var_of(self, index: tuple) -> int:
        if len(index) != len(self.shape):
            raise KeyError(index)
        for i, n in zip(index, self.shape, strict=True):
            if not (isinstance(i, (int, np.integer)) and 0 <= i < n):
                raise KeyError(index)
        if not self.shape:
            return self.start
        return self.start + int(np.ravel_multi_index(index, self.shape))


class VarPool:
    """Map semantic keys to positive integer variables and back.

    Examples
    --------
    >>> pool = VarPool()
    >>> pool.new(("x", 0)), pool.new(), pool.new(("x", 1))
    (1, 2, 3)
    >>> pool.id(("x", 1)), pool.key(3), pool.key(2) is None
    (3, ('x', 1), True)
    >>> block = pool.new_block("b", (2, 3))
    >>> block.tolist()
    [[4, 5, 6], [7, 8, 9]]
    >>> pool.id(("b", 1, 0)), pool.key(9), pool.top
    (7, ('b', 1, 2), 9)
    """

    def __init__(self) -> None:
        self.top = 0
        self._by_key: dict[Hashable, int] = {}
        self._by_var: dict[int, Hashable] = {}
        self._blocks: dict[Hashable, _Block] = {}
        self._block_starts: list[int] = []
        self._block_list: list[_Block] = []

    def __len__(self) -> int:
        return self.top

    def __contains__(self, key: Hashable) -> bool:
        try:
            self.id(key)
        except KeyError:
            return False
        return True

    def new(self, key: Hashable | None = None) -> int:
        """Return a fresh variable, registered under ``key`` when one is given."""
        if key is not None:
            if key in self:
                raise EncodingError(f"variable key {key!r} is already in use")
            self._check_not_block_key(key)
        self.top += 1
        if key is not None:
            self._by_key[key] = self.top
            self._by_var[self.top] = key
        return self.top

    def new_anonymous(self, n: int) -> np.ndarray:
        """Return ``n`` fresh variables without keys (auxiliaries), as an int64 array."""
        ids = np.arange(self.top + 1, self.top + 1 + int(n), dtype=np.int64)
        self.top += int(n)
        return ids

    def new_block(self, name: Hashable, shape: int | tuple[int, ...]) -> np.ndarray:
        """Return an int64 array of fresh variables with keys ``(name, *index)``."""
        shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
        if any(s < 0 for s in shape):
            raise EncodingError(f"block shape must be non-negative, got {shape}")
        if name in self._blocks:
            raise EncodingError(f"variable family {name!r} already has a block")
        if any(isinstance(k, tuple) and k and k[0] == name for k in self._by_key):
            raise EncodingError(f"variable family {name!r} already has single variables")
        size = int(np.prod(shape)) if shape else 1
        block = _Block(name, shape, self.top + 1, size)
        self._blocks[name] = block
        if size:
            self._block_starts.append(block.start)
            self._block_list.append(block)
        ids = np.arange(self.top + 1, self.top + 1 + size, dtype=np.int64).reshape(shape)
        self.top += size
        return ids

    def id(self, key: Hashable) -> int:
        """Return the variable registered under ``key``; ``KeyError`` if there is none."""
        var = self._by_key.get(key)
        if var is not None:
            return var
        if isinstance(key, tuple) and key and key[0] in self._blocks:
            try:
                return self._blocks[key[0]].var_of(key[1:])
            except (KeyError, TypeError):
                pass
        raise KeyError(key)

    def key(self, var: int) -> Hashable | None:
        """Return the key of ``var`` (``None`` for an anonymous variable)."""
        var = int(var)
        if not 1 <= var <= self.top:
            raise KeyError(var)
        if var in self._by_var:
            return self._by_var[var]
        pos = int(np.searchsorted(self._block_starts, var, side="right")) - 1
        if pos >= 0:
            block = self._block_list[pos]
            if var < block.start + block.size:
                return block.key_of(var)
        return None

    def _check_not_block_key(self, key: Hashable) -> None:
        if isinstance(key, tuple) and key and key[0] in self._blocks:
            raise EncodingError(f"variable family {key[0]!r} is a block; it cannot take {key!r}")
