/**
 * Draw protocol v1's vectors (tests/vectors/draw-v1.json) through the page's own
 * implementation of it (verifier/src/protocol/), in Node: every vector the page runs in
 * Chromium (tests/test_verifier_page.py), with the same calls.
 */

import assert from "node:assert/strict";
import { test } from "node:test";

import { allocationList } from "../src/protocol/allocation.js";
import { cell, monetaryUnit, musSelect, systematic } from "../src/protocol/audits.js";
import { sha256, toHex } from "../src/protocol/bytes.js";
import {
  canonicalJson,
  commitSeed,
  commitmentHash,
  entrantHashes,
  listDigest,
} from "../src/protocol/commit.js";
import { canonicalId, exclusionDigest, keptIndexes } from "../src/protocol/exclusions.js";
import { balancedOrders, personOrder, personStream, williams } from "../src/protocol/orders.js";
import { prizePlaces } from "../src/protocol/prizes.js";
import { range } from "../src/protocol/python.js";
import { seedBytes } from "../src/protocol/seeds.js";
import { deal, groups, permutation, shuffle, shuffleGrid } from "../src/protocol/shuffles.js";
import { largestRemainder, strata, stratumStream } from "../src/protocol/strata.js";
import { Stream } from "../src/protocol/stream.js";
import { balancedTeams } from "../src/protocol/teams.js";
import {
  populationDigest,
  rivestTicket,
  ticket,
  ticketDraw,
  ticketOrder,
  ticketsAtScale,
} from "../src/protocol/ticketdraws.js";
import { weighted } from "../src/protocol/tickets.js";
import { drawRows } from "../src/records/drawplan.js";
import { freshRound } from "../src/records/rounds.js";
import { VECTORS, seedOf } from "./support.mjs";

const hex = (word) => word.toString(16).padStart(16, "0");

async function words(stream, count) {
  const out = [];
  for (let i = 0; i < count; i++) out.push(hex(await stream.next()));
  return out;
}

test("seed bytes", () => {
  for (const c of VECTORS.seed_bytes) assert.equal(toHex(seedBytes(seedOf(c.seed))), c.hex);
});

test("the stream's first words", async () => {
  for (const c of VECTORS.words) {
    assert.deepEqual(await words(await Stream.ofSeed(seedOf(c.seed)), 8), c.first8);
  }
});

test("shuffles and deals", async () => {
  for (const c of VECTORS.shuffles) {
    assert.deepEqual(await permutation(c.n, seedOf(c.seed)), c.permutation);
  }
  for (const c of VECTORS.deals)
    assert.deepEqual(await deal(range(c.n), c.k, seedOf(c.seed)), c.dealt);
});

test("the specification's own examples", async () => {
  const got = [
    (
      await shuffle(
        range(10).map((i) => i + 1),
        42,
      )
    ).join(" "),
    (await shuffle("ABCDEFGHIJ", "2026 raffle")).join(""),
    (await deal(range(52), 5, "xlshuffle")).join(" "),
    (await permutation(100, "Zo\u00eb")).join() === (await permutation(100, "Zoe\u0308")).join(),
    (await weighted([1, 5, 0, 2, 2], 4, "2026 raffle")).join(" "),
  ];
  assert.deepEqual(got, ["9 10 4 5 7 6 1 2 8 3", "DJFECGAIHB", "1 41 36 20 5", true, "1 3 4 0"]);
});

test("randbelow's rejection, and a long stream by its SHA-256", async () => {
  const rej = VECTORS.randbelow_rejection,
    long = VECTORS.long_stream;
  const s = await Stream.ofSeed(seedOf(rej.seed));
  const values = [];
  for (let i = 0; i < rej.values.length; i++) values.push(String(await s.randbelow(BigInt(rej.m))));
  assert.deepEqual(values, rej.values.map(String));
  const t = await Stream.ofSeed(seedOf(long.seed));
  const blob = new Uint8Array(8 * long.words);
  const view = new DataView(blob.buffer);
  for (let i = 0; i < long.words; i++) view.setBigUint64(8 * i, await t.next(), false);
  assert.equal(toHex(await sha256(blob)), long.sha256);
});

test("grids and groups", async () => {
  const rows = VECTORS.within_rows,
    cols = VECTORS.within_columns,
    grp = VECTORS.groups;
  assert.deepEqual(await shuffleGrid(rows.grid, "within-rows", seedOf(rows.seed)), rows.result);
  assert.deepEqual(await shuffleGrid(cols.grid, "within-columns", seedOf(cols.seed)), cols.result);
  assert.deepEqual(await groups(grp.n, grp.k, seedOf(grp.seed)), grp.groups);
});

