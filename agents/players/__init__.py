"""What every game's players share: the agent protocol, the random player and trained policies
(numpy files, stable-baselines3 and RLlib checkpoints)."""
