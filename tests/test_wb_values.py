"""Tests of xlshuffle.workbook.values.cells: cell values from raw .xlsx XML.

Oracles: hand-written known answers, openpyxl (``load_workbook(data_only=True)``,
``from_excel``, ``is_date_format``) and lxml, which splits the test workbooks
independently of the module under test.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import glob
import math
import posixpath
import re
import time
import warnings
import zipfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from xlshuffle.common.celltext import text_of
from xlshuffle.workbook.values.cells import (
    CellStyles,
    SharedStrings,
    ValuesError,
    cell_value,
    workbook_date1904,
)

from support import ROOT, SHARED

openpyxl = pytest.importorskip("openpyxl")
etree = pytest.importorskip("lxml.etree")
from openpyxl.styles.numbers import is_date_format, is_timedelta_format  # noqa: E402
from openpyxl.utils.datetime import MAC_EPOCH, WINDOWS_EPOCH, from_excel  # noqa: E402

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
STRICT = "http://purl.oclc.org/ooxml/spreadsheetml/main"
FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = SHARED / "corpus"

DATE = 1  # style index of a date format in STYLES
ELAPSED = 2  # style index of [h]:mm:ss
STYLES = CellStyles(date_styles=[DATE, ELAPSED], elapsed_styles=[ELAPSED])
SST = SharedStrings(["zero", "one", "", "  spaced  "])


def value(xml: bytes | str, *, date1904: bool = False, strings: SharedStrings | None = SST):
    data = xml.encode() if isinstance(xml, str) else xml
    return cell_value(data, strings=strings, styles=STYLES, date1904=date1904)


def same(a: object, b: object) -> bool:
    """Equal and of the same type; floats bit for bit (the sign of zero counts)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (
            a == b and math.copysign(1, a) == math.copysign(1, b)
        )
    return a == b


# --------------------------------------------------------------------------- known answers

