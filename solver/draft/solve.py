"""The exact Logik draft solver: minimax over the picks, leaves valued by the play solver.

Logik with hand size ``k`` and ``n`` players uses the deck 1..k·n+4, all face up. Starting with
the first picker and going round in seat order, each player takes one card at a time until
every player holds ``k``; the 4 cards left start the rows, one card each; then the round is
played with every hand known. The draft is a sequential game of perfect information whose
leaves are the exact values of the play that follows (:mod:`solver.search`).

What the value means (a :class:`DraftResult`'s ``value``; a problem as in
:mod:`solver.problem`):

* ``diff`` (2 players only), from ``player``'s view (default seat 0, player 1): the heads the
  other player takes minus the heads ``player`` takes in the round, when both draft optimally
  and then play optimally (mixed strategies each turn). Positive is good for ``player``.
* ``paranoid`` (any number of players), for ``player``: ``player``'s own heads in the round,
  when ``player`` drafts and plays to minimise them and every other player drafts and plays as
  one coalition to maximise them.

In both cases the max side of the play problem also maximises in the draft (a pick by one of
its seats is a max node, a pick by the other side a min node), so the draft value is the exact
minimax value of the whole round. It is exact when ``solved``; a time limit leaves proven
bounds ``lower <= value <= upper`` instead, never a wrong exact value.

The pieces:

* **Search**: alpha-beta with fail-soft bounds. :meth:`DraftSearch.value` takes a window
  ``(alpha, beta)`` and returns an interval ``[lo, hi]`` holding the value that is exact, or
  lies at or below alpha, or at or above beta (the contract of
  :meth:`solver.search.Search.value`, which the leaves use with the same window, so the play
  solver also stops as soon as a leaf cannot matter).
* **Transposition table** on the picked sets: the key is the tuple of each seat's picked cards
  as a bit mask (bit ``c - 1`` for card ``c``). The order of the picks does not matter, only
  who holds what; whose turn it is follows from the number of cards picked. Entries are bounds
  plus the best pick found (tried first when the node is searched again). One dict per number
  of cards picked, for the draft nodes and the safety answers (the leaves have their own): the
  tables together hold at most a budget of entries (``memory``, :data:`ENTRY_BYTES` each), and
  past it the entries nearest the leaves (the cheapest to find again), oldest first, are
  dropped until a quarter of the budget is free. Dropping loses work, never a proof.
* **Move ordering**: the table's best pick first, then (under ``paranoid``) the pick that last
  refuted a node with as many cards picked (a killer), then the high cards before the low
  ones; a pick whose node the tables already show to cut goes before all of them. Killers,
  here and in the compiled core's leaf searches, pay under ``paranoid`` and cost under
  ``diff`` (measured, :attr:`DraftSearch.killers`).
* **Aspiration**: each first pick is searched with the window ``(g - 1, g + 1)`` around the
  value ``g`` of the pick before (0 at first), and again with the full window only if that
  fails; the principal line checks each pick with the window around the node's value.
* **Leaf cache**, keyed canonically (see :meth:`DraftSearch.leaf_key`): a leaf is fixed by
  the seat holding each card (the rows hold the rest). The deck is fixed, so an
  order-preserving, heads-preserving relabelling of the cards maps a leaf only to itself; the
  canonical key uses the symmetries of the play instead. For ``diff`` the two seats play the
  same game, so exchanging the hands negates the value: the key is the smaller of the two
  orders, with a sign. For ``paranoid`` the coalition's seats are interchangeable (they choose
  jointly and all maximise), so their hands are sorted. All leaves share one play
  :class:`~solver.search.Search`, whose own table is keyed by the order and heads of the live
  cards only (:mod:`solver.kernel`), so positions reached after a turn are shared between leaves.
"""

from __future__ import annotations

import functools
import gc
import math
import os
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import islice
from typing import Any

from solver.api import Turn, fraction_text, make_search, solve
from solver.draft.proofs import MIN_SECONDS, DraftProofs, header, read_shared
from solver.errors import SolverError
from solver.kernel import to_table
from solver.matrix import Num
from solver.native import default_memory
from solver.problem import Objective, Problem, make_problem
from solver.search import INF, Search
from take6.cards import MAX_CARD
from take6.display.progress import count
from take6.errors import RulesError
from take6.io.record import rules_to_json
from take6.position import Position
from take6.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from take6.text import excerpt

ROWS = 4
"""Logik lays out 4 rows."""

Masks = tuple[int, ...]
"""Each seat's picked cards as a bit mask (bit ``c - 1`` stands for card ``c``)."""

ENTRY_BYTES = 300
"""What one entry of the draft's tables is counted as against their budget (``memory``): its
key, bounds and dict slot. Measured as the growth of the process's resident size over the
entries held, with a 16 MiB play table: about 205 bytes (3 players, k = 4, 246 k entries);
the rest is headroom for a dict's growth and long fractions."""

NARROW_TRIES = 2
"""Narrow windows :meth:`DraftSearch.exact` tries, each at the bound the one before proved,
before it widens the window."""

MIN_ENTRIES = 1 << 12
"""The fewest entries a budget may allow (the tables' own minimum)."""


class DraftError(SolverError):
    """Draft settings the solver does not accept (a ``ValueError``; one line, names the input)."""


@dataclass(frozen=True)
class DraftPick:
    """One pick of the draft: ``seat`` (0-based) takes ``card``."""

    seat: int
    card: int


@dataclass(frozen=True)
class PickValue:
    """A first pick and the draft value after it: exact (``value``) or proven bounds."""

    card: int
    value: Fraction | None
    lower: Fraction
    upper: Fraction


@dataclass
class DraftStats:
    nodes: int = 0
    """Draft nodes expanded (picks searched)."""
    leaves: int = 0
    """Leaf queries answered by the play solver."""
    leaf_hits: int = 0
    """Leaf queries answered by the leaf cache."""
    table_hits: int = 0
    """Draft nodes answered by the transposition table."""
    dropped: int = 0
    """Table entries dropped to keep within the memory budget."""


