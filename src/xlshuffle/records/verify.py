"""Verify a record: :func:`verify` gives a :class:`Verdict` for every kind of record.

A record is replayed from its seed and checked against the files given: the input it
read, the output it wrote, an exclusion list, an IDs file. A mismatch is a verdict
(``ok`` False, the first difference as its message); a question the record cannot answer
with the files given, or a file that cannot be read, is an exception. The engines' checks
(workbooks, lists, orders, allocations) are imported when a record of theirs is checked.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..common.record import DrawRecord
from ..draw.errors import EntryError, ListError, OptionError, WorkbookError
from .kinds import AllocationRecord, DealRecord, OrdersRecord, Record, RoundRecord, load

__all__ = ["Verdict", "verify"]

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class Verdict:
    """The answer of :func:`verify`: ``ok``, and ``message``, what was checked (one line
    per check) or the first thing that does not hold. True in a boolean context when ok.

    Examples
    --------
    >>> Verdict(False, "position 1: recorded 1, recomputed 3").ok
    False
    """

    ok: bool
    message: str

    def __bool__(self) -> bool:
        return self.ok


def verify(
    record: Record | Sequence[Record] | PathLike,
    *,
    input: PathLike | None = None,
    output: PathLike | None = None,
    exclude: PathLike | None = None,
    ids: PathLike | None = None,
    set_aside: PathLike | None = None,
) -> Verdict:
    """Replay a record and check the files given against it.

    Parameters
    ----------
    record : record, records or path
        A record (:mod:`xlshuffle.records`), the records of one run, or the path of a
        record file (the side files of a committed draw are then looked for beside it).
    input : path, optional
        The file the draw read (the items, for an orders record). Draws by tickets,
        strata, exclusions or audits, balanced teams and orders are drawn again from it,
        so they need it; a plain draw is replayed from its seed alone.
    output : path, optional
        The file the draw wrote (or, for winners printed to stdout, the file they were
        saved in); an allocation record's list.
    exclude : path, optional
        For a draw that excluded IDs: the earlier record or ID list it should have
        excluded (a chain of draws).
    ids : path, optional
        For an orders record: the IDs file.
    set_aside : path, optional
        For a monetary-unit sample: the file of the rows it set aside
        (``--set-aside-output``), checked row by row against the draw made again; needs
        ``input``.

    Returns
    -------
    Verdict
        ``ok`` and a message: one line per check, or the first difference.

    Raises
    ------
    OptionError
        Files that this record's check does not take, or lacks.
    WorkbookError
        A record file that is not a record xlshuffle wrote.
    ListError
        A file given that cannot be read.

    Examples
    --------
    >>> from xlshuffle.records import DrawRecord
    >>> rec = DrawRecord(command="shuffle", seed="42", input="in.xlsx", input_sha256="",
    ...     sheet="Sheet", selection="Sheet!A1:A5", header=True, mode="rows", rows=5,
    ...     columns=1, permutation=[0, 3, 1, 2])
    >>> verify(rec).message
    'ok: shuffle of in.xlsx with seed 42: permutation of 4 replayed'
    >>> verify(DrawRecord.from_dict(rec.to_dict() | {"permutation": [0, 1, 2, 3]}))
    Verdict(ok=False, message="record: seed '42' does not give this permutation: position 1: recorded 1, recomputed 3")
    """  # noqa: E501
    if isinstance(record, str | os.PathLike):
        where: str | None = os.fspath(record)
        records = load(record)
    else:
        where, records = None, _as_list(record)
    files = {
        "input": input,
        "output": output,
        "exclude": exclude,
        "ids": ids,
        "set_aside": set_aside,
    }
    given = {key: None if path is None else os.fspath(path) for key, path in files.items()}
    for option, path in given.items():
        if path is not None and not os.path.isfile(path):
            name = "set-aside-output" if option == "set_aside" else option
            raise ListError(f"--{name} {path}: no such file: give the file the record names")
    try:
        lines = _check(records, where or "record", given)
    except (ListError, WorkbookError, EntryError) as exc:
        return Verdict(False, _named(str(exc), where))
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        # what the record's checks miss (a field of the right type but an impossible
        # value, deep in a draw's options) surfaces as the error the replay meets
        what = f"no field {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
        raise WorkbookError(
            f"{where or 'record'}: not a draw record xlshuffle wrote (edited or damaged: "
            f"{what}): give the record file xlshuffle wrote"
        ) from None
    return Verdict(True, "\n".join(lines))


def _named(text: str, where: str | None) -> str:
    """A check's message with the record file named instead of ``record``."""
    return (
        f"{where}: {text.removeprefix('record: ')}"
        if where and text.startswith("record: ")
        else text
    )


