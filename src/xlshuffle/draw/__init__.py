"""The pure core of xlshuffle: draw protocol v1 and the shuffles built on it.

Standard library only (``regex`` is imported lazily, to split text into graphemes).
Every other layer (the Excel functions, the fairness lab, the command line, batch mode)
builds on this package, and this package imports none of them.

Modules
-------
protocol
    Seed normalisation and the seeded random stream (:class:`DrawStream`).
knuth
    The forward Durstenfeld shuffle and what is drawn with it: shuffles, deals, groups.
grid
    Grids (lists of rows): shuffle whole rows, columns or cells.
text
    Text shuffled by grapheme, word or character.
cards
    Playing cards: a canonical deck, and hands dealt from it.
weighted
    Weighted draws without replacement (raffle tickets), on a Fenwick tree.
raffle
    Winners and reserves from one draw; excluded entrants and their digest.
strata
    Stratified draws, each stratum from its own sub-stream.
orders
    Per-person orders (each from the person's own sub-stream) and Williams designs.
teams
    Balanced teams: sizes and each balancing value's count per team within one.
audit
    Systematic and monetary-unit (PPS) audit selections.
auditplan, auditeval
    Audit planning (the sample size) and evaluation (the upper limit, the Stringer bound).
tails
    Tails and upper bounds of the binomial, Poisson and hypergeometric models, exact or to
    30 digits.
tickets
    Ticket draws: each entrant's own tickets from the seed and its ID, consistent as lists
    grow (and Rivest's consistent-sampler order).
allocate
    Block allocation lists for trials: permuted blocks, per stratum combination.
values
    Ticket counts and money amounts from cells, as exact integers.
errors
    The exception tree.

Examples
--------
>>> from xlshuffle.draw import shuffled
>>> shuffled(range(1, 11), seed=42)
[9, 10, 4, 5, 7, 6, 1, 2, 8, 3]
"""

from .allocate import AllocationRow, allocation_list
from .audit import (
    AuditSample,
    MusPopulation,
    Selection,
    cell_sample,
    monetary_unit_sample,
    mus_population,
    systematic_sample,
)
from .auditeval import AttributeEvaluation, MusEvaluation, attribute_upper_limit, mus_upper_limit
from .auditplan import SamplePlan, attribute_sample_size, mus_sample_size
from .cards import RANKS, SUITS, deal_hands, standard_deck
from .errors import (
    EntryError,
    ListError,
    OptionError,
    SeedError,
    ShapeError,
    SizeError,
    WorkbookError,
    XlshuffleError,
)
from .grid import GRID_MODES, parse_mode, shuffle_grid
from .knuth import deal, groups, permutation, shuffle, shuffled
from .orders import balanced_orders, person_order, person_orders, person_stream, williams_design
from .protocol import (
    PROTOCOL,
    DrawStream,
    SeedLike,
    Source,
    SystemSource,
    as_stream,
    excel_serial,
    new_seed,
    normalise_seed,
)
from .raffle import Placing, canonical_id, exclude, exclusion_digest, placings
from .strata import Stratum, proportional_allocation, stratified_sample
from .tails import poisson_factor
from .teams import balanced_groups
from .text import TEXT_UNITS, graphemes, shuffle_text
from .tickets import population_digest, ticket, ticket_order
from .values import decimal_mark, parse_amounts, parse_weights
from .weighted import reduce_weights, weighted_sample

__all__ = [
    "GRID_MODES",
    "PROTOCOL",
    "RANKS",
    "SUITS",
    "TEXT_UNITS",
    "AllocationRow",
    "AttributeEvaluation",
    "AuditSample",
    "DrawStream",
    "EntryError",
    "ListError",
    "MusEvaluation",
    "MusPopulation",
    "OptionError",
    "Placing",
    "SamplePlan",
    "SeedError",
    "SeedLike",
    "Selection",
    "ShapeError",
    "SizeError",
    "Source",
    "Stratum",
    "SystemSource",
    "WorkbookError",
    "XlshuffleError",
    "allocation_list",
    "as_stream",
    "attribute_sample_size",
    "attribute_upper_limit",
    "balanced_groups",
    "balanced_orders",
    "canonical_id",
    "cell_sample",
    "deal",
    "deal_hands",
    "decimal_mark",
    "excel_serial",
    "exclude",
    "exclusion_digest",
    "graphemes",
    "groups",
    "monetary_unit_sample",
    "mus_population",
    "mus_sample_size",
    "mus_upper_limit",
    "new_seed",
    "normalise_seed",
    "parse_amounts",
    "parse_mode",
    "parse_weights",
    "permutation",
    "person_order",
    "person_orders",
    "person_stream",
    "placings",
    "poisson_factor",
    "population_digest",
    "proportional_allocation",
    "reduce_weights",
    "shuffle",
    "shuffle_grid",
    "shuffle_text",
    "shuffled",
    "standard_deck",
    "stratified_sample",
    "systematic_sample",
    "ticket",
    "ticket_order",
    "weighted_sample",
    "williams_design",
]
