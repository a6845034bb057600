"""The solver's compact table representation and its placement rule.

A row is ``(last, first, length, heads)``; a table is a tuple of rows **sorted** (by last card).
Rows are interchangeable: the placement rule (:func:`take6.placement.place`) never refers to a row's
position, only to its cards, and distinct cards never tie. Inside a row only these four numbers
matter: the ascending rule looks at the last card (and in Profi the left rule at the first), a
take scores the row's heads, and the length says when the row is full. The middle cards never
matter again. This module restates :func:`take6.placement.place` on that representation for
speed; ``tests/solver/test_kernel.py`` checks it against the reference on random tables. Heads
come from the rules' table (:attr:`take6.rules.Rules.heads`, never restated).

Canonical key (:meth:`Kernel.key`), used by the transposition table:

* **Profi**: the sorted rows with all four fields, and the hands. Numeric gaps matter there (the
  closest of a left and a right option wins), so no relabelling is allowed.
* **Logik / standard / Taktik**: the rule only ever *compares* cards (a card goes after the
  highest last card below it, or is too low), and scores heads. So the game from a position is
  fixed, up to renaming, by the order of the live cards (hand cards and lasts), their heads, and
  each row's length and heads; the first card never matters. The key therefore lists the live
  cards in ascending order, each hand card as its owner and heads, each row (at its last card)
  as its length and heads; the card numbers themselves are dropped. Two positions with equal
  keys are related by an order-preserving, heads-preserving renaming of their live cards, so
  their game trees are isomorphic: equal values, and strategies that correspond card by card
  through the rank of each card in its hand (the table therefore keeps strategies by action
  index, see :data:`solver.search.IndexStrategy`).
  A row above every hand card can never receive a card again, only be taken: its length and
  position do not matter, so such rows are keyed by heads alone (sorted).
  A row with fewer hand cards above its last card than it has room for (``capacity - length``)
  can never be filled either: every card placed on it lies above its last card, which only
  grows, so no sixth card can arrive; it can still receive cards and be taken as too low, but
  its length no longer matters, and is keyed as :data:`NEVER_FULL`. (The count is read off the
  key itself, so equal keys agree on it.)

The compiled core (``solver/native/_core.cpp``) builds the same key and hashes it to 128 bits.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from take6.rules import MAX_CARD_HEADS, ProfiTie, Rules

assert MAX_CARD_HEADS < 128  # the key packs a hand card's heads below its owner (Kernel.key)

NEVER_FULL = 255
"""The length keyed for a row that can never be filled (see the module docstring)."""

KRow = tuple[int, int, int, int]
"""``(last, first, length, heads)``."""
Table = tuple[KRow, ...]
Hands = tuple[tuple[int, ...], ...]
Option = tuple[Table, int]
"""A placement outcome: the new (sorted) table and the heads taken."""


def to_table(rows: Sequence[Sequence[int]], heads: Sequence[int]) -> Table:
    """The compact sorted table of reference rows (each ascending), with the bull heads of the
    rules' table ``heads`` (:attr:`take6.rules.Rules.heads`)."""
    return tuple(sorted((r[-1], r[0], len(r), sum(heads[c] for c in r)) for r in rows))


class Kernel:
    """Placement on compact tables under one set of rules."""

    def __init__(self, rules: Rules) -> None:
        self.capacity = rules.row_capacity
        self.profi = rules.profi_left
        self.tie = rules.profi_tie
        self.heads = rules.heads

    def _put(self, table: Table, i: int, card: int, left: bool) -> Option:
        last, first, length, hd = table[i]
        h = self.heads[card]
        if length >= self.capacity:
            new: KRow = (card, card, 1, h)
            taken = hd
            if left:  # the card becomes the row's last card: the order may change
                rest = table[:i] + table[i + 1 :]
                return tuple(sorted((*rest, new))), taken
        elif left:
            new, taken = (last, card, length + 1, hd + h), 0
        else:
            new, taken = (card, first, length + 1, hd + h), 0
        # A card placed on the right lies between this row's last card and the next row's, so
        # the table stays sorted; a card placed on the left keeps the row's last card.
        return table[:i] + (new,) + table[i + 1 :], taken

    def _take_any(self, table: Table, card: int) -> list[Option]:
        new: KRow = (card, card, 1, self.heads[card])
        out: list[Option] = []
        if not self.profi:
            # Too low: the card is below every last card, so its row sorts first.
            for i in range(len(table)):
                out.append(((new, *table[:i], *table[i + 1 :]), table[i][3]))
            return out
        for i in range(len(table)):
            rest = table[:i] + table[i + 1 :]
            out.append((tuple(sorted((*rest, new))), table[i][3]))
        return out

    def place(self, table: Table, card: int) -> tuple[bool, list[Option]]:
        """``(choice, options)``: the outcomes of placing ``card``; ``choice`` is True when the
        card's owner picks one of several (too low, fits nowhere, Profi tie)."""
        right = -1
        for i in range(len(table)):
            if table[i][0] < card:
                right = i  # sorted by last: the last such row has the closest last card
            else:
                break
        if not self.profi:
            if right < 0:
                return True, self._take_any(table, card)
            return False, [self._put(table, right, card, False)]
        left = -1
        left_first = 0
        for i, row in enumerate(table):
            if row[1] > card and (left < 0 or row[1] < left_first):
                left, left_first = i, row[1]
        if right < 0 and left < 0:
            return True, self._take_any(table, card)
        if left < 0:
            return False, [self._put(table, right, card, False)]
        if right < 0:
            return False, [self._put(table, left, card, True)]
        rgap = card - table[right][0]
        lgap = left_first - card
        if rgap < lgap or (rgap == lgap and self.tie is ProfiTie.PREFER_RIGHT):
            return False, [self._put(table, right, card, False)]
        if lgap < rgap or self.tie is ProfiTie.PREFER_LEFT:
            return False, [self._put(table, left, card, True)]
        return True, [self._put(table, right, card, False), self._put(table, left, card, True)]

    def key(self, table: Table, hands: Hands) -> tuple[object, ...]:
        """The canonical transposition-table key (see the module docstring)."""
        if self.profi:
            return (table, hands)
        # The live cards in ascending order: a hand card as the int owner*128 + heads (a card
        # carries at most MAX_CARD_HEADS < 128), a row by its last card as (length, heads);
        # rows above every hand card apart, by heads alone.
        heads = self.heads
        items: list[tuple[int, object]] = [
            (c, p * 128 + heads[c]) for p, h in enumerate(hands) for c in h
        ]
        top = max(c for c, _ in items)
        cards = sorted(c for c, _ in items)
        high: list[int] = []
        for last, _first, length, hd in table:
            if last > top:
                high.append(hd)
            else:
                above = len(cards) - bisect_right(cards, last)
                if above <= self.capacity - length:
                    length = NEVER_FULL
                items.append((last, (length, hd)))
        items.sort()
        high.sort()
        return (tuple([t for _, t in items]), tuple(high))
