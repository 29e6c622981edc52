"""The ``boon`` command line: ``boon arena``, ``boon compare``, ``boon tournament``,
``boon exploit``, ``boon play``, ``boon serve``, ``boon bench`` and ``boon advise`` (every
command takes ``--game boon``, ``--game bon`` or ``--game boyn``, or names the games it serves;
the hand advice of ``boon advise`` is Boon's).

Run ``boon --help`` or ``boon <command> --help``; examples are in ``docs/cli.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import importlib.util
import json
import os
import sys
import typing
from collections.abc import Sequence
from pathlib import Path

# One BLAS thread per process (a value the user set wins): the arena's parallelism is its
# worker processes, and a second BLAS thread on the batched policy's small products costs far
# more than it gains on a busy machine; the benchmarks measure one core. The variables reach
# the worker processes, which load numpy after them; this process loaded it with the `agents`
# package, before this line, so main() limits its running BLAS (_one_blas_thread).
_BLAS_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
_USER_SET_THREADS = any(_variable in os.environ for _variable in _BLAS_VARIABLES)
for _variable in _BLAS_VARIABLES:
    os.environ.setdefault(_variable, "1")

from agents import argtypes  # noqa: E402
from agents.eval import bench  # noqa: E402
from agents.eval.arena import run_arena  # noqa: E402
from agents.eval.compare import compare_runs  # noqa: E402
from agents.eval.game_arena import DEFAULT_MAX_ROUNDS, run_game_arena  # noqa: E402
from agents.eval.review import read_saved_rounds, review_play, review_saved  # noqa: E402
from agents.eval.tournament import plot_report, run_tournament  # noqa: E402
from agents.eval.variance import check_sizes, default_reference_deals  # noqa: E402
from agents.games import GAMES, game_names, game_spec, game_with  # noqa: E402
from agents.games.base import GameSpec  # noqa: E402
from agents.games.terminal import play_game  # noqa: E402
from agents.players.base import Agent  # noqa: E402
from agents.players.policy import ModelFileError  # noqa: E402
from agents.players.trained import TRUST_PICKLE  # noqa: E402
from agents.specs import make_agent  # noqa: E402
from agents.web import start as web_start  # noqa: E402
from boon_env.games import load  # noqa: E402

_SPEC_HELP = (
    "agent spec: random, heuristic[:name=value,...], search[:samples=N,rollout=ppo,...], "
    "expert, ppo[:path/to/model.npz]; Boon also search:inference=ppo, rllib:CHECKPOINT_DIR, "
    "cautious:K:SPEC, ... (docs/cli.md)"
)


class UsageError(Exception):
    """A mistake in what the user typed (a bad spec, a missing file): one line, no traceback.

    Only the checks of the user's input raise it; a ``ValueError`` from deeper down (say an
    agent choosing an illegal action) is a bug and keeps its traceback.
    """


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``boon`` console script; returns the exit status."""
    _one_blas_thread()
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except _CommandLineError as error:
        print(error, file=sys.stderr)
        return 2
    if getattr(args, "trust_pickle", False):  # the worker processes inherit it
        os.environ[TRUST_PICKLE] = "1"
    try:
        return args.run(args)
    except UsageError as error:
        print(f"boon {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `boon arena ... | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _one_blas_thread() -> None:
    """Limit this process's loaded BLAS to one thread, unless the user chose a thread count (the
    variables above come too late for a BLAS numpy has loaded already)."""
    if _USER_SET_THREADS:
        return
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")


class _Parser(argparse.ArgumentParser):
    """argparse's parser with usage errors in one line (the usage is one ``--help`` away),
    returned by :func:`main` as status 2 like every other mistake of the user's."""

    def error(self, message: str) -> typing.NoReturn:
        """Raise the mistake as a :class:`_CommandLineError` naming the command."""
        raise _CommandLineError(f"{self.prog}: error: {message} (see {self.prog} --help)")


class _CommandLineError(Exception):
    """A command line argparse refuses: its one-line message."""


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="boon",
        description=f"{', '.join(s.title for s in GAMES.values())}: benchmark agents, play a "
        "game, measure the engines.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )

    arena = commands.add_parser(
        "arena",
        help="compare agents over duplicate deals",
        description="Play duplicate deals (every deal once per seat rotation) and report, per "
        "agent spec, the mean result per round in the game's unit (Boon: Victory Cards, the "
        "rounds' uncapped value; B.O.N: points) with a 95% confidence interval over deals.",
    )
    arena.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help=f"one per seat; {_SPEC_HELP}",
    )
    arena.add_argument(
        "--deals", type=argtypes.count, default=None, help="deals to play (default 1000)"
    )
    _add_game_option(arena)
    arena.add_argument(
        "--episode",
        choices=("round", "game"),
        default="round",
        help="round: duplicate rounds (default); game: duplicate whole games (Boon), "
        "reporting each agent's game win rate",
    )
    arena.add_argument(
        "--games",
        type=argtypes.count,
        default=None,
        help="games to play with --episode game (default 100)",
    )
    arena.add_argument(
        "--max-rounds",
        type=argtypes.count,
        default=None,
        help=f"with --episode game, stop a game after this many rounds (default "
        f"{DEFAULT_MAX_ROUNDS}, reported as truncated)",
    )
    arena.add_argument("--seed", type=argtypes.seed, default=0, help="seed of the deals and agents")
    arena.add_argument(
        "--workers", type=argtypes.workers, default=1, help="worker processes (default 1)"
    )
    arena.add_argument("--json", action="store_true", help="print one JSON object, no table")
    arena.add_argument(
        "--save",
        metavar="FILE.jsonl",
        help="write every round played as one JSON line (the reset options, seats, actions, info)",
    )
    _add_variance_options(arena)
    argtypes.add_trust_option(arena)
    arena.set_defaults(run=_run_arena)

    compare = commands.add_parser(
        "compare",
        help="compare two saved arena runs deal by deal",
        description="The paired difference of one agent's mean value per round (in the game's "
        "unit) between two arena runs saved with --save on the same deals (the same --seed), "
        "with a 95% "
        "confidence interval over the deals: how much better A played than B, with the luck of "
        "the deals taken out.",
    )
    compare.add_argument("first", metavar="A.jsonl", help="the first run's --save file")
    compare.add_argument("second", metavar="B.jsonl", help="the second run's --save file")
    for which in ("a", "b"):
        compare.add_argument(
            f"--agent-{which}",
            metavar="SPEC",
            help=f"the agent compared in the {'first' if which == 'a' else 'second'} file "
            "(default: the spec that sits alone at its tables)",
        )
    _add_game_option(compare)
    compare.add_argument("--json", action="store_true", help="print one JSON object")
    _add_variance_options(compare)
    compare.add_argument(
        "--seed",
        type=argtypes.seed,
        default=0,
        help="with --variance-reduction, the seed of the reference deals (default 0)",
    )
    compare.add_argument(
        "--workers",
        type=argtypes.workers,
        default=1,
        help="with --variance-reduction, worker processes for the reference deals (default 1)",
    )
    compare.set_defaults(run=_run_compare)

    play = commands.add_parser(
        "play",
        help="play a game in the terminal",
        description="Play a game at the terminal against agents: a whole game (Boon: until "
        "someone holds no Victory Cards; B.O.N: until a score reaches 5; BOYN: until a total "
        "reaches 250) unless --rounds stops it sooner.",
    )
    play.add_argument(
        "--opponents",
        nargs="+",
        default=["heuristic"],
        metavar="SPEC",
        help=f"one spec for every opponent, or one per opponent seat; {_SPEC_HELP} "
        "(bare 'ppo' is the shipped model for the table size)",
    )
    play.add_argument("--seat", type=argtypes.size, default=0, help="your seat (default 0)")
    _add_game_option(play)
    play.add_argument(
        "--num-players",
        type=argtypes.count,
        default=None,
        help=f"players at the table ({_player_counts()}; default 4)",
    )
    play.add_argument(
        "--seed", type=argtypes.seed, default=None, help="seed of the deals and the agents"
    )
    play.add_argument(
        "--rounds",
        type=argtypes.count,
        default=None,
        help="stop after this many rounds (default: the game)",
    )
    play.add_argument(
        "--ask-forced",
        action="store_true",
        help="ask for your move even when only one is legal (default: it is played for you)",
    )
    argtypes.add_trust_option(play)
    play.set_defaults(run=_run_play)

    serve = commands.add_parser("serve", help=web_start.HELP, description=web_start.DESCRIPTION)
    web_start.add_options(serve)  # the web table's own options, also `python -m agents.web`'s
    serve.set_defaults(run=_run_serve)

    tournament = commands.add_parser(
        "tournament",
        help="rate agents: every pair in duplicate, one rating each",
        description="Play every pair of agents in duplicate (each alone against the other's "
        "copies, both ways, every rotation, on the same deals) and fit one rating per agent in "
        "the game's unit per round (least squares on the pair margins, mean 0), with 95% "
        "confidence intervals over deals. Method: docs/agents.md, 'Tournament'.",
    )
    tournament.add_argument(
        "--agents", nargs="+", required=True, metavar="SPEC", help=f"2 or more; {_SPEC_HELP}"
    )
    _add_game_option(tournament)
    tournament.add_argument(
        "--players", type=argtypes.count, default=None, help="table size (default 4)"
    )
    tournament.add_argument(
        "--deals", type=argtypes.count, default=100, help="deals per line-up (default 100)"
    )
    tournament.add_argument(
        "--seed", type=argtypes.seed, default=0, help="seed of the deals and agents"
    )
    tournament.add_argument(
        "--workers", type=argtypes.workers, default=1, help="worker processes (default 1)"
    )
    tournament.add_argument(
        "--json",
        nargs="?",
        const="-",
        metavar="PATH",
        help="print one JSON object instead of the table; --json PATH writes it to PATH "
        "beside the table",
    )
    tournament.add_argument(
        "--plot", metavar="PATH.png", help="save the ratings and margins plot (needs matplotlib)"
    )
    _add_variance_options(tournament)
    argtypes.add_trust_option(tournament)
    tournament.set_defaults(run=_run_tournament)

    exploit = commands.add_parser(
        "exploit",
        help="how exploitable is a player? train a best response to it and measure",
        description="Audit a player's exploitability: train a best response (PPO, train.py's "
        "trainer) with the target frozen in every other seat, then play it against copies of "
        "the target over fresh duplicate deals and report its margin (its value per round "
        "minus the targets', paired by deal) in the game's unit with a 95% confidence "
        "interval: a lower bound on how much the target can be exploited. Needs the 'train' "
        "extra. Method: docs/research.md, 'Exploitability'.",
    )
    exploit.add_argument("--target", required=True, metavar="SPEC", help=_SPEC_HELP)
    _add_game_option(exploit)
    exploit.add_argument(
        "--players", type=argtypes.count, default=None, help="table size (default: the game's, 4)"
    )
    exploit.add_argument(
        "--decisions",
        type=argtypes.count,
        default=None,
        help="training budget in learner decisions (default 2,000,000 unless only --seconds "
        "is given; with --resume, counting the earlier ones)",
    )
    exploit.add_argument(
        "--seconds",
        type=argtypes.positive_seconds,
        default=None,
        help="training budget in seconds of PPO (the warm start and the evaluation come on "
        "top); with --decisions, whichever is reached first",
    )
    exploit.add_argument(
        "--seed", type=argtypes.seed, default=0, help="seed of the training (default 0)"
    )
    exploit.add_argument(
        "--eval-seed",
        type=argtypes.seed,
        default=None,
        help="seed of the evaluation deals (default: --seed + 1, fresh deals)",
    )
    exploit.add_argument(
        "--deals", type=argtypes.count, default=2000, help="evaluation deals (default 2000)"
    )
    exploit.add_argument(
        "--tables",
        type=argtypes.count,
        default=None,
        help="tables played at once in training (default 1024; fewer for a slow target that "
        "acts one table at a time, like search)",
    )
    exploit.add_argument(
        "--warm-start",
        type=argtypes.size,
        default=None,
        metavar="ROUNDS",
        help="rounds of heuristic play the best response imitates before PPO (default: "
        "train.py's for the game; 0: from scratch)",
    )
    exploit.add_argument(
        "--init-from",
        default="",
        metavar="PLAYER.npz",
        help="start the best response as this player (e.g. "
        "agents/models/boon_ppo_4p.npz), its critic fitted over --warm-start rounds of its play, "
        "instead of imitating the heuristic",
    )
    exploit.add_argument(
        "--workers",
        type=argtypes.workers,
        default=1,
        help="worker processes of the evaluation (default 1)",
    )
    exploit.add_argument(
        "--out",
        default="runs/exploit",
        metavar="DIR",
        help="where the best response's run folder goes (default %(default)s)",
    )
    exploit.add_argument(
        "--resume",
        default="",
        metavar="CHECKPOINT.zip",
        help="train on from an earlier best response's checkpoint (its model.zip or "
        "checkpoints/model_<steps>.zip; unpickled: your own runs only)",
    )
    exploit.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object (training's output goes to stderr)",
    )
    argtypes.add_trust_option(exploit)
    exploit.set_defaults(run=_run_exploit)
    advise_parser = commands.add_parser(
        "advise",
        help="should this hand pick or pass? how many points does an agent lose per decision?",
        description="Two kinds of advice. With --hand and --position (Boon): estimate picking "
        "against passing for one hand at a position of the pick order (the players before it "
        "having passed): the hidden cards are sampled uniformly, each sample is played out both "
        "ways with the agent in every seat, and the advised seat's round value (Victory Cards, "
        "uncapped) is reported with 95%% CIs. Without them (any game): review an agent's "
        "decisions: play --deals rounds of --agent against --opponents (or, with --replay, "
        "replay the rounds of a 'boon arena --save' file) and, at each of its decisions, value "
        "every legal action with the game's evaluator (Boon: the expert search's own values), "
        "reporting the chosen action's loss against the best and the mean points lost per "
        "decision with a 95%% CI, per kind of decision, the worst decisions and the time per "
        "decision.",
    )
    _add_game_option(advise_parser)
    advise_parser.add_argument(
        "--players",
        type=argtypes.count,
        default=None,
        help="players at the table (default: the game's default, Boon 4)",
    )
    advise_parser.add_argument(
        "--position",
        type=argtypes.size,
        default=None,
        help="hand advice: place in the pick order: 0 decides first (left of the dealer), "
        "players-1 is the dealer; passing there makes a Leaster",
    )
    advise_parser.add_argument(
        "--hand", default=None, help='hand advice: the hand, e.g. "gold 14, gold 13, red 6, ..."'
    )
    advise_parser.add_argument(
        "--agent",
        default=None,
        metavar="SPEC",
        help="hand advice: the player in every seat; review: the agent reviewed (default "
        f"heuristic; with --replay, default every seat); {_SPEC_HELP}",
    )
    advise_parser.add_argument(
        "--opponents",
        nargs="+",
        default=None,
        metavar="SPEC",
        help="review: one spec for every other seat, or one per other seat (default: --agent)",
    )
    advise_parser.add_argument(
        "--seat",
        type=argtypes.size,
        default=None,
        help="review: the seat reviewed (default: a seat drawn each round; with --replay, every "
        "seat of --agent)",
    )
    advise_parser.add_argument(
        "--replay",
        metavar="FILE.jsonl",
        default=None,
        help="review the recorded decisions of a 'boon arena --save' file instead of playing",
    )
    advise_parser.add_argument(
        "--deals",
        type=argtypes.count,
        default=None,
        help="hand advice: sampled deals (default 2000); review: rounds played (default 20)",
    )
    advise_parser.add_argument(
        "--seed",
        type=argtypes.seed,
        default=0,
        help="seed of the samples (and of the rounds played)",
    )
    advise_parser.add_argument(
        "--double-dummy",
        action="store_true",
        help="hand advice by double-dummy simulation: each sample's card play solved exactly "
        "with every hand shown (the heuristic makes the other picks and the burial and plays "
        "Leasters); reports how often picking wins, wins double and loses (default 500 deals)",
    )
    advise_parser.add_argument("--json", action="store_true", help="print one JSON object")
    argtypes.add_trust_option(advise_parser)
    advise_parser.set_defaults(run=_run_advise)

    bench_parser = commands.add_parser(
        "bench",
        help="measure the engine and environment throughput",
        description=bench.__doc__.split("\n\n")[0],
    )
    bench.add_arguments(bench_parser)
    bench_parser.set_defaults(run=_run_bench)
    return parser


