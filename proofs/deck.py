"""Deck facts: the cards, the bull-head total and distribution, Taktik decks, the Kids limit.

Each obligation takes the heads table as a parameter (default: the engine's
:data:`take6.cards.HEADS`), so a wrong table makes it fail with a counterexample.
"""

from __future__ import annotations

from collections.abc import Sequence

import z3

from proofs.core import Result, as_int, is_sat, new_optimizer, new_solver
from proofs.model import heads_term
from take6.cards import HEADS, MAX_CARD, TOTAL_HEADS, deck
from take6.rules import Rules

DISTRIBUTION = {1: 76, 2: 9, 3: 10, 5: 8, 7: 1}
"""Cards per number of heads (seed 000's list; the rules brief)."""


def taktik_heads_formula(size: int) -> int:
    """Heads in the deck 1..size by counting divisors, independent of any table:
    1 per card, +1 per multiple of 5, +1 per multiple of 10, +4 per multiple of 11, +1 for 55."""
    return size + size // 5 + size // 10 + 4 * (size // 11) + (1 if size >= 55 else 0)


def check_cards(cards: Sequence[int] | None = None) -> Result:
    """The deck is 104 distinct cards and holds every card 1..104."""
    cards = tuple(deck()) if cards is None else tuple(cards)
    s = new_solver()
    vals = [z3.IntVal(c) for c in cards]
    x = z3.Int("x")
    s.push()
    s.add(z3.Not(z3.And(len(cards) == MAX_CARD, z3.Distinct(*vals) if len(vals) > 1 else True)))
    if is_sat(s, "deck size and distinctness"):
        dup = sorted({c for c in cards if cards.count(c) > 1})
        return Result.refuted(
            f"deck has {len(cards)} cards, duplicates {dup}", {"size": len(cards), "dup": dup}
        )
    s.pop()
    s.push()
    s.add(
        z3.Or(
            z3.And(x >= 1, x <= MAX_CARD, *[x != v for v in vals]),
            z3.Or([v < 1 for v in vals] + [v > MAX_CARD for v in vals]),
        )
    )
    if is_sat(s, "deck covers 1..104"):
        m = s.model()
        return Result.refuted("deck is not exactly 1..104", {"card": as_int(m, x)})
    s.pop()
    return Result.proved("104 distinct cards, exactly 1..104")


def check_total(table: Sequence[int] = HEADS, expected: int = TOTAL_HEADS) -> Result:
    """The heads of the 104 cards add up to 171."""
    s = new_solver()
    total = z3.Int("total")
    s.add(total == z3.Sum([heads_term(z3.IntVal(c), table) for c in range(1, MAX_CARD + 1)]))
    s.push()
    s.add(total != expected)
    if is_sat(s, "total heads"):
        value = as_int(s.model(), total)
        return Result.refuted(f"total is {value}, not {expected}", {"total": value})
    s.pop()
    return Result.proved(f"total = {expected}", {"total": expected})


def check_distribution(table: Sequence[int] = HEADS) -> Result:
    """76 cards with 1 head, 9 with 2, 10 with 3, 8 with 5, 1 with 7, and no other value."""
    s = new_solver()
    c = z3.Int("c")
    h = [z3.simplify(heads_term(z3.IntVal(k), table)) for k in range(1, MAX_CARD + 1)]
    for value, count in sorted(DISTRIBUTION.items()):
        n = z3.Sum([z3.If(t == value, 1, 0) for t in h])
        s.push()
        s.add(n != count)
        if is_sat(s, f"count of {value}-head cards"):
            got = as_int(s.model(), n)
            return Result.refuted(
                f"{got} cards with {value} heads, not {count}",
                {"heads": value, "cards": got, "expected": count},
            )
        s.pop()
    s.push()
    s.add(c >= 1, c <= MAX_CARD, *[heads_term(c, table) != v for v in DISTRIBUTION])
    if is_sat(s, "heads values"):
        card = as_int(s.model(), c)
        return Result.refuted(f"card {card} has {table[card]} heads", {"card": card})
    s.pop()
    return Result.proved(
        "76 × 1, 9 × 2, 10 × 3, 8 × 5, 1 × 7",
        {"distribution": {str(k): v for k, v in DISTRIBUTION.items()}},
    )


def check_taktik(table: Sequence[int] = HEADS) -> Result:
    """For n = 2..10 the engine's Taktik deck is 1..10n+4 (seed 002's "multiply by ten, add
    four"; seed 000's examples 5 → 54 and 7 → 74) and its heads equal the divisor count."""
    s = new_solver()
    totals: dict[str, object] = {}
    per_card = [z3.simplify(heads_term(z3.IntVal(c), table)) for c in range(1, MAX_CARD + 1)]
    seed_000_examples = {5: 54, 7: 74}
    for n in range(2, 11):
        size = Rules.for_variant("taktik", players=n).deck_size
        total = z3.Sum(per_card[:size])
        s.push()
        wrong_size = z3.Or(size != 10 * n + 4, size != seed_000_examples.get(n, size))
        s.add(z3.Or(wrong_size, total != taktik_heads_formula(10 * n + 4)))
        if is_sat(s, f"taktik deck for {n} players"):
            got = as_int(s.model(), total)
            return Result.refuted(
                f"{n} players: deck 1..{size} holds {got} heads",
                {"players": n, "deck_size": size, "heads": got},
            )
        s.pop()
        totals[str(n)] = taktik_heads_formula(size)
    return Result.proved(
        "deck 1..10n+4; heads " + ", ".join(f"{n}:{t}" for n, t in totals.items()),
        {"heads_by_players": totals},
    )


def check_kids_players(hand: int = 15, rows: int = 5, cards: int = MAX_CARD) -> Result:
    """Kids deals 15 cards per player and 5 row cards from 104: at most 6 players (Optimize)."""
    opt = new_optimizer()
    n = z3.Int("n")
    opt.add(n >= 2, hand * n + rows <= cards)
    best = opt.maximize(n)
    if not is_sat(opt, "kids player count"):
        return Result.refuted("no player count fits", {"players": None})
    most = as_int(opt.model(), n)
    del best
    s = new_solver()
    s.add(n > most, hand * n + rows <= cards)
    if is_sat(s, "kids bound"):
        return Result.refuted("optimum not confirmed", {"players": as_int(s.model(), n)})
    return Result.proved(
        f"15·n + 5 ≤ 104 ⇔ n ≤ {most}", {"max_players": most, "cards_needed": hand * most + rows}
    )


def check_taktik_open_hands() -> Result:
    """In Taktik the deck 1..10n+4 is exactly the hands plus the 4 row cards: nothing is set
    aside, so with 2 players each player can deduce the other's hand after the deal."""
    s = new_solver()
    aside = z3.Int("aside")
    for n in range(2, 11):
        rules = Rules.for_variant("taktik", players=n)
        s.push()
        s.add(aside == rules.deck_size - n * rules.hand_size - rules.rows, aside != 0)
        if is_sat(s, f"taktik set-aside for {n} players"):
            got = as_int(s.model(), aside)
            return Result.refuted(
                f"{n} players: {got} cards set aside", {"players": n, "aside": got}
            )
        s.pop()
    two = Rules.for_variant("taktik", players=2)
    unseen = two.deck_size - two.hand_size - two.rows
    return Result.proved(
        f"no card set aside for n = 2..10; with 2 players the {unseen} unseen cards are the "
        "other hand",
        {"unseen_cards_2_players": unseen},
    )
