"""`ludo serve` in a real browser (headless Chromium through Selenium), used as a person
would: clicking the die, the tokens, the pieces and walls, undoing, saving and replaying.

Skipped when Chromium, chromedriver or the web extra is missing, unless
LUDOGAME_REQUIRE_BROWSER=1 (as .ci/check sets), when they fail instead."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from web_browser_support import (
    PHONE,
    history_len,
    page_errors,
    play_onitama_by_clicks,
    require_browser,
    running_server,
    shown_element,
    start_browser,
    wait_until,
)

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

# slow: run by CI, left out of a quick `pytest -m "not slow"`
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The base URL of `ludo serve` on a free loopback port."""
    with running_server() as base:
        yield base


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser saves downloaded files."""
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads: Path) -> Iterator[Any]:
    """One desktop-sized headless Chromium for the module."""
    b = start_browser(downloads=downloads)
    b.set_script_timeout(30)
    try:
        yield b
    finally:
        b.quit()


@pytest.fixture(autouse=True)
def no_script_errors(browser: Any) -> Iterator[None]:
    """Every test ends without a JavaScript error on the page."""
    page_errors(browser)
    yield
    assert page_errors(browser) == []


def api_get(base: str, path: str) -> Any:
    """The server's JSON answer to a GET (what the engine says, to check the page against)."""
    with urllib.request.urlopen(base + path.lstrip("/"), timeout=10) as r:
        return json.loads(r.read())


def by_id(browser: Any, name: str) -> WebElement:
    return browser.find_element(By.ID, name)


def shown(browser: Any, name: str) -> WebElement | None:
    """The element with id `name` when it is on the page and visible."""
    element: WebElement | None = shown_element(browser, name)
    return element


def game_id(browser: Any) -> str:
    return parse_qs(urlparse(browser.current_url).query)["game"][0]


def new_ludo(
    browser: Any, base: str, seed: int, seats: dict[str, str], rules: str = "cs162"
) -> None:
    """Fills in and sends the new-game form."""
    browser.get(base + "ludo")
    wait_until(lambda: shown(browser, "start"), what="the new-game form")
    Select(by_id(browser, "rules")).select_by_value(rules)
    by_id(browser, "seed").send_keys(str(seed))
    for pos in "ABCD":
        Select(by_id(browser, f"seat-{pos}")).select_by_value(seats.get(pos, "off"))
    by_id(browser, "start").click()
    wait_until(lambda: "game=" in browser.current_url, what="the play view")


def history_reaches(browser: Any, n: int, what: str, exactly: bool = False) -> None:
    """Waits until the history list holds `n` entries (or more, unless `exactly`: bots may
    play on at once)."""
    wait_until(
        lambda: history_len(browser) == n or (not exactly and history_len(browser) > n), what=what
    )


def test_ludo_person_against_random_to_the_end(browser: Any, server: str) -> None:
    new_ludo(browser, server, seed=11, seats={"A": "human", "B": "random"})
    Select(by_id(browser, "speed")).select_by_index(3)
    rolls = moves = 0
    while not shown(browser, "game-over"):
        roll = by_id(browser, "roll")
        movable = browser.find_elements(By.CSS_SELECTOR, "#board g.tokens.movable")
        if roll.is_enabled():
            before = history_len(browser)
            roll.click()
            rolls += 1
        elif movable:
            before = history_len(browser)
            movable[0].click()
            choice = shown(browser, "token-choice")
            if choice is not None:
                choice.find_element(By.CSS_SELECTOR, "button").click()
            moves += 1
        else:  # the bot's turn: it plays by itself
            wait_until(
                lambda: (
                    by_id(browser, "roll").is_enabled()
                    or browser.find_elements(By.CSS_SELECTOR, "#board g.tokens.movable")
                    or shown(browser, "game-over")
                ),
                what="the bot to play",
            )
            continue
        history_reaches(browser, before + 1, "the click to be played")
        assert rolls + moves < 2_000
    assert rolls > 10 and moves > 5
    state = api_get(server, f"api/ludo/games/{game_id(browser)}")
    assert state["phase"] == "over"
    assert by_id(browser, "status").text == state["status"]
    ranking = [
        li.text.split(" ")[0] for li in browser.find_elements(By.CSS_SELECTOR, "#ranking li")
    ]
    assert ranking == state["ranking"] and sorted(ranking) == ["A", "B"]
    assert history_len(browser) == len(state["history"])
    assert not by_id(browser, "roll").is_enabled()


