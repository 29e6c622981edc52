"""The action-id check every game's rules make (:mod:`boon_env.core.actions`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from boon_env.core.actions import checked_action, illegal_action_message
from boon_env.games.bon.rules import Deal as BonDeal
from boon_env.games.bon.rules import GameConfig as BonConfig
from boon_env.games.bon.rules import Round as BonRound
from boon_env.games.boon.rules import Deal, GameConfig, Round
from boon_env.games.boyn.rules import Deal as BoynDeal
from boon_env.games.boyn.rules import GameConfig as BoynConfig
from boon_env.games.boyn.rules import Round as BoynRound

LEGAL = 0b1010  # actions 1 and 3


def refuse(action: object) -> str:
    return f"refused {action!r}"


@pytest.mark.parametrize("action", [1, 3, np.int64(3), np.uint8(1)])
def test_a_legal_integer_comes_back_as_a_python_int(action: Any) -> None:
    checked = checked_action(action, LEGAL, 5, refuse)
    assert type(checked) is int and checked == action


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (0, "refused 0"),  # in range, not legal
        (5, "refused 5"),  # out of range
        (-1, "refused -1"),
        (np.int64(2), "refused 2"),  # a numpy integer is named as a Python int
        (True, "refused True"),  # a bool is no action id
        (1.0, "refused 1.0"),
        ("1", "refused '1'"),
        (None, "refused None"),
    ],
)
def test_anything_else_is_refused_with_the_games_message(action: Any, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        checked_action(action, LEGAL, 5, refuse)


def test_the_message_names_the_action_and_the_legal_ones() -> None:
    def name(a: int) -> str:
        return f"card {a}"

    assert illegal_action_message(2, 1, LEGAL, 5, name) == (
        "illegal action 2 (card 2) for seat 1; legal actions: card 1, card 3"
    )
    assert illegal_action_message(7, 0, 0, 5, name, when=" in phase PLAY", legal_label="legal") == (
        "illegal action 7 (not an action id 0-4) for seat 0 in phase PLAY; legal: none (round over)"
    )


def boon_round(rng: np.random.Generator) -> Any:
    config = GameConfig(num_players=3)
    return Round(config, Deal.random(config, rng), 0)


def bon_round(rng: np.random.Generator) -> Any:
    config = BonConfig(num_players=3)
    return BonRound(config, BonDeal.random(config, rng), (0, 1, 2), 2)


def boyn_round(rng: np.random.Generator) -> Any:
    config = BoynConfig(num_players=2)
    return BoynRound(config, BoynDeal.random(config, rng), 0, rng)


@pytest.mark.parametrize(
    ("new_round", "action", "message"),
    [
        (
            boon_round,
            0,
            r"illegal action 0 \(.*\) for seat 1 in phase PICK; legal actions: pick, pass",
        ),
        (bon_round, 40, r"illegal action 40 \(not an action id 0-33\) for seat 2; legal actions: "),
        (boyn_round, "x", r"illegal action 'x' \(not an action id 0-87\) for seat \d; legal: "),
    ],
)
def test_each_game_keeps_its_own_wording(new_round: Any, action: Any, message: str) -> None:
    state = new_round(np.random.default_rng(0))
    with pytest.raises(ValueError, match=f"^{message}"):
        state.apply(action)
