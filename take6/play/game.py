"""Playing whole games between bots, and the game record (every action, replayable).

The record format itself lives in :mod:`take6.io.record`; ``action_to_json``, ``rules_to_json`` and
``record_to_json`` stay importable from here.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from take6.errors import UsageError
from take6.io.record import Record, action_to_json, rules_to_json
from take6.play.bots import Agent, Bot
from take6.rules import Rules
from take6.state import (
    Action,
    Phase,
    State,
    new_game,
    random_deal,
    step,
)
from take6.turn import Event


@dataclass
class GameRecord:
    """A finished (or stopped) game: the settings, the seed, every action, what each action
    made happen (``events[i]`` are the events of ``actions[i]``, see :mod:`take6.turn`) and the
    states (every one, or only the final one)."""

    rules: Rules
    seed: int | None
    bots: tuple[str, ...]
    actions: list[Action] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    events: list[tuple[Event, ...]] = field(default_factory=list)

    @property
    def final(self) -> State:
        return self.states[-1]


def play_steps(
    rules: Rules,
    agents: Sequence[Agent],
    seed: int,
    *,
    max_actions: int = 1_000_000,
) -> Iterator[tuple[Action, State, tuple[Event, ...]]]:
    """Play a game from the first deal to the end, one action at a time: yields each action,
    the state after it and its events. ``agents[p]`` acts for seat ``p`` (a bot of
    :mod:`take6.play.bots`, or anything with the same ``act``, such as the command line's
    interactive player). One ``random.Random(seed)`` drives both the shuffles and the agents, in
    the order they act (simultaneous choices in seat order), so a seed and the same choices give
    the same game. An exception raised by an agent ends the game there (the actions yielded so
    far are a valid record of a game stopped midway)."""
    rules.check_always_ends()
    if len(agents) != rules.players:
        raise UsageError(f"{len(agents)} bots for {rules.players} players")
    rng = random.Random(seed)
    state = new_game(rules)
    for _ in range(max_actions):
        if state.phase is Phase.GAME_OVER:
            return
        if state.phase is Phase.DEAL:
            action: Action = random_deal(state, rng)
        else:
            p = state.to_act()[0]
            action = agents[p].act(state, p, rng)
        state, events = step(state, action)
        yield action, state, events
    raise RuntimeError(f"game did not end within {max_actions} actions")


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    seed: int,
    *,
    keep_states: bool = True,
    max_actions: int = 1_000_000,
) -> GameRecord:
    """Play a game from the first deal to the end (:func:`play_steps`) and return its
    record."""
    record = GameRecord(rules, seed, tuple(b.name for b in bots), [], [new_game(rules)])
    for action, state, events in play_steps(rules, bots, seed, max_actions=max_actions):
        record.actions.append(action)
        record.events.append(events)
        if keep_states:
            record.states.append(state)
        else:
            record.states[-1:] = [state]
    return record


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """The JSON game record (docs/records.md): settings, seed, bots, every action, per-round
    heads, final ``scores`` (totals), ``winners`` (0-based seats) and ``finished``."""
    final = record.final
    return Record.from_play(record.rules, record.actions, final, record.seed, record.bots).to_json()


__all__ = [
    "GameRecord",
    "action_to_json",
    "play_game",
    "play_steps",
    "record_to_json",
    "rules_to_json",
]
