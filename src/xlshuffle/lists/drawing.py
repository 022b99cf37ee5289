"""A :class:`~xlshuffle.common.request.DrawRequest` drawn on a CSV/TSV list: the list
engine's one entry, :func:`draw_list`. The public keyword functions (``shuffle_csv``,
``sample_csv``, ``groups_csv``, ``draw_csv``, ``balanced_groups_csv``) build the same
request and call the function of its kind."""

from __future__ import annotations

from typing import Any, BinaryIO

from ..common.request import DrawRequest, GroupsOptions, ShuffleOptions
from ..draw.errors import OptionError
from .api import groups_list, sample_list, shuffle_list
from .raffle import drawn_sample
from .teams import balanced_groups_list

__all__ = ["draw_list"]


def draw_list(
    request: DrawRequest, *, out: BinaryIO | None = None, notes: list[str] | None = None
) -> dict[str, Any]:
    """Draw ``request`` on its list and write what its output says; the draw record.

    ``out`` takes a sample's winners when the request names no output file
    (``sys.stdout.buffer`` on the command line); ``notes`` gets the lines for the
    terminal that the record does not keep (IDs excluded that matched no entrant).
    """
    src, options = request.src, request.options
    if workbook_only := request.region.workbook_only():
        raise OptionError(f"{src}: {workbook_only[0]} is for workbooks; a CSV/TSV list has none")
    if isinstance(options, ShuffleOptions):
        if options.by != "rows":
            raise OptionError(f"{src}: a CSV/TSV list shuffles whole rows only (--by rows)")
        return shuffle_list(request)
    if isinstance(options, GroupsOptions):
        return groups_list(request) if options.balance is None else balanced_groups_list(request)
    if request.output.in_place:
        raise OptionError(
            f"{src}: sample writes the winners to stdout or -o, never over a CSV/TSV list"
        )
    if options.draw is not None:
        return drawn_sample(request, out=out, notes=notes)
    if options.k is None:
        raise OptionError("-k K is required: how many rows to draw")
    return sample_list(request, out=out)
