/**
 * Draw day in Node: a prize table's places in a record (section 9), rounds that give a
 * winner's place to the next reserve of the prize, an entrant's check by ID (section 17,
 * step 5), and the live reveal's steps and refusals. Expected values come from the vectors of tests/vectors/draw-v1.json (drawn by
 * tools/make_vectors.py on its own), written out by hand, and node:crypto's SHA-256.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";

import { commitmentHash, entrantIdHashes } from "../src/protocol/commit.js";
import { prizePlaces, prizeTotals } from "../src/protocol/prizes.js";
import { csvText } from "../src/read/lists.js";
import { entryHint, entryVerdict } from "../src/records/entry.js";
import { prizePlan } from "../src/records/prizeplan.js";
import { groupOf, prepareReveal, revealSteps } from "../src/records/reveal.js";
import { REPLACED, replaceWinner, standingTable } from "../src/records/rounds.js";
import { verifyRecord } from "../src/records/verify.js";
import { VECTORS, sha256Hex } from "./support.mjs";

const file = (name, content) => ({ name, bytes: new TextEncoder().encode(content) });

// the vector's unweighted case: 12 entrants E00..E11, seed "spring", three prizes
const CASE = VECTORS.prizes.find((c) => c.weights === null);
const TABLE = CASE.prizes.map(([prize, count, reserves]) => ({ prize, count, reserves }));
const IDS = Array.from({ length: CASE.n }, (_, i) => `E${String(i).padStart(2, "0")}`);
const LIST = "ID,Tickets\n" + IDS.map((id) => `${id},1\n`).join("");
const WON =
  "ID,Tickets,Prize,Place,Role\n" +
  CASE.drawn.map(([i, prize, place, role]) => `${IDS[i]},1,${prize},${place},${role}\n`).join("");

function prizeRecord(draw = {}, output = WON) {
  const { k, reserves } = prizeTotals(CASE.prizes);
  return {
    protocol: "xlshuffle/draw/v1",
    record_version: 2,
    command: "sample",
    seed: CASE.seed.value,
    input: "entrants.csv",
    input_sha256: sha256Hex(LIST),
    header: true,
    rows: CASE.n + 1,
    k,
    permutation: CASE.drawn.map(([i]) => i),
    output: "winners.csv",
    output_sha256: sha256Hex(output),
    target: {
      kind: "list",
      delimiter: ",",
      draw: {
        prizes: TABLE,
        method: "random",
        k,
        reserves,
        id: { column: "ID", index: 0 },
        winners: CASE.drawn.filter((d) => d[3] === "winner").map(([i]) => IDS[i]),
        ...draw,
      },
    },
  };
}

test("a prize table's record verifies: its Prize, Place and Role columns from one draw", async () => {
  const files = [file("entrants.csv", LIST), file("winners.csv", WON)];
  const result = await verifyRecord({ record: JSON.stringify(prizeRecord()), files });
  assert.ok(result.verified, result.message);
  assert.match(result.message, /prizes in drawing order: Third prize \(3, 1 reserve\(s\)\)/);
  assert.deepEqual(result.table[0], ["Third prize: winner 1", "data row 8: E07 · 1"]);
  assert.deepEqual(result.table[5][0], "Third prize: reserve 1");
});

test("a prize table edited in the record, or its places in the output, is not verified", async () => {
  const files = [file("entrants.csv", LIST), file("winners.csv", WON)];
  const swapped = TABLE.map((p) => ({ ...p }));
  [swapped[0].prize, swapped[1].prize] = [swapped[1].prize, swapped[0].prize];
  const cases = [
    [
      { prizes: swapped },
      /differs at row 2, column 3: it holds "Third prize", the draw gives "Second prize"/,
    ],
    [{ prizes: TABLE.map((p, n) => (n ? p : { ...p, count: 2 })) }, /gives 4 winner\(s\)/],
    [{ strata: { column: "Tickets", index: 1 } }, /prizes are drawn from the whole list/],
    [{ method: "systematic" }, /not a raffle's/],
    [{ prizes: [...TABLE, TABLE[0]] }, /lists a prize twice/],
  ];
  for (const [draw, message] of cases) {
    const result = await verifyRecord({ record: JSON.stringify(prizeRecord(draw)), files });
    assert.ok(!result.verified && result.supported, result.message);
    assert.match(result.message, message);
  }
  const moved = WON.replace("Second prize,1,winner", "Second prize,2,winner");
  const result = await verifyRecord({
    record: JSON.stringify(prizeRecord({}, moved)),
    files: [file("entrants.csv", LIST), file("winners.csv", moved)],
  });
  assert.match(result.message, /differs at row 5, column 4: it holds "2", the draw gives "1"/);
});

test("prizePlan maps the draw's positions as section 9 says", () => {
  const places = prizePlan(prizeRecord().target.draw);
  assert.deepEqual(places, prizePlaces(CASE.prizes));
  assert.deepEqual(
    places.map(([prize, place, role]) => `${prize} ${role} ${place}`),
    CASE.drawn.map(([, prize, place, role]) => `${prize} ${role} ${place}`),
  );
});

// ---------------------------------------------------------------- rounds

/** The vector's draw as the standing a round starts from. */
function standing() {
  return CASE.drawn.map(([i, prize, place, role]) => ({
    row: i,
    id: IDS[i],
    values: [IDS[i], "1"],
    prize,
    place,
    role,
    note: "",
  }));
}

