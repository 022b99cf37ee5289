"""verifier/index.html in a real browser: its own JavaScript implementation of draw protocol v1.

Headless Chromium (the system's /usr/bin/chromium, Debian package ``chromium``, one browser for
the module: tests/browser_pages.py) driven by Python Playwright loads the page from disk
(file://). Every vector of tests/vectors/draw-v1.json goes through the page's
``window.xlshuffleProtocol`` (``one_entry_per_id`` and ``small_strata``
through ``drawRows``, the draw the page replays for a record); records written by the real
command line go through ``window.xlshuffleVerify`` with their files, and tampered copies must
be shown as not verified. Without Chromium or Playwright the tests skip, unless
XLSHUFFLE_REQUIRE lists ``chromium`` (CI), when they fail.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import importlib.util
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_pages import chromium_browser, opened  # noqa: F401 (the module's browser)
from xlshuffle.cli import main

from support import ROOT, require

PAGE = ROOT / "verifier" / "index.html"
VECTORS: dict[str, Any] = json.loads(
    (ROOT / "tests" / "vectors" / "draw-v1.json").read_text(encoding="utf-8")
)


@pytest.fixture(scope="module")
def page(chromium: Any) -> Iterator[Any]:
    with opened(chromium, PAGE, "() => window.xlshuffleProtocol") as tab:
        yield tab


def js_safe(x: Any) -> Any:
    """Integers as strings (JSON numbers in JavaScript lose digits past 2**53)."""
    if isinstance(x, bool) or x is None:
        return x
    if isinstance(x, int):
        return str(x)
    if isinstance(x, list):
        return [js_safe(v) for v in x]
    if isinstance(x, dict):
        return {k: js_safe(v) for k, v in x.items()}
    return x


def seed_arg(spec: dict[str, Any]) -> dict[str, Any]:
    value = spec["value"]
    return {"type": spec["type"], "value": str(value) if spec["type"] == "int" else value}


def run(page: Any, body: str, **args: Any) -> Any:
    """Run ``body`` (an async function body of ``P``, the protocol, and ``a``, the arguments)."""
    script = f"async (a) => {{ const P = window.xlshuffleProtocol; {body} }}"
    return page.evaluate(script, args)


# ---------------------------------------------------------------- the protocol's vectors


@pytest.mark.parametrize("name", ["index.html", "reveal.html"])
def test_page_is_self_contained(name: str) -> None:
    text = (ROOT / "verifier" / name).read_text(encoding="utf-8")
    for external in (" src=", "<link ", "@import", "url(", "fetch(", "XMLHttpRequest", "import("):
        assert external not in text, external
    assert text.count("<script>") == 1


def test_seed_bytes(page: Any) -> None:
    cases = VECTORS["seed_bytes"]
    got = run(
        page,
        "return a.cases.map((c) => P.toHex(P.seedBytes(c)));",
        cases=[seed_arg(c["seed"]) for c in cases],
    )
    assert got == [c["hex"] for c in cases]


def test_words(page: Any) -> None:
    cases = VECTORS["words"]
    got = run(
        page,
        """const out = [];
        for (const seed of a.seeds) {
          const s = await P.Stream.ofSeed(seed), w = [];
          for (let i = 0; i < 8; i++) w.push((await s.next()).toString(16).padStart(16, "0"));
          out.push(w);
        }
        return out;""",
        seeds=[seed_arg(c["seed"]) for c in cases],
    )
    assert got == [c["first8"] for c in cases]


def test_shuffles_and_deals(page: Any) -> None:
    shuffles, deals = VECTORS["shuffles"], VECTORS["deals"]
    got = run(
        page,
        """const out = [];
        for (const c of a.shuffles) out.push(await P.permutation(c.n, c.seed));
        for (const c of a.deals) {
          out.push(await P.deal([...Array(c.n).keys()], c.k, c.seed));
        }
        return out;""",
        shuffles=[{"seed": seed_arg(c["seed"]), "n": c["n"]} for c in shuffles],
        deals=[{"seed": seed_arg(c["seed"]), "n": c["n"], "k": c["k"]} for c in deals],
    )
    assert got == [c["permutation"] for c in shuffles] + [c["dealt"] for c in deals]


def test_issue_vectors(page: Any) -> None:
    got = run(
        page,
        """return [
          (await P.shuffle([...Array(10).keys()].map((i) => i + 1), 42)).join(" "),
          (await P.shuffle("ABCDEFGHIJ", "2026 raffle")).join(""),
          (await P.deal([...Array(52).keys()], 5, "xlshuffle")).join(" "),
          (await P.permutation(100, "Zo\\u00eb")).join() ===
            (await P.permutation(100, "Zoe\\u0308")).join(),
          (await P.weighted([1, 5, 0, 2, 2], 4, "2026 raffle")).join(" "),
        ];""",
    )
    assert got == ["9 10 4 5 7 6 1 2 8 3", "DJFECGAIHB", "1 41 36 20 5", True, "1 3 4 0"]


def test_randbelow_rejection_and_long_stream(page: Any) -> None:
    rej, long = VECTORS["randbelow_rejection"], VECTORS["long_stream"]
    got = run(
        page,
        """const s = await P.Stream.ofSeed(a.rej.seed), values = [];
        for (let i = 0; i < a.count; i++) {
          values.push((await s.randbelow(BigInt(a.rej.m))).toString());
        }
        const t = await P.Stream.ofSeed(a.long.seed);
        const blob = new Uint8Array(8 * a.long.words);
        const view = new DataView(blob.buffer);
        for (let i = 0; i < a.long.words; i++) view.setBigUint64(8 * i, await t.next(), false);
        return [values, P.toHex(await P.sha256(blob))];""",
        rej={"seed": seed_arg(rej["seed"]), "m": str(rej["m"])},
        count=len(rej["values"]),
        long={"seed": seed_arg(long["seed"]), "words": long["words"]},
    )
    assert got == [[str(v) for v in rej["values"]], long["sha256"]]


def test_grids_and_groups(page: Any) -> None:
    rows, cols, grp = VECTORS["within_rows"], VECTORS["within_columns"], VECTORS["groups"]
    got = run(
        page,
        """return [
          await P.shuffleGrid(a.rows.grid, "within-rows", a.rows.seed),
          await P.shuffleGrid(a.cols.grid, "within-columns", a.cols.seed),
          await P.groups(a.grp.n, a.grp.k, a.grp.seed),
        ];""",
        rows={**rows, "seed": seed_arg(rows["seed"])},
        cols={**cols, "seed": seed_arg(cols["seed"])},
        grp={**grp, "seed": seed_arg(grp["seed"])},
    )
    assert got == [rows["result"], cols["result"], grp["groups"]]


def test_weighted_and_reserves(page: Any) -> None:
    cases, res = VECTORS["weighted"], VECTORS["reserves"]
    got = run(
        page,
        """const out = [];
        for (const c of a.cases) out.push(await P.weighted(c.weights, c.k, c.seed));
        out.push(await P.weighted(a.res.weights, a.res.winners + a.res.reserves, a.res.seed));
        const all = [...Array(a.res.weights.length).keys()];
        out.push(await P.deal(all, a.res.winners + a.res.reserves, a.res.seed));
        return out;""",
        cases=[
            {"seed": seed_arg(c["seed"]), "weights": js_safe(c["weights"]), "k": c["k"]}
            for c in cases
        ],
        res={**res, "seed": seed_arg(res["seed"])},
    )
    placings = [[p + 1, i, "winner" if p < 2 else "reserve", p + 1 if p < 2 else p - 1]
                for p, i in enumerate(got[-2])]  # fmt: skip
    assert got[:-2] == [c["drawn"] for c in cases]
    assert placings == res["placings"]
    assert got[-1] == res["plain"]


def test_exclusions(page: Any) -> None:
    c = VECTORS["exclusions"]
    got = run(
        page,
        """const kept = P.keptIndexes(a.c.ids, a.c.excluded);
        const drawn = await P.deal(kept, a.c.k, a.seed);
        return [kept, await P.exclusionDigest(a.c.excluded), drawn];""",
        c=c,
        seed=seed_arg(c["seed"]),
    )
    assert got == [c["kept"], c["digest"], c["drawn"]]


def test_substreams_and_strata(page: Any) -> None:
    subs, strata, shares = VECTORS["substreams"], VECTORS["strata"], VECTORS["allocation"]
    got = run(
        page,
        """const words = [];
        for (const c of a.subs) {
          const s = await P.stratumStream(c.seed, c.label), w = [];
          for (let i = 0; i < 4; i++) w.push((await s.next()).toString(16).padStart(16, "0"));
          words.push(w);
        }
        const out = [];
        for (const c of a.strata) {
          out.push(await P.strata(c.seed, c.labels, c.mode, c.value, c.weights, c.take_all));
        }
        return [words, out, a.shares.map((c) => P.largestRemainder(c.sizes, c.total))];""",
        subs=[{**c, "seed": seed_arg(c["seed"])} for c in subs],
        strata=[{**c, "seed": seed_arg(c["seed"])} for c in strata],
        shares=shares,
    )
    assert got[0] == [c["first4"] for c in subs]
    # JSON numbers: 42.0 comes back from JavaScript as 42
    assert json.dumps(got[1]) == json.dumps([c["result"] for c in strata]).replace("42.0", "42")
    assert got[2] == [c["shares"] for c in shares]


def test_one_entry_per_id_and_small_strata(page: Any) -> None:
    """Sections 10 and 11, the rules a caller asks for: the draw the page replays for a record
    (drawPlan), over the vectors' rows through ``drawRows``, stratum by stratum."""
    entries, small = VECTORS["one_entry_per_id"], VECTORS["small_strata"]
    got = run(
        page,
        """const out = [];
        for (const c of a.cases) out.push(await P.drawRows(c.seed, c.k, c.options));
        return out;""",
        cases=[
            {
                "seed": seed_arg(c["seed"]),
                "k": c["k"],
                "options": {
                    "ids": c["ids"],
                    "labels": c["strata"],
                    "weights": c["weights"],
                    "excluded": c["excluded"],
                    "reserves": c["reserves"],
                    "perId": True,
                    "takeAll": c["take_all"],
                },
            }
            for c in entries
        ]
        + [
            {
                "seed": seed_arg(c["seed"]),
                "k": c["k"],
                "options": {
                    "labels": c["labels"],
                    "weights": c["weights"],
                    "reserves": c["reserves"],
                    "takeAll": True,
                    "method": c["method"],
                },
            }
            for c in small
        ],
    )
    # a systematic start comes back as a decimal text, as the page gives every BigInt
    want = [c["parts"] for c in entries] + [
        [p | {"start": js_safe(p["start"])} if "start" in p else p for p in c["parts"]]
        for c in small
    ]
    assert len(got) == len(entries) + len(small) == 21
    assert got == want


def test_audit_selections(page: Any) -> None:
    sysm, mus = VECTORS["systematic"], VECTORS["monetary_unit"]
    got = run(
        page,
        """const out = [];
        for (const c of a.sys) {
          const r = await P.systematic(c.n, c.k, c.seed);
          out.push([r.start === null ? null : r.start.toString(), r.items.map(String)]);
        }
        for (const c of a.mus) {
          const r = await P.monetaryUnit(c.amounts, c.k, c.seed);
          const start = r.start === null ? null : r.start.toString();
          out.push([start, r.units.map(String), r.selected, r.top]);
        }
        return out;""",
        sys=[{**c, "seed": seed_arg(c["seed"]), "n": str(c["n"])} for c in sysm],
        mus=[{**c, "seed": seed_arg(c["seed"]), "amounts": js_safe(c["amounts"])} for c in mus],
    )
    want: list[Any] = [js_safe([c["start"], c["items"]]) for c in sysm]
    want += [[*js_safe([c["start"], c["units"]]), c["selected"], c["top"]] for c in mus]
    assert got == want


def test_cell_selections_and_ledgers(page: Any) -> None:
    cells, ledgers = VECTORS["cell"], VECTORS["mus_strata"]
    got = run(
        page,
        """const out = [];
        for (const c of a.cells) {
          const r = await P.cell(c.amounts, c.k, c.seed);
          out.push([r.starts.map(String), r.units.map(String), r.selected, r.certain]);
        }
        for (const c of a.ledgers) {
          const r = await P.musSelect(c.amounts, c.k, c.seed, c.cutoff, c.cells);
          out.push([r.setAside, r.top, r.selected]);
        }
        return out;""",
        cells=[{**c, "seed": seed_arg(c["seed"]), "amounts": js_safe(c["amounts"])} for c in cells],
        ledgers=[{**c, "seed": seed_arg(c["seed"])} for c in ledgers],
    )
    want: list[Any] = [
        [js_safe(c["starts"]), js_safe(c["units"]), c["selected"], c["certain"]] for c in cells
    ]
    want += [[c["set_aside"], c["top"], c["selected"]] for c in ledgers]
    assert got == want


def test_orders(page: Any) -> None:
    person, balanced = VECTORS["person_orders"], VECTORS["balanced_orders"]
    got = run(
        page,
        """const out = [];
        for (const c of a.person) {
          const s = await P.personStream(c.seed, c.id), w = [];
          for (let i = 0; i < 4; i++) w.push((await s.next()).toString(16).padStart(16, "0"));
          out.push([w, await P.personOrder(c.n, c.k, c.seed, c.id)]);
        }
        for (const c of a.balanced) {
          out.push([P.williams(c.n), await P.balancedOrders(c.n, c.people, c.k, c.seed)]);
        }
        return out;""",
        person=[{**c, "seed": seed_arg(c["seed"])} for c in person],
        balanced=[{**c, "seed": seed_arg(c["seed"])} for c in balanced],
    )
    want = [[c["first4"], c["order"]] for c in person]
    want += [[c["design"], c["orders"]] for c in balanced]
    assert got == want


def test_allocation_lists(page: Any) -> None:
    cases = VECTORS["allocation_lists"]
    got = run(
        page,
        """const out = [];
        for (const c of a.cases) {
          out.push(await P.allocationList(c.seed, c.arms, c.ratio, c.n, c.block_sizes, c.strata));
        }
        return out;""",
        cases=[{**c, "seed": seed_arg(c["seed"])} for c in cases],
    )
    assert got == [c["rows"] for c in cases]


def test_balanced_teams(page: Any) -> None:
    plain, avoid = VECTORS["balanced_teams"], VECTORS["balanced_teams_avoid"]
    got = run(
        page,
        """const out = [];
        for (const c of a.plain) out.push(await P.balancedTeams(c.labels, c.k, c.seed));
        for (const c of a.avoid) out.push(await P.balancedTeams(c.labels, c.k, c.seed, c.before));
        return out;""",
        plain=[{**c, "seed": seed_arg(c["seed"])} for c in plain],
        avoid=[{**c, "seed": seed_arg(c["seed"])} for c in avoid],
    )
    assert got == [c["teams"] for c in plain] + [c["teams"] for c in avoid]


def test_commit_then_draw(page: Any) -> None:
    canon, digest = VECTORS["commit_canonical_json"], VECTORS["commit_list_digest"]
    seeds, salted = VECTORS["commit_seed"], VECTORS["commit_entrant_hashes"]
    got = run(
        page,
        """const out = [];
        for (const c of a.canon) out.push([P.canonicalJson(c.value), P.toHex(
          await P.sha256(new TextEncoder().encode(P.canonicalJson(c.value))))]);
        out.push(await P.listDigest(a.digest.rows));
        out.push(await P.commitmentHash(a.seeds.commitment));
        for (const c of a.seeds.cases) {
          const seed = P.commitSeed(a.seeds.sha256, c.reveal);
          out.push([seed, await P.deal([...Array(10).keys()], 3, seed)]);
        }
        out.push(await P.entrantHashes(a.salted.salt, a.salted.rows));
        return out;""",
        canon=canon,
        digest=digest,
        seeds=seeds,
        salted=salted,
    )
    want: list[Any] = [[c["canonical"], c["sha256"]] for c in canon]
    want += [digest["sha256"], seeds["sha256"]]
    want += [[c["seed"], c["deal_3_of_10"]] for c in seeds["cases"]]
    want += [sorted(salted["sha256"])]
    assert got == want


def test_ticket_draws(page: Any) -> None:
    """Section 18: tickets, ticket orders (k, rate, reserves, weights), Rivest's order and
    population digests through the page's own ticket draws."""
    tickets, orders = VECTORS["tickets"], VECTORS["ticket_orders"]
    rivest, digests = VECTORS["rivest_orders"], VECTORS["population_digests"]
    got = run(
        page,
        """const out = [];
        for (const c of a.tickets) out.push(await P.ticket(c.seed, c.id, c.number));
        for (const c of a.orders) {
          const { k, rate, reserves, weights } = c;
          out.push(await P.ticketOrder(c.ids, c.seed, { k, rate, reserves, weights }));
        }
        for (const c of a.rivest) {
          out.push(await P.ticketOrder(c.ids, c.seed, { method: "rivest" }));
        }
        for (const c of a.digests) out.push(await P.populationDigest(c.ids, c.weights));
        return out;""",
        tickets=[{**c, "seed": seed_arg(c["seed"])} for c in tickets],
        orders=[{**c, "seed": seed_arg(c["seed"])} for c in orders],
        rivest=[{**c, "seed": seed_arg(c["seed"])} for c in rivest],
        digests=digests,
    )
    want: list[Any] = [c["ticket"] for c in tickets] + [c["order"] for c in orders]
    want += [c["order"] for c in rivest] + [c["digest"] for c in digests]
    assert got == want


