"""Text written into a workbook: a sample's sheet name and a groups column's label (the
caller's), and moved formulas (the file's). Whatever Excel accepts is written and read back
as given, by openpyxl; whatever it refuses is refused before anything is written, in one
line naming the option.

Excel's rules are restated here from its documentation, not taken from the code under test:
a sheet name is 1 to 31 characters, none of ``\\ / ? * [ ] :``, not starting or ending with
an apostrophe, not ``History``, and without control characters; a cell holds XML text of
at most 32,767 characters.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlshuffle import OptionError
from xlshuffle.workbook import groups_workbook, sample_workbook, shuffle_workbook

FORBIDDEN = set("\\/?*[]:")


def excel_accepts_sheet_name(name: str) -> bool:
    return (
        0 < len(name) <= 31
        and bool(name.strip())
        and not FORBIDDEN & set(name)
        and not name.startswith("'")
        and not name.endswith("'")
        and name.casefold() != "history"
        and all(_xml_char(c) and c >= " " for c in name)
    )


def _xml_char(c: str) -> bool:
    o = ord(c)
    return o in (9, 10, 13) or 0x20 <= o <= 0xD7FF or 0xE000 <= o <= 0xFFFD or o >= 0x10000


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("names") / "in.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Entrants"
    for row in [["name"], ["Ann"], ["Bob"], ["Cid"], ["Dee"]]:
        wb.active.append(row)
    wb.save(path)
    return path


def _sheet_names(path: Path) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wb = openpyxl.load_workbook(path)
    return list(wb.sheetnames)


_NAMES = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="ab '/:[]*?\\\x01", max_size=34),
    st.sampled_from(["History", "HISTORY", "'quoted'", " ", "x" * 31, "x" * 32, "Entrants"]),
)


@settings(max_examples=60, deadline=None)
@given(name=_NAMES)
def test_a_sample_sheet_is_named_as_asked_or_refused(
    book: Path, tmp_path_factory: pytest.TempPathFactory, name: str
) -> None:
    out = tmp_path_factory.mktemp("out") / "out.xlsx"
    if not excel_accepts_sheet_name(name):
        with pytest.raises(OptionError, match="sheet_name") as info:
            sample_workbook(book, out, k=2, seed=1, sheet_name=name)
        assert "\n" not in str(info.value)
        assert not out.exists()
        return
    sample_workbook(book, out, k=2, seed=1, sheet_name=name)
    names = _sheet_names(out)
    assert names[0] == "Entrants"
    new = names[-1]
    if name.casefold() == "entrants":  # taken: the next free one, still a valid name
        assert new.casefold() != "entrants" and new.endswith(" 2")
    else:
        assert new == name
    assert excel_accepts_sheet_name(new), new


def test_a_taken_name_of_31_characters_is_shortened_to_fit(book: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "one.xlsx", tmp_path / "two.xlsx"
    sample_workbook(book, first, k=2, seed=1, sheet_name="W" * 31)
    sample_workbook(first, second, k=2, seed=1, sheet_name="W" * 31)
    assert _sheet_names(second)[1:] == ["W" * 31, "W" * 29 + " 2"]


@settings(max_examples=60, deadline=None)
@given(label=st.one_of(st.text(max_size=20), st.sampled_from(["\udcd2", "a\x01b", "\ufffe"])))
def test_a_group_label_is_written_as_given_or_refused(
    book: Path, tmp_path_factory: pytest.TempPathFactory, label: str
) -> None:
    out = tmp_path_factory.mktemp("out") / "out.xlsx"
    if not all(_xml_char(c) for c in label):
        with pytest.raises(OptionError, match="label holds") as info:
            groups_workbook(book, out, k=2, seed=1, label=label)
        assert "\n" not in str(info.value)
        assert not out.exists()
        return
    if label.strip().casefold() == "name":  # the header holds it: refused (tested elsewhere)
        return
    groups_workbook(book, out, k=2, seed=1, label=label)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ws = openpyxl.load_workbook(out).active
    got = ws["B1"].value
    # openpyxl reads an empty inline string as no value
    assert (got or "") == label


@pytest.mark.parametrize(
    ("command", "flag", "value"),
    [
        ("sample", "--sheet-name", "Q1/Q2"),
        ("sample", "--sheet-name", "x" * 32),
        ("groups", "--label", "a\x01b"),
    ],
)
def test_the_command_line_refuses_them_as_usage_errors(
    book: Path, tmp_path: Path, command: str, flag: str, value: str
) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "xlshuffle",
            command,
            str(book),
            "-k",
            "2",
            "--seed",
            "1",
            "-o",
            str(tmp_path / "out.xlsx"),
            flag,
            value,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and flag in lines[0], done.stderr
    assert not (tmp_path / "out.xlsx").exists()


def test_a_carriage_return_in_a_moved_formula_stays_one(tmp_path: Path) -> None:
    # was: written as a raw CR, which every XML parser reads as a line feed (XML 1.0, 2.11),
    # so a moved formula's string "a\rb" came back as "a\nb"
    src, out = tmp_path / "in.xlsx", tmp_path / "out.xlsx"
    wb = openpyxl.Workbook()
    wb.active.append(["n", "f"])
    for i in range(1, 7):
        wb.active.append([i, f'="a\rb"&A{i + 1}'])
    wb.save(src)
    shuffle_workbook(src, out, seed=3, cells="A1:B7", header=True)
    ws = openpyxl.load_workbook(out).active
    formulas = [ws.cell(r, 2).value for r in range(2, 8)]
    assert all('"a\rb"' in f for f in formulas), formulas
    assert sorted(formulas) == [f'="a\rb"&A{r}' for r in range(2, 8)]
