"""# BOYN ("Booger On Your Neighbor")

| | |
| --- | --- |
| Import | `from boon_env import boyn_v0` |
| Actions | Discrete |
| Parallel API | No |
| Manual control | `boon play --game boyn` |
| Agents | `agents = ['player_0', ..., 'player_{n-1}']` (2 to 6) |
| Action shape | (1,) |
| Action values | Discrete(88) |
| Observation shape | Dict: `observation` (251,) float32, `action_mask` (88,) int8 |

BOYN is a house variant of Crazy Eights and Uno on two standard decks: follow the active card's
suit or rank and be the first to shed every card. Aces reverse the direction of play, 2s make
the next player draw (2 per 2 of a run of 2s) and lose its turn, red 3s play on anything and
make the next player draw 5, 7s skip the next player, Jacks are wild and name a suit, and a
Queen may swap its player's hand with anyone's. The others score the cards they hold; the game
ends when a total reaches `game_limit`. The full rules are in `docs/boyn.md`.

```python
>>> from boon_env import boyn_v0
>>> env = boyn_v0.env(num_players=4)
>>> env.reset(seed=42, options={"dealer": 3})
>>> env.agent_selection  # the player left of the dealer plays first
'player_0'
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, obs["action_mask"].shape
((251,), (88,))

```

## Configuration

`boyn_v0.env(num_players=4, episode="round", draw_rule="until_playable", red_three_points=25,
game_limit=250, max_turns=1000, render_mode=None)`. `episode="round"` ends every agent's
episode after one round; `episode="game"` plays rounds (the deal passing left) until a total
reaches `game_limit` (termination) or a round is truncated at `max_turns` (truncation).
`draw_rule="one"` draws a single card for want of a playable one instead of drawing until one
comes.

## Observation Space

`observation` is the vector of `boon_env.games.boyn.encoding.LAYOUT` (table in `docs/boyn.md`), seen
from the observing seat, seats relative (0 = me, 1 = my left, ...): my hand and the discard
pile as counts per card kind, the active card's rank and suit, the 2-run, the direction, every
seat's hand size, the stock's size, the totals, the table size and the dealer.
`boon_env.games.boyn.encoding.LAYOUT.decode` splits it back into named pieces.

## Legal Actions Mask

`action_mask[a] == 1` when action `a` is legal for the agent to act; all zeros for every other
agent and once the episode is over. Whenever an agent acts, at least one action is legal: a
player with no playable card draws (and passes) inside the environment.

## Action Space

A card's kind is `suit * 13 + rank - 1` (clubs 0, diamonds 1, hearts 2, spades 3; ace 1 ..
king 13); the two decks' copies share it.

| action | meaning |
| --- | --- |
| 0-51 | play a card of that kind (a Queen plainly; Jack ids are never legal) |
| 52-67 | `52 + 4 * j + s`: play the Jack of suit `j`, naming suit `s` |
| 68-87 | `68 + 5 * q + r - 1`: play the Queen of suit `q` and swap hands with the seat `r` places to the left |

## Rewards

When a round ends each agent receives minus the points it adds to its total (0 for the player
who went out, 0 for everyone in a truncated round); every other step rewards 0. The round's
record is in every agent's `info["round"]` (and at the end of a game `info["game"]`).

## Version History

* v0: initial release.
"""  # noqa: E501 - a table row per action reads better than wrapped rows

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
from boon_env.games.boyn.config import BoynEnvConfig, EnvConfig
from boon_env.games.boyn.encoding import OBS_SIZE, encode
from boon_env.games.boyn.render import render_table
from boon_env.games.boyn.rules import NUM_ACTIONS, Deal, Game, RoundResult

__all__ = ["BoynEnvConfig", "EnvConfig", "env", "raw_env"]


class raw_env(CardGameEnv):  # noqa: N801 - PettingZoo's naming convention
    """Turn bookkeeping over :mod:`boon_env.games.boyn.rules`; see the module docstring.

    ``reset(seed, options)`` deals the first round and runs the forced draws up to the first
    decision. It reads ``{"dealer": seat, "deal": {"hands": [[kind ids], ...], "stock": [kind
    ids, top first]}}``, any subset; without a dealer the first dealer is drawn from the env's
    generator.
    """

    metadata: ClassVar[dict[str, Any]] = card_game_metadata("boyn_v0")
    config_type = EnvConfig
    obs_size = OBS_SIZE
    num_actions = NUM_ACTIONS
    action_meaning = "0-51 a card kind, 52-67 a Jack naming a suit, 68-87 a Queen's swap"
    game: Game | None

    def _read_options(self, options: Mapping[str, Any]) -> tuple[int | None, Deal | None]:
        rules = self.config.rules
        dealer = seat_option(options, "dealer", rules.num_players)
        return dealer, deal_option(options, ("hands", "stock"), partial(Deal.from_cards, rules))

    def _new_game(self, chosen: tuple[int | None, Deal | None]) -> Game:
        dealer, deal = self._seat_and_deal(*chosen)
        return Game(self.config.rules, deal, dealer, self._rng)

    def _encode(self, seat: int) -> np.ndarray:
        return encode(self.game.round, seat, self.game.totals)

    def _random_deal(self) -> Deal:
        return Deal.random(self.config.rules, self._rng)

    def _round_rewards(self, result: RoundResult) -> list[int]:
        return [-points for points in result.points]

    def _round_info(self, result: RoundResult) -> dict[str, Any]:
        return round_info(result)

    def _render_text(self) -> str:
        return render_table(self.game.round, self.game.totals)

    def _round_truncated(self, result: RoundResult) -> bool:
        return result.out < 0

    def _ended_while_dealt(self) -> RoundResult | None:
        game = self.game
        return game.results[-1] if game.round.is_over else None


env = env_function(raw_env)


def round_info(result: RoundResult) -> dict[str, Any]:
    """The public record of a finished round (the ``info["round"]`` contract)."""
    return {
        "out": result.out,
        "points": list(result.points),
        "totals": list(result.totals),
        "turns": result.turns,
        "reshuffles": result.reshuffles,
        "dealer": result.dealer,
    }
