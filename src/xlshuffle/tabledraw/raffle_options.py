"""What a raffle or an audit is asked for (:class:`DrawOptions`), and the record's account
of it (``target["draw"]``), from which :meth:`DrawOptions.from_spec` reads it back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

from ..draw.errors import OptionError

if TYPE_CHECKING:
    from .entrants import Column, Entrants

__all__ = ["METHODS", "DrawOptions", "Method", "RecordMethod", "parse_method"]

#: How the rows are chosen: a raffle, or an audit selection.
Method = Literal["random", "systematic", "mus"]
#: The record's name of the method (``random`` is ``weighted`` with tickets).
RecordMethod = Literal["random", "weighted", "systematic", "monetary-unit"]

#: ``--method`` -> the record's method name (``random`` becomes ``weighted`` with tickets)
METHODS: dict[Method, RecordMethod] = {
    "random": "random",
    "systematic": "systematic",
    "mus": "monetary-unit",
}
_FROM_RECORD: dict[str, Method] = {
    "random": "random",
    "weighted": "random",
    "systematic": "systematic",
    "monetary-unit": "mus",
}


def parse_method(text: str) -> Method:
    """``text`` as a :data:`Method` (OptionError naming the choices)."""
    if text not in get_args(Method):
        raise OptionError(f"--method {text}: choose one of {', '.join(get_args(Method))}")
    return cast(Method, text)


@dataclass(frozen=True)
class DrawOptions:
    """A draw beyond plain ``sample -k``: the options as the command line names them.

    ``k`` is per stratum with ``strata``, unless ``counts`` gives each stratum's count
    (``(label, count)`` pairs, every stratum needs one) or ``total`` is shared among the
    strata in proportion to their sizes (protocol section 11); for ``method="mus"`` it
    counts hits (cents), so fewer rows are selected when a row is hit twice.
    ``excluded`` holds the excluded IDs as read from ``--exclude`` (None without it);
    ``id`` names the ID column, which the record then lists the winners by;
    ``one_entry_per_id`` makes the rows sharing an ID one entrant (protocol section 10),
    ``all_of_small_strata`` takes whole a stratum smaller than its count (section 11).
    """

    k: int
    method: Method = "random"
    weights: str | None = None
    amount: str | None = None
    reserves: int = 0
    strata: str | None = None
    id: str | None = None
    excluded: tuple[str, ...] | None = None
    total: int | None = None
    counts: tuple[tuple[str, int], ...] | None = None
    one_entry_per_id: bool = False
    all_of_small_strata: bool = False

    def check(self) -> None:
        """Refuse options that cannot combine (each an OptionError, a usage error)."""
        if self.method not in METHODS:
            raise OptionError(f"--method {self.method}: choose one of {', '.join(METHODS)}")
        if self.k < 0 or self.reserves < 0 or (self.total or 0) < 0:
            raise OptionError("-k, --total and --reserves must be 0 or more")
        if any(n < 0 for _, n in self.counts or ()):
            raise OptionError("--strata-counts: every count must be 0 or more")
        for problem in self._conflicts():
            raise OptionError(problem)

    def _conflicts(self) -> list[str]:
        audit = self.method != "random"
        return [
            text
            for bad, text in (
                (self.method == "mus" and self.amount is None, "--method mus needs --amount COL"),
                (
                    self.amount is not None and self.method != "mus",
                    "--amount is read by --method mus only: add it, or leave out --amount",
                ),
                (
                    audit and self.weights is not None,
                    f"--weights is for a raffle, not --method {self.method}: an audit's "
                    "selection proportional to size is --method mus --amount COL",
                ),
                (
                    audit and self.reserves > 0,
                    f"--reserves is for a raffle: --method {self.method} selects no reserves",
                ),
                (
                    self.excluded is not None and self.id is None,
                    "--exclude needs --id COL: the column whose IDs are matched",
                ),
                (
                    self.one_entry_per_id and self.id is None,
                    "--one-entry-per-id needs --id COL: the column naming whose entry each row is",
                ),
                (
                    self.one_entry_per_id and audit,
                    f"--one-entry-per-id is for a raffle, not --method {self.method}",
                ),
                (
                    self.all_of_small_strata and self.strata is None,
                    "--all-of-small-strata takes whole the strata smaller than their count: "
                    "add --strata COL",
                ),
                (
                    self.all_of_small_strata and self.method == "mus",
                    "--all-of-small-strata is for a raffle or --method systematic: "
                    "--method mus counts cents, not rows",
                ),
                (
                    (self.total is not None or self.counts is not None) and self.strata is None,
                    "--total and --strata-counts share a draw among strata: add --strata COL",
                ),
                (
                    self.total is not None and self.counts is not None,
                    "give --total N or --strata-counts FILE, not both",
                ),
            )
            if bad
        ]

    def columns(self, ents: Entrants) -> dict[str, Column]:
        """The columns the options name, found in ``ents`` (OptionError if not)."""
        named = {
            "weights": self.weights,
            "amount": self.amount,
            "strata": self.strata,
            "id": self.id,
        }
        return {
            key: ents.column(given, f"--{key}") for key, given in named.items() if given is not None
        }

    def allocation(self) -> dict[str, Any] | None:
        """The record's ``target["draw"]["allocation"]``: None for the same ``k`` in
        every stratum, else the total or the counts given."""
        if self.total is not None:
            return {"total": self.total, "rule": "largest remainder"}
        if self.counts is not None:
            return {"counts": [[label, n] for label, n in self.counts]}
        return None

    @property
    def method_name(self) -> RecordMethod:
        """The record's name of the method."""
        tickets = self.weights is not None or self.one_entry_per_id
        return "weighted" if tickets else METHODS[self.method]

    @classmethod
    def from_spec(cls, spec: dict[str, Any]) -> DrawOptions:
        """The options a record's ``target["draw"]`` was drawn with (KeyError,
        TypeError or ValueError for one it cannot be)."""

        def given(key: str) -> str | None:
            value = spec[key]
            return None if value is None else str(value["column"])

        allocation = spec.get("allocation") or {}
        counts = allocation.get("counts")
        return cls(
            k=int(spec["k"]),
            total=None if allocation.get("total") is None else int(allocation["total"]),
            counts=None if counts is None else tuple((str(a), int(n)) for a, n in counts),
            method=_FROM_RECORD[spec["method"]],
            weights=given("weights"),
            amount=given("amount"),
            reserves=int(spec["reserves"]),
            strata=given("strata"),
            id=given("id"),
            one_entry_per_id=spec.get("one_entry_per_id", False) is True,
            all_of_small_strata=spec.get("all_of_small_strata", False) is True,
        )
