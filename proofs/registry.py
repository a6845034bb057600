"""The list of obligations ``take6 verify`` runs, with the result each is expected to give."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from proofs import deck, game, placement, sources
from proofs.core import SEED_000, SEED_001, SEED_002, Obligation, Outcome, Status, run
from proofs.model import profi_rule, standard_rule

P, F = Status.PROVED, Status.FINDING


def obligations() -> list[Obligation]:
    """Every obligation, in report order (built on each call; nothing runs here)."""
    return [
        Obligation("deck.cards", "104 distinct cards, exactly 1..104", P, deck.check_cards),
        Obligation("deck.total-heads", "the deck holds 171 bull heads", P, deck.check_total),
        Obligation(
            "deck.distribution",
            "76 cards with 1 head, 9 with 2, 10 with 3, 8 with 5, 1 with 7",
            P,
            deck.check_distribution,
        ),
        Obligation(
            "deck.taktik",
            "Taktik deck 1..10n+4 for n = 2..10 and its heads",
            P,
            deck.check_taktik,
            (SEED_000, SEED_002),
        ),
        Obligation(
            "deck.taktik-open-hands",
            "Taktik sets no card aside; with 2 players each hand is known to the other",
            P,
            deck.check_taktik_open_hands,
            (SEED_000,),
        ),
        Obligation(
            "deck.kids-players",
            "Kids needs 15·n + 5 ≤ 104 cards, so n ≤ 6 (Optimize)",
            P,
            deck.check_kids_players,
        ),
        Obligation(
            "source.000-heads",
            "seed 000's bull-head list, as written, agrees with the deck",
            P,
            sources.check_seed_000_heads,
            (SEED_000,),
        ),
        Obligation(
            "source.001-heads-literal",
            "seed 001's 'cards that contain the digit 5 carry 2', read literally",
            F,
            sources.check_seed_001_literal,
            (SEED_001,),
        ),
        Obligation(
            "source.001-heads-intended",
            "seed 001's rule read as 'end in 5' agrees with the deck",
            P,
            sources.check_seed_001_intended,
            (SEED_001,),
        ),
        Obligation(
            "source.002-heads",
            "what seed 002 says about bull heads, against the deck",
            F,
            sources.check_seed_002_heads,
            (SEED_002,),
        ),
        Obligation(
            "placement.standard-deterministic",
            "standard: exactly one row is chosen, or the card is too low (unbounded cards)",
            P,
            partial(placement.check_standard_deterministic, standard_rule),
        ),
        Obligation(
            "placement.profi-unique",
            "Profi: one option, except a left/right tie at equal distance or no fit",
            P,
            partial(placement.check_profi_unique, profi_rule),
        ),
        Obligation(
            "placement.profi-tie",
            "Profi: a card equally close to a row's end and another row's start",
            F,
            partial(placement.check_profi_tie, profi_rule),
            (SEED_000,),
        ),
        Obligation(
            "placement.profi-no-fit",
            "Profi: a card above every first card and below every last card",
            F,
            partial(placement.check_profi_no_fit, profi_rule),
            (SEED_000,),
        ),
        Obligation(
            "invariant.standard-step",
            "standard placement keeps rows 1..5 ascending & distinct, conserves cards",
            P,
            partial(placement.check_step_invariant, standard_rule),
        ),
        Obligation(
            "invariant.profi-step",
            "Profi placement keeps rows 1..5 ascending & distinct, conserves cards",
            P,
            partial(placement.check_step_invariant, profi_rule),
        ),
        Obligation(
            "turn.too-low-lowest",
            "in a standard turn at most one card is too low, and it is the lowest",
            P,
            partial(placement.check_too_low_lowest, standard_rule),
        ),
        Obligation(
            "turn.one-row",
            "a placement takes nothing or one whole row, so a player takes ≤ 1 row a turn",
            P,
            placement.check_one_row_taken,
        ),
        Obligation(
            "turn.max-take-heads",
            "one take is worth at most 27 heads (Optimize finds the maximum)",
            P,
            placement.check_max_take,
        ),
        Obligation(
            "game.termination",
            "every round with 2+ players fills bull piles; a game to 66 ends (round bound)",
            P,
            game.check_termination,
        ),
        Obligation(
            "source.logik-players",
            "Logik player range: seed 000 against seed 002",
            F,
            sources.check_logik_players,
            (SEED_000, SEED_002),
        ),
        Obligation(
            "source.logik-first-picker",
            "Logik first picker: seed 000 against seed 002",
            F,
            sources.check_logik_first_picker,
            (SEED_000, SEED_002),
        ),
        Obligation(
            "source.kids-player-limit",
            "Kids: a player limit follows from the deck but is not stated",
            F,
            sources.check_kids_player_limit,
            (SEED_000,),
        ),
        Obligation(
            "source.kids-row-choice",
            "Kids: 'pure luck', yet a too-low card's owner would choose a row",
            F,
            sources.check_kids_row_choice,
            (SEED_000,),
        ),
        Obligation(
            "source.kids-turn-order",
            "Kids: seat order vs. revealed together and placed lowest first",
            F,
            sources.check_kids_turn_order,
            (SEED_000,),
        ),
    ]


def run_all(
    selected: list[Obligation] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[Outcome]:
    """Run ``selected`` (default: every obligation) in order; ``progress(done, total, name)``
    is called before each obligation (``name`` the one starting) and once at the end."""
    chosen = obligations() if selected is None else selected
    out = []
    for i, ob in enumerate(chosen):
        if progress is not None:
            progress(i, len(chosen), ob.name)
        out.append(run(ob))
    if progress is not None:
        progress(len(chosen), len(chosen), "")
    return out