def test_onitama_against_ai_level_1_to_the_end(browser: Any, server: str) -> None:
    browser.get(server + "onitama")
    wait_until(lambda: shown(browser, "start"), what="the setup chooser")
    Select(by_id(browser, "setup")).select_by_value("21")
    Select(by_id(browser, "side-A")).select_by_value("human")
    Select(by_id(browser, "side-B")).select_by_value("1")
    by_id(browser, "time-B").clear()
    by_id(browser, "time-B").send_keys("0.1")
    by_id(browser, "start").click()
    wait_until(lambda: "game=" in browser.current_url, what="the play view")
    Select(by_id(browser, "speed")).select_by_index(3)
    mine = play_onitama_by_clicks(browser, 100, piece=-1)
    state = api_get(server, f"api/onitama/games/{game_id(browser)}")
    assert state["to_act"] is None and state["status"] == by_id(browser, "status").text
    assert mine >= 2
    plies = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#history li")]
    # each ply with the side that played it
    by = state["history_players"]
    assert plies == [f"{p}: {a}" for p, a in zip(by, state["history"], strict=True)]
    assert by_id(browser, "plies").text.startswith(f"Ply {state['plies']} played")
    assert by_id(browser, "result").text.startswith(
        f"{state['winner']} wins" if state["winner"] else "A tie"
    )


def test_ludo_keys_and_undo(browser: Any, server: str) -> None:
    new_ludo(browser, server, seed=3, seats={"A": "human", "B": "human"})
    body = by_id(browser, "main")
    assert not by_id(browser, "undo").is_enabled()
    positions = [by_id(browser, "position").text]
    while history_len(browser) < 6:  # Space rolls, a token's key moves
        state = api_get(server, f"api/ludo/games/{game_id(browser)}")
        before = history_len(browser)
        if state["phase"] == "roll":
            body.send_keys(Keys.SPACE)
        else:
            body.send_keys(state["legal_moves"][0]["token"])
        history_reaches(browser, before + 1, "the key to be played", exactly=True)
        positions.append(by_id(browser, "position").text)
    # in an all-person game each undo takes back one event, back to the start
    for expected in reversed(positions[:-1]):
        before = history_len(browser)
        body.send_keys("u")
        history_reaches(browser, before - 1, "the undo", exactly=True)
        assert by_id(browser, "position").text == expected
    assert not by_id(browser, "undo").is_enabled()
    assert by_id(browser, "status").text == "Player A to roll the die."


def test_undo_against_a_bot_returns_to_the_persons_decision(browser: Any, server: str) -> None:
    new_ludo(browser, server, seed=5, seats={"A": "human", "B": "random"})
    Select(by_id(browser, "speed")).select_by_index(3)
    by_id(browser, "roll").click()
    # wait until the bot has played and it is the person's turn again
    # (the roll button is still enabled for a moment after the click: wait for the bot's
    # events too, not only for an enabled button)
    wait_until(
        lambda: (
            history_len(browser) >= 2
            and (
                by_id(browser, "roll").is_enabled()
                or browser.find_elements(By.CSS_SELECTOR, "#moves button")
            )
        ),
        what="the person's turn again",
    )
    by_id(browser, "pause").click()  # the bots wait while we look
    assert history_len(browser) >= 2
    by_id(browser, "undo").click()
    wait_until(lambda: history_len(browser) == 0, what="the undo back to the first roll")
    assert by_id(browser, "roll").is_enabled()
    assert by_id(browser, "status").text == "Player A to roll the die."


def downloaded(folder: Path, before: set[Path]) -> Path:
    """The one file the browser finished downloading into `folder` since `before`."""

    def done() -> Path | None:
        new = [
            p
            for p in folder.iterdir()
            if p not in before and not p.name.startswith(".") and p.suffix in (".json", ".txt")
        ]
        return new[0] if len(new) == 1 and new[0].stat().st_size > 0 else None

    return wait_until(done, what="the download")


