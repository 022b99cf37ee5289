/**
 * Section 18: ticket draws. Each entrant's own tickets, from the seed's key and its canonical
 * ID alone; the order they give (k, a rate, reserves, tickets at a stated scale); the
 * population digest; Rivest's consistent-sampler order. (Section 8's tickets, drawn from the
 * stream, are tickets.js.)
 */

import { UTF8, sha256, toHex, whenAll } from "./bytes.js";
import { canonicalId } from "./exclusions.js";
import { compareCodePoints } from "./python.js";
import { seedBytes } from "./seeds.js";
import { seedKey } from "./stream.js";

/** What every ticket's hashed text starts with (step 1). */
export const TICKET_DOMAIN = "xlshuffle/ticket/v1/";

const TOP = 1n << 256n;

/**
 * WebCrypto's digest is asynchronous: this many are started before any is awaited, which
 * keeps a long list's hashing fast without holding a promise per ticket.
 */
const BATCH = 4096;

/** An entrant's ID in a ticket draw: its canonical text (section 10), not blank, on one line. */
export function ticketId(value) {
  const text = canonicalId(value);
  if (text === "") throw new Error("an ID is blank: every entrant of a ticket draw needs one");
  if (/[\n\r]/.test(text))
    throw new Error(
      `the ID ${JSON.stringify(text)} holds a line break, which a ticket's ID may not`,
    );
  return text;
}

/** "xlshuffle/ticket/v1/" + the seed's key (step 2) as 64 hex digits + "/". */
export async function ticketPrefix(seed) {
  return TICKET_DOMAIN + toHex(await seedKey(seed)) + "/";
}

async function numbered(prefix, id, j) {
  return toHex(await sha256(UTF8.encode(prefix + String(j) + "/" + id)));
}

/** Step 1: ticket number j (0, 1, ...) of the entrant `id` for the seed, as 64 hex digits. */
export async function ticket(seed, id, j = 0) {
  if (BigInt(j) < 0n) throw new Error(`a ticket's number is 0 or more, not ${j}`);
  return numbered(await ticketPrefix(seed), ticketId(id), BigInt(j));
}

/** Step 6: h, the SHA-256 (64 hex digits) of the seed's text, which Rivest's tickets start from. */
async function rivestSeedHash(seed) {
  return toHex(await sha256(seedBytes(seed)));
}

async function rivestOf(seedHash, id) {
  const value = BigInt("0x" + toHex(await sha256(UTF8.encode(seedHash + id))));
  return "0." + Array.from(value.toString().padStart(64, "0")).reverse().join("");
}

/** Step 6: the entrant's ticket in Rivest's order: "0." and its decimal digits, lowest first. */
export async function rivestTicket(seed, id) {
  return rivestOf(await rivestSeedHash(seed), ticketId(id));
}

/** Whole ticket counts (Numbers, BigInts or whole decimal texts) as BigInts, none negative. */
function counts(weights, n) {
  if (weights.length !== n) throw new Error(`${weights.length} ticket counts for ${n} entrants`);
  return weights.map((w, i) => {
    const c = BigInt(w);
    if (c < 0n) throw new Error(`entrant ${i + 1}: the ticket count ${c} is negative`);
    return c;
  });
}

/**
 * Each entrant's ticket, in input order, those holding no ticket (weight 0) left out:
 * [{entrant (0-based index), id (canonical), ticket, tickets (its count, a BigInt)}]. Step 2:
 * an entrant holding w tickets has the smallest of its ticket numbers 0 .. w-1. `method`
 * "ticket" (steps 1-2) or "rivest" (step 6: one ticket each, no weights).
 */
export async function ticketsOf(ids, seed, { weights = null, method = "ticket" } = {}) {
  const texts = ids.map((v, i) => {
    try {
      return ticketId(v);
    } catch (e) {
      throw new Error(`entrant ${i + 1}: ${e.message}`, { cause: e });
    }
  });
  const first = new Map();
  texts.forEach((t, i) => {
    if (first.has(t))
      throw new Error(
        `entrants ${first.get(t) + 1} and ${i + 1} share the ID ${JSON.stringify(t)}: a ticket belongs to one entrant`,
      );
    first.set(t, i);
  });
  if (method === "rivest") {
    if (weights) throw new Error("Rivest's order holds one ticket per entrant: no weights");
    const h = await rivestSeedHash(seed);
    const out = [];
    for (let at = 0; at < texts.length; at += BATCH) {
      const some = texts.slice(at, at + BATCH);
      const got = await whenAll(some.map((t) => rivestOf(h, t)));
      got.forEach((t, x) => out.push({ entrant: at + x, id: some[x], ticket: t, tickets: 1n }));
    }
    return out;
  }
  if (method !== "ticket") throw new Error(`a ticket draw's method is ticket or rivest`);
  const w = weights ? counts(weights, texts.length) : texts.map(() => 1n);
  const prefix = await ticketPrefix(seed);
  const best = new Array(texts.length).fill(null);
  let pending = [];
  const settle = async () => {
    const got = await whenAll(pending.map(([, p]) => p));
    got.forEach((t, x) => {
      const n = pending[x][0];
      if (best[n] === null || t < best[n]) best[n] = t;
    });
    pending = [];
  };
  for (let n = 0; n < texts.length; n++) {
    for (let j = 0n; j < w[n]; j++) {
      pending.push([n, numbered(prefix, texts[n], j)]);
      if (pending.length >= BATCH) await settle();
    }
  }
  await settle();
  return texts
    .map((id, n) => ({ entrant: n, id, ticket: best[n], tickets: w[n] }))
    .filter((t) => t.ticket !== null);
}

