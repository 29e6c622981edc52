"""Boon's search is the search player of every game (:mod:`agents.players.search`) with Boon's
hooks: on fixed seeds it makes the decisions the Boon-only search made before it (recorded in
``data/boon_search_decisions.json`` from that search), so its measured strength stands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.games.boon.search import SearchAgent
from agents.players.search import SearchPlayer
from agents.specs import make_agent
from boon_env.boon_v0 import env as boon_env

RECORDED = json.loads((Path(__file__).parent / "data" / "boon_search_decisions.json").read_text())


def decisions(spec: str, n: int, seed: int, rounds: int) -> list[int]:
    """The actions ``spec`` takes at seat ``r % n`` of round ``r`` against heuristics."""
    made = []
    agent = make_agent(spec, seed=seed, num_players=n, game="boon")
    heuristic = make_agent("heuristic", seed=0, num_players=n, game="boon")
    for r in range(rounds):
        env = boon_env(num_players=n)
        env.reset(seed=seed * 100 + r)
        agent.reset(seed=seed * 1000 + r)
        for name in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mine = int(name.split("_")[1]) == r % n
            action = (agent if mine else heuristic).act(obs["observation"], obs["action_mask"])
            if mine:
                made.append(int(action))
            env.step(action)
    return made


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_boons_search_decides_as_before(case: str) -> None:
    spec, n, seed, rounds = case.split("|")
    assert decisions(spec, int(n), int(seed), int(rounds)) == RECORDED[case]


def test_boons_search_is_the_generic_player() -> None:
    agent = make_agent("expert", num_players=4, game="boon")
    assert isinstance(agent, SearchAgent) and isinstance(agent, SearchPlayer)
