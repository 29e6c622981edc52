"""What is one hand worth? Picking against passing at a given pick position, by paired rollouts.

``boon advise`` and notebooks call :func:`advise`: given the cards of one hand, the table size
and the position in the pick order (0 decides first, ``n - 1`` is the dealer, who decides
last), it samples the hidden cards (the other hands and the Boon) uniformly among those
consistent with the hand, and plays every sample out twice with the chosen agent in every seat:

- **pick**: the seats before the advised one pass, the advised seat picks; the agent then
  buries and plays for everyone;
- **pass**: the seats before pass, the advised seat passes, and the later seats decide as the
  agent does. If they all pass too the round is a **Leaster**, as the rules say (the dealer's
  pass always makes one: at position ``n - 1`` passing *is* choosing the Leaster).

The two branches of a sample share the deal and the agents' seeds, so the difference (the
gain of picking) is paired and much less noisy than either value. Each branch is measured by
the advised seat's uncapped round value (:func:`boon_env.games.boon.rules.round_value`), as the
arena measures rounds. Every mean has a 95% interval over the samples (normal approximation,
``mean +/- 1.96 * sd / sqrt(N)``). The recommendation is to pick when the mean gain is
positive.

The seats: the dealer is seat 0 (the first dealer of the rules), so the advised seat is seat
``position + 1`` (mod ``n``). Observations are relative to the observing seat, so the choice
of seat labels changes nothing but the labels.

How the rollouts run depends on the agent, never what they give (the tests check the paths
agree): agents that act on a batch (``ppo``, ``random``; :class:`agents.players.base.BatchAgent`)
play every branch of every sample as one table of the vector engine
(:class:`boon_env.games.boon.vector.VectorBoon`, the deals injected); the heuristic plays on the
rules engine's rounds directly (as search rollouts do, no observation encoded); any other agent
(``search``, ``expert``, ...) plays one table at a time through ``boon_v0``, one agent object
per seat, reset before every round.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from agents.eval.arena import mean_and_half_width, play_round
from agents.games.boon.arena import deal_options
from agents.games.boon.heuristic import HeuristicAgent, HeuristicParams, choose
from agents.games.boon.search import play_out
from agents.games.boon.view import View
from agents.specs import make_agent
from boon_env import boon_v0
from boon_env.games.boon.rules import (
    GOLD_MASK,
    PASS,
    PICK,
    PLAYER_COUNTS,
    Deal,
    GameConfig,
    Phase,
    Round,
    card_name,
    cards_of,
    mask_of,
    parse_cards,
    round_value,
)
from boon_env.games.boon.vector import VectorBoon

__all__ = [
    "BRANCHES",
    "DEALER",
    "Advice",
    "Decision",
    "DoubleDummyAdvice",
    "GainsByGold",
    "Estimate",
    "advise",
    "advise_double_dummy",
    "advised_seat",
    "check_position",
    "check_request",
    "double_dummy_values",
    "gains_by_gold",
    "parse_hand",
    "pick_and_pass_values",
    "plot_gains_by_gold",
    "sample_deals",
]

BRANCHES = (PICK, PASS)  # column order of pick_and_pass_values
DEALER = 0  # the dealer's seat in the sampled deals
_CHUNK_DEALS = 256  # samples per vector engine: 512 tables


# ---------------------------------------------------------------------------------- the input
def parse_hand(config: GameConfig, hand: str | Iterable[str] | Iterable[int]) -> tuple[int, ...]:
    """The card ids of a hand at ``config``'s table, ascending: names in one comma-separated
    string (``"gold 14, gold 13, ..."``), a list of names, or card ids.

    Raises:
        ValueError: an unknown card name, a repeated card, a card not in that table's deck, or
            the wrong number of cards (naming which).
    """
    items = hand.split(",") if isinstance(hand, str) else list(hand)
    if items and all(isinstance(item, (int, np.integer)) for item in items):
        cards = [int(item) for item in items]
        for card in cards:
            card_name(card)  # raises naming a bad id
    else:
        try:
            cards = parse_cards([name for item in items if (name := str(item).strip())])
        except ValueError as error:
            raise ValueError(f"hand: {error}") from None
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"hand: {card_name(card)} is given twice")
        if not config.deck >> card & 1:
            raise ValueError(
                f"hand: {card_name(card)} is not in the {config.num_players}-player deck"
            )
        seen.add(card)
    if len(cards) != config.hand_size:
        raise ValueError(
            f"hand: a {config.num_players}-player hand has {config.hand_size} cards, "
            f"got {len(cards)}"
        )
    return tuple(sorted(cards))


def check_position(num_players: int, position: int) -> None:
    """Raise ``ValueError`` unless ``position`` is a place in the pick order of the table.

    Raises:
        ValueError: naming the allowed positions.
    """
    if isinstance(position, bool) or not isinstance(position, (int, np.integer)):
        raise ValueError(f"position must be an integer, got {position!r}")
    if not 0 <= position < num_players:
        raise ValueError(
            f"position must be 0-{num_players - 1} at a {num_players}-player table "
            f"(0 decides first, {num_players - 1} is the dealer), got {position}"
        )


def _check_players(num_players: int) -> GameConfig:
    if isinstance(num_players, bool) or num_players not in PLAYER_COUNTS:
        raise ValueError(f"players must be one of {PLAYER_COUNTS}, got {num_players!r}")
    return GameConfig(num_players=num_players)


# ------------------------------------------------------------------------------- the sampling
def advised_seat(num_players: int, position: int) -> int:
    """The seat deciding at ``position`` of the pick order when seat :data:`DEALER` deals."""
    return (DEALER + 1 + position) % num_players


def sample_deals(
    config: GameConfig, hand: Sequence[int], seat: int, count: int, rng: np.random.Generator
) -> list[Deal]:
    """``count`` deals giving ``hand`` to ``seat``, drawn uniformly among all such deals: the
    rest of the deck shuffled and dealt to the other seats, then the Boon. Nothing but the
    hand constrains the others, so a uniform shuffle of the remaining cards is uniform over
    the deals consistent with it."""
    mine = mask_of(hand)
    rest = np.array(cards_of(config.deck & ~mine))
    others = [s for s in range(config.num_players) if s != seat]
    size = config.hand_size
    deals = []
    for _ in range(count):
        order = rng.permutation(rest).tolist()
        hands = [mine] * config.num_players
        for k, other in enumerate(others):
            hands[other] = mask_of(order[k * size : (k + 1) * size])
        deals.append(Deal(hands=tuple(hands), boon=mask_of(order[len(others) * size :])))
    return deals


# ------------------------------------------------------------------------------- the rollouts
class Decision(NamedTuple):
    """A pick decision to study: a deal, its dealer, and the position in the pick order (the
    seats before it passing) whose two choices are played out."""

    deal: Deal
    dealer: int
    position: int


def pick_and_pass_values(
    spec: str, num_players: int, decisions: Sequence[Decision], seed: int = 0
) -> np.ndarray:
    """``values[k, b]``: the round value of the seat deciding in ``decisions[k]`` when it
    takes branch ``BRANCHES[b]`` (pick, pass), ``spec``'s agent in every seat.

    The agents' seeds depend on ``(seed, k, seat)`` only, so both branches of a decision get
    the same ones (paired). Batch agents play on the vector engine, others one table at a time
    (see the module docstring).

    Raises:
        ValueError: a bad spec, or a decision whose position is no place in the pick order.
    """
    config = GameConfig(num_players=num_players)
    for decision in decisions:
        decision.deal.check(config)
        check_position(num_players, decision.position)
    agent = make_agent(spec, num_players=num_players)
    if type(agent) is HeuristicAgent:
        return _values_on_rules(agent.params, config, decisions)
    if _batched(agent):
        parts = [
            _values_batched(agent, config, decisions, seed, first, first + _CHUNK_DEALS)
            for first in range(0, len(decisions), _CHUNK_DEALS)
        ]
        return np.concatenate(parts) if parts else np.zeros((0, len(BRANCHES)))
    agents = [make_agent(spec, num_players=num_players) for _ in range(num_players)]
    return _values_one_by_one(agents, config, decisions, seed)


def _batched(agent: Any) -> bool:
    return bool(getattr(agent, "batched", False))


def _agent_seeds(seed: int, index: int, n: int) -> list[int]:
    """The seeds of the agents at the ``n`` seats of decision ``index``, in both branches."""
    return np.random.SeedSequence([seed, index]).generate_state(n).tolist()


class _Forced:
    """A seat whose first decision of the round (its pick or pass) is imposed; the agent
    makes every later one."""

    def __init__(self, agent: Any, first: int) -> None:
        self.agent, self.first, self.name = agent, first, agent.name
        self._decided = False

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if self._decided:
            return self.agent.act(observation, action_mask)
        self._decided = True
        return self.first


def _values_on_rules(
    params: HeuristicParams, config: GameConfig, decisions: Sequence[Decision]
) -> np.ndarray:
    # The heuristic decides from a view of the round, which it can build from the rules
    # engine's round as well as from an observation: same choices, no encoding.
    values = np.zeros((len(decisions), len(BRANCHES)))
    for k, (deal, dealer, position) in enumerate(decisions):
        for b, branch in enumerate(BRANCHES):
            state = Round(config, deal, dealer)
            for _ in range(position):
                state.apply(PASS)
            seat = state.current
            state.apply(branch)
            play_out(state, params)
            values[k, b] = round_value(state)[seat]
    return values


def _values_one_by_one(
    agents: Sequence[Any], config: GameConfig, decisions: Sequence[Decision], seed: int
) -> np.ndarray:
    n = config.num_players
    env = boon_v0.raw_env(num_players=n)
    values = np.zeros((len(decisions), len(BRANCHES)))
    for k, (deal, dealer, position) in enumerate(decisions):
        studied = (dealer + 1 + position) % n
        before = {(dealer + 1 + p) % n for p in range(position)}
        seeds = _agent_seeds(seed, k, n)
        for b, branch in enumerate(BRANCHES):
            seated: list[Any] = []
            for seat, agent in enumerate(agents):
                agent.reset(seed=seeds[seat])
                first = branch if seat == studied else PASS if seat in before else None
                seated.append(agent if first is None else _Forced(agent, first))
            info = play_round(env, seated, deal_options(deal, dealer))
            values[k, b] = info["value"][studied]
    return values


def _values_batched(
    agent: Any,
    config: GameConfig,
    decisions: Sequence[Decision],
    seed: int,
    first: int,
    stop: int,
) -> np.ndarray:
    chunk = decisions[first:stop]
    n = config.num_players
    tables = len(chunk) * len(BRANCHES)
    position = np.repeat([d.position for d in chunk], len(BRANCHES))
    branch = np.tile(BRANCHES, len(chunk))
    dealer = np.repeat([d.dealer for d in chunk], len(BRANCHES))
    studied = (dealer + 1 + position) % n
    venv = VectorBoon(tables, n, observations=bool(agent.observes))
    options = [deal_options(d.deal, d.dealer) for d in chunk]
    venv.reset(deals=[{**o["deal"], "dealer": o["dealer"]} for o in options for _ in BRANCHES])
    # Row table * n + seat; table 2 * k + b is branch b of decision first + k.
    agent.reset_batch(
        [s for k in range(first, first + len(chunk)) for s in _agent_seeds(seed, k, n) * 2]
    )
    values = np.zeros(tables)
    playing = np.ones(tables, dtype=bool)
    mask, seat = venv.action_masks(), venv.seat
    # Every table starts with the pick decisions in order, so the step number is the number of
    # seats that have decided.
    step = 0
    while playing.any():
        actions = np.argmax(mask, axis=1)  # filler moves for finished tables
        rows = np.flatnonzero(playing & (step > position))
        if rows.size:
            observed = venv.observe(rows) if agent.observes else None
            actions[rows] = agent.act_batch(observed, mask[rows], rows * n + seat[rows])
        actions[step < position] = PASS
        actions[step == position] = branch[step == position]
        _obs, mask, seat, rewards, done = venv.step(actions)
        ended = np.flatnonzero(done & playing)
        values[ended] = rewards[ended, studied[ended]]
        playing[ended] = False
        step += 1
    return values.reshape(len(chunk), len(BRANCHES))


# ---------------------------------------------------------------------------------- the advice
@dataclass(frozen=True)
class Estimate:
    """A mean over samples and its 95% interval."""

    mean: float
    ci95: tuple[float, float]

    @classmethod
    def of(cls, values: np.ndarray) -> Estimate:
        """The mean of ``values`` and ``mean +/- 1.96 sd / sqrt(N)`` (one value: no width)."""
        mean, half = mean_and_half_width(values)
        return cls(mean, (mean - half, mean + half))

    def to_json(self) -> dict[str, Any]:
        """``{"mean": m, "ci95": [low, high]}``."""
        return {"mean": self.mean, "ci95": list(self.ci95)}


class _Choices:
    """The two choices' values and the gain of picking, shared by both kinds of advice."""

    pick: Estimate
    pass_: Estimate
    gain: Estimate

    @property
    def recommendation(self) -> str:
        """``"pick"`` when picking gains on average, else ``"pass"``."""
        return "pick" if self.gain.mean > 0 else "pass"

    def choices_json(self) -> dict[str, Any]:
        """The ``pick``, ``pass``, ``gain`` and ``recommendation`` keys of the JSON object."""
        return {
            "pick": self.pick.to_json(),
            "pass": self.pass_.to_json(),
            "gain": self.gain.to_json(),
            "recommendation": self.recommendation,
        }


