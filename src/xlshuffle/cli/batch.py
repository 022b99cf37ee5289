"""The workbook subcommands: ``shuffle``, ``sample``, ``groups``, ``restore`` and ``verify``.

Registered into ``xlshuffle`` by :func:`register`. This module imports without openpyxl;
the work happens in :mod:`xlshuffle.workbook`, which needs openpyxl's formula translator,
so a missing extra surfaces as one "pip install 'xlshuffle[xlsx]'" line from ``main``.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import Any

from ..common.request import DrawKind, DrawRequest
from ..draw.errors import XlshuffleError
from ..draw.grid import GRID_MODES
from . import add_seed, guards, records
from .committed import add_committed_options
from .draws import add_draw_options
from .options import add_limits
from .paths import DEFAULT_SUFFIX, PathUsageError, destination, expand
from .report import human_channel, outcome, report, write_record
from .request import check_options, draw_of, requests_of

__all__ = ["register"]

_VERB = {"shuffle": "shuffled", "sample": "drew", "groups": "grouped"}


def register(subparsers: Any) -> None:
    """Add ``shuffle``, ``sample``, ``groups`` and ``verify`` to the ``xlshuffle`` parser."""
    p = subparsers.add_parser(
        "shuffle",
        help="shuffle rows (or columns, cells...) of .xlsx workbooks and CSV/TSV lists",
        description="Shuffle a selection of saved .xlsx/.xlsm workbooks, or the data rows of "
        "CSV/TSV lists (.csv, .tsv, .tab: whole rows, each kept byte for byte), with draw "
        "protocol v1: the same seed gives the same order as the Excel functions.",
    )
    _add_common(p, moves=True)
    p.add_argument(
        "--by",
        default="rows",
        help=f"what moves: {', '.join(GRID_MODES)} (default rows)",
    )
    add_committed_options(p)
    p.set_defaults(func=_cmd_run, command="shuffle")

    p = subparsers.add_parser(
        "sample",
        help="draw k rows (raffle winners) in draw order",
        description="Draw k data rows in draw order (the first k rows of 'shuffle' with the "
        "same seed) to CSV on stdout, a CSV file, or a new sheet of a copy of the workbook "
        "(-o NAME.xlsx); a CSV/TSV list's winners go to stdout or a list of its kind. With "
        "--json the record goes to stdout, so the winners need -o.",
    )
    _add_common(p)
    p.add_argument(
        "-k",
        type=int,
        help="how many rows to draw (per stratum with --strata; required "
        "unless --total or --strata-counts says)",
    )
    p.add_argument("--sheet-name", default="Sample", help="name of the new sheet (default Sample)")
    add_draw_options(p)
    add_committed_options(p)
    p.set_defaults(func=_cmd_run, command="sample")

    p = subparsers.add_parser(
        "groups",
        help="split rows into k groups: adds a group-number column",
        description="Assign each data row to one of k near-equal groups (xlshuffle.groups) "
        "and add the group number as a new column right of the used range (a field at the "
        "end of each record, for a CSV/TSV list). Give -k for the number of groups, or "
        "--size N for groups of at most N rows (k = ceil(rows / N), sizes within one).",
    )
    _add_common(p)
    count = p.add_mutually_exclusive_group(required=True)
    count.add_argument("-k", type=int, help="how many groups")
    count.add_argument(
        "--size",
        type=int,
        metavar="N",
        help="teams of at most N rows: the number of groups "
        "is derived (ceil(rows / N)), and sizes differ by at most one",
    )
    p.add_argument("--label", default="Group", help="header of the new column (default Group)")
    p.add_argument(
        "--balance",
        action="append",
        metavar="COL",
        help="balanced teams: each value of this column (header text or "
        "letter) is spread over the teams within one; repeat for more columns, most "
        "important first (protocol section 16)",
    )
    p.add_argument(
        "--avoid",
        metavar="FILE",
        help="keep apart people who were together in an earlier groups draw of the same "
        "rows (its record, plain or balanced; for a CSV/TSV list also its output list): the "
        "first of up to 64 candidates with the fewest repeated pairs",
    )
    add_committed_options(p)
    p.set_defaults(func=_cmd_run, command="groups")

    p = subparsers.add_parser(
        "verify",
        help="replay a draw record and check files against it",
        description="Recompute the permutation of a draw record from its seed and check the "
        "input and output files against it. Exit 0 when it holds, 1 with the first difference.",
    )
    p.add_argument("record", help="the JSON record written by --record")
    p.add_argument("--input", help="the input workbook: must be the recorded one (SHA-256)")
    p.add_argument(
        "--output",
        help="the output workbook: its cells must follow the permutation (with --input), "
        "or its SHA-256 must be the recorded one; for a sample printed to stdout, the "
        "file the winners were saved in (with --input)",
    )
    p.add_argument(
        "--exclude",
        metavar="FILE",
        help="for a draw that excluded IDs (sample --exclude): the earlier record or ID "
        "list it should have excluded; checks that the draw left out exactly those IDs "
        "(a chain of draws: draw 2 excluded draw 1's winners)",
    )
    p.add_argument(
        "--ids",
        metavar="IDS",
        help="for an orders record: the IDs file (and --input the items, --output the table)",
    )
    p.add_argument(
        "--set-aside-output",
        metavar="FILE",
        help="for a monetary-unit sample (with --input): the file of the rows it set aside "
        "(sample --set-aside-output); checks that it holds the header and exactly those rows",
    )
    p.set_defaults(func=records.cmd_verify)

    p = subparsers.add_parser(
        "restore",
        help="undo a shuffle: put every cell back where the draw record says it came from",
        description="Apply the inverse of a recorded shuffle to its output, a workbook or a "
        "CSV/TSV list: every moved row or cell goes back, formulas are translated back, and "
        "the file is as before the draw (formulas' cached values are recomputed when the "
        "file is opened; a list gets its exact bytes back). The file must be the draw's "
        "output, or that output edited outside the drawn rows; anything else is refused.",
    )
    p.add_argument("record", help="the JSON record written by --record")
    p.add_argument(
        "shuffled", metavar="SHUFFLED", help="the shuffled workbook or list (the draw's output)"
    )
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument("-o", "--output", metavar="OUT", help="where to write the restored file")
    out.add_argument("--in-place", action="store_true", help="replace SHUFFLED (keeps a .bak)")
    p.add_argument("--no-backup", action="store_true", help="with --in-place, keep no .bak")
    p.add_argument("--dry-run", action="store_true", help="check and report, write nothing")
    p.add_argument(
        "--record",
        dest="record_out",
        metavar="FILE",
        help="write the restore's own JSON record here (the browser verifier checks it)",
    )
    add_limits(p)
    p.set_defaults(func=records.cmd_restore)


def _add_common(p: argparse.ArgumentParser, *, moves: bool = False) -> None:
    p.add_argument(
        "inputs", nargs="+", metavar="IN", help="workbooks, CSV/TSV lists, folders or glob patterns"
    )
    out = p.add_mutually_exclusive_group()
    out.add_argument("-o", "--output", metavar="OUT", help="output file (one input only)")
    out.add_argument("--suffix", help="write NAME<SUFFIX>.EXT beside each input")
    out.add_argument("--out-dir", metavar="DIR", help="write each output into this folder")
    out.add_argument(
        "--in-place", action="store_true", help="replace the input (keeps NAME.bak.EXT)"
    )
    p.add_argument("--no-backup", action="store_true", help="with --in-place, keep no .bak")
    p.add_argument("--sheet", help="sheet name (default: the active sheet)")
    sel = p.add_mutually_exclusive_group()
    sel.add_argument("--range", metavar="A1:D9", help="an A1 range such as A2:D200")
    sel.add_argument("--table", help="an Excel table by name (its data rows)")
    sel.add_argument("--columns", metavar="B,D", help="only these columns, over the used rows")
    p.add_argument(
        "--header",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="keep the first row in place (default: on, off for --range)",
    )
    p.add_argument(
        "--keep-blank-rows",
        action="store_true",
        help="blank rows inside the data stay where they are; the other rows are drawn",
    )
    add_seed(p, "order")
    p.add_argument("--record", metavar="FILE", help="write the JSON draw record(s) here")
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an existing --record file and default outputs (NAME.shuffled.xlsx, "
        "NAME.groups.csv, --suffix and --out-dir names): without it they are refused before "
        "anything is drawn (a file named with -o is replaced as asked)",
    )
    help_json = "print each record as JSON, a line per file (sample without -o: with its winners)"
    p.add_argument("--json", action="store_true", help=help_json)
    p.add_argument("--dry-run", action="store_true", help="check and report, write nothing")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="files in parallel")
    add_limits(p, moves=moves)


# --------------------------------------------------------------------------- running


def _run_request(request: DrawRequest) -> dict[str, Any]:
    """Do one file; never raise (a bad file must not stop the others)."""
    from ..filedraw import run
    from . import failure

    try:
        out = io.BytesIO()  # a list's winners, printed by the report (or put in --json)
        result = run(request, out=out)
    except (XlshuffleError, OSError) as exc:
        # an option that cannot work for this file (-o naming the input, -k past its rows,
        # --range off its data) exits 2, not 1
        return failure(exc)
    except ModuleNotFoundError:
        raise
    except Exception as exc:  # a bug or an openpyxl failure on save: report, don't crash
        return {
            "ok": False,
            "error": f"{request.src}: unexpected {type(exc).__name__}: {exc} "
            "(nothing was written; please report this with the file if you can)",
        }
    return outcome(request, result, out)


def _cmd_run(args: argparse.Namespace) -> int:
    """``shuffle``, ``sample`` or ``groups`` on every input: check the options, build one
    request per file, run them, report."""
    from . import seed_note, seed_of

    command: DrawKind = args.command
    seed = seed_of(args)  # a bad seed is refused before any file is touched
    check_options(args)
    options, side_files = draw_of(args)
    paths = _inputs(args)
    many = len(paths) > 1
    if args.out_dir is not None:
        os.makedirs(args.out_dir, exist_ok=True)
    requests = requests_of(args, _sources(args, paths), seed, options, side_files)
    if not args.overwrite:
        guards.refuse_overwrite(args, requests)
    results = _run_all(requests, args.jobs, command)
    records = report(args, requests, results)
    failed = len(requests) - len(records)
    human = human_channel(args, requests)
    if many:
        print(
            f"{len(requests)} files: {len(records)} {_VERB[command]}, {failed} failed", file=human
        )
    if args.record and records and not args.dry_run:  # a dry run writes nothing at all
        write_record(args.record, records if many else records[0])
    if records and many and seed.fresh:
        print(
            "xlshuffle: each file drew its own fresh seed, shown above; replay one with "
            "--seed SEED",
            file=sys.stderr,
        )
    elif records:  # nothing was drawn when every file failed: no seed to replay
        seed_note(seed, sys.stderr)
    if any(res.get("usage") for res in results):
        return 2
    return 1 if failed else 0


def _inputs(args: argparse.Namespace) -> list[str]:
    """The files named by the inputs (folders and glob patterns expanded)."""
    from . import UsageError

    try:
        return expand(args.inputs, args.suffix or DEFAULT_SUFFIX[args.command])
    except PathUsageError as exc:
        raise UsageError(str(exc)) from None


def _sources(args: argparse.Namespace, paths: list[str]) -> list[tuple[str, str | None]]:
    """Each input with its output path."""
    from . import UsageError

    many = len(paths) > 1
    try:
        return [(path, destination(args, path, many)) for path in paths]
    except PathUsageError as exc:
        raise UsageError(str(exc)) from None


def _run_all(requests: list[DrawRequest], jobs: int, command: DrawKind) -> list[dict[str, Any]]:
    """Each request's result, in order (``--jobs N``: N processes)."""
    from ..common.progress import Progress

    many = len(requests) > 1
    results: list[dict[str, Any]] = [{}] * len(requests)
    label = {"shuffle": "shuffling", "sample": "sampling", "groups": "grouping"}[command]
    with Progress(len(requests) if many else 0, label, enabled=None if many else False) as bar:
        if jobs > 1 and many:
            from concurrent.futures import ProcessPoolExecutor, as_completed

            with ProcessPoolExecutor(max_workers=min(jobs, len(requests))) as pool:
                futures = {pool.submit(_run_request, r): i for i, r in enumerate(requests)}
                for fut in as_completed(futures):
                    results[futures[fut]] = fut.result()
                    bar.advance()
        else:
            for i, r in enumerate(requests):
                results[i] = _run_request(r)
                bar.advance()
    return results
