"""``xlshuffle allocate`` and ``verify`` of its record: files, columns, refusals, replay."""

from __future__ import annotations

import csv
import doctest
import hashlib
import json
import shlex
from pathlib import Path

import pytest

from xlshuffle import allocation_list
from xlshuffle.cli import main

from support import ROOT

ARGS = [
    "allocate",
    "--arms",
    "Drug,Placebo",
    "--ratio",
    "2:1",
    "--n",
    "10",
    "--block-sizes",
    "3,6",
    "--seed",
    "trial 2026",
    "--strata",
    "site=North,South",
    "--strata",
    "sex=F,M",
]


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def table(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


@pytest.fixture
def made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    code, out, err = run(
        capsys,
        *ARGS,
        "-o",
        tmp_path / "list.csv",
        "--record",
        tmp_path / "rec.json",
        "--codes-only",
        tmp_path / "codes.csv",
        "--redcap",
        tmp_path / "redcap.csv",
    )
    assert (code, err) == (0, "")
    assert out.startswith(f"{tmp_path / 'list.csv'}: ")
    return tmp_path


def test_the_list_is_the_api_list_with_its_columns(made: Path) -> None:
    rows = allocation_list(
        ["Drug", "Placebo"],
        ratio=[2, 1],
        n=10,
        block_sizes=[3, 6],
        seed="trial 2026",
        strata=[("site", ["North", "South"]), ("sex", ["F", "M"])],
    )
    got = table(made / "list.csv")
    assert got[0] == ["Seq", "site", "sex", "Block", "BlockSize", "Arm"]
    assert got[1:] == [
        [str(r.seq), *r.strata, str(r.block), str(r.block_size), r.arm] for r in rows
    ]
    codes = table(made / "codes.csv")
    assert codes[0] == ["Seq", "site", "sex", "Code"]
    assert codes[1:] == [[str(r.seq), *r.strata, r.code] for r in rows]
    text = (made / "codes.csv").read_text(encoding="utf-8")
    assert "Drug" not in text and "Placebo" not in text
    redcap = table(made / "redcap.csv")
    assert redcap[0] == ["redcap_randomization_group", "site", "sex"]
    assert redcap[1:] == [[str(1 + (r.arm == "Placebo")), *r.strata] for r in rows]


def test_the_record_holds_the_seed_options_and_digests(made: Path) -> None:
    rec = json.loads((made / "rec.json").read_text(encoding="utf-8"))
    assert (rec["command"], rec["seed"], rec["record_version"]) == ("allocate", "trial 2026", 2)
    assert rec["options"] == {
        "arms": ["Drug", "Placebo"],
        "ratio": [2, 1],
        "n": 10,
        "block_sizes": [3, 6],
        "strata": [["site", ["North", "South"]], ["sex", ["F", "M"]]],
    }
    for key, name in (("output", "list"), ("codes_only", "codes"), ("redcap", "redcap")):
        digest = hashlib.sha256((made / f"{name}.csv").read_bytes()).hexdigest()
        assert rec[f"{key}_sha256"] == digest


def test_the_record_validates_against_the_schema(made: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    rec = json.loads((made / "rec.json").read_text(encoding="utf-8"))
    assert not list(validator.iter_errors(rec))
    assert list(validator.iter_errors({**rec, "options": {**rec["options"], "n": 0}}))
    assert list(validator.iter_errors({**rec, "input": "x.csv"}))


def test_verify_replays_the_list(made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "verify", made / "rec.json", "--output", made / "list.csv")
    assert (code, err) == (0, "")
    rows = len(table(made / "list.csv")) - 1
    assert rows >= 40
    assert (
        out
        == f"ok: allocate with seed trial 2026: {rows} rows replayed; {made / 'list.csv'} checked\n"
    )


def test_verify_names_the_first_differing_row(
    made: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seq, site, sex = table(made / "list.csv")[14][:3]
    lines = (made / "list.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    arm = lines[14].rstrip("\n").rsplit(",", 1)[1]
    other = "Drug" if arm == "Placebo" else "Placebo"
    lines[14] = lines[14].replace(arm, other)
    (made / "list.csv").write_text("".join(lines), encoding="utf-8")
    code, out, err = run(capsys, "verify", made / "rec.json", "--output", made / "list.csv")
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and f"line 15 (Seq {seq} of site={site}|sex={sex})" in err
    assert other in err


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda b: b.replace(b"\n", b"\r\n"), "other line ends than"),
        (lambda b: b + b"99,South,M,9,3,Drug\n", "more lines than"),
        (lambda b: b[: b.rindex(b"\n", 0, -1) + 1], "fewer lines than"),
    ],
)
def test_verify_refuses_other_files(made: Path, capsys, change, words: str) -> None:
    path = made / "list.csv"
    path.write_bytes(change(path.read_bytes()))
    code, _, err = run(capsys, "verify", made / "rec.json", "--output", path)
    assert code == 1 and words in err and err.count("\n") == 1


def test_verify_refuses_an_edited_record(made: Path, capsys) -> None:
    rec = json.loads((made / "rec.json").read_text(encoding="utf-8"))
    for change, words in (
        ({"seed": "trial 2027"}, "differs from the replayed list"),
        ({"output_sha256": "0" * 64}, "the record was edited"),
        ({"options": {"arms": ["Drug", "Placebo"]}}, "not a complete allocation record"),
    ):
        (made / "rec.json").write_text(json.dumps({**rec, **change}), encoding="utf-8")
        code, _, err = run(capsys, "verify", made / "rec.json", "--output", made / "list.csv")
        assert code == 1 and words in err and err.count("\n") == 1, change


def test_verify_needs_the_output_and_no_input(made: Path, capsys) -> None:
    code, _, err = run(capsys, "verify", made / "rec.json")
    assert code == 2 and "--output OUT.csv" in err
    code, _, err = run(capsys, "verify", made / "rec.json", "--input", made / "list.csv")
    assert code == 2 and "has no input" in err


def test_two_files_of_one_name_are_refused(tmp_path: Path, capsys) -> None:
    out = tmp_path / "o.csv"
    code, _, err = run(capsys, *ARGS, "-o", out, "--codes-only", tmp_path / "." / "o.csv")
    assert code == 2 and "name the same file" in err and not out.exists()


def test_default_ratio_and_a_fresh_seed(tmp_path: Path, capsys) -> None:
    out = tmp_path / "o.csv"
    code, _, err = run(
        capsys, "allocate", "--arms", "A,B,C", "--n", "4", "--block-sizes", "3", "-o", out
    )
    assert code == 0 and err.startswith("xlshuffle: seed ")
    seed = err.split()[2]
    rows = allocation_list(["A", "B", "C"], n=4, block_sizes=[3], seed=seed)
    assert [line[-1] for line in table(out)[1:]] == [r.arm for r in rows]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--block-sizes", "3,4"], "--block-sizes: the block size 4 is not a multiple of 3"),
        (["--block-sizes", "3,x"], "--block-sizes takes whole numbers"),
        (["--arms", "A,A"], "--arms: the arm 'A' is named twice"),
        (["--arms", "A,,B"], "--arms 'A,,B' has an empty item"),
        (["--arms", "A"], "--arms: give at least two arms"),
        (["--n", "0"], "--n: n must be 1 or more"),
        (["--n", "ten"], "--n takes whole numbers"),
        (["--ratio", "2:1:1"], "--ratio: the ratio has 3 parts for 2 arms"),
        (["--ratio", "2:0"], "--ratio: a part of the ratio is 0"),
        (["--strata", "site"], "--strata 'site' is not NAME=V1,V2"),
        (["--strata", "site="], "--strata 'site=' is not NAME=V1,V2"),
        (["--strata", "site=N,N"], "--strata: stratum 'site' needs its values once each"),
        (["--strata", "site=N", "--strata", "site=S"], "--strata: the stratum name 'site'"),
        (["--n", "1000000"], "--n: "),
        (["--strata", "farm=N,N"], "--strata: stratum 'farm' needs"),
        (["--arms", "stratum,stratum"], "--arms: the arm 'stratum' is named twice"),
        (
            [
                "--strata",
                "a=1,2,3,4,5,6,7,8,9,10",
                "--strata",
                "b=1,2,3,4,5,6,7,8,9,10",
                "--strata",
                "c=1,2,3,4,5,6,7,8,9,10",
                "--strata",
                "d=1,2,3,4,5,6,7,8,9,10",
                "--strata",
                "e=1,2,3,4,5,6,7,8,9,10",
                "--strata",
                "f=1,2,3,4,5,6,7,8,9,10",
                "--strata",
                "g=1,2",
            ],
            "--strata: the strata make 2,000,000 combinations",
        ),
    ],
)
def test_refusals_are_one_line_exit_2(tmp_path: Path, capsys, argv: list[str], words) -> None:
    base = {"--arms": "A,B", "--ratio": "2:1", "--n": "5", "--block-sizes": "3,6"}
    extra: list[str] = []
    for i in range(0, len(argv), 2):
        if argv[i] in base and argv[i] != "--strata":
            base[argv[i]] = argv[i + 1]
        else:
            extra += argv[i : i + 2]
    flat = [x for kv in base.items() for x in kv]
    code, out, err = run(capsys, "allocate", *flat, *extra, "--seed", "s", "-o", tmp_path / "o")
    assert (code, out) == (2, "")
    assert err.startswith(f"Error: {words}") and err.count("\n") == 1, err
    assert not (tmp_path / "o").exists()


