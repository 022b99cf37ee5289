"""Benchmark: where the time of ``xlshuffle shuffle`` goes, stage by stage.

On bench_batch.py's generated workbook (5 columns: a number, a shared string, a date, a
float and a same-row formula), in a fresh Python process each:

* **stages** - the whole command, with each stage of ``workbook.api`` timed as it runs:
  the imports, opening the sheet (reading it, finding its rows, its used range and the
  layout rules), the draw, the plan, the restore fingerprint of the input's rows, and the
  commit (rewriting the rows while a second thread deflates them, then the write);
* **rewrite** - the rows rewritten alone (``move.cells.move_rows`` over the sheet already
  read), without deflating or writing.

Usage::

    .venv/bin/python benchmarks/bench_stages.py                  # 100,000 and 1,000,000 rows
    .venv/bin/python benchmarks/bench_stages.py --rows 100000
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_batch import make_workbook  # noqa: E402

STAGES = """
import json, sys, time
t0 = time.perf_counter()
from xlshuffle.cli import main
import xlshuffle.workbook.api as api
took = {"imports": time.perf_counter() - t0}
def timed(name, label):
    inner = getattr(api, name)
    def run(*args, **kwargs):
        t = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            took[label] = took.get(label, 0.0) + time.perf_counter() - t
    setattr(api, name, run)
for name, label in [("open_request", "open"), ("draw_permutation", "draw"),
                    ("plan_move", "plan"), ("fingerprint_beside", "fingerprint"),
                    ("fingerprint_for", "fingerprint"), ("write_workbook", "commit"),
                    ("make_record", "record")]:
    timed(name, label)
code = main(["shuffle", sys.argv[1], "-o", sys.argv[2], "--seed", "bench", "--record",
             sys.argv[2] + ".json", "--overwrite"])
assert code == 0, code
took["total"] = time.perf_counter() - t0
print(json.dumps(took))
"""

REWRITE = """
import json, random, sys, time, zipfile
from xlshuffle.workbook.formulas.translate import FormulaMover
from xlshuffle.workbook.move.cells import Region, move_rows
from xlshuffle.workbook.scan.sheet import SheetXml
with zipfile.ZipFile(sys.argv[1]) as z:
    sx = SheetXml(z.read("xl/worksheets/sheet1.xml"), "bench")
n = len(sx.numbers) - 1  # the header stays
perm = list(range(n))
random.Random(1).shuffle(perm)
t = time.perf_counter()
for _ in move_rows(sx, Region(2, n + 1, [1, 2, 3, 4, 5]), perm, FormulaMover(), {}):
    pass
print(json.dumps({"rewrite": time.perf_counter() - t}))
"""


def measure(code: str, *args: str) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run(
        [sys.executable, "-c", code, *args], check=True, capture_output=True, text=True, env=env
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    args = parser.parse_args()
    names = [
        "imports",
        "open",
        "draw",
        "plan",
        "fingerprint",
        "commit",
        "record",
        "total",
        "rewrite",
    ]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; seconds, one run each")
    print(f"{'rows':>9}  " + "  ".join(f"{n:>11}" for n in names))
    with tempfile.TemporaryDirectory() as folder:
        warm = os.path.join(folder, "warm.xlsx")
        make_workbook(warm, 10)
        measure(STAGES, warm, os.path.join(folder, "w.xlsx"))  # modules compiled, once
        for rows in args.rows:
            src = os.path.join(folder, f"in-{rows}.xlsx")
            make_workbook(src, rows)
            took = measure(STAGES, src, os.path.join(folder, "out.xlsx"))
            took |= measure(REWRITE, src)
            print(f"{rows:>9,}  " + "  ".join(f"{took.get(n, 0.0):>11.2f}" for n in names))


if __name__ == "__main__":
    main()
