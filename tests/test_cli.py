"""The command line: outputs, seeds on stderr, exit codes, one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from xlshuffle import deal_hands, shuffled
from xlshuffle.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_deal_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "deal", "--cards", "5", "--hands", "4", "--seed", "42")
    assert code == 0 and err == ""
    expected = deal_hands(5, 4, seed="42")
    assert out.splitlines() == [
        f"Hand {h + 1}: " + " ".join(hand) for h, hand in enumerate(expected)
    ]


def test_deal_json_and_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    code, out, _ = run(capsys, "deal", "--deck", "52", "--seed", "xlshuffle", "--json")
    assert code == 0
    record = json.loads(out)
    assert record == {
        "protocol": "xlshuffle/draw/v1",
        "seed": "xlshuffle",
        "deck": 52,
        "decks": 1,
        "jokers": 0,
        "hands": [[2, 42, 37, 21, 6]],
    }


def test_unseeded_run_prints_its_seed_and_can_be_replayed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "deal", "--hands", "2")
    assert code == 0
    seed = err.split()[2]
    assert err == f"xlshuffle: seed {seed} (replay with --seed {seed})\n"
    assert run(capsys, "deal", "--hands", "2", "--seed", seed)[1] == out


def test_lines_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "names.txt"
    names = [f"name {i}" for i in range(10)]
    src.write_text("\n".join(names), encoding="utf-8")  # no final newline: still 10 lines
    code, out, err = run(capsys, "lines", str(src), "--seed", "42")
    assert code == 0 and err == ""
    assert out.splitlines() == shuffled(names, seed="42")
    code, out, _ = run(capsys, "lines", str(src), "--seed", "42", "-n", "3")
    assert out.splitlines() == shuffled(names, seed="42")[:3]
    code, out, _ = run(capsys, "lines", str(src), "--seed", "42", "-n", "99")  # like shuf
    assert len(out.splitlines()) == 10


def test_lines_to_an_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, dst = tmp_path / "in.txt", tmp_path / "out.txt"
    src.write_bytes(b"a\nb\r\nc\n\xff\xfe raw bytes\n")
    assert run(capsys, "lines", str(src), "--seed", "1", "-o", str(dst))[0] == 0
    assert sorted(dst.read_bytes().splitlines()) == sorted(src.read_bytes().splitlines())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "out.txt"]  # no temp left


def test_seed_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "seed", "--count", "3")
    assert code == 0 and len(set(out.split())) == 3


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["deal", "--cards", "20", "--hands", "4"], 2, "needs 80 cards and the deck has 52"),
        (["deal", "--cards", "-1"], 2, "argument --cards: expected 1 or more, got -1"),
        (["deal", "--cards", "0"], 2, "argument --cards: expected 1 or more, got 0"),
        (["deal", "--hands", "0"], 2, "argument --hands: expected 1 or more, got 0"),
        (["deal", "--decks", "0"], 2, "argument --decks: expected 1 or more, got 0"),
        (["deal", "--deck", "0"], 2, "argument --deck: expected 1 or more, got 0"),
        (["deal", "--jokers", "-1"], 2, "argument --jokers: expected 0 or more, got -1"),
        (["deal", "--cards", "five"], 2, "expected a whole number"),
        (["deal", "--bogus"], 2, "unrecognized arguments: --bogus"),
        (["frobnicate"], 2, "invalid choice: 'frobnicate'"),
        ([], 2, "usage: xlshuffle"),
        (["lines", "/no/such/file.txt"], 1, "/no/such/file.txt: No such file or directory"),
    ],
)
def test_errors_are_one_line_with_the_right_code(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: int, message: str
) -> None:
    got, _, err = run(capsys, *argv)
    assert got == code
    assert message in err
    assert "Traceback" not in err
    if argv:
        assert err.startswith("Error: ") and err.count("\n") == 1


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--help")[0] == 0
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("xlshuffle ")


def test_python_dash_m_and_a_closed_pipe(tmp_path: Path) -> None:
    src = tmp_path / "many.txt"
    src.write_text("\n".join(str(i) for i in range(200_000)))
    proc = subprocess.run(
        f'"{sys.executable}" -m xlshuffle lines "{src}" --seed 5 | head -n 2',
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.stdout.splitlines() == [str(x) for x in shuffled(range(200_000), seed="5")[:2]]
    assert proc.stderr == ""


def test_stdin(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "xlshuffle", "lines", "--seed", "2026 raffle"],
        input="A\nB\nC\nD\nE\nF\nG\nH\nI\nJ\n",
        capture_output=True,
        text=True,
        check=True,
    )
    assert "".join(proc.stdout.split()) == "DJFECGAIHB"
