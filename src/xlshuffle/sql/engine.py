"""DuckDB as the engine of ticket draws on CSV/TSV and Parquet files of any size.

``xlshuffle sample IN --method ticket|rivest --id COL ... --engine duckdb`` (the only
engine for Parquet) runs the query of :func:`~xlshuffle.sql.query.ticket_query` on the file
through DuckDB: streaming, in bounded memory, on every core. Its output (the drawn rows
with the fields the draw adds: ``Role`` and ``Rank``, a prize table's, ``Draw ticket``) and
its record are the list engine's for a CSV/TSV list both can read, so ``xlshuffle verify``
replays either with either engine. Every option of a ticket draw is drawn here: reserves,
weights, strata with their counts (``--total``, ``--strata-counts``) and small strata taken
whole, exclusions, one entry per ID, prize tables, and Rivest's order, whose tickets (78
decimal digits, beyond SQL's integers) a Python function registered with DuckDB computes
as the query streams the IDs.

The passes over the file: the draw itself (tickets, and the smallest ``k + R`` kept per
stratum), then a census in file order: each stratum's first row and size, the rows the
exclusion leaves out, and the place of the drawn rows (and, with one entry per ID, each
drawn entrant's first row and its fields), which need a row count that a CSV reader
cannot give while it reads in parallel. With ``--total`` or ``--strata-counts`` a census
of the strata comes first, since their sizes and labels make the counts. The input's
SHA-256 is computed in a thread beside the last census, which leaves a core free.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as _dt
import hashlib
import io
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from ..common.celltext import text_of
from ..common.files import write_output
from ..common.record import RECORD_VERSION
from ..common.request import DrawRequest, SampleOptions
from ..common.targets import check_output
from ..draw.errors import ListError, OptionError, SizeError
from ..draw.protocol import PROTOCOL
from ..draw.tickets import rivest_ticket
from ..tabledraw.entrants import Column, Entrants
from ..tabledraw.exclusions import Exclusion
from ..tabledraw.raffle_options import DrawOptions
from ..tabledraw.raffle_parts import TAKE_ALL_HINT, Part, label_text
from ..tabledraw.raffles import added_fields, draw_spec, shares
from .exclusion import Excluding, excluding_of
from .query import TicketSQL, id_expression, ticket_query
from .source import Connection, Source, connect, is_table_file, open_source, quoted

__all__ = ["ENGINE", "is_table_file", "replay", "sample_file", "verify_sample_file"]

#: The name a record gives this engine (``target["engine"]``).
ENGINE = "duckdb"
_CHUNK = 1 << 22


def _refuse_unsupported(request: DrawRequest) -> None:
    given = [
        (request.region.header is False, "--no-header (the first row names the columns)"),
        (bool(request.region.workbook_only()), "a workbook's --sheet, --range or --table"),
        (request.output.in_place, "--in-place"),
    ]
    for bad, what in given:
        if bad:
            raise OptionError(
                f"{request.src}: the DuckDB engine reads a CSV/TSV list with a header row, or "
                f"a Parquet file, and writes a new list: leave out {what}, or leave out "
                "--engine duckdb"
            )


@dataclass(frozen=True)
class _Won:
    id: str  # canonical
    stratum: str | None  # the stratum's key (its label in NFC)
    role: str | None
    rank: int | None
    ticket: str
    values: tuple[object, ...]  # every column of the row, as read (grouped: by the census)


def _winners(
    con: Connection,
    src: Source,
    opts: DrawOptions,
    cols: dict[str, Column],
    seed: str,
    table: str,
    counts: dict[str | None, int] | None,
) -> list[_Won]:
    rate = opts.rate_fraction()
    rivest = opts.method == "rivest"
    if rivest:  # Rivest's tickets are 78-digit decimals: Python computes them as DuckDB streams
        con.create_function(
            "xls_rivest", lambda text: rivest_ticket(seed, text), ["VARCHAR"], "VARCHAR"
        )
    draw = TicketSQL(
        table=table,
        id=src.name(cols["id"]),
        seed=seed,
        k=None if rate is not None else opts.k,
        rate=rate,
        reserves=opts.reserves,
        weights=None if "weights" not in cols else src.name(cols["weights"]),
        scale=opts.weight_scale or 1,
        strata=None if "strata" not in cols else src.name(cols["strata"]),
        carry=() if opts.one_entry_per_id else tuple(src.names),
        grouped=opts.one_entry_per_id,
        counts=None if counts is None else tuple((str(k), n) for k, n in counts.items()),
        take_small=True,  # a stratum smaller than its count is refused below, by its name
        rivest=rivest,
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


@dataclass
class _Census:
    """What a pass over the file in its order finds: every data row counted, each stratum
    (its first row, its entrants, its label as its first row gives it; the strata whose
    rows are all left out as well, with size 0), the rows left out and the listed IDs they
    matched, and each drawn entrant's row (and, grouped, its fields)."""

    rows: int
    strata: dict[str | None, _Stratum]
    labels: list[object]
    excluded: list[int]
    matched: set[str]
    found: dict[str, tuple[int, tuple[object, ...]]]


