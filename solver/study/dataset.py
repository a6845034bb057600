"""A dataset of solved positions: a study store exported to a directory with its data card.

:func:`write_dataset` writes, into one directory,

* ``positions.parquet`` — the rows with typed columns and the provenance as file-level
  metadata (:func:`solver.study.export.export_parquet`),
* ``positions.csv`` — the same columns as CSV (lists as JSON arrays),
* ``metadata.json`` — the Parquet file's metadata as JSON (for readers without Arrow), with
  the columns' types and meanings,
* ``README.md`` — the data card (:func:`datacard`): what was solved and how the positions
  were drawn, the rules, the meaning of the values and of every column, the code that made
  it, how to reproduce it, the licence and the one line that loads it with pandas.

Nothing is written over the study store, and an existing file of these names only with
``force``; each file is written whole or not at all."""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from solver.study.export import (
    META_PREFIX,
    Column,
    check_export_target,
    export_metadata,
    export_rows,
    read_export,
    replacing,
    write_csv,
    write_parquet,
)
from solver.study.spec import StudyError, optional_module
from take6.text import excerpt

PARQUET = "positions.parquet"
CSV = "positions.csv"
METADATA = "metadata.json"
CARD = "README.md"
FILES = (PARQUET, CSV, METADATA, CARD)
"""The files of a dataset directory."""

META_SCHEMA_KEY = META_PREFIX + "export_schema"


@dataclass(frozen=True)
class DatasetReport:
    """What :func:`write_dataset` wrote: the directory, the rows, the files."""

    directory: Path
    rows: int
    files: tuple[Path, ...]


def licence() -> str:
    """The project's licence (the package metadata's ``License``), which the data share."""
    try:
        return metadata.metadata("take6")["License"] or "unknown"
    except metadata.PackageNotFoundError:
        return "unknown"


def write_dataset(
    store: str | Path,
    directory: str | Path,
    study: str | None = None,
    *,
    force: bool = False,
    load_path: str | None = None,
) -> DatasetReport:
    """Export the results (of one study, or all) of ``store`` as a dataset in ``directory``
    (created if need be; see the module docstring). ``load_path`` is the path the data card's
    pandas line reads (default: ``directory`` as given). Raises :class:`StudyError` for a
    target that is a file, an existing dataset file without ``force``, or a store without
    rows."""
    optional_module("pyarrow.parquet", "a dataset (Parquet)", "study")
    target = Path(directory)
    if target.exists() and not target.is_dir():
        raise StudyError(f"cannot write a dataset to {excerpt(str(directory))}: it is a file")
    paths = {name: target / name for name in FILES}
    for path in paths.values():
        check_export_target(store, path, force=force)
    existing = [name for name, path in paths.items() if path.exists()]
    if existing and not _is_dataset(paths[METADATA]):
        # --force replaces an earlier dataset, never a README.md or .csv of something else
        raise StudyError(
            f"{excerpt(str(directory))} holds {', '.join(existing)} but is not a take6 dataset "
            "(no take6 metadata.json); give a new or empty directory"
        )
    rows, infos = read_export(store, study)
    if not rows:
        which = f"study {study!r}" if study else "the store"
        raise StudyError(f"{which} in {excerpt(str(store))} has no solved items to export")
    columns, out_rows = export_rows(rows)
    meta = export_metadata(infos, len(rows))
    target.mkdir(parents=True, exist_ok=True)
    where = load_path if load_path is not None else str(target)
    with replacing(paths[PARQUET]) as tmp:
        write_parquet(tmp, columns, out_rows, meta)
    with replacing(paths[CSV]) as tmp:
        write_csv(tmp, columns, out_rows)
    with replacing(paths[METADATA]) as tmp:
        tmp.write_text(json.dumps(metadata_json(meta, columns), indent=2) + "\n", "utf-8")
    with replacing(paths[CARD]) as tmp:
        tmp.write_text(datacard(meta, columns, out_rows, where), "utf-8")
    return DatasetReport(target, len(rows), tuple(paths.values()))


