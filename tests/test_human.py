"""``take6 play --bots human,...`` as a person uses it: a terminal (a pty driven by pexpect)
running the installed command, answering the prompts with good and bad answers, Ctrl-D and
Ctrl-C; and the same agent driven in-process for every variant (Logik picks, Profi choices,
Kids), where each answer is read off the output the person would see."""

from __future__ import annotations

import builtins
import json
import re
import shutil
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

from take6.cli import main as cli
from take6.cli.main import main
from take6.io.record import load_record
from take6.io.replay import replay
from take6.notation import parse_position
from take6.state import ChooseRow

TAKE6 = shutil.which("take6", path=str(Path(sys.executable).parent))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")

CARD_PROMPT = r"your card: "
ROW_PROMPT = r"row for card (\d+) \(([\d, ]+)\): "
PICK_PROMPT = r"your pick: "


def plain(text: str | bytes) -> str:
    s = text.decode() if isinstance(text, bytes) else text
    return ANSI.sub("", s)


def spawn(*args: str) -> pexpect.spawn:
    assert TAKE6 is not None, "the take6 console script is not installed next to python"
    env = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "xterm", "PATH": "/usr/bin:/bin"}
    return pexpect.spawn(
        TAKE6,
        list(args),
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 100),
        # Ctrl-C as at a terminal, even when the test run itself was started in the background
        # (which leaves SIGINT ignored, and Python keeps it so in the child).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def last_cards(screen: str, label: str) -> list[int]:
    """The cards of the last line ``label: ...`` on ``screen`` (heads suffixes dropped)."""
    lines = [ln for ln in screen.splitlines() if ln.startswith(f"{label}: ")]
    assert lines, f"no {label!r} line in {screen[-500:]!r}"
    return [int(tok.split("·")[0]) for tok in lines[-1].split(": ", 1)[1].split()]


def test_a_whole_game_in_a_terminal_with_bad_answers(tmp_path: Path) -> None:
    """A full 2-player game to its final scores: each garbled or illegal answer is refused with
    its reason and asked again; the record written replays legally and consistently."""
    record = tmp_path / "game.json"
    child = spawn("play", "--bots", "human,random", "--players", "2", "--seed", "4", "--rounds",
                  "2", "--record", str(record))  # fmt: skip
    screen = ""
    refused = {"garbled": False, "not in hand": False, "bad row": False, "empty": False}
    cards_played = 0
    while True:
        got = child.expect([CARD_PROMPT, ROW_PROMPT, r"Winner", pexpect.EOF])
        screen += plain(child.before or "")
        if got == 0:
            hand = last_cards(screen, "your hand")
            if not refused["garbled"]:
                child.sendline("twelve")
                child.expect(CARD_PROMPT)
                assert "refused: 'twelve' is not a card number" in plain(child.before)
                refused["garbled"] = True
            elif not refused["not in hand"]:
                missing = next(c for c in range(1, 105) if c not in hand)
                child.sendline(str(missing))
                child.expect(CARD_PROMPT)
                assert f"refused: card {missing} is not in your hand" in plain(child.before)
                refused["not in hand"] = True
            elif not refused["empty"]:
                child.sendline("")
                child.expect(CARD_PROMPT)
                assert "refused: no answer" in plain(child.before)
                refused["empty"] = True
            child.sendline(str(hand[0]))  # the lowest card: often too low, so rows are asked
            cards_played += 1
        elif got == 1:
            options = [int(r) for r in child.match.group(2).split(", ")]
            if not refused["bad row"]:
                child.sendline("9")
                child.expect(ROW_PROMPT)
                assert f"refused: row 9 is not a choice for card {child.match.group(1)}" in (
                    plain(child.before)
                )
                refused["bad row"] = True
            child.sendline(str(options[-1]))
        elif got == 2:
            child.expect(pexpect.EOF)
            screen += plain(child.before or "")
            break
        else:
            raise AssertionError(f"the game ended without final scores: {screen[-800:]}")
    child.close()
    assert child.exitstatus == 0
    assert all(refused.values()), refused
    assert cards_played == 20  # 2 rounds of 10 turns
    assert "Final scores" in screen and "P1 (you)" in screen
    assert f"record written to {record}" in screen
    result = replay(load_record(json.loads(record.read_text())))
    assert result.ok and result.final.is_over
    assert load_record(json.loads(record.read_text())).bots == ("human", "random")


