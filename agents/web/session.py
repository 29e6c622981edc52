"""The authoritative game behind the web table, and what each client may see of it.

Nothing here knows about HTTP: :class:`GameSession` holds one person's game against agents on
the rules engine (:class:`~boon_env.games.boon.rules.Game`), checks every move the person sends,
runs the agents' moves, and turns the state into the JSON-ready messages the browser draws. The
replay viewer draws the same :func:`table` with every hand shown.

On the wire every card is its name (``"gold 14"``), every action a card name, ``"pick"`` or
``"pass"``, and seats are absolute seat numbers. What :func:`table` puts in a seat's message is
what :func:`boon_env.games.boon.encoding.encode` shows that seat: its own hand, the Boon and the
buried cards only to the picker once it picked, and public play. The buried cards become public in
the round's summary, as in ``boon_v0``'s ``info["round"]``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.games.boon.heuristic import HeuristicParams
from agents.games.boon.search import SearchParams, action_values
from agents.games.boon.view import View
from agents.players.base import Agent
from agents.players.policy import NumpyPolicy
from agents.players.trained import PPOAgent
from boon_env.boon_v0 import round_info
from boon_env.games.boon.encoding import action_mask, encode
from boon_env.games.boon.rules import (
    PASS,
    PICK,
    POINTS,
    SUIT_MASK,
    SUIT_NAMES,
    Deal,
    Game,
    GameConfig,
    Phase,
    Round,
    Settlement,
    action_name,
    card_name,
    cards_of,
    names_of,
    parse_card,
)


class RefusedError(ValueError):
    """A request the game refuses as it stands (not your turn, an illegal move, a step out of
    range); nothing was changed. Any other error while playing is a bug, not the client's."""


def load_coach_policy(path: str | Path, num_players: int) -> NumpyPolicy:
    """The policy of a model file, for the coach: read the way the ``ppo`` agent reads it.

    Raises:
        ValueError: the file is missing, unreadable, or made for another table size.
    """
    return PPOAgent(path, num_players=num_players).policy


def parse_action(text: object) -> int:
    """The action id a client names: ``"pick"``, ``"pass"`` or a card name.

    Raises:
        ValueError: ``text`` is not a string naming an action.
    """
    if not isinstance(text, str) or len(text) > 16:
        raise ValueError(f"action must be a card name, 'pick' or 'pass', got {text!r}")
    named = {"pick": PICK, "pass": PASS}.get(text.strip().lower())
    return named if named is not None else parse_card(text)


def card_points() -> dict[str, list[int]]:
    """Point values by suit and rank (index 0 = rank 1), for drawing the cards' faces."""
    return {
        suit: [POINTS[card] for card in cards_of(SUIT_MASK[index])]
        for index, suit in enumerate(SUIT_NAMES)
    }


def table(
    state: Round,
    victory_cards: Sequence[int],
    shown: Collection[int],
    show_boon: bool,
) -> dict[str, Any]:
    """The table as a client draws it: public play, plus the hands of the ``shown`` seats, and
    the Boon and buried cards when ``show_boon``."""
    n = state.config.num_players
    last = state.tricks[-1] if state.tricks else None
    return {
        "players": n,
        "dealer": state.dealer,
        "phase": state.phase.name.lower(),
        "current": state.current,
        "picker": state.picker,
        "leaster": state.leaster,
        "passed": [seat for seat in range(n) if state.passed >> seat & 1],
        "hand_sizes": [hand.bit_count() for hand in state.hands],
        "hands": [names_of(state.hands[seat]) if seat in shown else None for seat in range(n)],
        "boon": names_of(state.boon) if show_boon else None,
        "discards": names_of(state.discards) if show_boon else None,
        "to_bury": state.cards_to_discard(),
        "leader": state.leader,
        "trick": names_of_in_order(state.trick),
        "last_trick": None
        if last is None
        else {
            "leader": last.leader,
            "cards": names_of_in_order(last.cards),
            "winner": last.winner,
            "points": sum(POINTS[card] for card in last.cards),
        },
        "tricks_played": len(state.tricks),
        "points": list(state.points),
        "tricks_won": list(state.tricks_won),
        "victory_cards": list(victory_cards),
    }


def names_of_in_order(cards: Sequence[int]) -> list[str]:
    """Card names in the order given (a trick in play order)."""
    return [card_name(card) for card in cards]


def event(state: Round, seat: int, action: int, shown: Collection[int]) -> dict[str, Any]:
    """What a client is told of ``seat``'s ``action`` in ``state`` (before it is applied): a
    card buried by a seat not ``shown`` stays secret."""
    if action in (PICK, PASS):
        return {"seat": seat, "kind": action_name(action), "card": None}
    if state.phase is Phase.DISCARD:
        return {"seat": seat, "kind": "bury", "card": card_name(action) if seat in shown else None}
    return {"seat": seat, "kind": "play", "card": card_name(action)}


def round_summary(info: Mapping[str, Any]) -> dict[str, Any]:
    """The scored round for a client, from a ``boon_v0`` ``info["round"]`` record (live or read
    from a replay file): who picked, points, tricks, payout, holdings and the buried cards."""
    picker = info["picker"]
    return {
        "picker": None if picker is None or picker < 0 else picker,
        "leaster": bool(info["leaster"]),
        "points": list(info["points"]),
        "tricks_won": list(info["tricks_won"]),
        "payout": list(info["payout"]),
        "victory_cards": list(info["victory_cards"]),
        "discards": [card_name(card) for card in info["discards"] if card >= 0],
    }


