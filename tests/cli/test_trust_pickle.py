"""A pickled (``.zip``) model is read only with ``--trust-pickle``: without it the command
refuses it in one line before anything is unpickled."""

from __future__ import annotations

import os

import pytest

from agents.cli import main


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "--agents", "ppo:{path}", "random", "random", "--deals", "1"],
        ["tournament", "--agents", "ppo:{path}", "random", "--deals", "1"],
        ["advise", "--agent", "ppo:{path}", "--deals", "1"],
    ],
)
def test_a_pickled_model_needs_trust_pickle(tmp_path, argv, capsys, monkeypatch):
    monkeypatch.setenv("BOON_TRUST_PICKLE", "0")
    path = tmp_path / "model.zip"
    path.write_bytes(b"PK\x05\x06" + bytes(18))  # never opened: refused by its suffix
    assert main([part.format(path=path) for part in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--trust-pickle" in err and str(path) in err, err


def test_trust_pickle_lets_the_file_be_read(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("BOON_TRUST_PICKLE", "0")
    path = tmp_path / "model.zip"
    path.write_bytes(b"not a zip")
    argv = ["arena", "--trust-pickle", "--agents", f"ppo:{path}", "random", "random"]
    assert main([*argv, "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "could not load a MaskablePPO model" in err and "--trust-pickle" not in err, err
    assert os.environ["BOON_TRUST_PICKLE"] == "1"  # for the worker processes
