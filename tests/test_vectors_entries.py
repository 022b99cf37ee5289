"""Known answers of the caller's rules of protocol v1: one entry per ID (section 10) and
small strata taken whole (section 11).

The vectors (keys ``one_entry_per_id`` and ``small_strata`` of tests/vectors/draw-v1.json)
come from tools/make_vectors.py, which implements these rules on its own without importing
xlshuffle. Each is checked against the package's draw (``tabledraw.raffles.choose``, the code
behind ``sample``, workbooks and Excel; and ``lists.raffle.draw_csv`` on the list saved as
CSV) and against the reference code of docs/draw-protocol.md (``draw_rows``).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from protocol_references import VECTORS, decode_seed, reference_namespace
from xlshuffle.common.a1 import col_letters
from xlshuffle.draw.protocol import DrawStream
from xlshuffle.lists.raffle import draw_csv
from xlshuffle.tabledraw.entrants import Entrants
from xlshuffle.tabledraw.raffles import DrawOptions, choose, exclusion_of

REF = reference_namespace()
ENTRIES: list[dict[str, Any]] = VECTORS["one_entry_per_id"]
SMALL: list[dict[str, Any]] = VECTORS["small_strata"]


def _columns(case: dict[str, Any]) -> dict[str, list[object]]:
    named = {"ID": case.get("ids"), "Tickets": case["weights"]}
    named["Stratum"] = case.get("strata", case.get("labels"))
    return {head: values for head, values in named.items() if values is not None}


def _options(case: dict[str, Any], columns: dict[str, list[object]]) -> DrawOptions:
    k = case["k"]
    per = not isinstance(k, int)
    return DrawOptions(
        k=0 if per else k,
        method=case.get("method", "random"),
        weights="Tickets" if "Tickets" in columns else None,
        reserves=case["reserves"],
        strata="Stratum" if "Stratum" in columns else None,
        id="ID" if "ID" in columns else None,
        excluded=None if case.get("excluded") is None else tuple(case["excluded"]),
        counts=tuple((str(label), n) for label, n in k) if per else None,
        one_entry_per_id="ids" in case,
        all_of_small_strata="labels" in case or case.get("take_all", False),
    )


def _entrants(columns: dict[str, list[object]]) -> Entrants:
    heads = list(columns)
    return Entrants(
        where="vector",
        labels=heads,
        letters=[col_letters(j + 1) for j in range(len(heads))],
        n=len(next(iter(columns.values()))),
        values=lambda j: list(columns[heads[j]]),
        cell=lambda i, j: f"vector: cell {col_letters(j + 1)}{i + 2}",
        fail=ValueError,
    )


def _package(case: dict[str, Any]) -> list[dict[str, Any]]:
    """The package's draw of the vector's rows, part by part, as the vector states it."""
    columns = _columns(case)
    opts = _options(case, columns)
    ents = _entrants(columns)
    cols = opts.columns(ents)
    drawn = choose(
        ents, opts, DrawStream(decode_seed(case["seed"])), exclusion_of(ents, opts, cols.get("id"))
    )
    return [_part(case, p) for p in drawn.parts]


def _part(case: dict[str, Any], p: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"stratum": p.label, "size": p.size, "k": p.k}
    if case.get("method") == "systematic":
        return out | {"start": p.audit.start, "items": p.rows}
    winners = p.winners()
    return out | {"winners": winners, "reserves": [r for r in p.rows if r not in winners]}


def _reference(case: dict[str, Any]) -> list[dict[str, Any]]:
    """The document's ``draw_rows`` over the rows left after the vector's exclusions."""
    columns = _columns(case)
    n = len(next(iter(columns.values())))
    ids = case.get("ids")
    out = {REF["canonical_id"](x) for x in case.get("excluded") or ()} - {""}
    rows = [i for i in range(n) if ids is None or REF["canonical_id"](ids[i]) not in out]
    k = case["k"]
    labels = columns.get("Stratum")
    if not isinstance(k, int):  # counts per stratum, in the strata's order of first appearance
        count = {REF["seed_bytes"](label): c for label, c in k}
        k = [count[REF["seed_bytes"](label)] for label, _ in REF["strata"](labels, rows)]
    parts = REF["draw_rows"](
        decode_seed(case["seed"]),
        k,
        rows,
        labels=labels,
        ids=ids,
        weights=case["weights"],
        reserves=case["reserves"],
        take_all="labels" in case or case.get("take_all", False),
        systematic=case.get("method") == "systematic",
    )
    ks = [k] * len(parts) if isinstance(k, int) else k
    result = []
    for (label, size, winners, reserves), q in zip(parts, ks, strict=True):
        part: dict[str, Any] = {"stratum": label, "size": size, "k": q}
        if case.get("method") == "systematic":
            result.append(part | {"items": winners})
        else:
            result.append(part | {"winners": winners, "reserves": reserves})
    return result


def _without_start(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: v for key, v in p.items() if key != "start"} for p in parts]


def _id(case: dict[str, Any]) -> str:
    k = case["k"] if isinstance(case["k"], int) else "counts"
    extra = "-".join(
        name
        for name, on in (
            ("tickets", case["weights"] is not None),
            ("strata", case.get("strata") is not None),
            ("excluded", case.get("excluded") is not None),
            ("reserves", case["reserves"] > 0),
            ("systematic", case.get("method") == "systematic"),
        )
        if on
    )
    return f"{case['seed']['value']!r}-k{k}-{extra or 'plain'}"


# ---------------------------------------------------------------- section 10: one entry per ID


@pytest.mark.parametrize("case", ENTRIES, ids=_id)
def test_one_entry_per_id_package(case: dict[str, Any]) -> None:
    assert _package(case) == case["parts"]


@pytest.mark.parametrize("case", ENTRIES, ids=_id)
def test_one_entry_per_id_reference(case: dict[str, Any]) -> None:
    assert _reference(case) == case["parts"]


# ---------------------------------------------------------------- section 11: small strata


@pytest.mark.parametrize("case", SMALL, ids=_id)
def test_small_strata_package(case: dict[str, Any]) -> None:
    assert _package(case) == case["parts"]


@pytest.mark.parametrize("case", SMALL, ids=_id)
def test_small_strata_reference(case: dict[str, Any]) -> None:
    assert _reference(case) == _without_start(case["parts"])


# ---------------------------------------------------------------- a list on disk


TEXT_ONLY = [
    c
    for c in ENTRIES + SMALL
    if all(isinstance(v, str) for col in _columns(c).values() for v in col)
    and isinstance(c["k"], int)
]


@pytest.mark.parametrize("case", TEXT_ONLY, ids=_id)
def test_a_csv_list_draws_the_vector(case: dict[str, Any], tmp_path: Path) -> None:
    """The list saved as CSV (texts read as the vector holds them) through ``draw_csv``."""
    columns = _columns(case)
    src = tmp_path / "list.csv"
    with src.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([list(columns), *zip(*columns.values(), strict=True)])
    record = draw_csv(src, options=_options(case, columns), seed=decode_seed(case["seed"]))
    want = [
        r
        for p in case["parts"]
        for r in p.get("items", p.get("winners", []) + p.get("reserves", []))
    ]
    assert record["permutation"] == want


# ---------------------------------------------------------------- the vectors hold the edges


def test_the_vectors_hold_the_cases_they_are_for() -> None:
    """A vector file can drift: the cases these vectors are for are really in it."""
    assert len(TEXT_ONLY) >= 4
    # one entry per ID: without weights a group of three rows holds three tickets, and the
    # entrant is named by its first row
    plain = ENTRIES[0]
    assert plain["weights"] is None and plain["parts"][0]["size"] == 5
    assert 2 not in plain["parts"][0]["winners"] and 5 not in plain["parts"][0]["winners"]
    # decimals as texts and floats, and an entrant whose tickets add up to 0 never drawn
    assert any(isinstance(w, float) for c in ENTRIES for w in c["weights"] or ())
    assert any(isinstance(w, str) and "." in w for c in ENTRIES for w in c["weights"] or ())
    assert [c for c in ENTRIES if c["weights"] and 7 not in c["parts"][0]["winners"]]
    # 42, "42" and 42.0 one ID; NFC and NFD one ID
    assert any(c["ids"][:3] == [42, "42", 42.0] for c in ENTRIES)
    assert any(c["strata"] and c["excluded"] for c in ENTRIES)
    # small strata: taken whole by a deal, by tickets (one with no tickets at all), with
    # reserves, with counts and systematically
    small = [p for c in SMALL for p in c["parts"] if not isinstance(p["k"], list)]
    assert any(len(p.get("winners", p.get("items", []))) < p["k"] for p in small)
    assert any(c["weights"] and not c["parts"][-1]["winners"] for c in SMALL)
    assert any(c["reserves"] and c["weights"] for c in SMALL)
    assert any(c["method"] == "systematic" for c in SMALL)
    assert any(not isinstance(c["k"], int) for c in SMALL)


def test_a_whole_stratum_is_the_longer_prefix_of_its_own_order() -> None:
    """Section 11: a deal of all m rows is the full shuffle of the stratum, so the smaller
    draw of the same sub-stream is its prefix (k 3 and k 5 of the same seed)."""
    by_k = {
        c["k"]: c
        for c in SMALL
        if c["method"] == "random"
        and c["weights"] is None
        and c["reserves"] == 0
        and isinstance(c["k"], int)
    }
    k3, k5 = by_k[3]["parts"], by_k[5]["parts"]
    for short, long in zip(k3, k5, strict=True):
        assert long["winners"][: len(short["winners"])] == short["winners"]


@pytest.mark.parametrize(
    ("case", "words"),
    [
        (  # an ID in two strata
            {"ids": ["a", "b", "a"], "strata": ["N", "N", "S"], "k": 1},
            "in two strata",
        ),
        ({"ids": ["a", " ", "b"], "k": 1}, "the ID is blank"),  # a blank ID
        (  # a stratum smaller than its count, not taken whole
            {"labels": ["N", "S", "N"], "k": 2, "take_all": False},
            "stratum 'S'",
        ),
    ],
    ids=["two strata", "blank ID", "small stratum"],
)
def test_the_package_and_the_reference_refuse_alike(case: dict[str, Any], words: str) -> None:
    """What the rules refuse, both refuse: the reference code raises, the package names it."""
    case = {"seed": {"type": "str", "value": "refused"}, "weights": None, "reserves": 0, **case}
    if "labels" in case and not case["take_all"]:  # _options reads labels as "take whole"
        case["strata"] = case.pop("labels")
    with pytest.raises(ValueError):
        _reference(case)
    with pytest.raises(Exception, match=words):
        _package(case)