def test_prize_tables(page: Any) -> None:
    """Section 9's prize table: one draw of every winner and reserve, its places given to the
    prizes in the table's order."""
    cases = VECTORS["prizes"]
    got = run(
        page,
        """const out = [];
        for (const c of a.cases) {
          const places = P.prizePlaces(c.prizes);
          const drawn = c.weights
            ? await P.weighted(c.weights, places.length, c.seed)
            : await P.deal([...Array(c.n).keys()], places.length, c.seed);
          out.push(drawn.map((i, p) => [i, ...places[p]]));
        }
        return out;""",
        cases=[{**c, "seed": seed_arg(c["seed"])} for c in cases],
    )
    assert got == [c["drawn"] for c in cases]


# ---------------------------------------------------------------- records of the command line
#
# End to end: the command line writes a record and its files, the page checks them. The quick
# suite (-m "not slow") runs test_records_verify, a record of each draw on a list and a
# workbook; the others are marked slow, as are the round trips in the sections below. The
# checks of the page's own readers against Python's stay quick.


def cli(*args: str | Path, cwd: Path) -> None:
    """Run the command line in ``cwd``: its ``main``, which ``python -m xlshuffle`` runs, called
    in this process (a Python started and xlshuffle imported per record cost more than the
    page's check; the entry point itself is tested in tests/test_cli.py)."""
    with contextlib.chdir(cwd):
        assert main([str(a) for a in args]) == 0


def cli_refused(*args: str | Path, cwd: Path) -> str:
    """What the command line prints on stderr when it refuses (exits non-zero) in ``cwd``."""
    err = io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stderr(err):
        assert main([str(a) for a in args]) != 0
    return err.getvalue()


def verify(page: Any, record: str, *files: Path | tuple[str, bytes]) -> dict[str, Any]:
    """window.xlshuffleVerify with the record's text and File objects of the files."""
    payload = []
    for f in files:
        name, data = (f.name, f.read_bytes()) if isinstance(f, Path) else f
        payload.append({"name": name, "b64": base64.b64encode(data).decode("ascii")})
    result: dict[str, Any] = page.evaluate(
        """async (a) => {
          const files = a.files.map((f) => new File(
            [Uint8Array.from(atob(f.b64), (ch) => ch.charCodeAt(0))], f.name));
          return window.xlshuffleVerify({record: a.record, files});
        }""",
        {"record": record, "files": payload},
    )
    assert page.inner_text("#verdict") == result["message"]
    return result


LIST = "name,tickets,site\nAnn,1,N\nBo,2,S\nCy,3,N\nDee,1,S\nEd,2,N\nFay,1,S\nGus,4,N\n"
DRAWS = (
    "id,name,tickets,site,amount\n1,Ann,1,N,10.50\n2,Bo,2.5,S,200\n3,Cy,3,N,0\n4,Dee,1,S,35.25\n"
    "5,Ed,2,N,99.99\n6,Fay,0,S,12\n7,Gus,4,N,1000\n8,Hal,1,S,7.5\n9,Ida,2,N,3\n10,Jo,5,S,640\n"
)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    (tmp_path / "list.csv").write_text(LIST, encoding="utf-8")
    (tmp_path / "list.tsv").write_text(LIST.replace(",", "\t"), encoding="utf-8")
    (tmp_path / "draws.csv").write_text(DRAWS, encoding="utf-8")
    (tmp_path / "excluded.txt").write_text("2\n7\n", encoding="utf-8")
    (tmp_path / "counts.csv").write_text("N,2\nS,1\n", encoding="utf-8")
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Entrants"
    ws.append(["name", "score", "note", "ok", "site"])
    for i in range(30):
        ws.append([f"P{i}", i * 1.5, "x" if i % 3 else None, i % 2 == 0, "NS"[i % 7 % 2]])
    ws["G1"] = "outside"
    wb.save(tmp_path / "book.xlsx")
    return tmp_path


