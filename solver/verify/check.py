"""Independent checker of solver certificates (``take6 check-certificate``).

This module deliberately imports nothing from the solver: it recomputes every child position with
the reference engine (:func:`take6.state.apply`, which uses :func:`take6.placement.place`), counts
heads from the engine's scores, and checks every claim with exact best-response arithmetic.

Certificate format (JSON)::

    {"format": "take6-certificate", "version": 1,
     "position": "<compact notation of the root>",
     "rules": {"row_capacity": 5, "profi_left": false, "profi_tie": "owner"},
     "objective": "diff" | "paranoid", "seat": N (from 0; older files: "player", from 1),
     "value": "p/q",
     "nodes": {"<node key>": {"value": "p/q",
                              "max": [[[cards of the max side, seat order], "p/q"], ...],
                              "min": [[[cards of the min side], "p/q"], ...]}, ...}}

``rules`` holds the three settings the notation leaves out; for a rule set the notation cannot
name (a rules file's own deck, bull heads or rows) it holds every setting in the game records'
form instead (:func:`take6.io.record.rules_to_json`: with ``cards`` and ``heads``), and the
position is read under those rules, whose heads the check then counts.

The sides: ``diff`` — player N maximises (heads of the other) - (heads of N); ``paranoid`` —
the value is N's heads, all other players (jointly) maximise, N minimises. A node key is the
position between turns with its rows **sorted** (rows are interchangeable: the placement rule
never looks at a row's index) followed by the hands: ``"3/17,20/58/96 4,90|2,93"``. Positions
whose hands are empty have value 0 and no node.

What is checked, for every node reached from the root: the strategies are probability
distributions over joint actions the hands allow; for every pair of a max action ``a`` and a min
action ``b`` with ``a`` in the max support or ``b`` in the min support, the turn is replayed by the
engine, each row choice is settled exactly by its owner (max side maximises, min side minimises)
using the claimed values of the next positions, which are themselves checked; then

    for every min action b:  sum_a x(a) * cell(a, b) >= value   (x guarantees at least value)
    for every max action a:  sum_b y(b) * cell(a, b) <= value   (y concedes at most value)

Together these prove ``value`` is the exact value of the node, by induction on the cards left.

**Version 2 (bound certificates)**, written for large positions, where version 1's closure of
every deviation is far too large. A node may claim a lower bound, an upper bound, or both::

    {"lower": "p/q", "max": [...]}      value >= lower, proven by the max strategy
    {"upper": "p/q", "min": [...]}      value <= upper, proven by the min strategy
    {"value": "p/q", "max": [...], "min": [...]}   both, with lower = upper = value

A lower claim is checked against **every** min action ``b``: ``sum_a x(a) * lo(a, b) >= lower``,
where ``lo(a, b)`` replays the turn with the engine, settles each row choice by its owner (max:
the best of the options' lower bounds; min: the worst) and adds the heads taken to the next
position's proven lower bound: its own lower claim, checked in turn, or, where the certificate
makes none, the **static bound** this checker computes itself (no one takes more heads than lie
on the table and in the hands: ``min(0, min_p w_p) * heads <= value <= max(0, max_p w_p) *
heads`` for the payoff ``sum_p w_p * heads_p``). Upper claims mirror this. The root must be
proven both ways at the certificate's value, so the value is exact; deviations are covered by
bounds only as tight as they need to be.

**Version 3** is version 2 where the smallest positions need no node: where the certificate
makes no claim on a position of **one card a hand**, or of **two cards a hand with one player on
each side** (2 players), this checker finds its exact value itself and uses it as both bounds.
One card a hand: the last turn, replayed by the engine with each row choice settled by its owner.
Two: the 2 x 2 matrix of those cells (each turn replayed, the one-card positions after it valued
as above), solved in closed form: its pure saddle if ``max_i min_j = min_j max_i``, else
``(a d - b c) / (a + d - b - c)``. (Those positions made about 90% of a version-2 file's nodes
at k = 7.) A claim on such a position, if present, is checked as in version 2.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

from take6.errors import Take6Error
from take6.io.record import rules_from_json
from take6.notation import load_position
from take6.placement import Rows
from take6.position import Position
from take6.rules import ProfiTie, Rules
from take6.state import (
    ChooseRow,
    Phase,
    Play,
    State,
    apply,
    from_position,
    legal_actions,
    without_scores,
)
from take6.text import decode, excerpt, strip_bom
from take6.turn import resolve_turn

FORMAT = "take6-certificate"
VERSION = 1
BOUNDS_VERSION = 2
"""The version of bound certificates (see the module docstring)."""
SMALL_VERSION = 3
"""Bound certificates that leave the smallest positions to the checker (see the module
docstring): what ``take6 solve --certificate`` writes."""

MAX_NUMBER_DIGITS = 200_000
"""The most digits a number in a certificate may have (numerator and denominator each). Exact
values of real-size deals have denominators of thousands of digits (k = 8 already reaches
~1,700); a longer number, or one written with an exponent (``"1e1000000000"``), is refused before
any arithmetic."""

MAX_CELLS = 1_000_000
"""The most joint actions (max-side actions times min-side actions) a node may have; a
position beyond it is refused up front (the solver solves nothing that large)."""

_NUMBER = re.compile(r"[+-]?[0-9]+(/[0-9]+)?")


class CertificateError(Take6Error):
    """A certificate that does not prove its claim, or is not a well-formed certificate; the
    message (one line) says where it fails."""


def node_key(rows: tuple[tuple[int, ...], ...], hands: tuple[tuple[int, ...], ...]) -> str:
    """The key of a position between turns: sorted rows, then the hands (seat order)."""
    r = "/".join(",".join(str(c) for c in row) for row in sorted(rows))
    h = "|".join(",".join(str(c) for c in sorted(hand)) or "-" for hand in hands)
    return f"{r} {h}"


def state_key(state: State) -> str:
    return node_key(state.rows, state.hands)


@dataclass
class CheckReport:
    """The outcome of a successful check."""

    value: Fraction
    nodes: int
    cells: int


def _frac(text: object, where: str) -> Fraction:
    """An exact number of the certificate: an integer, or a string ``"p"`` or ``"p/q"`` of
    ASCII digits (at most :data:`MAX_NUMBER_DIGITS` each)."""
    if isinstance(text, int) and not isinstance(text, bool):
        if text.bit_length() > 3.33 * MAX_NUMBER_DIGITS:
            raise CertificateError(f"{where}: {excerpt(text)} is too large a number")
        return Fraction(text)
    if not isinstance(text, str) or not _NUMBER.fullmatch(text):
        raise CertificateError(
            f'{where}: {excerpt(text)} is not an exact number (an integer or "p/q")'
        )
    if any(len(part.lstrip("+-")) > MAX_NUMBER_DIGITS for part in text.split("/")):
        raise CertificateError(f"{where}: {excerpt(text)} has more than {MAX_NUMBER_DIGITS} digits")
    num, _, den = text.partition("/")
    q = _digits(den) if den else 1
    if q == 0:
        raise CertificateError(f"{where}: {excerpt(text)} divides by zero")
    return Fraction(_digits(num), q)


_CHUNK = 4000


def _digits(text: str) -> int:
    """An integer of ASCII digits (with an optional sign), read in chunks: Python refuses to
    convert more than 4300 digits at once (``sys.get_int_max_str_digits``)."""
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("+-")
    n = 0
    for i in range(0, len(body), _CHUNK):
        part = body[i : i + _CHUNK]
        n = n * 10 ** len(part) + int(part)
    return sign * n


def _check_size(state: State, where: str) -> None:
    """Refuse a node with more joint actions than the checker examines."""
    joint = 1
    for hand in state.hands:
        joint *= len(hand)
    if joint > MAX_CELLS:
        raise CertificateError(
            f"{where}: {joint} joint actions, more than the checker examines ({MAX_CELLS})"
        )


def _short(v: Fraction) -> str:
    """A number for a message: exact when short, else its float and size."""
    bits = v.numerator.bit_length() + v.denominator.bit_length()
    if bits <= 160:
        return f"{v.numerator}/{v.denominator}" if v.denominator != 1 else str(v.numerator)
    return f"≈{float(v):.9g} (a fraction of about {int(bits * 0.30103)} digits)"


RULE_FIELDS = {"row_capacity": int, "profi_left": bool, "profi_tie": str}
"""The settings a certificate's ``rules`` object holds (what the compact notation leaves out)."""


