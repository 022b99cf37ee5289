/**
 * Section 12: systematic and monetary-unit selections.
 */

import { range } from "./python.js";
import { Stream } from "./stream.js";
import { holder } from "./tickets.js";

/** Section 12: {start, units} for k hits over N units (BigInt arithmetic). */
export async function auditHits(stream, N, k) {
  if (k === 0) return { start: null, units: [] };
  const total = BigInt(N);
  const s = await stream.randbelow(total);
  const units = range(k).map((j) => (s + BigInt(j) * total) / BigInt(k));
  return { start: s, units };
}

export async function systematic(n, k, seed) {
  const { start, units } = await auditHits(await Stream.ofSeed(seed), n, k);
  return { start, items: units };
}

/** Monetary-unit selection over whole cents: {start, units, selected: [[i, hits]], top}. */
export async function monetaryUnit(amounts, k, seed) {
  const a = amounts.map((x) => BigInt(x));
  const total = a.reduce((x, y) => x + y, 0n);
  const { start, units } = await auditHits(await Stream.ofSeed(seed), total, k);
  const hits = new Map();
  for (const u of units) {
    const i = holder(a, u);
    hits.set(i, (hits.get(i) || 0) + 1);
  }
  const top = range(a.length).filter((i) => a[i] * BigInt(k) >= total);
  return { start, units, selected: [...hits.entries()], top };
}
