"""MaskablePPO (sb3-contrib) against take6 bots in the Gymnasium environment (not a test).

Trains a masked PPO learner at seat 0 of the 4-player standard game, one round per episode, then
prints the mean heads per round it takes over evaluation rounds, side by side with a random
learner and take6's `safe` bot in the same seat against the same opponents and deals.

    pip install sb3-contrib          # pulls torch; not one of take6's extras
    python bench/rl_maskable_ppo.py --steps 150000 --opponents random --eval 1000
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from take6.integrations.gym import Take6Env, action_index
from take6.play.bots import make_bot


def make_env(opponents: str) -> Take6Env:
    return Take6Env(opponents=opponents, rounds=1, target=None)


def evaluate(env: Take6Env, policy: str, rounds: int, model: Any = None) -> list[float]:
    """Heads the learner takes in each of ``rounds`` rounds (deal seeds 10**6 + i)."""
    heads: list[float] = []
    bot = make_bot("safe")
    rng = random.Random(0)
    for i in range(rounds):
        obs, info = env.reset(seed=10**6 + i)
        done, total = False, 0.0
        while not done:
            mask = info["action_mask"].astype(bool)
            if policy == "random":
                action = int(rng.choice(np.flatnonzero(mask)))
            elif policy == "safe":
                action = action_index(bot.act(env.game.state, env.seat, rng))
            else:
                action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            obs, reward, done, _, info = env.step(int(action))
            total += reward
        heads.append(-total)
    return heads


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=150_000)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--eval", type=int, default=1000, help="evaluation rounds")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    from sb3_contrib import MaskablePPO  # type: ignore[import-not-found]  # this script's own

    env = make_env(args.opponents)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    started = time.perf_counter()
    model.learn(args.steps)
    train = time.perf_counter() - started
    print(f"trained {args.steps:,} steps against {args.opponents} in {train:.0f} s")
    for name in ("random", "safe", "ppo"):
        h = evaluate(make_env(args.opponents), name, args.eval, model)
        sem = statistics.stdev(h) / len(h) ** 0.5
        mean = statistics.mean(h)
        print(f"{name:>7} learner: {mean:6.2f} heads/round (± {sem:.2f}, {len(h)} rounds)")


if __name__ == "__main__":
    main()
