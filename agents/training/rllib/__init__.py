"""Ray RLlib for every game with a batch engine: the env runners' vector env, the masked module,
the league, and the ``rllib:`` player.

Only this package, a game's RLlib part (``agents/games/<game>/rllib.py``) and the ``rllib:``
player import ``ray`` (the ``rllib`` extra); the library and the other agents never do.
``train_rllib.py`` trains with it; ``docs/rllib.md`` explains it.

- :mod:`agents.training.rllib.vector`: the learner's seat at many tables of the game's batch
  engine, the league inside, as the Gymnasium vector env RLlib's env runners step.
- :mod:`agents.training.rllib.module`: RLlib's PPO module behind the legal mask, and its actor
  as a numpy policy (snapshots, the exported player).
- :mod:`agents.training.rllib.league`: the multi-agent league's modules and seat mapping, the
  metrics callback and the imitation warm start.
- a game's ``rllib`` part (its spec's ``rllib``): the figures of its rounds logged beside the
  value (Boon's :mod:`agents.games.boon.rllib` also holds ``boon_v0`` as an RLlib
  ``MultiAgentEnv``).
- :mod:`agents.players.rllib_agent`: a trained RLlib checkpoint as an
  :class:`~agents.players.base.Agent`.
"""
