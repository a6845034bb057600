"""Proofs about the code: every restatement of the placement rule equals the reference.

The placement rule is defined once, by :func:`take6.placement.place` and
:func:`take6.placement.apply_move`. Three pieces of code restate it for speed:

* ``take6.play.fastsim`` (:func:`~take6.play.fastsim.placement_options` and
  :func:`~take6.play.fastsim.apply_placement`, on rows kept as four numbers, in place);
* ``solver.kernel`` (:meth:`Kernel.place`, on rows kept as four numbers, sorted by last card);
* the compiled core of the solver (``solver.native.NativeSearch.place``), when it is built.

This module checks each one against the reference on **every** case of a bounded domain
(:class:`Domain`): every table of distinct cards of the deck ``1..deck`` with ``1..rows`` rows,
each row ascending and holding ``1..capacity`` cards, every card of the deck not on it, for every
capacity ``1..capacity`` and every setting that changes placement (standard; Profi left with each
:class:`take6.rules.ProfiTie`). Passing is a proof *of that domain* (its size is reported), by
exhaustive enumeration, not a proof for every deck.

**Canonical outcome** (:func:`reference_outcome`, :func:`canonical`). A restatement answers
``(chooses, options)``: whether the card's owner chooses (too low, fits nowhere, a Profi tie),
and each option as ``(table, heads taken)``. What a table keeps depends on the restatement
(:data:`KEEPS`): every restatement keeps a row as ``(last, first, length, heads)``; ``"ends"``
keeps the rows in place and the options in the reference's order (a random owner draws an
option by its index); ``"sorted-ends"`` keeps the rows sorted by last card and the options as a
set. The reference's outcome is projected onto what the restatement keeps and compared exactly.

**Plugins.** ``proofs`` may not import ``solver`` (ARCHITECTURE.md), so the solver offers its
restatements through the entry-point group :data:`GROUP` (``pyproject.toml``): each entry point
names a function of no arguments returning ``(name, keeps, place, reason)`` tuples, ``place``
being a plain callable ``(rows, card, rules) -> (chooses, options)``, or ``None`` with the
``reason`` it cannot run here (the compiled core not built).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from importlib.metadata import entry_points

from proofs import core
from proofs.core import Obligation, Result, Status
from take6.cards import HEADS
from take6.errors import Take6Error
from take6.placement import apply_move, place
from take6.play import fastsim
from take6.rules import ProfiTie, Rules

GROUP = "take6.restatements"
"""The entry-point group through which other packages offer restatements of the rule."""

KEEPS = ("ends", "sorted-ends")
"""What a restatement's table keeps (see the module docstring)."""

Rows = tuple[tuple[int, ...], ...]
KRow = tuple[int, int, int, int]
"""A row as ``(last, first, length, heads)``."""
Outcome = tuple[bool, tuple[tuple[tuple[KRow, ...], int], ...]]
"""``(chooses, ((table, heads taken), ...))``, the canonical form compared."""
Answer = tuple[bool, Sequence[tuple[Sequence[Sequence[int]], int]]]
"""What a restatement returns (any sequences; made canonical by :func:`canonical`)."""
PlaceFn = Callable[[Rows, int, Rules], Answer]


class CodeProofError(Take6Error):
    """A restatement offered through :data:`GROUP` is malformed (one line, naming it)."""


@dataclass(frozen=True)
class Restatement:
    """One restatement of the placement rule: ``place`` is None when it cannot run here."""

    name: str
    keeps: str
    place: PlaceFn | None
    reason: str = ""


@dataclass(frozen=True)
class Setting:
    """A placement setting of the domain: the variant, the Profi tie rule, the row capacity."""

    profi: bool
    tie: ProfiTie
    capacity: int

    @property
    def label(self) -> str:
        kind = f"profi/{self.tie.value}" if self.profi else "standard"
        return f"{kind}, capacity {self.capacity}"


@dataclass(frozen=True)
class Domain:
    """Every table of the deck ``1..deck`` with ``1..rows`` rows of ``1..capacity`` cards."""

    deck: int = 8
    rows: int = 4
    capacity: int = 3

    def settings(self) -> list[Setting]:
        """Standard, then Profi with each tie rule, for every capacity ``1..capacity``."""
        kinds = [(False, ProfiTie.OWNER_CHOOSES)] + [(True, t) for t in ProfiTie]
        return [Setting(p, t, c) for p, t in kinds for c in range(1, self.capacity + 1)]

    def rules(self, setting: Setting, rows: int) -> Rules:
        """The rules of ``setting`` for a table of ``rows`` rows (2 players with one card)."""
        return Rules.for_variant(
            "profi" if setting.profi else "standard",
            2,
            hand_size=1,
            rows=rows,
            row_capacity=setting.capacity,
            deck_size=self.deck,
            profi_tie=setting.tie,
        )

    def describe(self) -> str:
        return (
            f"deck 1..{self.deck}, 1..{self.rows} rows, capacities 1..{self.capacity}, "
            f"standard and Profi × {len(ProfiTie)} tie rules"
        )


