"""The compiled search core against the Python search (the reference): values equal, not close,
on random positions of every kind the solver takes (standard, Logik, Profi with each tie rule,
too-low choices, 2-player diff and 3-player paranoid); its placement against the kernel's; its
canonical key against relabelling; limits, interrupts and memory budgets; bound certificates."""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
import time
import weakref
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_helpers import any_position, position_strategy, random_position, relabel

from solver import native
from solver.api import solve
from solver.baseline import baseline_value
from solver.errors import SolverError
from solver.kernel import Hands, Kernel, Table, to_table
from solver.matrix import Num
from solver.problem import Problem, make_problem
from solver.search import Search, position_table
from solver.study.run import benchmark_deal
from solver.verify.certificate import build_bound_certificate, build_certificate
from solver.verify.check import CertificateError, check_certificate
from take6.cards import HEADS
from take6.position import Position
from take6.rules import ProfiTie, Rules

pytestmark = pytest.mark.skipif(
    not native.AVAILABLE, reason=f"compiled core not built: {native.unavailable_reason()}"
)

MEMORY = 1 << 22  # 4 MiB: small tables, so growth and replacement are exercised too


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, str, int]:
    """A random position with its objective and player: 2 players (diff or paranoid) with up
    to 4 cards, 3 players (paranoid) with up to 3, 4 players with up to 2; rows often long, so
    takes happen; Profi with each tie rule."""
    pos = draw(any_position())
    players = pos.rules.players
    objective = "diff" if players == 2 and draw(st.booleans()) else "paranoid"
    return pos, objective, draw(st.integers(0, players - 1))


def both(pos: Position, objective: str, player: int) -> tuple[Fraction, Fraction]:
    """The value by the compiled core and by the Python search."""
    fast, _ = solve(pos, objective, player, line=False, core="native", memory=MEMORY)
    ref, _ = solve(pos, objective, player, line=False, core="python")
    assert fast.core == "native" and ref.core == "python"
    assert fast.value is not None and ref.value is not None
    return fast.value, ref.value


@settings(max_examples=100)
@given(positions())
def test_native_equals_python(case: tuple[Position, str, int]) -> None:
    pos, objective, player = case
    fast, ref = both(pos, objective, player)
    assert fast == ref, str(pos)


@settings(max_examples=60)
@given(positions())
def test_native_strategies_pass_the_independent_checker(case: tuple[Position, str, int]) -> None:
    # Every node's value and both optimal strategies, read from the compiled core, re-proven
    # by the checker (which replays each turn with the reference engine).
    pos, objective, player = case
    # (Positions under rules the compact notation does not carry, such as a Profi tie rule or
    # a row capacity other than the preset's, too: the certificate names them in "rules".)
    result, search = solve(pos, objective, player, line=False, core="native", memory=MEMORY)
    assert result.value is not None
    assert check_certificate(build_certificate(search)).value == result.value
    assert check_certificate(build_bound_certificate(search)).value == result.value


@settings(max_examples=30)
@given(st.sampled_from(["logik", "profi"]).flatmap(lambda v: position_strategy(v, 2, 3, top=50)))
def test_native_equals_baseline(pos: Position) -> None:
    fast, _ = solve(pos, line=False, core="native", memory=MEMORY)
    assert fast.value == baseline_value(make_problem(pos)), str(pos)


@pytest.mark.parametrize("k", [5, 6])
@pytest.mark.parametrize("seed", range(3))
def test_logik_deals_equal(k: int, seed: int) -> None:
    # Real Logik deals (deck 1..2k+4, single-card rows): values with long denominators.
    pos = benchmark_deal(k, seed)
    fast, ref = both(pos, "diff", 0)
    assert fast == ref, str(pos)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[list[int]], int]:
    n = draw(st.integers(1, 6))
    cards = draw(st.lists(st.integers(1, 104), min_size=n * 5 + 1, max_size=n * 5 + 1, unique=True))
    rows: list[list[int]] = []
    i = 0
    for _ in range(n):
        length = draw(st.integers(1, 5))
        rows.append(sorted(cards[i : i + length]))
        i += length
    return rows, cards[-1]