test("weighted draws and reserves", async () => {
  for (const c of VECTORS.weighted) {
    assert.deepEqual(await weighted(c.weights, c.k, seedOf(c.seed)), c.drawn);
  }
  const res = VECTORS.reserves,
    seed = seedOf(res.seed),
    count = res.winners + res.reserves;
  const drawn = await weighted(res.weights, count, seed);
  const placings = drawn.map((i, p) =>
    p < res.winners ? [p + 1, i, "winner", p + 1] : [p + 1, i, "reserve", p - res.winners + 1],
  );
  assert.deepEqual(placings, res.placings);
  assert.deepEqual(await deal(range(res.weights.length), count, seed), res.plain);
});

test("exclusions", async () => {
  const c = VECTORS.exclusions;
  const kept = keptIndexes(c.ids, c.excluded);
  assert.deepEqual(kept, c.kept);
  assert.equal(await exclusionDigest(c.excluded), c.digest);
  assert.deepEqual(await deal(kept, c.k, seedOf(c.seed)), c.drawn);
});

test("sub-streams, strata and largest-remainder shares", async () => {
  for (const c of VECTORS.substreams) {
    assert.deepEqual(await words(await stratumStream(seedOf(c.seed), c.label), 4), c.first4);
  }
  for (const c of VECTORS.strata) {
    const got = await strata(seedOf(c.seed), c.labels, c.mode, c.value, c.weights, c.take_all);
    assert.deepEqual(got, c.result);
  }
  for (const c of VECTORS.allocation)
    assert.deepEqual(largestRemainder(c.sizes, c.total), c.shares);
});

test("one entry per ID and small strata taken whole (drawRows)", async () => {
  const cases = [
    ...VECTORS.one_entry_per_id.map((c) => [
      c,
      { ids: c.ids, labels: c.strata, weights: c.weights, excluded: c.excluded },
      { perId: true, takeAll: c.take_all },
    ]),
    ...VECTORS.small_strata.map((c) => [
      c,
      { labels: c.labels, weights: c.weights },
      { takeAll: true, method: c.method },
    ]),
  ];
  assert.equal(cases.length, 21);
  for (const [c, columns, rules] of cases) {
    const got = await drawRows(seedOf(c.seed), c.k, { ...columns, reserves: c.reserves, ...rules });
    // a systematic start comes back as a decimal text, as the page gives every BigInt
    const want = c.parts.map((p) =>
      "start" in p && p.start !== null ? { ...p, start: String(p.start) } : p,
    );
    assert.deepEqual(got, want);
  }
});

test("audit selections", async () => {
  for (const c of VECTORS.systematic) {
    const r = await systematic(String(c.n), c.k, seedOf(c.seed));
    const start = r.start === null ? null : r.start.toString();
    assert.deepEqual(
      [start, r.items.map(String)],
      [c.start === null ? null : String(c.start), c.items.map(String)],
    );
  }
  for (const c of VECTORS.monetary_unit) {
    const r = await monetaryUnit(c.amounts, c.k, seedOf(c.seed));
    const start = r.start === null ? null : r.start.toString();
    assert.deepEqual(
      [start, r.units.map(String), r.selected, r.top],
      [c.start === null ? null : String(c.start), c.units.map(String), c.selected, c.top],
    );
  }
});

test("section 20: cell selections, amounts set aside, top strata", async () => {
  for (const c of VECTORS.cell) {
    const r = await cell(c.amounts, c.k, seedOf(c.seed));
    assert.deepEqual(
      [r.starts.map(String), r.units.map(String), r.selected, r.certain],
      [c.starts.map(String), c.units.map(String), c.selected, c.certain],
    );
  }
  for (const c of VECTORS.mus_strata) {
    const r = await musSelect(c.amounts, c.k, seedOf(c.seed), c.cutoff, c.cells);
    assert.deepEqual([r.setAside, r.top, r.selected], [c.set_aside, c.top, c.selected]);
  }
});

test("per-person and counterbalanced orders", async () => {
  for (const c of VECTORS.person_orders) {
    const seed = seedOf(c.seed);
    assert.deepEqual(await words(await personStream(seed, c.id), 4), c.first4);
    assert.deepEqual(await personOrder(c.n, c.k, seed, c.id), c.order);
  }
  for (const c of VECTORS.balanced_orders) {
    assert.deepEqual(williams(c.n), c.design);
    assert.deepEqual(await balancedOrders(c.n, c.people, c.k, seedOf(c.seed)), c.orders);
  }
});

