"""Boon: a PettingZoo environment and rules engine for the trick-taking game Boon.

Importing the package registers the environments in PettingZoo's registry, so
``pettingzoo.make("aec", "boon/boon-v0", num_players=4)`` builds ``boon_v0.env(num_players=4)``
(``"boon/bon-v0"`` builds ``bon_v0.env`` and ``"boon/boyn-v0"`` builds ``boyn_v0.env``).
"""

from pettingzoo import register

register("aec", "boon/boon-v0", entry_point="boon_env.boon_v0:env")
register("aec", "boon/bon-v0", entry_point="boon_env.bon_v0:env")
register("aec", "boon/boyn-v0", entry_point="boon_env.boyn_v0:env")
