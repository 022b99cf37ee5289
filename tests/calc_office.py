"""LibreOffice headless with xlshuffle's Calc extension installed, for tests/test_calc.py.

:class:`Office` builds the extension from this checkout (``xlshuffle extension calc``),
starts one ``soffice --headless`` with a user profile of its own, installs the extension
into that profile, and runs requests through tests/calc_driver.py under the system's
Python, which has LibreOffice's ``uno``. Start it once per test module: starting and
installing take seconds.
"""

from __future__ import annotations

import json
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from xlshuffle.cli import main

from support import ROOT, SYSTEM_PYTHON, calc_missing, require

DRIVER = ROOT / "tests" / "calc_driver.py"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Office:
    """One headless LibreOffice with the extension installed in its own profile."""

    def __init__(self, folder: Path) -> None:
        self.oxt = folder / "xlshuffle.oxt"
        assert main(["extension", "calc", "-o", str(self.oxt)]) == 0
        self.port = _free_port()
        profile = (folder / "profile").as_uri()
        self.process = subprocess.Popen(
            [
                "soffice",
                "--headless",
                "--invisible",
                "--norestore",
                "--nologo",
                f"-env:UserInstallation={profile}",
                f"--accept=socket,host=127.0.0.1,port={self.port};urp;",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.request({"install": str(self.oxt)})

    def request(self, request: dict[str, Any]) -> dict[str, Any]:
        done = subprocess.run(
            [SYSTEM_PYTHON, str(DRIVER)],
            input=json.dumps({"port": self.port, **request}),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"calc_driver.py failed (exit {done.returncode}): "
                f"{done.stderr.strip()[-2000:]} {done.stdout.strip()[-500:]}"
            )
        answer: dict[str, Any] = json.loads(done.stdout)
        return answer

    def sheet(
        self,
        cells: dict[str, Any],
        formulas: list[tuple[str, str, bool]],
        read: list[str],
        *,
        hard_recalc: bool = False,
    ) -> dict[str, Any]:
        """Write ``cells``, enter ``formulas`` (range, formula, array?), read ``read``."""
        return self.request(
            {
                "cells": list(cells.items()),
                "formulas": formulas,
                "read": read,
                "hard_recalc": hard_recalc,
            }
        )

    def lock(
        self,
        path: Path,
        steps: list[dict[str, Any]],
        *,
        names: tuple[tuple[str, str], ...] = (),
        save: Path | None = None,
    ) -> dict[str, Any]:
        """Open the workbook ``path``, define ``names``, run the menu's commands ``steps``
        (tests/calc_driver.py's ``lock`` request), save it as ``save`` if given."""
        request: dict[str, Any] = {"open": str(path), "names": list(names), "steps": steps}
        if save is not None:
            request["save"] = str(save)
        return self.request({"lock": request})

    def close(self) -> None:
        try:
            self.request({"terminate": True})
        except (RuntimeError, subprocess.TimeoutExpired):
            self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def started(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    """A module fixture's body: one office for the module, closed after it; skipped with a
    note where LibreOffice, its SDK or its Python bridge is missing (CI requires them)."""
    missing = calc_missing()
    require("calc", missing is None, missing or "")
    office = Office(tmp_path_factory.mktemp("calc"))
    try:
        yield office
    finally:
        office.close()
