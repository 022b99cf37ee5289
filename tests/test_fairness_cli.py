"""`xlshuffle fairness` through the real entry point, and the figures it writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fairness_reports import check_schema
from xlshuffle.cli import main
from xlshuffle.lab.fairness import resolve_algorithms, sample

SMALL = ["fairness", "--n", "4", "--trials", "6000", "--algorithms", "forward", "naive-swap"]


def test_json_output_has_the_documented_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SMALL, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    check_schema(report)
    assert report["plots"] == []
    assert [r["name"] for r in report["algorithms"]] == ["forward", "naive-swap"]
    assert (report["n"], report["trials"], report["exact_n"]) == (4, 6000, 4)
    assert report["algorithms"][1]["exact"]["tvd"] == "25/384"


def test_same_seed_same_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for _ in range(2):
        assert main([*SMALL, "--seed", "again", "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        for row in report["algorithms"]:
            del row["cost"]  # timings differ from run to run
        runs.append(report)
    assert runs[0] == runs[1]
    assert runs[0]["seed"] == "again"


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(SMALL) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("method"))
    for column in ("fair?", "chi2", "p-value", "TVD (n=4)", "time/shuffle", "draws/item"):
        assert column in header
    forward = next(line for line in lines if line.startswith("Durstenfeld, forward"))
    naive = next(line for line in lines if line.startswith("Naive swap"))
    assert " yes " in forward
    assert "no bias seen" in forward
    assert " NO " in naive
    assert "BIAS DETECTED" in naive


def test_algorithms_accept_commas(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["fairness", "--n", "3", "--trials", "100", "--algorithms", "forward,backward"]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in report["algorithms"]] == ["forward", "backward"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--algorithms", "bogo"], "unknown algorithm 'bogo': choose from forward"),
        (["--n", "1"], "expected 2 or more"),
        (["--n", "5000"], "--n 5000 is too large"),
        (["--trials", "0"], "expected 1 or more"),
        (["--exact-n", "9"], "--exact-n 9 is too large"),
        (["--n", "many"], "expected a whole number"),
    ],
)
def test_bad_options_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fairness", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_missing_matplotlib_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import now fails as if absent
    monkeypatch.delitem(sys.modules, "xlshuffle.lab.plots", raising=False)
    assert main([*SMALL, "--plot", str(tmp_path)]) == 1
    assert "pip install 'xlshuffle[plot]'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_command_imports_without_matplotlib() -> None:
    code = (
        "import sys, xlshuffle.cli as c; c.build_parser(); "
        "import xlshuffle.lab.fairness, xlshuffle.lab.classic; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('matplotlib', 'numpy')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --------------------------------------------------------------------------- figures


def _png_ok(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert 10_000 < len(data) < 200_000, (path.name, len(data))


@pytest.mark.slow  # about 6 s, most of it importing matplotlib and drawing
def test_each_figure_draws_a_small_png(tmp_path: Path) -> None:
    plots = pytest.importorskip("xlshuffle.lab.plots")
    algs = resolve_algorithms(["forward", "naive-swap", "random-sort", "vba-rnd"])
    _png_ok(plots.headline_figure(algs, tmp_path / "head.png"))
    _png_ok(plots.orders_figure(algs, 3, tmp_path / "o3.png"))
    results = [(a, sample(a, 10, 500, seed=1)) for a in algs]
    _png_ok(plots.positions_figure(results, tmp_path / "p10.png"))
    from xlshuffle.lab.fairness import measure_cost

    costs = {a.name: (a, [measure_cost(a, n, min_time=0) for n in (10, 100)]) for a in algs}
    _png_ok(plots.cost_figure(costs, tmp_path / "cost.png"))


@pytest.mark.slow
def test_plot_option_writes_every_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    argv = ["fairness", "--n", "10", "--trials", "400", "--plot", str(tmp_path), "--json"]
    assert main([*argv, "--algorithms", "forward", "naive-swap", "rand-mod"]) == 0
    report = json.loads(capsys.readouterr().out)
    names = sorted(Path(p).name for p in report["plots"])
    assert names == [
        "fairness-cost.png",
        "fairness-headline.png",
        "fairness-orders-n3.png",
        "fairness-orders-n4.png",
        "fairness-positions-n10.png",
        "fairness-positions-n52.png",
    ]
    for name in names:
        _png_ok(tmp_path / name)


# --------------------------------------------------------------------------- --draws

DRAWS = ["fairness", "--draws", "--weights", "5", "3", "1", "1", "--winners", "2"]


def test_draws_json_has_the_exact_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*DRAWS, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["schema"] == "xlshuffle/fairness-draws/v1"
    assert (report["weights"], report["winners"], report["plots"]) == ([5, 3, 1, 1], 2, [])
    assert [m["name"] for m in report["methods"]] == [
        "xlshuffle",
        "monetary-unit",
        "running-totals",
        "rand-times-weight",
    ]
    one = report["entrants"][0]
    assert (one["share"], one["proportional"]) == ("1/2", "1")
    # By hand: 1/2 + (3/10)(5/7) + 2 (1/10)(5/9) = 52/63; mus caps 2 * 5/10 at 1.
    assert one["included"]["xlshuffle"] == "52/63"
    assert one["included"]["monetary-unit"] == "1"
    assert report["duplicate"] == "9/25"  # 1/4 + 9/100 + 1/100 + 1/100
    assert all(c["holds"] for c in report["checks"])


def test_draws_defaults_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fairness", "--draws"]) == 0
    out = capsys.readouterr().out
    assert "weights 5 3 1 1, 2 winners" in out
    assert "Chance of first place:" in out
    assert "Chance of being among the 2 winners:" in out
    assert "52/63 (0.825)" in out
    assert "41/60 (0.683)" in out
    assert "twice with chance 9/25 (0.360)" in out
    assert "FAILS" not in out
    assert out.count("  holds: ") == 5


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--draws", "--weights", "1", "-2"], "expected 0 or more"),
        (["--draws", "--weights", "1", "0", "--winners", "2"], "only 1 entrant has tickets"),
        (["--draws", "--weights", "200", "100", "1", "--winners", "3"], "use smaller weights"),
        (["--draws", "--algorithms", "forward"], "--algorithms does not apply to --draws"),
        (["--draws", "--weights", "0", "0", "--winners", "0"], "the weights add up to 0"),
        (["--weights", "1", "2"], "go with --draws"),
    ],
)
def test_draws_bad_options_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fairness", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.slow  # imports matplotlib
def test_draws_plot_writes_the_weighted_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    assert main([*DRAWS, "--plot", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [Path(p).name for p in report["plots"]] == ["fairness-weighted.png"]
    _png_ok(tmp_path / "fairness-weighted.png")
