"""PettingZoo environments for 6 nimmt! and its variants (optional extra ``take6[rl]``).

This module imports :mod:`pettingzoo`, :mod:`gymnasium` and :mod:`numpy` at the top, so it is
importable only with the extra installed; ``import take6`` never imports it.

* :func:`env` — an AEC environment (``pettingzoo.AECEnv``): one agent acts per step. As for
  PettingZoo's classic games, it comes in ``OrderEnforcingWrapper`` (``env().unwrapped`` and
  :data:`raw_env` are the bare :class:`Take6AECEnv`). There is no ``AssertOutOfBoundsWrapper``:
  the environment itself refuses (or penalises) an out-of-range action with the reason.
* :func:`parallel_env` — a parallel environment (``pettingzoo.ParallelEnv``): all agents that
  must act now act in one step.

Both take the same settings, passed to :meth:`take6.rules.Rules.for_variant`: ``variant``
(``standard``, ``taktik``, ``logik``, ``profi``, ``kids``), ``players`` (2..10; Kids 2..6), any
:class:`~take6.rules.Rules` field (``hand_size``, ``profi_tie``, ``first_picker``, ...), and for
the end of the game ``target``, ``rounds`` and ``above`` (a strict ``>`` target, as in
"Category 5"), or a whole ``end=EndCondition(...)``; or a ready ``rules=Rules(...)``.

Agents are ``player_0`` .. ``player_{n-1}`` (seat i is ``player_i``, seats 0-based as in the
engine's actions).

Steps and chance
----------------
Every decision of the rules engine is one step of the agent who makes it: the card of a turn
(:class:`~take6.state.Play`), the row a too-low card takes (or in Profi a card that fits nowhere
or ties left/right: :class:`~take6.state.ChooseRow`), and a Logik draft pick
(:class:`~take6.state.Pick`). Chance (the shuffle of each round, :class:`~take6.state.Deal`)
happens inside the environment with its own ``random.Random``, seeded by ``reset(seed=...)``;
``reset()`` without a seed continues the environment's random sequence.

The simultaneous card choice becomes sequential in the AEC form: the players who have not
chosen yet choose in seat order, and a player's observation never shows another player's choice
before every card is revealed (the cards are revealed, and placed lowest first, when the last
player has chosen). In Kids the players act in seat order anyway.

Action space (the same for every agent): ``Discrete(104 + R)``, R the number of rows (4; Kids 5)

=================  =========================================================================
index              meaning
=================  =========================================================================
``0 .. 103``       card ``index + 1``: play it (choose phase) or pick it (Logik draft)
``104 .. 103+R``   row ``index - 104`` (0-based): the row your pending card takes/goes to
=================  =========================================================================

Observation: ``{"observation": float32 vector, "action_mask": int8 vector}``. The mask has a 1
for every legal action of the observing agent now, and is all 0 when the agent has nothing to
decide (it has chosen its card already, another player must choose a row or pick, the game is
over). In the AEC form the agents still to choose a card all have their cards in the mask; the
one selected steps first. The vector is seen from the observing seat: "relative seat" k means
the seat k places clockwise of the observer (0 is the observer). With N = 104, R rows, C row
capacity (5) and n players, its segments in order are:

=================  ======  ======================================================================
segment            length  content
=================  ======  ======================================================================
hand               N       1 if card c (index c-1) is in the observer's hand. Kids: only the top
                           card of the pile (the rest of the face-down pile is unknown; the top
                           card is the one legal action anyway)
holder             N       Logik: the relative seat (1..n-1) of the other player whose hand
                           holds card c (picks are public; a card chosen face down this turn
                           still counts as held until the reveal), else 0; 0 outside Logik
pool               N       Logik: 1 if card c is face up in the draft pool
seen               N       1 if card c is public this round: on a row, in a bull pile, or
                           revealed and waiting to be placed
rows               R*C     the rows' cards left to right, row after row; 0 = empty place
row_lengths        R       cards in each row
row_heads          R       bull heads in each row
phase              4       one-hot: draft, choose, row choice, game over
pending            2       the card waiting for its owner's row choice, and 1 + its owner's
                           relative seat (0, 0 when none)
last_played        n       by relative seat: the card that seat revealed most recently in this
                           round (0: none yet); for the observer, its face-down choice of this
                           turn as soon as it has made it
bull_heads         n       by relative seat: heads in the bull pile this round
totals             n       by relative seat: totals of the earlier rounds
turn               1       turns completed in this round
=================  ======  ======================================================================

The length is ``4*104 + R*C + 2*R + 6 + 3*n + 1`` (463 for the standard game with 4 players);
:data:`SEGMENTS` and :func:`observation_layout` give the slices.

Every ``info`` carries ``info["action_mask"]``, the same mask (for libraries that read masks
there).

Global state (``state()``, ``state_space``, for centralised critics such as MAPPO's): a float32
vector, every hand visible; :func:`state_layout` gives its slices:

=================  ======  ======================================================================
segment            length  content
=================  ======  ======================================================================
observation        L       seat 0's observation (so its relative seats are the seats)
hands              n*N     1 if seat p holds card c (index p*104 + c-1); Kids: the card's place in
                           the face-down pile, 1 for the next card played
chosen             n       the card each seat chose face down this turn (0: none yet)
to_act             n       1 for each seat that must act now
=================  ======  ======================================================================

Rewards: each bull-pile take gives its owner ``-heads`` at the step that takes it (``+heads`` in
Kids, where the most heads win), so an agent's rewards add up to minus its final total (Kids:
plus). Every agent is terminated when the game ends; there is no truncation.

Illegal actions (``illegal_action``, both forms): ``"raise"`` (the default) raises
:class:`take6.errors.IllegalActionError` naming the action and the legal ones, and changes
nothing. ``"penalise"`` gives the offending agent ``illegal_reward`` (default -100) and 0 to the
others, terminates every agent and puts the reason in ``infos[agent]["illegal_action"]``, as
PettingZoo's ``TerminateIllegalWrapper`` does (the reason names the action and the agent's
legal indices only, nothing hidden); the observations then show the game over (masks
all 0) and the engine state stays as it was before the illegal action. ``None``, a float, an
index out of range, a card not in hand, a row when a card is due, an agent who is not to act:
all are illegal. In the parallel form the step's actions are all checked first: if any is
illegal, none is applied and every offender is penalised.

Rendering (``render_mode``): ``"ansi"`` returns the state in one line, ``"human"`` prints it,
``"rgb_array"`` draws the table (rows, every hand, each player's round heads and total) with
matplotlib's Agg backend (no display and no system library: the ``rl`` extra installs it).

PettingZoo's tests
------------------
``api_test``, ``seed_test``, ``parallel_api_test`` and ``render_test`` pass for every variant;
``parallel_seed_test`` passes with ``illegal_action="penalise"``: it samples actions without
the mask, so under ``"raise"`` it stops at the first illegal sample (an ``IllegalActionError``,
by design). ``max_cycles_test`` does not apply: it needs a ``max_cycles`` argument, and a game
of 6 nimmt! ends by its rules (never truncated). ``aec_to_parallel`` does not apply either (see
below).

Parallel form
-------------
``pettingzoo.utils.aec_to_parallel`` does not apply to :func:`env` (its metadata says
``is_parallelizable: False``): a row choice, a Logik pick and a Kids turn are steps of one agent,
so a cycle of steps is not one action of every agent in order. :func:`parallel_env` is a native
parallel environment over the same engine, for every variant: each ``step(actions)`` applies the
actions of exactly the agents whose action mask is not all 0 — every player at once in a
simultaneous card choice (so no order and no hiding are needed), the one owner of a pending
row choice, the Logik picker, the Kids player whose turn it is. The API wants an action from
every live agent at every step; the actions of agents with an all-0 mask are ignored. An illegal
action of an agent who must act (or a missing one) raises or is penalised, as above.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from take6.cards import HEADS, MAX_CARD
from take6.errors import IllegalActionError, UsageError
from take6.rules import Comparison, EndCondition, Rules
from take6.state import (
    Action,
    ChooseRow,
    Phase,
    Pick,
    Play,
    State,
    legal_actions,
    new_game,
    random_deal,
    step,
)
from take6.text import excerpt
from take6.turn import GameOver, Placed, Revealed, RoundScored

__all__ = [
    "SEGMENTS",
    "Take6AECEnv",
    "Take6ParallelEnv",
    "env",
    "observation_layout",
    "parallel_env",
    "raw_env",
    "rules_from_settings",
    "state_layout",
]

N_CARDS = MAX_CARD
SEGMENTS = (
    "hand",
    "holder",
    "pool",
    "seen",
    "rows",
    "row_lengths",
    "row_heads",
    "phase",
    "pending",
    "last_played",
    "bull_heads",
    "totals",
    "turn",
)
"""The observation vector's segments, in order (see the module docstring)."""

