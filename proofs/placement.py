"""Obligations about the placement rule, one placement step and one turn.

Cards are unbounded z3 integers (at least 1) unless a witness is meant to be replayed on the real
deck, in which case it is bounded to 1..104. The rule is a parameter (:data:`PlacementRule`), so a
broken restatement fails with a counterexample.
"""

from __future__ import annotations

from collections.abc import Sequence

import z3

from proofs.core import Result, Witness, as_int, is_sat, new_optimizer, new_solver
from proofs.model import (
    CAPACITY,
    LEFT,
    RIGHT,
    ROWS,
    TAKE,
    PlacementRule,
    SymStep,
    Table,
    Term,
    on_table,
    profi_rule,
    read_table,
    standard_rule,
    sym_row,
    sym_step,
    sym_table,
    table_ok,
    table_size,
)
from take6.cards import HEADS, MAX_CARD, MAX_ROW_HEADS

SIDE_NAMES = {RIGHT: "right", LEFT: "left", TAKE: "take"}


def _table_and_card(
    rows: int = ROWS, slots: int = CAPACITY, capacity: int = CAPACITY
) -> tuple[Table, Term, list[z3.BoolRef]]:
    table = sym_table("t", rows, slots)
    card = z3.Int("card")
    return table, card, [table_ok(table, capacity), card >= 1, z3.Not(on_table(table, card))]


def _case(m: z3.ModelRef, table: Table, card: Term) -> Witness:
    return {"rows": [list(r) for r in read_table(m, table)], "card": as_int(m, card)}


def check_standard_deterministic(
    rule: PlacementRule = standard_rule, rows: int = ROWS, capacity: int = CAPACITY
) -> Result:
    """Standard: for every table of strictly ascending rows of distinct cards and every card not
    on it, exactly one row is chosen, or the card is too low (and then no row is chosen)."""
    s = new_solver()
    table, card, facts = _table_and_card(rows, capacity, capacity)
    s.add(*facts)
    says = rule(table, card)
    exactly_one = says.count() == 1
    s.add(
        z3.Not(
            z3.Or(z3.And(exactly_one, z3.Not(says.choose)), z3.And(says.count() == 0, says.choose))
        )
    )
    if is_sat(s, "standard placement determinism"):
        m = s.model()
        chosen = [i for i, o in enumerate(says.right) if z3.is_true(m.eval(o))]
        return Result.refuted(
            f"rows chosen: {chosen}, too low: {z3.is_true(m.eval(says.choose))}",
            {**_case(m, table, card), "chosen": chosen},
        )
    return Result.proved("exactly one row, or too low (unbounded integer cards)")


def _profi_claim(rule: PlacementRule, table: Table, card: Term) -> z3.BoolRef:
    """At most two options; two only as one right and one left at equal distance; no option
    exactly when the card fits nowhere."""
    says = rule(table, card)
    n = len(table)
    tie = z3.Or(
        [
            z3.And(says.right[i], says.left[j], card - table[i].last == table[j].first - card)
            for i in range(n)
            for j in range(n)
        ]
    )
    return z3.And(
        says.count() <= 2,
        z3.Implies(says.count() == 2, tie),
        (says.count() == 0) == says.choose,
    )


def check_profi_unique(
    rule: PlacementRule = profi_rule, rows: int = ROWS, capacity: int = CAPACITY
) -> Result:
    """Profi: placement is unique except for a left/right tie at equal distance (two options), or
    the card fits nowhere (no option: the owner chooses a row to take)."""
    s = new_solver()
    table, card, facts = _table_and_card(rows, capacity, capacity)
    s.add(*facts, z3.Not(_profi_claim(rule, table, card)))
    if is_sat(s, "profi uniqueness"):
        m = s.model()
        says = rule(table, card)
        return Result.refuted(
            f"{as_int(m, says.count())} options",
            {
                **_case(m, table, card),
                "right": [i for i, o in enumerate(says.right) if z3.is_true(m.eval(o))],
                "left": [i for i, o in enumerate(says.left) if z3.is_true(m.eval(o))],
            },
        )
    return Result.proved("one option, or a left/right tie at equal distance, or none fits")


def in_deck(x: Term, deck: Sequence[int] | None) -> z3.BoolRef:
    """``x`` is a card of ``deck`` (``None``: the standard deck 1..104)."""
    if deck is None:
        return z3.And(x >= 1, x <= MAX_CARD)
    return z3.Or([x == c for c in deck])


