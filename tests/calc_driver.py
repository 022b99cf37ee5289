"""Drive a running LibreOffice through UNO for tests/test_calc.py (run by /usr/bin/python3).

LibreOffice's Python bridge (``uno``) belongs to the system's Python, not to the tests'
one, so the tests run this script as a program: it reads one JSON request on stdin,
connects to the office listening on the request's port, and prints one JSON answer.

- ``{"port": P, "install": "/path/x.oxt"}``: install the extension into the office's own
  user profile through the extension manager (``unopkg`` refuses to run as root).
- ``{"port": P, "cells": [[A1, value], ...], "formulas": [[RANGE, FORMULA, ARRAY], ...],
  "read": [RANGE, ...], "hard_recalc": true}``: a new hidden spreadsheet, the values
  written (a text as a text, even "42"), the formulas entered (``ARRAY``: as an array
  formula over ``RANGE``), and each range read back as rows, an error cell as ``"#ERR"``;
  with ``hard_recalc``, read again after ``calculateAll`` (Calc's hard recalculation).
- ``{"port": P, "lock": {"open": PATH, "names": [[NAME, CONTENT], ...], "steps": [...],
  "save": PATH}}``: the workbook PATH opened (hidden), the names defined (``CONTENT`` as Calc
  writes a reference: ``$Sheet1.$H$1``), then each step: ``{"sheet": NAME, "select":
  "A2:C6" (or several blocks, "A2:A4,C2:C4"), "command": "shuffle_rows", "args": {...}}``,
  the selection made on that sheet and the menu's command URL dispatched through
  ``DispatchHelper`` with the args as ``PropertyValue``s (``"args": null``: none, as the
  menu dispatches it); the answer holds each step's result state and line, every sheet's
  used cells, the number format of the log's cells, and the sheets' names; with
  ``save``, the workbook stored there as ``.xlsx`` first.
- ``{"port": P, "menu": true}``: the office's own configuration of the extension's menu
  (``Addons.xcu`` merged at install): its title and each entry's URL and title.
- ``{"port": P, "terminate": true}``: close the office.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time

import uno
import unohelper
from com.sun.star.beans import PropertyValue
from com.sun.star.task import XInteractionHandler
from com.sun.star.ucb import XCommandEnvironment, XProgressHandler


def connect(port: int):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local
    )
    url = f"uno:socket,host=127.0.0.1,port={port};urp;StarOffice.ComponentContext"
    for _ in range(300):
        try:
            return resolver.resolve(url)
        except Exception:
            time.sleep(0.1)
    raise SystemExit(f"no office on port {port}")


class Approve(unohelper.Base, XCommandEnvironment, XProgressHandler, XInteractionHandler):
    """Says yes to the extension manager's questions (the licence, a replacement)."""

    def getInteractionHandler(self):
        return self

    def getProgressHandler(self):
        return self

    def handle(self, request):
        approve = uno.getTypeByName("com.sun.star.task.XInteractionApprove")
        for choice in request.getContinuations():
            if choice.queryInterface(approve) is not None:
                choice.select()
                return

    def push(self, status):
        pass

    def update(self, status):
        pass

    def pop(self):
        pass


def install(ctx, path: str) -> dict:
    manager = ctx.getValueByName("/singletons/com.sun.star.deployment.ExtensionManager")
    url = uno.systemPathToFileUrl(path)
    package = manager.addExtension(url, (), "user", manager.createAbortChannel(), Approve())
    return {"identifier": package.getIdentifier().Value}


def new_sheet(ctx):
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    hidden = PropertyValue()
    hidden.Name, hidden.Value = "Hidden", True
    doc = desktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, (hidden,))
    return doc, doc.Sheets.getByIndex(0)


def grid(sheet, name: str) -> list:
    block = sheet.getCellRangeByName(name)
    rows = []
    for r, row in enumerate(block.getDataArray()):
        out = []
        for c, value in enumerate(row):
            cell = block.getCellByPosition(c, r)
            out.append("#ERR" if cell.getError() else value)
        rows.append(out)
    return rows


