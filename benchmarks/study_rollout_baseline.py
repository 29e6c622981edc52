"""How much of the duplicate arena's per-deal value a playout of the position explains.

Run: ``python benchmarks/study_rollout_baseline.py [--agents SPEC ...] [--deals N] [--seed S]
[--resamples K] [--value-net-deals M]`` (batched agents only; default ``ppo`` against three
heuristics, 500 deals, seed 2026). Plays the deals in the arena, then replays every round's
first actions (the picks; the picks and the discards; and one or two tricks more) and plays the
rest out with the heuristic in every seat. The value of the first agent's seat in that playout,
averaged over the deal's rotations as the arena averages its values, is a control variate of
the kind ``--variance-reduction`` uses; the script prints the share of the per-deal variance it
explains (R², one slope, in sample) and the width ratio ``sqrt(1 - R²)`` it would give with free
reference deals (docs/agents.md, "Variance reduction").

**The cards unseen at the pick** (``--resamples K``). In each round, the hands of the seats that
decided (up to the picker, or all of them in a Leaster) fix the picks; the Boon and the hands
after the picker are a uniform split of the other cards whatever they are. Dealing that split
``K`` times afresh and replaying each deal with the line-up itself measures how much of the
per-deal variance lies in those cards (the rest is what the opening decides): a baseline that
predicted the round from its cards perfectly could take that share out with no reference deals
at all, as AIVAT's chance terms do (a correction ``V(deal) - mean_k V(resampled deal k)`` has
mean 0 for any ``V``). The script prints that share, then what two cheap ``V`` take out of it:
the heuristic's playout of each deal after the picks, and (``--value-net-deals M``) a network
fitted to predict the agent's round value from the whole deal and the picks, on the line-up's
``M`` deals of seed ``S + 1``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from agents.eval.arena import PlayedRound, arena_rounds
from agents.specs import make_agent
from boon_env.games.boon.rules import NUM_CARDS, PICK, PLAYER_COUNTS, GameConfig
from boon_env.games.boon.vector import VectorBoon


class Position(NamedTuple):
    """A deal to play and the actions to replay before the players take over (duck-types the
    ``options``, ``actions`` and ``slots`` of a :class:`PlayedRound`)."""

    options: dict[str, Any]
    actions: list[int]
    slots: list[int]


def playout_values(
    rounds: Sequence[PlayedRound | Position],
    prefix: Sequence[int],
    n: int,
    players: Sequence[Any] | None = None,
) -> np.ndarray:
    """Each round's seat values (rounds, n) when its first ``prefix[i]`` actions are replayed
    and ``players`` (one batched agent per slot of the line-up, seated as the round's
    ``slots``; default: the heuristic in every seat) play the rest, all rounds at once on the
    vector engine."""
    tables = len(rounds)
    engine = VectorBoon(tables, n, observations=False)
    engine.reset(deals=[{**p.options["deal"], "dealer": p.options["dealer"]} for p in rounds])
    players = players or [make_agent("heuristic", num_players=n)] * n
    unique = {id(agent): agent for agent in players}
    for agent in unique.values():
        agent.reset_batch(range(tables * n))
    seated = np.array([[id(players[slot]) for slot in p.slots] for p in rounds])
    mask, seat = engine.action_masks(), engine.seat
    playing = np.ones(tables, dtype=bool)
    values = np.zeros((tables, n))
    limit = np.array(prefix)
    step = 0
    while playing.any():
        actions = np.argmax(mask != 0, axis=1)  # filler for finished tables
        free = playing & (step >= limit)
        for key, agent in unique.items():
            rows = np.flatnonzero(free & (seated[np.arange(tables), seat] == key))
            if rows.size:
                observed = engine.observe(rows) if agent.observes else None
                actions[rows] = agent.act_batch(observed, mask[rows], rows * n + seat[rows])
        for table in np.flatnonzero(playing & (step < limit)):
            actions[table] = rounds[table].actions[step]
        _obs, mask, seat, _rewards, done = engine.step(actions)
        ended = np.flatnonzero(done & playing)
        values[ended] = engine.finished.values[ended]
        playing[ended] = False
        step += 1
    return values


def picks_end(played: PlayedRound | Position, n: int) -> int:
    """The number of pick decisions: up to the pick, or all ``n`` passes of a Leaster."""
    picks = played.actions[:n]
    return picks.index(PICK) + 1 if PICK in picks else n


def holders(played: PlayedRound | Position) -> np.ndarray:
    """Who holds each card at the deal: its seat, ``n`` for the Boon, -1 when the table size
    leaves it out of the deck."""
    deal = played.options["deal"]
    where = np.full(NUM_CARDS, -1, dtype=np.int64)
    where[deal["boon"]] = len(deal["hands"])
    for seat, hand in enumerate(deal["hands"]):
        where[hand] = seat
    return where


def resampled(played: PlayedRound, count: int, rng: np.random.Generator) -> list[Position]:
    """``count`` deals that keep the hands of the seats that made the round's pick decisions
    and split the other cards (the Boon and the later hands) afresh among the same places."""
    n = len(played.slots)
    dealer = played.options["dealer"]
    decided = {(dealer + 1 + place) % n for place in range(picks_end(played, n))}
    where = holders(played)
    unseen = np.flatnonzero(~np.isin(where, [-1, *decided]))
    deals = []
    for _ in range(count):
        split = where.copy()
        split[unseen] = rng.permutation(where[unseen])
        hands = [np.flatnonzero(split == seat).tolist() for seat in range(n)]
        deal = {"hands": hands, "boon": np.flatnonzero(split == n).tolist()}
        deals.append(Position({"deal": deal, "dealer": dealer}, played.actions, played.slots))
    return deals


def main(argv: list[str] | None = None) -> None:
    """Print R² and the width ratio of each playout baseline (and, with ``--resamples``, the
    share of the variance in the cards unseen at the pick and what cheap baselines take of it)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--agents", nargs="+", default=["ppo", "heuristic", "heuristic", "heuristic"]
    )
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--resamples", type=int, default=0, help="K resampled deals per round")
    parser.add_argument("--value-net-deals", type=int, default=0, help="M deals to fit V on")
    args = parser.parse_args(argv)
    n = len(args.agents)
    lineup = _checked_lineup(parser, args)
    boon_size = GameConfig(num_players=n).boon_size
    per_deal = list(arena_rounds(args.agents, args.deals, seed=args.seed))
    rounds = [played for deal in per_deal for played in deal]
    x = first_values(rounds, n)
    picks = [picks_end(played, n) for played in rounds]
    # A picker's discards are its next actions (none in a Leaster); then the tricks, n cards each.
    ends = [
        k + (boon_size if p.actions[k - 1] == PICK else 0)
        for p, k in zip(rounds, picks, strict=True)
    ]
    prefixes = {
        "the picks": picks,
        "the discards": ends,
        "one trick": [e + n for e in ends],
        "two tricks": [e + 2 * n for e in ends],
    }
    xd = x.mean(axis=1)
    print(f"{args.deals} deals, sd of the per-deal value {xd.std():.3f}")
    for name, prefix in prefixes.items():
        z = first_values(rounds, n, playout_values(rounds, prefix, n)).mean(axis=1)
        print(f"played out after {name:>12}: {_explained(xd, z)}")
    if args.resamples:
        unseen_cards(args, rounds, x, lineup)


