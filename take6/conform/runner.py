"""Drive an external engine over the conformance protocol and compare its answers.

The engine is a command (run without a shell) that reads one request per line on standard input
and writes one answer per line on standard output (``docs/conformance.md``). Every way an engine
can fail is reported against the case it failed on, and the runner goes on with a fresh engine:
an answer that is not JSON or not about the case asked ("garbage"), no answer within the
per-case timeout (the engine is killed), or an engine that exits. After ``max_failures`` such
failures in a row the remaining cases are reported as not run, so a broken engine costs seconds,
not hours.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from take6.conform.cases import Case, compare, cut
from take6.errors import Take6Error
from take6.text import excerpt

AGREE, DISAGREE, UNSUPPORTED, FAILED, NOT_RUN = (
    "agree",
    "disagree",
    "unsupported",
    "failed",
    "not run",
)
STATUSES = (AGREE, DISAGREE, UNSUPPORTED, FAILED, NOT_RUN)


class EngineError(Take6Error):
    """The engine command cannot be started (empty, not found, not executable)."""


class _Failure(Exception):
    """The engine failed on one case (the message says how)."""


@dataclass
class Outcome:
    """What happened to one case: its status and, unless it agreed, why."""

    case: Case
    status: str
    details: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "rule": self.case.rule,
            "status": self.status,
            "details": self.details,
            "seconds": round(self.seconds, 4),
        }


def split_command(command: str) -> list[str]:
    """The argument list of an engine command (shell-like quoting, no shell)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise EngineError(f"cannot read the engine command {excerpt(command)}: {exc}") from None
    if not argv:
        raise EngineError("the engine command is empty")
    return argv


class Engine:
    """One external engine process, restarted after any failure."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: deque[str] = deque(maxlen=5)
        self.starts = 0

    def start(self) -> None:
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=self.cwd,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        except OSError as exc:
            raise EngineError(
                f"cannot start the engine {excerpt(shlex.join(self.argv))}: {exc.strerror or exc}"
            ) from None
        self.starts += 1
        self.lines = queue.Queue()
        self.errors.clear()
        proc, lines, errors = self.proc, self.lines, self.errors

        def read_out() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line)
            lines.put(None)

        def read_err() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                if line.strip():
                    errors.append(line.strip())

        threading.Thread(target=read_out, daemon=True).start()
        threading.Thread(target=read_err, daemon=True).start()

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def _exited(self) -> str:
        proc = self.proc
        code = proc.wait(timeout=5) if proc is not None else None
        time.sleep(0.05)  # let the stderr reader catch the last words
        last = f": {cut(self.errors[-1])}" if self.errors else ""
        self.stop()
        return f"the engine exited (status {code}){last}"

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """The engine's answer to ``request`` (raises :class:`_Failure`)."""
        if self.proc is None or self.proc.poll() is not None:
            self.stop()
            self.start()
        proc = self.proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(request, separators=(",", ":")) + "\n")
            proc.stdin.flush()
        except OSError:
            raise _Failure(self._exited()) from None
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            proc.kill()
            self.stop()
            raise _Failure(f"no answer within {timeout:g} s (the engine was stopped)") from None
        if line is None:
            raise _Failure(self._exited())
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            self.stop()  # out of step with the requests: start afresh
            raise _Failure(f"the answer is not JSON: {cut(line.strip())}") from None
        if not isinstance(data, dict):
            self.stop()
            raise _Failure(f"the answer is not a JSON object: {cut(line.strip())}")
        if data.get("id") != request["id"]:
            self.stop()
            raise _Failure(
                f"the answer is for id {excerpt(data.get('id'), 60)}, not {request['id']!r}"
            )
        return data


def check_case(engine: Engine, case: Case, timeout: float) -> Outcome:
    """Ask ``engine`` one case and compare its answer."""
    started = time.perf_counter()
    try:
        reply = engine.ask(case.request, timeout)
    except _Failure as exc:
        return Outcome(case, FAILED, [str(exc)], time.perf_counter() - started)
    seconds = time.perf_counter() - started
    if "unsupported" in reply:
        return Outcome(case, UNSUPPORTED, [cut(str(reply["unsupported"]))], seconds)
    if "error" in reply:
        why = f"the engine refused the case: {cut(str(reply['error']))}"
        return Outcome(case, DISAGREE, [why], seconds)
    diffs = compare(case, reply)
    return Outcome(case, DISAGREE if diffs else AGREE, diffs, seconds)


def run_cases(
    command: str | Sequence[str],
    cases: Sequence[Case],
    *,
    timeout: float = 10.0,
    max_failures: int = 10,
    progress: Callable[[int, int], None] | None = None,
) -> list[Outcome]:
    """Check every case against the engine ``command``; one :class:`Outcome` per case."""
    argv = split_command(command) if isinstance(command, str) else list(command)
    engine = Engine(argv)
    engine.start()
    out: list[Outcome] = []
    in_a_row = 0
    try:
        for n, case in enumerate(cases):
            if in_a_row >= max_failures:
                why = f"not run: the engine failed {in_a_row} cases in a row"
                out.extend(Outcome(c, NOT_RUN, [why]) for c in cases[n:])
                break
            outcome = check_case(engine, case, timeout)
            in_a_row = in_a_row + 1 if outcome.status == FAILED else 0
            out.append(outcome)
            if progress is not None:
                progress(n + 1, len(cases))
    finally:
        engine.stop()
    return out


def ok(outcomes: Sequence[Outcome]) -> bool:
    """True when no case disagreed, failed or went unrun, and at least one agreed."""
    bad = {DISAGREE, FAILED, NOT_RUN}
    return not any(o.status in bad for o in outcomes) and any(o.status == AGREE for o in outcomes)
