"""How far the bots are from optimal, on the benchmark's deals (not a test).

For each hand size k, deal seed and bot: the game value of the 2-player Logik deal (``diff`` for
player 1, :func:`solver.api.solve`), the exact value of player 1's best reply to the bot in
seat 2 (:func:`solver.botgap.against_bot`) and the gap between them (heads per round the bot
gives up against a perfect opponent), with the CPU seconds of the reply's search. The deals are
``python bench/solve.py --deal K SEED``; each line is reproducible with
``take6 solve "$(python bench/solve.py --deal K SEED)" --against BOT``.

    python bench/botgap.py                          # k = 4..6, seeds 0-2, every bot
    python bench/botgap.py --k 7 --bots safe --seeds 0 1 2 3 4
    python bench/botgap.py --jsonl gaps.jsonl       # also one JSON line per item (resumes)
    python bench/botgap.py --compare --k 5 6 --bots random cheapest   # compiled vs Python

The best reply runs on the compiled core where it was built (``--core`` chooses;
``solver.native.NativeReply``, the restatement of ``solver/botgap.py``'s expectimax). With
``--compare`` each item's reply runs on both cores one after the other (the Python one up to
``--python-max``), the values are asserted equal card by card, and the script prints the CPU
seconds of each and, per k and bot, their medians and the speed-up.

``--jsonl FILE`` appends each item's figures (exact values as text, ``take6 solve --against
--json``'s fields plus ``k`` and ``seed``) and skips the items already in it, so a run that was
stopped continues; ``notebooks/logik_draft.ipynb`` reads the same file.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.api import fraction_text
from solver.botgap import BotGap, BotProgress, Reply, against_bot, bot_gap
from solver.native import parse_memory
from solver.study.export import fraction
from solver.study.run import benchmark_deal as deal
from take6.play.bots import BOTS


def reply_json(r: Reply) -> dict[str, object]:
    """A reply alone (no game value) in the same JSON form."""
    return BotGap(r, None, Fraction(0), Fraction(0), 0.0).to_json() | {
        "value_lower": None,
        "value_upper": None,
    }


def short(text: str) -> str:
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, nargs="*", default=[4, 5, 6], help="hand sizes")
    ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2], help="deal seeds")
    ap.add_argument("--bots", nargs="*", default=list(BOTS), choices=list(BOTS))
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per search")
    ap.add_argument(
        "--reply-only",
        action="store_true",
        help="only the best reply to the bot, not the game value (k = 9, 10: the game search "
        "takes minutes to hours); a game value the --jsonl file already holds for the deal "
        "(from another bot's line) is reused, with the gap",
    )
    ap.add_argument("--jsonl", metavar="FILE", help="append each item as a JSON line (resumes)")
    ap.add_argument("--core", choices=["auto", "native", "python"], default="auto")
    ap.add_argument("--memory", metavar="SIZE", help="the compiled reply's table budget (8G)")
    ap.add_argument(
        "--threads",
        type=int,
        default=1,
        help="threads of the compiled reply, sharing its table (default 1)",
    )
    ap.add_argument("--compare", action="store_true", help="the reply on both cores, side by side")
    ap.add_argument(
        "--progress",
        type=float,
        metavar="S",
        help="every S seconds, a line on stderr: first cards valued, positions, elapsed",
    )
    ap.add_argument(
        "--python-max", type=int, default=6, help="largest k the Python reply runs (--compare)"
    )
    args = ap.parse_args()
    memory = None if args.memory is None else parse_memory(args.memory)
    if args.compare:
        compare(args)
        return
    done: set[tuple[int, int, str]] = set()
    values: dict[tuple[int, int], tuple[Fraction, float]] = {}  # a deal's game value, its s
    if args.jsonl and Path(args.jsonl).is_file():
        for text in Path(args.jsonl).read_text(encoding="utf-8").splitlines():
            d = json.loads(text)
            done.add((d["k"], d["seed"], d["bot"]))
            if d.get("value") is not None:
                values[(d["k"], d["seed"])] = (fraction(d["value"]), d["value_seconds"])
    print(
        f"{'k':>2} {'seed':>4} {'bot':>8} {'value':>9} {'vs bot':>9} {'gap':>9} {'cpu s':>8} "
        f"{'positions':>9}"
    )
    for k in args.k:
        for seed in args.seeds:
            for name in args.bots:
                if (k, seed, name) in done:
                    continue
                tick = ticker(f"k={k} seed={seed} {name}", args.progress)
                if args.reply_only:
                    r = against_bot(
                        deal(k, seed),
                        name,
                        0,
                        time_limit=args.time_limit,
                        progress=tick,
                        core=args.core,
                        memory=memory,
                        threads=args.threads,
                    )
                    g = None
                    if (k, seed) in values:  # the deal's game value, found before
                        v, secs = values[(k, seed)]
                        g = BotGap(r, v, v, v, secs)
                else:
                    g = bot_gap(
                        deal(k, seed),
                        name,
                        0,
                        time_limit=args.time_limit,
                        reply_progress=tick,
                        reply_core=args.core,
                        reply_memory=memory,
                        reply_threads=args.threads,
                    )
                    r = g.reply

                def show(v: object) -> str:
                    return "-" if v is None else f"{float(v):+.4f}"  # type: ignore[arg-type]

                print(
                    f"{k:>2} {seed:>4} {name:>8} {show(g and g.value):>9} {show(r.value):>9} "
                    f"{show(g and g.gap):>9} {r.cpu_seconds:>8.2f} {r.positions:>9}"
                    + ("" if r.value is None else f"  vs bot {short(fraction_text(r.value))}"),
                    flush=True,
                )
                if args.jsonl and r.solved:
                    data = {"k": k, "seed": seed, **(g.to_json() if g else reply_json(r))}
                    with open(args.jsonl, "a", encoding="utf-8") as f:
                        f.write(json.dumps(data) + "\n")


def ticker(label: str, every: float | None) -> BotProgress | None:
    """A progress callback printing a line on stderr at most every ``every`` seconds."""
    if every is None:
        return None
    last = [0.0]

    def tick(done: int, total: int, positions: int, secs: float) -> None:
        if secs - last[0] >= every:
            last[0] = secs
            print(
                f"{label}: {done}/{total} first cards valued, {positions:,} positions, "
                f"{secs:,.0f} s",
                file=sys.stderr,
                flush=True,
            )

    return tick


def compare(args: argparse.Namespace) -> None:
    """The compiled reply against the Python one on the same deals, one after the other."""
    print(f"{'k':>2} {'seed':>4} {'bot':>8} {'vs bot':>9} {'python s':>9} {'native s':>9} {'x':>7}")
    times: dict[tuple[int, str], list[tuple[float, float]]] = {}
    for k in args.k:
        for seed in args.seeds:
            for name in args.bots:
                fast = against_bot(
                    deal(k, seed), name, 0, time_limit=args.time_limit, core="native"
                )
                line = f"{k:>2} {seed:>4} {name:>8} {float(fast.lower):>+9.4f} "
                if k > args.python_max:
                    print(line + f"{'-':>9} {fast.cpu_seconds:>9.3f}", flush=True)
                    continue
                ref = against_bot(deal(k, seed), name, 0, time_limit=args.time_limit, core="python")
                if ref.solved and fast.solved:
                    assert ref.cards == fast.cards, (k, seed, name)
                    times.setdefault((k, name), []).append((ref.cpu_seconds, fast.cpu_seconds))
                ratio = ref.cpu_seconds / max(fast.cpu_seconds, 1e-6)
                print(
                    line + f"{ref.cpu_seconds:>9.3f} {fast.cpu_seconds:>9.3f} {ratio:>6.0f}x",
                    flush=True,
                )
    for (k, name), pairs in times.items():
        py = statistics.median(p for p, _ in pairs)
        nat = statistics.median(n for _, n in pairs)
        print(
            f"k={k} {name}: median CPU s python {py:.3f}, compiled {nat:.4f}, "
            f"speed-up {py / max(nat, 1e-6):.0f}x over {len(pairs)} deals (values equal)"
        )


if __name__ == "__main__":
    main()
