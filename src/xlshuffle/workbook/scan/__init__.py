"""Byte-level scanning of a sheet's XML: tags, rows, cells and A1 references.

- :mod:`.xmlscan`: a small linear-time XML scanner, escaping and unescaping;
- :mod:`.sheet`: one worksheet part as bytes: where its rows are (and where a run of
  rows is stored, :func:`~.sheet.stored_at`), the cells of a row;
- :mod:`.merges`: merged cells' references, checked as the sheet is opened;
- :mod:`.edits`: :func:`~.edits.splice`, the one helper that rewrites byte ranges, and
  :func:`~.edits.r_edit`, the one that sets a row's or a cell's ``r=``;
- :mod:`.rowfind`: where the values and cells are, found by C-level searches;
- :mod:`.refs`: A1 references, column letters and the sheet's limits (``MAX_ROW``,
  ``MAX_COL``).
"""