def _small(m_table: Table, card: Term, deck: Sequence[int] | None = None) -> list[z3.BoolRef]:
    """The card and every card in use on the table belong to ``deck``."""
    if deck is None:
        return [card <= MAX_CARD, *[c <= MAX_CARD for row in m_table for c in row.cards]]
    used = [
        z3.Implies(row.length > j, in_deck(c, deck))
        for row in m_table
        for j, c in enumerate(row.cards)
    ]
    return [in_deck(card, deck), *used]


def check_profi_tie(
    rule: PlacementRule = profi_rule,
    rows: int = ROWS,
    capacity: int = CAPACITY,
    deck: Sequence[int] | None = None,
) -> Result:
    """Profi (seed 000: "se elige la fila donde la carta sea numéricamente más cercana"): z3 finds
    a table and card at equal distance from one row's end and another row's start (cards of
    ``deck``, default 1..104)."""
    opt = new_optimizer()
    table, card, facts = _table_and_card(rows, capacity, capacity)
    says = rule(table, card)
    opt.add(*facts, *_small(table, card, deck))
    opt.add(z3.Or([z3.And(r, lft) for r in says.right for lft in says.left]))
    opt.minimize(table_size(table))
    if not is_sat(opt, "profi tie"):
        return Result.proved("no left/right tie is possible")
    m = opt.model()
    right = [i for i, o in enumerate(says.right) if z3.is_true(m.eval(o))]
    left = [i for i, o in enumerate(says.left) if z3.is_true(m.eval(o))]
    case = _case(m, table, card)
    return Result.finding(
        f"card {case['card']} on {case['rows']}: end of row {right[0] + 1} and start of row "
        f"{left[0] + 1} are equally close",
        {**case, "right_row": right[0], "left_row": left[0]},
    )


def check_profi_no_fit(
    rule: PlacementRule = profi_rule,
    rows: int = ROWS,
    capacity: int = CAPACITY,
    deck: Sequence[int] | None = None,
) -> Result:
    """Profi: z3 finds a card that fits nowhere (above every first card, below every last card);
    seed 000 does not say what happens then."""
    opt = new_optimizer()
    table, card, facts = _table_and_card(rows, capacity, capacity)
    opt.add(*facts, *_small(table, card, deck), rule(table, card).choose)
    opt.minimize(table_size(table))
    if not is_sat(opt, "profi fits nowhere"):
        return Result.proved("every card fits somewhere")
    m = opt.model()
    case = _case(m, table, card)
    return Result.finding(
        f"card {case['card']} fits no row of {case['rows']} (neither end nor start)", case
    )


# -- one placement step: the inductive invariants -----------------------------------------------


def conserved(table: Table, card: Term, step: SymStep, x: Term) -> z3.BoolRef:
    """Cards are conserved by the step: same set (tested at an arbitrary ``x``) and same count."""
    before = z3.Or(on_table(table, x), x == card)
    after = z3.Or(on_table(step.after, x), step.taken.holds(x))
    return z3.And(
        before == after, table_size(table) + 1 == table_size(step.after) + step.taken.length
    )


def check_step_invariant(
    rule: PlacementRule = standard_rule,
    capacity: int = CAPACITY,
    rows: int = ROWS,
    step_capacity: int | None = None,
) -> Result:
    """``inv ∧ step ⇒ inv'``: after any placement the rule allows (forced, full-row take, too-low or
    fits-nowhere take, Profi left) every row holds 1..5 strictly ascending cards, all distinct,
    and the cards on the table plus the cards taken are those before plus the card placed."""
    s = new_solver()
    step_capacity = capacity if step_capacity is None else step_capacity
    table, card, facts = _table_and_card(rows, max(capacity, step_capacity) + 1, capacity)
    step = sym_step(table, card, rule, capacity=step_capacity)
    x = z3.Int("x")
    s.add(*facts, step.allowed)
    s.add(z3.Not(z3.And(table_ok(step.after, capacity), conserved(table, card, step, x))))
    if is_sat(s, "step invariant"):
        m = s.model()
        return Result.refuted(
            "invariant broken by one placement",
            {
                **_case(m, table, card),
                "row": as_int(m, step.row),
                "side": SIDE_NAMES.get(as_int(m, step.side), "?"),
                "after": [list(r) for r in read_table(m, step.after)],
            },
        )
    return Result.proved(f"rows 1..{capacity} ascending & distinct, cards conserved (all moves)")


