/**
 * SAMPLEBY and AUDITSAMPLE: a sample from each stratum (protocol section 11), and an
 * audit's selection, systematic or monetary-unit (sections 12 and 20), as
 * xlshuffle.excel.samples draws them: strata in order of first appearance, each from its
 * own sub-stream, its k winners then its reserves; an audit's rows in their order, a
 * monetary-unit one (by a fixed interval or by cells) with the column Hits, and with a top
 * stratum the column Top stratum.
 */

import { musSelect, systematic } from "../protocol/audits.js";
import { numberText } from "../protocol/seeds.js";
import { strata } from "../protocol/strata.js";
import { Mistake, isEmpty } from "./cells.js";
import { tickets } from "./raffle.js";

/** Rows drawn from each stratum: [[label, size, drawn indexes], ...] with roles. */
export function byStrata(labels, k, seed, { weights = null, reserves = 0 }) {
  const parts = strata(seed, labels, "k", k + reserves, weights, false);
  const out = [];
  for (const [, , drawn] of parts) {
    drawn.forEach((i, p) => {
      out.push([i, reserves ? (p < k ? ["winner", p + 1] : ["reserve", p - k + 1]) : []]);
    });
  }
  return out;
}

export function weightsOf(cells, noun) {
  return tickets("weights", cells, noun);
}

// xlshuffle.draw.values' money texts with a decimal point: digits grouped in threes by a
// comma, a space, a no-break space, a narrow one or an apostrophe, or not grouped at all
const GROUPED = /^([+-]?)(\d{1,3}(?:([, \u00a0\u202f'])\d{3})(?:\3\d{3})*)(\.\d*)?$/;
const PLAIN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const SYMBOL = /^\p{Sc}$/u;

/**
 * An amount (a number, or a text such as "$1,234.56", "(12.00)" or "-5 €") as whole cents,
 * negative allowed, as xlshuffle.draw.values.parse_amounts(signed=True) reads it; null for
 * a value that is no amount, or has more than 2 decimal places (`why` then says which).
 */
function amountOf(cell) {
  if (typeof cell === "boolean") return { why: "not" };
  let body = (typeof cell === "number" ? numberText(cell) : String(cell)).trim().normalize("NFKC");
  let sign = "";
  if (body.length > 1 && body[0] === "(" && body[body.length - 1] === ")") {
    sign = "-";
    body = body.slice(1, -1).trim();
  }
  if (body[0] === "+" || body[0] === "-") {
    sign = sign || body[0];
    body = body.slice(1).trim();
  }
  if (body && SYMBOL.test(body[0])) body = body.slice(1).trim();
  else if (body && SYMBOL.test(body[body.length - 1])) body = body.slice(0, -1).trim();
  body = sign + body;
  const grouped = GROUPED.exec(body);
  if (grouped) body = grouped[1] + grouped[2].split(grouped[3]).join("") + (grouped[4] || "");
  if (!PLAIN.test(body)) return { why: "not" };
  const negative = body[0] === "-";
  const [whole, fraction = ""] = body.replace(/^[+-]/, "").split(".");
  const places = fraction.replace(/0+$/, "");
  if (places.length > 2) return { why: "places" };
  const value = BigInt((whole || "0") + places.padEnd(2, "0"));
  return { cents: negative ? -value : value };
}

/** Money amounts (numbers or texts such as "$1,234.56"; "-5" or "(5.00)" below 0) as
 * whole cents. */
export function cents(cells, noun) {
  return cells.map((cell, i) => {
    const where = `amounts, ${noun} ${i + 1}`;
    if (isEmpty(cell)) throw new Mistake(`${where} is empty: give an amount such as 1234.56`);
    const textGiven = typeof cell === "number" ? numberText(cell) : String(cell);
    const got = amountOf(cell);
    if (got.why === "places")
      throw new Mistake(`${where}: the amount ${textGiven} has more than 2 decimal places`);
    if (got.why) throw new Mistake(`${where}: ${textGiven} is not an amount such as 1234.56`);
    return got.cents;
  });
}

/**
 * AUDITSAMPLE's top_stratum as a cutoff: null (empty), "interval", or whole cents more
 * than 0 (xlshuffle.functions.samples._cutoff).
 */
export function cutoffOf(cell, how) {
  if (isEmpty(cell) || (typeof cell === "string" && !cell.trim())) return null;
  if (how === "systematic")
    throw new Mistake('top_stratum is read by method "mus" or "cell": give amounts');
  if (typeof cell === "string" && cell.trim().toLowerCase() === "interval") return "interval";
  // Excel's words (xlshuffle.draw.values.parse_amounts), with ', or "interval"'
  const shown = typeof cell === "number" ? numberText(cell) : String(cell);
  const got = amountOf(cell);
  if (got.why === "places")
    throw new Mistake(
      `top_stratum: the amount ${shown} has more than 2 decimal places: round it (in ` +
        'Excel, =ROUND(A2, 2)), or "interval"',
    );
  if (got.why)
    throw new Mistake(
      `top_stratum: the amount ${JSON.stringify(shown).replace(/^"|"$/g, "'")} is not a ` +
        'number: write an amount such as 1234.56, or "interval"',
    );
  if (got.cents < 0n)
    throw new Mistake(
      `top_stratum: the amount cannot be negative (${shown}): use 0 to leave the entry ` +
        'out, or "interval"',
    );
  if (got.cents < 1n) throw new Mistake('top_stratum must be an amount more than 0, or "interval"');
  return got.cents;
}

/**
 * An audit's selection: [[index, extra fields], ...] in the rows' order. `amounts` (cents)
 * for a monetary-unit one (`cells`: one unit in each of k cells), whose fields are its
 * Hits and, with a `cutoff`, Top stratum ("yes" or "no"); the rows of amount 0 or below
 * are set aside, and a negative one refused, as the Excel function refuses it.
 */
export function audit(n, k, seed, amounts, { cells = false, cutoff = null, noun = "row" } = {}) {
  if (amounts === null) {
    if (k > n) throw new Mistake(`cannot select ${k} from ${n} rows: ask for fewer`);
    return systematic(n, k, seed).items.map((i) => [Number(i), []]);
  }
  const positive = amounts.filter((a) => a > 0n).reduce((a, b) => a + b, 0n);
  const top = (a) =>
    cutoff === null ? false : cutoff === "interval" ? a * BigInt(k) >= positive : a >= cutoff;
  const total = amounts.filter((a) => a > 0n && !top(a)).reduce((a, b) => a + b, 0n);
  if (BigInt(k) > total)
    throw new Mistake(`cannot make ${k} hits over ${total} cents: ask for fewer`);
  const { setAside, top: whole, selected } = musSelect(amounts, k, seed, cutoff, cells);
  const credit = setAside.find((i) => amounts[i] < 0n);
  if (credit !== undefined)
    throw new Mistake(
      `amounts, ${noun} ${credit + 1}: the amount is below 0: a monetary-unit sample sets ` +
        "credits aside as their own population, so leave them out of data (=FILTER(...)) " +
        "and audit them apart, or use xlshuffle sample, which lists them",
    );
  const taken = new Set(whole);
  return selected.map(([i, hits]) => [
    i,
    cutoff === null ? [hits] : [hits, taken.has(i) ? "yes" : "no"],
  ]);
}