/** Step 2's order: increasing ticket (as texts), ties by the canonical ID in code point order. */
export function byTicket(a, b) {
  if (a.ticket !== b.ticket) return a.ticket < b.ticket ? -1 : 1;
  return compareCodePoints(a.id, b.id);
}

/** A rate (a decimal text, "0.05", or [numerator, denominator]) as an exact fraction. */
export function rateFraction(rate) {
  let num, den;
  if (Array.isArray(rate)) {
    [num, den] = rate.map((x) => BigInt(x));
  } else {
    const m = /^\s*\+?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(String(rate));
    if (!m || (m[1] === "" && !m[2])) throw new Error(`${JSON.stringify(rate)} is not a rate`);
    const fraction = m[2] || "";
    num = BigInt((m[1] || "0") + fraction);
    let exponent = BigInt(m[3] || 0) - BigInt(fraction.length);
    den = 1n;
    if (exponent < 0n) den = 10n ** -exponent;
    else num *= 10n ** exponent;
  }
  if (den <= 0n || num <= 0n || num > den)
    throw new Error(
      `a rate is more than 0 and at most 1, not ${Array.isArray(rate) ? `${num}/${den}` : rate}`,
    );
  return [num, den];
}

/**
 * Step 3: the bound a ticket must be below to be drawn at a rate p, ceil(p * 2**256) as 64
 * hex digits; null when every ticket is below it (p = 1).
 */
export function rateThreshold(rate) {
  const [num, den] = rateFraction(rate);
  const bound = (num * TOP + den - 1n) / den;
  return bound >= TOP ? null : bound.toString(16).padStart(64, "0");
}

/**
 * Steps 2-3 and section 9: a ticket draw of `k` (or, instead, every entrant below a `rate`),
 * then `reserves` more. {order: every entrant holding a ticket, in draw order (as
 * ticketsOf gives them), drawn: its first winners and reserves, won: how many win}. Without k
 * or a rate, every entrant is drawn.
 */
export async function ticketDraw(
  ids,
  seed,
  { k = null, rate = null, reserves = 0, weights = null, method = "ticket" } = {},
) {
  if (k !== null && rate !== null) throw new Error("give k or a rate, not both");
  if ((k !== null && k < 0) || reserves < 0) throw new Error("k and reserves are 0 or more");
  let threshold = null;
  if (rate !== null) {
    threshold = rateThreshold(rate);
    if (method === "rivest" && threshold !== null)
      throw new Error(
        "Rivest's order draws every entrant: a rate below 1 takes section 18's tickets",
      );
  }
  const order = (await ticketsOf(ids, seed, { weights, method })).sort(byTicket);
  let won = order.length;
  if (rate !== null) {
    won = threshold === null ? order.length : order.filter((t) => t.ticket < threshold).length;
  } else if (k !== null) {
    won = Math.min(k, order.length);
  }
  return { order, drawn: order.slice(0, won + reserves), won };
}

/** The entrants a ticket draw draws, by 0-based index: winners, then reserves. */
export async function ticketOrder(ids, seed, options = {}) {
  return (await ticketDraw(ids, seed, options)).drawn.map((t) => t.entrant);
}

/**
 * Step 5: the population digest (hex) of the entrants' IDs, and for a weighted draw their
 * ticket counts: each line the canonical ID (and a tab and the count), sorted by code point,
 * joined by line feeds.
 */
export async function populationDigest(ids, weights = null) {
  let lines = ids.map((v) => ticketId(v));
  if (weights) {
    const c = counts(weights, lines.length);
    lines = lines.map((t, i) => `${t}\t${c[i]}`);
  }
  return toHex(await sha256(UTF8.encode(lines.sort(compareCodePoints).join("\n"))));
}

/**
 * Step 2's whole tickets of weights at a stated scale: each decimal text read exactly and
 * multiplied by `scale`, which must make it whole (no common divisor taken: the scale is
 * part of the draw). BigInts.
 */
export function ticketsAtScale(texts, scale = 1) {
  const s = BigInt(scale);
  if (s < 1n) throw new Error(`a scale is a whole number 1 or more, not ${scale}`);
  return texts.map((text) => {
    const m = /^\s*\+?(\d*)(?:\.(\d*))?\s*$/.exec(String(text));
    if (!m || (m[1] === "" && !m[2]))
      throw new Error(`${JSON.stringify(text)} is not a number of tickets`);
    const fraction = (m[2] || "").replace(/0+$/, "");
    const unit = 10n ** BigInt(fraction.length);
    const scaled = BigInt((m[1] || "0") + fraction) * s;
    if (scaled % unit !== 0n)
      throw new Error(
        `${String(text).trim()} tickets is not a whole number of tickets at scale ${scale}`,
      );
    return scaled / unit;
  });
}
