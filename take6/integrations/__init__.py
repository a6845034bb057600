"""Adapters that expose take6 games to other frameworks (optional extras)."""