@pytest.mark.parametrize(
    ("command", "source", "options"),
    [
        ("shuffle", "list.csv", []),
        ("shuffle", "list.tsv", []),
        ("sample", "list.csv", ["-k", "3"]),
        ("groups", "list.csv", ["-k", "3"]),
        ("shuffle", "book.xlsx", []),
        ("shuffle", "book.xlsx", ["--range", "A2:E31"]),
        ("shuffle", "book.xlsx", ["--columns", "A,C"]),
        ("shuffle", "book.xlsx", ["--by", "columns", "--range", "A1:E31"]),
        ("shuffle", "book.xlsx", ["--by", "cells"]),
        ("shuffle", "book.xlsx", ["--by", "within-rows"]),
        ("shuffle", "book.xlsx", ["--by", "within-columns", "--range", "A1:C31"]),
        ("sample", "book.xlsx", ["-k", "5"]),
        ("sample", "book.xlsx", ["-k", "3", "--no-header", "--range", "A2:E31"]),
        ("sample", "book.xlsx", ["-k", "3", "--weights", "score", "--reserves", "2"]),
        ("sample", "book.xlsx", ["-k", "2", "--strata", "site"]),
        ("sample", "book.xlsx", ["-k", "4", "--method", "mus", "--amount", "score"]),
        ("sample", "book.xlsx", ["-k", "4", "--method", "systematic"]),
        ("groups", "book.xlsx", ["-k", "4"]),
        ("groups", "book.xlsx", ["-k", "3", "--balance", "site"]),
        ("groups", "book.xlsx", ["-k", "2", "--balance", "site", "--balance", "ok"]),
    ],
)
def test_records_verify(
    page: Any, work: Path, command: str, source: str, options: list[str]
) -> None:
    out = work / f"out{Path(source).suffix}"
    cli(
        command,
        source,
        *options,
        "--seed",
        "2026 raffle",
        "-o",
        out,
        "--record",
        "r.json",
        cwd=work,
    )
    record = (work / "r.json").read_text(encoding="utf-8")
    result = verify(page, record, work / source, out)
    assert result["verified"], result["message"]
    assert result["message"].startswith("Verified: ")
    # the files in either order, found by their SHA-256
    assert verify(page, record, out, work / source)["verified"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        ["-k", "3", "--weights", "tickets"],
        ["-k", "2", "--weights", "tickets", "--reserves", "2"],
        ["-k", "2", "--reserves", "1"],
        ["-k", "1", "--strata", "site"],
        ["-k", "1", "--strata", "site", "--weights", "tickets", "--reserves", "1"],
        ["--total", "5", "--strata", "site"],
        ["--strata-counts", "counts.csv", "--strata", "site"],
        ["-k", "3", "--method", "systematic"],
        ["-k", "4", "--method", "mus", "--amount", "amount"],
        ["-k", "2", "--method", "mus", "--amount", "amount", "--strata", "site"],
        ["-k", "3", "--id", "id", "--exclude", "excluded.txt"],
    ],
    ids=lambda o: " ".join(o),
)
def test_draw_records_verify(page: Any, work: Path, options: list[str]) -> None:
    cli("sample", "draws.csv", *options, "--seed", "spring fair", "-o", "out.csv",
        "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    result = verify(page, record, work / "draws.csv", work / "out.csv")
    assert result["verified"], result["message"]
    changed = json.loads(record)
    changed["seed"] = "autumn fair"
    result = verify(page, json.dumps(changed), work / "draws.csv", work / "out.csv")
    assert not result["verified"]
    assert result["supported"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        ["-k", "2", "--balance", "site"],
        ["-k", "3", "--balance", "site", "--balance", "tickets"],
        ["--size", "3", "--balance", "site", "--avoid", "before.csv"],
    ],
    ids=lambda o: " ".join(o),
)
def test_balanced_teams_verify(page: Any, work: Path, options: list[str]) -> None:
    cli("groups", "draws.csv", "-k", "3", "--seed", "before", "-o", "before.csv", cwd=work)
    cli("groups", "draws.csv", *options, "--seed", "class 4B", "-o", "out.csv",
        "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    result = verify(page, record, work / "draws.csv", work / "out.csv")
    assert result["verified"], result["message"]
    edited = (work / "out.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    edited[1] = edited[1][:-2] + ("2" if edited[1][-2] != "2" else "1") + "\n"
    result = verify(page, record, work / "draws.csv", ("out.csv", "".join(edited).encode()))
    assert not result["verified"]
    assert "differs at row 2, column 6" in result["message"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "options", [[], ["-k", "2"], ["--balanced"], ["--balanced", "-k", "3"]], ids=" ".join
)
def test_orders_records_verify(page: Any, work: Path, options: list[str]) -> None:
    (work / "items.txt").write_text("Tea\nCoffee\nJuice\nWater\nCocoa\n", encoding="utf-8")
    cli("orders", "items.txt", "--ids", "draws.csv", "--ids-column", "name", *options,
        "--seed", "class 4B", "-o", "orders.csv", "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    files = (work / "items.txt", work / "draws.csv", work / "orders.csv")
    result = verify(page, record, *files)
    assert result["verified"], result["message"]
    text = (work / "orders.csv").read_text(encoding="utf-8")
    swapped = text.replace("Tea,Coffee", "Coffee,Tea", 1).replace("Coffee,Tea", "Tea,Coffee", 1)
    if swapped == text:
        swapped = text.replace("Ann,", "Ann,X", 1)
    result = verify(page, record, *files[:2], ("orders.csv", swapped.encode()))
    assert not result["verified"]
    assert "orders.csv differs at row " in result["message"]


@pytest.mark.slow
def test_orders_of_workbooks_verify(page: Any, work: Path) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    for item in ("item", "Tea", "Coffee", "Juice", "Water"):
        wb.active.append([item])
    wb.save(work / "items.xlsx")
    cli("orders", "items.xlsx", "--ids", "book.xlsx", "--balanced", "--seed", "s", "-o",
        "orders.xlsx", "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    files = (work / "items.xlsx", work / "book.xlsx", work / "orders.xlsx")
    result = verify(page, record, *files)
    assert result["verified"], result["message"]
    result = verify(page, record.replace('"seed": "s"', '"seed": "t"'), *files)
    assert not result["verified"]
    assert "orders.xlsx differs at row 2" in result["message"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("suffix", "options"),
    [
        (".csv", []),
        (".csv", ["--strata", "site=N,S", "--strata", "sex=F,M"]),
        (".csv", ["--codes-only", "codes.csv"]),
        (".xlsx", ["--strata", "site=N,S", "--codes-only", "codes.xlsx"]),
    ],
)
def test_allocation_records_verify(page: Any, work: Path, suffix: str, options: list[str]) -> None:
    cli("allocate", "--arms", "A,B", "--ratio", "2:1", "--n", "7", "--block-sizes", "3,6",
        *options, "--seed", "trial", "-o", f"alloc{suffix}", "--record", "r.json",
        cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    files = [work / f"alloc{suffix}"]
    files += [work / f"codes{suffix}"] if "--codes-only" in options else []
    result = verify(page, record, *files)
    assert result["verified"], result["message"]
    changed = json.loads(record)
    changed["seed"] = "trial 2"
    result = verify(page, json.dumps(changed), *files)
    assert not result["verified"]
    assert f"alloc{suffix} " in result["message"]


@pytest.mark.slow
def test_orders_from_chosen_cells_verify(page: Any, work: Path) -> None:
    """--items-range and --ids-range: exactly those cells, as texts (a date in ISO 8601)."""
    import datetime as dt

    import openpyxl

    wb = openpyxl.Workbook()
    wb.active.title = "Notes"
    menu = wb.create_sheet("Menu")
    menu.append(["items:", "Tea", dt.date(2026, 12, 4), 2.5, "  Juice  ", None])
    wb.save(work / "items.xlsx")
    wb = openpyxl.Workbook()
    for pid in ("id", "P01", 42, "Zoë", 7.5, True):
        wb.active.append([pid])
    wb.save(work / "ids.xlsx")
    cli("orders", "items.xlsx", "--items-range", "Menu!B1:F1", "--ids", "ids.xlsx",
        "--ids-range", "A2:A8", "-k", "3", "--seed", "s", "-o", "orders.csv",
        "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    assert json.loads(record)["items_range"] == "Menu!B1:F1"
    files = (work / "items.xlsx", work / "ids.xlsx", work / "orders.csv")
    result = verify(page, record, *files)
    assert result["verified"], result["message"]
    assert "2026-12-04T00:00:00" in (work / "orders.csv").read_text(encoding="utf-8")
    text = (work / "orders.csv").read_text(encoding="utf-8")
    lines = text.split("\n")
    lines[2] = lines[2].rsplit(",", 1)[0] + ",Cocoa"
    result = verify(page, record, *files[:2], ("orders.csv", "\n".join(lines).encode()))
    assert not result["verified"]
    assert 'orders.csv differs at row 3, column 4: it holds "Cocoa"' in result["message"]
    # the cells' range in the record edited: other items
    changed = json.loads(record)
    changed["items_range"] = "Menu!C1:F1"
    result = verify(page, json.dumps(changed), *files)
    assert not result["verified"]
    assert "the items file holds 3 items, the record says 4" in result["message"]


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_allocation_redcap_tables_verify(page: Any, work: Path, suffix: str) -> None:
    """REDCap's allocation table (always CSV) beside a CSV or workbook list."""
    cli("allocate", "--arms", "Drug,Placebo", "--ratio", "2:1", "--n", "6", "--block-sizes",
        "3,6", "--strata", "site=N,S", "--seed", "trial", "-o", f"alloc{suffix}",
        "--redcap", "redcap.csv", "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    files = (work / f"alloc{suffix}", work / "redcap.csv")
    result = verify(page, record, *files)
    assert result["verified"], result["message"]
    assert "every row of the REDCap table redcap.csv" in result["message"]
    # without it: the list is checked, and the page says the table was not
    result = verify(page, record, files[0])
    assert result["verified"], result["message"]
    assert "was not given, so not checked" in result["message"]
    # one arm's number changed
    lines = (work / "redcap.csv").read_text(encoding="utf-8").split("\n")
    assert lines[0] == "redcap_randomization_group,site"
    first = lines[1].split(",")
    first[0] = "2" if first[0] == "1" else "1"
    lines[1] = ",".join(first)
    result = verify(page, record, files[0], ("redcap.csv", "\n".join(lines).encode()))
    assert not result["verified"]
    assert "redcap.csv differs at row 2, column 1" in result["message"]


@pytest.mark.slow
def test_the_exclusion_list_is_checked_when_given(page: Any, work: Path) -> None:
    cli("sample", "draws.csv", "-k", "2", "--id", "id", "--seed", "spring", "-o", "first.csv",
        "--record", "first.json", cwd=work)  # fmt: skip
    for excluded in ("excluded.txt", "first.json"):  # a list of IDs, or the last draw's record
        cli("sample", "draws.csv", "-k", "3", "--id", "id", "--exclude", excluded, "--seed",
            "summer", "-o", "out.csv", "--record", "r.json", "--overwrite", cwd=work)  # fmt: skip
        record = (work / "r.json").read_text(encoding="utf-8")
        files = (work / "draws.csv", work / "out.csv")
        result = verify(page, record, *files, work / excluded)
        assert result["verified"], result["message"]
        assert "exactly those whose ID the exclusion list holds" in result["message"]
        result = verify(page, record, *files, ("other.txt", b"2\n7\n9\n"))
        assert not result["verified"]
        assert "other.txt is not the exclusion list the draw used" in result["message"]


@pytest.mark.slow
def test_amounts_with_currency_signs_and_grouped_digits(page: Any, tmp_path: Path) -> None:
    rows = ["$1,234.56", "1 234.50 €", "7", "0.10 €", "£12", "3'000", "250.5", "0"]
    text = "id,amount\n" + "".join(f'{i},"{a}"\n' for i, a in enumerate(rows, 1))
    (tmp_path / "money.csv").write_text(text, encoding="utf-8")
    cli("sample", "money.csv", "-k", "3", "--method", "mus", "--amount", "amount", "--seed",
        "audit", "-o", "out.csv", "--record", "r.json", cwd=tmp_path)  # fmt: skip
    record = (tmp_path / "r.json").read_text(encoding="utf-8")
    result = verify(page, record, tmp_path / "money.csv", tmp_path / "out.csv")
    assert result["verified"], result["message"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        ["--method", "cell"],
        ["--method", "cell", "--top-stratum", "interval"],
        ["--method", "mus", "--top-stratum", "2.000,00"],
    ],
    ids=lambda o: " ".join(o),
)
def test_ledgers_with_credits_a_top_stratum_and_decimal_commas(
    page: Any, tmp_path: Path, options: list[str]
) -> None:
    # section 20 in the page: a semicolon ledger with decimal commas, credits and zeros set
    # aside, a top stratum taken whole, cells each with their own start
    rows = ["1.234,56", "-50,00", "0", "25.000,00", "300,10", "(4,00)", "4.500,00", "12,5"]
    text = "id;amount\n" + "".join(f"{i};{a}\n" for i, a in enumerate(rows, 1))
    (tmp_path / "ledger.csv").write_text(text, encoding="utf-8")
    argv = ["sample", "ledger.csv", "-k", "3", "--amount", "amount", *options, "--seed", "audit"]
    cli(*argv, "-o", "out.csv", "--record", "r.json", cwd=tmp_path)
    record = (tmp_path / "r.json").read_text(encoding="utf-8")
    assert json.loads(record)["target"]["draw"]["decimal"] == "comma"
    result = verify(page, record, tmp_path / "ledger.csv", tmp_path / "out.csv")
    assert result["verified"], result["message"]
    edited = json.loads(record)
    edited["target"]["draw"]["parts"][0]["set_aside"] = [1]
    result = verify(page, json.dumps(edited), tmp_path / "ledger.csv", tmp_path / "out.csv")
    assert not result["verified"]
    # committed, then drawn: the page checks the committed request's section 20 options
    commit = ["commit", "ledger.csv", "--beacon", "pulse 1", *argv[2:-2], "-o", "c.json"]
    cli(*commit, cwd=tmp_path)
    cli(
        "draw",
        "c.json",
        "ledger.csv",
        "--reveal",
        "7",
        "-o",
        "d.csv",
        "--record",
        "d.json",
        cwd=tmp_path,
    )
    result = verify(
        page,
        (tmp_path / "d.json").read_text(encoding="utf-8"),
        tmp_path / "ledger.csv",
        tmp_path / "d.csv",
        tmp_path / "c.json",
    )
    assert result["verified"], result["message"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("draw", "options"),
    [
        ("sample", ["-k", "2", "--weights", "tickets", "--reserves", "1"]),
        ("sample", ["--method", "ticket", "--rate", "0.5", "--id", "id", "--reserves", "1"]),
        ("shuffle", []),
        ("groups", ["-k", "3"]),
    ],
)
def test_committed_draws_verify(page: Any, work: Path, draw: str, options: list[str]) -> None:
    cli("commit", "draws.csv", "--draw", draw, *options, "--beacon", "Lotto 2026-12-04",
        "-o", "commitment.json", "--entrant-hashes", "salt.txt", cwd=work)  # fmt: skip
    cli("draw", "commitment.json", "draws.csv", "--reveal", " 4 17  23 ", "--record", "r.json",
        "-o", "out.csv", "--salt", "salt.txt", cwd=work)  # fmt: skip
    record = json.loads((work / "r.json").read_text(encoding="utf-8"))
    published = json.loads((work / "commitment.json").read_text(encoding="utf-8"))["sha256"]
    files = (work / "draws.csv", work / "out.csv")
    result = verify(page, json.dumps(record), *files)
    assert result["verified"], result["message"]
    assert f"the commitment hashes to {published}" in result["message"]
    assert "the committed entrant hashes are the input's rows" in result["message"]
    # another revealed value, with the seed it gives: the seed no longer follows from the chain
    other = {**record, "reveal": ["4 17 24"]}
    result = verify(page, json.dumps(other), *files)
    assert not result["verified"]
    assert "the commitment hash and the revealed values give the seed" in result["message"]
    # the commitment edited after the fact (another beacon): its hash changes
    body = {**record["commitment"]["body"], "beacon": "any other"}
    edited = {**record, "commitment": {**record["commitment"], "body": body}}
    result = verify(page, json.dumps(edited), *files)
    assert not result["verified"]
    assert "the commitment in the record hashes to" in result["message"]


@pytest.mark.slow
def test_an_entrant_checks_their_own_entry(page: Any, work: Path) -> None:
    cli("commit", "draws.csv", "--draw", "sample", "-k", "2", "--beacon", "Lotto", "-o",
        "commitment.json", "--entrant-hashes", "salt.txt", cwd=work)  # fmt: skip
    cli("draw", "commitment.json", "draws.csv", "--reveal", "4 17", "--record", "r.json",
        "-o", "out.csv", "--salt", "salt.txt", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    check = "(a) => window.xlshuffleCheckEntry(a)"
    found = page.evaluate(check, {"record": record, "row": "2,Bo,2.5,S,200"})
    assert found["found"], found["message"]
    assert page.inner_text("#entry-verdict") == found["message"]
    assert page.evaluate(check, {"record": record, "row": ["4", "Dee", "1", "S", "35.25"]})["found"]
    missing = page.evaluate(check, {"record": record, "row": "2,Bo,2.5,S,201"})
    assert not missing["found"]
    assert missing["message"].startswith("NOT found")
    # through the page's own field and button
    page.fill("#record", record)
    page.fill("#entry", "7,Gus,4,N,1000")
    page.click("#check-entry")
    page.wait_for_function("() => document.getElementById('entry-verdict').className === 'ok'")


@pytest.mark.slow
def test_an_edited_ticket_count_is_not_verified(page: Any, work: Path) -> None:
    cli("sample", "draws.csv", "-k", "3", "--weights", "tickets", "--seed", "42", "-o", "out.csv",
        "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    more = DRAWS.replace("3,Cy,3,N", "3,Cy,300,N").encode()
    result = verify(page, record, ("draws.csv", more), work / "out.csv")
    assert not result["verified"]


PINNED = "every file the draw read beside the list is the committed one (pinned by SHA-256: {})"


def committed(work: Path, *options: str) -> dict[str, Any]:
    """The record of a committed sample of draws.csv (``options``) drawn with the CLI."""
    for name in ("c.json", "r.json", "out.csv"):
        (work / name).unlink(missing_ok=True)
    cli("commit", "draws.csv", "--draw", "sample", *options, "--beacon", "Lotto 2026-12-04",
        "-o", "c.json", cwd=work)  # fmt: skip
    cli("draw", "c.json", "draws.csv", "--reveal", "4 17", "--record", "r.json", "-o", "out.csv",
        cwd=work)  # fmt: skip
    record: dict[str, Any] = json.loads((work / "r.json").read_text(encoding="utf-8"))
    return record


def spliced(work: Path, honest: dict[str, Any], *options: str) -> str:
    """A plain draw of draws.csv (``options``) with the honest record's seed, passed off as
    the committed draw: the honest record's commitment and revealed values spliced in."""
    cli("sample", "draws.csv", *options, "--seed", honest["seed"], "-o", "forged.csv",
        "--record", "forged.json", "--overwrite", cwd=work)  # fmt: skip
    forged = json.loads((work / "forged.json").read_text(encoding="utf-8"))
    forged |= {"commitment": honest["commitment"], "reveal": honest["reveal"]}
    return json.dumps(forged)


@pytest.mark.slow
def test_a_committed_draw_with_an_exclusion_list_verifies(page: Any, work: Path) -> None:
    (work / "april.txt").write_text("2\n", encoding="utf-8")
    record = committed(work, "-k", "2", "--id", "id", "--exclude", "april.txt")
    assert record["commitment"]["body"]["commitment_version"] == 2
    result = verify(page, json.dumps(record), work / "draws.csv", work / "out.csv")
    assert result["verified"], result["message"]
    assert PINNED.format("april.txt") in result["message"]
    assert "the draw is the committed one" in result["message"]


@pytest.mark.slow
def test_a_record_of_another_exclusion_list_is_not_the_committed_draw(
    page: Any, work: Path
) -> None:
    """After the reveal the organiser draws again, with the same seed and an exclusion list
    that leaves out who would have won, and splices in the commitment: refused."""
    (work / "april.txt").write_text("2\n", encoding="utf-8")
    honest = committed(work, "-k", "2", "--id", "id", "--exclude", "april.txt")
    (work / "rigged.txt").write_text("2\n3\n4\n", encoding="utf-8")
    forged = spliced(work, honest, "-k", "2", "--id", "id", "--exclude", "rigged.txt")
    result = verify(page, forged, work / "draws.csv", work / "forged.csv")
    assert not result["verified"]
    assert result["supported"]
    assert "the commitment pinned --exclude april.txt holding 1 ID (digest " in result["message"]
    assert "the record's draw excluded 3 IDs (digest " in result["message"]
    assert result["message"].endswith("not the committed draw")
    # the exclusion list edited in place (same name) and drawn again: refused the same way
    (work / "april.txt").write_text("2\n5\n", encoding="utf-8")
    forged = spliced(work, honest, "-k", "2", "--id", "id", "--exclude", "april.txt")
    result = verify(page, forged, work / "draws.csv", work / "forged.csv")
    assert not result["verified"]
    assert "the record's draw excluded 2 IDs" in result["message"]
    # the committed exclusion list, but another -k: not the committed request
    (work / "april.txt").write_text("2\n", encoding="utf-8")
    forged = spliced(work, honest, "-k", "3", "--id", "id", "--exclude", "april.txt")
    result = verify(page, forged, work / "draws.csv", work / "forged.csv")
    assert not result["verified"]
    assert "the commitment draws -k 2, the record 3" in result["message"]


@pytest.mark.slow
def test_strata_counts_are_pinned_by_the_commitment(page: Any, work: Path) -> None:
    honest = committed(work, "--strata", "site", "--strata-counts", "counts.csv")
    assert honest["commitment"]["body"]["inputs"][0]["holds"] == {"counts": [["N", 2], ["S", 1]]}
    result = verify(page, json.dumps(honest), work / "draws.csv", work / "out.csv")
    assert result["verified"], result["message"]
    assert PINNED.format("counts.csv") in result["message"]
    # the counts edited after the reveal, drawn again with the same seed
    (work / "counts.csv").write_text("N,1\nS,2\n", encoding="utf-8")
    forged = spliced(work, honest, "--strata", "site", "--strata-counts", "counts.csv")
    result = verify(page, forged, work / "draws.csv", work / "forged.csv")
    assert not result["verified"]
    assert result["supported"]
    assert (
        "the commitment pinned --strata-counts counts.csv holding the counts N 2, S 1, the "
        "record's draw took the counts N 1, S 2: not the committed draw"
    ) in result["message"]


@pytest.mark.slow
def test_a_committed_balanced_split_pins_the_earlier_split_it_avoids(page: Any, work: Path) -> None:
    cli("groups", "draws.csv", "-k", "2", "--balance", "site", "--seed", "march", "-o",
        "march.csv", "--record", "march.json", cwd=work)  # fmt: skip
    cli("commit", "draws.csv", "--draw", "groups", "-k", "2", "--balance", "site", "--avoid",
        "march.json", "--beacon", "Lotto", "-o", "c.json", cwd=work)  # fmt: skip
    cli("draw", "c.json", "draws.csv", "--reveal", "4 17", "--record", "r.json", "-o", "out.csv",
        cwd=work)  # fmt: skip
    honest = json.loads((work / "r.json").read_text(encoding="utf-8"))
    result = verify(page, json.dumps(honest), work / "draws.csv", work / "out.csv")
    assert result["verified"], result["message"]
    assert PINNED.format("march.json") in result["message"]
    # another earlier split avoided, with the same seed: refused
    cli("groups", "draws.csv", "-k", "2", "--balance", "site", "--seed", "april", "-o",
        "april.csv", "--record", "april.json", cwd=work)  # fmt: skip
    cli("groups", "draws.csv", "-k", "2", "--balance", "site", "--avoid", "april.json", "--seed",
        honest["seed"], "-o", "forged.csv", "--record", "forged.json", cwd=work)  # fmt: skip
    forged = json.loads((work / "forged.json").read_text(encoding="utf-8"))
    forged |= {"commitment": honest["commitment"], "reveal": honest["reveal"]}
    result = verify(page, json.dumps(forged), work / "draws.csv", work / "forged.csv")
    assert not result["verified"]
    assert "the commitment pinned --avoid march.json holding an earlier split" in result["message"]


@pytest.mark.slow
def test_a_committed_draw_of_version_1_verifies(page: Any, work: Path) -> None:
    """A commitment of version 1 (the draw as options' texts, no file pinned) still verifies,
    and its options are still held against the record."""
    from xlshuffle.draw.commit import canonical_json

    (work / "april.txt").write_text("2\n", encoding="utf-8")
    v2 = committed(work, "-k", "2", "--id", "id", "--exclude", "april.txt")["commitment"]["body"]
    body = {k: v for k, v in v2.items() if k != "inputs"}
    body |= {
        "commitment_version": 1,
        "draw": {
            "command": "sample",
            "options": ["-k", "2", "--id", "id", "--exclude", "april.txt"],
        },
    }
    digest = hashlib.sha256(canonical_json(body)).hexdigest()
    (work / "old.json").write_text(json.dumps({"commitment": body, "sha256": digest}), "utf-8")
    cli("draw", "old.json", "draws.csv", "--reveal", "4 17", "--record", "old-r.json", "-o",
        "old.csv", cwd=work)  # fmt: skip
    record = json.loads((work / "old-r.json").read_text(encoding="utf-8"))
    assert record["commitment"]["body"]["commitment_version"] == 1
    result = verify(page, json.dumps(record), work / "draws.csv", work / "old.csv")
    assert result["verified"], result["message"]
    assert "the draw is the committed one" in result["message"]
    assert "pinned by SHA-256" not in result["message"]
    forged = spliced(work, record, "-k", "3", "--id", "id", "--exclude", "april.txt")
    result = verify(page, forged, work / "draws.csv", work / "forged.csv")
    assert not result["verified"]
    assert "the commitment draws -k 2, the record 3" in result["message"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "options"),
    [("shuffle", []), ("sample", ["-k", "4"]), ("groups", ["-k", "3"])],
)
def test_kept_blank_rows_verify(page: Any, work: Path, command: str, options: list[str]) -> None:
    import openpyxl

    wb = openpyxl.load_workbook(work / "book.xlsx")
    wb.active.delete_rows(5, 2)
    wb.active.insert_rows(5, 2)
    wb.active.delete_rows(12)
    wb.active.insert_rows(12)
    wb.save(work / "gap.xlsx")
    cli(command, "gap.xlsx", *options, "--keep-blank-rows", "--seed", "42", "-o", "out.xlsx",
        "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    assert json.loads(record)["target"]["kept"] == ["5-6", "12"]
    result = verify(page, record, work / "gap.xlsx", work / "out.xlsx")
    assert result["verified"], result["message"]


def gap_book(work: Path) -> None:
    """book.xlsx with blank data rows 5-6 and 12 (kept in place by --keep-blank-rows)."""
    import openpyxl

    wb = openpyxl.load_workbook(work / "book.xlsx")
    wb.active.delete_rows(5, 2)
    wb.active.insert_rows(5, 2)
    wb.active.delete_rows(12)
    wb.active.insert_rows(12)
    wb.save(work / "gap.xlsx")


def other_seed(record: str) -> str:
    data = json.loads(record)
    return json.dumps({**data, "seed": data["seed"] + "x"})


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        ["-k", "3", "--balance", "site"],
        ["-k", "2", "--balance", "site", "--balance", "ok"],
        ["--size", "4", "--balance", "site", "--avoid", "before.json"],
    ],
    ids=" ".join,
)
def test_kept_blank_rows_with_balanced_teams_verify(
    page: Any, work: Path, options: list[str]
) -> None:
    import openpyxl

    gap_book(work)
    cli("groups", "gap.xlsx", "-k", "3", "--keep-blank-rows", "--seed", "before", "-o",
        "before.xlsx", "--record", "before.json", cwd=work)  # fmt: skip
    cli("groups", "gap.xlsx", *options, "--keep-blank-rows", "--seed", "42", "-o", "out.xlsx",
        "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    assert json.loads(record)["target"]["kept"] == ["5-6", "12"]
    result = verify(page, record, work / "gap.xlsx", work / "out.xlsx")
    assert result["verified"], result["message"]
    assert "balanced by site" in result["message"]
    result = verify(page, other_seed(record), work / "gap.xlsx", work / "out.xlsx")
    assert not result["verified"]
    assert "does not give the record's order" in result["message"]
    wb = openpyxl.load_workbook(work / "out.xlsx")
    ws = wb["Entrants"]
    ws["F7"] = 3 if ws["F7"].value != 3 else 1  # a team number
    wb.save(work / "edited.xlsx")
    result = verify(
        page, record, work / "gap.xlsx", ("out.xlsx", (work / "edited.xlsx").read_bytes())
    )
    assert not result["verified"]
    assert "differs at Entrants!F7" in result["message"]
    wb = openpyxl.load_workbook(work / "out.xlsx")
    wb["Entrants"]["F5"] = 1  # a row kept in place gets no team
    wb.save(work / "edited.xlsx")
    result = verify(
        page, record, work / "gap.xlsx", ("out.xlsx", (work / "edited.xlsx").read_bytes())
    )
    assert not result["verified"]
    assert "differs at Entrants!F5: it holds 1, the draw gives (empty)" in result["message"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        ["-k", "3", "--weights", "score", "--reserves", "2"],
        ["-k", "2", "--strata", "site"],
        ["--total", "5", "--strata", "site"],
        ["-k", "4", "--method", "mus", "--amount", "score"],
        ["-k", "4", "--method", "systematic"],
        ["-k", "3", "--id", "name", "--exclude", "excluded.txt"],
    ],
    ids=" ".join,
)
def test_kept_blank_rows_with_draws_verify(page: Any, work: Path, options: list[str]) -> None:
    import openpyxl

    gap_book(work)
    (work / "excluded.txt").write_text("P2\nP9\nP20\n", encoding="utf-8")
    cli("sample", "gap.xlsx", *options, "--keep-blank-rows", "--seed", "42", "-o", "out.xlsx",
        "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    data = json.loads(record)
    assert data["target"]["kept"] == ["5-6", "12"] and data["target"]["draw"]
    files = [work / "gap.xlsx", work / "out.xlsx"]
    if "--exclude" in options:
        files.append(work / "excluded.txt")
    result = verify(page, record, *files)
    assert result["verified"], result["message"]
    result = verify(page, other_seed(record), *files)
    assert not result["verified"]
    wb = openpyxl.load_workbook(work / "out.xlsx")
    ws = wb[wb.sheetnames[-1]]
    ws["A2"] = "someone else"
    wb.save(work / "edited.xlsx")
    result = verify(
        page,
        record,
        work / "gap.xlsx",
        ("out.xlsx", (work / "edited.xlsx").read_bytes()),
        *files[2:],
    )
    assert not result["verified"]
    assert 'A2: it holds "someone else"' in result["message"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "text"),
    [
        (
            "crlf.csv",
            '\ufeffname,note\r\n"Ann, A.","said ""hi"""\r\nBo,"two\r\nlines"\r\nCy,\r\nDi,x\r\n',
        ),
        ("semi.csv", "name;n\nZoë;1,5\n名前;2\n🎲;3\nEd;4"),
        ("tabs.tsv", "a\tb\n1\t\n2\tx\n3\ty\n"),
    ],
)
def test_lists_with_quotes_line_breaks_and_other_delimiters(
    page: Any, tmp_path: Path, name: str, text: str
) -> None:
    (tmp_path / name).write_bytes(text.encode("utf-8"))
    for command, options in (("shuffle", []), ("sample", ["-k", "2"]), ("groups", ["-k", "2"])):
        out = tmp_path / f"out-{command}{Path(name).suffix}"
        cli(command, name, *options, "--seed", "q", "-o", out, "--record", f"{command}.json",
            cwd=tmp_path)  # fmt: skip
        record = (tmp_path / f"{command}.json").read_text(encoding="utf-8")
        result = verify(page, record, tmp_path / name, out)
        assert result["verified"], result["message"]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["book.xlsx", "list.csv"])
def test_an_in_place_draw_verifies_with_its_backup(page: Any, work: Path, name: str) -> None:
    cli("shuffle", name, "--in-place", "--record", "r.json", cwd=work)  # a fresh seed
    record = (work / "r.json").read_text(encoding="utf-8")
    backup = work / name.replace(".", ".bak.")
    assert backup.exists()
    result = verify(page, record, work / name, backup)
    assert result["verified"], result["message"]
    seed = json.loads(record)["seed"]
    assert f'with seed "{seed}"' in result["message"]


@pytest.mark.slow
def test_winners_printed_to_the_screen_verify(page: Any, work: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    winners = subprocess.run(
        [sys.executable, "-m", "xlshuffle", "sample", "draws.csv", "-k", "3", "--weights",
         "tickets", "--seed", "42", "--record", "r.json"],
        cwd=work, env=env, check=True, capture_output=True,
    ).stdout  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    assert json.loads(record)["output"] is None
    result = verify(page, record, work / "draws.csv", ("winners.csv", winners))
    assert result["verified"], result["message"]
    assert "the output holds exactly the drawn rows" in result["message"]
    other = winners.replace(b"Gus", b"Guy")
    assert other != winners
    result = verify(page, record, work / "draws.csv", ("winners.csv", other))
    assert not result["verified"]


def restore_record(work: Path, record: str, shuffled: str, restored: str) -> str:
    """The record of a restore (the command line writes none: the Python API returns it)."""
    from xlshuffle import workbook
    from xlshuffle.lists import restore_csv

    data = json.loads((work / record).read_text(encoding="utf-8"))
    if shuffled.endswith(".xlsx"):
        got = workbook.restore_workbook(work / record, work / shuffled, work / restored)
        return json.dumps(got.to_dict())
    return json.dumps(restore_csv(data, work / shuffled, work / restored))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("source", "options"),
    [
        ("list.csv", []),
        ("book.xlsx", []),
        ("book.xlsx", ["--columns", "A,C"]),
        ("book.xlsx", ["--by", "columns", "--range", "A1:E31"]),
        ("book.xlsx", ["--by", "cells"]),
        ("book.xlsx", ["--by", "within-rows"]),
        ("book.xlsx", ["--by", "within-columns", "--range", "A1:C31"]),
        ("gap.xlsx", ["--keep-blank-rows"]),
    ],
    ids=lambda o: " ".join(o) if isinstance(o, list) else o,
)
def test_restore_records_verify(page: Any, work: Path, source: str, options: list[str]) -> None:
    import openpyxl

    gap_book(work)
    suffix = Path(source).suffix
    cli("shuffle", source, *options, "--seed", "42", "-o", f"out{suffix}", "--record", "r.json",
        cwd=work)  # fmt: skip
    record = restore_record(work, "r.json", f"out{suffix}", f"back{suffix}")
    assert json.loads(record)["command"] == "restore"
    shuffled, restored = work / f"out{suffix}", work / f"back{suffix}"
    result = verify(page, record, shuffled, restored)
    assert result["verified"], result["message"]
    assert "restore of the shuffled" in result["message"]
    # with the original too: the restored file holds exactly its cells
    result = verify(page, record, shuffled, restored, work / source)
    assert result["verified"], result["message"]
    assert f"the original {source}" in result["message"]
    result = verify(page, other_seed(record), shuffled, restored)
    assert not result["verified"]
    assert "does not give the record's order" in result["message"]
    if suffix == ".csv":
        lines = LIST.splitlines(keepends=True)
        lines[3] = lines[3].replace("Cy", "Cyd")
        edited = "".join(lines).encode()
        result = verify(page, record, shuffled, (restored.name, edited))
        assert not result["verified"]
        assert "differs at row 4, column 1" in result["message"]
        result = verify(page, record, shuffled, restored, (source, edited))
        assert not result["verified"]
        assert f"differs from the original {source} at row 4, column 1" in result["message"]
        return
    wb = openpyxl.load_workbook(restored)
    wb["Entrants"]["A9"] = "someone else"
    wb.save(work / "edited.xlsx")
    result = verify(page, record, shuffled, (restored.name, (work / "edited.xlsx").read_bytes()))
    assert not result["verified"]
    assert 'differs at Entrants!A9: it holds "someone else"' in result["message"]
    wb = openpyxl.load_workbook(work / source)
    wb["Entrants"]["B9"] = 99.5
    wb.save(work / "edited.xlsx")
    original = (source, (work / "edited.xlsx").read_bytes())
    result = verify(page, record, shuffled, restored, original)
    assert not result["verified"]
    assert f"the original {source} holds 99.5" in result["message"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("source", "options"),
    [
        ("list.csv", []),
        ("list.tsv", []),
        ("book.xlsx", []),
        ("book.xlsx", ["--by", "cells"]),
        ("gap.xlsx", ["--keep-blank-rows"]),
    ],
    ids=lambda o: " ".join(o) if isinstance(o, list) else o,
)
def test_a_restored_file_is_checked_with_the_shuffle_s_record(
    page: Any, work: Path, source: str, options: list[str]
) -> None:
    import openpyxl

    gap_book(work)
    suffix = Path(source).suffix
    cli("shuffle", source, *options, "--seed", "42", "-o", f"out{suffix}", "--record", "r.json",
        cwd=work)  # fmt: skip
    cli("restore", "r.json", f"out{suffix}", "-o", f"back{suffix}", cwd=work)
    record = (work / "r.json").read_text(encoding="utf-8")
    files = (work / source, work / f"out{suffix}")
    result = verify(page, record, *files, work / f"back{suffix}")
    assert result["verified"], result["message"]
    assert f"back{suffix}" in result["message"] and "restored" in result["message"]
    result = verify(page, record, *files, work / "r.json")  # a file of another kind: not one
    assert result["verified"], result["message"]
    assert "restored" not in result["message"]
    if suffix != ".xlsx":
        edited = (work / source).read_text(encoding="utf-8").replace("Gus", "Guy").encode()
        result = verify(page, record, *files, (f"back{suffix}", edited))
        assert not result["verified"]
        want = f"the restored back{suffix} differs from the original {source} at row 8, column 1"
        assert want in result["message"]
        assert '"Guy"' in result["message"]
        return
    wb = openpyxl.load_workbook(work / f"back{suffix}")
    wb["Entrants"]["C9"] = "edited"
    wb.save(work / "edited.xlsx")
    result = verify(page, record, *files, ("back.xlsx", (work / "edited.xlsx").read_bytes()))
    assert not result["verified"]
    assert 'the restored back.xlsx differs at Entrants!C9: it holds "edited"' in result["message"]


@pytest.mark.slow
def test_one_record_of_several_inputs(page: Any, work: Path) -> None:
    cli("shuffle", "list.csv", "list.tsv", "draws.csv", "--seed", "5", "--suffix", ".out",
        "--record", "r.json", cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    assert len(json.loads(record)) == 3
    files = [work / n for n in ("list.csv", "list.tsv", "draws.csv")]
    files += [work / n for n in ("list.out.csv", "list.out.tsv", "draws.out.csv")]
    result = verify(page, record, *files)
    assert result["verified"], result["message"]
    assert result["message"].count("Verified: ") == 3
    result = verify(page, record, *files[:-1], ("draws.out.csv", LIST.encode()))
    assert not result["verified"]
    assert "draws.out.csv differs at row 1, column 1" in result["message"]


@pytest.mark.slow
def test_the_page_s_own_buttons(page: Any, work: Path) -> None:
    cli("sample", "list.csv", "-k", "2", "--seed", "42", "-o", "out.csv", "--record", "r.json",
        cwd=work)  # fmt: skip
    page.set_input_files("#record-file", str(work / "r.json"))
    page.wait_for_function("() => document.getElementById('record').value.includes('sample')")
    page.set_input_files("#files", [str(work / "list.csv"), str(work / "out.csv")])
    page.click("#verify")
    page.wait_for_function("() => document.getElementById('verdict').className === 'ok'")
    assert page.inner_text("#verdict").startswith("Verified: draw of 2 of list.csv")
    assert "winner 1" in page.inner_text("#details")
    page.fill("#record", page.input_value("#record").replace('"seed": "42"', '"seed": "43"'))
    page.click("#verify")
    page.wait_for_function("() => document.getElementById('verdict').className === 'bad'")
    assert page.inner_text("#verdict").startswith("NOT verified: ")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "options"),
    [("shuffle", []), ("shuffle", ["--range", "B1:D301"]), ("sample", ["-k", "5"])],
)
def test_an_excel_style_workbook_verifies(
    page: Any, tmp_path: Path, command: str, options: list[str]
) -> None:
    """Shared strings, dates and formulas with cached values, as Excel writes them."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_batch import make_workbook

    make_workbook(str(tmp_path / "excel.xlsx"), 300)
    cli(command, "excel.xlsx", *options, "--seed", "x", "-o", "out.xlsx", "--record", "r.json",
        cwd=tmp_path)  # fmt: skip
    record = (tmp_path / "r.json").read_text(encoding="utf-8")
    result = verify(page, record, tmp_path / "excel.xlsx", tmp_path / "out.xlsx")
    assert result["verified"], result["message"]


FIXTURES = sorted(
    [
        *(ROOT / "tests" / "fixtures" / "engine").glob("*.xls[xm]"),
        *(ROOT / "tests" / "fixtures").glob("*.xls[xm]"),
    ]
)


@pytest.mark.slow
def test_every_workbook_fixture_the_command_line_draws_verifies(page: Any, tmp_path: Path) -> None:
    """The engine's fixtures (shared and inline strings, shared and array formulas, CDATA,
    a document type, prefixed elements, Strict Open XML, tables, merges...): every draw the
    command line makes of them verifies in the page."""
    checked = 0
    for fixture in FIXTURES:
        for command, options in (("shuffle", []), ("sample", ["-k", "2"]), ("groups", ["-k", "2"])):
            out = tmp_path / f"{fixture.stem}.{command}{fixture.suffix}"
            rec = tmp_path / f"{fixture.stem}.{command}.json"
            argv = [command, str(fixture), *options, "--seed", "s", "-o", str(out)]
            try:
                if main([*argv, "--record", str(rec)]) != 0:
                    continue
            except SystemExit:
                continue  # refused (not a workbook, encrypted...): nothing to verify
            record = rec.read_text(encoding="utf-8")
            result = verify(page, record, fixture, out)
            assert result["verified"], (fixture.name, command, result["message"])
            checked += 1
    assert checked > 100


V1 = ROOT / "tests" / "fixtures" / "records_v1"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.stem for p in V1.glob("*.json")))
def test_version_1_records_verify(page: Any, name: str) -> None:
    """Records xlshuffle 0.1 wrote (tests/fixtures/records_v1) still verify in the page."""
    record = json.loads((V1 / f"{name}.json").read_text(encoding="utf-8"))
    output = V1 / (record["output"] or "winners.csv")
    result = verify(page, json.dumps(record), V1 / record["input"], output)
    assert result["verified"], result["message"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "options", [[], ["--cards", "7", "--hands", "4"], ["--jokers", "2", "--decks", "2"]]
)
def test_deal_records_verify(page: Any, tmp_path: Path, options: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    argv = [sys.executable, "-m", "xlshuffle", "deal", *options, "--seed", "poker", "--json"]
    record = subprocess.run(argv, env=env, check=True, capture_output=True, text=True).stdout
    result = verify(page, record)
    assert result["verified"], result["message"]
    result = verify(page, record.replace('"poker"', '"bridge"'))
    assert not result["verified"]
    assert result["supported"]
    # a deal of the numbers 1..N records N: checked too, and a changed hand is caught
    argv = [sys.executable, "-m", "xlshuffle", "deal", "--deck", "20", "--seed", "x", "--json"]
    numbers = subprocess.run(argv, env=env, check=True, capture_output=True).stdout.decode()
    assert verify(page, numbers)["verified"]
    data = json.loads(numbers)
    data["hands"][0][0] = 21 - data["hands"][0][0]
    result = verify(page, json.dumps(data))
    assert not result["verified"] and result["supported"]
    # a record written before it held N cannot be checked, and says so
    del data["deck"]
    assert not verify(page, json.dumps(data))["supported"]


@pytest.mark.slow
def test_a_changed_seed_is_not_verified(page: Any, work: Path) -> None:
    cli("shuffle", "list.csv", "--seed", "42", "-o", "out.csv", "--record", "r.json", cwd=work)
    record = json.loads((work / "r.json").read_text(encoding="utf-8"))
    record["seed"] = "43"
    result = verify(page, json.dumps(record), work / "list.csv", work / "out.csv")
    assert not result["verified"]
    assert result["supported"]
    assert 'the seed "43" does not give the record' in result["message"]


@pytest.mark.slow
def test_a_changed_permutation_and_seed_together_are_caught_by_the_output(
    page: Any, work: Path
) -> None:
    cli("shuffle", "list.csv", "--seed", "42", "-o", "out.csv", "--record", "r.json", cwd=work)
    record = json.loads((work / "r.json").read_text(encoding="utf-8"))
    cli("shuffle", "list.csv", "--seed", "43", "-o", "other.csv", "--record", "r2.json", cwd=work)
    record["seed"] = "43"
    record["permutation"] = json.loads((work / "r2.json").read_text(encoding="utf-8"))[
        "permutation"
    ]
    result = verify(page, json.dumps(record), work / "list.csv", work / "out.csv")
    assert not result["verified"]
    assert "the output out.csv differs at row 2" in result["message"]


@pytest.mark.slow
def test_a_one_cell_edit_of_a_list_output_is_not_verified(page: Any, work: Path) -> None:
    cli(
        "sample",
        "list.csv",
        "-k",
        "3",
        "--seed",
        "42",
        "-o",
        "out.csv",
        "--record",
        "r.json",
        cwd=work,
    )
    lines = (work / "out.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    edited = lines[2].split(",")
    edited[1] = "9"
    lines[2] = ",".join(edited)
    result = verify(
        page,
        (work / "r.json").read_text(encoding="utf-8"),
        work / "list.csv",
        ("out.csv", "".join(lines).encode()),
    )
    assert not result["verified"]
    assert "the output out.csv differs at row 3, column 2" in result["message"]
    assert '"9"' in result["message"]


@pytest.mark.slow
def test_a_one_cell_edit_of_a_workbook_output_is_not_verified(page: Any, work: Path) -> None:
    import openpyxl

    cli("shuffle", "book.xlsx", "--seed", "42", "-o", "out.xlsx", "--record", "r.json", cwd=work)
    record = (work / "r.json").read_text(encoding="utf-8")
    wb = openpyxl.load_workbook(work / "out.xlsx")
    wb["Entrants"]["B17"] = 1234.5
    wb.save(work / "edited.xlsx")
    result = verify(
        page, record, work / "book.xlsx", ("out.xlsx", (work / "edited.xlsx").read_bytes())
    )
    assert not result["verified"]
    assert "differs at Entrants!B17: it holds 1234.5" in result["message"]
    # saved again without a change: the values still verify, the page says the bytes differ
    wb = openpyxl.load_workbook(work / "out.xlsx")
    wb.properties.creator = "someone else"  # else openpyxl may write the very same bytes
    wb.save(work / "resaved.xlsx")
    result = verify(
        page, record, work / "book.xlsx", ("out.xlsx", (work / "resaved.xlsx").read_bytes())
    )
    assert result["verified"], result["message"]
    assert "saved again" in result["message"]


@pytest.mark.slow
def test_a_swapped_input_is_not_verified(page: Any, work: Path) -> None:
    cli("shuffle", "list.csv", "--seed", "42", "-o", "out.csv", "--record", "r.json", cwd=work)
    record = (work / "r.json").read_text(encoding="utf-8")
    other = LIST.replace("Cy,3,N", "Cyd,3,N").encode()
    result = verify(page, record, ("list.csv", other), work / "out.csv")
    assert not result["verified"]
    assert "the input list.csv is not the file the draw read" in result["message"]
    # a workbook: the input of another draw given in its place
    cli("shuffle", "book.xlsx", "--seed", "42", "-o", "out.xlsx", "--record", "w.json", cwd=work)
    record = (work / "w.json").read_text(encoding="utf-8")
    result = verify(
        page, record, ("book.xlsx", (work / "out.xlsx").read_bytes()), work / "out.xlsx"
    )
    assert not result["verified"]
    assert "the input book.xlsx is not the workbook the draw read" in result["message"]


@pytest.mark.slow
def test_unknown_kinds_are_not_passed(page: Any, work: Path) -> None:
    cli("shuffle", "list.csv", "--seed", "42", "-o", "out.csv", "--record", "r.json", cwd=work)
    record = json.loads((work / "r.json").read_text(encoding="utf-8"))
    for change in ({"command": "deal"}, {"record_version": 3}, {"protocol": "xlshuffle/draw/v2"}):
        result = verify(page, json.dumps({**record, **change}), work / "list.csv", work / "out.csv")
        assert not result["verified"]
        assert not result["supported"]
        assert result["message"].startswith("Cannot check this record: ")
    for text in ('{"protocol": "xlshuffle/draw/v2"}', "hello", ""):
        result = verify(page, text)
        assert not result["verified"]
        assert result["message"].startswith("Cannot check this record: ")


def test_sheet_scanner_reads_what_the_dom_reads(page: Any, tmp_path: Path) -> None:
    """The page scans large sheets' XML itself; DOMParser must read the same values."""
    import openpyxl

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_batch import make_workbook

    make_workbook(str(tmp_path / "excel.xlsx"), 300)  # shared strings, dates, formulas
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["A & B <c>", "'quoted'", '"double"', "tab\there", "Zoë 名前 🎲", None, True, False])
    ws.append([1e-05, 2.5e20, -7, 0.1, 3.0, '=A1&"<&>"', "", "  spaces  "])
    wb.save(tmp_path / "odd.xlsx")
    for name in ("excel.xlsx", "odd.xlsx"):
        data = base64.b64encode((tmp_path / name).read_bytes()).decode("ascii")
        scanned, dom = page.evaluate(
            """async (b64) => {
              const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
              const V = window.xlshuffleVerifier, entries = V.zipEntries(bytes);
              const text = new TextDecoder().decode(
                await V.zipRead(bytes, entries, "xl/worksheets/sheet1.xml"));
              const book = await V.openWorkbook(bytes);
              const shared = book.shared;
              const a = V.scanSheet(text, shared, true), b = V.domSheet(text, shared, "x", true);
              return [[[...a.cells], [...a.formulas]], [[...b.cells], [...b.formulas]]];
            }""",
            data,
        )
        assert scanned == dom
        assert len(scanned[0]) > 10 and len(scanned[1]) >= 1
    # a sheet whose elements carry a namespace prefix: the scanner leaves it to the DOM
    import re
    import zipfile

    with (
        zipfile.ZipFile(tmp_path / "odd.xlsx") as src,
        zipfile.ZipFile(tmp_path / "prefixed.xlsx", "w", zipfile.ZIP_DEFLATED) as dst,
    ):
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                text = re.sub(r"<(/?)([A-Za-z])", r"<\1x:\2", data.decode())
                data = text.replace(' xmlns="', ' xmlns:x="', 1).encode()
            dst.writestr(info, data)
    cells = []
    for name in ("odd.xlsx", "prefixed.xlsx"):
        data = base64.b64encode((tmp_path / name).read_bytes()).decode("ascii")
        cells.append(
            page.evaluate(
                """async (b64) => {
                  const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
                  const book = await window.xlshuffleVerifier.openWorkbook(bytes);
                  return [...(await book.cells(book.sheets[0])).cells];
                }""",
                data,
            )
        )
    assert cells[0] == cells[1]


# ---------------------------------------------------------------- committed draws of workbooks


def odd_book(path: Path, *, date1904: bool = False, inline: bool = True) -> None:
    """A workbook of dates, times, datetimes, odd floats, percentages, booleans, errors,
    formulas, shared strings and (patched in) inline strings."""
    import datetime as dt
    import re
    import zipfile

    import openpyxl
    from openpyxl.utils.datetime import CALENDAR_MAC_1904

    wb = openpyxl.Workbook()
    if date1904:
        wb.epoch = CALENDAR_MAC_1904
    ws = wb.active
    ws.title = "Entrants"
    ws.append(["name", "when", "amount", "flag", "note"])
    rows: list[list[Any]] = [
        ["Ann", dt.date(2024, 1, 2), 0.1, True, "shared"],
        ["Bo", dt.datetime(2024, 3, 4, 5, 6, 7), 1e-05, False, None],
        ["Cy", dt.time(13, 30, 15), 123456789012345678, None, "#N/A"],
        ["Dee", dt.datetime(2024, 3, 4, 5, 6, 7, 250000), 0.25, 1, "a_x0041_b"],
        ["Ed", 45292.5, 1e16, 2.5e20, "=1+1"],
        ["Fay", 30, -3.0, 1 / 3, "INLINE"],
        ["Gus", 0.999999999, 1234.5678, -0.0, "  spaces  "],
        ["Hal", 59.75, 60, 61, "last"],
    ]
    for row in rows:
        ws.append(row)
    ws["C5"].number_format = "0%"
    ws["B6"].number_format = "dd/mm/yyyy hh:mm"
    ws["B7"].number_format = "yyyy-mm-dd"
    ws["B8"].number_format = 'h:mm:ss "o\'clock"'
    ws["B9"].number_format = "mmm d"
    ws["C9"].number_format = "d-mmm-yy"
    ws["D9"].number_format = '"day" 0'  # quoted d: a number
    ws["D7"].number_format = "[Red]0.00"
    wb.save(path)
    if not inline:
        return
    # openpyxl writes inline strings: make all but one of them shared strings, as Excel does
    with zipfile.ZipFile(path) as src:
        parts = {info.filename: src.read(info) for info in src.infolist()}
    strings: list[str] = []

    def shared(m: re.Match[str]) -> str:
        if m.group(3) == "INLINE":
            return (
                f'<c r="{m.group(1)}"{m.group(2)} t="inlineStr"><is><t>in_x00E9_line</t></is></c>'
            )
        strings.append(m.group(3))
        return f'<c r="{m.group(1)}"{m.group(2)} t="s"><v>{len(strings) - 1}</v></c>'

    cell = r'<c r="([A-Z]+\d+)"([^>]*?) t="inlineStr"><is><t[^>]*>([^<]*)</t></is></c>'
    sheet = re.sub(cell, shared, parts["xl/worksheets/sheet1.xml"].decode())
    assert "inlineStr" in sheet and strings
    # openpyxl writes 123456789012345678 as a float: the literal as Excel keeps it
    sheet = re.sub(r'(<c r="C4"[^>]*><v>)[^<]*', r"\g<1>123456789012345678", sheet)
    parts["xl/worksheets/sheet1.xml"] = sheet.encode()
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    items = "".join(f'<si><t xml:space="preserve">{t}</t></si>' for t in strings)
    parts["xl/sharedStrings.xml"] = f'<sst xmlns="{main}">{items}</sst>'.encode()
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    parts["xl/_rels/workbook.xml.rels"] = rels.replace(
        "</Relationships>",
        f'<Relationship Id="rIdS" Type="{rel}" Target="sharedStrings.xml"/></Relationships>',
    ).encode()
    kind = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
    types = parts["[Content_Types].xml"].decode()
    parts["[Content_Types].xml"] = types.replace(
        "</Types>", f'<Override PartName="/xl/sharedStrings.xml" ContentType="{kind}"/></Types>'
    ).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, data in parts.items():
            dst.writestr(name, data)


def python_texts(path: Path) -> dict[str, str]:
    """Each non-empty cell's text by xlshuffle's own rules (cell_value, then text_of)."""
    import re
    import zipfile

    from xlshuffle.common.celltext import text_of
    from xlshuffle.workbook.values.cells import (
        CellStyles,
        SharedStrings,
        cell_value,
        workbook_date1904,
    )

    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        sst = "xl/sharedStrings.xml"
        strings = SharedStrings.parse(z.read(sst)) if sst in names else None
        styles = CellStyles.parse(z.read("xl/styles.xml") if "xl/styles.xml" in names else None)
        date1904 = workbook_date1904(z.read("xl/workbook.xml"))
        sheet = z.read("xl/worksheets/sheet1.xml").decode()
    out = {}
    for m in re.finditer(r"<c\b[^>]*/>|<c\b[^>]*>.*?</c>", sheet):
        value = cell_value(m.group().encode(), strings=strings, styles=styles, date1904=date1904)
        text = text_of(value)
        if text:
            out[re.search(r'r="([A-Z]+\d+)"', m.group()).group(1)] = text
    return out


def page_texts(page: Any, path: Path) -> dict[str, str]:
    got: list[list[Any]] = page.evaluate(
        """async (b64) => {
          const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
          const book = await window.xlshuffleVerifier.openWorkbook(bytes);
          return [...(await book.texts(book.sheets[0]))];
        }""",
        base64.b64encode(path.read_bytes()).decode("ascii"),
    )
    letters = lambda c: "" if c == 0 else letters((c - 1) // 26) + chr(65 + (c - 1) % 26)  # noqa: E731
    return {f"{letters(key % 20000)}{key // 20000}": text for key, text in got}


def test_cell_texts_are_xlshuffles(page: Any, tmp_path: Path) -> None:
    """The page's text of each cell (section 17, step 1) is text_of(cell_value(...))."""
    import openpyxl

    for date1904 in (False, True):
        path = tmp_path / f"odd{date1904}.xlsx"
        odd_book(path, date1904=date1904)
        want = python_texts(path)
        assert want["B2"] == ("2024-01-02T00:00:00" if not date1904 else want["B2"])
        assert {want["C2"], want["C3"], want["C4"]} == {"0.1", "1e-05", "123456789012345678"}
        assert page_texts(page, path) == want
    # serials of every kind, in the formats that show them as dates and times
    wb = openpyxl.Workbook()
    ws = wb.active
    serials = [0, 0.5, 0.25000001, 0.99999999999, 1, 1.5, 59, 59.99, 60, 60.5, 61,
               45292.123456789, 2958465.9999999, 2958466, -1, -0.5, 1e-9, 12345.0000000058,
               0.0000057870370370370]  # fmt: skip
    formats = ["yyyy-mm-dd", "h:mm", "m/d/yy h:mm", "General", "0.00E+00", "ss", "[$-409]mmmm",
               "[h]:mm:ss", "[mm]:ss.000"]  # fmt: skip
    for r, x in enumerate(serials, 1):
        for c, fmt in enumerate(formats, 1):
            ws.cell(r, c, x).number_format = fmt
    # durations: whole and odd milliseconds, halves of a microsecond, negative, long
    for r, x in enumerate([1.25, 0.000011574074074074, 1 / 86400000 * 1.5, -0.5, -1.75,
                           123456.789012345, 2.5e-11, 7, 1e-7], 30):  # fmt: skip
        ws.cell(r, 1, x).number_format = "[h]:mm:ss"
    ws.cell(40, 1).value = 1e9  # out of range: #VALUE!
    ws.cell(40, 1).number_format = "[h]:mm:ss"
    import random

    rnd = random.Random(17)
    for r in range(41, 441):
        scale = rnd.choice([1, 100, 1e4, 3e6])
        x = rnd.uniform(-scale, scale)
        if r % 3 == 0:  # just below a whole second, where float rounding decides
            x = (round(x * 86400) - rnd.choice([1e-7, 1e-6, 5e-7, 1e-9])) / 86400
        for c, fmt in enumerate(("[h]:mm:ss", "yyyy-mm-dd hh:mm:ss", "h:mm:ss"), 1):
            ws.cell(r, c, x).number_format = fmt
    ids = (14, 22, 27, 36, 45, 47, 50, 58, 13, 44, 59)
    for c, fmt_id in enumerate(ids, 10):
        ws.cell(1, c, 45292.75).number_format = f'"id{fmt_id}"0'
        ws.cell(2, c, 0.75).number_format = f'"id{fmt_id}"0'
    path = tmp_path / "serials.xlsx"
    wb.save(path)
    # built-in format ids (no custom format of that id): the cell formats made to use them
    import re
    import zipfile

    with zipfile.ZipFile(path) as src:
        parts = {info.filename: src.read(info) for info in src.infolist()}
    styles = parts["xl/styles.xml"].decode()
    for fmt_id in ids:
        custom = re.search(rf'numFmtId="(\d+)" formatCode="&quot;id{fmt_id}&quot;0"', styles)
        assert custom
        styles = re.sub(rf'(<xf [^>]*numFmtId=")({custom.group(1)})"', rf'\g<1>{fmt_id}"', styles)
    parts["xl/styles.xml"] = styles.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, data in parts.items():
            dst.writestr(name, data)
    want = python_texts(path)
    assert want["J1"] == "2024-01-01T18:00:00" and want["Q2"] == "18:00:00"  # 14, 58
    assert want["R1"] == "45292.75" and want["T2"] == "0.75"  # 13, 59: numbers
    assert page_texts(page, path) == python_texts(path)


@pytest.mark.slow
def test_committed_workbook_draws_verify(page: Any, tmp_path: Path) -> None:
    import re
    import zipfile

    import openpyxl

    work = tmp_path
    odd_book(work / "odd.xlsx")
    # its =1+1 has no saved value (openpyxl wrote it): commit refuses to digest it as blank
    refused = cli_refused(
        "commit", "odd.xlsx", "-k", "3", "--beacon", "b", "-o", "c.json", cwd=work
    )
    assert "Entrants!E6 is a formula without a saved value" in refused
    with zipfile.ZipFile(work / "odd.xlsx") as src:  # the value Excel would have saved
        parts = {info.filename: src.read(info) for info in src.infolist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    parts["xl/worksheets/sheet1.xml"] = re.sub(
        r"(<c r=\"E6\"[^>]*><f>1\+1</f>)(<v\s*/>|<v></v>)?", r"\g<1><v>2</v>", sheet
    ).encode()
    with zipfile.ZipFile(work / "odd.xlsx", "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in parts.items():
            out.writestr(name, data)
    for draw, options in (("sample", ["-k", "3"]), ("shuffle", []), ("groups", ["-k", "2"])):
        cli("commit", "odd.xlsx", "--draw", draw, *options, "--beacon", "Lotto 2026-12-04", "-o",
            f"{draw}.json", "--entrant-hashes", f"{draw}-salt.txt", cwd=work)  # fmt: skip
        out = "w.csv" if draw == "sample" else f"{draw}-out.xlsx"
        cli("draw", f"{draw}.json", "odd.xlsx", "--reveal", "4 17 23", "--record",
            f"{draw}-r.json", "-o", out, "--salt", f"{draw}-salt.txt", cwd=work)  # fmt: skip
        record = (work / f"{draw}-r.json").read_text(encoding="utf-8")
        published = json.loads((work / f"{draw}.json").read_text(encoding="utf-8"))["sha256"]
        result = verify(page, record, work / "odd.xlsx", work / out)
        assert result["verified"], (draw, result["message"])
        assert f"the commitment hashes to {published}" in result["message"]
        assert "the input is the committed list" in result["message"]
        assert "the committed entrant hashes are the input's rows" in result["message"]
    # one cell changed after the commitment: not the committed list
    import hashlib

    wb = openpyxl.load_workbook(work / "odd.xlsx")
    wb["Entrants"]["C3"] = 0.2
    wb.save(work / "edited.xlsx")
    data = (work / "edited.xlsx").read_bytes()
    record = json.loads((work / "shuffle-r.json").read_text(encoding="utf-8"))
    result = verify(page, json.dumps(record), ("odd.xlsx", data), work / "shuffle-out.xlsx")
    assert not result["verified"]
    assert "the input odd.xlsx is not the workbook the draw read" in result["message"]
    # ... and with a record that names the edited file: its list digest is not the committed one
    record["input_sha256"] = hashlib.sha256(data).hexdigest()
    result = verify(page, json.dumps(record), ("odd.xlsx", data), work / "shuffle-out.xlsx")
    assert not result["verified"]
    assert result["supported"]
    assert "not the committed list" in result["message"]


@pytest.mark.slow
def test_committed_workbook_with_a_header_and_kept_rows(page: Any, work: Path) -> None:
    import datetime as dt

    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Entrants"
    ws.append(["name", "born", "score"])
    for i in range(12):
        if i in (4, 9):
            ws.append([None, None, None])
        else:
            ws.append([f"P{i}", dt.date(1990, 1, 1) + dt.timedelta(days=97 * i), i / 7])
    wb.save(work / "kept.xlsx")
    cli("commit", "kept.xlsx", "--draw", "sample", "-k", "2", "--keep-blank-rows",
        "--beacon", "b", "-o", "c.json", cwd=work)  # fmt: skip
    cli("draw", "c.json", "kept.xlsx", "--reveal", "9", "--record", "r.json", "-o", "o.xlsx",
        cwd=work)  # fmt: skip
    record = (work / "r.json").read_text(encoding="utf-8")
    assert json.loads(record)["target"].get("kept")
    result = verify(page, record, work / "kept.xlsx", work / "o.xlsx")
    assert result["verified"], result["message"]
    assert "the input is the committed list" in result["message"]


@pytest.mark.slow
def test_committed_workbook_of_durations_verifies(page: Any, work: Path) -> None:
    """Cells shown as elapsed time are digested as Python prints the duration."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["name", "time"])
    for i in range(5):
        ws.append([f"P{i}", 1.25 + i / 7])
        ws.cell(i + 2, 2).number_format = "[h]:mm:ss"
    wb.save(work / "elapsed.xlsx")
    assert python_texts(work / "elapsed.xlsx")["B2"] == "1 day, 6:00:00"
    cli("commit", "elapsed.xlsx", "--draw", "shuffle", "--beacon", "b", "-o", "c.json", cwd=work)
    cli("draw", "c.json", "elapsed.xlsx", "--reveal", "7", "--record", "r.json", "-o", "o.xlsx",
        cwd=work)  # fmt: skip
    result = verify(page, (work / "r.json").read_text("utf-8"), work / "elapsed.xlsx",
                    work / "o.xlsx")  # fmt: skip
    assert result["verified"], result["message"]
    assert "the input is the committed list" in result["message"]


# ---------------------------------------------------------------- Excel's Draw log

PEOPLE = [
    ["Ana", 1, True],
    ["Ivy", 1, "x"],
    ["Ben", 2.5, None],
    ["Cy", 3, False],
    ["Di", 4, "d"],
    ["Ed", 5, 6],
    ["Flo", 3, "Zoë"],
    ["Gus", 0, "g"],
    ["Hal", 2, 7.25],
]
LOCKED: dict[str, dict[str, Any]] = {
    "shuffle": {},
    "winners": {"k": 3},
    "groups": {"k": 3},
    "deal": {"k": 2, "hands": 3},
    "raffle": {"k": 2, "reserves": 2, "tickets": 1},
    "raffle-random": {"k": 3, "reserves": 0},
    "teams": {"k": 3, "balance": [1]},
    "tickets": {"k": 2, "reserves": 1, "ids": 0},
    "tickets-weighted": {"k": 3, "reserves": 0, "ids": 0, "tickets": 2},
}


def locked_draw(
    tmp_path: Path,
    mode: str,
    seed: str = "eb3rx",
    people: list[list[Any]] = PEOPLE,
    formats: dict[int, str] | None = None,
) -> tuple[str, Path]:
    """A locked draw as the Excel scripts make it: the Draw log row's text and the workbook
    (``formats``: column number -> the number format of the rows of ``people``)."""
    import openpyxl

    from xlshuffle.lock.log import Draw
    from xlshuffle.lock.plan import plan

    options = dict(LOCKED[mode])
    mode = mode.split("-")[0]
    tickets = options.pop("tickets", None)
    balance = options.pop("balance", None)
    ids = options.get("ids")
    if mode == "tickets":  # whole ticket counts: the people's notes
        people = [[row[0], row[1], i % 3] for i, row in enumerate(people)]
    if balance is None:
        output = plan(mode, people, seed, **options, tickets=tickets)
    else:  # as the teams draw-and-lock writes it: GROUPS with balance, right of the selection
        import xlshuffle

        values = [[row[c] for c in balance] for row in people]
        output = [[t] for t in xlshuffle.balanced_groups(values, options["k"], seed=seed)]
    address = f"A2:C{len(people) + 1}"
    top, left = (2, 1) if mode == "shuffle" else (2, 5)
    out_address = (
        f"{'AE'[left == 5]}{top}:{chr(64 + left + len(output[0]) - 1)}{top + len(output) - 1}"
    )
    draw = Draw(
        mode=mode,
        sheet="People",
        address=address,
        book="Raffle.xlsx",
        seed=seed,
        seed_from="fresh (operating system)",
        version="0.1.0",
        time="2026-11-23T17:40:12Z",
        rows=people,
        output=output,
        output_address=out_address,
        k=options.get("k"),
        hands=options.get("hands"),
        reserves=options.get("reserves"),
        tickets=None if tickets is None else f"{'ABC'[tickets]}2:{'ABC'[tickets]}{len(people) + 1}",
        options=(
            f"ids {'ABC'[ids]}2:{'ABC'[ids]}{len(people) + 1}"
            if ids is not None
            else ""
            if balance is None
            else "balance " + ", ".join("ABC"[c] for c in balance)
        ),
    )
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "People"
    ws.append(["name", "tickets", "note"])
    for r, row in enumerate(people, 2):
        for c, v in enumerate(row, 1):
            ws.cell(r, c, v)
            if formats and c in formats:
                ws.cell(r, c).number_format = formats[c]
    for r, row in enumerate(output, top):
        for c, v in enumerate(row, left):
            ws.cell(r, c).value = v  # ws.cell(r, c, None) would keep the old value
    path = tmp_path / "Raffle.xlsx"
    wb.save(path)
    return "\t".join(draw.log_row()), path


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(LOCKED))
def test_draw_log_rows_verify(page: Any, tmp_path: Path, mode: str) -> None:
    row, book = locked_draw(tmp_path, mode)
    header = (
        "time (UTC)\tsheet\trange\tmode\tk\thands\toutput\tseed\tseed from\tprotocol\tversion\t"
        "input sha256\toutput sha256\tformula\tcommand line\trestored (UTC)\treserves\ttickets\t"
        "method"
    )
    for text in (row, f"{header}\n{row}\n"):
        result = verify(page, text, book)
        assert result["verified"], result["message"]
        assert result["message"].startswith("Verified: Draw log row of 2026-11-23T17:40:12Z")
    # another seed in the row
    result = verify(page, row.replace("eb3rx", "eb3ry"), book)
    assert not result["verified"]
    assert result["supported"]


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["shuffle", "winners", "raffle"])
def test_an_edited_cell_of_a_locked_draw_is_not_verified(
    page: Any, tmp_path: Path, mode: str
) -> None:
    import openpyxl

    row, book = locked_draw(tmp_path, mode)
    wb = openpyxl.load_workbook(book)
    wb["People"]["A3" if mode == "shuffle" else "E3"] = "Mallory"
    wb.save(tmp_path / "edited.xlsx")
    result = verify(page, row, ("Raffle.xlsx", (tmp_path / "edited.xlsx").read_bytes()))
    assert not result["verified"]
    if mode == "shuffle":
        assert "are not what the draw wrote" in result["message"]
    else:
        assert 'People!E3 holds "Mallory"' in result["message"]
    # the input edited instead: a winners draw is refused, naming the range
    if mode != "shuffle":
        wb = openpyxl.load_workbook(book)
        wb["People"]["B4"] = 99
        wb.save(tmp_path / "edited.xlsx")
        result = verify(page, row, ("Raffle.xlsx", (tmp_path / "edited.xlsx").read_bytes()))
        assert not result["verified"]
        assert "the values in People!A2:C10 are not the ones the draw read" in result["message"]


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["shuffle", "winners", "groups"])
def test_a_committed_locked_draw_verifies(page: Any, tmp_path: Path, mode: str) -> None:
    """A draw-and-lock of a committed list: the log row's commitment columns (section 17)."""
    from xlshuffle.draw.commit import commit_seed, commitment_sha256, rows_sha256

    texts = [[str(int(v)) if isinstance(v, float) and v.is_integer() else "" if v is None
              else str(v) for v in row] for row in PEOPLE]  # fmt: skip
    texts = [row[: max((i + 1 for i, t in enumerate(row) if t), default=0)] for row in texts]
    command = {"winners": "sample", "shuffle": "shuffle", "groups": "groups"}[mode]
    body = {
        "commitment_version": 1,
        "protocol": "xlshuffle/draw/v1",
        "draw": {"command": command, "options": ["--sheet", "People", "--range", "A2:C10"]},
        "list": {"file": "Raffle.xlsx", "sheet": "People", "selection": "People!A2:C10",
                 "header": False, "rows": len(PEOPLE), "sha256": rows_sha256(texts)},
        "beacon": "Lotto",
        "entrants": None,
        "tool_version": "0.1.0",
        "time_utc": "2026-11-23T17:00:00Z",
    }  # fmt: skip
    digest = commitment_sha256(body)
    seed = commit_seed(digest, ["4 17", "23"])
    row, book = locked_draw(tmp_path, mode, seed=seed)
    commitment = json.dumps({"commitment": body, "sha256": digest}, ensure_ascii=False)
    cells = [*row.split("\t"), digest, body["list"]["sha256"], "Lotto", "4 17 / 23", commitment]
    # as Excel copies it: the commitment's cell quoted, its quotes doubled
    cells[-1] = '"' + commitment.replace('"', '""') + '"'
    result = verify(page, "\t".join(cells), book)
    assert result["verified"], result["message"]
    assert f"the commitment hashes to {digest}" in result["message"]
    cells[-2] = "4 17 / 24"
    result = verify(page, "\t".join(cells), book)
    assert not result["verified"]
    assert "give the seed" in result["message"]


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["shuffle", "winners"])
def test_a_committed_locked_draw_of_dates_verifies(page: Any, tmp_path: Path, mode: str) -> None:
    """The list digest of a locked committed draw takes dates in ISO 8601 and floats by
    Python's repr, as xlshuffle reads the saved workbook; a cell changed is not the list."""
    import openpyxl

    from xlshuffle.draw.commit import commit_seed, commitment_sha256, rows_sha256

    people = [[f"P{i}", [0.1, 1e-05, 2.5, 1 / 3][i % 4], 45292 + 37.25 * i] for i in range(9)]
    formats = {3: "yyyy-mm-dd hh:mm"}
    before = tmp_path / "before.xlsx"
    wb = openpyxl.Workbook()
    for r, row in enumerate(people, 2):
        for c, v in enumerate(row, 1):
            wb.active.cell(r, c, v).number_format = formats.get(c, "General")
    wb.save(before)
    cells = python_texts(before)
    texts = [[cells.get(f"{col}{r}", "") for col in "ABC"] for r in range(2, 11)]
    assert texts[1] == ["P1", "1e-05", "2024-02-07T06:00:00"]
    body = {
        "commitment_version": 1,
        "protocol": "xlshuffle/draw/v1",
        "draw": {"command": "sample" if mode == "winners" else mode,
                 "options": ["--sheet", "People", "--range", "A2:C10"]},
        "list": {"file": "Raffle.xlsx", "sheet": "People", "selection": "People!A2:C10",
                 "header": False, "rows": 9, "sha256": rows_sha256(texts)},
        "beacon": "Lotto",
        "entrants": None,
        "tool_version": "0.1.0",
        "time_utc": "2026-11-23T17:00:00Z",
    }  # fmt: skip
    digest = commitment_sha256(body)
    seed = commit_seed(digest, ["4 17"])
    row, book = locked_draw(tmp_path, mode, seed=seed, people=people, formats=formats)
    commitment = json.dumps({"commitment": body, "sha256": digest}, ensure_ascii=False)
    cells_ = [*row.split("\t"), digest, body["list"]["sha256"], "Lotto", "4 17", commitment]
    cells_[-1] = '"' + commitment.replace('"', '""') + '"'
    result = verify(page, "\t".join(cells_), book)
    assert result["verified"], result["message"]
    assert "the selection is the committed list" in result["message"]
    # one date shown as a number: its value (and the input hash) is the same, its text not
    wb = openpyxl.load_workbook(book)
    wb["People"]["C5"].number_format = "0.00"
    wb.save(tmp_path / "edited.xlsx")
    result = verify(
        page, "\t".join(cells_), ("Raffle.xlsx", (tmp_path / "edited.xlsx").read_bytes())
    )
    assert not result["verified"]
    assert result["supported"]
    assert "not the committed list" in result["message"]


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["shuffle", "winners"])
def test_a_restored_locked_draw_verifies_from_its_input(
    page: Any, tmp_path: Path, mode: str
) -> None:
    import openpyxl

    row, book = locked_draw(tmp_path, mode)
    cells = row.split("\t")
    cells[15] = "2026-11-23T18:00:00Z"
    wb = openpyxl.load_workbook(book)
    ws = wb["People"]
    for r in range(2, 12):
        for c in range(1, 9):
            ws.cell(r, c).value = None
    for r, values in enumerate(PEOPLE, 2):
        for c, v in enumerate(values, 1):
            ws.cell(r, c).value = v
    wb.save(tmp_path / "restored.xlsx")
    result = verify(
        page, "\t".join(cells), ("Raffle.xlsx", (tmp_path / "restored.xlsx").read_bytes())
    )
    assert result["verified"], result["message"]
    assert "(restored 2026-11-23T18:00:00Z)" in result["message"]


# ---------------------------------------------------------------- Draw log rows of the designs


def excel_saved(excel: Any, path: Path) -> list[str]:
    """The Excel stand-in's workbook saved as .xlsx (openpyxl); its Draw log rows as copied."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for s in excel.payload["sheets"]:
        ws = wb.create_sheet(s["name"])
        for r, row in enumerate(s["values"], 1):
            for c, v in enumerate(row, 1):
                if v not in ("", None):
                    ws.cell(r, c, v)
    wb.save(path)
    rows = [r for r in excel.sheet("Draw log")["values"] if any(v not in ("", None) for v in r)]
    return ["\t".join("" if v is None else str(v) for v in r) for r in rows[1:]]


def script(excel: Any, name: str, *args: Any) -> None:
    """Run an Excel script on the stand-in, in a thread: Playwright's loop runs in this one."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        pool.submit(excel.script, name, *args).result()


def edited(path: Path, sheet: str, cell: str, value: Any) -> tuple[str, bytes]:
    import openpyxl

    wb = openpyxl.load_workbook(path)
    wb[sheet][cell] = value
    wb.save(path.with_name("edited.xlsx"))
    return path.name, path.with_name("edited.xlsx").read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("balanced", [False, True])
def test_draw_log_orders_rows_verify(page: Any, tmp_path: Path, balanced: bool) -> None:
    pytest.importorskip("xlwings")
    from excel_book import study

    excel = study()
    if balanced:
        script(excel, "write_orders", "Sheet1!E2:E6", "3", True)
    else:
        script(excel, "write_orders")
    (row,) = excel_saved(excel, tmp_path / "Study.xlsx")
    result = verify(page, row, tmp_path / "Study.xlsx")
    assert result["verified"], result["message"]
    assert ("counterbalanced" if balanced else "per-person") + " orders" in result["message"]
    assert 'the sheet "Orders" holds exactly what the seed draws' in result["message"]
    result = verify(page, row, edited(tmp_path / "Study.xlsx", "Orders", "C3", "Maze?"))
    assert not result["verified"]
    assert 'Orders!C3 holds "Maze?", the draw with seed' in result["message"]
    # an ID changed after the draw: its order is not the one written
    result = verify(page, row, edited(tmp_path / "Study.xlsx", "Sheet1", "E3", "P99"))
    assert not result["verified"]
    assert "Orders!A3 holds" in result["message"]


@pytest.mark.slow
def test_draw_log_allocation_rows_verify(page: Any, tmp_path: Path) -> None:
    pytest.importorskip("xlwings")
    from excel_book import ARGS, Excel, seeded

    excel = seeded(Excel([["Trial"]], None), "trial 7")
    script(excel, "write_allocation_list", *ARGS)
    (row,) = excel_saved(excel, tmp_path / "Trial.xlsx")
    result = verify(page, row, tmp_path / "Trial.xlsx")
    assert result["verified"], result["message"]
    assert 'the sheet "Allocation codes" holds exactly what the seed draws' in result["message"]
    cells = excel.cells("Allocation codes", 2, 1, 1, 4)[0]
    assert cells[0] == 1 and len(cells[3]) == 14  # Seq, site, sex, Code
    result = verify(
        page, row, edited(tmp_path / "Trial.xlsx", "Allocation codes", "D2", "0000-0000-0000")
    )
    assert not result["verified"]
    assert 'Allocation codes!D2 holds "0000-0000-0000"' in result["message"]
    # the log's options edited (another ratio): its output hash no longer follows
    result = verify(page, row.replace("--ratio 2:1", "--ratio 1:2"), tmp_path / "Trial.xlsx")
    assert not result["verified"]


@pytest.mark.slow
def test_draw_log_commit_rows_verify(page: Any, tmp_path: Path) -> None:
    pytest.importorskip("xlwings")
    from excel_book import people

    excel = people()
    script(excel, "commit_selection", "sample", 2, "Lotto 2026-12-04")
    script(excel, "draw_committed", "4 17 23", "")
    commit, draw = excel_saved(excel, tmp_path / "Raffle.xlsx")
    for row in (commit, draw):
        result = verify(page, row, tmp_path / "Raffle.xlsx")
        assert result["verified"], result["message"]
    digest = json.loads(commit.split("\t")[-1])["sha256"]
    result = verify(page, commit, tmp_path / "Raffle.xlsx")
    assert f"the commitment hashes to {digest}" in result["message"]
    result = verify(page, commit, edited(tmp_path / "Raffle.xlsx", "Sheet1", "B3", 3))
    assert not result["verified"]
    assert "the values in Sheet1!A2:C6 are not the ones committed" in result["message"]
    # the commitment in the row edited: its hash is not the logged one
    result = verify(
        page, commit.replace("Lotto 2026-12-04", "Lotto 2026-12-05"), tmp_path / "Raffle.xlsx"
    )
    assert not result["verified"]
    assert "hashes to" in result["message"]


# ---------------------------------------------------------------- a second implementation


def test_the_page_agrees_with_xlshuffle_on_random_cases(page: Any) -> None:
    """Differential check: random seeds (texts with accents, emoji, white space; numbers) and
    sizes through the page and through xlshuffle's Python code."""
    import random

    import xlshuffle

    rng = random.Random(22)
    alphabet = "abcXYZ 0123456789éèZoe\u0308名前🎲\t-."
    cases = []
    for _ in range(150):
        seed = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        if not seed.strip():
            seed += "x"
        n = rng.choice([1, 2, 3, 5, 10, 52, 100, 1000])
        k = rng.randint(0, n)
        weights = [rng.choice([0, 1, 2, 3, 10, 2**40]) for _ in range(rng.randint(1, 30))]
        w = rng.randint(0, sum(1 for x in weights if x))
        person = rng.choice(["Ann", " Bo", "42", "Zoë", "名前"])
        cases.append({"seed": seed, "n": n, "k": k, "weights": weights, "w": w, "id": person})
    got = run(
        page,
        """const out = [];
        for (const c of a.cases) {
          out.push([
            await P.permutation(c.n, c.seed),
            await P.deal([...Array(c.n).keys()], c.k, c.seed),
            await P.weighted(c.weights.map(String), c.w, c.seed),
            await P.personOrder(c.n, c.k, c.seed, c.id),
          ]);
        }
        return out;""",
        cases=cases,
    )
    want = [
        [
            xlshuffle.permutation(c["n"], seed=c["seed"]),
            xlshuffle.deal(range(c["n"]), c["k"], seed=c["seed"]),
            xlshuffle.weighted_sample(c["weights"], c["w"], seed=c["seed"]),
            xlshuffle.person_order(c["n"], c["id"], seed=c["seed"], k=c["k"]),
        ]
        for c in cases
    ]
    assert got == want


@pytest.mark.slow
def test_a_100_000_row_workbook_verifies_in_seconds(page: Any, tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_batch import make_workbook

    make_workbook(str(tmp_path / "big.xlsx"), 100_000)
    cli("shuffle", "big.xlsx", "--seed", "bench", "-o", "out.xlsx", "--record", "r.json",
        cwd=tmp_path)  # fmt: skip
    page.set_input_files("#files", [str(tmp_path / "big.xlsx"), str(tmp_path / "out.xlsx")])
    result = page.evaluate(
        """async (record) => {
          const files = Array.from(document.getElementById("files").files);
          const t = performance.now();
          const r = await window.xlshuffleVerify({record, files});
          return {...r, seconds: (performance.now() - t) / 1000};
        }""",
        (tmp_path / "r.json").read_text(encoding="utf-8"),
    )
    assert result["verified"], result["message"]
    assert result["seconds"] < 20  # about 2 s when it was written (benchmarks/bench_verifier.py)


# ---------------------------------------------------------------- formula texts

FORMULAS = [
    "A1*2",
    "$A$1+B2",
    "A$1+$B2",
    "SUM(A1:B10)",
    "SUM(A:A)+SUM($B:C)",
    "SUM(2:2)+SUM($3:4)",
    "Sheet2!A1+'My Sheet'!B3",
    "'it''s'!C4*2",
    '"A1"&B2&"say ""B2"""',
    "LOG10(A1)+DEC2BIN(B2)+ATAN2(C3,D4)",
    'IF(A1>0,"x",B2)',
    "_xlfn.XLOOKUP(A1,B:B,C:C)",
    "SUM(A1:B2 B2:C3)",
    "SUM(A1,B$2,$C3)",
    "1.5E+10*A1+1E3",
    "ROW()+a1",
    "Table1[Amount]+A1",
    "Table1[[#This Row],[Amount]]*C2",
    "SUM( A1 , B2 )",
    "XFD1+A1048576",
]


def test_formulas_move_as_openpyxl_translates_them(page: Any) -> None:
    """The page's translation of a moved formula is openpyxl's Translator's (which
    xlshuffle follows), for each formula moved by rows and columns; where a reference
    would leave the sheet openpyxl writes #REF! and the page reads nothing (None)."""
    from openpyxl.formula.translate import Translator, TranslatorError

    moves = [(3, 0), (-1, 0), (0, 2), (5, -1), (0, 0), (1048570, 0)]
    got = page.evaluate(
        """(a) => a.formulas.map((f) => a.moves.map(([dr, dc]) =>
             window.xlshuffleVerifier.shiftFormula(f, dr, dc)))""",
        {"formulas": FORMULAS, "moves": moves},
    )
    origin_row, origin_col = 5, 4  # D5
    compared = 0
    for formula, row in zip(FORMULAS, got, strict=True):
        for (dr, dc), mine in zip(moves, row, strict=True):
            dest = f"{chr(64 + origin_col + dc)}{origin_row + dr}"
            try:
                theirs = Translator("=" + formula, origin="D5").translate_formula(dest)[1:]
            except TranslatorError:  # a row before row 1 or a column before A
                theirs = "#REF!"
            if "#REF!" in theirs:
                assert mine is None, (formula, dr, dc, mine)
                continue
            if mine is None:  # a reference past the sheet's last row or column
                assert dr > 1000 or "XFD" in formula, (formula, dr, dc, theirs)
                continue
            compared += 1
            keys = page.evaluate(
                "(a) => a.map(window.xlshuffleVerifier.formulaKey)", [mine, theirs]
            )
            assert keys[0] == keys[1], (formula, dr, dc, mine, theirs)
    assert compared >= 85


def _formula_book(path: Path, shared: bool) -> None:
    """30 data rows with a same-row formula (F), one to the row above (G) and one to a
    fixed cell (H); with ``shared`` F is one shared formula, as Excel writes a filled
    column. Moved within F:H, no reference leaves the sheet."""
    import zipfile

    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["name", "n", "x", "y", "z", "double", "prev", "rate"])
    for i in range(2, 32):
        ws.append([f"P{i}", i, None, i * 1.5, i % 4, f"=D{i}*2", f"=D{i - 1}+E{i}", f"=E{i}*$B$2"])
    wb.save(path)
    if not shared:
        return
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    xml = parts["xl/worksheets/sheet1.xml"].decode()
    for i in range(2, 32):
        f = '<f t="shared" ref="F2:F31" si="0">D2*2</f>' if i == 2 else '<f t="shared" si="0"/>'
        xml = xml.replace(f"<f>D{i}*2</f>", f)
    parts["xl/worksheets/sheet1.xml"] = xml.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def _resaved(src: Path, dst: Path, edit: Any = None) -> bytes:
    import openpyxl

    wb = openpyxl.load_workbook(src)
    wb.properties.creator = "someone else"
    if edit is not None:
        edit(wb["Data"])
    wb.save(dst)
    return dst.read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("shared", [False, True], ids=["plain", "shared"])
@pytest.mark.parametrize(
    "options", [[], ["--by", "cells", "--range", "F2:H31"]], ids=["rows", "cells"]
)
def test_moved_formulas_of_a_saved_again_output_are_read(
    page: Any, tmp_path: Path, shared: bool, options: list[str]
) -> None:
    """An output saved again by openpyxl (its formulas' values dropped, its bytes not the
    recorded ones) verifies by its formulas' texts; a formula edited there does not,
    though every value left reads alike."""
    _formula_book(tmp_path / "book.xlsx", shared)
    cli("shuffle", "book.xlsx", *options, "--seed", "7", "-o", "out.xlsx", "--record", "r.json",
        cwd=tmp_path)  # fmt: skip
    record = (tmp_path / "r.json").read_text(encoding="utf-8")
    again = _resaved(tmp_path / "out.xlsx", tmp_path / "again.xlsx")
    result = verify(page, record, tmp_path / "book.xlsx", ("out.xlsx", again))
    assert result["verified"], result["message"]
    assert "moved formulas reads as its input formula moved to its new cell" in result["message"]
    # the untouched output: its SHA-256 is the record's, and no formula needs reading
    result = verify(page, record, tmp_path / "book.xlsx", tmp_path / "out.xlsx")
    assert result["verified"] and "moved formulas" not in result["message"]

    import openpyxl

    sheet = openpyxl.load_workbook(tmp_path / "again.xlsx")["Data"]
    cell = next(c for row in sheet.iter_rows(min_row=10) for c in row if str(c.value)[:1] == "=")
    text = str(cell.value)

    def edit(ws: Any) -> None:
        ws[cell.coordinate] = text.replace("*", "/").replace("+", "-")

    edited = _resaved(tmp_path / "out.xlsx", tmp_path / "edited.xlsx", edit)
    result = verify(page, record, tmp_path / "book.xlsx", ("out.xlsx", edited))
    assert not result["verified"] and result["supported"]
    assert f"differs at Data!{cell.coordinate}: its formula is {text}" not in result["message"]
    assert f"differs at Data!{cell.coordinate}: its formula is =" in result["message"]
    assert f"the draw gives {text}" in result["message"], result["message"]


# ---------------------------------------------------------------- one entry per ID, small strata

ENTRIES = (
    "id,name,tickets,site\n1,Ann,1,N\n2,Bo,2.5,S\n1,Ann,2,N\n3,Cy,3,N\n4,Dee,1,S\n2,Bo,0.5,S\n"
    "5,Ed,2,N\n6,Fay,1,S\n7,Gus,4,N\n 1 ,Ann,1,N\n8,Hal,1,T\n"
)


def draw_record(work: Path, source: str, *options: str) -> dict[str, Any]:
    cli("sample", source, *options, "--seed", "spring", "-o", "out.csv", "--record", "r.json",
        "--overwrite", cwd=work)  # fmt: skip
    record: dict[str, Any] = json.loads((work / "r.json").read_text(encoding="utf-8"))
    return record


def with_draw(record: dict[str, Any], **draw: Any) -> str:
    """The record with target.draw's keys changed (None removes one)."""
    spec = {k: v for k, v in {**record["target"]["draw"], **draw}.items() if v is not None}
    return json.dumps({**record, "target": {**record["target"], "draw": spec}})


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        ["-k", "3"],
        ["-k", "2", "--weights", "tickets", "--reserves", "1"],
        ["-k", "1", "--weights", "tickets", "--strata", "site"],
        ["-k", "2", "--exclude", "excluded.txt"],
    ],
)
def test_one_entry_per_id_verifies(page: Any, work: Path, options: list[str]) -> None:
    """Rows sharing an ID are one entrant at its first row, holding all its rows' tickets."""
    (work / "entries.csv").write_text(ENTRIES, encoding="utf-8")
    record = draw_record(work, "entries.csv", "--id", "id", "--one-entry-per-id", *options)
    assert record["target"]["draw"]["one_entry_per_id"] is True
    files = [work / "entries.csv", work / "out.csv"]
    if "--exclude" in options:
        files.append(work / "excluded.txt")
    result = verify(page, json.dumps(record), *files)
    assert result["verified"], result["message"]
    assert "one entry per ID (id)" in result["message"]
    # the rule taken out of the record: the draw it then describes is not this one
    result = verify(page, with_draw(record, one_entry_per_id=None), *files)
    assert not result["verified"]
    assert "share the ID" in result["message"]
    # the winners' IDs edited (the rows drawn left alone)
    winners = record["target"]["draw"]["winners"]
    result = verify(page, with_draw(record, winners=[*winners[1:], winners[0]]), *files)
    assert not result["verified"]
    assert "the record names the winners" in result["message"]
    # another row of a drawn ID named as its entrant: the draw names each by its first row
    forged = {**record, "permutation": [*record["permutation"]]}
    forged["permutation"][0] = {0: 2, 1: 5}.get(forged["permutation"][0], 9)
    result = verify(page, json.dumps(forged), *files)
    assert not result["verified"]


@pytest.mark.slow
def test_one_entry_per_id_in_a_workbook_verifies(page: Any, work: Path) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    for line in ENTRIES.splitlines():
        ws.append(
            [float(f) if f.strip().replace(".", "").isdigit() else f for f in line.split(",")]
        )
    wb.save(work / "entries.xlsx")
    cli("sample", "entries.xlsx", "-k", "3", "--id", "id", "--one-entry-per-id", "--weights",
        "tickets", "--seed", "spring", "-o", "out.xlsx", "--record", "r.json",
        cwd=work)  # fmt: skip
    record = json.loads((work / "r.json").read_text(encoding="utf-8"))
    files = (work / "entries.xlsx", work / "out.xlsx")
    result = verify(page, json.dumps(record), *files)
    assert result["verified"], result["message"]
    result = verify(page, with_draw(record, one_entry_per_id=None), *files)
    assert not result["verified"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        ["-k", "3", "--strata", "site"],
        ["-k", "2", "--strata", "site", "--reserves", "2"],
        ["-k", "3", "--strata", "site", "--weights", "tickets"],
        ["-k", "3", "--strata", "site", "--method", "systematic"],
        ["-k", "2", "--strata", "site", "--id", "id", "--one-entry-per-id"],
    ],
)
def test_small_strata_taken_whole_verify(page: Any, work: Path, options: list[str]) -> None:
    """Stratum T has one row: taken whole; N and S drawn as without the option."""
    (work / "entries.csv").write_text(ENTRIES, encoding="utf-8")
    record = draw_record(work, "entries.csv", "--all-of-small-strata", *options)
    assert record["target"]["draw"]["all_of_small_strata"] is True
    parts = record["target"]["draw"]["parts"]
    assert parts[-1]["stratum"] == "T" and parts[-1]["drawn"] == 1 < parts[-1]["k"]
    files = (work / "entries.csv", work / "out.csv")
    result = verify(page, json.dumps(record), *files)
    assert result["verified"], result["message"]
    assert "small strata taken whole" in result["message"]
    assert 'stratum "T": 1 of 1' in result["message"]
    # the rule taken out: stratum T cannot give its count
    result = verify(page, with_draw(record, all_of_small_strata=None), *files)
    assert not result["verified"]
    assert result["supported"]
    # a stratum's account edited: it says it drew what it did not
    changed = [*parts[:-1], {**parts[-1], "drawn": parts[-1]["k"]}]
    result = verify(page, with_draw(record, parts=changed), *files)
    assert not result["verified"]
    assert "is not what the draw gives again" in result["message"]


