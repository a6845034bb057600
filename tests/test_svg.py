"""SVG pictures: well-formed XML, every card of the position or state drawn once, text escaped,
and the ``_repr_svg_`` hooks Jupyter uses."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from take6 import (
    EndCondition,
    Phase,
    Play,
    Position,
    Rules,
    State,
    apply,
    from_position,
    legal_actions,
    new_game,
    parse_position,
    random_deal,
)
from take6.cards import HEADS
from take6.display.svg import card_svg, position_svg, state_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert float(root.attrib["width"]) > 0 and float(root.attrib["height"]) > 0
    return root


def drawn_cards(root: ET.Element, dashed: bool | None = None) -> Counter[int]:
    """Card numbers drawn, from each card group's number text (checked against its data-card)."""
    out: Counter[int] = Counter()
    for g in root.iter(f"{SVG}g"):
        if g.attrib.get("class") != "card":
            continue
        rect = g.find(f"{SVG}rect")
        assert rect is not None
        if dashed is not None and ("stroke-dasharray" in rect.attrib) != dashed:
            continue
        number = g.find(f"{SVG}text")
        assert number is not None and number.text is not None
        assert number.text == g.attrib["data-card"]
        card = int(number.text)
        assert len(g.findall(f"{SVG}circle")) == HEADS[card]
        out[card] += 1
    return out


def all_text(root: ET.Element) -> str:
    return " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


POSITIONS = [
    "standard 12/37/43/58 14,61|15,44",
    "standard 12/37/43/58 14,61|15,44 -|55 0,12",
    "logik:24 3/17,20/23/24 4,9|2,13",
    "profi 1,2,3,4,5/30/55/99 6,7|8,100|9,101",
    "kids 3/17/20/58/96 4,1,60|90,2,50",
    "taktik:24 1/2/3/4 5,6|7,8",
]


@pytest.mark.parametrize("text", POSITIONS)
def test_position_svg_draws_every_card_once(text: str) -> None:
    pos = parse_position(text)
    root = parse(position_svg(pos))
    assert drawn_cards(root) == Counter(pos.cards())
    words = all_text(root)
    assert pos.rules.variant.value in words
    for p in range(pos.players):
        assert f"P{p + 1}" in words
        total = pos.totals[p] + sum(HEADS[c] for c in pos.piles[p])
        assert f"total {total}" in words
    assert pos._repr_svg_() == position_svg(pos)


def test_position_svg_shows_row_heads_and_empty_places() -> None:
    root = parse(position_svg(parse_position("standard 55/37,40/43/58 14|15")))
    words = all_text(root)
    assert "1 card, 7 heads" in words and "2 cards, 4 heads" in words
    slots = [r for r in root.iter(f"{SVG}rect") if r.attrib.get("stroke-dasharray") == "3 3"]
    assert len(slots) == 4 * 5 - 5  # capacity 5 per row, 5 cards on the table


def _walk(rules: Rules, seed: int) -> list[State]:
    """Every state of a random game (every phase appears)."""
    rng = random.Random(seed)
    state = new_game(rules)
    states = [state]
    while not state.is_over:
        if state.phase is Phase.DEAL:
            state = apply(state, random_deal(state, rng))
        else:
            state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


def _cards_of(state: State) -> Counter[int]:
    cards: Counter[int] = Counter()
    for group in (state.rows, state.hands, state.piles):
        for cs in group:
            cards.update(cs)
    cards.update(state.pool)
    cards.update(c for c in state.chosen if c is not None)
    cards.update(c for c, _ in state.queue)
    return cards


@pytest.mark.parametrize(
    ("variant", "players"),
    [("standard", 3), ("logik", 2), ("profi", 4), ("kids", 2), ("taktik", 2)],
)
def test_state_svg_along_a_game(variant: str, players: int) -> None:
    rules = Rules.for_variant(variant, players=players, hand_size=4).with_(
        end=EndCondition(target=None, rounds=2)
    )
    seen = set()
    for i, state in enumerate(_walk(rules, seed=players)):
        seen.add(state.phase)
        if i % 3 and state.phase is not Phase.ROW_CHOICE and not state.is_over:
            continue  # every third state, and every row choice and the end
        root = parse(state_svg(state))
        assert drawn_cards(root) == _cards_of(state)
        chosen = Counter(c for c in state.chosen if c is not None)
        assert drawn_cards(root, dashed=True) == chosen
        words = all_text(root)
        if state.pending is not None:
            assert f"P{state.pending.player + 1} chooses the row for {state.pending.card}" in words
        if state.is_over:
            assert "game over" in words and "★" in words
        if state.phase is Phase.DRAFT:
            assert f"P{state.picker + 1} picks" in words
    assert Phase.GAME_OVER in seen and Phase.CHOOSE in seen


def test_state_repr_svg_and_chosen_cards() -> None:
    pos = parse_position("standard 12/37/43/58 5,70|15,71")
    state = apply(from_position(pos), Play(0, 5))
    svg = state._repr_svg_()
    assert svg == state_svg(state)
    root = parse(svg)
    assert drawn_cards(root, dashed=True) == Counter([5])
    state = apply(state, Play(1, 15))
    assert state.phase is Phase.ROW_CHOICE
    words = all_text(parse(state_svg(state)))
    assert "P1 chooses the row for 5 (too-low): rows 1, 2, 3, 4" in words


def test_text_is_escaped() -> None:
    svg = card_svg(7, 0, 0, note='<b>"&"</b>', face_down=True)
    g = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{svg}</svg>')
    title = g.find(f"{SVG}g/{SVG}title")
    assert title is not None and title.text == '7: 1 bull head (<b>"&"</b>)'


@given(st.integers(2, 10), st.integers(0, 2**32))
def test_any_dealt_position_is_well_formed(players: int, seed: int) -> None:
    state = new_game(Rules.for_variant("standard", players=players))
    state = apply(state, random_deal(state, random.Random(seed)))
    pos: Position = state.position()
    root = parse(position_svg(pos))
    assert drawn_cards(root) == Counter(pos.cards())
    assert drawn_cards(parse(state_svg(state))) == Counter(pos.cards())
