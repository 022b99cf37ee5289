"""Draw and lock with a prize table (protocol section 9): the table on a sheet of its own,
the selected entrants, one draw of every winner and reserve.

:func:`draw_prizes` reads the table from the sheet it names (``prize, count[, reserves]``
a row, in the order the prizes are drawn; a header row allowed first, as ``sample
--prizes`` reads a file), draws the selected rows by their tickets, and writes each drawn
row right of the selection followed by its ``Prize``, ``Place`` and ``Role``, as ``sample
--prizes`` writes them. The log row's command line is ``sample --prizes SHEET.csv`` on the
saved workbook: the table's sheet saved as CSV beside it draws the same rows, and the
record it writes (``--record``) is checked by ``xlshuffle verify``. Its formula is
``=SAMPLE`` with the same tickets and reserves: the same rows in the same order, with Role
and Rank instead of the prizes.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

from ..common.a1 import col_letters
from ..draw.errors import OptionError
from ..functions import raffle
from ..tabledraw.raffle_options import DrawOptions, Prize
from .book import (
    a1,
    append,
    beside,
    cells,
    locked_draw,
    log_sheet,
    seed_of,
    selection,
    ticket_column,
    write,
)
from .log import Draw, excel_text, log_text, sheet_ref
from .spreadsheet import Book

__all__ = ["draw_prizes", "prize_table"]


def _whole(value: Any) -> int | None:
    """A count cell as a whole number (a number, or digits typed as text), else None."""
    text = log_text(value).strip().replace("_", "")
    return int(text) if text.isdigit() else None


def prize_table(rows: Sequence[Sequence[Any]], where: str) -> tuple[Prize, ...]:
    """The prize table in ``rows`` (a sheet's cells): ``prize, count[, reserves]`` a row, a
    header row allowed first, empty rows skipped; refused, naming the row of ``where``."""
    out: list[Prize] = []
    first = True
    for number, row in enumerate(rows, 1):
        texts = [log_text(v).strip() for v in row]
        while texts and texts[-1] == "":
            texts.pop()
        if not texts:
            continue
        counts = [_whole(v) for v in row[1 : len(texts)]]
        fits = len(texts) in (2, 3) and bool(texts[0])
        if fits and all(c is not None for c in counts) and (counts[0] or 0) >= 1:
            out.append(Prize(texts[0], counts[0] or 0, counts[1] or 0 if len(counts) > 1 else 0))
        elif not (first and fits and counts[0] is None and not _numberish(texts[1])):
            raise OptionError(
                f"prizes: row {number} of {where} is not 'prize, count' or 'prize, count, "
                "reserves' (a count 1 or more, reserves 0 or more): one prize a row, in the "
                "order they are drawn"
            )
        first = False
    if not out:
        raise OptionError(f"prizes: {where} lists no prize: one 'prize, count[, reserves]' a row")
    return tuple(out)


def _numberish(text: str) -> bool:
    return bool(text) and text.lstrip("+-").replace(".", "").replace(",", "").isdigit()


def _table_of(book: Book, name: str) -> tuple[str, tuple[Prize, ...]]:
    wanted = name.strip()
    sheet = next((s for s in book.sheets if s.name.casefold() == wanted.casefold()), None)
    if sheet is None:
        raise OptionError(
            f"prizes: no sheet is named {wanted!r}: put the prize table (prize, count, "
            "reserves a row) on a sheet and give its name"
        )
    used = sheet.used_range
    return sheet.name, prize_table(cells(used), f"the sheet {sheet.name!r}")


def draw_prizes(
    book: Book, prizes: Any = "Prizes", tickets: Any = "Tickets", ids: Any = ""
) -> Draw:
    """Draw every winner and reserve of the prize table on the sheet ``prizes`` from the
    selected rows by their ``tickets`` column (empty: one ticket each), and write each drawn
    row right of them with its Prize, Place and Role; ``ids`` names the ID column (its
    header in the row above, or its letter; empty: the selection's first column)."""
    table_sheet, table = _table_of(book, "" if prizes is None else str(prizes))
    sheet, rng, rows = selection(book)
    column = ticket_column(sheet, rng, "" if tickets is None else str(tickets))
    given_ids = "" if ids is None else str(ids)
    # a named column is never None (only an empty name is); columns count from 1
    id_column = ticket_column(sheet, rng, given_ids, "ids") or rng.column
    k, reserves = sum(p.count for p in table), sum(p.reserves for p in table)
    DrawOptions(k=k, reserves=reserves, prizes=table).check()
    seed, seed_from = seed_of(book)
    log = log_sheet(book)
    columns: dict[str, list[object]] = {"id": [row[id_column - rng.column] for row in rows]}
    if column is not None:
        columns["weights"] = [row[column - rng.column] for row in rows]

    def at(key: str, i: int) -> str:
        letter = col_letters(column if key == "weights" and column else id_column)
        return f"the {'tickets' if key == 'weights' else 'ID'} cell {letter}{rng.row + i}"

    output = raffle.draw(
        rows,
        k,
        seed,
        reserves=reserves,
        columns=columns,
        where="the selection",
        at=at,
        prizes=table,
    )
    target = beside(sheet, rng, len(output), len(output[0]))
    letter = None if column is None else col_letters(column)
    tickets_at = None if letter is None else f"{letter}{rng.row}:{letter}{rng.row + len(rows) - 1}"
    ref = f"{sheet_ref(sheet.name)}!{a1(rng)}"
    weights = f"{sheet_ref(sheet.name)}!{tickets_at}" if tickets_at else ""
    argv = ["xlshuffle", "sample", book.name, "--sheet", sheet.name, "--range", a1(rng)]
    argv += ["--no-header", "--prizes", f"{table_sheet}.csv"]
    argv += ["--weights", letter] if letter else []
    argv += ["--id", col_letters(id_column), "--seed", seed]
    text = "; ".join(f"{p.name}, {p.count}, {p.reserves}" for p in table)
    draw = locked_draw(
        book,
        sheet.name,
        a1(rng),
        seed,
        seed_from,
        mode="prizes",
        rows=rows,
        output=output,
        output_address=a1(target),
        k=k,
        reserves=reserves,
        tickets=tickets_at,
        options=f"prizes from the sheet {table_sheet}: {text}",
        formula_text=f"=SAMPLE({ref}, {k}, {excel_text(seed)}, {weights}, {reserves})",
        command_text=shlex.join(argv),
    )
    write(target, output)
    append(book, log, draw)
    return draw
