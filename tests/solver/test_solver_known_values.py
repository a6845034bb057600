"""Values worked out by hand (each test explains its calculation), with certificates checked."""

from __future__ import annotations

from fractions import Fraction

import pytest

from solver.api import solve
from solver.baseline import baseline_value
from solver.problem import make_problem
from solver.verify.certificate import build_certificate
from solver.verify.check import CertificateError, check_certificate
from take6.notation import parse_position


def _solve_checked(text: str, objective: str = "diff", player: int = 0) -> Fraction:
    pos = parse_position(text)
    result, search = solve(pos, objective, player)
    assert result.solved and result.value is not None
    report = check_certificate(build_certificate(search))
    assert report.value == result.value
    assert baseline_value(make_problem(pos, objective, player)) == result.value
    return result.value


def test_one_card_full_row() -> None:
    # Player 1's 6 follows 5 (the closest last card below it) on the full row 1,2,3,4,5 and takes
    # it: 1+1+1+1+2 = 6 heads. Player 2's 80 follows 70. diff = 0 - 6.
    assert _solve_checked("standard 1,2,3,4,5/50/60/70 6|80") == -6


def test_one_card_too_low_leaves_the_full_row_to_the_opponent() -> None:
    # Player 1's 5 is below every last card, so player 1 chooses a row, knowing player 2's 35 is
    # next. Rows: 10 (3 heads), 20 (3), 30..34 (3+1+1+5+1 = 11, full), 40 (3).
    # Taking 10, 20 or 40 (3 heads) leaves 35 to follow 34 and take the full row (11 heads):
    # diff 11 - 3 = 8. Taking the full row (11) lets 35 follow 20: diff -11. So player 1 takes a
    # 3-head row: value 8.
    assert _solve_checked("standard 10/20/30,31,32,33,34/40 5|35") == 8


def test_one_card_swapped_players_negate() -> None:
    assert _solve_checked("standard 10/20/30,31,32,33,34/40 35|5") == -8


def test_two_cards_mixed_value() -> None:
    # Rows A = 1,13,15,25,30 (full, 9 heads), B = 21 (1), C = 32 (1), D = 3,5,8,20,39 (full, 8).
    # Player 1 holds 2, 12; player 2 holds 10, 27. Only 27 is above a last card (21).
    # (2, 10): 2 is too low, player 1 takes B or C (1 head), 10 follows 2; next turn 12 follows
    #          10 and 27 follows 21 or 12: no heads. diff -1.
    # (2, 27): player 1 takes B (1 head): 27 follows 2. Next turn 10 is too low for player 2,
    #          who takes C (1 head); 12 follows 10. diff 1 - 1 = 0 (taking C instead gives -1).
    # (12, 10): 10 is too low, player 2 takes B or C (1); 12 follows 10. Next turn 2 is too low,
    #          player 1 takes the other 1-head row; 27 follows 21 or 12. diff 0.
    # (12, 27): 12 is too low, player 1 takes B or C (1); next turn 2 is too low again and player
    #          1 takes another 1-head row (C or the row 12): diff -2.
    # Matrix (rows 2, 12; columns 10, 27): [[-1, 0], [0, -2]], no saddle point. Equalising:
    # -x = -2(1 - x) gives x = 2/3 on card 2; -y = -2(1 - y) gives y = 2/3 on card 10;
    # value -2/3.
    text = "standard 1,13,15,25,30/21/32/3,5,8,20,39 2,12|10,27"
    assert _solve_checked(text) == Fraction(-2, 3)
    result, _ = solve(parse_position(text))
    assert result.strategies[0] == {2: Fraction(2, 3), 12: Fraction(1, 3)}
    assert result.strategies[1] == {10: Fraction(2, 3), 27: Fraction(1, 3)}


def test_two_cards_player_two_view_negates() -> None:
    text = "standard 1,13,15,25,30/21/32/3,5,8,20,39 2,12|10,27"
    assert _solve_checked(text, "diff", 1) == Fraction(2, 3)


def test_profi_left_placement_tie() -> None:
    # Profi: player 2's 3 goes first. No row ends below 3; the closest first card above it is 5
    # (gap 2), so 3 goes left of 5,6. Then player 1's 8: right of 6 (gap 2) or left of 10
    # (gap 2), a tie that player 1 settles. Nothing is taken either way: value 0.
    assert _solve_checked("profi 5,6/10/50/60 8|3") == 0


def test_profi_sixth_card_on_the_left_takes_the_row() -> None:
    # Profi: 8 fits only left of 10 (no row ends below 8); the row 10..14 is full, so player 1
    # takes it: 3 + 5 + 1 + 1 + 1 = 11 heads. Player 2's 80 follows 70. diff = 0 - 11.
    assert _solve_checked("profi 10,11,12,13,14/50/60/70 8|80") == -11


def test_profi_fits_nowhere() -> None:
    # Profi: 30 is above every first card (10, 12, 14, 16) and below every last (40..) —
    # it fits nowhere: player 1 takes a row of their choice; the cheapest is 14,41 (2 heads:
    # 14 -> 1, 41 -> 1). Player 2's 90 follows 60 (rows end 40, 50, 41, 60). diff = 0 - 2.
    assert _solve_checked("profi 10,40/12,50/14,41/16,60 30|90") == -2


def test_paranoid_three_players() -> None:
    # Player 1's 5 is too low and player 1 picks the row. With 3 players, player 3's 35 follows
    # 34 and takes 30..34 unless player 1 took that row. Player 1 (paranoid: minimising own
    # heads) takes a 3-head row: value 3. Player 2's 45 follows 40.
    assert _solve_checked("standard 10/20/30,31,32,33,34/40 5|45|35", "paranoid", 0) == 3


def test_paranoid_coalition_player() -> None:
    # For player 3, whose 35 takes the full row (11 heads) whenever it is still there:
    # player 1 is in the coalition and leaves it there (taking a 3-head row). Value 11.
    assert _solve_checked("standard 10/20/30,31,32,33,34/40 5|45|35", "paranoid", 2) == 11


@pytest.mark.parametrize(
    "text",
    [
        "standard 1,13,15,25,30/21/32/3,5,8,20,39 2,12|10,27",
        "standard 12,19,31,34/28/39/15,23,25,38 10,33|6,20",
        "standard 7,12,16,30,35/6,24,31,32/28/5,10,18,33,39 14,20|1,34",
    ],
)
def test_two_card_mixed_positions_agree_with_baseline(text: str) -> None:
    v = _solve_checked(text)
    assert v.denominator != 1


def test_checker_rejects_a_missing_node_and_a_wrong_objective() -> None:
    pos = parse_position("standard 1,13,15,25,30/21/32/3,5,8,20,39 2,12|10,27")
    _, search = solve(pos)
    cert = build_certificate(search)
    root = next(k for k in cert["nodes"] if k.endswith("2,12|10,27"))
    child = next(k for k in cert["nodes"] if k != root)
    pruned = dict(cert, nodes={k: v for k, v in cert["nodes"].items() if k != child})
    with pytest.raises(CertificateError, match="missing"):
        check_certificate(pruned)
    with pytest.raises(CertificateError):
        check_certificate(dict(cert, seat=1))  # the same strategies do not prove -(-2/3)
