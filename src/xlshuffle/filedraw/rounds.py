"""Rounds: when a winner does not answer, the prize goes to the next reserve, in a new
record that links to the one before it, and nothing earlier is rewritten.

``xlshuffle redraw R --replace ID --reason TEXT`` reads the draw of ``R`` again from its
input (a CSV/TSV list or a workbook), finds where every drawn entrant stands after the
rounds before (:func:`standing`), gives the place of ``ID`` to the first reserve of its
prize not yet called (the next reserve by rank, without a prize table: the rule is
:mod:`xlshuffle.tabledraw.rounds`', which Excel's rounds call too), writes the whole
table, replaced winners kept and marked with the reason, and a record of the round holding
the SHA-256 of the record before it. When no reserve is left, a committed draw's place is
drawn again from fresh public randomness (protocol section 19): :func:`commit_round`
commits to the round, and :func:`redraw` with the round's commitment and the revealed
values draws it (:mod:`.freshround`). :func:`verify_round` walks the chain back to the
draw and checks every step.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Callable
from typing import Any

from .. import __version__
from ..common.digest import bytes_sha256
from ..common.files import write_atomically
from ..draw.commit import commit_seed, reveal_values
from ..draw.errors import ListError, OptionError
from ..draw.protocol import PROTOCOL
from ..draw.raffle import canonical_id
from ..tabledraw.pool import Pool
from ..tabledraw.raffle_options import DrawOptions
from ..tabledraw.raffles import replay
from ..tabledraw.rounds import Standing, placed_of
from ..tabledraw.winners import csv_text, delimiter_for
from .commitment import Commitment, checked_hash
from .freshround import round_commitment, round_of_record

__all__ = [
    "commit_round",
    "redraw",
    "standing",
    "verify_round",
]

PathLike = str | os.PathLike[str]


def _draw_commitment(record: dict[str, Any]) -> str | None:
    """The hash of a committed draw's commitment, checked with the seed it gives (None for
    a draw that was not committed)."""
    held = record.get("commitment")
    if held is None:
        return None
    if not isinstance(held, dict) or not isinstance(held.get("body"), dict):
        raise ListError("record: its commitment is damaged: give the record xlshuffle draw wrote")
    digest = checked_hash("record", held["body"], held.get("sha256"))
    try:
        seed = commit_seed(digest, [str(v) for v in record.get("reveal") or []])
    except OptionError as exc:
        raise ListError(f"record: its revealed values: {exc}") from None
    if seed != record.get("seed"):
        raise ListError("record: its seed is not the one its commitment and revealed values give")
    return digest


def _draw_standing(record: dict[str, Any], src: str) -> Standing:
    """Where every entrant drawn by the sample ``record`` stands, drawn again from ``src``."""
    from ..lists.lines import DEFAULT_MAX_MB
    from ..lists.opened import Opened
    from ..lists.raffle import Fields

    if record.get("command") != "sample" or not isinstance(record.get("target"), dict):
        raise OptionError(
            "redraw takes the record of a sample (of a CSV/TSV list or a workbook) drawn with "
            "--id and reserves or a prize table"
        )
    spec = record["target"].get("draw") or {}
    if spec.get("id") is None:
        raise OptionError(
            "a draw's standing names its entrants by ID: the draw needs --id COL (and, for "
            "a round, reserves: --reserves R, or a --prizes table with reserves)"
        )
    committed = _draw_commitment(record)
    column = int(spec["id"]["index"])
    if record["target"].get("kind") != "list":
        from ..workbook.rounds import drawn_again

        book = drawn_again(src, record)
        ids = [canonical_id(v) for v in book.ents.values(column)]
        by_row = dict(zip(book.free, ids, strict=True))
        placed = placed_of(book.drawn, [by_row[r] for r in book.drawn.rows], book.texts)
        pool = Pool(
            book.ents,
            DrawOptions.from_spec(spec),
            book.excluded(),
            tuple(ids),
            tuple(book.free),
        )
        labels = tuple(book.labels)
        return Standing(
            labels, tuple(placed), "Prize" in book.drawn.extra_labels, pool, book.texts, committed
        )
    op = Opened(src, bool(record["header"]), DEFAULT_MAX_MB * 1024**2)
    if op.sha256 != record["input_sha256"]:
        raise ListError(f"{op.path}: not the recorded input (SHA-256 differs)")
    ents = Fields(op).entrants()
    drawn = replay(ents, spec, str(record["seed"]))
    if drawn.rows != record["permutation"]:
        raise ListError(f"record: seed {record['seed']!r} does not draw these rows again")
    row_ids = [canonical_id(v) for v in ents.values(column)]
    width = len(ents.letters)
    labels = tuple(ents.labels) if ents.labels is not None else tuple(ents.letters)

    def values(row: int) -> tuple[object, ...]:
        return tuple(ents.values(j)[row] for j in range(width))

    placed = placed_of(drawn, [row_ids[r] for r in drawn.rows], values)
    exclusion = spec.get("exclusion") or {}
    pool = Pool(
        ents,
        DrawOptions.from_spec(spec),
        frozenset(exclusion.get("rows", [])),
        tuple(row_ids),
        tuple(range(ents.n)),
    )
    return Standing(
        labels[:width], tuple(placed), "Prize" in drawn.extra_labels, pool, values, committed
    )


def _previous(record: dict[str, Any], where: str) -> tuple[dict[str, Any], str]:
    """The record before a round's, found beside it by name and checked by its SHA-256."""
    link = record["previous"]
    path = os.path.join(os.path.dirname(where), os.path.basename(str(link["file"])))
    if not os.path.isfile(path):
        raise ListError(
            f"{where}: the record before this round, {link['file']}, is not beside it: put "
            "it there (a round is checked from the draw on)"
        )
    with open(path, "rb") as fh:
        data = fh.read()
    if bytes_sha256(data) != link["sha256"]:
        raise ListError(f"{path}: not the record this round follows (its SHA-256 differs)")
    return json.loads(data.decode("utf-8")), path


