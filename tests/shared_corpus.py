"""The shared corpus of real-world workbooks (../shared/corpus, listed in its MANIFEST.tsv):
where it is, the reasons a refusal of one of them may give, and the suffix a drawn copy needs.

tests/test_wb_corpus.py and tests/test_wb_corpus_refusals.py draw it; tools/corpus_refusals.py
tallies it with the same reasons.
"""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

from support import SHARED

CORPUS = SHARED / "corpus"

#: Why a workbook may be refused; every refusal must match one of these.
REASONS = {
    "formula would leave the sheet": r"the formula in [A-Z]+\d+ cannot move to",
    "protected sheet": r"is protected: unprotect it",
    "pivot table in the selection": r"pivot table output .* lies in the selection",
    "selection cuts a table": r"cuts through table",
    "merge across drawn rows": r"merged cells .* span cells the draw moves apart",
    "array formula, spill or data table": r"holds (an array formula or spill|a data table)",
    "link or comment across drawn rows": r"(hyperlink|comment|threaded comment) .* covers cells",
    "encrypted": r"password-protected \(encrypted\)",
    "legacy or not a workbook": r"legacy Excel|not a zip package|the file is empty|OpenDocument",
    "damaged": r"damaged or not a zip package|not well-formed XML|out of order|cut short",
    "entity declarations": r"declares XML entities",
    "no worksheet": r"has no worksheet to draw from",
    "blank row inside the data": r"blank inside the data",
    "two header rows": r"look like two header rows|join header row",
    "no data rows": r"is only a header row .* no data rows|holds no data",
}


def corpus_manifest() -> dict[str, str]:
    path = CORPUS / "MANIFEST.tsv"
    if not path.exists():
        return {}
    with path.open(encoding="utf-8", newline="") as fh:
        return {row["file"]: row["category"] for row in csv.DictReader(fh, delimiter="\t")}


def real_suffix(path: Path) -> str:
    """The extension Excel needs for this package, read from its content types (some
    corpus files are macro-enabled workbooks named .xlsx: an output must not copy that)."""
    try:
        with zipfile.ZipFile(path) as zf:
            types = zf.read("[Content_Types].xml").decode("utf-8", "replace")
    except (zipfile.BadZipFile, KeyError, OSError, RuntimeError, ValueError):
        return path.suffix
    # only the workbook part has a "...main+xml" content type
    for mark, suffix in (
        ("sheet.macroEnabled.main+xml", ".xlsm"),
        ("template.macroEnabled.main+xml", ".xltm"),
        ("spreadsheetml.template.main+xml", ".xltx"),
        ("spreadsheetml.sheet.main+xml", ".xlsx"),
    ):
        if mark in types:
            return suffix
    return path.suffix
