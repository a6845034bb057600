"""A solved position studied turn by turn: at each turn of a line of play, every player's
optimal mixed strategy, the value of each of their cards, and what a bot would play there and
what that costs (``take6 analyse``).

The search is :func:`solver.api.solve`'s; this module only reads it. At each position of the
line the stage game is rebuilt exactly: cell ``(a, b)`` is the value of the turn in which the max
side plays the joint action ``a`` and the min side ``b`` (the heads taken, with every row choice
made by its owner for their side, plus the exact value of the position after it: the one walker
:func:`solver.walk.settle` on the search's exact values). The search's optimal strategies are
checked against that matrix in exact arithmetic (:func:`solver.matrix.verify`) before anything is
reported.

What a card's values mean (``v`` the value of the position, in the objective's one frame: see
:mod:`solver.search`), for player ``p`` and card ``c``:

* ``against_optimal`` — ``p`` plays ``c`` and the other side plays the optimal strategy shown
  (the rest of ``p``'s own side, in a paranoid coalition, answering it as well as it can):
  ``max_{a: a_p = c} (A y)_a`` for the max side, ``min_{b: b_p = c} (x A)_b`` for the min side.
  For a card in the support of an optimal strategy this is ``v`` itself (for every optimal
  strategy of the other side); for a card outside it, it is what the card loses against the
  strategy shown (another optimal strategy of the other side may punish it more).
* ``if_known`` — the value of the stage game in which ``p`` must play ``c`` and everyone else
  knows it and re-optimises: for 2 players the card's row minimum (max side) or column maximum
  (min side) — what a card is worth against an opponent who reads it.

A loss is how much worse than ``v`` that is for ``p``'s side, in heads: ``v - value`` for the
max side, ``value - v`` for the min side; never negative for ``against_optimal`` (``v`` is the
best any card does against an optimal opponent).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from solver.api import Result, exact_entry, exact_value, solve
from solver.errors import SolverError
from solver.matrix import Num, solve_game, verify
from solver.problem import Objective, Problem
from solver.search import SearchLike, Solution
from solver.walk import Node, option_values, seat_cards, settle
from take6.errors import UsageError
from take6.play.bots import Bot, make_bot
from take6.position import Position
from take6.state import ChooseRow, Phase, Play, apply, from_position
from take6.text import plural
from take6.turn import Turn as CoreTurn

if TYPE_CHECKING:
    from solver.native import Progress


@dataclass(frozen=True)
class CardValue:
    """One card of one player at one turn: its probability in the optimal strategy shown and its
    two values (see the module docstring)."""

    card: int
    probability: Fraction
    against_optimal: Fraction
    if_known: Fraction


@dataclass(frozen=True)
class PlayerTurn:
    """One player at one turn: their side, each card's values, the bot's card and its losses."""

    player: int
    maximises: bool
    cards: tuple[CardValue, ...]
    bot_card: int
    bot_loss: Fraction
    """``v`` minus the bot's card's ``against_optimal``, for the player's side (>= 0)."""
    bot_loss_if_known: Fraction
    """The same with ``if_known``."""

    def card(self, c: int) -> CardValue:
        return next(cv for cv in self.cards if cv.card == c)


@dataclass(frozen=True)
class RowChoiceStudy:
    """A row choice on the line: its owner, the card, each option's value (the row, 0-based,
    and the value of the rest of the game after it), the row the line takes (the owner's best)
    and the bot's row."""

    player: int
    card: int
    options: tuple[tuple[int, Fraction], ...]
    chosen: int
    bot_row: int
    bot_loss: Fraction


@dataclass(frozen=True)
class TurnStudy:
    """One turn of the line: the position before it, its value, each player's study, the cards
    played (by seat; ``given``: from ``--line``, else the most probable), the row choices and
    the heads each player took."""

    index: int
    position: Position
    value: Fraction
    players: tuple[PlayerTurn, ...]
    cards: tuple[int, ...]
    given: bool
    choices: tuple[RowChoiceStudy, ...]
    heads: tuple[int, ...]


def parse_line(text: str, players: int) -> list[tuple[int, ...]]:
    """``--line`` text: turns separated by ``/``, each turn's cards by seat separated by ``,``
    (``5,4/9,8``). Raises :class:`~solver.errors.SolverError` naming the bad part."""
    from take6.text import excerpt, parse_int

    turns: list[tuple[int, ...]] = []
    for i, part in enumerate(text.split("/")):
        cards = part.split(",")
        if len(cards) != players:
            raise SolverError(
                f"--line turn {i + 1} names {plural(len(cards), 'card')} for {players} players: "
                f"{excerpt(part.strip())} in {excerpt(text)}"
            )
        try:
            turns.append(tuple(parse_int(c, f"--line turn {i + 1}") for c in cards))
        except ValueError as exc:
            raise SolverError(f"{exc} in {excerpt(text)}") from None
    return turns


