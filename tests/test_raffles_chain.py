"""A chain of draws: ``verify REC --exclude EARLIER`` checks that a draw left out exactly
the IDs of an earlier draw's record (its winners) or of an ID list, and nothing else.

The IDs each check expects are the ones the test itself wrote or read from the earlier
record; section 10 of docs/draw-protocol.md (digest and count) is what verify compares.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from raffle_books import CSV_ROWS, run, said, save_csv


@pytest.fixture
def src(tmp_path: Path) -> Path:
    return save_csv(tmp_path / "raffle.csv", CSV_ROWS)


def _draw(capsys, src: Path, tmp: Path, name: str, *extra: object) -> tuple[Path, Path]:
    out, record = tmp / f"{name}.csv", tmp / f"{name}.json"
    argv = ["sample", src, "--id", "ID", "--seed", name, "-o", out, "--record", record, *extra]
    code, err = said(capsys, *argv)
    assert code == 0, err
    return out, record


def test_draw_two_excluded_exactly_draw_ones_winners(capsys, src: Path, tmp_path: Path) -> None:
    _, may = _draw(capsys, src, tmp_path, "may", "-k", "2", "--reserves", "1")
    out, june = _draw(capsys, src, tmp_path, "june", "-k", "3", "--exclude", may)
    code, text = said(capsys, "verify", june, "--input", src, "--output", out, "--exclude", may)
    assert code == 0, text
    assert f"exactly the IDs of {may} excluded" in text
    # another month's winners are not what June excluded
    _, april = _draw(capsys, src, tmp_path, "april", "-k", "2")
    may_ids = json.loads(may.read_text())["target"]["draw"]["winners"]
    april_ids = json.loads(april.read_text())["target"]["draw"]["winners"]
    if set(april_ids) != set(may_ids):
        code, text = said(capsys, "verify", june, "--input", src, "--exclude", april)
        assert code == 1 and "not a draw that excluded the IDs given" in text, text
        assert text.count("\n") == 1


def test_an_id_list_is_checked_id_for_id(capsys, src: Path, tmp_path: Path) -> None:
    ids = tmp_path / "staff.txt"
    ids.write_text("T2\nT5\nnobody\n", encoding="utf-8")
    _, rec = _draw(capsys, src, tmp_path, "x", "-k", "3", "--exclude", ids)
    assert run(capsys, "verify", rec, "--input", src, "--exclude", ids)[0] == 0
    # the same IDs in another order, spaced: the same set
    other = tmp_path / "other.txt"
    other.write_text(" T5\nnobody\n\nT2 \n", encoding="utf-8")
    assert run(capsys, "verify", rec, "--input", src, "--exclude", other)[0] == 0
    # one ID short: refused, though no row had it ("nobody" changes the digest and count)
    other.write_text("T2\nT5\n", encoding="utf-8")
    code, text = said(capsys, "verify", rec, "--input", src, "--exclude", other)
    assert code == 1 and "excluded 3 IDs" in text and "not these 2" in text, text


def test_a_draw_without_exclusions_or_a_shuffle_is_refused(
    capsys, src: Path, tmp_path: Path
) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("T1\n", encoding="utf-8")
    _, rec = _draw(capsys, src, tmp_path, "plain", "-k", "2", "--reserves", "1")
    code, text = said(capsys, "verify", rec, "--input", src, "--exclude", ids)
    assert code == 1 and "excluded no IDs" in text, text
    shuffled, record = tmp_path / "s.csv", tmp_path / "s.json"
    argv = ["shuffle", src, "--seed", "1", "-o", shuffled, "--record", record]
    assert run(capsys, *argv)[0] == 0
    code, text = said(capsys, "verify", record, "--input", src, "--exclude", ids)
    assert code == 2 and "excluded nothing" in text, text


def test_rows_left_out_must_be_the_rows_of_those_ids(capsys, src: Path, tmp_path: Path) -> None:
    """A record whose exclusion rows were edited (the digest kept) is refused."""
    ids = tmp_path / "ids.txt"
    ids.write_text("T2\n", encoding="utf-8")
    _, rec = _draw(capsys, src, tmp_path, "r", "-k", "2", "--exclude", ids)
    data = json.loads(rec.read_text())
    assert data["target"]["draw"]["exclusion"]["rows"] == [1]
    data["target"]["draw"]["exclusion"]["rows"] = [2]
    rec.write_text(json.dumps(data), encoding="utf-8")
    code, text = said(capsys, "verify", rec, "--input", src, "--exclude", ids)
    assert code == 1 and "rows it left out" in text, text
