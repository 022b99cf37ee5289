"""Every option a refusal suggests on the shared corpus draws.

For each workbook of ../shared/corpus the default shuffle of the active sheet is tried
(a dry run). For each refusal, every option set it names (``--range X``, ``--header``,
``--table NAME``, ``--keep-blank-rows``...) is parsed from the message and drawn for real
with the same seed, to a temporary file, and the record must verify against both files.
The tally (drawn at once, drawn with a suggested option, refused by reason) is printed;
``tools/corpus_refusals.py`` prints it as a table.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from refusal_options import suggestions
from shared_corpus import CORPUS, corpus_manifest, real_suffix
from xlshuffle import XlshuffleError
from xlshuffle.workbook import shuffle_workbook, verify_record

from support import require


@pytest.mark.slow  # the whole corpus, a draw per suggestion
def test_every_option_a_corpus_refusal_suggests_draws(tmp_path: Path) -> None:
    files = sorted(corpus_manifest())
    require("corpus", bool(files), f"put the shared corpus at {CORPUS}")
    tally: Counter[str] = Counter()
    tried = 0
    for i, name in enumerate(files):
        src = CORPUS / name
        try:
            shuffle_workbook(src, seed="corpus", dry_run=True)
        except XlshuffleError as exc:
            offered = suggestions(str(exc))
        else:
            tally["drawn at once"] += 1
            continue
        for j, options in enumerate(offered):
            out = tmp_path / f"out{i}-{j}{real_suffix(src)}"
            try:
                record = shuffle_workbook(src, out, seed="corpus", **options)  # type: ignore[arg-type]
                verify_record(record, input=src, output=out)
            except XlshuffleError as exc:
                pytest.fail(f"{name}: suggested {options} is refused: {exc}")
            out.unlink()
            tried += 1
        tally["drawn with a suggested option" if offered else "refused"] += 1
    print(f"corpus refusals: {dict(tally)}, {tried} suggestions drawn")
    assert tried > 0
