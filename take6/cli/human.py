"""``take6 play --bots human,...``: a person at the terminal takes a seat.

A human is not a bot policy: :class:`HumanPlayer` is an interactive agent with the bots' ``act``
so that :func:`take6.play.game.play_steps` (the one game loop, which does no I/O) can ask it for
an action like any bot; the prompts, the answers and the narration of the game live here, in the
command-line layer.

What the human sees: each card as it is revealed and where it went (the events of
:mod:`take6.turn`), then, at each decision, the rows with their heads, the scores, their hand
(or the Logik draft's face-up cards) and a prompt. Answers are card numbers, and row numbers
(1..4) when a card needs a row choice (too low; in Profi a tie or a card that fits nowhere). An
answer that is not legal is refused with the reason, and the question is asked again. In Kids
the card is the top of the pile: nothing to decide, so nothing is asked but the row choices.

Ending early: end of input (Ctrl-D) or ``quit`` abandons the game with one line and exit status
0; Ctrl-C abandons it with exit status 130 (SIGTERM and SIGHUP with 128 + the signal).
``--record FILE`` writes the record of the game in every case (an abandoned game as a record
with ``"finished": false``, which ``take6 replay`` accepts).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from rich.console import Console
from rich.text import Text

from take6.cards import Card
from take6.cli.common import CliError
from take6.cli.play import HUMAN, print_final, write_record
from take6.display.terminal import cards_text, console, rows_table
from take6.io.record import Record
from take6.notation import format_position
from take6.placement import Move, Reason, Side
from take6.play.bots import Agent, make_bot
from take6.play.game import play_steps
from take6.position import Position
from take6.rules import Rules
from take6.state import Action, ChooseRow, Phase, Pick, Play, State, legal_actions, new_game
from take6.text import excerpt, parse_int, plural
from take6.turn import Event, GameOver, Placed, Revealed, RoundScored, RoundStarted, TurnEnded

QUIT_WORDS = ("quit", "exit", "q")
"""Answers that abandon the game, as end of input does."""

HELP_WORDS = ("help", "?")
"""Answers that show what the question asks for."""

EXIT_INTERRUPTED = 130
"""Exit status of a game abandoned with Ctrl-C (128 + SIGINT, as every take6 command)."""


class Abandoned(Exception):
    """The human ended the game: end of input or ``quit`` (``interrupted``: Ctrl-C, or the
    terminal hung up, or ``kill``)."""

    def __init__(self, why: str, interrupted: bool = False, status: int | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.interrupted = interrupted
        self.status = status if status is not None else EXIT_INTERRUPTED if interrupted else 0
        """The exit status: 0 (end of input, ``quit``), 130 (Ctrl-C), 128 + the signal."""


A = TypeVar("A", Play, ChooseRow, Pick)

Reader = Callable[[str], str]
"""How an answer is read: ``input``, or a test's stand-in. Raises EOFError at end of input."""


@dataclass
class Seats:
    """What the players at the table share: the labels of the seats and the console."""

    labels: tuple[str, ...]
    out: Console

    def who(self, seat: int) -> str:
        return self.labels[seat]