KNOWN = [
    # shared strings
    ('<c r="A1" t="s"><v>1</v></c>', "one"),
    ('<x:c r="A1" t="s"><x:v>0</x:v></x:c>', "zero"),
    ('<c r="A1" t="s"><v>2</v></c>', ""),
    ('<c r="A1" t="s"><v>3</v></c>', "  spaced  "),
    ('<c r="A1" t="s"><v> 1 </v></c>', "one"),
    (f'<c xmlns="{STRICT}" r="A1" t="s"><v>1</v></c>', "one"),
    # inline strings
    ('<c r="A1" t="inlineStr"><is><t>plain</t></is></c>', "plain"),
    ('<x:c r="A1" t="inlineStr"><x:is><x:t>pre</x:t></x:is></x:c>', "pre"),
    ('<c t="inlineStr"><is><r><t>Bo</t></r><r><rPr><b/></rPr><t>ld</t></r></is></c>', "Bold"),
    (
        '<c t="inlineStr"><is><r><t>東京</t></r><rPh sb="0" eb="2"><t>トウキョウ</t></rPh>'
        '<phoneticPr fontId="1"/></is></c>',
        "東京",
    ),
    ('<c t="inlineStr"><is><t xml:space="preserve">  two  spaces </t></is></c>', "  two  spaces "),
    ('<c t="inlineStr"><is><t>  kept anyway\n</t></is></c>', "  kept anyway\n"),
    ('<c t="inlineStr"><is><t>a&#10;b&#x1F600;&#x9;</t></is></c>', "a\nb\U0001f600\t"),
    ('<c t="inlineStr"><is><t>&lt;&gt;&amp;&quot;&apos;</t></is></c>', "<>&\"'"),
    ('<c t="inlineStr"><is><t><![CDATA[<b>&amp;</b>]]></t></is></c>', "<b>&amp;</b>"),
    ('<c t="inlineStr"><is><t>a<![CDATA[ ]]>b</t></is></c>', "a b"),
    ('<c t="inlineStr"><is><t>line_x000D_end</t></is></c>', "line\rend"),
    ('<c t="inlineStr"><is><t>_x005F_x000D_</t></is></c>', "_x000D_"),
    ('<c t="inlineStr"><is><t>_x12_ _xZZZZ_ _x0041</t></is></c>', "_x12_ _xZZZZ_ _x0041"),
    ('<c t="inlineStr"><is><t>_xD83D__xDE00_ _xD83D_</t></is></c>', "\U0001f600 _xD83D_"),
    ('<c t="inlineStr"><is><t/></is></c>', ""),
    ('<c t="inlineStr"><is><t>first</t></is><is><t>second</t></is></c>', "first"),
    ('<c t="inlineStr"><is><t>a<t>nested</t>b</t><t2>no</t2></is></c>', "ab"),
    ('<c t="str"><v>a<x>inner</x>b</v><v>second</v></c>', "ab"),
    ('<c t="inlineStr"></c>', None),
    ('<c t="inlineStr"><v>ignored</v><is><t>is</t></is></c>', "is"),
    ('<c t="inlineStr"><is><t>a</t><r><t>b</t></r><rPh><t>x</t></rPh></is></c>', "ab"),
    ("<c t='inlineStr'><is><t>single quotes</t></is></c>", "single quotes"),
    # formula strings
    ('<c t="str"><f>A1&amp;"x"</f><v>text result</v></c>', "text result"),
    ('<c t="str"><f>""</f><v></v></c>', ""),
    ('<c t="str"><f>""</f><v/></c>', ""),
    ('<c t="str"><f>A1</f></c>', None),
    ('<c t="str"><v>  edge\r\nspace  </v></c>', "  edge\nspace  "),
    ('<c t="str"><v>_x000D_</v></c>', "_x000D_"),  # not an ST_Xstring escape in <v>
    # booleans and errors
    ('<c t="b"><v>1</v></c>', True),
    ('<c t="b"><v>0</v></c>', False),
    ('<c t="b"><v>true</v></c>', True),
    ('<c t="b"><f>1=2</f><v>false</v></c>', False),
    ('<c t="e"><v>#N/A</v></c>', "#N/A"),
    ('<c t="e"><f>1/0</f><v>#DIV/0!</v></c>', "#DIV/0!"),
    ('<c t="e" vm="1"><v>#VALUE!</v></c>', "#VALUE!"),
    # numbers
    ("<c><v>42</v></c>", 42),
    ('<c t="n"><v>-17</v></c>', -17),
    ("<c><v>+5</v></c>", 5),
    ("<c><v> 42\n</v></c>", 42),
    ("<c><v>0.1</v></c>", 0.1),
    ("<c><v>1E+308</v></c>", 1e308),
    ("<c><v>1e-320</v></c>", 1e-320),
    ("<c><v>-0</v></c>", 0),
    ("<c><v>-0.0</v></c>", -0.0),
    ("<c><v>.5</v></c>", 0.5),
    ("<c><v>5.</v></c>", 5.0),
    ("<c><v>1E+400</v></c>", math.inf),
    ("<c><v>12345678901234567</v></c>", 12345678901234567),
    ("<c><v>123456789012345678901234567890</v></c>", 123456789012345678901234567890),
    ("<c><v>2.0</v></c>", 2.0),
    ("<c><v>1.5E3</v></c>", 1500.0),
    ("<c><f>SUM(A1:A3)</f><v>6</v></c>", 6),
    ('<c r="A1" s="0"/>', None),
    ("<c><f>NOW()</f></c>", None),
    ("<c><v></v></c>", None),
    ("<c><v>  </v></c>", None),
    ('<c t="s"><v/></c>', None),
    ('<c t="b"/>', None),
    # dates from serials, 1900 system (openpyxl's from_excel rules)
    ('<c s="1"><v>1</v></c>', dt.datetime(1900, 1, 1)),
    ('<c s="1"><v>59</v></c>', dt.datetime(1900, 2, 28)),
    ('<c s="1"><v>60</v></c>', dt.datetime(1900, 2, 28)),  # fictitious 1900-02-29
    ('<c s="1"><v>61</v></c>', dt.datetime(1900, 3, 1)),
    ('<c s="1"><v>0</v></c>', dt.time(0, 0)),
    ('<c s="1"><v>0.25</v></c>', dt.time(6, 0)),
    ('<c s="1"><v>0.999999</v></c>', dt.time(23, 59, 59, 914000)),
    ('<c s="1"><v>0.99999999999</v></c>', dt.datetime(1900, 1, 1)),  # rounds up a day
    ('<c s="1"><v>1.5</v></c>', dt.datetime(1900, 1, 1, 12, 0)),
    ('<c s="1"><v>45292.75</v></c>', dt.datetime(2024, 1, 1, 18, 0)),
    ('<c s="1"><v>45351</v></c>', dt.datetime(2024, 2, 29)),
    ('<c s="1"><v>2958465.99999</v></c>', dt.datetime(9999, 12, 31, 23, 59, 59, 136000)),
    ('<c s="1"><v>-1</v></c>', dt.datetime(1899, 12, 29)),
    ('<c s="1"><v>-0.5</v></c>', dt.datetime(1899, 12, 29, 12, 0)),
    ('<c s="1"><v>3000000</v></c>', "#VALUE!"),
    ('<c s="1"><v>1E+400</v></c>', "#VALUE!"),
    ('<c s="2"><v>1.5</v></c>', dt.timedelta(days=1, hours=12)),
    ('<c s="2"><v>0.5</v></c>', dt.timedelta(hours=12)),
    ('<c s="2"><v>1E+20</v></c>', "#VALUE!"),
    ('<c s="3"><v>45292</v></c>', 45292),  # style 3 is not a date
    ('<c s="1" t="s"><v>1</v></c>', "one"),  # only numbers become dates
    # ISO 8601 dates
    ('<c t="d"><v>2024-02-29T13:45:30</v></c>', dt.datetime(2024, 2, 29, 13, 45, 30)),
    ('<c t="d"><v>2024-02-29T13:45:30.250Z</v></c>', dt.datetime(2024, 2, 29, 13, 45, 30, 250000)),
    ('<c t="d"><v>2024-02-29T13:45:30+02:00</v></c>', dt.datetime(2024, 2, 29, 13, 45, 30)),
    ('<c t="d"><v>2024-02-29</v></c>', dt.date(2024, 2, 29)),
    ('<c t="d"><v>13:45:30</v></c>', dt.time(13, 45, 30)),
    ('<c t="d"><v>T13:45</v></c>', dt.time(13, 45)),
    ('<c t="d" s="1"><v>1899-12-31T00:00:00</v></c>', dt.datetime(1899, 12, 31)),
]


@pytest.mark.parametrize(("xml", "expected"), KNOWN)
def test_known_answers(xml: str, expected: object) -> None:
    assert same(value(xml), expected), value(xml)


KNOWN_1904 = [
    ('<c s="1"><v>0</v></c>', dt.time(0, 0)),
    ('<c s="1"><v>1</v></c>', dt.datetime(1904, 1, 2)),
    ('<c s="1"><v>59</v></c>', dt.datetime(1904, 2, 29)),  # no 1900 shift in 1904 mode
    ('<c s="1"><v>60</v></c>', dt.datetime(1904, 3, 1)),
    ('<c s="1"><v>43830.5</v></c>', dt.datetime(2024, 1, 1, 12, 0)),
    ('<c s="1"><v>-1</v></c>', dt.datetime(1903, 12, 31)),
    ("<c><v>1</v></c>", 1),
]


@pytest.mark.parametrize(("xml", "expected"), KNOWN_1904)
def test_known_answers_1904(xml: str, expected: object) -> None:
    assert same(value(xml, date1904=True), expected)


