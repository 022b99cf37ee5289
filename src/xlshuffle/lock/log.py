"""Draw and lock, the pure part: what a locked draw logs, from plain values.

Nothing here touches a workbook or xlwings. :mod:`xlshuffle.lock` reads the
selection as a list of rows, asks :func:`~.plan.plan` what to write, writes it and
appends :meth:`Draw.log_row` to the ``Draw log`` sheet; ``restore last draw`` asks
:func:`~.plan.undo` what to write back. Everything a log row holds can be recomputed from it
by anyone (docs/excel.md, "Draw and lock").

The input hash (:func:`values_sha256`) is SHA-256 over this serialisation of a grid of
cell values, as UTF-8 bytes::

    "<rows>x<columns>\\n", then for each row, for each cell: <tag><length>:<text>,
    and "\\n" after each row

where ``<text>`` is the cell's canonical text, ``<length>`` its length in UTF-8 bytes
(decimal) and ``<tag>`` one letter: ``e`` an empty cell (no value or an empty text;
text ``""``), ``b`` TRUE/FALSE (text ``TRUE`` or ``FALSE``), ``n`` a number (a date or a
time is its Excel serial number; a whole number is its decimal digits with a leading
``-`` if negative, anything else Python's ``repr`` of the float, the shortest text
that reads back as the same double), ``s`` a text (its characters as they are; an
error cell is read as its text, ``#N/A``).

>>> values_sha256([[1, "a"], [2.0, None]])[:16]
'9031a560d3a38dd9'
>>> serialise([[1, "a"], [2.0, None]])
b'2x2\\nn1:1s1:a\\nn1:2e0:\\n'
"""

from __future__ import annotations

import datetime as dt
import math
import numbers
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from ..common.a1 import col_index, col_letters
from ..common.digest import bytes_sha256
from ..common.request import (
    DrawKind,
    DrawRequest,
    GroupsOptions,
    Options,
    Region,
    SampleOptions,
    ShuffleOptions,
)
from ..draw.errors import WorkbookError
from ..draw.protocol import PROTOCOL, excel_serial
from ..draw.seed import Seed
from ..functions.arguments import SHEET_COLUMNS, SHEET_ROWS
from ..tabledraw.raffle_options import DrawOptions

Rows = list[list[Any]]

#: The modes of a locked draw, as the log's ``mode`` column names them.
LockMode = Literal[
    "shuffle",
    "winners",
    "deal",
    "groups",
    "raffle",
    "teams",
    "orders",
    "allocation",
    "prizes",
    "round",  # a round of a raffle or a prize draw (lock/rounds.py)
    "tickets",
]
#: The modes that write new sheets (named in the log's ``new sheets``) rather than cells.
NEW_SHEET_MODES = ("orders", "allocation")
#: Between the names in ``new sheets``: a character no sheet name may hold.
SHEET_SEPARATOR = " / "
#: The columns of the ``Draw log`` sheet, in order (its header row).
LOG_COLUMNS = (
    "time (UTC)",
    "sheet",
    "range",
    "mode",
    "k",
    "hands",
    "output",
    "seed",
    "seed from",
    "protocol",
    "version",
    "input sha256",
    "output sha256",
    "formula",
    "command line",
    "restored (UTC)",
    # added for the raffle (mode "raffle"): a log with the sixteen columns above gets them
    "reserves",
    "tickets",
    "method",
    # added for the designs (modes "teams", "orders", "allocation"), as above
    "new sheets",
    "options",
)

_A1_BLOCK = re.compile(r"\$?([A-Z]{1,3})\$?([0-9]{1,7})(?::\$?([A-Z]{1,3})\$?([0-9]{1,7}))?")
_PLAIN_SHEET = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_CELL_LIKE = re.compile(r"[A-Za-z]{1,3}[0-9]+|[RrCc][0-9]*([RrCc][0-9]*)?")


# --------------------------------------------------------------------------- input hash


def cell_text(value: Any) -> tuple[str, str]:
    """The tag and canonical text of one cell value (see the module docstring)."""
    if value is None or (isinstance(value, str) and value == ""):
        return "e", ""
    if isinstance(value, bool):
        return "b", "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return "s", value
    if isinstance(value, dt.date):
        value = excel_serial(value)
    if isinstance(value, numbers.Integral):
        return "n", str(int(value))
    if isinstance(value, numbers.Real):
        number = float(value)
        if math.isfinite(number) and number.is_integer():
            return "n", str(int(number))
        return "n", repr(number)
    return "s", str(value)


