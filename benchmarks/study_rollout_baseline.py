"""How much of the duplicate arena's per-deal value a playout of the position explains.

Run: ``python benchmarks/study_rollout_baseline.py [--agents SPEC ...] [--deals N] [--seed S]``
(batched agents only; default ``ppo`` against three heuristics, 500 deals, seed 2026). Plays
the deals in the arena, then replays every round's first actions (the picks; the picks and the
discards; and one or two tricks more) and plays the rest out with the heuristic in every seat.
The value of the first agent's seat in that playout, averaged over the deal's rotations as the
arena averages its values, is a control variate of the kind ``--variance-reduction`` uses; the
script prints the share of the per-deal variance it explains (R², one slope, in sample) and the
width ratio ``sqrt(1 - R²)`` it would give with free reference deals (docs/agents.md, "Variance
reduction").
"""

from __future__ import annotations

import argparse

import numpy as np

from agents.eval.arena import PlayedRound, arena_rounds
from agents.specs import make_agent
from boon_env.games.boon.rules import PICK, GameConfig
from boon_env.games.boon.vector import VectorBoon


def playout_values(rounds: list[PlayedRound], prefix: list[int], n: int) -> np.ndarray:
    """Each round's seat values (rounds, n) when its first ``prefix[i]`` actions are replayed
    and the heuristic plays the rest in every seat, all rounds at once on the vector engine."""
    tables = len(rounds)
    engine = VectorBoon(tables, n, observations=False)
    engine.reset(deals=[{**p.options["deal"], "dealer": p.options["dealer"]} for p in rounds])
    heuristic = make_agent("heuristic", num_players=n)
    heuristic.reset_batch(range(tables * n))
    mask, seat = engine.action_masks(), engine.seat
    playing = np.ones(tables, dtype=bool)
    values = np.zeros((tables, n))
    limit = np.array(prefix)
    step = 0
    while playing.any():
        actions = np.argmax(mask != 0, axis=1)  # filler for finished tables
        free = np.flatnonzero(playing & (step >= limit))
        if free.size:
            observed = engine.observe(free) if heuristic.observes else None
            actions[free] = heuristic.act_batch(observed, mask[free], free * n + seat[free])
        for table in np.flatnonzero(playing & (step < limit)):
            actions[table] = rounds[table].actions[step]
        _obs, mask, seat, _rewards, done = engine.step(actions)
        ended = np.flatnonzero(done & playing)
        values[ended] = engine.finished.values[ended]
        playing[ended] = False
        step += 1
    return values


def picks_end(played: PlayedRound, n: int) -> int:
    """The number of pick decisions: up to the pick, or all ``n`` passes of a Leaster."""
    picks = played.actions[:n]
    return picks.index(PICK) + 1 if PICK in picks else n


def main(argv: list[str] | None = None) -> None:
    """Print R² and the width ratio of each playout baseline."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--agents", nargs="+", default=["ppo", "heuristic", "heuristic", "heuristic"]
    )
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    n = len(args.agents)
    boon_size = GameConfig(num_players=n).boon_size
    per_deal = list(arena_rounds(args.agents, args.deals, seed=args.seed))
    rounds = [played for deal in per_deal for played in deal]
    first = [played.slots.index(0) for played in rounds]  # the first agent's seat
    x = np.array([p.info["value"][s] for p, s in zip(rounds, first, strict=True)], float)
    x = x.reshape(len(per_deal), n).mean(axis=1)
    picks = [picks_end(played, n) for played in rounds]
    # A picker's discards are its next actions (none in a Leaster); then the tricks, n cards each.
    ends = [
        k + (boon_size if p.actions[k - 1] == PICK else 0)
        for p, k in zip(rounds, picks, strict=True)
    ]
    prefixes = {
        "the picks": picks,
        "the discards": ends,
        "one trick": [e + n for e in ends],
        "two tricks": [e + 2 * n for e in ends],
    }
    print(f"{args.deals} deals, sd of the per-deal value {x.std():.3f}")
    for name, prefix in prefixes.items():
        values = playout_values(rounds, prefix, n)
        z = values[np.arange(len(rounds)), first].reshape(len(per_deal), n).mean(axis=1)
        r2 = float(np.corrcoef(x, z)[0, 1] ** 2)
        print(f"played out after {name:>12}: R2 {r2:.3f}, width ratio {np.sqrt(1 - r2):.3f}")


if __name__ == "__main__":
    main()