def _census(
    con: Connection,
    src: Source,
    opts: DrawOptions,
    cols: dict[str, Column],
    excluding: Excluding | None,
    won: list[_Won] | None,
) -> _Census:
    grouped = opts.one_entry_per_id
    canon = id_expression(src.name(cols["id"]), "duckdb")
    out = "false" if excluding is None else excluding.out(canon)
    keep = "WHERE NOT xls_out"
    if "strata" in cols:
        label = quoted(src.name(cols["strata"]))
        key = f"nfc_normalize(CAST({label} AS VARCHAR))"
        head = (
            f"{key} AS xls_key, arg_min({label}, xls_row) FILTER ({keep}), "
            f"arg_min({label}, xls_row)"
        )
    else:
        key, head = "", "NULL AS xls_key, NULL, NULL"
    size = "count(DISTINCT xls_canon)" if grouped else "count(*)"
    sql = [f"SELECT {head}, count(*), min(xls_row) FILTER ({keep}), {size} FILTER ({keep})"]
    if excluding is None:  # nothing left out: no canonical ID computed for every row
        sql.append(", NULL, NULL")
    else:
        sql.append(", list(xls_row) FILTER (WHERE xls_out)")
        sql.append(", list(DISTINCT xls_canon) FILTER (WHERE xls_out)")
    params: dict[str, object] = {}
    if won is not None:
        # a drawn row by its ID as read (one row each), or grouped by its canonical ID
        # (the entrant's first row, its fields kept)
        raw = f"CAST({quoted(src.name(cols['id']))} AS VARCHAR)"
        match = "xls_canon" if grouped else raw
        fields = ", v := t" if grouped else ""
        sql.append(
            f", list(struct_pack(r := xls_row, i := {match}{fields})) FILTER "
            f"(WHERE NOT xls_out AND {match} IN (SELECT unnest(CAST($ids AS VARCHAR[]))))"
        )
        idx = cols["id"].index
        params["ids"] = [w.id if grouped else str(w.values[idx]) for w in won]
    needed = grouped or excluding is not None  # the canonical ID, only when it is read
    canonical = f", {canon} AS xls_canon" if needed else ""
    inner = f"(SELECT *{canonical}, {out} AS xls_out FROM {src.numbered()}) t"
    group = f" GROUP BY {key}" if key else ""
    found: dict[str, tuple[int, tuple[object, ...]]] = {}
    census = _Census(0, {}, [], [], set(), found)
    for row in con.execute(" ".join(sql) + f" FROM {inner}{group}", params).fetchall():
        skey, slabel, any_label, n, first, entrants, excluded, matched = row[:8]
        census.rows += int(n)
        census.labels.append(any_label)
        if entrants:
            census.strata[skey] = _Stratum(int(first), int(entrants), slabel)
        census.excluded += excluded or []
        census.matched.update(matched or [])
        # a group none of whose rows was drawn: its filtered list is NULL, not empty
        for hit in (row[8] or ()) if won is not None else ():
            at, ident = int(hit["r"]), str(hit["i"])
            values = tuple(hit["v"][n] for n in src.names) if grouped else ()
            if grouped:
                if ident not in found or at < found[ident][0]:
                    found[ident] = (at, values)
            elif found.setdefault(ident, (at, values))[0] != at:
                raise ListError(
                    f"{src.path}: the ID {ident!r} is on two rows: a ticket belongs to one "
                    "entrant (give each row its own ID, or ask for one entry per ID)"
                )
    census.excluded.sort()
    return census


def _file_sha256(path: str, into: list[str]) -> None:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    into.append(h.hexdigest())


@dataclass
class _Drawn:
    rows: int  # the data rows of the file, and the header
    order: list[int]
    won: list[_Won]  # in output order, each with its fields
    parts: list[Part]
    spec: dict[str, Any]
    sha256: str
    k: int  # the draw options' k, as the list engine records it (0 with a rate)
    notes: list[str]


