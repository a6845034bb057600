"""The solver's restatements of the placement rule, offered to ``take6 verify --code``.

``proofs`` may not import ``solver`` (ARCHITECTURE.md), so this module offers them through the
entry-point group ``take6.restatements`` (``pyproject.toml``): :func:`offer` returns
``(name, keeps, place, reason)`` tuples, ``place`` a plain callable
``(rows, card, rules) -> (chooses, [(table, heads taken), ...])`` taking the reference's rows,
its table the solver's compact sorted rows ``(last, first, length, heads)`` (``keeps`` is
``"sorted-ends"``, see ``proofs/code.py``), or ``None`` with the reason it cannot run here.

* ``kernel``: :meth:`solver.kernel.Kernel.place` on :func:`solver.kernel.to_table` of the rows;
* ``native``: the compiled core's placement (``NativeSearch.place``), when it is built;
* ``native-forced``: the core's in-place placement that its search uses for cards without a
  choice (``NativeSearch.place_forced``): its forced results must be the reference's, and it
  must decline (-1, rows unchanged) exactly where the owner chooses (the options are then
  ``place``'s, proved by ``native``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solver import native
from solver.kernel import Kernel, Option, to_table
from solver.problem import make_problem
from take6.position import Position
from take6.rules import Rules

Answer = tuple[bool, list[Option]]
PlaceFn = Callable[[Sequence[Sequence[int]], int, Rules], Answer]


def kernel_place(rows: Sequence[Sequence[int]], card: int, rules: Rules) -> Answer:
    """:meth:`Kernel.place` of ``card`` on the compact table of ``rows`` under ``rules``."""
    return Kernel(rules).place(to_table(rows, rules.heads), card)


_SEARCHES: dict[tuple[int, bool, object], native.NativeSearch] = {}


def _search(rules: Rules) -> native.NativeSearch:
    """A search object per (capacity, Profi, tie rule), the only settings placement reads."""
    key = (rules.row_capacity, rules.profi_left, rules.profi_tie)
    search = _SEARCHES.get(key)
    if search is None:
        variant = "profi" if rules.profi_left else "standard"
        pos = Position.create(variant, [[1], [2], [3], [4]], [[10], [11]])
        settings = rules.with_(rows=4, players=2, hand_size=1, deck_size=104)
        problem = make_problem(pos.with_rules(settings))
        search = native.NativeSearch(problem, memory=native.MIN_MEMORY)
        _SEARCHES[key] = search
    return search


def native_place(rows: Sequence[Sequence[int]], card: int, rules: Rules) -> Answer:
    """The compiled core's placement of ``card`` on the compact table of ``rows``."""
    return _search(rules).place(to_table(rows, rules.heads), card)


def native_forced_place(rows: Sequence[Sequence[int]], card: int, rules: Rules) -> Answer:
    """The core's in-place placement; where it declines, the owner's options from ``place``
    (a decline where the rule forces the card, or a table changed by a decline, shows up as a
    difference from the reference)."""
    search = _search(rules)
    table = to_table(rows, rules.heads)
    taken, after = search.place_forced(table, card)
    if taken >= 0:
        return False, [(after, taken)]
    if after != table:
        return True, [(after, -1)]  # it changed the rows although it declined: never equal
    return True, search.place(table, card)[1]


def offer() -> list[tuple[str, str, PlaceFn | None, str]]:
    """The restatements, for the entry point ``take6.restatements``."""
    built = native.AVAILABLE
    why = native.unavailable_reason()
    return [
        ("kernel", "sorted-ends", kernel_place, ""),
        ("native", "sorted-ends", native_place if built else None, why),
        ("native-forced", "sorted-ends", native_forced_place if built else None, why),
    ]
