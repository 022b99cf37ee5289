"""Benchmark: verifier/index.html in headless Chromium against ``xlshuffle verify``.

For each size, one workbook of ``n`` data rows x 5 columns (benchmarks/bench_batch.py's
generator: shared strings, a date, a float and a same-row formula, as Excel writes them) is
shuffled with ``xlshuffle shuffle IN -o OUT --seed bench --record R``; then, in the same run
and on the same files:

* **page** - the record and both files handed to ``window.xlshuffleVerify`` of the page loaded
  from disk (file://) in the system's Chromium, through its hidden-free file input, timed
  inside the page (``performance.now()``) from the call to its verdict;
* **cli** - ``xlshuffle verify R --input IN --output OUT`` in a fresh Python process.

The target: a 100,000-row workbook verified "in seconds".

Usage::

    .venv/bin/python benchmarks/bench_verifier.py                 # 10,000 and 100,000 rows
    .venv/bin/python benchmarks/bench_verifier.py --rows 100000 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_batch import make_workbook  # noqa: E402

PAGE = ROOT / "verifier" / "index.html"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def xlshuffle(*args: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "xlshuffle", *args], env=env, check=True,
                   capture_output=True)  # fmt: skip
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.goto(PAGE.as_uri())
        print(f"{'rows':>9} {'MB':>6} {'page s':>8} {'cli s':>7} {'page/cli':>8}  verdict")
        for n in args.rows:
            src, out, rec = (str(Path(tmp) / f"{n}{x}") for x in (".xlsx", ".out.xlsx", ".json"))
            make_workbook(src, n)
            xlshuffle("shuffle", src, "-o", out, "--seed", "bench", "--record", rec)
            record = Path(rec).read_text(encoding="utf-8")
            for _ in range(args.repeat):
                page.set_input_files("#files", [src, out])
                result = page.evaluate(
                    """async (record) => {
                      const files = Array.from(document.getElementById("files").files);
                      const t = performance.now();
                      const r = await window.xlshuffleVerify({record, files});
                      return {...r, seconds: (performance.now() - t) / 1000};
                    }""",
                    record,
                )
                cli = xlshuffle("verify", rec, "--input", src, "--output", out)
                mb = (Path(src).stat().st_size + Path(out).stat().st_size) / 1e6
                verdict = "verified" if result["verified"] else result["message"][:60]
                print(
                    f"{n:>9,} {mb:>6.1f} {result['seconds']:>8.2f} {cli:>7.2f} "
                    f"{result['seconds'] / cli:>8.2f}  {verdict}",
                    flush=True,
                )
        browser.close()


if __name__ == "__main__":
    main()
