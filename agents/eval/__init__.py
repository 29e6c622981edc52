"""Measuring players: the duplicate-deal arena (rounds and whole games), the tournament,
the paired comparison of saved runs and the throughput bench; every game through the registry."""
