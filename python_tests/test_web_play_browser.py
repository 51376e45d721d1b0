"""Around an online game, in real browsers (headless Chromium through Selenium): two pages
play a Ludo game to its end by an invite link, see the game-over screen with the finishing
order and go on to a rematch in their seats; Onitama's end in words, the turn timer's
countdown and who is connected; "My games"; and the phone-sized page (390 px): the board
fills the width and every control is at least 44 px.

Skipped when Chromium, chromedriver or the web extra is missing, unless
LUDOGAME_REQUIRE_BROWSER=1, when they fail instead."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from web_browser_support import (
    PHONE,
    page_errors,
    require_browser,
    running_server,
    shown_element,
    start_browser,
    wait_until,
)

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

# slow: run by CI, left out of a quick `pytest -m "not slow"`
pytestmark = pytest.mark.slow

#: A CS162 position ten events from the end (B to roll; the die's state is in the notation):
#: B finishes first if each side plays its last legal move.
NEAR_THE_END = "cs162 A29.57/B48.57 B:r:0:0 - - 96af9ccb49675254"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server("--store", "memory") as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    b = start_browser()
    try:
        yield b
    finally:
        b.quit()


@pytest.fixture
def phone() -> Iterator[Any]:
    b = start_browser(PHONE)
    try:
        yield b
        assert page_errors(b) == []
    finally:
        b.quit()


def api_get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path.lstrip("/"), timeout=10) as r:
        return json.loads(r.read())


def game_id(b: Any) -> str:
    return parse_qs(urlparse(b.current_url).query).get("game", [""])[0]


def text_of(b: Any, name: str) -> str:
    found = b.find_elements(By.ID, name)
    return str(found[0].text) if found else ""


def ludo_control(b: Any) -> Any:
    """What the page's own seat may click now: the die, or its last move button; or None."""
    roll = b.find_elements(By.ID, "roll")
    if roll and roll[0].is_enabled():
        return roll[0]
    moves = b.find_elements(By.CSS_SELECTOR, "#moves button")
    return moves[-1] if moves else None


