"""What every game's agents share: the :class:`GameSpec` a game registers, the arena's record
of a played round and the statistics over deals.

A :class:`GameSpec` is everything the commands, the arena, training, the bench and the web table
need to know of a game; each game's package (:mod:`agents.games.boon`, ...) builds one and the
registry (:mod:`agents.registry`) holds them. Nothing here knows a game by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import numpy as np

from agents import untrusted
from agents.players.base import Agent, PlayerBuilder
from agents.players.trained import default_model
from boon_env.games import EnvSpec

_Z95 = 1.96
# What a saved round holds besides how it was dealt (its reset options).
_PLAYED_KEYS = frozenset({"deal_index", "rotation", "seats", "actions", "round", "reset_seed"})


class PlayedRound(NamedTuple):
    """One round of a deal as played: enough to recompute its results or replay it."""

    deal_index: int
    rotation: int
    slots: list[int]  # slots[seat]: the index in the spec list of the agent at that seat
    options: dict[str, Any]  # the reset options that deal it: {"deal": ..., "dealer": ...}
    actions: list[int]  # every action of the round, in order
    # the env's info["round"]; batched Boon play without --save keeps only the keys the records
    # need and the engine gives (all but payout, victory_cards and tricks); {} for an opening
    # (a round played only to its first actions, for the variance reduction's reference deals)
    info: dict[str, Any]
    reset_seed: int | None = None  # BOYN: the seed of the env's reshuffles (None otherwise)

    def to_json(self, specs: Sequence[str]) -> dict[str, Any]:
        """The ``boon arena --save`` line of this round (see ``docs/cli.md``)."""
        return {
            "deal_index": self.deal_index,
            "rotation": self.rotation,
            **self.options,
            "seats": [specs[slot] for slot in self.slots],
            "actions": self.actions,
            "round": self.info,
        } | ({} if self.reset_seed is None else {"reset_seed": self.reset_seed})

    @classmethod
    def from_json(cls, line: dict[str, Any]) -> tuple[PlayedRound, list[str]]:
        """A ``boon arena --save`` line read back: the round (each seat its own slot) and the
        spec in each seat. The deal is checked by the env that replays it, not here.

        Raises:
            ValueError: naming the first key that is missing or malformed.
        """
        for key, kind in (("deal_index", int), ("rotation", int), ("seats", list)):
            if not isinstance(line.get(key), kind) or isinstance(line.get(key), bool):
                raise ValueError(f"'{key}' must be {_a(kind)}, got {line.get(key)!r:.60}")
        seats, actions = line["seats"], line.get("actions")
        if not seats or not all(isinstance(spec, str) for spec in seats):
            raise ValueError(f"'seats' must name the agent of every seat, got {seats!r:.60}")
        if not isinstance(actions, list) or not all(type(a) is int for a in actions):
            raise ValueError(f"'actions' must be a list of action ids, got {actions!r:.60}")
        reset_seed = line.get("reset_seed")
        if reset_seed is not None and (type(reset_seed) is not int or reset_seed < 0):
            raise ValueError(f"'reset_seed' must be an integer >= 0, got {reset_seed!r:.60}")
        info = line.get("round", {})
        if not isinstance(info, dict):
            raise ValueError(f"'round' must be a JSON object, got {info!r:.60}")
        options = {key: value for key, value in line.items() if key not in _PLAYED_KEYS}
        played = cls(
            line["deal_index"],
            line["rotation"],
            list(range(len(seats))),
            options,
            actions,
            info,
            reset_seed,
        )
        return played, list(seats)


def _a(kind: type) -> str:
    return "an integer" if kind is int else "a list"


# A saved round nests 5 deep (its info's tricks); a far deeper line is not one.
SAVED_LINE_NESTING = 16


def saved_lines(path: str | Path) -> list[tuple[int, dict[str, Any]]]:
    """The JSON objects of a ``boon arena --save`` file with their line numbers (blank lines
    skipped).

    Raises:
        ValueError: the file cannot be read, a line is not JSON, or the file holds no object
            or something else than objects; naming the file (and the line).
    """
    try:
        text = untrusted.read_text(path)
    except ValueError as error:
        raise ValueError(f"cannot read {path}: {error}") from None
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            lines.append((number, untrusted.loads(line, SAVED_LINE_NESTING)))
        except ValueError as error:
            raise ValueError(f"{path}, line {number}: {error}") from None
    if not lines or not all(isinstance(line, dict) for _, line in lines):
        raise ValueError(f"{path}: not a boon arena --save file (one JSON object per line)")
    return lines


def result_json(result: Any) -> dict[str, Any]:
    """A result entry as its ``--json`` object: the CI as a list, rates with nothing to rate 0."""
    entry = asdict(result)
    entry["ci95"] = list(entry["ci95"])
    # The contract's rates are numbers: 0.0 when there was nothing to rate (e.g. an agent that
    # never picked); the text table shows "-" instead.
    return {key: 0.0 if value is None else value for key, value in entry.items()}


@dataclass(frozen=True)
class ArenaBaseline:
    """What the arena's variance reduction (:mod:`agents.eval.variance`) reads of a game's
    rounds: the features of one seat's round, computed from the deal and the round's opening
    (its first actions) alone, which a linear control variate turns into a prediction of that
    seat's value (all functions module-level, so that worker processes receive them by name).

    Attributes:
        opening: ``num_players`` -> how many first actions of a round the features read (0: the
            deal alone); reference deals are played that far only.
        features: ``(options, actions, seat)`` -> the features (a float vector, of one length
            per table size) of the seat's round dealt by the reset ``options`` whose first
            actions are ``actions`` (at most ``opening`` of them).
        chance: ``(rounds, slots)`` -> chance terms of one deal (AIVAT's): features of the
            agents in ``slots``, pooled over their rounds of the deal as their values are,
            whose mean is 0 whatever the agents (each a value of the cards the opening did not
            see, less its mean over fresh splits of those cards), so no reference deal
            measures it; or ``None``: the opening's features alone.
        chance_size: ``num_players`` -> how many chance terms there are (0 without ``chance``).
    """

    opening: Callable[[int], int]
    features: Callable[[dict[str, Any], Sequence[int], int], np.ndarray]
    chance: Callable[[Sequence[PlayedRound], set[int]], np.ndarray] | None = None
    chance_size: Callable[[int], int] | None = None


@dataclass(frozen=True)
class ArenaGame:
    """How the arena deals, records and sums up one game (all functions module-level, so that
    worker processes receive them by name).

    Attributes:
        name: the game's name for agent specs (``"boon"``, ``"bon"``, ``"boyn"``).
        raw_env: builds the game's ``raw_env`` from ``num_players=n``.
        deal_options: ``(num_players, seed, index)`` -> the reset options of deal ``index``
            of a run seeded ``seed`` (the same deal in every rotation).
        records: a :class:`PlayedRound` -> one record per seat, each with ``slot`` and
            ``value`` (the round's value for that seat, in the game's unit).
        summarize: ``(specs, per_deal records)`` -> one result entry per distinct spec.
        player_counts: the table sizes the game allows.
        reset_seed: ``(seed, index)`` -> the ``env.reset`` seed of deal ``index`` (the same in
            every rotation, e.g. BOYN's reshuffles), or ``None``: reset with no seed.
        play_batched: ``(agents, seed, first, stop, full, opening)`` -> the rounds of deals
            ``first`` .. ``stop - 1``, played on the game's batch engine when every agent is
            ``batched`` (the same rounds as the one-table way; with ``opening`` a number, only
            each round's first ``opening`` actions, their ``info`` ``{}``), or ``None``: always
            one table at a time.
        baseline: the features of a round's opening that the variance reduction
            (``boon arena --variance-reduction``) predicts a seat's value from, or ``None``:
            the game has none.
    """

    name: str
    raw_env: Callable[..., Any]
    deal_options: Callable[[int, int, int], dict[str, Any]]
    records: Callable[[PlayedRound], list[Any]]
    summarize: Callable[[Sequence[str], Sequence[Sequence[Any]]], list[Any]]
    player_counts: tuple[int, ...]
    reset_seed: Callable[[int, int], int] | None = None
    play_batched: Callable[..., list[list[PlayedRound]]] | None = None
    baseline: ArenaBaseline | None = None


def agent_seed(seed: int, index: int, rotation: int, slot: int) -> int:
    """The seed of the agent in ``slot`` for rotation ``rotation`` of deal ``index`` of a run
    seeded ``seed``: the same whichever worker or batch plays it."""
    return int(np.random.SeedSequence([seed, index, rotation, slot]).generate_state(1)[0])


def pooled(
    specs: Sequence[str], per_deal: Sequence[Sequence[Any]]
) -> Iterator[tuple[str, float, float, list[Any]]]:
    """Per distinct spec: the mean round value, the half-width of its 95% interval over deals
    (see the module docstring) and the spec's records, seats with the same spec pooled."""
    for spec in dict.fromkeys(specs):
        slots = slots_of(specs, spec)
        mean, half = mean_and_half_width(deal_values(slots, per_deal))
        yield spec, mean, half, [r for records in per_deal for r in records if r.slot in slots]


def slots_of(specs: Sequence[str], spec: str) -> set[int]:
    """The slots (indices in ``specs``) where ``spec`` sits."""
    return {k for k, s in enumerate(specs) if s == spec}


def deal_values(slots: set[int], per_deal: Sequence[Sequence[Any]]) -> np.ndarray:
    """Per deal, the mean round value of the records of the agents in ``slots``: the values
    whose mean and spread over deals the arena reports."""
    values = []
    for records in per_deal:
        own = [r.value for r in records if r.slot in slots]
        values.append(sum(own) / len(own))
    return np.asarray(values, dtype=float)


def mean_and_half_width(values: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """The mean of per-deal ``values`` and the half width of its 95% interval,
    ``1.96 * sd / sqrt(N)`` (0 for one value)."""
    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return float(x.mean()), 0.0
    return float(x.mean()), float(_Z95 * x.std(ddof=1) / np.sqrt(len(x)))


# --------------------------------------------------------------------------------- decisions
class DecisionEvaluator(Protocol):
    """How much each move of a decision is worth: what a game's ``evaluator`` builds for a
    table size. For the seat to act in a game on the rules engine it gives every legal
    action's expected value in the game's unit (what the arena's records call the round's
    ``value`` for that seat), from what that seat can see, with the budget of a strong player's
    decision (Boon: the ``expert`` search's own values). Building one may load a model, so the
    game keeps one per table size; :meth:`values` keeps no state (the web table calls it from
    several threads)."""

    note: str  # how it estimates, in words (what the coach tells the person)

    def values(self, game: Any, rng: np.random.Generator) -> dict[int, float]:
        """Each legal action of the seat to act in ``game`` (the rules engine's game, its
        ``round`` in play) with its expected value; ``rng`` draws the cards it cannot see."""
        ...

    def kind(self, game: Any) -> str:
        """What kind of decision the seat to act faces (Boon: ``"pick"``, ``"bury"``,
        ``"play"``), for summaries per kind."""
        ...

    def action_name(self, action: int) -> str:
        """An action as people read it (``"gold 14"``, ``"pick"``)."""
        ...


def rollout_values(
    world: Callable[[np.random.Generator], Any],
    actions: Sequence[int],
    play_out: Callable[[Any, int], float],
    samples: int,
    rng: np.random.Generator,
) -> dict[int, float]:
    """The mean of ``play_out(copy, action)`` over ``samples`` worlds for each of ``actions``:
    ``world(rng)`` samples a round of the rules engine (the cards a seat cannot see dealt at
    random; it has ``clone()``), and every action is played out on a copy of the same worlds,
    so that their differences are not luck."""
    totals = dict.fromkeys(actions, 0.0)
    for _ in range(samples):
        sampled = world(rng)
        for action in actions:
            totals[action] += play_out(sampled.clone(), action)
    return {action: total / samples for action, total in totals.items()}


# --------------------------------------------------------------------------------------- game
class RulesPlay(NamedTuple):
    """A game's bare rules engine as ``boon bench`` drives it: ``new_round(num_players, index,
    rng)`` deals round ``index``, whose object has ``is_over``, ``legal_actions()`` and
    ``apply(action)``; ``score(round)`` scores it once it is over."""

    new_round: Callable[[int, int, np.random.Generator], Any]
    score: Callable[[Any], object]


@dataclass(frozen=True)
class GameSpec:
    """One game, as every command, the arena, training, the bench and the web table see it.

    Attributes:
        env: the library's description of the game (package, engines, PettingZoo id).
        arena: how the duplicate arena deals, records and sums up a round.
        players: the agent kinds it offers (``random``, ``heuristic``, ``ppo``, ...), each a
            :data:`PlayerBuilder`; the first is the default opponent of ``boon play``.
        heuristic: builds its rule-based player (an opponent and imitation teacher).
        terminal: builds its ``boon play`` view (:class:`~agents.games.terminal.TerminalGame`),
            or ``None``: not played at the terminal.
        rules_play: how ``boon bench`` plays its bare rules engine (the ``scalar`` engine): a
            new round of random cards, and its scoring.
        unit: the arena's unit of a round's value, as tables print it (``"Victory Cards"``).
        value_name: the short name of that value in logged keys (``eval/<value_name>_vs_...``).
        value_of: the attribute of its arena result entries that holds the mean value.
        default_players: the table size commands use when none is given.
        reward_scale: a learner's reward is the round's value times this (BOYN's margins are
            tens of points; PPO likes rewards near 1).
        whole_games: ``max_rounds`` -> the :class:`ArenaGame` of whole games capped at that
            many rounds, for the arena's game mode (``--episode game``), or ``None``.
        bidding: a ``"module"`` reference to the advice on its bidding decision (``boon
            advise``: the module's ``check_request`` and ``advise``), or ``None``: it has
            none.
        training: a ``"module:attribute"`` reference to its self-play recipe
            (:class:`agents.training.recipe.Recipe`), loaded only by training.
        web: a ``"module:attribute"`` reference to its browser table
            (:class:`agents.games.web.WebGame`: sessions, replays, the coach, the rules page),
            or ``None``: not served in the browser.
        rllib: a ``"module:attribute"`` reference to the figures of its rounds that
            ``train_rllib.py`` logs besides the round value (a
            :data:`~agents.training.rllib.vector.RoundFigures`), or ``None``: the value alone.
            ``train_rllib.py`` trains every game with a batch engine and a training recipe.
        evaluator: ``num_players`` -> its :class:`DecisionEvaluator` for that table size (the
            same object each time), which ``boon advise``'s review and the web coach use, or
            ``None``: it has none.
    """

    env: EnvSpec
    arena: ArenaGame
    players: Mapping[str, PlayerBuilder]
    heuristic: Callable[[], Agent]
    terminal: Callable[[], Any] | None
    rules_play: RulesPlay
    unit: str
    value_name: str
    value_of: str
    default_players: int = 4
    reward_scale: float = 1.0
    whole_games: Callable[[int], ArenaGame] | None = None
    bidding: str | None = None
    training: str | None = None
    web: str | None = None
    rllib: str | None = None
    evaluator: Callable[[int], DecisionEvaluator] | None = None

    @property
    def name(self) -> str:
        """The game's short name (``"boon"``)."""
        return self.env.name

    @property
    def title(self) -> str:
        """The game's name as people read it (``"B.O.N"``)."""
        return self.env.title

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The table sizes it allows."""
        return self.arena.player_counts

    @property
    def baseline(self) -> ArenaBaseline | None:
        """Its arena's features for the variance reduction, or ``None``: it has none."""
        return self.arena.baseline

    @property
    def obs_size(self) -> int:
        """The length of its observation vector."""
        return int(self.env.layout.size)

    @property
    def num_actions(self) -> int:
        """The number of its action ids."""
        return self.env.num_actions

    def model_file(self, num_players: int) -> Path:
        """Its shipped model for a table size (``agents/models/<game>_ppo_<n>p.npz``).

        Raises:
            ModelFileError: none ships for that size (naming the path and what ships).
        """
        return default_model(num_players, self.name)

    def check_players(self, num_players: int) -> None:
        """Refuse a table size the game does not allow.

        Raises:
            ValueError: naming the game and the sizes it allows.
        """
        if num_players not in self.player_counts:
            counts = self.player_counts
            raise ValueError(
                f"a {self.title} table has {counts[0]}-{counts[-1]} players, got {num_players}"
            )

    def seat_records(self, round_info: dict[str, Any], num_players: int) -> list[Any]:
        """The arena's record of every seat of a round from its ``info["round"]``; each has the
        seat's round ``value`` in the arena's unit."""
        played = PlayedRound(0, 0, list(range(num_players)), {}, [], round_info)
        return self.arena.records(played)
