"""What is being solved: a position, an objective and the sides of the zero-sum game.

Both objectives are zero-sum games between a *max side* and a *min side* over the payoff
``sum_p weight[p] * heads_p`` (heads taken from this position until the hands are empty):

* ``diff`` (2 players), from player ``N``'s view: ``N`` maximises the heads the other player
  takes minus the heads ``N`` takes (weights ``-1`` for ``N``, ``+1`` for the other).
* ``paranoid`` (any number of players), for player ``N``: the value is ``N``'s own heads; ``N``
  minimises them and the coalition of all the others maximises them, choosing jointly.

The owner of a card that needs a row choice belongs to one side and chooses for it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from solver.errors import SolverError
from take6.notation import format_position
from take6.position import Position
from take6.rules import Rules


class Objective(enum.Enum):
    DIFF = "diff"
    PARANOID = "paranoid"


@dataclass(frozen=True)
class Problem:
    """A validated solving task. ``player`` is 0-based."""

    position: Position
    objective: Objective
    player: int
    max_side: tuple[int, ...]
    min_side: tuple[int, ...]
    weights: tuple[int, ...]

    @property
    def rules(self) -> Rules:
        return self.position.rules

    @property
    def players(self) -> int:
        return self.position.players

    def describe(self) -> str:
        return f"{self.objective.value} for player {self.player + 1}"

    def value_bounds(self, heads_in_play: int) -> tuple[int, int]:
        """Bounds on the value of any position with ``heads_in_play`` heads on the table and in
        the hands together: nobody takes more than those."""
        return min(0, *self.weights) * heads_in_play, max(0, *self.weights) * heads_in_play


CORES = ("auto", "native", "python")
"""``core=`` of :func:`solver.api.solve`: the compiled core when built (``auto``), or one of
them."""

CHECKPOINT_EVERY = 600.0
"""Seconds between two checkpoints the compiled core writes during a search (``checkpoint=``
of :func:`solver.api.solve`, ``take6 solve --checkpoint``)."""


def default_objective(players: int) -> Objective:
    """The objective when none is given, the one rule of ``solve``, ``draft`` and ``study``:
    ``diff`` for 2 players, ``paranoid`` for more (``diff`` needs exactly 2)."""
    return Objective.DIFF if players == 2 else Objective.PARANOID


def make_problem(
    position: Position, objective: Objective | str = Objective.DIFF, player: int = 0
) -> Problem:
    """Check the preconditions and build the problem; raises :class:`SolverError`."""
    where = f"position {format_position(position)!r}"
    try:
        obj = Objective(objective) if isinstance(objective, str) else objective
    except ValueError:
        raise SolverError(
            f"unknown objective {objective!r} (diff or paranoid) for {where}"
        ) from None
    try:
        position.validate()
    except ValueError as exc:
        raise SolverError(str(exc)) from None
    rules = position.rules
    n = position.players
    if not rules.simultaneous or rules.pile_play:
        raise SolverError(
            f"the solver handles simultaneous play with free hands, not {rules.variant.value}: "
            f"{where}"
        )
    sizes = {len(h) for h in position.hands}
    if len(sizes) != 1:
        raise SolverError(f"hands have unequal sizes {[len(h) for h in position.hands]}: {where}")
    if not position.hands[0]:
        raise SolverError(f"the hands are empty, nothing is left to play: {where}")
    if len(position.rows) < 1:
        raise SolverError(f"no rows on the table: {where}")
    if not 0 <= player < n:
        raise SolverError(f"no player {player + 1} (players are 1..{n}) in {where}")
    if obj is Objective.DIFF:
        if n != 2:
            raise SolverError(f"objective diff needs exactly 2 players, got {n}: {where}")
        other = 1 - player
        weights = [0, 0]
        weights[player], weights[other] = -1, 1
        return Problem(position, obj, player, (player,), (other,), tuple(weights))
    weights = [0] * n
    weights[player] = 1
    others = tuple(p for p in range(n) if p != player)
    return Problem(position, obj, player, others, (player,), tuple(weights))
