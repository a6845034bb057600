"""The OpenSpiel adapter ``python_take6`` (take6.integrations.openspiel).

OpenSpiel's own conformance test (``pyspiel.random_sim_test`` with serialisation) runs on every
variant; a differential test steps an OpenSpiel game from a ``position`` and the take6 engine in
lockstep and compares legal actions and returns; the rest pins parameters, serialisation,
observations and one value found by OpenSpiel's value iteration.
"""

from __future__ import annotations

import pickle
import random
import signal
import subprocess
import sys
from typing import Any

import pyspiel
import pytest
from hypothesis import given
from hypothesis import strategies as st

from take6.cards import HEADS
from take6.integrations import openspiel as os6
from take6.notation import format_position, parse_position
from take6.position import Position
from take6.rules import EndCondition, Rules
from take6.state import (
    ChooseRow,
    Phase,
    Pick,
    Play,
    State,
    apply,
    from_position,
    legal_actions,
    new_game,
    random_deal,
)

SIM_GAMES = [
    "python_take6(variant=standard,players=2,hand_size=3)",
    "python_take6(variant=standard,players=4,hand_size=2)",
    "python_take6(variant=standard,players=3,hand_size=2,rounds=2,returns=diff)",
    "python_take6(variant=taktik,players=3,hand_size=3)",
    "python_take6(variant=taktik,players=2,hand_size=2,known_hands=True)",
    "python_take6(variant=logik,players=2,hand_size=2)",
    "python_take6(variant=logik,players=3,hand_size=2,rounds=2)",
    "python_take6(variant=logik,players=2,position=logik:10 8/3/9/4 2.6.7|1.5.10,"
    "known_hands=True,returns=diff)",
    "python_take6(variant=profi,players=3,hand_size=3)",
    "python_take6(variant=profi,players=4,hand_size=2,returns=diff)",
    "python_take6(variant=kids,players=2,hand_size=3)",
    "python_take6(variant=kids,players=4,hand_size=2,known_hands=True)",
    "python_take6(variant=standard,players=3,position=standard 12/37/43/58 14.61|15.44|2.90 "
    "-|55|- 0.12.3,rounds=2)",
    "python_take6(variant=standard,players=3,position=standard 12/37/43/58 14.61|15.44|2.90 "
    "-|55|- 0.12.3,target=25,rounds=3)",
    "python_take6(variant=profi,players=3,target=30,rounds=3)",
]


