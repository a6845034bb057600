"""SVG pictures of positions and game states, for Jupyter (``_repr_svg_``) and documents.

Pure string building: no I/O, no rules. Each card is a rounded rectangle with its number and one
dot per bull head, coloured as the printed cards are (1 head white, 2 blue, 3 yellow, 5 red,
7 purple), with a ``<title>`` naming it ("55: 7 bull heads") for screen readers and tooltips.
A row shows its empty places up to its capacity and its heads; each player shows their hand,
bull pile and total. Every piece of text goes through :func:`html.escape`.

>>> from take6 import parse_position
>>> svg = position_svg(parse_position("standard 12/37/43/58 14,61|15,44"))
>>> svg.startswith("<svg") and ">61<" in svg
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from take6.cards import HEADS, Card
from take6.position import Position
from take6.rules import Rules
from take6.state import Phase, State

CARD_W, CARD_H = 40, 56
SMALL_W, SMALL_H = 30, 42
GAP = 6
MARGIN = 12
LABEL_W = 56
LINE = 20

_FILL = {1: "#ffffff", 2: "#d8ebff", 3: "#fff1a8", 5: "#ffd2cc", 7: "#e7d4ff"}
_INK = {1: "#333333", 2: "#1f5fa8", 3: "#8a6d00", 5: "#b3261e", 7: "#6a1fb3"}

__all__ = ["card_svg", "position_svg", "state_svg"]


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def _text(x: float, y: float, text: str, size: int = 13, anchor: str = "start", **kw: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{_attr(v)}"' for k, v in kw.items())
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}"{extra}>'
        f"{escape(text)}</text>"
    )


MAX_DOTS = 9
"""The most head dots drawn on a card (a custom table may give a card more heads)."""


def card_svg(
    card: Card,
    x: float,
    y: float,
    small: bool = False,
    note: str = "",
    face_down: bool = False,
    table: Sequence[int] = HEADS,
) -> str:
    """One card at (x, y): its number, a dot per bull head (from ``table``, the rules' heads) and
    a title (plus ``note``); ``face_down`` draws it with a dashed border (a card chosen this
    turn, not yet revealed)."""
    w, h = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
    heads = table[card] if 1 <= card < len(table) else 0
    fill = _FILL.get(heads, "#eeeeee")
    ink = _INK.get(heads, "#333333")
    title = f"{card}: {heads} bull head{'s' if heads != 1 else ''}"
    if note:
        title += f" ({note})"
    dash = ' stroke-dasharray="4 3"' if face_down else ""
    parts = [
        f'<g class="card" data-card="{card}"><title>{escape(title)}</title>',
        f'<rect x="{x:g}" y="{y:g}" width="{w}" height="{h}" rx="4" fill="{fill}" '
        f'stroke="{ink}" stroke-width="1.2"{dash}/>',
    ]
    r = 1.6 if small else 2.1
    step = 3.6 if small else 4.8
    dots = min(heads, MAX_DOTS)
    x0 = x + w / 2 - step * (dots - 1) / 2
    dots_y = y + (7 if small else 9)
    for i in range(dots):
        parts.append(f'<circle cx="{x0 + i * step:g}" cy="{dots_y:g}" r="{r}" fill="{ink}"/>')
    size = 13 if small else 18
    parts.append(
        _text(x + w / 2, y + h / 2 + size / 2 + 2, str(card), size, "middle", font_weight="bold")
    )
    parts.append("</g>")
    return "".join(parts)


def _slot(x: float, y: float) -> str:
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="none" '
        f'stroke="#bbbbbb" stroke-dasharray="3 3"/>'
    )


def _heads(cards: Sequence[Card], table: Sequence[int]) -> int:
    return sum(table[c] for c in cards)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


class _Canvas:
    """Elements stacked top to bottom; ``width`` grows to fit the widest line."""

    def __init__(self, table: Sequence[int] = HEADS) -> None:
        self.table = table
        self.parts: list[str] = []
        self.y = MARGIN
        self.width = 0.0

    def fit(self, right: float) -> None:
        self.width = max(self.width, right + MARGIN)

    def line(self, text: str, size: int = 14, bold: bool = False) -> None:
        self.y += size + 4
        kw = {"font_weight": "bold"} if bold else {}
        self.parts.append(_text(MARGIN, self.y, text, size, **kw))
        self.fit(MARGIN + len(text) * size * 0.6)
        self.y += 4

    def rows(self, rows: Sequence[Sequence[Card]], rules: Rules) -> None:
        self.y += GAP
        for i, row in enumerate(rows):
            top = self.y
            self.parts.append(_text(MARGIN, top + CARD_H / 2 + 5, f"row {i + 1}", 13))
            x = MARGIN + LABEL_W
            for j in range(max(rules.row_capacity, len(row))):
                self.parts.append(
                    card_svg(row[j], x, top, table=self.table) if j < len(row) else _slot(x, top)
                )
                x += CARD_W + GAP
            label = f"{_count(len(row), 'card')}, {_count(_heads(row, self.table), 'head')}"
            self.parts.append(_text(x + GAP, top + CARD_H / 2 + 5, label, 13))
            self.fit(x + GAP + 110)
            self.y += CARD_H + GAP

    def cards(
        self,
        label: str,
        cards: Sequence[Card],
        notes: Sequence[str] = (),
        captions: Sequence[str] = (),
    ) -> None:
        """A labelled line of small cards (a hand, a draft pool, the revealed cards), each with
        an optional note (in its title) and caption (under it)."""
        top = self.y
        self.parts.append(_text(MARGIN, top + SMALL_H / 2 + 5, label, 13))
        x = MARGIN + LABEL_W
        if not cards:
            self.parts.append(_text(x, top + SMALL_H / 2 + 5, "-", 13, fill="#888888"))
        for i, c in enumerate(cards):
            note = notes[i] if i < len(notes) else ""
            self.parts.append(card_svg(c, x, top, small=True, note=note, table=self.table))
            if i < len(captions):
                self.parts.append(
                    _text(x + SMALL_W / 2, top + SMALL_H + 13, captions[i], 11, "middle")
                )
            x += SMALL_W + 4
        self.fit(x)
        self.y += SMALL_H + GAP + (14 if captions else 0)

    def player(
        self,
        name: str,
        hand: Sequence[Card],
        pile: Sequence[Card],
        total: int,
        chosen: Card | None = None,
        mark: str = "",
    ) -> None:
        """A player's hand (and face-down choice) with their total; below it, their bull pile
        when it is not empty."""
        top = self.y
        self.cards(name, hand)
        x = MARGIN + LABEL_W + max(len(hand), 1) * (SMALL_W + 4) + 2 * GAP
        if chosen is not None:
            self.parts.append(
                card_svg(
                    chosen,
                    x,
                    top,
                    small=True,
                    note="chosen, face down",
                    face_down=True,
                    table=self.table,
                )
            )
            x += SMALL_W + 2 * GAP
        heads = _heads(pile, self.table)
        text = f"total {total}{mark}"
        if not pile:
            text += " · bull pile empty"
        self.parts.append(_text(x, top + SMALL_H / 2 + 5, text, 13, font_weight="bold"))
        self.fit(x + len(text) * 7.5)
        if pile:
            top = self.y
            self.cards(f"{name} pile", pile)
            x = MARGIN + LABEL_W + len(pile) * (SMALL_W + 4) + GAP
            text = f"{_count(len(pile), 'card')}, {_count(heads, 'head')} this round"
            self.parts.append(_text(x, top + SMALL_H / 2 + 5, text, 13))
            self.fit(x + len(text) * 7.5)

    def svg(self, title: str) -> str:
        height = self.y + MARGIN
        width = max(self.width, 320.0)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif" role="img">'
            f"<title>{escape(title)}</title>"
            f'<rect width="100%" height="100%" fill="#fafafa"/>' + "".join(self.parts) + "</svg>"
        )


def _header(rules: Rules) -> str:
    text = f"{rules.variant.value} · {rules.players} players"
    if rules.cards is not None or rules.deck_size != 104:
        text += f" · deck {rules.deck_text()}"
    if rules.head_table is not None:
        text += " · custom heads"
    return text


def position_svg(pos: Position) -> str:
    """An SVG picture of ``pos``: the rows (with empty places and heads), then each player's
    hand, bull pile and total (the total of earlier rounds plus this round's pile)."""
    rules = pos.rules
    canvas = _Canvas(rules.heads)
    canvas.line(_header(rules), bold=True)
    canvas.rows(pos.rows, rules)
    for p in range(pos.players):
        total = pos.totals[p] + _heads(pos.piles[p], rules.heads)
        canvas.player(f"P{p + 1}", pos.hands[p], pos.piles[p], total)
    return canvas.svg(f"6 nimmt! position: {pos}")


def state_svg(state: State) -> str:
    """An SVG picture of ``state``: round, turn and phase; the rows; the Logik draft pool; the
    revealed cards waiting to be placed and a pending row choice; and each player's hand, card
    chosen this turn (dashed: face down to the others), bull pile and total. At the end the
    winners are marked with a star."""
    rules = state.rules
    canvas = _Canvas(rules.heads)
    canvas.line(_header(rules), bold=True)
    status = f"round {state.round} · turn {state.turn + 1} · {state.phase.value}"
    if state.phase is Phase.GAME_OVER:
        best = "fewest" if rules.lowest_wins else "most"
        won = ", ".join(f"P{p + 1}" for p in state.winners())
        status = f"game over after {len(state.round_scores)} rounds · winner {won} ({best} heads)"
    elif state.phase is Phase.DEAL:
        status += " · waiting for the shuffle"
    canvas.line(status)
    if state.rows:
        canvas.rows(state.rows, rules)
    if state.phase is Phase.DRAFT:
        canvas.line(f"draft: P{state.picker + 1} picks", 13)
        canvas.cards("pool", state.pool)
    if state.queue:
        cards = [c for c, _ in state.queue]
        owners = [f"P{p + 1}" for _, p in state.queue]
        canvas.cards("to place", cards, [f"played by {o}" for o in owners], owners)
    if state.pending is not None:
        pend = state.pending
        rows = ", ".join(str(m.row + 1) for m in pend.placement.options)
        why = pend.placement.reason.value
        canvas.line(f"P{pend.player + 1} chooses the row for {pend.card} ({why}): rows {rows}", 13)
    over = state.phase is Phase.GAME_OVER
    winners = state.winners() if over else ()
    for p in range(state.players):
        chosen = state.chosen[p] if p < len(state.chosen) else None
        hand = state.hands[p] if p < len(state.hands) else ()
        pile = state.piles[p] if p < len(state.piles) else ()
        mark = " ★" if p in winners else ""
        canvas.player(f"P{p + 1}", hand, pile, state.score(p), chosen, mark)
    return canvas.svg(f"6 nimmt! {state.describe()}")
