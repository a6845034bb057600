"""The OpenSpiel ids of take6's actions (a card ``c`` is ``c - 1``, row ``r`` is
``ROW_BASE + r``), the game's constants and its returns: plain functions over the engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pyspiel

from take6.cards import MAX_CARD
from take6.errors import IllegalActionError
from take6.state import Action as EngineAction
from take6.state import (
    ChooseRow,
    Phase,
    Pick,
    Play,
    State,
)

if TYPE_CHECKING:
    from take6.integrations.openspiel.game import Config

SHORT_NAME = "python_take6"
ROW_BASE = MAX_CARD
"""Id of "choose row 1"; row ``r`` (0-based) is ``ROW_BASE + r``. Card ``c`` is ``c - 1``."""

RETURNS = ("heads", "diff")

_PHASES = (Phase.DEAL, Phase.DRAFT, Phase.CHOOSE, Phase.ROW_CHOICE, Phase.GAME_OVER)


# -- mapping ids <-> engine actions ----------------------------------------------------------


def action_id(action: EngineAction) -> int:
    """The OpenSpiel id of an engine ``Play``, ``Pick`` or ``ChooseRow``."""
    if isinstance(action, (Play, Pick)):
        return action.card - 1
    if isinstance(action, ChooseRow):
        return ROW_BASE + action.row
    raise IllegalActionError(
        f"{action!r} has no OpenSpiel action id (deals are dealt card by card)"
    )


def to_engine_action(state: State, player: int, action: int) -> EngineAction:
    """The engine action of ``player``'s OpenSpiel id ``action`` in ``state`` (not a deal)."""
    if not 0 <= action < ROW_BASE + state.rules.rows:
        raise IllegalActionError(f"action id {action} is out of range in {state.describe()}")
    if state.phase is Phase.ROW_CHOICE:
        if action < ROW_BASE:
            raise IllegalActionError(
                f"action {action} is a card, a row is due in {state.describe()}"
            )
        return ChooseRow(player, action - ROW_BASE)
    if action >= ROW_BASE:
        raise IllegalActionError(
            f"action {action} is a row choice, none is due in {state.describe()}"
        )
    if state.phase is Phase.DRAFT:
        return Pick(player, action + 1)
    return Play(player, action + 1)


def action_to_string(player: int, action: int) -> str:
    """``deal 17``, ``card 17`` or ``row 2`` (rows 1-based)."""
    if player == int(pyspiel.PlayerId.CHANCE):
        return f"deal {action + 1}"
    if action >= ROW_BASE:
        return f"row {action - ROW_BASE + 1}"
    return f"card {action + 1}"


def final_returns(config: Config, heads: Sequence[int]) -> list[float]:
    """Returns for ``heads`` taken (see the module docstring)."""
    sign = -1.0 if config.rules.lowest_wins else 1.0
    s = [sign * h + 0.0 for h in heads]
    if not config.diff:
        return s
    n = len(s)
    total = sum(s)
    return [x - (total - x) / (n - 1) for x in s]
