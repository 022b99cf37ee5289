"""The text of a cell value: what ``xlshuffle sample`` writes to CSV and what a
commitment's list digest takes (draw protocol section 17).

One rule for every side that turns a cell into text: the workbook engine (values read
from the saved file) and the Excel commands (values handed over by xlwings), so that a
list committed in Excel digests as ``xlshuffle commit`` digests the saved workbook.
"""

from __future__ import annotations

import datetime as _dt

__all__ = ["text_of"]


def text_of(value: object) -> str:
    """The CSV text of a cell value, by today's rules of ``xlshuffle sample``.

    None is ``""``; dates, times and datetimes are ``.isoformat()``; a float with an
    integral value loses its ``.0`` (``3.0`` -> ``"3"``); anything else is ``str(value)``,
    so booleans are ``"True"``/``"False"`` (not Excel's ``TRUE``/``FALSE``) and a
    duration is ``str(timedelta)``.

    Examples
    --------
    >>> [text_of(v) for v in (None, 3.0, 2.5, True, "x", _dt.date(2024, 1, 2))]
    ['', '3', '2.5', 'True', 'x', '2024-01-02']
    """
    if value is None:
        return ""
    if isinstance(value, _dt.datetime | _dt.date | _dt.time):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
