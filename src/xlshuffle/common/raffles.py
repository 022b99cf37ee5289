"""Which rows win: issue 20's draws over a table of values, for lists and workbooks alike.

A raffle (``-k`` winners, plain or by tickets, with reserves), an exclusion of earlier
winners by ID, strata each drawn from their own sub-stream, and the audit selections
(systematic, monetary-unit) all come down to one question, answered here once: given
the rows' values (:class:`~xlshuffle.common.entrants.Entrants`), which rows are drawn,
in what order, with what role. The answer (:class:`Drawn`) also carries the record's
``target["draw"]``, everything :func:`replay` needs to draw the same rows again from the
input and the seed (protocol sections 8-12 of docs/draw-protocol.md).

Rows excluded by ID are left out before the draw, which then runs over the others in
input order (section 10); strata come in order of first appearance, each drawn from
``stream.substream(label)`` over its own rows (section 11).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..draw.errors import EntryError, OptionError, SeedError, SizeError
from ..draw.protocol import DrawStream, normalise_seed
from ..draw.raffle import canonical_id, exclude, exclusion_digest
from ..draw.seed import Seed
from ..draw.strata import proportional_allocation
from .entrants import Column, Entrants
from .raffle_options import DrawOptions
from .raffle_parts import Part, draw_part, label_text

__all__ = [
    "DrawOptions",
    "Drawn",
    "Exclusion",
    "check_exclusion",
    "choose",
    "exclusion_of",
    "replay",
]


@dataclass(frozen=True)
class Exclusion:
    """Rows left out by ID: the exclusion digest and count of the excluded IDs, and the
    data rows (0-based) whose ID is among them."""

    digest: str
    ids: int
    rows: tuple[int, ...]

    def to_dict(self, column: Column) -> dict[str, Any]:
        return {**column.to_dict(), "digest": self.digest, "ids": self.ids, "rows": [*self.rows]}


@dataclass
class Drawn:
    """The rows drawn, in output order, and what to add to each.

    ``rows``: data-row indexes (0-based, input order numbering), strata one after
    another; ``extra_labels`` and ``extra``: the fields added to the header and to each
    drawn row (``Role`` and ``Rank`` with reserves, ``Hits`` for a monetary-unit
    selection); ``spec``: the record's ``target["draw"]``; ``parts``: each stratum's
    draw (one part without strata).
    """

    rows: list[int]
    extra_labels: list[str]
    extra: list[list[object]]
    spec: dict[str, Any]
    parts: list[Part] = field(default_factory=list)


def exclusion_of(ents: Entrants, opts: DrawOptions, id_column: Column | None) -> Exclusion | None:
    """The rows ``opts.excluded`` leaves out (None without ``--exclude``)."""
    if opts.excluded is None or id_column is None:
        return None
    listed = list(opts.excluded)
    try:  # the excluded IDs first, so that a bad one is not blamed on a row
        digest = exclusion_digest(listed)
    except EntryError as exc:
        raise OptionError(f"--exclude: ID {exc.index + 1} of the list: {exc.reason}") from None
    kept = ents.read(id_column, range(ents.n), lambda values: list(exclude(values, listed)))
    left = sorted(set(range(ents.n)) - set(kept))
    count = len({canonical_id(x) for x in listed} - {""})
    return Exclusion(digest, count, tuple(left))


def choose(
    ents: Entrants, opts: DrawOptions, stream: DrawStream, excluded: Exclusion | None = None
) -> Drawn:
    """Draw the rows ``opts`` asks for from ``ents`` (``excluded`` rows left out)."""
    opts.check()
    cols = opts.columns(ents)
    out = set(excluded.rows) if excluded else set()
    keep = [i for i in range(ents.n) if i not in out]
    strata = _strata(ents, cols.get("strata"), keep)
    counts = shares(ents, opts, strata, cols.get("strata"))
    parts = [
        draw_part(ents, opts, cols, label, rows, stream, k)
        for (label, rows), k in zip(strata, counts, strict=True)
    ]
    rows = [r for p in parts for r in p.rows]
    spec = _spec(opts, cols, excluded, parts)
    if "id" in cols:
        spec["winners"] = _ids(ents, cols["id"], [r for p in parts for r in p.winners()])
    extra_labels, extra = _extra(opts, parts)
    return Drawn(rows, extra_labels, extra, spec, parts)


def _spec(
    opts: DrawOptions, cols: dict[str, Column], excluded: Exclusion | None, parts: list[Part]
) -> dict[str, Any]:
    """The record's ``target["draw"]``: the options, and each stratum's draw (read back by
    :meth:`DrawOptions.from_spec`)."""

    def column(key: str) -> dict[str, object] | None:
        return cols[key].to_dict() if key in cols else None

    return {
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


def shares(
    ents: Entrants,
    opts: DrawOptions,
    strata: list[tuple[object, list[int]]],
    column: Column | None = None,
) -> list[int]:
    """Each stratum's count: ``opts.k``, its line of ``opts.counts``, or its share of
    ``opts.total`` by the largest-remainder rule (protocol section 11). ``column``, the
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


