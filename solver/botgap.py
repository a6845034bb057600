"""How far a bot is from optimal: the exact value of perfect play against a fixed bot.

A 2-player position with known hands (Logik after the draft) is a game of perfect information
with simultaneous choices each turn. Against a *fixed* bot policy (:func:`take6.play.bots.policy`:
each decision an exact distribution over the legal actions, known in advance) the other player
faces a one-player problem, and the best reply needs no mixing: at each turn it plays the card
that maximises the expectation over the bot's card, and when one of its cards must take a row
(the card is revealed by then, so it sees the bot's card) the row that maximises it. That is an
expectimax over the reference rules — each turn played by :func:`take6.turn.resolve_turn`, each
new position and each of the bot's decisions reached through :mod:`take6.state` — with a
transposition table on the position between turns (the key: :func:`_key`).

The figures (:class:`BotGap`), all exact fractions, in the ``diff`` objective of
:mod:`solver.problem` from the optimal player's view (the heads the bot takes minus the heads
the optimal player takes in the rest of the round, positive good for the optimal player):

* ``against_bot``: the expected result of the best reply to the bot. Since the reply minimises
  the bot's expectation, ``-against_bot`` is also what the bot *guarantees* from its seat
  against every opponent (its worst case).
* ``value``: the game value (:func:`solver.api.solve`), what optimal play guarantees; an optimal
  player in the bot's seat would guarantee ``-value``.
* ``gap = against_bot - value`` (never negative): the heads per round the bot gives up by not
  playing optimally, measured against a perfect opponent.

Only the heads still to be taken count (bull piles already taken and earlier totals do not),
and the round ends when the hands are empty.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.api import fraction_text, solve
from solver.errors import SolverError
from solver.problem import CORES, Objective
from take6.placement import Rows
from take6.play.bots import Bot, CheapestRowBot, RandomBot, SafeBot, make_bot, policy
from take6.position import Position
from take6.rules import EndCondition
from take6.state import (
    Action,
    ChooseRow,
    Phase,
    Play,
    State,
    apply,
    from_position,
    without_scores,
)
from take6.turn import resolve_turn

BotProgress = Callable[[int, int, int, float], None]
"""``progress(first_cards_done, first_cards, positions, seconds)``: called about twice a second
(the optimal player's first cards valued so far, positions in the table, elapsed)."""


class Stopped(Exception):
    """The time limit passed (internal: :func:`against_bot` reports what it found)."""


@dataclass
class Reply:
    """The best reply to a bot at a position (see the module docstring for the figures).

    ``cards`` is each first card of the optimal player with the exact expected ``diff`` after
    it (against the bot); ``best`` the cards that reach ``value``. When not ``solved`` (a time
    limit or Ctrl-C) ``value`` is None and ``lower`` is proven: the best first card valued so far.
    """

    position: Position
    bot: str
    player: int
    solved: bool
    value: Fraction | None
    lower: Fraction
    cards: dict[int, Fraction] = field(default_factory=dict)
    positions: int = 0
    nodes: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    interrupted: bool = False
    core: str = "python"
    """Which search ran: ``"native"`` (the compiled core's restatement) or ``"python"``."""
    core_note: str = ""
    """Why the Python search ran when the compiled core was preferred ('' otherwise)."""
    threads: int = 1
    """The compiled reply's threads that valued the first cards (1 for the Python search)."""

    @property
    def best(self) -> list[int]:
        return [c for c, v in self.cards.items() if self.solved and v == self.value]


@dataclass
class BotGap:
    """The game value, the value of the best reply to the bot and their difference (the module
    docstring defines them). ``value`` and ``gap`` are None when the game was not solved within
    the limits (``value_lower``/``value_upper`` are its proven bounds)."""

    reply: Reply
    value: Fraction | None
    value_lower: Fraction
    value_upper: Fraction
    value_seconds: float

    @property
    def gap(self) -> Fraction | None:
        if self.value is None or self.reply.value is None:
            return None
        return self.reply.value - self.value

    def to_json(self) -> dict[str, Any]:
        """The JSON form printed by ``take6 solve --against BOT --json`` (seats from 0)."""
        r = self.reply

        def frac(v: Fraction | None) -> str | None:
            return None if v is None else fraction_text(v)

        def flt(v: Fraction | None) -> float | None:
            return None if v is None else float(v)

        return {
            "position": str(r.position),
            "objective": Objective.DIFF.value,
            "player": r.player,
            "bot": r.bot,
            "bot_player": 1 - r.player,
            "value": frac(self.value),
            "value_float": flt(self.value),
            "value_lower": fraction_text(self.value_lower),
            "value_upper": fraction_text(self.value_upper),
            "against_bot": frac(r.value),
            "against_bot_float": flt(r.value),
            "against_bot_lower": fraction_text(r.lower),
            "gap": frac(self.gap),
            "gap_float": flt(self.gap),
            "first_cards": {str(c): fraction_text(v) for c, v in r.cards.items()},
            "best_first_cards": r.best,
            "solved": r.solved and self.value is not None,
            "positions": r.positions,
            "nodes": r.nodes,
            "seconds": round(r.seconds, 6),
            "cpu_seconds": round(r.cpu_seconds, 6),
            "value_seconds": round(self.value_seconds, 6),
            "interrupted": r.interrupted,
            "core": r.core,
            "threads": r.threads,
        }


def _start(position: Position, player: int) -> State:
    if not isinstance(position, Position):
        raise SolverError(f"position must be a Position, got {type(position).__name__}")
    if position.players != 2:
        raise SolverError(
            f"play against a bot needs 2 players, got {position.players} ({position})"
        )
    if not position.rules.simultaneous:
        raise SolverError(f"play against a bot needs simultaneous turns, not {position}")
    if not isinstance(player, int) or isinstance(player, bool) or player not in (0, 1):
        raise SolverError(f"player must be seat 0 or 1, got {player!r}")
    # One round: the game ends when the hands are empty, and only the heads to come count.
    rules = position.rules.with_(end=EndCondition(target=None, rounds=1))
    return without_scores(from_position(position, rules))


def against_bot(
    position: Position,
    bot: str | Bot,
    player: int = 0,
    *,
    time_limit: float | None = None,
    progress: BotProgress | None = None,
    core: str = "auto",
    memory: int | None = None,
    threads: int = 1,
) -> Reply:
    """The exact value for ``player`` (0-based) of the best reply to ``bot`` in the other seat
    (``diff``: the bot's heads minus ``player``'s, from here to the end of the round).

    ``core``: ``"auto"`` runs the compiled core's restatement of this search
    (:class:`solver.native.NativeReply`) for the built-in bots where it was built and takes the
    rules, else this module's; ``"native"`` insists (a :class:`SolverError` saying why not),
    ``"python"`` refuses it. ``memory`` is the compiled table's budget in bytes (default
    :func:`solver.native.default_memory`; past it new positions are not stored, the values stay
    exact); ``threads`` how many of its threads value the first cards at once, sharing the
    table (the Python search has one). Ctrl-C (KeyboardInterrupt) or ``time_limit`` ends the
    search early with ``solved`` False and a proven lower bound. Raises :class:`SolverError`
    for positions it does not support, and :class:`~take6.errors.UsageError` for an unknown
    bot name.
    """
    b = make_bot(bot) if isinstance(bot, str) else bot
    if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= 64:
        raise SolverError(f"threads must be 1..64, got {threads!r}")
    root = _start(position, player)
    t0, c0 = time.perf_counter(), time.process_time()
    first = root.hands[player]
    cards: dict[int, Fraction] = {}

    def native_progress(positions: int, nodes: int, secs: float) -> None:
        assert progress is not None and fast is not None
        done = fast.cards_done if threads > 1 else len(cards)
        progress(done, len(first), positions, secs)

    fast, note = _reply_core(
        b,
        root.rules,
        player,
        core,
        memory,
        time_limit,
        native_progress if progress is not None else None,
    )
    if fast is not None:

        def value_of(card: int) -> Fraction:
            v: Fraction | None = fast.card(root.rows, root.hands, card)
            if v is None:  # the core stopped: its time limit, or Ctrl-C
                raise KeyboardInterrupt if fast.interrupted else Stopped
            return v

        try:
            if threads > 1 and root.phase is Phase.CHOOSE:
                got = fast.cards(root.rows, root.hands, first, threads)
                cards.update((c, v) for c, v in got.items() if v is not None)
                solved = len(cards) == len(first)
                interrupted = not solved and fast.interrupted
            else:
                solved, interrupted = _value_first_cards(root, first, cards, value_of)
        finally:
            fast.close()  # (the table now, not when the progress callback's cycle is collected)
        r = _reply(
            position, b, player, root, cards, solved, interrupted,
            fast.positions, fast.nodes, t0, c0, "native", "",
        )  # fmt: skip
        r.threads = threads
        return r
    return _python_reply(position, b, player, root, time_limit, progress, note, t0, c0)


_NATIVE_BOTS: dict[type, str] = {RandomBot: "random", CheapestRowBot: "cheapest", SafeBot: "safe"}
"""The bot classes whose policies the compiled core restates (exactly these classes: a subclass
may decide otherwise)."""


def _reply_core(
    bot: Bot,
    rules: Any,
    player: int,
    core: str,
    memory: int | None,
    time_limit: float | None,
    progress: Callable[[int, int, float], None] | None,
) -> tuple[Any, str]:
    """The compiled reply when it is wanted and can run, else None and why not ('' when the
    Python search was asked for)."""
    from solver import native

    if core not in CORES:
        raise SolverError(f"unknown core {core!r} (auto, native or python)")
    if core == "python":
        return None, ""
    try:
        if not native.AVAILABLE:
            raise SolverError(native.unavailable_reason())
        name = _NATIVE_BOTS.get(type(bot))
        if name is None:
            raise SolverError(
                f"the compiled core restates the built-in bots only, not {type(bot).__name__}"
            )
        reply = native.NativeReply(
            rules, name, player, memory=memory, time_limit=time_limit, progress=progress
        )
        return reply, ""
    except SolverError as exc:
        if core == "native" or memory is not None:
            raise
        return None, str(exc)


def _reply(
    position: Position,
    bot: Bot,
    player: int,
    root: State,
    cards: dict[int, Fraction],
    solved: bool,
    interrupted: bool,
    positions: int,
    nodes: int,
    t0: float,
    c0: float,
    core: str,
    note: str,
) -> Reply:
    found = max(cards.values()) if cards else None
    if root.phase is not Phase.CHOOSE:  # nothing left to play
        found = Fraction(0)
    lower = found if found is not None else Fraction(-_heads_left(root))
    return Reply(
        position=position,
        bot=bot.name,
        player=player,
        solved=solved,
        value=found if solved else None,
        lower=lower,
        cards=cards,
        positions=positions,
        nodes=nodes,
        seconds=time.perf_counter() - t0,
        cpu_seconds=time.process_time() - c0,
        interrupted=interrupted,
        core=core,
        core_note=note,
    )


def _python_reply(
    position: Position,
    b: Bot,
    player: int,
    root: State,
    time_limit: float | None,
    progress: BotProgress | None,
    note: str,
    t0: float,
    c0: float,
) -> Reply:
    """The reference expectimax (the module docstring)."""
    me, other = player, 1 - player
    table: dict[tuple[Any, ...], Fraction] = {}
    nodes = 0
    deadline = None if time_limit is None else t0 + time_limit
    last = t0
    cards: dict[int, Fraction] = {}
    first = root.hands[me]
    profi = root.rules.profi_left
    table_heads = root.rules.heads  # (the rules' bull heads, custom ones too)

    def tick() -> None:
        nonlocal last
        now = time.perf_counter()
        if now - last < 0.5:
            return
        last = now
        if deadline is not None and now > deadline:
            raise Stopped
        if progress is not None:
            progress(len(cards), len(first), len(table), now - t0)

    rules = root.rules

    def engine(s: State, cards: tuple[int, int], choices: tuple[int, ...]) -> State:
        """The reference engine's state after the turn so far (the cards, then the choices)."""
        t = apply(apply(s, Play(me, cards[me])), Play(other, cards[other]))
        for row in choices:
            assert t.pending is not None
            t = apply(t, ChooseRow(t.pending.player, row))
        return t

    def outcome(s: State, cards: tuple[int, int], choices: tuple[int, ...]) -> Fraction:
        """The value of the turn from ``s`` with ``cards`` (by seat) after the row ``choices``
        made so far: the heads it moves, then the position after it."""
        nonlocal nodes
        nodes += 1
        turn = resolve_turn(s.rows, cards, rules, choices)
        pending = turn.pending
        if pending is not None:
            rows = [m.row for m in pending.placement.options]
            if pending.player == me:
                return max(outcome(s, cards, (*choices, r)) for r in rows)
            dist = policy(b, engine(s, cards, choices), other)
            return sum(
                (q * outcome(s, cards, (*choices, _row(a))) for a, q in dist.items()),
                Fraction(0),
            )
        heads = turn.heads(2)
        gain = heads[other] - heads[me]
        hands = tuple(tuple(c for c in h if c != cards[p]) for p, h in enumerate(s.hands))
        if not hands[me]:
            return Fraction(gain)
        v = table.get(_key(turn.rows, hands, profi, table_heads))
        if v is None:  # a new position: step there with the reference engine
            child = engine(s, cards, choices)
            assert child.rows == turn.rows and child.hands == hands
            v = value(child)
        return gain + v

    def card_value(s: State, card: int, replies: dict[Action, Fraction]) -> Fraction:
        total = Fraction(0)
        for a, q in replies.items():
            assert isinstance(a, Play)
            cards = (card, a.card) if me == 0 else (a.card, card)
            total += q * outcome(s, cards, ())
        return total

    def value(s: State) -> Fraction:
        key = _key(s.rows, s.hands, profi, table_heads)
        v = table.get(key)
        if v is not None:
            return v
        tick()
        replies = policy(b, s, other)
        v = max(card_value(s, c, replies) for c in s.hands[me])
        table[key] = v
        return v

    replies: dict[Action, Fraction] = {}

    def value_of(card: int) -> Fraction:
        if not replies:
            replies.update(policy(b, root, other))
        return card_value(root, card, replies)

    solved, interrupted = _value_first_cards(root, first, cards, value_of)
    return _reply(
        position, b, player, root, cards, solved, interrupted,
        len(table), nodes, t0, c0, "python", note,
    )  # fmt: skip


def _value_first_cards(
    root: State,
    first: Sequence[int],
    cards: dict[int, Fraction],
    value_of: Callable[[int], Fraction],
) -> tuple[bool, bool]:
    """Fill ``cards`` with the value of each of the reply's ``first`` cards, in order;
    ``(solved, interrupted)``: a time limit (:class:`Stopped`) or Ctrl-C ends it with the
    cards valued so far."""
    try:
        if root.phase is Phase.CHOOSE:
            for c in first:
                cards[c] = value_of(c)
    except Stopped:
        return False, False
    except KeyboardInterrupt:
        return False, True
    return True, False


def _row(action: Action) -> int:
    assert isinstance(action, ChooseRow)
    return action.row


def _key(
    rows: Rows, hands: tuple[tuple[int, ...], ...], profi: bool, heads: Sequence[int]
) -> tuple[Any, ...]:
    """The transposition key of a position between turns, which fixes the rest of the round
    (the heads taken so far are counted apart):

    * of a row only its last card and length (where cards go, when it is full) and its heads
      (what taking it costs) matter, to the rules and to the bots alike; the rows stay in order,
      as the bots' tie-breaks go by row number;
    * outside Profi only the *order* of the live cards (the hands and the rows' last cards)
      matters, not their numbers: placement compares cards (the closest row below a card is the
      one with the highest last card below it), the turn places them lowest first, and the bots
      compare cards and heads only (``safe`` breaks ties by the lower card). So each card is
      replaced by its rank among the live cards, the hands keeping their cards' heads.
    * Profi compares distances (a card as close to one row's start as to another's end), so its
      rows keep their first and last cards as they are.
    """
    if profi:
        return (tuple((r[0], r[-1], len(r), _heads(r, heads)) for r in rows), hands)
    live = sorted([r[-1] for r in rows] + [c for h in hands for c in h])
    rank = {c: i for i, c in enumerate(live)}
    return (
        tuple((rank[r[-1]], len(r), _heads(r, heads)) for r in rows),
        tuple(tuple((rank[c], heads[c]) for c in h) for h in hands),
    )


def _heads(row: tuple[int, ...], heads: Sequence[int]) -> int:
    return sum(heads[c] for c in row)


def heads_left(position: Position) -> int:
    """A trivial bound on a player's ``diff``: no one takes more heads than are on the table
    and in the hands."""
    return _heads_left(_start(position, 0))


def _heads_left(s: State) -> int:
    heads = s.rules.heads
    return sum(heads[c] for row in s.rows for c in row) + sum(
        heads[c] for hand in s.hands for c in hand
    )


def bot_gap(
    position: Position,
    bot: str | Bot,
    player: int = 0,
    *,
    time_limit: float | None = None,
    reply_progress: BotProgress | None = None,
    reply_core: str = "auto",
    reply_memory: int | None = None,
    reply_threads: int = 1,
    **solve_options: Any,
) -> BotGap:
    """The game value (:func:`solver.api.solve`, ``diff`` for ``player``, with
    ``solve_options``), the best reply to ``bot`` (:func:`against_bot`) and the gap between
    them. ``time_limit`` applies to each of the two searches; ``reply_progress``,
    ``reply_core``, ``reply_memory`` and ``reply_threads`` are the reply's progress callback,
    core, table budget and threads (:func:`against_bot`),
    ``solve_options`` may carry the game search's own (``progress``, ``core``)."""
    if isinstance(bot, str):
        make_bot(bot)  # an unknown name fails before any search
    t0 = time.perf_counter()
    result, _ = solve(
        position, Objective.DIFF, player, time_limit=time_limit, line=False, **solve_options
    )
    seconds = time.perf_counter() - t0
    if result.interrupted:  # Ctrl-C: the bounds of the game value, no reply searched
        name = bot if isinstance(bot, str) else bot.name
        lower = Fraction(-heads_left(position))
        reply = Reply(position, name, player, False, None, lower, interrupted=True)
    else:
        reply = against_bot(
            position,
            bot,
            player,
            time_limit=time_limit,
            progress=reply_progress,
            core=reply_core,
            memory=reply_memory,
            threads=reply_threads,
        )
    return BotGap(reply, result.value, result.lower, result.upper, seconds)


__all__ = ["BotGap", "Reply", "against_bot", "bot_gap", "heads_left"]
