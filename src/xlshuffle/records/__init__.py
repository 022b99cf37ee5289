"""Records, and verifying them: every kind of record xlshuffle writes, and one function
that checks any of them.

>>> from xlshuffle import records
>>> rec = records.DealRecord(seed="7", hands=((1, 5), (3, 2)), deck=6)
>>> records.verify(rec)
Verdict(ok=False, message="record: seed '7' does not deal these hands: hand 1 is 1 5, the seed deals 3 2")

- :func:`load` reads a record file (one record, or the draws of one run);
- :func:`verify` replays a record and checks files against it, giving a :class:`Verdict`
  (a mismatch is a verdict, not an exception);
- the kinds: :class:`DrawRecord` (``shuffle``, ``sample``, ``groups``, ``restore``, of a
  workbook or a CSV/TSV list, committed or not), :class:`OrdersRecord`,
  :class:`AllocationRecord`, :class:`DealRecord`. Each has ``to_dict()``, the JSON data
  its command writes (what :func:`json.dump` takes).

Importing this module loads only the standard library; a workbook's checks load the
workbook engine (the ``xlsx`` extra) when they run.
"""  # noqa: E501

from ..common.record import RECORD_VERSION, DrawRecord
from .kinds import (
    AllocationRecord,
    DealRecord,
    OrdersRecord,
    Record,
    RecordKind,
    RoundRecord,
    load,
    parse,
)
from .verify import Verdict, verify

__all__ = [
    "RECORD_VERSION",
    "AllocationRecord",
    "DealRecord",
    "DrawRecord",
    "OrdersRecord",
    "Record",
    "RecordKind",
    "RoundRecord",
    "Verdict",
    "load",
    "parse",
    "verify",
]
