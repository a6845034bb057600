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
    "rounds": 0,
    "target": 0,
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
        rounds, target = p["rounds"], p["target"]
        if rounds < 0:
            raise UsageError(f"rounds must be at least 0 (0: the default), got {rounds}")
        if target < 0:
            raise UsageError(f"target must be at least 0 (0: none), got {target}")
        if not target and not rounds:
            rounds = p["rounds"] = 1
        end = EndCondition(target=target or None, rounds=rounds or None)
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
            rules.check_always_ends()
            position = dataclasses.replace(position, rules=rules)
            p["position"] = position_param(position)
        else:
            overrides: dict[str, Any] = {"end": end}
            if p["hand_size"]:
                overrides["hand_size"] = p["hand_size"]
            rules = Rules.for_variant(p["variant"], p["players"], **overrides)
            rules.check_always_ends()
        rules.check_standard_cards("the OpenSpiel game")  # its actions number the 104 cards
        return cls(
            params=p,
            rules=rules,
            position=position,
            hands_public=p["known_hands"] or rules.draft,
            piles_hidden=rules.pile_play and not p["known_hands"],
            diff=p["returns"] == "diff",
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> Config:
        return self  # immutable: a clone of a state shares its game's config

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def has_chance(self) -> bool:
        """Some state is a chance node (a deal): no position, or more rounds, and no draft."""
        return not self.rules.draft and (self.position is None or self.rules.end.rounds != 1)

    @property
    def max_rounds(self) -> int:
        """A bound on the rounds of the game (:attr:`take6.rules.Rules.max_rounds`)."""
        rounds = self.rules.max_rounds
        assert rounds is not None  # check_always_ends() passed
        return rounds

    @property
    def max_heads(self) -> int:
        """A bound on the heads one player can take in the game: every round's deck, or with a
        target, the target plus one last round's deck (the game ends after that round)."""
        deck_heads = sum(HEADS[c] for c in self.rules.deck())
        bound = self.max_rounds * deck_heads
        if self.rules.end.target is not None:
            bound = min(bound, self.rules.end.target + deck_heads)
        return bound

    def max_game_length(self) -> int:
        """Player decisions (a simultaneous turn counts once) in the longest game."""
        r = self.rules
        n, k = r.players, r.hand_size
        per_turn = 1 + n if r.simultaneous else 2 * n  # plays, and a row choice per card
        per_round = k * per_turn + (n * k if r.draft else 0)
        return self.max_rounds * per_round

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
        pos = config.position
        engine = from_position(pos) if pos is not None else new_game(config.rules)
        rows = (_sorted_cards(engine.rows),) if engine.phase is Phase.CHOOSE else ()
        self.initial = _Data(
            engine=engine,
            start_scores=tuple(engine.score(p) for p in range(config.players)),
            round_rows=rows,
        )
        """The initial state's data, shared by every new state (and clone: OpenSpiel's clone
        starts from a new initial state)."""

    def new_initial_state(self) -> Take6State:
        return Take6State(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Take6Observer:
        if params:
            raise UsageError(f"{SHORT_NAME} observers take no parameters, got {dict(params)}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return Take6Observer(self.config, obs_type)


def _sorted_cards(rows: Sequence[Sequence[int]]) -> tuple[int, ...]:
    return tuple(sorted(c for row in rows for c in row))


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


@dataclasses.dataclass(frozen=True)
class _Data:
    """Everything a state holds beyond its game, as one immutable value.

    OpenSpiel's ``clone()`` of a Python state builds a new initial state and deep-copies each
    attribute; a state keeps only its config and this value, and both return themselves from
    ``__deepcopy__``, so a clone shares them (nothing in them is ever mutated: a transition
    replaces the value)."""

    engine: State
    start_scores: tuple[int, ...]
    dealt: tuple[int, ...] = ()
    log: tuple[_Logged, ...] = ()
    round_rows: tuple[tuple[int, ...], ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Data:
        return self


class Take6State(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an engine :class:`take6.state.State` (``engine``)."""

    def __init__(self, game: Take6Game) -> None:
        super().__init__(game)
        self.config = game.config
        self.data = game.initial

    # -- the data, read-only -------------------------------------------------------------------
    @property
    def engine(self) -> State:
        return self.data.engine

    @property
    def start_scores(self) -> tuple[int, ...]:
        return self.data.start_scores

    @property
    def dealt(self) -> tuple[int, ...]:
        """The cards dealt so far in a deal in progress, in deal order."""
        return self.data.dealt

    @property
    def log(self) -> tuple[_Logged, ...]:
        return self.data.log

    @property
    def round_rows(self) -> tuple[tuple[int, ...], ...]:
        """The cards each round's rows started with, ascending."""
        return self.data.round_rows

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
        logged = _Logged(kind, s.round, s.turn, player, value)
        self._advance(engine_action, (logged,))

    def _apply_actions(self, actions: Sequence[int]) -> None:
        s = self.engine
        if len(actions) != s.players:
            raise UsageError(f"{len(actions)} actions for {s.players} players in {s.describe()}")
        if s.phase is not Phase.CHOOSE or not s.rules.simultaneous:
            # A sequential node (a row choice, a pick, a Kids play, a deal) reached through the
            # simultaneous interface, as rl_environment does: only the owner's action counts.
            if s.phase is Phase.DEAL or s.is_over:
                raise UsageError(f"no player acts now (apply one action) in {s.describe()}")
            self._apply_action(int(actions[s.to_act()[0]]))
            return
        plays = [to_engine_action(s, p, int(a)) for p, a in enumerate(actions)]
        logged = tuple(
            _Logged("play", s.round, s.turn, p, int(a) + 1) for p, a in enumerate(actions)
        )
        data, engine = self.data, s
        for play in plays:
            engine, events = step(engine, play)  # raises before the state changes
            data = self._after(data, engine, events)
        self.data = dataclasses.replace(data, log=data.log + logged)

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

    def _advance(self, action: EngineAction, logged: tuple[_Logged, ...] = ()) -> None:
        engine, events = step(self.engine, action)
        data = self._after(self.data, engine, events)
        self.data = dataclasses.replace(data, log=data.log + logged)

    @staticmethod
    def _after(data: _Data, engine: State, events: Sequence[object]) -> _Data:
        rows = tuple(_sorted_cards(e.rows) for e in events if isinstance(e, RoundStarted))
        return dataclasses.replace(data, engine=engine, round_rows=data.round_rows + rows)

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
        logged = _Logged("deal", self.engine.round, 0, slot, card, seat)
        dealt = self.dealt + (card,)
        if len(dealt) < n * k + rules.rows:
            self.data = dataclasses.replace(self.data, dealt=dealt, log=self.log + (logged,))
            return
        # The rows are laid out ascending: the order the row cards came in carries nothing.
        rows = tuple(sorted(dealt[n * k :]))
        rest = tuple(c for c in rules.deck() if c not in dealt)
        self.data = dataclasses.replace(self.data, dealt=())
        self._advance(Deal(dealt[: n * k] + rows + rest), (logged,))

    def dealt_hand(self, player: int) -> tuple[int, ...]:
        """The cards dealt to ``player`` so far in a deal in progress (ascending; a Kids pile in
        deal order, the order it is played in)."""
        k = self.config.rules.hand_size
        hand = self.dealt[player * k : (player + 1) * k]
        return hand if self.config.rules.pile_play else tuple(sorted(hand))


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
