/**
 * Rounds of workbook draws and of raffles locked in Excel, checked in Node against what
 * xlshuffle itself wrote (verifier/tests/fixtures/rounds/, by tools/make_round_fixtures.py):
 * the chain of a workbook draw's rounds with their tables on added sheets, and a Draw log's
 * raffle and round rows with the workbook saved after them. Forged copies (a reason, a
 * winner, a table swapped) must not verify.
 */

import assert from "node:assert/strict";
import { test } from "node:test";

import { verifyRecord } from "../src/records/verify.js";
import { DOMParser } from "./dom.mjs";
import { bytesOf, textOf } from "./support.mjs";

globalThis.DOMParser = DOMParser; // Node has none: the readers take this one

const BOOK = "verifier/tests/fixtures/rounds/book/";
const EXCEL = "verifier/tests/fixtures/rounds/excel/";
const file = (name, content) => ({
  name,
  bytes: typeof content === "string" ? new TextEncoder().encode(content) : content,
});
const bookFile = (name) => file(name, bytesOf(BOOK + name));

async function round(record, names, extra = []) {
  return verifyRecord({ record, files: [...names.map(bookFile), ...extra] });
}

test("a workbook draw's two rounds verify, their tables on the sheets they added", async () => {
  const record = textOf(BOOK + "round2.json");
  for (const names of [
    ["book.xlsx", "draw.json", "round1.json", "round2.xlsx"],
    ["book.xlsx", "draw.json", "draw.xlsx", "round1.json", "round1.xlsx", "round2.xlsx"],
  ]) {
    const result = await round(record, names);
    assert.ok(result.verified, result.message);
    assert.match(result.message, /the draw and its 2 round\(s\)/);
    assert.match(result.message, /round 2 \(round2\.xlsx\): T6's place went to T9/);
  }
  const one = await round(textOf(BOOK + "round1.json"), ["book.xlsx", "draw.json", "round1.xlsx"]);
  assert.ok(one.verified, one.message);
});

test("a forged round of a workbook draw does not verify", async () => {
  const names = ["book.xlsx", "draw.json", "round1.json"];
  const record = JSON.parse(textOf(BOOK + "round2.json"));
  const table = bookFile("round2.xlsx");
  // another reason: the table's Note says otherwise
  const reason = await round(JSON.stringify({ ...record, reason: "declined" }), names, [table]);
  assert.ok(!reason.verified && reason.supported, reason.message);
  assert.match(reason.message, /sheet "Round" differs at row \d+/);
  // another winner
  const given = { ...record, given_to: { ...record.given_to, id: "T2" } };
  const winner = await round(JSON.stringify(given), names, [table]);
  assert.match(winner.message, /the rules give it to "T9"/);
  // an earlier round's reason changed: the chain breaks there
  const earlier = textOf(BOOK + "round1.json").replace('"no answer"', '"away"');
  const chain = await round(
    JSON.stringify(record),
    ["book.xlsx", "draw.json"],
    [file("round1.json", earlier), table],
  );
  assert.match(chain.message, /round1\.json is not the record this round follows/);
  // round 1's table given as round 2's
  const swapped = await round(JSON.stringify(record), names, [
    file("round2.xlsx", bytesOf(BOOK + "round1.xlsx")),
  ]);
  assert.ok(!swapped.verified && swapped.supported, swapped.message);
  // (found by its SHA-256 as round 1's table, it leaves round 2 without one)
  assert.match(swapped.message, /give the table this round wrote \(round2\.xlsx\)/);
  const drawOut = await round(JSON.stringify(record), names, [
    file("round2.xlsx", bytesOf(BOOK + "draw.xlsx")),
  ]);
  assert.match(drawOut.message, /round2\.xlsx has no sheet "Round"/);
  // another workbook as the input
  const other = await round(
    JSON.stringify(record),
    ["draw.json", "round1.json"],
    [file("book.xlsx", bytesOf(EXCEL + "draw.xlsx")), table],
  );
  assert.ok(!other.verified, other.message);
});

// ---------------------------------------------------------------- rounds locked in Excel

const LOG = textOf(EXCEL + "log.tsv");
const [HEADER, DRAW, ROUND1, ROUND2] = LOG.trimEnd().split("\n");
const saved = (name = "Raffle.xlsx") => file("Raffle.xlsx", bytesOf(EXCEL + name));

test("a raffle locked in Excel and its rounds verify, row by row and as the whole log", async () => {
  const whole = await verifyRecord({ record: LOG, files: [saved()] });
  assert.ok(whole.verified, whole.message);
  assert.match(whole.message, /round 2: 102's place went to 107, reserve 2 \("declined"\)/);
  for (const rows of [[ROUND2], [ROUND1, ROUND2], [DRAW, ROUND1, ROUND2], [HEADER, ROUND2]]) {
    const result = await verifyRecord({ record: rows.join("\n"), files: [saved()] });
    assert.ok(result.verified, result.message);
  }
  // the draw's row alone: the rows it drew checked, the roles the rounds rewrote named
  const draw = await verifyRecord({ record: DRAW, files: [saved()] });
  assert.ok(draw.verified, draw.message);
  assert.match(draw.message, /rewritten by rounds since/);
  // and on the workbook saved before the rounds, as before
  const before = await verifyRecord({ record: DRAW, files: [saved("draw.xlsx")] });
  assert.ok(before.verified, before.message);
});

test("a forged round of a raffle locked in Excel does not verify", async () => {
  const refused = async (record, files = [saved()]) => {
    const result = await verifyRecord({ record, files });
    assert.ok(!result.verified && result.supported, result.message);
    return result.message;
  };
  // another reason in the command line: the round's hashes no longer follow
  assert.match(
    await refused(ROUND2.replaceAll("--reason declined", "--reason away")),
    /round 2\): the result's hashes/,
  );
  // another winner replaced
  assert.match(await refused(ROUND2.replaceAll("--replace 102", "--replace 101")), /round 2/);
  // the result's cells swapped for the standing after round 1
  const after1 = await refused(ROUND2, [saved("draw.xlsx")]);
  assert.match(after1, /holds .*, the draw and its rounds give/);
  // a round row's hash edited
  const [, , , , , , , , , , , input] = ROUND1.split("\t");
  assert.match(await refused(ROUND1.replace(input, "0".repeat(64))), /round 1\)/);
});
