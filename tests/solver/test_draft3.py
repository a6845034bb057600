"""3-player Logik drafts under ``paranoid`` (:func:`solver.draft.solve.solve_draft`) against a
naive minimax written here, on take6's reference engine only: plain recursion over the picks
(:func:`take6.state.legal_actions` in the draft phase), then over the play (every card of every
seat, the row choices by their owners), with each turn's simultaneous choice solved as a matrix
game by enumerating the chooser's mixtures (at most 2 cards in hand for k <= 2). Memoised by
the exact state only; no solver code."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from solver.draft.solve import solve_draft
from take6.rules import EndCondition, Rules
from take6.state import Phase, Pick, Play, State, apply, legal_actions, new_game


def matrix_min_max(rows: list[list[Fraction]]) -> Fraction:
    """min over the row player's mixtures of the max over columns (the row player minimises),
    for one or two rows: the minimum of the upper envelope of the columns' lines lies at an end
    or where two lines cross."""
    if len(rows) == 1:
        return max(rows[0])
    assert len(rows) == 2, "the naive solver handles at most 2 cards in the chooser's hand"
    a, b = rows
    points = {Fraction(0), Fraction(1)}
    for (a1, b1), (a2, b2) in itertools.combinations(zip(a, b, strict=True), 2):
        # x*a1 + (1-x)*b1 == x*a2 + (1-x)*b2
        den = (a1 - b1) - (a2 - b2)
        if den != 0:
            x = (b2 - b1) / den
            if 0 <= x <= 1:
                points.add(x)
    return min(max(x * u + (1 - x) * v for u, v in zip(a, b, strict=True)) for x in points)


class Naive:
    def __init__(self, players: int, hand_size: int, first_picker: int, player: int) -> None:
        self.rules = Rules.for_variant(
            "logik",
            players=players,
            hand_size=hand_size,
            first_picker=first_picker,
            end=EndCondition(target=None, rounds=1),
        )
        self.player = player
        self.memo: dict[object, Fraction] = {}

    def value(self, s: State) -> Fraction:
        """``player``'s heads at the end of the round, ``player`` minimising, the others
        maximising (paranoid)."""
        if s.phase is Phase.GAME_OVER:
            return Fraction(s.totals[self.player])
        if s.phase is Phase.ROW_CHOICE:
            assert s.pending is not None
            vals = [self.value(apply(s, a)) for a in legal_actions(s)]
            return min(vals) if s.pending.player == self.player else max(vals)
        # The heads still to come depend on the table and the hands only.
        now = s.score(self.player)
        key = (s.phase, s.rows, s.hands)
        if key in self.memo:
            return now + self.memo[key]
        if s.phase is Phase.DRAFT:
            (seat,) = s.to_act()
            vals = [self.value(apply(s, a)) for a in legal_actions(s)]
            v = min(vals) if seat == self.player else max(vals)
        else:
            others = [q for q in range(s.players) if q != self.player]
            rows = []
            for card in s.hands[self.player]:
                mine = apply(s, Play(self.player, card))
                cells = []
                for joint in itertools.product(*(s.hands[q] for q in others)):
                    t = mine
                    for q, c in zip(others, joint, strict=True):
                        t = apply(t, Play(q, c))
                    cells.append(self.value(t))
                rows.append(cells)
            v = matrix_min_max(rows)
        self.memo[key] = v - now
        return v

    def picks(self) -> dict[int, Fraction]:
        root = new_game(self.rules)
        return {
            a.card: self.value(apply(root, a)) for a in legal_actions(root) if isinstance(a, Pick)
        }


def test_matrix_game_known_values() -> None:
    # Matching pennies for the minimiser: value 1/2; a dominated column changes nothing.
    one, zero = Fraction(1), Fraction(0)
    assert matrix_min_max([[one, zero], [zero, one]]) == Fraction(1, 2)
    assert matrix_min_max([[one, zero, zero], [zero, one, zero]]) == Fraction(1, 2)
    assert matrix_min_max([[one, 2 * one], [3 * one, zero]]) == Fraction(3, 2)


@pytest.mark.parametrize(
    ("hand_size", "first_picker", "player"),
    [(1, f, p) for f in range(3) for p in range(3)] + [(2, 1, 0)],
)
def test_paranoid_3_player_draft_equals_naive_minimax(
    hand_size: int, first_picker: int, player: int
) -> None:
    picks = Naive(3, hand_size, first_picker, player).picks()
    best = min(picks.values()) if first_picker == player else max(picks.values())
    r = solve_draft(3, hand_size, first_picker, "paranoid", player)
    assert r.solved and r.value == best
    assert {p.card: p.value for p in r.picks} == picks
    assert r.best_picks() == sorted(c for c, v in picks.items() if v == best)
