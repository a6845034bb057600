"""Bot policies, kept apart from the rules: the rules core never decides for a player.

A bot is called only for a player who must act, and returns one of ``legal_actions(state, p)``.
Randomness comes from the ``rng`` argument, so a game is reproducible from its seed.

* ``random`` — a uniformly random legal action (card index, row index or pick index drawn with
  ``rng.randrange``; the fast simulator in :mod:`take6.play.fastsim` draws the same numbers).
* ``cheapest`` — a random card, but when it must choose a row it takes the cheapest one (in
  Kids, where the most heads win, the dearest one).
* ``safe`` — the lowest card that takes nothing if placed on the table as it is now (ignoring
  the others' cards); otherwise the card that takes the fewest heads; cheapest row when choosing.

``random`` randomises every decision, ``cheapest`` its cards and Logik picks only, ``safe``
nothing. :func:`policy` gives a bot's decision as an exact distribution over the legal actions
(what ``act`` samples), for analyses that need the policy itself, such as the exact value of
optimal play against a bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Protocol

from take6.cards import Card
from take6.errors import UsageError
from take6.placement import Move, Rows, Side, place
from take6.rules import Rules
from take6.state import Action, ChooseRow, Phase, Pick, Play, State


class Agent(Protocol):
    """Whatever decides for a seat in a game (a bot, or the command line's human player)."""

    name: str

    def act(self, state: State, player: int, rng: random.Random) -> Action: ...


class Bot(Agent, Protocol):
    """A bot policy: an agent whose decision is also known as an exact distribution."""

    def distribution(self, state: State, player: int) -> dict[Action, Fraction]: ...


def _uniform(actions: Sequence[Action]) -> dict[Action, Fraction]:
    out: dict[Action, Fraction] = {}
    for a in actions:
        out[a] = out.get(a, Fraction(0)) + Fraction(1, len(actions))
    return out


def policy(bot: Bot, state: State, player: int) -> dict[Action, Fraction]:
    """The exact distribution of ``bot.act(state, player, rng)`` over the legal actions
    (probabilities that sum to 1; a deterministic decision has one action with probability 1).

    Raises :class:`~take6.errors.UsageError` when ``player`` has nothing to do, as ``act``
    does."""
    if player not in state.to_act():
        raise UsageError(f"player {player + 1} has nothing to do in {state.describe()}")
    return bot.distribution(state, player)


def _row_cost(row: tuple[Card, ...], rules: Rules) -> tuple[int, int]:
    return (rules.heads_of(row), len(row))


def cheapest_row(state: State, player: int) -> ChooseRow:
    """The pending choice that takes the fewest heads (then fewest cards, then lowest row).

    When the most heads win (Kids) it is the other way round: the row with the most heads."""
    assert state.pending is not None
    options = state.pending.placement.options
    sign = 1 if state.rules.lowest_wins else -1

    def cost(m: Move) -> tuple[int, int, int]:
        row = state.rows[m.row]
        if m.side is Side.TAKE or len(row) >= state.rules.row_capacity:
            heads, n = _row_cost(row, state.rules)
            return (sign * heads, sign * n, m.row)
        return (0, 0, m.row)

    return ChooseRow(player, min(options, key=cost).row)


def immediate_cost(rows: Rows, card: Card, state: State) -> int:
    """Heads ``card`` would take if it were the only card placed on ``rows`` (a too-low card
    counts the cheapest row)."""
    pl = place(rows, card, state.rules)
    costs = []
    for m in pl.options:
        row = rows[m.row]
        if m.side is Side.TAKE or len(row) >= state.rules.row_capacity:
            costs.append(state.rules.heads_of(row))
        else:
            costs.append(0)
    return min(costs)


class RandomBot:
    name = "random"

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        if state.phase is Phase.CHOOSE:
            hand = state.hands[player]
            if state.rules.pile_play:
                return Play(player, hand[0])
            return Play(player, hand[rng.randrange(len(hand))])
        if state.phase is Phase.ROW_CHOICE:
            assert state.pending is not None
            options = state.pending.placement.options
            return ChooseRow(player, options[rng.randrange(len(options))].row)
        if state.phase is Phase.DRAFT:
            return Pick(player, state.pool[rng.randrange(len(state.pool))])
        raise UsageError(f"player {player + 1} has nothing to do in {state.describe()}")

    def distribution(self, state: State, player: int) -> dict[Action, Fraction]:
        """What :meth:`act` draws, with its probabilities (each index equally likely)."""
        if state.phase is Phase.CHOOSE:
            hand = state.hands[player]
            if state.rules.pile_play:
                return {Play(player, hand[0]): Fraction(1)}
            return _uniform([Play(player, c) for c in hand])
        if state.phase is Phase.ROW_CHOICE:
            assert state.pending is not None
            return _uniform([ChooseRow(player, m.row) for m in state.pending.placement.options])
        if state.phase is Phase.DRAFT:
            return _uniform([Pick(player, c) for c in state.pool])
        raise UsageError(f"player {player + 1} has nothing to do in {state.describe()}")


class CheapestRowBot(RandomBot):
    name = "cheapest"

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        if state.phase is Phase.ROW_CHOICE:
            return cheapest_row(state, player)
        return super().act(state, player, rng)

    def distribution(self, state: State, player: int) -> dict[Action, Fraction]:
        if state.phase is Phase.ROW_CHOICE:
            return {cheapest_row(state, player): Fraction(1)}
        return super().distribution(state, player)


class SafeBot(RandomBot):
    name = "safe"

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        if state.phase is Phase.ROW_CHOICE:
            return cheapest_row(state, player)
        if state.phase is Phase.CHOOSE and not state.rules.pile_play:
            hand = state.hands[player]
            best = min(hand, key=lambda c: (immediate_cost(state.rows, c, state), c))
            return Play(player, best)
        if state.phase is Phase.DRAFT:
            # Take the cheapest card in heads; among equals, the one nearest the middle.
            deck, table = state.rules.deck(), state.rules.heads
            mid = (deck[0] + deck[-1]) / 2
            return Pick(player, min(state.pool, key=lambda c: (table[c], abs(c - mid), c)))
        return super().act(state, player, rng)

    def distribution(self, state: State, player: int) -> dict[Action, Fraction]:
        """One action with probability 1, except a Kids pile's top card (no choice either)."""
        if state.phase in (Phase.ROW_CHOICE, Phase.DRAFT) or (
            state.phase is Phase.CHOOSE and not state.rules.pile_play
        ):
            # act() draws nothing from its rng in these phases.
            return {self.act(state, player, random.Random(0)): Fraction(1)}
        return super().distribution(state, player)


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "cheapest": CheapestRowBot,
    "safe": SafeBot,
}
"""Bot factories by name (the names the CLI accepts)."""


def make_bot(name: str) -> Bot:
    """The bot called ``name``; raises :class:`~take6.errors.UsageError` naming the known bots."""
    try:
        return BOTS[name]()
    except KeyError:
        raise UsageError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
