"""Rules settings: one immutable, validated object per game.

Every decision the sources leave open (see the rules brief) is a named field here with
the default the project chose. Variants are presets of these fields (:meth:`Rules.for_variant`),
never ``if variant == ...`` branches in the rules core.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from itertools import pairwise
from typing import Any

from take6.cards import HEADS, MAX_CARD, Card
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

CARD_LIMIT = 1000
"""The highest card number a rule set may use (a custom deck; the standard deck stops at 104)."""
MAX_CARD_HEADS = 99
"""The most bull heads one card may carry in a custom heads table."""


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
    "cards": (tuple, type(None)),
    "head_table": (tuple, type(None)),
}

BOOL_FIELDS: tuple[str, ...] = tuple(k for k, t in _FIELD_TYPES.items() if t is bool)
"""The :class:`Rules` fields that are switches (on or off), in declaration order: what a
rules file and a record's rules write as booleans."""


@dataclass(frozen=True)
class Rules:
    """The settings of one game. Build with :meth:`for_variant`; fields are validated.

    Attributes:
        variant: the preset this was built from (informative; behaviour comes from the fields).
        players: number of seats, 2..10.
        hand_size: cards dealt (or drafted) per player per round (10; Kids 15).
        rows: number of rows on the table (4; Kids 5).
        row_capacity: cards a row holds; the next card placed takes them (5: "the 6th takes").
        deck_size: the number of cards in the deck; the deck is 1..deck_size (104; Taktik/Logik
            hand_size*players + 4) unless ``cards`` lists it.
        end: when the game ends (66 or more by default).
        profi_left: cards may also go on the left of a row (Profi).
        profi_tie: who settles a left/right tie at equal distance (Profi).
        simultaneous: all players choose at once (False: Kids, one seat after another).
        pile_play: each player's hand is a face-down pile played from the top (Kids).
        lowest_wins: the lowest total wins (False: Kids, most heads wins).
        draft: the hands are drafted face up before each round (Logik).
        first_picker: seat that picks first in the first round's draft (Logik).
        rotate_first_picker: the first picker moves one seat clockwise each round (Logik).
        cards: an explicit deck, ascending distinct card numbers 1..CARD_LIMIT (``None``: the
            deck is 1..deck_size); ``deck_size`` is then its length. Stored as ``None`` whenever
            it equals 1..deck_size, so each deck has one form.
        head_table: bull heads per card, ``head_table[c]`` for card ``c`` (index 0 and cards
            outside the deck hold 0; ``None``: the standard table :data:`take6.cards.HEADS`).
            Stored as ``None`` whenever it agrees with the standard table on every card of the
            deck. Read the table through :attr:`heads`, never this field.
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
    cards: tuple[Card, ...] | None = None
    head_table: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value, kind = getattr(self, f.name), _FIELD_TYPES[f.name]
            wrong = not isinstance(value, kind) or (kind is int and isinstance(value, bool))
            if wrong:
                name = getattr(kind, "__name__", "a tuple or None")
                raise RulesError(f"{f.name} must be of type {name}, got {excerpt(value)}")
        where = f"{self.variant.value} with {self.players} players"
        self._normalise_deck(where)
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {self.players!r}")
        if self.hand_size < 1:
            raise RulesError(f"hand size must be at least 1, got {self.hand_size} ({where})")
        if self.rows < 1:
            raise RulesError(f"need at least one row, got {self.rows} ({where})")
        if self.row_capacity < 1:
            raise RulesError(f"row capacity must be at least 1, got {self.row_capacity} ({where})")
        if not 1 <= self.deck_size <= CARD_LIMIT:
            raise RulesError(
                f"deck size must be 1..{CARD_LIMIT} (1..{MAX_CARD} with the standard heads), "
                f"got {self.deck_size} ({where})"
            )
        self._normalise_heads(where)
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
            raise RulesError(
                "pile_play and draft exclude each other: a drafted hand is not a face-down pile"
            )

    def _normalise_deck(self, where: str) -> None:
        cards = self.cards
        if cards is None:
            return
        if not cards:
            raise RulesError(f"cards: the deck lists no card ({where})")
        for c in cards:
            if not _is_int(c) or not 1 <= c <= CARD_LIMIT:
                raise RulesError(f"cards: {excerpt(c)} is not a card number 1..{CARD_LIMIT}")
        ordered = tuple(sorted(cards))
        twice = sorted({a for a, b in pairwise(ordered) if a == b})
        if twice:
            raise RulesError(f"cards: card {twice[0]} is listed twice ({where})")
        if self.deck_size != len(ordered):
            raise RulesError(
                f"deck_size {self.deck_size} disagrees with the {len(ordered)} cards listed "
                f"({where})"
            )
        # one form per deck: 1..n is written as deck_size alone
        plain = ordered == tuple(range(1, len(ordered) + 1))
        object.__setattr__(self, "cards", None if plain else ordered)

    def _normalise_heads(self, where: str) -> None:
        deck = self.deck()
        top = deck[-1]
        table = self.head_table
        if table is None:
            if top > MAX_CARD:
                raise RulesError(
                    f"heads: the standard table covers cards 1..{MAX_CARD}, but the deck goes "
                    f"up to {top}; give a heads table ({where})"
                )
            return
        if len(table) < top + 1:
            raise RulesError(
                f"heads: the table stops at card {len(table) - 1}, but the deck goes up to "
                f"{top} ({where})"
            )
        for c in deck:
            h = table[c]
            if not _is_int(h) or not 0 <= h <= MAX_CARD_HEADS:
                raise RulesError(
                    f"heads: card {c} must carry 0..{MAX_CARD_HEADS} heads, got {excerpt(h)}"
                )
        in_deck = set(deck)
        kept = tuple(table[c] if c in in_deck else 0 for c in range(top + 1))
        # one form per table: the standard heads on every card of the deck are written as None
        standard = top <= MAX_CARD and all(kept[c] == HEADS[c] for c in deck)
        object.__setattr__(self, "head_table", None if standard else kept)

    @property
    def heads(self) -> tuple[int, ...]:
        """The bull-head table: ``heads[c]`` is the heads on card ``c`` of the deck (the
        standard :data:`take6.cards.HEADS` unless the rules carry their own)."""
        return HEADS if self.head_table is None else self.head_table

    @property
    def standard_cards(self) -> bool:
        """True when the deck is 1..deck_size with the standard heads (every preset's deck)."""
        return self.cards is None and self.head_table is None

    @property
    def max_card(self) -> Card:
        """The highest card of the deck."""
        return self.cards[-1] if self.cards is not None else self.deck_size

    def heads_of(self, cards: Iterable[Card]) -> int:
        """The bull heads of ``cards`` under these rules."""
        table = self.heads
        return sum(table[c] for c in cards)

    def check_standard_cards(self, what: str) -> None:
        """Raise :class:`RulesError` naming ``what`` when the deck or the heads table is not the
        standard one (for the parts of the project built on the fixed deck)."""
        if not self.standard_cards:
            which = "deck" if self.cards is not None else "bull-head table"
            raise RulesError(
                f"{what} supports the standard cards only (1..deck_size with the printed "
                f"heads), not a custom {which}"
            )

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
        if overrides.get("cards") is not None and "deck_size" not in overrides:
            base["deck_size"] = len(overrides["cards"])
        elif v in (Variant.TAKTIK, Variant.LOGIK) and "deck_size" not in overrides:
            hand = base.get("hand_size", 10)
            rows = base.get("rows", 4)
            if isinstance(players, int) and isinstance(hand, int) and isinstance(rows, int):
                base["deck_size"] = min(MAX_CARD + 1, hand * players + rows)
        return cls(**base)

    @property
    def min_taken_per_round(self) -> int:
        """A lower bound on the cards that go into bull piles in one round: the cards placed
        (hand_size·players, plus the row starters) minus what the table can hold at the end
        (rows·row_capacity)."""
        return self.hand_size * self.players + self.rows - self.rows * self.row_capacity

    @property
    def min_heads_per_round(self) -> int:
        """A lower bound on the heads that go into bull piles in one round: the
        :attr:`min_taken_per_round` cheapest cards of the deck (with the standard table every
        card carries at least one head, so it is the number of cards)."""
        taken = self.min_taken_per_round
        if taken <= 0:
            return 0
        table = self.heads
        return sum(sorted(table[c] for c in self.deck())[:taken])

    @property
    def always_ends(self) -> bool:
        """True when every game under these rules is known to end: it has a number of rounds,
        or every round puts heads into bull piles so some total reaches the target."""
        return self.end.rounds is not None or self.min_heads_per_round > 0

    @property
    def max_rounds(self) -> int | None:
        """An upper bound on the rounds of any game under these rules (``None``: none, see
        :attr:`always_ends`): the number of rounds, or the round by which some total must reach
        the target, since each round puts at least :attr:`min_heads_per_round` heads into the
        players' piles (``take6 verify``: ``game.termination``)."""
        bounds = [] if self.end.rounds is None else [self.end.rounds]
        taken = self.min_heads_per_round
        if self.end.target is not None and taken > 0:
            needed = self.end.target + (1 if self.end.comparison is Comparison.ABOVE else 0)
            bounds.append(max(1, -(-needed * self.players // taken)))
        return min(bounds) if bounds else None

    def check_always_ends(self) -> None:
        """Raise :class:`RulesError` when a game under these rules might never end."""
        if self.always_ends:
            return
        if self.min_taken_per_round <= 0:
            raise RulesError(
                f"a game to {self.end.target} with {self.players} hands of {self.hand_size} "
                f"might never end: a round can pass with no card taken (the {self.rows} rows "
                f"hold {self.rows * self.row_capacity} cards); give a number of rounds"
            )
        raise RulesError(
            f"a game to {self.end.target} with {self.players} hands of {self.hand_size} might "
            f"never end: the {self.min_taken_per_round} cards a round must take can all carry "
            f"0 heads; give a number of rounds"
        )

    def with_(self, **changes: Any) -> Rules:
        """A copy with ``changes`` (validated again); new ``cards`` bring their own
        ``deck_size`` unless it is given too."""
        if changes.get("cards") is not None and "deck_size" not in changes:
            changes["deck_size"] = len(changes["cards"])
        return replace(self, **changes)

    def deck(self) -> tuple[Card, ...]:
        """The cards in play, ascending: ``cards``, or 1..deck_size."""
        if self.cards is not None:
            return self.cards
        return tuple(range(1, self.deck_size + 1))

    def in_deck(self, card: object) -> bool:
        """True when ``card`` is a card of this deck."""
        if not _is_int(card):
            return False
        assert isinstance(card, int)
        if self.cards is None:
            return 1 <= card <= self.deck_size
        return card in self._card_set

    @cached_property
    def _card_set(self) -> frozenset[Card]:
        return frozenset(self.deck())

    def deck_text(self) -> str:
        """The deck in a message: ``1..n``, or the listed cards cut to a readable length."""
        if self.cards is None:
            return f"1..{self.deck_size}"
        return f"the {self.deck_size} cards {excerpt(list(self.cards))}"

    def first_picker_in_round(self, round_number: int) -> int:
        """Seat that picks first in the draft of round ``round_number`` (1-based)."""
        shift = round_number - 1 if self.rotate_first_picker else 0
        return (self.first_picker + shift) % self.players
