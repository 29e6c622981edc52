"""Boon players (random, heuristic, search, trained policies) and the duplicate-deal arena."""