@dataclass(frozen=True)
class Advice(_Choices):
    """What :func:`advise` measured for one hand (the ``boon advise`` output)."""

    players: int
    position: int
    hand: tuple[int, ...]
    agent: str
    deals: int
    pick: Estimate
    pass_: Estimate
    gain: Estimate  # of the paired differences pick - pass

    def to_json(self) -> dict[str, Any]:
        """The ``boon advise --json`` object (see ``docs/cli.md``)."""
        return {
            "players": self.players,
            "position": self.position,
            "hand": [card_name(card) for card in self.hand],
            "agent": self.agent,
            "deals": self.deals,
            **self.choices_json(),
        }

    def table(self) -> str:
        """The advice as text for the terminal."""
        n, k = self.players, self.position
        if k == n - 1:
            where = "the dealer, last to decide: passing makes a Leaster"
        else:
            where = "first to decide" if k == 0 else f"{k} passed before you"
        lines = [
            f"{n} players, position {k} ({where}), {self.agent} in every seat, "
            f"{self.deals} sampled deals",
            f"hand: {', '.join(card_name(card) for card in self.hand)}",
            *_value_lines(self.pick, self.pass_, self.gain),
        ]
        return "\n".join(lines)


def check_request(
    hand: str | Iterable[str] | Iterable[int], players: int, position: int, agent: str, deals: int
) -> tuple[GameConfig, tuple[int, ...]]:
    """Check the arguments of :func:`advise` (before any rollout); returns the table's
    configuration and the hand's card ids.

    Raises:
        ValueError: a bad table size, hand, position, deal count or agent spec, naming it.
    """
    config = _check_players(players)
    cards = parse_hand(config, hand)
    check_position(players, position)
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals < 1:
        raise ValueError(f"deals must be an integer >= 1, got {deals!r}")
    make_agent(agent, num_players=players)
    return config, cards


