"""What makes a hand worth picking: the pick gain fitted on the hand's features.

The pick study (:mod:`agents.games.boon.studies.pick`) gives, for each hand at each position,
the gain of picking over passing on that deal. Here that gain is explained by the interpretable
features of :mod:`agents.games.boon.studies.features` with scikit-learn:

- :func:`fit_rule`, a shallow regression tree of the gain; "pick where the tree's leaf gains"
  is a rule of thumb a player can remember (:attr:`PickRule.text`);
- :func:`fit_linear`, a linear score card: Victory Cards per gold card, per top gold, ...

Any pick rule (a fitted one, an agent's own decisions, the advice to pick with half the hand in
trump) is scored by :func:`score` on held-out deals: how often it agrees with the sign of the
deal's gain, and how many Victory Cards per decision it earns against always passing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.linear_model import LinearRegression
from sklearn.tree import DecisionTreeRegressor

from agents.games.boon.studies.features import FEATURES, feature_matrix, half_the_trump


@dataclass(frozen=True)
class PickRule:
    """A fitted pick rule: pick where the regression tree predicts a positive gain."""

    tree: DecisionTreeRegressor
    features: tuple[str, ...]
    text: str  # the rule in words, e.g. "pick iff gold >= 4 or (gold >= 3 and top_gold >= 2)"

    def picks(self, x: np.ndarray) -> np.ndarray:
        """Whether the rule picks each row of the feature matrix ``x``."""
        return self.tree.predict(np.asarray(x, dtype=float)) > 0


@dataclass(frozen=True)
class RuleScore:
    """How a pick rule does on a set of decisions."""

    decisions: int
    pick_rate: float
    accuracy: float  # share of decisions on the right side of the gain (a zero gain: either)
    value: float  # mean Victory Cards per decision earned over always passing
    value_ci95: float  # half-width of the 95% interval of ``value``


def split_deals(deals: np.ndarray, test_share: float = 0.3, seed: int = 0) -> np.ndarray:
    """A train mask over samples keeping every deal's seats on one side (seeded)."""
    unique = np.unique(deals)
    rng = np.random.default_rng(seed)
    test = rng.choice(unique, size=round(test_share * len(unique)), replace=False)
    return ~np.isin(deals, test)


def fit_rule(
    x: np.ndarray,
    gain: np.ndarray,
    features: Sequence[str] = FEATURES,
    depth: int = 2,
    min_leaf: int = 50,
    verb: str = "pick",
) -> PickRule:
    """A depth-``depth`` regression tree of ``gain`` on the columns ``features`` of ``x``
    (each leaf holding at least ``min_leaf`` samples), read as a rule: "``verb`` iff ..." where
    the fitted gain is positive."""
    tree = DecisionTreeRegressor(max_depth=depth, min_samples_leaf=min_leaf, random_state=0)
    tree.fit(np.asarray(x, dtype=float), np.asarray(gain, dtype=float))
    return PickRule(tree, tuple(features), _rule_text(tree, tuple(features), verb))


def _rule_text(tree: DecisionTreeRegressor, features: tuple[str, ...], verb: str) -> str:
    """The positive leaves of ``tree`` as "pick iff A or (B and C)", with integer thresholds
    (features are counts, so ``x <= 3.5`` reads ``x <= 3`` and its other side ``x >= 4``)."""
    inner = tree.tree_

    def paths(node: int, conditions: tuple[str, ...]) -> list[tuple[str, ...]]:
        if inner.children_left[node] == -1:
            return [conditions] if inner.value[node].ravel()[0] > 0 else []
        name, cut = features[inner.feature[node]], inner.threshold[node]
        low, high = f"{name} <= {int(np.floor(cut))}", f"{name} >= {int(np.floor(cut)) + 1}"
        left = paths(inner.children_left[node], (*conditions, low))
        right = paths(inner.children_right[node], (*conditions, high))
        if left and right and left == [(*conditions, low)] and right == [(*conditions, high)]:
            return [conditions]  # both sides pick: the split does not matter to the rule
        return left + right

    picking = [_ranges(path) for path in paths(0, ())]
    if not picking:
        return f"never {verb}"
    if picking == [{}]:
        return f"always {verb}"
    if len({name for ranges in picking for name in ranges}) == 1:
        picking = _merged(picking)  # e.g. "gold == 3 or gold >= 4" reads "gold >= 3"
    terms = [" and ".join(_condition(name, *span) for name, span in r.items()) for r in picking]
    return f"{verb} iff " + " or ".join(
        f"({term})" if " and " in term and len(terms) > 1 else term for term in terms
    )