@dataclass
class HumanPlayer:
    """A person at the terminal, for one seat: shows what the seat needs at each decision and
    reads the answer, asking again until it is legal."""

    seat: int
    seats: Seats
    read: Reader = input
    name: str = field(default=HUMAN, init=False)

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        """The seat's action in ``state`` (``rng`` is not used: a person draws no numbers)."""
        assert player == self.seat
        if state.phase is Phase.CHOOSE:
            if state.rules.pile_play:  # Kids: the top card of the pile, nothing to decide
                return Play(player, state.hands[player][0])
            return self._choose_card(state)
        if state.phase is Phase.ROW_CHOICE:
            return self._choose_row(state)
        if state.phase is Phase.DRAFT:
            return self._pick(state)
        raise AssertionError(f"a human was asked to act in {state.describe()}")

    # -- the three questions ------------------------------------------------------------------
    def _choose_card(self, state: State) -> Play:
        hand = state.hands[self.seat]
        self._show_table(state, f"round {state.round}, turn {state.turn + 1}")
        self._show_hand("your hand", hand, state.rules)
        if _hands_known(state):
            hands = _hands_before_the_turn(state)
            for p, other in enumerate(hands):
                if p != self.seat:
                    self._show_hand(f"{self.seats.who(p)} holds (known to all)", other, state.rules)
            here = Position(state.rules, state.rows, hands, state.piles, state.totals)
            self.seats.out.print(f"position (study it with take6 analyse): {format_position(here)}")

        legal = {a for a in legal_actions(state, self.seat) if isinstance(a, Play)}

        def answer(text: str) -> Play:
            card = self._number(text, "a card number", f"one of your cards: {_cards(hand)}")
            if Play(self.seat, card) not in legal:
                raise _Refused(f"card {card} is not in your hand ({_cards(hand)})")
            return Play(self.seat, card)

        help_text = (
            "Type the number of the card you play this turn (all players choose at once; the "
            "cards are then placed lowest first). 'quit' or Ctrl-D abandons the game."
        )
        return self._ask(f"{self.seats.who(self.seat)}, your card: ", answer, help_text)

    def _choose_row(self, state: State) -> ChooseRow:
        pending = state.pending
        assert pending is not None
        options = pending.placement.options
        rows = state.rows
        self.seats.out.print(rows_table(rows, table=state.rules.heads))
        self.seats.out.print(_why_choose(pending.card, pending.placement.reason))
        for m in options:
            self.seats.out.print(f"  row {m.row + 1}: {_option_text(rows, m, state.rules)}")
        numbers = ", ".join(str(m.row + 1) for m in options)

        legal = {a for a in legal_actions(state, self.seat) if isinstance(a, ChooseRow)}

        def answer(text: str) -> ChooseRow:
            row = self._number(text, "a row number", f"one of rows {numbers}") - 1
            if ChooseRow(self.seat, row) not in legal:
                raise _Refused(f"row {row + 1} is not a choice for card {pending.card} ({numbers})")
            return ChooseRow(self.seat, row)

        help_text = f"Type the number of the row card {pending.card} goes to: {numbers}."
        return self._ask(
            f"{self.seats.who(self.seat)}, row for card {pending.card} ({numbers}): ",
            answer,
            help_text,
        )

    def _pick(self, state: State) -> Pick:
        pool = state.pool
        k = state.rules.hand_size
        self.seats.out.rule(f"draft of round {state.round}")
        for p, hand in enumerate(state.hands):
            line = Text(f"{self.seats.who(p)} has picked ") + cards_text(hand, state.rules.heads)
            self.seats.out.print(line + Text(f"  ({len(hand)} of {k})"))
        self._show_hand("face up", pool, state.rules)

        legal = {a for a in legal_actions(state, self.seat) if isinstance(a, Pick)}

        def answer(text: str) -> Pick:
            card = self._number(text, "a card number", f"one of the face-up cards: {_cards(pool)}")
            if Pick(self.seat, card) not in legal:
                raise _Refused(f"card {card} is not face up ({_cards(pool)})")
            return Pick(self.seat, card)

        help_text = (
            "Logik draft: type the number of the face-up card you take. Every pick is public; "
            f"when everyone has {k} cards, the {state.rules.rows} cards left start the rows."
        )
        return self._ask(f"{self.seats.who(self.seat)}, your pick: ", answer, help_text)

    # -- asking ---------------------------------------------------------------------------------
    def _ask(self, prompt: str, answer: Callable[[str], A], help_text: str) -> A:
        """Ask until ``answer`` accepts the text (it raises :class:`_Refused` with the reason
        otherwise; legality is the engine's ``legal_actions``)."""
        while True:
            try:
                text = self.read(prompt)
            except EOFError:
                raise Abandoned("end of input") from None
            except KeyboardInterrupt:
                raise Abandoned("interrupted", interrupted=True) from None
            word = text.strip().lower()
            if word in QUIT_WORDS:
                raise Abandoned(f"{self.seats.who(self.seat)} typed {word!r}")
            if word in HELP_WORDS:
                self.seats.out.print(help_text)
                continue
            try:
                return answer(text)
            except _Refused as exc:
                self.seats.out.print(f"refused: {exc}")

    @staticmethod
    def _number(text: str, what: str, expected: str) -> int:
        if not text.strip():
            raise _Refused(f"no answer: type {expected}")
        try:
            return parse_int(text, what)
        except ValueError:
            raise _Refused(f"{excerpt(text.strip())} is not {what}: type {expected}") from None

    # -- what the seat sees -------------------------------------------------------------------
    def _show_table(self, state: State, title: str) -> None:
        out = self.seats.out
        out.rule(title)
        out.print(rows_table(state.rows, table=state.rules.heads))
        scores = []
        for p in range(state.players):
            now = state.round_heads(p)
            extra = f" (+{now} this round)" if now else ""
            scores.append(f"{self.seats.who(p)} {state.totals[p]}{extra}")
        out.print("scores: " + ", ".join(scores))

    def _show_hand(self, title: str, cards: Sequence[Card], rules: Rules) -> None:
        self.seats.out.print(Text(f"{title}: ") + cards_text(cards, rules.heads))