# ---------------------------------------------------------------- exclusion lists by the ID column


@pytest.mark.slow
def test_an_exclusion_csv_is_read_by_the_id_column(page: Any, work: Path) -> None:
    """Last draw's winners file (several columns) given to --exclude, and to the page."""
    cli("sample", "draws.csv", "-k", "3", "--id", "id", "--seed", "spring", "-o", "last.csv",
        cwd=work)  # fmt: skip
    assert (work / "last.csv").read_text(encoding="utf-8").startswith("id,name,tickets,site,")
    record = draw_record(work, "draws.csv", "-k", "3", "--id", "id", "--exclude", "last.csv")
    assert record["target"]["draw"]["exclusion"]["unmatched"] == 0
    files = (work / "draws.csv", work / "out.csv")
    result = verify(page, json.dumps(record), *files, work / "last.csv")
    assert result["verified"], result["message"]
    assert (
        "exactly those whose ID the exclusion list holds (its digest checked)" in result["message"]
    )
    assert "0 listed ID(s) matched no entrant" in result["message"]
    # the same IDs as a text file whose first line names the column, and as a TSV
    ids = [line.split(",")[0] for line in (work / "last.csv").read_text().splitlines()[1:]]
    as_text = "id\n" + "\n".join(ids)
    as_tsv = "x\tid\n" + "".join(f"-\t{i}\n" for i in ids)
    for name, text in (("ids.txt", as_text), ("ids.tsv", as_tsv)):
        result = verify(page, json.dumps(record), *files, (name, text.encode()))
        assert result["verified"], (name, result["message"])
    # another winners file: not the list the draw used
    other = "id,name\n" + ",x\n".join(ids[:2]) + ",x\n9,Ida\n"
    result = verify(page, json.dumps(record), *files, ("other.csv", other.encode()))
    assert not result["verified"]
    assert "other.csv is not the exclusion list the draw used" in result["message"]
    # a table without the --id column, and a binary file: refused, as xlshuffle refuses them
    result = verify(page, json.dumps(record), *files, ("nocol.csv", b"name,site\nAnn,N\n"))
    assert not result["verified"]
    assert 'has no column "id"' in result["message"]
    rows = "name,number\n" + "".join(f"x,{i}\n" for i in ids)
    result = verify(page, json.dumps(record), *files, ("rows.txt", rows.encode()))
    assert not result["verified"]
    assert "its lines are rows of a table" in result["message"]
    result = verify(page, json.dumps(record), *files, ("ids.bin", b"2\x00\n7\n"))
    assert not result["verified"]
    assert "a binary file" in result["message"]
    # the record's count of unmatched IDs edited
    spec = record["target"]["draw"]
    forged = with_draw(record, exclusion={**spec["exclusion"], "unmatched": 2})
    result = verify(page, forged, *files, work / "last.csv")
    assert not result["verified"]
    assert "matched no entrant, but 0 of those in last.csv do not" in result["message"]


