"""One stratum's draw (or the whole list's, without strata): :func:`draw_part`.

A raffle draws ``k + reserves`` rows, by tickets or evenly, and splits them into winners
and reserves (protocol sections 8 and 9); an audit selects rows systematically or by
monetary unit (section 12, or one unit per cell: section 20), in input order, with the
rows of amount 0 or below set aside and a top stratum taken whole; a ticket draw takes
its entrants in increasing order of their own tickets (section 18), ``k`` of them or those
below a rate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..draw.audit import (
    AuditSample,
    MusPopulation,
    cell_sample,
    monetary_unit_sample,
    mus_population,
    systematic_sample,
)
from ..draw.errors import SeedError, SizeError
from ..draw.knuth import deal
from ..draw.protocol import DrawStream, normalise_seed
from ..draw.raffle import WINNER, canonical_id, placings
from ..draw.tickets import draw_tickets
from ..draw.values import DecimalMark, parse_amounts, parse_weights, whole_tickets
from ..draw.weighted import weighted_sample

if TYPE_CHECKING:
    from .entrants import Column, Entrants
    from .raffle_options import DrawOptions

__all__ = ["Part", "draw_part"]


@dataclass
class Part:
    """One stratum's draw: its label (None without strata), its rows after exclusions,
    the rows drawn (output order), their roles and hits, and an audit's start."""

    label: object
    size: int
    rows: list[int]
    k: int = 0
    roles: list[tuple[str, int]] = field(default_factory=list)
    hits: list[int] = field(default_factory=list)
    audit: AuditSample | None = None
    #: a monetary-unit selection's split of the rows (section 20), with the amounts of
    #: the rows set aside and of the top stratum, in cents; and each drawn row's place in
    #: the top stratum
    split: MusPopulation | None = None
    set_aside: list[tuple[int, int]] = field(default_factory=list)
    top_amount: int = 0
    top: list[bool] = field(default_factory=list)
    #: a ticket draw's tickets, one per drawn row, and how many tickets each one held
    tickets: list[str] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)

    def winners(self) -> list[int]:
        """The drawn rows that win (all of them, unless there are reserves)."""
        if not self.roles:
            return list(self.rows)
        return [r for r, (role, _) in zip(self.rows, self.roles, strict=True) if role == WINNER]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stratum": label_text(self.label),
            "size": self.size,
            "k": self.k,
            "drawn": len(self.rows),
        }
        if self.audit is not None:
            out["population"] = self.audit.population
            if self.audit.method == "cell":
                out["cells"] = self.audit.k
            else:
                out["start"] = self.audit.start
            out["interval"] = str(self.audit.interval)
        if self.set_aside:
            out |= {
                "set_aside": [row for row, _ in self.set_aside],
                "set_aside_amount": sum(cents for _, cents in self.set_aside),
            }
        if self.split is not None and self.split.cutoff is not None:
            out |= {
                "cutoff": str(self.split.cutoff),
                "top": [r for r, top in zip(self.rows, self.top, strict=True) if top],
                "top_amount": self.top_amount,
            }
        return out


#: Added to the refusal of a stratum smaller than its count.
TAKE_ALL_HINT = ", or add --all-of-small-strata to take every row of a stratum smaller than -k"


def label_text(label: object) -> str | None:
    """A stratum label as the record writes it: a text as given, a number as the text
    the protocol hashes (``42.0`` -> ``"42"``); None without strata."""
    if label is None or isinstance(label, str):
        return label
    return normalise_seed(label).decode("utf-8")


def draw_part(
    ents: Entrants,
    opts: DrawOptions,
    cols: dict[str, Column],
    label: object,
    rows: list[int],
    stream: DrawStream,
    k: int,
    members: dict[int, list[int]] | None = None,
) -> Part:
    """Draw ``k`` (winners, or an audit's count) from ``rows`` (one stratum's) with the
    stream of its label. With ``members`` (one entry per ID) each of ``rows`` is an
    entrant's first row, and ``members[row]`` all its rows, whose tickets it holds."""
    source = stream if label is None else stream.substream(label)
    try:
        if opts.method == "systematic":
            whole = opts.all_of_small_strata and k > len(rows)  # a selection of all n rows
            n = len(rows) if whole else k
            return _audit(label, rows, k, systematic_sample(len(rows), n, seed=source))
        if opts.monetary:
            return _monetary(ents, opts, cols["amount"], (label, rows, k), source)
        if opts.tickets:
            return _ticketed(ents, opts, cols, (label, rows, k), stream.seed, members)
        return _raffle(ents, opts, cols, (label, rows, k), source, members)
    except SizeError as exc:
        if label is None:
            raise SizeError(f"{ents.where}: {exc}") from None
        small = "" if opts.monetary or opts.all_of_small_strata else TAKE_ALL_HINT
        raise SizeError(f"{ents.where}: stratum {label_text(label)!r}: {exc}{small}") from None


def _raffle(
    ents: Entrants,
    opts: DrawOptions,
    cols: dict[str, Column],
    part: tuple[object, list[int], int],
    source: DrawStream,
    members: dict[int, list[int]] | None = None,
) -> Part:
    label, rows, k = part
    count = k + opts.reserves
    whole = opts.all_of_small_strata  # a stratum smaller than its count: all of it
    if members is not None or "weights" in cols:
        if members is not None:
            weights = _entry_tickets(ents, cols, rows, members)
        else:
            weights = ents.read(cols["weights"], rows, parse_weights)
        if whole:
            count = min(count, sum(w > 0 for w in weights))
        picked = weighted_sample(weights, count, seed=source)
    else:
        if whole:
            count = min(count, len(rows))
        if count > len(rows):
            asked = f"{k} + {opts.reserves} reserves" if opts.reserves else f"{k}"
            raise SizeError(
                f"cannot draw {asked} from {len(rows)} row{'s' if len(rows) != 1 else ''}: "
                "ask for fewer"
            )
        picked = deal(range(len(rows)), count, seed=source)
    roles = [(p.role, p.rank) for p in placings(picked, min(k, count))] if opts.reserves else []
    return Part(label, len(rows), [rows[p] for p in picked], k, roles)


