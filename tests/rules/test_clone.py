"""``Round.clone()`` of B.O.N and BOYN (rollouts copy rounds with it): a copy that plays on
without touching the original, and plays exactly as the original would."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boon_env.games.bon import rules as bon
from boon_env.games.boyn import rules as boyn


def _fields(state: Any) -> dict[str, Any]:
    """Every slot of a round, the generator by its state."""
    fields = {}
    for name in type(state).__slots__:
        value = getattr(state, name)
        fields[name] = value.bit_generator.state if name == "rng" else value
    return fields


def _round(game: str, n: int, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    if game == "bon":
        config = bon.GameConfig(num_players=n)
        return bon.Round(config, bon.Deal.random(config, rng), bon.random_tower(rng), seed % n)
    config = boyn.GameConfig(num_players=n)
    return boyn.Round(config, boyn.Deal.random(config, rng), seed % n, rng)


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(["bon", "boyn"]),
    n=st.integers(3, 5),
    seed=st.integers(0, 2**16),
    moves=st.integers(0, 30),
)
def test_a_clone_plays_on_alone_and_as_the_original_would(
    game: str, n: int, seed: int, moves: int
) -> None:
    state = _round(game, n, seed)
    rng = np.random.default_rng(seed + 1)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(int(rng.choice(state.legal_actions())))
    before = copy.deepcopy(_fields(state))
    clone = state.clone()
    assert _fields(clone) == before
    played = []
    while not clone.is_over:
        played.append(int(rng.choice(clone.legal_actions())))
        clone.apply(played[-1])
    assert _fields(state) == before  # the original is untouched
    for action in played:
        state.apply(action)
    assert _fields(state) == _fields(clone)  # and plays on exactly as the copy did
