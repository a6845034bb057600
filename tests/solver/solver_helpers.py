"""Random positions for the solver tests."""

from __future__ import annotations

import random
import signal

from hypothesis import strategies as st

from take6.cards import HEADS
from take6.position import Position
from take6.rules import ProfiTie


def ctrl_c_default() -> None:
    """``preexec_fn`` for a child that a test stops with SIGINT: a job started in the background
    inherits SIGINT ignored, and Python keeps it so (no KeyboardInterrupt would come)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def random_position(
    rng: random.Random,
    variant: str = "logik",
    players: int = 2,
    k: int = 3,
    top: int = 60,
    long_rows: bool = True,
) -> Position:
    """A random legal position: 4 ascending rows of 1..5 cards (often long, so takes happen) and
    ``players`` hands of ``k`` cards, all distinct cards from 1..top."""
    lens = [rng.choice([1, 2, 4, 5] if long_rows else [1]) for _ in range(4)]
    cards = rng.sample(range(1, top + 1), sum(lens) + players * k)
    rows, i = [], 0
    for n in lens:
        rows.append(sorted(cards[i : i + n]))
        i += n
    hands = [cards[i + p * k : i + (p + 1) * k] for p in range(players)]
    return Position.create(variant, rows, hands)


@st.composite
def position_strategy(
    draw: st.DrawFn,
    variant: str = "logik",
    players: int = 2,
    k: int = 3,
    top: int = 60,
    long_rows: bool | None = None,
) -> Position:
    """Like :func:`random_position`, drawn by hypothesis (so a failing position shrinks to a
    small one): 4 ascending rows of 1..5 cards (``long_rows`` None: drawn too) and ``players``
    hands of ``k`` cards, all distinct cards from 1..top."""
    long = draw(st.booleans()) if long_rows is None else long_rows
    lens = draw(st.lists(st.sampled_from([1, 2, 4, 5] if long else [1]), min_size=4, max_size=4))
    n = sum(lens) + players * k
    cards = draw(st.lists(st.integers(1, top), min_size=n, max_size=n, unique=True))
    rows, i = [], 0
    for m in lens:
        rows.append(sorted(cards[i : i + m]))
        i += m
    hands = [cards[i + p * k : i + (p + 1) * k] for p in range(players)]
    return Position.create(variant, rows, hands)


@st.composite
def any_position(draw: st.DrawFn) -> Position:
    """A random position of any kind the solver takes: 2 players with up to 4 cards, 3 with up
    to 3, 4 with up to 2; every variant, Profi with each tie rule; rows often long, so takes
    and choices happen."""
    players = draw(st.sampled_from([2, 2, 3, 4]))
    k = draw(st.integers(1, {2: 4, 3: 3, 4: 2}[players]))
    variant = draw(st.sampled_from(["logik", "standard", "taktik", "profi"]))
    pos = draw(position_strategy(variant, players, k, 12 * k + 20))
    if variant == "profi":
        tie = draw(st.sampled_from(list(ProfiTie)))
        pos = pos.with_rules(pos.rules.with_(profi_tie=tie))
    return pos


def relabel(pos: Position, rng: random.Random) -> Position | None:
    """The position with its cards renamed by a map that keeps their order and their heads
    (None if the random map runs out of cards; the greedy smallest map is tried last)."""
    used = sorted(pos.cards())
    for attempt in range(5):
        mapping: dict[int, int] = {}
        prev = 0
        for c in used:
            cands = [d for d in range(prev + 1, 105) if HEADS[d] == HEADS[c]]
            if not cands:
                break
            d = cands[rng.randrange(min(3, len(cands)))] if attempt < 4 else cands[0]
            mapping[c] = d
            prev = d
        else:
            return Position.create(
                pos.rules.variant,
                [[mapping[c] for c in r] for r in pos.rows],
                [[mapping[c] for c in h] for h in pos.hands],
            )
    return None
