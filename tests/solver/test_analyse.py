"""``take6 analyse`` and :mod:`solver.analysis`: the study of a position turn by turn.

Checked against an independent brute force (the rules core's ``resolve_turn``, every row choice
tried by its owner, the stage games of 1 and 2 cards in closed form: no solver code), against
:func:`solver.api.solve` at every position of the line, and through the command line as a user
types it (text, ``--json``, ``--line``, errors, Ctrl-C in a terminal)."""

from __future__ import annotations

import json
import random
import re
import shutil
import sys
from fractions import Fraction
from pathlib import Path

import pexpect
import pytest
from solver_helpers import ctrl_c_default, random_position

from solver.analysis import TurnStudy, analyse
from solver.api import solve
from solver.errors import SolverError
from take6.cards import HEADS
from take6.cli.main import main
from take6.notation import parse_position
from take6.placement import Rows
from take6.position import Position
from take6.rules import Rules
from take6.turn import resolve_turn

Hands = tuple[tuple[int, ...], ...]

EXAMPLE = "logik:12 3/7/10/12 1,5,9,11|2,4,6,8"


# -- an independent brute force for 2 players, objective diff from player 1's view -------------


def brute_cell(
    rows: Rows, hands: Hands, cards: tuple[int, ...], rules: Rules, choices: tuple[int, ...] = ()
) -> Fraction:
    """Heads of player 2 minus heads of player 1 from this turn on, the turn's row choices made
    by their owners (player 1 maximises, player 2 minimises), optimal play after it."""
    turn = resolve_turn(rows, cards, rules, choices)
    if turn.pending is not None:
        values = [
            brute_cell(rows, hands, cards, rules, (*choices, m.row))
            for m in turn.pending.placement.options
        ]
        return max(values) if turn.pending.player == 0 else min(values)
    taken = [sum(HEADS[c] for c in t) for t in turn.taken(2)]
    after = tuple(tuple(c for c in h if c != cards[p]) for p, h in enumerate(hands))
    return taken[1] - taken[0] + brute_value(turn.rows, after, rules)


def brute_matrix(rows: Rows, hands: Hands, rules: Rules) -> list[list[Fraction]]:
    return [[brute_cell(rows, hands, (a, b), rules) for b in hands[1]] for a in hands[0]]


def brute_value(rows: Rows, hands: Hands, rules: Rules) -> Fraction:
    """The value of a position of at most 2 cards a hand: a pure saddle point, or the 2 x 2
    game's closed form."""
    if not hands[0]:
        return Fraction(0)
    m = brute_matrix(rows, hands, rules)
    lower = max(min(r) for r in m)
    upper = min(max(r[j] for r in m) for j in range(len(m[0])))
    if lower == upper:
        return lower
    assert len(m) == 2 and len(m[0]) == 2, "the brute force solves games of 2 cards at most"
    (a, b), (c, d) = m
    return (a * d - b * c) / (a + d - b - c)


def check_turn_by_brute_force(t: TurnStudy) -> None:
    pos = t.position
    hands = tuple(tuple(sorted(h)) for h in pos.hands)
    m = brute_matrix(pos.rows, hands, pos.rules)
    p1, p2 = t.players
    x = [p1.card(c).probability for c in hands[0]]
    y = [p2.card(c).probability for c in hands[1]]
    assert sum(x) == 1 and sum(y) == 1 and min(x + y) >= 0
    row_values = [sum((q * v for q, v in zip(y, r, strict=True)), Fraction(0)) for r in m]
    col_values = [sum(x[i] * m[i][j] for i in range(len(m))) for j in range(len(m[0]))]
    # The strategies shown prove the value: x guarantees at least t.value, y at most.
    assert min(col_values) == t.value == max(row_values)
    for i, c in enumerate(hands[0]):
        assert p1.card(c).against_optimal == row_values[i]
        assert p1.card(c).if_known == min(m[i])
    for j, c in enumerate(hands[1]):
        assert p2.card(c).against_optimal == col_values[j]
        assert p2.card(c).if_known == max(r[j] for r in m)
    for pt in t.players:
        cv = pt.card(pt.bot_card)
        sign = 1 if pt.maximises else -1
        assert pt.bot_loss == sign * (t.value - cv.against_optimal) >= 0
        assert pt.bot_loss_if_known == sign * (t.value - cv.if_known)
    # The cards played and each row choice of the turn, option by option.
    done: tuple[int, ...] = ()
    for ch in t.choices:
        for row, value in ch.options:
            assert value == brute_cell(pos.rows, hands, t.cards, pos.rules, (*done, row))
        best = (max if ch.player == 0 else min)(v for _, v in ch.options)
        assert dict(ch.options)[ch.chosen] == best
        done = (*done, ch.chosen)
    turn = resolve_turn(pos.rows, t.cards, pos.rules, done)
    assert turn.complete and t.heads == turn.heads(2)