test("allocation lists", async () => {
  for (const c of VECTORS.allocation_lists) {
    const rows = await allocationList(
      seedOf(c.seed),
      c.arms,
      c.ratio,
      c.n,
      c.block_sizes,
      c.strata,
    );
    assert.deepEqual(rows, c.rows);
  }
});

test("balanced teams", async () => {
  for (const c of VECTORS.balanced_teams) {
    assert.deepEqual(await balancedTeams(c.labels, c.k, seedOf(c.seed)), c.teams);
  }
  for (const c of VECTORS.balanced_teams_avoid) {
    assert.deepEqual(await balancedTeams(c.labels, c.k, seedOf(c.seed), c.before), c.teams);
  }
});

test("commit, then draw", async () => {
  for (const c of VECTORS.commit_canonical_json) {
    assert.equal(canonicalJson(c.value), c.canonical);
    assert.equal(toHex(await sha256(new TextEncoder().encode(canonicalJson(c.value)))), c.sha256);
  }
  const digest = VECTORS.commit_list_digest,
    seeds = VECTORS.commit_seed;
  assert.equal(await listDigest(digest.rows), digest.sha256);
  assert.equal(await commitmentHash(seeds.commitment), seeds.sha256);
  for (const c of seeds.cases) {
    const seed = commitSeed(seeds.sha256, c.reveal);
    assert.equal(seed, c.seed);
    assert.deepEqual(await deal(range(10), 3, seed), c.deal_3_of_10);
  }
  const salted = VECTORS.commit_entrant_hashes;
  assert.deepEqual(await entrantHashes(salted.salt, salted.rows), [...salted.sha256].sort());
});

test("ticket draws (section 18): tickets, orders, Rivest's order, population digests", async () => {
  for (const c of VECTORS.tickets) {
    assert.equal(await ticket(seedOf(c.seed), c.id, c.number), c.ticket, JSON.stringify(c));
  }
  for (const c of VECTORS.ticket_orders) {
    const { k, rate, reserves, weights } = c;
    const got = await ticketOrder(c.ids, seedOf(c.seed), { k, rate, reserves, weights });
    assert.deepEqual(got, c.order, JSON.stringify({ k, rate, reserves, weights }));
  }
  for (const c of VECTORS.rivest_orders) {
    const got = await ticketOrder(c.ids, seedOf(c.seed), { method: "rivest" });
    assert.deepEqual(got, c.order);
  }
  for (const c of VECTORS.population_digests) {
    assert.equal(await populationDigest(c.ids, c.weights), c.digest);
  }
});

test("ticket draws: the specification's examples, rates and scales", async () => {
  const five = ["ann", "bo", "cy", "di", "ed"];
  const named = async (ids, opts) => (await ticketOrder(ids, "2026", opts)).map((i) => ids[i]);
  assert.deepEqual(await named(five), ["bo", "ed", "di", "ann", "cy"]);
  assert.deepEqual(await named(five.slice(0, 4)), ["bo", "di", "ann", "cy"]);
  const rivest = ["A-1", "A-2", "A-3", "B-1", "B-2", "B-3"];
  const byRivest = await ticketOrder(rivest, 314159, { method: "rivest" });
  assert.equal(byRivest.map((i) => rivest[i]).join(" "), "B-2 B-3 A-3 A-2 B-1 A-1");
  assert.equal((await rivestTicket(314159, "B-2")).slice(0, 12), "0.4103108580");
  // a rate as a decimal text draws what the same rate as a fraction draws; 1 draws everyone
  const ids = Array.from({ length: 60 }, (_, i) => `B-${i}`);
  for (const [text, fraction] of [
    ["0.05", [1, 20]],
    [".5", [1, 2]],
    ["1", [1, 1]],
  ]) {
    const a = await ticketDraw(ids, "audit", { rate: text, reserves: 1 });
    const b = await ticketDraw(ids, "audit", { rate: fraction, reserves: 1 });
    assert.deepEqual(a.drawn, b.drawn);
    assert.equal(a.won, b.won);
  }
  assert.equal((await ticketDraw(ids, "audit", { rate: "1" })).won, 60);
  await assert.rejects(ticketDraw(ids, "audit", { rate: "0" }), /more than 0/);
  await assert.rejects(ticketDraw(["a", " a"], "x"), /share the ID/);
  await assert.rejects(ticketDraw(["a", ""], "x"), /blank/);
  // weights at a stated scale: no common divisor taken
  assert.deepEqual(ticketsAtScale(["2.5", "3", "0", "1.50"], 10), [25n, 30n, 0n, 15n]);
  assert.throws(() => ticketsAtScale(["2.5"]), /not a whole number of tickets at scale 1/);
  // an entrant holding w tickets has the smallest of its numbers 0 .. w-1; 0 tickets, none
  const { order } = await ticketDraw(five, "2026", { weights: [3, 1, 0, 1, 1] });
  const ann = [0, 1, 2].map((j) => ticket("2026", "ann", j));
  assert.equal(order.find((t) => t.id === "ann").ticket, (await Promise.all(ann)).sort()[0]);
  assert.equal(order.find((t) => t.id === "ann").tickets, 3n);
  assert.ok(!order.some((t) => t.id === "cy"));
  assert.deepEqual(
    await ticketOrder(five, "2026", { weights: [1, 1, 1, 1, 1] }),
    await ticketOrder(five, "2026"),
  );
});