def _checked_lineup(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[Any]:
    """The agents of ``args.agents``, one per slot; a one-line usage error (exit 2) for sizes
    the study cannot use, an unknown spec or table size, or a player that cannot act in
    batches."""
    if len(args.agents) not in PLAYER_COUNTS:
        parser.error(f"--agents: one spec per seat, {PLAYER_COUNTS} players, got {args.agents}")
    if args.deals < 2:
        parser.error(f"--deals must be at least 2, got {args.deals}")
    if args.resamples == 1 or args.resamples < 0:
        parser.error(f"--resamples must be 0 or at least 2 (two halves), got {args.resamples}")
    if args.value_net_deals and not args.resamples:
        parser.error("--value-net-deals needs --resamples (it fits V for the chance term)")
    if 0 < args.value_net_deals < 10 or args.value_net_deals < 0:
        parser.error(f"--value-net-deals must be 0 or at least 10, got {args.value_net_deals}")
    try:
        lineup = [make_agent(spec, num_players=len(args.agents)) for spec in args.agents]
    except ValueError as error:
        parser.error(str(error))
    unbatched = [agent.name for agent in lineup if not getattr(agent, "batched", False)]
    if unbatched:
        parser.error(f"the study plays on the vector engine: {unbatched} cannot act in batches")
    return lineup


def first_values(
    rounds: Sequence[PlayedRound | Position], n: int, values: np.ndarray | None = None
) -> np.ndarray:
    """The first agent's seat value in each round, (deals, n rotations) when ``rounds`` are
    whole deals' rotations: from the rounds' own results, or from ``values`` (rounds, n)."""
    seats = [played.slots.index(0) for played in rounds]
    if values is None:
        picked = [p.info["value"][s] for p, s in zip(rounds, seats, strict=True)]  # type: ignore[union-attr]
    else:
        picked = values[np.arange(len(rounds)), seats]
    return np.asarray(picked, dtype=float).reshape(-1, n)


def _explained(target: np.ndarray, baseline: np.ndarray) -> str:
    r2 = float(np.corrcoef(target, baseline)[0, 1] ** 2)
    return f"R2 {r2:.3f}, width ratio {np.sqrt(1 - r2):.3f}"


def unseen_cards(
    args: argparse.Namespace, rounds: list[PlayedRound], x: np.ndarray, lineup: list[Any]
) -> None:
    """Print the share of the per-deal variance in the cards unseen at the pick and what the
    heuristic's playout and (``--value-net-deals``) a fitted network take out of it; ``lineup``
    is the agents of ``args.agents``, one per slot."""
    n, k = x.shape[1], args.resamples
    rng = np.random.default_rng([args.seed, k])
    deals = [deal for played in rounds for deal in resampled(played, k, rng)]
    # E[x | the hands that decided], by the line-up's own play of K splits of the rest:
    # halves of the splits give two independent estimates, whose covariance is the variance
    # of the conditional mean without the splits' own noise.
    replayed = playout_values(deals, [picks_end(p, n) for p in deals], n, lineup)
    again = first_values(deals, n, replayed)
    again = again.reshape(len(x), n, k)  # (deals, rotations, splits)
    halves = again[:, :, : k // 2].mean(axis=(1, 2)), again[:, :, k // 2 :].mean(axis=(1, 2))
    xd = x.mean(axis=1)
    opening = float(np.cov(*halves)[0, 1] / xd.var())
    print(
        f"cards unseen at the pick ({k} splits replayed by the line-up): {1 - opening:.0%} of "
        f"the variance; a perfect baseline of them leaves width ratio {np.sqrt(opening):.3f}"
    )
    heuristic = playout_values([*rounds, *deals], [picks_end(p, n) for p in [*rounds, *deals]], n)
    on_deal = first_values(rounds, n, heuristic[: len(rounds)])
    on_splits = first_values(deals, n, heuristic[len(rounds) :]).reshape(len(x), n, k)
    correction = _correction(on_deal, on_splits)
    print(f"  heuristic playout after the picks, V - mean_k V: {_explained(xd, correction)}")
    if args.value_net_deals:
        net = fitted_value_net(args, n)
        on_deal = net(rounds).reshape(len(x), n)
        on_splits = net(deals).reshape(len(x), n, k)
        print(f"  value network, V - mean_k V: {_explained(xd, _correction(on_deal, on_splits))}")
        alone = _explained(xd, on_deal.mean(axis=1))
        print(f"  value network, V alone (its mean from reference deals): {alone}")


def _correction(on_deal: np.ndarray, on_splits: np.ndarray) -> np.ndarray:
    """AIVAT's chance term per deal: the value on the deal less its mean over the splits."""
    return (on_deal - on_splits.mean(axis=2)).mean(axis=1)


def net_features(rounds: Sequence[PlayedRound | Position]) -> np.ndarray:
    """The value network's input per round, from the first agent's seat: who holds each card
    (counted clockwise from the seat, or the Boon), the picker's place in the pick order (or a
    Leaster), the seat's place and the picker's place after the seat."""
    n = len(rounds[0].slots)
    features = np.zeros((len(rounds), NUM_CARDS * (n + 1) + 3 * n + 2), dtype=np.float32)
    for row, played in enumerate(rounds):
        dealer, seat = played.options["dealer"], played.slots.index(0)
        where = holders(played)
        dealt = np.flatnonzero(where >= 0)
        relative = np.where(where[dealt] == n, n, (where[dealt] - seat) % n)
        features[row, dealt * (n + 1) + relative] = 1.0
        place = picks_end(played, n) - 1 if PICK in played.actions[:n] else n
        mine = (seat - dealer - 1) % n
        after = (place - mine) % n if place < n else n
        offset = NUM_CARDS * (n + 1)
        features[row, [offset + place, offset + n + 1 + mine, offset + 2 * n + 1 + after]] = 1.0
    return features


def fitted_value_net(args: argparse.Namespace, n: int, epochs: int = 8) -> Any:
    """A network (two hidden layers of 256) fitted to the first agent's round value on the
    line-up's ``--value-net-deals`` deals of seed ``S + 1``, the epoch best on a tenth held out;
    returned as a function of rounds. Prints its held-out R² per round."""
    import torch  # the train extra; only this part of the study needs it

    train = [
        p for deal in arena_rounds(args.agents, args.value_net_deals, args.seed + 1) for p in deal
    ]
    inputs = torch.tensor(net_features(train))
    targets = torch.tensor(first_values(train, n).reshape(-1), dtype=torch.float32)
    torch.manual_seed(args.seed)
    net = torch.nn.Sequential(
        torch.nn.Linear(inputs.shape[1], 256),
        torch.nn.ReLU(),
        torch.nn.Linear(256, 256),
        torch.nn.ReLU(),
        torch.nn.Linear(256, 1),
    )
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    cut = len(inputs) * 9 // 10
    best = (float("inf"), net.state_dict())
    for _ in range(epochs):
        for batch in torch.randperm(cut).split(512):
            loss = ((net(inputs[batch]).squeeze(1) - targets[batch]) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            error = float(((net(inputs[cut:]).squeeze(1) - targets[cut:]) ** 2).mean())
        if error < best[0]:
            best = (error, {name: t.clone() for name, t in net.state_dict().items()})
    net.load_state_dict(best[1])
    r2 = 1 - best[0] / float(targets[cut:].var())
    print(f"  value network on {args.value_net_deals} deals: held-out R2 per round {r2:.3f}")

    def predict(rounds: Sequence[PlayedRound | Position]) -> np.ndarray:
        with torch.no_grad():
            return net(torch.tensor(net_features(rounds))).squeeze(1).numpy()

    return predict


if __name__ == "__main__":
    main()
