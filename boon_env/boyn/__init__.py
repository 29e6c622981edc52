"""BOYN ("Booger On Your Neighbor"), a shedding game: pure rules (standard library and numpy
only) under the ``boyn_v0`` environment. See ``docs/boyn.md``."""