@pytest.mark.slow
def test_an_exclusion_workbook_cannot_be_checked_by_the_page(page: Any, work: Path) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    wb.active.append(["name", "id"])
    wb.active.append(["Bo", 2])
    wb.active.append(["Gus", 7])
    wb.save(work / "ids.xlsx")
    record = draw_record(work, "draws.csv", "-k", "3", "--id", "id", "--exclude", "ids.xlsx")
    assert record["target"]["draw"]["exclusion"]["rows"] == [1, 6]
    files = (work / "draws.csv", work / "out.csv")
    result = verify(page, json.dumps(record), *files, work / "ids.xlsx")
    assert not result["verified"]
    assert not result["supported"]
    assert "ids.xlsx is a workbook" in result["message"]
    # without it the rows the record lists are left out, and the page says so
    result = verify(page, json.dumps(record), *files)
    assert result["verified"], result["message"]
    assert "give the exclusion list too" in result["message"]


@pytest.mark.slow
def test_an_exclusion_that_left_out_nobody_shows_the_warning(page: Any, work: Path) -> None:
    (work / "nobody.txt").write_text("99\n98\n", encoding="utf-8")
    record = draw_record(work, "draws.csv", "-k", "3", "--id", "id", "--exclude", "nobody.txt")
    warning = record["target"]["draw"]["exclusion"]["warning"]
    files = (work / "draws.csv", work / "out.csv", work / "nobody.txt")
    result = verify(page, json.dumps(record), *files)
    assert result["verified"], result["message"]
    assert "2 listed ID(s) matched no entrant" in result["message"]
    assert f"the record warns: {warning}" in result["message"]


