"""Section 18's ticket draw as one SQL query, for DuckDB, Spark SQL, BigQuery and PostgreSQL.

:func:`ticket_query` writes the query that returns the winners (and reserves) of a ticket
draw over a table, in draw order: the ID column first, then the stratum, ``Role`` and
``Rank`` (with reserves) and the ``Draw ticket`` as 64 hex digits, exactly the entrants
``xlshuffle sample --method ticket`` draws from the same table saved as a list.
:func:`population_query` writes the query of the population digest (section 18, step 5).

Only the seed's key needs more than SQL's string functions and SHA-256: it is computed
here and written into the query as a literal (the *ticket prefix*), which the query's
first lines say how to recompute. Everything else is the engine's: each entrant's
canonical ID (its text, Unicode NFC where the engine has it, white space around it
removed as Python's ``str.strip`` does), its tickets, the smallest of them, and the order.

The query refuses loudly, with the engine's error function, what the command line
refuses: a blank ID, an ID holding a line break, a blank stratum, a weight that is not a
whole number of tickets at the stated scale, fewer entrants than ``k`` plus reserves, and
an ID drawn twice.

Examples
--------
>>> sql = ticket_query(TicketSQL("entrants", "ID", "2026", k=3), "duckdb")
>>> "ORDER BY xls_ticket, xls_id" in sql and "LIMIT 3" in sql
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, get_args

from ..draw.errors import OptionError
from ..draw.protocol import normalise_seed
from ..draw.tickets import TICKET_DOMAIN, rate_threshold, ticket_prefix

__all__ = [
    "DIALECTS",
    "TICKET_COLUMN",
    "WHITESPACE",
    "Dialect",
    "TicketSQL",
    "id_expression",
    "listing_query",
    "population_query",
    "ticket_query",
]

#: The column of the drawn entrants' tickets, named as the command line's output names it
#: (a raffle list often has a column "Ticket" of its own).
TICKET_COLUMN = "Draw ticket"

#: The SQL engines a query is written for.
Dialect = Literal["duckdb", "spark", "bigquery", "postgres"]
DIALECTS: tuple[Dialect, ...] = get_args(Dialect)

#: The characters Python's ``str.strip()`` removes (section 10's "white space around"),
#: which every dialect's query trims: an engine's plain ``trim`` removes spaces only.
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


@dataclass(frozen=True)
class TicketSQL:
    """A ticket draw over a table, as ``xlshuffle sql`` is asked for it.

    ``table`` is written into the query as given (a name, ``project.dataset.table``, or
    any FROM item such as DuckDB's ``read_parquet('f.parquet')``); ``id``, ``weights``
    and ``strata`` are column names, quoted by the dialect's rules. ``k`` winners, or every
    entrant below ``rate`` (an exact fraction, ``0 < rate <= 1``); then ``reserves``.
    ``weights`` are tickets per entrant at ``scale`` tickets per unit (section 18, step 2).
    ``carry`` names more columns the query keeps for each winner (after the ticket).

    The DuckDB engine asks for more (the printed queries leave them at their defaults):
    ``grouped`` makes the rows sharing an ID one entrant holding all their tickets (one
    entry per ID, section 10), ``counts`` gives each stratum its own ``k`` (its label's
    text in NFC, and the count; a stratum not listed draws none), ``take_small`` takes
    whole a stratum with fewer entrants than its count instead of refusing it (the caller
    then refuses what it must, naming the stratum), and ``rivest`` orders by Rivest's
    tickets, computed by a function ``xls_rivest(id)`` the engine registers.
    ``first_row`` names a column numbering the rows in file order: grouped, an entrant
    keeps the carried columns of its first row. ``strata_order`` lists the strata's
    labels (texts in NFC) in the order the rows come (default: code point order).
    """

    table: str
    id: str
    seed: object
    k: int | None = None
    rate: Fraction | None = None
    reserves: int = 0
    weights: str | None = None
    scale: int = 1
    strata: str | None = None
    carry: tuple[str, ...] = ()
    grouped: bool = False
    counts: tuple[tuple[str, int], ...] | None = None
    take_small: bool = False
    rivest: bool = False
    first_row: str | None = None
    strata_order: tuple[str, ...] | None = None

    @property
    def weighed(self) -> bool:
        """Whether an entrant may hold several tickets (weights, or one entry per ID)."""
        return self.weights is not None or self.grouped

    def check(self, *, counts: bool = True) -> None:
        """Refuse what cannot be drawn (OptionError saying what to give); ``counts``:
        whether ``k`` or a rate must be given (not for the population digest)."""
        if counts and (self.k is None) == (self.rate is None):
            raise OptionError("give -k K or --rate P: how many win")
        if (self.k is not None and self.k < 0) or self.reserves < 0:
            raise OptionError("-k and --reserves are 0 or more")
        if self.k is not None and self.counts is None and self.k + self.reserves < 1:
            raise OptionError(f"-k {self.k}: draw at least one entrant")
        if self.rate is not None:
            rate_threshold(self.rate)
        if self.scale < 1:
            raise OptionError(f"--weight-scale {self.scale}: give a whole number 1 or more")
        if self.scale != 1 and self.weights is None:
            raise OptionError("--weight-scale states tickets per unit of --weights COL: add it")
        if not self.table.strip():
            raise OptionError("--table: name the table (or a FROM item) to draw from")
        self._check_engine_fields()
        normalise_seed(self.seed)

    def _check_engine_fields(self) -> None:
        if self.grouped and self.carry and self.first_row is None:
            raise OptionError("one entry per ID keeps its first row's columns: name first_row")
        if self.counts is not None and (self.strata is None or self.rate is not None):
            raise OptionError("counts per stratum take --strata COL and -k, not a rate")
        if self.rivest and (self.weighed or (self.rate is not None and self.rate != 1)):
            raise OptionError("Rivest's order holds one ticket per entrant, and no rate below 1")


# --------------------------------------------------------------------------- dialects


@dataclass(frozen=True)
class _Engine:
    """What one SQL engine writes differently: the only place dialects differ."""

    text: str  # the text type
    integer: str  # a 64-bit integer type
    decimal: str  # an exact decimal type that holds a weight
    quote: Callable[[str], str]  # an identifier
    sha: Callable[[str], str]  # SHA-256 of a text's UTF-8, as 64 lower-case hex digits
    nfc: Callable[[str], str] | None  # Unicode NFC, where the engine has it
    trim: Callable[[str, str], str]  # (text, characters literal): those removed at both ends
    chars: Callable[[str], str]  # a literal holding any characters
    fail: Callable[[str], str]  # raise an error with this message; typed as text
    min_ticket: Callable[[str, str], str]  # (prefix literal, ID): smallest of xls_w tickets
    line_break: Callable[[str], str]  # whether a text holds a line feed or a carriage return
    try_cast: str = "TRY_CAST"  # a cast that gives NULL for a text that is no number
    collate: str = ""  # after every text compared, to compare code points


def _double_quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _backquoted(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _chr_literal(chars: str) -> str:
    """DuckDB's and PostgreSQL's literal of any characters: printable ASCII quoted, the
    rest by ``chr(code point)`` (neither engine reads ``\\u`` escapes in a plain literal)."""
    parts = [f"'{c}'" if " " < c < "\x7f" and c != "'" else f"chr({ord(c)})" for c in chars]
    return "(" + " || ".join(parts) + ")"


def _escaped_literal(chars: str) -> str:
    """Spark's and BigQuery's literal of any characters, by ``\\uXXXX`` escapes."""
    return "'" + "".join(f"\\u{ord(c):04x}" for c in chars) + "'"


def _message(text: str) -> str:
    """A plain message literal (no quote or backslash, so every dialect reads it alike)."""
    if "'" in text or "\\" in text:
        raise ValueError(f"not a plain message: {text!r}")
    return f"'{text}'"


# An entrant holding w tickets keeps the smallest of tickets 0 .. w-1 (section 18, step 2).
# Each dialect computes it per row, over an array or a series of the ticket numbers:
# exploding the numbers into rows and grouping by ID again would be the same draw, but
# would group the whole population by ID (a shuffle of every row in Spark).
_ENGINES: dict[Dialect, _Engine] = {
    "duckdb": _Engine(
        text="VARCHAR",
        integer="BIGINT",
        decimal="DECIMAL(38, 18)",
        quote=_double_quoted,
        sha=lambda x: f"sha256({x})",
        nfc=lambda x: f"nfc_normalize({x})",
        trim=lambda x, ws: f"trim({x}, {ws})",
        chars=_chr_literal,
        fail=lambda m: f"error({m})",
        min_ticket=lambda p, i: (
            f"list_min(list_transform(range(xls_w), lambda j: sha256({p} || "
            f"CAST(j AS VARCHAR) || '/' || {i})))"
        ),
        line_break=lambda x: f"strpos({x}, chr(10)) > 0 OR strpos({x}, chr(13)) > 0",
    ),
    "spark": _Engine(
        text="STRING",
        integer="BIGINT",
        # 12 places: a product by the scale keeps them all (Spark trims a product's places
        # to fit 38 digits, and DECIMAL(38, 18) times an integer would keep 6 or fewer)
        decimal="DECIMAL(30, 12)",
        quote=_backquoted,
        sha=lambda x: f"sha2({x}, 256)",
        nfc=None,
        trim=lambda x, ws: f"trim(BOTH {ws} FROM {x})",
        chars=_escaped_literal,
        fail=lambda m: f"CAST(raise_error({m}) AS STRING)",
        min_ticket=lambda p, i: (
            f"array_min(transform(sequence(CAST(0 AS BIGINT), xls_w - 1), j -> sha2({p} || "
            f"CAST(j AS STRING) || '/' || {i}, 256)))"
        ),
        line_break=lambda x: f"instr({x}, '\\n') > 0 OR instr({x}, '\\r') > 0",
        try_cast="try_cast",
    ),
    "bigquery": _Engine(
        text="STRING",
        integer="INT64",
        decimal="BIGNUMERIC",
        quote=_backquoted,
        sha=lambda x: f"TO_HEX(SHA256({x}))",
        nfc=lambda x: f"NORMALIZE({x}, NFC)",
        trim=lambda x, ws: f"TRIM({x}, {ws})",
        chars=_escaped_literal,
        fail=lambda m: f"ERROR({m})",
        min_ticket=lambda p, i: (
            f"(SELECT MIN(TO_HEX(SHA256({p} || CAST(j AS STRING) || '/' || {i}))) "
            "FROM UNNEST(GENERATE_ARRAY(0, xls_w - 1)) AS j)"
        ),
        line_break=lambda x: f"STRPOS({x}, '\\n') > 0 OR STRPOS({x}, '\\r') > 0",
        try_cast="SAFE_CAST",
    ),
    "postgres": _Engine(
        text="TEXT",
        integer="BIGINT",
        decimal="NUMERIC",
        quote=_double_quoted,
        sha=lambda x: f"encode(sha256(convert_to({x}, 'UTF8')), 'hex')",
        nfc=lambda x: f"normalize({x}, NFC)",
        trim=lambda x, ws: f"btrim({x}, {ws})",
        chars=_chr_literal,
        # PostgreSQL has no error function in plain SQL: a text that is no integer, cast
        # to one, fails with the text in the message. The empty text from random() keeps
        # the planner from folding the constant cast, which would fail every query.
        fail=lambda m: f"CAST(CAST({m} || left(CAST(random() AS TEXT), 0) AS INTEGER) AS TEXT)",
        min_ticket=lambda p, i: (
            f"(SELECT min(encode(sha256(convert_to({p} || CAST(j AS TEXT) || '/' || {i}, "
            "'UTF8')), 'hex') COLLATE \"C\") FROM generate_series(0, xls_w - 1) AS j)"
        ),
        line_break=lambda x: f"strpos({x}, chr(10)) > 0 OR strpos({x}, chr(13)) > 0",
        try_cast="CAST",  # no TRY_CAST: a weight that is no number fails with the cast
        collate=' COLLATE "C"',
    ),
}


def _engine(dialect: str) -> _Engine:
    for name, engine in _ENGINES.items():
        if name == dialect:
            return engine
    raise OptionError(f"--dialect {dialect}: choose one of {', '.join(DIALECTS)}")


def _canonical(e: _Engine, column: str, dialect: str, *, strip: bool = True) -> str:
    """Section 10's canonical text of a column's value: its text, NFC, stripped."""
    text = f"CAST({column} AS {e.text})"
    if dialect == "duckdb" and strip:
        # printable ASCII at both ends of an ASCII text: already NFC and stripped, so the
        # NFC and the trim (the costly part, over every row) are skipped. Texts compare by
        # their bytes: ">= '!'" reads the first byte; left() and right() would read
        # grapheme clusters, at a third of the cost of a ticket's SHA-256
        fast = f"strlen({text}) = length({text}) AND {text} >= '!' AND substr({text}, -1) > ' '"
        slow = e.trim(f"nfc_normalize({text})", e.chars(WHITESPACE))
        return f"CASE WHEN {fast} THEN {text} ELSE {slow} END"
    normal = text if e.nfc is None else e.nfc(text)
    return e.trim(normal, e.chars(WHITESPACE)) if strip else normal


def id_expression(column: str, dialect: str) -> str:
    """The SQL expression of the canonical ID (section 10) of the values of ``column`` (a
    column name, quoted here), as every query of ``dialect`` computes it."""
    e = _engine(dialect)
    return _canonical(e, e.quote(column), dialect)


# --------------------------------------------------------------------------- the query


def _header(draw: TicketSQL, dialect: str, what: str) -> list[str]:
    seed = normalise_seed(draw.seed)
    return [
        f"-- xlshuffle sql --dialect {dialect}: {what} (draw protocol section 18)",
        f"-- seed {json.dumps(seed.decode('utf-8'), ensure_ascii=False)} (its text, as "
        "protocol step 1 reads a seed)",
        f"-- The ticket prefix '{TICKET_DOMAIN}<key>/' below holds the seed's key, computed "
        "by xlshuffle:",
        '-- SHA-256 of "xlshuffle/draw/v1", a 0 byte and the seed text (UTF-8), as 64 hex '
        "digits. Recompute it:",
        "--   python3 -c \"import hashlib; print(hashlib.sha256(b'xlshuffle/draw/v1\\0' + "
        f"bytes.fromhex('{seed.hex()}')).hexdigest())\"",
        "-- An entrant's ID is the column's text"
        + (", NFC" if dialect != "spark" else " (Spark SQL has no NFC: store IDs in NFC)")
        + ", white space around it removed; its ticket",
        "-- number j is the SHA-256 of prefix || j || '/' || ID, and tickets compare as 64 "
        "hex digits.",
    ]


def _checked(draw: TicketSQL, e: _Engine, dialect: str) -> list[str]:
    """The CTEs ``entrants`` (canonical ID, stratum, units of weight) and ``checked``
    (each row refused by the engine's error, or kept with its ticket count ``xls_w``)."""
    q = e.quote
    cols = [f"{_canonical(e, q(draw.id), dialect)} AS xls_id"]
    if draw.strata is not None:
        cols.append(f"{_canonical(e, q(draw.strata), dialect, strip=False)} AS xls_stratum")
    if draw.weights is not None:
        weight = f"{e.try_cast}(CAST({q(draw.weights)} AS {e.text}) AS {e.decimal})"
        cols.append(f"{weight} * {draw.scale} AS xls_units")
    cols += [f"{q(c)} AS xls_c{n}" for n, c in enumerate(draw.carry)]
    cols += [] if draw.first_row is None else [f"{q(draw.first_row)} AS xls_r"]
    blank_id = "xls_id IS NULL OR xls_id = ''"
    ids = [
        (blank_id, "xlshuffle: an ID is blank: every entrant of a ticket draw needs its own"),
        (
            e.line_break("xls_id"),
            "xlshuffle: an ID holds a line break, which no ID of a ticket draw may hold",
        ),
    ]
    # Each refusal is in the value it checks, not in a WHERE: every later step reads the
    # value, so no engine can skip the check (a filter could be run after another that
    # drops the row, such as xls_w > 0).
    kept = [_refused(e, ids, "xls_id") + " AS xls_id"]
    if draw.strata is not None:
        blank = e.trim("xls_stratum", e.chars(WHITESPACE))
        why = "xlshuffle: a stratum label is blank: give every row a stratum"
        kept.append(
            _refused(e, [(f"xls_stratum IS NULL OR {blank} = ''", why)], "xls_stratum")
            + " AS xls_stratum"
        )
    if draw.weights is not None:
        why = (
            "xlshuffle: a weight is blank, not a number, negative or not a whole number "
            f"of tickets at scale {draw.scale}: state a scale that makes every weight whole"
        )
        bad = "xls_units IS NULL OR xls_units < 0 OR xls_units <> FLOOR(xls_units)"
        held = _refused(e, [(bad, why)], f"CAST(xls_units AS {e.integer})", e.integer)
        kept.append(f"{held} AS xls_w")
    kept += [f"xls_c{n}" for n in range(len(draw.carry))]
    kept += [] if draw.first_row is None else ["xls_r"]
    return [
        "WITH entrants AS (",
        f"  SELECT {', '.join(cols)}",
        f"  FROM {draw.table}",
        "),",
        "checked AS (",
        "  SELECT",
        ",\n".join(f"    {k}" for k in kept),
        "  FROM entrants",
        ")",
    ]


def _refused(e: _Engine, refusals: list[tuple[str, str]], value: str, cast: str = "") -> str:
    """``value``, or the engine's error when one of the conditions holds."""
    whens = "".join(
        f"\n      WHEN {cond} THEN "
        + (f"CAST({e.fail(_message(why))} AS {cast})" if cast else e.fail(_message(why)))
        for cond, why in refusals
    )
    return f"CASE{whens}\n      ELSE {value} END"


def _stratum(draw: TicketSQL) -> str:
    return ", xls_stratum" if draw.strata is not None else ""


def _carried(draw: TicketSQL) -> str:
    return "".join(f", xls_c{n}" for n in range(len(draw.carry)))


def _grouped(draw: TicketSQL, e: _Engine) -> list[str]:
    """The CTE ``grouped`` (one entry per ID): each distinct ID once, holding the tickets
    of all its rows (their count, or the sum of their weights), in the one stratum all
    its rows must share."""
    if not draw.grouped:
        return []
    held = "count(*)" if draw.weights is None else f"CAST(sum(xls_w) AS {e.integer})"
    cols = ["xls_id", f"{held} AS xls_w"]
    cols += [f"arg_min(xls_c{n}, xls_r) AS xls_c{n}" for n in range(len(draw.carry))]
    if draw.strata is not None:
        why = _message(
            "xlshuffle: an ID is in two strata: with --one-entry-per-id all the rows of an ID "
            "need one stratum"
        )
        two = f"min(xls_stratum){e.collate} <> max(xls_stratum){e.collate}"
        cols.append(f"CASE WHEN {two} THEN {e.fail(why)} ELSE min(xls_stratum) END AS xls_stratum")
    return [
        "grouped AS (",
        f"  SELECT {', '.join(cols)}",
        "  FROM checked GROUP BY xls_id",
        "),",
    ]


def _ticket(draw: TicketSQL, e: _Engine) -> str:
    """An entrant's ticket: the smallest of its tickets (Rivest's, by the engine's
    function)."""
    prefix = ticket_prefix(draw.seed)
    if draw.rivest:
        return "xls_rivest(xls_id)"
    if not draw.weighed:
        return e.sha(f"'{prefix}0/' || xls_id")
    return e.min_ticket(f"'{prefix}'", "xls_id")


def _tickets(draw: TicketSQL, e: _Engine) -> list[str]:
    """The CTE ``tickets``: each entrant holding tickets, with the smallest of them."""
    ticket = _ticket(draw, e)
    source = "grouped" if draw.grouped else "checked"
    return [
        "tickets AS (",
        f"  SELECT xls_id{_stratum(draw)}, {ticket} AS xls_ticket{_carried(draw)}",
        f"  FROM {source}" + ("" if not draw.weighed else "\n  WHERE xls_w > 0"),
        "),",
    ]


def _order(e: _Engine, *keys: str) -> str:
    return ", ".join(f"{k}{e.collate}" for k in keys)


def _drawn(draw: TicketSQL, e: _Engine) -> list[str]:
    """The CTE ``drawn``: each drawn entrant with ``xls_role`` and ``xls_rank``."""
    by = _order(e, "xls_ticket", "xls_id")
    cols = f"xls_id, xls_ticket{_carried(draw)}"
    if draw.rate is not None:
        threshold = rate_threshold(draw.rate)
        below = "TRUE" if threshold is None else f"xls_ticket{e.collate} < '{threshold}'"
        role = f"CASE WHEN {below} THEN 'winner' ELSE 'reserve' END"
        part = "xls_stratum, " if draw.strata is not None else ""
        cols = f"{cols}, xls_stratum" if draw.strata is not None else cols
        return [
            "ranked AS (",
            f"  SELECT {cols}, {role} AS xls_role,",
            f"    row_number() OVER (PARTITION BY {part}{role} ORDER BY {by}) AS xls_rank",
            "  FROM tickets" + ("" if draw.reserves or threshold is None else f"\n  WHERE {below}"),
            "),",
            "drawn AS (",
            f"  SELECT * FROM ranked WHERE xls_role = 'winner' OR xls_rank <= {draw.reserves}",
            "),",
        ]
    k, n = draw.k or 0, (draw.k or 0) + draw.reserves
    won = "xls_k" if draw.counts is not None else f"{k}"  # with counts, each stratum's own
    role = f"CASE WHEN xls_place <= {won} THEN 'winner' ELSE 'reserve' END"
    rank = f"CASE WHEN xls_place <= {won} THEN xls_place ELSE xls_place - {won} END"
    if draw.strata is None:
        # the k + R smallest, by a sort that keeps only them (a global row_number would
        # move every row to one worker in Spark)
        return [
            "smallest AS (",
            f"  SELECT {cols} FROM tickets ORDER BY {by} LIMIT {n}",
            "),",
            "placed AS (",
            f"  SELECT {cols}, row_number() OVER (ORDER BY {by}) AS xls_place FROM smallest",
            "),",
            "drawn AS (",
            f"  SELECT {cols}, {role} AS xls_role, {rank} AS xls_rank FROM placed",
            "),",
        ]
    k_of = ""
    if draw.counts is not None:  # each stratum's own k, by its label's text
        whens = " ".join(f"WHEN {e.chars(label)} THEN {c}" for label, c in draw.counts)
        k_of = f",\n    CASE xls_stratum {whens} ELSE 0 END AS xls_k" if whens else ", 0 AS xls_k"
    last = f"xls_k + {draw.reserves}" if draw.counts is not None else f"{n}"
    return [
        "placed AS (",
        f"  SELECT {cols}, xls_stratum,",
        f"    row_number() OVER (PARTITION BY xls_stratum ORDER BY {by}) AS xls_place{k_of}",
        "  FROM tickets",
        "),",
        "drawn AS (",
        f"  SELECT {cols}, xls_stratum, {role} AS xls_role, {rank} AS xls_rank",
        f"  FROM placed WHERE xls_place <= {last}",
        "),",
    ]


def _checked_result(draw: TicketSQL, e: _Engine) -> list[str]:
    """The CTE ``counted`` (per stratum) and the final SELECT, which refuses a stratum (or
    a table) with fewer entrants than the count and an ID drawn twice."""
    q = e.quote
    # with counts per stratum, or small strata taken whole, the caller refuses a stratum
    # smaller than its count (it names the stratum)
    whole = draw.take_small or draw.counts is not None
    need = None if draw.k is None or whole else draw.k + draw.reserves
    few = (
        []
        if need is None
        else [
            (
                f"xls_count < {need}",
                _message(
                    f"xlshuffle: fewer entrants holding tickets than the {need} asked for"
                    + (" in a stratum" if draw.strata is not None else "")
                    + ": ask for fewer"
                ),
            )
        ]
    )
    twice = (
        "xls_ids < xls_count",
        _message("xlshuffle: an ID is drawn twice: the IDs of a ticket draw must be distinct"),
    )
    whens = "\n".join(f"      WHEN {c} THEN {e.fail(m)}" for c, m in [*few, twice])
    out = [f"drawn.xls_id AS {q(draw.id)}"]
    if draw.strata is not None:
        out.append(f"drawn.xls_stratum AS {q(draw.strata)}")
    if draw.reserves:
        out += [f"drawn.xls_role AS {q('Role')}", f"drawn.xls_rank AS {q('Rank')}"]
    out.append(f"drawn.xls_ticket AS {q(TICKET_COLUMN)}")
    out += [f"drawn.xls_c{n} AS {q(c)}" for n, c in enumerate(draw.carry)]
    check = f"  WHERE CASE\n{whens}\n      ELSE 'ok' END = 'ok'"
    if draw.strata is None:
        # one row even when nothing is drawn, so that the count is checked
        return [
            "counted AS (",
            "  SELECT count(*) AS xls_count, count(DISTINCT xls_id) AS xls_ids FROM drawn",
            ")",
            f"SELECT {', '.join(out)}",
            "FROM counted LEFT JOIN drawn ON TRUE",
            check,
            "  AND drawn.xls_id IS NOT NULL",
            f"ORDER BY {_order(e, 'drawn.xls_ticket', 'drawn.xls_id')}",
        ]
    return [
        "counted AS (",
        "  SELECT xls_stratum, count(*) AS xls_count, count(DISTINCT xls_id) AS xls_ids",
        "  FROM drawn GROUP BY xls_stratum",
        ")",
        f"SELECT {', '.join(out)}",
        "FROM drawn JOIN counted ON drawn.xls_stratum = counted.xls_stratum",
        check,
        f"ORDER BY {_strata_order(draw, e, 'drawn.xls_stratum')}"
        + _order(e, "drawn.xls_ticket", "drawn.xls_id"),
    ]


def _strata_order(draw: TicketSQL, e: _Engine, column: str) -> str:
    """The ORDER BY's first key (and its comma): the strata in ``draw.strata_order``, or
    by their labels' code points."""
    if draw.strata_order is None:
        return f"{column}{e.collate}, "
    whens = " ".join(f"WHEN {e.chars(label)} THEN {n}" for n, label in enumerate(draw.strata_order))
    return f"CASE {column} {whens} END, "


def ticket_query(draw: TicketSQL, dialect: str) -> str:
    """The SQL query of ``draw`` for ``dialect``: the winners (then the reserves) in draw
    order, the ID column first; with strata, ordered by stratum (code point order), then
    by place within it.

    Parameters
    ----------
    draw : TicketSQL
        The draw: table, columns, seed, and ``k`` or a rate.
    dialect : {"duckdb", "spark", "bigquery", "postgres"}

    Returns
    -------
    str
        One query (a WITH statement), its first lines comments saying how the ticket
        prefix it holds is computed from the seed.

    Raises
    ------
    OptionError
        A draw that cannot be asked for, or an unknown dialect.
    """
    e = _engine(dialect)
    draw.check()
    what = "ticket draw of " + (f"{draw.k}" if draw.k is not None else f"rate {draw.rate}")
    what += f" + {draw.reserves} reserves" if draw.reserves else ""
    what += f", by {draw.weights} at scale {draw.scale}" if draw.weights else ""
    what += f", per {draw.strata}" if draw.strata else ""
    if draw.rate is not None:
        bound = rate_threshold(draw.rate)
        what += f" (tickets below {bound})" if bound else " (every entrant)"
    lines = [
        *_header(draw, dialect, what),
        *_checked(draw, e, dialect)[:-1],
        "),",
        *_grouped(draw, e),
        *_tickets(draw, e),
        *_drawn(draw, e),
        *_checked_result(draw, e),
    ]
    return "\n".join(lines) + "\n"


def listing_query(draw: TicketSQL, dialect: str) -> str:
    """The SQL query of every entrant of ``draw``'s table in draw order (what ``xlshuffle
    tickets`` lists): ``xls_place`` (1-based, within its stratum), ``xls_id`` (the
    canonical ID), ``xls_stratum`` (with strata), ``xls_w`` (the ticket count, with
    weights or one entry per ID), ``xls_ticket``, then the carried columns; entrants
    without a ticket (weight 0) left out. An ID on two rows (unless grouped) is refused
    with strata; without, its rows come one after the other (one ID, one ticket) and the
    caller refuses them as they stream (a check of every row would cost another sort)."""
    e = _engine(dialect)
    draw.check(counts=False)
    partition = "PARTITION BY xls_stratum " if draw.strata is not None else ""
    by = _order(e, "xls_ticket", "xls_id")
    ticket = "xls_ticket"
    if not draw.grouped and draw.strata is not None:
        # an ID on two rows has one ticket: without strata its rows are next to each other
        # in the order, where the caller sees them; with strata they may not be
        why = _message("xlshuffle: an ID is on two rows: give each entrant its own ID")
        twice = "count(*) OVER (PARTITION BY xls_id) > 1"
        ticket = f"CASE WHEN {twice} THEN {e.fail(why)} ELSE xls_ticket END"
    held = ", xls_w" if draw.weighed else ""
    source = "grouped" if draw.grouped else "checked"
    stratum = _stratum(draw)
    first = _strata_order(draw, e, "xls_stratum") if draw.strata is not None else ""
    return (
        "\n".join(
            [
                *_header(draw, dialect, "every entrant's place and ticket"),
                *_checked(draw, e, dialect)[:-1],
                "),",
                *_grouped(draw, e),
                "tickets AS (",
                f"  SELECT xls_id{stratum}{held}, {_ticket(draw, e)} AS xls_ticket"
                + _carried(draw),
                f"  FROM {source}" + ("" if not draw.weighed else "\n  WHERE xls_w > 0"),
                ")",
                f"SELECT row_number() OVER ({partition}ORDER BY {by}) AS xls_place, xls_id"
                f"{stratum}{held}, {ticket} AS xls_ticket{_carried(draw)}",
                "FROM tickets",
                f"ORDER BY {first}{by}",
            ]
        )
        + "\n"
    )


def population_query(
    draw: TicketSQL, dialect: str, *, count: bool = False, lines: bool = False
) -> str:
    """The SQL query of the population digest of ``draw``'s table (section 18, step 5):
    one row, ``population_sha256``, the SHA-256 of the entrants' lines (the canonical ID,
    and with weights a tab and the ticket count) sorted by code point and joined by line
    feeds; ``draw.grouped`` (one entry per ID): each distinct ID once, with the tickets of
    all its rows. ``count`` adds ``population_entrants``, how many lines; ``lines`` gives
    the sorted lines themselves, one row each, for an engine that hashes them as they
    stream (``xls_line``, in code point order). The whole sorted
    list is one text in the engine: BigQuery caps a text at about 100 MB, so there it fits
    tables of a few million entrants."""
    e = _engine(dialect)
    draw.check(counts=False)
    line = "xls_id"
    if draw.weighed:
        line = f"xls_id || {e.chars(chr(9))} || CAST(xls_w AS {e.text})"
    nl = e.chars("\n")
    if dialect == "spark":
        agg = f"array_join(array_sort(collect_list(xls_line)), {nl})"
    else:
        agg = f"string_agg(xls_line, {nl} ORDER BY xls_line{e.collate})"
    what = "population digest" + (f", {draw.weights} at scale {draw.scale}" if draw.weights else "")
    what += ", one entry per ID" if draw.grouped else ""
    ctes = _checked(draw, e, dialect)
    if draw.grouped:
        ctes = [*ctes[:-1], "),", *_grouped(draw, e)]
        ctes[-1] = ")"
    entrants = ", count(*) AS population_entrants" if count else ""
    source = "grouped" if draw.grouped else "checked"
    if lines:
        return (
            "\n".join(
                [
                    *_header(draw, dialect, what),
                    *ctes,
                    f"SELECT {line} AS xls_line FROM {source}",
                    f"ORDER BY xls_line{e.collate}",
                ]
            )
            + "\n"
        )
    return (
        "\n".join(
            [
                *_header(draw, dialect, what),
                *ctes,
                f"SELECT {e.sha(f'COALESCE({agg}, {chr(39)}{chr(39)})')} AS population_sha256"
                + entrants,
                f"FROM (SELECT {line} AS xls_line FROM "
                + ("grouped" if draw.grouped else "checked")
                + ") AS lines",
            ]
        )
        + "\n"
    )
