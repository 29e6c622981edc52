"""Bidding research: what a hand is worth picking, how to bury, what a Leaster costs.

The studies play the same deal out several ways with one agent in every seat and compare
(:mod:`agents.studies.rollouts`); the pick study itself is :mod:`agents.studies.pick`. Results and
the commands that made them: ``docs/research.md``.
"""
