"""Draws on saved files, from one typed request: run one
(:func:`~xlshuffle.filedraw.run.run`), or commit to one before its seed is known and draw it
when the seed is revealed (:mod:`xlshuffle.filedraw.commitment`).

This layer sits above the two engines (:mod:`xlshuffle.workbook` for workbooks,
:mod:`xlshuffle.lists` for CSV/TSV lists) and below the command line: it is where a
:class:`~xlshuffle.common.request.DrawRequest` meets the engine that can draw its file.
Importing it loads neither engine; the workbook engine (which needs the ``xlsx`` extra) is
imported when a workbook is drawn.
"""

from .run import DrawResult, run

__all__ = ["DrawResult", "run"]
