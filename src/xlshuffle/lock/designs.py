"""Draw and lock for the designs: balanced teams, per-person orders, allocation lists.

The commands of :mod:`xlshuffle.lock` (which exports them) for protocol sections
13-16. Each reads what it needs, draws through the worksheet function's own code
(``GROUPS`` with ``balance``, ``ORDERS``, ``ALLOCATE``), writes plain values and logs a
row on the ``Draw log`` sheet with the seed, the formula and the command line that draw
the same again. Teams go right of the selection, as *assign groups* writes groups;
orders and allocation lists go on new sheets (``Orders``, ``Allocation`` and
``Allocation codes``, numbered when taken), which *restore last draw* deletes.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from ..common.a1 import col_index, col_letters
from ..draw.errors import OptionError, ShapeError, WorkbookError
from ..functions import arguments, teams
from ..functions.allocate import allocation
from ..functions.orders import orders_rows
from .book import (
    MAX_CELLS,
    a1,
    append,
    beside,
    cells,
    locked_draw,
    log_sheet,
    number,
    seed_of,
    selection,
    write,
)
from .log import Draw, Rows, block, excel_text, log_text, sheet_ref
from .spreadsheet import Book, Range, Sheet

__all__ = ["assign_balanced_teams", "check_added", "write_allocation_list", "write_orders"]

_Q = shlex.quote


def _text(value: Any) -> str:
    """A form field as text ("" for nothing)."""
    return "" if value is None else log_text(value).strip()


def _ref(sheet: Sheet, rng: Range) -> str:
    return f"{sheet_ref(sheet.name)}!{a1(rng)}"


# --------------------------------------------------------------------------- teams


def balance_columns(sheet: Sheet, rng: Range, given: str) -> list[int]:
    """The selected columns (0-based within the selection) that ``given`` names: header
    texts of the row above the selection (case and outer spaces ignored) or the sheet's
    column letters, several separated by commas."""
    left, width = rng.column, rng.shape[1]
    heads: list[str] = []
    if rng.row > 1:
        above = sheet.range(rng.row - 1, left, rng.row - 1, left + width - 1)
        heads = [log_text(v).strip() for v in cells(above)[0]]
    whole = [j for j, h in enumerate(heads) if h.casefold() == given.casefold()]
    parts = [given] if whole else [p.strip() for p in given.split(",")]
    out = []
    for part in parts:
        found = [j for j, h in enumerate(heads) if h.casefold() == part.casefold() and part]
        if len(found) > 1:
            raise OptionError(
                f"balance: {len(found)} selected columns are headed {part!r}: name the "
                "column by its letter instead"
            )
        if found:
            out.append(found[0])
        elif re.fullmatch("[A-Za-z]{1,3}", part) and left <= col_index(part) < left + width:
            out.append(col_index(part) - left)
        else:
            shown = ", ".join(repr(h) for h in heads if h)[:120] or "nothing"
            raise OptionError(
                f"balance: no selected column is headed or lettered {part!r} (the row above "
                f"the selection holds {shown}): name the columns by header or letter, "
                "separated by commas"
            )
    if len(set(out)) < len(out):
        raise OptionError("balance names one column twice: name each column once")
    return out


def assign_balanced_teams(book: Book, k: Any = 2, balance: Any = "") -> Draw:
    """Write a team number 1..k for each selected row in the column right of them,
    balanced by the ``balance`` columns (``=GROUPS`` with ``balance``): header texts of
    the row above the selection or column letters, separated by commas."""
    n = arguments.count("k", number(k))
    given = _text(balance)
    if not given:
        raise OptionError(
            "balance is empty: name the column(s) to balance by (header or letter, such as "
            "Gender), or use assign groups"
        )
    sheet, rng, rows = selection(book)
    cols = balance_columns(sheet, rng, given)
    seed, seed_from = seed_of(book)
    log = log_sheet(book)
    dealt = teams.teams(rows, n, seed, cols, where="the selection", first=rng.row)
    output = [[t] for t in dealt]
    target = beside(sheet, rng, len(output), 1)
    letters = [col_letters(rng.column + c) for c in cols]
    numbers = [str(c + 1) for c in cols]
    arg = numbers[0] if len(cols) == 1 else "{" + ",".join(numbers) + "}"
    options = " ".join(f"--balance {letter}" for letter in letters)
    draw = locked_draw(
        book,
        sheet.name,
        a1(rng),
        seed,
        seed_from,
        mode="teams",
        rows=rows,
        output=output,
        output_address=a1(target),
        k=n,
        options=f"balance {', '.join(letters)}",
        formula_text=f"=GROUPS({_ref(sheet, rng)}, {n}, {excel_text(seed)}, {arg})",
        command_text=f"xlshuffle groups {_Q(book.name)} --sheet {_Q(sheet.name)} --range "
        f"{a1(rng)} --no-header -k {n} {options} --seed {_Q(seed)} -o teams.xlsx",
    )
    write(target, output)
    append(book, log, draw)
    return draw


# --------------------------------------------------------------------------- new sheets


def _new_sheet(book: Book, base: str) -> Sheet:
    """A new sheet after the others, named ``base`` (``base 2``, ... when taken); the
    active sheet stays active."""
    taken = {s.name.casefold() for s in book.sheets}
    name = next(
        f"{base} {i}" if i > 1 else base
        for i in range(1, len(taken) + 2)
        if (f"{base} {i}" if i > 1 else base).casefold() not in taken
    )
    return book.add_sheet(name)


#: The sheets each mode adds, as :func:`_new_sheet` names them.
_ADDED = {"orders": "Orders( [0-9]+)?", "allocation": "Allocation( codes)?( [0-9]+)?"}


def check_added(book: Book, entry: dict[str, str], names: list[str]) -> None:
    """Refuse, before anything is written, to delete a sheet that *restore last draw*
    must not: one the draw could not have added (a log row is editable) or one that now
    holds more than the draw wrote there (its used range is not the written block)."""
    corners = block(entry["output"])
    height, width = (0, 0) if corners is None else (corners[2], corners[3])
    widths = [width, width - 2]  # the list or orders; the codes: Block, BlockSize, Arm -> Code
    present = {s.name for s in book.sheets}
    for i, name in enumerate(names):
        if not re.fullmatch(_ADDED.get(entry["mode"], "(?!)"), name) or i >= len(widths):
            raise WorkbookError(
                f"the {entry['mode']} draw at {entry['time (UTC)']} cannot have added the sheet "
                f"{name[:40]!r} its log row names: nothing was restored"
            )
        if name not in present:
            continue  # deleted already
        used = book.sheet(name).used_range
        if (used.row, used.column, *used.shape) != (1, 1, height, widths[i]):
            raise WorkbookError(
                f"the sheet {name!r} holds more than the draw at {entry['time (UTC)']} wrote "
                f"there (it uses {a1(used)}): nothing was restored; delete it yourself"
            )


def _put(sheet: Sheet, grid: Rows) -> str:
    """Write ``grid`` from A1 of ``sheet``; its address."""
    target = sheet.range(1, 1, len(grid), len(grid[0]))
    write(target, grid)
    return a1(target)


def _ids_range(book: Book, sheet: Sheet, given: str) -> Range:
    """The IDs' cells: a defined name (``IDS``) or an address (``E2:E31``, on the
    selection's sheet, or ``'Sign-up'!A2:A31``)."""
    for name in book.names:
        if name.name.rpartition("!")[2].casefold() == given.casefold():
            found = name.refers_to_range
            if found is not None:
                return found
            break  # a constant or a formula, not cells
    where, _, address = given.rpartition("!")
    where = where.strip("'").replace("''", "'")
    try:
        return (book.sheet(where) if where else sheet).at(address)
    except Exception:
        raise OptionError(
            f"ids: no name or range {given[:60]!r}: define the name IDS for the IDs' cells, "
            "or give their address, such as E2:E31 or 'Sign-up'!A2:A31"
        ) from None