def _with_rules(position: Position, rules: object) -> Position:
    """``position`` under the certificate's ``rules`` object (validated)."""
    if not isinstance(rules, Mapping) or set(rules) != set(RULE_FIELDS):
        raise CertificateError(
            f"'rules' must be an object with {', '.join(RULE_FIELDS)}, got {excerpt(rules)}"
        )
    for name, kind in RULE_FIELDS.items():
        value = rules[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise CertificateError(f"rules.{name} must be a {kind.__name__}, got {excerpt(value)}")
    ties = [t.value for t in ProfiTie]
    if rules["profi_tie"] not in ties:
        raise CertificateError(
            f"rules.profi_tie must be one of {', '.join(ties)}, got {excerpt(rules['profi_tie'])}"
        )
    try:
        changed = position.rules.with_(
            row_capacity=rules["row_capacity"],
            profi_left=rules["profi_left"],
            profi_tie=ProfiTie(rules["profi_tie"]),
        )
        return position.with_rules(changed)
    except Take6Error as exc:
        raise CertificateError(f"'rules': {exc}") from None


def _full_rules(rules: Mapping[str, Any]) -> Rules:
    """A certificate's ``rules`` in the records' full form (a rule set of its own: deck, heads,
    rows), validated by the engine's reader."""
    try:
        return rules_from_json(dict(rules))
    except Take6Error as exc:
        raise CertificateError(f"'rules': {exc}") from None


class Checker:
    """Checks one certificate (parsed JSON)."""

    def __init__(
        self, cert: Mapping[str, Any], progress: Callable[[int, int], None] | None = None
    ) -> None:
        self.progress = progress
        self.proven = 0
        if not isinstance(cert, Mapping):
            raise CertificateError(f"a certificate must be a JSON object, got {excerpt(cert)}")
        self.version = cert.get("version")
        if cert.get("format") != FORMAT or self.version not in (
            VERSION,
            BOUNDS_VERSION,
            SMALL_VERSION,
        ):
            raise CertificateError(
                f"not a {FORMAT} version {VERSION}, {BOUNDS_VERSION} or {SMALL_VERSION} file"
            )
        text = cert.get("position")
        if not isinstance(text, str):
            raise CertificateError(
                f"'position' must be a position in compact notation, got {excerpt(text)}"
            )
        rules = cert.get("rules")
        full = _full_rules(rules) if isinstance(rules, Mapping) and "variant" in rules else None
        try:
            self.position = load_position(text, full)
        except Take6Error as exc:
            raise CertificateError(f"'position': {exc}") from None
        if rules is not None and full is None:
            # (certificates written before it name the preset's rules only)
            self.position = _with_rules(self.position, rules)
        n = self.position.players
        # ``seat`` counts from 0 like every JSON form; ``player`` (from 1) is what certificates
        # written before the one numbering carry.
        if "seat" in cert:
            me = cert["seat"]
            if not isinstance(me, int) or isinstance(me, bool) or not 0 <= me < n:
                raise CertificateError(f"seat {excerpt(me)} out of range 0..{n - 1}")
        else:
            player = cert.get("player", 1)
            if not isinstance(player, int) or isinstance(player, bool) or not 1 <= player <= n:
                raise CertificateError(f"player {excerpt(player)} out of range 1..{n}")
            me = player - 1
        objective = cert.get("objective")
        if objective == "diff":
            if n != 2:
                raise CertificateError("objective diff needs 2 players")
            self.weights = tuple(-1 if p == me else 1 for p in range(n))
            self.max_side: tuple[int, ...] = (me,)
            self.min_side: tuple[int, ...] = (1 - me,)
        elif objective == "paranoid":
            self.weights = tuple(1 if p == me else 0 for p in range(n))
            self.max_side = tuple(p for p in range(n) if p != me)
            self.min_side = (me,)
        else:
            raise CertificateError(f"unknown objective {excerpt(objective)}")
        self.claim = _frac(cert.get("value"), "root value")
        nodes = cert.get("nodes")
        if not isinstance(nodes, Mapping):
            raise CertificateError("'nodes' must be an object")
        self.nodes: Mapping[str, Any] = nodes
        self.checked: dict[str, Fraction] = {}
        self.lower: dict[str, Fraction] = {}
        self.upper: dict[str, Fraction] = {}
        self.cells = 0
        self.wlo = min(0, *self.weights)
        self.whi = max(0, *self.weights)
        self.exact: dict[str, Fraction] = {}  # the small positions valued here (version 3)
        self.small_hand = 2 if len(self.max_side) == len(self.min_side) == 1 else 1
        if self.version != SMALL_VERSION:
            self.small_hand = 0

    def run(self) -> CheckReport:
        root = from_position(self.position)
        if root.phase is not Phase.CHOOSE:
            raise CertificateError("the root position has no cards to play")
        if self.version in (BOUNDS_VERSION, SMALL_VERSION):
            lo, hi = self.bound(root, True, True), self.bound(root, False, True)
            if not lo == hi == self.claim:
                raise CertificateError(
                    f"root node proves {_short(lo)} <= value <= {_short(hi)}, the certificate "
                    f"claims {_short(self.claim)}"
                )
            nodes = len(set(self.lower) | set(self.upper))
            return CheckReport(self.claim, nodes, self.cells)
        value = self.node_value(root)
        if value != self.claim:
            raise CertificateError(f"root node proves {value}, the certificate claims {self.claim}")
        return CheckReport(value, len(self.checked), self.cells)

    # -- version 2: bounds ---------------------------------------------------------------------
    def static(self, state: State, lower: bool) -> Fraction:
        """No one takes more heads than lie on the table and in the hands."""
        total = state.rules.heads_of(c for row in state.rows for c in row)
        total += state.rules.heads_of(c for hand in state.hands for c in hand)
        return Fraction((self.wlo if lower else self.whi) * total)

    def bound(self, state: State, lower: bool, small: bool = False) -> Fraction:
        """The proven lower (or upper) bound of a state in the choose phase: its claim, checked,
        or the static bound where it makes none (0 once the hands are empty); with ``small``
        (version 3), a small position's exact value where it makes none."""
        if state.phase is not Phase.CHOOSE or not state.hands[0]:
            return Fraction(0)
        key = state_key(state)
        done = (self.lower if lower else self.upper).get(key)
        if done is not None:
            return done
        node = self.nodes.get(key)
        field = "lower" if lower else "upper"
        if not isinstance(node, Mapping) or (field not in node and "value" not in node):
            if small and len(state.hands[0]) <= self.small_hand:
                return self.small(state)
            return self.static(state, lower)
        where = f"node {excerpt(key)} {field}"
        claim = _frac(node[field] if field in node else node["value"], where)
        _check_size(state, where)
        mine, theirs = (self.max_side, self.min_side) if lower else (self.min_side, self.max_side)
        strat = self._strategy(
            node.get("max" if lower else "min"), state.hands, mine, where + " strategy"
        )
        base = without_scores(state)
        for b in product(*(state.hands[p] for p in theirs)):
            # First with the static bound below every small position without a claim (as in
            # version 2); if that falls short, again with their exact values (version 3).
            for small in (False, True) if self.small_hand else (False,):
                got = Fraction(0)
                for a, q in strat.items():
                    s = base
                    for p, c in zip(mine + theirs, a + b, strict=True):
                        s = apply(s, Play(p, c))
                    got += q * self._settle_bound(base, s, lower, small)
                    self.cells += 1
                if (got >= claim) if lower else (got <= claim):
                    break
            if (got < claim) if lower else (got > claim):
                side = "max strategy guarantees only" if lower else "min strategy concedes"
                raise CertificateError(
                    f"{where}: the {side} {_short(got)}, not {_short(claim)}, against {list(b)}"
                )
        (self.lower if lower else self.upper)[key] = claim
        if key not in (self.upper if lower else self.lower):
            self._proved()
        return claim

    # -- version 3: the smallest positions valued here -----------------------------------------
    def small(self, state: State) -> Fraction:
        """The exact value of a position of one card a hand, or of two with one player a side
        (the module docstring)."""
        return self._small(state.rows, state.hands)

    def _small(self, rows: Rows, hands: tuple[tuple[int, ...], ...]) -> Fraction:
        if not hands[0]:
            return Fraction(0)
        key = node_key(rows, hands)
        done = self.exact.get(key)
        if done is not None:
            return done
        acts = [list(product(*(hands[p] for p in side))) for side in (self.max_side, self.min_side)]
        cell = []
        for a in acts[0]:
            line = []
            for b in acts[1]:
                cards = [0] * len(hands)
                for p, c in zip(self.max_side + self.min_side, a + b, strict=True):
                    cards[p] = c
                line.append(self._turn_small(rows, hands, tuple(cards), ()))
            cell.append(line)
        self.cells += len(acts[0]) * len(acts[1])
        if len(acts[0]) == len(acts[1]) == 1:
            v = cell[0][0]
        else:
            if not len(acts[0]) == len(acts[1]) == 2:  # pragma: no cover - small_hand rules it out
                raise CertificateError(f"node {excerpt(key)}: not a small position")
            (a11, a12), (a21, a22) = cell
            maxmin = max(min(a11, a12), min(a21, a22))
            minmax = min(max(a11, a21), max(a12, a22))
            v = maxmin
            if maxmin != minmax:  # no pure saddle: both sides mix
                v = (a11 * a22 - a12 * a21) / (a11 + a22 - a12 - a21)
        self.exact[key] = v
        return v

    def _turn_small(
        self,
        rows: Rows,
        hands: tuple[tuple[int, ...], ...],
        cards: tuple[int, ...],
        choices: tuple[int, ...],
    ) -> Fraction:
        """A cell of a small position: the engine's turn (:func:`take6.turn.resolve_turn`), each
        row choice settled by its owner, plus the exact value of the position after it."""
        turn = resolve_turn(rows, cards, self.position.rules, choices)
        if turn.pending is not None:
            vals = [
                self._turn_small(rows, hands, cards, (*choices, m.row))
                for m in turn.pending.placement.options
            ]
            return max(vals) if turn.pending.player in self.max_side else min(vals)
        heads = turn.heads(len(hands))
        gained = sum(w * heads[p] for p, w in enumerate(self.weights))
        after = tuple(tuple(c for c in h if c != cards[p]) for p, h in enumerate(hands))
        return gained + self._small(turn.rows, after)

    def _proved(self) -> None:
        """One more node of the file proven (``progress(proven, nodes in the file)``)."""
        self.proven += 1
        if self.progress is not None:
            self.progress(self.proven, len(self.nodes))

    def _settle_bound(self, start: State, s: State, lower: bool, small: bool) -> Fraction:
        if s.phase is Phase.ROW_CHOICE:
            assert s.pending is not None
            vals = [
                self._settle_bound(start, apply(s, act), lower, small)
                for act in legal_actions(s)
                if isinstance(act, ChooseRow)
            ]
            return max(vals) if s.pending.player in self.max_side else min(vals)
        gained = sum(w * (s.score(p) - start.score(p)) for p, w in enumerate(self.weights))
        return gained + self.bound(s, lower, small)

    def _strategy(
        self, raw: object, hands: tuple[tuple[int, ...], ...], side: tuple[int, ...], where: str
    ) -> dict[tuple[int, ...], Fraction]:
        if not isinstance(raw, list) or not raw:
            raise CertificateError(f"{where}: a strategy must be a non-empty list")
        out: dict[tuple[int, ...], Fraction] = {}
        for item in raw:
            if not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], list):
                raise CertificateError(f"{where}: bad strategy entry {excerpt(item)}")
            action = tuple(item[0])
            if len(action) != len(side) or any(
                not isinstance(c, int) or c not in hands[p]
                for p, c in zip(side, action, strict=True)
            ):
                raise CertificateError(
                    f"{where}: {excerpt(list(action))} is not a legal joint action"
                )
            q = _frac(item[1], where)
            if q < 0 or action in out:
                raise CertificateError(f"{where}: bad probability for {list(action)}")
            out[action] = q
        if sum(out.values()) != 1:
            raise CertificateError(f"{where}: probabilities sum to {sum(out.values())}, not 1")
        return out

    def node_value(self, state: State) -> Fraction:
        """The proven value of a state in the choose phase (0 once the hands are empty)."""
        if state.phase is not Phase.CHOOSE or not state.hands[0]:
            return Fraction(0)
        key = state_key(state)
        done = self.checked.get(key)
        if done is not None:
            return done
        node = self.nodes.get(key)
        if not isinstance(node, Mapping):
            raise CertificateError(f"node {key!r} is needed but missing")
        where = f"node {key!r}"
        v = _frac(node.get("value"), where)
        _check_size(state, where)
        x = self._strategy(node.get("max"), state.hands, self.max_side, where + " max")
        y = self._strategy(node.get("min"), state.hands, self.min_side, where + " min")
        base = without_scores(state)
        rows = list(product(*(state.hands[p] for p in self.max_side)))
        cols = list(product(*(state.hands[p] for p in self.min_side)))
        cell: dict[tuple[tuple[int, ...], tuple[int, ...]], Fraction] = {}
        for a in rows:
            for b in cols:
                if a in x or b in y:
                    s = base
                    for p, c in zip(self.max_side + self.min_side, a + b, strict=True):
                        s = apply(s, Play(p, c))
                    cell[a, b] = self._settle(base, s)
                    self.cells += 1
        for b in cols:
            got = sum((q * cell[a, b] for a, q in x.items()), Fraction(0))
            if got < v:
                raise CertificateError(
                    f"{where}: the max strategy guarantees only {got} < {v} against {list(b)}"
                )
        for a in rows:
            got = sum((q * cell[a, b] for b, q in y.items()), Fraction(0))
            if got > v:
                raise CertificateError(
                    f"{where}: the min strategy concedes {got} > {v} against {list(a)}"
                )
        self.checked[key] = v
        self._proved()
        return v

    def _settle(self, start: State, s: State) -> Fraction:
        if s.phase is Phase.ROW_CHOICE:
            assert s.pending is not None
            vals = [
                self._settle(start, apply(s, act))
                for act in legal_actions(s)
                if isinstance(act, ChooseRow)
            ]
            return max(vals) if s.pending.player in self.max_side else min(vals)
        gained = sum(w * (s.score(p) - start.score(p)) for p, w in enumerate(self.weights))
        return gained + self.node_value(s)


