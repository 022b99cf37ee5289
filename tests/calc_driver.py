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
- ``{"port": P, "terminate": true}``: close the office.
"""

from __future__ import annotations

import contextlib
import json
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


def main() -> None:
    request = json.load(sys.stdin)
    ctx = connect(request["port"])
    if "install" in request:
        answer = install(ctx, request["install"])
    elif request.get("terminate"):
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        with contextlib.suppress(Exception):  # the bridge goes down with the office
            desktop.terminate()
        answer = {}
    else:
        answer = run(ctx, request)
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