def _counts(
    src: Source, opts: DrawOptions, cols: dict[str, Column], census: _Census
) -> dict[str | None, int]:
    """Each stratum's count from ``--total`` or ``--strata-counts`` (section 11), by the
    list engine's rule and in its words."""
    order = sorted(census.strata, key=lambda key: census.strata[key].first)
    labels = census.labels
    ents = Entrants(
        where=src.path,
        labels=None,
        letters=[],
        n=len(labels),
        values=lambda j: labels,  # every stratum's label: one that no row has is named
        cell=lambda i, j: src.path,
        fail=ListError,
    )
    sized = [(census.strata[key].label, range(census.strata[key].size)) for key in order]
    ks = shares(ents, opts, sized, cols["strata"])
    return dict(zip(order, ks, strict=True))


def _draw(
    request: DrawRequest, opts: DrawOptions, recorded: object = None
) -> tuple[Source, _Drawn]:
    """Draw ``request`` (``recorded``: a record's exclusion, replayed without its list)."""
    opts.check()
    _refuse_unsupported(request)
    digest: list[str] = []
    con = connect()
    src = open_source(con, request.src)
    cols = src.columns(opts)
    excluding = excluding_of(opts, recorded, 1 << 62)
    canon = id_expression(src.name(cols["id"]), "duckdb")
    table = src.reader
    if excluding is not None:
        excluding.prepare(con)
        table = excluding.table(src, canon)
    counts = None
    if opts.total is not None or opts.counts is not None:
        counts = _counts(src, opts, cols, _census(con, src, opts, cols, excluding, None))
    won = _winners(con, src, opts, cols, request.seed.text, table, counts)
    # the input's SHA-256 beside the census, which reads the file in one thread: the
    # draw before it keeps every core busy
    hashing = threading.Thread(target=_file_sha256, args=(request.src, digest))
    hashing.start()
    try:
        census = _census(con, src, opts, cols, excluding, won)
    finally:
        hashing.join()
    parts, ordered = _parts(src, opts, cols, census, won, counts)
    exclusion = None if excluding is None else _exclusion(excluding, census)
    spec = draw_spec(opts, cols, parts, exclusion)
    spec["winners"] = [w.id for w in ordered if w.role != "reserve"]
    order = [r for p in parts for r in p.rows]
    notes = [] if exclusion is None else exclusion.notes()
    return src, _Drawn(census.rows + 1, order, ordered, parts, spec, digest[0], opts.k, notes)


def _parts(
    src: Source,
    opts: DrawOptions,
    cols: dict[str, Column],
    census: _Census,
    won: list[_Won],
    counts: dict[str | None, int] | None,
) -> tuple[list[Part], list[_Won]]:
    """Each stratum's draw as the list engine gives it, in order of first appearance, and
    the drawn entrants in output order (each with its fields); a stratum with fewer
    entrants holding tickets than its count refused, unless taken whole."""
    by_part: dict[str | None, list[_Won]] = {key: [] for key in census.strata}
    for w in won:
        by_part[w.stratum].append(w)
    grouped, strata = opts.one_entry_per_id, "strata" in cols
    idx = cols["id"].index
    parts, ordered = [], []
    for key in sorted(census.strata, key=lambda key: census.strata[key].first):
        drawn, stratum = by_part[key], census.strata[key]
        label = stratum.label if strata else None
        if opts.rate is not None:
            k = sum(w.role != "reserve" for w in drawn)
        else:
            k = opts.k if counts is None else counts[key]
            _check_count(src, opts, label, k, len(drawn))
        at = [census.found[w.id if grouped else str(w.values[idx])] for w in drawn]
        if grouped:
            drawn = [
                _Won(w.id, w.stratum, w.role, w.rank, w.ticket, v)
                for w, (_, v) in zip(drawn, at, strict=True)
            ]
        roles = [(str(w.role), int(w.rank or 0)) for w in drawn] if opts.reserves else []
        parts.append(
            Part(
                label, stratum.size, [r for r, _ in at], k, roles, tickets=[w.ticket for w in drawn]
            )
        )
        ordered += drawn
    return parts, ordered


def _check_count(src: Source, opts: DrawOptions, label: object, k: int, can: int) -> None:
    """Refuse a stratum (or the list) with fewer entrants holding tickets than its count
    and the reserves, unless small strata are taken whole: in the list engine's words."""
    if opts.all_of_small_strata or can >= k + opts.reserves:
        return
    asked = f"{k} + {opts.reserves} reserves" if opts.reserves else f"{k}"
    why = f"cannot draw {asked} from {can} entrant{'s' if can != 1 else ''}: ask for fewer"
    if label is None:
        raise SizeError(f"{src.path}: {why}")
    raise SizeError(f"{src.path}: stratum {label_text(label)!r}: {why}{TAKE_ALL_HINT}")


