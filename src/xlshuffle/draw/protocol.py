"""Draw protocol v1: seed normalisation and the seeded random stream.

This module is the *only* place that interprets a seed and the only place that makes
random numbers for the seeded functions. Everything above it asks a *source* for
``randbelow(m)`` and nothing else (the split numpy.random draws between BitGenerator and
Generator). The protocol is specified, with test vectors, in ``docs/draw-protocol.md``;
if this file and that document disagree, the document wins and this file is the bug.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import math
import numbers
import secrets
import struct
import unicodedata
from decimal import Decimal
from operator import add as _add
from operator import mod as _mod
from typing import Any, Protocol, TypeAlias, runtime_checkable

from .errors import SeedError

__all__ = [
    "PROTOCOL",
    "DrawStream",
    "SeedLike",
    "Source",
    "SystemSource",
    "as_stream",
    "excel_serial",
    "new_seed",
    "normalise_seed",
    "resolve_source",
]

#: Name and version of the draw protocol; written into every draw record.
PROTOCOL = "xlshuffle/draw/v1"
_DOMAIN = PROTOCOL.encode("ascii") + b"\x00"
_STRATUM_DOMAIN = PROTOCOL.encode("ascii") + b"/stratum\x00"
_TWO64 = 1 << 64
_WORDS_PER_BLOCK = 4
_MAX_CHUNK_BLOCKS = 2048  # 8192 words: big enough to amortise, small enough for a deal

_pack_counter = struct.Struct(">Q").pack

# CPython's own SHA-256 starts about 30% faster than OpenSSL's on 40-byte messages, which
# is most of the stream's cost; the digests are the same (a test checks).
try:
    from _sha2 import sha256 as _sha256  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the Python build
    try:
        from _sha256 import sha256 as _sha256  # type: ignore[import-not-found]
    except ImportError:
        from hashlib import sha256 as _sha256

_EXCEL_EPOCH = _dt.datetime(1899, 12, 30)  # serial 0; right for every date from 1900-03-01
_SEED_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"  # RFC 4648 base32, lower case

SeedLike: TypeAlias = "str | int | float | _dt.date | None"


@runtime_checkable
class Source(Protocol):
    """Anything that can answer ``randbelow(m)``: a uniform integer in ``0 .. m-1``."""

    def randbelow(self, m: int, /) -> int: ...  # pragma: no cover - protocol


# --------------------------------------------------------------------------- seeds


def excel_serial(value: _dt.date) -> float | int:
    """Return the Excel serial number (1900 date system) of a date or datetime.

    A ``date`` gives a whole number of days; a ``datetime`` adds the time of day as a
    fraction, counted in whole milliseconds as Excel stores it (timezone ignored).

    Examples
    --------
    >>> import datetime
    >>> excel_serial(datetime.date(2026, 1, 1))
    46023
    >>> excel_serial(datetime.datetime(2026, 1, 1, 12, 0))
    46023.5
    """
    if isinstance(value, _dt.datetime):
        naive = value.replace(tzinfo=None)
        delta = naive - _EXCEL_EPOCH
        ms = round(delta.seconds * 1000 + delta.microseconds / 1000)
        if ms == 0:
            return delta.days
        return delta.days + ms / 86_400_000
    return (value - _EXCEL_EPOCH.date()).days


def normalise_seed(seed: object) -> bytes:
    """Turn a seed into the bytes the draw protocol hashes (protocol step 1).

    Parameters
    ----------
    seed : str, int, float, datetime.date or datetime.datetime
        Text is taken in Unicode NFC and encoded as UTF-8. An integral number (``42`` or
        ``42.0``) becomes its decimal integer text, any other finite float its shortest
        ``repr``; a date or datetime becomes its Excel serial number first.

    Returns
    -------
    bytes

    Raises
    ------
    SeedError
        For ``None`` or ``""`` (they mean *no seed*: ask :func:`new_seed`), booleans,
        NaN, infinities and any other type.

    Examples
    --------
    >>> normalise_seed(42.0), normalise_seed("42"), normalise_seed(0.5)
    (b'42', b'42', b'0.5')
    """
    if seed is None or seed == "":
        raise SeedError("an empty seed means 'no seed': pass seed=None to draw a fresh one")
    if isinstance(seed, bool):
        raise SeedError(
            f"a seed cannot be {'TRUE' if seed else 'FALSE'}: use a number or a text such as '42'"
        )
    if isinstance(seed, str):
        return _text_seed(seed)
    if isinstance(seed, _dt.date):
        return normalise_seed(excel_serial(seed))
    if isinstance(seed, Decimal | numbers.Real):  # a Decimal is not a numbers.Real
        return _number_seed(seed)
    raise SeedError(
        f"a seed must be a text, a number or a date, not {type(seed).__name__}: "
        "for example seed='2026 raffle' or seed=42"
    )


def _text_seed(seed: str) -> bytes:
    try:
        return unicodedata.normalize("NFC", seed).encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: from a JS string or bad bytes
        raise SeedError(
            f"the seed holds {exc.object[exc.start]!r}, half of a character (or a byte "
            "that is not UTF-8 text): type the seed again as plain text"
        ) from None


def _number_seed(seed: Decimal | numbers.Real | float) -> bytes:
    if isinstance(seed, Decimal):
        if not seed.is_finite():
            raise SeedError(f"a seed cannot be {seed}: use a finite number or a text")
        return _number_seed(int(seed) if seed == seed.to_integral_value() else float(seed))
    if isinstance(seed, numbers.Integral):
        return str(int(seed)).encode("ascii")
    value = float(seed)
    if not math.isfinite(value):
        raise SeedError(f"a seed cannot be {value!r}: use a finite number or a text")
    if value.is_integer():
        return str(int(value)).encode("ascii")
    return repr(value).encode("ascii")


def new_seed() -> str:
    """Return a fresh seed text drawn from the operating system's CSPRNG.

    The text holds 128 random bits in 26 lower-case base32 characters and always starts
    with a letter, so Excel keeps it as text when it is typed into a cell.

    Examples
    --------
    >>> s = new_seed()
    >>> len(s), s[0].isalpha()
    (26, True)
    """
    value = secrets.randbits(128)  # 26 base32 digits hold 130 bits: the first is 0..7
    chars = []
    for _ in range(26):
        value, digit = divmod(value, 32)
        chars.append(_SEED_ALPHABET[digit])
    return "".join(reversed(chars))


# --------------------------------------------------------------------------- stream


class DrawStream:
    """The seeded, version-stable random stream of draw protocol v1.

    Parameters
    ----------
    seed : str, int, float, datetime.date or None, optional
        The seed. ``None`` (or ``""``) draws a fresh seed with :func:`new_seed`, so every
        draw can still be recorded and replayed: read it back from :attr:`seed`.

    Attributes
    ----------
    seed : object
        The seed as given, or the generated seed text.
    key : bytes
        ``SHA-256(b"xlshuffle/draw/v1" + b"\\x00" + seed_bytes)``.

    Notes
    -----
    Block ``b`` of the stream is ``SHA-256(key + b.to_bytes(8, "big"))`` and gives four
    64-bit big-endian words. :meth:`randbelow` uses exact rejection, so it has no modulo
    bias and uses no floating point. A stream continues where it stopped: pass the same
    stream to several calls to draw them one after another from one seed.

    Examples
    --------
    >>> s = DrawStream("42")
    >>> f"{s.next_word():016x}"
    '5b0a97947fb05be0'
    >>> DrawStream("42").randbelow(10)
    8
    """

    __slots__ = ("_block", "_buf", "_pos", "_size", "key", "label", "seed")

    def __init__(self, seed: object = None) -> None:
        if seed is None or seed == "":
            seed = new_seed()
        self.seed: object = seed
        self.label: object = None  # a sub-stream's label (see substream)
        self._start(hashlib.sha256(_DOMAIN + normalise_seed(seed)).digest())

    def _start(self, key: bytes) -> None:
        """Start the stream of ``key`` at its first word."""
        self.key: bytes = key
        self._block = 0  # index of the next block to hash
        self._size = 1  # blocks hashed by the next refill: 1, 1, 2, 4, ... 2048
        self._buf: tuple[int, ...] = ()
        self._pos = 0

    def __repr__(self) -> str:
        if self.label is not None:
            return f"DrawStream(seed={self.seed!r}).substream({self.label!r})"
        return f"DrawStream(seed={self.seed!r})"

    def substream(self, label: object) -> DrawStream:
        """Return the sub-stream of one stratum, named by ``label`` (protocol section 11).

        Its key is ``SHA-256(b"xlshuffle/draw/v1/stratum\\x00" + key + b"\\x00" +
        label_bytes)``, with ``label_bytes`` the label normalised as a seed is
        (:func:`normalise_seed`: ``42``, ``42.0`` and ``"42"`` name the same stratum); its
        blocks are hashed from that key exactly as this stream's are. It depends only on
        the seed and the label, never on how much of this stream was used, so each
        stratum's draw is untouched by the others. Its :attr:`seed_text` is still this
        stream's seed, which is what a record keeps.

        Examples
        --------
        >>> north = DrawStream("2026 raffle").substream("North")
        >>> north, north.seed_text
        (DrawStream(seed='2026 raffle').substream('North'), '2026 raffle')
        >>> DrawStream(7).substream(42.0).key == DrawStream(7).substream("42").key
        True
        """
        return self.derive(_STRATUM_DOMAIN, normalise_seed(label), label)

    def derive(
        self, domain: bytes, label_bytes: bytes, label: object, kind: type[DrawStream] | None = None
    ) -> DrawStream:
        """The sub-stream keyed ``SHA-256(domain + key + b"\\x00" + label_bytes)``: the one
        rule behind :meth:`substream` and the per-person and allocation sub-streams
        (sections 11, 13, 15), each with its own ``domain``. A new ``kind`` stream
        (:class:`DrawStream` by default) with this stream's seed and ``label``."""
        child = (kind or DrawStream).__new__(kind or DrawStream)
        child.seed, child.label = self.seed, label
        child._start(hashlib.sha256(domain + self.key + b"\x00" + label_bytes).digest())
        return child

    @property
    def seed_text(self) -> str:
        """The seed as text that replays this stream: a text seed as given, a number or
        date as the text the protocol hashes (``42.0`` -> ``"42"``), for records.

        >>> DrawStream(42.0).seed_text, DrawStream("Spring fair").seed_text
        ('42', 'Spring fair')
        """
        seed = self.seed
        return seed if isinstance(seed, str) else normalise_seed(seed).decode("utf-8")

    def _refill(self) -> None:
        # Hash blocks in growing chunks: a small deal hashes one block, a million-item
        # shuffle amortises the Python overhead over thousands. The words are the same.
        start, size = self._block, self._size
        keyed = self.key.__add__
        data = b"".join(
            [
                _sha256(x).digest()
                for x in map(keyed, map(_pack_counter, range(start, start + size)))
            ]
        )
        self._buf = struct.unpack(f">{size * _WORDS_PER_BLOCK}Q", data)
        self._pos = 0
        self._block = start + size
        if self._block > 1:
            self._size = min(size * 2, _MAX_CHUNK_BLOCKS)

    def next_word(self) -> int:
        """Return the next 64-bit word of the stream (protocol step 3)."""
        if self._pos == len(self._buf):
            self._refill()
        w = self._buf[self._pos]
        self._pos += 1
        return w

    def randbelow(self, m: int, /) -> int:
        """Return a uniform integer in ``0 .. m-1`` (protocol step 4), for ``m >= 1``."""
        if not 1 <= m <= _TWO64:
            raise ValueError(f"randbelow needs 1 <= m <= 2**64, got {m}")
        limit = _TWO64 - _TWO64 % m
        w = self.next_word()
        while w >= limit:
            w = self.next_word()
        return w % m

    def durstenfeld(self, items: list[Any], steps: int) -> None:
        """Forward Durstenfeld, in place, for ``steps`` steps (protocol step 5): after it the
        first ``steps`` places of ``items`` hold what a whole shuffle puts there.

        Makes the same swaps as ``xlshuffle.draw.knuth.durstenfeld`` fed by
        :meth:`randbelow` (a test holds them equal), a buffer at a time: when every word
        of the buffer is below ``2**64 - m`` for the largest ``m`` still to come, none can
        be rejected, so the ``j`` of the whole run are computed by C-level ``map`` and
        only the swaps run in Python. Otherwise (about once in 2**40 words for a
        million items) that step takes the exact path of :meth:`randbelow`.
        """
        n, i = len(items), 0
        while i < steps:
            if self._pos == len(self._buf):
                self._refill()
            buf, pos = self._buf, self._pos
            end = min(steps, i + len(buf) - pos)
            run = buf[pos : pos + end - i]
            if max(run) < _TWO64 - (n - i):
                js = map(_add, map(_mod, run, range(n - i, n - end, -1)), range(i, end))
                for a, b in zip(range(i, end), js, strict=True):
                    items[a], items[b] = items[b], items[a]
                self._pos = pos + end - i
                i = end
            else:  # a word near 2**64 is in this run: take one exact step
                j = i + self.randbelow(n - i)
                items[i], items[j] = items[j], items[i]
                i += 1


