/**
 * Cell texts (section 17).
 *
 * The list digest of a workbook takes each cell's text as `xlshuffle sample` writes it: a
 * number by Python's rules (an integer literal as it is, an integral float without ".0",
 * else Python's repr), a number shown with a date or time format as the date, time or date
 * and time it stands for (ISO 8601), True/False, an error's text, a string as it is.
 */

import { pythonFloatRepr } from "../protocol/python.js";
import { cellKey } from "./a1.js";
import { durationText, isoCellText, serialText } from "./dates.js";
import { eachDomCell } from "./sheets.js";
import { stringItemText } from "./xml.js";

/** The _xHHHH_ escapes of a shared or inline string decoded, as Excel reads them. */
function unescapeXstring(text) {
  if (text.indexOf("_x") < 0) return text;
  const hex4 = (at) =>
    /^_x[0-9a-fA-F]{4}_/.test(text.slice(at, at + 7))
      ? parseInt(text.slice(at + 2, at + 6), 16)
      : null;
  let out = "",
    start = 0,
    search = 0,
    at;
  while ((at = text.indexOf("_x", search)) >= 0) {
    let code = hex4(at);
    if (code === null) {
      search = at + 1;
      continue;
    }
    let end = at + 7;
    const low = code >= 0xd800 && code <= 0xdbff ? hex4(end) : null;
    if (low !== null && low >= 0xdc00 && low <= 0xdfff) {
      code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
      end += 7;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      search = at + 1;
      continue;
    }
    out += text.slice(start, at) + String.fromCodePoint(code);
    start = search = end;
  }
  return out + text.slice(start);
}

const XML_SPACE = /^[ \t\n\r]+|[ \t\n\r]+$/g;

/** The text of a number cell's <v>: an integer literal as an integer, else a float. */
export function numberCellText(literal) {
  if (/^[+-]?\d+$/.test(literal)) return BigInt(literal).toString();
  const x = Number(literal);
  if (Number.isNaN(x) || !/\d/.test(literal))
    throw new Error(`a number cell holds ${JSON.stringify(literal.slice(0, 40))}`);
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  return Number.isInteger(x) ? BigInt(x).toString() : pythonFloatRepr(x);
}

/**
 * A cell's text for the list digest, from its type (t), style index (s), the text of its <v>
 * (null: none) and of its <is> (null: none).
 */
function cellText(type, style, v, inline, book) {
  if (type === "inlineStr") return inline === null ? "" : unescapeXstring(inline);
  if (type === "str") return v === null ? "" : v;
  if (v === null || v.replace(XML_SPACE, "") === "") return "";
  const literal = v.replace(XML_SPACE, "");
  if (type === "n") {
    if (!book.styles.dates.has(style)) return numberCellText(literal);
    if (book.styles.elapsed.has(style)) return durationText(literal);
    return serialText(Number(literal), book.date1904);
  }
  if (type === "s") {
    const text = book.shared[+literal];
    if (text === undefined)
      throw new Error(`a cell names shared string ${literal}, which the workbook does not have`);
    return unescapeXstring(text);
  }
  if (type === "b") return literal === "1" || literal === "true" ? "True" : "False";
  if (type === "e") return v;
  if (type === "d") return isoCellText(literal);
  throw new Error(`a cell of unknown type t=${JSON.stringify(type)}`);
}

/** The digest texts of a sheet's cells: Map cellKey -> text (empty cells left out). */
export function sheetTexts(xml, book, name) {
  const texts = new Map();
  eachDomCell(xml, name, (r, col, c) => {
    let v = null,
      is = null;
    for (let child = c.firstElementChild; child; child = child.nextElementSibling) {
      if (child.localName === "v" && v === null) v = child.textContent;
      else if (child.localName === "is" && is === null) is = stringItemText(child);
    }
    const text = cellText(c.getAttribute("t") || "n", +(c.getAttribute("s") || 0), v, is, book);
    if (text !== "") texts.set(cellKey(r, col), text);
  });
  return texts;
}

/** Rows of digest texts: each row's texts in `columns`, empty ones at the end left out. */
export function textRows(texts, rows, columns) {
  return rows.map((r) => {
    const row = columns.map((c) => texts.get(cellKey(r, c)) || "");
    while (row.length && row[row.length - 1] === "") row.pop();
    return row;
  });
}
