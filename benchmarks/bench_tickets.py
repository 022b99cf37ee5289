"""Benchmark: 1,000 winners of a ticket draw from 10^7 and 10^8 IDs, in CSV and Parquet.

Usage: python benchmarks/bench_tickets.py [--sizes 10000000,100000000] [--formats csv,parquet]
       [--k 1000] [--dir DIR] [--spark] [--threads N]

For each size and format, a file of N IDs (``P000000001,N``: an ID and a region, ~13 bytes
a row as CSV) is written once (kept in ``--dir`` for later runs), then two commands run,
each in a fresh process whose wall time and peak memory (the child's maximum resident
set, from ``wait4``) are taken:

- the whole command, ``xlshuffle sample FILE -k K --method ticket --id ID --seed bench
  --engine duckdb -o winners.csv --record r.json`` (the draw, the second pass that finds
  the winners' rows, the input's SHA-256, the output and the record);
- the floor, DuckDB's own bare ``SELECT ID, sha256(prefix || ID) AS t FROM FILE ORDER BY t
  LIMIT K`` over the same file, in the same run.

Printed: both figures and their ratio (targets: within 1.5x of the floor, under 1 GB at
10^8), and each child's CPU seconds (user and system, every thread): on a machine other
work shares, the CPU ratio is the steadier figure, since wall times then swing with the
load. With ``--spark``, the query ``xlshuffle sql --dialect spark`` prints is also run
on a local Spark session (``local[2]``) over the smallest size's file: the session's start,
and the query's time. No figure is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

from xlshuffle.draw.tickets import ticket_prefix

BARE = """
import duckdb, sys
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
{threads}
con.execute(sys.argv[1]).fetchall()
"""

SPARK = """
import sys, time
t0 = time.time()
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.driver.memory", "2g").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
path, query = sys.argv[1], open(sys.argv[2]).read()
reader = spark.read.option("header", True) if path.endswith(".csv") else spark.read
frame = reader.csv(path) if path.endswith(".csv") else reader.parquet(path)
frame.createOrReplaceTempView("entrants")
t1 = time.time()
rows = spark.sql(query).collect()
t2 = time.time()
print(f"{t1 - t0:.1f} {t2 - t1:.1f} {len(rows)}")
spark.stop()
"""


def _reader(path: str) -> str:
    if path.endswith(".parquet"):
        return f"read_parquet('{path}')"
    return f"read_csv('{path}', header = true, all_varchar = true)"


def _make(folder: str, n: int, fmt: str) -> str:
    import duckdb

    path = os.path.join(folder, f"ids-{n}.{fmt}")
    if os.path.exists(path):
        return path
    rows = (
        f"SELECT 'P' || lpad(CAST(i AS VARCHAR), 9, '0') AS ID, "
        f"['N', 'S', 'E', 'W'][1 + i % 4] AS Region FROM range({n}) t(i)"
    )
    how = "(HEADER, DELIMITER ',')" if fmt == "csv" else "(FORMAT parquet)"
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute(f"COPY ({rows}) TO '{path}.part' {how}")
    os.replace(f"{path}.part", path)
    return path


def _child(argv: list[str]) -> tuple[float, float, float]:
    """Wall seconds, peak resident MB and CPU seconds of one child process (its output
    discarded)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv[:4]} failed: {err}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime  # KB on Linux


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000000,100000000")
    ap.add_argument("--formats", default="csv,parquet")
    ap.add_argument("--k", type=int, default=1000)
    ap.add_argument("--dir", help="keep the generated files here (default: a temp folder)")
    ap.add_argument("--spark", action="store_true", help="also run the Spark SQL query")
    ap.add_argument("--threads", type=int, help="DuckDB threads for the floor (default: all)")
    args = ap.parse_args()
    folder = args.dir or tempfile.mkdtemp(prefix="xlshuffle-bench-")
    os.makedirs(folder, exist_ok=True)
    sizes = [int(float(s)) for s in args.sizes.split(",")]
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, k={args.k}, files in {folder}"
    )
    prefix = ticket_prefix("bench")
    threads = "" if args.threads is None else f'con.execute("SET threads = {args.threads}")'
    print(
        f"{'file':<28} {'command s':>9} {'MB':>6} {'bare s':>7} {'MB':>6} {'ratio':>6} "
        f"{'cpu s':>6} {'bare':>6} {'ratio':>6}"
    )
    for n in sizes:
        for fmt in args.formats.split(","):
            t0 = time.perf_counter()
            path = _make(folder, n, fmt)
            made = time.perf_counter() - t0
            size_mb = os.path.getsize(path) / 2**20
            out = os.path.join(folder, "winners.csv")
            command = [
                sys.executable, "-m", "xlshuffle", "sample", path, "-k", str(args.k),
                "--method", "ticket", "--id", "ID", "--seed", "bench", "--engine", "duckdb",
                "-o", out, "--record", os.path.join(folder, "r.json"), "--overwrite",
            ]  # fmt: skip
            bare_sql = (
                f"SELECT ID, sha256('{prefix}0/' || ID) AS t FROM {_reader(path)} "
                f"ORDER BY t LIMIT {args.k}"
            )
            bare = [sys.executable, "-c", BARE.format(threads=threads), bare_sql]
            wall, mem, cpu = _child(command)
            bwall, bmem, bcpu = _child(bare)
            name = f"{n:.0e} {fmt} ({size_mb:,.0f} MB)"
            print(
                f"{name:<28} {wall:9.1f} {mem:6.0f} {bwall:7.1f} {bmem:6.0f} "
                f"{wall / bwall:5.2f}x {cpu:6.1f} {bcpu:6.1f} {cpu / bcpu:5.2f}x  "
                f"(file made in {made:.0f} s)",
                flush=True,
            )
    if args.spark:
        n = min(sizes)
        path = _make(folder, n, "csv")
        query = subprocess.run(
            [sys.executable, "-m", "xlshuffle", "sql", "--dialect", "spark", "--table",
             "entrants", "--id", "ID", "-k", str(args.k), "--seed", "bench"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        qfile = os.path.join(folder, "spark.sql")
        with open(qfile, "w", encoding="utf-8") as fh:
            fh.write(query)
        done = subprocess.run(
            [sys.executable, "-c", SPARK, path, qfile], capture_output=True, text=True
        )
        if done.returncode != 0:
            print(f"spark: failed: {done.stderr[-500:]}")
        else:
            start, took, rows = done.stdout.split()
            print(
                f"spark local[2], {n:.0e} csv: session and read {start} s, query {took} s", end=""
            )
            print(f", {rows} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