_PHASES = (Phase.DRAFT, Phase.CHOOSE, Phase.ROW_CHOICE, Phase.GAME_OVER)

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]
Observation = dict[str, Any]


def rules_from_settings(
    variant: str | None = None,
    players: int | None = None,
    *,
    rules: Rules | None = None,
    target: int | None = None,
    rounds: int | None = None,
    above: bool = False,
    **fields: Any,
) -> Rules:
    """The :class:`Rules` for an environment's settings (see the module docstring).

    ``target``/``rounds``/``above`` build the end condition from the variant's preset: a target
    replaces the preset's target, ``rounds`` adds a fixed number of rounds (the game ends at
    whichever comes first), ``above`` makes the target strict. The defaults are the standard
    game with 4 players."""
    if rules is not None:
        settings = (variant, players, target, rounds)
        if fields or above or any(x is not None for x in settings):
            raise UsageError("give either rules=... or settings, not both")
        rules.check_always_ends()
        rules.check_standard_cards("the PettingZoo and Gymnasium environments")
        return rules
    variant = "standard" if variant is None else variant
    players = 4 if players is None else players
    if target is not None or rounds is not None or above:
        if "end" in fields:
            raise UsageError("give either end=... or target/rounds/above, not both")
        base = Rules.for_variant(variant, players=players, **fields).end
        fields["end"] = EndCondition(
            target=target if target is not None else base.target,
            comparison=Comparison.ABOVE if above else base.comparison,
            rounds=rounds if rounds is not None else base.rounds,
        )
    built = Rules.for_variant(variant, players=players, **fields)
    built.check_always_ends()
    built.check_standard_cards("the PettingZoo and Gymnasium environments")
    return built


