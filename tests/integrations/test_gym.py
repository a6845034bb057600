"""The Gymnasium single-agent environment: Gymnasium's checker, masks, rewards that add up to the
learner's heads, bots, seeds, illegal actions, bad settings."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from take6.errors import IllegalActionError, Take6Error  # noqa: E402
from take6.integrations.gym import IDS, Take6Env  # noqa: E402


def play(env: Take6Env, seed: int, policy: str = "first") -> tuple[float, int, list[float]]:
    """One episode with masked actions; (total reward, steps, rewards)."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: list[float] = []
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        assert legal.size > 0
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        a = int(legal[0] if policy == "first" else rng.choice(legal))
        obs, r, done, truncated, info = env.step(a)
        assert not truncated
        assert env.observation_space.contains(obs)
        rewards.append(r)
    return sum(rewards), len(rewards), rewards


@pytest.mark.parametrize("env_id", sorted(IDS.values()))
def test_registered_ids_pass_the_gymnasium_checker(env_id: str) -> None:
    env = gymnasium.make(env_id, opponents="safe")
    check_env(env.unwrapped, skip_render_check=True)
    _total, steps, _ = play(env.unwrapped, 1)
    assert steps > 0


def test_make_by_module_path_without_import() -> None:
    env = gymnasium.make("take6.integrations.gym:take6/Standard-v0", players=3)
    assert env.unwrapped.rules.players == 3


def test_rewards_add_up_to_the_learners_heads() -> None:
    env = Take6Env(opponents=["random", "cheapest", "safe"], seat=2, target=20)
    total, _, _ = play(env, 5, policy="random")
    state = env.game.state
    assert state.is_over
    assert total == -state.totals[2]


def test_relative_reward_is_zero_sum_against_the_table() -> None:
    env = Take6Env(reward="relative", players=3, target=30)
    total, _, _ = play(env, 2, policy="random")
    totals = env.game.state.totals
    assert total == pytest.approx(-totals[0] + (totals[1] + totals[2]) / 2)


def test_same_seed_same_episode_and_bots_matter() -> None:
    a = play(Take6Env(opponents="safe"), 7, policy="random")
    b = play(Take6Env(opponents="safe"), 7, policy="random")
    assert a == b
    c = play(Take6Env(opponents="random"), 7, policy="random")
    assert c != a


def test_safe_bots_are_harder_than_random_ones() -> None:
    # The learner plays at random in both; over 30 games it takes more heads against `safe`.
    def mean(opponents: str) -> float:
        env = Take6Env(opponents=opponents, rounds=1, target=None)
        return float(np.mean([play(env, s, policy="random")[0] for s in range(30)]))

    assert mean("safe") < mean("random")


def test_illegal_action_penalised_or_raised() -> None:
    env = Take6Env()
    _, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, r, done, _, info = env.step(bad)
    assert (r, done, info["illegal_action"]) == (-100.0, True, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = Take6Env(illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(bad)
    with pytest.raises(IllegalActionError):
        strict.step(1.5)


def test_observation_is_normalised() -> None:
    env = Take6Env(variant="logik", players=2)
    obs, _ = env.reset(seed=4)
    assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1 and obs.max() > 0


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"opponents": "genius"}, "unknown bot 'genius'"),
        ({"opponents": ["safe"]}, "1 opponents for the 3 other seats"),
        ({"seat": 4}, "seat must be 0..3"),
        ({"reward": "glory"}, "reward must be"),
        ({"illegal_action": "ignore"}, "illegal_action must be"),
        ({"render_mode": "human"}, "render_mode must be"),
        ({"variant": "nope"}, "unknown variant"),
    ],
)
def test_bad_settings_are_one_line_errors(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(Take6Error, match=words):
        Take6Env(**kwargs)  # type: ignore[arg-type]


def test_render_ansi() -> None:
    env = Take6Env(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "standard" in text
