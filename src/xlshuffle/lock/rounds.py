"""Draw and lock, rounds: a winner of a locked raffle or prize draw who does not answer
gives their place to the next reserve of the prize, in the locked cells, logged to replay.

:func:`replace_winner` takes a locked draw (*draw raffle* or *draw prizes*, the newest of
the ``Draw log`` not restored, or the one whose result holds the selected row) with the
rounds logged after it, and:

1. recomputes where every drawn entrant stands after each earlier round, from the locked
   cells, by the rule ``xlshuffle redraw`` follows
   (:meth:`~xlshuffle.tabledraw.rounds.Standing.replace`), every step checked against the
   hashes of its log row: a result or a log edited since is refused;
2. gives the place of the winner (``winner``: an ID, or empty for the selected row of the
   result) to the first reserve of its prize not yet called (the next reserve by rank in a
   raffle);
3. rewrites the result's Role and Place (a raffle's Role and Rank) and a Note column right
   of it: the replaced winner stays, marked ``replaced`` with the reason; the reserve's
   note says whom it replaces, as ``redraw``'s table does;
4. appends a ``round`` row to the log. Its command line replays the whole chain on the
   saved workbook: the draw's own command line with ``--id COL --record draw.json``, then
   one ``xlshuffle redraw`` a round (``--record round1.json``, ...; the last with ``-o
   roundN.csv``), whose records ``xlshuffle verify`` checks.

*Restore the last draw* puts the standing before a round back (:func:`undo_round`),
recomputed the same way. A prize with no reserve left is refused, saying what to do: a
place drawn afresh needs a committed draw, on the command line (protocol section 19).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

from ..common.a1 import col_index, col_letters
from ..draw.errors import OptionError, SeedError, WorkbookError
from ..draw.protocol import PROTOCOL
from ..draw.raffle import RESERVE, WINNER, canonical_id
from ..functions.arguments import SHEET_COLUMNS, show
from ..tabledraw.rounds import Placed, Standing
from .book import (
    LOG_SHEET,
    MAX_CELLS,
    a1,
    append_row,
    cells,
    log_sheet,
    now,
    selected,
    ticket_column,
    version,
    write,
)
from .log import LOG_COLUMNS, Rows, block, log_entry, log_text, values_sha256
from .spreadsheet import Book, Range, Sheet

__all__ = ["DRAW_MODES", "ROUND_MODE", "Round", "replace_winner", "round_command", "undo_round"]

#: The log's mode of a round.
ROUND_MODE = "round"
#: The locked draws that take rounds: a raffle (Role, Rank) and a prize draw (Prize,
#: Place, Role).
DRAW_MODES = ("raffle", "prizes")
#: The record the round's command line has the draw write, and what the rounds follow.
DRAW_RECORD = "draw.json"
#: The longest reason a round takes: it goes into a Note cell and every later round's
#: command line, which one cell (at most 32,767 characters) holds.
MAX_REASON = 500
_MAX_CELL = 32_767

_AT = {name: i for i, name in enumerate(LOG_COLUMNS)}
_DATE_TIME = re.compile(
    r"-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?"
)
Entry = dict[str, str]


@dataclass(frozen=True)
class Round:
    """One round locked: its number, the draw's sheet and list, the cells rewritten, the
    winner replaced and why, who took the place (a reserve of ``prize``, None in a raffle,
    called as ``reserve``) and the command line that replays the chain."""

    number: int
    sheet: str
    address: str
    output_address: str
    replaced: str
    reason: str
    given_to: str
    prize: str | None
    reserve: int
    command_line: str


# --------------------------------------------------------------------------- the chain


def _text(row: list[Any], name: str) -> str:
    at = _AT[name]
    return log_text(row[at]) if at < len(row) else ""


def _where(index: int) -> str:
    return f"row {index + 1} of {LOG_SHEET!r}"


def _live(rows: Rows, upto: int) -> list[int]:
    """The log's rows before ``upto`` that are draws not restored (0-based indexes)."""
    return [
        i
        for i in range(1, min(upto, len(rows)))
        if _text(rows[i], "time (UTC)") and not _text(rows[i], "restored (UTC)")
    ]


