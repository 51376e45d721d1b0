"""Take the screenshots of `ludo serve` shown in README.md and docs/web.md.

Run by hand from the repository's root after changing the pages (it needs the test extra
and Debian's chromium and chromium-driver, as the browser tests do):

    python docs/screenshots.py            # writes docs/images/web-*.png

It starts `ludo serve` on a free loopback port, plays seeded games in headless Chromium
and saves each main screen, and the two-device flow on two phone-sized pages (the last
screenshot after the server has stopped: the connection lost)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python_tests"))

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402
from web_browser_support import (  # noqa: E402
    PHONE,
    running_server,
    shown_element,
    start_browser,
    wait_until,
)

IMAGES = ROOT / "docs" / "images"


def history_len(b: Any) -> int:
    return len(b.find_elements(By.CSS_SELECTOR, "#history li"))


def save(b: Any, name: str) -> None:
    b.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.2)
    b.save_screenshot(str(IMAGES / name))
    print(f"wrote docs/images/{name}")


def ludo_form(b: Any, base: str) -> None:
    b.get(base + "ludo")
    wait_until(lambda: shown_element(b, "start"))
    Select(b.find_element(By.ID, "rules")).select_by_value("standard")
    b.find_element(By.ID, "seed").send_keys("2024")
    for pos, kind in zip("ABCD", ("human", "random", "expectimax", "mcts:200"), strict=True):
        Select(b.find_element(By.ID, f"seat-{pos}")).select_by_value(kind)
    save(b, "web-ludo-new.png")


def ludo_midgame(b: Any, base: str) -> None:
    b.get(base + "ludo")
    wait_until(lambda: shown_element(b, "start"))
    Select(b.find_element(By.ID, "rules")).select_by_value("standard")
    b.find_element(By.ID, "seed").send_keys("7")
    for pos, kind in zip("ABCD", ("human", "human", "human", "human"), strict=True):
        Select(b.find_element(By.ID, f"seat-{pos}")).select_by_value(kind)
    b.find_element(By.ID, "start").click()
    wait_until(lambda: "game=" in b.current_url)
    # a person rolls and moves until a roll leaves a choice between several tokens
    while True:
        before = history_len(b)
        roll = b.find_element(By.ID, "roll")
        movable = b.find_elements(By.CSS_SELECTOR, "#board g.tokens.movable")
        if roll.is_enabled():
            roll.click()
        elif len(movable) >= 2 and before > 40:
            break
        else:
            b.find_element(By.CSS_SELECTOR, "#moves button").click()
        wait_until(lambda n=before: history_len(b) > n)
    save(b, "web-ludo-play.png")


def ludo_over(b: Any, base: str) -> None:
    b.get(base + "ludo")
    wait_until(lambda: shown_element(b, "start"))
    b.find_element(By.ID, "seed").send_keys("3")
    for pos, kind in zip("ABCD", ("random", "cs162", "safe", "off"), strict=True):
        Select(b.find_element(By.ID, f"seat-{pos}")).select_by_value(kind)
    b.find_element(By.ID, "start").click()
    wait_until(lambda: "game=" in b.current_url)
    Select(b.find_element(By.ID, "speed")).select_by_index(3)
    wait_until(lambda: shown_element(b, "game-over"), timeout=120)
    save(b, "web-ludo-over.png")


def onitama_midgame(b: Any, base: str) -> None:
    b.get(base + "onitama")
    wait_until(lambda: shown_element(b, "start"))
    Select(b.find_element(By.ID, "side-B")).select_by_value("1")
    b.find_element(By.ID, "time-B").clear()
    b.find_element(By.ID, "time-B").send_keys("0.2")
    b.find_element(By.ID, "start").click()
    wait_until(lambda: "game=" in b.current_url)
    for _ in range(2):
        before = history_len(b)
        b.find_elements(By.CSS_SELECTOR, "#board g.square.movable")[1].click()
        b.find_elements(By.CSS_SELECTOR, "#board g.square.target")[0].click()
        walls = b.find_elements(By.CSS_SELECTOR, "#wall-choice button[data-action]")
        if walls:
            walls[0].click()
        wait_until(lambda n=before: history_len(b) >= n + 2)
    b.find_elements(By.CSS_SELECTOR, "#board g.square.movable")[2].click()
    b.find_elements(By.CSS_SELECTOR, "#board g.square.target")[0].click()
    save(b, "web-onitama-play.png")


def replay(b: Any, base: str) -> None:
    b.get(base + "ludo")
    wait_until(lambda: shown_element(b, "start"))
    b.find_element(By.ID, "seed").send_keys("5")
    Select(b.find_element(By.ID, "seat-A")).select_by_value("random")
    b.find_element(By.ID, "start").click()
    wait_until(lambda: "game=" in b.current_url)
    Select(b.find_element(By.ID, "speed")).select_by_index(3)
    wait_until(lambda: shown_element(b, "game-over"), timeout=120)
    # opened again: Chromium throttles the navigations of a page that rewrote its address
    # for every fast bot step
    b.get(b.current_url)
    wait_until(lambda: shown_element(b, "game-over"))
    b.find_element(By.ID, "replay-game").click()
    wait_until(lambda: shown_element(b, "frame-label"))
    for _ in range(30):
        b.find_element(By.ID, "forward").click()
    wait_until(lambda: b.find_element(By.ID, "frame-label").text.startswith("Step 30 "))
    save(b, "web-replay.png")


def phone(base: str) -> None:
    b = start_browser(PHONE)
    try:
        b.get(base + "ludo")
        wait_until(lambda: shown_element(b, "start"))
        b.find_element(By.ID, "start").click()
        wait_until(lambda: shown_element(b, "roll"))
        save(b, "web-phone.png")
    finally:
        b.quit()


def phone_onitama(base: str) -> None:
    """Onitama on a phone, side B on it by an invite link from a desktop page: the board
    takes the width, who is connected and B's turn timer show."""
    host = start_browser()
    b = start_browser(PHONE)
    try:
        host.get(base + "onitama")
        wait_until(lambda: shown_element(host, "start"))
        Select(host.find_element(By.ID, "side-B")).select_by_value("remote")
        Select(host.find_element(By.ID, "timer-seconds")).select_by_value("60")
        host.find_element(By.ID, "start").click()
        link = wait_until(lambda: shown_element(host, "invite-B")).get_attribute("value")
        b.get(link)
        wait_until(lambda: "You play B" in "".join(e.text for e in b.find_elements(By.ID, "role")))
        host.find_elements(By.CSS_SELECTOR, "#board g.square.movable")[1].click()
        host.find_elements(By.CSS_SELECTOR, "#board g.square.target")[0].click()
        walls = host.find_elements(By.CSS_SELECTOR, "#wall-choice button[data-action]")
        if walls:
            walls[0].click()
        wait_until(lambda: shown_element(b, "turn-timer"))
        save(b, "web-phone-onitama.png")
    finally:
        b.quit()
        host.quit()


