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
