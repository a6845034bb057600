"""The one progress line of the long commands (``take6.display.progress``): a rich live line on
a terminal, nothing in a pipe unless asked, a plain line every 10 s when asked; and every long
command (study, verify, conform, draft, check-certificate) shows it on a pseudo-terminal and
not in a pipe."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from take6.display.progress import ProgressLine, add_progress_option, clock, count, wanted

TAKE6 = [sys.executable, "-m", "take6"]
SERVE = f"{sys.executable} -m take6 conform --serve"


def _terminal() -> tuple[ProgressLine, io.StringIO]:
    buf = io.StringIO()
    return ProgressLine(Console(file=buf, force_terminal=True, width=120)), buf


def _plain() -> tuple[ProgressLine, io.StringIO]:
    buf = io.StringIO()
    return ProgressLine(Console(file=buf, force_terminal=False)), buf


def test_counts_and_clock() -> None:
    assert [count(n) for n in (950, 12_000, 3_400_000, 1_200_000_000)] == [
        "950",
        "12.0k",
        "3.4M",
        "1.2G",
    ]
    assert clock(3725.9) == "1:02:05"


def test_on_a_terminal_a_live_bar_that_is_removed_at_the_end() -> None:
    line, buf = _terminal()
    line.count_up("verify", 3, 12, 2.0, "deck.cards")
    line.count_up("verify", 6, 12, 4.0, "deck.total-heads")
    line.close()
    out = buf.getvalue()
    assert "verify" in out and "3/12" in out and "deck.cards" in out and "━" in out
    # the rate so far (3 items in 2 s) gives the time left of the last update: 6 left, 4 s
    assert "left 0:00:04" in out
    assert out.endswith("\x1b[2K")  # transient: the line is erased when the work ends
    assert line._live is None


def test_free_text_on_a_terminal() -> None:
    line, buf = _terminal()
    with line:
        line.show(1.0, "nodes 1.0k  0:00:01")
    assert "nodes 1.0k" in buf.getvalue()


def test_into_a_pipe_a_plain_line_every_10_seconds_and_a_final_one() -> None:
    line, buf = _plain()
    line.count_up("study", 1, 100, 1.0)  # too early: nothing
    assert buf.getvalue() == ""
    line.count_up("study", 40, 100, 12.0, "3.33 items/s")
    line.count_up("study", 50, 100, 15.0)  # 3 s later: nothing
    line.count_up("study", 100, 100, 18.0)  # the end: a final line
    line.close()
    lines = buf.getvalue().splitlines()
    # 39 items in the 11 s since the first call: 60 left take 16.9 s
    assert lines[0] == "study 40/100  3.33 items/s  0:00:12  left 0:00:16"
    assert lines[1].startswith("study 100/100")
    assert len(lines) == 2 and "\x1b" not in buf.getvalue()


def test_a_short_piped_run_prints_no_final_line() -> None:
    line, buf = _plain()
    line.count_up("study", 10, 10, 0.5)
    line.close()
    assert buf.getvalue() == ""


def test_the_option_and_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    add_progress_option(parser, "what it shows")
    assert parser.parse_args([]).progress is None
    assert parser.parse_args(["--progress"]).progress is True
    assert parser.parse_args(["--no-progress"]).progress is False
    assert wanted(True) and not wanted(False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert wanted(None)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert not wanted(None)


def _run_on_pty(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """Run the command with stderr on a pseudo-terminal and stdout in a pipe; the exit
    status, stdout and what the terminal received."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="120", LINES="40", TERM="xterm")
    env.pop("FORCE_COLOR", None)
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, cwd=cwd, env=env
    )
    os.close(slave)
    got = b""
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            proc.kill()
            raise AssertionError(f"no output for 120 s from {argv}")
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the pty is closed: the command ended
            break
        if not chunk:
            break
        got += chunk
    os.close(master)
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    proc.stdout.close()
    return proc.wait(timeout=60), out, got.decode(errors="replace")


COMMANDS = {
    "study": (
        ["study", "deals", "--hand-size", "3", "--deals", "40", "--workers", "1"],
        "deals deals",
    ),
    "verify": (["verify", "--only", "deck."], "verify"),
    "conform": (["conform", "--engine", SERVE, "--rule", "too-low"], "conform"),
    "draft": (["draft", "--players", "2", "--hand-size", "3"], "first picks bounded by safety"),
    "check-certificate": (["check-certificate", "cert.json"], "check-certificate"),
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_long_command_shows_progress_on_a_terminal_only(name: str, tmp_path: Path) -> None:
    argv, marker = COMMANDS[name]
    if name == "study":
        argv = [*argv, "--store", str(tmp_path / "s.sqlite")]
    if name == "check-certificate":
        deal = "logik:12 3/7/10/12 1,5,9,11|2,4,6,8"
        made = subprocess.run(
            [*TAKE6, "solve", deal, "--certificate", "cert.json"], cwd=tmp_path, capture_output=True
        )
        assert made.returncode == 0, made.stderr
    code, out, tty = _run_on_pty([*TAKE6, *argv], tmp_path)
    assert code == 0, tty
    assert marker in tty, tty
    assert "\x1b[" in tty  # drawn with terminal controls
    assert "\x1b" not in out  # the result on stdout, the line on the terminal only
    if name == "study":
        (tmp_path / "s.sqlite").unlink()
    piped = subprocess.run([*TAKE6, *argv], capture_output=True, text=True, cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert "\x1b" not in piped.stderr and "━" not in piped.stderr
    if name == "study":
        (tmp_path / "s.sqlite").unlink()
    quiet = _run_on_pty([*TAKE6, *argv, "--no-progress"], tmp_path)
    assert quiet[0] == 0 and marker not in quiet[2] and "━" not in quiet[2]


def test_a_terminal_is_redrawn_at_most_every_tenth_of_a_second() -> None:
    line, buf = _terminal()
    line.count_up("x", 1, 4, 0.0)
    line.count_up("x", 2, 4, 0.05)  # too soon: not drawn
    line.count_up("x", 3, 4, 0.2)
    line.close()
    out = buf.getvalue()
    assert "1/4" in out and "2/4" not in out and "3/4" in out
    line, buf = _terminal()
    line.count_up("x", 1, 4, 0.0)
    line.count_up("x", 4, 4, 0.01)  # the end is always drawn
    line.close()
    assert "4/4" in buf.getvalue()


def test_a_certificate_check_reports_the_nodes_it_proves(tmp_path: Path) -> None:
    from solver.verify.check import check_certificate

    deal = "logik:12 3/7/10/12 1,5,9,11|2,4,6,8"
    made = subprocess.run(
        [*TAKE6, "solve", deal, "--certificate", "c.json"], cwd=tmp_path, capture_output=True
    )
    assert made.returncode == 0, made.stderr
    seen: list[tuple[int, int]] = []
    report = check_certificate(tmp_path / "c.json", lambda p, n: seen.append((p, n)))
    nodes = len(json.loads((tmp_path / "c.json").read_text())["nodes"])
    assert [p for p, _ in seen] == list(range(1, report.nodes + 1))
    assert {n for _, n in seen} == {nodes} and report.nodes <= nodes
