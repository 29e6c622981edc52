"""Fixtures every test folder shares; the helpers are in :mod:`tests.helpers`."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

# One BLAS thread, as the `boon` command sets (a value the user set wins), before numpy loads:
# the tests that run the command in this process (and the searches that read the play with
# the policy's small products) are many times slower with more threads on a busy machine.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import pettingzoo.test.api_test  # noqa: E402, F401 - loads the module so sys.modules holds it
import pytest  # noqa: E402


@pytest.fixture
def boon_in_api_test_lists() -> Iterator[None]:
    """Register ``boon_v0``, ``bon_v0`` and ``boyn_v0`` with PettingZoo's api_test as
    Dict-observation envs.

    api_test warns "Observation space ... should be box or discrete" and "Observation is not a
    NumPy array" for every Dict observation unless the env's name is in the module's
    ``env_obs_space`` and ``env_obs_dicts`` lists, where PettingZoo lists its own classic
    games that use the same ``{"observation", "action_mask"}`` Dict. Every other warning stays
    an error. ``pettingzoo.test.api_test`` the attribute is the function, so the module is
    taken from ``sys.modules``.
    """
    module = sys.modules["pettingzoo.test.api_test"]
    added = []
    for name in ("env_obs_space", "env_obs_dicts"):
        listed = getattr(module, name)
        for env_name in ("boon_v0", "bon_v0", "boyn_v0"):
            if env_name not in listed:
                listed.append(env_name)
                added.append((listed, env_name))
    yield
    for listed, env_name in added:
        listed.remove(env_name)
