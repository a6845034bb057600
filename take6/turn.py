"""One turn of the rules core: the revealed cards placed on the rows, and what happened.

:func:`resolve_turn` is the one place where a turn's cards meet the rows. The transition function
(:mod:`take6.state`) uses it as the cards are revealed and as each row choice arrives
(:func:`place_cards` resumes a turn that waits for one); ``take6 turn``, the solver's principal
line and the tests call it directly. Like the rest of the core it is pure: rows in, rows out.

The events (:data:`Event`) are what :func:`take6.state.step` reports of a transition, in order:
:class:`RoundStarted`, :class:`Revealed`, :class:`Placed`, :class:`TurnEnded`,
:class:`RoundScored` and :class:`GameOver` (with an :class:`Outcome` and its
:class:`Termination`, as python-chess reports the end of a game). Seats and rows count from 0.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from take6.cards import Card
from take6.errors import IllegalActionError
from take6.placement import Placement, Reason, Rows, Side, apply_move, place
from take6.rules import Rules

Hand = tuple[Card, ...]
Queue = tuple[tuple[Card, int], ...]
"""Revealed cards still to place, in placement order, as ``(card, seat)``."""


@dataclass(frozen=True)
class Pending:
    """A revealed card waiting for its owner's row choice."""

    player: int
    card: Card
    placement: Placement


@dataclass(frozen=True)
class Placed:
    """Event: ``player``'s ``card`` went to ``row`` (0-based) by ``side``, taking ``taken``,
    worth ``heads`` bull heads under the rules of the turn."""

    player: int
    card: Card
    row: int
    side: Side
    taken: tuple[Card, ...]
    heads: int


@dataclass(frozen=True)
class Revealed:
    """Event: the cards of a turn are turned face up, ``(seat, card)`` in seat order (all of them
    at once when play is simultaneous; in Kids, one seat's card at a time)."""

    plays: tuple[tuple[int, Card], ...]


@dataclass(frozen=True)
class TurnEnded:
    """Event: every card of turn ``turn`` (1-based, within round ``round``) is placed."""

    round: int
    turn: int


@dataclass(frozen=True)
class RoundStarted:
    """Event: round ``round`` begins (after its deal, or when its Logik draft is complete) with
    these ``rows`` on the table and these ``hands``."""

    round: int
    rows: Rows
    hands: tuple[Hand, ...]


@dataclass(frozen=True)
class RoundScored:
    """Event: round ``round`` ended; each player added ``heads[p]`` to their total."""

    round: int
    heads: tuple[int, ...]
    totals: tuple[int, ...]


class Termination(enum.Enum):
    """Why a game ended."""

    TARGET = "target"
    """A total reached the target (:attr:`take6.rules.EndCondition.target`)."""
    ROUNDS = "rounds"
    """The agreed number of rounds was played (:attr:`take6.rules.EndCondition.rounds`)."""

    def __repr__(self) -> str:
        return f"Termination.{self.name}"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the reason, the winning seats (ties share the win) and the totals."""

    termination: Termination
    winners: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class GameOver:
    """Event: the game is over."""

    outcome: Outcome


Event = RoundStarted | Revealed | Placed | TurnEnded | RoundScored | GameOver


@dataclass(frozen=True)
class Turn:
    """What :func:`resolve_turn` (or :func:`place_cards`) did.

    Attributes:
        rows: the rows after the cards placed.
        placed: one :class:`Placed` per card placed, in placement order.
        pending: the card whose owner must choose a row and has no choice given yet; ``None``
            when every card is placed.
        queue: the cards still to place, ``pending``'s first (empty when the turn is complete).
        choices: the row choices used, as ``(seat, row)``.
    """

    rows: Rows
    placed: tuple[Placed, ...]
    pending: Pending | None = None
    queue: Queue = ()
    choices: tuple[tuple[int, int], ...] = ()

    @property
    def complete(self) -> bool:
        return self.pending is None

    def taken(self, players: int) -> tuple[tuple[Card, ...], ...]:
        """The cards each of ``players`` seats took in this turn."""
        out: list[tuple[Card, ...]] = [() for _ in range(players)]
        for e in self.placed:
            out[e.player] += e.taken
        return tuple(out)

    def heads(self, players: int) -> tuple[int, ...]:
        """The heads each of ``players`` seats took in this turn."""
        out = [0] * players
        for e in self.placed:
            out[e.player] += e.heads
        return tuple(out)


def reveal(plays: Mapping[int, Card] | Sequence[Card], rules: Rules) -> Queue:
    """The placement order of a turn's cards (``plays``: seat -> card, or cards by seat):
    ascending when play is simultaneous, in seat order otherwise (Kids)."""
    items = plays.items() if isinstance(plays, Mapping) else enumerate(plays)
    by_seat = sorted((seat, card) for seat, card in items)
    if rules.simultaneous:
        return tuple(sorted((card, seat) for seat, card in by_seat))
    return tuple((card, seat) for seat, card in by_seat)


def resolve_turn(
    rows: Rows,
    plays: Mapping[int, Card] | Sequence[Card],
    rules: Rules,
    choices: Sequence[int] = (),
) -> Turn:
    """Play one turn: ``plays`` (cards by seat, or seat -> card) placed on ``rows`` in the order
    of :func:`reveal`; ``choices`` are the rows (0-based) chosen, in order, by the owners of the
    cards that need a choice (too low; in Profi also a tie or a card that fits nowhere).

    Returns the :class:`Turn`; when ``choices`` run out before a card that needs one, the turn
    stops there (``pending``). A choice that is not one of the card's options raises
    :class:`~take6.errors.IllegalActionError`."""
    return place_cards(rows, reveal(plays, rules), rules, choices)


def place_cards(rows: Rows, queue: Queue, rules: Rules, choices: Sequence[int] = ()) -> Turn:
    """Place the cards of ``queue`` in order (see :func:`resolve_turn`); the engine's way to
    resume a turn that waits for a row choice."""
    placed: list[Placed] = []
    used: list[tuple[int, int]] = []
    left = list(choices)
    for i, (card, seat) in enumerate(queue):
        placement = place(rows, card, rules)
        if placement.reason is Reason.FORCED:
            move = placement.options[0]
        else:
            if not left:
                pending = Pending(seat, card, placement)
                return Turn(rows, tuple(placed), pending, queue[i:], tuple(used))
            row = left.pop(0)
            found = placement.option_for_row(row) if _is_int(row) else None
            if found is None:
                options = ", ".join(str(m.row + 1) for m in placement.options)
                raise IllegalActionError(
                    f"card {card} of player {seat + 1} may take row {options}, not {_row_text(row)}"
                )
            move = found
            used.append((seat, row))
        rows, taken = apply_move(rows, card, move, rules.row_capacity)
        side = Side.TAKE if taken else move.side
        placed.append(Placed(seat, card, move.row, side, taken, rules.heads_of(taken)))
    if left:
        raise IllegalActionError(
            f"{len(choices)} row choice(s) given, but the turn needed {len(used)}"
        )
    return Turn(rows, tuple(placed), None, (), tuple(used))


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _row_text(row: object) -> str:
    return f"row {row + 1}" if isinstance(row, int) and _is_int(row) else f"row {row!r}"
