"""Typed errors: each is a ``ValueError`` whose message names the bad input and the position."""

from __future__ import annotations


class Take6Error(ValueError):
    """Base class of every error the rules core raises on bad input."""


class CardError(Take6Error):
    """A number that is not a card (cards are 1..104), or an impossible deck size."""


class RulesError(Take6Error):
    """Inconsistent settings (e.g. Kids with 7 players: 15*7 + 5 > 104)."""


class PositionError(Take6Error):
    """A malformed position: duplicated card, card outside the deck, impossible row, ..."""


class NotationError(PositionError):
    """Text or JSON that does not parse as a position."""


class IllegalActionError(Take6Error):
    """An action that is not legal in the given state (wrong player, card not in hand, ...)."""
