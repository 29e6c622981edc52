"""Boon: a PettingZoo environment and rules engine for the trick-taking game Boon."""
