"""The authoritative game behind the web table, and what the person's client may see of it.

Nothing here knows about HTTP or about any one game: a :class:`GameSession` holds one person's
whole game against agents on a game's rules engine, through its
:class:`~agents.games.web.WebGame`. It checks every move the person sends, runs the agents'
moves, and turns the state into the JSON-ready messages the browser draws, each showing only
what the person's seat may see. It also keeps every finished round as a ``boon arena --save``
line (:attr:`GameSession.records`), so that a game's rounds can be replayed.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from agents.eval.review import review_saved, saved_rounds
from agents.games.web import YOU, WebGame
from agents.players.base import Agent
from agents.players.policy import NumpyPolicy
from agents.players.trained import PPOAgent
from agents.registry import game_spec


class RefusedError(ValueError):
    """A request the game refuses as it stands (not your turn, an illegal move, a step out of
    range); nothing was changed. Any other error while playing is a bug, not the client's."""


def load_coach_policy(path: str | Path, num_players: int, game: str) -> NumpyPolicy:
    """The policy of a model file, for the coach: read the way the ``ppo`` agent reads it.

    Raises:
        ValueError: the file is missing, unreadable, or made for another table size or game.
    """
    return PPOAgent(path, num_players=num_players, game=game).policy


def action_mask(legal: int, size: int) -> np.ndarray:
    """The 0/1 mask over ``size`` action ids of the bitmask ``legal``."""
    return np.array([legal >> action & 1 for action in range(size)], dtype=np.int8)


def seat_names(num_players: int, human: int) -> list[str]:
    """What the page calls each seat: ``"You"`` for the person, ``"Seat k"`` for the others."""
    return [YOU if seat == human else f"Seat {seat}" for seat in range(num_players)]


