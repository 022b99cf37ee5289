"""The pure-Python grapheme split (``draw/graphemes.py``) against ``regex``'s ``\\X``.

The oracle is the ``regex`` package, an independent C implementation of UAX #29. The
segmenter must split exactly as it does: on every pair and triple of code points drawn from
each combination of properties the table distinguishes (so every rule meets every other),
on hypothesis texts biased towards the characters the rules are about, and through
``shuffle_text`` when ``regex`` cannot be imported (LibreOffice's Python), where the table
module an extension carries takes its place.
"""

from __future__ import annotations

import itertools
import sys
import types
from functools import cache

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from xlshuffle.draw import text as text_module
from xlshuffle.draw.graphemes import Segmenter, table_from_regex, table_source

X = regex.compile(r"\X")


@cache
def segmenter() -> Segmenter:
    return Segmenter(table_from_regex())


@cache
def representatives() -> list[str]:
    """One code point of each combination of properties, and a few of the common ones."""
    seg = segmenter()
    seen: dict[int, str] = {}
    for start, bits in zip(seg._starts, seg._bits, strict=True):
        if start < 0x110000 and not 0xD800 <= start <= 0xDFFF:
            seen.setdefault(bits, chr(start))
    return [*seen.values(), "a", " ", "\u0301", "\u094d", "\u200d", "\U0001f1eb", "\U0001f468"]


def test_the_table_names_every_property_the_rules_use() -> None:
    table = table_from_regex()
    assert {"GCB=Extend", "GCB=ZWJ", "GCB=Regional_Indicator", "ExtPict", "GCB=LVT"} <= set(table)
    assert all(a <= b for ranges in table.values() for a, b in ranges)


def test_every_pair_and_triple_of_property_kinds_splits_as_regex_does() -> None:
    split = segmenter().split
    chars = representatives()
    for n in (2, 3):
        for combo in itertools.product(chars, repeat=n):
            s = "".join(combo)
            assert split(s) == X.findall(s), [hex(ord(c)) for c in s]


RULE_CHARS = st.sampled_from(
    [
        "a",
        "\r",
        "\n",
        "\u0301",  # Extend
        "\u200d",  # ZWJ
        "\u0915",  # InCB=Consonant (ka)
        "\u0937",  # ssa
        "\u094d",  # virama: InCB=Linker
        "\u093f",  # SpacingMark
        "\u0600",  # Prepend
        "\U0001f1eb",  # regional indicators
        "\U0001f1f7",
        "\U0001f468",  # Extended_Pictographic
        "\U0001f3fd",  # emoji modifier: Extend
        "\u1100",  # Hangul L, V, T, LV, LVT
        "\u1161",
        "\u11a8",
        "\uac00",
        "\uac01",
        "\ufe0f",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(RULE_CHARS, st.characters()), max_size=14).map("".join))
def test_any_text_splits_as_regex_does(text: str) -> None:
    assert segmenter().split(text) == X.findall(text)


def test_the_written_table_reads_back_as_the_same_split(tmp_path) -> None:
    source = table_source(table_from_regex(), origin="of a test")
    namespace: dict[str, object] = {}
    exec(compile(source, "graphemetable.py", "exec"), namespace)
    again = Segmenter(namespace["RANGES"])  # type: ignore[arg-type]
    sample = "Zoe\u0308 \U0001f468\u200d\U0001f469\u200d\U0001f467 \u0915\u094d\u0937 \r\n"
    assert again.split(sample) == X.findall(sample)


def test_shuffle_text_without_regex_uses_the_carried_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As in LibreOffice's Python: ``import regex`` fails, the extension's table module is
    there, and every seeded shuffle is the one ``regex`` gives."""
    texts = ["ABCDEFGHIJ", "Zoe\u0308! \U0001f1eb\U0001f1f7 e\u0301t\u00e9 \u0915\u094d\u0937a"]
    expected = [text_module.shuffle_text(t, seed=s) for t in texts for s in ("2026 raffle", 7)]
    table = types.ModuleType(text_module.TABLE_MODULE)
    table.RANGES = table_from_regex()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "regex", None)
    monkeypatch.setitem(sys.modules, text_module.TABLE_MODULE, table)
    monkeypatch.setattr(text_module, "_grapheme_pattern", None)
    got = [text_module.shuffle_text(t, seed=s) for t in texts for s in ("2026 raffle", 7)]
    assert got == expected
    assert text_module.shuffle_text("ABCDEFGHIJ", seed="2026 raffle") == "DJFECGAIHB"


def test_without_regex_or_a_table_the_error_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "regex", None)
    monkeypatch.setitem(sys.modules, text_module.TABLE_MODULE, None)
    monkeypatch.setattr(text_module, "_grapheme_pattern", None)
    with pytest.raises(ImportError, match="pip install regex"):
        text_module.graphemes("abc")
