"""Commit, then draw, in Excel: *commit selection* and *draw committed* (section 17).

The workbook stand-in is :mod:`test_excel_lock`'s (a real Office.js ``xw.Book`` driven by
xlwings' own ``custom_scripts_call``). Expected values never come from the excel layer:
the commitment hash is hashlib over the reference code's canonical JSON, the list digest
the reference code's over texts written out here, the seed section 17's rule applied to
the logged hash, the winners the reference ``deal``; the saved workbook (made with
openpyxl) is committed and drawn by the command line for comparison.
"""

from __future__ import annotations

import copy
import hashlib
import json
import shlex
from pathlib import Path
from typing import Any

import pytest
import xlwings as xw

from excel_book import LOG_HEADER, PEOPLE, Excel, one_line, people, sha256_of
from excel_calls import call
from protocol_references import reference_namespace
from xlshuffle.cli import main

REF = reference_namespace()
COMMIT_HEADER = [*LOG_HEADER, "commitment sha256", "list sha256", "beacon", "reveal", "commitment"]
BEACON = "EuroMillions 2026-12-04: the five main numbers, ascending"
REVEAL = " 4  17 23 38 45 "
#: PEOPLE as the command line reads the same cells of the saved workbook (section 17)
TEXTS = [
    ["Ana", "1", "True"],
    ["Ben", "2.5"],
    ["Cy", "x", "False"],
    ["Di", "4", "d"],
    ["Ed", "5", "6"],
]


def log(excel: Excel) -> list[dict[str, Any]]:
    rows = [r for r in excel.sheet("Draw log")["values"] if any(v not in ("", None) for v in r)]
    assert rows[0][: len(COMMIT_HEADER)] == COMMIT_HEADER
    return [dict(zip(COMMIT_HEADER, r, strict=False)) for r in rows[1:]]


def seed_of(digest: str, *values: str) -> str:
    """Section 17, step 4, written out here."""
    return f"xlshuffle-commit:{digest}/" + "".join(" ".join(v.split()) + "/" for v in values)


def committed(excel: Excel, draw: str = "sample", k: int = 2) -> dict[str, Any]:
    excel.script("commit_selection", draw, k, BEACON)
    return log(excel)[-1]


def test_commit_logs_the_hash_of_the_committed_body_and_writes_nothing_else(
    capsys: pytest.CaptureFixture[str],
) -> None:
    excel = people()
    entry = committed(excel, "sample", 2)
    out = capsys.readouterr().out
    data = json.loads(entry["commitment"])
    body, digest = data["commitment"], entry["commitment sha256"]
    assert hashlib.sha256(REF["canonical_json"](body)).hexdigest() == digest == data["sha256"]
    assert f"publish this commitment hash now: {digest}\n" in out
    assert body["list"] == {
        "file": "Raffle 2026.xlsx",
        "sheet": "Sheet1",
        "selection": "Sheet1!A2:C6",
        "header": False,
        "rows": 5,
        "sha256": REF["list_digest"](TEXTS),
    }
    assert body["draw"] == {
        "command": "sample",
        "options": ["--sheet", "Sheet1", "--range", "A2:C6", "-k", "2"],
    }
    assert (body["beacon"], body["entrants"], body["time_utc"]) == (
        BEACON,
        None,
        entry["time (UTC)"],
    )
    assert (entry["mode"], entry["range"], entry["k"], entry["seed"], entry["output"]) == (
        "commit",
        "A2:C6",
        "2",
        "",
        "",
    )
    assert entry["list sha256"] == body["list"]["sha256"] and entry["beacon"] == BEACON
    assert entry["input sha256"] == sha256_of(PEOPLE) and entry["options"] == "sample -k 2"
    assert excel.cells("Sheet1", 1, 4, 7, 3) == [[None] * 3] * 7  # nothing drawn yet
    # a commitment draws nothing, so there is nothing to restore
    with pytest.raises(xw.XlwingsError, match="lists no draw to restore"):
        excel.script("restore_last_draw")


