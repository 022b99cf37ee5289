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
