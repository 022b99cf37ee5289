"""Text the caller asks to have written into a workbook: a new sheet's name, a header label.

Checked before anything is read, so a name Excel would refuse is refused with one line
naming the option, never written into a file Excel then cannot open.
"""

from __future__ import annotations

import re

from ..draw.errors import OptionError

__all__ = ["MAX_SHEET_NAME", "check_cell_text", "check_sheet_name", "free_sheet_name"]

#: Excel's longest sheet name, in characters.
MAX_SHEET_NAME = 31
#: Excel's longest cell text, in characters.
MAX_CELL_TEXT = 32_767

# XML 1.0 refuses C0 controls other than tab, LF and CR, lone surrogates (a file name's
# byte that is not UTF-8, as Python holds it) and U+FFFE/U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_NOT_IN_SHEET_NAMES = re.compile(r"[\\/?*\[\]:]")


def check_cell_text(text: str, *, option: str) -> str:
    """Return ``text`` if a cell can hold it, else raise :class:`OptionError` naming
    ``option``.

    Examples
    --------
    >>> check_cell_text("Group", option="label")
    'Group'
    >>> try:
    ...     check_cell_text("a\\x01b", option="--label")
    ... except OptionError as exc:
    ...     print(exc)
    --label holds the control character U+0001, which a cell cannot hold: leave it out
    """
    if not isinstance(text, str):
        raise OptionError(f"{option} must be text, not {type(text).__name__}")
    bad = _NOT_XML.search(text)
    if bad is not None:
        ch = bad[0]
        what = (
            "a byte that is not UTF-8 text"
            if "\udc80" <= ch <= "\udcff"
            else (f"the {'control ' if ch < ' ' else ''}character U+{ord(ch):04X}")
        )
        raise OptionError(f"{option} holds {what}, which a cell cannot hold: leave it out")
    if len(text) > MAX_CELL_TEXT:
        raise OptionError(
            f"{option} is {len(text):,} characters long; a cell holds at most "
            f"{MAX_CELL_TEXT:,}: shorten it"
        )
    return text


def check_sheet_name(name: str, *, option: str = "sheet_name") -> str:
    """Return ``name`` if Excel accepts it as a sheet name, else raise
    :class:`OptionError` saying which rule it breaks.

    Examples
    --------
    >>> check_sheet_name("Winners")
    'Winners'
    >>> try:
    ...     check_sheet_name("A/B", option="--sheet-name")
    ... except OptionError as exc:
    ...     print(exc)
    --sheet-name 'A/B' holds '/': Excel refuses \\ / ? * [ ] : in sheet names: choose another name
    """
    check_cell_text(name, option=option)
    control = re.search("[\x00-\x1f]", name)
    if control is not None:  # a tab or line break: a cell holds one, a sheet name not
        raise OptionError(
            f"{option} holds the control character U+{ord(control[0]):04X}, which a sheet "
            "name cannot hold: leave it out"
        )
    bad = _NOT_IN_SHEET_NAMES.search(name)
    fix = "choose another name"
    if not name.strip():
        raise OptionError(f"{option} is blank; Excel needs a sheet name: {fix}")
    if bad is not None:
        raise OptionError(
            f"{option} {name!r} holds {bad[0]!r}: Excel refuses \\ / ? * [ ] : in sheet "
            f"names: {fix}"
        )
    if name.startswith("'") or name.endswith("'"):
        raise OptionError(f"{option} {name!r} begins or ends with an apostrophe: {fix}")
    if len(name) > MAX_SHEET_NAME:
        raise OptionError(
            f"{option} {name!r} is {len(name)} characters long; Excel allows "
            f"{MAX_SHEET_NAME}: {fix}"
        )
    if name.casefold() == "history":  # Excel keeps it for its change history
        raise OptionError(f"{option} 'History' is a name Excel keeps for itself: {fix}")
    return name


def free_sheet_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name 2``, ``name 3``... (shortened to fit 31 characters), the first
    that no sheet in ``taken`` has, in any case.

    Examples
    --------
    >>> free_sheet_name("Sample", {"sheet1", "sample"})
    'Sample 2'
    >>> free_sheet_name("x" * 31, {"x" * 31})
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxx 2'
    """
    folded = {t.casefold() for t in taken}
    candidate, i = name, 1
    while candidate.casefold() in folded:
        i += 1
        suffix = f" {i}"
        candidate = name[: MAX_SHEET_NAME - len(suffix)].rstrip("'") + suffix
    return candidate
