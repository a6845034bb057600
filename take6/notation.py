"""The two notations of a position (:class:`take6.position.Position`): a compact text form
(like chess FEN) and a JSON form.

A *position* is the table between two turns: the variant (and its deck), the rows, every hand, the
bull piles taken so far this round and the totals of earlier rounds.

Compact notation (fields separated by single spaces; the last two are optional)::

    VARIANT[:DECK] ROWS HANDS [PILES [TOTALS]]

    logik:24 3/17,20/23/24 4,9|2,13
    standard 12/37/43/58 14,61|15,44 -|55 0,12

* ``VARIANT`` is ``standard``, ``taktik``, ``logik``, ``profi`` or ``kids``; ``:DECK`` names the
  highest card of the deck (1..DECK). Without it a position may use any card 1..104.
* ``ROWS``: rows separated by ``/``, each row's cards in ascending order separated by ``,``.
* ``HANDS``: one hand per player separated by ``|`` (cards ascending; in Kids, pile order top
  first); ``-`` is an empty hand.
* ``PILES``: bull piles taken this round, same form as hands (``-`` empty).
* ``TOTALS``: totals of earlier rounds, comma-separated integers.

:func:`format_position` writes the canonical form (piles and totals only when not empty/zero), and
``parse_position(format_position(p)) == p`` for every valid position.

JSON form::

    {"variant": "logik", "rows": [[3], [17, 20], [58], [96]], "hands": [[4, 90], [93, 2]],
     "piles": [[], [55]], "totals": [0, 12], "deck": 104}

``piles``, ``totals`` and ``deck`` are optional. Hands may be given in any order (they are sets)
except in Kids, where a hand is a pile and its order is kept.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from take6.errors import NotationError, RulesError
from take6.position import Cards, Position
from take6.rules import Rules, Variant
from take6.text import decode, excerpt, parse_int, strip_bom

__all__ = [
    "Position",
    "format_position",
    "load_position",
    "parse_position",
    "parse_rows",
    "position_from_json",
]


def _fmt_cards(cards: Cards) -> str:
    return ",".join(str(c) for c in cards) if cards else "-"


def format_position(pos: Position) -> str:
    """The canonical compact notation of ``pos``."""
    head = pos.rules.variant.value
    if pos.named_deck:
        head += f":{pos.rules.deck_size}"
    fields = [
        head,
        "/".join(",".join(str(c) for c in r) for r in pos.rows),
        "|".join(_fmt_cards(h) for h in pos.hands),
    ]
    has_totals = any(pos.totals)
    if any(pos.piles) or has_totals:
        fields.append("|".join(_fmt_cards(p) for p in pos.piles))
    if has_totals:
        fields.append(",".join(str(t) for t in pos.totals))
    return " ".join(fields)


def _parse_int(tok: str, what: str, text: str) -> int:
    try:
        return parse_int(tok, what)
    except ValueError as exc:
        raise NotationError(f"{exc} in {excerpt(text)}") from None


def _parse_group(field: str, what: str, text: str) -> list[list[int]]:
    out: list[list[int]] = []
    for i, part in enumerate(field.split("|")):
        if part == "-":
            out.append([])
        else:
            out.append([_parse_int(t, f"{what} {i + 1}", text) for t in part.split(",")])
    return out


def parse_rows(field: str, text: str | None = None) -> list[list[int]]:
    """Parse a ``/``-separated rows field such as ``12/37,40/43/58``."""
    text = field if text is None else text
    return [
        [_parse_int(t, f"row {i + 1}", text) for t in part.split(",")]
        for i, part in enumerate(field.split("/"))
    ]


def parse_position(text: str, rules: Rules | None = None) -> Position:
    """Parse the compact notation (see the module docstring); under ``rules`` when given
    (:meth:`Position.create`)."""
    if not isinstance(text, str):
        raise NotationError(f"a position must be text, got {excerpt(text)}")
    fields = text.strip().split()
    if not 3 <= len(fields) <= 5:
        raise NotationError(
            f"a position has 3 to 5 space-separated fields (VARIANT ROWS HANDS [PILES [TOTALS]]), "
            f"got {len(fields)} in {excerpt(text)}"
        )
    head = fields[0]
    deck: int | None = None
    if ":" in head:
        head, _, deck_s = head.partition(":")
        deck = _parse_int(deck_s, "deck", text)
    if head not in {v.value for v in Variant}:
        names = ", ".join(v.value for v in Variant)
        raise NotationError(f"unknown variant {excerpt(head)} (known: {names}) in {excerpt(text)}")
    rows = parse_rows(fields[1], text)
    hands = _parse_group(fields[2], "hand", text)
    piles = _parse_group(fields[3], "bull pile", text) if len(fields) > 3 else None
    totals = (
        [_parse_int(t, "total", text) for t in fields[4].split(",")] if len(fields) > 4 else None
    )
    if piles is not None and len(piles) != len(hands):
        raise NotationError(f"{len(piles)} bull piles for {len(hands)} hands in {excerpt(text)}")
    if totals is not None and len(totals) != len(hands):
        raise NotationError(f"{len(totals)} totals for {len(hands)} hands in {excerpt(text)}")
    return Position.create(head, rows, hands, piles, totals, deck, rules)


_JSON_KEYS = {"variant", "rows", "hands", "piles", "totals", "deck"}


def _json_text(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotationError(
            f"not valid JSON ({exc.msg} at char {exc.pos}): {excerpt(text)}"
        ) from None
    except (ValueError, RecursionError) as exc:  # too-long integer, too-deep nesting
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise NotationError(f"not valid JSON ({why}): {excerpt(text)}") from None


def position_from_json(
    data: Mapping[str, Any] | str | bytes, rules: Rules | None = None
) -> Position:
    """Build a position from its JSON form (a dict, or JSON text or UTF-8 bytes; a leading
    byte-order mark is allowed), under ``rules`` when given (:meth:`Position.create`). Raises
    :class:`NotationError` for anything else."""
    if isinstance(data, bytes):
        data = _decode(data)
    obj: object = _json_text(strip_bom(data)) if isinstance(data, str) else data
    if not isinstance(obj, Mapping):
        raise NotationError(f"a JSON position must be an object, got {excerpt(obj)}")
    unknown = [k for k in obj if k not in _JSON_KEYS]
    if unknown:
        bad = sorted(excerpt(k) for k in unknown)
        raise NotationError(
            f"unknown key(s) {', '.join(bad)} in JSON position (known: {sorted(_JSON_KEYS)})"
        )
    for key in ("variant", "rows", "hands"):
        if key not in obj:
            raise NotationError(f"JSON position lacks {key!r}: {excerpt(dict(obj))}")
    variant = obj["variant"]
    if not isinstance(variant, str):
        raise NotationError(f"variant must be a string, got {excerpt(variant)}")
    if variant not in {v.value for v in Variant}:
        names = ", ".join(v.value for v in Variant)
        raise NotationError(f"unknown variant {excerpt(variant)} (known: {names}) in JSON position")
    for key in ("rows", "hands", "piles"):
        value = obj.get(key, [])
        if not isinstance(value, list):
            raise NotationError(f"{key!r} must be a list of lists of cards, got {excerpt(value)}")
    totals = obj.get("totals")
    if totals is not None and not isinstance(totals, list):
        raise NotationError(f"'totals' must be a list of integers, got {excerpt(totals)}")
    piles = obj.get("piles")
    if piles is not None and len(piles) != len(obj["hands"]):
        raise NotationError(f"{len(piles)} bull piles for {len(obj['hands'])} hands")
    if totals is not None and len(totals) != len(obj["hands"]):
        raise NotationError(f"{len(totals)} totals for {len(obj['hands'])} hands")
    deck = obj.get("deck")
    if deck is not None and (not isinstance(deck, int) or isinstance(deck, bool)):
        raise NotationError(f"'deck' must be an integer, got {excerpt(deck)}")
    try:
        return Position.create(variant, obj["rows"], obj["hands"], piles, totals, deck, rules)
    except RulesError as exc:  # unknown variant
        raise NotationError(str(exc)) from None


def _decode(data: bytes) -> str:
    try:
        return decode(data, "the position")
    except ValueError as exc:
        raise NotationError(str(exc)) from None


def load_position(text: str | bytes | Mapping[str, Any], rules: Rules | None = None) -> Position:
    """A position from the compact notation, or from JSON when the text starts with ``{``
    (UTF-8 bytes are decoded, a leading byte-order mark dropped; a mapping is the JSON form),
    under ``rules`` when given. Raises :class:`NotationError` (or :class:`PositionError`) for
    anything else."""
    if isinstance(text, Mapping):
        return position_from_json(text, rules)
    if isinstance(text, bytes):
        text = _decode(text)
    if not isinstance(text, str):
        raise NotationError(f"a position must be text or a JSON object, got {excerpt(text)}")
    text = strip_bom(text)
    if text.lstrip().startswith("{"):
        return position_from_json(text, rules)
    return parse_position(text, rules)