def test_two_browsers_finish_a_ludo_game_and_go_on_to_a_rematch(
    browser: Any, phone: Any, server: str
) -> None:
    # the host continues a position near the end, seat B on another device
    browser.get(server + "ludo")
    wait_until(lambda: shown_element(browser, "start"), what="the new-game form")
    Select(browser.find_element(By.ID, "seat-B")).select_by_value("remote")
    browser.find_element(By.ID, "load-text").send_keys(NEAR_THE_END)
    browser.find_element(By.ID, "load-seats").click()
    browser.find_element(By.ID, "load").click()
    link = wait_until(lambda: shown_element(browser, "invite-B"), what="the invite panel")
    link = link.get_attribute("value")
    old = game_id(browser)
    phone.get(link)
    wait_until(lambda: "You play B" in text_of(phone, "role"), what="B's seat on the phone")
    # both see who is connected: A on the host's page, B on the phone
    for b in (browser, phone):
        wait_until(
            lambda b=b: text_of(b, "connected") == "Connected: A ● online · B ● online",
            what="both seats connected",
        )
    # play it out, each page for its own seat (with the server's die: an online game from a
    # position plays on with a die of the server's)
    for _ in range(300):
        if api_get(server, f"api/ludo/games/{old}?fields=")["phase"] == "over":
            break
        version = api_get(server, f"api/ludo/games/{old}?fields=")["version"]
        control = wait_until(
            lambda: ludo_control(browser) or ludo_control(phone), what="a page to act"
        )
        control.click()
        wait_until(
            lambda v=version: api_get(server, f"api/ludo/games/{old}?fields=")["version"] > v,
            what="the click to be played",
        )
    state = api_get(server, f"api/ludo/games/{old}?fields=")
    assert state["phase"] == "over" and sorted(state["ranking"]) == ["A", "B"]
    words = {"A": "person", "B": "person on another device"}
    for b in (browser, phone):
        wait_until(lambda b=b: shown_element(b, "game-over"), what="the game-over screen")
        order = [li.text for li in b.find_elements(By.CSS_SELECTOR, "#ranking li")]
        assert order == [f"{p} — {words[p]}" for p in state["ranking"]], order
        assert "Finishing order" in text_of(b, "game-over")
        winner = state["winner"]
        assert text_of(b, "winner") == f"Winner: {winner} ({words[winner]})"
        assert shown_element(b, "rematch") is not None
    # B asks for the rematch: both pages land in the new game, in their seats
    phone.find_element(By.ID, "rematch").click()
    for b in (phone, browser):
        wait_until(lambda b=b: game_id(b) not in ("", old), what="the rematch's page")
    new = game_id(phone)
    assert game_id(browser) == new
    rematch = api_get(server, f"api/ludo/games/{new}?fields=")
    assert rematch["rematch_of"] == old and rematch["seats"] == {"A": "human", "B": "remote"}
    assert rematch["version"] == 0 and rematch["seed"] is None  # the server's, until the end
    assert rematch["dice_commitment"] is not None
    wait_until(lambda: "You play A" in text_of(browser, "role"), what="A's seat kept")
    wait_until(lambda: "You play B" in text_of(phone, "role"), what="B's seat kept")
    # A's turn in the rematch: the host's page acts, the phone may not
    wait_until(lambda: browser.find_element(By.ID, "roll").is_enabled(), what="A's die")
    assert not phone.find_element(By.ID, "roll").is_enabled()
    browser.find_element(By.ID, "roll").click()
    wait_until(
        lambda: api_get(server, f"api/ludo/games/{new}?fields=")["version"] == 1,
        what="A's roll in the rematch",
    )
    # the old invite link still leads B into the game, now the rematch
    phone.get(link)
    wait_until(lambda: game_id(phone) == new, what="the old link to lead to the rematch")
    wait_until(lambda: "You play B" in text_of(phone, "role"), what="B's seat by the old link")
    # "My games" lists both games on the phone, with their status
    phone.get(server)
    items = wait_until(
        lambda: [
            li
            for li in phone.find_elements(By.CSS_SELECTOR, "#my-games li")
            if li.get_attribute("data-status")
        ],
        what="my games",
    )
    got = {li.get_attribute("data-game"): li.get_attribute("data-status") for li in items}
    assert got == {old: "over", new: "playing"}, got
    assert "you play B" in phone.find_element(By.CSS_SELECTOR, f'li[data-game="{new}"]').text
    assert page_errors(browser) == []


def test_onitama_end_in_words_timer_presence_and_kept_selection(
    browser: Any, phone: Any, server: str
) -> None:
    browser.get(server + "onitama")
    wait_until(lambda: shown_element(browser, "start"), what="the chooser")
    setups = [o.text for o in browser.find_elements(By.CSS_SELECTOR, "#setup option")]
    assert "Coursework case 21" in setups and not any("_" in s for s in setups)
    Select(browser.find_element(By.ID, "side-B")).select_by_value("remote")
    browser.find_element(By.ID, "max-plies").send_keys("2")
    Select(browser.find_element(By.ID, "timer-seconds")).select_by_value("30")
    Select(browser.find_element(By.ID, "timer-bot")).select_by_value("0")
    browser.find_element(By.ID, "start").click()
    link = wait_until(lambda: shown_element(browser, "invite-B"), what="the invite")
    link = link.get_attribute("value")
    gid = game_id(browser)
    assert text_of(browser, "title") == "Onitama — Coursework case 21"
    # the wall is labelled on the board and in words; B's cards are turned in the legend
    assert browser.find_element(By.CSS_SELECTOR, "#board .wall-label").text == "WALL"
    assert "is the wall" in text_of(browser, "wall-note")
    turned = browser.find_elements(By.CSS_SELECTOR, "#cards .card.turned")
    assert sorted(c.get_attribute("data-card") for c in turned) == ["B1", "B2"]
    # A picks a piece; B's page connecting meanwhile keeps the choice
    piece = browser.find_element(By.CSS_SELECTOR, "#board g.square.movable")
    square = piece.get_attribute("data-square")
    piece.click()
    wait_until(
        lambda: browser.find_elements(By.CSS_SELECTOR, "#board g.square.selected"),
        what="the selected piece",
    )
    phone.get(link)
    wait_until(lambda: "You play B" in text_of(phone, "role"), what="B's side")
    wait_until(lambda: "B ● online" in text_of(browser, "connected"), what="B connected")
    selected = browser.find_elements(By.CSS_SELECTOR, "#board g.square.selected")
    assert [g.get_attribute("data-square") for g in selected] == [square]
    # A plays: B's countdown shows on both pages
    text = api_get(server, f"api/onitama/games/{gid}")["legal_moves"][0]["text"]
    browser.find_element(By.ID, "action-text").send_keys(text, Keys.ENTER)
    for b in (browser, phone):
        clock = wait_until(lambda b=b: shown_element(b, "turn-timer"), what="the countdown")
        left = int(clock.get_attribute("data-left"))
        assert 25 <= left <= 30 and "the bot 0 plays for B" in clock.text
    assert [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#history li")] == [
        f"A: {text}"
    ]
    # B plays the last ply: a tie at the ply limit, said in words
    wait_until(
        lambda: phone.find_element(By.ID, "action-text").get_attribute("disabled") is None,
        what="B's turn on the phone",
    )
    text = api_get(server, f"api/onitama/games/{gid}")["legal_moves"][0]["text"]
    phone.find_element(By.ID, "action-text").send_keys(text, Keys.ENTER)
    for b in (browser, phone):
        wait_until(lambda b=b: shown_element(b, "game-over"), what="the end")
        result = text_of(b, "result")
        assert result == "A tie: the ply limit was reached.", result
        assert "_" not in text_of(b, "game-over")
        assert not shown_element(b, "turn-timer")
    phone.find_element(By.ID, "rematch").click()
    for b in (phone, browser):
        wait_until(lambda b=b: game_id(b) not in ("", gid), what="the rematch")
    wait_until(lambda: "You play B" in text_of(phone, "role"), what="B's side kept")
    assert page_errors(browser) == []