test("a round gives the winner's place to the first reserve of their prize not yet called", () => {
  // Third prize: E07, E02, E06 win; E08 is its only reserve
  const one = replaceWinner(standing(), " E02 ", "did not answer");
  assert.deepEqual(one.change, {
    replace: { id: "E02", prize: "Third prize", place: 2 },
    reason: "did not answer",
    given_to: { id: "E08", prize: "Third prize", reserve: 1 },
  });
  const byId = Object.fromEntries(one.placed.map((p) => [p.id, p]));
  assert.equal(byId.E02.role, REPLACED);
  assert.equal(byId.E08.role, "winner");
  assert.equal(byId.E08.place, 2);
  assert.equal(byId.E08.note, "replaces E02 (reserve 1)");
  // Grand prize has two reserves, called in rank order; then none is left
  const two = replaceWinner(one.placed, "E10", "declined");
  assert.equal(two.change.given_to.id, "E01");
  const three = replaceWinner(two.placed, "E01", "moved away");
  assert.deepEqual(three.change.given_to, { id: "E03", prize: "Grand prize", reserve: 2 });
  assert.throws(() => replaceWinner(three.placed, "E03", "x"), /no reserve of "Grand prize"/);
  // another prize's reserve is never called; a reserve or a replaced winner is not replaced
  assert.throws(() => replaceWinner(one.placed, "E07", "x"), /no reserve of "Third prize"/);
  assert.throws(() => replaceWinner(one.placed, "E00", "x"), /is a reserve, not a winner/);
  assert.throws(() => replaceWinner(one.placed, "E02", "x"), /is a replaced, not a winner/);
  assert.throws(() => replaceWinner(one.placed, "E05", "x"), /no entrant drawn/);
  assert.throws(() => replaceWinner(one.placed, "E06", "  "), /no reason/);
});

test("a round's table is written as xlshuffle writes CSV", () => {
  const { placed } = replaceWinner(standing(), "E11", 'moved, "far"');
  const text = csvText(standingTable(["ID", "Tickets"], placed, true));
  const lines = text.split("\n");
  assert.equal(lines[0], "ID,Tickets,Prize,Place,Role,Note");
  assert.equal(lines[4], 'E11,1,Second prize,1,replaced,"moved, ""far"""');
  assert.equal(lines[7], "E00,1,Second prize,1,winner,replaces E11 (reserve 1)");
  assert.equal(csvText([[""], ["a\rb", "c\td"]], "\t"), '""\n"a\rb"\t"c\td"\n');
});