def advise(
    hand: str | Iterable[str] | Iterable[int],
    players: int = 4,
    position: int = 0,
    agent: str = "heuristic",
    deals: int = 1000,
    seed: int = 0,
) -> Advice:
    """Estimate picking against passing for ``hand`` at ``position`` of the pick order (see
    the module docstring): ``deals`` samples of the hidden cards (seeded), each played out both
    ways with ``agent`` (a spec of :func:`agents.specs.make_agent`) in every seat.

    Raises:
        ValueError: a bad table size, hand, position, deal count or agent spec, naming it.
    """
    config, cards = check_request(hand, players, position, agent, deals)
    seat = advised_seat(players, position)
    sampled = sample_deals(config, cards, seat, deals, np.random.default_rng(seed))
    decisions = [Decision(deal, DEALER, position) for deal in sampled]
    values = pick_and_pass_values(agent, players, decisions, seed)
    return Advice(
        players=players,
        position=position,
        hand=cards,
        agent=agent,
        deals=deals,
        pick=Estimate.of(values[:, 0]),
        pass_=Estimate.of(values[:, 1]),
        gain=Estimate.of(values[:, 0] - values[:, 1]),
    )


# ------------------------------------------------------------------- the double-dummy advice
@dataclass(frozen=True)
class DoubleDummyAdvice(_Choices):
    """What :func:`advise_double_dummy` measured for one hand (``boon advise --double-dummy``).

    ``outcomes`` are the shares of the sampled deals where picking ends in each band: the
    picker ``wins_double`` (91+ points), ``wins`` (61+, doubles included), ``loses`` (60 or
    less) and ``loses_double`` (29 or less, within ``loses``). ``leasters`` is the share of
    deals where passing made a Leaster (played out by the heuristic: the solver values picker
    rounds only)."""

    players: int
    position: int
    hand: tuple[int, ...]
    deals: int
    outcomes: dict[str, float]
    leasters: float
    pick: Estimate
    pass_: Estimate
    gain: Estimate

    def to_json(self) -> dict[str, Any]:
        """The ``boon advise --double-dummy --json`` object (see ``docs/cli.md``)."""
        return {
            "players": self.players,
            "position": self.position,
            "hand": [card_name(card) for card in self.hand],
            "method": "double-dummy",
            "deals": self.deals,
            "outcomes": dict(self.outcomes),
            "leasters": self.leasters,
            **self.choices_json(),
        }

    def table(self) -> str:
        """The advice as text for the terminal."""
        shares = ", ".join(
            f"{name.replace('_', ' ')} {share:.1%}" for name, share in self.outcomes.items()
        )
        return "\n".join(
            [
                f"{self.players} players, position {self.position}, double dummy (every hand "
                f"shown, perfect card play), {self.deals} sampled deals",
                f"hand: {', '.join(card_name(card) for card in self.hand)}",
                f"picking: {shares}",
                f"passing: a Leaster in {self.leasters:.1%} of the deals (heuristic play)",
                *_value_lines(self.pick, self.pass_, self.gain),
            ]
        )


