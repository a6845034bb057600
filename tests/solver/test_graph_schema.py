"""docs/graph.md documents the GraphML schema of the solved graph exactly: the keys a written
file declares (for, name, type) are the rows of its schema table, for 2 and 3 players, with
and without --graph-all; every node and edge carries every attribute of its kind."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from solver.graph import solved_graph, write_graphml
from take6.notation import parse_position

DOC = Path(__file__).resolve().parents[2] / "docs" / "graph.md"
NS = "{http://graphml.graphdrawing.org/xmlns}"
CASES = {
    "2 players": ("logik 23,30,34,38/2,9,10,27,33/15,28/25 6,20|1,29", "diff"),
    "3 players": ("logik 21,31/8,17,24,25/11,29,46,48,50/16 1,10|13,30|3,41", "paranoid"),
}


def documented(players: int) -> set[tuple[str, str, str]]:
    """(for, attribute, type) of every row of the schema table, ``{p}`` expanded."""
    rows = re.findall(
        r"^\| (graph|node|edge) \| `([a-z_{}0-9]+)` \| (\w+) \|", DOC.read_text(), re.MULTILINE
    )
    assert len(rows) >= 18
    out = set()
    for kind, name, typ in rows:
        names = [name.replace("{p}", str(p)) for p in range(players)] if "{p}" in name else [name]
        out |= {(kind, n, typ) for n in names}
    return out


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("support_only", [True, False], ids=["support", "all"])
def test_the_documented_schema_is_the_written_one(
    case: str, support_only: bool, tmp_path: Path
) -> None:
    text, objective = CASES[case]
    pos = parse_position(text)
    graph = solved_graph(pos, objective, 0, support_only=support_only)
    out = tmp_path / "g.graphml"
    write_graphml(graph, out)
    keys = {
        (k.get("for"), k.get("attr.name"), k.get("attr.type"))
        for k in ET.parse(out).getroot().iter(f"{NS}key")
    }
    assert keys == documented(pos.players)
    node_keys = {n for kind, n, _ in keys if kind == "node"}
    edge_keys = {n for kind, n, _ in keys if kind == "edge"}
    assert all(set(attrs) == node_keys for _, attrs in graph.nodes(data=True))
    assert all(set(attrs) == edge_keys for _, _, attrs in graph.edges(data=True))
    assert set(graph.graph) == {n for kind, n, _ in keys if kind == "graph"}