def _fresh_step(
    before: Standing, record: dict[str, Any], where: str
) -> tuple[Standing, dict[str, Any]]:
    """A fresh round's record checked against its commitment and the standing before it."""
    made, seed = round_of_record(record, where)
    body = made.body
    entrant, reason = str(record["replace"]["id"]), str(record["reason"])
    replace, pool, _ = before.fresh_pool(entrant, reason)
    expected = {
        "previous": record["previous"],
        "draw": before.commitment,
        "replace": replace,
        "reason": reason.strip(),
        "pool": pool.account(before.drawn_ids()),
    }
    for key, want in expected.items():
        if body.get(key) != want:
            raise ListError(
                f"{where}: the round's commitment {made.sha256[:16]}... states {key} "
                f"{body.get(key)!r}, the chain gives {want!r}: not a commitment to this round"
            )
    return before.fresh(entrant, reason, seed)


def standing(record: dict[str, Any], where: str, src: str) -> Standing:
    """Where every drawn entrant stands after the record at ``where`` (a sample's, or a
    round's, whose chain is followed back to the draw and checked step by step)."""
    if record.get("command") != "redraw":
        return _draw_standing(record, src)
    before, path = _previous(record, where)
    prior = standing(before, path, src)
    if record.get("fresh") is not None:
        now, change = _fresh_step(prior, record, where)
    else:
        now, change = prior.replace(str(record["replace"]["id"]), str(record["reason"]))
    stated = {key: record[key] for key in ("replace", "reason", "given_to")}
    if change != stated:
        raise ListError(
            f"{where}: this round says {stated['given_to']['id']!r} takes the place of "
            f"{stated['replace']['id']!r}; the rules give it to {change['given_to']['id']!r}"
        )
    return now


def _draw_of(record: dict[str, Any], where: str) -> dict[str, Any]:
    """The draw's record a round's chain starts from (``record`` itself for a draw's)."""
    while record.get("command") == "redraw":
        record, where = _previous(record, where)
    return record


