"""Training runs small enough for the test suite."""

# A few hundred learner decisions: 2 tables x 64 steps = 128 per update.
TINY = [
    "--num-tables", "2",
    "--n-steps", "64",
    "--batch-size", "64",
    "--n-epochs", "1",
    "--net-arch", "32,32",
    "--bc-rounds", "10",
    "--bc-epochs", "1",
    "--snapshot-every", "1",
    "--eval-every", "2",
    "--eval-deals", "2",
    "--checkpoint-every", "2",
    "--screen-every", "256",
    "--screen-deals", "2",
    "--arena-workers", "1",
    "--rollout-workers", "1",
    "--update-threads", "1",
    "--no-progress-bar",
]  # fmt: skip
