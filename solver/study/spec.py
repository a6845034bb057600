"""What a study is: its settings (:class:`DealStudy`, :class:`DraftStudy`), checked, and the
items (:class:`Task`) it consists of."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.errors import SolverError
from solver.problem import Objective, default_objective
from take6.cards import MAX_CARD
from take6.text import excerpt

ROWS = 4
"""Rows on the table in every study (Logik)."""

Row = dict[str, Any]

EXECUTORS = ("process", "dask")
"""Where a study can run: a local process pool, or a Dask cluster (extra ``dist``)."""


class StudyError(SolverError):
    """Bad study settings, or a store that does not fit the run; the message is one line."""


# -- settings -------------------------------------------------------------------------------


def _check_objective(objective: Objective | str | None, players: int, player: int) -> Objective:
    if not isinstance(players, int) or not 2 <= players <= 10:
        raise StudyError(f"players must be 2..10, got {players!r}")
    if objective is None:
        obj = default_objective(players)
    elif isinstance(objective, Objective):
        obj = objective
    else:
        try:
            obj = Objective(objective)
        except ValueError:
            raise StudyError(f"unknown objective {excerpt(objective)} (diff or paranoid)") from None
    if obj is Objective.DIFF and players != 2:
        raise StudyError(f"objective diff needs exactly 2 players, got {players}")
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
        raise StudyError(f"no seat {excerpt(player)} (seats are 0..{players - 1})")
    return obj


def _check_hand_sizes(hand_sizes: Sequence[int], players: int) -> tuple[int, ...]:
    """The hand sizes, checked, without repeats and sorted (so the order given is no new
    study)."""
    if not hand_sizes:
        raise StudyError("give at least one hand size")
    out: list[int] = []
    for k in hand_sizes:
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise StudyError(f"hand size must be at least 1, got {k!r}")
        if players * k + ROWS > MAX_CARD:
            raise StudyError(
                f"{players} players with hands of {k} need {players * k + ROWS} cards, "
                f"but the deck has only {MAX_CARD}"
            )
        out.append(k)
    return tuple(sorted(set(out)))


def _check_draft(draft: object, players: int) -> tuple[str, ...]:
    """The drafting bot of each seat (one name given: every seat's), checked."""
    from take6.play.bots import BOTS

    if isinstance(draft, str):
        draft = tuple(draft.split(","))
    if not isinstance(draft, tuple | list):
        raise StudyError(f"draft must be bot names, got {excerpt(draft)}")
    names = tuple(draft)
    if not names:
        return ()
    for name in names:
        if name not in BOTS:
            raise StudyError(f"unknown drafting bot {excerpt(name)} (known: {', '.join(BOTS)})")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise StudyError(
            f"give one drafting bot, or one for each of the {players} seats, got "
            f"{len(names)} ({','.join(names)})"
        )
    return names


@dataclass(frozen=True)
class DealStudy:
    """Random Logik deals, play phase: ``deals`` deals for each hand size in ``hand_sizes``.

    ``player`` is a seat (from 0); ``objective`` defaults to ``diff`` for 2 players, ``paranoid``
    otherwise. ``node_limit`` (optional) stops a search; its item is then stored unsolved with
    bounds (node counts, unlike time, keep the results reproducible)."""

    hand_sizes: tuple[int, ...]
    deals: int
    seed: int = 0
    players: int = 2
    objective: Objective | str | None = None
    player: int = 0
    node_limit: int | None = None
    draft: tuple[str, ...] = ()
    """How each deal is drawn. Empty (the default): the deck shuffled, a uniformly random deal
    (which is what a draft of random picks gives). Otherwise the bot (:data:`take6.play.bots.BOTS`)
    that drafts each seat's hand from the face-up deck, one name for every seat or one a seat,
    picks in seat order from ``first_picker`` (:func:`solver.study.run.drafted_position`)."""
    first_picker: int = 0
    """The seat that picks first, from 0 (with ``draft`` only)."""
    kind: str = field(default="deals", init=False)

    def __post_init__(self) -> None:
        obj = _check_objective(self.objective, self.players, self.player)
        object.__setattr__(self, "objective", obj)
        object.__setattr__(
            self, "hand_sizes", _check_hand_sizes(tuple(self.hand_sizes), self.players)
        )
        if not isinstance(self.deals, int) or self.deals < 1:
            raise StudyError(f"deals must be at least 1, got {self.deals!r}")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise StudyError(f"seed must be an integer, got {self.seed!r}")
        if self.node_limit is not None and self.node_limit < 1:
            raise StudyError(f"node limit must be at least 1, got {self.node_limit}")
        object.__setattr__(self, "draft", _check_draft(self.draft, self.players))
        f = self.first_picker
        if not isinstance(f, int) or isinstance(f, bool) or not 0 <= f < self.players:
            raise StudyError(f"first picker must be a seat 0..{self.players - 1}, got {excerpt(f)}")
        if f and not self.draft:
            raise StudyError("a first picker needs a draft (the shuffled deals have no picks)")

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand_sizes": list(self.hand_sizes),
            "deals": self.deals,
            "seed": self.seed,
            "players": self.players,
            "objective": _objective(self.objective).value,
            "player": self.player,
            "node_limit": self.node_limit,
        }
        if self.draft:  # (absent otherwise: the stores of shuffled deals are unchanged)
            out["draft"] = list(self.draft)
            out["first_picker"] = self.first_picker
        return out

    def items(self) -> int:
        """How many items the study has (without building them)."""
        return len(self.hand_sizes) * self.deals

    def tasks(self) -> Iterator[Task]:
        """The items, generated one at a time (a study of 10^9 deals holds no list of them)."""
        for k in self.hand_sizes:
            for i in range(self.deals):
                yield self.task(k, i)

    def task(self, k: int, i: int) -> Task:
        """The item of hand size ``k`` and deal index ``i``."""
        return Task(
            kind="deals",
            item=f"k={k} deal={i}",
            hand_size=k,
            players=self.players,
            objective=_objective(self.objective),
            player=self.player,
            deal=i,
            seed=self.seed,
            node_limit=self.node_limit,
            first_picker=self.first_picker if self.draft else None,
            draft=self.draft,
        )


