"""SHUFFLE of a 100,000 x 5 range through xlwings' custom-function call path.

Baseline, measured in the same run: an identity function with the same argument options
through the same path, i.e. what xlwings' conversion in and out costs on its own (the
conversion floor). Reports SHUFFLE's time as a ratio to that floor, and the share of the
call spent in xlshuffle itself (SHUFFLE called as plain Python on the converted cells).
Target: that share under 10%.

    python benchmarks/bench_udf.py [--rows N] [--repeat R] [--cpython-pyodide-import]

On CPython, xlwings' conversion tries ``from pyodide.ffi import JsNull`` once per cell
(about 45 us each, 22 s for 500,000 cells) because that import fails and is retried every
time; in xlwings Lite it succeeds and is cached. By default this script sets
``sys.modules["pyodide"] = None`` so the failing import is cheap and the figures reflect
the conversion itself; ``--cpython-pyodide-import`` measures the untreated path.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import time
import types
from typing import Any

os.environ.setdefault("XLWINGS_ON_SERVER", "true")  # before xlwings is imported
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

import xlwings as xw
from xlwings.server import custom_functions_call

from xlshuffle import excel


@xw.func
@xw.arg("data", ndim=2, err_to_str=True)
def IDENTITY(data: Any) -> list[Any]:
    """Returns its input: the conversion floor."""
    return data  # type: ignore[no-any-return]


floor = types.ModuleType("floor")
floor.IDENTITY = IDENTITY  # type: ignore[attr-defined]


def body(name: str, args: list[Any]) -> dict[str, Any]:
    return {
        "client": "Office.js",
        "func_name": name,
        "args": args,
        "caller_address": "[Book1.xlsx]Sheet1!A1",
        "culture_info_name": "en-US",
        "date_format": "M/d/yyyy",
        "version": xw.__version__,
        "runtime": "1.4",
    }


def best(repeat: int, fn: Any) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cpython-pyodide-import", action="store_true")
    args = parser.parse_args()
    if not args.cpython_pyodide_import:
        sys.modules["pyodide"] = None  # type: ignore[assignment]

    # What Office.js sends: numbers, text, a blank now and then.
    data = [
        [i, f"name {i}", i * 0.5, "" if i % 7 == 0 else "x", i % 3 == 0] for i in range(args.rows)
    ]
    seed = [["bench"]]
    warm_up = [row[:] for row in data[:100]]
    asyncio.run(custom_functions_call(body("IDENTITY", [warm_up]), floor))
    asyncio.run(custom_functions_call(body("SHUFFLE", [warm_up, seed, None, None]), excel))

    t_floor = best(
        args.repeat, lambda: asyncio.run(custom_functions_call(body("IDENTITY", [data]), floor))
    )
    t_udf = best(
        args.repeat,
        lambda: asyncio.run(
            custom_functions_call(body("SHUFFLE", [data, seed, None, None]), excel)
        ),
    )
    converted = [[None if v == "" else v for v in row] for row in data]
    t_own = best(args.repeat, lambda: excel.SHUFFLE(converted, "bench"))

    cells = args.rows * 5
    print(
        f"SHUFFLE of {args.rows:,} x 5 ({cells:,} cells) through custom_functions_call; "
        f"xlwings {xw.__version__}, Python {platform.python_version()}, "
        f"best of {args.repeat}"
        + ("" if args.cpython_pyodide_import else ', sys.modules["pyodide"] = None')
    )
    print(f"  identity (conversion floor)      {t_floor:7.3f} s")
    print(f"  SHUFFLE                          {t_udf:7.3f} s   {t_udf / t_floor:.2f} x the floor")
    print(
        f"  xlshuffle's own part             {t_own:7.3f} s   "
        f"{100 * t_own / t_udf:.1f}% of the call (target < 10%)"
    )


if __name__ == "__main__":
    main()
