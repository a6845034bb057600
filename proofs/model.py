"""z3 restatements of the rules: bull heads, tables of rows, the placement rule and one step.

Each restatement is built so that a test can evaluate it on concrete inputs and compare it with the
engine (:mod:`take6.cards`, :mod:`take6.placement`). Where a term restates the *engine's* rule it
is built from the engine's data (``HEADS``, ``Rules.row_capacity``), so there is one truth per
fact; a source's wording is formalised separately in :mod:`proofs.sources`.

Rules are parameters (:data:`PlacementRule`), so a test can hand an obligation a broken rule and
watch it fail with a counterexample.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import z3

from take6.cards import HEADS, MAX_CARD

Term: TypeAlias = Any
"""An integer z3 term (``z3.ArithRef``; z3 ships no type information, so mypy sees ``Any``)."""

CAPACITY = 5
"""Cards a row holds (``Rules.row_capacity`` in every published variant)."""
ROWS = 4
"""Rows on the table in the standard game."""


def heads_term(card: Term, table: Sequence[int] = HEADS) -> Term:
    """The bull heads of ``card`` read from ``table`` (``table[c]`` heads on card ``c``).

    Cards are grouped by value, so the term is one ``If`` per distinct value. Outside
    1..len(table)-1 the term is 0.
    """
    by_value: dict[int, list[int]] = {}
    for c in range(1, len(table)):
        by_value.setdefault(table[c], []).append(c)
    term: Term = z3.IntVal(0)
    for value, cards in sorted(by_value.items()):
        term = z3.If(z3.Or([card == c for c in cards]), z3.IntVal(value), term)
    return term


def deck_cards(size: int = MAX_CARD) -> list[Term]:
    """The cards 1..size as z3 constants."""
    return [z3.IntVal(c) for c in range(1, size + 1)]


# -- tables -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SymRow:
    """A row of ``length`` cards in the slots ``cards[0..length-1]`` (later slots are ignored)."""

    cards: tuple[Term, ...]
    length: Term

    @property
    def first(self) -> Term:
        return self.cards[0]

    @property
    def last(self) -> Term:
        term = self.cards[0]
        for j in range(1, len(self.cards)):
            term = z3.If(self.length == j + 1, self.cards[j], term)
        return term

    def holds(self, x: Term) -> z3.BoolRef:
        """``x`` is one of the row's cards."""
        return z3.Or([z3.And(self.length > j, self.cards[j] == x) for j in range(len(self.cards))])

    def heads(self, table: Sequence[int] = HEADS) -> Term:
        """Heads of the row's cards."""
        return z3.Sum(
            [z3.If(self.length > j, heads_term(c, table), 0) for j, c in enumerate(self.cards)]
        )

    def valid(self, capacity: int = CAPACITY) -> z3.BoolRef:
        """1..capacity cards, strictly ascending."""
        ascending = [
            z3.Implies(self.length > j + 1, self.cards[j] < self.cards[j + 1])
            for j in range(len(self.cards) - 1)
        ]
        return z3.And(self.length >= 1, self.length <= capacity, *ascending)


Table = tuple[SymRow, ...]


def sym_row(name: str, slots: int = CAPACITY) -> SymRow:
    """A row of fresh variables ``name_0 .. name_{slots-1}`` and ``name_len``."""
    return SymRow(tuple(z3.Int(f"{name}_{j}") for j in range(slots)), z3.Int(f"{name}_len"))


def sym_table(name: str, rows: int = ROWS, slots: int = CAPACITY) -> Table:
    """A table of fresh rows ``name0 .. name{rows-1}``."""
    return tuple(sym_row(f"{name}{i}", slots) for i in range(rows))


def on_table(table: Table, x: Term) -> z3.BoolRef:
    return z3.Or([row.holds(x) for row in table])


def slots_in_use(table: Table) -> list[tuple[z3.BoolRef, Term]]:
    """(slot is in use, card in the slot) for every slot of every row."""
    return [(row.length > j, c) for row in table for j, c in enumerate(row.cards)]