def _is_dataset(path: Path) -> bool:
    """Whether ``path`` is the ``metadata.json`` of a dataset this code wrote."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and META_SCHEMA_KEY in data


def metadata_json(meta: dict[str, str], columns: Sequence[Column]) -> dict[str, Any]:
    """``metadata.json``: the Parquet metadata (structured values decoded) and the columns."""
    out: dict[str, Any] = {
        k: json.loads(v) if k.endswith(".studies") else v for k, v in meta.items()
    }
    out["columns"] = [{"name": c.name, "type": c.type, "meaning": c.meaning} for c in columns]
    return out


# -- the data card --------------------------------------------------------------------------

_RULES = """\
The positions are from **6 nimmt! Logik** (the variant in which every card is face up), in
its study form with a **hand size k**: the deck is the cards 1..(n·k + 4) for n players, each
card with its bull heads (55: 7; multiples of 11: 5; of 10: 3; of 5: 2; others 1). Four rows
start with one card each; every turn all players choose a card at once, the cards are placed
lowest first, each after the row whose last card is the highest below it; the sixth card of a
row takes the five cards (their heads count against its owner) and starts the row; a card
lower than every row's last card takes a row of its owner's choice. The round ends when the
hands are empty. In the draft (kind `drafts`), the players take the face-up cards one at a
time, in turn from the first picker, until each has k; the 4 cards left start the rows. Every
hand is known, so each position is a game of perfect information with simultaneous moves,
solved exactly (the values are exact fractions; the strategies are optimal mixed strategies).
The engine is `take6` (rules in `take6/`, solver in `solver/`); every solved value comes with
the means to re-check it (`take6 solve --certificate`, `take6 check-certificate`)."""

_VALUES = """\
Values are from the view of `player` (a seat, from 0), in bull heads over the rest of the
round: `diff` (2 players) is the heads the other player takes minus the heads `player` takes,
so a positive value is good for `player`; `paranoid` (3 or more players) is the heads `player`
takes when all the others form a coalition against them (lower is better for `player`).
Drafts value the whole round from the first pick on; deals value the play from the dealt
position."""


def _drawn(kind: str, params: dict[str, Any]) -> str:
    if kind == "deals" and params.get("draft"):
        bots = ", ".join(f"seat {p}: `{b}`" for p, b in enumerate(params["draft"]))
        return (
            f"for each hand size k in {params['hand_sizes']} and each deal index i in "
            f"0..{params['deals'] - 1}, the Logik draft from the face-up deck "
            f"1..{params['players']}·k + 4 by bots ({bots}), picks in seat order from seat "
            f"{params['first_picker']}, their random picks drawn by Python's `random.Random` "
            f'seeded with the string `"take6-study-draft seed={params["seed"]} '
            f'players={params["players"]} k={{k}} i={{i}}"`; the 4 cards left start the rows '
            "(`solver.study.run.drafted_position`)"
        )
    if kind == "deals":
        return (
            f"for each hand size k in {params['hand_sizes']} and each deal index i in "
            f"0..{params['deals'] - 1}, the deck 1..{params['players']}·k + 4 shuffled by "
            "Python's `random.Random` seeded with the string "
            f'`"take6-study-deal seed={params["seed"]} players={params["players"]} k={{k}} '
            'i={i}"` (string seeds go through SHA-512: the same deal on every machine and '
            "Python version); seat p gets the p-th block of k cards, the last 4 cards start "
            "the rows (`solver.study.run.deal_position`)"
        )
    firsts = ", ".join(str(f) for f in params["first_pickers"])
    if params.get("by_first_pick"):
        return (
            f"for each hand size k in {params['hand_sizes']}, each first picker in seats "
            f"{firsts} and each card c of the face-up deck 1..{params['players']}·k + 4: the "
            "draft after that first picker takes c first, solved together with the play of "
            "every drafted deal (one row a first pick; the draft's value is the best of them)"
        )
    return (
        f"for each hand size k in {params['hand_sizes']} and each first picker in seats "
        f"{firsts}: the whole draft from the face-up deck 1..{params['players']}·k + 4, solved "
        "together with the play of every drafted deal; `position` is the deal the principal "
        "draft line leads to"
    )


def _command(kind: str, name: str, params: dict[str, Any]) -> str:
    ks = " ".join(str(k) for k in params["hand_sizes"])
    common = (
        f"--players {params['players']} --objective {params['objective']} "
        f"--player {params['player'] + 1} --store study.sqlite --study {name}"
    )
    if kind == "deals":
        limit = f" --node-limit {params['node_limit']}" if params.get("node_limit") else ""
        if params.get("draft"):
            limit += f" --draft {','.join(params['draft'])}"
            limit += f" --first-picker {params['first_picker'] + 1}"
        return (
            f"take6 study deals --hand-size {ks} --deals {params['deals']} "
            f"--seed {params['seed']}{limit} {common}"
        )
    firsts = " ".join(str(f + 1) for f in params["first_pickers"])
    split = " --by-first-pick" if params.get("by_first_pick") else ""
    return f"take6 study drafts --hand-size {ks} --first-picker {firsts}{split} {common}"


def _stats(rows: Sequence[dict[str, Any]]) -> list[str]:
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["study"], r["hand_size"]), []).append(r)
    out = [
        "| study | k | rows | solved | mean value | min | max | mixed at the root |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (study, k), rs in sorted(groups.items()):
        vals = [r["value_float"] for r in rs if r["value_float"] is not None]
        mixed = [
            any(r.get(f"seat{p}_mixed") for p in range(r["players"]))
            for r in rs
            if r["kind"] == "deals"
        ]
        share = f"{sum(mixed)}/{len(mixed)}" if mixed else "-"
        mean = f"{statistics.fmean(vals):+.4f}" if vals else "-"
        lo = f"{min(vals):+.4f}" if vals else "-"
        hi = f"{max(vals):+.4f}" if vals else "-"
        out.append(
            f"| {study} | {k} | {len(rs)} | {sum(r['solved'] for r in rs)} | {mean} | {lo} | "
            f"{hi} | {share} |"
        )
    return out


def datacard(
    meta: dict[str, str], columns: Sequence[Column], rows: Sequence[dict[str, Any]], where: str
) -> str:
    """The data card (Markdown) of a dataset with this metadata, these columns and rows;
    ``where`` is the dataset directory as the pandas line names it."""
    studies = json.loads(meta["take6.studies"])
    versions = sorted({r["version"] for r in rows})
    parquet = f"{where.rstrip('/')}/{PARQUET}"
    lines = [
        "# Data card: solved 6 nimmt! Logik positions",
        "",
        f"{len(rows)} positions of 6 nimmt! Logik solved exactly by the `take6` solver: the "
        "exact value of each, the optimal mixed strategies at its root, a principal line of "
        "play, and for drafts the value of every first pick. Written by `take6 study export "
        "--dataset`; every figure below is computed from the rows.",
        "",
        "```python",
        "import pandas as pd",
        "",
        f'df = pd.read_parquet("{parquet}")',
        "```",
        "",
        "(pandas and pyarrow: `pip install pandas pyarrow`, or `pip install 'take6[study]'`. "
        f"`{CSV}` has the same columns; a list is a JSON array there. Integer columns with "
        "missing values, such as `deal` for drafts, load as floats; "
        '`pd.read_parquet(path, dtype_backend="numpy_nullable")` keeps them integers.)',
        "",
        "## Files",
        "",
        f"- `{PARQUET}`: the rows, typed (exact values as text `p/q`, floats beside them, "
        "lists as Arrow lists); the provenance is in the file's metadata "
        f"(`pyarrow.parquet.read_metadata(path).metadata`, keys `take6.*`) and each column's "
        "meaning in its field's `description`.",
        f"- `{CSV}`: the same rows and columns as CSV.",
        f"- `{METADATA}`: the Parquet file's metadata as JSON, with the columns.",
        f"- `{CARD}`: this card.",
        "",
        "## What was solved",
        "",
    ]
    for s in studies:
        params = s["params"]
        obj = f"objective `{params['objective']}` from seat {params['player']}"
        lines.append(
            f"- **{s['study']}** ({s['kind']}, {params['players']} players, {obj}; "
            f"{s['done']} of {s['items']} items, started {s['created']}): "
            f"{_drawn(s['kind'], params)}."
        )
    lines += ["", *_stats(rows), "", "## Rules", "", _RULES, "", "## Values", "", _VALUES]
    lines += [
        "",
        "## Columns",
        "",
        "Seats, rows and players count from 0. A `seat{p}_*` group exists for every seat of "
        "the largest game in the file (null for the seats a row's game does not have).",
        "",
        "| column | type | meaning |",
        "|---|---|---|",
        *(f"| `{c.name}` | {c.type} | {c.meaning} |" for c in columns),
        "",
        "## Provenance",
        "",
        f"- take6 {meta['take6.version']}, exported by code version "
        f"`{meta['take6.code_version']}` at git commit `{meta['take6.git_commit']}` on "
        f"{meta['take6.created']}",
        f"- rows solved by code version{'s' if len(versions) > 1 else ''} "
        + ", ".join(f"`{v}`" for v in versions),
        f"- export schema {meta['take6.export_schema']}, store schema {meta['take6.store_schema']}",
        "- every column is reproducible except `seconds` (wall-clock time on the machine that "
        "solved the row)",
        "",
        "## How to reproduce",
        "",
        "With take6 installed (`pip install -e '.[study]'` from the commit above):",
        "",
        "```",
        *(_command(s["kind"], s["study"], s["params"]) for s in studies),
        f"take6 study export --store study.sqlite --dataset {where}",
        "```",
        "",
        "The deals depend only on the seed and their index, so the same commands give the same "
        "rows on any machine, in any order of work, with any number of workers.",
        "",
        "## Licence",
        "",
        f"{licence()}, the licence of the take6 project that computed the data.",
        "",
    ]
    return "\n".join(lines)
