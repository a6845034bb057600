"""``take6 verify``: the subcommand, its report, its JSON form and its exit status."""

from __future__ import annotations

import argparse
import json
import time

import pytest

from proofs import cli, registry, report
from proofs.core import Obligation, Result, Status, run


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="take6")
    sub = parser.add_subparsers(dest="command")
    cli.register(sub)
    return parser


def test_register_adds_verify_with_help() -> None:
    parser = _parser()
    help_text = parser.format_help()
    assert "verify" in help_text and "z3" in help_text
    args = parser.parse_args(["verify", "--json"])
    assert args.func is cli.run and args.json


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    args = _parser().parse_args(["verify", "--json"])
    start = time.perf_counter()
    code = args.func(args)
    elapsed = time.perf_counter() - start
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True
    names = [o["name"] for o in data["obligations"]]
    assert names == [ob.name for ob in registry.obligations()]
    for item in data["obligations"]:
        assert item["status"] in ("proved", "refuted", "finding")
        assert item["status"] == item["expected"]
        assert isinstance(item["seconds"], float)
        assert "witness" in item and item["description"]
        if item["status"] == "finding":
            assert item["seeds"] and item["witness"]
    assert elapsed < 30


def test_text_report_has_findings_section(capsys: pytest.CaptureFixture[str]) -> None:
    args = _parser().parse_args(["verify", "--only", "source."])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "Findings in the sources" in out
    for seed in (
        "000_aca8a98c2fa77eab.txt",
        "001_53c2e1d95801b1f8.txt",
        "002_a12c042f070fb957.txt",
    ):
        assert seed in out
    assert "179" in out and "OK" in out


def test_only_selects_and_bad_name_is_a_value_error(capsys: pytest.CaptureFixture[str]) -> None:
    args = _parser().parse_args(["verify", "--json", "--only", "deck."])
    assert args.func(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert {o["name"] for o in data["obligations"]} == {
        ob.name for ob in registry.obligations() if ob.name.startswith("deck.")
    }
    args = _parser().parse_args(["verify", "--only", "nonsense"])
    with pytest.raises(ValueError, match="nonsense"):
        args.func(args)


def test_exit_status_one_when_a_result_is_unexpected(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = Obligation(
        "deck.wrong",
        "claims a finding where there is a proof",
        Status.FINDING,
        lambda: Result.proved("fine"),
    )
    monkeypatch.setattr(registry, "obligations", lambda: [wrong])
    args = _parser().parse_args(["verify"])
    assert args.func(args) == 1
    assert "FAILED" in capsys.readouterr().out
    args = _parser().parse_args(["verify", "--json"])
    assert args.func(args) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and data["obligations"][0]["ok"] is False


def test_report_of_a_refutation_lists_the_counterexample() -> None:
    bad = Obligation("x", "x", Status.PROVED, lambda: Result.refuted("broken", {"card": 51}))
    outcome = run(bad)
    data = report.to_json([outcome])
    assert data["obligations"] == [
        {
            "name": "x",
            "status": "refuted",
            "expected": "proved",
            "ok": False,
            "seconds": data["obligations"][0]["seconds"],  # type: ignore[index]
            "description": "x",
            "summary": "broken",
            "witness": {"card": 51},
        }
    ]
