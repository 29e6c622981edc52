"""Players, the arena, training, the ``boon`` command and the browser table for the games of
:mod:`boon_env`.

| package | role |
| --- | --- |
| :mod:`agents.players` | what every game's players share: the agent protocol, random, trained policies |
| :mod:`agents.games` | the game registry (one :class:`~agents.games.base.GameSpec` per game) and one package per game: its heuristic, views, arena records and terminal |
| :mod:`agents.specs` | agent specs (``heuristic``, ``ppo:PATH``, ...) looked up in the registry |
| :mod:`agents.eval` | the duplicate arena, tournament, compare and bench |
| :mod:`agents.training` | self-play (stable-baselines3) and Ray RLlib |
| :mod:`agents.studies` | bidding research |
| :mod:`agents.cli`, :mod:`agents.web` | the ``boon`` command and the browser table |

Architecture and how to add a game: ``docs/architecture.md``.
"""  # noqa: E501 - a table row per package reads better than wrapped rows

from boon_env.core import aliases

# The import paths of the modules before the packages by role keep working.
aliases.install(
    {
        "agents.advise": "agents.studies.advise",
        "agents.arena": "agents.eval.arena",
        "agents.base": "agents.players.base",
        "agents.bench": "agents.eval.bench",
        "agents.bon_arena": "agents.games.bon.arena",
        "agents.bon_heuristic": "agents.games.bon.heuristic",
        "agents.bon_play": "agents.games.bon.terminal",
        "agents.bon_view": "agents.games.bon.view",
        "agents.boyn_arena": "agents.games.boyn.arena",
        "agents.boyn_cli": "agents.games.boyn.terminal",
        "agents.boyn_heuristic": "agents.games.boyn.heuristic",
        "agents.compare": "agents.eval.compare",
        "agents.game_arena": "agents.eval.game_arena",
        "agents.heuristic": "agents.games.boon.heuristic",
        "agents.history": "agents.games.boon.history",
        "agents.holdings": "agents.games.boon.holdings",
        "agents.inference": "agents.games.boon.inference",
        "agents.pick_study": "agents.studies.pick",
        "agents.policy": "agents.players.policy",
        "agents.random_agent": "agents.players.random_agent",
        "agents.rllib": "agents.training.rllib",
        "agents.rllib.agent": "agents.players.rllib_agent",
        "agents.rllib.env": "agents.training.rllib.env",
        "agents.rllib.league": "agents.training.rllib.league",
        "agents.search": "agents.games.boon.search",
        "agents.terminal": "agents.games.terminal",
        "agents.tournament": "agents.eval.tournament",
        "agents.trained": "agents.players.trained",
        "agents.view": "agents.games.boon.view",
    }
)