_Range = dict[str, tuple[float, float]]  # feature -> (lowest, highest) allowed value


def _ranges(conditions: tuple[str, ...]) -> _Range:
    """A path's conditions ("gold <= 3", "gold >= 3") as one range per feature."""
    ranges: _Range = {}
    for condition in conditions:
        name, op, value = condition.split()
        low, high = ranges.get(name, (-np.inf, np.inf))
        ranges[name] = (low, min(high, int(value))) if op == "<=" else (max(low, int(value)), high)
    return ranges


def _merged(picking: list[_Range]) -> list[_Range]:
    """Touching ranges of the one feature all the terms use, joined."""
    (name,) = {name for ranges in picking for name in ranges}
    spans = sorted(ranges[name] for ranges in picking)
    joined = [spans[0]]
    for low, high in spans[1:]:
        if low <= joined[-1][1] + 1:
            joined[-1] = (joined[-1][0], max(joined[-1][1], high))
        else:
            joined.append((low, high))
    return [{name: span} for span in joined]


def _condition(name: str, low: float, high: float) -> str:
    if low == high or (low == -np.inf and high == 0):  # the features are counts: never < 0
        return f"{name} == {int(high)}"
    if high == np.inf:
        return f"{name} >= {int(low)}"
    if low == -np.inf:
        return f"{name} <= {int(high)}"
    return f"{int(low)} <= {name} <= {int(high)}"


@dataclass(frozen=True)
class ScoreCard:
    """A linear fit of the gain: ``gain ~ intercept + sum(weights[f] * feature f)``."""

    intercept: float
    weights: dict[str, float]

    def picks(self, x: np.ndarray, features: Sequence[str] = FEATURES) -> np.ndarray:
        """Whether the fitted gain of each row of ``x`` is positive."""
        columns = [list(features).index(name) for name in self.weights]
        coef = np.array(list(self.weights.values()))
        return self.intercept + np.asarray(x, dtype=float)[:, columns] @ coef > 0


def fit_linear(
    x: np.ndarray, gain: np.ndarray, features: Sequence[str] = FEATURES, use: Sequence[str] = ()
) -> ScoreCard:
    """Least-squares fit of ``gain`` on the columns ``use`` (default: all) of ``x``."""
    use = list(use) or list(features)
    columns = [list(features).index(name) for name in use]
    model = LinearRegression().fit(np.asarray(x, dtype=float)[:, columns], gain)
    return ScoreCard(float(model.intercept_), dict(zip(use, map(float, model.coef_), strict=True)))


def score(picks: np.ndarray, gain: np.ndarray) -> RuleScore:
    """Score the pick decisions ``picks`` against the deals' gains (paired, per decision)."""
    picks = np.asarray(picks, dtype=bool)
    gain = np.asarray(gain, dtype=float)
    right = np.where(gain == 0, True, picks == (gain > 0))
    earned = np.where(picks, gain, 0.0)
    half = 1.96 * earned.std(ddof=1) / np.sqrt(len(earned)) if len(earned) > 1 else 0.0
    return RuleScore(
        decisions=len(gain),
        pick_rate=float(picks.mean()),
        accuracy=float(right.mean()),
        value=float(earned.mean()),
        value_ci95=float(half),
    )


def class_table(
    keys: np.ndarray, values: dict[str, np.ndarray]
) -> list[tuple[object, int, dict[str, float]]]:
    """Mean of each named column of ``values`` per distinct key (in sorted key order):
    ``(key, count, {name: mean})`` rows, e.g. the gain and pick rates per hand class."""
    rows = []
    keys = np.asarray(keys)
    for key in sorted(set(keys.tolist())):
        chosen = keys == key
        rows.append(
            (key, int(chosen.sum()), {name: float(v[chosen].mean()) for name, v in values.items()})
        )
    return rows


