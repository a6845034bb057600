"""The Logik draft solver (:mod:`solver.draft.solve`) and ``take6 draft``.

The reference for the values is a naive minimax written here: it walks the draft with the
engine (:func:`take6.state.new_game`, :func:`take6.state.legal_actions` in the draft phase),
and values every finished draft with the baseline play solver (:mod:`solver.baseline`). No
alpha-beta, no canonical keys, no shared play search.
"""

from __future__ import annotations

import itertools
import json
import random
import signal
import subprocess
import sys
import time
from fractions import Fraction

import pytest
from solver_helpers import ctrl_c_default

from solver import native
from solver.api import solve
from solver.baseline import baseline_value
from solver.draft.solve import (
    ENTRY_BYTES,
    MIN_ENTRIES,
    DraftError,
    DraftSafety,
    DraftSearch,
    DraftTick,
    draft_order,
    draft_rules,
    draft_safety,
    solve_draft,
)
from solver.matrix import Num
from solver.problem import make_problem
from solver.search import INF
from take6.cli.main import main
from take6.rules import Rules
from take6.state import Phase, Pick, State, apply, legal_actions, new_game


def naive_draft(
    players: int, hand_size: int, first_picker: int, objective: str, player: int
) -> tuple[Fraction, dict[int, Fraction]]:
    """The draft value and every first pick's value by plain minimax over the engine's picks,
    with baseline leaf values (memoised by the exact deal only). The maximising seats: ``player``
    for diff, every other seat for paranoid."""
    rules = Rules.for_variant(
        "logik", players=players, hand_size=hand_size, first_picker=first_picker
    )
    maximiser = {player} if objective == "diff" else set(range(players)) - {player}
    leaves: dict[str, Fraction] = {}

    def value(state: State) -> Fraction:
        if state.phase is not Phase.DRAFT:
            pos = state.position()
            key = str(pos)
            if key not in leaves:
                leaves[key] = baseline_value(make_problem(pos, objective, player))
            return leaves[key]
        (seat,) = state.to_act()
        vals = [value(apply(state, a)) for a in legal_actions(state)]
        return max(vals) if seat in maximiser else min(vals)

    root = new_game(rules)
    assert root.phase is Phase.DRAFT
    picks = {a.card: value(apply(root, a)) for a in legal_actions(root) if isinstance(a, Pick)}
    best = max if first_picker in maximiser else min
    return best(picks.values()), picks


@pytest.mark.parametrize(
    ("players", "hand_size", "first_picker", "objective", "player"),
    [
        (2, 1, 0, "diff", 0),
        (2, 1, 1, "diff", 0),
        (2, 1, 0, "diff", 1),
        (2, 2, 0, "diff", 0),
        (2, 2, 1, "diff", 0),
        (2, 2, 0, "diff", 1),
        (2, 2, 0, "paranoid", 0),
        (2, 2, 1, "paranoid", 1),
        (3, 1, 0, "paranoid", 0),
        (3, 1, 2, "paranoid", 1),
        (4, 1, 1, "paranoid", 3),
    ],
)
def test_values_match_naive_minimax_over_baseline(
    players: int, hand_size: int, first_picker: int, objective: str, player: int
) -> None:
    value, picks = naive_draft(players, hand_size, first_picker, objective, player)
    r = solve_draft(players, hand_size, first_picker, objective, player)
    assert r.solved and r.value == value == r.lower == r.upper
    assert {p.card: p.value for p in r.picks} == picks
    assert r.best_picks() == sorted(c for c, v in picks.items() if v == value)


def test_k3_matches_plain_minimax_over_the_play_solver() -> None:
    """k = 3 is too big for the baseline: a plain minimax (memoised on the picked sets, no
    pruning) over fresh play-solver leaves instead."""
    ds = DraftSearch(2, 3, first_picker=1)
    memo: dict[tuple[int, ...], Num] = {}

    def value(masks: tuple[int, ...]) -> Num:
        if masks in memo:
            return memo[masks]
        v: Num
        if ds.is_leaf(masks):
            leaf = solve(ds.leaf_position(masks), "diff", 0, line=False)[0].value
            assert leaf is not None
            v = leaf
        else:
            seat = ds.picker(sum(m.bit_count() for m in masks))
            vals = [value(ds.child(masks, c)) for c in ds.pool(masks)]
            v = max(vals) if seat == 0 else min(vals)
        memo[masks] = v
        return v

    r = solve_draft(2, 3, first_picker=1)
    root = ds.root()
    assert r.value == value(root)
    assert {p.card: p.value for p in r.picks} == {
        c: value(ds.child(root, c)) for c in ds.pool(root)
    }