@pytest.mark.parametrize("name", SIM_GAMES)
def test_random_sim_test_with_serialisation(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "name",
    [
        "python_take6(variant=standard,players=4)",
        "python_take6(variant=profi,players=6,returns=diff)",
        "python_take6(variant=kids,players=6)",
    ],
)
def test_random_sim_test_full_size(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_turn_based_transform_runs() -> None:
    game = pyspiel.load_game(
        "turn_based_simultaneous_game(game=python_take6(variant=profi,players=3,hand_size=2))"
    )
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


# -- parameters ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SIM_GAMES)
def test_game_string_round_trips(name: str) -> None:
    game = pyspiel.load_game(name)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.get_parameters() == game.get_parameters()
    assert again.num_distinct_actions() == game.num_distinct_actions()
    assert again.max_game_length() == game.max_game_length()


def test_defaults_and_game_info() -> None:
    game = pyspiel.load_game("python_take6")
    # rounds=0 (the default) is one round without a target: the canonical parameters say so.
    assert game.get_parameters() == {**os6.DEFAULT_PARAMS, "rounds": 1}
    assert game.num_players() == 2
    assert game.num_distinct_actions() == 104 + 4
    assert game.max_chance_outcomes() == 104
    assert game.min_utility() == -171 and game.max_utility() == 0
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    kids = pyspiel.load_game("python_take6(variant=kids,players=3)")
    assert kids.num_distinct_actions() == 104 + 5
    assert kids.config.rules.hand_size == 15
    assert (kids.min_utility(), kids.max_utility()) == (0, 171)


def test_position_parameter_is_canonical() -> None:
    pos = parse_position("logik:10 8/3/9/4 7,2,6|10,1,5")
    game = os6.load_game(pos, known_hands=True, returns="diff")
    assert game.get_parameters()["position"] == "logik:10 8/3/9/4 2.6.7|1.5.10"
    assert os6.position_param(pos) == "logik:10 8/3/9/4 2.6.7|1.5.10"
    # A dict may carry the ordinary notation with commas; the game keeps the canonical form.
    by_dict = pyspiel.load_game(
        "python_take6",
        {"variant": "logik", "players": 2, "position": format_position(pos)},
    )
    assert by_dict.get_parameters()["position"] == "logik:10 8/3/9/4 2.6.7|1.5.10"
    assert str(pyspiel.load_game(str(by_dict))) == str(by_dict)
    info = game.get_type()
    assert info.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert info.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert info.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game.max_chance_outcomes() == 0


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"variant": "chess"}, "unknown variant"),
        ({"players": 11}, "players must be"),
        ({"returns": "win"}, "returns must be"),
        ({"rounds": -1}, "rounds must be"),
        ({"target": -5}, "target must be"),
        ({"target": 66, "hand_size": 2}, "might never end"),
        ({"colour": "red"}, "Unknown parameter 'colour'"),
        ({"position": "logik:8 1/4/6/8 2.3|5.7"}, "variant=standard does not match"),
        ({"variant": "logik", "players": 3, "position": "logik:8 1/4/6/8 2.3|5.7"}, "players=3"),
        ({"variant": "logik", "hand_size": 3, "position": "logik:8 1/4/6/8 2.3|5.7"}, "hand_size"),
        ({"variant": "logik", "position": "logik:8 1/4/6/8 2.3|5.8"}, "appears twice"),
    ],
)
def test_bad_parameters_are_refused(params: dict[str, Any], message: str) -> None:
    with pytest.raises(Exception, match=message):
        pyspiel.load_game("python_take6", params)


# -- the game against the engine -------------------------------------------------------------


def _random_position(variant: str, players: int, hand: int, turns: int, seed: int) -> Position:
    """A position reached by the engine from a random deal (or draft) and some turns."""
    rng = random.Random(seed)
    state = new_game(Rules.for_variant(variant, players, hand_size=hand))
    turns = min(turns, hand - 1)
    while not (state.phase is Phase.CHOOSE and state.turn >= turns and not any(state.chosen)):
        if state.phase is Phase.DEAL:
            state = apply(state, random_deal(state, rng))
        else:
            state = apply(state, rng.choice(legal_actions(state)))
    return state.position()


def _engine_ids(state: State, player: int) -> list[int]:
    out = []
    for a in legal_actions(state, player):
        assert isinstance(a, Play | Pick | ChooseRow)
        out.append(a.card - 1 if isinstance(a, Play | Pick) else 104 + a.row)
    return sorted(out)


