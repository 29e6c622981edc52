"""Boon, the re-skin of Sheepshead: see ``docs/rules.md``."""
