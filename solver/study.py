"""Batch studies: solve many Logik deals (or drafts) and keep every result in a SQLite store.

A *study* is a named, parametrised list of *items*; each item is solved independently and its
result is one row of the store. Two kinds:

* ``deals`` — the play phase of random Logik deals: for each hand size ``k`` and each deal index
  ``i`` in ``0..deals-1``, the deck ``1..players*k + 4`` is shuffled by a
  :class:`random.Random` seeded from ``(seed, players, k, i)`` only (see :func:`deal_position`),
  so an item's deal does not depend on the order of work, the workers or earlier items. Player
  ``p`` (1-based) gets cards ``(p-1)*k .. p*k-1`` of the shuffled deck, the last 4 cards start
  the 4 rows (sorted by card). The position is solved with :func:`solver.api.solve`.
* ``drafts`` — the Logik draft plus play (:func:`solver.draft.solve_draft`) for each hand size
  and each first picker.

Store schema (SQLite, WAL journal; ``SCHEMA_VERSION`` in table ``meta``)::

    meta(key TEXT PRIMARY KEY, value TEXT)          -- 'schema' -> '1'
    studies(
        study   TEXT PRIMARY KEY,   -- the study's name (default: its kind)
        kind    TEXT,               -- 'deals' or 'drafts'
        params  TEXT,               -- its parameters, canonical JSON (sorted keys)
        items   INTEGER,            -- how many items it has
        created TEXT)               -- UTC time of its first run, ISO 8601
    results(
        study, item TEXT,           -- PRIMARY KEY (study, item); item e.g. 'k=3 deal=17'
        kind TEXT, hand_size INTEGER, players INTEGER,
        deal INTEGER, seed INTEGER, -- deals: index 0..deals-1 and the study's seed (else NULL)
        first_picker INTEGER,       -- drafts: the seat that picks first, from 0 (else NULL)
        objective TEXT, player INTEGER,  -- 'diff' or 'paranoid'; whose view, a seat from 0
        position TEXT,              -- deals: the position solved; drafts: the drafted position
                                    --   of the principal line (compact notation)
        solved INTEGER,             -- 1 when the value is exact, 0 when a limit stopped it
        value TEXT,                 -- the exact value as 'p/q' (or an integer); NULL if unsolved
        value_float REAL,           -- the same as a float
        lower TEXT, upper TEXT,     -- proven bounds ('p/q'); equal to value when solved
        summary TEXT,               -- JSON: strategies at the root, principal line, ...
        nodes INTEGER,              -- search nodes (drafts: draft nodes plus play nodes)
        seconds REAL,               -- wall-clock seconds of this item (not reproducible)
        version TEXT)               -- code version: take6 version + '+' + solver source hash

Values: ``diff`` is the heads the other player takes minus the heads ``player`` takes (so
positive is good for ``player``); ``paranoid`` is ``player``'s own heads against the coalition of
the others. See :mod:`solver.problem`.

Resuming. Each item's row is written in its own transaction (``INSERT ... ON CONFLICT DO
NOTHING``), so after a crash (even ``kill -9``) the store holds complete rows only; a run skips
the items whose rows exist and solves the rest. Results do not depend on the order of work, so an
interrupted and resumed run stores the same rows as an uninterrupted one (``seconds`` aside).
A study name is bound to its parameters: running a study whose name the store already holds with
other parameters is a :class:`StudyError` naming the difference (choose another ``study`` name
to keep both in one store).

Execution: :func:`run_study` takes any :class:`concurrent.futures.Executor` (a process pool, a
Dask ``Client.get_executor()``, ...); only the calling process writes to the store.
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import datetime as dt
import hashlib
import importlib
import json
import os
import random
import signal
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from itertools import islice
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from solver.api import solve
from solver.draft import solve_draft
from solver.errors import SolverError
from solver.problem import Objective, default_objective
from take6.cards import MAX_CARD
from take6.notation import format_position
from take6.position import Position
from take6.text import excerpt

SCHEMA_VERSION = 1
ROWS = 4
"""Rows on the table in every study (Logik)."""

P = ParamSpec("P")
T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS studies (
    study   TEXT PRIMARY KEY,
    kind    TEXT NOT NULL CHECK (kind IN ('deals', 'drafts')),
    params  TEXT NOT NULL,
    items   INTEGER NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    study        TEXT NOT NULL REFERENCES studies(study),
    item         TEXT NOT NULL,
    kind         TEXT NOT NULL,
    hand_size    INTEGER NOT NULL,
    players      INTEGER NOT NULL,
    deal         INTEGER,
    seed         INTEGER,
    first_picker INTEGER,
    objective    TEXT NOT NULL,
    player       INTEGER NOT NULL,
    position     TEXT NOT NULL,
    solved       INTEGER NOT NULL,
    value        TEXT,
    value_float  REAL,
    lower        TEXT NOT NULL,
    upper        TEXT NOT NULL,
    summary      TEXT NOT NULL,
    nodes        INTEGER NOT NULL,
    seconds      REAL NOT NULL,
    version      TEXT NOT NULL,
    PRIMARY KEY (study, item)
);
"""