test("prize tables: one draw of every winner and reserve, its places given to the prizes", async () => {
  for (const c of VECTORS.prizes) {
    const places = prizePlaces(c.prizes);
    const seed = seedOf(c.seed);
    const drawn = c.weights
      ? await weighted(c.weights, places.length, seed)
      : await deal(range(c.n), places.length, seed);
    assert.deepEqual(
      drawn.map((i, p) => [i, ...places[p]]),
      c.drawn,
    );
  }
});

test("fresh rounds: the place drawn again over the entrants not yet drawn (section 19)", async () => {
  for (const c of VECTORS.fresh_rounds) {
    const body = c.round;
    const ids = c.ids.map(String);
    const out = new Set(c.excluded.map(canonicalId));
    const excluded = range(ids.length).filter((i) => out.has(canonicalId(ids[i])));
    const weighted = c.weights !== null || c.one_entry_per_id;
    const d = {
      method: c.method === "random" && weighted ? "weighted" : c.method,
      k: 1,
      reserves: 0,
      id: { column: "ID", index: 0 },
      weights: c.weights === null ? null : { column: "Tickets", index: 1 },
      strata: null,
      amount: null,
      allocation: null,
      exclusion: { rows: excluded },
    };
    if (c.one_entry_per_id) d.one_entry_per_id = true;
    const draw = { input: "e.csv", commitment: { sha256: body.draw }, target: { draw: d } };
    // the standing before: the drawn entrants, the first the winner replaced, no reserve left
    const placed = c.drawn.map((id, n) => ({
      row: ids.findIndex((x) => canonicalId(x) === id),
      id,
      values: [id],
      prize: n === 0 ? body.replace.prize : "other",
      place: 1,
      role: "winner",
      note: "",
    }));
    const r = {
      previous: body.previous,
      replace: body.replace,
      reason: body.reason,
      fresh: { commitment: { body, sha256: c.sha256 }, reveal: c.reveal, seed: c.seed },
    };
    const textOf = (i, j) => (j === 0 ? ids[i] : String((c.weights || [])[i] ?? ""));
    const idOf = (i) => canonicalId(ids[i]);
    const step = await freshRound(placed, r, {
      draw,
      n: ids.length,
      textOf,
      idOf,
      valuesOf: (i) => [ids[i]],
    });
    assert.equal(step.placed.at(-1).row, c.row);
    assert.deepEqual(step.change.given_to, {
      id: idOf(c.row),
      prize: body.replace.prize,
      pool: body.pool.entrants,
    });
    assert.equal(step.placed[0].role, "replaced");
  }
});

test("every vector is run here", () => {
  // prettier-ignore
  const run = [
    "protocol", "seed_bytes", "words", "shuffles", "deals", "randbelow_rejection", "long_stream",
    "within_rows", "within_columns", "groups", "weighted", "reserves", "exclusions", "substreams",
    "allocation", "strata", "systematic", "monetary_unit", "person_orders", "balanced_orders",
    "allocation_lists", "balanced_teams", "balanced_teams_avoid", "commit_canonical_json",
    "commit_list_digest", "commit_seed", "commit_entrant_hashes", "one_entry_per_id", "small_strata",
    "tickets", "ticket_orders", "rivest_orders", "population_digests", "prizes", "fresh_rounds",
    "cell", "mus_strata",
  ];
  assert.deepEqual(Object.keys(VECTORS).sort(), run.sort());
  assert.equal(VECTORS.protocol, "xlshuffle/draw/v1");
});
