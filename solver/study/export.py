"""Exporting a study store to Parquet, CSV or JSON lines (never over the store itself).

Every format has the same columns (:func:`export_columns`): the store's columns, except that
the ``summary`` JSON text is spread into typed columns (the root strategy of each seat, the
principal line, a draft's first picks and line, the counters), and the bounds get float
columns too. Seats count from 0. Parquet keeps the types (lists as Arrow lists) and carries
the provenance as file-level metadata (:func:`export_metadata`: the studies and their
parameters, the take6 and code versions, the git commit, the time of the export, the export
schema version) and each column's meaning as field metadata; CSV writes a list as a JSON
array (``[3,7]``), a boolean as ``true``/``false`` and a missing value as an empty field;
JSON lines writes one object per row."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from importlib import metadata
from pathlib import Path
from typing import Any

from solver.api import text_fraction
from solver.study.run import code_version
from solver.study.spec import Row, StudyError, optional_module
from solver.study.store import COLUMNS, SCHEMA_VERSION, Store, StudyInfo
from take6.text import excerpt

EXPORT_SCHEMA_VERSION = 1
"""The version of the exported columns and metadata keys (``take6.export_schema``); it
changes when a column or key changes meaning or goes away."""

META_PREFIX = "take6."
"""Every file-level metadata key this export writes starts with it."""

# -- the columns ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """One exported column: its name, its type and what it holds.

    Types: ``text``, ``int`` (int64), ``float`` (float64), ``bool``, and lists of them,
    ``list<int>``, ``list<text>``, ``list<float>``, ``list<list<int>>``,
    ``list<list<list<int>>>``."""

    name: str
    type: str
    meaning: str


_STORE_MEANINGS: dict[str, str] = {
    "study": "the study's name in the store",
    "item": "the item's key in its study: 'k=3 deal=17' (deals), 'k=2 first=1' (drafts)",
    "kind": "'deals' (the play of a random Logik deal) or 'drafts' (a Logik draft and its play)",
    "hand_size": "cards in each hand (k)",
    "players": "number of players",
    "deal": "deals: the deal's index in its study, from 0 (null for drafts)",
    "seed": "deals: the study's seed (null for drafts)",
    "first_picker": "drafts and drafted deals: the seat that picks first, from 0 "
    "(null for shuffled deals)",
    "objective": "'diff' (2 players: the other's heads minus player's) or 'paranoid' "
    "(player's own heads against the coalition of the others)",
    "player": "whose view the value is, a seat from 0",
    "position": "deals: the position solved; drafts: the position after the principal draft "
    "line (compact notation, take6.notation.parse_position)",
    "solved": "true when the value is exact; false when a node limit stopped the search",
    "value": "the exact value, 'p/q' or an integer (null when not solved)",
    "value_float": "the value as a float (null when not solved)",
    "lower": "a proven lower bound of the value ('p/q'; the value when solved)",
    "upper": "a proven upper bound of the value ('p/q'; the value when solved)",
    "nodes": "search nodes (drafts: draft nodes plus play nodes)",
    "seconds": "wall-clock seconds of this item (the one column that is not reproducible)",
    "version": "the code that solved it: take6 version '+' 12 hex digits of a SHA-256 over "
    "the solver's source",
}

_BOUND_FLOATS = (
    Column("lower_float", "float", "lower as a float"),
    Column("upper_float", "float", "upper as a float"),
)


def _seat_columns(p: int) -> tuple[Column, ...]:
    who = f"seat {p}'s optimal mixed strategy at the root (deals; null for drafts and seats "
    return (
        Column(
            f"seat{p}_support",
            "int",
            who + "the game does not have): cards played with positive probability",
        ),
        Column(f"seat{p}_mixed", "bool", f"seat{p}_support > 1: the optimal strategy mixes"),
        Column(f"seat{p}_cards", "list<int>", f"the cards of seat{p}'s support, ascending"),
        Column(
            f"seat{p}_probs",
            "list<text>",
            f"their probabilities, exact ('p/q'), in the order of seat{p}_cards",
        ),
        Column(f"seat{p}_probs_float", "list<float>", "the same probabilities as floats"),
    )


_SUMMARY_COLUMNS = (
    Column(
        "line_cards",
        "list<list<int>>",
        "the principal line of play (deals: from the "
        "position; drafts: after the draft), turn by turn: the card of each seat",
    ),
    Column("line_heads", "list<list<int>>", "turn by turn: the heads each seat took"),
    Column(
        "line_choices",
        "list<list<list<int>>>",
        "turn by turn: the row choices made, "
        "[seat, row] pairs (both from 0); empty when no card was too low",
    ),
    Column("lps", "int", "deals: stage games that needed a linear program (null for drafts)"),
    Column(
        "pick_cards",
        "list<int>",
        "drafts: every card the first picker can take first (null for deals)",
    ),
    Column(
        "pick_values",
        "list<text>",
        "drafts: the exact value of each first pick, in the "
        "order of pick_cards (an element is null when not solved)",
    ),
    Column("pick_values_float", "list<float>", "drafts: the same as floats"),
    Column("pick_lower", "list<text>", "drafts: proven lower bounds of the first picks"),
    Column("pick_upper", "list<text>", "drafts: proven upper bounds of the first picks"),
    Column("best_picks", "list<int>", "drafts: the optimal first picks"),
    Column(
        "draft_seats",
        "list<int>",
        "drafts: the principal draft line, the seat of each pick in order",
    ),
    Column("draft_cards", "list<int>", "drafts: the principal draft line, the card of each pick"),
    Column("draft_nodes", "int", "drafts: nodes of the draft search"),
    Column("play_nodes", "int", "drafts: nodes of the play searches of the drafted deals"),
    Column("leaves", "int", "drafts: drafted deals solved"),
    Column("leaf_hits", "int", "drafts: drafted deals found already solved"),
)


def export_columns(players: int = 2) -> tuple[Column, ...]:
    """The exported columns, in order, for rows of at most ``players`` players (one group of
    ``seat{p}_*`` columns per seat)."""
    base = tuple(Column(c, t, _STORE_MEANINGS[c]) for c, t in COLUMNS if c != "summary")
    i = [c.name for c in base].index("upper") + 1
    seats = tuple(c for p in range(players) for c in _seat_columns(p))
    return base[:i] + _BOUND_FLOATS + base[i:] + seats + _SUMMARY_COLUMNS


def _players(rows: Sequence[Row]) -> int:
    return max([2, *(int(r["players"]) for r in rows)])


# -- the rows -------------------------------------------------------------------------------


def fraction(text: str) -> Fraction:
    """A stored exact value (``'p/q'`` or an integer, any length) as a Fraction."""
    return text_fraction(text)


def _float(text: str | None) -> float | None:
    return None if text is None else float(fraction(text))


def export_row(row: Row, players: int) -> dict[str, Any]:
    """One store row as an exported row (the columns of :func:`export_columns`)."""
    out: dict[str, Any] = {c: row[c] for c, _ in COLUMNS if c != "summary"}
    out["solved"] = bool(row["solved"])
    out["lower_float"] = _float(row["lower"])
    out["upper_float"] = _float(row["upper"])
    summary = json.loads(row["summary"])
    strategies = summary.get("strategies", {})
    for p in range(players):
        s = strategies.get(str(p)) if row["kind"] == "deals" else None
        support = [] if s is None else sorted((int(c), q) for c, q in s.items() if q != "0")
        out[f"seat{p}_support"] = None if s is None else len(support)
        out[f"seat{p}_mixed"] = None if s is None else len(support) > 1
        out[f"seat{p}_cards"] = None if s is None else [c for c, _ in support]
        out[f"seat{p}_probs"] = None if s is None else [q for _, q in support]
        out[f"seat{p}_probs_float"] = None if s is None else [_float(q) for _, q in support]
    turns = summary["line"] if row["kind"] == "deals" else summary["play"]
    out["line_cards"] = [list(t["cards"]) for t in turns]
    out["line_heads"] = [list(t["heads"]) for t in turns]
    out["line_choices"] = [[[c["player"], c["row"]] for c in t["choices"]] for t in turns]
    drafts = row["kind"] == "drafts"
    out["lps"] = None if drafts else summary["lps"]
    picks = summary.get("picks") if drafts else None
    out["pick_cards"] = None if picks is None else [p["card"] for p in picks]
    out["pick_values"] = None if picks is None else [p["value"] for p in picks]
    out["pick_values_float"] = None if picks is None else [p["value_float"] for p in picks]
    out["pick_lower"] = None if picks is None else [p["lower"] for p in picks]
    out["pick_upper"] = None if picks is None else [p["upper"] for p in picks]
    out["best_picks"] = summary["best_picks"] if drafts else None
    out["draft_seats"] = [d["player"] for d in summary["line"]] if drafts else None
    out["draft_cards"] = [d["card"] for d in summary["line"]] if drafts else None
    for key in ("draft_nodes", "play_nodes", "leaves", "leaf_hits"):
        out[key] = summary[key] if drafts else None
    return out


def export_rows(rows: Sequence[Row]) -> tuple[tuple[Column, ...], list[dict[str, Any]]]:
    """The columns and the exported rows of some store rows."""
    players = _players(rows)
    return export_columns(players), [export_row(r, players) for r in rows]


# -- the metadata ---------------------------------------------------------------------------


def git_commit() -> str | None:
    """The git commit of the source tree this code runs from (with ``-dirty`` when tracked
    files differ from it), or None when it is not a git checkout (an installed wheel) or git
    is missing."""
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists() or not (root / "pyproject.toml").is_file():
        return None
    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0")
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            env=env,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            env=env,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{head}-dirty" if dirty else head or None


def take6_version() -> str:
    try:
        return metadata.version("take6")
    except metadata.PackageNotFoundError:
        return "unknown"


def study_json(info: StudyInfo) -> dict[str, Any]:
    """A study as recorded in the store (the form in the metadata and ``status --json``)."""
    return {
        "study": info.study,
        "kind": info.kind,
        "params": info.params,
        "items": info.items,
        "done": info.done,
        "created": info.created,
    }


def export_metadata(
    studies: Sequence[StudyInfo], rows: int, *, created: str | None = None
) -> dict[str, str]:
    """The file-level metadata of an export (every value a string; JSON where structured):

    ``take6.export_schema`` (:data:`EXPORT_SCHEMA_VERSION`), ``take6.store_schema``,
    ``take6.version`` (the package), ``take6.code_version`` (the exporting code, as the rows'
    ``version``), ``take6.git_commit`` (``unknown`` outside a git checkout), ``take6.created``
    (UTC, ISO 8601), ``take6.rows``, ``take6.studies`` (JSON: each study's name, kind,
    parameters — seats from 0 —, items, items done, creation time)."""
    when = created or dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    return {
        META_PREFIX + "export_schema": str(EXPORT_SCHEMA_VERSION),
        META_PREFIX + "store_schema": str(SCHEMA_VERSION),
        META_PREFIX + "version": take6_version(),
        META_PREFIX + "code_version": code_version(),
        META_PREFIX + "git_commit": git_commit() or "unknown",
        META_PREFIX + "created": when,
        META_PREFIX + "rows": str(rows),
        META_PREFIX + "studies": json.dumps([study_json(s) for s in studies], sort_keys=True),
    }


def read_export(store: str | Path, study: str | None = None) -> tuple[list[Row], list[StudyInfo]]:
    """The rows (of one study, or all) and the studies they come from."""
    with Store(store, create=False) as db:
        rows = db.rows(study)
        infos = [s for s in db.studies() if study is None or s.study == study]
    return rows, infos


# -- writing --------------------------------------------------------------------------------


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
def replacing(target: Path) -> Iterator[Path]:
    """A temporary file next to ``target`` that replaces it only once written completely (an
    export that fails half-way leaves the old file, or none)."""
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's file is private; an export is not
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def csv_field(value: Any) -> str:
    """A value as a CSV field: empty for null, ``true``/``false``, a list as a JSON array."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def write_csv(path: Path, columns: Sequence[Column], rows: Sequence[dict[str, Any]]) -> None:
    import csv

    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow([c.name for c in columns])
        for row in rows:
            writer.writerow([csv_field(row[c.name]) for c in columns])


