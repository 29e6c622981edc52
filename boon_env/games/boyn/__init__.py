"""BOYN ("Booger On Your Neighbor"), a shedding game: see ``docs/boyn.md``."""