def test_every_turn_agrees_with_an_independent_brute_force() -> None:
    """Random 2 x 3 positions (long rows, so takes and row choices happen): every turn of the
    studied line, every card value and every row option equals the brute force's."""
    rng = random.Random(7)
    mixed = choices = 0
    for _ in range(25):
        pos = random_position(rng, k=3, top=30)
        result, turns = analyse(pos, bot="safe")
        studied = list(turns)
        assert len(studied) == 3 and result.value == studied[0].value
        for t in studied:
            check_turn_by_brute_force(t)
            mixed += any(0 < cv.probability < 1 for pt in t.players for cv in pt.cards)
            choices += len(t.choices)
    assert mixed >= 3 and choices >= 3  # the sample covers what it is meant to


def test_a_mixed_three_by_three_root() -> None:
    """A root whose optimal strategies mix all three cards (value 186/53, from the solver and
    proven here by the strategies' guarantees in the brute-force matrix)."""
    pos = parse_position("logik 10,14,21,29/2,19,25,27/1,5,7,16,17/8,12,20,23 9,11,26|6,18,22")
    result, turns = analyse(pos, bot="random", seed=3)
    first = next(turns)
    assert result.value == first.value == Fraction(186, 53)
    assert all(0 < cv.probability < 1 for pt in first.players for cv in pt.cards)
    check_turn_by_brute_force(first)


@pytest.mark.parametrize("core", ["native", "python"])
def test_each_turn_is_the_value_solve_gives(core: str) -> None:
    """Along the line, each position's value is what ``solve`` gives for it, on either core,
    and the root's strategies are ``solve``'s."""
    pos = parse_position(EXAMPLE)
    result, turns = analyse(pos, core=core)
    fresh, _ = solve(pos, core=core)
    assert result.value == fresh.value == Fraction(-1, 3) and result.core == core
    assert result.strategies == fresh.strategies
    studied = list(turns)
    first = studied[0]
    for pt in first.players:
        assert {cv.card: cv.probability for cv in pt.cards if cv.probability} == (
            fresh.strategies[pt.player]
        )
    for t in studied:
        again, _ = solve(t.position, core=core)
        assert again.value == t.value


def test_a_three_player_coalition() -> None:
    """Paranoid with 3 players: a coalition member's card is worth ``v`` against the optimal
    strategy when it is in the coalition's support; every value is that of the restricted game."""
    pos = parse_position("logik:13 1/5/9/13 2,6,10|3,7,11|4,8,12")
    result, turns = analyse(pos, "paranoid", 0)
    studied = list(turns)
    assert len(studied) == 3
    t = studied[0]
    assert result.value == t.value == Fraction(5, 6)
    assert [pt.maximises for pt in t.players] == [False, True, True]
    for pt in t.players:
        for cv in pt.cards:
            if cv.probability:
                assert cv.against_optimal == t.value
            assert pt.maximises or cv.against_optimal >= t.value
            assert not pt.maximises or cv.against_optimal <= t.value
    for t in studied:
        assert solve(t.position, "paranoid", 0)[0].value == t.value


def test_line_and_max_turns() -> None:
    pos = parse_position(EXAMPLE)
    _, turns = analyse(pos, line=[(5, 2), (9, 4)], max_turns=3)
    studied = list(turns)
    assert [t.cards for t in studied[:2]] == [(5, 2), (9, 4)]
    assert [t.given for t in studied] == [True, True, False]
    assert str(studied[1].position) == "logik:12 2,5/7/10/12 1,9,11|4,6,8 -|3"


# -- the command line ---------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["analyse", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, err = run(capsys, EXAMPLE)
    assert code == 0, err
    assert "value -1/3  (≈ -0.333333)" in out
    assert out.count("── turn ") == 4
    assert "safe would play 6 for player 2: loses 6 against optimal play" in out
    assert "player 1's card 1 needs a row: row 1: -1/2, row 2: -1, row 3: -3, row 4: -1; " in out
    assert "takes row 1 (best); safe would take row 1" in out
    assert "4 turns studied; core native" in out
    row = next(ln for ln in out.splitlines() if ln.strip().startswith("2 (min) │    2"))
    assert [c.strip() for c in row.split("│")][2:8] == ["1", "2/3", "-1/3", "0", "0", "1/3"]


