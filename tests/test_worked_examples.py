"""The worked examples of the sources, played through the engine, and named rule cases.

Seed 002 ("Toma 5") walks through one turn on the rows 3 / 20 / 58 / 96 with the plays 4, 17, 90
and 93, then a too-low 2, then a 74 that would be the sixth card after 73. Seed 000 gives "33 goes
next to 30, not 29" and, for Profi, "10 goes to the left of 11".
"""

from __future__ import annotations

import random

import pytest

from take6 import (
    ChooseRow,
    Comparison,
    Deal,
    EndCondition,
    IllegalActionError,
    Phase,
    Pick,
    Placed,
    Play,
    Position,
    RoundScored,
    Rules,
    Side,
    State,
    apply,
    apply_all,
    from_position,
    legal_actions,
    new_game,
    parse_position,
    random_deal,
    step,
)


def at(text: str, **rules: object) -> State:
    """A state in the choose phase at the position ``text``, with some settings changed."""
    pos = parse_position(text)
    return from_position(pos, pos.rules.with_(**rules) if rules else None)


def play_turn(state: State, cards: list[int]) -> tuple[State, list[Placed]]:
    """Every player ``p`` plays ``cards[p]``; return the state and the cards placed."""
    placed: list[Placed] = []
    for p, c in enumerate(cards):
        state, events = step(state, Play(p, c))
        placed += [e for e in events if isinstance(e, Placed)]
    return state, placed


# -- seed 002 ----------------------------------------------------------------------------------


def test_seed_002_first_turn_4_17_90_93() -> None:
    s = at("standard 3/20/58/96 4,2|17,30|90,31|93,32")
    # Nothing is placed until every player has chosen; then lowest first.
    s, placed = play_turn(s, [4, 17, 90, 93])
    assert [(e.card, e.row, e.side) for e in placed] == [
        (4, 0, Side.RIGHT),  # 4 after 3: the only row below it
        (17, 0, Side.RIGHT),  # 17 after 4: lower than 20, 58, 96
        (90, 2, Side.RIGHT),  # 90 after 58: closer than 4; 96 is above it
        (93, 2, Side.RIGHT),  # 93 after 90
    ]
    assert all(e.taken == () for e in placed)
    assert s.rows == ((3, 4, 17), (20,), (58, 90, 93), (96,))
    assert s.phase is Phase.CHOOSE and s.turn == 1


def test_seed_002_cards_are_placed_lowest_first_whatever_the_seat() -> None:
    s = at("standard 3/20/58/96 93,2|90,30|17,31|4,32")
    s, placed = play_turn(s, [93, 90, 17, 4])
    assert [e.card for e in placed] == [4, 17, 90, 93]
    assert [e.player for e in placed] == [3, 2, 1, 0]
    assert s.rows == ((3, 4, 17), (20,), (58, 90, 93), (96,))


def test_seed_002_too_low_two_takes_the_chosen_row_in_place() -> None:
    s = at("standard 3/20/58/96 2|30|31|32")
    s, placed = play_turn(s, [2, 30, 31, 32])
    # 2 is below every row's last card: its owner must choose; nothing else is placed yet.
    assert placed == []
    assert s.phase is Phase.ROW_CHOICE
    assert s.to_act() == (0,)
    assert legal_actions(s) == [ChooseRow(0, r) for r in range(4)]
    # The player takes the bottom row (96); 2 replaces it in place.
    s, events = step(s, ChooseRow(0, 3))
    first = events[0]
    assert isinstance(first, Placed)
    assert (first.player, first.card, first.row, first.side, first.taken) == (
        0,
        2,
        3,
        Side.TAKE,
        (96,),
    )
    # The round ended (hands of one card): 96 is one head for player 1.
    scored = events[-1]
    assert isinstance(scored, RoundScored)
    assert scored.heads == (1, 0, 0, 0)
    assert s.round_scores == ((1, 0, 0, 0),)


def test_seed_002_too_low_keeps_rows_in_place() -> None:
    s = at("standard 3/20/58/96 2,50|30,51|31,52|32,53")
    s, _ = play_turn(s, [2, 30, 31, 32])
    s = apply(s, ChooseRow(0, 3))
    assert s.rows == ((3,), (20, 30, 31, 32), (58,), (2,))
    assert s.piles == ((96,), (), (), ())
    assert s.score(0) == 1


