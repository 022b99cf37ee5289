/**
 * Formula texts moved to another cell.
 *
 * A moved formula must read as its input formula translated to its new cell, the way Excel
 * translates a sorted formula (and xlshuffle, with openpyxl's Translator): a relative row
 * moves with the row, a relative column with the column; what is absolute ($), strings,
 * quoted sheet names and structured references ([...]) stay. Texts are compared without
 * white space and case outside strings, so an output saved again by Excel still reads alike.
 */

import { columnIndex, columnLetters, keyColumn, keyRow } from "./a1.js";

const MAX_ROWS = 1048576,
  MAX_COLUMNS = 16384;

// a cell (A1, $B$7), a span of columns (A:C) or of rows (3:5), not part of a longer name
const REFERENCE = new RegExp(
  [
    String.raw`(?<![\w.$])(\$?)([A-Za-z]{1,3})(\$?)(\d{1,7})(?![\w.(!])`,
    String.raw`(?<![\w.$:])(\$?)([A-Za-z]{1,3}):(\$?)([A-Za-z]{1,3})(?![\w.(!:])`,
    String.raw`(?<![\w.$:])(\$?)(\d{1,7}):(\$?)(\d{1,7})(?![\w.(!:])`,
  ].join("|"),
  "g",
);

/** A formula cut into [outside, piece]: strings, quoted sheet names and brackets are not
 * outside; null when one is not closed. */
function formulaParts(text) {
  const parts = [];
  let start = 0,
    i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch !== '"' && ch !== "'" && ch !== "[") {
      i++;
      continue;
    }
    parts.push([true, text.slice(start, i)]);
    let j = i + 1;
    if (ch === "[") {
      for (let depth = 1; depth > 0; j++) {
        if (j >= text.length) return null;
        if (text[j] === "'")
          j++; // an escaped character in a structured reference
        else if (text[j] === "[") depth++;
        else if (text[j] === "]") depth--;
      }
    } else {
      for (;;) {
        const k = text.indexOf(ch, j);
        if (k < 0) return null;
        j = k + 1;
        if (text[j] !== ch) break;
        j++; // a doubled quote stands for itself
      }
    }
    parts.push([false, text.slice(i, j)]);
    start = i = j;
  }
  parts.push([true, text.slice(start)]);
  return parts;
}

/** `text` moved by `dr` rows and `dc` columns; null when a reference would leave the sheet
 * or the text is not one this page reads. */
export function shiftFormula(text, dr, dc) {
  const parts = formulaParts(text);
  if (!parts) return null;
  let off = false;
  const row = (fixed, digits) => {
    const n = fixed ? +digits : +digits + dr;
    if (n < 1 || n > MAX_ROWS) off = true;
    return fixed + (fixed || !dr ? digits : String(n));
  };
  const column = (fixed, letters) => {
    const n = columnIndex(letters.toUpperCase());
    const moved = fixed ? n : n + dc;
    if (n > MAX_COLUMNS || moved < 1 || moved > MAX_COLUMNS) off = true;
    return fixed + (fixed || !dc ? letters : columnLetters(moved));
  };
  const out = parts
    .map(([outside, piece]) =>
      !outside
        ? piece
        : piece.replace(REFERENCE, (m, c1, l1, r1, d1, c2, l2, c3, l3, r2, d2, r3, d3) => {
            if (l1 !== undefined) return column(c1, l1) + row(r1, d1);
            if (l2 !== undefined) return column(c2, l2) + ":" + column(c3, l3);
            return row(r2, d2) + ":" + row(r3, d3);
          }),
    )
    .join("");
  return off ? null : out;
}

/** A formula's text without white space and in capitals, outside strings and brackets. */
export function formulaKey(text) {
  const parts = formulaParts(text);
  if (!parts) return text;
  return parts
    .map(([outside, piece]) => (outside ? piece.replace(/\s+/g, "").toUpperCase() : piece))
    .join("");
}

/** Each formula cell's text, a shared formula's follower's from its master (Map key -> text). */
export function formulaTexts(sheet) {
  if (sheet.texts) return sheet.texts;
  const masters = new Map(),
    texts = new Map();
  for (const [key, f] of sheet.formulas) {
    if (f.t === "shared" && f.text !== null && f.si !== null) masters.set(f.si, [key, f.text]);
  }
  for (const [key, f] of sheet.formulas) {
    if (f.text !== null) {
      texts.set(key, f.text);
      continue;
    }
    const master = f.t === "shared" ? masters.get(f.si) : undefined;
    if (!master) continue;
    const text = shiftFormula(
      master[1],
      keyRow(key) - keyRow(master[0]),
      keyColumn(key) - keyColumn(master[0]),
    );
    if (text !== null) texts.set(key, text);
  }
  sheet.texts = texts;
  return texts;
}