def _add_variance_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variance-reduction",
        action="store_true",
        help="also report means with a control variate taken out, predicted from each round's "
        "opening (Boon: the pick decisions); unbiased, narrower intervals (docs/agents.md, "
        "'Variance reduction')",
    )
    parser.add_argument(
        "--reference-deals",
        type=argtypes.count,
        default=None,
        metavar="M",
        help="with --variance-reduction, the reference deals played as far as their openings "
        "to measure the control variate's mean (default 4 per deal)",
    )


def _check_variance_options(args: argparse.Namespace) -> None:
    """``--reference-deals`` only with ``--variance-reduction``, which only a game with a
    baseline allows."""
    if args.variance_reduction:
        _game(args, "baseline", "--variance-reduction")
    elif args.reference_deals is not None:
        raise UsageError("--reference-deals goes with --variance-reduction")


def _variance_options(args: argparse.Namespace, deals: int) -> int | None:
    """The reference deals of ``--variance-reduction`` (``None`` without it), checked."""
    _check_variance_options(args)
    if not args.variance_reduction:
        return None
    reference = (
        default_reference_deals(deals) if args.reference_deals is None else args.reference_deals
    )
    try:
        check_sizes(deals, reference)
    except ValueError as error:
        raise UsageError(f"--variance-reduction: {error}") from None
    return reference


