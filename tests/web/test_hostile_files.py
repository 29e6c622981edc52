"""Broken and hostile model and replay files: each is refused with one line naming the file (a
``ValueError``), before anything large is allocated; none escapes as another exception, and
none that loads fails later. Bounded: a fixed number of files, made from a seeded generator."""

from __future__ import annotations

import copy
import io
import json
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.eval.arena import run_arena
from agents.eval.compare import compare_runs
from agents.players.policy import ModelFileError, load_policy, model_paths
from agents.players.trained import MODELS_DIR
from agents.web.replay import load_replay

MODEL = MODELS_DIR / "boon_ppo_3p.npz"
MUTATED_MODELS = 1000  # files; about 2 ms each


def copy_model(tmp_path: Path, name: str = "m") -> tuple[Path, Path]:
    weights, meta = model_paths(tmp_path / name)
    shutil.copy(MODEL, weights)
    shutil.copy(model_paths(MODEL)[1], meta)
    return weights, meta


def npy_bytes(header: dict, data: bytes = b"") -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, header)
    return buffer.getvalue() + data


def write_npz(path: Path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(f"{name}.npy", data)


def refused(weights: Path, match: str = "") -> str:
    with pytest.raises(ModelFileError, match=match) as error:
        load_policy(weights, 3, "boon")
    message = str(error.value)
    assert "\n" not in message and str(weights.with_suffix("")) in message, message
    return message


def test_an_empty_or_truncated_npz_is_refused(tmp_path):
    weights, _ = copy_model(tmp_path)
    whole = weights.read_bytes()
    for size in (0, 10, len(whole) // 2, len(whole) - 1):
        weights.write_bytes(whole[:size])
        refused(weights, "no readable policy weights")


def test_deeply_nested_metadata_is_refused(tmp_path):
    weights, meta = copy_model(tmp_path)
    meta.write_text("[" * 100_000 + "]" * 100_000)
    refused(weights, "nested deeper")


def test_a_structured_or_object_array_is_refused(tmp_path):
    weights, _ = copy_model(tmp_path)
    arrays = dict(np.load(MODEL))
    arrays["b0"] = np.zeros(arrays["b0"].shape, dtype=[("a", "f4")])
    np.savez(weights, **arrays)
    refused(weights, "not floating point")


def test_a_huge_shape_in_an_array_header_is_refused_before_allocating(tmp_path):
    weights, _ = copy_model(tmp_path)
    arrays = dict(np.load(MODEL))
    members = {
        name: npy_bytes(np.lib.format.header_data_from_array_1_0(a)) for name, a in arrays.items()
    }
    members["w0"] = npy_bytes({"descr": "<f4", "fortran_order": False, "shape": (10**9, 10**9)})
    write_npz(weights, members)
    refused(weights, "shape")


def test_a_compressed_bomb_is_refused_before_it_is_decompressed(tmp_path):
    weights, _ = copy_model(tmp_path)
    arrays = dict(np.load(MODEL))
    members = {
        name: npy_bytes(np.lib.format.header_data_from_array_1_0(a), a.tobytes())
        for name, a in arrays.items()
    }
    members["b1"] = members["b1"] + bytes(200 * 2**20)  # 200 MiB of zeros, 200 KB compressed
    write_npz(weights, members)
    refused(weights, "too many")


@pytest.mark.parametrize(
    ("layers", "message"),
    [
        ([10, 34], "observation inputs"),
        ([482, 256, 256, 33], "actions"),
        ([482, 0, 34], "positive integer widths"),
        ([482, 2**40, 34], "positive integer widths"),
        ([482, 2**20, 2**20, 34], "more than"),
        ("482", "positive integer widths"),
        ([482, True, 34], "positive integer widths"),
    ],
)
def test_layers_are_checked_against_the_game(tmp_path, layers, message):
    weights, meta = copy_model(tmp_path)
    metadata = json.loads(meta.read_text())
    metadata["layers"] = layers
    meta.write_text(json.dumps(metadata))
    refused(weights, message)


def test_weights_that_are_not_finite_are_refused(tmp_path):
    weights, _ = copy_model(tmp_path)
    arrays = dict(np.load(MODEL))
    arrays["w1"] = arrays["w1"].copy()
    arrays["w1"][0, 0] = np.nan
    np.savez(weights, **arrays)
    refused(weights, "not finite")


def test_mutated_model_files_load_or_are_refused_in_one_line(tmp_path):
    rng = np.random.default_rng(42)
    originals = [MODEL.read_bytes(), model_paths(MODEL)[1].read_bytes()]
    outcomes = {"loaded": 0, "refused": 0}
    for number in range(MUTATED_MODELS):
        weights, meta = model_paths(tmp_path / f"m{number % 8}")
        files = [bytearray(originals[0]), bytearray(originals[1])]
        target = files[number % 2]
        for _ in range(int(rng.integers(1, 6))):
            kind = rng.integers(3)
            at = int(rng.integers(len(target)))
            if kind == 0:
                target[at] = int(rng.integers(256))
            elif kind == 1:
                del target[at:]
            else:
                target[at:at] = rng.bytes(int(rng.integers(1, 64)))
        weights.write_bytes(files[0])
        meta.write_bytes(files[1])
        try:
            policy, _ = load_policy(weights, 3, "boon")
        except ModelFileError as error:
            assert "\n" not in str(error)
            outcomes["refused"] += 1
            continue
        # What loads plays: the observation and action sizes are the game's.
        assert policy.layers[0] == 482 and policy.layers[-1] == 34
        policy.greedy(np.zeros(482, np.float32), np.ones(34, np.int8))
        outcomes["loaded"] += 1
    assert outcomes["refused"] > MUTATED_MODELS // 2, outcomes


# ------------------------------------------------------------------------------ replay files
REPLAY_TABLES = (("boon", 4), ("bon", 3), ("boyn", 2))
MUTATED_REPLAYS = 340  # per game: 1,020 files, every frame of each that loads drawn
ODD_VALUES = [None, True, -1, 2**70, 1.5, "x", [], {}, [1], [[1]], {"a": 1}, [None], [-1], [99]]


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict[str, list[dict]]:
    """Two rounds of random play per game, as ``boon arena --save`` writes them."""
    folder = tmp_path_factory.mktemp("saved")
    rounds = {}
    for game, n in REPLAY_TABLES:
        path = folder / f"{game}.jsonl"
        run_arena(["random"] * n, 1, seed=3, progress=False, save=str(path), game=game)
        rounds[game] = [json.loads(line) for line in path.read_text().splitlines()]
    return rounds


def mutate(record: dict, rng: np.random.Generator) -> dict:
    """``record`` with one or two values somewhere in it replaced by odd ones, or deleted."""
    record = copy.deepcopy(record)
    for _ in range(int(rng.integers(1, 3))):
        places = list(_places(record))
        container, key = places[int(rng.integers(len(places)))]
        if rng.random() < 0.15 and isinstance(container, dict):
            del container[key]
        else:
            container[key] = copy.deepcopy(ODD_VALUES[int(rng.integers(len(ODD_VALUES)))])
    return record


def _places(value: object) -> Iterator[tuple[Any, Any]]:
    items = value.items() if isinstance(value, dict) else enumerate(value[:6])
    for key, item in items:
        yield value, key
        if isinstance(item, (dict, list)):
            yield from _places(item)


def loads_or_refuses(path: Path) -> bool:
    """Whether the replay file loads (and then every frame draws) or is refused in one line."""
    try:
        rounds = load_replay(path)
    except ValueError as error:
        assert "\n" not in str(error) and str(path) in str(error), error
        return False
    for recorded in rounds:
        for step in range(len(recorded.actions) + 1):
            recorded.frame(step)
    return True


@pytest.mark.parametrize(
    ("game", "change", "message"),
    [
        ("boon", lambda r: r["deal"].__setitem__("hands", [7, 8, 9, 10]), "not a round"),
        ("boon", lambda r: r["deal"]["hands"].__setitem__(1, None), "not a round"),
        ("bon", lambda r: r.__setitem__("tower", [[1], 0, 2]), "tower"),
        ("bon", lambda r: r.__setitem__("tower", None), "tower"),
        ("boon", lambda r: r["round"].pop("picker"), "picker"),
        ("boyn", lambda r: r["deal"]["hands"].__setitem__(0, "abc"), "hand 0"),
        ("boon", lambda r: r.__setitem__("actions", [0] * 5000), "more than a round has"),
    ],
)
def test_malformed_rounds_are_refused_naming_the_line(tmp_path, saved, game, change, message):
    record = copy.deepcopy(saved[game][0])
    change(record)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(ValueError, match=message) as error:
        load_replay(path)
    assert str(error.value).startswith(f"replay file {path}, line 1: ")


def test_deep_json_in_a_replay_or_a_saved_run_is_refused(tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text("[" * 50_000 + "]" * 50_000 + "\n")
    with pytest.raises(ValueError, match="line 1: nested deeper"):
        load_replay(path)
    with pytest.raises(ValueError, match="line 1: nested deeper"):
        compare_runs(path, path)


@pytest.mark.parametrize(("game", "n"), REPLAY_TABLES)
def test_mutated_replay_files_load_and_draw_or_are_refused(tmp_path, saved, game, n):
    rng = np.random.default_rng(7)
    path = tmp_path / "mutant.jsonl"
    loaded = 0
    for _ in range(MUTATED_REPLAYS):
        lines = [mutate(saved[game][0], rng), *saved[game][1:]]
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        loaded += loads_or_refuses(path)
    assert loaded < MUTATED_REPLAYS, "every mutant loaded: the mutations changed nothing"