def check_one_row_taken(
    rules: Sequence[PlacementRule] = (standard_rule, profi_rule),
    rows: int = ROWS,
    capacity: int = CAPACITY,
) -> Result:
    """A placement takes nothing or exactly one whole row of the table (at most ``capacity``
    cards), under each rule in ``rules``; a player places one card per turn, so takes at most one
    row per turn."""
    for k, rule in enumerate(rules):
        s = new_solver()
        table, card, facts = _table_and_card(rows, capacity, capacity)
        step = sym_step(table, card, rule, capacity=capacity)
        x = z3.Int("x")
        s.add(*facts, step.allowed)
        whole_row = z3.Or(
            [
                z3.And(
                    step.row == i,
                    step.taken.length == row.length,
                    step.taken.holds(x) == row.holds(x),
                )
                for i, row in enumerate(table)
            ]
        )
        s.add(
            z3.Not(z3.And(z3.Or(step.taken.length == 0, whole_row), step.taken.length <= capacity))
        )
        if is_sat(s, "one row taken"):
            m = s.model()
            return Result.refuted(
                f"rule {k}: a placement took more than one row",
                {**_case(m, table, card), "rule": k},
            )
    names = " and ".join("Profi" if r is profi_rule else "standard" for r in rules)
    return Result.proved(f"nothing, or one whole row of ≤ {capacity} cards ({names})")


def check_max_take(
    table_heads: Sequence[int] = HEADS,
    bound: int | None = MAX_ROW_HEADS,
    capacity: int = CAPACITY,
    deck: Sequence[int] | None = None,
) -> Result:
    """The most heads one take can hold: Optimize over every row of 1..``capacity`` strictly
    ascending distinct cards of the deck (default 1..104), then prove nothing exceeds it (and,
    when ``bound`` is given, that the optimum is ``bound``)."""
    opt = new_optimizer()
    row = sym_row("r", capacity)
    facts = [
        row.valid(capacity),
        row.first >= 1,
        *[z3.Implies(row.length > j, in_deck(c, deck)) for j, c in enumerate(row.cards)],
    ]
    opt.add(*facts)
    opt.maximize(row.heads(table_heads))
    if not is_sat(opt, "max take"):
        return Result.refuted("no row exists", {})
    m = opt.model()
    best = as_int(m, row.heads(table_heads))
    cards = [as_int(m, row.cards[j]) for j in range(as_int(m, row.length))]
    s = new_solver()
    s.add(*facts, row.heads(table_heads) > (best if bound is None else bound))
    if is_sat(s, "take bound"):
        m2 = s.model()
        over = [as_int(m2, row.cards[j]) for j in range(as_int(m2, row.length))]
        return Result.refuted(
            f"row {over} holds {as_int(m2, row.heads(table_heads))} heads > {bound}",
            {"row": over, "heads": as_int(m2, row.heads(table_heads)), "optimum": best},
        )
    if bound is not None and best != bound:
        return Result.refuted(f"maximum is {best}, not {bound}", {"row": cards, "heads": best})
    return Result.proved(f"max {best} heads, e.g. {cards}", {"row": cards, "heads": best})


# -- one turn ------------------------------------------------------------------------------------


def check_too_low_lowest(
    rule: PlacementRule = standard_rule, rows: int = ROWS, capacity: int = CAPACITY
) -> Result:
    """Standard turn: the revealed cards are placed lowest first, so only the lowest can be too
    low. Proved for any number of players by induction over the placements of the turn: after any
    allowed placement of a card ``c`` (on any table satisfying the invariant), no higher card
    ``q`` that is not on the new table is too low."""
    s = new_solver()
    table, card, facts = _table_and_card(rows, capacity, capacity)
    step = sym_step(table, card, rule, capacity=capacity)
    later = z3.Int("later")
    s.add(*facts, step.allowed, later > card, z3.Not(on_table(step.after, later)))
    s.add(rule(step.after, later).choose)
    if is_sat(s, "too-low after a lower card"):
        m = s.model()
        return Result.refuted(
            f"card {as_int(m, later)} is too low after {as_int(m, card)} was placed",
            {
                **_case(m, table, card),
                "after": [list(r) for r in read_table(m, step.after)],
                "later": as_int(m, later),
            },
        )
    return Result.proved("after any placement of c, no card above c is too low (any n)")