class _Refused(Exception):
    """An answer that is not legal; the message says why (and the question is asked again)."""


def _hands_known(state: State) -> bool:
    """Whether every player knows every hand: the Logik draft's picks are public; with 2
    players and every card in play (2-player Taktik) each hand is the rest of the deck. (With
    more players and every card in play, only the union of the others' hands is known.)"""
    return state.rules.draft or (state.players == 2 and not state.set_aside)


def _hands_before_the_turn(state: State) -> tuple[tuple[Card, ...], ...]:
    """The hands as they were before this turn's choices: a card already chosen face down is
    still its owner's, as far as anyone else can see."""
    return tuple(
        tuple(sorted(h if c is None else (*h, c)))
        for h, c in zip(state.hands, state.chosen, strict=True)
    )


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _why_choose(card: Card, reason: Reason) -> str:
    if reason is Reason.TOO_LOW:
        return f"card {card} is lower than every row's last card: you take a row of your choice"
    if reason is Reason.NO_FIT:
        return f"card {card} fits nowhere (Profi): you take a row of your choice"
    return f"card {card} is as close to the start of one row as to the end of another: you choose"


def _option_text(rows: Sequence[Sequence[Card]], move: Move, rules: Rules) -> str:
    row = rows[move.row]
    if move.side is Side.TAKE or len(row) >= rules.row_capacity:
        what = "take" if move.side is Side.TAKE else "the row is full: take"
        return f"{what} {_cards(row)} ({plural(rules.heads_of(row), 'head')})"
    where = "start" if move.side is Side.LEFT else "end"
    return f"at the {where} of the row ({_cards(row)}), nothing taken"


@contextlib.contextmanager
def _hang_up_as_interrupt() -> Iterator[list[int]]:
    """While the block runs, SIGTERM (``kill``) and SIGHUP (the terminal closed) end the game as
    Ctrl-C does, so its record is still written; yields the signals received."""
    got: list[int] = []

    def handler(signum: int, frame: object) -> None:
        got.append(signum)
        raise KeyboardInterrupt

    wanted = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    try:
        old = {s: signal.signal(s, handler) for s in wanted}
    except ValueError:  # not the main thread: leave the signals alone
        yield got
        return
    try:
        yield got
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def _echoing(read: Reader, out: Console) -> Reader:
    """``read`` that prints each answer after its prompt: answers piped in from a file are not
    echoed by a terminal, and the transcript should still show them."""

    def echo(prompt: str) -> str:
        text = read(prompt)
        out.print(text, markup=False, highlight=False)
        return text

    return echo


class Narrator:
    """Prints what happens as it happens, from each action and its events (:mod:`take6.turn`):
    the draft picks, each turn's revealed cards and where each one went, the round scores."""

    def __init__(self, seats: Seats, rules: Rules) -> None:
        self.seats = seats
        self.rules = rules
        self.turn = 1

    def __call__(self, action: Action, state: State, events: Sequence[Event]) -> None:
        """Narrate ``action`` and its ``events``; ``state`` is the state after it."""
        out = self.seats.out
        who = self.seats.who
        if isinstance(action, Pick):
            out.print(f"{who(action.player)} picks {action.card}")
        if isinstance(action, ChooseRow):
            out.print(f"  {who(action.player)} chooses row {action.row + 1}")
        for e in events:
            if isinstance(e, RoundStarted):
                self.turn = 1
                out.rule(f"Round {e.round}")
                if self.rules.draft:
                    for p, hand in enumerate(e.hands):
                        out.print(Text(f"{who(p)} drafted ") + cards_text(hand, self.rules.heads))
                if self.rules.pile_play:  # no card prompt shows the rows: show them here
                    out.print(rows_table(e.rows, table=self.rules.heads))
            elif isinstance(e, Revealed):
                plays = ", ".join(f"{who(p)} {c}" for p, c in e.plays)
                verb = "revealed" if self.rules.simultaneous else "turned up"
                out.print(f"turn {self.turn} {verb}: {plays}")
            elif isinstance(e, Placed):
                out.print(f"  {who(e.player)}: {e.card} {_placed_text(e)}")
            elif isinstance(e, TurnEnded):
                self.turn = e.turn + 1
                if self.rules.pile_play and state.rows:
                    out.print(rows_table(state.rows, table=state.rules.heads))
            elif isinstance(e, RoundScored):
                out.rule(f"end of round {e.round}")
                out.print(
                    "heads this round: "
                    + ", ".join(f"{who(p)} {h}" for p, h in enumerate(e.heads))
                    + " | totals: "
                    + ", ".join(f"{who(p)} {t}" for p, t in enumerate(e.totals))
                )
            elif isinstance(e, GameOver):
                pass  # the final scores follow


