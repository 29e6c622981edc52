"""An exact evaluator of High Card decisions (a :class:`~agents.registry.spec.DecisionEvaluator`):
every way the cards the seat to act cannot see may lie, each played out by the toy's heuristic
(the highest card), averaged."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from itertools import combinations

import numpy as np

from tests.helpers.toy.rules import NUM_CARDS, Game, Round, bits_of


class ExactEvaluator:
    """Exact expected values of every legal card of the seat to act."""

    note = "every deal of the unseen cards, played out by the highest card"

    def values(self, game: Game, rng: np.random.Generator) -> dict[int, float]:
        """The mean value over every placement of the unseen cards (``rng`` is not needed)."""
        state = game.round
        worlds = list(hidden_worlds(state))
        return {
            card: sum(play_out(world, card) for world in worlds) / len(worlds)
            for card in bits_of(state.legal_mask())
        }

    def kind(self, game: Game) -> str:
        """``"lead"`` or ``"follow"``."""
        return "follow" if game.round.trick else "lead"

    def action_name(self, action: int) -> str:
        """``"card 4"``."""
        return f"card {action}"


def hidden_worlds(state: Round) -> list[Round]:
    """Every round the seat to act may be in: the other hands refilled, each its size, from
    the cards it has not seen (in no hand of its own, not played), each placement once."""
    me = state.current
    seen = state.hands[me]
    for card in state.history:
        seen |= 1 << card
    unseen = [card for card in range(NUM_CARDS) if not seen >> card & 1]
    others = [seat for seat in range(len(state.hands)) if seat != me]
    worlds = []
    for hands in _placements(unseen, [state.hands[seat].bit_count() for seat in others]):
        world = copy.deepcopy(state)
        for seat, hand in zip(others, hands, strict=True):
            world.hands[seat] = sum(1 << card for card in hand)
        worlds.append(world)
    return worlds


def _placements(cards: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to give hands of ``sizes`` from ``cards`` (the rest left out)."""
    if not sizes:
        yield []
        return
    for hand in combinations(cards, sizes[0]):
        rest = [card for card in cards if card not in hand]
        for hands in _placements(rest, sizes[1:]):
            yield [hand, *hands]


def play_out(world: Round, card: int) -> float:
    """The value for the seat to act of playing ``card``, then every seat its highest card."""
    state = copy.deepcopy(world)
    seat = state.current
    state.apply(card)
    while not state.is_over:
        state.apply(bits_of(state.hands[state.current])[-1])
    return state.values()[seat]


def exact_evaluator(num_players: int) -> ExactEvaluator:
    """The same evaluator at every table size."""
    return _EXACT


_EXACT = ExactEvaluator()
