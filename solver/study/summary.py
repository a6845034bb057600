"""A draft's value from the rows of a study by first pick (``take6 study drafts
--by-first-pick``): one row a first pick, the draft's value the best of them for the first
picker (the highest when the first picker is on the maximising side), known exactly once every
first pick is in and exact, bounded before."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.problem import Objective


@dataclass(frozen=True)
class DraftSummary:
    """A draft of a study by first pick: how many of its first picks are in, and what they prove
    of its value. ``lower``/``upper`` bound the value (None where nothing is proven yet: until
    every pick is in, only the first picker's side is bounded, by the best pick so far);
    ``value`` is exact when every pick is; ``best`` lists the optimal first picks then."""

    hand_size: int
    first_picker: int
    picks_done: int
    picks: int
    lower: Fraction | None
    upper: Fraction | None
    value: Fraction | None
    best: tuple[int, ...] = field(default=())

    def text(self) -> str:
        """One line for ``take6 study status`` (seats from 1)."""
        head = f"k={self.hand_size} first picker {self.first_picker + 1}: "
        head += f"{self.picks_done}/{self.picks} first picks"
        if self.value is not None:
            best = ", ".join(str(c) for c in self.best)
            return f"{head}, draft value {_short(self.value)} (optimal first picks: {best})"
        bounds = []
        if self.lower is not None:
            bounds.append(f"{_short(self.lower)} <= value")
        if self.upper is not None:
            bounds.append(f"value <= {_short(self.upper)}")
        return head + (", " + ", ".join(bounds) if bounds else "")


def _short(v: Fraction) -> str:
    return str(v) if len(str(v.denominator)) <= 12 else f"{float(v):.6f}"


def first_picker_maximises(objective: Objective | str, first_picker: int, player: int) -> bool:
    """Whether the first picker is on the maximising side of the draft's value: for ``diff``
    the player whose view it is (the value is the other's heads minus theirs), for
    ``paranoid`` the coalition (it maximises the player's heads)."""
    return (Objective(objective) is Objective.DIFF) == (first_picker == player)


def draft_summaries(rows: Sequence[dict[str, Any]], params: dict[str, Any]) -> list[DraftSummary]:
    """The drafts of one study by first pick (its store rows and parameters), by hand size and
    first picker."""
    groups: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["hand_size"], r["first_picker"]), []).append(r)
    out = []
    for k in params["hand_sizes"]:
        for f in params["first_pickers"]:
            got = groups.get((k, f), [])
            total = k * params["players"] + 4
            maximise = first_picker_maximises(params["objective"], f, params["player"])
            best = max if maximise else min
            lows = [Fraction(r["lower"]) for r in got]
            highs = [Fraction(r["upper"]) for r in got]
            # The first picker's side gets at least (or at most) the best pick known so far.
            if not got:
                lower = upper = None
            elif maximise:
                lower, upper = best(lows), (best(highs) if len(got) == total else None)
            else:
                lower, upper = (best(lows) if len(got) == total else None), best(highs)
            value = None
            chosen: tuple[int, ...] = ()
            decided = lower is not None and all(
                r["value"] is not None
                or (Fraction(r["upper"]) < lower if maximise else Fraction(r["lower"]) > lower)
                for r in got
            )
            if len(got) == total and decided and lower == upper:
                # Every pick in and the bounds meet: the draft's value. Its optimal first picks
                # are those valued at it (a pick kept in bounds, pick values "bounds", was
                # proven worse: its bound lies strictly beyond the value).
                value = lower
                chosen = tuple(
                    sorted(
                        _pick(r)
                        for r in got
                        if r["value"] is not None and Fraction(r["value"]) == value
                    )
                )
            out.append(DraftSummary(k, f, len(got), total, lower, upper, value, chosen))
    return out


def _pick(row: dict[str, Any]) -> int:
    """The first pick of a row of a study by first pick (its item ends 'pick=C')."""
    return int(str(row["item"]).rsplit("pick=", 1)[1])
