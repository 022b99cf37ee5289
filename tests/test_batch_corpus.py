"""Every real-world workbook of ../shared/corpus: a faithful shuffle or a clear refusal.

For each file the whole used range of the active sheet is shuffled by rows (the
command's default). Either the shuffle succeeds, and then every cell outside the
selection, on every sheet, is read back unchanged and the selection holds the input's
rows in the draw order; or it is refused with one line naming the file. Never a crash,
never a traceback, never a changed input. Files the manifest marks ``negative``
(broken or encrypted) must be refused.
"""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

import openpyxl
import pytest

from batch_support import state_at
from xlshuffle import XlshuffleError
from xlshuffle.batch import shuffle_workbook

from support import SHARED, require

CORPUS = SHARED / "corpus"


def _manifest() -> dict[str, str]:
    path = CORPUS / "MANIFEST.tsv"
    if not path.exists():
        return {}
    with path.open(encoding="utf-8", newline="") as fh:
        return {row["file"]: row["category"] for row in csv.DictReader(fh, delimiter="\t")}


def _check_faithful(src: Path, out: Path, record) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # openpyxl's notes about unsupported extensions
        before = openpyxl.load_workbook(src, rich_text=True)
        after = openpyxl.load_workbook(out, rich_text=True)
    assert before.sheetnames == after.sheetnames
    for ws0 in before.worksheets:
        ws1 = after[ws0.title]
        keys = set(ws0._cells) | set(ws1._cells)
        if ws0.title != record.sheet:
            for r, c in keys:
                assert state_at(ws0, r, c) == state_at(ws1, r, c), (src.name, ws0.title, r, c)
            continue
        top = ws0.min_row + (1 if record.header else 0)
        moved_rows = {top + i for i in range(len(record.permutation))}
        for r, c in keys:
            if r not in moved_rows:
                assert state_at(ws0, r, c) == state_at(ws1, r, c), (src.name, ws0.title, r, c)
        perm = record.permutation
        cols = {c for _, c in keys}
        for p, s in enumerate(perm[:50]):  # the first rows, enough to catch a wrong move
            for c in cols:
                was, now = state_at(ws0, top + s, c), state_at(ws1, top + p, c)
                if not (isinstance(was[0], str) and was[0].startswith("=")):
                    assert was == now, (src.name, top + p, c)


@pytest.mark.slow
def test_every_corpus_workbook_is_shuffled_faithfully_or_refused(tmp_path: Path):
    manifest = _manifest()
    require("corpus", bool(manifest), f"put the shared corpus at {CORPUS}")
    outcomes: dict[str, int] = {"shuffled": 0, "refused": 0}
    for name, category in sorted(manifest.items()):
        src = CORPUS / name
        digest = hashlib.sha256(src.read_bytes()).hexdigest()
        out = tmp_path / f"out{src.suffix}"
        try:
            record = shuffle_workbook(src, out, seed="corpus")
        except XlshuffleError as exc:
            message = str(exc)
            assert "\n" not in message, name
            assert str(src) in message, name
            outcomes["refused"] += 1
        else:
            assert category != "negative", f"{name} is broken but was not refused"
            assert not record.lost
            _check_faithful(src, out, record)
            outcomes["shuffled"] += 1
            out.unlink()
        assert hashlib.sha256(src.read_bytes()).hexdigest() == digest, f"{name} changed"
    print(f"corpus: {outcomes}")
    assert outcomes["shuffled"] >= 30
