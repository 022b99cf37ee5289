"""Where the test suite's time goes: per file, for the quick part (``-m "not slow"``) and the
whole suite, from one run of the whole suite.

Usage, from the project root::

    XLSHUFFLE_REQUIRE=libreoffice,pyodide,corpus,chromium \\
        .venv/bin/python -m pytest -p no:cacheprovider --junitxml=/tmp/suite.xml
    .venv/bin/python tools/suite_times.py /tmp/suite.xml

A test's time is its setup, call and teardown together (pytest's junit ``time``), so a
module-scoped fixture that starts LibreOffice, Node or Chromium is charged to the first test
that asks for it. Which tests are quick is not in the report: they are collected here with
``pytest --collect-only -m "not slow"`` (a few seconds), or read from ``--quick IDS`` (one
node id a line). The text of ``pytest --durations=0`` can stand in for the junit file
(``--durations-min`` leaves the shortest out: the sums are then a little low).

It prints the wall time of the run, the summed time of each part, the files by time, the
slowest tests left in the quick part, and every quick test over ``--limit`` seconds (10 by
default): those should be marked ``slow`` or made fast.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# "12.34s call     tests/test_x.py::test_y[a b]", as pytest --durations prints them
_DURATION = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+(\S.*?)\s*$")


def junit_key(nodeid: str) -> tuple[str, str]:
    """(classname, name) of a node id, the way pytest's junitxml writes them."""
    path, bracket, params = nodeid.partition("[")
    names = path.split("::")
    names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
    names[-1] += bracket + params
    return ".".join(names[:-1]), names[-1]


def from_junit(path: Path) -> tuple[dict[tuple[str, str], float], float | None]:
    """Seconds per test, keyed as junit keys them, and the run's wall time."""
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    times: dict[tuple[str, str], float] = defaultdict(float)
    for case in root.iter("testcase"):
        times[case.get("classname", ""), case.get("name", "")] += float(case.get("time", 0))
    wall = sum(float(s.get("time", 0)) for s in suites) or None
    return dict(times), wall


def from_durations(path: Path) -> tuple[dict[tuple[str, str], float], float | None]:
    """Seconds per test from the text of ``pytest --durations=0`` (phases added up)."""
    times: dict[tuple[str, str], float] = defaultdict(float)
    wall = None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if m := _DURATION.match(line):
            times[junit_key(m[3])] += float(m[1])
        elif m := re.search(r" in ([0-9.]+)s(?: \(|\s*=*$)", line):
            wall = float(m[1])
    return dict(times), wall


def collect(marker: str | None) -> list[str]:
    """The node ids pytest collects here, with ``-m marker`` if given."""
    argv = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    if marker:
        argv += ["-m", marker]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    ids = [line for line in done.stdout.splitlines() if "::" in line and " " not in line[:1]]
    if not ids:
        raise SystemExit(f"pytest collected nothing:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return ids


def per_file(ids: list[str], times: dict[tuple[str, str], float]) -> dict[str, float]:
    files: dict[str, float] = defaultdict(float)
    for nodeid in ids:
        files[nodeid.split("::")[0]] += times.get(junit_key(nodeid), 0.0)
    return dict(files)


def table(title: str, files: dict[str, float], count: dict[str, int], top: int) -> None:
    total = sum(files.values())
    print(f"\n{title}: {sum(count.values())} tests, {total:.0f} s summed")
    print(f"{'seconds':>9} {'share':>6} {'tests':>6}  file")
    for name, seconds in sorted(files.items(), key=lambda kv: -kv[1])[:top]:
        share = seconds / total if total else 0.0
        print(f"{seconds:9.1f} {share:6.1%} {count[name]:6d}  {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=Path, help="junit xml, or the text of --durations=0")
    parser.add_argument("--quick", type=Path, help="the quick part's node ids, one a line")
    parser.add_argument("--files", type=int, default=30, help="files shown per part (30)")
    parser.add_argument("--slowest", type=int, default=10, help="slowest quick tests shown")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds a quick test may take")
    args = parser.parse_args(argv)

    text = args.report.read_bytes()[:200].lstrip()
    times, wall = (from_junit if text.startswith(b"<") else from_durations)(args.report)
    full = collect(None)
    quick = (
        [line.strip() for line in args.quick.read_text().splitlines() if "::" in line]
        if args.quick
        else collect("not slow")
    )
    seen = {junit_key(n) for n in full}
    missing = [k for k in times if k not in seen]

    def counts(ids: list[str]) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for nodeid in ids:
            out[nodeid.split("::")[0]] += 1
        return out

    if wall is not None:
        print(f"wall time of the run: {wall:.0f} s")
    print(f"marked slow: {len(full) - len(quick)} of {len(full)} collected")
    if missing:
        print(f"{len(missing)} timed tests are no longer collected (a stale report?)")
    table("whole suite", per_file(full, times), counts(full), args.files)
    table('quick part (-m "not slow")', per_file(quick, times), counts(quick), args.files)

    ranked = sorted(quick, key=lambda n: -times.get(junit_key(n), 0.0))
    print(f"\nslowest {args.slowest} quick tests:")
    for nodeid in ranked[: args.slowest]:
        print(f"{times.get(junit_key(nodeid), 0.0):9.2f}  {nodeid}")
    over = [n for n in ranked if times.get(junit_key(n), 0.0) > args.limit]
    print(f"\nquick tests over {args.limit:g} s: {len(over)}")
    for nodeid in over:
        print(f"{times[junit_key(nodeid)]:9.2f}  {nodeid}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
