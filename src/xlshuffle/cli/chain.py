"""A commitment's chain: reading a commitment and checking a list and a record against it.

What ``xlshuffle draw`` checks before it draws (:func:`check_list`) and what ``verify``
adds for a committed draw's record (:func:`check_commitment`), with the dry run of the
committed draw both rest on (:func:`dry_record`): protocol section 17.
"""

from __future__ import annotations

import json
from typing import Any

from ..draw.commit import (
    COMMITMENT_VERSION,
    commit_seed,
    commitment_sha256,
    entrant_sha256,
    rows_sha256,
)
from ..draw.errors import ListError, OptionError

__all__ = ["check_commitment", "check_list", "dry_record", "entrants", "load_commitment", "rows_of"]


def dry_record(command: str, src: str, options: list[str], seed: str) -> dict[str, Any]:
    """The record the draw ``command`` with ``options`` gives on ``src`` with ``seed``:
    the command itself, run with ``--dry-run --json`` (nothing written), its JSON record
    read from its output and its one-line refusal raised as this command's."""
    import contextlib
    import io

    from . import UsageError, main

    raw, err = io.BytesIO(), io.StringIO()
    out = io.TextIOWrapper(raw, encoding="utf-8")  # with a .buffer, as a list's sample writes
    argv = [command, src, *options, "--seed", seed, "--dry-run", "--json"]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    out.flush()
    if code != 0:
        lines = [x for x in err.getvalue().splitlines() if x.startswith("Error: ")]
        message = lines[0].removeprefix("Error: ") if lines else f"{src}: the draw failed"
        if " (see 'xlshuffle " in message:  # the draw's parser: name the draw's help
            message = (
                f"{message.partition(' (see ')[0]}: the draw's options are those "
                f"'xlshuffle {command}' takes (see 'xlshuffle {command} --help')"
            )
        raise UsageError(message) if code == 2 else ListError(message)
    record: dict[str, Any] = json.loads(raw.getvalue().decode("utf-8").splitlines()[0])
    return record


def rows_of(src: str, record: dict[str, Any]) -> list[list[str]]:
    """The rows the draw ``record`` read from ``src``, as texts (header first, if any)."""
    if (record.get("target") or {}).get("kind") == "list":
        from ..lists import DEFAULT_MAX_MB
        from ..lists.raffle import list_rows

        return list_rows(src, header=bool(record["header"]), max_bytes=DEFAULT_MAX_MB * 1024**2)
    from ..workbook import DrawRecord
    from ..workbook.tables import record_rows

    return record_rows(src, DrawRecord.from_dict(record))


def entrants(rows: list[list[str]], header: bool, salt: str) -> list[str]:
    return sorted(entrant_sha256(salt, row) for row in rows[1 if header else 0 :])


def load_commitment(path: str) -> tuple[dict[str, Any], str]:
    """The commitment's body and hash from ``path``, the hash checked against the body."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        body, digest = data["commitment"], data["sha256"]
        ok = isinstance(body, dict) and body.get("commitment_version") == COMMITMENT_VERSION
    except (ValueError, KeyError, TypeError, RecursionError):
        ok, body, digest = False, {}, ""
    if not ok:
        raise ListError(f"{path}: not a commitment xlshuffle commit wrote (version 1)")
    return body, _checked(path, body, digest)


def _checked(where: str, body: dict[str, Any], digest: object) -> str:
    got = commitment_sha256(body)
    if got != digest:
        raise ListError(
            f"{where}: the commitment's hash is {got}, not the {digest!r} it states: it was "
            "edited after it was made"
        )
    return got


def check_list(src: str, body: dict[str, Any], seed: str, salt: str | None) -> dict[str, Any]:
    """Refuse ``src`` unless its rows are the committed ones; the dry record."""
    draw = body["draw"]
    record = dry_record(str(draw["command"]), src, list(draw["options"]), seed)
    rows = rows_of(src, record)
    if rows_sha256(rows) != body["list"]["sha256"]:
        header = bool(record["header"])
        raise ListError(
            f"{src}: not the committed list: its {len(rows) - header} rows ({record['selection']})"
            f" digest to {rows_sha256(rows)[:16]}..., the commitment's to "
            f"{str(body['list']['sha256'])[:16]}...: draw from the list as it was committed"
        )
    held = body.get("entrants")
    hashes = None if held is None else held.get("salted_sha256")
    if salt is not None and entrants(rows, bool(record["header"]), salt) != hashes:
        raise ListError("the salt given does not give the committed entrant hashes")
    return record


def check_commitment(record: Any, src: str | None) -> str:
    """``verify``'s check of a committed draw's record: the commitment's hash, the seed
    derived from it and the revealed values and, with ``src``, that ``src`` is the
    committed list and that the committed draw on it gives the recorded result. Returns
    the line to print; raises ListError at the first thing that does not hold."""
    held = record.commitment
    if not isinstance(held, dict) or not isinstance(held.get("body"), dict):
        raise ListError("record: its commitment is damaged: give the record xlshuffle draw wrote")
    body = held["body"]
    digest = _checked("record", body, held.get("sha256"))
    try:
        seed = commit_seed(digest, record.reveal or [])
    except OptionError as exc:
        raise ListError(f"record: its revealed values: {exc}") from None
    if record.seed != seed:
        raise ListError(
            f"record: seed {record.seed!r} is not the one the commitment {digest[:16]}... and "
            f"the revealed value(s) give ({seed!r})"
        )
    if src is None:
        return (
            f"ok: commitment {digest[:16]}... and the seed it gives with the revealed value(s) "
            f"{' / '.join(record.reveal)} checked; give --input IN to check the list too"
        )
    again = check_list(src, body, seed, held.get("salt"))
    if again["permutation"] != record.permutation:
        raise ListError(
            "record: the committed draw on this list does not give the recorded result: the "
            "record was not made with the committed options"
        )
    return (
        f"ok: {src} is the committed list (commitment {digest[:16]}...), the seed follows "
        f"from it and the revealed value(s) {' / '.join(record.reveal)}, and the committed "
        "draw gives the recorded result"
    )
