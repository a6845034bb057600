"""Engine benchmark: random 4-player standard games to 66, reference engine vs fast path.

    python bench/engine.py                 # speeds (median of --runs runs)
    python bench/engine.py --diff 10000    # and the differential check on 10,000 games

Prints games per second of the reference engine (``take6.play.game.play_game`` with four random
bots)
and of the fast path (``take6.play.fastsim.simulate``), each the median of several runs on one core,
their ratio, and single rounds per second (games that end after one round). With ``--diff N`` it
plays N seeded games across the variants with both and counts the games on which they agree
(same totals, same heads in every round, same number of rounds); it exits with status 1 if any
game disagrees.
"""

from __future__ import annotations

import argparse
import multiprocessing
import platform
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence

from take6.play.bots import make_bot
from take6.play.fastsim import FastResult, simulate, simulate_many
from take6.play.game import play_game
from take6.rules import Comparison, EndCondition, ProfiTie, Rules

MIXED = ("safe", "random", "cheapest", "random")


def _cases() -> list[tuple[str, Rules, tuple[str, ...] | None]]:
    """The variants the differential check cycles through (None: all random bots)."""
    out: list[tuple[str, Rules, tuple[str, ...] | None]] = []
    for n in (2, 3, 4, 5, 6, 8, 10):
        out.append((f"standard-{n}", Rules.for_variant("standard", n), None))
    for n in (2, 4, 5, 7, 10):
        out.append((f"taktik-{n}", Rules.for_variant("taktik", n), None))
    for tie in ProfiTie:
        for n in (3, 4, 6):
            out.append(
                (f"profi-{n}-{tie.value}", Rules.for_variant("profi", n, profi_tie=tie), None)
            )
    for n, first, rotate in ((2, 0, True), (4, 1, True), (5, 3, False), (9, 0, True)):
        rules = Rules.for_variant("logik", n, first_picker=first, rotate_first_picker=rotate)
        out.append((f"logik-{n}", rules, None))
    for n in (2, 4, 6):
        out.append((f"kids-{n}", Rules.for_variant("kids", n), None))
    out += [
        (
            "category5-4",
            Rules.for_variant("standard", 4, end=EndCondition(74, Comparison.ABOVE)),
            None,
        ),
        ("rounds-2", Rules.for_variant("standard", 5, end=EndCondition(None, rounds=2)), None),
        ("cheapest-4", Rules.for_variant("standard", 4), ("cheapest",) * 4),
        ("mixed-standard-4", Rules.for_variant("standard", 4), MIXED),
        ("mixed-profi-4", Rules.for_variant("profi", 4), MIXED),
        ("mixed-logik-4", Rules.for_variant("logik", 4), MIXED),
        ("mixed-kids-4", Rules.for_variant("kids", 4), MIXED),
    ]
    return out


CASES = _cases()


def reference_result(rules: Rules, bots: Sequence[str], seed: int) -> FastResult:
    record = play_game(rules, [make_bot(b) for b in bots], seed, keep_states=False)
    final = record.final
    return FastResult(final.totals, final.round_scores, final.round)


def _check(game: int) -> tuple[str, int, bool]:
    """Play game number ``game`` (seed = game) of the differential check with both engines."""
    name, rules, bots = CASES[game % len(CASES)]
    names = bots if bots is not None else ("random",) * rules.players
    same = simulate(rules, game, names) == reference_result(rules, names, game)
    return name, game, same


def run_diff(games: int, jobs: int) -> int:
    """Compare ``games`` games; print the counts; return the number of disagreements."""
    start = time.perf_counter()
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(_check, range(games), chunksize=64)
    else:
        results = [_check(g) for g in range(games)]
    elapsed = time.perf_counter() - start
    agree = Counter(name for name, _, same in results if same)
    total = Counter(name for name, _, _ in results)
    bad = [(name, g) for name, g, same in results if not same]
    print(f"\ndifferential check: {games} games across {len(total)} variant settings")
    for name in total:
        print(f"  {name:<22} {agree[name]:>6}/{total[name]}")
    print(f"agreements: {sum(agree.values())}/{games} ({elapsed:.1f} s, {jobs} process(es))")
    for name, g in bad[:20]:
        print(f"  DISAGREE: {name} seed {g}", file=sys.stderr)
    return len(bad)


def _median_rate(run: Callable[[], tuple[int, int]], runs: int) -> tuple[float, float]:
    """Median games per second and median rounds per second over ``runs`` runs of ``run``
    (which plays some games and returns how many games and rounds it played)."""
    games_rates: list[float] = []
    round_rates: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        games, rounds = run()
        elapsed = time.perf_counter() - start
        games_rates.append(games / elapsed)
        round_rates.append(rounds / elapsed)
    return statistics.median(games_rates), statistics.median(round_rates)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="fast-path games per run")
    parser.add_argument("--ref-games", type=int, default=200, help="reference-engine games per run")
    parser.add_argument("--runs", type=int, default=5, help="runs; the median is reported")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--diff", type=int, default=0, metavar="N", help="check N games")
    parser.add_argument("--jobs", type=int, default=1, help="processes for --diff")
    args = parser.parse_args(argv)

    n = args.players
    rules = Rules.for_variant("standard", n)
    one_round = rules.with_(end=EndCondition(None, rounds=1))
    bots = [make_bot("random") for _ in range(n)]

    def ref_run(r: Rules, count: int) -> Callable[[], tuple[int, int]]:
        def run() -> tuple[int, int]:
            rounds = sum(play_game(r, bots, s, keep_states=False).final.round for s in range(count))
            return count, rounds

        return run

    def fast_run(r: Rules, count: int) -> Callable[[], tuple[int, int]]:
        def run() -> tuple[int, int]:
            return count, sum(res.rounds for res in simulate_many(r, range(count)))

        return run

    print(
        f"Python {platform.python_version()} on {platform.machine()} "
        f"({platform.processor() or platform.system()}), one core; "
        f"random {n}-player standard games to 66, median of {args.runs} runs"
    )
    ref_games, ref_rounds = _median_rate(ref_run(rules, args.ref_games), args.runs)
    fast_games, fast_rounds = _median_rate(fast_run(rules, args.games), args.runs)
    ref_single, _ = _median_rate(ref_run(one_round, args.ref_games), args.runs)
    fast_single, _ = _median_rate(fast_run(one_round, args.games), args.runs)
    print(
        f"reference engine : {ref_games:10.1f} games/s  ({ref_rounds:9.1f} rounds/s in games;"
        " play_game, keep_states=False)"
    )
    print(f"fast path        : {fast_games:10.1f} games/s  ({fast_rounds:9.1f} rounds/s in games)")
    print(f"ratio            : {fast_games / ref_games:10.1f} x")
    print(f"single rounds    : reference {ref_single:.1f}/s, fast path {fast_single:.1f}/s")
    target = 1000
    verdict = "meets" if fast_games >= target else "MISSES"
    print(f"target           : {target} games/s on one core: the fast path {verdict} it")

    if args.diff > 0 and run_diff(args.diff, max(1, args.jobs)):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
