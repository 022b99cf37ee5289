"""Write tests/vectors/draw-v1.json: known answers for draw protocol v1.

This script implements the protocol on its own, from docs/draw-protocol.md, and does not
import xlshuffle: the vectors are an independent check of the package, not a snapshot of
it. Run it again only to *add* vectors; a changed existing vector means the protocol broke.

    python tools/make_vectors.py
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import unicodedata
from collections.abc import Iterator
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "vectors" / "draw-v1.json"


def seed_bytes(seed: object) -> bytes:
    if isinstance(seed, str):
        return unicodedata.normalize("NFC", seed).encode("utf-8")
    if isinstance(seed, dt.datetime):
        d = seed - dt.datetime(1899, 12, 30)
        ms = round(d.seconds * 1000 + d.microseconds / 1000)
        return seed_bytes(d.days + ms / 86_400_000 if ms else d.days)
    if isinstance(seed, dt.date):
        return seed_bytes((seed - dt.date(1899, 12, 30)).days)
    if isinstance(seed, bool) or not isinstance(seed, (int, float)) or not math.isfinite(seed):
        raise ValueError(seed)
    if seed == int(seed):
        return str(int(seed)).encode("ascii")
    return repr(float(seed)).encode("ascii")


def words(seed: object) -> Iterator[int]:
    key = hashlib.sha256(b"xlshuffle/draw/v1\x00" + seed_bytes(seed)).digest()
    block = 0
    while True:
        digest = hashlib.sha256(key + block.to_bytes(8, "big")).digest()
        for k in range(0, 32, 8):
            yield int.from_bytes(digest[k : k + 8], "big")
        block += 1


def randbelow(stream: Iterator[int], m: int) -> int:
    limit = 2**64 - (2**64 % m)
    while (w := next(stream)) >= limit:
        pass
    return w % m


def permute(items: list[object], steps: int, stream: Iterator[int]) -> list[object]:
    items = list(items)
    for i in range(steps):
        j = i + randbelow(stream, len(items) - i)
        items[i], items[j] = items[j], items[i]
    return items


def deal(items: list[object], k: int, seed: object) -> list[object]:
    return permute(items, min(k, len(items) - 1), words(seed))[:k]


def encode_seed(seed: object) -> dict[str, object]:
    if isinstance(seed, dt.datetime):
        return {"type": "datetime", "value": seed.isoformat()}
    if isinstance(seed, dt.date):
        return {"type": "date", "value": seed.isoformat()}
    return {"type": type(seed).__name__, "value": seed}


SEEDS: list[object] = [
    "42",
    42,
    42.0,
    0,
    -7,
    0.5,
    1e-05,
    123456789012345678901234567890,
    2.5e20,
    "Zoë",
    "Zoe\u0308",
    "2026 raffle",
    "xlshuffle",
    " ",
    "名前",
    "🎲 dice",
    dt.date(2026, 11, 21),
    dt.datetime(2026, 11, 21, 18, 0),
    dt.datetime(2026, 11, 21),
    dt.date(1900, 3, 1),
]


def main() -> None:
    vectors: dict[str, object] = {"protocol": "xlshuffle/draw/v1"}
    vectors["seed_bytes"] = [{"seed": encode_seed(s), "hex": seed_bytes(s).hex()} for s in SEEDS]
    vectors["words"] = []
    for s in SEEDS:
        stream = words(s)
        vectors["words"].append(  # type: ignore[union-attr]
            {"seed": encode_seed(s), "first8": [f"{next(stream):016x}" for _ in range(8)]}
        )
    vectors["shuffles"] = [
        {"seed": encode_seed(s), "n": n, "permutation": deal(list(range(n)), n, s)}
        for s in SEEDS
        for n in (0, 1, 2, 3, 10, 52)
    ]
    vectors["deals"] = [
        {"seed": encode_seed(s), "n": n, "k": k, "dealt": deal(list(range(n)), k, s)}
        for s in ("xlshuffle", "raffle", 7)
        for n, k in ((52, 5), (52, 0), (1000, 3), (10**6, 6), (20, 20))
    ]
    # m just above 2**63: about half of all words are rejected, so this pins step 4 exactly.
    stream = words("reject")
    vectors["randbelow_rejection"] = {
        "seed": encode_seed("reject"),
        "m": 2**63 + 1,
        "values": [randbelow(stream, 2**63 + 1) for _ in range(16)],
    }
    # A long stream, pinned by the SHA-256 of its words as 8-byte big-endian integers.
    stream = words("long stream")
    blob = b"".join(next(stream).to_bytes(8, "big") for _ in range(100_000))
    vectors["long_stream"] = {
        "seed": encode_seed("long stream"),
        "words": 100_000,
        "sha256": hashlib.sha256(blob).hexdigest(),
    }
    # Step 7: several permutations from one stream. Within-rows of a 3x4 grid of 0..11.
    stream = words("grid")
    grid = [list(range(r * 4, r * 4 + 4)) for r in range(3)]
    vectors["within_rows"] = {
        "seed": encode_seed("grid"),
        "grid": grid,
        "result": [permute(row, 3, stream) for row in grid],
    }
    stream = words("grid")
    columns = [permute([row[c] for row in grid], 2, stream) for c in range(4)]
    vectors["within_columns"] = {
        "seed": encode_seed("grid"),
        "grid": grid,
        "result": [[columns[c][r] for c in range(4)] for r in range(3)],
    }
    perm = deal(list(range(10)), 10, "teams")
    group_of = [0] * 10
    for p, item in enumerate(perm):
        group_of[item] = p % 3 + 1  # type: ignore[index]
    vectors["groups"] = {"seed": encode_seed("teams"), "n": 10, "k": 3, "groups": group_of}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(vectors, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
