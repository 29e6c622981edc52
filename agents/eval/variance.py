"""Variance reduction for the duplicate arena (``--variance-reduction``): control variates from
each round's opening, fitted by cross-fitting, their mean taken from reference deals.

**What is left to reduce.** The duplicate arena already takes out what the cards alone decide:
every agent plays every hand from every seat. When the agents are deterministic (``ppo`` is
greedy, the heuristics are rules) and nothing is drawn after the deal (Boon), an agent's mean
per deal ``x_d`` is a fixed function of the deal, so AIVAT's terms for the players' decisions
(the value of the action taken less the policy's mean over actions) are all zero, and any
baseline of a seat's hand that is zero-sum over the seats cancels over the rotations. What is
left is how the agents' play differs on this deal, and a control variate must predict that.

**The control variate.** The game names the first actions of a round that tell most of the
story (Boon: the pick decisions, which name the picker) and turns a seat's deal and opening
into features (:class:`agents.registry.spec.ArenaBaseline`). ``z_d``, the mean of an agent's
features over its rounds of deal ``d`` (pooled like its values), predicts ``x_d`` linearly:
``x_d ~ beta . z_d``. The estimate is

    ``mean_d(x_d - beta_k(d) . z_d) + mean_e(beta . z'_e)``

where ``beta_k`` is a ridge regression fitted on the deals outside fold ``k`` (the deals split
into ``FOLDS`` folds by index: cross-fitting, so no deal's own result enters the coefficient
applied to it; the penalty chosen by leave-one-out error within those deals, down to no
slopes at all when nothing predicts), ``beta`` the folds' coefficients weighted by their deal
counts, and ``z'_e`` the same agent's features on ``M`` **reference deals**: deals drawn from a
stream of their own (:func:`reference_seed`), each played in every rotation as far as the
opening only. ``z_d`` is independent of ``beta_k``, and ``z'_e`` of everything else, so the
estimate is exactly unbiased for any features, however badly they predict (a poor baseline
costs width, never bias); with stochastic agents the opening's random choices are drawn alike
on the reference deals, so it stays unbiased there too.

**Chance terms.** A game's baseline may add AIVAT's chance terms (``ArenaBaseline.chance``):
features of a deal whose mean is known to be 0 whatever the agents (a value of the cards the
opening did not see, less its mean over fresh splits of those cards; Boon's are the solver's,
:func:`agents.games.boon.arena.split_terms`). They join ``z_d`` in the same fit; on the
reference deals they are their mean, 0 (:func:`deal_features` with ``reference=True``), so no
reference deal measures them and they add nothing to the reference term's variance.

**The interval.** The two means are independent, so the estimate's variance is
``var(x - beta_k . z) / N + var(beta . z') / M``; the 95% interval is ``+/- 1.96`` times its
square root (normal approximation, sample variances, the deal as unit as in the arena). The
reference deals' sampling error is in it: more reference deals narrow it, down to the
residual's share ``1 - R^2`` of the plain variance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents.registry.spec import ArenaBaseline, PlayedRound

FOLDS = 10  # cross-fitting folds: each coefficient is fitted on 90% of the deals
# Ridge penalties on standardized features the fit chooses from (by leave-one-out error).
PENALTIES = tuple(10.0**k for k in range(-1, 6))
REFERENCE_PER_DEAL = 4  # default reference deals per evaluated deal
_Z95 = 1.96
_REFERENCE_STREAM = 0x5EED_BA5E  # mixed into a run's seed to draw its reference deals


def reference_seed(seed: int) -> int:
    """The seed of the reference deals of a run seeded ``seed``: deal ``e`` of the reference
    stream is the game's deal ``e`` of a run with this seed, drawn from other random numbers
    than any run's own deals."""
    return int(np.random.SeedSequence([seed, _REFERENCE_STREAM]).generate_state(1)[0])


def default_reference_deals(deals: int) -> int:
    """The reference deals played when none are asked for: ``REFERENCE_PER_DEAL`` per deal."""
    return REFERENCE_PER_DEAL * deals


def check_sizes(deals: int, reference_deals: int) -> None:
    """Refuse sizes the estimate cannot use.

    Raises:
        ValueError: fewer deals than folds, or fewer than 2 reference deals.
    """
    if deals < FOLDS:
        raise ValueError(f"variance reduction needs at least {FOLDS} deals, got {deals}")
    if reference_deals < 2:
        raise ValueError(
            f"variance reduction needs at least 2 reference deals, got {reference_deals}"
        )


@dataclass(frozen=True)
class Reduction:
    """Per-deal values with their control variate taken out (``adjusted``, one per deal) and
    the terms that add the control variate's mean back (``reference``, one per reference deal;
    empty: no reduction, ``adjusted`` are the plain values).

    Both are linear in the values, so a linear statistic of several reductions (the
    tournament's ratings) is the same statistic of their ``adjusted`` rows plus that of their
    ``reference`` rows (the same reference deals for all).
    """

    adjusted: np.ndarray
    reference: np.ndarray

    def estimate(self) -> tuple[float, float]:
        """The mean and the half width of its 95% interval (see :func:`estimate`)."""
        return estimate(self.adjusted, self.reference)