def write_orders(book: Book, ids: Any = "IDS", k: Any = "", balanced: Any = False) -> Draw:
    """Write each person's own order of the selected items (one column or one row) on a
    new sheet ``Orders``: a header row ``ID, 1, 2, ...`` and a row per ID (``=ORDERS``).
    ``ids`` is a defined name or the address of the IDs' cells; ``k`` keeps the first k
    places (empty: all); ``balanced`` TRUE gives counterbalanced orders."""
    sheet, rng, items = selection(book, least_rows=1)
    if len(items) > 1 and len(items[0]) > 1:
        raise ShapeError(
            f"the selection {a1(rng)} has several rows and columns: select the items, "
            "one column or one row"
        )
    where = _ids_range(book, sheet, _text(ids) or "IDS")
    if where.shape[0] * where.shape[1] > MAX_CELLS:
        raise ShapeError(f"ids: {a1(where)} has more than {MAX_CELLS:,} cells: give only the IDs")
    people = cells(where)
    places = None if _text(k) == "" else number(k)
    if isinstance(balanced, str) and balanced.strip().upper() in ("TRUE", "FALSE"):
        balanced = balanced.strip().upper() == "TRUE"  # typed into a form's text box
    flag = arguments.flag("balanced", balanced)
    seed, seed_from = seed_of(book)
    log = log_sheet(book)
    rows = orders_rows(items, people, seed, places, flag)
    m = len(rows[0]) - 1
    grid = [["ID", *range(1, m + 1)], *rows]
    ids_ref = _ref(where.sheet, where)
    new = _new_sheet(book, "Orders")
    output = _put(new, grid)
    count = "" if places is None else str(m)
    draw = locked_draw(
        book,
        sheet.name,
        a1(rng),
        seed,
        seed_from,
        mode="orders",
        rows=items,
        output=grid,
        output_address=output,
        k=None if places is None else m,
        new_sheets=(new.name,),
        options=f"ids {ids_ref}" + (", balanced" if flag else ""),
        formula_text=f"=ORDERS({_ref(sheet, rng)}, {ids_ref}, {excel_text(seed)}, {count}, "
        f"{'TRUE' if flag else 'FALSE'})",
        command_text="xlshuffle orders items.txt --ids ids.txt"
        + (f" -k {m}" if count else "")
        + (" --balanced" if flag else "")
        + f" --seed {_Q(seed)} -o orders.csv",
    )
    append(book, log, draw)
    return draw


