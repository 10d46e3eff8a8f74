"""Driving Debian's Chromium with Playwright for the browser tests (tests/rattus/test_browser.py).

The tests skip, saying why, where no browser is installed (`make browser`
installs Debian's ``chromium`` package) or Playwright is missing.  Screenshots
go to ``$RATTUS_SCREENSHOTS`` if set, else to pytest's temporary folder.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rattus_rules.tools.views.play import PlayServer, make_play_server

#: Debian's Chromium (package ``chromium``); RATTUS_CHROMIUM names another binary.
CHROMIUM = os.environ.get("RATTUS_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Window widths the pages are looked at: a large laptop, a small one, a phone.
WIDTHS = {"1440": (1440, 900), "1280": (1280, 800), "phone": (390, 844)}


def chromium_path() -> str | None:
    """The browser binary, or None if there is none."""
    found = shutil.which(CHROMIUM) if not os.path.isabs(CHROMIUM) else CHROMIUM
    return found if found and os.access(found, os.X_OK) else None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium, shared by a module's tests."""
    binary = chromium_path()
    if binary is None:
        pytest.skip(f"no Chromium at {CHROMIUM}: `make browser` installs Debian's chromium package "
                    "(or set RATTUS_CHROMIUM)")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="Playwright is not installed: pip install -e '.[test]'")
    with sync_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=binary, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


class Watched:
    """A page with every console error, page error and request it made."""

    def __init__(self, browser: Any, width: int, height: int) -> None:
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def close(self) -> None:
        """Close the page."""
        self.page.close()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """``open_page(width, height)``: a new watched page; closed after the test."""
    pages: list[Watched] = []

    def make(width: int = 1280, height: int = 800) -> Watched:
        pages.append(Watched(browser, width, height))
        return pages[-1]

    yield make
    for p in pages:
        p.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go."""
    wanted = os.environ.get("RATTUS_SCREENSHOTS")
    if wanted:
        Path(wanted).mkdir(parents=True, exist_ok=True)
        return Path(wanted)
    return tmp_path_factory.mktemp("screenshots")


def screenshot(page: Any, folder: Path, name: str) -> Path:
    """Take a full-page screenshot and check it is a picture."""
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000
    return path


@contextlib.contextmanager
def serving(server: PlayServer) -> Iterator[str]:
    """Serve a play server on a free port of 127.0.0.1 in a thread; yields its address (``http://…/``)."""
    httpd = make_play_server(server, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)