def _key(entry: Entry) -> tuple[str, str, str]:
    return entry["sheet"], entry["range"], entry["seed"]


def _draws(rows: Rows, upto: int) -> list[tuple[int, Entry]]:
    """The raffles and prize draws not restored before row ``upto``, newest first."""
    return [
        (i, log_entry(rows[i], _where(i), most=MAX_CELLS))
        for i in reversed(_live(rows, upto))
        if _text(rows[i], "mode") in DRAW_MODES
    ]


def _rounds_of(rows: Rows, at: int, draw: Entry, upto: int) -> list[tuple[int, Entry]]:
    """The rounds not restored of the draw at row ``at``, in order, before row ``upto``."""
    out = []
    for i in _live(rows, upto):
        if i > at and _text(rows[i], "mode") == ROUND_MODE:
            entry = log_entry(rows[i], _where(i), most=MAX_CELLS)
            if _key(entry) == _key(draw):
                out.append((i, entry))
    return out


def _segments(text: str, where: str) -> list[list[str]]:
    """A logged command line as its commands (``&&`` between them)."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = []
    out: list[list[str]] = [[]]
    for word in words:
        if word == "&&":
            out.append([])
        else:
            out[-1].append(word)
    if not out[0][:2] == ["xlshuffle", "sample"]:
        raise WorkbookError(
            f"{where}: its command line is not an xlshuffle sample (the log was edited?): "
            "nothing was written"
        )
    return out


def _value(argv: list[str], name: str) -> str | None:
    """The value of the option ``name`` in ``argv`` (``--id A`` or ``--id=A``)."""
    for n, word in enumerate(argv):
        if word == name and n + 1 < len(argv):
            return argv[n + 1]
        if word.startswith(name + "="):
            return word[len(name) + 1 :]
    return None


def _asked(entry: Entry, where: str) -> tuple[str, str]:
    """The winner a logged round replaced and why, from its command line's last redraw."""
    last = _segments(entry["command line"], where)[-1]
    who, why = _value(last, "--replace"), _value(last, "--reason")
    if last[:2] != ["xlshuffle", "redraw"] or who is None or why is None:
        raise WorkbookError(
            f"{where}: its command line does not end in xlshuffle redraw --replace ID "
            "--reason TEXT (the log was edited?): nothing was written"
        )
    return who, why


def _option(name: str, value: str) -> list[str]:
    # a value starting with "-" would be read as an option: it is given as name=value
    return [f"{name}={value}"] if value.startswith("-") else [name, value]


def round_command(sample: list[str], asked: list[tuple[str, str]]) -> str:
    """The command line of the last of the rounds ``asked`` (each the winner replaced and
    why): the draw (``sample``: its argv, ``--id`` included) writing its record, then one
    ``xlshuffle redraw`` a round, each following the record before it.

    >>> print(round_command(["xlshuffle", "sample", "B.xlsx", "--id", "A"], [("T-2", "away")]))
    xlshuffle sample B.xlsx --id A --record draw.json && xlshuffle redraw draw.json \
--replace T-2 --reason away -o round1.csv --record round1.json
    """
    parts = [shlex.join([*sample, "--record", DRAW_RECORD])]
    previous = DRAW_RECORD
    for n, (who, why) in enumerate(asked, 1):
        argv = ["xlshuffle", "redraw", previous, *_option("--replace", who)]
        argv += _option("--reason", why)
        argv += ["-o", f"round{n}.csv"] if n == len(asked) else []
        previous = f"round{n}.json"
        parts.append(shlex.join([*argv, "--record", previous]))
    return " && ".join(parts)


# --------------------------------------------------------------------------- the standing


