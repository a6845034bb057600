"""Cards and bull heads: the one definition of the bull-head table.

Every other part of the project (solver kernels, z3 models, bots, display) takes its heads from
:data:`HEADS` or :func:`heads`, and tests check that restatements agree with it.
"""

from __future__ import annotations

from collections.abc import Iterable

from take6.errors import CardError

Card = int
"""A card is its number, 1..104."""

MIN_CARD: Card = 1
MAX_CARD: Card = 104
"""The full deck is 1..104, every card distinct."""

TOTAL_HEADS = 171
"""Heads in the full deck (a fact checked by tests and proved in ``proofs``)."""

MAX_ROW_HEADS = 27
"""The most heads one row of at most five cards can hold (55, 66, 77, 88, 99)."""


def _heads_rule(card: Card) -> int:
    # The printed-card rule (seed 000's table): 55 is the only 7; the other multiples of 11 are
    # 5; multiples of 10 are 3; the other multiples of 5 are 2; everything else 1.
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


HEADS: tuple[int, ...] = (0,) + tuple(_heads_rule(c) for c in range(MIN_CARD, MAX_CARD + 1))
"""``HEADS[c]`` is the number of bull heads on card ``c`` (index 0 is unused and holds 0)."""


def heads(card: Card) -> int:
    """Bull heads printed on ``card`` (1..104)."""
    if not MIN_CARD <= card <= MAX_CARD:
        raise CardError(f"no such card: {card!r} (cards are {MIN_CARD}..{MAX_CARD})")
    return HEADS[card]


def total_heads(cards: Iterable[Card]) -> int:
    """Sum of the bull heads of ``cards``."""
    return sum(HEADS[c] for c in cards)


def deck(size: int = MAX_CARD) -> tuple[Card, ...]:
    """The cards 1..size (the full deck, or a Taktik/Logik deck)."""
    if not 1 <= size <= MAX_CARD:
        raise CardError(f"deck size {size!r} out of range 1..{MAX_CARD}")
    return tuple(range(MIN_CARD, size + 1))
