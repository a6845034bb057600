"""The obligations that are parametric in the rules, re-proved for one rule set (a rules file).

``take6 verify --rules FILE`` runs :func:`obligations` for the file's :class:`~take6.rules.Rules`:
the deck facts, for how many players the deck suffices, determinism of placement, the inductive
step invariant, the lowest-card fact of a turn, one row per take, the largest take, and whether a
game to its target always ends (with the bound on its rounds). Each obligation either proves its
fact for these rules or reports a *finding*: a witness that it fails, replayed through the engine
(:mod:`take6.state`, :mod:`take6.placement`) before it is reported. A check that can neither
prove nor witness says so as an error, never as a pass.

The z3 models are those of the standard obligations (:mod:`proofs.placement`, :mod:`proofs.deck`,
:mod:`proofs.game`) with the rule set's rows, row capacity, deck and bull-head table as their
parameters.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import partial

import z3

from proofs import placement
from proofs.core import (
    Obligation,
    Result,
    Status,
    Witness,
    as_int,
    is_sat,
    new_optimizer,
    new_solver,
)
from proofs.model import heads_term, profi_rule, standard_rule
from take6.cards import MAX_CARD
from take6.errors import Take6Error
from take6.placement import Placement, Reason, Side, apply_move, place
from take6.position import check_table
from take6.rules import MAX_PLAYERS, MIN_PLAYERS, Comparison, Rules, Variant
from take6.state import Deal, Phase, Pick, Play, State, new_game, random_deal, step
from take6.text import excerpt
from take6.turn import Placed, RoundScored

P, F = Status.PROVED, Status.FINDING

__all__ = ["check_deck", "check_game_ends", "check_players", "forever_round", "obligations"]


def obligations(rules: Rules) -> list[Obligation]:
    """The obligations for ``rules``, in report order (built here, run later)."""
    rule = profi_rule if rules.profi_left else standard_rule
    rows, cap = rules.rows, rules.row_capacity

    def ob(name: str, description: str, check: Callable[[], Result], *also: Status) -> Obligation:
        return Obligation(f"rules.{name}", description, P, check, (), also)

    out = [
        ob(
            "deck",
            "the deck's cards are distinct; its heads total and distribution",
            partial(check_deck, rules),
        ),
        ob(
            "players",
            "the deck suffices for the players (Optimize: the most it can deal)",
            partial(check_players, rules),
            F,
        ),
    ]
    if rules.profi_left:
        out.append(
            ob(
                "placement-unique",
                "Profi: one option, except a left/right tie at equal distance or no fit",
                partial(placement.check_profi_unique, rule, rows, cap),
            )
        )
        out.append(
            ob(
                "profi-tie",
                "Profi: a card equally close to a row's end and another row's start",
                partial(check_profi_tie, rules),
                F,
            )
        )
        out.append(
            ob(
                "profi-no-fit",
                "Profi: a card above every first card and below every last card",
                partial(check_profi_no_fit, rules),
                F,
            )
        )
    else:
        out.append(
            ob(
                "placement-deterministic",
                "exactly one row is chosen, or the card is too low (unbounded cards)",
                partial(placement.check_standard_deterministic, rule, rows, cap),
            )
        )
    out.append(
        ob(
            "invariant-step",
            f"placement keeps rows 1..{cap} ascending & distinct, conserves cards",
            partial(placement.check_step_invariant, rule, cap, rows),
        )
    )
    if not rules.profi_left:
        out.append(
            ob(
                "too-low-lowest",
                "in a turn at most one card is too low, and it is the lowest",
                partial(placement.check_too_low_lowest, rule, rows, cap),
            )
        )
    out.append(
        ob(
            "one-row",
            f"a placement takes nothing or one whole row (≤ {cap} cards)",
            partial(placement.check_one_row_taken, (rule,), rows, cap),
        )
    )
    out.append(
        ob(
            "max-take",
            "the most heads one take can hold (Optimize), replayed",
            partial(check_max_take, rules),
        )
    )
    out.append(
        ob(
            "game-ends",
            "every game ends (round bound), or a witness round that takes no heads",
            partial(check_game_ends, rules),
            F,
        )
    )
    return out


# -- the deck -----------------------------------------------------------------------------------


def check_deck(rules: Rules) -> Result:
    """The deck holds ``deck_size`` distinct cards; z3 adds up its heads (one term per card of
    the rules' table) and confirms the total and the count of cards per number of heads."""
    deck, table = rules.deck(), rules.heads
    vals = [z3.IntVal(c) for c in deck]
    s = new_solver()
    distinct = z3.Distinct(*vals) if len(vals) > 1 else z3.BoolVal(True)
    s.add(z3.Not(z3.And(len(deck) == rules.deck_size, distinct)))
    if is_sat(s, "deck distinctness"):
        return Result.refuted(f"the deck is not {rules.deck_size} distinct cards", {})
    counts = Counter(table[c] for c in deck)
    total = sum(h * k for h, k in counts.items())
    # the table as one z3 term, read at each card of the deck (z3 evaluates each to a value)
    x = z3.Int("x")
    term = heads_term(x, table)
    per_card = [z3.simplify(z3.substitute(term, (x, v))) for v in vals]
    t = z3.Int("total")
    s = new_solver()
    s.add(t == z3.Sum(per_card), t != total)
    if is_sat(s, "deck heads total"):
        return Result.refuted(f"the heads do not total {total}", {"total": as_int(s.model(), t)})
    for h, k in counts.items():
        s = new_solver()
        s.add(z3.Sum([z3.If(hv == h, 1, 0) for hv in per_card]) != k)
        if is_sat(s, f"cards with {h} heads"):
            return Result.refuted(f"not {k} cards with {h} heads", {"heads": h})
    spread = ", ".join(f"{k}×{h}" for h, k in sorted(counts.items()))
    return Result.proved(
        f"{len(deck)} distinct cards ({rules.deck_text()}), {total} heads ({spread})",
        {
            "cards": len(deck),
            "heads": total,
            "distribution": {str(h): k for h, k in sorted(counts.items())},
        },
    )


def check_players(rules: Rules) -> Result:
    """z3's Optimize finds the most players the deck can deal ``hand_size`` cards each plus one
    card per row to; a second query proves one more is impossible. Fewer than 10 is a finding,
    replayed through the engine: it deals a round to that many players and refuses one more."""
    k, r, size = rules.hand_size, rules.rows, rules.deck_size
    # A Taktik/Logik deck 1..k·n + rows follows the players (up to the 104 printed cards).
    follows = (
        rules.variant in (Variant.TAKTIK, Variant.LOGIK)
        and rules.standard_cards
        and size == k * rules.players + r
    )
    if follows:
        size = MAX_CARD
    n = z3.Int("n")
    fits = [n >= MIN_PLAYERS, n <= MAX_PLAYERS, n * k + r <= size]
    opt = new_optimizer()
    opt.add(*fits)
    opt.maximize(n)
    if not is_sat(opt, "players the deck suffices for"):
        return Result.refuted("the deck suffices for no number of players", {})
    best = as_int(opt.model(), n)
    s = new_solver()
    s.add(*fits, n > best)
    if is_sat(s, "players bound"):
        return Result.refuted("the optimum is not confirmed", {"players": best})
    deck = (
        f"the {rules.variant.value} deck 1..{k}·n+{r}" if follows else f"the deck of {size} cards"
    )
    if best >= MAX_PLAYERS:
        return Result.proved(
            f"{deck} suffices for {MIN_PLAYERS}..{MAX_PLAYERS} players "
            f"({MAX_PLAYERS}·{k} + {r} ≤ {size})",
            {"max_players": best},
        )

    # Replay: the engine deals a round to `best` players and refuses best + 1.
    def seats(m: int) -> dict[str, int]:
        out = {"players": m, "first_picker": min(rules.first_picker, m - 1)}
        return {**out, "deck_size": min(MAX_CARD + 1, m * k + r)} if follows else out

    state = new_game(rules.with_(**seats(best)))
    if state.phase is Phase.DEAL:
        state = step(state, random_deal(state, random.Random(0)))[0]
    try:
        rules.with_(**seats(best + 1))
    except Take6Error as exc:
        refusal = str(exc)
    else:
        return Result.refuted(f"the engine accepts {best + 1} players", {"players": best + 1})
    need = (best + 1) * k + r
    deck = (
        f"the {rules.variant.value} deck 1..{k}·n+{r}" if follows else f"the deck of {size} cards"
    )
    return Result.finding(
        f"{deck} suffices for at most {best} players: {best + 1} hands of "
        f"{k} plus {r} rows need {need} cards (the engine refuses them)",
        {"max_players": best, "cards_needed": need, "deck": size, "engine": refusal},
    )


# -- Profi findings ------------------------------------------------------------------------------


def _place_witness(found: Result, rules: Rules) -> tuple[dict[str, object], Placement]:
    """A finding's witness (a table and a card) and the engine's placement of it, the table
    checked first to be one of these rules."""
    assert found.witness is not None
    rows = _rows_of(found.witness["rows"])
    card = found.witness["card"]
    assert isinstance(card, int)
    check_table(rows, [("the card", [card])], rules, "the witness")
    return found.witness, place(tuple(rows), card, rules)


def check_profi_tie(rules: Rules) -> Result:
    """A left/right tie on a table of these rules (cards of the deck), replayed: the engine's
    placement offers the owner both rows, or settles the tie as ``profi_tie`` says."""
    found = placement.check_profi_tie(profi_rule, rules.rows, rules.row_capacity, rules.deck())
    if found.status is not Status.FINDING:
        return found
    witness, got = _place_witness(found, rules)
    if rules.profi_tie.value == "owner":
        if got.reason is not Reason.TIE:
            return Result.refuted(f"the engine does not see a tie: {got.reason.value}", witness)
        return Result.finding(found.summary + "; the owner chooses", witness)
    side = Side.RIGHT if rules.profi_tie.value == "right" else Side.LEFT
    if got.reason is not Reason.FORCED or got.options[0].side is not side:
        return Result.refuted("the engine does not settle the tie as profi_tie says", witness)
    return Result.proved(
        f"ties occur ({found.summary}); profi_tie = {rules.profi_tie.value!r} settles them",
        witness,
    )


def check_profi_no_fit(rules: Rules) -> Result:
    """A card that fits no row on a table of these rules, replayed: the engine lets its owner
    choose a row to take."""
    found = placement.check_profi_no_fit(profi_rule, rules.rows, rules.row_capacity, rules.deck())
    if found.status is not Status.FINDING:
        return found
    witness, got = _place_witness(found, rules)
    if got.reason is not Reason.NO_FIT:
        return Result.refuted(f"the engine places it: {got.reason.value}", witness)
    return Result.finding(found.summary + "; its owner chooses a row to take", witness)


def _cards_of(value: object) -> tuple[int, ...]:
    assert isinstance(value, list) and all(isinstance(c, int) for c in value)
    return tuple(value)


def _rows_of(value: object) -> list[tuple[int, ...]]:
    assert isinstance(value, list)
    return [_cards_of(r) for r in value]


# -- the largest take ----------------------------------------------------------------------------


def check_max_take(rules: Rules) -> Result:
    """The most heads one take can hold under these rules (Optimize over rows of 1..capacity
    cards of the deck, and a proof that nothing exceeds it), with a table on which the engine
    takes such a row."""
    found = placement.check_max_take(rules.heads, None, rules.row_capacity, rules.deck())
    if found.status is not Status.PROVED or found.witness is None:
        return found
    best_row = _cards_of(found.witness["row"])
    heads = found.witness["heads"]
    replay = _take_replay(rules, best_row)
    if replay is None:
        return Result.proved(
            f"max {heads} heads, e.g. {list(best_row)} (no table of these rules to replay it on)",
            found.witness,
        )
    rows, card, row = replay
    return Result.proved(
        f"max {heads} heads: card {card} on {[list(r) for r in rows]} takes row {row + 1} "
        f"{list(best_row)} (replayed)",
        {**found.witness, "table": [list(r) for r in rows], "card": card, "taken_row": row},
    )


def _take_replay(
    rules: Rules, best: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], ...], int, int] | None:
    """A table holding ``best`` and a card the engine makes take it (too low, or the card
    after a full row), or ``None`` when the deck leaves no room for one."""
    others = [c for c in rules.deck() if c not in best]
    attempts: list[tuple[list[tuple[int, ...]], int]] = []
    if len(others) >= rules.rows:
        low, rest = others[0], others[1 : rules.rows]
        attempts.append(([best, *((c,) for c in rest)], low))  # too low
    if len(best) == rules.row_capacity:
        below = [c for c in others if c < best[0]][: rules.rows - 1]
        above = [c for c in others if c > best[-1]]
        if len(below) == rules.rows - 1 and above:
            attempts.append(([best, *((c,) for c in below)], above[0]))  # the card after
    for table, card in attempts:
        try:
            check_table(table, [("the card", [card])], rules, "the witness")
        except Take6Error:
            continue
        got = place(tuple(table), card, rules)
        for move in got.options:
            _after, taken = apply_move(tuple(table), card, move, rules.row_capacity)
            if taken == best and rules.heads_of(taken) == rules.heads_of(best):
                return tuple(table), card, move.row
    return None