def _value_lines(pick: Estimate, pass_: Estimate, gain: Estimate) -> list[str]:
    """The table of the two choices' values and the gain, then the advice."""
    low, high = gain.ci95
    sure = (
        "the gain's 95% CI excludes 0"
        if low > 0 or high < 0
        else "too close to call: the gain's 95% CI includes 0"
    )
    rows = [("pick", pick), ("pass", pass_), ("gain", gain)]
    return [
        f"{'':<6}{'VC/round':>9} {'95% CI':>17}",
        *(
            f"{name:<6}{e.mean:>+9.3f} {f'[{e.ci95[0]:+.3f}, {e.ci95[1]:+.3f}]':>17}"
            for name, e in rows
        ),
        f"advice: {'pick' if gain.mean > 0 else 'pass'} ({sure})",
    ]


def double_dummy_values(config: GameConfig, decision: Decision) -> tuple[int, int, int, bool]:
    """One decision valued double dummy: the deciding seat's round value when it picks and
    when it passes, the picker's stake when it picks, and whether passing made a Leaster.

    The card play after the burial is perfect with every hand shown
    (:func:`boon_env.games.boon.solver.solve_stake`); the decisions that are not card play
    (the later seats' picks, the burial) are the heuristic's, and a Leaster, which the solver
    does not value, is played out by the heuristic."""
    from boon_env.games.boon.solver import solve_stake  # the solver extra (numba)

    params = HeuristicParams()
    n = config.num_players
    values, stake, leaster = [], 0, False
    for branch in BRANCHES:
        state = Round(config, decision.deal, decision.dealer)
        for _ in range(decision.position):
            state.apply(PASS)
        seat = state.current
        state.apply(branch)
        while state.phase is Phase.PICK or state.phase is Phase.DISCARD:
            state.apply(choose(View.from_round(state, state.current), state.legal_mask(), params))
        if state.leaster:
            leaster = True
            play_out(state, params)
            values.append(round_value(state)[seat])
            continue
        each = solve_stake(state)
        if branch == PICK:
            stake = each
        values.append(each * (n - 1) if state.picker == seat else -each)
    return values[0], values[1], stake, leaster


