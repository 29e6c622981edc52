"""Self-play training with stable-baselines3 (the ``train`` extra): what ``train.py`` and
``boon exploit`` run.

| module | what it holds |
| --- | --- |
| :mod:`agents.training.trainer` | the trainer: ``Args`` (``train.py``'s flags) and ``train(args)``, top to bottom |
| :mod:`agents.training.exploit` | exploitability audits: a best response trained against a frozen target, its paired margin |
| :mod:`agents.training.selfplay` | the learner's seats at the tables of a game's batch engine (a VecEnv), the opponent pool, frozen spec players |
| :mod:`agents.training.boon_selfplay` | Boon's tables: pick assist, shaping, pick statistics |
| :mod:`agents.training.parallel` | the tables split between rollout worker processes |
| :mod:`agents.training.recipes` | what differs per game: flag defaults, rollout tables, warm start, round statistics |
| :mod:`agents.training.imitation` | the imitation warm start (heuristic decisions, behaviour cloning) |
| :mod:`agents.training.callbacks` | round statistics, snapshots, evaluations and checkpoints during ``learn``; the clock |
"""  # noqa: E501 - a table row per module reads better than wrapped rows
