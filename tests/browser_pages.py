"""Headless Chromium for the tests of the browser pages (verifier/index.html,
verifier/reveal.html), and what those tests share.

A test module imports the ``chromium`` fixture (:func:`chromium_browser`) from here and opens
its tabs with :func:`opened`: one browser (the system's /usr/bin/chromium, Debian package
``chromium``, driven by Python Playwright; no browser is downloaded) for the whole module,
closed when the module ends, so a session never runs two at once on its shared cores. It is
not kept for the whole session: while Playwright's sync API is open it holds its event loop
running in the main thread, and every later test that calls ``asyncio.run`` would fail.
Without Chromium or Playwright the tests skip, unless XLSHUFFLE_REQUIRE lists ``chromium``
(CI), when they fail.
"""

from __future__ import annotations

import base64
import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from support import ROOT, require

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module", name="chromium")
def chromium_browser() -> Iterator[Any]:
    """The module's headless Chromium (a Playwright Browser)."""
    require(
        "chromium",
        CHROMIUM.exists(),
        f"{CHROMIUM} is missing: install the Debian package `chromium`",
    )
    require(
        "chromium",
        importlib.util.find_spec("playwright") is not None,
        "the Python package playwright is missing: pip install -e '.[test]'",
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@contextmanager
def opened(browser: Any, page: Path, ready: str, **options: Any) -> Iterator[Any]:
    """A tab of ``browser`` on ``page``, from disk, once ``ready`` (a script) is true; on
    leaving, the page must have thrown nothing and loaded nothing but itself."""
    tab = browser.new_page(**options)
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("request", lambda r: r.url == page.as_uri() or errors.append(f"request {r.url}"))
    tab.goto(page.as_uri())
    tab.wait_for_function(ready)
    yield tab
    tab.close()
    assert not errors, errors


def files_arg(files: list[Path | tuple[str, bytes]]) -> list[dict[str, str]]:
    """Files as a page script receives them: names and base64 bytes (see FILES_JS)."""
    out = []
    for f in files:
        name, data = (f.name, f.read_bytes()) if isinstance(f, Path) else f
        out.append({"name": name, "b64": base64.b64encode(data).decode("ascii")})
    return out


#: A script's expression for the File objects of ``a.files`` (made by :func:`files_arg`).
FILES_JS = (
    "a.files.map((f) => new File([Uint8Array.from(atob(f.b64), (ch) => ch.charCodeAt(0))], f.name))"
)


def cli(*args: str | Path, cwd: Path) -> str:
    """Run the real command line (``python -m xlshuffle``) in ``cwd``; its standard output."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "xlshuffle", *map(str, args)],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout
