"""Draw docs/img/verifier.png: the browser verifier checking a committed raffle.

Usage: python tools/make_verifier_screenshot.py

Makes a six-entrant raffle, commits it, draws it with a revealed value (the real command
line, in a temporary folder), then opens verifier/index.html from disk in the system's
headless Chromium (/usr/bin/chromium, through Python Playwright; no browser is
downloaded), gives it the record and the files, presses Verify and saves the page.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from xlshuffle.cli import main as xlshuffle

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img" / "verifier.png"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
RAFFLE = "Name,Email,Tickets\n" + "".join(
    f"{name},{name.lower()}@example.com,{tickets}\n"
    for name, tickets in (("Ann", 3), ("Bo", 1), ("Cy", 2), ("Dee", 5), ("Ed", 1), ("Fay", 2))
)


def main() -> None:
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="verifier-shot-"))
    (folder / "raffle.csv").write_text(RAFFLE, encoding="utf-8")
    beacon = "EuroMillions of Friday 4 December 2026: the five main numbers, ascending"
    f = {name: str(folder / name) for name in ("raffle.csv", "c.json", "w.csv", "r.json")}
    commit = ["commit", f["raffle.csv"], "-k", "2", "--weights", "Tickets", "--beacon", beacon]
    draw = ["draw", f["c.json"], f["raffle.csv"], "--reveal", "4 17 23 38 45", "-o", f["w.csv"]]
    if xlshuffle([*commit, "-o", f["c.json"]]) or xlshuffle([*draw, "--record", f["r.json"]]):
        raise SystemExit("the commit or the draw failed: see the message above")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        page.goto((ROOT / "verifier" / "index.html").as_uri())
        page.fill("#record", Path(f["r.json"]).read_text(encoding="utf-8"))
        page.set_input_files("#files", [f["raffle.csv"], f["w.csv"]])
        page.click("#verify")
        page.wait_for_function("!document.querySelector('#verdict').classList.contains('pending')")
        OUT.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(OUT), full_page=True)
        browser.close()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
