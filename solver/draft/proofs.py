"""A draft's proofs kept in a file, so that a draft of hours goes on where a run stopped.

``take6 draft --proofs FILE`` (and ``take6 study drafts --proofs DIR``, one file a draft or
first pick) appends to a JSON-lines file what the draft search proves as it goes, and reads it
back first: a run stopped by a time limit, Ctrl-C, SIGTERM or ``kill -9`` loses at most the last
few seconds of work, and the next run walks the draft tree again with every kept bound in its
tables (a walk of minutes where the first one took hours).

Line 1 is :func:`header`, the settings the proofs hold for (players, hand size, first picker,
objective, player, rules); every other line is one proven fact, masks as in
:mod:`solver.draft.solve` (one integer a seat, bit ``c - 1`` for card ``c``):

* ``{"n": [masks], "lo": "p/q", "hi": "p/q", "b": card}``: bounds on the draft value of a node
  (``b`` the best pick found there, tried first when it is searched again);
* ``{"l": [masks], "lo": "p/q", "hi": "p/q"}``: bounds on the value of a finished draft, under
  its canonical leaf key (:meth:`DraftSearch.leaf_key`);
* ``{"s": [masks], "seat": s, "safe": true | false}``: whether seat ``s`` can make sure of
  taking no head from that node (:meth:`DraftSearch.safe`).

Only what took a search of at least :data:`MIN_SECONDS` is written (the rest is found again
faster than it is read), in batches flushed to disk every :data:`FLUSH_SECONDS`. A node's bounds
are the intersection of its lines. A last line cut short (the process killed while writing it)
is dropped; the file is locked while open, so two runs cannot write it at once. The file is
trusted input, as a cells file is: it is checked to be of these settings and well formed, and
contradicting bounds are refused, but its bounds are not proven again.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import IO, Any

from solver.api import fraction_text, open_proofs_file, text_fraction, whole_lines_text
from solver.errors import SolverError
from take6.text import excerpt

FORMAT = "take6-draft-proofs"
VERSION = 1

MIN_SECONDS = 0.02
"""A search shorter than this is not written. Measured on the 2-player draft of k = 6 with
``--pick-values bounds`` on the compiled core (17.8 s in one run): 1,063 lines, 51 kB; stopped
after 8 s and resumed, 8 + 13.7 s in all. At 5 ms: 4,948 lines, 237 kB, 8 + 12.3 s. What a
resumed run does again is mostly the play table's work, which the file does not keep."""

FLUSH_SECONDS = 2.0
"""At most this many seconds of proofs wait in memory before they are written and synced."""

Masks = tuple[int, ...]


class DraftProofs:
    """The proofs of one draft's search, read from and appended to a JSON-lines file (the module
    docstring has the format)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        want: dict[str, Any],
        players: int,
        *,
        readonly: bool = False,
    ) -> None:
        """Open (creating it when missing) and lock the file, and read it: ``want`` is the
        header the file must have (:func:`header`), ``players`` the number of masks a key has.
        ``readonly``: only read it as it stands (another run may be writing it: it is neither
        locked nor changed, and a last line being written is left out)."""
        self.path = os.fspath(path)
        self.readonly = readonly
        self.players = players
        self.nodes: dict[Masks, tuple[Fraction, Fraction, int]] = {}
        self.leaves: dict[Masks, tuple[Fraction, Fraction]] = {}
        self.safe: dict[tuple[Masks, int], bool] = {}
        self.read_lines = 0
        self.written = 0
        self._pending: list[str] = []
        self._flushed = time.monotonic()
        where = f"--proofs {excerpt(self.path)}"
        self._file: IO[str] = open_proofs_file(self.path, where, readonly=readonly)
        if readonly:
            try:
                self._read(want)
            finally:
                self._file.close()
            return
        try:
            self._read(want)
        except BaseException:
            self._file.close()
            raise

    # -- reading ---------------------------------------------------------------------------------
    def _read(self, want: dict[str, Any]) -> None:
        text = whole_lines_text(self._file, truncate=not self.readonly)
        if not text:  # (new, or its first line cut short)
            if not self.readonly:
                self._write_now(json.dumps(want, separators=(",", ":")))
            return
        lines = text.splitlines()
        where = f"--proofs {excerpt(self.path)}"
        try:
            first = json.loads(lines[0])
        except json.JSONDecodeError:
            first = None
        if not isinstance(first, dict) or first.get("format") != FORMAT:
            raise SolverError(
                f"{where}: not a take6 draft proofs file (line 1: {excerpt(lines[0])})"
            )
        if first.get("version") != VERSION:
            raise SolverError(
                f"{where}: version {excerpt(first.get('version'))}, this take6 reads {VERSION}"
            )
        for name, shown in (
            ("players", "number of players"),
            ("hand_size", "hand size"),
            ("first_picker", "first picker"),
            ("objective", "objective"),
            ("player", "player"),
            ("rules", "rules"),
        ):
            got = first.get(name)
            if got != want[name]:
                if name in ("first_picker", "player") and isinstance(got, int):
                    got, mine = got + 1, want[name] + 1  # seats from 1 in a message
                else:
                    mine = want[name]
                raise SolverError(
                    f"{where}: the file holds the proofs of another draft ({shown} "
                    f"{excerpt(got)}, not {excerpt(mine)})"
                )
        for number, line in enumerate(lines[1:], start=2):
            try:
                self._read_line(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                raise SolverError(
                    f"{where}: line {number} is not a proof ({excerpt(line)})"
                ) from None
            except _Contradiction:
                raise SolverError(
                    f"{where}: line {number} contradicts an earlier line ({excerpt(line)})"
                ) from None
            self.read_lines += 1

    def _masks(self, got: object) -> Masks:
        if not isinstance(got, list) or len(got) != self.players:
            raise ValueError(got)
        out = []
        for m in got:
            if not isinstance(m, int) or isinstance(m, bool) or m < 0:
                raise ValueError(got)
            out.append(m)
        return tuple(out)

    def _read_line(self, got: Any) -> None:
        if not isinstance(got, dict):
            raise ValueError(got)
        if "s" in got:
            seat, safe = got["seat"], got["safe"]
            if not isinstance(seat, int) or not 0 <= seat < self.players:
                raise ValueError(seat)
            if not isinstance(safe, bool):
                raise ValueError(safe)
            key = (self._masks(got["s"]), seat)
            if self.safe.get(key, safe) != safe:
                raise _Contradiction
            self.safe[key] = safe
            return
        lo, hi = text_fraction(got["lo"]), text_fraction(got["hi"])
        if lo > hi:
            raise _Contradiction
        if "n" in got:
            best = got["b"]
            if not isinstance(best, int) or isinstance(best, bool) or best < 0:
                raise ValueError(best)
            masks = self._masks(got["n"])
            self.nodes[masks] = (*_meet(self.nodes.get(masks), lo, hi), best)
        else:
            masks = self._masks(got["l"])
            self.leaves[masks] = _meet(self.leaves.get(masks), lo, hi)

    # -- writing ---------------------------------------------------------------------------------
    def node(self, masks: Masks, lo: Any, hi: Any, best: int) -> None:
        """Keep proven bounds on a draft node's value (and its best pick)."""
        self._add({"n": list(masks), "lo": fraction_text(lo), "hi": fraction_text(hi), "b": best})

    def leaf(self, key: Masks, lo: Any, hi: Any) -> None:
        """Keep proven bounds on a finished draft's value (``key`` canonical)."""
        self._add({"l": list(key), "lo": fraction_text(lo), "hi": fraction_text(hi)})

    def safety(self, masks: Masks, seat: int, safe: bool) -> None:
        """Keep a safety answer."""
        self._add({"s": list(masks), "seat": seat, "safe": safe})

    def _add(self, data: dict[str, Any]) -> None:
        self._pending.append(json.dumps(data, separators=(",", ":")))
        self.written += 1
        if time.monotonic() - self._flushed >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Write and sync what waits in memory."""
        self._flushed = time.monotonic()
        if not self._pending or self._file.closed:
            return
        text = "\n".join(self._pending) + "\n"
        self._pending.clear()
        self._write_now(text.rstrip("\n"))

    def _write_now(self, text: str) -> None:
        try:
            self._file.seek(0, os.SEEK_END)
            self._file.write(text + "\n")
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as e:
            raise SolverError(f"--proofs {excerpt(self.path)}: {e.strerror or e}") from None

    def close(self) -> None:
        """Write what waits, and release the file."""
        if not self._file.closed:
            try:
                self.flush()
            finally:
                self._file.close()


def same_draft(path: str | os.PathLike[str], want: dict[str, Any]) -> bool:
    """Whether the file's first line is the header ``want`` (a proofs file of the same draft);
    False for any other file, or one that cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline()
        got = json.loads(first)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return bool(got == want)


def read_shared(
    paths: Sequence[str | os.PathLike[str]], want: dict[str, Any], players: int
) -> list[DraftProofs]:
    """The proofs of the files among ``paths`` that are of the same draft (``want``), read as
    they stand (other runs may be writing them): what a batch's other items of one draft have
    proven (``take6 study drafts --proofs``). Files of other drafts are passed over; a file of
    this draft that is not well formed is a :class:`~solver.errors.SolverError`."""
    return [DraftProofs(p, want, players, readonly=True) for p in paths if same_draft(p, want)]


def _meet(
    old: tuple[Fraction, Fraction] | tuple[Fraction, Fraction, int] | None,
    lo: Fraction,
    hi: Fraction,
) -> tuple[Fraction, Fraction]:
    """New bounds met with earlier ones (the first two of ``old``, if any)."""
    if old is not None:
        lo, hi = max(lo, old[0]), min(hi, old[1])
        if lo > hi:
            raise _Contradiction
    return lo, hi


class _Contradiction(Exception):
    """Two lines of the file whose bounds cannot both hold."""


def header(
    players: int, hand_size: int, first_picker: int, objective: str, player: int, rules: Any
) -> dict[str, Any]:
    """The file's first line: which draft the proofs are of."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": players,
        "hand_size": hand_size,
        "first_picker": first_picker,
        "objective": objective,
        "player": player,
        "rules": rules,
    }
