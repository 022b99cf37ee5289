/**
 * Section 18 in a record (target.draw.method "ticket" or "rivest"): one stratum's entrants in
 * increasing ticket order, its count or those below the rate, then the reserves; the whole
 * order kept, so that an entrant can find their place in it.
 */

import { ticketDraw, ticketId, ticketsAtScale } from "../protocol/ticketdraws.js";
import { cannot, fail } from "./verdict.js";

export const TICKET_METHODS = ["ticket", "rivest"];

/** The field a ticket draw adds to each drawn row, and a ticket listing's last: its ticket. */
export const TICKET_FIELD = "Draw ticket";

/**
 * The most ticket numbers the page hashes for one draw: WebCrypto hashes some 70,000 a
 * second in Chromium, so a draw past it would hold the page for minutes (xlshuffle verify
 * is quicker).
 */
const PAGE_TICKETS = 2_000_000n;

/** The record's rules of a ticket draw that the draw itself cannot catch, checked first. */
export function checkTicketRules(d) {
  if (!(d.id && Number.isInteger(d.id.index)))
    fail("the record's ticket draw names no ID column: every ticket is an ID's, it was edited");
  if (d.method === "rivest" && (d.weights || d.one_entry_per_id || d.weight_scale !== undefined))
    fail(
      "the record draws Rivest's order with tickets per entrant: that order holds one ticket each, it was edited",
    );
  if (d.weight_scale !== undefined && !(Number.isInteger(d.weight_scale) && d.weight_scale >= 1))
    fail(
      `the record's weight scale ${JSON.stringify(d.weight_scale)} is not a whole number 1 or more`,
    );
  if (d.rate !== undefined && (d.k || (d.allocation && d.allocation.counts)))
    fail("the record's ticket draw gives both a count and a rate: it was edited");
}

/**
 * Each entrant's whole tickets at the record's stated scale (section 18, step 2), or null
 * (one each): with one entry per ID, its rows' tickets summed, or one a row.
 */
function ticketCounts(d, rows, members, textOf, rowNo, where) {
  if (!d.weights) return members ? rows.map((i) => BigInt(members.get(i).length)) : null;
  const every = members ? rows.flatMap((i) => members.get(i)) : rows;
  const each = every.map((i) => {
    try {
      return ticketsAtScale([textOf(i, d.weights.index) || "0"], d.weight_scale || 1)[0];
    } catch (e) {
      return fail(
        `data row ${rowNo(i)}, the tickets column ${JSON.stringify(d.weights.column)}${where}: ${e.message}`,
      );
    }
  });
  if (!members) return each;
  let at = 0;
  return rows.map((i) => members.get(i).reduce((sum) => sum + each[at++], 0n));
}

/**
 * The ticket draw, with the record's seed, of one stratum's entrants (data row indexes
 * `rows`, each an entrant's first row): its count `q` or those below the record's rate, then
 * the reserves. {got: rows in draw order, won, tickets: the ticket of each row got, order:
 * [{id, ticket, tickets}] every entrant holding a ticket, in draw order}.
 */
export async function ticketPart(seed, d, rows, q, { members, textOf, rowNo, where, takeAll }) {
  const ids = rows.map((i) => {
    try {
      return ticketId(textOf(i, d.id.index) || "");
    } catch (e) {
      return fail(`data row ${rowNo(i)}: ${e.message}; xlshuffle draws no such list`);
    }
  });
  const weights = ticketCounts(d, rows, members, textOf, rowNo, where);
  const total = weights ? weights.reduce((a, b) => a + b, 0n) : BigInt(rows.length);
  if (total > PAGE_TICKETS)
    cannot(
      `the record's draw holds more than ${PAGE_TICKETS.toLocaleString("en")} tickets${where}, more than this page hashes in good time: use xlshuffle verify`,
    );
  const reserves = d.reserves || 0;
  const can = weights ? weights.filter((w) => w > 0n).length : rows.length;
  let options;
  if (d.rate !== undefined) {
    options = { rate: d.rate, reserves };
  } else {
    const count = takeAll ? Math.min(q + reserves, can) : q + reserves;
    if (count > can)
      fail(
        `the record draws ${q}${reserves ? ` + ${reserves} reserves` : ""}${where}, which has ${can} entrant(s) holding tickets`,
      );
    options = { k: Math.min(q, count), reserves: count - Math.min(q, count) };
  }
  let draw;
  try {
    draw = await ticketDraw(ids, seed, {
      ...options,
      weights,
      method: d.method,
    });
  } catch (e) {
    fail(e.message + where);
  }
  return {
    got: draw.drawn.map((t) => rows[t.entrant]),
    won: draw.won,
    tickets: draw.drawn.map((t) => t.ticket),
    order: draw.order.map(({ id, ticket, tickets }) => ({ id, ticket, tickets })),
  };
}
