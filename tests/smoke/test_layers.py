"""The layers point one way: the library imports no application code and no heavy library,
and the shipped player loads without torch or pickle."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What the library (boon_env) must never import, not even inside a function.
ABOVE_THE_LIBRARY = (
    "agents",
    "train",
    "torch",
    "stable_baselines3",
    "sb3_contrib",
    "tensorboard",
    "matplotlib",
    "tqdm",
    "rich",
    "tyro",
    "ray",
    "starlette",
    "uvicorn",
    "websockets",
)


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_no_library_file_imports_application_code_or_heavy_libraries() -> None:
    files = sorted((ROOT / "boon_env").rglob("*.py"))
    assert len(files) > 10
    for path in files:
        for module in _imported_modules(path):
            assert module.split(".")[0] not in ABOVE_THE_LIBRARY, f"{path} imports {module}"


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_importing_the_environment_loads_nothing_above_it() -> None:
    loaded = _run(
        "import sys, boon_env, boon_env.boon_v0, boon_env.games.boon.rules\n"
        "import boon_env.games.boon.encoding\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {ABOVE_THE_LIBRARY!r}))"
    )
    assert loaded == "[]"


def test_the_shipped_player_loads_without_torch_or_unpickling() -> None:
    out = _run(
        "import pickle, sys\n"
        "def refuse(*args, **kwargs):\n"
        "    raise AssertionError('something was unpickled')\n"
        "pickle.load = pickle.loads = refuse\n"
        "from agents.specs import make_agent\n"
        "agent = make_agent('ppo')\n"
        "from boon_env import boon_v0\n"
        "env = boon_v0.raw_env(); env.reset(seed=0)\n"
        "obs = env.observe(env.agent_selection)\n"
        "print(agent.act(obs['observation'], obs['action_mask']) in (32, 33),\n"
        "      'torch' in sys.modules, 'sb3_contrib' in sys.modules)"
    )
    assert out == "True False False"


# The layers from the bottom up: a module may import modules of its own layer or below, never
# above (imports inside functions included). Each entry is a dotted-name prefix; the longest
# prefix that matches a module gives its layer.
LAYERS: dict[str, int] = {
    "boon_env.core": 0,
    "boon_env.games": 0,  # the registry names the games' packages as strings only
    "boon_env.games.*.rules": 1,
    "boon_env.games.*.encoding": 2,
    "boon_env.games.*.config": 2,
    "boon_env.games.*.render": 2,
    "boon_env.games.*.solver": 2,
    "boon_env.core.wrappers": 3,
    "boon_env.core.env": 3,
    "boon_env.games.*.vector": 3,
    "boon_env.games.*.env": 3,
    "boon_env": 4,
    "agents": 5,
    "agents.players": 10,
    "agents.registry.spec": 11,
    "agents.games.terminal": 11,
    "agents.games.web": 11,
    "agents.games.*": 12,
    # the registry: it names the games' specs (layer 12) by reference and imports no game
    "agents.registry": 13,
    "agents.games": 13,  # the games' package loads the registry first (its __init__)
    "agents.specs": 14,
    "agents.eval": 15,
    "agents.gym": 15,
    "agents.training": 16,
    # A game's upper parts: its training recipe and flags, self-play tables, RLlib part, studies
    # and bidding advice. Nothing imports them: the registry names them (GameSpec.training,
    # .rllib, .bidding as "module:attribute" strings, checked below) and they load when used.
    "agents.games.*.training": 17,
    "agents.games.*.selfplay": 17,
    "agents.games.*.rllib": 17,
    "agents.games.*.studies": 17,
    "agents.cli": 18,
    "agents.web": 18,
    "train": 19,
    "train_rllib": 19,
}

# The modules of a game's upper parts (layer 17), which only the registry may name.
UPPER_PARTS = ("training", "selfplay", "rllib", "studies")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> int | None:
    parts = module.split(".")
    matches = []
    for pattern, layer in LAYERS.items():
        wanted = pattern.split(".")
        if len(wanted) <= len(parts) and all(
            w in ("*", p) for w, p in zip(wanted, parts, strict=False)
        ):
            # the longest pattern wins; of equal length, the one with fewer wildcards
            matches.append(((len(wanted), -wanted.count("*")), layer))
    return max(matches)[1] if matches else None


def _project_files() -> list[Path]:
    return [
        *sorted((ROOT / "boon_env").rglob("*.py")),
        *sorted((ROOT / "agents").rglob("*.py")),
        ROOT / "train.py",
        ROOT / "train_rllib.py",
    ]


def test_no_module_imports_a_layer_above_its_own() -> None:
    upward = []
    for path in _project_files():
        module = _module_name(path)
        mine = _layer(module)
        assert mine is not None, f"{module} has no layer in LAYERS"
        for imported in _imported_modules(path):
            theirs = _layer(imported)
            if theirs is not None and theirs > mine:
                upward.append(f"{module} ({mine}) imports {imported} ({theirs})")
    assert upward == []


def test_no_game_package_imports_another_game() -> None:
    for root in ("boon_env/games", "agents/games"):
        games = [p for p in (ROOT / root).iterdir() if (p / "__init__.py").is_file()]
        for game in games:
            others = {g.name for g in games} - {game.name}
            prefix = root.replace("/", ".")
            for path in game.rglob("*.py"):
                for imported in _imported_modules(path):
                    parts = imported.split(".")
                    assert not (imported.startswith(prefix + ".") and parts[2] in others), (
                        f"{path} imports {imported}"
                    )


def test_every_games_rules_import_with_numpy_alone() -> None:
    # PettingZoo, Gymnasium and torch refuse to import; each game's rules (and its encoding,
    # config and batch engine) must not need them.
    out = _run(
        "import importlib, importlib.abc, sys\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('pettingzoo', 'gymnasium', 'torch'):\n"
        "            raise ImportError(f'{name} is blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        "from boon_env.games import ENVS\n"
        "for spec in ENVS.values():\n"
        "    for part in ('rules', 'encoding', 'config', 'vector'):\n"
        "        spec.module(part)\n"
        "print(sorted(ENVS), 'pettingzoo' in sys.modules)"
    )
    assert out == "['bon', 'boon', 'boyn'] False"


def _imported_names(path: Path) -> set[str]:
    # "from boon_env import boon_v0" -> "boon_env.boon_v0" (a module or not).
    return {
        f"{node.module}.{alias.name}"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.module and not node.level
        for alias in node.names
    }


def _game_package(module: str) -> str | None:
    # "agents.games.boon.search" -> "boon", and a game's PettingZoo face "boon_env.bon_v0" ->
    # "bon"; None outside the games' packages.
    parts = module.split(".")
    if len(parts) == 2 and parts[0] == "boon_env" and parts[1].removesuffix("_v0") in _GAMES:
        return parts[1].removesuffix("_v0")
    for root in (("boon_env", "games"), ("agents", "games")):
        if tuple(parts[:2]) == root and len(parts) > 2 and parts[2] in _GAMES:
            return parts[2]
    return None


_GAMES = {p.name for p in (ROOT / "agents" / "games").iterdir() if (p / "__init__.py").is_file()}


def test_no_module_outside_the_games_and_the_registries_imports_a_game() -> None:
    # Generic code (training, eval, players, gym, cli, web, the scripts) asks the registry.
    registries = {"agents.registry", "boon_env.games", "boon_env"}
    importing = []
    for path in _project_files():
        module = _module_name(path)
        if _game_package(module) is not None or module in registries:
            continue
        for imported in _imported_modules(path) | _imported_names(path):
            if _game_package(imported) is not None:
                importing.append(f"{module} imports {imported}")
    assert importing == []


def test_the_registrys_links_to_a_games_upper_parts_resolve_to_its_own_package() -> None:
    # GameSpec.training, .rllib and .bidding name modules above the registry by string (as
    # Gymnasium's entry points do): each must load, be the kind of thing its field promises,
    # and live in the game's own upper parts, at the layer the table names for them.
    from agents.registry import GAMES
    from agents.training.recipe import Recipe
    from boon_env.games import load

    checked = 0
    for name, spec in GAMES.items():
        for field, kind in (("training", Recipe), ("rllib", None), ("bidding", None)):
            reference = getattr(spec, field)
            if reference is None:
                continue
            module = reference.partition(":")[0]
            assert module.split(".")[:3] == ["agents", "games", name], f"{name}.{field}"
            assert module.split(".")[3] in UPPER_PARTS, f"{name}.{field}: {module}"
            assert _layer(module) == LAYERS["agents.games.*.training"], module
            target = load(reference)
            if kind is not None:
                assert isinstance(target, kind), f"{name}.{field} is not a {kind.__name__}"
            elif field == "rllib":
                assert callable(target), f"{name}.rllib names no function"
            else:  # the bidding advice: a module with check_request and advise
                assert callable(target.check_request) and callable(target.advise), name
            checked += 1
    assert checked >= 5  # three recipes, Boon's RLlib figures and its bidding advice


def test_the_registrys_links_to_a_games_browser_table_resolve_to_its_own_package() -> None:
    # GameSpec.web names the game's own web module, below the registry's layer.
    from agents.games.web import WebGame
    from agents.registry import GAMES
    from boon_env.games import load

    for name, spec in GAMES.items():
        if spec.web is not None:
            module = spec.web.partition(":")[0]
            assert module == f"agents.games.{name}.web", module
            assert _layer(module) < _layer("agents.registry"), module
            assert isinstance(load(spec.web), WebGame), name


@pytest.mark.parametrize("game", sorted(_GAMES))
def test_a_games_module_imports_first_in_a_fresh_process(game: str) -> None:
    # The registry loads the games' specs; a game's own module imported before it must not
    # meet its own spec half-loaded.
    out = _run(
        f"import agents.games.{game}.arena, agents.games.{game}.heuristic\n"
        "from agents.registry import game_names\n"
        "print(game_names())"
    )
    assert out == "('boon', 'bon', 'boyn')"
