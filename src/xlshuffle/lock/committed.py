"""Draw and lock, committed: commit to the selected list now, draw from a revealed value later.

Protocol section 17 in a workbook. :func:`commit` digests the selected rows (as texts,
the way ``xlshuffle commit`` reads the same cells of the saved workbook), fixes the draw
(``sample``, ``shuffle`` or ``groups`` with its options, as command-line options) and
the announced public randomness (the beacon), and logs a ``commit`` row on the ``Draw
log`` sheet with the commitment hash to publish and the commitment itself (the text of
the file ``xlshuffle commit`` writes). :func:`draw` takes the newest commit row (or the
one named by its hash), refuses if the committed cells no longer hold the committed
list, derives the seed from the hash and the revealed values and runs the committed draw
exactly as the plain draw-and-lock command does, with that seed: same written values,
same log row (its formula and command line replay it), plus the commitment columns.

Several revealed values are typed in one field, separated by `` / `` (a ``/`` with
white space on both sides): section 17 forbids ``/`` inside a value, so any other ``/``
is refused rather than silently splitting a date such as ``2026/12/04`` into three.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..common.celltext import text_of
from ..draw.commit import (
    COMMITMENT_VERSION,
    commit_seed,
    commitment_sha256,
    reveal_values,
    rows_sha256,
)
from ..draw.errors import ListError, OptionError, SeedError, SizeError, WorkbookError
from ..draw.protocol import PROTOCOL
from ..functions import arguments
from .book import (
    COMMIT_COLUMNS,
    LOG_SHEET,
    MAX_SEED,
    a1,
    append_row,
    log_sheet,
    now,
    number,
    selection,
    version,
)
from .log import LOG_COLUMNS, Draw, Rows, log_text, sheet_ref, values_sha256
from .spreadsheet import Book

__all__ = ["COMMIT_MODE", "Commitment", "commit", "draw", "list_texts"]

#: The log's ``mode`` of a commitment row (it draws nothing; restore skips it).
COMMIT_MODE = "commit"
#: The draws a commitment may fix: the name typed (command-line name or lock mode) ->
#: the command-line command and the lock mode.
_KINDS = {
    "sample": ("sample", "winners"),
    "winners": ("sample", "winners"),
    "shuffle": ("shuffle", "shuffle"),
    "groups": ("groups", "groups"),
}
_MAX_BEACON = 1000
_SEPARATOR = re.compile(r"(?<=\s)/(?=\s)")
_COLUMNS = (*LOG_COLUMNS, *COMMIT_COLUMNS)

#: ``run(book, mode, k, *, at=..., seeded=..., more=...)``: the plain locked draw.
Runner = Callable[..., Draw]


@dataclass(frozen=True)
class Commitment:
    """A commitment as logged: its hash (to publish) and its body."""

    sha256: str
    body: dict[str, Any]

    @property
    def what(self) -> str:
        """The committed draw as its command-line words: ``sample -k 3``."""
        options = self.body["draw"]["options"][4:]
        return " ".join([self.body["draw"]["command"], *options])


def _text(value: Any) -> str:
    """A form field as text ("" for nothing)."""
    return "" if value is None else log_text(value).strip()


_EXCEL_DAY_ZERO = dt.date(1899, 12, 30)  # serial 0 of the 1900 date system


def _cell(value: Any) -> str:
    """A cell's text as ``xlshuffle sample`` reads it from the saved workbook (section 17).

    A time alone (serial ``0 <= v < 1``) comes from Office.js as a time of 1899-12-30, and
    from COM as such a datetime; the saved workbook reads it as a time."""
    if isinstance(value, dt.datetime) and value.date() == _EXCEL_DAY_ZERO:
        value = value.time()
    return text_of(value)


def list_texts(rows: Rows) -> list[list[str]]:
    """The rows as the list digest takes them: texts, empty fields at the end left out."""
    out = []
    for row in rows:
        texts = [_cell(v) for v in row]
        while texts and not texts[-1]:
            texts.pop()
        out.append(texts)
    return out


def _options(sheet: str, address: str, k: int | None) -> list[str]:
    return ["--sheet", sheet, "--range", address, *([] if k is None else ["-k", str(k)])]


def _file_text(body: dict[str, Any], digest: str) -> str:
    """The commitment as the file ``xlshuffle commit`` writes (``xlshuffle draw`` reads it)."""
    data = {"commitment": body, "sha256": digest}
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _row(fields: dict[str, str]) -> list[str]:
    return [fields.get(name, "") for name in _COLUMNS]


# --------------------------------------------------------------------------- commit


def commit(book: Book, draw: Any = "sample", k: Any = 1, beacon: Any = "") -> Commitment:
    """Commit to the selected rows, the draw ``draw`` (``sample``, ``shuffle`` or
    ``groups``; ``k`` winners or groups) and the public randomness ``beacon`` announces:
    log a ``commit`` row with the commitment hash to publish. Nothing else is written."""
    typed = _text(draw).casefold() or "sample"
    if typed not in _KINDS:
        raise OptionError(
            f"draw must be sample, shuffle or groups (the draws a commitment fixes), not {typed!r}"
        )
    command, mode = _KINDS[typed]
    announced = _text(beacon)
    if not announced:
        raise OptionError(
            "beacon is empty: name the public random value that will seed the draw, such as "
            "'EuroMillions 2026-12-04: the five main numbers'"
        )
    if len(announced) > _MAX_BEACON:
        raise OptionError(f"beacon has {len(announced):,} characters: say it in {_MAX_BEACON:,}")
    n = None if mode == "shuffle" else arguments.count("k", number(k))
    sheet, rng, rows = selection(book)
    if mode == "winners" and n is not None and n > len(rows):
        raise SizeError(
            f"cannot draw {n} winners from {len(rows)} rows: draw fewer or select more rows"
        )
    texts = list_texts(rows)
    blank = next((i for i, row in enumerate(texts) if not row), None)
    if blank is not None:
        raise ListError(
            f"row {rng.row + blank} of the selection {a1(rng)} is blank: a committed list has "
            "no blank rows (the command line would skip it, the draw would not); delete it"
        )
    address, time = a1(rng), now()
    body: dict[str, Any] = {
        "commitment_version": COMMITMENT_VERSION,
        "protocol": PROTOCOL,
        "draw": {"command": command, "options": _options(sheet.name, address, n)},
        "list": {
            "file": book.name,
            "sheet": sheet.name,
            "selection": f"{sheet_ref(sheet.name)}!{address}",
            "header": False,
            "rows": len(rows),
            "sha256": rows_sha256(texts),
        },
        "beacon": announced,
        "entrants": None,
        "tool_version": version(),
        "time_utc": time,
    }
    digest = commitment_sha256(body)
    done = Commitment(digest, body)
    log = log_sheet(book)
    row = _row(
        {
            "time (UTC)": time,
            "sheet": sheet.name,
            "range": address,
            "mode": COMMIT_MODE,
            "k": "" if n is None else str(n),
            "protocol": PROTOCOL,
            "version": version(),
            "input sha256": values_sha256(rows),
            "options": done.what,
            "commitment sha256": digest,
            "list sha256": body["list"]["sha256"],
            "beacon": announced,
            "commitment": _file_text(body, digest),
        }
    )
    append_row(book, log, row)
    return done


# --------------------------------------------------------------------------- draw


def _values(reveal: Any) -> list[str]:
    given = _text(reveal)
    if not given:
        raise OptionError(
            "reveal is empty: type the revealed value as it was published (several: in the "
            "beacon's order, separated by ' / ')"
        )
    parts = _SEPARATOR.split(given)
    for part in parts:
        if "/" in part:
            raise OptionError(
                f"reveal: {part.strip()[:40]!r} holds '/', which no revealed value may hold "
                "(protocol section 17): write a date as 2026-12-04, and separate values with ' / '"
            )
    return reveal_values(parts)


def _find(rows: Rows, wanted: str) -> int:
    """The log row (0-based) of the newest commitment, or of the one ``wanted`` names."""
    mode, hashes = _COLUMNS.index("mode"), _COLUMNS.index("commitment sha256")
    if wanted and not re.fullmatch("[0-9a-f]{8,64}", wanted):
        raise OptionError(
            f"commitment {wanted[:70]!r} is not a commitment hash: give its first 8 or more "
            "hex digits, or leave it empty for the newest commitment"
        )
    found = [
        i
        for i in range(len(rows) - 1, 0, -1)
        if log_text(rows[i][mode]) == COMMIT_MODE and log_text(rows[i][hashes]).startswith(wanted)
    ]
    if not found:
        named = f" {wanted}" if wanted else ""
        raise WorkbookError(
            f"the {LOG_SHEET!r} sheet holds no commitment{named}: select the list and commit it "
            "first (commit selection)"
        )
    return found[0]


def _logged(row: Sequence[Any], where: str) -> Commitment:
    """The commitment of a log row, checked: it hashes to the row's hash and is one this
    module wrote (so its sheet, range and options are safe to act on)."""
    cell = {name: log_text(row[i]) if i < len(row) else "" for i, name in enumerate(_COLUMNS)}
    try:
        data = json.loads(cell["commitment"])
        body, digest = data["commitment"], data["sha256"]
        command, options, k = body["draw"]["command"], body["draw"]["options"], None
        if command != "shuffle":
            k = int(options[5]) if options[4] == "-k" and str(options[5]).isdigit() else -1
        sheet, address = body["list"]["sheet"], options[3]
        ok = (
            isinstance(body, dict)
            and body.get("commitment_version") == COMMITMENT_VERSION
            and commitment_sha256(body) == digest == cell["commitment sha256"]
            and command in _KINDS
            and options == _options(sheet, address, k)
        )
    except (ValueError, KeyError, TypeError, IndexError, OptionError, RecursionError):
        ok = False
    if not ok:
        raise WorkbookError(
            f"{where} is not a commitment this command wrote, or was edited (its commitment "
            "does not hash to its commitment sha256): draw from an unedited commit row"
        )
    return Commitment(digest, body)


def _check_once(rows: Rows, digest: str, shown: str) -> None:
    """A commitment is drawn once, with the values published: refuse other values than
    its earlier draw's, and a second draw while the first is not restored."""
    at = {name: _COLUMNS.index(name) for name in ("commitment sha256", "reveal", "output")}
    restored = _COLUMNS.index("restored (UTC)")
    for row in rows[1:]:
        earlier = log_text(row[at["reveal"]])
        if log_text(row[at["commitment sha256"]]) != digest or not earlier:
            continue
        if earlier != shown:
            raise OptionError(
                f"the commitment {digest[:16]}... was drawn with the revealed value(s) "
                f"{earlier!r}: a commitment is drawn with the values published, not others"
            )
        if not log_text(row[restored]):
            raise OptionError(
                f"the commitment {digest[:16]}... is drawn already (into "
                f"{log_text(row[1])}!{log_text(row[at['output']])}): a commitment is drawn "
                "once; restore that draw first to draw it again"
            )


