"""Replaying a game record through the reference engine: the first illegal action, or the
recorded results the replay contradicts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from take6.errors import IllegalActionError
from take6.io.record import Record, action_to_json
from take6.state import (
    ILLEGAL_PREFIX,
    Action,
    State,
    apply,
    describe_action,
    new_game,
)
from take6.text import plural

# -- replay ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayResult:
    """What replaying a record through the reference engine found.

    Attributes:
        record: the record replayed.
        final: the state after the last legal action.
        steps: how many actions were applied legally.
        illegal_step: the 1-based step number of the first illegal action (``None``: all legal).
        illegal_action: that action.
        error: the engine's message for it.
        mismatches: each recorded result (``rounds``, ``scores``, ``winners``, ``finished``)
            that the replay contradicts, one line each (checked only when every action is legal).
    """

    record: Record
    final: State
    steps: int
    illegal_step: int | None = None
    illegal_action: Action | None = None
    error: str | None = None
    mismatches: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when every action is legal and every recorded result matches the replay."""
        return self.illegal_step is None and not self.mismatches

    def message(self) -> str:
        """One line: the first illegal action (its step and its JSON), or the mismatches, or a
        summary of the legal and consistent game."""
        if self.illegal_step is not None:
            assert self.illegal_action is not None
            action = json.dumps(action_to_json(self.illegal_action))
            why = self.error or ""
            engine_prefix = f"{ILLEGAL_PREFIX}{describe_action(self.illegal_action)}: "
            if why.startswith(engine_prefix):
                why = why[len(engine_prefix) :]
            said = describe_action(self.illegal_action)
            return f"step {self.illegal_step}: {said} ({action}) is illegal: {why}"
        if self.mismatches:
            return "replay contradicts the record: " + "; ".join(self.mismatches)
        final = self.final
        end = "game over" if final.is_over else f"stopped in {final.describe()}"
        text = (
            f"legal and consistent: {plural(self.steps, 'action')}, "
            f"{plural(len(final.round_scores), 'round')}"
        )
        text += f", {end}, scores {', '.join(map(str, final.totals))}"
        if final.is_over:
            text += f", winners {', '.join(f'P{p + 1}' for p in final.winners())}"
        return text

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data (``take6 replay --json``)."""
        final = self.final
        return {
            "ok": self.ok,
            "steps": self.steps,
            "actions": len(self.record.actions),
            "illegal_step": self.illegal_step,
            "illegal_action": (
                None if self.illegal_action is None else action_to_json(self.illegal_action)
            ),
            "error": self.error,
            "mismatches": list(self.mismatches),
            "rounds": [list(r) for r in final.round_scores],
            "scores": list(final.totals),
            "winners": list(final.winners()) if final.is_over else [],
            "finished": final.is_over,
            "message": self.message(),
        }


def replay_states(record: Record) -> tuple[list[State], ReplayResult]:
    """Every state of the replay (the start, then one per legal action) and the result."""
    state = new_game(record.rules)
    states = [state]
    for i, action in enumerate(record.actions):
        try:
            state = apply(state, action)
        except IllegalActionError as exc:
            result = ReplayResult(record, state, i, i + 1, action, str(exc))
            return states, result
        states.append(state)
    return states, ReplayResult(
        record, state, len(record.actions), mismatches=_check(record, state)
    )


def replay(record: Record) -> ReplayResult:
    """Replay ``record`` through the reference engine: the first illegal action (with its 1-based
    step number), or the recorded results the replay contradicts."""
    return replay_states(record)[1]


def _check(record: Record, final: State) -> tuple[str, ...]:
    out = []
    rounds = final.round_scores
    if record.rounds is not None and record.rounds != rounds:
        out.append(f"'rounds' says {_plain(record.rounds)}, the replay gives {_plain(rounds)}")
    if record.scores is not None and record.scores != final.totals:
        out.append(f"'scores' says {list(record.scores)}, the replay gives {list(final.totals)}")
    winners = final.winners() if final.is_over else ()
    if record.winners is not None and tuple(sorted(record.winners)) != winners:
        out.append(f"'winners' says {list(record.winners)}, the replay gives {list(winners)}")
    if record.finished is not None and record.finished != final.is_over:
        said = "finished" if record.finished else "not finished"
        real = "is over" if final.is_over else f"is not over ({final.describe()})"
        out.append(f"'finished' says {said}, but after the last action the game {real}")
    return tuple(out)


def _plain(rows: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    return [list(r) for r in rows]