def run(ctx, request: dict) -> dict:
    doc, sheet = new_sheet(ctx)
    try:
        for address, value in request.get("cells", []):
            cell = sheet.getCellRangeByName(address)
            if isinstance(value, str):
                cell.setString(value)
            elif value is not None:
                cell.setValue(value)
        for address, formula, array in request.get("formulas", []):
            block = sheet.getCellRangeByName(address)
            if array:
                block.setArrayFormula(formula)
            else:
                block.setFormula(formula)
        answer = {"read": [grid(sheet, r) for r in request.get("read", [])]}
        if request.get("hard_recalc"):
            doc.calculateAll()
            answer["again"] = [grid(sheet, r) for r in request.get("read", [])]
        if request.get("formula_of"):
            answer["formula"] = sheet.getCellRangeByName(request["formula_of"]).getFormula()
        return answer
    finally:
        doc.close(True)


def used(sheet) -> str:
    cursor = sheet.createCursor()
    cursor.gotoStartOfUsedArea(False)
    cursor.gotoEndOfUsedArea(True)
    return cursor.AbsoluteName.rpartition(".")[2].replace("$", "")


def prop(name: str, value) -> PropertyValue:
    out = PropertyValue()
    out.Name, out.Value = name, value
    return out


def select(doc, sheet, address: str) -> None:
    controller = doc.getCurrentController()
    controller.setActiveSheet(sheet)
    if "," not in address:
        controller.select(sheet.getCellRangeByName(address))
        return
    blocks = doc.createInstance("com.sun.star.sheet.SheetCellRanges")
    for part in address.split(","):
        blocks.addRangeAddress(sheet.getCellRangeByName(part).getRangeAddress(), False)
    controller.select(blocks)


def lock(ctx, request: dict) -> dict:
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    url = uno.systemPathToFileUrl(request["open"])
    doc = desktop.loadComponentFromURL(url, "_blank", 0, (prop("Hidden", True),))
    try:
        origin = uno.createUnoStruct("com.sun.star.table.CellAddress")
        for name, content in request.get("names", []):
            doc.NamedRanges.addNewByName(name, content, origin, 0)
        frame = doc.getCurrentController().getFrame()
        helper = ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.DispatchHelper", ctx
        )
        results = []
        for step in request.get("steps", []):
            sheet = doc.Sheets.getByName(step.get("sheet", doc.Sheets.getByIndex(0).getName()))
            select(doc, sheet, step["select"])
            args = step.get("args")
            props = () if args is None else tuple(prop(k, v) for k, v in args.items())
            done = helper.executeDispatch(
                frame, "org.xlshuffle.calc.lock:" + step["command"], "", 0, props
            )
            results.append({"state": done.State, "line": done.Result})
        if request.get("save"):
            filter_ = prop("FilterName", "Calc MS Excel 2007 XML")
            doc.storeToURL(uno.systemPathToFileUrl(request["save"]), (filter_,))
        names = list(doc.Sheets.getElementNames())
        answer = {"results": results, "names": names, "sheets": {}}
        for name in names:
            sheet = doc.Sheets.getByName(name)
            answer["sheets"][name] = grid(sheet, used(sheet))
        if doc.Sheets.hasByName("Draw log"):
            cell = doc.Sheets.getByName("Draw log").getCellByPosition(7, 1)
            answer["log format"] = doc.NumberFormats.getByKey(cell.NumberFormat).FormatString
        return answer
    finally:
        doc.close(True)


def menu(ctx) -> dict:
    provider = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.configuration.ConfigurationProvider", ctx
    )
    path = "/org.openoffice.Office.Addons/AddonUI/OfficeMenuBar/org.xlshuffle.calc.menu"
    node = provider.createInstanceWithArguments(
        "com.sun.star.configuration.ConfigurationAccess", (prop("nodepath", path),)
    )
    submenu = node.getByName("Submenu")
    items = [submenu.getByName(n) for n in sorted(submenu.getElementNames())]
    return {
        "title": node.getByName("Title"),
        "items": [[i.getByName("URL"), i.getByName("Title")] for i in items],
    }


def main() -> None:
    request = json.load(sys.stdin)
    ctx = connect(request["port"])
    if "install" in request:
        answer = install(ctx, request["install"])
    elif request.get("menu"):
        answer = menu(ctx)
    elif "lock" in request:
        answer = lock(ctx, request["lock"])
    elif request.get("terminate"):
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        with contextlib.suppress(Exception):  # the bridge goes down with the office
            desktop.terminate()
        answer = {}
    else:
        answer = run(ctx, request)
    json.dump(answer, sys.stdout)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
    # Leave without the interpreter's teardown, where the UNO bridge's objects are
    # finalised: a request has failed now and then with no message and no answer (about
    # once in 20 runs of test_calc_lock.py), which a crash there would explain.
    os._exit(0)
