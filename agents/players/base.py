"""The one protocol every player implements, so the arena, the CLI and training treat them alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """A Boon player.

    ``act`` receives what ``boon_v0`` gives the acting agent: the observation vector (see
    :mod:`boon_env.games.boon.encoding`) and the int8 action mask, and returns a legal action id
    (0-33). ``reset`` is called before every round with a seed for any randomness of the agent's
    own.
    """

    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Choose a legal action."""
        ...

    def reset(self, seed: int | None = None) -> None:
        """Prepare for a new round."""
        ...


@runtime_checkable
class BatchAgent(Agent, Protocol):
    """A player that can also act at many tables at once (the batched arena, the pick study).

    ``batched`` says whether it can (a sampling policy cannot); ``observes`` whether
    ``act_batch`` looks at the observations (else it may be given ``None``). ``reset_batch``
    starts one round per table with that table's seed, and ``act_batch`` chooses, for rows
    ``j`` at tables ``tables[j]`` (distinct), what ``act`` would choose after ``reset(seed)``
    with that table's seed and the same earlier decisions: the two paths agree exactly.
    """

    batched: bool
    observes: bool

    def reset_batch(self, seeds: Sequence[int]) -> None:
        """Prepare one round per table, seeded."""
        ...

    def act_batch(
        self, observations: np.ndarray | None, masks: np.ndarray, tables: np.ndarray
    ) -> np.ndarray:
        """One legal action per row of ``masks`` (k, 34) int8; returns (k,) integers."""
        ...


def legal_bits(action_mask: np.ndarray) -> int:
    """The legal actions of an int8 action mask as a bitmask (bit ``a`` = action ``a``)."""
    packed = np.packbits(np.asarray(action_mask) != 0, bitorder="little")
    return int.from_bytes(packed.tobytes(), "little")


# ------------------------------------------------------------------------------------ players
@dataclass(frozen=True)
class PlayerRequest:
    """What a :data:`PlayerBuilder` is asked to build: the spec ``kind:arg`` for a table of
    ``num_players`` of ``game``; ``make`` builds another spec of the same game and table (for
    players that wrap one, like ``cautious:K:SPEC``)."""

    spec: str
    kind: str
    arg: str
    seed: int | None
    num_players: int
    game: Any  # the agents.registry.spec.GameSpec of the game
    make: Callable[[str], Agent]

    def no_arg(self) -> None:
        """Refuse parameters for a kind that takes none.

        Raises:
            ValueError: naming the spec.
        """
        if self.arg:
            raise ValueError(f"agent spec {self.spec!r}: {self.kind!r} takes no parameters")

    def params(self, cls: type) -> Any:
        """``cls`` (a dataclass) built from ``arg`` = ``"a=1,b=2.5"``, typed like its fields.

        Raises:
            ValueError: a malformed item or an unknown name (listing ``cls``'s fields), or a
                value of the wrong type.
        """
        types = {f.name: f.type for f in fields(cls)}
        params: dict[str, Any] = {}
        for item in filter(None, (part.strip() for part in self.arg.split(","))):
            name, sep, text = item.partition("=")
            name = name.strip()
            if not sep or name not in types:
                raise ValueError(
                    f"agent spec {self.spec!r}: expected name=value with a name among "
                    f"{tuple(types)}, got {item!r}"
                )
            kind = getattr(types[name], "__name__", types[name])
            convert = {"int": int, "str": str}.get(kind, float)
            try:
                params[name] = convert(text)
            except ValueError:
                raise ValueError(
                    f"agent spec {self.spec!r}: {name} must be {convert.__name__}, got {text!r}"
                ) from None
        return cls(**params)


PlayerBuilder = Callable[[PlayerRequest], Agent]
"""Builds the player a spec's kind names (e.g. ``heuristic`` from ``heuristic:x=1``)."""


class RuleBasedPlayer:
    """A deterministic player that decides from its game's view of an observation: a subclass
    sets ``view`` (a class with ``from_observation`` and, for a batch, ``from_observations``),
    ``params_type`` (the dataclass of its named parameters) and ``decide`` (the rules of
    thumb, ``(view, legal_bits, params) -> action``, as a ``staticmethod``). It acts one table
    at a time and on a batch with the same choices (a :class:`BatchAgent`)."""

    view: Any
    params_type: type
    decide: Callable[[Any, int, Any], int]
    batched = True  # acts at many tables at once (act_batch)
    observes = True

    def __init__(self, params: Any = None, name: str = "heuristic") -> None:
        self.params = params or self.params_type()
        self.name = name

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Decode the observation into a view and decide."""
        return self.decide(
            self.view.from_observation(observation), legal_bits(action_mask), self.params
        )

    def act_batch(
        self, observations: np.ndarray, masks: np.ndarray, tables: np.ndarray
    ) -> np.ndarray:
        """:meth:`act` for every row (the same choices), the observations decoded in one batch;
        ``tables`` is not needed: no state."""
        views = self.view.from_observations(observations)
        return np.array(
            [
                self.decide(view, legal_bits(mask), self.params)
                for view, mask in zip(views, masks, strict=True)
            ],
            dtype=np.int64,
        )

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the player has no state and no randomness."""

    def reset_batch(self, seeds: Sequence[int]) -> None:
        """Nothing to reset (see :meth:`reset`)."""
