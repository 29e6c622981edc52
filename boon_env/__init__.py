"""boon_env: rules engines, PettingZoo environments and batch engines for three card games.

| game | environment | rules (numpy only) | batch engine |
| --- | --- | --- | --- |
| Boon | :mod:`boon_env.boon_v0` | :mod:`boon_env.games.boon.rules` | :class:`~boon_env.games.boon.vector.VectorBoon` |
| B.O.N | :mod:`boon_env.bon_v0` | :mod:`boon_env.games.bon.rules` | |
| BOYN | :mod:`boon_env.boyn_v0` | :mod:`boon_env.games.boyn.rules` | |

Each game is one package under :mod:`boon_env.games` (``rules/``, ``encoding``, ``config``,
``env``, ``render``, ``vector``); :mod:`boon_env.core` holds what they share. Importing the
package registers the environments in PettingZoo's registry, so
``pettingzoo.make("aec", "boon/boon-v0", num_players=4)`` builds ``boon_v0.env(num_players=4)``
(``"boon/bon-v0"`` builds ``bon_v0.env`` and ``"boon/boyn-v0"`` builds ``boyn_v0.env``),
and the single-agent envs in Gymnasium's: ``gymnasium.make("boon_env/Boon-v0")`` (also
``BON-v0``, ``BOYN-v0``) is one learning seat against opponents named by agent spec, and
``gymnasium.make_vec(..., num_envs=1024)`` that seat at every table of the batch engine
(``docs/gym.md``; the classes are in :mod:`agents.gym`, as agent specs are).
The package itself imports only the standard library, so that a game's rules import with numpy
alone; PettingZoo is imported by the environments.
"""  # noqa: E501 - a table row per game reads better than wrapped rows

from boon_env.games import ENVS


def _register_environments() -> None:
    try:
        from pettingzoo import register
    except ImportError:  # the rules alone are usable without PettingZoo; its registry is not
        return
    for spec in ENVS.values():
        register("aec", spec.pettingzoo_id, entry_point=f"{spec.package}.env:env")


# The single-agent Gymnasium envs: one learning seat, the others played by agents named by
# spec ("heuristic", "ppo:model.npz", ...). Agent specs are the application's (agents.specs), so
# the envs live in agents.gym; the library only names them, and gymnasium.make imports them.
GYMNASIUM_ENTRY_POINT = "agents.gym.single:SingleAgentEnv"
GYMNASIUM_VECTOR_ENTRY_POINT = "agents.gym.vector:SingleAgentVectorEnv"


def _register_gymnasium_environments() -> None:
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # as for PettingZoo: the rules alone need neither
        return

    for spec in ENVS.values():
        if spec.gymnasium_id not in registry:
            register(
                id=spec.gymnasium_id,
                entry_point=GYMNASIUM_ENTRY_POINT,
                vector_entry_point=GYMNASIUM_VECTOR_ENTRY_POINT,
                kwargs={"game": spec.name},
            )


_register_environments()
_register_gymnasium_environments()
