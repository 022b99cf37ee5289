"""Write tests/vectors/draw-v1.json: known answers for draw protocol v1.

This script implements the protocol on its own, from docs/draw-protocol.md, and does not
import xlshuffle: the vectors are an independent check of the package, not a snapshot of
it. Run it again only to *add* vectors; a changed existing vector means the protocol broke.

    python tools/make_vectors.py
"""

from __future__ import annotations

import datetime as dt
import decimal
import hashlib
import itertools
import json
import math
import unicodedata
from collections.abc import Iterator, Sequence
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


def blocks(key: bytes) -> Iterator[int]:
    """Step 3: the words of the stream (or a sub-stream) with this key."""
    block = 0
    while True:
        digest = hashlib.sha256(key + block.to_bytes(8, "big")).digest()
        for k in range(0, 32, 8):
            yield int.from_bytes(digest[k : k + 8], "big")
        block += 1


def words(seed: object, label: object = None) -> Iterator[int]:
    key = hashlib.sha256(b"xlshuffle/draw/v1\x00" + seed_bytes(seed)).digest()
    if label is not None:  # section 11: a stratum's sub-stream
        key = hashlib.sha256(
            b"xlshuffle/draw/v1/stratum\x00" + key + b"\x00" + seed_bytes(label)
        ).digest()
    yield from blocks(key)


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


