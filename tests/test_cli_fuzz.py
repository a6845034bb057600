"""Fuzz test of the ``take6`` command line (issue 13).

Hypothesis builds argument lists from each command's options and hostile values (Unicode digits,
underscores, huge and negative numbers, NaN, long and empty strings, byte-order marks) and
files: random JSON trees, game records and certificates with one subtree replaced, random
bytes, deep nesting, an empty file, a study store. The contract, for every input:

* exit status 0; 1 only where documented (``replay``: the record is illegal or inconsistent;
  ``check-certificate``: the certificate does not prove its value); otherwise 2 with exactly
  one line on stderr;
* never a traceback, never an exception out of :func:`take6.cli.main`;
* bounded time: every example must finish within :data:`DEADLINE` seconds (commands that
  search are given a small ``--node-limit`` / ``--time-limit``).

Cheap by design (a few seconds with ``HYPOTHESIS_PROFILE=ci``): small example budget, no
commands that run studies or z3.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from take6.cli.main import main

DEADLINE = 30.0
MIXED = "standard 1,13,15,25,30/21/32/3,5,8,20,39 2,12|10,27"

VALUES = [
    "0",
    "1",
    "2",
    "3",
    "4",
    "10",
    "11",
    "-1",
    "+2",
    "66",
    "1000000",
    "9" * 50,
    "٣",
    "1_0",
    "３",
    "nan",
    "inf",
    "-inf",
    "1e3",
    "0.5",
    "",
    " ",
    "x",
    "-",
    "standard",
    "logik",
    "taktik",
    "profi",
    "kids",
    "random",
    "safe",
    "cheapest",
    "safe,random",
    "diff",
    "paranoid",
    "owner",
    "left",
    "12/37/43/58",
    "1,2,3,4,5/37/43/58",
    "5,15",
    "14,15,44,61",
    "1,2,3",
    "3/7/10/12",
    MIXED,
    "logik:12 3/7/10/12 1,5,9,11|2,4,6,8",
    '{"variant": "standard"}',
    "\ufeff",
    "\ufeff" + MIXED,
    "a" * 3000,
    "1," * 2000 + "1",
]

FILE = "@file"
"""Stands for the path of the generated file in an argument list."""

FLAGS = {"--json", "--above", "--summary", "--force"}

COMMANDS: dict[str, tuple[list[str], list[str], list[str]]] = {
    # command: (positional arguments, options, arguments always appended last)
    "turn": ([], ["--rows", "--plays", "--choose", "--variant", "--profi-tie", "--json"], []),
    "play": (
        [],
        [
            "--variant",
            "--players",
            "--seed",
            "--bots",
            "--target",
            "--above",
            "--rounds",
            "--hand-size",
            "--first-picker",
            "--profi-tie",
            "--json",
            "--summary",
        ],
        [],
    ),
    "replay": ([FILE], ["--json"], []),
    "check-certificate": ([FILE], ["--json"], []),
    "solve": (
        [FILE],
        ["--objective", "--player", "--json", "--node-limit", "--table-cap"],
        ["--node-limit", "300", "--time-limit", "1"],
    ),
    "draft": (
        [],
        ["--players", "--hand-size", "--first-picker", "--objective", "--player", "--json"],
        ["--time-limit", "0.3"],
    ),
    "study status": ([], ["--store", "--json"], []),
    "study export": (
        [],
        ["--store", "--study", "--csv", "--parquet", "--jsonl", "--dataset", "--force"],
        [],
    ),
}

EXIT_1 = {"replay", "check-certificate"}

BASE = {
    "turn": ["--rows", "12/37/43/58", "--plays", "5,15,44"],
    "play": ["--players", "2", "--rounds", "1"],
    "draft": ["--hand-size", "2"],
}


class TookTooLong(BaseException):
    """Raised by the alarm when an example runs past the deadline (not caught by main)."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    def ring(signum: int, frame: object) -> None:
        raise TookTooLong(f"more than {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A valid record, certificate and store to mutate or point at; a scratch directory."""
    base = tmp_path_factory.mktemp("fuzz")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["play", "--players", "2", "--rounds", "1", "--json"]) == 0
        record = json.loads(out.getvalue())
        cert = base / "cert.json"
        assert main(["solve", MIXED, "--certificate", str(cert), "--json"]) == 0
        store = base / "store.sqlite"
        args = ["study", "deals", "--hand-size", "1", "--deals", "2", "--store", str(store)]
        assert main([*args, "--no-progress", "--workers", "1"]) == 0
    return {
        "record": record,
        "certificate": json.loads(cert.read_text()),
        "store": store,
        "scratch": base / "scratch",
    }


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.sampled_from(VALUES)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def mutate(data: Any, draw: Any) -> Any:
    """``data`` with one subtree (chosen by ``draw``) replaced by random JSON."""
    if draw(st.integers(0, 3)) == 0 or not isinstance(data, (dict, list)) or not data:
        return draw(json_values)
    if isinstance(data, dict):
        key = draw(st.sampled_from(sorted(data)))
        return {**data, key: mutate(data[key], draw)}
    i = draw(st.integers(0, len(data) - 1))
    return [*data[:i], mutate(data[i], draw), *data[i + 1 :]]


