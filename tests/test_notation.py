"""Both position notations: round trips on generated positions, and a typed error for every kind
of malformed input (never anything but a one-line :class:`Take6Error`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from take6 import (
    NotationError,
    Position,
    PositionError,
    Take6Error,
    Variant,
    format_position,
    load_position,
    parse_position,
    position_from_json,
)

MAX_PLAYERS = {"standard": 10, "taktik": 10, "logik": 10, "profi": 10, "kids": 6}


@st.composite
def positions(draw: Any, variant: str | None = None) -> Position:
    """A valid position: distinct cards in ascending rows of 1..5, equal hands, any piles."""
    v = variant or draw(st.sampled_from([x.value for x in Variant]))
    nrows = 5 if v == "kids" else 4
    n = draw(st.integers(2, MAX_PLAYERS[v]))
    max_hand = min(15 if v == "kids" else 10, (104 - nrows * 5) // n)
    h = draw(st.integers(0, max_hand))
    sizes = draw(st.lists(st.integers(1, 5), min_size=nrows, max_size=nrows))
    room = 104 - sum(sizes) - n * h
    pile_sizes = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    while sum(pile_sizes) > room:
        pile_sizes[pile_sizes.index(max(pile_sizes))] -= 1
    total = sum(sizes) + n * h + sum(pile_sizes)
    cards = draw(st.permutations(range(1, 105)))[:total]
    it = iter(cards)
    rows = [sorted(next(it) for _ in range(s)) for s in sizes]
    hands = [[next(it) for _ in range(h)] for _ in range(n)]
    piles = [[next(it) for _ in range(s)] for s in pile_sizes]
    totals = draw(st.lists(st.integers(0, 400), min_size=n, max_size=n))
    deck = None
    if draw(st.booleans()):
        deck = draw(st.integers(max(max(cards), n * max(1, h) + nrows), 104))
    return Position.create(v, rows, hands, piles, totals, deck)


@given(positions())
def test_text_round_trip(p: Position) -> None:
    text = format_position(p)
    assert parse_position(text) == p
    assert load_position(text) == p
    assert str(p) == text
    assert format_position(parse_position(text)) == text
    assert "\n" not in text


@given(positions())
def test_json_round_trip(p: Position) -> None:
    d = p.to_json()
    assert position_from_json(d) == p
    text = json.dumps(d)
    assert position_from_json(text) == p
    assert load_position(text) == p
    assert json.loads(text) == d


@given(positions())
def test_repr_evaluates_back(p: Position) -> None:
    assert eval(repr(p), {"parse_position": parse_position}) == p


@given(positions())
def test_generated_positions_are_valid(p: Position) -> None:
    p.validate()
    cards = [c for g in (p.rows, p.hands, p.piles) for cs in g for c in cs]
    assert len(cards) == len(set(cards)) == len(p.cards())
    assert all(1 <= c <= p.rules.deck_size for c in cards)


@given(positions(variant="kids"))
def test_kids_hands_keep_pile_order(p: Position) -> None:
    q = parse_position(format_position(p))
    assert q.hands == p.hands
    assert q.rules.pile_play


def test_other_hands_are_sets() -> None:
    a = parse_position("standard 1/2/3/4 9,5|7,6")
    assert a.hands == ((5, 9), (6, 7))
    assert format_position(a) == "standard 1/2/3/4 5,9|6,7"
    k = parse_position("kids 1/2/3/4/8 9,5|7,6")
    assert k.hands == ((9, 5), (7, 6))


def test_docstring_examples() -> None:
    p = parse_position("logik:24 3/17,20/23/24 4,9|2,13")
    assert p.variant is Variant.LOGIK and p.rules.deck_size == 24 and p.named_deck
    assert p.rows == ((3,), (17, 20), (23,), (24,))
    q = parse_position("standard 12/37/43/58 14,61|15,44 -|55 0,12")
    assert q.piles == ((), (55,)) and q.totals == (0, 12)
    assert format_position(q) == "standard 12/37/43/58 14,61|15,44 -|55 0,12"


def test_json_example_from_the_brief() -> None:
    data = {"variant": "logik", "rows": [[3], [17, 20], [58], [96]], "hands": [[4, 90], [93, 2]]}
    p = position_from_json(data)
    assert p.variant is Variant.LOGIK
    assert p.rows == ((3,), (17, 20), (58,), (96,))
    assert p.hands == ((4, 90), (2, 93))
    assert p.players == 2
    assert position_from_json(json.dumps(data)) == p
    assert load_position("  " + json.dumps(data)) == p
    full = {**data, "piles": [[], [55]], "totals": [0, 12], "deck": 104}
    q = position_from_json(full)
    assert q.piles == ((), (55,)) and q.totals == (0, 12) and q.rules.deck_size == 104
    assert not q.named_deck  # the full deck needs no name: "deck": 104 formats as plain "logik"


# -- malformed input: the text form ------------------------------------------------------------

BAD_TEXT: list[tuple[str, type[Exception], str]] = [
    # (input, error class, words the message must contain)
    ("standard 1/2/3/4 1,5|6,7", PositionError, "appears twice"),
    ("standard 1/2/3/4 5,6|6,7", PositionError, "appears twice"),
    ("standard 1/2/3/4 5|6 7|4", PositionError, "appears twice"),
    ("logik:24 3/17,20/23/24 4,30|2,13", PositionError, "outside the deck 1..24"),
    ("standard 0/2/3/4 5|6", PositionError, "card 0"),
    ("standard 1/2/3/4 5|105", PositionError, "card 105"),
    ("standard 1/2/3/4 5|-6", PositionError, "card -6"),
    ("standard 1,2,3,4,5,6/10/20/30 40|50", PositionError, "6 cards"),
    ("standard 2,1/10/20/30 40|50", PositionError, "not strictly ascending"),
    ("standard 1/10,20,15/30/40 50|60", PositionError, "not strictly ascending"),
    ("standard 1//3/4 5|6", NotationError, "row 2"),
    ("standard 1/2/3/4 5,6|7", PositionError, "unequal sizes"),
    ("standard 1/2/3 5|6", PositionError, "3 rows"),
    ("kids 1/2/3/4 5|6", PositionError, "4 rows"),
    ("standard 1/2/3/4/5 6|7", PositionError, "5 rows"),
    ("standard 1/2/3/4 5", PositionError, "2..10 hands"),
    ("standard 1/2/3/4 5|6|7|8|9|10|11|12|13|14|15", PositionError, "2..10 hands"),
    ("poker 1/2/3/4 5|6", NotationError, "unknown variant 'poker'"),
    ("standard 1/2/3/4", NotationError, "3 to 5"),
    ("standard 1/2/3/4 5|6 -|- 0,0 extra", NotationError, "3 to 5"),
    ("", NotationError, "got 0"),
    ("standard 1/2/x/4 5|6", NotationError, "'x' is not a number"),
    ("standard 1/2/3/4 5|6 -|-|- ", NotationError, "3 bull piles for 2 hands"),
    ("standard 1/2/3/4 5|6 -|- 1,2,3", NotationError, "3 totals for 2 hands"),
    ("standard 1/2/3/4 5|6 -|- 0,-1", PositionError, "non-negative"),
    ("standard:0 1/2/3/4 5|6", PositionError, "deck"),
    ("standard:105 1/2/3/4 5|6", PositionError, "deck"),
    ("standard: 1/2/3/4 5|6", NotationError, "deck"),
    ("kids 1/2/3/4/5 6|7|8|9|10|11|12", PositionError, "kids with 7 players"),
    ("standard 1/2/3/4 ５|6", NotationError, "not a number"),
    ("standard 1/2/3/4 5|6 -|- 0," + "9" * 5000, NotationError, "too long"),
]


@pytest.mark.parametrize(("text", "error", "words"), BAD_TEXT)
def test_bad_text(text: str, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as exc:
        parse_position(text)
    message = str(exc.value)
    assert words in message
    assert "\n" not in message
    with pytest.raises(error):
        load_position(text)


def test_error_classes() -> None:
    assert issubclass(NotationError, PositionError)
    assert issubclass(PositionError, Take6Error)
    assert issubclass(Take6Error, ValueError)


def test_parse_rejects_non_text() -> None:
    with pytest.raises(NotationError):
        parse_position(42)  # type: ignore[arg-type]


# -- malformed input: the JSON form ------------------------------------------------------------

GOOD: dict[str, Any] = {"variant": "standard", "rows": [[1], [2], [3], [4]], "hands": [[5], [6]]}

BAD_JSON: list[tuple[Any, type[Exception], str]] = [
    ({**GOOD, "colour": "red"}, NotationError, "unknown key"),
    ({"rows": GOOD["rows"], "hands": GOOD["hands"]}, NotationError, "lacks 'variant'"),
    ({"variant": "standard", "hands": GOOD["hands"]}, NotationError, "lacks 'rows'"),
    ({"variant": "standard", "rows": GOOD["rows"]}, NotationError, "lacks 'hands'"),
    ({**GOOD, "variant": 5}, NotationError, "variant must be a string"),
    ({**GOOD, "variant": "poker"}, NotationError, "unknown variant"),
    ({**GOOD, "rows": "1/2/3/4"}, NotationError, "'rows' must be a list"),
    ({**GOOD, "hands": {"a": 1}}, NotationError, "'hands' must be a list"),
    ({**GOOD, "piles": 7}, NotationError, "'piles' must be a list"),
    ({**GOOD, "totals": "0,0"}, NotationError, "'totals' must be a list"),
    ({**GOOD, "totals": [0, "1"]}, PositionError, "total 2"),
    ({**GOOD, "totals": [0, True]}, PositionError, "total 2"),
    ({**GOOD, "totals": [0, 1.5]}, PositionError, "total 2"),
    ({**GOOD, "totals": [0]}, NotationError, "1 totals for 2 hands"),
    ({**GOOD, "piles": [[]]}, NotationError, "1 bull piles for 2 hands"),
    ({**GOOD, "deck": "104"}, NotationError, "'deck' must be an integer"),
    ({**GOOD, "deck": True}, NotationError, "'deck' must be an integer"),
    ({**GOOD, "deck": 3}, PositionError, "deck"),
    ({**GOOD, "hands": [[5.0], [6]]}, PositionError, "not a card number"),
    ({**GOOD, "hands": [[True], [6]]}, PositionError, "not a card number"),
    ({**GOOD, "hands": ["5", "6"]}, PositionError, "must be a list of cards"),
    ({**GOOD, "hands": [5, 6]}, PositionError, "must be a list of cards"),
    ({**GOOD, "rows": [[1], [None], [3], [4]]}, PositionError, "not a card number"),
    ({**GOOD, "rows": [[1], [], [3], [4]]}, PositionError, "row 2 is empty"),
    ({**GOOD, "rows": [[1], [2], [3]]}, PositionError, "3 rows"),
    ({**GOOD, "variant": "kids"}, PositionError, "4 rows, but kids has 5"),
    ({**GOOD, "rows": [[1, 2, 3, 4, 7, 8], [9], [10], [11]]}, PositionError, "6 cards"),
    ({**GOOD, "rows": [[1], [3, 2], [10], [11]]}, PositionError, "not strictly ascending"),
    ({**GOOD, "hands": [[5], [5]]}, PositionError, "appears twice"),
    ({**GOOD, "hands": [[5, 7], [6]]}, PositionError, "unequal sizes"),
    ({**GOOD, "hands": [[0], [6]]}, PositionError, "card 0"),
    ({**GOOD, "hands": [[105], [6]]}, PositionError, "card 105"),
    ({**GOOD, "variant": "logik", "deck": 24, "hands": [[30], [6]]}, PositionError, "outside"),
    ([1, 2, 3], NotationError, "must be an object"),
]


@pytest.mark.parametrize(("data", "error", "words"), BAD_JSON)
def test_bad_json(data: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as exc:
        position_from_json(data)
    message = str(exc.value)
    assert words in message
    assert "\n" not in message
    # The same through JSON text and load_position (objects only: load_position needs "{").
    with pytest.raises(error):
        position_from_json(json.dumps(data))
    if isinstance(data, dict):
        with pytest.raises(error):
            load_position(json.dumps(data, indent=2))


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        '{"variant": "standard",}',
        "{",
        '{"variant": "standard", "rows": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"variant": "standard", "rows": [[' + "9" * 5000 + "]]}",
    ],
)
def test_bad_json_text(text: str) -> None:
    with pytest.raises(NotationError) as exc:
        load_position(text)
    assert "\n" not in str(exc.value)
    assert "JSON" in str(exc.value)


def test_deeply_nested_value_in_valid_json() -> None:
    deep: Any = [1]
    for _ in range(800):
        deep = [deep]
    with pytest.raises(PositionError) as exc:
        position_from_json({**GOOD, "rows": [deep, [2], [3], [4]]})
    assert "\n" not in str(exc.value)


# -- fuzzing: nothing but a one-line Take6Error escapes -----------------------------------------

NOTATION_ALPHABET = st.sampled_from(list("0123456789,/|-: +") + [v.value for v in Variant])


def only_take6_errors(fn: Any, arg: Any) -> None:
    try:
        fn(arg)
    except Take6Error as exc:
        assert "\n" not in str(exc)
        assert str(exc)


@given(st.text())
def test_fuzz_arbitrary_text(text: str) -> None:
    only_take6_errors(parse_position, text)
    only_take6_errors(load_position, text)
    only_take6_errors(position_from_json, text)


@given(st.lists(NOTATION_ALPHABET, max_size=40).map("".join))
def test_fuzz_notation_like_text(text: str) -> None:
    only_take6_errors(parse_position, text)
    only_take6_errors(load_position, text)


@given(positions(), st.integers(0, 200), st.sampled_from(list("0123456789,/|- :x")))
def test_fuzz_mutated_valid_text(p: Position, at: int, ch: str) -> None:
    text = format_position(p)
    at %= len(text) + 1
    for mutated in (text[:at] + ch + text[at:], text[:at] + ch + text[at + 1 :]):
        only_take6_errors(parse_position, mutated)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 110) | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=30,
)
CARD_LISTS = st.lists(st.lists(st.integers(-1, 106), max_size=6), max_size=11)


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "variant": st.sampled_from([v.value for v in Variant]) | JSON_VALUES,
            "rows": CARD_LISTS | JSON_VALUES,
            "hands": CARD_LISTS | JSON_VALUES,
            "piles": CARD_LISTS | JSON_VALUES,
            "totals": st.lists(st.integers(-1, 100), max_size=11) | JSON_VALUES,
            "deck": st.integers(-1, 106) | JSON_VALUES,
            "extra": JSON_VALUES,
        },
    )
)
def test_fuzz_json_objects(data: dict[str, Any]) -> None:
    only_take6_errors(position_from_json, data)
    text = json.dumps(data)
    only_take6_errors(position_from_json, text)
    only_take6_errors(load_position, text)


@given(JSON_VALUES)
def test_fuzz_arbitrary_json_values(value: Any) -> None:
    only_take6_errors(position_from_json, json.dumps(value))
    if isinstance(value, dict):
        only_take6_errors(position_from_json, value)