def test_seed_002_sixth_card_74_takes_the_five() -> None:
    s = at("standard 10/50,60,70,72,73/80/90 74,1|75,5")
    s, placed = play_turn(s, [74, 75])
    assert (placed[0].card, placed[0].row, placed[0].taken) == (74, 1, (50, 60, 70, 72, 73))
    assert placed[0].side is Side.TAKE
    assert s.rows == ((10,), (74, 75), (80,), (90,))
    assert s.piles[0] == (50, 60, 70, 72, 73)
    assert s.round_heads(0) == 3 + 3 + 3 + 1 + 1
    assert s.piles[1] == ()


def test_seed_002_21_heads_example() -> None:
    # Seed 002's scoring picture: a player's pile counted 21 heads. One pile that does: 55 (7),
    # 11 (5), 20 (3), 25 (2), 1, 2, 3, 4 (1 each) = 21.
    s = at("standard 30/40/50/60 70|80 55,11,20,25,1,2,3,4|-", end=EndCondition(rounds=1))
    s, _ = play_turn(s, [70, 80])
    assert s.round_scores == ((21, 0),)
    assert s.is_over


# -- seed 000 ----------------------------------------------------------------------------------


def test_seed_000_33_goes_next_to_30_not_29() -> None:
    s = at("standard 29/30/12/50 33,1|51,2")
    s, placed = play_turn(s, [33, 51])
    assert (placed[0].card, placed[0].row) == (33, 1)
    assert s.rows == ((29,), (30, 33), (12,), (50, 51))


def test_seed_000_profi_10_goes_left_of_11() -> None:
    s = at("profi 11,13/40/50/60 10,1|70,2")
    s, placed = play_turn(s, [10, 70])
    assert (placed[0].card, placed[0].row, placed[0].side) == (10, 0, Side.LEFT)
    assert s.rows[0] == (10, 11, 13)
    # The same card in the standard game is too low.
    std = at("standard 11,13/40/50/60 10,1|70,2")
    std, _ = play_turn(std, [10, 70])
    assert std.phase is Phase.ROW_CHOICE


def test_profi_tie_owner_chooses() -> None:
    # Card 20: one row ends 18, another starts 22 — equal distance; the owner chooses.
    s = at("profi 5,18/22,30/50/60 20,1|70,2")
    s, _ = play_turn(s, [20, 70])
    assert s.phase is Phase.ROW_CHOICE
    assert legal_actions(s) == [ChooseRow(0, 0), ChooseRow(0, 1)]
    with pytest.raises(IllegalActionError, match="chooses row"):
        apply(s, ChooseRow(0, 2))
    left = apply(s, ChooseRow(0, 1))
    assert left.rows[:2] == ((5, 18), (20, 22, 30))
    right = apply(s, ChooseRow(0, 0))
    assert right.rows[:2] == ((5, 18, 20), (22, 30))


def test_profi_fits_nowhere_owner_takes_a_row() -> None:
    s = at("profi 10,60/20,70/30,80/40,90 50,1|95,2")
    s, _ = play_turn(s, [50, 95])
    assert s.phase is Phase.ROW_CHOICE
    s = apply(s, ChooseRow(0, 2))
    assert s.rows == ((10, 60), (20, 70), (50,), (40, 90, 95))
    assert s.piles[0] == (30, 80)


# -- illegal actions ---------------------------------------------------------------------------


def test_illegal_action_names_action_and_state() -> None:
    s = at("standard 3/20/58/96 4,2|17,30")
    with pytest.raises(IllegalActionError) as exc:
        apply(s, Play(0, 5))
    msg = str(exc.value)
    assert "player 1 plays 5" in msg
    assert "not in player 1's hand" in msg
    assert "round 1, turn 1" in msg and "3/20/58/96" in msg
    assert "\n" not in msg


def test_choose_row_not_an_option() -> None:
    s = at("standard 3/20/58/96 2,40|30,31")
    s, _ = play_turn(s, [2, 30])
    for row in (4, -1, 17):
        with pytest.raises(IllegalActionError, match=f"row {row + 1}"):
            apply(s, ChooseRow(0, row))


def test_choose_row_when_no_choice_is_due() -> None:
    s = at("standard 3/20/58/96 4,2|17,30")
    with pytest.raises(IllegalActionError, match="choose phase"):
        apply(s, ChooseRow(0, 1))


