"""Tally the shared corpus: which workbooks the default shuffle draws at once, which draw
with an option a refusal suggests, and which are refused, by reason.

Usage: ``python tools/corpus_refusals.py [CORPUS_DIR]`` (default ``../shared/corpus``).
Every draw is a dry run (every check runs, nothing is written).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from xlshuffle import XlshuffleError
from xlshuffle.workbook import shuffle_workbook

ROOT = Path(__file__).resolve().parent.parent

#: Why a workbook may be refused (the first pattern that matches names the reason).
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
    "no data rows": r"no data rows?|holds no data",
}

_OPTION = re.compile(
    r"--(?:range|table|columns|sheet|by) [^\s,;()]+|--(?:header|no-header|keep-blank-rows)\b"
)
_KEYS = {"--range": "cells", "--table": "table", "--columns": "columns", "--sheet": "sheet",
         "--by": "by"}  # fmt: skip


def reason_of(message: str) -> str:
    return next((k for k, p in REASONS.items() if re.search(p, message)), "other")


def suggestions(message: str) -> list[dict[str, object]]:
    """Each set of options a refusal suggests (options one space apart belong together),
    as keyword arguments of ``shuffle_workbook``."""
    groups: list[list[str]] = []
    end = -2
    for m in _OPTION.finditer(message):
        if m.start() == end + 1 and groups:
            groups[-1].append(m[0])
        else:
            groups.append([m[0]])
        end = m.end()
    out: list[dict[str, object]] = []
    for group in groups:
        kwargs: dict[str, object] = {}
        for option in group:
            name, _, value = option.partition(" ")
            if name in _KEYS:
                kwargs[_KEYS[name]] = value
            elif name == "--keep-blank-rows":
                kwargs["keep_blank_rows"] = True
            else:
                kwargs["header"] = name == "--header"
        if kwargs not in out:
            out.append(kwargs)
    return out


def main(argv: list[str]) -> int:
    corpus = Path(argv[0]) if argv else ROOT.parent / "shared" / "corpus"
    files = sorted(p for p in corpus.iterdir() if p.name != "MANIFEST.tsv")
    at_once = with_option = 0
    refused: Counter[str] = Counter()
    failed_suggestions: list[str] = []
    for path in files:
        try:
            shuffle_workbook(path, seed="corpus", dry_run=True)
            at_once += 1
            continue
        except XlshuffleError as exc:
            message = str(exc)
        ok = False
        for kwargs in suggestions(message):
            try:
                shuffle_workbook(path, seed="corpus", dry_run=True, **kwargs)  # type: ignore[arg-type]
                ok = True
            except XlshuffleError as exc:
                failed_suggestions.append(f"{path.name}: {kwargs}: {exc}")
        if ok:
            with_option += 1
        else:
            refused[reason_of(message)] += 1
    print(
        f"{len(files)} workbooks: {at_once} draw at once, {with_option} draw with an "
        f"option a refusal suggests, {sum(refused.values())} refused"
    )
    print("| reason | refused |\n|---|---|")
    for reason, n in refused.most_common():
        print(f"| {reason} | {n} |")
    for line in failed_suggestions:
        print(f"suggestion refused: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