def test_save_a_game_then_replay_it_step_by_step(
    browser: Any, server: str, downloads: Path
) -> None:
    new_ludo(browser, server, seed=21, seats={"A": "random", "B": "random"})
    Select(by_id(browser, "speed")).select_by_index(3)
    wait_until(lambda: history_len(browser) >= 12, what="the bots to play a while")
    by_id(browser, "pause").click()  # watching: pause stops the bots, resume goes on
    time.sleep(0.5)  # a bot step already asked for may still arrive
    paused_at = history_len(browser)
    time.sleep(1.0)
    assert history_len(browser) == paused_at
    assert by_id(browser, "pause").get_attribute("aria-pressed") == "true"
    by_id(browser, "pause").click()
    wait_until(lambda: history_len(browser) > paused_at + 2, what="the bots to resume")
    by_id(browser, "pause").click()
    before = set(downloads.iterdir())
    by_id(browser, "save-json").click()
    saved = downloaded(downloads, before)
    game = json.loads(saved.read_text(encoding="utf-8"))
    assert isinstance(game, dict)
    state = api_get(server, f"api/ludo/games/{game_id(browser)}")
    events = len(state["history"])

    browser.get(server + "replay")
    wait_until(lambda: shown(browser, "replay-load"), what="the replay loader")
    by_id(browser, "replay-file").send_keys(str(saved))
    by_id(browser, "replay-load").click()
    wait_until(lambda: "id=" in browser.current_url, what="the replay")
    label = wait_until(lambda: shown(browser, "frame-label"), what="the first frame")
    wait_until(lambda: label.text == f"Step 0 of {events}: start", what="the start frame")
    assert not by_id(browser, "back").is_enabled()

    by_id(browser, "forward").click()
    first = state["history"][0]
    wait_until(lambda: label.text.startswith(f"Step 1 of {events}:"), what="step 1")
    assert first["player"] in label.text and str(first["value"]) in label.text
    body = by_id(browser, "main")
    body.send_keys(Keys.ARROW_RIGHT)
    wait_until(lambda: label.text.startswith(f"Step 2 of {events}:"), what="step 2 (arrow key)")
    body.send_keys(Keys.ARROW_LEFT)
    wait_until(lambda: label.text.startswith(f"Step 1 of {events}:"), what="step 1 (arrow key)")
    by_id(browser, "last").click()
    wait_until(lambda: label.text.startswith(f"Step {events} of {events}:"), what="the last step")
    assert by_id(browser, "frame-status").text == state["status"]
    assert not by_id(browser, "forward").is_enabled()
    svg = by_id(browser, "frame").find_element(By.TAG_NAME, "svg")
    assert svg.find_elements(By.CSS_SELECTOR, "g.tokens")

    # the replay's address opens it again
    browser.get(browser.current_url)
    wait_until(
        lambda: (
            shown(browser, "frame-label")
            and by_id(browser, "frame-label").text.startswith(f"Step {events} of")
        ),
        what="the replay reopened from its address",
    )


@pytest.mark.parametrize("game", ["ludo", "onitama"])
def test_bad_notation_in_the_address_reads_clearly(browser: Any, server: str, game: str) -> None:
    browser.get(f"{server}{game}?position=not%20a%20position")
    message = wait_until(lambda: shown(browser, "position-error"), what="the error page")
    alert = by_id(browser, "alert")
    assert alert.get_attribute("role") == "alert" and alert.is_displayed()
    answer = api_error(server, f"api/{game}/games", {"position": "not a position"})
    assert answer["message"] in message.text and answer["message"] in alert.text
    assert browser.find_element(By.CSS_SELECTOR, f'a[href="/{game}"].button').is_displayed()


def test_a_saved_game_pasted_into_the_form_goes_on_where_it_stopped(
    browser: Any, server: str
) -> None:
    from LudoGame import Game
    from LudoGame.onitama import Onitama

    ludo = Game("cs162", ["A", "B"], seed=5)
    for _ in range(9):
        if ludo.pending_roll is None:
            ludo.roll()
        else:
            ludo.play(ludo.legal_moves[0])
    oni = Onitama.setup(21)
    oni.play(oni.legal_moves[0])
    for game, saved, position in (
        ("ludo", ludo.to_json(), ludo.to_notation()),
        ("onitama", oni.to_json(), oni.to_notation()),
        ("ludo", ludo.to_notation(), ludo.to_notation()),
    ):
        browser.get(server + game)
        text = wait_until(lambda: shown(browser, "load-text"), what="the load form")
        # typed through the page's own script: send_keys would be slow for a long JSON
        browser.execute_script("arguments[0].value = arguments[1];", text, saved)
        by_id(browser, "load").click()
        wait_until(lambda: "game=" in browser.current_url, what=f"the {game} play view")
        state = api_get(server, f"api/{game}/games/{game_id(browser)}")
        assert state["position"] == position
        assert wait_until(lambda: shown(browser, "position"), what="the position").text == position


