"""Hypothesis strategies for tables of rows (shared by the proofs tests)."""

from __future__ import annotations

from hypothesis import strategies as st

Rows = tuple[tuple[int, ...], ...]


@st.composite
def tables(
    draw: st.DrawFn, rows: int = 4, top: int = 104, extra: int = 1, capacity: int = 5
) -> tuple[Rows, list[int]]:
    """A table of ``rows`` strictly ascending rows of 1..capacity distinct cards from 1..top, and
    ``extra`` more distinct cards not on it."""
    lengths = draw(st.lists(st.integers(1, capacity), min_size=rows, max_size=rows))
    cards = draw(
        st.lists(
            st.integers(1, top),
            min_size=sum(lengths) + extra,
            max_size=sum(lengths) + extra,
            unique=True,
        )
    )
    out: list[tuple[int, ...]] = []
    at = 0
    for n in lengths:
        out.append(tuple(sorted(cards[at : at + n])))
        at += n
    return tuple(out), cards[at:]