def test_the_committed_draw_is_the_reference_deal_with_the_derived_seed() -> None:
    excel = people()
    digest = committed(excel, "sample", 2)["commitment sha256"]
    excel.script("draw_committed", REVEAL, "")
    entry = log(excel)[-1]
    seed = seed_of(digest, REVEAL)
    assert seed == f"xlshuffle-commit:{digest}/4 17 23 38 45/"
    winners = [PEOPLE[i] for i in REF["deal"](list(range(5)), 2, seed)]
    assert excel.cells("Sheet1", 2, 4, 2, 3) == winners
    assert excel.cells("Sheet1", 4, 4, 3, 3) == [[None] * 3] * 3
    assert (entry["mode"], entry["k"], entry["output"], entry["seed"]) == (
        "winners",
        "2",
        "D2:F3",
        seed,
    )
    assert (entry["commitment sha256"], entry["reveal"], entry["beacon"]) == (
        digest,
        "4 17 23 38 45",
        BEACON,
    )
    assert entry["seed from"] == f"commitment {digest[:16]}... and the revealed value(s)"
    assert entry["output sha256"] == sha256_of(winners)
    # the log row is the plain draw's: its formula and command line replay it
    assert entry["formula"] == f'=SAMPLE(Sheet1!A2:C6, 2, "{seed}")'
    got = call("SAMPLE", PEOPLE, [[2]], [[seed]])
    assert [[None if v == "" else v for v in row] for row in got] == winners
    assert entry["command line"] == (
        "xlshuffle sample 'Raffle 2026.xlsx' --sheet Sheet1 --range A2:C6 -k 2 "
        f"--seed {shlex.quote(seed)}"
    )
    # restore clears the winners, and skips the commit row after that
    excel.script("restore_last_draw")
    assert excel.cells("Sheet1", 2, 4, 2, 3) == [[None] * 3] * 2
    with pytest.raises(xw.XlwingsError, match="lists no draw to restore"):
        excel.script("restore_last_draw")


@pytest.mark.parametrize("draw", ["shuffle", "groups"])
def test_shuffle_and_groups_are_committed_too(draw: str) -> None:
    excel = people()
    digest = committed(excel, draw, 3)["commitment sha256"]
    reveal = "4 17 23 38 45 / drand quicknet round 123: 9f1c"
    excel.script("draw_committed", reveal, digest[:12])
    entry = log(excel)[-1]
    seed = seed_of(digest, "4 17 23 38 45", "drand quicknet round 123: 9f1c")
    assert (
        entry["seed"] == seed
        and entry["reveal"] == "4 17 23 38 45 / drand quicknet round 123: 9f1c"
    )
    if draw == "shuffle":
        assert json.loads(entry["commitment"])["commitment"]["draw"]["options"][4:] == []
        order = REF["deal"](list(range(5)), 5, seed)
        assert excel.cells("Sheet1", 2, 1, 5, 3) == [PEOPLE[i] for i in order]
    else:
        written = excel.cells("Sheet1", 2, 4, 5, 1)
        assert written == call("GROUPS", PEOPLE, [[3]], [[seed]])
        assert entry["formula"] == f'=GROUPS(Sheet1!A2:C6, 3, "{seed}")'


def test_a_list_changed_after_the_commitment_is_refused_and_nothing_is_written() -> None:
    excel = people()
    entry = committed(excel)
    excel.put("Sheet1", 4, 2, "y")  # Cy's "x" becomes "y"
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("draw_committed", REVEAL)
    message = one_line(str(info.value))
    assert message.startswith(
        f"draw committed: the list changed since it was committed at {entry['time (UTC)']}: "
        "Sheet1!A2:C6 digests to "
    )
    assert message.endswith("put the committed list back; nothing was drawn")
    assert excel.payload == before
    excel.put("Sheet1", 4, 2, "x")  # put back: the draw goes ahead
    excel.script("draw_committed", REVEAL)
    assert log(excel)[-1]["mode"] == "winners"


@pytest.mark.parametrize(
    ("reveal", "words"),
    [
        ("", "draw committed: reveal is empty: type the revealed value as it was published"),
        ("   ", "draw committed: reveal is empty"),
        ("2026/12/04", "reveal: '2026/12/04' holds '/', which no revealed value may hold"),
        ("7 12 / 2026/12/04", "reveal: '2026/12/04' holds '/'"),
        ("7 12 /  / 9", "a revealed value is blank: give the value as it was published"),
    ],
)
def test_bad_reveals_are_refused_in_one_line(reveal: str, words: str) -> None:
    excel = people()
    committed(excel)
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("draw_committed", reveal)
    assert words in one_line(str(info.value))
    assert excel.payload == before