@settings(max_examples=300)
@given(tables(), st.sampled_from(["standard", "profi"]), st.sampled_from(list(ProfiTie)))
def test_native_placement_equals_kernel(
    case: tuple[list[list[int]], int], variant: str, tie: ProfiTie
) -> None:
    rows, card = case
    if any(card in r for r in rows):
        return
    rules = Rules.for_variant(variant, 2, profi_tie=tie)
    pos = Position.create(variant, [[c] for c in range(1, 5)], [[10], [11]])
    problem = make_problem(pos.with_rules(rules))
    search = native.NativeSearch(problem, memory=native.MIN_MEMORY)
    table = to_table(rows, HEADS)
    assert search.place(table, card) == Kernel(rules).place(table, card)


@settings(max_examples=40)
@given(st.integers(0, 10**9))
def test_relabelled_positions_share_a_key_and_a_value(seed: int) -> None:
    rng = random.Random(seed)
    pos = random_position(rng, "logik", 2, 3, top=50)
    other = relabel(pos, rng)
    if other is None:
        return
    problem = make_problem(pos)
    search = native.NativeSearch(problem, memory=native.MIN_MEMORY)
    assert search.key(*position_table(problem)) == search.key(*position_table(make_problem(other)))
    assert both(other, "diff", 0)[0] == both(pos, "diff", 0)[0]


def test_limits_and_interrupts_give_proven_bounds() -> None:
    pos = random_position(random.Random(7), "logik", 2, 6, top=40)
    exact, _ = solve(pos, line=False, core="native")
    assert exact.value is not None
    for limit in (1, 50, 2000):
        part, _ = solve(pos, node_limit=limit, line=False, core="native")
        assert part.lower <= exact.value <= part.upper
        if not part.solved:
            assert part.value is None and not part.interrupted

    calls: list[tuple[Fraction, Fraction]] = []

    def interrupt(
        nodes: int, filled: int, cap: int, secs: float, lo: Fraction, hi: Fraction
    ) -> None:
        calls.append((lo, hi))
        raise KeyboardInterrupt

    # A search long enough to reach a progress report, stopped there as by Ctrl-C.
    big = random_position(random.Random(3), "logik", 2, 8, top=24, long_rows=False)
    got, _ = solve(big, line=False, core="native", progress=interrupt)
    assert calls, "the search ended before its first progress report"
    assert got.interrupted and not got.solved
    assert got.lower <= calls[-1][1] and calls[-1][0] <= got.upper


def test_python_core_ctrl_c_keeps_bounds() -> None:
    # The Python search on Ctrl-C: one stopped pass over the root gives proven bounds.
    pos = random_position(random.Random(7), "logik", 2, 5, top=40)
    exact, _ = solve(pos, line=False, core="python")
    assert exact.value is not None
    problem = make_problem(pos)
    search = Search(problem)
    ticks = 0
    original = search._tick

    def tick() -> None:
        nonlocal ticks
        ticks += 1
        if ticks == 200:
            raise KeyboardInterrupt
        original()

    search._tick = tick  # type: ignore[method-assign]
    table, hands = position_table(problem)
    try:
        search.value(table, hands)
    except KeyboardInterrupt:
        search.stopped = True
    entry = search.value(table, hands)
    assert entry.lo <= exact.value <= entry.hi


def test_small_memory_budget_is_kept_and_values_equal() -> None:
    pos = random_position(random.Random(11), "logik", 2, 6, top=40)
    problem = make_problem(pos)
    table, hands = position_table(problem)
    budget = 1 << 20
    search = native.NativeSearch(problem, memory=budget)
    value = search.solved(table, hands).value
    assert search.stats.table_bytes <= budget
    assert value == Search(problem).solved(table, hands).value


def test_memory_budgets() -> None:
    assert native.parse_memory("512M") == 512 << 20
    assert native.parse_memory("1.5GiB") == 3 << 29
    assert native.parse_memory("4096") == 4096
    for bad in ("", "abc", "-1G", "nan", "inf", "0"):
        with pytest.raises(SolverError):
            native.parse_memory(bad)
    with pytest.raises(SolverError, match="minimum"):
        native.check_memory(1000)
    if native.physical_memory():
        with pytest.raises(SolverError, match="physical memory"):
            native.check_memory(native.physical_memory() * 2)


