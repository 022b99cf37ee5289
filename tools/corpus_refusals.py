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
sys.path.insert(0, str(ROOT / "tests"))
from refusal_options import suggestions  # noqa: E402  (the tests' parser of a refusal's options)
from shared_corpus import REASONS  # noqa: E402  (the first pattern that matches names it)


def reason_of(message: str) -> str:
    return next((k for k, p in REASONS.items() if re.search(p, message)), "other")


def main(argv: list[str]) -> int:
    corpus = Path(argv[0]) if argv else ROOT.parent / "shared" / "corpus"
    files = sorted(p for p in corpus.iterdir() if p.name != "MANIFEST.tsv")
    at_once = with_option = 0
    refused: Counter[str] = Counter()
    suggested: Counter[str] = Counter()
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
            suggested[reason_of(message)] += 1
        else:
            refused[reason_of(message)] += 1
    print(
        f"{len(files)} workbooks: {at_once} draw at once, {with_option} draw with an "
        f"option a refusal suggests, {sum(refused.values())} refused"
    )
    print("| reason | drawn with a suggested option | refused |\n|---|---:|---:|")
    for reason in sorted(
        suggested.keys() | refused.keys(), key=lambda r: -(suggested[r] + refused[r])
    ):
        print(f"| {reason} | {suggested[reason]} | {refused[reason]} |")
    for line in failed_suggestions:
        print(f"suggestion refused: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
