"""Whole games of every variant, driven by random legal actions, with invariants after each step.

A Hypothesis state machine plays the chance Deal (a drawn permutation or a seeded shuffle) and
random legal actions of every kind; a plain conformance test then plays many seeded bot games of
every variant to the end with :func:`take6.play.game.play_game`.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from take6 import (
    HEADS,
    ChooseRow,
    Comparison,
    Deal,
    EndCondition,
    GameOver,
    IllegalActionError,
    Phase,
    Pick,
    Placed,
    Play,
    ProfiTie,
    Reason,
    Revealed,
    RoundScored,
    RoundStarted,
    Rules,
    Side,
    State,
    TurnEnded,
    Variant,
    apply_move,
    legal_actions,
    new_game,
    place,
    random_deal,
    step,
)
from take6.play.bots import make_bot
from take6.play.game import play_game
from take6.state import describe_action

MAX_PLAYERS = {"standard": 10, "taktik": 10, "logik": 10, "profi": 10, "kids": 6}

SHORT_ENDS = [
    EndCondition(target=None, rounds=1),
    EndCondition(target=None, rounds=2),
    EndCondition(target=8),
    EndCondition(target=12, comparison=Comparison.ABOVE),
    EndCondition(target=20, rounds=2),
]


def heads_of(cards: Any) -> int:
    return sum(HEADS[c] for c in cards)


def live_cards(s: State) -> Counter[int]:
    """Every card the state holds somewhere (a Counter, so a duplicate would show)."""
    out: Counter[int] = Counter()
    for group in (s.hands, s.rows, s.piles):
        for cards in group:
            out.update(cards)
    out.update(c for c in s.chosen if c is not None)
    out.update(c for c, _ in s.queue)
    out.update(s.set_aside)
    out.update(s.pool)
    return out


def check_state(s: State) -> None:
    """The invariants every reachable state satisfies (used by the machine and the bot games)."""
    r = s.rules
    n = r.players
    assert len(s.totals) == len(s.hands) == len(s.piles) == len(s.chosen) == n
    # Totals are the sum of the round scores; one score per completed round.
    completed = s.round if s.phase is Phase.GAME_OVER else s.round - 1
    assert len(s.round_scores) == completed
    assert all(len(rs) == n for rs in s.round_scores)
    assert s.totals == tuple(sum(rs[p] for rs in s.round_scores) for p in range(n))
    if s.phase is Phase.DEAL:
        assert not live_cards(s)
        assert legal_actions(s) == [] and s.to_act() == ()
        return
    # Cards are conserved: the live cards are exactly the deck, each once.
    assert live_cards(s) == Counter(r.deck())
    if s.phase is Phase.DRAFT:
        assert s.rows == () and all(not p for p in s.piles)
        sizes = [len(h) for h in s.hands]
        assert max(sizes) - min(sizes) <= 1
        assert s.to_act() == (s.picker,)
        return
    assert len(s.rows) == r.rows
    for row in s.rows:
        assert 1 <= len(row) <= r.row_capacity
        assert all(a < b for a, b in pairwise(row))
    if s.phase is Phase.GAME_OVER:
        assert all(not h for h in s.hands)
        assert r.end.reached(s.totals, s.round)
        assert legal_actions(s) == [] and s.to_act() == ()
        return
    # A round is live: the turn count matches the hand sizes at turn boundaries.
    boundary = (
        s.phase is Phase.CHOOSE
        and all(c is None for c in s.chosen)
        and (r.simultaneous or s.picker == 0)
    )
    if boundary:
        assert {len(h) for h in s.hands} == {r.hand_size - s.turn}
        assert not s.queue and s.pending is None
    assert [c for c, _ in s.queue] == sorted(c for c, _ in s.queue)
    if s.phase is Phase.ROW_CHOICE:
        assert s.pending is not None
        assert s.queue[0] == (s.pending.card, s.pending.player)
        assert s.to_act() == (s.pending.player,)
        assert s.pending.placement == place(s.rows, s.pending.card, r)
        if r.simultaneous and not r.profi_left:
            # Standard: only a too-low card waits for a choice, and it is the lowest card of the
            # turn, so it is the first one placed (nothing of this turn is on the table yet).
            assert len(s.queue) == n
            assert s.pending.placement.reason is Reason.TOO_LOW
    else:
        assert s.pending is None and not s.queue
    assert legal_actions(s)
    # The running score counts this round's bull pile on top of the total.
    assert all(s.score(p) == s.totals[p] + heads_of(s.piles[p]) for p in range(n))


def replay_placements(before: State, action: Any, events: Any, after: State) -> None:
    """Replay the step's Placed events with the public placement functions: each card went
    where :func:`take6.place` sends it (a chosen row only when the owner had the choice)."""
    if before.phase not in (Phase.CHOOSE, Phase.ROW_CHOICE):
        # Deals and draft picks place nothing; the one that lays the rows starts the round.
        started = (RoundStarted(after.round, after.rows, after.hands),)
        assert events == (started if after.phase is Phase.CHOOSE else ())
        return
    rules = before.rules
    rows = before.rows
    kinds = [type(e) for e in events]
    # The order of a step's events: the reveal, the placements, the end of the turn, of the
    # round and of the game.
    order = [Revealed, Placed, TurnEnded, RoundScored, GameOver]
    assert kinds == sorted(kinds, key=order.index)
    if isinstance(action, Play) and (not rules.simultaneous or before.to_act() == (action.player,)):
        assert isinstance(events[0], Revealed)
        assert dict(events[0].plays)[action.player] == action.card
    else:
        assert Revealed not in kinds
    if after.is_over:
        assert isinstance(events[-1], GameOver)
        assert events[-1].outcome.winners == after.winners()
        assert events[-1].outcome.totals == after.totals
    placed = [e for e in events if isinstance(e, Placed)]
    for i, e in enumerate(placed):
        pl = place(rows, e.card, rules)
        if i == 0 and isinstance(action, ChooseRow):
            assert before.pending is not None and before.pending.card == e.card
            assert not pl.forced
            move = pl.option_for_row(action.row)
        else:
            assert pl.forced, (rows, e.card)
            move = pl.options[0]
        assert move is not None and move.row == e.row
        rows, taken = apply_move(rows, e.card, move, rules.row_capacity)
        assert taken == e.taken
        assert e.side is (Side.TAKE if taken else move.side)
    if after.phase in (Phase.CHOOSE, Phase.ROW_CHOICE):
        assert after.rows == rows


class Tracker:
    """What the test saw taken, from the step events, to compare with the engine's scores."""

    def __init__(self, players: int) -> None:
        self.taken: list[list[int]] = [[] for _ in range(players)]
        self.scores: list[tuple[int, ...]] = []
        self.takes_this_turn: Counter[int] = Counter()

    def see(self, events: Any) -> None:
        for e in events:
            if isinstance(e, Placed):
                if e.taken:
                    # One take is at most one full row (<= 27 heads).
                    assert len(e.taken) <= 5 and heads_of(e.taken) <= 27
                    self.taken[e.player].extend(e.taken)
                    self.takes_this_turn[e.player] += 1
                    assert self.takes_this_turn[e.player] == 1  # one row per player per turn
            elif isinstance(e, RoundScored):
                expected = tuple(heads_of(t) for t in self.taken)
                assert e.heads == expected
                self.scores.append(e.heads)
                self.taken = [[] for _ in self.taken]

    def new_turn(self) -> None:
        self.takes_this_turn.clear()


