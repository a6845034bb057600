"""Game state, actions and the transition function: the rules core.

Everything here is pure: a :class:`State` is immutable, :func:`apply` returns a new one, and chance
(the shuffle) is an explicit :class:`Deal` action that :func:`random_deal` draws from an RNG the
caller passes in. Every decision a player makes is an action:

* :class:`Play` — choose a card for this turn (all players at once, collected face down, then
  revealed; in Kids, one seat after another, always the top card of the pile);
* :class:`ChooseRow` — the owner of a too-low card (or, in Profi, of a card that fits nowhere or
  ties left/right) chooses the row;
* :class:`Pick` — take a face-up card in the Logik draft.

Illegal actions raise :class:`take6.errors.IllegalActionError` naming the action and the state.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from take6.cards import Card
from take6.errors import IllegalActionError, PositionError
from take6.notation import format_position
from take6.placement import Rows
from take6.position import Position
from take6.rules import Rules
from take6.text import excerpt
from take6.turn import (
    Event,
    GameOver,
    Outcome,
    Pending,
    Queue,
    Revealed,
    RoundScored,
    RoundStarted,
    Termination,
    TurnEnded,
    place_cards,
    reveal,
)

Hand = tuple[Card, ...]


class Phase(enum.Enum):
    """What the game waits for."""

    DEAL = "deal"
    """Chance: the shuffle of a new round (a :class:`Deal`)."""
    DRAFT = "draft"
    """Logik: a player picks a face-up card (a :class:`Pick`)."""
    CHOOSE = "choose"
    """Players choose their card for the turn (:class:`Play`)."""
    ROW_CHOICE = "row-choice"
    """A revealed card's owner must choose a row (:class:`ChooseRow`)."""
    GAME_OVER = "game-over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@dataclass(frozen=True)
class Deal:
    """Chance action: ``order`` is the shuffled deck. Player i is dealt ``order[i*k:(i+1)*k]``
    (k = hand size), the next ``rows`` cards start the rows, the rest is set aside."""

    order: tuple[Card, ...]


@dataclass(frozen=True)
class Pick:
    """Logik draft: ``player`` takes the face-up ``card``."""

    player: int
    card: Card


@dataclass(frozen=True)
class Play:
    """``player`` chooses ``card`` from their hand for this turn."""

    player: int
    card: Card


@dataclass(frozen=True)
class ChooseRow:
    """``player`` settles their pending card by choosing ``row`` (0-based)."""

    player: int
    row: int


Action = Deal | Pick | Play | ChooseRow


@dataclass(frozen=True)
class State:
    """The whole state of a game. Fields are public and immutable; use :func:`apply` to move.

    Attributes:
        rules: the settings.
        phase: what the game waits for.
        round: the round being played, 1-based.
        turn: turns completed in this round.
        rows: the table, each row ascending.
        hands: each player's hand (sorted; in Kids, the pile with its top first).
        piles: cards each player took this round (their bull pile).
        totals: heads scored in completed rounds.
        set_aside: cards of the deck not dealt this round.
        chosen: this turn's face-down choices (``None``: not chosen yet).
        queue: revealed cards still to place this turn, ascending, as (card, player).
        pending: the revealed card waiting for a row choice, if any.
        pool: Logik: face-up cards not yet picked.
        picker: Logik: whose pick it is. Kids: whose turn it is.
        round_scores: heads each player took in each completed round.
    """

    rules: Rules
    phase: Phase
    round: int = 1
    turn: int = 0
    rows: Rows = ()
    hands: tuple[Hand, ...] = ()
    piles: tuple[Hand, ...] = ()
    totals: tuple[int, ...] = ()
    set_aside: tuple[Card, ...] = ()
    chosen: tuple[Card | None, ...] = ()
    queue: tuple[tuple[Card, int], ...] = ()
    pending: Pending | None = None
    pool: tuple[Card, ...] = ()
    picker: int = 0
    round_scores: tuple[tuple[int, ...], ...] = ()

    # -- views -----------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def is_chance(self) -> bool:
        return self.phase is Phase.DEAL

    def round_heads(self, player: int) -> int:
        """Heads in ``player``'s bull pile this round (not yet added to the total)."""
        return self.rules.heads_of(self.piles[player])

    def score(self, player: int) -> int:
        """``player``'s total so far, counting this round's bull pile until it is scored."""
        if self.phase in (Phase.GAME_OVER, Phase.DEAL, Phase.DRAFT):
            return self.totals[player]
        return self.totals[player] + self.round_heads(player)

    def to_act(self) -> tuple[int, ...]:
        """Players who must act now (several in a simultaneous choice; none at chance/end)."""
        if self.phase is Phase.CHOOSE:
            if self.rules.simultaneous:
                return tuple(p for p, c in enumerate(self.chosen) if c is None)
            return (self.picker,)
        if self.phase is Phase.ROW_CHOICE:
            assert self.pending is not None
            return (self.pending.player,)
        if self.phase is Phase.DRAFT:
            return (self.picker,)
        return ()

    def position(self) -> Position:
        """This state as a position (only between turns, in the choose phase)."""
        if self.phase is not Phase.CHOOSE or any(c is not None for c in self.chosen):
            raise PositionError(
                f"a position exists only between turns; the game is in {self.phase.value} "
                f"({self.describe()})"
            )
        return Position(self.rules, self.rows, self.hands, self.piles, self.totals)

    def describe(self) -> str:
        """One line naming the state, for error messages."""
        text = f"round {self.round}, turn {self.turn + 1}, {self.phase.value}"
        if self.phase in (Phase.CHOOSE, Phase.ROW_CHOICE) and self.rows:
            table = Position(self.rules, self.rows, self.hands, self.piles, self.totals)
            text += f": {format_position(table)}"
        if self.pending is not None:
            p = self.pending
            text += f"; player {p.player + 1} must place {p.card}"
        return text

    def _repr_svg_(self) -> str:
        """Jupyter shows a state as an SVG picture (:func:`take6.display.svg.state_svg`)."""
        from take6.display.svg import state_svg

        return state_svg(self)

    def winners(self) -> tuple[int, ...]:
        """Seats with the best total (lowest; Kids: highest). Ties share the win."""
        if not self.totals:
            return ()
        best = min(self.totals) if self.rules.lowest_wins else max(self.totals)
        return tuple(p for p, t in enumerate(self.totals) if t == best)