def observation_layout(rules: Rules) -> dict[str, slice]:
    """The slice of each segment of the observation vector under ``rules``."""
    n, r, c = rules.players, rules.rows, rules.row_capacity
    sizes = {
        "hand": N_CARDS,
        "holder": N_CARDS,
        "pool": N_CARDS,
        "seen": N_CARDS,
        "rows": r * c,
        "row_lengths": r,
        "row_heads": r,
        "phase": len(_PHASES),
        "pending": 2,
        "last_played": n,
        "bull_heads": n,
        "totals": n,
        "turn": 1,
    }
    out: dict[str, slice] = {}
    start = 0
    for name in SEGMENTS:
        out[name] = slice(start, start + sizes[name])
        start += sizes[name]
    return out


def state_layout(rules: Rules) -> dict[str, slice]:
    """The slice of each segment of the global state vector (``state()``) under ``rules``."""
    n, obs = rules.players, observation_layout(rules)["turn"].stop
    sizes = {"observation": obs, "hands": n * N_CARDS, "chosen": n, "to_act": n}
    out: dict[str, slice] = {}
    start = 0
    for name, size in sizes.items():
        out[name] = slice(start, start + size)
        start += size
    return out


def _state_high(rules: Rules) -> FloatArray:
    lay = state_layout(rules)
    high = np.ones(lay["to_act"].stop, dtype=np.float32)
    high[lay["observation"]] = _observation_high(rules)
    high[lay["hands"]] = rules.hand_size if rules.pile_play else 1
    high[lay["chosen"]] = N_CARDS
    return high