def _placed_text(e: Placed) -> str:
    if e.taken:
        return f"takes row {e.row + 1} ({_cards(e.taken)}: {plural(e.heads, 'head')}) and starts it"
    return f"goes to the {'start' if e.side is Side.LEFT else 'end'} of row {e.row + 1}"


def play_with_humans(
    rules: Rules, names: Sequence[str], args: argparse.Namespace, read: Reader | None = None
) -> int:
    """Play a game in which the seats named ``human`` are people at this terminal; the rest are
    bots. Prints the game as it goes and the final scores; writes ``args.record`` if given.
    Returns the exit status (0; 130 when abandoned with Ctrl-C)."""
    if args.json or args.summary:
        flag = "--json" if args.json else "--summary"
        raise CliError(
            f"{flag} is for games between bots; a game with a human is shown as it goes "
            "(write its record with --record FILE)"
        )
    if args.record:  # a file that cannot be written is refused now, not after the game
        write_record(args.record, Record.from_play(rules, [], new_game(rules)).to_json())
    humans = frozenset(p for p, n in enumerate(names) if n == HUMAN)
    labels = tuple(
        f"P{p + 1} ({'you' if len(humans) == 1 else HUMAN})"
        if p in humans
        else f"P{p + 1} ({names[p]})"
        for p in range(rules.players)
    )
    out = console()
    seats = Seats(labels, out)
    if read is None:
        read = input if sys.stdin.isatty() else _echoing(input, out)
        if sys.stdin.isatty():
            with contextlib.suppress(ImportError):  # line editing at the prompt, where present
                import readline  # noqa: F401
    agents: list[Agent] = [
        HumanPlayer(p, seats, read) if p in humans else make_bot(names[p])
        for p in range(rules.players)
    ]
    if len(humans) > 1:
        out.print(
            "hot seat: the humans share this terminal; each prompt shows only its own player's "
            "hand, but earlier prompts stay on the screen"
        )
    out.print(
        "answer each question with a number and Enter; 'help' explains the question, 'quit' "
        "or Ctrl-D abandons the game"
    )
    narrate = Narrator(seats, rules)
    actions: list[Action] = []
    final = new_game(rules)
    abandoned: Abandoned | None = None
    try:
        with _hang_up_as_interrupt() as signals:
            for action, state, events in play_steps(rules, agents, args.seed):
                actions.append(action)
                final = state
                narrate(action, state, events)
    except Abandoned as exc:
        abandoned = exc
    except KeyboardInterrupt:  # Ctrl-C while the bots play
        abandoned = Abandoned("interrupted", interrupted=True)
    if abandoned is not None and signals:
        name = signal.Signals(signals[0]).name
        abandoned = Abandoned(f"{name} received", interrupted=True, status=128 + signals[0])
    if args.record:
        record = Record.from_play(rules, actions, final, args.seed, names)
        write_record(args.record, record.to_json())
    if abandoned is not None:
        where = f"round {final.round}, " + (
            "the draft" if final.phase is Phase.DRAFT else f"turn {final.turn + 1}"
        )
        saved = f"; record written to {args.record}" if args.record else ""
        out.print()
        print(f"take6: game abandoned at {where} ({abandoned.why}){saved}", file=sys.stderr)
        return abandoned.status
    print_final(out, rules, final, labels, args.seed)
    if args.record:
        out.print(f"record written to {args.record}")
    return 0
