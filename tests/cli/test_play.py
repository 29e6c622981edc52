"""``boon play``: a refused move says which rule forbids it, a forced move is played for the
person (unless ``--ask-forced``), and BOYN's Queen swaps name the other player."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from agents.games.bon.terminal import BonTerminal
from agents.games.boon.terminal import BoonTerminal
from agents.games.boyn.terminal import BoynTerminal, move_name, parse_move
from agents.games.terminal import play_game
from agents.specs import make_agent
from boon_env import bon_v0, boon_v0, boyn_v0
from boon_env.games.bon.rules import PASS as BON_PASS
from boon_env.games.bon.rules import card_name as bon_card
from boon_env.games.boon.rules import PASS, PICK, Phase, action_name
from boon_env.games.boyn.render import event_text
from boon_env.games.boyn.rules import ACTION_SWAP
from tests.helpers.cli import run_boon


def first_state(env: Any, seed: int, wanted: Callable[[Any], bool], limit: int = 400) -> Any:
    """The first round state of seeded random play on ``env`` for which ``wanted`` holds."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(limit):
        state = env.game.round
        if wanted(state):
            return state
        env.step(int(rng.choice(state.legal_actions())))
    raise AssertionError("no such state in the first moves")


def test_boon_says_the_led_suit_must_be_followed() -> None:
    def off_suit_while_holding_the_led_suit(state: Any) -> bool:
        hand = state.hands[state.current]
        return state.phase is Phase.PLAY and bool(hand & state.led_mask) and hand & ~state.led_mask

    state = first_state(boon_v0.raw_env(num_players=4, episode="game"), 1,
                        off_suit_while_holding_the_led_suit)  # fmt: skip
    hand = state.hands[state.current]
    off_suit = next(c for c in range(32) if (hand & ~state.led_mask) >> c & 1)
    why = BoonTerminal().why_illegal(state, off_suit)
    assert why.startswith("you must follow the led suit, ")
    held = next(c for c in range(32) if not hand >> c & 1)
    assert BoonTerminal().why_illegal(state, held) == f"you do not hold {action_name(held)}"
    assert "picking is over" in BoonTerminal().why_illegal(state, PICK)


def test_boon_says_what_the_bidding_allows() -> None:
    state = first_state(boon_v0.raw_env(num_players=3), 2, lambda s: s.phase is Phase.PICK)
    assert "picks up the Boon or passes" in BoonTerminal().why_illegal(state, 5)
    assert PASS in state.legal_actions()


def test_bon_says_the_prime_colour_must_be_followed() -> None:
    def must_follow(state: Any) -> bool:
        held = state.hands[state.current].bit_count()
        return bool(state.trick) and len(state.legal_actions()) < held

    state = first_state(bon_v0.raw_env(num_players=4, episode="game"), 3, must_follow)
    hand = state.hands[state.current]
    illegal = next(c for c in range(33) if hand >> c & 1 and c not in state.legal_actions())
    why = BonTerminal().why_illegal(state, illegal)
    assert why.startswith("the prime colour is ") and why.endswith("or a Pass")
    if not state.passes[state.current]:
        assert BonTerminal().why_illegal(state, BON_PASS) == "you hold no Pass card"
    missing = next(c for c in range(33) if not hand >> c & 1)
    assert BonTerminal().why_illegal(state, missing) == f"you do not hold {bon_card(missing)}"


def test_boyn_names_the_player_a_queen_swaps_with_and_reads_it_back() -> None:
    def can_swap(state: Any) -> bool:
        return any(ACTION_SWAP[a] for a in state.legal_actions())

    state = first_state(boyn_v0.raw_env(num_players=4), 0, can_swap, limit=3000)
    for action in state.legal_actions():
        name = move_name(state, action)
        assert parse_move(state, name) == action
        if ACTION_SWAP[action]:
            other = (state.current + ACTION_SWAP[action]) % 4
            assert name.endswith(f" swap with player_{other}")
    why = BoynTerminal().why_illegal(state, _unplayable(state))
    assert why.startswith("a card must match the active card")


def _unplayable(state: Any) -> int:
    """A kind the player holds that the active card does not allow."""
    hand = state.hands[state.current]
    held = {k for k in range(52) if (hand >> k | hand >> (52 + k)) & 1}
    legal = set(state.legal_actions())
    choices = [k for k in sorted(held) if k not in legal and k % 13 not in (10, 11)]
    if not choices:
        pytest.skip("every card in this hand is playable")
    return choices[0]


def test_boyn_log_tells_a_swap_by_the_players_it_names() -> None:
    env = boyn_v0.raw_env(num_players=4)
    state = first_state(env, 0, lambda s: any(e.what == "swap" for e in s.log), limit=5000)
    lines = [event_text(e) for e in state.log]
    assert not any(" swap " in line and "plays" in line for line in lines)
    assert any("swaps hands with player_" in line for line in lines)


def _scripted(moves: list[str]) -> Callable[[str], str]:
    lines: Iterator[str] = iter(moves + ["1"] * 5000)
    return lambda _prompt: next(lines)


@pytest.mark.parametrize(("terminal", "game"), [(BoonTerminal, "boon"), (BonTerminal, "bon")])
def test_a_forced_move_is_played_for_the_person_unless_asked_not_to(
    terminal: type, game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    agents = {seat: make_agent("heuristic", game=game) for seat in (1, 2)}
    assert play_game(terminal(), agents, 0, 3, 7, 1, _scripted([])) == 0
    played_for_me = capsys.readouterr().out
    # The last trick leaves one card in every hand: that move is never asked for.
    assert "Your only legal move, played for you:" in played_for_me
    assert "Your moves: 1) " in played_for_me
    assert play_game(terminal(), agents, 0, 3, 7, 1, _scripted([]), ask_forced=True) == 0
    asked = capsys.readouterr().out
    assert "played for you" not in asked
    assert asked.count("Your moves: 1) ") > played_for_me.count("Your moves: 1) ")


def test_the_command_says_why_and_takes_ask_forced() -> None:
    script = "\n".join(["zebra", "9", "gold 99", *["1"] * 60]) + "\n"
    result = run_boon("play", "--seed", "4", "--rounds", "1", "--ask-forced", stdin=script)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "'zebra' is not a legal move now: that names no move." in out
    assert "'9' is not a legal move now: the moves are numbered 1-2." in out
    assert "played for you" not in out
