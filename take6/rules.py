"""Rules settings: one immutable, validated object per game.

Every decision the sources leave open (see the rules brief) is a named field here with
the default the project chose. Variants are presets of these fields (:meth:`Rules.for_variant`),
never ``if variant == ...`` branches in the rules core.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields, replace
from typing import Any

from take6.cards import MAX_CARD
from take6.errors import RulesError
from take6.text import excerpt


class Variant(enum.Enum):
    """The published variants (seed 000)."""

    STANDARD = "standard"
    TAKTIK = "taktik"
    LOGIK = "logik"
    PROFI = "profi"
    KIDS = "kids"

    def __repr__(self) -> str:
        return f"Variant.{self.name}"


class Comparison(enum.Enum):
    """How a total is compared with the target (66 or more, or strictly above 74 in Category 5)."""

    AT_LEAST = ">="
    ABOVE = ">"

    def __repr__(self) -> str:
        return f"Comparison.{self.name}"


class ProfiTie(enum.Enum):
    """Profi: a card at equal distance from a row's start (left) and another row's end (right).

    The source (seed 000) says only "the numerically closest wins"; a tie is not covered.
    """

    OWNER_CHOOSES = "owner"
    """Default: the card's owner chooses between the two placements."""
    PREFER_RIGHT = "right"
    """The ordinary (right-hand) placement wins the tie."""
    PREFER_LEFT = "left"
    """The left placement wins the tie."""

    def __repr__(self) -> str:
        return f"ProfiTie.{self.name}"


@dataclass(frozen=True)
class EndCondition:
    """When the game ends: after a round in which a total reached ``target`` (compared with
    ``comparison``), or after ``rounds`` rounds, whichever comes first. At least one must be set.
    """

    target: int | None = 66
    comparison: Comparison = Comparison.AT_LEAST
    rounds: int | None = None

    def __post_init__(self) -> None:
        for name in ("target", "rounds"):
            value = getattr(self, name)
            if value is not None and not _is_int(value):
                raise RulesError(f"{name} must be an integer or None, got {excerpt(value)}")
        if not isinstance(self.comparison, Comparison):
            raise RulesError(f"comparison must be a Comparison, got {excerpt(self.comparison)}")
        if self.target is None and self.rounds is None:
            raise RulesError("end condition needs a target total or a number of rounds")
        if self.target is not None and self.target < 1:
            raise RulesError(f"target total must be at least 1, got {self.target}")
        if self.rounds is not None and self.rounds < 1:
            raise RulesError(f"number of rounds must be at least 1, got {self.rounds}")

    def reached(self, totals: tuple[int, ...], rounds_played: int) -> bool:
        """True when a game with these totals after ``rounds_played`` rounds is over."""
        if self.rounds is not None and rounds_played >= self.rounds:
            return True
        if self.target is None:
            return False
        if self.comparison is Comparison.AT_LEAST:
            return max(totals) >= self.target
        return max(totals) > self.target


MIN_PLAYERS = 2
MAX_PLAYERS = 10


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


_FIELD_TYPES: dict[str, type | tuple[type, ...]] = {
    "variant": Variant,
    "players": int,
    "hand_size": int,
    "rows": int,
    "row_capacity": int,
    "deck_size": int,
    "end": EndCondition,
    "profi_left": bool,
    "profi_tie": ProfiTie,
    "simultaneous": bool,
    "pile_play": bool,
    "lowest_wins": bool,
    "draft": bool,
    "first_picker": int,
    "rotate_first_picker": bool,
}