@dataclass
class _Locked:
    """A locked draw with its rounds: where its result is (``corners``, with the Note
    column), the list's width, the ID column (1-based on the sheet), the draw's command
    line (``sample``, ``--id`` included) and the standing after the draw and each round,
    every one checked against its log row."""

    draw: Entry
    rounds: list[tuple[int, Entry]]
    sheet: Sheet
    corners: tuple[int, int, int, int]
    width: int
    id_column: int
    sample: list[str]
    asked: list[tuple[str, str]]
    standings: list[Standing]

    @property
    def prizes(self) -> bool:
        return self.draw["mode"] == "prizes"

    @property
    def ranked(self) -> bool:
        """A raffle's result has Role and Rank (with reserves; without, the rows alone)."""
        return self.draw["mode"] == "raffle" and self.draw["reserves"] not in ("", "0")

    def grid(self, standing: Standing) -> Rows:
        """What the result's cells hold at ``standing``: each drawn row, its Prize, Place
        and Role (a raffle's Role and Rank), then its Note."""
        out = []
        for p in standing.placed:
            extra: list[Any] = []
            if self.prizes:
                extra = [p.prize, p.place, p.role]
            elif self.ranked:
                extra = [p.role, p.place]
            out.append([*p.values, *extra, p.note])
        return out

    def range(self) -> Range:
        top, left, bottom, right = self.corners
        return self.sheet.range(top, left, bottom, right)

    def added(self) -> Range:
        """The columns a round rewrites: the result's Prize, Place, Role (or Role, Rank)
        and the Note."""
        top, left, bottom, right = self.corners
        return self.sheet.range(top, left + self.width, bottom, right)


def _sheet(book: Book, draw: Entry) -> Sheet:
    sheet = next((s for s in book.sheets if s.name == draw["sheet"]), None)
    if sheet is None:
        raise WorkbookError(
            f"the sheet {draw['sheet']!r} of the draw at {draw['time (UTC)']} is gone: put "
            "it back (a round changes the draw's result)"
        )
    return sheet


def _id(value: Any, where: str) -> str:
    try:
        return canonical_id(value)
    except SeedError:
        raise OptionError(f"the ID in {where} cannot be used: write a text or a number") from None


def _drawn(locked: _Locked, current: Rows, k: int) -> Standing:
    """The standing the draw locked: the result's rows as read, each with the Prize,
    Place and Role (Role and Rank) the draw gave it (section 9: the winners first, each
    place numbered within its prize), and no notes."""
    top, left = locked.corners[:2]
    offset = locked.id_column - left
    counts: dict[tuple[str | None, str], int] = {}
    placed = []
    for n, row in enumerate(current):
        values = tuple(row[: locked.width])
        role = WINNER if n < k else RESERVE
        prize = log_text(row[locked.width]) if locked.prizes else None
        counts[prize, role] = place = counts.get((prize, role), 0) + 1
        where = f"{locked.sheet.name}!{col_letters(locked.id_column)}{top + n}"
        placed.append(Placed(n, _id(values[offset], where), values, prize, place, role))
    letters = tuple(col_letters(left + j) for j in range(locked.width))
    return Standing(letters, tuple(placed), locked.prizes)


def _layout(draw: Entry, at: int) -> tuple[tuple[int, int, int, int], int, int]:
    """The result's corners with the Note column, the list's width and the draw's k;
    refused when the log row's output is not what its draw writes."""
    listed, result = block(draw["range"]), block(draw["output"])
    if listed is None or result is None:  # log_entry refused these already
        raise WorkbookError(f"{_where(at)} is not a draw xlshuffle can take a round of")
    width = listed[3] - listed[1] + 1
    extra = 3 if draw["mode"] == "prizes" else 2 if draw["reserves"] not in ("", "0") else 0
    top, left, bottom, right = result
    k = int(draw["k"]) if draw["k"].isdigit() else -1
    if right - left + 1 != width + extra or not 0 < k <= bottom - top + 1:
        raise WorkbookError(
            f"{_where(at)}: its output {draw['output']} is not what a {draw['mode']} of "
            f"{draw['range']} writes (the log was edited?): nothing was written"
        )
    if right + 1 > SHEET_COLUMNS:
        raise WorkbookError(
            f"the draw's result {draw['output']} reaches the sheet's last column: a round "
            "writes its notes right of it"
        )
    return (top, left, bottom, right + 1), width, k


