"""The ``boon`` command line: ``boon arena``, ``boon play`` and ``boon bench``.

Run ``boon --help`` or ``boon <command> --help``; examples are in ``docs/cli.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from boon_env import bench, boon_v0
from boon_env.render import render_table
from boon_env.rules import (
    PASS,
    PICK,
    PLAYER_COUNTS,
    POINTS,
    Phase,
    Round,
    action_name,
    mask_of,
    names_of,
    parse_card,
)

_SPEC_HELP = (
    "agent spec: random, heuristic[:name=value,...], search[:samples=N], ppo[:path/to/model.zip]"
)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``boon`` console script; returns the exit status."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as error:  # bad specs, missing models: a message, not a traceback
        print(f"boon {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `boon arena ... | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boon", description="Boon: benchmark agents, play a round, measure the environment."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    arena = commands.add_parser(
        "arena",
        help="compare agents over duplicate deals",
        description="Play duplicate deals (every deal once per seat rotation) and report, per "
        "agent spec, mean Victory Cards per round with a 95%% confidence interval over deals.",
    )
    arena.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help=f"one per seat (3-5); {_SPEC_HELP}",
    )
    arena.add_argument("--deals", type=int, default=1000, help="deals to play (default 1000)")
    arena.add_argument("--seed", type=int, default=0, help="seed of the deals and agents")
    arena.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    arena.add_argument("--json", action="store_true", help="print one JSON object, no table")
    arena.set_defaults(run=_run_arena)

    play = commands.add_parser(
        "play",
        help="play one round in the terminal",
        description="Play one round of Boon at the terminal against agents.",
    )
    play.add_argument(
        "--opponents",
        nargs="+",
        default=["heuristic"],
        metavar="SPEC",
        help=f"one spec for every opponent, or one per opponent seat; {_SPEC_HELP} "
        "(bare 'ppo' is the packaged agents/models/boon_ppo_4p.zip)",
    )
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--num-players", type=int, default=4, choices=PLAYER_COUNTS)
    play.add_argument("--seed", type=int, default=None, help="seed of the deal and the agents")
    play.set_defaults(run=_run_play)

    bench_parser = commands.add_parser(
        "bench",
        help="measure the engine and environment throughput",
        description=bench.__doc__.split("\n\n")[0],
    )
    bench.add_arguments(bench_parser)
    bench_parser.set_defaults(run=_run_bench)
    return parser


# -------------------------------------------------------------------------------------- arena
def _run_arena(args: argparse.Namespace) -> int:
    from agents.arena import run_arena

    report = run_arena(
        args.agents, args.deals, seed=args.seed, workers=args.workers, progress=not args.json
    )
    print(json.dumps(report.to_json()) if args.json else report.table())
    return 0


def _run_bench(args: argparse.Namespace) -> int:
    bench.run(args)
    return 0


# --------------------------------------------------------------------------------------- play
def _run_play(args: argparse.Namespace) -> int:
    from agents.specs import make_agent

    n = args.num_players
    if not 0 <= args.seat < n:
        raise ValueError(f"--seat must be a seat 0-{n - 1}, got {args.seat}")
    specs = args.opponents
    if len(specs) not in (1, n - 1):
        raise ValueError(
            f"--opponents takes 1 spec or {n - 1} (one per opponent), got {len(specs)}"
        )
    others = [seat for seat in range(n) if seat != args.seat]
    seat_spec = {seat: specs[0 if len(specs) == 1 else i] for i, seat in enumerate(others)}
    agents = {seat: make_agent(spec, seed=args.seed) for seat, spec in seat_spec.items()}
    return play_round(agents, args.seat, n, args.seed, input_line=input)


def play_round(
    agents: dict[int, Any],
    human: int,
    num_players: int,
    seed: int | None,
    input_line: Callable[[str], str],
) -> int:
    """Play one round with a person at seat ``human`` reading moves through ``input_line``."""
    env = boon_v0.raw_env(num_players=num_players)
    env.reset(seed=seed)
    for agent in agents.values():
        agent.reset(seed)
    print(f"You are player_{human}. Type a move's number or its name (e.g. 'gold 14', 'pass').")
    agent_name = env.agent_selection
    while not env.terminations[agent_name]:
        seat = env.possible_agents.index(agent_name)
        state = env.game.round
        if seat == human:
            action = _ask_move(env, human, input_line)
            if action is None:
                print("\nNo more input; leaving the table.")
                return 1
        else:
            observed = env.observe(agent_name)
            action = agents[seat].act(observed["observation"], observed["action_mask"])
        _announce(state, seat, action, human)
        tricks_before = len(state.tricks)
        env.step(action)
        if len(state.tricks) > tricks_before:
            trick = state.tricks[-1]
            points = sum(POINTS[card] for card in trick.cards)
            print(f"   -> player_{trick.winner} wins the trick ({points} points).")
        agent_name = env.agent_selection
    _show_scoring(env.infos[agent_name]["round"], human)
    return 0


def _ask_move(env: boon_v0.raw_env, human: int, input_line: Callable[[str], str]) -> int | None:
    state = env.game.round
    print()
    print(render_table(state, env.game.victory_cards, show_hand_of=human))
    if state.picker == human and state.phase is Phase.DISCARD:
        print(f"The Boon held: {', '.join(names_of(state.boon))}")
        if state.discards:
            print(f"Buried so far: {', '.join(names_of(state.discards))}")
    legal = state.legal_actions()
    print("Your moves: " + "  ".join(f"{i}) {action_name(a)}" for i, a in enumerate(legal, 1)))
    while True:
        try:
            text = input_line("> ")
        except EOFError:
            return None
        action = _parse_move(text, legal)
        if action is not None:
            return action
        print(
            f"{text.strip()!r} is not a legal move now. Type a number 1-{len(legal)} or one of: "
            + ", ".join(action_name(a) for a in legal)
        )


def _parse_move(text: str, legal: list[int]) -> int | None:
    """The legal action ``text`` names (its number in the list, or its name), else ``None``."""
    text = text.strip().lower()
    if text.isdigit():
        index = int(text) - 1
        return legal[index] if 0 <= index < len(legal) else None
    named = {"pick": PICK, "pass": PASS}
    if text in named:
        action = named[text]
    else:
        try:
            action = parse_card(text)
        except ValueError:
            return None
    return action if action in legal else None


def _announce(state: Round, seat: int, action: int, human: int) -> None:
    who = "You" if seat == human else f"player_{seat}"
    if action == PICK:
        print(f"{who} pick{'s' if seat != human else ''} the Boon.")
    elif action == PASS:
        print(f"{who} pass{'es' if seat != human else ''}.")
    elif state.phase is Phase.DISCARD:
        # A buried card stays secret from everyone but the picker.
        print(f"You bury {action_name(action)}." if seat == human else f"{who} buries a card.")
    else:
        print(f"{who} play{'s' if seat != human else ''} {action_name(action)}.")


def _show_scoring(info: dict[str, Any], human: int) -> None:
    print("\nRound over.")
    if info["leaster"]:
        print("Everyone passed: a Leaster (fewest points with at least one trick wins).")
    else:
        print(
            f"player_{info['picker']} picked and buried "
            f"{', '.join(names_of(mask_of(info['discards'])))}."
        )
    print("seat      points  tricks  victory cards  change")
    for seat, (points, tricks, vc, change) in enumerate(
        zip(info["points"], info["tricks_won"], info["victory_cards"], info["payout"], strict=True)
    ):
        you = " (you)" if seat == human else ""
        print(f" player_{seat}  {points:>6}  {tricks:>6}  {vc:>13}  {change:>+6}{you}")


if __name__ == "__main__":
    sys.exit(main())
