"""Every record verifies, and every one-cell edit of an output is caught.

For every draw the tool completes - on each workbook of the shared corpus (default
selection: ``shuffle``, and ``sample`` to stdout saved as a file), on generated workbooks
(tests/wb_strategies.py) and on generated CSV lists - ``xlshuffle verify RECORD --input IN
--output OUT`` exits 0; and after one cell of the output is changed by an independent
tool (openpyxl for a workbook; plain bytes for a CSV file or saved winners), it exits 1
naming the place. A refusal is not checked here (tests/test_wb_corpus.py does that).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
import warnings
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from openpyxl.cell.cell import MergedCell
from openpyxl.utils import range_boundaries

import oracle
from wb_strategies import book_specs, write_book
from xlshuffle.cli import main

from support import SHARED, require

CORPUS = SHARED / "corpus"
KINDS = (".xlsx", ".xlsm", ".xltx", ".xltm")
EDIT = "edited ✗"


def quiet(*argv: str | Path) -> tuple[int, bytes, str]:
    """Run the command line in-process: exit code, stdout's bytes and stderr."""
    raw, err = io.BytesIO(), io.StringIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", newline="", write_through=True)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    out.flush()
    return code, raw.getvalue(), err.getvalue().strip()


@contextlib.contextmanager
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="recprop-") as tmp:
        yield Path(tmp)


# --------------------------------------------------------------------------- edits


def _drawn_cell(ws: Any, record: dict[str, Any]) -> Any:
    """A cell of the drawn rows and columns, one with a value if there is one."""
    left, top, right, bottom = range_boundaries(record["target"]["ref"])
    first = top + 1 if record["header"] and record["mode"] != "columns" else top
    blank = None
    for row in ws.iter_rows(min_row=first, max_row=bottom, min_col=left, max_col=right):
        for cell in row:
            if isinstance(cell, MergedCell):
                continue
            if cell.value is not None:
                return cell
            blank = blank or cell
    return blank


def _named(message: str, row: int, coordinate: str) -> bool:
    return "\n" not in message and bool(re.search(rf"\b(row {row}|cell {coordinate})\b", message))


def _edit_with_openpyxl(record: dict[str, Any], out: Path, tmp: Path) -> tuple[Path, Any] | None:
    """The output with one drawn cell changed by openpyxl; None when openpyxl cannot
    read the file, or when its own save, unedited, already changes a value (it rounds
    some floats) so that the edit would not be the only difference."""
    vba = out.suffix.lower() in (".xlsm", ".xltm")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wb = openpyxl.load_workbook(out, keep_vba=vba)
            resaved = tmp / f"resaved{out.suffix}"
            wb.save(resaved)
    except Exception:  # openpyxl's own limits on real files, not the tool's
        return None
    if (
        quiet("verify", tmp / "r.json", "--input", tmp / f"in{out.suffix}", "--output", resaved)[0]
        != 0
    ):
        return None
    cell = _drawn_cell(wb[record["sheet"]], record)
    if cell is None:
        return None
    cell.value = EDIT if cell.value != EDIT else "x"
    edited = tmp / f"edited{out.suffix}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wb.save(edited)  # a second save can fail where the first did not (images)
    except Exception:
        return None
    return edited, (cell.row, cell.coordinate)


_CELL = r'<(?:[\w.-]+:)?c r="{ref}"(?:[^>]*?/>|[^>]*?>.*?</(?:[\w.-]+:)?c>)'


def _edit_xml(record: dict[str, Any], out: Path, tmp: Path) -> tuple[Path, Any] | None:
    """The output with one stored drawn cell's XML replaced by an inline string, through
    zipfile and the oracle's sheet reader (no xlshuffle code)."""
    cells = oracle.sheet_cells(out, record["sheet"])
    left, top, right, bottom = range_boundaries(record["target"]["ref"])
    first = top + 1 if record["header"] and record["mode"] != "columns" else top
    drawn = sorted(p for p in cells if first <= p[0] <= bottom and left <= p[1] <= right)
    part = oracle.sheet_part(out, record["sheet"])
    with zipfile.ZipFile(out) as zf:
        xml = zf.read(part)
    for row, col in drawn:
        ref = f"{oracle.col_letter(col)}{row}"
        new = f'<c r="{ref}" t="inlineStr"><is><t>edited</t></is></c>'.encode()
        pattern = re.compile(_CELL.format(ref=ref).encode(), re.S)
        changed, n = pattern.subn(new.replace(b"\\", b"\\\\"), xml, count=1)
        if n:
            edited = tmp / f"edited{out.suffix}"
            with zipfile.ZipFile(out) as zin, zipfile.ZipFile(edited, "w") as zout:
                for info in zin.infolist():
                    zout.writestr(info, changed if info.filename == part else zin.read(info))
            return edited, (row, ref)
    return None


