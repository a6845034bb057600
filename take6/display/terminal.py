"""Terminal display with rich: rows with their bull heads, hands, scores. No rules here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from take6.cards import HEADS, Card

_NATURAL = 100_000
"""A width no table reaches: tables are measured at it to find their natural width."""


class PlainConsole(Console):
    """A rich console that does not wrap when its output is not a terminal: a line printed to a
    pipe or a file stays one line (``soft_wrap``), and a table wider than the console is printed
    at its natural width instead of squeezed to 80 columns. On a terminal it is rich's console.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("highlight", False)
        super().__init__(**kwargs)
        if not self.is_terminal:
            self.soft_wrap = True

    def print(self, *objects: Any, **kwargs: Any) -> None:
        if not self.is_terminal and "width" not in kwargs:
            wide = self.options.update_width(_NATURAL)
            natural = max(
                (self.measure(o, options=wide).maximum for o in objects if isinstance(o, Table)),
                default=0,
            )
            if natural > self.width:
                width = self.width
                self.width = natural  # print(width=...) can only narrow
                try:
                    super().print(*objects, **kwargs)
                finally:
                    self.width = width
                return
        super().print(*objects, **kwargs)


def console(**kwargs: Any) -> Console:
    """The console every command prints to (:class:`PlainConsole`; ``kwargs`` go to rich)."""
    return PlainConsole(**kwargs)


_HEADS_STYLE = {1: "", 2: "cyan", 3: "yellow", 5: "red", 7: "bold magenta"}


def card_text(card: Card, table: Sequence[int] = HEADS) -> Text:
    """A card with its heads (from ``table``, the rules' heads) as a superscript-like suffix,
    coloured by heads."""
    h = table[card]
    style = _HEADS_STYLE.get(h, "bold magenta" if h > 7 else "")
    return Text(f"{card}", style=style) + Text(f"·{h}" if h != 1 else "", style="dim")


def cards_text(cards: Sequence[Card], table: Sequence[int] = HEADS) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out += Text(" ")
        out += card_text(c, table)
    return out if cards else Text("-", style="dim")


def rows_table(
    rows: Sequence[Sequence[Card]], title: str | None = None, table: Sequence[int] = HEADS
) -> Table:
    """The table's rows: number, cards (with heads from ``table``), length and heads of each
    row."""
    out = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    out.add_column("row", justify="right")
    out.add_column("cards")
    out.add_column("n", justify="right")
    out.add_column("heads", justify="right")
    for i, row in enumerate(rows):
        heads = sum(table[c] for c in row)
        out.add_row(str(i + 1), cards_text(row, table), str(len(row)), str(heads))
    return out


def scores_table(
    names: Sequence[str],
    round_scores: Sequence[Sequence[int]],
    totals: Sequence[int],
    winners: Sequence[int] = (),
    title: str | None = None,
) -> Table:
    """Heads per round and totals per player; winners marked."""
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("player")
    for r in range(len(round_scores)):
        table.add_column(f"R{r + 1}", justify="right")
    table.add_column("total", justify="right", style="bold")
    for p, name in enumerate(names):
        mark = " ★" if p in winners else ""
        table.add_row(name + mark, *(str(rs[p]) for rs in round_scores), str(totals[p]))
    return table
