"""Balanced teams on CSV/TSV lists: ``balanced_groups_csv`` and its check.

The list is read into an :class:`~xlshuffle.tabledraw.entrants.Entrants` (columns named by
header text or letter, as every draw of a list names them); each data record's values in
the balancing columns go to :func:`~xlshuffle.draw.teams.balanced_groups` (protocol
section 16), and the team number is written as ``groups_csv`` writes a group number: one
more field at the end of each record, ``label`` on the header. The record is a groups
record; its ``permutation`` is the people's shuffle (step 1 of section 16, the same as a
plain ``groups`` draw's) and ``target["balance"]`` names the columns and holds the
balance table, so ``xlshuffle verify REC --input IN --output OUT`` can draw it again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from typing import Any

from ..common.digest import bytes_sha256
from ..common.request import DrawRequest, GroupsOptions
from ..draw.errors import ListError, OptionError
from ..draw.knuth import group_numbers, permutation
from ..draw.protocol import DrawStream
from ..draw.seed import Seed
from ..draw.teams import repeats
from ..tabledraw.counts import group_count
from ..tabledraw.teams import Teams, balance_table, draw_teams
from .lines import DEFAULT_MAX_MB
from .opened import (
    Opened,
    csv_field,
    list_record,
    list_request,
    opened,
    refuse_label,
    too_many_records,
    write_list,
)
from .raffle import Fields

__all__ = ["balance_table", "balanced_groups_csv", "balanced_groups_list", "verify_balanced_csv"]

PathLike = str | os.PathLike[str]


def _teams(
    op: Opened,
    balance: Sequence[str],
    k: int,
    stream: DrawStream,
    before: Sequence[int | None] | None = None,
) -> Teams:
    """The list's data records dealt into balanced teams (:func:`draw_teams`)."""
    return draw_teams(Fields(op).entrants(), balance, k, stream, before)


def _chunks(op: Opened, numbers: Sequence[int], label: str) -> Iterator[bytes | bytearray]:
    lst, sep = op.lst, op.lst.delimiter.encode("ascii")
    yield lst.head
    for r in range(lst.records):
        body, end = lst.body(r)
        i = r - op.first
        yield body + sep + (csv_field(label, lst.delimiter) if i < 0 else b"%d" % numbers[i])
        yield end
    yield lst.tail


def balanced_groups_csv(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    balance: Sequence[str],
    k: int | None = None,
    size: int | None = None,
    seed: object = None,
    label: str = "Group",
    header: bool = True,
    in_place: bool = False,
    backup: bool = True,
    dry_run: bool = False,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
    avoid: PathLike | None = None,
) -> dict[str, Any]:
    """Split the data records into ``k`` teams balanced by the ``balance`` columns.

    Records do not move; each gets its team number (``1..k``) as a last field, as
    :func:`~xlshuffle.lists.groups_csv` adds a group number. Team sizes differ by at most
    one, and so do the counts per team of each value of the first balancing column (and
    of each combination of the balancing columns' values); see protocol section 16.

    Parameters
    ----------
    balance : sequence of str
        The balancing columns, by header text or letter, most important first.
    k, size : int, optional
        The number of teams, or their largest size (``k = ceil(n / size)``).
    avoid : path, optional
        An earlier groups draw of this list (its output list, or its record, plain or
        balanced): people together there are kept apart as far as the first of
        at most 64 candidates with the fewest repeated pairs allows (section 16).

    Returns
    -------
    dict
        The groups record; ``target["balance"]`` holds the columns and the balance table.

    Examples
    --------
    >>> import os, pathlib, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> src, dst = os.path.join(folder, "class.csv"), os.path.join(folder, "teams.csv")
    >>> _ = pathlib.Path(src).write_bytes(b"Name,Sex\\nAnn,F\\nBo,M\\nCy,M\\nDee,F\\n")
    >>> rec = balanced_groups_csv(src, dst, balance=["Sex"], k=2, seed=42)
    >>> pathlib.Path(dst).read_bytes()
    b'Name,Sex,Group\\nAnn,F,1\\nBo,M,1\\nCy,M,2\\nDee,F,2\\n'
    >>> [team["counts"] for team in rec["target"]["balance"]["teams"]]
    [[{'F': 1, 'M': 1}], [{'F': 1, 'M': 1}]]
    """
    options = GroupsOptions(
        k=k,
        size=size,
        label=label,
        balance=tuple(balance),
        avoid=None if avoid is None else os.fspath(avoid),
    )
    request = list_request(
        "groups",
        src,
        dst,
        options,
        seed=seed,
        header=header,
        in_place=in_place,
        backup=backup,
        dry_run=dry_run,
        max_bytes=max_bytes,
    )
    return balanced_groups_list(request)


