/**
 * The rounds of a workbook's draw (`xlshuffle redraw` on the record of `sample book.xlsx`):
 * the draw checked from the workbook, the entrants' IDs and fields read from its sheet as
 * the draw read them, and a round's table (a sheet added to a copy of the workbook, or a
 * CSV/TSV list) compared value by value with the standing the rules give.
 */

import { canonicalId } from "../protocol/exclusions.js";
import { range } from "../protocol/python.js";
import { cellKey, columnLetters, keyColumn, keyRow } from "../read/a1.js";
import { decodeText, extensionOf } from "../read/files.js";
import { parseList } from "../read/lists.js";
import { plain } from "../read/values.js";
import { openWorkbook } from "../read/workbook.js";
import { isZip } from "../read/zip.js";
import { keptRows } from "./replay.js";
import { compareSheets, selectionOf } from "./moves.js";
import { cannot, fail } from "./verdict.js";
import { verifyWorkbook } from "./workbook.js";

/**
 * The draw of a workbook, checked from its files (`rest`), as the rounds read it: {checked
 * (verifyWorkbook's result), labels, entrants (the data rows that are entrants), idOf(row),
 * valuesOf(row), textOf(row, column), checkTable(file, rows, record)}, rows 0-based data rows.
 */
export async function bookDraw(draw, rest) {
  const checked = await verifyWorkbook(draw, rest, { outputOptional: true });
  const input = rest.find((f) => f.sha === draw.input_sha256);
  const book = await openWorkbook(input.bytes);
  const sheet = await book.cells(draw.sheet);
  let texts;
  try {
    texts = await book.texts(draw.sheet);
  } catch (e) {
    cannot(`the texts of ${input.name}'s cells: ${e.message}: use xlshuffle verify`);
  }
  const sel = selectionOf(draw);
  const head = draw.header ? 1 : 0;
  const first = sel.r1 + head;
  const height = sel.r2 - sel.r1 + 1 - head;
  const kept = draw.target.kept ? keptRows(draw.target.kept, first) : new Set();
  const entrants = range(height).filter((i) => !kept.has(i));
  const text = (r, c) => texts.get(cellKey(r, c)) || "";
  const labels = sel.columns.map((c) => (head ? text(sel.r1, c) : columnLetters(c)));
  const textOf = (i, j) => {
    const v = plain(sheet.cells.get(cellKey(first + i, sel.columns[j])));
    return v === undefined ? "" : v.slice(2);
  };
  const idOf = (i) => canonicalId(textOf(i, draw.target.draw.id.index));
  const valuesOf = (i) => sel.columns.map((c) => text(first + i, c));
  const checkTable = async (file, rows, r) => {
    if (!isZip(file.bytes)) return compareList(file, rows);
    const out = await openWorkbook(file.bytes);
    const name = r.output_sheet;
    if (!out.sheets.includes(name))
      fail(
        `${file.name} has no sheet ${JSON.stringify(name)}, the one the round's record says it added`,
      );
    // the drawn sheet is as it was: the round adds a sheet to a copy of the workbook
    compareSheets(sheet.cells, (await out.cells(draw.sheet)).cells, draw.sheet, file.name);
    let got;
    try {
      got = await out.texts(name);
    } catch (e) {
      cannot(`the texts of ${file.name}'s sheet ${JSON.stringify(name)}: ${e.message}`);
    }
    compareGrid(gridOf(got), rows, `${file.name}'s sheet ${JSON.stringify(name)}`);
  };
  return { checked, labels, entrants, idOf, valuesOf, textOf, checkTable };
}

/** A sheet's texts (Map cellKey -> text) as rows from row 1, blank cells "". */
function gridOf(texts) {
  const rows = [];
  for (const [key, t] of texts) {
    if (t === "") continue;
    const r = keyRow(key) - 1,
      c = keyColumn(key) - 1;
    while (rows.length <= r) rows.push([]);
    while (rows[r].length < c) rows[r].push("");
    rows[r][c] = t;
  }
  return rows.map((row) => Array.from(row, (t) => t ?? ""));
}

function trimmed(row) {
  const out = row.map((v) => String(v ?? ""));
  while (out.length && out[out.length - 1] === "") out.pop();
  return out;
}

/** Rows of texts against the table a round gives, row by row (blank cells at a row's end ignored). */
function compareGrid(got, want, where) {
  const n = Math.max(got.length, want.length);
  for (let r = 0; r < n; r++) {
    const a = trimmed(got[r] || []),
      b = trimmed(want[r] || []);
    if (a.join("\u0000") !== b.join("\u0000"))
      fail(
        `${where} differs at row ${r + 1}: it holds ${JSON.stringify(a.join(","))}, the rules give ${JSON.stringify(b.join(","))}`,
      );
  }
}

/** A round of a workbook's draw written as CSV/TSV, value by value. */
function compareList(file, rows) {
  const delimiter = ["tsv", "tab"].includes(extensionOf(file.name)) ? "\t" : ",";
  const got = parseList(decodeText(file.bytes).replace(/^\ufeff/, ""), delimiter).map(
    (r) => r.cells,
  );
  compareGrid(got, rows, `the round's table ${file.name}`);
}
