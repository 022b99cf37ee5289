"""Which rows win: raffles and audits over a table of values, for lists and workbooks alike.

A raffle (``-k`` winners, plain or by tickets, with reserves), an exclusion of earlier
winners by ID, strata each drawn from their own sub-stream, and the audit selections
(systematic, monetary-unit) all come down to one question, answered here once: given
the rows' values (:class:`~xlshuffle.tabledraw.entrants.Entrants`), which rows are drawn,
in what order, with what role. The answer (:class:`Drawn`) also carries the record's
``target["draw"]``, everything :func:`replay` needs to draw the same rows again from the
input and the seed (protocol sections 8-12 of docs/draw-protocol.md).

Rows excluded by ID are left out before the draw, which then runs over the others in
input order (section 10); strata come in order of first appearance, each drawn from
``stream.substream(label)`` over its own rows (section 11).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence, Sized
from dataclasses import dataclass, field
from typing import Any

from ..draw.errors import OptionError, SeedError, SizeError
from ..draw.protocol import DrawStream, normalise_seed
from ..draw.raffle import RESERVE, WINNER, canonical_id
from ..draw.seed import Seed
from ..draw.strata import proportional_allocation
from ..draw.values import decimal_mark
from .entrants import Column, Entrants
from .entries import check_unique_ids, entries_by_id
from .exclusions import Exclusion, check_exclusion, exclusion_of, recorded_exclusion
from .raffle_options import DecimalMode, DrawOptions, Prize
from .raffle_parts import TAKE_ALL_HINT, Part, draw_part, label_text

__all__ = [
    "TICKET_LABEL",
    "TOP_LABEL",
    "DrawOptions",
    "Drawn",
    "Exclusion",
    "added_fields",
    "check_exclusion",
    "choose",
    "draw_spec",
    "exclusion_of",
    "replay",
    "shares",
]


@dataclass
class Drawn:
    """The rows drawn, in output order, and what to add to each.

    ``rows``: data-row indexes (0-based, input order numbering), strata one after
    another; ``extra_labels`` and ``extra``: the fields added to the header and to each
    drawn row (``Role`` and ``Rank`` with reserves, ``Hits`` for a monetary-unit
    selection); ``spec``: the record's ``target["draw"]``; ``parts``: each stratum's
    draw (one part without strata); ``notes``: lines for the terminal that the record
    does not keep (the listed IDs that matched no entrant).
    """

    rows: list[int]
    extra_labels: list[str]
    extra: list[list[object]]
    spec: dict[str, Any]
    parts: list[Part] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def set_aside(self) -> list[int]:
        """The rows a monetary-unit selection set aside (amounts of 0 or below), every
        stratum's, in input order, numbered among the entrants as ``parts`` number them."""
        return sorted(row for part in self.parts for row, _ in part.set_aside)


def choose(
    ents: Entrants, opts: DrawOptions, stream: DrawStream, excluded: Exclusion | None = None
) -> Drawn:
    """Draw the rows ``opts`` asks for from ``ents`` (``excluded`` rows left out)."""
    opts.check()
    cols = opts.columns(ents)
    if opts.monetary and opts.decimal == "auto":
        opts = dataclasses.replace(opts, decimal=_decimal_of(ents, cols["amount"]))
    if "id" in cols and not opts.one_entry_per_id:
        check_unique_ids(ents, cols["id"])
    out = set(excluded.rows) if excluded else set()
    keep = [i for i in range(ents.n) if i not in out]
    members = None
    if opts.one_entry_per_id:  # the rows sharing an ID are one entrant at its first row
        keep, members = entries_by_id(ents, cols["id"], keep)
        if "strata" in cols:
            _one_stratum_each(ents, cols, members)
    strata = _strata(ents, cols.get("strata"), keep)
    counts = shares(ents, opts, strata, cols.get("strata"))
    parts = [
        draw_part(ents, opts, cols, label, rows, stream, k, members)
        for (label, rows), k in zip(strata, counts, strict=True)
    ]
    rows = [r for p in parts for r in p.rows]
    spec = draw_spec(opts, cols, parts, excluded)
    if "id" in cols:
        spec["winners"] = _ids(ents, cols["id"], [r for p in parts for r in p.winners()])
    extra_labels, extra = added_fields(opts, parts)
    notes = [] if excluded is None else excluded.notes()
    return Drawn(rows, extra_labels, extra, spec, parts, notes)


def _decimal_of(ents: Entrants, column: Column) -> DecimalMode:
    """How a list's amounts write decimals: decided by the column's cells in a list with a
    semicolon delimiter (where ``1.234,56`` is the custom), a point anywhere else."""
    if ents.delimiter != ";":
        return "point"
    return ents.read(column, list(range(ents.n)), lambda v: [decimal_mark(v)])[0]


