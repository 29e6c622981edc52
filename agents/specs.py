"""Agent specs: the short strings the arena and the command line use to name a player.

A spec is ``kind`` or ``kind:arg``; the kinds a game offers are its
:attr:`~agents.registry.spec.GameSpec.players` in the registry. Every game has ``random``, its
``heuristic`` (``heuristic:name=value,...`` sets the heuristic's parameters) and ``ppo``
(bare: the game's shipped model for the table size, ``agents/models/<game>_ppo_<n>p.npz``;
``ppo:PATH`` a model file of that game; a ``.zip`` of stable-baselines3 is unpickled: trusted
files only), ``search[:samples=N,rollout=ppo,margin=M,model=PATH]`` (the determinized search of
every game, :class:`~agents.players.search.SearchPlayer`) and ``expert`` (that search at the
settings chosen for the table size). Boon also has:

| spec | player |
| --- | --- |
| ``search:samples=50,points_weight=0.1`` | Boon's search options (:class:`~agents.games.boon.search.SearchParams`) |
| ``search:samples=16,inference=ppo,rollout=ppo`` | the search that reads the play (:mod:`agents.games.boon.inference`) |
| ``expert`` | the strongest player within 0.1 s a decision: :data:`~agents.games.boon.search.EXPERT` search for the table size |
| ``blind:SPEC``, ``cautious:K:SPEC``, ``bold:K:SPEC`` | :class:`~agents.games.boon.holdings.HoldingBidder`: SPEC bidding by its Victory Cards (game mode) |
| ``rllib:CHECKPOINT_DIR`` | :class:`~agents.players.rllib_agent.RLlibAgent`, a ``train_rllib.py`` checkpoint (needs the ``rllib`` extra) |
"""  # noqa: E501 - a table row per kind reads better than wrapped rows

from __future__ import annotations

from agents.players.base import Agent, PlayerRequest
from agents.registry import game_spec

SPEC_HELP = (
    "agent spec: random, heuristic[:name=value,...], search[:samples=N,rollout=ppo,...], "
    "expert, ppo[:path/to/model.npz]; Boon also search:inference=ppo, rllib:CHECKPOINT_DIR, "
    "cautious:K:SPEC, ... (docs/cli.md)"
)
"""What a command line's help says of agent specs."""
OPPONENTS_HELP = f"one spec for every opponent, or one per opponent seat; {SPEC_HELP}"
"""The help of an option naming the opponents (``--opponents``)."""


def make_agent(
    spec: str, seed: int | None = None, num_players: int = 4, game: str | None = None
) -> Agent:
    """Build the agent a spec names (its ``name`` is the spec) for a table of ``num_players``
    of ``game`` (a registered game's name; ``None``: the registry's default game).

    Raises:
        ValueError: an unknown game or kind (listing the known ones), a malformed or unknown
            parameter (listing the kind's parameters), or a model that cannot be loaded or was
            made for another table size (naming the path).
    """
    spec_of_game = game_spec(game)
    kind, _, arg = spec.strip().partition(":")
    if kind not in spec_of_game.players:
        raise ValueError(
            f"unknown agent kind {kind!r} in spec {spec!r}; known kinds for "
            f"{spec_of_game.name}: {tuple(spec_of_game.players)}"
        )
    request = PlayerRequest(
        spec=spec,
        kind=kind,
        arg=arg,
        seed=seed,
        num_players=num_players,
        game=spec_of_game,
        make=lambda inner: make_agent(inner, seed, num_players, spec_of_game.name),
    )
    return spec_of_game.players[kind](request)
