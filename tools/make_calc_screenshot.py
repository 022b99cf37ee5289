"""Draw docs/img/calc-sample.png and calc-lock.png: the Calc extension at work, as LibreOffice
itself renders it.

    python tools/make_calc_screenshot.py [--out docs/img]

Needs what tests/test_calc.py needs: LibreOffice (``soffice``), its SDK (``unoidl-write``)
and its Python bridge for the system's Python (``python3-uno``), and xlshuffle installed in
the Python that runs this script. It builds the extension from this checkout
(:func:`xlshuffle.calc.build.build_calc`), starts ``soffice --headless`` with a throwaway
user profile, installs the extension through the office's extension manager, and then runs
itself again under the system's Python (which has ``uno``) to drive the office:

- ``calc-sample.png``: a raffle list, and ``SAMPLE`` entered as an array formula over the
  cells of its result (3 winners and 2 reserves by tickets, with Role and Rank), the
  formula's text written above it;
- ``calc-lock.png``: the same list after the menu's *Draw a raffle by tickets, with
  reserves* (dispatched as the menu does, its options as arguments): the locked values right
  of the list, and the first columns of the ``Draw log`` row it wrote, copied below.

Each picture is the sheet's used cells exported by Calc's own PNG filter
(``calc_png_Export``). The seed is fixed, so the values never change; the log's time does.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_PYTHON = "/usr/bin/python3"
SEED = "raffle 2026"
PEOPLE = [
    ("T-01", "Ada", 5),
    ("T-02", "Ben", 1),
    ("T-03", "Chen", 3),
    ("T-04", "Dara", 2),
    ("T-05", "Eli", 4),
    ("T-06", "Fay", 1),
    ("T-07", "Gus", 6),
    ("T-08", "Hana", 2),
    ("T-09", "Ivo", 3),
    ("T-10", "Jo", 1),
]
FORMULA = f'=SAMPLE(A2:C11; 3; "{SEED}"; C2:C11; 2)'
#: The log's columns shown under the locked draw (the rest are hashes and the version).
LOG_SHOWN = ("sheet", "range", "mode", "k", "output", "seed", "formula")


# --------------------------------------------------------------------------- the office


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--uno", help=argparse.SUPPRESS)  # the second run: JSON of its job
    args = parser.parse_args(argv)
    if args.uno:
        drive(json.loads(args.uno))
        return 0
    from xlshuffle.calc.build import build_calc

    with tempfile.TemporaryDirectory(prefix="xlshuffle-shot-") as tmp:
        oxt = Path(tmp) / "xlshuffle.oxt"
        build_calc(oxt)
        port = _free_port()
        office = subprocess.Popen(
            [
                "soffice",
                "--headless",
                "--invisible",
                "--norestore",
                "--nologo",
                f"-env:UserInstallation={(Path(tmp) / 'profile').as_uri()}",
                f"--accept=socket,host=127.0.0.1,port={port};urp;",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            job = {"port": port, "oxt": str(oxt), "out": str(args.out.resolve())}
            subprocess.run(
                [SYSTEM_PYTHON, __file__, "--uno", json.dumps(job)], check=True, timeout=300
            )
        finally:
            office.terminate()
            office.wait(timeout=60)
    for name in ("calc-sample.png", "calc-lock.png"):
        print(f"wrote {args.out / name}")
    return 0


# --------------------------------------------------------------------------- under uno


def drive(job: dict[str, Any]) -> None:
    """Install the extension, draw both pictures, close the office (the system's Python)."""
    import uno

    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local
    )
    url = f"uno:socket,host=127.0.0.1,port={job['port']};urp;StarOffice.ComponentContext"
    for _ in range(300):
        try:
            ctx = resolver.resolve(url)
            break
        except Exception:
            time.sleep(0.1)
    else:
        raise SystemExit(f"no office on port {job['port']}")
    install(ctx, job["oxt"])
    out = Path(job["out"])
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    sample(desktop, out / "calc-sample.png")
    locked(ctx, desktop, out / "calc-lock.png")
    with contextlib.suppress(Exception):  # the bridge goes down with the office
        desktop.terminate()


def install(ctx: Any, path: str) -> None:
    import uno
    import unohelper
    from com.sun.star.task import XInteractionHandler
    from com.sun.star.ucb import XCommandEnvironment, XProgressHandler

    class Approve(unohelper.Base, XCommandEnvironment, XProgressHandler, XInteractionHandler):  # type: ignore[misc]
        """Says yes to the extension manager's questions."""

        def getInteractionHandler(self) -> Any:
            return self

        def getProgressHandler(self) -> Any:
            return self

        def handle(self, request: Any) -> None:
            approve = uno.getTypeByName("com.sun.star.task.XInteractionApprove")
            for choice in request.getContinuations():
                if choice.queryInterface(approve) is not None:
                    choice.select()
                    return

        def push(self, status: Any) -> None:
            pass

        def update(self, status: Any) -> None:
            pass

        def pop(self) -> None:
            pass

    manager = ctx.getValueByName("/singletons/com.sun.star.deployment.ExtensionManager")
    url = uno.systemPathToFileUrl(path)
    manager.addExtension(url, (), "user", manager.createAbortChannel(), Approve())


def prop(name: str, value: Any) -> Any:
    from com.sun.star.beans import PropertyValue

    out = PropertyValue()
    out.Name, out.Value = name, value
    return out