COLUMNS: tuple[tuple[str, str], ...] = (
    ("study", "text"),
    ("item", "text"),
    ("kind", "text"),
    ("hand_size", "int"),
    ("players", "int"),
    ("deal", "int"),
    ("seed", "int"),
    ("first_picker", "int"),
    ("objective", "text"),
    ("player", "int"),
    ("position", "text"),
    ("solved", "bool"),
    ("value", "text"),
    ("value_float", "float"),
    ("lower", "text"),
    ("upper", "text"),
    ("summary", "text"),
    ("nodes", "int"),
    ("seconds", "float"),
    ("version", "text"),
)
"""The columns of ``results`` in order, with their type in exports."""

Row = dict[str, Any]


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

    def params(self) -> dict[str, Any]:
        return {
            "hand_sizes": list(self.hand_sizes),
            "deals": self.deals,
            "seed": self.seed,
            "players": self.players,
            "objective": _objective(self.objective).value,
            "player": self.player,
            "node_limit": self.node_limit,
        }

    def items(self) -> int:
        """How many items the study has (without building them)."""
        return len(self.hand_sizes) * self.deals

    def tasks(self) -> Iterator[Task]:
        """The items, generated one at a time (a study of 10^9 deals holds no list of them)."""
        for k in self.hand_sizes:
            for i in range(self.deals):
                yield Task(
                    kind="deals",
                    item=f"k={k} deal={i}",
                    hand_size=k,
                    players=self.players,
                    objective=_objective(self.objective),
                    player=self.player,
                    deal=i,
                    seed=self.seed,
                    node_limit=self.node_limit,
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

    def params(self) -> dict[str, Any]:
        return {
            "hand_sizes": list(self.hand_sizes),
            "first_pickers": list(self.first_pickers),
            "players": self.players,
            "objective": _objective(self.objective).value,
            "player": self.player,
        }

    def items(self) -> int:
        """How many items the study has."""
        return len(self.hand_sizes) * len(self.first_pickers)

    def tasks(self) -> Iterator[Task]:
        """The items, one at a time."""
        for k in self.hand_sizes:
            for f in self.first_pickers:
                yield Task(
                    kind="drafts",
                    item=f"k={k} first={f}",
                    hand_size=k,
                    players=self.players,
                    objective=_objective(self.objective),
                    player=self.player,
                    first_picker=f,
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


# -- the work of one item (runs in a worker) ------------------------------------------------


def deal_position(hand_size: int, index: int, seed: int, players: int = 2) -> Position:
    """The ``index``-th random Logik deal of a study: deck ``1..players*hand_size + 4``
    shuffled by ``random.Random`` seeded with a string of ``(seed, players, hand_size, index)``
    (string seeds are hashed with SHA-512, the same in every process and Python version)."""
    size = players * hand_size + ROWS
    rng = random.Random(f"take6-study-deal seed={seed} players={players} k={hand_size} i={index}")
    deck = list(range(1, size + 1))
    rng.shuffle(deck)
    hands = [deck[p * hand_size : (p + 1) * hand_size] for p in range(players)]
    rows = sorted([c] for c in deck[players * hand_size :])
    return Position.create("logik", rows, hands, deck=size)


@cache
def code_version() -> str:
    """``take6`` package version, ``+``, the first 12 hex digits of a SHA-256 over the solver
    package's source files (name and content, sorted by name; command-line modules excluded)."""
    try:
        version = metadata.version("take6")
    except metadata.PackageNotFoundError:
        version = "unknown"
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        if path.name.endswith("cli.py"):
            continue
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{version}+{digest.hexdigest()[:12]}"


def run_task(task: Task) -> Row:
    """Solve one item and return its row (a dict of column values, ``study`` excluded)."""
    started = time.perf_counter()
    if task.kind == "deals":
        row = _solve_deal(task)
    elif task.kind == "drafts":
        row = _solve_draft(task)
    else:
        raise StudyError(f"unknown study kind {task.kind!r}")
    row.update(
        item=task.item,
        kind=task.kind,
        hand_size=task.hand_size,
        players=task.players,
        deal=task.deal,
        seed=task.seed,
        first_picker=task.first_picker,
        objective=task.objective.value,
        player=task.player,
        seconds=time.perf_counter() - started,
        version=code_version(),
    )
    return row


def _solve_deal(task: Task) -> Row:
    assert task.deal is not None and task.seed is not None
    pos = deal_position(task.hand_size, task.deal, task.seed, task.players)
    result, _ = solve(pos, task.objective, task.player, node_limit=task.node_limit)
    data = result.to_json()
    summary = {"strategies": data["strategies"], "line": data["line"], "lps": data["lps"]}
    return {
        "position": format_position(pos),
        "solved": int(result.solved),
        "value": data["value"],
        "value_float": data["value_float"],
        "lower": data["lower"],
        "upper": data["upper"],
        "summary": json.dumps(summary, sort_keys=True),
        "nodes": result.nodes,
    }


def _solve_draft(task: Task) -> Row:
    assert task.first_picker is not None
    result = solve_draft(
        task.players, task.hand_size, task.first_picker, task.objective, task.player
    )
    data = result.to_json()
    keys = ("picks", "best_picks", "line", "play", "leaves", "leaf_hits", "play_nodes")
    summary = {k: data[k] for k in keys}
    summary["draft_nodes"] = result.nodes
    return {
        "position": data["position"] or "",
        "solved": int(result.solved),
        "value": data["value"],
        "value_float": data["value_float"],
        "lower": data["lower"],
        "upper": data["upper"],
        "summary": json.dumps(summary, sort_keys=True),
        "nodes": result.nodes + result.play_nodes,
    }


# -- the store ------------------------------------------------------------------------------


@dataclass(frozen=True)
class StudyInfo:
    """A study as recorded in a store, with its progress."""

    study: str
    kind: str
    params: dict[str, Any]
    items: int
    done: int
    created: str


class Store:
    """A SQLite study store (see the module docstring for the schema). Use as a context
    manager; only one process should write a given study at a time (others are safe but
    may repeat work)."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        """Open (``create=True``: create if need be) the store for writing; ``create=False``
        opens an existing store read-only: the file, its journal and its directory are left
        exactly as they were (an empty or foreign file is an error, never made a store)."""
        self.path = Path(path)
        self.readonly = not create
        if not create and not self.path.is_file():
            raise StudyError(f"no study store {excerpt(str(self.path))}")
        try:
            if self.readonly:
                self.conn = _connect_readonly(self.path)
                self._check_schema()
                return
            # Transactions are explicit (BEGIN/COMMIT): isolation_level=None.
            self.conn = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            # WAL with synchronous=NORMAL survives a killed process without losing a commit;
            # only a power cut can drop the last transactions (never half a row).
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self._init_schema()
        except sqlite3.DatabaseError as exc:
            raise StudyError(
                f"{excerpt(str(self.path))} is not a usable study store: {exc}"
            ) from None

    def _tables(self) -> set[str]:
        return {
            r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }

    def _check_schema(self) -> None:
        tables = self._tables()
        if "meta" not in tables:
            what = f"tables: {', '.join(sorted(tables))}" if tables else "an empty database"
            raise StudyError(f"{excerpt(str(self.path))} is not a take6 study store ({what})")
        found = self.conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        schema = found[0] if found else None
        if schema != str(SCHEMA_VERSION):
            raise StudyError(
                f"store {excerpt(str(self.path))} has schema version {schema}, this code "
                f"reads version {SCHEMA_VERSION}"
            )

    def _init_schema(self) -> None:
        tables = self._tables()
        if tables and "meta" not in tables:
            raise StudyError(
                f"{excerpt(str(self.path))} is a SQLite database but not a take6 study store "
                f"(tables: {', '.join(sorted(tables))})"
            )
        with self.transaction():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self.conn.execute(statement)
            self.conn.execute(
                "INSERT INTO meta(key, value) VALUES ('schema', ?) ON CONFLICT DO NOTHING",
                (str(SCHEMA_VERSION),),
            )
        self._check_schema()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (rolled back on an exception)."""
        if self.readonly:
            raise StudyError(f"store {excerpt(str(self.path))} is open read-only")
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def register(self, name: str, study: Study) -> None:
        """Record the study, or check that the recorded one has the same kind and parameters;
        raises :class:`StudyError` naming every difference."""
        params = study.params()
        text = json.dumps(params, sort_keys=True)
        with self.transaction():
            found = self.conn.execute(
                "SELECT kind, params FROM studies WHERE study = ?", (name,)
            ).fetchone()
            if found is None:
                created = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
                self.conn.execute(
                    "INSERT INTO studies(study, kind, params, items, created) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (name, study.kind, text, study.items(), created),
                )
                return
        kind, old_text = found
        if kind != study.kind:
            raise StudyError(
                f"store {str(self.path)!r} has a {kind} study named {name!r}, this run is a "
                f"{study.kind} study; give another study name"
            )
        old = json.loads(old_text)
        diffs = [
            f"{key} {old.get(key)!r} in the store, {params.get(key)!r} now"
            for key in sorted(set(old) | set(params))
            if old.get(key) != params.get(key)
        ]
        if diffs:
            raise StudyError(
                f"store {str(self.path)!r} has study {name!r} with other parameters: "
                f"{'; '.join(diffs)} (give another study name to keep both)"
            )

    def done_items(self, name: str) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT item FROM results WHERE study=?", (name,))}

    def insert(self, name: str, row: Row) -> bool:
        """Write one item's row in its own transaction; False if it was already there."""
        values = dict(row, study=name)
        cols = [c for c, _ in COLUMNS]
        with self.transaction():
            cur = self.conn.execute(
                f"INSERT INTO results({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))}) "
                "ON CONFLICT DO NOTHING",
                [values[c] for c in cols],
            )
        return cur.rowcount == 1

    def studies(self) -> list[StudyInfo]:
        out = []
        for name, kind, params, items, created in self.conn.execute(
            "SELECT study, kind, params, items, created FROM studies ORDER BY study"
        ):
            (done,) = self.conn.execute(
                "SELECT COUNT(*) FROM results WHERE study=?", (name,)
            ).fetchone()
            out.append(StudyInfo(name, kind, json.loads(params), items, done, created))
        return out

    def rows(self, study: str | None = None) -> list[Row]:
        """The results (of one study, or all), ordered by study and item."""
        cols = [c for c, _ in COLUMNS]
        sql = f"SELECT {', '.join(cols)} FROM results"
        args: tuple[str, ...] = ()
        if study is not None:
            if study not in {s.study for s in self.studies()}:
                known = ", ".join(repr(s.study) for s in self.studies()) or "none"
                raise StudyError(
                    f"store {str(self.path)!r} has no study {study!r} (studies: {known})"
                )
            sql += " WHERE study = ?"
            args = (study,)
        sql += " ORDER BY study, hand_size, players, first_picker, deal, item"
        return [dict(zip(cols, r, strict=True)) for r in self.conn.execute(sql, args)]


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection that creates no file. SQLite's ``mode=ro`` still creates the
    ``-wal`` and ``-shm`` files of a WAL database when they are missing (and cannot remove them),
    so a store without a ``-wal`` file -- no writer has it open, and every commit is in the main
    file -- is opened ``immutable``; while a writer runs (its ``-wal`` exists), ``mode=ro``
    reads through the writer's journal."""
    uri = path.resolve().as_uri()
    live = Path(f"{path}-wal").exists()
    return sqlite3.connect(f"{uri}?mode=ro" if live else f"{uri}?immutable=1", uri=True)


# -- running --------------------------------------------------------------------------------


class InlineExecutor(cf.Executor):
    """Runs each call at once in the calling process (``--workers 1``): no pickling, and the
    store sees every result as soon as it is computed."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> cf.Future[T]:
        future: cf.Future[T] = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


EXECUTORS = ("process", "dask")


def _optional(module: str, what: str, extra: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise StudyError(f"{what} needs {module} (pip install 'take6[{extra}]')") from None


WORKERS_PER_CPU = 4
"""``--workers`` may ask for at most this many processes per CPU this process may use: more
only costs memory and start-up (the solver is CPU-bound)."""


def max_workers() -> int:
    """The most worker processes :func:`make_executor` starts on this machine."""
    return WORKERS_PER_CPU * max(1, len(_cpus()))


def check_executor(kind: str, workers: int | None = None, scheduler: str | None = None) -> None:
    """Raise :class:`StudyError` for executor settings :func:`make_executor` cannot use."""
    if kind not in EXECUTORS:
        raise StudyError(f"unknown executor {excerpt(kind)} (known: {', '.join(EXECUTORS)})")
    if workers is not None and workers < 1:
        raise StudyError(f"workers must be at least 1, got {workers}")
    if workers is not None and workers > max_workers():
        raise StudyError(
            f"workers must be at most {max_workers()} ({WORKERS_PER_CPU} per CPU, "
            f"{len(_cpus())} CPUs here), got {excerpt(workers)}"
        )
    if kind == "process" and scheduler is not None:
        raise StudyError("a scheduler address needs the dask executor (--executor dask)")
    if kind == "dask" and scheduler is None:
        raise StudyError("the dask executor needs a scheduler address (--scheduler ADDRESS)")
    if kind == "dask" and workers is not None:
        raise StudyError("--workers is for the process executor; a Dask cluster has its own")


_PR_SET_PDEATHSIG = 1
"""``prctl(2)`` option: the signal a process gets when its parent dies (Linux)."""

WATCH_SECONDS = 0.5
"""How often a pool worker checks that the process that started it is still alive."""


def _worker_init(parent: int) -> None:
    """Run first in every pool worker: Ctrl-C is the parent's to handle (it stops the pool, so
    a worker ignores SIGINT), and the worker dies with the parent, even after ``kill -9``: by
    the parent-death signal on Linux, and everywhere by a thread that polls the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the watchdog below still works
            pass
    ppid = os.getppid()
    if not _alive(parent):  # died before prctl took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent, ppid), daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else (a reused pid): treat as gone
        return False
    return True


def _watch_parent(parent: int, ppid: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != ppid or not _alive(parent):
            os._exit(1)


def _stop_pool(pool: cf.ProcessPoolExecutor) -> None:
    """Stop a pool now (Ctrl-C, an error): cancel the queued work and end the workers instead
    of waiting for the items they are solving."""
    processes = list(pool._processes.values()) if pool._processes else []
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        if proc.is_alive():
            proc.terminate()
    deadline = time.monotonic() + 5
    for proc in processes:
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            proc.kill()
            proc.join(1)


@contextmanager
def make_executor(
    kind: str = "process",
    workers: int | None = None,
    scheduler: str | None = None,
    *,
    items: int | None = None,
) -> Iterator[tuple[cf.Executor, int]]:
    """An executor and how many items to keep in flight.

    ``process``: a local process pool of ``workers`` processes (default: the CPU count; at
    most :func:`max_workers`, and no more than ``items`` when the number of items to solve is
    given), or an :class:`InlineExecutor` for one. Its workers ignore Ctrl-C and die with this
    process; an exception in the ``with`` block (``KeyboardInterrupt`` included) ends them at
    once instead of waiting for their items. ``dask``: a ``dask.distributed`` client on the
    scheduler at ``scheduler`` (e.g. ``tcp://10.0.0.5:8786``), through its concurrent.futures
    interface ``Client.get_executor()`` (extra ``dist``)."""
    check_executor(kind, workers, scheduler)
    if kind == "process":
        n = workers if workers is not None else max(1, len(_cpus()))
        if items is not None:
            n = max(1, min(n, items))
        if n == 1:
            yield InlineExecutor(), 1
            return
        pool = cf.ProcessPoolExecutor(
            max_workers=n, initializer=_worker_init, initargs=(os.getpid(),)
        )
        try:
            yield pool, 4 * n
        except BaseException:
            _stop_pool(pool)
            raise
        pool.shutdown(wait=True)
        return
    distributed = _optional("distributed", "the dask executor", "dist")
    with distributed.Client(scheduler, timeout=30) as client:
        threads = sum(client.nthreads().values()) or 1
        executor: cf.Executor = client.get_executor()
        yield executor, 4 * threads


def _cpus() -> list[int]:
    try:
        return list(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return list(range(os.cpu_count() or 1))


@dataclass(frozen=True)
class RunReport:
    """What a run did: items in the study, found done, solved now, and the time it took."""

    study: str
    items: int
    skipped: int
    solved: int
    seconds: float

    @property
    def rate(self) -> float:
        """Items solved per second in this run."""
        return self.solved / self.seconds if self.seconds > 0 else 0.0


Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each stored item (and once at the start)."""


def prepare(store: str | Path, study: Study, name: str | None = None) -> str:
    """Record ``study`` in ``store`` under ``name`` (default: its kind), or check that the
    recorded study has the same parameters; returns the name. :func:`run_study` does this
    too; call it first to fail before starting workers."""
    label = name if name is not None else study.kind
    if not label or not label.strip():
        raise StudyError("a study name must not be empty")
    with Store(store) as db:
        db.register(label, study)
    return label


def run_tasks(tasks: Sequence[Task]) -> list[Row]:
    """Solve a batch of items (one round trip to a worker for many small items)."""
    return [run_task(t) for t in tasks]


MAX_BATCH = 64


def run_study(
    store: str | Path,
    study: Study,
    *,
    name: str | None = None,
    executor: cf.Executor | None = None,
    window: int = 8,
    batch_seconds: float = 0.2,
    progress: Progress | None = None,
) -> RunReport:
    """Solve every item of ``study`` not yet in ``store`` and write each result as it arrives.

    ``name`` is the study's name in the store (default: its kind). ``executor`` runs the items
    (default: in this process); ``window`` is how many batches are in flight at once. Items go
    out one at a time until the first results show how long an item takes; then small items
    go in batches of about ``batch_seconds`` of work (at most :data:`MAX_BATCH` items), so the
    cost of a round trip to a worker does not dominate. Each row is still written in its own
    transaction as soon as its batch returns. Raises :class:`StudyError` when the store holds
    a study of that name with other parameters."""
    label = prepare(store, study, name)
    if window < 1:
        raise StudyError(f"window must be at least 1, got {window}")
    run = executor if executor is not None else InlineExecutor()
    if isinstance(run, InlineExecutor):
        batch_seconds = 0.0  # no round trip to save
    started = time.perf_counter()
    total = study.items()
    with Store(store) as db:
        done = db.done_items(label)
        # Generated lazily: only the batches in flight exist at any time.
        pending = (t for t in study.tasks() if t.item not in done)
        skipped = len(done)
        count = skipped
        if progress is not None:
            progress(count, total)
        solved_seconds = 0.0
        more = True
        inflight: set[cf.Future[list[Row]]] = set()
        try:
            while True:
                while len(inflight) < window and more:
                    mean = solved_seconds / (count - skipped) if count > skipped else None
                    size = 1
                    if mean is not None and batch_seconds > 0:
                        size = max(1, min(MAX_BATCH, int(batch_seconds / max(mean, 1e-6))))
                    batch = list(islice(pending, size))
                    if not batch:
                        more = False
                        break
                    inflight.add(run.submit(run_tasks, batch))
                if not inflight:
                    break
                finished, inflight = cf.wait(inflight, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    for row in future.result():
                        db.insert(label, row)
                        count += 1
                        solved_seconds += row["seconds"]
                        if progress is not None:
                            progress(count, total)
        finally:
            for future in inflight:
                future.cancel()
    return RunReport(label, total, skipped, count - skipped, time.perf_counter() - started)


# -- export ---------------------------------------------------------------------------------


def check_export_target(store: str | Path, out: str | Path, *, force: bool = False) -> Path:
    """``out`` as a path an export may write: never the store itself or one of its journal
    files (not even with ``force``), never a directory, and not an existing file unless
    ``force``. Raises :class:`StudyError` naming the file."""
    target = Path(out)
    base = Path(store)
    guarded = [base, *(Path(f"{base}{suffix}") for suffix in ("-wal", "-shm", "-journal"))]
    for g in guarded:
        same = g.exists() and target.exists() and os.path.samefile(g, target)
        if same or g.resolve() == target.resolve():
            raise StudyError(
                f"refusing to write the export to {excerpt(str(out))}: it is the study store "
                f"{excerpt(str(store))}{'' if g == base else ' (its journal)'}"
            )
    if target.is_dir():
        raise StudyError(f"cannot write the export to {excerpt(str(out))}: it is a directory")
    if target.exists() and not force:
        raise StudyError(f"{excerpt(str(out))} exists; give --force to overwrite it")
    return target


@contextmanager
def _replacing(target: Path) -> Iterator[Path]:
    """A temporary file next to ``target`` that replaces it only once written completely (an
    export that fails half-way leaves the old file, or none)."""
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def export_csv(
    store: str | Path, out: str | Path, study: str | None = None, *, force: bool = False
) -> int:
    """Write the results (of one study, or all) as CSV with a header; NULL is an empty field.
    Returns the number of rows. ``out`` is never the store, and an existing file only with
    ``force`` (:func:`check_export_target`)."""
    import csv

    target = check_export_target(store, out, force=force)
    with Store(store, create=False) as db:
        rows = db.rows(study)
    with _replacing(target) as tmp, open(tmp, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow([c for c, _ in COLUMNS])
        for row in rows:
            writer.writerow(["" if row[c] is None else row[c] for c, _ in COLUMNS])
    return len(rows)


def export_parquet(
    store: str | Path, out: str | Path, study: str | None = None, *, force: bool = False
) -> int:
    """Write the results as Parquet (extra ``study``: pyarrow) with typed columns (``solved``
    as bool). Returns the number of rows. ``out`` as in :func:`export_csv`."""
    target = check_export_target(store, out, force=force)
    pa = _optional("pyarrow", "Parquet export", "study")
    pq = _optional("pyarrow.parquet", "Parquet export", "study")
    types = {"text": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_()}
    with Store(store, create=False) as db:
        rows = db.rows(study)
    schema = pa.schema([(c, types[t]) for c, t in COLUMNS])
    columns = {
        c: [None if r[c] is None else (bool(r[c]) if t == "bool" else r[c]) for r in rows]
        for c, t in COLUMNS
    }
    with _replacing(target) as tmp:
        pq.write_table(pa.table(columns, schema=schema), str(tmp))
    return len(rows)
