/**
 * Section 8: winners drawn by whole tickets, one win each.
 */

import { TWO64 } from "./bytes.js";
import { Stream } from "./stream.js";

export function gcd(a, b) {
  while (b) {
    [a, b] = [b, a % b];
  }
  return a;
}

/** The index i whose range [c_i, c_i + sizes[i]) holds r (sizes and r BigInts). */
export function holder(sizes, r) {
  let i = 0;
  while (r >= sizes[i]) {
    r -= sizes[i];
    i++;
  }
  return i;
}

/** Section 8: k winners by whole tickets (Numbers, BigInts or decimal texts), in draw order. */
export async function weightedFrom(stream, weights, k) {
  let w = weights.map((x) => BigInt(x));
  if (w.some((x) => x < 0n)) throw new Error("a weight is negative");
  const g = w.reduce((a, b) => gcd(a, b), 0n);
  if (g > 1n) w = w.map((x) => x / g);
  const positive = w.filter((x) => x > 0n).length;
  if (k > positive) throw new Error(`only ${positive} entrants hold tickets: cannot draw ${k}`);
  const won = [];
  for (let t = 0; t < k; t++) {
    const total = w.reduce((a, b) => a + b, 0n);
    if (total > TWO64) throw new Error("the tickets sum to more than 2**64");
    const i = holder(w, await stream.randbelow(total));
    won.push(i);
    w[i] = 0n;
  }
  return won;
}

export async function weighted(weights, k, seed) {
  return weightedFrom(await Stream.ofSeed(seed), weights, k);
}

/** Decimal ticket texts ("2.5", "1") scaled to whole numbers by 10**p (section 8). */
export function scaleDecimals(texts) {
  const parts = texts.map((t) => {
    const m = /^\s*\+?(\d*)(?:\.(\d*))?\s*$/.exec(String(t));
    if (!m || (m[1] === "" && !m[2])) throw new Error("not a number of tickets: " + t);
    return [m[1] || "0", (m[2] || "").replace(/0+$/, "")];
  });
  const p = Math.max(0, ...parts.map(([, f]) => f.length));
  return parts.map(([i, f]) => BigInt(i + f.padEnd(p, "0")));
}
