"""Writing certificates: the strategies of enough of the solved tree to re-prove the value.

The formats and what they prove are documented in :mod:`solver.verify.check` (the independent
checker).

* **Version 3** (:func:`build_bound_certificate`, what ``take6 solve --certificate`` writes):
  version 2 without the nodes of the positions the checker values itself (one card a hand, or
  two with one player a side): about a tenth of version 2's nodes at k = 7.
* **Version 2, bounds** (``small=False``): a proof that the root's value is at least ``v`` (the
  max side's optimal strategy
  against every reply) and at most ``v`` (the min side's), where each reply's next positions need
  only a bound as tight as the proof needs there. The writer walks the game with the reference
  engine; at a node that must be shown ``>= target`` it takes the max side's optimal strategy
  ``x``, and for each min action ``b`` the exact cells ``c(a, b)`` of ``x``'s actions: their
  excess ``sum_a x(a) c(a, b) - target`` is slack, taken off every cell's requirement, so a
  reply that is a mistake needs a weaker bound below it, and none at all once the checker's
  static bound (the heads left in play) suffices. Mirror for ``<= target``.
* **Version 1, exact** (:func:`build_certificate`): every node reached carries its exact value
  and both optimal strategies, and the checker needs every cell with an action in either
  support: a closure that grows far faster (k = 6: 151,116 nodes, against a few thousand).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

from solver.api import exact_entry, exact_value, fraction_text
from solver.search import SearchLike, Solution, Strategy
from solver.verify.check import BOUNDS_VERSION, FORMAT, SMALL_VERSION, VERSION, node_key
from solver.walk import Node, option_values, outcomes, payoff, seat_cards, settle
from take6.io.record import rules_to_json
from take6.notation import format_position
from take6.rules import Rules
from take6.turn import resolve_turn


def build_certificate(search: SearchLike) -> dict[str, Any]:
    """The certificate of a completed search (its table is reused; missing entries are
    re-solved exactly)."""
    pr = search.problem
    nodes: dict[str, Any] = {}
    root = Node.of(pr.position)
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if node.done:
            continue
        key = node_key(node.rows, node.hands)
        if key in nodes:
            continue
        entry = exact_entry(search, node)
        nodes[key] = {
            "value": fraction_text(entry.value),
            "max": [[list(a), fraction_text(q)] for a, q in entry.x],
            "min": [[list(b), fraction_text(q)] for b, q in entry.y],
        }
        xs = {a for a, _ in entry.x}
        ys = {b for b, _ in entry.y}
        for a in product(*(node.hands[p] for p in pr.max_side)):
            for b in product(*(node.hands[p] for p in pr.min_side)):
                if a not in xs and b not in ys:
                    continue
                cards = seat_cards(pr, a, b)
                stack.extend(node.after(t, cards) for t in outcomes(pr, node, cards))
    return _document(search, VERSION, Fraction(exact_entry(search, root).value), nodes)


def _document(
    search: SearchLike, version: int, value: Fraction, nodes: dict[str, Any]
) -> dict[str, Any]:
    """The certificate around its nodes: format, version, the problem and the root value."""
    pr = search.problem
    return {
        "format": FORMAT,
        "version": version,
        "position": format_position(pr.position),
        # The settings the compact notation does not carry (it names the variant's preset):
        # the checker plays the position under these.
        "rules": _rules_object(pr.rules),
        "objective": pr.objective.value,
        "seat": pr.player,
        "value": fraction_text(value),
        "nodes": nodes,
    }


def _rules_object(rules: Rules) -> dict[str, Any]:
    """The certificate's ``rules``: the three settings the notation leaves out, or, for a rule
    set the notation cannot name at all (a rules file's own deck, heads or rows), every setting
    in the records' form (:func:`take6.io.record.rules_to_json`), which the checker reads
    before the position."""
    preset = Rules.for_variant(rules.variant, players=rules.players)
    if rules.standard_cards and rules.rows == preset.rows:
        return {
            "row_capacity": rules.row_capacity,
            "profi_left": rules.profi_left,
            "profi_tie": rules.profi_tie.value,
        }
    return rules_to_json(rules)


class _BoundWriter:
    """Builds a version-2 or -3 certificate from a solved search (see the module docstring).
    ``small_hand``: positions of at most this many cards a hand get no node (version 3: the
    checker values them exactly, and an exact value meets every true bound)."""

    def __init__(
        self,
        search: SearchLike,
        small_hand: int = 0,
        tick: Callable[[int], None] | None = None,
    ) -> None:
        self.search = search
        self.small_hand = small_hand
        self.tick = tick
        self.calls = 0
        pr = search.problem
        self.root = Node.of(pr.position)
        self.weights = pr.weights
        self.max_side = pr.max_side
        self.min_side = pr.min_side
        self.wlo = min(0, *pr.weights)
        self.whi = max(0, *pr.weights)
        self.claims: tuple[dict[str, tuple[Fraction, Strategy]], ...] = ({}, {})
        self.solutions: dict[str, Solution] = {}
        self.value = exact_value(search)

    def solution(self, node: Node) -> Solution:
        key = node_key(node.rows, node.hands)
        sol = self.solutions.get(key)
        if sol is None:
            sol = self.solutions[key] = exact_entry(self.search, node)
        return sol

    def static(self, node: Node, lower: bool) -> Fraction:
        table = self.search.problem.rules.heads
        total = sum(table[c] for row in node.rows for c in row)
        total += sum(table[c] for hand in node.hands for c in hand)
        return Fraction((self.wlo if lower else self.whi) * total)

    def need(self, node: Node, target: Fraction, lower: bool) -> None:
        """Make the certificate prove ``value >= target`` (``lower``) or ``<= target``."""
        if node.done or (len(node.hands[0]) <= self.small_hand and node != self.root):
            return  # (the root keeps its node, strategies and all, however small)
        self.calls += 1
        if self.tick is not None and self.calls & 1023 == 0:
            self.tick(len(self.claims[0]) + len(self.claims[1]))
        static = self.static(node, lower)
        if (target <= static) if lower else (target >= static):
            return  # the checker's own static bound proves it
        key = node_key(node.rows, node.hands)
        claims = self.claims[0 if lower else 1]
        have = claims.get(key)
        if have is not None and ((have[0] >= target) if lower else (have[0] <= target)):
            return
        sol = self.solution(node)
        strat = sol.x if lower else sol.y
        claims[key] = (target, strat)
        pr = self.search.problem
        theirs = self.min_side if lower else self.max_side
        for b in product(*(node.hands[p] for p in theirs)):
            cells: list[tuple[tuple[int, ...], Fraction]] = []
            total = Fraction(0)
            for a, q in strat:
                cards = seat_cards(pr, a, b) if lower else seat_cards(pr, b, a)
                v = Fraction(settle(pr, node, cards, self.value)[0])
                cells.append((cards, v))
                total += q * v
            slack = total - target if lower else target - total
            if slack < 0:  # pragma: no cover - would be a solver bug
                raise AssertionError(f"strategy at {key} does not meet {target}")
            for cards, v in cells:
                self.require(node, cards, (), v - slack if lower else v + slack, lower)

    def require(
        self,
        node: Node,
        cards: tuple[int, ...],
        choices: tuple[int, ...],
        req: Fraction,
        lower: bool,
    ) -> None:
        """Make the checker's settled bound of a cell (row choices by their owners, after
        ``choices``) meet ``req``."""
        pr = self.search.problem
        turn = resolve_turn(node.rows, cards, pr.rules, choices)
        if turn.pending is not None:
            owner_max = turn.pending.player in self.max_side
            if owner_max == lower:
                # The owner's best option alone carries the bound (max of lower bounds, or min
                # of upper bounds): the optimal one.
                options = option_values(pr, node, cards, self.value, choices)
                pick = max if owner_max else min
                best = pick(options, key=lambda rv: rv[1])[0]
                self.require(node, cards, (*choices, best), req, lower)
            else:
                for m in turn.pending.placement.options:
                    self.require(node, cards, (*choices, m.row), req, lower)
            return
        self.need(node.after(turn, cards), req - payoff(pr, turn), lower)


def build_bound_certificate(
    search: SearchLike, *, small: bool = True, tick: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """The bounds certificate of a completed search: version 3 (the smallest positions left to
    the checker), or with ``small=False`` version 2 (every claimed node written). ``tick(n)``
    is called now and then with the number of claims made so far (it may raise to stop: a
    progress line, a time limit)."""
    pr = search.problem
    root = Node.of(pr.position)
    small_hand = (2 if len(pr.max_side) == len(pr.min_side) == 1 else 1) if small else 0
    w = _BoundWriter(search, small_hand, tick)
    value = Fraction(w.solution(root).value)
    w.need(root, value, True)
    w.need(root, value, False)
    nodes: dict[str, dict[str, Any]] = {}
    for lower, claims in zip((True, False), w.claims, strict=True):
        for key, (target, strat) in claims.items():
            node = nodes.setdefault(key, {})
            node["lower" if lower else "upper"] = fraction_text(target)
            node["max" if lower else "min"] = [[list(a), fraction_text(q)] for a, q in strat]
    return _document(search, SMALL_VERSION if small else BOUNDS_VERSION, value, nodes)


def write_certificate(
    search: SearchLike,
    path: str | Path,
    *,
    bounds: bool = True,
    tick: Callable[[int], None] | None = None,
) -> int:
    """Write the certificate (version 3, bounds; ``bounds=False``: version 1) to ``path``;
    return the number of nodes in it. ``tick``: as for :func:`build_bound_certificate`
    (version 3 only); nothing is written if it raises."""
    cert = build_bound_certificate(search, tick=tick) if bounds else build_certificate(search)
    Path(path).write_text(json.dumps(cert, indent=None, separators=(",", ":")) + "\n")
    return len(cert["nodes"])
