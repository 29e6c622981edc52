"""BOYN's entry in the game registry (:mod:`agents.registry`)."""

from __future__ import annotations

from agents.games.boyn import bench
from agents.games.boyn.arena import BOYN as BOYN_ARENA
from agents.games.boyn.evaluator import boyn_evaluator
from agents.games.boyn.heuristic import BoynHeuristicAgent, BoynHeuristicParams
from agents.games.boyn.search import BOYN_SEARCH
from agents.games.boyn.terminal import BoynTerminal
from agents.players.builders import heuristic_player, ppo_player, random_player
from agents.players.search import expert_builder, search_builder
from agents.registry.spec import GameSpec, RulesPlay
from boon_env.games import env_spec

BOYN = GameSpec(
    env=env_spec("boyn"),
    arena=BOYN_ARENA,
    players={
        "random": random_player,
        "heuristic": heuristic_player(BoynHeuristicAgent, BoynHeuristicParams),
        "search": search_builder(BOYN_SEARCH),
        "expert": expert_builder(BOYN_SEARCH),
        "ppo": ppo_player,
    },
    heuristic=BoynHeuristicAgent,
    terminal=BoynTerminal,
    rules_play=RulesPlay(bench.new_round, bench.score),
    # The margin: the others' mean points added minus mine (what the arena ranks by).
    unit="margin",
    value_name="margin",
    value_of="mean_margin",
    reward_scale=0.02,
    training="agents.games.boyn.training:RECIPE",
    web="agents.games.boyn.web:BOYN_WEB",
    evaluator=boyn_evaluator,
)
