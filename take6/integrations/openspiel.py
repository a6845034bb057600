"""OpenSpiel adapter: take6 as the Python game ``python_take6`` (optional extra ``openspiel``).

Importing this module registers the game with ``pyspiel``; then
``pyspiel.load_game("python_take6(variant=profi,players=3,hand_size=3)")`` or
:func:`load_game` builds it. Every transition goes through the reference engine
(:mod:`take6.state`): this module maps OpenSpiel ids to engine actions and back and never restates
a rule.

Model
-----
* **Dynamics**: a simultaneous-move game. When all players choose a card at once the state is a
  simultaneous node (``current_player() == PlayerId.SIMULTANEOUS``) where every player has a
  non-empty action set. A row choice (too-low card; in Profi also a tie or a card that fits
  nowhere) is an ordinary *sequential* node of the card's owner; so are the Logik draft picks and
  every play in Kids (which is played one seat after another: Kids games never reach a
  simultaneous node). OpenSpiel allows sequential nodes inside a simultaneous game.
* **Chance**: without a ``position`` each round's shuffle is dealt card by card as chance nodes
  (uniform over the cards not yet dealt): ``hand_size`` cards to seat 0, then to seat 1, ..., then
  one card to start each row; the rest of the deck is set aside. Logik has no chance node: its
  hands are drafted (sequential ``Pick`` nodes). With a ``position`` the game starts there (no
  deal) and later rounds, if any, are dealt as above.
* **Action ids** (the same for every variant): card ``c`` (1..104) is id ``c - 1`` whether it is
  played, picked in the draft or dealt by chance; choosing row ``r`` (1-based, as printed) is id
  ``104 + r - 1``. ``num_distinct_actions() == 104 + rows`` (108; Kids 109).
* **Returns** (only at the end; ``RewardModel.TERMINAL``): with ``returns=heads``, minus the heads
  each player took during the game (plus for Kids, where the most heads wins). A position's bull
  piles and totals were taken before the game began and are not counted. With ``returns=diff``
  the game is zero-sum: ``return_i = s_i - mean(s_j for j != i)`` with ``s`` the ``heads``
  returns; for two players, player 0 gets ``heads(P2) - heads(P1)`` (the solver's ``diff``
  objective from player 1's view).
* **Information**: bull piles, rows, totals and every revealed card are public. Hands are private
  unless they are public by the rules (Logik: drafted face up) or ``known_hands=True``; Kids piles
  are face down, hidden even from their owner unless ``known_hands=True``. The game type reports
  ``PERFECT_INFORMATION`` when all hands are public (then ``value_iteration`` accepts it for two
  players with ``returns=diff``), ``IMPERFECT_INFORMATION`` otherwise.

Parameters (``pyspiel.load_game`` game string or dict)
------------------------------------------------------
``variant`` (str, ``standard``), ``players`` (int, 2), ``hand_size`` (int, 0: the variant's own,
10 or Kids 15), ``rounds`` (int, 1: the game ends after this many rounds), ``position`` (str,
``""``: a random deal), ``known_hands`` (bool, False), ``returns`` (str, ``heads`` or ``diff``).

``position`` is take6's compact notation (:mod:`take6.notation`) with every ``,`` written as
``.``, because OpenSpiel game strings split parameters at commas:
``python_take6(variant=logik,players=2,hand_size=2,position=logik:8 1/4/6/8 2.3|5.7)``.
:func:`position_param` converts; the game keeps the canonical form, so ``str(game)`` loads back.
With a ``position``, ``variant`` and ``players`` must match it and ``hand_size`` must be 0 or the
size of its hands.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from take6.cards import HEADS, MAX_CARD
from take6.errors import IllegalActionError, UsageError
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

SHORT_NAME = "python_take6"
ROW_BASE = MAX_CARD
"""Id of "choose row 1"; row ``r`` (0-based) is ``ROW_BASE + r``. Card ``c`` is ``c - 1``."""

RETURNS = ("heads", "diff")

DEFAULT_PARAMS: dict[str, Any] = {
    "variant": "standard",
    "players": 2,
    "hand_size": 0,
    "rounds": 1,
    "position": "",
    "known_hands": False,
    "returns": "heads",
}

_PHASES = (Phase.DEAL, Phase.DRAFT, Phase.CHOOSE, Phase.ROW_CHOICE, Phase.GAME_OVER)


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


# -- text ------------------------------------------------------------------------------------


def _cards(cards: Sequence[int]) -> str:
    return ",".join(str(c) for c in cards) if cards else "-"


def _visible_hands(state: Take6State, player: int | None) -> list[str]:
    """Each hand as ``player`` sees it (None: as everyone sees it); ``?N`` hides N cards."""
    cfg = state.config
    s = state.engine
    out = []
    for q in range(cfg.players):
        hand = state.dealt_hand(q) if s.phase is Phase.DEAL else s.hands[q]
        if cfg.hands_public or (q == player and not cfg.piles_hidden):
            out.append(_cards(hand))
        else:
            out.append(f"?{len(hand)}")
    return out


def _public_text(state: Take6State) -> list[str]:
    s = state.engine
    parts = [f"round {s.round}", f"turn {s.turn + 1}", s.phase.value]
    if s.phase is Phase.DEAL:
        parts.append(f"dealt {len(state.dealt)}")
    if s.phase is Phase.DRAFT:
        parts.append(f"pool {_cards(s.pool)} picker {s.picker + 1}")
    if s.rows:
        parts.append("rows " + "/".join(_cards(r) for r in s.rows))
    parts.append("piles " + "|".join(_cards(p) for p in s.piles))
    parts.append("totals " + ",".join(str(t) for t in s.totals))
    if s.queue:
        parts.append("queue " + ",".join(f"{c}:{p + 1}" for c, p in s.queue))
    if s.pending is not None:
        rows = ",".join(str(m.row + 1) for m in s.pending.placement.options)
        parts.append(f"pending {s.pending.card}:{s.pending.player + 1} rows {rows}")
    if not s.rules.simultaneous and s.phase is Phase.CHOOSE:
        parts.append(f"next {s.picker + 1}")
    return parts


def state_text(state: Take6State) -> str:
    """Everything about the state (all hands shown): ``str(state)``, the value-iteration key."""
    s = state.engine
    parts = _public_text(state)
    hands = [state.dealt_hand(q) if s.phase is Phase.DEAL else s.hands[q] for q in range(s.players)]
    parts.append("hands " + "|".join(_cards(h) for h in hands))
    if s.phase is Phase.DEAL:
        parts.append("deal " + _cards(state.dealt))
    parts.append("taken " + ",".join(str(h) for h in state.heads_taken()))
    return "; ".join(parts)


def observation_text(state: Take6State, player: int, public: bool, private: bool) -> str:
    """The observation string (perfect_recall=False)."""
    parts = [f"p{player + 1}"]
    if public:
        parts += _public_text(state)
    hands = _visible_hands(state, player if private else None)
    if public or private:
        parts.append("hands " + "|".join(hands))
    return "; ".join(parts)


def _log_text(entry: _Logged, player: int, private: bool) -> str:
    if entry.kind == "deal":
        visible = entry.seat is None or (private and entry.seat == player)
        return f"d{entry.value if visible else '?'}"
    if entry.kind == "row":
        return f"{entry.player + 1}r{entry.value + 1}"
    letter = "k" if entry.kind == "pick" else "p"
    return f"{entry.player + 1}{letter}{entry.value}"


def information_text(state: Take6State, player: int, public: bool, private: bool) -> str:
    """The information state string (perfect recall): the start, then every step as seen."""
    parts = [f"p{player + 1}"]
    pos = state.config.position
    if pos is not None:
        hands = [
            _cards(h) if state.config.hands_public or (q == player and private) else f"?{len(h)}"
            for q, h in enumerate(pos.hands)
        ]
        piles = "|".join(_cards(p) for p in pos.piles)
        totals = ",".join(str(t) for t in pos.totals)
        rows = "/".join(_cards(r) for r in pos.rows)
        parts.append(f"start {rows} {'|'.join(hands)} {piles} {totals}")
    if public:
        parts.append(" ".join(_log_text(e, player, private) for e in state.log))
    else:
        parts.append(" ".join(_log_text(e, player, private) for e in state.log if e.kind == "deal"))
    parts.append("now " + observation_text(state, player, public, private))
    return "; ".join(parts)


# -- observer --------------------------------------------------------------------------------


class Take6Observer:
    """PyObserver for ``python_take6``: strings and a flat float32 tensor with named pieces.

    Always: ``player`` [n]. With public info: ``phase`` [5] (deal, draft, choose, row-choice,
    game-over), ``round_turn`` [2], ``rows`` [rows, 104] (a row is a set: it is ascending),
    ``piles`` [n, 104], ``totals`` [n], ``hand_sizes`` [n], ``pool`` [104], ``picker`` [n],
    ``queue`` [104] (revealed cards still to place), ``pending_player`` [n], ``pending_card``
    [104]. Always: ``hands`` [n, 104], the hands the observer may see. With perfect recall and
    public info also the history: ``start_rows`` [R, 104] (the rows each round started with),
    ``picks`` [R, n·k, 104] (Logik), ``plays`` [R, k, n, 104] and ``row_choices`` [R, k, n, rows]
    with R rounds and k the hand size.
    """

    def __init__(self, config: Config, iig_obs_type: Any) -> None:
        self.config = config
        self.public = bool(iig_obs_type.public_info)
        private = iig_obs_type.private_info
        self.private = private != pyspiel.PrivateInfoType.NONE
        self.all_private = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        r = config.rules
        n, k, rows = r.players, r.hand_size, r.rows
        assert r.end.rounds is not None
        rounds = r.end.rounds
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
        if self.public:
            pieces += [
                ("phase", (len(_PHASES),)),
                ("round_turn", (2,)),
                ("rows", (rows, MAX_CARD)),
                ("piles", (n, MAX_CARD)),
                ("totals", (n,)),
                ("hand_sizes", (n,)),
                ("pool", (MAX_CARD,)),
                ("picker", (n,)),
                ("queue", (MAX_CARD,)),
                ("pending_player", (n,)),
                ("pending_card", (MAX_CARD,)),
            ]
        pieces.append(("hands", (n, MAX_CARD)))
        if self.perfect_recall and self.public:
            pieces += [
                ("start_rows", (rounds, MAX_CARD)),
                ("picks", (rounds, n * k if r.draft else 0, MAX_CARD)),
                ("plays", (rounds, k, n, MAX_CARD)),
                ("row_choices", (rounds, k, n, rows)),
            ]
        total = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(total, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        index = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[index : index + size].reshape(shape)
            index += size

    def _sees(self, player: int, q: int) -> bool:
        cfg = self.config
        if cfg.hands_public:
            return self.public
        if cfg.piles_hidden:
            return False
        return self.all_private or (self.private and q == player)

    def set_from(self, state: Take6State, player: int) -> None:
        self.tensor.fill(0)
        d = self.dict
        s = state.engine
        d["player"][player] = 1
        for q in range(s.players):
            if self._sees(player, q):
                hand = state.dealt_hand(q) if s.phase is Phase.DEAL else s.hands[q]
                for c in hand:
                    d["hands"][q, c - 1] = 1
        if not self.public:
            return
        d["phase"][_PHASES.index(s.phase)] = 1
        d["round_turn"][:] = (s.round, s.turn)
        for i, row in enumerate(s.rows):
            for c in row:
                d["rows"][i, c - 1] = 1
        for q, pile in enumerate(s.piles):
            for c in pile:
                d["piles"][q, c - 1] = 1
        d["totals"][:] = s.totals
        if s.phase is Phase.DEAL:
            d["hand_sizes"][:] = [len(state.dealt_hand(q)) for q in range(s.players)]
        else:
            d["hand_sizes"][:] = [len(h) for h in s.hands]
        for c in s.pool:
            d["pool"][c - 1] = 1
        if s.phase is Phase.DRAFT or (s.phase is Phase.CHOOSE and not s.rules.simultaneous):
            d["picker"][s.picker] = 1
        for c, _ in s.queue:
            d["queue"][c - 1] = 1
        if s.pending is not None:
            d["pending_player"][s.pending.player] = 1
            d["pending_card"][s.pending.card - 1] = 1
        if "plays" in d:
            self._set_history(state)

    def _set_history(self, state: Take6State) -> None:
        d = self.dict
        for i, rows in enumerate(state.round_rows):
            for c in rows:
                d["start_rows"][i, c - 1] = 1
        picks: dict[int, int] = {}
        for e in state.log:
            r = e.round - 1
            if e.kind == "pick":
                d["picks"][r, picks.get(r, 0), e.value - 1] = 1
                picks[r] = picks.get(r, 0) + 1
            elif e.kind == "play":
                d["plays"][r, e.turn, e.player, e.value - 1] = 1
            elif e.kind == "row":
                d["row_choices"][r, e.turn, e.player, e.value] = 1

    def string_from(self, state: Take6State, player: int) -> str:
        private = self.private and not self.config.piles_hidden
        if self.perfect_recall:
            return information_text(state, player, self.public, private)
        return observation_text(state, player, self.public, private)


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
    "ROW_BASE",
    "SHORT_NAME",
    "Config",
    "Take6Game",
    "Take6Observer",
    "Take6State",
    "action_id",
    "action_to_string",
    "engine_state",
    "final_returns",
    "load_game",
    "position_param",
    "to_engine_action",
]