def analyse(
    position: Position,
    objective: Objective | str = Objective.DIFF,
    player: int = 0,
    *,
    bot: str = "safe",
    line: Sequence[Sequence[int]] = (),
    max_turns: int | None = None,
    seed: int = 1,
    core: str = "auto",
    memory: int | None = None,
    threads: int = 1,
    progress: Progress | None = None,
) -> tuple[Result, Iterator[TurnStudy]]:
    """Solve ``position`` exactly (on ``core``, with ``memory``, ``threads`` and ``progress`` as
    :func:`solver.api.solve` takes them) and return the
    result and an iterator over the turns of the line studied: the cards of ``line`` (by seat,
    0-based players) for its first turns, then each side's most probable joint action; row choices
    by their owners' best. The iterator computes each turn when asked (a long study can be shown
    as it goes). ``bot`` names the bot compared at each turn (:data:`take6.play.bots.BOTS`; its
    random numbers come from ``random.Random(seed)``).

    Raises :class:`SolverError` for a position the solver does not support, a ``line`` card not
    in its player's hand, or an unknown bot; the result is returned unsolved (no turns) when a
    limit or Ctrl-C stopped the search."""
    try:
        agent = make_bot(bot)
    except UsageError as exc:
        raise SolverError(str(exc)) from None
    if max_turns is not None and max_turns < 1:
        raise SolverError(f"--max-turns must be at least 1, got {max_turns}")
    _check_line(position, line)  # before the search, which may take long
    result, search = solve(
        position,
        objective,
        player,
        line=False,
        core=core,
        memory=memory,
        threads=threads,
        progress=progress,
    )
    if not result.solved:
        return result, iter(())
    return result, _turns(search, agent, [tuple(t) for t in line], max_turns, random.Random(seed))


def _check_line(position: Position, line: Sequence[Sequence[int]]) -> None:
    """Every card of ``line`` in its player's hand, each played once (the turns of the line are
    played one after another, so a card of turn 1 is gone at turn 2)."""
    hands = [list(h) for h in position.hands]
    if len(line) > len(hands[0]):
        raise SolverError(
            f"--line names {len(line)} turns, but the hands hold {len(hands[0])} cards"
        )
    for t, cards in enumerate(line):
        if len(cards) != len(hands):
            raise SolverError(
                f"--line turn {t + 1} names {plural(len(cards), 'card')} for {len(hands)} "
                f"players in {position}"
            )
        for p, c in enumerate(cards):
            if c not in hands[p]:
                left = " ".join(map(str, hands[p])) or "nothing"
                raise SolverError(
                    f"--line turn {t + 1}: card {c} is not in player {p + 1}'s hand then "
                    f"({left}) in {position}"
                )
            hands[p].remove(c)


def _turns(
    search: SearchLike,
    bot: Bot,
    line: list[tuple[int, ...]],
    max_turns: int | None,
    rng: random.Random,
) -> Iterator[TurnStudy]:
    pr = search.problem
    node = Node.of(pr.position)
    piles = pr.position.piles
    index = 0
    while not node.done and (max_turns is None or index < max_turns):
        try:
            study, turn = _study_turn(search, node, piles, index, line, bot, rng)
        except SolverError:
            if getattr(search, "interrupted", False):  # the compiled core stopped by Ctrl-C
                raise KeyboardInterrupt from None
            raise
        yield study
        piles = tuple(pl + t for pl, t in zip(piles, turn.taken(pr.players), strict=True))
        node = node.after(turn, study.cards)
        index += 1


def _study_turn(
    search: SearchLike,
    node: Node,
    piles: tuple[tuple[int, ...], ...],
    index: int,
    line: list[tuple[int, ...]],
    bot: Bot,
    rng: random.Random,
) -> tuple[TurnStudy, CoreTurn]:
    pr = search.problem
    root = pr.position
    here = Position(root.rules, node.rows, node.hands, piles, root.totals)
    entry = exact_entry(search, node)
    matrix = stage_matrix(search, node)
    x, y = _dense(search, node, entry)
    if not verify(matrix, entry.value, x, y):  # would be a bug of the search or the walker
        raise AssertionError(f"the search's strategies are not optimal at {here}")
    studies = tuple(
        _player_turn(pr, search, node, entry, matrix, p, bot, here, rng) for p in range(pr.players)
    )
    given = index < len(line)
    best = seat_cards(pr, _most_likely(entry.x), _most_likely(entry.y))
    cards = line[index] if given else best
    value_of = exact_value(search)
    _, turn = settle(pr, node, cards, value_of)
    choices = _row_choices(pr, node, cards, turn.choices, value_of, bot, here, rng)
    heads = turn.heads(pr.players)
    study = TurnStudy(index, here, Fraction(entry.value), studies, cards, given, choices, heads)
    return study, turn


