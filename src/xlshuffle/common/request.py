"""A draw on a file, as one typed request: :class:`DrawRequest`.

Every front end (the command line, a committed draw, the Python API) says what it wants
drawn in the same frozen object: the file and the part of it that is drawn
(:class:`Region`), how (one of :class:`ShuffleOptions`, :class:`SampleOptions`,
:class:`GroupsOptions`), where the result goes (:class:`Output`), the seed
(:class:`~xlshuffle.draw.seed.Seed`) and every file beyond the list that the draw reads
(:class:`SideFile`: exclusion lists, strata counts, an earlier draw to avoid), each with
the SHA-256 of the bytes that were read.

:meth:`DrawRequest.canonical` is the draw as a commitment fixes it (protocol section 17):
the region and the options, with each side file named by its base name only (its content
is pinned beside it, by hash); :meth:`DrawRequest.from_canonical` reads it back.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, get_args

from ..draw.errors import OptionError
from ..draw.grid import Mode, parse_mode
from ..draw.seed import Seed
from ..tabledraw.raffle_options import DrawOptions, Prize
from .digest import file_sha256

__all__ = [
    "SIDE_OPTIONS",
    "DrawKind",
    "DrawRequest",
    "Engine",
    "GroupsOptions",
    "Options",
    "Output",
    "Region",
    "SampleOptions",
    "ShuffleOptions",
    "SideFile",
    "SideOption",
]

#: The draws on a file.
DrawKind = Literal["shuffle", "sample", "groups"]
#: What reads a file for a draw: the list or workbook engine in memory, or DuckDB.
Engine = Literal["memory", "duckdb"]
#: The options that name a file beyond the list, by their command-line names.
SideOption = Literal["--exclude", "--strata-counts", "--avoid", "--prizes"]
#: The options of a version 1 draw that name a file beyond the list (not pinned).
SIDE_OPTIONS: tuple[SideOption, ...] = ("--exclude", "--strata-counts", "--avoid")


@dataclass(frozen=True, kw_only=True)
class Region:
    """The part of the file that is drawn (a CSV/TSV list takes only ``header``).

    ``cells`` is an A1 range (``--range``), ``table`` an Excel table's name, ``columns``
    column letters such as ``"B,D"``; at most one of the three. ``header`` None is the
    default (on, off for ``cells``).
    """

    sheet: str | None = None
    cells: str | None = None
    table: str | None = None
    columns: str | None = None
    header: bool | None = None
    keep_blank_rows: bool = False

    @classmethod
    def of_options(cls, args: Any) -> Region:
        """The region the command line's selection options name (``args.sheet``,
        ``.range``, ``.table``, ``.columns``, ``.header``, ``.keep_blank_rows``): of a
        parsed command line, or of a version 1 commitment's options."""
        return cls(
            sheet=args.sheet,
            cells=args.range,
            table=args.table,
            columns=args.columns,
            header=args.header,
            keep_blank_rows=args.keep_blank_rows,
        )

    def workbook_only(self) -> list[str]:
        """The options given that only a workbook can take (a CSV/TSV list refuses them)."""
        given = (
            ("--sheet", self.sheet is not None),
            ("--range", self.cells is not None),
            ("--table", self.table is not None),
            ("--columns", self.columns is not None),
            ("--keep-blank-rows", self.keep_blank_rows),
        )
        return [option for option, is_given in given if is_given]


@dataclass(frozen=True, kw_only=True)
class Output:
    """Where the result goes: ``path`` (None: nowhere, or stdout for a sample), or over
    the input (``in_place``, keeping a backup unless ``backup`` is False); a
    ``dry_run`` writes nothing at all. ``set_aside``: where a monetary-unit sample writes
    the rows it sets aside (amounts of 0 or below), the header and those rows (None: the
    terminal and the record only list them)."""

    path: str | None = None
    in_place: bool = False
    backup: bool = True
    dry_run: bool = False
    set_aside: str | None = None


@dataclass(frozen=True, kw_only=True)
class ShuffleOptions:
    """``shuffle``: what moves (``by``)."""

    by: Mode = "rows"


