"""The placement rule: where a revealed card goes. The one definition of it in the project.

Standard rule (all seeds): a card goes to the end of the row whose last card is the highest one
below it (ascending rule + smallest difference). If no row's last card is below it, the card is
*too low*: its owner chooses any row, takes it, and the card starts that row.

Profi (seed 000): a card may also go to the start (left) of a row whose first card is above it;
among all options the numerically closest wins. Left/right ties and cards that fit nowhere are
settled as :class:`take6.rules.ProfiTie` and the too-low rule say.

A row that already holds ``row_capacity`` cards is taken by the card that would be the next one:
the player takes those cards and the card starts the row (in place: rows keep their position).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from take6.cards import Card
from take6.rules import ProfiTie, Rules

Row = tuple[Card, ...]
Rows = tuple[Row, ...]


class Side(enum.Enum):
    """How a card joins a row."""

    RIGHT = "right"
    """Appended after the last card (the ordinary placement)."""
    LEFT = "left"
    """Put before the first card (Profi only)."""
    TAKE = "take"
    """The row is taken whole and the card starts it (too-low / fits-nowhere choice)."""

    def __repr__(self) -> str:
        return f"Side.{self.name}"


class Reason(enum.Enum):
    """Why a placement is forced or why its owner must choose."""

    FORCED = "forced"
    TOO_LOW = "too-low"
    NO_FIT = "no-fit"
    TIE = "tie"

    def __repr__(self) -> str:
        return f"Reason.{self.name}"


@dataclass(frozen=True)
class Move:
    """One way a card can be placed: on row ``row`` (0-based) at ``side``."""

    row: int
    side: Side


@dataclass(frozen=True)
class Placement:
    """The outcome of the placement rule for one card.

    ``options`` holds one :class:`Move` when ``reason`` is ``FORCED``; otherwise the moves the
    card's owner may choose from, at most one per row (so a row number names an option).
    """

    reason: Reason
    options: tuple[Move, ...]

    @property
    def forced(self) -> bool:
        return self.reason is Reason.FORCED

    def option_for_row(self, row: int) -> Move | None:
        for move in self.options:
            if move.row == row:
                return move
        return None


def _take_all(nrows: int, reason: Reason) -> Placement:
    return Placement(reason, tuple(Move(i, Side.TAKE) for i in range(nrows)))


def place(rows: Sequence[Sequence[Card]], card: Card, rules: Rules) -> Placement:
    """Apply the placement rule to ``card`` on the table ``rows`` under ``rules``."""
    best_row = -1
    best_last = 0
    for i, row in enumerate(rows):
        last = row[-1]
        if best_last < last < card:
            best_row, best_last = i, last
    if not rules.profi_left:
        if best_row < 0:
            return _take_all(len(rows), Reason.TOO_LOW)
        return Placement(Reason.FORCED, (Move(best_row, Side.RIGHT),))

    left_row = -1
    left_first = 0
    for i, row in enumerate(rows):
        first = row[0]
        if first > card and (left_row < 0 or first < left_first):
            left_row, left_first = i, first
    if best_row < 0 and left_row < 0:
        return _take_all(len(rows), Reason.NO_FIT)
    if left_row < 0:
        return Placement(Reason.FORCED, (Move(best_row, Side.RIGHT),))
    if best_row < 0:
        return Placement(Reason.FORCED, (Move(left_row, Side.LEFT),))
    right_gap = card - best_last
    left_gap = left_first - card
    right = Move(best_row, Side.RIGHT)
    left = Move(left_row, Side.LEFT)
    if right_gap < left_gap:
        return Placement(Reason.FORCED, (right,))
    if left_gap < right_gap:
        return Placement(Reason.FORCED, (left,))
    if rules.profi_tie is ProfiTie.PREFER_RIGHT:
        return Placement(Reason.FORCED, (right,))
    if rules.profi_tie is ProfiTie.PREFER_LEFT:
        return Placement(Reason.FORCED, (left,))
    return Placement(Reason.TIE, tuple(sorted((right, left), key=lambda m: m.row)))


def apply_move(
    rows: Sequence[Sequence[Card]], card: Card, move: Move, capacity: int
) -> tuple[Rows, Row]:
    """Put ``card`` on the table by ``move``; return the new rows and the cards taken.

    A row already holding ``capacity`` cards is taken (its cards returned) and the card starts it.
    The caller is responsible for ``move`` being one the placement rule allows.
    """
    row = tuple(rows[move.row])
    if move.side is Side.TAKE or len(row) >= capacity:
        new_row: Row = (card,)
        taken = row
    elif move.side is Side.RIGHT:
        new_row, taken = row + (card,), ()
    else:
        new_row, taken = (card,) + row, ()
    new_rows = tuple(tuple(r) for r in rows[: move.row]) + (new_row,)
    new_rows += tuple(tuple(r) for r in rows[move.row + 1 :])
    return new_rows, taken