def _id_column(
    sheet: Sheet, draw: Entry, sample: list[str], rounds: list[tuple[int, Entry]], ids: str
) -> int:
    """The ID column (1-based on the sheet): the one the draw's command line or its
    rounds' name, else ``ids`` (a header above the list or a letter), else the list's
    first column. Added to ``sample`` when the draw's command line had none."""
    top, left, bottom, right = block(draw["range"]) or (1, 1, 1, 1)
    given = _value(sample, "--id")
    if given is None and rounds:
        index, entry = rounds[-1]
        given = _value(_segments(entry["command line"], _where(index))[0], "--id")
    column = None if given is None else col_index(given)
    if ids.strip():
        named = ticket_column(sheet, sheet.range(top, left, bottom, right), ids, "ids")
        if column is not None and named != column:
            raise OptionError(
                f"ids: this draw names its entrants by column {col_letters(column)} (its "
                "command line or its first round's): leave ids empty"
            )
        column = named
    column = left if column is None else column
    if not left <= column <= right:
        raise WorkbookError(
            f"the draw at {draw['time (UTC)']}: its ID column {col_letters(column)} is not "
            "in its list (the log was edited?)"
        )
    if _value(sample, "--id") is None:
        at = sample.index("--seed") if "--seed" in sample else len(sample)
        sample[at:at] = ["--id", col_letters(column)]
    return column


def _replay(locked: _Locked, current: Rows, k: int) -> None:
    """The standing after the draw and after each of its rounds, each checked against
    its log row's hashes (a result or a log edited since is refused)."""
    draw = locked.draw
    first = _drawn(locked, current, k)
    if values_sha256([row[:-1] for row in locked.grid(first)]) != draw["output sha256"]:
        raise WorkbookError(
            f"{locked.sheet.name}!{draw['output']} changed since the draw at "
            f"{draw['time (UTC)']} (its values no longer match the log's output sha256): put "
            "the draw's result back; nothing was written"
        )
    locked.standings.append(first)
    for index, entry in locked.rounds:
        who, why = _asked(entry, _where(index))
        before = locked.standings[-1]
        try:
            after, _ = before.replace(who, why)
        except OptionError:
            after = before
        if (
            values_sha256(locked.grid(before)) != entry["input sha256"]
            or values_sha256(locked.grid(after)) != entry["output sha256"]
        ):
            raise WorkbookError(
                f"{_where(index)}: the round at {entry['time (UTC)']} does not follow from "
                "the draw by the rules (the log was edited?): nothing was written"
            )
        locked.asked.append((who, why))
        locked.standings.append(after)


def _locked(
    book: Book, rows: Rows, at: int, draw: Entry, upto: int, ids: str = ""
) -> tuple[_Locked, Rows]:
    """The draw at row ``at`` and its rounds before row ``upto``, each standing checked
    against the log; and the result's cells as they are now."""
    sheet = _sheet(book, draw)
    rounds = _rounds_of(rows, at, draw, upto)
    sample = _segments(draw["command line"], _where(at))[0]
    corners, width, k = _layout(draw, at)
    column = _id_column(sheet, draw, sample, rounds, ids)
    locked = _Locked(draw, rounds, sheet, corners, width, column, sample, [], [])
    current = cells(locked.range())
    _replay(locked, current, k)
    return locked, current


def _check_list(locked: _Locked) -> None:
    """Refuse a list changed since the draw (the command line replays the list as drawn)
    or with an ID on two rows (``sample --id`` refuses it)."""
    draw, sheet = locked.draw, locked.sheet
    top, left, bottom, right = block(draw["range"]) or (1, 1, 1, 1)
    values = cells(sheet.range(top, left, bottom, right))
    if values_sha256(values) != draw["input sha256"]:
        raise WorkbookError(
            f"the list {sheet.name}!{draw['range']} changed since the draw at "
            f"{draw['time (UTC)']} (its values no longer match the log's input sha256): "
            "a round's command line draws from the list as it was: put it back"
        )
    letter = col_letters(locked.id_column)
    seen: dict[str, int] = {}
    for n, row in enumerate(values):
        key = _id(row[locked.id_column - left], f"{sheet.name}!{letter}{top + n}")
        if key and key in seen:
            raise OptionError(
                f"ids: the ID {key!r} is on two rows of the list ({letter}{top + seen[key]} "
                f"and {letter}{top + n}): a round names each entrant by an ID of its own; "
                "name another column (ids)"
            )
        seen.setdefault(key, n)


