"""Batch studies: solve many Logik deals (or drafts) and keep every result in a SQLite store.

A *study* is a named, parametrised list of *items*; each item is solved independently and its
result is one row of the store. Two kinds:

* ``deals`` — the play phase of random Logik deals: for each hand size ``k`` and each deal index
  ``i`` in ``0..deals-1``, the deck ``1..players*k + 4`` is shuffled by a
  :class:`random.Random` seeded from ``(seed, players, k, i)`` only (see
  :func:`solver.study.run.deal_position`),
  so an item's deal does not depend on the order of work, the workers or earlier items. Seat
  ``p`` (from 0) gets cards ``p*k .. (p+1)*k-1`` of the shuffled deck, the last 4 cards start
  the 4 rows (sorted by card). The position is solved with :func:`solver.api.solve` (or by
  cells, :func:`solver.cells.solve_by_cells`, when the run is given a cells folder). With
  ``draft`` set, the deal is instead the one a draft of bots leads to
  (:func:`solver.study.run.drafted_position`).
* ``drafts`` — the Logik draft plus play (:func:`solver.draft.solve.solve_draft`) for each hand size
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
        first_picker INTEGER,       -- drafts and drafted deals: the seat that picks first,
                                    --   from 0 (else NULL)
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

Exports (:mod:`solver.study.export`, :mod:`solver.study.dataset`): Parquet, CSV and JSON lines
with the same typed columns (``summary`` spread into columns: root strategies per seat, the
principal line, a draft's picks), Parquet with the provenance as file metadata, and a dataset
directory with its data card. See ``docs/studies.md``.

Execution: :func:`run_study` takes any :class:`concurrent.futures.Executor` (a process pool, a
Dask ``Client.get_executor()``, ...); only the calling process writes to the store.
"""
