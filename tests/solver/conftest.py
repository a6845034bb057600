"""Make the repository root importable, so ``solver`` is found even when only ``take6`` was
installed in editable mode."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
