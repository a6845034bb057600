"""Issue 13: the certificate checker refuses every malformed certificate with one line (a
``CertificateError``, exit 1 from ``take6 check-certificate``), in bounded time: no KeyError,
RecursionError or AttributeError, and no number large enough to hang exact arithmetic."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from solver.verify.check import MAX_NUMBER_DIGITS, CertificateError, check_certificate, node_key
from take6.cli.main import main
from take6.errors import Take6Error

POSITION = "logik:12 3/7/10/12 1,5,9,11|2,4,6,8"


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("cert") / "cert.json"
    assert main(["solve", POSITION, "--certificate", str(path), "--json"]) == 0
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _first_node(data: dict[str, Any]) -> dict[str, Any]:
    node: dict[str, Any] = next(iter(data["nodes"].values()))
    return node


def _without_position(c: dict[str, Any]) -> None:
    del c["position"]


def _bad(key: str, value: Any) -> Any:
    def change(c: dict[str, Any]) -> None:
        c[key] = value

    return change


def _bad_node_value(value: Any) -> Any:
    def change(c: dict[str, Any]) -> None:
        node = _first_node(c)
        node["lower" if "lower" in node else "upper"] = value

    return change


def _bad_probability(value: Any) -> Any:
    def change(c: dict[str, Any]) -> None:
        _first_node(c)["max"][0][1] = value

    return change


TAMPERS = [
    (_without_position, "'position' must be a position"),
    (_bad("position", None), "'position' must be a position"),
    (_bad("position", ["logik"]), "'position' must be a position"),
    (_bad("position", "logik 1/2/3"), "'position':"),
    (_bad("seat", True), "seat True out of range"),
    (_bad("seat", 2), "seat 2 out of range 0..1"),
    (_bad("objective", ["diff"]), "unknown objective ['diff']"),
    (_bad("value", "1e1000000000"), "is not an exact number"),
    (_bad("value", "1" * (MAX_NUMBER_DIGITS + 1)), "digits"),
    (_bad("value", 10 ** (4 * MAX_NUMBER_DIGITS)), "too large a number"),
    (_bad("value", "1/0"), "divides by zero"),
    (_bad("value", " 1/3"), "is not an exact number"),
    (_bad("value", "٣"), "is not an exact number"),
    (_bad("value", 0.5), "is not an exact number"),
    (_bad("nodes", []), "'nodes' must be an object"),
    (_bad_node_value("9" * (MAX_NUMBER_DIGITS + 1) + "/7"), "digits"),
    (_bad_probability("1e999999999"), "is not an exact number"),
    (_bad_probability([1] * 10_000), "is not an exact number"),
]


@pytest.mark.parametrize(("tamper", "words"), TAMPERS)
def test_tampered_certificates_are_one_line_errors(
    cert: dict[str, Any], tamper: Any, words: str
) -> None:
    data = json.loads(json.dumps(cert))
    tamper(data)
    started = time.perf_counter()
    with pytest.raises(CertificateError) as info:
        check_certificate(data)
    assert time.perf_counter() - started < 5
    message = str(info.value)
    assert words in message and "\n" not in message and len(message) < 600


@pytest.mark.parametrize("value", [None, 5, [], "", b"\xff", b"[1]", "[" * 100_000])
def test_odd_api_inputs(value: Any) -> None:
    with pytest.raises(CertificateError):
        check_certificate(value)


def test_bom_and_bytes(cert: dict[str, Any], tmp_path: Path) -> None:
    text = json.dumps(cert)
    assert check_certificate(text.encode()).value == check_certificate(cert).value
    path = tmp_path / "bom.json"
    path.write_bytes(("\ufeff" + text).encode())
    assert check_certificate(path).value == check_certificate(cert).value
    assert check_certificate("\ufeff" + text).nodes > 0


def test_too_many_joint_actions_refused_up_front() -> None:
    cards = [tuple(range(5 + 9 * p, 14 + 9 * p)) for p in range(10)]
    hands = "|".join(",".join(map(str, h)) for h in cards)
    key = node_key(((1,), (2,), (3,), (4,)), tuple(cards))
    data = {
        "format": "take6-certificate",
        "version": 1,
        "position": f"standard 1/2/3/4 {hands}",
        "objective": "paranoid",
        "player": 1,
        "value": "0",
        "nodes": {key: {"value": "0", "max": [], "min": []}},
    }
    started = time.perf_counter()
    with pytest.raises(CertificateError, match="joint actions, more than the checker examines"):
        check_certificate(data)
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize(
    "content",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"format": "take6-certificate", "version": 1}',
        "\ufeff",
        "",
        "1" * 10_000,
    ],
)
def test_cli_check_certificate_malformed_is_exit_1_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    path = tmp_path / "c.json"
    path.write_text(content, encoding="utf-8")
    assert main(["check-certificate", str(path)]) == 1
    err = [ln for ln in capsys.readouterr().err.splitlines() if "warning" not in ln]
    assert len(err) == 1 and err[0].startswith("take6: certificate check failed: ")
    assert len(err[0]) < 600


def test_certificate_error_is_a_take6_error() -> None:
    assert issubclass(CertificateError, Take6Error)
