"""Benchmark: the whole ``xlshuffle shuffle`` command against the floor and against openpyxl.

Measured in one run, on the same generated workbook, each in a fresh Python process that
also reports its peak resident memory:

* **floor** - ``zipfile`` reads every member of the workbook and deflates it again into a
  new zip: the least any tool that writes a new .xlsx must do;
* **openpyxl** - ``load_workbook`` + ``save``, what xlshuffle 0.1 was built on;
* **xlshuffle** - ``xlshuffle shuffle IN -o OUT --seed bench``, the whole command;
* **verify** - ``xlshuffle verify RECORD --input IN --output OUT``.

Targets (for every selection: a range, a table, columns): 1M x 5 within 3x the floor and under
400 MB; 100k x 5 at least 10x faster than openpyxl; verify of the 1M output under 15 s; every
producer's variant within 1.5x of the plain file at 100k.

Usage::

    .venv/bin/python benchmarks/bench_batch.py                      # 100,000 and 1,000,000 rows
    .venv/bin/python benchmarks/bench_batch.py --rows 100000 --repeat 3
    .venv/bin/python benchmarks/bench_batch.py --openpyxl-max 1000000   # openpyxl at 1M too (minutes, ~3 GB)
    .venv/bin/python benchmarks/bench_batch.py --variants default three-columns
    .venv/bin/python benchmarks/bench_batch.py --rows 100000 --producers plain no-r --no-verify

Each size is timed for each selection (``--variants``, all by default): ``default`` (the
whole used range, found by xlshuffle), ``whole-range`` (``--range A1:E{n+1} --header``, the
same cells named explicitly) and ``three-columns`` (``--range B1:D{n+1} --header``: only the
middle three cells of each row move, the rest stay).

And for each producer of the same workbook (``--producers``, all by default, up to
``--producers-max`` rows): ``plain`` (as generated), ``libreoffice`` (saved again by
LibreOffice headless, ``soffice --headless --convert-to xlsx``: ``aca="false"`` on every
formula, a style and a type on every cell, six attributes on every row), ``no-r`` (the
``r`` attributes of rows and cells stripped: legal, their places counted), ``inline``
(every 20th string written inline, ``t="inlineStr"``, as XlsxWriter's constant-memory
mode writes strings) and ``shared`` (the formula column as Excel saves a formula filled
down: one shared formula, its master in the first data row, a member in every other). Each producer's time is printed with its ratio to the plain file's,
measured in the same run, interleaved. Peak memory is the command's own plus that of the
second process that computes the restore fingerprint beside it (when one ran).

Rows have 5 columns: a number, a shared string, a date, a float and a same-row formula
(``=B7*2``) with its cached value. The workbook is written directly as XML (quick even at a
million rows), as Excel writes it: shared strings, a date style, ``r=`` on every row and cell.
"""

# ruff: noqa: E501  (the literal XML parts of the generated workbook are long lines)
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable

_PEAK = """
def peak_mb():
    # Linux: this program's own peak (ru_maxrss also counts the pages of the process it was
    # started from, which a benchmark that built a big workbook holds)
    try:
        with open("/proc/self/status") as fh:
            return next(int(x.split()[1]) for x in fh if x.startswith("VmHWM")) / 1024
    except (OSError, StopIteration):
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""

FLOOR = (
    _PEAK
    + """
import json, resource, sys, time, zipfile
t = time.perf_counter()
with zipfile.ZipFile(sys.argv[1]) as src, zipfile.ZipFile(sys.argv[2], "w") as dst:
    for info in src.infolist():
        dst.writestr(info, src.read(info), compress_type=zipfile.ZIP_DEFLATED)
print(json.dumps({"seconds": time.perf_counter() - t, "peak_mb": peak_mb()}))
"""
)

OPENPYXL = (
    _PEAK
    + """