def _observation_high(rules: Rules) -> FloatArray:
    """Upper bounds of the observation (the lower bound is 0 everywhere). A total is at most the
    target (or one below, with ``>=``) plus the heads of the whole deck taken in the last round,
    or every round's deck heads when only a number of rounds ends the game."""
    n, cap = rules.players, rules.row_capacity
    deck_heads = sum(HEADS[c] for c in rules.deck())
    if rules.end.target is not None:
        max_total = rules.end.target + deck_heads
    else:
        assert rules.end.rounds is not None
        max_total = rules.end.rounds * deck_heads
    bounds = {
        "hand": 1,
        "holder": max(1, n - 1),
        "pool": 1,
        "seen": 1,
        "rows": N_CARDS,
        "row_lengths": cap,
        "row_heads": min(deck_heads, 7 * cap),
        "phase": 1,
        "last_played": N_CARDS,
        "bull_heads": deck_heads,
        "totals": max_total,
        "turn": rules.hand_size,
    }
    layout = observation_layout(rules)
    high = np.zeros(layout["turn"].stop, dtype=np.float32)
    for name, sl in layout.items():
        if name == "pending":
            high[sl] = (N_CARDS, n)
        else:
            high[sl] = bounds[name]
    return high


class _Game:
    """The engine state behind both environments: chance, observations, masks, rewards."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.n_actions = N_CARDS + rules.rows
        self.layout = observation_layout(rules)
        self.rng = random.Random()
        self.state = new_game(rules)
        self.last_played = [0] * rules.players
        self.aborted = False
        """True when an illegal action ended the game (``illegal_action="penalise"``)."""

    def reset(self, seed: int | None) -> None:
        if seed is not None:
            self.rng = random.Random(seed)
        self.state = self._advance(new_game(self.rules))
        self.last_played = [0] * self.rules.players
        self.aborted = False

    @property
    def over(self) -> bool:
        """The game is over: by the rules, or ended by an illegal action."""
        return self.aborted or self.state.is_over

    def _advance(self, state: State) -> State:
        """Play the chance nodes (the shuffles) with the environment's RNG."""
        while state.phase is Phase.DEAL:
            state, _ = step(state, random_deal(state, self.rng))
        return state

    def to_act(self) -> tuple[int, ...]:
        """Seats that must act now, in seat order (none once the game is over)."""
        return () if self.aborted else tuple(sorted(self.state.to_act()))

    def refusal(self, seat: int, action: Any) -> IllegalActionError | None:
        """Why ``seat``'s ``action`` cannot be applied now (None: it can); changes nothing."""
        try:
            index = _index(action, f"player_{seat}")
            if seat in self.to_act() and 0 <= index < self.n_actions and self.mask(seat)[index]:
                return None
            self.act(seat, index)  # raises: the engine's own reason (the engine is pure)
        except IllegalActionError as error:
            return error
        raise AssertionError("an action outside the mask was applied")  # pragma: no cover

    def action(self, seat: int, index: int) -> Action:
        """The engine action for action ``index`` of ``seat`` in the current phase."""
        phase = self.state.phase
        if 0 <= index < N_CARDS and phase is Phase.CHOOSE:
            return Play(seat, index + 1)
        if 0 <= index < N_CARDS and phase is Phase.DRAFT:
            return Pick(seat, index + 1)
        if N_CARDS <= index < self.n_actions and phase is Phase.ROW_CHOICE:
            return ChooseRow(seat, index - N_CARDS)
        raise IllegalActionError(
            f"illegal action index {index!r} for player_{seat}: in the {phase.value} phase the "
            f"legal indices are {np.flatnonzero(self.mask(seat)).tolist()} "
            f"in {self.state.describe()}"
        )

    def act(self, seat: int, index: int) -> list[float]:
        """Apply ``seat``'s action ``index``; return each seat's reward for it."""
        if seat not in self.state.to_act():
            raise IllegalActionError(
                f"player_{seat} is not to act (to act: "
                f"{[f'player_{p}' for p in self.to_act()]}) in {self.state.describe()}"
            )
        before = self.state
        action = self.action(seat, index)
        after, events = step(before, action)  # raises IllegalActionError when not legal
        sign = -1.0 if self.rules.lowest_wins else 1.0
        rewards = [0.0] * self.rules.players
        for e in events:
            if isinstance(e, Revealed):
                for p, c in e.plays:
                    self.last_played[p] = c
            elif isinstance(e, Placed) and e.taken:
                rewards[e.player] += sign * sum(HEADS[c] for c in e.taken)
            elif isinstance(e, RoundScored) and not any(isinstance(x, GameOver) for x in events):
                self.last_played = [0] * self.rules.players  # a new round starts
        self.state = self._advance(after)
        return rewards

    def mask(self, seat: int) -> MaskArray:
        mask = np.zeros(self.n_actions, dtype=np.int8)
        if self.aborted:
            return mask
        for a in legal_actions(self.state, seat):
            if isinstance(a, (Play, Pick)):
                mask[a.card - 1] = 1
            elif isinstance(a, ChooseRow):
                mask[N_CARDS + a.row] = 1
        return mask

    def vector(self, seat: int) -> FloatArray:
        s, rules, lay = self.state, self.rules, self.layout
        n = rules.players
        rel = [(p - seat) % n for p in range(n)]  # rel[p]: p's seat relative to the observer
        v = np.zeros(lay["turn"].stop, dtype=np.float32)

        def cards(segment: str, cs: Any, value: float = 1.0) -> None:
            base = lay[segment].start
            for c in cs:
                v[base + c - 1] = value

        hand = s.hands[seat] if s.hands else ()
        cards("hand", hand[:1] if rules.pile_play else hand)
        if rules.draft:
            for p in range(n):
                if p != seat:  # a face-down choice still counts as held until the reveal
                    chosen = s.chosen[p] if s.chosen else None
                    held = s.hands[p] + ((chosen,) if chosen is not None else ())
                    cards("holder", held, float(rel[p]))
            cards("pool", s.pool)
        for row in s.rows:
            cards("seen", row)
        for pile in s.piles:
            cards("seen", pile)
        cards("seen", [c for c, _ in s.queue])
        cap = rules.row_capacity
        for i, row in enumerate(s.rows):
            for j, c in enumerate(row[:cap]):
                v[lay["rows"].start + i * cap + j] = c
            v[lay["row_lengths"].start + i] = len(row)
            v[lay["row_heads"].start + i] = sum(HEADS[c] for c in row)
        phase = Phase.GAME_OVER if self.aborted else s.phase
        if phase in _PHASES:
            v[lay["phase"].start + _PHASES.index(phase)] = 1
        if s.pending is not None:
            v[lay["pending"]] = (s.pending.card, 1 + rel[s.pending.player])
        own = s.chosen[seat] if s.chosen else None
        for p in range(n):
            played = own if p == seat and own is not None else self.last_played[p]
            v[lay["last_played"].start + rel[p]] = played
            v[lay["bull_heads"].start + rel[p]] = s.round_heads(p)
            v[lay["totals"].start + rel[p]] = s.totals[p]
        v[lay["turn"].start] = s.turn
        return v

    def observe(self, seat: int) -> Observation:
        return {"observation": self.vector(seat), "action_mask": self.mask(seat)}

    def global_state(self) -> FloatArray:
        """The state for a centralised critic (see ``state()`` in the module docstring)."""
        s, lay = self.state, state_layout(self.rules)
        v = np.zeros(lay["to_act"].stop, dtype=np.float32)
        v[lay["observation"]] = self.vector(0)
        cards = N_CARDS
        for p, hand in enumerate(s.hands):
            for i, c in enumerate(hand):
                v[lay["hands"].start + p * cards + c - 1] = i + 1 if self.rules.pile_play else 1
            chosen = s.chosen[p] if s.chosen else None
            if chosen is not None:
                v[lay["chosen"].start + p] = chosen
        for p in self.to_act():
            v[lay["to_act"].start + p] = 1
        return v

    def state_space(self) -> spaces.Box:
        high = _state_high(self.rules)
        return spaces.Box(np.zeros_like(high), high, dtype=np.float32)

    def spaces(self) -> tuple[spaces.Dict, spaces.Discrete]:
        high = _observation_high(self.rules)
        obs = spaces.Dict(
            {
                "observation": spaces.Box(np.zeros_like(high), high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.n_actions,), dtype=np.int8),
            }
        )
        return obs, spaces.Discrete(self.n_actions)


