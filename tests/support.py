"""Helpers shared by the tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

# CI installs LibreOffice, Pyodide and Chromium and lists them here, so that a test which would skip
# for want of them fails instead: a green CI run then proves they really ran.
REQUIRED = {t.strip() for t in os.environ.get("XLSHUFFLE_REQUIRE", "").split(",") if t.strip()}


def require(tool: str, available: bool, how: str) -> None:
    """Skip the calling test when ``tool`` is missing, or fail when CI requires it."""
    if available:
        return
    message = f"{tool} is not available: {how}"
    if tool in REQUIRED:
        pytest.fail(f"{message} (XLSHUFFLE_REQUIRE lists {tool})")
    pytest.skip(message)


#: The Python that LibreOffice's bridge (``uno``) belongs to: Debian's python3-uno.
SYSTEM_PYTHON = "/usr/bin/python3"


def calc_missing() -> str | None:
    """What the Calc extension's tests lack, said as how to get it; None when nothing.

    They build the extension (the SDK's ``unoidl-write``), run it in LibreOffice (``soffice``,
    its Python script provider) and drive it through UNO (``python3-uno``).
    """
    import shutil
    import subprocess

    from xlshuffle.calc.build import find_sdk

    if shutil.which("soffice") is None:
        return "install LibreOffice (apt-get install libreoffice-calc-nogui)"
    try:
        find_sdk()
    except FileNotFoundError:
        return "install the LibreOffice SDK (apt-get install libreoffice-dev)"
    probe = [SYSTEM_PYTHON, "-c", "import uno, pythonloader"]
    if not Path(SYSTEM_PYTHON).exists() or subprocess.run(probe, capture_output=True).returncode:
        return (
            "install LibreOffice's Python bridge (apt-get install python3-uno "
            "libreoffice-script-provider-python)"
        )
    return None
