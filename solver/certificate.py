"""Writing certificates: the strategies of enough of the solved tree to re-prove the value.

The formats and what they prove are documented in :mod:`solver.check` (the independent checker).

* **Version 2, bounds** (:func:`build_bound_certificate`, what ``take6 solve --certificate``
  writes): a proof that the root's value is at least ``v`` (the max side's optimal strategy
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
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

from solver.api import exact_entry, fraction_text, settle_value
from solver.check import BOUNDS_VERSION, FORMAT, VERSION, state_key
from solver.search import SearchLike, Solution, Strategy
from take6.cards import heads
from take6.notation import format_position
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


def build_certificate(search: SearchLike) -> dict[str, Any]:
    """The certificate of a completed search (its table is reused; missing entries are
    re-solved exactly)."""
    pr = search.problem
    nodes: dict[str, Any] = {}
    root = from_position(pr.position)
    stack: list[State] = [root]
    while stack:
        state = stack.pop()
        if state.phase is not Phase.CHOOSE or not state.hands[0]:
            continue
        key = state_key(state)
        if key in nodes:
            continue
        entry = exact_entry(search, state)
        nodes[key] = {
            "value": fraction_text(entry.value),
            "max": [[list(a), fraction_text(q)] for a, q in entry.x],
            "min": [[list(b), fraction_text(q)] for b, q in entry.y],
        }
        xs = {a for a, _ in entry.x}
        ys = {b for b, _ in entry.y}
        base = without_scores(state)
        for a in product(*(state.hands[p] for p in pr.max_side)):
            for b in product(*(state.hands[p] for p in pr.min_side)):
                if a not in xs and b not in ys:
                    continue
                s = base
                for p, c in zip(pr.max_side + pr.min_side, a + b, strict=True):
                    s = apply(s, Play(p, c))
                stack.extend(_turn_ends(s))
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
        "objective": pr.objective.value,
        "seat": pr.player,
        "value": fraction_text(value),
        "nodes": nodes,
    }


def _turn_ends(s: State) -> list[State]:
    """Every state at the end of the turn, over all row choices."""
    if s.phase is not Phase.ROW_CHOICE:
        return [s]
    out: list[State] = []
    for act in legal_actions(s):
        if isinstance(act, ChooseRow):
            out.extend(_turn_ends(apply(s, act)))
    return out


class _BoundWriter:
    """Builds a version-2 certificate from a solved search (see the module docstring)."""

    def __init__(self, search: SearchLike) -> None:
        self.search = search
        pr = search.problem
        self.weights = pr.weights
        self.max_side = pr.max_side
        self.min_side = pr.min_side
        self.wlo = min(0, *pr.weights)
        self.whi = max(0, *pr.weights)
        self.claims: tuple[dict[str, tuple[Fraction, Strategy]], ...] = ({}, {})
        self.solutions: dict[str, Solution] = {}

    def solution(self, state: State) -> Solution:
        key = state_key(state)
        sol = self.solutions.get(key)
        if sol is None:
            sol = self.solutions[key] = exact_entry(self.search, state)
        return sol

    def static(self, state: State, lower: bool) -> Fraction:
        total = sum(heads(c) for row in state.rows for c in row)
        total += sum(heads(c) for hand in state.hands for c in hand)
        return Fraction((self.wlo if lower else self.whi) * total)

    def need(self, state: State, target: Fraction, lower: bool) -> None:
        """Make the certificate prove ``value >= target`` (``lower``) or ``<= target``."""
        if state.phase is not Phase.CHOOSE or not state.hands[0]:
            return
        static = self.static(state, lower)
        if (target <= static) if lower else (target >= static):
            return  # the checker's own static bound proves it
        key = state_key(state)
        claims = self.claims[0 if lower else 1]
        have = claims.get(key)
        if have is not None and ((have[0] >= target) if lower else (have[0] <= target)):
            return
        sol = self.solution(state)
        strat = sol.x if lower else sol.y
        claims[key] = (target, strat)
        mine, theirs = (self.max_side, self.min_side) if lower else (self.min_side, self.max_side)
        base = without_scores(state)
        for b in product(*(state.hands[p] for p in theirs)):
            cells: list[tuple[State, Fraction]] = []
            total = Fraction(0)
            for a, q in strat:
                s = base
                for p, c in zip(mine + theirs, a + b, strict=True):
                    s = apply(s, Play(p, c))
                v = Fraction(settle_value(self.search, base, s))
                cells.append((s, v))
                total += q * v
            slack = total - target if lower else target - total
            if slack < 0:  # pragma: no cover - would be a solver bug
                raise AssertionError(f"strategy at {key} does not meet {target}")
            for s, v in cells:
                self.require(base, s, v - slack if lower else v + slack, lower)

    def require(self, start: State, s: State, req: Fraction, lower: bool) -> None:
        """Make the checker's settled bound of a cell (row choices by their owners) meet
        ``req``."""
        if s.phase is Phase.ROW_CHOICE:
            assert s.pending is not None
            opts = [apply(s, a) for a in legal_actions(s) if isinstance(a, ChooseRow)]
            owner_max = s.pending.player in self.max_side
            if owner_max == lower:
                # The owner's best option alone carries the bound (max of lower bounds, or min
                # of upper bounds): the optimal one.
                pick = max if owner_max else min
                best = pick(opts, key=lambda o: settle_value(self.search, start, o))
                self.require(start, best, req, lower)
            else:
                for o in opts:
                    self.require(start, o, req, lower)
            return
        gained = sum(w * (s.score(p) - start.score(p)) for p, w in enumerate(self.weights))
        self.need(s, req - gained, lower)


def build_bound_certificate(search: SearchLike) -> dict[str, Any]:
    """The version-2 (bounds) certificate of a completed search."""
    pr = search.problem
    root = from_position(pr.position)
    w = _BoundWriter(search)
    value = Fraction(w.solution(root).value)
    w.need(root, value, True)
    w.need(root, value, False)
    nodes: dict[str, dict[str, Any]] = {}
    for lower, claims in zip((True, False), w.claims, strict=True):
        for key, (target, strat) in claims.items():
            node = nodes.setdefault(key, {})
            node["lower" if lower else "upper"] = fraction_text(target)
            node["max" if lower else "min"] = [[list(a), fraction_text(q)] for a, q in strat]
    return _document(search, BOUNDS_VERSION, value, nodes)


def write_certificate(search: SearchLike, path: str | Path, *, bounds: bool = True) -> int:
    """Write the certificate (version 2, bounds; ``bounds=False``: version 1) to ``path``;
    return the number of nodes in it."""
    cert = build_bound_certificate(search) if bounds else build_certificate(search)
    Path(path).write_text(json.dumps(cert, indent=None, separators=(",", ":")) + "\n")
    return len(cert["nodes"])
