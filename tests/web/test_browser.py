"""End to end in a real browser: headless Chromium (Debian's ``chromium`` package) driven by
Playwright opens the table, plays a whole round by clicking, and checks the round's summary.

A browser that cannot start fails these tests; ``.ci/run`` installs Chromium when missing.
Set ``BOON_SCREENSHOT=path.png`` to keep the screenshot of the table in play (the README's).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from agents.web.app import create_app
from tests.helpers.web_server import running

CHROMIUM = os.environ.get("BOON_CHROMIUM", "/usr/bin/chromium")
REPLAY = Path(__file__).parents[1] / "data" / "replay_4p.jsonl"
# Seed 5 makes seat 3 the first dealer, so the person (seat 0) decides first and can pick.
SEED = 5
TIMEOUT_MS = 60_000  # generous: the machine is shared, and the coach's model loads in seconds
expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert shutil.which(CHROMIUM) or Path(CHROMIUM).is_file(), f"no Chromium at {CHROMIUM}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield browser
        browser.close()


def open_page(browser: Browser, url: str) -> tuple[Page, list[str]]:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(url)
    return page, errors


def test_a_person_plays_a_round_by_clicking(browser, tmp_path):
    app = create_app(4, ["heuristic"], seed=SEED, coach_samples=10)
    with running(app) as url:
        page, errors = open_page(browser, url + "/")
        page.locator("#speed").fill("0")  # the pace control: no pause between moves
        expect(page.locator("#speed-label")).to_have_text("0.0 s")

        # Pick the Boon: the person decides first this deal.
        expect(page.locator("#prompt .choice.pick")).to_be_visible()
        page.locator("#prompt .choice.pick").click()

        # Bury as many cards as the Boon held, clicking them in the hand.
        expect(page.locator("#prompt")).to_contain_text("Bury 4 more cards")
        expect(page.locator("#hand .card.from-boon")).not_to_have_count(0)
        for left in (3, 2, 1, 0):
            page.locator("#hand .card.legal").first.click()
            if left:
                expect(page.locator("#prompt")).to_contain_text(f"Bury {left} more card")
        expect(page.locator("#log")).to_contain_text("You bury")

        # Play the tricks: click a legal card at each turn; the other cards are dimmed.
        screenshot = tmp_path / "table.png"
        page.locator("#coach").check()
        cards_played = 0
        while not page.locator("#summary").is_visible():
            legal = page.locator("#hand .card.legal")
            summary = page.locator("#summary:not(.hidden)")
            expect(legal.or_(summary).first).to_be_visible()
            if summary.is_visible():
                break
            hand = page.locator("#hand .card").count()
            if hand > legal.count():
                expect(page.locator("#hand .card.dimmed")).to_have_count(hand - legal.count())
            played = page.locator("#trick .card").count()
            if not screenshot.exists() and (played >= 2 or cards_played == 6):
                # The coach: the model's probabilities, then the search player's estimates.
                expect(page.locator("#hand .advice .prob").first).to_be_visible()
                page.locator("#ask-search").click()
                expect(page.locator("#hand .advice .value").first).to_be_visible()
                page.screenshot(path=str(screenshot))
            legal.first.click()
            cards_played += 1
            assert cards_played <= 7, "the round should end after 7 cards of the person's"
            if played:  # the card went to the table (or finished a trick shown there)
                expect(page.locator("#log")).to_contain_text("You play")

        # The round's summary: the buried cards, points and each seat's payout.
        summary = page.locator("#summary")
        expect(summary).to_contain_text("You picked and buried")
        expect(summary.locator("#summary-text .card")).to_have_count(4)
        rows = summary.locator("#summary-table tbody tr")
        expect(rows).to_have_count(4)
        payouts = [int(rows.nth(i).locator("td").nth(3).inner_text()) for i in range(4)]
        points = [int(rows.nth(i).locator("td").nth(1).inner_text()) for i in range(4)]
        assert sum(payouts) == 0 and sum(points) == 120
        assert screenshot.stat().st_size > 10_000
        if os.environ.get("BOON_SCREENSHOT"):
            shutil.copy(screenshot, os.environ["BOON_SCREENSHOT"])

        # The summary leads on: to the next round, or to a new game when someone ran out.
        button = page.locator("#next-round-button")
        vc = [int(rows.nth(i).locator("td").nth(4).inner_text()) for i in range(4)]
        game_over = min(vc) == 0
        expect(button).to_have_text("New game" if game_over else "Next round")
        if game_over:
            expect(summary).to_contain_text("Game over")
        button.click()
        expect(page.locator("#summary")).to_be_hidden()
        expect(page.locator("#status")).to_have_text("Round 1" if game_over else "Round 2")
        assert errors == []


def test_a_replay_steps_forward_and_back_with_every_hand_shown(browser):
    app = create_app(replay=REPLAY, coach=False)
    with running(app) as url:
        page, errors = open_page(browser, url + "/")
        expect(page.locator("#replay-where")).to_contain_text("step 0 of 35")
        expect(page.locator(".seat")).to_have_count(4)
        expect(page.locator(".seat .card")).to_have_count(28)  # every hand, face up
        for _ in range(5):
            page.locator("#step-forward").click()
        expect(page.locator("#replay-where")).to_contain_text("step 5 of 35")
        expect(page.locator("#replay-event")).to_contain_text("Seat 3 buries")
        page.locator("#step-back").click()
        expect(page.locator("#replay-where")).to_contain_text("step 4 of 35")
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-where")).to_contain_text("step 5 of 35")
        page.locator("#next-round").click()
        expect(page.locator("#status")).to_contain_text("round 2 of 3")
        page.locator("#step-slider").fill("35")
        expect(page.locator("#summary")).to_be_visible()
        expect(page.locator("#summary")).to_contain_text("picked and buried")
        assert errors == []
