"""Draw day in a real browser: prize tables, rounds and the entrant's check by ID on the
verifier page (verifier/index.html), and the live reveal page (verifier/reveal.html).

Every record, commitment and output here is written by the real command line; the pages
must verify them, refuse tampered copies, and the reveal page must show exactly the winners
``xlshuffle draw`` wrote, prize by prize. One headless Chromium for the module, both pages in
tabs of it, comes from tests/browser_pages.py (skipped without it, unless XLSHUFFLE_REQUIRE
lists ``chromium``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_pages import FILES_JS, chromium_browser, cli, files_arg, opened  # noqa: F401

from support import ROOT

PRIZES = "Third prize,3,1\nSecond prize,1,1\nGrand prize,1,2\n"
ENTRANTS = [(f"E{i:02d}", f"Person {i}", i % 4 + 1, "NS"[i % 2]) for i in range(1, 17)]
BEACON = "EuroMillions of Friday 4 December 2026: the five main numbers, in ascending order"


@pytest.fixture(scope="module")
def verifier(chromium: Any) -> Iterator[Any]:
    with opened(chromium, ROOT / "verifier" / "index.html", "() => window.xlshuffleVerify") as tab:
        yield tab


@pytest.fixture(scope="module")
def reveal(chromium: Any) -> Iterator[Any]:
    page = ROOT / "verifier" / "reveal.html"
    with opened(chromium, page, "() => window.xlshuffleReveal") as tab:
        yield tab


@pytest.fixture
def work(tmp_path: Path) -> Path:
    rows = [["ID", "Name", "Tickets", "Site"], *[list(map(str, e)) for e in ENTRANTS]]
    (tmp_path / "e.csv").write_text(
        "".join(",".join(r) + "\n" for r in rows), encoding="utf-8", newline=""
    )
    (tmp_path / "prizes.csv").write_text(PRIZES, encoding="utf-8")
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Entries"
    sheet.append(rows[0])
    for e in ENTRANTS:
        sheet.append(list(e))
    book.save(tmp_path / "e.xlsx")
    return tmp_path


def verify(tab: Any, record: str, *files: Path | tuple[str, bytes]) -> dict[str, Any]:
    result: dict[str, Any] = tab.evaluate(
        f"async (a) => window.xlshuffleVerify({{record: a.record, files: {FILES_JS}}})",
        {"record": record, "files": files_arg(list(files))},
    )
    return result


def table_of(path: Path) -> list[list[str]]:
    """The drawn rows of an output (a CSV, or a workbook's last sheet), as texts."""
    if path.suffix == ".xlsx":
        openpyxl = pytest.importorskip("openpyxl")
        sheet = openpyxl.load_workbook(path).worksheets[-1]
        return [["" if v is None else str(v) for v in r] for r in sheet.iter_rows(values_only=True)]
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))


# ---------------------------------------------------------------- prize tables on the verifier


