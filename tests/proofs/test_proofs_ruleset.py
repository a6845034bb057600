"""``take6 verify --rules FILE``: the obligations re-proved for a rule set, and every finding's
witness replayed here through the engine, independently of the replay the obligation did."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from proofs import ruleset
from proofs.core import Outcome, Status, run
from take6.cli.main import main
from take6.errors import RulesError
from take6.io.rulesfile import load_rules, rules_from_toml
from take6.placement import Reason, Side, place
from take6.rules import Rules
from take6.state import Deal, Phase, Pick, Play, new_game, random_deal, step
from take6.turn import Placed, RoundScored

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def outcomes(rules: Rules) -> dict[str, Outcome]:
    return {ob.name: run(ob) for ob in ruleset.obligations(rules)}


def replay_forever(rules: Rules, witness: dict[str, object]) -> None:
    """The witness round through the engine: nothing scored, the game goes on, all totals 0."""
    state = new_game(rules)
    hands = witness["hands"]
    assert isinstance(hands, list)
    if "deal" in witness:
        order = witness["deal"]
        assert isinstance(order, list) and sorted(order) == list(rules.deck())
        state = step(state, Deal(tuple(order)))[0]
    else:
        picks = witness["picks"]
        assert isinstance(picks, list)
        for p, card in picks:
            state = step(state, Pick(p, card))[0]
    assert [r[0] for r in state.rows] == witness["rows"]
    at = [0] * rules.players
    scored = []
    while state.phase is Phase.CHOOSE:
        p = state.to_act()[0]
        state, events = step(state, Play(p, hands[p][at[p]]))
        at[p] += 1
        assert all(e.heads == 0 for e in events if isinstance(e, Placed))
        scored += [e for e in events if isinstance(e, RoundScored)]
    assert len(scored) == 1 and not any(scored[0].heads)
    assert state.phase in (Phase.DEAL, Phase.DRAFT) and state.totals == (0,) * rules.players


def test_house_variant_proves_all_but_the_player_limit() -> None:
    rules = load_rules(str(EXAMPLES / "house.toml"))
    got = outcomes(rules)
    assert all(o.ok for o in got.values())
    assert {n for n, o in got.items() if o.result.status is Status.FINDING} == {"rules.players"}
    players = got["rules.players"].result
    assert players.witness is not None and players.witness["max_players"] == 6
    with pytest.raises(RulesError, match="73 cards"):
        rules.with_(players=7)
    six = new_game(rules.with_(players=6))
    step(six, random_deal(six, random.Random(1)))  # six hands of 10 plus 3 rows are dealt
    deck = got["rules.deck"].result
    assert deck.witness == {
        "cards": 64,
        "heads": sum(rules.heads[c] for c in rules.deck()),
        "distribution": {"1": 52, "2": 5, "3": 6, "7": 1},  # 55 is the one 7
    }
    take = got["rules.max-take"].result.witness
    assert take is not None and take["heads"] == 7 + 3 + 3 + 3  # 55 and three tens
    ends = got["rules.game-ends"].result
    assert ends.status is Status.PROVED and ends.witness is not None
    bound = ends.witness["max_rounds"]
    assert isinstance(bound, int) and bound <= (rules.max_rounds or 0)


def test_a_table_that_absorbs_a_round_can_last_forever() -> None:
    rules = load_rules(str(EXAMPLES / "long-table.toml"))
    got = outcomes(rules)
    ends = got["rules.game-ends"]
    assert ends.ok and ends.result.status is Status.FINDING
    assert "can last forever" in ends.result.summary
    assert ends.result.witness is not None and ends.result.witness["cards_taken"] == 0
    replay_forever(rules, ends.result.witness)
    # ten hands of 10 plus five rows would need 105 cards
    assert got["rules.players"].result.witness == {
        "max_players": 9,
        "cards_needed": 105,
        "deck": 104,
        "engine": "10 hands of 10 plus 5 rows need 105 cards, but the deck has 104 (standard "
        "with 10 players)",
    }
    findings = {"rules.game-ends", "rules.players"}
    assert all(o.result.status is Status.PROVED for n, o in got.items() if n not in findings)


@pytest.mark.parametrize(
    "text",
    [
        # 24 cards a round must take, 94 cards without heads: full rows of them are taken
        "[heads]\ndefault = 0\nmultiples = [{ of = 10, heads = 1 }]\n",
        # a Logik draft: the rows start with the lowest undrafted cards
        'base = "logik"\nplayers = 2\n[heads]\ndefault = 1\ncards = { 1 = 0, 2 = 0, 3 = 0, '
        "4 = 0, 5 = 0 }\n",
        # Profi: a card left out between blocks keeps the next row's first card farther away
        'base = "profi"\nplayers = 2\nrows = 5\n',
        'base = "profi"\nprofi_tie = "left"\n[heads]\ndefault = 0\n'
        "multiples = [{ of = 10, heads = 1 }]\n",
        # sequential play from face-down piles, to a target
        "players = 3\npile_play = true\nsimultaneous = false\n[heads]\ndefault = 0\n"
        "cards = { 104 = 1 }\n",
    ],
)
def test_rounds_of_zero_heads_can_repeat_forever(text: str) -> None:
    rules = rules_from_toml(text)
    result = run(ruleset.obligations(rules)[-1]).result
    assert result.status is Status.FINDING and result.witness is not None
    replay_forever(rules, result.witness)


def test_undecided_when_no_round_of_zero_heads_is_found() -> None:
    # 4 cards must be taken, only 101..104 carry 0 heads: a full row of 5 would need 5 of them
    rules = rules_from_toml(
        "players = 2\n[heads]\ndefault = 1\ncards = { 101 = 0, 102 = 0, 103 = 0, 104 = 0 }\n"
    )
    assert rules.min_heads_per_round == 0
    outcome = run(ruleset.obligations(rules)[-1])
    assert outcome.result.status is Status.ERROR and not outcome.ok
    assert "undecided" in outcome.result.summary


def test_a_number_of_rounds_always_ends() -> None:
    rules = rules_from_toml(
        "rows = 6\nrow_capacity = 6\nplayers = 3\nhand_size = 8\n[end]\nrounds = 2\n"
    )
    result = run(ruleset.obligations(rules)[-1]).result
    assert result.status is Status.PROVED and result.witness == {"max_rounds": 2}


def test_profi_findings_replay_and_a_tie_rule_settles_them() -> None:
    text = (
        'base = "profi"\nplayers = 3\nrows = 3\nrow_capacity = 4\nhand_size = 5\ndeck = "10..40"\n'
    )
    got = outcomes(rules_from_toml(text))
    assert all(o.ok for o in got.values()), {n: o.result.summary for n, o in got.items()}
    tie = got["rules.profi-tie"].result
    assert tie.status is Status.FINDING and tie.witness is not None
    table = tie.witness["rows"]
    assert isinstance(table, list)
    rows = tuple(tuple(r) for r in table)
    card = tie.witness["card"]
    assert isinstance(card, int) and 10 <= card <= 40
    assert place(rows, card, rules_from_toml(text)).reason is Reason.TIE
    no_fit = got["rules.profi-no-fit"].result
    assert no_fit.status is Status.FINDING and no_fit.witness is not None
    right = rules_from_toml(text + 'profi_tie = "right"\n')
    settled = run(ruleset.obligations(right)[3]).result
    assert settled.status is Status.PROVED and "settles" in settled.summary
    assert place(rows, card, right).options[0].side is Side.RIGHT


def test_verify_rules_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--rules", str(EXAMPLES / "long-table.toml"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    found = [o for o in data["obligations"] if o["status"] == "finding"]
    assert [o["name"] for o in found] == ["rules.players", "rules.game-ends"] and data["ok"]
    assert main(["verify", "--rules", str(EXAMPLES / "house.toml")]) == 0
    text = capsys.readouterr().out
    assert "Findings for rules file" in text and "at most 6 players" in text
    bad = tmp_path / "bad.toml"
    bad.write_text("rows = 'x'\n")
    assert main(["verify", "--rules", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "rows must be an integer" in err
    assert main(["verify", "--rules", str(EXAMPLES / "house.toml"), "--code"]) == 2
    capsys.readouterr()
    undecided = tmp_path / "undecided.toml"
    undecided.write_text(
        "players = 2\n[heads]\ndefault = 1\ncards = { 101 = 0, 102 = 0, 103 = 0, 104 = 0 }\n"
    )
    assert main(["verify", "--rules", str(undecided), "--only", "rules.game-ends"]) == 1


def test_a_200_card_variant_is_verified_in_under_30_seconds(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text(
        'players = 10\nhand_size = 15\nrows = 5\ndeck = "1..200"\n'
        "[heads]\ncards = { 55 = 7, 155 = 7 }\n"
        "multiples = [{ of = 11, heads = 5 }, { of = 10, heads = 3 }, { of = 5, heads = 2 }]\n"
        "default = 1\n[end]\ntarget = 100\n"
    )
    start = time.perf_counter()
    got = outcomes(load_rules(str(big)))
    elapsed = time.perf_counter() - start
    assert all(o.result.status is Status.PROVED for o in got.values())
    assert elapsed < 30, elapsed


@pytest.mark.parametrize(
    ("text", "most"),
    [
        ('base = "taktik"\n', 10),  # its deck 1..10n+4 grows with the players
        ('base = "taktik"\nhand_size = 12\n', 8),  # 9·12 + 4 = 112 > 104
        ('base = "kids"\n', 6),  # 7·15 + 5 = 110 > 104 (seed 000 does not say)
        ('base = "taktik"\ndeck = "1..60"\n', 5),  # a deck of its own stays put
    ],
)
def test_how_many_players_the_deck_suffices_for(text: str, most: int) -> None:
    result = run(ruleset.obligations(rules_from_toml(text))[1]).result
    assert result.witness is not None and result.witness["max_players"] == most
    assert result.status is (Status.PROVED if most == 10 else Status.FINDING)
