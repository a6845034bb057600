"""Break a rule on purpose: the obligation must fail with a counterexample, and the engine must
disagree with the broken model on that counterexample."""

from __future__ import annotations

from typing import cast

import z3

from proofs import deck, game, placement, sources
from proofs.core import Status
from proofs.model import (
    LEFT,
    RIGHT,
    TAKE,
    SymPlacement,
    Table,
    Term,
    evaluate_rule,
    profi_rule,
    standard_rule,
)
from take6.cards import HEADS, total_heads
from take6.placement import Reason, Side, apply_move, place
from take6.rules import Rules

STANDARD = Rules.for_variant("standard", players=4)


def _rows(w: dict[str, object]) -> list[tuple[int, ...]]:
    return [tuple(r) for r in cast(list[list[int]], w["rows"])]


def ascending_only(table: Table, card: Term) -> SymPlacement:
    """Broken: any row ending below the card (ignores the smallest-difference rule)."""
    right = tuple(row.last < card for row in table)
    no = tuple(z3.BoolVal(False) for _ in table)
    return SymPlacement(right, no, z3.And([row.last > card for row in table]))


def nearest_any_side(table: Table, card: Term) -> SymPlacement:
    """Broken: the row whose last card is nearest in absolute value (ignores the ascending rule)."""

    def dist(row_last: Term) -> Term:
        return z3.If(row_last < card, card - row_last, row_last - card)

    right = tuple(
        z3.And([dist(row.last) <= dist(o.last) for o in table if o is not row]) for row in table
    )
    no = tuple(z3.BoolVal(False) for _ in table)
    return SymPlacement(right, no, z3.BoolVal(False))


def test_wrong_heads_table_is_refuted() -> None:
    wrong = list(HEADS)
    wrong[51] = 2  # seed 001's literal reading for one card
    for check in (deck.check_total, deck.check_distribution, sources.check_seed_000_heads):
        result = check(wrong)
        assert result.status is Status.REFUTED, check
        assert result.witness
    result = deck.check_total(wrong)
    assert result.witness == {"total": 172}
    assert total_heads(range(1, 105)) + 1 == 172  # the counterexample total, from the engine


def test_wrong_heads_table_breaks_the_max_take() -> None:
    wrong = list(HEADS)
    wrong[1] = 9
    result = placement.check_max_take(wrong)
    assert result.status is Status.REFUTED
    assert result.witness is not None
    row = result.witness["row"]
    assert isinstance(row, list) and 1 in row
    assert sum(wrong[c] for c in row) > 27  # the witness row is over the bound under that table


def test_ignoring_smallest_difference_is_refuted_and_engine_disagrees() -> None:
    result = placement.check_standard_deterministic(ascending_only)
    assert result.status is Status.REFUTED
    w = result.witness
    assert w is not None
    rows = _rows(w)
    card = w["card"]
    assert isinstance(card, int)
    chosen = w["chosen"]
    assert isinstance(chosen, list) and len(chosen) >= 2
    # the engine picks exactly one of them
    pl = place(rows, card, STANDARD)
    assert pl.reason is Reason.FORCED and len(pl.options) == 1
    assert pl.options[0].row in chosen
    assert evaluate_rule(standard_rule, rows, card).right == (pl.options[0].row,)


def test_ignoring_ascending_rule_breaks_the_invariant() -> None:
    result = placement.check_step_invariant(nearest_any_side)
    assert result.status is Status.REFUTED
    w = result.witness
    assert w is not None
    rows = _rows(w)
    card = w["card"]
    assert isinstance(card, int)
    # the engine, on the same table and card, keeps every row ascending
    pl = place(rows, card, STANDARD)
    for move in pl.options:
        after, _ = apply_move(rows, card, move, 5)
        assert all(list(r) == sorted(set(r)) for r in after)


def test_row_capacity_six_breaks_the_five_card_invariant() -> None:
    result = placement.check_step_invariant(standard_rule, step_capacity=6)
    assert result.status is Status.REFUTED
    w = result.witness
    assert w is not None
    assert w["side"] == "right"
    after = w["after"]
    assert isinstance(after, list) and max(len(r) for r in after) == 6
    # the engine never appends a 6th card: it takes the row
    rows = _rows(w)
    card = w["card"]
    assert isinstance(card, int)
    pl = place(rows, card, STANDARD)
    new_rows, taken = apply_move(rows, card, pl.options[0], 5)
    assert max(len(r) for r in new_rows) <= 5 and taken


def test_profi_without_tie_rule_would_claim_uniqueness_is_refuted() -> None:
    # A Profi model claiming "only one option ever" is refuted by the tie.
    def standard_as_profi(table: Table, card: Term) -> SymPlacement:
        says = profi_rule(table, card)
        # broken: pretend the left options do not exist unless no right option does
        left = tuple(z3.And(lft, z3.Not(z3.Or(*says.right))) for lft in says.left)
        return SymPlacement(says.right, left, says.choose)

    result = placement.check_profi_tie(standard_as_profi)
    assert result.status is Status.PROVED  # the broken model hides the tie ...
    real = placement.check_profi_tie(profi_rule)
    assert real.status is Status.FINDING  # ... the faithful one finds it
    w = real.witness
    assert w is not None
    rows = _rows(w)
    card = w["card"]
    assert isinstance(card, int)
    assert place(rows, card, Rules.for_variant("profi", players=2)).reason is Reason.TIE


def test_wrong_kids_deal_changes_the_limit() -> None:
    result = deck.check_kids_players(hand=10, rows=4)
    assert result.status is Status.PROVED
    assert result.witness == {"max_players": 10, "cards_needed": 105 - 1}


def test_side_codes_match_engine() -> None:
    # The model's side codes, as the witnesses name them, are the engine's sides: one code per
    # side, each named by the engine's own value.
    decoded = {code: Side(name) for code, name in placement.SIDE_NAMES.items()}
    assert decoded == {RIGHT: Side.RIGHT, LEFT: Side.LEFT, TAKE: Side.TAKE}
    assert set(decoded.values()) == set(Side)


def test_a_card_without_heads_breaks_termination() -> None:
    wrong = list(HEADS)
    wrong[7] = 0
    result = game.check_termination(table=wrong)
    assert result.status is Status.REFUTED
    assert result.witness == {"card": 7, "heads": 0}
    assert HEADS[7] >= 1  # the engine's card 7 does score
