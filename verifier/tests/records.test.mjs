/**
 * Records checked against their files in Node, through the page's verdict without the page
 * (records/verify.js, records/entry.js): the records xlshuffle 0.1 wrote with their
 * workbooks (tests/fixtures/records_v1), a list's record and a deal's JSON written here from
 * the specification's examples, and tampered copies of each, which must not verify.
 */

import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { test } from "node:test";

import { commitmentHash, entrantHashes } from "../src/protocol/commit.js";
import { ticket } from "../src/protocol/ticketdraws.js";
import { entryVerdict } from "../src/records/entry.js";
import { ticketVerdict } from "../src/records/ticketcheck.js";
import { verifyRecord } from "../src/records/verify.js";
import { DOMParser } from "./dom.mjs";
import { bytesOf, sha256Hex, textOf } from "./support.mjs";

globalThis.DOMParser = DOMParser; // Node has none: the readers take this one

const V1 = "tests/fixtures/records_v1/";
const file = (name, content) => ({
  name,
  bytes: typeof content === "string" ? new TextEncoder().encode(content) : content,
});

const v1Names = readdirSync(new URL(`../../${V1}`, import.meta.url))
  .filter((n) => n.endsWith(".json"))
  .sort();

for (const name of v1Names) {
  test(`a version 1 record verifies with its files: ${name}`, async () => {
    const record = JSON.parse(textOf(V1 + name));
    const output = record.output || "winners.csv";
    const files = [
      file(record.input, bytesOf(V1 + record.input)),
      file(output, bytesOf(V1 + output)),
    ];
    const result = await verifyRecord({ record: JSON.stringify(record), files });
    assert.ok(result.verified, result.message);
    assert.match(result.message, /^Verified: /);
    const other = await verifyRecord({
      record: JSON.stringify({ ...record, seed: "other" }),
      files,
    });
    assert.ok(!other.verified && other.supported, other.message);
  });
}

// the specification's example: "42" shuffles 1..10 into 9 10 4 5 7 6 1 2 8 3
const NAMES = "ABCDEFGHIJ".split("");
const ORDER = [9, 10, 4, 5, 7, 6, 1, 2, 8, 3];
const INPUT = "name\n" + NAMES.map((x) => x + "\n").join("");
const OUTPUT = "name\n" + ORDER.map((i) => NAMES[i - 1] + "\n").join("");

function listRecord(input = INPUT, output = OUTPUT) {
  return {
    protocol: "xlshuffle/draw/v1",
    record_version: 2,
    command: "shuffle",
    seed: "42",
    input: "in.csv",
    input_sha256: sha256Hex(input),
    header: true,
    mode: "rows",
    rows: 11,
    permutation: ORDER.map((i) => i - 1),
    output: "out.csv",
    output_sha256: sha256Hex(output),
    target: { kind: "list", delimiter: "," },
  };
}

test("a list's shuffle verifies, its files in either order", async () => {
  const files = [file("in.csv", INPUT), file("out.csv", OUTPUT)];
  for (const given of [files, [...files].reverse()]) {
    const result = await verifyRecord({ record: JSON.stringify(listRecord()), files: given });
    assert.ok(result.verified, result.message);
    assert.deepEqual(result.table[0], ["position 1", "data row 9: I"]);
  }
});

test("a sample's record naming a file of rows set aside says this page does not check it", async () => {
  const files = [file("in.csv", INPUT), file("out.csv", OUTPUT)];
  const record = {
    ...listRecord(),
    set_aside_output: "set-aside.csv",
    set_aside_output_sha256: "ab".repeat(32),
  };
  const result = await verifyRecord({ record: JSON.stringify(record), files });
  assert.ok(result.verified, result.message);
  assert.match(
    result.message,
    /Not checked here: the rows set aside, written to set-aside\.csv \(SHA-256 (ab){32}\); xlshuffle verify RECORD --input INPUT --set-aside-output set-aside\.csv checks them\.$/,
  );
  const plain = await verifyRecord({ record: JSON.stringify(listRecord()), files });
  assert.doesNotMatch(plain.message, /set aside/);
});

