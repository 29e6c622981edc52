"""The test suite, by layer: rules, envs, agents, training, cli, web, smoke."""
