"""Rounds: when a winner does not answer, the prize goes to the next reserve, in a new
record that links to the one before it, and nothing earlier is rewritten.

``xlshuffle redraw R --replace ID --reason TEXT`` reads the draw of ``R`` again from its
input (a CSV/TSV list), finds where every drawn entrant stands after the rounds before
(:func:`standing`), gives the place of ``ID`` to the first reserve of its prize not yet
called (the next reserve by rank, without a prize table), writes the whole table, replaced
winners kept and marked with the reason, and a record of the round holding the SHA-256 of
the record before it. :func:`verify_round` walks the chain back to the draw and checks
every step.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import os
from dataclasses import dataclass
from typing import Any

from .. import __version__
from ..common.digest import bytes_sha256
from ..common.files import write_atomically
from ..draw.errors import ListError, OptionError
from ..draw.protocol import PROTOCOL
from ..draw.raffle import RESERVE, WINNER, canonical_id
from ..tabledraw.raffles import replay
from ..tabledraw.winners import csv_text, delimiter_for

__all__ = ["REPLACED", "Placed", "Standing", "redraw", "standing", "verify_round"]

PathLike = str | os.PathLike[str]

#: The role of a winner whose place went to a reserve.
REPLACED = "replaced"


@dataclass(frozen=True)
class Placed:
    """One drawn entrant: its data row (0-based), ID, fields, prize (None without a prize
    table), place within its prize and role, its role's rank among the reserves, and a
    note (why it was replaced, or whom it replaces)."""

    row: int
    id: str
    values: tuple[object, ...]
    prize: str | None
    place: int
    role: str
    note: str = ""


@dataclass(frozen=True)
class Standing:
    """Every drawn entrant of a draw after its rounds, in draw order, and the list's
    labels (its header fields)."""

    labels: tuple[str, ...]
    placed: tuple[Placed, ...]
    prizes: bool

    def table(self) -> list[list[object]]:
        """The rows ``redraw`` writes: the labels, then each drawn entrant's fields and
        its Prize (with a prize table), Place, Role and Note."""
        head: list[object] = [*self.labels, *(["Prize"] if self.prizes else []), "Place"]
        head += ["Role", "Note"]
        out: list[list[object]] = [head]
        for p in self.placed:
            prize = [p.prize] if self.prizes else []
            out.append([*p.values, *prize, p.place, p.role, p.note])
        return out

    def replace(self, entrant: str, reason: str) -> tuple[Standing, dict[str, Any]]:
        """The standing after the winner ``entrant``'s place goes to the first reserve of
        its prize not yet called; and the record's account of the change."""
        wanted = canonical_id(entrant)
        at = next((n for n, p in enumerate(self.placed) if p.id == wanted), None)
        if at is None:
            raise OptionError(
                f"--replace {entrant}: no entrant drawn has this ID: give the ID of a winner"
            )
        out = self.placed[at]
        if out.role != WINNER:
            raise OptionError(
                f"--replace {entrant}: this entrant is a{'n' if out.role[0] in 'aeiou' else ''} "
                f"{out.role}, not a winner: only a winner's place can go to a reserve"
            )
        if not reason.strip():
            raise OptionError("--reason: say why the winner is replaced (it goes in the record)")
        step = next(
            (n for n, p in enumerate(self.placed) if p.role == RESERVE and p.prize == out.prize),
            None,
        )
        if step is None:
            prize = f" of {out.prize!r}" if out.prize is not None else ""
            raise OptionError(
                f"--replace {entrant}: no reserve{prize} is left to call: draw again from "
                "the entrants not yet drawn (xlshuffle sample ... --exclude R --id COL)"
            )
        reserve = self.placed[step]
        placed = list(self.placed)
        placed[at] = dataclasses.replace(out, role=REPLACED, note=reason.strip())
        placed[step] = dataclasses.replace(
            reserve,
            role=WINNER,
            place=out.place,
            note=f"replaces {out.id} (reserve {reserve.place})",
        )
        change = {
            "replace": {"id": out.id, "prize": out.prize, "place": out.place},
            "reason": reason.strip(),
            "given_to": {"id": reserve.id, "prize": reserve.prize, "reserve": reserve.place},
        }
        return Standing(self.labels, tuple(placed), self.prizes), change


