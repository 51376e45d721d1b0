"""A 64-bit seed typed in the page reaches the server exactly, and the page shows it as the
server holds it (JavaScript's numbers would round it past 2**53). Headless Chromium through
Selenium, skipped as test_web_browser.py is."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from web_browser_support import (
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

#: Past 2**53: a JavaScript number shows it as 6602659055284519000.
SEED = "6602659055284519226"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    b = start_browser()
    try:
        yield b
    finally:
        b.quit()


def test_a_64_bit_seed_goes_and_comes_back_exactly(browser: Any) -> None:
    with running_server("--store", "memory") as base:
        browser.get(base + "ludo")
        wait_until(lambda: shown_element(browser, "start"), what="the new-game form")
        browser.find_element(By.ID, "seed").send_keys(SEED)
        Select(browser.find_element(By.ID, "seat-A")).select_by_value("human")
        Select(browser.find_element(By.ID, "seat-B")).select_by_value("human")
        browser.find_element(By.ID, "start").click()
        wait_until(lambda: "game=" in browser.current_url, what="the play view")
        gid = parse_qs(urlparse(browser.current_url).query)["game"][0]
        with urllib.request.urlopen(f"{base}api/ludo/games/{gid}", timeout=10) as r:
            state = json.loads(r.read())
        assert (state["seed"], state["seed_text"]) == (int(SEED), SEED)
        meta = wait_until(lambda: shown_element(browser, "meta"), what="the game's details")
        wait_until(lambda: f"seed {SEED} " in meta.text, what=f"the seed {SEED} on the page")
        assert page_errors(browser) == []
