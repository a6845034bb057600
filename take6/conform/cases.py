"""Conformance cases: what a case asks, how it is read and checked, and the reference answers.

A case is one JSON object (one line of a JSON-lines file). It holds a *request*, the part sent to
the engine under test, and optionally ``expect``, the answer the rules give (computed by the
reference engine when a case file leaves it out), plus ``rule`` and ``about`` (what the case is
about, for the report). Three kinds of request exist (``docs/conformance.md`` is the protocol):

* ``heads``: the bull heads printed on ``card``;
* ``turn``: the rows after one turn, the cards each seat took and their heads, given ``rules``,
  the ``rows``, the ``plays`` (seat and card; any subset of the seats) and the owners' row
  ``choices`` for the cards that need one (too low; in Profi also a tie or no fit);
* ``perft``: for the hands ``hands`` on ``rows``, the number of ways to play ``turns`` turns
  (``paths``: every joint play and every row choice a branch) and the number of distinct tables
  they reach (``tables``: sets of rows, each with all its cards).

Seats and rows count from 0 in requests and answers, as in every JSON form of take6; messages
name them from 1, as all human text does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from take6.cards import HEADS, MAX_CARD
from take6.errors import IllegalActionError, PositionError, RulesError, Take6Error
from take6.placement import Move, Reason, apply_move, place
from take6.position import check_table
from take6.rules import ProfiTie, Rules, Variant
from take6.text import excerpt
from take6.turn import Placed, Turn, resolve_turn

KINDS = ("heads", "turn", "perft")
MAX_PERFT_TURNS = 3
"""Perft requests ask for at most this many turns (the count grows as (hand size)^(2·turns))."""

RULE_FIELDS = (
    "variant",
    "players",
    "rows",
    "row_capacity",
    "deck_size",
    "profi_left",
    "profi_tie",
    "simultaneous",
)
"""The settings a ``rules`` object of a request holds (every one of them, always)."""


class CaseError(Take6Error):
    """A conformance case (or case file) that is not well formed, or whose ``expect`` is not what
    the rules give."""


@dataclass(frozen=True)
class Case:
    """One conformance case: ``request`` (sent to the engine, with its ``id`` and ``kind``),
    ``expect`` (the answer the rules give), and what it is about."""

    request: dict[str, Any]
    expect: dict[str, Any]
    rule: str = ""
    about: str = ""

    @property
    def id(self) -> str:
        return str(self.request["id"])

    @property
    def kind(self) -> str:
        return str(self.request["kind"])

    def to_json(self) -> dict[str, Any]:
        """The case as one JSON object (the line of a case file)."""
        out = dict(self.request)
        out["rule"] = self.rule
        out["about"] = self.about
        out["expect"] = self.expect
        return out


# ------------------------------------------------------------------------------------------
# Rules of a request


def rules_json(rules: Rules) -> dict[str, Any]:
    """The ``rules`` object of a request for ``rules`` (the settings a turn depends on)."""
    return {
        "variant": rules.variant.value,
        "players": rules.players,
        "rows": rules.rows,
        "row_capacity": rules.row_capacity,
        "deck_size": rules.deck_size,
        "profi_left": rules.profi_left,
        "profi_tie": rules.profi_tie.value,
        "simultaneous": rules.simultaneous,
    }


def _int(value: object, what: str, where: str, lo: int = 0, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CaseError(f"{what} must be an integer, got {excerpt(value)} in {where}")
    if value < lo or (hi is not None and value > hi):
        span = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
        raise CaseError(f"{what} must be {span}, got {value} in {where}")
    return value


def _bool(value: object, what: str, where: str) -> bool:
    if not isinstance(value, bool):
        raise CaseError(f"{what} must be true or false, got {excerpt(value)} in {where}")
    return value


def _list(value: object, what: str, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise CaseError(f"{what} must be a list, got {excerpt(value)} in {where}")
    return value


def rules_from_json(data: object, where: str) -> Rules:
    """The :class:`Rules` of a request's ``rules`` object (validated; one line names the field)."""
    if not isinstance(data, dict):
        raise CaseError(f"rules must be an object, got {excerpt(data)} in {where}")
    missing = [k for k in RULE_FIELDS if k not in data]
    if missing:
        raise CaseError(f"rules lack {', '.join(missing)} in {where}")
    unknown = sorted(str(k) for k in data if k not in RULE_FIELDS)
    if unknown:
        raise CaseError(f"unknown rules field {excerpt(unknown[0])} in {where}")
    names = [v.value for v in Variant]
    if data["variant"] not in names:
        raise CaseError(
            f"rules.variant must be one of {', '.join(names)}, got {excerpt(data['variant'])} "
            f"in {where}"
        )
    ties = [t.value for t in ProfiTie]
    if data["profi_tie"] not in ties:
        raise CaseError(
            f"rules.profi_tie must be one of {', '.join(ties)}, got {excerpt(data['profi_tie'])} "
            f"in {where}"
        )
    players = _int(data["players"], "rules.players", where, 2, 10)
    rows = _int(data["rows"], "rules.rows", where, 1, 10)
    capacity = _int(data["row_capacity"], "rules.row_capacity", where, 1, MAX_CARD)
    deck = _int(data["deck_size"], "rules.deck_size", where, 1, MAX_CARD)
    try:
        return Rules.for_variant(
            data["variant"],
            players,
            rows=rows,
            row_capacity=capacity,
            deck_size=deck,
            hand_size=1,
            profi_left=_bool(data["profi_left"], "rules.profi_left", where),
            profi_tie=ProfiTie(data["profi_tie"]),
            simultaneous=_bool(data["simultaneous"], "rules.simultaneous", where),
        )
    except RulesError as exc:
        raise CaseError(f"{exc} in {where}") from None


