"""How far the bots are from optimal, on the benchmark's deals (not a test).

For each hand size k, deal seed and bot: the game value of the 2-player Logik deal (``diff`` for
player 1, :func:`solver.api.solve`), the exact value of player 1's best reply to the bot in
seat 2 (:func:`solver.botgap.against_bot`) and the gap between them (heads per round the bot
gives up against a perfect opponent), with the CPU seconds of the reply's search. The deals are
``python bench/solve.py --deal K SEED``; each line is reproducible with
``take6 solve "$(python bench/solve.py --deal K SEED)" --against BOT``.

    python bench/botgap.py                          # k = 4..6, seeds 0-2, every bot
    python bench/botgap.py --k 7 --bots safe --seeds 0 1 2 3 4
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from solve import deal

from solver.api import fraction_text
from solver.botgap import bot_gap
from take6.play.bots import BOTS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, nargs="*", default=[4, 5, 6], help="hand sizes")
    ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2], help="deal seeds")
    ap.add_argument("--bots", nargs="*", default=list(BOTS), choices=list(BOTS))
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per search")
    args = ap.parse_args()
    print(f"{'k':>2} {'seed':>4} {'bot':>8} {'value':>9} {'vs bot':>9} {'gap':>9} {'cpu s':>8}")
    for k in args.k:
        for seed in args.seeds:
            for name in args.bots:
                g = bot_gap(deal(k, seed), name, 0, time_limit=args.time_limit)
                r = g.reply

                def show(v: object) -> str:
                    return "-" if v is None else f"{float(v):+.4f}"  # type: ignore[arg-type]

                print(
                    f"{k:>2} {seed:>4} {name:>8} {show(g.value):>9} {show(r.value):>9} "
                    f"{show(g.gap):>9} {r.cpu_seconds:>8.2f}"
                    + ("" if r.value is None else f"  exact vs bot {fraction_text(r.value)}"),
                    flush=True,
                )


if __name__ == "__main__":
    main()
