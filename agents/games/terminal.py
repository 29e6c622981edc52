"""Moves at the terminal, for every game ``boon play`` plays: the person's, read from its
input, and the agents'; :func:`play_game` runs the table of any of them, a
:class:`TerminalGame` telling what happens (:class:`TrickTerminal` tells the tricks of Boon and
B.O.N; ``agents.games.boyn.terminal`` tells BOYN's rounds as events)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol


def next_move(
    env: Any, agents: Mapping[int, Any], human: int, ask: Callable[[], int | None]
) -> int | None:
    """The move of the agent to act on ``env``: asked of the person at seat ``human`` through
    ``ask`` (``None`` when its input ended), else chosen by that seat's agent."""
    agent_name = env.agent_selection
    seat = env.possible_agents.index(agent_name)
    if seat == human:
        return ask()
    observed = env.observe(agent_name)
    return agents[seat].act(observed["observation"], observed["action_mask"])


def ask_move(
    legal: Sequence[int],
    name_of: Callable[[int], str],
    parse: Callable[[str], int],
    input_line: Callable[[str], str],
    why: Callable[[int], str] | None = None,
) -> int | None:
    """List the ``legal`` moves, numbered, and read one until it is legal; ``None`` at the end
    of the input. A move is typed as its number or its name (``parse`` turns a name into an
    action id, raising ``ValueError`` on what is no name); a named move that is not legal is
    refused with the rule that forbids it (``why``)."""
    print("Your moves: " + "  ".join(f"{i}) {name_of(a)}" for i, a in enumerate(legal, 1)))
    while True:
        try:
            text = input_line("> ")
        except EOFError:
            return None
        action = parse_move(text, legal, parse)
        if action is not None:
            return action
        print(refusal(text, legal, name_of, parse, why))


def refusal(
    text: str,
    legal: Sequence[int],
    name_of: Callable[[int], str],
    parse: Callable[[str], int],
    why: Callable[[int], str] | None,
) -> str:
    """Why ``text`` is no legal move now, and what may be typed instead."""
    typed = text.strip()
    if typed.isdigit():
        reason = f"the moves are numbered 1-{len(legal)}"
    else:
        try:
            action = parse(typed.lower())
        except ValueError:
            reason = "that names no move"
        else:
            reason = why(action) if why is not None else "not now"
    choices = f"Type a number 1-{len(legal)} or one of: " + ", ".join(name_of(a) for a in legal)
    return f"{typed!r} is not a legal move now: {reason}. {choices}"


def parse_move(text: str, legal: Sequence[int], parse: Callable[[str], int]) -> int | None:
    """The legal action ``text`` names (its number in the list, or its name), else ``None``."""
    text = text.strip().lower()
    if text.isdigit():
        index = int(text) - 1
        return legal[index] if 0 <= index < len(legal) else None
    try:
        action = parse(text)
    except ValueError:
        return None
    return action if action in legal else None


class TerminalGame(Protocol):
    """What ``boon play`` shows of one game; :func:`play_game` runs the table."""

    def new_env(self, num_players: int, rounds: int | None) -> Any:
        """The game's ``raw_env`` in ``"game"`` episodes, capped at ``rounds`` rounds."""
        ...

    def intro(self, env: Any, human: int) -> str:
        """What to tell the person before the first move."""
        ...

    def ask(self, env: Any, human: int, input_line: Callable[[str], str]) -> int | None:
        """Show the table to the person at seat ``human`` and read a legal move."""
        ...

    def why_illegal(self, state: Any, action: int) -> str:
        """The rule that forbids ``action`` to the player to act, in the rule book's words."""
        ...

    def round_started(self, state: Any) -> None:
        """Say what happened in a round just dealt, before its first decision."""
        ...

    def announce(self, state: Any, seat: int, action: int, human: int) -> None:
        """Say what ``seat`` just did (before it is applied to ``state``)."""
        ...

    def after_step(self, state: Any) -> None:
        """Say what the move just applied to ``state`` brought about."""
        ...

    def show_scoring(self, info: dict[str, Any], human: int) -> None:
        """Show a scored round's ``info["round"]``."""
        ...

    def show_game_end(self, env: Any, human: int, stopped_early: bool) -> None:
        """Show how the game on ``env`` ended; ``stopped_early`` when ``--rounds`` cut it short."""
        ...