def _draw_standing(record: dict[str, Any], src: str) -> Standing:
    """Where every entrant drawn by the sample ``record`` stands, drawn again from ``src``."""
    from ..lists.lines import DEFAULT_MAX_MB
    from ..lists.opened import Opened
    from ..lists.raffle import Fields

    if record.get("command") != "sample" or (record.get("target") or {}).get("kind") != "list":
        raise OptionError(
            "redraw takes the record of a sample of a CSV/TSV list (a workbook's draw: "
            "sample the same table saved as CSV)"
        )
    spec = record["target"].get("draw") or {}
    if spec.get("id") is None:
        raise OptionError(
            "a draw's standing names its entrants by ID: the draw needs --id COL (and, for "
            "a round, reserves: --reserves R, or a --prizes table with reserves)"
        )
    op = Opened(src, bool(record["header"]), DEFAULT_MAX_MB * 1024**2)
    if op.sha256 != record["input_sha256"]:
        raise ListError(f"{op.path}: not the recorded input (SHA-256 differs)")
    ents = Fields(op).entrants()
    drawn = replay(ents, spec, str(record["seed"]))
    if drawn.rows != record["permutation"]:
        raise ListError(f"record: seed {record['seed']!r} does not draw these rows again")
    ids = ents.values(int(spec["id"]["index"]))
    width = len(ents.letters)
    labels = tuple(ents.labels) if ents.labels is not None else tuple(ents.letters)
    at = {label: n for n, label in enumerate(drawn.extra_labels)}
    placed = []
    for n, (row, extra) in enumerate(zip(drawn.rows, drawn.extra, strict=True), 1):
        prize = str(extra[at["Prize"]]) if "Prize" in at else None
        rank = at.get("Place", at.get("Rank"))
        place = n if rank is None else int(str(extra[rank]))
        role = str(extra[at["Role"]]) if "Role" in at else WINNER
        values = tuple(ents.values(j)[row] for j in range(width))
        placed.append(Placed(row, canonical_id(ids[row]), values, prize, place, role))
    return Standing(labels[:width], tuple(placed), "Prize" in at)


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


def standing(record: dict[str, Any], where: str, src: str) -> Standing:
    """Where every drawn entrant stands after the record at ``where`` (a sample's, or a
    round's, whose chain is followed back to the draw and checked step by step)."""
    if record.get("command") != "redraw":
        return _draw_standing(record, src)
    before, path = _previous(record, where)
    now, change = standing(before, path, src).replace(
        str(record["replace"]["id"]), str(record["reason"])
    )
    stated = {key: record[key] for key in ("replace", "reason", "given_to")}
    if change != stated:
        raise ListError(
            f"{where}: this round says {stated['given_to']['id']!r} takes the place of "
            f"{stated['replace']['id']!r}; the rules give it to {change['given_to']['id']!r}"
        )
    return now


def redraw(
    record_path: PathLike,
    replace: str,
    reason: str,
    *,
    input: PathLike | None = None,
    output: PathLike | None = None,
) -> tuple[dict[str, Any], Standing]:
    """A round: the place of the winner ``replace`` goes to the next reserve of its prize.

    Returns the round's record (to be written beside the record it follows) and the
    standing after it; writes ``output`` (the whole table, CSV or TSV by its name).
    """
    where = os.fspath(record_path)
    with open(where, "rb") as fh:
        data = fh.read()
    try:
        record = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ListError(f"{where}: not a draw record (not JSON)") from None
    src = os.fspath(input) if input is not None else str(record.get("input", ""))
    if not os.path.isfile(src):
        raise OptionError(
            f"{where}: its input {src} is not here: give it with --input IN (the list drawn)"
        )
    now, change = standing(record, where, src).replace(replace, reason)
    written, digest = None, None
    if output is not None:
        text = csv_text(now.table(), delimiter_for(output)).encode("utf-8")
        write_atomically(os.fspath(output), text)
        written, digest = os.fspath(output), bytes_sha256(text)
    out = {
        "protocol": PROTOCOL,
        "tool": "xlshuffle",
        "record_version": 2,
        "command": "redraw",
        "seed": record["seed"],
        "input": src,
        "input_sha256": record["input_sha256"],  # the input standing() read checked by it
        "header": record["header"],
        "previous": {"file": os.path.basename(where), "sha256": bytes_sha256(data)},
        **change,
        "output": written,
        "output_sha256": digest,
        "tool_version": __version__,
        "time_utc": _dt.datetime.now(_dt.UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    return out, now


def verify_round(record_path: PathLike, src: PathLike, saved: PathLike | None = None) -> str:
    """Check a round's record: the chain back to the draw (each record beside the next,
    each by its SHA-256), the draw drawn again from ``src``, every step by the rules, and
    ``saved`` (the table the round wrote). Returns the verdict's line; raises ListError at
    the first difference."""
    where = os.fspath(record_path)
    with open(where, encoding="utf-8") as fh:
        record = json.load(fh)
    now = standing(record, where, os.fspath(src))
    if saved is not None:
        text = csv_text(now.table(), delimiter_for(saved)).encode("utf-8")
        with open(saved, "rb") as fh:
            if fh.read() != text:
                raise ListError(f"{os.fspath(saved)}: not the table this round gives")
    rounds, at, path = 0, record, where
    while at.get("command") == "redraw":
        rounds += 1
        at, path = _previous(at, path)
    given = record["given_to"]
    return (
        f"ok: round {rounds} of the draw of {record['input']} with seed {record['seed']}: "
        f"{record['replace']['id']}'s place went to {given['id']} by the rules, the chain "
        "of records checked back to the draw, drawn again from its input"
        + ("; the table checked" if saved is not None else "")
    )