def table_ok(table: Table, capacity: int = CAPACITY, low: int | None = 1) -> z3.BoolRef:
    """The table invariant: every row valid, every card used distinct (and >= ``low``)."""
    used = slots_in_use(table)
    clauses = [row.valid(capacity) for row in table]
    for a in range(len(used)):
        in_a, ca = used[a]
        if low is not None:
            clauses.append(z3.Implies(in_a, ca >= low))
        for b in range(a + 1, len(used)):
            in_b, cb = used[b]
            clauses.append(z3.Implies(z3.And(in_a, in_b), ca != cb))
    return z3.And(clauses)


def table_size(table: Table) -> Term:
    return z3.Sum([row.length for row in table])


def bind_table(table: Table, rows: Sequence[Sequence[int]]) -> list[z3.BoolRef]:
    """Equalities fixing ``table`` to the concrete ``rows`` (for replay against the engine)."""
    out: list[z3.BoolRef] = []
    for row, cards in zip(table, rows, strict=True):
        out.append(row.length == len(cards))
        out.extend(row.cards[j] == c for j, c in enumerate(cards))
    return out


def read_table(model: z3.ModelRef, table: Table) -> tuple[tuple[int, ...], ...]:
    """The concrete rows of ``table`` in ``model``."""
    out = []
    for row in table:
        n = min(model.eval(row.length, model_completion=True).as_long(), len(row.cards))
        out.append(
            tuple(model.eval(row.cards[j], model_completion=True).as_long() for j in range(n))
        )
    return tuple(out)


# -- the placement rule -------------------------------------------------------------------------


@dataclass(frozen=True)
class SymPlacement:
    """Where the placement rule sends a card, per row.

    ``right[i]``/``left[i]``: the card may go to the end/start of row ``i``. ``choose``: no row is
    forced (too low, or in Profi fits nowhere) and the owner picks any row to take. Several true
    options at once mean the rule is ambiguous (the owner chooses among them).
    """

    right: tuple[z3.BoolRef, ...]
    left: tuple[z3.BoolRef, ...]
    choose: z3.BoolRef

    def options(self) -> list[z3.BoolRef]:
        return [*self.right, *self.left]

    def count(self) -> Term:
        return z3.Sum([z3.If(o, 1, 0) for o in self.options()])


PlacementRule = Callable[[Table, Term], SymPlacement]
"""A restatement of the placement rule: table and card to a :class:`SymPlacement`."""


def _closest_below(table: Table, card: Term) -> list[z3.BoolRef]:
    """Row i ends below the card, and no row ends between its last card and the card."""
    return [
        z3.And(
            row.last < card,
            *[z3.Implies(o.last < card, o.last <= row.last) for o in table if o is not row],
        )
        for row in table
    ]


def _closest_above(table: Table, card: Term) -> list[z3.BoolRef]:
    """Row i starts above the card, and no row starts between the card and its first card."""
    return [
        z3.And(
            row.first > card,
            *[z3.Implies(o.first > card, o.first >= row.first) for o in table if o is not row],
        )
        for row in table
    ]


def standard_rule(table: Table, card: Term) -> SymPlacement:
    """Ascending rule + smallest difference; too low when every row ends above the card."""
    right = _closest_below(table, card)
    no = tuple(z3.BoolVal(False) for _ in table)
    return SymPlacement(tuple(right), no, z3.And([row.last > card for row in table]))


def profi_rule(table: Table, card: Term) -> SymPlacement:
    """Profi (seed 000): the closest end below or start above wins; equal distances both stay
    options (the engine's default ``ProfiTie.OWNER_CHOOSES``); fits nowhere: the owner chooses."""
    below = _closest_below(table, card)
    above = _closest_above(table, card)
    right = tuple(
        z3.And(
            below[i],
            *[
                z3.Implies(above[j], card - table[i].last <= table[j].first - card)
                for j in range(len(table))
            ],
        )
        for i in range(len(table))
    )
    left = tuple(
        z3.And(
            above[j],
            *[
                z3.Implies(below[i], table[j].first - card <= card - table[i].last)
                for i in range(len(table))
            ],
        )
        for j in range(len(table))
    )
    fits = z3.Or(
        [row.last < card for row in table] + [row.first > card for row in table],
    )
    return SymPlacement(right, left, z3.Not(fits))


# -- one placement step -------------------------------------------------------------------------

RIGHT, LEFT, TAKE = 0, 1, 2
"""Codes of the side variable (``take6.placement.Side.RIGHT``/``LEFT``/``TAKE``)."""


