"""``xlshuffle commit``, ``xlshuffle draw`` and ``verify`` of the whole chain (section 17).

Expected results are computed on their own: the commitment hash with hashlib over the
reference code's canonical JSON, the seed by section 17's rule, the winners by the
reference code's draw; workbooks are made and edited with openpyxl.
"""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest

from protocol_references import reference_namespace
from xlshuffle.cli import main

REF = reference_namespace()
ROWS = [[name, f"{name.lower()}@example.com"] for name in ("Ann", "Bo", "Cy", "Dee", "Ed", "Fay")]
BEACON = "EuroMillions 2026-12-04: the five main numbers, ascending"
REVEAL = " 4  17 23 38 45 "


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def raffle(tmp_path: Path) -> Path:
    path = tmp_path / "raffle.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n").writerows([["Name", "Email"], *ROWS])
    return path


def committed(capsys: pytest.CaptureFixture[str], src: Path, *options: object) -> tuple[Path, str]:
    out = src.parent / "commitment.json"
    code, text, err = run(capsys, "commit", src, *options, "--beacon", BEACON, "-o", out)
    assert (code, err) == (0, ""), err
    digest = text.split("publish this commitment hash now: ")[1].split()[0]
    return out, digest


def test_commit_draw_verify_a_raffle(
    raffle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commitment, digest = committed(capsys, raffle, "-k", 2)
    data = json.loads(commitment.read_text(encoding="utf-8"))
    body = data["commitment"]
    # the hash is the SHA-256 of the canonical JSON, and it is what was printed
    assert hashlib.sha256(REF["canonical_json"](body)).hexdigest() == digest == data["sha256"]
    assert body["list"]["sha256"] == REF["list_digest"]([["Name", "Email"], *ROWS])
    assert body["commitment_version"] == 2 and body["inputs"] == []
    region = {"sheet": None, "range": None, "table": None, "columns": None, "header": None}
    assert body["draw"] == {
        "command": "sample",
        "request": {
            "kind": "sample",
            "region": {**region, "keep_blank_rows": False},
            "sample": {"k": 2, "sheet_name": "Sample", "draw": None},
        },
    }
    assert body["beacon"] == BEACON and body["list"]["rows"] == 6
    out, rec = tmp_path / "winners.csv", tmp_path / "draw.json"
    code, _, err = run(
        capsys, "draw", commitment, raffle, "--reveal", REVEAL, "-o", out, "--record", rec
    )
    assert code == 0, err
    seed = REF["commit_seed"](body, [REVEAL])
    assert seed == f"xlshuffle-commit:{digest}/4 17 23 38 45/"
    winners = REF["deal"](list(range(6)), 2, seed)
    with out.open(newline="", encoding="utf-8") as fh:
        assert list(csv.reader(fh)) == [["Name", "Email"], *(ROWS[i] for i in winners)]
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert record["seed"] == seed and record["reveal"] == ["4 17 23 38 45"]
    assert record["commitment"]["sha256"] == digest and record["commitment"]["body"] == body
    jsonschema = pytest.importorskip("jsonschema")
    from support import ROOT

    schema = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(record)) == []
    code, text, err = run(capsys, "verify", rec, "--input", raffle, "--output", out)
    assert (code, err) == (0, "")
    assert (
        "is the committed list" in text and "the committed draw gives the recorded result" in text
    )


