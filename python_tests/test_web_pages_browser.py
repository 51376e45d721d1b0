"""The pages as people meet them, in real browsers (headless Chromium through Selenium):
every page fits a phone 360 or 390 px wide without sideways scroll; a lost connection is
said in words and holds every action until the page is connected again (the server is
stopped, then started again on its SQLite file); undo only on the device that may undo;
the turn timer's moves labelled as the timer's; the status said once; both games' play
views loaded with the shared page script (game-page.js); invite links of a server on a
loopback address said to open on this computer only.

Skipped when Chromium, chromedriver or the web extra is missing, unless
LUDOGAME_REQUIRE_BROWSER=1, when they fail instead."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from web_browser_support import (
    PHONE,
    SMALL_PHONE,
    free_port,
    page_errors,
    require_browser,
    running_server,
    shown_element,
    start_browser,
    wait_until,
)

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

# slow: run by CI, left out of a quick `pytest -m "not slow"`
pytestmark = pytest.mark.slow

WIDTHS = [SMALL_PHONE, PHONE]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server("--store", "memory", "--create-rate", "0") as base:
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
    b = start_browser(SMALL_PHONE)
    try:
        yield b
        assert page_errors(b) == []
    finally:
        b.quit()


def post(base: str, path: str, body: Any, key: str | None = None) -> Any:
    """The server's JSON answer to a POST (with a seat's key)."""
    headers = {"Content-Type": "application/json", **({"X-Seat-Key": key} if key else {})}
    req = urllib.request.Request(base + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=30) as r:
        text = r.read().decode()
    return json.loads(text) if text.startswith("{") else text


def game_id(b: Any) -> str:
    return parse_qs(urlparse(b.current_url).query).get("game", [""])[0]


def text_of(b: Any, name: str) -> str:
    found = b.find_elements(By.ID, name)
    return str(found[0].text) if found else ""


def history(b: Any) -> list[str]:
    return [str(li.text) for li in b.find_elements(By.CSS_SELECTOR, "#history li")]


# ---- every page on a phone -------------------------------------------------------------------

#: The elements that stick out of the page's width (those an ancestor clips or scrolls, such
#: as a picture's parts inside its SVG, are that ancestor's), and the page's scroll width.
STICKING_OUT = """
const width = document.documentElement.clientWidth;
const clipped = (e) => {
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    if (getComputedStyle(a).overflowX !== "visible") return true;
  }
  return false;
};
const out = [];
for (const e of document.body.querySelectorAll("*")) {
  const r = e.getBoundingClientRect();
  if ((r.width === 0 && r.height === 0) || e.closest(".skip, .visually-hidden")) continue;
  if ((r.right > width + 0.5 || r.left < -0.5) && !clipped(e)) {
    out.push(`${e.tagName.toLowerCase()}#${e.id} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
}
return {width, scroll: document.documentElement.scrollWidth, out: out.slice(0, 8)};
"""


def fits(b: Any, what: str) -> None:
    """Nothing on the page sticks out sideways, and the page does not scroll sideways."""
    found = b.execute_script(STICKING_OUT)
    assert found["out"] == [], f"{what} at {found['width']} px: {found['out']}"
    assert found["scroll"] <= found["width"], f"{what}: scrolls to {found['scroll']} px"


def open_page(b: Any, url: str, ready: str) -> None:
    b.get(url)
    wait_until(lambda: shown_element(b, ready), what=f"#{ready} on {url}")


def finished(base: str, kind: str, body: dict[str, Any]) -> str:
    """A game its bots or AIs play to the end at the server's pace: its id once over."""
    gid = str(post(base, f"api/{kind}/games?fields=", {**body, "pace": 0})["id"])
    wait_until(
        lambda: get(base, f"api/{kind}/games/{gid}?fields=")["to_act"] is None,
        timeout=60,
        what=f"the {kind} game to end",
    )
    return gid


def replay_of(base: str, kind: str, gid: str) -> str:
    """The replay page of a game's save."""
    text = get(base, f"api/{kind}/games/{gid}/save")
    answer = post(base, "api/replays", {"text": json.dumps(text)})
    return f"{base}replay?id={answer['id']}"


@pytest.mark.parametrize("size", WIDTHS, ids=lambda s: f"{s[0]}px")
def test_every_page_fits_a_phone_without_sideways_scroll(
    server: str, size: tuple[int, int]
) -> None:
    b = start_browser(size)
    try:
        ludo_over = finished(
            server, "ludo", {"players": "AB", "seats": {"A": "random", "B": "safe"}}
        )
        oni_over = finished(
            server,
            "onitama",
            {"sides": {s: {"kind": "ai", "level": 0} for s in "AB"}, "max_plies": 8},
        )
        open_page(b, server, "new-ludo")
        fits(b, "the home page")
        # the new-game forms with every field shown: rules with a hint, a seat on another
        # device (the turn timer), a bot (the pace)
        open_page(b, server + "ludo", "start")
        Select(b.find_element(By.ID, "rules")).select_by_value("gt")
        Select(b.find_element(By.ID, "seat-B")).select_by_value("remote")
        Select(b.find_element(By.ID, "seat-C")).select_by_value("mcts:1000")
        wait_until(lambda: shown_element(b, "timer-field") and shown_element(b, "pace-field"))
        fits(b, "the new Ludo game")
        open_page(b, server + "onitama", "start")
        fits(b, "the new Onitama game (with the wall)")
        Select(b.find_element(By.ID, "rules")).select_by_value("standard")
        Select(b.find_element(By.ID, "side-A")).select_by_value("2")
        Select(b.find_element(By.ID, "side-B")).select_by_value("remote")
        wait_until(lambda: shown_element(b, "card-set") and shown_element(b, "timer-field"))
        fits(b, "the new standard Onitama game")
        # the play views: an online game's host with its invite panel; a game watched
        open_page(b, server + "ludo", "start")
        Select(b.find_element(By.ID, "seat-B")).select_by_value("remote")
        b.find_element(By.ID, "start").click()
        wait_until(lambda: shown_element(b, "invite-B"), what="the invite panel")
        fits(b, "a Ludo game with its invite panel")
        open_page(b, server + "onitama", "start")
        Select(b.find_element(By.ID, "rules")).select_by_value("standard")
        Select(b.find_element(By.ID, "side-B")).select_by_value("remote")
        b.find_element(By.ID, "start").click()
        wait_until(lambda: shown_element(b, "invite-B"), what="the invite panel")
        fits(b, "a standard Onitama game with its invite panel")
        # the ends of games, and their replays step by step
        open_page(b, f"{server}ludo?game={ludo_over}", "game-over")
        fits(b, "a finished Ludo game")
        open_page(b, f"{server}onitama?game={oni_over}", "game-over")
        fits(b, "a finished Onitama game")
        for kind, gid in (("ludo", ludo_over), ("onitama", oni_over)):
            open_page(b, replay_of(server, kind, gid), "frame-label")
            b.find_element(By.ID, "forward").click()
            wait_until(lambda: text_of(b, "frame-label").startswith("Step 1 "))
            fits(b, f"a {kind} replay")
        open_page(b, server + "replay", "replay-load")
        fits(b, "the replay's loader")
        open_page(b, server + "no/such/page", "main")
        fits(b, "no such page")
        assert page_errors(b) == []
    finally:
        b.quit()


# ---- the connection -------------------------------------------------------------------------


def test_a_lost_connection_is_said_and_holds_the_actions_until_it_is_back(
    phone: Any, tmp_path: Path
) -> None:
    """The server stops under a game (a phone-sized page): the page says the connection is
    lost and offers no action; started again (the same port and SQLite file), the page is
    connected by itself, the banner goes and the game goes on."""
    port = free_port()
    store = ("--store", f"sqlite:///{tmp_path / 'games.sqlite3'}")
    with running_server(*store, port=port) as base:
        open_page(phone, base + "ludo", "start")
        phone.find_element(By.ID, "seed").send_keys("3")
        Select(phone.find_element(By.ID, "seat-B")).select_by_value("human")  # no bot steps
        phone.find_element(By.ID, "start").click()
        roll = wait_until(lambda: shown_element(phone, "roll"), what="the play view")
        wait_until(lambda: roll.is_enabled(), what="A's die")
        roll.click()
        wait_until(lambda: len(history(phone)) == 1, what="A's roll")
        gid = game_id(phone)
        assert not shown_element(phone, "connection")
    # the server is stopped (its address refuses connections)
    banner = wait_until(lambda: shown_element(phone, "connection"), what="the banner")
    assert banner.text.startswith("Connection lost — reconnecting…"), banner.text
    assert banner.get_attribute("role") == "status"
    fits(phone, "the banner on a phone")
    assert not phone.find_element(By.ID, "roll").is_enabled()
    assert not phone.find_element(By.ID, "undo").is_enabled()
    assert phone.find_elements(By.CSS_SELECTOR, "#moves button, #board .movable") == []
    # no key acts meanwhile either (nothing is sent: the page says nothing else)
    phone.find_element(By.TAG_NAME, "body").send_keys("u")
    assert len(history(phone)) == 1 and not shown_element(phone, "alert")
    with running_server(*store, port=port) as base:
        wait_until(lambda: not shown_element(phone, "connection"), what="the banner to go")
        assert game_id(phone) == gid and len(history(phone)) == 1
        # the game goes on from the page
        state = get(base, f"api/ludo/games/{gid}?fields=")
        if state["phase"] == "move":
            wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, "#moves button"))[0].click()
        else:
            roll = phone.find_element(By.ID, "roll")
            wait_until(roll.is_enabled, what="the die")
            roll.click()
        wait_until(lambda: len(history(phone)) == 2, what="the game to go on")
        assert get(base, f"api/ludo/games/{gid}?fields=")["version"] == 2


def test_a_server_back_without_the_game_says_it_is_gone(phone: Any) -> None:
    """The server comes back without the game (its games were in memory): the stream is
    refused (404), and the page says the game is gone instead of reconnecting for ever."""
    port = free_port()
    with running_server("--store", "memory", port=port) as base:
        open_page(phone, base + "onitama", "start")
        phone.find_element(By.ID, "start").click()
        wait_until(lambda: shown_element(phone, "undo"), what="the play view")
    wait_until(lambda: shown_element(phone, "connection"), what="the banner")
    with running_server("--store", "memory", port=port):
        alert = wait_until(lambda: shown_element(phone, "alert"), what="the game said gone")
        assert "This game was deleted on the server." in alert.text
        assert not shown_element(phone, "connection")


# ---- undo, the turn timer, the status ---------------------------------------------------------


def undo_shown(b: Any) -> bool:
    found = b.find_elements(By.ID, "undo")
    return bool(found) and found[0].is_displayed() and found[0].is_enabled()


def test_undo_is_offered_only_on_the_device_that_may_undo(
    browser: Any, phone: Any, server: str
) -> None:
    open_page(browser, server + "onitama", "start")
    Select(browser.find_element(By.ID, "side-B")).select_by_value("remote")
    browser.find_element(By.ID, "start").click()
    link = wait_until(lambda: shown_element(browser, "invite-B")).get_attribute("value")
    gid = game_id(browser)
    # the phone watches first (no key): it is offered no undo, ever
    open_page(phone, f"{server}onitama?game={gid}", "board")
    wait_until(lambda: "watching" in text_of(phone, "role"), what="a spectator's page")
    assert not undo_shown(browser) and not undo_shown(phone)
    text = get(server, f"api/onitama/games/{gid}")["legal_moves"][0]["text"]
    browser.find_element(By.ID, "action-text").send_keys(text + "\n")
    wait_until(lambda: len(history(phone)) == 1, what="A's ply on the phone")
    wait_until(lambda: undo_shown(browser), what="A's undo on the host's page")
    assert not phone.find_elements(By.CSS_SELECTOR, "#undo:not([hidden])")
    # the phone takes seat B by its invite link: B's ply is B's to take back, not A's
    phone.get(link)
    wait_until(lambda: "You play B" in text_of(phone, "role"), what="B's side")
    assert not undo_shown(phone)
    text = get(server, f"api/onitama/games/{gid}")["legal_moves"][0]["text"]
    wait_until(lambda: phone.find_element(By.ID, "action-text").is_enabled())
    phone.find_element(By.ID, "action-text").send_keys(text + "\n")
    wait_until(lambda: undo_shown(phone), what="B's undo on the phone")
    wait_until(lambda: not undo_shown(browser), what="no undo on A's page after B's ply")
    phone.find_element(By.ID, "undo").click()
    wait_until(lambda: len(history(browser)) == 1, what="B's ply taken back")
    wait_until(lambda: undo_shown(browser) and not undo_shown(phone), what="A's undo again")
    assert page_errors(browser) == []


def test_the_turn_timers_moves_are_labelled_as_the_timers(browser: Any, server: str) -> None:
    """B is away: the turn timer's bot plays B's turn; the page's history says so for those
    entries and no others."""
    timer = {"seconds": 1, "bot": "random"}
    body = {"players": "AB", "seats": {"B": "remote"}, "turn_timer": timer}
    s = post(server, "api/ludo/games?fields=", body)
    gid, host = s["id"], s["host_key"]
    open_page(browser, f"{server}ludo?game={gid}", "board")
    while s["current_player"] == "A":  # A plays on the host's screen (here by the API)
        step = "roll" if s["phase"] == "roll" else "move"
        body = {"version": s["version"]}
        if step == "move":
            body["move"] = s["legal_moves"][0]["name"]
        s = post(server, f"api/ludo/games/{gid}/{step}?fields=history", body, host)
    mine = len(s["history"])
    wait_until(
        lambda: get(server, f"api/ludo/games/{gid}?fields=")["current_player"] != "B",
        what="the timer to play B's turn",
    )
    done = get(server, f"api/ludo/games/{gid}?fields=history")
    wait_until(lambda: len(history(browser)) == len(done["history"]), what="B's turn shown")
    lines = history(browser)
    assert done["timer_entries"] == list(range(mine, len(lines)))
    assert not any("turn timer" in line for line in lines[:mine]), lines
    for line, event in zip(lines[mine:], done["history"][mine:], strict=True):
        assert line == f"{event['text']} (by the turn timer's bot random)"
    # Onitama: the timer's AI plays B's ply
    sides = {"B": {"kind": "remote"}}
    s = post(
        server, "api/onitama/games?fields=", {"sides": sides, "turn_timer": {**timer, "bot": "0"}}
    )
    open_page(browser, f"{server}onitama?game={s['id']}", "board")
    post(
        server,
        f"api/onitama/games/{s['id']}/action",
        {"action": s["legal_moves"][0]["text"]},
        s["host_key"],
    )
    wait_until(lambda: len(history(browser)) == 2, what="the timer's ply")
    first, second = history(browser)
    assert first.startswith("A: ") and "timer" not in first
    assert second.startswith("B: ") and second.endswith(" (by the turn timer's bot 0)")


def occurrences(b: Any, text: str) -> int:
    """How often `text` is on the page, its pictures' text included."""
    return int(
        b.execute_script(
            "return (document.body.innerText + [...document.querySelectorAll('svg text')]"
            ".map((t) => t.textContent).join('\\n')).split(arguments[0]).length - 1",
            text,
        )
    )


def test_the_status_is_said_once(browser: Any, server: str) -> None:
    s = post(server, "api/ludo/games?fields=", {"players": "AB", "seed": 9})
    open_page(browser, f"{server}ludo?game={s['id']}", "roll")
    wait_until(lambda: text_of(browser, "status") == s["status"])
    assert occurrences(browser, s["status"]) == 1
    # the board's picture loses the band its status took, nothing more
    box = browser.execute_script(
        "return document.querySelector('#board svg').getAttribute('viewBox')"
    ).split()
    assert box[:3] == ["0", "0", "466"] and 458 < float(box[3]) < 486, box
    gid = finished(server, "onitama", {"sides": {s: {"kind": "ai", "level": 0} for s in "AB"}})
    status = get(server, f"api/onitama/games/{gid}?fields=")["status"]
    open_page(browser, f"{server}onitama?game={gid}", "game-over")
    assert occurrences(browser, status) == 1
    open_page(browser, replay_of(server, "ludo", s["id"]), "frame-label")
    wait_until(lambda: text_of(browser, "frame-status") == s["status"])
    assert occurrences(browser, s["status"]) == 1


# ---- the shared page script ------------------------------------------------------------------

#: The page scripts this page fetched (module imports included), by name.
LOADED = """
return performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)
  .filter((p) => p.startsWith("/static/") && p.endsWith(".js")).map((p) => p.slice(8));
"""


@pytest.mark.parametrize(
    ("kind", "body"),
    [("ludo", {"players": "AB", "seed": 9}), ("onitama", {"setup": "21"})],
)
def test_both_games_pages_load_the_shared_page_script(
    browser: Any, server: str, kind: str, body: dict[str, Any]
) -> None:
    s = post(server, f"api/{kind}/games?fields=", body)
    browser.get(f"{server}{kind}?game={s['id']}")
    # the status line and the undo button are the shared script's (game-page.js)
    wait_until(lambda: text_of(browser, "status") == s["status"], what=f"the {kind} status")
    assert browser.find_elements(By.CSS_SELECTOR, ".play #undo")
    loaded = browser.execute_script(LOADED)
    assert {"app.js", f"{kind}.js", "game-page.js", "live.js", "common.js"} <= set(loaded)
    assert page_errors(browser) == []


# ---- invite links ----------------------------------------------------------------------------


def test_links_of_a_loopback_server_are_said_to_open_here_only(browser: Any, server: str) -> None:
    open_page(browser, server + "ludo", "start")
    Select(browser.find_element(By.ID, "seat-B")).select_by_value("remote")
    browser.find_element(By.ID, "start").click()
    link = wait_until(lambda: shown_element(browser, "invite-B")).get_attribute("value")
    assert link.startswith("http://127.0.0.1:")
    note = wait_until(lambda: shown_element(browser, "invite-local"), what="the note")
    assert "open on this computer only" in note.text
    assert "ludo serve --host 0.0.0.0" in note.text
    # links to an address of the network (as `--host 0.0.0.0` gives) need no such note
    gid = game_id(browser)
    browser.execute_script(
        "const name = `ludogame:ludo:${arguments[0]}`;"
        "const kept = JSON.parse(localStorage.getItem(name));"
        "kept.links.B = kept.links.B.replace(/127\\.0\\.0\\.1/, '192.0.2.10');"
        "localStorage.setItem(name, JSON.stringify(kept));",
        gid,
    )
    open_page(browser, f"{server}ludo?game={gid}", "invite-B")
    assert "192.0.2.10" in browser.find_element(By.ID, "invite-B").get_attribute("value")
    assert not shown_element(browser, "invite-local")
