"""Per-person orders as a CSV table: ``orders_csv`` writes it, ``verify_orders_csv`` checks it.

The items and the people's IDs each come from a file: a CSV/TSV list (``.csv``, ``.tsv``,
``.tab``: a header row, then one value a row in the column asked for, the first by
default), or any other file read as plain UTF-8 text, one value a line. Values are taken
as read, without the white space around them; blank lines at the end are left out, and a
blank value before them is refused, naming its line.

The table (UTF-8 with a byte order mark, so Excel reads accents right; comma-separated,
tab-separated for a ``.tsv`` or ``.tab`` name, ``\\r\\n`` line endings) has the header
``ID, 1, 2, ... m`` (the positions) and one row a person, in the IDs' order: the ID, then
the items in that person's order (section 13 of docs/draw-protocol.md; section 14 with
``balanced``). The record keeps the seed, both
inputs' SHA-256 and what was asked, from which ``verify_orders_csv`` draws again.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import os
from collections.abc import Callable
from typing import Any

from ..common.a1 import col_letters
from ..common.digest import bytes_sha256
from ..common.files import write_atomically
from ..draw.errors import EntryError, ListError, OptionError, SizeError
from ..draw.orders import balanced_orders, person_orders
from ..draw.protocol import PROTOCOL, as_stream, normalise_seed
from ..tabledraw.entrants import find_column
from ..tabledraw.winners import delimiter_for, first_difference, read_saved_table
from .api import is_list
from .lines import DEFAULT_MAX_MB, read_limited
from .table import sniff_delimiter

__all__ = ["orders_csv", "orders_table", "read_values", "verify_orders_csv"]

PathLike = str | os.PathLike[str]

#: Reads a file's values: ``read(path, column, option)`` -> ``(values, sha256)``; the
#: command line passes one that reads workbooks (:func:`xlshuffle.workbook.range_values`).
_BOOKS = (".xlsx", ".xlsm", ".xltx", ".xltm")

Reader = Callable[[PathLike, str | None, str], tuple[list[str], str]]


def _column(path: str, header: list[str], given: str | None, option: str) -> int:
    """The 0-based column ``given`` names by its header text or its letters (default A)."""
    if given is None:
        return 0
    letters = [col_letters(j + 1) for j in range(max(len(header), 1))]
    return find_column(path, header, letters, given, option)


def read_values(
    path: PathLike,
    *,
    column: str | None = None,
    option: str = "--column",
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
) -> tuple[list[str], str]:
    """The values of a CSV/TSV column (below its header) or of a text file's lines.

    Returns the values and the SHA-256 of the file's bytes. Raises ListError for a file
    that is not UTF-8 text, holds no value, or holds a blank one before the last, and
    OptionError for a column that is not there (or a column asked of a text file).
    """
    name = os.fspath(path)
    with open(name, "rb") as fh:
        data = bytes(read_limited(fh, max_bytes, name))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ListError(f"{name}: not UTF-8 text: save it as 'CSV UTF-8' or UTF-8 text") from None
    if is_list(name):
        delimiter = sniff_delimiter(name, data.split(b"\n", 1)[0])
        try:
            rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
        except csv.Error as exc:
            raise ListError(f"{name}: not a readable CSV/TSV list ({exc})") from None
        if not rows:
            raise ListError(f"{name}: the list is empty: it needs a header row and a row a value")
        j = _column(name, rows[0], column, option)
        values = [row[j] if j < len(row) else "" for row in rows[1:]]
        first_line = 2
    else:
        if column is not None:
            raise OptionError(f"{name}: {option} is for CSV/TSV lists; a text file has one value")
        values, first_line = text.splitlines(), 1
    values = [v.strip() for v in values]
    while values and not values[-1]:
        values.pop()
    if not values:
        raise ListError(f"{name}: no values in it: give one a line (below the header, for a list)")
    if "" in values:
        line = values.index("") + first_line
        raise ListError(f"{name}: line {line} is blank: fill it in or delete the line")
    return values, bytes_sha256(data)


def orders_table(
    items: list[str],
    ids: list[str],
    *,
    seed: object,
    k: int | None = None,
    balanced: bool = False,
) -> list[list[str]]:
    """The header ``ID, 1, ... m`` and one row a person: the ID, then the items in order.

    Examples
    --------
    >>> orders_table(["A", "B", "C", "D"], ["Ann", "Bo"], seed="class 4B", k=2)
    [['ID', '1', '2'], ['Ann', 'C', 'A'], ['Bo', 'D', 'C']]
    """
    draw = balanced_orders if balanced else person_orders
    orders = draw(items, ids, seed=seed, k=k)
    m = len(items) if k is None else k
    return [
        ["ID", *map(str, range(1, m + 1))],
        *([i, *o] for i, o in zip(ids, orders, strict=True)),
    ]


def _render(table: list[list[str]], delimiter: str) -> bytes:
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\r\n", delimiter=delimiter).writerows(table)
    return b"\xef\xbb\xbf" + out.getvalue().encode("utf-8", "surrogateescape")


def _read_inputs(
    items_path: PathLike,
    ids_path: PathLike,
    items_column: str | None,
    ids_column: str | None,
    max_bytes: int,
    readers: tuple[Reader | None, Reader | None] = (None, None),
) -> tuple[list[str], str, list[str], str]:
    def plain(path: PathLike, column: str | None, option: str) -> tuple[list[str], str]:
        return read_values(path, column=column, option=option, max_bytes=max_bytes)

    read_items, read_ids = (r or plain for r in readers)
    items, items_sha = read_items(items_path, items_column, "--items-column")
    ids, ids_sha = read_ids(ids_path, ids_column, "--ids-column")
    return items, items_sha, ids, ids_sha


def _table(ids_path: PathLike, ids: list[str], **options: Any) -> list[list[str]]:
    """:func:`orders_table`, a repeated ID named by its file and lines."""
    first = 2 if is_list(ids_path) or os.fspath(ids_path).lower().endswith(_BOOKS) else 1
    seen: dict[bytes, int] = {}
    for i, pid in enumerate(ids):  # blank IDs were refused by read_values
        j = seen.setdefault(normalise_seed(pid), i)
        if j != i:
            raise ListError(
                f"{os.fspath(ids_path)}: line {i + first}: the ID {pid!r} is also on line "
                f"{j + first}: give each person one ID"
            )
    try:
        return orders_table(ids=ids, **options)
    except EntryError as exc:
        line = exc.index + first
        raise ListError(f"{os.fspath(ids_path)}: line {line}: {exc.reason}") from None


def orders_csv(
    items_path: PathLike,
    ids_path: PathLike,
    dst: PathLike,
    *,
    seed: object = None,
    k: int | None = None,
    balanced: bool = False,
    items_column: str | None = None,
    ids_column: str | None = None,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
    readers: tuple[Reader | None, Reader | None] = (None, None),
    render: Callable[[list[list[str]]], bytes] | None = None,
) -> dict[str, Any]:
    """Write each person's order of the items to ``dst`` and return the draw record.

    ``readers`` read the items and the IDs (None: :func:`read_values`) and ``render``
    turns the table into the file's bytes (None: the CSV described above); the command
    line passes workbook ones for ``.xlsx`` files.

    Raises
    ------
    SizeError
        If ``k`` is more than the number of items.
    ListError
        For an input that cannot be read, or a blank or repeated ID (naming its line).
    """
    stream = as_stream(seed)
    items, items_sha, ids, ids_sha = _read_inputs(
        items_path, ids_path, items_column, ids_column, max_bytes, readers
    )
    if k is not None and k > len(items):
        raise SizeError(
            f"-k {k}: {os.fspath(items_path)} holds {len(items)} items: "
            f"give -k at most {len(items)}"
        )
    table = _table(ids_path, ids, items=items, seed=stream, k=k, balanced=balanced)
    data = render(table) if render is not None else _render(table, delimiter_for(dst))
    write_atomically(os.fspath(dst), data)
    now = _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    return {
        "protocol": PROTOCOL,
        "tool": "xlshuffle",
        "record_version": 2,
        "command": "orders",
        "seed": stream.seed_text,
        "items": os.fspath(items_path),
        "items_sha256": items_sha,
        "items_column": items_column,
        "ids": os.fspath(ids_path),
        "ids_sha256": ids_sha,
        "ids_column": ids_column,
        "n": len(items),
        "people": len(ids),
        "k": k,
        "balanced": balanced,
        "output": os.fspath(dst),
        "output_sha256": bytes_sha256(data),
        "tool_version": "",  # the command line fills it in (this layer cannot know it)
        "time_utc": now,
    }


def verify_orders_csv(
    record: dict[str, Any],
    items_path: PathLike,
    ids_path: PathLike,
    saved: PathLike | None = None,
    *,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
    readers: tuple[Reader | None, Reader | None] = (None, None),
    read_saved: Callable[[PathLike], list[tuple[int, list[str]]]] | None = None,
) -> None:
    """Draw the orders of ``record`` again from the inputs and check ``saved`` row by row.

    Raises ListError at the first difference: an input that is not the recorded one
    (SHA-256), or the first row of ``saved`` that is not the one drawn again.
    """
    items, items_sha, ids, ids_sha = _read_inputs(
        items_path,
        ids_path,
        record.get("items_column"),
        record.get("ids_column"),
        max_bytes,
        readers,
    )
    for path, got, key in (
        (items_path, items_sha, "items_sha256"),
        (ids_path, ids_sha, "ids_sha256"),
    ):
        if got != record.get(key):
            raise ListError(f"{os.fspath(path)}: not the recorded input ({key} differs)")
    table = _table(
        ids_path,
        ids,
        items=items,
        seed=str(record["seed"]),
        k=record.get("k"),
        balanced=bool(record.get("balanced")),
    )
    if saved is None:
        return
    want = [("the header row", table[0])]
    want += [(f"the row of ID {row[0]!r}", row) for row in table[1:]]
    delimiter = delimiter_for(saved)
    rows = read_saved(saved) if read_saved else read_saved_table(saved, delimiter)
    diff = first_difference(rows, want, delimiter)
    if diff is not None:
        raise ListError(f"{os.fspath(saved)}: not the orders of this record: {diff}")