def _exclusion(excluding: Excluding, census: _Census) -> Exclusion:
    """The record's account of the exclusion: the list's digest and IDs, the rows left
    out, and the listed IDs that matched no entrant (replayed: as recorded)."""
    if excluding.recorded is not None:
        if list(excluding.recorded.rows) != census.excluded:
            raise ListError("record: its excluded rows are not rows of this input: it was edited")
        return excluding.recorded
    missing = [t for t in excluding.ids if t not in census.matched]
    return Exclusion(
        excluding.digest,
        len(excluding.ids),
        tuple(census.excluded),
        len(missing),
        tuple(missing[:3]),
    )


def _lines(src: Source, drawn: _Drawn, opts: DrawOptions) -> Iterator[bytes]:
    """The output: the header and each drawn row, its fields, then the fields the draw
    adds (:func:`~xlshuffle.tabledraw.raffles.added_fields`), as the list engine writes."""
    delimiter = src.delimiter or ","
    head, ending, bom = _header(src)
    labels, extra = added_fields(opts, drawn.parts)
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator=ending)
    writer.writerow(labels)
    yield bom + head + delimiter.encode() + buf.getvalue().encode()
    for w, added in zip(drawn.won, extra, strict=True):
        buf.seek(0)
        buf.truncate()
        writer.writerow([_text(v) for v in w.values] + added)
        yield buf.getvalue().encode("utf-8", "surrogateescape")


def _text(value: object) -> str:
    return value if isinstance(value, str) else text_of(value)


def _header(src: Source) -> tuple[bytes, str, bytes]:
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


def sample_file(
    request: DrawRequest, *, out: BinaryIO | None = None, notes: list[str] | None = None
) -> dict[str, Any]:
    """Draw ``request`` (a sample by tickets) on its CSV/TSV or Parquet file through
    DuckDB; write the drawn rows to its output (or ``out`` when it names none); return the
    record, the list engine's own for a CSV/TSV list. ``notes`` receives the lines for the
    terminal that the record does not keep (the listed IDs that matched no entrant).

    Raises
    ------
    OptionError
        A request this engine does not draw (not a ticket draw, a workbook's region).
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
    if notes is not None:
        notes += drawn.notes
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
    request: DrawRequest, src: Source, drawn: _Drawn, written: tuple[str | None, str | None]
) -> dict[str, Any]:
    from .. import __version__

    rows = drawn.rows
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
        "permutation": drawn.order,
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


def replay(
    record: dict[str, Any], src: str, excluded: tuple[str, ...] | None = None
) -> tuple[Source, _Drawn, DrawOptions]:
    """The draw ``record`` states, made again from ``src`` (ListError when ``src`` is not
    the recorded input): an exclusion from its list of IDs ``excluded`` when given (the
    record then must state what this list gives), else from the rows it recorded."""
    from ..draw.seed import Seed

    spec = record["target"]["draw"]
    opts = DrawOptions.from_spec(spec)
    if excluded is not None:
        if spec.get("exclusion") is None:
            raise ListError("record: the draw excluded no IDs (it was made without --exclude)")
        opts = dataclasses.replace(opts, excluded=excluded)
    request = DrawRequest(
        kind="sample",
        src=src,
        seed=Seed.given(str(record["seed"])),
        options=SampleOptions(k=record.get("k"), draw=opts),
    )
    source, drawn = _draw(request, opts, None if excluded is not None else spec.get("exclusion"))
    if drawn.sha256 != record["input_sha256"]:
        raise ListError(f"{src}: not the recorded input (SHA-256 differs)")
    return source, drawn, opts


def verify_sample_file(
    record: dict[str, Any],
    src: str,
    saved: str | None = None,
    *,
    excluded: tuple[str, ...] | None = None,
) -> None:
    """Draw again through DuckDB what ``record`` says from ``src``, and check ``saved``
    (the output, or the winners saved from stdout) line by line; ``excluded``: the IDs of
    the exclusion list, which the record must have excluded. Raises ListError at the
    first difference."""
    source, drawn, opts = replay(record, src, excluded)
    if drawn.order != record["permutation"]:
        raise ListError(
            f"record: seed {record['seed']!r} does not draw these rows: recorded "
            f"{record['permutation'][:10]}, drawn again {drawn.order[:10]}"
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