# -- construction ---------------------------------------------------------------------------


def new_game(rules: Rules) -> State:
    """The start of a game: a chance node (the first shuffle), or the first Logik draft."""
    n = rules.players
    start = State(rules, Phase.DEAL, totals=(0,) * n, hands=((),) * n, piles=((),) * n)
    return _start_round(start)


def from_position(pos: Position, rules: Rules | None = None) -> State:
    """A state in the choose phase at ``pos`` (round 1; ``turn`` counts from this position).

    A position whose hands are empty is the end of a round: its bull piles are scored at once.
    Later rounds are played with the position's rules (its deck, and its hand size as the deal),
    or with ``rules`` when given (validated: :meth:`Position.with_rules`)."""
    if rules is not None:
        pos = pos.with_rules(rules)
    n = pos.players
    on_table = pos.cards()
    rest = tuple(c for c in pos.rules.deck() if c not in on_table)
    state = State(
        rules=pos.rules,
        phase=Phase.CHOOSE,
        turn=0,
        rows=pos.rows,
        hands=pos.hands,
        piles=pos.piles,
        totals=pos.totals,
        set_aside=rest,
        chosen=(None,) * n,
    )
    if not any(pos.hands):  # the round is over: score it (and start the next or end the game)
        return _end_round(state, None)
    return state


def without_scores(state: State) -> State:
    """``state`` with this round's bull piles and the earlier totals cleared: a turn as the
    solver and its certificates see it, where only the heads still to be taken count."""
    n = state.players
    return replace(state, piles=((),) * n, totals=(0,) * n, round_scores=())


def random_deal(state: State, rng: random.Random) -> Deal:
    """Draw the chance outcome of a :data:`Phase.DEAL` state with ``rng``."""
    order = list(state.rules.deck())
    rng.shuffle(order)
    return Deal(tuple(order))


def _start_round(state: State) -> State:
    rules = state.rules
    n = rules.players
    base = replace(
        state,
        turn=0,
        rows=(),
        hands=((),) * n,
        piles=((),) * n,
        set_aside=(),
        chosen=(None,) * n,
        queue=(),
        pending=None,
    )
    if rules.draft:
        return replace(
            base,
            phase=Phase.DRAFT,
            pool=rules.deck(),
            picker=rules.first_picker_in_round(state.round),
        )
    return replace(base, phase=Phase.DEAL, pool=(), picker=0)


# -- legal actions --------------------------------------------------------------------------


