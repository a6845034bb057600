"""The PettingZoo environments: PettingZoo's own conformance tests for every variant, and the
properties the module docstring promises (action layout, hidden choices, rewards, seeding)."""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)
from pettingzoo.utils import aec_to_parallel
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from take6 import ChooseRow, Comparison, EndCondition, IllegalActionError, Phase, Rules
from take6.cards import HEADS
from take6.integrations.pettingzoo import (
    SEGMENTS,
    Take6AECEnv,
    Take6ParallelEnv,
    env,
    observation_layout,
    parallel_env,
    raw_env,
    rules_from_settings,
    state_layout,
)

# Every variant, with the smallest and the largest player count and one in between.
CASES = [
    ("standard", 2),
    ("standard", 4),
    ("standard", 10),
    ("taktik", 2),
    ("taktik", 5),
    ("logik", 2),
    ("logik", 4),
    ("logik", 10),
    ("profi", 3),
    ("profi", 10),
    ("kids", 2),
    ("kids", 6),
]

# The API tests warn that a dict observation (the action-mask convention) is not an array: they
# whitelist PettingZoo's own classic games by name. Those two warnings are expected, no others.
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent")


@pytest.fixture
def only_expected_warnings() -> Iterator[None]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert not unexpected


@pytest.mark.parametrize(("variant", "players"), CASES)
@pytest.mark.usefixtures("only_expected_warnings")
def test_pettingzoo_api_test(variant: str, players: int) -> None:
    api_test(env(variant=variant, players=players), num_cycles=1000)


@pytest.mark.parametrize(("variant", "players"), CASES)
@pytest.mark.usefixtures("only_expected_warnings")
def test_pettingzoo_seed_test(variant: str, players: int) -> None:
    seed_test(lambda: env(variant=variant, players=players), num_cycles=1000)


@pytest.mark.parametrize(("variant", "players"), CASES)
@pytest.mark.usefixtures("only_expected_warnings")
def test_pettingzoo_parallel_api_test(variant: str, players: int) -> None:
    parallel_api_test(parallel_env(variant=variant, players=players), num_cycles=1000)


