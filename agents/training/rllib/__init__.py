"""Ray RLlib for Boon: the multi-agent env adapter, the self-play league and the ``rllib:`` player.

Only this package imports ``ray`` (the ``rllib`` extra); the library and the other agents never
do. ``train_rllib.py`` trains with it; ``docs/rllib.md`` explains it.

- :mod:`agents.training.rllib.env`: ``boon_v0`` as an RLlib ``MultiAgentEnv``.
- :mod:`agents.training.rllib.league`: the modules, seat mapping, metrics and snapshots of
  self-play.
- :mod:`agents.players.rllib_agent`: a trained RLlib checkpoint as an
  :class:`~agents.players.base.Agent`.
"""
