"""Hypothesis profiles: ``ci`` (fixed example budget, no deadline, derandomised) and ``dev``.

CI sets HYPOTHESIS_PROFILE=ci; the default is ``dev``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI every optional extra is installed, so a skipped test means a missing install
    step: fail the run instead of passing quietly."""
    if not os.environ.get("CI"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped and exitstatus == 0 and reporter is not None:
        reasons = sorted({str(getattr(r, "longrepr", ""))[:200] for r in skipped})
        reporter.write_line(f"CI: {len(skipped)} skipped; every extra must be installed: {reasons}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