def balanced_groups_list(request: DrawRequest) -> dict[str, Any]:
    """The list engine's balanced teams: :func:`balanced_groups_csv` of a typed request."""
    asked, out = request.options, request.output
    if not isinstance(asked, GroupsOptions) or asked.balance is None:
        raise OptionError("balanced teams of a list take GroupsOptions with balance")
    size, label, balance, avoid = asked.size, asked.label, asked.balance, asked.avoid
    group_count(asked.k, size, 0)  # a bad k or size is refused before the file is read
    stream, op = request.seed.stream(), opened(request)
    header = op.header
    k = group_count(asked.k, size, op.n)
    if header:
        refuse_label(op, label)
    if k > op.n:
        raise too_many_records(op, k, "split into teams")
    before = None if avoid is None else read_avoid(avoid, op, header)
    teams = _teams(op, balance, k, stream, before)
    chunks = _chunks(op, teams.numbers, label)
    written = write_list(
        op, out.path, chunks, in_place=out.in_place, backup=out.backup, dry_run=out.dry_run
    )
    perm = permutation(op.n, seed=Seed.given(stream).stream())  # step 1 of section 16
    record = list_record("groups", op, stream, perm, written, k=k, size=size)
    record["target"]["balance"] = teams.spec(k, label)
    if before is not None and avoid is not None:
        record["target"]["balance"]["avoid"] = {
            "file": os.fspath(avoid),
            "before": before,
            "repeats": repeats(before, teams.numbers),
        }
    return record


def read_avoid(path: PathLike, op: Opened, header: bool) -> list[int | None]:
    """Each data record's team in an earlier groups draw of the same list: from its
    record (``.json``, a groups draw of this very input, plain or balanced) or its output list (the
    same records, each with the team number as its last field)."""
    name = os.fspath(path)
    if name.lower().endswith(".json"):
        return _avoid_of_record(name, op)
    earlier = Opened(name, header, len(op.lst.data) * 2 + 2**20)
    if earlier.n != op.n:
        raise ListError(
            f"--avoid {name}: {earlier.n} data rows, not the {op.n} of {op.path}: give "
            "the output of a groups draw of this list"
        )
    ours, theirs = Fields(op), Fields(earlier)
    out: list[int | None] = []
    for i in range(op.n):
        fields = theirs.record(earlier.first + i)
        if fields[:-1] != ours.record(op.first + i):
            raise ListError(
                f"--avoid {name}: data row {i + 1} is not the same as in {op.path}: give "
                "the output of a groups draw of this list"
            )
        team = fields[-1].strip() if fields else ""
        out.append(int(team) if team.isdigit() and int(team) > 0 else None)
    return out


def _avoid_of_record(name: str, op: Opened) -> list[int | None]:
    with open(name, encoding="utf-8") as fh:
        try:
            data = json.load(fh)
        except ValueError:
            data = None
    ok = isinstance(data, dict) and data.get("command") == "groups"
    if not ok or data.get("input_sha256") != op.sha256:
        raise ListError(
            f"--avoid {name}: not the record of a groups draw of {op.path}: give that "
            "draw's record, or its output list"
        )
    perm, k = data.get("permutation"), data.get("k")
    if not isinstance(k, int) or sorted(perm or []) != list(range(op.n)) or k < 1:
        raise ListError(f"--avoid {name}: the record's permutation or k is damaged")
    spec = (data.get("target") or {}).get("balance")
    if spec is None:
        return list(group_numbers(perm, k))
    try:  # balanced teams: dealt again from this very list and the record's seed
        given = [str(c["column"]) for c in spec["columns"]]
        before = (spec.get("avoid") or {}).get("before")
        return list(_teams(op, given, k, Seed.given(str(data["seed"])).stream(), before).numbers)
    except (KeyError, TypeError, AttributeError):
        raise ListError(f"--avoid {name}: the record's target.balance is damaged") from None


def verify_balanced_csv(
    record: dict[str, Any],
    src: PathLike,
    saved: PathLike | None = None,
    *,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
) -> None:
    """Draw the teams of ``record`` again from ``src`` and the seed; check the balance
    table, and ``saved`` (the output) byte for byte. Raises ListError at the first
    difference."""
    op = Opened(src, bool(record["header"]), max_bytes)
    if op.sha256 != record["input_sha256"]:
        raise ListError(f"{op.path}: not the recorded input (SHA-256 differs)")
    spec = record["target"]["balance"]
    k = int(record["k"])
    stream = Seed.given(str(record["seed"])).stream()
    avoided = spec.get("avoid")
    before = None if avoided is None else avoided["before"]
    given = [c["column"] for c in spec["columns"]]
    teams = _teams(op, given, k, stream, before)
    numbers = teams.numbers
    if permutation(op.n, seed=str(record["seed"])) != record["permutation"]:
        raise ListError(f"record: seed {record['seed']!r} does not give this permutation")
    if balance_table(teams.columns, teams.keys, numbers, k) != spec["teams"]:
        raise ListError("record: target.balance.teams is not what the draw gives again")
    if saved is not None:
        with open(saved, "rb") as fh:
            data = fh.read()
        want = b"".join(_chunks(op, numbers, str(spec["label"])))
        if data != want:
            at = next((i for i, (a, b) in enumerate(zip(data, want, strict=False)) if a != b), None)
            at = min(len(data), len(want)) if at is None else at
            line = data.count(b"\n", 0, at) + 1
            raise ListError(
                f"{os.fspath(saved)}: not the teams this draw wrote: first difference on "
                f"line {line}"
            )
        if record.get("output_sha256") not in (None, bytes_sha256(data)):
            raise ListError(f"{os.fspath(saved)}: SHA-256 is not the recorded output's")
