"""``xlshuffle plan`` and ``xlshuffle evaluate``: the JSON fields outside tools read, the
exit codes (2 for a command line at fault, 1 for a file), one line per error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from xlshuffle.cli import main

from support import ROOT

AUDITED = ROOT / "workbooks" / "invoices-audited.csv"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, *argv, "--json")
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 1
    result: dict[str, Any] = json.loads(out)
    return result


@pytest.mark.parametrize(
    ("argv", "size"),
    [
        (["--confidence", "0.95", "--tolerable-rate", "0.05"], 59),
        (["--confidence", "95%", "--tolerable-rate", "5%", "--model", "poisson"], 60),
        (["--confidence", "0.95", "--tolerable-rate", "0.05", "--expected-rate", "0.01"], 93),
        (["--confidence", "0.90", "--tolerable-rate", "0.05", "--expected-rate", "0.035"], 400),
        (
            ["--confidence", "0.95", "--tolerable-rate", "0.05", "--population", "1000",
             "--model", "hypergeometric"],
            57,
        ),
    ],
)  # fmt: skip
def test_plan_attribute(capsys: pytest.CaptureFixture[str], argv: list[str], size: int) -> None:
    result = as_json(capsys, "plan", "attribute", *argv)
    assert result["sample_size"] == size
    assert result["upper_limit"] < result["tolerable_rate"]


def test_plan_mus_is_aicpa_table_c1(capsys: pytest.CaptureFixture[str]) -> None:
    result = as_json(
        capsys, "plan", "mus", "--confidence", "0.95", "--book-value", "1,000,000",
        "--tolerable", "50000", "--expected", "20000",
    )  # fmt: skip
    assert (result["sample_size"], result["model"]) == (162, "poisson")
    assert result["interval"] == pytest.approx(1_000_000 / 162)
    assert result["errors_allowed"] == pytest.approx(3.24)  # the table's "taintings"


def test_evaluate_attribute(capsys: pytest.CaptureFixture[str]) -> None:
    result = as_json(
        capsys, "evaluate", "attribute", "--sample-size", "100", "--deviations", "3",
        "--confidence", "0.95", "--tolerable-rate", "0.08",
    )  # fmt: skip
    assert result["upper_limit"] == pytest.approx(stats.beta.ppf(0.95, 4, 97), rel=1e-12)
    assert result["accepted"] is True
    code, out, _ = run(
        capsys, "evaluate", "attribute", "--sample-size", "100", "--deviations", "3",
        "--confidence", "95%", "--model", "poisson",
    )  # fmt: skip
    assert code == 0
    assert out.startswith("3 deviations in 100 items (3%): upper limit 7.7537% (poisson")


def test_evaluate_mus_reads_the_sample_file_and_its_hits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = as_json(
        capsys, "evaluate", "mus", str(AUDITED), "--book", "Amount", "--audited", "Audited",
        "--book-value", "435846.74", "--confidence", "0.95", "--tolerable", "50000",
    )  # fmt: skip
    assert result["sample_size"] == 33  # the sum of Hits
    taints = sorted(result["taintings"], reverse=True)
    n, b = 33, 435846.74
    factors = [stats.gamma.ppf(0.95, i + 1) for i in range(len(taints) + 1)]
    by_hand = (
        b
        / n
        * (factors[0] + sum((factors[i] - factors[i - 1]) * t for i, t in enumerate(taints, 1)))
    )
    assert result["upper_limit"] == pytest.approx(by_hand, rel=1e-12)
    assert result["projected"] == pytest.approx(b / n * sum(taints), rel=1e-12)
    assert result["accepted"] is False
    # without the Hits column each row counts once
    no_hits = as_json(
        capsys, "evaluate", "mus", str(AUDITED), "--book", "E", "--audited", "G", "--hits",
        "Hits", "--book-value", "435846.74", "--confidence", "0.95", "--model", "binomial",
    )  # fmt: skip
    assert no_hits["sample_size"] == 33
    assert no_hits["model"] == "binomial"


def test_evaluate_mus_without_hits_counts_each_row_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = tmp_path / "s.csv"
    sample.write_text("Id;Book;Audit\nA;100,00;90,00\nB;50;50\n".replace(",00", ""), "utf-8")
    result = as_json(
        capsys, "evaluate", "mus", str(sample), "--book", "Book", "--audited", "Audit",
        "--book-value", "1000", "--confidence", "0.9",
    )  # fmt: skip
    assert result["sample_size"] == 2
    assert result["taintings"] == [0.1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["plan"], "required: KIND"),
        (["plan", "attribute", "--tolerable-rate", "0.05"], "required: --confidence"),
        (["plan", "attribute", "--confidence", "95", "--tolerable-rate", "0.05"], "write 95%"),
        (["plan", "attribute", "--confidence", "0.95", "--tolerable-rate", "0.05",
          "--model", "normal"], "use one of binomial, poisson, hypergeometric"),
        (["plan", "attribute", "--confidence", "0.95", "--tolerable-rate", "0.05",
          "--model", "hypergeometric"], "needs the population"),
        (["plan", "attribute", "--confidence", "0.95", "--tolerable-rate", "0.05",
          "--expected-rate", "0.05"], "less than the tolerable rate"),
        (["plan", "mus", "--confidence", "0.95", "--book-value", "abc", "--tolerable", "1"],
         "book value: the amount 'abc' is not a number"),
        (["evaluate", "attribute", "--sample-size", "10", "--deviations", "11",
          "--confidence", "0.95"], "11 deviations cannot be found"),
        (["evaluate", "attribute", "--sample-size", "0", "--deviations", "0",
          "--confidence", "0.95"], "expected 1 or more"),
        (["evaluate", "mus", str(AUDITED), "--book", "Amount", "--audited", "Nope",
          "--book-value", "1", "--confidence", "0.95"], "--audited Nope: no such column"),
        (["evaluate", "mus", str(AUDITED), "--book", "Amount", "--audited", "Audited",
          "--book-value", "1", "--confidence", "0.95", "--model", "hypergeometric"],
         "use one of poisson, binomial"),
    ],
)  # fmt: skip
def test_usage_errors_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("Error: ")
    assert message in err


def test_a_bad_cell_of_the_file_exits_1_naming_its_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = tmp_path / "s.csv"
    sample.write_text("Id,Book,Audit,Hits\nA,100,90,1\nB,50,fifty,2\n", "utf-8")
    code, _, err = run(
        capsys, "evaluate", "mus", str(sample), "--book", "Book", "--audited", "Audit",
        "--book-value", "1000", "--confidence", "0.9",
    )  # fmt: skip
    assert code == 1
    assert err.startswith(f"Error: {sample}: data row 2: audited: the amount 'fifty' is not")
    assert len(err.splitlines()) == 1
    missing = tmp_path / "missing.csv"
    code, _, err = run(
        capsys, "evaluate", "mus", str(missing), "--book", "B", "--audited", "A",
        "--book-value", "1", "--confidence", "0.9",
    )  # fmt: skip
    assert code == 1
    assert "No such file" in err


def test_a_workbook_sample_is_read_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    for row in [["Id", "Book", "Audited", "Hits"], ["A", 100, 90, 1], ["B", 250.5, 250.5, 2]]:
        sheet.append(row)
    path = tmp_path / "s.xlsx"
    book.save(path)
    result = as_json(
        capsys, "evaluate", "mus", str(path), "--book", "Book", "--audited", "Audited",
        "--book-value", "1000", "--confidence", "0.9",
    )  # fmt: skip
    assert result["sample_size"] == 3
    assert result["taintings"] == [0.1]
    shutil.rmtree(tmp_path)