@dataclass
class DraftResult:
    """What :func:`solve_draft` found (see the module docstring for what the value means).

    ``picks`` holds every possible first pick with its value; ``line`` is a principal draft line
    (every pick optimal), ``position`` the deal it leads to and ``play`` a principal line of the
    play that follows, whose value is the draft value. The line and the play are empty unless
    ``solved``.
    """

    players: int
    hand_size: int
    first_picker: int
    problem: Problem
    solved: bool
    value: Fraction | None
    lower: Fraction
    upper: Fraction
    picks: list[PickValue] = field(default_factory=list)
    line: list[DraftPick] = field(default_factory=list)
    position: Position | None = None
    play: list[Turn] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    nodes: int = 0
    leaves: int = 0
    leaf_hits: int = 0
    play_nodes: int = 0
    dropped: int = 0
    """Entries of the draft's own tables dropped to keep within its memory budget."""
    interrupted: bool = False
    """Ctrl-C stopped the search (the bounds are proven; the compiled core's leaf searches
    catch Ctrl-C themselves, the Python search's raise it)."""
    core: str = "python"
    """The play solver of the leaves: ``"native"`` (the compiled core) or ``"python"``."""
    core_note: str = ""
    """Why the Python search ran when the compiled core was wanted ('' otherwise)."""
    proofs_read: int = 0
    """Proofs read from the ``proofs`` file (0 without one)."""
    proofs_written: int = 0
    """Proofs this run added to it."""

    @property
    def objective(self) -> Objective:
        return self.problem.objective

    @property
    def player(self) -> int:
        return self.problem.player

    def best_picks(self) -> list[int]:
        """The first picks that reach the draft value (empty unless solved)."""
        return [p.card for p in self.picks if self.solved and p.value == self.value]

    def to_json(self) -> dict[str, Any]:
        """The JSON form printed by ``take6 draft --json`` (seats and rows from 0)."""

        def frac(v: Fraction | None) -> str | None:
            return None if v is None else fraction_text(v)

        return {
            "players": self.players,
            "hand_size": self.hand_size,
            "deck": self.hand_size * self.players + ROWS,
            "first_picker": self.first_picker,
            "objective": self.objective.value,
            "player": self.player,
            "solved": self.solved,
            "interrupted": self.interrupted,
            "value": frac(self.value),
            "value_float": None if self.value is None else float(self.value),
            "lower": fraction_text(self.lower),
            "upper": fraction_text(self.upper),
            "picks": [
                {
                    "card": p.card,
                    "value": frac(p.value),
                    "value_float": None if p.value is None else float(p.value),
                    "lower": fraction_text(p.lower),
                    "upper": fraction_text(p.upper),
                }
                for p in self.picks
            ],
            "best_picks": self.best_picks(),
            "line": [{"player": p.seat, "card": p.card} for p in self.line],
            "position": None if self.position is None else str(self.position),
            "play": [
                {
                    "cards": list(t.cards),
                    "choices": [{"player": p, "row": r} for p, r in t.choices],
                    "heads": list(t.heads),
                }
                for t in self.play
            ],
            "seconds": round(self.seconds, 6),
            "cpu_seconds": round(self.cpu_seconds, 6),
            "nodes": self.nodes,
            "leaves": self.leaves,
            "leaf_hits": self.leaf_hits,
            "play_nodes": self.play_nodes,
            "dropped": self.dropped,
            "core": self.core,
            "proofs_read": self.proofs_read,
            "proofs_written": self.proofs_written,
        }


@dataclass(frozen=True)
class DraftTick:
    """How far a draft solve has got (what its progress callback is given)."""

    phase: str
    """``"safety"`` while every first pick is bounded by safety, then ``"values"``."""
    picks_done: int
    """First picks bounded (safety) or valued (values) so far."""
    picks: int
    """First picks in all."""
    nodes: int
    """Draft nodes searched."""
    leaves: int
    """Drafted deals (leaves) solved."""
    play_nodes: int
    """Play nodes searched in those deals (it moves while one large deal is searched)."""
    seconds: float
    proofs: int | None = None
    """Proofs read from and written to the proofs file so far (None without one)."""
    bounds: tuple[Fraction, Fraction] | None = None
    """The draft value's proven bounds so far (of the one first pick valued, with
    ``only_pick``); None before the first picks are set."""

    def text(self) -> str:
        """The counters in a few words (a progress line adds the clock)."""
        what = "bounded by safety" if self.phase == "safety" else "valued"
        kept = "" if self.proofs is None else f"  proofs {count(self.proofs)}"
        proven = ""
        if self.bounds is not None:
            lo, hi = self.bounds
            proven = (
                f"  value {_short(lo)}" if lo == hi else f"  {_short(lo)} <= value <= {_short(hi)}"
            )
        return (
            f"first picks {what} {self.picks_done}/{self.picks}{proven}  draft nodes "
            f"{count(self.nodes)}  leaves {count(self.leaves)}  play nodes "
            f"{count(self.play_nodes)}{kept}"
        )


def _short(v: Fraction) -> str:
    """A bound in a progress line: the fraction when short, else its decimal (4 places)."""
    text = fraction_text(v)
    return text if len(text) <= 9 else f"{float(v):.4f}"


DraftProgress = Callable[[DraftTick], None]
"""``progress(tick)``: called about twice a second while a draft is solved, during a long leaf
search too (on the compiled core)."""


def _agree(lo: Num, hi: Num, path: str) -> None:
    """A :class:`~solver.errors.SolverError` when a proofs file's bounds and this search's own
    cannot both hold (``lo > hi``)."""
    if lo > hi:
        raise SolverError(
            f"--proofs {excerpt(path)}: the file contradicts what this search has proven"
        )


