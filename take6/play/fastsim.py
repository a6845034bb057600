"""A fast simulator of whole bot games: a differential-tested mirror of the reference rules.

The reference engine (:mod:`take6.state`, :mod:`take6.play.game`) is the definition of the rules:
immutable states, one action at a time, every step validated. That makes it clear and slow. This
module plays the *same* games much faster, for Monte Carlo studies and benchmarks, with mutable
lists and plain ints: each row is kept as four numbers (first card, last card, number of cards,
heads in it), bull heads come from the rules' table (:attr:`take6.rules.Rules.heads`), and the bots
``random``, ``cheapest`` and ``safe`` of :mod:`take6.play.bots` are inlined.

It is a *mirror*, not a second definition: for every setting a :class:`take6.rules.Rules` object
can express (Standard, Taktik, Profi with each :class:`take6.rules.ProfiTie`, the Logik draft,
Kids, any number of players, rows, row capacity, hand size, deck size, a target total compared
with ``>=`` or ``>``, a fixed number of rounds), :func:`simulate` consumes the random numbers of
``random.Random(seed)`` in exactly the order :func:`take6.play.game.play_game` does with the same
bots
(the shuffle of :func:`take6.state.random_deal`, then each decision of a random bot as it comes:
cards in seat order, a row choice when the card is revealed in ascending order, draft picks in
turn), so for the same rules, bots and seed both give the same totals, round scores and number
of rounds. ``tests/test_fastsim.py`` checks this against the reference game by game (and card by
card, through the optional placement trace), and ``bench/engine.py --diff N`` on N games.

The placement rule is restated once here, as the pure module-level functions
:func:`placement_options` and :func:`apply_placement` that the game loop calls;
``take6 verify --code`` proves them equal to :func:`take6.placement.place` and
:func:`take6.placement.apply_move` on every case of a bounded domain. (The inlined loop of the
common case, random bots and standard placement, keeps its own copy of the standard rule for
speed: calling the functions there costs about a quarter of its speed. That copy is checked by
the differential tests only.)

The random numbers are drawn with ``getrandbits`` exactly as :meth:`random.Random.randrange` and
:meth:`random.Random.shuffle` draw them; an import-time self-check compares the two on a fixed
seed and falls back to calling ``randrange``/``shuffle`` themselves if a Python version ever
draws differently.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from take6.errors import UsageError
from take6.rules import CARD_LIMIT, Comparison, ProfiTie, Rules

__all__ = [
    "BOT_NAMES",
    "TIE_CODES",
    "FastResult",
    "PlacementRecord",
    "apply_placement",
    "placement_options",
    "simulate",
    "simulate_many",
]

BOT_NAMES: tuple[str, ...] = ("random", "cheapest", "safe")
"""The bots of :mod:`take6.play.bots` this simulator mirrors."""

_RANDOM, _CHEAPEST, _SAFE = 0, 1, 2
_RIGHT, _LEFT, _TAKE = 0, 1, 2
_SIDE_NAMES = ("right", "left", "take")
# ProfiTie as small ints for the hot loop.
_TIE_OWNER, _TIE_RIGHT, _TIE_LEFT = 0, 1, 2
TIE_CODES: dict[ProfiTie, int] = {
    ProfiTie.OWNER_CHOOSES: _TIE_OWNER,
    ProfiTie.PREFER_RIGHT: _TIE_RIGHT,
    ProfiTie.PREFER_LEFT: _TIE_LEFT,
}
"""Each :class:`take6.rules.ProfiTie` as the ``tie`` code :func:`placement_options` takes."""


class FastResult(NamedTuple):
    """The outcome of one simulated game (the same numbers as the reference's final state)."""

    totals: tuple[int, ...]
    """Each player's final total (``State.totals``)."""
    round_scores: tuple[tuple[int, ...], ...]
    """Heads each player took in each round (``State.round_scores``)."""
    rounds: int
    """Rounds played (``State.round`` at the end)."""


class PlacementRecord(NamedTuple):
    """One card put on the table (the fast counterpart of :class:`take6.state.Placed`)."""

    round: int
    player: int
    card: int
    row: int
    side: str
    """``"right"``, ``"left"`` or ``"take"`` (any placement that took cards), as ``Side.value``."""
    taken_cards: int
    taken_heads: int


def _bit_lengths() -> tuple[int, ...]:
    return tuple(m.bit_length() for m in range(CARD_LIMIT + 2))


_BITS = _bit_lengths()


def _self_check() -> bool:
    """True if drawing with ``getrandbits`` as below matches ``randrange`` and ``shuffle``."""
    a, b = random.Random(20240611), random.Random(20240611)
    for m in (1, 2, 3, 4, 5, 7, 8, 10, 13, 31, 64, 100, 104, 1, 1, 9):
        bits = _BITS[m]
        j = b.getrandbits(bits)
        while j >= m:
            j = b.getrandbits(bits)
        if a.randrange(m) != j:
            return False
    deck = list(range(1, 105))
    ref, own = deck[:], deck[:]
    a.shuffle(ref)
    for i in range(len(own) - 1, 0, -1):
        m = i + 1
        bits = _BITS[m]
        j = b.getrandbits(bits)
        while j >= m:
            j = b.getrandbits(bits)
        own[i], own[j] = own[j], own[i]
    return ref == own and a.random() == b.random()


_GETRANDBITS_OK = _self_check()


class _Plan:
    """Everything :func:`_play` needs from the rules and the bots, as plain values."""

    __slots__ = (
        "above",
        "capacity",
        "deck",
        "draft",
        "end_rounds",
        "first_picker",
        "hand_size",
        "heads",
        "kinds",
        "lowest_wins",
        "pile_play",
        "players",
        "profi",
        "rotate",
        "rows",
        "safe_rank",
        "shuffle_steps",
        "simultaneous",
        "target",
        "tie",
    )

    def __init__(self, rules: Rules, bots: Sequence[str] | None) -> None:
        n = rules.players
        names = tuple(bots) if bots is not None else ("random",) * n
        if len(names) != n:
            raise UsageError(f"{len(names)} bots for {n} players")
        kinds: list[int] = []
        for name in names:
            if name not in BOT_NAMES:
                raise UsageError(f"unknown bot {name!r} (fast path knows: {', '.join(BOT_NAMES)})")
            kinds.append(BOT_NAMES.index(name))
        self.kinds: list[int] = kinds
        self.players: int = n
        self.hand_size: int = rules.hand_size
        self.rows: int = rules.rows
        self.capacity: int = rules.row_capacity
        self.deck: list[int] = list(rules.deck())
        self.heads: tuple[int, ...] = rules.heads
        self.profi: bool = rules.profi_left
        self.lowest_wins: bool = rules.lowest_wins
        self.tie: int = TIE_CODES[rules.profi_tie]
        self.simultaneous: bool = rules.simultaneous
        self.pile_play: bool = rules.pile_play
        self.draft: bool = rules.draft
        self.first_picker: int = rules.first_picker
        self.rotate: bool = rules.rotate_first_picker
        self.target: int | None = rules.end.target
        self.above: bool = rules.end.comparison is Comparison.ABOVE
        self.end_rounds: int | None = rules.end.rounds
        # The shuffle of random.Random.shuffle: for i = len-1 .. 1, j = randbelow(i + 1).
        self.shuffle_steps: list[tuple[int, int, int]] = [
            (i, i + 1, _BITS[i + 1]) for i in range(len(self.deck) - 1, 0, -1)
        ]
        # The safe bot's draft pick: the card with the fewest heads, then nearest the middle.
        mid = (self.deck[0] + self.deck[-1]) / 2
        order = sorted(self.deck, key=lambda c: (self.heads[c], abs(c - mid), c))
        rank = [0] * (rules.max_card + 1)
        for i, c in enumerate(order):
            rank[c] = i
        self.safe_rank: list[int] = rank


def simulate(
    rules: Rules,
    seed: int,
    bots: Sequence[str] | None = None,
    *,
    trace: list[PlacementRecord] | None = None,
    max_rounds: int = 100_000,
) -> FastResult:
    """Play one game between ``bots`` (names from :data:`BOT_NAMES`; default all ``random``)
    under ``rules`` from ``seed``: the same game as
    ``take6.play.game.play_game(rules, bots, seed)``.

    If ``trace`` is a list, every card placed is appended to it as a :class:`PlacementRecord`.
    Raises ``RuntimeError`` if the game has not ended after ``max_rounds`` rounds.
    """
    return _play(_Plan(rules, bots), seed, trace, max_rounds)


def simulate_many(
    rules: Rules,
    seeds: Iterable[int],
    bots: Sequence[str] | None = None,
    *,
    max_rounds: int = 100_000,
) -> list[FastResult]:
    """:func:`simulate` for each seed in ``seeds`` (the rules are compiled once)."""
    plan = _Plan(rules, bots)
    return [_play(plan, seed, None, max_rounds) for seed in seeds]


def placement_options(
    first: Sequence[int], last: Sequence[int], card: int, profi: bool, tie: int
) -> tuple[bool, list[tuple[int, int]]]:
    """The placement rule (:func:`take6.placement.place`) on rows kept as their first and last
    cards: ``(chooses, moves)``, each move a ``(row, side)`` pair. One forced move (right or
    left) when ``chooses`` is False; otherwise the owner's choices: a take of every row (too low,
    fits nowhere: also with a single row) or the two tied moves sorted by row. ``tie`` is
    :class:`take6.rules.ProfiTie` as its :data:`TIE_CODES`. Pure: reads
    its arguments only (``take6 verify --code`` proves it equal to the reference)."""
    best_row = -1
    best_last = 0
    for i, x in enumerate(last):
        if best_last < x < card:
            best_row = i
            best_last = x
    if not profi:
        if best_row < 0:
            return True, [(i, _TAKE) for i in range(len(last))]
        return False, [(best_row, _RIGHT)]
    left_row = -1
    left_first = 0
    for i, x in enumerate(first):
        if x > card and (left_row < 0 or x < left_first):
            left_row = i
            left_first = x
    if best_row < 0 and left_row < 0:
        return True, [(i, _TAKE) for i in range(len(last))]
    if left_row < 0:
        return False, [(best_row, _RIGHT)]
    if best_row < 0:
        return False, [(left_row, _LEFT)]
    right_gap = card - best_last
    left_gap = left_first - card
    if right_gap < left_gap:
        return False, [(best_row, _RIGHT)]
    if left_gap < right_gap:
        return False, [(left_row, _LEFT)]
    if tie == _TIE_RIGHT:
        return False, [(best_row, _RIGHT)]
    if tie == _TIE_LEFT:
        return False, [(left_row, _LEFT)]
    if best_row < left_row:
        return True, [(best_row, _RIGHT), (left_row, _LEFT)]
    return True, [(left_row, _LEFT), (best_row, _RIGHT)]


def apply_placement(
    first: list[int],
    last: list[int],
    count: list[int],
    row_heads: list[int],
    heads: Sequence[int],
    cap: int,
    card: int,
    row: int,
    side: int,
) -> tuple[int, int, int]:
    """:func:`take6.placement.apply_move` on the four-number rows (``first``, ``last``,
    ``count``, ``row_heads``, updated in place): ``(cards taken, heads taken, side)``, the side
    ``_TAKE`` for any placement that took the row (a full row, too: capacity ``cap``)."""
    h = heads[card]
    if side == _TAKE or count[row] >= cap:
        got_cards, got_heads = count[row], row_heads[row]
        first[row] = last[row] = card
        count[row] = 1
        row_heads[row] = h
        return got_cards, got_heads, _TAKE
    if side == _RIGHT:
        last[row] = card
    else:
        first[row] = card
    count[row] += 1
    row_heads[row] += h
    return 0, 0, side


def _play(
    plan: _Plan, seed: int, trace: list[PlacementRecord] | None, max_rounds: int
) -> FastResult:
    rng = random.Random(seed)
    getrandbits = rng.getrandbits
    exact = _GETRANDBITS_OK
    bits_of = _BITS
    heads = plan.heads
    n = plan.players
    k = plan.hand_size
    nrows = plan.rows
    cap = plan.capacity
    deck = plan.deck
    kinds = plan.kinds
    sign = 1 if plan.lowest_wins else -1
    all_random = all(kind == _RANDOM for kind in kinds)
    profi = plan.profi
    tie = plan.tie
    pile = plan.pile_play
    simultaneous = plan.simultaneous
    target = plan.target
    above = plan.above
    end_rounds = plan.end_rounds
    shuffle_steps = plan.shuffle_steps
    row_range = range(nrows)
    seats = range(n)
    owner = [0] * (plan.deck[-1] + 1)
    # The placement rule and its moves are the module's pure functions, bound locally.
    options = placement_options
    apply = apply_placement

    def randbelow(m: int) -> int:
        """``rng.randrange(m)``, drawn the same way."""
        if not exact:
            return rng.randrange(m)
        b = bits_of[m]
        r = getrandbits(b)
        while r >= m:
            r = getrandbits(b)
        return r

    # The table: each row as four numbers (first card, last card, cards in it, heads in it),
    # and the heads each player has taken this round; all updated in place.
    first = [0] * nrows
    last = [0] * nrows
    count = [1] * nrows
    row_heads = [0] * nrows
    taken = [0] * n
    hands: list[list[int]] = [[] for _ in seats]
    rnd = 0

    def move_cost(row: int, side: int) -> tuple[int, int, int]:
        """take6.play.bots.cheapest_row's key: the cheapest take (the dearest when the most heads
        win), then fewest (most) cards, then the lowest row; a move that takes nothing is 0."""
        if side == _TAKE or count[row] >= cap:
            return (sign * row_heads[row], sign * count[row], row)
        return (0, 0, row)

    def choose(player: int, card: int, opts: list[tuple[int, int]]) -> tuple[int, int]:
        """The owner's row choice among ``opts`` (take6.play.bots: random or cheapest row)."""
        if kinds[player] == _RANDOM:
            return opts[randbelow(len(opts))]
        best = opts[0]
        best_key = move_cost(*best)
        for opt in opts[1:]:
            key = move_cost(*opt)
            if key < best_key:
                best, best_key = opt, key
        return best

    def place(player: int, card: int) -> None:
        """Place ``card``: where the rule puts it, or where its owner chooses (the module's
        :func:`placement_options` and :func:`apply_placement`), scoring a take, tracing it."""
        chooses, opts = options(first, last, card, profi, tie)
        row, side = choose(player, card, opts) if chooses else opts[0]
        got_cards, got_heads, side = apply(
            first, last, count, row_heads, heads, cap, card, row, side
        )
        taken[player] += got_heads
        if trace is not None:
            trace.append(
                PlacementRecord(rnd, player, card, row, _SIDE_NAMES[side], got_cards, got_heads)
            )

    def immediate_cost(card: int) -> int:
        """take6.play.bots.immediate_cost: heads ``card`` would take on the table as it is."""
        best = -1
        for row, side in options(first, last, card, profi, tie)[1]:
            c = row_heads[row] if side == _TAKE or count[row] >= cap else 0
            if best < 0 or c < best:
                best = c
        return best

    def pick_card(player: int) -> int:
        """The card ``player``'s bot plays now (removed from the hand)."""
        hand = hands[player]
        if pile:
            return hand.pop(0)
        if kinds[player] != _SAFE:
            return hand.pop(randbelow(len(hand)))
        best_card = hand[0]
        best_cost = immediate_cost(best_card)
        for c in hand[1:]:
            cost = immediate_cost(c)
            if cost < best_cost:
                best_card, best_cost = c, cost
        hand.remove(best_card)
        return best_card

    totals = [0] * n
    round_scores: list[tuple[int, ...]] = []
    while True:
        rnd += 1
        if rnd > max_rounds:
            raise RuntimeError(f"game did not end within {max_rounds} rounds")

        # -- the deal (a shuffle) or the Logik draft ------------------------------------------
        if plan.draft:
            pool = deck[:]
            hands[:] = [[] for _ in seats]
            picker = (plan.first_picker + (rnd - 1 if plan.rotate else 0)) % n
            rank = plan.safe_rank
            for _ in range(n * k):
                if kinds[picker] == _SAFE:
                    card = min(pool, key=rank.__getitem__)
                    pool.remove(card)
                else:
                    card = pool.pop(randbelow(len(pool)))
                hands[picker].append(card)
                picker = picker + 1 if picker + 1 < n else 0
            for hand in hands:
                hand.sort()
            table = pool[:nrows]
        else:
            order = deck[:]
            if exact:
                for i, m, b in shuffle_steps:
                    j = getrandbits(b)
                    while j >= m:
                        j = getrandbits(b)
                    order[i], order[j] = order[j], order[i]
            else:
                rng.shuffle(order)
            hands[:] = [order[p * k : (p + 1) * k] for p in seats]
            if not pile:
                for hand in hands:
                    hand.sort()
            table = order[n * k : n * k + nrows]

        first[:] = table
        last[:] = table
        count[:] = [1] * nrows
        row_heads[:] = [heads[c] for c in table]
        taken[:] = [0] * n

        # -- the turns -------------------------------------------------------------------------
        if simultaneous and not profi and all_random and not pile and trace is None:
            # The common case (random bots, standard placement), inlined.
            for _ in range(k):
                played = []
                for p in seats:
                    hand = hands[p]
                    m = len(hand)
                    if exact:
                        b = bits_of[m]
                        j = getrandbits(b)
                        while j >= m:
                            j = getrandbits(b)
                    else:
                        j = rng.randrange(m)
                    card = hand.pop(j)
                    owner[card] = p
                    played.append(card)
                played.sort()
                for card in played:
                    best_row = -1
                    best_last = 0
                    for i in row_range:
                        x = last[i]
                        if best_last < x < card:
                            best_row = i
                            best_last = x
                    if best_row < 0:
                        best_row = randbelow(nrows)
                        full = True
                    else:
                        full = count[best_row] >= cap
                    if full:
                        taken[owner[card]] += row_heads[best_row]
                        first[best_row] = last[best_row] = card
                        count[best_row] = 1
                        row_heads[best_row] = heads[card]
                    else:
                        last[best_row] = card
                        count[best_row] += 1
                        row_heads[best_row] += heads[card]
        elif simultaneous:
            for _ in range(k):
                played = []
                for p in seats:
                    card = pick_card(p)
                    owner[card] = p
                    played.append(card)
                played.sort()
                for card in played:
                    p = owner[card]
                    place(p, card)
        else:
            for _ in range(k):
                for p in seats:
                    card = pick_card(p)
                    place(p, card)

        # -- scoring and the end condition ---------------------------------------------------
        scores = tuple(taken)
        round_scores.append(scores)
        for p in seats:
            totals[p] += taken[p]
        if end_rounds is not None and rnd >= end_rounds:
            break
        if target is not None:
            top = max(totals)
            if (top > target) if above else (top >= target):
                break
    return FastResult(tuple(totals), tuple(round_scores), rnd)