def random_rules(draw: Any, variant: str) -> Rules:
    n = draw(st.integers(2, MAX_PLAYERS[variant]))
    extra: dict[str, Any] = {}
    if variant == "kids":
        extra["end"] = draw(st.sampled_from([EndCondition(target=None, rounds=1), *SHORT_ENDS]))
    else:
        extra["end"] = draw(st.sampled_from(SHORT_ENDS))
    if variant == "profi":
        extra["profi_tie"] = draw(st.sampled_from(list(ProfiTie)))
    if variant == "logik":
        extra["first_picker"] = draw(st.integers(0, n - 1))
        extra["hand_size"] = draw(st.sampled_from([2, 3, 10]))
    return Rules.for_variant(variant, players=n, **extra)


class GameMachine(RuleBasedStateMachine):
    state: State
    tracker: Tracker

    @initialize(variant=st.sampled_from([v.value for v in Variant]), data=st.data())
    def start(self, variant: str, data: st.DataObject) -> None:
        rules = random_rules(data.draw, variant)
        self.state = new_game(rules)
        self.tracker = Tracker(rules.players)
        assert self.state.phase is (Phase.DRAFT if rules.draft else Phase.DEAL)

    @precondition(lambda self: self.state.is_over)
    @rule(variant=st.sampled_from([v.value for v in Variant]), data=st.data())
    def next_game(self, variant: str, data: st.DataObject) -> None:
        s = self.state
        assert s.winners() and set(s.winners()) <= set(range(s.players))
        best = min(s.totals) if s.rules.lowest_wins else max(s.totals)
        assert all((s.totals[p] == best) == (p in s.winners()) for p in range(s.players))
        self.start(variant, data)

    # -- chance --------------------------------------------------------------------------------
    @precondition(lambda self: self.state.phase is Phase.DEAL)
    @rule(data=st.data())
    def deal_permutation(self, data: st.DataObject) -> None:
        order = data.draw(st.permutations(self.state.rules.deck()))
        self.do(Deal(tuple(order)))

    @precondition(lambda self: self.state.phase is Phase.DEAL)
    @rule(seed=st.integers(0, 2**32))
    def deal_seeded(self, seed: int) -> None:
        self.do(random_deal(self.state, random.Random(seed)))

    # -- players -------------------------------------------------------------------------------
    @precondition(lambda self: self.state.to_act() != ())
    @rule(pick=st.integers(0, 10**6))
    def act(self, pick: int) -> None:
        actions = legal_actions(self.state)
        self.do(actions[pick % len(actions)])

    @precondition(lambda self: self.state.to_act() != ())
    @rule(pick=st.integers(0, 10**6))
    def act_lowest_card(self, pick: int) -> None:
        # Playing low cards makes too-low row choices (and Profi left placements) common.
        actions = legal_actions(self.state)
        plays = [a for a in actions if isinstance(a, Play | Pick)]
        if plays:
            self.do(min(plays, key=lambda a: a.card))
        else:
            self.do(actions[pick % len(actions)])

    @precondition(lambda self: self.state.phase is not Phase.GAME_OVER)
    @rule(player=st.integers(-1, 10), card=st.integers(0, 105), row=st.integers(-1, 5))
    def illegal_actions_are_refused(self, player: int, card: int, row: int) -> None:
        s = self.state
        legal = set(legal_actions(s))
        for action in (Play(player, card), ChooseRow(player, row), Pick(player, card)):
            if action in legal:
                continue
            with pytest.raises(IllegalActionError) as exc:
                step(s, action)
            assert describe_action(action) in str(exc.value)
            assert f"round {s.round}" in str(exc.value)
            assert "\n" not in str(exc.value)
        if s.phase is not Phase.DEAL:
            with pytest.raises(IllegalActionError):
                step(s, random_deal(s, random.Random(0)))
        assert self.state is s

    @precondition(lambda self: self.state.phase is not Phase.GAME_OVER)
    @rule(seed=st.integers(0, 2**32))
    def play_to_the_end(self, seed: int) -> None:
        rng = random.Random(seed)
        r = self.state.rules
        # Every round moves a card into a bull pile, so with a target the game ends; our short
        # end conditions stop it within a few rounds.
        budget = 30 * (r.players * r.hand_size * 3 + r.deck_size + 10)
        for _ in range(budget):
            if self.state.is_over:
                break
            if self.state.is_chance:
                self.do(random_deal(self.state, rng))
            else:
                actions = legal_actions(self.state)
                self.do(actions[rng.randrange(len(actions))])
            self.check()
        assert self.state.is_over

    # -- bookkeeping ---------------------------------------------------------------------------
    def do(self, action: Any) -> None:
        before = self.state
        self.state, events = step(self.state, action)
        self.tracker.see(events)
        replay_placements(before, action, events, self.state)
        if (self.state.round, self.state.turn) != (before.round, before.turn):
            self.tracker.new_turn()

    @invariant()
    def check(self) -> None:
        check_state(self.state)
        assert tuple(self.tracker.scores) == self.state.round_scores
        if self.state.phase in (Phase.CHOOSE, Phase.ROW_CHOICE):
            seen = [sorted(t) for t in self.tracker.taken]
            assert seen == [sorted(p) for p in self.state.piles]

    @invariant()
    def ends_only_when_the_end_condition_says(self) -> None:
        s = self.state
        end = s.rules.end
        if s.phase is Phase.GAME_OVER:
            earlier = s.round_scores[:-1]
            totals = tuple(sum(rs[p] for rs in earlier) for p in range(s.players))
            assert not end.reached(totals, s.round - 1) or s.round == 1
        elif s.round > 1:
            assert not end.reached(s.totals, s.round - 1)


