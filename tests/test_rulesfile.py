"""Rules files (take6/io/rulesfile.py): every field, every malformed or contradictory file as a
one-line error naming the field, the presets round-tripped, and the rules' own deck and bull-head
table followed by the core, records, positions and the ``play``/``turn`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from take6.cards import HEADS
from take6.cli.main import main
from take6.errors import PositionError, RulesError
from take6.io.record import load_record, rules_from_json, rules_to_json
from take6.io.replay import replay
from take6.io.rulesfile import RulesFileError, load_rules, rules_from_toml, rules_to_toml
from take6.notation import format_position, parse_position
from take6.play.bots import make_bot
from take6.play.game import play_game, record_to_json
from take6.rules import Comparison, EndCondition, ProfiTie, Rules, Variant
from take6.turn import resolve_turn

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

EVERY_FIELD = """
base = "logik"
players = 3
hand_size = 6
rows = 3
row_capacity = 4
deck = ["1..20", 25, 30, "40..42"]
profi_left = true
profi_tie = "left"
simultaneous = true
pile_play = false
lowest_wins = false
draft = true
first_picker = 2
rotate_first_picker = false

[heads]
default = 1
multiples = [{ of = 10, heads = 3 }, { of = 5, heads = 2 }]
cards = { 7 = 0, 41 = 9 }

[end]
target = 50
comparison = ">"
rounds = 4
"""


def test_every_field_is_read() -> None:
    rules = rules_from_toml(EVERY_FIELD)
    cards = (*range(1, 21), 25, 30, 40, 41, 42)
    table = [0] * 43
    for c in cards:
        table[c] = 3 if c % 10 == 0 else 2 if c % 5 == 0 else 1
    table[7], table[41] = 0, 9
    expected = Rules(
        variant=Variant.LOGIK,
        players=3,
        hand_size=6,
        rows=3,
        row_capacity=4,
        deck_size=len(cards),
        cards=cards,
        head_table=tuple(table),
        end=EndCondition(50, Comparison.ABOVE, 4),
        profi_left=True,
        profi_tie=ProfiTie.PREFER_LEFT,
        simultaneous=True,
        pile_play=False,
        lowest_wins=False,
        draft=True,
        first_picker=2,
        rotate_first_picker=False,
    )
    assert rules == expected
    assert rules.deck() == cards and rules.heads[41] == 9 and rules.heads[7] == 0
    assert rules_from_toml(rules_to_toml(rules)) == rules


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_a_file_naming_a_preset_is_that_preset(variant: Variant, players: int) -> None:
    preset = Rules.for_variant(variant, players)
    assert rules_from_toml(f'base = "{variant.value}"\nplayers = {players}\n') == preset
    assert rules_from_toml(rules_to_toml(preset)) == preset


def test_the_printed_table_written_out_is_the_standard_table() -> None:
    spelled = """
