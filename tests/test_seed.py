"""The seed a person types: one reader (``draw.seed.Seed``), refusing what a copy carries
by accident. Protocol v1 hashes a text seed as it is, so ``"2026 "`` is another draw than
``"2026"``; the expected orders come from the reference code of docs/draw-protocol.md."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol_references import reference_namespace
from xlshuffle.cli import main
from xlshuffle.draw.errors import SeedError
from xlshuffle.draw.seed import Seed

REF = reference_namespace()


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("2026 ", "ends with a space"),
        (" 2026", "starts with a space"),
        ("2026\t", "ends with white space (U+0009)"),
        ("2026\u00a0", "ends with white space (NO-BREAK SPACE)"),
        ("20\x0726", "holds a control character (U+0007)"),
        ("2026\n", "ends with white space"),
    ],
)
def test_a_typed_seed_with_an_accident_is_refused(typed: str, words: str) -> None:
    with pytest.raises(SeedError, match="another seed than '2026'") as caught:
        Seed.typed(typed)
    assert words in str(caught.value) and "--exact-seed" in str(caught.value)
    assert Seed.typed(typed, exact=True).text == typed


def test_seeds_of_every_kind_keep_their_protocol_text() -> None:
    assert Seed.given(42.0) == Seed("42") == Seed.given("42")
    assert Seed.given(0.5).text == "0.5"
    assert Seed.given(datetime.date(2026, 11, 21)).text == "46347"
    fresh = Seed.given(None)
    assert fresh.fresh and len(fresh.text) == 26
    assert Seed.typed(None).fresh
    with pytest.raises(SeedError, match="is empty"):
        Seed.typed("")
    with pytest.raises(SeedError):
        Seed.given(True)


TEXT = st.text(st.characters(exclude_categories=("Cs",)), min_size=1)


@given(TEXT.filter(lambda t: t == t.strip() and t.isprintable()))
def test_a_clean_seed_is_taken_as_typed(text: str) -> None:
    seed = Seed.typed(text)
    assert seed.text == text and not seed.fresh
    assert seed.stream().randbelow(1000) == Seed.given(text).stream().randbelow(1000)


def test_the_command_line_refuses_a_seed_with_a_space_and_takes_it_when_exact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "list.csv"
    names = [f"P{i}" for i in range(8)]
    src.write_text("Name\n" + "".join(f"{n}\n" for n in names), encoding="utf-8")
    out = tmp_path / "out.csv"
    assert main(["shuffle", str(src), "--seed", "2026 ", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--seed '2026 ' ends with a space" in err
    assert not out.exists()
    for command in (["lines", str(src)], ["deal"], ["sample", str(src), "-k", "2"]):
        assert main([*command, "--seed", " 7"]) == 2
        assert "starts with a space" in capsys.readouterr().err
    assert main(["shuffle", str(src), "--seed", "2026 ", "--exact-seed", "-o", str(out)]) == 0
    capsys.readouterr()
    order = REF["deal"](names, len(names), "2026 ")
    assert out.read_text(encoding="utf-8").split() == ["Name", *order]
    assert order != REF["deal"](names, len(names), "2026")