def advise_double_dummy(
    hand: str | Iterable[str] | Iterable[int],
    players: int = 4,
    position: int = 0,
    deals: int = 500,
    seed: int = 0,
) -> DoubleDummyAdvice:
    """Estimate picking against passing for ``hand`` at ``position`` by double-dummy
    simulation: ``deals`` samples of the hidden cards (seeded, as :func:`advise` draws them),
    each valued both ways by :func:`double_dummy_values`.

    Raises:
        ValueError: a bad table size, hand, position or deal count, naming it.
    """
    config, cards = check_request(hand, players, position, "heuristic", deals)
    seat = advised_seat(players, position)
    sampled = sample_deals(config, cards, seat, deals, np.random.default_rng(seed))
    rows = np.array(
        [double_dummy_values(config, Decision(deal, DEALER, position)) for deal in sampled],
        dtype=float,
    )
    stakes = rows[:, 2]
    outcomes = {
        "wins": float(np.mean(stakes > 0)),
        "wins_double": float(np.mean(stakes == 2)),
        "loses": float(np.mean(stakes < 0)),
        "loses_double": float(np.mean(stakes == -2)),
    }
    return DoubleDummyAdvice(
        players=players,
        position=position,
        hand=cards,
        deals=deals,
        outcomes=outcomes,
        leasters=float(rows[:, 3].mean()),
        pick=Estimate.of(rows[:, 0]),
        pass_=Estimate.of(rows[:, 1]),
        gain=Estimate.of(rows[:, 0] - rows[:, 1]),
    )


