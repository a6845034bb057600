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


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """Every setting of ``rules`` as JSON-ready data (enums by value)."""
    return {
        "variant": rules.variant.value,
        "players": rules.players,
        "hand_size": rules.hand_size,
        "rows": rules.rows,
        "row_capacity": rules.row_capacity,
        "deck_size": rules.deck_size,
        "end": {
            "target": rules.end.target,
            "comparison": rules.end.comparison.value,
            "rounds": rules.end.rounds,
        },
        "profi_left": rules.profi_left,
        "profi_tie": rules.profi_tie.value,
        "simultaneous": rules.simultaneous,
        "pile_play": rules.pile_play,
        "lowest_wins": rules.lowest_wins,
        "draft": rules.draft,
        "first_picker": rules.first_picker,
        "rotate_first_picker": rules.rotate_first_picker,
    }


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """The JSON game record: settings, seed, bots, every action, per-round heads, final
    ``scores`` (totals) and ``winners`` (0-based seats)."""
    final = record.final
    return {
        "format": "take6-game-record",
        "version": 1,
        "rules": rules_to_json(record.rules),
        "seed": record.seed,
        "bots": list(record.bots),
        "actions": [action_to_json(a) for a in record.actions],
        "rounds": [list(r) for r in final.round_scores],
        "scores": list(final.totals),
        "winners": list(final.winners()) if final.is_over else [],
        "finished": final.is_over,
    }