def _one_stratum_each(
    ents: Entrants, cols: dict[str, Column], members: dict[int, list[int]]
) -> None:
    """Refuse an ID whose rows lie in two strata: which stratum would it enter?"""
    strata, ids = cols["strata"], cols["id"]
    values = ents.values(strata.index)
    for head, rows in members.items():
        key = _label_key(ents, values[head], head, strata)
        other = next((r for r in rows if _label_key(ents, values[r], r, strata) != key), None)
        if other is not None:
            id_text = _ids(ents, ids, [head])[0]
            raise ents.fail(
                f"{ents.cell(head, strata.index)} and "
                f"{ents.cell(other, strata.index).removeprefix(f'{ents.where}: ')}: the "
                f"ID {id_text!r} is in two strata ({label_text(values[head])!r} and "
                f"{label_text(values[other])!r}): with --one-entry-per-id all the rows of an "
                "ID need one stratum"
            )


def draw_spec(
    opts: DrawOptions,
    cols: dict[str, Column],
    parts: list[Part],
    excluded: Exclusion | None = None,
) -> dict[str, Any]:
    """The record's ``target["draw"]``: the options, and each stratum's draw (read back by
    :meth:`DrawOptions.from_spec`)."""

    def column(key: str) -> dict[str, object] | None:
        return cols[key].to_dict() if key in cols else None

    flags = {key: True for key in _FLAGS if getattr(opts, key)}  # recorded when asked for
    given = {key: getattr(opts, key) for key in _GIVEN if getattr(opts, key) is not None}
    if opts.monetary and opts.decimal == "comma":  # a point, as before, is not recorded
        given["decimal"] = "comma"
    if opts.prizes is not None:
        given["prizes"] = [
            {"prize": p.name, "count": p.count, "reserves": p.reserves} for p in opts.prizes
        ]
    return {
        **flags,
        **given,
        "method": opts.method_name,
        "k": opts.k,
        "allocation": opts.allocation(),
        "reserves": opts.reserves,
        "weights": column("weights"),
        "amount": column("amount"),
        "strata": column("strata"),
        "id": column("id"),
        "exclusion": None if excluded is None else excluded.to_dict(cols["id"]),
        "parts": [p.to_dict() for p in parts],
        "winners": None,  # the winners' IDs, with an ID column
    }


#: The draw's rules that are recorded only when asked for: the records of draws without
#: them stay as they were.
_FLAGS = ("one_entry_per_id", "all_of_small_strata")
#: The field a monetary-unit selection with a top stratum adds to each row: ``yes`` for a
#: row taken whole (examined 100%), ``no`` for one hit by a unit.
TOP_LABEL = "Top stratum"
#: The field a ticket draw adds to each drawn row: its ticket (not "Ticket", which raffle
#: lists often use for their own ticket numbers).
TICKET_LABEL = "Draw ticket"
#: The ticket draw's options, recorded only when given (section 18).
_GIVEN = ("rate", "weight_scale", "top_stratum")


def shares(
    ents: Entrants,
    opts: DrawOptions,
    strata: Sequence[tuple[object, Sized]],
    column: Column | None = None,
) -> list[int]:
    """Each stratum's count: ``opts.k``, its line of ``opts.counts``, or its share of
    ``opts.total`` by the largest-remainder rule (protocol section 11); ``strata`` gives
    each stratum's label and its rows (only their number is read). ``column``, the
    strata column, tells a misspelt stratum of ``opts.counts`` from one whose rows were
    all excluded."""
    if opts.total is not None:
        try:
            return proportional_allocation([len(rows) for _, rows in strata], opts.total)
        except SizeError as exc:
            raise SizeError(f"{ents.where}: --total: {exc}") from None
    if opts.counts is None:
        return [opts.k] * len(strata)
    given: dict[bytes, int] = {}
    for label, n in opts.counts:
        key = _key_or_none(label)
        if key is None or key in given:
            raise OptionError(
                f"--strata-counts: stratum {label!r} is "
                + ("blank" if key is None else "listed twice")
                + ": give each stratum once, with its count"
            )
        given[key] = n
    keys = [_key_or_none(label) for label, _ in strata]
    missing = [label for (label, _), key in zip(strata, keys, strict=True) if key not in given]
    if missing:
        raise OptionError(
            f"{ents.where}: --strata-counts has no count for stratum {label_text(missing[0])!r}"
            f" ({len(missing)} without one): add a line for each (0 leaves a stratum out)"
        )
    known = set(keys) if column is None else {_key_or_none(v) for v in ents.values(column.index)}
    unknown = [label for label, _ in opts.counts if _key_or_none(label) not in known]
    if unknown:
        raise OptionError(
            f"{ents.where}: --strata-counts names stratum {unknown[0]!r}, which no row has: "
            "check its spelling against the strata column"
        )
    return [given[key] for key in keys if key is not None]


def _key_or_none(label: object) -> bytes | None:
    try:
        return None if isinstance(label, str) and not label.strip() else normalise_seed(label)
    except SeedError:
        return None


def _strata(
    ents: Entrants, column: Column | None, keep: list[int]
) -> list[tuple[object, list[int]]]:
    """``(label, rows)`` per stratum in order of first appearance; one part labelled
    None without strata."""
    if column is None:
        return [(None, keep)]
    values = ents.values(column.index)
    where: dict[bytes, int] = {}
    out: list[tuple[object, list[int]]] = []
    for i in keep:
        key = _label_key(ents, values[i], i, column)
        s = where.setdefault(key, len(out))
        if s == len(out):
            out.append((values[i], []))
        out[s][1].append(i)
    return out


