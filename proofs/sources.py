"""Each source's words, formalised as written, and checked against the deck and each other.

A *finding* is a z3 witness that a source is contradictory (its words admit no consistent reading,
or disagree with the printed deck or with another source) or silent (its words admit two readings
that play differently). Each finding names the seed file it concerns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import z3

from proofs.core import Result, as_int, is_sat, new_optimizer, new_solver
from proofs.model import (
    Table,
    Term,
    heads_term,
    read_table,
    standard_rule,
    sym_step,
    sym_table,
    table_ok,
)
from take6.cards import HEADS, MAX_CARD, TOTAL_HEADS

HeadsWording = Callable[[Term], Term]
"""A source's bull-head rule as a z3 term of the card."""


def _all_models(solver: z3.Solver, x: Term, what: str, limit: int = MAX_CARD + 1) -> list[int]:
    """Every value of ``x`` the solver's assertions allow (blocking each one found)."""
    found: list[int] = []
    solver.push()
    while len(found) < limit and is_sat(solver, what):
        value = as_int(solver.model(), x)
        found.append(value)
        solver.add(x != value)
    solver.pop()
    return sorted(found)


# -- bull heads ---------------------------------------------------------------------------------


def seed_000_classes(c: Term) -> dict[int, z3.BoolRef]:
    """Seed 000's list, class by class, with its own exceptions ("excepto el 55")."""
    return {
        7: c == 55,
        5: z3.And(c % 11 == 0, c != 55),
        3: c % 10 == 0,
        2: z3.And(c % 5 == 0, c % 10 != 0, c != 55),
    }


SEED_000_COUNTS = {7: 1, 5: 8, 3: 10, 2: 9, 1: 76}
"""The counts seed 000 states next to its list ("Hay 1 carta con 7 ...")."""


def seed_000_heads(c: Term) -> Term:
    """Seed 000's list as a function (its classes are disjoint, so the order does not matter)."""
    term: Term = z3.IntVal(1)
    for value, member in sorted(seed_000_classes(c).items()):
        term = z3.If(member, value, term)
    return term


def contains_digit_5(c: Term) -> z3.BoolRef:
    """The decimal numeral of ``c`` (0 <= c < 1000) has a 5 in it."""
    return z3.Or(c % 10 == 5, (c / 10) % 10 == 5, c / 100 == 5)


def seed_001_classes(c: Term) -> dict[int, z3.BoolRef]:
    """Seed 001's words: "las cartas que contienen la cifra 5 (5, 15, 25…) tienen 2; los múltiplos
    de diez … 3; los dobletes (11, 22, 33…) 5; y el 55, que es doblete y contiene un 5, tiene 7"."""
    return {
        7: c == 55,
        5: z3.And(c % 11 == 0, c < 100),
        3: c % 10 == 0,
        2: contains_digit_5(c),
    }


def seed_001_literal_heads(c: Term) -> Term:
    """Seed 001 read literally; where its classes overlap the more valuable one wins (55 → 7 as it
    says; 50, a multiple of ten containing a 5, → 3)."""
    term: Term = z3.IntVal(1)
    for value, member in sorted(seed_001_classes(c).items()):
        term = z3.If(member, value, term)
    return term


def seed_001_intended_heads(c: Term) -> Term:
    """Seed 001 with "contain the digit 5" read as its examples suggest: "end in 5"."""
    classes = seed_001_classes(c)
    classes[2] = c % 10 == 5
    term: Term = z3.IntVal(1)
    for value, member in sorted(classes.items()):
        term = z3.If(member, value, term)
    return term


