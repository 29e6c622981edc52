"""The ``boon`` command for every game."""