def _as_list(record: Record | Sequence[Record]) -> list[Record]:
    if isinstance(record, DrawRecord | OrdersRecord | AllocationRecord | DealRecord | RoundRecord):
        return [record]
    return list(record)


def _check(records: list[Record], where: str, given: dict[str, str | None]) -> list[str]:
    first = records[0]
    if given["ids"] is not None and not isinstance(first, OrdersRecord):
        raise OptionError(f"{where}: --ids checks an orders record; this is another draw")
    if given["set_aside"] is not None and not isinstance(first, DrawRecord):
        raise OptionError(
            f"{where}: --set-aside-output checks a monetary-unit sample; this is another draw"
        )
    if isinstance(first, OrdersRecord):
        return [_orders(first, where, given)]
    if isinstance(first, AllocationRecord):
        return [_allocation(first, where, given)]
    if isinstance(first, DealRecord):
        return [_deal(first, where, given)]
    if isinstance(first, RoundRecord):
        return [_round(where, given)]
    draws = [r for r in records if isinstance(r, DrawRecord)]
    if len(draws) != len(records):
        raise WorkbookError(f"{where}: holds records of several kinds: verify one at a time")
    return _draws(draws, where, given)


# --------------------------------------------------------------------------- draws


def _draws(records: list[DrawRecord], where: str, given: dict[str, str | None]) -> list[str]:
    """A draw record file of ``shuffle``, ``sample``, ``groups`` or ``restore``."""
    rec0, lines = records[0], []
    kind = rec0.target.get("kind")
    if rec0.target and kind not in ("list", "sheet", "range", "table", "columns"):
        raise WorkbookError(
            f"{where}: target.kind {kind!r} is not one xlshuffle writes (list, sheet, range, "
            "table or columns): give the record file xlshuffle wrote"
        )
    if rec0.commitment is not None:  # a committed draw: the chain first, then the draw
        lines.append(_committed(rec0, where, given))
    if rec0.target.get("balance") is not None:
        return [*lines, _teams(records, where, given)]
    if rec0.target.get("draw") is not None:
        return [*lines, _drawn_again(records, where, given)]
    if given["set_aside"] is not None:
        raise OptionError(
            f"{where}: --set-aside-output checks a monetary-unit sample's rows set aside; "
            "this record's draw set none aside"
        )
    if given["exclude"] is not None:
        raise OptionError(
            f"{where}: --exclude checks a draw made with sample --exclude; this record's "
            "draw excluded nothing"
        )
    _plain(records, where, given)
    checked = [label for label in ("input", "output") if given[label] is not None]
    extra = f"; {' and '.join(checked)} checked" if checked else ""
    return lines + [
        f"ok: {rec.command} of {rec.input} with seed {rec.seed}: permutation of "
        f"{len(rec.permutation)} replayed{extra}"
        for rec in records
    ]


def _plain(records: list[DrawRecord], where: str, given: dict[str, str | None]) -> None:
    rec0, src, out = records[0], given["input"], given["output"]
    is_list = rec0.target.get("kind") == "list"
    if (
        len(records) == 1
        and is_list
        and out is not None
        and src is not None
        and rec0.command == "sample"
        and rec0.output is None
        and rec0.output_sha256 is None
    ):  # winners printed from a CSV/TSV list and saved: the lists layer reads them
        from ..lists.winners import verify_winners

        _replay(rec0, src, None)
        verify_winners(rec0.to_dict(), src, out)
        return
    if len(records) != 1 and (src is not None or out is not None):
        raise OptionError(
            f"{where} holds {len(records)} draws: check them without --input/--output (each "
            "against its recorded files)"
        )
    for rec in records:
        _replay(rec, src, out)