# --------------------------------------------------------------------------- the command


def _pick(book: Book, rows: Rows, winner: str) -> tuple[int, Entry, int | None]:
    """The draw a round is of: the newest not restored, or (no ``winner`` given) the one
    whose result holds the selected row; and that row (0-based in the result)."""
    draws = _draws(rows, len(rows))
    if not draws:
        raise WorkbookError(
            f"the {LOG_SHEET!r} sheet lists no raffle or prize draw to replace a winner of: "
            "lock one first (draw raffle with reserves, or draw prizes)"
        )
    if winner:
        return *draws[0], None
    rng = selected(book)
    for at, draw in draws:
        corners = block(draw["output"])
        if corners is None or rng.sheet.name != draw["sheet"]:
            continue
        top, left, bottom, right = corners
        if top <= rng.row <= bottom and left <= rng.column <= right + 1:
            if rng.shape[0] != 1:
                raise OptionError(
                    f"select one row of the result {draw['output']} (the winner's), not {a1(rng)}"
                )
            return at, draw, rng.row - top
    raise OptionError(
        "winner: give the winner's ID, or select a cell of the winner's row in the result "
        f"{draws[0][1]['sheet']}!{draws[0][1]['output']}"
    )


def _no_reserve(prize: str | None) -> OptionError:
    of = f" of {show(prize)}" if prize is not None else ""
    return OptionError(
        f"no reserve{of} is left: a place drawn afresh needs a committed draw, on the "
        "command line (xlshuffle commit, draw, then redraw --beacon; docs/fair-draws.md), "
        "or draw again from those not yet drawn (xlshuffle sample ... --exclude "
        f"{DRAW_RECORD} --id COL)"
    )


def _reason(reason: Any) -> str:
    """The reason as the round keeps it (outer spaces stripped), refused when blank."""
    why = "" if reason is None else log_text(reason).strip()
    if not why:
        raise OptionError("reason: say why the winner is replaced (it goes in the Draw log)")
    if _DATE_TIME.fullmatch(why):  # xlwings reads such a text back as a date and time
        raise OptionError(
            "reason: a date and time alone is read back from the cell as a date: say why "
            "in words (no answer by 2026-12-04T18:00:00Z)"
        )
    if len(why) > MAX_REASON:
        raise OptionError(
            f"reason: {len(why):,} characters; a round's reason has at most {MAX_REASON} "
            "(it goes into a cell and the log's command line): say it shorter"
        )
    return why


def _unchanged(locked: _Locked, current: Rows) -> None:
    """Refuse a result whose cells are not the standing the log gives, or a Note column
    that is not empty before the first round."""
    draw = locked.draw
    if values_sha256(current) == values_sha256(locked.grid(locked.standings[-1])):
        return
    if not locked.rounds and any(log_text(row[-1]) for row in current):
        top, _, bottom, right = locked.corners
        notes = locked.sheet.range(top, right, bottom, right)
        raise OptionError(
            f"the cells {a1(notes)} right of the result {draw['output']} are not empty: "
            "a round writes its notes there, so clear them"
        )
    when = locked.rounds[-1][1]["time (UTC)"] if locked.rounds else draw["time (UTC)"]
    raise WorkbookError(
        f"{locked.sheet.name}!{a1(locked.range())} changed since the last round at {when}: "
        "put it back; nothing was written"
    )


def _log_row(
    locked: _Locked, before: Standing, after: Standing, command: str, what: str
) -> list[str]:
    """The round's ``Draw log`` row: the draw's fields, the result's hashes before and
    after, the command line and ``what`` (the options' words)."""
    draw = locked.draw
    texts = dict.fromkeys(LOG_COLUMNS, "")
    texts.update(
        {
            "time (UTC)": now(),
            "mode": ROUND_MODE,
            "output": a1(locked.range()),
            "protocol": PROTOCOL,
            "version": version(),
            "input sha256": values_sha256(locked.grid(before)),
            "output sha256": values_sha256(locked.grid(after)),
            "command line": command,
            "options": what,
        }
    )
    for name in ("sheet", "range", "k", "seed", "seed from", "reserves", "tickets", "method"):
        texts[name] = draw[name]
    return [texts[name] for name in LOG_COLUMNS]