@dataclass(frozen=True, kw_only=True)
class SampleOptions:
    """``sample``: ``k`` rows (None when ``draw`` says how many by its total or counts)
    to a new sheet ``sheet_name`` or a list; ``draw`` for tickets, reserves, exclusions,
    strata and audits (None for a plain sample)."""

    k: int | None = None
    sheet_name: str = "Sample"
    draw: DrawOptions | None = None


@dataclass(frozen=True, kw_only=True)
class GroupsOptions:
    """``groups``: ``k`` groups or groups of at most ``size``, numbered in a new column
    ``label``; ``balance`` (columns) makes them balanced teams, ``avoid`` (the path of
    an earlier groups draw) keeps earlier team-mates apart."""

    k: int | None = None
    size: int | None = None
    label: str = "Group"
    balance: tuple[str, ...] | None = None
    avoid: str | None = None


Options: TypeAlias = ShuffleOptions | SampleOptions | GroupsOptions
_OPTIONS: dict[str, type[Any]] = {
    "shuffle": ShuffleOptions,
    "sample": SampleOptions,
    "groups": GroupsOptions,
}


@dataclass(frozen=True)
class SideFile:
    """A file beyond the list that a draw reads: the option naming it, its path and the
    SHA-256 (hex) of its bytes as they were read."""

    option: SideOption
    path: str
    sha256: str

    @classmethod
    def read(cls, option: SideOption, path: str) -> SideFile:
        """The side file at ``path`` as it is now (OSError if it cannot be read)."""
        return cls(option, path, file_sha256(path))

    @property
    def name(self) -> str:
        """The file's base name, as a commitment names it."""
        return os.path.basename(self.path)


