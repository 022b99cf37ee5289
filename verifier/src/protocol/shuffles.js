/**
 * Sections 5 and 7: the forward Durstenfeld shuffle stopped after k steps (deal),
 * shuffles, groups, grids, and the deck that cards are dealt from.
 */

import { range } from "./python.js";
import { Stream } from "./stream.js";

/** Forward Durstenfeld, stopped after min(k, n - 1) steps; returns the first k (a new array). */
export async function dealFrom(stream, items, k) {
  const a = Array.from(items);
  const n = a.length;
  const steps = Math.min(k, n - 1);
  for (let i = 0; i < steps; i++) {
    const j = i + (await stream.randbelow(n - i));
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
  return a.slice(0, Math.min(k, n));
}

export async function shuffleFrom(stream, items) {
  const a = Array.from(items);
  return dealFrom(stream, a, a.length);
}

export async function deal(items, k, seed) {
  return dealFrom(await Stream.ofSeed(seed), items, k);
}

export async function shuffle(items, seed) {
  const a = Array.from(items);
  return deal(a, a.length, seed);
}

export async function permutation(n, seed) {
  return shuffle(range(n), seed);
}

/** groups(n, k): the group (1-based) of each item 0 .. n-1. */
export async function groups(n, k, seed) {
  const perm = await permutation(n, seed);
  const out = new Array(n);
  perm.forEach((item, p) => {
    out[item] = (p % k) + 1;
  });
  return out;
}

/** Grid shuffles: by "rows", "columns", "cells", "within-rows", "within-columns". */
export async function shuffleGrid(grid, by, seed) {
  const s = await Stream.ofSeed(seed);
  const rows = grid.length;
  const cols = rows ? grid[0].length : 0;
  if (by === "rows")
    return shuffleFrom(
      s,
      grid.map((r) => r.slice()),
    );
  if (by === "columns") {
    const order = await shuffleFrom(s, range(cols));
    return grid.map((r) => order.map((c) => r[c]));
  }
  if (by === "cells") {
    const flat = await shuffleFrom(s, grid.flat());
    return range(rows).map((r) => flat.slice(r * cols, (r + 1) * cols));
  }
  if (by === "within-rows") {
    const out = [];
    for (const r of grid) out.push(await shuffleFrom(s, r));
    return out;
  }
  if (by === "within-columns") {
    const out = grid.map((r) => r.slice());
    for (let c = 0; c < cols; c++) {
      const col = await shuffleFrom(
        s,
        grid.map((r) => r[c]),
      );
      col.forEach((v, r) => {
        out[r][c] = v;
      });
    }
    return out;
  }
  throw new Error("unknown grid mode " + by);
}

/** Section 7's deck: suits ♣ ♦ ♥ ♠, ranks A 2 .. 10 J Q K, then jokers; decks one after another. */
export function standardDeck(jokers, decks) {
  const one = [];
  for (const suit of ["♣", "♦", "♥", "♠"]) {
    for (const rank of ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
      one.push(rank + suit);
  }
  for (let j = 0; j < jokers; j++) one.push("Joker");
  return Array.from({ length: decks }, () => one).flat();
}

/** deal_hands: one deal of cards * hands; hand h gets positions h, h + hands, ... */
export async function dealHands(deck, cards, hands, seed) {
  const dealt = await deal(deck, cards * hands, seed);
  return range(hands).map((h) => range(cards).map((c) => dealt[h + c * hands]));
}