@pytest.mark.parametrize(
    ("players", "hand_size", "first_picker"), [(2, 3, 0), (2, 2, 1), (3, 2, 2), (5, 1, 3)]
)
def test_draft_order_and_leaves_follow_the_engine(
    players: int, hand_size: int, first_picker: int
) -> None:
    rng = random.Random(players * 100 + hand_size * 10 + first_picker)
    order = draft_order(players, hand_size, first_picker)
    objective = "diff" if players == 2 else "paranoid"
    ds = DraftSearch(players, hand_size, first_picker, objective)
    state = new_game(
        Rules.for_variant("logik", players, hand_size=hand_size, first_picker=first_picker)
    )
    masks = ds.root()
    seen = []
    while state.phase is Phase.DRAFT:
        (seat,) = state.to_act()
        seen.append(seat)
        assert ds.picker(len(seen) - 1) == seat
        card = rng.choice(ds.pool(masks))
        assert sorted(ds.pool(masks)) == sorted(state.pool)
        state = apply(state, Pick(seat, card))
        masks = ds.child(masks, card)
    assert seen == order
    assert ds.is_leaf(masks)
    leaf, engine = ds.leaf_position(masks), state.position()
    assert (leaf.rows, leaf.hands, leaf.rules.deck_size) == (
        engine.rows,
        engine.hands,
        engine.rules.deck_size,
    )


@pytest.mark.parametrize(("objective", "players"), [("diff", 2), ("paranoid", 3)])
def test_leaf_key_symmetry(objective: str, players: int) -> None:
    """The canonical leaf key keeps the value up to its sign (diff: exchanging the hands negates
    it; paranoid: the coalition's hands may be exchanged)."""
    rng = random.Random(7)
    k = 3 if players == 2 else 2
    ds = DraftSearch(players, k, objective=objective, player=0)
    swapped = 0
    for _ in range(12):
        masks = ds.root()
        while not ds.is_leaf(masks):
            masks = ds.child(masks, rng.choice(ds.pool(masks)))
        key, sign = ds.leaf_key(masks)
        swapped += key != masks
        v = solve(ds.leaf_position(masks), objective, 0, line=False)[0].value
        w = solve(ds.leaf_position(key), objective, 0, line=False)[0].value
        assert v is not None and w is not None and v == sign * w
    assert swapped  # the symmetry was exercised


def test_window_contract() -> None:
    """With a window, the bounds are exact, or fail low (hi <= alpha), or fail high."""
    exact = {p.card: p.value for p in solve_draft(2, 2).picks}
    rng = random.Random(3)
    for _ in range(40):
        ds = DraftSearch(2, 2)
        c = rng.choice(sorted(exact))
        a = Fraction(rng.randint(-6, 4), rng.randint(1, 3))
        b = a + Fraction(rng.randint(0, 6), rng.randint(1, 3))
        lo, hi = ds.value(ds.child(ds.root(), c), a, b)
        v = exact[c]
        assert v is not None and lo <= v <= hi
        assert lo == hi or hi <= a or lo >= b
    ds = DraftSearch(2, 2)
    lo, hi = ds.value(ds.root(), -INF, INF)
    assert lo == hi == solve_draft(2, 2).value


@pytest.mark.parametrize(("players", "k"), [(2, 3), (3, 2)])
def test_a_pick_the_tables_show_to_cut_is_found(players: int, k: int) -> None:
    """The enhanced transposition cutoff: ``_cached_cut`` names the first pick (in the order
    given) whose child the tables bound at or above ``b`` in the picker's view, from the
    drafted deals' table at the last pick (under their canonical keys) and from the draft
    nodes' tables above, and 0 when none does."""
    objective = "diff" if players == 2 else "paranoid"
    ds = DraftSearch(players, k, 0, objective)
    ds.value(ds.root(), -INF, INF)  # fills the tables
    checked = 0
    for picked in range(ds.total):
        for masks in list(ds.tables[picked]):
            p = ds.picker(picked)
            maxi = ds.maximiser[p]
            order = ds.high_first(masks)
            before, mine, after = masks[:p], masks[p], masks[p + 1 :]
            # The picker's view of each child's bounds, straight from the tables.
            views = {}
            for c in order:
                child = (*before, mine | 1 << (c - 1), *after)
                if picked + 1 == ds.total:
                    key, sign = ds.leaf_key(child)
                    got = ds.leaves.get(key)
                    got = None if got is None else (got if sign > 0 else (-got[1], -got[0]))
                else:
                    entry = ds.tables[picked + 1].get(child)
                    got = None if entry is None else entry[:2]
                if got is not None:
                    views[c] = got[0] if maxi else -got[1]
            for b in sorted(set(views.values())):
                want = next(c for c in order if c in views and views[c] >= b)
                assert ds._cached_cut(before, mine, after, order, picked + 1, maxi, b) == want
                checked += 1
            top = max(views.values(), default=0) + 1
            assert ds._cached_cut(before, mine, after, order, picked + 1, maxi, top) == 0
    assert checked > 10