@dataclass(frozen=True)
class Rules:
    """The settings of one game. Build with :meth:`for_variant`; fields are validated.

    Attributes:
        variant: the preset this was built from (informative; behaviour comes from the fields).
        players: number of seats, 2..10.
        hand_size: cards dealt (or drafted) per player per round (10; Kids 15).
        rows: number of rows on the table (4; Kids 5).
        row_capacity: cards a row holds; the next card placed takes them (5: "the 6th takes").
        deck_size: the deck is 1..deck_size (104; Taktik/Logik hand_size*players + 4).
        end: when the game ends (66 or more by default).
        profi_left: cards may also go on the left of a row (Profi).
        profi_tie: who settles a left/right tie at equal distance (Profi).
        simultaneous: all players choose at once (False: Kids, one seat after another).
        pile_play: each player's hand is a face-down pile played from the top (Kids).
        lowest_wins: the lowest total wins (False: Kids, most heads wins).
        draft: the hands are drafted face up before each round (Logik).
        first_picker: seat that picks first in the first round's draft (Logik).
        rotate_first_picker: the first picker moves one seat clockwise each round (Logik).
    """

    variant: Variant = Variant.STANDARD
    players: int = 4
    hand_size: int = 10
    rows: int = 4
    row_capacity: int = 5
    deck_size: int = MAX_CARD
    end: EndCondition = field(default_factory=EndCondition)
    profi_left: bool = False
    profi_tie: ProfiTie = ProfiTie.OWNER_CHOOSES
    simultaneous: bool = True
    pile_play: bool = False
    lowest_wins: bool = True
    draft: bool = False
    first_picker: int = 0
    rotate_first_picker: bool = True

    def __post_init__(self) -> None:
        for f in fields(self):
            value, kind = getattr(self, f.name), _FIELD_TYPES[f.name]
            wrong = not isinstance(value, kind) or (kind is int and isinstance(value, bool))
            if wrong:
                name = getattr(kind, "__name__", str(kind))
                raise RulesError(f"{f.name} must be of type {name}, got {excerpt(value)}")
        where = f"{self.variant.value} with {self.players} players"
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {self.players!r}")
        if self.hand_size < 1:
            raise RulesError(f"hand size must be at least 1, got {self.hand_size} ({where})")
        if self.rows < 1:
            raise RulesError(f"need at least one row, got {self.rows} ({where})")
        if self.row_capacity < 1:
            raise RulesError(f"row capacity must be at least 1, got {self.row_capacity} ({where})")
        if not 1 <= self.deck_size <= MAX_CARD:
            raise RulesError(f"deck size must be 1..{MAX_CARD}, got {self.deck_size} ({where})")
        needed = self.hand_size * self.players + self.rows
        if needed > self.deck_size:
            raise RulesError(
                f"{self.players} hands of {self.hand_size} plus {self.rows} rows need {needed} "
                f"cards, but the deck has {self.deck_size} ({where})"
            )
        if not 0 <= self.first_picker < self.players:
            raise RulesError(
                f"first picker must be a seat 0..{self.players - 1}, got {self.first_picker}"
            )
        if self.pile_play and self.draft:
            raise RulesError("a drafted hand cannot be a face-down pile")

    @classmethod
    def for_variant(cls, variant: Variant | str, players: int = 4, **overrides: Any) -> Rules:
        """The preset for ``variant`` with ``players`` seats; ``overrides`` replace any field.

        Taktik and Logik use the deck 1..hand_size*players + rows (10·n + 4 for the real game),
        also when ``hand_size`` is overridden for studies, unless ``deck_size`` is given.
        """
        names = ", ".join(x.value for x in Variant)
        try:
            v = Variant(variant) if isinstance(variant, str) else variant
        except ValueError:
            raise RulesError(f"unknown variant {excerpt(variant)} (known: {names})") from None
        if not isinstance(v, Variant):
            raise RulesError(f"unknown variant {excerpt(variant)} (known: {names})")
        unknown = sorted(str(k) for k in overrides if k not in _FIELD_TYPES)
        if unknown:
            raise RulesError(
                f"unknown setting(s) {excerpt(unknown)} (known: {sorted(_FIELD_TYPES)})"
            )
        base: dict[str, Any] = {"variant": v, "players": players}
        if v is Variant.PROFI:
            base["profi_left"] = True
        elif v is Variant.LOGIK:
            base["draft"] = True
        elif v is Variant.KIDS:
            base.update(
                hand_size=15,
                rows=5,
                simultaneous=False,
                pile_play=True,
                lowest_wins=False,
                end=EndCondition(target=None, rounds=1),
            )
        base.update(overrides)
        if v in (Variant.TAKTIK, Variant.LOGIK) and "deck_size" not in overrides:
            hand = base.get("hand_size", 10)
            rows = base.get("rows", 4)
            if isinstance(players, int) and isinstance(hand, int) and isinstance(rows, int):
                base["deck_size"] = min(MAX_CARD + 1, hand * players + rows)
        return cls(**base)

    @property
    def min_taken_per_round(self) -> int:
        """A lower bound on the cards that go into bull piles in one round: the cards placed
        (hand_size·players, plus the row starters) minus what the table can hold at the end
        (rows·row_capacity). Every card carries at least one head."""
        return self.hand_size * self.players + self.rows - self.rows * self.row_capacity

    @property
    def always_ends(self) -> bool:
        """True when every game under these rules ends: it has a number of rounds, or every
        round takes at least one card so some total reaches the target."""
        return self.end.rounds is not None or self.min_taken_per_round > 0

    @property
    def max_rounds(self) -> int | None:
        """An upper bound on the rounds of any game under these rules (``None``: none, see
        :attr:`always_ends`): the number of rounds, or the round by which some total must reach
        the target, since each round puts at least :attr:`min_taken_per_round` cards of at least
        one head each into the players' piles (``take6 verify``: ``game.termination``)."""
        bounds = [] if self.end.rounds is None else [self.end.rounds]
        taken = self.min_taken_per_round
        if self.end.target is not None and taken > 0:
            needed = self.end.target + (1 if self.end.comparison is Comparison.ABOVE else 0)
            bounds.append(max(1, -(-needed * self.players // taken)))
        return min(bounds) if bounds else None

    def check_always_ends(self) -> None:
        """Raise :class:`RulesError` when a game under these rules might never end."""
        if not self.always_ends:
            raise RulesError(
                f"a game to {self.end.target} with {self.players} hands of {self.hand_size} "
                f"might never end: a round can pass with no card taken (the {self.rows} rows "
                f"hold {self.rows * self.row_capacity} cards); give a number of rounds"
            )

    def with_(self, **changes: Any) -> Rules:
        """A copy with ``changes`` (validated again)."""
        return replace(self, **changes)

    def deck(self) -> tuple[int, ...]:
        """The cards in play: 1..deck_size."""
        return tuple(range(1, self.deck_size + 1))

    def first_picker_in_round(self, round_number: int) -> int:
        """Seat that picks first in the draft of round ``round_number`` (1-based)."""
        shift = round_number - 1 if self.rotate_first_picker else 0
        return (self.first_picker + shift) % self.players
