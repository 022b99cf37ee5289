"""Allocation lists as files: the full list, the codes-only list, REDCap's table, the record.

Three CSV files (UTF-8 without a byte-order mark, ``\\n`` line ends, the :mod:`csv` module's
quoting; tab-separated for a ``.tsv`` or ``.tab`` name, except REDCap's) can be written
from one :func:`~xlshuffle.draw.allocate.allocation_list`:

- the **list**: ``Seq``, one column per stratum (named as given), ``Block``, ``BlockSize``,
  ``Arm``; for whoever may know the arms (the statistician, an unblinded pharmacist);
- the **codes-only** list: ``Seq``, the strata and ``Code``, the row's concealment code
  (protocol section 15), and nothing that tells the arm or where a block ends: labels for
  sequentially numbered envelopes or kits, joined to the list on the strata and ``Seq``;
- **REDCap's allocation table**: ``redcap_randomization_group`` (the arm's number, 1 for
  the first arm given) and one column per stratum field, the shape REDCap's randomisation
  module imports.

A record (``command`` ``"allocate"``) keeps the seed, every option and the SHA-256 of each
file written; :func:`verify_allocation` replays it and checks a list file row by row.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from ..draw.allocate import AllocationRow, allocation_label, allocation_list
from ..draw.errors import ListError
from ..draw.protocol import PROTOCOL, as_stream
from ..tabledraw.winners import csv_text, delimiter_for

__all__ = [
    "REDCAP_GROUP",
    "allocation_record",
    "codes_csv",
    "csv_bytes",
    "list_csv",
    "read_allocation_record",
    "redcap_csv",
    "replay",
    "tables",
    "verify_allocation",
    "verify_allocation_table",
]

#: The column of REDCap's allocation table that holds the group (the arm's coded value).
REDCAP_GROUP = "redcap_randomization_group"


def tables(
    rows: Sequence[AllocationRow], strata: Sequence[str], arms: Sequence[str]
) -> dict[str, list[list[object]]]:
    """The three files' tables (a header row, then one row a list row), by the record's
    key for each: ``"output"`` (the list), ``"codes_only"`` and ``"redcap"``."""
    number = {arm: i for i, arm in enumerate(arms, 1)}
    return {
        "output": [
            ["Seq", *strata, "Block", "BlockSize", "Arm"],
            *([r.seq, *r.strata, r.block, r.block_size, r.arm] for r in rows),
        ],
        "codes_only": [["Seq", *strata, "Code"], *([r.seq, *r.strata, r.code] for r in rows)],
        "redcap": [[REDCAP_GROUP, *strata], *([number[r.arm], *r.strata] for r in rows)],
    }


def csv_bytes(table: list[list[object]], delimiter: str = ",") -> bytes:
    """A table as the CSV files of this module write it."""
    return csv_text(table, delimiter).encode("utf-8")


def list_csv(rows: Sequence[AllocationRow], strata: Sequence[str]) -> bytes:
    """The full list: ``Seq``, the strata, ``Block``, ``BlockSize``, ``Arm``."""
    return csv_bytes(tables(rows, strata, [])["output"])


def codes_csv(rows: Sequence[AllocationRow], strata: Sequence[str]) -> bytes:
    """The codes-only list: ``Seq``, the strata, ``Code``; no arm, block or block size."""
    return csv_bytes(tables(rows, strata, [])["codes_only"])


def redcap_csv(rows: Sequence[AllocationRow], strata: Sequence[str], arms: Sequence[str]) -> bytes:
    """REDCap's allocation table: the arm's number (1-based, in the order given), strata."""
    return csv_bytes(tables(rows, strata, arms)["redcap"])


def replay(options: dict[str, Any], seed: object) -> list[AllocationRow]:
    """The list a record's options and seed give."""
    return allocation_list(
        options["arms"],
        ratio=options["ratio"],
        n=options["n"],
        block_sizes=options["block_sizes"],
        seed=seed,
        strata=[(name, values) for name, values in options["strata"]],
    )


