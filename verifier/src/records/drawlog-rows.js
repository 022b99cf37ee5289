/**
 * Excel's Draw log: its rows pasted from Excel, the hash of a grid of values, and the
 * blocks of cells a row names.
 */

import { UTF8, sha256, toHex } from "../protocol/bytes.js";
import { cellKey, columnLetters, parseRef } from "../read/a1.js";
import { plain, showValue } from "../read/values.js";
import { fail } from "./verdict.js";

const LOG_COLUMNS = [
  "time (UTC)",
  "sheet",
  "range",
  "mode",
  "k",
  "hands",
  "output",
  "seed",
  "seed from",
  "protocol",
  "version",
  "input sha256",
  "output sha256",
  "formula",
  "command line",
  "restored (UTC)",
  "reserves",
  "tickets",
  "method",
  "new sheets",
  "options",
  // a committed draw (section 17 in Excel) adds these
  "commitment sha256",
  "list sha256",
  "beacon",
  "reveal",
  "commitment",
];

/** The rows of a Draw log pasted from Excel (tab-separated, with or without its header row). */
export function parseLogRows(text) {
  const entries = [];
  for (const line of String(text).split(/\r\n|\n|\r/)) {
    if (!line.trim()) continue;
    // Excel quotes a copied cell that holds quotes (or line breaks), doubling the inner ones
    const cells = line
      .split("\t")
      .map((c) => (/^".*"$/s.test(c) ? c.slice(1, -1).replace(/""/g, '"') : c).trim());
    if (cells[0] === LOG_COLUMNS[0]) continue; // the header row
    const entry = {};
    LOG_COLUMNS.forEach((name, i) => {
      entry[name] = cells[i] === undefined ? "" : cells[i];
    });
    entries.push(entry);
  }
  return entries;
}

/** The SHA-256 of a grid of values as the Draw log hashes it (docs/excel.md, "The input hash"). */
export async function valuesSha256(grid) {
  const width = grid.length ? grid[0].length : 0;
  const parts = [`${grid.length}x${width}\n`];
  for (const row of grid) {
    for (const v of row) {
      let tag = "e",
        text = "";
      if (v !== undefined && v !== null && v !== "s:") {
        tag = v[0] === "e" ? "s" : v[0];
        text = v.slice(2);
      }
      parts.push(`${tag}${UTF8.encode(text).length}:${text}`);
    }
    parts.push("\n");
  }
  return toHex(await sha256(UTF8.encode(parts.join(""))));
}

export function gridOf(cells, box) {
  const grid = [];
  for (let r = box.r1; r <= box.r2; r++) {
    const row = [];
    for (let c = box.c1; c <= box.c2; c++) row.push(plain(cells.get(cellKey(r, c))));
    grid.push(row);
  }
  return grid;
}

export function boxName(sheet, box) {
  return `${sheet}!${columnLetters(box.c1)}${box.r1}:${columnLetters(box.c2)}${box.r2}`;
}

/** A sheet and a block of it as a Draw log names them: "Sheet1!E2:E6", "'Sign-up'!A2:A31". */
export function sheetBlock(text) {
  const m = /^(?:'((?:[^']|'')+)'|([^!']+))!(.+)$/.exec(text.trim());
  if (!m)
    fail(
      `the Draw log row names the cells ${JSON.stringify(text)}, not a sheet and its cells (Sheet!A1:B2)`,
    );
  return {
    sheet: m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2],
    box: parseRef(m[3].replace(/\$/g, "")),
  };
}

/** The words of a command line as Python's shlex.quote writes them ('...' for odd words). */
export function shellWords(text) {
  const words = [];
  const token = /'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)|([^\s'"\\]+)|(\s+)/g;
  let word = null,
    m;
  while ((m = token.exec(text)) !== null) {
    if (m[5] !== undefined) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    const piece =
      m[1] !== undefined
        ? m[1]
        : m[2] !== undefined
          ? m[2].replace(/\\(.)/g, "$1")
          : m[3] !== undefined
            ? m[3]
            : m[4];
    word = (word || "") + piece;
  }
  if (word !== null) words.push(word);
  return words;
}

/** Compare a block of a sheet with the values a draw writes there; fail at the first cell that differs. */
export function compareBlock(cells, box, expected, sheetName, seed) {
  const height = Math.max(expected.length, box.r2 - box.r1 + 1);
  for (let r = 0; r < height; r++) {
    const width = Math.max((expected[r] || []).length, box.c2 - box.c1 + 1);
    for (let c = 0; c < width; c++) {
      const want = (expected[r] || [])[c],
        have = plain(cells.get(cellKey(box.r1 + r, box.c1 + c)));
      // a text that looks like a number may be kept as a number by Excel
      if (
        (want || null) !== (have || null) &&
        !(want && have && want.slice(2) === have.slice(2) && want[0] === "s" && have[0] === "n")
      ) {
        fail(
          `${sheetName}!${columnLetters(box.c1 + c)}${box.r1 + r} holds ${showValue(have)}, the draw with seed ${JSON.stringify(seed)} gives ${showValue(want)}`,
        );
      }
    }
  }
}