BAD_CELLS = [
    ('<c t="s"><v>4</v></c>', "does not exist"),
    ('<c t="s"><v>-1</v></c>', "integer"),
    ('<c t="s"><v>1.0</v></c>', "integer"),
    ("<c><v>abc</v></c>", "not a number"),
    ("<c><v>1_000</v></c>", "not a number"),
    ("<c><v>NaN</v></c>", "not a number"),
    ("<c><v>inf</v></c>", "not a number"),
    ("<c><v>١٢</v></c>", "not a number"),
    ("<c><v>1e</v></c>", "not a number"),
    ("<c><v>.</v></c>", "not a number"),
    ('<c t="b"><v>2</v></c>', "boolean"),
    ('<c t="d"><v>yesterday</v></c>', "ISO 8601"),
    ('<c t="d"><v>PT1H</v></c>', "ISO 8601"),
    ('<c t="x"><v>1</v></c>', "unknown cell type"),
    ('<c s="x"><v>1</v></c>', "style index"),
    ("<v>1</v>", "<c>"),
    ('<c t="str"><v>&nbsp;</v></c>', "well-formed"),
    ('<c t="str"><v>&#0;</v></c>', "well-formed"),
    ('<c t="str"><v>\x01</v></c>', "well-formed"),
    ('<c r="A1"><v>1</v>', "well-formed"),
    ("<c><v>1</v></c><c/>", "well-formed"),
    ("", "well-formed"),
    ('<!DOCTYPE c [<!ENTITY a "1">]><c><v>&a;</v></c>', "document type"),
    ('<?xml version="1.0" encoding="shift_jis"?><c/>', "encoding"),
    ('<?xml version="1.0" encoding="rot13"?><c/>', "encoding"),
    ('<?xml version="1.0" encoding="no-such"?><c/>', "encoding"),
]


@pytest.mark.parametrize(("xml", "reason"), BAD_CELLS)
def test_bad_cells_raise_values_error(xml: str, reason: str) -> None:
    with pytest.raises(ValuesError) as info:
        value(xml)
    assert reason in info.value.reason
    assert str(info.value) == info.value.reason


def test_shared_string_cell_without_shared_strings() -> None:
    with pytest.raises(ValuesError, match="without shared strings"):
        value('<c t="s"><v>0</v></c>', strings=None)
    assert value('<c t="str"><v>x</v></c>', strings=None) == "x"


def test_values_error_is_a_workbook_error() -> None:
    from xlshuffle import WorkbookError

    assert issubclass(ValuesError, WorkbookError)
    assert issubclass(ValuesError, ValueError)


def test_text_of_keeps_todays_rules() -> None:
    assert text_of(None) == ""
    assert text_of(dt.datetime(2024, 1, 2, 3, 4, 5)) == "2024-01-02T03:04:05"
    assert text_of(dt.date(2024, 1, 2)) == "2024-01-02"
    assert text_of(dt.time(6, 0)) == "06:00:00"
    assert text_of(3.0) == "3"
    assert text_of(-0.0) == "0"
    assert text_of(2.5) == "2.5"
    assert text_of(1e308) == str(int(1e308))
    assert text_of(math.inf) == "inf"
    assert text_of(12345678901234567) == "12345678901234567"
    assert text_of(True) == "True"
    assert text_of(False) == "False"
    assert text_of("#N/A") == "#N/A"
    assert text_of("") == ""
    assert text_of(dt.timedelta(days=1, hours=12)) == "1 day, 12:00:00"


def test_text_of_keeps_the_rules_of_0_1() -> None:
    # xlshuffle 0.1's CSV rules (its batch._cell_text), written out as known answers
    cases = [
        (None, ""),
        (dt.datetime(2024, 1, 2), "2024-01-02T00:00:00"),
        (dt.time(1, 2), "01:02:00"),
        (3.0, "3"),
        (2.5, "2.5"),
        (True, "True"),
        ("x", "x"),
        (7, "7"),
        (-0.0, "0"),
    ]
    for value, text in cases:
        assert text_of(value) == text


# --------------------------------------------------------------------------- dates vs openpyxl


@given(
    st.one_of(
        st.floats(min_value=-700_000, max_value=3_000_000, allow_nan=False),
        st.integers(min_value=-700_000, max_value=3_000_000),
        st.sampled_from([0, 0.0, 59, 60, 61, 0.5, 1 - 1e-12, 59.999999, 60.5, 2958465.9999999]),
    ),
    st.booleans(),
    st.booleans(),
)
def test_serials_convert_like_openpyxl_from_excel(
    serial: float, date1904: bool, elapsed: bool
) -> None:
    literal = repr(serial) if isinstance(serial, float) else str(serial)
    style = ELAPSED if elapsed else DATE
    ours = value(f'<c s="{style}"><v>{literal}</v></c>', date1904=date1904)
    number = float(literal) if isinstance(serial, float) else int(literal)
    try:
        theirs = from_excel(number, MAC_EPOCH if date1904 else WINDOWS_EPOCH, timedelta=elapsed)
    except (OverflowError, ValueError):
        theirs = "#VALUE!"  # what openpyxl's worksheet reader puts in the cell
    assert same(ours, theirs)


@given(st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers()))
@example(1e308)
@example(-0.0)
@example(5e-324)
@example(2**53 + 1)
def test_numbers_round_trip(number: float) -> None:
    literal = repr(number) if isinstance(number, float) else str(number)
    assert same(value(f"<c><v>{literal}</v></c>"), number)


# --------------------------------------------------------------------------- shared strings

