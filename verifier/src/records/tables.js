/**
 * Tables a draw reads or writes as texts (CSV/TSV lists, text lists, a workbook's first
 * sheet or chosen cells), and a table compared with the one the draw gives.
 */

import { pyStrip } from "../protocol/python.js";
import { cellKey, columnIndex, columnLetters, keyColumn, keyRow, parseRef } from "../read/a1.js";
import { decodeText, extensionOf } from "../read/files.js";
import { parseList } from "../read/lists.js";
import { openWorkbook } from "../read/workbook.js";
import { isZip } from "../read/zip.js";
import { shortRow } from "./replay.js";
import { cannot, fail } from "./verdict.js";

/** The values of an items/IDs file: a CSV/TSV list (header, then its column) or a text file (one a line). */
export async function listValues(file, column) {
  const text = isZip(file.bytes) ? "" : decodeText(file.bytes).replace(/^\ufeff/, "");
  const ext = extensionOf(file.name);
  if (!isZip(file.bytes) && !["csv", "tsv", "tab"].includes(ext)) {
    const lines = text.split(/\r\n|\n|\r/);
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    return lines.map((l) => pyStrip(l)).filter((l) => l !== "");
  }
  // a CSV/TSV list, or a workbook's first sheet read as a list (header in row 1)
  const records = isZip(file.bytes)
    ? (await tableRows(file)).map((cells) => ({ cells }))
    : parseList(text, ext === "csv" ? "," : "\t");
  const header = records[0] ? records[0].cells : [];
  let index = 0;
  if (column !== null && column !== undefined) {
    index = header.indexOf(column);
    if (index < 0 && /^[A-Z]{1,3}$/.test(column)) index = columnIndex(column) - 1;
    if (index < 0) fail(`${file.name} has no column ${JSON.stringify(column)}`);
  }
  return records
    .slice(1)
    .map((r) => pyStrip(r.cells[index] === undefined ? "" : r.cells[index]))
    .filter((v) => v !== "");
}

/** The texts of a workbook's cells as xlshuffle reads them (dates in ISO 8601...), or cannot. */
async function workbookTexts(file, book, sheet) {
  try {
    return await book.texts(sheet);
  } catch (e) {
    cannot(`the cells of ${file.name}: ${e.message}: use xlshuffle verify`);
  }
}

/** The rows of a table file as texts: a CSV/TSV list, or the first sheet of a workbook. */
async function tableRows(file, delimiter = ",") {
  if (!isZip(file.bytes))
    return parseList(decodeText(file.bytes).replace(/^\ufeff/, ""), delimiter).map((r) => r.cells);
  const book = await openWorkbook(file.bytes);
  const texts = await workbookTexts(file, book, book.sheets[0]);
  const rows = [];
  for (const [key, text] of texts) {
    const r = keyRow(key) - 1,
      c = keyColumn(key) - 1;
    while (rows.length <= r) rows.push([]);
    while (rows[r].length <= c) rows[r].push("");
    rows[r][c] = text;
  }
  return rows;
}

/**
 * The values of chosen cells of a workbook (--items-range, --ids-range: "A2:A41",
 * "Items!B2:B41", one row "B1:K1"; no sheet: the first), in order, as texts with white space
 * at either end left out; blank cells at the end left out, a blank one before them refused.
 */
export async function rangeTexts(file, cells) {
  if (!isZip(file.bytes))
    fail(`${file.name} is not a workbook, and the record reads the cells ${cells} of it`);
  const book = await openWorkbook(file.bytes);
  const m = /^'((?:[^']|'')+)'!(.+)$/.exec(cells.trim()) || /^(.+)!([^!]+)$/.exec(cells.trim());
  const sheet = m ? m[1].replace(/''/g, "'") : book.sheets[0];
  if (!book.sheets.includes(sheet))
    fail(`${file.name} has no sheet ${JSON.stringify(sheet)}, whose cells ${cells} the draw read`);
  let box;
  try {
    box = parseRef((m ? m[2] : cells).trim().replace(/\$/g, ""));
  } catch (e) {
    fail(`the record's range ${cells}: ${e.message}`);
  }
  if (box.r1 !== box.r2 && box.c1 !== box.c2)
    fail(`the record's range ${cells} is not one column or one row`);
  const texts = await workbookTexts(file, book, sheet);
  const places = [];
  for (let r = box.r1; r <= box.r2; r++) for (let c = box.c1; c <= box.c2; c++) places.push([r, c]);
  const values = places.map(([r, c]) => pyStrip(texts.get(cellKey(r, c)) || ""));
  while (values.length && values[values.length - 1] === "") values.pop();
  const blank = values.indexOf("");
  if (blank >= 0)
    fail(
      `${file.name}: sheet ${JSON.stringify(sheet)} cell ${columnLetters(places[blank][1])}${places[blank][0]} is blank: the draw refuses blank values, so the cells changed since`,
    );
  return values;
}

export async function compareTable(expected, file, delimiter = ",") {
  const got = await tableRows(file, delimiter);
  for (let r = 0; r < Math.max(expected.length, got.length); r++) {
    const want = expected[r],
      have = got[r];
    if (!have) fail(`${file.name} ends at row ${r}: row ${r + 1} should hold ${shortRow(want)}`);
    if (!want) fail(`${file.name} has a row ${r + 1} the draw did not write: ${shortRow(have)}`);
    for (let c = 0; c < Math.max(want.length, have.length); c++) {
      if (String(want[c]) !== String(have[c])) {
        const holds = have[c] === undefined ? "nothing" : JSON.stringify(have[c]);
        const gives = want[c] === undefined ? "nothing" : JSON.stringify(String(want[c]));
        fail(
          `${file.name} differs at row ${r + 1}, column ${c + 1}: it holds ${holds}, the draw gives ${gives}`,
        );
      }
    }
  }
}
