"""End to end in a real browser: headless Chromium (Debian's ``chromium`` package) driven by
Playwright plays a whole round of every game by tapping, on a phone, a tablet and a desktop
screen, checking at every decision that nothing scrolls sideways, that every card that may be
played lies wholly on the screen and that the trick and the scores stay in view; then the
round's summary. Also: keyboard play, the coach, burying with undo, resuming after a reload,
the notice after a server restart, and replays of every game.

A browser that cannot start fails these tests; ``.ci/run`` installs Chromium when missing.
Screenshots go to pytest's ``tmp_path``, or to ``$BOON_SCREENSHOTS`` (a folder) when set
(``docs/img/web_phone.png`` and ``docs/img/web_desktop.png`` show the same table).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

from agents.eval.arena import run_arena
from agents.web.app import create_app
from tests.helpers.web_server import running

CHROMIUM = os.environ.get("BOON_CHROMIUM", "/usr/bin/chromium")
REPLAY = Path(__file__).parents[1] / "data" / "replay_4p.jsonl"
TIMEOUT_MS = 30_000  # generous: the machine is shared
VIEWPORTS = {"phone": (390, 844), "tablet": (768, 1024), "desktop": (1280, 800)}
# Seed 5 makes seat 3 the first Boon dealer, so the person (seat 0) decides first and can pick.
SEED = 5
expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert shutil.which(CHROMIUM) or Path(CHROMIUM).is_file(), f"no Chromium at {CHROMIUM}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def table_url() -> Iterator[str]:
    """One server for every game (the page chooses which)."""
    app = create_app(seed=SEED, max_games_per_client=64)
    with running(app) as url:
        yield url


OPEN: list[Page] = []


@pytest.fixture(autouse=True)
def close_pages() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()


def open_page(browser: Browser, url: str, screen: str = "desktop") -> tuple[Page, list[str]]:
    width, height = VIEWPORTS[screen]
    touch = screen != "desktop"
    page = browser.new_page(viewport={"width": width, "height": height}, has_touch=touch)
    OPEN.append(page)
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(url)
    return page, errors


def screenshot(page: Page, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("BOON_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))


def press(target: Locator, screen: str) -> None:
    """Tap on a touch screen, click with a mouse."""
    if screen == "desktop":
        target.click()
    else:
        target.tap()


def assert_fits(page: Page) -> None:
    """Nothing scrolls sideways; every legal card is wholly on the screen and at least 44 px
    tall; the scores and the middle of the table (the trick) are in view."""
    width, height = page.evaluate("[window.innerWidth, window.innerHeight]")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways ({scroll} > {width})"
    boxes = page.evaluate(
        """[...document.querySelectorAll(
            '#hand .card.legal, #choices .choice, #select-bar:not(.hidden) button')]
          .map((node) => node.getBoundingClientRect().toJSON())"""
    )
    for box in boxes:  # read at once: the page may redraw the hand meanwhile
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
        assert box["height"] >= 44, box
    scores = page.locator("#scoreboard").bounding_box()
    felt = page.locator("#felt").bounding_box()
    assert scores["y"] >= 0 and scores["y"] + scores["height"] <= height, scores
    assert 0 <= felt["y"] + felt["height"] / 2 <= height, felt


# Rectangles that may not overlap: [first group, second group] of CSS selectors. A seat's box
# (its name, badges and cards), the trick or pile in the middle, the lines about the table,
# the prompt and the hand's cards with their coach badges.
APART = [
    (".seat", ".seat"),
    (".seat", "#trick .card, #pile > *"),
    (".seat", "#notes li"),
    ("#trick .card, #pile > *", "#notes li"),
    ("#prompt", "#hand .card, #hand .card .advice, #choices .choice"),
]


def overlaps(page: Page) -> list[str]:
    """Pairs of elements of :data:`APART` drawn over each other (more than 1 px each way)."""
    return page.evaluate(
        """(apart) => {
          const visible = (node) => node.offsetParent !== null || node.closest('#felt');
          const boxes = (selector) => [...document.querySelectorAll(selector)].filter(visible)
            .map((node) => [node, node.getBoundingClientRect()])
            .filter(([, r]) => r.width > 0 && r.height > 0);
          const name = (node) => `${node.id ? '#' + node.id : node.className}` +
            ` "${(node.textContent || '').trim().slice(0, 24)}"`;
          const found = [];
          for (const [first, second] of apart) {
            for (const [a, ra] of boxes(first)) for (const [b, rb] of boxes(second)) {
              if (a === b || a.contains(b) || b.contains(a)) continue;
              const dx = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
              const dy = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
              if (dx > 1 && dy > 1) found.push(`${name(a)} over ${name(b)}`);
            }
          }
          return [...new Set(found)];
        }""",
        APART,
    )


def assert_apart(page: Page) -> None:
    """No text or card of :data:`APART` lies over another, and nothing leaves the screen."""
    assert not overlaps(page), overlaps(page)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def play_round(page: Page, screen: str, keyboard: bool = False, shots: Path | None = None) -> int:
    """Play the person's moves until the round's summary shows; returns the moves made."""
    summary = page.locator("#summary:not(.hidden)")
    decision = page.locator("#hand .card.legal, #choices .choice").first
    moves = 0
    while True:
        expect(decision.or_(summary).first).to_be_visible()
        if summary.is_visible():
            return moves
        assert_fits(page)
        assert_apart(page)
        if shots is not None and moves == 2:
            screenshot(page, shots, f"table_{screen}")
        select = page.locator("#select-bar:not(.hidden)")
        if select.is_visible():
            bury(page, screen)
        elif keyboard:
            page.keyboard.press("1")  # the first choice: a button, else the first legal card
        else:
            press(decision, screen)
            choices = page.locator("#choices .choice")
            if page.locator("#choices .ask").is_visible():  # a Jack's suit, a Queen's swap
                press(choices.first, screen)
        moves += 1
        assert moves < 400, "the round should have ended"


def bury(page: Page, screen: str) -> None:
    """Choose the cards to bury, undo one choice, choose again, confirm."""
    needed = int(page.locator("#select-count").inner_text().split(" of ")[1].split()[0])
    legal = page.locator("#hand .card.legal")
    press(legal.nth(0), screen)
    expect(page.locator("#hand .card.selected")).to_have_count(1)
    press(page.locator("#undo-select"), screen)
    expect(page.locator("#hand .card.selected")).to_have_count(0)
    for index in range(needed):
        press(legal.nth(index), screen)
    expect(page.locator("#select-count")).to_contain_text(f"{needed} of {needed} chosen")
    press(page.locator("#confirm-select"), screen)


def check_summary(page: Page) -> None:
    summary = page.locator("#summary")
    expect(summary.locator("#summary-text p").first).not_to_be_empty()
    rows = summary.locator("#summary-table tbody tr")
    assert rows.count() >= 2
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert_tables_fit(page)


def assert_tables_fit(page: Page) -> None:
    """Every table of the open panel lies within the panel: no column cut off at the right."""
    cut = page.evaluate(
        """[...document.querySelectorAll('.overlay:not(.hidden) table')].filter((table) => {
              const panel = table.closest('.panel').getBoundingClientRect();
              const box = table.getBoundingClientRect();
              return box.right > panel.right + 1 || box.left < panel.left - 1;
           }).map((table) => table.id || table.parentNode.id)"""
    )
    assert not cut, f"tables cut off: {cut}"


def close_with_escape(page: Page, panel: str) -> None:
    """Esc closes the open ``panel``."""
    page.keyboard.press("Escape")
    expect(page.locator(panel)).to_be_hidden()


SCREENS = list(VIEWPORTS)
GAMES = ["boon", "bon", "boyn"]
# A test run for every game on every screen.
every_game_and_screen = pytest.mark.parametrize(
    ("game", "screen"), [(game, screen) for screen in SCREENS for game in GAMES]
)


@every_game_and_screen
def test_a_whole_round_of_every_game_by_tapping(browser, table_url, tmp_path, game, screen):
    page, errors = open_page(browser, f"{table_url}/?delay=0&game={game}&seed=11", screen)
    expect(page.locator("#game-title")).not_to_have_text("Card table")
    shots = tmp_path if screen != "tablet" else None
    moves = play_round(page, screen, shots=shots)
    assert moves >= 1
    check_summary(page)
    if screen != "tablet":
        screenshot(page, tmp_path, f"summary_{game}_{screen}")
    press(page.locator("#next-round-button"), screen)
    expect(page.locator("#summary")).to_be_hidden()
    assert errors == []


def test_the_setup_chooses_game_players_and_seed(browser, table_url):
    page, errors = open_page(browser, f"{table_url}/?delay=0", "tablet")
    expect(page.locator("#game-title")).to_have_text("Boon")
    press(page.locator("#new-game"), "tablet")
    page.locator("#setup-game").select_option("boyn")
    page.locator("#setup-players").select_option("3")
    page.locator("#setup-opponents").select_option("random")
    page.locator("#setup-seed").fill("7")
    press(page.locator("#setup-start"), "tablet")
    expect(page.locator("#game-title")).to_have_text("BOYN")
    expect(page.locator(".seat")).to_have_count(2)
    expect(page.locator(".seat .spec").first).to_have_text("random")
    assert errors == []


def test_keyboard_play_and_the_coach(browser, table_url, tmp_path):
    page, errors = open_page(browser, f"{table_url}/?delay=0&game=boon&seed=5&coach", "desktop")
    expect(page.locator("#coach")).to_be_checked()
    # The coach gives each option its expected Victory Cards and marks the best.
    expect(page.locator("#choices .choice .advice").first).to_be_visible()
    expect(page.locator("#coach-line")).to_contain_text("Victory Cards")
    expect(page.locator(".advice.best")).to_have_count(1)
    page.keyboard.press("1")  # pick, by key
    expect(page.locator("#select-bar")).to_be_visible()
    # Bury by keys: move between cards, choose with Enter, undo, confirm.
    needed = int(page.locator("#select-count").inner_text().split(" of ")[1].split()[0])
    page.locator("#hand .card.legal").first.focus()
    for _ in range(needed):
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
    expect(page.locator("#hand .card.selected")).to_have_count(needed)
    page.keyboard.press("u")
    expect(page.locator("#hand .card.selected")).to_have_count(needed - 1)
    page.keyboard.press("Enter")
    page.keyboard.press("c")
    expect(page.locator("#log")).to_contain_text("You bury")
    # The first card played by key is reviewed against the coach's best.
    expect(page.locator("#hand .card.legal .advice").first).to_be_visible()
    page.keyboard.press("1")
    expect(page.locator("#review")).to_contain_text("You chose")
    screenshot(page, tmp_path, "coach_desktop")
    play_round(page, "desktop", keyboard=True)
    check_summary(page)
    expect(page.locator("#summary-text")).to_contain_text("61")  # what the picker needed
    # With the coach on, the summary also tells the points each seat lost per decision.
    expect(page.locator("#losses")).to_contain_text("Points lost per decision", timeout=60_000)
    expect(page.locator("#losses tr")).to_have_count(5)  # a header and a row per seat
    assert errors == []


def test_a_reload_resumes_the_game_and_a_restart_is_told(browser, table_url):
    page, errors = open_page(browser, f"{table_url}/?delay=0&game=bon&seed=3", "phone")
    expect(page.locator("#hand .card.legal").first).to_be_visible()
    hand = page.locator("#hand .card").all_inner_texts()
    page.reload()
    expect(page.locator("#hand .card.legal").first).to_be_visible()
    assert page.locator("#hand .card").all_inner_texts() == hand
    expect(page.locator("#notice")).to_be_hidden()
    # A game id from before a restart: the page says so, and offers a new game.
    page.evaluate(
        "sessionStorage.setItem('boon-game', JSON.stringify({id: 'gone', server: 'before'}))"
    )
    page.reload()
    expect(page.locator("#notice")).to_contain_text("server was restarted")
    expect(page.locator("#setup")).to_be_visible()
    assert errors == []


def test_the_rules_panel_shows_the_games_rules(browser, table_url):
    page, errors = open_page(browser, f"{table_url}/?delay=0&game=bon", "phone")
    expect(page.locator("#game-title")).to_have_text("B.O.N")
    press(page.locator("#show-rules"), "phone")
    expect(page.locator("#rules-text")).to_contain_text("colour tower")
    expect(page.locator("#rules-text table").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    close_with_escape(page, "#rules")
    assert errors == []


def test_a_boon_replay_steps_forward_and_back_with_every_hand_shown(browser):
    app = create_app(replay=REPLAY, coach=False)
    with running(app) as url:
        page, errors = open_page(browser, url + "/")
        expect(page.locator("#replay-where")).to_contain_text("step 0 of 35")
        expect(page.locator(".seat")).to_have_count(4)
        expect(page.locator(".replay-hand .card")).to_have_count(28)  # every hand, face up
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
        expect(page.locator("#summary")).to_contain_text("picked the Boon")
        assert errors == []


@pytest.mark.parametrize("game", ["bon", "boyn"])
def test_replays_of_the_other_games_show_on_a_phone(browser, tmp_path, game):
    path = tmp_path / f"{game}.jsonl"
    run_arena(["heuristic", "random", "heuristic"], deals=1, seed=2, save=path, game=game)
    with running(create_app(replay=path, coach=False)) as url:
        page, errors = open_page(browser, url + "/", "phone")
        expect(page.locator("#replay-where")).to_contain_text("step 0 of")
        expect(page.locator(".seat")).to_have_count(3)
        expect(page.locator(".replay-hand .card").first).to_be_visible()
        press(page.locator("#step-forward"), "phone")
        expect(page.locator("#replay-where")).to_contain_text("step 1 of")
        expect(page.locator("#replay-event")).to_contain_text("Seat")
        steps = page.locator("#step-slider").get_attribute("max")
        page.locator("#step-slider").fill(steps)
        expect(page.locator("#summary")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert errors == []


@every_game_and_screen
def test_replays_show_every_hand_without_overlaps(browser, tmp_path, game, screen):
    path = tmp_path / f"{game}.jsonl"
    run_arena(["heuristic", "random", "heuristic", "random"], deals=1, seed=2, save=path, game=game)
    with running(create_app(replay=path, coach=False)) as url:
        page, errors = open_page(browser, url + "/", screen)
        expect(page.locator("#replay-where")).to_contain_text("step 0 of")
        steps = int(page.locator("#step-slider").get_attribute("max"))
        for step in sorted({0, 3, 6, 10, steps // 2, steps - 1}):
            page.locator("#step-slider").fill(str(step))
            expect(page.locator("#replay-where")).to_contain_text(f"step {step} of")
            # Every hand is shown, face up, and nothing is drawn over anything else.
            expect(page.locator(".replay-hand")).to_have_count(4)
            if step == 10 or overlaps(page):
                screenshot(page, tmp_path, f"replay_{game}_{screen}_{step}")
            assert_apart(page)
        page.locator("#step-slider").fill(str(steps))
        expect(page.locator("#summary")).to_be_visible()
        assert_tables_fit(page)
        close_with_escape(page, "#summary")
        assert errors == []


@every_game_and_screen
def test_the_rules_panel_reads_for_players_and_opens_at_the_top(browser, table_url, game, screen):
    page, errors = open_page(browser, f"{table_url}/?delay=0&game={game}", screen)
    expect(page.locator("#hand .card").first).to_be_visible()
    press(page.locator("#show-rules"), screen)
    text = page.locator("#rules-text")
    expect(text.locator("h2, h3, h4").first).to_be_visible()
    assert text.evaluate("(box) => box.closest('.panel').scrollTop") == 0
    heading = text.locator("h2, h3, h4").first.bounding_box()
    assert 0 <= heading["y"] <= VIEWPORTS[screen][1] / 2, heading
    words = text.inner_text()
    assert "**" not in words and "[decided" not in words and ".py" not in words
    assert text.locator("code").count() == 0 and text.locator("strong").count() > 0
    assert_tables_fit(page)
    close_with_escape(page, "#rules")
    assert errors == []


@every_game_and_screen
def test_the_coach_speaks_plainly_on_the_first_screen(browser, table_url, tmp_path, game, screen):
    page, errors = open_page(browser, f"{table_url}/?delay=0&game={game}&seed=5&coach", screen)
    expect(page.locator("#coach")).to_be_checked()
    line = page.locator("#coach-line")
    expect(line).to_contain_text("Coach: best is ★", timeout=60_000)
    # The how is one click away; the line itself is short.
    detail = line.locator("details p")
    expect(detail).to_be_hidden()
    assert len(line.inner_text()) < 120, line.inner_text()
    box = line.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORTS[screen][1], box
    assert_apart(page)
    press(line.locator("summary"), screen)
    expect(detail).to_be_visible()
    screenshot(page, tmp_path, f"coach_{game}_{screen}")
    assert errors == []


def test_esc_closes_the_round_summary_and_a_bar_brings_it_back(browser, table_url):
    page, errors = open_page(browser, f"{table_url}/?delay=0&game=bon&seed=11", "phone")
    play_round(page, "phone")
    close_with_escape(page, "#summary")
    expect(page.locator("#round-over")).to_be_visible()
    press(page.locator("#round-over-summary"), "phone")
    expect(page.locator("#summary")).to_be_visible()
    press(page.locator("#close-summary"), "phone")
    press(page.locator("#round-over-next"), "phone")
    expect(page.locator("#round-over")).to_be_hidden()
    expect(page.locator("#hand .card").first).to_be_visible()
    assert errors == []


def test_an_address_naming_a_game_starts_it_in_a_tab_that_plays_another(browser, table_url):
    page, errors = open_page(browser, f"{table_url}/?delay=0&game=boon", "desktop")
    expect(page.locator("#game-title")).to_have_text("Boon")
    expect(page.locator("#hand .card").first).to_be_visible()
    page.goto(f"{table_url}/?delay=0&game=bon&coach")
    expect(page.locator("#game-title")).to_have_text("B.O.N")
    expect(page.locator("#coach")).to_be_checked()
    page.reload()  # the same address again resumes that game
    expect(page.locator("#game-title")).to_have_text("B.O.N")
    assert errors == []


def test_the_keys_panel_is_for_keyboards_and_words_agree(browser, table_url):
    page, errors = open_page(browser, f"{table_url}/?delay=0&game=boon", "phone")
    expect(page.locator("#hand .card").first).to_be_visible()
    expect(page.locator("#keys-panel")).to_be_hidden()
    assert not page.locator(".backs", has_text=re.compile(r"^1 cards$")).count()
    desktop, _ = open_page(browser, f"{table_url}/?delay=0&game=boon", "desktop")
    expect(desktop.locator("#keys-panel")).to_be_visible()
    assert errors == []