# -- termination ---------------------------------------------------------------------------------


def check_game_ends(rules: Rules) -> Result:
    """A round always ends (the hands are finite); does a *game* to its target? z3 proves the
    cards every round must put into bull piles (those placed minus what the rows can hold), the
    fewest heads those cards can carry (an integer program over the deck's heads), and the most
    rounds all totals can stay below the target. When a round can score no heads, a round that
    scores none is built and replayed through the engine: the game can last forever."""
    n, k, r, cap = rules.players, rules.hand_size, rules.rows, rules.row_capacity
    placed = r + k * n
    s = new_solver()
    on_table, taken = z3.Ints("on_table taken")
    s.add(on_table >= 0, on_table <= r * cap, taken == placed - on_table)
    s.add(taken < placed - r * cap)
    if is_sat(s, "cards taken per round"):
        return Result.refuted("a round takes fewer cards than the table can hold", {})
    cards = max(0, placed - r * cap)
    least = _least_heads(rules, cards)
    if least != rules.min_heads_per_round:
        return Result.refuted(
            f"z3's least heads per round {least} differs from the engine's "
            f"{rules.min_heads_per_round}",
            {"z3": least, "engine": rules.min_heads_per_round},
        )
    target, rounds = rules.end.target, rules.end.rounds
    if rounds is not None:
        return Result.proved(
            f"the game ends after at most {rounds} rounds (end.rounds)", {"max_rounds": rounds}
        )
    assert target is not None
    if least > 0:
        below = target - 1 if rules.end.comparison is Comparison.AT_LEAST else target
        opt = new_optimizer()
        rounds_v, pool = z3.Ints("rounds pool")
        opt.add(rounds_v >= 0, pool >= rounds_v * least, pool <= n * below)
        opt.maximize(rounds_v)
        if not is_sat(opt, "rounds below the target"):
            return Result.refuted("no round can be played", {})
        longest = as_int(opt.model(), rounds_v)
        totals = [z3.Int(f"total{p}") for p in range(n)]
        check = new_solver()
        check.add(*[t >= 0 for t in totals], *[t <= below for t in totals])
        check.add(z3.Sum(totals) >= (longest + 1) * least)
        if is_sat(check, "round bound"):
            return Result.refuted("optimum not confirmed", {"rounds": longest})
        bound = longest + 1
        engine = rules.max_rounds
        if engine is None or engine < bound:
            return Result.refuted(
                f"the engine's round bound {engine} is below z3's {bound}",
                {"z3": bound, "engine": engine},
            )
        return Result.proved(
            f"≥ {cards} cards and ≥ {least} heads taken per round; a game to {target} is over "
            f"within {bound} rounds",
            {"min_cards_per_round": cards, "min_heads_per_round": least, "max_rounds": bound},
        )
    witness = forever_round(rules)
    why = (
        f"the {r} rows hold {r * cap} cards, so a round can pass with no card taken"
        if cards == 0
        else f"the {cards} cards a round must take can all carry 0 heads"
    )
    if witness is None:
        return Result(
            Status.ERROR,
            f"undecided: {why}, but no round scoring 0 heads was found to witness it",
        )
    return Result.finding(
        f"with {r} rows of capacity {cap} and {n} players a game to {target} can last "
        f"forever ({why}): witness round: rows {witness['rows']}, hands "
        f"{excerpt(witness['hands'], 120)} played in order, {witness['cards_taken']} cards "
        f"taken, 0 heads; every round can be dealt so",
        witness,
    )