def _rows(data: object, where: str) -> tuple[tuple[int, ...], ...]:
    """The rows of a request, read (their rules are checked by :func:`_check_table`)."""
    rows = _list(data, "rows", where)
    return tuple(
        tuple(_card(c, f"a card of row {i + 1}", where) for c in _list(row, f"row {i + 1}", where))
        for i, row in enumerate(rows)
    )


def _card(value: object, what: str, where: str) -> int:
    return _int(value, what, where, 1, MAX_CARD)


def _check_table(
    rows: tuple[tuple[int, ...], ...],
    groups: list[tuple[str, tuple[int, ...]]],
    rules: Rules,
    where: str,
) -> None:
    """The table and the other cards, checked as a position's are (:func:`check_table`)."""
    try:
        check_table(rows, groups, rules, where)
    except PositionError as exc:
        raise CaseError(str(exc)) from None


@dataclass(frozen=True)
class TurnQuestion:
    """A validated ``turn`` request."""

    rules: Rules
    rows: tuple[tuple[int, ...], ...]
    plays: dict[int, int]
    choices: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PerftQuestion:
    """A validated ``perft`` request."""

    rules: Rules
    rows: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    turns: int


def turn_question(req: Mapping[str, Any], where: str) -> TurnQuestion:
    """Validate a ``turn`` request."""
    rules = rules_from_json(req.get("rules"), where)
    rows = _rows(req.get("rows"), where)
    plays: dict[int, int] = {}
    items = _list(req.get("plays"), "plays", where)
    if not items:
        raise CaseError(f"plays must name at least one card in {where}")
    for k, item in enumerate(items, 1):
        if not isinstance(item, dict) or set(item) != {"player", "card"}:
            raise CaseError(f"play {k} must be {{player, card}}, got {excerpt(item)} in {where}")
        p = _int(item["player"], f"play {k}'s player", where, 0, rules.players - 1)
        if p in plays:
            raise CaseError(f"player {p + 1} plays twice in {where}")
        plays[p] = _card(item["card"], f"play {k}'s card", where)
    _check_table(
        rows, [(f"the card of player {p + 1}", (c,)) for p, c in plays.items()], rules, where
    )
    choices: dict[int, int] = {}
    for k, item in enumerate(_list(req.get("choices", []), "choices", where), 1):
        if not isinstance(item, dict) or set(item) != {"player", "row"}:
            raise CaseError(f"choice {k} must be {{player, row}}, got {excerpt(item)} in {where}")
        p = _int(item["player"], f"choice {k}'s player", where, 0, rules.players - 1)
        if p not in plays:
            raise CaseError(f"choice {k} is for player {p + 1}, who plays no card in {where}")
        if p in choices:
            raise CaseError(f"player {p + 1} has two choices in {where}")
        choices[p] = _int(item["row"], f"choice {k}'s row", where, 0, rules.rows - 1)
    return TurnQuestion(rules, rows, plays, choices)


def perft_question(req: Mapping[str, Any], where: str) -> PerftQuestion:
    """Validate a ``perft`` request."""
    rules = rules_from_json(req.get("rules"), where)
    rows = _rows(req.get("rows"), where)
    hands_in = _list(req.get("hands"), "hands", where)
    if len(hands_in) != rules.players:
        raise CaseError(f"{len(hands_in)} hands for {rules.players} players in {where}")
    hands = [
        tuple(
            sorted(
                _card(c, f"a card of hand {i + 1}", where) for c in _list(h, f"hand {i + 1}", where)
            )
        )
        for i, h in enumerate(hands_in)
    ]
    _check_table(rows, [(f"hand {i + 1}", h) for i, h in enumerate(hands)], rules, where)
    if len({len(h) for h in hands}) != 1:
        raise CaseError(f"hands have unequal sizes {[len(h) for h in hands]} in {where}")
    turns = _int(req.get("turns"), "turns", where, 1, MAX_PERFT_TURNS)
    if turns > len(hands[0]):
        raise CaseError(f"{turns} turns, but the hands hold {len(hands[0])} cards in {where}")
    return PerftQuestion(rules, rows, tuple(hands), turns)


