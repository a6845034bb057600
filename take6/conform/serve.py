"""The reference engine behind the conformance protocol: ``take6 conform --serve`` reads requests
(JSON lines) on standard input and answers each with the rules core, one line each. It is the
protocol's worked example and checks the runner end to end (``take6 conform --engine "take6
conform --serve"`` agrees on every case)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

from take6.conform.cases import CaseError, answer
from take6.text import excerpt


def reply(line: str) -> dict[str, Any]:
    """The answer to one request line: the reference answer with the request's ``id``, or
    ``{"id", "error"}`` naming what is wrong with the request."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"id": None, "error": f"not JSON ({exc.msg})"}
    if not isinstance(request, dict):
        return {"id": None, "error": f"a request must be a JSON object, got {excerpt(request)}"}
    rid = request.get("id")
    try:
        return {"id": rid, **answer(request, f"request {excerpt(rid, 60)}")}
    except CaseError as exc:
        return {"id": rid, "error": str(exc)}


def serve(lines: Iterable[str], out: IO[str]) -> int:
    """Answer every request of ``lines`` on ``out`` (flushed after each); the number answered."""
    count = 0
    for line in lines:
        if not line.strip():
            continue
        out.write(json.dumps(reply(line), separators=(",", ":")) + "\n")
        out.flush()
        count += 1
    return count