def _docs_section() -> str:
    text = (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
    return text[text.index("## Allocation lists for trials") :]


def test_the_docs_example_is_what_the_commands_print(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    block = _docs_section().split("```console\n", 1)[1].split("```", 1)[0]
    commands = block.split("$ ")[1:]
    assert len(commands) == 5
    for command in commands:
        line, _, expected = command.partition("\n")
        argv = shlex.split(line)
        if argv[0] == "xlshuffle":
            code, out, err = run(capsys, *argv[1:])
            assert (code, err) == (0, "")
        else:
            count = int(argv[1][1:]) if argv[0] == "head" else None
            out = "".join(Path(argv[-1]).read_text(encoding="utf-8").splitlines(True)[:count])
        assert out == expected, line


def test_the_docs_python_example_runs() -> None:
    block = _docs_section().split("```python\n", 1)[1].split("```", 1)[0]
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner()
    runner.run(parser.get_doctest(block, {}, "batch.md allocation", "batch.md", 0))
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", ["codes.csv", "redcap.csv"])
def test_verify_checks_the_codes_only_and_redcap_files(
    made: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    path = made / name
    code, out, err = run(capsys, "verify", made / "rec.json", "--output", path)
    assert (code, err) == (0, "") and f"{path} checked" in out
    # the record's digest of that file is checked too
    rec = json.loads((made / "rec.json").read_text(encoding="utf-8"))
    key = "codes_only_sha256" if name == "codes.csv" else "redcap_sha256"
    assert rec[key] == hashlib.sha256(path.read_bytes()).hexdigest()
    forged = made / "forged.json"
    forged.write_text(json.dumps({**rec, key: "0" * 64}), encoding="utf-8")
    code, _, err = run(capsys, "verify", forged, "--output", path)
    assert code == 1 and f"its {key} is not that of the file" in err
    # one changed value (a code, or an arm's number) is named by its line
    rows = table(path)
    rows[7][-1 if name == "codes.csv" else 0] = "X"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)
    code, out, err = run(capsys, "verify", made / "rec.json", "--output", path)
    assert (code, out) == (1, "") and "line 8 (Seq" in err and err.count("\n") == 1


def test_workbook_list_and_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book, codes, rec = tmp_path / "list.xlsx", tmp_path / "codes.xlsx", tmp_path / "r.json"
    code, _, err = run(capsys, *ARGS, "-o", book, "--codes-only", codes, "--record", rec)
    assert (code, err) == (0, "")
    # the same rows as the CSV list, cell for cell (numbers as numbers), read by openpyxl
    code, _, _ = run(capsys, *ARGS, "-o", tmp_path / "list.csv")
    want = table(tmp_path / "list.csv")
    ws = openpyxl.load_workbook(book).active
    assert ws.title == "Allocation"
    got = [[str(v) for v in row] for row in ws.iter_rows(values_only=True)]
    assert got == want
    assert isinstance(ws["A2"].value, int)
    assert openpyxl.load_workbook(codes).active.title == "Codes"
    for path in (book, codes):
        code, out, err = run(capsys, "verify", rec, "--output", path)
        assert (code, err) == (0, "") and f"{path} checked" in out
    wb = openpyxl.load_workbook(book)
    cell = wb.active.cell(row=9, column=6)
    cell.value = "Drug" if cell.value == "Placebo" else "Placebo"
    wb.save(book)
    code, out, err = run(capsys, "verify", rec, "--output", book)
    assert (code, out) == (1, "") and "row 9 (Seq" in err and err.count("\n") == 1


def test_redcap_stays_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *ARGS, "-o", tmp_path / "l.csv", "--redcap", tmp_path / "r.xlsx")
    assert code == 2 and "REDCap imports CSV" in err
