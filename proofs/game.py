"""Whole-game facts: every round of the standard game fills bull piles, so a game to 66 ends."""

from __future__ import annotations

from collections.abc import Sequence

import z3

from proofs.core import Result, as_int, is_sat, new_optimizer, new_solver
from proofs.model import CAPACITY, ROWS, heads_term
from take6.cards import HEADS, MAX_CARD
from take6.rules import MAX_PLAYERS, MIN_PLAYERS

HAND = 10
TARGET = 66


def min_taken(players: int, hand: int = HAND, rows: int = ROWS, capacity: int = CAPACITY) -> int:
    """Cards that must reach bull piles in a round: dealt to the table minus what rows can hold."""
    return rows + hand * players - rows * capacity


def check_termination(
    hand: int = HAND,
    rows: int = ROWS,
    capacity: int = CAPACITY,
    target: int = TARGET,
    table: Sequence[int] = HEADS,
) -> Result:
    """With n >= 2 players a round puts at least 10n − 16 >= 4 cards (each worth >= 1 head) into
    bull piles, since the table holds at most 4 × 5 cards (the step invariant) while 4 + 10n cards
    are played onto it. So some total reaches 66 within a bounded number of rounds: z3's Optimize
    finds the most rounds all totals can stay below 66, and a solver proves one more is impossible.
    """
    s = new_solver()
    n, on_table, taken = z3.Ints("n on_table taken")
    s.add(n >= MIN_PLAYERS, n <= MAX_PLAYERS, on_table >= 0, on_table <= rows * capacity)
    s.add(taken == rows + hand * n - on_table)  # cards are conserved (step invariant)
    s.add(z3.Not(z3.And(taken >= hand * n + rows - rows * capacity, taken >= 1)))
    if is_sat(s, "cards taken per round"):
        m = s.model()
        return Result.refuted(
            f"{as_int(m, n)} players: a round may take only {as_int(m, taken)} cards",
            {"players": as_int(m, n), "taken": as_int(m, taken)},
        )
    # The cheapest card (Optimize over the heads table): a card taken adds at least this much.
    card = z3.Int("card")
    cheapest = new_optimizer()
    cheapest.add(card >= 1, card <= MAX_CARD)
    cheapest.minimize(heads_term(card, table))
    if not is_sat(cheapest, "cheapest card"):
        return Result.refuted("no card", {})
    least = as_int(cheapest.model(), heads_term(card, table))
    if least < 1:
        return Result.refuted(
            f"card {as_int(cheapest.model(), card)} has {least} heads: rounds may score nothing",
            {"card": as_int(cheapest.model(), card), "heads": least},
        )
    bounds: dict[str, int] = {}
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        per_round = min_taken(players, hand, rows, capacity) * least
        totals = [z3.Int(f"total{p}") for p in range(players)]
        rounds, pool = z3.Ints("rounds pool")
        # Optimize over the sum of the totals (each below the target ⇔ sum ≤ n·(target − 1))
        opt = new_optimizer()
        opt.add(rounds >= 0, pool >= rounds * per_round, pool <= players * (target - 1))
        opt.maximize(rounds)
        if not is_sat(opt, f"rounds for {players} players"):
            return Result.refuted("no round can be played", {"players": players})
        longest = as_int(opt.model(), rounds)
        # ... and confirm with the totals one by one: one more round forces a total >= target.
        check = new_solver()
        check.add(*[t >= 0 for t in totals], *[t < target for t in totals])
        check.add(z3.Sum(totals) >= (longest + 1) * per_round)
        if is_sat(check, f"round bound for {players} players"):
            return Result.refuted("optimum not confirmed", {"players": players})
        bounds[str(players)] = longest + 1
    return Result.proved(
        f"≥ 10n − 16 cards taken per round; game over within {bounds['2']} rounds (2 players) "
        f"… {bounds[str(MAX_PLAYERS)]} ({MAX_PLAYERS})",
        {
            "min_cards_taken_per_round": {str(k): min_taken(k) for k in range(2, 11)},
            "max_rounds": bounds,
        },
    )
