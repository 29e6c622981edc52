"""The games of the library, one package each, and their registry.

Every game package has the same modules: ``rules/`` (pure: standard library and numpy),
``encoding`` (the observation, ``LAYOUT``), ``config`` (the env's frozen config), ``env`` (the
PettingZoo ``raw_env``/``env``), ``render`` (text) and ``vector`` (the batch engine). An
:class:`EnvSpec` names a game's package; :data:`ENVS` holds one per game, looked up by name with
:func:`env_spec`, and :func:`register_env` adds one. Nothing here imports a game: a spec loads
its modules when asked, so the registry costs nothing to import and every game's rules import
with numpy alone.

>>> from boon_env.games import env_spec
>>> spec = env_spec("bon")
>>> spec.title, spec.player_counts, spec.num_actions
('B.O.N', (3, 4, 5), 34)
>>> spec.vector_engine().__name__
'VectorBon'

"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import Any

from boon_env.core.registry import Registry


def load(reference: str) -> Any:
    """The object a ``"package.module:attribute"`` reference names (the module imported)."""
    module, _, attribute = reference.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


@dataclass(frozen=True)
class EnvSpec:
    """One game of the library: where its package is and what its engines are called.

    Attributes:
        name: the game's short name (``"boon"``), as ``--game``, agent specs and model files
            say it; the PettingZoo id is ``boon/<name>-v0``.
        title: the name people read (``"B.O.N"``).
        package: the game's package (``"boon_env.games.bon"``), with the modules the
            :mod:`boon_env.games` docstring lists.
        vector: the batch engine's class in the package's ``vector`` module (``None``: the
            game has none).
        version: the environment's version (the ``_v0`` of ``bon_v0``).
    """

    name: str
    title: str
    package: str
    vector: str | None
    version: int = 0

    @property
    def pettingzoo_id(self) -> str:
        """The id of ``pettingzoo.make("aec", id)``."""
        return f"boon/{self.name}-v{self.version}"

    @property
    def gymnasium_id(self) -> str:
        """The id of ``gymnasium.make(id)``, the single-agent env (the title's letters and
        digits: ``B.O.N`` is ``boon_env/BON-v0``)."""
        return f"boon_env/{re.sub('[^A-Za-z0-9]', '', self.title)}-v{self.version}"

    def module(self, name: str) -> ModuleType:
        """The package's module ``name`` (``"env"``, ``"rules"``, ``"encoding"``, ...)."""
        return importlib.import_module(f"{self.package}.{name}")

    def raw_env(self, **config: Any) -> Any:
        """The unwrapped AEC env (``<game>_v0.raw_env(**config)``)."""
        return self.module("env").raw_env(**config)

    def env(self, **config: Any) -> Any:
        """The wrapped AEC env (``<game>_v0.env(**config)``)."""
        return self.module("env").env(**config)

    @cached_property
    def player_counts(self) -> tuple[int, ...]:
        """The table sizes the rules allow."""
        return tuple(self.module("rules").PLAYER_COUNTS)

    @cached_property
    def num_actions(self) -> int:
        """The number of action ids (the size of the action mask)."""
        return int(self.module("env").raw_env.num_actions)

    @cached_property
    def layout(self) -> Any:
        """The observation's :class:`~boon_env.core.pieces.Layout` (its named pieces)."""
        return self.module("encoding").LAYOUT

    def vector_engine(self) -> type:
        """The batch engine's class (``VectorBoon``, ...), constructed as
        ``Engine(num_tables, num_players, seed=..., observations=...)``.

        Raises:
            ValueError: the game has no batch engine.
        """
        if self.vector is None:
            raise ValueError(f"{self.title} has no batch engine")
        return getattr(self.module("vector"), self.vector)


ENVS: Registry[EnvSpec] = Registry()


def register_env(spec: EnvSpec) -> None:
    """Add a game to :data:`ENVS` (again with the same spec: nothing changes), and to
    PettingZoo's and Gymnasium's registries where they are installed, whenever it is called:
    ``pettingzoo.make("aec", spec.pettingzoo_id)`` and ``gymnasium.make(spec.gymnasium_id)``
    then build it.

    Raises:
        ValueError: another game of that name is registered.
    """
    ENVS.add(spec.name, spec)
    _register_with_pettingzoo(spec)
    _register_with_gymnasium(spec)


def unregister_env(name: str) -> None:
    """Remove a game from :data:`ENVS`, PettingZoo's and Gymnasium's registries (a test's own
    game, when the test is over)."""
    spec = ENVS.pop(name, None)
    if spec is None:
        return
    for registry, key in (
        (_pettingzoo_registry(), spec.pettingzoo_id),
        (_gymnasium_registry(), spec.gymnasium_id),
    ):
        if registry is not None:
            registry.pop(key, None)


# The single-agent Gymnasium envs: one learning seat, the others played by agents named by
# spec ("heuristic", "ppo:model.npz", ...). Agent specs are the application's (agents.specs), so
# the envs live in agents.gym; the library only names them, and gymnasium.make imports them.
GYMNASIUM_ENTRY_POINT = "agents.gym.single:SingleAgentEnv"
GYMNASIUM_VECTOR_ENTRY_POINT = "agents.gym.vector:SingleAgentVectorEnv"


def _pettingzoo_registry() -> dict[str, Any] | None:
    try:
        import pettingzoo
    except ImportError:  # the rules alone are usable without PettingZoo; its registry is not
        return None
    return pettingzoo.aec_registry


def _gymnasium_registry() -> dict[str, Any] | None:
    try:
        from gymnasium.envs.registration import registry
    except ImportError:  # as for PettingZoo: the rules alone need neither
        return None
    return registry


def _register_with_pettingzoo(spec: EnvSpec) -> None:
    registry = _pettingzoo_registry()
    if registry is not None and spec.pettingzoo_id not in registry:
        import pettingzoo

        pettingzoo.register("aec", spec.pettingzoo_id, entry_point=f"{spec.package}.env:env")


def _register_with_gymnasium(spec: EnvSpec) -> None:
    registry = _gymnasium_registry()
    if registry is not None and spec.gymnasium_id not in registry:
        from gymnasium.envs.registration import register

        register(
            id=spec.gymnasium_id,
            entry_point=GYMNASIUM_ENTRY_POINT,
            vector_entry_point=GYMNASIUM_VECTOR_ENTRY_POINT,
            kwargs={"game": spec.name},
        )


def env_spec(name: str | None = None) -> EnvSpec:
    """The registered game ``name`` (``None``: the default game, the first registered).

    Raises:
        ValueError: no game of that name (listing the known ones).
    """
    return ENVS.lookup(name)


for _spec in (
    EnvSpec("boon", "Boon", "boon_env.games.boon", "VectorBoon"),
    EnvSpec("bon", "B.O.N", "boon_env.games.bon", "VectorBon"),
    EnvSpec("boyn", "BOYN", "boon_env.games.boyn", "VectorBoyn"),
):
    register_env(_spec)