def tables(deck: int, rows: int, capacity: int) -> Iterator[Rows]:
    """Every table of ``rows`` rows (in place, so order matters) of distinct cards of
    ``1..deck``, each row ascending with ``1..capacity`` cards."""

    def build(free: tuple[int, ...], left: int) -> Iterator[Rows]:
        if left == 0:
            yield ()
            return
        for size in range(1, min(capacity, len(free) - left + 1) + 1):
            for row in itertools.combinations(free, size):
                rest = tuple(c for c in free if c not in row)
                for more in build(rest, left - 1):
                    yield (row, *more)

    yield from build(tuple(range(1, deck + 1)), rows)


def cases(domain: Domain, setting: Setting) -> Iterator[tuple[Rows, int, Rules]]:
    """Every ``(rows, card, rules)`` of ``domain`` under ``setting``."""
    for n in range(1, domain.rows + 1):
        rules = domain.rules(setting, n)
        for table in tables(domain.deck, n, setting.capacity):
            used = {c for row in table for c in row}
            for card in range(1, domain.deck + 1):
                if card not in used:
                    yield table, card, rules


def _ends(row: Sequence[int]) -> KRow:
    return (row[-1], row[0], len(row), sum(HEADS[c] for c in row))


def reference_answer(rows: Rows, card: int, rules: Rules) -> Answer:
    """The reference: :func:`take6.placement.place`, each option applied by ``apply_move``;
    each table projected to ``(last, first, length, heads)`` rows, in place."""
    placement = place(rows, card, rules)
    options = []
    for move in placement.options:
        new, taken = apply_move(rows, card, move, rules.row_capacity)
        options.append((tuple(_ends(r) for r in new), sum(HEADS[c] for c in taken)))
    return not placement.forced, options