SST_XML = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    f'<sst xmlns="{MAIN}" count="9" uniqueCount="9">'
    "<si><t>plain</t></si>"
    '<si><t xml:space="preserve">  lead and trail  </t></si>'
    '<si><r><t>ri</t></r><r><rPr><b/><sz val="11"/></rPr><t>ch</t></r></si>'
    '<si><r><t>漢字</t></r><rPh sb="0" eb="2"><t>かんじ</t></rPh><phoneticPr fontId="1"/></si>'
    "<si><t>&lt;tag&gt; &amp; &#10;&#x1F600;é</t></si>"
    "<si><t><![CDATA[<not a tag> & ]]>after</t></si>"
    "<si><t/></si>"
    "<si><t>line_x000D__x000A_</t></si>"
    "<si><t>tab\there\r\nCRLF</t></si>"
    "</sst>"
).encode()
SST_EXPECTED = [
    "plain",
    "  lead and trail  ",
    "rich",
    "漢字",
    "<tag> & \n\U0001f600é",
    "<not a tag> & after",
    "",
    "line\r\n",
    "tab\there\nCRLF",
]


def test_shared_strings_known_answers() -> None:
    sst = SharedStrings.parse(SST_XML)
    assert len(sst) == len(SST_EXPECTED)
    assert [sst[i] for i in range(len(sst))] == SST_EXPECTED
    assert list(sst) == SST_EXPECTED
    for bad in (-1, len(sst)):
        with pytest.raises(ValuesError, match="does not exist"):
            sst[bad]


@pytest.mark.parametrize("namespace", [MAIN, STRICT])
def test_shared_strings_any_prefix_and_namespace(namespace: str) -> None:
    prefixed = (
        f'<x:sst xmlns:x="{namespace}"><x:si><x:t>a</x:t></x:si>'
        "<x:si><x:r><x:t>b</x:t></x:r><x:r><x:t>c</x:t></x:r>"
        "<x:rPh><x:t>no</x:t></x:rPh></x:si></x:sst>"
    ).encode()
    assert list(SharedStrings.parse(prefixed)) == ["a", "bc"]


