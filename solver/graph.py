"""The solved position graph of a position as a :mod:`networkx` directed graph, and GraphML.

Nodes are the positions between turns reached from the root; edges are the turns: one edge per
joint card choice (all players' cards of the turn). By default only the joint choices that have
positive probability under the optimal strategies are followed (``support_only=True``); with
``support_only=False`` every joint choice is. Row choices inside a turn are made by their owners
optimally (the max side maximises, the min side minimises, ties to the lowest row), as in the
principal line of :func:`solver.api.solve`. Values and strategies come from the solver's own
table, walked with the reference rules by the one walker :mod:`solver.walk`, as the certificate
writer does (:mod:`solver.verify.certificate`); positions missing from the table are re-solved
exactly.

The node and edge attributes (the GraphML schema) are documented in ``docs/graph.md``.
"""

from __future__ import annotations

import json
from collections import deque
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import networkx as nx

from solver.api import exact_entry, fraction_text, play_turn, solve, strategy_marginals
from solver.errors import SolverError
from solver.problem import Objective
from solver.search import SearchLike, Strategy
from solver.walk import Node, payoff, seat_cards
from take6.notation import format_position
from take6.position import Position

Piles = tuple[tuple[int, ...], ...]

DEFAULT_MAX_NODES = 20_000
"""The default cap on the number of nodes (a larger graph raises :class:`SolverError`)."""


def solved_graph(
    position: Position,
    objective: Objective | str = Objective.DIFF,
    player: int = 0,
    *,
    support_only: bool = True,
    max_nodes: int = DEFAULT_MAX_NODES,
    table_cap: int = 2_000_000,
) -> Any:
    """Solve ``position`` (``player`` 0-based) and return its solved position graph, a
    ``networkx.DiGraph`` (see the module docstring). Raises :class:`SolverError` for positions
    the solver does not support or when the graph would have more than ``max_nodes`` nodes."""
    result, search = solve(position, objective, player, table_cap=table_cap, line=False)
    if not result.solved:  # pragma: no cover - no limits were given
        raise SolverError(f"the position was not solved: {position}")
    return graph_from_search(search, support_only=support_only, max_nodes=max_nodes)


def graph_from_search(
    search: SearchLike, *, support_only: bool = True, max_nodes: int = DEFAULT_MAX_NODES
) -> Any:
    """The solved position graph of a completed search (its table is reused)."""
    pr = search.problem
    root_pos = pr.position
    root = Node.of(root_pos)
    graph = nx.DiGraph()
    root_id = format_position(root_pos)
    seen: set[str] = {root_id}
    # (id, node, bull piles since the root, turn)
    queue: deque[tuple[str, Node, Piles, int]] = deque([(root_id, root, root_pos.piles, 0)])
    while queue:
        node_id, node, piles, turn = queue.popleft()
        if node.done:
            graph.add_node(node_id, **_terminal_attrs(pr.players, turn))
            continue
        entry = exact_entry(search, node)
        graph.add_node(node_id, **_node_attrs(search, entry.value, entry.x, entry.y, node, turn))
        xs = dict(entry.x)
        ys = dict(entry.y)
        rows = product(*(node.hands[p] for p in pr.max_side))
        cols = list(product(*(node.hands[p] for p in pr.min_side)))
        for a in rows:
            qa = xs.get(a, Fraction(0))
            if support_only and not qa:
                continue
            for b in cols:
                q = qa * ys.get(b, Fraction(0))
                if support_only and not q:
                    continue
                cards = seat_cards(pr, a, b)
                child, played = play_turn(search, node, cards)
                taken = played.taken(pr.players)
                child_piles = tuple(pile + t for pile, t in zip(piles, taken, strict=True))
                pos = Position(
                    root_pos.rules, child.rows, child.hands, child_piles, root_pos.totals
                )
                child_id = format_position(pos)
                if child_id not in seen:
                    if len(seen) >= max_nodes:
                        raise SolverError(
                            f"the solved graph of {root_id!r} has more than {max_nodes} nodes "
                            "(raise max_nodes, or follow the optimal supports only)"
                        )
                    seen.add(child_id)
                    queue.append((child_id, child, child_piles, turn + 1))
                heads = played.heads(pr.players)
                graph.add_edge(
                    node_id,
                    child_id,
                    cards=" ".join(str(c) for c in cards),
                    probability=fraction_text(q),
                    probability_float=float(q),
                    heads=" ".join(str(h) for h in heads),
                    choices=" ".join(f"{p}:{r}" for p, r in played.choices),
                    payoff=fraction_text(payoff(pr, played)),
                )
    graph.graph.update(
        position=root_id,
        objective=pr.objective.value,
        player=pr.player,
        value=graph.nodes[root_id]["value"],
        support_only=support_only,
    )
    return graph


def write_graphml(graph: Any, path: str | Path) -> None:
    """Write ``graph`` (from :func:`solved_graph`) as GraphML; read it back with
    ``networkx.read_graphml``."""
    nx.write_graphml(graph, str(path))


def strategy_text(dist: dict[int, Fraction]) -> str:
    """A mixed strategy over cards, compactly: ``"4:2/3 90:1/3"`` (support only)."""
    return " ".join(f"{c}:{fraction_text(q)}" for c, q in sorted(dist.items()) if q)


def _node_attrs(
    search: SearchLike, value: Any, x: Strategy, y: Strategy, node: Node, turn: int
) -> dict[str, Any]:
    v = Fraction(value)
    marg = strategy_marginals(search.problem, x, y)
    attrs: dict[str, Any] = {
        "value": fraction_text(v),
        "value_float": float(v),
        "turn": turn,
        "hand_size": len(node.hands[0]),
        "terminal": False,
    }
    for p in range(search.problem.players):
        attrs[f"strategy_p{p}"] = strategy_text(marg[p])
    attrs["strategies"] = json.dumps(
        {
            "players": {
                str(p): {str(c): fraction_text(q) for c, q in sorted(d.items()) if q}
                for p, d in sorted(marg.items())
            },
            "max": [[list(a), fraction_text(q)] for a, q in x],
            "min": [[list(b), fraction_text(q)] for b, q in y],
        },
        separators=(",", ":"),
    )
    return attrs


def _terminal_attrs(players: int, turn: int) -> dict[str, Any]:
    attrs: dict[str, Any] = {
        "value": "0",
        "value_float": 0.0,
        "turn": turn,
        "hand_size": 0,
        "terminal": True,
    }
    for p in range(players):
        attrs[f"strategy_p{p}"] = ""
    attrs["strategies"] = json.dumps({"players": {}, "max": [], "min": []}, separators=(",", ":"))
    return attrs


__all__ = [
    "DEFAULT_MAX_NODES",
    "graph_from_search",
    "play_turn",
    "solved_graph",
    "strategy_text",
    "write_graphml",
]
