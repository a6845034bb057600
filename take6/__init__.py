"""take6: the reference engine for 6 nimmt! (Take 6) and its variants.

The rules core is pure: immutable states, explicit actions, chance as a seeded action.

>>> from take6 import Rules, new_game, random_deal, apply
>>> import random
>>> state = new_game(Rules.for_variant("standard", players=4))
>>> state = apply(state, random_deal(state, random.Random(1)))
>>> state.phase
Phase.CHOOSE
"""

from take6.cards import HEADS, MAX_CARD, TOTAL_HEADS, Card, deck, heads, total_heads
from take6.errors import (
    CardError,
    FileError,
    IllegalActionError,
    InputError,
    NotationError,
    PositionError,
    RulesError,
    Take6Error,
    UsageError,
)
from take6.notation import (
    format_position,
    load_position,
    parse_position,
    position_from_json,
)
from take6.placement import Move, Placement, Reason, Side, apply_move, place
from take6.position import Position
from take6.rules import Comparison, EndCondition, ProfiTie, Rules, Variant
from take6.state import (
    Action,
    ChooseRow,
    Deal,
    Phase,
    Pick,
    Play,
    State,
    apply,
    apply_all,
    from_position,
    legal_actions,
    new_game,
    random_deal,
    step,
)
from take6.turn import (
    Event,
    GameOver,
    Outcome,
    Pending,
    Placed,
    Revealed,
    RoundScored,
    RoundStarted,
    Termination,
    Turn,
    TurnEnded,
    resolve_turn,
)

__all__ = [
    "HEADS",
    "MAX_CARD",
    "TOTAL_HEADS",
    "Action",
    "Card",
    "CardError",
    "ChooseRow",
    "Comparison",
    "Deal",
    "EndCondition",
    "Event",
    "FileError",
    "GameOver",
    "IllegalActionError",
    "InputError",
    "Move",
    "NotationError",
    "Outcome",
    "Pending",
    "Phase",
    "Pick",
    "Placed",
    "Placement",
    "Play",
    "Position",
    "PositionError",
    "ProfiTie",
    "Reason",
    "Revealed",
    "RoundScored",
    "RoundStarted",
    "Rules",
    "RulesError",
    "Side",
    "State",
    "Take6Error",
    "Termination",
    "Turn",
    "TurnEnded",
    "UsageError",
    "Variant",
    "apply",
    "apply_all",
    "apply_move",
    "deck",
    "format_position",
    "from_position",
    "heads",
    "legal_actions",
    "load_position",
    "new_game",
    "parse_position",
    "place",
    "position_from_json",
    "random_deal",
    "resolve_turn",
    "step",
    "total_heads",
]