def _extra(opts: DrawOptions, parts: list[Part]) -> tuple[list[str], list[list[object]]]:
    labels = (["Role", "Rank"] if opts.reserves else []) + (
        ["Hits"] if opts.method == "mus" else []
    )
    extra: list[list[object]] = []
    for p in parts:
        for n in range(len(p.rows)):
            row: list[object] = []
            if opts.reserves:
                row += [p.roles[n][0], p.roles[n][1]]
            if opts.method == "mus":
                row.append(p.hits[n])
            extra.append(row)
    return labels, extra


def replay(ents: Entrants, spec: dict[str, Any], seed: str) -> Drawn:
    """Draw again what a record's ``target["draw"]`` says, from the same rows and seed.

    The excluded rows are taken from the record (its IDs are kept only as a digest);
    anything the record cannot mean raises ``ents.fail``.
    """
    try:
        opts = DrawOptions.from_spec(spec)
        excluded = _recorded_exclusion(spec.get("exclusion"), ents.n)
    except (KeyError, TypeError, ValueError) as exc:
        raise ents.fail(
            f"record: target.draw cannot be read ({exc}): the record was edited"
        ) from None
    return choose(ents, opts, Seed.given(seed).stream(), excluded)


def _recorded_exclusion(data: object, n: int) -> Exclusion | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise TypeError("exclusion is not an object")
    rows = data["rows"]
    if not all(isinstance(r, int) and 0 <= r < n for r in rows) or rows != sorted(set(rows)):
        raise ValueError("exclusion.rows are not ascending data rows of the input")
    return Exclusion(str(data["digest"]), int(data["ids"]), tuple(rows))


def check_exclusion(ents: Entrants, spec: dict[str, Any], excluded: Sequence[str]) -> str | None:
    """Why a draw's record did not exclude exactly the IDs ``excluded`` (an earlier
    record's winners, or a list), or None when it did: the same exclusion digest and
    count, and the same rows left out of ``ents``."""
    recorded = spec.get("exclusion")
    if not isinstance(recorded, dict):
        return "the draw excluded no IDs (it was made without --exclude)"
    try:
        opts = dataclasses.replace(DrawOptions.from_spec(spec), excluded=tuple(excluded))
    except (KeyError, TypeError, ValueError) as exc:
        return f"target.draw cannot be read ({exc}): the record was edited"
    got = exclusion_of(ents, opts, opts.columns(ents).get("id"))
    if got is None:  # pragma: no cover - from_spec gives an id with an exclusion
        return "the record names no ID column"
    if got.digest != recorded.get("digest") or got.ids != recorded.get("ids"):
        return (
            f"it excluded {recorded.get('ids')} IDs with digest "
            f"{str(recorded.get('digest'))[:16]}..., not these {got.ids} "
            f"(digest {got.digest[:16]}...)"
        )
    if list(got.rows) != recorded.get("rows"):
        return "the rows it left out are not the rows whose ID is among these IDs"
    return None
