/**
 * Section 11: strata, each drawn from its own sub-stream, and largest-remainder shares.
 */

import { toHex } from "./bytes.js";
import { pyStrip, range } from "./python.js";
import { seedBytes } from "./seeds.js";
import { dealFrom } from "./shuffles.js";
import { Stream, seedKey, subKey } from "./stream.js";
import { weightedFrom } from "./tickets.js";

function labelBytes(label) {
  if (
    label === null ||
    label === undefined ||
    (typeof label === "string" && pyStrip(label) === "")
  ) {
    throw new Error("a blank stratum label is refused");
  }
  return seedBytes(label);
}

export async function stratumStream(seed, label) {
  return new Stream(await subKey("stratum", await seedKey(seed), labelBytes(label)));
}

/** Largest-remainder shares of a total K over sizes n_i (section 11). */
export function largestRemainder(sizes, total) {
  const N = sizes.reduce((a, b) => a + b, 0);
  if (total === 0 || N === 0) return sizes.map(() => 0);
  const big = sizes.map((n) => BigInt(total) * BigInt(n));
  const shares = big.map((x) => Number(x / BigInt(N)));
  const order = range(sizes.length).sort((a, b) => {
    const ra = big[a] % BigInt(N),
      rb = big[b] % BigInt(N);
    return ra === rb ? a - b : ra > rb ? -1 : 1;
  });
  const left = total - shares.reduce((a, b) => a + b, 0);
  for (const i of order.slice(0, left)) shares[i] += 1;
  return shares;
}

/**
 * Section 11: strata of rows by label. mode "k" (value: k; takeAll), "total" (value: K) or
 * "counts" (value: [[label, count], ...]). Returns [[first label, rows, drawn indexes], ...].
 */
export async function strata(seed, labels, mode, value, weights, takeAll) {
  const order = [],
    rows = new Map(),
    first = new Map();
  labels.forEach((label, i) => {
    const key = toHex(labelBytes(label));
    if (!rows.has(key)) {
      order.push(key);
      rows.set(key, []);
      first.set(key, label);
    }
    rows.get(key).push(i);
  });
  let counts;
  if (mode === "k") counts = order.map(() => value);
  else if (mode === "total")
    counts = largestRemainder(
      order.map((key) => rows.get(key).length),
      value,
    );
  else {
    const by = new Map(value.map(([label, c]) => [toHex(labelBytes(label)), c]));
    counts = order.map((key) => {
      if (!by.has(key)) throw new Error("no count for stratum " + first.get(key));
      return by.get(key);
    });
  }
  const out = [];
  for (let s = 0; s < order.length; s++) {
    const own = rows.get(order[s]);
    const stream = await stratumStream(seed, first.get(order[s]));
    let q = counts[s],
      drawn;
    if (weights) {
      const w = own.map((i) => weights[i]);
      const holders = w.filter((x) => BigInt(x) > 0n).length;
      if (q > holders && takeAll) q = holders;
      drawn = (await weightedFrom(stream, w, q)).map((p) => own[p]);
    } else {
      if (q > own.length) {
        if (!takeAll) throw new Error(`stratum ${first.get(order[s])} has only ${own.length} rows`);
        q = own.length;
      }
      drawn = await dealFrom(stream, own, q);
    }
    out.push([first.get(order[s]), own.length, drawn]);
  }
  return out;
}
