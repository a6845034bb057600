"""Positions: the table between two turns, a validated value of the rules core.

A :class:`Position` holds the full :class:`~take6.rules.Rules` (its variant's preset, with the
deck and the hand size the position implies, or any rules a caller gives and
:meth:`Position.with_rules` validates), the rows, every hand, the bull piles taken so far this
round and the totals of earlier rounds. Its two notations, the compact text form and the JSON
form, live in :mod:`take6.notation`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from take6.cards import MAX_CARD, Card
from take6.errors import PositionError, RulesError
from take6.rules import Rules, Variant
from take6.text import excerpt

Cards = tuple[Card, ...]


@dataclass(frozen=True)
class Position:
    """A validated position between turns. Build with :meth:`create`, :func:`parse_position` or
    :func:`position_from_json`; ``repr()`` evaluates back to an equal position (under a preset's
    rules: a rules file's own deck, heads or rows are not written in the notation, which is read
    back with those rules, ``parse_position(text, rules)``)."""

    rules: Rules
    rows: tuple[Cards, ...]
    hands: tuple[Cards, ...]
    piles: tuple[Cards, ...]
    totals: tuple[int, ...]

    @classmethod
    def create(
        cls,
        variant: Variant | str,
        rows: Sequence[Sequence[int]],
        hands: Sequence[Sequence[int]],
        piles: Sequence[Sequence[int]] | None = None,
        totals: Sequence[int] | None = None,
        deck: int | None = None,
        rules: Rules | None = None,
    ) -> Position:
        """Validate and build a position; raises :class:`PositionError` naming the problem.

        ``rules`` (e.g. a rules file's) replace the variant's preset: the position is then
        played under them, with its own number of players and hand size; ``variant`` must be
        their variant and ``deck``, if given, their number of cards (the rules carry the deck)."""
        where = _describe_input(variant, rows, hands)
        if not isinstance(variant, (str, Variant)):
            raise PositionError(f"variant must be a name, got {excerpt(variant)} in {where}")
        hands_t = tuple(
            _cards(h, f"hand {i + 1}", where) for i, h in enumerate(_groups(hands, "hands", where))
        )
        rows_t = tuple(
            _cards(r, f"row {i + 1}", where) for i, r in enumerate(_groups(rows, "rows", where))
        )
        n = len(hands_t)
        piles_t = (
            tuple(
                _cards(p, f"bull pile {i + 1}", where)
                for i, p in enumerate(_groups(piles, "bull piles", where))
            )
            if piles is not None
            else tuple(() for _ in range(n))
        )
        if totals is not None and (
            isinstance(totals, (str, bytes)) or not isinstance(totals, Sequence)
        ):
            raise PositionError(f"totals must be a list of integers, got {excerpt(totals)}")
        totals_t = tuple(totals) if totals is not None else (0,) * n
        if not 2 <= n <= 10:
            raise PositionError(f"a position needs 2..10 hands, got {n} in {where}")
        if deck is not None and (
            not isinstance(deck, int) or isinstance(deck, bool) or not 1 <= deck <= MAX_CARD
        ):
            raise PositionError(
                f"deck must be an integer 1..{MAX_CARD}, got {excerpt(deck)} in {where}"
            )
        sizes = {len(h) for h in hands_t}
        if len(sizes) > 1:
            raise PositionError(
                f"hands have unequal sizes {[len(h) for h in hands_t]} (every player holds the "
                f"same number of cards between turns) in {where}"
            )
        if rules is not None:
            name = variant.value if isinstance(variant, Variant) else variant
            if name != rules.variant.value:
                raise PositionError(
                    f"the position is written as {excerpt(name)}, but the rules are "
                    f"{rules.variant.value} in {where}"
                )
            if deck is not None and deck != rules.deck_size:
                raise PositionError(
                    f"the position names a deck of {deck} cards, but the rules' deck has "
                    f"{rules.deck_size} in {where}"
                )
        try:
            if rules is None:
                base = Rules.for_variant(variant, players=n)
                rules = base.with_(
                    hand_size=max(1, len(hands_t[0])),
                    deck_size=deck if deck is not None else MAX_CARD,
                )
            else:
                rules = rules.with_(players=n, hand_size=max(1, len(hands_t[0])))
        except RulesError as exc:
            raise PositionError(f"{exc} in {where}") from None
        pos = cls(rules, rows_t, _norm_hands(hands_t, rules), piles_t, totals_t)
        pos.validate()
        return pos

    def validate(self) -> None:
        """Raise :class:`PositionError` unless this is a legal position."""
        from take6.notation import format_position

        try:
            where = f"position {excerpt(format_position(self), 300)}"
        except (ValueError, TypeError):  # a number too long to print, or not a number
            where = "the position"
        rules = self.rules
        n = rules.players
        if len(self.hands) != n:
            raise PositionError(f"{len(self.hands)} hands for {n} players in {where}")
        if len(self.piles) != n:
            raise PositionError(f"{len(self.piles)} bull piles for {n} players in {where}")
        if len(self.totals) != n:
            raise PositionError(f"{len(self.totals)} totals for {n} players in {where}")
        for i, t in enumerate(self.totals):
            if not isinstance(t, int) or isinstance(t, bool) or t < 0:
                raise PositionError(
                    f"total {i + 1} must be a non-negative integer, got {excerpt(t)} in {where}"
                )
        groups = [(f"hand {i + 1}", h) for i, h in enumerate(self.hands)]
        groups += [(f"bull pile {i + 1}", p) for i, p in enumerate(self.piles)]
        check_table(self.rows, groups, rules, where)
        sizes = {len(h) for h in self.hands}
        if len(sizes) > 1:
            raise PositionError(f"hands have unequal sizes in {where}")

    @property
    def named_deck(self) -> bool:
        """True when the deck is not the full 1..104 (written ``VARIANT:DECK``; a custom deck
        or heads table is not written at all: it travels with its rules file)."""
        return self.rules.cards is None and self.rules.deck_size != MAX_CARD

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    def cards(self) -> frozenset[Card]:
        """Every card in the position (rows, hands, bull piles)."""
        out: set[Card] = set()
        for group in (self.rows, self.hands, self.piles):
            for cs in group:
                out.update(cs)
        return frozenset(out)

    def to_json(self) -> dict[str, Any]:
        """The JSON form as a dict (see the module docstring)."""
        d: dict[str, Any] = {
            "variant": self.rules.variant.value,
            "rows": [list(r) for r in self.rows],
            "hands": [list(h) for h in self.hands],
        }
        if any(self.piles):
            d["piles"] = [list(p) for p in self.piles]
        if any(self.totals):
            d["totals"] = list(self.totals)
        if self.named_deck:
            d["deck"] = self.rules.deck_size
        return d

    def with_rules(self, rules: Rules) -> Position:
        """This position played under ``rules`` (e.g. another end condition or Profi tie
        setting); raises :class:`PositionError` unless the position is legal under them (the
        players, the rows, the row capacity and the deck must fit)."""
        if not isinstance(rules, Rules):
            raise PositionError(f"rules must be a Rules, got {excerpt(rules)}")
        pos = Position(rules, self.rows, _norm_hands(self.hands, rules), self.piles, self.totals)
        pos.validate()
        return pos

    def __str__(self) -> str:
        from take6.notation import format_position

        return format_position(self)

    def __repr__(self) -> str:
        from take6.notation import format_position

        return f"parse_position({format_position(self)!r})"

    def _repr_svg_(self) -> str:
        """Jupyter shows a position as an SVG picture (:func:`take6.display.svg.position_svg`)."""
        from take6.display.svg import position_svg

        return position_svg(self)


def _describe_input(variant: object, rows: object, hands: object) -> str:
    v = variant.value if isinstance(variant, Variant) else variant
    return f"position (variant={excerpt(v)}, rows={excerpt(rows)}, hands={excerpt(hands)})"


def _groups(groups: object, name: str, where: str) -> Sequence[object]:
    if isinstance(groups, (str, bytes)) or not isinstance(groups, Sequence):
        raise PositionError(f"{name} must be a list of lists of cards, got {excerpt(groups)}")
    return groups


def _cards(cards: object, name: str, where: str) -> Cards:
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
        raise PositionError(f"{name} must be a list of cards, got {excerpt(cards)} in {where}")
    out = []
    for c in cards:
        if not isinstance(c, int) or isinstance(c, bool):
            raise PositionError(f"{name} holds {excerpt(c)}, which is not a card number in {where}")
        out.append(c)
    return tuple(out)


def _norm_hands(hands: tuple[Cards, ...], rules: Rules) -> tuple[Cards, ...]:
    if rules.pile_play:
        return hands
    return tuple(tuple(sorted(h)) for h in hands)


def check_table(
    rows: Sequence[Sequence[Card]],
    groups: Sequence[tuple[str, Sequence[Card]]],
    rules: Rules,
    where: str,
) -> None:
    """Raise :class:`PositionError` unless ``rows`` are a legal table under ``rules`` and the
    cards of ``groups`` (``(name, cards)``: hands, bull piles, cards played) lie in the deck, each
    card once across the rows and the groups. A position checks itself with it; so does a turn
    that needs no whole position (``take6 turn`` with a single card)."""
    if len(rows) != rules.rows:
        raise PositionError(
            f"{len(rows)} rows, but {rules.variant.value} has {rules.rows} in {where}"
        )
    for i, row in enumerate(rows):
        if not row:
            raise PositionError(f"row {i + 1} is empty in {where}")
        if len(row) > rules.row_capacity:
            raise PositionError(
                f"row {i + 1} has {len(row)} cards, at most {rules.row_capacity} allowed in {where}"
            )
        if any(a >= b for a, b in pairwise(row)):
            raise PositionError(f"row {i + 1} {list(row)} is not strictly ascending in {where}")
    seen: dict[int, str] = {}
    named = [(f"row {i + 1}", r) for i, r in enumerate(rows)] + list(groups)
    for name, cards in named:
        for c in cards:
            if not rules.in_deck(c):
                raise PositionError(
                    f"card {excerpt(c)} in {name} is outside the deck {rules.deck_text()} "
                    f"in {where}"
                )
            if c in seen:
                raise PositionError(f"card {c} appears twice ({seen[c]} and {name}) in {where}")
            seen[c] = name
