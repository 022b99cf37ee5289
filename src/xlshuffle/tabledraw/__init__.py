"""The draws over a table of values that lists, workbooks and Excel share.

A list, a workbook's range and a worksheet function each read their rows into one
:class:`~xlshuffle.tabledraw.entrants.Entrants`; the modules here decide from it, the same
way for all of them, which rows win a raffle or an audit and how teams are formed. Not part
of the public API: the engines and the spreadsheet functions use these, and their names may
change between releases.

Modules
-------
entrants
    The rows of a draw as a table of values, whatever file they came from.
entries
    Entrants by ID: one row each, or one per distinct ID.
exclusions
    Entrants left out by ID, and what the list said that matched no one.
counts
    The number of groups and ``-k`` checked alike for workbooks and lists.
raffle_options
    What a raffle or an audit is asked for, and the record's account of it.
raffle_parts
    One stratum's draw (or the whole list's): tickets, reserves, audits.
raffles
    Which rows win: raffles and audits over a table, strata and exclusions included.
rounds
    Where the drawn entrants stand after a draw's rounds, and the rule of a round.
pool
    Who a draw can still draw: a fresh round's pool (protocol section 19).
teams
    Balanced teams over any table of entrants.
winners
    Winners saved from stdout, compared with the draw's.

This package may import only :mod:`xlshuffle.draw` and itself.
"""

__all__: list[str] = []