def _most_likely(strategy: Sequence[tuple[tuple[int, ...], Fraction]]) -> tuple[int, ...]:
    return max(strategy, key=lambda aq: aq[1])[0]


def stage_matrix(search: SearchLike, node: Node) -> list[list[Num]]:
    """The exact stage game at ``node``: rows the max side's joint actions, columns the min
    side's (in :meth:`SearchLike.actions` order), each cell the settled value of that turn."""
    pr = search.problem
    rows, cols = search.actions(node.hands)
    value_of = exact_value(search)
    return [[settle(pr, node, seat_cards(pr, a, b), value_of)[0] for b in cols] for a in rows]


def _dense(
    search: SearchLike, node: Node, entry: Solution
) -> tuple[list[Fraction], list[Fraction]]:
    rows, cols = search.actions(node.hands)
    xs, ys = dict(entry.x), dict(entry.y)
    return [xs.get(a, Fraction(0)) for a in rows], [ys.get(b, Fraction(0)) for b in cols]


def _dot(values: Sequence[Num], probabilities: Sequence[Fraction]) -> Fraction:
    return sum(
        (Fraction(v) * q for v, q in zip(values, probabilities, strict=True) if q), Fraction(0)
    )


def _player_turn(
    pr: Problem,
    search: SearchLike,
    node: Node,
    entry: Solution,
    matrix: list[list[Num]],
    p: int,
    bot: Bot,
    here: Position,
    rng: random.Random,
) -> PlayerTurn:
    rows, cols = search.actions(node.hands)
    x, y = _dense(search, node, entry)
    v = Fraction(entry.value)
    maximises = p in pr.max_side
    side = pr.max_side if maximises else pr.min_side
    k = side.index(p)
    mine = rows if maximises else cols
    values: list[CardValue] = []
    for c in node.hands[p]:
        picked = [i for i, a in enumerate(mine) if a[k] == c]
        prob = sum(((x if maximises else y)[i] for i in picked), Fraction(0))
        if maximises:
            against = max(_dot(matrix[i], y) for i in picked)
            sub: list[list[Num]] = [matrix[i] for i in picked]
        else:
            against = min(_dot([r[j] for r in matrix], x) for j in picked)
            sub = [[r[j] for j in picked] for r in matrix]
        known = Fraction(solve_game(sub).value)
        values.append(CardValue(c, prob, against, known))
    action = bot.act(from_position(here), p, rng)
    assert isinstance(action, Play)
    chosen = next(cv for cv in values if cv.card == action.card)
    sign = 1 if maximises else -1
    return PlayerTurn(
        p,
        maximises,
        tuple(values),
        action.card,
        sign * (v - chosen.against_optimal),
        sign * (v - chosen.if_known),
    )


def _row_choices(
    pr: Problem,
    node: Node,
    cards: tuple[int, ...],
    made: tuple[tuple[int, int], ...],
    value_of: Callable[[Node], Num],
    bot: Bot,
    here: Position,
    rng: random.Random,
) -> tuple[RowChoiceStudy, ...]:
    """The row choices of the turn played (``made``: the owners' best, in order), each with its
    options' values and the bot's choice there (asked in the engine's own state)."""
    state = from_position(here)
    for p, c in enumerate(cards):
        state = apply(state, Play(p, c))
    out: list[RowChoiceStudy] = []
    done: tuple[int, ...] = ()
    for owner, row in made:
        assert state.phase is Phase.ROW_CHOICE and state.pending is not None
        assert state.pending.player == owner
        options = tuple(
            (r, Fraction(val)) for r, val in option_values(pr, node, cards, value_of, done)
        )
        bot_action = bot.act(state, owner, rng)
        assert isinstance(bot_action, ChooseRow)
        best = dict(options)[row]
        sign = 1 if owner in pr.max_side else -1
        loss = sign * (best - dict(options)[bot_action.row])
        out.append(RowChoiceStudy(owner, state.pending.card, options, row, bot_action.row, loss))
        state = apply(state, ChooseRow(owner, row))
        done = (*done, row)
    return tuple(out)


__all__ = [
    "CardValue",
    "PlayerTurn",
    "RowChoiceStudy",
    "TurnStudy",
    "analyse",
    "parse_line",
    "stage_matrix",
]