def replace_winner(book: Book, winner: Any = "", reason: Any = "", ids: Any = "") -> Round:
    """Give the place of ``winner`` (an ID; empty: the winner in the selected row of the
    result) in a locked raffle or prize draw to the next reserve of its prize, for
    ``reason``; rewrite the result's roles with a Note column and log the round.

    ``ids`` names the ID column of a raffle at its first round (its header in the row
    above the list, or its letter; empty: the list's first column); a prize draw's is
    the one it was drawn with.
    """
    why = _reason(reason)
    asked = "" if winner is None else log_text(winner).strip()
    log = log_sheet(book)
    if log is None:
        raise WorkbookError(
            f"there is no {LOG_SHEET!r} sheet: no locked draw to replace a winner of: "
            "lock one first (draw raffle with reserves, or draw prizes)"
        )
    at, draw, picked = _pick(book, log[1], asked)
    given_ids = "" if ids is None else str(ids)
    locked, current = _locked(book, log[1], at, draw, len(log[1]), given_ids)
    _unchanged(locked, current)
    _check_list(locked)
    last, option = locked.standings[-1], "winner"
    if picked is not None:
        asked, option = last.placed[picked].id, "the selected row's ID"
        if not asked:
            raise OptionError(
                f"the selected row's ID (column {col_letters(locked.id_column)}) is blank: "
                "give the winner's ID (winner)"
            )
    _, out = last.winner(asked, option=option)
    if last.reserve(out.prize) is None:
        raise _no_reserve(out.prize)
    after, change = last.replace(asked, why)
    command = round_command(locked.sample, [*locked.asked, (out.id, change["reason"])])
    if len(command) > _MAX_CELL:
        raise OptionError(
            f"the round's command line would be {len(command):,} characters, more than a "
            f"cell holds ({_MAX_CELL:,}): take further rounds on the command line (xlshuffle "
            "redraw, from the last round's record)"
        )
    done = Round(
        number=len(locked.rounds) + 1,
        sheet=draw["sheet"],
        address=draw["range"],
        output_address=a1(locked.range()),
        replaced=out.id,
        reason=change["reason"],
        given_to=str(change["given_to"]["id"]),
        prize=out.prize,
        reserve=int(change["given_to"]["reserve"]),
        command_line=command,
    )
    place = f" ({out.prize}, place {out.place})" if out.prize is not None else ""
    what = (
        f"round {done.number} of the draw at {draw['time (UTC)']}: {out.id} replaced "
        f"({done.reason}), the place{place} goes to {done.given_to}, reserve {done.reserve}"
    )
    write(locked.added(), [row[locked.width :] for row in locked.grid(after)])
    append_row(book, log, _log_row(locked, last, after, command, what))
    return done


def undo_round(book: Book, rows: Rows, index: int) -> None:
    """What *restore the last draw* does for the round logged at row ``index`` of the log
    (its output cells checked already): the standing before it written back, recomputed
    from the draw and the rounds before it and checked against the log."""
    entry = log_entry(rows[index], _where(index), most=MAX_CELLS)
    draw = next(((at, d) for at, d in _draws(rows, index) if _key(d) == _key(entry)), None)
    if draw is None:
        raise WorkbookError(
            f"{_where(index)}: the round at {entry['time (UTC)']} follows no draw of the log "
            "not restored: nothing was restored"
        )
    locked, _ = _locked(book, rows, draw[0], draw[1], index + 1)
    if not locked.rounds or locked.rounds[-1][0] != index:
        raise WorkbookError(f"{_where(index)} is not a round of the draw: nothing was restored")
    before = locked.grid(locked.standings[-2])
    write(locked.added(), [row[locked.width :] for row in before])
