"""A Gymnasium single-agent environment: one learner against take6 bots (extra ``take6[rl]``).

Importing this module registers one id per variant (4 players, the game to 66; settings can be
overridden as keyword arguments of :func:`gymnasium.make`)::

    import gymnasium as gym
    import take6.integrations.gym  # registers take6/Standard-v0, take6/Profi-v0, ...
    env = gym.make("take6/Standard-v0", opponents="safe")
    # or, without the import: gym.make("take6.integrations.gym:take6/Standard-v0")

The learner sits at ``seat`` (0 by default); the other seats are played by take6 bots
(``opponents``: one name for all, or one per other seat, from :data:`take6.bots.BOTS`), with
their own random generator seeded from ``reset(seed=...)``. One step is one decision of the
learner: the card of a turn, the row its too-low card takes (Profi: also a tie or no fit), a
Logik pick; the bots' decisions in between happen inside the step.

* Observation: the PettingZoo observation vector of the learner's seat
  (:mod:`take6.integrations.pettingzoo` documents every segment) divided by its upper bound, so
  every entry lies in [0, 1]: ``Box(0, 1, (L,), float32)``.
* Action: ``Discrete(104 + R)``: card ``index + 1`` (play or pick), or row ``index - 104``.
  :meth:`Take6Env.action_masks` (for sb3-contrib's MaskablePPO) and ``info["action_mask"]`` give
  the legal ones.
* Reward: minus the heads the learner takes at that step, bots' decisions included (plus in
  Kids, where the most heads win); with ``reward="relative"``, minus its heads plus the mean of
  the others' heads at that step (zero-sum against the table).
* ``terminated`` when the game is over; never truncated (every game ends, see ``take6 verify``).
* An illegal action ends the episode with reward ``illegal_reward`` (default -100) and
  ``info["illegal_action"]`` (``illegal_action="penalise"``, the default: an unmasked learner, and
  Gymnasium's ``check_env``, which steps random actions, work), or raises
  :class:`~take6.errors.IllegalActionError` (``illegal_action="raise"``).
* ``render_mode="ansi"``: the state in one line.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from take6.errors import IllegalActionError, UsageError
from take6.integrations.pettingzoo import (
    N_CARDS,
    FloatArray,
    _Game,
    _index,
    _observation_high,
    rules_from_settings,
)
from take6.play.bots import BOTS, Bot, make_bot
from take6.rules import Variant
from take6.state import Action, ChooseRow, Pick, Play

BoolArray = npt.NDArray[np.bool_]

IDS = {v: f"take6/{v.value.capitalize()}-v0" for v in Variant}
"""The registered id of each variant (``take6/Standard-v0``, ``take6/Logik-v0``, ...)."""


class Take6Env(gymnasium.Env[FloatArray, np.int64]):
    """One learner against take6 bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        reward: str = "heads",
        illegal_action: str = "penalise",
        illegal_reward: float = -100.0,
        render_mode: str | None = None,
        **settings: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UsageError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if reward not in ("heads", "relative"):
            raise UsageError(f"reward must be 'heads' or 'relative', got {reward!r}")
        if illegal_action not in ("raise", "penalise"):
            raise UsageError(
                f"illegal_action must be 'raise' or 'penalise', got {illegal_action!r}"
            )
        self.rules = rules_from_settings(**settings)
        n = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise UsageError(f"seat must be 0..{n - 1} (0-based), got {seat!r}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise UsageError(f"{len(names)} opponents for the {n - 1} other seats")
        self.bots: dict[int, Bot] = {}
        others = [p for p in range(n) if p != seat]
        for p, name in zip(others, names, strict=True):
            if name not in BOTS:
                raise UsageError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
            self.bots[p] = make_bot(name)
        self.opponents = tuple(names)
        self.seat = seat
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.game = _Game(self.rules)
        self._high = _observation_high(self.rules)
        self.observation_space = spaces.Box(0.0, 1.0, shape=self._high.shape, dtype=np.float32)
        self.action_space = spaces.Discrete(N_CARDS + self.rules.rows)
        self._bot_rng = random.Random()
        self._over = True

    # -- the game between the learner's decisions ----------------------------------------
    def _bots_act(self) -> list[float]:
        """Let the bots decide until the learner must act or the game is over; their rewards."""
        total = [0.0] * self.rules.players
        while not self.game.state.is_over:
            to_act = self.game.to_act()
            bots = [p for p in to_act if p != self.seat]
            if not bots:
                break
            p = bots[0]
            action = self.bots[p].act(self.game.state, p, self._bot_rng)
            got = self.game.act(p, action_index(action))
            total = [a + b for a, b in zip(total, got, strict=True)]
        return total

    def _reward(self, rewards: list[float]) -> float:
        # rewards[p]: minus the heads seat p took (plus in Kids)
        own = rewards[self.seat]
        if self.reward_mode == "heads":
            return own
        others = [r for p, r in enumerate(rewards) if p != self.seat]
        return own - sum(others) / len(others)

    def _obs(self) -> FloatArray:
        v: FloatArray = np.clip(self.game.vector(self.seat) / self._high, 0.0, 1.0)
        return v.astype(np.float32)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.game.mask(self.seat).astype(np.int8)}

    # -- Gymnasium API -----------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        super().reset(seed=seed)
        # Chance and the bots draw from generators seeded from Gymnasium's np_random.
        game_seed, bot_seed = (int(x) for x in self.np_random.integers(0, 2**63 - 1, size=2))
        self.game.reset(game_seed)
        self._bot_rng = random.Random(bot_seed)
        self._over = False
        self._bots_act()  # rewards before the learner's first decision: none (no turn yet)
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[FloatArray, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            index = _index(action, f"player_{self.seat}")
            rewards = self.game.act(self.seat, index)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), self.illegal_reward, True, False, info
        more = self._bots_act()
        rewards = [a + b for a, b in zip(rewards, more, strict=True)]
        self._over = self.game.state.is_over
        return self._obs(), self._reward(rewards), self._over, False, self._info()

    def action_masks(self) -> BoolArray:
        """The legal actions now (sb3-contrib's MaskablePPO calls this)."""
        return self.game.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.game.state.describe()


def action_index(action: Action) -> int:
    """The action index of an engine action (the inverse of the environment's decoding)."""
    if isinstance(action, (Play, Pick)):
        return action.card - 1
    if isinstance(action, ChooseRow):
        return N_CARDS + action.row
    raise UsageError(f"a bot answered {action!r}, not a decision")  # never: bots decide


def register_envs() -> None:
    """Register :data:`IDS` with Gymnasium (done on import; calling it again is harmless)."""
    for variant, env_id in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="take6.integrations.gym:Take6Env",
                kwargs={"variant": variant.value},
                disable_env_checker=False,
            )


register_envs()