def test_attacks_are_each_refused(
    raffle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commitment, _ = committed(capsys, raffle, "-k", 2)
    out, rec = tmp_path / "w.csv", tmp_path / "r.json"
    assert (
        run(capsys, "draw", commitment, raffle, "--reveal", REVEAL, "-o", out, "--record", rec)[0]
        == 0
    )
    record = json.loads(rec.read_text(encoding="utf-8"))

    def verify_edited(change: dict[str, object], *extra: object) -> str:
        forged = tmp_path / "forged.json"
        forged.write_text(json.dumps({**record, **change}), encoding="utf-8")
        code, _, err = run(capsys, "verify", forged, "--input", raffle, *extra)
        assert code == 1 and err.count("\n") == 1, err
        return err

    # another seed (a seed tried until a friend won), with or without another reveal
    assert "is not the one the commitment" in verify_edited({"seed": "friendly seed"})
    assert "is not the one the commitment" in verify_edited({"reveal": ["4 17 23 38 46"]})
    # the commitment edited after it was published (its beacon, its list digest)
    body = dict(record["commitment"]["body"], beacon="a coin I tossed")
    assert "edited after it was made" in verify_edited(
        {"commitment": {**record["commitment"], "body": body}}
    )
    # a list changed after the commitment: one entrant swapped for another
    lines = raffle.read_text(encoding="utf-8").replace("Cy,cy@", "Cyd,cyd@")
    swapped = tmp_path / "swapped.csv"
    swapped.write_text(lines, encoding="utf-8")
    code, _, err = run(
        capsys, "draw", commitment, swapped, "--reveal", REVEAL, "--record", tmp_path / "x.json"
    )
    assert code == 1 and "not the committed list" in err
    assert not (tmp_path / "x.json").exists()
    code, _, err = run(capsys, "verify", rec, "--input", swapped)
    assert code == 1 and "not the committed list" in err
    # the result edited: the winners file says someone else won
    text = out.read_text(encoding="utf-8").splitlines()
    text[1] = "Fay,fay@example.com" if "Fay" not in text[1] else "Ann,ann@example.com"
    out.write_text("\n".join(text) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "verify", rec, "--input", raffle, "--output", out)
    assert code == 1
    # a record of another draw (-k 3) passed off with this commitment and seed
    other = tmp_path / "other.json"
    argv = ["sample", raffle, "-k", 3, "--seed", record["seed"], "-o", tmp_path / "o3.csv"]
    assert run(capsys, *argv, "--record", other)[0] == 0
    spliced = json.loads(other.read_text(encoding="utf-8"))
    spliced |= {"commitment": record["commitment"], "reveal": record["reveal"]}
    other.write_text(json.dumps(spliced), encoding="utf-8")
    code, _, err = run(capsys, "verify", other, "--input", raffle)
    assert code == 1 and "not made with the committed options" in err
    # the commitment file edited before the draw
    data = json.loads(commitment.read_text(encoding="utf-8"))
    data["commitment"]["draw"]["options"] = ["-k", "3"]
    commitment.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(
        capsys, "draw", commitment, raffle, "--reveal", REVEAL, "--record", tmp_path / "y.json"
    )
    assert code == 1 and "edited after it was made" in err


def test_a_workbook_resaved_is_still_the_committed_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = tmp_path / "raffle.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Entrants"
    wb.active.append(["Name", "Email", "Tickets"])
    for i, (name, email) in enumerate(ROWS):
        wb.active.append([name, email, i % 3 + 1])
    wb.save(book)
    commitment, _ = committed(capsys, book, "--draw", "shuffle")
    # re-saved by another program: shared strings and styles renumbered, cells the same
    resaved = tmp_path / "resaved.xlsx"
    again = openpyxl.load_workbook(book)
    again.active["D1"] = None
    again.save(resaved)
    out, rec = tmp_path / "shuffled.xlsx", tmp_path / "r.json"
    code, _, err = run(
        capsys,
        "draw",
        commitment,
        resaved,
        "--reveal",
        "drand 123: ab12",
        "-o",
        out,
        "--record",
        rec,
    )
    assert code == 0, err
    seed = json.loads(rec.read_text(encoding="utf-8"))["seed"]
    order = REF["deal"](list(range(6)), 6, seed)
    got = [
        row[0] for row in openpyxl.load_workbook(out).active.iter_rows(min_row=2, values_only=True)
    ]
    assert got == [ROWS[i][0] for i in order]
    assert run(capsys, "verify", rec, "--input", resaved, "--output", out)[0] == 0
    # one cell changed after the commitment: refused
    wb = openpyxl.load_workbook(book)
    wb.active["C4"] = 9
    wb.save(resaved)
    code, _, err = run(
        capsys, "draw", commitment, resaved, "--reveal", "x", "--record", tmp_path / "z.json"
    )
    assert code == 1 and "not the committed list" in err


def test_an_entrant_checks_their_own_line(
    raffle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    salt_file = tmp_path / "salt.txt"
    commitment, _ = committed(capsys, raffle, "-k", 1, "--entrant-hashes", salt_file)
    hashes = json.loads(commitment.read_text(encoding="utf-8"))["commitment"]["entrants"][
        "salted_sha256"
    ]
    assert len(hashes) == 6 and hashes == sorted(hashes)
    rec = tmp_path / "r.json"
    code, _, err = run(capsys, "draw", commitment, raffle, "--reveal", "7", "--record", rec)
    assert code == 2 and "give --salt" in err
    code, _, err = run(
        capsys, "draw", commitment, raffle, "--reveal", "7", "--record", rec, "--salt", salt_file
    )
    assert code == 0, err
    salt = json.loads(rec.read_text(encoding="utf-8"))["commitment"]["salt"]
    assert salt == salt_file.read_text(encoding="ascii").strip() and len(salt) == 32
    # Bo, knowing only their own line and the revealed salt, finds it among the hashes
    mine = hashlib.sha256(salt.encode() + b"\n" + REF["canonical_json"](["Bo", "bo@example.com"]))
    assert mine.hexdigest() in hashes
    other = hashlib.sha256(salt.encode() + b"\n" + REF["canonical_json"](["Bob", "bo@example.com"]))
    assert other.hexdigest() not in hashes
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("0" * 32, encoding="ascii")
    code, _, err = run(
        capsys,
        "draw",
        commitment,
        raffle,
        "--reveal",
        "7",
        "--record",
        tmp_path / "q.json",
        "--salt",
        wrong,
    )
    assert code == 1 and "does not give the committed entrant hashes" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["-k", "2", "--seed", "7"], "--seed is not part of a commitment"),
        (["-k", "2", "--record", "r.json"], "--record is not part of a commitment"),
        (["-k", "99"], "99"),
        (["--nonsense"], "--nonsense: the draw's options are those 'xlshuffle sample' takes"),
    ],
)
def test_commit_refusals_are_usage_errors(
    raffle: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    out = raffle.parent / "c.json"
    code, _, err = run(capsys, "commit", raffle, *argv, "--beacon", BEACON, "-o", out)
    assert code == 2 and words in err and err.count("\n") == 1, err
    assert not out.exists()


def test_commit_never_overwrites(raffle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = raffle.parent / "c.json"
    out.write_text("keep me", encoding="utf-8")
    code, _, err = run(capsys, "commit", raffle, "-k", 1, "--beacon", BEACON, "-o", out)
    assert code == 2 and "never overwrites" in err
    assert out.read_text(encoding="utf-8") == "keep me"


def test_a_bad_reveal_is_a_usage_error(raffle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commitment, _ = committed(capsys, raffle, "-k", 1)
    code, _, err = run(
        capsys, "draw", commitment, raffle, "--reveal", "1/2", "--record", raffle.parent / "r.json"
    )
    assert code == 2 and "holds '/'" in err


def test_the_entrants_check_in_the_docs_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/fair-draws.md: the organiser's commands as shown, then the entrant's snippet."""
    import re
    import shlex

    from support import ROOT

    text = (ROOT / "docs" / "fair-draws.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    Path("raffle.csv").write_text(
        "Name,Email,Tickets\nAnn,ann@example.com,3\nBo,bo@example.com,1\nCy,cy@example.com,2\n"
        "Dee,dee@example.com,5\nEd,ed@example.com,1\nFay,fay@example.com,2\n",
        encoding="utf-8",
    )
    commands = re.findall(r"^\$ (xlshuffle .*)$", text, flags=re.MULTILINE)
    assert [c.split()[1] for c in commands] == ["commit", "draw", "verify"]
    for command in commands:
        assert main(shlex.split(command)[1:]) == 0, command
    out = capsys.readouterr().out
    assert "2 of 6 rows drawn in rows 1-7" in out and "is the committed list" in out
    snippet = re.search(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert snippet is not None
    salt = json.loads(Path("draw.json").read_text(encoding="utf-8"))["commitment"]["salt"]
    code = re.sub(r'salt = "[0-9a-f]{32}"', f'salt = "{salt}"', snippet.group(1))
    exec(compile(code, "fair-draws.md", "exec"), {})
    assert capsys.readouterr().out == "in the list\n"


def test_two_sources_and_a_committed_balanced_split(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Several revealed values, in the order given, and a draw with options of its own
    (groups --balance) committed and replayed."""
    src = tmp_path / "class.csv"
    src.write_text(
        "Name,Year\n" + "".join(f"P{i},{7 + i % 3}\n" for i in range(12)), encoding="utf-8"
    )
    commitment, digest = committed(capsys, src, "--draw", "groups", "-k", 3, "--balance", "Year")
    body = json.loads(commitment.read_text(encoding="utf-8"))["commitment"]
    groups = {"k": 3, "size": None, "label": "Group", "balance": ["Year"], "avoid": None}
    assert body["draw"]["request"]["groups"] == groups
    out, rec = tmp_path / "teams.csv", tmp_path / "r.json"
    argv = ["draw", commitment, src, "--reveal", "7 12 31", "--reveal", " dice: 4 4 1 "]
    code, _, err = run(capsys, *argv, "-o", out, "--record", rec)
    assert code == 0, err
    seed = f"xlshuffle-commit:{digest}/7 12 31/dice: 4 4 1/"
    assert json.loads(rec.read_text(encoding="utf-8"))["seed"] == seed
    years = [[str(7 + i % 3)] for i in range(12)]
    with out.open(newline="", encoding="utf-8") as fh:
        teams = [int(row[-1]) for row in list(csv.reader(fh))[1:]]
    assert teams == REF["balanced_teams"](years, 3, seed)
    assert run(capsys, "verify", rec, "--input", src, "--output", out)[0] == 0
    # the same values in the other order are another seed: the record's order is checked
    record = json.loads(rec.read_text(encoding="utf-8"))
    record["reveal"] = list(reversed(record["reveal"]))
    rec.write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run(capsys, "verify", rec, "--input", src)
    assert code == 1 and "is not the one the commitment" in err


def test_the_draw_commands_take_a_commitment(
    raffle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sample --commitment C.json IN --reveal V`` is ``draw C.json IN --reveal V``: the
    same files, byte for byte; a commitment to another draw, or the draw's own options
    given again, are refused in one line naming what to run."""
    commitment, _ = committed(capsys, raffle, "-k", 3)
    outputs = {}
    for how in ("draw", "sample"):
        out, rec = tmp_path / f"{how}.csv", tmp_path / f"{how}.json"
        argv = (
            ["draw", commitment, raffle]
            if how == "draw"
            else ["sample", raffle, f"--commitment={commitment}"]
        )
        code, _, err = run(capsys, *argv, "--reveal", REVEAL, "-o", out, "--record", rec)
        assert code == 0, err
        record = json.loads(rec.read_text(encoding="utf-8"))
        del record["time_utc"], record["output"]
        outputs[how] = (out.read_bytes(), record)
    assert outputs["draw"] == outputs["sample"]
    code, text, err = run(capsys, "verify", tmp_path / "sample.json", "--input", raffle)
    assert (code, err) == (0, "") and "is the committed list" in text

    code, _, err = run(
        capsys, "shuffle", raffle, "--commitment", commitment, "--reveal", REVEAL,
        "--record", tmp_path / "s.json",
    )  # fmt: skip
    assert code == 1 and err.count("\n") == 1
    assert "commits to a sample draw, not a shuffle" in err and "xlshuffle sample" in err
    assert not (tmp_path / "s.json").exists()
    code, _, err = run(
        capsys, "sample", raffle, "--commitment", commitment, "-k", "1", "--reveal", REVEAL,
        "--record", tmp_path / "s.json",
    )  # fmt: skip
    assert code == 2 and err.count("\n") == 1
    assert "-k: a committed draw takes its options from the commitment" in err
    code, text, _ = run(capsys, "groups", "--help")
    assert code == 0 and "--commitment COMMITMENT.json" in text


def test_draw_finds_the_committed_list_beside_the_commitment(
    raffle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commitment, _ = committed(capsys, raffle, "-k", 2)
    rec = tmp_path / "r.json"
    code, _, err = run(capsys, "draw", commitment, "--reveal", REVEAL, "--record", rec)
    assert code == 0, err
    assert json.loads(rec.read_text(encoding="utf-8"))["input"] == str(raffle)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = commitment.rename(elsewhere / commitment.name)
    code, _, err = run(capsys, "draw", moved, "--reveal", REVEAL, "--record", tmp_path / "x.json")
    assert code == 2 and err.count("\n") == 1 and "give IN" in err and "raffle.csv" in err
