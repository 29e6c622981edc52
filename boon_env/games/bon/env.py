"""# B.O.N

| | |
| --- | --- |
| Import | `from boon_env import bon_v0` |
| Actions | Discrete |
| Parallel API | No |
| Manual control | `boon play --game bon` |
| Agents | `agents = ['player_0', ..., 'player_{n-1}']` (3, 4 or 5) |
| Action shape | (1,) |
| Action values | Discrete(34) |
| Observation shape | Dict: `observation` (OBS_SIZE,) float32, `action_mask` (34,) int8 |

B.O.N ("Boast or Nothing") is a trick-taking game for 3-5 players with three colours whose
ranks shift after every trick: the colours stand in a tower, the highest card of the strongest
colour in a trick wins it, and the winning colour then drops to the bottom of the tower. Pass
cards can be played at any time and never win. Each round of 7 tricks scores 1 point for taking
exactly the table's trick goal and 2 for taking none; the first to 5 points wins. The full rules
are in `docs/bon.md`.

```python
>>> from boon_env import bon_v0
>>> env = bon_v0.env(num_players=4)
>>> env.reset(seed=42, options={"leader": 2})
>>> env.agent_selection  # the first leader
'player_2'
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())  # 7 cards, all legal to lead
((508,), 7)

```

## Configuration

`bon_v0.env(num_players=4, episode="round", target_score=5, hidden_leftovers=False,
max_rounds=None, render_mode=None)`. `episode="round"` ends every agent's episode after one
round; `episode="game"` plays rounds (the tower carrying over, the first lead passing left)
until a score reaches `target_score` (termination) or `max_rounds` rounds were played
(truncation). `hidden_leftovers=True` deals the two leftovers face down.

## Observation Space

`observation` is the vector of `boon_env.games.bon.encoding.PIECES` (table in `docs/bon.md`), seen
from the observing seat, seats relative (0 = me, 1 = my left, ...).
`boon_env.games.bon.encoding.decode` splits it back into named pieces.

## Legal Actions Mask

`action_mask[a] == 1` when action `a` is legal for the agent to act; all zeros for every other
agent and once the episode is over.

## Action Space

Card ids `colour * 11 + (number - 1)`: red 1-11 = 0-10, yellow 1-11 = 11-21, blue 1-11 = 22-32
(numbers above the table's range are never dealt); 33 plays a Pass card.

## Rewards

When a round is scored each agent receives the points it scored in it (0, 1 or 2); every other
step rewards 0. The round's details are in every agent's `info["round"]` (and, at the end of a
game, `info["game"]`), shown to each agent at its next `last()`.

## Version History

* v0: initial release.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, ClassVar

import numpy as np

from boon_env.core.env import (
    CardGameEnv,
    card_game_metadata,
    deal_option,
    env_function,
    seat_option,
)
from boon_env.games.bon.config import EnvConfig
from boon_env.games.bon.encoding import OBS_SIZE, encode
from boon_env.games.bon.render import render_table
from boon_env.games.bon.rules import NUM_ACTIONS, Deal, Game, RoundResult, check_tower, random_tower

__all__ = ["env", "raw_env"]

# The reset options of B.O.N: a deal, a tower, a leader (each None when not given).
_Chosen = tuple[Deal | None, tuple[int, ...] | None, int | None]


class raw_env(CardGameEnv):  # noqa: N801 - PettingZoo's naming convention
    """Turn bookkeeping over :mod:`boon_env.games.bon.rules`; see the module docstring.

    ``reset(seed, options)`` reads ``{"deal": {"hands": [[ids], ...], "leftovers": [ids]},
    "tower": [colour, colour, colour] (top first), "leader": seat}``, any subset; what is not
    given is drawn from the env's generator (tower, then leader, then deal).
    """

    metadata: ClassVar[dict[str, Any]] = card_game_metadata("bon_v0")
    config_type = EnvConfig
    obs_size = OBS_SIZE
    num_actions = NUM_ACTIONS
    action_meaning = "a Boast card id 0-32, 33 a Pass card"
    game: Game | None

    # ---------------------------------------------------------------------- game hooks
    def _read_options(self, options: Mapping[str, Any]) -> _Chosen:
        config = self.config.game
        deal = deal_option(options, ("hands", "leftovers"), partial(Deal.from_cards, config))
        tower = None
        if "tower" in options:
            try:
                tower = check_tower(options["tower"])
            except ValueError as error:
                raise ValueError(f"options['tower']: {error}") from None
        return deal, tower, seat_option(options, "leader", config.num_players)

    def _new_game(self, chosen: _Chosen) -> Game:
        deal, tower, leader = chosen
        if tower is None:
            tower = random_tower(self._rng)
        leader, deal = self._seat_and_deal(leader, deal)
        return Game(self.config.game, deal, tower, leader)

    def _random_deal(self) -> Deal:
        return Deal.random(self.config.game, self._rng)

    def _encode(self, seat: int) -> np.ndarray:
        return encode(self.game, seat, not self.config.hidden_leftovers)

    def _round_rewards(self, result: RoundResult) -> tuple[int, ...]:
        return result.round_points

    def _round_info(self, result: RoundResult) -> dict[str, Any]:
        return round_info(self.game, result)

    def _render_text(self) -> str:
        return render_table(self.game, not self.config.hidden_leftovers)


env = env_function(raw_env)


def round_info(game: Game, result: RoundResult) -> dict[str, Any]:
    """The public record of a scored round (the ``info["round"]`` contract)."""
    state = game.round
    return {
        "tricks_won": list(state.tricks_won),
        "round_points": list(result.round_points),
        "scores": list(result.scores),
        "tower": list(state.tower),
        "tricks": [trick.record() for trick in state.tricks],
    }
