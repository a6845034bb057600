"""Safety: can one seat make sure of taking no head for the rest of the round?

A seat ``p`` is *safe* in a position when it has a way to play that takes no bull head
whatever the other seats do: they play as one side that knows every hand, and choose their rows
when too low to hurt ``p``. It is a pure question: a mixed strategy takes no head for sure only
if every card it plays does, so ``p`` is safe exactly when it has one card such that, for every
joint reply of the others, the turn takes no head from ``p`` (at ``p``'s own row choices one
option that takes nothing and stays safe will do; at another seat's choice every option must
stay safe) and leaves ``p`` safe in the next position.

Why it matters: heads are never negative, so a safe seat's heads are exactly 0 under optimal
play against it. For ``paranoid`` (a seat's own heads) safety of that seat means the value is
exactly 0; for ``diff`` between two players, safety of the maximiser proves value >= 0 and of
the minimiser value <= 0. The Logik draft proves its value 0 with it (:mod:`solver.draft`): an
AND-OR search over booleans, with no stage games and no rationals, much cheaper than the value.

This module is the readable reference; the compiled core restates it
(``solver/native/_core.cpp`` ``Searcher::safe``), and ``tests/solver/test_safety.py`` checks the
two against each other and against the exact value on random positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product

from solver.kernel import Hands, Kernel, Table


class Stopped(Exception):
    """A limit stopped the safety search (raised out of :meth:`Safety.safe`)."""


class Safety:
    """The safety search of one rules' kernel, with a table of the answers found.

    ``tick`` is called once per position expanded and returns True when a limit has stopped
    the search (the search then raises :class:`Stopped`; answers found so far are kept).
    """

    def __init__(self, kernel: Kernel, tick: Callable[[], bool] | None = None) -> None:
        self.kernel = kernel
        self.tick = tick
        self.table: dict[tuple[int, int, tuple[object, ...]], bool] = {}

    def safe(self, table: Table, hands: Hands, p: int) -> bool:
        """Whether seat ``p`` (0-based) can make sure of taking no head from this position."""
        if not hands[0]:
            return True
        n = len(hands)
        if len(hands[0]) == 1:
            plays = sorted((hands[q][0], q) for q in range(n))
            return self._turn(table, plays, 0, ((),) * n, p)
        key = (p, len(hands[0]), self.kernel.key(table, hands))
        found = self.table.get(key)
        if found is not None:
            return found
        if self.tick is not None and self.tick():
            raise Stopped
        others = [q for q in range(n) if q != p]
        answer = False
        for c in hands[p]:
            for reply in product(*(hands[q] for q in others)):
                cards = [0] * n
                cards[p] = c
                for q, d in zip(others, reply, strict=True):
                    cards[q] = d
                after = tuple(tuple(x for x in hands[q] if x != cards[q]) for q in range(n))
                plays = sorted((cards[q], q) for q in range(n))
                if not self._turn(table, plays, 0, after, p):
                    break
            else:
                answer = True
                break
        self.table[key] = answer
        return answer

    def _turn(
        self, table: Table, plays: Sequence[tuple[int, int]], idx: int, after: Hands, p: int
    ) -> bool:
        """The rest of a turn: the cards of ``plays[idx:]`` placed in order, then the position
        after it."""
        if idx == len(plays):
            return self.safe(table, after, p)
        card, q = plays[idx]
        _, options = self.kernel.place(table, card)
        outcomes = (
            not (q == p and taken > 0) and self._turn(t2, plays, idx + 1, after, p)
            for t2, taken in options
        )
        # The owner's choice (a single option when there is none): p needs one safe option,
        # another seat may pick any, so every option must be safe.
        return any(outcomes) if q == p else all(outcomes)


__all__ = ["Safety", "Stopped"]
