"""What every game of the package shares: card sets as bitmasks, observation layouts built from
named pieces, and the AEC bookkeeping of a turn-based card-game environment."""
