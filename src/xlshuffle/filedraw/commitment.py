"""Commit, then draw, for a draw on a file: protocol section 17 over a typed request.

:func:`commit` fixes a :class:`~xlshuffle.common.request.DrawRequest` before its seed can be
known: the list (the digest of the rows the draw reads), the request in canonical form and,
for every file beyond the list that the draw reads (``--exclude``, ``--strata-counts``,
``--avoid``), its SHA-256 and what the draw took from it (:mod:`.pins`). :func:`draw` runs
the committed request with the seed the commitment hash and the revealed values give, after
refusing a list or a side file that is not the committed one; :func:`check_record` is what
``verify`` checks of a committed draw's record. Nothing here calls the command line.

A commitment of version 1 (written before side files were pinned) stated the draw as
command-line texts; :mod:`.legacy` turns those into a request, and the checks here then
apply, except the side files', which version 1 did not pin (:attr:`Commitment.pins_files`).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

from ..common.request import SIDE_OPTIONS, DrawRequest, Output
from ..draw.commit import (
    COMMITMENT_VERSION,
    REQUEST_COMMITMENT_VERSION,
    UNREVEALED_SEED,
    commit_seed,
    commitment_sha256,
    entrant_id_sha256,
    entrant_sha256,
    new_salt,
    reveal_values,
    rows_sha256,
)
from ..draw.errors import ListError, OptionError, XlshuffleError
from ..draw.protocol import PROTOCOL
from ..draw.seed import Seed
from .legacy import legacy_request
from .pins import pin_problems, pins, side_files
from .population import population_of
from .run import DrawResult, run
from .sidefiles import read_excluded

__all__ = [
    "Commitment",
    "check_list",
    "check_population",
    "check_record",
    "check_rows",
    "commit",
    "committed_request",
    "draw",
    "load_commitment",
    "rows_of",
]

_DRY_SEED = Seed(UNREVEALED_SEED)


@dataclass(frozen=True)
class Commitment:
    """A commitment: its ``body`` (the JSON object that is hashed) and its hash."""

    body: dict[str, Any]
    sha256: str

    @property
    def version(self) -> int:
        return int(self.body["commitment_version"])

    @property
    def pins_files(self) -> bool:
        """Whether the commitment pins the draw's side files (version 2 on)."""
        return self.version >= REQUEST_COMMITMENT_VERSION

    @property
    def command(self) -> str:
        return str(self.body["draw"]["command"])

    def unpinned(self) -> list[str]:
        """The files a version 1 commitment's options name, which it did not pin."""
        if self.pins_files:
            return []
        options = [str(x) for x in self.body["draw"].get("options") or []]
        return [
            f"{x} {options[i + 1]}" if "=" not in x and i + 1 < len(options) else x
            for i, x in enumerate(options)
            if x.partition("=")[0] in SIDE_OPTIONS
        ]

    def to_json(self) -> str:
        return json.dumps(
            {"commitment": self.body, "sha256": self.sha256}, ensure_ascii=False, indent=2
        )


