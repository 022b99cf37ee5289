/**
 * SAMPLEBY and AUDITSAMPLE: a sample from each stratum (protocol section 11), and an
 * audit's selection, systematic or monetary-unit (section 12), as xlshuffle.excel.samples
 * draws them: strata in order of first appearance, each from its own sub-stream, its k
 * winners then its reserves; an audit's rows in their order, a monetary-unit one with the
 * column Hits.
 */

import { monetaryUnit, systematic } from "../protocol/audits.js";
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

const MONEY = /^\s*[$€£¥]?\s*(\d{1,3}(?:[, \u00a0']\d{3})+|\d+)(?:\.(\d*))?\s*[$€£¥]?\s*$/;

/** Money amounts (numbers or texts such as "$1,234.56") as whole cents. */
export function cents(cells, noun) {
  return cells.map((cell, i) => {
    const where = `amounts, ${noun} ${i + 1}`;
    if (isEmpty(cell)) throw new Mistake(`${where} is empty: give an amount such as 1234.56`);
    const textGiven = typeof cell === "number" ? numberText(cell) : String(cell);
    const m = MONEY.exec(textGiven);
    if (!m || typeof cell === "boolean")
      throw new Mistake(`${where}: ${textGiven} is not an amount such as 1234.56`);
    const fraction = (m[2] || "").replace(/0+$/, "");
    if (fraction.length > 2)
      throw new Mistake(`${where}: the amount ${textGiven} has more than 2 decimal places`);
    return BigInt(m[1].replace(/[, \u00a0']/g, "") + fraction.padEnd(2, "0"));
  });
}

/** An audit's selection: [[index, hits or null], ...] in the rows' order. */
export function audit(n, k, seed, amounts) {
  if (amounts === null) {
    if (k > n) throw new Mistake(`cannot select ${k} from ${n} rows: ask for fewer`);
    return systematic(n, k, seed).items.map((i) => [Number(i), null]);
  }
  const total = amounts.reduce((a, b) => a + b, 0n);
  if (BigInt(k) > total)
    throw new Mistake(`cannot make ${k} hits over ${total} cents: ask for fewer`);
  return monetaryUnit(amounts, k, seed)
    .selected.sort((a, b) => a[0] - b[0])
    .map(([i, hits]) => [i, hits]);
}