def chunked(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


@given(st.one_of(st.sampled_from([1, 7, 4096]), st.integers(min_value=1, max_value=600)))
def test_shared_strings_in_chunks(size: int) -> None:
    assert list(SharedStrings.parse(chunked(SST_XML, size))) == SST_EXPECTED
    assert list(SharedStrings.parse(iter(chunked(SST_XML, size)))) == SST_EXPECTED


def real_shared_string_parts(count: int, max_size: int = 200_000) -> list[bytes]:
    """The sharedStrings parts of the first ``count`` workbooks that have a small one."""
    parts = []
    for path in corpus_files():
        try:
            with zipfile.ZipFile(path) as zf:
                names = [i for i in zf.infolist() if i.filename.endswith("sharedStrings.xml")]
                if names and names[0].file_size <= max_size:
                    parts.append(zf.read(names[0]))
        except (zipfile.BadZipFile, OSError):
            continue
        if len(parts) == count:
            break
    return parts


def test_shared_strings_of_real_parts_in_chunks() -> None:
    parts = real_shared_string_parts(8)
    if not parts:
        pytest.skip("no workbooks with shared strings")
    for part in parts:
        whole = list(SharedStrings.parse(part))
        oracle = [
            "".join(
                si.xpath(
                    "./*[local-name()='t']/text()"
                    " | ./*[local-name()='r']/*[local-name()='t']/text()"
                )
            )
            for si in etree.fromstring(part).iterchildren("{*}si")
        ]
        assert whole == [xstring_decoded(text) for text in oracle]
        for size in (1, 7, 4096):
            assert list(SharedStrings.parse(chunked(part, size))) == whole


def test_too_many_shared_strings_fails_fast() -> None:
    part = b"<sst>" + b"<si><t>x</t></si>" * 1_000_000 + b"</sst>"
    start = time.perf_counter()
    with pytest.raises(ValuesError, match="more than 1,000 shared strings") as info:
        SharedStrings.parse(part, max_strings=1000)
    assert time.perf_counter() - start < 1.0
    assert "1,000" in info.value.reason

    def endless():
        yield b"<sst>"
        while True:
            yield b"<si><t>x</t></si>" * 100

    with pytest.raises(ValuesError, match="shared strings"):
        SharedStrings.parse(endless(), max_strings=10_000)


def test_too_many_shared_string_characters() -> None:
    part = b"<sst><si><t>" + b"x" * 2_000_000 + b"</t></si></sst>"
    with pytest.raises(ValuesError, match="characters"):
        SharedStrings.parse(part, max_chars=1_000_000)
    assert len(SharedStrings.parse(part, max_chars=2_000_000)[0]) == 2_000_000
    runs = b"<sst>" + (b"<si><r><t>abc</t></r><rPh><t>" + b"y" * 50 + b"</t></rPh></si>") * 10
    assert len(SharedStrings.parse(runs + b"</sst>", max_chars=30)) == 10  # rPh not counted
    with pytest.raises(ValuesError, match="characters"):
        SharedStrings.parse(runs + b"</sst>", max_chars=29)


@pytest.mark.parametrize(
    ("part", "reason"),
    [
        (b"<workbook/>", "not <sst>"),
        (b"<sst><si><t>open", "well-formed"),
        (b'<!DOCTYPE sst [<!ENTITY a "aaaa">]><sst><si><t>&a;</t></si></sst>', "document type"),
        (b"", "well-formed"),
    ],
)
def test_bad_shared_strings(part: bytes, reason: str) -> None:
    with pytest.raises(ValuesError, match=reason):
        SharedStrings.parse(part)


# --------------------------------------------------------------------------- styles


def styles_xml(codes: list[str], *, builtin_ids: list[int] = (), prefix: str = "") -> bytes:
    """A styles part with one custom format (164 + i) per code, then the built-in ids."""
    p = f"{prefix}:" if prefix else ""
    xmlns = f"xmlns:{prefix}" if prefix else "xmlns"

    def attr(text: str) -> str:
        return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")

    fmts = "".join(
        f'<{p}numFmt numFmtId="{164 + i}" formatCode="{attr(code)}"/>'
        for i, code in enumerate(codes)
    )
    xfs = "".join(f'<{p}xf numFmtId="{164 + i}"/>' for i in range(len(codes)))
    xfs += "".join(f'<{p}xf numFmtId="{n}"/>' for n in builtin_ids)
    return (
        f'<{p}styleSheet {xmlns}="{MAIN}"><{p}numFmts>{fmts}</{p}numFmts>'
        f'<{p}cellStyleXfs><{p}xf numFmtId="14"/></{p}cellStyleXfs>'
        f"<{p}cellXfs>{xfs}</{p}cellXfs></{p}styleSheet>"
    ).encode()


BUILTIN_DATES = {*range(14, 23), *range(27, 37), *range(45, 48), *range(50, 59)}


def test_builtin_format_ids() -> None:
    ids = list(range(0, 200))
    styles = CellStyles.parse(styles_xml([], builtin_ids=ids))
    assert {n for n in ids if styles.is_date(n)} == BUILTIN_DATES
    assert {n for n in ids if styles.is_elapsed(n)} == {46}
    # openpyxl agrees on every id it knows a format for; 27-36 and 50-58 it does not know
    from openpyxl.styles.numbers import BUILTIN_FORMATS

    for n, code in BUILTIN_FORMATS.items():
        assert styles.is_date(n) == is_date_format(code), n
    assert not (BUILTIN_DATES - set(BUILTIN_FORMATS)) & set(BUILTIN_FORMATS)


def test_custom_format_overrides_builtin_id() -> None:
    part = (
        f'<styleSheet xmlns="{MAIN}"><numFmts><numFmt numFmtId="14" formatCode="0.00"/>'
        '<numFmt numFmtId="3" formatCode="yyyy"/></numFmts>'
        '<cellXfs><xf numFmtId="14"/><xf numFmtId="3"/><xf/></cellXfs></styleSheet>'
    ).encode()
    styles = CellStyles.parse(part)
    assert [styles.is_date(i) for i in range(3)] == [False, True, False]


FORMAT_CODES = [
    "General",
    "0",
    "0.00",
    "#,##0",
    "#,##0.00",
    "@",
    '"days"0',
    "0%",
    "0.00E+00",
    "# ?/?",
    "yyyy-mm-dd",
    "d/m/yyyy",
    "dd/mm/yy;@",
    "mmm-yy",
    "h:mm",
    "h:mm:ss AM/PM",
    "[h]:mm:ss",
    "[hh]:mm",
    "[mm]:ss",
    "[ss].0",
    "[H]:MM",
    "mm:ss.0",
    "[$-409]mmmm d, yyyy;@",
    "[$-F800]dddd, mmmm dd, yyyy",
    "[$-F400]h:mm:ss\\ AM/PM",
    '[Red]"day"0',
    "[>100]0;0",
    "[Blue]#,##0",
    '"Date: "0',
    "\\d0",
    "_d0",
    '0" h"',
    "0\\h",
    "#,##0_);[Red](#,##0)",
    '_("$"* #,##0_);_("$"* \\(#,##0\\);_("$"* "-"_);_(@_)',
    '[DBNum1][$-804]yyyy"年"m"月"',
    'yyyy"年"m"月"d"日"',
    "ge.m.d",
    '[$-411]ggge"年"m"月"d"日"',
    "B1yyyy/mm/dd",
    "0.0;[Red]-0.0",
    '0;"yes";"no"',
    "mm/dd/yyyy hh:mm",
    "m/d",
    "d",
    "yy",
    "s",
    "h",
    '0.00 "kg"',
    '#,##0 "mm"',
    "[$€-2] #,##0.00",
    "[$USD] 0",
    "0.00;-0.00;;@",
]

# Format codes where the scanner and openpyxl's is_date_format disagree, on purpose:
# (code, ours, openpyxl's). openpyxl splits at a ';' inside quotes; it reads the
# fill character after '*' as a token; it strips [H] (capital) as a locale.
FORMAT_DIFFERENCES = [
    ('"a;b"d', True, False),
    ("#,##0*d", False, True),
    ("[H]", True, False),
]


def test_format_codes_agree_with_openpyxl() -> None:
    styles = CellStyles.parse(styles_xml(FORMAT_CODES))
    for i, code in enumerate(FORMAT_CODES):
        assert styles.is_date(i) == is_date_format(code), code
        if styles.is_date(i):
            assert styles.is_elapsed(i) == is_timedelta_format(code), code
    assert sum(styles.is_date(i) for i in range(len(FORMAT_CODES))) >= 20


def test_documented_format_differences() -> None:
    codes = [code for code, _, _ in FORMAT_DIFFERENCES]
    styles = CellStyles.parse(styles_xml(codes))
    for i, (code, ours, theirs) in enumerate(FORMAT_DIFFERENCES):
        assert styles.is_date(i) is ours, code
        assert is_date_format(code) is theirs, code


def corpus_files() -> list[Path]:
    files = sorted(FIXTURES.glob("*.xls[xm]")) if FIXTURES.is_dir() else []
    if CORPUS.is_dir():
        files += sorted(Path(p) for p in glob.glob(str(CORPUS / "*.xls[xm]")))
    return files


@pytest.mark.slow
def test_corpus_format_codes_agree_with_openpyxl() -> None:
    codes: set[str] = set()
    for path in corpus_files():
        try:
            with zipfile.ZipFile(path) as zf:
                names = [n for n in zf.namelist() if n.endswith("styles.xml")]
                for name in names:
                    root = etree.fromstring(zf.read(name))
                    for el in root.iter("{*}numFmt"):
                        codes.add(el.get("formatCode", ""))
        except (zipfile.BadZipFile, etree.XMLSyntaxError, OSError):
            continue
    if not codes:
        pytest.skip("no workbooks")
    ordered = sorted(codes)
    styles = CellStyles.parse(styles_xml(ordered))
    for i, code in enumerate(ordered):
        assert styles.is_date(i) == is_date_format(code), code
        if styles.is_date(i):
            assert styles.is_elapsed(i) == is_timedelta_format(code), code


@pytest.mark.parametrize("namespace", [MAIN, STRICT])
def test_styles_any_prefix_and_namespace(namespace: str) -> None:
    part = styles_xml(["yyyy", "0.0"], builtin_ids=[0, 14], prefix="x").replace(
        MAIN.encode(), namespace.encode()
    )
    styles = CellStyles.parse(part)
    assert [styles.is_date(i) for i in range(5)] == [True, False, False, True, False]


def test_no_styles_part() -> None:
    styles = CellStyles.parse(None)
    assert not styles.is_date(0)
    assert not any(CellStyles().is_date(i) for i in range(100))


@pytest.mark.parametrize(
    "part",
    [
        b"<styleSheet><cellXfs><xf numFmtId='x'/></cellXfs></styleSheet>",
        b"<styleSheet><numFmts><numFmt formatCode='0'/></numFmts></styleSheet>",
        b"<styleSheet><cellXfs>",
        b"<!DOCTYPE s><styleSheet/>",
    ],
)
def test_bad_styles(part: bytes) -> None:
    with pytest.raises(ValuesError):
        CellStyles.parse(part)


# --------------------------------------------------------------------------- date1904


@pytest.mark.parametrize(
    ("xml", "expected"),
    [
        (f'<workbook xmlns="{MAIN}"><workbookPr date1904="1"/></workbook>', True),
        (f'<workbook xmlns="{MAIN}"><workbookPr date1904="true"/></workbook>', True),
        (f'<x:workbook xmlns:x="{STRICT}"><x:workbookPr date1904=" 1 "/></x:workbook>', True),
        (f'<workbook xmlns="{MAIN}"><workbookPr date1904="0"/></workbook>', False),
        (f'<workbook xmlns="{MAIN}"><workbookPr date1904="false"/></workbook>', False),
        (f'<workbook xmlns="{MAIN}"><workbookPr defaultThemeVersion="1"/></workbook>', False),
        (f'<workbook xmlns="{MAIN}"><sheets/></workbook>', False),
        (f'<workbook xmlns="{MAIN}"><workbookPr date1904="1"/><unclosed>', True),
    ],
)
def test_workbook_date1904(xml: str, expected: bool) -> None:
    assert workbook_date1904(xml.encode()) is expected


def test_workbook_date1904_refuses_garbage() -> None:
    for bad in (b"<workbook>", b"<!DOCTYPE w><workbook/>", b"\x00\x01"):
        with pytest.raises(ValuesError):
            workbook_date1904(bad)


# --------------------------------------------------------------------------- hostile input


def promptly(call, *, seconds: float = 3.0) -> object:
    """The result of ``call()`` or the ValuesError it raised, and it took < seconds."""
    start = time.perf_counter()
    try:
        result: object = call()
    except ValuesError as exc:
        result = exc
    assert time.perf_counter() - start < seconds
    return result


def parse_cell(data: bytes) -> object:
    return cell_value(data, strings=SST, styles=STYLES, date1904=False)


HOSTILE = [
    b'<c r="A1" t="s"><v>1',
    b"<c",
    b"<" * 100_000,
    b"<c>" + b"<" * 100_000 + b"</c>",
    b'<c t="inlineStr"><is>' + b"<r>" * 100_000 + b"<t>deep</t>" + b"</r>" * 100_000 + b"</is></c>",
    b'<c t="inlineStr"><is>' + b"<r>" * 100_000,
    b'<c t="inlineStr"><is><t>' + b"x" * 10_000_000 + b"</t></is></c>",
    b'<c t="str"><v>' + b"y" * 10_000_000 + b"</v></c>",
    b"<c><v>" + b"9" * 10_000_000 + b"</v></c>",
    b"<c><v>" + b"9" * 1_000_000 + b".5</v></c>",
    b'<c t="d"><v>' + b"2" * 1_000_000 + b"</v></c>",
    b'<c t="s"><v>' + b"1" * 1_000_000 + b"</v></c>",
    b"<c " + b'a="1" ' * 100_000 + b"/>",
    b'<c a="' + b"'" * 1_000_000 + b'"/>',
    b"<c><f>" + b"&amp;" * 1_000_000 + b"</f><v>1</v></c>",
    b'<c t="inlineStr"><is><t>' + b"_x" * 1_000_000 + b"</t></is></c>",
    b'<c t="inlineStr"><is><t>' + b"_x0041_" * 1_000_000 + b"</t></is></c>",
    b'<c t="inlineStr"><is><t>' + b"<![CDATA[" * 100_000 + b"</t></is></c>",
    b"<c>" + b"<!--" * 100_000 + b"</c>",
    b"<?xml version='1.0'?>" * 1000,
    b"\xef\xbb\xbf<c><v>1</v></c>",
    b"\xff\xfe<\x00c\x00/\x00>\x00",
]


@pytest.mark.parametrize("data", HOSTILE, ids=[f"hostile{i}" for i in range(len(HOSTILE))])
def test_hostile_cells_finish_promptly(data: bytes) -> None:
    result = promptly(lambda: parse_cell(data))
    assert result is None or isinstance(result, ValuesError | str | int | float)


def test_hostile_results() -> None:
    deep = HOSTILE[4]
    assert parse_cell(deep) == ""  # a <t> under nested runs is not a run's text
    assert len(parse_cell(HOSTILE[6])) == 10_000_000
    assert parse_cell(HOSTILE[8]) == math.inf  # beyond int()'s digit limit: a float
    assert parse_cell(HOSTILE[16]) == "A" * 1_000_000
    assert parse_cell(HOSTILE[20]) == 1


def test_hostile_parts_finish_promptly() -> None:
    for data in HOSTILE:
        for parse in (SharedStrings.parse, CellStyles.parse, workbook_date1904):
            result = promptly(lambda parse=parse, data=data: parse(data))
            assert isinstance(result, ValuesError | SharedStrings | CellStyles | bool)
    deep = b"<sst><si>" + b"<r>" * 200_000 + b"<t>x</t>" + b"</r>" * 200_000 + b"</si></sst>"
    assert list(promptly(lambda: SharedStrings.parse(deep))) == [""]
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;">'
        b"]><sst><si><t>&c;</t></si></sst>"
    )
    assert isinstance(promptly(lambda: SharedStrings.parse(laughs)), ValuesError)