@dataclass(frozen=True, kw_only=True)
class DrawRequest:
    """One draw on one file: what is drawn, how, where it goes, and the seed.

    Examples
    --------
    >>> req = DrawRequest(
    ...     kind="sample", src="tickets.csv", seed=Seed.given("2026 raffle"),
    ...     options=SampleOptions(k=3),
    ... )
    >>> req.canonical()["sample"]
    {'k': 3, 'sheet_name': 'Sample', 'draw': None}
    >>> DrawRequest.from_canonical(req.canonical(), src="tickets.csv",
    ...     seed=req.seed) == req
    True
    """

    kind: DrawKind
    src: str
    seed: Seed
    options: Options
    region: Region = field(default_factory=Region)
    output: Output = field(default_factory=Output)
    limits: tuple[tuple[str, int], ...] = ()
    side_files: tuple[SideFile, ...] = ()
    #: which engine reads the file: ``memory`` (the list or the workbook engine) or
    #: ``duckdb`` (ticket draws on CSV/TSV and Parquet files of any size); the draw is the
    #: same, so a commitment leaves it out
    engine: Engine = "memory"

    def __post_init__(self) -> None:
        if self.kind not in get_args(DrawKind):
            raise OptionError(f"a draw on a file is one of {', '.join(get_args(DrawKind))}")
        if not isinstance(self.options, _OPTIONS[self.kind]):
            raise OptionError(
                f"a {self.kind} request takes {_OPTIONS[self.kind].__name__}, "
                f"not {type(self.options).__name__}"
            )
        draw = getattr(self.options, "draw", None)
        if self.output.set_aside is not None and (draw is None or not draw.monetary):
            raise OptionError(
                "--set-aside-output: only a monetary-unit sample (--method mus or cell) sets "
                "rows aside: leave it out, or draw by monetary unit"
            )

    @classmethod
    def from_keywords(
        cls,
        kind: DrawKind,
        src: str | os.PathLike[str],
        dst: str | os.PathLike[str] | None,
        options: Options,
        *,
        seed: object,
        region: Region,
        in_place: bool = False,
        backup: bool = True,
        dry_run: bool = False,
        limits: tuple[tuple[str, int], ...] = (),
    ) -> DrawRequest:
        """The request the Python API's keyword functions stand for: paths as given, the
        seed as :meth:`Seed.given <xlshuffle.draw.seed.Seed.given>` reads it (a stream is
        drawn from its start: the record keeps only its seed)."""
        return cls(
            kind=kind,
            src=os.fspath(src),
            seed=Seed.given(seed),
            options=options,
            region=region,
            output=Output(
                path=None if dst is None else os.fspath(dst),
                in_place=in_place,
                backup=backup,
                dry_run=dry_run,
            ),
            limits=limits,
        )

    def replace(self, **changes: Any) -> DrawRequest:
        """A copy with ``changes`` (the fields' names)."""
        return dataclasses.replace(self, **changes)

    def argv(self) -> list[str]:
        """The command line that states this request: ``xlshuffle`` followed by these
        arguments draws it (the kind, the file, the region, the options, the seed, and
        the output when the request names one). A side file is named by its path.

        Examples
        --------
        >>> req = DrawRequest(kind="sample", src="Raffle 2026.xlsx", seed=Seed("2026 "),
        ...     options=SampleOptions(k=3), region=Region(sheet="Tickets", cells="A2:C40"))
        >>> import shlex; shlex.join(["xlshuffle", *req.argv()])
        "xlshuffle sample 'Raffle 2026.xlsx' --sheet Tickets --range A2:C40 -k 3 --seed '2026 ' --exact-seed"
        """  # noqa: E501
        r = self.region
        out = [self.kind, self.src, *_flag("--sheet", r.sheet), *_flag("--range", r.cells)]
        out += [*_flag("--table", r.table), *_flag("--columns", r.columns)]
        if r.header is not None:
            out.append("--header" if r.header else "--no-header")
        out += ["--keep-blank-rows"] if r.keep_blank_rows else []
        out += _options_argv(self.options, self)
        out += ["--seed", self.seed.text, *(["--exact-seed"] if self.seed.needs_exact() else [])]
        o = self.output
        out += [*_flag("-o", o.path), *(["--in-place"] if o.in_place else [])]
        out += ["--no-backup"] if o.in_place and not o.backup else []
        out += _flag("--set-aside-output", o.set_aside)
        return out + (["--dry-run"] if o.dry_run else [])

    def side_file(self, option: SideOption) -> SideFile | None:
        """The side file ``option`` named, if any."""
        return next((f for f in self.side_files if f.option == option), None)

    def canonical(self) -> dict[str, Any]:
        """The draw as a commitment fixes it: kind, region and options as plain JSON
        values, a side file by its base name (its content is pinned by the commitment).
        Neither the file drawn, nor the output, nor the seed is part of it."""
        return {
            "kind": self.kind,
            "region": _region_plain(self.region),
            self.kind: _plain(self.options, self),
        }

    @classmethod
    def from_canonical(
        cls,
        data: dict[str, Any],
        *,
        src: str,
        seed: Seed,
        output: Output | None = None,
        excluded: tuple[str, ...] | None = None,
        side_files: tuple[SideFile, ...] = (),
    ) -> DrawRequest:
        """The request :meth:`canonical` gave, on ``src`` with ``seed``: ``excluded``
        holds the IDs read from the committed exclusion list (the canonical form names
        the file, not the IDs) and ``side_files`` the files as read now, with ``avoid``
        taking its path from there. KeyError, TypeError or ValueError for data that is
        not a canonical request."""
        kind = data["kind"]
        if kind not in _OPTIONS:
            raise ValueError(f"not a draw on a file: {kind!r}")
        raw = dict(data[kind])
        avoid = next((f.path for f in side_files if f.option == "--avoid"), None)
        options: Options
        if kind == "shuffle":
            options = ShuffleOptions(by=parse_mode(str(raw["by"])))
        elif kind == "sample":
            draw = raw.get("draw")
            options = SampleOptions(
                k=raw["k"],
                sheet_name=str(raw["sheet_name"]),
                draw=None if draw is None else _draw_options(draw, excluded),
            )
        else:
            balance = raw.get("balance")
            options = GroupsOptions(
                k=raw["k"],
                size=raw["size"],
                label=str(raw["label"]),
                balance=None if balance is None else tuple(str(c) for c in balance),
                avoid=avoid if raw.get("avoid") is not None else None,
            )
        return cls(
            kind=kind,
            src=src,
            seed=seed,
            options=options,
            region=_region(data["region"]),
            output=output or Output(),
            side_files=side_files,
        )


def _flag(option: str, value: object) -> list[str]:
    return [] if value is None else [option, str(value)]


