"""Run one :class:`~xlshuffle.common.request.DrawRequest` on its file: :func:`run`.

A CSV/TSV list (``.csv``, ``.tsv``, ``.tab``) goes to the list engine, anything else to the
workbook engine; both give the same record (a dict, as written to ``--record``) and, for a
sample, the rows drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, BinaryIO

from ..common.request import DrawRequest, GroupsOptions, ShuffleOptions
from ..draw.errors import OptionError

__all__ = ["DrawResult", "run"]


@dataclass(frozen=True)
class DrawResult:
    """What a draw on a file gives: its ``record`` (the JSON-ready dict ``--record``
    writes), for a sample of a workbook the ``table`` of the rows drawn (labels first;
    None otherwise), and ``notes``: lines for the terminal that the record does not keep
    (the IDs excluded that matched no entrant), and ``unsaved``: how many cells a sample
    wrote empty because they are formulas without a saved value, and the first one."""

    record: dict[str, Any]
    table: list[list[object]] | None = None
    notes: tuple[str, ...] = ()
    unsaved: tuple[int, str | None] = (0, None)


def run(request: DrawRequest, *, out: BinaryIO | None = None) -> DrawResult:
    """Draw ``request`` on its file and write what its output says.

    Parameters
    ----------
    request : DrawRequest
        The draw.
    out : binary file, optional
        Where a sample of a CSV/TSV list without an output path writes its winners
        (``sys.stdout.buffer`` on the command line); None writes them nowhere.

    Raises
    ------
    XlshuffleError
        A file or an option that cannot be drawn (the message says why and what to do).
    OSError
        A file that cannot be read or written.
    """
    from ..lists import is_list

    if is_list(request.src):
        return _run_list(request, out)
    return _run_workbook(request)


def _run_workbook(request: DrawRequest) -> DrawResult:
    from .. import workbook

    with workbook.raised(**dict(request.limits)):
        if request.kind == "shuffle":
            return DrawResult(workbook.shuffle_request(request).to_dict())
        if request.kind == "groups":
            return DrawResult(workbook.groups_request(request).to_dict())
        result = workbook.sample_request(request)
        return DrawResult(
            result.record.to_dict(), result.table, tuple(result.notes), result.unsaved
        )


def _run_list(request: DrawRequest, out: BinaryIO | None) -> DrawResult:
    from .. import __version__
    from ..lists import DEFAULT_MAX_MB, groups_csv, sample_csv, shuffle_csv
    from ..lists.raffle import draw_csv
    from ..lists.teams import balanced_groups_csv

    src, options, output = request.src, request.options, request.output
    if workbook_only := request.region.workbook_only():
        raise OptionError(f"{src}: {workbook_only[0]} is for workbooks; a CSV/TSV list has none")
    common: dict[str, Any] = {
        "seed": request.seed.text,
        "header": request.region.header is not False,
        "dry_run": output.dry_run,
        "max_bytes": dict(request.limits).get("max_file_bytes", DEFAULT_MAX_MB * 1024**2),
    }
    dst, in_place, backup = output.path, output.in_place, output.backup
    notes: list[str] = []
    if isinstance(options, ShuffleOptions):
        if options.by != "rows":
            raise OptionError(f"{src}: a CSV/TSV list shuffles whole rows only (--by rows)")
        rec = shuffle_csv(src, dst, in_place=in_place, backup=backup, **common)
    elif isinstance(options, GroupsOptions):
        groups: dict[str, Any] = {"k": options.k, "size": options.size, "label": options.label}
        if options.balance is not None or options.avoid is not None:
            rec = balanced_groups_csv(
                src,
                dst,
                balance=list(options.balance or ()),
                avoid=options.avoid,
                in_place=in_place,
                backup=backup,
                **groups,
                **common,
            )
        else:
            rec = groups_csv(src, dst, in_place=in_place, backup=backup, **groups, **common)
    else:
        if in_place:
            raise OptionError(
                f"{src}: sample writes the winners to stdout or -o, never over a CSV/TSV list"
            )
        if options.draw is not None:
            rec = draw_csv(src, dst, options=options.draw, out=out, notes=notes, **common)
        elif options.k is None:
            raise OptionError("-k K is required: how many rows to draw")
        else:
            rec = sample_csv(src, dst, k=options.k, out=out, **common)
    rec["tool_version"] = __version__
    return DrawResult(rec, None, tuple(notes))
