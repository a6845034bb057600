"""Rules settings: the presets of every variant, validation, end conditions, draft rotation."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from take6 import Comparison, EndCondition, ProfiTie, Rules, RulesError, Take6Error, Variant


def test_standard_preset() -> None:
    r = Rules.for_variant("standard", players=4)
    assert r.variant is Variant.STANDARD
    assert (r.players, r.hand_size, r.rows, r.row_capacity, r.deck_size) == (4, 10, 4, 5, 104)
    assert r.end == EndCondition(target=66, comparison=Comparison.AT_LEAST, rounds=None)
    assert not r.profi_left
    assert r.simultaneous and not r.pile_play and r.lowest_wins and not r.draft
    assert r == Rules()


def test_taktik_preset() -> None:
    r = Rules.for_variant(Variant.TAKTIK, players=5)
    assert r.variant is Variant.TAKTIK
    assert r.deck_size == 54
    assert (r.hand_size, r.rows, r.row_capacity) == (10, 4, 5)
    assert not r.draft and not r.profi_left and r.simultaneous and r.lowest_wins
    assert r.end.target == 66


def test_logik_preset() -> None:
    r = Rules.for_variant("logik", players=3)
    assert r.draft
    assert r.deck_size == 34
    assert r.first_picker == 0 and r.rotate_first_picker
    assert r.simultaneous and not r.pile_play and r.lowest_wins and not r.profi_left


def test_profi_preset() -> None:
    r = Rules.for_variant("profi", players=6)
    assert r.profi_left
    assert r.profi_tie is ProfiTie.OWNER_CHOOSES
    assert r.deck_size == 104 and r.rows == 4 and not r.draft


def test_kids_preset() -> None:
    r = Rules.for_variant("kids", players=6)
    assert (r.hand_size, r.rows, r.row_capacity, r.deck_size) == (15, 5, 5, 104)
    assert not r.simultaneous and r.pile_play and not r.lowest_wins
    assert r.end == EndCondition(target=None, rounds=1)
    # 6 players is the most the deck serves (15 * 6 + 5 = 95 cards; 7 would need 110).
    assert r.hand_size * r.players + r.rows <= r.deck_size
    with pytest.raises(RulesError, match="7"):
        Rules.for_variant("kids", players=7)


def test_overrides_replace_fields() -> None:
    r = Rules.for_variant("profi", players=3, profi_tie=ProfiTie.PREFER_LEFT)
    assert r.profi_tie is ProfiTie.PREFER_LEFT and r.profi_left
    end = EndCondition(target=74, comparison=Comparison.ABOVE)
    assert Rules.for_variant("standard", end=end).end is end


def test_unknown_variant() -> None:
    with pytest.raises(RulesError, match="'poker'"):
        Rules.for_variant("poker")


def test_kids_with_seven_players_is_rejected() -> None:
    # 15·7 + 5 = 110 > 104 cards.
    with pytest.raises(RulesError, match="110"):
        Rules.for_variant("kids", players=7)


@pytest.mark.parametrize("n", range(2, 7))
def test_kids_allows_two_to_six(n: int) -> None:
    assert Rules.for_variant("kids", players=n).players == n


@pytest.mark.parametrize("variant", [v.value for v in Variant])
@pytest.mark.parametrize("n", [0, 1, 11, -3])
def test_player_count_out_of_range(variant: str, n: int) -> None:
    with pytest.raises(RulesError, match="players"):
        Rules.for_variant(variant, players=n)


@pytest.mark.parametrize("variant", ["standard", "taktik", "logik", "profi"])
@pytest.mark.parametrize("n", range(2, 11))
def test_every_player_count_allowed(variant: str, n: int) -> None:
    assert Rules.for_variant(variant, players=n).players == n


@pytest.mark.parametrize("n", range(2, 11))
@pytest.mark.parametrize("k", [1, 2, 3, 5, 10])
def test_logik_hand_size_generalises_the_deck(n: int, k: int) -> None:
    r = Rules.for_variant("logik", players=n, hand_size=k)
    assert r.hand_size == k
    assert r.deck_size == k * n + 4


def test_logik_hand_size_too_large_for_the_deck() -> None:
    # 11 cards each for 10 players is 114 cards: more than the deck.
    with pytest.raises(RulesError):
        Rules.for_variant("logik", players=10, hand_size=11)


def test_explicit_deck_size_wins_over_taktik_formula() -> None:
    assert Rules.for_variant("taktik", players=2, deck_size=104).deck_size == 104


@pytest.mark.parametrize(
    "fields",
    [
        {"hand_size": 0},
        {"rows": 0},
        {"row_capacity": 0},
        {"deck_size": 0},
        {"deck_size": 105},
        {"players": 4, "hand_size": 26},  # 4·26 + 4 = 108 > 104
        {"first_picker": 4},
        {"first_picker": -1},
        {"pile_play": True, "draft": True},
    ],
)
def test_inconsistent_settings(fields: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Rules(**fields)  # type: ignore[arg-type]


def test_with_revalidates() -> None:
    r = Rules.for_variant("standard", players=10)
    assert r.with_(hand_size=9).hand_size == 9
    with pytest.raises(RulesError):
        r.with_(hand_size=11)  # 10·11 + 4 > 104


def test_rules_are_frozen() -> None:
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.players = 5  # type: ignore[misc]


def test_rules_error_is_value_error() -> None:
    assert issubclass(RulesError, Take6Error)
    assert issubclass(RulesError, ValueError)


# -- end conditions --------------------------------------------------------------------------


def test_end_needs_target_or_rounds() -> None:
    with pytest.raises(RulesError):
        EndCondition(target=None, rounds=None)
    with pytest.raises(RulesError):
        EndCondition(target=0)
    with pytest.raises(RulesError):
        EndCondition(rounds=0)


def test_target_66_at_least() -> None:
    end = EndCondition()
    assert end.target == 66 and end.comparison is Comparison.AT_LEAST
    assert not end.reached((65, 0, 12), 1)
    assert end.reached((66, 0, 12), 1)
    assert end.reached((10, 90, 12), 7)


def test_category_5_above_74() -> None:
    end = EndCondition(target=74, comparison=Comparison.ABOVE)
    assert not end.reached((74, 74), 3)
    assert end.reached((75, 0), 3)


def test_fixed_number_of_rounds() -> None:
    end = EndCondition(target=None, rounds=3)
    assert not end.reached((500, 0), 1)
    assert not end.reached((500, 0), 2)
    assert end.reached((0, 0), 3)


def test_target_and_rounds_whichever_first() -> None:
    end = EndCondition(target=66, rounds=2)
    assert end.reached((66, 0), 1)
    assert end.reached((0, 0), 2)
    assert not end.reached((65, 0), 1)


@given(
    target=st.integers(1, 200),
    above=st.booleans(),
    rounds=st.none() | st.integers(1, 10),
    totals=st.lists(st.integers(0, 300), min_size=2, max_size=10),
    played=st.integers(1, 12),
)
def test_reached_matches_specification(
    target: int, above: bool, rounds: int | None, totals: list[int], played: int
) -> None:
    comparison = Comparison.ABOVE if above else Comparison.AT_LEAST
    end = EndCondition(target=target, comparison=comparison, rounds=rounds)
    by_total = any((t > target) if above else (t >= target) for t in totals)
    by_rounds = rounds is not None and played >= rounds
    assert end.reached(tuple(totals), played) == (by_total or by_rounds)


# -- Logik first picker ----------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 11))
def test_first_picker_rotates_clockwise(n: int) -> None:
    for first in range(n):
        r = Rules.for_variant("logik", players=n, first_picker=first)
        seats = [r.first_picker_in_round(k) for k in range(1, 2 * n + 2)]
        assert seats == [(first + k) % n for k in range(2 * n + 1)]


def test_first_picker_fixed_when_not_rotating() -> None:
    r = Rules.for_variant("logik", players=4, first_picker=2, rotate_first_picker=False)
    assert {r.first_picker_in_round(k) for k in range(1, 10)} == {2}


def test_games_that_might_never_end_are_refused() -> None:
    from take6.play.bots import make_bot
    from take6.play.game import play_game

    short = Rules.for_variant("standard", players=2, hand_size=1)
    assert short.min_taken_per_round == 2 + 4 - 20
    assert not short.always_ends
    with pytest.raises(RulesError, match="might never end"):
        play_game(short, [make_bot("random")] * 2, seed=1)
    capped = short.with_(end=EndCondition(target=66, rounds=3))
    assert capped.always_ends
    assert len(play_game(capped, [make_bot("random")] * 2, seed=1).final.round_scores) == 3
    # The real game always takes cards: 10n + 4 - 20 > 0 for n >= 2.
    for n in range(2, 11):
        assert Rules.for_variant("standard", players=n).min_taken_per_round == 10 * n - 16 > 0
