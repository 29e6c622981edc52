"""Screens: a run that picks its own best model and stops when it no longer improves.

Every ``--screen-every`` learner decisions (and once more when ``learn`` ends) the current policy
plays a duplicate-arena match against each fixed reference: the game's heuristic and the policy
the run started from (after its warm start; a resumed run keeps its first run's). A match is
:func:`~agents.eval.arena.paired_margins` over the same ``--screen-deals`` deals every time, so
two screens differ by the policy alone; the screen's score is the mean of its margins. The best
screened policy is kept (``checkpoints/screen_best.npz``); :func:`~agents.training.trainer.train`
writes it as the run's model, its screen in the model's JSON. After ``--patience`` screens in a
row without a new best the run stops. Each screen is a line of the run's log and
``screen/...`` scalars in TensorBoard.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from agents.eval.arena import paired_margins
from agents.players.policy import NumpyPolicy, load_policy, model_paths, save_policy
from agents.players.trained import PolicyAgent
from agents.registry.spec import GameSpec

START, BEST = "screen_start", "screen_best"
"""The file stems of the start reference and the best screened policy in a checkpoint folder."""

_SEED_OFFSET = 104_729  # the screens' deals differ from the quick evaluations' and the arena's


@dataclass(frozen=True)
class Screen:
    """One screen: the policy's paired margin over each reference, with its 95% half-width,
    in the game's unit per round."""

    timesteps: int
    margins: dict[str, float]
    half_widths: dict[str, float]

    @property
    def score(self) -> float:
        """The mean margin over the references: what the best screen maximises."""
        return float(np.mean(list(self.margins.values())))

    def line(self, best: bool) -> str:
        """The screen as a line of the run's log."""
        parts = [
            f"vs {name} {m:+.3f} ±{self.half_widths[name]:.3f}" for name, m in self.margins.items()
        ]
        mark = " (best)" if best else ""
        at = f"screen at {self.timesteps:,} decisions"
        return f"{at}: {', '.join(parts)}; score {self.score:+.3f}{mark}"

    def to_json(self) -> dict[str, Any]:
        """The screen as JSON: its fields and its score."""
        return {**asdict(self), "score": self.score}


class Screens(BaseCallback):
    """The screens of a run (module docstring).

    Args:
        every: screen every this many learner decisions (0: never).
        deals: duplicate deals per reference and screen.
        patience: stop after this many screens in a row without a new best (0: never stop).
        num_players: players at the table.
        game: the game.
        seed: the run's seed (the screens' deals are drawn from it).
        folder: where the start reference and the best policy are written (the checkpoints').
        resumed: the checkpoint folder of a resumed run, whose start reference and best policy
            the run takes over.
    """

    def __init__(
        self,
        every: int,
        deals: int,
        patience: int,
        num_players: int,
        game: GameSpec,
        seed: int,
        folder: Path,
        resumed: Path | None = None,
    ) -> None:
        super().__init__()
        self.every = every
        self.deals = deals
        self.patience = patience
        self.num_players = num_players
        self.game = game
        self.seed = seed + _SEED_OFFSET
        self.folder = folder
        self.resumed = resumed
        self.start: NumpyPolicy | None = None
        self.best: NumpyPolicy | None = None
        self.best_screen: Screen | None = None
        self.screens: list[Screen] = []
        self.since_best = 0
        self.stopped = False
        self._last = 0

    def _on_training_start(self) -> None:
        self._last = self.model.num_timesteps
        if self.resumed is not None:
            self.start = self._load(self.resumed / START)[0]
            self.best, stored = self._load(self.resumed / BEST)
            if self.best is not None:
                fields = ("timesteps", "margins", "half_widths")
                self.best_screen = Screen(*(stored["screen"][key] for key in fields))
        if self.start is None:
            self.start = NumpyPolicy.from_sb3(self.model.policy)
        self._save(START, self.start, {})
        if self.best is not None and self.best_screen is not None:
            self._save(BEST, self.best, {"screen": self.best_screen.to_json()})

    def _on_step(self) -> bool:
        return not self.stopped

    def _on_rollout_end(self) -> None:
        if self.every and self.model.num_timesteps - self._last >= self.every:
            self.screen()

    def _on_training_end(self) -> None:
        # The policy after the last update is screened too: it may be the best. (A screen at a
        # rollout's end is always followed by an update, so none of them saw this policy.)
        if self.every:
            self.screen()
            self.logger.dump(self.model.num_timesteps)

    def screen(self) -> Screen:
        """Screen the current policy, keep it if it is the best so far, and stop the run after
        ``patience`` screens without a new best."""
        self._last = self.model.num_timesteps
        policy = NumpyPolicy.from_sb3(self.model.policy)
        screen = self._measure(policy)
        better = self.best_screen is None or screen.score > self.best_screen.score
        if better:
            self.best, self.best_screen, self.since_best = policy, screen, 0
            self._save(BEST, policy, {"screen": screen.to_json()})
        else:
            self.since_best += 1
        self.screens.append(screen)
        self._record(screen)
        print(screen.line(better), flush=True)
        if self.patience and self.since_best == self.patience and not self.stopped:
            self.stopped = True
            print(f"no better screen in the last {self.patience}: the run stops", flush=True)
        return screen

    def _measure(self, policy: NumpyPolicy) -> Screen:
        references = {"heuristic": self.game.heuristic, "start": self._start_agent}
        margins, halves = {}, {}
        for name, make in references.items():
            per_deal = paired_margins(
                lambda: PolicyAgent(policy), make, self.num_players, self.deals, self.seed,
                self.game.name,
            )  # fmt: skip
            margins[name] = float(per_deal.mean())
            halves[name] = float(1.96 * per_deal.std(ddof=1) / np.sqrt(len(per_deal)))
        return Screen(int(self.model.num_timesteps), margins, halves)

    def _start_agent(self) -> PolicyAgent:
        assert self.start is not None  # set when training starts
        return PolicyAgent(self.start)

    def _record(self, screen: Screen) -> None:
        for name, margin in screen.margins.items():
            self.logger.record(f"screen/margin_vs_{name}", margin)
            self.logger.record(f"screen/margin_vs_{name}_ci95", screen.half_widths[name])
        self.logger.record("screen/score", screen.score)
        assert self.best_screen is not None  # every screen sets one or compares with one
        self.logger.record("screen/best_score", self.best_screen.score)

    def _save(self, stem: str, policy: NumpyPolicy, meta: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        save_policy(self.folder / stem, policy, self.num_players, meta, self.game.name)

    def _load(self, stem: Path) -> tuple[NumpyPolicy | None, dict[str, Any]]:
        # A policy this callback saved, with its provenance (None, {} if there is none).
        weights = model_paths(stem)[0]
        if not weights.is_file():
            return None, {}
        policy, meta = load_policy(weights, self.num_players, self.game.name)
        return policy, meta["provenance"]

    def summary(self) -> dict[str, Any]:
        """The screens for the run's summary and model file: the best and every one."""
        if self.best_screen is None:
            return {}
        return {
            "screen": self.best_screen.to_json(),
            "screens": [screen.to_json() for screen in self.screens],
            "stopped_early": self.stopped,
        }