@given(st.binary(max_size=300))
def test_random_bytes_give_a_value_or_values_error(data: bytes) -> None:
    for call in (
        lambda: parse_cell(data),
        lambda: SharedStrings.parse(data),
        lambda: CellStyles.parse(data),
        lambda: workbook_date1904(data),
    ):
        with contextlib.suppress(ValuesError):
            call()


CELL_TEMPLATES = [
    b'<x:c r="A1" s="1" t="s"><x:f>A1</x:f><x:v>1</x:v></x:c>',
    b'<c r="B2" t="inlineStr"><is><r><t xml:space="preserve"> a&amp;b </t></r></is></c>',
    b'<c r="C3" s="2"><v>1.5</v></c>',
    b'<c t="d"><v>2024-01-01T00:00:00</v></c>',
    b'<c t="b"><v>1</v></c>',
]


@given(
    st.sampled_from(CELL_TEMPLATES),
    st.lists(st.tuples(st.integers(0, 200), st.integers(0, 3), st.binary(max_size=4)), max_size=4),
)
def test_mutated_cells_give_a_value_or_values_error(
    template: bytes, edits: list[tuple[int, int, bytes]]
) -> None:
    data = bytearray(template)
    for at, cut, insert in edits:
        at %= len(data) + 1
        data[at : at + cut] = insert
    with contextlib.suppress(ValuesError):
        parse_cell(bytes(data))


