"""A list's columns read two ways give one draw: records without quotes are split all at
once (one line, one record), records with a quote anywhere go through Python's csv record
by record. The same table written both ways (every field quoted, or none) must draw the
same rows with the same tickets, strata and IDs, whatever the line endings and however
ragged the rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlshuffle.cli import main

_TEXT = st.text(
    st.characters(blacklist_characters='",\r\n', blacklist_categories=("Cs",)), max_size=6
)


@st.composite
def tables(draw: st.DrawFn) -> list[list[str]]:
    n = draw(st.integers(1, 12))
    rows = []
    for i in range(n):
        tickets = str(draw(st.integers(1, 9)))
        row = [f"E{i}", tickets, draw(st.sampled_from(["N", "S", "E"])), draw(_TEXT)]
        rows.append(row[: draw(st.integers(3, 4))])  # ragged: the last field may be missing
    return rows


def _write(path: Path, rows: list[list[str]], *, quoted: bool, ending: str) -> Path:
    def field(x: str) -> str:
        return f'"{x}"' if quoted else x

    lines = [",".join(field(x) for x in row) for row in [["ID", "T", "R", "Note"], *rows]]
    path.write_bytes((ending.join(lines) + ending).encode("utf-8"))
    return path


@settings(max_examples=40, deadline=None)
@given(rows=tables(), ending=st.sampled_from(["\n", "\r\n"]), k=st.integers(1, 3))
def test_quoted_and_plain_lists_draw_alike(
    tmp_path_factory: pytest.TempPathFactory, rows: list[list[str]], ending: str, k: int
) -> None:
    tmp = tmp_path_factory.mktemp("fields")
    got = []
    for quoted in (False, True):
        src = _write(tmp / f"{quoted}.csv", rows, quoted=quoted, ending=ending)
        record = tmp / f"{quoted}.json"
        argv = ["sample", str(src), "--weights", "T", "--strata", "R", "--id", "ID"]
        argv += ["--total", str(min(k, len(rows))), "--seed", "f"]
        argv += ["-o", str(tmp / f"{quoted}.out.csv")]
        assert main([*argv, "--record", str(record)]) == 0
        data = json.loads(record.read_text())
        got.append((data["permutation"], data["target"]["draw"]["winners"]))
    assert got[0] == got[1]