test("a tampered list record, input or output is not verified, and says where", async () => {
  const files = [file("in.csv", INPUT), file("out.csv", OUTPUT)];
  const check = (record, given = files) =>
    verifyRecord({ record: JSON.stringify(record), files: given });
  let result = await check({ ...listRecord(), seed: "43" });
  assert.ok(!result.verified && result.supported);
  assert.match(result.message, /the seed "43" does not give the record's order: at position 1/);
  const swapped = OUTPUT.replace("I\nJ\n", "J\nI\n");
  result = await check(listRecord(INPUT, swapped), [
    file("in.csv", INPUT),
    file("out.csv", swapped),
  ]);
  assert.match(
    result.message,
    /the output out\.csv differs at row 2, column 1: it holds "J", the draw gives "I"/,
  );
  const edited = INPUT.replace("C\n", "Cy\n");
  result = await check(listRecord(), [file("in.csv", edited), file("out.csv", OUTPUT)]);
  assert.match(result.message, /the input in\.csv is not the file the draw read/);
  result = await check({ ...listRecord(), record_version: 3 });
  assert.ok(!result.verified && !result.supported);
  assert.match(result.message, /^Cannot check this record: record version 3/);
});

test("a deal's JSON verifies by its deck, and a changed hand does not", async () => {
  // the specification's example: "xlshuffle" deals 1 41 36 20 5 of 0..51, one deck's cards
  const record = {
    protocol: "xlshuffle/draw/v1",
    seed: "xlshuffle",
    hands: [["2♣", "3♠", "J♥", "8♦", "6♣"]],
  };
  let result = await verifyRecord({ record: JSON.stringify(record) });
  assert.ok(result.verified, result.message);
  assert.match(result.message, /from 1 deck\(s\) of 52 cards/);
  result = await verifyRecord({
    record: JSON.stringify({ ...record, hands: [["2♣", "3♠", "J♥", "8♦", "7♣"]] }),
  });
  assert.ok(!result.verified && result.supported, result.message);
  result = await verifyRecord({
    record: JSON.stringify({ ...record, deck: 52, hands: [[2, 42, 37, 21, 6]] }),
  });
  assert.ok(result.verified, result.message);
});

test("what is no record cannot be checked", async () => {
  for (const record of ["", "hello", '{"protocol": "xlshuffle/draw/v2"}', "[1"]) {
    const result = await verifyRecord({ record });
    assert.ok(!result.verified && !result.supported, record);
    assert.match(result.message, /^Cannot check this record: /);
  }
});

test("an entrant finds their own row among a commitment's entrant hashes", async () => {
  const salt = "00112233445566778899aabbccddeeff";
  const rows = [
    ["Ann", "ann@example.com", "3"],
    ["Bo", "", "1"],
    ["Smith, Jo", "jo@example.com", "2"],
  ];
  const body = { entrants: { salted_sha256: await entrantHashes(salt, rows) } };
  const commitment = { body, sha256: await commitmentHash(body), salt };
  const record = JSON.stringify({ commitment });
  assert.ok((await entryVerdict({ record, row: "Bo,,1" })).found);
  assert.ok((await entryVerdict({ record, row: '"Smith, Jo",jo@example.com,2\n' })).found);
  assert.ok((await entryVerdict({ record, row: ["Ann", "ann@example.com", "3", ""] })).found);
  const missing = await entryVerdict({ record, row: "Bo,,2" });
  assert.ok(!missing.found);
  assert.match(missing.message, /^NOT found: no entrant hash of the commitment/);
  const forged = JSON.stringify({ commitment: { ...commitment, sha256: "0".repeat(64) } });
  assert.match((await entryVerdict({ record: forged, row: "Bo,,1" })).message, /does not hash to/);
});

// section 18's example: seed "2026" orders ann bo cy di ed as bo ed di ann cy
const PEOPLE = ["ann", "bo", "cy", "di", "ed"];
const TICKETED = "id\n" + PEOPLE.join("\n") + "\n";

async function ticketRecord() {
  const drawn = [1, 4, 3]; // two winners, then a reserve
  const roles = ["winner,1", "winner,2", "reserve,1"];
  const rows = await Promise.all(
    drawn.map(async (i, p) => `${PEOPLE[i]},${roles[p]},${await ticket("2026", PEOPLE[i])}`),
  );
  const output = "id,Role,Rank,Draw ticket\n" + rows.join("\n") + "\n";
  const draw = {
    method: "ticket",
    k: 2,
    reserves: 1,
    id: { column: "id", index: 0 },
    parts: [{ stratum: null, size: 5, k: 2, drawn: 3 }],
    winners: ["bo", "ed"],
  };
  const record = {
    ...listRecord(TICKETED, output),
    command: "sample",
    seed: "2026",
    rows: 6,
    k: 2,
    permutation: drawn,
    target: { kind: "list", delimiter: ",", draw },
  };
  return { record, files: [file("in.csv", TICKETED), file("out.csv", output)], output };
}

test("a ticket draw's record verifies with its Ticket column; an edited ticket does not", async () => {
  const { record, files, output } = await ticketRecord();
  let result = await verifyRecord({ record: JSON.stringify(record), files });
  assert.ok(result.verified, result.message);
  assert.match(result.message, /by each ID's own tickets \(section 18\)/);
  const edited = output.replace(
    /,([0-9a-f])([0-9a-f]{63})\n/,
    (m, a, b) => `,${a === "0" ? "1" : "0"}${b}\n`,
  );
  result = await verifyRecord({
    record: JSON.stringify(record),
    files: [files[0], file("out.csv", edited)],
  });
  assert.ok(!result.verified && result.supported);
  assert.match(result.message, /differs at row 2, column 4/);
});

test("an entrant finds their ticket by ID and seed, and their place with the files", async () => {
  const { record, files } = await ticketRecord();
  const text = JSON.stringify(record);
  const alone = await ticketVerdict({ id: " di ", seed: "2026" });
  assert.ok(alone.found, alone.message);
  assert.equal(alone.ticket, await ticket("2026", "di"));
  const places = {
    bo: [1, "drawn: winner 1"],
    ed: [2, "drawn: winner 2"],
    di: [3, "drawn: reserve 1"],
  };
  for (const [id, [place, role]] of Object.entries(places)) {
    const mine = await ticketVerdict({ id, record: text, files });
    assert.deepEqual([mine.place, mine.role], [place, role], mine.message);
  }
  const cy = await ticketVerdict({ id: "cy", record: text, files });
  assert.equal(cy.place, 5);
  assert.match(cy.role, /^not drawn/);
  assert.match((await ticketVerdict({ id: "zed", record: text, files })).message, /not among/);
  assert.match(
    (await ticketVerdict({ id: "bo", record: text, seed: "1" })).message,
    /not the record's/,
  );
  assert.match((await ticketVerdict({ id: "", seed: "2026" })).message, /type your ID/);
});
