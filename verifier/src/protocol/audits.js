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

/** Section 20: one random unit in each of k cells, each cell with its own start. */
export async function cellHits(stream, N, k) {
  const total = BigInt(N);
  const starts = [],
    units = [];
  for (let j = 0; j < k; j++) {
    const s = await stream.randbelow(total);
    starts.push(s);
    units.push((s + BigInt(j) * total) / BigInt(k));
  }
  return { start: null, starts, units };
}

/** Section 20's cell selection over whole cents: {starts, units, selected: [[i, hits]], certain}. */
export async function cell(amounts, k, seed) {
  const a = amounts.map((x) => BigInt(x));
  const total = a.reduce((x, y) => x + y, 0n);
  const { starts, units } = await cellHits(await Stream.ofSeed(seed), total, k);
  const hits = new Map();
  for (const u of units) {
    const i = holder(a, u);
    hits.set(i, (hits.get(i) || 0) + 1);
  }
  // certain: the item's values of x, [k*c, k*(c + a)), hold a whole cell [j*N, (j+1)*N)
  const certain = [];
  let c = 0n;
  for (const i of range(a.length)) {
    const K = BigInt(k);
    if (range(k).some((j) => K * c <= BigInt(j) * total && BigInt(j + 1) * total <= K * (c + a[i])))
      certain.push(i);
    c += a[i];
  }
  return { starts, units, selected: [...hits.entries()], certain };
}

/**
 * Section 20: a ledger's signed cents split into the items set aside (0 or below), the top
 * stratum (at or above the cutoff: cents, "interval" or null) and the items sampled.
 */
export function musSplit(amounts, k, cutoff) {
  const a = amounts.map((x) => BigInt(x));
  const positive = range(a.length).filter((i) => a[i] > 0n);
  const T = positive.reduce((sum, i) => sum + a[i], 0n);
  const isTop = (i) =>
    cutoff === null || cutoff === undefined
      ? false
      : cutoff === "interval"
        ? a[i] * BigInt(k) >= T
        : a[i] >= BigInt(cutoff);
  return {
    setAside: range(a.length).filter((i) => a[i] <= 0n),
    top: positive.filter(isTop),
    sampled: positive.filter((i) => !isTop(i)),
  };
}

/** Section 20 over plain values: {setAside, top, selected: [[i, hits]] in input order}. */
export async function musSelect(amounts, k, seed, cutoff, cells) {
  const { setAside, top, sampled } = musSplit(amounts, k, cutoff);
  const sizes = sampled.map((i) => BigInt(amounts[i]));
  const total = sizes.reduce((x, y) => x + y, 0n);
  const stream = await Stream.ofSeed(seed);
  const { units } = cells ? await cellHits(stream, total, k) : await auditHits(stream, total, k);
  const hits = new Map(top.map((i) => [i, 0]));
  for (const u of units) {
    const i = sampled[holder(sizes, u)];
    hits.set(i, (hits.get(i) || 0) + 1);
  }
  return { setAside, top, selected: [...hits.entries()].sort((x, y) => x[0] - y[0]) };
}