def _ticketed(
    ents: Entrants,
    opts: DrawOptions,
    cols: dict[str, Column],
    part: tuple[object, list[int], int],
    seed: object,
    members: dict[int, list[int]] | None = None,
) -> Part:
    """A ticket draw of one stratum's entrants (section 18): in increasing ticket order,
    its count (or those below the rate), then the reserves."""
    label, rows, k = part
    ids = _entrant_ids(ents, cols["id"], rows)
    scale = opts.weight_scale or 1
    weights = None
    if members is not None:
        weights = _entry_tickets(ents, cols, rows, members, scale)
    elif "weights" in cols:
        weights = ents.read(cols["weights"], rows, lambda v: whole_tickets(v, scale=scale))
    can = len(rows) if weights is None else sum(w > 0 for w in weights)
    rate = opts.rate_fraction()
    if rate is None:
        count = k + opts.reserves
        if opts.all_of_small_strata:
            count = min(count, can)
        if count > can:
            asked = f"{k} + {opts.reserves} reserves" if opts.reserves else f"{k}"
            raise SizeError(
                f"cannot draw {asked} from {can} entrant{'s' if can != 1 else ''}: ask for fewer"
            )
        k = min(k, count)
    drawn, won = draw_tickets(
        ids,
        seed,
        k=None if rate is not None else k,
        rate=rate,
        reserves=opts.reserves if rate is not None else count - k,
        weights=weights,
        method="rivest" if opts.method == "rivest" else "ticket",
    )
    picked = [t.entrant for t in drawn]
    roles = [(p.role, p.rank) for p in placings(picked, won)] if opts.reserves else []
    part_k = won if rate is not None else part[2]
    held = [1 if weights is None else weights[p] for p in picked]
    return Part(
        label,
        len(rows),
        [rows[p] for p in picked],
        part_k,
        roles,
        tickets=[t.ticket for t in drawn],
        counts=held,
    )


def _entrant_ids(ents: Entrants, column: Column, rows: list[int]) -> list[str]:
    """The canonical IDs of ``rows``, each an entrant of a ticket draw (refused in one line
    naming the cell: a blank ID, or one that is not a text or a number)."""
    values = ents.values(column.index)
    out = []
    for i in rows:
        try:
            text = canonical_id(values[i])
        except SeedError:
            text = None
        if not text or "\n" in text or "\r" in text:
            what = "is blank" if text == "" else f"{values[i]!r} cannot be an ID"
            raise ents.fail(
                f"{ents.cell(i, column.index)}: the ID {what}: every entrant of a ticket draw "
                "needs its own ID (a text or a number on one line)"
            )
        out.append(text)
    return out


def _entry_tickets(
    ents: Entrants,
    cols: dict[str, Column],
    rows: list[int],
    members: dict[int, list[int]],
    scale: int | None = None,
) -> list[int]:
    """Each entrant's tickets with one entry per ID: its rows' count, or the sum of its
    rows' tickets, all scaled to whole numbers together (exact: no floats); a ticket draw
    states its ``scale`` instead (section 18)."""
    if "weights" not in cols:
        return [len(members[r]) for r in rows]
    every = [m for r in rows for m in members[r]]
    if scale is None:
        weights = iter(ents.read(cols["weights"], every, parse_weights))
    else:
        weights = iter(ents.read(cols["weights"], every, lambda v: whole_tickets(v, scale=scale)))
    return [sum(next(weights) for _ in members[r]) for r in rows]


def _monetary(
    ents: Entrants,
    opts: DrawOptions,
    column: Column,
    part: tuple[object, list[int], int],
    source: DrawStream,
) -> Part:
    """A monetary-unit selection of one stratum's rows (sections 12 and 19): the rows of
    amount 0 or below set aside, the top stratum taken whole, units hit in the others."""
    label, rows, k = part
    mark: DecimalMark = "comma" if opts.decimal == "comma" else "point"
    cents = ents.read(column, rows, lambda v: parse_amounts(v, signed=True, decimal=mark))
    split = mus_population(cents, k, cutoff=opts.top_stratum)
    pick = cell_sample if opts.method == "cell" else monetary_unit_sample
    sample = pick([cents[i] for i in split.sampled], k, seed=source)
    hits = {split.sampled[s.item]: s.hits for s in sample.selected}
    chosen = sorted([*hits, *split.top])
    return Part(
        label,
        len(rows),
        [rows[i] for i in chosen],
        k,
        hits=[hits.get(i, 0) for i in chosen],
        audit=sample,
        split=split,
        set_aside=[(rows[i], cents[i]) for i in split.set_aside],
        top_amount=sum(cents[i] for i in split.top),
        top=[i not in hits for i in chosen],
    )


def _audit(label: object, rows: list[int], k: int, sample: AuditSample) -> Part:
    return Part(
        label,
        len(rows),
        [rows[s.item] for s in sample.selected],
        k,
        hits=[s.hits for s in sample.selected],
        audit=sample,
    )
