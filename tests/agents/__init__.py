"""Players, the game registry, the arena, tournament, compare and the studies."""