# ------------------------------------------------------------------------------------------
# The reference answers (the rules core)


def _choice_rows(q: TurnQuestion) -> list[int]:
    """The row choices in the order :func:`resolve_turn` asks for them."""
    used: list[int] = []
    turn = resolve_turn(q.rows, q.plays, q.rules)
    while turn.pending is not None:
        seat = turn.pending.player
        if seat not in q.choices:
            raise CaseError(
                f"card {turn.pending.card} of player {seat + 1} needs a row choice "
                f"({turn.pending.placement.reason.value}) and the case gives none"
            )
        used.append(q.choices[seat])
        turn = resolve_turn(q.rows, q.plays, q.rules, used)
    return used


def play_turn(q: TurnQuestion) -> Turn:
    """The complete turn of a question, by the rules core."""
    try:
        return resolve_turn(q.rows, q.plays, q.rules, _choice_rows(q))
    except IllegalActionError as exc:
        raise CaseError(str(exc)) from None


def turn_answer(q: TurnQuestion) -> dict[str, Any]:
    """The answer to a ``turn`` request: rows, cards taken by seat (in the order taken) and
    heads by seat."""
    turn = play_turn(q)
    n = q.rules.players
    return {
        "rows": [list(r) for r in turn.rows],
        "taken": [list(t) for t in turn.taken(n)],
        "heads": list(turn.heads(n)),
    }


Level = dict[tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]], int]
"""Positions (rows, hands) with the number of paths into each."""


def perft_positions(q: PerftQuestion) -> Level:
    """The positions after ``q.turns`` turns, each with the number of ways to reach it (every
    joint play of the seats, placed by :func:`resolve_turn`; every row choice a branch)."""
    level: Level = {(q.rows, q.hands): 1}
    for _ in range(q.turns):
        nxt: Level = {}
        for (rows, hands), w in level.items():
            for cards in product(*hands):
                after = tuple(
                    tuple(c for c in h if c != x) for h, x in zip(hands, cards, strict=True)
                )
                for turn in _all_turns(rows, dict(enumerate(cards)), q.rules):
                    key = (turn.rows, after)
                    nxt[key] = nxt.get(key, 0) + w
        level = nxt
    return level


def perft(q: PerftQuestion) -> tuple[int, int]:
    """``(paths, tables)``: the number of ways to play the turns and of the distinct tables they
    reach (sets of rows, each with all its cards)."""
    level = perft_positions(q)
    return sum(level.values()), len({frozenset(rows) for rows, _ in level})


def _all_turns(
    rows: tuple[tuple[int, ...], ...], plays: dict[int, int], rules: Rules
) -> list[Turn]:
    """Every complete turn: each row choice any owner can make, a branch of its own."""
    out: list[Turn] = []
    stack: list[list[int]] = [[]]
    while stack:
        choices = stack.pop()
        turn = resolve_turn(rows, plays, rules, choices)
        if turn.pending is None:
            out.append(turn)
            continue
        for move in turn.pending.placement.options:
            stack.append(choices + [move.row])
    return out