def _seat(agent: str) -> int:
    return int(agent.rsplit("_", 1)[1])


def _index(action: Any, agent: str) -> int:
    if action is None or isinstance(action, bool):
        raise IllegalActionError(f"{agent} must act: got {action!r}, not an action index")
    try:
        return operator.index(action)  # ints and NumPy integers, not floats
    except TypeError:
        raise IllegalActionError(f"{agent}: {action!r} is not an action index") from None


ILLEGAL_ACTIONS = ("raise", "penalise")
RENDER_MODES = ["ansi", "human", "rgb_array"]


class _EnvCommon:
    """What the AEC and the parallel environment share: settings, spaces, rendering."""

    metadata: dict[str, Any]

    def _setup(
        self,
        render_mode: str | None,
        illegal_action: str,
        illegal_reward: float,
        settings: dict[str, Any],
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UsageError(
                f"render_mode must be None or one of {self.metadata['render_modes']}, "
                f"got {render_mode!r}"
            )
        if illegal_action not in ILLEGAL_ACTIONS:
            raise UsageError(
                f"illegal_action must be 'raise' or 'penalise', got {illegal_action!r}"
            )
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.rules = rules_from_settings(**settings)
        self.game = _Game(self.rules)
        self.possible_agents = [f"player_{p}" for p in range(self.rules.players)]
        obs_space, act_space = self.game.spaces()
        self.observation_spaces: dict[str, spaces.Dict] = dict.fromkeys(
            self.possible_agents, obs_space
        )
        self.action_spaces: dict[str, spaces.Discrete] = dict.fromkeys(
            self.possible_agents, act_space
        )
        self.state_space: spaces.Box = self.game.state_space()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def state(self) -> FloatArray:
        """The global state, every hand visible, for a centralised critic (``state_space``;
        :func:`state_layout` gives its segments)."""
        return self.game.global_state()

    @property
    def game_state(self) -> State:
        """The engine's state (every hand visible: for analysis, not for agents)."""
        return self.game.state

    def _info(self, agent: str) -> dict[str, Any]:
        return {"action_mask": self.game.mask(_seat(agent))}

    @staticmethod
    def _reason(agent: str, action: Any, legal: list[int]) -> str:
        """Why ``agent``'s action was penalised, in words that show only what ``agent`` may see
        (the exception's message shows the whole state, every hand included)."""
        return f"{excerpt(action)} is not a legal action of {agent} now (legal: {legal})"

    def render(self) -> Any:
        """``ansi``: the state in one line (:meth:`take6.state.State.describe`); ``human``: that
        line printed; ``rgb_array``: a picture of the table (every hand shown) as a
        ``(height, width, 3)`` uint8 array, drawn with matplotlib."""
        if self.render_mode is None:
            return None
        text = self.game.state.describe() + (" (ended by an illegal action)" * self.game.aborted)
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
            return None
        return _draw(self.game.state, self.game.aborted)

    def close(self) -> None:
        pass


class Take6AECEnv(_EnvCommon, AECEnv):  # type: ignore[misc]
    """The AEC environment, unwrapped (see the module docstring). :func:`env` wraps it."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - the PettingZoo convention
        "name": "take6_v0",
        "render_modes": RENDER_MODES,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -100.0,
        **settings: Any,
    ) -> None:
        super().__init__()
        self._setup(render_mode, illegal_action, illegal_reward, settings)

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        self.game.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: self._info(a) for a in self.agents}
        self._select()

    def _select(self) -> None:
        to_act = self.game.to_act()
        if to_act:
            self.agent_selection = self.possible_agents[to_act[0]]
        else:  # game over: every agent is terminated and steps None in turn
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> Observation:
        return self.game.observe(_seat(agent))

    def step(self, action: Any) -> None:
        if not self.agents:
            raise RuntimeError("no agent to step: call reset() first (or the game is over)")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        legal = np.flatnonzero(self.game.mask(_seat(agent))).tolist()
        refusal = self.game.refusal(_seat(agent), action)
        if refusal is None:
            rewards = self.game.act(_seat(agent), int(action))
            for a in self.agents:
                self.rewards[a] = rewards[_seat(a)]
        elif self.illegal_action == "raise":
            raise refusal
        else:
            self.game.aborted = True
            for a in self.agents:
                self.rewards[a] = self.illegal_reward if a == agent else 0.0
        over = self.game.over
        for a in self.agents:
            self.terminations[a] = over
            self.infos[a] = self._info(a)
        if refusal is not None:
            self.infos[agent]["illegal_action"] = self._reason(agent, action, legal)
        self._accumulate_rewards()
        self._select()


class Take6ParallelEnv(_EnvCommon, ParallelEnv):  # type: ignore[misc]
    """The parallel environment (see the module docstring). Build it with :func:`parallel_env`."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - the PettingZoo convention
        "name": "take6_parallel_v0",
        "render_modes": RENDER_MODES,
        "render_fps": 1,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -100.0,
        **settings: Any,
    ) -> None:
        self._setup(render_mode, illegal_action, illegal_reward, settings)

    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self.game.reset(seed)
        self.agents = self.possible_agents[:]
        observations = {a: self.game.observe(_seat(a)) for a in self.agents}
        return observations, {a: self._info(a) for a in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if not self.agents:
            raise RuntimeError("no agent to step: call reset() first (or the game is over)")
        acting = [self.possible_agents[p] for p in self.game.to_act()]
        missing = [a for a in acting if a not in actions]
        if missing and self.illegal_action == "raise":
            raise IllegalActionError(f"no action for {missing}, who must act now")
        refusals = {a: self.game.refusal(_seat(a), actions.get(a)) for a in acting}
        refused = {a: r for a, r in refusals.items() if r is not None}
        legal = {a: np.flatnonzero(self.game.mask(_seat(a))).tolist() for a in refused}
        rewards = dict.fromkeys(self.agents, 0.0)
        if refused and self.illegal_action == "raise":
            raise next(iter(refused.values()))
        if refused:  # nothing is applied: the game ends with the offenders' penalties
            self.game.aborted = True
            for a in refused:
                rewards[a] = self.illegal_reward
        else:
            for agent in acting:
                got = self.game.act(_seat(agent), int(actions[agent]))
                for a in rewards:
                    rewards[a] += got[_seat(a)]
        over = self.game.over
        live = self.agents
        observations = {a: self.game.observe(_seat(a)) for a in live}
        terminations = dict.fromkeys(live, over)
        truncations = dict.fromkeys(live, False)
        infos = {a: self._info(a) for a in live}
        for a in refused:
            infos[a]["illegal_action"] = self._reason(a, actions.get(a), legal[a])
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def _draw(state: State, aborted: bool) -> npt.NDArray[np.uint8]:
    """The table as an RGB array: the rows (bull heads under each card), each player's hand,
    bull pile heads and total, and a line saying the round, turn, phase and the revealed cards
    still to place."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.patches import Rectangle
    except ImportError as error:  # pragma: no cover - matplotlib is in the rl extra
        raise UsageError(
            "render_mode='rgb_array' needs matplotlib: pip install take6[rl]"
        ) from error
    rules = state.rules
    n = rules.players
    width = max(rules.row_capacity + 1, rules.hand_size) + 4
    height = rules.rows + n + 2
    fig = Figure(figsize=(width * 0.55, height * 0.55), dpi=80, facecolor="#2e6b3f")
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")

    def card(x: float, y: float, c: int, face: str = "white") -> None:
        heads = HEADS[c]
        colour = {1: face, 2: "#cfe8ff", 3: "#fff2a8", 5: "#ffc4c4"}.get(heads, "#d9b3ff")
        ax.add_patch(Rectangle((x + 0.05, y + 0.05), 0.9, 0.9, facecolor=colour, edgecolor="k"))
        ax.text(x + 0.5, y + 0.42, str(c), ha="center", va="center", fontsize=9, weight="bold")
        ax.text(x + 0.5, y + 0.8, "*" * heads, ha="center", va="center", fontsize=5)

    phase = "ended by an illegal action" if aborted else state.phase.value
    pending = state.pending.card if state.pending is not None else None
    waiting = [f"{c} (player {p + 1}{', row?' * (c == pending)})" for c, p in state.queue]
    if waiting:
        phase += "; to place: " + ", ".join(waiting)
    ax.text(
        width - 0.2,
        1 + rules.rows + 0.1,
        "heads: round / total",
        color="white",
        fontsize=7,
        ha="right",
        va="center",
    )
    ax.text(
        0.2,
        0.6,
        f"round {state.round}, turn {state.turn + 1}: {phase}",
        color="white",
        fontsize=9,
        va="center",
    )
    for i, row in enumerate(state.rows):
        y = 1.0 + i
        ax.text(0.2, y + 0.5, f"row {i + 1}", color="white", fontsize=8, va="center")
        for j, c in enumerate(row):
            card(1.5 + j, y, c)
    for p in range(n):
        y = 1 + rules.rows + p + 0.3
        hand = state.hands[p] if state.hands else ()
        pending = state.pending is not None and state.pending.player == p
        mark = " ?" if pending else ""
        ax.text(0.2, y + 0.5, f"player {p + 1}{mark}", color="white", fontsize=8, va="center")
        for j, c in enumerate(hand):
            card(1.5 + j * 0.8, y, c, face="#eeeeee")
        ax.text(
            width - 0.2,
            y + 0.5,
            f"{state.round_heads(p)} / {state.totals[p]}",
            color="white",
            fontsize=8,
            ha="right",
            va="center",
        )
    fig.canvas.draw()
    buffer = np.asarray(fig.canvas.buffer_rgba())  # type: ignore[attr-defined]
    return np.ascontiguousarray(buffer[:, :, :3])


raw_env = Take6AECEnv


def env(
    render_mode: str | None = None,
    illegal_action: str = "raise",
    illegal_reward: float = -100.0,
    **settings: Any,
) -> OrderEnforcingWrapper[str, Observation, Any]:
    """The AEC environment for ``settings``, ``illegal_action`` and ``illegal_reward`` (see the
    module docstring), wrapped as PettingZoo's classic games are, in ``OrderEnforcingWrapper``
    (``.unwrapped`` is the :class:`Take6AECEnv`; :data:`raw_env` builds it without wrappers).

    >>> e = env(variant="standard", players=3)
    >>> e.reset(seed=1)
    >>> e.agent_selection
    'player_0'
    """
    return OrderEnforcingWrapper(
        Take6AECEnv(render_mode, illegal_action, illegal_reward, **settings)
    )


def parallel_env(
    render_mode: str | None = None,
    illegal_action: str = "raise",
    illegal_reward: float = -100.0,
    **settings: Any,
) -> Take6ParallelEnv:
    """The parallel environment for ``settings``, ``illegal_action`` and ``illegal_reward`` (see
    the module docstring)."""
    return Take6ParallelEnv(render_mode, illegal_action, illegal_reward, **settings)
