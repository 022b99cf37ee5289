"""Who a ticket draw on DuckDB leaves out (protocol section 10): the entrants whose
canonical ID an exclusion list names, or, replaying a record without its list, the rows
the record states; the SQL that finds them, for the draw and for the census.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..draw.errors import EntryError, OptionError
from ..draw.raffle import canonical_id, exclusion_digest
from ..tabledraw.exclusions import Exclusion, recorded_exclusion
from ..tabledraw.raffle_options import DrawOptions
from .source import Connection, Source

__all__ = ["Excluding", "excluding_of"]


@dataclass(frozen=True)
class Excluding:
    """Who an exclusion leaves out: the entrants whose canonical ID is listed (``ids``,
    as the list gives them), or, replaying a record without its list, the rows it
    recorded (``recorded``)."""

    ids: tuple[str, ...] = ()
    digest: str = ""
    recorded: Exclusion | None = None

    def prepare(self, con: Connection) -> None:
        """The table ``xls_excluded`` of the IDs (or the recorded rows) left out."""
        values: Sequence[object] = (
            self.ids if self.recorded is None else [str(r) for r in self.recorded.rows]
        )
        con.execute(
            "CREATE TEMP TABLE xls_excluded AS SELECT unnest(CAST($v AS VARCHAR[])) AS xls_x",
            {"v": list(values)},
        )

    def out(self, canon: str) -> str:
        """Whether a row is left out (``canon``: its canonical ID's expression)."""
        if self.recorded is not None:
            return "CAST(xls_row AS VARCHAR) IN (SELECT xls_x FROM xls_excluded)"
        return f"coalesce({canon} IN (SELECT xls_x FROM xls_excluded), false)"

    def table(self, src: Source, canon: str) -> str:
        """The FROM item of the rows the draw keeps."""
        if self.recorded is not None:
            return f"(SELECT * FROM {src.numbered()} WHERE NOT ({self.out(canon)}))"
        return f"(SELECT * FROM {src.reader} WHERE NOT ({self.out(canon)}))"


def excluding_of(opts: DrawOptions, recorded: object, rows: int) -> Excluding | None:
    """What ``opts`` excludes (its list's IDs), else what a record's ``recorded``
    exclusion left out of ``rows`` data rows; None without an exclusion."""
    if opts.excluded is not None:
        listed = list(opts.excluded)
        try:  # the excluded IDs first, so that a bad one is not blamed on a row
            digest = exclusion_digest(listed)
        except EntryError as exc:
            raise OptionError(f"--exclude: ID {exc.index + 1} of the list: {exc.reason}") from None
        ids = tuple(dict.fromkeys(t for t in map(canonical_id, listed) if t))
        return Excluding(ids, digest)
    found = recorded_exclusion(recorded, rows)
    return None if found is None else Excluding(digest=found.digest, recorded=found)