def test_a_gone_game_falls_back_to_the_position_in_its_link(browser: Any, server: str) -> None:
    new_ludo(browser, server, seed=8, seats={"A": "human", "B": "human"})
    by_id(browser, "roll").click()
    wait_until(lambda: history_len(browser) == 1, what="the roll")
    position = by_id(browser, "position").text
    url = urlparse(browser.current_url)
    query = parse_qs(url.query)
    gone = url._replace(query=f"game=no-such-game&position={query['position'][0]}")
    browser.get(gone.geturl().replace(" ", "+"))
    wait_until(lambda: shown(browser, "notice"), what="the notice")
    assert by_id(browser, "position").text == position
    assert game_id(browser) != "no-such-game"


def api_error(base: str, path: str, body: dict[str, Any]) -> Any:
    """The error the server answers a POST with."""
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as e:
        assert 400 <= e.code < 500
        return json.loads(e.read())["error"]
    raise AssertionError(f"{path} accepted {body}")


def test_phone_width_play_view_has_no_sideways_scroll(server: str) -> None:
    phone = start_browser(PHONE)
    try:
        for game, ready in (("ludo", "roll"), ("onitama", "undo")):
            phone.get(server + game)
            wait_until(lambda: shown(phone, "start"), what="the form")
            phone.find_element(By.ID, "start").click()
            wait_until(lambda view=ready: shown(phone, view), what="the play view")
            widths = phone.execute_script(
                "const d = document.documentElement; return [d.scrollWidth, d.clientWidth]"
            )
            assert widths[0] <= widths[1], f"{game}: {widths}"
            board = phone.find_element(By.CSS_SELECTOR, "#board svg")
            assert board.size["width"] <= widths[1]
        assert page_errors(phone) == []
    finally:
        phone.quit()


def alert_text(b: Any) -> str:
    """The error the page shows, if any."""
    found = b.find_elements(By.ID, "alert")
    return str(found[0].get_attribute("textContent")) if found else ""


def role_of(b: Any) -> str:
    """Who the page says this browser is in the game ("" while the page loads)."""
    found = b.find_elements(By.ID, "role")
    return str(found[0].text) if found else ""


def status_of(b: Any) -> tuple[str, int]:
    """The status line and history length a page shows."""
    return by_id(b, "status").text, history_len(b)


def test_two_browsers_play_one_ludo_game_live(browser: Any, server: str) -> None:
    """The host starts a game with seat B on another device; a second Chromium (a phone)
    opens B's invite link; each move shows on the other page within a second, without a
    reload; neither page can act for the other's seat, and a third page only watches."""
    new_ludo(browser, server, seed=3, seats={"A": "human", "B": "remote"})
    gid = game_id(browser)
    link_field = wait_until(lambda: shown(browser, "invite-B"), what="the invite panel")
    link = link_field.get_attribute("value")
    assert link.startswith(server + "ludo?game=") and "#key=" in link
    assert "You play A" in role_of(browser)
    phone = start_browser(PHONE)
    try:
        phone.get(link)
        wait_until(lambda: "You play B" in role_of(phone), what="the claimed seat")
        # the key has left the address bar, and stays in the browser over a reload
        assert "key=" not in phone.current_url and "seat=" not in phone.current_url
        phone.refresh()
        wait_until(lambda: "You play B" in role_of(phone), what="the seat kept")
        for _ in range(12):
            state = api_get(server, f"/api/ludo/games/{gid}?fields=")
            if state["to_act"] is None:
                break
            mover, waiter = (browser, phone) if state["current_player"] == "A" else (phone, browser)
            # only the seat's own page may act
            wait_until(
                lambda m=mover: (
                    by_id(m, "roll").is_enabled()
                    or m.find_elements(By.CSS_SELECTOR, "#moves button")
                ),
                what="the mover's controls",
            )
            assert not by_id(waiter, "roll").is_enabled()
            assert waiter.find_elements(By.CSS_SELECTOR, "#moves button") == []
            if by_id(mover, "roll").is_enabled():
                by_id(mover, "roll").click()
            else:
                mover.find_elements(By.CSS_SELECTOR, "#moves button")[0].click()
            clicked = time.monotonic()
            try:
                after = wait_until(
                    lambda v=state["version"]: (
                        (s := api_get(server, f"/api/ludo/games/{gid}?fields=history"))["version"]
                        == v + 1
                        and s
                    ),
                    what="the server's answer",
                )
            except AssertionError as e:  # say what the pages showed
                shows = [alert_text(b) + " / " + by_id(b, "status").text for b in (mover, waiter)]
                raise AssertionError(f"{e}: the pages show {shows}") from e
            shown_now = (after["status"], len(after["history"]))
            for page_ in (mover, waiter):
                wait_until(
                    lambda b=page_, n=shown_now: status_of(b) == n,
                    timeout=5,
                    what="the move on both pages",
                )
            assert time.monotonic() - clicked < 2.5
        # a third page, with no key, watches read-only
        watcher = start_browser()
        try:
            watcher.get(f"{server}ludo?game={gid}")
            wait_until(lambda: "watching" in role_of(watcher), what="the watcher")
            assert not by_id(watcher, "roll").is_enabled()
            assert watcher.find_elements(By.CSS_SELECTOR, "#moves button") == []
            assert page_errors(watcher) == []
        finally:
            watcher.quit()
        assert page_errors(phone) == []
    finally:
        phone.quit()