class GameSession:
    """One person's whole game at seat ``human`` against ``agents`` (one per other seat).

    The session is the authority: :meth:`act` refuses any move that is not the person's legal
    move now, leaving the game unchanged. Methods that advance the game return the messages
    to send, one per move, each with the table as the person sees it after that move.
    """

    def __init__(
        self,
        config: GameConfig,
        agents: Mapping[int, Agent],
        human: int = 0,
        seed: int | None = None,
    ) -> None:
        if set(agents) | {human} != set(range(config.num_players)) or human in agents:
            raise ValueError(f"need one agent for every seat but the person's ({human})")
        self.config = config
        self.human = human
        self.agents = dict(agents)
        # One generator per consumer, so that asking the coach (which samples deals) or an
        # agent drawing more or fewer numbers never changes the deals a seed gives.
        seeds = np.random.SeedSequence(seed)
        self._deal_rng = np.random.default_rng(seeds)
        self._agent_rng, self._coach_rng = (np.random.default_rng(s) for s in seeds.spawn(2))
        dealer = int(self._deal_rng.integers(config.num_players))
        self.game = Game(config, Deal.random(config, self._deal_rng), dealer)
        self.summary: dict[str, Any] | None = None
        self._reset_agents()

    # ----------------------------------------------------------------------------- queries
    @property
    def round(self) -> Round:
        """The round in play (or just finished)."""
        return self.game.round

    @property
    def to_act(self) -> bool:
        """Whether the game waits for the person's move."""
        return self.round.current == self.human

    def message(self, last: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message: the table as the person sees it, the move that led here."""
        state = self.round
        game = self.game
        view = table(state, game.victory_cards, {self.human}, state.picker == self.human)
        legal = state.legal_actions() if self.to_act else []
        return {
            "type": "state",
            "round": game.rounds_played + (0 if state.is_over else 1),
            "you": self.human,
            "table": view,
            "legal": [action_name(action) for action in legal],
            "event": last,
            "summary": self.summary if state.is_over else None,
            "game_over": game.is_over or game.is_truncated,
            "winners": game.winners if game.is_over or game.is_truncated else None,
        }

    # ----------------------------------------------------------------------------- moves
    def start(self) -> list[dict[str, Any]]:
        """The opening messages: the table, then the agents' moves up to the person's turn."""
        return [self.message(), *self._run_agents()]

    def act(self, action: int) -> list[dict[str, Any]]:
        """Apply the person's ``action``, then the agents' moves up to the person's next turn
        or the end of the round.

        Raises:
            RefusedError: it is not the person's turn, or the action is not legal now.
        """
        state = self.round
        if not self.to_act:
            raise RefusedError("it is not your turn")
        if not state.legal_mask() >> action & 1:
            raise RefusedError(
                f"{action_name(action)} is not legal now; legal: "
                + ", ".join(action_name(a) for a in state.legal_actions())
            )
        return [self._apply(action), *self._run_agents()]

    def next_round(self) -> list[dict[str, Any]]:
        """Deal the next round (the deal passes left) and run the agents up to the person.

        Raises:
            RefusedError: the round is still being played, or the game is over.
        """
        if not self.round.is_over:
            raise RefusedError("the round is not over yet")
        if self.game.is_over or self.game.is_truncated:
            raise RefusedError("the game is over; start a new game")
        self.game.next_round(Deal.random(self.config, self._deal_rng))
        self.summary = None
        self._reset_agents()
        return self.start()

    def _run_agents(self) -> list[dict[str, Any]]:
        messages = []
        state = self.round
        while not state.is_over and not self.to_act:
            seat = state.current
            observation = encode(state, seat, self.game.victory_cards)
            action = self.agents[seat].act(observation, action_mask(state.legal_mask()))
            messages.append(self._apply(action))
        return messages

    def _apply(self, action: int) -> dict[str, Any]:
        state = self.round
        seat = state.current
        last = event(state, seat, action, {self.human})
        result: Settlement | None = self.game.apply(action)
        if result is not None:
            self.summary = round_summary(round_info(state, result))
        return self.message(last)

    def _reset_agents(self) -> None:
        for seat, agent in self.agents.items():
            agent.reset(int(self._agent_rng.integers(2**31)) + seat)

    # ----------------------------------------------------------------------------- coach
    def coach(
        self, policy: NumpyPolicy | None, search: SearchParams | None
    ) -> dict[str, dict[str, float] | None]:
        """Advice on the person's decision: ``policy``'s probability of each legal action and,
        when ``search`` is given, the search player's mean outcome (Victory Cards this round) of
        each, from what the person can see.

        Raises:
            RefusedError: it is not the person's turn.
        """
        if not self.to_act:
            raise RefusedError("the coach advises on your own decision; it is not your turn")
        state = self.round
        legal = state.legal_actions()
        advice: dict[str, dict[str, float] | None] = {"policy": None, "search": None}
        if policy is not None:
            observation = encode(state, self.human, self.game.victory_cards)
            probabilities = policy.probabilities(observation, action_mask(state.legal_mask()))
            advice["policy"] = {action_name(a): float(probabilities[a]) for a in legal}
        if search is not None:
            view = View.from_round(state, self.human)
            values = action_values(
                view, state.legal_mask(), search, HeuristicParams(), self._coach_rng
            )
            advice["search"] = {action_name(a): v for a, v in values.items()}
        return advice
