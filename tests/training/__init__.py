"""Self-play training: the rollout envs, the trainer, checkpoints, RLlib."""