def raffle_sheet(desktop: Any) -> tuple[Any, Any]:
    """A new hidden document: the list under its header in A1:C11, the header bold."""
    doc = desktop.loadComponentFromURL(
        "private:factory/scalc", "_blank", 0, (prop("Hidden", True),)
    )
    sheet = doc.Sheets.getByIndex(0)
    sheet.getCellRangeByName("A1:C11").setDataArray(
        (("ID", "Name", "Tickets"), *((i, n, float(t)) for i, n, t in PEOPLE))
    )
    return doc, sheet


def tidy(sheet: Any, headers: list[str], blocks: list[str], *, fit: bool = True) -> None:
    """Header cells bold on a pale blue, grey lines around the cells of ``blocks`` (Calc
    exports no grid lines), and with ``fit`` columns as wide as their texts."""
    import uno

    line = uno.createUnoStruct("com.sun.star.table.BorderLine2")
    line.Color, line.OuterLineWidth, line.LineWidth = 0xB0B0B0, 9, 9
    for address in blocks:
        border = uno.createUnoStruct("com.sun.star.table.TableBorder2")
        for edge in ("Top", "Bottom", "Left", "Right", "Horizontal", "Vertical"):
            setattr(border, f"{edge}Line", line)
            setattr(border, f"Is{edge}LineValid", True)
        sheet.getCellRangeByName(address).TableBorder2 = border
    for address in headers:
        cells = sheet.getCellRangeByName(address)
        cells.CharWeight = 150.0  # com.sun.star.awt.FontWeight.BOLD
        cells.CellBackColor = 0xDDEBF7
    if fit:
        sheet.getColumns().OptimalWidth = True


#: Pixels per 1/100 mm of the sheet: 96 dots an inch, twice over, for a sharp picture.
SCALE = 2 * 96 / 2540


def export(doc: Any, sheet: Any, path: Path) -> None:
    """The sheet's used cells as a PNG, by Calc's own filter (``calc_png_Export``, which
    ``libreoffice-draw-nogui`` installs on Debian and Ubuntu)."""
    import uno

    cursor = sheet.createCursor()
    cursor.gotoStartOfUsedArea(False)
    cursor.gotoEndOfUsedArea(True)
    doc.getCurrentController().select(cursor)
    size = cursor.Size  # 1/100 mm
    pixels = (
        prop("PixelWidth", round(size.Width * SCALE)),
        prop("PixelHeight", round(size.Height * SCALE)),
    )
    data = uno.Any("[]com.sun.star.beans.PropertyValue", pixels)
    options = (
        prop("FilterName", "calc_png_Export"),
        prop("SelectionOnly", True),
        prop("FilterData", data),
    )
    uno.invoke(doc, "storeToURL", (uno.systemPathToFileUrl(str(path)), options))


def sample(desktop: Any, path: Path) -> None:
    doc, sheet = raffle_sheet(desktop)
    try:
        sheet.getCellRangeByName("E2:I6").setArrayFormula(FORMULA)
        tidy(sheet, ["A1:C1"], ["A1:C11", "E2:I6"])
        note = sheet.getCellRangeByName("A13:A14")
        note.setDataArray(
            (
                ("E2:I6 hold one array formula (Ctrl+Shift+Enter):",),
                ("{" + FORMULA.replace("; ", ";") + "}",),
            )
        )
        note.CharColor = 0x444444
        export(doc, sheet, path)
    finally:
        doc.close(True)


def locked(ctx: Any, desktop: Any, path: Path) -> None:
    doc, sheet = raffle_sheet(desktop)
    try:
        sheet.getCellRangeByName("K1").setString("SEED")
        sheet.getCellRangeByName("L1").setString(SEED)
        origin = uno_cell(0, 0)
        doc.NamedRanges.addNewByName("SEED", "$Sheet1.$L$1", origin, 0)
        controller = doc.getCurrentController()
        controller.select(sheet.getCellRangeByName("A2:C11"))
        helper = ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.DispatchHelper", ctx
        )
        options = (prop("k", 3), prop("reserves", 2), prop("tickets", "Tickets"))
        done = helper.executeDispatch(
            controller.getFrame(), "org.xlshuffle.calc.lock:draw_raffle", "", 0, options
        )
        if done.State != 1:
            raise SystemExit(f"the draw failed: {done.Result}")
        sheet.getCellRangeByName("D1:H1").setDataArray((("ID", "Name", "Tickets", "Role", "Rank"),))
        log = doc.Sheets.getByName("Draw log")
        header = log.getCellRangeByName("A1:U1").getDataArray()[0]
        row = log.getCellRangeByName("A2:U2").getDataArray()[0]
        shown = [header.index(name) for name in LOG_SHOWN]
        block = sheet.getCellRangeByPosition(0, 13, len(shown) - 1, 14)
        block.setDataArray((tuple(header[i] for i in shown), (*(row[i] for i in shown[:-1]), "")))
        tidy(sheet, ["A1:H1", "K1", "A14:G14"], ["A1:H11", "K1:L1", "A14:F15"])
        sheet.getCellRangeByName("A13").setString("Its row on the Draw log sheet (some columns):")
        # the formula last, so that it runs on to the right rather than widen its column
        sheet.getCellByPosition(len(shown) - 1, 14).setString(row[shown[-1]])
        export(doc, sheet, path)
    finally:
        doc.close(True)


def uno_cell(column: int, row: int) -> Any:
    import uno

    cell = uno.createUnoStruct("com.sun.star.table.CellAddress")
    cell.Column, cell.Row = column, row
    return cell


if __name__ == "__main__":
    sys.exit(main())