def file_content(draw: Any, samples: dict[str, Any]) -> bytes:
    kind = draw(
        st.sampled_from(
            ["record", "certificate", "json", "bytes", "deep", "empty", "bom", "position"]
        )
    )
    if kind in ("record", "certificate"):
        return json.dumps(mutate(samples[kind], draw)).encode()
    if kind == "json":
        return json.dumps(draw(json_values)).encode()
    if kind == "bytes":
        data: bytes = draw(st.binary(max_size=64))
        return data
    if kind == "deep":
        depth: int = draw(st.sampled_from([10, 1000, 100_000]))
        opener: str = draw(st.sampled_from(["[", '{"a":']))
        return (opener * depth).encode()
    if kind == "empty":
        return b""
    if kind == "bom":
        return (
            b"\xef\xbb\xbf"
            + json.dumps(samples[draw(st.sampled_from(["record", "certificate"]))]).encode()
        )
    value: str = draw(st.sampled_from(VALUES))
    return value.encode("utf-8", "surrogatepass")


def arguments(draw: Any, command: str, path: Path, samples: dict[str, Any]) -> list[str]:
    positional, options, last = COMMANDS[command]
    argv = command.split()
    values = st.sampled_from(VALUES) | st.text(max_size=12)
    for p in positional:
        if p != FILE or not draw(st.integers(0, 4)):
            argv.append(draw(values))
        elif command == "solve" and draw(st.booleans()):
            argv.append(draw(st.sampled_from([MIXED, "logik:12 3/7/10/12 1,5,9,11|2,4,6,8"])))
        else:
            argv.append(str(path))
    if draw(st.booleans()):  # a valid start, so that the options after it are reached
        argv += BASE.get(command, [])
    for _ in range(draw(st.integers(0, 5))):
        option = draw(st.sampled_from(options))
        argv.append(option)
        if option in FLAGS:
            continue
        if option == "--store":
            store = draw(st.sampled_from(["store", "file", "missing", "text"]))
            if store == "store":
                argv.append(str(samples["store"]))
            elif store == "file":
                argv.append(str(path))
            elif store == "missing":
                argv.append(str(path.parent / "missing.sqlite"))
            else:
                argv.append(draw(values))
        elif option in ("--csv", "--parquet", "--jsonl"):
            argv.append(
                str(draw(st.sampled_from([path, path.parent / "out.csv", samples["store"]])))
            )
        elif option == "--dataset":
            argv.append(str(draw(st.sampled_from([path, path.parent / "ds", path.parent]))))
        else:
            argv.append(draw(values))
    if command.startswith("study") and "--store" not in argv:
        argv += ["--store", str(samples["store"])]
    return argv + last


@settings(
    max_examples=int(os.environ.get("TAKE6_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_cli_contract(samples: dict[str, Any], data: st.DataObject) -> None:
    scratch: Path = samples["scratch"]
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    path = scratch / data.draw(st.sampled_from(["in.json", "in.txt", "in.sqlite"]))
    path.write_bytes(file_content(data.draw, samples))
    command = data.draw(st.sampled_from(sorted(COMMANDS)))
    argv = arguments(data.draw, command, path, samples)
    store_before = samples["store"].read_bytes()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), deadline(DEADLINE):
        code = main(argv)
    stdout, stderr = out.getvalue(), err.getvalue()
    note = f"argv={argv!r}\nexit={code}\nstderr={stderr[:2000]!r}"
    assert "Traceback" not in stderr and "Traceback" not in stdout, note
    lines = [ln for ln in stderr.splitlines() if not ln.startswith("take6: warning:")]
    allowed = {0, 2} | ({1} if command in EXIT_1 else set())
    assert code in allowed, note
    if code == 2:
        assert len(lines) == 1 and lines[0].startswith("take6"), note
        assert "error" in lines[0] and len(lines[0]) <= 600, note
    if code == 1 and command == "check-certificate":
        assert len(lines) == 1 and lines[0].startswith("take6: certificate check failed"), note
    assert samples["store"].read_bytes() == store_before, "a command modified the study store"
