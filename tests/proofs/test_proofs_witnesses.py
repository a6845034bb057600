"""Every z3 witness is replayed through the engine, and proved facts are checked on engine runs."""

from __future__ import annotations

import random
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs import deck, game, placement, sources
from proofs.core import Status
from proofs.model import profi_rule
from take6.cards import HEADS, MAX_ROW_HEADS, TOTAL_HEADS, total_heads
from take6.errors import RulesError
from take6.placement import Reason, apply_move, place
from take6.play.bots import RandomBot
from take6.play.game import play_game
from take6.rules import Rules
from take6.state import ChooseRow, Phase, Play, apply, new_game, random_deal, step


def _rows(w: dict[str, object]) -> list[tuple[int, ...]]:
    return [tuple(r) for r in cast(list[list[int]], w["rows"])]


def _card(w: dict[str, object], key: str = "card") -> int:
    card = w[key]
    assert isinstance(card, int)
    return card


def _check_table(rows: list[tuple[int, ...]], *extra: int) -> None:
    cards = [c for r in rows for c in r] + list(extra)
    assert len(cards) == len(set(cards))
    assert all(1 <= c <= 104 for c in cards)
    assert all(list(r) == sorted(r) and 1 <= len(r) <= 5 for r in rows)


def test_seed_001_literal_witness_replayed() -> None:
    result = sources.check_seed_001_literal()
    assert result.status is Status.FINDING
    w = result.witness
    assert w is not None
    assert w["cards"] == [51, 52, 53, 54, 56, 57, 58, 59]
    assert w["total"] == 179 and w["deck_total"] == TOTAL_HEADS == total_heads(range(1, 105))
    for c in cast(list[int], w["cards"]):
        assert HEADS[c] == 1 and "5" in str(c)
    # the literal total, recomputed without z3
    literal = sum(2 if ("5" in str(c) and HEADS[c] == 1) else HEADS[c] for c in range(1, 105))
    assert literal == 179
    assert w["two_classes"] == [50]  # contains a 5 and is a multiple of ten
    assert HEADS[50] == 3


def test_seed_002_witness_replayed() -> None:
    result = sources.check_seed_002_heads()
    assert result.status is Status.FINDING
    w = result.witness
    assert w is not None
    assert w["deck_table_fits"] is True
    assert w["other_table_total"] == 104 and w["other_table_values"] == [1]
    assert w["other_table_differs_at"] == [c for c in range(1, 105) if HEADS[c] != 1]


def test_profi_tie_witness_replayed() -> None:
    result = placement.check_profi_tie(profi_rule)
    assert result.status is Status.FINDING
    w = result.witness
    assert w is not None
    rows, card = _rows(w), _card(w)
    _check_table(rows, card)
    pl = place(rows, card, Rules.for_variant("profi", players=2))
    assert pl.reason is Reason.TIE
    assert {m.row for m in pl.options} == {w["right_row"], w["left_row"]}
    right, left = rows[_card(w, "right_row")], rows[_card(w, "left_row")]
    assert card - right[-1] == left[0] - card


def test_profi_no_fit_witness_replayed() -> None:
    result = placement.check_profi_no_fit(profi_rule)
    assert result.status is Status.FINDING
    w = result.witness
    assert w is not None
    rows, card = _rows(w), _card(w)
    _check_table(rows, card)
    pl = place(rows, card, Rules.for_variant("profi", players=2))
    assert pl.reason is Reason.NO_FIT
    assert all(r[0] < card < r[-1] for r in rows)


def test_max_take_witness_replayed() -> None:
    result = placement.check_max_take()
    assert result.status is Status.PROVED
    w = result.witness
    assert w is not None
    row = w["row"]
    assert isinstance(row, list)
    _check_table([tuple(row)])
    assert total_heads(row) == w["heads"] == MAX_ROW_HEADS
    # a 6th card on that row takes it whole, worth 27
    rules = Rules.for_variant("standard", players=2)
    table = (tuple(row), (1,), (2,), (3,))
    pl = place(table, 100, rules)
    if pl.reason is Reason.FORCED and pl.options[0].row == 0:
        _, taken = apply_move(table, 100, pl.options[0], rules.row_capacity)
        assert total_heads(taken) == MAX_ROW_HEADS


def test_kids_row_choice_witness_replayed() -> None:
    result = sources.check_kids_row_choice()
    assert result.status is Status.FINDING
    w = result.witness
    assert w is not None
    rows, card = _rows(w), _card(w)
    _check_table(rows, card)
    kids = Rules.for_variant("kids", players=2)
    pl = place(rows, card, kids)
    assert pl.reason is Reason.TOO_LOW and len(pl.options) == kids.rows
    heads = [total_heads(r) for r in rows]
    assert heads == w["heads_by_row"] and len(set(heads)) > 1


