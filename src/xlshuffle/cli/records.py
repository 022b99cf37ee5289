"""The subcommands that work from a draw record: ``verify`` and ``restore``."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..draw.errors import WorkbookError, XlshuffleError
from .options import limits_of

__all__ = ["cmd_restore", "cmd_verify"]


@contextmanager
def _blamed_on(record: str) -> Iterator[None]:
    """A record that the replay cannot use is the record's fault, not the command line's:
    exit 1 (never 2, never a traceback), with one line naming the record file.

    The record's fields are checked as they are read; what the checks miss (an edited
    field of the right type but an impossible value, deep in the draw's options) surfaces
    here as the error the replay meets."""
    try:
        yield
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        what = f"no field {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
        raise WorkbookError(
            f"{record}: not a draw record xlshuffle wrote (edited or damaged: {what}): give "
            "the record file xlshuffle wrote"
        ) from None
    except XlshuffleError as exc:
        text = str(exc)
        if not text.startswith("record: "):
            raise
        raise type(exc)(f"{record}: {text.removeprefix('record: ')}") from None


def cmd_verify(args: argparse.Namespace) -> int:
    with _blamed_on(args.record):
        return _verify(args)


def _verify(args: argparse.Namespace) -> int:
    from . import UsageError
    from .orders import orders_record, verify_orders

    orders = orders_record(args.record)
    if orders is not None:
        return verify_orders(args, orders)
    from ..workbook import load_records

    try:
        records = load_records(args.record)
    except WorkbookError:
        from ..lists.allocation import read_allocation_record

        allocation = read_allocation_record(args.record)
        if allocation is None:
            raise
        from .allocate import verify

        return verify(args, allocation)
    if args.ids is not None:
        raise UsageError(f"{args.record}: --ids checks an orders record; this is another draw")
    return _verify_records(args, records)


def _verify_records(args: argparse.Namespace, records: list[Any]) -> int:
    """A draw record file of ``shuffle``, ``sample`` or ``groups``: its kind's check."""
    from ..workbook import verify_record
    from . import UsageError

    rec0 = records[0]
    kind = rec0.target.get("kind")
    if kind not in ("list", "sheet", "range", "table", "columns"):
        raise WorkbookError(
            f"{args.record}: target.kind {kind!r} is not one xlshuffle writes (list, sheet, "
            "range, table or columns): give the record file xlshuffle wrote"
        )
    if rec0.commitment is not None:  # a committed draw: the chain first, then the draw
        from .chain import check_commitment

        print(check_commitment(rec0, args.input))
    if rec0.target.get("balance") is not None:
        return _verify_teams(args, records)
    if rec0.target.get("draw") is not None:
        return _verify_draw(args, records)
    if args.exclude is not None:
        raise UsageError(
            f"{args.record}: --exclude checks a draw made with sample --exclude; this "
            "record's draw excluded nothing"
        )
    if (
        len(records) == 1
        and rec0.target.get("kind") == "list"
        and args.output is not None
        and args.input is not None
        and rec0.command == "sample"
        and rec0.output is None
        and rec0.output_sha256 is None
    ):
        # winners printed from a CSV/TSV list and saved: the lists layer reads them
        from ..lists.winners import verify_winners

        verify_record(rec0, input=args.input)
        verify_winners(rec0.to_dict(), args.input, args.output)
    else:
        verify_record(args.record, input=args.input, output=args.output)
    for rec in records:
        checked = [
            label
            for label, given in (("input", args.input), ("output", args.output))
            if given is not None
        ]
        extra = f"; {' and '.join(checked)} checked" if checked else ""
        print(
            f"ok: {rec.command} of {rec.input} with seed {rec.seed}: permutation of "
            f"{len(rec.permutation)} replayed{extra}"
        )
    return 0


def _verify_draw(args: argparse.Namespace, records: list[Any]) -> int:
    """A draw of issue 20 reads its weights, IDs and strata from the input: replay it."""
    from ..lists.raffle import verify_draw_csv
    from ..workbook import verify_draw_workbook
    from . import UsageError
    from .draws import read_excluded

    rec = records[0]
    if len(records) != 1 or args.input is None:
        raise UsageError(
            f"{args.record}: a draw by tickets, strata, exclusions or an audit is replayed "
            "from its input: give --input IN (and --output OUT to check the rows written), "
            "one record at a time"
        )
    excluded = None if args.exclude is None else read_excluded(args.exclude)
    if rec.target.get("kind") == "list":
        verify_draw_csv(rec.to_dict(), args.input, args.output, excluded=excluded)
    else:
        verify_draw_workbook(rec, args.input, args.output, excluded=excluded)
    checked = "input and output" if args.output is not None else "input"
    chain = "" if excluded is None else f"; exactly the IDs of {args.exclude} excluded"
    print(
        f"ok: sample of {rec.input} with seed {rec.seed}: {len(rec.permutation)} rows "
        f"({rec.target['draw']['method']}) drawn again; {checked} checked{chain}"
    )
    return 0


