"""The kinds of record xlshuffle writes, and reading any of them: :func:`load`.

- :class:`~xlshuffle.common.record.DrawRecord`: ``shuffle``, ``sample``, ``groups`` and
  ``restore`` of a workbook or a CSV/TSV list, committed or not (``--record``);
- :class:`OrdersRecord`: ``orders`` (per-person orders of items);
- :class:`AllocationRecord`: ``allocate`` (a trial's allocation list);
- :class:`DealRecord`: ``deal --json``.

Which kind a JSON object is, is decided here and nowhere else (:func:`parse`).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

from ..common.record import DrawRecord, record_items
from ..draw.errors import WorkbookError
from ..draw.protocol import PROTOCOL

__all__ = [
    "AllocationRecord",
    "DealRecord",
    "OrdersRecord",
    "Record",
    "RecordKind",
    "RoundRecord",
    "load",
    "parse",
]

#: The kinds of record, by the command that writes them.
RecordKind = Literal["draw", "orders", "allocation", "deal", "round"]


@dataclass(frozen=True)
class _Written:
    """A record kept as the JSON object its command wrote."""

    data: Mapping[str, Any]

    kind: ClassVar[RecordKind]

    @property
    def seed(self) -> str:
        return str(self.data.get("seed", ""))

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON data, as its command wrote it."""
        return copy.deepcopy(dict(self.data))


@dataclass(frozen=True)
class OrdersRecord(_Written):
    """An ``orders`` record: per-person orders of items (protocol sections 13-14)."""

    kind: ClassVar[RecordKind] = "orders"


@dataclass(frozen=True)
class AllocationRecord(_Written):
    """An ``allocate`` record: a trial's block allocation list (protocol section 15)."""

    kind: ClassVar[RecordKind] = "allocation"


@dataclass(frozen=True)
class DealRecord:
    """A ``deal --json`` record: the hands dealt, and the deck they were dealt from.

    ``deck`` is N for the numbers 1..N, None for playing cards (``decks`` decks of 52
    with ``jokers`` jokers each).

    Examples
    --------
    >>> rec = DealRecord(seed="7", hands=(("A♠", "3♦"),), deck=None)
    >>> DealRecord.from_dict(rec.to_dict()) == rec
    True
    """

    seed: str
    hands: tuple[tuple[object, ...], ...]
    deck: int | None = None
    decks: int = 1
    jokers: int = 0
    protocol: str = PROTOCOL

    kind: ClassVar[RecordKind] = "deal"

    def to_dict(self) -> dict[str, Any]:
        """The record as ``deal --json`` prints it."""
        return {
            "protocol": self.protocol,
            "seed": self.seed,
            "deck": self.deck,
            "decks": self.decks,
            "jokers": self.jokers,
            "hands": [list(hand) for hand in self.hands],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], label: str = "record") -> DealRecord:
        """The record ``deal --json`` printed (WorkbookError naming a field it lacks)."""
        try:
            hands = tuple(tuple(hand) for hand in data["hands"])
            deck, decks, jokers = data.get("deck"), data.get("decks", 1), data.get("jokers", 0)
            ok = isinstance(data["seed"], str) and all(
                isinstance(x, int) and not isinstance(x, bool) for x in (decks, jokers)
            )
            ok = ok and (deck is None or (isinstance(deck, int) and not isinstance(deck, bool)))
        except (KeyError, TypeError):
            ok = False
        if not ok:
            raise WorkbookError(
                f"{label}: not a complete deal record (seed, hands, deck, decks, jokers): give "
                "the JSON 'xlshuffle deal --json' printed"
            )
        return cls(str(data["seed"]), hands, deck, decks, jokers, str(data.get("protocol", "")))


@dataclass(frozen=True)
class RoundRecord(_Written):
    """A round's record (``xlshuffle redraw``): a winner's place given to a reserve, linked
    by SHA-256 to the record before it."""

    kind: ClassVar[RecordKind] = "round"


#: Any record xlshuffle writes.
Record: TypeAlias = DrawRecord | OrdersRecord | AllocationRecord | DealRecord | RoundRecord


def parse(data: Mapping[str, Any], label: str = "record") -> Record:
    """The record a JSON object is, by what it holds (WorkbookError naming ``label`` when
    it is none of them, or an incomplete one)."""
    command = data.get("command")
    if command == "orders":
        _check_orders_fields(data, label)
        return OrdersRecord(data)
    if command == "allocate":
        return AllocationRecord(data)
    if command == "redraw":
        missing = [
            k for k in ("previous", "replace", "reason", "given_to", "seed") if k not in data
        ]
        if missing:
            raise WorkbookError(
                f"{label}: not a complete round record (no {missing[0]}): give the record "
                "'xlshuffle redraw' wrote"
            )
        return RoundRecord(data)
    if "hands" in data and command in (None, "deal"):
        return DealRecord.from_dict(data, label)
    return DrawRecord.from_dict(dict(data), label)


def load(path: str | os.PathLike[str]) -> list[Record]:
    """The records in the file at ``path``: one, or the draws of one run over several
    files (a JSON array, or JSON lines).

    Raises
    ------
    WorkbookError
        Naming ``path``: a file that is not a record xlshuffle wrote (not JSON, a
        truncated file, an object of no known kind or missing a field).
    OSError
        A file that cannot be read.
    """
    name = os.fspath(path)
    return [parse(item, name) for item in record_items(name)]


_TEXT, _WHOLE, _NONE = (str,), (int,), (type(None),)
# each field an orders record's check reads: its kinds, and whether it must be there
_ORDERS_FIELDS: dict[str, tuple[tuple[type, ...], bool]] = {
    "seed": (_TEXT, True),
    "items": (_TEXT, True),
    "ids": (_TEXT, True),
    "items_sha256": (_TEXT, True),
    "ids_sha256": (_TEXT, True),
    "people": (_WHOLE, True),
    "k": (_WHOLE + _NONE, False),
    "balanced": ((bool,), False),
    "items_column": (_TEXT + _WHOLE + _NONE, False),
    "ids_column": (_TEXT + _WHOLE + _NONE, False),
    "items_range": (_TEXT + _NONE, False),
    "ids_range": (_TEXT + _NONE, False),
}


def _check_orders_fields(record: Mapping[str, Any], label: str) -> None:
    """Refuse an orders record whose fields are missing or of the wrong kind, naming it."""
    for name, (kinds, required) in _ORDERS_FIELDS.items():
        if name not in record:
            if required:
                raise WorkbookError(
                    f"{label}: not a complete orders record (no {name}): give the record file "
                    "xlshuffle orders wrote"
                )
            continue
        value = record[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            want = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
            raise WorkbookError(
                f"{label}: field {name!r} of the orders record is {type(value).__name__}, not "
                f"{want}: give the record file xlshuffle orders wrote"
            )
