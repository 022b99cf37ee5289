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
from pathlib import Path
from typing import Any

from xlshuffle.cli import main

from support import ROOT, SYSTEM_PYTHON

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
            raise RuntimeError(f"calc_driver.py failed: {done.stderr.strip()[-2000:]}")
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