def estimate(adjusted: np.ndarray, reference: np.ndarray) -> tuple[float, float]:
    """``mean(adjusted) + mean(reference)`` and the half width of its 95% interval,
    ``1.96 * sqrt(var(adjusted) / N + var(reference) / M)`` (a term is left out when its
    sample has fewer than 2 values; with no reference deals it is the arena's plain interval).
    """
    mean = 0.0
    variance = 0.0
    for sample in (np.asarray(adjusted, dtype=float), np.asarray(reference, dtype=float)):
        if len(sample):
            mean += float(sample.mean())
        if len(sample) > 1:
            variance += float(sample.var(ddof=1)) / len(sample)
    return mean, _Z95 * float(np.sqrt(variance))


def control_variates(
    values: Sequence[float] | np.ndarray,
    features: np.ndarray,
    reference: np.ndarray,
    folds: int = FOLDS,
) -> Reduction:
    """The cross-fitted control-variate reduction of per-deal ``values`` (N,) given their
    ``features`` (N, F) and the same features on the reference deals (M, F) (see the module
    docstring).

    Raises:
        ValueError: fewer values than folds, or shapes that do not match.
    """
    x = np.asarray(values, dtype=float)
    z = np.asarray(features, dtype=float)
    z_reference = np.asarray(reference, dtype=float)
    if len(x) < folds:
        raise ValueError(f"cross-fitting {folds} folds needs at least {folds} deals, got {len(x)}")
    if z.shape[0] != len(x) or z.ndim != 2 or z_reference.shape[1:] != z.shape[1:]:
        raise ValueError(
            f"{len(x)} values need ({len(x)}, F) features and (M, F) reference features, got "
            f"{z.shape} and {z_reference.shape}"
        )
    fold = np.arange(len(x)) % folds
    adjusted = np.empty_like(x)
    coefficients = np.empty((folds, z.shape[1]))
    for k in range(folds):
        held_out = fold == k
        coefficients[k] = _ridge(z[~held_out], x[~held_out])
        adjusted[held_out] = x[held_out] - z[held_out] @ coefficients[k]
    # The adjusted values subtract fold k's coefficient from a share of the deals equal to the
    # fold's size: the reference term adds back the same mixture of coefficients.
    weights = np.bincount(fold, minlength=folds) / len(x)
    return Reduction(adjusted, z_reference @ (weights @ coefficients))


def _ridge(z: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The slopes of a ridge regression of ``x`` on ``z`` (standardized, with an intercept that
    is not returned: it cancels between the two means of the estimate), its penalty the one of
    ``PENALTIES`` (or no slopes at all) with the least leave-one-out error: with few deals and
    many features a weak penalty would fit noise and widen the interval instead."""
    centre = z.mean(axis=0)
    scale = z.std(axis=0)
    scale[scale == 0] = 1.0  # a constant feature predicts nothing; the penalty zeroes its slope
    standard = (z - centre) / scale
    # The Gram matrix's eigenvectors rotate the features into uncorrelated components
    # (LAPACK's SVD of the deals x features matrix fails to converge on some rare ones).
    eigenvalues, rotation = np.linalg.eigh(standard.T @ standard)
    eigenvalues = np.maximum(eigenvalues, 0.0)
    components = standard @ rotation
    y = x - x.mean()
    n = len(x)
    projected = components.T @ y
    # No slopes: each deal predicted by the mean of the others.
    best, best_error = np.zeros(z.shape[1]), float(np.sum((y * n / (n - 1)) ** 2))
    for penalty in PENALTIES:
        inverse = 1.0 / (eigenvalues + penalty)
        leverage = components**2 @ inverse + 1.0 / n  # the hat matrix's diagonal, intercept too
        residuals = (y - components @ (inverse * projected)) / (1.0 - leverage)
        error = float(residuals @ residuals)
        if error < best_error:
            best_error = error
            best = rotation @ (inverse * projected)
    return best / scale


def deal_features(
    baseline: ArenaBaseline,
    rounds: Sequence[PlayedRound],
    slots: set[int],
    reference: bool = False,
) -> np.ndarray:
    """The mean of the features of the agents in ``slots`` over their rounds of one deal
    (pooled as their values are), each round read as far as its opening only; then the
    baseline's chance terms, if it has any (on a ``reference`` deal their known mean, 0)."""
    n = len(rounds[0].slots)
    length = baseline.opening(n)
    rows = [
        baseline.features(played.options, played.actions[:length], seat)
        for played in rounds
        for seat, slot in enumerate(played.slots)
        if slot in slots
    ]
    opening = np.mean(rows, axis=0)
    if baseline.chance is None or baseline.chance_size is None:
        return opening
    if reference:
        return np.concatenate([opening, np.zeros(baseline.chance_size(n))])
    return np.concatenate([opening, baseline.chance(rounds, slots)])
