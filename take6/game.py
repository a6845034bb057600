"""Playing whole games between bots, and the game record (every action, replayable)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from take6.bots import Bot
from take6.rules import Rules
from take6.state import (
    Action,
    ChooseRow,
    Deal,
    Phase,
    Pick,
    Play,
    State,
    apply,
    new_game,
    random_deal,
)


@dataclass
class GameRecord:
    """A finished (or stopped) game: the settings, the seed, every action and the final state."""

    rules: Rules
    seed: int | None
    bots: tuple[str, ...]
    actions: list[Action] = field(default_factory=list)
    states: list[State] = field(default_factory=list)

    @property
    def final(self) -> State:
        return self.states[-1]


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    seed: int,
    *,
    keep_states: bool = True,
    max_actions: int = 1_000_000,
) -> GameRecord:
    """Play a game from the first deal to the end. One ``random.Random(seed)`` drives both the
    shuffles and the bots, in the order they act (simultaneous choices in seat order)."""
    if len(bots) != rules.players:
        raise ValueError(f"{len(bots)} bots for {rules.players} players")
    rng = random.Random(seed)
    state = new_game(rules)
    record = GameRecord(rules, seed, tuple(b.name for b in bots), [], [state])
    for _ in range(max_actions):
        if state.phase is Phase.GAME_OVER:
            return record
        if state.phase is Phase.DEAL:
            action: Action = random_deal(state, rng)
        else:
            p = state.to_act()[0]
            action = bots[p].act(state, p, rng)
        state = apply(state, action)
        record.actions.append(action)
        if keep_states:
            record.states.append(state)
        else:
            record.states[-1:] = [state]
    raise RuntimeError(f"game did not end within {max_actions} actions")


def action_to_json(action: Action) -> dict[str, Any]:
    """A JSON-ready dict of ``action`` (players 0-based, rows 0-based)."""
    if isinstance(action, Deal):
        return {"type": "deal", "order": list(action.order)}
    if isinstance(action, Pick):
        return {"type": "pick", "player": action.player, "card": action.card}
    if isinstance(action, Play):
        return {"type": "play", "player": action.player, "card": action.card}
    if isinstance(action, ChooseRow):
        return {"type": "row", "player": action.player, "row": action.row}
    raise TypeError(f"not an action: {action!r}")
