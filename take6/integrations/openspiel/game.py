"""The ``python_take6`` game and its states (see :mod:`take6.integrations.openspiel`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pyspiel

from take6.cards import HEADS
from take6.errors import IllegalActionError, UsageError
from take6.integrations.openspiel.actions import (
    RETURNS,
    ROW_BASE,
    SHORT_NAME,
    action_id,
    action_to_string,
    final_returns,
    to_engine_action,
)
from take6.integrations.openspiel.observer import Take6Observer
from take6.integrations.openspiel.text import state_text
from take6.notation import format_position, parse_position
from take6.position import Position
from take6.rules import EndCondition, Rules
from take6.state import Action as EngineAction
from take6.state import (
    ChooseRow,
    Deal,
    Phase,
    Pick,
    Play,
    State,
    from_position,
    legal_actions,
    new_game,
    step,
)
from take6.turn import RoundStarted

DEFAULT_PARAMS: dict[str, Any] = {
    "variant": "standard",
    "players": 2,
    "hand_size": 0,
    "rounds": 1,
    "position": "",
    "known_hands": False,
    "returns": "heads",
}


def _game_type(information: Any = None, chance_mode: Any = None, utility: Any = None) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python 6 nimmt! (take6)",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
        chance_mode=chance_mode or pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information or pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility or pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=10,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=DEFAULT_PARAMS,
    )


# -- parameters ------------------------------------------------------------------------------


def position_param(position: Position | str) -> str:
    """The ``position`` game parameter for ``position`` (its notation with ``.`` for ``,``)."""
    pos = parse_position(position) if isinstance(position, str) else position
    return format_position(pos).replace(",", ".")


def _parse_position_param(text: str) -> Position:
    return parse_position(text.replace(".", ","))


@dataclasses.dataclass(frozen=True)
class Config:
    """The validated parameters of one game.

    Attributes:
        params: the canonical parameters (what ``str(game)`` shows).
        rules: the rules, with the end after ``rounds`` rounds.
        position: the start position, or None for a deal (or Logik draft).
        hands_public: every hand is public (Logik, or ``known_hands``).
        piles_hidden: Kids: a hand is a face-down pile nobody sees (unless ``known_hands``).
        diff: zero-sum ``diff`` returns instead of ``heads``.
    """

    params: dict[str, Any]
    rules: Rules
    position: Position | None
    hands_public: bool
    piles_hidden: bool
    diff: bool

    @classmethod
    def from_params(cls, given: Mapping[str, Any]) -> Config:
        """Validate ``given`` (missing keys take :data:`DEFAULT_PARAMS`); raises ValueError."""
        unknown = set(given) - set(DEFAULT_PARAMS)
        if unknown:
            raise UsageError(
                f"unknown {SHORT_NAME} parameter(s) {sorted(unknown)} "
                f"(known: {sorted(DEFAULT_PARAMS)})"
            )
        p = {**DEFAULT_PARAMS, **given}
        for key, default in DEFAULT_PARAMS.items():
            if type(p[key]) is not type(default):
                raise UsageError(
                    f"{SHORT_NAME} parameter {key} must be {type(default).__name__}, got {p[key]!r}"
                )
        if p["returns"] not in RETURNS:
            raise UsageError(f"returns must be one of {RETURNS}, got {p['returns']!r}")
        rounds = p["rounds"]
        if rounds < 1:
            raise UsageError(f"rounds must be at least 1, got {rounds}")
        end = EndCondition(target=None, rounds=rounds)
        position: Position | None = None
        if p["position"]:
            position = _parse_position_param(p["position"])
            where = f"position {format_position(position)!r}"
            if p["variant"] != position.variant.value:
                raise UsageError(f"variant={p['variant']} does not match the {where}")
            if p["players"] != position.players:
                raise UsageError(f"players={p['players']} does not match the {where}")
            if p["hand_size"] not in (0, position.rules.hand_size):
                raise UsageError(f"hand_size={p['hand_size']} does not match the {where}")
            rules = position.rules.with_(end=end)
            position = dataclasses.replace(position, rules=rules)
            p["position"] = position_param(position)
        else:
            overrides: dict[str, Any] = {"end": end}
            if p["hand_size"]:
                overrides["hand_size"] = p["hand_size"]
            rules = Rules.for_variant(p["variant"], p["players"], **overrides)
        return cls(
            params=p,
            rules=rules,
            position=position,
            hands_public=p["known_hands"] or rules.draft,
            piles_hidden=rules.pile_play and not p["known_hands"],
            diff=p["returns"] == "diff",
        )

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def has_chance(self) -> bool:
        """Some state is a chance node (a deal): no position, or more rounds, and no draft."""
        return not self.rules.draft and (self.position is None or self.rules.end.rounds != 1)

    @property
    def max_heads(self) -> int:
        """A bound on the heads one player (or all together) can take in the game."""
        assert self.rules.end.rounds is not None
        return self.rules.end.rounds * sum(HEADS[c] for c in self.rules.deck())

    def max_game_length(self) -> int:
        """Player decisions (a simultaneous turn counts once) in the longest game."""
        r = self.rules
        n, k = r.players, r.hand_size
        per_turn = 1 + n if r.simultaneous else 2 * n  # plays, and a row choice per card
        per_round = k * per_turn + (n * k if r.draft else 0)
        assert r.end.rounds is not None
        return r.end.rounds * per_round

    def game_type(self) -> Any:
        info = pyspiel.GameType.Information
        chance = pyspiel.GameType.ChanceMode
        util = pyspiel.GameType.Utility
        return _game_type(
            information=info.PERFECT_INFORMATION
            if self.hands_public
            else info.IMPERFECT_INFORMATION,
            chance_mode=chance.EXPLICIT_STOCHASTIC if self.has_chance else chance.DETERMINISTIC,
            utility=util.ZERO_SUM if self.diff else util.GENERAL_SUM,
        )

    def game_info(self) -> Any:
        h = float(self.max_heads)
        if self.diff:
            low, high = -h, h
        else:
            low, high = (-h, 0.0) if self.rules.lowest_wins else (0.0, h)
        return pyspiel.GameInfo(
            num_distinct_actions=ROW_BASE + self.rules.rows,
            max_chance_outcomes=self.rules.deck_size if self.has_chance else 0,
            num_players=self.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if self.diff else None,
            max_game_length=self.max_game_length(),
        )


# -- the game --------------------------------------------------------------------------------


class Take6Game(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game; build it with ``pyspiel.load_game`` or :func:`load_game`."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        config = Config.from_params(dict(params or {}))
        super().__init__(config.game_type(), config.game_info(), config.params)
        self.config = config

    def new_initial_state(self) -> Take6State:
        return Take6State(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Take6Observer:
        if params:
            raise UsageError(f"{SHORT_NAME} observers take no parameters, got {dict(params)}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return Take6Observer(self.config, obs_type)


@dataclasses.dataclass(frozen=True)
class _Logged:
    """One step of the history, for information states: ``kind`` is ``deal``, ``pick``,
    ``play`` or ``row``; ``seat`` is who sees a dealt card (None: everyone; -1: nobody)."""

    kind: str
    round: int
    turn: int
    player: int
    value: int
    seat: int | None = None


class Take6State(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an engine :class:`take6.state.State` (``engine``)."""

    def __init__(self, game: Take6Game) -> None:
        super().__init__(game)
        self.config = game.config
        pos = self.config.position
        self.engine: State = from_position(pos) if pos is not None else new_game(self.config.rules)
        self.start_scores = tuple(self.engine.score(p) for p in range(self.config.players))
        self.dealt: tuple[int, ...] = ()
        self.log: tuple[_Logged, ...] = ()
        self.round_rows: tuple[tuple[int, ...], ...] = ()
        if self.engine.phase is Phase.CHOOSE:
            self._round_started(self.engine.rows)

    # -- OpenSpiel API -------------------------------------------------------------------------
    def current_player(self) -> int:
        s = self.engine
        if s.phase is Phase.GAME_OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        if s.phase is Phase.DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        if s.phase is Phase.CHOOSE and s.rules.simultaneous:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return s.to_act()[0]

    def _legal_actions(self, player: int) -> list[int]:
        if self.engine.phase is Phase.DEAL:
            return []
        return sorted(action_id(a) for a in legal_actions(self.engine, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        rest = [c for c in self.config.rules.deck() if c not in self.dealt]
        return [(c - 1, 1.0 / len(rest)) for c in rest]

    def _apply_action(self, action: int) -> None:
        s = self.engine
        if s.phase is Phase.DEAL:
            self._deal(int(action) + 1)
            return
        player = s.to_act()[0]
        engine_action = to_engine_action(s, player, int(action))
        kind = {Pick: "pick", Play: "play", ChooseRow: "row"}[type(engine_action)]
        value = int(action) - ROW_BASE if kind == "row" else int(action) + 1
        self.log += (_Logged(kind, s.round, s.turn, player, value),)
        self._advance(engine_action)

    def _apply_actions(self, actions: Sequence[int]) -> None:
        s = self.engine
        if len(actions) != s.players:
            raise UsageError(f"{len(actions)} actions for {s.players} players in {s.describe()}")
        plays = [to_engine_action(s, p, int(a)) for p, a in enumerate(actions)]
        self.log += tuple(
            _Logged("play", s.round, s.turn, p, int(a) + 1) for p, a in enumerate(actions)
        )
        for play in plays:
            self._advance(play)

    def _action_to_string(self, player: int, action: int) -> str:
        return action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self.engine.is_over

    def returns(self) -> list[float]:
        if not self.engine.is_over:
            return [0.0] * self.config.players
        return final_returns(self.config, self.heads_taken())

    def rewards(self) -> list[float]:
        return self.returns()

    def __str__(self) -> str:
        return state_text(self)

    # -- helpers -------------------------------------------------------------------------------
    def heads_taken(self) -> tuple[int, ...]:
        """Heads each player took since the start of this game (this round's piles included)."""
        return tuple(
            self.engine.score(p) - self.start_scores[p] for p in range(self.config.players)
        )

    def _advance(self, action: EngineAction) -> None:
        self.engine, events = step(self.engine, action)
        for e in events:
            if isinstance(e, RoundStarted):
                self._round_started(e.rows)

    def _round_started(self, rows: Sequence[Sequence[int]]) -> None:
        self.round_rows += (tuple(sorted(c for row in rows for c in row)),)

    def _deal(self, card: int) -> None:
        rules = self.config.rules
        if card in self.dealt or not 1 <= card <= rules.deck_size:
            raise IllegalActionError(f"chance outcome {card - 1} (card {card}) cannot be dealt now")
        slot = len(self.dealt)
        k, n = rules.hand_size, rules.players
        if slot >= n * k or self.config.hands_public:
            seat: int | None = None
        else:
            seat = -1 if self.config.piles_hidden else slot // k
        self.log += (_Logged("deal", self.engine.round, 0, slot, card, seat),)
        self.dealt += (card,)
        if len(self.dealt) == n * k + rules.rows:
            rest = tuple(c for c in rules.deck() if c not in self.dealt)
            order = self.dealt + rest
            self.dealt = ()
            self._advance(Deal(order))

    def dealt_hand(self, player: int) -> tuple[int, ...]:
        """The cards dealt to ``player`` so far in a deal in progress."""
        k = self.config.rules.hand_size
        return tuple(sorted(self.dealt[player * k : (player + 1) * k]))


# -- registration and loading ----------------------------------------------------------------


def load_game(position: Position | str | None = None, **params: Any) -> Any:
    """``pyspiel.load_game("python_take6", params)``; ``position`` may be a :class:`Position`
    or its ordinary notation, and sets ``variant`` and ``players`` to match."""
    if position is not None:
        pos = parse_position(position) if isinstance(position, str) else position
        params = {
            "variant": pos.variant.value,
            "players": pos.players,
            **params,
            "position": position_param(pos),
        }
    return pyspiel.load_game(SHORT_NAME, params)


def engine_state(state: Any) -> State:
    """The engine state inside an OpenSpiel ``python_take6`` state."""
    if not isinstance(state, Take6State):
        raise TypeError(f"not a {SHORT_NAME} state: {type(state).__name__}")
    return state.engine


def _register() -> None:
    if SHORT_NAME not in {t.short_name for t in pyspiel.registered_games()}:
        pyspiel.register_game(_game_type(), Take6Game)


_register()

__all__ = [
    "DEFAULT_PARAMS",
    "Config",
    "Take6Game",
    "Take6State",
    "engine_state",
    "load_game",
    "position_param",
]
