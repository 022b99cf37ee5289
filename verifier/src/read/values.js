/**
 * A cell's value as the verifier compares it ("s:text", "n:1.5", "F" for a formula...),
 * and as a person reads it.
 */

import { numberText } from "../protocol/seeds.js";
import { stringItemText } from "./xml.js";

/**
 * A cell value as the verifier compares it: "s:text", "n:1.5", "b:TRUE", "e:#N/A"; a formula
 * cell is "F" and its cached value ("Fn:16"), or "F" alone when the file keeps no value.
 */
export function cellValue(c, shared) {
  const type = c.getAttribute("t") || "n";
  let v = null,
    is = null,
    f = false;
  for (let child = c.firstElementChild; child; child = child.nextElementSibling) {
    if (child.localName === "v") v = child;
    else if (child.localName === "is") is = child;
    else if (child.localName === "f") f = true;
  }
  const value =
    type === "inlineStr"
      ? "s:" + (is ? stringItemText(is) : "")
      : typedValue(type, v ? v.textContent : "", shared);
  return f ? "F" + (value === null || value === "s:" ? "" : value) : value;
}

/** The value of a cell of type `type` whose <v> holds `text` (null: none). */
export function typedValue(type, text, shared) {
  if (type === "str") return "s:" + text;
  if (text === "") return null; // <v/>: no value
  if (type === "s") return "s:" + shared[+text];
  if (type === "b") return "b:" + (text === "1" || text === "true" ? "TRUE" : "FALSE");
  if (type === "e") return "e:" + text;
  if (/^-?[1-9]\d{0,14}$/.test(text)) return "n:" + text; // a whole number, as Python writes it
  const x = Number(text);
  return "n:" + (Number.isFinite(x) ? numberText(x) : text);
}

/** A value without its formula mark: the cached value of a formula (undefined if none). */
export function plain(v) {
  if (v === null || v === undefined || v[0] !== "F") return v === null ? undefined : v;
  return v.length > 1 ? v.slice(1) : undefined;
}

/**
 * Whether an output cell holds what the draw puts there. A formula's cached value counts
 * only when both files keep one: a program that saves a workbook may drop or recompute them.
 */
export function sameValue(want, got) {
  if (want === got) return true;
  if (want && got && want[0] === "F" && got[0] === "F") return want === "F" || got === "F";
  return false;
}

/** Show a cell value to a person. */
export function showValue(v) {
  if (v === null || v === undefined) return "(empty)";
  if (v[0] === "F") return v === "F" ? "a formula" : `a formula showing ${showValue(v.slice(1))}`;
  const text = v.slice(2);
  return v[0] === "s" ? JSON.stringify(text) : text;
}