def _replay(rec: DrawRecord, src: str | None, out: str | None) -> None:
    """The seed's permutation and the files, by the workbook engine's check."""
    from ..workbook import verify_record

    verify_record(rec, input=src, output=out)


def _drawn_again(records: list[DrawRecord], where: str, given: dict[str, str | None]) -> str:
    """A draw by tickets, strata, exclusions or an audit: drawn again from its input."""
    from ..filedraw.sidefiles import read_excluded

    rec, src, out = records[0], given["input"], given["output"]
    if len(records) != 1 or src is None:
        raise OptionError(
            f"{where}: a draw by tickets, strata, exclusions or an audit is replayed from its "
            "input: give --input IN (and --output OUT to check the rows written), one record "
            "at a time"
        )
    exclude = given["exclude"]
    id_column = (rec.target["draw"].get("id") or {}).get("column")
    excluded = None if exclude is None else read_excluded(exclude, id_column)
    aside = given["set_aside"]
    if aside is not None and rec.target["draw"].get("method") not in _MONETARY:
        raise OptionError(
            f"{where}: --set-aside-output checks a monetary-unit sample's rows set aside; "
            f"this record's draw is {rec.target['draw'].get('method')}"
        )
    if rec.target.get("engine") == "duckdb":  # replayed by the engine that drew it
        from ..sql.engine import verify_sample_file

        verify_sample_file(rec.to_dict(), src, out, excluded=excluded)
    elif rec.target.get("kind") == "list":
        from ..lists.raffle import verify_draw_csv

        verify_draw_csv(rec.to_dict(), src, out, excluded=excluded, set_aside=aside)
    else:
        from ..workbook import verify_draw_workbook

        verify_draw_workbook(rec, src, out, excluded=excluded, set_aside=aside)
    files = ["input", *(["output"] if out is not None else [])]
    files += [] if aside is None else ["the rows set aside"]
    checked = ", ".join(files[:-1]) + " and " + files[-1] if len(files) > 1 else files[0]
    chain = "" if excluded is None else f"; exactly the IDs of {exclude} excluded"
    return (
        f"ok: sample of {rec.input} with seed {rec.seed}: {len(rec.permutation)} rows "
        f"({rec.target['draw']['method']}) drawn again; {checked} checked{chain}"
    )


#: The methods of a monetary-unit sample, as a record names them.
_MONETARY = ("monetary-unit", "monetary-unit-cell")


def _teams(records: list[DrawRecord], where: str, given: dict[str, str | None]) -> str:
    """Balanced teams read their balancing columns from the input: drawn again."""
    rec, src, out = records[0], given["input"], given["output"]
    if len(records) != 1 or src is None:
        raise OptionError(
            f"{where}: balanced teams are drawn again from their input: give --input IN (and "
            "--output OUT to check the teams written), one record at a time"
        )
    if rec.target.get("kind") == "list":
        from ..lists.teams import verify_balanced_csv

        verify_balanced_csv(rec.to_dict(), src, out)
    else:
        from ..workbook import verify_record

        verify_record(rec, input=src, output=out)
    checked = "input and output" if out is not None else "input"
    spec = rec.target["balance"]
    columns = ", ".join(c["column"] for c in spec["columns"])
    how = [f"balanced by {columns}"] if columns else []
    if spec.get("avoid"):
        how.append(f"avoiding {spec['avoid']['file']}")
    return (
        f"ok: groups of {rec.input} with seed {rec.seed}: {rec.k} teams {' and '.join(how)} "
        f"drawn again; {checked} checked"
    )


def _committed(rec: DrawRecord, where: str, given: dict[str, str | None]) -> str:
    """The chain of a committed draw: hash, seed and pins; with the input, the list and
    the committed draw on it (its side files found beside the record file)."""
    from ..filedraw import commitment
    from ..filedraw.pins import missing_side_files

    line = commitment.check_record(rec, None)
    src = given["input"]
    if src is None:
        return line
    held = rec.commitment or {}
    made = commitment.Commitment(held["body"], str(held["sha256"]))
    paths = {} if given["exclude"] is None else {"--exclude": str(given["exclude"])}
    missing = missing_side_files(made.body, where, paths)
    if missing:  # what the record states of them is checked; the draw is replayed below
        commitment.check_rows(src, rec.to_dict(), made, held.get("salt"))
        return (
            f"{line.removesuffix('; give --input IN to check the list too')}; {src} is the "
            f"committed list; the committed draw was not run again: it reads "
            f"{', '.join(missing)}, which is not beside {where}: put it there to check the "
            "rows it left out"
        )
    request = commitment.committed_request(made, where, src, paths)
    if rec.target.get("engine") == "duckdb":  # drawn again by the engine that drew it
        request = request.replace(engine="duckdb")
    return commitment.check_record(rec, request)


