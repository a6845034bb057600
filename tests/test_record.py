"""Game records: JSON round trips, replay of legal and tampered records, malformed input, the
``take6 replay`` command and the record viewer."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from take6 import ChooseRow, EndCondition, Phase, Play, Rules, Take6Error
from take6.cli import main as cli
from take6.cli.main import main
from take6.display.viewer import RecordViewer
from take6.io.record import (
    Record,
    RecordError,
    action_from_json,
    load_record,
    rules_from_json,
    rules_to_json,
)
from take6.io.replay import replay
from take6.play.bots import make_bot
from take6.play.game import GameRecord, play_game, record_to_json

VARIANTS = [("standard", 4), ("taktik", 2), ("logik", 3), ("profi", 3), ("kids", 3)]


def game(variant: str = "standard", players: int = 3, seed: int = 1, **kw: Any) -> GameRecord:
    rules = Rules.for_variant(variant, players=players, **kw)
    bots = [make_bot(("safe", "random", "cheapest")[p % 3]) for p in range(players)]
    return play_game(rules, bots, seed)


def record_json(variant: str = "standard", players: int = 3, seed: int = 1) -> dict[str, Any]:
    return record_to_json(game(variant, players, seed))


def index_of(data: dict[str, Any], kind: str) -> int:
    return next(i for i, a in enumerate(data["actions"]) if a["type"] == kind)


# -- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_record_round_trips(variant: str, players: int) -> None:
    data = record_json(variant, players)
    rec = load_record(json.dumps(data))
    assert rec.to_json() == data
    assert load_record(data) == rec
    assert load_record(json.dumps(data).encode()) == rec


@given(
    st.sampled_from(["standard", "taktik", "logik", "profi", "kids"]),
    st.integers(2, 5),
    st.integers(0, 10_000),
)
def test_record_round_trips_any_rules(variant: str, players: int, seed: int) -> None:
    end = EndCondition(target=None, rounds=1)
    rules = Rules.for_variant(variant, players=players, end=end, hand_size=3)
    assert rules_from_json(rules_to_json(rules)) == rules
    g = play_game(rules, [make_bot("random")] * players, seed)
    rec = load_record(record_to_json(g))
    assert rec.actions == tuple(g.actions)
    assert replay(rec).ok


def test_record_to_json_is_record_from_play() -> None:
    g = game()
    rec = Record.from_play(g.rules, g.actions, g.final, g.seed, g.bots)
    assert record_to_json(g) == rec.to_json()
    assert rec.finished is True and rec.scores == g.final.totals


def test_rules_take_the_variant_preset_for_missing_fields() -> None:
    assert rules_from_json({"variant": "logik", "players": 3}) == Rules.for_variant("logik", 3)
    kids = rules_from_json({"variant": "kids", "players": 2, "end": {"target": None, "rounds": 1}})
    assert kids == Rules.for_variant("kids", 2)


# -- replay ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_replay_of_a_legal_record(variant: str, players: int) -> None:
    g = game(variant, players)
    result = replay(load_record(record_to_json(g)))
    assert result.ok, result.message()
    assert result.steps == len(g.actions)
    assert result.final == g.final
    assert result.message().startswith(f"legal and consistent: {len(g.actions)} actions")


def test_replay_names_the_step_of_a_card_not_in_hand() -> None:
    data = record_json()
    i = index_of(data, "play")
    hand_of_other = data["actions"][0]["order"][10]  # dealt to seat 1, not seat 0
    data["actions"][i] = {"type": "play", "player": 0, "card": hand_of_other}
    result = replay(load_record(data))
    assert not result.ok
    assert result.illegal_step == i + 1
    assert result.illegal_action == Play(0, hand_of_other)
    assert result.steps == i
    message = result.message()
    assert message.startswith(f"step {i + 1}: player 1 plays {hand_of_other} (")
    assert json.dumps(data["actions"][i]) in message
    assert f"card {hand_of_other} is not in player 1's hand" in message
    assert "\n" not in message


def test_replay_names_the_step_of_a_wrong_row_choice() -> None:
    for seed in range(1, 30):
        data = record_json(seed=seed)
        rows = [i for i, a in enumerate(data["actions"]) if a["type"] == "row"]
        if rows:
            break
    i = rows[0]
    data["actions"][i]["row"] = 9
    result = replay(load_record(data))
    assert result.illegal_step == i + 1
    assert isinstance(result.illegal_action, ChooseRow)


def test_replay_reports_a_bad_deal_and_an_action_after_the_end() -> None:
    data = record_json()
    data["actions"][0]["order"][0] = data["actions"][0]["order"][1]
    result = replay(load_record(data))
    assert result.illegal_step == 1
    assert "not a permutation" in (result.error or "")

    data = record_json()
    data["actions"].append({"type": "play", "player": 0, "card": 1})
    result = replay(load_record(data))
    assert result.illegal_step == len(data["actions"])
    assert "game-over" in result.message()


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("scores", [0, 0, 0], "'scores' says [0, 0, 0]"),
        ("rounds", [[1, 2, 3]], "'rounds' says [[1, 2, 3]]"),
        ("winners", [7], "'winners' says [7]"),
        ("finished", False, "'finished' says not finished"),
    ],
)
def test_replay_checks_the_recorded_results(key: str, value: Any, words: str) -> None:
    data = record_json()
    data[key] = value
    result = replay(load_record(data))
    assert result.illegal_step is None
    assert not result.ok
    assert words in result.message()


def test_a_stopped_game_is_consistent_when_it_says_so() -> None:
    g = game()
    stop = len(g.actions) // 2
    rec = Record.from_play(g.rules, g.actions[:stop], g.states[stop])
    assert rec.finished is False
    assert replay(rec).ok
    claims_end = Record(g.rules, tuple(g.actions[:stop]), finished=True)
    assert "'finished' says finished" in replay(claims_end).message()
    moves_only = Record(g.rules, tuple(g.actions[:stop]))
    assert replay(moves_only).ok


# -- malformed records ----------------------------------------------------------------------


def _mutate(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(RECORD)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


DELETE = object()
RECORD = record_json("standard", 2, 5)
PLAY = index_of(RECORD, "play")

MALFORMED = [
    (("format",), "chess-pgn", "record 'format' must be 'take6-game-record'"),
    (("version",), 2, "record 'version' 2 is not supported"),
    (("version",), True, "record 'version' True is not supported"),
    (("rules",), DELETE, "record lacks 'rules'"),
    (("actions",), DELETE, "record lacks 'actions'"),
    (("actions",), {"type": "deal"}, "record 'actions' must be a list"),
    (("colour",), "blue", "record has unknown key(s) ['colour']"),
    (("rules", "players"), 11, "players must be 2..10, got 11"),
    (("rules", "players"), "2", "record 'rules' 'players' must be an integer, got '2'"),
    (("rules", "variant"), "chess", "record 'rules' 'variant' must be one of"),
    (("rules", "draft"), 1, "record 'rules' 'draft' must be true or false, got 1"),
    (("rules", "hand_size"), 1.5, "record 'rules' 'hand_size' must be an integer, got 1.5"),
    (("rules", "end", "target"), None, "record 'rules' 'end': end condition needs a target"),
    (("rules", "end", "comparison"), "<", "'comparison' must be one of ['>=', '>']"),
    (("rules", "profi_tie"), "middle", "'profi_tie' must be one of ['owner', 'right', 'left']"),
    (("rules", "speed"), 3, "record 'rules' has unknown key(s) ['speed']"),
    (("actions", 0, "order"), "1,2,3", "record actions[0] (step 1) 'order' must be a list"),
    (
        ("actions", PLAY, "type"),
        "move",
        f"record actions[{PLAY}] (step {PLAY + 1}) has type 'move'",
    ),
    (
        ("actions", PLAY, "card"),
        "40",
        f"record actions[{PLAY}] (step {PLAY + 1}) 'card' must be an integer, got '40'",
    ),
    (("actions", PLAY, "player"), True, "'player' must be an integer, got True"),
    (("actions", PLAY, "row"), 1, "(play) has unknown key(s) ['row']"),
    (("actions", PLAY, "card"), DELETE, f"record actions[{PLAY}] (step {PLAY + 1}) (play) lacks"),
    (("seed",), "one", "record 'seed' must be an integer, got 'one'"),
    (("bots",), "safe", "record 'bots' must be a list of names"),
    (("rounds",), [[1, "x"]], "record rounds[0][1] must be an integer, got 'x'"),
    (("scores",), 12, "record 'scores' must be a list of integers, got 12"),
    (("finished",), "yes", "record 'finished' must be true or false, got 'yes'"),
]


@pytest.mark.parametrize(("path", "value", "words"), MALFORMED)
def test_malformed_records_give_one_line_typed_errors(
    path: tuple[Any, ...], value: Any, words: str
) -> None:
    with pytest.raises(RecordError) as info:
        load_record(_mutate(path, value))
    message = str(info.value)
    assert words in message
    assert "\n" not in message and len(message) < 300
    assert isinstance(info.value, Take6Error) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "not valid JSON (Expecting property name"),
        ("[1, 2]", "record must be a JSON object, got [1, 2]"),
        ("1" * 5000, "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
        ('"take6"', "record must be a JSON object"),
    ],
)
def test_malformed_json_text(text: str, words: str) -> None:
    with pytest.raises(RecordError, match="^" + words.replace("(", r"\(").replace("[", r"\[")):
        load_record(text)


def test_action_from_json_checks_only_the_shape() -> None:
    assert action_from_json({"type": "row", "player": 1, "row": 2}) == ChooseRow(1, 2)
    with pytest.raises(RecordError, match="action must be a JSON object"):
        action_from_json(["play", 1, 2])


# -- take6 replay ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _no_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    # As in test_cli.py: the core commands must not depend on which plugins are installed.
    monkeypatch.setattr(cli, "_plugins", lambda only=None: [])


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_cli_replay_of_a_played_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "play", "--players", "3", "--seed", "2", "--json")
    assert code == 0
    path = write(tmp_path, out)
    code, out, err = run(capsys, "replay", path)
    assert (code, err) == (0, "")
    assert out.startswith("legal and consistent: ")
    code, out, err = run(capsys, "replay", path, "--json")
    assert code == 0
    result = json.loads(out)
    assert result["ok"] is True and result["illegal_step"] is None
    assert result["scores"] == json.loads(Path(path).read_text())["scores"]


def test_cli_replay_of_a_tampered_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = copy.deepcopy(RECORD)
    data["actions"][PLAY]["card"] = 200
    code, out, err = run(capsys, "replay", write(tmp_path, data))
    assert code == 1
    assert err == ""
    assert out.startswith(
        f'step {PLAY + 1}: player 1 plays 200 ({{"type": "play", "player": 0, "card": 200}})'
    )
    assert out.count("\n") == 1
    code, out, _ = run(capsys, "replay", write(tmp_path, data), "--json")
    result = json.loads(out)
    assert code == 1 and result["ok"] is False
    assert result["illegal_step"] == PLAY + 1
    assert result["illegal_action"] == data["actions"][PLAY]


def test_cli_replay_of_wrong_scores(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = copy.deepcopy(RECORD)
    data["scores"] = [s + 1 for s in data["scores"]]
    code, out, _ = run(capsys, "replay", write(tmp_path, data))
    assert code == 1
    assert out.startswith("replay contradicts the record: 'scores' says")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("not json", "take6: error: not valid JSON"),
        ('{"format": "take6-game-record"}', "take6: error: record lacks 'version'"),
        (None, "take6: error: cannot read the game record"),
    ],
)
def test_cli_replay_of_malformed_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | None, words: str
) -> None:
    path = write(tmp_path, content) if content is not None else str(tmp_path / "missing.json")
    code, out, err = run(capsys, "replay", path)
    assert code == 2
    assert out == ""
    assert err.startswith(words)
    assert err.count("\n") == 1


def test_cli_replay_reads_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(RECORD)))
    code, out, _ = run(capsys, "replay", "-")
    assert code == 0 and out.startswith("legal and consistent")


def test_cli_replay_usage(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "replay")
    assert code == 2
    assert "the following arguments are required: FILE" in err


# -- the viewer -----------------------------------------------------------------------------


def test_viewer_steps_through_a_record() -> None:
    g = game("logik", 2)
    viewer = RecordViewer(load_record(record_to_json(g)))
    assert len(viewer) == len(g.actions) + 1
    assert viewer.state == g.states[0] and viewer.action is None
    assert viewer.next().state == g.states[1]
    assert viewer.next(5).step == 6
    assert viewer.prev(10).step == 0
    assert viewer.last().state == g.final and viewer.state.phase is Phase.GAME_OVER
    assert viewer.goto(3).action == g.actions[2]
    assert viewer.first().step == 0
    with pytest.raises(IndexError):
        viewer.goto(len(viewer))
    html = viewer.goto(40)._repr_html_()
    assert html.startswith("<div><div><code>step 40/") and "<svg" in html
    assert viewer._repr_svg_().startswith("<svg")
    assert repr(viewer).startswith("<RecordViewer step 40/")


def test_viewer_stops_before_an_illegal_action() -> None:
    data = copy.deepcopy(RECORD)
    data["actions"][PLAY]["card"] = 200
    viewer = RecordViewer(load_record(data))
    assert len(viewer) == PLAY + 1
    html = viewer.last()._repr_html_()
    assert f"step {PLAY + 1}: player 1 plays 200" in html
    assert "&quot;card&quot;: 200" in html  # the action's JSON, escaped
