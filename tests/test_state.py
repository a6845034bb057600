"""State construction from positions and back; error messages name the seat as the action does."""

from __future__ import annotations

import pytest

from take6 import (
    CardError,
    IllegalActionError,
    Phase,
    Play,
    Take6Error,
    apply,
    deck,
    from_position,
    heads,
    parse_position,
)


@pytest.mark.parametrize(
    "text",
    [
        "standard 12/37/43/58 14,61|15,44",
        "logik:24 3/17,20/23/24 4,9|2,13",
        "taktik:34 1/2/3/4 5,6|7,8|9,10 -|-|- 0,12,40",
        "kids 1/2/3/4/5 9,7|8,6",
        "profi 12/37/43/58 14,61|15,44 -|55 0,12",
    ],
)
def test_position_survives_a_state(text: str) -> None:
    pos = parse_position(text)
    assert from_position(pos).position() == pos
    assert str(from_position(pos).position()) == text


def test_finished_hands_score_the_round() -> None:
    # Hands empty: the round is over; its bull piles (7 -> 1 head, 55 -> 7) are scored at once.
    state = from_position(parse_position("standard 1/2/3/4 -|- 7|55 3,4"))
    assert state.round_scores == ((1, 7),)
    assert state.totals == (4, 11)
    assert state.phase is Phase.DEAL  # nobody reached 66: a new round is due
    over = from_position(parse_position("standard 1/2/3/4 -|- 7|55 3,60"))
    assert over.phase is Phase.GAME_OVER and over.totals == (4, 67)
    assert over.winners() == (0,)


def test_illegal_action_message_names_seat_and_state() -> None:
    state = from_position(parse_position("standard 12/37/43/58 14,61|15,44"))
    with pytest.raises(IllegalActionError) as info:
        apply(state, Play(1, 14))
    msg = str(info.value)
    assert "player 2 plays 14" in msg
    assert "not in player 2's hand" in msg
    assert "standard 12/37/43/58 14,61|15,44" in msg
    state = apply(state, Play(0, 14))
    with pytest.raises(IllegalActionError, match="player 1 is not to act"):
        apply(state, Play(0, 61))


@pytest.mark.parametrize("bad", [0, 105, -3])
def test_bad_card_numbers_are_typed_errors(bad: int) -> None:
    with pytest.raises(CardError, match=str(bad)):
        heads(bad)
    assert issubclass(CardError, Take6Error) and issubclass(CardError, ValueError)


def test_bad_deck_size() -> None:
    with pytest.raises(CardError, match="deck size 105"):
        deck(105)


def test_from_position_with_other_rules_is_validated() -> None:
    from take6 import EndCondition, PositionError, Rules

    pos = parse_position("standard 12/37/43/58 14,61|15,44")
    one_round = pos.rules.with_(end=EndCondition(target=None, rounds=1))
    state = from_position(pos, one_round)
    assert state.rules == one_round and state.rows == pos.rows and state.hands == pos.hands
    with pytest.raises(PositionError, match="2 hands for 3 players"):
        from_position(pos, Rules.for_variant("standard", players=3))
    with pytest.raises(PositionError, match="4 rows, but kids has 5"):
        from_position(pos, Rules.for_variant("kids", players=2))
    with pytest.raises(PositionError, match=r"outside the deck 1\.\.24"):
        from_position(pos, Rules.for_variant("taktik", players=2))
