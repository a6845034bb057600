"""The transposition table of the Python search: proven bounds per canonical key.

Keys are :meth:`solver.kernel.Kernel.key` (the canonical key and its derivation are documented
there); an entry holds proven bounds on the value and, when exact, optimal strategies by action
index (valid for every position with the same key).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solver.matrix import Num

IndexStrategy = tuple[tuple[int, Fraction], ...]
"""A mixed strategy by action index (in the order of :meth:`Search.actions`): the form kept in
the table, valid for every position with the same canonical key (cards map by their rank in
each hand)."""


@dataclass(slots=True)
class Entry:
    """A transposition-table entry: proven bounds; strategies when exact (``lo == hi``)."""

    lo: Num
    hi: Num
    x: IndexStrategy = ()
    y: IndexStrategy = ()
    hint: tuple[int, int] | None = None
    """Indices of the best pure row and column found (tried first when searched again)."""

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


class TranspositionTable:
    """The transposition table: a dict from canonical key to :class:`Entry`, one per hand size,
    holding at most ``cap`` entries. When full, the tables of the smallest hand sizes (the
    cheapest to recompute) are dropped first."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.by_size: dict[int, dict[object, Entry]] = {}
        self.size = 0

    def get(self, depth: int, key: object) -> Entry | None:
        d = self.by_size.get(depth)
        return None if d is None else d.get(key)

    def put(self, depth: int, key: object, entry: Entry) -> None:
        d = self.by_size.setdefault(depth, {})
        if key not in d:
            self.size += 1
        d[key] = entry
        if self.size > self.cap:
            self._evict()

    def _evict(self) -> None:
        for depth in sorted(self.by_size):
            if self.size <= self.cap // 2:
                break
            self.size -= len(self.by_size[depth])
            self.by_size[depth] = {}

    def __len__(self) -> int:
        return self.size
