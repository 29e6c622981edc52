"""The games' own packages: one per game (``boon``, ``bon``, ``boyn``), each with its players,
views, arena records, terminal and web adapters, its registry entry (``spec.py``) and its upper
parts (training recipe, self-play tables, RLlib part, studies). The generic adapters every game's
terminal and browser table build on are :mod:`agents.games.terminal` and :mod:`agents.games.web`.

Nothing outside a game's package imports it: everything asks the game registry
(:mod:`agents.registry`), which names the built-in games' specs by reference.
"""

# The registry first: it loads the games' specs, so that importing a game's module directly
# (``agents.games.boon.search``) finds every game registered and no spec half-loaded.
import agents.registry  # noqa: F401
