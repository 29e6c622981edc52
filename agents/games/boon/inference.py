"""Reading the play: deals weighted by how likely they make the play seen so far, and playouts
by the trained policy, both on the batch engine (:class:`~boon_env.games.boon.vector.VectorBoon`).

**The estimator.** Plain PIMC (:mod:`agents.games.boon.search`) draws the unseen cards uniformly
among the deals consistent with what the searcher has seen. That ignores what the other seats'
choices say about their cards: a seat that passed probably has a weak hand, a seat that ducked a
trick probably could not win it. With a model ``pi`` of how the others play (the shipped policy),
the posterior of a deal ``d`` (with the picker's hidden discards ``D``, and which of the
picker's cards were the Boon) given the observed public actions ``a_1..a_T`` is

    P(d | a) ∝ P(d) * prod_t q(a_t | o_t(d))

where ``P(d)`` is uniform over the consistent deals (what
:func:`agents.games.boon.search.sample_hidden` draws), ``o_t(d)`` is the observation the acting seat
had at step ``t`` if ``d`` was the deal (rebuilt by replaying the round on the engine), and ``q`` is
the trembling-hand model

    q(a | o) = (1 - epsilon) * pi_T(a | o) + epsilon / |legal(o)|

(``pi_T``: the policy's masked softmax at temperature ``T``). ``epsilon`` keeps a deal that
explains the play with one surprising choice alive (no deal gets weight 0 from a model that
is only an approximation of how the others play), and ``T > 1`` flattens an over-confident
policy. Forced moves (one legal action) carry no information and are skipped, as are the
searcher's own choices (their probability does not depend on the hidden cards).

The picker's discards are hidden and add no factor: the estimator treats them as uniform
among the picker's cards, an approximation. Counting the policy's probability of burying the
sampled cards was tried and made the weights degenerate (one deal of 100 carried nearly all
the weight: a confident policy makes almost every uniformly drawn discard very unlikely),
so the resampled deals were one deal many times over.

**Self-normalised importance resampling.** :func:`deal_log_weights` gives ``log prod q`` for
``K`` candidate deals drawn from the uniform prior; normalised, these are importance weights
of the posterior. :func:`~agents.players.reading.resample` draws ``N`` deals from them by
systematic resampling, and the search evaluates its actions on those. Assumptions: the other
seats play like ``pi`` (they are the policy, or play much like it); the prior is uniform
(true for the shuffled deal); ``K`` is large enough that some candidates are likely under the
posterior (late in a round with many constraints the effective sample size drops;
``epsilon`` bounds the damage).

The Victory-Card piece of the rebuilt observations is ``1/n`` for every seat, as the engine
plays single rounds (the policy is trained that way too).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.games.boon.history import PlayLog
from agents.games.boon.view import View
from agents.players.policy import NumpyPolicy
from agents.players.reading import PlayerModel
from boon_env.games.boon.rules import NUM_ACTIONS, TOTAL_POINTS, Deal, cards_of, mask_of
from boon_env.games.boon.vector import VectorBoon

# A candidate deal as dealt: the hands, the Boon, and the picker's buried cards (0 without).
Candidate = tuple[tuple[int, ...], int, int]


def dealt(view: View, hands: Sequence[int], pile: int, rng: np.random.Generator) -> Candidate:
    """The deal that sampled hidden cards (:func:`agents.games.boon.search.sample_hidden`: the hands
    and the pile ``view.me`` cannot see) started from: each hand with the cards it has played, and
    the picker's cards split back into its hand and the Boon. The picker's own view knows the
    Boon; for anyone else the split is uniform (every split is equally likely under a uniform
    deal)."""
    dealt_hands = [held | played for held, played in zip(hands, view.played, strict=True)]
    picker = view.picker
    if picker is None:  # the pile is the Boon
        return tuple(dealt_hands), pile, 0
    discards = view.discards if picker == view.me else pile
    held = dealt_hands[picker] | discards
    if picker == view.me:
        boon = view.boon
    else:
        cards = cards_of(held)
        chosen = rng.choice(len(cards), view.boon_size, replace=False)
        boon = mask_of([cards[i] for i in chosen])
    dealt_hands[picker] = held & ~boon
    return tuple(dealt_hands), boon, discards


def replay(
    view: View,
    log: PlayLog,
    deals: Sequence[Candidate],
    model: PlayerModel | None = None,
) -> tuple[VectorBoon, np.ndarray]:
    """One engine table per deal, each replayed to the moment of ``view``: the public actions
    of ``log`` and the picker's discards of its deal. Returns the tables and, given a player
    ``model``, each deal's log-likelihood ``sum log q`` of the other seats' choices (see the
    module docstring; zeros without a model)."""
    venv = VectorBoon(len(deals), view.num_players, seed=0, observations=False)
    venv.reset_deals([Deal(hands, boon) for hands, boon, _ in deals], [view.dealer] * len(deals))
    log_weights = np.zeros(len(deals))
    bid_weight = model.bid_weight if model is not None else 1.0
    for seat, action in log.pick_actions(view):
        _play(venv, model if seat != view.me else None, action, log_weights, bid_weight)
    if view.picker is not None:
        _bury(venv, np.array([discards for _, _, discards in deals]))
    for seat, card in log.play_actions(view):
        _play(venv, model if seat != view.me else None, card, log_weights)
    return venv, log_weights


def _play(
    venv: VectorBoon,
    model: PlayerModel | None,
    action: int,
    log_weights: np.ndarray,
    weight: float = 1.0,
) -> None:
    """Every table takes the same public ``action``; with a model, the tables where the acting
    seat had a choice add ``weight * log q`` of it."""
    if model is not None and weight:
        legal = venv.legal
        rows = np.flatnonzero(legal & (legal - 1))
        if rows.size:
            masks = _bits(legal[rows])
            chosen = np.zeros_like(masks)
            chosen[:, action] = True
            probabilities = model.probabilities(venv.observe(rows), masks)
            log_weights[rows] += weight * np.log(model.chance(probabilities, masks, chosen))
    venv.step(np.full(venv.num_tables, action))


def _bury(venv: VectorBoon, buried: np.ndarray) -> None:
    """The picker of every table buries its cards ``buried`` (a bitmask per table), lowest
    first: nobody else sees the order, and the discards add nothing to the likelihood."""
    left = buried.copy()
    while left.any():  # every table buries the same number of cards
        cards = np.argmax(_bits(left), axis=1)
        left &= ~(np.int64(1) << cards)
        venv.step(cards)


def _bits(masks: np.ndarray) -> np.ndarray:
    """(k, 34) bool rows of (k,) action bitmasks."""
    return (masks[:, None] >> _ACTIONS & 1).astype(bool)


_ACTIONS = np.arange(NUM_ACTIONS, dtype=np.int64)


def policy_values(
    venv: VectorBoon, actions: Sequence[int], me: int, policy: NumpyPolicy, points_weight: float
) -> np.ndarray:
    """Play out every table of ``venv`` (``len(actions)`` blocks of equal size, all at
    ``me``'s turn) with every seat playing the policy greedily, block ``j`` starting with
    ``actions[j]``; returns the outcomes (:func:`agents.games.boon.search.outcome`) as an array of
    shape ``(len(actions), tables per block)``."""
    tables = venv.num_tables
    choice = np.repeat(np.asarray(actions, dtype=np.int64), tables // len(actions))
    values = np.zeros(tables)
    active = np.ones(tables, dtype=bool)
    while active.any():
        _, _, _, rewards, done = venv.step(choice, tables=active)
        if done.any():
            finished = venv.finished
            points = finished.points[done]
            picker = finished.picker[done]
            rows = np.arange(points.shape[0])
            share = np.where(
                finished.leaster[done],
                -points[:, me],
                np.where(picker == me, points[:, me], TOTAL_POINTS - points[rows, picker]),
            )
            values[done] = rewards[done, me] + points_weight * share / TOTAL_POINTS
            active &= ~done
        choice = _greedy(venv, policy, np.flatnonzero(active))
    return values.reshape(len(actions), -1)


def _greedy(venv: VectorBoon, policy: NumpyPolicy, rows: np.ndarray) -> np.ndarray:
    """The policy's most likely legal action at each table in ``rows`` (0 elsewhere); forced
    moves need no forward pass."""
    legal = venv.legal[rows]
    masks = _bits(legal)
    picks = np.argmax(masks, axis=1)
    free = (legal & (legal - 1)) != 0
    if free.any():
        logits = policy.logits(venv.observe(rows[free]))
        picks[free] = np.argmax(np.where(masks[free], logits, -np.inf), axis=1)
    choice = np.zeros(venv.num_tables, dtype=np.int64)
    choice[rows] = picks
    return choice