def _add_game_option(parser: argparse.ArgumentParser) -> None:
    names = game_names()
    parser.add_argument(
        "--game", choices=names, default=names[0], help=f"the game (default {names[0]})"
    )


def _player_counts() -> str:
    return "; ".join(
        f"{spec.title} {spec.player_counts[0]}-{spec.player_counts[-1]}" for spec in GAMES.values()
    )


def _version() -> str:
    try:
        return importlib.metadata.version("boon-env")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that is not installed
        return "unknown (not installed)"


def _game(args: argparse.Namespace, feature: str | None = None, doing: str = "") -> GameSpec:
    """The game of ``--game`` (with ``feature``, for a command only such games allow), a
    user's mistake a :class:`UsageError`."""
    try:
        return game_spec(args.game) if feature is None else game_with(args.game, feature, doing)
    except ValueError as error:
        raise UsageError(str(error)) from None


# -------------------------------------------------------------------------------------- arena
def _run_arena(args: argparse.Namespace) -> int:
    _check_specs(args.agents, len(args.agents), args.game)
    if args.episode == "game":
        return _run_game_arena(args)
    if args.games is not None or args.max_rounds is not None:
        raise UsageError("--games and --max-rounds go with --episode game")
    args.deals = 1000 if args.deals is None else args.deals
    if args.save is not None:
        _check_writable("--save", args.save)
    reference = _variance_options(args, args.deals)
    report = run_arena(
        args.agents,
        args.deals,
        seed=args.seed,
        workers=args.workers,
        progress=not args.json,
        save=args.save,
        game=args.game,
        variance_reduction=reference is not None,
        reference_deals=reference,
    )
    print(json.dumps(report.to_json()) if args.json else report.table())
    return 0