def serialise(rows: Sequence[Sequence[Any]]) -> bytes:
    """The canonical bytes of a grid of values, as :func:`values_sha256` hashes them."""
    width = len(rows[0]) if rows else 0
    parts = [f"{len(rows)}x{width}\n".encode("ascii")]
    for row in rows:
        for value in row:
            tag, text = cell_text(value)
            data = text.encode("utf-8", "surrogatepass")
            parts.append(f"{tag}{len(data)}:".encode("ascii") + data)
        parts.append(b"\n")
    return b"".join(parts)


def values_sha256(rows: Sequence[Sequence[Any]]) -> str:
    """SHA-256 (lower-case hex) of :func:`serialise` of the grid."""
    return bytes_sha256(serialise(rows))


# --------------------------------------------------------------------------- references


def sheet_ref(sheet: str) -> str:
    """A sheet name as a formula names it: quoted when it is not a plain word."""
    if _PLAIN_SHEET.fullmatch(sheet) and not _CELL_LIKE.fullmatch(sheet):
        return sheet
    return "'" + sheet.replace("'", "''") + "'"


def excel_text(text: str) -> str:
    """A text as a formula literal: in double quotes, inner quotes doubled."""
    return '"' + text.replace('"', '""') + '"'


def block(address: str) -> tuple[int, int, int, int] | None:
    """Top row, left column, bottom row and right column (1-based) of one block of cells
    in A1 style (``"A2:C20"``, ``"$D$5"``), or None for anything else: several areas, a
    sheet name, R1C1, or past ``XFD1048576``.

    >>> block("A2:C20"), block("$D$5"), block("A2:C6,E1")
    ((2, 1, 20, 3), (5, 4, 5, 4), None)
    """
    found = _A1_BLOCK.fullmatch(address.strip().upper())
    if found is None:
        return None
    left, top, right, bottom = found.groups()
    first, last = col_index(left), col_index(right or left)
    rows = int(top), int(bottom or top)
    if not (0 < rows[0] <= rows[1] <= SHEET_ROWS and 0 < first <= last <= SHEET_COLUMNS):
        return None
    return rows[0], first, rows[1], last


def _cells_in(corners: tuple[int, int, int, int]) -> int:
    top, left, bottom, right = corners
    return (bottom - top + 1) * (right - left + 1)


# --------------------------------------------------------------------------- a draw


