"""Entrants left out by ID (protocol section 10), and what the list said that matched no one.

:func:`exclusion_of` finds the rows whose canonical ID is among the excluded IDs (the
protocol's rule, :func:`xlshuffle.draw.raffle.exclude`), and counts the listed IDs that
matched no entrant: the record keeps that count (``unmatched``) and, when nobody was
excluded, a ``warning``; the run's summary names the first few, and an ID that matches
an entrant's only when case is ignored (``alice`` for ``Alice``), since IDs are matched
with case kept. The IDs themselves never go into the record, only their digest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..draw.errors import EntryError, OptionError
from ..draw.raffle import canonical_id, exclude, exclusion_digest
from .entrants import Column, Entrants
from .entries import canonical_ids
from .raffle_options import DrawOptions

__all__ = ["Exclusion", "check_exclusion", "exclusion_of", "recorded_exclusion"]

_SHOWN = 3  # unmatched IDs named in the summary


@dataclass(frozen=True)
class Exclusion:
    """Rows left out by ID: the exclusion digest and count of the excluded IDs, the data
    rows (0-based) whose ID is among them, and how many listed IDs matched no entrant
    (None in a record made before it was counted).

    ``missing`` (the first unmatched IDs) and ``hints`` (an unmatched ID and the
    entrant's ID it matches ignoring case) are for the terminal only, never recorded.
    """

    digest: str
    ids: int
    rows: tuple[int, ...]
    unmatched: int | None = None
    missing: tuple[str, ...] = field(default=(), compare=False)
    hints: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def warning(self) -> str | None:
        """What the record and stderr say when nobody was excluded."""
        if self.rows or self.unmatched is None:
            return None
        if self.ids == 0:
            return "the exclusion list holds no IDs: nobody was excluded"
        return (
            f"none of the {self.ids} IDs listed matched an entrant's ID: nobody was "
            "excluded (IDs are matched as written, case kept)"
        )

    def to_dict(self, column: Column) -> dict[str, Any]:
        out = {**column.to_dict(), "digest": self.digest, "ids": self.ids, "rows": [*self.rows]}
        if self.unmatched is not None:
            out["unmatched"] = self.unmatched
        if self.warning is not None:
            out["warning"] = self.warning
        return out

    def notes(self) -> list[str]:
        """The terminal's lines naming the IDs listed that matched no entrant."""
        if not self.unmatched:
            return []
        more = self.unmatched - len(self.missing)
        names = ", ".join(repr(t) for t in self.missing) + (f" and {more} more" if more else "")
        lines = [f"{self.unmatched} of the {self.ids} IDs listed matched no entrant: {names}"]
        lines += [
            f"{given!r} matched no entrant; {found!r} did: IDs are matched with case kept"
            for given, found in self.hints
        ]
        return lines


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
    wanted = list(dict.fromkeys(t for t in map(canonical_id, listed) if t))
    have = ents.read(id_column, range(ents.n), canonical_ids)
    known = set(have)
    missing = [t for t in wanted if t not in known]
    folded: dict[str, str] = {}
    for t in have:
        folded.setdefault(t.casefold(), t)
    hints = [(t, folded[t.casefold()]) for t in missing if t.casefold() in folded]
    return Exclusion(
        digest,
        len(wanted),
        tuple(left),
        len(missing),
        tuple(missing[:_SHOWN]),
        tuple(hints[:_SHOWN]),
    )


def recorded_exclusion(data: object, n: int) -> Exclusion | None:
    """The exclusion a record's ``target["draw"]["exclusion"]`` states (TypeError or
    ValueError for one that cannot be right for ``n`` data rows)."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise TypeError("exclusion is not an object")
    rows = data["rows"]
    if not all(isinstance(r, int) and 0 <= r < n for r in rows) or rows != sorted(set(rows)):
        raise ValueError("exclusion.rows are not ascending data rows of the input")
    unmatched = data.get("unmatched")
    return Exclusion(
        str(data["digest"]),
        int(data["ids"]),
        tuple(rows),
        None if unmatched is None else int(unmatched),
    )


def check_exclusion(ents: Entrants, spec: dict[str, Any], excluded: Sequence[str]) -> str | None:
    """Why a draw's record did not exclude exactly the IDs ``excluded`` (an earlier
    record's winners, or a list), or None when it did: the same exclusion digest and
    count, the same rows left out of ``ents``, and as many IDs matching no entrant."""
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
    if "unmatched" in recorded and recorded["unmatched"] != got.unmatched:
        return (
            f"it says {recorded['unmatched']} of the IDs matched no entrant, but "
            f"{got.unmatched} of these do not"
        )
    return None