def _run_compare(args: argparse.Namespace) -> int:
    _check_variance_options(args)
    try:
        comparison = compare_runs(
            args.first,
            args.second,
            args.agent_a,
            args.agent_b,
            game=args.game,
            variance_reduction=args.variance_reduction,
            reference_deals=args.reference_deals,
            seed=args.seed,
            workers=args.workers,
        )
    except ValueError as error:
        raise UsageError(str(error)) from None
    print(json.dumps(comparison.to_json()) if args.json else comparison.table())
    return 0


def _run_tournament(args: argparse.Namespace) -> int:
    game = _game(args)
    players = game.default_players if args.players is None else args.players
    if len(args.agents) < 2 or len(set(args.agents)) != len(args.agents):
        raise UsageError(f"--agents needs 2 or more distinct specs, got {' '.join(args.agents)}")
    _check_specs(args.agents, players, args.game)
    if args.plot is not None:
        if not args.plot.endswith(".png"):
            raise UsageError(f"--plot writes a PNG: give a path ending in .png, got {args.plot}")
        if importlib.util.find_spec("matplotlib") is None:
            raise UsageError("--plot needs matplotlib: pip install 'boon-env[notebooks]'")
    for option, path in (("--json", args.json), ("--plot", args.plot)):
        if path is not None and path != "-":
            _check_writable(option, path)
    reference = _variance_options(args, args.deals)
    report = run_tournament(
        args.agents,
        players,
        args.deals,
        seed=args.seed,
        workers=args.workers,
        progress=args.json != "-",
        game=args.game,
        variance_reduction=reference is not None,
        reference_deals=reference,
    )
    if args.json == "-":
        print(json.dumps(report.to_json()))
    else:
        print(report.table())
        if args.json is not None:
            Path(args.json).write_text(json.dumps(report.to_json()) + "\n")
    if args.plot is not None:
        plot_report(report, args.plot)
    return 0