def _options_argv(options: Options, request: DrawRequest) -> list[str]:
    """The arguments of a request's options, as its command states them."""
    side = {f.option: f.path for f in request.side_files}
    if isinstance(options, ShuffleOptions):
        return [] if options.by == "rows" else ["--by", options.by]
    if isinstance(options, GroupsOptions):
        out = _flag("-k", options.k) + _flag("--size", options.size)
        out += [] if options.label == "Group" else ["--label", options.label]
        for column in options.balance or ():
            out += ["--balance", column]
        return out + _flag("--avoid", options.avoid)
    out = _flag("-k", options.k)
    out += [] if options.sheet_name == "Sample" else ["--sheet-name", options.sheet_name]
    d = options.draw
    if d is None:
        return out
    named = (("--exclude", d.excluded), ("--strata-counts", d.counts), ("--prizes", d.prizes))
    for option, given in named:
        if given is not None and option not in side:
            raise OptionError(
                f"{option}: the command line reads these from a file, and this request "
                "names none: give the request its side file"
            )
    out += _flag("--weights", d.weights) + (
        [] if not d.reserves or d.prizes is not None else ["--reserves", str(d.reserves)]
    )
    out += [] if d.method == "random" else ["--method", d.method]
    out += _flag("--amount", d.amount) + _flag("--strata", d.strata)
    out += _flag("--total", d.total) + _flag("--strata-counts", side.get("--strata-counts"))
    out += _flag("--id", d.id) + _flag("--exclude", side.get("--exclude"))
    out += ["--one-entry-per-id"] if d.one_entry_per_id else []
    out += _flag("--rate", d.rate) + _flag("--weight-scale", d.weight_scale)
    out += _flag("--prizes", side.get("--prizes"))
    top = d.top_stratum
    out += _flag("--top-stratum", f"{top // 100}.{top % 100:02d}" if isinstance(top, int) else top)
    out += [] if d.decimal == "auto" else [f"--decimal-{d.decimal}"]
    return out + (["--all-of-small-strata"] if d.all_of_small_strata else [])


def _region_plain(region: Region) -> dict[str, Any]:
    """The region as JSON, ``cells`` by its option's name, ``range``."""
    plain = dataclasses.asdict(region)
    plain["range"] = plain.pop("cells")
    return plain


def _region(data: dict[str, Any]) -> Region:
    values = dict(data)
    values["cells"] = values.pop("range")
    return Region(**values)


def _plain(options: Options, request: DrawRequest) -> dict[str, Any]:
    """``options`` as JSON values; side files by base name."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if isinstance(value, DrawOptions):
            value = _plain_draw(value, request)
        elif f.name == "avoid":
            side = request.side_file("--avoid")
            value = None if value is None else (side.name if side else os.path.basename(value))
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def _plain_draw(options: DrawOptions, request: DrawRequest) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if f.name == "excluded":
            side = request.side_file("--exclude")
            out["exclude"] = None if value is None else (side.name if side else "")
            continue
        if f.name in _RULES and value in (None, False, "auto"):
            continue  # rules and options added to the draw later: absent unless asked
            # for, so that the canonical request of a draw without them is what it was
        if f.name == "counts" and value is not None:
            value = [[label, n] for label, n in value]
        elif f.name == "prizes" and value is not None:
            value = [p.to_list() for p in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


#: DrawOptions' rules (flags) and later options that a canonical request holds only when
#: they are given.
_RULES = (
    "one_entry_per_id",
    "all_of_small_strata",
    "rate",
    "weight_scale",
    "prizes",
    "top_stratum",
    "decimal",
)


def _draw_options(data: dict[str, Any], excluded: tuple[str, ...] | None) -> DrawOptions:
    given = {f.name for f in dataclasses.fields(DrawOptions)}
    skip = ("excluded", "counts", "prizes")
    values = {k: v for k, v in data.items() if k in given and k not in skip}
    counts = data.get("counts")
    if counts is not None:
        values["counts"] = tuple((str(label), int(n)) for label, n in counts)
    prizes = data.get("prizes")
    if prizes is not None:
        values["prizes"] = tuple(Prize(str(n), int(c), int(r)) for n, c, r in prizes)
    if data.get("exclude") is not None:
        if excluded is None:
            raise ValueError("the request excludes IDs read from a file: give them")
        values["excluded"] = excluded
    return DrawOptions(**values)
