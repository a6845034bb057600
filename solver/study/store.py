"""The resumable SQLite store of a study's results (the schema is in :mod:`solver.study.run`)."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.study.spec import Row, Study, StudyError
from take6.text import excerpt

SCHEMA_VERSION = 1
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