def _run_exploit(args: argparse.Namespace) -> int:
    game = _game(args, "training", "training a best response")
    players = game.default_players if args.players is None else args.players
    _check_players(game, "--players", players)
    _check_specs([args.target], players, args.game)
    try:  # the train extra: only this command needs torch and stable-baselines3
        from agents.training.exploit import ExploitRequest, best_response_args, run_exploit
    except ImportError as error:
        raise UsageError(
            f"needs the train extra: pip install 'boon-env[train]' ({error})"
        ) from None
    request = ExploitRequest(
        target=args.target,
        num_players=players,
        game=args.game,
        decisions=args.decisions,
        seconds=args.seconds,
        seed=args.seed,
        eval_seed=args.eval_seed,
        deals=args.deals,
        out=args.out,
        resume=args.resume,
        tables=args.tables,
        warm_start=args.warm_start,
        init_from=args.init_from,
        workers=args.workers,
        progress=not args.json and sys.stderr.isatty(),
    )
    try:
        best_response_args(request)  # every check, before anything is trained
    except ValueError as error:
        raise UsageError(str(error)) from None
    # With --json, stdout carries the object alone: the training's lines go to stderr.
    with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):
        try:
            report = run_exploit(request)
        except ModelFileError as error:  # e.g. a corrupt --resume checkpoint
            raise UsageError(str(error)) from None
    print(json.dumps(report.to_json()) if args.json else report.table())
    return 0