def allocation_record(
    *,
    seed: object,
    options: dict[str, Any],
    rows: Sequence[AllocationRow],
    files: dict[str, tuple[str, bytes] | None],
    tool_version: str,
) -> dict[str, Any]:
    """The record of one ``allocate`` run: seed, options, and each file's path and SHA-256.

    ``files`` maps ``"output"``, ``"codes_only"`` and ``"redcap"`` to ``(path, bytes)``
    or None for a file not written.
    """
    now = _dt.datetime.now(_dt.UTC).replace(microsecond=0)
    record: dict[str, Any] = {
        "protocol": PROTOCOL,
        "tool": "xlshuffle",
        "record_version": 2,
        "command": "allocate",
        "seed": as_stream(seed).seed_text,
        "options": options,
        "rows": len(rows),
    }
    for name, written in files.items():
        record[name] = None if written is None else written[0]
        record[f"{name}_sha256"] = (
            None if written is None else hashlib.sha256(written[1]).hexdigest()
        )
    record["tool_version"] = tool_version
    record["time_utc"] = now.isoformat().replace("+00:00", "Z")
    return record


def read_allocation_record(path: str) -> dict[str, Any] | None:
    """The record in ``path`` if it is one ``allocate`` record, else None (another kind)."""
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read(1 << 24).decode("utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return None
    if isinstance(data, dict) and data.get("command") == "allocate":
        return data
    return None


def _options_of(record: dict[str, Any], label: str) -> dict[str, Any]:
    options = record.get("options")
    keys = ("arms", "ratio", "n", "block_sizes", "strata")
    if not isinstance(options, dict) or any(k not in options for k in keys):
        raise ListError(
            f"{label}: not a complete allocation record (no options): give the record file "
            "xlshuffle allocate wrote"
        )
    if not isinstance(record.get("seed"), str) or not record["seed"]:
        raise ListError(f"{label}: the allocation record has no seed text")
    for key, ok, want in _OPTION_KINDS:
        if not ok(options[key]):
            raise ListError(
                f"{label}: option {key!r} of the allocation record is not {want}: give the "
                "record file xlshuffle allocate wrote"
            )
    return options


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list_of(ok: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda value: isinstance(value, list) and all(ok(v) for v in value)


def _stratum(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], str)
        and _list_of(lambda v: isinstance(v, str))(value[1])
    )


_OPTION_KINDS: tuple[tuple[str, Callable[[object], bool], str], ...] = (
    ("arms", _list_of(lambda v: isinstance(v, str)), "a list of texts"),
    ("ratio", _list_of(_whole), "a list of whole numbers"),
    ("n", _whole, "a whole number"),
    ("block_sizes", _list_of(_whole), "a list of whole numbers"),
    ("strata", _list_of(_stratum), "a list of [name, [values]] pairs"),
)


def _which(
    record: dict[str, Any], found: bytes, rows: Sequence[AllocationRow], delimiter: str
) -> tuple[str, bytes]:
    """Which of the files an ``allocate`` run writes ``found`` is, by its header line (the
    full list unless it is the codes-only list's or REDCap's), and what it must hold."""
    options = record["options"]
    names = [name for name, _ in options["strata"]]
    header = found.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8", "replace")
    kind = _kind_of(header.split(delimiter))
    return kind, csv_bytes(tables(rows, names, options["arms"])[kind], delimiter)