import json, resource, sys, time
t = time.perf_counter()
import openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
wb.save(sys.argv[2])
print(json.dumps({"seconds": time.perf_counter() - t, "peak_mb": peak_mb()}))
"""
)

XLSHUFFLE = """
import json, os, resource, sys, threading, time
t = time.perf_counter()
together = [0.0]

def sample():  # this process and its children (the fingerprint's), every 5 ms, on Linux
    me = os.getpid()
    def rss(pid):
        try:
            with open(f"/proc/{pid}/status") as fh:
                return next(int(x.split()[1]) for x in fh if x.startswith("VmRSS")) / 1024
        except (OSError, StopIteration):
            return 0.0
    with open(f"/proc/{me}/cmdline", "rb") as fh:
        mine = fh.read()
    def ours(pid):  # a child once it runs its own program (before, it shares our pages
        # and our command line, which holds this very text)
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                line = fh.read()
            return line != mine and b"records.beside" in line
        except OSError:
            return False
    while True:
        try:
            with open(f"/proc/{me}/task/{me}/children") as fh:
                kids = [k for k in fh.read().split() if ours(k)]
        except OSError:
            return
        together[0] = max(together[0], rss(me) + sum(map(rss, kids)))
        time.sleep(0.005)

threading.Thread(target=sample, daemon=True).start()
from xlshuffle.cli import main
code = main(["shuffle", sys.argv[1], "-o", sys.argv[2], "--seed", "bench",
             "--record", sys.argv[2] + ".json", "--overwrite", *sys.argv[3:]])  # each run replaces its own
assert code == 0, code
seconds = time.perf_counter() - t
try:  # the second process of the restore fingerprint, when one ran
    from xlshuffle.workbook.records import beside
    child = beside.last_child_peak_mb or 0.0
except ImportError:
    child = 0.0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
try:  # Linux: the peak of this program alone (ru_maxrss also counts the pages of the
    # process it was started from, which a benchmark that built a big workbook holds)
    with open("/proc/self/status") as fh:
        peak = next(int(x.split()[1]) for x in fh if x.startswith("VmHWM")) / 1024
except (OSError, StopIteration):
    pass
print(json.dumps({"seconds": seconds, "child_mb": child, "peak_mb": peak,
                  "together_mb": max(together[0], peak) if together[0] else peak + child}))
"""

VERIFY = (
    _PEAK
    + """