def _verify_teams(args: argparse.Namespace, records: list[Any]) -> int:
    """Balanced teams read their balancing columns from the input: draw them again."""
    from ..lists.teams import verify_balanced_csv
    from . import UsageError

    rec = records[0]
    if len(records) != 1 or args.input is None:
        raise UsageError(
            f"{args.record}: balanced teams are drawn again from their input: give "
            "--input IN (and --output OUT to check the teams written), one record at a time"
        )
    if rec.target.get("kind") == "list":
        verify_balanced_csv(rec.to_dict(), args.input, args.output)
    else:
        from ..workbook import verify_record

        verify_record(rec, input=args.input, output=args.output)
    checked = "input and output" if args.output is not None else "input"
    spec = rec.target["balance"]
    columns = ", ".join(c["column"] for c in spec["columns"])
    how = [f"balanced by {columns}"] if columns else []
    if spec.get("avoid"):
        how.append(f"avoiding {spec['avoid']['file']}")
    print(
        f"ok: groups of {rec.input} with seed {rec.seed}: {rec.k} teams {' and '.join(how)} "
        f"drawn again; {checked} checked"
    )
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from .. import workbook
    from . import UsageError

    if args.no_backup and not args.in_place:
        raise UsageError("--no-backup only makes sense with --in-place")
    if args.record_out is not None:
        import os

        from ..common.targets import check_writable

        taken = [p for p in (args.record, args.shuffled, args.output) if p is not None]
        if any(os.path.abspath(p) == os.path.abspath(args.record_out) for p in taken):
            raise UsageError(
                f"--record {args.record_out} names a file this restore reads or writes: "
                "give the restore's record a name of its own"
            )
        check_writable(args.record_out)
    from ..lists import is_list

    if is_list(args.shuffled):
        with _blamed_on(args.record):
            return _restore_list(args)
    with workbook.raised(**limits_of(args)), _blamed_on(args.record):
        rec = workbook.restore_workbook(
            args.record,
            args.shuffled,
            args.output,
            in_place=args.in_place,
            backup=not args.no_backup,
            dry_run=args.dry_run,
        )
    _write_restore_record(args, rec.to_dict())
    n = rec.rows - (1 if rec.header else 0)
    what = f"{n} data rows ({rec.mode}) put back in {rec.selection}"
    if args.dry_run:
        print(f"{rec.input}: dry run, nothing written: {what}")
    else:
        backup = f" (backup {rec.backup})" if rec.backup else ""
        print(f"{rec.input} -> {rec.output}{backup}: {what}")
    return 0


def _restore_list(args: argparse.Namespace) -> int:
    from .. import __version__
    from ..lists import DEFAULT_MAX_MB, restore_csv
    from ..workbook.records.record import load_one_record

    record = load_one_record(args.record)
    limit = limits_of(args).get("max_file_bytes", DEFAULT_MAX_MB * 1024**2)
    rec = restore_csv(
        record.to_dict(),
        args.shuffled,
        args.output,
        in_place=args.in_place,
        backup=not args.no_backup,
        dry_run=args.dry_run,
        max_bytes=limit,
    )
    rec["tool_version"] = __version__
    _write_restore_record(args, rec)
    what = f"{len(rec['permutation'])} data records put back"
    if args.dry_run:
        print(f"{rec['input']}: dry run, nothing written: {what}")
    else:
        backup = f" (backup {rec['backup']})" if rec["backup"] else ""
        print(f"{rec['input']} -> {rec['output']}{backup}: {what}")
    return 0


def _write_restore_record(args: argparse.Namespace, record: dict[str, Any]) -> None:
    """``restore --record FILE``: the restore's own record (none for a dry run, which
    writes nothing at all)."""
    if args.record_out is not None and not args.dry_run:
        from .report import write_record

        write_record(args.record_out, record)
