"""PettingZoo's own conformance tests, with every warning an error (pyproject.toml)."""

from __future__ import annotations

import sys
import warnings

import pytest
from pettingzoo.test import api_test, seed_test

from boon_env import boon_v0

TABLES = [(n, episode) for n in (3, 4, 5) for episode in ("round", "game")]


@pytest.mark.usefixtures("boon_in_api_test_lists")
@pytest.mark.parametrize(("players", "episode"), TABLES)
def test_api_test_wrapped(players: int, episode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(boon_v0.env(num_players=players, episode=episode), num_cycles=1000)


@pytest.mark.usefixtures("boon_in_api_test_lists")
@pytest.mark.parametrize(("players", "episode"), TABLES)
def test_api_test_raw(players: int, episode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(boon_v0.raw_env(num_players=players, episode=episode), num_cycles=1000)


@pytest.mark.parametrize(("players", "episode"), TABLES)
def test_seed_test(players: int, episode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        seed_test(lambda: boon_v0.env(num_players=players, episode=episode), num_cycles=500)


def test_api_test_with_a_round_cap_and_few_victory_cards(boon_in_api_test_lists: None) -> None:
    # Truncation at max_rounds and termination at 0 Victory Cards both pass the API checks.
    for config in ({"max_rounds": 2}, {"starting_victory_cards": 1}):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            api_test(boon_v0.env(episode="game", **config), num_cycles=1000)


def test_without_registration_api_test_warns_about_dict_observations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The conftest fixture is needed, and only for the Dict observation warnings.
    module = sys.modules["pettingzoo.test.api_test"]
    for name in ("env_obs_space", "env_obs_dicts"):
        monkeypatch.setattr(module, name, [n for n in getattr(module, name) if n != "boon_v0"])
    with pytest.warns(UserWarning, match="Observation"):
        api_test(boon_v0.env(), num_cycles=10)