def test_a_commitment_is_drawn_with_one_reveal_only() -> None:
    excel = people()
    committed(excel)
    excel.script("draw_committed", REVEAL)
    drawn = excel.cells("Sheet1", 2, 4, 2, 3)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("draw_committed", REVEAL)
    assert "is drawn already (into Sheet1!D2:F3): a commitment is drawn once; restore" in (
        one_line(str(info.value))
    )
    excel.script("restore_last_draw")
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("draw_committed", "4 17 23 38 46")
    assert "was drawn with the revealed value(s) '4 17 23 38 45'" in one_line(str(info.value))
    excel.script("draw_committed", REVEAL)  # the same value again gives the same draw
    assert excel.cells("Sheet1", 2, 4, 2, 3) == drawn


def test_an_edited_commitment_in_the_log_is_refused() -> None:
    excel = people()
    committed(excel)
    grid = excel.sheet("Draw log")["values"]
    at = COMMIT_HEADER.index("commitment")
    grid[1][at] = grid[1][at].replace("EuroMillions", "A coin I tossed")
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("draw_committed", REVEAL)
    assert "or was edited" in one_line(str(info.value))


def test_the_commitment_named_by_its_hash_is_drawn_not_the_newest() -> None:
    excel = people()
    first = committed(excel, "sample", 1)["commitment sha256"]
    excel.select("A2:B6")
    assert committed(excel, "sample", 1)["range"] == "A2:B6"
    excel.script("draw_committed", REVEAL, first[:8].upper())
    entry = log(excel)[-1]
    assert (entry["range"], entry["commitment sha256"]) == ("A2:C6", first)
    with pytest.raises(xw.XlwingsError, match="holds no commitment 0123abcd"):
        excel.script("draw_committed", REVEAL, "0123abcd")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("deal", 2, BEACON), "draw must be sample, shuffle or groups"),
        (("sample", 2, " "), "beacon is empty: name the public random value"),
        (("sample", 6, BEACON), "cannot draw 6 winners from 5 rows"),
    ],
)
def test_commit_refusals_write_nothing(args: tuple[Any, ...], words: str) -> None:
    excel = people()
    before = copy.deepcopy(excel.payload)
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("commit_selection", *args)
    assert words in one_line(str(info.value))
    assert excel.payload == before


def test_a_blank_row_cannot_be_committed() -> None:
    excel = Excel([["name", "n"], ["Ann", 1], [None, None], ["Bo", 2]], "A2:B4")
    with pytest.raises(xw.XlwingsError) as info:
        excel.script("commit_selection", "sample", 1, BEACON)
    assert "row 3 of the selection A2:B4 is blank" in one_line(str(info.value))


def test_the_command_line_commits_the_same_list_and_draws_the_logged_commitment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The saved workbook: ``xlshuffle commit`` digests the same list, and ``xlshuffle
    draw`` with the log's commitment cell as its file draws the locked winners."""
    openpyxl = pytest.importorskip("openpyxl")
    saved = openpyxl.Workbook()
    saved.active.title = "Sheet1"
    for row in [["name", "n", "flag"], *PEOPLE]:
        saved.active.append(row)
    book = tmp_path / "Raffle 2026.xlsx"
    saved.save(book)
    excel = people()
    entry = committed(excel, "sample", 3)
    excel.script("draw_committed", REVEAL)
    drawn = log(excel)[-1]
    cli = tmp_path / "cli.json"
    options = json.loads(entry["commitment"])["commitment"]["draw"]["options"]
    assert main(["commit", str(book), *options, "--beacon", BEACON, "-o", str(cli)]) == 0
    cli_body = json.loads(cli.read_text(encoding="utf-8"))["commitment"]
    excel_body = json.loads(entry["commitment"])["commitment"]
    assert cli_body["list"] == excel_body["list"]
    # Excel writes version 1 (a draw in the sheet reads no side file), the command line 2
    assert (excel_body["commitment_version"], cli_body["commitment_version"]) == (1, 2)
    request = cli_body["draw"]["request"]
    assert request["region"]["sheet"] == "Sheet1" and request["region"]["range"] == "A2:C6"
    assert request["sample"]["k"] == 3
    logged = tmp_path / "commitment.json"
    logged.write_text(entry["commitment"], encoding="utf-8")
    out, rec = tmp_path / "winners.xlsx", tmp_path / "draw.json"
    argv = ["draw", str(logged), str(book), "--reveal", REVEAL, "-o", str(out)]
    assert main([*argv, "--record", str(rec)]) == 0
    capsys.readouterr()
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert record["seed"] == drawn["seed"]
    sheet = openpyxl.load_workbook(out)["Sample"]  # Rank, then the drawn row's cells
    got = [list(r) for r in sheet.iter_rows(min_row=2, values_only=True)]
    assert [r[1:] for r in got] == excel.cells("Sheet1", 2, 4, 3, 3)
    # and the logged command line is the plain draw with the same seed
    assert shlex.split(drawn["command line"])[-1] == drawn["seed"]


