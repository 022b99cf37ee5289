"""Commit, then draw: the rules of draw protocol section 17.

A draw no one can rig is made in two steps. Before the draw, a **commitment** fixes the
list (a digest of its rows' texts), the draw's options and a description of public
randomness that is not yet known (a future lottery draw, a drand round, dice thrown at an
event); its SHA-256, the **commitment hash**, is published. After the randomness is
revealed, the seed is derived from the commitment hash and the revealed values, so the
organiser chose neither the seed nor the list after seeing the result.

Everything here is exact text and SHA-256 (no floating point):

- :func:`canonical_json`: the bytes that are hashed (keys sorted, no spaces, UTF-8);
- :func:`rows_sha256`: the list digest, one canonical JSON array of texts per row;
- :func:`reveal_values`: revealed values in canonical form (NFC, runs of white space as
  one space, trimmed);
- :func:`commit_seed`: the seed text, ``"xlshuffle-commit:" + hash + "/" + v1 + "/" +
  v2 + ... + "/"``, a text seed like any other (section 1);
- :func:`entrant_sha256`: an entrant's salted hash, which lets each entrant check their
  own line once the salt is revealed, without the list being published.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from .errors import OptionError
from .raffle import canonical_id

__all__ = [
    "COMMITMENT_VERSION",
    "REQUEST_COMMITMENT_VERSION",
    "UNREVEALED_SEED",
    "canonical_json",
    "commit_seed",
    "commitment_sha256",
    "entrant_id_sha256",
    "entrant_sha256",
    "new_salt",
    "reveal_values",
    "rows_sha256",
]

#: The commitment format of a draw stated by its options' texts (Excel's draw-and-lock
#: commands write it; the command line did before version 2).
COMMITMENT_VERSION = 1
#: The commitment format of a draw on a file: the draw as a canonical request, and the
#: SHA-256 and content of every file beyond the list that it reads (section 17).
REQUEST_COMMITMENT_VERSION = 2
#: The seed of a committed request before its value is revealed: what its dry runs draw
#: with (the list they read and check does not depend on it).
UNREVEALED_SEED = "commitment dry run"
_SEED_PREFIX = "xlshuffle-commit:"
_SPACES = re.compile(r"\s+")


def canonical_json(value: Any) -> bytes:
    """The canonical bytes of a JSON value: object keys sorted, no white space between
    tokens, strings in UTF-8 as they are (``ensure_ascii=False``); only objects, arrays,
    strings, whole numbers, booleans and null.

    Examples
    --------
    >>> canonical_json({"b": [1, "é"], "a": None})
    b'{"a":null,"b":[1,"\\xc3\\xa9"]}'
    """
    _check_plain(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8"
    )


def _check_plain(value: Any) -> None:
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, list):
        for item in value:
            _check_plain(item)
        return
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        for item in value.values():
            _check_plain(item)
        return
    raise OptionError(f"a commitment holds texts, whole numbers and lists, not {value!r}")


def commitment_sha256(body: dict[str, Any]) -> str:
    """The commitment hash: the SHA-256 of :func:`canonical_json` of the commitment's
    body, in lower-case hex."""
    return hashlib.sha256(canonical_json(body)).hexdigest()


def rows_sha256(rows: Iterable[Sequence[str]]) -> str:
    """The list digest: SHA-256 over each row's :func:`canonical_json` array of texts,
    each followed by a line feed (``\\n``).

    Examples
    --------
    >>> rows_sha256([["Ann", "3"], ["Bo", "1"]])[:16]
    '4726cf1a952e3ef3'
    """
    digest = hashlib.sha256()
    for row in rows:
        digest.update(canonical_json([str(field) for field in row]) + b"\n")
    return digest.hexdigest()


def reveal_values(values: Sequence[str]) -> list[str]:
    """The revealed values in canonical form: Unicode NFC, every run of white space one
    space, no white space at either end; each must then be non-empty and hold no ``/``.

    Examples
    --------
    >>> reveal_values([" 7  12 31\\t40 ", "drand round 123: ab12"])
    ['7 12 31 40', 'drand round 123: ab12']
    """
    if not values:
        raise OptionError("give the revealed value: --reveal VALUE (once per source)")
    out = []
    for value in values:
        text = _SPACES.sub(" ", unicodedata.normalize("NFC", str(value))).strip()
        if not text:
            raise OptionError("a revealed value is blank: give the value as it was published")
        if "/" in text:
            raise OptionError(
                f"the revealed value {text!r} holds '/', which separates sources: give each "
                "source as its own --reveal"
            )
        out.append(text)
    return out


def commit_seed(commitment_hash: str, values: Sequence[str]) -> str:
    """The seed of a committed draw: its commitment hash and the revealed values.

    Examples
    --------
    >>> seed = commit_seed("ab" * 32, [" 7  12 31 40 "])
    >>> seed[:21], seed[-16:]
    ('xlshuffle-commit:abab', 'abab/7 12 31 40/')
    """
    if not re.fullmatch(r"[0-9a-f]{64}", commitment_hash):
        raise OptionError(f"{commitment_hash!r} is not a commitment hash (64 hex digits)")
    return f"{_SEED_PREFIX}{commitment_hash}/" + "".join(v + "/" for v in reveal_values(values))


def entrant_id_sha256(salt: str, entrant_id: object) -> str:
    """An entrant's salted hash by ID alone (a draw with an ID column): SHA-256 of the
    salt's text, a line feed, and the canonical ID (section 10), so that an entrant checks
    their entry knowing only their ID.

    Examples
    --------
    >>> salt = "00" * 16
    >>> entrant_id_sha256(salt, " ann@x.org ") == entrant_id_sha256(salt, "ann@x.org")
    True
    """
    data = salt.encode("utf-8") + b"\n" + canonical_id(entrant_id).encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def entrant_sha256(salt: str, row: Sequence[str]) -> str:
    """An entrant's salted hash: SHA-256 of the salt's text, a line feed, and the row's
    :func:`canonical_json` array of texts.

    Examples
    --------
    >>> entrant_sha256("00" * 16, ["Ann", "3"])[:16]
    'd83f4f4aa4015def'
    """
    data = salt.encode("utf-8") + b"\n" + canonical_json([str(f) for f in row])
    return hashlib.sha256(data).hexdigest()


def new_salt() -> str:
    """A fresh salt: 128 bits from the operating system's CSPRNG, as 32 hex digits."""
    return secrets.token_hex(16)