def check_wording_agrees(
    wording: HeadsWording, table: Sequence[int] = HEADS, expected_total: int = TOTAL_HEADS
) -> Result:
    """Proved when ``wording`` gives every card the heads of ``table``; otherwise a finding with
    every card that changes and the deck total the wording implies."""
    s = new_solver()
    c = z3.Int("c")
    s.add(c >= 1, c <= MAX_CARD, wording(c) != heads_term(c, table))
    changed = _all_models(s, c, "wording vs deck")
    total = z3.simplify(z3.Sum([wording(z3.IntVal(k)) for k in range(1, MAX_CARD + 1)]))
    implied = int(total.as_long())
    if not changed:
        return Result.proved(f"agrees with the deck on all 104 cards (total {implied})")
    values = {str(k): int(z3.simplify(wording(z3.IntVal(k))).as_long()) for k in changed}
    return Result.finding(
        f"{len(changed)} cards change: {_ranges(changed)}; total {implied} instead of "
        f"{expected_total}",
        {
            "cards": changed,
            "wording_heads": values,
            "deck_heads": {str(k): table[k] for k in changed},
            "total": implied,
            "deck_total": expected_total,
        },
    )


def _ranges(cards: Sequence[int]) -> str:
    parts: list[str] = []
    start = prev = cards[0]
    for c in [*cards[1:], None]:
        if c is not None and c == prev + 1:
            prev = c
            continue
        parts.append(str(start) if start == prev else f"{start}–{prev}")
        if c is not None:
            start = prev = c
    return ", ".join(parts)


def overlaps(
    classes: Callable[[Term], dict[int, z3.BoolRef]], explicit: Sequence[int]
) -> list[int]:
    """Cards that fall into two classes of a wording with different values (other than the cards
    the wording settles explicitly)."""
    s = new_solver()
    c = z3.Int("c")
    cls = classes(c)
    pairs = [z3.And(cls[a], cls[b]) for a in sorted(cls) for b in sorted(cls) if a < b]
    s.add(c >= 1, c <= MAX_CARD, z3.Or(pairs), *[c != k for k in explicit])
    return _all_models(s, c, "overlapping classes")


def check_seed_000_heads(table: Sequence[int] = HEADS) -> Result:
    """Seed 000's list: classes disjoint, the counts it states right, and the deck's heads."""
    s = new_solver()
    c = z3.Int("c")
    if overlaps(seed_000_classes, ()):
        return Result.refuted("classes overlap", {"cards": overlaps(seed_000_classes, ())})
    for value, count in SEED_000_COUNTS.items():
        member = [seed_000_heads(z3.IntVal(k)) == value for k in range(1, MAX_CARD + 1)]
        n = z3.Sum([z3.If(m, 1, 0) for m in member])
        s.push()
        s.add(n != count)
        if is_sat(s, f"seed 000 count of {value}"):
            got = as_int(s.model(), n)
            return Result.refuted(
                f"{got} cards with {value} heads, seed 000 says {count}",
                {"heads": value, "cards": got, "stated": count},
            )
        s.pop()
    s.add(c >= 1, c <= MAX_CARD, seed_000_heads(c) != heads_term(c, table))
    if is_sat(s, "seed 000 vs deck"):
        card = as_int(s.model(), c)
        return Result.refuted(
            f"card {card}: seed 000 says {as_int(s.model(), seed_000_heads(c))}",
            {"card": card, "deck_heads": table[card]},
        )
    return Result.proved("classes disjoint, stated counts 1/8/10/9/76 right, agrees with deck")


def check_seed_001_literal(table: Sequence[int] = HEADS) -> Result:
    """Seed 001's "contain the digit 5" read literally, against the deck."""
    result = check_wording_agrees(seed_001_literal_heads, table)
    if result.witness is not None:
        both = overlaps(seed_001_classes, (55,))
        result.witness["two_classes"] = both
        result.witness["words"] = "las cartas que contienen la cifra 5 (5, 15, 25…) tienen 2"
    return result


def check_seed_001_intended(table: Sequence[int] = HEADS) -> Result:
    """Seed 001 with "contain the digit 5" read as "end in 5": agrees with the deck."""
    return check_wording_agrees(seed_001_intended_heads, table)


