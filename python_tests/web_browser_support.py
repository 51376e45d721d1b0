"""Driving `ludo serve` in a real browser: start the server on a free loopback port, open
headless Chromium through Selenium, and wait for the page as a person would.

Used by test_web_browser.py and by docs/screenshots.py. The browser is Debian's `chromium`
with `chromium-driver` (`apt-get install chromium chromium-driver`)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

#: Set (to 1) in CI: a missing browser fails the browser tests instead of skipping them.
REQUIRE_ENV = "LUDOGAME_REQUIRE_BROWSER"

DESKTOP = (1280, 900)
PHONE = (390, 844)
#: The narrowest phone the pages are made for (a small Android phone's CSS width).
SMALL_PHONE = (360, 740)


def find_browser() -> tuple[str, str] | None:
    """The paths of chromium and chromedriver, or None when either is missing."""
    chromium = (
        os.environ.get("CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
        or shutil.which("google-chrome")
    )
    driver = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    if chromium is None or driver is None:
        return None
    return chromium, driver


def missing_reason() -> str | None:
    """Why the browser tests cannot run here (None when they can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return 'selenium is not installed: pip install -e ".[test]"'
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return 'the web extra is not installed: pip install -e ".[test]"'
    if find_browser() is None:
        return (
            "chromium and chromedriver are not installed: apt-get install chromium chromium-driver"
        )
    return None


def require_browser() -> None:
    """At a browser test module's top: skip the module when the browser tests cannot run
    here, or fail it under LUDOGAME_REQUIRE_BROWSER=1 (CI), saying why."""
    missing = missing_reason()
    if missing is None:
        return
    if os.environ.get(REQUIRE_ENV) == "1":
        raise RuntimeError(f"the browser tests cannot run ({REQUIRE_ENV}=1): {missing}")
    import pytest

    pytest.skip(f"browser tests skipped: {missing}", allow_module_level=True)


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(*extra: str, timeout: float = 30.0, port: int | None = None) -> Iterator[str]:
    """`ludo serve` (with `extra` arguments) on a free loopback port (or `port`); yields the
    address it prints (its base URL ending in '/', or the replay's page with --replay) once
    it answers, and stops it afterwards."""
    port = free_port() if port is None else port
    cmd = [sys.executable, "-m", "LudoGame", "serve", "--port", str(port), *extra]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + timeout
        line = proc.stdout.readline()
        while "serving at" not in line:
            if proc.poll() is not None or time.monotonic() > deadline:
                rest = proc.stdout.read() if proc.poll() is not None else ""
                raise RuntimeError(f"ludo serve did not start: {line}{rest}")
            line = proc.stdout.readline()
        base = f"http://127.0.0.1:{port}/"
        url = line.split("serving at", 1)[1].strip()
        assert url.startswith(base), line
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def start_browser(size: tuple[int, int] = DESKTOP, downloads: Path | None = None) -> Any:
    """Headless Chromium through chromedriver, with the window `size` and, if given, files
    downloaded into `downloads` without asking."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    paths = find_browser()
    assert paths is not None, missing_reason()
    chromium, driver = paths
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={size[0]},{size[1]}",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if downloads is not None:
        options.add_experimental_option(
            "prefs",
            {
                "download.default_directory": str(downloads),
                "download.prompt_for_download": False,
                "safebrowsing.enabled": True,
            },
        )
    browser = webdriver.Chrome(service=Service(driver), options=options)
    browser.set_window_size(*size)
    return browser


def wait_until(
    condition: Callable[[], T | None], timeout: float = 15.0, what: str = "the page"
) -> T:
    """Polls `condition` until it gives a truthy value (returned); fails after `timeout`
    seconds naming `what` it waited for."""
    from selenium.common.exceptions import StaleElementReferenceException

    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except StaleElementReferenceException:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.03)


def page_errors(browser: Any) -> list[str]:
    """The JavaScript errors the page logged since the last call (severe console entries,
    leaving out the 4xx answers the tests provoke on purpose)."""
    return [
        e["message"]
        for e in browser.get_log("browser")
        if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]
    ]


def shown_element(browser: Any, name: str) -> Any:
    """The element with id `name` when it is on the page and visible, else None."""
    from selenium.webdriver.common.by import By

    found = browser.find_elements(By.ID, name)
    return found[0] if found and found[0].is_displayed() else None


def history_len(browser: Any) -> int:
    """The entries of the page's history list (Ludo's events, Onitama's plies)."""
    from selenium.webdriver.common.by import By

    return len(browser.find_elements(By.CSS_SELECTOR, "#history li"))


def play_onitama_by_clicks(
    browser: Any,
    most: int,
    piece: int = 0,
    check_choices: Callable[[list[Any]], None] | None = None,
) -> int:
    """Play the person's plies of the Onitama page by clicks until its game-over panel
    shows, as a person does: the movable piece `piece` (an index of those offered), its
    first target, then the first of the choices that may follow (the wall's step, or the
    card when both reach the target; `check_choices` sees them first); a pass when no
    piece can move. Returns the plies played, at most `most`."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    def find(css: str) -> list[Any]:
        return list(browser.find_elements(By.CSS_SELECTOR, css))

    mine = 0
    while not shown_element(browser, "game-over"):
        pieces = find("#board g.square.movable")
        passes = find("#passes button.pass")
        if not pieces and not (passes and passes[0].is_displayed()):
            wait_until(
                lambda: (
                    find("#board g.square.movable")
                    or find("#passes button.pass")
                    or shown_element(browser, "game-over")
                ),
                what="the AI to play",
            )
            continue
        before = history_len(browser)
        try:
            if pieces:
                pieces[piece].click()
                targets = find("#board g.square.target")
                assert targets, "a movable piece highlights its targets"
                targets[0].click()
                choices = find("#wall-choice button[data-action]")
                if choices:
                    if check_choices is not None:
                        check_choices(choices)
                    choices[0].click()
            else:
                passes[0].click()
        except StaleElementReferenceException:
            # The live connection drew the board again between finding and clicking: find
            # the pieces again (nothing was played).
            continue
        mine += 1
        wait_until(lambda n=before: history_len(browser) > n, what="the ply to be played")
        assert mine < most, f"more than {most} plies of the person's"
    return mine
