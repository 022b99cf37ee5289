"""The rows a monetary-unit sample sets aside (amounts of 0 or below), written to a file of
their own (``--set-aside-output``): what both engines say and record of it.

The file holds the header and those rows, in input order, as the sample's output is
written (a list's records byte for byte; a workbook's rows as a new sheet of a copy, or
as CSV/TSV). The record names it and its SHA-256 in ``set_aside_output`` and
``set_aside_output_sha256``, absent when nothing was written. Standard library only.
"""

from __future__ import annotations

__all__ = ["SET_ASIDE_OPTION", "SET_ASIDE_SHEET", "nothing_set_aside", "set_aside_fields"]

#: The option that names the file, as messages name it.
SET_ASIDE_OPTION = "--set-aside-output"
#: The sheet a workbook's rows set aside are written to, in a copy of the workbook.
SET_ASIDE_SHEET = "Set aside"


def nothing_set_aside(target: str) -> str:
    """The line said instead of writing an empty file.

    Examples
    --------
    >>> nothing_set_aside("credits.csv")
    'set aside: no row of amount 0 or below, so nothing was written to credits.csv'
    """
    return f"set aside: no row of amount 0 or below, so nothing was written to {target}"


def set_aside_fields(path: str | None, sha256: str | None) -> dict[str, str]:
    """The record's fields naming the file written (none for a dry run, which wrote none)."""
    if path is None or sha256 is None:
        return {}
    return {"set_aside_output": path, "set_aside_output_sha256": sha256}
