"""The one tree walker of the solver: apply a joint action, settle the row choices by their
owners, step to the next position.

A *node* is a position between turns as the solver sees it: the rows and the hands (each hand
sorted; the bull piles and totals do not change what is still to be taken). A turn is played
with the rules core's :func:`take6.turn.resolve_turn`, so every module that walks the game tree
here — the principal line (:mod:`solver.api`), the certificate writer
(:mod:`solver.verify.certificate`),
the solved graph (:mod:`solver.graph`) and the baseline solver (:mod:`solver.baseline`) — plays
the reference rules. The certificate checker (:mod:`solver.verify.check`) keeps its own walk on
purpose: it must not trust this one.

Row choices are settled by their owners for their side: a max-side owner takes the option with
the highest value, a min-side owner the lowest; ties go to the first option (the lowest row).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from solver.matrix import Num
from solver.problem import Problem
from take6.cards import Card
from take6.placement import Rows
from take6.position import Position
from take6.turn import Turn, resolve_turn

Hands = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class Node:
    """A position between turns: the rows and the hands (sorted), by seat."""

    rows: Rows
    hands: Hands

    @classmethod
    def of(cls, position: Position) -> Node:
        return cls(position.rows, tuple(tuple(sorted(h)) for h in position.hands))

    @property
    def done(self) -> bool:
        """True when the hands are played out."""
        return not self.hands[0]

    def after(self, turn: Turn, cards: Sequence[Card]) -> Node:
        """The node after ``turn``, in which seat ``p`` played ``cards[p]``."""
        hands = tuple(tuple(c for c in h if c != cards[p]) for p, h in enumerate(self.hands))
        return Node(turn.rows, hands)


def seat_cards(problem: Problem, a: Sequence[Card], b: Sequence[Card]) -> tuple[Card, ...]:
    """The cards by seat when the max side plays the joint action ``a`` and the min side
    ``b``."""
    cards = [0] * problem.players
    for p, c in zip(problem.max_side + problem.min_side, (*a, *b), strict=True):
        cards[p] = c
    return tuple(cards)


def payoff(problem: Problem, turn: Turn) -> int:
    """The problem's payoff of the heads taken in ``turn``: ``sum_p weight[p] * heads_p``."""
    heads = turn.heads(problem.players)
    return sum(w * h for w, h in zip(problem.weights, heads, strict=True))


def outcomes(
    problem: Problem, node: Node, cards: Sequence[Card], choices: tuple[int, ...] = ()
) -> Iterator[Turn]:
    """Every complete turn from ``node`` with ``cards`` (by seat), over all row choices."""
    turn = resolve_turn(node.rows, cards, problem.rules, choices)
    if turn.pending is None:
        yield turn
        return
    for move in turn.pending.placement.options:
        yield from outcomes(problem, node, cards, (*choices, move.row))


def settle(
    problem: Problem,
    node: Node,
    cards: Sequence[Card],
    value: Callable[[Node], Num],
    choices: tuple[int, ...] = (),
) -> tuple[Num, Turn]:
    """The turn from ``node`` with ``cards`` (by seat, after the row ``choices`` already made)
    in which every remaining row choice is made by its owner for their side, and its value: the
    turn's :func:`payoff` plus ``value`` of the node after it (0 once the hands are empty)."""
    turn = resolve_turn(node.rows, cards, problem.rules, choices)
    pending = turn.pending
    if pending is None:
        child = node.after(turn, cards)
        rest = value(child) if not child.done else 0
        return payoff(problem, turn) + rest, turn
    maximise = pending.player in problem.max_side
    best: tuple[Num, Turn] | None = None
    for move in pending.placement.options:
        got = settle(problem, node, cards, value, (*choices, move.row))
        if best is None or (got[0] > best[0] if maximise else got[0] < best[0]):
            best = got
    assert best is not None
    return best


def option_values(
    problem: Problem,
    node: Node,
    cards: Sequence[Card],
    value: Callable[[Node], Num],
    choices: tuple[int, ...],
) -> list[tuple[int, Num]]:
    """At the pending row choice after ``choices``: each option's row and its settled value."""
    turn = resolve_turn(node.rows, cards, problem.rules, choices)
    assert turn.pending is not None
    return [
        (m.row, settle(problem, node, cards, value, (*choices, m.row))[0])
        for m in turn.pending.placement.options
    ]