def _check_writable(option: str, path: str) -> None:
    """A bad output path fails now, not after the whole run."""
    try:
        open(path, "w").close()
    except OSError as error:
        raise UsageError(f"{option}: cannot write {path}: {error.strerror}") from None


def _run_game_arena(args: argparse.Namespace) -> int:
    _game(args, "whole_games", "--episode game")
    if args.deals is not None:
        raise UsageError("--episode game counts games: use --games, not --deals")
    if args.save is not None:
        raise UsageError("--save records rounds; it is not available with --episode game")
    if args.variance_reduction or args.reference_deals is not None:
        raise UsageError("--variance-reduction measures rounds; not with --episode game")
    games = 100 if args.games is None else args.games
    max_rounds = DEFAULT_MAX_ROUNDS if args.max_rounds is None else args.max_rounds
    report = run_game_arena(
        args.agents,
        games,
        seed=args.seed,
        workers=args.workers,
        max_rounds=max_rounds,
        progress=not args.json,
        game=args.game,
    )
    print(json.dumps(report.to_json()) if args.json else report.table())
    return 0


def _check_specs(specs: Sequence[str], num_players: int, game: str) -> list[Agent]:
    """Build the agents of the user's specs, turning a bad spec into a :class:`UsageError`."""
    counts = game_spec(game).player_counts
    if num_players not in counts:
        raise UsageError(
            f"a {game} table has {counts[0]}-{counts[-1]} seats; {num_players} agents were given"
        )
    try:
        return [make_agent(spec, num_players=num_players, game=game) for spec in specs]
    except ValueError as error:
        raise UsageError(str(error)) from None


def _per_opponent(specs: Sequence[str], num_players: int) -> list[str]:
    """One spec per opponent seat from ``--opponents``: one spec for all, or one each."""
    n = num_players
    if len(specs) not in (1, n - 1):
        raise UsageError(
            f"--opponents takes 1 spec or {n - 1} (one per opponent), got {len(specs)}"
        )
    return list(specs) * (n - 1) if len(specs) == 1 else list(specs)


def _run_bench(args: argparse.Namespace) -> int:
    game = _game(args)
    for n in args.players or ():
        _check_players(game, "--players", n)
    bench.run(args)
    return 0