def shown_at(b: Any, name: str, element: str) -> None:
    """Save the page scrolled so that `element` (an id) is at the top of the screen."""
    b.execute_script(
        "const e = document.getElementById(arguments[0]);"
        "window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 8)",
        element,
    )
    time.sleep(0.2)
    b.save_screenshot(str(IMAGES / name))
    print(f"wrote docs/images/{name}")


def two_devices(base: str, host: Any, guest: Any) -> None:
    """The two-device flow on two phones: the host's form with a seat on another device,
    the invite panel, and the guest's page in its seat after the host's first roll."""
    host.get(base + "ludo")
    wait_until(lambda: shown_element(host, "start"))
    Select(host.find_element(By.ID, "seat-B")).select_by_value("remote")
    Select(host.find_element(By.ID, "timer-seconds")).select_by_value("60")
    shown_at(host, "web-flow-new.png", "seat-A")
    host.find_element(By.ID, "start").click()
    link = wait_until(lambda: shown_element(host, "invite-B")).get_attribute("value")
    guest.get(link)
    wait_until(lambda: "You play B" in guest.find_element(By.ID, "role").text)
    wait_until(lambda: "B ● online" in host.find_element(By.ID, "connected").text)
    shown_at(host, "web-flow-invite.png", "invite")
    wait_until(lambda: host.find_element(By.ID, "roll").is_enabled())
    host.find_element(By.ID, "roll").click()
    wait_until(lambda: history_len(guest) >= 1)
    save(guest, "web-flow-guest.png")


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    host, guest = start_browser(PHONE), start_browser(PHONE)
    try:
        with running_server("--store", "memory") as base:
            b = start_browser()
            try:
                ludo_form(b, base)
                ludo_midgame(b, base)
                ludo_over(b, base)
                onitama_midgame(b, base)
                replay(b, base)
            finally:
                b.quit()
            phone(base)
            phone_onitama(base)
            two_devices(base, host, guest)
        # the server stopped: the guest's page says the connection is lost
        wait_until(lambda: shown_element(guest, "connection"))
        save(guest, "web-flow-lost.png")
    finally:
        host.quit()
        guest.quit()


if __name__ == "__main__":
    main()
