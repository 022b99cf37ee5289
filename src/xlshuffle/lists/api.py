"""Draws on CSV/TSV lists with a header row: ``shuffle_csv``, ``sample_csv``, ``groups_csv``.

Each draw is the one a sheet of the same rows gets from :mod:`xlshuffle.workbook`: ``n``
data records shuffled with seed ``S`` take the order ``permutation(n, seed=S)``, a sample
of ``k`` is its first ``k``, groups follow :func:`~xlshuffle.draw.knuth.group_numbers`.
Each returns a draw record as a plain dict with the keys of the workbook's ``DrawRecord``
(this package may not import the workbook layer), so ``xlshuffle verify`` replays it.

Bytes rule: the header, every record, a UTF-8 byte order mark and trailing blank lines
are written back byte for byte. The one addition: a last record without a line break
gets the file's own line ending (its first line's) so it cannot run into the record
placed after it; an output therefore always ends with a line break.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from ..common.filekinds import LIST_EXTENSIONS, is_list
from ..common.request import (
    DrawRequest,
    GroupsOptions,
    SampleOptions,
    ShuffleOptions,
)
from ..draw.errors import OptionError
from ..draw.knuth import check_count, deal, group_numbers, permutation
from ..tabledraw.counts import group_count
from .lines import DEFAULT_MAX_MB
from .opened import (
    csv_field,
    list_record,
    list_request,
    opened,
    refuse_label,
    too_many_records,
    write_list,
)

__all__ = [
    "LIST_EXTENSIONS",
    "groups_csv",
    "groups_list",
    "is_list",
    "sample_csv",
    "sample_list",
    "shuffle_csv",
    "shuffle_list",
]

#: File name endings drawn as CSV/TSV lists (any case).
PathLike = str | os.PathLike[str]
Chunks = Iterable[bytes | bytearray]


#: Bytes of one record's digest in a fingerprint.
def shuffle_csv(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    seed: object = None,
    header: bool = True,
    in_place: bool = False,
    backup: bool = True,
    dry_run: bool = False,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
) -> dict[str, Any]:
    """Shuffle the data records of a CSV/TSV list, keeping every record's bytes.

    Parameters
    ----------
    src, dst : path
        The list to read, and where to write the shuffled one (atomically).
    seed : str, int, float, date, DrawStream or None, optional
        Seed of the draw protocol; the order is ``permutation(n, seed=seed)``, the one a
        sheet of the same rows gets.
    header : bool, optional
        The first record holds the labels and stays first (default True).
    in_place, backup, dry_run : bool, optional
        Replace ``src`` (keeping ``NAME.bak.csv`` unless ``backup=False``); or write
        nothing at all.
    max_bytes : int, optional
        Refuse a larger input (default 2048 MB).

    Returns
    -------
    dict
        The draw record, with the keys of ``xlshuffle.workbook.DrawRecord``.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> src, dst = os.path.join(folder, "in.csv"), os.path.join(folder, "out.csv")
    >>> with open(src, "wb") as fh:
    ...     _ = fh.write(b'name;note\\r\\nAnn;"a;b"\\r\\nBob;x\\r\\nCid;"2\\r\\nlines"\\r\\nDee;y')
    >>> shuffle_csv(src, dst, seed=42)["permutation"]
    [0, 3, 1, 2]
    >>> import pathlib
    >>> pathlib.Path(dst).read_bytes()
    b'name;note\\r\\nAnn;"a;b"\\r\\nDee;y\\r\\nBob;x\\r\\nCid;"2\\r\\nlines"\\r\\n'
    """
    request = list_request(
        "shuffle",
        src,
        dst,
        ShuffleOptions(),
        seed=seed,
        header=header,
        in_place=in_place,
        backup=backup,
        dry_run=dry_run,
        max_bytes=max_bytes,
    )
    return shuffle_list(request)


def shuffle_list(request: DrawRequest) -> dict[str, Any]:
    """The list engine's shuffle: :func:`shuffle_csv` of a typed request."""
    stream, out, op = request.seed.stream(), request.output, opened(request)
    perm = permutation(op.n, seed=stream)
    chunks = itertools.chain(op.start(), op.rows(perm), [op.lst.tail])  # one record at a time
    written = write_list(
        op, out.path, chunks, in_place=out.in_place, backup=out.backup, dry_run=out.dry_run
    )
    record = list_record("shuffle", op, stream, perm, written)
    if not out.dry_run:  # what the data records were, so that restore can check an edited output
        record["fingerprint"] = op.fingerprint()
    return record


