"""boon_env: rules engines, PettingZoo environments and batch engines for three card games.

| game | environment | rules (numpy only) | batch engine |
| --- | --- | --- | --- |
| Boon | :mod:`boon_env.boon_v0` | :mod:`boon_env.games.boon.rules` | :class:`~boon_env.games.boon.vector.VectorBoon` |
| B.O.N | :mod:`boon_env.bon_v0` | :mod:`boon_env.games.bon.rules` | |
| BOYN | :mod:`boon_env.boyn_v0` | :mod:`boon_env.games.boyn.rules` | |

Each game is one package under :mod:`boon_env.games` (``rules/``, ``encoding``, ``config``,
``env``, ``render``, ``vector``); :mod:`boon_env.core` holds what they share. Registering a game
(:func:`boon_env.games.register_env`, at import for these three, at any time for another)
registers its environment in PettingZoo's registry, so
``pettingzoo.make("aec", "boon/boon-v0", num_players=4)`` builds ``boon_v0.env(num_players=4)``
(``"boon/bon-v0"`` builds ``bon_v0.env`` and ``"boon/boyn-v0"`` builds ``boyn_v0.env``),
and the single-agent envs in Gymnasium's: ``gymnasium.make("boon_env/Boon-v0")`` (also
``BON-v0``, ``BOYN-v0``) is one learning seat against opponents named by agent spec, and
``gymnasium.make_vec(..., num_envs=1024)`` that seat at every table of the batch engine
(``docs/gym.md``; the classes are in :mod:`agents.gym`, as agent specs are).
The package itself imports only the standard library (and PettingZoo's and Gymnasium's
registries, where they are installed), so that a game's rules import with numpy alone.
"""  # noqa: E501 - a table row per game reads better than wrapped rows

from boon_env.games import ENVS, GYMNASIUM_ENTRY_POINT, GYMNASIUM_VECTOR_ENTRY_POINT

__all__ = ["ENVS", "GYMNASIUM_ENTRY_POINT", "GYMNASIUM_VECTOR_ENTRY_POINT"]
