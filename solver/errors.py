"""The solver's error type."""

from __future__ import annotations


class SolverError(ValueError):
    """A position or request the solver does not support; the message names the position."""