def legal_actions(state: State, player: int | None = None) -> list[Action]:
    """Every legal action of ``player`` (default: every player who must act). Empty at chance
    nodes (use :func:`random_deal`) and at the end."""
    players = state.to_act() if player is None else (player,)
    out: list[Action] = []
    for p in players:
        if p not in state.to_act():
            continue
        if state.phase is Phase.CHOOSE:
            hand = state.hands[p]
            if state.rules.pile_play:
                out.append(Play(p, hand[0]))
            else:
                out.extend(Play(p, c) for c in hand)
        elif state.phase is Phase.ROW_CHOICE:
            assert state.pending is not None
            out.extend(ChooseRow(p, m.row) for m in state.pending.placement.options)
        elif state.phase is Phase.DRAFT:
            out.extend(Pick(p, c) for c in state.pool)
    return out


# -- transitions ----------------------------------------------------------------------------


def describe_action(action: Action) -> str:
    """An action in words, players numbered from 1 as in all human-readable output."""
    if isinstance(action, Deal):
        return f"the deal {excerpt(action.order)}"
    if isinstance(action, Pick):
        return f"{_who(action.player)} picks {excerpt(action.card)}"
    if isinstance(action, Play):
        return f"{_who(action.player)} plays {excerpt(action.card)}"
    if isinstance(action, ChooseRow):
        row = action.row
        which = f"row {row + 1}" if _is_int(row) else f"row {excerpt(row)}"
        return f"{_who(action.player)} chooses {which}"
    return excerpt(action)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _who(player: object) -> str:
    return (
        f"player {player + 1}"
        if isinstance(player, int) and _is_int(player)
        else (f"seat {excerpt(player)}")
    )


ILLEGAL_PREFIX = "illegal action: "
"""How every :class:`IllegalActionError` message of the engine starts (then the action in words,
a colon and the reason)."""


def _illegal(state: State, action: Action, why: str) -> IllegalActionError:
    return IllegalActionError(
        f"{ILLEGAL_PREFIX}{describe_action(action)}: {why} in {state.describe()}"
    )


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises :class:`IllegalActionError` if it is not legal."""
    return _apply(state, action, None)


def step(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Like :func:`apply`, and also return what happened: every card placed (with what it
    took) and the scoring of a round that ended, in order."""
    events: list[Event] = []
    return _apply(state, action, events), tuple(events)


def _apply(state: State, action: Action, events: list[Event] | None) -> State:
    if isinstance(action, Deal):
        return _apply_deal(state, action, events)
    if isinstance(action, Pick):
        return _apply_pick(state, action, events)
    if isinstance(action, Play):
        return _apply_play(state, action, events)
    if isinstance(action, ChooseRow):
        return _apply_choose_row(state, action, events)
    raise _illegal(state, action, "not an action")


def apply_all(state: State, actions: Sequence[Action]) -> State:
    """Apply ``actions`` in order."""
    for a in actions:
        state = apply(state, a)
    return state


def _check_player(state: State, action: Pick | Play | ChooseRow, phase: Phase) -> None:
    if state.phase is not phase:
        raise _illegal(state, action, f"the game is in the {state.phase.value} phase")
    p = action.player
    if not isinstance(p, int) or not 0 <= p < state.players:
        raise _illegal(state, action, f"no {_who(p)} (players are 1..{state.players})")
    if p not in state.to_act():
        raise _illegal(state, action, f"player {p + 1} is not to act")


def _apply_deal(state: State, action: Deal, events: list[Event] | None) -> State:
    if state.phase is not Phase.DEAL:
        raise _illegal(state, action, f"no deal is due in the {state.phase.value} phase")
    rules = state.rules
    if sorted(action.order) != list(rules.deck()):
        raise _illegal(
            state, action, f"the order is not a permutation of the deck {rules.deck_text()}"
        )
    k, n = rules.hand_size, rules.players
    order = action.order
    hands = tuple(order[i * k : (i + 1) * k] for i in range(n))
    if not rules.pile_play:
        hands = tuple(tuple(sorted(h)) for h in hands)
    rows = tuple((c,) for c in order[n * k : n * k + rules.rows])
    rest = tuple(sorted(order[n * k + rules.rows :]))
    if events is not None:
        events.append(RoundStarted(state.round, rows, hands))
    return replace(state, phase=Phase.CHOOSE, hands=hands, rows=rows, set_aside=rest, picker=0)


