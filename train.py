"""Train a Boon, B.O.N or BOYN player by self-play with MaskablePPO, then evaluate it in the arena.

One policy plays every seat (observations use relative seats) and all three decisions: pick or
pass, discard, card play; the action mask of each phase routes them. Every decision of the
learner is a training sample; the reward is its Victory-Card change when the round ends.
The other seats are filled per round from the opponent pool (fictitious self-play): earlier
snapshots of the policy, the heuristic and random play, or any frozen player a spec names
(``--opponent SPEC --pool-weights opponent=1``: a best response to it).

``--game bon`` and ``--game boyn`` train the same way on those games' batch engines
(:mod:`agents.training.selfplay`); the reward is the round's value in the arena's unit (B.O.N
points; BOYN margin, scaled). Each game has its own defaults, and some flags of its own
(``python train.py --game boyn --help`` shows them, each game's under its name).

    python train.py                       # the default 4-player run (a few minutes), then arena
    python train.py --game bon            # a B.O.N player
    python train.py --help                # every flag
    python train.py --resume runs/<run>/checkpoints/model_<steps>.zip

This file is the command line; the trainer, readable top to bottom, is
:func:`agents.training.trainer.train` (its flags are the fields of
:class:`agents.training.trainer.Args`). The final model loads anywhere a player spec is
accepted: ``ppo:runs/<run>/model.npz``. See ``docs/training.md``.
"""

from __future__ import annotations

import os
import sys

# numpy's BLAS only runs the snapshot opponents' small forward passes: one thread, set before
# numpy loads. A multithreaded BLAS spins against torch's threads on a busy machine (measured
# 25x slower rollouts under load).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from agents.players.policy import ModelFileError
from agents.registry import game_names
from agents.training.trainer import Args, check_args, game_defaults, parse_args, train

__all__ = ["Args", "check_args", "game_defaults", "game_names", "parse_args", "train"]


if __name__ == "__main__":
    try:
        cli_args = parse_args(sys.argv[1:], description=__doc__.split("\n\n")[0])
        check_args(cli_args)
    except ValueError as error:  # a user's mistake: one clear line, not a traceback
        sys.exit(f"train.py: error: {error}")
    try:
        train(cli_args)
    except ModelFileError as error:  # e.g. a corrupt --resume checkpoint
        sys.exit(f"train.py: error: {error}")