@pytest.mark.parametrize(("players", "k"), [(2, 4), (3, 3)])
def test_exact_finds_each_value_from_any_guess(players: int, k: int) -> None:
    """The aspiration driver (narrow windows at each fail-soft bound, then wider ones from the
    bound proven, then the proven range) finds each first pick's value whether the guess is
    far below it, far above it or on it, on a fresh search and on one that knows bounds."""
    objective = "diff" if players == 2 else "paranoid"
    exact = {p.card: p.value for p in solve_draft(players, k, 0, objective).picks}
    # (2 x 4: card 1 is worth -1, the others 0; 3 x 3: 0, 1, 12/13 and 1920/2171)
    assert len(set(exact.values())) >= (2 if players == 2 else 4)
    # One pick of each value (the lowest card worth it).
    picks = {v: c for c, v in sorted(exact.items(), reverse=True)}
    shared = DraftSearch(players, k, 0, objective)
    for guess in (Fraction(-7), Fraction(0), Fraction(5, 3), Fraction(30)):
        for v, c in picks.items():
            fresh = (DraftSearch(players, k, 0, objective),) if guess == 30 else ()
            for ds in (*fresh, shared):
                assert ds.exact(ds.child(ds.root(), c), guess) == v, (c, guess)


@pytest.mark.parametrize(("players", "k"), [(2, 4), (3, 3)])
def test_killers_change_the_order_of_the_search_not_its_values(players: int, k: int) -> None:
    """Killers (the killer pick, and the compiled core's killer cards in the leaves) are on by
    default under paranoid and off under diff (measured); either way each first pick gets the
    same value, and the switch is live: the searches differ in nodes."""
    objective = "diff" if players == 2 else "paranoid"
    default = DraftSearch(players, k, 0, objective)
    assert default.killers is (objective == "paranoid")
    flipped = DraftSearch(players, k, 0, objective, killers=not default.killers)
    for ds in (default, flipped):
        if isinstance(ds.play, native.NativeSearch):
            assert ds.play.killers is ds.killers
    # (3 x 3: picks worth 0 and 1920/2171; 2 x 4: every pick)
    for c in (5, 6) if players == 3 else range(1, 2 * k + 5):
        a, b = (ds.exact(ds.child(ds.root(), c)) for ds in (default, flipped))
        assert a == b, c
    counts = [(ds.stats.nodes, ds.play.stats.nodes) for ds in (default, flipped)]
    assert counts[0] != counts[1]


def test_principal_line_and_play() -> None:
    r = solve_draft(2, 3, first_picker=1)
    assert r.solved and r.value is not None and r.position is not None
    assert [p.seat for p in r.line] == draft_order(2, 3, 1)
    # The line is legal in the engine and leads to the reported deal.
    state = new_game(Rules.for_variant("logik", players=2, hand_size=3, first_picker=1))
    for p in r.line:
        state = apply(state, Pick(p.seat, p.card))
    engine = state.position()
    assert (engine.rows, engine.hands) == (r.position.rows, r.position.hands)
    # Every pick keeps the value (checked by a fresh search), and so does the play after it.
    ds = DraftSearch(2, 3, first_picker=1)
    masks = ds.root()
    for p in r.line:
        masks = ds.child(masks, p.card)
        assert ds.exact(masks) == r.value
    assert solve(r.position, "diff", 0, line=False)[0].value == r.value
    assert len(r.play) == 3 and all(len(t.cards) == 2 for t in r.play)


def test_time_limit_gives_proven_bounds_never_a_wrong_value() -> None:
    exact = solve_draft(2, 3)
    assert exact.value is not None
    stopped = solve_draft(2, 3, time_limit=1e-9)
    assert not stopped.solved and stopped.value is None
    assert stopped.lower <= exact.value <= stopped.upper
    assert stopped.lower < stopped.upper
    by_card = {p.card: p.value for p in exact.picks}
    for p in stopped.picks:
        assert p.lower <= by_card[p.card] <= p.upper  # type: ignore[operator]
        assert p.value is None or p.value == by_card[p.card]
    assert stopped.line == [] and stopped.play == []


