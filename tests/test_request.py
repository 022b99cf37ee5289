"""One typed request per draw (``xlshuffle.common.request.DrawRequest``): the command line's
parser builds it, ``argv()`` states it back as a command line, and a commitment's canonical
form reads back to it. Each round trip must give the request it started from, so a command
line logged by Excel, or a committed draw, is the draw that was meant."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from xlshuffle.cli import build_parser, parse_command
from xlshuffle.cli.request import draw_of, requests_of
from xlshuffle.common.request import (
    DrawRequest,
    GroupsOptions,
    Output,
    Region,
    SampleOptions,
    ShuffleOptions,
    SideFile,
)
from xlshuffle.draw.errors import OptionError
from xlshuffle.draw.seed import Seed
from xlshuffle.tabledraw.raffle_options import DrawOptions


def parsed(argv: list[str]) -> DrawRequest:
    """The request the command line builds from ``argv`` (as ``shuffle|sample|groups``)."""
    args = parse_command(build_parser(), argv)
    assert args is not None
    options, sides = draw_of(args)
    seed = Seed.typed(args.seed, exact=args.exact_seed)
    return requests_of(args, [(args.inputs[0], args.output)], seed, options, sides)[0]


@pytest.fixture
def side(tmp_path: Path) -> dict[str, SideFile]:
    exclude, counts = tmp_path / "april.txt", tmp_path / "counts.csv"
    exclude.write_text("Bo\n", encoding="utf-8")
    counts.write_text("North,1\nSouth,2\n", encoding="utf-8")
    return {
        "--exclude": SideFile.read("--exclude", str(exclude)),
        "--strata-counts": SideFile.read("--strata-counts", str(counts)),
    }


def requests(side: dict[str, SideFile]) -> list[DrawRequest]:
    seed = Seed("2026 raffle")
    return [
        DrawRequest(kind="shuffle", src="a.xlsx", seed=seed, options=ShuffleOptions()),
        DrawRequest(
            kind="shuffle",
            src="my list.xlsx",
            seed=Seed(" 7\t"),
            options=ShuffleOptions(by="within-rows"),
            region=Region(sheet="Class 7B", cells="A2:D30", header=True),
            output=Output(path="out.xlsx"),
        ),
        DrawRequest(
            kind="sample",
            src="t.csv",
            seed=seed,
            options=SampleOptions(k=3, sheet_name="Winners"),
            region=Region(columns="B,D", keep_blank_rows=True),
            output=Output(in_place=True, backup=False, dry_run=True),
        ),
        DrawRequest(
            kind="sample",
            src="t.csv",
            seed=seed,
            options=SampleOptions(
                k=2,
                draw=DrawOptions(
                    k=2,
                    weights="Tickets",
                    reserves=1,
                    id="Name",
                    excluded=("Bo",),
                    one_entry_per_id=True,
                ),
            ),
            side_files=(side["--exclude"],),
        ),
        DrawRequest(
            kind="sample",
            src="t.xlsx",
            seed=seed,
            options=SampleOptions(
                draw=DrawOptions(
                    k=0,
                    strata="Area",
                    counts=(("North", 1), ("South", 2)),
                    method="systematic",
                    all_of_small_strata=True,
                ),
            ),
            region=Region(table="Entrants", header=False),
            side_files=(side["--strata-counts"],),
        ),
        DrawRequest(
            kind="groups",
            src="class.csv",
            seed=seed,
            options=GroupsOptions(size=4, label="Team", balance=("Year", "Sex")),
        ),
    ]


def test_the_command_line_a_request_states_builds_that_request(
    side: dict[str, SideFile],
) -> None:
    for request in requests(side):
        again = parsed(request.argv())
        # the parser reads the side files itself; everything else must come back the same
        assert again.replace(limits=()) == request, shlex.join(request.argv())


def test_the_canonical_form_reads_back_to_the_request(side: dict[str, SideFile]) -> None:
    for request in requests(side):
        sides = request.side_files
        draw = getattr(request.options, "draw", None)
        excluded = None if draw is None else draw.excluded
        again = DrawRequest.from_canonical(
            request.canonical(),
            src=request.src,
            seed=request.seed,
            output=request.output,
            excluded=excluded,
            side_files=sides,
        )
        assert again == request


def test_a_request_whose_side_values_have_no_file_is_not_stated_as_a_command_line() -> None:
    request = DrawRequest(
        kind="sample",
        src="t.csv",
        seed=Seed("1"),
        options=SampleOptions(k=1, draw=DrawOptions(k=1, id="Name", excluded=("Bo",))),
    )
    with pytest.raises(OptionError, match="--exclude: the command line reads these from a file"):
        request.argv()


def test_a_request_of_the_wrong_options_is_refused() -> None:
    with pytest.raises(OptionError, match="a sample request takes SampleOptions"):
        DrawRequest(kind="sample", src="t.csv", seed=Seed("1"), options=ShuffleOptions())


def test_excel_logs_the_command_line_of_its_request() -> None:
    """A locked draw's ``command line`` is its request stated: the command line parses it
    back to the same request (the book as the file, the selection, the options)."""
    from xlshuffle.lock.log import Draw

    common = {
        "sheet": "Sheet 1",
        "address": "A2:C9",
        "book": "Raffle 2026.xlsx",
        "seed": "zq3",
        "seed_from": "",
        "version": "",
        "time": "",
        "rows": [["x"]],
        "output": [["x"]],
        "output_address": "",
    }
    for mode, extra in (
        ("shuffle", {}),
        ("winners", {"k": 3}),
        ("groups", {"k": 2}),
        ("raffle", {"k": 2, "reserves": 1, "tickets": "C2:C9"}),
        ("raffle", {"k": 2}),
    ):
        draw = Draw(mode=mode, **common, **extra)  # type: ignore[arg-type]
        argv = shlex.split(draw.command_line())
        assert argv[0] == "xlshuffle"
        assert parsed(argv[1:]) == draw.request(), draw.command_line()
