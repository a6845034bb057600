"""Exporting a study store to CSV or Parquet (never over the store itself)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from solver.study.spec import StudyError, optional_module
from solver.study.store import COLUMNS, Store
from take6.text import excerpt

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
    pa = optional_module("pyarrow", "Parquet export", "study")
    pq = optional_module("pyarrow.parquet", "Parquet export", "study")
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