@dataclass(frozen=True)
class DraftStudy:
    """Logik drafts (draft and play solved together) for each hand size and first picker
    (seats from 0; all seats when ``first_pickers`` is empty)."""

    hand_sizes: tuple[int, ...]
    first_pickers: tuple[int, ...] = ()
    players: int = 2
    objective: Objective | str | None = None
    player: int = 0
    by_first_pick: bool = False
    """One item per first pick (its exact value; the draft's value is the best of them), so a
    large draft is shared among workers and survives being stopped one pick at a time."""
    pick_values: str = "exact"
    """``exact``: every first pick's exact value; ``bounds``: the draft's value and its optimal
    first picks exactly, the other picks bounded below it (:func:`solver.draft.solve.solve_draft`
    ``exact_picks``). By first pick, each pick is then tested against 0 and valued exactly only
    when worth 0 or more (a draft worth less than 0 is then left unsolved, in bounds)."""
    kind: str = field(default="drafts", init=False)

    def __post_init__(self) -> None:
        obj = _check_objective(self.objective, self.players, self.player)
        object.__setattr__(self, "objective", obj)
        object.__setattr__(
            self, "hand_sizes", _check_hand_sizes(tuple(self.hand_sizes), self.players)
        )
        firsts = tuple(self.first_pickers) or tuple(range(self.players))
        for f in firsts:
            if not isinstance(f, int) or isinstance(f, bool) or not 0 <= f < self.players:
                raise StudyError(
                    f"first picker must be a seat 0..{self.players - 1}, got {excerpt(f)}"
                )
        object.__setattr__(self, "first_pickers", tuple(sorted(set(firsts))))
        if self.pick_values not in ("exact", "bounds"):
            raise StudyError(
                f"pick values must be exact or bounds, got {excerpt(self.pick_values)}"
            )

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand_sizes": list(self.hand_sizes),
            "first_pickers": list(self.first_pickers),
            "players": self.players,
            "objective": _objective(self.objective).value,
            "player": self.player,
        }
        if self.by_first_pick:  # (absent otherwise: the stores of whole drafts are unchanged)
            out["by_first_pick"] = True
        if self.pick_values != "exact":  # (likewise)
            out["pick_values"] = self.pick_values
        return out

    def deck(self, k: int) -> int:
        """The size of the Logik deck for hands of ``k``: 1..k·players+4."""
        return k * self.players + 4

    def items(self) -> int:
        """How many items the study has."""
        if self.by_first_pick:
            return sum(self.deck(k) for k in self.hand_sizes) * len(self.first_pickers)
        return len(self.hand_sizes) * len(self.first_pickers)

    def tasks(self) -> Iterator[Task]:
        """The items, one at a time (by first pick: the high cards first, as the draft search
        takes them)."""
        for k in self.hand_sizes:
            for f in self.first_pickers:
                picks: list[int | None] = [None]
                if self.by_first_pick:
                    picks = list(range(self.deck(k), 0, -1))
                for c in picks:
                    yield Task(
                        kind="drafts",
                        item=f"k={k} first={f}" + ("" if c is None else f" pick={c}"),
                        hand_size=k,
                        players=self.players,
                        objective=_objective(self.objective),
                        player=self.player,
                        first_picker=f,
                        first_pick=c,
                        exact_picks=self.pick_values == "exact",
                    )


Study = DealStudy | DraftStudy


def _objective(objective: Objective | str | None) -> Objective:
    """A study's objective, which ``__post_init__`` has made an :class:`Objective`."""
    assert isinstance(objective, Objective)
    return objective


@dataclass(frozen=True)
class Task:
    """One item of a study, everything a worker needs to solve it (picklable)."""

    kind: str
    item: str
    hand_size: int
    players: int
    objective: Objective
    player: int
    deal: int | None = None
    seed: int | None = None
    first_picker: int | None = None
    node_limit: int | None = None
    first_pick: int | None = None
    memory: int | None = None
    """The compiled core's table budget in bytes for this item (not a parameter of the study:
    it changes no result)."""
    exact_picks: bool = True
    """A draft item: every first pick valued exactly (see :attr:`DraftStudy.pick_values`)."""
    draft: tuple[str, ...] = ()
    """A deal item: the drafting bot of each seat (:attr:`DealStudy.draft`; empty: shuffled)."""
    cells: str | None = None
    """A deal item: solve it by cells, every proof kept in this file (resumable within the
    item; not a parameter of the study: it changes no result)."""
    threads: int = 1
    """Search threads of the compiled core for this item (not a parameter of the study)."""
    proofs: str | None = None
    """A draft item: every proof of its draft search kept in this file (resumable within the
    item, :mod:`solver.draft.proofs`; not a parameter of the study)."""

    @property
    def label(self) -> str:
        """The item as people read it, seats counted from 1: a draft item's key ``k=3 first=0
        pick=10`` (the store's, seats from 0 like all its data) reads ``k=3 first picker 1
        pick=10``; a deal item's key is its label."""
        if self.kind != "drafts" or self.first_picker is None:
            return self.item
        text = f"k={self.hand_size} first picker {self.first_picker + 1}"
        return text if self.first_pick is None else f"{text} pick={self.first_pick}"


def optional_module(module: str, what: str, extra: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise StudyError(f"{what} needs {module} (pip install 'take6[{extra}]')") from None
