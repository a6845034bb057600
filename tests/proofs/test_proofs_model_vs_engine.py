"""The z3 restatements agree with the engine on random inputs (one truth per fact)."""

from __future__ import annotations

import random

import z3
from hypothesis import given
from hypothesis import strategies as st
from proofs_strategies import Rows, tables

from proofs import sources
from proofs.model import (
    LEFT,
    RIGHT,
    TAKE,
    evaluate_rule,
    evaluate_step,
    heads_term,
    profi_rule,
    standard_rule,
)
from take6.cards import HEADS
from take6.placement import Reason, Side, apply_move, place
from take6.rules import Rules

STANDARD = Rules.for_variant("standard", players=4)
PROFI = Rules.for_variant("profi", players=2)
SIDE_CODE = {Side.RIGHT: RIGHT, Side.LEFT: LEFT, Side.TAKE: TAKE}


def _value(term: z3.ArithRef) -> int:
    return int(z3.simplify(term).as_long())


def test_heads_term_is_the_engine_table_on_every_card() -> None:
    for c in range(1, 105):
        assert _value(heads_term(z3.IntVal(c))) == HEADS[c]


@given(st.integers(1, 104))
def test_heads_term_symbolic_matches_engine(card: int) -> None:
    x = z3.Int("x")
    s = z3.Solver()
    s.add(x == card)
    assert s.check() == z3.sat
    assert s.model().eval(heads_term(x)).as_long() == HEADS[card]


@given(st.integers(1, 104))
def test_seed_wordings_match_their_plain_python_readings(card: int) -> None:
    # Independent restatements of each wording in plain Python.
    digits = str(card)
    if card == 55:
        literal = 7
    elif card % 11 == 0 and card < 100:
        literal = 5
    elif card % 10 == 0:
        literal = 3
    elif "5" in digits:
        literal = 2
    else:
        literal = 1
    c = z3.IntVal(card)
    assert _value(sources.seed_001_literal_heads(c)) == literal
    assert _value(sources.seed_001_intended_heads(c)) == HEADS[card]
    assert _value(sources.seed_000_heads(c)) == HEADS[card]


@given(tables())
def test_standard_model_chooses_the_engine_row(case: tuple[Rows, list[int]]) -> None:
    rows, (card,) = case
    model = evaluate_rule(standard_rule, rows, card)
    engine = place(rows, card, STANDARD)
    assert model.left == ()
    if engine.reason is Reason.TOO_LOW:
        assert model.choose and model.right == ()
    else:
        assert engine.reason is Reason.FORCED
        assert not model.choose
        assert model.right == (engine.options[0].row,)


@given(tables())
def test_profi_model_gives_the_engine_options(case: tuple[Rows, list[int]]) -> None:
    rows, (card,) = case
    model = evaluate_rule(profi_rule, rows, card)
    engine = place(rows, card, PROFI)
    if engine.reason is Reason.NO_FIT:
        assert model.choose and model.right == () and model.left == ()
        return
    assert not model.choose
    got = {(m.row, m.side) for m in engine.options}
    want = {(i, Side.RIGHT) for i in model.right} | {(i, Side.LEFT) for i in model.left}
    assert got == want
    assert (engine.reason is Reason.TIE) == (len(want) == 2)


def test_profi_model_on_ties_and_no_fit() -> None:
    # Tables built to hit the rare cases.
    tie = ((18,), (22, 30), (40,), (50,))
    assert place(tie, 20, PROFI).reason is Reason.TIE
    assert evaluate_rule(profi_rule, tie, 20).right == (0,)
    assert evaluate_rule(profi_rule, tie, 20).left == (1,)
    nowhere = ((10, 30), (5, 40), (1, 50), (2, 60))
    assert place(nowhere, 20, PROFI).reason is Reason.NO_FIT
    assert evaluate_rule(profi_rule, nowhere, 20).choose


@given(tables(), st.booleans(), st.randoms(use_true_random=False))
def test_step_model_is_apply_move(
    case: tuple[Rows, list[int]], profi: bool, rng: random.Random
) -> None:
    rows, (card,) = case
    rules, rule = (PROFI, profi_rule) if profi else (STANDARD, standard_rule)
    placement = place(rows, card, rules)
    move = rng.choice(placement.options)
    engine_rows, engine_taken = apply_move(rows, card, move, rules.row_capacity)
    model_rows, model_taken = evaluate_step(rule, rows, card, move.row, SIDE_CODE[move.side])
    assert model_rows == engine_rows
    assert model_taken == tuple(engine_taken)


@given(tables(rows=5, extra=1))
def test_kids_tables_use_the_standard_rule(case: tuple[Rows, list[int]]) -> None:
    rows, (card,) = case
    kids = Rules.for_variant("kids", players=2)
    model = evaluate_rule(standard_rule, rows, card)
    engine = place(rows, card, kids)
    assert (engine.reason is Reason.TOO_LOW) == model.choose
    if not model.choose:
        assert model.right == (engine.options[0].row,)
