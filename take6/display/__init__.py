"""Showing positions and games: the terminal (rich), SVG pictures, the record viewer."""