class GameSession:
    """One person's whole game of ``web``'s game at seat ``human`` against ``agents`` (one per
    other seat), dealt from ``seed``.

    The session is the authority: :meth:`act` refuses any move that is not the person's legal
    move now, leaving the game unchanged. Methods that advance the game return the messages
    to send, one per move, each with the table as the person sees it after that move.
    """

    def __init__(
        self,
        web: WebGame,
        num_players: int,
        agents: Mapping[int, Agent],
        human: int = 0,
        seed: int | None = None,
        seats: list[str] | None = None,
    ) -> None:
        if set(agents) | {human} != set(range(num_players)) or human in agents:
            raise ValueError(f"need one agent for every seat but the person's ({human})")
        game_spec(web.name).check_players(num_players)
        self.web = web
        self.num_players = num_players
        self.human = human
        self.agents = dict(agents)
        self.names = seat_names(num_players, human)
        self.seats = seats or [
            "you" if s == human else getattr(agents[s], "name", "agent") for s in range(num_players)
        ]
        # One generator per consumer, so that asking the coach (which samples deals) or an
        # agent drawing more or fewer numbers never changes the deals a seed gives.
        seeds = np.random.SeedSequence(seed)
        self._deal_rng = np.random.default_rng(seeds)
        self._agent_rng, self._coach_rng = (np.random.default_rng(s) for s in seeds.spawn(2))
        self.game, self._options = web.new_game(num_players, self._deal_rng)
        self.summary: dict[str, Any] | None = None
        self.records: list[dict[str, Any]] = []  # the finished rounds, as arena --save lines
        self._mark = 0  # where the events not told yet start (WebGame.after_events)
        self._advice: tuple[int, dict[int, float]] | None = None  # (decision, values)
        self._decisions = 0  # the person's decisions so far (which one the advice is about)
        self._reset_agents()

    # ----------------------------------------------------------------------------- queries
    @property
    def round(self) -> Any:
        """The round in play (or just finished)."""
        return self.game.round

    @property
    def to_act(self) -> bool:
        """Whether the game waits for the person's move."""
        state = self.round
        return not state.is_over and state.current == self.human

    @property
    def decisions(self) -> int:
        """How many decisions the person has made in this game (which one advice is about)."""
        return self._decisions

    @property
    def over(self) -> bool:
        """Whether the game has ended (or was cut short)."""
        return self.round.is_over and self.web.game_over(self.game)[0]

    def message(
        self, last: dict[str, Any] | None = None, events: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """The ``state`` message: the table as the person sees it, the move that led here and
        what followed it."""
        web = self.web
        state = self.round
        view = web.table(state, web.standing(self.game), {self.human})
        over, winners = web.game_over(self.game) if state.is_over else (False, [])
        options = web.options(state) if self.to_act else []
        return {
            "type": "state",
            "round": len(self.records) + (0 if state.is_over else 1),
            "you": self.human,
            "names": self.names,
            "table": view,
            "legal": [option["action"] for option in options],
            "options": options,
            "prompt": web.prompt(state) if self.to_act else None,
            "event": last,
            "events": events or [],
            "summary": self.summary if state.is_over else None,
            "game_over": over,
            "winners": winners if over else None,
        }

    # ----------------------------------------------------------------------------- moves
    def start(self) -> list[dict[str, Any]]:
        """The opening messages: the table, then the agents' moves up to the person's turn."""
        return [self.message(events=self._after()), *self._run_agents()]

    def act(self, action: int) -> list[dict[str, Any]]:
        """Apply the person's ``action``, then the agents' moves up to the person's next turn
        or the end of the round. The first message reviews the move against the coach's
        values when the coach was asked about this decision (``review``).

        Raises:
            RefusedError: it is not the person's turn, or the action is not legal now.
        """
        state = self.round
        if not self.to_act:
            raise RefusedError("it is not your turn")
        legal = self.web.legal_mask(state)
        if not legal >> action & 1:
            raise RefusedError(
                f"{self.web.action_name(action)} is not legal now; legal: "
                + ", ".join(option["action"] for option in self.web.options(state))
            )
        review = self._review(action)
        self._decisions += 1
        first = self._apply(action)
        if review is not None:
            first["review"] = review
        return [first, *self._run_agents()]

    def next_round(self) -> list[dict[str, Any]]:
        """Deal the next round and run the agents up to the person.

        Raises:
            RefusedError: the round is still being played, or the game is over.
        """
        if not self.round.is_over:
            raise RefusedError("the round is not over yet")
        if self.over:
            raise RefusedError("the game is over; start a new game")
        self._options = self.web.next_round(self.game, self._deal_rng)
        self.summary = None
        self._mark = 0
        self._reset_agents()
        return self.start()

    def _run_agents(self) -> list[dict[str, Any]]:
        messages = []
        web = self.web
        state = self.round
        while not state.is_over and not self.to_act:
            seat = state.current
            observation = web.observe(self.game, seat)
            mask = action_mask(web.legal_mask(state), game_spec(web.name).num_actions)
            messages.append(self._apply(self.agents[seat].act(observation, mask)))
        return messages

    def _apply(self, action: int) -> dict[str, Any]:
        web = self.web
        state = self.round
        seat = state.current
        last = web.move_event(state, seat, action, {self.human})
        info = web.apply(self.game, action)
        events = self._after()
        if info is not None:
            self.summary = web.summary(info, state, self.names, {self.human})
            self.records.append(self._record(state, info))
        return self.message(last, events)

    def _after(self) -> list[dict[str, Any]]:
        events, self._mark = self.web.after_events(self.round, self._mark, self.names)
        return events

    def _record(self, state: Any, info: dict[str, Any]) -> dict[str, Any]:
        """The finished round as a ``boon arena --save`` line (see ``docs/cli.md``)."""
        record = {
            "deal_index": len(self.records),
            "rotation": 0,
            **self._options,
            "seats": self.seats,
            "actions": [int(action) for action in state.history],
            "round": info,
        }
        return record

    def _reset_agents(self) -> None:
        for seat, agent in self.agents.items():
            agent.reset(int(self._agent_rng.integers(2**31)) + seat)

    # ----------------------------------------------------------------------------- coach
    def coach(self, policy: NumpyPolicy | None, search: bool) -> dict[str, Any]:
        """Advice on the person's decision: ``policy``'s probability of each legal action and,
        with ``search``, each action's expected value in the game's unit from what the person
        can see (the game's evaluator of decisions, with the expert's budget: Boon's is the
        ``expert`` search's own values), the best action and what each action costs against
        it (``None`` for a game without an evaluator).

        Raises:
            RefusedError: it is not the person's turn.
        """
        if not self.to_act:
            raise RefusedError("the coach advises on your own decision; it is not your turn")
        web = self.web
        spec = game_spec(web.name)
        state = self.round
        legal = web.legal_mask(state)
        advice: dict[str, Any] = {"policy": None, "search": None}
        if policy is not None:
            observation = web.observe(self.game, self.human)
            mask = action_mask(legal, spec.num_actions)
            probabilities = policy.probabilities(observation, mask)
            advice["policy"] = {
                web.action_name(a): float(probabilities[a]) for a in range(len(mask)) if mask[a]
            }
        if search and spec.evaluator is not None:
            evaluator = spec.evaluator(self.num_players)
            values = evaluator.values(self.game, self._coach_rng)
            self._advice = (self._decisions, values)
            best = max(values, key=values.__getitem__)
            advice["search"] = {web.action_name(a): value for a, value in values.items()}
            advice["best"] = web.action_name(best)
            advice["cost"] = {web.action_name(a): values[best] - v for a, v in values.items()}
            advice["unit"] = spec.unit
            advice["how"] = evaluator.note
        return advice

    def _review(self, action: int) -> dict[str, Any] | None:
        """The person's move against the coach's values for this decision, if it was asked."""
        if self._advice is None or self._advice[0] != self._decisions:
            return None
        values = self._advice[1]
        if action not in values:
            return None
        best = max(values, key=values.__getitem__)
        name = self.web.action_name
        return {
            "action": name(action),
            "value": values[action],
            "best": name(best),
            "best_value": values[best],
            "cost": values[best] - values[action],
            "unit": game_spec(self.web.name).unit,
        }

    def round_review(self) -> dict[str, Any]:
        """Points lost per decision by every seat in the last finished round, the person's
        and the agents': each decision with a choice replayed and valued by the game's
        evaluator (:func:`agents.eval.review.review_saved`), per seat the decisions, the mean
        and total loss in the game's unit, and the costliest decision (``None``: no loss).

        Raises:
            RefusedError: no round has finished yet, or the game has no evaluator.
        """
        spec = game_spec(self.web.name)
        if spec.evaluator is None:
            raise RefusedError(f"the coach cannot review {spec.title} rounds")
        if not self.records:
            raise RefusedError("no round has finished yet")
        number = len(self.records)
        seed = int(self._coach_rng.integers(2**31))
        rounds = saved_rounds([(f"round {number}", self.records[-1])], spec.name)
        review = review_saved(rounds, spec.name, seed)
        by_seat = {int(s.label): s for s in review.summaries(key=lambda d: d.seat)}
        seats = []
        for seat in range(self.num_players):
            summary = by_seat.get(seat)
            worst = summary.worst[0] if summary is not None else None
            seats.append(
                {
                    "seat": seat,
                    "name": self.names[seat],
                    "agent": self.seats[seat],
                    "decisions": 0 if summary is None else summary.loss.decisions,
                    "mean_loss": 0.0 if summary is None else summary.loss.mean,
                    "total_loss": 0.0 if summary is None else summary.loss.total,
                    "worst": None
                    if worst is None or worst.loss <= 0
                    else {
                        "kind": worst.kind,
                        "chosen": worst.chosen,
                        "best": worst.best,
                        "loss": worst.loss,
                    },
                }
            )
        return {"round": number, "unit": spec.unit, "how": review.note, "seats": seats}
