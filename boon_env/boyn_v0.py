# The boyn_v0 environment as PettingZoo names it (``env()``, ``raw_env()``): the public face of
# boon_env.games.boyn.env, whose docstring is this module's documentation.
from boon_env.games.boyn.env import BoynEnvConfig, EnvConfig, __doc__, env, raw_env, round_info  # noqa: F401

__all__ = ["BoynEnvConfig", "EnvConfig", "env", "raw_env"]
