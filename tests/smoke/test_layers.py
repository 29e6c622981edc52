"""The layers point one way: the library imports no application code and no heavy library,
and the shipped player loads without torch or pickle."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

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
