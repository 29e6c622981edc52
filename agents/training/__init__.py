"""Self-play training with stable-baselines3 (the ``train`` extra): what ``train.py`` and
``boon exploit`` run.

| module | what it holds |
| --- | --- |
| :mod:`agents.training.trainer` | the trainer: ``Args`` (``train.py``'s flags) and ``train(args)``, top to bottom |
| :mod:`agents.training.exploit` | exploitability audits: a best response trained against a frozen target, its paired margin |
| :mod:`agents.training.selfplay` | the learner's seats at the tables of a game's batch engine (a VecEnv), the opponent pool, frozen spec players |
| :mod:`agents.training.parallel` | the tables split between rollout worker processes |
| :mod:`agents.training.recipe` | what a game's recipe holds (flag defaults, rollout tables, warm start, round statistics), and what games on a batch engine share |
| :mod:`agents.training.ppo` | the PPO settings train.py and train_rllib.py share |
| :mod:`agents.training.imitation` | the imitation warm start (heuristic decisions, behaviour cloning) |
| :mod:`agents.training.callbacks` | round statistics, snapshots, evaluations and checkpoints during ``learn``; the clock |
"""  # noqa: E501 - a table row per module reads better than wrapped rows