def test_the_windows_macros_show_the_hash_and_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    excel = people()
    excel.sub(monkeypatch, "commit_selection", "sample", 2, BEACON)
    digest = log(excel)[-1]["commitment sha256"]
    assert excel.alerts == [f"publish this commitment hash now: {digest}"]
    excel.sub(monkeypatch, "draw_committed", "2026/12/04")
    assert "holds '/'" in one_line(excel.alerts[-1]) and len(log(excel)) == 1
    excel.sub(monkeypatch, "draw_committed", REVEAL)
    seed = seed_of(digest, REVEAL)
    assert excel.cells("Sheet1", 2, 4, 2, 3) == [PEOPLE[i] for i in REF["deal"](range(5), 2, seed)]


def _as_office_js_sends(serial: float) -> str:
    """A Date or Time cell's value as xlwings' Office.js client sends it (xlwings.ts:
    ``new Date(Math.round((value - 25569) * 86400 * 1000)).toISOString()``)."""
    import datetime as dt

    ms = round((serial - 25569) * 86400 * 1000)
    moment = dt.datetime(1970, 1, 1) + dt.timedelta(milliseconds=ms)
    return moment.isoformat(timespec="milliseconds") + "Z"


def test_dates_and_times_commit_as_the_saved_workbook_reads_them(tmp_path: Path) -> None:
    """Date, time and date-time cells reach the command as Office.js sends them (ISO
    text, which xlwings makes a ``datetime``; a time alone is a time of 1899-12-30); the
    list digest is the one ``xlshuffle commit`` makes from the saved workbook."""
    import datetime as dt

    openpyxl = pytest.importorskip("openpyxl")
    # serials: 2026-12-04, 13:30, 2026-12-04 18:45, as Excel holds them (1900 system)
    rows = [["Ana", 46360, 0.5625, 46360.78125], ["Ben", 46361, 0.25, 46361.5]]
    saved = openpyxl.Workbook()
    sheet = saved.active
    sheet.title = "Sheet1"
    sheet.append(["name", "joined", "at", "stamp"])
    for name, day, time, stamp in rows:
        sheet.append([name, day, time, stamp])
    for row in sheet.iter_rows(min_row=2):
        row[1].number_format, row[2].number_format = "yyyy-mm-dd", "h:mm"
        row[3].number_format = "yyyy-mm-dd h:mm"
    book = tmp_path / "Raffle 2026.xlsx"
    saved.save(book)
    sent = [[n, *(_as_office_js_sends(v) for v in values)] for n, *values in rows]
    excel = Excel([["name", "joined", "at", "stamp"], *sent], "A1:D3")
    entry = committed(excel, "sample", 1)
    cli = tmp_path / "cli.json"
    options = json.loads(entry["commitment"])["commitment"]["draw"]["options"]
    assert main(["commit", str(book), *options, "--beacon", BEACON, "-o", str(cli)]) == 0
    cli_list = json.loads(cli.read_text(encoding="utf-8"))["commitment"]["list"]
    assert json.loads(entry["commitment"])["commitment"]["list"] == cli_list
    texts = [
        ["name", "joined", "at", "stamp"],
        ["Ana", "2026-12-04T00:00:00", "13:30:00", "2026-12-04T18:45:00"],
        ["Ben", "2026-12-05T00:00:00", "06:00:00", "2026-12-05T12:00:00"],
    ]
    assert cli_list["sha256"] == REF["list_digest"](texts)
    assert dt.date(1899, 12, 30) + dt.timedelta(days=46360) == dt.date(2026, 12, 4)
