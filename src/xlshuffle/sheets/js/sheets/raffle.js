/**
 * Raffles on a range: tickets, reserves and exclusions by ID (protocol sections 5, 8 and
 * 10), as xlshuffle.excel.raffle draws them through the command line's table logic. The
 * rows left after the exclusion are drawn in their order; the result is the drawn rows in
 * draw order, each followed by its Role and Rank when reserves are asked for.
 */

import { canonicalId, keptIndexes } from "../protocol/exclusions.js";
import { numberText } from "../protocol/seeds.js";
import { dealFrom } from "../protocol/shuffles.js";
import { Stream } from "../protocol/stream.js";
import { ticketDraw, ticketsAtScale } from "../protocol/ticketdraws.js";
import { scaleDecimals, weightedFrom } from "../protocol/tickets.js";
import { Mistake, isEmpty } from "./cells.js";

/** Whole tickets from cells (numbers or texts of them), scaled to whole numbers (section 8). */
export function tickets(name, cells, noun) {
  const texts = cells.map((cell, i) => {
    if (typeof cell === "number" && Number.isFinite(cell) && cell >= 0) return numberText(cell);
    if (typeof cell === "string" && /^\s*\+?(\d+(\.\d*)?|\.\d+)\s*$/.test(cell)) return cell;
    const what = isEmpty(cell) ? "empty" : String(cell);
    throw new Mistake(
      `${name}, ${noun} ${i + 1} is ${what}: give a whole or decimal number of 0 or more`,
    );
  });
  if (texts.some((t) => /e/i.test(t)))
    throw new Mistake(`${name}: a number of tickets is too large or too small to read exactly`);
  return scaleDecimals(texts);
}

/** Refuse an ID on two items: each item is one entrant. */
export function uniqueIds(ids, noun) {
  const seen = new Map();
  ids.forEach((id, i) => {
    const text = canonicalId(id);
    if (text === "") return;
    if (seen.has(text))
      throw new Mistake(
        `ids, ${noun} ${i + 1}: the ID '${text}' is also in ids, ${noun} ${seen.get(text) + 1}: ` +
          `each ${noun} of data is one entrant, named by its ID: give each its own ID in ids ` +
          "(by default the first column of data)",
      );
    seen.set(text, i);
  });
}

/**
 * The items drawn (indexes into items), with their [role, rank] when reserves > 0.
 * weights: BigInt tickets per item or null; excluded: IDs or null (ids one per item).
 */
export function raffle(n, k, seed, { weights = null, reserves = 0, ids = null, excluded = null }) {
  const keep =
    excluded === null ? Array.from({ length: n }, (_, i) => i) : keptIndexes(ids, excluded);
  const count = k + reserves;
  const stream = Stream.ofSeed(seed);
  let picked;
  if (weights !== null) {
    const w = keep.map((i) => weights[i]);
    const holders = w.filter((x) => x > 0n).length;
    if (count > holders)
      throw new Mistake(
        `only ${holders} rows hold tickets: cannot draw ${count}; ask for fewer or give more rows tickets`,
      );
    picked = weightedFrom(stream, w, count).map((p) => keep[p]);
  } else {
    if (count > keep.length) {
      const asked = reserves ? `${k} + ${reserves} reserves` : `${k}`;
      throw new Mistake(
        `cannot draw ${asked} from ${keep.length} row${keep.length === 1 ? "" : "s"}: ask for fewer`,
      );
    }
    picked = dealFrom(stream, keep, count);
  }
  const roles = reserves
    ? picked.map((_, p) => (p < k ? ["winner", p + 1] : ["reserve", p - k + 1]))
    : null;
  return { picked, roles };
}

/**
 * A ticket draw (section 18): each entrant's own ticket from the seed and its ID, lowest
 * first (method "ticket", whole tickets by weights), or Rivest's order ("rivest"). The
 * items drawn, their [role, rank] with reserves, and each one's ticket.
 */
export function ticketRaffle(ids, k, seed, { weights, reserves, excluded, method }) {
  const keep =
    excluded === null
      ? Array.from({ length: ids.length }, (_, i) => i)
      : keptIndexes(ids, excluded);
  let whole = null;
  if (weights !== null) {
    try {
      whole = ticketsAtScale(keep.map((i) => weights[i]));
    } catch (exc) {
      throw new Mistake(
        `weights: ${exc.message}: a ticket draw counts whole tickets, so give the weights ` +
          "10 times over (--weight-scale 10 on the command line)",
      );
    }
  }
  const holders = whole === null ? keep.length : whole.filter((w) => w > 0n).length;
  if (k + reserves > holders) {
    const asked = reserves ? `${k} + ${reserves} reserves` : `${k}`;
    throw new Mistake(
      `data: cannot draw ${asked} from ${holders} entrant${holders === 1 ? "" : "s"}: ask for fewer`,
    );
  }
  let drawn;
  try {
    drawn = ticketDraw(
      keep.map((i) => ids[i]),
      seed,
      { k, reserves, weights: whole, method },
    ).drawn;
  } catch (exc) {
    throw new Mistake(`ids: ${exc.message}`);
  }
  const picked = drawn.map((t) => keep[t.entrant]);
  const roles = reserves
    ? picked.map((_, p) => (p < k ? ["winner", p + 1] : ["reserve", p - k + 1]))
    : null;
  return { picked, roles, tickets: drawn.map((t) => t.ticket) };
}
