"""Bot policies: legal actions only, reproducible from the seed, and the 'safe' bot's promise."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from take6 import (
    HEADS,
    ChooseRow,
    EndCondition,
    Phase,
    Play,
    ProfiTie,
    Reason,
    Rules,
    State,
    Variant,
    apply,
    from_position,
    legal_actions,
    new_game,
    parse_position,
    place,
    random_deal,
)
from take6.errors import UsageError
from take6.play.bots import BOTS, make_bot, policy
from take6.play.game import play_game

MAX_PLAYERS = {"standard": 10, "taktik": 10, "logik": 10, "profi": 10, "kids": 6}


def walk(rules: Rules, seed: int) -> Iterator[State]:
    """Every state of one random game (uniform legal actions, seeded shuffles)."""
    rng = random.Random(seed)
    s = new_game(rules)
    while not s.is_over:
        yield s
        if s.is_chance:
            s = apply(s, random_deal(s, rng))
        else:
            actions = legal_actions(s)
            s = apply(s, actions[rng.randrange(len(actions))])
    yield s


@st.composite
def games(draw: st.DrawFn) -> tuple[Rules, int]:
    v = draw(st.sampled_from([x.value for x in Variant]))
    n = draw(st.integers(2, MAX_PLAYERS[v]))
    extra: dict[str, object] = {"end": EndCondition(target=None, rounds=1)}
    if v == "profi":
        extra["profi_tie"] = draw(st.sampled_from(list(ProfiTie)))
    if v == "logik":
        extra["hand_size"] = draw(st.sampled_from([2, 10]))
    return Rules.for_variant(v, players=n, **extra), draw(st.integers(0, 2**32))


def takes_nothing(s: State, card: int) -> bool:
    """Independent check: placed alone on the table now, ``card`` takes no cards."""
    pl = place(s.rows, card, s.rules)
    if pl.reason in (Reason.TOO_LOW, Reason.NO_FIT):
        return False
    return any(len(s.rows[m.row]) < s.rules.row_capacity for m in pl.options)


@given(games())
def test_bots_only_return_legal_actions(game: tuple[Rules, int]) -> None:
    rules, seed = game
    bots = [make_bot(name) for name in BOTS]
    rng = random.Random(seed)
    for i, s in enumerate(walk(rules, seed)):
        if i % 3 and s.phase is not Phase.ROW_CHOICE:
            continue  # every third state, and every row choice, keeps the test quick
        for p in s.to_act():
            legal = legal_actions(s, p)
            for bot in bots:
                assert bot.act(s, p, rng) in legal, (bot.name, s.describe())


@given(games())
def test_bots_are_deterministic_given_the_seed(game: tuple[Rules, int]) -> None:
    rules, seed = game
    for i, s in enumerate(walk(rules, seed)):
        if i % 5:
            continue
        for p in s.to_act():
            for name in BOTS:
                a = make_bot(name).act(s, p, random.Random(seed + i))
                b = make_bot(name).act(s, p, random.Random(seed + i))
                assert a == b


@pytest.mark.parametrize("variant", [v.value for v in Variant])
def test_play_game_is_reproducible(variant: str) -> None:
    rules = Rules.for_variant(variant, players=3)
    bots = [make_bot("random"), make_bot("cheapest"), make_bot("safe")]
    a = play_game(rules, bots, seed=11)
    b = play_game(rules, bots, seed=11)
    assert a.actions == b.actions and a.final == b.final
    assert a.final.is_over
    assert a.states[0] == new_game(rules)
    assert len(a.states) == len(a.actions) + 1
    c = play_game(rules, bots, seed=12)
    assert c.actions != a.actions


@given(games())
def test_safe_bot_plays_a_card_that_takes_nothing(game: tuple[Rules, int]) -> None:
    rules, seed = game
    safe = make_bot("safe")
    for s in walk(rules, seed):
        if s.phase is not Phase.CHOOSE or rules.pile_play:
            continue
        for p in s.to_act():
            card = safe.act(s, p, random.Random(0))
            assert isinstance(card, Play)
            free = [c for c in s.hands[p] if takes_nothing(s, c)]
            if free:
                assert card.card == min(free)
            else:
                assert not takes_nothing(s, card.card)


def test_safe_bot_example() -> None:
    # 8 would be the sixth card of row 1; 2 is too low; 45 fits after 40 and takes nothing.
    s = from_position(parse_position("standard 1,3,4,5,7/10/20/40 2,8,45|50,51,52"))
    assert make_bot("safe").act(s, 0, random.Random(0)) == Play(0, 45)


@given(games())
def test_cheapest_bot_takes_the_best_row(game: tuple[Rules, int]) -> None:
    rules, seed = game
    cheapest = make_bot("cheapest")
    for s in walk(rules, seed):
        if s.phase is not Phase.ROW_CHOICE:
            continue
        assert s.pending is not None
        choice = cheapest.act(s, s.pending.player, random.Random(0))
        assert isinstance(choice, ChooseRow)
        if s.pending.placement.reason in (Reason.TOO_LOW, Reason.NO_FIT):
            costs = [sum(HEADS[c] for c in row) for row in s.rows]
            # Where the most heads win (Kids) the bot takes the dearest row instead.
            best = min(costs) if rules.lowest_wins else max(costs)
            assert costs[choice.row] == best


def test_make_bot_unknown_name() -> None:
    with pytest.raises(ValueError, match="unknown bot 'smart'"):
        make_bot("smart")


def test_bot_with_nothing_to_do() -> None:
    s = new_game(Rules.for_variant("standard", players=2))
    with pytest.raises(ValueError):
        make_bot("random").act(s, 0, random.Random(0))


def test_play_game_needs_one_bot_per_player() -> None:
    with pytest.raises(ValueError, match="2 bots for 3 players"):
        play_game(Rules.for_variant("standard", players=3), [make_bot("random")] * 2, seed=0)


class CountingRng(random.Random):
    """An rng whose ``randrange(n)`` returns a chosen index: running ``act`` once per index
    enumerates every draw a bot can make, each as likely as the others."""

    def __init__(self, index: int) -> None:
        super().__init__(0)
        self.index = index
        self.ranges: list[int] = []

    def randrange(self, start: int, *args: object, **kwargs: object) -> int:
        assert not args and not kwargs, "the bots draw with randrange(n) only"
        self.ranges.append(start)
        return self.index % start


def sampled_distribution(name: str, s: State, p: int) -> dict[object, Fraction]:
    """The exact distribution of ``act``, found by running it with every possible draw."""
    first = CountingRng(0)
    make_bot(name).act(s, p, first)
    assert len(first.ranges) <= 1, "a bot draws at most one number per decision"
    n = first.ranges[0] if first.ranges else 1
    out: dict[object, Fraction] = {}
    for i in range(n):
        a = make_bot(name).act(s, p, CountingRng(i))
        out[a] = out.get(a, Fraction(0)) + Fraction(1, n)
    return out


@given(games())
def test_policy_is_the_distribution_act_samples(game: tuple[Rules, int]) -> None:
    rules, seed = game
    for i, s in enumerate(walk(rules, seed)):
        if i % 3 and s.phase is not Phase.ROW_CHOICE:
            continue
        for p in s.to_act():
            legal = legal_actions(s, p)
            for name in BOTS:
                dist = policy(make_bot(name), s, p)
                assert sum(dist.values()) == 1 and all(q > 0 for q in dist.values())
                assert set(dist) <= set(legal)
                assert dist == sampled_distribution(name, s, p), (name, s.describe())


def test_policy_examples() -> None:
    s = from_position(parse_position("standard 12/37/43/58 5,70,71|15,44,61"))
    third = Fraction(1, 3)
    assert policy(make_bot("random"), s, 0) == {
        Play(0, 5): third,
        Play(0, 70): third,
        Play(0, 71): third,
    }
    assert policy(make_bot("safe"), s, 1) == {Play(1, 15): 1}
    s = apply(apply(s, Play(0, 5)), Play(1, 15))  # 5 is too low: player 1 chooses a row
    assert policy(make_bot("random"), s, 0) == {ChooseRow(0, r): Fraction(1, 4) for r in range(4)}
    assert policy(make_bot("cheapest"), s, 0) == {ChooseRow(0, 0): 1}
    with pytest.raises(UsageError, match="player 2 has nothing to do"):
        policy(make_bot("random"), s, 1)