GameMachine.TestCase.settings = settings(stateful_step_count=60)
TestGameMachine = GameMachine.TestCase


# -- conformance: many seeded bot games of every variant to the end ------------------------------

BOT_NAMES = ("random", "cheapest", "safe")


def games_for(variant: str) -> list[tuple[Rules, list[str]]]:
    rng = random.Random(f"games-{variant}")
    out = []
    for i in range(200):
        n = 2 + i % (MAX_PLAYERS[variant] - 1)
        extra: dict[str, Any] = {}
        if variant != "kids":
            # Most games to a small target; every tenth the real 66.
            extra["end"] = EndCondition() if i % 10 == 0 else rng.choice(SHORT_ENDS)
        if variant == "profi":
            extra["profi_tie"] = rng.choice(list(ProfiTie))
        if variant == "logik":
            extra["first_picker"] = rng.randrange(n)
        rules = Rules.for_variant(variant, players=n, **extra)
        out.append((rules, [rng.choice(BOT_NAMES) for _ in range(n)]))
    return out


@pytest.mark.parametrize("variant", [v.value for v in Variant])
def test_seeded_bot_games_end_and_stay_valid(variant: str) -> None:
    ended_by_target = 0
    for seed, (rules, names) in enumerate(games_for(variant)):
        # The first games keep every state and check each; the rest check the final one.
        record = play_game(rules, [make_bot(b) for b in names], seed, keep_states=seed < 20)
        for state in record.states:
            check_state(state)
        final = record.final
        assert final.is_over
        assert rules.end.reached(final.totals, final.round)
        # A draft/deal and hand_size plays per player per round, plus the row choices.
        assert len(record.actions) >= final.round * rules.players * rules.hand_size
        if rules.end.rounds is None or final.round < rules.end.rounds:
            ended_by_target += 1
        # When more cards are played in a round (n·hand) than the rows have room for without a
        # take (rows·(capacity - 1)), every round moves cards into a bull pile: the heads taken
        # grow by at least 1 a round, so a game to a target T ends within n·T + 1 rounds.
        if rules.players * rules.hand_size > rules.rows * (rules.row_capacity - 1):
            assert all(sum(rs) >= 1 for rs in final.round_scores)
            if rules.end.target is not None:
                assert final.round <= rules.players * rules.end.target + 1
        # Replaying the record gives the same game (reproducible from the seed).
        again = play_game(rules, [make_bot(b) for b in names], seed, keep_states=False)
        assert again.actions == record.actions
    if variant != "kids":
        assert ended_by_target > 0
