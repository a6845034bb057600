"""User rule sets: a TOML rules file read into a :class:`~take6.rules.Rules` (docs/rules-file.md).

Every key is optional; a file names a preset (``base``, default ``standard``) and overrides its
fields. The keys are the names of :class:`~take6.rules.Rules` and of the JSON record's rules
(:func:`take6.io.record.rules_to_json`), with two forms of their own: ``deck`` (a range ``"1..120"``
or a list of card numbers and ranges) and ``heads`` (``"standard"``, or a table of explicit cards,
multiples and a default). Any error is one line naming the file and the field
(:class:`RulesFileError`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from take6.cards import HEADS, MAX_CARD
from take6.errors import RulesError
from take6.rules import (
    BOOL_FIELDS,
    CARD_LIMIT,
    MAX_CARD_HEADS,
    Comparison,
    EndCondition,
    ProfiTie,
    Rules,
    Variant,
)
from take6.text import excerpt

__all__ = ["RulesFile", "RulesFileError", "load_rules", "read_rules_file", "rules_from_toml"]


class RulesFileError(RulesError):
    """A rules file that does not read, or names settings that contradict each other."""


_INT_KEYS = ("players", "hand_size", "rows", "row_capacity", "first_picker")
_BOOL_KEYS = BOOL_FIELDS
_KEYS = ("base", *_INT_KEYS, "deck", "heads", "end", "profi_tie", *_BOOL_KEYS)
_END_KEYS = ("target", "comparison", "rounds")
_HEADS_KEYS = ("default", "multiples", "cards")


@dataclass(frozen=True)
class RulesFile:
    """A rules file read: its rules, and the top-level fields it gives (the rest come from
    its ``base`` preset)."""

    path: str
    rules: Rules
    given: frozenset[str]

    def check_players(self, players: int, what: str) -> None:
        """Raise :class:`RulesFileError` when the file names a number of players other than
        the ``players`` of ``what`` (a position, a turn)."""
        if "players" in self.given and self.rules.players != players:
            raise RulesFileError(
                f"{what} has {players} players, but rules file {self.path} says players = "
                f"{self.rules.players}"
            )


def read_rules_file(path: str) -> RulesFile:
    """The rules file at ``path`` with the fields it gives."""
    text = _read(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesFileError(f"rules file {path} is not valid TOML: {exc}") from None
    rules = rules_from_mapping(data, f"rules file {path}")
    return RulesFile(path, rules, frozenset(data))


def load_rules(path: str) -> Rules:
    """The rules of the TOML file at ``path``."""
    return read_rules_file(path).rules


def _read(path: str) -> str:
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise RulesFileError(
            f"cannot read rules file {excerpt(path)}: {exc.strerror or exc}"
        ) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesFileError(f"rules file {excerpt(path)} is not UTF-8 text") from None


def rules_from_toml(text: str, source: str = "rules file") -> Rules:
    """The rules a rules file's ``text`` describes; :class:`RulesFileError` names ``source``
    and the field when it is malformed or contradictory."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesFileError(f"{source} is not valid TOML: {exc}") from None
    return rules_from_mapping(data, source)


def rules_from_mapping(data: Mapping[str, Any], source: str = "rules file") -> Rules:
    """The rules of an already parsed rules file (see :func:`rules_from_toml`)."""
    unknown = [k for k in data if k not in _KEYS]
    if unknown:
        raise RulesFileError(
            f"{source}: unknown field {excerpt(unknown[0])} (known: {', '.join(_KEYS)})"
        )
    names = [v.value for v in Variant]
    base = data.get("base", Variant.STANDARD.value)
    if not isinstance(base, str) or base not in names:
        raise RulesFileError(
            f"{source}: base must be one of {', '.join(names)}, got {excerpt(base)}"
        )
    fields: dict[str, Any] = {}
    for key in _INT_KEYS:
        if key in data:
            fields[key] = _int(data[key], key, source)
    for key in _BOOL_KEYS:
        if key in data:
            if not isinstance(data[key], bool):
                raise RulesFileError(
                    f"{source}: {key} must be true or false, got {excerpt(data[key])}"
                )
            fields[key] = data[key]
    if "profi_tie" in data:
        ties = [t.value for t in ProfiTie]
        tie = data["profi_tie"]
        if not isinstance(tie, str) or tie not in ties:
            raise RulesFileError(
                f"{source}: profi_tie must be one of {', '.join(ties)}, got {excerpt(tie)}"
            )
        fields["profi_tie"] = ProfiTie(tie)
    if "end" in data:
        fields["end"] = _end(data["end"], source)
    if "deck" in data:
        cards = _deck(data["deck"], source)
        fields["cards"] = cards
        fields["deck_size"] = len(cards)
    players = fields.pop("players", Rules().players)
    if "heads" in data:
        deck = fields.get("cards") or _preset_deck(base, players, fields, source)
        fields["head_table"] = _heads(data["heads"], deck, source)
    try:
        rules = Rules.for_variant(base, players=players, **fields)
    except RulesError as exc:
        raise RulesFileError(f"{source}: {_field_hint(str(exc))}{exc}") from None
    return rules


