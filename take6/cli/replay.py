"""``take6 replay``: check a JSON game record by replaying it through the rules."""

from __future__ import annotations

import argparse
import json
from typing import Any

from take6.cli.common import read_file
from take6.io.record import load_record
from take6.io.replay import replay

# -- take6 replay ---------------------------------------------------------------------------


def _add_replay(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="check a JSON game record by replaying it through the rules engine",
        description=(
            "Replay a JSON game record (docs/records.md) through the reference engine. Exit 0 "
            "when every action is legal and the recorded rounds, scores and winners match the "
            "replay; 1 when they do not (naming the step and the action); 2 on malformed input."
        ),
        epilog="example: take6 play --json > game.json && take6 replay game.json",
    )
    p.add_argument("file", metavar="FILE", help="the JSON game record ('-' reads stdin)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_run_replay)


def _run_replay(args: argparse.Namespace) -> int:
    result = replay(load_record(read_file(args.file, "the game record")))
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.message())
    return 0 if result.ok else 1