def draft_rules(players: int, hand_size: int, first_picker: int = 0) -> Rules:
    """The Logik rules of a draft study, validated; raises :class:`DraftError` (one line)."""
    for name, v in (("players", players), ("hand size", hand_size), ("first picker", first_picker)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise DraftError(f"{name} must be an integer, got {v!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DraftError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}")
    if hand_size < 1:
        raise DraftError(f"hand size must be at least 1, got {hand_size}")
    deck = hand_size * players + ROWS
    if deck > MAX_CARD:
        raise DraftError(
            f"too many cards for the deck: {players} hands of {hand_size} plus {ROWS} rows need "
            f"{deck} cards, but there are only {MAX_CARD}"
        )
    if not 0 <= first_picker < players:
        raise DraftError(
            f"first picker must be a seat 1..{players}, got {first_picker + 1} "
            f"(with {players} players)"
        )
    try:
        return Rules.for_variant(
            "logik", players=players, hand_size=hand_size, first_picker=first_picker
        )
    except RulesError as exc:
        raise DraftError(str(exc)) from None


def draft_order(players: int, hand_size: int, first_picker: int = 0) -> list[int]:
    """The seat (0-based) making each pick, in order: seat order from the first picker."""
    draft_rules(players, hand_size, first_picker)
    return [(first_picker + i) % players for i in range(players * hand_size)]


@functools.lru_cache(maxsize=1 << 16)
def _cards(mask: int) -> tuple[int, ...]:
    """The cards of a mask (bit ``c - 1`` for card ``c``), ascending; cached, as the same
    hands and pools recur at every draft node."""
    out = []
    c = 1
    while mask:
        if mask & 1:
            out.append(c)
        mask >>= 1
        c += 1
    return tuple(out)


class DraftSearch:
    """Exact alpha-beta search of one draft (one set of settings, objective and player)."""

    def __init__(
        self,
        players: int,
        hand_size: int,
        first_picker: int = 0,
        objective: Objective | str = Objective.DIFF,
        player: int = 0,
        *,
        time_limit: float | None = None,
        table_cap: int = 2_000_000,
        core: str = "auto",
        memory: int | None = None,
        progress: DraftProgress | None = None,
        threads: int = 1,
        killers: bool | None = None,
    ) -> None:
        """``killers``: move ordering by killers (None: as measured best for the objective,
        see :attr:`killers`); only the order of the search changes, never a value."""
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 64:
            raise DraftError(f"threads must be 1..64, got {threads!r}")
        self.rules = draft_rules(players, hand_size, first_picker)
        self.progress = progress
        # Aspiration windows around the guess, narrowest first: most draft values are exactly
        # the guess (0), which a window of 2^-20 proves with fewer leaves than one of 1 (k = 6:
        # 10% less CPU); a mixed value fails it and is found with the next.
        self.windows: tuple[Num, ...] = (Fraction(1, 2**20), 1)
        self.picks_done = 0
        self.picks_total = 0
        self.phase = "safety"
        self.reported = 0.0
        self.players = players
        self.hand_size = hand_size
        self.first_picker = first_picker
        self.deck = hand_size * players + ROWS
        self.full = (1 << self.deck) - 1
        self.total = players * hand_size
        cards = list(range(1, self.deck + 1))
        # A deal of these rules, only to state the problem: the leaves are searched directly.
        sample = Position.create(
            "logik",
            [[c] for c in cards[:ROWS]],
            [cards[ROWS + p * hand_size : ROWS + (p + 1) * hand_size] for p in range(players)],
            deck=self.deck,
        )
        where = f"(draft with {players} players, hand size {hand_size})"
        try:
            obj = Objective(objective)
        except ValueError:
            known = "diff or paranoid"
            raise DraftError(f"unknown objective {objective!r} ({known}) {where}") from None
        if obj is Objective.DIFF and players != 2:
            raise DraftError(f"objective diff needs exactly 2 players, got {players} {where}")
        if not isinstance(player, int) or not 0 <= player < players:
            shown = player + 1 if isinstance(player, int) else player
            raise DraftError(f"player must be a seat 1..{players}, got {shown!r} {where}")
        self.problem = make_problem(sample, obj, player)
        # Killers (the killer pick, the core's killer cards): measured to pay under paranoid
        # and to cost under diff (2 x 7: 394 M play nodes without, 609 M with; docs/solver.md,
        # session 45).
        self.killers = obj is not Objective.DIFF if killers is None else killers
        # The leaves are searched by one search object on the chosen core (the compiled one
        # when built), whose table every leaf shares.
        # The compiled core calls back during a long leaf search too, so that the progress
        # line moves (k = 8: one leaf's safety can take a minute). Weakly, as the play search
        # is this search's own (no cycle to keep its table alive).
        me = weakref.ref(self)

        def leaf_progress(nodes: int, *_: object) -> None:
            ds = me()
            if ds is not None and ds.progress is not None:
                now = time.perf_counter()
                if now - ds.reported >= 0.5:
                    ds.reported = now
                    ds.report(now, nodes)

        self.play, self.core_note = make_search(
            self.problem,
            core,
            time_limit=time_limit,
            table_cap=table_cap,
            memory=memory,
            threads=threads,
            progress=leaf_progress,
            killers=self.killers,
        )
        self.play_nodes_start = self.play.stats.nodes
        self.core = "python" if isinstance(self.play, Search) else "native"
        self.maximiser = tuple(p in self.problem.max_side for p in range(players))
        self.diff = self.problem.objective is Objective.DIFF
        self.coalition = self.problem.max_side if not self.diff else ()
        self.heads = self.rules.heads
        heads = sum(self.heads[c] for c in cards)
        w = self.problem.weights
        self.static: tuple[Num, Num] = (min(0, *w) * heads, max(0, *w) * heads)
        self.tables: list[dict[Masks, tuple[Num, Num, int]]] = [{} for _ in range(self.total)]
        """The draft nodes' bounds and best picks, by number of cards picked."""
        self.leaves: dict[Masks, tuple[Num, Num]] = {}
        # Safety (solver.search.safety): the seats whose safety bounds the value, and the answers
        # found, by number of cards picked, node and seat.
        self.safety_seats = safety_bounds(self.problem)
        self.safe_tables: list[dict[tuple[Masks, int], bool]] = [{} for _ in range(self.total + 1)]
        budget = default_memory() if memory is None else memory
        self.capacity = max(MIN_ENTRIES, budget // ENTRY_BYTES)
        """The most entries the draft's own tables hold together (:meth:`_make_room`)."""
        self.safe_refuters: dict[int, int] = {}
        self.value_refuters: dict[int, int] = {}
        """By number of cards picked: the pick that last refuted a node there (not the first
        tried), tried early at the next node of that depth."""
        self.stats = DraftStats()
        self.started = time.perf_counter()
        self.deadline = None if time_limit is None else self.started + time_limit
        self.stopped = False
        self.interrupted = False
        """Ctrl-C stopped the draft's own search (the play search's is its ``interrupted``)."""
        self.proofs: DraftProofs | None = None
        """The file the proofs are kept in (:meth:`keep_proofs`), if any."""
        self.firsts: tuple[int, ...] | None = None
        """The first picks of the solve under way (its progress shows their bounds)."""

    # -- a file of proofs ------------------------------------------------------------------------
    def keep_proofs(
        self, path: str | os.PathLike[str], shared: Sequence[str | os.PathLike[str]] = ()
    ) -> None:
        """Keep what the search proves in the file ``path`` from now on
        (:mod:`solver.draft.proofs`), and take what it holds into the tables first, with what
        the files ``shared`` hold that are of the same draft (a batch's other items: read as
        they stand, never written). A file of other settings at ``path``, or bounds that
        contradict each other or this search's, are a :class:`~solver.errors.SolverError`."""
        self.close_proofs()
        want = header(
            self.players,
            self.hand_size,
            self.first_picker,
            self.problem.objective.value,
            self.problem.player,
            rules_to_json(self.rules),
        )
        own = os.path.abspath(path)
        others = read_shared([p for p in shared if os.path.abspath(p) != own], want, self.players)
        proofs = DraftProofs(path, want, self.players)
        try:
            for got in (*others, proofs):
                self._take(got)
        except BaseException:
            proofs.close()
            raise
        self.proofs = proofs

    def _take(self, proofs: DraftProofs) -> None:
        """Merge a proofs file's bounds and answers into the tables."""
        for masks, (flo, fhi, best) in proofs.nodes.items():
            lo: Num = flo
            hi: Num = fhi
            table = self.tables[sum(m.bit_count() for m in masks)]
            old = table.get(masks)
            if old is not None:
                lo, hi = max(lo, old[0]), min(hi, old[1])
                _agree(lo, hi, proofs.path)
            table[masks] = (lo, hi, best)
        for key, (flo, fhi) in proofs.leaves.items():
            lo, hi = flo, fhi
            old_leaf = self.leaves.get(key)
            if old_leaf is not None:
                lo, hi = max(lo, old_leaf[0]), min(hi, old_leaf[1])
                _agree(lo, hi, proofs.path)
            self.leaves[key] = (lo, hi)
        for got, safe in proofs.safe.items():
            answers = self.safe_tables[sum(m.bit_count() for m in got[0])]
            if answers.get(got, safe) != safe:
                _agree(1, 0, proofs.path)
            answers[got] = safe
        self._make_room()

    def close_proofs(self) -> None:
        """Write what waits for the proofs file and release it (nothing without one)."""
        if self.proofs is not None:
            proofs, self.proofs = self.proofs, None
            proofs.close()

    def restart(
        self,
        settings: tuple[int, int, int, Objective | str, int],
        time_limit: float | None,
        progress: DraftProgress | None,
    ) -> None:
        """Start another solve with this search's tables (see :func:`solve_draft`'s
        ``search``): the settings must be this search's, and there is no time limit."""
        players, hand_size, first_picker, objective, player = settings
        mine = (self.players, self.hand_size, self.first_picker, self.problem.objective)
        try:
            theirs = (players, hand_size, first_picker, Objective(objective))
        except ValueError:
            theirs = None
        if theirs != mine or player != self.problem.player:
            raise DraftError(
                f"this draft search is for {self.players} players, hand size {self.hand_size}, "
                f"first picker {self.first_picker + 1}, {self.problem.objective.value} for "
                f"player {self.problem.player + 1}, not for the settings asked"
            )
        if time_limit is not None:
            raise DraftError("a reused draft search takes no time limit")
        if self.stopped or self.play.stopped:
            raise DraftError("a draft search stopped by a limit cannot be reused")
        self.progress = progress
        self.stats = DraftStats()
        self.started = time.perf_counter()
        self.deadline = None
        self.picks_done = self.picks_total = 0
        self.firsts = None
        self.phase = "safety"
        self.reported = 0.0
        self.play_nodes_start = self.play.stats.nodes

    # -- the draft tree --------------------------------------------------------------------------
    def picker(self, picked: int) -> int:
        """The seat making pick number ``picked`` (0-based)."""
        return (self.first_picker + picked) % self.players

    def root(self) -> Masks:
        return (0,) * self.players

    def child(self, masks: Masks, card: int) -> Masks:
        p = self.picker(sum(m.bit_count() for m in masks))
        return masks[:p] + (masks[p] | 1 << (card - 1),) + masks[p + 1 :]

    def pool(self, masks: Masks) -> tuple[int, ...]:
        """The cards still face up."""
        taken = 0
        for m in masks:
            taken |= m
        return _cards(self.full & ~taken)

    def high_first(self, masks: Masks) -> list[int]:
        """The cards still face up, high cards first: the order picks are searched in
        (measured at k = 4, 2 players: 2,467 leaf queries; 3,252 with a history heuristic,
        13,011 low cards first). A high card is safe to hold, and taking the high cards leaves
        the low ones to start the rows."""
        return list(reversed(self.pool(masks)))

    def is_leaf(self, masks: Masks) -> bool:
        return sum(m.bit_count() for m in masks) == self.total

    def leaf_position(self, masks: Masks) -> Position:
        """The deal a finished draft leads to: the hands, and the 4 cards left as rows."""
        rest = self.pool(masks)
        return Position.create(
            "logik", [[c] for c in rest], [_cards(m) for m in masks], deck=self.deck
        )

    # -- search ----------------------------------------------------------------------------------
    def _tick(self) -> None:
        st = self.stats
        st.nodes += 1
        deadline = self.deadline
        if st.nodes & 255 == 0:
            if self.held() > self.capacity:
                self._make_room()
            now = time.perf_counter()
            if deadline is not None and now > deadline:
                self.stopped = True
            if self.play.stopped:
                self.stopped = True
            if self.progress is not None and now - self.reported >= 0.5:
                self.reported = now
                self.report(now)

    def held(self) -> int:
        """The entries the draft's own tables hold (draft nodes, drafted deals, safety)."""
        return len(self.leaves) + sum(map(len, self.tables)) + sum(map(len, self.safe_tables))

    def _make_room(self) -> None:
        """If the tables hold more than :attr:`capacity` entries, drop entries until a quarter
        of it is free: those with the most cards picked first (the leaves, then the safety
        answers and draft nodes one pick above them, and so on: the cheapest to find again),
        the oldest first within a level. The first picks' entries (one card picked) and the
        root's are kept whatever the budget."""
        levels: list[dict[Any, Any]] = []
        for picked in range(self.total, 1, -1):
            if picked == self.total:
                levels.append(self.leaves)
            levels.append(self.safe_tables[picked])
            if picked < self.total:
                levels.append(self.tables[picked])
        held = self.held()
        if held <= self.capacity:
            return
        excess = held - self.capacity * 3 // 4
        for level in levels:
            if excess <= 0:
                break
            n = min(excess, len(level))
            if n == 0:
                continue
            # Rebuilt rather than deleted from, so the dict stays compact.
            kept = dict(islice(level.items(), n, None))
            level.clear()
            level.update(kept)
            excess -= n
            self.stats.dropped += n

    def report(self, now: float | None = None, play_nodes: int | None = None) -> None:
        """Call the progress callback with the counters now (``play_nodes``: the play search's
        node count, when a leaf search under way reports it)."""
        if self.progress is not None:
            secs = (time.perf_counter() if now is None else now) - self.started
            st = self.stats
            played = (self.play.stats.nodes if play_nodes is None else play_nodes) - (
                self.play_nodes_start
            )
            self.progress(
                DraftTick(
                    self.phase,
                    self.picks_done,
                    self.picks_total,
                    st.nodes,
                    st.leaves,
                    played,
                    secs,
                    None if self.proofs is None else self.proofs.read_lines + self.proofs.written,
                    None if self.firsts is None else self.value_bounds(self.firsts),
                )
            )

    def pick_bounds(self, card: int) -> tuple[Num, Num]:
        """The bounds proven so far on the draft value after first pick ``card`` (its table
        entry's, with what safety proved there)."""
        child = self.child(self.root(), card)
        lo, hi = self.tables[1].get(child, (*self.static, 0))[:2]
        safe_lo, safe_hi = self.safety_bounds_at(child, 1)
        return max(lo, safe_lo), min(hi, safe_hi)

    def value_bounds(self, firsts: Sequence[int]) -> tuple[Fraction, Fraction]:
        """The bounds proven so far on the value of the draft whose first picks are
        ``firsts``: the first picker's best of each pick's lower bounds and upper bounds."""
        pick = max if self.maximiser[self.first_picker] else min
        each = [self.pick_bounds(c) for c in firsts]
        return Fraction(pick(lo for lo, _ in each)), Fraction(pick(hi for _, hi in each))

    def value(self, masks: Masks, alpha: Num = -INF, beta: Num = INF) -> tuple[Num, Num]:
        """Bounds ``(lo, hi)`` on the draft value of ``masks`` for the window ``(alpha, beta)``:
        unless a limit stopped the search, exact (``lo == hi``), or ``hi <= alpha``, or
        ``lo >= beta``. With the full window the result is exact."""
        picked = sum(m.bit_count() for m in masks)
        return self._value(masks, picked, alpha, beta)

    def _value(self, masks: Masks, picked: int, alpha: Num, beta: Num) -> tuple[Num, Num]:
        if picked == self.total:
            return self._leaf(masks, alpha, beta)
        table = self.tables[picked]
        found = table.get(masks)
        hint = 0
        if found is None and self.safe_tables[picked]:
            lo, hi = self.safety_bounds_at(masks, picked)
            if (lo, hi) != self.static:
                found = (lo, hi, 0)
                table[masks] = found
        if found is not None:
            flo, fhi, hint = found
            if flo == fhi or fhi <= alpha or flo >= beta or self.stopped:
                self.stats.table_hits += 1
                return flo, fhi
        elif self.stopped:
            return self.static
        self._tick()
        started = time.perf_counter() if self.proofs is not None else 0.0
        p = self.picker(picked)
        order = self.high_first(masks)
        # The pick that last refuted a node of this depth next (a killer, under paranoid),
        # after the table's.
        killer = self.value_refuters.get(picked) if self.killers else None
        if killer and killer != hint and killer in order:
            order.remove(killer)
            order.insert(0, killer)
        if hint and hint in order:
            order.remove(hint)
            order.insert(0, hint)
        last = len(order) - 1
        before, mine, after = masks[:p], masks[p], masks[p + 1 :]
        slo, shi = self.static
        # Alpha-beta in the picker's view (negamax): the min side's values and window are
        # negated, so one loop serves both sides.
        maxi = self.maximiser[p]
        a, b = (alpha, beta) if maxi else (-beta, -alpha)
        unsearched = shi if maxi else -slo  # what picks not searched may still reach
        # A pick whose node the tables already show to cut goes first (an enhanced
        # transposition cutoff: drafts reach one node by many orders of picks); none can
        # where the window reaches past the static bounds (the full window of an exact value).
        if b <= unsearched:
            cut = self._cached_cut(before, mine, after, order, picked + 1, maxi, b)
            if cut:
                order.remove(cut)
                order.insert(0, cut)
        best = order[0]
        bl: Num = -INF
        bh: Num = -INF
        for k, c in enumerate(order):
            ca = a if a > bl else bl
            lo, hi = self._value(
                (*before, mine | 1 << (c - 1), *after),
                picked + 1,
                *((ca, b) if maxi else (-b, -ca)),
            )
            if not maxi:
                lo, hi = -hi, -lo
            if lo > bl or k == 0:
                if lo > bl:
                    bl = lo
                best = c
            if hi > bh:
                bh = hi
            if bl >= b:
                if k < last:
                    bh = unsearched
                if k > 0:
                    self.value_refuters[picked] = c
                break
        if not maxi:
            bl, bh = -bh, -bl
        if found is not None:
            bl, bh = max(bl, found[0]), min(bh, found[1])
        bl, bh = max(bl, slo), min(bh, shi)
        table[masks] = (bl, bh, best)
        proofs = self.proofs
        if (
            proofs is not None
            and (found is None or (bl, bh) != found[:2])
            and time.perf_counter() - started >= MIN_SECONDS
        ):
            proofs.node(masks, bl, bh, best)
        return bl, bh

    def _cached_cut(
        self,
        before: Masks,
        mine: int,
        after: Masks,
        order: list[int],
        picked: int,
        maxi: bool,
        b: Num,
    ) -> int:
        """The first pick of ``order`` whose node (``picked`` cards picked) the tables already
        bound at or above ``b`` in the picker's view, or 0."""
        leaf = picked == self.total
        table = self.leaves if leaf else self.tables[picked]
        get = table.get
        for c in order:
            child = (*before, mine | 1 << (c - 1), *after)
            if leaf:
                key, sign = self.leaf_key(child)
                found = get(key)
                if found is None:
                    continue
                lo, hi = found[0], found[1]
                if sign < 0:
                    lo, hi = -hi, -lo
            else:
                found = get(child)
                if found is None:
                    continue
                lo, hi = found[0], found[1]
            if (lo if maxi else -hi) >= b:
                return c
        return 0

    def leaf_key(self, masks: Masks) -> tuple[Masks, int]:
        """The canonical key of a finished draft and the sign relating its value to the key's:
        ``value(masks) == sign * value(key)`` (see the module docstring)."""
        if self.diff:
            swapped = (masks[1], masks[0])
            return (swapped, -1) if swapped < masks else (masks, 1)
        if self.coalition:
            ordered = sorted(masks[p] for p in self.coalition)
            out = list(masks)
            for p, m in zip(self.coalition, ordered, strict=True):
                out[p] = m
            return tuple(out), 1
        return masks, 1

    def _leaf(self, masks: Masks, alpha: Num, beta: Num) -> tuple[Num, Num]:
        key, sign = self.leaf_key(masks)
        if sign < 0:
            alpha, beta = -beta, -alpha
        found = self.leaves.get(key)
        if found is None and self.safe_tables[self.total]:
            lo, hi = self.safety_bounds_at(masks, self.total)
            if (lo, hi) != self.static:
                found = (lo, hi) if sign > 0 else (-hi, -lo)
                self.leaves[key] = found
        if found is not None:
            lo, hi = found
            if lo == hi or hi <= alpha or lo >= beta or self.play.stopped:
                self.stats.leaf_hits += 1
                return (lo, hi) if sign > 0 else (-hi, -lo)
        self.stats.leaves += 1
        taken = 0
        for m in key:
            taken |= m
        table = to_table([[c] for c in _cards(self.full & ~taken)], self.heads)
        started = time.perf_counter() if self.proofs is not None else 0.0
        e = self.play.value(table, tuple(_cards(m) for m in key), alpha, beta)
        lo, hi = e.lo, e.hi
        if found is not None:
            lo, hi = max(lo, found[0]), min(hi, found[1])
        self.leaves[key] = (lo, hi)
        if (
            self.proofs is not None
            and (found is None or (lo, hi) != found)
            and time.perf_counter() - started >= MIN_SECONDS
        ):
            self.proofs.leaf(key, lo, hi)
        # A search stopped by its limits returns bounds that settle nothing, and stays stopped:
        # only then is it asked (its stats are a call into the core that builds a dict, 1% of a
        # 3-player draft's time when asked every leaf). Ctrl-C in the compiled core is asked
        # after every leaf (a flag; the next search would clear it), so that it is reported.
        interrupted = getattr(self.play, "interrupted", False)
        if interrupted or (lo != hi and hi > alpha and lo < beta and self.play.stopped):
            self.stopped = True
            self.interrupted = self.interrupted or interrupted
        return (lo, hi) if sign > 0 else (-hi, -lo)

    # -- safety ----------------------------------------------------------------------------------
    def safe(self, masks: Masks, seat: int) -> bool | None:
        """Whether ``seat`` can make sure of taking no head in the round from this draft node
        (its own picks: one safe pick will do; the others': every pick must leave it safe; then
        the play, :mod:`solver.search.safety`). None when a limit stopped the search first.

        An AND-OR search over booleans: no stage games, no rationals. A safe seat's heads are
        exactly 0 under optimal play against it, which bounds the draft value
        (:meth:`safety_bounds_at`)."""
        return self._safe(masks, sum(m.bit_count() for m in masks), seat)

    def _safe(self, masks: Masks, picked: int, seat: int) -> bool | None:
        answers = self.safe_tables[picked]
        got = answers.get((masks, seat))
        if got is not None:
            return got
        if self.stopped:
            return None
        started = time.perf_counter() if self.proofs is not None else 0.0
        if picked == self.total:
            self.stats.leaves += 1
            taken = 0
            for m in masks:
                taken |= m
            table = to_table([[c] for c in _cards(self.full & ~taken)], self.heads)
            answer = self.play.safe(table, tuple(_cards(m) for m in masks), seat)
            if answer is None:
                self.stopped = True
                return None
        else:
            self._tick()
            if self.stopped:
                return None
            p = self.picker(picked)
            order = self.high_first(masks)
            own = p == seat
            killer = self.safe_refuters.get(picked)
            if not own and killer in order:
                order.remove(killer)
                order.insert(0, killer)
            answer = not own  # own picks: any safe one; the others': all must be safe
            before, mine, after = masks[:p], masks[p], masks[p + 1 :]
            for c in order:
                sub = self._safe((*before, mine | 1 << (c - 1), *after), picked + 1, seat)
                if sub is None:
                    return None
                if sub == own:
                    answer = own
                    if not own:
                        self.safe_refuters[picked] = c
                    break
        answers[masks, seat] = answer
        if self.proofs is not None and time.perf_counter() - started >= MIN_SECONDS:
            self.proofs.safety(masks, seat, answer)
        return answer

    def safety_bounds_at(self, masks: Masks, picked: int | None = None) -> tuple[Num, Num]:
        """Bounds on the value of ``masks`` (``picked``: its number of cards picked, if known)
        from the safety answers found there (static bounds where there are none)."""
        if picked is None:
            picked = sum(m.bit_count() for m in masks)
        answers = self.safe_tables[picked]
        lo, hi = self.static
        for seat, side in self.safety_seats:
            if answers.get((masks, seat)):
                if side > 0:
                    lo = max(lo, 0)
                else:
                    hi = min(hi, 0)
        return lo, hi

    def prove_by_safety(self, masks: Masks) -> tuple[Num, Num]:
        """Run the safety searches of :attr:`safety_seats` at ``masks`` and return the bounds
        they prove (``(0, 0)`` when the value is shown to be exactly 0)."""
        for seat, _ in self.safety_seats:
            if self.safe(masks, seat) is None:
                break
        return self.safety_bounds_at(masks)

    def exact(self, masks: Masks, guess: Num = 0) -> Num | None:
        """The exact value of ``masks`` (None if a limit stopped the search first).

        Aspiration: a narrow window ``guess ± w`` (``w`` the first of :attr:`windows`) first,
        exact when the value lies inside and much cheaper; where it fails, narrow windows at
        the fail-soft bound it returned (often the value itself, reached by the best pick
        found: k = 7, first pick 9, a mixed value of 87 digits), up to :data:`NARROW_TRIES`
        in all; then windows of the widths :attr:`windows` on the side it failed, from the
        bound proven there to a whole number; then the whole range the proven bounds leave.
        """
        narrow = self.windows[0]
        at = guess
        high = True
        for _ in range(NARROW_TRIES):
            lo, hi = self.value(masks, at - narrow, at + narrow)
            if lo == hi or self.stopped:
                return lo if lo == hi else None
            high = lo >= at + narrow
            at = lo if high else hi  # (finite: the static bounds clip every result)
        for width in self.windows[1:]:
            # The value lies at or above lo (high), or at or below hi: a window from there to
            # a whole number of heads, where the leaves' values cut (3 players, k = 3, guess 0:
            # 14% fewer play nodes than a window of the same width from the bound).
            lo, hi = self.value(
                masks,
                *(
                    (lo - narrow, math.floor(lo) + width)
                    if high
                    else (math.ceil(hi) - width, hi + narrow)
                ),
            )
            if lo == hi or self.stopped:
                return lo if lo == hi else None
        lo, hi = self.value(masks, lo - narrow, hi + narrow)
        return lo if lo == hi else None

    def principal_line(self) -> list[DraftPick]:
        """A draft line where every pick is optimal (the lowest optimal card at each node)."""
        masks = self.root()
        line: list[DraftPick] = []
        while not self.is_leaf(masks):
            v = self.exact(masks)
            if v is None:
                return []
            p = self.picker(len(line))
            for c in self.pool(masks):
                nxt = self.child(masks, c)
                w = self.windows[0]
                lo, hi = self.value(nxt, v - w, v + w)  # enough to tell whether it is v
                if lo == hi == v:
                    line.append(DraftPick(p, c))
                    masks = nxt
                    break
            else:
                if self.stopped:  # a limit: the children's values are not all known
                    return []
                # (otherwise a value that no child reaches: cannot happen)
                raise RuntimeError(f"no optimal pick found after {line}")
        return line


def safety_bounds(problem: Problem) -> list[tuple[int, int]]:
    """The seats whose safety (taking no head for sure) bounds the value of ``problem``, each
    with the side of the bound: ``+1`` when its safety proves value >= 0, ``-1`` value <= 0.

    The value is ``sum(w[s] * heads[s])``. If a max-side seat ``s`` is the only one of its side
    with a non-zero weight, ``w[s] <= 0`` and every min-side weight is ``>= 0``, then ``s``
    taking no head makes every term ``>= 0``: value >= 0. The mirror holds for the min side.
    ``diff``: each of the two seats (the player for >= 0, the other for <= 0); ``paranoid``: the
    player (<= 0; its heads are never negative, so then the value is 0)."""
    w = problem.weights
    out: list[tuple[int, int]] = []
    for side, other, sign in (
        (problem.max_side, problem.min_side, 1),
        (problem.min_side, problem.max_side, -1),
    ):
        weighted = [s for s in side if w[s] != 0]
        if len(weighted) != 1:
            continue
        s = weighted[0]
        if sign * w[s] <= 0 and all(sign * w[q] >= 0 for q in other):
            out.append((s, sign))
    return out


def solve_draft(
    players: int,
    hand_size: int,
    first_picker: int = 0,
    objective: Objective | str = Objective.DIFF,
    player: int = 0,
    time_limit: float | None = None,
    *,
    table_cap: int = 2_000_000,
    play: bool = True,
    core: str = "auto",
    memory: int | None = None,
    progress: DraftProgress | None = None,
    only_pick: int | None = None,
    search: DraftSearch | None = None,
    exact_picks: bool = True,
    proofs: str | os.PathLike[str] | None = None,
    threads: int = 1,
    shared_proofs: Sequence[str | os.PathLike[str]] = (),
) -> DraftResult:
    """Solve the Logik draft with ``players`` hands of ``hand_size`` (deck 1..k·n+4), the
    ``first_picker`` (0-based seat) picking first, for ``objective`` from ``player``'s view
    (0-based).

    The value: for ``diff`` (2 players) the heads of the other player minus the heads of
    ``player`` (default seat 0), both drafting and then playing optimally; for ``paranoid`` the
    heads of ``player``, who drafts and plays against a coalition of all the others (which
    maximises them, in the draft and in the play). Details in the module docstring.

    Every first pick is valued exactly (each is searched to its exact value, with an
    aspiration window first); ``core`` picks the play solver of the leaves (``"auto"``: the
    compiled core when built; ``memory`` its table budget, and the budget of the draft's own
    tables, :data:`ENTRY_BYTES` an entry); ``progress`` is called about twice a
    second (:data:`DraftProgress`). ``play`` also finds the principal draft line and the play
    that follows. With a ``time_limit`` (seconds, for the draft and the play solver together) the
    result may be unsolved, with proven bounds. Raises :class:`DraftError` for bad settings.

    ``only_pick`` values that one first pick alone (a batch splits a large draft so, one first
    pick an item: ``take6 study drafts --by-first-pick``): the result's value and bounds are then
    that pick's, ``picks`` holds it alone, and there is no principal line. The draft's value is
    the best of all its first picks' values (the highest for a first picker on the max side).

    The draft's value is found first (every first pick bounded by safety, then each tested
    against the best value so far with a narrow window, valued exactly only when better), then,
    with ``exact_picks`` (the default), every other first pick's exact value; without it the
    others keep the bounds that proved them worse (much faster where losing picks have mixed
    values: k = 7). A time limit that stops the second part leaves the draft solved, some
    picks with bounds only; one that stops the first may leave it solved too, by safety alone
    (value 0: the first picker safe after one pick, the other player after every pick).

    With ``only_pick`` and not ``exact_picks``, the pick is tested against 0 (the value of
    every draft solved so far) and valued exactly only when worth 0 or more; a worse pick keeps
    the bounds that show it (a batch then knows the draft's value once its best pick is in).

    ``search``: the :class:`DraftSearch` of an earlier call with the same players, hand size,
    first picker, objective and player, whose tables are kept (a batch worker valuing one first
    pick after another: their subtrees share leaves and play positions); its counters start
    afresh, and it takes no time limit (:class:`DraftError` otherwise). ``core``, ``memory`` and
    ``table_cap`` are then the search's own.

    ``proofs``: a file that keeps what the search proves (:mod:`solver.draft.proofs`), read back
    first when it exists: a draft stopped by a limit, Ctrl-C or a kill goes on where it was
    when solved again with the same file (a :class:`~solver.errors.SolverError` if the file is
    of other settings or unreadable). ``shared_proofs``: more such files, only read (those of
    the same draft: a batch's other items, :func:`solver.study.run.proofs_path`).

    ``threads``: search threads of the compiled core for each leaf, sharing its table (measured
    on ten leaves of the k = 8 draft: 1.5 times faster on two threads); the search's own with
    ``search``.
    """
    if time_limit is not None and not time_limit > 0:
        raise DraftError(f"time limit must be positive, got {time_limit}")
    cpu = time.process_time()
    if search is None:
        ds = DraftSearch(
            players,
            hand_size,
            first_picker,
            objective,
            player,
            time_limit=time_limit,
            table_cap=table_cap,
            core=core,
            memory=memory,
            progress=progress,
            threads=threads,
        )
    else:
        ds = search
        ds.restart((players, hand_size, first_picker, objective, player), time_limit, progress)
    play_nodes = ds.play.stats.nodes
    if proofs is not None:
        ds.keep_proofs(proofs, shared_proofs)
    try:
        result = _solve_draft(ds, first_picker, play, only_pick, exact_picks, play_nodes, cpu)
        if ds.proofs is not None:
            result.proofs_read, result.proofs_written = ds.proofs.read_lines, ds.proofs.written
        return result
    finally:
        ds.close_proofs()


def _solve_draft(
    ds: DraftSearch,
    first_picker: int,
    play: bool,
    only_pick: int | None,
    exact_picks: bool,
    play_nodes: int,
    cpu: float,
) -> DraftResult:
    """:func:`solve_draft` once its search is set up."""
    players, hand_size = ds.players, ds.hand_size
    if only_pick is not None:
        deck = len(ds.pool(ds.root()))
        if not isinstance(only_pick, int) or isinstance(only_pick, bool):
            raise DraftError(f"a first pick is a card number, got {only_pick!r}")
        if not 1 <= only_pick <= deck:
            raise DraftError(f"first pick {only_pick} is not a card of the deck 1..{deck}")
        play = False
    collecting = gc.isenabled()
    gc.disable()  # millions of small acyclic tuples: see solver.api.solve
    try:
        root = ds.root()
        firsts = ds.pool(root) if only_pick is None else (only_pick,)
        ds.picks_total = len(firsts)
        ds.firsts = firsts
        maximise = ds.maximiser[first_picker]
        sign = 1 if maximise else -1
        narrow = ds.windows[0]
        children = {c: ds.child(root, c) for c in firsts}
        exact: dict[int, Num] = {}
        best: Num | None = None  # the best exact first-pick value so far
        guess: Num = 0

        def worse(c: int) -> bool:
            """Whether first pick ``c`` is proven strictly worse than ``best``."""
            lo, hi = ds.tables[1].get(children[c], (*ds.static, 0))[:2]
            return best is not None and (hi < best if maximise else lo > best)

        def valued(c: int, v: Num | None) -> None:
            nonlocal best, guess
            if v is None:
                return
            exact[c] = v
            if best is None or sign * (v - best) > 0:
                best = guess = v

        try:
            # The draft's value first: every first pick (high cards first, as in the search) is
            # bounded by safety, a search over booleans, before any is valued: where the value is
            # 0, that alone can prove it (one pick safe for both seats, every pick safe for the
            # seats on the other side), however long the losing picks then take. Then each pick
            # is tested with a narrow window at the best value so far (a pick worth it is then
            # exact, a worse one fails low, cheaply), and valued exactly only when it is better.
            for c in reversed(firsts):
                ds.prove_by_safety(children[c])
                if ds.stopped:
                    break
                ds.picks_done += 1
                ds.report()
            ds.phase, ds.picks_done = "values", 0
            for c in reversed(firsts):
                if ds.stopped:
                    break
                child = children[c]
                lo, hi = ds.value(child, guess - narrow, guess + narrow)
                if lo == hi:
                    valued(c, lo)
                elif (lo >= guess + narrow) if maximise else (hi <= guess - narrow):
                    valued(c, ds.exact(child, guess))
                if ds.stopped:
                    break
                ds.picks_done += 1
                ds.report()
            # The picks that failed on the better side of the guess (every pick, where the
            # draft is not worth 0: 3 players from k = 4), one at a time, high cards first (as
            # in the search: the bounds the guess left are no guide, 3 players k = 4: the two
            # lowest lower bounds, of picks 3 and 12, were of values 88/23 and 53/14, while 16
            # is worth 3), each tested with a narrow window at the best value so far and valued
            # exactly only when better: a good value found early makes the others fail
            # cheaply against it. One pick alone without exact
            # values keeps its bounds against the guess 0.
            lone = only_pick is not None and not exact_picks
            while not ds.stopped and not lone:
                open_ = [c for c in reversed(firsts) if c not in exact and not worse(c)]
                if not open_:
                    break
                c = open_[0]
                child = children[c]
                if best is not None:
                    lo, hi = ds.value(child, best - narrow, best + narrow)
                    if lo == hi:
                        valued(c, lo)
                        continue
                    if (hi <= best - narrow) if maximise else (lo >= best + narrow):
                        continue  # worse: its bounds show it
                valued(c, ds.exact(child, guess))
            # Then, unless only the draft's value is wanted, every other pick's exact value.
            if exact_picks:
                for c in reversed(firsts):
                    if c in exact or ds.stopped:
                        continue
                    valued(c, ds.exact(children[c], guess))
        except KeyboardInterrupt:
            # Ctrl-C (or SIGTERM, from the command) in the draft's own code: what the tables
            # hold is proven (a node is stored only when its search ended), so its bounds stand.
            ds.stopped = ds.interrupted = True

        picks: list[PickValue] = []
        for c in firsts:
            if c in exact:
                v = Fraction(exact[c])
                picks.append(PickValue(c, v, v, v))
            else:
                lo, hi = ds.pick_bounds(c)
                picks.append(PickValue(c, None, Fraction(lo), Fraction(hi)))
        pick = max if maximise else min
        lower = pick(p.lower for p in picks)
        upper = pick(p.upper for p in picks)
        solved = lower == upper
        result = DraftResult(
            players=players,
            hand_size=hand_size,
            first_picker=first_picker,
            problem=ds.problem,
            solved=solved,
            value=lower if solved else None,
            lower=lower,
            upper=upper,
            picks=picks,
        )
        if solved and play:
            # (empty when a limit stopped the search first: the value is proven, by the first
            # picks' bounds, but not every pick of a line)
            result.line = ds.principal_line()
            if result.line:
                leaf = root
                for dp in result.line:
                    leaf = ds.child(leaf, dp.card)
                result.position = ds.leaf_position(leaf)
    finally:
        if collecting:
            gc.enable()
    if result.position is not None:
        played, _ = solve(result.position, ds.problem.objective, ds.problem.player)
        if played.value != result.value:  # pragma: no cover - two searches disagreeing
            raise RuntimeError(
                f"the play after the principal draft line is worth {played.value}, "
                f"not the draft value {result.value} ({result.position})"
            )
        result.play = played.line
    result.seconds = time.perf_counter() - ds.started
    result.cpu_seconds = time.process_time() - cpu
    result.nodes = ds.stats.nodes
    result.leaves = ds.stats.leaves
    result.leaf_hits = ds.stats.leaf_hits
    result.play_nodes = ds.play.stats.nodes - play_nodes
    result.dropped = ds.stats.dropped
    result.core, result.core_note = ds.core, ds.core_note
    result.interrupted = not result.solved and (
        ds.interrupted or bool(getattr(ds.play, "interrupted", False))
    )
    return result


@dataclass
class DraftSafety:
    """What :func:`draft_safety` found: for each first pick, whether each seat can make sure of
    taking no head at all in the round that follows (drafting and playing against all the
    others together), or None where a limit stopped the search before it was decided."""

    players: int
    hand_size: int
    first_picker: int
    picks: dict[int, tuple[bool | None, ...]]
    """First pick -> one answer per seat (0-based)."""
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    nodes: int = 0
    leaves: int = 0
    play_nodes: int = 0
    interrupted: bool = False
    core: str = "python"
    core_note: str = ""

    @property
    def decided(self) -> bool:
        """Every answer found (no limit stopped the search)."""
        return all(a is not None for answers in self.picks.values() for a in answers)

    def safe_from_the_start(self, seat: int) -> bool | None:
        """Whether ``seat`` can make sure of taking no head from the start of the draft: the
        first picker after some first pick, another seat after every one (None: undecided)."""
        answers = [a[seat] for a in self.picks.values()]
        if seat == self.first_picker:
            return True if True in answers else (None if None in answers else False)
        return False if False in answers else (None if None in answers else True)

    def to_json(self) -> dict[str, Any]:
        """The JSON form printed by ``take6 draft --safety --json`` (seats from 0)."""
        return {
            "players": self.players,
            "hand_size": self.hand_size,
            "deck": self.hand_size * self.players + ROWS,
            "first_picker": self.first_picker,
            "decided": self.decided,
            "interrupted": self.interrupted,
            "safe": [self.safe_from_the_start(s) for s in range(self.players)],
            "picks": [{"card": c, "safe": list(a)} for c, a in sorted(self.picks.items())],
            "seconds": round(self.seconds, 6),
            "cpu_seconds": round(self.cpu_seconds, 6),
            "nodes": self.nodes,
            "leaves": self.leaves,
            "play_nodes": self.play_nodes,
            "core": self.core,
        }


def draft_safety(
    players: int,
    hand_size: int,
    first_picker: int = 0,
    *,
    time_limit: float | None = None,
    core: str = "auto",
    memory: int | None = None,
    progress: DraftProgress | None = None,
) -> DraftSafety:
    """Whether each seat can make sure of taking no head at all, after each first pick of the
    Logik draft with hand size ``hand_size`` (:meth:`DraftSearch.safe`: an AND-OR search over
    the picks and the play, with no values; much faster than :func:`solve_draft`). A seat that
    can has a value of exactly 0 under ``paranoid`` for it; for 2 players, if both can after a
    first pick, that pick is worth exactly 0 under ``diff``. With a ``time_limit`` (seconds)
    some answers may be None. Raises :class:`DraftError` for bad settings."""
    if time_limit is not None and not time_limit > 0:
        raise DraftError(f"time limit must be positive, got {time_limit}")
    cpu = time.process_time()
    ds = DraftSearch(
        players,
        hand_size,
        first_picker,
        "diff" if players == 2 else "paranoid",
        time_limit=time_limit,
        core=core,
        memory=memory,
        progress=progress,
    )
    root = ds.root()
    firsts = ds.pool(root)
    ds.picks_total = len(firsts)
    answers: dict[int, list[bool | None]] = {c: [None] * players for c in firsts}
    collecting = gc.isenabled()
    gc.disable()  # (as in solve_draft)
    try:
        for c in reversed(firsts):  # high cards first, as in the search
            child = ds.child(root, c)
            for seat in range(players):
                answers[c][seat] = ds.safe(child, seat)
                if ds.stopped:
                    break
            if ds.stopped:
                break
            ds.picks_done += 1
            ds.report()
    except KeyboardInterrupt:  # (as in solve_draft: the answers found stand)
        ds.stopped = ds.interrupted = True
    finally:
        if collecting:
            gc.enable()
    return DraftSafety(
        players=players,
        hand_size=hand_size,
        first_picker=first_picker,
        picks={c: tuple(a) for c, a in answers.items()},
        seconds=time.perf_counter() - ds.started,
        cpu_seconds=time.process_time() - cpu,
        nodes=ds.stats.nodes,
        leaves=ds.stats.leaves,
        play_nodes=ds.play.stats.nodes - ds.play_nodes_start,
        interrupted=ds.interrupted or bool(getattr(ds.play, "interrupted", False)),
        core=ds.core,
        core_note=ds.core_note,
    )


__all__ = [
    "DraftError",
    "DraftPick",
    "DraftResult",
    "DraftSafety",
    "DraftSearch",
    "DraftTick",
    "PickValue",
    "draft_order",
    "draft_rules",
    "draft_safety",
    "solve_draft",
]
