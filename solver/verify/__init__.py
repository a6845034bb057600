"""Writing certificates of solved positions and checking them with independent code."""
