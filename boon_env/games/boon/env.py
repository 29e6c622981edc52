"""# Boon

| | |
| --- | --- |
| Import | `from boon_env import boon_v0` |
| Actions | Discrete |
| Parallel API | No |
| Manual control | `boon play` |
| Agents | `agents = ['player_0', ..., 'player_{n-1}']` (3, 4 or 5) |
| Action shape | (1,) |
| Action values | Discrete(34) |
| Observation shape | Dict: `observation` (OBS_SIZE,) float32, `action_mask` (34,) int8 |

Boon is a commercial re-skin of Sheepshead: each round one player may take the Boon (the kitty),
bury as many cards and play alone against the others for 61 of the 120 points; if everyone
passes, a Leaster is played in which the fewest points (with at least one trick) wins. Rounds
are paid in Victory Cards. The full rules are in `docs/rules.md`.

```python
>>> from boon_env import boon_v0
>>> env = boon_v0.env(num_players=4)
>>> env.reset(seed=42)
>>> env.agent_selection  # the player left of the dealer (seat 0) decides first
'player_1'
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, obs["action_mask"].nonzero()[0].tolist()  # 32 pick, 33 pass
((482,), [32, 33])

```

## Configuration

`boon_v0.env(num_players=4, episode="round", starting_victory_cards=5, max_rounds=None,
render_mode=None)`. `episode="round"` ends every agent's episode after one round;
`episode="game"` plays rounds (the deal passing left) until a player holds no Victory Cards
(termination) or `max_rounds` rounds were played (truncation).

## Observation Space

`observation` is the vector of `boon_env.games.boon.encoding.PIECES` (table in
`docs/observation.md`), seen from the observing seat, seats relative (0 = me, 1 = my left, ...).
`boon_env.games.boon.encoding.decode` splits it back into named pieces.

## Legal Actions Mask

`action_mask[a] == 1` when action `a` is legal for the agent to act; all zeros for every other
agent and once the episode is over.

## Action Space

Card ids: green 1-6 = 0-5, red 1-6 = 6-11, blue 1-6 = 12-17, gold 1-14 = 18-31.

| action | meaning |
| --- | --- |
| 0-31 | a card id: buried in the discard phase (one card per action), played in play |
| 32 | pick the Boon |
| 33 | pass |

## Rewards

When a round is scored each agent receives its change in Victory Cards (zero-sum); every other
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
from boon_env.games.boon.config import EnvConfig
from boon_env.games.boon.encoding import OBS_SIZE, encode
from boon_env.games.boon.render import render_table
from boon_env.games.boon.rules import (
    NUM_ACTIONS,
    Deal,
    Game,
    Round,
    Settlement,
    cards_of,
    leaster_winner,
    round_value,
)

__all__ = ["env", "raw_env"]


class raw_env(CardGameEnv):  # noqa: N801 - PettingZoo's naming convention
    """Turn bookkeeping over :mod:`boon_env.games.boon.rules`; see the module docstring.

    ``reset(seed, options)`` reads ``{"dealer": seat, "deal": {"hands": [[ids], ...], "boon":
    [ids]}}``, any subset, to choose the first dealer and/or the exact first deal.
    """

    metadata: ClassVar[dict[str, Any]] = card_game_metadata("boon_v0")
    config_type = EnvConfig
    obs_size = OBS_SIZE
    num_actions = NUM_ACTIONS
    action_meaning = "a card id, 32 pick, 33 pass"
    game: Game | None

    # ---------------------------------------------------------------------- game hooks
    def _read_options(self, options: Mapping[str, Any]) -> tuple[int | None, Deal | None]:
        config = self.config.game
        dealer = seat_option(options, "dealer", config.num_players)
        return dealer, deal_option(options, ("hands", "boon"), partial(Deal.from_cards, config))

    def _new_game(self, chosen: tuple[int | None, Deal | None]) -> Game:
        # Fair seats: the first dealer is drawn, so no seat always decides first.
        dealer, deal = self._seat_and_deal(*chosen)
        return Game(self.config.game, deal, dealer)

    def _random_deal(self) -> Deal:
        return Deal.random(self.config.game, self._rng)

    def _encode(self, seat: int) -> np.ndarray:
        return encode(self.game.round, seat, self.game.victory_cards)

    def _round_rewards(self, result: Settlement) -> tuple[int, ...]:
        return result.payout

    def _round_info(self, result: Settlement) -> dict[str, Any]:
        return round_info(self.game.round, result)

    def _render_text(self) -> str:
        return render_table(self.game.round, self.game.victory_cards)


env = env_function(raw_env)

NO_ID = -1  # "no seat" or "no card": the padding in info["round"], so every round has one shape


def round_info(state: Round, result: Settlement) -> dict[str, Any]:
    """The public record of a scored round (the ``info["round"]`` contract).

    Every round has the same keys, types and lengths, Leasters included (replay buffers of
    RL libraries store infos as arrays): ``-1`` stands for "no seat" and pads ``discards`` to
    the Boon's size.
    """
    boon_size = state.config.boon_size
    discards = list(cards_of(state.discards))
    leaster_won = leaster_winner(state.points, state.tricks_won) if state.leaster else None
    return {
        "picker": NO_ID if state.picker is None else state.picker,
        "leaster": state.leaster,
        "leaster_winner": NO_ID if leaster_won is None else leaster_won,
        "points": list(state.points),
        "tricks_won": list(state.tricks_won),
        "payout": list(result.payout),
        "value": list(round_value(state)),
        "victory_cards": list(result.victory_cards),
        "discards": discards + [NO_ID] * (boon_size - len(discards)),
        "tricks": [trick.record() for trick in state.tricks],
    }