@dataclass(frozen=True)
class Draw:
    """One locked draw: where, what, with which seed, and what it wrote.

    ``output`` is the grid written at ``output_address`` (for ``shuffle`` the input
    range itself); ``time`` is an ISO 8601 UTC time; ``seed`` the canonical seed text.
    """

    mode: LockMode
    sheet: str
    address: str
    book: str
    seed: str
    seed_from: str
    version: str
    time: str
    rows: Rows
    output: Rows
    output_address: str
    k: int | None = None
    hands: int | None = None
    reserves: int | None = None
    tickets: str | None = None
    new_sheets: tuple[str, ...] = ()
    options: str = ""
    #: the formula and command line of a design (teams, orders, allocation), made by
    #: :mod:`xlshuffle.lock.designs`, which knows their arguments
    formula_text: str = ""
    command_text: str = ""

    @property
    def method(self) -> str:
        """How a raffle drew: ``weighted`` (by the tickets column, protocol section 8) or
        ``random`` (a deal, section 5); ``ticket`` for a ticket draw (section 18); empty
        for the other modes."""
        if self.mode == "tickets":
            return "ticket"
        if self.mode not in ("raffle", "prizes"):
            return ""
        return "weighted" if self.tickets else "random"

    @property
    def ids(self) -> str:
        """A ticket draw's range of IDs (``options`` ``ids C2:C9``), else empty."""
        return self.options.removeprefix("ids ") if self.mode == "tickets" else ""

    def formula(self) -> str:
        """The worksheet formula that draws the same result from the input values."""
        if self.formula_text:
            return self.formula_text
        ref = f"{sheet_ref(self.sheet)}!{self.address}"
        seed = excel_text(self.seed)
        if self.mode == "shuffle":
            return f"=SHUFFLE({ref}, {seed})"
        if self.mode == "winners":
            return f"=SAMPLE({ref}, {self.k}, {seed})"
        if self.mode == "groups":
            return f"=GROUPS({ref}, {self.k}, {seed})"
        if self.mode in ("raffle", "tickets"):
            tickets = f"{sheet_ref(self.sheet)}!{self.tickets}" if self.tickets else ""
            head = f"=SAMPLE({ref}, {self.k}, {seed}, {tickets}, {self.reserves or 0}"
            if self.mode == "raffle":
                return head + ")"
            return f'{head}, , {sheet_ref(self.sheet)}!{self.ids}, "ticket")'
        return f"=DEAL({self.k}, {self.hands}, {seed}, {ref})"

    def command_line(self) -> str:
        """The ``xlshuffle`` command that draws the same result from the saved workbook.

        For ``deal`` it deals the positions 1..N of the cards in the selection, read row
        by row (the command line deals numbers, not cells): card ``i`` is cell ``i``.
        """
        if self.command_text:
            return self.command_text
        if self.mode == "deal":
            n = len(self.rows) * len(self.rows[0])
            return (
                f"xlshuffle deal --cards {self.k} --hands {self.hands} --deck {n} "
                f"--seed {shlex.quote(self.seed)}"
            )
        return shlex.join(["xlshuffle", *self.request().argv()])

    def request(self) -> DrawRequest:
        """A shuffle, sample, groups or raffle as the command line draws it from the saved
        workbook (any other mode as groups of ``k``): the selection, a raffle's without a
        header row and its tickets column named by its letter on the sheet."""
        options: Options = GroupsOptions(k=self.k)
        if self.mode == "shuffle":
            options = ShuffleOptions()
        elif self.mode in ("winners", "raffle", "tickets"):
            column = block(self.tickets or "")
            weights = None if column is None else col_letters(column[1])
            ids = block(self.ids)
            raffle = weights is not None or bool(self.reserves) or ids is not None
            draw = DrawOptions(
                k=self.k or 0,
                weights=weights,
                reserves=self.reserves or 0,
                method="ticket" if ids is not None else "random",
                id=None if ids is None else col_letters(ids[1]),
            )
            options = SampleOptions(k=self.k, draw=draw if raffle else None)
        kinds: dict[type, DrawKind] = {ShuffleOptions: "shuffle", SampleOptions: "sample"}
        return DrawRequest(
            kind=kinds.get(type(options), "groups"),
            src=self.book,
            seed=Seed(self.seed),
            options=options,
            region=Region(
                sheet=self.sheet,
                cells=self.address,
                header=False if self.mode in ("raffle", "tickets") else None,
            ),
        )

    def log_row(self) -> list[str]:
        """The ``Draw log`` row, every cell a text, in the order of :data:`LOG_COLUMNS`."""
        return [
            self.time,
            self.sheet,
            self.address,
            self.mode,
            "" if self.k is None else str(self.k),
            "" if self.hands is None else str(self.hands),
            self.output_address,
            self.seed,
            self.seed_from,
            PROTOCOL,
            self.version,
            values_sha256(self.rows),
            values_sha256(self.output),
            self.formula(),
            self.command_line(),
            "",
            "" if self.reserves is None else str(self.reserves),
            self.tickets or "",
            self.method,
            SHEET_SEPARATOR.join(self.new_sheets),
            self.options,
        ]


def log_text(value: Any) -> str:
    """A log cell as text, as it was written.

    A cell Excel turned into a number reads as its digits; the time, which xlwings'
    Office.js reader turns into a ``datetime`` (it reads ISO 8601 texts as dates), reads
    as the ISO 8601 text it was.
    """
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    return cell_text(value)[1]


def log_entry(row: Sequence[Any], where: str, *, most: int) -> dict[str, str]:
    """The fields of a log row that ``restore last draw`` may act on, checked first.

    A log is a sheet anyone can edit: its protocol and mode must be known, and its
    ``range`` and ``output`` one block of at most ``most`` cells (for a shuffle the
    same block), so that a damaged or crafted row is refused before any cell is read.
    """
    entry = {name: log_text(row[i]) if i < len(row) else "" for i, name in enumerate(LOG_COLUMNS)}
    if entry["protocol"] != PROTOCOL or entry["mode"] not in get_args(LockMode):
        raise WorkbookError(
            f"{where} is not a draw xlshuffle can restore "
            f"(mode {entry['mode']!r}, protocol {entry['protocol']!r})"
        )
    blocks = {field: block(entry[field]) for field in ("range", "output")}
    for field, corners in blocks.items():
        if corners is None or _cells_in(corners) > most:
            raise WorkbookError(
                f"{where} is not a draw xlshuffle can restore: its {field} "
                f"{entry[field][:40]!r} is not one block of at most {most:,} cells"
            )
    if (entry["mode"] in NEW_SHEET_MODES) != bool(entry["new sheets"]):
        raise WorkbookError(
            f"{where} is not a draw xlshuffle can restore: its new sheets "
            f"{entry['new sheets'][:40]!r} do not fit its mode {entry['mode']!r}"
        )
    if entry["mode"] == "shuffle" and blocks["output"] != blocks["range"]:
        raise WorkbookError(
            f"{where} is not a draw xlshuffle can restore: a shuffle's output "
            f"{entry['output']!r} must be its range {entry['range']!r}"
        )
    return entry
