"""Draw docs/img/reveal.png: the live reveal page showing a committed raffle's grand prize.

Usage: python tools/make_reveal_screenshot.py

Makes a raffle of twelve entrants and a prize table, commits it and draws it with a revealed
value (the real command line, in a temporary folder), then opens verifier/reveal.html from
disk in the system's headless Chromium (/usr/bin/chromium, through Python Playwright; no
browser is downloaded) at a projector's 1280 x 720, gives it the commitment, the list and
the value, starts the reveal and presses Next until the grand prize's winner is on screen.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from xlshuffle.cli import main as xlshuffle

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img" / "reveal.png"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NAMES = ("Ann", "Bo", "Cy", "Dee", "Ed", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lee")
RAFFLE = "Ticket,Name,Tickets\n" + "".join(
    f"T-{n:03d},{name},{n % 3 + 1}\n" for n, name in enumerate(NAMES, 101)
)
PRIZES = "Third prize,2,1\nSecond prize,1,1\nGrand prize,1,1\n"


def main() -> None:
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="reveal-shot-"))
    (folder / "raffle.csv").write_text(RAFFLE, encoding="utf-8")
    (folder / "prizes.csv").write_text(PRIZES, encoding="utf-8")
    beacon = "EuroMillions of Friday 4 December 2026: the five main numbers, ascending"
    f = {n: str(folder / n) for n in ("raffle.csv", "prizes.csv", "c.json", "w.csv", "r.json")}
    commit = ["commit", f["raffle.csv"], "--prizes", f["prizes.csv"], "--weights", "Tickets"]
    commit += ["--id", "Ticket", "--beacon", beacon, "-o", f["c.json"]]
    draw = ["draw", f["c.json"], f["raffle.csv"], "--reveal", "4 17 23 38 45", "-o", f["w.csv"]]
    if xlshuffle(commit) or xlshuffle([*draw, "--record", f["r.json"]]):
        raise SystemExit("the commit or the draw failed: see the message above")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto((ROOT / "verifier" / "reveal.html").as_uri())
        page.fill("#commitment", Path(f["c.json"]).read_text(encoding="utf-8"))
        page.set_input_files("#files", [f["raffle.csv"]])
        page.fill("#reveal", "4 17 23 38 45")
        page.click("#check")
        page.wait_for_function("document.querySelector('#status').className === 'ok'")
        page.select_option("#show-column", "Name")
        page.click("#start")
        while page.inner_text("#heading") != "Grand prize" or not page.query_selector("#names li"):
            page.click("#next")
        OUT.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(OUT))
        browser.close()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
