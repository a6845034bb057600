"""Differential tests: the fast simulator (take6.play.fastsim) against the reference engine.

For each case (variant, players, settings, bots) both play the same seeds and must agree on the
final totals, every round's scores and the number of rounds; a smaller sample is compared card by
card (every placement: who, which card, which row, how, what it took). The number of games
compared comes from ``TAKE6_DIFF_GAMES`` (default 600 in all); ``bench/engine.py --diff N``
runs the same comparison on N games.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import take6.cards
from take6.cards import HEADS
from take6.errors import RulesError
from take6.play import fastsim
from take6.play.bots import make_bot
from take6.play.fastsim import FastResult, PlacementRecord, simulate, simulate_many
from take6.play.game import play_game
from take6.rules import Comparison, EndCondition, ProfiTie, Rules, Variant
from take6.state import new_game, step
from take6.turn import Placed

DIFF_GAMES = int(os.environ.get("TAKE6_DIFF_GAMES", "600"))

MIXED4 = ("safe", "random", "cheapest", "safe")

# (id, rules, bots or None for all random)
CASES: list[tuple[str, Rules, tuple[str, ...] | None]] = [
    ("standard-2", Rules.for_variant("standard", 2), None),
    ("standard-4", Rules.for_variant("standard", 4), None),
    ("standard-7", Rules.for_variant("standard", 7), None),
    ("standard-10", Rules.for_variant("standard", 10), None),
    ("taktik-2", Rules.for_variant("taktik", 2), None),
    ("taktik-5", Rules.for_variant("taktik", 5), None),
    ("taktik-10", Rules.for_variant("taktik", 10), None),
    ("profi-3-owner", Rules.for_variant("profi", 3), None),
    ("profi-4-owner", Rules.for_variant("profi", 4), None),
    ("profi-4-right", Rules.for_variant("profi", 4, profi_tie=ProfiTie.PREFER_RIGHT), None),
    ("profi-6-left", Rules.for_variant("profi", 6, profi_tie=ProfiTie.PREFER_LEFT), None),
    ("logik-2", Rules.for_variant("logik", 2), None),
    ("logik-4-first2", Rules.for_variant("logik", 4, first_picker=2), None),
    (
        "logik-5-norotate",
        Rules.for_variant("logik", 5, first_picker=3, rotate_first_picker=False),
        None,
    ),
    (
        "logik-3-k4",
        Rules.for_variant("logik", 3, hand_size=4, end=EndCondition(66, rounds=8)),
        None,
    ),
    ("kids-2", Rules.for_variant("kids", 2), None),
    ("kids-4", Rules.for_variant("kids", 4), None),
    ("kids-6", Rules.for_variant("kids", 6), None),
    (
        "category5-5",
        Rules.for_variant("standard", 5, end=EndCondition(74, Comparison.ABOVE)),
        None,
    ),
    ("rounds-3", Rules.for_variant("standard", 3, end=EndCondition(None, rounds=3)), None),
    ("target30-or-2-rounds", Rules.for_variant("taktik", 4, end=EndCondition(30, rounds=2)), None),
    ("one-row", Rules.for_variant("standard", 3, rows=1, hand_size=4), None),
    ("capacity-3", Rules.for_variant("profi", 4, row_capacity=3, rows=5), None),
    ("cheapest-4", Rules.for_variant("standard", 4), ("cheapest",) * 4),
    ("mixed-standard", Rules.for_variant("standard", 4), MIXED4),
    ("mixed-profi", Rules.for_variant("profi", 4), MIXED4),
    ("mixed-logik", Rules.for_variant("logik", 4), MIXED4),
    ("mixed-kids", Rules.for_variant("kids", 4), MIXED4),
    (
        "sequential",
        Rules.for_variant("taktik", 3, simultaneous=False),
        ("safe", "random", "cheapest"),
    ),
    (
        "pile-simultaneous",
        Rules.for_variant("standard", 3, pile_play=True),
        ("random", "safe", "random"),
    ),
    (
        "custom-200",
        Rules.for_variant(
            "standard",
            5,
            deck_size=200,
            head_table=(0, *((c % 7) + (3 if c % 10 == 0 else 0) for c in range(1, 201))),
            end=EndCondition(40),
        ),
        MIXED4 + ("safe",),
    ),
    (
        "custom-cards-logik",
        Rules.for_variant(
            "logik",
            3,
            hand_size=4,
            cards=tuple(range(5, 80, 5)) + (101, 150),
            head_table=tuple(2 if c in (50, 150) else (1 if c % 5 == 0 else 0) for c in range(151)),
            end=EndCondition(None, rounds=3),
        ),
        ("safe", "random", "cheapest"),
    ),
]

GAMES_PER_CASE = max(2, DIFF_GAMES // len(CASES))
BY_ID = {c[0]: (c[1], c[2]) for c in CASES}


def _names(rules: Rules, bots: Sequence[str] | None) -> tuple[str, ...]:
    return tuple(bots) if bots is not None else ("random",) * rules.players


def reference(rules: Rules, bots: Sequence[str] | None, seed: int) -> FastResult:
    """The reference engine's game as a :class:`FastResult`."""
    record = play_game(rules, [make_bot(b) for b in _names(rules, bots)], seed, keep_states=False)
    final = record.final
    return FastResult(final.totals, final.round_scores, final.round)


def reference_trace(rules: Rules, bots: Sequence[str] | None, seed: int) -> list[PlacementRecord]:
    """Every placement of the reference game (replayed with ``step`` for its events)."""
    record = play_game(rules, [make_bot(b) for b in _names(rules, bots)], seed, keep_states=False)
    state = new_game(rules)
    out: list[PlacementRecord] = []
    for action in record.actions:
        rnd = state.round
        state, events = step(state, action)
        for e in events:
            if isinstance(e, Placed):
                out.append(
                    PlacementRecord(
                        rnd,
                        e.player,
                        e.card,
                        e.row,
                        e.side.value,
                        len(e.taken),
                        sum(HEADS[c] for c in e.taken),
                    )
                )
    return out


def disagreements(
    rules: Rules, bots: Sequence[str] | None, seeds: Sequence[int]
) -> list[tuple[int, FastResult, FastResult]]:
    """Seeds on which the fast path and the reference disagree, with both results."""
    out = []
    for seed in seeds:
        ref = reference(rules, bots, seed)
        fast = simulate(rules, seed, bots)
        if fast != ref:
            out.append((seed, fast, ref))
    return out


@pytest.mark.parametrize(("rules", "bots"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_fast_path_agrees_with_reference(rules: Rules, bots: tuple[str, ...] | None) -> None:
    seeds = range(1000, 1000 + GAMES_PER_CASE)
    assert disagreements(rules, bots, seeds) == []


TRACE_CASES = [
    c
    for c in CASES
    if c[0]
    in {
        "standard-4",
        "taktik-2",
        "profi-4-owner",
        "profi-6-left",
        "logik-4-first2",
        "kids-4",
        "one-row",
        "capacity-3",
        "mixed-profi",
        "mixed-kids",
        "sequential",
        "pile-simultaneous",
    }
]


@pytest.mark.parametrize(
    ("rules", "bots"), [c[1:] for c in TRACE_CASES], ids=[c[0] for c in TRACE_CASES]
)
def test_every_placement_agrees_with_reference(rules: Rules, bots: tuple[str, ...] | None) -> None:
    for seed in range(3):
        trace: list[PlacementRecord] = []
        fast = simulate(rules, seed, bots, trace=trace)
        assert trace == reference_trace(rules, bots, seed)
        # The trace accounts for the scores: each round's heads are the heads of its takes.
        per_round = [[0] * rules.players for _ in range(fast.rounds)]
        for rec in trace:
            per_round[rec.round - 1][rec.player] += rec.taken_heads
        assert [tuple(r) for r in per_round] == list(fast.round_scores)
        cards_per_round = rules.players * rules.hand_size
        assert len(trace) == fast.rounds * cards_per_round


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """Rules the settings object can express (with a bounded number of rounds, to stay quick)."""
    variant = draw(st.sampled_from(list(Variant)))
    players = draw(st.integers(2, 10))
    over: dict[str, object] = {}
    if draw(st.booleans()):
        over["hand_size"] = draw(st.integers(1, 12))
    if draw(st.booleans()):
        over["rows"] = draw(st.integers(1, 6))
    if draw(st.booleans()):
        over["row_capacity"] = draw(st.integers(1, 6))
    if draw(st.booleans()):
        over["profi_left"] = draw(st.booleans())
    over["profi_tie"] = draw(st.sampled_from(list(ProfiTie)))
    if variant is not Variant.LOGIK and draw(st.booleans()):
        over["simultaneous"] = draw(st.booleans())
        over["pile_play"] = draw(st.booleans())
    if variant is not Variant.KIDS:
        over["end"] = EndCondition(
            target=draw(st.none() | st.integers(1, 80)),
            comparison=draw(st.sampled_from(list(Comparison))),
            rounds=draw(st.integers(1, 4)),
        )
    over["first_picker"] = draw(st.integers(0, players - 1))
    over["rotate_first_picker"] = draw(st.booleans())
    try:
        return Rules.for_variant(variant, players, **over)
    except RulesError:
        assume(False)
        raise


@given(
    rules=any_rules(),
    bot_pool=st.lists(st.sampled_from(fastsim.BOT_NAMES), min_size=10, max_size=10),
    seed=st.integers(0, 2**32),
)
def test_any_rules_agree_with_reference(rules: Rules, bot_pool: list[str], seed: int) -> None:
    bots = tuple(bot_pool[: rules.players])
    assert simulate(rules, seed, bots) == reference(rules, bots, seed)


# -- checks that do not need the reference: the fast path must not break a rule ----------------


def test_round_scores_obey_the_rules() -> None:
    """Per-round heads: totals are the sums of the rounds; every standard round takes something
    (two or more players); no round takes more heads than the deck holds; a game to 66 ends in
    the first round in which a total reaches 66."""
    rules = Rules.for_variant("standard", 4)
    for result in simulate_many(rules, range(200)):
        sums = [sum(col) for col in zip(*result.round_scores, strict=True)]
        assert tuple(sums) == result.totals
        assert len(result.round_scores) == result.rounds
        running = [0] * 4
        for i, scores in enumerate(result.round_scores, start=1):
            assert sum(scores) >= 1
            assert sum(scores) <= take6.cards.TOTAL_HEADS
            assert all(s >= 0 for s in scores)
            running = [t + s for t, s in zip(running, scores, strict=True)]
            assert (max(running) >= 66) == (i == result.rounds)


def test_kids_is_one_pass() -> None:
    rules = Rules.for_variant("kids", 5)
    for result in simulate_many(rules, range(50)):
        assert result.rounds == 1
        # 5 rows of at most 5 cards stay on the table: the rest of the dealt heads were taken.
        assert sum(result.totals) <= take6.cards.TOTAL_HEADS


def test_a_broken_fast_path_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The differential check has teeth: a wrong bull-head table (55 worth 6) or a wrong
    Profi tie rule makes the fast path disagree with the reference on some seeds."""
    rules = Rules.for_variant("standard", 4)
    wrong = list(take6.cards.HEADS)
    wrong[55] = 6
    wrong_rules = rules.with_(head_table=tuple(wrong))
    assert any(simulate(wrong_rules, s) != reference(rules, None, s) for s in range(20))
    assert disagreements(rules, None, range(20)) == []

    left = Rules.for_variant("profi", 4, profi_tie=ProfiTie.PREFER_LEFT)
    right = left.with_(profi_tie=ProfiTie.PREFER_RIGHT)
    assert any(simulate(left, s) != reference(right, None, s) for s in range(40))


def test_fallback_draws_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The path that calls ``randrange``/``shuffle`` themselves gives the same games."""
    monkeypatch.setattr(fastsim, "_GETRANDBITS_OK", False)
    for case in ("standard-4", "profi-4-owner", "logik-2", "mixed-kids"):
        rules, bots = BY_ID[case]
        for seed in range(3):
            assert simulate(rules, seed, bots) == reference(rules, bots, seed)


def test_getrandbits_self_check_holds() -> None:
    assert fastsim._GETRANDBITS_OK


def test_simulate_many_matches_simulate() -> None:
    rules = Rules.for_variant("profi", 5)
    assert simulate_many(rules, range(10), ("safe",) * 5) == [
        simulate(rules, s, ("safe",) * 5) for s in range(10)
    ]


def test_bad_arguments() -> None:
    rules = Rules.for_variant("standard", 3)
    with pytest.raises(ValueError, match="2 bots for 3 players"):
        simulate(rules, 0, ("random", "random"))
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        simulate(rules, 0, ("random", "random", "clever"))
    with pytest.raises(RuntimeError, match="did not end within 1 rounds"):
        simulate(rules.with_(end=EndCondition(1000)), 0, max_rounds=1)


def test_fastsim_imports_only_take6_and_stdlib() -> None:
    tree = ast.parse(Path(fastsim.__file__).read_text())
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module.split(".")[0])
    assert modules <= {"__future__", "random", "collections", "typing", "take6"}
    assert not {"solver", "proofs"} & modules