def answer(request: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The reference answer to ``request`` (without its ``id``)."""
    kind = request.get("kind")
    if kind == "heads":
        card = _int(request.get("card"), "card", where, 1, MAX_CARD)
        return {"heads": HEADS[card]}
    if kind == "turn":
        return turn_answer(turn_question(request, where))
    if kind == "perft":
        paths, tables = perft(perft_question(request, where))
        return {"paths": paths, "tables": tables}
    raise CaseError(f"kind must be one of {', '.join(KINDS)}, got {excerpt(kind)} in {where}")


# ------------------------------------------------------------------------------------------
# What a turn exercises (the case's rule, for cases a generator or a user writes)


def turn_features(q: TurnQuestion) -> set[str]:
    """The rules a turn exercises (names of :data:`take6.conform.kit.RULES`)."""
    turn = play_turn(q)
    feats: set[str] = set()
    rows = q.rows
    order = sorted(q.plays.items())
    by_card = sorted(q.plays.values())
    if q.rules.simultaneous and [c for _, c in order] != by_card:
        feats.add("order.lowest-first")
    if not q.rules.simultaneous and len(q.plays) > 1:
        feats.add("order.seat")
    for e in turn.placed:
        placement = place(rows, e.card, q.rules)
        if placement.reason is Reason.TOO_LOW:
            feats.add("too-low.choice")
        elif placement.reason is Reason.NO_FIT:
            feats.add("profi.no-fit")
        elif placement.reason is Reason.TIE:
            feats.add("profi.tie-owner")
        elif q.rules.profi_left and _left(e):
            feats.add("profi.left")
        if e.taken and placement.reason is Reason.FORCED:
            feats.add("take.full-row")
        if any(c == 55 for c in e.taken):
            feats.add("heads.55")
        rows = after_placed(rows, e, q.rules)
    return feats


def _left(e: Placed) -> bool:
    return e.side.value == "left"


def after_placed(
    rows: tuple[tuple[int, ...], ...], e: Placed, rules: Rules
) -> tuple[tuple[int, ...], ...]:
    """The rows after the placement event ``e`` (a take, too low or of a full row, and an
    ordinary placement all come out of :func:`apply_move` by the move the event records)."""
    return apply_move(rows, e.card, Move(e.row, e.side), rules.row_capacity)[0]


# ------------------------------------------------------------------------------------------
# Case files


def case_from_json(data: object, where: str, *, check: bool = True) -> Case:
    """A :class:`Case` from one JSON object; its ``expect`` is computed when absent and, when
    given, must be the answer the rules give (``check``)."""
    if not isinstance(data, dict):
        raise CaseError(f"a case must be a JSON object, got {excerpt(data)} in {where}")
    cid = data.get("id")
    if not isinstance(cid, str) or not cid:
        raise CaseError(f"a case needs an id (a non-empty string), got {excerpt(cid)} in {where}")
    where = f"case {excerpt(cid, 60)} ({where})"
    rule = data.get("rule", "")
    about = data.get("about", "")
    if not isinstance(rule, str) or not isinstance(about, str):
        raise CaseError(f"rule and about must be strings in {where}")
    request = {k: v for k, v in data.items() if k not in ("rule", "about", "expect")}
    allowed = {
        "heads": {"id", "kind", "card"},
        "turn": {"id", "kind", "rules", "rows", "plays", "choices"},
        "perft": {"id", "kind", "rules", "rows", "hands", "turns"},
    }
    kind = request.get("kind")
    if kind not in allowed:
        raise CaseError(f"kind must be one of {', '.join(KINDS)}, got {excerpt(kind)} in {where}")
    extra = sorted(set(request) - allowed[str(kind)])
    if extra:
        raise CaseError(f"unknown field {excerpt(extra[0])} in {where}")
    truth = answer(request, where)
    expect = data.get("expect")
    if expect is None:
        expect = truth
    elif check and expect != truth:
        raise CaseError(
            f"expect {excerpt(json.dumps(expect), 120)} is not what the rules give "
            f"({excerpt(json.dumps(truth), 120)}) in {where}"
        )
    if not rule and kind == "turn":
        rule = ", ".join(sorted(turn_features(turn_question(request, where)))) or "place.ascending"
    return Case(request, expect, rule or str(kind), about)


def read_cases(text: str, source: str) -> list[Case]:
    """The cases of a JSON-lines text (blank lines and lines starting with ``#`` skipped);
    ids must be unique."""
    out: list[Case] = []
    ids: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source} line {n}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CaseError(f"not JSON ({exc.msg}) in {where}") from None
        case = case_from_json(data, where)
        if case.id in ids:
            raise CaseError(f"case id {excerpt(case.id, 60)} is used twice ({where})")
        ids.add(case.id)
        out.append(case)
    if not out:
        raise CaseError(f"{source} holds no case")
    return out


def dumps_cases(cases: Iterable[Case]) -> str:
    """Cases as JSON lines."""
    return "".join(json.dumps(c.to_json(), separators=(",", ":")) + "\n" for c in cases)


def compare(case: Case, reply: Mapping[str, Any]) -> list[str]:
    """What differs between an engine's ``reply`` and the expected answer (empty: agreement).
    Cards taken are compared as sets per seat (the order inside a bull pile is no rule)."""
    diffs: list[str] = []
    for key, want in case.expect.items():
        if key not in reply:
            diffs.append(f"no {key!r} in the answer")
            continue
        got = reply[key]
        if key == "taken" and isinstance(got, list):
            norm = [sorted(x) if isinstance(x, list) else x for x in got]
            if norm != [sorted(x) for x in want]:
                diffs.append(f"taken: expected {_short(want)}, got {_short(got)}")
        elif got != want:
            diffs.append(f"{key}: expected {_short(want)}, got {_short(got)}")
    return diffs


def _short(value: object) -> str:
    return cut(json.dumps(value, separators=(",", ":")))


def cut(text: str, limit: int = 160) -> str:
    """``text`` as it is, cut to ``limit`` characters (for an engine's output in a report)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