# --------------------------------------------------------------------------- other kinds


def _orders(rec: OrdersRecord, where: str, given: dict[str, str | None]) -> str:
    """An orders record, drawn again from the items and the IDs."""
    from ..filedraw.inputs import is_workbook, table_reader
    from ..lists.orders import verify_orders_csv

    src, ids, out = given["input"], given["ids"], given["output"]
    if src is None or ids is None:
        raise OptionError(
            f"{where}: an orders record is replayed from its inputs: give --input ITEMS and "
            "--ids IDS (and --output OUT.csv to check the table)"
        )
    data = rec.to_dict()
    readers = (
        table_reader(src, data.get("items_range"), "items_range"),
        table_reader(ids, data.get("ids_range"), "ids_range"),
    )
    read_saved = None
    if out is not None and is_workbook(out):
        from ..workbook.plaintables import read_table

        read_saved = read_table
    verify_orders_csv(data, src, ids, out, readers=readers, read_saved=read_saved)
    checked = "inputs and output" if out is not None else "inputs"
    return (
        f"ok: orders of {data['items']} for {data['people']} people with seed {data['seed']} "
        f"drawn again; {checked} checked"
    )


def _allocation(rec: AllocationRecord, where: str, given: dict[str, str | None]) -> str:
    """An allocation record, replayed and checked against its list."""
    from ..lists import allocation as files

    out = given["output"]
    if given["input"] is not None or given["exclude"] is not None:
        raise OptionError(f"{where}: an allocation list has no input: give only --output OUT.csv")
    if out is None:
        raise OptionError(
            f"{where}: give --output OUT.csv: the list, its codes-only list or its REDCap "
            "table, to check against the record"
        )
    data = rec.to_dict()
    if out.lower().endswith(".xlsx"):
        from ..common.digest import file_sha256
        from ..workbook.plaintables import read_table

        got, sha = read_table(out), file_sha256(out)
        count = files.verify_allocation_table(data, out, got, sha, where)
    else:
        count = files.verify_allocation(data, out, where)
    return f"ok: allocate with seed {data['seed']}: {count} rows replayed; {out} checked"


def _deal(rec: DealRecord, where: str, given: dict[str, str | None]) -> str:
    """A deal, dealt again from its seed."""
    from ..draw.cards import deal_hands
    from ..draw.protocol import PROTOCOL

    if any(path is not None for path in given.values()):
        raise OptionError(f"{where}: a deal is replayed from its seed alone: give no files")
    if rec.protocol != PROTOCOL:
        raise WorkbookError(f"{where}: protocol {rec.protocol!r} is not {PROTOCOL!r}")
    cards = len(rec.hands[0]) if rec.hands else 0
    again: list[list[Any]] = deal_hands(
        cards, len(rec.hands), seed=rec.seed, deck=rec.deck, jokers=rec.jokers, decks=rec.decks
    )
    for h, (want, got) in enumerate(zip(again, rec.hands, strict=True), 1):
        if [str(c) for c in want] != [str(c) for c in got]:
            raise ListError(
                f"{where}: seed {rec.seed!r} does not deal these hands: hand {h} is "
                f"{' '.join(map(str, got))}, the seed deals {' '.join(map(str, want))}"
            )
    return f"ok: deal with seed {rec.seed}: {len(rec.hands)} hands of {cards} dealt again"


def _round(where: str, given: dict[str, str | None]) -> str:
    """A round (``redraw``): its chain of records back to the draw, drawn again."""
    from ..filedraw.rounds import verify_round

    if where == "record" or given["input"] is None:
        raise OptionError(
            "a round is checked from its record file (the records before it lie beside it) "
            "and the draw's input: give the record's path and --input IN"
        )
    return verify_round(where, given["input"], given["output"])