def test_an_onitama_ply_on_one_browser_shows_on_another(browser: Any, server: str) -> None:
    browser.get(server + "onitama")
    wait_until(lambda: shown(browser, "start"), what="the chooser")
    Select(by_id(browser, "side-B")).select_by_value("remote")
    by_id(browser, "start").click()
    link = wait_until(lambda: shown(browser, "invite-B"), what="the invite").get_attribute("value")
    other = start_browser()
    try:
        other.get(link)
        wait_until(lambda: "You play B" in role_of(other), what="the claimed side")
        assert by_id(other, "action-text").get_attribute("disabled") is not None
        text = api_get(server, f"/api/onitama/games/{game_id(browser)}")["legal_moves"][0]["text"]
        by_id(browser, "action-text").send_keys(text, Keys.ENTER)
        wait_until(lambda: history_len(other) == 1, timeout=5, what="the ply on the other page")
        wait_until(
            lambda: by_id(other, "action-text").get_attribute("disabled") is None,
            what="B's turn on B's page",
        )
        assert by_id(browser, "action-text").get_attribute("disabled") is not None
        assert page_errors(other) == []
    finally:
        other.quit()


def test_serve_replay_opens_a_tournaments_games(
    browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from LudoGame.onitama import Onitama
    from LudoGame.onitama_cli import main as onitama_main

    saved = tmp_path / "tournament.json"
    args = ["tournament", "0", "1", "--setups", "21", "--nodes", "50", "--save", str(saved)]
    assert onitama_main(args) == 0
    capsys.readouterr()
    games = json.loads(saved.read_text(encoding="utf-8"))["games"]
    assert len(games) == 2
    with running_server("--replay", str(saved)) as url:
        assert "/replay?id=" in url
        browser.get(url)
        buttons = wait_until(
            lambda: browser.find_elements(By.CSS_SELECTOR, "#game-list button"),
            what="the list of the tournament's games",
        )
        assert len(buttons) == 2
        assert buttons[0].get_attribute("aria-pressed") == "true"
        buttons[1].click()
        second = games[1]
        label = by_id(browser, "frame-label")
        steps = len(second["actions"])
        wait_until(lambda: label.text == f"Step 0 of {steps}: start", what="game 2's start")
        by_id(browser, "main").send_keys(Keys.ARROW_RIGHT)
        wait_until(
            lambda: (
                label.text.startswith(f"Step 1 of {steps}: ")
                and label.text.endswith(second["actions"][0])
            ),
            what="its first ply",
        )
        by_id(browser, "main").send_keys(Keys.END)
        wait_until(lambda: label.text.startswith(f"Step {steps} of"), what="its last ply")
        end = Onitama.from_json(json.dumps(second))
        assert by_id(browser, "frame-status").text == end.status