def check_seed_002_heads(table: Sequence[int] = HEADS) -> Result:
    """Seed 002 only says every card shows some bull heads and each counts one point: it does not
    state the table. Finding: its words fit the deck's table and a different one equally well."""
    s = new_solver()
    h = [z3.Int(f"h{c}") for c in range(MAX_CARD + 1)]
    words = [h[c] >= 1 for c in range(1, MAX_CARD + 1)]  # "presenta un número de cabezas"
    s.add(*words)
    s.add([h[c] == table[c] for c in range(1, MAX_CARD + 1)])
    deck_fits = is_sat(s, "seed 002 admits the deck")
    # Another table its words admit: z3's cheapest one (Optimize), required to differ.
    opt = new_optimizer()
    opt.add(*words, z3.Or([h[c] != table[c] for c in range(1, MAX_CARD + 1)]))
    opt.minimize(z3.Sum(h[1:]))
    if not is_sat(opt, "seed 002 admits another table"):
        return Result.proved("seed 002 determines the table")
    m = opt.model()
    other = [as_int(m, h[c]) for c in range(1, MAX_CARD + 1)]
    diff = [c for c in range(1, MAX_CARD + 1) if other[c - 1] != table[c]]
    return Result.finding(
        f"silent: states no table; the deck's and one with total {sum(other)} both fit its words",
        {
            "deck_table_fits": deck_fits,
            "other_table_total": sum(other),
            "other_table_values": sorted(set(other)),
            "other_table_differs_at": diff,
            "words": "Cada carta del juego presenta un número de cabezas de toro",
        },
    )


# -- Logik --------------------------------------------------------------------------------------

RANDOM, YOUNGEST = 0, 1
PICKER_NAMES = {RANDOM: "a player chosen at random", YOUNGEST: "the youngest player"}


def check_logik_players() -> Result:
    """Logik player range: seed 000 (box "Jugadores 2–10"; Taktik/Logik remove cards "si hay menos
    de 10 jugadores") against seed 002 ("pueden jugar de dos a seis jugadores")."""
    s = new_solver()
    n = z3.Int("n")
    seed_000 = z3.And(n >= 2, n <= 10, 10 * n + 4 <= MAX_CARD)
    seed_002 = z3.And(n >= 2, n <= 6)
    s.push()
    s.add(seed_000)
    allowed_000 = _all_models(s, n, "seed 000 Logik players")
    s.pop()
    s.push()
    s.add(seed_002)
    allowed_002 = _all_models(s, n, "seed 002 Logik players")
    s.pop()
    s.add(z3.Xor(seed_000, seed_002))
    disputed = _all_models(s, n, "Logik players disputed")
    if not disputed:
        return Result.proved("the seeds agree on the player range")
    return Result.finding(
        f"seed 000 allows {allowed_000[0]}–{allowed_000[-1]}, seed 002 "
        f"{allowed_002[0]}–{allowed_002[-1]}: disputed {disputed}",
        {"seed_000": allowed_000, "seed_002": allowed_002, "disputed": disputed},
    )


def check_logik_first_picker() -> Result:
    """Logik's first picker: seed 000 "un jugador es elegido al azar", seed 002 "empezando por el
    jugador más joven". z3 finds no setting that satisfies both (the unsat core names them)."""
    s = new_solver()
    s.set("unsat_core", True)
    picker = z3.Int("first_picker")
    s.add(z3.Or(picker == RANDOM, picker == YOUNGEST))
    s.assert_and_track(picker == RANDOM, "seed 000: un jugador es elegido al azar")
    s.assert_and_track(picker == YOUNGEST, "seed 002: empezando por el jugador más joven")
    if is_sat(s, "Logik first picker"):
        return Result.proved("the seeds agree on the first picker")
    core = sorted(str(x) for x in s.unsat_core())
    return Result.finding(
        "no first picker satisfies both seeds (random vs youngest); later rounds unstated",
        {
            "seed_000": PICKER_NAMES[RANDOM],
            "seed_002": PICKER_NAMES[YOUNGEST],
            "unsat_core": core,
        },
    )


# -- Kids ---------------------------------------------------------------------------------------

KIDS_HAND, KIDS_ROWS = 15, 5


