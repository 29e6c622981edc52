"""The rules panel of every game is a page for players: their words, no developer notes."""

from __future__ import annotations

import re

import pytest

from agents.web.catalog import web_games


@pytest.mark.parametrize("game", list(web_games()))
def test_the_rules_page_is_written_for_players(game: str) -> None:
    text = web_games()[game].rules.markdown()
    assert text.startswith("## ") and len(text) > 800
    assert "`" not in text, "code or file names"
    assert not re.search(r"\w\.(py|md)\b", text), "a file name"
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), "an identifier"
    assert "[decided" not in text and "seat 0" not in text.lower()
    # Bold is written on one line, so the page's small Markdown reader renders it.
    for line in text.splitlines():
        assert line.count("**") % 2 == 0, line