_PLAIN_F = re.compile(
    rb'<(?:[\w.-]+:)?c r="([A-Z]{1,3})(\d+)"[^>]*><(?:[\w.-]+:)?f>([^<]+)</(?:[\w.-]+:)?f>'
)


def _edit_formula(record: dict[str, Any], out: Path, tmp: Path) -> tuple[Path, str] | None:
    """The output with the text of one formula of the drawn rows changed (``+1``
    appended), through zipfile and the oracle's sheet reader; None without one."""
    left, top, right, bottom = range_boundaries(record["target"]["ref"])
    first = top + 1 if record["header"] and record["mode"] != "columns" else top
    part = oracle.sheet_part(out, record["sheet"])
    with zipfile.ZipFile(out) as zf:
        xml = zf.read(part)
    for m in _PLAIN_F.finditer(xml):  # one pass over the sheet
        col, row = range_boundaries(m[1].decode() + m[2].decode())[:2]
        if first <= row <= bottom and left <= col <= right:
            changed = xml[: m.end(3)] + b"+1" + xml[m.end(3) :]
            edited = tmp / f"formula{out.suffix}"
            with zipfile.ZipFile(out) as zin, zipfile.ZipFile(edited, "w") as zout:
                for info in zin.infolist():
                    zout.writestr(info, changed if info.filename == part else zin.read(info))
            return edited, f"{m[1].decode()}{m[2].decode()}"
    return None


# --------------------------------------------------------------------------- checks


def check_workbook_shuffle(src: Path, tmp: Path, *extra: str) -> str:
    """Shuffle, verify, edit, verify again; what happened, or a failure text."""
    inp, out, rec = tmp / f"in{src.suffix}", tmp / f"out{src.suffix}", tmp / "r.json"
    inp.write_bytes(src.read_bytes())
    code, _, err = quiet("shuffle", inp, "-o", out, "--seed", "property", "--record", rec, *extra)
    if code != 0:
        return "refused"
    code, _, err = quiet("verify", rec, "--input", inp, "--output", out)
    if code != 0:
        return f"FAIL {src.name}: verify of its own draw exits {code}: {err}"
    record = json.loads(rec.read_text(encoding="utf-8"))
    edited = _edit_with_openpyxl(record, out, tmp)
    how = "openpyxl"
    if edited is None:
        edited, how = _edit_xml(record, out, tmp), "xml"
    if edited is None:
        return "drawn, no cell to edit"
    path, (row, ref) = edited
    code, _, err = quiet("verify", rec, "--input", inp, "--output", path)
    if code != 1 or not _named(err, row, ref):
        return f"FAIL {src.name}: cell {ref} edited ({how}), verify exits {code}: {err}"
    formula = _edit_formula(record, out, tmp)
    if formula is not None:  # a moved formula's text edited, its cached value kept
        path, ref = formula
        code, _, err = quiet("verify", rec, "--input", inp, "--output", path)
        if code != 1 or f"cell {ref} holds =" not in err or "\n" in err.rstrip("\n"):
            return f"FAIL {src.name}: formula {ref} edited, verify exits {code}: {err}"
        how += ", formula edit caught"
    return f"drawn, edit caught ({how})"


def check_printed_sample(src: Path, tmp: Path, k: int = 3) -> str:
    """Sample to stdout, save it, verify; change winner 1's line, verify again."""
    rec, saved = tmp / "s.json", tmp / "winners.csv"
    code, printed, err = quiet("sample", src, "-k", k, "--seed", "property", "--record", rec)
    if code == 2 and "ask for at most" in err and k > 1:
        return check_printed_sample(src, tmp, 1)
    if code != 0:
        return "refused"
    saved.write_bytes(printed)
    code, _, err = quiet("verify", rec, "--input", src, "--output", saved)
    if code != 0:
        return f"FAIL {src.name}: verify of its printed winners exits {code}: {err}"
    # the last winner's last line (a labels row or a winner may span lines)
    lines = printed.rstrip(b"\r\n").split(b"\n")
    lines[-1] = lines[-1].rstrip(b"\r") + "✗".encode()
    saved.write_bytes(b"\n".join(lines) + b"\n")
    code, _, err = quiet("verify", rec, "--input", src, "--output", saved)
    if code != 1 or not re.search(r"line \d+ is .*, but winner \d+ ", err) or "\n" in err:
        return f"FAIL {src.name}: the last winner edited, verify exits {code}: {err}"
    return "drawn, edit caught"


# --------------------------------------------------------------------------- the corpus


