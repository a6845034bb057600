"""Writing certificates: the strategies of enough of the solved tree to re-prove the value.

The format and what it proves are documented in :mod:`solver.check` (the independent checker).
The writer walks the game from the root with the reference engine. At each position it records
the exact value and both sides' optimal strategies, then descends into every position the checker
will need: all children of the cells ``(a, b)`` with ``a`` in the max support or ``b`` in the min
support, under every row choice. Children outside both supports are never needed.
"""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import product
from pathlib import Path
from typing import Any

from solver.api import exact_entry, fraction_text
from solver.check import FORMAT, VERSION, state_key
from solver.search import SearchLike
from take6.notation import format_position
from take6.state import ChooseRow, Phase, Play, State, apply, from_position, legal_actions


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
        n = state.players
        base = replace(state, piles=((),) * n, totals=(0,) * n, round_scores=())
        for a in product(*(state.hands[p] for p in pr.max_side)):
            for b in product(*(state.hands[p] for p in pr.min_side)):
                if a not in xs and b not in ys:
                    continue
                s = base
                for p, c in zip(pr.max_side + pr.min_side, a + b, strict=True):
                    s = apply(s, Play(p, c))
                stack.extend(_turn_ends(s))
    root_entry = exact_entry(search, root)
    return {
        "format": FORMAT,
        "version": VERSION,
        "position": format_position(pr.position),
        "objective": pr.objective.value,
        "player": pr.player + 1,
        "value": fraction_text(root_entry.value),
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


def write_certificate(search: SearchLike, path: str | Path) -> int:
    """Write the certificate to ``path``; return the number of nodes in it."""
    cert = build_certificate(search)
    Path(path).write_text(json.dumps(cert, indent=None, separators=(",", ":")) + "\n")
    return len(cert["nodes"])