def test_unknown_pages_and_replays_say_so(browser: Any, server: str) -> None:
    browser.get(server + "no/such/page")
    wait_until(lambda: "No such page" in browser.find_element(By.TAG_NAME, "h1").text, what="404")
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(server + "no/such/page", timeout=10)
    assert e.value.code == 404 and e.value.headers["content-type"].startswith("text/html")
    browser.get(server + "replay?id=unknown")
    note = wait_until(lambda: shown_element(browser, "replay-missing"), what="the message")
    assert "There is no replay unknown on this server" in note.text
    assert shown_element(browser, "replay-form") is not None


SQUARES_SPAN = """
const boxes = [...document.querySelectorAll("#board g.square")]
  .map((g) => g.getBoundingClientRect());
return Math.max(...boxes.map((b) => b.right)) - Math.min(...boxes.map((b) => b.left));
"""

SMALL_CONTROLS = """
const small = [];
for (const e of document.querySelectorAll(
    "button, a.button, select, input:not([type=hidden]), textarea, .top a")) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;  // not shown
  if (r.height < 44 || r.width < 44) small.push(`${e.tagName}#${e.id} ${r.width}x${r.height}`);
}
return small;
"""


def test_a_phone_sized_page_has_a_full_width_board_and_44_px_controls(
    phone: Any, server: str
) -> None:
    for game, body in (
        ("ludo", {"players": "AB", "seats": {"B": "random"}, "seed": 2}),
        ("onitama", {"sides": {"B": {"kind": "ai", "level": 0}}}),
    ):
        phone.get(server + game)
        wait_until(lambda: shown_element(phone, "start"), what="the form")
        assert phone.execute_script(SMALL_CONTROLS) == [], f"{game} form"
        req = urllib.request.Request(
            f"{server}api/{game}/games",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            gid = json.loads(r.read())["id"]
        phone.get(f"{server}{game}?game={gid}")
        svg = wait_until(
            lambda: phone.find_elements(By.CSS_SELECTOR, "#board svg"), what="the board"
        )[0]
        width = phone.execute_script("return document.documentElement.clientWidth")
        board = svg.size
        assert board["width"] >= 0.9 * width, f"{game}: board {board} on a {width}-px page"
        if game == "onitama":  # the squares themselves, not only the picture holding them
            squares = phone.execute_script(SQUARES_SPAN)
            assert squares >= 0.8 * width, f"the 5x5 squares span {squares} of {width} px"
        assert phone.execute_script(SMALL_CONTROLS) == [], f"{game} play view"
        scroll = phone.execute_script("return document.documentElement.scrollWidth")
        assert scroll <= width