def _label_key(ents: Entrants, label: object, i: int, column: Column) -> bytes:
    try:
        if isinstance(label, str) and not label.strip():
            raise SeedError("blank")
        return normalise_seed(label)
    except SeedError:
        raise ents.fail(
            f"{ents.cell(i, column.index)}: the stratum label {label!r} cannot be used: give "
            "every row a text or a number"
        ) from None


def _ids(ents: Entrants, column: Column, rows: Sequence[int]) -> list[str]:
    values = ents.values(column.index)
    out = []
    for i in rows:
        try:
            out.append(canonical_id(values[i]))
        except SeedError:
            raise ents.fail(
                f"{ents.cell(i, column.index)}: the ID {values[i]!r} cannot be used: write a "
                "text or a number"
            ) from None
    return out


def prize_places(prizes: Sequence[Prize]) -> list[tuple[str, int, str]]:
    """Each place of a draw with a prize table, in draw order: the prize, the place within
    it (1-based) and the role (protocol section 9): the winners of each prize in the
    table's order, then each prize's reserves in the same order.

    Examples
    --------
    >>> prize_places([Prize("Bike", 1, 1), Prize("Mug", 2, 0)])
    [('Bike', 1, 'winner'), ('Mug', 1, 'winner'), ('Mug', 2, 'winner'), ('Bike', 1, 'reserve')]
    """
    won = [(p.name, n, WINNER) for p in prizes for n in range(1, p.count + 1)]
    return won + [(p.name, n, RESERVE) for p in prizes for n in range(1, p.reserves + 1)]


def added_fields(opts: DrawOptions, parts: list[Part]) -> tuple[list[str], list[list[object]]]:
    """The fields a draw adds to the header and to each drawn row, in output order: Role
    and Rank (with reserves), Hits (monetary-unit), Prize, Place and Role (a prize table),
    and a ticket draw's ticket."""
    if opts.prizes is not None:
        return _prize_extra(opts, parts)
    labels = (["Role", "Rank"] if opts.reserves else []) + (["Hits"] if opts.monetary else [])
    labels += [TOP_LABEL] if opts.top_stratum is not None else []
    labels += [TICKET_LABEL] if opts.tickets else []
    extra: list[list[object]] = []
    for p in parts:
        for n in range(len(p.rows)):
            row: list[object] = []
            if opts.reserves:
                row += [p.roles[n][0], p.roles[n][1]]
            if opts.monetary:
                row.append(p.hits[n])
            if opts.top_stratum is not None:
                row.append("yes" if p.top[n] else "no")
            if opts.tickets:
                row.append(p.tickets[n])
            extra.append(row)
    return labels, extra


def _prize_extra(opts: DrawOptions, parts: list[Part]) -> tuple[list[str], list[list[object]]]:
    """A prize table's fields for each drawn row: Prize, Place, Role (and the ticket)."""
    places = prize_places(opts.prizes or ())
    labels = ["Prize", "Place", "Role", *([TICKET_LABEL] if opts.tickets else [])]
    (part,) = parts  # a prize table draws from the whole list
    extra: list[list[object]] = []
    for n in range(len(part.rows)):
        prize, place, role = places[n]
        extra.append([prize, place, role, *([part.tickets[n]] if opts.tickets else [])])
    return labels, extra


def replay(ents: Entrants, spec: dict[str, Any], seed: str) -> Drawn:
    """Draw again what a record's ``target["draw"]`` says, from the same rows and seed.

    The excluded rows are taken from the record (its IDs are kept only as a digest);
    anything the record cannot mean raises ``ents.fail``.
    """
    try:
        opts = DrawOptions.from_spec(spec)
        excluded = recorded_exclusion(spec.get("exclusion"), ents.n)
    except (KeyError, TypeError, ValueError) as exc:
        raise ents.fail(
            f"record: target.draw cannot be read ({exc}): the record was edited"
        ) from None
    try:
        drawn = choose(ents, opts, Seed.given(seed).stream(), excluded)
    except SizeError as exc:  # the counts it states cannot be drawn from these rows
        raise ents.fail(
            "record: target.draw cannot be drawn again from these rows "
            f"({str(exc).removesuffix(TAKE_ALL_HINT)}): the record was edited"
        ) from None
    _as_recorded_before(drawn.spec, spec)
    return drawn


def _as_recorded_before(drawn: dict[str, Any], recorded: dict[str, Any]) -> None:
    """Records written before amounts of 0 were reported as set aside do not list them:
    such a row was in the population, held no cent and was never hit, so the draw was the
    same; drop the report of zeros alone from a part the record gives without one."""
    given = recorded.get("parts")
    if not isinstance(given, list) or len(given) != len(drawn["parts"]):
        return
    for part, old in zip(drawn["parts"], given, strict=True):
        if isinstance(old, dict) and "set_aside" not in old and part.get("set_aside_amount") == 0:
            del part["set_aside"], part["set_aside_amount"]
