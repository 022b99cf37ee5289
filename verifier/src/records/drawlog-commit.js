/**
 * Draw log rows of committed draws (section 17 in Excel), and of the commitments themselves.
 */

import { commitSeed, commitmentHash, listDigest } from "../protocol/commit.js";
import { range } from "../protocol/python.js";
import { PROTOCOL } from "../protocol/stream.js";
import { parseRef } from "../read/a1.js";
import { textRows } from "../read/celltexts.js";
import { readFile } from "../read/files.js";
import { openWorkbook } from "../read/workbook.js";
import { isZip } from "../read/zip.js";
import { boxName, gridOf, valuesSha256 } from "./drawlog-rows.js";
import { cannot, fail } from "./verdict.js";

/**
 * Section 17 for a Draw log row of a committed draw: commitment, seed, list digest. `texts`:
 * the selection's rows as the list digest takes them, in the order the draw read them.
 */
export async function checkLoggedCommitment(entry, texts) {
  let data;
  try {
    data = JSON.parse(entry.commitment);
  } catch (e) {
    fail("the Draw log row's commitment is not readable JSON: " + e.message);
  }
  const body = data && data.commitment ? data.commitment : data;
  if (!body || body.commitment_version !== 1)
    cannot("the Draw log row's commitment is of a version this page does not know");
  const hash = await commitmentHash(body);
  if (hash !== entry["commitment sha256"])
    fail(
      `the commitment in the Draw log row hashes to ${hash}, not to its commitment sha256 ${entry["commitment sha256"]}`,
    );
  const values = entry.reveal.split(" / ");
  let seed;
  try {
    seed = commitSeed(hash, values);
  } catch (e) {
    fail(`the revealed values: ${e.message}`);
  }
  if (seed !== entry.seed)
    fail(
      `the commitment hash and the revealed value(s) ${entry.reveal} give the seed ${JSON.stringify(seed)}, the Draw log row says ${JSON.stringify(entry.seed)}`,
    );
  const kinds =
    { sample: ["winners", "raffle"], shuffle: ["shuffle"], groups: ["groups", "teams"] }[
      body.draw.command
    ] || [];
  if (!kinds.includes(entry.mode))
    fail(`the commitment is to a ${body.draw.command}, the Draw log row is of a ${entry.mode}`);
  const digest = await listDigest(texts);
  if (digest !== body.list.sha256)
    fail(
      `the selection's list digest is ${digest}, the commitment's ${body.list.sha256}: not the committed list`,
    );
  return [
    `the commitment hashes to ${hash} (compare it with the hash published before the draw)`,
    `the seed comes from that hash and the revealed value(s) ${entry.reveal} (beacon: ${body.beacon})`,
    "the selection is the committed list",
  ];
}

/** A Draw log row of mode `commit` (section 17 in Excel): the commitment and the committed cells. */
export async function verifyLogCommit(entry, files) {
  let data;
  try {
    data = JSON.parse(entry.commitment);
  } catch (e) {
    fail("the Draw log row's commitment is not readable JSON: " + e.message);
  }
  const body = data && data.commitment ? data.commitment : data;
  if (!body || body.commitment_version !== 1 || body.protocol !== PROTOCOL)
    cannot("the Draw log row's commitment is of a version this page does not know");
  const hash = await commitmentHash(body);
  if (hash !== entry["commitment sha256"])
    fail(
      `the commitment in the Draw log row hashes to ${hash}, not to its commitment sha256 ${entry["commitment sha256"]}`,
    );
  if (body.list.sha256 !== entry["list sha256"])
    fail(
      `the commitment's list digest is ${body.list.sha256}, the Draw log row's list sha256 ${entry["list sha256"]}`,
    );
  let box;
  try {
    box = parseRef(entry.range.replace(/\$/g, ""));
  } catch (e) {
    fail("the Draw log row's range is not one block of cells: " + e.message);
  }
  const where = boxName(entry.sheet, box);
  let found = null;
  for (const f of files) {
    const { bytes } = await readFile(f);
    if (!isZip(bytes)) continue;
    const book = await openWorkbook(bytes);
    if (book.sheets.includes(entry.sheet)) {
      found = book;
      break;
    }
  }
  if (!found) fail(`give the workbook that holds the sheet ${JSON.stringify(entry.sheet)}`);
  const rows = gridOf((await found.cells(entry.sheet)).cells, box);
  if (body.list.rows !== rows.length)
    fail(`the commitment is to ${body.list.rows} rows, ${where} has ${rows.length}`);
  if ((await valuesSha256(rows)) !== entry["input sha256"]) {
    fail(
      `the values in ${where} are not the ones committed: their SHA-256 is not the log's input sha256 (changed since the commitment, moved by its draw if that was a shuffle, or another workbook)`,
    );
  }
  let all;
  try {
    all = await found.texts(entry.sheet);
  } catch (e) {
    cannot(`the list digest of ${where}: ${e.message}: use xlshuffle verify`);
  }
  const digest = await listDigest(
    textRows(
      all,
      range(rows.length).map((i) => box.r1 + i),
      range(box.c2 - box.c1 + 1).map((j) => box.c1 + j),
    ),
  );
  if (digest !== body.list.sha256)
    fail(
      `the list digest of ${where} is ${digest}, the commitment's ${body.list.sha256}: not the committed list`,
    );
  return {
    message:
      `Verified: Draw log row of ${entry["time (UTC)"]}: commitment to a ${body.draw.command} of ${where} (beacon: ${body.beacon}).` +
      ` Checked: the commitment hashes to ${hash} (compare it with the hash published); ${where} holds the committed values and list (digest ${digest}).` +
      " The draw itself is checked from its own row.",
    table: [],
  };
}
