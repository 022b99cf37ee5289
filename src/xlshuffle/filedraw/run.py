"""Run one :class:`~xlshuffle.common.request.DrawRequest` on its file: :func:`run`.

A CSV/TSV list (``.csv``, ``.tsv``, ``.tab``) goes to the list engine, anything else to the
workbook engine; a Parquet file, or a request for the DuckDB engine, to DuckDB
(:mod:`xlshuffle.sql.engine`, ticket draws only). All give the same record (a dict, as
written to ``--record``) and, for a sample, the rows drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, BinaryIO

from ..common.filekinds import is_list, is_table_file
from ..common.request import DrawRequest

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
    if request.engine == "duckdb" or is_table_file(request.src):
        return _run_duckdb(request, out)
    if is_list(request.src):
        return _run_list(request, out)
    return _run_workbook(request)


def _run_duckdb(request: DrawRequest, out: BinaryIO | None) -> DrawResult:
    from ..draw.errors import OptionError
    from ..sql.engine import sample_file

    if request.kind != "sample":
        raise OptionError(
            f"{request.src}: the DuckDB engine draws samples by tickets: {request.kind} "
            "takes a CSV/TSV list or a workbook in memory"
        )
    notes: list[str] = []
    record = sample_file(request, out=out, notes=notes)
    return DrawResult(record, None, tuple(notes))


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
    from ..lists.drawing import draw_list

    notes: list[str] = []
    record = draw_list(request, out=out, notes=notes)
    record["tool_version"] = __version__
    return DrawResult(record, None, tuple(notes))
