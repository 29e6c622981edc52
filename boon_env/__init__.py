"""Boon: a PettingZoo environment and rules engine for the trick-taking game Boon."""

from pettingzoo import aec_registry, register

if "boon/bon-v0" not in aec_registry:  # a second import (a reload) must not warn
    register("aec", "boon/bon-v0", entry_point="boon_env.bon_v0:env")
