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

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from ...draw.errors import OptionError, WorkbookError, XlshuffleError

__all__ = ["LayoutRefusal", "Refused", "Suggestion", "refuse"]


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
        if self.options.get("sheet"):
            words.append(f"--sheet {shlex.quote(self.options['sheet'])}")
        if self.options.get("keep_blank_rows"):
            words.append("--keep-blank-rows")
        if self.options.get("cells"):
            words.append(f"--range {self.options['cells']}")
        header = self.options.get("header")
        if header is True and (self.options.get("cells") or user_header is False):
            words.append("--header")
        elif header is False and (user_header is True or not self.options.get("cells")):
            words.append("--no-header")
        return " ".join(words)


class LayoutRefusal(WorkbookError):
    """A layout the default selection cannot read for sure: ``where`` (the file and
    sheet), ``what`` (the rows and why), the ``suggestions`` to try and what the user can
    do to the file instead (``fix``, as ``"delete it"``). ``decides`` is the suggestion
    that covers the most rows: when none is accepted, its refusal is the deciding one."""

    def __init__(
        self,
        where: str,
        what: str,
        suggestions: list[Suggestion],
        fix: str,
        *,
        decides: int = 0,
        elsewhere: bool = False,
    ) -> None:
        self.where, self.what, self.suggestions, self.fix = where, what, suggestions, fix
        self.reason, self.decides = f"{where}: {what}", decides
        #: The suggestions draw elsewhere (another sheet): when none is accepted, this
        #: refusal stays the reason, followed by why the first of them was refused.
        self.elsewhere = elsewhere
        super().__init__(_message(self.reason, suggestions, fix, None))


class Refused(WorkbookError):
    """A layout refusal as :func:`refuse` gives it: the message names the ``works``
    (suggestions accepted); ``reason`` is the refusal without them."""

    def __init__(self, message: str, reason: str, works: list[Suggestion]) -> None:
        super().__init__(message)
        self.reason, self.works = reason, works


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
        except Refused as other:  # its own suggestions were tried: on another sheet they
            if exc.elsewhere and other.works:  # go with that sheet's option
                works.extend(Suggestion(s.options | w.options, w.what, w.when) for w in other.works)
            else:
                failures[i] = other.reason
        except OptionError:
            continue
        except XlshuffleError as other:
            failures[i] = str(other)
        else:
            works.append(s)
    if works or not failures:
        raise Refused(_message(exc.reason, works, exc.fix, header), exc.reason, works) from None
    deciding = failures.get(exc.decides, next(iter(failures.values())))
    if exc.elsewhere:
        why = deciding.removeprefix(f"{exc.where}: ")
        raise WorkbookError(f"{exc.reason}; where there is data, it is refused: {why}") from None
    raise WorkbookError(f"{deciding} (and {exc.what})") from None
