"""Typed errors: each is a ``ValueError`` whose message names the bad input and the position.

:class:`Take6Error` is the one root of every error a user can cause, in every package (the
solver's ``SolverError``, ``CertificateError``, ``StudyError``, ``DraftError``, the proofs'
usage errors, the records' ``RecordError``): the command line turns exactly these into one line
and exit status 2, so anything else is a bug and shows as one."""

from __future__ import annotations


class Take6Error(ValueError):
    """Base class of every error a user can cause (bad input, a wrong argument, a missing file)."""


class InputError(Take6Error):
    """Text that does not read: not a number in ASCII digits, not UTF-8, ..."""


class UsageError(Take6Error):
    """A wrong argument to a function or command (an unknown bot, too few bots, ...)."""


class FileError(Take6Error):
    """A file that cannot be read or written (the message names the file and the reason)."""


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