# ---------------------------------------------------------------- ticket draws (section 18)

# (source, options, an edit of the record's draw that the page must refuse)
TICKET_DRAWS = [
    ("draws.csv", ["-k", "2", "--strata", "site", "--reserves", "1"], {"k": 1}),
    ("draws.csv", ["--rate", "0.4", "--reserves", "1"], {"rate": "0.6"}),
    ("draws.csv", ["-k", "3", "--weights", "tickets", "--weight-scale", "10"],
     {"weight_scale": 20}),
    ("draws.csv", ["-k", "3", "--exclude", "excluded.txt"], {"exclusion": None}),
    ("entries.csv", ["-k", "2", "--one-entry-per-id", "--weights", "tickets",
                     "--weight-scale", "2"], {"one_entry_per_id": None}),
    ("draws.csv", ["-k", "4", "--method", "rivest"], {"method": "ticket"}),
    ("book.xlsx", ["-k", "2", "--strata", "site", "--reserves", "1"], {"reserves": 2}),
    ("book.xlsx", ["--rate", "0.02", "--weights", "score", "--weight-scale", "2"],
     {"rate": "0.01"}),
    ("book.xlsx", ["-k", "3", "--method", "rivest"], {"method": "ticket"}),
]  # fmt: skip


def ticket_sample(work: Path, source: str, *options: str, out: str = "") -> dict[str, Any]:
    """The record of ``sample --method ticket`` (unless the options name one) of ``source``."""
    (work / "entries.csv").write_text(ENTRIES, encoding="utf-8")
    method = [] if "--method" in options else ["--method", "ticket"]
    id_column = "name" if source.endswith(".xlsx") else "id"
    out = out or ("out.xlsx" if source.endswith(".xlsx") else "out.csv")
    cli("sample", source, *method, *options, "--id", id_column, "--seed", "fair 2026", "-o", out,
        "--record", "r.json", "--overwrite", cwd=work)  # fmt: skip
    record: dict[str, Any] = json.loads((work / "r.json").read_text(encoding="utf-8"))
    return record