def _apply_pick(state: State, action: Pick, events: list[Event] | None) -> State:
    _check_player(state, action, Phase.DRAFT)
    if action.card not in state.pool:
        raise _illegal(state, action, f"card {action.card!r} is not face up in the draft")
    rules = state.rules
    p = action.player
    hands = list(state.hands)
    hands[p] = tuple(sorted(hands[p] + (action.card,)))
    pool = tuple(c for c in state.pool if c != action.card)
    if all(len(h) == rules.hand_size for h in hands):
        rows = tuple((c,) for c in pool[: rules.rows])
        rest = pool[rules.rows :]
        if events is not None:
            events.append(RoundStarted(state.round, rows, tuple(hands)))
        return replace(
            state,
            phase=Phase.CHOOSE,
            hands=tuple(hands),
            pool=(),
            rows=rows,
            set_aside=rest,
            picker=0,
        )
    return replace(state, hands=tuple(hands), pool=pool, picker=(p + 1) % rules.players)


def _apply_play(state: State, action: Play, events: list[Event] | None) -> State:
    _check_player(state, action, Phase.CHOOSE)
    p, card = action.player, action.card
    hand = state.hands[p]
    if card not in hand:
        raise _illegal(state, action, f"card {card!r} is not in player {p + 1}'s hand")
    if state.rules.pile_play and card != hand[0]:
        raise _illegal(state, action, f"player {p + 1} must turn up the top card {hand[0]}")
    hands = list(state.hands)
    hands[p] = tuple(c for c in hand if c != card)
    if not state.rules.simultaneous:
        if events is not None:
            events.append(Revealed(((p, card),)))
        return _resolve(replace(state, hands=tuple(hands)), ((card, p),), (), events)
    chosen = list(state.chosen)
    chosen[p] = card
    if any(c is None for c in chosen):
        return replace(state, hands=tuple(hands), chosen=tuple(chosen))
    cards = tuple(c for c in chosen if c is not None)
    if events is not None:
        events.append(Revealed(tuple(enumerate(cards))))
    state = replace(state, hands=tuple(hands), chosen=(None,) * state.players)
    return _resolve(state, reveal(cards, state.rules), (), events)


def _apply_choose_row(state: State, action: ChooseRow, events: list[Event] | None) -> State:
    _check_player(state, action, Phase.ROW_CHOICE)
    pending = state.pending
    assert pending is not None
    move = pending.placement.option_for_row(action.row) if _is_int(action.row) else None
    if move is None:
        options = ", ".join(str(m.row + 1) for m in pending.placement.options)
        raise _illegal(state, action, f"card {pending.card} may take row {options}, not that one")
    state = replace(state, pending=None, phase=Phase.CHOOSE)
    return _resolve(state, state.queue, (action.row,), events)


def _resolve(
    state: State, queue: Queue, choices: tuple[int, ...], events: list[Event] | None
) -> State:
    """Place the revealed cards (:func:`take6.turn.place_cards`) until a choice is needed or the
    turn ends."""
    turn = place_cards(state.rows, queue, state.rules, choices)
    piles = list(state.piles)
    for e in turn.placed:
        if e.taken:
            piles[e.player] += e.taken
    if events is not None:
        events.extend(turn.placed)
    state = replace(state, rows=turn.rows, piles=tuple(piles), queue=turn.queue)
    if turn.pending is not None:
        return replace(state, phase=Phase.ROW_CHOICE, pending=turn.pending)
    return _end_turn(replace(state, phase=Phase.CHOOSE), events)


def _end_turn(state: State, events: list[Event] | None) -> State:
    rules = state.rules
    if not rules.simultaneous:
        nxt = state.picker + 1
        if nxt < rules.players:
            return replace(state, picker=nxt)
        state = replace(state, picker=0)
    state = replace(state, turn=state.turn + 1)
    if events is not None:
        events.append(TurnEnded(state.round, state.turn))
    if any(state.hands):
        return state
    return _end_round(state, events)


def _end_round(state: State, events: list[Event] | None) -> State:
    heads = tuple(state.round_heads(p) for p in range(state.players))
    totals = tuple(t + h for t, h in zip(state.totals, heads, strict=True))
    if events is not None:
        events.append(RoundScored(state.round, heads, totals))
    state = replace(state, totals=totals, round_scores=state.round_scores + (heads,))
    end = state.rules.end
    if end.reached(totals, state.round):
        state = replace(state, phase=Phase.GAME_OVER)
        if events is not None:
            played_out = end.rounds is not None and state.round >= end.rounds
            why = Termination.ROUNDS if played_out else Termination.TARGET
            events.append(GameOver(Outcome(why, state.winners(), totals)))
        return state
    return _start_round(replace(state, round=state.round + 1))