class SystemSource:
    """A source backed by the OS CSPRNG (:mod:`secrets`); never reproducible. The seeded
    functions never use it (with no seed they draw a fresh *seed*, so the draw can be
    replayed); it is for callers who want a draw that leaves no way to recompute it."""

    __slots__ = ()

    def randbelow(self, m: int, /) -> int:
        """Return a uniform integer in ``0 .. m-1`` from the OS CSPRNG."""
        if m < 1:
            raise ValueError(f"randbelow needs m >= 1, got {m}")
        return secrets.randbelow(m)


def as_stream(seed: object) -> DrawStream:
    """Turn ``seed`` into a :class:`DrawStream`: the stream itself, to continue it, or a new one.

    The workbook and list operations call this, since they record the stream's seed;
    :func:`resolve_source` also accepts any other source.

    Parameters
    ----------
    seed : DrawStream, str, int, float, datetime.date or None
        A stream being continued is returned as it is; anything else is passed to
        ``DrawStream(seed)``, which validates it (``None`` or ``""`` draws a fresh seed).

    Examples
    --------
    >>> s = DrawStream("42")
    >>> as_stream(s) is s
    True
    >>> as_stream("42").randbelow(10)
    8
    """
    return seed if isinstance(seed, DrawStream) else DrawStream(seed)


def resolve_source(seed: object) -> DrawStream | Source:
    """Turn ``seed`` into a source: the single place a ``seed=`` argument is interpreted.

    ``None``/``""`` -> a :class:`DrawStream` with a fresh seed; a source (anything with a
    ``randbelow`` method, such as a :class:`DrawStream` being continued) -> itself;
    anything else -> ``DrawStream(seed)``, which validates it.
    """
    if not isinstance(seed, (DrawStream, str, numbers.Number, _dt.date)) and isinstance(
        seed, Source
    ):
        return seed
    return as_stream(seed)