def check_certificate(
    cert: Mapping[str, Any] | str | bytes | Path,
    progress: Callable[[int, int], None] | None = None,
) -> CheckReport:
    """Check a certificate (a parsed dict, JSON text or UTF-8 bytes, or a file path); raise
    :class:`CertificateError` (one line) if it is malformed or does not prove its value.
    ``progress(proven, nodes)`` is called as each node of the file is proven (a check may
    need fewer than all of them)."""
    if isinstance(cert, Path) or (
        isinstance(cert, str) and not strip_bom(cert).lstrip().startswith("{")
    ):
        try:
            cert = Path(cert).read_bytes()
        except (OSError, ValueError) as exc:
            raise CertificateError(f"cannot read certificate {excerpt(str(cert))}: {exc}") from None
    if isinstance(cert, bytes):
        try:
            cert = decode(cert, "the certificate")
        except ValueError as exc:
            raise CertificateError(str(exc)) from None
    if isinstance(cert, str):
        try:
            data = json.loads(strip_bom(cert))
        except json.JSONDecodeError as exc:
            raise CertificateError(f"certificate is not valid JSON: {exc}") from None
        except RecursionError:
            raise CertificateError("certificate is not valid JSON: nested too deeply") from None
        except ValueError as exc:  # an integer longer than int() reads
            raise CertificateError(f"certificate is not valid JSON: {excerpt(str(exc))}") from None
        cert = data
    if not isinstance(cert, Mapping):
        raise CertificateError(f"a certificate must be a JSON object, got {excerpt(cert)}")
    return Checker(cert, progress).run()
