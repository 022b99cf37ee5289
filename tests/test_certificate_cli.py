"""``xlshuffle certificate``: the page shows what the records hold, drawn again, and loads
nothing. Read back with the standard library's HTML parser."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from raffle_books import read_csv, run, save_csv


class _Page(HTMLParser):
    """The rows of the page's table, its text, and every tag that could load something."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.loads: list[str] = []
        self.text: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "img", "link", "iframe") or any(
            k in ("src", "href") for k, _ in attrs
        ):
            self.loads.append(tag)
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def _page(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_a_certificate_lists_every_prize_substitution_and_how_to_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, prizes = save_csv(tmp_path / "e.csv"), tmp_path / "prizes.csv"
    prizes.write_text("Mug,2,1\nBike,1,1\n", encoding="utf-8")
    out, rec = tmp_path / "w.csv", tmp_path / "r.json"
    assert (
        run(
            capsys,
            "sample",
            src,
            "--prizes",
            prizes,
            "--id",
            "ID",
            "--seed",
            "day",
            "-o",
            out,
            "--record",
            rec,
        )[0]
        == 0
    )
    drawn = read_csv(out)[1:]
    gone = drawn[0][0]
    reason = "<b>away</b> & unreachable"
    rec1 = tmp_path / "r1.json"
    assert (
        run(capsys, "redraw", rec, "--replace", gone, "--reason", reason, "--record", rec1)[0] == 0
    )
    cert = tmp_path / "cert.html"
    code, _, err = run(capsys, "certificate", rec1, "--title", "Fair day <2026>", "-o", cert)
    assert code == 0, err
    page = _page(cert)
    assert page.loads == []  # nothing loaded: no script, picture, style sheet or link
    text = "".join(page.text)
    assert "Fair day <2026>" in text and reason in text  # escaped, shown as written
    assert "&lt;b&gt;away&lt;/b&gt; &amp; unreachable" in cert.read_text(encoding="utf-8")
    table = [r for r in page.rows if r and r[0] != "Prize" and len(r) == 5]
    reserve = next(r[0] for r in drawn if r[-3:-1] == ["Mug", "1"] and r[-1] == "reserve")
    want = {(r[-3], r[0]) for r in drawn}
    assert {(r[0], r[3]) for r in table} == want  # every drawn entrant, by prize
    assert [r[:4] for r in table if r[0] == "Mug"][:3] == [
        ["Mug", "1", "winner", reserve],
        ["Mug", "2", "winner", drawn[1][0]],
        ["Mug", "1", "replaced", gone],
    ]
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert record["input_sha256"] in text and "xlshuffle verify r1.json" in text


def test_a_committed_draws_certificate_shows_its_commitment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = save_csv(tmp_path / "e.csv")
    commitment = tmp_path / "c.json"
    assert (
        run(
            capsys,
            "commit",
            src,
            "-k",
            2,
            "--reserves",
            1,
            "--id",
            "ID",
            "--beacon",
            "five dice at noon",
            "-o",
            commitment,
        )[0]
        == 0
    )
    out, rec = tmp_path / "w.csv", tmp_path / "r.json"
    assert (
        run(capsys, "draw", commitment, src, "--reveal", "6 2 3 1 4", "-o", out, "--record", rec)[0]
        == 0
    )
    cert = tmp_path / "cert.html"
    assert run(capsys, "certificate", rec, "-o", cert)[0] == 0
    text = "".join(_page(cert).text)
    digest = json.loads(rec.read_text(encoding="utf-8"))["commitment"]["sha256"]
    assert digest in text and "five dice at noon" in text and "6 2 3 1 4" in text


def test_a_certificate_is_refused_for_a_list_that_is_not_the_recorded_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = save_csv(tmp_path / "e.csv")
    rec = tmp_path / "r.json"
    assert (
        run(
            capsys,
            "sample",
            src,
            "-k",
            2,
            "--id",
            "ID",
            "--seed",
            1,
            "-o",
            tmp_path / "w.csv",
            "--record",
            rec,
        )[0]
        == 0
    )
    src.write_text(src.read_text(encoding="utf-8") + "T11,Kim,1,North,5\n", encoding="utf-8")
    code, _, err = run(capsys, "certificate", rec, "-o", tmp_path / "cert.html")
    assert code == 1 and "not the recorded input" in err
    assert not (tmp_path / "cert.html").exists()