def _check_players(game: GameSpec, option: str, num_players: int) -> None:
    try:
        game.check_players(num_players)
    except ValueError as error:
        raise UsageError(f"{option}: {error}") from None


# ------------------------------------------------------------------------------------- advise
def _run_advise(args: argparse.Namespace) -> int:
    if args.hand is not None or args.position is not None or args.double_dummy:
        return _run_hand_advice(args)
    if args.replay is not None:
        return _run_replay_review(args)
    return _run_review(args)


def _run_hand_advice(args: argparse.Namespace) -> int:
    if args.hand is None or args.position is None:
        raise UsageError("hand advice needs both --hand and --position")
    for option in ("opponents", "seat", "replay"):
        if getattr(args, option) is not None:
            raise UsageError(f"--{option} reviews decisions; it does not go with --hand")
    game = _game(args, "bidding", "advice on the bidding decision")
    bidding = load(game.bidding)
    request = {
        "hand": args.hand,
        "players": game.default_players if args.players is None else args.players,
        "position": args.position,
        "agent": "heuristic" if args.agent is None else args.agent,
        "deals": 2000 if args.deals is None else args.deals,
    }
    try:
        bidding.check_request(**request)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.double_dummy:
        if args.agent is not None:
            raise UsageError("--agent plays the hands out; --double-dummy solves them instead")
        request["deals"] = 500 if args.deals is None else args.deals
        del request["agent"]
        advice = bidding.advise_double_dummy(**request, seed=args.seed)
    else:
        advice = bidding.advise(**request, seed=args.seed)
    print(json.dumps(advice.to_json()) if args.json else advice.table())
    return 0


def _run_review(args: argparse.Namespace) -> int:
    game = _game(args, "evaluator", "reviewing decisions")
    n = game.default_players if args.players is None else args.players
    _check_players(game, "--players", n)
    agent = "heuristic" if args.agent is None else args.agent
    opponents = _per_opponent(args.opponents or [agent], n)
    rounds = 20 if args.deals is None else args.deals
    if args.seat is not None and not 0 <= args.seat < n:
        raise UsageError(f"--seat must be a seat 0-{n - 1}, got {args.seat}")
    _check_specs([agent, *opponents], n, game.name)
    review = review_play(agent, opponents, rounds, args.seed, game.name, args.seat)
    print(json.dumps(review.to_json()) if args.json else review.table())
    return 0


def _run_replay_review(args: argparse.Namespace) -> int:
    game = _game(args, "evaluator", "reviewing decisions")
    for option in ("opponents", "deals", "players"):
        if getattr(args, option) is not None:
            raise UsageError(f"--{option} plays rounds; a --replay review reads them from the file")
    try:
        rounds = read_saved_rounds(args.replay, game.name, args.agent, args.seat)
    except ValueError as error:
        raise UsageError(str(error)) from None
    review = review_saved(rounds, game.name, args.seed)
    print(json.dumps(review.to_json()) if args.json else review.table())
    return 0


# -------------------------------------------------------------------------------------- serve
def _run_serve(args: argparse.Namespace) -> int:
    try:
        table = web_start.open_from(args)
    except ValueError as error:  # a bad game, table size, spec, replay file or address
        raise UsageError(str(error)) from None
    table.serve()
    return 0


# --------------------------------------------------------------------------------------- play
def _run_play(args: argparse.Namespace) -> int:
    game = _game(args, "terminal", "playing at the terminal")
    n = game.default_players if args.num_players is None else args.num_players
    _check_players(game, "--num-players", n)
    if not 0 <= args.seat < n:
        raise UsageError(f"--seat must be a seat 0-{n - 1}, got {args.seat}")
    others = [seat for seat in range(n) if seat != args.seat]
    seat_spec = _per_opponent(args.opponents, n)
    agents = dict(zip(others, _check_specs(seat_spec, n, args.game), strict=True))
    for seat, agent in agents.items():
        agent.reset(None if args.seed is None else args.seed + seat)
    terminal = game.terminal()
    return play_game(terminal, agents, args.seat, n, args.seed, args.rounds, input, args.ask_forced)


if __name__ == "__main__":
    sys.exit(main())
