"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

import datetime as dt

from hypothesis import strategies as st

#: Seeds of every kind the protocol accepts.
seeds = st.one_of(
    st.text(min_size=1, max_size=20),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.dates(min_value=dt.date(1900, 3, 1), max_value=dt.date(9999, 12, 31)),
)

#: Lists of hashable, comparable items (ints keep multiset checks simple).
item_lists = st.lists(st.integers(), max_size=60)


@st.composite
def grids(draw: st.DrawFn, max_side: int = 7) -> list[list[int]]:
    """A rectangular grid whose cells are all distinct, so a cell's path can be followed."""
    rows = draw(st.integers(min_value=1, max_value=max_side))
    cols = draw(st.integers(min_value=1, max_value=max_side))
    return [[r * cols + c for c in range(cols)] for r in range(rows)]


# --------------------------------------------------------------------------- Excel arguments

#: Error cells as Office.js hands them over (allowErrorForDataTypeAny).
excel_error_cells = st.sampled_from(
    [
        {"type": "Error", "basicValue": code, "errorType": kind}
        for code, kind in [
            ("#DIV/0!", "Div0"),
            ("#N/A", "NotAvailable"),
            ("#VALUE!", "Value"),
            ("#REF!", "Ref"),
            ("#NAME?", "Name"),
            ("#NUM!", "Num"),
            ("#NULL!", "Null"),
            ("#SPILL!", "Spill"),
            ("#CALC!", "Calc"),
        ]
    ]
)

#: Text with lone surrogates (U+D800..U+DFFF) mixed in, as a JS string can hold them.
texts_with_surrogates = st.text(
    alphabet=st.characters() | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
    max_size=12,
)

#: Numbers from the ordinary to the absurd: counts, NaN, infinities, 1e308, 10**400.
excel_numbers = st.one_of(
    st.integers(-3, 60),
    st.integers(),
    st.sampled_from([2**53, 2**53 + 1, 2**64, 10**15, 10**30, -(10**30), 10**400, 10**5000]),
    st.floats(),
    st.sampled_from([1e15, 1e308, -1e308, 2.5, -0.0, float("nan"), float("inf")]),
)

#: Any one value a cell can hand over, plus values only a Python caller could pass.
excel_cell_values = st.one_of(
    st.none(),
    st.just(""),
    st.booleans(),
    excel_numbers,
    texts_with_surrogates,
    st.sampled_from(["rows", "cells", "words", "#N/A", "#DIV/0!", " TRUE ", "42"]),
    excel_error_cells,
)

#: A range as Office.js sends it: rectangular, at least one cell.
excel_ranges = st.integers(1, 4).flatmap(
    lambda width: st.lists(
        st.lists(excel_cell_values, min_size=width, max_size=width), min_size=1, max_size=4
    )
)

#: One argument in the JSON body Office.js posts: omitted (null), one cell or a range.
office_js_arguments = st.one_of(st.none(), excel_cell_values.map(lambda v: [[v]]), excel_ranges)

#: One argument of a direct Python call: anything above, an empty, ragged or deeper-nested
#: list, a flat list or a bare value.
python_arguments = st.one_of(
    office_js_arguments,
    st.lists(st.lists(excel_cell_values, max_size=3), max_size=3),
    st.lists(st.lists(st.lists(excel_cell_values, max_size=2), max_size=2), max_size=2),
    st.lists(excel_cell_values, max_size=3),
    excel_cell_values,
)

# Field text: delimiters, quotes, line breaks inside fields, non-ASCII, and "\udcff", which
# surrogateescape writes as the undecodable byte 0xFF. A bare "\r" only comes as "\r\n":
# csv.writer leaves a field with a lone "\r" unquoted, and that file is refused, by design.
_FIELD_TOKENS = ["a", "Z", "7", " ", ",", ";", "\t", '"', "\n", "\r\n", "é", "☃", "\udcff"]


@st.composite
def csv_lists(draw: st.DrawFn) -> dict[str, object]:
    """A CSV/TSV list as bytes, with each data record's own bytes, for byte-level oracles.

    Returns a dict: ``name`` (its file name, which sets the delimiter), ``data``, ``head``
    (BOM + header record), ``records`` (each data record's bytes as written, the last one
    maybe without a line break), ``ending`` and ``tail`` (trailing blank lines).
    """
    import csv
    import io

    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    name = "list.tsv" if delimiter == "\t" else "list.csv"
    cols = draw(st.integers(min_value=2 if delimiter == ";" else 1, max_value=4))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    field = st.lists(st.sampled_from(_FIELD_TOKENS), max_size=6).map("".join)
    rows = draw(st.lists(st.lists(field, min_size=cols, max_size=cols), min_size=1, max_size=12))

    def render(row: list[str]) -> bytes:
        text = io.StringIO()
        csv.writer(text, delimiter=delimiter, lineterminator=ending).writerow(row)
        return text.getvalue().encode("utf-8", "surrogateescape")

    head = (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + render(
        [f"h{c}" for c in range(cols)]
    )
    records = [render(row) for row in rows]
    tail = b""
    if draw(st.booleans()):  # no line break after the last record
        records[-1] = records[-1][: -len(ending)]
    else:
        tail = ending.encode() * draw(st.integers(min_value=0, max_value=2))
    return {
        "name": name,
        "data": head + b"".join(records) + tail,
        "head": head,
        "records": records,
        "ending": ending.encode(),
        "tail": tail,
    }
