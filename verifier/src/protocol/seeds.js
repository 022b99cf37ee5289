/**
 * Section 1: a seed's bytes, from a text, a number, or a typed value.
 */

import { UTF8 } from "./bytes.js";
import { pythonFloatRepr } from "./python.js";

/** A number as section 1 writes it: integral as its integer text, else Python's repr. */
export function numberText(x) {
  if (typeof x === "bigint") return x.toString();
  if (typeof x !== "number" || !Number.isFinite(x))
    throw new Error("a seed cannot be NaN or infinite");
  if (Number.isSafeInteger(x)) return String(x === 0 ? 0 : x);
  if (Number.isInteger(x)) return BigInt(x).toString();
  return pythonFloatRepr(x);
}

export const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/** The Excel serial number of a date ("2026-11-21") or date and time ("2026-11-21T18:00:00"). */
export function excelSerial(text) {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?$/.exec(text);
  if (!m) throw new Error("not a date: " + text);
  const day = Date.UTC(+m[1], +m[2] - 1, +m[3]);
  const days = Math.round((day - EXCEL_EPOCH) / 86400000);
  if (m[4] === undefined) return days;
  const fraction = (m[7] || "0").padEnd(3, "0");
  const ms =
    ((+m[4] * 60 + +m[5]) * 60 + +(m[6] || 0)) * 1000 + Math.round(+("0." + fraction) * 1000);
  return days + ms / 86400000;
}

/**
 * Section 1: a seed's bytes. A seed is a text, a number (JavaScript number or BigInt), or a
 * typed value {type: "str"|"int"|"float"|"date"|"datetime", value}.
 */
export function seedBytes(seed) {
  if (seed !== null && typeof seed === "object" && "type" in seed) {
    const { type, value } = seed;
    if (type === "str") return seedBytes(String(value));
    if (type === "int") return UTF8.encode(BigInt(value).toString());
    if (type === "float") return seedBytes(Number(value));
    if (type === "date" || type === "datetime") return seedBytes(excelSerial(value));
    throw new Error("a seed of type " + type + " is refused");
  }
  if (typeof seed === "string") {
    if (seed === "") throw new Error("an empty seed is no seed: it cannot be replayed");
    return UTF8.encode(seed.normalize("NFC"));
  }
  if (typeof seed === "boolean" || seed === null || seed === undefined) {
    throw new Error("a seed cannot be a boolean or missing");
  }
  return UTF8.encode(numberText(seed));
}
