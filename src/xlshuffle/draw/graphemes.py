"""Graphemes in pure Python: UAX #29's extended grapheme clusters, from a table of properties.

Where the ``regex`` package cannot be installed (LibreOffice's own Python runs an add-in
with no pip), :func:`xlshuffle.draw.text.graphemes` splits text with :class:`Segmenter`
instead. The segmenter applies the rules of UAX #29 (GB3 to GB13, with GB9c's Indic
conjuncts when the table has them) to the properties of each code point, as ``regex``
applies them: its GB9c joins a consonant to a run of InCB Extend and Linker code points
that holds a Linker whatever stands before the run, where UAX #29 asks for a consonant
there too (``regex`` keeps virama + ka as one cluster), and the segmenter follows it.
The properties come from a table that :func:`table_from_regex` builds by asking
``regex`` itself, property by property, so the pure path splits exactly as the ``regex``
that built the table does, at its Unicode version: ``xlshuffle extension calc`` builds it
into the extension from the ``regex`` installed beside xlshuffle. :func:`table_source`
writes the table as a module.

>>> import regex  # building the table needs it; splitting does not
>>> split = Segmenter(table_from_regex()).split
>>> split("Zoe\\u0308! \\U0001F1EB\\U0001F1F7")
['Z', 'o', 'e\\u0308', '!', ' ', '\\U0001f1eb\\U0001f1f7']
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping

__all__ = ["GCB", "INCB", "Segmenter", "Table", "table_from_regex", "table_source"]

#: The Grapheme_Cluster_Break values the rules name (every other code point is Other).
GCB = (
    "CR",
    "LF",
    "Control",
    "Extend",
    "ZWJ",
    "Regional_Indicator",
    "Prepend",
    "SpacingMark",
    "L",
    "V",
    "T",
    "LV",
    "LVT",
)
#: The Indic_Conjunct_Break values of rule GB9c (Unicode 15.1 and later).
INCB = ("Consonant", "Extend", "Linker")

#: A table: each property (``GCB=Extend``, ``ExtPict``, ``InCB=Linker``...) -> its code
#: point ranges, inclusive, in order; and ``GB9c`` -> ``((1, 1),)`` when the rule applies.
Table = Mapping[str, tuple[tuple[int, int], ...]]

_PROPERTIES = (
    *(f"GCB={v}" for v in GCB),
    "ExtPict",
    *(f"InCB={v}" for v in INCB),
)
# One bit per property a code point may have at once: its GCB value, ExtPict, its InCB value.
_EXTPICT = 1 << 8
_INCB_SHIFT = 9


def table_from_regex() -> dict[str, tuple[tuple[int, int], ...]]:
    """Every property the rules need, as ranges, asked of the installed ``regex``.

    ``GB9c`` is in the table when ``regex`` keeps a Devanagari conjunct (ka, virama, ssa)
    in one cluster, which it does from its Unicode 15.1 tables on.
    """
    import regex

    every = "".join(map(chr, range(0x110000)))
    table: dict[str, tuple[tuple[int, int], ...]] = {}
    for name in _PROPERTIES:
        try:
            pattern = regex.compile(rf"\p{{{name}}}+")
        except regex.error:  # an older regex without Indic_Conjunct_Break
            continue
        table[name] = tuple((m.start(), m.end() - 1) for m in pattern.finditer(every))
    if len(regex.findall(r"\X", "\u0915\u094d\u0937")) == 1:
        table["GB9c"] = ((1, 1),)
    return table


def table_source(table: Table, *, origin: str) -> str:
    """``table`` as the text of a Python module defining ``RANGES`` (what the extension
    carries); ``origin`` says in its docstring what built it."""
    lines = [f'"""The grapheme properties {origin}: built by xlshuffle, do not edit."""', ""]
    lines.append("RANGES = {")
    for name, ranges in table.items():
        flat = ",".join(f"({a:#x},{b:#x})" for a, b in ranges)
        lines.append(f"    {name!r}: ({flat},),")
    lines.append("}")
    return "\n".join(lines) + "\n"


class Segmenter:
    """Splits text into extended grapheme clusters by the properties of ``table``.

    Parameters
    ----------
    table : mapping
        What :func:`table_from_regex` returns (or a module's ``RANGES`` that
        :func:`table_source` wrote).
    """

    def __init__(self, table: Table) -> None:
        spans: list[tuple[int, int, int]] = []
        for name, ranges in table.items():
            kind, _, value = name.partition("=")
            if kind == "GCB":
                bits = GCB.index(value) + 1
            elif kind == "ExtPict":
                bits = _EXTPICT
            elif kind == "InCB":
                bits = (INCB.index(value) + 1) << _INCB_SHIFT
            else:
                continue
            spans.extend((a, b, bits) for a, b in ranges)
        self._gb9c = "GB9c" in table
        # Properties overlap (an ExtPict code point has a GCB value too): cut the code
        # points into pieces at every range end, each piece with the OR of its bits.
        cuts = sorted({a for a, _, _ in spans} | {b + 1 for _, b, _ in spans})
        bits_at = [0] * len(cuts)
        for a, b, bits in spans:
            for i in range(bisect.bisect_left(cuts, a), bisect.bisect_left(cuts, b + 1)):
                bits_at[i] |= bits
        self._starts = cuts
        self._bits = bits_at

    def _props(self, ch: str) -> int:
        i = bisect.bisect_right(self._starts, ord(ch)) - 1
        return self._bits[i] if i >= 0 else 0

    def split(self, text: str) -> list[str]:
        """The clusters of ``text``, in order; joined they are ``text``."""
        out: list[str] = []
        start = 0
        state = _State()
        previous = 0
        for i, ch in enumerate(text):
            props = self._props(ch)
            if i and self._breaks(previous, props, state):
                out.append(text[start:i])
                start = i
                state = _State()
            state.advance(props)
            previous = props
        if text:
            out.append(text[start:])
        return out

    def _breaks(self, before: int, after: int, state: _State) -> bool:
        """Whether a cluster ends between two code points (rules GB3 to GB999, in order)."""
        a, b = _gcb(before), _gcb(after)
        if a == "CR" and b == "LF":  # GB3
            return False
        if a in _CONTROLS or b in _CONTROLS:  # GB4, GB5
            return True
        if a == "L" and b in ("L", "V", "LV", "LVT"):  # GB6
            return False
        if a in ("LV", "V") and b in ("V", "T"):  # GB7
            return False
        if a in ("LVT", "T") and b == "T":  # GB8
            return False
        if b in ("Extend", "ZWJ", "SpacingMark") or a == "Prepend":  # GB9, GB9a, GB9b
            return False
        if self._gb9c and state.conjunct_linked and _incb(after) == "Consonant":  # GB9c
            return False
        if a == "ZWJ" and state.pictographic_zwj and after & _EXTPICT:  # GB11
            return False
        # GB12, GB13: regional indicators pair up
        return not (a == b == "Regional_Indicator" and state.regional % 2 == 1)


_CONTROLS = ("CR", "LF", "Control")


def _gcb(props: int) -> str:
    value = props & 0xFF
    return GCB[value - 1] if value else "Other"


def _incb(props: int) -> str | None:
    value = props >> _INCB_SHIFT
    return INCB[value - 1] if value else None


class _State:
    """What the rules that look back further than one code point need (GB9c, GB11,
    GB12-13), advanced over the code points of the current cluster."""

    __slots__ = ("conjunct_linked", "pictographic", "pictographic_zwj", "regional")

    def __init__(self) -> None:
        self.pictographic = False  # ExtPict Extend* so far
        self.pictographic_zwj = False  # ExtPict Extend* ZWJ just now
        self.regional = 0  # regional indicators in a row just now
        self.conjunct_linked = False  # [InCB Extend Linker]* with a Linker among them just now

    def advance(self, props: int) -> None:
        gcb, incb = _gcb(props), _incb(props)
        self.pictographic_zwj = self.pictographic and gcb == "ZWJ"
        self.pictographic = bool(props & _EXTPICT) or (self.pictographic and gcb == "Extend")
        self.regional = self.regional + 1 if gcb == "Regional_Indicator" else 0
        if incb == "Linker":
            self.conjunct_linked = True
        elif incb != "Extend":
            self.conjunct_linked = False
