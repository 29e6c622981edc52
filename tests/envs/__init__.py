"""The PettingZoo environments: API contract, observations, leakage, determinism, wrappers."""