def canonical(answer: Answer, keeps: str) -> Outcome:
    """``answer`` in the canonical form for what its restatement ``keeps``."""
    chooses, options = answer
    opts = [
        (tuple((int(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in table), int(heads))
        for table, heads in options
    ]
    if keeps == "sorted-ends":
        return bool(chooses), tuple(sorted(opts))
    return bool(chooses), tuple(opts)


def _project(answer: Answer, keeps: str) -> Outcome:
    chooses, options = answer
    if keeps == "sorted-ends":
        options = [(tuple(sorted(map(tuple, table))), heads) for table, heads in options]
    return canonical((chooses, options), keeps)


def reference_outcome(rows: Rows, card: int, rules: Rules, keeps: str) -> Outcome:
    """The reference's outcome projected onto what a restatement ``keeps``: for
    ``"sorted-ends"`` each table's rows sorted (by last card, which distinct cards never tie)."""
    return _project(reference_answer(rows, card, rules), keeps)


def fastsim_answer(rows: Rows, card: int, rules: Rules) -> Answer:
    """``take6.play.fastsim``'s placement: its four lists of numbers built from ``rows``, its
    :func:`~take6.play.fastsim.placement_options`, each move applied to a copy by its
    :func:`~take6.play.fastsim.apply_placement`."""
    first = [r[0] for r in rows]
    last = [r[-1] for r in rows]
    count = [len(r) for r in rows]
    heads = [sum(HEADS[c] for c in r) for r in rows]
    tie = fastsim.TIE_CODES[rules.profi_tie]
    chooses, moves = fastsim.placement_options(first, last, card, rules.profi_left, tie)
    options = []
    for row, side in moves:
        f, la, co, he = first[:], last[:], count[:], heads[:]
        _, got, _ = fastsim.apply_placement(
            f, la, co, he, HEADS, rules.row_capacity, card, row, side
        )
        options.append((tuple(zip(la, f, co, he, strict=True)), got))
    return chooses, options


def restatements() -> list[Restatement]:
    """The restatements to prove: fastsim's (in ``take6``), then those offered through
    :data:`GROUP`, by entry-point name."""
    found = [Restatement("fastsim", "ends", fastsim_answer)]
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        for item in ep.load()():
            if not (isinstance(item, tuple) and len(item) == 4):
                raise CodeProofError(f"entry point {ep.name!r} of {GROUP} offered {item!r}")
            name, keeps, fn, reason = item
            if keeps not in KEEPS or not (fn is None or callable(fn)):
                raise CodeProofError(f"restatement {name!r} of {ep.name!r}: bad keeps or place")
            found.append(Restatement(str(name), keeps, fn, str(reason)))
    return found


@dataclass(frozen=True)
class Counterexample:
    """A case on which a restatement and the reference differ."""

    setting: Setting
    rows: Rows
    card: int
    expected: Outcome
    got: Outcome | str

    def as_json(self) -> dict[str, object]:
        return {
            "setting": self.setting.label,
            "rows": [list(r) for r in self.rows],
            "card": self.card,
            "reference": _outcome_json(self.expected),
            "restatement": self.got if isinstance(self.got, str) else _outcome_json(self.got),
        }


def _outcome_json(outcome: Outcome) -> dict[str, object]:
    chooses, options = outcome
    return {
        "chooses": chooses,
        "options": [{"rows": [list(r) for r in t], "heads": h} for t, h in options],
    }


@dataclass(frozen=True)
class Check:
    """The result of checking one restatement on a domain."""

    restatement: Restatement
    cases: int
    seconds: float
    counterexample: Counterexample | None


def check_all(
    found: Sequence[Restatement],
    domain: Domain,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[Check]:
    """Compare each restatement that can run with the reference on every case of ``domain``
    (one pass: the reference's answer is computed once per case); a restatement stops being
    compared at its first difference (an exception it raises is a difference too). Those that
    cannot run get a check of 0 cases. ``progress(done, total, setting)`` is called before
    each setting of the domain and once at the end."""
    live = [r for r in found if r.place is not None]
    counts = dict.fromkeys((r.name for r in live), 0)
    seconds = dict.fromkeys((r.name for r in live), 0.0)
    wrong: dict[str, Counterexample] = {}
    clock = time.perf_counter
    settings = domain.settings()
    for i, setting in enumerate(settings):
        if progress is not None:
            progress(i, len(settings), setting.label)
        for rows, card, rules in cases(domain, setting):
            start = clock()
            answer = reference_answer(rows, card, rules)
            ref = {keeps: _project(answer, keeps) for keeps in KEEPS}
            shared = (clock() - start) / max(1, len(live))
            for r in live:
                if r.name in wrong:
                    continue
                assert r.place is not None
                start = clock()
                try:
                    got: Outcome | str = canonical(r.place(rows, card, rules), r.keeps)
                except Exception as exc:  # a crash on a valid case is a counterexample
                    got = f"raised {type(exc).__name__}: {exc}"
                seconds[r.name] += clock() - start + shared
                counts[r.name] += 1
                if got != ref[r.keeps]:
                    wrong[r.name] = Counterexample(setting, rows, card, ref[r.keeps], got)
    if progress is not None:
        progress(len(settings), len(settings), "")
    return [
        Check(r, counts.get(r.name, 0), seconds.get(r.name, 0.0), wrong.get(r.name)) for r in found
    ]


DOMAIN = Domain(deck=7, rows=5, capacity=3)
"""The domain ``take6 verify --code`` proves on: 465,304 cases per restatement (1..5 rows: the
standard game's 4 and Kids' 5)."""


def _summary(c: Check, domain: Domain) -> Result:
    r = c.restatement
    if r.place is None:
        return Result(Status.SKIPPED, f"skipped: {r.reason}")
    if c.counterexample is not None:
        cx = c.counterexample
        return Result.refuted(
            f"differs from take6.placement.place on {cx.setting.label}, rows "
            f"{[list(x) for x in cx.rows]}, card {cx.card} (case {c.cases:,})",
            cx.as_json(),
        )
    return Result.proved(
        f"equal to the reference (place + apply_move) on all {c.cases:,} cases: "
        f"{domain.describe()}",
        {"cases": c.cases, "domain": domain.describe(), "keeps": r.keeps},
    )


def outcomes(
    domain: Domain | None = None,
    found: Sequence[Restatement] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[core.Outcome]:
    """``take6 verify --code``: one obligation ``code.<name>`` per restatement (default: all
    of :func:`restatements`), proved by exhaustive enumeration of ``domain`` (default
    :data:`DOMAIN`) in one pass, skipped when it cannot run here (``progress`` as in
    :func:`check_all`)."""
    domain = DOMAIN if domain is None else domain
    checks = check_all(restatements() if found is None else found, domain, progress)
    out = []
    for c in checks:
        name = c.restatement.name
        ob = Obligation(
            f"code.{name}",
            f"{name}'s placement equals the reference on every case of a bounded domain",
            Status.PROVED,
            partial(_summary, c, domain),
        )
        out.append(core.Outcome(ob, ob.check(), c.seconds))
    return out
