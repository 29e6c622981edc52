"""Boon's entry in the game registry (:mod:`agents.registry`)."""

from __future__ import annotations

from agents.games.boon import bench, games
from agents.games.boon.arena import BOON as BOON_ARENA
from agents.games.boon.evaluator import boon_evaluator
from agents.games.boon.heuristic import HeuristicAgent, HeuristicParams
from agents.games.boon.players import holding_player
from agents.games.boon.search import BOON_SEARCH
from agents.games.boon.terminal import BoonTerminal
from agents.players.builders import heuristic_player, ppo_player, random_player, rllib_player
from agents.players.search import expert_builder, search_builder
from agents.registry.spec import GameSpec, RulesPlay
from boon_env.games import env_spec

BOON = GameSpec(
    env=env_spec("boon"),
    arena=BOON_ARENA,
    players={
        "random": random_player,
        "heuristic": heuristic_player(HeuristicAgent, HeuristicParams),
        "search": search_builder(BOON_SEARCH),
        "expert": expert_builder(BOON_SEARCH),
        "ppo": ppo_player,
        "rllib": rllib_player,
        "blind": holding_player,
        "cautious": holding_player,
        "bold": holding_player,
    },
    heuristic=HeuristicAgent,
    terminal=BoonTerminal,
    rules_play=RulesPlay(bench.new_round, bench.score),
    unit="Victory Cards",
    value_name="vc",
    value_of="mean_victory_cards",
    whole_games=games.whole_games,
    bidding="agents.games.boon.studies.advise",
    training="agents.games.boon.training:RECIPE",
    web="agents.games.boon.web:BOON_WEB",
    rllib="agents.games.boon.rllib:round_figures",
    evaluator=boon_evaluator,
)