def check_kids_player_limit() -> Result:
    """Seed 000 sells the game for 2–10 players and deals Kids 15 cards each plus 5 rows from 104
    cards without stating a limit: for some player counts its words cannot be followed."""
    s = new_solver()
    n = z3.Int("n")
    s.add(n >= 2, n <= 10, KIDS_HAND * n + KIDS_ROWS > MAX_CARD)
    bad = _all_models(s, n, "Kids player counts")
    if not bad:
        return Result.proved("every player count 2–10 can be dealt")
    return Result.finding(
        f"no player limit stated; {bad[0]}–{bad[-1]} players need "
        f"{KIDS_HAND * bad[0] + KIDS_ROWS}+ cards of 104",
        {"players": bad, "cards_needed": {str(k): KIDS_HAND * k + KIDS_ROWS for k in bad}},
    )


def _kids_start(name: str) -> tuple[Table, list[z3.BoolRef]]:
    """The Kids table at the start: 5 rows of one card each, cards 1..104."""
    table = sym_table(name, rows=KIDS_ROWS)
    facts = [table_ok(table), *[row.length == 1 for row in table]]
    facts += [row.cards[0] <= MAX_CARD for row in table]
    return table, facts


def check_kids_row_choice(table_heads: Sequence[int] = HEADS) -> Result:
    """Seed 000 calls Kids "un juego de pura suerte" yet places cards "siguiendo las reglas
    normales", where the owner of a too-low card chooses which row to take. z3 finds a start table
    and card where the choice changes the heads taken, so the text does not say who chooses."""
    s = new_solver()
    table, facts = _kids_start("k")
    card = z3.Int("card")
    s.add(*facts, card >= 1, card <= MAX_CARD, z3.And([row.cards[0] != card for row in table]))
    s.add(standard_rule(table, card).choose)
    heads = [row.heads(table_heads) for row in table]
    s.add(z3.Or([heads[i] != heads[j] for i in range(len(heads)) for j in range(i)]))
    if not is_sat(s, "Kids row choice"):
        return Result.proved("a too-low card's row choice never matters")
    m = s.model()
    rows = read_table(m, table)
    return Result.finding(
        f"card {as_int(m, card)} is too low on {[list(r) for r in rows]}: which row it takes "
        "is a choice",
        {
            "rows": [list(r) for r in rows],
            "card": as_int(m, card),
            "heads_by_row": [as_int(m, h) for h in heads],
        },
    )


def check_kids_turn_order() -> Result:
    """Seed 000: "cada jugador, en su turno, muestra la carta … y la coloca siguiendo las reglas
    normales" — in seat order, or revealed together and placed lowest first as normally? z3 finds a
    start table and two players' cards where the two readings differ (a too-low card in one)."""
    s = new_solver()
    table, facts = _kids_start("k")
    a, b = z3.Int("seat1"), z3.Int("seat2")
    s.add(*facts, a >= 1, b >= 1, a <= MAX_CARD, b <= MAX_CARD, a != b)
    s.add([z3.And(row.cards[0] != a, row.cards[0] != b) for row in table])
    low, high = z3.If(a < b, a, b), z3.If(a < b, b, a)
    # seat order: a then b
    first = sym_step(table, a, standard_rule, "seat_a")
    s.add(first.allowed)
    seat_order_choice = z3.Or(standard_rule(table, a).choose, standard_rule(first.after, b).choose)
    # lowest first
    low_step = sym_step(table, low, standard_rule, "low")
    s.add(low_step.allowed)
    lowest_first_choice = z3.Or(
        standard_rule(table, low).choose, standard_rule(low_step.after, high).choose
    )
    s.add(seat_order_choice != lowest_first_choice)
    if not is_sat(s, "Kids turn order"):
        return Result.proved("seat order and lowest-first always agree")
    m = s.model()
    return Result.finding(
        "seat order and lowest-first placement differ: one makes a card too low",
        {
            "rows": [list(r) for r in read_table(m, table)],
            "seat_1_card": as_int(m, a),
            "seat_2_card": as_int(m, b),
            "too_low_in_seat_order": bool(z3.is_true(m.eval(seat_order_choice))),
            "too_low_lowest_first": bool(z3.is_true(m.eval(lowest_first_choice))),
        },
    )
