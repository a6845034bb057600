"""The placement rule against a deliberately naive specification written here from the brief."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from take6 import Move, Placement, ProfiTie, Reason, Rules, Side, apply_move, place

Table = tuple[tuple[int, ...], ...]

STANDARD = Rules.for_variant("standard")
PROFI = {tie: Rules.for_variant("profi", profi_tie=tie) for tie in ProfiTie}


def spec_place(rows: Table, card: int, profi: bool, tie: ProfiTie) -> Placement:
    """The rule as the brief states it, by listing every option with its distance."""
    # (distance, side, row) for every legal spot: after a lower last card; in Profi also before a
    # higher first card. Never between two cards.
    spots = [(card - r[-1], Side.RIGHT, i) for i, r in enumerate(rows) if r[-1] < card]
    if profi:
        spots += [(r[0] - card, Side.LEFT, i) for i, r in enumerate(rows) if r[0] > card]
    if not spots:
        reason = Reason.NO_FIT if profi else Reason.TOO_LOW
        return Placement(reason, tuple(Move(i, Side.TAKE) for i in range(len(rows))))
    best = min(d for d, _, _ in spots)
    closest = [Move(i, side) for d, side, i in spots if d == best]
    if len(closest) == 1:
        return Placement(Reason.FORCED, (closest[0],))
    assert profi and len(closest) == 2
    if tie is ProfiTie.PREFER_RIGHT:
        return Placement(Reason.FORCED, tuple(m for m in closest if m.side is Side.RIGHT))
    if tie is ProfiTie.PREFER_LEFT:
        return Placement(Reason.FORCED, tuple(m for m in closest if m.side is Side.LEFT))
    return Placement(Reason.TIE, tuple(sorted(closest, key=lambda m: m.row)))


def spec_apply(rows: Table, card: int, move: Move) -> tuple[Table, tuple[int, ...]]:
    out = [list(r) for r in rows]
    row = out[move.row]
    if move.side is Side.TAKE or len(row) == 5:
        taken = tuple(row)
        out[move.row] = [card]
    else:
        taken = ()
        if move.side is Side.RIGHT:
            row.append(card)
        else:
            row.insert(0, card)
    return tuple(tuple(r) for r in out), taken


@st.composite
def tables(draw: Any, nrows: int = 4) -> Table:
    sizes = draw(st.lists(st.integers(1, 5), min_size=nrows, max_size=nrows))
    # A narrow card range makes ties, full rows and no-fit cards common.
    hi = draw(st.sampled_from([26, 40, 104]))
    n = sum(sizes)
    cards = draw(st.lists(st.integers(1, hi), unique=True, min_size=n, max_size=n))
    rows, at = [], 0
    for s in sizes:
        rows.append(tuple(sorted(cards[at : at + s])))
        at += s
    return tuple(rows)


@st.composite
def table_and_card(draw: Any) -> tuple[Table, int]:
    rows = draw(tables())
    used = {c for r in rows for c in r}
    free = [c for c in range(1, 105) if c not in used]
    near = [c for c in free if c <= max(used) + 3]
    card = draw(st.sampled_from(near) | st.sampled_from(free))
    return rows, card


def check_result(rows: Table, card: int, move: Move) -> None:
    new_rows, taken = apply_move(rows, card, move, 5)
    assert (new_rows, taken) == spec_apply(rows, card, move)
    # Rows keep their place, stay 1..5 ascending, and no card is lost or made.
    assert len(new_rows) == len(rows)
    for i, (old, new) in enumerate(zip(rows, new_rows, strict=True)):
        if i != move.row:
            assert new == old
        assert 1 <= len(new) <= 5
        assert list(new) == sorted(set(new))
    before = sorted([c for r in rows for c in r] + [card])
    after = sorted([c for r in new_rows for c in r] + list(taken))
    assert before == after
    assert card in new_rows[move.row]


@given(table_and_card())
def test_standard_placement_matches_spec(tc: tuple[Table, int]) -> None:
    rows, card = tc
    got = place(rows, card, STANDARD)
    assert got == spec_place(rows, card, profi=False, tie=ProfiTie.OWNER_CHOOSES)
    if got.forced:
        assert len(got.options) == 1 and got.options[0].side is Side.RIGHT
    else:
        # Too low: lower than every row's last card, and the owner may take any row.
        assert all(card < r[-1] for r in rows)
        assert [m.row for m in got.options] == [0, 1, 2, 3]
    for move in got.options:
        check_result(rows, card, move)


def free_cards(rows: Table) -> list[int]:
    used = {c for r in rows for c in r}
    return [c for c in range(1, 105) if c not in used]


@given(tables())
def test_standard_every_card_exactly_one_row_or_too_low(rows: Table) -> None:
    for card in free_cards(rows):
        got = place(rows, card, STANDARD)
        assert got == spec_place(rows, card, profi=False, tie=ProfiTie.OWNER_CHOOSES)
        assert (got.reason is Reason.FORCED) == any(r[-1] < card for r in rows)


@pytest.mark.parametrize("tie", list(ProfiTie))
@given(rows=tables())
def test_profi_every_card_matches_spec(tie: ProfiTie, rows: Table) -> None:
    for card in free_cards(rows):
        check_profi(rows, card, tie)


@pytest.mark.parametrize("tie", list(ProfiTie))
@given(tc=table_and_card())
def test_profi_placement_matches_spec(tie: ProfiTie, tc: tuple[Table, int]) -> None:
    check_profi(*tc, tie)


def check_profi(rows: Table, card: int, tie: ProfiTie) -> None:
    got = place(rows, card, PROFI[tie])
    assert got == spec_place(rows, card, profi=True, tie=tie)
    if got.reason is Reason.TIE:
        # At most two options, one each side, at equal distance.
        assert tie is ProfiTie.OWNER_CHOOSES
        right, left = sorted(got.options, key=lambda m: m.side.value, reverse=True)
        assert (right.side, left.side) == (Side.RIGHT, Side.LEFT)
        assert card - rows[right.row][-1] == rows[left.row][0] - card
    for move in got.options:
        assert got.option_for_row(move.row) == move
        check_result(rows, card, move)


@given(table_and_card())
def test_profi_left_never_used_when_standard_fits(tc: tuple[Table, int]) -> None:
    # Standard placement never puts a card on the left; Profi only when it is strictly closer
    # (or ties, depending on the setting).
    rows, card = tc
    std = place(rows, card, STANDARD)
    assert all(m.side is not Side.LEFT for m in std.options)
    pro = place(rows, card, PROFI[ProfiTie.PREFER_RIGHT])
    if pro.forced and pro.options[0].side is Side.LEFT:
        left_gap = rows[pro.options[0].row][0] - card
        assert all(card - r[-1] > left_gap for r in rows if r[-1] < card)


# -- named cases -------------------------------------------------------------------------------


def test_forced_smallest_difference() -> None:
    rows = ((29,), (30,), (12,), (50,))
    assert place(rows, 33, STANDARD) == Placement(Reason.FORCED, (Move(1, Side.RIGHT),))


def test_full_row_is_taken_by_the_sixth_card() -> None:
    rows = ((1, 2, 3, 4, 5), (10,), (20,), (30,))
    pl = place(rows, 6, STANDARD)
    assert pl.options == (Move(0, Side.RIGHT),)
    new_rows, taken = apply_move(rows, 6, pl.options[0], 5)
    assert taken == (1, 2, 3, 4, 5)
    assert new_rows == ((6,), (10,), (20,), (30,))


def test_too_low_offers_every_row() -> None:
    rows = ((10,), (20, 21), (30,), (40,))
    pl = place(rows, 3, STANDARD)
    assert pl.reason is Reason.TOO_LOW
    assert pl.options == tuple(Move(i, Side.TAKE) for i in range(4))
    new_rows, taken = apply_move(rows, 3, pl.option_for_row(1) or Move(9, Side.TAKE), 5)
    assert taken == (20, 21)
    assert new_rows == ((10,), (3,), (30,), (40,))
    assert pl.option_for_row(4) is None


def test_profi_left_placement() -> None:
    rows = ((11, 15), (40,), (50,), (60,))
    pl = place(rows, 10, PROFI[ProfiTie.OWNER_CHOOSES])
    assert pl == Placement(Reason.FORCED, (Move(0, Side.LEFT),))
    assert apply_move(rows, 10, pl.options[0], 5) == (((10, 11, 15), (40,), (50,), (60,)), ())


def test_profi_closest_of_left_and_right() -> None:
    rows = ((11, 15), (25,), (50,), (60,))
    # 23: 8 after 15, 2 before 25 -> left of 25.
    assert place(rows, 23, PROFI[ProfiTie.OWNER_CHOOSES]).options == (Move(1, Side.LEFT),)
    # 17: 2 after 15, 8 before 25 -> right of 15.
    assert place(rows, 17, PROFI[ProfiTie.OWNER_CHOOSES]).options == (Move(0, Side.RIGHT),)


def test_profi_tie_settings() -> None:
    rows = ((5, 18), (22, 30), (50,), (60,))
    own = place(rows, 20, PROFI[ProfiTie.OWNER_CHOOSES])
    assert own.reason is Reason.TIE
    assert own.options == (Move(0, Side.RIGHT), Move(1, Side.LEFT))
    assert place(rows, 20, PROFI[ProfiTie.PREFER_RIGHT]).options == (Move(0, Side.RIGHT),)
    assert place(rows, 20, PROFI[ProfiTie.PREFER_LEFT]).options == (Move(1, Side.LEFT),)


def test_profi_no_fit() -> None:
    # 50 is above every first card and below every last card.
    rows = ((10, 60), (20, 70), (30, 80), (40, 90))
    pl = place(rows, 50, PROFI[ProfiTie.OWNER_CHOOSES])
    assert pl.reason is Reason.NO_FIT
    assert pl.options == tuple(Move(i, Side.TAKE) for i in range(4))
    # The same card in the standard game is too low.
    assert place(rows, 50, STANDARD).reason is Reason.TOO_LOW


def test_profi_sixth_card_on_the_left_takes_the_row() -> None:
    rows = ((11, 12, 13, 14, 15), (40,), (50,), (60,))
    pl = place(rows, 10, PROFI[ProfiTie.OWNER_CHOOSES])
    assert pl.options == (Move(0, Side.LEFT),)
    assert apply_move(rows, 10, pl.options[0], 5) == (
        ((10,), (40,), (50,), (60,)),
        (11, 12, 13, 14, 15),
    )


def test_rows_keep_their_place_when_taken() -> None:
    rows = ((3,), (17, 20), (58,), (96,))
    new_rows, taken = apply_move(rows, 2, Move(3, Side.TAKE), 5)
    assert new_rows == ((3,), (17, 20), (58,), (2,))
    assert taken == (96,)


@given(tables(nrows=5), st.data())
def test_kids_five_rows(rows: Table, data: st.DataObject) -> None:
    used = {c for r in rows for c in r}
    card = data.draw(st.sampled_from([c for c in range(1, 105) if c not in used]))
    kids = Rules.for_variant("kids")
    got = place(rows, card, kids)
    assert got == spec_place(rows, card, profi=False, tie=ProfiTie.OWNER_CHOOSES)
    for move in got.options:
        new_rows, taken = apply_move(rows, card, move, kids.row_capacity)
        assert (new_rows, taken) == spec_apply(rows, card, move)