# --------------------------------------------------------------------------- corpus vs openpyxl

RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
CELL_REF = re.compile(rb'\sr="([A-Z]{1,3})([0-9]{1,7})"')
EAST_ASIAN_DATE_IDS = {*range(27, 37), *range(50, 59)}


def relationships(zf: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    folder, name = posixpath.split(part)
    rels = posixpath.join(folder, "_rels", name + ".rels")
    if rels not in zf.namelist():
        return {}
    out = {}
    for el in etree.fromstring(zf.read(rels)):
        target = el.get("Target", "")
        if el.get("TargetMode") == "External":
            continue
        if target.startswith("/"):
            full = target.lstrip("/")
        else:
            full = posixpath.normpath(posixpath.join(folder, target))
        out[el.get("Id")] = (el.get("Type", ""), full)
    return out


def first_sheet(zf: zipfile.ZipFile):
    """(workbook part, sheet name, sheet part, shared strings part, styles part) via lxml."""
    workbook = next(p for t, p in relationships(zf, "").values() if t.endswith("/officeDocument"))
    rels = relationships(zf, workbook)
    sheet = None
    for el in etree.fromstring(zf.read(workbook)).iter("{*}sheet"):
        rid = next(v for k, v in el.attrib.items() if k.endswith("}id"))
        kind, part = rels[rid]
        if kind.endswith("/worksheet"):
            sheet = (el.get("name"), part)
            break
    sst = next((p for t, p in rels.values() if t.endswith("/sharedStrings")), None)
    styles = next((p for t, p in rels.values() if t.endswith("/styles")), None)
    return workbook, sheet, sst, styles


def raw_cells(xml: bytes, limit: int) -> list[bytes]:
    """The bytes of the first ``limit`` <c> elements of <sheetData>, by a plain byte scan."""
    at, stop = xml.find(b"sheetData"), xml.rfind(b"sheetData")
    cells: list[bytes] = []
    while len(cells) < limit:
        at = xml.find(b"<", at + 1)
        if at < 0 or at > stop:
            break
        end_name = at + 1
        while xml[end_name : end_name + 1] not in b" \t\r\n/>":
            end_name += 1
        name = xml[at + 1 : end_name]
        if name.rpartition(b":")[2] != b"c":
            continue
        gt = xml.find(b">", at)
        if xml[gt - 1 : gt] == b"/":
            end = gt + 1
        else:
            end = xml.find(b"</" + name + b">", gt) + len(name) + 3
        cells.append(xml[at:end])
        at = end - 1
    return cells


def style_num_formats(zf: zipfile.ZipFile, styles: str | None) -> tuple[list[int], set[int]]:
    """numFmtId of each cellXfs entry, and the custom ids (lxml)."""
    if styles is None:
        return [], set()
    root = etree.fromstring(zf.read(styles))
    custom = {int(el.get("numFmtId")) for el in root.iter("{*}numFmt")}
    cell_xfs = root.find("{*}cellXfs")
    xfs = [int(el.get("numFmtId", "0")) for el in ([] if cell_xfs is None else cell_xfs)]
    return xfs, custom


def column(letters: bytes) -> int:
    number = 0
    for ch in letters:
        number = number * 26 + ch - 64
    return number


def xstring_decoded(text: str) -> str:
    return re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m.group(1), 16)), text)