deck = "1..104"
[heads]
cards = { 55 = 7 }
multiples = [{ of = 11, heads = 5 }, { of = 10, heads = 3 }, { of = 5, heads = 2 }]
default = 1
"""
    rules = rules_from_toml(spelled)
    assert rules == Rules() and rules.head_table is None and rules.heads is HEADS
    assert (
        rules_from_toml('heads = "standard"\ndeck = [' + ", ".join(map(str, range(1, 105))) + "]")
        == Rules()
    )
    # the standard heads on part of the deck stay the standard table
    partial = rules_from_toml('deck = "1..60"\nhand_size = 5\n[heads]\ndefault = "standard"\n')
    assert partial.standard_cards and partial.deck_size == 60


def test_end_with_rounds_alone_has_no_target() -> None:
    assert rules_from_toml("[end]\nrounds = 3").end == EndCondition(None, rounds=3)
    assert rules_from_toml("[end]\ntarget = 30").end == EndCondition(30)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('rows = "four"', "rows"),
        ("players = 11", "players"),
        ("players = true", "players"),
        ("hand_size = 0", "hand_size"),
        ("hand_size = 30", "deck"),  # 4 hands of 30 plus 4 rows > 104 cards
        ("rows = 0", "rows"),
        ("row_capacity = 0", "row_capacity"),
        ("first_picker = 4", "first_picker"),
        ("draft = true\npile_play = true", "draft"),
        ("profi_left = 1", "profi_left"),
        ('profi_tie = "middle"', "profi_tie"),
        ('base = "chess"', "base"),
        ("variant = 'profi'", "variant"),
        ("colour = 'red'", "colour"),
        ('deck = "1..x"', "deck"),
        ('deck = "20..10"', "deck"),
        ("deck = []", "deck"),
        ("deck = [1, 2, 2]", "deck"),
        ("deck = [0, 1]", "deck[0]"),
        ('deck = "1..2000"', "deck"),
        ('deck = "1..200"', "heads"),  # the standard table stops at 104
        ('deck = "1..20"', "deck"),  # 44 cards needed
        ('heads = "printed"', "heads"),
        ("heads = { default = -1 }", "heads.default"),
        ("heads = { default = 100 }", "heads.default"),
        ("heads = { cards = { 200 = 1 } }", "heads.cards"),
        ("heads = { cards = { x = 1 } }", "heads.cards"),
        ("heads = { cards = { 5 = 1 } }", "heads"),  # no heads for the other cards
        ("heads = { multiples = [{ of = 2 }] }", "heads.multiples[0]"),
        ("heads = { multiples = [{ of = 0, heads = 1 }] }", "heads.multiples[0].of"),
        ("heads = { shape = 1 }", "heads.shape"),
        ('deck = "1..200"\nheads = { default = "standard" }', "heads.default"),
        ("end = 66", "end"),
        ("[end]\nrounds = 0", "end"),
        ("[end]\ntarget = 0", "end"),
        ('[end]\ncomparison = "<"', "end.comparison"),
        ("[end]\nlast = 1", "end.last"),
        ("rows = ", "TOML"),
    ],
)
def test_a_malformed_file_is_one_line_naming_the_field(text: str, field: str) -> None:
    with pytest.raises(RulesFileError) as err:
        rules_from_toml(text, "rules file x.toml")
    message = str(err.value)
    assert "\n" not in message and message.startswith("rules file x.toml")
    assert field in message


def test_the_cli_gives_exit_2_and_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("row_capacity = 0\n")
    for argv in (
        ["play", "--rules", str(bad)],
        ["turn", "--rules", str(bad), "--rows", "1/2/3/4", "--plays", "5,6"],
        ["play", "--rules", str(tmp_path / "missing.toml")],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and err.startswith("take6: error:")
        assert "row_capacity" in err or "cannot read rules file" in err
    bad.write_bytes(b"rows = '\xff'\n")
    assert main(["play", "--rules", str(bad)]) == 2
    assert "not UTF-8" in capsys.readouterr().err


def test_rules_options_and_a_rules_file_exclude_each_other(
    capsys: pytest.CaptureFixture[str],
) -> None:
    house = str(EXAMPLES / "house.toml")
    for extra in (["--variant", "profi"], ["--players", "3"], ["--profi-tie", "left"], ["--above"]):
        assert main(["play", "--rules", house, *extra]) == 2
        assert "exclude each other" in capsys.readouterr().err
    assert (
        main(["turn", "--rules", house, "--variant", "profi", "--rows", "1/2/3", "--plays", "4,5"])
        == 2
    )


def test_custom_rules_in_the_core() -> None:
    rules = load_rules(str(EXAMPLES / "house.toml"))
    assert rules.deck() == tuple(range(1, 65)) and rules.rows == 3 and rules.row_capacity == 4
    assert rules.heads[22] == 1 and rules.heads[55] == 7 and rules.heads[30] == 3
    # a take scores the rules' heads: 22 and 33 are one head each here (5 in the printed game)
    turn = resolve_turn(((11, 22, 33, 44), (50,), (60,)), [45, 61, 62, 63, 64], rules)
    assert turn.placed[0].taken == (11, 22, 33, 44) and turn.heads(5)[0] == 4
    small = Rules.for_variant("standard", 2, cards=(3, 5, 7, 9, 11, 13), hand_size=1)
    assert small.in_deck(5) and not small.in_deck(4) and small.max_card == 13
    with pytest.raises(PositionError, match="outside the deck"):
        parse_position("standard 3/5/7/9 4|11", small)


def test_rules_core_refuses_an_impossible_table() -> None:
    with pytest.raises(RulesError, match="heads: the table stops at card 3"):
        Rules.for_variant("standard", 2, deck_size=10, hand_size=1, head_table=(0, 1, 1, 1))
    with pytest.raises(RulesError, match=r"heads: card 2 must carry 0\.\.99"):
        Rules.for_variant(
            "standard", 2, deck_size=6, hand_size=1, head_table=(0, 1, 100, 1, 1, 1, 1)
        )
    with pytest.raises(RulesError, match="listed twice"):
        Rules.for_variant("standard", 2, cards=(1, 2, 2, 3, 4, 5), hand_size=1)
    with pytest.raises(RulesError, match="disagrees"):
        Rules(cards=tuple(range(2, 60)), deck_size=104)
    # one form per deck and table: equal rule sets are equal values
    assert Rules.for_variant("standard", cards=tuple(range(1, 105))) == Rules()
    assert Rules().with_(head_table=HEADS) == Rules()


def test_positions_parse_under_the_rules_and_name_a_mismatch() -> None:
    rules = load_rules(str(EXAMPLES / "house.toml"))
    pos = parse_position("standard 1/20/40 2,3|4,5|6,7|8,9|10,11", rules)
    assert pos.rules == rules.with_(hand_size=2) and pos.rules.heads[22] == 1
    with pytest.raises(PositionError, match="written as 'profi'"):
        parse_position("profi 1/20/40 2|4", rules)
    with pytest.raises(PositionError, match=r"outside the deck 1\.\.64"):
        parse_position("standard 1/20/70 2|4|6|8|10", rules)


def test_records_carry_a_custom_deck_and_table() -> None:
    rules = rules_from_toml(EVERY_FIELD)
    data = rules_to_json(rules)
    assert data["cards"] == list(rules.deck()) and len(data["heads"]) == rules.deck_size
    assert rules_from_json(json.loads(json.dumps(data))) == rules
    assert "cards" not in rules_to_json(Rules()) and "heads" not in rules_to_json(Rules())
    house = load_rules(str(EXAMPLES / "house.toml"))
    record = play_game(house, [make_bot("safe")] * 5, 7, keep_states=False)
    loaded = load_record(json.dumps(record_to_json(record)))
    assert loaded.rules == house
    result = replay(loaded)
    assert result.illegal_step is None and not result.mismatches
    assert max(result.final.totals) >= 40 and result.final.is_over


def test_play_and_turn_with_a_rules_file(capsys: pytest.CaptureFixture[str]) -> None:
    house = str(EXAMPLES / "house.toml")
    assert main(["play", "--rules", house, "--seed", "3", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["rules"]["rows"] == 3 and record["rules"]["heads"][21] == 1  # card 22
    assert main(["play", "--rules", house, "--seed", "3"]) == 0
    log = capsys.readouterr().out
    assert "Final scores" in log and "row 4" not in log
    assert (
        main(
            [
                "turn",
                "--rules",
                house,
                "--rows",
                "11,22,33,44/50/60",
                "--plays",
                "45,61,62,63,64",
                "--json",
            ]
        )
        == 0
    )
    turn = json.loads(capsys.readouterr().out)
    assert turn["taken"][0] == [11, 22, 33, 44] and turn["heads"][0] == 4
    # one card alone, and a player count the file does not fix
    assert main(["turn", "--rules", house, "--rows", "11,22,33,44/50/60", "--plays", "45"]) == 0
    assert "4 heads" in capsys.readouterr().out
    assert main(["turn", "--rules", house, "--rows", "1/2/3", "--plays", "5,6"]) == 2
    assert "says players = 5" in capsys.readouterr().err


def test_a_game_that_might_never_end_is_refused_by_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--rules", str(EXAMPLES / "long-table.toml")]) == 2
    assert "might never end" in capsys.readouterr().err
    zero = rules_from_toml("[heads]\ndefault = 0\nmultiples = [{ of = 10, heads = 1 }]\n")
    assert not zero.always_ends and zero.min_heads_per_round == 0
    with pytest.raises(RulesError, match="0 heads"):
        zero.check_always_ends()


def test_the_notation_round_trips_under_the_rules() -> None:
    rules = rules_from_toml(EVERY_FIELD.replace("draft = true", "draft = false"))
    text = "logik 1,2/9,10/20,25 3,4|5,6|7,8"  # a listed deck is the rules file's to name
    pos = parse_position(text, rules)
    assert format_position(pos) == text and parse_position(format_position(pos), rules) == pos
    assert parse_position(text.replace("logik", "logik:25"), rules) == pos
    with pytest.raises(PositionError, match="deck of 24 cards"):
        parse_position(text.replace("logik", "logik:24"), rules)