def test_kids_turn_order_witness_replayed() -> None:
    result = sources.check_kids_turn_order()
    assert result.status is Status.FINDING
    w = result.witness
    assert w is not None
    rows, a, b = _rows(w), _card(w, "seat_1_card"), _card(w, "seat_2_card")
    _check_table(rows, a, b)

    def too_low_in(order: tuple[int, int], rules: Rules) -> bool:
        table = tuple(rows)
        hit = False
        for c in order:
            pl = place(table, c, rules)
            hit = hit or pl.reason is Reason.TOO_LOW
            table, _ = apply_move(table, c, pl.options[0], rules.row_capacity)
        return hit

    kids = Rules.for_variant("kids", players=2)
    assert too_low_in((a, b), kids) == w["too_low_in_seat_order"]
    assert too_low_in(tuple(sorted((a, b))), kids) == w["too_low_lowest_first"]  # type: ignore[arg-type]
    assert w["too_low_in_seat_order"] != w["too_low_lowest_first"]


def test_kids_limit_witness_replayed() -> None:
    result = sources.check_kids_player_limit()
    w = result.witness
    assert w is not None and w["players"] == [7, 8, 9, 10]
    for n in (7, 8, 9, 10):
        with pytest.raises(RulesError):
            Rules.for_variant("kids", players=n)
    Rules.for_variant("kids", players=6)
    assert deck.check_kids_players().witness == {"max_players": 6, "cards_needed": 95}


def test_logik_witnesses_replayed() -> None:
    w = sources.check_logik_players().witness
    assert w is not None and w["disputed"] == [7, 8, 9, 10]
    for n in (7, 8, 9, 10):  # the engine's decision: allow 2..10 (seed 000)
        assert Rules.for_variant("logik", players=n).deck_size == 10 * n + 4
    w = sources.check_logik_first_picker().witness
    assert w is not None and len(w["unsat_core"]) == 2  # type: ignore[arg-type]
    rules = Rules.for_variant("logik", players=3, first_picker=2)
    assert [rules.first_picker_in_round(r) for r in (1, 2, 3)] == [2, 0, 1]


def test_taktik_totals_match_engine() -> None:
    w = deck.check_taktik().witness
    assert w is not None
    totals = w["heads_by_players"]
    assert isinstance(totals, dict)
    for n in range(2, 11):
        assert totals[str(n)] == total_heads(Rules.for_variant("taktik", players=n).deck())


# -- proved facts, watched on engine runs --------------------------------------------------------


@given(st.integers(2, 10), st.randoms(use_true_random=False))
@settings(max_examples=30)
def test_turns_have_at_most_one_too_low_card_the_lowest(n: int, rng: random.Random) -> None:
    state = new_game(Rules.for_variant("standard", players=n))
    state = apply(state, random_deal(state, rng))
    for _ in range(10):
        played = []
        for p in range(n):
            card = rng.choice(state.hands[p])
            played.append(card)
            state = apply(state, Play(p, card))
        too_low = []
        while state.phase is Phase.ROW_CHOICE:
            assert state.pending is not None
            assert state.pending.placement.reason is Reason.TOO_LOW
            too_low.append(state.pending.card)
            options = state.pending.placement.options
            state = apply(state, ChooseRow(state.pending.player, rng.choice(options).row))
        assert too_low in ([], [min(played)])
        if state.phase is not Phase.CHOOSE:
            break


@given(st.integers(2, 10), st.integers(0, 10**6))
@settings(max_examples=20)
def test_games_end_within_the_proved_round_bound(n: int, seed: int) -> None:
    bounds = game.check_termination().witness
    assert bounds is not None
    max_rounds = bounds["max_rounds"]
    assert isinstance(max_rounds, dict)
    rules = Rules.for_variant("standard", players=n)
    record = play_game(rules, [RandomBot() for _ in range(n)], seed, keep_states=False)
    final = record.final
    assert final.is_over
    assert final.round <= max_rounds[str(n)]
    for heads in final.round_scores:
        assert sum(heads) >= game.min_taken(n)  # every card taken is worth >= 1 head


def test_one_take_per_player_per_turn_on_engine_runs() -> None:
    rng = random.Random(7)
    rules = Rules.for_variant("profi", players=5)
    state = new_game(rules)
    state = apply(state, random_deal(state, rng))
    takers: dict[tuple[int, int], list[int]] = {}
    while state.phase is not Phase.GAME_OVER and state.round == 1:
        p = state.to_act()[0]
        if state.phase is Phase.CHOOSE:
            action: Play | ChooseRow = Play(p, rng.choice(state.hands[p]))
        else:
            assert state.pending is not None
            action = ChooseRow(p, rng.choice(state.pending.placement.options).row)
        turn = (state.round, state.turn)
        state, events = step(state, action)
        for e in events:
            taken = getattr(e, "taken", ())
            if taken:
                takers.setdefault(turn, []).append(e.player)  # type: ignore[union-attr]
            assert len(taken) <= 5 and total_heads(taken) <= MAX_ROW_HEADS
    assert takers  # the run did take rows
    for who in takers.values():
        assert len(who) == len(set(who))  # at most one row per player per turn
