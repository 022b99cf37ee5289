"""Refusals that lead somewhere: a layout refusal's suggestions, each tried before it is
offered.

The layout rules (:mod:`.layout`) refuse a default selection they cannot read for sure
(a blank row inside the data, two header rows) with a :class:`LayoutRefusal`: the reason
and the options that would draw something instead (``--keep-blank-rows``, the block
above, the block below...). The command then runs each option as a dry run on the same
file (:func:`refuse`): only the ones accepted are named. When none is, the reason that
decides the outcome (a protected sheet, a merge, a formula that cannot move) comes first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from ..draw.errors import OptionError, WorkbookError, XlshuffleError

__all__ = ["LayoutRefusal", "Suggestion", "refuse"]


@dataclass(frozen=True)
class Suggestion:
    """Options that would draw instead (keyword arguments of the command, as
    ``{"cells": "A1:D9", "header": True}``) and what they draw (``"the rows above it"``)."""

    options: dict[str, Any]
    what: str
    #: When it applies (``"if row 2 is data"``): the offers then read as alternatives.
    when: str = ""

    def text(self, user_header: bool | None) -> str:
        """The options as they are typed (``--range A1:D9 --header``)."""
        words = []
        if self.options.get("keep_blank_rows"):
            words.append("--keep-blank-rows")
        if self.options.get("cells"):
            words.append(f"--range {self.options['cells']}")
        header = self.options.get("header")
        if header is True and (self.options.get("cells") or user_header is False):
            words.append("--header")
        elif header is False and user_header is True:
            words.append("--no-header")
        return " ".join(words)


class LayoutRefusal(WorkbookError):
    """A layout the default selection cannot read for sure: ``where`` (the file and
    sheet), ``what`` (the rows and why), the ``suggestions`` to try and what the user can
    do to the file instead (``fix``, as ``"delete it"``). ``decides`` is the suggestion
    that covers the most rows: when none is accepted, its refusal is the deciding one."""

    def __init__(self, where: str, what: str, suggestions: list[Suggestion], fix: str, *,
                 decides: int = 0) -> None:  # fmt: skip
        self.where, self.what, self.suggestions, self.fix = where, what, suggestions, fix
        self.reason, self.decides = f"{where}: {what}", decides
        super().__init__(_message(self.reason, suggestions, fix, None))


def _message(reason: str, works: list[Suggestion], fix: str, header: bool | None) -> str:
    offers = [
        f"{s.when + ', ' if s.when else ''}give {s.text(header)}"
        + (f" to draw {s.what}" if s.what else "")
        for s in works
    ]
    if any(s.when for s in works):
        return f"{reason}: {'; '.join(offers + ([fix] if fix else []))}"
    if fix:
        offers.append(fix)
    if len(offers) > 1:
        offers[-1] = "or " + offers[-1]
    return f"{reason}: {', '.join(offers)}"


def refuse(
    exc: LayoutRefusal, attempt: Callable[[dict[str, Any]], object], *, header: bool | None
) -> NoReturn:
    """Refuse with the suggestions of ``exc`` that ``attempt`` (a dry run of the same
    command on the same file with those options) accepts; when none is accepted, with
    the reason the broadest one was refused - the deciding reason - then the layout's.
    An option this run cannot take (``--keep-blank-rows`` with ``--by cells``) is left
    out quietly."""
    works: list[Suggestion] = []
    failures: dict[int, str] = {}
    for i, s in enumerate(exc.suggestions):
        try:
            attempt(s.options)
        except LayoutRefusal as other:  # never a suggestion that leads to another refusal
            failures[i] = other.reason
        except OptionError:
            continue
        except XlshuffleError as other:
            failures[i] = str(other)
        else:
            works.append(s)
    if works or not failures:
        raise WorkbookError(_message(exc.reason, works, exc.fix, header)) from None
    deciding = failures.get(exc.decides, next(iter(failures.values())))
    raise WorkbookError(f"{deciding} (and {exc.what})") from None