def _read_record(where: str) -> tuple[dict[str, Any], bytes]:
    with open(where, "rb") as fh:
        data = fh.read()
    try:
        record = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ListError(f"{where}: not a draw record (not JSON)") from None
    if not isinstance(record, dict):
        raise ListError(f"{where}: not a draw record (not a JSON object)")
    return record, data


def _source(record: dict[str, Any], where: str, given: PathLike | None) -> str:
    src = os.fspath(given) if given is not None else str(record.get("input", ""))
    if not os.path.isfile(src):
        raise OptionError(
            f"{where}: its input {src} is not here: give it with --input IN (the list drawn)"
        )
    return src


def commit_round(
    record_path: PathLike,
    replace: str,
    reason: str,
    *,
    beacon: str,
    input: PathLike | None = None,
    now: Callable[[], _dt.datetime] | None = None,
) -> Commitment:
    """Commit to a fresh round (protocol section 19) before its public randomness is
    known: the place of the winner ``replace`` (whose prize has no reserve left) in the
    committed draw of ``record_path`` (or its last round), drawn again from the entrants
    not yet drawn with the value ``beacon`` announces."""
    where = os.fspath(record_path)
    record, data = _read_record(where)
    now_standing = standing(record, where, _source(record, where, input))
    place, pool, _ = now_standing.fresh_pool(replace, reason)
    drawn = now_standing.drawn_ids()
    account = pool.account(drawn)
    if account["entrants"] == 0:
        raise ListError("no entrant is left to draw: every entrant has been drawn or excluded")
    return round_commitment(
        previous={"file": os.path.basename(where), "sha256": bytes_sha256(data)},
        draw=str(now_standing.commitment),
        replace=place,
        reason=reason.strip(),
        pool=account,
        beacon=beacon,
        tool_version=__version__,
        now=now,
    )


def _write_table(
    now: Standing, record: dict[str, Any], src: str, output: PathLike
) -> tuple[str, str | None]:
    """Write the table after a round to ``output``: its SHA-256 and, for a workbook copy,
    the sheet added."""
    target = os.fspath(output)
    texts = [[str(v) for v in row] for row in now.table()]
    if record.get("target", {}).get("kind") != "list":
        from ..workbook.rounds import write_round

        extra = [[None if x == "" else x for x in row] for row in now.added()]  # no blank text
        added = ([str(x) for x in now.added_labels()[len(now.labels) :]], extra)
        return write_round(src, record, [p.row for p in now.placed], added, target, texts)
    text = csv_text(now.table(), delimiter_for(target)).encode("utf-8")
    write_atomically(target, text)
    return bytes_sha256(text), None