test("a chain of rounds verifies from the draw on; a round against the rules does not", async () => {
  const draw = JSON.stringify(prizeRecord(), null, 2);
  const table =
    "ID,Tickets,Prize,Place,Role,Note\n" +
    CASE.drawn
      .map(([i, prize, place, role]) => {
        if (IDS[i] === "E02") return `E02,1,${prize},${place},replaced,did not answer\n`;
        if (IDS[i] === "E08") return "E08,1,Third prize,2,winner,replaces E02 (reserve 1)\n";
        return `${IDS[i]},1,${prize},${place},${role},\n`;
      })
      .join("");
  const round = {
    protocol: "xlshuffle/draw/v1",
    record_version: 2,
    command: "redraw",
    seed: CASE.seed.value,
    input: "entrants.csv",
    input_sha256: sha256Hex(LIST),
    header: true,
    previous: { file: "draw.json", sha256: sha256Hex(draw) },
    replace: { id: "E02", prize: "Third prize", place: 2 },
    reason: "did not answer",
    given_to: { id: "E08", prize: "Third prize", reserve: 1 },
    output: "round1.csv",
    output_sha256: sha256Hex(table),
  };
  const files = [file("entrants.csv", LIST), file("draw.json", draw), file("round1.csv", table)];
  const ok = await verifyRecord({ record: JSON.stringify(round), files });
  assert.ok(ok.verified, ok.message);
  assert.match(ok.message, /round 1 \(round1\.csv\): E02's place went to E08/);
  const other = { ...round, given_to: { id: "E00", prize: "Second prize", reserve: 1 } };
  const bad = await verifyRecord({ record: JSON.stringify(other), files });
  assert.match(bad.message, /the rules give it to "E08"/);
  const edited = draw.replace('"seed": "spring"', '"seed": "summer"');
  const unlinked = await verifyRecord({
    record: JSON.stringify(round),
    files: [file("entrants.csv", LIST), file("draw.json", edited), file("round1.csv", table)],
  });
  assert.match(unlinked.message, /draw\.json is not the record this round follows/);
  const wrongTable = table.replace("E08,1,Third prize,2", "E08,1,Third prize,1");
  const mismatch = await verifyRecord({
    record: JSON.stringify(round),
    files: [file("entrants.csv", LIST), file("draw.json", draw), file("round1.csv", wrongTable)],
  });
  assert.match(mismatch.message, /round's table round1\.csv differs at line 7/);
});

// ---------------------------------------------------------------- an entrant's check by ID

test("an entrant checks their entry by ID alone, and whether the record names them a winner", async () => {
  const salt = "00112233445566778899aabbccddeeff";
  const hash = (id) =>
    createHash("sha256")
      .update(salt + "\n" + id)
      .digest("hex");
  const ids = ["E07", " E02", "Zoe\u0308", "E07", ""]; // canonical, distinct, not blank
  const want = ["E07", "E02", "Zo\u00eb"].map(hash).sort();
  assert.deepEqual(await entrantIdHashes(salt, ids), want);
  const body = {
    commitment_version: 2,
    entrants: { salted_sha256: [], ids_salted_sha256: want },
    draw: { request: { kind: "sample", sample: { draw: { id: "ID" } } } },
  };
  const sha256 = await commitmentHash(body);
  const record = JSON.stringify({ ...prizeRecord(), commitment: { body, sha256, salt } });
  assert.match(entryHint(record), /type only your ID \(its "ID" column\)/);
  const won = await entryVerdict({ record, id: "  E07 " });
  assert.ok(won.found && won.won, won.message);
  assert.match(won.message, /names you a winner: Third prize, place 1/);
  const lost = await entryVerdict({ record, id: "Zoë" });
  assert.ok(lost.found && !lost.won, lost.message);
  assert.ok(!(await entryVerdict({ record, id: "E05" })).found);
  // the commitment file alone: the salt comes from the organiser
  const commitment = JSON.stringify({ commitment: body, sha256 });
  assert.match((await entryVerdict({ record: commitment, id: "E07" })).message, /salt is revealed/);
  assert.ok((await entryVerdict({ record: commitment, id: "E07", salt })).found);
  const forged = JSON.stringify({ commitment: body, sha256: "0".repeat(64) });
  assert.match((await entryVerdict({ record: forged, id: "E07", salt })).message, /not hash/);
});

// ---------------------------------------------------------------- the live reveal

test("the reveal shows each group's heading alone, then its names one at a time", () => {
  const winners = CASE.drawn.map(([i, prize, place, role]) => ({ prize, place, role, id: IDS[i] }));
  const steps = revealSteps(winners);
  assert.equal(steps.length, winners.length + 6); // six groups: three prizes, their reserves
  assert.deepEqual(steps[0], { heading: "Third prize", shown: [] });
  assert.deepEqual(steps[3], { heading: "Third prize", shown: [0, 1, 2] });
  assert.deepEqual(steps[4], { heading: "Second prize", shown: [] });
  assert.deepEqual(steps.at(-1), { heading: "Reserves for Grand prize", shown: [7, 8] });
  const plain = [
    { prize: null, place: 1, role: "winner", id: "a", stratum: "N" },
    { prize: null, place: 1, role: "reserve", id: "b", stratum: "N" },
    { prize: null, place: 1, role: "winner", id: "c" },
  ];
  assert.deepEqual(plain.map(groupOf), ["Winners in N", "Reserves in N", "Winners"]);
});

test("the reveal refuses, in one line and with no winner, what it cannot check", async () => {
  const body = {
    commitment_version: 2,
    protocol: "xlshuffle/draw/v1",
    beacon: "dice",
    list: { file: "entrants.csv", sheet: "", selection: "rows 1-13", header: true, rows: 12 },
    draw: { command: "sample", request: { kind: "sample", sample: { k: 2, draw: null } } },
  };
  body.list.sha256 = createHash("sha256")
    .update(
      LIST.trim()
        .split("\n")
        .map((line) => JSON.stringify(line.split(",")) + "\n")
        .join(""),
    )
    .digest("hex");
  const sha256 = await commitmentHash(body);
  const commitment = JSON.stringify({ commitment: body, sha256 });
  const files = [file("entrants.csv", LIST)];
  const shuffle = {
    ...body,
    draw: { command: "shuffle", request: { kind: "shuffle", shuffle: {} } },
  };
  const shuffled = JSON.stringify({ commitment: shuffle, sha256: await commitmentHash(shuffle) });
  const ok = await prepareReveal({ commitment, files, reveal: "3 4" });
  assert.ok(ok.ok, ok.message);
  assert.equal(ok.winners.length, 2);
  assert.equal(ok.shown.seed, `xlshuffle-commit:${sha256}/3 4/`);
  const cases = [
    [{ commitment: "{", files, reveal: "3" }, /the commitment is not JSON/],
    [{ commitment, files, reveal: "" }, /no revealed value was given/],
    [{ commitment, files: [file("entrants.csv", LIST + "E99,1\n")] }, /not the committed list/],
    [{ commitment, files: [] }, /give the committed list \(entrants\.csv\)/],
    [
      { commitment: JSON.stringify({ commitment: { ...body, beacon: "coin" }, sha256 }), files },
      /changed since it was made/,
    ],
    [{ commitment: shuffled, files }, /the commitment is to a shuffle/],
  ];
  for (const [args, message] of cases) {
    const got = await prepareReveal({ reveal: "3 4", ...args });
    assert.ok(!got.ok, JSON.stringify(args));
    assert.deepEqual(got.winners, []);
    assert.match(got.message, /^Refused: .*Nothing is revealed\.$/);
    assert.match(got.message, message);
  }
});
