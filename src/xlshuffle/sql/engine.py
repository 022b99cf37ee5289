"""DuckDB as the engine of ticket draws on CSV/TSV and Parquet files of any size.

``xlshuffle sample IN --method ticket --id COL ... --engine duckdb`` (the only engine for
Parquet) runs the query of :func:`~xlshuffle.sql.query.ticket_query` on the file through
DuckDB: streaming, in bounded memory, on every core. Its output (the drawn rows with
``Role``, ``Rank`` and ``Draw ticket`` added) and its record are the list engine's for a CSV/TSV
list both can read, so ``xlshuffle verify`` replays either with either engine.

Two passes over the file: the draw itself (tickets, and the smallest ``k + R`` kept per
stratum, with the drawn rows' fields), then the place of the drawn rows in the file and
each stratum's first row and size (what the record states), which need a row count that a
CSV reader cannot give while it reads in parallel. The input's SHA-256 is computed in a
thread meanwhile. duckdb is imported when a draw runs (the ``duckdb`` extra).
"""

from __future__ import annotations

import csv
import datetime as _dt
import hashlib
import io
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from ..common.celltext import text_of
from ..common.files import write_output
from ..common.record import RECORD_VERSION
from ..common.request import DrawRequest, SampleOptions
from ..common.targets import check_output
from ..draw.errors import ListError, OptionError
from ..draw.protocol import PROTOCOL
from ..tabledraw.entrants import Column, find_column
from ..tabledraw.raffle_options import DrawOptions
from ..tabledraw.raffle_parts import Part
from ..tabledraw.raffles import TICKET_LABEL, draw_spec
from .query import TicketSQL, ticket_query

__all__ = ["ENGINE", "is_table_file", "sample_file", "verify_sample_file"]

#: The name a record gives this engine (``target["engine"]``).
ENGINE = "duckdb"
_PARQUET = (".parquet", ".parq")
#: A DuckDB connection (Connection; not named, so that importing this module
#: never imports duckdb, not even for type checking)
Connection = Any
_CHUNK = 1 << 22


def is_table_file(path: str) -> bool:
    """Whether only this engine reads ``path`` (a Parquet file)."""
    return path.lower().endswith(_PARQUET)


@dataclass(frozen=True)
class _Source:
    """A file as DuckDB reads it: its FROM item, its columns, and how rows are numbered."""

    path: str
    reader: str
    names: list[str]
    types: list[str]
    delimiter: str | None  # None for Parquet

    @property
    def parquet(self) -> bool:
        return self.delimiter is None

    def numbered(self) -> str:
        """A FROM item of the rows with ``xls_row``, their 0-based place in the file."""
        if self.parquet:
            return (
                f"(SELECT *, file_row_number AS xls_row FROM "
                f"read_parquet({_literal(self.path)}, file_row_number = true))"
            )
        # a CSV reader numbers rows only in one thread: this pass reads little else
        return f"(SELECT *, row_number() OVER () - 1 AS xls_row FROM {self.reader})"


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _connect() -> Connection:
    import duckdb

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    return con


def _source(con: Connection, path: str) -> _Source:
    if not os.path.isfile(path):
        raise ListError(f"{path}: no such file")
    if is_table_file(path):
        reader, delimiter = f"read_parquet({_literal(path)})", None
    else:
        delimiter = "\t" if path.lower().endswith((".tsv", ".tab")) else ","
        reader = (
            f"read_csv({_literal(path)}, delim = {_literal(delimiter)}, quote = '\"', "
            "escape = '\"', header = true, all_varchar = true, null_padding = true)"
        )
    try:
        described = con.execute(f"DESCRIBE SELECT * FROM {reader}").fetchall()
    except Exception as exc:  # duckdb.Error: a file DuckDB cannot read as a table
        raise ListError(f"{path}: DuckDB cannot read it as a table: {exc}") from None
    return _Source(path, reader, [d[0] for d in described], [d[1] for d in described], delimiter)


def _letters(n: int) -> list[str]:
    out = []
    for j in range(1, n + 1):
        name = ""
        while j:
            j, r = divmod(j - 1, 26)
            name = chr(65 + r) + name
        out.append(name)
    return out


