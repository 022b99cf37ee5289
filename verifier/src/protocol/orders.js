/**
 * Sections 13-14: per-person orders and counterbalanced (Williams) orders.
 */

import { pyStrip, range } from "./python.js";
import { seedBytes } from "./seeds.js";
import { dealFrom, shuffleFrom } from "./shuffles.js";
import { Stream, seedKey, subKey } from "./stream.js";

export async function personStream(seed, id) {
  if (id === null || id === undefined || (typeof id === "string" && pyStrip(id) === "")) {
    throw new Error("a blank ID is refused");
  }
  return new Stream(await subKey("person", await seedKey(seed), seedBytes(id)));
}

export async function personOrder(n, k, seed, id) {
  return dealFrom(await personStream(seed, id), range(n), k);
}

export function williams(n) {
  const first = range(n).map((p) => (p === 0 ? 0 : p % 2 ? (p + 1) >> 1 : n - (p >> 1)));
  const rows = range(n).map((i) => first.map((x) => (x + i) % n));
  return n % 2 ? rows.concat(rows.map((r) => r.slice().reverse())) : rows;
}

export async function balancedOrders(n, people, k, seed) {
  const s = await Stream.ofSeed(seed);
  const design = williams(n),
    R = design.length;
  const relabel = await shuffleFrom(s, range(n));
  const orders = [];
  let block = null;
  for (let j = 0; j < people; j++) {
    if (j % R === 0) block = await shuffleFrom(s, range(R));
    orders.push(design[block[j % R]].slice(0, k).map((x) => relabel[x]));
  }
  return orders;
}
