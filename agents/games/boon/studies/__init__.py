"""Bidding research: what a hand is worth picking, how to bury, what a Leaster costs.

The studies play the same deal out several ways with one agent in every seat and compare
(:mod:`agents.games.boon.studies.rollouts`); the pick study itself is
:mod:`agents.games.boon.studies.pick`. Results and the commands that made them:
``docs/research.md``.
"""
