"""Players, the arena, training, the ``boon`` command and the browser table for the games of
:mod:`boon_env`.

| package | role |
| --- | --- |
| :mod:`agents.players` | what every game's players share: the agent protocol, random, trained policies |
| :mod:`agents.registry` | the game registry: one :class:`~agents.registry.spec.GameSpec` per game, looked up by name |
| :mod:`agents.games` | one package per game: its heuristic, views, arena records, terminal, browser table and spec, and its upper parts (training recipe, self-play tables, RLlib figures, studies) |
| :mod:`agents.specs` | agent specs (``heuristic``, ``ppo:PATH``, ...) looked up in the registry |
| :mod:`agents.eval` | the duplicate arena, tournament, compare and bench |
| :mod:`agents.training` | self-play (stable-baselines3) and Ray RLlib, for any game with a recipe |
| :mod:`agents.cli`, :mod:`agents.web` | the ``boon`` command and the browser table |

Architecture and how to add a game: ``docs/architecture.md``.
"""  # noqa: E501 - a table row per package reads better than wrapped rows
