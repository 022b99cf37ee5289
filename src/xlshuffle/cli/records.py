"""The subcommands that work from a draw record: ``verify`` and ``restore``."""

from __future__ import annotations

import argparse
import sys
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
    """``verify``: a thin shell over :func:`xlshuffle.records.verify`."""
    from ..records import verify

    verdict = verify(
        args.record,
        input=args.input,
        output=args.output,
        exclude=args.exclude,
        ids=args.ids,
        set_aside=args.set_aside_output,
    )
    if not verdict.ok:
        print(f"Error: {verdict.message}", file=sys.stderr)
        return 1
    print(verdict.message)
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
    from ..common.record import load_one_record
    from ..lists import DEFAULT_MAX_MB, restore_csv

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