def redraw(
    record_path: PathLike,
    replace: str | None,
    reason: str | None,
    *,
    input: PathLike | None = None,
    output: PathLike | None = None,
    fresh: tuple[Commitment, list[str]] | None = None,
) -> tuple[dict[str, Any], Standing]:
    """A round: the place of the winner ``replace`` goes to the next reserve of its prize
    or, with ``fresh`` (a round's commitment, from :func:`commit_round`, and the revealed
    values), to the entrant drawn afresh (protocol section 19); ``replace`` and
    ``reason`` then come from the commitment (given, they must be its).

    Returns the round's record (to be written beside the record it follows) and the
    standing after it; writes ``output`` (the whole table: CSV or TSV by its name, or, for
    a workbook's draw, a copy of the workbook with the table on an added sheet).
    """
    where = os.fspath(record_path)
    record, data = _read_record(where)
    src = _source(record, where, input)
    before = standing(record, where, src)
    link = {"file": os.path.basename(where), "sha256": bytes_sha256(data)}
    extra: dict[str, Any] = {}
    if fresh is None:
        if replace is None or reason is None:
            raise OptionError("--replace ID and --reason TEXT: name the winner replaced and why")
        now, change = before.replace(replace, reason)
    else:
        made, values = fresh
        body = made.body
        if body["previous"] != link:
            raise ListError(
                f"the round's commitment follows {body['previous'].get('file')!r} (SHA-256 "
                f"{str(body['previous'].get('sha256'))[:16]}...), not {where}: give the record "
                "it was made for"
            )
        entrant, why = str(body["replace"]["id"]), str(body["reason"])
        if replace is not None and canonical_id(replace) != entrant:
            raise OptionError(f"--replace {replace}: the round's commitment replaces {entrant}")
        if reason is not None and reason.strip() != why:
            raise OptionError(f"--reason: the round's commitment gives the reason {why!r}")
        canon = reveal_values(values)
        seed = commit_seed(made.sha256, canon)
        record_round: dict[str, Any] = {
            "replace": body["replace"],
            "reason": why,
            "previous": link,
            "fresh": {
                "commitment": {"body": body, "sha256": made.sha256},
                "reveal": canon,
                "seed": seed,
            },
        }
        now, change = _fresh_step(before, record_round, where)
        extra["fresh"] = record_round["fresh"]
    written, digest, sheet = None, None, None
    if output is not None:
        digest, sheet = _write_table(now, _draw_of(record, where), src, output)
        written = os.fspath(output)
    out = {
        "protocol": PROTOCOL,
        "tool": "xlshuffle",
        "record_version": 2,
        "command": "redraw",
        "seed": record["seed"],
        "input": src,
        "input_sha256": record["input_sha256"],  # the input standing() read, checked by it
        "header": record["header"],
        "previous": link,
        **change,
        **extra,
        "output": written,
        "output_sha256": digest,
        **({"output_sheet": sheet} if sheet is not None else {}),
        "tool_version": __version__,
        "time_utc": _dt.datetime.now(_dt.UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    return out, now


def verify_round(record_path: PathLike, src: PathLike, saved: PathLike | None = None) -> str:
    """Check a round's record: the chain back to the draw (each record beside the next,
    each by its SHA-256), the draw drawn again from ``src``, every step by the rules (a
    fresh round by its commitment and revealed values), and ``saved`` (the table the
    round wrote). Returns the verdict's line; raises ListError at the first difference."""
    where = os.fspath(record_path)
    record, _ = _read_record(where)
    now = standing(record, where, os.fspath(src))
    if saved is not None:
        _check_table(now, record, saved)
    rounds, at, path = 0, record, where
    while at.get("command") == "redraw":
        rounds += 1
        at, path = _previous(at, path)
    given = record["given_to"]
    how = (
        f"drawn afresh from {given['pool']} entrants with the round's commitment "
        f"{record['fresh']['commitment']['sha256'][:16]}... and the revealed value(s) "
        f"{' / '.join(record['fresh']['reveal'])}"
        if record.get("fresh") is not None
        else "by the rules"
    )
    return (
        f"ok: round {rounds} of the draw of {record['input']} with seed {record['seed']}: "
        f"{record['replace']['id']}'s place went to {given['id']} {how}, the chain "
        "of records checked back to the draw, drawn again from its input"
        + ("; the table checked" if saved is not None else "")
    )


def _check_table(now: Standing, record: dict[str, Any], saved: PathLike) -> None:
    """Refuse ``saved`` unless it is the table after the round: a CSV/TSV list byte for
    byte, a workbook's added sheet value by value."""
    path = os.fspath(saved)
    if not path.lower().endswith((".csv", ".tsv", ".tab")):
        from ..workbook.rounds import check_round

        texts = [[str(v) for v in row] for row in now.table()]
        why = check_round(path, record.get("output_sheet"), texts)
        if why is not None:
            raise ListError(f"{path}: not the table this round gives: {why}")
        return
    text = csv_text(now.table(), delimiter_for(path)).encode("utf-8")
    with open(path, "rb") as fh:
        if fh.read() != text:
            raise ListError(f"{path}: not the table this round gives")
