"""How long ``take6 verify --rules`` takes for 200-card rule sets, by rows × row capacity.

    python bench/rulesfile_verify.py

For each table shape it writes a rules file (ten players, the deck 1..200 with the printed
heads' pattern carried on to 200, a game to 100), runs every obligation of
:func:`proofs.ruleset.obligations` and prints the total and the slowest obligation. (The figures
are in docs/rules-file.md.)
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from proofs.core import run
from proofs.ruleset import obligations
from take6.io.rulesfile import load_rules

TEMPLATE = """
players = {players}
hand_size = {hand}
rows = {rows}
row_capacity = {capacity}
deck = "1..200"
[heads]
cards = {{ 55 = 7, 155 = 7 }}
multiples = [{{ of = 11, heads = 5 }}, {{ of = 10, heads = 3 }}, {{ of = 5, heads = 2 }}]
default = 1
[end]
target = 100
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="4x5,5x5,6x6", help="ROWSxCAPACITY, by ','")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for shape in args.shapes.split(","):
            rows, capacity = (int(x) for x in shape.split("x"))
            path = Path(tmp) / f"{shape}.toml"
            path.write_text(TEMPLATE.format(players=10, hand=15, rows=rows, capacity=capacity))
            start = time.perf_counter()
            outcomes = [run(ob) for ob in obligations(load_rules(str(path)))]
            total = time.perf_counter() - start
            slow = max(outcomes, key=lambda o: o.seconds)
            bad = [o.obligation.name for o in outcomes if not o.ok]
            print(
                f"{rows} rows × {capacity}: {total:.1f} s for {len(outcomes)} obligations "
                f"(slowest {slow.obligation.name} {slow.seconds:.1f} s)"
                + (f"; NOT OK: {', '.join(bad)}" if bad else "")
            )


if __name__ == "__main__":
    main()