def write_allocation_list(
    book: Book,
    arms: Any = "A,B",
    n: Any = 20,
    ratio: Any = "",
    block_sizes: Any = "",
    strata: Any = "",
) -> Draw:
    """Write a permuted-block allocation list on a new sheet ``Allocation`` (Seq, the
    strata, Block, BlockSize, Arm) and its concealment codes on ``Allocation codes``
    (Seq, the strata, Code: no arms, no blocks), as ``=ALLOCATE`` and ``xlshuffle
    allocate ... --codes-only`` do. Texts as ALLOCATE takes them: ``arms`` ``"A,B"``,
    ``ratio`` ``"2:1"``, ``block_sizes`` ``"3,6"``, ``strata``
    ``"site=North,South;sex=F,M"``; empty ones take ALLOCATE's defaults."""
    given = [_text(arms), _text(ratio), _text(block_sizes), _text(strata)]
    count = number(n)
    seed, seed_from = seed_of(book)
    log = log_sheet(book)
    options, rows = allocation(given[0] or None, count, seed, *(g or None for g in given[1:]))
    names = [name for name, _ in options["strata"]]
    grid = [
        ["Seq", *names, "Block", "BlockSize", "Arm"],
        *([r.seq, *r.strata, r.block, r.block_size, r.arm] for r in rows),
    ]
    codes = [["Seq", *names, "Code"], *([r.seq, *r.strata, r.code] for r in rows)]
    listed = _new_sheet(book, "Allocation")
    output = _put(listed, grid)
    concealed = _new_sheet(book, "Allocation codes")
    _put(concealed, codes)
    args = [excel_text(given[0]), str(options["n"]), excel_text(seed)]
    args += [excel_text(g) if g else "" for g in given[1:]]
    while not args[-1]:
        args.pop()
    draw = locked_draw(
        book,
        listed.name,
        output,
        seed,
        seed_from,
        mode="allocation",
        rows=[],
        output=grid,
        output_address=output,
        k=options["n"],
        new_sheets=(listed.name, concealed.name),
        options=_allocate_options(options),
        formula_text=f"=ALLOCATE({', '.join(args)})",
        command_text=f"xlshuffle allocate {_allocate_options(options)} --seed {_Q(seed)} "
        "-o list.csv --codes-only codes.csv",
    )
    append(book, log, draw)
    return draw


def _allocate_options(options: dict[str, Any]) -> str:
    """The options of ``xlshuffle allocate`` that draw this list (without the seed)."""
    words = ["--arms", ",".join(options["arms"]), "--ratio", ":".join(map(str, options["ratio"]))]
    words += ["--n", str(options["n"])]
    words += ["--block-sizes", ",".join(map(str, options["block_sizes"]))]
    for name, values in options["strata"]:
        words += ["--strata", f"{name}={','.join(values)}"]
    return " ".join(_Q(w) for w in words)
