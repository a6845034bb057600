"""The core's one turn: :func:`take6.resolve_turn` against worked examples and the transition
function (:func:`take6.step`), which is built on it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from take6 import (
    ChooseRow,
    IllegalActionError,
    Phase,
    Placed,
    Play,
    Rules,
    Side,
    State,
    TurnEnded,
    apply,
    legal_actions,
    new_game,
    random_deal,
    resolve_turn,
    step,
)
from take6.turn import Revealed, reveal

STANDARD = Rules.for_variant("standard", players=4)


def test_readme_example() -> None:
    """README, ``take6 turn --rows 12/37/43/58 --plays 5,15,44,61 --choose 2``."""
    rows = ((12,), (37,), (43,), (58,))
    pending = resolve_turn(rows, [5, 15, 44, 61], STANDARD)
    assert pending.pending is not None and pending.pending.player == 0
    assert pending.placed == () and pending.rows == rows
    assert [m.row for m in pending.pending.placement.options] == [0, 1, 2, 3]
    turn = resolve_turn(rows, [5, 15, 44, 61], STANDARD, [1])
    assert turn.complete and turn.choices == ((0, 1),)
    assert turn.rows == ((12, 15), (5,), (43, 44), (58, 61))
    assert turn.placed[0] == Placed(0, 5, 1, Side.TAKE, (37,), 1)
    assert turn.taken(4) == ((37,), (), (), ()) and turn.heads(4) == (1, 0, 0, 0)


def test_bad_choices_are_refused() -> None:
    rows = ((12,), (37,), (43,), (58,))
    with pytest.raises(IllegalActionError, match="may take row 1, 2, 3, 4, not row 5"):
        resolve_turn(rows, [5, 15, 44, 61], STANDARD, [4])
    with pytest.raises(IllegalActionError, match="2 row choice"):
        resolve_turn(rows, [5, 15, 44, 61], STANDARD, [1, 2])


def test_reveal_order() -> None:
    assert reveal([30, 10, 20], Rules.for_variant("standard", players=3)) == (
        (10, 1),
        (20, 2),
        (30, 0),
    )
    kids = Rules.for_variant("kids", players=3)
    assert reveal({2: 5, 0: 9, 1: 1}, kids) == ((9, 0), (1, 1), (5, 2))


VARIANTS = ["standard", "taktik", "logik", "profi"]


@st.composite
def turns(draw: Any) -> tuple[State, list[int], list[int]]:
    """A state at the start of a turn of a random game, the cards played (by seat) and the row
    choices (as option indices; wrapped around the options there are)."""
    variant = draw(st.sampled_from(VARIANTS))
    players = draw(st.integers(2, 6))
    rules = Rules.for_variant(variant, players=players)
    rng = random.Random(draw(st.integers(0, 2**32)))
    state = new_game(rules)
    steps = draw(st.integers(0, 200))  # random actions first, then on to the start of a turn
    while steps > 0 or state.phase is not Phase.CHOOSE or any(c is not None for c in state.chosen):
        steps -= 1
        if state.is_over:
            state = new_game(rules)
        if state.phase is Phase.DEAL:
            state = apply(state, random_deal(state, rng))
            continue
        acts = legal_actions(state)
        state = apply(state, acts[rng.randrange(len(acts))])
    cards = [draw(st.sampled_from(h)) for h in state.hands]
    choices = draw(st.lists(st.integers(0, 9), min_size=players, max_size=players))
    return state, cards, choices


@given(turns())
def test_resolve_turn_is_the_engines_turn(case: tuple[State, list[int], list[int]]) -> None:
    """A turn played action by action through :func:`step` places the same cards on the same
    rows, takes the same cards and reports the same events as one :func:`resolve_turn`."""
    state, cards, picks = case
    events: list[Any] = []
    for p, c in enumerate(cards):
        state_after, evs = step(state, Play(p, c))
        events.extend(evs)
        state = state_after
    rows_chosen: list[int] = []
    k = 0
    while state.phase is Phase.ROW_CHOICE:
        assert state.pending is not None
        options = state.pending.placement.options
        row = options[picks[k % len(picks)] % len(options)].row
        k += 1
        rows_chosen.append(row)
        state, evs = step(state, ChooseRow(state.pending.player, row))
        events.extend(evs)
    revealed = [e for e in events if isinstance(e, Revealed)]
    assert revealed == [Revealed(tuple(enumerate(cards)))]
    assert sum(isinstance(e, TurnEnded) for e in events) == 1
    placed = tuple(e for e in events if isinstance(e, Placed))
    before = case[0]
    turn = resolve_turn(before.rows, cards, before.rules, rows_chosen)
    assert turn.complete and turn.placed == placed
    assert [r for _, r in turn.choices] == rows_chosen
    if state.phase is Phase.CHOOSE and state.round == before.round:
        assert turn.rows == state.rows
        assert all(
            state.piles[p] == before.piles[p] + turn.taken(before.players)[p]
            for p in range(before.players)
        )