def sample_csv(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    k: int,
    seed: object = None,
    header: bool = True,
    dry_run: bool = False,
    out: BinaryIO | None = None,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
) -> dict[str, Any]:
    """Draw ``k`` data records (raffle winners) and write them, in draw order, as a list.

    The winners are the first ``k`` records :func:`shuffle_csv` puts in order with the
    same seed, written after the header (and byte order mark) to ``dst``, or to ``out``
    (a binary file such as ``sys.stdout.buffer``) when ``dst`` is None. Each keeps its
    bytes; there is no rank column (the order is the rank).

    Returns
    -------
    dict
        The draw record; its ``permutation`` holds the ``k`` winners' 0-based indexes
        among the data records.
    """
    options = SampleOptions(k=check_count("k", k))
    request = list_request(
        "sample", src, dst, options, seed=seed, header=header, dry_run=dry_run, max_bytes=max_bytes
    )
    return sample_list(request, out=out)


def sample_list(request: DrawRequest, *, out: BinaryIO | None = None) -> dict[str, Any]:
    """The list engine's plain sample: :func:`sample_csv` of a typed request."""
    options = request.options
    if not isinstance(options, SampleOptions) or options.k is None or options.draw:
        raise OptionError("a plain sample of a list takes SampleOptions with k and no draw")
    k, stream, op = check_count("k", options.k), request.seed.stream(), opened(request)
    dst, dry_run = request.output.path, request.output.dry_run
    if k > op.n:
        raise too_many_records(op, k, "draw from")
    order = deal(range(op.n), k, seed=stream)  # permutation(n)[:k], without the rest
    chunks = itertools.chain(op.start(), op.rows(order))
    if dst is None and out is not None and not dry_run:
        for chunk in chunks:
            out.write(chunk)
        out.flush()
        written: tuple[str | None, str | None, str | None] = (None, None, None)
    elif dst is None:
        written = (None, None, None)
    else:
        written = write_list(op, dst, chunks, in_place=False, backup=False, dry_run=dry_run)
    return list_record("sample", op, stream, order, written, k=k)


def groups_csv(
    src: PathLike,
    dst: PathLike | None = None,
    *,
    k: int | None = None,
    size: int | None = None,
    seed: object = None,
    label: str = "Group",
    header: bool = True,
    in_place: bool = False,
    backup: bool = True,
    dry_run: bool = False,
    max_bytes: int = DEFAULT_MAX_MB * 1024**2,
) -> dict[str, Any]:
    """Split the data records into ``k`` near-equal groups: a group-number field is added.

    Records do not move. Each gets one more field at its end, before its line break:
    ``label`` on the header (UTF-8, quoted only if needed), the group number (``1..k``,
    ``group_numbers(permutation(n, seed), k)``, as for a sheet) on each data record.
    Trailing blank lines are left as they were. A header that holds ``label`` already (a
    column of an earlier run) is refused. Give ``size`` instead of ``k`` for groups of at
    most ``size`` records: ``k = ceil(n / size)``, and the record keeps both.
    """
    options = GroupsOptions(k=k, size=size, label=label)
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
    return groups_list(request)


def groups_list(request: DrawRequest) -> dict[str, Any]:
    """The list engine's groups: :func:`groups_csv` of a typed request."""
    options, out = request.options, request.output
    if not isinstance(options, GroupsOptions) or options.balance is not None:
        raise OptionError("plain groups of a list take GroupsOptions without balance")
    size, label = options.size, options.label
    group_count(options.k, size, 0)  # a bad k or size is refused before the file is read
    stream, op = request.seed.stream(), opened(request)
    k = group_count(options.k, size, op.n)
    if op.header:
        refuse_label(op, label)
    if k > op.n:
        raise too_many_records(op, k, "split into groups")
    perm = permutation(op.n, seed=stream)
    numbers = group_numbers(perm, k)
    lst, sep = op.lst, op.lst.delimiter.encode("ascii")

    def chunks() -> Iterator[bytes | bytearray]:
        yield lst.head
        for r in range(lst.records):
            body, end = lst.body(r)
            i = r - op.first
            yield body + sep + (csv_field(label, lst.delimiter) if i < 0 else b"%d" % numbers[i])
            yield end
        yield lst.tail

    written = write_list(
        op, out.path, chunks(), in_place=out.in_place, backup=out.backup, dry_run=out.dry_run
    )
    return list_record("groups", op, stream, perm, written, k=k, size=size)