@pytest.mark.parametrize(
    ("source", "options"),
    [
        ("e.csv", ["--weights", "Tickets"]),
        ("e.xlsx", ["--weights", "Tickets"]),
        ("e.csv", ["--method", "ticket"]),
        ("e.xlsx", ["--method", "ticket", "--weights", "Tickets"]),
        ("e.csv", ["--one-entry-per-id", "--weights", "Tickets"]),
    ],
)
def test_a_prize_tables_record_verifies_and_an_edited_one_does_not(
    verifier: Any, work: Path, source: str, options: list[str]
) -> None:
    out = work / f"w{Path(source).suffix}"
    cli("sample", source, "--prizes", "prizes.csv", "--id", "ID", *options, "--seed", "day",
        "-o", out, "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    result = verify(verifier, record, work / source, out)
    assert result["verified"], result["message"]
    assert "prizes in drawing order: Third prize (3, 1 reserve(s))" in result["message"]
    details = verifier.inner_text("#details")
    assert "Grand prize: winner 1" in details and "Grand prize: reserve 2" in details
    # the table's prizes swapped in the record: the output's Prize column gives it away
    rec = json.loads(record)
    prizes = rec["target"]["draw"]["prizes"]
    prizes[0]["prize"], prizes[2]["prize"] = prizes[2]["prize"], prizes[0]["prize"]
    result = verify(verifier, json.dumps(rec), work / source, out)
    assert not result["verified"] and result["supported"], result["message"]
    # one more winner in the table than the record draws
    rec = json.loads(record)
    rec["target"]["draw"]["prizes"][1]["count"] = 2
    result = verify(verifier, json.dumps(rec), work / source, out)
    assert "the record's prize table gives 6 winner(s)" in result["message"]


def test_an_output_with_a_place_moved_is_not_verified(verifier: Any, work: Path) -> None:
    cli("sample", "e.csv", "--prizes", "prizes.csv", "--id", "ID", "--seed", "day", "-o", "w.csv",
        "--record", "r.json", cwd=work)  # fmt: skip
    rows = table_of(work / "w.csv")
    rows[5][5] = "2"  # the Second prize's winner moved to place 2
    edited = "".join(",".join(r) + "\n" for r in rows).encode("utf-8")
    result = verify(verifier, (work / "r.json").read_text(encoding="utf-8"), work / "e.csv",
                    ("w.csv", edited))  # fmt: skip
    assert not result["verified"]
    assert 'row 6, column 6: it holds "2", the draw gives "1"' in result["message"]


def test_a_committed_prize_draw_verifies_and_an_entrant_checks_their_id(
    verifier: Any, work: Path
) -> None:
    cli("commit", "e.csv", "--prizes", "prizes.csv", "--weights", "Tickets", "--id", "ID",
        "--beacon", BEACON, "-o", "c.json", "--entrant-hashes", "salt.txt", cwd=work)  # fmt: skip
    cli("draw", "c.json", "e.csv", "--reveal", "4 17 23 38 45", "--salt", "salt.txt",
        "-o", "w.csv", "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    result = verify(verifier, record, work / "e.csv", work / "w.csv")
    assert result["verified"], result["message"]
    assert "the committed entrant hashes by ID are the input's IDs (ID)" in result["message"]
    # the page says what to type as soon as the record is there
    verifier.fill("#record", record)
    hint = verifier.inner_text("#entry-hint")
    assert 'type only your ID (its "ID" column)' in hint
    drawn = table_of(work / "w.csv")[1:]
    grand = next(r for r in drawn if r[4] == "Grand prize" and r[6] == "winner")
    verifier.fill("#entry-id", f" {grand[0]} ")
    verifier.click("#check-id")
    verifier.wait_for_function("() => document.getElementById('entry-verdict').className")
    said = verifier.inner_text("#entry-verdict")
    assert verifier.get_attribute("#entry-verdict", "class") == "ok"
    assert "names you a winner: Grand prize, place 1" in said, said
    check = "async (a) => window.xlshuffleCheckEntry(a)"
    nobody = verifier.evaluate(check, {"record": record, "id": "E99"})
    assert not nobody["found"] and nobody["message"].startswith("NOT found")
    reserve = next(r for r in drawn if r[6] == "reserve")
    got = verifier.evaluate(check, {"record": record, "id": reserve[0]})
    assert got["found"] and not got["won"], got
    # the commitment alone, with the salt the organiser publishes
    commitment = (work / "c.json").read_text(encoding="utf-8")
    salt = (work / "salt.txt").read_text(encoding="utf-8").strip()
    alone = verifier.evaluate(check, {"record": commitment, "id": grand[0], "salt": salt})
    assert alone["found"], alone
    # a record whose ID hashes were edited is not verified
    rec = json.loads(record)
    rec["commitment"]["body"]["entrants"]["ids_salted_sha256"][0] = "0" * 64
    assert not verify(verifier, json.dumps(rec), work / "e.csv", work / "w.csv")["verified"]


# ---------------------------------------------------------------- rounds


def test_a_chain_of_rounds_verifies_and_a_round_against_the_rules_does_not(
    verifier: Any, work: Path
) -> None:
    cli("sample", "e.csv", "--prizes", "prizes.csv", "--weights", "Tickets", "--id", "ID",
        "--seed", "day", "-o", "w.csv", "--record", "r.json", cwd=work)  # fmt: skip
    drawn = table_of(work / "w.csv")[1:]
    third = [r[0] for r in drawn if r[4] == "Third prize" and r[6] == "winner"]
    grand = [r[0] for r in drawn if r[4] == "Grand prize" and r[6] == "winner"]
    cli("redraw", "r.json", "--replace", third[1], "--reason", "did not answer",
        "-o", "o1.csv", "--record", "r1.json", cwd=work)  # fmt: skip
    cli("redraw", "r1.json", "--replace", grand[0], "--reason", "declined, moved away",
        "-o", "o2.csv", "--record", "r2.json", cwd=work)  # fmt: skip
    chain = [work / "e.csv", work / "r.json", work / "r1.json", work / "o2.csv"]
    last = (work / "r2.json").read_text(encoding="utf-8")
    result = verify(verifier, last, *chain)
    assert result["verified"], result["message"]
    assert "the draw and its 2 round(s)" in result["message"]
    assert f"{grand[0]}'s place went to" in result["message"]
    # every file given, the tables of both rounds checked
    result = verify(verifier, last, *chain, work / "o1.csv", work / "w.csv")
    assert result["verified"] and "2 round table(s) given" in result["message"], result
    # the place given to another reserve than the rules call
    rec = json.loads(last)
    reserves = [r[0] for r in drawn if r[4] == "Third prize" and r[6] == "reserve"]
    rec["given_to"]["id"] = reserves[0]
    result = verify(verifier, json.dumps(rec), *chain)
    assert not result["verified"] and "the rules give it to" in result["message"]
    # an earlier record missing, or edited (its SHA-256 no longer the one named)
    result = verify(verifier, last, work / "e.csv", work / "r.json", work / "o2.csv")
    assert "give the record this round follows, r1.json" in result["message"]
    edited = (work / "r1.json").read_text(encoding="utf-8").replace("did not answer", "away")
    result = verify(verifier, last, work / "e.csv", work / "r.json", ("r1.json", edited.encode()),
                    work / "o2.csv")  # fmt: skip
    assert "r1.json is not the record this round follows" in result["message"]
    # the round's table edited
    text = (
        (work / "o2.csv").read_text(encoding="utf-8").replace("winner,replaces", "reserve,replaces")
    )
    result = verify(verifier, last, *chain[:3], ("o2.csv", text.encode()))
    assert not result["verified"] and "round's table o2.csv differs" in result["message"]


# ---------------------------------------------------------------- the live reveal page


def run_reveal(tab: Any, commitment: str, files: list[Path | tuple[str, bytes]], value: str) -> Any:
    return tab.evaluate(
        "async (a) => window.xlshuffleReveal("
        f"{{commitment: a.commitment, files: {FILES_JS}, reveal: a.value}})",
        {"commitment": commitment, "files": files_arg(files), "value": value},
    )


@pytest.mark.parametrize(
    ("source", "options"),
    [
        ("e.csv", ["--prizes", "prizes.csv", "--weights", "Tickets", "--id", "ID"]),
        ("e.xlsx", ["--prizes", "prizes.csv", "--weights", "Tickets", "--id", "ID"]),
        ("e.csv", ["--prizes", "prizes.csv", "--method", "ticket", "--id", "ID"]),
        ("e.xlsx", ["-k", "3", "--reserves", "2", "--weights", "Tickets"]),
        ("e.csv", ["-k", "4"]),
        ("e.csv", ["-k", "2", "--strata", "Site", "--id", "ID"]),
    ],
)
def test_the_reveal_page_shows_exactly_the_command_lines_winners(
    reveal: Any, work: Path, source: str, options: list[str]
) -> None:
    cli("commit", source, *options, "--beacon", BEACON, "-o", "c.json", cwd=work)
    out = work / f"w{Path(source).suffix}"
    cli("draw", "c.json", source, "--reveal", " 4 17  23 38 45", "-o", out, "--record", "r.json",
        cwd=work)  # fmt: skip
    head, *rows = table_of(out)
    col = {name: j for j, name in enumerate(head)}
    want = []
    for n, r in enumerate(rows):
        stratum = r[col["Site"]] if "--strata" in options else None
        before = [x for x in rows[:n] if stratum is None or x[col["Site"]] == stratum]
        place = r[col["Place"]] if "Place" in col else r[col["Rank"]] if "Rank" in col else None
        one = {
            "prize": r[col["Prize"]] if "Prize" in col else None,
            "place": int(place) if place else len(before) + 1,
            "role": r[col["Role"]] if "Role" in col else "winner",
            "id": r[0],
        }
        if stratum is not None:
            one["stratum"] = stratum
        want.append(one)
    commitment = (work / "c.json").read_text(encoding="utf-8")
    got = run_reveal(reveal, commitment, [work / source], "4 17 23 38 45")
    assert got["ok"], got["message"]
    assert got["winners"] == want
    # on screen: the proof always in view, the prizes in the table's order, one name a press
    reveal.click("#start")
    proof = reveal.inner_text("#proof")
    body = json.loads(commitment)
    assert body["sha256"] in proof and BEACON in proof and "4 17 23 38 45" in proof
    seen: list[tuple[str, list[str]]] = []
    while True:
        names = reveal.eval_on_selector_all("#names li", "(li) => li.map((x) => x.textContent)")
        seen.append((reveal.inner_text("#heading"), names))
        assert body["sha256"] in reveal.inner_text("#proof")
        if reveal.is_disabled("#next"):
            break
        reveal.keyboard.press("ArrowRight")
    assert len(seen) == len(want) + len({(w["prize"], w["role"], w.get("stratum")) for w in want})
    shown = [(h, names[-1]) for h, names in seen if names]
    assert [name for _, name in shown] == [w["id"] for w in want]
    if "--prizes" in options:
        headings = [h for h, names in seen if not names]
        assert headings == [
            "Third prize",
            "Second prize",
            "Grand prize",
            "Reserves for Third prize",
            "Reserves for Second prize",
            "Reserves for Grand prize",
        ]


def test_the_reveal_page_refuses_a_changed_list_or_a_wrong_value(reveal: Any, work: Path) -> None:
    cli("commit", "e.csv", "--prizes", "prizes.csv", "--id", "ID", "--beacon", BEACON,
        "-o", "c.json", cwd=work)  # fmt: skip
    cli("draw", "c.json", "e.csv", "--reveal", "4 17 23 38 45", "-o", "w.csv", "--record", "r.json",
        cwd=work)  # fmt: skip
    commitment = (work / "c.json").read_text(encoding="utf-8")
    changed = (work / "e.csv").read_bytes().replace(b"Person 3,", b"Person 33,")
    refusals = [
        (commitment, [("e.csv", changed)], "4 17 23 38 45", "e.csv is not the committed list"),
        (commitment, [("e.csv", changed + b"E99,Late,1,N\n")], "4 17 23 38 45", "17 rows"),
        # the draw's record holds the value drawn with: another is not the draw's
        ((work / "r.json").read_text(encoding="utf-8"), [work / "e.csv"], "4 17 23 38 46",
         'the revealed value "4 17 23 38 46" is not the one the draw\'s record holds'),
        (commitment, [work / "e.csv"], "  ", "no revealed value was given"),
        (commitment.replace('"Grand prize",\n', '"Grand prize!",\n', 1), [work / "e.csv"],
         "4 17 23 38 45", "the commitment was changed since it was made"),
    ]  # fmt: skip
    for text, files, value, message in refusals:
        got = run_reveal(reveal, text, files, value)
        assert not got["ok"] and got["winners"] == [], got
        assert got["message"].startswith("Refused: ") and message in got["message"], got
        assert got["message"].endswith("Nothing is revealed.")
        assert "\n" not in got["message"]
        assert reveal.is_disabled("#start")
        assert reveal.get_attribute("#status", "class") == "bad"
    # the honest files after a refusal: the same winners as the command line
    ok = run_reveal(reveal, commitment, [work / "e.csv"], "4 17 23 38 45")
    assert ok["ok"], ok["message"]
    assert [w["id"] for w in ok["winners"]] == [r[0] for r in table_of(work / "w.csv")[1:]]
    assert not reveal.is_disabled("#start")


def test_the_draw_day_walk_through_runs_and_the_reveal_page_shows_its_winners(
    reveal: Any, verifier: Any, work: Path
) -> None:
    """docs/fair-draws.md, "Draw day, step by step": its commands as shown (the replaced
    winner's ID taken from the draw, which the commitment's time decides), the reveal page
    on the committed files, and the verifier on the round's chain."""
    import re
    import shlex

    text = (ROOT / "docs" / "fair-draws.md").read_text(encoding="utf-8")
    section = text[text.index("## Draw day, step by step") :].split("\n## ", 1)[0]
    table = re.search(r"```text\n(.*?)```", section, flags=re.DOTALL)
    assert table is not None
    (work / "prizes.csv").write_text(table.group(1), encoding="utf-8")
    (work / "raffle.csv").write_text(
        "Ticket,Name,Tickets\n"
        + "".join(f"T-{100 + i},{e[1]},{e[2]}\n" for i, e in enumerate(ENTRANTS)),
        encoding="utf-8",
    )
    commands = re.findall(r"```bash\n(xlshuffle [^\n]*)\n```", section)
    assert [c.split()[1] for c in commands] == ["commit", "draw", "certificate", "redraw"]
    for command in commands[:3]:
        cli(*shlex.split(command)[1:], cwd=work)
    drawn = table_of(work / "winners.csv")[1:]
    got = run_reveal(
        reveal, (work / "commitment.json").read_text(encoding="utf-8"), [work / "raffle.csv"],
        "4 17 23 38 45",
    )  # fmt: skip
    assert got["ok"], got["message"]
    assert [(w["prize"], str(w["place"]), w["role"], w["id"]) for w in got["winners"]] == [
        (r[3], r[4], r[5], r[0]) for r in drawn
    ]
    winner = next(r[0] for r in drawn if r[3] == "Third prize")
    cli(*shlex.split(commands[3].replace("T-104", winner))[1:], cwd=work)
    record = (work / "round1.json").read_text(encoding="utf-8")
    chain = [work / "raffle.csv", work / "draw.json", work / "round1.csv"]
    result = verify(verifier, record, *chain)
    assert result["verified"], result["message"]
    assert f"{winner}'s place went to" in result["message"]


# ---------------------------------------------------------------- fresh rounds, reveal rules


def test_a_fresh_round_verifies_on_the_page_and_a_forged_one_does_not(
    verifier: Any, work: Path
) -> None:
    """Section 19 on the verifier page: the round's commitment, its seed and the entrant
    drawn from the entrants not yet drawn, as the command line drew it."""
    (work / "two.csv").write_text("Mug,2,1\nBike,1,0\n", encoding="utf-8")
    (work / "out.txt").write_text("E05\n", encoding="utf-8")
    cli(
        "commit",
        "e.csv",
        "--prizes",
        "two.csv",
        "--weights",
        "Tickets",
        "--id",
        "ID",
        "--exclude",
        "out.txt",
        "--beacon",
        BEACON,
        "-o",
        "c.json",
        cwd=work,
    )
    cli(
        "draw",
        "c.json",
        "e.csv",
        "--reveal",
        "4 17 23 38 45",
        "-o",
        "w.csv",
        "--record",
        "r.json",
        cwd=work,
    )
    bike = next(r[0] for r in table_of(work / "w.csv")[1:] if r[4] == "Bike")
    cli(
        "redraw",
        "r.json",
        "--replace",
        bike,
        "--reason",
        "declined",
        "--beacon",
        "drand quicknet round 12345678",
        "--commit",
        "c2.json",
        cwd=work,
    )
    cli(
        "redraw",
        "r.json",
        "--commitment",
        "c2.json",
        "--reveal",
        "9f3a 77",
        "-o",
        "o1.csv",
        "--record",
        "r1.json",
        cwd=work,
    )
    record = (work / "r1.json").read_text(encoding="utf-8")
    chain = [work / "e.csv", work / "r.json", work / "o1.csv", work / "out.txt", work / "w.csv"]
    result = verify(verifier, record, *chain)
    assert result["verified"], result["message"]
    given = json.loads(record)["given_to"]
    assert f"{bike}'s place went to {given['id']}" in result["message"]
    assert "drawn afresh from" in result["message"] and "9f3a 77" in result["message"]
    for key, value in (("given_to", {**given, "id": "E05"}), ("reason", "moved away")):
        forged = {**json.loads(record), key: value}
        result = verify(verifier, json.dumps(forged), *chain[:2], *chain[3:])
        assert not result["verified"] and result["supported"], (key, result["message"])
    forged = json.loads(record)
    forged["fresh"]["reveal"] = ["9f3a 78"]
    result = verify(verifier, json.dumps(forged), *chain[:2], *chain[3:])
    assert not result["verified"] and "seed" in result["message"], result["message"]


def test_the_reveal_page_draws_with_an_exclusion_list_as_the_command_line(
    reveal: Any, work: Path
) -> None:
    (work / "out.txt").write_text("ID\nE03\nE07\nE99\n", encoding="utf-8")
    cli(
        "commit",
        "e.csv",
        "--prizes",
        "prizes.csv",
        "--weights",
        "Tickets",
        "--id",
        "ID",
        "--exclude",
        "out.txt",
        "--beacon",
        BEACON,
        "-o",
        "c.json",
        cwd=work,
    )
    cli(
        "draw",
        "c.json",
        "e.csv",
        "--reveal",
        "4 17 23 38 45",
        "-o",
        "w.csv",
        "--record",
        "r.json",
        cwd=work,
    )
    drawn = table_of(work / "w.csv")[1:]
    commitment = (work / "c.json").read_text(encoding="utf-8")
    got = run_reveal(reveal, commitment, [work / "e.csv", work / "out.txt"], "4 17 23 38 45")
    assert got["ok"], got["message"]
    assert [(w["prize"], str(w["place"]), w["role"], w["id"]) for w in got["winners"]] == [
        (r[4], r[5], r[6], r[0]) for r in drawn
    ]
    assert not {"E03", "E07"} & {w["id"] for w in got["winners"]}
    for files, message in (
        ([work / "e.csv"], "give the exclusion list the commitment pinned, out.txt"),
        ([work / "e.csv", ("out.txt", b"ID\nE03\n")], "out.txt is not the exclusion list"),
    ):
        got = run_reveal(reveal, commitment, files, "4 17 23 38 45")
        assert not got["ok"] and message in got["message"], got["message"]


def test_the_reveal_page_draws_a_workbook_with_blank_rows_kept_in_place(
    reveal: Any, work: Path
) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Entries"
    sheet.append(["ID", "Name", "Tickets", "Site"])
    for n, e in enumerate(ENTRANTS):
        if n in (3, 9, 10):
            sheet.append([])  # blank rows the draw keeps in place
        sheet.append(list(e))
    book.save(work / "gaps.xlsx")
    options = ["-k", "3", "--reserves", "2", "--weights", "Tickets", "--id", "ID"]
    cli(
        "commit",
        "gaps.xlsx",
        *options,
        "--keep-blank-rows",
        "--beacon",
        BEACON,
        "-o",
        "c.json",
        cwd=work,
    )
    cli(
        "draw",
        "c.json",
        "gaps.xlsx",
        "--reveal",
        "4 17 23 38 45",
        "-o",
        "w.csv",
        "--record",
        "r.json",
        cwd=work,
    )
    drawn = table_of(work / "w.csv")[1:]
    commitment = (work / "c.json").read_text(encoding="utf-8")
    got = run_reveal(reveal, commitment, [work / "gaps.xlsx"], "4 17 23 38 45")
    assert got["ok"], got["message"]
    assert [(w["role"], str(w["place"]), w["id"]) for w in got["winners"]] == [
        (r[4], r[5], r[0]) for r in drawn
    ]
    assert "16 rows" in got["message"]


def test_the_rounds_of_a_workbook_draw_and_of_excel_verify_on_the_page(verifier: Any) -> None:
    """The fixtures xlshuffle wrote (tools/make_round_fixtures.py): a workbook draw's second
    round with its added sheet, and a raffle locked in Excel with its round rows; a round
    with another reason is refused."""
    book = ROOT / "verifier" / "tests" / "fixtures" / "rounds" / "book"
    excel = ROOT / "verifier" / "tests" / "fixtures" / "rounds" / "excel"
    record = (book / "round2.json").read_text(encoding="utf-8")
    files = [book / n for n in ("book.xlsx", "draw.json", "round1.json", "round2.xlsx")]
    result = verify(verifier, record, *files)
    assert result["verified"] and "the draw and its 2 round(s)" in result["message"], result
    forged = record.replace('"declined; moved"', '"declined"')
    result = verify(verifier, forged, *files)
    assert not result["verified"] and 'sheet "Round" differs' in result["message"], result
    log = (excel / "log.tsv").read_text(encoding="utf-8")
    result = verify(verifier, log, excel / "Raffle.xlsx")
    assert result["verified"] and "round 2: 102's place went to 107" in result["message"], result
    result = verify(
        verifier, log.replace("--reason declined", "--reason away"), excel / "Raffle.xlsx"
    )
    assert not result["verified"], result