def test_the_seed_reproduces_the_game(tmp_path: Path) -> None:
    """The same seed and the same answers give the same game (deals and bots' cards)."""
    texts = []
    first_hands = []
    for i in range(2):
        child = spawn("play", "--bots", "human,random,safe", "--players", "3", "--seed", "11",
                      "--record", str(tmp_path / f"g{i}.json"))  # fmt: skip
        for turn in range(3):
            child.expect(CARD_PROMPT)
            hand = last_cards(plain(child.before), "your hand")
            if turn == 0:
                first_hands.append(hand)
            child.sendline(str(hand[-1]))  # the highest card: never too low
        child.expect(CARD_PROMPT)
        texts.append(plain(child.before))
        child.sendeof()
        child.expect(pexpect.EOF)
        child.close()
    assert json.loads((tmp_path / "g0.json").read_text()) == json.loads(
        (tmp_path / "g1.json").read_text()
    )
    assert texts[0] == texts[1]
    other = spawn("play", "--bots", "human,random,safe", "--players", "3", "--seed", "12")
    other.expect(CARD_PROMPT)
    assert first_hands[0] == first_hands[1] != last_cards(plain(other.before), "your hand")
    other.sendeof()
    other.expect(pexpect.EOF)
    other.close()


def test_end_of_input_abandons_cleanly_and_keeps_the_record(tmp_path: Path) -> None:
    record = tmp_path / "stopped.json"
    child = spawn("play", "--bots", "human,safe", "--players", "2", "--seed", "1",
                  "--record", str(record))  # fmt: skip
    child.expect(CARD_PROMPT)
    hand = last_cards(plain(child.before), "your hand")
    child.sendline(str(hand[-1]))
    child.expect(CARD_PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    tail = plain(child.before)
    child.close()
    assert child.exitstatus == 0
    assert (
        f"take6: game abandoned at round 1, turn 2 (end of input); record written to {record}"
    ) in tail
    assert "Traceback" not in tail
    rec = load_record(json.loads(record.read_text()))
    assert rec.finished is False
    result = replay(rec)
    assert result.ok and not result.final.is_over and result.final.turn == 1


def test_ctrl_c_abandons_with_status_130() -> None:
    child = spawn("play", "--bots", "human,random", "--players", "2", "--seed", "2")
    child.expect(CARD_PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    tail = plain(child.before)
    child.close()
    assert child.exitstatus == 130
    assert "take6: game abandoned at round 1, turn 1 (interrupted)" in tail
    assert "Traceback" not in tail


def test_quit_and_help() -> None:
    child = spawn("play", "--bots", "human", "--players", "2", "--seed", "2")  # hot seat
    child.expect(CARD_PROMPT)
    assert "hot seat" in plain(child.before)
    child.sendline("help")
    child.expect(CARD_PROMPT)
    assert "Type the number of the card you play this turn" in plain(child.before)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "game abandoned at round 1, turn 1 (P1 (human) typed 'quit')" in plain(child.before)


# -- in-process: every variant, answers read off the output -------------------------------------


Answer = Callable[[str, str], str]


def drive(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    answer: Answer,
) -> tuple[int, str, str, list[str]]:
    """Run ``take6`` with ``input`` answered by ``answer(prompt, output so far)``; returns the
    exit status, the whole output, stderr and the prompts asked."""
    monkeypatch.setattr(cli, "_plugins", lambda only=None: [])
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    seen: list[str] = []
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        seen.append(capsys.readouterr().out)
        prompts.append(prompt)
        return answer(prompt, "".join(seen))

    monkeypatch.setattr(builtins, "input", fake_input)
    code = main(argv)
    out, err = capsys.readouterr()
    seen.append(out)
    return code, "".join(seen), err, prompts


def lowest_card(prompt: str, screen: str) -> str:
    if prompt.endswith("your card: "):
        return str(last_cards(screen, "your hand")[0])
    if prompt.endswith("your pick: "):
        return str(last_cards(screen, "face up")[0])
    m = re.search(ROW_PROMPT, prompt)
    assert m is not None, prompt
    return m.group(2).split(", ")[0]


@pytest.mark.parametrize(
    "variant", ["standard", "taktik", "logik", "profi", "kids"], ids=lambda v: str(v)
)
def test_every_variant_plays_to_the_end(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    variant: str,
) -> None:
    record = tmp_path / "r.json"
    argv = ["play", "--variant", variant, "--players", "3", "--bots", "human,safe,random",
            "--seed", "5", "--rounds", "1", "--record", str(record)]  # fmt: skip
    code, out, err, prompts = drive(monkeypatch, capsys, argv, lowest_card)
    assert code == 0, err
    assert "Final scores" in out and "Winner" in out
    rec = load_record(json.loads(record.read_text()))
    assert replay(rec).ok and rec.finished is True
    cards = sum(p.endswith("your card: ") for p in prompts)
    if variant == "kids":
        assert cards == 0  # the top of the pile: nothing to decide
        assert "turned up: P1 (you)" in out and "P1 (you), row for card" in "".join(prompts)
    else:
        assert cards == rec.rules.hand_size
    picks = sum(p.endswith("your pick: ") for p in prompts)
    assert picks == (rec.rules.hand_size if variant == "logik" else 0)
    rows = [p for p in prompts if "row for card" in p]
    row_actions = [a for a in rec.actions if isinstance(a, ChooseRow) and a.player == 0]
    assert len(rows) == len(row_actions)


def test_profi_tie_is_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Profi left/right tie is the human's choice, asked with both options."""
    asked: list[str] = []

    def answer(prompt: str, screen: str) -> str:
        if "row for card" in prompt:
            asked.append(screen.rsplit("P1 (you), your card", 1)[-1])
        return lowest_card(prompt, screen)

    for seed in range(1, 40):
        asked.clear()
        argv = ["play", "--variant", "profi", "--players", "4", "--bots",
                "human,random,random,random", "--seed", str(seed), "--rounds", "1"]  # fmt: skip
        code, _, err, _ = drive(monkeypatch, capsys, argv, answer)
        assert code == 0, err
        if any("as close to the start of one row" in a for a in asked):
            tie = next(a for a in asked if "as close to the start" in a)
            assert "at the start of the row" in tie and "at the end of the row" in tie
            return
    raise AssertionError("no Profi tie for the human in 39 seeds")


def test_human_with_json_or_summary_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for flag in ("--json", "--summary"):
        code, _, err, prompts = drive(
            monkeypatch, capsys, ["play", "--players", "2", "--bots", "human,safe", flag],
            lowest_card,
        )  # fmt: skip
        assert code == 2 and not prompts
        assert err.strip().startswith(f"take6: error: {flag} is for games between bots")


def test_bot_game_record_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--record FILE`` works for bot games too, and equals ``--json``."""
    monkeypatch.setattr(cli, "_plugins", lambda only=None: [])
    path = tmp_path / "bots.json"
    assert main(["play", "--players", "3", "--seed", "5", "--record", str(path)]) == 0
    capsys.readouterr()
    assert main(["play", "--players", "3", "--seed", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(path.read_text())
    assert main(["play", "--record", str(tmp_path / "no" / "such" / "dir.json")]) == 2
    assert "cannot write the game record" in capsys.readouterr().err


def test_the_readme_session_is_what_the_command_prints(tmp_path: Path) -> None:
    """The README's piped session: its lines (``...`` elides) appear in this order in what the
    command prints for the same answers, and the record it names is written."""
    import shlex
    import subprocess

    readme = (Path(__file__).parent.parent / "README.md").read_text()
    section = readme.split("### `take6 play --bots human,...`", 1)[1]
    block = re.search(r"```console\n(.*?)```", section, flags=re.S)
    assert block is not None
    command, _, expected = block.group(1).partition("\n")
    printf, _, play = command.removeprefix("$ ").partition(" | ")
    answers = shlex.split(printf)[1].encode().decode("unicode_escape")
    argv = shlex.split(play)
    assert argv[0] == "take6" and TAKE6 is not None
    proc = subprocess.run(
        [TAKE6, *argv[1:]],
        input=answers,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"NO_COLOR": "1", "COLUMNS": "100", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    got = [ln.rstrip() for ln in (proc.stdout + proc.stderr).splitlines()]
    at = 0
    for line in expected.splitlines():
        if line == "...":
            continue
        while at < len(got) and got[at] != line.rstrip():
            at += 1
        assert at < len(got), f"README line not printed (in order): {line!r}"
        at += 1
    assert load_record(json.loads((tmp_path / "game.json").read_text())).finished is False


def test_an_unwritable_record_is_refused_before_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = str(tmp_path / "no" / "such" / "dir.json")
    code, _, err, prompts = drive(
        monkeypatch, capsys, ["play", "--players", "2", "--bots", "human,safe", "--record", bad],
        lowest_card,
    )  # fmt: skip
    assert code == 2 and not prompts
    assert err.startswith("take6: error: cannot write the game record")
    assert "dir.json': No such file or directory" in err


def test_open_hands_are_shown_without_the_cards_chosen_face_down(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In Logik every hand is known: the prompt shows the others' hands as they were before
    the turn (a card a bot already chose face down is still in its hand) and the position in
    the notation ``take6 analyse`` reads."""
    screens: list[str] = []

    def answer(prompt: str, screen: str) -> str:
        if prompt.endswith("your card: "):
            screens.append(screen.rsplit("────", 1)[-1])
        return lowest_card(prompt, screen)

    argv = ["play", "--variant", "logik", "--players", "2", "--bots", "safe,human",
            "--seed", "3", "--hand-size", "3", "--rounds", "1"]  # fmt: skip
    code, _, err, _ = drive(monkeypatch, capsys, argv, answer)
    assert code == 0, err
    assert len(screens) == 3
    for turn, screen in enumerate(screens):
        held = last_cards(screen, "P1 (safe) holds (known to all)")
        assert len(held) == 3 - turn == len(last_cards(screen, "your hand"))
        line = next(ln for ln in screen.splitlines() if ln.startswith("position (study it"))
        pos = parse_position(line.split(": ", 1)[1])
        assert [list(h) for h in pos.hands] == [held, last_cards(screen, "your hand")]
    standard = ["play", "--players", "3", "--bots", "human,safe", "--seed", "3", "--rounds", "1"]
    standard[standard.index("human,safe")] = "human,safe,safe"
    _, out, _, _ = drive(monkeypatch, capsys, standard, lowest_card)
    assert "holds" not in out and "position (study it" not in out
    taktik = ["play", "--variant", "taktik", "--players", "3", "--bots", "human,safe,safe",
              "--seed", "3", "--rounds", "1"]  # fmt: skip
    _, out, _, _ = drive(monkeypatch, capsys, taktik, lowest_card)  # the split is not known
    assert "holds" not in out and "position (study it" not in out
    taktik2 = ["play", "--variant", "taktik", "--players", "2", "--bots", "human,safe",
               "--seed", "3", "--rounds", "1"]  # fmt: skip
    _, out, _, _ = drive(monkeypatch, capsys, taktik2, lowest_card)
    assert "P2 (safe) holds (known to all)" in out and "position (study it" in out


def test_kill_abandons_with_its_status_and_keeps_the_record(tmp_path: Path) -> None:
    """``kill`` (SIGTERM) at a prompt ends the game as Ctrl-C does: one line, the record of
    the game so far written, exit status 143."""
    import signal

    record = tmp_path / "killed.json"
    child = spawn("play", "--bots", "human,random", "--players", "2", "--seed", "2",
                  "--record", str(record))  # fmt: skip
    child.expect(CARD_PROMPT)
    child.sendline(str(last_cards(plain(child.before), "your hand")[-1]))
    child.expect(CARD_PROMPT)
    child.kill(signal.SIGTERM)
    child.expect(pexpect.EOF)
    tail = plain(child.before)
    child.close()
    assert child.exitstatus == 128 + signal.SIGTERM, tail
    assert "game abandoned at round 1, turn 2 (SIGTERM received); record written" in tail
    rec = load_record(json.loads(record.read_text()))
    assert rec.finished is False and len(rec.actions) == 3  # the deal and one turn