@dataclass(frozen=True)
class GainsByGold:
    """The gain of picking over passing by the number of gold cards in the hand, double dummy
    and as an agent plays it out, on the same random deals (:func:`gains_by_gold`)."""

    gold: int
    deals: int
    double_dummy: Estimate
    agent: Estimate


def gains_by_gold(
    players: int = 4, position: int = 0, deals: int = 400, seed: int = 0, agent: str = "heuristic"
) -> list[GainsByGold]:
    """ "When to take the Boon" by double-dummy simulation beside ``agent``'s answer: on
    ``deals`` random deals (seeded), the seat at ``position`` is valued picking and passing
    both by :func:`double_dummy_values` and by ``agent``'s paired rollouts
    (:func:`pick_and_pass_values`); the gains are grouped by the gold cards in its hand.

    Raises:
        ValueError: a bad table size, position, deal count or agent spec, naming it.
    """
    config = _check_players(players)
    check_position(players, position)
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals < 1:
        raise ValueError(f"deals must be an integer >= 1, got {deals!r}")
    rng = np.random.default_rng(seed)
    decisions = [Decision(Deal.random(config, rng), DEALER, position) for _ in range(deals)]
    solved = np.array([double_dummy_values(config, d)[:2] for d in decisions], dtype=float)
    played = pick_and_pass_values(agent, players, decisions, seed)
    seat = advised_seat(players, position)
    gold = np.array([(d.deal.hands[seat] & GOLD_MASK).bit_count() for d in decisions])
    rows = []
    for count in np.unique(gold):
        chosen = gold == count
        rows.append(
            GainsByGold(
                gold=int(count),
                deals=int(chosen.sum()),
                double_dummy=Estimate.of(solved[chosen, 0] - solved[chosen, 1]),
                agent=Estimate.of(played[chosen, 0] - played[chosen, 1]),
            )
        )
    return rows


def plot_gains_by_gold(rows: Sequence[GainsByGold], path: str | Path | None = None) -> Any:
    """The chart of :func:`gains_by_gold`: the gain of picking over passing by gold cards in
    the hand, double dummy beside heuristic play, each with its 95% interval; each point is
    labelled with its number of deals. Saved to ``path`` (a PNG) when given; returns the
    matplotlib figure (the ``notebooks`` extra)."""
    import matplotlib.pyplot as plt  # only the chart needs it

    gold = np.array([row.gold for row in rows])
    fig, ax = plt.subplots(figsize=(5.6, 3.4))
    for offset, name, estimates in (
        (-0.08, "double dummy", [row.double_dummy for row in rows]),
        (0.08, "heuristic play", [row.agent for row in rows]),
    ):
        means = np.array([e.mean for e in estimates])
        spread = np.array([[e.mean - e.ci95[0], e.ci95[1] - e.mean] for e in estimates]).T
        ax.errorbar(gold + offset, means, yerr=spread, fmt="o-", capsize=3, label=name)
    for row in rows:
        ax.annotate(
            f"{row.deals}",
            (row.gold, 0),
            textcoords="offset points",
            xytext=(0, -11),
            ha="center",
            fontsize=7,
            color="grey",
        )
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(gold)
    ax.set_xlabel("gold cards in the hand (grey: deals)")
    ax.set_ylabel("VC: pick minus pass")
    ax.set_title("First seat at 4 players: the gain of picking", fontsize=10)
    ax.legend(fontsize=8)
    if path is not None:
        fig.savefig(path, dpi=80, bbox_inches="tight")
    return fig
