"""Reading the play, for any game's search: sampled worlds weighted by how likely a model of
the other seats makes the public play seen so far, then resampled (policy inference).

Plain determinized search draws the hidden cards uniformly among the worlds consistent with
what the searcher has seen. That ignores what the other seats' choices say about their cards.
With a model ``pi`` of how they play (a trained policy), the posterior of a world ``w`` given
the public actions ``a_1..a_T`` seen so far is

    P(w | a) ∝ P(w) * prod_t q(a_t | o_t(w))

where ``P(w)`` is the game's sampler (uniform over the consistent worlds), ``o_t(w)`` the
observation the acting seat had at step ``t`` if ``w`` was dealt (rebuilt by replaying the
round on the rules engine from ``w``'s deal), and ``q`` the trembling-hand model

    q(a | o) = (1 - epsilon) * pi_T(a | o) + epsilon / |legal(o)|

(``pi_T``: the policy's masked softmax at temperature ``T``): ``epsilon`` keeps a world that
explains the play with one surprising choice alive, ``T > 1`` flattens an over-confident
policy. Forced moves carry no information and the searcher's own choices do not depend on the
hidden cards: both are skipped. :func:`log_likelihoods` gives ``log prod q`` for candidate
worlds drawn from the sampler; normalised, these are importance weights of the posterior, and
:func:`resample` draws the worlds the search evaluates (self-normalised importance
resampling).

A game takes part through a :class:`PlayReading`: how a seat keeps the round's public
actions from its own observations, and how a sampled world is replayed from its deal. Boon's
search reads the play on its batch engine (:mod:`agents.games.boon.inference`, which derives
the same estimator with the pick and the hidden discards).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.players.policy import NumpyPolicy
from boon_env.core.bits import bits_of


@dataclass(frozen=True)
class PlayReading:
    """How a game's search reads the play.

    Attributes:
        follow: ``(log, observation) -> log``: the seat's record of the round's public
            actions brought up to date by one of its own observations (``log`` is ``None``
            at the first, or a record of an earlier round: a new record is started). The
            search calls it at every turn of the seat, forced moves too.
        replay: ``(world, log) -> (start, actions)``, or ``None`` when the log does not know
            the whole round (its seat did not see it from the start, or missed a turn):
            ``start`` is the sampled ``world`` as it was dealt (a new round of the rules
            engine) and ``actions`` the public actions, in order, that lead from it to
            ``world``'s point of play.
    """

    follow: Callable[[Any, np.ndarray], Any]
    replay: Callable[[Any, Any], tuple[Any, Sequence[int]] | None]


class PlayerModel:
    """The trembling-hand model ``q`` of the other seats: the policy's masked softmax at
    ``temperature``, mixed with uniform play with weight ``epsilon``. The passes and the pick
    (a game with bids) count with the exponent ``bid_weight`` (0: ignored), for opponents
    whose bidding is less like the policy's than their card play."""

    def __init__(
        self, policy: NumpyPolicy, epsilon: float, temperature: float, bid_weight: float = 1.0
    ) -> None:
        self.policy = policy
        self.epsilon = epsilon
        self.temperature = temperature
        self.bid_weight = bid_weight

    def probabilities(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """``pi_T``: the policy's probability of each action (0 where ``masks`` is false)."""
        logits = self.policy.logits(obs).astype(np.float64) / self.temperature
        logits = np.where(masks, logits, -np.inf)
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        return weights / weights.sum(axis=1, keepdims=True)

    def chance(
        self, probabilities: np.ndarray, masks: np.ndarray, chosen: np.ndarray
    ) -> np.ndarray:
        """``q`` of choosing one of the actions ``chosen`` (bool rows) given ``pi_T``."""
        mass = (probabilities * chosen).sum(axis=1)
        return (1 - self.epsilon) * mass + self.epsilon * chosen.sum(axis=1) / masks.sum(axis=1)


def log_likelihoods(
    worlds: Sequence[Any],
    log: Any,
    reading: PlayReading,
    observe: Callable[[Any, int], np.ndarray],
    model: PlayerModel,
    seat: int,
) -> np.ndarray | None:
    """``log prod q`` of the public actions of ``log`` for each sampled world (see the module
    docstring), the choices of ``seat`` (the searcher) and forced moves left out; ``-inf``
    for a world in which a logged action is not legal. ``None`` when the log does not know
    the whole round. The decisions of every world are scored in one forward pass."""
    replays = [reading.replay(world, log) for world in worlds]
    if any(replayed is None for replayed in replays):
        return None
    log_weights = np.zeros(len(worlds))
    observations, legal_masks, chosen, owners = [], [], [], []
    for index, (state, actions) in enumerate(replays):  # type: ignore[misc]
        for action in actions:
            legal = state.legal_mask()
            if not legal >> action & 1:
                log_weights[index] = -np.inf
                break
            if state.current != seat and legal & (legal - 1):
                observations.append(observe(state, state.current))
                legal_masks.append(legal)
                chosen.append(action)
                owners.append(index)
            state.apply(action)
    if observations:
        obs = np.stack(observations)
        masks = np.zeros((len(chosen), model.policy.layers[-1]), dtype=bool)
        for row, legal in enumerate(legal_masks):
            masks[row, list(bits_of(legal))] = True
        picked = np.zeros_like(masks)
        picked[np.arange(len(chosen)), chosen] = True
        chances = model.chance(model.probabilities(obs, masks), masks, picked)
        np.add.at(log_weights, np.array(owners), np.log(chances))
    return log_weights


def resample(log_weights: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` indices drawn in proportion to ``exp(log_weights)`` by systematic resampling
    (one uniform, evenly spaced points: less noise than independent draws)."""
    weights = np.exp(log_weights - log_weights.max())
    cumulative = np.cumsum(weights / weights.sum())
    points = (rng.random() + np.arange(count)) / count
    return np.minimum(np.searchsorted(cumulative, points), len(weights) - 1)
