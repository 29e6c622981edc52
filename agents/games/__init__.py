"""The game registry (filled in below)."""
