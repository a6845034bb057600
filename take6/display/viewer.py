"""Stepping through a game record in Jupyter: each state as SVG."""

from __future__ import annotations

import json

from take6.io.record import Record, action_to_json
from take6.io.replay import replay_states
from take6.state import (
    Action,
    State,
)

# -- stepping through a record ----------------------------------------------------------------


class RecordViewer:
    """Step through a game record; in Jupyter it shows the state at the current step as SVG.

    Step 0 is the start of the game; step i is the state after the record's i-th action. A
    record with an illegal action can be viewed up to the step before it. The stepping methods
    return the viewer, so ``viewer.next()`` as the last line of a cell shows the new state.

    >>> from take6.play.game import play_game
    >>> from take6.play.bots import make_bot
    >>> game = play_game(Rules.for_variant("standard", players=2, end=EndCondition(target=None,
    ...                  rounds=1)), [make_bot("safe"), make_bot("safe")], seed=1)
    >>> viewer = RecordViewer(Record.from_play(game.rules, game.actions, game.final))
    >>> viewer.last().step == len(viewer) - 1
    True
    """

    def __init__(self, record: Record, step: int = 0) -> None:
        self.record = record
        self.states, self.result = replay_states(record)
        self.step = 0
        self.goto(step)

    def __len__(self) -> int:
        """Number of viewable steps (the start plus every legal action)."""
        return len(self.states)

    @property
    def state(self) -> State:
        """The state at the current step."""
        return self.states[self.step]

    @property
    def action(self) -> Action | None:
        """The action that led to the current step (``None`` at step 0)."""
        return self.record.actions[self.step - 1] if self.step else None

    def goto(self, step: int) -> RecordViewer:
        """Go to ``step`` (negative counts from the end, like a list index)."""
        n = len(self.states)
        if not -n <= step < n:
            raise IndexError(f"step {step} out of range 0..{n - 1}")
        self.step = step % n
        return self

    def next(self, count: int = 1) -> RecordViewer:
        """Go ``count`` steps forward (stopping at the last)."""
        self.step = min(len(self.states) - 1, self.step + count)
        return self

    def prev(self, count: int = 1) -> RecordViewer:
        """Go ``count`` steps back (stopping at the start)."""
        self.step = max(0, self.step - count)
        return self

    def first(self) -> RecordViewer:
        return self.goto(0)

    def last(self) -> RecordViewer:
        return self.goto(-1)

    def caption(self) -> str:
        """One line: the step, the action that led here, and the state."""
        n = len(self.states) - 1
        text = f"step {self.step}/{n}"
        if self.action is not None:
            text += f": {json.dumps(action_to_json(self.action))}"
        return text

    def _repr_svg_(self) -> str:
        from take6.display.svg import state_svg

        return state_svg(self.state)

    def _repr_html_(self) -> str:
        from html import escape

        from take6.display.svg import state_svg

        caption = escape(self.caption())
        note = ""
        if self.result.illegal_step is not None and self.step == len(self.states) - 1:
            note = f"<div><b>next:</b> {escape(self.result.message())}</div>"
        return f"<div><div><code>{caption}</code></div>{state_svg(self.state)}{note}</div>"

    def __repr__(self) -> str:
        return f"<RecordViewer {self.caption()}>"