def weighted(weights: list[int], k: int, stream: Iterator[int]) -> list[int]:
    """Section 8 by a naive linear walk over the ticket ranges (xlshuffle uses a tree)."""
    g = math.gcd(*weights)
    w = [x // g for x in weights] if g > 1 else list(weights)
    won = []
    for _ in range(k):
        r = randbelow(stream, sum(w))
        i, start = 0, 0
        while not start <= r < start + w[i]:  # the entrant whose range [c, c + w) holds r
            start += w[i]
            i += 1
        won.append(i)
        w[i] = 0
    return won


def canonical(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value).strip()
    return seed_bytes(value).decode("ascii")


def largest_remainder(sizes: list[int], total: int) -> list[int]:
    n = sum(sizes)
    exact = [(total * size, i) for i, size in enumerate(sizes)]  # shares times n
    shares = [x // n for x, _ in exact]
    order = sorted(exact, key=lambda e: (-(e[0] % n), e[1]))
    for _, i in order[: total - sum(shares)]:
        shares[i] += 1
    return shares


def strata(
    seed: object, labels: list[object], mode: str, value: object, weights: list[int] | None
) -> list[list[object]]:
    keys: list[bytes] = []
    first: dict[bytes, object] = {}
    rows: dict[bytes, list[int]] = {}
    for i, label in enumerate(labels):
        b = seed_bytes(label)
        if b not in rows:
            keys.append(b)
            first[b] = label
            rows[b] = []
        rows[b].append(i)
    if mode == "k":
        counts = [value] * len(keys)
    elif mode == "total":
        counts = largest_remainder([len(rows[b]) for b in keys], value)  # type: ignore[arg-type]
    else:
        by = {seed_bytes(label): c for label, c in value}  # type: ignore[attr-defined]
        counts = [by[b] for b in keys]
    out: list[list[object]] = []
    for b, q in zip(keys, counts, strict=True):
        own = rows[b]
        stream = words(seed, first[b])
        if weights is None:
            drawn = permute(own, min(q, len(own) - 1), stream)[:q]  # type: ignore[call-overload]
        else:
            drawn = [own[p] for p in weighted([weights[i] for i in own], q, stream)]  # type: ignore[arg-type]
        out.append([first[b], len(own), drawn])
    return out


def audit_hits(total: int, k: int, stream: Iterator[int]) -> tuple[int | None, list[int]]:
    if k == 0:
        return None, []
    s = randbelow(stream, total)
    return s, [(s + j * total) // k for j in range(k)]


def monetary_units(amounts: list[int], k: int, seed: object) -> dict[str, object]:
    s, units = audit_hits(sum(amounts), k, words(seed))
    hits: dict[int, int] = {}
    for u in units:
        for i in range(len(amounts)):  # the item whose cent range [c, c + a) holds u
            if sum(amounts[:i]) <= u < sum(amounts[: i + 1]):
                hits[i] = hits.get(i, 0) + 1
    top = [i for i, a in enumerate(amounts) if a * k >= sum(amounts)]
    return {"start": s, "units": units, "selected": [[i, h] for i, h in hits.items()], "top": top}


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
    add_issue_20(vectors)
    add_orders(vectors)
    add_allocation_lists(vectors)
    add_teams(vectors)
    add_commitments(vectors)
    add_rules(vectors)
    add_tickets(vectors)
    add_prizes(vectors)
    add_fresh_rounds(vectors)
    add_mus_populations(vectors)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(vectors, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


def add_issue_20(vectors: dict[str, object]) -> None:
    """Sections 8-12 (added to v1 later; the vectors above are unchanged)."""
    weight_cases: list[tuple[object, list[int], int]] = [
        ("2026 raffle", [1, 5, 0, 2, 2], 4),
        ("2026 raffle", [10, 50, 0, 20, 20], 4),  # the same draw: GCD 10
        ("2026 raffle", [2, 10, 0, 4, 4], 2),
        ("gcd", [1, 2, 0, 3, 1], 4),
        ("gcd", [3, 6, 0, 9, 3], 4),  # the same draw; unreduced it would be [0, 1, 3, 4]
        ("tickets", [0, 0, 3, 0], 1),
        ("tickets", [0, 0, 0], 0),
        ("tickets", [7], 1),
        ("tickets", [1] * 10, 10),
        (42, [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5], 7),
        ("big", [2**63, 2**63 - 1, 1], 3),  # total 2**64: randbelow(2**64) never rejects
        ("big", [2**62, 3, 2**62 + 1], 3),
        ("many", [(i * 7919) % 13 for i in range(1000)], 25),
    ]
    vectors["weighted"] = [
        {"seed": encode_seed(s), "weights": w, "k": k, "drawn": weighted(w, k, words(s))}
        for s, w, k in weight_cases
    ]
    drawn = weighted([5, 1, 1, 0, 3, 2], 5, words("reserves"))
    vectors["reserves"] = {
        "seed": encode_seed("reserves"),
        "weights": [5, 1, 1, 0, 3, 2],
        "winners": 2,
        "reserves": 3,
        "placings": [
            [p + 1, i, "winner" if p < 2 else "reserve", p + 1 if p < 2 else p - 1]
            for p, i in enumerate(drawn)
        ],
        "plain": deal(list(range(6)), 5, "reserves"),
    }
    ids: list[object] = ["Ann", " Bo ", "Zoe\u0308", 42, 7.5, "ann", "Cy", None, "名前"]
    excluded: list[object] = ["Zoë", "Bo", 42.0, "", "nobody", "Bo "]
    kept = [
        i
        for i, x in enumerate(ids)
        if canonical(x) and canonical(x) in {canonical(e) for e in excluded if canonical(e)}
    ]
    kept = [i for i in range(len(ids)) if i not in kept]
    texts = sorted({canonical(e) for e in excluded} - {""})
    vectors["exclusions"] = {
        "ids": ids,
        "excluded": excluded,
        "kept": kept,
        "digest": hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest(),
        "seed": encode_seed("excluded"),
        "k": 3,
        "drawn": [kept[p] for p in deal(list(range(len(kept))), 3, "excluded")],  # type: ignore[index]
    }
    vectors["substreams"] = []
    for s, label in [("2026 raffle", "North"), (7, 42), (7, 42.0), (7, "42"), ("x", "Zoe\u0308")]:
        stream = words(s, label)
        vectors["substreams"].append(  # type: ignore[attr-defined]
            {
                "seed": encode_seed(s),
                "label": label,
                "first4": [f"{next(stream):016x}" for _ in range(4)],
            }
        )
    vectors["allocation"] = [
        {"sizes": sizes, "total": total, "shares": largest_remainder(sizes, total)}
        for sizes, total in [
            ([5, 3, 2], 5),
            ([1, 1, 1], 2),
            ([10, 10, 10, 1], 7),
            ([3, 3], 3),
            ([4, 0, 4], 8),
            ([7, 2, 1, 9], 0),
            ([1000, 1, 1], 3),
        ]
    ]
    labels: list[object] = ["N", "S", "N", 42, "N", "S", 42.0, "E", "N", "42", "S", "N", "E"]
    wts = [3, 1, 0, 2, 5, 5, 1, 1, 2, 4, 0, 1, 9]
    vectors["strata"] = [
        {
            "seed": encode_seed("strata"),
            "labels": labels,
            "mode": mode,
            "value": value,
            "weights": w,
            "result": strata("strata", labels, mode, value, w),
        }
        for mode, value, w in [
            ("k", 2, None),
            ("k", 2, wts),
            ("total", 6, None),
            ("total", 6, wts),
            ("counts", [["S", 3], [42, 1], ["E", 0], ["N", 5]], None),
        ]
    ]
    vectors["systematic"] = []
    for s, n, k in [
        ("audit 2026", 100, 4),
        ("audit 2026", 10, 3),
        ("audit", 7, 7),
        ("audit", 1000, 37),
        ("audit", 5, 0),
        (1, 2**64, 3),
    ]:
        start, units = audit_hits(n, k, words(s))
        vectors["systematic"].append(  # type: ignore[attr-defined]
            {"seed": encode_seed(s), "n": n, "k": k, "start": start, "items": units}
        )
    vectors["monetary_unit"] = [
        {"seed": encode_seed(s), "amounts": a, "k": k, **monetary_units(a, k, s)}
        for s, a, k in [
            ("audit 2026", [50000, 2000, 0, 13000, 35000], 4),
            ("audit", [50000, 2000, 0, 13000, 35000], 4),
            ("audit", [1, 1, 1, 1], 4),
            ("audit", [999_999, 1, 0, 250_000, 3], 3),
            ("ledger", [(i * 7919) % 100_003 for i in range(300)], 40),
            ("ledger", [0, 5], 0),
        ]
    ]


def person_words(seed: object, person: object) -> Iterator[int]:
    """Section 13: a person's sub-stream, its key under its own label prefix."""
    key = hashlib.sha256(b"xlshuffle/draw/v1\x00" + seed_bytes(seed)).digest()
    key = hashlib.sha256(b"xlshuffle/draw/v1/person\x00" + key + b"\x00" + seed_bytes(person))
    yield from blocks(key.digest())


def williams(n: int) -> list[list[int]]:
    """Section 14's design: first row 0, 1, n-1, 2, n-2, ...; each next row adds 1."""
    first, low, high = [0], 1, n - 1
    while len(first) < n:
        first.append(low)
        low += 1
        if len(first) < n:
            first.append(high)
            high -= 1
    square = [[(x + i) % n for x in first] for i in range(n)]
    return square + [list(reversed(row)) for row in square] if n % 2 else square


def balanced(n: int, people: int, k: int, seed: object) -> list[list[int]]:
    stream = words(seed)
    relabel = permute(list(range(n)), n - 1, stream)
    design = williams(n)
    out: list[list[int]] = []
    for j in range(people):
        if j % len(design) == 0:
            block = permute(list(range(len(design))), len(design) - 1, stream)
        out.append([relabel[x] for x in design[block[j % len(design)]]][:k])  # type: ignore[misc]
    return out


def add_orders(vectors: dict[str, object]) -> None:
    """Sections 13 and 14 (added to v1 later; the vectors above are unchanged)."""
    ids: list[object] = ["Ann", "Bo", 42, 42.0, "Zoe\u0308", "名前", 7.5]
    vectors["person_orders"] = [
        {
            "seed": encode_seed(s),
            "id": pid,
            "n": n,
            "k": k,
            "first4": [f"{w:016x}" for w in itertools.islice(person_words(s, pid), 4)],
            "order": permute(list(range(n)), min(k, n - 1), person_words(s, pid))[:k],
        }
        for s, n, k in [("class 4B", 4, 4), ("class 4B", 10, 3), (2026, 1, 1), ("x", 52, 52)]
        for pid in ids
    ]
    vectors["balanced_orders"] = [
        {
            "seed": encode_seed(s),
            "n": n,
            "people": p,
            "k": k,
            "design": williams(n),
            "orders": balanced(n, p, k, s),
        }
        for s, n, p, k in [
            ("class 4B", 4, 4, 4),
            ("class 4B", 4, 10, 4),
            ("class 4B", 3, 7, 3),
            ("study", 5, 12, 2),
            ("study", 1, 3, 1),
            ("study", 2, 5, 2),
            (7, 6, 13, 6),
        ]
    ]


def allocation_key(seed: object, label: str) -> bytes:
    """Section 15: the allocation sub-stream's key of one stratum combination's label."""
    key = hashlib.sha256(b"xlshuffle/draw/v1\x00" + seed_bytes(seed)).digest()
    return hashlib.sha256(
        b"xlshuffle/draw/v1/allocation\x00" + key + b"\x00" + label.encode("utf-8")
    ).digest()


def allocation_words(seed: object, label: str) -> Iterator[int]:
    """Section 15: the allocation sub-stream of one stratum combination's label."""
    yield from blocks(allocation_key(seed, label))


def allocation_code(seed: object, label: str, seq: int) -> str:
    """Section 15: 60 bits of a hash of the sub-stream's key and seq, Crockford base32."""
    key = allocation_key(seed, label)
    digest = hashlib.sha256(b"xlshuffle/draw/v1/allocation-code\x00" + key + seq.to_bytes(8, "big"))
    bits = format(int.from_bytes(digest.digest()[:8], "big") >> 4, "060b")
    text = "".join(
        "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[int(bits[i : i + 5], 2)] for i in range(0, 60, 5)
    )
    return "-".join((text[:4], text[4:8], text[8:]))


def allocation_list(
    seed: object,
    arms: list[str],
    ratio: list[int],
    n: int,
    sizes: list[int],
    strata: list[tuple[str, list[str]]],
) -> list[list[object]]:
    """Rows [seq, [stratum values], block, block size, arm, code], built by counting."""
    g = math.gcd(*ratio)
    unit = [r // g for r in ratio]
    combos: list[list[str]] = [[]]
    for _, values in strata:  # first factor slowest: extend each combination by the next
        combos = [[*c, v] for c in combos for v in values]
    out: list[list[object]] = []
    for combo in combos:
        label = "|".join(f"{name}={v}" for (name, _), v in zip(strata, combo, strict=True))
        stream = allocation_words(seed, label)
        seq_rows: list[tuple[int, int, str]] = []
        block = 0
        while len(seq_rows) < n:
            block += 1
            size = sizes[randbelow(stream, len(sizes))]
            multiset: list[object] = []
            for arm, r in zip(arms, unit, strict=True):
                multiset += [arm] * (r * size // sum(unit))
            order = permute(multiset, size - 1, stream)
            seq_rows += [(block, size, str(arm)) for arm in order]
        for seq, (block, size, arm) in enumerate(seq_rows, 1):
            out.append([seq, combo, block, size, arm, allocation_code(seed, label, seq)])
    return out


def add_allocation_lists(vectors: dict[str, object]) -> None:
    """Section 15: permuted-block allocation lists, with and without strata."""
    cases: list[
        tuple[object, list[str], list[int], int, list[int], list[tuple[str, list[str]]]]
    ] = [
        ("trial", ["A", "B"], [2, 1], 6, [3, 6], []),
        ("trial", ["A", "B"], [4, 2], 6, [3, 6], []),  # the same list: the ratio's GCD is 2
        ("trial", ["Drug", "Placebo"], [1, 1], 10, [2, 4, 6], []),
        (
            "trial",
            ["A", "B", "C"],
            [1, 1, 1],
            5,
            [3, 6],
            [("site", ["N", "S"]), ("sex", ["F", "M"])],
        ),
        (
            "trial",
            ["A", "B", "C"],
            [1, 1, 1],
            5,
            [3, 6],
            [("site", ["N", "S", "E"]), ("sex", ["F", "M"])],
        ),
        (2026, ["Treatment", "Control"], [3, 2], 12, [5, 10], [("site", ["Zoë", "名前"])]),
        ("one block", ["A", "B"], [1, 1], 1, [8], []),
    ]
    vectors["allocation_lists"] = [
        {
            "seed": encode_seed(s),
            "arms": arms,
            "ratio": ratio,
            "n": n,
            "block_sizes": sizes,
            "strata": [[name, values] for name, values in strata],
            "rows": allocation_list(s, arms, ratio, n, sizes, strata),
        }
        for s, arms, ratio, n, sizes, strata in cases
    ]


def team_candidate(keys: list[tuple[str, ...]], k: int, stream: Iterator[int]) -> list[int]:
    """One candidate of section 16 by nested blocks: for each value of column 1 in its drawn
    order, each value of column 2 in the order drawn for that block, ...: the people of
    that block in shuffled order. The line is dealt round-robin into the teams, renumbered
    by the last shuffle."""
    n = len(keys)
    perm = permute(list(range(n)), max(n - 1, 0), stream)
    columns = len(keys[0]) if keys else 0
    orders: dict[tuple[str, ...], list[str]] = {}
    for c in range(columns):
        prefixes: list[tuple[str, ...]] = []
        for key in keys:
            if key[:c] not in prefixes:
                prefixes.append(key[:c])
        for prefix in prefixes:
            distinct: list[str] = []
            for key in keys:
                if key[:c] == prefix and key[c] not in distinct:
                    distinct.append(key[c])
            orders[prefix] = permute(distinct, len(distinct) - 1, stream)  # type: ignore[arg-type, assignment]
    relabel = permute(list(range(k)), k - 1, stream)

    def line(prefix: tuple[str, ...]) -> list[int]:
        if len(prefix) == columns:
            return [p for p in perm if keys[p] == prefix]  # type: ignore[index, misc]
        return [x for v in orders[prefix] for x in line((*prefix, v))]

    team = [0] * n
    for q, person in enumerate(line(())):
        team[person] = relabel[q % k] + 1  # type: ignore[operator]
    return team


def teams(
    labels: list[list[object]], k: int, seed: object, before: list[int | None] | None = None
) -> list[int]:
    """Section 16: candidates until no earlier pair is together again and every later
    column is within one (at most 64); the first with the least (repeats, excess)."""
    stream = words(seed)
    keys = [tuple(canonical(v) for v in row) for row in labels]
    best: tuple[tuple[int, int], list[int]] | None = None
    for _ in range(64):
        team = team_candidate(keys, k, stream)
        again = 0
        if before is not None:  # pair by pair, no counting trick
            for i, j in itertools.combinations(range(len(keys)), 2):
                if before[i] is not None and before[i] == before[j] and team[i] == team[j]:
                    again += 1
        excess = 0
        for c in range(1, len(keys[0])):
            for value in {key[c] for key in keys}:
                per = [
                    sum(1 for key, t in zip(keys, team, strict=True) if key[c] == value and t == x)
                    for x in range(1, k + 1)
                ]
                excess += max(0, max(per) - min(per) - 1)
        score = (again, excess)
        if best is None or score < best[0]:
            best = (score, team)
        if score == (0, 0):
            break
    assert best is not None
    return best[1]


def add_teams(vectors: dict[str, object]) -> None:
    """Section 16 (added to v1 later; the vectors above are unchanged)."""
    gender = ["F", "F", "M", "M", "F", "M"]
    mixed: list[object] = ["F", " F", "M", "X", 7, 7.0, None, "", "f", "M", "F", "Zoe\u0308"]
    two = [
        [g, lv] for g, lv in zip("FMFMFMFMFMFF", [1, 1, 2, 2, 3, 3, 1, 2, 3, 1, 2, 3], strict=True)
    ]
    cases: list[tuple[object, list[list[object]], int]] = [
        (42, [[g] for g in gender], 2),
        ("class 4B", [["F", 1], ["F", 2], ["M", 1], ["M", 2]], 2),
        ("class 4B", [[v] for v in mixed], 3),
        ("class 4B", [[v] for v in mixed], 5),
        ("teams", two, 3),
        ("teams", two, 4),
        ("teams", [["A"]] * 10, 3),  # one value: plain groups with the teams renumbered
        ("teams", [["A"], ["B"], ["C"]], 3),
        ("teams", [["A"]], 1),
        (2026, [[i % 4, i % 3] for i in range(30)], 7),
    ]
    vectors["balanced_teams"] = [
        {"seed": encode_seed(s), "labels": lab, "k": k, "teams": teams(lab, k, s)}
        for s, lab, k in cases
    ]
    # an earlier split to avoid: the vector's own earlier teams, then others
    round2: list[tuple[object, list[list[object]], int, list[int | None]]] = [
        (42, [[g] for g in gender], 2, [1, 2, 1, 2, 1, 2]),
        ("teams", two, 3, teams(two, 3, "teams")),
        ("teams", two, 4, [1, 1, 1, 2, 2, 2, None, None, 3, 3, 3, 3]),
        ("teams", [["A"]] * 10, 3, [1, 1, 1, 1, 2, 2, 2, 2, 3, 3]),  # some pairs must repeat
        (2026, [[i % 4, i % 3] for i in range(30)], 7, [i % 5 + 1 for i in range(30)]),
    ]
    vectors["balanced_teams_avoid"] = [
        {
            "seed": encode_seed(s),
            "labels": lab,
            "k": k,
            "before": before,
            "teams": teams(lab, k, s, before),
        }
        for s, lab, k, before in round2
    ]


_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}


def canon(value: object) -> str:
    """Section 17's canonical JSON, written out from the text of the section."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return (
            '"'
            + "".join(
                _ESCAPES.get(ch, f"\\u{ord(ch):04x}" if ord(ch) < 0x20 else ch) for ch in value
            )
            + '"'
        )
    if isinstance(value, list):
        return "[" + ",".join(canon(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(canon(k) + ":" + canon(value[k]) for k in sorted(value)) + "}"
    raise TypeError(value)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def add_commitments(vectors: dict[str, object]) -> None:
    """Section 17 (added to v1 later; the vectors above are unchanged)."""
    values: list[object] = [
        {"b": [1, "\u00e9", None], "a": True, "c": {"z": '"quote"\tand\\', "y": "\x01\u2028"}},
        ["Zo\u00eb", "\U0001f600", "", 0, -7],
    ]
    vectors["commit_canonical_json"] = [
        {"value": v, "canonical": canon(v), "sha256": sha(canon(v))} for v in values
    ]
    rows = [
        ["Name", "Email", "Tickets"],
        ["Ann", "ann@example.com", "3"],
        ["Bo", "", "1"],
        ["Zo\u00eb"],
    ]
    vectors["commit_list_digest"] = {
        "rows": rows,
        "sha256": sha("".join(canon(r) + "\n" for r in rows)),
    }
    body = {
        "commitment_version": 1,
        "protocol": "xlshuffle/draw/v1",
        "draw": {"command": "sample", "options": ["-k", "3", "--weights", "Tickets"]},
        "list": {
            "file": "raffle.csv",
            "sheet": "raffle.csv",
            "selection": "rows 1-5",
            "header": True,
            "rows": 4,
            "sha256": vectors["commit_list_digest"]["sha256"],  # type: ignore[index]
        },
        "beacon": "EuroMillions 2026-12-04: the five main numbers, ascending",
        "entrants": None,
        "tool_version": "0.1.0",
        "time_utc": "2026-11-26T12:00:00Z",
    }
    digest = sha(canon(body))
    cases = [[" 4  17 23\t38 45 "], ["4 17 23 38 45", "Zoe\u0308 rolled 6"]]
    seeds = []
    for raw in cases:
        # NFC, white space runs (str.isspace) as one space, trimmed
        canonical = [" ".join(unicodedata.normalize("NFC", v).split()) for v in raw]
        seed = "xlshuffle-commit:" + digest + "/" + "".join(v + "/" for v in canonical)
        seeds.append({"reveal": raw, "seed": seed, "deal_3_of_10": deal(list(range(10)), 3, seed)})
    vectors["commit_seed"] = {"commitment": body, "sha256": digest, "cases": seeds}
    salt = "00112233445566778899aabbccddeeff"
    vectors["commit_entrant_hashes"] = {
        "salt": salt,
        "rows": rows[1:],
        "sha256": [sha(salt + "\n" + canon(r)) for r in rows[1:]],
    }


def scaled(weights: list[object]) -> list[int]:
    """Section 8's decimals as written: each weight exactly (a float by its shortest repr),
    all scaled by 10**p, p the most decimal places any of them needs."""
    exact = [decimal.Decimal(repr(w) if isinstance(w, float) else str(w).strip()) for w in weights]
    places = max([0, *(-d.normalize().as_tuple().exponent for d in exact)])  # type: ignore[operator]
    return [int(d.scaleb(places)) for d in exact]


def rule_draw(
    seed: object,
    k: object,
    labels: list[object] | None,
    weights: list[object] | None,
    ids: list[object] | None = None,
    excluded: Sequence[object] = (),
    reserves: int = 0,
    method: str = "random",
    take_all: bool = True,
) -> list[dict[str, object]]:
    """Sections 10-12 with the caller's rules: one entry per ID (``ids`` given), and small
    strata taken whole (``take_all``: a stratum gives what it can; without it a vector must
    not need it). Each part's winners and reserves (or start and items), as data-row
    indexes; rows whose ID is ``excluded`` are left out first."""
    out_ids = {canonical(e) for e in excluded} - {""}
    rows = [
        i
        for i in range(len(labels or weights or ids or []))
        if ids is None or canonical(ids[i]) not in out_ids
    ]
    tickets = None if weights is None else scaled(weights)  # the whole list scaled at once
    order: list[bytes | None] = []
    first: dict[bytes | None, object] = {}
    members: dict[bytes | None, list[int]] = {}
    for i in rows:  # strata by label bytes, in order of first appearance
        b = None if labels is None else seed_bytes(labels[i])
        if b not in members:
            order.append(b)
            first[b] = None if labels is None else labels[i]
            members[b] = []
        members[b].append(i)
    parts: list[dict[str, object]] = []
    for b in order:
        own = members[b]
        q = k if isinstance(k, int) else {seed_bytes(x): c for x, c in k}[b]  # type: ignore[union-attr, index]
        stream = words(seed, first[b]) if labels is not None else words(seed)
        if ids is not None:  # one entrant per ID at its first row, holding its rows' tickets
            heads: list[int] = []
            held: dict[int, int] = {}
            head_of: dict[str, int] = {}
            for i in own:
                t = canonical(ids[i])
                assert t, "a blank ID is refused"
                if t not in head_of:
                    head_of[t] = i
                    heads.append(i)
                h = head_of[t]
                held[h] = held.get(h, 0) + (1 if tickets is None else tickets[i])
            entrants, w = heads, [held[h] for h in heads]
        else:
            entrants, w = own, None if tickets is None else [tickets[i] for i in own]
        if method == "systematic":
            n = len(entrants)
            start, units = audit_hits(n, min(q, n), stream)  # type: ignore[type-var]
            parts.append(
                {
                    "stratum": first[b],
                    "size": n,
                    "k": q,
                    "start": start,
                    "items": [entrants[u] for u in units],
                }
            )
            continue
        can = len(entrants) if w is None else sum(1 for x in w if x > 0)
        assert take_all or q + reserves <= can, "refused unless small strata are taken whole"  # type: ignore[operator]
        m = min(q + reserves, can)  # type: ignore[operator]
        if w is None:
            drawn = permute(entrants, min(m, len(entrants) - 1), stream)[:m]  # type: ignore[arg-type]
        else:
            drawn = [entrants[p] for p in weighted(w, m, stream)]
        parts.append(
            {
                "stratum": first[b],
                "size": len(entrants),
                "k": q,
                "winners": drawn[:q],
                "reserves": drawn[q:],
            }  # type: ignore[misc]
        )
    return parts


def add_rules(vectors: dict[str, object]) -> None:
    """The caller's rules of sections 10 and 11, one entry per ID and small strata taken
    whole (added to v1 later; the vectors above are unchanged)."""
    ids: list[object] = ["A1", "B2", "A1", "C3", "D4", " A1", "C3", "E5"]
    region: list[object] = ["N", "S", "N", "N", "S", "N", "N", "S"]
    dec: list[object] = ["1", 2, 0.5, "0.1", 3, "2.25", 0.1, "0"]
    mixed: list[object] = [42, "42", 42.0, "Zoe\u0308", "Zoë", 7.5, " 7.5", "x"]
    many = [f"P{(i * 7) % 13}" for i in range(40)]
    cases: list[dict[str, object]] = [
        {"seed": "per id", "ids": ids, "k": 5},
        {"seed": "per id", "ids": ids, "k": 3, "weights": [*dec[:4], "3", "2", "1.5", "1"]},
        {"seed": "per id", "ids": ids, "k": 4, "weights": dec},
        {"seed": "per id", "ids": ids, "k": 2, "weights": dec, "reserves": 2},
        {"seed": 42, "ids": mixed, "k": 4},
        {"seed": 42, "ids": mixed, "k": 3, "weights": [0.1, "0.2", 0.3, 1, 2, "0.4", 0.05, 3]},
        {"seed": "strata", "ids": ids, "k": 1, "strata": region, "reserves": 1},
        {"seed": "strata", "ids": ids, "k": 1, "strata": region, "weights": dec},
        {"seed": "strata", "ids": ids, "k": 1, "strata": region, "excluded": ["D4", " C3"]},
        {"seed": "strata", "ids": ids, "k": 3, "strata": region, "take_all": True},
        {"seed": "many", "ids": many, "k": 6, "weights": [(i % 5) / 2 for i in range(40)]},
    ]
    vectors["one_entry_per_id"] = [
        {
            "seed": encode_seed(c["seed"]),
            "ids": c["ids"],
            "weights": c.get("weights"),
            "strata": c.get("strata"),
            "excluded": c.get("excluded"),
            "k": c["k"],
            "reserves": c.get("reserves", 0),
            "take_all": c.get("take_all", False),
            "parts": rule_draw(
                c["seed"],
                c["k"],
                c.get("strata"),
                c.get("weights"),
                c["ids"],  # type: ignore[arg-type]
                c.get("excluded") or [],
                c.get("reserves", 0),  # type: ignore[arg-type]
                take_all=bool(c.get("take_all", False)),
            ),
        }
        for c in cases
    ]
    labels: list[object] = ["N", "S", "N", 42, "N", "S", 42.0, "E", "N", "42", "N", "N"]
    tickets: list[object] = [3, 1, 0, 2, 5, 0, 1, 0, 2, "0.5", 1, 0]
    small: list[dict[str, object]] = [
        {"seed": "small", "k": 3},
        {"seed": "small", "k": 5},
        {"seed": "small", "k": 3, "weights": tickets},
        {"seed": "small", "k": 2, "reserves": 2},
        {"seed": "small", "k": 2, "reserves": 3, "weights": tickets},
        {"seed": "small", "k": [["N", 9], ["S", 1], [42, 4], ["E", 0]]},
        {"seed": "small", "k": [["N", 2], ["S", 2], [42, 3], ["E", 1]], "weights": tickets},
        {"seed": "small", "k": 3, "method": "systematic"},
        {"seed": "audit", "k": 5, "method": "systematic"},
        {"seed": "audit", "k": [["N", 2], ["S", 3], [42, 3], ["E", 0]], "method": "systematic"},
    ]
    vectors["small_strata"] = [
        {
            "seed": encode_seed(c["seed"]),
            "labels": labels,
            "weights": c.get("weights"),
            "k": c["k"],
            "reserves": c.get("reserves", 0),
            "method": c.get("method", "random"),
            "parts": rule_draw(
                c["seed"],
                c["k"],
                labels,
                c.get("weights"),
                None,
                [],  # type: ignore[arg-type]
                c.get("reserves", 0),
                c.get("method", "random"),  # type: ignore[arg-type]
            ),
        }
        for c in small
    ]


# ------------------------------------------------------------------ section 18: tickets


def ticket_text(seed: object, number: int, ident: str) -> str:
    """Section 18, step 1: the text a ticket hashes, built from the words of the section."""
    key = hashlib.sha256(b"xlshuffle/draw/v1" + b"\x00" + seed_bytes(seed)).hexdigest()
    return "xlshuffle/ticket/v1/" + key + "/" + str(number) + "/" + ident


def one_ticket(seed: object, number: int, ident: str) -> str:
    return hashlib.sha256(ticket_text(seed, number, ident).encode("utf-8")).hexdigest()


def entrant_ticket(seed: object, ident: str, count: int) -> int:
    """Step 2: the smallest of the entrant's ticket numbers, as an integer (compared as
    the 256-bit numbers, which orders them as their hex texts do)."""
    return min(int(one_ticket(seed, j, ident), 16) for j in range(count))


def ticket_draw(
    seed: object,
    ids: list[object],
    k: int | None,
    *,
    weights: list[int] | None = None,
    rate: tuple[int, int] | None = None,
    reserves: int = 0,
) -> list[int]:
    """Steps 2 and 3 by sorting every entrant: (ticket, ID) ascending."""
    texts = [canonical(v) for v in ids]
    counts = weights or [1] * len(ids)
    keyed = sorted(
        (entrant_ticket(seed, t, c), t, i)
        for i, (t, c) in enumerate(zip(texts, counts, strict=True))
        if c > 0
    )
    if rate is not None:
        num, den = rate
        # ticket < ceil(p * 2**256)  <=>  ticket * den < num * 2**256 (tickets are whole)
        won = sum(1 for t, _, _ in keyed if t * den < num * 2**256)
        return [i for _, _, i in keyed[: won + reserves]]
    n = len(keyed) if k is None else k + reserves
    return [i for _, _, i in keyed[:n]]


def rivest_order(seed: object, ids: list[object]) -> list[int]:
    """Step 6, from Rivest's description: SHA-256 of the seed text's SHA-256 hex and the ID,
    its decimal digits (at least 64) reversed after "0.", ascending as texts, ties by ID."""
    seed_hash = hashlib.sha256(seed_bytes(seed)).hexdigest()
    keyed = []
    for i, v in enumerate(ids):
        t = canonical(v)
        value = int(hashlib.sha256((seed_hash + t).encode("utf-8")).hexdigest(), 16)
        digits = str(value).rjust(64, "0")
        keyed.append(("0." + "".join(reversed(digits)), t, i))
    return [i for _, _, i in sorted(keyed)]


def population(ids: list[object], weights: list[int] | None = None) -> str:
    lines = [canonical(v) for v in ids]
    if weights is not None:
        lines = [f"{t}\t{w}" for t, w in zip(lines, weights, strict=True)]
    return hashlib.sha256("\n".join(sorted(lines)).encode("utf-8")).hexdigest()


def add_tickets(vectors: dict[str, object]) -> None:
    """Section 18 (added to v1 later; the vectors above are unchanged)."""
    ids: list[object] = ["M-017", "M-018", " M-019", 42, 42.5, "Zoe\u0308", "名前", "a/b", "z"]
    many = [f"B-{i:04d}" for i in range(300)]
    vectors["tickets"] = [
        {"seed": encode_seed(s), "id": v, "number": j, "ticket": one_ticket(s, j, canonical(v))}
        for s in ("2026", 42, "Zoë")
        for v in ("M-017", " M-017 ", 42.0, "名前", "x\ty")
        for j in (0, 1, 9)
    ]
    cases: list[dict[str, object]] = [
        {"seed": "2026", "ids": ids, "k": None},
        {"seed": "2026", "ids": ids, "k": 3, "reserves": 2},
        {"seed": "2026", "ids": ids[:5], "k": None},  # the same entrants keep their order
        {"seed": "2026", "ids": ids, "k": 4, "weights": [1, 5, 0, 2, 2, 1, 3, 1, 10]},
        {"seed": "audit", "ids": many, "k": 12},
        {"seed": "audit", "ids": many[:150], "k": 12},
        {"seed": "audit", "ids": many, "rate": [1, 20]},
        {"seed": "audit", "ids": many, "rate": [1, 20], "reserves": 3},
        {"seed": "audit", "ids": many[:150], "rate": [1, 20]},
        {"seed": "audit", "ids": many, "rate": [1, 1]},
        {"seed": 7, "ids": many[:40], "k": 5, "weights": [i % 4 for i in range(40)]},
    ]
    vectors["ticket_orders"] = [
        {
            "seed": encode_seed(c["seed"]),
            "ids": c["ids"],
            "k": c.get("k"),
            "rate": c.get("rate"),
            "reserves": c.get("reserves", 0),
            "weights": c.get("weights"),
            "order": ticket_draw(
                c["seed"],
                c["ids"],  # type: ignore[arg-type]
                c.get("k"),  # type: ignore[arg-type]
                weights=c.get("weights"),  # type: ignore[arg-type]
                rate=tuple(c["rate"]) if c.get("rate") else None,  # type: ignore[arg-type]
                reserves=c.get("reserves", 0),  # type: ignore[arg-type]
            ),
        }
        for c in cases
    ]
    vectors["rivest_orders"] = [
        {"seed": encode_seed(s), "ids": v, "order": rivest_order(s, v)}
        for s, v in (
            (314159, ["A-1", "A-2", "A-3", "B-1", "B-2", "B-3"]),
            ("314159", ["ab-1", "ab-2", "cd-1", "ef-3"]),
            ("01382438112797316654", many[:60]),
            ("Zoë", ids),
        )
    ]
    vectors["population_digests"] = [
        {"ids": v, "weights": w, "digest": population(v, w)}
        for v, w in (
            (ids, None),
            (list(reversed(ids)), None),
            (ids, [1, 5, 0, 2, 2, 1, 3, 1, 10]),
            ([], None),
        )
    ]


# ------------------------------------------------------------------ section 9: prize tables


def add_prizes(vectors: dict[str, object]) -> None:
    """Section 9's prize tables: one draw of every winner and reserve, places mapped to
    prizes in the table's order (added to v1 later; the vectors above are unchanged)."""
    table = [["Third prize", 3, 1], ["Second prize", 1, 1], ["Grand prize", 1, 2]]
    places = [(name, n, "winner") for name, count, _ in table for n in range(1, count + 1)]
    places += [(name, n, "reserve") for name, _, r in table for n in range(1, r + 1)]
    weights = [5, 1, 3, 0, 2, 4, 1, 6, 2, 2, 1, 3]
    cases = [
        ("spring", None, 12),
        ("spring", weights, 12),
    ]
    out = []
    for seed, w, n in cases:
        total = len(places)
        drawn = deal(list(range(n)), total, seed) if w is None else weighted(w, total, words(seed))
        out.append(
            {
                "seed": encode_seed(seed),
                "n": n,
                "weights": w,
                "prizes": table,
                "drawn": [[i, *place] for i, place in zip(drawn, places, strict=True)],
            }
        )
    vectors["prizes"] = out


# ------------------------------------------------------------------ section 19: fresh rounds


def fresh_pick(
    seed: str,
    ids: list[str],
    pool: list[int],
    weights: list[object] | None,
    per_id: bool,
    method: str,
) -> int:
    """Step 5 over the pool, from sections 5, 8, 10 and 18 as this file draws them."""
    stream = words(seed)
    tickets = None if weights is None else scaled(weights)
    if per_id:  # one entrant per ID at its first row, holding its rows' tickets
        heads: dict[str, int] = {}
        held: dict[int, int] = {}
        for i in pool:
            h = heads.setdefault(canonical(ids[i]), i)
            held[h] = held.get(h, 0) + (1 if tickets is None else tickets[i])
        entrants, w = list(held), list(held.values())
    else:
        entrants = pool
        w = None if tickets is None else [tickets[i] for i in pool]
    if method == "ticket":
        return entrants[ticket_draw(seed, [ids[i] for i in entrants], 1, weights=w)[0]]
    if method == "rivest":
        return entrants[rivest_order(seed, [ids[i] for i in entrants])[0]]
    if w is None:
        return int(permute(entrants, min(1, len(entrants) - 1), stream)[0])  # type: ignore[call-overload]
    return entrants[weighted(w, 1, stream)[0]]


def add_fresh_rounds(vectors: dict[str, object]) -> None:
    """Section 19: a round drawn again from fresh public randomness, over the entrants not
    yet drawn (added to v1 later; the vectors above are unchanged)."""
    ids = [f"T-{i:02d}" for i in range(1, 13)]
    weights: list[object] = [1, 2, 1, 3, 1, 1, 2, 1, 4, 1, 2, 1]
    twice = ["A", "B", "A", "C", "D", "B", "E", "F", "C", "G", "H", "E"]
    cases = [
        # (method, ids, weights, one entry per ID, excluded IDs, drawn so far)
        ("random", ids, None, False, [], ["T-03", "T-07", "T-11", "T-01"]),
        ("random", ids, weights, False, ["T-12"], ["T-09", "T-04", "T-02"]),
        ("random", twice, weights, True, ["H"], ["A", "C"]),
        ("ticket", ids, None, False, ["T-05"], ["T-06", "T-10"]),
        ("rivest", ids, None, False, [], ["T-08"]),
        ("random", ids[:3], None, False, ["T-01"], ["T-02"]),  # a pool of one
    ]
    out = []
    for n, (method, who, w, per_id, excluded, drawn) in enumerate(cases, 1):
        out_ids = {canonical(x) for x in [*excluded, *drawn]} | {""}
        rows = [
            i for i in range(len(who)) if canonical(who[i]) not in {canonical(x) for x in excluded}
        ]
        pool = [i for i in rows if canonical(who[i]) not in out_ids]
        texts = sorted({canonical(who[i]) for i in pool})
        body = {
            "round_version": 1,
            "protocol": "xlshuffle/draw/v1",
            "draw": sha(f"the draw's commitment {n}"),
            "previous": {"file": "draw.json", "sha256": sha(f"the draw's record {n}")},
            "replace": {"id": drawn[0], "prize": "Grand prize" if n % 2 else None, "place": 1},
            "reason": "no answer within 14 days",
            "pool": {"entrants": len(texts), "sha256": sha("\n".join(texts))},
            "beacon": "drand quicknet round 12345678: its randomness in hex",
            "tool_version": "vectors",
            "time_utc": "2026-12-20T12:00:00Z",
        }
        digest = sha(canon(body))
        reveal = [f" {n}d6a  {7 * n}f0 "]
        value = " ".join(unicodedata.normalize("NFC", reveal[0]).split())
        seed = "xlshuffle-commit:" + digest + "/" + value + "/"
        out.append(
            {
                "method": method,
                "ids": who,
                "weights": w,
                "one_entry_per_id": per_id,
                "excluded": excluded,
                "drawn": drawn,
                "round": body,
                "sha256": digest,
                "reveal": reveal,
                "seed": seed,
                "pool": pool,
                "row": fresh_pick(seed, who, pool, w, per_id, method),
            }
        )
    vectors["fresh_rounds"] = out


def holder_of(amounts: list[int], unit: int) -> int:
    """The item whose cent range [c, c + a) holds ``unit`` (a scan, as monetary_units)."""
    for i in range(len(amounts)):
        if sum(amounts[:i]) <= unit < sum(amounts[: i + 1]):
            return i
    raise ValueError(unit)


def cell_units(amounts: list[int], k: int, stream: Iterator[int]) -> dict[str, object]:
    """Section 20's cell selection: a start per cell, each cell's hit inside it."""
    total = sum(amounts)
    starts = [randbelow(stream, total) for _ in range(k)]
    units = []
    for j, s in enumerate(starts):
        x = j * total + s  # one of the cell's N values of x, each with chance 1/N
        units.append(x // k)
    hits: dict[int, int] = {}
    for u in units:
        hits[holder_of(amounts, u)] = hits.get(holder_of(amounts, u), 0) + 1
    certain = []
    for i, a in enumerate(amounts):  # the item's x range holds a whole cell [jN, (j+1)N)
        low, high = k * sum(amounts[:i]), k * (sum(amounts[:i]) + a)
        if any(low <= j * total and (j + 1) * total <= high for j in range(k)):
            certain.append(i)
    return {
        "starts": starts,
        "units": units,
        "selected": [[i, h] for i, h in hits.items()],
        "certain": certain,
    }


def mus_strata(
    amounts: list[int], k: int, seed: object, cutoff: object, cells: bool
) -> dict[str, object]:
    """Section 20: set aside (<= 0), a top stratum (>= the cutoff; "interval": a * k >= T
    over the positive total T), and units hit over the rest, in input order."""
    positive_total = sum(a for a in amounts if a > 0)

    def is_top(a: int) -> bool:
        if cutoff is None:
            return False
        if cutoff == "interval":
            return a * k >= positive_total
        return a >= cutoff  # type: ignore[operator]

    set_aside = [i for i, a in enumerate(amounts) if a <= 0]
    top = [i for i, a in enumerate(amounts) if a > 0 and is_top(a)]
    rest = [i for i, a in enumerate(amounts) if a > 0 and not is_top(a)]
    sizes = [amounts[i] for i in rest]
    if cells:
        got = cell_units(sizes, k, words(seed))["selected"]
    else:
        _, units = audit_hits(sum(sizes), k, words(seed))
        count: dict[int, int] = {}
        for u in units:
            count[holder_of(sizes, u)] = count.get(holder_of(sizes, u), 0) + 1
        got = [[i, h] for i, h in count.items()]
    selected = sorted([[i, 0] for i in top] + [[rest[p], h] for p, h in got])  # type: ignore[misc]
    return {"set_aside": set_aside, "top": top, "selected": selected}


def add_mus_populations(vectors: dict[str, object]) -> None:
    """Section 20: cell selections, and ledgers with amounts set aside and a top stratum."""
    ledger = [(i * 7919) % 100_003 for i in range(300)]
    vectors["cell"] = [
        {"seed": encode_seed(s), "amounts": a, "k": k, **cell_units(a, k, words(s))}
        for s, a, k in [
            ("audit 2026", [50000, 2000, 0, 13000, 35000], 4),
            ("audit", [1, 1, 1, 1], 4),
            ("audit", [3, 3, 3], 2),
            ("audit", [999_999, 1, 0, 250_000, 3], 3),
            ("ledger", ledger, 40),
            ("ledger", [0, 5], 0),
        ]
    ]
    signed = [50000, -2000, 0, 13000, 35000, 120000, -1, 800]
    vectors["mus_strata"] = [
        {
            "seed": encode_seed(s),
            "amounts": a,
            "k": k,
            "cutoff": cut,
            "cells": cells,
            **mus_strata(a, k, s, cut, cells),
        }
        for s, a, k, cut, cells in [
            ("audit 2026", signed, 4, None, False),
            ("audit 2026", signed, 4, None, True),
            ("audit 2026", signed, 4, "interval", False),
            ("audit 2026", signed, 4, "interval", True),
            ("audit 2026", signed, 3, 35000, True),
            ("ledger", [a - 50_000 for a in ledger], 25, "interval", True),
            ("ledger", [a - 50_000 for a in ledger], 25, 90_000, False),
        ]
    ]


if __name__ == "__main__":
    main()