@pytest.mark.slow
def test_every_corpus_draw_verifies_and_a_one_cell_edit_is_caught(tmp_path: Path):
    files = sorted(p for p in CORPUS.glob("*") if p.suffix.lower() in KINDS)
    require("corpus", bool(files), f"put the shared corpus at {CORPUS}")
    outcomes: dict[str, int] = {}
    failures = []
    formulas = 0  # draws whose output had a moved formula edited, and caught
    for i, src in enumerate(files):
        for check in (check_workbook_shuffle, check_printed_sample):
            work = tmp_path / f"{i}-{check.__name__}"
            work.mkdir()
            what = check(src, work)
            if what.startswith("FAIL"):
                failures.append(what)
            formulas += "formula edit caught" in what
            short = "FAIL" if what.startswith("FAIL") else what.split(" (")[0]
            key = f"{check.__name__}: {short}"
            outcomes[key] = outcomes.get(key, 0) + 1
    assert failures == [], "\n".join(failures)
    # the check is not empty: most workbooks that draw get an edit caught
    assert outcomes.get("check_workbook_shuffle: drawn, edit caught", 0) >= 40, outcomes
    assert outcomes.get("check_printed_sample: drawn, edit caught", 0) >= 60, outcomes
    assert formulas >= 15, formulas  # an edited formula is caught on real files too (21)


# --------------------------------------------------------------------------- generated

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow  # forty generated workbooks, seconds (the CSV property below stays quick)
@SETTINGS
@given(
    spec=book_specs(min_rows=1),
    by=st.sampled_from(["rows", "columns", "cells"]),
    header=st.sampled_from([[], ["--no-header"]]),
)
def test_generated_workbook_draws_verify_and_edits_are_caught(spec, by, header):
    with folder() as tmp:
        src = write_book(spec, tmp / "gen.xlsx")
        what = check_workbook_shuffle(src, tmp, "--by", by, *header)
        assert not what.startswith("FAIL"), what
        event(f"shuffle: {what}")
        (tmp / "s").mkdir()
        what = check_printed_sample(src, tmp / "s")
        assert not what.startswith("FAIL"), what
        event(f"sample: {what}")


_FIELD = st.text(st.characters(codec="utf-8", exclude_characters="\r\x00"), max_size=8)


def _csv_field(text: str, sep: str) -> str:
    if any(c in text for c in (sep, '"', "\n")) or text != text.strip():
        return '"' + text.replace('"', '""') + '"'
    return text


@st.composite
def csv_lists(draw: st.DrawFn) -> tuple[bytes, str]:
    sep = draw(st.sampled_from([",", ";", "\t"]))
    width = draw(st.integers(1, 4))
    n = draw(st.integers(1, 12))
    rows = [[f"col{c}" for c in range(width)]]
    rows += [
        [f"r{i}", *draw(st.lists(_FIELD, min_size=width - 1, max_size=width - 1))] for i in range(n)
    ]
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(sep.join(_csv_field(f, sep) for f in row) for row in rows)
    bom = draw(st.sampled_from(["", "\ufeff"]))
    return (bom + text + draw(st.sampled_from(["", end]))).encode("utf-8"), sep


@SETTINGS
@given(
    data=csv_lists(),
    command=st.sampled_from([["shuffle"], ["groups", "-k", "2"]]),
    flip=st.integers(0, 10**6),
)
def test_generated_csv_draws_verify_and_edits_are_caught(data, command, flip):
    body, sep = data
    with folder() as tmp:
        src = tmp / ("list.tsv" if sep == "\t" else "list.csv")
        src.write_bytes(body)
        out, rec = tmp / f"out{src.suffix}", tmp / "r.json"
        code, _, err = quiet(*command, src, "-o", out, "--seed", "p", "--record", rec)
        if code != 0:  # groups -k 2 of one row asks for at most 1
            assert code == 2 and "ask for at most" in err, err
            return
        assert quiet("verify", rec, "--input", src, "--output", out)[0] == 0
        # one cell changed in plain bytes: a data record's first field, r<i> -> R<i>
        raw = out.read_bytes()
        starts = [m.start() + 1 for m in re.finditer(rb"(?:^|\n)(?:\xef\xbb\xbf)?r\d", raw)]
        at = starts[flip % len(starts)] if starts else 0
        at = raw.index(b"r", at)
        out.write_bytes(raw[:at] + b"R" + raw[at + 1 :])
        code, _, err = quiet("verify", rec, "--input", src, "--output", out)
        assert code == 1 and "is not the recorded output's" in err, err
        (tmp / "s").mkdir()
        what = check_printed_sample(src, tmp / "s")
        assert not what.startswith("FAIL"), what