#: The column types whose text is an ID's or a label's as section 10 reads it (a float's
#: text, 42.0, would not be "42"; a date's would not be its serial number).
_TEXT_OR_WHOLE = frozenset(
    {"VARCHAR", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT"}
    | {"UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}
)


def _columns(src: _Source, opts: DrawOptions) -> dict[str, Column]:
    named = {"id": opts.id, "strata": opts.strata, "weights": opts.weights}
    letters = _letters(len(src.names))
    cols = {
        key: Column(given, find_column(src.path, src.names, letters, given, f"--{key}"))
        for key, given in named.items()
        if given is not None
    }
    for key in ("id", "strata"):
        if key in cols and src.types[cols[key].index] not in _TEXT_OR_WHOLE:
            raise OptionError(
                f"{src.path}: --{key} {cols[key].given}: a column of "
                f"{src.types[cols[key].index]} cannot hold IDs or labels here: store them as "
                "text or whole numbers (a whole number's text is the ID, as section 10 reads it)"
            )
    return cols


def _refuse_unsupported(opts: DrawOptions, request: DrawRequest) -> None:
    given = [
        (opts.method != "ticket", f"--method {opts.method}: only --method ticket"),
        (opts.excluded is not None, "--exclude"),
        (opts.one_entry_per_id, "--one-entry-per-id"),
        (opts.all_of_small_strata, "--all-of-small-strata"),
        (opts.total is not None or opts.counts is not None, "--total and --strata-counts"),
        (opts.prizes is not None, "--prizes"),
        (request.region.header is False, "--no-header (the first row names the columns)"),
        (bool(request.region.workbook_only()), "a workbook's --sheet, --range or --table"),
        (request.output.in_place, "--in-place"),
    ]
    for bad, what in given:
        if bad:
            raise OptionError(
                f"{request.src}: the DuckDB engine draws ticket draws by -k or --rate, "
                f"with --reserves, --weights and --strata; not {what}: leave it out, or use "
                "the in-memory engine (a CSV/TSV list without --engine duckdb)"
            )


@dataclass(frozen=True)
class _Won:
    id: str  # canonical
    stratum: str | None  # the stratum's key (its label in NFC)
    role: str | None
    rank: int | None
    ticket: str
    values: tuple[object, ...]  # every column of the row, as read


def _winners(
    con: Connection,
    src: _Source,
    opts: DrawOptions,
    cols: dict[str, Column],
    seed: str,
) -> list[_Won]:
    rate = opts.rate_fraction()
    draw = TicketSQL(
        table=src.reader,
        id=src.names[cols["id"].index],
        seed=seed,
        k=None if rate is not None else opts.k,
        rate=rate,
        reserves=opts.reserves,
        weights=None if "weights" not in cols else src.names[cols["weights"].index],
        scale=opts.weight_scale or 1,
        strata=None if "strata" not in cols else src.names[cols["strata"].index],
        carry=tuple(src.names),
    )
    try:
        rows = con.execute(ticket_query(draw, "duckdb")).fetchall()
    except Exception as exc:  # duckdb.Error, raised by the query's refusals
        raise ListError(f"{src.path}: {_reason(exc)}") from None
    strata, reserves = draw.strata is not None, bool(opts.reserves)
    out = []
    for row in rows:
        at = 2 if strata else 1
        role, rank = (row[at], int(row[at + 1])) if reserves else (None, None)
        at += 2 if reserves else 0
        out.append(
            _Won(row[0], row[1] if strata else None, role, rank, row[at], tuple(row[at + 1 :]))
        )
    return out


def _reason(exc: Exception) -> str:
    text = str(exc)
    return text[text.index("xlshuffle: ") + 11 :] if "xlshuffle: " in text else text


@dataclass(frozen=True)
class _Stratum:
    first: int
    size: int
    label: object


def _places(
    con: Connection,
    src: _Source,
    cols: dict[str, Column],
    won: list[_Won],
) -> tuple[dict[str, int], dict[str | None, _Stratum]]:
    """The second pass: the row of each drawn raw ID, and each stratum's first row, size
    and label as its first row gives it."""
    quote = '"{}"'.format
    raw_id = quote(src.names[cols["id"].index].replace('"', '""'))
    ids = [str(w.values[cols["id"].index]) for w in won]
    if "strata" in cols:
        label = quote(src.names[cols["strata"].index].replace('"', '""'))
        key = f"nfc_normalize(CAST({label} AS VARCHAR))"
        head = f"{key} AS xls_key, arg_min({label}, xls_row) AS xls_label"
    else:
        key, head = "", "NULL AS xls_key, NULL AS xls_label"
    group = f" GROUP BY {key}" if key else ""
    sql = (
        f"SELECT {head}, min(xls_row), count(*), "
        f"list(struct_pack(r := xls_row, i := CAST({raw_id} AS VARCHAR))) FILTER "
        f"(WHERE CAST({raw_id} AS VARCHAR) IN (SELECT unnest($ids))) "
        f"FROM {src.numbered()}{group}"
    )
    found: dict[str, int] = {}
    strata: dict[str | None, _Stratum] = {}
    for skey, slabel, first, size, hits in con.execute(sql, {"ids": ids}).fetchall():
        strata[skey] = _Stratum(int(first), int(size), slabel)
        for hit in hits or ():
            if found.setdefault(hit["i"], int(hit["r"])) != int(hit["r"]):
                raise ListError(
                    f"{src.path}: the ID {hit['i']!r} is on two rows: a ticket belongs to one "
                    "entrant (give each row its own ID)"
                )
    return found, strata


def _file_sha256(path: str, into: list[str]) -> None:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    into.append(h.hexdigest())


@dataclass
class _Drawn:
    rows: list[int]
    won: list[_Won]  # in output order
    parts: list[Part]
    spec: dict[str, Any]
    sha256: str
    k: int  # the draw options' k, as the list engine records it (0 with a rate)


def _draw(request: DrawRequest, opts: DrawOptions) -> tuple[_Source, _Drawn]:
    opts.check()
    _refuse_unsupported(opts, request)
    digest: list[str] = []
    hashing = threading.Thread(target=_file_sha256, args=(request.src, digest))
    hashing.start()
    try:
        con = _connect()
        src = _source(con, request.src)
        cols = _columns(src, opts)
        won = _winners(con, src, opts, cols, request.seed.text)
        found, strata = _places(con, src, cols, won)
    finally:
        hashing.join()
    by_part: dict[str | None, list[_Won]] = {key: [] for key in strata}
    for w in won:
        by_part[w.stratum].append(w)
    order = sorted(strata, key=lambda key: strata[key].first)  # as first seen, as lists do
    parts, ordered = [], []
    for key in order:
        drawn = by_part[key]
        rows = [found[str(w.values[cols["id"].index])] for w in drawn]
        k = sum(w.role != "reserve" for w in drawn) if opts.rate is not None else opts.k
        roles = [(str(w.role), int(w.rank or 0)) for w in drawn] if opts.reserves else []
        label = None if "strata" not in cols else strata[key].label
        parts.append(
            Part(label, strata[key].size, rows, k, roles, tickets=[w.ticket for w in drawn])
        )
        ordered += drawn
    spec = draw_spec(opts, cols, parts)
    spec["winners"] = [w.id for w in ordered if w.role != "reserve"]
    rows = [r for p in parts for r in p.rows]
    return src, _Drawn(rows, ordered, parts, spec, digest[0], opts.k)


def _lines(src: _Source, drawn: _Drawn, opts: DrawOptions) -> Iterator[bytes]:
    """The output: the header and each drawn row, its fields, then Role and Rank (with
    reserves) and the ticket, as the list engine adds them."""
    delimiter = src.delimiter or ","
    head, ending, bom = _header(src)
    extra = (["Role", "Rank"] if opts.reserves else []) + [TICKET_LABEL]
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator=ending)
    writer.writerow(extra)
    yield bom + head + delimiter.encode() + buf.getvalue().encode()
    for w in drawn.won:
        buf.seek(0)
        buf.truncate()
        added = [w.role, w.rank] if opts.reserves else []
        writer.writerow([_text(v) for v in w.values] + added + [w.ticket])
        yield buf.getvalue().encode("utf-8", "surrogateescape")


def _text(value: object) -> str:
    return value if isinstance(value, str) else text_of(value)


def _header(src: _Source) -> tuple[bytes, str, bytes]:
    """The input's header line as written (without its line break), the line break, and
    the byte order mark; a Parquet file's header is its column names."""
    if src.parquet:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow(src.names)
        return buf.getvalue()[:-1].encode(), "\n", b""
    with open(src.path, "rb") as fh:
        line = fh.readline(1 << 20)
    bom = b"\xef\xbb\xbf" if line.startswith(b"\xef\xbb\xbf") else b""
    line = line[len(bom) :]
    ending = "\r\n" if line.endswith(b"\r\n") else "\n"
    body = line[: -len(ending)] if line.endswith(ending.encode()) else line
    if body.count(b'"') % 2:  # a header field holding a line break: written anew
        buf = io.StringIO()
        csv.writer(buf, delimiter=src.delimiter or ",", lineterminator="").writerow(src.names)
        body = buf.getvalue().encode()
    return body, ending, bom


def sample_file(request: DrawRequest, *, out: BinaryIO | None = None) -> dict[str, Any]:
    """Draw ``request`` (a sample by tickets) on its CSV/TSV or Parquet file through
    DuckDB; write the drawn rows to its output (or ``out`` when it names none); return the
    record, the list engine's own for a CSV/TSV list.

    Raises
    ------
    OptionError
        An option this engine does not draw (it says which engine does).
    ListError
        A row the draw refuses (a blank ID, a weight that is not whole...), or a file
        DuckDB cannot read.
    """
    asked = request.options
    if not isinstance(asked, SampleOptions) or asked.draw is None or not asked.draw.tickets:
        raise OptionError(
            f"{request.src}: the DuckDB engine draws samples by tickets: add --method ticket "
            "--id COL"
        )
    opts = asked.draw
    dst = request.output.path
    if dst is not None and not dst.lower().endswith((".csv", ".tsv", ".tab")):
        raise OptionError(f"-o {dst}: the DuckDB engine writes the drawn rows as .csv or .tsv")
    if dst is not None and not request.output.dry_run:
        check_output(dst, request.src)
    src, drawn = _draw(request, opts)
    written: tuple[str | None, str | None] = (None, None)
    if dst is not None and not request.output.dry_run:
        sha, _ = write_output(dst, request.src, _lines(src, drawn, opts), keep=None)
        written = (dst, sha)
    elif out is not None and not request.output.dry_run:
        for line in _lines(src, drawn, opts):
            out.write(line)
        out.flush()
    return _record(request, src, drawn, written)


def _record(
    request: DrawRequest, src: _Source, drawn: _Drawn, written: tuple[str | None, str | None]
) -> dict[str, Any]:
    from .. import __version__

    rows = sum(p.size for p in drawn.parts) + 1
    now = _dt.datetime.now(_dt.UTC).replace(microsecond=0)
    return {
        "protocol": PROTOCOL,
        "tool": "xlshuffle",
        "record_version": RECORD_VERSION,
        "command": "sample",
        "seed": request.seed.stream().seed_text,
        "input": src.path,
        "input_sha256": drawn.sha256,
        "sheet": "",
        "selection": f"rows 1-{rows}",
        "header": True,
        "mode": "rows",
        "rows": rows,
        "columns": len(src.names),
        "permutation": drawn.rows,
        "output": written[0],
        "output_sha256": written[1],
        "k": drawn.k,
        "size": None,
        "unit": "rows",
        "target": {
            "kind": "list",
            "ref": "",
            "columns": None,
            "table": None,
            "delimiter": src.delimiter,
            "engine": ENGINE,
            "draw": drawn.spec,
        },
        "parts": {},
        "backup": None,
        "fingerprint": None,
        "tool_version": __version__,
        "time_utc": now.isoformat().replace("+00:00", "Z"),
    }


def _saved_lines(path: str) -> list[bytes]:
    with open(path, "rb") as fh:
        return fh.read().splitlines()


def replay(record: dict[str, Any], src: str) -> tuple[_Source, _Drawn, DrawOptions]:
    """The draw ``record`` states, made again from ``src`` (ListError when ``src`` is not
    the recorded input)."""
    from ..draw.seed import Seed

    spec = record["target"]["draw"]
    opts = DrawOptions.from_spec(spec)
    request = DrawRequest(
        kind="sample",
        src=src,
        seed=Seed.given(str(record["seed"])),
        options=SampleOptions(k=record.get("k"), draw=opts),
    )
    source, drawn = _draw(request, opts)
    if drawn.sha256 != record["input_sha256"]:
        raise ListError(f"{src}: not the recorded input (SHA-256 differs)")
    return source, drawn, opts


def verify_sample_file(record: dict[str, Any], src: str, saved: str | None = None) -> None:
    """Draw again through DuckDB what ``record`` says from ``src``, and check ``saved``
    (the output, or the winners saved from stdout) line by line. Raises ListError at the
    first difference."""
    source, drawn, opts = replay(record, src)
    if drawn.rows != record["permutation"]:
        raise ListError(
            f"record: seed {record['seed']!r} does not draw these rows: recorded "
            f"{record['permutation'][:10]}, drawn again {drawn.rows[:10]}"
        )
    if drawn.spec != record["target"]["draw"]:
        raise ListError("record: target.draw is not what the draw gives again: it was edited")
    if saved is None:
        return
    want = b"".join(_lines(source, drawn, opts)).splitlines()
    got = _saved_lines(saved)
    if got and got[0].startswith(b"\xef\xbb\xbf") and not want[0].startswith(b"\xef\xbb\xbf"):
        got[0] = got[0][3:]
    for n, (a, b) in enumerate(zip(want, got, strict=False)):
        if a != b:
            what = "the header row" if n == 0 else f"drawn row {n}"
            raise ListError(f"{saved}: not the rows this draw wrote: {what} differs")
    if len(want) != len(got):
        raise ListError(
            f"{saved}: not the rows this draw wrote: {len(got) - 1} rows, not {len(want) - 1}"
        )