def test_out_of_turn() -> None:
    s = at("standard 3/20/58/96 2,40|30,31|32,33")
    s = apply(s, Play(0, 2))
    # Player 1 already chose: a second card this turn is out of turn.
    with pytest.raises(IllegalActionError, match="not to act"):
        apply(s, Play(0, 40))
    s = apply_all(s, [Play(1, 30), Play(2, 32)])
    assert s.phase is Phase.ROW_CHOICE
    # Only the too-low card's owner may act now.
    with pytest.raises(IllegalActionError, match="not to act"):
        apply(s, ChooseRow(1, 0))
    with pytest.raises(IllegalActionError, match="row-choice phase"):
        apply(s, Play(1, 31))
    with pytest.raises(IllegalActionError, match="no player"):
        apply(s, ChooseRow(3, 0))
    assert legal_actions(s, 1) == []
    assert legal_actions(s, 0) == legal_actions(s)


def test_not_an_action() -> None:
    s = at("standard 3/20/58/96 4,2|17,30")
    with pytest.raises(IllegalActionError, match="not an action"):
        apply(s, "Play 4")  # type: ignore[arg-type]


def test_no_deal_outside_the_deal_phase() -> None:
    s = at("standard 3/20/58/96 4,2|17,30")
    with pytest.raises(IllegalActionError, match="no deal"):
        apply(s, Deal(tuple(range(1, 105))))


def test_deal_must_be_a_permutation_of_the_deck() -> None:
    s = new_game(Rules.for_variant("taktik", players=2))
    with pytest.raises(IllegalActionError, match="permutation"):
        apply(s, Deal(tuple(range(1, 105))))
    with pytest.raises(IllegalActionError, match="permutation"):
        apply(s, Deal((1,) * 24))
    dealt = apply(s, Deal(tuple(range(24, 0, -1))))
    assert dealt.hands == (tuple(range(15, 25)), tuple(range(5, 15)))
    assert dealt.rows == ((4,), (3,), (2,), (1,))
    assert dealt.set_aside == ()


def test_standard_deal_layout() -> None:
    s = new_game(Rules.for_variant("standard", players=3))
    order = tuple(range(104, 0, -1))
    s = apply(s, Deal(order))
    assert s.hands == (
        tuple(range(95, 105)),
        tuple(range(85, 95)),
        tuple(range(75, 85)),
    )
    assert s.rows == ((74,), (73,), (72,), (71,))
    assert s.set_aside == tuple(range(1, 71))


def test_kids_must_play_the_top_of_the_pile() -> None:
    s = new_game(Rules.for_variant("kids", players=2))
    s = apply(s, random_deal(s, random.Random(7)))
    top = s.hands[0][0]
    assert legal_actions(s) == [Play(0, top)]
    other = s.hands[0][1]
    with pytest.raises(IllegalActionError, match="top card"):
        apply(s, Play(0, other))
    # One seat after another: player 2 waits for player 1.
    with pytest.raises(IllegalActionError, match="not to act"):
        apply(s, Play(1, s.hands[1][0]))
    s = apply(s, Play(0, top))
    assert s.to_act() == (1,) or s.phase is Phase.ROW_CHOICE


def test_kids_pile_order_is_kept_from_the_deal() -> None:
    s = new_game(Rules.for_variant("kids", players=2))
    order = tuple(range(104, 0, -1))
    s = apply(s, Deal(order))
    assert s.hands[0] == tuple(range(104, 89, -1))
    assert s.hands[1] == tuple(range(89, 74, -1))
    assert s.rows == ((74,), (73,), (72,), (71,), (70,))


def test_logik_draft() -> None:
    rules = Rules.for_variant("logik", players=3, first_picker=1)
    s = new_game(rules)
    assert s.phase is Phase.DRAFT
    assert s.pool == tuple(range(1, 35))
    assert s.to_act() == (1,)
    with pytest.raises(IllegalActionError, match="not to act"):
        apply(s, Pick(0, 5))
    with pytest.raises(IllegalActionError, match="not face up"):
        apply(s, Pick(1, 35))
    s = apply(s, Pick(1, 5))
    with pytest.raises(IllegalActionError, match="not face up"):
        apply(s, Pick(2, 5))
    # Clockwise: 1, 2, 0, 1, 2, 0, ...; each takes the highest card left.
    seats = [1]
    while s.phase is Phase.DRAFT:
        p = s.to_act()[0]
        seats.append(p)
        s = apply(s, Pick(p, max(s.pool)))
    assert seats == [(1 + i) % 3 for i in range(30)]
    assert all(len(h) == 10 for h in s.hands)
    # The 4 cards nobody took start the rows.
    assert sorted(c for r in s.rows for c in r) == [1, 2, 3, 4]
    assert s.phase is Phase.CHOOSE and s.set_aside == ()


