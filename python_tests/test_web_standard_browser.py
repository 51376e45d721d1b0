"""Standard Onitama in a real browser (headless Chromium through Selenium): the chooser
offers the rules (with the wall, or standard), the card set and the deal's seed; the game
it starts is the engine's deal, shown without a wall, and played by clicks to its end with
actions of three words.

Skipped when Chromium, chromedriver or the web extra is missing, unless
LUDOGAME_REQUIRE_BROWSER=1, when they fail instead."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from web_browser_support import (
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
from selenium.webdriver.support.ui import Select  # noqa: E402

from LudoGame.onitama import SENSEI_CARDS, Onitama  # noqa: E402


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


def api_get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path.lstrip("/"), timeout=10) as r:
        return json.loads(r.read())


def by_id(b: Any, name: str) -> Any:
    return b.find_element(By.ID, name)


def test_a_standard_game_from_the_chooser_is_played_to_its_end(browser: Any, server: str) -> None:
    page_errors(browser)
    browser.get(server + "onitama")
    wait_until(lambda: shown_element(browser, "start"), what="the setup chooser")
    assert shown_element(browser, "setup-label") and not shown_element(browser, "card-set-label")
    Select(by_id(browser, "rules")).select_by_value("standard")
    wait_until(lambda: shown_element(browser, "card-set-label"), what="the card set choice")
    assert not shown_element(browser, "setup-label")
    assert "side card" in by_id(browser, "first-hint").text
    Select(by_id(browser, "card-set")).select_by_value("sensei")
    by_id(browser, "seed").send_keys("5")
    by_id(browser, "max-plies").send_keys("30")
    Select(by_id(browser, "side-A")).select_by_value("human")
    Select(by_id(browser, "side-B")).select_by_value("1")
    by_id(browser, "time-B").clear()
    by_id(browser, "time-B").send_keys("0.1")
    by_id(browser, "start").click()
    wait_until(lambda: "game=" in browser.current_url, what="the play view")
    gid = parse_qs(urlparse(browser.current_url).query)["game"][0]
    state = api_get(server, f"api/onitama/games/{gid}")
    start = Onitama.standard(seed=5, card_set="sensei", max_plies=30)
    assert (state["rules"], state["card_set"], state["setup"]) == ("standard", "sensei", "standard")
    assert state["history"] or state["position"] == start.to_notation()
    wait_until(lambda: "Standard Onitama" in by_id(browser, "rules-line").text, what="the rules")
    assert "Sensei" in by_id(browser, "rules-line").text
    assert by_id(browser, "wall-note").text == ""
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .wall-label")
    sensei = {c.name for c in SENSEI_CARDS}
    captions = [f.text for f in browser.find_elements(By.CSS_SELECTOR, "#cards figcaption")]
    assert len(captions) == 5
    assert all(c.split(": ", 1)[1].rstrip(" ↻") in sensei for c in captions), captions
    assert "wall" not in by_id(browser, "keys-hint").text
    Select(by_id(browser, "speed")).select_by_index(3)

    def no_wall(choices: list[Any]) -> None:
        assert all("wall" not in c.text for c in choices)

    mine = play_onitama_by_clicks(browser, 40, check_choices=no_wall)
    state = api_get(server, f"api/onitama/games/{gid}")
    assert state["to_act"] is None and mine >= 1
    assert all(len(a.split()) == 3 for a in state["history"]), state["history"]
    replay = Onitama.standard(seed=5, card_set="sensei", max_plies=30)
    for a in state["history"]:
        replay.play(a)
    assert replay.to_notation() == state["position"]
    assert page_errors(browser) == []