@pytest.mark.parametrize("k", [3, 4])
def test_a_limit_after_the_safety_pass_still_proves_a_value_of_0(k: int) -> None:
    """Every first pick is bounded by safety before any is valued, and the picks' bounds keep
    what safety proved: where the first picker is safe after some pick and the other player
    after every pick (k <= 5), a limit that stops the first valuing search still leaves the
    draft solved, worth 0. Here the valuing search stops at once, as a time limit would."""
    ds = DraftSearch(2, k)

    def stop(*_: object) -> tuple[Num, Num]:
        ds.stopped = True
        return ds.static

    ds.value = stop  # type: ignore[method-assign,assignment]
    result = solve_draft(2, k, search=ds, exact_picks=False)
    assert result.solved and result.value == 0
    # (no line: the limit came first; this once raised on the root taken for the line's end)
    assert result.line == [] and result.position is None and result.play == []
    worth = {p.card: (p.lower, p.upper) for p in result.picks}
    assert max(hi for _, hi in worth.values()) == 0  # the other player is safe after each
    assert worth[k * 2 + 4] == (
        Fraction(0),
        Fraction(0),
    )  # the top card keeps the first picker safe
    assert worth[1][0] < 0  # card 1 is not safe (it costs a head: test_values_...)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 2, "hand_size": 0}, "hand size must be at least 1, got 0"),
        ({"players": 10, "hand_size": 11}, "too many cards for the deck"),
        ({"players": 11, "hand_size": 1}, "players must be 2..10, got 11"),
        ({"players": 2, "hand_size": 2, "first_picker": 2}, "first picker must be a seat 1..2"),
        ({"players": 3, "hand_size": 2, "first_picker": -1}, "first picker must be a seat 1..3"),
        ({"players": 3, "hand_size": 1, "objective": "diff"}, "diff needs exactly 2 players"),
        ({"players": 2, "hand_size": 1, "objective": "best"}, "unknown objective 'best'"),
        ({"players": 2, "hand_size": 1, "player": 2}, "player must be a seat 1..2, got 3"),
        ({"players": 2, "hand_size": 1, "time_limit": 0}, "time limit must be positive"),
    ],
)
def test_bad_settings_are_one_line_value_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(DraftError, match=message) as info:
        solve_draft(**kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert "\n" not in str(info.value)


def test_draft_rules_are_the_engines() -> None:
    rules = draft_rules(3, 4, 2)
    assert rules == Rules.for_variant("logik", players=3, hand_size=4, first_picker=2)
    assert rules.deck_size == 16 and rules.draft


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--hand-size", "0"], "take6: error: hand size must be at least 1, got 0"),
        (["--players", "10", "--hand-size", "11"], "take6: error: too many cards for the deck"),
        (["--hand-size", "2", "--first-picker", "3"], "take6: error: first picker must be"),
        (["--hand-size", "2", "--first-picker", "0"], "take6: error: first picker must be"),
        (["--hand-size", "2", "--time-limit", "-1"], "take6: error: --time-limit must be"),
    ],
)
def test_cli_bad_settings_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["draft", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["draft", "--players", "2", "--hand-size", "2", "--first-picker", "2", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    r = solve_draft(2, 2, 1)
    assert data["solved"] is True
    assert data["value"] == str(r.value)
    assert [p["card"] for p in data["picks"]] == list(range(1, 9))
    assert {p["card"]: p["value"] for p in data["picks"]} == {p.card: str(p.value) for p in r.picks}
    assert [x["player"] for x in data["line"]] == [1, 0, 1, 0]
    assert data["nodes"] >= 1 and data["seconds"] >= 0
    assert data["first_picker"] == 1 and data["objective"] == "diff"


def test_cli_text_and_paranoid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "--players", "3", "--hand-size", "1", "--player", "2"]) == 0
    out = capsys.readouterr().out
    assert "objective paranoid" in out and "value " in out
    assert "first picks" in out and "principal draft line" in out and "play that follows" in out


