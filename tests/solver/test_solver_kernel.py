"""The compact kernel restates the placement rule: check it against take6.placement."""

from __future__ import annotations

import random

import pytest

from solver.kernel import Kernel, to_table
from take6.cards import HEADS
from take6.placement import Reason, apply_move, place
from take6.rules import ProfiTie, Rules


def _random_rows(rng: random.Random) -> tuple[list[list[int]], list[int]]:
    lens = [rng.randint(1, 5) for _ in range(4)]
    cards = rng.sample(range(1, 50), sum(lens) + 6)
    rows, i = [], 0
    for n in lens:
        rows.append(sorted(cards[i : i + n]))
        i += n
    return rows, cards[i:]


@pytest.mark.parametrize(
    "rules",
    [
        Rules.for_variant("logik", players=2),
        Rules.for_variant("standard", players=2),
        Rules.for_variant("profi", players=2),
        Rules.for_variant("profi", players=2, profi_tie=ProfiTie.PREFER_LEFT),
        Rules.for_variant("profi", players=2, profi_tie=ProfiTie.PREFER_RIGHT),
    ],
    ids=["logik", "standard", "profi", "profi-left", "profi-right"],
)
def test_kernel_place_matches_reference(rules: Rules) -> None:
    rng = random.Random(1234)
    kernel = Kernel(rules)
    seen_choice = 0
    for _ in range(3000):
        rows, free = _random_rows(rng)
        for card in free:
            ref = place(rows, card, rules)
            expected = []
            for move in ref.options:
                new_rows, taken = apply_move(rows, card, move, rules.row_capacity)
                expected.append((to_table(new_rows, HEADS), sum(HEADS[c] for c in taken)))
            choice, got = kernel.place(to_table(rows, HEADS), card)
            assert choice == (ref.reason is not Reason.FORCED), (rows, card)
            assert sorted(got) == sorted(expected), (rows, card)
            seen_choice += choice
    assert seen_choice > 100


def test_key_ignores_lasts_between_the_same_hand_cards() -> None:
    kernel = Kernel(Rules.for_variant("logik", players=2))
    hands = ((10, 30), (20, 40))
    a = to_table([[1], [12], [24], [50]], HEADS)
    b = to_table([[2], [13], [27], [60]], HEADS)
    c = to_table([[2], [23], [27], [60]], HEADS)  # 23 lies above 20: a different order type
    assert kernel.key(a, hands) == kernel.key(b, hands)
    assert kernel.key(a, hands) != kernel.key(c, hands)


def test_profi_key_keeps_first_cards() -> None:
    kernel = Kernel(Rules.for_variant("profi", players=2))
    hands = ((10, 30), (20, 40))
    assert kernel.key(to_table([[1, 5], [12], [25], [50]], HEADS), hands) != kernel.key(
        to_table([[2, 5], [12], [25], [50]], HEADS), hands
    )