def test_logik_first_picker_moves_each_round() -> None:
    rules = Rules.for_variant(
        "logik", players=3, hand_size=1, first_picker=2, end=EndCondition(target=None, rounds=3)
    )
    s = new_game(rules)
    firsts = []
    rng = random.Random(3)
    while not s.is_over:
        if s.phase is Phase.DRAFT and not any(s.hands):
            firsts.append((s.round, s.to_act()[0]))
        actions = legal_actions(s)
        s = apply(s, actions[rng.randrange(len(actions))])
    assert firsts == [(1, 2), (2, 0), (3, 1)]


# -- end of the game and winners ---------------------------------------------------------------

# Player 1's last card 15 takes the row 10..14: 3 + 5 + 1 + 1 + 1 = 11 heads.
TAKE_11 = "standard 10,11,12,13,14/40/50/60 15|41 -|- 55,0"


def test_game_ends_at_66_with_at_least() -> None:
    s = at(TAKE_11)
    s, _ = play_turn(s, [15, 41])
    assert s.totals == (66, 0)
    assert s.is_over
    assert s.winners() == (1,)


def test_above_target_does_not_end_at_equality() -> None:
    s = at(TAKE_11, end=EndCondition(target=66, comparison=Comparison.ABOVE))
    s, _ = play_turn(s, [15, 41])
    assert s.totals == (66, 0)
    assert not s.is_over
    assert s.phase is Phase.DEAL and s.round == 2


def test_above_target_ends_above() -> None:
    s = at(TAKE_11, end=EndCondition(target=65, comparison=Comparison.ABOVE))
    s, _ = play_turn(s, [15, 41])
    assert s.is_over


def test_below_target_continues_with_a_new_deal() -> None:
    s = at("standard 10,11,12,13,14/40/50/60 15|41 -|- 54,0")
    s, _ = play_turn(s, [15, 41])
    assert s.totals == (65, 0)
    assert s.phase is Phase.DEAL
    assert s.hands == ((), ()) and s.rows == ()
    # The new round uses the whole deck again.
    s = apply(s, random_deal(s, random.Random(0)))
    assert sorted([c for h in s.hands for c in h] + [r[0] for r in s.rows] + list(s.set_aside)) == (
        list(range(1, 105))
    )


def test_fixed_number_of_rounds() -> None:
    s = at("standard 10/20/30/40 11|21 -|- 3,4", end=EndCondition(target=None, rounds=1))
    s, _ = play_turn(s, [11, 21])
    assert s.is_over and s.totals == (3, 4)


def test_winners_share_ties() -> None:
    s = at("standard 10/20/30/40 11|21|31 -|-|- 7,9,7", end=EndCondition(rounds=1))
    s, _ = play_turn(s, [11, 21, 31])
    assert s.is_over
    assert s.winners() == (0, 2)


def test_kids_most_heads_wins() -> None:
    pos = parse_position("kids 10/20/30/40/50 11|21|31 -|-|- 7,9,7")
    s = from_position(pos)
    assert s.rules.end.rounds == 1
    for p, c in enumerate([11, 21, 31]):
        assert s.to_act() == (p,)
        s = apply(s, Play(p, c))
    assert s.is_over
    assert s.winners() == (1,)


def test_kids_too_low_owner_chooses() -> None:
    s = from_position(parse_position("kids 10/20/30/40/50 5|60"))
    s = apply(s, Play(0, 5))
    assert s.phase is Phase.ROW_CHOICE
    assert legal_actions(s) == [ChooseRow(0, r) for r in range(5)]
    s = apply(s, ChooseRow(0, 4))
    assert s.piles[0] == (50,)
    assert s.to_act() == (1,)


def test_position_round_trip_through_state() -> None:
    pos = parse_position("logik:24 3/17,20/23/24 4,9|2,13")
    s = from_position(pos)
    assert s.position() == pos
    assert isinstance(s.position(), Position)