def test_json_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, EXAMPLE, "--json", "--bot", "random", "--seed", "3")
    assert code == 0, err
    data = json.loads(out)
    assert data["value"] == "-1/3" and data["bot"] == "random" and data["stopped"] is False
    _, turns = analyse(parse_position(EXAMPLE), bot="random", seed=3)
    for got, t in zip(data["turns"], turns, strict=True):
        assert got["index"] == t.index and got["value"] == str(t.value)
        assert got["cards"] == list(t.cards) and got["heads"] == list(t.heads)
        for gp, pt in zip(got["players"], t.players, strict=True):
            assert gp["player"] == pt.player and gp["bot"]["card"] == pt.bot_card
            assert [Fraction(c["if_known"]) for c in gp["cards"]] == [
                cv.if_known for cv in pt.cards
            ]
        assert [c["row"] for c in got["choices"]] == [ch.chosen for ch in t.choices]
    assert data["turns"][0]["choices"][0] == {
        "player": 0,
        "card": 1,
        "options": [
            {"row": 0, "value": "-1/2"},
            {"row": 1, "value": "-1"},
            {"row": 2, "value": "-3"},
            {"row": 3, "value": "-1"},
        ],
        "row": 0,
        "bot_row": data["turns"][0]["choices"][0]["bot_row"],
        "bot_loss": data["turns"][0]["choices"][0]["bot_loss"],
    }


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([EXAMPLE, "--line", "5,3"], "--line turn 1: card 3 is not in player 2's hand then"),
        ([EXAMPLE, "--line", "5,2/5,4"], "--line turn 2: card 5 is not in player 1's hand"),
        ([EXAMPLE, "--line", "5"], "--line turn 1 names 1 card for 2 players"),
        ([EXAMPLE, "--line", "5,x"], "--line turn 1: 'x' is not a number"),
        ([EXAMPLE, "--line", "1,2/5,4/9,6/11,8/3,3"], "--line names 5 turns, but the hands hold 4"),
        ([EXAMPLE, "--max-turns", "0"], "--max-turns must be at least 1, got 0"),
        (["kids 1/2/3/4/5 6|7"], "the solver handles simultaneous play"),
        (["logik:12 3/7/10/12 1,5|2,4", "--objective", "diff", "--player", "3"], "no player 3"),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert err.startswith("take6: error: ") and message in err and err.count("\n") == 1


def test_bad_bot_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, EXAMPLE, "--bot", "oracle")
    assert code == 2 and "invalid choice: 'oracle'" in err


def test_ctrl_c_in_a_terminal_reports_bounds_and_exits_130() -> None:
    """A position far too big to solve, Ctrl-C at the terminal: the proven bounds, status 130,
    no traceback."""
    take6 = shutil.which("take6", path=str(Path(sys.executable).parent))
    assert take6 is not None
    deal = "logik:24 9/3/19/5 6,7,10,11,12,14,18,21,22,24|1,2,4,8,13,15,16,17,20,23"
    child = pexpect.spawn(
        take6,
        ["analyse", deal, "--memory", "256M", "--threads", "1"],
        env={"NO_COLOR": "1", "COLUMNS": "100", "PATH": "/usr/bin:/bin"},
        encoding="utf-8",
        timeout=60,
        preexec_fn=ctrl_c_default,  # (a test run started in the background ignores SIGINT)
    )
    child.expect("nodes")  # the progress line: the search is under way
    child.sendintr()
    child.expect(pexpect.EOF)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    child.close()
    assert child.exitstatus == 130
    assert "not solved (interrupted)" in text and "<= value <=" in text
    assert "Traceback" not in text


def test_positions_of_every_kind_study_without_error() -> None:
    """Standard and Profi positions (Profi with the owner's tie choice) are studied too."""
    rng = random.Random(11)
    for variant in ("standard", "profi"):
        for _ in range(4):
            pos: Position = random_position(rng, variant=variant, k=3, top=40)
            result, turns = analyse(pos)
            studied = list(turns)
            assert studied[0].value == result.value
            for t in studied:
                check_turn_by_brute_force(t)


def test_the_readme_session_is_what_the_command_prints(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's ``take6 analyse`` session: every line it shows (``...`` elides turns) is
    printed, in this order."""
    import shlex

    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    readme = (Path(__file__).parent.parent.parent / "README.md").read_text()
    section = readme.split("### `take6 analyse`", 1)[1]
    block = re.search(r"```console\n(.*?)```", section, flags=re.S)
    assert block is not None
    command, _, expected = block.group(1).partition("\n")
    argv = shlex.split(command.removeprefix("$ "))
    assert argv[:2] == ["take6", "analyse"]
    assert main(argv[1:]) == 0
    got = [ln.rstrip() for ln in capsys.readouterr().out.splitlines()]
    at = 0
    timing = re.compile(r"\d+\.\d+ s, peak memory \d+ MiB")
    for line in expected.splitlines():
        if line == "...":
            continue
        want = timing.sub("", line.rstrip())
        while at < len(got) and timing.sub("", got[at]) != want:
            at += 1
        assert at < len(got), f"README line not printed (in order): {line!r}"
        at += 1


def test_a_line_of_the_wrong_width_is_refused_before_solving() -> None:
    with pytest.raises(SolverError, match="--line turn 2 names 3 cards for 2 players"):
        analyse(parse_position(EXAMPLE), line=[(5, 2), (9, 4, 6)])