def explain(
    raw: bytes, ours: object, theirs: object, cell, style_info, date1904: bool
) -> str | None:
    """Which documented difference from openpyxl this is, or None for a new one."""
    xfs, custom = style_info
    head = raw[: raw.find(b">")]
    if b't="str"' in head and ours == "" and theirs is None:
        return "empty formula string: openpyxl reads <v></v> as None"
    if isinstance(ours, str) and isinstance(theirs, str) and xstring_decoded(theirs) == ours:
        return "_xHHHH_ escape: openpyxl leaves it undecoded"
    if type(cell).__name__ == "MergedCell" and theirs is None:
        return "merged: openpyxl drops values hidden under a merged range"
    if ours is None and cell.hyperlink is not None and theirs == cell.hyperlink.target:
        return "hyperlink: openpyxl puts the link target in an empty cell"
    style = re.search(rb'\ss="([0-9]+)"', head)
    index = int(style.group(1)) if style else 0
    if (
        isinstance(theirs, int | float)
        and index < len(xfs)
        and xfs[index] in EAST_ASIAN_DATE_IDS
        and xfs[index] not in custom
        and same(ours, from_excel(theirs, MAC_EPOCH if date1904 else WINDOWS_EPOCH))
    ):
        return "East Asian date format id: openpyxl reads a number"
    return None


# Workbooks that openpyxl takes minutes to load in full (this one: about 150 s, for a
# first sheet without cells); they are left out to keep the test quick.
TOO_SLOW_FOR_OPENPYXL = {"ClosedXML__ClosedXML.Tests__Resource__TryToLoad__DrawingSizeInPx.xlsx"}


def compare_with_openpyxl(path: Path, limit: int = 2000):
    """(cells compared, agreements, Counter of explained differences, unexplained list)."""
    if path.name in TOO_SLOW_FOR_OPENPYXL:
        return None
    try:
        with warnings.catch_warnings(), path.open("rb") as handle:
            warnings.simplefilter("ignore")
            book = openpyxl.load_workbook(handle, data_only=True)
    except Exception:  # openpyxl cannot open it: not this test's business
        return None
    with zipfile.ZipFile(path) as zf:
        workbook, sheet, sst_part, styles_part = first_sheet(zf)
        if sheet is None or not book.worksheets:
            return None  # e.g. Strict workbooks, which openpyxl reads as empty
        ws = book.worksheets[0]
        assert ws.title == sheet[0]
        strings = SharedStrings.parse(zf.read(sst_part)) if sst_part else None
        styles = CellStyles.parse(zf.read(styles_part) if styles_part else None)
        date1904 = workbook_date1904(zf.read(workbook))
        style_info = style_num_formats(zf, styles_part)
        xml = zf.read(sheet[1])
    assert date1904 == (book.epoch == MAC_EPOCH)
    compared = agreed = 0
    explained: Counter[str] = Counter()
    unexplained = []
    for raw in raw_cells(xml, limit):
        ref = CELL_REF.search(raw[: raw.find(b">")])
        assert ref, raw[:100]
        cell = ws._cells[(int(ref.group(2)), column(ref.group(1)))]
        try:
            ours: object = cell_value(raw, strings=strings, styles=styles, date1904=date1904)
        except ValuesError as exc:
            ours = exc
        compared += 1
        if same(ours, cell.value):
            agreed += 1
        elif why := explain(raw, ours, cell.value, cell, style_info, date1904):
            explained[why] += 1
        else:
            unexplained.append((path.name, raw[:200], ours, cell.value))
    return compared, agreed, explained, unexplained


@pytest.mark.slow
def test_corpus_agrees_with_openpyxl() -> None:
    files = corpus_files()
    if not files:
        pytest.skip("no fixtures or corpus")
    totals = Counter()
    explained: Counter[str] = Counter()
    unexplained = []
    for path in files:
        result = compare_with_openpyxl(path)
        if result is None:
            totals["files skipped"] += 1
            continue
        compared, agreed, why, new = result
        totals["files"] += 1
        totals["cells"] += compared
        totals["agreed"] += agreed
        explained.update(why)
        unexplained.extend(new)
    print(dict(totals), dict(explained))
    assert not unexplained, unexplained[:20]
    assert totals["files"] >= min(10, len(files) // 2)
    assert totals["agreed"] >= 0.95 * totals["cells"]


@pytest.mark.slow
def test_strict_workbooks_agree_with_calamine() -> None:
    """openpyxl reads Strict (ISO 29500) workbooks as empty; calamine is the oracle there."""
    calamine = pytest.importorskip("python_calamine")
    strict = []
    for path in corpus_files():
        try:
            with zipfile.ZipFile(path) as zf:
                workbook, sheet, sst_part, styles_part = first_sheet(zf)
                if sheet is None or STRICT.encode() not in zf.read(sheet[1])[:2000]:
                    continue
                strings = SharedStrings.parse(zf.read(sst_part)) if sst_part else None
                styles = CellStyles.parse(zf.read(styles_part) if styles_part else None)
                date1904 = workbook_date1904(zf.read(workbook))
                cells = raw_cells(zf.read(sheet[1]), 2000)
        except (zipfile.BadZipFile, KeyError, StopIteration):
            continue
        strict.append(path.name)
        rows = (
            calamine.CalamineWorkbook.from_path(str(path))
            .get_sheet_by_name(sheet[0])
            .to_python(skip_empty_area=False)
        )
        for raw in cells:
            ref = CELL_REF.search(raw[: raw.find(b">")])
            assert ref
            r, c = int(ref.group(2)) - 1, column(ref.group(1)) - 1
            theirs = rows[r][c] if r < len(rows) and c < len(rows[r]) else ""
            ours = cell_value(raw, strings=strings, styles=styles, date1904=date1904)
            assert (ours if ours is not None else "") == theirs, (path.name, raw)
    if not strict:
        pytest.skip("no Strict workbooks in the corpus")
    print("Strict workbooks compared with calamine:", strict)