def load_commitment(path: str) -> Commitment:
    """The commitment in the file at ``path``, its hash checked against its body."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        body, digest = data["commitment"], data["sha256"]
        ok = isinstance(body, dict) and body.get("commitment_version") in (
            COMMITMENT_VERSION,
            REQUEST_COMMITMENT_VERSION,
        )
        ok = ok and isinstance(body.get("draw"), dict) and isinstance(body.get("list"), dict)
    except (ValueError, KeyError, TypeError, RecursionError):
        ok, body, digest = False, {}, ""
    if not ok:
        raise ListError(f"{path}: not a commitment xlshuffle commit wrote (version 1 or 2)")
    return Commitment(body, checked_hash(path, body, digest))


def checked_hash(where: str, body: dict[str, Any], digest: object) -> str:
    """The hash of ``body``, refused unless it is ``digest``."""
    got = commitment_sha256(body)
    if got != digest:
        raise ListError(
            f"{where}: the commitment's hash is {got}, not the {digest!r} it states: it was "
            "edited after it was made"
        )
    return got


# --------------------------------------------------------------------------- the list


def dry_run(request: DrawRequest, seed: Seed = _DRY_SEED) -> dict[str, Any]:
    """The record ``request`` gives with ``seed``, nothing written."""
    dry = request.replace(seed=seed, output=Output(dry_run=True))
    return run(dry).record


def rows_of(src: str, record: dict[str, Any]) -> list[list[str]]:
    """The rows the draw ``record`` read from ``src``, as texts (header first, if any)."""
    if (record.get("target") or {}).get("kind") == "list":
        from ..lists import DEFAULT_MAX_MB
        from ..lists.raffle import list_rows

        return list_rows(src, header=bool(record["header"]), max_bytes=DEFAULT_MAX_MB * 1024**2)
    from ..workbook import DrawRecord
    from ..workbook.plaintables import record_rows

    return record_rows(src, DrawRecord.from_dict(record))


def _streamed(record: dict[str, Any]) -> bool:
    """Whether the draw ``record`` states read its list through DuckDB: a list of any
    size, digested as it streams, with no entrant hashes."""
    return (record.get("target") or {}).get("engine") == "duckdb"


def _listed(src: str, record: dict[str, Any]) -> tuple[str, int, list[list[str]] | None]:
    """The list digest of the rows the draw ``record`` read from ``src``, the number of
    its data rows, and the rows themselves (None when the list was streamed)."""
    if not _streamed(record):
        rows = rows_of(src, record)
        return rows_sha256(rows), len(rows) - (1 if record["header"] else 0), rows
    from ..sql.source import is_table_file

    if is_table_file(src):
        raise OptionError(
            f"{src}: a commitment digests a list's rows as texts, which a Parquet file does "
            "not have: save it as CSV (DuckDB: COPY (FROM 'file.parquet') TO 'file.csv') and "
            "commit to that"
        )
    from ..lists.raffle import list_digest

    digest, n = list_digest(src, header=bool(record["header"]))
    return digest, n, None


def _entrants(rows: list[list[str]], header: bool, salt: str) -> list[str]:
    return sorted(entrant_sha256(salt, row) for row in rows[1 if header else 0 :])


def _entrant_ids(rows: list[list[str]], record: dict[str, Any], salt: str) -> list[str] | None:
    """The salted hashes of the entrants' IDs (section 17, step 5), each once, sorted: None
    for a draw without an ID column."""
    column = ((record.get("target") or {}).get("draw") or {}).get("id")
    if column is None:
        return None
    j = int(column["index"])
    data = rows[1 if record["header"] else 0 :]
    ids = {row[j].strip() for row in data if j < len(row) and row[j].strip()}
    return sorted({entrant_id_sha256(salt, i) for i in ids})


def check_list(
    request: DrawRequest, commitment: Commitment, salt: str | None, seed: Seed = _DRY_SEED
) -> dict[str, Any]:
    """Refuse ``request.src`` unless its rows are the committed ones (and the salt the
    committed entrant hashes', and its entrants the committed population); the dry run's
    record with ``seed``."""
    record = dry_run(request, seed)
    check_rows(request.src, record, commitment, salt)
    check_population(request, commitment)
    return record


def check_population(request: DrawRequest, commitment: Commitment) -> None:
    """Refuse ``request``'s file unless its entrants have the population digest the
    commitment holds (a ticket draw's, section 18; nothing to check without one)."""
    held = commitment.body.get("population")
    if held is None:
        return
    got = population_of(request)
    if got != held:
        digest = (
            "none"
            if got is None
            else f"{got['entrants']} entrants digest to {got['sha256'][:16]}..."
        )
        raise ListError(
            f"{request.src}: not the committed population: its {digest}, the commitment's "
            f"{held.get('entrants')} to {str(held.get('sha256'))[:16]}...: draw from the list "
            "as it was committed"
        )


def check_rows(src: str, record: dict[str, Any], commitment: Commitment, salt: str | None) -> None:
    """Refuse ``src`` unless the rows the draw ``record`` read from it are the committed
    ones (and the salt gives the committed entrant hashes)."""
    digest, count, rows = _listed(src, record)
    listed = commitment.body["list"]
    if digest != listed["sha256"]:
        raise ListError(
            f"{src}: not the committed list: its {count} rows "
            f"({record['selection']}) digest to {digest[:16]}..., the "
            f"commitment's to {str(listed['sha256'])[:16]}...: draw from the list as it was "
            "committed"
        )
    held = commitment.body.get("entrants")
    if salt is None or held is None:
        return
    if rows is None:
        raise ListError(
            "the entrant hashes are checked by the list engine: leave out --engine duckdb"
        )
    if _entrants(rows, bool(record["header"]), salt) != held.get("salted_sha256"):
        raise ListError("the salt given does not give the committed entrant hashes")
    by_id = held.get("ids_salted_sha256")
    if by_id is not None and _entrant_ids(rows, record, salt) != by_id:
        raise ListError("the salt given does not give the committed hashes of the IDs")


def committed_request(
    made: Commitment, where: str, src: str, given: dict[str, str] | None = None
) -> DrawRequest:
    """The committed draw on ``src``: from the canonical request and the pinned side files
    (found beside the commitment file ``where``, or at the paths ``given`` for their
    options, each checked against its pin) or, for a version 1 commitment, from its
    options' texts (:meth:`Commitment.unpinned` names the files they read unchecked)."""
    body = made.body
    try:
        if not made.pins_files:
            return legacy_request(made.command, src, [str(x) for x in body["draw"]["options"]])
        sides = side_files(made.body, where, given)
        exclude = next((f for f in sides if f.option == "--exclude"), None)
        request = body["draw"]["request"]
        id_column = ((request.get("sample") or {}).get("draw") or {}).get("id")
        return DrawRequest.from_canonical(
            request,
            src=src,
            seed=_DRY_SEED,
            excluded=None if exclude is None else read_excluded(exclude.path, id_column),
            side_files=sides,
        )
    except XlshuffleError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise ListError(f"{where}: its committed draw cannot be read ({exc!r})") from None


# --------------------------------------------------------------------------- commit, draw


def commit(
    request: DrawRequest,
    *,
    beacon: str,
    entrant_hashes: bool = False,
    tool_version: str = "",
    now: Callable[[], _dt.datetime] | None = None,
) -> tuple[Commitment, dict[str, Any], str | None]:
    """Commit to ``request`` (its seed and output are ignored): the commitment, the dry
    run's record it rests on, and the secret salt of the entrant hashes (or None)."""
    if not beacon.strip():
        raise OptionError("--beacon is blank: name the public randomness that will seed the draw")
    record = dry_run(request)
    digest, count, rows = _listed(request.src, record)
    if entrant_hashes and rows is None:
        raise OptionError(
            "--entrant-hashes holds a hash of every row, which the DuckDB engine does not "
            "keep: leave out --engine duckdb, or leave out --entrant-hashes (the population "
            "digest fixes the entrants)"
        )
    header = bool(record["header"])
    salt = new_salt() if entrant_hashes else None
    time = (now or (lambda: _dt.datetime.now(_dt.UTC)))().replace(microsecond=0)
    body: dict[str, Any] = {
        "commitment_version": REQUEST_COMMITMENT_VERSION,
        "protocol": PROTOCOL,
        "draw": {"command": request.kind, "request": request.canonical()},
        "inputs": pins(request, record),
        "list": {
            "file": os.path.basename(request.src),
            "sheet": record["sheet"],
            "selection": record["selection"],
            "header": header,
            "rows": count,
            "sha256": digest,
        },
        "beacon": beacon,
        "entrants": None if salt is None or rows is None else _entrant_hashes(rows, record, salt),
        "tool_version": tool_version,
        "time_utc": time.isoformat()[:19] + "Z",
    }
    population = population_of(request)
    if population is not None:  # a ticket draw: its entrants, as a database computes them
        body["population"] = population
    return Commitment(body, commitment_sha256(body)), record, salt


def _entrant_hashes(rows: list[list[str]], record: dict[str, Any], salt: str) -> dict[str, Any]:
    """The commitment's ``entrants``: each row's salted hash and, with an ID column, each
    ID's, so that an entrant checks their entry by their ID alone."""
    held: dict[str, Any] = {"salted_sha256": _entrants(rows, bool(record["header"]), salt)}
    by_id = _entrant_ids(rows, record, salt)
    if by_id is not None:
        held["ids_salted_sha256"] = by_id
    return held


def draw(
    request: DrawRequest,
    commitment: Commitment,
    reveal: list[str],
    *,
    salt: str | None = None,
    out: BinaryIO | None = None,
) -> DrawResult:
    """Draw the committed ``request`` (built from the commitment, on the list and with the
    side files as found now) with the seed of the commitment hash and the revealed
    values; its result, the record holding the commitment and the values (``out``: as
    for :func:`~xlshuffle.filedraw.run.run`). Refuses a list that is not
    the committed one, and a draw that took from a side file anything else than what the
    commitment pinned."""
    values = reveal_values(reveal)
    seed = Seed(commit_seed(commitment.sha256, values))
    check_list(request, commitment, salt)
    result = run(request.replace(seed=seed), out=out)
    record = result.record
    problems = pin_problems(commitment.body, record)
    if problems:  # the side files were checked by hash: this is a bug, not a forgery
        raise ListError(f"the committed draw does not hold: {problems[0]}")
    record["commitment"] = {"body": commitment.body, "sha256": commitment.sha256, "salt": salt}
    record["reveal"] = values
    return result


def check_record(record: Any, request: DrawRequest | None) -> str:
    """``verify``'s check of a committed draw's ``record`` (a
    :class:`~xlshuffle.workbook.DrawRecord` or a list's, with ``.commitment``, ``.reveal``
    and ``.seed``): the commitment's hash, the seed it and the revealed values give, what
    the draw took from each pinned side file and, with ``request`` (the committed request
    on the input, its side files found), that the input is the committed list and the
    committed draw on it gives the recorded result. Returns the line to print; raises
    ListError at the first thing that does not hold."""
    held = record.commitment
    if not isinstance(held, dict) or not isinstance(held.get("body"), dict):
        raise ListError("record: its commitment is damaged: give the record xlshuffle draw wrote")
    commitment = Commitment(held["body"], checked_hash("record", held["body"], held.get("sha256")))
    try:
        seed = commit_seed(commitment.sha256, record.reveal or [])
    except OptionError as exc:
        raise ListError(f"record: its revealed values: {exc}") from None
    if record.seed != seed:
        raise ListError(
            f"record: seed {record.seed!r} is not the one the commitment "
            f"{commitment.sha256[:16]}... and the revealed value(s) give ({seed!r})"
        )
    problems = pin_problems(commitment.body, record.to_dict())
    if problems:
        raise ListError(f"record: not the committed draw: {problems[0]}")
    values = " / ".join(record.reveal)
    head = f"commitment {commitment.sha256[:16]}..."
    if request is None:
        return (
            f"ok: {head} and the seed it gives with the revealed value(s) {values} checked; "
            "give --input IN to check the list too"
        )
    again = check_list(request, commitment, held.get("salt"), Seed(seed))
    if again["permutation"] != record.permutation:
        raise ListError(
            "record: the committed draw on this list does not give the recorded result: the "
            "record was not made with the committed options"
        )
    return (
        f"ok: {request.src} is the committed list ({head}), the seed follows from it and the "
        f"revealed value(s) {values}, and the committed draw gives the recorded result"
    )