class TrickTerminal:
    """What the trick-taking games share at the terminal: nothing to tell before a round's first
    decision, and a line (:meth:`trick_won`) whenever a trick is won."""

    def trick_won(self, trick: Any) -> str:
        """The line that says who won a completed trick."""
        raise NotImplementedError

    def round_started(self, state: Any) -> None:
        """Nothing happens before a trick-taking round's first decision."""

    def after_step(self, state: Any) -> None:
        """Tell who won the trick the move completed, if it did."""
        if state.tricks and not state.trick:  # the trick just completed is the last one
            print(self.trick_won(state.tricks[-1]))

    def ending(self, winners: str, stopped_early: bool) -> str:
        """What the last line says of the ``winners`` (their names), e.g. ``"Winner: you"``."""
        raise NotImplementedError

    def show_game_end(self, env: Any, human: int, stopped_early: bool) -> None:
        """The game's ``info["game"]``: its length and its winners (the leaders when
        ``--rounds`` stopped it)."""
        game = env.infos[env.agent_selection]["game"]
        names = ", ".join(
            "you" if seat == human else f"player_{seat}"
            for seat, won in enumerate(game["winners"])
            if won
        )
        rounds = f"{game['rounds']} round{'s' if game['rounds'] > 1 else ''}"
        ending = self.ending(names, stopped_early)
        if stopped_early:  # --rounds ended a game the rules had not ended
            print(f"\nStopped after {rounds}, as asked. {ending}.")
        else:
            print(f"\nGame over after {rounds}. {ending}.")


def _only_move(env: Any) -> int | None:
    """The acting seat's one legal action, if it has only one."""
    legal = env.observe(env.agent_selection)["action_mask"].nonzero()[0]
    return int(legal[0]) if len(legal) == 1 else None


def play_game(
    game: TerminalGame,
    agents: dict[int, Any],
    human: int,
    num_players: int,
    seed: int | None,
    rounds: int | None,
    input_line: Callable[[str], str],
    ask_forced: bool = False,
) -> int:
    """Play a game (or its first ``rounds`` rounds) with a person at seat ``human`` reading
    moves through ``input_line`` and ``agents[seat]`` at the other seats; returns the exit
    status. A move of the person's that is the only legal one is played for them unless
    ``ask_forced``."""
    env = game.new_env(num_players, rounds)
    print(game.intro(env, human))
    env.reset(seed=seed)
    state = env.game.round
    game.round_started(state)
    finished = 0
    agent_name = env.agent_selection
    while not (env.terminations[agent_name] or env.truncations[agent_name]):
        seat = env.possible_agents.index(agent_name)
        forced = _only_move(env) if seat == human and not ask_forced else None
        if forced is not None:
            print("Your only legal move, played for you:")
            action: int | None = forced
        else:
            action = next_move(env, agents, human, lambda: game.ask(env, human, input_line))
        if action is None:
            print("\nNo more input; leaving the table.")
            return 1
        game.announce(state, seat, action, human)
        env.step(action)
        game.after_step(state)
        agent_name = env.agent_selection
        if state.is_over:  # the round just scored (the env has dealt the next one, if any)
            info = env.infos[agent_name]
            game.show_scoring(info["round"], human)
            finished += 1
            if rounds is not None and finished >= rounds and "game" not in info:
                # A game with no round cap of its own stops here.
                game.show_game_end(env, human, stopped_early=True)
                return 0
            state = env.game.round
            game.round_started(state)
    game.show_game_end(env, human, stopped_early=env.truncations[agent_name])
    return 0