def test_take6_does_not_import_pettingzoo() -> None:
    code = (
        "import sys, take6, take6.io.record, take6.display.svg, take6.cli.main, "
        "take6.integrations; "
        "bad = {'pettingzoo', 'gymnasium'} & set(sys.modules); assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- helpers --------------------------------------------------------------------------------


def play_random(e: AECEnv[str, Any, Any], seed: int) -> Iterator[tuple[str, dict[str, Any], float]]:
    """Play ``e`` to the end with uniformly random legal actions; yield what each agent sees."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        yield agent, obs, reward
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# -- the documented layout ------------------------------------------------------------------


def test_observation_layout_matches_the_docstring() -> None:
    rules = Rules.for_variant("standard", players=4)
    layout = observation_layout(rules)
    assert list(layout) == list(SEGMENTS)
    assert layout["turn"].stop == 4 * 104 + 4 * 5 + 2 * 4 + 6 + 3 * 4 + 1 == 463
    e = env(variant="kids", players=3)
    assert e.action_space("player_0").n == 104 + 5
    assert e.observation_space("player_0")["observation"].shape == (4 * 104 + 25 + 10 + 6 + 9 + 1,)


def test_mask_is_the_engine_legal_actions() -> None:
    e = env(variant="profi", players=4)
    rows_seen = 0
    for agent, obs, _ in play_random(e, seed=3):
        state = e.game_state
        mask = obs["action_mask"]
        if state.is_over:
            assert not mask.any()
            continue
        seat = int(agent.split("_")[1])
        assert seat in state.to_act()
        if state.phase is Phase.ROW_CHOICE:
            assert not mask[:104].any()
            rows = [a.row for a in state.pending.placement.options]
            assert np.flatnonzero(mask[104:]).tolist() == sorted(rows)
            rows_seen += 1
        else:
            assert np.flatnonzero(mask).tolist() == [c - 1 for c in state.hands[seat]]
        idle = [a for a in e.agents if int(a.split("_")[1]) not in state.to_act()]
        assert all(not e.observe(a)["action_mask"].any() for a in idle)
    assert rows_seen > 0


@pytest.mark.parametrize(("variant", "players"), [("standard", 4), ("logik", 3), ("kids", 3)])
def test_rewards_add_up_to_the_totals(variant: str, players: int) -> None:
    e = env(variant=variant, players=players)
    got = dict.fromkeys(e.possible_agents, 0.0)
    for agent, _, reward in play_random(e, seed=11):
        got[agent] += reward
    sign = -1 if e.rules.lowest_wins else 1
    final = e.game_state
    assert final.is_over
    assert [got[a] for a in e.possible_agents] == [sign * t for t in final.totals]


@pytest.mark.parametrize("variant", ["standard", "logik", "profi"])
def test_choices_are_hidden_until_the_reveal(variant: str) -> None:
    e = env(variant=variant, players=3)
    e.reset(seed=5)
    lay = observation_layout(e.rules)
    rng = np.random.default_rng(5)
    checked = 0
    while not e.game_state.is_over and checked < 6:
        agent = e.agent_selection
        state = e.game_state
        mask = e.observe(agent)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        choosing = state.phase is Phase.CHOOSE and agent != "player_2"
        before = {a: e.observe(a)["observation"].copy() for a in e.agents}
        e.step(action)
        if choosing:  # a face-down choice: nobody else sees a difference
            assert e.game_state.phase is Phase.CHOOSE
            for a in e.agents:
                if a != agent:
                    assert np.array_equal(e.observe(a)["observation"], before[a]), a
            own = e.observe(agent)["observation"]
            assert own[lay["last_played"].start] == action + 1
            checked += 1
    assert checked == 6


def test_logik_hands_are_public() -> None:
    e = env(variant="logik", players=3)
    e.reset(seed=1)
    lay = observation_layout(e.rules)
    rng = np.random.default_rng(1)
    while e.game_state.phase is Phase.DRAFT:
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    hands = e.game_state.hands
    for seat in range(3):
        obs = e.observe(f"player_{seat}")["observation"]
        holder = obs[lay["holder"]]
        for p in range(3):
            expected = 0 if p == seat else (p - seat) % 3
            assert all(holder[c - 1] == expected for c in hands[p])
        assert [c + 1 for c in np.flatnonzero(obs[lay["hand"]])] == list(hands[seat])
    assert not obs[lay["pool"]].any()


def test_revealed_cards_show_in_last_played() -> None:
    e = env(variant="standard", players=3)
    e.reset(seed=2)
    hands = e.game_state.hands
    for p in range(3):
        e.step(hands[p][0] - 1)
    lay = observation_layout(e.rules)
    obs = e.observe("player_1")["observation"]
    # relative seats: player_1 itself, then player_2, then player_0
    assert obs[lay["last_played"]].tolist() == [hands[1][0], hands[2][0], hands[0][0]]


def test_row_choice_is_a_step_of_the_owner() -> None:
    e = env(variant="standard", players=2)
    for seed in range(50):
        e.reset(seed=seed)
        state = e.game_state
        low = min(min(r) for r in state.rows)
        if min(state.hands[0]) < low < min(state.hands[1]):
            break
    e.step(min(state.hands[0]) - 1)
    e.step(min(state.hands[1]) - 1)
    assert e.game_state.phase is Phase.ROW_CHOICE
    assert e.agent_selection == "player_0"
    lay = observation_layout(e.rules)
    obs = e.observe("player_1")
    assert obs["observation"][lay["pending"]].tolist() == [min(state.hands[0]), 2]
    assert obs["observation"][lay["phase"]].tolist() == [0, 0, 1, 0]
    mask = e.observe("player_0")["action_mask"]
    assert mask[104:].tolist() == [1, 1, 1, 1]
    row = state.rows[2]
    e.step(104 + 2)
    assert e.rewards["player_0"] == -sum(HEADS[c] for c in row)
    assert e.game_state.rows[2] == (min(state.hands[0]),)
    assert isinstance(ChooseRow(0, 2), ChooseRow)


def test_illegal_actions_raise() -> None:
    e = env(variant="standard", players=2)
    e.reset(seed=1)
    not_held = next(c for c in range(1, 105) if c not in e.game_state.hands[0])
    with pytest.raises(IllegalActionError, match="not in player 1's hand"):
        e.step(not_held - 1)
    with pytest.raises(IllegalActionError, match="illegal action index 104"):
        e.step(104)
    with pytest.raises(IllegalActionError, match="player_0 must act: got None"):
        e.step(None)
    with pytest.raises(IllegalActionError, match="illegal action index -1"):
        e.step(-1)
    with pytest.raises(IllegalActionError, match=r"2\.0 is not an action index"):
        e.step(2.0)
    with pytest.raises(AssertionError, match="reset"):  # the OrderEnforcingWrapper
        env().step(0)
    with pytest.raises(RuntimeError, match="reset"):
        raw_env().step(0)


def test_settings() -> None:
    rules = rules_from_settings("logik", 3, target=40, rounds=3, above=True, first_picker=2)
    assert rules.end == EndCondition(40, Comparison.ABOVE, 3)
    assert rules.first_picker == 2 and rules.deck_size == 34
    assert rules_from_settings("kids", 2, rounds=1) == Rules.for_variant("kids", 2)
    e = env(variant="standard", players=2, hand_size=3, rounds=1)
    assert e.rules.hand_size == 3 and e.rules.end.rounds == 1
    given = Rules.for_variant("profi", 5)
    assert env(rules=given).rules is given
    with pytest.raises(ValueError, match="either rules"):
        rules_from_settings(rules=given, players=3)
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="rgb")
    shown = env(render_mode="ansi", players=2)
    shown.reset(seed=0)
    assert (shown.render() or "").startswith("round 1, turn 1, choose: standard ")


def test_aec_to_parallel_is_refused() -> None:
    # A row choice is a step of one agent: the AEC form is not a cycle of every agent.
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env())


# -- the parallel form ----------------------------------------------------------------------


def play_parallel(variant: str, players: int, seed: int) -> list[Any]:
    p = parallel_env(variant=variant, players=players)
    obs, _ = p.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[Any] = []
    totals = dict.fromkeys(p.possible_agents, 0.0)
    while p.agents:
        acting = [a for a in p.agents if obs[a]["action_mask"].any()]
        assert acting
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in acting}
        actions.update({a: 0 for a in p.agents if a not in acting})  # ignored
        obs, rewards, _, truncs, _ = p.step(actions)
        trace.append((sorted(actions.items()), sorted(rewards.items())))
        for a, r in rewards.items():
            totals[a] += r
        assert not any(truncs.values())
    final = p.game_state
    sign = -1 if final.rules.lowest_wins else 1
    assert [totals[a] for a in p.possible_agents] == [sign * t for t in final.totals]
    return trace


@pytest.mark.parametrize(("variant", "players"), [("standard", 4), ("logik", 3), ("kids", 3)])
def test_parallel_game_is_seeded_and_scores(variant: str, players: int) -> None:
    assert play_parallel(variant, players, 7) == play_parallel(variant, players, 7)


def test_parallel_card_choice_is_one_step() -> None:
    p = parallel_env(variant="standard", players=3)
    obs, _ = p.reset(seed=4)
    assert all(obs[a]["action_mask"].any() for a in p.agents)
    hands = p.game_state.hands
    p.step({f"player_{i}": hands[i][-1] - 1 for i in range(3)})
    state = p.game_state
    assert state.turn == 1 or state.phase is Phase.ROW_CHOICE
    with pytest.raises(IllegalActionError, match="no action for"):
        p.step({})


# -- illegal actions: penalise and end ------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), CASES)
@pytest.mark.usefixtures("only_expected_warnings")
def test_pettingzoo_parallel_seed_test_with_penalties(variant: str, players: int) -> None:
    # It samples every action unmasked: with illegal_action="penalise" a game ends at the first
    # illegal one (with "raise", the default, the test stops at the first illegal sample).
    parallel_seed_test(
        lambda: parallel_env(variant=variant, players=players, illegal_action="penalise"),
        num_cycles=1000,
    )


@pytest.mark.parametrize(("variant", "players"), [("standard", 4), ("logik", 3), ("kids", 2)])
@pytest.mark.usefixtures("only_expected_warnings")
def test_pettingzoo_api_tests_with_penalties(variant: str, players: int) -> None:
    api_test(env(variant=variant, players=players, illegal_action="penalise"), num_cycles=1000)
    parallel_api_test(
        parallel_env(variant=variant, players=players, illegal_action="penalise"),
        num_cycles=1000,
    )


def test_parallel_seed_test_needs_penalties() -> None:
    """The known limit: unmasked samples are illegal actions, which raise by default."""
    with pytest.raises(IllegalActionError):
        parallel_seed_test(lambda: parallel_env(players=3), num_cycles=10)


def test_penalised_illegal_action_ends_the_aec_game() -> None:
    e = env(variant="standard", players=3, illegal_action="penalise", illegal_reward=-7)
    e.reset(seed=1)
    hands = e.unwrapped.game_state.hands
    e.step(hands[0][0] - 1)  # player_0 chooses legally
    not_held = next(c for c in range(1, 105) if c not in hands[1])
    assert e.agent_selection == "player_1"
    e.step(not_held - 1)
    assert e.rewards == {"player_0": 0.0, "player_1": -7.0, "player_2": 0.0}
    assert all(e.terminations.values()) and not any(e.truncations.values())
    legal = [c - 1 for c in hands[1]]
    reason = f"{not_held - 1} is not a legal action of player_1 now (legal: {legal})"
    assert e.infos["player_1"]["illegal_action"] == reason  # no other hand shown
    assert "illegal_action" not in e.infos["player_0"]
    for a in e.agents:
        assert not e.observe(a)["action_mask"].any()
        assert not e.infos[a]["action_mask"].any()
    lay = observation_layout(e.unwrapped.rules)
    assert e.observe("player_2")["observation"][lay["phase"]].tolist() == [0, 0, 0, 1]
    got = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        _, reward, terminated, _, _ = e.last()
        got[agent] += reward
        assert terminated
        e.step(None)
    assert got == {"player_0": 0.0, "player_1": -7.0, "player_2": 0.0}
    assert e.unwrapped.game_state.phase is Phase.CHOOSE  # the engine state is left as it was
    e.reset(seed=1)  # a new game starts normally
    assert e.observe("player_0")["action_mask"].any()


@pytest.mark.parametrize("bad", [None, 2.5, -1, 999, 104])
def test_penalised_bad_values(bad: Any) -> None:
    e = env(players=2, illegal_action="penalise")
    e.reset(seed=0)
    e.step(bad)
    assert e.rewards["player_0"] == -100.0
    assert all(e.terminations.values())


def test_penalised_illegal_action_ends_the_parallel_game() -> None:
    p = parallel_env(variant="standard", players=3, illegal_action="penalise")
    p.reset(seed=2)
    before = p.game_state
    hands = before.hands
    not_held = next(c for c in range(1, 105) if c not in hands[2])
    actions = {"player_0": hands[0][0] - 1, "player_1": 104, "player_2": not_held - 1}
    _, rewards, terms, truncs, infos = p.step(actions)
    assert rewards == {"player_0": 0.0, "player_1": -100.0, "player_2": -100.0}
    assert all(terms.values()) and not any(truncs.values()) and p.agents == []
    assert infos["player_1"]["illegal_action"].startswith("104 is not a legal action of player_1")
    assert "illegal_action" not in infos["player_0"]
    assert p.game_state is before  # nothing was applied, not even player_0's legal choice
    q = parallel_env(players=2, illegal_action="penalise")
    q.reset(seed=0)
    _, rewards, terms, _, infos = q.step({"player_0": q.game_state.hands[0][0] - 1})
    assert rewards == {"player_0": 0.0, "player_1": -100.0}
    assert infos["player_1"]["illegal_action"].startswith("None is not a legal action of player_1")
    with pytest.raises(RuntimeError, match="reset"):
        q.step({})


def test_illegal_action_setting_is_checked() -> None:
    with pytest.raises(ValueError, match="illegal_action must be 'raise' or 'penalise'"):
        env(illegal_action="ignore")
    with pytest.raises(ValueError, match="illegal_action must be"):
        parallel_env(illegal_action="warn")


def test_unmasked_random_play_ends_with_penalties() -> None:
    p = parallel_env(variant="profi", players=4, illegal_action="penalise")
    p.reset(seed=3)
    for space in p.action_spaces.values():
        space.seed(3)
    steps = 0
    while p.agents:
        _, rewards, *_ = p.step({a: p.action_space(a).sample() for a in p.agents})
        steps += 1
    assert steps < 50 and min(rewards.values()) == -100.0


# -- the wrapper, the infos, the global state, rendering ------------------------------------


def test_env_is_wrapped_like_the_classic_games() -> None:
    e = env(players=3)
    assert isinstance(e, OrderEnforcingWrapper)
    assert isinstance(e.unwrapped, Take6AECEnv)
    assert isinstance(raw_env(players=3), Take6AECEnv)
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection


def test_infos_carry_the_action_mask() -> None:
    e = env(variant="profi", players=3)
    for agent, obs, _ in play_random(e, seed=8):
        for a in e.agents:
            assert np.array_equal(e.infos[a]["action_mask"], e.observe(a)["action_mask"])
        assert np.array_equal(e.infos[agent]["action_mask"], obs["action_mask"])
    p = parallel_env(variant="logik", players=3)
    obs, infos = p.reset(seed=8)
    rng = np.random.default_rng(8)
    while True:
        for a in obs:
            assert np.array_equal(infos[a]["action_mask"], obs[a]["action_mask"])
        if not p.agents:
            break
        masks = {a: obs[a]["action_mask"] for a in p.agents}
        acts = {a: int(rng.choice(np.flatnonzero(m))) for a, m in masks.items() if m.any()}
        obs, _, _, _, infos = p.step(acts)


@pytest.mark.parametrize(("variant", "players"), [("standard", 4), ("logik", 3), ("kids", 3)])
def test_global_state(variant: str, players: int) -> None:
    p = parallel_env(variant=variant, players=players)
    obs, _ = p.reset(seed=4)
    lay = state_layout(p.rules)
    assert p.state_space.shape == (lay["to_act"].stop,)
    rng = np.random.default_rng(4)
    checked = 0
    while p.agents:
        g = p.state()
        assert p.state_space.contains(g)
        engine = p.game_state
        assert np.array_equal(g[lay["observation"]], obs["player_0"]["observation"])
        hands = g[lay["hands"]].reshape(players, 104)
        for seat in range(players):
            hand = engine.hands[seat] if engine.hands else ()
            held = np.flatnonzero(hands[seat])
            assert sorted(int(c) + 1 for c in held) == sorted(hand)
            if variant == "kids":  # the pile's order: 1 is the next card played
                assert [int(hands[seat][c - 1]) for c in hand] == list(range(1, len(hand) + 1))
            assert g[lay["to_act"].start + seat] == (seat in engine.to_act())
        checked += 1
        masks = {a: obs[a]["action_mask"] for a in p.agents}
        acts = {a: int(rng.choice(np.flatnonzero(m))) for a, m in masks.items() if m.any()}
        obs, *_ = p.step(acts)
    assert checked > 10


def test_global_state_shows_face_down_choices() -> None:
    e = env(variant="standard", players=3)
    e.reset(seed=6)
    lay = state_layout(e.unwrapped.rules)
    card = e.unwrapped.game_state.hands[0][2]
    e.step(card - 1)
    g = e.unwrapped.state()
    assert g[lay["chosen"]].tolist() == [card, 0, 0]
    assert g[lay["to_act"]].tolist() == [0, 1, 1]
    # ... which no agent's observation shows to the others
    assert (
        card
        not in e.observe("player_1")["observation"][
            observation_layout(e.unwrapped.rules)["last_played"]
        ]
    )


@pytest.mark.parametrize(("variant", "players"), CASES)
@pytest.mark.usefixtures("only_expected_warnings")
def test_pettingzoo_render_test(
    variant: str, players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    render_test(lambda **kw: env(variant=variant, players=players, **kw))
    assert "round 1, turn" in capsys.readouterr().out  # human mode prints


def test_rgb_array_shows_the_table() -> None:
    e = env(variant="standard", players=4, render_mode="rgb_array")
    e.reset(seed=0)
    first = e.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8 and first.shape[2] == 3
    assert first.shape[0] > 200 and first.shape[1] > 200
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 10  # cards, text: not a blank image
    hands = e.unwrapped.game_state.hands
    for p in range(4):
        e.step(hands[p][0] - 1)
    assert not np.array_equal(e.render(), first)
    par = parallel_env(variant="kids", players=2, render_mode="rgb_array")
    par.reset(seed=0)
    assert par.render().shape[2] == 3


def test_parallel_env_type() -> None:
    assert isinstance(parallel_env(), Take6ParallelEnv)


def test_a_custom_deck_or_heads_table_is_refused() -> None:
    """The observations are laid out for the 104 standard cards: a rules file's own deck or
    bull-head table is refused in one line, never played with the printed heads."""
    from take6.errors import RulesError
    from take6.integrations.pettingzoo import rules_from_settings

    custom = Rules.for_variant("standard", 2, head_table=(0,) + (2,) * 104)
    with pytest.raises(RulesError, match="custom bull-head table"):
        rules_from_settings(rules=custom)
    with pytest.raises(RulesError, match="custom deck"):
        rules_from_settings("standard", 2, cards=tuple(range(2, 40)))
