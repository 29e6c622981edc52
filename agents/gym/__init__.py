"""Single-agent Gymnasium envs: one learning seat at a table of a game, the other seats played
by opponents named by agent spec (``docs/gym.md`` is the full page).

| id | one table (``gymnasium.make``) | many tables (``gymnasium.make_vec``) |
| --- | --- | --- |
| ``boon_env/Boon-v0``, ``boon_env/BON-v0``, ``boon_env/BOYN-v0`` | :class:`~agents.gym.single.SingleAgentEnv` on the game's PettingZoo ``raw_env`` | :class:`~agents.gym.vector.SingleAgentVectorEnv` on the game's batch engine |

``import boon_env`` registers the ids with string entry points into this package (the library
names it but never imports it): opponent specs, the players they build and each game's unit of
value belong to the application (:func:`agents.specs.make_agent`, :mod:`agents.registry`), so the
envs live here. The options of both envs are :class:`~agents.gym.config.SeatConfig`'s;
:mod:`agents.gym.opponents` plays the other seats, and
:class:`~agents.gym.wrappers.ObservationOnly` gives algorithms that read a ``Box`` the
observation vector alone.

>>> import gymnasium, boon_env
>>> env = gymnasium.make("boon_env/BON-v0", opponents=["heuristic", "random"], seat="rotate")
>>> obs, info = env.reset(seed=0)
>>> info["seat"], obs["observation"].shape, obs["action_mask"].dtype
(0, (508,), dtype('int8'))

"""  # noqa: E501 - a table row per id reads better than wrapped rows

from agents.gym.config import SeatConfig
from agents.gym.single import SingleAgentEnv
from agents.gym.vector import SingleAgentVectorEnv
from agents.gym.wrappers import ObservationOnly

__all__ = ["ObservationOnly", "SeatConfig", "SingleAgentEnv", "SingleAgentVectorEnv"]
