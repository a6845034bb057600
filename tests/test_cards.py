"""Deck facts (rules brief, "Cards"; seed 000's table), checked against a restatement here."""

from __future__ import annotations

from collections import Counter

import pytest

from take6 import HEADS, MAX_CARD, TOTAL_HEADS, Rules, deck, heads, total_heads


def spec_heads(card: int) -> int:
    """Seed 000's table read literally: 55 is the only 7; the other multiples of 11 are 5; the
    multiples of 10 are 3; the other multiples of 5 (not 55) are 2; the 76 others are 1."""
    sevens = {55}
    fives = {11, 22, 33, 44, 66, 77, 88, 99}
    threes = set(range(10, 101, 10))
    twos = {5, 15, 25, 35, 45, 65, 75, 85, 95}
    for value, cards in ((7, sevens), (5, fives), (3, threes), (2, twos)):
        if card in cards:
            return value
    return 1


def test_deck_is_104_distinct_cards() -> None:
    cards = deck()
    assert MAX_CARD == 104
    assert len(cards) == 104
    assert len(set(cards)) == 104
    assert cards == tuple(range(1, 105))


def test_total_heads_is_171() -> None:
    assert TOTAL_HEADS == 171
    assert total_heads(deck()) == 171
    assert sum(heads(c) for c in range(1, 105)) == 171


def test_heads_distribution() -> None:
    dist = Counter(heads(c) for c in deck())
    assert dist == {1: 76, 2: 9, 3: 10, 5: 8, 7: 1}


def test_55_has_seven_heads_and_is_the_only_seven() -> None:
    assert heads(55) == 7
    assert [c for c in deck() if heads(c) == 7] == [55]


@pytest.mark.parametrize(
    ("card", "expected"),
    [(1, 1), (5, 2), (10, 3), (11, 5), (15, 2), (20, 3), (22, 5), (44, 5), (50, 3), (51, 1),
     (54, 1), (56, 1), (59, 1), (65, 2), (66, 5), (99, 5), (100, 3), (104, 1)],
)  # fmt: skip
def test_heads_known_values(card: int, expected: int) -> None:
    # 51..54 and 56..59 carry 1 head: seed 001's "contains the digit 5" means "ends in 5".
    assert heads(card) == expected


def test_heads_agrees_with_independent_restatement() -> None:
    for c in range(1, 105):
        assert heads(c) == spec_heads(c) == HEADS[c], c


def test_heads_table_index_zero_unused() -> None:
    assert len(HEADS) == 105
    assert HEADS[0] == 0


def test_literal_digit_five_reading_would_contradict_171() -> None:
    # Known problem 1 in the brief: "contains the digit 5" would give 51..54 and 56..59 two
    # heads. The proof obligation's z3 model of that wording finds exactly those cards, a total
    # of 179 against the engine's 171.
    from proofs.core import Status
    from proofs.sources import check_seed_001_literal

    result = check_seed_001_literal()
    assert result.status is Status.FINDING and result.witness is not None
    changed = [51, 52, 53, 54, 56, 57, 58, 59]
    assert result.witness["cards"] == changed
    wording = result.witness["wording_heads"]
    assert isinstance(wording, dict)
    assert all(heads(c) == 1 and wording[str(c)] == 2 for c in changed)
    assert result.witness["total"] == 179 == total_heads(deck()) + len(changed)
    assert result.witness["deck_total"] == total_heads(deck()) == 171


@pytest.mark.parametrize("bad", [0, 105, -1, 1000])
def test_heads_rejects_non_cards(bad: int) -> None:
    with pytest.raises(ValueError, match=str(bad)):
        heads(bad)


@pytest.mark.parametrize("bad", [0, 105])
def test_deck_rejects_bad_size(bad: int) -> None:
    with pytest.raises(ValueError):
        deck(bad)


def test_max_row_is_27_heads() -> None:
    best = sum(sorted((spec_heads(c) for c in range(1, 105)), reverse=True)[:5])
    assert best == 27
    assert total_heads([55, 66, 77, 88, 99]) == 27


@pytest.mark.parametrize("variant", ["taktik", "logik"])
@pytest.mark.parametrize("n", range(2, 11))
def test_taktik_logik_deck_sizes_and_heads(variant: str, n: int) -> None:
    rules = Rules.for_variant(variant, players=n)
    assert rules.deck_size == 10 * n + 4
    assert rules.deck() == tuple(range(1, 10 * n + 5))
    assert deck(rules.deck_size) == rules.deck()
    assert total_heads(rules.deck()) == sum(spec_heads(c) for c in range(1, 10 * n + 5))


def test_taktik_deck_examples_from_seed_000() -> None:
    # Seed 000: 5 players use 1..54, 7 players 1..74; seed-derived: 2 players 1..24, 10 all 104.
    assert Rules.for_variant("taktik", players=5).deck()[-1] == 54
    assert Rules.for_variant("taktik", players=7).deck()[-1] == 74
    assert Rules.for_variant("taktik", players=2).deck_size == 24
    assert Rules.for_variant("taktik", players=10).deck() == deck()


def test_taktik_head_totals_table() -> None:
    # Counted by hand, ten cards at a time: 1..24 hold 5, 10, 11, 15, 20, 22 (20 heads) and 18
    # ones; each later block of ten adds 7 ones + (2 + 3 + 5), except 45..54 (45, 50: 8 + 5)
    # and 55..64 (55, 60: 8 + 10).
    expected = {2: 38, 3: 55, 4: 72, 5: 85, 6: 103, 7: 120, 8: 137, 9: 154, 10: 171}
    for n, total in expected.items():
        assert total_heads(Rules.for_variant("taktik", players=n).deck()) == total
        assert sum(spec_heads(c) for c in range(1, 10 * n + 5)) == total