@pytest.mark.parametrize(
    ("source", "options", "edit"),
    TICKET_DRAWS,
    ids=lambda x: " ".join(x) if isinstance(x, list) else None,
)
def test_ticket_draws_verify(
    page: Any, work: Path, source: str, options: list[str], edit: dict[str, Any]
) -> None:
    """Records of sample --method ticket|rivest verify with their files, the Draw ticket
    column of the output included; an edited ticket or draw is refused."""
    import openpyxl

    record = ticket_sample(work, source, *options)
    out = work / record["output"]
    files: list[Path | tuple[str, bytes]] = [work / source, out]
    if "--exclude" in options:
        files.append(work / "excluded.txt")
    result = verify(page, json.dumps(record), *files)
    assert result["verified"], result["message"]
    assert "section 18" in result["message"]
    # one drawn row's ticket edited in the output
    if out.suffix == ".xlsx":
        sheet = openpyxl.load_workbook(out)["Sample"]
        assert sheet.cell(1, sheet.max_column).value == "Draw ticket"
        tampered = edited(out, "Sample", f"{sheet.cell(2, sheet.max_column).coordinate}", "0" * 64)
    else:
        lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
        assert lines[0].rstrip().endswith(",Draw ticket")
        lines[1] = lines[1].rstrip()[:-1] + ("0" if lines[1].rstrip()[-1] != "0" else "1") + "\n"
        tampered = (out.name, "".join(lines).encode())
    result = verify(page, json.dumps(record), files[0], tampered, *files[2:])
    assert not result["verified"] and result["supported"], result["message"]
    assert "differs" in result["message"]
    # the record's draw edited
    result = verify(page, with_draw(record, **edit), *files)
    assert not result["verified"] and result["supported"], result["message"]


