"""The solved position graph (:mod:`solver.graph`): its values are the solver's, its edges carry
the optimal strategies, and it survives GraphML."""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction
from math import prod
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from solver.api import solve
from solver.errors import SolverError
from solver.graph import solved_graph, strategy_text, write_graphml
from take6.cards import HEADS
from take6.cli.main import main
from take6.notation import parse_position

# (position, objective, player 0-based, value); all have mixed optimal strategies at the root.
CASES = [
    ("logik 23,30,34,38/2,9,10,27,33/15,28/25 6,20|1,29", "diff", 0, Fraction(1, 5)),
    ("logik 8,21,22,25/1,39/26,30,31,37,38/7,23,24,36 9,10|3,12", "diff", 1, Fraction(-2, 3)),
    ("logik 16,24/2,13,17,37/27/25,34,38,39 7,9,36|11,33,35", "diff", 0, Fraction(-8, 3)),
    ("profi 14,26/6,11,13,20,35/3,17,32,40/24,27 4,15,22|9,18,25", "diff", 0, Fraction(-72, 7)),
    ("logik 21,31/8,17,24,25/11,29,46,48,50/16 1,10|13,30|3,41", "paranoid", 0, Fraction(7, 3)),
]
IDS = ["logik-2", "logik-2-p2", "logik-3", "profi-3", "paranoid-3p"]


def _graph(case: tuple[str, str, int, Fraction], support_only: bool = True) -> Any:
    text, objective, player, _ = case
    return solved_graph(parse_position(text), objective, player, support_only=support_only)


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("support_only", [True, False], ids=["support", "all"])
def test_node_values_are_the_solvers(
    case: tuple[str, str, int, Fraction], support_only: bool
) -> None:
    text, objective, player, value = case
    root = parse_position(text)
    result, _ = solve(root, objective, player)
    assert result.value == value
    g = _graph(case, support_only)
    assert g.graph["position"] == text and g.graph["value"] == str(value)
    assert g.nodes[text]["value"] == str(value) == g.graph["value"]
    assert g.nodes[text]["turn"] == 0 and g.in_degree(text) == 0
    for p, dist in result.strategies.items():
        assert g.nodes[text][f"strategy_p{p}"] == strategy_text(dist)
    assert nx.is_directed_acyclic_graph(g)
    for node, data in g.nodes(data=True):
        pos = parse_position(node)  # a node id is the position itself
        assert data["hand_size"] == len(pos.hands[0])
        assert data["turn"] == len(root.hands[0]) - len(pos.hands[0])
        assert abs(data["value_float"] - float(Fraction(data["value"]))) < 1e-12
        if data["terminal"]:
            assert data["value"] == "0" and g.out_degree(node) == 0 and not pos.hands[0]
            continue
        assert g.out_degree(node) > 0
        assert Fraction(data["value"]) == solve(pos, objective, player)[0].value, node


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_edges_carry_the_optimal_strategies(case: tuple[str, str, int, Fraction]) -> None:
    g = _graph(case)
    players = parse_position(case[0]).players
    for node, data in g.nodes(data=True):
        if data["terminal"]:
            continue
        edges = list(g.out_edges(node, data=True))
        assert sum(Fraction(d["probability"]) for _, _, d in edges) == 1
        assert all(Fraction(d["probability"]) > 0 for _, _, d in edges)  # the supports only
        strategies = json.loads(data["strategies"])["players"]
        for p in range(players):
            marginal: dict[str, Fraction] = defaultdict(Fraction)
            for _, _, d in edges:
                marginal[d["cards"].split()[p]] += Fraction(d["probability"])
            assert marginal == {c: Fraction(q) for c, q in strategies[str(p)].items()}
        # The value is the expected payoff of the turn plus the value after it.
        expected = sum(
            Fraction(d["probability"]) * (Fraction(d["payoff"]) + Fraction(g.nodes[v]["value"]))
            for _, v, d in edges
        )
        assert expected == Fraction(data["value"]), node


@pytest.mark.parametrize("case", CASES[:4], ids=IDS[:4])
def test_all_joint_choices(case: tuple[str, str, int, Fraction]) -> None:
    g = _graph(case, support_only=False)
    for node, data in g.nodes(data=True):
        if data["terminal"]:
            continue
        hands = parse_position(node).hands
        edges = list(g.out_edges(node, data=True))
        assert len(edges) == prod(len(h) for h in hands)
        assert sum(Fraction(d["probability"]) for _, _, d in edges) == 1
        for _, v, d in edges:
            heads = [int(h) for h in d["heads"].split()]
            before, after = parse_position(node), parse_position(v)
            taken = [
                sum(HEADS[c] for c in a) - sum(HEADS[c] for c in b)
                for a, b in zip(after.piles, before.piles, strict=True)
            ]
            assert heads == taken


def test_graphml_round_trip(tmp_path: Path) -> None:
    for case in CASES:
        g = _graph(case)
        path = tmp_path / "g.graphml"
        write_graphml(g, path)
        h = nx.read_graphml(path)
        assert isinstance(h, nx.DiGraph)
        assert set(h.nodes) == set(g.nodes) and set(h.edges) == set(g.edges)
        for node, data in g.nodes(data=True):
            assert h.nodes[node] == data
        for u, v, data in g.edges(data=True):
            assert h.edges[u, v] == data
        assert h.graph["value"] == g.graph["value"] and h.graph["objective"] == case[1]


def test_max_nodes() -> None:
    with pytest.raises(SolverError, match="more than 5 nodes"):
        _graph_max(CASES[2], 5)


def _graph_max(case: tuple[str, str, int, Fraction], max_nodes: int) -> Any:
    text, objective, player, _ = case
    return solved_graph(parse_position(text), objective, player, max_nodes=max_nodes)


def test_cli_graphml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, _, _, value = CASES[2]
    path = tmp_path / "solve.graphml"
    assert main(["solve", text, "--graphml", str(path)]) == 0
    assert f"graph written to {path}" in capsys.readouterr().out
    h = nx.read_graphml(path)
    assert h.nodes[text]["value"] == str(value)
    assert set(h.nodes) == set(_graph(CASES[2]).nodes)
    path.unlink()
    assert main(["solve", text, "--graphml", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["graphml"] == {
        "file": str(path),
        "nodes": h.number_of_nodes(),
        "edges": h.number_of_edges(),
    }
    assert nx.read_graphml(path).graph["value"] == str(value)


def test_cli_graphml_unsolved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = CASES[3][0]
    path = tmp_path / "x.graphml"
    assert main(["solve", text, "--graphml", str(path), "--node-limit", "1"]) == 2
    assert "no graph" in capsys.readouterr().err
    assert not path.exists()
