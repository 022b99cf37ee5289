"""``verify`` checks winners that ``sample`` printed to stdout and the user saved.

``xlshuffle sample IN -k 3 --seed S --record r.json > winners.csv`` (run here through a
real redirect, in a subprocess), then ``xlshuffle verify r.json --input IN --output
winners.csv`` exits 0; an edited, missing or extra winner exits 1 naming the line. For
workbooks and CSV/TSV lists. The edits are made on the saved bytes, not by xlshuffle.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from xlshuffle.cli import main

from support import ROOT


def run(*argv: str | Path) -> int:
    return main([str(a) for a in argv])


def _printed(tmp_path: Path, src: Path, k: int, seed: str) -> tuple[Path, Path]:
    """Run the sample with its stdout redirected to a file, as a shell does."""
    record, saved = tmp_path / "r.json", tmp_path / "winners.csv"
    with saved.open("wb") as fh:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "xlshuffle",
                "sample",
                str(src),
                "-k",
                str(k),
                "--seed",
                seed,
                "--record",
                str(record),
            ],
            check=True,
            stdout=fh,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
        )
    return record, saved


def _workbook(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Class 7B"
    ws.append(["name", "score", "note"])
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]):
        ws.append([name, 10 * i + 0.5, 'a, "quoted"\nnote' if i == 2 else None])
    wb.save(path)
    return path


def _list(path: Path) -> Path:
    path.write_bytes(
        b'\xef\xbb\xbfname;note\r\nAnn;"a;b"\r\nBob;x\r\nCid;"2\r\nlines"\r\n'
        b"Dee;y\r\nEve;\r\nFay;z\r\n"
    )
    return path


SOURCES = {"workbook": ("in.xlsx", _workbook), "list": ("in.csv", _list)}


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path, Path]]:
    """Each source drawn once (a Python started per draw), for every test to copy."""
    out = {}
    for kind, (name, make) in SOURCES.items():
        folder = tmp_path_factory.mktemp(kind)
        src = make(folder / name)
        out[kind] = (src, *_printed(folder, src, 4, "winners"))
    return out


@pytest.fixture(params=sorted(SOURCES))
def drawn(request, printed, tmp_path: Path) -> tuple[Path, Path, Path]:
    """The source, the record and the saved winners, copies this test may edit."""
    return tuple(  # type: ignore[return-value]
        Path(shutil.copy(path, tmp_path / path.name)) for path in printed[request.param]
    )


def test_saved_winners_verify(drawn, capsys):
    src, record, saved = drawn
    assert len(saved.read_bytes().splitlines()) >= 5
    assert run("verify", record, "--input", src, "--output", saved) == 0, capsys.readouterr()
    assert "input and output checked" in capsys.readouterr().out


def test_what_a_shell_does_to_the_bytes_does_not_count(drawn, tmp_path: Path):
    src, record, saved = drawn
    text = saved.read_bytes().decode("utf-8-sig")
    crlf = tmp_path / "crlf.csv"
    crlf.write_bytes(text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8"))
    assert run("verify", record, "--input", src, "--output", crlf) == 0
    utf16 = tmp_path / "utf16.csv"  # Windows PowerShell 5's '>'
    utf16.write_bytes(text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-16"))
    assert run("verify", record, "--input", src, "--output", utf16) == 0
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8") + b"\n\n")
    assert run("verify", record, "--input", src, "--output", bom) == 0


def _lines(saved: Path) -> list[bytes]:
    return saved.read_bytes().split(b"\n")


def test_an_edited_winner_is_caught_naming_its_line(drawn, capsys):
    src, record, saved = drawn
    lines = _lines(saved)
    # line 3 is winner 2 (no winner of either source spans lines before it)
    assert lines[2].strip()
    lines[2] = lines[2].replace(lines[2][-3:-1], b"ZZ") if len(lines[2]) > 3 else b"ZZ"
    saved.write_bytes(b"\n".join(lines))
    capsys.readouterr()
    assert run("verify", record, "--input", src, "--output", saved) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "line 3 is" in err and "winner 2" in err, err


def test_a_missing_or_extra_winner_is_caught(drawn, tmp_path: Path, capsys):
    src, record, saved = drawn
    text = saved.read_bytes().rstrip(b"\r\n")
    short = tmp_path / "short.csv"
    short.write_bytes(text.rsplit(b"\n", 1)[0] + b"\n")
    assert run("verify", record, "--input", src, "--output", short) == 1
    assert "without winner 4" in capsys.readouterr().err
    longer = tmp_path / "long.csv"
    longer.write_bytes(text + b"\nMallory,1,2\n")
    assert run("verify", record, "--input", src, "--output", longer) == 1
    assert "more than the draw printed" in capsys.readouterr().err


def test_the_labels_row_is_checked(drawn, capsys):
    src, record, saved = drawn
    saved.write_bytes(saved.read_bytes().replace(b"name", b"nom", 1))
    assert run("verify", record, "--input", src, "--output", saved) == 1
    err = capsys.readouterr().err
    assert "line 1 is" in err and ("labels row" in err or "header row" in err), err


def test_saved_winners_need_the_input(drawn, capsys):
    _src, record, saved = drawn
    assert run("verify", record, "--output", saved) == 2
    assert "pass --input too" in capsys.readouterr().err


def test_a_winners_file_for_another_input_is_refused(drawn, tmp_path: Path, capsys):
    src, record, saved = drawn
    other = tmp_path / f"other{src.suffix}"
    other.write_bytes(src.read_bytes() + (b"Hal;w\r\n" if src.suffix == ".csv" else b""))
    if src.suffix != ".csv":
        wb = openpyxl.load_workbook(src)
        wb.active.append(["Hal", 1])
        wb.save(other)
    assert run("verify", record, "--input", other, "--output", saved) == 1
    assert "SHA-256" in capsys.readouterr().err