def draw(book: Book, reveal: Any, commitment: Any, run: Runner) -> Draw:
    """Draw the committed draw of the newest commitment (or the one whose hash begins
    with ``commitment``) with the seed section 17 derives from its hash and the
    ``reveal`` values (several separated by `` / ``), through ``run``; refused when the
    committed cells no longer hold the committed list."""
    values = _values(reveal)
    log = log_sheet(book)
    if log is None:
        raise WorkbookError(
            f"there is no {LOG_SHEET!r} sheet: select the list and commit it first "
            "(commit selection)"
        )
    rows = log[1]
    index = _find(rows, _text(commitment).lower())
    done = _logged(rows[index], f"row {index + 1} of {LOG_SHEET!r}")
    body, when = done.body, str(done.body["time_utc"])
    seed = commit_seed(done.sha256, values)
    if len(seed) > MAX_SEED:
        raise SeedError(
            f"the seed of this commitment and these revealed values has {len(seed)} "
            f"characters; a locked draw's seed has at most {MAX_SEED}: draw it with "
            "'xlshuffle draw' on the saved workbook (the commit row's commitment is its file)"
        )
    shown = " / ".join(values)
    _check_once(rows, done.sha256, shown)
    sheet, address = str(body["list"]["sheet"]), str(body["draw"]["options"][3])
    try:
        at = book.sheet(sheet).at(address)
    except Exception:
        raise WorkbookError(
            f"the sheet {sheet!r} of the commitment made at {when} is gone: nothing was drawn"
        ) from None
    _, rng, cells = selection(book, rng=at)
    digest = rows_sha256(list_texts(cells))
    if digest != body["list"]["sha256"]:
        raise ListError(
            f"the list changed since it was committed at {when}: {sheet_ref(sheet)}!{address} "
            f"digests to {digest[:16]}..., the commitment's list to "
            f"{str(body['list']['sha256'])[:16]}...: put the committed list back; nothing "
            "was drawn"
        )
    mode = _KINDS[str(body["draw"]["command"])][1]
    k = None if mode == "shuffle" else int(body["draw"]["options"][5])
    more = (
        done.sha256,
        str(body["list"]["sha256"]),
        str(body["beacon"]),
        shown,
        _file_text(body, done.sha256),
    )
    seeded = (seed, f"commitment {done.sha256[:16]}... and the revealed value(s)")
    return run(book, mode, k, at=rng, seeded=seeded, more=more)