@dataclass(frozen=True)
class SymStep:
    """One card placed: the move (``row``, ``side``), the new table and the cards taken."""

    row: z3.ArithRef
    side: z3.ArithRef
    allowed: z3.BoolRef
    after: Table
    taken: SymRow


def sym_step(
    table: Table, card: Term, rule: PlacementRule, name: str = "m", capacity: int = CAPACITY
) -> SymStep:
    """Place ``card`` by a move ``rule`` allows (any such move: the owner's choices are free).

    As :func:`take6.placement.apply_move`: a row already holding ``capacity`` cards is taken and
    the card starts it; a TAKE move takes the row whatever its length.
    """
    rule_says = rule(table, card)
    row_var, side_var = z3.Int(f"{name}_row"), z3.Int(f"{name}_side")
    options = []
    for i in range(len(table)):
        options.append(z3.And(row_var == i, side_var == RIGHT, rule_says.right[i]))
        options.append(z3.And(row_var == i, side_var == LEFT, rule_says.left[i]))
        options.append(z3.And(row_var == i, side_var == TAKE, rule_says.choose))
    allowed = z3.Or(options)

    slots = len(table[0].cards)
    after = []
    taken_cards: list[Term] = [z3.IntVal(0)] * slots
    taken_len: Term = z3.IntVal(0)
    for i, row in enumerate(table):
        here = row_var == i
        takes = z3.Or(side_var == TAKE, row.length >= capacity)
        right = z3.And(z3.Not(takes), side_var == RIGHT)
        cards = []
        for j in range(slots):
            appended = z3.If(row.length == j, card, row.cards[j])
            shifted = card if j == 0 else row.cards[j - 1]
            restart = card if j == 0 else row.cards[j]
            cards.append(
                z3.If(
                    here,
                    z3.If(takes, restart, z3.If(right, appended, shifted)),
                    row.cards[j],
                )
            )
        length = z3.If(here, z3.If(takes, 1, row.length + 1), row.length)
        after.append(SymRow(tuple(cards), length))
        taken_cards = [
            z3.If(z3.And(here, takes), row.cards[j], taken_cards[j]) for j in range(slots)
        ]
        taken_len = z3.If(z3.And(here, takes), row.length, taken_len)
    return SymStep(row_var, side_var, allowed, tuple(after), SymRow(tuple(taken_cards), taken_len))


# -- concrete evaluation (to replay the model against the engine) -------------------------------


@dataclass(frozen=True)
class ConcretePlacement:
    """A :class:`SymPlacement` evaluated on a concrete table and card."""

    right: tuple[int, ...]
    left: tuple[int, ...]
    choose: bool


def _solve_concrete(facts: Sequence[z3.BoolRef]) -> z3.ModelRef:
    solver = z3.Solver()
    solver.add(*facts)
    if solver.check() != z3.sat:
        raise ValueError("the model has no value for these concrete inputs")
    return solver.model()


def evaluate_rule(
    rule: PlacementRule, rows: Sequence[Sequence[int]], card: int
) -> ConcretePlacement:
    """What ``rule`` says about ``card`` on the concrete table ``rows``."""
    table = sym_table("e", len(rows), max(CAPACITY, *(len(r) for r in rows)))
    c = z3.Int("e_card")
    says = rule(table, c)
    m = _solve_concrete([*bind_table(table, rows), c == card])
    return ConcretePlacement(
        tuple(i for i, o in enumerate(says.right) if z3.is_true(m.eval(o, model_completion=True))),
        tuple(i for i, o in enumerate(says.left) if z3.is_true(m.eval(o, model_completion=True))),
        bool(z3.is_true(m.eval(says.choose, model_completion=True))),
    )


def evaluate_step(
    rule: PlacementRule,
    rows: Sequence[Sequence[int]],
    card: int,
    row: int,
    side: int,
    capacity: int = CAPACITY,
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The model's table after placing ``card`` by the move (``row``, ``side``), and the cards
    taken; raises ``ValueError`` when the rule does not allow that move."""
    table = sym_table("e", len(rows), max(CAPACITY, *(len(r) for r in rows)))
    c = z3.Int("e_card")
    step = sym_step(table, c, rule, "e", capacity)
    facts = [*bind_table(table, rows), c == card, step.row == row, step.side == side, step.allowed]
    m = _solve_concrete(facts)
    return read_table(m, step.after), read_table(m, (step.taken,))[0]
