"""``xlshuffle sql``: a ticket draw (protocol section 18) as one SQL query for an engine.

``xlshuffle sql --dialect duckdb|spark|bigquery|postgres --table NAME --id COL -k K
--seed S`` prints the query that returns, on that engine, the winners ``xlshuffle sample
--method ticket`` draws from the same table saved as a list, in draw order (by stratum,
then place, with ``--strata``). ``--population`` prints instead the query of the
population digest that fixes who is in the draw.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..common.files import write_atomically
from ..draw.errors import OptionError
from ..sql.query import DIALECTS, TicketSQL, population_query, ticket_query
from ..tabledraw.raffle_options import parse_rate

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``sql`` to the ``xlshuffle`` parser."""
    from . import add_seed, whole_number

    p = subparsers.add_parser(
        "sql",
        help="print a ticket draw as one SQL query (DuckDB, Spark SQL, BigQuery, PostgreSQL)",
        description="Print the SQL query that draws, on the engine of --dialect, the "
        "winners of 'xlshuffle sample --method ticket' over a table: the same entrants in "
        "the same order as the command line draws from the table saved as a CSV list. The "
        "query returns the ID column first, then the stratum, Role and Rank (with "
        "--reserves) and the Draw ticket (64 hex digits); with --strata it is ordered by stratum "
        "(code point order), then by place. The seed's key is computed here and written "
        "into the query, whose first lines say how to recompute it.",
    )
    p.add_argument("--dialect", required=True, choices=DIALECTS, help="the SQL engine")
    p.add_argument(
        "--table",
        required=True,
        metavar="NAME",
        help="the table, written into the query as given (a name, project.dataset.table, "
        "or a FROM item such as read_parquet('voters.parquet'))",
    )
    p.add_argument("--id", required=True, metavar="COL", help="the entrants' ID column")
    how = p.add_mutually_exclusive_group()
    how.add_argument("-k", type=whole_number, help="how many win (per stratum with --strata)")
    how.add_argument(
        "--rate", metavar="P", help="instead of -k: every entrant whose ticket is below P"
    )
    p.add_argument("--reserves", type=whole_number, default=0, metavar="R", help="then R more")
    p.add_argument("--weights", metavar="COL", help="tickets per entrant (whole at the scale)")
    p.add_argument(
        "--weight-scale", type=int, default=1, metavar="N", help="tickets per unit of weight"
    )
    p.add_argument("--strata", metavar="COL", help="draw -k (or by the rate) in each stratum")
    p.add_argument(
        "--method",
        choices=["ticket"],
        default="ticket",
        help="ticket (the only one: Rivest's order needs 256-bit decimals SQL lacks)",
    )
    p.add_argument(
        "--population",
        action="store_true",
        help="print the query of the population digest instead (section 18, step 5)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write the query here (default stdout)")
    add_seed(p, "query")
    p.set_defaults(func=cmd_sql)


def cmd_sql(args: argparse.Namespace) -> int:
    from . import UsageError, seed_of

    if args.seed is None:
        raise UsageError("sql needs --seed S: the query holds the seed's key")
    seed = seed_of(args)
    draw = TicketSQL(
        table=args.table,
        id=args.id,
        seed=seed.text,
        k=args.k,
        rate=None if args.rate is None else parse_rate(args.rate),
        reserves=args.reserves,
        weights=args.weights,
        scale=args.weight_scale,
        strata=args.strata,
    )
    try:
        if args.population:
            text = population_query(draw, args.dialect)
        else:
            if args.k is None and args.rate is None:
                raise OptionError("-k K or --rate P is required: how many win")
            text = ticket_query(draw, args.dialect)
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    if args.output:
        write_atomically(args.output, text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    return 0