import json, resource, sys, time
t = time.perf_counter()
from xlshuffle.cli import main
code = main(["verify", sys.argv[2] + ".json", "--input", sys.argv[1], "--output", sys.argv[2]])
assert code == 0, code
print(json.dumps({"seconds": time.perf_counter() - t, "peak_mb": peak_mb()}))
"""
)

_CT = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    "</Types>"
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
_BOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>'
)
_BOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
    '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)
_STYLES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
    "</styleSheet>"
)


def make_workbook(path: str, rows: int) -> None:
    """A workbook of ``rows`` data rows x 5 columns, written as Excel would."""
    notes = 977
    strings = "".join(f"<si><t>note {i}</t></si>" for i in range(notes + 5))
    sst = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        f'count="{rows + 5}" uniqueCount="{notes + 5}">{strings}</sst>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", _CT)
        zf.writestr("_rels/.rels", _RELS)
        zf.writestr("xl/workbook.xml", _BOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", _BOOK_RELS)
        zf.writestr("xl/styles.xml", _STYLES)
        zf.writestr("xl/sharedStrings.xml", sst)
        with zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as fh:
            fh.write(
                b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                b'<dimension ref="A1:E%d"/><sheetData>' % (rows + 1)
            )
            head = "".join(
                f'<c r="{c}1" t="s"><v>{notes + i}</v></c>' for i, c in enumerate("ABCDE")
            )
            fh.write(f'<row r="1" spans="1:5">{head}</row>'.encode())
            chunk = []
            for i in range(rows):
                r = i + 2
                chunk.append(
                    f'<row r="{r}" spans="1:5"><c r="A{r}"><v>{i}</v></c>'
                    f'<c r="B{r}" t="s"><v>{i % notes}</v></c>'
                    f'<c r="C{r}" s="1"><v>{46023 + i % 3650}</v></c>'
                    f'<c r="D{r}"><v>{i * 0.25}</v></c>'
                    f'<c r="E{r}"><f>A{r}*2</f><v>{i * 2}</v></c></row>'
                )
                if len(chunk) == 10_000:
                    fh.write("".join(chunk).encode())
                    chunk = []
            fh.write("".join(chunk).encode())
            fh.write(b"</sheetData></worksheet>")


def _rewrite_sheet(src: str, dst: str, change: Callable[[bytes], bytes]) -> None:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = change(data)
            zout.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)


def _no_r(data: bytes) -> bytes:
    return re.sub(rb'(<(?:row|c)) r="[A-Z]*\d+"', rb"\1", data)


def _inline(data: bytes) -> bytes:
    """Every 20th string of column B written inline (the shared strings say ``note N``)."""

    def one(m: re.Match[bytes]) -> bytes:
        r = int(m[1])
        if r % 20:
            return m[0]
        return b'<c r="B%d" t="inlineStr"><is><t>note %s</t></is></c>' % (r, m[2])

    return re.sub(rb'<c r="B(\d+)" t="s"><v>(\d+)</v></c>', one, data)


def _shared(data: bytes) -> bytes:
    """The formula column as Excel saves a formula filled down: the first data row's the
    master of a shared formula (its range and text), every other one a member."""
    rows = data.count(b"<row ") - 1

    def one(m: re.Match[bytes]) -> bytes:
        if m[1] == b"2":
            return b'<f t="shared" ref="E2:E%d" si="0">%s</f>' % (rows + 1, m[2])
        return b'<f t="shared" si="0"/>'

    return re.sub(rb'(?<=<c r="E)(\d+)"><f>([^<]*)</f>', lambda m: m[1] + b'">' + one(m), data)


def _libreoffice(src: str, dst: str, folder: str) -> bool:
    """``src`` saved again by LibreOffice headless; False without ``soffice``."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        return False
    out = os.path.join(folder, "lo-out")
    profile = "file://" + os.path.abspath(os.path.join(folder, "lo-profile"))
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation={profile}",
            "--headless",
            "--convert-to",
            "xlsx",
            "--outdir",
            out,
            src,
        ],
        check=True,
        capture_output=True,
        timeout=3600,
    )
    os.replace(os.path.join(out, os.path.basename(src)), dst)
    return True


def make_producers(src: str, folder: str, names: list[str]) -> dict[str, str]:
    """The workbook ``src`` as each producer of ``names`` writes it: name -> path."""
    made = {"plain": src}
    stem = os.path.splitext(src)[0]
    for name in names:
        path = f"{stem}-{name}.xlsx"
        if name == "no-r":
            _rewrite_sheet(src, path, _no_r)
        elif name == "inline":
            _rewrite_sheet(src, path, _inline)
        elif name == "shared":
            _rewrite_sheet(src, path, _shared)
        elif name == "libreoffice":
            if not _libreoffice(src, path, folder):
                print("no soffice: the libreoffice producer is left out")
                continue
        else:
            continue
        made[name] = path
    return made


#: The producers of the workbook timed (see the module's docstring).
PRODUCERS = ["plain", "libreoffice", "no-r", "inline", "shared"]

#: The selections timed: name -> the extra arguments for ``rows`` data rows (a header
#: row on top). ``whole-range`` names every used cell, ``three-columns`` the middle three.
VARIANTS = {
    "default": lambda rows: [],
    "whole-range": lambda rows: ["--range", f"A1:E{rows + 1}", "--header"],
    "three-columns": lambda rows: ["--range", f"B1:D{rows + 1}", "--header"],
}