def test_tampered_bound_certificate_is_refused() -> None:
    pos = random_position(random.Random(5), "logik", 2, 4, top=40)
    result, search = solve(pos, line=False, core="native")
    cert = build_bound_certificate(search)
    assert check_certificate(cert).value == result.value
    assert result.value is not None
    # Claim a better root value: the root's lower proof must fail.
    bad = dict(cert)
    better = result.value + Fraction(1, 7)
    bad["value"] = f"{better.numerator}/{better.denominator}"
    with pytest.raises(CertificateError):
        check_certificate(bad)
    # Raise every lower claim: some node's strategy no longer guarantees it.
    raised = {
        key: {**node, "lower": f"{Fraction(node['lower']) + 1}"} if "lower" in node else node
        for key, node in cert["nodes"].items()
    }
    with pytest.raises(CertificateError):
        check_certificate({**cert, "nodes": raised})


def test_cli_cores_agree_and_say_which_ran() -> None:
    pos = "logik:12 3/7/10/12 1,5,9,11|2,4,6,8"
    out = {}
    for core in ("native", "python"):
        proc = subprocess.run(
            [sys.executable, "-m", "take6.cli.main", "solve", pos, "--core", core, "--json"],
            capture_output=True,
            text=True,
            check=True,
        )
        out[core] = json.loads(proc.stdout)
        assert out[core]["core"] == core
    assert out["native"]["value"] == out["python"]["value"] == "-1/3"
    bad = subprocess.run(
        [sys.executable, "-m", "take6.cli.main", "solve", pos, "--memory", "10K"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "minimum" in bad.stderr


def test_window_ends_too_long_for_the_core_are_widened_outward() -> None:
    """A caller may pass an exact value of hundreds of digits back in as a bound (the draft
    does): the core gets a window at most 2^-32 wider, and the answer holds for the original."""
    from solver.native import NativeSearch

    third = Fraction(3**200 + 1, 3**199)  # just above 3, a denominator of 96 digits
    n, d = NativeSearch._q(third)
    assert Fraction(n, d) <= third < Fraction(n, d) + Fraction(1, 2**32)
    n, d = NativeSearch._q(third, up=True)
    assert Fraction(n, d) - Fraction(1, 2**32) < third <= Fraction(n, d)
    assert NativeSearch._q(Fraction(-(10**30), 7)) == (-(10**9), 1)
    assert NativeSearch._q(Fraction(1, 3)) == (1, 3)
    # Whole numbers take a short path: the same ends as their fractions, huge ones included.
    for whole in (0, 7, -3, 10**30, -(10**30), (1 << 62) - 1, 1 << 62):
        for up in (False, True):
            assert NativeSearch._q(whole, up) == NativeSearch._q(Fraction(whole), up)
    pos = Position.create("logik", [[1], [2], [3], [4]], [[5, 8, 11], [6, 7, 9]], deck=11)
    problem = make_problem(pos, "diff", 0)
    table, hands = position_table(problem)
    search = NativeSearch(problem)
    exact = search.value(table, hands)
    assert exact.lo == exact.hi
    v = Fraction(exact.lo)
    below = v - Fraction(1, 3**150)
    above = v + Fraction(1, 3**150)
    assert search.value(table, hands, below, above).lo == v
    assert search.value(table, hands, above, above + 1).hi <= above


def test_certificate_carries_the_rules_the_notation_leaves_out() -> None:
    """A Profi position under the right-hand tie rule, and a house row capacity: certified and
    checked under their own rules; the same certificate under other rules does not check."""
    base = Position.create("profi", [[10], [20], [30], [40]], [[15, 25, 33], [5, 35, 45]])
    tampered_checks = 0
    for rules in (
        base.rules.with_(profi_tie=ProfiTie.PREFER_RIGHT),
        base.rules.with_(row_capacity=2),
    ):
        pos = base.with_rules(rules)
        result, search = solve(pos, "diff", 0, line=False, core="native", memory=MEMORY)
        cert = build_bound_certificate(search)
        assert cert["rules"]["profi_tie"] == rules.profi_tie.value
        assert cert["rules"]["row_capacity"] == rules.row_capacity
        assert check_certificate(cert).value == result.value
        default = solve(base, "diff", 0, line=False, core="native", memory=MEMORY)[0].value
        if default != result.value:
            tampered = dict(cert, rules=dict(cert["rules"], profi_tie="owner", row_capacity=5))
            with pytest.raises(CertificateError):
                check_certificate(tampered)
            tampered_checks += 1
    assert tampered_checks >= 1  # (capacity 2 changes the value: 3, not 0)
    bad = dict(build_bound_certificate(search), rules={"row_capacity": "5"})
    with pytest.raises(CertificateError, match="'rules' must be an object with"):
        check_certificate(bad)


def test_root_text_names_the_phase() -> None:
    assert native.root_text(0, 0, 0) is None
    assert native.root_text(1, 3, 10) == "root rows 3/10"
    assert native.root_text(2, 0, 10) == "root columns 0/10"
    assert native.root_text(3, 4, 12) == "root mixed game, cells 4/12"


def test_progress_tells_where_the_root_is() -> None:
    # A progress callback with a where() method hears, before each call, how far the root's
    # stage game got; the counts never pass their totals, and the phases come in a legal order.
    class Recorder:
        def __init__(self) -> None:
            self.calls = 0
            self.texts: list[str | None] = []

        def where(self, text: str | None) -> None:
            self.texts.append(text)

        def __call__(self, *args: object) -> None:
            self.calls += 1

    problem = make_problem(benchmark_deal(6, 1))
    table, hands = position_table(problem)
    rec = Recorder()
    search = native.NativeSearch(problem, memory=MEMORY, progress=rec, progress_every=0.0)
    search.value(table, hands)
    assert rec.calls > 0 and len(rec.texts) == rec.calls
    seen = [t for t in rec.texts if t is not None]
    assert seen, rec.texts
    for text in seen:
        name, count = text.rsplit(" ", 1)
        done, total = map(int, count.split("/"))
        assert name in ("root rows", "root columns", "root mixed game, cells")
        assert 0 <= done <= total
    phase, done, total = search.core.stats()["root"]
    assert phase in (1, 2, 3) and 0 <= done <= total


def test_a_search_with_a_progress_callback_is_freed_with_its_table() -> None:
    # The core holds the progress callback; a callback that held the search in turn made a
    # cycle that Python's collector cannot see through the core (no tp_traverse), so each
    # search given progress kept its whole table until the process ended: a study of several
    # k = 10 deals in one process ran out of memory (session 20, one table leaked per deal).
    import gc
    import weakref

    calls: list[int] = []
    problem = make_problem(benchmark_deal(7, 0), "diff", 0)
    search = native.NativeSearch(
        problem,
        memory=native.MIN_MEMORY,
        progress=lambda nodes, *rest: calls.append(nodes),
        progress_every=0.0,
    )
    search.solved(*position_table(problem))
    assert calls  # (the callback ran: the search held it)
    gone = weakref.ref(search)
    del search
    gc.collect()
    assert gone() is None


class _Holder:
    """A progress callable that refers back to the core it reports on: a reference cycle."""

    core: object = None

    def __call__(self, *args: object) -> None:
        pass


@pytest.mark.parametrize("kind", ["search", "reply"])
def test_a_core_in_a_cycle_is_collected(kind: str) -> None:
    """The compiled objects tell the garbage collector what they hold (the progress callable),
    so a cycle through one is freed, its table with it, instead of living until exit."""
    pos = Position.create("logik", [[1], [2], [3], [4]], [[5, 7], [6, 8]])
    if kind == "search":
        core = native.NativeSearch(make_problem(pos), memory=native.MIN_MEMORY).core
    else:
        core = native.NativeReply(pos.rules, "cheapest", 0, memory=native.MIN_MEMORY).core
    holder = _Holder()
    holder.core = core
    core.configure(progress=holder)
    gone = weakref.ref(holder)
    del holder, core
    gc.collect()
    assert gone() is None


def _holds(lo: Num, hi: Num, v: Num, a: Num, b: Num) -> bool:
    """Bounds that contain the value and are exact or decide the window (value()'s contract)."""
    return lo <= v <= hi and (lo == hi or hi <= a or lo >= b)


@settings(max_examples=25, deadline=None)
@given(
    positions(), st.lists(st.tuples(st.integers(-3, 3), st.integers(0, 4)), min_size=1, max_size=4)
)
def test_searches_started_side_by_side_keep_values_contract(
    case: tuple[Position, str, int], windows: list[tuple[int, int]]
) -> None:
    # One position started several times at once with various windows, on threads of their own
    # sharing one table: each answer keeps value()'s contract against the Python search.
    pos, objective, player = case
    if not pos.hands[0]:
        return
    problem = make_problem(pos, objective, player)
    ref, _ = solve(pos, objective, player, line=False, core="python")
    assert ref.value is not None
    table, hands = position_table(problem)
    search = native.NativeSearch(problem, memory=MEMORY, threads=2)
    expected: dict[int, tuple[Fraction, Fraction]] = {}
    for shift, width in windows:
        a = ref.value + shift
        expected[search.start(table, hands, a, a + width)] = (a, a + width)
    assert search.running == len(expected)
    while expected:
        for done in search.wait():
            a, b = expected.pop(done.id)
            assert _holds(done.entry.lo, done.entry.hi, ref.value, a, b), str(pos)
            assert done.nodes >= 0 and done.seconds >= 0
    assert search.running == 0 and search.wait() == []


def _deal_and_value(seed: int) -> tuple[Problem, Table, Hands, Fraction]:
    """Deal ``seed`` of 7 cards a hand of ``bench/solve.py``: its problem, root and exact value."""
    problem = make_problem(benchmark_deal(7, seed))
    exact, _ = solve(problem.position, line=False, core="native", memory=1 << 26)
    assert exact.value is not None
    table, hands = position_table(problem)
    return problem, table, hands, exact.value


def test_started_searches_refuse_other_calls_until_collected_and_cancel_keeps_bounds() -> None:
    problem, table, hands, value = _deal_and_value(2)
    search = native.NativeSearch(problem, memory=1 << 26, threads=2)
    first = search.start(table, hands)
    second = search.start(table, hands, value - 1, value + 1)
    with pytest.raises(RuntimeError, match="still running"):
        search.value(table, hands)
    assert search.cancel(first) and not search.cancel(999)
    got: set[int] = set()
    while len(got) < 2:
        for done in search.wait():
            got.add(done.id)
            assert done.entry.lo <= value <= done.entry.hi
    assert got == {first, second}
    # collected: the table serves value() again
    assert search.value(table, hands).lo == value
    with pytest.raises(SolverError, match="hands are empty"):
        search.start(table, tuple(() for _ in hands))


def test_node_limit_stops_every_started_search_with_proven_bounds() -> None:
    problem, table, hands, value = _deal_and_value(2)
    search = native.NativeSearch(problem, memory=1 << 26, threads=2, node_limit=20_000)
    ids = {search.start(table, hands), search.start(table, hands, -1, 1)}
    entries = []
    while ids:
        for done in search.wait():
            ids.discard(done.id)
            entries.append(done.entry)
    assert search.stopped
    assert all(e.lo <= value <= e.hi and e.lo < e.hi for e in entries)


def test_threads_share_loops_deep_in_the_tree_with_the_same_values() -> None:
    # Two threads split the root's loops (positions of 6+ cards a hand) and, while one of them
    # waits, the other offers it the loops of its own positions of 5+ cards (nested parallel
    # loops with helping). Values and windows must come out as on one thread: standard, Logik
    # and Profi deals of 6-7 cards, too-low choices, diff and paranoid, a small table (growth
    # while the threads run) and a window on each side of the value.
    rng = random.Random(20261206)
    cases: list[tuple[Position, str, int]] = [(benchmark_deal(7, 1), "diff", 0)]
    for variant, objective in (("standard", "diff"), ("profi", "paranoid"), ("logik", "paranoid")):
        cases.append((random_position(rng, variant, 2, 6, 60), objective, rng.randrange(2)))
    helped = 0
    for pos, objective, player in cases:
        problem = make_problem(pos, objective, player)
        table, hands = position_table(problem)
        one, _ = solve(pos, objective, player, line=False, core="native", memory=MEMORY)
        assert one.value is not None
        two = native.NativeSearch(problem, memory=MEMORY, threads=2)
        entry = two.value(table, hands)
        assert entry.lo == entry.hi == one.value, str(pos)
        helped += two.core.stats()["helped_tasks"]
        for a, b in ((one.value - 2, one.value - 1), (one.value + 1, one.value + 3)):
            fresh = native.NativeSearch(problem, memory=MEMORY, threads=2)
            got = fresh.value(table, hands, a, b)
            assert _holds(got.lo, got.hi, one.value, a, b), str(pos)
            helped += fresh.core.stats()["helped_tasks"]
    assert helped > 0  # the nested loops did run on the other thread


def test_killer_cards_carried_from_one_search_to_the_next_keep_values() -> None:
    # The core tries first, where the table has no hint, the cards that were best at the last
    # position of as many cards a hand (kept in the search from one value() to the next, as the
    # leaf searches of a solve by cells share them). Carried into other positions, whose hands
    # may lack those cards, they change an order only: each value equals a fresh search's, for
    # 2-player diff (a killer card each side) and 3-player paranoid (the max side's only).
    rng = random.Random(20261207)
    for variant, players, objective in (("logik", 2, "diff"), ("standard", 3, "paranoid")):
        k = 5 if players == 2 else 3
        first = random_position(rng, variant, players, k, 60)
        problem = make_problem(first, objective, 0)
        carried = native.NativeSearch(problem, memory=MEMORY)
        for _ in range(6):
            pos = random_position(rng, variant, players, k, 60)
            table, hands = position_table(make_problem(pos, objective, 0))
            got = carried.value(table, hands)
            fresh = native.NativeSearch(problem, memory=MEMORY).value(table, hands)
            assert got.lo == got.hi == fresh.lo == fresh.hi, str(pos)


def test_killer_cards_off_keep_values_and_stay_off_when_limits_are_reset() -> None:
    # killers=False (the draft's leaves: searches of unrelated deals) changes only the order:
    # the same values as with them. The switch is live (one thread, so node counts are
    # deterministic: the two orders search different numbers of nodes over these deals), and
    # it survives a reconfiguration (release_limits), which sets the limits again.
    rng = random.Random(20261208)
    problem = make_problem(random_position(rng, "logik", 2, 5, 60), "diff", 0)
    on = native.NativeSearch(problem, memory=MEMORY)
    off = native.NativeSearch(problem, memory=MEMORY, killers=False)
    off_reset = native.NativeSearch(problem, memory=MEMORY, killers=False)
    nodes: dict[str, list[int]] = {"on": [], "off": [], "off_reset": []}
    for _ in range(8):
        pos = random_position(rng, "logik", 2, 5, 60)
        table, hands = position_table(make_problem(pos, "diff", 0))
        values = []
        for name, search in (("on", on), ("off", off), ("off_reset", off_reset)):
            before = search.stats.nodes
            values.append(search.value(table, hands))
            nodes[name].append(search.stats.nodes - before)
        off_reset.release_limits()
        assert values[0].lo == values[0].hi == values[1].lo == values[1].hi == values[2].lo
        assert values[2].lo == values[2].hi, str(pos)
    assert nodes["off"] == nodes["off_reset"]
    assert nodes["on"] != nodes["off"]


def test_two_threads_stopped_deep_in_the_tree_keep_proven_bounds() -> None:
    # A node limit stops both threads wherever they are (inside each other's loops too): the
    # bounds hold the value and are not exact.
    problem, table, hands, value = _deal_and_value(2)
    for limit in (5_000, 50_000, 200_000):
        search = native.NativeSearch(problem, memory=MEMORY, threads=2, node_limit=limit)
        got = search.value(table, hands)
        assert search.stopped and got.lo <= value <= got.hi and got.lo < got.hi


def test_the_waiting_caller_helps_inside_fewer_searches_than_threads() -> None:
    # One search started on a table of two threads: the caller's thread, waiting in wait(),
    # takes tasks of the loops it offers. Same value; its node count includes the help; a
    # cancel stops it with proven bounds even while the caller is inside one of its tasks.
    problem, table, hands, value = _deal_and_value(1)
    search = native.NativeSearch(problem, memory=MEMORY, threads=2)
    first = search.start(table, hands)
    (done,) = search.wait()
    assert done.id == first and done.entry.lo == done.entry.hi == value
    assert search.core.stats()["helped_tasks"] > 0
    assert done.nodes == search.stats.nodes  # (the only search: every node is its own)
    for stop_after in (0.0, 0.05):
        search = native.NativeSearch(problem, memory=MEMORY, threads=2)
        sid = search.start(table, hands)
        time.sleep(stop_after)
        search.cancel(sid)
        (done,) = search.wait()
        assert done.entry.lo <= value <= done.entry.hi
