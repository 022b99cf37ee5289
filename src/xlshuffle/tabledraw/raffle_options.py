"""What a raffle or an audit is asked for (:class:`DrawOptions`), and the record's account
of it (``target["draw"]``), from which :meth:`DrawOptions.from_spec` reads it back."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

from ..draw.errors import OptionError

if TYPE_CHECKING:
    from .entrants import Column, Entrants

__all__ = [
    "METHODS",
    "MONETARY",
    "TICKET_METHODS",
    "DecimalMode",
    "DrawOptions",
    "Method",
    "Prize",
    "RecordMethod",
    "parse_method",
    "parse_rate",
]

#: How the rows are chosen: a raffle, an audit selection, or a ticket draw (each
#: entrant's own tickets from the seed and its ID, protocol section 18).
Method = Literal["random", "systematic", "mus", "cell", "ticket", "rivest"]
#: The record's name of the method (``random`` is ``weighted`` with tickets).
RecordMethod = Literal[
    "random", "weighted", "systematic", "monetary-unit", "monetary-unit-cell", "ticket", "rivest"
]
#: The monetary-unit selections: one random start (section 12), or one per cell (20).
MONETARY: frozenset[Method] = frozenset({"mus", "cell"})
#: How the amounts of a monetary-unit selection write their decimals: ``auto`` decides
#: from the column in a semicolon list (``decimal_mark``), else a point.
DecimalMode = Literal["auto", "point", "comma"]

#: ``--method`` -> the record's method name (``random`` becomes ``weighted`` with tickets)
METHODS: dict[Method, RecordMethod] = {
    "random": "random",
    "systematic": "systematic",
    "mus": "monetary-unit",
    "cell": "monetary-unit-cell",
    "ticket": "ticket",
    "rivest": "rivest",
}
#: The ticket draws of section 18, which need an ID per entrant.
TICKET_METHODS: frozenset[Method] = frozenset({"ticket", "rivest"})
_FROM_RECORD: dict[str, Method] = {
    "random": "random",
    "weighted": "random",
    "systematic": "systematic",
    "monetary-unit": "mus",
    "monetary-unit-cell": "cell",
    "ticket": "ticket",
    "rivest": "rivest",
}


@dataclass(frozen=True)
class Prize:
    """One line of a prize table: its name, how many win it, and its reserves (protocol
    section 9: the prizes take the draw's places in the table's order)."""

    name: str
    count: int
    reserves: int = 0

    def to_list(self) -> list[object]:
        return [self.name, self.count, self.reserves]


def parse_rate(text: str) -> Fraction:
    """A ticket draw's rate, a decimal more than 0 and at most 1 (``"0.05"``), exactly
    (OptionError saying how to write one)."""
    try:
        rate = Fraction(Decimal(text.strip()))
    except (InvalidOperation, ValueError):
        rate = Fraction(-1)
    if not 0 < rate <= 1:
        raise OptionError(
            f"--rate {text}: a rate is a decimal more than 0 and at most 1, such as 0.05 "
            "(each entrant drawn with that chance)"
        )
    return rate


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
    A ticket draw (``method`` ``ticket`` or ``rivest``, section 18) needs ``id``; instead
    of ``k`` it may take a ``rate`` (a decimal text, ``"0.05"``), and its ``weights`` are
    whole tickets at ``weight_scale`` (None: 1).
    A monetary-unit selection (``mus``, or ``cell``: one random unit per cell, section 20)
    sets aside the rows of amount 0 or below; ``top_stratum`` (cents, or ``"interval"``)
    takes whole the rows at or above it; ``decimal`` says how the amounts write decimals.
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
    rate: str | None = None
    weight_scale: int | None = None
    prizes: tuple[Prize, ...] | None = None
    top_stratum: int | Literal["interval"] | None = None
    decimal: DecimalMode = "auto"

    @property
    def monetary(self) -> bool:
        """Whether this is a monetary-unit selection (sections 12 and 19)."""
        return self.method in MONETARY

    @property
    def tickets(self) -> bool:
        """Whether this is a ticket draw (section 18)."""
        return self.method in TICKET_METHODS

    def rate_fraction(self) -> Fraction | None:
        """:attr:`rate` as an exact fraction (None without one)."""
        return None if self.rate is None else parse_rate(self.rate)

    def check(self) -> None:
        """Refuse options that cannot combine (each an OptionError, a usage error)."""
        if self.method not in METHODS:
            raise OptionError(f"--method {self.method}: choose one of {', '.join(METHODS)}")
        if self.k < 0 or self.reserves < 0 or (self.total or 0) < 0:
            raise OptionError("-k, --total and --reserves must be 0 or more")
        if any(n < 0 for _, n in self.counts or ()):
            raise OptionError("--strata-counts: every count must be 0 or more")
        self.rate_fraction()
        if self.weight_scale is not None and self.weight_scale < 1:
            raise OptionError(f"--weight-scale {self.weight_scale}: give a whole number 1 or more")
        for problem in [*self._conflicts(), *self._ticket_conflicts(), *self._prize_conflicts()]:
            raise OptionError(problem)

    def _prize_conflicts(self) -> list[str]:
        if self.prizes is None:
            return []
        names = [p.name for p in self.prizes]
        checks = (
            (not self.prizes, "--prizes: the table lists no prize"),
            (
                any(not p.name.strip() for p in self.prizes),
                "--prizes: a prize without a name: name every prize",
            ),
            (
                len(set(names)) < len(names),
                "--prizes: a prize is listed twice: give each prize once, with its count",
            ),
            (
                any(p.count < 1 or p.reserves < 0 for p in self.prizes),
                "--prizes: a count is 1 or more and reserves 0 or more",
            ),
            (
                self.k != sum(p.count for p in self.prizes)
                or self.reserves != sum(p.reserves for p in self.prizes),
                "--prizes says how many win and how many are reserves: leave out -k and --reserves",
            ),
            (
                self.strata is not None or self.rate is not None,
                "--prizes are drawn from the whole list: leave out --strata and --rate",
            ),
            (
                self.method in ("systematic", *MONETARY),
                f"--prizes are for a raffle, not --method {self.method}",
            ),
        )
        return [text for bad, text in checks if bad]

    def _ticket_conflicts(self) -> list[str]:
        method = self.method
        return [
            text
            for bad, text in (
                (
                    self.tickets and self.id is None,
                    f"--method {method} gives each entrant tickets from its ID: add --id COL",
                ),
                (
                    self.rate is not None and not self.tickets,
                    "--rate draws by section 18's tickets: add --method ticket",
                ),
                (
                    method == "rivest" and self.rate is not None and self.rate_fraction() != 1,
                    "--method rivest orders every entrant (rate 1): a rate below 1 takes "
                    "--method ticket",
                ),
                (
                    self.rate is not None and (self.k > 0 or self.total is not None),
                    "-k (or --total) and --rate both say how many: give one",
                ),
                (
                    self.rate is not None and self.counts is not None,
                    "--strata-counts and --rate both say how many: give one",
                ),
                (
                    method == "rivest" and (self.weights is not None or self.one_entry_per_id),
                    "--method rivest holds one ticket per entrant (as consistent_sampler "
                    "does): leave out --weights and --one-entry-per-id, or use --method ticket",
                ),
                (
                    self.weight_scale is not None and (method != "ticket" or not self.weights),
                    "--weight-scale states how many tickets a unit of --weights is, for "
                    "--method ticket --weights COL",
                ),
            )
            if bad
        ]

    def _conflicts(self) -> list[str]:
        audit = self.method in ("systematic", *MONETARY)
        return [
            text
            for bad, text in (
                (
                    self.monetary and self.amount is None,
                    f"--method {self.method} needs --amount COL",
                ),
                (
                    self.amount is not None and not self.monetary,
                    "--amount is read by --method mus or cell only: add one, or leave out --amount",
                ),
                (
                    self.top_stratum is not None and not self.monetary,
                    "--top-stratum is for a monetary-unit sample: add --method mus (or cell) "
                    "--amount COL",
                ),
                (
                    self.decimal != "auto" and not self.monetary,
                    "--decimal-comma and --decimal-point say how --amount writes decimals: "
                    "add --method mus (or cell) --amount COL",
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
                    self.all_of_small_strata and self.monetary,
                    "--all-of-small-strata is for a raffle or --method systematic: "
                    f"--method {self.method} counts cents, not rows",
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
        return "weighted" if tickets and self.method == "random" else METHODS[self.method]

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
            rate=None if spec.get("rate") is None else str(spec["rate"]),
            prizes=_prizes_of(spec.get("prizes")),
            weight_scale=None if spec.get("weight_scale") is None else int(spec["weight_scale"]),
            top_stratum=_cutoff_of(spec.get("top_stratum")),
            # a record without it read its amounts with a decimal point, as xlshuffle did
            decimal="comma"
            if spec.get("decimal") == "comma"
            else "point"
            if _FROM_RECORD[spec["method"]] in MONETARY
            else "auto",
        )


def _cutoff_of(given: Any) -> int | Literal["interval"] | None:
    """A record's ``top_stratum``: None, ``"interval"`` or a cutoff in cents."""
    if given is None or given == "interval":
        return cast(Literal["interval"] | None, given)
    if isinstance(given, bool) or not isinstance(given, int) or given < 1:
        raise ValueError(f"top_stratum {given!r} is not a cutoff in cents")
    return given


def _prizes_of(given: Any) -> tuple[Prize, ...] | None:
    """A record's ``prizes`` (``[{"prize", "count", "reserves"}...]``) as Prize lines."""
    if given is None:
        return None
    return tuple(Prize(str(p["prize"]), int(p["count"]), int(p["reserves"])) for p in given)