def test_a_prize_table_record_verifies_on_the_page(page: Any, work: Path) -> None:
    """The page replays a prize table (section 9; more in tests/test_draw_day_pages.py)."""
    (work / "prizes.csv").write_text("prize,count,reserves\nGrand,1,1\nSecond,2,0\n", "utf-8")
    record = draw_record(work, "draws.csv", "--prizes", "prizes.csv")
    result = verify(page, json.dumps(record), work / "draws.csv", work / "out.csv")
    assert result["verified"], result["message"]
    assert "prizes in drawing order: Grand (1, 1 reserve(s)), Second (2)" in result["message"]


def check_ticket(page: Any, *files: Path | tuple[str, bytes], **args: str) -> dict[str, Any]:
    """window.xlshuffleCheckTicket with ``args`` (record, seed, id) and File objects."""
    payload = []
    for f in files:
        name, data = (f.name, f.read_bytes()) if isinstance(f, Path) else f
        payload.append({"name": name, "b64": base64.b64encode(data).decode("ascii")})
    result: dict[str, Any] = page.evaluate(
        """async (a) => {
          const files = a.files.map((f) => new File(
            [Uint8Array.from(atob(f.b64), (ch) => ch.charCodeAt(0))], f.name));
          return window.xlshuffleCheckTicket({...a.args, files});
        }""",
        {"args": args, "files": payload},
    )
    assert page.inner_text("#ticket-verdict") == result["message"]
    return result


def test_an_entrant_finds_their_ticket_and_place(page: Any, work: Path) -> None:
    """By ID and seed alone, the ticket; with the record and its files, or the organiser's
    listing, the place and whether drawn, without typing the row."""
    import csv

    record = ticket_sample(work, "draws.csv", "-k", "2", "--strata", "site", "--reserves", "1")
    text = json.dumps(record)
    cli("tickets", "draws.csv", "--id", "id", "--seed", "fair 2026", "--strata", "site", "-o",
        "listing.csv", cwd=work)  # fmt: skip
    listing = list(csv.DictReader((work / "listing.csv").read_text("utf-8").splitlines()))
    files = (work / "draws.csv", work / "out.csv")
    roles = {"1": "drawn: winner 1", "2": "drawn: winner 2", "3": "drawn: reserve 1"}
    for row in listing:
        row["ID"] = row.pop("id")  # the listing names the ID column as --id does
        # the seed and the ID alone (typed with spaces around it) give the ticket
        alone = check_ticket(page, id=f" {row['ID']} ", seed="fair 2026")
        assert alone["found"] and alone["ticket"] == row["Draw ticket"], alone["message"]
        # with the record and its files: the draw is verified, the place found in it
        mine = check_ticket(page, *files, id=row["ID"], record=text)
        assert mine["found"], mine["message"]
        assert (mine["ticket"], str(mine["place"])) == (row["Draw ticket"], row["Place"])
        assert mine["role"] == roles.get(row["Place"], mine["role"])
        assert f'in stratum "{row["Stratum"]}"' in mine["message"]
        if row["Place"] not in roles:
            assert mine["role"].startswith("not drawn")
    # the organiser's listing: the place, the ticket checked against the seed
    last = listing[-1]
    mine = check_ticket(page, work / "listing.csv", id=last["ID"], seed="fair 2026")
    assert mine["found"] and mine["place"] == int(last["Place"]), mine["message"]
    other = check_ticket(page, work / "listing.csv", id=last["ID"], seed="fair 2027")
    assert not other["found"] and other["message"].startswith("NOT matching")
    # another seed, an unknown ID: said, not passed
    assert "is not the record's" in check_ticket(page, id="1", record=text, seed="x")["message"]
    nobody = check_ticket(page, *files, id="99", record=text)
    assert not nobody["found"] and "not among the entrants" in nobody["message"]
    # through the page's own fields and button, the seed taken from the record
    page.fill("#record", text)
    page.set_input_files("#files", [str(p) for p in files])
    page.fill("#ticket-id", listing[0]["ID"])
    page.fill("#ticket-seed", "")
    page.click("#check-ticket")
    page.wait_for_function("() => document.getElementById('ticket-verdict').className === 'ok'")
    assert "Your place: 1 of" in page.inner_text("#ticket-verdict")
    # the record of a draw that is not a ticket draw
    plain = draw_record(work, "draws.csv", "-k", "3")
    assert "not of a ticket draw" in check_ticket(page, id="1", record=json.dumps(plain))["message"]


# ---------------------------------------------------------------- the page, built from its modules
# verifier/index.html is written by tools/make_verifier.py from the modules of verifier/src/;
# `node --test verifier/tests/` runs those modules without a browser.


def _build_tool() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_verifier", ROOT / "tools" / "make_verifier.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["index.html", "reveal.html"])
def test_committed_page_is_what_the_build_writes(name: str) -> None:
    stale = f"verifier/{name} is stale: run python tools/make_verifier.py"
    built = _build_tool().render(out=name)
    assert (ROOT / "verifier" / name).read_text(encoding="utf-8") == built, stale
    assert _build_tool().main(["--check"]) == 0


@pytest.fixture
def src_copy(tmp_path: Path) -> Path:
    import shutil

    shutil.copytree(ROOT / "verifier" / "src", tmp_path / "src")
    return tmp_path / "src"


def test_build_joins_the_modules_in_dependency_order(src_copy: Path) -> None:
    pages = _build_tool().render_all(src_copy)
    assert sorted(pages) == ["index.html", "reveal.html"]
    joined = set()
    for page in pages.values():
        order = [
            line.split('"')[1] for line in page.splitlines() if line.startswith("verifierModules[")
        ]
        assert order[0] == "protocol/bytes.js"
        assert order.index("protocol/stream.js") < order.index("protocol/shuffles.js")
        assert order.index("read/zip.js") < order.index("read/workbook.js")
        assert page.count("<script>") == 1 and "import {" not in page and "export " not in page
        joined.update(order)
    # every module is in a page, and the reveal page holds only what its entry needs
    modules = sorted(p.relative_to(src_copy).as_posix() for p in src_copy.rglob("*.js"))
    assert sorted([*joined, "page.js", "reveal.js"]) == modules
    assert "records/drawlog.js" not in pages["reveal.html"]
    assert "window.xlshuffleReveal" in pages["reveal.html"]
    assert "window.xlshuffleReveal" not in pages["index.html"]
    (src_copy / "protocol" / "seeds.js").write_text(
        (src_copy / "protocol" / "seeds.js").read_text(encoding="utf-8") + "\n// changed\n",
        encoding="utf-8",
    )
    assert "// changed" in _build_tool().render(src_copy)


@pytest.mark.parametrize(
    ("path", "edit", "message"),
    [
        ("protocol/python.js", 'import { seedBytes } from "./seeds.js";\n', "a cycle of imports"),
        ("protocol/python.js", 'import { nothing } from "./bytes.js";\n', "does not export"),
        ("protocol/python.js", 'import { x } from "./gone.js";\n', "not in verifier/src"),
        ("protocol/python.js", 'import { a as b } from "./bytes.js";\n', "import names only"),
        ("protocol/python.js", "export default 1;\n", "outside the subset"),
        ("protocol/python.js", "const x = import('./bytes.js');\n", "outside the subset"),
        ("protocol/python.js", "// </script>\n", "upset the page's script"),
        ("protocol/unused.js", "export const unused = 1;\n", "nothing imports protocol/unused.js"),
        ("reveal.html", "<script>1</script>\n", "exactly one script element"),
    ],
)
def test_build_refuses_what_it_cannot_join(
    src_copy: Path, path: str, edit: str, message: str
) -> None:
    tool = _build_tool()
    target = src_copy / path
    before = target.read_text(encoding="utf-8") if target.exists() else ""
    target.write_text(before + edit, encoding="utf-8")
    with pytest.raises(tool.BuildError, match=message):
        tool.render(src_copy)


def test_node_runs_the_protocols_vectors_and_the_readers() -> None:
    """`node --test verifier/tests/`: every vector of draw-v1.json through the page's own
    protocol modules, and the zip, workbook, cell-text, formula, list and record readers on
    small files; Node's built-in test runner, no browser. Skipped without Node, unless
    XLSHUFFLE_REQUIRE lists ``node`` (CI)."""
    import shutil

    node = shutil.which("node")
    require("node", node is not None, "install Node.js 20 or later (the Debian package nodejs)")
    assert node is not None
    done = subprocess.run(
        [node, "--test", "verifier/tests/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        ["-k", "3", "--method", "ticket", "--id", "id", "--reserves", "1"],
        ["-k", "2", "--method", "rivest", "--id", "id", "--exclude", "excluded.txt"],
        ["-k", "1", "--method", "ticket", "--id", "site", "--one-entry-per-id"],
        ["--total", "4", "--strata", "site", "--method", "ticket", "--id", "id"],
    ],
    ids=lambda o: " ".join(o),
)
def test_duckdb_records_verify(page: Any, work: Path, options: list[str]) -> None:
    """A record of the DuckDB engine (target.engine) is a list engine's record: the page
    draws it again, and says DuckDB drew it; from a Parquet file, it says it cannot."""
    pytest.importorskip("duckdb")
    cli(
        "sample",
        "draws.csv",
        *options,
        "--seed",
        "fair",
        "--engine",
        "duckdb",
        "-o",
        "out.csv",
        "--record",
        "r.json",
        cwd=work,
    )
    record = (work / "r.json").read_text(encoding="utf-8")
    files = [work / "draws.csv", work / "out.csv"]
    files += [work / "excluded.txt"] if "--exclude" in options else []
    result = verify(page, record, *files)
    assert result["verified"], result["message"]
    assert "DuckDB drew it" in result["message"]
    changed = json.loads(record)
    changed["target"]["engine"] = "spark"
    result = verify(page, json.dumps(changed), *files)
    assert not result["verified"] and not result["supported"]
    changed["target"]["engine"], changed["target"]["delimiter"] = "duckdb", None
    result = verify(page, json.dumps(changed), *files)
    assert not result["supported"] and "Parquet" in result["message"]


@pytest.mark.slow
def test_a_committed_ticket_draws_population_is_checked(page: Any, work: Path) -> None:
    from xlshuffle.draw.commit import commit_seed, commitment_sha256

    cli(
        "commit",
        "draws.csv",
        "-k",
        "2",
        "--method",
        "ticket",
        "--id",
        "id",
        "--weights",
        "tickets",
        "--weight-scale",
        "2",
        "--beacon",
        "dice",
        "-o",
        "c.json",
        cwd=work,
    )
    cli(
        "draw",
        "c.json",
        "draws.csv",
        "--reveal",
        "4 2",
        "--record",
        "r.json",
        "-o",
        "out.csv",
        "--engine",
        "duckdb",
        cwd=work,
    )
    record = json.loads((work / "r.json").read_text(encoding="utf-8"))
    assert record["commitment"]["body"]["population"]["entrants"] == 10
    result = verify(page, json.dumps(record), work / "draws.csv", work / "out.csv")
    assert result["verified"], result["message"]
    assert "the committed population" in result["message"]
    # another population, re-hashed, and the draw made again with the seed it gives, as a
    # forger would: everything holds but the population
    body = record["commitment"]["body"]
    body["population"] = {"sha256": "0" * 64, "entrants": 10}
    forged = commitment_sha256(body)
    seed = commit_seed(forged, ["4 2"])
    cli(
        "sample",
        "draws.csv",
        "-k",
        "2",
        "--method",
        "ticket",
        "--id",
        "id",
        "--weights",
        "tickets",
        "--weight-scale",
        "2",
        "--seed",
        seed,
        "--exact-seed",
        "-o",
        "f.csv",
        "--record",
        "f.json",
        cwd=work,
    )
    again = json.loads((work / "f.json").read_text(encoding="utf-8"))
    again["commitment"] = {"body": body, "sha256": forged, "salt": None}
    again["reveal"] = ["4 2"]
    result = verify(page, json.dumps(again), work / "draws.csv", work / "f.csv")
    assert not result["verified"] and "not the committed population" in result["message"]
