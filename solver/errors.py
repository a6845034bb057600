"""The solver's error type."""

from __future__ import annotations

from take6.errors import Take6Error


class SolverError(Take6Error):
    """A position or request the solver does not support; the message names the position."""
