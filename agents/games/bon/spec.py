"""B.O.N's entry in the game registry (:mod:`agents.registry`)."""

from __future__ import annotations

from agents.games.bon import bench
from agents.games.bon.arena import BON as BON_ARENA
from agents.games.bon.evaluator import bon_evaluator
from agents.games.bon.heuristic import BonHeuristicAgent, BonHeuristicParams
from agents.games.bon.search import BON_SEARCH
from agents.games.bon.terminal import BonTerminal
from agents.players.builders import heuristic_player, ppo_player, random_player
from agents.players.search import expert_builder, search_builder
from agents.registry.spec import GameSpec, RulesPlay
from boon_env.games import env_spec

BON = GameSpec(
    env=env_spec("bon"),
    arena=BON_ARENA,
    players={
        "random": random_player,
        "heuristic": heuristic_player(BonHeuristicAgent, BonHeuristicParams),
        "search": search_builder(BON_SEARCH),
        "expert": expert_builder(BON_SEARCH),
        "ppo": ppo_player,
    },
    heuristic=BonHeuristicAgent,
    terminal=BonTerminal,
    rules_play=RulesPlay(bench.new_round, bench.score),
    # Points a round: 1 for the exact trick goal, 2 for no trick.
    unit="points",
    value_name="points",
    value_of="mean_points",
    training="agents.games.bon.training:RECIPE",
    web="agents.games.bon.web:BON_WEB",
    evaluator=bon_evaluator,
)