def write_jsonl(path: Path, columns: Sequence[Column], rows: Sequence[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps({c.name: row[c.name] for c in columns}) + "\n")


def arrow_schema(columns: Sequence[Column], meta: dict[str, str] | None = None) -> Any:
    """The Arrow schema of ``columns`` (each field's ``description`` in its metadata)."""
    pa = optional_module("pyarrow", "Parquet export", "study")
    scalars = {"text": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_()}

    def arrow(t: str) -> Any:
        if t.startswith("list<") and t.endswith(">"):
            return pa.list_(arrow(t[5:-1]))
        return scalars[t]

    fields = [pa.field(c.name, arrow(c.type), metadata={"description": c.meaning}) for c in columns]
    return pa.schema(fields, metadata=meta)


def write_parquet(
    path: Path, columns: Sequence[Column], rows: Sequence[dict[str, Any]], meta: dict[str, str]
) -> None:
    pa = optional_module("pyarrow", "Parquet export", "study")
    pq = optional_module("pyarrow.parquet", "Parquet export", "study")
    schema = arrow_schema(columns, meta)
    table = pa.table({c.name: [r[c.name] for r in rows] for c in columns}, schema=schema)
    pq.write_table(table, str(path))


def _export(store: str | Path, out: str | Path, study: str | None, force: bool, fmt: str) -> int:
    target = check_export_target(store, out, force=force)
    if fmt == "parquet":  # fail on a missing pyarrow before reading anything
        optional_module("pyarrow.parquet", "Parquet export", "study")
    rows, infos = read_export(store, study)
    columns, out_rows = export_rows(rows)
    with replacing(target) as tmp:
        if fmt == "parquet":
            write_parquet(tmp, columns, out_rows, export_metadata(infos, len(rows)))
        elif fmt == "csv":
            write_csv(tmp, columns, out_rows)
        else:
            write_jsonl(tmp, columns, out_rows)
    return len(rows)


def export_csv(
    store: str | Path, out: str | Path, study: str | None = None, *, force: bool = False
) -> int:
    """Write the results (of one study, or all) as CSV with a header (the columns of
    :func:`export_columns`; see the module docstring for lists, booleans and nulls). Returns
    the number of rows. ``out`` is never the store, and an existing file only with ``force``
    (:func:`check_export_target`)."""
    return _export(store, out, study, force, "csv")


def export_jsonl(
    store: str | Path, out: str | Path, study: str | None = None, *, force: bool = False
) -> int:
    """Write the results as JSON lines, one object per row with the columns of
    :func:`export_columns`. Returns the number of rows; ``out`` as in :func:`export_csv`."""
    return _export(store, out, study, force, "jsonl")


def export_parquet(
    store: str | Path, out: str | Path, study: str | None = None, *, force: bool = False
) -> int:
    """Write the results as Parquet (extra ``study``: pyarrow) with typed columns, the
    provenance as file-level metadata (:func:`export_metadata`; read it with
    ``pyarrow.parquet.read_metadata(out).metadata``) and each column's meaning as its field's
    ``description``. Returns the number of rows; ``out`` as in :func:`export_csv`."""
    return _export(store, out, study, force, "parquet")
