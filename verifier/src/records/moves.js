/**
 * Where each cell of a drawn sheet goes, and a sheet's values and formulas compared with
 * where the draw puts them.
 */

import { range } from "../protocol/python.js";
import { cellKey, columnIndex, columnLetters, keyColumn, keyRow, parseRef } from "../read/a1.js";
import { formulaKey, formulaTexts, shiftFormula } from "../read/formulas.js";
import { plain, sameValue, showValue } from "../read/values.js";
import { fail } from "./verdict.js";

export function selectionOf(rec) {
  const box = parseRef(rec.target.ref);
  let columns = range(box.c2 - box.c1 + 1).map((i) => box.c1 + i);
  if (rec.target.kind === "columns") {
    if (!rec.target.columns) fail("a columns selection without its columns");
    columns = rec.target.columns.split(",").map(columnIndex);
  }
  return { ...box, columns };
}

/** Where each input cell of the sheet lands in the output, for a shuffle of mode rec.mode. */
export function shuffleMove(rec, sel, drawn) {
  const head = rec.header ? 1 : 0;
  const first = sel.r1 + head;
  const inside = new Set(sel.columns);
  const wholeRows = rec.unit === "rows" && rec.mode === "rows";
  const dest = new Map(); // "r,c" of the input -> "r,c" in the output
  if (rec.mode === "rows") {
    drawn.forEach((item, p) => dest.set(first + item, first + p));
    return (r, c) => (dest.has(r) && (wholeRows || inside.has(c)) ? [dest.get(r), c] : [r, c]);
  }
  if (rec.mode === "columns") {
    const cols = sel.columns;
    const to = new Map();
    drawn.forEach((item, p) => to.set(cols[item], cols[p]));
    return (r, c) => (r >= sel.r1 && r <= sel.r2 && to.has(c) ? [r, to.get(c)] : [r, c]);
  }
  if (rec.mode === "cells") {
    const w = sel.columns.length;
    const where = new Map();
    drawn.forEach((item, p) => where.set(item, p));
    const colAt = new Map(sel.columns.map((c, i) => [c, i]));
    return (r, c) => {
      if (r < first || r > sel.r2 || !colAt.has(c)) return [r, c];
      const p = where.get((r - first) * w + colAt.get(c));
      return [first + Math.floor(p / w), sel.columns[p % w]];
    };
  }
  throw new Error("mode " + rec.mode);
}

/** Where each cell lands in a shuffle --by within-rows / within-columns. */
export function lineMove(rec, sel, first, lines) {
  const colAt = new Map(sel.columns.map((c, i) => [c, i]));
  const inverse = lines.map((perm) => {
    const inv = new Array(perm.length);
    perm.forEach((src, p) => {
      inv[src] = p;
    });
    return inv;
  });
  return (r, c) => {
    if (r < first || r > sel.r2 || !colAt.has(c)) return [r, c];
    const i = r - first,
      j = colAt.get(c);
    if (rec.mode === "within-rows") return [r, sel.columns[inverse[i][j]]];
    return [first + inverse[j][i], c];
  };
}

/**
 * The column groups wrote its numbers to: the first column right of the selection that is
 * empty in the input's selected rows and filled in the output (right of the sheet's other
 * columns when the next one is taken).
 */
export function groupColumn(input, output, sel, first) {
  const used = new Set(),
    filled = new Set();
  for (const key of input.keys())
    if (keyRow(key) >= sel.r1 && keyRow(key) <= sel.r2) used.add(keyColumn(key));
  for (const key of output.keys())
    if (keyRow(key) >= first && keyRow(key) <= sel.r2) filled.add(keyColumn(key));
  const last = Math.max(...sel.columns, ...used, ...filled);
  for (let c = Math.max(...sel.columns) + 1; c <= last; c++)
    if (!used.has(c) && filled.has(c)) return c;
  return Math.max(...sel.columns) + 1;
}

/** Compare a sheet's values with the expected ones; fail at the first cell (row by row) that differs. */
export function compareSheets(
  expected,
  got,
  where,
  fileName,
  values = false,
  wantWords = "the draw gives",
  noun = "the output",
) {
  // values: compare what the cells show (a copy of the drawn rows holds values, not formulas)
  const same = values ? (a, b) => plain(a) === plain(b) : sameValue;
  let differ = [];
  for (const [key, want] of expected) if (!same(want, got.get(key))) differ.push(key);
  for (const [key, have] of got)
    if (!expected.has(key) && !(values && plain(have) === undefined)) differ.push(key);
  differ = Float64Array.from(differ).sort();
  if (differ.length) {
    const r = keyRow(differ[0]),
      c = keyColumn(differ[0]);
    fail(
      `${noun} ${fileName} differs at ${where}!${columnLetters(c)}${r}: it holds ${showValue(got.get(differ[0]))}, ${wantWords} ${showValue(expected.get(differ[0]))}` +
        (differ.length > 1 ? ` (${differ.length} cells differ in all)` : ""),
    );
  }
}

/**
 * Each formula of the input that `move` puts in another cell, translated there, against the
 * output's formula in that cell; fails at the first (row by row) that reads otherwise.
 * Returns how many were compared, and how many this page could not read.
 */
export function compareFormulas(inSheet, outSheet, move, where, fileName) {
  const want = formulaTexts(inSheet),
    got = formulaTexts(outSheet);
  let compared = 0,
    skipped = 0;
  const differ = [];
  for (const [key, text] of want) {
    const r = keyRow(key),
      c = keyColumn(key);
    const [r2, c2] = move(r, c);
    if (r2 === r && c2 === c) continue;
    const moved = shiftFormula(text, r2 - r, c2 - c),
      have = got.get(cellKey(r2, c2));
    if (moved === null || have === undefined) {
      skipped++;
      continue;
    }
    compared++;
    if (formulaKey(moved) !== formulaKey(have)) differ.push([cellKey(r2, c2), moved, have]);
  }
  if (differ.length) {
    differ.sort((a, b) => a[0] - b[0]);
    const [key, moved, have] = differ[0];
    fail(
      `the output ${fileName} differs at ${where}!${columnLetters(keyColumn(key))}${keyRow(key)}: its formula is =${have}, the draw gives =${moved} (the input's formula moved to this cell)` +
        (differ.length > 1 ? ` (${differ.length} formulas differ in all)` : ""),
    );
  }
  return { compared, skipped };
}