@given(
    variant=st.sampled_from(["standard", "taktik", "logik", "profi", "kids"]),
    players=st.integers(2, 4),
    hand=st.integers(1, 4),
    turns=st.integers(0, 2),
    returns=st.sampled_from(["heads", "diff"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_position_game_follows_the_engine(
    variant: str, players: int, hand: int, turns: int, returns: str, seed: int
) -> None:
    pos = _random_position(variant, players, hand, turns, seed)
    game = os6.load_game(pos, returns=returns, known_hands=True)
    state = game.new_initial_state()
    canonical = parse_position(format_position(pos))
    one_round = canonical.rules.with_(end=EndCondition(target=None, rounds=1))
    ref = from_position(canonical, one_round)
    start = [ref.score(p) for p in range(players)]
    rng = random.Random(seed)
    while not state.is_terminal():
        assert not state.is_chance_node()
        for p in range(players):
            assert state.legal_actions(p) == _engine_ids(ref, p)
        if state.is_simultaneous_node():
            assert ref.phase is Phase.CHOOSE and ref.rules.simultaneous
            joint = [rng.choice(state.legal_actions(p)) for p in range(players)]
            state.apply_actions(joint)
            for p, a in enumerate(joint):
                ref = apply(ref, Play(p, a + 1))
        else:
            player = state.current_player()
            assert (player,) == ref.to_act()
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            ref = apply(ref, ChooseRow(player, a - 104) if a >= 104 else Play(player, a + 1))
        assert os6.engine_state(state) == ref
    assert ref.is_over
    heads = [ref.totals[p] - start[p] for p in range(players)]
    sign = 1 if variant == "kids" else -1
    own = [float(sign * h) for h in heads]
    mean_others = [(sum(own) - x) / (players - 1) for x in own]
    expected = own if returns == "heads" else [x - m for x, m in zip(own, mean_others, strict=True)]
    assert state.returns() == pytest.approx(expected)
    if returns == "diff":
        assert sum(state.returns()) == pytest.approx(0)


@pytest.mark.parametrize("variant", ["standard", "taktik", "logik", "profi", "kids"])
def test_random_games_return_the_engines_heads(variant: str) -> None:
    game = os6.load_game(variant=variant, players=3, hand_size=3, rounds=2)
    rng = random.Random(variant)
    for _ in range(10):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                assert sum(probs) == pytest.approx(1)
                state.apply_action(rng.choice(actions))
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(3)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        ref = os6.engine_state(state)
        heads = [sum(r[p] for r in ref.round_scores) for p in range(3)]
        assert len(ref.round_scores) == 2
        sign = 1 if variant == "kids" else -1
        assert state.returns() == [sign * h for h in heads]


def test_deal_order_is_documented() -> None:
    game = os6.load_game(variant="standard", players=2, hand_size=2)
    state = game.new_initial_state()
    for card in (50, 7, 99, 3, 10, 20, 30, 40):
        assert state.is_chance_node()
        state.apply_action(card - 1)
    ref = os6.engine_state(state)
    assert ref.hands == ((7, 50), (3, 99))
    assert ref.rows == ((10,), (20,), (30,), (40,))
    assert state.is_simultaneous_node()
    assert state.legal_actions(0) == [6, 49]
    assert state.action_to_string(0, 6) == "card 7"
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 6) == "deal 7"
    state.apply_actions([6, 2])  # 3 is too low: seat 1 chooses a row
    assert state.current_player() == 1
    assert state.legal_actions(1) == [104, 105, 106, 107]
    assert state.legal_actions(0) == []
    assert state.action_to_string(1, 105) == "row 2"
    with pytest.raises(Exception, match="a row is due"):
        state.apply_action(49)  # a card id where a row choice is due
    state.apply_action(105)
    assert os6.engine_state(state).piles == ((), (20,))


def test_illegal_joint_action_is_refused() -> None:
    game = os6.load_game("logik:8 1/4/6/8 2,3|5,7", known_hands=True)
    state = game.new_initial_state()
    with pytest.raises(Exception, match="not in player 1's hand"):
        state.apply_actions([4, 4])


# -- serialisation ---------------------------------------------------------------------------


def _play_some(state: Any, rng: random.Random, steps: int) -> Any:
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        elif state.is_simultaneous_node():
            state.apply_actions(
                [rng.choice(state.legal_actions(p)) for p in range(state.num_players())]
            )
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", SIM_GAMES)
def test_states_serialise(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(name)
    for steps in (0, 3, 12, 40):
        state = _play_some(game.new_initial_state(), rng, steps)
        again = game.deserialize_state(state.serialize())
        assert str(again) == str(state)
        assert again.history() == state.history()
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game) and str(state2) == str(state)
        clone = state.clone()
        assert str(clone) == str(state)
        assert str(pickle.loads(pickle.dumps(state))) == str(state)


# -- observations ----------------------------------------------------------------------------


def _dealt(game: Any, seed: int = 3) -> Any:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


def test_observations_show_own_hand_only() -> None:
    from open_spiel.python.observation import make_observation

    game = os6.load_game(variant="standard", players=3, hand_size=3)
    state = _dealt(game)
    hands = os6.engine_state(state).hands
    obs = make_observation(game)
    for p in range(3):
        obs.set_from(state, p)
        seen = obs.dict["hands"]
        assert [int(c + 1) for c in seen[p].nonzero()[0]] == list(hands[p])
        assert all(not seen[q].any() for q in range(3) if q != p)
        text = state.observation_string(p)
        assert ",".join(map(str, hands[p])) in text
        other = hands[(p + 1) % 3]
        assert ",".join(map(str, other)) not in text
    assert state.information_state_string(0) != state.information_state_string(1)
    assert len(state.observation_tensor(0)) == len(obs.tensor)


def test_known_hands_and_logik_are_public() -> None:
    for game in (
        os6.load_game(variant="standard", players=2, hand_size=3, known_hands=True),
        os6.load_game("logik:10 8/3/9/4 2,6,7|1,5,10"),
    ):
        assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        state = _dealt(game)
        obs = os6.Take6Observer(game.config, pyspiel.IIGObservationType(perfect_recall=False))
        obs.set_from(state, 1)
        hands = os6.engine_state(state).hands
        for q in range(2):
            assert [int(c + 1) for c in obs.dict["hands"][q].nonzero()[0]] == list(hands[q])


def test_kids_piles_are_hidden_from_everyone() -> None:
    game = os6.load_game(variant="kids", players=2, hand_size=3)
    state = _dealt(game)
    obs = os6.Take6Observer(game.config, pyspiel.IIGObservationType(perfect_recall=True))
    obs.set_from(state, 0)
    assert not obs.dict["hands"].any()
    assert "?3|?3" in state.observation_string(0)
    assert "deal ?3|?3 rows" in state.information_state_string(0)


def test_information_state_tensor_records_the_history() -> None:
    game = os6.load_game("logik:10 8/3/9/4 2,6,7|1,5,10", known_hands=True)
    state = game.new_initial_state()
    state.apply_actions([1, 0])  # cards 2 and 1
    while not state.is_simultaneous_node():
        state.apply_action(state.legal_actions()[0])
    obs = os6.Take6Observer(game.config, pyspiel.IIGObservationType(perfect_recall=True))
    obs.set_from(state, 0)
    assert obs.dict["plays"][0, 0, 0, 1] == 1 and obs.dict["plays"][0, 0, 1, 0] == 1
    assert obs.dict["row_choices"][0, 0].sum() == 1
    assert [int(c + 1) for c in obs.dict["start_rows"][0].nonzero()[0]] == [3, 4, 8, 9]
    assert len(state.information_state_tensor(0)) == len(obs.tensor)


# -- a known value ---------------------------------------------------------------------------


def test_value_iteration_finds_the_known_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """logik:8 5/6/3/8 2,4|1,7 has value 1/2 for player 1 (heads of P2 - heads of P1).

    By hand: P1 plays 2 or 4, P2 plays 1 or 7. (2, 1): P2's 1 is too low and takes a 1-head
    row, 2 follows the 1, nothing else is taken: +1. (2, 7): P1 takes a 1-head row, then P2's 1
    takes one too: 0. (4, 1): P2 takes the 3 so that P1's 2 is too low next turn: 0. (4, 7):
    P2's 1 takes a 1-head row next turn: +1. The matrix [[1, 0], [0, 1]] is worth 1/2.
    """
    from open_spiel.python.algorithms import lp_solver, value_iteration

    for key in ("abstol", "reltol", "feastol"):  # ECOS's 1e-7 default is too loose for 1e-9
        monkeypatch.setitem(lp_solver.DEFAULT_ECOS_SOLVER_KWARGS, key, 1e-12)
    game = os6.load_game("logik:8 5/6/3/8 2,4|1,7", known_hands=True, returns="diff")
    values = value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-12)
    assert values[str(game.new_initial_state())] == pytest.approx(0.5, abs=1e-9)


def test_heads_table_is_the_engines() -> None:
    game = os6.load_game(variant="taktik", players=2, hand_size=2)
    assert game.max_utility() == 0
    assert game.min_utility() == -sum(HEADS[c] for c in range(1, 9))


# -- rl_environment, clones, canonical information states, the target -----------------------


@pytest.mark.parametrize("variant", ["standard", "profi", "logik", "kids"])
def test_rl_environment_plays_through_row_choices(variant: str) -> None:
    """rl_environment passes one action per player at every node of a simultaneous game, row
    choices included: the owner's counts, the others' (any id) are ignored."""
    from open_spiel.python import rl_environment

    game = os6.load_game(variant=variant, players=4, hand_size=6 if variant == "logik" else 10)
    sampler = rl_environment.ChanceEventSampler(seed=4)
    env = rl_environment.Environment(game, enable_legality_check=True, chance_event_sampler=sampler)
    rng = random.Random(variant)
    row_choices = episodes = 0
    while episodes < 3 or (row_choices == 0 and episodes < 50):  # Profi's are rarer
        episodes += 1
        step = env.reset()
        while not step.last():
            legal = step.observations["legal_actions"]
            if step.observations["current_player"] >= 0:
                row_choices += os6.engine_state(env.get_state).phase is Phase.ROW_CHOICE
            step = env.step([rng.choice(a) if a else 0 for a in legal])
        heads = [sum(r[p] for r in os6.engine_state(env.get_state).round_scores) for p in range(4)]
        sign = 1 if variant == "kids" else -1  # in Kids the most heads win
        assert step.rewards == [sign * h for h in heads]
    assert row_choices > 0


def test_sequential_node_takes_the_owners_action_only() -> None:
    game = os6.load_game(variant="standard", players=2, hand_size=2)
    state = game.new_initial_state()
    for card in (50, 7, 99, 3, 10, 20, 30, 40):
        state.apply_action(card - 1)
    state.apply_actions([6, 2])  # 3 is too low: seat 1 chooses a row
    assert state.current_player() == 1
    with pytest.raises(Exception, match="action 49 is a card, a row is due"):
        state.apply_actions([105, 49])  # the owner's action is checked
    state.apply_actions([0, 105])  # seat 0's id is ignored
    assert os6.engine_state(state).piles == ((), (20,))
    with pytest.raises(Exception, match="1 actions for 2 players"):
        state.apply_actions([6])


def test_a_refused_joint_action_changes_nothing() -> None:
    game = os6.load_game("standard 12/37/43/58 14,61|15,44")
    state = game.new_initial_state()
    before = str(state)
    with pytest.raises(Exception, match="not in player 2's hand"):
        state.apply_actions([13, 13])  # seat 0's 14 is legal, seat 1's is not
    assert str(state) == before and state.history() == []


def test_clone_shares_immutable_data_and_is_independent() -> None:
    game = os6.load_game(variant="standard", players=3, hand_size=3)
    state = _dealt(game)
    clone = state.clone()
    assert clone.data is state.data and clone.config is state.config
    assert clone.history() == state.history()
    clone.apply_actions([clone.legal_actions(p)[0] for p in range(3)])
    assert clone.data is not state.data
    assert state.is_simultaneous_node() and str(state) != str(clone)
    assert str(state.clone()) == str(state)


def _deal_in(game: Any, order: list[int]) -> Any:
    state = game.new_initial_state()
    for card in order:
        state.apply_action(card - 1)
    return state


@pytest.mark.parametrize("known_hands", [False, True])
def test_information_states_ignore_the_deal_order(known_hands: bool) -> None:
    """Own cards dealt in another order and the rows dealt in another order: the same
    information states and tensors for every player (the rows are laid out ascending)."""
    game = os6.load_game(variant="standard", players=2, hand_size=3, known_hands=known_hands)
    one = _deal_in(game, [50, 7, 99, 3, 60, 12, 10, 40, 30, 20])
    two = _deal_in(game, [99, 50, 7, 12, 3, 60, 40, 20, 10, 30])
    assert os6.engine_state(one) == os6.engine_state(two)
    assert os6.engine_state(one).rows == ((10,), (20,), (30,), (40,))
    for p in range(2):
        assert one.information_state_string(p) == two.information_state_string(p)
        assert one.information_state_tensor(p) == two.information_state_tensor(p)
        assert one.observation_string(p) == two.observation_string(p)
    joint = [6, 2]
    one.apply_actions(joint)
    two.apply_actions(joint)
    assert one.information_state_string(0) == two.information_state_string(0)
    # A different hand is a different information state for its owner only (hands hidden).
    three = _deal_in(game, [50, 8, 99, 3, 60, 12, 10, 40, 30, 20])
    fresh = _deal_in(game, [50, 7, 99, 3, 60, 12, 10, 40, 30, 20])
    assert three.information_state_string(0) != fresh.information_state_string(0)
    same_for_1 = three.information_state_string(1) == fresh.information_state_string(1)
    assert same_for_1 is not known_hands


def test_information_state_during_the_deal_is_a_set() -> None:
    game = os6.load_game(variant="standard", players=2, hand_size=3)
    one = _deal_in(game, [50, 7, 99, 3])
    two = _deal_in(game, [99, 7, 50, 3])
    assert one.information_state_string(0) == two.information_state_string(0)
    assert "deal 7,50,99|?1 rows -" in one.information_state_string(0)
    assert "deal ?3|3 rows -" in one.information_state_string(1)


def test_kids_pile_order_is_information() -> None:
    game = os6.load_game(variant="kids", players=2, hand_size=2, known_hands=True)
    one = _deal_in(game, [5, 7, 9, 3, 10, 20, 30, 40, 50])
    two = _deal_in(game, [7, 5, 9, 3, 10, 20, 30, 40, 50])
    assert os6.engine_state(one).hands[0] == (5, 7)
    assert one.information_state_string(1) != two.information_state_string(1)


def test_target_plays_the_real_game() -> None:
    game = pyspiel.load_game("python_take6(players=4,target=66)")
    assert game.get_parameters()["rounds"] == 0 and game.get_parameters()["target"] == 66
    rules = game.config.rules
    assert rules.end == EndCondition(target=66)
    assert game.max_game_length() == rules.max_rounds * 10 * 5
    assert game.min_utility() == -(66 + sum(HEADS[c] for c in range(1, 105)))
    assert str(pyspiel.load_game(str(game))) == str(game)
    rng = random.Random(66)
    for _ in range(2):
        state = _play_some(game.new_initial_state(), rng, 10_000)
        assert state.is_terminal()
        ref = os6.engine_state(state)
        assert max(ref.totals) >= 66
        assert state.returns() == [-t for t in ref.totals]
        assert len(ref.round_scores) <= rules.max_rounds
    both = os6.load_game(variant="standard", players=3, target=20, rounds=2)
    assert both.config.rules.end == EndCondition(target=20, rounds=2)
    pyspiel.random_sim_test(both, num_sims=2, serialize=True, verbose=False)


def test_deal_orders_collapse_into_one_information_set() -> None:
    """Every deal of a tiny game: the first decision's information sets are one per (own card,
    set of row cards), not one per order in which those cards came."""
    game = os6.load_game(variant="taktik", players=2, hand_size=1)
    deck = game.config.rules.deck_size
    assert deck == 6
    seen: set[str] = set()
    deals = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        deals += 1
        seen.add(state.information_state_string(0))
    assert deals == 720  # 6 * 5 * 4 * 3 * 2 deal orders
    assert len(seen) == 6 * 5  # own card, then 4 row cards out of the 5 left


_CPP_BOT = """
import pyspiel
from open_spiel.python.games import tic_tac_toe  # registers python_tic_tac_toe
import take6.integrations.openspiel
game = pyspiel.load_game({name!r})
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
if {ismcts!r}:
    kind = pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT
    bot = pyspiel.ISMCTSBot(1, evaluator, 2.0, 20, -1, kind, False, False)
else:
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, 20, 1000, False, 42, False)
print(bot.step(state))
"""


@pytest.mark.parametrize(
    ("name", "ismcts"),
    [
        ("python_tic_tac_toe", False),  # OpenSpiel's own Python game: the limit is OpenSpiel's
        ("turn_based_simultaneous_game(game=python_take6(hand_size=2,known_hands=True))", False),
        ("turn_based_simultaneous_game(game=python_take6(hand_size=2))", True),
    ],
)
def test_cpp_search_bots_crash_on_python_games(name: str, ismcts: bool) -> None:
    """What docs/integrations.md says: the C++ MCTS and ISMCTS bots die (SIGSEGV) on Python
    games. When an OpenSpiel release fixes that, this fails: update the docs."""
    code = _CPP_BOT.format(name=name, ismcts=ismcts)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGSEGV, done.stderr[-500:]