def verify_allocation(record: dict[str, Any], output: str, label: str = "record") -> int:
    """Replay an allocation record and check ``output``, a file it wrote; return its rows.

    ``output`` may be the full list, the codes-only list or REDCap's table: its header
    says which, and it is compared with that file as the replayed list writes it.

    Raises
    ------
    ListError
        Naming the first row (line) of ``output`` that differs from the replayed list, or
        a file of the right rows whose bytes are not the recorded ones.
    """
    options = _options_of(record, label)
    rows = replay(options, record["seed"])
    names = [name for name, _ in options["strata"]]
    with open(output, "rb") as fh:
        head = fh.read(4096)
    kind, expected = _which(record, head, rows, delimiter_for(output))
    with open(output, "rb") as fh:
        found = fh.read(2 * len(expected) + 1)  # room for \r\n line ends, to name them
    want_lines, got_lines = expected.split(b"\n")[:-1], found.split(b"\n")
    if not got_lines[-1]:  # the piece after the last line end
        got_lines.pop()
    for line, (want, got) in enumerate(zip(want_lines, got_lines, strict=False), 1):
        if want != got.rstrip(b"\r"):
            raise ListError(_difference(output, line, rows, names, want, got))
    if found != expected:
        have = "other line ends than"
        if len(got_lines) != len(want_lines):
            have = "fewer lines than" if len(got_lines) < len(want_lines) else "more lines than"
        raise ListError(
            f"{output}: has {have} the replayed list ({len(want_lines)} lines with the "
            "header): it is not the file this record wrote"
        )
    if record.get(f"{kind}_sha256") not in (None, hashlib.sha256(expected).hexdigest()):
        raise ListError(
            f"{label}: its {kind}_sha256 is not that of the file its seed and options give: "
            "the record was edited after the run"
        )
    return len(rows)


def _kind_of(header: list[str]) -> str:
    if header[:1] == [REDCAP_GROUP]:
        return "redcap"
    if header[-1:] == ["Code"] and "BlockSize" not in header:
        return "codes_only"
    return "output"


def verify_allocation_table(
    record: dict[str, Any],
    output: str,
    got: list[tuple[int, list[str]]],
    sha256: str,
    label: str = "record",
) -> int:
    """Replay an allocation record and check ``got``, the rows (row number, texts) of a
    workbook it wrote (the list or the codes-only list; its first row says which), and
    the workbook's SHA-256 against the record's; return the list's rows."""
    options = _options_of(record, label)
    rows = replay(options, record["seed"])
    names = [name for name, _ in options["strata"]]
    kind = _kind_of(got[0][1] if got else [])
    want = [[str(v) for v in row] for row in tables(rows, names, options["arms"])[kind]]
    for i, fields in enumerate(want):
        if i >= len(got):
            raise ListError(f"{output}: it ends after {len(got)} rows, without row {i + 1}")
        number, found = got[i]
        if found != fields:
            what = "the header" if i == 0 else f"Seq {rows[i - 1].seq}"
            stratum = "" if i == 0 else allocation_label(names, rows[i - 1].strata)
            raise ListError(
                f"{output}: row {number} ({what}{' of ' + stratum if stratum else ''}) is "
                f"{','.join(found)!r}, not {','.join(fields)!r} as the record's seed gives"
            )
    if len(got) > len(want):
        raise ListError(f"{output}: row {got[len(want)][0]} is more than the list's rows")
    if record.get(f"{kind}_sha256") not in (None, sha256):
        raise ListError(
            f"{output}: SHA-256 is not the record's {kind}_sha256: not the file this run wrote"
        )
    return len(rows)


def _difference(
    output: str, line: int, rows: Sequence[AllocationRow], names: list[str], want: bytes, got: bytes
) -> str:
    shown = got.decode("utf-8", "replace")[:80]
    if line == 1:
        return f"{output}: line 1 (the header) is {shown!r}, not {want.decode('utf-8')!r}"
    row = rows[line - 2] if line - 2 < len(rows) else None
    where = ""
    if row is not None:
        stratum = allocation_label(names, row.strata)
        where = f" (Seq {row.seq}{' of ' + stratum if stratum else ''})"
    return (
        f"{output}: line {line}{where} differs from the replayed list: expected "
        f"{want.decode('utf-8')!r}, found {shown!r}"
    )