# ------------------------------------------------------------------------------ the pick data
SCORE_CARD = ("gold", "gold_14", "gold_13", "gold_12", "gold_11", "aces", "tens", "voids")
SCORE_CARD += ("points", "order")  # gold_14..11 instead of top_gold, which they sum


@dataclass(frozen=True)
class PickData:
    """The pick study's samples as arrays, deal-major and pick-order-minor."""

    num_players: int
    hand: np.ndarray
    order: np.ndarray
    deal: np.ndarray
    pick_value: np.ndarray
    pass_value: np.ndarray

    @classmethod
    def from_samples(cls, num_players: int, samples: Sequence) -> PickData:
        """From :func:`agents.games.boon.studies.pick.study`'s samples (every seat of every
        deal)."""
        return cls(
            num_players,
            np.array([s.hand for s in samples], dtype=np.int64),
            np.array([s.order for s in samples], dtype=np.int64),
            np.arange(len(samples)) // num_players,
            np.array([s.pick_value for s in samples]),
            np.array([s.pass_value for s in samples]),
        )

    @property
    def gain(self) -> np.ndarray:
        """Victory Cards of picking minus passing, per sample."""
        return self.pick_value - self.pass_value

    def features(self) -> np.ndarray:
        """The :data:`~agents.games.boon.studies.features.FEATURES` matrix of the samples."""
        return feature_matrix(self.hand.tolist(), self.order.tolist())


@dataclass(frozen=True)
class RuleComparison:
    """A fitted rule of thumb for one table and player, and how it and other rules score on
    held-out deals."""

    rules: dict[int, PickRule]  # depth -> the fitted tree's rule
    score_card: ScoreCard
    scores: dict[str, RuleScore]  # rule name -> its score on the held-out deals


def compare_rules(
    data: PickData,
    choices: dict[str, np.ndarray] | None = None,
    depths: Sequence[int] = (2, 3),
    min_leaf: int = 50,
    seed: int = 0,
) -> RuleComparison:
    """Fit rules of thumb (trees of each depth in ``depths``) and a score card on 70% of the
    deals, and score them on the other 30% beside: each agent's own decisions (``choices``: name
    -> (deals, n) booleans of :func:`~agents.games.boon.studies.pick.pick_choices`, same seed,
    at least as many deals), the advice to pick with half the hand in trump, and always or never
    picking."""
    x, gain = data.features(), data.gain
    train = split_deals(data.deal, seed=seed)
    test = ~train
    fitted = {d: fit_rule(x[train], gain[train], depth=d, min_leaf=min_leaf) for d in depths}
    card = fit_linear(x[train], gain[train], use=SCORE_CARD)
    hand_size = int(data.hand[0]).bit_count()
    rules = {
        **{f"fitted tree, depth {d}: {rule.text}": rule.picks(x) for d, rule in fitted.items()},
        "fitted score card": card.picks(x),
        "half the hand in trump": half_the_trump(x[:, FEATURES.index("gold")], hand_size),
        "always pick": np.ones(len(gain), dtype=bool),
        "never pick": np.zeros(len(gain), dtype=bool),
    }
    for name, picks in (choices or {}).items():
        rules[f"{name}'s own picks"] = np.asarray(picks).reshape(-1)[: len(gain)]
    scores = {name: score(picks[test], gain[test]) for name, picks in rules.items()}
    return RuleComparison(fitted, card, scores)


def scores_table(scores: dict[str, RuleScore]) -> str:
    """The scores as a Markdown table."""
    lines = [
        "| rule | picks | agrees with the gain | VC per decision over passing |",
        "| --- | --- | --- | --- |",
    ]
    for name, s in scores.items():
        lines.append(
            f"| {name} | {s.pick_rate:.0%} | {s.accuracy:.1%} "
            f"| {s.value:+.3f} ± {s.value_ci95:.3f} |"
        )
    return "\n".join(lines)
