"""Draws on saved files, from one typed request.

- :mod:`.run`: :func:`run`, a :class:`~xlshuffle.common.request.DrawRequest` drawn on its
  file by the engine that can draw it;
- :mod:`.commitment`: commit to a request before its seed is known, and draw it when the
  seed is revealed (protocol section 17), with :mod:`.pins` (what a commitment pins of the
  files beyond the list) and :mod:`.legacy` (the draw of a version 1 commitment);
- :mod:`.sidefiles`: the readers of those files (``--exclude``, ``--strata-counts``).

This layer sits above the two engines (:mod:`xlshuffle.workbook` for workbooks,
:mod:`xlshuffle.lists` for CSV/TSV lists) and below the command line. Importing it loads
neither engine; the workbook engine (which needs the ``xlsx`` extra) is imported when a
workbook is drawn.
"""

from .run import DrawResult, run

__all__ = ["DrawResult", "run"]
