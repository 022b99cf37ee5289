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
