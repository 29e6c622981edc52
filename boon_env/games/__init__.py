"""One package per game, each with the same modules: ``rules/`` (pure: standard library and
numpy), ``encoding`` (observations), ``config`` (the env's frozen config), ``env`` (the
PettingZoo ``raw_env``/``env``), ``render`` (text) and, where it has one, ``vector`` (the batch
engine)."""