def measure(code: str, src: str, dst: str, *extra: str) -> dict[str, float]:
    # as a user's Python runs: modules compiled once and cached (PYTHONDONTWRITEBYTECODE,
    # set on some CI machines, would time the compiling of every module in every run)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run(
        [sys.executable, "-c", code, src, dst, *extra],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def deflate() -> str:
    try:
        import isal  # noqa: F401
    except ImportError:
        return "zlib"
    return "python-isal"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each (best is kept)")
    parser.add_argument(
        "--openpyxl-max", type=int, default=100_000, help="largest size openpyxl is timed at"
    )
    parser.add_argument(
        "--variants",
        nargs="+",
        choices=list(VARIANTS),
        default=list(VARIANTS),
        help="selections to time (default: all); verify is timed for each",
    )
    parser.add_argument(
        "--producers",
        nargs="+",
        choices=PRODUCERS,
        default=PRODUCERS,
        help="producers of the workbook to time (default: all); plain is always timed",
    )
    parser.add_argument(
        "--producers-max",
        type=int,
        default=100_000,
        help="largest size the other producers are timed at",
    )
    parser.add_argument("--no-verify", action="store_true", help="do not time verify")
    args = parser.parse_args()
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, best of {args.repeat}; "
        f"xlshuffle deflates with {deflate()}; load average {_load()}"
    )
    print(
        f"{'rows':>9}  {'producer':<11}  {'selection':<13}  {'floor s':>8}  {'openpyxl s':>10}  "
        f"{'xlshuffle s':>11}  {'x floor':>7}  {'openpyxl/x':>10}  {'x plain':>7}  "
        f"{'verify s':>8}  {'MB floor/openpyxl/xlshuffle(+2nd)/verify':>40}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for rows in args.rows:
            src = os.path.join(folder, f"in-{rows}.xlsx")
            make_workbook(src, rows)
            wanted = [p for p in args.producers if p != "plain"]
            books = make_producers(src, folder, wanted if rows <= args.producers_max else [])
            runs: dict[str, list[dict[str, float]]] = {"floor": [], "openpyxl": []}
            cases = [(p, v) for p in books for v in args.variants]
            for p, v in cases:
                runs[f"{p}/{v}"], runs[f"{p}/{v}/verify"] = [], []
            for _ in range(args.repeat):  # interleaved, so drift in machine load hits all
                runs["floor"].append(measure(FLOOR, src, os.path.join(folder, "floor.xlsx")))
                if rows <= args.openpyxl_max:
                    runs["openpyxl"].append(measure(OPENPYXL, src, os.path.join(folder, "o.xlsx")))
                for p, v in cases:
                    out = os.path.join(folder, f"ours-{p}-{v}.xlsx")
                    runs[f"{p}/{v}"].append(measure(XLSHUFFLE, books[p], out, *VARIANTS[v](rows)))
                    if not args.no_verify:
                        runs[f"{p}/{v}/verify"].append(measure(VERIFY, books[p], out))
            nan = float("nan")
            best = {k: min(r["seconds"] for r in v) if v else nan for k, v in runs.items()}
            peak = {
                k: max(r.get("together_mb", r["peak_mb"]) for r in v) if v else nan
                for k, v in runs.items()
            }
            for p, v in cases:
                ours, verify = best[f"{p}/{v}"], best[f"{p}/{v}/verify"]
                print(
                    f"{rows:>9,}  {p:<11}  {v:<13}  {best['floor']:>8.2f}  "
                    f"{best['openpyxl']:>10.2f}  {ours:>11.2f}  {ours / best['floor']:>7.2f}  "
                    f"{best['openpyxl'] / ours:>10.1f}  {ours / best[f'plain/{v}']:>7.2f}  "
                    f"{verify:>8.2f}  {peak['floor']:>8.0f}/{peak['openpyxl']:.0f}/"
                    f"{peak[f'{p}/{v}']:.0f}/{peak[f'{p}/{v}/verify']:.0f}"
                )


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


if __name__ == "__main__":
    main()