def _least_heads(rules: Rules, cards: int) -> int:
    """The fewest heads ``cards`` distinct cards of the deck can carry: an integer program over
    how many cards of each heads value are chosen, minimised by z3 and confirmed."""
    if cards <= 0:
        return 0
    counts = Counter(rules.heads[c] for c in rules.deck())
    xs = {h: z3.Int(f"x{h}") for h in counts}
    facts = [z3.And(x >= 0, x <= counts[h]) for h, x in xs.items()]
    facts.append(z3.Sum(list(xs.values())) == cards)
    cost = z3.Sum([h * x for h, x in xs.items()])
    opt = new_optimizer()
    opt.add(*facts)
    opt.minimize(cost)
    if not is_sat(opt, "least heads per round"):
        raise ValueError("the deck has fewer cards than a round takes")
    least = as_int(opt.model(), cost)
    s = new_solver()
    s.add(*facts, cost < least)
    if is_sat(s, "least heads bound"):
        raise ValueError("the least heads per round are not confirmed")
    return least


def _layout(rules: Rules) -> tuple[list[int], list[int]] | None:
    """The row starters and the played cards (ascending) of a round in which no heads are taken,
    or ``None`` when this construction does not apply.

    Each row gets a block of cards just above its starter and below the next row's: a card of
    block i goes to row i (its last card is the closest below), and playing every card in
    ascending order keeps each row ascending. The rows hold ``capacity - 1`` more cards each;
    the rest go to row 0, whose first cards (those its full-row takes collect) carry 0 heads.
    In Profi one card is left out between two blocks, so that the next row's first card is
    farther from a block's cards than the row they join (the replay checks that it is); the
    rows of a draft are the lowest cards left over, so there a Profi layout is not claimed."""
    if rules.profi_left and rules.draft:
        return None
    gap = 1 if rules.profi_left else 0
    n, k, rows, cap = rules.players, rules.hand_size, rules.rows, rules.row_capacity
    deck, table = list(rules.deck()), rules.heads
    played = n * k
    if played + rows <= rows * cap:
        lengths, left = [], played  # each row: its starter and up to capacity - 1 cards
        for _ in range(rows):
            lengths.append(1 + min(cap - 1, left))
            left -= lengths[-1] - 1
        first: list[int] = []
        pool = deck
    else:
        row0 = played - (rows - 1) * (cap - 1)  # cards placed on row 0 after its starter
        taken = cap * (row0 // cap)
        if rules.draft:  # the rows start with the lowest cards nobody drafted: one prefix
            first, pool = deck[:taken], deck[taken:]
            if any(table[c] for c in first):
                return None
        else:
            zeros = [c for c in deck if table[c] == 0]
            if len(zeros) < taken:
                return None
            first = zeros[:taken]
            pool = [c for c in deck if c > first[-1]]
        lengths = [row0 + 1] + [cap] * (rows - 1)
    blocks: list[list[int]] = []
    for i, length in enumerate(lengths):
        start = first if i == 0 else []
        if i:
            pool = pool[gap:]
        block = start + pool[: length - len(start)]
        pool = pool[length - len(start) :]
        if len(block) != length:
            return None
        blocks.append(block)
    starters = [b[0] for b in blocks]
    return starters, sorted(c for b in blocks for c in b[1:])


def forever_round(rules: Rules) -> Witness | None:
    """A first round under ``rules`` that puts no heads into any bull pile, built by
    :func:`_layout` and replayed through the engine (``None``: no such round was built). Since
    every round starts from a fresh deal (or draft) with the totals unchanged, the same round can
    be dealt again and again: a game to a target never ends."""
    layout = _layout(rules)
    if layout is None:
        return None
    starters, played = layout
    n, k = rules.players, rules.hand_size
    hands = [[played[t * n + p] for t in range(k)] for p in range(n)]
    state: State = new_game(rules)
    witness: Witness = {"rows": starters, "hands": hands}
    if state.phase is Phase.DEAL:
        used = set(played) | set(starters)
        order = (
            [c for h in hands for c in h] + starters + [c for c in rules.deck() if c not in used]
        )
        state = step(state, Deal(tuple(order)))[0]
        witness["deal"] = order
    else:
        picks: list[list[int]] = []
        got = [0] * n
        while state.phase is Phase.DRAFT:
            p = state.picker
            card = hands[p][got[p]]
            got[p] += 1
            state = step(state, Pick(p, card))[0]
            picks.append([p, card])
        witness["picks"] = picks
    if list(state.rows) != [(c,) for c in starters]:
        return None
    at = [0] * n
    taken_cards = 0
    scored: RoundScored | None = None
    while state.phase is Phase.CHOOSE:
        p = state.to_act()[0]
        state, events = step(state, Play(p, hands[p][at[p]]))
        at[p] += 1
        for e in events:
            if isinstance(e, Placed):
                if e.heads:
                    return None
                taken_cards += len(e.taken)
            elif isinstance(e, RoundScored):
                scored = e
    if scored is None or any(scored.heads) or any(scored.totals):
        return None
    if state.phase is Phase.GAME_OVER:
        return None
    witness["cards_taken"] = taken_cards
    witness["round_after"] = state.round
    return witness