def _preset_deck(base: str, players: int, fields: dict[str, Any], source: str) -> tuple[int, ...]:
    """The deck of the preset with ``fields`` (a file that gives heads but no deck)."""
    try:
        return Rules.for_variant(base, players=players, **fields).deck()
    except RulesError as exc:
        raise RulesFileError(f"{source}: {_field_hint(str(exc))}{exc}") from None


_HINTS = (
    ("hand size", "hand_size"),
    ("need at least one row", "rows"),
    ("row capacity", "row_capacity"),
    ("deck size", "deck"),
    ("cards, but the deck has", "deck"),
    ("first picker", "first_picker"),
    ("drafted hand", "draft"),
    ("heads:", "heads"),
    ("cards:", "deck"),
)


def _field_hint(message: str) -> str:
    """``"field: "`` for an engine message that does not start with the field's name."""
    for words, name in _HINTS:
        if words in message and not message.startswith(f"{name}:"):
            return f"{name}: "
    return ""


def _int(value: object, key: str, source: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesFileError(f"{source}: {key} must be an integer, got {excerpt(value)}")
    return value


def _end(value: object, source: str) -> EndCondition:
    if not isinstance(value, Mapping):
        raise RulesFileError(
            f"{source}: end must be a table (target, comparison, rounds), got {excerpt(value)}"
        )
    unknown = [k for k in value if k not in _END_KEYS]
    if unknown:
        raise RulesFileError(
            f"{source}: unknown field {excerpt('end.' + str(unknown[0]))} (known: "
            f"{', '.join(_END_KEYS)})"
        )
    # a number of rounds alone is a game of exactly that many rounds, as `take6 play --rounds`
    target: int | None = None if "rounds" in value else EndCondition().target
    if "target" in value:
        target = _int(value["target"], "end.target", source)
    rounds = _int(value["rounds"], "end.rounds", source) if "rounds" in value else None
    comparisons = [c.value for c in Comparison]
    comparison = value.get("comparison", Comparison.AT_LEAST.value)
    if not isinstance(comparison, str) or comparison not in comparisons:
        raise RulesFileError(
            f"{source}: end.comparison must be one of {', '.join(repr(c) for c in comparisons)}, "
            f"got {excerpt(comparison)}"
        )
    try:
        return EndCondition(target=target, comparison=Comparison(comparison), rounds=rounds)
    except RulesError as exc:
        raise RulesFileError(f"{source}: end: {exc}") from None


def _range(text: str, what: str, source: str) -> range:
    parts = text.split("..")
    if len(parts) != 2 or not all(p.strip().isdigit() and p.strip().isascii() for p in parts):
        raise RulesFileError(
            f'{source}: {what} must be a range such as "1..104", got {excerpt(text)}'
        )
    low, high = int(parts[0]), int(parts[1])
    if not 1 <= low <= high <= CARD_LIMIT:
        raise RulesFileError(
            f"{source}: {what} {excerpt(text)} must run upwards within 1..{CARD_LIMIT}"
        )
    return range(low, high + 1)


def _deck(value: object, source: str) -> tuple[int, ...]:
    """``"A..B"``, or a list of card numbers and ranges: the cards, ascending."""
    if isinstance(value, str):
        return tuple(_range(value, "deck", source))
    if not isinstance(value, list) or not value:
        raise RulesFileError(
            f'{source}: deck must be a range such as "1..104" or a list of card numbers, '
            f"got {excerpt(value)}"
        )
    cards: list[int] = []
    for i, item in enumerate(value):
        if isinstance(item, str):
            cards.extend(_range(item, f"deck[{i}]", source))
            continue
        card = _int(item, f"deck[{i}]", source)
        if not 1 <= card <= CARD_LIMIT:
            raise RulesFileError(
                f"{source}: deck[{i}] = {card} is not a card number 1..{CARD_LIMIT}"
            )
        cards.append(card)
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise RulesFileError(f"{source}: deck lists card {c} twice")
        seen.add(c)
    return tuple(sorted(cards))


def _heads(value: object, deck: tuple[int, ...], source: str) -> tuple[int, ...]:
    """The heads table (index = card) of the ``heads`` field for ``deck``."""
    if value == "standard":
        high = [c for c in deck if c > MAX_CARD]
        if high:
            raise RulesFileError(
                f'{source}: heads = "standard" covers cards 1..{MAX_CARD}, but the deck holds '
                f"card {high[0]}; give a heads table"
            )
        return tuple(HEADS[c] if c <= MAX_CARD else 0 for c in range(deck[-1] + 1))
    if not isinstance(value, Mapping):
        raise RulesFileError(
            f'{source}: heads must be "standard" or a table (cards, multiples, default), got '
            f"{excerpt(value)}"
        )
    unknown = [k for k in value if k not in _HEADS_KEYS]
    if unknown:
        raise RulesFileError(
            f"{source}: unknown field {excerpt('heads.' + str(unknown[0]))} (known: "
            f"{', '.join(_HEADS_KEYS)})"
        )
    explicit: dict[int, int] = {}
    given = value.get("cards", {})
    if not isinstance(given, Mapping):
        raise RulesFileError(
            f"{source}: heads.cards must be a table of card = heads, such as {{ 55 = 7 }}, got "
            f"{excerpt(given)}"
        )
    in_deck = set(deck)
    for key, h in given.items():
        if not (key.isascii() and key.isdigit()):
            raise RulesFileError(f"{source}: heads.cards key {excerpt(key)} is not a card number")
        card = int(key)
        if card not in in_deck:
            raise RulesFileError(
                f"{source}: heads.cards names card {card}, which is not in the deck"
            )
        explicit[card] = _heads_value(h, f"heads.cards.{key}", source)
    multiples: list[tuple[int, int]] = []
    rules = value.get("multiples", [])
    if not isinstance(rules, list):
        raise RulesFileError(
            f"{source}: heads.multiples must be a list such as [{{ of = 10, heads = 3 }}], got "
            f"{excerpt(rules)}"
        )
    for i, rule in enumerate(rules):
        where = f"heads.multiples[{i}]"
        if not isinstance(rule, Mapping) or set(rule) != {"of", "heads"}:
            raise RulesFileError(
                f"{source}: {where} must be {{ of = N, heads = H }}, got {excerpt(rule)}"
            )
        of = _int(rule["of"], f"{where}.of", source)
        if of < 1:
            raise RulesFileError(f"{source}: {where}.of must be at least 1, got {of}")
        multiples.append((of, _heads_value(rule["heads"], f"{where}.heads", source)))
    default = value.get("default")
    if default is not None and default != "standard":
        default = _heads_value(default, "heads.default", source)
    table = [0] * (deck[-1] + 1)
    for c in deck:
        if c in explicit:
            table[c] = explicit[c]
            continue
        match = next((h for of, h in multiples if c % of == 0), None)
        if match is not None:
            table[c] = match
        elif default == "standard":
            if c > MAX_CARD:
                raise RulesFileError(
                    f'{source}: heads.default = "standard" covers cards 1..{MAX_CARD}, but '
                    f"card {c} of the deck is named by no rule"
                )
            table[c] = HEADS[c]
        elif isinstance(default, int):
            table[c] = default
        else:
            raise RulesFileError(
                f"{source}: heads gives no heads for card {c} (no entry in heads.cards, no "
                f"multiple, no heads.default)"
            )
    return tuple(table)


def _heads_value(value: object, key: str, source: str) -> int:
    h = _int(value, key, source)
    if not 0 <= h <= MAX_CARD_HEADS:
        raise RulesFileError(f"{source}: {key} must be 0..{MAX_CARD_HEADS} heads, got {h}")
    return h


def rules_to_toml(rules: Rules) -> str:
    """A rules file for ``rules`` (every field written out; :func:`rules_from_toml` reads it
    back to equal rules)."""
    lines = [
        f'base = "{rules.variant.value}"',
        f"players = {rules.players}",
        f"hand_size = {rules.hand_size}",
        f"rows = {rules.rows}",
        f"row_capacity = {rules.row_capacity}",
    ]
    if rules.cards is None:
        lines.append(f'deck = "1..{rules.deck_size}"')
    else:
        lines.append(f"deck = [{', '.join(map(str, rules.cards))}]")
    lines += [
        f'profi_tie = "{rules.profi_tie.value}"',
        *(f"{k} = {str(getattr(rules, k)).lower()}" for k in _BOOL_KEYS),
        f"first_picker = {rules.first_picker}",
        "",
        "[end]",
    ]
    if rules.end.target is not None:
        lines.append(f"target = {rules.end.target}")
    lines.append(f'comparison = "{rules.end.comparison.value}"')
    if rules.end.rounds is not None:
        lines.append(f"rounds = {rules.end.rounds}")
    if rules.head_table is not None:
        table = rules.heads
        lines += ["", "[heads.cards]", *(f"{c} = {table[c]}" for c in rules.deck())]
    return "\n".join(lines) + "\n"