def test_cli_time_limit_reports_not_solved(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "--hand-size", "3", "--time-limit", "1e-9"]) == 0
    assert "not solved" in capsys.readouterr().out
    assert main(["draft", "--hand-size", "3", "--time-limit", "1e-9", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solved"] is False and data["value"] is None
    assert Fraction(data["lower"]) <= Fraction(data["upper"])


def test_cli_tables_have_no_blank_column_header(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 13: the first-picks table's last column was headed by nothing."""
    assert main(["draft", "--players", "2", "--hand-size", "2"]) == 0
    headers = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("┃")]
    assert headers
    for line in headers:
        assert all(cell.strip() for cell in line.strip("┃").split("┃")), line
    assert any("optimal" in line for line in headers)


@pytest.mark.parametrize(
    ("players", "hand_size", "objective", "first_picker"),
    [(2, k, "diff", f) for k in (1, 2, 3, 4) for f in (0, 1)]
    + [(3, k, "paranoid", 0) for k in (1, 2)]
    + [(3, 2, "paranoid", 2), (4, 1, "paranoid", 1)],
)
def test_both_play_solvers_give_the_same_draft(
    players: int, hand_size: int, objective: str, first_picker: int
) -> None:
    """The leaves solved by the compiled core or by the Python search: the same draft values,
    every first pick's value, the same principal line (issue 10: k <= 4)."""
    native = solve_draft(players, hand_size, first_picker, objective, core="native")
    python = solve_draft(players, hand_size, first_picker, objective, core="python")
    assert (native.core, python.core) == ("native", "python")
    assert native.solved and python.solved
    assert native.value == python.value
    assert [(p.card, p.value) for p in native.picks] == [(p.card, p.value) for p in python.picks]
    assert native.line == python.line and native.position == python.position


def test_cli_draft_says_which_core_ran(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "--hand-size", "2", "--core", "python"]) == 0
    assert "leaves solved by the Python search" in capsys.readouterr().out
    assert main(["draft", "--hand-size", "2", "--core", "native", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["core"] == "native"
    assert main(["draft", "--hand-size", "2", "--memory", "1K"]) == 2
    assert "memory" in capsys.readouterr().err


def test_progress_reports_first_picks_bounded_then_valued() -> None:
    calls: list[DraftTick] = []
    result = solve_draft(2, 4, progress=calls.append)
    assert result.solved and result.value is not None
    phases = [c.phase for c in calls]
    assert phases == sorted(phases, key=["safety", "values"].index) and set(phases) == {
        "safety",
        "values",
    }
    for phase in ("safety", "values"):
        done = [c.picks_done for c in calls if c.phase == phase]
        assert done == sorted(done) and done[-1] == 12  # 12 cards to pick first
    assert all(c.picks == 12 for c in calls)
    for a, b in itertools.pairwise(calls):
        assert a.nodes <= b.nodes and a.leaves <= b.leaves and a.play_nodes <= b.play_nodes
        assert a.seconds <= b.seconds
    assert calls[-1].nodes <= result.nodes and 0 < calls[-1].play_nodes <= result.play_nodes
    # The proven bounds only narrow, always hold the value, and are shown in the line.
    bounds = [c.bounds for c in calls]
    assert None not in bounds
    for (lo0, hi0), (lo1, hi1) in itertools.pairwise(b for b in bounds if b is not None):
        assert lo0 <= lo1 <= result.value <= hi1 <= hi0
    assert bounds[0] != bounds[-1]  # (the static bounds at first)
    assert " <= value <= " in calls[0].text()


@pytest.mark.skipif(not native.AVAILABLE, reason="the compiled core is not built")
def test_progress_moves_during_a_leaf_search() -> None:
    """The compiled core calls back during a leaf search (after half a second; here at every
    poll), so the line moves while the draft's own counters stand still: the play nodes count
    the search under way."""
    ds = DraftSearch(2, 6)
    ticks: list[DraftTick] = []
    ds.progress = ticks.append
    play = ds.play
    assert isinstance(play, native.NativeSearch)
    play.progress_every = 0.0
    play._limits(None, None)
    ds.reported = float("-inf")
    hands = random.Random(2).sample(range(1, 17), 12)  # a leaf of some 4,500 play nodes
    masks = tuple(sum(1 << (c - 1) for c in hands[p::2]) for p in range(2))
    assert (ds.safe(masks, 0), ds.safe(masks, 1)) == (False, True)
    assert ticks, "no call during the leaf search"
    assert ticks[0].nodes == 0 and ticks[0].phase == "safety"
    assert 0 < ticks[0].play_nodes <= ds.play.stats.nodes


@pytest.mark.parametrize(
    ("players", "k", "first", "objective", "player"),
    [
        (2, 3, 0, "diff", 0),
        (2, 4, 0, "diff", 0),
        (2, 3, 1, "diff", 0),
        (3, 2, 0, "paranoid", 0),
        (3, 2, 1, "paranoid", 0),
    ],
)
def test_the_value_alone_bounds_the_losing_picks(
    players: int, k: int, first: int, objective: str, player: int
) -> None:
    # exact_picks=False: the same value and optimal first picks as the full draft; every other
    # pick bounded (its exact value inside) and proven worse, or exact where it came so.
    full = solve_draft(players, k, first, objective, player)
    fast = solve_draft(players, k, first, objective, player, exact_picks=False)
    assert fast.solved and fast.value == full.value
    assert fast.best_picks() == full.best_picks() and fast.line == full.line
    assert fast.value is not None
    maximise = fast.problem.max_side.count(first) == 1
    for p, q in zip(fast.picks, full.picks, strict=True):
        assert p.card == q.card and q.value is not None
        assert p.lower <= q.value <= p.upper
        if p.value is None:
            assert p.upper < fast.value if maximise else p.lower > fast.value


def test_a_pick_below_the_guess_is_still_valued() -> None:
    # First pick 1 of k = 3 is worth -1: it fails the window at the guess 0 and is then valued;
    # alone without exact pick values it keeps the bounds that show it below 0.
    one = solve_draft(2, 3, 0, only_pick=1)
    assert one.solved and one.value == -1 and one.picks[0].value == -1
    lone = solve_draft(2, 3, 0, only_pick=1, exact_picks=False)
    assert not lone.solved and lone.value is None and lone.picks[0].value is None
    assert lone.lower <= -1 <= lone.upper < 0


def test_cli_pick_values_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "--hand-size", "4", "--pick-values", "bounds", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solved"] is True and data["value"] == "0"
    assert main(["draft", "--hand-size", "4", "--pick-values", "bounds"]) == 0
    assert "value 0" in capsys.readouterr().out
    assert main(["draft", "--hand-size", "4", "--pick-values", "some"]) == 2
    assert "invalid choice: 'some'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("players", "hand_size", "first_picker"),
    [(2, 1, 0), (2, 2, 0), (2, 2, 1), (3, 1, 0), (3, 1, 2), (4, 1, 1)],
)
def test_safety_is_a_paranoid_value_of_0_by_naive_minimax(
    players: int, hand_size: int, first_picker: int
) -> None:
    """``draft_safety``: a seat can keep to no head after a first pick exactly when its
    ``paranoid`` value there is 0, by plain minimax over the engine's picks with baseline
    leaves; and from the start exactly when its paranoid draft value is 0."""
    r = draft_safety(players, hand_size, first_picker)
    assert r.decided and not r.interrupted and r.leaves > 0
    for seat in range(players):
        value, picks = naive_draft(players, hand_size, first_picker, "paranoid", seat)
        assert {c: a[seat] for c, a in r.picks.items()} == {c: v == 0 for c, v in picks.items()}
        assert r.safe_from_the_start(seat) == (value == 0)
    assert r.to_json()["safe"] == [r.safe_from_the_start(s) for s in range(players)]


def test_safety_stopped_by_a_limit_leaves_answers_open() -> None:
    r = draft_safety(2, 6, time_limit=1e-9)
    assert not r.decided and None in r.picks[1]
    assert all(r.safe_from_the_start(s) is None for s in range(2))
    assert r.to_json()["decided"] is False


def test_cli_safety(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "--hand-size", "3", "--safety"]) == 0
    out = capsys.readouterr().out
    assert "player 1 keeps to no head: yes (first picks 2-10)" in out
    assert "player 2 keeps to no head: yes (after 10 of 10 first picks)" in out
    assert main(["draft", "--players", "3", "--hand-size", "2", "--safety", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["safe"] == [True, True, True] and data["decided"] is True
    assert data["picks"][0] == {"card": 1, "safe": [False, True, True]}
    for extra in (["--player", "2"], ["--objective", "paranoid"], ["--pick-values", "bounds"]):
        assert main(["draft", "--hand-size", "2", "--safety", *extra]) == 2
        err = capsys.readouterr().err
        assert f"--safety answers for every player: {extra[0]} does not apply" in err
        assert len(err.strip().splitlines()) == 1
    assert main(["draft", "--hand-size", "6", "--safety", "--time-limit", "1e-9"]) == 0
    assert "not all decided within the time limit" in capsys.readouterr().out


def test_safety_from_the_start_is_one_pick_for_the_first_picker_every_pick_for_the_others() -> None:
    picks: dict[int, tuple[bool | None, ...]] = {
        1: (False, False, True),
        2: (True, True, None),
        3: (None, True, True),
    }
    r = DraftSafety(players=3, hand_size=1, first_picker=0, picks=picks)
    assert [r.safe_from_the_start(s) for s in range(3)] == [True, False, None]
    r = DraftSafety(players=3, hand_size=1, first_picker=1, picks=picks)
    assert [r.safe_from_the_start(s) for s in range(3)] == [False, True, None]
    r.picks = {1: (False, False, True), 2: (False, False, True)}
    assert [r.safe_from_the_start(s) for s in range(3)] == [False, False, True]
    assert r.decided and not DraftSafety(3, 1, 1, picks).decided


def test_readme_safety_findings_that_run_in_seconds() -> None:
    """The README's safety table at k = 5 (2 players) and its 3-player line at k = 3 (the
    first picker safe only with 5, 7, 12, 13: what the values say too)."""
    two = draft_safety(2, 5)
    assert [c for c, a in two.picks.items() if a[0]] == list(range(2, 15))
    assert all(a[1] for a in two.picks.values())
    three = draft_safety(3, 3)
    assert [c for c, a in three.picks.items() if a[0]] == [5, 7, 12, 13]
    assert all(a[1] and a[2] for a in three.picks.values())
    assert [three.safe_from_the_start(s) for s in range(3)] == [True, True, True]


def test_ctrl_c_in_the_drafts_own_code_keeps_proven_bounds() -> None:
    """A KeyboardInterrupt raised in the draft search itself (not in a leaf search, which
    catches its own) stops the draft with the bounds its tables hold, every pick's around its
    exact value."""
    exact = {p.card: p.value for p in solve_draft(2, 4).picks}
    ds = DraftSearch(2, 4)
    calls = [0]
    high_first = ds.high_first

    def interrupting(masks: tuple[int, ...]) -> list[int]:
        calls[0] += 1
        if calls[0] == 5_500:  # (4,853 calls in the safety pass, 6,082 in all)
            raise KeyboardInterrupt
        return high_first(masks)

    ds.high_first = interrupting  # type: ignore[method-assign]
    r = solve_draft(2, 4, search=ds)
    assert calls[0] == 5_500 and ds.interrupted and ds.stopped
    # The value was proven before the stop (so the result is solved, not "interrupted"), but
    # not every pick's: those keep bounds, and there is no line.
    assert r.solved and r.value == 0 and not r.interrupted and r.line == []
    for p in r.picks:
        assert p.lower <= exact[p.card] <= p.upper  # type: ignore[operator]
    assert any(p.value is not None for p in r.picks)
    assert any(p.value is None for p in r.picks)


@pytest.mark.parametrize(
    ("signum", "status", "extra"),
    [(signal.SIGTERM, 143, []), (signal.SIGINT, 130, []), (signal.SIGTERM, 143, ["--safety"])],
)
def test_a_stopped_draft_command_prints_what_it_proved(
    signum: int, status: int, extra: list[str]
) -> None:
    """``take6 draft`` stopped by Ctrl-C or ``kill`` prints the bounds (or the safety answers)
    found so far, as JSON here, and exits 130 or 143: the work is not lost."""
    hand = "8" if extra else "7"
    argv = [sys.executable, "-m", "take6.cli.main", "draft", "--hand-size", hand, "--json"]
    proc = subprocess.Popen(
        [*argv, "--no-progress", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_default,
    )
    time.sleep(4)  # (the whole draft takes minutes)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == status, err
    data = json.loads(out)
    assert data["interrupted"] is True
    if extra:
        assert data["decided"] is False and data["safe"] == [None, None]
    else:
        assert data["solved"] is False
        assert Fraction(data["lower"]) <= 0 <= Fraction(data["upper"])


@pytest.mark.skipif(not native.AVAILABLE, reason="threads are the compiled core's")
@pytest.mark.parametrize(("players", "k", "objective"), [(2, 5, "diff"), (3, 2, "paranoid")])
def test_leaves_searched_on_two_threads_give_the_same_draft(
    players: int, k: int, objective: str
) -> None:
    one = solve_draft(players, k, 0, objective, core="native", exact_picks=False)
    two = solve_draft(players, k, 0, objective, core="native", exact_picks=False, threads=2)
    assert (two.value, two.line, two.play) == (one.value, one.line, one.play)
    # (the bounds of a pick proven worse are fail-soft: the threads' order may change them)
    assert [(p.card, p.value) for p in two.picks] == [(p.card, p.value) for p in one.picks]
    assert two.value is not None
    for p in two.picks:
        assert p.lower <= p.upper
        if p.value is None:  # proven worse for the first picker (on the max side for seat 0)
            assert (p.upper < two.value) if players == 2 else (p.lower > two.value)


def test_bad_thread_counts_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in (0, 65, True):
        with pytest.raises(DraftError, match=r"threads must be 1\.\.64"):
            solve_draft(2, 1, threads=bad)
    assert main(["draft", "--hand-size", "1", "--threads", "0"]) == 2
    assert "--threads must be 1..64, got 0" in capsys.readouterr().err
    assert main(["draft", "--hand-size", "1", "--threads", "2", "--safety"]) == 2
    assert "does not apply to --safety" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("players", "k", "objective", "capacity"),
    [(2, 4, "diff", 40), (2, 5, "diff", 300), (3, 2, "paranoid", 30)],
)
def test_a_draft_within_a_small_table_budget_gives_the_same_draft(
    players: int, k: int, objective: str, capacity: int
) -> None:
    """The draft's own tables past their budget drop entries (the deepest, oldest first): the
    draft then searches more, and finds the same values and the same principal line."""
    full = solve_draft(players, k, 0, objective)
    ds = DraftSearch(players, k, 0, objective)
    ds.capacity = capacity  # (a budget in bytes allows at least MIN_ENTRIES)
    held: list[int] = []
    make_room = ds._make_room

    def watched() -> None:
        make_room()
        held.append(len(ds.leaves) + sum(map(len, ds.tables)) + sum(map(len, ds.safe_tables)))

    ds._make_room = watched  # type: ignore[method-assign]
    small = solve_draft(players, k, 0, objective, search=ds)
    assert small.dropped > 0 and full.dropped == 0
    assert small.leaves > full.leaves  # the work dropped was done again
    assert (small.value, small.line, small.play) == (full.value, full.line, full.play)
    assert [(p.card, p.value) for p in small.picks] == [(p.card, p.value) for p in full.picks]
    # Each time, down to three quarters of the budget, or to the first picks and the root
    # alone, which are kept whatever the budget.
    kept = len(ds.tables[0]) + len(ds.tables[1]) + len(ds.safe_tables[0]) + len(ds.safe_tables[1])
    assert held and all(n <= max(capacity * 3 // 4, kept) for n in held)


def test_the_table_budget_comes_from_the_memory_budget(capsys: pytest.CaptureFixture[str]) -> None:
    assert DraftSearch(2, 2, memory=3 << 30).capacity == (3 << 30) // ENTRY_BYTES
    assert DraftSearch(2, 2, memory=1 << 16).capacity == MIN_ENTRIES
    # 64 KiB: 4,096 entries, fewer than the k = 5 draft holds; the command says so.
    assert main(["draft", "--hand-size", "5", "--memory", "64K", "--pick-values", "bounds"]) == 0
    out = capsys.readouterr().out
    assert "value 0" in out and "table entries dropped to keep within the memory budget" in out


class _Shifted(DraftSearch):
    """A draft whose every drafted deal is worth ``shift`` more than its play: the draft value
    shifts by as much, so a draft worth 0 becomes one where every first pick fails the first
    pass's guess of 0 (safety, which proves values of 0, is left out)."""

    shift = Fraction(3, 2)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.safety_seats = []
        self.static = (self.static[0] + self.shift, self.static[1] + self.shift)

    def _leaf(self, masks: tuple[int, ...], alpha: Num, beta: Num) -> tuple[Num, Num]:
        lo, hi = super()._leaf(masks, alpha - self.shift, beta - self.shift)
        return lo + self.shift, hi + self.shift


@pytest.mark.parametrize(("players", "k", "objective"), [(3, 2, "paranoid"), (2, 4, "diff")])
def test_a_draft_not_worth_0_is_valued_one_pick_at_a_time(
    players: int, k: int, objective: str
) -> None:
    """Where every first pick fails the guess of 0 on the better side of the first picker's
    (here seat 1 on the min side under paranoid: the draft is worth 3/2 more than it is), the
    picks are valued one at a time, each tested at the best value so far: the draft's value
    and its optimal picks are the plain draft's, shifted."""
    plain = solve_draft(players, k, 0, objective, exact_picks=False, play=False)
    assert plain.value is not None
    shifted = solve_draft(
        players,
        k,
        0,
        objective,
        search=_Shifted(players, k, 0, objective),
        exact_picks=False,
        play=False,
    )
    assert shifted.value == plain.value + _Shifted.shift
    best = {p.card for p in plain.picks if p.value == plain.value}
    assert {p.card for p in shifted.picks if p.value == shifted.value} == best
    assert len(best) < len(shifted.picks)
    for p in shifted.picks:  # every other pick proven worse, and not valued exactly
        if p.card not in best:
            assert p.value is None, p
            worse = p.lower > shifted.value if objective == "paranoid" else p.upper < shifted.value
            assert worse, p
